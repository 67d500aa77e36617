/*
 * test_xbar.c - the SM <-> L2 crossbar (sim/mem/xbar.c) with a real event queue, clocks and links.
 *
 * Harness: source units (one per SM on the request network, one per slice on the reply network)
 * push planned requests into the crossbar's input links, one per source cycle, retrying when a
 * link is full (they are the links' producers); sink units (one per slice, one per SM) pop from
 * the output links and record the cycle, in their own clock domain. When the three periods are
 * equal the three roles share one clock object, attached in the order sources, crossbar, sinks,
 * so that ticks within an edge are in a fixed order.
 *
 * Delivery time with one clock (every number below is derived from it): a packet pushed by its
 * source at cycle c is visible at the input port at c + 1; its output port picks it at
 * t = c + 1 when free; it is pushed into the output link at D = t + ser + latency_cycles, where
 * ser = ceil(bytes / port_bytes); the sink (output link latency 1) pops it at D + 1. So an
 * unloaded packet reaches the sink at c + 1 + ser + latency_cycles + 1.
 *
 *   a. the field table and its defaults; the packet-size rule, serialisation, unloaded latency;
 *   b. one LOAD request to the exact cycle, its stamp, and the crossbar's two ticks;
 *   c. replies of 1 and 4 sectors: 2 and 5 cycles of the port; a 100 B store: 4 cycles;
 *   d. two SMs to one slice: round-robin alternation, one serialisation time apart, stalls and
 *      queueing delay exactly;
 *      and the crossbar's wake: the soonest cycle any input of either network asks for, even
 *      when an input or a network asked first for a later one;
 *   e. output backpressure: a sink that stops popping, no loss, stall cycles exact, the
 *      crossbar asleep while blocked, delivery resumes when the sink pops;
 *   f. three clock domains (725, 800, 1000 ps): an exact cross-domain delivery, then a flood in
 *      order with no loss;
 *   g. randomized: thousands of packets on both networks, random routes, sizes and sink stalls;
 *      each delivered once, to its port, per-(input, output) order kept, byte counts add up,
 *      xbar_check throughout.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "cfg.h"
#include "clock.h"
#include "eventq.h"
#include "link.h"
#include "req.h"
#include "stats.h"
#include "xbar.h"

#define MAX_PORTS 16
#define MAX_REC 20000

/* ---------------------------------------------------------------------------------------------
 * Harness
 */

struct env;

struct plan {
	struct mem_req *r;
	cycle_t at; /* source cycle at which it may be pushed */
};

struct src {
	struct env *e;
	struct clock_unit *u;
	struct link *l;
	struct plan *plan;
	uint32_t n, cap, next;
};

struct rec {
	uint64_t id;
	uint32_t src, seq, dst;
	enum mem_req_type type;
	cycle_t cyc;      /* sink cycle of the pop */
	tick_t stamp;     /* the crossbar's stamp */
	enum mem_stage stage;
};

struct sink {
	struct env *e;
	struct clock_unit *u;
	struct link *l;   /* the output link it consumes */
	uint32_t idx;
	bool enabled;
	uint32_t per_cycle; /* pops per cycle, 0: all visible */
	uint32_t skip_pct;  /* chance (%) of popping nothing in a cycle */
};

struct env {
	struct eventq *q;
	struct clock *cs, *cx, *cd; /* sources, crossbar, sinks (may be one clock) */
	struct req_pool *pool;
	struct stats *st;
	struct xbar_params p;
	struct xbar *x;
	uint32_t nsm, nslices;
	struct src src[2 * MAX_PORTS];  /* SMs 0..nsm-1, then slices */
	struct sink snk[2 * MAX_PORTS]; /* slices 0..nslices-1, then SMs */
	struct link *out[2 * MAX_PORTS];
	struct rec *rec;
	uint32_t nrec;
	uint64_t rng;
};

static uint64_t rnd(struct env *e)
{
	/* xorshift64*: deterministic, state in the env. */
	e->rng ^= e->rng >> 12;
	e->rng ^= e->rng << 25;
	e->rng ^= e->rng >> 27;
	return e->rng * UINT64_C(2685821657736338717);
}

static void src_tick(void *unit, cycle_t now)
{
	struct src *s = unit;

	if (s->next < s->n && s->plan[s->next].at <= now) {
		if (!link_try_push(s->l, s->plan[s->next].r)) {
			clock_sleep(s->u); /* the link's pop wakes us */
			return;
		}
		s->next++;
	}
	if (s->next == s->n)
		clock_sleep(s->u);
	else
		clock_sleep_until(s->u, s->plan[s->next].at);
}

static void sink_tick(void *unit, cycle_t now)
{
	struct sink *k = unit;
	struct env *e = k->e;
	uint32_t n = 0;
	cycle_t c;

	if (!k->enabled) {
		clock_sleep(k->u);
		return;
	}
	while (link_peek(k->l) != NULL && (k->per_cycle == 0 || n < k->per_cycle)) {
		struct mem_req *r;
		struct rec *rc;

		if (k->skip_pct != 0 && rnd(e) % 100 < k->skip_pct)
			break;
		r = link_pop(k->l);
		SIM_ASSERT(e->nrec < MAX_REC);
		rc = &e->rec[e->nrec++];
		rc->id = r->id;
		rc->src = r->warp;
		rc->seq = r->inst;
		rc->dst = k->idx;
		rc->type = r->type;
		rc->cyc = now;
		rc->stage = r->stage;
		rc->stamp = r->stamp[r->stage];
		req_free(e->pool, r, eventq_now(e->q));
		n++;
	}
	c = link_head_ready(k->l);
	clock_sleep_until(k->u, c <= now ? now + 1 : c);
}

