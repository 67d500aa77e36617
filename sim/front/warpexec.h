/*
 * warpexec.h - what one warp of a workload does, without timing: the op walk (loops entered and
 * left, loop variables), the thread coordinates of its lanes, and the byte addresses of a
 * memory op. The SM model (sm.c) and the timing-free analysis (gmsim analyze) both execute
 * warps through it, so the two can never disagree about which addresses a kernel touches.
 *
 * Use: wexec_start for warp k of block b, then loop { op = wexec_op(x); if (op == NULL) done;
 * act on op; wexec_next(x); }. wexec_op never returns a loop op: wexec_start and wexec_next
 * enter loops (a trip count <= 0 skips the body) and leave them. Chase ops: see wexec_chase_*.
 *
 * Errors (a division by zero in a trip count, an index outside its array) set ctx->error and
 * ctx->msg and x->err_op; the walk is then undefined and the caller reports the error.
 */
#ifndef SIM_WARPEXEC_H
#define SIM_WARPEXEC_H

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stdint.h>

#include "expr.h"
#include "types.h"
#include "workload.h"

#define WEXEC_LANES 32u

struct wexec_frame {
	const struct workload_op *ops;
	uint32_t n, pc;
	int64_t count, iter;
	uint32_t slot;
};

struct wexec {
	struct wexec_frame stack[WORKLOAD_MAX_DEPTH + 1];
	uint32_t depth;
	uint32_t active;                   /* bit i: lane i is a thread of the block */
	int64_t vars[WORKLOAD_NVARS];
	/* Lane 0's thread (tx, ty, tz); lane k's is k threads on in the block's shape bdim (the
	 * lanes' ids are counted on when needed, not stored: 32 of them were six host cache lines
	 * a warp, read cold at each memory instruction). */
	uint32_t tid0[3];
	uint32_t bdim[3];
	const struct workload_op *err_op;  /* the op whose expression failed */
};

/*
 * One warp instruction as the SM model issues it, whichever source it comes from: a workload op
 * reached by the walk below (wexec_inst), or an instruction of a trace block (sim/front/trace.h,
 * filled by the SM from struct trace_inst). The SM and the analysis read only this, plus the
 * source's own pointer for what only that source has: a workload op's index expression and
 * chase array, a trace instruction's decoded lane addresses.
 *
 * Scoreboard: reg and need are slots of the SM's 64-bit register mask. For a workload a slot is
 * the register's number (a workload has at most WORKLOAD_MAX_REGS = 64 names); for a trace,
 * trace.h maps each warp's load-written registers to slots.
 */
struct trace_inst;
struct winst {
	enum workload_op_kind kind;        /* never LOOP */
	uint32_t bytes;                    /* memory ops: bytes per lane */
	int reg;                           /* slot a global load (or chase) writes, or -1 */
	uint32_t latency;                  /* ALU: core cycles */
	uint64_t need;                     /* slots the instruction waits for: uses and reg */
	int line;                          /* source line: the op's group, the trace line */
	uint32_t active;                   /* lanes taking part */
	const struct workload_op *op;      /* workload: the op; NULL for a trace */
	const struct trace_inst *ti;       /* trace: the instruction; NULL for a workload */
};

/* Thread (x, y, z) of lane `lane` of warp `warp` in a block of dims block[3]; false if that
 * thread is beyond the block (an inactive lane of a partial warp). */
bool wexec_lane_thread(const uint32_t block[3], uint32_t warp, uint32_t lane, uint32_t tid[3]);
/* Active mask of warp `warp` of a block of `threads` threads. */
uint32_t wexec_warp_mask(uint64_t threads, uint32_t warp);

/* Warp `warp` (0-based in the block) of block number `block` (x fastest) at its first op. */
void wexec_start(struct wexec *x, const struct workload *w, uint64_t block, uint32_t warp,
		 struct expr_ctx *ctx);
