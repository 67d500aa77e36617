/*
 * analyze.c - functional execution of a workload or of a trace into coalescing and reuse
 * statistics (contract and the order of the stream in analyze.h).
 *
 * One executor serves both sources: a resident block is a slot whose warps either walk the
 * workload's body (sim/front/warpexec.h) or step through the instructions of one trace block
 * (sim/front/trace.h) read into the slot when it launches. Slots, steps, barriers and the
 * L1/L2 predictors are the same code, so a kernel written as a workload and traced from CUDA
 * gives the same stream whenever its warps make the same memory instructions in the same
 * order relative to one another (the extra ALU instructions of a trace shift every warp alike).
 *
 * Memory: the warps of every resident block are allocated once (slots x warps per block); a
 * trace slot's block arrays grow to the largest block and are reused, so a trace costs the
 * resident blocks however long it is. The per-instruction path allocates nothing (the reuse
 * engines grow amortised; a trace's per-PC records grow with the code, not the stream).
 */
#include "config.h"

#include <gsl/gsl_rng.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "coalescer.h"
#include "reuse.h"
#include "stats.h"
#include "trace.h"
#include "warpexec.h"
#include "workload.h"

/* Per memory instruction: an op of the workload's body, or one PC of one kernel of a trace. */
struct op_rec {
	const struct workload_op *op;  /* workload; NULL for a trace */
	uint32_t id;
	uint32_t kernel, pc;           /* trace: the kernel's index in the list, the PC */
	uint8_t kind, bytes;           /* trace: WORKLOAD_OP_LOAD / STORE, bytes per lane */
	char opcode[TRACE_OPCODE_MAX]; /* trace */
	struct coal_stats c;
	double efficiency, used_sector, used_line;
};

/* A trace kernel as the report describes it. */
struct akernel {
	uint32_t index;                /* in the list */
	uint32_t nslots;
	uint64_t blocks, warp_insts;
};

/* Accesses a level buffers for reuse_access_many (which prefetches across them). */
#define LEVEL_BATCH 4096

/* One reuse engine with its statistics. */
struct level {
	const char *name;              /* "sector", "line" */
	struct reuse *r;
	uint64_t batch[LEVEL_BATCH];
	size_t nbatch;
	uint64_t accesses, cold, distinct;
	uint64_t hist[REUSE_HIST_BUCKETS];
	size_t nhist;
	double *hit_rates;             /* per capacity */
};

struct awarp {
	struct wexec x;                /* workload */
	uint32_t tpc, tend;            /* trace: the slot block's insts[tpc .. tend) are to run */
	bool finished, at_barrier;
	int64_t chase_left;
	uint64_t chase_node, gid;
};

struct aslot {
	bool live;
	uint32_t sm;
	uint32_t running, arrived;
	struct awarp *warps;
	struct trace_block tb;         /* trace: the block (arrays reused from block to block) */
};

struct analysis {
	const struct workload *w;      /* the workload, or NULL for a trace */
	struct trace_list *tl;         /* the trace, or NULL */
	struct trace_reader *tr;       /* trace: the kernel being executed */
	uint32_t kidx;                 /* trace: its index in the list */
	struct akernel *kernels;       /* trace: per kernel executed, in list order */
	size_t nkernels;
	uint32_t *rec_hash;            /* trace: (kernel, PC) -> index into ops + 1; 0 empty */
	size_t hash_cap;
	uint64_t memcpys, memcpy_bytes; /* trace: MemcpyHtoD commands warming the L2 prediction */
	struct analyze_params p;
	uint64_t *caps;
	struct coal_params cp;
	struct coalescer *coal;
	struct expr_ctx ectx;
	gsl_rng *rng;
	uint32_t **chase_next;
	struct op_rec *ops;
	size_t nops;
	struct level sector, line;
	/* predictions */
	struct reuse **l1;             /* per SM */
	struct reuse *l2;
	uint64_t l1_cap, l2_cap;       /* sectors */
	uint64_t l1_acc, l1_hits, l2_acc, l2_hits;
	double l1_rate, l2_rate, l1_bytes, l2_bytes;
	/* execution */
	uint32_t wpb, nslots;
	uint32_t nslots_alloc;         /* a trace's kernels use the first nslots of them */
	uint64_t threads, nblocks, next_block;
	struct aslot *slots;
	uint64_t warp_insts, blocks;
	struct coal_line lines[COAL_MAX_LINES];
};

const char *analyze_size_label(uint64_t bytes, char *buf, size_t n)
{
	static const char units[] = "GMK";
	int i;

	for (i = 0; i < 3; i++) {
		uint64_t u = 1ull << (10 * (3 - i));

		if (bytes >= u && bytes % u == 0) {
			snprintf(buf, n, "%" PRIu64 "%c", bytes / u, units[i]);
			return buf;
		}
	}
	snprintf(buf, n, "%" PRIu64, bytes);
	return buf;
}

static void collect_ops(struct analysis *a, const struct workload_op *ops, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct workload_op *op = &ops[i];

		if (op->kind == WORKLOAD_OP_LOOP) {
			collect_ops(a, op->body, op->nbody);
			continue;
		}
		if (op->kind != WORKLOAD_OP_LOAD && op->kind != WORKLOAD_OP_STORE &&
		    op->kind != WORKLOAD_OP_CHASE)
			continue;
		a->ops = xreallocarray(a->ops, a->nops + 1, sizeof *a->ops);
		memset(&a->ops[a->nops], 0, sizeof a->ops[a->nops]);
		a->ops[a->nops].op = op;
		a->ops[a->nops].id = (uint32_t)a->nops;
		a->nops++;
	}
}

