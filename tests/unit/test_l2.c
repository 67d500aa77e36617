/*
 * test_l2.c - one L2 slice (l2.c) with a real event queue, clocks, links and a real DRAM
 * controller below it, on exact cycles.
 *
 * Harness. L2 clock 725 ps; DRAM GDDR6 at 14 Gb/s (tCK 571 ps: CL 24, tRCDRD 27, burst 2),
 * refresh off, open page, one or two channels; address map "row:col:ba:bg:pc:ch", 256 B
 * interleave, no hashing. Requests come from a req_pool and are pushed on `in` (latency 1, an
 * L2-domain link) by an event half an L2 cycle after edge c, so they are visible at c + 1. A
 * stub consumer unit in the L2 domain pops reply_out (latency 1) and records the cycle: a reply
 * pushed at L2 cycle p is popped at p + 1. The slice is a port of each controller (its input
 * link, latency 1; its reads come back on the slice's fill link); the controllers' done callback
 * logs every access. The DRAM domain is created first, as gpu/sim.c does (shared edges fire in
 * domain order).
 *
 * Latency formulas (l2.c): a hit or store visible at v is pushed at v + H (H = hit latency); a
 * load miss visible at v is sent to the MC at tick v x 725, arrives at DRAM cycle
 * a = floor(v x 725 / 571) (its arrival; the controller takes it at a + 1), and on a closed bank
 * completes at D = a + 1 + tRCDRD + CL + burst (test_mc); its fill is at
 * F = floor(D x 571 / 725) + fill latency and its reply is pushed at F + H.
 *
 *   a. hit and store-ack latency, exact (also with store_ack_cycles: acks overtake hits);
 *   b. miss latency, exact, and the latency distributions;
 *   c. two loads to one sector: one DRAM read, both replied by the same fill;
 *   d. MSHR full (1 entry): the second miss waits at the head, counted, and proceeds at the fill;
 *   e. merge limit: the third load waits and hits after the fill;
 *   f. dirty eviction: DRAM writes of exactly the dirty sectors, the partial one marked;
 *   g. partial write, then a read of a written byte (hit) and of an unwritten one (fetch+merge);
 *   h. conservation under load: random loads and stores over two channels, small MSHR, miss
 *      queue, MC queues and a slow reply consumer; every request replied exactly once, l2_check
 *      after every event, everything idle at the end;
 *      (also with a store-ack latency of its own);
 *   i. determinism: two identical runs, identical reply cycles and statistics.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "addrmap.h"
#include "cache.h"
#include "clock.h"
#include "dram.h"
#include "eventq.h"
#include "l2.h"
#include "link.h"
#include "mc.h"
#include "mshr.h"
#include "req.h"
#include "slice_hash.h"
#include "stats.h"

/* ---------------------------------------------------------------------------------------------
 * Harness
 */

#define L2_PS 725
#define MAX_REQ 8192
#define MAX_DRAM 16384
#define MAX_MC 2

struct dram_rec {
	addr_t addr;
	bool is_write, partial;
	cycle_t arrival, done;
};

struct env;

struct push_ev {
	struct env *e;
	struct mem_req *r;
	struct link *to;  /* NULL: the env's `in` (it must have room); else retried until it has */
};

struct env {
	struct dram_spec s;
	struct mc_params mp;
	struct addrmap map;
	struct l2_params p;
	struct eventq *q;
	struct clock *l2clk, *dclk;
	struct stats *st;
	struct req_pool *pool;
	struct mc *mc[MAX_MC];
	struct link *mc_in[MAX_MC];
	uint32_t nmc;
	struct link *in, *out, *fill;
	struct l2 *l2;
	struct clock_unit *sink;
	uint32_t sink_per_cycle;  /* replies popped per cycle (0: all) */
	uint32_t out_cap;         /* reply_out capacity (0: 64) */
	/* requests issued by issue_at, by index */
	struct push_ev ev[MAX_REQ];
	uint32_t nev;
	/* replies: per request id (ids start at 1) */
	uint32_t replies[MAX_REQ + 1];
	cycle_t reply_at[MAX_REQ + 1];
	uint64_t nreplies;
	struct dram_rec dram[MAX_DRAM];
	uint32_t ndram;
	/* random feeder */
	struct clock_unit *feeder;
	uint32_t feed_left;
	uint64_t rng;
	addr_t footprint;
};

#define T(e, x) ((cycle_t)(e)->s.t[DRAM_T_##x])

static void on_done(void *ctx, const struct mc_access *a, cycle_t arrival, cycle_t done)
{
	struct env *e = ctx;

	if (e->ndram < MAX_DRAM) {
		struct dram_rec *d = &e->dram[e->ndram++];

		d->addr = a->addr;
		d->is_write = a->is_write;
		d->partial = a->partial;
		d->arrival = arrival;
		d->done = done;
	}
}

static void sink_tick(void *unit, cycle_t now)
{
	struct env *e = unit;
	uint32_t n = 0;
	struct mem_req *r;

	while ((e->sink_per_cycle == 0 || n < e->sink_per_cycle) &&
	       (r = link_peek(e->out)) != NULL) {
		link_pop(e->out);
		assert_true(r->is_reply);
		assert_true(r->id <= MAX_REQ);
		e->replies[r->id]++;
		e->reply_at[r->id] = now;
		e->nreplies++;
		req_free(e->pool, r, eventq_now(e->q));
		n++;
	}
	if (link_peek(e->out) == NULL)
		clock_sleep(e->sink);
}

static void params_default(struct env *e)
{
	struct l2_params *p = &e->p;

	memset(p, 0, sizeof *p);
	p->cache.size_kb = 16;        /* 16 KB / (128 B x 4 ways) = 32 sets */
	p->cache.line_bytes = 128;
	p->cache.sector_bytes = 32;
	p->cache.assoc = 4;
	p->cache.index = CACHE_INDEX_LINEAR;
	p->cache.replacement = CACHE_REPL_LRU;
	p->mshr.entries = 32;
	p->mshr.max_merge = 4;
	p->mshr.granularity = MSHR_GRAN_SECTOR;
	p->hit_latency_cycles = 100;
	p->fill_latency_cycles = 10;
	p->lookups_per_cycle = 1;
	p->fills_per_cycle = 1;
	p->miss_queue = 16;

	memset(&e->mp, 0, sizeof e->mp);
	e->mp.scheduler = 0; /* frfcfs */
	e->mp.read_queue = 32;
	e->mp.write_queue = 32;
	e->mp.write_high = 24;
	e->mp.write_low = 8;
	e->mp.row_hit_cap = 16;
	e->mp.page_policy = MC_PAGE_OPEN;
	e->mp.refresh = MC_REFRESH_OFF;
	e->mp.refresh_postpone = 8;
	e->mp.ecc = MC_ECC_OFF;
	e->mp.ecc_cache_entries = 32;
	e->out_cap = 0;
}

static struct env *env_new(void **state, uint32_t channels)
{
	struct env *e = calloc(1, sizeof *e);
	struct dram_params dp;
	struct dram_timing_params tp;
	struct sim_err err;

	assert_non_null(e);
	*state = e;
	memset(&dp, 0, sizeof dp);
	memset(&tp, 0, sizeof tp);
	memset(&err, 0, sizeof err);
	dp.standard = DRAM_STD_GDDR6;
	dp.data_rate_gbps = 14.0;
	dp.channels = channels;
	dp.bank_group_mode = true;
	if (dram_spec_resolve(&e->s, &dp, &tp, &err) != 0)
		fail_msg("dram_spec_resolve: %s", err.msg);
	e->nmc = channels;
	params_default(e);
	return e;
}

/* The DRAM map of the test: row:col:ba:bg:pc:ch, 256 B interleave, over `channels` channels
 * of the env's DRAM. */
static void map_init(struct env *e, struct addrmap *map, uint32_t channels)
{
	struct addrmap_params ap;
	struct addrmap_geom g;
	struct sim_err err;

	memset(&ap, 0, sizeof ap);
	memset(&err, 0, sizeof err);
	snprintf(ap.order, sizeof ap.order, "row:col:ba:bg:pc:ch");
	ap.interleave_bytes = 256;
	mc_map_geom(&e->mp, &e->s, channels, &g);
	if (addrmap_init(map, &ap, &g, &err) != 0)
		fail_msg("addrmap_init: %s", err.msg);
}

