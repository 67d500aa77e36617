/*
 * warpexec.c - one warp's walk through a workload body (contract in warpexec.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "warpexec.h"

/* t (a lane's thread) becomes the next lane's: one thread on in the block's shape. */
static void lane_step(const struct wexec *x, uint32_t t[3])
{
	if (++t[0] == x->bdim[0]) {
		t[0] = 0;
		if (++t[1] == x->bdim[1]) {
			t[1] = 0;
			t[2]++;
		}
	}
}

/* The builtins tx, ty, tz of the evaluator: thread t. */
static void set_thread(struct wexec *x, const uint32_t t[3])
{
	x->vars[EXPR_TX] = t[0];
	x->vars[EXPR_TY] = t[1];
	x->vars[EXPR_TZ] = t[2];
}

bool wexec_lane_thread(const uint32_t block[3], uint32_t warp, uint32_t lane, uint32_t tid[3])
{
	uint64_t t = (uint64_t)warp * WEXEC_LANES + lane;
	uint64_t n = (uint64_t)block[0] * block[1] * block[2];

	tid[0] = (uint32_t)(t % block[0]);
	tid[1] = (uint32_t)(t / block[0] % block[1]);
	tid[2] = (uint32_t)(t / ((uint64_t)block[0] * block[1]));
	return t < n;
}

uint32_t wexec_warp_mask(uint64_t threads, uint32_t warp)
{
	uint64_t first = (uint64_t)warp * WEXEC_LANES;

	if (first >= threads)
		return 0;
	if (threads - first >= WEXEC_LANES)
		return 0xffffffffu;
	return (uint32_t)((1ull << (threads - first)) - 1);
}

int64_t wexec_count(struct wexec *x, const struct workload_op *op, struct expr_ctx *ctx)
{
	int64_t n = expr_eval(op->count, x->vars, ctx);

	if (ctx->error)
		x->err_op = op;
	return n;
}

/* Enters loops at the current position and leaves finished ones until the walk stands on an
 * op that is not a loop, or at the end of the body. */
static void settle(struct wexec *x, struct expr_ctx *ctx)
{
	for (;;) {
		struct wexec_frame *fr = &x->stack[x->depth - 1];
		const struct workload_op *op;
		struct wexec_frame *nf;
		int64_t n;

		if (fr->pc == fr->n) {
			if (x->depth == 1)
				return;
			if (++fr->iter < fr->count) {
				fr->pc = 0;
				x->vars[fr->slot] = fr->iter;
				continue;
			}
			x->depth--;
			x->stack[x->depth - 1].pc++;
			continue;
		}
		op = &fr->ops[fr->pc];
		if (op->kind != WORKLOAD_OP_LOOP)
			return;
		n = wexec_count(x, op, ctx);
		if (ctx->error)
			return;
		if (n <= 0) {
			fr->pc++;
			continue;
		}
		SIM_ASSERT(x->depth <= WORKLOAD_MAX_DEPTH);
		nf = &x->stack[x->depth++];
		nf->ops = op->body;
		nf->n = (uint32_t)op->nbody;
		nf->pc = 0;
		nf->count = n;
		nf->iter = 0;
		nf->slot = op->var_slot;
		x->vars[nf->slot] = 0;
	}
}

void wexec_start(struct wexec *x, const struct workload *w, uint64_t block, uint32_t warp,
		 struct expr_ctx *ctx)
{
	uint64_t threads = (uint64_t)w->block[0] * w->block[1] * w->block[2];