/* The op the warp is at (never a loop), or NULL when it has finished its body. */
const struct workload_op *wexec_op(const struct wexec *x);
/* The op the warp is at as a struct winst: false (nothing written) when it has finished. */
bool wexec_inst(const struct wexec *x, struct winst *in);
/* Moves past the current op (entering and leaving loops). */
void wexec_next(struct wexec *x, struct expr_ctx *ctx);
/*
 * Byte addresses of a load/store/shared op for the active lanes into addr[] (inactive lanes
 * untouched); a is the op's array (global or shared). False with ctx->error set on an
 * evaluation error or an index outside the array.
 */
bool wexec_addrs(struct wexec *x, const struct workload_op *op, const struct workload_array *a,
		 struct expr_ctx *ctx, addr_t *addr);
/* wexec_addrs for a coalescer (struct coal_inst.dense): *dense is set when every lane is
 * active and lane i's address is addr[0] + i x op->bytes (an affine index's row), and then
 * only addr[0] is written (every lane in the debug build, whose coalescer checks the word). */
bool wexec_addrs_dense(struct wexec *x, const struct workload_op *op,
		       const struct workload_array *a, struct expr_ctx *ctx, addr_t *addr,
		       bool *dense);
/* The op's trip count (loop) or load count (chase) in the warp's current variables. */
int64_t wexec_count(struct wexec *x, const struct workload_op *op, struct expr_ctx *ctx);

/*
 * Pointer chase orders: for an array of n elements, next[i] is the node after i, one cycle
 * through all n nodes: Sattolo's shuffle drawn from rng (random) or i -> i + 1 (sequential).
 * Returns a malloc'd array; n must be >= 1.
 */
uint32_t *wexec_chase_order(uint64_t n, bool random, gsl_rng *rng);
/* Largest array a chase may walk (its order is n node numbers of 4 bytes, and every node number
 * fits them). */
#define WEXEC_CHASE_MAX_ELEMS (1ull << 28)
/*
 * next[a] for every global array a that some chase op walks (NULL for the others), built in op
 * order from rng: the same rng state gives the same orders in sm.c and gmsim analyze. Returns
 * a malloc'd array of w->narrays pointers (free with wexec_chase_free), or NULL with err filled
 * if a chased array is empty or larger than WEXEC_CHASE_MAX_ELEMS.
 *
 * Kernels run one after another share their data: an array that an earlier kernel (prev[0 ..
 * nprev-1], with their orders prev_next) chased under the same name, element count and order
 * is the same linked list in memory, so it gets the same order (the same pointer, drawing
 * nothing from rng): a later kernel's chase walks the cycle the earlier one left its caches
 * on, as a benchmark's timed pass follows its untimed ones. Free such a list of kernels with
 * wexec_chase_free_all.
 */
uint32_t **wexec_chase_build(const struct workload *w, gsl_rng *rng,
			     const struct workload *const *prev, uint32_t **const *prev_next,
			     size_t nprev, struct sim_err *err);
void wexec_chase_free(const struct workload *w, uint32_t **next);
/* Frees the orders of kernels ws[0 .. n-1] built with sharing: each order once. */
void wexec_chase_free_all(const struct workload *const *ws, uint32_t ***next, size_t n);
/* The node a chase of global warp number gid starts at, before the op's start steps. */
static inline uint64_t wexec_chase_start(uint64_t gid, const struct workload_array *a)
{
	return gid % a->elems;
}
/* The node of chase op's first load for global warp gid: wexec_chase_start, then `start` steps
 * along next (start modulo the cycle's length, the element count: at most elems - 1 steps).
 * On an error (start negative or not computable) sets ctx->error and returns 0. */
uint64_t wexec_chase_first(struct wexec *x, const struct workload_op *op,
			   const struct workload_array *a, const uint32_t *next, uint64_t gid,
			   struct expr_ctx *ctx);

#endif /* SIM_WARPEXEC_H */
