/*
 * bits.h - population counts without a library call.
 *
 * The build targets baseline x86-64 (no -mpopcnt: the binary runs on any x86-64), where GCC
 * turns __builtin_popcount into a call to libgcc's table-driven __popcountdi2; the per-request
 * sector and byte masks of the coalescer, MSHRs, L1, crossbar and L2 count bits often enough
 * that the call was 1.3% of a copy's instructions. These are the usual SWAR sums (Hacker's
 * Delight 5-1): a dozen inline operations, the same answer.
 */
#ifndef SIM_BITS_H
#define SIM_BITS_H

#include <stdint.h>

static inline uint32_t bits_pop64(uint64_t x)
{
	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
}

static inline uint32_t bits_pop32(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0fu;
	return (x * 0x01010101u) >> 24;
}

#endif /* SIM_BITS_H */