static struct op_rec *op_rec(struct analysis *a, const struct workload_op *op)
{
	size_t i;

	for (i = 0; i < a->nops; i++)
		if (a->ops[i].op == op)
			return &a->ops[i];
	SIM_ASSERT(0);
	return NULL;
}

static size_t rec_slot(const struct analysis *a, uint32_t kernel, uint32_t pc)
{
	uint64_t h = ((uint64_t)kernel << 32 | pc) * 0x9e3779b97f4a7c15ull; /* Fibonacci hash */

	return (size_t)(h >> 32) & (a->hash_cap - 1);
}

/* Rebuilds the (kernel, PC) table at twice the size (load stays at most 1/2). */
static void rec_rehash(struct analysis *a)
{
	size_t i, j;

	free(a->rec_hash);
	a->hash_cap = a->hash_cap ? 2 * a->hash_cap : 64;
	a->rec_hash = xcalloc(a->hash_cap, sizeof *a->rec_hash);
	for (i = 0; i < a->nops; i++) {
		for (j = rec_slot(a, a->ops[i].kernel, a->ops[i].pc); a->rec_hash[j] != 0;
		     j = (j + 1) & (a->hash_cap - 1))
			;
		a->rec_hash[j] = (uint32_t)i + 1;
	}
}

/* The record of trace instruction ti of the running kernel, created at its first execution.
 * The pointer is valid until the next call (the array grows). */
static struct op_rec *trace_rec(struct analysis *a, const struct trace_inst *ti)
{
	struct op_rec *r;
	size_t j;

	if (2 * (a->nops + 1) > a->hash_cap)
		rec_rehash(a);
	for (j = rec_slot(a, a->kidx, ti->pc); a->rec_hash[j] != 0;
	     j = (j + 1) & (a->hash_cap - 1)) {
		r = &a->ops[a->rec_hash[j] - 1];
		if (r->kernel == a->kidx && r->pc == ti->pc)
			return r;
	}
	a->ops = xreallocarray(a->ops, a->nops + 1, sizeof *a->ops);
	r = &a->ops[a->nops];
	memset(r, 0, sizeof *r);
	r->kernel = a->kidx;
	r->pc = ti->pc;
	r->kind = ti->kind;
	r->bytes = ti->bytes;
	memcpy(r->opcode, ti->opcode, sizeof r->opcode);
	a->rec_hash[j] = (uint32_t)++a->nops;
	return r;
}

static int rec_cmp(const void *x, const void *y)
{
	const struct op_rec *p = x, *q = y;

	if (p->kernel != q->kernel)
		return p->kernel < q->kernel ? -1 : 1;
	return p->pc < q->pc ? -1 : p->pc > q->pc;
}

/* ---------------------------------------------------------------------------------------------
 * The stream
 */

static void level_flush(struct level *l)
{
	reuse_access_many(l->r, l->batch, l->nbatch);
	l->nbatch = 0;
}

static void level_access(struct level *l, uint64_t block)
{
	l->batch[l->nbatch++] = block;
	if (l->nbatch == LEVEL_BATCH)
		level_flush(l);
}

static void feed(struct analysis *a, uint32_t n, bool is_store, uint32_t sm)
{
	uint32_t sector_shift = (uint32_t)__builtin_ctz(a->cp.sector_bytes);
	uint32_t line_shift = (uint32_t)__builtin_ctz(a->cp.line_bytes);
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct coal_line *l = &a->lines[i];
		uint32_t mask = l->sector_mask;

		level_access(&a->line, l->addr >> line_shift);
		while (mask != 0) {
			uint32_t s = (uint32_t)__builtin_ctz(mask);
			uint64_t sec = (l->addr >> sector_shift) + s;
			bool to_l2 = true;

			mask &= mask - 1;
			level_access(&a->sector, sec);
			if (a->l1 != NULL && !is_store) {
				uint64_t d = reuse_access(a->l1[sm], sec);

				a->l1_acc++;
				if (d != REUSE_COLD && d < a->l1_cap) {
					a->l1_hits++;
					to_l2 = false;
				}
			}
			if (a->l2 != NULL && to_l2) {
				uint64_t d = reuse_access(a->l2, sec);

				a->l2_acc++;
				if (d != REUSE_COLD && d < a->l2_cap)
					a->l2_hits++;
			}
		}
	}
}

/* One warp memory instruction of record rec with lane addresses inst. */
static void mem_inst(struct analysis *a, struct op_rec *rec, struct coal_inst *inst,
		     uint32_t sm)
{
	struct coal_stats before = *coalescer_stats(a->coal);
	const struct coal_stats *after;
	uint32_t n = coalesce(a->coal, inst, a->lines, COAL_MAX_LINES);

	after = coalescer_stats(a->coal);
	rec->c.mem_insts += after->mem_insts - before.mem_insts;
	rec->c.store_insts += after->store_insts - before.store_insts;
	rec->c.requests += after->requests - before.requests;
	rec->c.sectors += after->sectors - before.sectors;
	rec->c.ideal_transactions += after->ideal_transactions - before.ideal_transactions;
	rec->c.ideal_requests += after->ideal_requests - before.ideal_requests;
	rec->c.bytes_requested += after->bytes_requested - before.bytes_requested;
	rec->c.bytes_moved += after->bytes_moved - before.bytes_moved;
	feed(a, n, inst->is_store, sm);
}