static void env_start(struct env *e)
{
	struct sim_err err;
	uint32_t i, ports[MAX_MC];
	char prefix[16];

	memset(&err, 0, sizeof err);
	if (l2_params_check(&e->p, "l2", &err) != 0)
		fail_msg("l2_params_check: %s", err.msg);
	if (mc_params_check(&e->mp, &e->s, &err) != 0)
		fail_msg("mc_params_check: %s", err.msg);
	map_init(e, &e->map, e->s.channels);
	e->q = eventq_create();
	e->dclk = clock_create(e->q, "dram", e->s.tck_ps);
	e->l2clk = clock_create(e->q, "l2", L2_PS);
	e->st = stats_create();
	e->pool = req_pool_create(256);
	for (i = 0; i < e->nmc; i++) {
		snprintf(prefix, sizeof prefix, "mc%u", i);
		e->mc[i] = mc_create(&e->mp, &e->s, i, e->dclk, on_done, e, e->st, prefix);
		e->mc_in[i] = link_create(prefix, e->mp.read_queue + e->mp.write_queue, 1, e->dclk,
					  NULL);
		mc_set_input(e->mc[i], e->mc_in[i]);
		mc_set_map(e->mc[i], &e->map, 0, 0);
	}
	e->in = link_create("xbar_to_l2", 8, 1, e->l2clk, NULL);
	e->sink = clock_attach(e->l2clk, "sink", sink_tick, e);
	e->out = link_create("l2_to_xbar", e->out_cap ? e->out_cap : 64, 1, e->l2clk, e->sink);
	e->fill = link_create("fill", l2_reads_max(&e->p), e->p.fill_latency_cycles, e->l2clk,
			      NULL);
	e->l2 = l2_create(&e->p, 0, e->l2clk, e->in, e->out, e->fill, 1, e->st, "l2");
	for (i = 0; i < e->nmc; i++)
		ports[i] = mc_port_add(e->mc[i], l2_unit(e->l2), e->fill);
	l2_set_dram(e->l2, e->mc, ports, &e->map);
}

static int env_free(void **state)
{
	struct env *e = *state;
	uint32_t i;

	if (e == NULL)
		return 0;
	l2_destroy(e->l2);
	for (i = 0; i < e->nmc; i++) {
		mc_destroy(e->mc[i]);
		link_destroy(e->mc_in[i]);
	}
	link_destroy(e->in);
	link_destroy(e->out);
	link_destroy(e->fill);
	if (e->l2clk != NULL)
		clock_destroy(e->l2clk);
	if (e->dclk != NULL)
		clock_destroy(e->dclk);
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

	struct link *to = ev->to != NULL ? ev->to : ev->e->in;

	if (ev->to != NULL && !link_can_push(to)) {
		/* the two-slice tests: a full input link, try again an L2 cycle later */
		eventq_schedule(ev->e->q, now + L2_PS, EVQ_PRIO_DEFAULT, push_ev, ev);
		return;
	}
	assert_true(link_can_push(to));
	link_push(to, ev->r);
}

static struct mem_req *new_req(struct env *e, enum mem_req_type type, addr_t line,
			       uint32_t sectors, uint32_t off, uint32_t len)
{
	struct mem_req *r = req_alloc(e->pool, eventq_now(e->q));
	uint32_t b;

	r->type = type;
	r->addr = line;
	r->sector_mask = sectors;
	for (b = off; b < off + len; b++)
		r->byte_mask[b / 64] |= 1ull << (b % 64);
	return r;
}

/* Pushes a request on `in` half an L2 cycle after edge c: visible at c + 1. len 0: no byte mask.
 * Returns the request id. */
static uint64_t issue_at(struct env *e, cycle_t c, enum mem_req_type type, addr_t line,
			 uint32_t sectors, uint32_t off, uint32_t len)
{
	struct push_ev *ev;

	assert_true(e->nev < MAX_REQ);
	ev = &e->ev[e->nev++];
	ev->e = e;
	ev->to = NULL;
	ev->r = new_req(e, type, line, sectors, off, len);
	eventq_schedule(e->q, (tick_t)c * L2_PS + L2_PS / 2, EVQ_PRIO_DEFAULT, push_ev, ev);
	return ev->r->id;
}

static uint64_t load_at(struct env *e, cycle_t c, addr_t line, uint32_t sectors)
{
	return issue_at(e, c, MEM_REQ_LOAD, line, sectors, 0, 0);
}

static uint64_t pending_all(const struct env *e)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < e->nmc; i++)
		n += mc_pending(e->mc[i]);
	return n;
}

/* Runs every event (nothing ticks forever: refresh is off), checking after each. */
static void run_all(struct env *e, bool check_each)
{
	uint64_t steps = 0;

	while (eventq_step(e->q)) {
		if (check_each)
			l2_check(e->l2);
		if (++steps > 100000000ull)
			fail_msg("runaway");
	}
	l2_check(e->l2);
	assert_true(l2_is_idle(e->l2));
	assert_int_equal(pending_all(e), 0);
	assert_int_equal(req_pool_in_flight(e->pool), 0);
}

static double stat(const struct env *e, const char *name)
{
	double v;

	if (!stats_get(e->st, name, &v))
		fail_msg("no statistic %s", name);
	return v;
}

static uint32_t count_dram(const struct env *e, bool is_write)
{
	uint32_t i, n = 0;

	for (i = 0; i < e->ndram; i++)
		n += e->dram[i].is_write == is_write;
	return n;
}

/* Closed-bank unloaded read from L2 cycle v: the L2 cycle its reply is pushed. */
static cycle_t miss_push_cycle(const struct env *e, cycle_t v)
{
	cycle_t a = (cycle_t)v * L2_PS / e->s.tck_ps;
	cycle_t d = a + 1 + T(e, RCDRD) + T(e, CL) + e->s.burst_cycles;
	cycle_t f = d * e->s.tck_ps / L2_PS + e->p.fill_latency_cycles;

	return f + e->p.hit_latency_cycles;
}

/* ---------------------------------------------------------------------------------------------
 * a, b. Latency
 */

static void test_hit_latency(void **state)
{
	struct env *e = env_new(state, 1);
	uint64_t st, ld;

	env_start(e);
	/* A store of all of sector 0 allocates line 0x1000 without fetching (the sector becomes
	 * valid); visible at 11, ack pushed at 11 + 100 = 111, popped at 112. */
	st = issue_at(e, 10, MEM_REQ_STORE, 0x1000, 0x1, 0, 32);
	/* A load of sector 0: visible at 201, a hit, pushed at 301, popped at 302. */
	ld = load_at(e, 200, 0x1000, 0x1);
	run_all(e, true);
	assert_int_equal(e->reply_at[st], 10 + 1 + 100 + 1);
	assert_int_equal(e->reply_at[ld], 200 + 1 + 100 + 1);
	assert_int_equal(e->ndram, 0);
	assert_int_equal(l2_stats(e->l2)->hits, 1);
	assert_int_equal(l2_stats(e->l2)->line_misses, 1);
	assert_int_equal(stat(e, "l2.latency_hit.mean"), 100);
	assert_int_equal(stat(e, "l2.latency_store.mean"), 100);
	assert_int_equal(stat(e, "l2.replies"), 2);
}

/* l2.store_ack_cycles = 26: a store's ack leaves from its own queue 26 cycles after it is
 * visible, ahead of a load hit visible one cycle earlier (which still takes the hit latency). */
