/*
 * test_l1.c - the L1 data cache (l1.c) with a real event queue, clock and links, a stub SM above
 * and a stub memory below, on exact cycles.
 *
 * Harness. Core clock 725 ps. Requests come from a req_pool and are pushed on `in` (latency 1)
 * by an event half a core cycle after edge c, so they are visible at c + 1. A stub SM unit pops
 * `resp` (latency 1) and records the cycle and the request as replied: a reply pushed at core
 * cycle p is popped at p + 1. A stub memory unit pops `miss_out` (latency 1; the crossbar's
 * input in the real system) and pushes the SAME request back on `fill_in` (latency 1) D cycles
 * after the pop (D + slice_skew x slice when the test wants replies out of order), stamping
 * XBAR_REQ and L2_ACCESS at the pop and XBAR_REPLY at the push as the crossbar and L2 would.
 * The slice hash is real (ipoly, 4 slices, 256 B).
 *
 * Latency formulas (l1.c; H = hit latency, FL = fill latency, v = visible cycle):
 *   hit:   pushed at v + H, popped by the SM at v + H + 1;
 *   miss:  pushed into miss_out at v, popped by the memory at v + 1, pushed back at v + 1 + D,
 *          popped from fill_in at v + D + 2, filled at F = v + D + 2 + FL, reply pushed at
 *          F + H, popped by the SM at v + D + FL + H + 3;
 *   store: write pushed into miss_out at v, ack pushed at v, popped by the SM at v + 1.
 *
 *   a. hit latency and miss latency, exact, and the latency distributions;
 *   b. two loads to one sector: one miss request, both replied by the same fill;
 *   c. sector miss on a present line: a miss for the missing sector only;
 *   d. MSHR full and merge limit: the head waits, counted, nothing lost;
 *   e. lookups_per_cycle: a 4-line burst takes 4 lookup cycles at 1, one at 4;
 *   f. write-through no-allocate / allocate: what the cache holds, what goes down; stores
 *      acked to the SM when the L2's ack comes back (store_ack = l2);
 *   g. fill-port contention: two fills in one cycle with one fill per cycle;
 *   h. stage stamps copied from the miss into the original (primary and late merge);
 *   i. miss queue full behind a stalled crossbar input;
 *   j. conservation under load (random loads and stores, out-of-order memory, small queues,
 *      slow SM), l1_check after every event; determinism; parameter checks.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "cache.h"
#include "clock.h"
#include "eventq.h"
#include "l1.h"
#include "link.h"
#include "mshr.h"
#include "req.h"
#include "slice_hash.h"
#include "stats.h"

/* ---------------------------------------------------------------------------------------------
 * Harness
 */

#define CORE_PS 725
#define MAX_REQ 8192
#define MAX_DOWN 16384
#define MAX_MEM 1024

struct down_rec {
	uint64_t id;
	enum mem_req_type type;
	addr_t addr;
	uint32_t sector_mask;
	uint64_t byte_mask[2];
	uint32_t slice;
	cycle_t popped;
};

struct env;

struct push_ev {
	struct env *e;
	struct mem_req *r;
};

struct mem_slot {
	struct mem_req *r;
	cycle_t due;
};

struct env {
	struct l1_params p;
	struct slice_hash hash;
	struct eventq *q;
	struct clock *clk;
	struct stats *st;
	struct req_pool *pool;
	struct link *in, *resp, *miss_out, *fill_in;
	struct l1 *l1;
	struct clock_unit *sink, *mem;
	uint32_t sink_per_cycle;  /* replies popped per cycle (0: all) */
	cycle_t sink_hold_until;  /* the SM pops nothing before this cycle */
	uint32_t resp_cap;        /* resp capacity (0: 64) */
	uint32_t miss_out_cap;    /* miss_out capacity (0: 16) */
	uint32_t mem_per_cycle;   /* requests the memory pops per cycle (0: all) */
	cycle_t mem_hold_until;   /* the memory pops nothing before this cycle */
	cycle_t delay;            /* D */
	cycle_t slice_skew;       /* extra delay per slice number */
	/* requests issued by issue_at */
	struct push_ev ev[MAX_REQ];
	uint32_t nev;
	/* replies: per SM request number (r->inst, from 1) */
	uint32_t replies[MAX_REQ + 1];
	cycle_t reply_at[MAX_REQ + 1];
	struct mem_req seen[MAX_REQ + 1]; /* the request as replied */
	uint64_t nreplies;
	/* what went down */
	struct down_rec down[MAX_DOWN];
	uint32_t ndown;
	struct mem_slot mq[MAX_MEM];
	uint32_t nmq;
	/* random feeder */
	struct clock_unit *feeder;
	uint32_t feed_left;
	uint64_t rng;
	addr_t footprint;
	uint32_t nreq;            /* SM requests made; each is numbered in r->inst from 1 */
};

static void sink_tick(void *unit, cycle_t now)
{
	struct env *e = unit;
	uint32_t n = 0;
	struct mem_req *r;

	if (now < e->sink_hold_until) {
		clock_sleep_until(e->sink, e->sink_hold_until);
		return;
	}
	while ((e->sink_per_cycle == 0 || n < e->sink_per_cycle) &&
	       (r = link_peek(e->resp)) != NULL) {
		link_pop(e->resp);
		assert_true(r->is_reply);
		assert_true(r->inst >= 1 && r->inst <= MAX_REQ);
		assert_true(r->origin == NULL);
		e->replies[r->inst]++;
		e->reply_at[r->inst] = now;
		e->seen[r->inst] = *r;
		e->nreplies++;
		req_free(e->pool, r, eventq_now(e->q));
		n++;
	}
	if (link_peek(e->resp) == NULL)
		clock_sleep(e->sink);
}

