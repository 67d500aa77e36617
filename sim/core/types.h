/*
 * types.h - the scalar types every layer shares, and nothing else.
 *
 * Time is an integer count of picoseconds (tick_t). Cycle numbers (cycle_t) belong to one clock
 * domain and are always recomputed from ticks (cycle = tick / period), never counted across a
 * sleep. Addresses are 64-bit byte addresses in the simulated GPU's global address space.
 */
#ifndef SIM_TYPES_H
#define SIM_TYPES_H

#include <stdint.h>

typedef uint64_t tick_t;  /* picoseconds since the start of the simulation */
typedef uint64_t cycle_t; /* cycles of one clock domain */
typedef uint64_t addr_t;  /* byte address */

#define TICK_NEVER  UINT64_MAX
#define CYCLE_NEVER UINT64_MAX

#define PS_PER_NS 1000ull
#define PS_PER_US 1000000ull

#endif /* SIM_TYPES_H */