static void env_init(struct env *e, const struct xbar_params *p, uint32_t nsm, uint32_t nslices,
		     tick_t ps, tick_t px, tick_t pd, uint32_t out_cap)
{
	uint32_t i;

	memset(e, 0, sizeof *e);
	SIM_ASSERT(nsm <= MAX_PORTS && nslices <= MAX_PORTS);
	e->q = eventq_create();
	e->cs = clock_create(e->q, "src", ps);
	e->cx = px == ps ? e->cs : clock_create(e->q, "xbar", px);
	e->cd = pd == ps ? e->cs : pd == px ? e->cx : clock_create(e->q, "dst", pd);
	e->pool = req_pool_create(256);
	e->st = stats_create();
	e->p = *p;
	e->nsm = nsm;
	e->nslices = nslices;
	e->rec = calloc(MAX_REC, sizeof *e->rec);
	e->rng = 0x9e3779b97f4a7c15ull;
	for (i = 0; i < nsm + nslices; i++) {
		e->src[i].e = e;
		e->src[i].u = clock_attach(e->cs, "src", src_tick, &e->src[i]);
	}
	e->x = xbar_create(&e->p, nsm, nslices, e->cx, e->st, "xbar");
	for (i = 0; i < nsm + nslices; i++) {
		e->src[i].l = i < nsm ? xbar_req_in(e->x, i) : xbar_reply_in(e->x, i - nsm);
		link_set_producer(e->src[i].l, e->src[i].u);
	}
	for (i = 0; i < nslices + nsm; i++) {
		struct sink *k = &e->snk[i];

		k->e = e;
		k->idx = i;
		k->enabled = true;
		k->u = clock_attach(e->cd, "sink", sink_tick, k);
		e->out[i] = link_create("out", out_cap, 1, e->cd, k->u);
		k->l = e->out[i];
		if (i < nslices)
			xbar_set_req_out(e->x, i, e->out[i]);
		else
			xbar_set_reply_out(e->x, i - nslices, e->out[i]);
	}
}

static void env_fini(struct env *e)
{
	uint32_t i;

	assert_int_equal(xbar_pending(e->x), 0);
	xbar_check(e->x);
	req_pool_check(e->pool);
	assert_true(req_pool_is_drained(e->pool));
	xbar_destroy(e->x);
	for (i = 0; i < e->nsm + e->nslices; i++) {
		link_destroy(e->out[i]);
		free(e->src[i].plan);
	}
	stats_destroy(e->st);
	req_pool_destroy(e->pool);
	if (e->cd != e->cs && e->cd != e->cx)
		clock_destroy(e->cd);
	if (e->cx != e->cs)
		clock_destroy(e->cx);
	clock_destroy(e->cs);
	eventq_destroy(e->q);
	free(e->rec);
}

/* A fresh request of type t from source src (an SM on the request network, a slice on the reply
 * network), numbered seq within its source. */
static struct mem_req *mk(struct env *e, enum mem_req_type t, uint32_t sm, uint32_t slice,
			  uint32_t sectors, uint32_t bytes)
{
	struct mem_req *r = req_alloc(e->pool, 0);

	r->type = t;
	r->sm = (uint16_t)sm;
	r->slice = slice;
	r->sector_mask = sectors;
	r->bytes = bytes;
	return r;
}

/* Plans r to be pushed by source s at source cycle at (plans of a source in cycle order). */
static void plan(struct env *e, uint32_t s, struct mem_req *r, cycle_t at)
{
	struct src *sr = &e->src[s];

	if (sr->n == sr->cap) {
		sr->cap = sr->cap ? 2 * sr->cap : 16;
		sr->plan = realloc(sr->plan, sr->cap * sizeof *sr->plan);
	}
	assert_true(sr->n == 0 || sr->plan[sr->n - 1].at <= at);
	r->warp = (uint16_t)s;
	r->inst = sr->n;
	sr->plan[sr->n].r = r;
	sr->plan[sr->n].at = at;
	if (sr->n++ == 0)
		clock_wake_at(sr->u, at);
}

static struct mem_req *plan_req(struct env *e, enum mem_req_type t, uint32_t sm, uint32_t slice,
				uint32_t sectors, uint32_t bytes, cycle_t at)
{
	struct mem_req *r = mk(e, t, sm, slice, sectors, bytes);

	plan(e, sm, r, at);
	return r;
}

static struct mem_req *plan_reply(struct env *e, enum mem_req_type t, uint32_t slice,
				  uint32_t sm, uint32_t sectors, cycle_t at)
{
	struct mem_req *r = mk(e, t, sm, slice, sectors, 0);

	plan(e, e->nsm + slice, r, at);
	return r;
}

/* Runs until nothing is scheduled, checking the crossbar every step. */
static void run(struct env *e)
{
	while (eventq_step(e->q))
		xbar_check(e->x);
}

static const struct rec *find_rec(const struct env *e, uint32_t src, uint32_t seq)
{
	uint32_t i;

	for (i = 0; i < e->nrec; i++)
		if (e->rec[i].src == src && e->rec[i].seq == seq)
			return &e->rec[i];
	fail_msg("packet %u of source %u was not delivered", seq, src);
	return NULL;
}

static double stat(const struct env *e, const char *name)
{
	double v;

	if (!stats_get(e->st, name, &v))
		fail_msg("no statistic %s", name);
	return v;
}

static struct xbar_params params(uint32_t lat, uint32_t req_b, uint32_t reply_b, uint32_t hdr,
				 uint32_t inbuf)
{
	struct xbar_params p = { lat, req_b, reply_b, hdr, inbuf, 0, XBAR_ARB_FIFO, XBAR_ARB_FIFO };

	return p;
}

/* ---------------------------------------------------------------------------------------------
 * a. Parameters and packet sizes
 */

static void test_fields_table(void **state)
{
	const struct cfg_group g = { "xbar", "crossbar", xbar_fields, XBAR_NFIELDS, 0 };
	const struct cfg_schema s = { &g, 1 };
	struct xbar_params p;
	struct sim_err err;
	size_t i;

	(void)state;
	assert_int_equal(xbar_nfields, XBAR_NFIELDS);
	for (i = 0; i < XBAR_NFIELDS; i++)
		assert_true(strlen(xbar_fields[i].desc) > 20);
	memset(&p, 0xa5, sizeof p);
	if (cfg_defaults(&s, &p, &err) != 0)
		fail_msg("cfg_defaults: %s", err.msg);
	assert_int_equal(p.latency_cycles, 8);
	assert_int_equal(p.req_port_bytes, 32);
	assert_int_equal(p.reply_port_bytes, 32);
	assert_int_equal(p.header_bytes, 8);
	assert_int_equal(p.input_buffer, 8);
	assert_int_equal(p.slice_port_bytes, 0);
	assert_int_equal(p.arbiter, XBAR_ARB_AGE);
	assert_int_equal(p.reply_arbiter, XBAR_ARB_ISLIP);
	assert_string_equal(xbar_arbiter_names[XBAR_ARB_FIFO], "fifo");
	assert_string_equal(xbar_arbiter_names[XBAR_ARB_ISLIP], "islip");
	assert_string_equal(xbar_arbiter_names[XBAR_ARB_AGE], "age");
	assert_null(xbar_arbiter_names[3]);
}