/* The memory: pops miss_out, replies on fill_in after the delay, with the same object. */
static void mem_tick(void *unit, cycle_t now)
{
	struct env *e = unit;
	tick_t t = clock_tick_of(e->clk, now);
	struct mem_req *r;
	cycle_t next = CYCLE_NEVER;
	uint32_t i, kept = 0, n = 0;

	for (i = 0; i < e->nmq; i++) {
		struct mem_slot *s = &e->mq[i];

		if (s->due <= now) {
			req_enter(s->r, MEM_STAGE_XBAR_REPLY, t);
			s->r->is_reply = true;
			assert_true(link_can_push(e->fill_in));
			link_push(e->fill_in, s->r);
			continue;
		}
		if (s->due < next)
			next = s->due;
		e->mq[kept++] = *s;
	}
	e->nmq = kept;
	while (now >= e->mem_hold_until && (e->mem_per_cycle == 0 || n < e->mem_per_cycle) &&
	       (r = link_peek(e->miss_out)) != NULL) {
		struct down_rec *d;
		struct mem_slot *s;

		link_pop(e->miss_out);
		assert_false(r->is_reply);
		assert_true(e->ndown < MAX_DOWN && e->nmq < MAX_MEM);
		assert_int_equal(r->slice, slice_hash_slice(&e->hash, r->addr));
		d = &e->down[e->ndown++];
		d->id = r->id;
		d->type = r->type;
		d->addr = r->addr;
		d->sector_mask = r->sector_mask;
		d->byte_mask[0] = r->byte_mask[0];
		d->byte_mask[1] = r->byte_mask[1];
		d->slice = r->slice;
		d->popped = now;
		req_enter(r, MEM_STAGE_XBAR_REQ, t);
		req_enter(r, MEM_STAGE_L2_ACCESS, t);
		s = &e->mq[e->nmq++];
		s->r = r;
		s->due = now + e->delay + e->slice_skew * r->slice;
		if (s->due < next)
			next = s->due;
		n++;
	}
	if (link_head_ready(e->miss_out) != CYCLE_NEVER) {
		cycle_t h = link_head_ready(e->miss_out);

		if (h < e->mem_hold_until)
			h = e->mem_hold_until;
		if (h <= now)
			h = now + 1;
		if (h < next)
			next = h;
	}
	if (next == CYCLE_NEVER)
		clock_sleep(e->mem);
	else if (next > now + 1)
		clock_sleep_until(e->mem, next);
}

static void params_default(struct env *e)
{
	struct l1_params *p = &e->p;

	memset(p, 0, sizeof *p);
	p->cache.size_kb = 16;        /* 16 KB / (128 B x 4 ways) = 32 sets */
	p->cache.line_bytes = 128;
	p->cache.sector_bytes = 32;
	p->cache.assoc = 4;
	p->cache.index = CACHE_INDEX_LINEAR;
	p->cache.replacement = CACHE_REPL_LRU;
	p->mshr.entries = 32;
	p->mshr.max_merge = 8;
	p->mshr.granularity = MSHR_GRAN_SECTOR;
	p->hit_latency_cycles = 28;
	p->lookups_per_cycle = 1;
	p->data_banks = 16; /* wide enough that only test_data_banks sees a conflict */
	p->data_bank_bytes = 32;
	p->fill_latency_cycles = 4;
	p->fills_per_cycle = 1;
	p->miss_queue = 8;
	p->write_policy = L1_WRITE_THROUGH_NO_ALLOCATE;
	e->delay = 100;
}

static struct env *env_new(void **state)
{
	struct env *e = calloc(1, sizeof *e);

	assert_non_null(e);
	*state = e;
	params_default(e);
	return e;
}

static void env_start(struct env *e)
{
	struct slice_hash_params hp = { SLICE_HASH_IPOLY, 256, false, false };
	struct sim_err err;

	memset(&err, 0, sizeof err);
	if (l1_params_check(&e->p, "l1", &err) != 0)
		fail_msg("l1_params_check: %s", err.msg);
	if (slice_hash_init(&e->hash, &hp, 4, "l2.slice_hash", &err) != 0)
		fail_msg("slice_hash_init: %s", err.msg);
	e->q = eventq_create();
	e->clk = clock_create(e->q, "core", CORE_PS);
	e->st = stats_create();
	e->pool = req_pool_create(256);
	e->in = link_create("sm_to_l1", 16, 1, e->clk, NULL);
	e->sink = clock_attach(e->clk, "sm", sink_tick, e);
	e->resp = link_create("l1_to_sm", e->resp_cap ? e->resp_cap : 64, 1, e->clk, e->sink);
	e->mem = clock_attach(e->clk, "mem", mem_tick, e);
	e->miss_out = link_create("l1_to_xbar", e->miss_out_cap ? e->miss_out_cap : 16, 1, e->clk,
				  e->mem);
	e->fill_in = link_create("xbar_to_l1", MAX_MEM, 1, e->clk, NULL);
	e->l1 = l1_create(&e->p, 3, e->clk, e->in, e->resp, e->miss_out, e->fill_in, e->pool,
			  &e->hash, 1, e->st, "sm3.l1d");
}

static int env_free(void **state)
{
	struct env *e = *state;

	if (e == NULL)
		return 0;
	l1_destroy(e->l1);
	if (e->in != NULL) {
		link_destroy(e->in);
		link_destroy(e->resp);
		link_destroy(e->miss_out);
		link_destroy(e->fill_in);
	}
	if (e->clk != NULL)
		clock_destroy(e->clk);
	if (e->q != NULL)
		eventq_destroy(e->q);
	if (e->st != NULL)
		stats_destroy(e->st);
	if (e->pool != NULL)
		req_pool_destroy(e->pool);
	free(e);
	*state = NULL;
	return 0;
}

static void push_ev(void *ctx, tick_t now)
{
	struct push_ev *ev = ctx;

	(void)now;
	assert_true(link_can_push(ev->e->in));
	link_push(ev->e->in, ev->r);
}

static struct mem_req *new_req(struct env *e, enum mem_req_type type, addr_t line,
			       uint32_t sectors, uint32_t off, uint32_t len)
{
	struct mem_req *r = req_alloc(e->pool, eventq_now(e->q));
	uint32_t b;

	r->type = type;
	r->addr = line;
	r->sector_mask = sectors;
	r->sm = 3;
	r->bytes = len;
	assert_true(e->nreq < MAX_REQ);
	r->inst = ++e->nreq;
	for (b = off; b < off + len; b++)
		r->byte_mask[b / 64] |= 1ull << (b % 64);
	return r;
}

/* Pushes a request on `in` half a core cycle after edge c: visible at c + 1. len 0: no byte
 * mask. Returns the request's number (r->inst: the test's key; the L1 allocates ids too). */
static uint64_t issue_at(struct env *e, cycle_t c, enum mem_req_type type, addr_t line,
			 uint32_t sectors, uint32_t off, uint32_t len)
{
	struct push_ev *ev;

	assert_true(e->nev < MAX_REQ);
	ev = &e->ev[e->nev++];
	ev->e = e;
	ev->r = new_req(e, type, line, sectors, off, len);
	eventq_schedule(e->q, (tick_t)c * CORE_PS + CORE_PS / 2, EVQ_PRIO_DEFAULT, push_ev, ev);
	return ev->r->inst;
}

static uint64_t load_at(struct env *e, cycle_t c, addr_t line, uint32_t sectors)
{
	return issue_at(e, c, MEM_REQ_LOAD, line, sectors, 0, 0);
}