	memset(x, 0, sizeof *x);
	x->active = wexec_warp_mask(threads, warp);
	/* lane 0's thread; the others' are counted on from it (lane_step) instead of three
	 * divisions per lane */
	(void)wexec_lane_thread(w->block, warp, 0, x->tid0);
	memcpy(x->bdim, w->block, sizeof x->bdim);
#ifdef SIM_DEBUG
	{
		uint32_t t[3], ref[3], lane;

		memcpy(t, x->tid0, sizeof t);
		for (lane = 0; lane < WEXEC_LANES; lane++, lane_step(x, t)) {
			wexec_lane_thread(w->block, warp, lane, ref);
			SIM_ASSERT(ref[0] == t[0] && ref[1] == t[1] && ref[2] == t[2]);
		}
	}
#endif
	x->vars[EXPR_BX] = (int64_t)(block % w->grid[0]);
	x->vars[EXPR_BY] = (int64_t)(block / w->grid[0] % w->grid[1]);
	x->vars[EXPR_BZ] = (int64_t)(block / ((uint64_t)w->grid[0] * w->grid[1]));
	x->vars[EXPR_BDX] = w->block[0];
	x->vars[EXPR_BDY] = w->block[1];
	x->vars[EXPR_BDZ] = w->block[2];
	x->vars[EXPR_GDX] = w->grid[0];
	x->vars[EXPR_GDY] = w->grid[1];
	x->vars[EXPR_GDZ] = w->grid[2];
	x->stack[0].ops = w->body;
	x->stack[0].n = (uint32_t)w->nbody;
	x->stack[0].count = 1;
	x->depth = 1;
	settle(x, ctx);
}

const struct workload_op *wexec_op(const struct wexec *x)
{
	const struct wexec_frame *fr = &x->stack[x->depth - 1];

	return fr->pc < fr->n ? &fr->ops[fr->pc] : NULL;
}

bool wexec_inst(const struct wexec *x, struct winst *in)
{
	const struct workload_op *op = wexec_op(x);

	if (op == NULL)
		return false;
	in->kind = op->kind;
	in->bytes = op->bytes;
	in->reg = op->reg;
	in->latency = op->latency;
	in->need = op->uses | (op->reg >= 0 ? 1ull << op->reg : 0);
	in->line = op->line;
	in->active = x->active;
	in->op = op;
	in->ti = NULL;
	return true;
}

void wexec_next(struct wexec *x, struct expr_ctx *ctx)
{
	x->stack[x->depth - 1].pc++;
	settle(x, ctx);
}

/* The common case of affine_addrs in a few operations a lane: a full warp within one row of the
 * block (tx counts up by one a lane, ty and tz stay), whose first and last indices are in the
 * array, with a step below 2^32 either way and an array below 2^62 elements, so that every
 * index between (an arithmetic progression that cannot wrap) is in it too. Returns false,
 * having written nothing, when that is not the case (then the lane-by-lane walk decides, and
 * names the first lane outside the array). A unit-stride copy's loads and stores take it.
 * With dense (not NULL), a row whose lanes are bytes apart (lane i at addr[0] + i x bytes) is
 * written as addr[0] alone, every lane in the debug build (which checks the word: coalescer.c),
 * and *dense is set. */
static bool row_addrs(struct wexec *x, const struct workload_array *a, uint64_t e0,
		      const uint64_t c[3], uint32_t bytes, addr_t *addr, bool *dense)
{
	const uint64_t step = c[0], far = (uint64_t)(WEXEC_LANES - 1) * step;
	uint64_t first;
	uint32_t lane, written, last[3];
	bool is_dense;

	if (x->active != UINT32_MAX || x->bdim[0] - x->tid0[0] < WEXEC_LANES ||
	    step + (UINT64_C(1) << 32) > (UINT64_C(1) << 33) || a->elems > (UINT64_C(1) << 62))
		return false;
	first = e0 + (uint64_t)x->tid0[0] * c[0] + (uint64_t)x->tid0[1] * c[1] +
		(uint64_t)x->tid0[2] * c[2];
	if ((int64_t)first < 0 || first >= a->elems || (int64_t)(first + far) < 0 ||
	    first + far >= a->elems)
		return false;
	is_dense = dense != NULL && step * a->elem_bytes == bytes;
#ifdef SIM_DEBUG
	written = WEXEC_LANES;
#else
	written = is_dense ? 1 : WEXEC_LANES;
#endif
	for (lane = 0; lane < written; lane++)
		addr[lane] = a->base + (first + lane * step) * a->elem_bytes;
	if (dense != NULL)
		*dense = is_dense;
#ifdef SIM_DEBUG
	for (lane = 0; lane < WEXEC_LANES; lane++) {
		/* each lane as affine_addrs's walk computes it */
		int64_t idx = (int64_t)(e0 + (uint64_t)(x->tid0[0] + lane) * c[0] +
					(uint64_t)x->tid0[1] * c[1] + (uint64_t)x->tid0[2] * c[2]);

		SIM_ASSERT(idx >= 0 && (uint64_t)idx < a->elems &&
			   addr[lane] == a->base + (uint64_t)idx * a->elem_bytes);
	}
#endif
	/* as the lane-by-lane walk leaves them: the last lane's thread */
	last[0] = x->tid0[0] + WEXEC_LANES - 1;
	last[1] = x->tid0[1];
	last[2] = x->tid0[2];
	set_thread(x, last);
	return true;
}

