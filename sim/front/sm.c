/*
 * sm.c - SMs, warps and the block scheduler (contract in sm.h).
 *
 * Per SM and cycle (sm_tick): take the replies off the response link (a load's register is
 * ready at its last line; a chase load lets the warp issue the next one), push what the LD/ST
 * buffer holds into the L1 link, issue up to issue_width ready warps, retire warps that are done
 * (a block that has retired every warp frees its resources and the SM takes the next block),
 * then sleep until the earliest cycle a warp can issue: replies wake the SM through the
 * response link, a refused push through the request link, ALU and shared-memory latencies
 * through clock_sleep_until.
 *
 * Memory: warps, blocks, the LD/ST buffer and the chase orders are allocated at creation;
 * nothing is allocated per instruction (requests come from the simulation's pool).
 */
#include "config.h"

#include <gsl/gsl_rng.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "clock.h"
#include "coalescer.h"
#include "eventq.h"
#include "expr.h"
#include "link.h"
#include "req.h"
#include "sm.h"
#include "stats.h"
#include "trace.h"
#include "warpexec.h"
#include "workload.h"

#define P struct sm_params
const char *const sm_scheduler_names[] = {
#define SM_SCHED_NAME(e, s) s,
	SM_SCHEDULERS(SM_SCHED_NAME)
#undef SM_SCHED_NAME
	NULL
};

const struct cfg_field sm_fields[] = {
	CFG_U32_FIELD(P, max_warps, 1, 1024, "64", "warps resident on one SM at once"),
	CFG_U32_FIELD(P, max_blocks, 1, 1024, "32", "thread blocks resident on one SM at once"),
	CFG_U32_FIELD(P, shared_kb, 0, 65536, "96", "shared memory per SM, KB"),
	CFG_U32_FIELD(P, registers, 0, 1048576, "65536",
		      "32-bit registers per SM (0: no limit); a warp of a kernel with r registers "
		      "per thread takes ceil(32 r / 256) x 256"),
	CFG_U32_FIELD(P, schedulers, 1, SM_MAX_SCHEDULERS, "4",
		      "warp schedulers per SM; warp slot i belongs to scheduler i mod schedulers"),
	CFG_U32_FIELD(P, issue_width, 1, 64, "1",
		      "warp instructions each scheduler issues per core cycle"),
	CFG_ENUM_FIELD(P, scheduler, sm_scheduler_names, "\"lrr\"",
		       "warp scheduler: lrr (loose round-robin) or gto (greedy-then-oldest)"),
	CFG_U32_FIELD(P, shared_latency_cycles, 1, 10000, "24",
		      "core cycles of a shared-memory access without bank conflicts"),
	CFG_U32_FIELD(P, shared_banks, 1, 64, "32",
		      "shared-memory banks, 4 B wide; a k-way conflict adds k - 1 cycles"),
	CFG_U32_FIELD(P, ldst_requests_per_cycle, 1, 64, "1",
		      "line requests the LD/ST unit hands the L1 per core cycle"),
	CFG_U32_FIELD(P, ldst_bytes_per_cycle, 0, 4096, "0",
		      "lane data the LD/ST unit takes per core cycle (active lanes x access "
		      "size): a global instruction holds it max(1, bytes / this) cycles, so one "
		      "instruction a cycle at most (Volta/Ampere: 128, one 4-byte word a lane; an "
		      "8-byte load takes two cycles); 0: no limit but the line request rate"),
	CFG_U32_FIELD(P, block_launch_cycles, 0, 100000, "0",
		      "core cycles from a thread block's dispatch to an SM until its warps can "
		      "issue (block set-up: the SM's resources, special registers, parameters); "
		      "0: at once"),
	CFG_F64_FIELD(P, block_dispatch_per_cycle, 0, 1024, "0",
		      "thread blocks the GPU-wide block dispatcher hands to SMs per core cycle, "
		      "a rate that may be fractional (0.5: one block every other cycle; a block "
		      "waits for its slot, then block_launch_cycles); 0: no limit"),
};
#undef P
_Static_assert(sizeof sm_fields / sizeof sm_fields[0] == SM_NFIELDS, "SM_NFIELDS");

/* Reply slots of a warp: registers 0..63, then loads without a register (and stores), then
 * the chase load in flight. */
#define SLOT_NOREG WORKLOAD_MAX_REGS
#define SLOT_CHASE (WORKLOAD_MAX_REGS + 1)
#define NSLOTS (WORKLOAD_MAX_REGS + 2)

struct sm_core;

struct warp {
	/* What the issue scan reads, together in the first cache line. */
	bool live, finished, at_barrier, chase_wait;
	bool global;            /* the op at x is a global memory op: needs the LD/ST buffer */
	uint32_t inflight;      /* line requests not yet replied to */
	uint64_t pending;       /* registers waiting for replies */
	uint64_t need;          /* registers the op at x waits for: its uses and its destination */
	cycle_t busy_until;
	int64_t chase_left;
	const struct winst *op; /* the instruction the warp is at (&c->cur), NULL when done */
	uint64_t age;
	/* The rest. */
	struct sm_core *sm;
	uint32_t idx;           /* slot in sm->warps */
	uint32_t sbit;          /* its bit in sm->sunblk */
	uint32_t block;         /* slot in sm->blocks */
	uint64_t gid;
	uint64_t chase_node;
	struct warp_cold *c;    /* sm->cold[idx] */
};

/* What a warp touches only when it issues or gets a reply: kept apart so that the scans over
 * every warp slot read one small struct warp each. */
struct warp_cold {
	/* Not cleared at launch: every count is 0 when a warp retires (their sum is inflight, which
	 * must be 0), and a slot's issue time is written at each issue before a reply reads it. */
	uint32_t outstanding[NSLOTS];
	cycle_t issued_at[NSLOTS];
	/* cleared at launch, from here to the end */
	struct winst cur;       /* the instruction the warp is at */
	struct wexec x;         /* workload: where the warp is in the body; its lanes */
	const struct trace_block *tb; /* trace: the block, and the warp's instructions */
	uint32_t tpc, tend;     /* trace: insts[tpc .. tend) are still to issue */
};

struct block_slot {
	bool live;
	uint32_t nwarps, running, unretired, arrived;
	uint32_t *warps;        /* wpb warp slots */
	struct trace_block tb;  /* trace kernels: the block's instructions (buffers reused) */
};

struct sm_stats {
	uint64_t issue_stalls;
};

