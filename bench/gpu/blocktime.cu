// blocktime.cu: gpu-stream bandwidth vs block size and occupancy, and the
// per-block turnaround (block lifetime per residency slot, in SM cycles) of
// one-element-per-thread kernels.  See README.md.  Output is CSV on stdout.
//
//   nvcc -O3 -arch=native -o blocktime blocktime.cu
//   ./blocktime              run everything on device 0
//   ./blocktime --selftest   test the host-side analysis on synthetic data (no GPU)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>

#include "common.cuh"

enum { K_EMPTY, K_INIT, K_READ, K_COPY, K_TRIAD };
static const char *kname[] = {"empty", "init", "read", "copy", "triad"};
static const int kbytes[] = {0, 8, 8, 16, 24}; // bytes per element, as gpu-stream counts

#define NREP 5             // timed launches (after 1 warm-up); the median is reported
#define N_BW (1 << 27)     // elements per array for the bandwidth table (1 GiB of doubles)
#define N_TURN (1 << 22)   // elements for the turnaround runs (32 MiB per array)

// ---------------------------------------------------------------- device ---

// gpu-stream kernels: one element per thread, no grid-stride loop.  With REC,
// thread 0 first records {clock64, smid<<32 | globaltimer low 32 bits} for its
// block in one 16-byte store (the same for every kernel, `empty` included).
template <int K, bool REC>
__global__ void kern(double *A, const double *B, const double *C, int N, longlong2 *rec) {
    int tidx = threadIdx.x + blockIdx.x * blockDim.x;
    if (REC && threadIdx.x == 0) {
        long long c = clock64();
        unsigned s = smid_reg();
        unsigned g = (unsigned)gtimer();
        rec[blockIdx.x] = make_longlong2(c, (long long)(((unsigned long long)s << 32) | g));
    }
    if (tidx >= N) return;
    if (K == K_INIT) A[tidx] = 0.23;
    if (K == K_READ) {
        double temp = B[tidx];
        if (temp == 123.0) A[tidx] = temp; // never true: keeps the load, no store
    }
    if (K == K_COPY) A[tidx] = B[tidx];
    if (K == K_TRIAD) A[tidx] = B[tidx] + 1.2 * C[tidx];
}

__global__ void fill(double *p, size_t n, double v) {
    for (size_t i = threadIdx.x + (size_t)blockIdx.x * blockDim.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = v;
}

// One block per SM: thread 0 spins ~ns nanoseconds and reports clock64 and
// globaltimer deltas, giving the SM clock independent of timer resolution.
__global__ void clockspin(long long ns, long long *out) {
    if (threadIdx.x) return;
    unsigned long long g0 = gtimer(), g1;
    long long c0 = clock64();
    do g1 = gtimer(); while ((long long)(g1 - g0) < ns);
    long long c1 = clock64();
    out[2 * blockIdx.x] = c1 - c0;
    out[2 * blockIdx.x + 1] = (long long)(g1 - g0);
}

// ------------------------------------------------------ host analysis ---
// Works on the records of one launch; no CUDA calls, so --selftest runs anywhere.
struct Turn {
    int nsm;          // SMs that ran at least one block
    double bpsm;      // blocks per SM (mean over those SMs)
    double slot_med;  // median of lag-k start spacings, cycles
    double slot_mean; // mean of lag-k start spacings, cycles
    double naive_med; // median consecutive-start interval * k, cycles
    double mhz;       // sum of per-SM clock64 spans / sum of globaltimer spans
    double span_us;   // first to last block start, globaltimer
};

static unsigned rec_sm(const longlong2 &r) { return (unsigned)((unsigned long long)r.y >> 32); }
static unsigned rec_gt(const longlong2 &r) { return (unsigned)r.y; }
static int cmp_rec(const void *a, const void *b) {
    const longlong2 *x = (const longlong2 *)a, *y = (const longlong2 *)b;
    unsigned sx = rec_sm(*x), sy = rec_sm(*y);
    if (sx != sy) return sx < sy ? -1 : 1;
    return x->x < y->x ? -1 : x->x > y->x;
}
static int cmp_ll(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}
static double median_ll(long long *v, int n) {
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, cmp_ll);
    return n % 2 ? (double)v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + (double)v[n / 2]);
}