/* A store of bytes [off, off + len) of line (within one or more sectors). */
static uint64_t store_at(struct env *e, cycle_t c, addr_t line, uint32_t off, uint32_t len)
{
	uint32_t s, sectors = 0;

	for (s = off / 32; s <= (off + len - 1) / 32; s++)
		sectors |= 1u << s;
	return issue_at(e, c, MEM_REQ_STORE, line, sectors, off, len);
}

/* Runs every event, checking after each; everything must drain. */
static void run_all(struct env *e, bool check_each)
{
	uint64_t steps = 0;

	while (eventq_step(e->q)) {
		if (check_each)
			l1_check(e->l1);
		if (++steps > 100000000ull)
			fail_msg("runaway");
	}
	l1_check(e->l1);
	assert_true(l1_is_idle(e->l1));
	assert_int_equal(e->nmq, 0);
	assert_int_equal(req_pool_in_flight(e->pool), 0);
	assert_true(req_pool_is_drained(e->pool));
}

static double stat(const struct env *e, const char *name)
{
	double v;

	if (!stats_get(e->st, name, &v))
		fail_msg("no statistic %s", name);
	return v;
}

static uint32_t count_down(const struct env *e, enum mem_req_type type)
{
	uint32_t i, n = 0;

	for (i = 0; i < e->ndown; i++)
		n += e->down[i].type == type;
	return n;
}

/* SM pop cycle of an unloaded miss visible at v. */
static cycle_t miss_reply(const struct env *e, cycle_t v)
{
	return v + e->delay + e->p.fill_latency_cycles + e->p.hit_latency_cycles + 3;
}

static cycle_t hit_reply(const struct env *e, cycle_t v)
{
	return v + e->p.hit_latency_cycles + 1;
}

/* ---------------------------------------------------------------------------------------------
 * a. Latency
 */

static void test_hit_miss_latency(void **state)
{
	struct env *e = env_new(state);
	uint64_t a, b;

	env_start(e);
	/* Visible at 11: a line miss, pushed into miss_out at 11, popped by the memory at 12,
	 * back at 112, popped from fill_in at 113, filled at 117, reply pushed at 145, popped at
	 * 146 = 11 + 100 + 4 + 28 + 3. */
	a = load_at(e, 10, 0x1000, 0x1);
	/* Visible at 201: a hit, pushed at 229, popped at 230. */
	b = load_at(e, 200, 0x1000, 0x1);
	run_all(e, true);
	assert_int_equal(miss_reply(e, 11), 146);
	assert_int_equal(e->reply_at[a], 146);
	assert_int_equal(e->reply_at[b], hit_reply(e, 201));
	assert_int_equal(e->reply_at[b], 230);
	assert_int_equal(e->ndown, 1);
	assert_int_equal(e->down[0].type, MEM_REQ_LOAD);
	assert_int_equal(e->down[0].addr, 0x1000);
	assert_int_equal(e->down[0].sector_mask, 0x1);
	assert_int_equal(e->down[0].popped, 12);
	assert_int_equal(stat(e, "sm3.l1d.latency_hit.mean"), 28);
	assert_int_equal(stat(e, "sm3.l1d.latency_miss.mean"), 145 - 11);
	assert_int_equal(stat(e, "sm3.l1d.hits"), 1);
	assert_int_equal(stat(e, "sm3.l1d.line_misses"), 1);
	assert_int_equal(stat(e, "sm3.l1d.misses_sent"), 1);
	assert_int_equal(stat(e, "sm3.l1d.fills"), 1);
	assert_int_equal(stat(e, "sm3.l1d.fill_stalls"), 0);
	assert_int_equal(stat(e, "sm3.l1d.replies"), 2);
	assert_int_equal(stat(e, "sm3.l1d.cache.accesses"), 2);
	assert_int_equal(stat(e, "sm3.l1d.mshr.merges"), 0);
	print_message("# hit: visible 201 -> SM 230 (H = 28); miss: visible 11 -> SM 146 "
		      "(D = 100, FL = 4)\n");
}

/* ---------------------------------------------------------------------------------------------
 * b, c, d. MSHR: merge, sector miss, full, merge limit
 */

static void test_merge(void **state)
{
	struct env *e = env_new(state);
	uint64_t a, b;

	env_start(e);
	a = load_at(e, 10, 0x0, 0x1);
	b = load_at(e, 11, 0x0, 0x1);
	run_all(e, true);
	/* One miss; the fill at 117 satisfies both: pushed together at 145. */
	assert_int_equal(e->ndown, 1);
	assert_int_equal(e->reply_at[a], 146);
	assert_int_equal(e->reply_at[b], 146);
	assert_int_equal(stat(e, "sm3.l1d.mshr_merges"), 1);
	assert_int_equal(stat(e, "sm3.l1d.mshr.merges"), 1);
	assert_int_equal(stat(e, "sm3.l1d.misses_sent"), 1);
	assert_int_equal(stat(e, "sm3.l1d.latency_miss.count"), 2);
	assert_int_equal(stat(e, "sm3.l1d.sector_misses"), 1); /* b: line present, pending */
}

static void test_sector_miss(void **state)
{
	struct env *e = env_new(state);
	uint64_t a, b;

	env_start(e);
	a = load_at(e, 10, 0x800, 0x1);
	/* Sectors 0-3: 0 valid, 1-3 fetched by one miss for 0xe. */
	b = load_at(e, 300, 0x800, 0xf);
	run_all(e, true);
	assert_int_equal(e->reply_at[a], miss_reply(e, 11));
	assert_int_equal(e->reply_at[b], miss_reply(e, 301));
	assert_int_equal(e->ndown, 2);
	assert_int_equal(e->down[1].addr, 0x800);
	assert_int_equal(e->down[1].sector_mask, 0xe);
	assert_int_equal(stat(e, "sm3.l1d.sector_misses"), 1);
	assert_int_equal(stat(e, "sm3.l1d.line_misses"), 1);
}