static void test_packet_bytes(void **state)
{
	struct xbar_params p = params(4, 32, 32, 8, 4);
	struct mem_req r;

	(void)state;
	memset(&r, 0, sizeof r);
	/* A load request carries its header only, whatever it asks for. */
	r.type = MEM_REQ_LOAD;
	r.sector_mask = 0xf;
	r.bytes = 128;
	assert_int_equal(xbar_packet_bytes(&p, &r, false), 8);
	/* Its reply carries 32 B per sector. */
	assert_int_equal(xbar_packet_bytes(&p, &r, true), 8 + 128);
	r.sector_mask = 0x4;
	assert_int_equal(xbar_packet_bytes(&p, &r, true), 8 + 32);
	/* A store carries the bytes its mask writes: 20 bits set -> 28 B; its reply is an ack. */
	r.type = MEM_REQ_STORE;
	r.byte_mask[0] = 0xfffff;
	assert_int_equal(xbar_packet_bytes(&p, &r, false), 28);
	assert_int_equal(xbar_packet_bytes(&p, &r, true), 8);
	/* Both halves of the 128 B mask count. */
	r.byte_mask[1] = UINT64_C(0xff) << 56;
	assert_int_equal(xbar_packet_bytes(&p, &r, false), 36);
	/* No mask: r->bytes. */
	r.byte_mask[0] = r.byte_mask[1] = 0;
	r.bytes = 16;
	assert_int_equal(xbar_packet_bytes(&p, &r, false), 24);
	/* An atomic carries its operands down and its sector back. */
	r.type = MEM_REQ_ATOMIC;
	r.bytes = 4;
	r.sector_mask = 0x1;
	assert_int_equal(xbar_packet_bytes(&p, &r, false), 12);
	assert_int_equal(xbar_packet_bytes(&p, &r, true), 40);
	/* The header size is a parameter. */
	p.header_bytes = 0;
	assert_int_equal(xbar_packet_bytes(&p, &r, false), 4);

	assert_int_equal(xbar_serial_cycles(8, 32), 1);
	assert_int_equal(xbar_serial_cycles(32, 32), 1);
	assert_int_equal(xbar_serial_cycles(33, 32), 2);
	assert_int_equal(xbar_serial_cycles(40, 32), 2);
	assert_int_equal(xbar_serial_cycles(136, 32), 5);
	assert_int_equal(xbar_serial_cycles(136, 64), 3);
	assert_int_equal(xbar_serial_cycles(0, 32), 1);
	/* 1 (input link) + ser + latency. */
	p = params(4, 32, 64, 8, 4);
	assert_int_equal(xbar_unloaded_cycles(&p, 8, false), 1 + 1 + 4);
	assert_int_equal(xbar_unloaded_cycles(&p, 136, false), 1 + 5 + 4);
	assert_int_equal(xbar_unloaded_cycles(&p, 136, true), 1 + 3 + 4);
}

static void check_delivery(const struct env *e, uint32_t total);

/* ---------------------------------------------------------------------------------------------
 * b, c. Unloaded packets on exact cycles
 */

/* LOAD pushed at cycle 10: visible 11, picked 11, ser 1, latency 4 -> pushed into the output
 * link at 16, popped by the slice at 17. */
static void test_single_load(void **state)
{
	struct xbar_params p = params(4, 32, 32, 8, 4);
	struct env e;
	const struct rec *rc;

	(void)state;
	env_init(&e, &p, 2, 3, 1000, 1000, 1000, 2);
	plan_req(&e, MEM_REQ_LOAD, 1, 2, 0xf, 128, 10);
	run(&e);
	assert_int_equal(e.nrec, 1);
	rc = find_rec(&e, 1, 0);
	assert_int_equal(rc->dst, 2);
	assert_int_equal(rc->cyc, 10 + 1 + 1 + 4 + 1);
	assert_int_equal(rc->stage, MEM_STAGE_XBAR_REQ);
	assert_int_equal(rc->stamp, 11000);
	/* Ticked at the pick (11) and the delivery (16), asleep otherwise. */
	assert_int_equal(clock_unit_ticks(xbar_unit(e.x)), 2);
	assert_false(clock_is_awake(xbar_unit(e.x)));
	assert_int_equal(xbar_in_stats(e.x, XBAR_NET_REQ, 1)->packets, 1);
	assert_int_equal(xbar_in_stats(e.x, XBAR_NET_REQ, 1)->bytes, 8);
	assert_int_equal(xbar_out_stats(e.x, XBAR_NET_REQ, 2)->packets, 1);
	assert_int_equal(xbar_out_stats(e.x, XBAR_NET_REQ, 2)->busy_cycles, 1);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REQ)->packets, 1);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REPLY)->packets, 0);
	assert_true(stat(&e, "xbar.req.packets") == 1);
	assert_true(stat(&e, "xbar.req.bytes") == 8);
	assert_true(stat(&e, "xbar.req.in1.packets") == 1);
	assert_true(stat(&e, "xbar.req.out2.bytes") == 8);
	assert_true(stat(&e, "xbar.req.queue_delay.count") == 1);
	assert_true(stat(&e, "xbar.req.queue_delay.mean") == 0);
	assert_true(stat(&e, "xbar.reply.packets") == 0);
	env_fini(&e);
}

/* One slice, two 4-sector replies (136 B) to two SMs, pushed at 10. Without a slice port
 * limit the slice's input pops one a cycle (11, 12): SM 0 gets its reply at 11 + 5 + 4 + 1 =
 * 21, SM 1 at 22. With slice_port_bytes = 32 the slice sends the first's 128 data bytes for 4
 * cycles (the header beside them): the second pops at 15 and arrives at 25. */
static void test_slice_port(void **state)
{
	struct env e;
	int lim;

	(void)state;
	for (lim = 0; lim < 2; lim++) {
		struct xbar_params p = params(4, 32, 32, 8, 4);

		p.slice_port_bytes = lim ? 32 : 0;
		env_init(&e, &p, 2, 2, 1000, 1000, 1000, 2);
		plan_reply(&e, MEM_REQ_LOAD, 0, 0, 0xf, 10);
		plan_reply(&e, MEM_REQ_LOAD, 0, 1, 0xf, 10);
		run(&e);
		assert_int_equal(e.nrec, 2);
		assert_int_equal(find_rec(&e, 2, 0)->cyc, 21);
		assert_int_equal(find_rec(&e, 2, 1)->cyc, lim ? 25 : 22);
		env_fini(&e);
	}
}