// Sorts r by (smid, clock).  With k resident slots per SM, block i on an SM
// (in start order) takes the slot freed by one of the k blocks before it, so
// in steady state start[i] - start[i-k] is one block lifetime per slot
// (launch + run + retire).  Its mean equals the mean consecutive interval * k;
// its median stays right when the slots turn over in lock-step, where the
// median consecutive interval is ~0 (reported as naive_med for comparison).
static void analyze(longlong2 *r, int n, int k, Turn *t) {
    qsort(r, n, sizeof *r, cmp_rec);
    long long *lag = (long long *)malloc(sizeof(long long) * (n + 1));
    long long *nv = (long long *)malloc(sizeof(long long) * (n + 1));
    int nl = 0, nn = 0, nsm = 0;
    double lagsum = 0, dclk = 0, dgt = 0;
    int lo = 0, hi = 0; // globaltimer extremes, relative to r[0] (wrap-safe)
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && rec_sm(r[j]) == rec_sm(r[i])) j++; // this SM: [i, j)
        nsm++;
        for (int a = i + k; a < j; a++) lagsum += (double)(lag[nl++] = r[a].x - r[a - k].x);
        for (int a = i + 1; a < j; a++) nv[nn++] = r[a].x - r[a - 1].x;
        dclk += (double)(r[j - 1].x - r[i].x);
        dgt += (double)(unsigned)(rec_gt(r[j - 1]) - rec_gt(r[i]));
        i = j;
    }
    for (int i = 0; i < n; i++) {
        int d = (int)(rec_gt(r[i]) - rec_gt(r[0]));
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
    }
    t->nsm = nsm;
    t->bpsm = nsm ? (double)n / nsm : 0;
    t->slot_mean = nl ? lagsum / nl : NAN;
    t->slot_med = median_ll(lag, nl);
    t->naive_med = median_ll(nv, nn) * k;
    t->mhz = dgt > 0 ? dclk / dgt * 1000.0 : NAN;
    t->span_us = (hi - lo) / 1000.0;
    free(lag);
    free(nv);
}

// Synthetic SMs: k slots each, greedy (earliest-free slot gets the next
// block), lifetime T*(1 +- jitter/2), per-SM clock offsets, a 1.5 GHz clock,
// globaltimer quantised to 1 us and wrapping through 2^32 ns; shuffled order.
static int selftest(void) {
    const int NSM = 132, PER = 500;
    const double T = 1000.0, GHZ = 1.5;
    int ks[] = {1, 4, 16, 32}, fails = 0;
    double jit[] = {0.0, 0.2, 0.6};
    srand(12345);
    for (int ki = 0; ki < 4; ki++)
        for (int ji = 0; ji < 3; ji++) {
            int k = ks[ki], n = NSM * PER;
            longlong2 *r = (longlong2 *)malloc(sizeof(longlong2) * n);
            for (int s = 0; s < NSM; s++) {
                double fr[32];
                long long off = (long long)(rand() % 1000000) * 1000; // unsynchronised clocks
                for (int j = 0; j < k; j++) fr[j] = 3.0 * j;        // first wave staggered
                for (int b = 0; b < PER; b++) {
                    int m = 0;
                    for (int j = 1; j < k; j++) if (fr[j] < fr[m]) m = j;
                    double st = fr[m] + 50.0 * s / NSM; // SMs start at slightly different times
                    fr[m] += T * (1.0 + jit[ji] * ((double)rand() / RAND_MAX - 0.5));
                    unsigned long long g = 4294967296ull - 20000ull + (unsigned long long)(st / GHZ);
                    g -= g % 1000; // 1 us timer resolution
                    r[s * PER + b] = make_longlong2(off + (long long)st,
                        (long long)(((unsigned long long)(2 * s + 1) << 32) | (unsigned)g));
                }
            }
            for (int i = n - 1; i > 0; i--) { // shuffle
                int j = rand() % (i + 1);
                longlong2 x = r[i]; r[i] = r[j]; r[j] = x;
            }
            Turn t;
            analyze(r, n, k, &t);
            // the record-based clock is only as good as 1 us over one SM's span
            double mhztol = 0.005 + 1500.0 / (PER / k * T / GHZ);
            int ok = t.nsm == NSM && fabs(t.bpsm - PER) < 1e-9 &&
                     fabs(t.slot_mean / T - 1) < 0.01 && fabs(t.slot_med / T - 1) < 0.05 &&
                     fabs(t.mhz / (GHZ * 1000) - 1) < mhztol;
            fails += !ok;
            printf("selftest,k=%d,jitter=%.1f,nsm=%d,bpsm=%.1f,slot_med=%.1f,slot_mean=%.1f,"
                   "naive_med=%.1f,mhz=%.1f,span_us=%.1f,%s\n",
                   k, jit[ji], t.nsm, t.bpsm, t.slot_med, t.slot_mean, t.naive_med, t.mhz,
                   t.span_us, ok ? "ok" : "FAIL");
            free(r);
        }
    printf("selftest,%s\n", fails ? "FAILED" : "passed");
    return fails ? 1 : 0;
}