static void test_mshr_full(void **state)
{
	struct env *e = env_new(state);
	uint64_t a, b;

	/* one line entry (one sector entry would be fewer than a line's sectors, which
	 * the params check refuses) */
	e->p.mshr.entries = 1;
	e->p.mshr.granularity = MSHR_GRAN_LINE;
	env_start(e);
	a = load_at(e, 10, 0x0, 0x1);
	/* Another line, visible at 12: no free entry; it waits at the head until a's fill at 117
	 * (fill port before lookups), is sent at 117 and replied at 117 + 135 = 252. */
	b = load_at(e, 11, 0x10000, 0x1);
	/* A load of a's line behind it, visible at 21, wakes the L1: the head is not tried again
	 * before a fill (one refusal counted in all), and c hits after a's fill. */
	load_at(e, 20, 0x0, 0x1);
	run_all(e, true);
	assert_int_equal(e->reply_at[a], 146);
	assert_int_equal(e->ndown, 2);
	assert_int_equal(e->down[1].addr, 0x10000);
	assert_int_equal(e->down[1].popped, 118);
	assert_int_equal(e->reply_at[b], miss_reply(e, 117));
	assert_int_equal(e->reply_at[b], 252);
	assert_int_equal(stat(e, "sm3.l1d.stall_mshr_full"), 117 - 12);
	assert_int_equal(stat(e, "sm3.l1d.mshr.fail_full"), 1);
	assert_int_equal(stat(e, "sm3.l1d.latency_miss.max"), 251 - 12);
}

static void test_merge_limit(void **state)
{
	struct env *e = env_new(state);
	uint64_t a, b, c;

	e->p.mshr.max_merge = 2;
	env_start(e);
	a = load_at(e, 10, 0x0, 0x1);
	b = load_at(e, 11, 0x0, 0x1);
	/* Visible at 13: the entry holds two; it waits until the fill at 117 and then hits:
	 * pushed at 145 with the other two. */
	c = load_at(e, 12, 0x0, 0x1);
	run_all(e, true);
	assert_int_equal(e->ndown, 1);
	assert_int_equal(e->reply_at[a], 146);
	assert_int_equal(e->reply_at[b], 146);
	assert_int_equal(e->reply_at[c], 146);
	assert_int_equal(stat(e, "sm3.l1d.stall_merge_limit"), 117 - 13);
	/* Tried at 13 only: the fill's arrival on fill_in woke the L1 at 113, but nothing can
	 * change the answer before the fill itself, at 117, and then c hits. */
	assert_int_equal(stat(e, "sm3.l1d.mshr.fail_merge"), 1);
	assert_int_equal(stat(e, "sm3.l1d.hits"), 1);
	assert_int_equal(stat(e, "sm3.l1d.latency_hit.mean"), 145 - 13);
}

/* ---------------------------------------------------------------------------------------------
 * e. Lookups per cycle
 */

static void burst(struct env *e, uint64_t *ids, cycle_t first_reply[2], cycle_t last_reply[2])
{
	uint32_t i;

	/* Warm four lines (four sets), then a 4-line burst of hits all visible at 501, then a
	 * 4-line burst of misses visible at 1001 (the uncoalesced instruction). */
	for (i = 0; i < 4; i++)
		load_at(e, 10 + i, (addr_t)i * 128, 0xf);
	run_all(e, true);
	for (i = 0; i < 4; i++)
		ids[i] = load_at(e, 500, (addr_t)i * 128, 0xf);
	for (i = 0; i < 4; i++)
		ids[4 + i] = load_at(e, 1000, 0x40000 + (addr_t)i * 128, 0xf);
	run_all(e, true);
	first_reply[0] = e->reply_at[ids[0]];
	last_reply[0] = e->reply_at[ids[3]];
	first_reply[1] = e->reply_at[ids[4]];
	last_reply[1] = e->reply_at[ids[7]];
}

static void test_lookups_per_cycle(void **state)
{
	struct env *e = env_new(state), *f;
	void *st2 = NULL;
	uint64_t ids[8];
	cycle_t first[2], last[2];
	uint32_t i;

	env_start(e);
	burst(e, ids, first, last);
	/* One lookup per cycle: hits looked up at 501..504, popped at 530..533. */
	for (i = 0; i < 4; i++)
		assert_int_equal(e->reply_at[ids[i]], hit_reply(e, 501 + i));
	/* Misses sent at 1001..1004 (the memory pops them at 1002..1005), one fill each cycle. */
	for (i = 0; i < 4; i++) {
		assert_int_equal(e->down[4 + i].popped, 1002 + i);
		assert_int_equal(e->reply_at[ids[4 + i]], miss_reply(e, 1001 + i));
	}
	print_message("# lookups 1: hit burst %" PRIu64 "..%" PRIu64 ", miss burst %" PRIu64
		      "..%" PRIu64 "\n", first[0], last[0], first[1], last[1]);

	f = env_new(&st2);
	f->p.lookups_per_cycle = 4;
	env_start(f);
	burst(f, ids, first, last);
	for (i = 0; i < 4; i++)
		assert_int_equal(f->reply_at[ids[i]], hit_reply(f, 501));
	/* All four sent at 1001; the four fills are ready at 1107 and the port writes one per
	 * cycle: 1107..1110, so the replies come one cycle apart (3 fill stalls, 2 + 1 + 0... ). */
	for (i = 0; i < 4; i++) {
		assert_int_equal(f->down[4 + i].popped, 1002);
		assert_int_equal(f->reply_at[ids[4 + i]], miss_reply(f, 1001) + i);
	}
	assert_int_equal(l1_stats(f->l1)->fill_stalls, 3 + 2 + 1);
	print_message("# lookups 4: hit burst %" PRIu64 "..%" PRIu64 ", miss burst %" PRIu64
		      "..%" PRIu64 "\n", first[0], last[0], first[1], last[1]);
	env_free(&st2);
}

/* Four lookups per cycle but 4 data banks of one sector each: four whole-line hits need every
 * bank, so they go one per cycle (three conflicts); four one-sector hits to sectors 0..3 of
 * different lines use distinct banks and go in one cycle. */
static void test_data_banks(void **state)
{
	struct env *e = env_new(state);
	uint64_t ids[4];
	uint32_t i;

	e->p.lookups_per_cycle = 4;
	e->p.data_banks = 4;
	env_start(e);
	for (i = 0; i < 4; i++)
		load_at(e, 10 + i, (addr_t)i * 128, 0xf);
	run_all(e, true);
	for (i = 0; i < 4; i++)
		ids[i] = load_at(e, 500, (addr_t)i * 128, 0xf);
	run_all(e, true);
	for (i = 0; i < 4; i++)
		assert_int_equal(e->reply_at[ids[i]], hit_reply(e, 501 + i));
	assert_int_equal(l1_stats(e->l1)->bank_conflicts, 3);
	/* Line i, sector i: bank (4 i + i) mod 4 = i, all distinct. */
	for (i = 0; i < 4; i++)
		ids[i] = load_at(e, 700, (addr_t)i * 128, 1u << i);
	run_all(e, true);
	for (i = 0; i < 4; i++)
		assert_int_equal(e->reply_at[ids[i]], hit_reply(e, 701));
	assert_int_equal(l1_stats(e->l1)->bank_conflicts, 3);
	assert_int_equal(l1_params_check(&(struct l1_params){ .cache = e->p.cache,
							      .mshr = e->p.mshr,
							      .lookups_per_cycle = 1 },
					 "l1", &(struct sim_err){ 0 }), -1);
}