/* Replies pushed at cycle 10 to two different SMs (no contention): 1 sector = 40 B = 2 cycles,
 * popped at 10 + 1 + 2 + 4 + 1 = 18; 4 sectors = 136 B = 5 cycles, at 21: 3 cycles later (the
 * header is paid once: (8 + 128) / 32 rounds up to 5, (8 + 32) / 32 to 2). A 100 B store (108 B,
 * 4 cycles) from cycle 10: 10 + 1 + 4 + 4 + 1 = 20. */
static void test_packet_size_timing(void **state)
{
	struct xbar_params p = params(4, 32, 32, 8, 4);
	struct env e;
	struct mem_req *st;

	(void)state;
	env_init(&e, &p, 2, 2, 1000, 1000, 1000, 2);
	plan_reply(&e, MEM_REQ_LOAD, 0, 0, 0x1, 10);
	plan_reply(&e, MEM_REQ_LOAD, 1, 1, 0xf, 10);
	st = plan_req(&e, MEM_REQ_STORE, 0, 1, 0xf, 100, 10);
	st->byte_mask[0] = ~UINT64_C(0);
	st->byte_mask[1] = (UINT64_C(1) << 36) - 1; /* 64 + 36 = 100 bytes */
	run(&e);
	assert_int_equal(e.nrec, 3);
	assert_int_equal(find_rec(&e, 2, 0)->cyc, 18);
	assert_int_equal(find_rec(&e, 2, 0)->dst, 2 + 0);
	assert_int_equal(find_rec(&e, 2, 0)->stage, MEM_STAGE_XBAR_REPLY);
	assert_int_equal(find_rec(&e, 3, 0)->cyc, 21);
	assert_int_equal(find_rec(&e, 3, 0)->dst, 2 + 1);
	assert_int_equal(find_rec(&e, 3, 0)->cyc - find_rec(&e, 2, 0)->cyc, 3);
	assert_int_equal(find_rec(&e, 0, 0)->cyc, 20);
	assert_int_equal(find_rec(&e, 0, 0)->dst, 1);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REPLY)->bytes, 40 + 136);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REPLY)->busy_cycles, 2 + 5);
	assert_int_equal(xbar_out_stats(e.x, XBAR_NET_REPLY, 1)->busy_cycles, 5);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REQ)->bytes, 108);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REQ)->busy_cycles, 4);

	/* A wider reply port: 136 B at 64 B/cycle is 3 cycles. */
	env_fini(&e);
	p.reply_port_bytes = 64;
	env_init(&e, &p, 1, 1, 1000, 1000, 1000, 2);
	plan_reply(&e, MEM_REQ_LOAD, 0, 0, 0xf, 10);
	run(&e);
	assert_int_equal(find_rec(&e, 1, 0)->cyc, 10 + 1 + 3 + 4 + 1);
	env_fini(&e);
}

/* ---------------------------------------------------------------------------------------------
 * d. Contention: round-robin
 */

/* SM0 and SM1 each push three 32 B stores (40 B: ser 2) to slice 0 at cycles 0, 1, 2 (visible
 * 1, 2, 3). Picks alternate SM0, SM1, ... one serialisation apart: t = 1, 3, 5, 7, 9, 11;
 * popped by the slice at t + 2 + 4 + 1. Stall cycles (head visible, not picked): SM0 0 + 3 + 3,
 * SM1 2 + 3 + 3. Queueing delay (pick - visible): SM0 0, 3, 6; SM1 2, 5, 8: mean 4. */
static void test_round_robin(void **state)
{
	struct xbar_params p = params(4, 32, 32, 8, 4);
	struct env e;
	uint32_t k, sm;

	(void)state;
	env_init(&e, &p, 2, 1, 1000, 1000, 1000, 4);
	for (k = 0; k < 3; k++)
		for (sm = 0; sm < 2; sm++)
			plan_req(&e, MEM_REQ_STORE, sm, 0, 0x1, 32, k);
	run(&e);
	assert_int_equal(e.nrec, 6);
	for (k = 0; k < 6; k++) {
		/* Delivery order alternates, and so the records do. */
		assert_int_equal(e.rec[k].src, k % 2);
		assert_int_equal(e.rec[k].seq, k / 2);
		assert_int_equal(e.rec[k].cyc, (1 + 2 * k) + 2 + 4 + 1);
		assert_int_equal(e.rec[k].stamp, 1000 * (k / 2 + 1));
	}
	/* The second SM's first packet waits exactly one serialisation time. */
	assert_int_equal(find_rec(&e, 1, 0)->cyc - find_rec(&e, 0, 0)->cyc, 2);
	assert_int_equal(xbar_in_stats(e.x, XBAR_NET_REQ, 0)->stall_busy, 6);
	assert_int_equal(xbar_in_stats(e.x, XBAR_NET_REQ, 1)->stall_busy, 8);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REQ)->stall_busy, 14);
	assert_int_equal(xbar_out_stats(e.x, XBAR_NET_REQ, 0)->busy_cycles, 12);
	assert_int_equal(xbar_out_stats(e.x, XBAR_NET_REQ, 0)->bytes, 240);
	assert_int_equal(xbar_out_stats(e.x, XBAR_NET_REQ, 0)->stall_full, 0);
	assert_true(stat(&e, "xbar.req.queue_delay.count") == 6);
	assert_true(stat(&e, "xbar.req.queue_delay.mean") == 4);
	assert_true(stat(&e, "xbar.req.queue_delay.max") == 8);
	assert_true(stat(&e, "xbar.req.in1.stall_busy") == 8);
	env_fini(&e);
}

/*
 * Head-of-line blocking, and what virtual output queues remove. Two SMs, two slices, latency 4:
 *   SM1 at cycle 0: a 128 B store to slice 0 (136 B, ser 5): picked at 1, slice 0 busy to 6;
 *   SM0 at cycle 1: a load to slice 0 (visible 2): picked at 6 either way, at the slice at
 *                   6 + 1 + 4 + 1 = 12;
 *   SM0 at cycle 2: a load to slice 1 (visible 3): with fifo it waits behind SM0's head and is
 *                   picked at 7 (an input pops one packet a cycle), at the slice at 13; with
 *                   islip it is offered at once: picked at 3, at the slice at 9;
 *   SM0 at cycle 3: a load to slice 0 again (visible 4): after SM0's first to slice 0 in both
 *                   (per-pair order): picked at 7 with islip (at 8 with fifo), at the slice at
 *                   13 (14).
 * SM0's stall_busy counts the cycles from when a packet could first leave (visible, and the
 * input's previous pop done) to its pop: its first load 2 -> 6 with fifo (4), 4 -> 6 with islip
 * (2: the load to slice 1 left at 3), 0 for the others.
 */
