/*
 * sm.h - the streaming multiprocessors: block scheduler, warps, warp issue, scoreboard, LD/ST
 * unit and shared-memory banks, driving the memory hierarchy of struct sim with one workload.
 *
 * One clock unit of the core domain per SM. A global block scheduler hands the kernel's blocks
 * to the SMs round-robin while occupancy allows (warps, blocks, shared memory and, when the
 * workload gives registers per thread, registers per SM). A warp is 32 threads of a block,
 * linearised x, then y, then z; a partial last warp has an active mask. Each warp walks the op
 * list with a loop stack. An SM has `schedulers` warp schedulers; warp slot i belongs to
 * scheduler i mod schedulers, and per cycle each scheduler issues up to issue_width ready warps
 * of its own (loose round-robin or greedy-then-oldest). An op is ready when none of its `uses`
 * registers (and not its own destination register) is pending. Global loads and stores go
 * through the coalescer into the SM's one LD/ST buffer, which hands line requests to sim_sm_in,
 * at most ldst_requests_per_cycle per cycle and only while the link accepts them (a memory
 * instruction waits while the buffer holds another one, and, with ldst_bytes_per_cycle, until
 * the unit has taken the previous instruction's lane data; cycles the link refuses are issue
 * stalls). Loads mark their register pending until the last line reply; stores are fire
 * and forget (the L1's ack only counts for retirement). Shared-memory ops and ALU ops make the
 * warp wait: ALU its latency, shared memory shared_latency_cycles + (bank-conflict degree - 1).
 * A barrier releases when every live warp of the block reached it. A chase op issues `loads`
 * dependent loads (one line request each) through a random (Sattolo) or sequential cyclic
 * order over the array's elements; the order is built once per array at creation from the
 * run's seed, and each warp starts at node (global warp number) mod elements.
 *
 * Statistics: sim.warp_insts, sim.mem_insts, sm.issue_stalls,
 * sm.shared_insts, sm.shared_bank_conflicts, smN.issue_stalls, the coal.* names, the
 * distribution load_latency_cycles (a load's issue to its last line reply; each chase load),
 * and the per-stage breakdown of load line requests: load_stage.requests and
 * load_stage.<stage> for each stage of sim/core/req.h but the last, the mean core cycles a
 * request spends from entering that stage to entering the next one it enters (so the means
 * add up to the mean request latency from creation to its reply at the SM; stages a request
 * skips, such as the L2 for an L1 hit, count as 0 for it).
 *
 * Not modelled: instruction fetch, functional execution,
 * per-lane chase chains (a warp's lanes follow one chain), shared accesses wider than 4 B
 * (the first word of each lane decides its bank).
 */
#ifndef SIM_SM_H
#define SIM_SM_H

#include <stdbool.h>
#include <stdint.h>

#include "cfg.h"
#include "log.h"
#include "types.h"

struct sim;
struct workload;
struct workload_op;
struct winst;
struct front;
struct trace_list;

#define SM_SCHEDULERS(X) \
	X(LRR, "lrr")    \
	X(GTO, "gto")

enum sm_scheduler {
#define SM_SCHED_ENUM(e, s) SM_SCHED_##e,
	SM_SCHEDULERS(SM_SCHED_ENUM)
#undef SM_SCHED_ENUM
	SM_SCHED_COUNT
};
extern const char *const sm_scheduler_names[];

/* Warp schedulers an SM may have. */
#define SM_MAX_SCHEDULERS 32
/* Registers are allocated to a warp in units of this many (Volta through Hopper: 256). */
#define SM_REG_ALLOC_UNIT 256

/* sm: one SM's front end (every SM alike). */
struct sm_params {
	uint32_t max_warps;
	uint32_t max_blocks;
	uint32_t shared_kb;
	uint32_t registers;
	uint32_t schedulers;
	uint32_t issue_width;  /* per scheduler */
	uint32_t scheduler;    /* enum sm_scheduler */
	uint32_t shared_latency_cycles;
	uint32_t shared_banks;
	uint32_t ldst_requests_per_cycle;
	uint32_t ldst_bytes_per_cycle;  /* lane bytes an instruction moves per cycle (0: no limit) */
};

#define SM_NFIELDS 11 /* entries of sm_fields[] */
extern const struct cfg_field sm_fields[];

/* Lanes of one warp. */
#define SM_WARP_LANES 32u

/*
 * Bank-conflict degree of one shared access: the largest number of distinct 4-byte words that
 * active lanes (bit i of active) touch in one bank; words[i] is lane i's word address (byte
 * address / 4), banks >= 1. 0 when no lane is active, 1 with no conflict.
 */
uint32_t sm_bank_conflict_degree(const uint64_t *words, uint32_t active, uint32_t banks);

/* Registers a block of `warps` warps takes with regs_per_thread each (0 for 0): every warp
 * rounds 32 x regs_per_thread up to SM_REG_ALLOC_UNIT. */