static void test_store_ack_latency(void **state)
{
	struct env *e = env_new(state, 1);
	uint64_t ld0, ld, st;

	e->p.store_ack_cycles = 26;
	env_start(e);
	/* line 0x1000 present: a store of sector 0 at 10 allocates it (ack at 11 + 26 + 1) */
	st = issue_at(e, 10, MEM_REQ_STORE, 0x1000, 0x1, 0, 32);
	/* a load hit visible at 201, then a store visible at 202: the ack (202 + 26) overtakes the
	 * hit's reply (201 + 100) */
	ld0 = load_at(e, 200, 0x1000, 0x1);
	ld = issue_at(e, 201, MEM_REQ_STORE, 0x1000, 0x1, 0, 32);
	run_all(e, true);
	assert_int_equal(e->reply_at[st], 10 + 1 + 26 + 1);
	assert_int_equal(e->reply_at[ld0], 200 + 1 + 100 + 1);
	assert_int_equal(e->reply_at[ld], 201 + 1 + 26 + 1);
	assert_int_equal(stat(e, "l2.latency_store.mean"), 26);
	assert_int_equal(stat(e, "l2.latency_hit.mean"), 100);
	assert_int_equal(stat(e, "l2.replies"), 3);
}

static void test_miss_latency(void **state)
{
	struct env *e = env_new(state, 1);
	uint64_t id;
	cycle_t push;

	env_start(e);
	assert_int_equal(e->s.tck_ps, 571);
	/* Visible at v = 11: enqueued at tick 7975, DRAM cycle a = 13 (7975 / 571); ACT at 14,
	 * RD at 14 + 27 = 41, data done at 41 + 24 + 2 = 67; the completion at tick 38257 lands in
	 * L2 cycle 52, the sector is readable at 52 + 10 = 62 and filled then; the reply is pushed
	 * at 62 + 100 = 162 and popped at 163. Latency visible -> pushed = 151. */
	id = load_at(e, 10, 0x0, 0x1);
	run_all(e, true);
	push = miss_push_cycle(e, 11);
	assert_int_equal(push, 162);
	assert_int_equal(e->ndram, 1);
	assert_int_equal(e->dram[0].arrival, 13);
	assert_int_equal(e->dram[0].done, 67);
	assert_int_equal(e->reply_at[id], push + 1);
	assert_int_equal(stat(e, "l2.latency_miss.mean"), 151);
	assert_int_equal(stat(e, "l2.dram_reads"), 1);
	assert_int_equal(stat(e, "l2.line_misses"), 1);
	assert_int_equal(stat(e, "l2.fills"), 1);
	assert_int_equal(stat(e, "l2.fill_stalls"), 0);
	assert_int_equal(stat(e, "l2.cache.line_misses"), 1);
	/* A second load of the line's sectors 0-1: sector 0 hits, sector 1 a sector miss; the
	 * bank's row is open now (row hit), so just check one more read and one reply. */
	id = load_at(e, 1000, 0x0, 0x3);
	run_all(e, true);
	assert_int_equal(e->ndram, 2);
	assert_int_equal(e->dram[1].addr, 32);
	assert_int_equal(e->replies[id], 1);
	assert_int_equal(stat(e, "l2.sector_misses"), 1);
}

/*
 * A controller without a free entry makes the slice wait asleep, wakes it when it grants the
 * entry, and the slice counts a refusal for every cycle it waited. Read queue of 1: load A
 * visible at 11 is sent at 11 (arrival 13, done 67 as in test_miss_latency); load B, visible
 * at 12, is refused at 12 and waits in line. A's completion at DRAM cycle 67 (tick 38257) frees
 * the entry: B's port is granted it and the slice is woken at the next L2 edge, 53
 * (ceil(38257 / 725)), sends B (arrival floor(53 x 725 / 571) = 67) and counts the refusals of
 * cycles 12 .. 52: 41. From 13 to 52 the slice is not ticked at all.
 */
static void test_controller_wait(void **state)
{
	struct env *e = env_new(state, 1);
	uint64_t ticks13;

	e->mp.read_queue = 1;
	env_start(e);
	load_at(e, 10, 0x0, 0x1);
	load_at(e, 11, 0x1000, 0x1);
	eventq_run_until(e->q, (tick_t)13 * L2_PS);
	ticks13 = clock_unit_ticks(l2_unit(e->l2));
	assert_int_equal(stat(e, "l2.mq_refusals"), 1);
	eventq_run_until(e->q, (tick_t)52 * L2_PS);
	assert_int_equal(clock_unit_ticks(l2_unit(e->l2)), ticks13);
	run_all(e, true);
	assert_int_equal(e->ndram, 2);
	assert_int_equal(e->dram[0].done, 67);
	assert_int_equal(e->dram[1].arrival, 67);
	assert_int_equal(stat(e, "l2.mq_refusals"), 41);
	assert_true(l2_is_idle(e->l2));
}

/*
 * A controller that makes the slice wait holds up only its own accesses. Two channels, 256 B
 * interleave, no hash: lines 0x0 and 0x1000 go to controller 0, 0x100 to controller 1. A and B
 * as in test_controller_wait (B waits in controller 0's line from 12 to 53); C, visible at 13,
 * is sent at 13 behind B in the miss queue: DRAM cycle floor(13 x 725 / 571) = 16. The slice is
 * ticked while B waits (at 13 for C, later for C's fill and reply): each of those drains counts
 * B's refusal without asking controller 0 (its port is in line), and the cycles slept between
 * them count too: 41 refusals again, one a cycle from 12 to 52.
 */
static void test_controller_wait_others_go(void **state)
{
	struct env *e = env_new(state, 2);
	uint32_t i;
	cycle_t at[3] = { 0, 0, 0 };

	e->mp.read_queue = 1;
	env_start(e);
	load_at(e, 10, 0x0, 0x1);
	load_at(e, 11, 0x1000, 0x1);
	load_at(e, 12, 0x100, 0x1);
	run_all(e, true);
	assert_int_equal(e->ndram, 3);
	for (i = 0; i < e->ndram; i++)
		at[e->dram[i].addr == 0x0 ? 0 : e->dram[i].addr == 0x1000 ? 1 : 2] =
			e->dram[i].arrival;
	assert_int_equal(at[0], 13);
	assert_int_equal(at[1], 67);
	assert_int_equal(at[2], 16);
	assert_int_equal(stat(e, "l2.mq_refusals"), 41);
	assert_true(l2_is_idle(e->l2));
}

/*
 * A head refused for the miss queue is taken at the first lookup after the drain that leaves it
 * as many free slots as it needs, whatever fills and drains come before (each of those is
 * charged to its stall as a refusal, without a lookup: level_head_waits). One channel whose read
 * queue holds one read, a miss queue of 8: A (visible at 11) goes to the controller; B, C, D and
 * E (12-15), line misses of one sector each, need 1 + 4 free slots (the read, and room for a
 * victim's four sectors) and wait in the miss queue behind it; F (16), a line miss of all four
 * sectors, needs 8 and is refused with 4 free. B is sent at 53 (test_controller_wait), which
 * leaves 5; A's fill comes at 62; C, D and E go as the reads before them complete, and F is
 * taken in the cycle after E's send, which empties the queue (the lookups come before the
 * drain in a tick). Its stall counts every cycle from 16 to then.
 */
static void test_miss_queue_wait(void **state)
{
	struct env *e = env_new(state, 1);
	uint64_t f;
	cycle_t arrival = 0, sent = 0;
	uint32_t i;

	e->p.miss_queue = 8;
	e->mp.read_queue = 1;
	env_start(e);
	load_at(e, 10, 0x0, 0x1);
	load_at(e, 11, 0x1000, 0x1);
	load_at(e, 12, 0x2080, 0x1);
	load_at(e, 13, 0x3100, 0x1);
	load_at(e, 14, 0x4180, 0x1);
	f = load_at(e, 15, 0x5200, 0xf);
	eventq_run_until(e->q, (tick_t)17 * L2_PS);
	assert_int_equal(stat(e, "l2.accesses"), 5);
	eventq_run_until(e->q, (tick_t)63 * L2_PS);
	assert_int_equal(stat(e, "l2.fills"), 1);
	assert_int_equal(stat(e, "l2.accesses"), 5);
	run_all(e, true);
	assert_int_equal(e->replies[f], 1);
	assert_int_equal(e->ndram, 9);
	for (i = 0; i < e->ndram; i++)
		if (e->dram[i].addr == 0x4180)
			arrival = e->dram[i].arrival;
	/* the L2 cycle E was sent in: the one whose edge falls in DRAM cycle `arrival` (an L2
	 * cycle is longer than a DRAM cycle, so there is exactly one) */
	while ((sent + 1) * L2_PS / e->s.tck_ps <= arrival)
		sent++;
	assert_int_equal(sent * L2_PS / e->s.tck_ps, arrival);
	assert_true(sent > 62);
	assert_int_equal(stat(e, "l2.stall_miss_queue_full"), sent + 1 - 16);
	assert_int_equal(stat(e, "l2.line_misses"), 6);
}

