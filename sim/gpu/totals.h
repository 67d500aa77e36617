/*
 * totals.h - the aggregate statistics that reports and scripts rely on (DESIGN section 6),
 * assembled in one place from the units' own counters:
 *
 *   l1.*, l2.*   sums over the instances of each cache level (the hierarchy; zero with the fixed
 *                model), registered first, by sim_create;
 *   mem.*        sums over the fixed-latency memories (the fixed model only);
 *   sim.cycles, kernelN.start/end, sim.time_ns, sim.host_seconds, sim.events, sim.ticks, bw.*,
 *   dram.*:
 *                the run's, registered by run_create after the SMs' own statistics and filled
 *                by run_simulate at the end of the run.
 *
 * A total is filled when asked (totals_fill_levels, totals_fill_run), never on the hot path.
 * Registration order is dump order, so it is part of the output format: keep it.
 */
#ifndef SIM_TOTALS_H
#define SIM_TOTALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fixedmem;
struct l1;
struct l2;
struct sim;
struct stats;

/* Sums over a level's instances, under "l1." and "l2.". */
struct level_totals {
	uint64_t accesses, hits, sector_misses, line_misses, mshr_merges, reservation_fails;
	uint64_t stall_mshr_full, stall_merge_limit, stall_no_line, stall_miss_queue_full;
	uint64_t fill_stalls, writebacks;
	double hit_rate;
};

/* Sums over the fixedmem instances, under "mem." (fixed model only). */
struct mem_totals {
	uint64_t requests, loads, stores, replies, queue_cycles, stall_cycles;
};

/* The run-level and DRAM aggregates and the bandwidth of each level. */
struct run_totals {
	uint64_t cycles, events, ticks;
	uint64_t *kstart, *kend;         /* per kernel, core cycles */
	size_t nkernels;
	double time_ns, host_seconds;
	uint64_t requests, reads, writes, bytes_moved, bytes_useful, refreshes, row_hits,
		row_accesses, ecc_bursts, refresh_bank_cycles, read_wait, read_service;
	double peak_gbps, achieved_gbps, row_hit_rate, refresh_pct, ecc_pct;
	/* bandwidth of each level, GB/s, and its peak */
	double l1_gbps, l1_peak, xreq_gbps, xreq_peak, xrep_gbps, xrep_peak, l2_busy_pct;
};

/* Registers l1.* and l2.* over t1 and t2. */
void totals_register_levels(struct stats *st, struct level_totals *t1, struct level_totals *t2);
/* Registers mem.* over tm. */
void totals_register_mem(struct stats *st, struct mem_totals *tm);
/* Sums the instances into t1, t2 and tm: nsm L1s (or none: l1 NULL), nslices L2 slices, nsm
 * fixed memories (or none: fm NULL). */
void totals_fill_levels(struct level_totals *t1, struct level_totals *t2, struct mem_totals *tm,
			struct l1 *const *l1, struct fixedmem *const *fm, uint32_t nsm,
			struct l2 *const *l2, uint32_t nslices);

/* Allocates t's per-kernel arrays for nkernels kernels and registers the run's names; the DRAM
 * and crossbar ones only for the hierarchy. totals_free_run frees the arrays. */
void totals_register_run(struct stats *st, struct run_totals *t, size_t nkernels,
			 bool hierarchy);
void totals_free_run(struct run_totals *t);
/* Fills t from s's units and statistics, t->cycles and t->host_seconds being set: the events
 * fired, simulated time, bandwidth of each level against its peak, the DRAM sums. Calls
 * sim_totals(s) first (the level sums the bandwidth figures read). */
void totals_fill_run(struct sim *s, struct run_totals *t);

#endif /* SIM_TOTALS_H */