uint64_t sm_block_registers(uint32_t warps, uint32_t regs_per_thread);
/* Blocks of `warps` warps, `shared_bytes` of shared memory and regs_per_thread registers per
 * thread (0: not given) one SM holds at once (0: the block does not fit at all). */
uint32_t sm_blocks_per_sm(const struct sm_params *p, uint32_t warps, uint64_t shared_bytes,
			  uint32_t regs_per_thread);
/* Fills err with why a block of w does not fit on an SM of p; returns -1. */
int sm_no_fit_error(const struct sm_params *p, const struct workload *w, struct sim_err *err);
/* The same for kernel k of a trace (sim/front/trace.h). */
struct trace_kernel;
int sm_no_fit_trace_error(const struct sm_params *p, const struct trace_kernel *k,
			  struct sim_err *err);

/*
 * Attaches one unit per SM of s to its core clock and registers the statistics in sim_stats(s).
 * ws[0..nw) are the kernels (nw >= 1), run in order: a kernel starts once the one before has
 * retired its last block and the memory system has drained (a kernel boundary); the caches keep
 * their contents across it. ws and the workloads must outlive the front. Returns NULL with err
 * filled if a block cannot fit on an SM or a chase array is too large.
 */
struct front *front_create(struct sim *s, const struct sm_params *p,
			   const struct workload *const *ws, size_t nw, uint64_t seed,
			   struct sim_err *err);
/*
 * The same machine driven by a trace (sim/front/trace.h): the list's commands run in order,
 * MemcpyHtoD warming the L2 (sim_l2_warm) and kernels reading their blocks one at a time as
 * the block scheduler launches them (file order is launch order). Registers per thread and
 * shared memory per block come from each kernel's header. tl must outlive the front; its
 * counters (trace.unknown_insts, trace.alias_warps) are registered with trace.l2_warm_lines.
 * Returns NULL with err filled if a kernel's block cannot fit on an SM.
 */
struct front *front_create_trace(struct sim *s, const struct sm_params *p, struct trace_list *tl,
				 uint64_t seed, struct sim_err *err);
void front_destroy(struct front *f);
/* How front_run ended. */
enum front_outcome {
	FRONT_DONE,         /* every block of every kernel retired */
	FRONT_FAILED,       /* an evaluation error (a division by zero in an index) */
	FRONT_WATCHDOG,     /* sim.watchdog_cycles without progress: a deadlock (see front_run) */
	FRONT_LIMIT_CYCLES, /* the run reached its cycle limit (front_set_limits) */
	FRONT_LIMIT_HOST,   /* the run used up its host seconds (front_set_limits) */
};
/* Bounds the run: max_cycles core cycles from cycle 0, max_host_seconds of wall-clock time
 * measured from the start of front_run (checked every few thousand core cycles); 0: none. */
void front_set_limits(struct front *f, cycle_t max_cycles, double max_host_seconds);
/*
 * Runs the event queue until every block of every kernel has retired. Returns 0, or -1 with err
 * filled and front_outcome telling why:
 *   an evaluation error (a division by zero in an index);
 *   the watchdog: no warp instruction issued and no request retired (replied to an SM) for
 *   sim.watchdog_cycles core cycles while blocks remain, or a kernel's requests not drained
 *   within that span after its last block; or nothing left to simulate with blocks remaining.
 *   The SMs, every unit's queues (sim_dump) and the oldest request in flight with its stage
 *   stamps go to stderr first; the run stops at exactly last progress + watchdog_cycles;
 *   a limit of front_set_limits: the run stops at that cycle, its statistics are those so far.
 */
int front_run(struct front *f, struct sim_err *err);
enum front_outcome front_outcome(const struct front *f);
/* Called every few thousand core cycles of front_run with the current cycle, blocks retired
 * of all, and warp instructions issued so far. */
typedef void front_progress_fn(void *ctx, cycle_t cycle, uint64_t blocks_done, uint64_t blocks,
			       uint64_t warp_insts);
void front_set_progress(struct front *f, front_progress_fn *fn, void *ctx);
/* Called at every warp instruction issued (each load of a chase) with the core cycle, the SM,
 * the global warp number (block number x warps per block + warp in the block) and the
 * instruction (warpexec.h; op->op is the workload op, op->ti the trace instruction). */
typedef void front_trace_fn(void *ctx, cycle_t cycle, uint32_t sm, uint64_t gid,
			    const struct winst *op);
void front_set_trace(struct front *f, front_trace_fn *fn, void *ctx);
/* Core cycle at which the last block (of the last kernel) retired; after a limit or the
 * watchdog, the cycle the run stopped at. */
cycle_t front_cycles(const struct front *f);
/* Kernel k's first launch and last block's retirement, core cycles. */
void front_kernel_cycles(const struct front *f, size_t k, cycle_t *start, cycle_t *end);

#endif /* SIM_SM_H */