/* ---------------------------------------------------------------------------------------------
 * c, d, e. MSHR: merge, full, merge limit
 */

static void test_merge(void **state)
{
	struct env *e = env_new(state, 1);
	uint64_t a, b;

	env_start(e);
	a = load_at(e, 10, 0x0, 0x1);
	b = load_at(e, 11, 0x0, 0x1);
	run_all(e, true);
	/* One read; the fill at 62 satisfies both: pushed together at 162. */
	assert_int_equal(e->ndram, 1);
	assert_int_equal(e->reply_at[a], 163);
	assert_int_equal(e->reply_at[b], 163);
	assert_int_equal(stat(e, "l2.mshr_merges"), 1);
	assert_int_equal(stat(e, "l2.mshr.merges"), 1);
	assert_int_equal(stat(e, "l2.latency_miss.count"), 2);
}

static void test_mshr_full(void **state)
{
	struct env *e = env_new(state, 1);
	uint64_t a, b;

	/* one line entry (one sector entry would be fewer than a line's sectors, which
	 * the params check refuses) */
	e->p.mshr.entries = 1;
	e->p.mshr.granularity = MSHR_GRAN_LINE;
	env_start(e);
	a = load_at(e, 10, 0x0, 0x1);
	/* Another line (another set), visible at 12: no free entry; it waits at the head. */
	b = load_at(e, 11, 0x10000, 0x1);
	/* A load of a's line behind it, visible at 21, wakes the slice: the head is not tried
	 * again (no fill came) and its wait stays charged to the MSHR; c hits after the fill. */
	load_at(e, 20, 0x0, 0x1);
	run_all(e, true);
	assert_int_equal(e->reply_at[a], 163);
	/* a's fill at 62 frees the entry (fill port before lookups): b is accepted at 62 and
	 * reaches the MC at tick 62 x 725 = 44950, DRAM cycle 78. It waited 62 - 12 = 50 cycles. */
	assert_int_equal(e->ndram, 2);
	assert_int_equal(e->dram[1].addr, 0x10000);
	assert_int_equal(e->dram[1].arrival, 78);
	assert_int_equal(stat(e, "l2.stall_mshr_full"), 50);
	assert_int_equal(stat(e, "l2.stall_miss_queue_full"), 0);
	assert_int_equal(stat(e, "l2.mshr.fail_full"), 1);
	assert_int_equal(e->replies[b], 1);
	/* b's reply: fill at floor(done x 571 / 725) + 10, pushed 100 later, popped 1 later. */
	assert_int_equal(e->reply_at[b], e->dram[1].done * 571 / 725 + 10 + 100 + 1);
	assert_int_equal(stat(e, "l2.latency_miss.max"), e->reply_at[b] - 1 - 12);
}

static void test_merge_limit(void **state)
{
	struct env *e = env_new(state, 1);
	uint64_t a, b, c;

	e->p.mshr.max_merge = 2;
	env_start(e);
	a = load_at(e, 10, 0x0, 0x1);
	b = load_at(e, 11, 0x0, 0x1);
	/* Visible at 13: the entry already holds two; it waits until the fill at 62, then hits
	 * (the fill port runs before the lookup): pushed at 162 with the other two. */
	c = load_at(e, 12, 0x0, 0x1);
	run_all(e, true);
	assert_int_equal(e->ndram, 1);
	assert_int_equal(e->reply_at[a], 163);
	assert_int_equal(e->reply_at[b], 163);
	assert_int_equal(e->reply_at[c], 163);
	assert_int_equal(stat(e, "l2.stall_merge_limit"), 62 - 13);
	assert_int_equal(stat(e, "l2.mshr.fail_merge"), 1);
	assert_int_equal(stat(e, "l2.hits"), 1);
	assert_int_equal(stat(e, "l2.latency_hit.mean"), 162 - 13);
}

/* ---------------------------------------------------------------------------------------------
 * f, g. Write-back and partial writes
 */

static void test_dirty_eviction(void **state)
{
	struct env *e = env_new(state, 1);
	struct mem_req *r;
	struct push_ev *ev;
	uint32_t i;

	env_start(e);
	/* Line 0: all of sector 0 and bytes 40-47 of sector 1 written. */
	ev = &e->ev[e->nev++];
	ev->e = e;
	r = ev->r = new_req(e, MEM_REQ_STORE, 0x0, 0x3, 0, 32);
	for (i = 40; i < 48; i++)
		r->byte_mask[0] |= 1ull << i;
	eventq_schedule(e->q, 10 * L2_PS + L2_PS / 2, EVQ_PRIO_DEFAULT, push_ev, ev);
	/* Four more lines of set 0 (32 sets x 128 B = 4096 B apart), whole-sector stores to sector
	 * 3: the fourth evicts line 0, the least recently used. */
	for (i = 1; i <= 4; i++)
		issue_at(e, 10 + 10 * i, MEM_REQ_STORE, (addr_t)i * 4096, 0x8, 96, 32);
	run_all(e, true);
	assert_int_equal(count_dram(e, false), 0);
	assert_int_equal(count_dram(e, true), 2);
	assert_int_equal(e->dram[0].addr, 0);
	assert_false(e->dram[0].partial);
	assert_int_equal(e->dram[1].addr, 32);
	assert_true(e->dram[1].partial);
	assert_int_equal(stat(e, "l2.writebacks"), 2);
	assert_int_equal(stat(e, "l2.writebacks_partial"), 1);
	assert_int_equal(stat(e, "l2.cache.dirty_evictions"), 1);
	assert_int_equal(stat(e, "l2.replies"), 5);
}

static void test_partial_write_read(void **state)
{
	struct env *e = env_new(state, 1);
	struct cache_line_info li;
	uint64_t w, hit, miss;

	env_start(e);
	/* Bytes 0-7 of sector 0 written: the sector is PARTIAL. */
	w = issue_at(e, 10, MEM_REQ_STORE, 0x2000, 0x1, 0, 8);
	/* A load of bytes 4-7: every needed byte was written, a hit. */
	hit = issue_at(e, 200, MEM_REQ_LOAD, 0x2000, 0x1, 4, 4);
	run_all(e, true);
	assert_int_equal(e->ndram, 0);
	assert_int_equal(e->reply_at[hit], 200 + 1 + 100 + 1);
	/* A load of bytes 16-19 (not written): a sector miss, one read of sector 0, and the fill
	 * merges under bytes 0-7 (the sector becomes DIRTY). */
	miss = issue_at(e, 400, MEM_REQ_LOAD, 0x2000, 0x1, 16, 4);
	run_all(e, true);
	assert_int_equal(count_dram(e, false), 1);
	assert_int_equal(e->dram[0].addr, 0x2000);
	assert_int_equal(e->reply_at[miss], miss_push_cycle(e, 401) + 1);
	assert_true(cache_line(l2_cache(e->l2), 0x2000, &li));
	assert_int_equal(li.valid & 1, 1);
	assert_int_equal(li.dirty & 1, 1);
	assert_int_equal(li.bytes.w[0], 0xffull);
	assert_int_equal(e->replies[w], 1);
	assert_int_equal(stat(e, "l2.hits"), 1);
	assert_int_equal(stat(e, "l2.sector_misses"), 1);
	/* A store of bytes nobody wrote yet to the present line: a hit (the line is present;
	 * write-allocate without fetch needs nothing more), no DRAM access. */
	issue_at(e, 600, MEM_REQ_STORE, 0x2000, 0x2, 40, 4);
	run_all(e, true);
	assert_int_equal(count_dram(e, false), 1);
	assert_int_equal(stat(e, "l2.hits"), 2);
	assert_int_equal(stat(e, "l2.sector_misses"), 1);
	assert_int_equal(stat(e, "l2.line_misses"), 1);
}

