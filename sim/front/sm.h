/*
 * sm.h - the streaming multiprocessors: block scheduler, warps, warp issue, scoreboard, LD/ST
 * unit and shared-memory banks, running the kernels of workloads or a trace over two links per
 * SM (the run driver, sim/gpu/run.h, sequences the kernels and watches the run).
 *
 * One clock unit of the core domain per SM. A global block scheduler hands the kernel's blocks
 * to the SMs round-robin while occupancy allows (warps, blocks, shared memory and, when the
 * workload gives registers per thread, registers per SM). A warp is 32 threads of a block,
 * linearised x, then y, then z; a partial last warp has an active mask. Each warp walks the op
 * list with a loop stack. An SM has `schedulers` warp schedulers; warp slot i belongs to
 * scheduler i mod schedulers, and per cycle each scheduler issues up to issue_width ready warps
 * of its own (loose round-robin or greedy-then-oldest). An op is ready when none of its `uses`
 * registers (and not its own destination register) is pending. Global loads and stores go
 * through the coalescer into the SM's one LD/ST buffer, which hands line requests to its link,
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
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"
#include "log.h"
#include "types.h"

struct clock;
struct eventq;
struct link;
struct req_pool;
struct stats;
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
	uint32_t block_launch_cycles;   /* dispatch to first issue of a block's warps */
	double block_dispatch_per_cycle;   /* GPU-wide blocks handed out a cycle (0: no limit) */
};

#define SM_NFIELDS 13 /* entries of sm_fields[] */
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
 * What the front end is wired to. The machine that answers the SMs' line requests is not the
 * front's business: it sees a core clock, a request pool, two links per SM and a statistics
 * registry (sim/gpu/sim.h builds them; a unit test may build its own).
 *   q      the run's event queue: the front stops it (eventq_stop) when the current kernel's
 *          last block retires or a warp's evaluation fails, so that the driver can look;
 *   clk    the core clock: one unit per SM is attached to it;
 *   pool   line requests come from here; the SM frees each at its reply;
 *   in     [sms]: SM i pushes its line requests here (the SM becomes the producer);
 *   resp   [sms]: SM i's replies (the SM becomes the consumer);
 *   st     where the front's statistics are registered.
 */
struct front_env {
	struct eventq *q;
	struct clock *clk;
	struct req_pool *pool;
	struct link *const *in;
	struct link *const *resp;
	uint32_t sms;
	struct stats *st;
};

/*
 * Attaches one unit per SM to env->clk and registers the statistics in env->st. ws[0..nw) are
 * the kernels (nw >= 1), begun one at a time with front_kernel_begin; the caches keep their
 * contents across kernels (the driver decides what happens between them). ws and the
 * workloads must outlive the front. Returns NULL with err filled if a block cannot fit on an SM
 * or a chase array is too large.
 */
struct front *front_create(const struct front_env *env, const struct sm_params *p,
			   const struct workload *const *ws, size_t nw, uint64_t seed,
			   struct sim_err *err);
/*
 * The same SMs driven by a trace (sim/front/trace.h): kernel k is tl->kernels[k], reading its
 * blocks one at a time as the block scheduler launches them (file order is launch order).
 * Registers per thread and shared memory per block come from each kernel's header. tl must
 * outlive the front; its counters (trace.unknown_insts, trace.alias_warps) are registered.
 * Returns NULL with err filled if a kernel's block cannot fit on an SM.
 */
struct front *front_create_trace(const struct front_env *env, const struct sm_params *p,
				 struct trace_list *tl, uint64_t seed, struct sim_err *err);
void front_destroy(struct front *f);
/* Kernels the front was created with. */
size_t front_kernels(const struct front *f);
/*
 * Makes kernel k the current one and launches its first blocks, one per SM per round while
 * they fit; the SMs that got one are woken, and each launches the next block as one retires.
 * When the last block retires (front_kernel_done) or a warp fails (front_failed) the front
 * stops the event queue. Returns 0, or -1 with err filled (a trace kernel that cannot be opened
 * or whose first block is bad).
 */
int front_kernel_begin(struct front *f, size_t k, struct sim_err *err);
/* Every block of the current kernel retired. */
bool front_kernel_done(const struct front *f);
/* A warp's evaluation failed (a division by zero in an index) or the trace's next block was
 * bad: true, with the error in *err (if not NULL). */
bool front_failed(const struct front *f, struct sim_err *err);
/* Core cycle of the last warp instruction issued, reply taken, or kernel begun. */
cycle_t front_last_progress(const struct front *f);
/* Core cycle at which the current kernel's last block retired. */
cycle_t front_end_cycle(const struct front *f);
/* Core cycle of the current kernel's first warp instruction (CYCLE_NEVER before it). */
cycle_t front_first_issue_cycle(const struct front *f);
/* Blocks of the current kernel retired, and in all. */
void front_blocks(const struct front *f, uint64_t *done, uint64_t *all);
/* Warp instructions issued so far (sim.warp_insts). */
uint64_t front_warp_insts(const struct front *f);
/* The current kernel's file, for messages. */
const char *front_kernel_path(const struct front *f);
/* After the run (a partial one's too): the load_stage.* means of the requests retired so far. */
void front_finish(struct front *f);
/* The state of every SM with live warps, for the watchdog. */
void front_dump(const struct front *f, FILE *out);
/* Called at every warp instruction issued (each load of a chase) with the core cycle, the SM,
 * the global warp number (block number x warps per block + warp in the block) and the
 * instruction (warpexec.h; op->op is the workload op, op->ti the trace instruction). */
typedef void front_trace_fn(void *ctx, cycle_t cycle, uint32_t sm, uint64_t gid,
			    const struct winst *op);
void front_set_trace(struct front *f, front_trace_fn *fn, void *ctx);

#endif /* SIM_SM_H */