// ------------------------------------------------------------ host run ---
typedef void (*KFn)(double *, const double *, const double *, int, longlong2 *);
static double *dA, *dB, *dC;
static cudaEvent_t ev0, ev1;
static int smemSM, smemOptin, smemRes, nSM, maxThrSM;

static int attr(cudaDeviceAttr a) {
    int v;
    CK(cudaDeviceGetAttribute(&v, a, 0));
    return v;
}

static void prep(KFn f) {
    CK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, smemOptin));
    CK(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout,
                            (int)cudaSharedmemCarveoutMaxShared));
}

// Dynamic shared memory per block so that exactly k blocks fit on an SM.
static size_t smem_for(int k) {
    int per = smemSM / k;
    per -= per % 128; // allocation granularity
    int s = per - smemRes;
    if (s > smemOptin) s = smemOptin;
    return s < 0 ? 0 : (size_t)s;
}

// 1 warm-up + NREP timed launches, median in microseconds.  With nwin > 1 each
// launch works on the next of nwin windows of win elements (keeps L2 cold).
static double timed(KFn f, int grid, int bs, size_t smem, int N, longlong2 *rec,
                    size_t win, int nwin) {
    static unsigned w;
    double t[NREP];
    for (int r = -1; r < NREP; r++) {
        size_t off = nwin > 1 ? (size_t)(w++ % nwin) * win : 0;
        CK(cudaEventRecord(ev0));
        f<<<grid, bs, smem>>>(dA + off, dB + off, dC + off, N, rec);
        CK(cudaGetLastError());
        CK(cudaEventRecord(ev1));
        CK(cudaEventSynchronize(ev1));
        float ms;
        CK(cudaEventElapsedTime(&ms, ev0, ev1));
        if (r >= 0) t[r] = ms * 1000.0;
    }
    for (int i = 1; i < NREP; i++) // insertion sort
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) { double x = t[j]; t[j] = t[j - 1]; t[j - 1] = x; }
    return t[NREP / 2];
}