/* l2.partial_write_cycles = 3: a store that writes part of two sectors (bytes 24-39: the last 8
 * of sector 0, the first 8 of sector 1) holds the lookups 2 x 3 cycles from its own (the
 * read-modify-writes take the place of its one cycle); one that writes whole sectors does not. */
static void test_partial_write_hold(void **state)
{
	struct env *e = env_new(state, 1);
	uint64_t st, ld, full, ld2;

	e->p.partial_write_cycles = 3;
	env_start(e);
	/* both visible at 11: the store is looked up at 11 and holds the lookups until 11 + 6 =
	 * 17; the load (a hit on the written bytes 24-27) is looked up at 17, its reply pushed
	 * at 117 and popped at 118 (without the hold: looked up at 12, popped at 113) */
	st = issue_at(e, 10, MEM_REQ_STORE, 0x3000, 0x3, 24, 16);
	ld = issue_at(e, 10, MEM_REQ_LOAD, 0x3000, 0x1, 24, 4);
	/* whole sectors 2 and 3 (bytes 64-127) at 200, then a load of them: looked up at 202 */
	full = issue_at(e, 200, MEM_REQ_STORE, 0x3000, 0xc, 64, 64);
	ld2 = issue_at(e, 200, MEM_REQ_LOAD, 0x3000, 0xc, 64, 64);
	run_all(e, true);
	assert_int_equal(e->reply_at[st], 10 + 1 + 100 + 1);
	assert_int_equal(e->reply_at[ld], 17 + 100 + 1);
	assert_int_equal(e->reply_at[full], 200 + 1 + 100 + 1);
	assert_int_equal(e->reply_at[ld2], 202 + 100 + 1);
	assert_int_equal(e->ndram, 0);
	assert_int_equal(stat(e, "l2.partial_writes"), 2);
	/* the first store allocates the line; the second store and both loads hit */
	assert_int_equal(stat(e, "l2.line_misses"), 1);
	assert_int_equal(stat(e, "l2.hits"), 3);
}

/* The same store with partial_write_cycles = 0 (the default) costs one lookup and counts no
 * partial write. */
static void test_partial_write_off(void **state)
{
	struct env *e = env_new(state, 1);
	uint64_t ld;

	env_start(e);
	issue_at(e, 10, MEM_REQ_STORE, 0x3000, 0x3, 24, 16);
	ld = issue_at(e, 10, MEM_REQ_LOAD, 0x3000, 0x1, 24, 4);
	run_all(e, true);
	assert_int_equal(e->reply_at[ld], 12 + 100 + 1);
	assert_int_equal(stat(e, "l2.partial_writes"), 0);
}

/* ---------------------------------------------------------------------------------------------
 * h, i. Conservation and determinism
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
	assert_true(r->id <= MAX_REQ);
	link_push(e->in, r);
	e->feed_left--;
}

static void random_run(struct env *e, uint32_t n, uint64_t seed, addr_t footprint)
{
	e->p.mshr.entries = 8;
	e->p.mshr.max_merge = 2;
	e->p.miss_queue = 8;
	e->p.lookups_per_cycle = 2;
	e->p.fills_per_cycle = 1;
	e->p.hit_latency_cycles = 20;
	e->mp.read_queue = 8;
	e->mp.write_queue = 8;
	e->mp.write_high = 6;
	e->mp.write_low = 2;
	e->sink_per_cycle = 1;
	e->out_cap = 2;
	env_start(e);
	e->rng = seed;
	e->footprint = footprint;
	e->feed_left = n;
	e->feeder = clock_attach(e->l2clk, "feeder", feeder_tick, e);
	clock_wake(e->feeder);
	run_all(e, true);
}

/* Every request replied exactly once, the counters add up, everything drained. */
static void check_conserved(struct env *e, uint32_t n, const char *what)
{
	const struct l2_stats *s = l2_stats(e->l2);
	uint32_t i;

	s = l2_stats(e->l2);
	for (i = 1; i <= n; i++)
		assert_int_equal(e->replies[i], 1);
	assert_int_equal(e->nreplies, n);
	assert_int_equal(s->accesses, n);
	assert_int_equal(s->replies, n);
	assert_int_equal(s->hits + s->sector_misses + s->line_misses, n);
	assert_int_equal(s->dram_reads, s->fills);
	assert_int_equal(count_dram(e, false), s->dram_reads);
	assert_int_equal(count_dram(e, true), s->writebacks);
	assert_true(mshr_is_empty(l2_mshr(e->l2)));
	assert_true(req_pool_is_drained(e->pool));
	print_message("# %s: %u requests, %" PRIu64 " hits, %" PRIu64 " reads, %" PRIu64
		      " write-backs, stalls: mshr %" PRIu64 " merge %" PRIu64 " no-line %" PRIu64
		      " mq %" PRIu64 " reply %" PRIu64 ", fill stalls %" PRIu64 ", reply stalls %"
		      PRIu64 ", last reply cycle %" PRIu64 "\n", what, n, s->hits, s->dram_reads,
		      s->writebacks, s->stall_mshr_full, s->stall_merge_limit, s->stall_no_line,
		      s->stall_miss_queue_full, s->stall_reply_full, s->fill_stalls, s->reply_stalls,
		      clock_cycle(e->l2clk));
}

/* 64 KB (4x the slice) of random loads and stores over two channels: capacity misses,
 * write-backs, MSHR-full stalls, fill-port and reply-link contention. */
static void test_conservation(void **state)
{
	struct env *e = env_new(state, 2);
	const struct l2_stats *s;
	uint32_t n = 5000;

	random_run(e, n, 0x9e3779b97f4a7c15ull, 64 * 1024);
	check_conserved(e, n, "conservation 64 KB");
	s = l2_stats(e->l2);
	assert_true(s->writebacks > 0);
	assert_true(s->stall_mshr_full > 0);
	assert_true(s->fill_stalls > 0);
	assert_true(s->reply_stalls > 0);
	assert_true(s->mshr_merges > 0);
}

/* The same with store acks of their own latency (shorter than the hits'): both queues share the
 * reply port, every request is still replied exactly once. */
static void test_conservation_store_ack(void **state)
{
	struct env *e = env_new(state, 2);

	e->p.store_ack_cycles = 5;
	random_run(e, 5000, 0x9e3779b97f4a7c15ull, 64 * 1024);
	check_conserved(e, 5000, "conservation 64 KB, store acks 5");
	assert_true(l2_stats(e->l2)->reply_stalls > 0);
}

/* 4 KB (32 lines) over a 2 KB slice (4 sets of 4 ways) with line-granular MSHRs (8 entries,
 * merge limit 2): merges, merge-limit stalls and sets whose every way is reserved. */
static void test_conservation_hot(void **state)
{
	struct env *e = env_new(state, 2);
	const struct l2_stats *s;
	uint32_t n = 5000;

	e->p.mshr.granularity = MSHR_GRAN_LINE;
	e->p.cache.size_kb = 2; /* 2 KB / (128 B x 4) = 4 sets */
	random_run(e, n, 777, 4 * 1024);
	check_conserved(e, n, "conservation hot");
	s = l2_stats(e->l2);
	assert_true(s->stall_merge_limit > 0);
	assert_true(s->stall_no_line > 0);
	assert_true(s->stall_miss_queue_full > 0);
	assert_true(s->mshr_merges > 0);
	assert_true(s->writebacks > 0);
}

static void test_determinism(void **state)
{
	struct env *a = env_new(state, 2), *b;
	uint32_t i, n = 3000;
	void *st2 = NULL;

	random_run(a, n, 12345, 64 * 1024);
	b = env_new(&st2, 2);
	random_run(b, n, 12345, 64 * 1024);
	for (i = 1; i <= n; i++)
		assert_int_equal(a->reply_at[i], b->reply_at[i]);
	assert_int_equal(a->ndram, b->ndram);
	for (i = 0; i < a->ndram; i++) {
		assert_int_equal(a->dram[i].addr, b->dram[i].addr);
		assert_int_equal(a->dram[i].done, b->dram[i].done);
	}
	assert_memory_equal(l2_stats(a->l2), l2_stats(b->l2), sizeof(struct l2_stats));
	env_free(&st2);
}