/* Index of the active lanes of an affine index (op->index_affine): e(0) and the step of each of
 * tx, ty, tz (the op's constants, op->index_coef, where the analysis found them, as for a
 * copy's bx * bdx + tx; else three more evaluations), then each lane's e(0) + tx cx + ty cy +
 * tz cz (64-bit wrapping, the same value as its own evaluation); the same range checks, in
 * lane order. */
static bool affine_addrs(struct wexec *x, const struct workload_op *op,
			 const struct workload_array *a, struct expr_ctx *ctx, addr_t *addr,
			 bool *dense)
{
	uint64_t e0, c[3];
	uint32_t lane, d, t[3], last[3];

	x->vars[EXPR_TX] = x->vars[EXPR_TY] = x->vars[EXPR_TZ] = 0;
	e0 = (uint64_t)expr_eval(op->index, x->vars, ctx);
	if (op->index_coef_known) {
		/* constants: e(0) alone (an error would not depend on tx, ty, tz: e(0)'s) */
		memcpy(c, op->index_coef, sizeof c);
#ifdef SIM_DEBUG
		for (d = 0; d < 3 && !ctx->error; d++) {
			uint64_t e1;

			x->vars[EXPR_TX + d] = 1;
			e1 = (uint64_t)expr_eval(op->index, x->vars, ctx);
			x->vars[EXPR_TX + d] = 0;
			SIM_ASSERT(ctx->error || e1 - e0 == c[d]);
		}
#endif
	} else {
		for (d = 0; d < 3 && !ctx->error; d++) {
			x->vars[EXPR_TX + d] = 1;
			c[d] = (uint64_t)expr_eval(op->index, x->vars, ctx) - e0;
			x->vars[EXPR_TX + d] = 0;
		}
	}
	if (ctx->error) {
		x->err_op = op;
		return false;
	}
	if (row_addrs(x, a, e0, c, op->bytes, addr, dense))
		return true;
	memcpy(t, x->tid0, sizeof t);
	memcpy(last, x->tid0, sizeof last);
	for (lane = 0; lane < WEXEC_LANES; lane++, lane_step(x, t)) {
		int64_t idx;

		if (!(x->active & (1u << lane)))
			continue;
		memcpy(last, t, sizeof last);
		idx = (int64_t)(e0 + (uint64_t)t[0] * c[0] + (uint64_t)t[1] * c[1] +
				(uint64_t)t[2] * c[2]);
		if (idx < 0 || (uint64_t)idx >= a->elems) {
			snprintf(ctx->msg, sizeof ctx->msg, "index %lld is outside %s[0..%llu)",
				 (long long)idx, a->name, (unsigned long long)a->elems);
			ctx->error = true;
			x->err_op = op;
			set_thread(x, t);
			return false;
		}
		addr[lane] = a->base + (uint64_t)idx * a->elem_bytes;
	}
	/* as the lane-by-lane walk leaves them */
	set_thread(x, last);
	return true;
}