/* A 64 B/cycle data path: a whole-line hit (4 sectors, 128 B) holds it two cycles, so four of
 * them, all visible at 501, go at 501, 503, 505, 507 (the head waits 2 cycles for each of the
 * last three); two-sector hits (64 B) go one a cycle; with two lookups a cycle, two one-sector
 * hits (32 B each) share a cycle and a third waits for the next. */
static void test_data_width(void **state)
{
	struct env *e = env_new(state), *f;
	void *st2 = NULL;
	uint64_t ids[4];
	uint32_t i;

	e->p.data_bytes_per_cycle = 64;
	env_start(e);
	for (i = 0; i < 4; i++)
		load_at(e, 10 + 4 * i, (addr_t)i * 128, 0xf);
	run_all(e, true);
	for (i = 0; i < 4; i++)
		ids[i] = load_at(e, 500, (addr_t)i * 128, 0xf);
	run_all(e, true);
	for (i = 0; i < 4; i++)
		assert_int_equal(e->reply_at[ids[i]], hit_reply(e, 501 + 2 * i));
	assert_int_equal(l1_stats(e->l1)->data_port_waits, 2 + 2 + 2);
	for (i = 0; i < 4; i++)
		ids[i] = load_at(e, 700, (addr_t)i * 128, 0x3);
	run_all(e, true);
	for (i = 0; i < 4; i++)
		assert_int_equal(e->reply_at[ids[i]], hit_reply(e, 701 + i));

	f = env_new(&st2);
	f->p.data_bytes_per_cycle = 64;
	f->p.lookups_per_cycle = 2;
	env_start(f);
	for (i = 0; i < 4; i++)
		load_at(f, 10 + 4 * i, (addr_t)i * 128, 0xf);
	run_all(f, true);
	ids[0] = load_at(f, 900, 0, 0x1);
	ids[1] = load_at(f, 900, 128, 0x2);
	ids[2] = load_at(f, 900, 256, 0x4);
	run_all(f, true);
	assert_int_equal(f->reply_at[ids[0]], hit_reply(f, 901));
	assert_int_equal(f->reply_at[ids[1]], hit_reply(f, 901));
	assert_int_equal(f->reply_at[ids[2]], hit_reply(f, 902));
	env_free(&st2);
}

/* ---------------------------------------------------------------------------------------------
 * f. Write policies
 */

static void test_write_no_allocate(void **state)
{
	struct env *e = env_new(state);
	struct cache_line_info li;
	uint64_t s1, ld, s2, s3, hit, part;

	env_start(e);
	/* A store of bytes 4-11 to an absent line: no allocation; the write goes down with its
	 * byte mask at 11 and the SM gets the ack at 12. */
	s1 = store_at(e, 10, 0x2000, 4, 8);
	run_all(e, true);
	assert_false(cache_line(l1_cache(e->l1), 0x2000, &li));
	assert_int_equal(e->reply_at[s1], 12);
	assert_int_equal(e->ndown, 1);
	assert_int_equal(e->down[0].type, MEM_REQ_STORE);
	assert_int_equal(e->down[0].addr, 0x2000);
	assert_int_equal(e->down[0].sector_mask, 0x1);
	assert_int_equal(e->down[0].byte_mask[0], 0xff0ull);
	assert_int_equal(e->down[0].byte_mask[1], 0);
	assert_int_equal(e->down[0].popped, 12);
	assert_int_equal(stat(e, "sm3.l1d.store_acks"), 1);
	assert_int_equal(stat(e, "sm3.l1d.writes_sent"), 1);
	assert_int_equal(stat(e, "sm3.l1d.latency_store.mean"), 0);

	/* Load sector 0 of 0x3000 (allocates it), then a store of all of sector 1 (bytes 32-63)
	 * makes sector 1 valid without a fetch: a later load of sector 1 hits. */
	ld = load_at(e, 300, 0x3000, 0x1);
	s2 = store_at(e, 500, 0x3000, 32, 32);
	hit = load_at(e, 600, 0x3000, 0x2);
	/* A partial store to valid sector 0 keeps it valid (and clean). */
	s3 = store_at(e, 700, 0x3000, 0, 4);
	part = load_at(e, 800, 0x3000, 0x1);
	run_all(e, true);
	assert_int_equal(e->reply_at[ld], miss_reply(e, 301));
	assert_int_equal(e->reply_at[s2], 502);
	assert_int_equal(e->reply_at[hit], hit_reply(e, 601));
	assert_int_equal(e->reply_at[s3], 702);
	assert_int_equal(e->reply_at[part], hit_reply(e, 801));
	assert_true(cache_line(l1_cache(e->l1), 0x3000, &li));
	assert_int_equal(li.valid, 0x3);
	assert_int_equal(li.dirty, 0);
	assert_int_equal(count_down(e, MEM_REQ_STORE), 3);
	assert_int_equal(count_down(e, MEM_REQ_LOAD), 1);
	assert_int_equal(e->down[2].byte_mask[0], 0xffffffff00000000ull);
	assert_int_equal(stat(e, "sm3.l1d.stores"), 3);
	assert_int_equal(stat(e, "sm3.l1d.store_acks"), 3);
	assert_int_equal(stat(e, "sm3.l1d.hits"), 3); /* s3 (bytes present), hit, part */
}

/* l1.store_ack = "l2": the SM's store is acknowledged when the L2's ack of its write comes
 * back, not when the write enters the crossbar. A store visible at v = 11: its write is pushed
 * into miss_out at 11, popped by the memory at 12 and acked on fill_in at 112 (D = 100),
 * popped from fill_in at 113, where the original is pushed on resp: the SM has it at 114
 * (crossbar: 12). Until then the L1 holds it (not idle). */
static void test_store_ack_l2(void **state)
{
	struct env *e = env_new(state);
	uint64_t s1, s2, ld;

	e->p.store_ack = L1_STORE_ACK_L2;
	env_start(e);
	s1 = store_at(e, 10, 0x2000, 0, 32);
	/* two stores to one line, one cycle apart: each waits for its own ack */
	s2 = store_at(e, 11, 0x2000, 32, 32);
	/* a load behind them is not held up by the stores' acks */
	ld = load_at(e, 12, 0x4000, 0x1);
	while (eventq_now(e->q) < (tick_t)50 * CORE_PS && eventq_step(e->q))
		l1_check(e->l1);
	assert_false(l1_is_idle(e->l1));
	run_all(e, true);
	assert_int_equal(e->reply_at[s1], 11 + e->delay + 3);
	assert_int_equal(e->reply_at[s2], 12 + e->delay + 3);
	assert_int_equal(e->reply_at[ld], miss_reply(e, 13));
	assert_int_equal(count_down(e, MEM_REQ_STORE), 2);
	assert_int_equal(stat(e, "sm3.l1d.store_acks"), 2);
	assert_int_equal(stat(e, "sm3.l1d.writes_sent"), 2);
}