/* Per-channel slices: 2 GDDR6 channels x 2 slices, ipoly over 256 B chunks, each channel's
 * controller with a one-channel partition map over its two slices' ports. Every sector address
 * of the first 256 KiB, sent by its slice as a slice-local address, lands in that slice's
 * channel (slice / 2), and the DRAM addresses of all four slices are distinct (the partition
 * map is a bijection). With the local index, the first 64 lines a slice owns cover its 32 sets
 * twice; with the whole address a linear index leaves sets empty. */
static int key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_partition(void **state)
{
	struct env *e = env_new(state, 2);
	struct slice_hash_params hp = { SLICE_HASH_IPOLY, 256, true, true };
	struct slice_hash h;
	struct addrmap chmap;
	struct link *in[4], *out[4], *fill[4];
	struct l2 *sl[4];
	struct mc *pm[2];
	uint32_t port[4];
	struct sim_err err;
	const uint32_t n = 256 * 1024 / 32;
	uint64_t *keys = calloc(n, sizeof *keys);
	uint32_t i, k, seen[2][32] = { { 0 } }, covered[2] = { 0, 0 };

	assert_non_null(keys);
	env_start(e);
	memset(&err, 0, sizeof err);
	assert_int_equal(slice_hash_init(&h, &hp, 4, "l2.hash", &err), 0);
	map_init(e, &chmap, 1);
	for (k = 0; k < 2; k++) {
		pm[k] = mc_create(&e->mp, &e->s, k, e->dclk, NULL, NULL, NULL, "pm");
		mc_set_map(pm[k], &chmap, h.shift, 2);
	}
	for (k = 0; k < 4; k++) {
		in[k] = link_create("in", 8, 1, e->l2clk, NULL);
		out[k] = link_create("out", 8, 1, e->l2clk, NULL);
		fill[k] = link_create("fill", l2_reads_max(&e->p), 1, e->l2clk, NULL);
		sl[k] = l2_create(&e->p, k, e->l2clk, in[k], out[k], fill[k], 1, NULL, "s");
		port[k] = mc_port_add(pm[k / 2], l2_unit(sl[k]), fill[k]);
		assert_int_equal(port[k], k % 2);
		l2_set_partition(sl[k], pm[k / 2], port[k], &h);
	}
	for (i = 0; i < n; i++) {
		addr_t a = (addr_t)i * 32;
		struct dram_addr da;

		k = slice_hash_slice(&h, a);
		mc_port_decode(pm[k / 2], port[k], slice_hash_local(&h, a), &da);
		assert_int_equal(da.ch, k / 2);
		keys[i] = ((((((uint64_t)da.ch * 4 + da.pc) * 8 + da.bg) * 8 + da.ba) * 65536 +
			    da.row) * 4096) + da.col;
	}
	qsort(keys, n, sizeof *keys, key_cmp);
	for (i = 1; i < n; i++)
		assert_true(keys[i] != keys[i - 1]);
	/* set coverage of slice 0's first 64 lines: linear on the whole address, then local */
	for (int local = 0; local < 2; local++) {
		uint32_t lines = 0;

		if (local)
			l2_set_local_index(sl[0], &h);
		for (i = 0; lines < 64; i++) {
			addr_t a = (addr_t)i * 128;

			if (slice_hash_slice(&h, a) != 0)
				continue;
			lines++;
			if (seen[local][cache_set_of(l2_cache(sl[0]), a)]++ == 0)
				covered[local]++;
		}
	}
	print_message("# slice 0, 64 lines: %u of 32 sets on the whole address, %u local\n",
		      covered[0], covered[1]);
	assert_int_equal(covered[1], 32);
	assert_true(covered[0] < 32);
	for (k = 0; k < 4; k++) {
		l2_destroy(sl[k]);
		link_destroy(in[k]);
		link_destroy(out[k]);
		link_destroy(fill[k]);
	}
	mc_destroy(pm[0]);
	mc_destroy(pm[1]);
	free(keys);
}

/*
 * Two partitions (l2_set_far): slice 0 (the env's) and slice 1, twins, on one channel; home
 * slices by a linear hash of 128 B granularity (line 2k is homed at slice 0, 2k + 1 at slice
 * 1); the partition links take X = 5 L2 cycles. Loads of an SM of partition p go to slice p.
 *   far miss:  line B (homed at 1) loaded through slice 0 at v: a miss there, read from slice
 *              1 (pushed on its far_in at v, visible v + X), a miss there too, so slice 1 reads
 *              DRAM at v + X and replies (its fill + H) on slice 0's far_fill_in, visible X
 *              later; slice 0 fills and replies H after: miss_push_cycle(v + X) + X + H.
 *              One DRAM read, at slice 1; the line is now in both slices.
 *   near hit:  B again through slice 0: v + H (the near copy); through slice 1: v + H (home).
 *   shared:    line C (homed at 0) first through slice 1 (a far miss as above, mirrored), then
 *              through slice 0: a hit at its home. One DRAM read for C.
 *   merging:   line D (homed at 1) through slice 0 twice in a row (one far read: the second
 *              merges in slice 0's MSHR) while an SM of partition 1 loads it at slice 1 (it
 *              merges behind the far read at the home): one DRAM read, three replies.
 */
struct far_sink {
	struct env *e;
	struct link *l;
	struct clock_unit *u;
};

static void far_sink_tick(void *unit, cycle_t now)
{
	struct far_sink *k = unit;
	struct mem_req *r;

	while ((r = link_peek(k->l)) != NULL) {
		link_pop(k->l);
		assert_true(r->is_reply && r->id <= MAX_REQ);
		k->e->replies[r->id]++;
		k->e->reply_at[r->id] = now;
		k->e->nreplies++;
		req_free(k->e->pool, r, eventq_now(k->e->q));
	}
	clock_sleep(k->u);
}

static uint64_t load_to(struct env *e, struct link *to, cycle_t c, addr_t line)
{
	uint64_t id = load_at(e, c, line, 0x1);

	e->ev[e->nev - 1].to = to;
	return id;
}

/* Slice 1 beside the env's slice 0 (its twin), on the env's controller, both partitions of one
 * slice each, linked with latency x; homes by a linear hash of 128 B chunks. */
struct twin {
	struct slice_hash h;
	struct link *in, *out, *fill, *far_in[2], *far_fill[2];
	struct l2 *l2;
	struct far_sink k;
};

static void twin_start(struct env *e, struct twin *t, cycle_t x)
{
	struct slice_hash_params hp = { SLICE_HASH_LINEAR, 128, false, false };
	struct sim_err err;
	uint32_t port, i;

	memset(&err, 0, sizeof err);
	assert_int_equal(slice_hash_init(&t->h, &hp, 2, "l2.hash", &err), 0);
	t->in = link_create("in1", 8, 1, e->l2clk, NULL);
	t->k.e = e;
	t->k.u = clock_attach(e->l2clk, "sink1", far_sink_tick, &t->k);
	t->out = link_create("out1", 64, 1, e->l2clk, t->k.u);
	t->k.l = t->out;
	t->fill = link_create("fill1", l2_reads_max(&e->p), e->p.fill_latency_cycles, e->l2clk,
			      NULL);
	t->l2 = l2_create(&e->p, 1, e->l2clk, t->in, t->out, t->fill, 2, e->st, "l2b");
	port = mc_port_add(e->mc[0], l2_unit(t->l2), t->fill);
	l2_set_dram(t->l2, &e->mc[0], &port, &e->map);
	for (i = 0; i < 2; i++) {
		t->far_in[i] = link_create("far_in", l2_reads_max(&e->p), x, e->l2clk, NULL);
		t->far_fill[i] = link_create("far_fill", l2_reads_max(&e->p), x, e->l2clk, NULL);
	}
	l2_set_far(e->l2, t->far_in[0], t->far_fill[0], t->far_in[1], t->far_fill[1], &t->h, 0,
		   1);
	l2_set_far(t->l2, t->far_in[1], t->far_fill[1], t->far_in[0], t->far_fill[0], &t->h, 1,
		   1);
}