struct sm_core {
	struct front *f;
	uint32_t id;
	struct clock_unit *unit;
	struct link *in, *resp;
	struct warp *warps;
	struct warp_cold *cold; /* per warp slot */
	struct block_slot *blocks;
	uint32_t warps_used, blocks_used;
	uint64_t shared_used, regs_used;
	uint32_t n_local;       /* live warps whose op is not a global memory op (ALU, shared,
				 * barrier): while the LD/ST buffer is busy only they can issue */
	uint32_t n_finished;    /* warps finished and not yet retired: sm_retire looks only then */
	/* bit i of a word array (max_warps bits): warp slot i is unblocked (live, not finished,
	 * not at a barrier or waiting for a chase load, and not waiting for a register: only
	 * time or the LD/ST unit can stop it issuing; warp_mark), finished (not yet retired) */
	uint64_t *unblk, *fin;
	/* of unblk, the warps whose op is a global memory op or a chase load: while the LD/ST
	 * buffer is busy and no warp is busy (busy_hi), sm_tick's wake scan passes them over
	 * (the request link wakes us for them) without reading them */
	uint64_t *umem;
	cycle_t busy_hi;        /* at least every warp's busy_until (the largest ever set) */
	/* unblk again, scheduler-major: scheduler s's positions (warp slot s + pos * S) are bits
	 * s * swords * 64 + pos, so that an issue scan visits only its unblocked warps */
	uint64_t *sunblk;
	uint32_t swords;
	uint32_t rr[SM_MAX_SCHEDULERS];     /* LRR: next position in each scheduler's warps */
	uint32_t greedy[SM_MAX_SCHEDULERS]; /* GTO: each scheduler's last issued warp slot */
	/* the scheduler asked first each cycle: the one after the scheduler whose warp took the
	 * LD/ST unit last, so that the processing blocks share it round-robin */
	uint32_t ldst_first;
	/* LD/ST requests handed to the L1 in cycle ldst_cycle */
	cycle_t ldst_cycle, ldst_issued;
	uint32_t ldst_pushed;
	/* LD/ST buffer: the lines of one memory instruction, pushed as the link accepts them */
	struct coal_line lines[COAL_MAX_LINES];
	uint32_t nlines, next_line;
	cycle_t ldst_free;          /* first cycle the LD/ST unit takes another instruction */
	struct warp *ldst_warp;
	uint32_t ldst_slot;
	bool ldst_store;
	cycle_t blocked_since;
	bool blocked;
	struct sm_stats st;
};

struct front_stats {
	uint64_t warp_insts, mem_insts, issue_stalls, shared_insts, shared_bank_conflicts;
	uint64_t blocks;
	uint64_t dispatch_wait;  /* cycles blocks waited for a dispatcher slot, summed */
};

struct front {
	struct sm_params p;
	const struct workload *const *ws; /* the kernels, run one after the other */
	struct trace_list *tl;             /* or a trace's list (then ws is NULL) */
	size_t nw, kidx;                   /* kernels, the one running */
	uint32_t ***chases;                /* per kernel: its chase orders (wexec_chase_build; a
					    * later kernel shares an earlier one's array's order) */
	/* the kernel running: */
	const struct workload *w;          /* workload kernels */
	struct trace_reader *tr;           /* trace kernels: the kernel's reader, */
	struct trace_block ahead;          /* the next block, read ahead (have_ahead) */
	bool have_ahead;
	const char *kpath;                 /* the kernel's file, for errors */
	uint64_t kshared;                  /* shared memory per block, bytes */
	struct clock *clk;
	struct eventq *q;
	struct req_pool *pool;
	struct coalescer *coal;
	struct stats_dist *lat;
	gsl_rng *rng;
	struct expr_ctx ectx;
	struct sm_core *sms;
	uint32_t nsm, wpb;
	uint64_t block_regs;    /* registers one block takes (0: not limited) */
	uint64_t threads, nblocks, next_block, blocks_done, age;
	uint32_t **chase_next;  /* per global array: the cyclic order, or NULL */
	cycle_t end;            /* core cycle the kernel's last block retired */
	cycle_t first_issue;    /* core cycle of the kernel's first warp instruction */
	cycle_t disp_start;     /* the dispatcher's busy run: its first cycle, */
	uint64_t disp_n;        /* and the blocks handed out since */
	cycle_t progress_at;    /* core cycle of the last issue or reply, for the watchdog */
	front_trace_fn *trace_fn;
	void *trace_ctx;
	/* load line requests: ticks spent in each stage (from entering it to the next stamped
	 * stage), and their means in core cycles after the run */
	uint64_t stage_ticks[MEM_STAGE_COUNT];
	uint64_t stage_reqs;
	double stage_mean[MEM_STAGE_COUNT];
	bool failed;
	struct sim_err err;
	struct front_stats st;
};

/* ---------------------------------------------------------------------------------------------
 * Pure pieces
 */

uint32_t sm_bank_conflict_degree(const uint64_t *words, uint32_t active, uint32_t banks)
{
	uint32_t i, j, deg = 0;

	for (i = 0; i < SM_WARP_LANES; i++) {
		uint32_t n = 0;
		bool first = true;

		if (!(active & (1u << i)))
			continue;
		/* count distinct words in lane i's bank, once per bank: only from its first lane
		 * holding each word */
		for (j = 0; j < i; j++)
			if ((active & (1u << j)) && words[j] % banks == words[i] % banks) {
				first = false;
				break;
			}
		if (!first)
			continue;
		for (j = i; j < SM_WARP_LANES; j++) {
			uint32_t k;
			bool dup = false;

			if (!(active & (1u << j)) || words[j] % banks != words[i] % banks)
				continue;
			for (k = i; k < j; k++)
				if ((active & (1u << k)) && words[k] == words[j]) {
					dup = true;
					break;
				}
			if (!dup)
				n++;
		}
		if (n > deg)
			deg = n;
	}
	return deg;
}

uint64_t sm_block_registers(uint32_t warps, uint32_t regs_per_thread)
{
	uint64_t per_warp = ((uint64_t)regs_per_thread * SM_WARP_LANES + SM_REG_ALLOC_UNIT - 1) /
			    SM_REG_ALLOC_UNIT * SM_REG_ALLOC_UNIT;

	return per_warp * warps;
}

uint32_t sm_blocks_per_sm(const struct sm_params *p, uint32_t warps, uint64_t shared_bytes,
			  uint32_t regs_per_thread)
{
	uint64_t n = p->max_blocks, regs = sm_block_registers(warps, regs_per_thread);

	if (warps == 0 || warps > p->max_warps)
		return 0;
	if (p->max_warps / warps < n)
		n = p->max_warps / warps;
	if (shared_bytes > 0 && (uint64_t)p->shared_kb * 1024 / shared_bytes < n)
		n = (uint64_t)p->shared_kb * 1024 / shared_bytes;
	if (p->registers > 0 && regs > 0 && p->registers / regs < n)
		n = p->registers / regs;
	return (uint32_t)n;
}

static int no_fit(const struct sm_params *p, const char *path, const uint32_t block[3],
		  uint64_t shared_bytes, uint32_t regs, struct sim_err *err)
{
	uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
	uint32_t wpb = (uint32_t)((threads + SM_WARP_LANES - 1) / SM_WARP_LANES);

	return sim_err_set(err, path, 0, "a block of %llu threads (%u warps), %llu B of shared "
			   "memory and %llu registers does not fit on an SM (sm.max_warps = %u, "
			   "sm.shared_kb = %u, sm.registers = %u)", (unsigned long long)threads, wpb,
			   (unsigned long long)shared_bytes,
			   (unsigned long long)sm_block_registers(wpb, regs), p->max_warps,
			   p->shared_kb, p->registers);
}

int sm_no_fit_error(const struct sm_params *p, const struct workload *w, struct sim_err *err)
{
	return no_fit(p, w->path, w->block, w->shared_bytes, w->registers, err);
}