static void test_head_of_line(void **state)
{
	struct env e;
	int arb;

	(void)state;
	for (arb = XBAR_ARB_FIFO; arb <= XBAR_ARB_ISLIP; arb++) {
		struct xbar_params p = params(4, 32, 32, 8, 4);
		struct mem_req *st;
		bool islip = arb == XBAR_ARB_ISLIP;

		p.arbiter = (uint32_t)arb;
		p.reply_arbiter = (uint32_t)arb;
		env_init(&e, &p, 2, 2, 1000, 1000, 1000, 4);
		st = plan_req(&e, MEM_REQ_STORE, 1, 0, 0xf, 128, 0);
		st->byte_mask[0] = st->byte_mask[1] = ~UINT64_C(0);
		plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 1);
		plan_req(&e, MEM_REQ_LOAD, 0, 1, 0x1, 32, 2);
		plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 3);
		run(&e);
		assert_int_equal(e.nrec, 4);
		assert_int_equal(find_rec(&e, 1, 0)->cyc, 1 + 5 + 4 + 1);
		assert_int_equal(find_rec(&e, 0, 0)->cyc, 12);
		assert_int_equal(find_rec(&e, 0, 1)->cyc, islip ? 9 : 13);
		assert_int_equal(find_rec(&e, 0, 1)->dst, 1);
		assert_int_equal(find_rec(&e, 0, 2)->cyc, islip ? 13 : 14);
		assert_int_equal(xbar_in_stats(e.x, XBAR_NET_REQ, 0)->stall_busy, islip ? 2 : 4);
		env_fini(&e);
	}
}

/*
 * One iSLIP iteration: an input sends at most one packet a cycle, and accepts round-robin. SM0
 * holds loads for slices 0, 1 and 2 (pushed at 0, 1, 2), SM1 one for slice 0 (pushed at 2).
 * Cycle 1: SM0 offers slice 0 only: picked. Cycle 2: SM0 offers slice 1: picked (its accept
 * pointer is past slice 0). Cycle 3: slice 0 is free again and both SM1 (to slice 0) and SM0
 * (to slice 2) are offered; slice 0 grants SM1 (its pointer is past SM0), slice 2 grants SM0:
 * both accepted in the same cycle. Every load arrives at pick + 1 + 4 + 1.
 */
static void test_islip_match(void **state)
{
	struct xbar_params p = params(4, 32, 32, 8, 4);
	struct env e;

	(void)state;
	p.arbiter = XBAR_ARB_ISLIP;
	p.reply_arbiter = XBAR_ARB_ISLIP;
	env_init(&e, &p, 2, 3, 1000, 1000, 1000, 4);
	plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 0);
	plan_req(&e, MEM_REQ_LOAD, 0, 1, 0x1, 32, 1);
	plan_req(&e, MEM_REQ_LOAD, 0, 2, 0x1, 32, 2);
	plan_req(&e, MEM_REQ_LOAD, 1, 0, 0x1, 32, 2);
	run(&e);
	assert_int_equal(e.nrec, 4);
	assert_int_equal(find_rec(&e, 0, 0)->cyc, 1 + 6);
	assert_int_equal(find_rec(&e, 0, 1)->cyc, 2 + 6);
	assert_int_equal(find_rec(&e, 0, 2)->cyc, 3 + 6);
	assert_int_equal(find_rec(&e, 1, 0)->cyc, 3 + 6);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REQ)->stall_busy, 0);
	env_fini(&e);
}

/*
 * Oldest first (xbar.arbiter = "age") against iSLIP's round-robin, at the grant and at the accept.
 * Grant: SM0's 128 B store to slice 0 (pushed at 0) is picked at 1 and holds the port 5 cycles
 * (8 + 128 B at 32 B a cycle), so slice 0's pointer moves to SM1. SM0's load to slice 0 (pushed
 * at 1) and SM1's (pushed at 3) both wait for cycle 6: iSLIP grants SM1 (its pointer), age SM0
 * (visible at 2, SM1's at 4); the winner is picked at 6 and arrives at 6 + 1 + 4 + 1 = 12, the
 * other at 13. Accept: SM1's stores keep slice 1 busy from 1 (128 B, 5 cycles) and slice 0 from
 * 2 (96 B, 4 cycles) until 6; SM0's loads to slice 1 (pushed at 2) and to slice 0 (at 3) both
 * wait for it, when both slices grant SM0: iSLIP accepts slice 0 (SM0's accept pointer starts
 * there), age the older load, to slice 1; picked at 6 (arrives 12), the other at 7 (13).
 */
static void test_age_match(void **state)
{
	uint32_t arb;

	(void)state;
	for (arb = XBAR_ARB_ISLIP; arb <= XBAR_ARB_AGE; arb++) {
		struct xbar_params p = params(4, 32, 32, 8, 4);
		bool age = arb == XBAR_ARB_AGE;
		struct mem_req *st;
		struct env e;

		p.arbiter = arb;
		p.reply_arbiter = arb;
		env_init(&e, &p, 2, 2, 1000, 1000, 1000, 4);
		st = plan_req(&e, MEM_REQ_STORE, 0, 0, 0xf, 128, 0);
		st->byte_mask[0] = st->byte_mask[1] = ~UINT64_C(0);
		plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 1);
		plan_req(&e, MEM_REQ_LOAD, 1, 0, 0x1, 32, 3);
		run(&e);
		assert_int_equal(e.nrec, 3);
		assert_int_equal(find_rec(&e, 0, 0)->cyc, 1 + 5 + 4 + 1);
		assert_int_equal(find_rec(&e, 0, 1)->cyc, age ? 12 : 13);
		assert_int_equal(find_rec(&e, 1, 0)->cyc, age ? 13 : 12);
		env_fini(&e);

		env_init(&e, &p, 2, 2, 1000, 1000, 1000, 4);
		st = plan_req(&e, MEM_REQ_STORE, 1, 1, 0xf, 128, 0);
		st->byte_mask[0] = st->byte_mask[1] = ~UINT64_C(0);
		st = plan_req(&e, MEM_REQ_STORE, 1, 0, 0x7, 96, 1);
		st->byte_mask[0] = ~UINT64_C(0);
		st->byte_mask[1] = UINT64_C(0xffffffff);
		plan_req(&e, MEM_REQ_LOAD, 0, 1, 0x1, 32, 2);
		plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 3);
		run(&e);
		assert_int_equal(e.nrec, 4);
		assert_int_equal(find_rec(&e, 1, 0)->cyc, 1 + 5 + 4 + 1);
		assert_int_equal(find_rec(&e, 1, 1)->cyc, 2 + 4 + 4 + 1);
		assert_int_equal(find_rec(&e, 0, 0)->dst, 1);
		assert_int_equal(find_rec(&e, 0, 0)->cyc, age ? 12 : 13);
		assert_int_equal(find_rec(&e, 0, 1)->cyc, age ? 13 : 12);
		env_fini(&e);
	}
}