static void twin_run(struct env *e, struct twin *t)
{
	uint64_t steps = 0;

	while (eventq_step(e->q)) {
		l2_check(e->l2);
		l2_check(t->l2);
		if (++steps > 2000000ull) {
			l2_dump(e->l2, stderr);
			l2_dump(t->l2, stderr);
			fail_msg("runaway");
		}
	}
	assert_true(l2_is_idle(e->l2) && l2_is_idle(t->l2));
	assert_int_equal(pending_all(e), 0);
	assert_int_equal(req_pool_in_flight(e->pool), 0);
}

static void twin_free(struct twin *t)
{
	uint32_t i;

	l2_destroy(t->l2);
	link_destroy(t->in);
	link_destroy(t->out);
	link_destroy(t->fill);
	for (i = 0; i < 2; i++) {
		link_destroy(t->far_in[i]);
		link_destroy(t->far_fill[i]);
	}
}

static void test_far_partition(void **state)
{
	struct env *e = env_new(state, 1);
	struct twin t;
	const cycle_t X = 5, H = 100;
	const addr_t B = 0x1080, D = 0x3080;
	addr_t C;
	struct dram_addr db, dc;
	uint64_t b0, b1, b2, c0, c1, d0, d1, d2;
	uint32_t i;

	env_start(e);
	twin_start(e, &t, X);
	/* C: homed at slice 0, in another bank than B (so that its read finds a closed bank) */
	addrmap_decode(&e->map, B, &db);
	for (C = 0x2000;; C += 0x100) {
		addrmap_decode(&e->map, C, &dc);
		if ((C / 128) % 2 == 0 && (dc.ba != db.ba || dc.bg != db.bg))
			break;
	}
	assert_int_equal(slice_hash_slice(&t.h, B), 1);
	assert_int_equal(slice_hash_slice(&t.h, C), 0);
	assert_int_equal(slice_hash_slice(&t.h, D), 1);
	b0 = load_to(e, e->in, 10, B);            /* visible at 11 */
	c0 = load_to(e, t.in, 2000, C);           /* visible at 2001 */
	b1 = load_to(e, e->in, 4000, B);
	b2 = load_to(e, t.in, 4000, B);
	c1 = load_to(e, e->in, 4100, C);
	d0 = load_to(e, e->in, 6000, D);
	d1 = load_to(e, e->in, 6001, D);
	d2 = load_to(e, t.in, 6004, D);           /* visible 6005, the far read at 6001 + X */
	twin_run(e, &t);
	assert_int_equal(e->nreplies, 8);
	for (i = 1; i <= 8; i++)
		assert_int_equal(e->replies[i], 1);
	/* far misses, both ways: the home's DRAM path plus the link both ways and a pipeline */
	assert_int_equal(e->reply_at[b0], miss_push_cycle(e, 11 + X) + X + H + 1);
	assert_int_equal(e->reply_at[c0], miss_push_cycle(e, 2001 + X) + X + H + 1);
	/* near hits: the copy in the near partition, the line at its home */
	assert_int_equal(e->reply_at[b1], 4001 + H + 1);
	assert_int_equal(e->reply_at[b2], 4001 + H + 1);
	assert_int_equal(e->reply_at[c1], 4101 + H + 1);
	/* merged: all three after the one DRAM read */
	assert_true(e->reply_at[d1] >= e->reply_at[d0] && e->reply_at[d2] < e->reply_at[d0]);
	assert_int_equal(count_dram(e, false), 3); /* B, C, D: one read each */
	assert_int_equal(count_dram(e, true), 0);
	assert_true(stat(e, "l2.far_reads") == 2);   /* B and D from slice 0 */
	assert_true(stat(e, "l2b.far_reads") == 1);  /* C from slice 1 */
	assert_true(stat(e, "l2b.far_served") == 2);
	assert_true(stat(e, "l2.far_served") == 1);
	assert_true(stat(e, "l2.far_replies") == 1 && stat(e, "l2b.far_replies") == 2);
	assert_true(stat(e, "l2.dram_reads") == 1 && stat(e, "l2b.dram_reads") == 2);
	assert_true(stat(e, "l2.mshr_merges") == 1);  /* D's second load at slice 0 */
	assert_true(stat(e, "l2b.mshr_merges") == 1); /* D's partition-1 load behind the far read */
	twin_free(&t);
}

/* Random loads (to the slice of a random partition) and stores (to the home slice) over 8x
 * the two slices, small MSHRs and queues, a slow link (x = 7), fed one request a cycle when the
 * input has room: every request replied exactly once, both slices checked after every event,
 * each far read served and replied once, every DRAM read filled. */
struct far_feed {
	struct env *e;
	struct twin *t;
	struct clock_unit *u;
	uint64_t x;
	uint32_t left;
	struct mem_req *next;
	struct link *to;
};

static void far_feed_tick(void *unit, cycle_t now)
{
	struct far_feed *f = unit;

	(void)now;
	if (f->next == NULL && f->left > 0) {
		addr_t line;
		bool store;

		f->x = xorshift(&f->x);
		line = (f->x % (128 * 1024 / 128)) * 128;
		store = (f->x >> 32) % 4 == 0;
		if (store)
			f->to = slice_hash_slice(&f->t->h, line) == 0 ? f->e->in : f->t->in;
		else
			f->to = (f->x >> 40) % 2 == 0 ? f->e->in : f->t->in;
		f->next = new_req(f->e, store ? MEM_REQ_STORE : MEM_REQ_LOAD, line,
				  store ? 0x1 : (uint32_t)(f->x >> 44) % 15 + 1, 0, store ? 8 : 0);
		assert_true(f->next->id <= MAX_REQ);
		f->left--;
	}
	if (f->next != NULL && link_can_push(f->to)) {
		link_push(f->to, f->next);
		f->next = NULL;
	}
	if (f->next == NULL && f->left == 0)
		clock_sleep(f->u);
}

static void test_far_conservation(void **state)
{
	struct env *e = env_new(state, 1);
	struct twin t;
	struct far_feed f;
	const uint32_t n = 4000;
	const struct l2_stats *s0, *s1;
	uint32_t i;

	e->p.mshr.entries = 8;
	e->p.mshr.max_merge = 2;
	e->p.miss_queue = 8;
	e->p.hit_latency_cycles = 20;
	e->sink_per_cycle = 1;
	env_start(e);
	twin_start(e, &t, 7);
	memset(&f, 0, sizeof f);
	f.e = e;
	f.t = &t;
	f.x = 12345;
	f.left = n;
	f.u = clock_attach(e->l2clk, "feeder", far_feed_tick, &f);
	clock_wake(f.u);
	twin_run(e, &t);
	for (i = 1; i <= n; i++)
		assert_int_equal(e->replies[i], 1);
	s0 = l2_stats(e->l2);
	s1 = l2_stats(t.l2);
	assert_int_equal(s0->replies + s1->replies, n);
	assert_true(s0->far_reads > 0 && s1->far_reads > 0);
	assert_int_equal(s0->far_reads, s1->far_served);
	assert_int_equal(s1->far_reads, s0->far_served);
	assert_int_equal(s0->far_reads, s1->far_replies);
	assert_int_equal(s1->far_reads, s0->far_replies);
	assert_int_equal(s0->accesses + s1->accesses, n + s0->far_served + s1->far_served);
	assert_int_equal(s0->fills, s0->dram_reads + s0->far_reads);
	assert_int_equal(s1->fills, s1->dram_reads + s1->far_reads);
	assert_int_equal(count_dram(e, false), s0->dram_reads + s1->dram_reads);
	assert_int_equal(count_dram(e, true), s0->writebacks + s1->writebacks);
	assert_true(s0->writebacks + s1->writebacks > 0);
	print_message("# far conservation: %u requests, far reads %" PRIu64 " + %" PRIu64
		      ", DRAM reads %" PRIu64 " + %" PRIu64 ", last cycle %" PRIu64 "\n", n,
		      s0->far_reads, s1->far_reads, s0->dram_reads, s1->dram_reads,
		      clock_cycle(e->l2clk));
	twin_free(&t);
}

