// common.cuh: what the bench/gpu programs share: a checked CUDA call (prints file:line and
// exits 2), and the SM id and the global timer read from PTX special registers.
#ifndef BENCH_GPU_COMMON_CUH
#define BENCH_GPU_COMMON_CUH

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                  \
    do {                                                                       \
        cudaError_t e_ = (x);                                                  \
        if (e_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,         \
                    cudaGetErrorString(e_));                                   \
            exit(2);                                                           \
        }                                                                      \
    } while (0)

__device__ __forceinline__ unsigned smid_reg(void) {
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

__device__ __forceinline__ unsigned long long gtimer(void) {
    unsigned long long r;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r));
    return r;
}

#endif
