/*
 * test_fixedmem.c - the fixed-latency memory (sim/mem/fixedmem.c), inside a whole sim built
 * with memory.model = "fixed" and on its own, on exact cycles.
 *
 * Harness. A driver unit per SM on the core clock stands in for the SM: at scripted cycles it
 * pushes requests on the SM's request link, and it pops replies (not before `hold_until`, so a
 * test can make the reply link back up) and records the cycle each one was popped.
 *
 * Timing (L = latency_cycles, R = requests_per_cycle; both links have latency 1):
 *   pushed at c -> visible on `in` at c + 1 -> accepted at c + 1 (the k-th of a burst at
 *   c + 1 + floor(k / R)) -> pushed on `resp` L cycles after its acceptance -> popped by the
 *   driver one cycle later. So an unqueued request is popped at c + L + 2.
 *
 *   a. sim: one load, one store, a load on another SM: popped at c + L + 2 each; L = 1 too;
 *      the hierarchy's units do not exist, its l1.* / l2.* totals are zero, mem.* counts;
 *   b. sim: 4 requests pushed at once: popped at c + L + 2 + {0, 1, 2, 3} with R = 1, in
 *      pairs with R = 2, together with R = 4; queue_cycles is the sum of the waits; each SM
 *      has its own rate;
 *   c. sim: the unit sleeps: a request with L = 1000 costs 4 core edges (push, accept, reply,
 *      pop), an idle gap of half a million cycles costs none, and the queue is empty after;
 *   d. unit: a full reply link: replies wait (stall_cycles), nothing is lost, order is kept;
 *   e. unit: a full ring (L x R slots) holds the head of `in` until a reply leaves;
 *   f. the ring's size and its cap; parameter checks; probe refuses unloaded latencies.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"

#include "clock.h"
#include "eventq.h"
#include "fixedmem.h"
#include "link.h"
#include "params.h"
#include "probe.h"
#include "req.h"
#include "sim.h"
#include "stats.h"

/* ---------------------------------------------------------------------------------------------
 * Harness
 */

#define MAX_PUSH 64

struct drv_push {
	cycle_t at;
	enum mem_req_type type;
	uint64_t id;      /* filled at the push */
	cycle_t popped;   /* CYCLE_NEVER until its reply is popped */
};

struct drv {
	struct clock *clk;
	struct clock_unit *unit;
	struct link *in, *resp;
	struct req_pool *pool;
	struct drv_push push[MAX_PUSH];
	uint32_t npush, next;
	uint32_t npopped;
	uint64_t last_popped_id;  /* replies must come back in push order */
	cycle_t hold_until;       /* nothing is popped before this cycle */
};

static void drv_tick(void *self, cycle_t now)
{
	struct drv *d = self;
	struct mem_req *r;
	cycle_t next = CYCLE_NEVER, h;
	uint32_t i;

	while (now >= d->hold_until && (r = link_peek(d->resp)) != NULL) {
		link_pop(d->resp);
		assert_true(r->is_reply);
		assert_true(r->id > d->last_popped_id);
		d->last_popped_id = r->id;
		for (i = 0; i < d->npush; i++)
			if (d->push[i].id == r->id)
				break;
		assert_true(i < d->npush);
		assert_int_equal(d->push[i].popped, CYCLE_NEVER);
		d->push[i].popped = now;
		/* No stage of the hierarchy was entered (fixedmem.c: stage stamps). */
		assert_int_equal(r->stage, MEM_STAGE_CREATED);
		assert_int_equal(r->stamp[MEM_STAGE_L1_ACCESS], TICK_NEVER);
		req_free(d->pool, r, clock_tick_of(d->clk, now));
		d->npopped++;
	}
	while (d->next < d->npush && d->push[d->next].at <= now) {
		struct drv_push *p = &d->push[d->next++];

		assert_int_equal(p->at, now);
		r = req_alloc(d->pool, clock_tick_of(d->clk, now));
		r->type = p->type;
		r->addr = 128u * d->next;
		r->sector_mask = 0xf;
		r->bytes = 128;
		if (p->type == MEM_REQ_STORE) {
			r->byte_mask[0] = ~0ull;
			r->byte_mask[1] = ~0ull;
		}
		p->id = r->id;
		assert_true(link_can_push(d->in));
		link_push(d->in, r);
	}
	if (d->next < d->npush)
		next = d->push[d->next].at;
	/* A reply pushed while we were awake promised a wake that our sleep would drop (one timed
	 * wake per unit): ask for the head of resp ourselves, not before hold_until. */
	h = link_head_ready(d->resp);
	if (h != CYCLE_NEVER) {
		if (h < d->hold_until)
			h = d->hold_until;
		if (h <= now)
			h = now + 1;
		if (h < next)
			next = h;
	}
	clock_sleep_until(d->unit, next);
}