/* Each partition's SMs read only lines homed in the other one, each a new line, as fast as the
 * inputs take them: without the MSHR reserve both slices fill every entry with reads waiting on
 * the twin, whose own misses then find no entry (a protocol deadlock: nothing moves, the run
 * ends with requests unreplied); with it, all 2 x 300 loads are replied. */
struct seq_feed {
	struct env *e;
	struct link *to;
	struct clock_unit *u;
	addr_t base;
	uint32_t i, n;
};

static void seq_feed_tick(void *unit, cycle_t now)
{
	struct seq_feed *f = unit;

	(void)now;
	if (f->i < f->n && link_can_push(f->to)) {
		struct mem_req *r = new_req(f->e, MEM_REQ_LOAD, f->base + (addr_t)f->i * 256, 0x1,
					    0, 0);

		link_push(f->to, r);
		f->i++;
	}
	if (f->i == f->n)
		clock_sleep(f->u);
}

/* Runs twin streams to their end: slice 0's SMs load n lines homed at slice 1 (the odd lines
 * from 128 B), slice 1's n lines homed at slice 0 (the even ones from 1 MiB), each as fast as
 * its input takes them; every load must be replied (a deadlock leaves the feeders retrying for
 * ever with loads unreplied: the run is bounded). */
static void twin_streams(struct env *e, struct twin *t, uint32_t n)
{
	struct seq_feed f[2];
	uint32_t k;

	for (k = 0; k < 2; k++) {
		f[k].e = e;
		f[k].to = k == 0 ? e->in : t->in;
		f[k].base = k == 0 ? 128 : 0x100000; /* odd lines homed at 1, even at 0 */
		f[k].i = 0;
		f[k].n = n;
		f[k].u = clock_attach(e->l2clk, "feed", seq_feed_tick, &f[k]);
		clock_wake(f[k].u);
	}
	for (k = 0; eventq_step(e->q); k++) {
		l2_check(e->l2);
		l2_check(t->l2);
		if (k > 2000000)
			fail_msg("no progress: %" PRIu64 " of %u replies", e->nreplies, 2 * n);
	}
	assert_int_equal(e->nreplies, 2 * n);
	assert_true(l2_is_idle(e->l2) && l2_is_idle(t->l2));
}

static void test_far_no_deadlock(void **state)
{
	struct env *e = env_new(state, 1);
	struct twin t;

	e->p.mshr.entries = 8;
	e->p.miss_queue = 8;
	env_start(e);
	twin_start(e, &t, 3);
	twin_streams(e, &t, 300);
	assert_true(l2_stats(e->l2)->far_reserve_stalls > 0);
	assert_true(l2_stats(t.l2)->far_reserve_stalls > 0);
	twin_free(&t);
}

/* The same streams into a cache of 4 sets of 2 ways: without a way of each set kept from near
 * copies in flight, each slice's sets fill with lines waiting for the twin's data while the
 * twin's reads of lines homed there find no way (14 of 600 loads were replied; every request of
 * a GPU run with 1 KB slices of 2 ways stopped so); with it, all are. 256 MSHR entries: the
 * MSHR reserve never binds, every refusal is a set's last way. */
static void test_far_no_way_deadlock(void **state)
{
	struct env *e = env_new(state, 1);
	struct twin t;

	e->p.cache.size_kb = 1; /* 1 KB / (128 B x 2) = 4 sets */
	e->p.cache.assoc = 2;
	e->p.cache.index = CACHE_INDEX_XOR; /* (linear: odd lines only in odd sets) */
	e->p.mshr.entries = 256;
	e->p.miss_queue = 32;
	env_start(e);
	twin_start(e, &t, 3);
	twin_streams(e, &t, 300);
	assert_true(l2_stats(e->l2)->far_reserve_stalls > 0);
	assert_true(l2_stats(t.l2)->far_reserve_stalls > 0);
	assert_true(l2_stats(e->l2)->far_reads == 300 && l2_stats(t.l2)->far_reads == 300);
	twin_free(&t);
}

static void test_params_check(void **state)
{
	struct env *e = env_new(state, 1);
	struct sim_err err;

	memset(&err, 0, sizeof err);
	assert_int_equal(l2_params_check(&e->p, "l2", &err), 0);
	e->p.miss_queue = 7;
	assert_int_equal(l2_params_check(&e->p, "l2", &err), -1);
	assert_non_null(strstr(err.msg, "l2.miss_queue"));
	e->p.miss_queue = 16;
	e->p.cache.line_bytes = 256;
	e->p.cache.size_kb = 32;
	assert_int_equal(l2_params_check(&e->p, "l2", &err), -1);
	assert_non_null(strstr(err.msg, "l2.cache.line_bytes"));
	assert_int_equal(l2_nfields, L2_NFIELDS);
}

/* The MSHR sizes that could never take a whole-line miss, at their boundaries (128 B lines of
 * 4 sectors): sector entries 4 pass and 3 fail; with two partitions one entry is kept back
 * from far misses below 16 entries (entries / 8 from there), so 5 sector entries pass and 4
 * fail, 2 line entries pass and 1 fails. */
static void test_params_check_mshr(void **state)
{
	struct env *e = env_new(state, 1);
	struct sim_err err;

	memset(&err, 0, sizeof err);
	e->p.mshr.granularity = MSHR_GRAN_SECTOR;
	e->p.mshr.entries = 4;
	assert_int_equal(l2_params_check(&e->p, "l2", &err), 0);
	e->p.mshr.entries = 3;
	assert_int_equal(l2_params_check(&e->p, "l2", &err), -1);
	assert_non_null(strstr(err.msg, "l2.mshr.entries: at least the 4 sectors"));
	e->p.mshr.entries = 5;
	assert_int_equal(l2_params_check_far(&e->p, "l2", &err), 0);
	e->p.mshr.entries = 4;
	assert_int_equal(l2_params_check_far(&e->p, "l2", &err), -1);
	assert_non_null(strstr(err.msg, "l2.mshr.entries: with gpu.l2_partitions = 2, at least 5"));
	e->p.mshr.granularity = MSHR_GRAN_LINE;
	e->p.mshr.entries = 1;
	assert_int_equal(l2_params_check(&e->p, "l2", &err), 0);
	assert_int_equal(l2_params_check_far(&e->p, "l2", &err), -1);
	assert_non_null(strstr(err.msg, "at least 2 (a far line's miss, 1 line entry"));
	e->p.mshr.entries = 2;
	assert_int_equal(l2_params_check_far(&e->p, "l2", &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_hit_latency, env_free),
		cmocka_unit_test_teardown(test_store_ack_latency, env_free),
		cmocka_unit_test_teardown(test_miss_latency, env_free),
		cmocka_unit_test_teardown(test_merge, env_free),
		cmocka_unit_test_teardown(test_mshr_full, env_free),
		cmocka_unit_test_teardown(test_merge_limit, env_free),
		cmocka_unit_test_teardown(test_dirty_eviction, env_free),
		cmocka_unit_test_teardown(test_partial_write_read, env_free),
		cmocka_unit_test_teardown(test_partial_write_hold, env_free),
		cmocka_unit_test_teardown(test_partial_write_off, env_free),
		cmocka_unit_test_teardown(test_conservation, env_free),
		cmocka_unit_test_teardown(test_conservation_store_ack, env_free),
		cmocka_unit_test_teardown(test_conservation_hot, env_free),
		cmocka_unit_test_teardown(test_determinism, env_free),
		cmocka_unit_test_teardown(test_params_check, env_free),
		cmocka_unit_test_teardown(test_params_check_mshr, env_free),
		cmocka_unit_test_teardown(test_partition, env_free),
		cmocka_unit_test_teardown(test_far_partition, env_free),
		cmocka_unit_test_teardown(test_far_conservation, env_free),
		cmocka_unit_test_teardown(test_far_no_deadlock, env_free),
		cmocka_unit_test_teardown(test_far_no_way_deadlock, env_free),
		cmocka_unit_test_teardown(test_controller_wait, env_free),
		cmocka_unit_test_teardown(test_controller_wait_others_go, env_free),
		cmocka_unit_test_teardown(test_miss_queue_wait, env_free),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