/* The crossbar sleeps until the soonest cycle any input or output of either network asks for,
 * whichever is asked first (xbar_next stops at the first that asks for the next cycle). At
 * cycle 2: SM0's load waits for slice 0, which serialises SM0's 80 B store (88 B, 3 cycles) until
 * 4; SM1 and SM2 offer loads to slice 1 (1 cycle each), SM1 goes first (round-robin from SM0)
 * and SM2's lost: it must be picked at 3, not when SM0's is at 4. Then the same on the reply
 * network, asked after the request network: SM0's load waits as before (its network asks for
 * 4), slices 1 and 2 send one-sector replies to SM1 (40 B, one cycle at 64 B), slice 2's lost
 * and goes at 3. A packet picked at t reaches its sink at t + ser + 4 + 1. */
static void test_wake_soonest(void **state)
{
	uint32_t arb;

	(void)state;
	for (arb = XBAR_ARB_ISLIP; arb <= XBAR_ARB_AGE; arb++) {
		struct xbar_params p = params(4, 32, 64, 8, 4);
		struct env e;

		p.arbiter = arb;
		p.reply_arbiter = arb;
		env_init(&e, &p, 3, 3, 1000, 1000, 1000, 4);
		plan_req(&e, MEM_REQ_STORE, 0, 0, 0x7, 80, 0);
		plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 1);
		plan_req(&e, MEM_REQ_LOAD, 1, 1, 0x1, 32, 1);
		plan_req(&e, MEM_REQ_LOAD, 2, 1, 0x1, 32, 1);
		run(&e);
		assert_int_equal(e.nrec, 4);
		assert_int_equal(find_rec(&e, 0, 0)->cyc, 1 + 3 + 4 + 1);
		assert_int_equal(find_rec(&e, 0, 1)->cyc, 4 + 1 + 4 + 1);
		assert_int_equal(find_rec(&e, 1, 0)->cyc, 2 + 1 + 4 + 1);
		assert_int_equal(find_rec(&e, 2, 0)->cyc, 3 + 1 + 4 + 1);
		env_fini(&e);

		env_init(&e, &p, 3, 3, 1000, 1000, 1000, 4);
		plan_req(&e, MEM_REQ_STORE, 0, 0, 0x7, 80, 0);
		plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 1);
		plan_reply(&e, MEM_REQ_LOAD, 1, 1, 0x1, 1);
		plan_reply(&e, MEM_REQ_LOAD, 2, 1, 0x1, 1);
		run(&e);
		assert_int_equal(e.nrec, 4);
		assert_int_equal(find_rec(&e, 0, 1)->cyc, 4 + 1 + 4 + 1);
		assert_int_equal(find_rec(&e, 3 + 1, 0)->cyc, 2 + 1 + 4 + 1);
		assert_int_equal(find_rec(&e, 3 + 2, 0)->cyc, 3 + 1 + 4 + 1);
		env_fini(&e);
	}
}

/*
 * Saturation under uniform traffic: 8 SMs each keep their input full of loads (ser 1) to slices
 * drawn uniformly, the slices pop everything at once. An input-queued switch that looks only
 * at heads saturates near 2 - sqrt(2) = 59% of its outputs for large N (61.8% at N = 8,
 * Karol, Hluchyj and Morgan 1987); with virtual output queues and one iSLIP iteration above
 * that, the more so the more packets an input holds.
 */
static double saturated_rate(uint32_t arbiter, uint32_t buf)
{
	struct xbar_params p = params(2, 32, 32, 8, buf);
	struct env e;
	uint32_t s, k;
	const uint32_t per = 2000;
	double rate;

	p.arbiter = arbiter;
	p.reply_arbiter = arbiter;
	env_init(&e, &p, 8, 8, 1000, 1000, 1000, 64);
	for (s = 0; s < 8; s++)
		for (k = 0; k < per; k++)
			plan_req(&e, MEM_REQ_LOAD, s, (uint32_t)(rnd(&e) % 8), 0x1, 32, 0);
	run(&e);
	check_delivery(&e, 8 * per);
	/* packets per output per cycle over the run */
	rate = 8.0 * per / 8.0 / (double)clock_cycle(e.cx);
	env_fini(&e);
	return rate;
}

static void test_saturation(void **state)
{
	double fifo = saturated_rate(XBAR_ARB_FIFO, 8), islip = saturated_rate(XBAR_ARB_ISLIP, 8);

	(void)state;
	/* 0.614 and 0.708 when written */
	assert_true(fifo > 0.60 && fifo < 0.64);
	assert_true(islip > 0.68);
	/* The head-only switch does not gain from a deeper buffer; virtual output queues do (0.892
	 * at 64 packets: more outputs to offer each cycle). */
	assert_true(saturated_rate(XBAR_ARB_FIFO, 64) < 0.64);
	assert_true(saturated_rate(XBAR_ARB_ISLIP, 64) > 0.85);
}

/* ---------------------------------------------------------------------------------------------
 * e. Output backpressure
 */

static void enable_sink(void *ctx, tick_t now)
{
	struct sink *k = ctx;

	(void)now;
	k->enabled = true;
	clock_wake(k->u);
}

/*
 * SM0 sends ten loads (ser 1) to slice 0, one per cycle from cycle 0; latency 2 (pipeline of 3
 * slots), input buffer 4, output link of 2; the slice pops nothing until it is enabled at 50.5
 * (first pop at 51), then one per cycle.
 *   p_k is pushed at k, picked at k + 1, due at k + 4. p0 and p1 fill the output link (4, 5);
 *   p2 is refused at 6 (the stall starts), p3 and p4 fill the pipeline, p5..p8 the input
 *   buffer, and the source holds p9 (refused at 9). Nothing is lost; the crossbar sleeps.
 *   The slice pops p0 at 51, which wakes the crossbar for 52: p2 goes (46 stall cycles), p3 is
 *   refused at 52 and goes at 53 (1), p4 likewise at 53 -> 54 (1); from p5 on the pipeline is
 *   behind the slice. The slice pops p_k at 51 + k.
 *   stall_full = 46 + 1 + 1 = 48. stall_busy (SM0): p5 visible at 6, picked at 52: 46.
 *   Queueing delay: p5..p8 46 each (ready 6..9, picked 52..55), p9 2 (ready 54, picked 56).
 */
