/*
 * fixedmem.h - a fixed-latency memory behind one SM: every line request is answered exactly
 * latency_cycles core cycles after it is accepted, at most requests_per_cycle accepted per cycle.
 *
 * It stands in for the whole hierarchy (L1, crossbar, L2, controllers, DRAM) when the config
 * says memory.model = "fixed", for tests and quick studies of the front end. One unit of the
 * core clock per SM. Requests from the SM (struct mem_req, LOAD or STORE or anything else: the
 * type is not looked at) arrive on `in`; the same objects go back on `resp` (is_reply set), so
 * the SM counts store acks as it does with the L1. See fixedmem.c for the timing.
 *
 * Ownership: a request belongs to the unit from its pop on `in` to its push on `resp`. The unit
 * never allocates or frees requests.
 */
#ifndef SIM_FIXEDMEM_H
#define SIM_FIXEDMEM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "log.h"
#include "stats.h"
#include "types.h"

struct clock;
struct clock_unit;
struct link;

/* The parameters (config group `memory`, keys of the same names; the gpu layer fills them). */
struct fixedmem_params {
	uint32_t latency_cycles;     /* core cycles from a request's acceptance to its reply pushed */
	uint32_t requests_per_cycle; /* requests accepted from `in` per core cycle */
};

/* Requests one unit holds at most: latency x requests_per_cycle, capped here. 65536 in flight
 * from one SM is far beyond any GPU (an SM of 64 warps with every register of every warp
 * waiting for 32 lines is 64 x 64 x 32 = 131072, a workload no one writes); the cap keeps
 * the ring at 1 MiB per SM for the largest latencies the config allows. Past it the head of `in`
 * waits (counted in queue_cycles). */
#define FIXEDMEM_MAX_IN_FLIGHT 65536u

/* For parameters that did not come through the config loader (whose ranges say the same):
 * latency_cycles >= 1 and requests_per_cycle >= 1. group names the keys in the message.
 * Returns 0, or -1 with err filled. */
int fixedmem_params_check(const struct fixedmem_params *p, const char *group,
			  struct sim_err *err);

/* Counters, registered as <prefix>.<name>. */
struct fixedmem_stats {
	uint64_t requests;     /* accepted from `in` */
	uint64_t loads;
	uint64_t stores;
	uint64_t replies;      /* pushed on `resp` */
	uint64_t queue_cycles; /* sum over requests of (accepted - visible on `in`): the rate limit */
	uint64_t stall_cycles; /* cycles a due reply waited for room on `resp` */
	struct stat_level in_flight; /* accepted, not yet replied */
};

struct fixedmem;

/*
 * Creates the memory of SM sm, a unit of clk (the core domain).
 *   in    requests from the SM; the unit becomes its consumer (create it on clk, consumer NULL)
 *   resp  replies to the SM; the unit becomes its producer (a refused push waits for a pop)
 * Statistics under prefix ("sm3.mem"; st may be NULL: none). p must pass fixedmem_params_check
 * (SIM_ASSERT) and is copied. The ring of requests in flight is allocated here, once.
 * Never NULL.
 */
struct fixedmem *fixedmem_create(const struct fixedmem_params *p, uint32_t sm, struct clock *clk,
				 struct link *in, struct link *resp, struct stats *st,
				 const char *prefix);
/* Frees the unit. Requests still inside are the caller's (the pool frees them; check
 * fixedmem_is_idle first). NULL is a no-op. */
void fixedmem_destroy(struct fixedmem *m);

struct clock_unit *fixedmem_unit(struct fixedmem *m);
/* True when no request is inside (accepted and not yet pushed on resp). */
bool fixedmem_is_idle(const struct fixedmem *m);
/* Requests the ring holds at most: min(latency x requests_per_cycle, FIXEDMEM_MAX_IN_FLIGHT). */
uint32_t fixedmem_capacity(const struct fixedmem *m);
const struct fixedmem_stats *fixedmem_stats(const struct fixedmem *m);

/* SIM_ASSERTs the invariants listed in fixedmem.c. */
void fixedmem_check(const struct fixedmem *m);
/* One line of state and the head request, for the watchdog. */
void fixedmem_dump(const struct fixedmem *m, FILE *out);

#endif /* SIM_FIXEDMEM_H */