static void measure_clock(const char *when) {
    long long *d, *h = (long long *)malloc(sizeof(long long) * 2 * nSM);
    CK(cudaMalloc(&d, sizeof(long long) * 2 * nSM));
    clockspin<<<nSM, 32>>>(20000000, d); // 20 ms
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, sizeof(long long) * 2 * nSM, cudaMemcpyDeviceToHost));
    double c = 0, g = 0;
    for (int i = 0; i < nSM; i++) c += h[2 * i], g += h[2 * i + 1];
    printf("clock,%s,sm_mhz_measured,%.1f\n", when, c / g * 1000.0);
    CK(cudaFree(d));
    free(h);
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--selftest")) return selftest();
    CK(cudaSetDevice(0));
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int drv, rt;
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rt));
    nSM = attr(cudaDevAttrMultiProcessorCount);
    smemSM = attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    smemOptin = attr(cudaDevAttrMaxSharedMemoryPerBlockOptin);
    smemRes = attr(cudaDevAttrReservedSharedMemoryPerBlock);
    maxThrSM = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
    printf("info,device,%s\n", p.name);
    printf("info,cc,%d.%d\n", p.major, p.minor);
    printf("info,driver,%d\ninfo,runtime,%d\n", drv, rt);
    printf("info,sm_count,%d\n", nSM);
    printf("info,l2_bytes,%d\n", attr(cudaDevAttrL2CacheSize));
    printf("info,sm_clock_khz_attr,%d\n", attr(cudaDevAttrClockRate));
    printf("info,mem_clock_khz_attr,%d\n", attr(cudaDevAttrMemoryClockRate));
    printf("info,mem_bus_bits,%d\n", attr(cudaDevAttrGlobalMemoryBusWidth));
    printf("info,global_mem_bytes,%zu\n", p.totalGlobalMem);
    printf("info,smem_per_sm,%d\ninfo,smem_optin_per_block,%d\ninfo,smem_reserved_per_block,%d\n",
           smemSM, smemOptin, smemRes);
    printf("info,max_threads_per_sm,%d\ninfo,max_blocks_per_sm,%d\n", maxThrSM,
           attr(cudaDevAttrMaxBlocksPerMultiprocessor));
    printf("info,N_bw,%d\ninfo,N_turn,%d\ninfo,reps,1 warm-up + median of %d\n", N_BW, N_TURN, NREP);
    fflush(stdout);

    size_t bytes = sizeof(double) * (size_t)N_BW;
    CK(cudaMalloc(&dA, bytes));
    CK(cudaMalloc(&dB, bytes));
    CK(cudaMalloc(&dC, bytes));
    fill<<<4 * nSM, 256>>>(dA, N_BW, 0.0);
    fill<<<4 * nSM, 256>>>(dB, N_BW, 1.0);
    fill<<<4 * nSM, 256>>>(dC, N_BW, 2.0);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaEventCreate(&ev0));
    CK(cudaEventCreate(&ev1));
    measure_clock("start");

    KFn bwk[5] = {kern<K_EMPTY, false>, kern<K_INIT, false>, kern<K_READ, false>, kern<K_COPY, false>,
                  kern<K_TRIAD, false>};
    KFn trk[4] = {kern<K_EMPTY, true>, kern<K_INIT, true>, kern<K_READ, true>,
                  kern<K_COPY, true>};
    for (int i = 0; i < 5; i++) prep(bwk[i]);
    for (int i = 0; i < 4; i++) prep(trk[i]);
    int bss[] = {32, 64, 128, 256, 512, 1024}, ks[] = {1, 2, 4, 8, 16, 32};
    for (int k = 1; k <= 32; k *= 2)
        printf("smem,blocksPerSM=%d,dyn_bytes_per_block=%zu\n", k, smem_for(k));

    // 1. bandwidth table
    printf("# bw,kernel,blockSize,blocksPerSM,achieved_blocks_per_sm,occupancy_pct,GBps,us\n");
    const double expect[5] = {-1, 0.23, -1, 1.0, 1.0 + 1.2 * 2.0};
    for (int kk = K_EMPTY; kk <= K_TRIAD; kk++)
        for (int bi = 0; bi < 6; bi++)
            for (int ki = 0; ki < 6; ki++) {
                int bs = bss[bi], k = ks[ki];
                if (bs * k > maxThrSM || k > 32) continue;
                size_t sm = smem_for(k);
                int ach;
                CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ach, bwk[kk], bs, sm));
                if (ach != k)
                    fprintf(stderr, "warning: %s bs=%d wanted %d blocks/SM, got %d\n",
                            kname[kk], bs, k, ach);
                double us = timed(bwk[kk], N_BW / bs, bs, sm, N_BW, 0, 0, 1);
                printf("bw,%s,%d,%d,%d,%.1f,%.1f,%.1f\n", kname[kk], bs, k, ach,
                       100.0 * ach * bs / maxThrSM, (double)kbytes[kk] * N_BW / (us * 1e3), us);
                fflush(stdout);
                if (expect[kk] >= 0) { // cheap correctness check of the last element
                    double v;
                    CK(cudaMemcpy(&v, dA + N_BW - 1, sizeof v, cudaMemcpyDeviceToHost));
                    if (v != expect[kk])
                        fprintf(stderr, "warning: %s bs=%d k=%d: A[N-1]=%g, want %g\n",
                                kname[kk], bs, k, v, expect[kk]);
                }
            }

    // 2. per-block turnaround
    longlong2 *drec;
    int maxblk = N_TURN / 32;
    longlong2 *hrec = (longlong2 *)malloc(sizeof(longlong2) * maxblk);
    CK(cudaMalloc(&drec, sizeof(longlong2) * maxblk));
    printf("# turn,kernel,blockSize,blocksPerSM,blocks_per_sm_mean,slot_cycles_median,"
           "slot_cycles_mean,us\n");
    printf("# turnx,kernel,blockSize,blocksPerSM,achieved_blocks_per_sm,sms_observed,"
           "naive_interval_median_x_k,sm_mhz_from_records,first_to_last_start_us\n");
    int tbs[] = {32, 64, 128}, tks[] = {1, 2, 4, 16};
    for (int kk = 0; kk < 4; kk++)
        for (int bi = 0; bi < 3; bi++)
            for (int ki = 0; ki < 4; ki++) {
                int bs = tbs[bi], k = tks[ki], grid = N_TURN / bs, ach;
                size_t sm = smem_for(k);
                CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ach, trk[kk], bs, sm));
                double us = timed(trk[kk], grid, bs, sm, N_TURN, drec, N_TURN, N_BW / N_TURN);
                CK(cudaMemcpy(hrec, drec, sizeof(longlong2) * grid, cudaMemcpyDeviceToHost));
                Turn t;
                analyze(hrec, grid, k, &t);
                printf("turn,%s,%d,%d,%.1f,%.1f,%.1f,%.1f\n", kname[kk], bs, k, t.bpsm,
                       t.slot_med, t.slot_mean, us);
                printf("turnx,%s,%d,%d,%d,%d,%.1f,%.1f,%.1f\n", kname[kk], bs, k, ach, t.nsm,
                       t.naive_med, t.mhz, t.span_us);
                fflush(stdout);
            }
    measure_clock("end");
    CK(cudaFree(drec));
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
    free(hrec);
    return 0;
}