int sm_no_fit_trace_error(const struct sm_params *p, const struct trace_kernel *k,
			  struct sim_err *err)
{
	return no_fit(p, k->path, k->block, k->shmem, k->nregs, err);
}

/* ---------------------------------------------------------------------------------------------
 * Warps
 */

static void front_fail(struct front *f, const struct workload_op *op, const char *msg)
{
	if (!f->failed) {
		f->failed = true;
		sim_err_set(&f->err, f->kpath, op != NULL ? op->line : 0, "%s: %s",
			    op != NULL ? workload_op_name(op->kind) : "run", msg);
	}
	eventq_stop(f->q);
}

/* A trace reader's error (file and line already in e). */
static void front_fail_err(struct front *f, const struct sim_err *e)
{
	if (!f->failed) {
		f->failed = true;
		f->err = *e;
	}
	eventq_stop(f->q);
}

static void block_release_barrier(struct sm_core *sm, struct block_slot *b);
static void warp_advance(struct sm_core *sm, struct warp *w);

static const struct winst *warp_op(const struct warp *w)
{
	return w->op;
}

static inline bool bit_test(const uint64_t *words, uint32_t i)
{
	return (words[i / 64] >> (i % 64)) & 1;
}

static inline void bit_put(uint64_t *words, uint32_t i, bool on)
{
	if (on)
		words[i / 64] |= 1ull << (i % 64);
	else
		words[i / 64] &= ~(1ull << (i % 64));
}

/* Sets w busy until (excluding) cycle until, keeping sm->busy_hi at least every warp's. */
static void warp_busy(struct sm_core *sm, struct warp *w, cycle_t until)
{
	w->busy_until = until;
	if (until > sm->busy_hi)
		sm->busy_hi = until;
}

/* Brings w's bits in sm->unblk and sm->fin up to date; called wherever what they say can
 * change (the warp's state, its registers, its op). */
static void warp_mark(struct sm_core *sm, const struct warp *w)
{
	bool unblocked = w->live && !w->finished && !w->at_barrier && !w->chase_wait &&
			 (w->chase_left > 0 || (w->pending & w->need) == 0);

	bit_put(sm->unblk, w->idx, unblocked);
	bit_put(sm->umem, w->idx, unblocked && (w->chase_left > 0 || w->global));
	bit_put(sm->sunblk, w->sbit, unblocked);
	bit_put(sm->fin, w->idx, w->live && w->finished);
}

/* The first set bit of words in [from, to), or to. */
static uint32_t next_set(const uint64_t *words, uint32_t from, uint32_t to)
{
	while (from < to) {
		uint64_t word = words[from / 64] >> (from % 64);

		if (word != 0) {
			from += (uint32_t)__builtin_ctzll(word);
			return from < to ? from : to;
		}
		from = (from | 63) + 1;
	}
	return to;
}

static bool op_is_global(const struct winst *op)
{
	return op->kind == WORKLOAD_OP_LOAD || op->kind == WORKLOAD_OP_STORE ||
	       op->kind == WORKLOAD_OP_CHASE;
}

/* The trace instruction warp c stands at, as a struct winst; false at the end of its list. */
static bool trace_winst(struct warp_cold *c)
{
	const struct trace_inst *ti;
	struct winst *in = &c->cur;

	if (c->tpc >= c->tend)
		return false;
	ti = &c->tb->insts[c->tpc];
	in->kind = (enum workload_op_kind)ti->kind;
	in->bytes = ti->bytes;
	in->reg = ti->slot;
	in->latency = ti->latency;
	in->need = ti->need;
	in->line = (int)ti->line;
	in->active = ti->active;
	in->op = NULL;
	in->ti = ti;
	return true;
}

/* After the walk moved: a walk that reached the end of the body finishes the warp (which may
 * complete a barrier the rest of the block waits at). */
static void warp_settled(struct sm_core *sm, struct warp *w)
{
	struct front *f = sm->f;
	struct block_slot *b;

	bool more;

	if (w->op != NULL && !w->global)
		sm->n_local--;
	more = f->tl != NULL ? trace_winst(w->c) : wexec_inst(&w->c->x, &w->c->cur);
	w->op = more ? &w->c->cur : NULL;
	w->global = false;
	if (f->ectx.error) {
		w->op = NULL;
		front_fail(f, w->c->x.err_op, f->ectx.msg);
		return;
	}
	if (w->op != NULL) {
		w->need = w->op->need;
		w->global = op_is_global(w->op);
		if (!w->global)
			sm->n_local++;
		warp_mark(sm, w);
		return;
	}
	b = &sm->blocks[w->block];
	w->finished = true;
	sm->n_finished++;
	warp_mark(sm, w);
	b->running--;
	if (b->running > 0 && b->arrived == b->running)
		block_release_barrier(sm, b);
}

static void warp_advance(struct sm_core *sm, struct warp *w)
{
	if (sm->f->tl != NULL)
		w->c->tpc++;
	else
		wexec_next(&w->c->x, &sm->f->ectx);
	warp_settled(sm, w);
}

static void block_release_barrier(struct sm_core *sm, struct block_slot *b)
{
	uint32_t i;

	b->arrived = 0;
	for (i = 0; i < b->nwarps; i++) {
		struct warp *w = &sm->warps[b->warps[i]];

		if (w->live && w->at_barrier) {
			w->at_barrier = false;
			warp_advance(sm, w);
		}
	}
}

/* Ready to issue now, the LD/ST buffer aside. */
static bool warp_ready(const struct warp *w, cycle_t now)
{
	if (!w->live || w->finished || w->at_barrier || w->chase_wait || w->busy_until > now)
		return false;
	if (w->chase_left > 0)
		return true;
	return (w->pending & w->need) == 0;
}

/* ---------------------------------------------------------------------------------------------
 * Issue
 */

static void ldst_drain(struct sm_core *sm, cycle_t now)
{
	struct front *f = sm->f;

	if (sm->ldst_cycle != now) {
		sm->ldst_cycle = now;
		sm->ldst_pushed = 0;
	}
	while (sm->next_line < sm->nlines) {
		const struct coal_line *l = &sm->lines[sm->next_line];
		struct mem_req *r;

		if (sm->ldst_pushed == f->p.ldst_requests_per_cycle)
			goto unblocked; /* the rest next cycle */
		if (!link_can_push(sm->in)) {
			link_try_push(sm->in, NULL); /* refused: counts a stall, wakes us at a pop */
			if (!sm->blocked) {
				sm->blocked = true;
				sm->blocked_since = now;
			}
			return;
		}
		/* CREATED is the instruction's issue, so the wait in the LD/ST unit counts */
		r = req_alloc(f->pool, clock_tick_of(f->clk, sm->ldst_issued));
		r->type = sm->ldst_store ? MEM_REQ_STORE : MEM_REQ_LOAD;
		r->addr = l->addr;
		r->sector_mask = l->sector_mask;
		r->byte_mask[0] = l->byte_mask[0];
		r->byte_mask[1] = l->byte_mask[1];
		r->bytes = l->bytes;
		r->sm = (uint16_t)sm->id;
		r->warp = (uint16_t)sm->ldst_warp->idx;
		r->inst = sm->ldst_slot;
		r->origin = sm->ldst_warp;
		link_push(sm->in, r);
		sm->next_line++;
		sm->ldst_pushed++;
	}
	sm->nlines = sm->next_line = 0;
unblocked:
	if (sm->blocked) {
		sm->st.issue_stalls += now - sm->blocked_since;
		f->st.issue_stalls += now - sm->blocked_since;
		sm->blocked = false;
	}
}

