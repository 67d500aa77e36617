// dispatch.cu: is the block-start limit blocktime found GPU-wide or per SM?
//
// blocktime measured that an H200 starts at most ~0.836 blocks a core cycle with every SM
// taking blocks. Here a "blocker" kernel holds B SMs (one block each, with all of an SM's
// shared memory, spinning), and empty blocks of 32 threads, up to 4 per SM, run on the other
// SMs meanwhile. If the rate stays ~0.836 a cycle whatever B, the limit is GPU-wide (what
// sm.block_dispatch_per_cycle models); if it falls in proportion to the free SMs, per SM.
//
//   nvcc -O3 -arch=native -o dispatch dispatch.cu && ./dispatch
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "common.cuh"

// Holds its SM (all of its shared memory) for ns nanoseconds; records its SM.
__global__ void blocker(long long ns, unsigned *sm) {
    extern __shared__ char hold[];
    if (threadIdx.x) return;
    unsigned long long t0 = gtimer();
    while ((long long)(gtimer() - t0) < ns) {
    }
    sm[blockIdx.x] = smid_reg();
    if (ns < 0) hold[0] = 0; // never: keeps the allocation referenced
}

// An empty block: thread 0 records its SM (one 4-byte store, as blocktime's records).
__global__ void empty(unsigned *sm) {
    extern __shared__ char spoiler[];
    if (threadIdx.x) return;
    sm[blockIdx.x] = smid_reg();
    if (blockIdx.x == 0xffffffffu) spoiler[0] = 0;
}

int main(void) {
    int nsm, smemSM, smemOptin, smemRes, khz;
    CK(cudaSetDevice(0));
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaDeviceGetAttribute(&smemSM, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
    CK(cudaDeviceGetAttribute(&smemOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    CK(cudaDeviceGetAttribute(&smemRes, cudaDevAttrReservedSharedMemoryPerBlock, 0));
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    const double hz = khz * 1e3; // blocktime measured the same 1980 MHz by clock64
    CK(cudaFuncSetAttribute(blocker, cudaFuncAttributeMaxDynamicSharedMemorySize, smemOptin));
    CK(cudaFuncSetAttribute(empty, cudaFuncAttributeMaxDynamicSharedMemorySize, smemOptin));
    CK(cudaFuncSetAttribute(blocker, cudaFuncAttributePreferredSharedMemoryCarveout,
                            (int)cudaSharedmemCarveoutMaxShared));
    CK(cudaFuncSetAttribute(empty, cudaFuncAttributePreferredSharedMemoryCarveout,
                            (int)cudaSharedmemCarveoutMaxShared));
    const int grid = 1 << 19; // empty blocks per launch
    unsigned *dsm, *dblk, *hsm = (unsigned *)malloc(sizeof(unsigned) * grid);
    unsigned *hblk = (unsigned *)malloc(sizeof(unsigned) * nsm);
    CK(cudaMalloc(&dsm, sizeof(unsigned) * grid));
    CK(cudaMalloc(&dblk, sizeof(unsigned) * nsm));
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    printf("# sms,%d,clock_mhz,%.0f,grid,%d\n", nsm, hz / 1e6, grid);
    printf("# dispatch,blocked_sms,blocksPerSM,free_sms_seen,blocker_sms_distinct,us,"
           "blocks_per_cycle,blocks_per_cycle_per_free_sm\n");
    // none, a quarter, half and three quarters of the SMs, all but 12 (132 SMs: 0 33 66 99 120)
    int bs[] = {0, nsm / 4, nsm / 2, 3 * nsm / 4, nsm - 12};
    int ks[] = {2, 4};
    for (int bi = 0; bi < 5; bi++)
        for (int ki = 0; ki < 2; ki++) {
            int B = bs[bi], k = ks[ki];
            size_t smem = (size_t)(smemSM / k - smemRes) - 1024;
            float best = 1e30f;
            int seen = 0, distinct = 0;
            for (int rep = 0; rep < 4; rep++) {
                if (B > 0) {
                    blocker<<<B, 32, smemOptin, s1>>>(150000000LL, dblk); // 150 ms
                    CK(cudaGetLastError());
                    // let the blockers take their SMs before the measured kernel starts
                    struct timespec ts = {0, 20000000};
                    nanosleep(&ts, NULL);
                }
                CK(cudaEventRecord(e0, s2));
                empty<<<grid, 32, smem, s2>>>(dsm);
                CK(cudaGetLastError());
                CK(cudaEventRecord(e1, s2));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                CK(cudaDeviceSynchronize());
                if (ms < best) best = ms;
                if (rep == 3) {
                    CK(cudaMemcpy(hsm, dsm, sizeof(unsigned) * grid, cudaMemcpyDeviceToHost));
                    char used[1024] = {0}, blk[1024] = {0};
                    for (int i = 0; i < grid; i++) used[hsm[i] & 1023] = 1;
                    for (int i = 0; i < 1024; i++) seen += used[i];
                    if (B > 0) {
                        CK(cudaMemcpy(hblk, dblk, sizeof(unsigned) * B, cudaMemcpyDeviceToHost));
                        for (int i = 0; i < B; i++) blk[hblk[i] & 1023] = 1;
                        for (int i = 0; i < 1024; i++) distinct += blk[i];
                    }
                }
            }
            double cyc = best * 1e-3 * hz, rate = grid / cyc;
            printf("dispatch,%d,%d,%d,%d,%.1f,%.3f,%.5f\n", B, k, seen, distinct, best * 1e3,
                   rate, seen ? rate / seen : 0.0);
            fflush(stdout);
        }
    return 0;
}