static void test_write_allocate(void **state)
{
	struct env *e = env_new(state);
	struct cache_line_info li;
	uint64_t s, hit, miss;

	e->p.write_policy = L1_WRITE_THROUGH_ALLOCATE;
	env_start(e);
	/* All of sector 2 and bytes 0-3 of sector 0 to an absent line: allocated without a fetch;
	 * sector 2 valid, the partial sector 0 not kept (cleaned to INVALID: l1.c). */
	s = issue_at(e, 10, MEM_REQ_STORE, 0x4000, 0x5, 0, 4);
	e->ev[e->nev - 1].r->byte_mask[1] = 0xffffffffull; /* bytes 64-95 */
	hit = load_at(e, 100, 0x4000, 0x4);
	miss = load_at(e, 200, 0x4000, 0x1);
	run_all(e, true);
	assert_int_equal(e->reply_at[s], 12);
	assert_int_equal(e->reply_at[hit], hit_reply(e, 101));
	assert_int_equal(e->reply_at[miss], miss_reply(e, 201));
	assert_true(cache_line(l1_cache(e->l1), 0x4000, &li));
	assert_int_equal(li.valid, 0x5); /* sector 0 fetched by the miss */
	assert_int_equal(li.dirty, 0);
	assert_int_equal(e->down[0].type, MEM_REQ_STORE);
	assert_int_equal(e->down[0].sector_mask, 0x5);
	assert_int_equal(e->down[0].byte_mask[1], 0xffffffffull);
	assert_int_equal(stat(e, "sm3.l1d.sector_misses"), 1);
}

/* ---------------------------------------------------------------------------------------------
 * g, h, i. Fill port, stage stamps, miss queue full
 */

static void test_fill_contention(void **state)
{
	struct env *e = env_new(state);
	uint64_t a, b;

	e->p.lookups_per_cycle = 2;
	env_start(e);
	/* Both visible at 11, both sent at 11, back together, ready at F = 117: one is filled at
	 * 117, the other at 118. */
	a = load_at(e, 10, 0x0, 0x1);
	b = load_at(e, 10, 0x80, 0x1);
	run_all(e, true);
	assert_int_equal(e->down[0].popped, 12);
	assert_int_equal(e->down[1].popped, 12);
	assert_int_equal(e->reply_at[a], 146);
	assert_int_equal(e->reply_at[b], 147);
	assert_int_equal(stat(e, "sm3.l1d.fill_stalls"), 1);
	assert_int_equal(stat(e, "sm3.l1d.fills"), 2);
	/* With two fills per cycle, no stall. */
}

static void test_fill_two_ports(void **state)
{
	struct env *e = env_new(state);
	uint64_t a, b;

	e->p.lookups_per_cycle = 2;
	e->p.fills_per_cycle = 2;
	env_start(e);
	a = load_at(e, 10, 0x0, 0x1);
	b = load_at(e, 10, 0x80, 0x1);
	run_all(e, true);
	assert_int_equal(e->reply_at[a], 146);
	assert_int_equal(e->reply_at[b], 146);
	assert_int_equal(stat(e, "sm3.l1d.fill_stalls"), 0);
}

static void test_stage_stamps(void **state)
{
	struct env *e = env_new(state);
	const struct mem_req *r;
	uint64_t a, b;

	env_start(e);
	a = load_at(e, 10, 0x0, 0x1);
	/* Merges at 51, after the miss entered the "crossbar" (12) and the "L2" (12). */
	b = load_at(e, 50, 0x0, 0x1);
	run_all(e, true);
	r = &e->seen[a];
	assert_int_equal(r->stamp[MEM_STAGE_L1_ACCESS], 11 * CORE_PS);
	assert_int_equal(r->stamp[MEM_STAGE_L1_MISS], 11 * CORE_PS);
	assert_int_equal(r->stamp[MEM_STAGE_XBAR_REQ], 12 * CORE_PS);
	assert_int_equal(r->stamp[MEM_STAGE_L2_ACCESS], 12 * CORE_PS);
	assert_int_equal(r->stamp[MEM_STAGE_L2_MISS], TICK_NEVER);
	assert_int_equal(r->stamp[MEM_STAGE_XBAR_REPLY], 112 * CORE_PS);
	assert_int_equal(r->stamp[MEM_STAGE_L1_FILL], 117 * CORE_PS);
	assert_int_equal(req_stage_delta(r, MEM_STAGE_L1_MISS, MEM_STAGE_XBAR_REQ), CORE_PS);
	assert_int_equal(req_stage_delta(r, MEM_STAGE_XBAR_REQ, MEM_STAGE_XBAR_REPLY),
			 e->delay * CORE_PS);
	assert_int_equal(req_stage_delta(r, MEM_STAGE_XBAR_REPLY, MEM_STAGE_L1_FILL),
			 (1 + e->p.fill_latency_cycles) * CORE_PS);
	assert_int_equal(req_stage_delta(r, MEM_STAGE_L1_ACCESS, MEM_STAGE_L1_FILL),
			 (117 - 11) * CORE_PS);
	assert_int_equal(r->stage, MEM_STAGE_L1_FILL);
	/* The late merge gets only the stages after it joined. */
	r = &e->seen[b];
	assert_int_equal(r->stamp[MEM_STAGE_L1_MISS], 51 * CORE_PS);
	assert_int_equal(r->stamp[MEM_STAGE_XBAR_REQ], TICK_NEVER);
	assert_int_equal(r->stamp[MEM_STAGE_L2_ACCESS], TICK_NEVER);
	assert_int_equal(r->stamp[MEM_STAGE_XBAR_REPLY], 112 * CORE_PS);
	assert_int_equal(req_stage_delta(r, MEM_STAGE_L1_MISS, MEM_STAGE_XBAR_REPLY),
			 (112 - 51) * CORE_PS);
	assert_int_equal(e->reply_at[b], 146);
}