static int fail(struct analysis *a, const struct workload_op *op, struct sim_err *err)
{
	return sim_err_set(err, a->w->path, op != NULL ? op->line : 0, "%s: %s",
			   op != NULL ? workload_op_name(op->kind) : "analyze", a->ectx.msg);
}

static void release_barrier(struct analysis *a, struct aslot *s);

static bool has_more(const struct analysis *a, const struct awarp *w)
{
	return a->tl != NULL ? w->tpc < w->tend : wexec_op(&w->x) != NULL;
}

/* After the walk moved: the end of the body (of the warp's trace instructions) finishes the
 * warp. */
static void settled(struct analysis *a, struct aslot *s, struct awarp *w)
{
	if (a->ectx.error || has_more(a, w))
		return;
	w->finished = true;
	s->running--;
	if (s->running > 0 && s->arrived == s->running)
		release_barrier(a, s);
}

static void advance(struct analysis *a, struct aslot *s, struct awarp *w)
{
	if (a->tl != NULL)
		w->tpc++;
	else
		wexec_next(&w->x, &a->ectx);
	settled(a, s, w);
}

static void release_barrier(struct analysis *a, struct aslot *s)
{
	uint32_t k;

	s->arrived = 0;
	for (k = 0; k < a->wpb; k++) {
		struct awarp *w = &s->warps[k];

		if (!w->finished && w->at_barrier) {
			w->at_barrier = false;
			advance(a, s, w);
		}
	}
}

/* Warp w reaches a barrier of its block. */
static void arrive(struct analysis *a, struct aslot *s, struct awarp *w)
{
	w->at_barrier = true;
	if (++s->arrived == s->running)
		release_barrier(a, s);
}

/* Executes one instruction of trace warp w: a global (or local) load or store goes through the
 * coalescer with its decoded lane addresses; shared accesses, constant loads and ALU work move
 * on, as the workload's shared and ALU ops do. */
static void trace_step(struct analysis *a, struct aslot *s, struct awarp *w)
{
	const struct trace_inst *ti = &s->tb.insts[w->tpc];
	struct coal_inst inst;

	a->warp_insts++;
	switch (ti->kind) {
	case WORKLOAD_OP_LOAD:
	case WORKLOAD_OP_STORE:
		trace_inst_addrs(&s->tb, ti, inst.addr);
		inst.active_mask = ti->active;
		inst.size = ti->bytes;
		inst.is_store = ti->kind == WORKLOAD_OP_STORE;
		inst.dense = false;
		mem_inst(a, trace_rec(a, ti), &inst, s->sm);
		advance(a, s, w);
		break;
	case WORKLOAD_OP_BARRIER:
		arrive(a, s, w);
		break;
	default:
		advance(a, s, w);
		break;
	}
}

/* Executes one op of warp w. Returns 0, or -1 with err filled. */
static int step(struct analysis *a, struct aslot *s, struct awarp *w, struct sim_err *err)
{
	const struct workload_op *op = wexec_op(&w->x);
	const struct workload_array *arr;
	struct coal_inst inst;
	uint32_t lane;

	a->warp_insts++;
	inst.dense = false; /* wexec_addrs writes every lane */
	switch (op->kind) {
	case WORKLOAD_OP_ALU:
	case WORKLOAD_OP_SHARED_LOAD:
	case WORKLOAD_OP_SHARED_STORE:
		advance(a, s, w);
		break;
	case WORKLOAD_OP_LOAD:
	case WORKLOAD_OP_STORE:
		arr = &a->w->arrays[op->array];
		if (!wexec_addrs(&w->x, op, arr, &a->ectx, inst.addr))
			return fail(a, op, err);
		inst.active_mask = w->x.active;
		inst.size = op->bytes;
		inst.is_store = op->kind == WORKLOAD_OP_STORE;
		mem_inst(a, op_rec(a, op), &inst, s->sm);
		advance(a, s, w);
		break;
	case WORKLOAD_OP_BARRIER:
		arrive(a, s, w);
		break;
	case WORKLOAD_OP_CHASE:
		arr = &a->w->arrays[op->array];
		if (w->chase_left == 0) {
			int64_t n = wexec_count(&w->x, op, &a->ectx);

			if (a->ectx.error)
				return fail(a, op, err);
			if (n <= 0) {
				a->warp_insts--; /* the SM model issues nothing for an empty chase */
				advance(a, s, w);
				break;
			}
			w->chase_left = n;
			w->chase_node = wexec_chase_first(&w->x, op, arr,
							  a->chase_next[op->array], w->gid,
							  &a->ectx);
			if (a->ectx.error)
				return fail(a, op, err);
		}
		inst.active_mask = w->x.active;
		inst.size = op->bytes;
		inst.is_store = false;
		for (lane = 0; lane < WEXEC_LANES; lane++)
			inst.addr[lane] = arr->base + w->chase_node * arr->elem_bytes;
		mem_inst(a, op_rec(a, op), &inst, s->sm);
		w->chase_node = a->chase_next[op->array][w->chase_node];
		if (--w->chase_left == 0)
			advance(a, s, w);
		break;
	default:
		SIM_ASSERT(0);
	}
	if (a->ectx.error)
		return fail(a, w->x.err_op != NULL ? w->x.err_op : op, err);
	return 0;
}