static void test_backpressure(void **state)
{
	struct xbar_params p = params(2, 32, 32, 8, 4);
	struct env e;
	uint32_t k;

	(void)state;
	env_init(&e, &p, 1, 1, 1000, 1000, 1000, 2);
	e.snk[0].enabled = false;
	e.snk[0].per_cycle = 1;
	for (k = 0; k < 10; k++)
		plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, k);
	eventq_schedule(e.q, 50500, EVQ_PRIO_DEFAULT, enable_sink, &e.snk[0]);
	eventq_run_until(e.q, 40000);
	/* Blocked: 2 in the output link, 3 in the pipeline, 4 in the input link, 1 at the
	 * source. */
	assert_int_equal(e.nrec, 0);
	assert_int_equal(link_occupancy(e.out[0]), 2);
	assert_int_equal(link_occupancy(xbar_req_in(e.x, 0)), 4);
	assert_int_equal(xbar_pending(e.x), 3 + 4);
	assert_int_equal(e.src[0].next, 9);
	assert_false(clock_is_awake(xbar_unit(e.x)));
	assert_true(clock_unit_ticks(xbar_unit(e.x)) <= 10);
	xbar_check(e.x);

	run(&e);
	assert_int_equal(e.nrec, 10);
	for (k = 0; k < 10; k++) {
		assert_int_equal(e.rec[k].seq, k);
		assert_int_equal(e.rec[k].cyc, 51 + k);
	}
	assert_int_equal(xbar_out_stats(e.x, XBAR_NET_REQ, 0)->stall_full, 48);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REQ)->stall_full, 48);
	assert_int_equal(xbar_in_stats(e.x, XBAR_NET_REQ, 0)->stall_busy, 46);
	assert_float_equal(stat(&e, "xbar.req.queue_delay.mean"), (4 * 46 + 2) / 10.0, 1e-9);
	assert_true(stat(&e, "xbar.req.queue_delay.max") == 46);
	assert_true(link_stats(e.out[0])->stalls > 0);
	/* Asleep through the blocked stretch: 9 ticks before it, about 8 after. */
	assert_true(clock_unit_ticks(xbar_unit(e.x)) <= 20);
	env_fini(&e);
}

/* ---------------------------------------------------------------------------------------------
 * f. Clock domains
 */

/*
 * Sources 725 ps, crossbar 800 ps, sinks 1000 ps. A load pushed at source cycle 10 (tick 7250)
 * lands in crossbar cycle 9, is visible and picked at 10, due at 10 + 1 + 4 = 15 (tick 12000 =
 * sink cycle 12), visible to the slice at 13.
 */
static void test_clock_domains_exact(void **state)
{
	struct xbar_params p = params(4, 32, 32, 8, 4);
	struct env e;

	(void)state;
	env_init(&e, &p, 1, 1, 725, 800, 1000, 2);
	plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 10);
	run(&e);
	assert_int_equal(e.nrec, 1);
	assert_int_equal(e.rec[0].cyc, 13);
	assert_int_equal(e.rec[0].stamp, 10 * 800);
	env_fini(&e);
}

static void check_delivery(const struct env *e, uint32_t total)
{
	uint32_t last[2 * MAX_PORTS][2 * MAX_PORTS];
	bool *seen = calloc(total + 2, sizeof *seen);
	uint32_t i, a, b;

	assert_int_equal(e->nrec, total);
	for (a = 0; a < 2 * MAX_PORTS; a++)
		for (b = 0; b < 2 * MAX_PORTS; b++)
			last[a][b] = UINT32_MAX;
	for (i = 0; i < e->nrec; i++) {
		const struct rec *rc = &e->rec[i];

		assert_true(rc->id <= total + 1);
		assert_false(seen[rc->id]);
		seen[rc->id] = true;
		/* Order per (input, output): sequence numbers grow. */
		if (last[rc->src][rc->dst] != UINT32_MAX)
			assert_true(rc->seq > last[rc->src][rc->dst]);
		last[rc->src][rc->dst] = rc->seq;
		/* Network by source: SMs send requests, slices replies. */
		assert_int_equal(rc->stage, rc->src < e->nsm ? MEM_STAGE_XBAR_REQ
							     : MEM_STAGE_XBAR_REPLY);
		assert_true((rc->src < e->nsm) == (rc->dst < e->nslices));
	}
	free(seen);
}

/* Fills both networks with random traffic from every source; returns the packets planned and
 * adds their bytes per network. Routes are recorded in the request; the sink index must match. */
static uint32_t plan_random(struct env *e, uint32_t per_src, uint32_t max_gap, uint64_t *bytes)
{
	uint32_t s, k, total = 0;

	bytes[0] = bytes[1] = 0;
	for (s = 0; s < e->nsm + e->nslices; s++) {
		cycle_t at = rnd(e) % 8;

		for (k = 0; k < per_src; k++) {
			enum mem_req_type t = (enum mem_req_type)(rnd(e) % 3);
			uint32_t sectors = 1 + (uint32_t)(rnd(e) % 15);
			struct mem_req *r;
			bool reply = s >= e->nsm;

			if (!reply)
				r = mk(e, t, s, (uint32_t)(rnd(e) % e->nslices), sectors,
				       1 + (uint32_t)(rnd(e) % 128));
			else
				r = mk(e, t, (uint32_t)(rnd(e) % e->nsm), s - e->nsm, sectors, 0);
			if (t == MEM_REQ_STORE && rnd(e) % 2) {
				r->byte_mask[0] = rnd(e);
				r->byte_mask[1] = rnd(e) & rnd(e);
			}
			bytes[reply] += xbar_packet_bytes(&e->p, r, reply);
			plan(e, s, r, at);
			at += rnd(e) % (max_gap + 1);
			total++;
		}
	}
	return total;
}