/* Coalesces one global access of w (addresses in inst) into the LD/ST buffer. */
static void ldst_fill(struct sm_core *sm, struct warp *w, struct coal_inst *inst, uint32_t slot,
		      cycle_t now)
{
	struct front *f = sm->f;
	uint32_t n = coalesce(f->coal, inst, sm->lines, COAL_MAX_LINES);

	sm->nlines = n;
	sm->next_line = 0;
	if (f->p.ldst_bytes_per_cycle > 0) {
		uint64_t b = (uint64_t)bits_pop32(inst->active_mask) * inst->size;
		uint64_t c = (b + f->p.ldst_bytes_per_cycle - 1) / f->p.ldst_bytes_per_cycle;

		sm->ldst_free = now + (c > 1 ? c : 1);
	}
	sm->ldst_warp = w;
	sm->ldst_first = (w->idx + 1) % f->p.schedulers;
	sm->ldst_slot = slot;
	sm->ldst_store = inst->is_store;
	sm->ldst_issued = now;
	f->st.mem_insts++;
	if (n == 0)
		return;
	w->c->outstanding[slot] += n;
	w->inflight += n;
	w->c->issued_at[slot] = now;
	ldst_drain(sm, now);
}

/* Lane addresses of memory instruction op of w: decoded from the trace, or the workload op's
 * index expression evaluated (false after front_fail on an evaluation error). With dense (not
 * NULL: a global access, for the coalescer), a unit-stride warp's are addr[0] alone and *dense
 * is set (struct coal_inst.dense). */
static bool lane_addrs(struct sm_core *sm, struct warp *w, const struct winst *op, addr_t *addr,
		       bool *dense)
{
	struct front *f = sm->f;
	const struct workload_array *a;

	if (op->ti != NULL) {
		if (dense != NULL)
			*dense = trace_inst_addrs_dense(w->c->tb, op->ti, op->bytes, addr);
		else
			trace_inst_addrs(w->c->tb, op->ti, addr);
		return true;
	}
	a = op->kind == WORKLOAD_OP_LOAD || op->kind == WORKLOAD_OP_STORE
		? &f->w->arrays[op->op->array] : &f->w->shared[op->op->array];
	if (wexec_addrs_dense(&w->c->x, op->op, a, &f->ectx, addr, dense))
		return true;
	front_fail(f, op->op, f->ectx.msg);
	return false;
}

static void issue_chase(struct sm_core *sm, struct warp *w, const struct workload_op *op,
			cycle_t now)
{
	/* workload only: a trace has no chase op (its loads carry their own addresses) */
	struct front *f = sm->f;
	const struct workload_array *a = &f->w->arrays[op->array];
	struct coal_inst inst;
	uint32_t lane;

	if (w->chase_left == 0) {
		int64_t n = wexec_count(&w->c->x, op, &f->ectx);

		if (f->ectx.error) {
			front_fail(f, op, f->ectx.msg);
			return;
		}
		if (n <= 0) {
			warp_advance(sm, w);
			return;
		}
		w->chase_left = n;
		w->chase_node = wexec_chase_first(&w->c->x, op, a, f->chase_next[op->array], w->gid,
						  &f->ectx);
		if (f->ectx.error) {
			front_fail(f, op, f->ectx.msg);
			return;
		}
		if (op->reg >= 0)
			w->pending |= 1ull << op->reg;
	}
	inst.active_mask = w->c->x.active;
	inst.size = op->bytes;
	inst.is_store = false;
	inst.dense = false;
	for (lane = 0; lane < SM_WARP_LANES; lane++)
		inst.addr[lane] = a->base + w->chase_node * a->elem_bytes;
	w->chase_wait = true;
	warp_mark(sm, w);
	ldst_fill(sm, w, &inst, SLOT_CHASE, now);
}