/* Launches the next block of the kernel into slot s: the next block number of a workload, the
 * next block of a trace file (read into the slot). Returns 1, 0 when the kernel has no block
 * left, or -1 with err filled (a trace error, or more blocks in the file than the grid). */
static int launch(struct analysis *a, struct aslot *s, struct sim_err *err)
{
	uint64_t bid;
	uint32_t k;

	if (a->tl != NULL) {
		int rc = trace_next_block(a->tr, &s->tb, err);

		if (rc <= 0)
			return rc;
		if (a->next_block >= a->nblocks)
			return sim_err_set(err, trace_reader_kernel(a->tr)->path, 0, "more thread "
					   "blocks than the grid's %llu",
					   (unsigned long long)a->nblocks);
	} else if (a->next_block >= a->nblocks) {
		return 0;
	}
	bid = a->next_block++;
	s->live = true;
	s->running = a->wpb;
	s->arrived = 0;
	for (k = 0; k < a->wpb; k++) {
		struct awarp *w = &s->warps[k];

		memset(w, 0, sizeof *w);
		w->gid = bid * a->wpb + k;
		if (a->tl != NULL) {
			w->tpc = s->tb.warps[k].first;
			w->tend = w->tpc + s->tb.warps[k].n;
		} else {
			wexec_start(&w->x, a->w, bid, k, &a->ectx);
		}
	}
	for (k = 0; k < a->wpb && !a->ectx.error; k++)
		settled(a, s, &s->warps[k]);
	a->blocks++;
	return 1;
}

/* Runs the kernel set up in a (wpb, nblocks, nslots, next_block 0) to its last block. */
static int execute(struct analysis *a, struct sim_err *err)
{
	uint32_t j, k, live = 0;
	int rc;

	for (j = 0; j < a->nslots; j++) {
		rc = launch(a, &a->slots[j], err);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		live++;
	}
	while (live > 0 && !a->ectx.error) {
		for (j = 0; j < a->nslots; j++) {
			struct aslot *s = &a->slots[j];

			if (!s->live)
				continue;
			for (k = 0; k < a->wpb; k++) {
				struct awarp *w = &s->warps[k];

				if (w->finished || w->at_barrier)
					continue;
				if (a->tl != NULL)
					trace_step(a, s, w);
				else if (step(a, s, w, err) != 0)
					return -1;
			}
			if (s->running == 0) {
				s->live = false;
				live--;
				rc = launch(a, s, err);
				if (rc < 0)
					return -1;
				live += (uint32_t)rc;
			}
			if (a->ectx.error)
				break;
		}
	}
	if (a->ectx.error) {
		const struct workload_op *op = NULL;

		for (j = 0; j < a->nslots && op == NULL; j++)
			for (k = 0; k < a->wpb && a->slots[j].warps != NULL; k++)
				if (a->slots[j].warps[k].x.err_op != NULL) {
					op = a->slots[j].warps[k].x.err_op;
					break;
				}
		return fail(a, op, err);
	}
	return 0;
}

/* MemcpyHtoD: the copied lines enter the predicted L2 as `gmsim run` installs them in the L2
 * (sim_l2_warm), every sector, not counted as accesses. A fully associative LRU cache of C
 * sectors keeps the last C distinct sectors of a sequential copy, so only those are fed: the
 * state the prediction reads is the same, and a copy larger than the L2 costs no more. */
static void warm_l2(struct analysis *a, addr_t addr, uint64_t bytes)
{
	uint64_t lb = a->cp.line_bytes, sb = a->cp.sector_bytes;
	addr_t first, end, sec;

	a->memcpys++;
	a->memcpy_bytes += bytes;
	if (a->l2 == NULL || bytes == 0 || a->l2_cap == 0)
		return;
	first = addr / lb * lb / sb;
	end = addr + bytes < addr ? ~(addr_t)0 / sb : ((addr + bytes - 1) / lb + 1) * lb / sb;
	if (end - first > a->l2_cap)
		first = end - a->l2_cap;
	for (sec = first; sec < end; sec++)
		reuse_access(a->l2, sec);
}

/* The commands of the trace in order: copies warm the L2 prediction; each kernel runs on the
 * slots its occupancy allows, its blocks read one at a time as slots free up. */