bool wexec_addrs_dense(struct wexec *x, const struct workload_op *op,
		       const struct workload_array *a, struct expr_ctx *ctx, addr_t *addr,
		       bool *dense)
{
	uint32_t lane, t[3];

	if (dense != NULL)
		*dense = false;
	if (op->index_affine && x->active != 0)
		return affine_addrs(x, op, a, ctx, addr, dense);
	memcpy(t, x->tid0, sizeof t);
	for (lane = 0; lane < WEXEC_LANES; lane++, lane_step(x, t)) {
		int64_t idx;

		if (!(x->active & (1u << lane)))
			continue;
		set_thread(x, t);
		idx = expr_eval(op->index, x->vars, ctx);
		if (ctx->error) {
			x->err_op = op;
			return false;
		}
		if (idx < 0 || (uint64_t)idx >= a->elems) {
			snprintf(ctx->msg, sizeof ctx->msg, "index %lld is outside %s[0..%llu)",
				 (long long)idx, a->name, (unsigned long long)a->elems);
			ctx->error = true;
			x->err_op = op;
			return false;
		}
		addr[lane] = a->base + (uint64_t)idx * a->elem_bytes;
	}
	return true;
}

bool wexec_addrs(struct wexec *x, const struct workload_op *op, const struct workload_array *a,
		 struct expr_ctx *ctx, addr_t *addr)
{
	return wexec_addrs_dense(x, op, a, ctx, addr, NULL);
}

/* Not instrumented by AddressSanitizer: every index is below n by construction (i < n, j < i,
 * perm a permutation of 0 .. n - 1), and the shadow check of each random access into arrays of
 * up to 2^28 entries made an A100 run chasing 1 GB take 55 s under the sanitizer build (1.3 s
 * without the checks, 1.1 s in the release build). */
__attribute__((no_sanitize_address))
uint32_t *wexec_chase_order(uint64_t n, bool random, gsl_rng *rng)
{
	uint32_t *perm, *next;
	uint64_t i;

	SIM_ASSERT(n >= 1 && n <= WEXEC_CHASE_MAX_ELEMS);
	/* both written whole below: no clearing */
	perm = xreallocarray(NULL, n, sizeof *perm);
	next = xreallocarray(NULL, n, sizeof *next);
	for (i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (i = n - 1; random && i > 0; i--) {
		uint64_t j = gsl_rng_uniform_int(rng, (unsigned long)i);
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < n; i++)
		next[perm[i]] = perm[(i + 1) % n];
	free(perm);
	return next;
}

/* The first chase op of ops (loops included) that walks array a, or NULL. */
static const struct workload_op *chase_of(const struct workload_op *ops, size_t n, uint32_t a)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct workload_op *r;

		if (ops[i].kind == WORKLOAD_OP_CHASE && ops[i].array == a)
			return &ops[i];
		if (ops[i].kind == WORKLOAD_OP_LOOP &&
		    (r = chase_of(ops[i].body, ops[i].nbody, a)) != NULL)
			return r;
	}
	return NULL;
}

/* The order an earlier kernel built for the array a chase op of w walks, or NULL. */
static uint32_t *shared_order(const struct workload *w, const struct workload_op *op,
			      const struct workload *const *prev, uint32_t **const *prev_next,
			      size_t nprev)
{
	const struct workload_array *a = &w->arrays[op->array];
	size_t k, b;

	for (k = 0; k < nprev; k++) {
		for (b = 0; b < prev[k]->narrays; b++) {
			const struct workload_array *pa = &prev[k]->arrays[b];
			const struct workload_op *pop;

			if (prev_next[k][b] == NULL || pa->elems != a->elems ||
			    strcmp(pa->name, a->name) != 0)
				continue;
			pop = chase_of(prev[k]->body, prev[k]->nbody, (uint32_t)b);
			if (pop != NULL && pop->order == op->order)
				return prev_next[k][b];
		}
	}
	return NULL;
}