static void drv_init(struct drv *d, struct clock *clk, struct link *in, struct link *resp,
		     struct req_pool *pool, const char *name)
{
	memset(d, 0, sizeof *d);
	d->clk = clk;
	d->in = in;
	d->resp = resp;
	d->pool = pool;
	d->unit = clock_attach(clk, name, drv_tick, d);
	link_set_consumer(resp, d->unit);
	link_set_producer(in, d->unit);
}

/* Scripts n pushes of type t at cycle at (call in cycle order), and wakes the driver for the
 * first one. */
static void drv_add(struct drv *d, cycle_t at, uint32_t n, enum mem_req_type t)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		assert_true(d->npush < MAX_PUSH);
		d->push[d->npush].at = at;
		d->push[d->npush].type = t;
		d->push[d->npush].popped = CYCLE_NEVER;
		d->npush++;
	}
	clock_wake_at(d->unit, d->push[d->next].at);
}

/* A 4-SM sim of configs/test/small-gpu.cfg with the fixed model. */
static struct sim *fixed_sim(uint32_t latency, uint32_t rpc, struct gpu_params *p)
{
	char lat[64], rate[64];
	const char *ovr[3] = { "memory.model=\"fixed\"", lat, rate };
	struct sim_err err;
	struct sim *s;

	snprintf(lat, sizeof lat, "memory.latency_cycles=%u", latency);
	snprintf(rate, sizeof rate, "memory.requests_per_cycle=%u", rpc);
	memset(&err, 0, sizeof err);
	if (gpu_params_load(p, unit_src_path("configs/test/small-gpu.cfg"), ovr, 3, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(p->memory.model, GPU_MEM_FIXED);
	s = sim_create(p, &err);
	assert_non_null(s);
	assert_int_equal(sim_mem_model(s), GPU_MEM_FIXED);
	return s;
}

static double stat(struct sim *s, const char *name)
{
	double v = -1.0;

	if (!stats_get(sim_stats(s), name, &v))
		fail_msg("no statistic %s", name);
	return v;
}

/* ---------------------------------------------------------------------------------------------
 * a. Latency, exact
 */

static void run_latency(uint32_t L)
{
	struct gpu_params p;
	struct sim *s = fixed_sim(L, 1, &p);
	struct drv d0, d1;
	double v;

	drv_init(&d0, sim_core_clock(s), sim_sm_in(s, 0), sim_sm_resp(s, 0), sim_pool(s), "drv0");
	drv_init(&d1, sim_core_clock(s), sim_sm_in(s, 1), sim_sm_resp(s, 1), sim_pool(s), "drv1");
	drv_add(&d0, 10, 1, MEM_REQ_LOAD);
	drv_add(&d0, 50, 1, MEM_REQ_STORE);
	drv_add(&d1, 10, 1, MEM_REQ_LOAD);
	eventq_run_until(sim_eventq(s), TICK_NEVER);

	assert_int_equal(d0.npopped, 2);
	assert_int_equal(d1.npopped, 1);
	assert_int_equal(d0.push[0].popped, 10 + L + 2);
	assert_int_equal(d0.push[1].popped, 50 + L + 2);  /* a store is answered as well */
	assert_int_equal(d1.push[0].popped, 10 + L + 2);
	assert_true(sim_is_idle(s));
	assert_true(req_pool_is_drained(sim_pool(s)));

	sim_totals(s);
	assert_true(stat(s, "mem.requests") == 3);
	assert_true(stat(s, "mem.loads") == 2);
	assert_true(stat(s, "mem.stores") == 1);
	assert_true(stat(s, "mem.replies") == 3);
	assert_true(stat(s, "mem.queue_cycles") == 0);
	assert_true(stat(s, "mem.stall_cycles") == 0);
	assert_true(stat(s, "sm0.mem.requests") == 2);
	assert_true(stat(s, "sm1.mem.requests") == 1);
	/* The store is accepted at 51, the load of 11 is in flight until 11 + L. */
	assert_true(stat(s, "sm0.mem.in_flight.hwm") == (11 + L > 51 ? 2 : 1));
	/* No hierarchy: its units are not built, its level totals are there and zero. */
	assert_true(stat(s, "l1.accesses") == 0 && stat(s, "l2.accesses") == 0);
	assert_true(stat(s, "l1.hit_rate") == 0 && stat(s, "l2.writebacks") == 0);
	assert_false(stats_get(sim_stats(s), "sm0.l1d.accesses", &v));
	assert_false(stats_get(sim_stats(s), "xbar.req.packets", &v));
	assert_false(stats_get(sim_stats(s), "mc0.reads", &v));
	sim_destroy(s);
}

static void test_latency(void **state)
{
	(void)state;
	run_latency(100);
	run_latency(1);
	run_latency(400);
}

/* ---------------------------------------------------------------------------------------------
 * b. requests_per_cycle
 */

static void run_burst(uint32_t rpc, const cycle_t want[4], double want_queue)
{
	const uint32_t L = 100;
	struct gpu_params p;
	struct sim *s = fixed_sim(L, rpc, &p);
	struct drv d0, d2;
	uint32_t i;

	drv_init(&d0, sim_core_clock(s), sim_sm_in(s, 0), sim_sm_resp(s, 0), sim_pool(s), "drv0");
	drv_init(&d2, sim_core_clock(s), sim_sm_in(s, 2), sim_sm_resp(s, 2), sim_pool(s), "drv2");
	drv_add(&d0, 20, 4, MEM_REQ_LOAD);
	drv_add(&d2, 20, 4, MEM_REQ_STORE); /* another SM: its own rate, the same cycles */
	eventq_run_until(sim_eventq(s), TICK_NEVER);
	for (i = 0; i < 4; i++) {
		assert_int_equal(d0.push[i].popped, 20 + L + 2 + want[i]);
		assert_int_equal(d2.push[i].popped, 20 + L + 2 + want[i]);
	}
	sim_totals(s);
	assert_true(stat(s, "sm0.mem.queue_cycles") == want_queue);
	assert_true(stat(s, "mem.queue_cycles") == 2 * want_queue);
	assert_true(stat(s, "mem.requests") == 8 && stat(s, "mem.replies") == 8);
	assert_true(req_pool_is_drained(sim_pool(s)));
	sim_destroy(s);
}

static void test_requests_per_cycle(void **state)
{
	static const cycle_t one[4] = { 0, 1, 2, 3 }, two[4] = { 0, 0, 1, 1 }, four[4] = { 0 };

	(void)state;
	run_burst(1, one, 0 + 1 + 2 + 3);
	run_burst(2, two, 0 + 0 + 1 + 1);
	run_burst(4, four, 0);
	run_burst(64, four, 0);
}

/* ---------------------------------------------------------------------------------------------
 * c. Sleeping
 */

static void test_sleeps_when_idle(void **state)
{
	struct gpu_params p;
	struct sim *s = fixed_sim(1000, 1, &p);
	struct clock *core = sim_core_clock(s);
	struct eventq *q = sim_eventq(s);
	struct drv d;
	uint64_t fired;

	(void)state;
	drv_init(&d, core, sim_sm_in(s, 0), sim_sm_resp(s, 0), sim_pool(s), "drv0");
	drv_add(&d, 5, 1, MEM_REQ_LOAD);
	drv_add(&d, 500000, 1, MEM_REQ_LOAD);
	/* Nothing is awake before the first push: no edge at all. */
	eventq_run_until(q, clock_tick_of(core, 4));
	assert_int_equal(clock_edges(core), 0);
	/* One request: the driver's push (5), the accept (6), the reply (1006), the pop (1007). */
	eventq_run_until(q, clock_tick_of(core, 2000));
	assert_int_equal(d.push[0].popped, 5 + 1000 + 2);
	assert_int_equal(clock_edges(core), 4);
	assert_int_equal(clock_awake_count(core), 0);
	/* Nearly half a million idle cycles later: the second request, again 4 edges. */
	eventq_run_until(q, TICK_NEVER);
	assert_int_equal(d.push[1].popped, 500000 + 1000 + 2);
	assert_int_equal(clock_edges(core), 8);
	fired = eventq_fired(q);
	assert_true(fired <= 16);
	assert_int_equal(eventq_next_tick(q), TICK_NEVER); /* no refresh, nothing at all */
	assert_true(sim_is_idle(s));
	sim_destroy(s);
}

/* ---------------------------------------------------------------------------------------------
 * d, e. The unit on its own: backpressure
 */

struct env {
	struct eventq *q;
	struct clock *clk;
	struct stats *st;
	struct req_pool *pool;
	struct link *in, *resp;
	struct fixedmem *m;
	struct drv d;
};

static void env_init(struct env *e, uint32_t L, uint32_t rpc, uint32_t resp_cap)
{
	struct fixedmem_params fp = { L, rpc };

	e->q = eventq_create();
	e->clk = clock_create(e->q, "core", 1000);
	e->st = stats_create();
	e->pool = req_pool_create(16);
	e->in = link_create("in", 64, 1, e->clk, NULL);
	e->resp = link_create("resp", resp_cap, 1, e->clk, NULL);
	e->m = fixedmem_create(&fp, 0, e->clk, e->in, e->resp, e->st, "sm0.mem");
	drv_init(&e->d, e->clk, e->in, e->resp, e->pool, "drv");
}

static void env_run(struct env *e)
{
	while (eventq_step(e->q)) {
		fixedmem_check(e->m);
		link_check(e->in);
		link_check(e->resp);
		req_pool_check(e->pool);
	}
}

static void env_destroy(struct env *e)
{
	fixedmem_destroy(e->m);
	link_destroy(e->in);
	link_destroy(e->resp);
	clock_destroy(e->clk);
	eventq_destroy(e->q);
	req_pool_destroy(e->pool);
	stats_destroy(e->st);
}

static void test_resp_full(void **state)
{
	struct env e;
	const struct fixedmem_stats *st;

	(void)state;
	/* L = 10, R = 4, resp holds 2: 4 pushed at 0 are accepted at 1, due at 11; two go out at
	 * 11, two wait for the driver, which pops nothing before 20: it pops both at 20, the pop
	 * wakes the unit at 21, it pushes the other two (2 x 10 stall cycles... counted once per
	 * blocked head: 21 - 11 = 10), the driver pops them at 22. */
	env_init(&e, 10, 4, 2);
	e.d.hold_until = 20;
	drv_add(&e.d, 0, 4, MEM_REQ_LOAD);
	env_run(&e);
	assert_int_equal(e.d.npopped, 4);
	assert_int_equal(e.d.push[0].popped, 20);
	assert_int_equal(e.d.push[1].popped, 20);
	assert_int_equal(e.d.push[2].popped, 22);
	assert_int_equal(e.d.push[3].popped, 22);
	st = fixedmem_stats(e.m);
	assert_int_equal(st->requests, 4);
	assert_int_equal(st->replies, 4);
	assert_int_equal(st->stall_cycles, 21 - 11);
	assert_int_equal(st->in_flight.hwm, 4);
	assert_true(link_stats(e.resp)->stalls >= 1);
	assert_true(fixedmem_is_idle(e.m));
	assert_true(req_pool_is_drained(e.pool));
	env_destroy(&e);
}

static void test_ring_full(void **state)
{
	struct env e;
	const struct fixedmem_stats *st;

	(void)state;
	/* L = 2, R = 1: a ring of 2. resp holds 1 and the driver pops nothing before 10.
	 *   1: accept #0 (due 3)       2: accept #1 (due 4)
	 *   3: #0 -> resp; accept #2 (due 5)
	 *   4: #1 refused (resp full): blocked; ring full, #3 and #4 wait at the head of `in`
	 *  10: driver pops #0; the pop wakes the unit at 11
	 *  11: #1 -> resp (stall 11 - 4 = 7); #2 due 5 refused (resp full again); accept #3 (due 13)
	 *  12: driver pops #1; unit (woken by the pop) at 13: #2 -> resp (stall 13 - 11 = 2),
	 *      #3 due 13 refused; accept #4 (due 15)
	 *  14: driver pops #2; 15: #3 -> resp (stall 2), #4 due 15 refused
	 *  16: driver pops #3; 17: #4 -> resp (stall 2); 18: driver pops #4.
	 * Waits at the head of `in` (visible at 1): #3 accepted at 11 (10), #4 at 13 (12). */
	env_init(&e, 2, 1, 1);
	assert_int_equal(fixedmem_capacity(e.m), 2);
	e.d.hold_until = 10;
	drv_add(&e.d, 0, 5, MEM_REQ_LOAD);
	env_run(&e);
	assert_int_equal(e.d.npopped, 5);
	assert_int_equal(e.d.push[0].popped, 10);
	assert_int_equal(e.d.push[1].popped, 12);
	assert_int_equal(e.d.push[2].popped, 14);
	assert_int_equal(e.d.push[3].popped, 16);
	assert_int_equal(e.d.push[4].popped, 18);
	st = fixedmem_stats(e.m);
	assert_int_equal(st->stall_cycles, 7 + 2 + 2 + 2);
	assert_int_equal(st->queue_cycles, 0 + 1 + 2 + 10 + 12);
	assert_int_equal(st->in_flight.hwm, 2);
	assert_true(req_pool_is_drained(e.pool));
	env_destroy(&e);
}

/* ---------------------------------------------------------------------------------------------
 * f. Sizes, parameters, probe
 */

static void test_capacity_and_params(void **state)
{
	struct fixedmem_params ok = { 3, 2 }, big = { 1000000, 64 }, zl = { 0, 1 }, zr = { 5, 0 };
	struct eventq *q = eventq_create();
	struct clock *clk = clock_create(q, "core", 1000);
	struct link *in = link_create("in", 4, 1, clk, NULL), *resp = link_create("r", 4, 1, clk, NULL);
	struct link *in2 = link_create("in2", 4, 1, clk, NULL);
	struct link *resp2 = link_create("r2", 4, 1, clk, NULL);
	struct fixedmem *a, *b;
	struct sim_err err;

	(void)state;
	a = fixedmem_create(&ok, 0, clk, in, resp, NULL, "a");
	b = fixedmem_create(&big, 1, clk, in2, resp2, NULL, "b");
	assert_int_equal(fixedmem_capacity(a), 6);
	assert_int_equal(fixedmem_capacity(b), FIXEDMEM_MAX_IN_FLIGHT);
	assert_true(fixedmem_is_idle(a));
	fixedmem_check(a);
	memset(&err, 0, sizeof err);
	assert_int_equal(fixedmem_params_check(&ok, "memory", &err), 0);
	assert_int_equal(fixedmem_params_check(&zl, "memory", &err), -1);
	assert_string_equal(err.msg, "memory.latency_cycles: must be at least 1, got 0");
	assert_int_equal(fixedmem_params_check(&zr, "memory", &err), -1);
	assert_string_equal(err.msg, "memory.requests_per_cycle: must be at least 1, got 0");
	expect_assert_failure(fixedmem_create(&zl, 2, clk, in, resp, NULL, "c"));
	fixedmem_destroy(a);
	fixedmem_destroy(b);
	fixedmem_destroy(NULL);
	link_destroy(in);
	link_destroy(resp);
	link_destroy(in2);
	link_destroy(resp2);
	clock_destroy(clk);
	eventq_destroy(q);
}

static void test_config(void **state)
{
	struct gpu_params p;
	struct sim_err err;
	const char *bad[1] = { "memory.model=\"ideal\"" };
	struct sim *s;
	struct probe_unloaded u;

	(void)state;
	/* The default is the hierarchy, with the documented fixed-model defaults. */
	memset(&err, 0, sizeof err);
	assert_int_equal(gpu_params_load(&p, unit_src_path("configs/test/small-gpu.cfg"), NULL, 0,
					 &err), 0);
	assert_int_equal(p.memory.model, GPU_MEM_HIERARCHY);
	assert_int_equal(p.memory.latency_cycles, 400);
	assert_int_equal(p.memory.requests_per_cycle, 1);
	assert_int_equal(gpu_params_load(&p, unit_src_path("configs/test/small-gpu.cfg"), bad, 1,
					 &err), -1);
	assert_non_null(strstr(err.msg, "memory.model"));
	/* A sim built directly from params that skipped the loader's ranges. */
	s = fixed_sim(10, 1, &p);
	sim_destroy(s);
	p.memory.latency_cycles = 0;
	assert_null(sim_create(&p, &err));
	assert_string_equal(err.msg, "memory.latency_cycles: must be at least 1, got 0");
	/* Unloaded latencies of the four levels do not exist in the fixed model. */
	s = fixed_sim(10, 1, &p);
	assert_int_equal(probe_unloaded(s, &u, &err), -1);
	assert_string_equal(err.msg, "probe: unloaded latencies need the cache hierarchy "
				     "(memory.model = \"hierarchy\")");
	sim_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_requests_per_cycle),
		cmocka_unit_test(test_sleeps_when_idle),
		cmocka_unit_test(test_resp_full),
		cmocka_unit_test(test_ring_full),
		cmocka_unit_test(test_capacity_and_params),
		cmocka_unit_test(test_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