static void test_miss_queue_full(void **state)
{
	struct env *e = env_new(state);
	uint64_t ids[6];
	uint32_t i;

	e->p.miss_queue = 1;
	e->miss_out_cap = 2;
	e->mem_hold_until = 100;
	env_start(e);
	/* Six misses visible at 11..16: two fill miss_out (sent at 11, 12), the third waits in
	 * the miss queue (refused from 13 on), the fourth stalls the head from 14 until the
	 * memory starts popping at 100. The L1 is awake every cycle its miss queue may drain, and
	 * a head refused for it is not looked up again until a slot is free (level_head_waits):
	 * 88 stall cycles, as when it was looked up every cycle; a head taken a cycle late would
	 * add to them. */
	for (i = 0; i < 6; i++)
		ids[i] = load_at(e, 10 + i, (addr_t)i * 128, 0x1);
	run_all(e, true);
	for (i = 0; i < 6; i++)
		assert_int_equal(e->replies[ids[i]], 1);
	assert_int_equal(e->down[0].popped, 100);
	assert_int_equal(stat(e, "sm3.l1d.stall_miss_queue_full"), 88);
	assert_true(stat(e, "sm3.l1d.miss_out_stalls") > 0);
	assert_int_equal(stat(e, "sm3.l1d.misses_sent"), 6);
	print_message("# miss queue full: stall %.0f cycles, miss_out refused %.0f cycles\n",
		      stat(e, "sm3.l1d.stall_miss_queue_full"), stat(e, "sm3.l1d.miss_out_stalls"));
}

/* The SM stops popping replies until cycle 400 (resp holds 1): store acks back up until the
 * head store waits ("reply full"), then load hits fill the reply pipeline (hit latency 1: 4
 * slots) and the head load waits. The L1 sleeps while it waits (resp's pop wakes it), and every
 * reply comes, in order. */
static void test_reply_backpressure(void **state)
{
	struct env *e = env_new(state);
	uint64_t ids[16], warm;
	uint32_t i;
	cycle_t last = 0;

	e->p.miss_queue = 2;
	e->p.hit_latency_cycles = 1;
	e->resp_cap = 1;
	env_start(e);
	warm = load_at(e, 1, 0x8000, 0x1);
	run_all(e, true);
	e->sink_hold_until = 400;
	clock_wake(e->sink);
	/* Stores visible at 301..308: 301's ack takes resp's one slot, 302 and 303 wait as acks
	 * (miss_queue 2 bounds the stores not yet acked), 304 stalls from 304 to 400. */
	for (i = 0; i < 8; i++)
		ids[i] = store_at(e, 300 + i, 0x10000 + (addr_t)i * 128, 0, 4);
	for (i = 8; i < 16; i++)
		ids[i] = load_at(e, 300 + i, 0x8000, 0x1);
	run_all(e, true);
	for (i = 0; i < 16; i++) {
		assert_int_equal(e->replies[ids[i]], 1);
		assert_true(e->reply_at[ids[i]] > last);
		last = e->reply_at[ids[i]];
	}
	assert_int_equal(e->reply_at[warm], miss_reply(e, 2));
	assert_int_equal(e->reply_at[ids[0]], 400);
	assert_true(stat(e, "sm3.l1d.stall_reply_full") >= 400 - 304);
	assert_true(stat(e, "sm3.l1d.reply_stalls") > 0);
	assert_int_equal(stat(e, "sm3.l1d.store_acks"), 8);
	print_message("# reply backpressure: stall_reply_full %.0f, reply_stalls %.0f, last reply "
		      "%" PRIu64 ", L1 ticks %" PRIu64 "\n", stat(e, "sm3.l1d.stall_reply_full"),
		      stat(e, "sm3.l1d.reply_stalls"), last, clock_unit_ticks(l1_unit(e->l1)));
	/* Asleep during the hold: far fewer ticks than the 96 cycles it lasted. */
	assert_true(clock_unit_ticks(l1_unit(e->l1)) < 80);
}

/* ---------------------------------------------------------------------------------------------
 * j. Conservation and determinism
 */

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Pushes one random request per cycle while `in` has room. */
static void feeder_tick(void *unit, cycle_t now)
{
	struct env *e = unit;
	struct mem_req *r;
	uint64_t x;
	addr_t line;

	(void)now;
	if (e->feed_left == 0) {
		clock_sleep(e->feeder);
		return;
	}
	if (!link_can_push(e->in))
		return;
	x = xorshift(&e->rng);
	line = (x % (e->footprint / 128)) * 128;
	if ((x >> 32) % 4 == 0) {
		uint32_t s = (uint32_t)(x >> 40) % 4, off = (uint32_t)(x >> 44) % 32;
		uint32_t len = 1 + (uint32_t)(x >> 50) % (32 - off);

		r = new_req(e, MEM_REQ_STORE, line, 1u << s, s * 32 + off, len);
	} else {
		uint32_t m = (uint32_t)(x >> 40) % 15 + 1;

		r = new_req(e, MEM_REQ_LOAD, line, m, 0, 0);
	}
	link_push(e->in, r);
	e->feed_left--;
}

static void random_run(struct env *e, uint32_t n, uint64_t seed, addr_t footprint)
{
	e->p.mshr.entries = 8;
	e->p.mshr.max_merge = 2;
	e->p.miss_queue = 4;
	e->p.lookups_per_cycle = 2;
	e->p.fills_per_cycle = 1;
	e->p.hit_latency_cycles = 20;
	e->miss_out_cap = 2;
	e->mem_per_cycle = 1;
	e->delay = 30;
	e->slice_skew = 7;  /* slices answer out of order */
	e->sink_per_cycle = 1;
	e->resp_cap = 2;
	env_start(e);
	e->rng = seed;
	e->footprint = footprint;
	e->feed_left = n;
	e->feeder = clock_attach(e->clk, "feeder", feeder_tick, e);
	clock_wake(e->feeder);
	run_all(e, true);
}