/* A flood across three clock domains: sinks pop one packet per cycle, output links hold two. */
static void test_clock_domains_flood(void **state)
{
	struct xbar_params p = params(3, 32, 64, 8, 4);
	struct env e;
	uint64_t bytes[2];
	uint32_t total, i;

	(void)state;
	env_init(&e, &p, 4, 2, 725, 800, 1000, 2);
	for (i = 0; i < 6; i++)
		e.snk[i].per_cycle = 1;
	total = plan_random(&e, 200, 1, bytes);
	run(&e);
	check_delivery(&e, total);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REQ)->packets, 4 * 200);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REPLY)->packets, 2 * 200);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REQ)->bytes, bytes[0]);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REPLY)->bytes, bytes[1]);
	/* Four SMs into two slices that drain one per 1000 ps: the ports back up. */
	assert_true(xbar_net_stats(e.x, XBAR_NET_REQ)->stall_busy > 0);
	env_fini(&e);
}

/* ---------------------------------------------------------------------------------------------
 * g. Randomized conservation
 */

static void random_run(tick_t ps, tick_t px, tick_t pd, uint64_t seed, uint32_t arbiter)
{
	struct xbar_params p = params(3, 32, 64, 8, 3);
	struct env e;
	uint64_t bytes[2];
	uint32_t total, i, k;
	uint64_t in_pk[2] = { 0, 0 }, in_by[2] = { 0, 0 }, out_pk[2] = { 0, 0 };
	uint64_t out_by[2] = { 0, 0 }, busy[2] = { 0, 0 }, sb[2] = { 0, 0 }, sf[2] = { 0, 0 };

	p.arbiter = arbiter;
	p.reply_arbiter = arbiter;
	env_init(&e, &p, 8, 6, ps, px, pd, 2);
	e.rng ^= seed;
	for (i = 0; i < 14; i++) {
		e.snk[i].per_cycle = (uint32_t)(rnd(&e) % 3);
		e.snk[i].skip_pct = (uint32_t)(rnd(&e) % 40);
	}
	total = plan_random(&e, 700, 3, bytes);
	assert_true(total == 14 * 700);
	run(&e);
	check_delivery(&e, total);
	/* Port counters add up to the totals, and to what was planned. */
	for (k = 0; k < 2; k++) {
		const struct xbar_port_stats *t = xbar_net_stats(e.x, (enum xbar_net)k);
		uint32_t nin = k == 0 ? e.nsm : e.nslices, nout = k == 0 ? e.nslices : e.nsm;

		for (i = 0; i < nin; i++) {
			in_pk[k] += xbar_in_stats(e.x, (enum xbar_net)k, i)->packets;
			in_by[k] += xbar_in_stats(e.x, (enum xbar_net)k, i)->bytes;
			sb[k] += xbar_in_stats(e.x, (enum xbar_net)k, i)->stall_busy;
		}
		for (i = 0; i < nout; i++) {
			out_pk[k] += xbar_out_stats(e.x, (enum xbar_net)k, i)->packets;
			out_by[k] += xbar_out_stats(e.x, (enum xbar_net)k, i)->bytes;
			busy[k] += xbar_out_stats(e.x, (enum xbar_net)k, i)->busy_cycles;
			sf[k] += xbar_out_stats(e.x, (enum xbar_net)k, i)->stall_full;
		}
		assert_int_equal(in_pk[k], t->packets);
		assert_int_equal(out_pk[k], t->packets);
		assert_int_equal(in_by[k], bytes[k]);
		assert_int_equal(out_by[k], bytes[k]);
		assert_int_equal(t->bytes, bytes[k]);
		assert_int_equal(busy[k], t->busy_cycles);
		assert_int_equal(sb[k], t->stall_busy);
		assert_int_equal(sf[k], t->stall_full);
		assert_true(t->stall_busy > 0);
		assert_true(t->stall_full > 0);
	}
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REQ)->packets, 8 * 700);
	assert_int_equal(xbar_net_stats(e.x, XBAR_NET_REPLY)->packets, 6 * 700);
	env_fini(&e);
}

static void test_random_one_clock(void **state)
{
	(void)state;
	random_run(1000, 1000, 1000, 1, XBAR_ARB_FIFO);
	random_run(1000, 1000, 1000, 4, XBAR_ARB_ISLIP);
}

static void test_random_three_clocks(void **state)
{
	(void)state;
	random_run(725, 800, 1000, 2, XBAR_ARB_FIFO);
	random_run(1000, 600, 1400, 3, XBAR_ARB_FIFO);
	random_run(725, 800, 1000, 5, XBAR_ARB_ISLIP);
	random_run(1000, 600, 1400, 6, XBAR_ARB_ISLIP);
}

/* ---------------------------------------------------------------------------------------------
 * Dump and contract
 */

static void test_dump_and_contract(void **state)
{
	struct xbar_params p = params(2, 32, 32, 8, 4);
	struct env e;
	char buf[4096];
	FILE *f;
	size_t n;

	(void)state;
	env_init(&e, &p, 1, 1, 1000, 1000, 1000, 1);
	e.snk[0].enabled = false;
	plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 0);
	plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 1);
	plan_req(&e, MEM_REQ_LOAD, 0, 0, 0x1, 32, 2);
	eventq_run_until(e.q, 20000);
	f = tmpfile();
	assert_non_null(f);
	xbar_dump(e.x, f);
	rewind(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "xbar xbar:"));
	assert_non_null(strstr(buf, "2 packets inside"));
	assert_non_null(strstr(buf, "output link full since 5"));
	/* A request for a slice that does not exist is a bug. */
	expect_assert_failure(xbar_req_in(e.x, 1));
	expect_assert_failure(xbar_reply_in(e.x, 1));
	e.snk[0].enabled = true;
	clock_wake(e.snk[0].u);
	run(&e);
	assert_int_equal(e.nrec, 3);
	env_fini(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_table),
		cmocka_unit_test(test_packet_bytes),
		cmocka_unit_test(test_single_load),
		cmocka_unit_test(test_packet_size_timing),
		cmocka_unit_test(test_slice_port),
		cmocka_unit_test(test_round_robin),
		cmocka_unit_test(test_head_of_line),
		cmocka_unit_test(test_islip_match),
		cmocka_unit_test(test_age_match),
		cmocka_unit_test(test_wake_soonest),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_backpressure),
		cmocka_unit_test(test_clock_domains_exact),
		cmocka_unit_test(test_clock_domains_flood),
		cmocka_unit_test(test_random_one_clock),
		cmocka_unit_test(test_random_three_clocks),
		cmocka_unit_test(test_dump_and_contract),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