static int execute_trace(struct analysis *a, struct sim_err *err)
{
	struct trace_list *tl = a->tl;
	size_t c;
	uint32_t i;

	for (c = 0; c < tl->ncmds; c++) {
		const struct trace_cmd *cmd = &tl->cmds[c];
		const struct trace_kernel *tk;
		struct akernel *ak;
		uint64_t threads, insts0 = a->warp_insts, blocks0 = a->blocks;
		uint32_t bps;
		int rc;

		if (cmd->kind == TRACE_CMD_MEMCPY) {
			warm_l2(a, cmd->addr, cmd->bytes);
			continue;
		}
		tk = &tl->kernels[cmd->kernel];
		threads = (uint64_t)tk->block[0] * tk->block[1] * tk->block[2];
		a->kidx = (uint32_t)cmd->kernel;
		a->wpb = (uint32_t)((threads + WEXEC_LANES - 1) / WEXEC_LANES);
		a->nblocks = (uint64_t)tk->grid[0] * tk->grid[1] * tk->grid[2];
		a->next_block = 0;
		bps = sm_blocks_per_sm(&a->p.sm, a->wpb, tk->shmem, tk->nregs);
		a->nslots = (uint64_t)a->p.sms * bps < a->nblocks ? a->p.sms * bps
			: (uint32_t)a->nblocks;
		for (i = 0; i < a->nslots; i++) {
			a->slots[i].live = false;
			a->slots[i].sm = i % a->p.sms;
		}
		if (trace_open(tl, cmd->kernel, &a->tr, err) != 0)
			return -1;
		rc = execute(a, err);
		trace_close(a->tr);
		a->tr = NULL;
		if (rc != 0)
			return -1;
		a->kernels = xreallocarray(a->kernels, a->nkernels + 1, sizeof *a->kernels);
		ak = &a->kernels[a->nkernels++];
		ak->index = a->kidx;
		ak->nslots = a->nslots;
		ak->blocks = a->blocks - blocks0;
		ak->warp_insts = a->warp_insts - insts0;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Results
 */

static void finish_level(struct analysis *a, struct level *l, uint32_t block_bytes)
{
	size_t i;

	level_flush(l);
	l->accesses = reuse_accesses(l->r);
	l->cold = reuse_cold(l->r);
	l->distinct = reuse_distinct(l->r);
	l->nhist = reuse_histogram(l->r, l->hist, REUSE_HIST_BUCKETS);
	for (i = 0; i < a->p.ncapacities; i++)
		l->hit_rates[i] = reuse_hit_rate(l->r, a->caps[i] / block_bytes);
}

static void register_level(struct analysis *a, struct stats *st, struct level *l)
{
	char name[96], desc[160];
	size_t i;

	snprintf(name, sizeof name, "reuse.%s.accesses", l->name);
	stats_counter(st, name, "accesses in the stream", &l->accesses);
	snprintf(name, sizeof name, "reuse.%s.cold", l->name);
	stats_counter(st, name, "first accesses (infinite distance)", &l->cold);
	snprintf(name, sizeof name, "reuse.%s.distinct", l->name);
	stats_counter(st, name, "distinct blocks: the footprint", &l->distinct);
	for (i = 0; i < l->nhist; i++) {
		uint64_t lo = i == 0 ? 0 : 1ull << (i - 1);

		snprintf(name, sizeof name, "reuse.%s.hist.%" PRIu64, l->name, lo);
		if (i == 0)
			snprintf(desc, sizeof desc, "reuses at distance 0");
		else
			snprintf(desc, sizeof desc, "reuses at distance %" PRIu64 " .. %" PRIu64, lo,
				 2 * lo - 1);
		stats_counter(st, name, desc, &l->hist[i]);
	}
	for (i = 0; i < a->p.ncapacities; i++) {
		char lab[32];

		char *c;

		snprintf(name, sizeof name, "reuse.%s.hit_rate_%s", l->name,
			 analyze_size_label(a->caps[i], lab, sizeof lab));
		for (c = name; *c != '\0'; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c - 'A' + 'a'); /* names are lower case: hit_rate_128k */
		snprintf(desc, sizeof desc, "hit rate of a fully associative LRU cache of %s B",
			 lab);
		stats_real(st, name, desc, &l->hit_rates[i], 0);
	}
}

static void register_stats(struct analysis *a, struct stats *st)
{
	static const struct stats_counter_def defs[] = {
#define C(f, d) STATS_COUNTER_DEF(struct coal_stats, f, d)
		C(mem_insts, "warp memory instructions"),
		C(requests, "line requests"),
		C(sectors, "sectors touched: the actual transactions"),
		C(ideal_transactions, "ceil(bytes requested / sector bytes), summed"),
		C(bytes_requested, "distinct bytes the active lanes touch"),
		C(bytes_moved, "sectors x sector bytes"),
#undef C
	};
	size_t i;

	coalescer_register_stats(a->coal, st, "coal");
	for (i = 0; i < a->nops; i++) {
		struct op_rec *r = &a->ops[i];
		char prefix[48], name[96];

		snprintf(prefix, sizeof prefix, "coal.op%u", r->id);
		stats_counters(st, prefix, &r->c, defs, sizeof defs / sizeof defs[0]);
		snprintf(name, sizeof name, "%s.efficiency", prefix);
		stats_real(st, name, "ideal transactions / sectors", &r->efficiency, 0);
		snprintf(name, sizeof name, "%s.used_sector", prefix);
		stats_real(st, name, "bytes requested / bytes moved in sectors", &r->used_sector, 0);
		snprintf(name, sizeof name, "%s.used_line", prefix);
		stats_real(st, name, "bytes requested / bytes of the lines touched", &r->used_line,
			   0);
	}
	stats_counter(st, "analyze.warp_insts", "warp instructions executed", &a->warp_insts);
	stats_counter(st, "analyze.blocks", "thread blocks executed", &a->blocks);
	register_level(a, st, &a->sector);
	register_level(a, st, &a->line);
	if (a->l1 != NULL) {
		stats_real(st, "predict.l1_bytes", "per-SM L1 capacity predicted, bytes",
			   &a->l1_bytes, 0);
		stats_real(st, "predict.l1_hit_rate", "load sectors hitting a fully associative "
			   "LRU L1 per SM", &a->l1_rate, 0);
	}
	if (a->l2 != NULL) {
		stats_real(st, "predict.l2_bytes", "total L2 capacity predicted, bytes",
			   &a->l2_bytes, 0);
		stats_real(st, "predict.l2_hit_rate", "predicted L1 misses and store sectors "
			   "hitting a fully associative LRU L2", &a->l2_rate, 0);
	}
}

static double ratio(uint64_t n, uint64_t d)
{
	return d ? (double)n / (double)d : NAN;
}

/* The parts of an analysis both sources share: parameters, coalescer, reuse engines and
 * predictors. */
static struct analysis *analysis_new(const struct analyze_params *p)
{
	struct analysis *a = xcalloc(1, sizeof *a);
	uint32_t i;

	a->p = *p;
	a->caps = xcalloc(p->ncapacities ? p->ncapacities : 1, sizeof *a->caps);
	if (p->ncapacities)
		memcpy(a->caps, p->capacities, p->ncapacities * sizeof *a->caps);
	coal_params_default(&a->cp);
	a->coal = coalescer_create(&a->cp);
	a->sector.name = "sector";
	a->line.name = "line";
	a->sector.r = reuse_create();
	a->line.r = reuse_create();
	a->sector.hit_rates = xcalloc(p->ncapacities + 1, sizeof(double));
	a->line.hit_rates = xcalloc(p->ncapacities + 1, sizeof(double));
	if (p->l1_bytes > 0 && p->sms > 0) {
		a->l1 = xcalloc(p->sms, sizeof *a->l1);
		for (i = 0; i < p->sms; i++)
			a->l1[i] = reuse_create_sized(1024);
		a->l1_cap = p->l1_bytes / a->cp.sector_bytes;
	}
	if (p->l2_bytes > 0) {
		a->l2 = reuse_create();
		a->l2_cap = p->l2_bytes / a->cp.sector_bytes;
	}
	return a;
}

/* nslots resident-block slots of wpb warps each. */
static void alloc_slots(struct analysis *a, uint32_t nslots, uint32_t wpb)
{
	uint32_t i;

	a->nslots = a->nslots_alloc = nslots;
	a->slots = xcalloc(nslots ? nslots : 1, sizeof *a->slots);
	for (i = 0; i < nslots; i++) {
		a->slots[i].sm = i % a->p.sms;
		a->slots[i].warps = xcalloc(wpb ? wpb : 1, sizeof *a->slots[i].warps);
		trace_block_init(&a->slots[i].tb);
	}
}

/* After execution: the derived figures, then the statistics. */
static void analysis_finish(struct analysis *a, struct stats *st)
{
	size_t j;

	for (j = 0; j < a->nops; j++) {
		struct op_rec *r = &a->ops[j];

		r->efficiency = ratio(r->c.ideal_transactions, r->c.sectors);
		r->used_sector = ratio(r->c.bytes_requested, r->c.bytes_moved);
		r->used_line = ratio(r->c.bytes_requested, r->c.requests * a->cp.line_bytes);
	}
	finish_level(a, &a->sector, a->cp.sector_bytes);
	finish_level(a, &a->line, a->cp.line_bytes);
	a->l1_rate = a->l1 != NULL ? ratio(a->l1_hits, a->l1_acc) : NAN;
	a->l2_rate = a->l2 != NULL ? ratio(a->l2_hits, a->l2_acc) : NAN;
	a->l1_bytes = (double)a->p.l1_bytes;
	a->l2_bytes = (double)a->p.l2_bytes;
	register_stats(a, st);
}

struct analysis *analyze_run(const struct workload *w, const struct analyze_params *p,
			     struct stats *st, struct sim_err *err)
{
	struct analysis *a;
	uint32_t bps, wpb;
	uint64_t threads, nblocks;

	threads = (uint64_t)w->block[0] * w->block[1] * w->block[2];
	wpb = (uint32_t)((threads + WEXEC_LANES - 1) / WEXEC_LANES);
	nblocks = (uint64_t)w->grid[0] * w->grid[1] * w->grid[2];
	bps = sm_blocks_per_sm(&p->sm, wpb, w->shared_bytes, w->registers);
	if (bps == 0 || p->sms == 0) {
		sm_no_fit_error(&p->sm, w, err);
		return NULL;
	}
	a = analysis_new(p);
	a->w = w;
	a->threads = threads;
	a->wpb = wpb;
	a->nblocks = nblocks;
	a->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(a->rng, (unsigned long)(p->seed ^ (p->seed >> 32)));
	a->ectx.rng = a->rng;
	a->chase_next = wexec_chase_build(w, a->rng, NULL, NULL, 0, err);
	if (a->chase_next == NULL) {
		analyze_free(a);
		return NULL;
	}
	collect_ops(a, w->body, w->nbody);
	alloc_slots(a, (uint64_t)p->sms * bps < nblocks ? p->sms * bps : (uint32_t)nblocks, wpb);
	if (execute(a, err) != 0) {
		analyze_free(a);
		return NULL;
	}
	analysis_finish(a, st);
	return a;
}

struct analysis *analyze_run_trace(struct trace_list *tl, const struct analyze_params *p,
				   struct stats *st, struct sim_err *err)
{
	struct analysis *a;
	uint32_t wpb_max = 0, slots_max = 0;
	size_t k;

	for (k = 0; k < tl->nkernels; k++) {
		const struct trace_kernel *tk = &tl->kernels[k];
		uint64_t threads = (uint64_t)tk->block[0] * tk->block[1] * tk->block[2];
		uint64_t nblocks = (uint64_t)tk->grid[0] * tk->grid[1] * tk->grid[2];
		uint32_t wpb = (uint32_t)((threads + WEXEC_LANES - 1) / WEXEC_LANES);
		uint32_t bps = sm_blocks_per_sm(&p->sm, wpb, tk->shmem, tk->nregs);
		uint32_t n;

		if (bps == 0 || p->sms == 0) {
			sm_no_fit_trace_error(&p->sm, tk, err);
			return NULL;
		}
		n = (uint64_t)p->sms * bps < nblocks ? p->sms * bps : (uint32_t)nblocks;
		if (n > slots_max)
			slots_max = n;
		if (wpb > wpb_max)
			wpb_max = wpb;
	}
	a = analysis_new(p);
	a->tl = tl;
	alloc_slots(a, slots_max, wpb_max);
	if (execute_trace(a, err) != 0) {
		analyze_free(a);
		return NULL;
	}
	if (a->nops > 1)
		qsort(a->ops, a->nops, sizeof *a->ops, rec_cmp);
	for (k = 0; k < a->nops; k++)
		a->ops[k].id = (uint32_t)k;
	analysis_finish(a, st);
	return a;
}

void analyze_free(struct analysis *a)
{
	uint32_t i;

	if (a == NULL)
		return;
	if (a->l1 != NULL)
		for (i = 0; i < a->p.sms; i++)
			reuse_destroy(a->l1[i]);
	free(a->l1);
	reuse_destroy(a->l2);
	reuse_destroy(a->sector.r);
	reuse_destroy(a->line.r);
	free(a->sector.hit_rates);
	free(a->line.hit_rates);
	for (i = 0; i < a->nslots_alloc; i++) {
		free(a->slots[i].warps);
		trace_block_free(&a->slots[i].tb);
	}
	free(a->slots);
	free(a->ops);
	free(a->rec_hash);
	free(a->kernels);
	trace_close(a->tr);
	coalescer_destroy(a->coal);
	if (a->w != NULL)
		wexec_chase_free(a->w, a->chase_next);
	if (a->rng != NULL)
		gsl_rng_free(a->rng);
	free(a->caps);
	free(a);
}

double analyze_predicted_l1(const struct analysis *a)
{
	return a->l1_rate;
}

double analyze_predicted_l2(const struct analysis *a)
{
	return a->l2_rate;
}

/* ---------------------------------------------------------------------------------------------
 * Report
 */

/* v in printf format fmt (one double conversion), or "n/a" when it is undefined (NaN: nothing
 * was counted, as in a kernel without memory instructions). Returns buf. */
static const char *num(char *buf, size_t size, const char *fmt, double v)
{
	if (isnan(v))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, fmt, v);
	return buf;
}

static void report_level(const struct analysis *a, const struct level *l, uint32_t bytes,
			 FILE *out)
{
	size_t i;
	char lab[32], v[32];

	double fp = (double)l->distinct * bytes;

	fprintf(out, "  %-6s %" PRIu64 " accesses of %u B, %" PRIu64 " distinct (%.1f %s "
		"footprint), %" PRIu64 " cold\n", l->name, l->accesses, bytes, l->distinct,
		fp >= 1048576.0 ? fp / 1048576.0 : fp / 1024.0, fp >= 1048576.0 ? "MiB" : "KiB",
		l->cold);
	if (l->nhist > 0) {
		fprintf(out, "         distance histogram (reuses):");
		for (i = 0; i < l->nhist; i++) {
			if (l->hist[i] == 0)
				continue;
			if (i == 0)
				fprintf(out, " 0:%" PRIu64, l->hist[i]);
			else
				fprintf(out, " %" PRIu64 "-%" PRIu64 ":%" PRIu64, (uint64_t)1 << (i - 1),
					((uint64_t)1 << i) - 1, l->hist[i]);
		}
		fputc('\n', out);
	}
	if (a->p.ncapacities > 0) {
		fprintf(out, "         LRU hit rate:");
		for (i = 0; i < a->p.ncapacities; i++)
			fprintf(out, " %s %s", analyze_size_label(a->caps[i], lab, sizeof lab),
				num(v, sizeof v, "%.3f", l->hit_rates[i]));
		fputc('\n', out);
	}
}

/* The header and the per-op rows of a workload. */
static void report_workload(const struct analysis *a, FILE *out)
{
	const struct workload *w = a->w;
	size_t i;

	fprintf(out, "kernel %s (%s): grid (%u, %u, %u), block (%u, %u, %u); %" PRIu64 " blocks, "
		"%" PRIu64 " warp instructions; order: %u resident blocks on %u SMs\n", w->kernel,
		w->path, w->grid[0], w->grid[1], w->grid[2], w->block[0], w->block[1], w->block[2],
		a->blocks, a->warp_insts, a->nslots, a->p.sms);
	fprintf(out, "coalescing (efficiency = ideal / actual sectors; used = bytes requested / "
		"bytes moved)\n");
	fprintf(out, "  op line kind   array    B    insts  lines/inst  sectors/inst  efficiency"
		"  used(sector)  used(line)\n");
	for (i = 0; i < a->nops; i++) {
		const struct op_rec *r = &a->ops[i];
		const struct workload_op *op = r->op;
		double n = r->c.mem_insts ? (double)r->c.mem_insts : NAN;
		char b[5][32];

		fprintf(out, "  %2u %4d %-6s %-8s %2u %8" PRIu64 "  %10s  %12s  %10s  %12s  %10s%s\n",
			r->id, op->line, workload_op_name(op->kind), w->arrays[op->array].name,
			op->bytes, r->c.mem_insts, num(b[0], sizeof b[0], "%.2f", r->c.requests / n),
			num(b[1], sizeof b[1], "%.2f", r->c.sectors / n),
			num(b[2], sizeof b[2], "%.3f", r->efficiency),
			num(b[3], sizeof b[3], "%.1f%%", 100.0 * r->used_sector),
			num(b[4], sizeof b[4], "%.1f%%", 100.0 * r->used_line),
			r->efficiency < 0.5 ? "  poor" : "");
	}
}

/* The header (one line per kernel, the copies) and the per-(kernel, PC) rows of a trace. */
static void report_trace(const struct analysis *a, FILE *out)
{
	size_t i;

	for (i = 0; i < a->nkernels; i++) {
		const struct akernel *ak = &a->kernels[i];
		const struct trace_kernel *k = &a->tl->kernels[ak->index];

		fprintf(out, "kernel %u %s (%s): grid (%u, %u, %u), block (%u, %u, %u); %" PRIu64
			" blocks, %" PRIu64 " warp instructions; order: %u resident blocks on %u "
			"SMs\n", ak->index + 1, k->name != NULL ? k->name : "(unnamed)", k->path,
			k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
			ak->blocks, ak->warp_insts, ak->nslots, a->p.sms);
	}
	if (a->memcpys > 0)
		fprintf(out, "MemcpyHtoD: %" PRIu64 " cop%s of %" PRIu64 " bytes in all warm the "
			"predicted L2\n", a->memcpys, a->memcpys == 1 ? "y" : "ies", a->memcpy_bytes);
	fprintf(out, "coalescing (efficiency = ideal / actual sectors; used = bytes requested / "
		"bytes moved)\n");
	fprintf(out, "  op  k       pc  opcode               kind    B    insts  lines/inst  "
		"sectors/inst  efficiency  used(sector)  used(line)\n");
	for (i = 0; i < a->nops; i++) {
		const struct op_rec *r = &a->ops[i];
		double n = r->c.mem_insts ? (double)r->c.mem_insts : NAN;
		char b[5][32];

		fprintf(out, "  %2u %2u %8x  %-20s %-6s %2u %8" PRIu64 "  %10s  %12s  %10s  %12s  "
			"%10s%s\n", r->id, r->kernel + 1, r->pc, r->opcode,
			workload_op_name((enum workload_op_kind)r->kind), r->bytes, r->c.mem_insts,
			num(b[0], sizeof b[0], "%.2f", r->c.requests / n),
			num(b[1], sizeof b[1], "%.2f", r->c.sectors / n),
			num(b[2], sizeof b[2], "%.3f", r->efficiency),
			num(b[3], sizeof b[3], "%.1f%%", 100.0 * r->used_sector),
			num(b[4], sizeof b[4], "%.1f%%", 100.0 * r->used_line),
			r->efficiency < 0.5 ? "  poor" : "");
	}
}

void analyze_report(const struct analysis *a, FILE *out)
{
	const struct coal_stats *t = coalescer_stats(a->coal);
	char lab[32], b[2][32];

	if (a->tl != NULL)
		report_trace(a, out);
	else
		report_workload(a, out);
	fprintf(out, "  total: %" PRIu64 " memory instructions -> %" PRIu64 " line requests, "
		"%" PRIu64 " sectors, %" PRIu64 " ideal; efficiency %s%s; %" PRIu64 " of %" PRIu64
		" bytes moved used (%s)\n", t->mem_insts, t->requests, t->sectors,
		t->ideal_transactions, num(b[0], sizeof b[0], "%.3f", coal_stats_efficiency(t)),
		coal_stats_efficiency(t) < 0.5 ? " (poor: below 0.5)" : "", t->bytes_requested,
		t->bytes_moved,
		num(b[1], sizeof b[1], "%.1f%%", 100.0 * ratio(t->bytes_requested, t->bytes_moved)));
	fprintf(out, "reuse distance (fully associative LRU; distance = distinct blocks between "
		"two uses)\n");
	report_level(a, &a->sector, a->cp.sector_bytes, out);
	report_level(a, &a->line, a->cp.line_bytes, out);
	if (a->l1 != NULL || a->l2 != NULL) {
		fprintf(out, "predicted sector hit rates:");
		if (a->l1 != NULL)
			fprintf(out, " L1 %s (%s per SM, loads)",
				num(b[0], sizeof b[0], "%.3f", a->l1_rate),
				analyze_size_label(a->p.l1_bytes, lab, sizeof lab));
		if (a->l2 != NULL)
			fprintf(out, "%s L2 %s (%s, L1 misses and stores)",
				a->l1 != NULL ? ";" : "", num(b[1], sizeof b[1], "%.3f", a->l2_rate),
				analyze_size_label(a->p.l2_bytes, lab, sizeof lab));
		fputc('\n', out);
	}
}