/* Every request replied exactly once, the counters add up, everything drained. */
static void check_conserved(struct env *e, uint32_t n, const char *what)
{
	const struct l1_stats *s = l1_stats(e->l1);
	uint32_t i;

	for (i = 1; i <= n; i++)
		assert_int_equal(e->replies[i], 1);
	assert_int_equal(e->nreplies, n);
	assert_int_equal(s->accesses, n);
	assert_int_equal(s->loads + s->stores, n);
	assert_int_equal(s->replies, n);
	assert_int_equal(s->hits + s->sector_misses + s->line_misses, n);
	assert_int_equal(s->misses_sent, s->fills);
	assert_int_equal(s->writes_sent, s->stores);
	assert_int_equal(s->store_acks, s->stores);
	assert_int_equal(count_down(e, MEM_REQ_LOAD), s->misses_sent);
	assert_int_equal(count_down(e, MEM_REQ_STORE), s->writes_sent);
	assert_true(mshr_is_empty(l1_mshr(e->l1)));
	assert_true(req_pool_is_drained(e->pool));
	print_message("# %s: %u requests, %" PRIu64 " hits, %" PRIu64 " misses sent, %" PRIu64
		      " merges, stalls: mshr %" PRIu64 " merge %" PRIu64 " no-line %" PRIu64
		      " mq %" PRIu64 " reply %" PRIu64 ", fill stalls %" PRIu64 ", miss_out stalls %"
		      PRIu64 ", reply stalls %" PRIu64 ", last cycle %" PRIu64 "\n", what, n,
		      s->hits, s->misses_sent, s->mshr_merges, s->stall_mshr_full,
		      s->stall_merge_limit, s->stall_no_line, s->stall_miss_queue_full,
		      s->stall_reply_full, s->fill_stalls, s->miss_out_stalls, s->reply_stalls,
		      clock_cycle(e->clk));
}

/* 64 KB (4x the L1) of random loads and stores: capacity misses, MSHR-full stalls, fill-port,
 * crossbar-input and reply contention, out-of-order returns. */
static void test_conservation(void **state)
{
	struct env *e = env_new(state);
	const struct l1_stats *s;
	uint32_t n = 6000;

	random_run(e, n, 0x9e3779b97f4a7c15ull, 64 * 1024);
	check_conserved(e, n, "conservation 64 KB");
	s = l1_stats(e->l1);
	assert_true(s->stall_mshr_full > 0);
	assert_true(s->fill_stalls > 0);
	assert_true(s->reply_stalls > 0);
	assert_true(s->miss_out_stalls > 0);
	assert_true(s->mshr_merges > 0);
	assert_true(s->hits > 0);
}

/* 4 KB (32 lines) over a 2 KB L1 (4 sets of 4 ways), line-granular MSHRs, write-allocate:
 * merges, merge-limit stalls, sets whose every way is reserved. */
static void test_conservation_hot(void **state)
{
	struct env *e = env_new(state);
	const struct l1_stats *s;
	uint32_t n = 6000;

	e->p.mshr.granularity = MSHR_GRAN_LINE;
	e->p.write_policy = L1_WRITE_THROUGH_ALLOCATE;
	e->p.cache.size_kb = 2; /* 2 KB / (128 B x 4) = 4 sets */
	random_run(e, n, 777, 4 * 1024);
	check_conserved(e, n, "conservation hot");
	s = l1_stats(e->l1);
	assert_true(s->stall_merge_limit > 0);
	assert_true(s->stall_no_line > 0);
	assert_true(s->stall_miss_queue_full > 0);
	assert_true(s->mshr_merges > 0);
}

static void test_determinism(void **state)
{
	struct env *a = env_new(state), *b;
	uint32_t i, n = 3000;
	void *st2 = NULL;

	random_run(a, n, 12345, 64 * 1024);
	b = env_new(&st2);
	random_run(b, n, 12345, 64 * 1024);
	for (i = 1; i <= n; i++)
		assert_int_equal(a->reply_at[i], b->reply_at[i]);
	assert_int_equal(a->ndown, b->ndown);
	for (i = 0; i < a->ndown; i++) {
		assert_int_equal(a->down[i].addr, b->down[i].addr);
		assert_int_equal(a->down[i].popped, b->down[i].popped);
	}
	assert_memory_equal(l1_stats(a->l1), l1_stats(b->l1), sizeof(struct l1_stats));
	env_free(&st2);
}

static void test_params_check(void **state)
{
	struct env *e = env_new(state);
	struct sim_err err;

	memset(&err, 0, sizeof err);
	assert_int_equal(l1_params_check(&e->p, "l1", &err), 0);
	e->p.cache.line_bytes = 256;
	e->p.cache.size_kb = 32;
	assert_int_equal(l1_params_check(&e->p, "l1", &err), -1);
	assert_non_null(strstr(err.msg, "l1.cache.line_bytes"));
	params_default(e);
	e->p.cache.sector_bytes = 48;
	assert_int_equal(l1_params_check(&e->p, "l1", &err), -1);
	assert_non_null(strstr(err.msg, "l1.cache.sector_bytes"));
	/* sector MSHR entries: at least a line's 4 sectors, which a whole-line miss takes at once */
	params_default(e);
	e->p.mshr.granularity = MSHR_GRAN_SECTOR;
	e->p.mshr.entries = 4;
	assert_int_equal(l1_params_check(&e->p, "l1", &err), 0);
	e->p.mshr.entries = 3;
	assert_int_equal(l1_params_check(&e->p, "l1", &err), -1);
	assert_non_null(strstr(err.msg, "l1.mshr.entries: at least the 4 sectors"));
	e->p.mshr.granularity = MSHR_GRAN_LINE;
	e->p.mshr.entries = 1;
	assert_int_equal(l1_params_check(&e->p, "l1", &err), 0);
	assert_int_equal(l1_nfields, L1_NFIELDS);
	assert_string_equal(l1_write_policy_names[L1_WRITE_THROUGH_NO_ALLOCATE],
			    "write_through_no_allocate");
	assert_null(l1_write_policy_names[L1_WRITE_POLICY_COUNT]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_hit_miss_latency, env_free),
		cmocka_unit_test_teardown(test_merge, env_free),
		cmocka_unit_test_teardown(test_sector_miss, env_free),
		cmocka_unit_test_teardown(test_mshr_full, env_free),
		cmocka_unit_test_teardown(test_merge_limit, env_free),
		cmocka_unit_test_teardown(test_lookups_per_cycle, env_free),
		cmocka_unit_test_teardown(test_data_banks, env_free),
		cmocka_unit_test_teardown(test_data_width, env_free),
		cmocka_unit_test_teardown(test_write_no_allocate, env_free),
		cmocka_unit_test_teardown(test_store_ack_l2, env_free),
		cmocka_unit_test_teardown(test_write_allocate, env_free),
		cmocka_unit_test_teardown(test_fill_contention, env_free),
		cmocka_unit_test_teardown(test_fill_two_ports, env_free),
		cmocka_unit_test_teardown(test_stage_stamps, env_free),
		cmocka_unit_test_teardown(test_miss_queue_full, env_free),
		cmocka_unit_test_teardown(test_reply_backpressure, env_free),
		cmocka_unit_test_teardown(test_conservation, env_free),
		cmocka_unit_test_teardown(test_conservation_hot, env_free),
		cmocka_unit_test_teardown(test_determinism, env_free),
		cmocka_unit_test_teardown(test_params_check, env_free),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
