/*
 * run.h - the run driver: runs the kernels of workloads, or the commands of an Accel-Sim trace,
 * on a machine built by sim_create, and watches the run.
 *
 * The SMs (sim/front/sm.h) know how to run one kernel's blocks; the driver decides everything
 * around that: the order of the kernels (and a trace's MemcpyHtoD commands, which warm the L2),
 * the drain of the memory system at each kernel boundary, the watchdog (a run without progress
 * is a deadlock), the run limits (--max-cycles, --max-host-seconds), the progress callback, and
 * the run-level statistics (sim/gpu/totals.h).
 *
 *   run_create -> [run_set_limits, run_set_progress, front_set_trace(run_front(r))]
 *              -> run_simulate -> run_outcome / run_cycles / run_kernel_cycles / run_totals
 *              -> run_destroy (before sim_destroy)
 *
 * Kernel boundary: a kernel ends when its last block retires; then the driver runs the event
 * queue on until nothing is in flight anywhere (write-throughs on their way to the L2, their
 * acks), so that every request created is retired before the next kernel starts. The kernel's
 * cycle count stays at its last block's retirement. The caches keep their contents.
 *
 * The queue runs in slices of at most RUN_SLICE_CYCLES core cycles, each ending at a core cycle
 * edge (events at that edge included): at the progress callback, the watchdog's deadline (last
 * progress + sim.watchdog_cycles) and the cycle limit. Where a slice ends does not change what
 * happens, so a limit stops a run at the exact cycle.
 */
#ifndef SIM_RUN_H
#define SIM_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "types.h"

struct front;
struct run;
struct run_totals;
struct sim;
struct trace_list;
struct workload;

/* How run_simulate ended. */
enum run_outcome {
	RUN_DONE,         /* every block of every kernel retired */
	RUN_FAILED,       /* an evaluation error (a division by zero in an index), a bad trace */
	RUN_WATCHDOG,     /* sim.watchdog_cycles without progress: a deadlock (see run_simulate) */
	RUN_LIMIT_CYCLES, /* the run reached its cycle limit (run_set_limits) */
	RUN_LIMIT_HOST,   /* the run used up its host seconds (run_set_limits) */
};

/*
 * Puts the SMs on s (its core clock, pool and SM links) with the kernels ws[0..nw) (nw >= 1),
 * run in order, and registers the run-level statistics after the SMs' own. The SM parameters
 * and the seed are s's (sim_params). ws and the workloads must outlive the run. Returns NULL
 * with err filled if a block cannot fit on an SM or a chase array is too large.
 */
struct run *run_create(struct sim *s, const struct workload *const *ws, size_t nw,
		       struct sim_err *err);
/* The same for a trace's command list (sim/front/trace.h); registers trace.l2_warm_lines, the
 * L2 lines its MemcpyHtoD commands installed. tl must outlive the run. */
struct run *run_create_trace(struct sim *s, struct trace_list *tl, struct sim_err *err);
/* Frees the driver and its SMs (not s). NULL is a no-op. */
void run_destroy(struct run *r);
/* The SMs, e.g. for front_set_trace. */
struct front *run_front(struct run *r);

/* Bounds the run: max_cycles core cycles from cycle 0, max_host_seconds of wall-clock time
 * measured from the start of run_simulate (checked every RUN_SLICE_CYCLES core cycles); 0:
 * none. */
void run_set_limits(struct run *r, cycle_t max_cycles, double max_host_seconds);
/* Called every RUN_SLICE_CYCLES core cycles of run_simulate with the current cycle, blocks of
 * the current kernel retired and in all, and warp instructions issued so far. */
typedef void run_progress_fn(void *ctx, cycle_t cycle, uint64_t blocks_done, uint64_t blocks,
			     uint64_t warp_insts);
void run_set_progress(struct run *r, run_progress_fn *fn, void *ctx);

/*
 * Runs every kernel (and trace command) in order, then fills the run-level statistics (also
 * after a limit or the watchdog: the values of that moment). Returns 0, or -1 with err filled
 * and run_outcome telling why:
 *   an evaluation error (a division by zero in an index), a bad trace block;
 *   the watchdog: no warp instruction issued and no request retired (replied to an SM) for
 *   sim.watchdog_cycles core cycles while blocks remain, or a kernel's requests not drained
 *   within that span after its last block; or nothing left to simulate with blocks remaining.
 *   The SMs, every unit's queues (sim_dump) and the oldest request in flight with its stage
 *   stamps go to stderr first; the run stops at exactly last progress + watchdog_cycles;
 *   a limit of run_set_limits: the run stops at that cycle, its statistics are those so far.
 * Call once.
 */
int run_simulate(struct run *r, struct sim_err *err);
enum run_outcome run_outcome(const struct run *r);
/* Core cycle at which the last block (of the last kernel) retired; after a limit or the
 * watchdog, the cycle the run stopped at. */
cycle_t run_cycles(const struct run *r);
/* Kernel k's first launch and last block's retirement, core cycles. */
void run_kernel_cycles(const struct run *r, size_t k, cycle_t *start, cycle_t *end);
/* Core cycle of kernel k's first warp instruction (its start until it issues one; CYCLE_NEVER
 * for a kernel without instructions). */
cycle_t run_kernel_first_issue(const struct run *r, size_t k);
/* The run-level statistics (sim/gpu/totals.h), filled by run_simulate. */
const struct run_totals *run_totals(const struct run *r);

/* Core cycles between progress callbacks and limit checks. */
#define RUN_SLICE_CYCLES 4096

#endif /* SIM_RUN_H */