struct chase_ctx {
	const struct workload *w;
	gsl_rng *rng;
	const struct workload *const *prev;
	uint32_t **const *prev_next;
	size_t nprev;
	uint32_t **next;
	struct sim_err *err;
};

static int chase_build(struct chase_ctx *c, const struct workload_op *ops, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct workload_op *op = &ops[i];
		const struct workload_array *a;

		if (op->kind == WORKLOAD_OP_LOOP) {
			if (chase_build(c, op->body, op->nbody) != 0)
				return -1;
			continue;
		}
		if (op->kind != WORKLOAD_OP_CHASE || c->next[op->array] != NULL)
			continue;
		a = &c->w->arrays[op->array];
		if (a->elems < 1 || a->elems > WEXEC_CHASE_MAX_ELEMS)
			return sim_err_set(c->err, c->w->path, op->line, "chase: array %s has %llu "
					   "elements; 1 .. 2^28 are possible", a->name,
					   (unsigned long long)a->elems);
		c->next[op->array] = shared_order(c->w, op, c->prev, c->prev_next, c->nprev);
		if (c->next[op->array] == NULL)
			c->next[op->array] = wexec_chase_order(a->elems, op->order ==
							       WORKLOAD_CHASE_RANDOM, c->rng);
	}
	return 0;
}

uint32_t **wexec_chase_build(const struct workload *w, gsl_rng *rng,
			     const struct workload *const *prev, uint32_t **const *prev_next,
			     size_t nprev, struct sim_err *err)
{
	struct chase_ctx c = { w, rng, prev, prev_next, nprev, NULL, err };

	c.next = xcalloc(w->narrays > 0 ? w->narrays : 1, sizeof *c.next);
	if (chase_build(&c, w->body, w->nbody) != 0) {
		size_t i, k, b;

		/* free only what this call built */
		for (i = 0; i < w->narrays; i++) {
			bool shared = false;

			for (k = 0; k < nprev && !shared; k++)
				for (b = 0; b < prev[k]->narrays && !shared; b++)
					shared = prev_next[k][b] == c.next[i];
			if (!shared)
				free(c.next[i]);
		}
		free(c.next);
		return NULL;
	}
	return c.next;
}

void wexec_chase_free_all(const struct workload *const *ws, uint32_t ***next, size_t n)
{
	size_t k, i, j, b;

	/* last kernel first: the tables of the earlier ones are still there to compare with */
	for (k = n; k-- > 0;) {
		if (next[k] == NULL)
			continue;
		for (i = 0; i < ws[k]->narrays; i++) {
			bool earlier = false;

			/* a kernel's order is its own unless an earlier kernel built it */
			for (j = 0; j < k && !earlier; j++)
				for (b = 0; next[j] != NULL && b < ws[j]->narrays && !earlier; b++)
					earlier = next[j][b] == next[k][i];
			if (!earlier)
				free(next[k][i]);
		}
		free(next[k]);
	}
}

uint64_t wexec_chase_first(struct wexec *x, const struct workload_op *op,
			   const struct workload_array *a, const uint32_t *next, uint64_t gid,
			   struct expr_ctx *ctx)
{
	uint64_t node = wexec_chase_start(gid, a), steps;
	int64_t s;

	if (op->start == NULL)
		return node;
	s = expr_eval(op->start, x->vars, ctx);
	if (ctx->error) {
		x->err_op = op;
		return 0;
	}
	if (s < 0) {
		ctx->error = true;
		snprintf(ctx->msg, sizeof ctx->msg, "chase start: expected a value >= 0, got %lld",
			 (long long)s);
		x->err_op = op;
		return 0;
	}
	for (steps = (uint64_t)s % a->elems; steps > 0; steps--)
		node = next[node];
	return node;
}

void wexec_chase_free(const struct workload *w, uint32_t **next)
{
	size_t i;

	if (next == NULL)
		return;
	for (i = 0; i < w->narrays; i++)
		free(next[i]);
	free(next);
}
