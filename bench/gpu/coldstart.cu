// coldstart.cu: is the first row of a gpu-stream run slow because the GPU starts cold?
//
// gmsim's one stream point beyond 30% (A100 stream_init_bw at blockSize 32) is the first
// kernel the gpu-stream version behind the measured rows times in its whole run: init at 32
// threads, 2 blocks per SM, after only the arrays' fill. This program repeats that start as
// that version runs it (N = 128 Mi + 2 doubles, 4 arrays, a fill kernel, then for blockSize
// 32 the kernels init, read, scale, triad, each the median of 9 host-timed pairs of launches;
// 2 blocks per SM through a shared-memory spoiler) from a GPU left idle, prints every sample
// with its host time since the start, and then times the same row twice more, warm.
//
//   nvcc -O3 -arch=native -o coldstart coldstart.cu && ./coldstart
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "common.cuh"

static const size_t N = (size_t)128 * 1024 * 1024 + 2;

enum { K_INIT, K_READ, K_SCALE, K_TRIAD };
static const char *kname[] = {"init", "read", "scale", "triad"};
static const int kstreams[] = {1, 1, 2, 3}; // the measured version's triad: A = 1.2 B + C

template <int K>
__global__ void kern(double *A, const double *B, const double *C, size_t n) {
    extern __shared__ double spoiler[];
    size_t tidx = threadIdx.x + (size_t)blockIdx.x * blockDim.x;
    if (tidx >= n) return;
    if (K == K_INIT) A[tidx] = 0.23;
    if (K == K_READ) {
        double t = B[tidx];
        if (t == 123.0) { A[tidx] = t; spoiler[0] = t; }
    }
    if (K == K_SCALE) A[tidx] = 1.2 * B[tidx];
    if (K == K_TRIAD) A[tidx] = 1.2 * B[tidx] + C[tidx];
}

__global__ void fill(double *p, size_t n, double v) {
    for (size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = v;
}

typedef void (*KFn)(double *, const double *, const double *, size_t);
static double t_start;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// One measurement as the measured version makes it: 9 samples of 2 launches, host-timed.
static double measure(const char *pass, KFn f, int k, int bs, size_t smem, double *A,
                      double *B, double *C) {
    double s[9];
    int grid = (int)(N / bs + 1);
    for (int i = 0; i < 9; i++) {
        CK(cudaDeviceSynchronize());
        double t0 = now_s();
        f<<<grid, bs, smem>>>(A, B, C, N);
        f<<<grid, bs, smem>>>(A, B, C, N);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        double t1 = now_s();
        s[i] = (t1 - t0) / 2;
        printf("sample,%s,%s,%d,%d,%.1f,%.1f,%.1f\n", pass, kname[k], bs, i,
               (t0 - t_start) * 1e3, s[i] * 1e6, kstreams[k] * 8.0 * N / s[i] / 1e9);
    }
    qsort(s, 9, sizeof s[0], cmpd);
    double gbs = kstreams[k] * 8.0 * N / s[4] / 1e9;
    printf("median,%s,%s,%d,%.1f,%.1f\n", pass, kname[k], bs, s[4] * 1e6, gbs);
    fflush(stdout);
    return gbs;
}

int main(void) {
    t_start = now_s();
    {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        printf("# start_epoch,%ld.%03ld\n", (long)ts.tv_sec, ts.tv_nsec / 1000000);
    }
    CK(cudaSetDevice(0));
    int nsm, smemSM, smemRes;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaDeviceGetAttribute(&smemSM, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
    CK(cudaDeviceGetAttribute(&smemRes, cudaDevAttrReservedSharedMemoryPerBlock, 0));
    printf("# info,sms,%d,smem_per_sm,%d,context_ms,%.1f\n", nsm, smemSM,
           (now_s() - t_start) * 1e3);
    double *A, *B, *C, *D;
    CK(cudaMalloc(&A, N * 8));
    CK(cudaMalloc(&B, N * 8));
    CK(cudaMalloc(&C, N * 8));
    CK(cudaMalloc(&D, N * 8));
    fill<<<4 * nsm, 256>>>(A, N, 0.0);
    fill<<<4 * nsm, 256>>>(B, N, 1.0);
    fill<<<4 * nsm, 256>>>(C, N, 2.0);
    fill<<<4 * nsm, 256>>>(D, N, 3.0);
    CK(cudaDeviceSynchronize());
    printf("# filled at %.1f ms\n", (now_s() - t_start) * 1e3);
    KFn fs[4] = {kern<K_INIT>, kern<K_READ>, kern<K_SCALE>, kern<K_TRIAD>};
    // 2 blocks per SM: each block asks for a bit over a third of the SM's shared memory
    size_t smem = (size_t)(smemSM / 2 - smemRes) - 4096;
    for (int k = 0; k < 4; k++) {
        CK(cudaFuncSetAttribute(fs[k], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        CK(cudaFuncSetAttribute(fs[k], cudaFuncAttributePreferredSharedMemoryCarveout,
                                (int)cudaSharedmemCarveoutMaxShared));
        int ach;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ach, fs[k], 32, smem));
        printf("# %s: %d blocks per SM at 32 threads\n", kname[k], ach);
    }
    printf("# kind,pass,kernel,blockSize,sample,host_ms,us,GBps\n");
    const char *passes[] = {"cold", "warm1", "warm2"};
    for (int p = 0; p < 3; p++)
        for (int k = 0; k < 4; k++)
            measure(passes[p], fs[k], k, 32, smem, A, B, C);
    return 0;
}
