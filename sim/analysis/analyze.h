/*
 * analyze.h - timing-free analysis of a workload (`gmsim analyze`): what every warp memory
 * instruction asks of the memory system, and how much of it a cache could keep.
 *
 * The kernel's warps are executed functionally through sim/front/warpexec.h (the same walk and
 * addresses as the SM model) and each global memory instruction goes through the coalescer
 * (sim/front/coalescer.h). Two results:
 *
 * 1. Coalescing, per op of the body and in total: memory instructions, line requests, sectors,
 *    ideal transactions, efficiency = ideal / actual sectors, and the bytes requested against
 *    the bytes moved at sector and at line granularity (definitions in coalescer.h).
 *
 * 2. Reuse (LRU stack) distances of the request stream (sim/analysis/reuse.h) at sector and at
 *    line granularity: the histogram, and the hit rate of a fully associative LRU cache of every
 *    capacity asked for. Plus two predictions for the config's caches:
 *      L1: per SM, the load sectors of the warps resident on that SM, against a fully
 *          associative LRU cache of l1.cache.size_kb (stores go through: write-through);
 *      L2: the sectors the predicted L1 misses plus every store sector, all SMs merged, against
 *          the L2's total capacity (slices x l2.cache.size_kb).
 *    Being fully associative and timing-free, the predictions bound what the set-associative,
 *    time-sharing caches of `gmsim run` reach; conflict misses, reservation failures and
 *    in-flight merges are what the difference shows.
 *
 * Order of the stream. Distances depend on how warps interleave, so the order mimics the
 * machine without timing: blocks are dispatched in block order to `sms` SMs round-robin, each
 * SM holding as many blocks as occupancy allows (sm_blocks_per_sm); every step visits the
 * resident blocks in slot order and lets each of their warps execute one op (loose round robin
 * at one instruction per warp per step); a warp at a barrier waits for its block; a finished
 * block's slot takes the next block. A trace's blocks go the same way in file order (the
 * order the tracer wrote them, which is the order `gmsim run` launches them), one trace
 * instruction per warp per step. A chase executes one dependent load per step. rand() in
 * index expressions draws from the seeded generator in this order (the SM model draws in its
 * issue order, so rand()-based streams are alike in distribution, not identical); chase orders
 * are built exactly as the SM model builds them and are identical.
 *
 * Statistics (registered in the caller's registry): the coal.* names of DESIGN section 6 and
 * coal.store_insts, coal.ideal_requests, coal.request_efficiency; per op coal.opN.* (N in body
 * order, loops' bodies included, numbering only memory ops; for a trace in (kernel, PC)
 * order); analyze.warp_insts,
 * analyze.blocks; reuse.sector.* and reuse.line.* (accesses, cold, distinct, histogram bucket
 * counts hist.0, hist.1, hist.2, hist.4, ... by the bucket's smallest distance, hit_rate_<size>
 * per capacity); predict.l1_hit_rate, predict.l2_hit_rate with predict.l1_bytes and
 * predict.l2_bytes.
 */
#ifndef SIM_ANALYZE_H
#define SIM_ANALYZE_H

#include <stdint.h>
#include <stdio.h>

#include "log.h"
#include "sm.h"

struct stats;
struct trace_list;
struct workload;

struct analyze_params {
	uint32_t sms;              /* SMs the blocks are spread over */
	struct sm_params sm;       /* occupancy limits */
	uint64_t seed;             /* rand() and chase orders */
	uint64_t l1_bytes;         /* per-SM L1 capacity for the prediction; 0: none */
	uint64_t l2_bytes;         /* total L2 capacity for the prediction; 0: none */
	const uint64_t *capacities; /* extra capacities in bytes for the hit-rate table */
	size_t ncapacities;
};

struct analysis;

/* Executes w and registers the results in st (which must outlive the analysis). Returns NULL
 * with err filled on an evaluation error (file:line of the op and the message) or if a block
 * does not fit on an SM. */
struct analysis *analyze_run(const struct workload *w, const struct analyze_params *p,
			     struct stats *st, struct sim_err *err);
/*
 * The same for the kernels of a trace (sim/front/trace.h), in list order: each kernel's blocks
 * are read one at a time as a slot frees, in file order; its global and local loads and stores
 * go through the coalescer with their decoded lane addresses (shared accesses, constant loads
 * and ALU work take a step each and touch nothing, like the workload's shared and ALU ops);
 * the per-instruction records are per (kernel, PC), numbered in that order. The reuse streams
 * and the predictors run on across kernels (the caches keep their contents); a MemcpyHtoD
 * installs its lines in the predicted L2 as `gmsim run` warms the L2. tl must outlive the
 * analysis. Returns NULL with err filled on a trace error (file:line) or if a block of some
 * kernel does not fit on an SM.
 */
struct analysis *analyze_run_trace(struct trace_list *tl, const struct analyze_params *p,
				   struct stats *st, struct sim_err *err);
void analyze_free(struct analysis *a);

/* The human report: per-op coalescing table, totals, reuse histograms and hit rates. */
void analyze_report(const struct analysis *a, FILE *out);

/* Predicted hit rates (NaN without a prediction or without accesses). */
double analyze_predicted_l1(const struct analysis *a);
double analyze_predicted_l2(const struct analysis *a);

/* "128K", "4M", "40M", "1G" or plain bytes: the label of a capacity in names and reports.
 * Writes into buf (n bytes) and returns it. */
const char *analyze_size_label(uint64_t bytes, char *buf, size_t n);

#endif /* SIM_ANALYZE_H */