static void issue(struct sm_core *sm, struct warp *w, cycle_t now)
{
	struct front *f = sm->f;
	const struct winst *op = warp_op(w);
	struct coal_inst inst;

	f->st.warp_insts++;
	f->progress_at = now;
	if (f->first_issue == CYCLE_NEVER)
		f->first_issue = now;
	if (f->trace_fn != NULL)
		f->trace_fn(f->trace_ctx, now, sm->id, w->gid, op);
	switch (op->kind) {
	case WORKLOAD_OP_ALU:
		warp_busy(sm, w, now + op->latency);
		warp_advance(sm, w);
		break;
	case WORKLOAD_OP_LOAD:
	case WORKLOAD_OP_STORE: {
		uint32_t slot = op->reg >= 0 ? (uint32_t)op->reg : SLOT_NOREG;

		if (!lane_addrs(sm, w, op, inst.addr, &inst.dense))
			return;
		inst.active_mask = op->active;
		inst.size = op->bytes;
		inst.is_store = op->kind == WORKLOAD_OP_STORE;
		if (inst.is_store)
			slot = SLOT_NOREG;
		else if (op->reg >= 0)
			w->pending |= 1ull << op->reg;
		ldst_fill(sm, w, &inst, slot, now);
		if (op->reg >= 0 && !inst.is_store && w->c->outstanding[slot] == 0)
			w->pending &= ~(1ull << op->reg);
		warp_advance(sm, w);
		break;
	}
	case WORKLOAD_OP_SHARED_LOAD:
	case WORKLOAD_OP_SHARED_STORE: {
		uint64_t words[SM_WARP_LANES] = { 0 };
		uint32_t lane, deg;

		if (!lane_addrs(sm, w, op, inst.addr, NULL))
			return;
		for (lane = 0; lane < SM_WARP_LANES; lane++)
			if (op->active & (1u << lane))
				words[lane] = inst.addr[lane] / 4;
		deg = sm_bank_conflict_degree(words, op->active, f->p.shared_banks);
		f->st.shared_insts++;
		if (deg > 1)
			f->st.shared_bank_conflicts += deg - 1;
		warp_busy(sm, w, now + f->p.shared_latency_cycles + (deg > 1 ? deg - 1 : 0));
		warp_advance(sm, w);
		break;
	}
	case WORKLOAD_OP_BARRIER: {
		struct block_slot *b = &sm->blocks[w->block];

		w->at_barrier = true;
		warp_mark(sm, w);
		if (++b->arrived == b->running)
			block_release_barrier(sm, b);
		break;
	}
	case WORKLOAD_OP_CHASE:
		issue_chase(sm, w, op->op, now);
		break;
	default:
		SIM_ASSERT(0);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Blocks
 */

static bool sm_fits(const struct sm_core *sm)
{
	const struct front *f = sm->f;

	return sm->blocks_used < f->p.max_blocks && sm->warps_used + f->wpb <= f->p.max_warps &&
	       sm->shared_used + f->kshared <= (uint64_t)f->p.shared_kb * 1024 &&
	       (f->p.registers == 0 || sm->regs_used + f->block_regs <= f->p.registers);
}

/* Whether the kernel has a block left to launch. */
static bool more_blocks(const struct front *f)
{
	return f->tl != NULL ? f->have_ahead : f->next_block < f->nblocks;
}

/* Trace kernels: reads the block after the one just launched into f->ahead. At the end of the
 * file the kernel's block count becomes the blocks launched (the tracer skips empty blocks). */
static void read_ahead(struct front *f)
{
	struct sim_err e;
	int rc = trace_next_block(f->tr, &f->ahead, &e);

	f->have_ahead = rc == 1;
	if (rc < 0) {
		front_fail_err(f, &e);
	} else if (rc == 0) {
		f->nblocks = f->next_block;
	} else if (f->next_block >= f->nblocks) {
		f->have_ahead = false;
		sim_err_set(&e, f->kpath, 0, "more thread blocks than the grid's %llu",
			    (unsigned long long)f->nblocks);
		front_fail_err(f, &e);
	}
}

/* The cycle the GPU-wide dispatcher hands a block over, asked at cycle now (rate r =
 * block_dispatch_per_cycle; 0: now). While it stays busy, the n-th block since its run began
 * at cycle start goes at start + floor(n / r): r a cycle for an integer r, one every 1 / r
 * cycles for a fraction. A dispatcher whose next slot has passed was idle, and starts a new
 * run at now: capacity it did not use is not banked. */
static cycle_t dispatch_slot(struct front *f, cycle_t now)
{
	double r = f->p.block_dispatch_per_cycle;
	cycle_t t;

	if (r == 0)
		return now;
	t = f->disp_start + (cycle_t)((double)f->disp_n / r); /* n / r >= 0: truncation floors */
	if (t < now) {
		f->disp_start = now;
		f->disp_n = 0;
		t = now;
	}
	f->disp_n++;
	f->st.dispatch_wait += t - now;
	return t;
}

/* Launches the kernel's next block on sm at cycle now: its resources are taken at once, its
 * warps issue from its dispatch slot + block_launch_cycles. */
static void sm_launch(struct sm_core *sm, cycle_t now)
{
	struct front *f = sm->f;
	const struct workload *wl = f->w;
	uint64_t bid = f->next_block++;
	struct block_slot *b = NULL;
	uint32_t i, k, slot = 0;
	cycle_t ready = dispatch_slot(f, now) + f->p.block_launch_cycles;

	for (i = 0; i < f->p.max_blocks; i++)
		if (!sm->blocks[i].live) {
			b = &sm->blocks[i];
			slot = i;
			break;
		}
	SIM_ASSERT(b != NULL);
	if (f->tl != NULL) {
		struct trace_block t = b->tb;

		b->tb = f->ahead;
		f->ahead = t;
		read_ahead(f);
	}
	b->live = true;
	b->nwarps = b->running = b->unretired = f->wpb;
	b->arrived = 0;
	sm->blocks_used++;
	sm->warps_used += f->wpb;
	sm->shared_used += f->kshared;
	sm->regs_used += f->block_regs;
	for (i = 0, k = 0; k < f->wpb; i++) {
		struct warp *w;

		SIM_ASSERT(i < f->p.max_warps);
		w = &sm->warps[i];
		if (w->live)
			continue;
		memset(w, 0, sizeof *w);
		w->c = &sm->cold[i];
#ifdef SIM_DEBUG
		{
			uint32_t s;

			for (s = 0; s < NSLOTS; s++)
				SIM_ASSERT(w->c->outstanding[s] == 0);
		}
#endif
		/* what the last warp of the slot left in outstanding and issued_at is as good as
		 * zeros (see struct warp_cold), and clearing 800 bytes of it was most of the
		 * launch's host cache misses */
		memset(&w->c->cur, 0, sizeof *w->c - offsetof(struct warp_cold, cur));
		w->sm = sm;
		w->idx = i;
		w->sbit = i % f->p.schedulers * sm->swords * 64 + i / f->p.schedulers; /* as made */
		w->block = slot;
		w->live = true;
		warp_busy(sm, w, ready);
		w->age = f->age++;
		w->gid = bid * f->wpb + k;
		if (f->tl != NULL) {
			w->c->tb = &b->tb;
			w->c->tpc = b->tb.warps[k].first;
			w->c->tend = w->c->tpc + b->tb.warps[k].n;
		} else {
			wexec_start(&w->c->x, wl, bid, k, &f->ectx);
		}
		b->warps[k++] = i;
	}
	for (k = 0; k < f->wpb; k++)
		warp_settled(sm, &sm->warps[b->warps[k]]);
	f->st.blocks++;
}

static void sm_fill(struct sm_core *sm, cycle_t now)
{
	struct front *f = sm->f;

	while (more_blocks(f) && sm_fits(sm) && !f->failed)
		sm_launch(sm, now);
}

/* Retires finished warps with nothing in flight; frees finished blocks. */
static void sm_retire(struct sm_core *sm, cycle_t now)
{
	struct front *f = sm->f;
	uint32_t i;
	bool freed = false;

	/* the finished warps, from fin's set bits (retiring one clears only its own) */
	for (i = next_set(sm->fin, 0, f->p.max_warps); i < f->p.max_warps && sm->n_finished > 0;
	     i = next_set(sm->fin, i + 1, f->p.max_warps)) {
		struct warp *w;
		struct block_slot *b;

		w = &sm->warps[i];
		if (!w->live || !w->finished || w->inflight != 0 || w->busy_until > now)
			continue;
		w->live = false;
		warp_mark(sm, w);
		sm->n_finished--;
		b = &sm->blocks[w->block];
		if (--b->unretired == 0) {
			b->live = false;
			sm->blocks_used--;
			sm->warps_used -= b->nwarps;
			sm->shared_used -= f->kshared;
			sm->regs_used -= f->block_regs;
			freed = true;
			if (++f->blocks_done == f->nblocks) {
				f->end = now;
				eventq_stop(f->q);
			}
		}
	}
	if (freed)
		sm_fill(sm, now);
}

/* ---------------------------------------------------------------------------------------------
 * The SM's cycle
 */

/* Charges each stamped stage of a load request the ticks until the next stamped one; the last
 * stage, RETIRED, is now. */
static void account_stages(struct front *f, struct mem_req *r)
{
	uint32_t s, prev = MEM_STAGE_CREATED;

	if (r->stage != MEM_STAGE_RETIRED)
		req_enter(r, MEM_STAGE_RETIRED, eventq_now(f->q));
	for (s = MEM_STAGE_CREATED + 1; s < MEM_STAGE_COUNT; s++) {
		if (r->stamp[s] == TICK_NEVER)
			continue;
		f->stage_ticks[prev] += r->stamp[s] - r->stamp[prev];
		prev = s;
	}
	f->stage_reqs++;
}

static void sm_reply(struct sm_core *sm, struct mem_req *r, cycle_t now)
{
	struct front *f = sm->f;
	struct warp *w = r->origin;
	uint32_t slot = r->inst;

	SIM_ASSERT(w != NULL && w->c->outstanding[slot] > 0 && w->inflight > 0);
	if (r->type == MEM_REQ_LOAD)
		account_stages(f, r);
	req_free(f->pool, r, eventq_now(f->q));
	f->progress_at = now;
	w->inflight--;
	if (--w->c->outstanding[slot] != 0)
		return;
	if (slot < WORKLOAD_MAX_REGS) {
		w->pending &= ~(1ull << slot);
		stats_dist_add(f->lat, (double)(now - w->c->issued_at[slot]));
	} else if (slot == SLOT_CHASE) {
		const struct workload_op *op = warp_op(w)->op;
		const uint32_t *next = f->chase_next[op->array];

		stats_dist_add(f->lat, (double)(now - w->c->issued_at[slot]));
		w->chase_wait = false;
		w->chase_node = next[w->chase_node];
		if (--w->chase_left == 0) {
			if (op->reg >= 0)
				w->pending &= ~(1ull << op->reg);
			warp_advance(sm, w);
		}
	}
	warp_mark(sm, w);
}

/* Whether w may issue now: ready, and a global op only while the LD/ST buffer is empty. */
static bool can_issue(const struct sm_core *sm, const struct warp *w, cycle_t now)
{
	return warp_ready(w, now) &&
	       !((w->global || w->chase_left > 0) && (sm->nlines != 0 || sm->ldst_free > now));
}

/* Loose round-robin: scheduler s owns warp slots s, s + S, s + 2S, ...; it scans them from the
 * slot after the one it issued last and issues up to issue_width. */
static void sm_issue_lrr(struct sm_core *sm, uint32_t s, cycle_t now)
{
	struct front *f = sm->f;
	uint32_t S = f->p.schedulers, n = (f->p.max_warps - s + S - 1) / S;
	uint32_t seg, pos, issued = 0, start = sm->rr[s];
	const uint64_t *bits = sm->sunblk + s * sm->swords;

	/* positions start .. n - 1, then 0 .. start - 1; issuing may unblock others (a barrier),
	 * so each step reads the bits again */
	for (seg = 0; seg < 2; seg++) {
		uint32_t lo = seg == 0 ? start : 0, hi = seg == 0 ? n : start;

		for (pos = next_set(bits, lo, hi); pos < hi; pos = next_set(bits, pos + 1, hi)) {
			struct warp *w = &sm->warps[s + pos * S];

			if (issued >= f->p.issue_width || f->failed)
				return;
			if (!can_issue(sm, w, now))
				continue;
			issue(sm, w, now);
			issued++;
			sm->rr[s] = (pos + 1) % n;
		}
	}
}

/* Greedy-then-oldest: scheduler s keeps issuing its last warp while it can, else its oldest
 * ready warp. */
static void sm_issue_gto(struct sm_core *sm, uint32_t s, cycle_t now)
{
	struct front *f = sm->f;
	uint32_t S = f->p.schedulers, issued = 0, n = (f->p.max_warps - s + S - 1) / S;
	const uint64_t *bits = sm->sunblk + s * sm->swords;

	while (issued < f->p.issue_width && !f->failed) {
		struct warp *best = NULL, *g = &sm->warps[sm->greedy[s]];
		uint32_t pos;

		if (bit_test(sm->unblk, g->idx) && can_issue(sm, g, now)) {
			best = g;
		} else {
			for (pos = next_set(bits, 0, n); pos < n; pos = next_set(bits, pos + 1, n)) {
				struct warp *w = &sm->warps[s + pos * S];

				if (can_issue(sm, w, now) && (best == NULL || w->age < best->age))
					best = w;
			}
		}
		if (best == NULL)
			break;
		issue(sm, best, now);
		sm->greedy[s] = best->idx;
		issued++;
	}
}

static void sm_tick(void *self, cycle_t now)
{
	struct sm_core *sm = self;
	struct front *f = sm->f;
	struct mem_req *r;
	cycle_t next = CYCLE_NEVER;
	uint64_t skip;
	uint32_t i, k, s;

	while ((r = link_peek(sm->resp)) != NULL) {
		link_pop(sm->resp);
		sm_reply(sm, r, now);
	}
	if (sm->nlines != 0)
		ldst_drain(sm, now);
	/* from ldst_first as it is now: an issue below moves it */
	for (k = 0, s = sm->ldst_first; k < f->p.schedulers; k++) {
		if (sm->nlines != 0 && sm->n_local == 0)
			break; /* the LD/ST buffer is busy and every warp waits for it: nothing issues */
		if (f->p.scheduler == SM_SCHED_GTO)
			sm_issue_gto(sm, s, now);
		else
			sm_issue_lrr(sm, s, now);
		if (++s == f->p.schedulers)
			s = 0;
	}
	sm_retire(sm, now);
	if (f->failed) {
		clock_sleep(sm->unit);
		return;
	}
	if (sm->nlines != 0 && link_can_push(sm->in))
		next = now + 1; /* the LD/ST unit hands the rest over next cycle */
	/* Only unblocked and finished warps can make something happen at a known cycle; the rest
	 * wait for a reply or a barrier, which wake us. While the LD/ST buffer is busy and no
	 * warp is busy, an unblocked warp at a memory op is passed over below anyway: skip
	 * them by their bits (umem), in the same order. */
	skip = sm->nlines != 0 && sm->busy_hi <= now ? ~UINT64_C(0) : 0;
	for (i = 0; i < f->p.max_warps && next > now + 1; i++) {
		const struct warp *w;
		uint64_t word = ((sm->unblk[i / 64] & ~(sm->umem[i / 64] & skip)) | sm->fin[i / 64]) >>
				(i % 64);

		if (word == 0) {
			i |= 63;
			continue;
		}
		i += (uint32_t)__builtin_ctzll(word); /* the next such warp */
		if (i >= f->p.max_warps)
			break;
		w = &sm->warps[i];
		if (w->finished) {
			if (w->inflight == 0)
				next = w->busy_until < next ? w->busy_until : next;
			continue;
		}
		if (w->busy_until > now) {
			next = w->busy_until < next ? w->busy_until : next;
			continue;
		}
		if (sm->nlines != 0 && (w->chase_left > 0 || w->global))
			continue; /* the request link wakes us */
		if (sm->ldst_free > now && (w->chase_left > 0 || w->global)) {
			next = sm->ldst_free < next ? sm->ldst_free : next;
			continue;
		}
		next = now + 1;
	}
#ifdef SIM_DEBUG
	for (i = 0; i < f->p.max_warps; i++) {
		const struct warp *w = &sm->warps[i];

		SIM_ASSERT(bit_test(sm->unblk, i) ==
			   (w->live && !w->finished && !w->at_barrier && !w->chase_wait &&
			    (w->chase_left > 0 || (w->pending & w->need) == 0)));
		SIM_ASSERT(bit_test(sm->fin, i) == (w->live && w->finished));
		SIM_ASSERT(bit_test(sm->umem, i) ==
			   (bit_test(sm->unblk, i) && (w->chase_left > 0 || w->global)));
		SIM_ASSERT(!w->live || w->busy_until <= sm->busy_hi);
		SIM_ASSERT(bit_test(sm->sunblk, w->sbit) == bit_test(sm->unblk, i));
	}
#endif
	if (next == now + 1)
		return;
	/* A unit has one timed wake: an earlier one replaces the reply link's, so ask for both. */
	if (link_head_ready(sm->resp) < next)
		next = link_head_ready(sm->resp);
	if (next == CYCLE_NEVER)
		clock_sleep(sm->unit);
	else
		clock_sleep_until(sm->unit, next <= now ? now + 1 : next);
}

/* ---------------------------------------------------------------------------------------------
 * Creation
 */

static void register_stats(struct front *f, struct stats *st)
{
	static const struct stats_counter_def defs[] = {
#define C(fl, d) STATS_COUNTER_DEF(struct front_stats, fl, d)
		C(warp_insts, "warp instructions issued (a chase: one per load)"),
		C(mem_insts, "warp global memory instructions (loads, stores, chase loads)"),
#undef C
	};
	static const struct stats_counter_def smdefs[] = {
#define C(fl, d) STATS_COUNTER_DEF(struct front_stats, fl, d)
		C(issue_stalls, "cycles a memory instruction waited for the L1 request link, all SMs"),
		C(shared_insts, "warp shared-memory instructions"),
		C(shared_bank_conflicts, "extra shared-memory cycles from bank conflicts"),
		C(blocks, "thread blocks launched"),
		C(dispatch_wait, "core cycles thread blocks waited for a slot of the GPU-wide "
				 "dispatcher (sm.block_dispatch_per_cycle), summed"),
#undef C
	};
	uint32_t i;

	stats_counters(st, "sim", &f->st, defs, sizeof defs / sizeof defs[0]);
	stats_counters(st, "sm", &f->st, smdefs, sizeof smdefs / sizeof smdefs[0]);
	for (i = 0; i < f->nsm; i++) {
		char name[48];

		snprintf(name, sizeof name, "sm%u.issue_stalls", i);
		stats_counter(st, name, "cycles a memory instruction waited for the L1 request link",
			      &f->sms[i].st.issue_stalls);
	}
	coalescer_register_stats(f->coal, st, "coal");
	stats_counter(st, "load_stage.requests", "load line requests the stage means are over",
		      &f->stage_reqs);
	for (i = 0; i + 1 < MEM_STAGE_COUNT; i++) {
		char name[64], desc[160];

		snprintf(name, sizeof name, "load_stage.%s", mem_stage_name((enum mem_stage)i));
		snprintf(desc, sizeof desc, "mean core cycles a load line request spends from "
			 "entering stage %s to the next stage it enters", mem_stage_name((enum mem_stage)i));
		stats_real(st, name, desc, &f->stage_mean[i], 0);
	}
	f->lat = stats_dist(st, "load_latency_cycles",
			    "warp load latency, issue to last line reply, core cycles", 0, 20000,
			    20000);
}

/* Makes kernel k the one running (nothing of it launched yet). Returns 0, or -1 with err
 * filled (a trace kernel that cannot be opened or whose first block is bad). */
static int front_kernel(struct front *f, size_t k, struct sim_err *err)
{
	uint32_t block[3], regs;

	f->kidx = k;
	f->progress_at = clock_cycle(f->clk);
	f->next_block = f->blocks_done = 0;
	if (f->tl != NULL) {
		const struct trace_kernel *tk = &f->tl->kernels[k];

		trace_close(f->tr);
		f->tr = NULL;
		if (trace_open(f->tl, k, &f->tr, err) != 0)
			return -1;
		f->w = NULL;
		f->kpath = tk->path;
		f->kshared = tk->shmem;
		memcpy(block, tk->block, sizeof block);
		regs = tk->nregs;
		f->nblocks = (uint64_t)tk->grid[0] * tk->grid[1] * tk->grid[2];
		f->chase_next = NULL;
	} else {
		const struct workload *w = f->ws[k];

		f->w = w;
		f->kpath = w->path;
		f->kshared = w->shared_bytes;
		memcpy(block, w->block, sizeof block);
		regs = w->registers;
		f->nblocks = (uint64_t)w->grid[0] * w->grid[1] * w->grid[2];
		f->chase_next = f->chases[k];
	}
	f->threads = (uint64_t)block[0] * block[1] * block[2];
	f->wpb = (uint32_t)((f->threads + SM_WARP_LANES - 1) / SM_WARP_LANES);
	f->block_regs = sm_block_registers(f->wpb, regs);
	if (f->tl != NULL) {
		read_ahead(f);
		if (f->failed) {
			*err = f->err;
			return -1;
		}
	}
	return 0;
}

/* The front without its kernels: nw kernels of at most wpb_max warps per block. */
static struct front *front_new(const struct front_env *env, const struct sm_params *p,
			       size_t nw, uint32_t wpb_max, uint64_t seed)
{
	struct front *f = xcalloc(1, sizeof *f);
	struct coal_params cp;
	uint32_t i, j;

	f->p = *p;
	f->nw = nw;
	f->clk = env->clk;
	f->q = env->q;
	f->pool = env->pool;
	f->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(f->rng, (unsigned long)(seed ^ (seed >> 32)));
	f->ectx.rng = f->rng;
	coal_params_default(&cp);
	f->coal = coalescer_create(&cp);
	f->chases = xcalloc(nw, sizeof *f->chases);
	f->nsm = env->sms;
	f->sms = xcalloc(f->nsm, sizeof *f->sms);
	for (i = 0; i < f->nsm; i++) {
		struct sm_core *sm = &f->sms[i];
		char name[32];

		sm->f = f;
		sm->id = i;
		sm->in = env->in[i];
		sm->resp = env->resp[i];
		sm->warps = xcalloc(p->max_warps, sizeof *sm->warps);
		sm->cold = xcalloc(p->max_warps, sizeof *sm->cold);
		sm->unblk = xcalloc((p->max_warps + 63) / 64, sizeof *sm->unblk);
		sm->umem = xcalloc((p->max_warps + 63) / 64, sizeof *sm->umem);
		sm->fin = xcalloc((p->max_warps + 63) / 64, sizeof *sm->fin);
		sm->swords = ((p->max_warps + p->schedulers - 1) / p->schedulers + 63) / 64;
		sm->sunblk = xcalloc((size_t)p->schedulers * sm->swords, sizeof *sm->sunblk);
		for (j = 0; j < p->max_warps; j++)
			sm->warps[j].sbit = j % p->schedulers * sm->swords * 64 + j / p->schedulers;
		for (j = 0; j < p->schedulers && j < p->max_warps; j++)
			sm->greedy[j] = j;
		sm->blocks = xcalloc(p->max_blocks, sizeof *sm->blocks);
		for (j = 0; j < p->max_blocks; j++)
			sm->blocks[j].warps = xcalloc(wpb_max, sizeof *sm->blocks[j].warps);
		snprintf(name, sizeof name, "sm%u", i);
		sm->unit = clock_attach(f->clk, name, sm_tick, sm);
		link_set_consumer(sm->resp, sm->unit);
		link_set_producer(sm->in, sm->unit);
	}
	return f;
}

struct front *front_create(const struct front_env *env, const struct sm_params *p,
			   const struct workload *const *ws, size_t nw, uint64_t seed,
			   struct sim_err *err)
{
	struct front *f;
	uint32_t wpb_max = 0;
	size_t k;

	SIM_ASSERT(nw >= 1);
	for (k = 0; k < nw; k++) {
		const struct workload *w = ws[k];
		uint64_t threads = (uint64_t)w->block[0] * w->block[1] * w->block[2];
		uint32_t wpb = (uint32_t)((threads + SM_WARP_LANES - 1) / SM_WARP_LANES);

		if (sm_blocks_per_sm(p, wpb, w->shared_bytes, w->registers) == 0) {
			sm_no_fit_error(p, w, err);
			return NULL;
		}
		if (wpb > wpb_max)
			wpb_max = wpb;
	}
	f = front_new(env, p, nw, wpb_max, seed);
	f->ws = ws;
	for (k = 0; k < nw; k++) {
		f->chases[k] = wexec_chase_build(ws[k], f->rng, ws, f->chases, k, err);
		if (f->chases[k] == NULL) {
			front_destroy(f);
			return NULL;
		}
	}
	register_stats(f, env->st);
	return f;
}

struct front *front_create_trace(const struct front_env *env, const struct sm_params *p,
				 struct trace_list *tl, uint64_t seed, struct sim_err *err)
{
	struct front *f;
	uint32_t wpb_max = 0;
	size_t k;

	SIM_ASSERT(tl->nkernels >= 1);
	for (k = 0; k < tl->nkernels; k++) {
		const struct trace_kernel *tk = &tl->kernels[k];
		uint64_t threads = (uint64_t)tk->block[0] * tk->block[1] * tk->block[2];
		uint32_t wpb = (uint32_t)((threads + SM_WARP_LANES - 1) / SM_WARP_LANES);

		if (sm_blocks_per_sm(p, wpb, tk->shmem, tk->nregs) == 0) {
			sm_no_fit_trace_error(p, tk, err);
			return NULL;
		}
		if (wpb > wpb_max)
			wpb_max = wpb;
	}
	f = front_new(env, p, tl->nkernels, wpb_max, seed);
	f->tl = tl;
	register_stats(f, env->st);
	stats_counter(env->st, "trace.unknown_insts", "trace instructions whose opcode is in "
		      "no latency table (run as ALU work)", &tl->unknown_insts);
	stats_counter(env->st, "trace.alias_warps", "trace warps whose loads write more "
		      "registers than the scoreboard has slots", &tl->alias_warps);
	return f;
}

void front_destroy(struct front *f)
{
	uint32_t i, j;

	if (f == NULL)
		return;
	for (i = 0; i < f->nsm; i++) {
		for (j = 0; j < f->p.max_blocks; j++) {
			free(f->sms[i].blocks[j].warps);
			trace_block_free(&f->sms[i].blocks[j].tb);
		}
		free(f->sms[i].blocks);
		free(f->sms[i].warps);
		free(f->sms[i].cold);
		free(f->sms[i].unblk);
		free(f->sms[i].umem);
		free(f->sms[i].fin);
		free(f->sms[i].sunblk);
	}
	if (f->ws != NULL)
		wexec_chase_free_all(f->ws, f->chases, f->nw);
	trace_close(f->tr);
	trace_block_free(&f->ahead);
	free(f->chases);
	free(f->sms);
	coalescer_destroy(f->coal);
	gsl_rng_free(f->rng);
	free(f);
}

void front_dump(const struct front *f, FILE *out)
{
	uint32_t i, j;

	fprintf(out, "front: %llu of %llu blocks done, %llu launched\n",
		(unsigned long long)f->blocks_done, (unsigned long long)f->nblocks,
		(unsigned long long)f->next_block);
	for (i = 0; i < f->nsm; i++) {
		const struct sm_core *sm = &f->sms[i];

		fprintf(out, "  sm%u: %u blocks, %u warps, ldst %u/%u lines, awake %d\n", i,
			sm->blocks_used, sm->warps_used, sm->next_line, sm->nlines,
			clock_is_awake(sm->unit));
		link_dump(sm->in, out);
		link_dump(sm->resp, out);
		for (j = 0; j < f->p.max_warps; j++) {
			const struct warp *w = &sm->warps[j];

			if (!w->live)
				continue;
			fprintf(out, "    warp %u: block %u fin %d bar %d chase %d/%lld pending %#llx "
				"inflight %u busy_until %llu op %s\n", j, w->block, w->finished,
				w->at_barrier, w->chase_wait, (long long)w->chase_left,
				(unsigned long long)w->pending, w->inflight,
				(unsigned long long)w->busy_until,
				w->finished ? "-" : workload_op_name(warp_op(w)->kind));
			if (!w->finished && warp_op(w)->ti != NULL)
				fprintf(out, "      at %s:%d\n", f->kpath, warp_op(w)->line);
		}
	}
}

/* Launches the current kernel's first blocks, one per SM per round while they fit, and wakes
 * the SMs that got one. */
static void launch_first_blocks(struct front *f)
{
	bool more = true;
	uint32_t i;
	cycle_t now = clock_cycle(f->clk);

	while (more) {
		more = false;
		for (i = 0; i < f->nsm; i++) {
			struct sm_core *sm = &f->sms[i];

			if (more_blocks(f) && sm_fits(sm) && !f->failed) {
				sm_launch(sm, now);
				more = true;
			}
		}
	}
	for (i = 0; i < f->nsm; i++)
		if (f->sms[i].blocks_used > 0)
			clock_wake(f->sms[i].unit);
}

int front_kernel_begin(struct front *f, size_t k, struct sim_err *err)
{
	SIM_ASSERT(k < f->nw);
	if (front_kernel(f, k, err) != 0)
		return -1;
	f->first_issue = CYCLE_NEVER;
	launch_first_blocks(f);
	return 0;
}

bool front_kernel_done(const struct front *f)
{
	return f->blocks_done == f->nblocks;
}

bool front_failed(const struct front *f, struct sim_err *err)
{
	if (f->failed && err != NULL)
		*err = f->err;
	return f->failed;
}

cycle_t front_last_progress(const struct front *f)
{
	return f->progress_at;
}

cycle_t front_end_cycle(const struct front *f)
{
	return f->end;
}

cycle_t front_first_issue_cycle(const struct front *f)
{
	return f->first_issue;
}

void front_blocks(const struct front *f, uint64_t *done, uint64_t *all)
{
	*done = f->blocks_done;
	*all = f->nblocks;
}

uint64_t front_warp_insts(const struct front *f)
{
	return f->st.warp_insts;
}

const char *front_kernel_path(const struct front *f)
{
	return f->kpath;
}

size_t front_kernels(const struct front *f)
{
	return f->nw;
}

void front_finish(struct front *f)
{
	uint32_t i;

	for (i = 0; i < MEM_STAGE_COUNT; i++)
		f->stage_mean[i] = f->stage_reqs ? (double)f->stage_ticks[i] /
				   (double)clock_period(f->clk) / (double)f->stage_reqs : 0.0;
}

void front_set_trace(struct front *f, front_trace_fn *fn, void *ctx)
{
	f->trace_fn = fn;
	f->trace_ctx = ctx;
}
