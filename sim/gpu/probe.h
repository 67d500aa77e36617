/*
 * probe.h - built-in access patterns that drive the memory hierarchy from the SM side, until
 * the front end (workload language, warps, coalescer) lands: a dependent pointer chase (latency
 * against footprint, one SM) and a many-SM stream of whole-line loads (bandwidth).
 *
 * chase   footprint / stride slots, visited in one random cyclic order (Sattolo's shuffle, GSL
 *         mt19937 with the seed): each load's address comes from the previous one, so exactly
 *         one load is in flight. One untimed pass warms the caches, then `loads` are timed,
 *         each from the cycle it is pushed to the cycle its reply is visible (core cycles).
 * stream  every SM in use keeps up to `window` 128 B line loads in flight over its own share of
 *         the footprint, in order, wrapping; the run ends when `loads` have completed.
 */
#ifndef SIM_PROBE_H
#define SIM_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "log.h"
#include "types.h"

struct sim;

enum probe_kind { PROBE_CHASE, PROBE_STREAM };

struct probe_opts {
	enum probe_kind kind;
	uint64_t footprint;  /* bytes */
	uint32_t stride;     /* chase: bytes between slots (>= 8) */
	uint64_t loads;      /* timed loads (chase) or loads in all (stream) */
	uint32_t window;     /* stream: loads in flight per SM */
	uint32_t sms;        /* stream: SMs in use (0: all) */
	uint64_t seed;
};

struct probe_result {
	uint64_t loads;
	double mean_cycles;   /* chase: mean load latency, core cycles */
	double p50_cycles, p99_cycles;
	double mean_ns;
	uint64_t cycles;      /* core cycles of the timed part */
	double time_ns;
	double gbps;          /* stream: bytes loaded per ns */
};

/* Runs the pattern on s, a fresh simulation (its SM links get the probe's units as their
 * ends, once). Returns 0, or -1 with err filled on bad options. */
int probe_run(struct sim *s, const struct probe_opts *o, struct probe_result *r,
	      struct sim_err *err);

/* Unloaded latencies through the whole hierarchy, from four single loads on a fresh sim:
 * a cold line (L1, L2 and DRAM miss on a closed bank), the next line of the same DRAM row (a row
 * hit), the first line from another SM (an L2 hit) and again from the first SM (an L1 hit).
 * Core cycles, issue to reply. */
struct probe_unloaded {
	double l1_hit, l2_hit, dram_row_hit, dram_row_miss;
};
/* Needs the hierarchy (memory.model = "hierarchy": the four levels do not exist in the fixed
 * model), at least 2 SMs and a fresh sim, which must not be run afterwards (destroy it).
 * Returns 0, or -1 with err filled. */
int probe_unloaded(struct sim *s, struct probe_unloaded *u, struct sim_err *err);

#endif /* SIM_PROBE_H */
