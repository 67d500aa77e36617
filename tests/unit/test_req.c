/*
 * test_req.c - memory requests and their pool (sim/core/req.c).
 *
 * Pool conservation over many allocate/free rounds with a chunk of 4, growth in chunks, fresh
 * requests, stamps and stage order, per-stage deltas, contract violations (backwards stage,
 * double free, use after free) through expect_assert_failure, and the X-macro names.
 */
#include "config.h"

#include <string.h>

#include "unit.h"

#include "req.h"

static int pool_setup(void **state)
{
	*state = req_pool_create(4);
	return 0;
}

static int pool_teardown(void **state)
{
	req_pool_destroy(*state);
	return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Names */

static void test_names(void **state)
{
	static const char *const stages[] = {
		"created", "l1_access", "l1_miss", "xbar_req", "l2_access", "l2_miss", "mc_queue",
		"dram_issue", "dram_done", "l2_fill", "xbar_reply", "l1_fill", "retired",
	};
	static const char *const types[] = { "load", "store", "atomic", "writeback" };

	assert_int_equal(MEM_STAGE_COUNT, sizeof stages / sizeof stages[0]);
	for (int s = 0; s < MEM_STAGE_COUNT; s++)
		assert_string_equal(mem_stage_name((enum mem_stage)s), stages[s]);
	assert_string_equal(mem_stage_name(MEM_STAGE_L2_MISS), "l2_miss");
	assert_string_equal(mem_stage_name(MEM_STAGE_COUNT), "?");
	assert_int_equal(MEM_REQ_TYPE_COUNT, sizeof types / sizeof types[0]);
	for (int t = 0; t < MEM_REQ_TYPE_COUNT; t++)
		assert_string_equal(mem_req_type_name((enum mem_req_type)t), types[t]);
	assert_string_equal(mem_req_type_name(MEM_REQ_WRITEBACK), "writeback");
	assert_string_equal(mem_req_type_name(MEM_REQ_TYPE_COUNT), "?");
}

/* ------------------------------------------------------------------------------------------ */
/* One request */

static void test_alloc_fresh(void **state)
{
	struct req_pool *p = *state;
	struct mem_req *r = req_alloc(p, 1000);
	struct mem_req *q;

	assert_int_equal(r->id, 1);
	assert_int_equal(r->stage, MEM_STAGE_CREATED);
	assert_int_equal(r->stamp[MEM_STAGE_CREATED], 1000);
	for (int s = MEM_STAGE_CREATED + 1; s < MEM_STAGE_COUNT; s++)
		assert_int_equal(r->stamp[s], TICK_NEVER);
	assert_int_equal(r->addr, 0);
	assert_int_equal(r->sector_mask, 0);
	assert_int_equal(r->byte_mask[0] | r->byte_mask[1], 0);
	assert_int_equal(r->type, MEM_REQ_LOAD);
	assert_false(r->is_reply);
	assert_null(r->origin);
	assert_null(r->merged);
	assert_null(r->next);

	/* a recycled object comes back zeroed, whatever was left in it */
	r->addr = 0x1234;
	r->sector_mask = 0xf;
	r->is_reply = true;
	r->origin = p;
	r->merged = r;
	r->type = MEM_REQ_ATOMIC;
	req_enter(r, MEM_STAGE_L1_ACCESS, 1100);
	req_free(p, r, 1200);
	q = req_alloc(p, 2000);
	assert_ptr_equal(q, r); /* LIFO free list */
	assert_int_equal(q->id, 2);
	assert_int_equal(q->addr, 0);
	assert_int_equal(q->sector_mask, 0);
	assert_false(q->is_reply);
	assert_null(q->origin);
	assert_null(q->merged);
	assert_int_equal(q->type, MEM_REQ_LOAD);
	assert_int_equal(q->stage, MEM_STAGE_CREATED);
	assert_int_equal(q->stamp[MEM_STAGE_CREATED], 2000);
	assert_int_equal(q->stamp[MEM_STAGE_L1_ACCESS], TICK_NEVER);
	assert_int_equal(q->stamp[MEM_STAGE_RETIRED], TICK_NEVER);
	req_free(p, q, 2001);
}

static void test_ids_monotonic(void **state)
{
	struct req_pool *p = *state;
	struct mem_req *r[10];
	uint64_t last = 0;

	for (int round = 0; round < 5; round++) {
		for (int i = 0; i < 10; i++) {
			r[i] = req_alloc(p, (tick_t)round);
			assert_true(r[i]->id > last);
			assert_int_equal(r[i]->id, last + 1);
			last = r[i]->id;
		}
		for (int i = 0; i < 10; i++)
			req_free(p, r[(i * 3) % 10], (tick_t)round); /* out of order */
	}
	assert_int_equal(req_pool_created(p), 50);
	assert_int_equal(req_pool_retired(p), 50);
}

static void test_stamps_and_stages(void **state)
{
	struct req_pool *p = *state;
	struct mem_req *r = req_alloc(p, 100);

	req_enter(r, MEM_STAGE_L1_ACCESS, 100); /* same tick is fine */
	req_enter(r, MEM_STAGE_L1_MISS, 140);
	req_enter(r, MEM_STAGE_L2_ACCESS, 400); /* skips XBAR_REQ */
	req_enter(r, MEM_STAGE_L2_FILL, 900);   /* an L2 hit skips the DRAM stages */
	req_enter(r, MEM_STAGE_L1_FILL, 1300);
	assert_int_equal(r->stage, MEM_STAGE_L1_FILL);
	assert_int_equal(r->stamp[MEM_STAGE_L1_MISS], 140);
	assert_int_equal(r->stamp[MEM_STAGE_XBAR_REQ], TICK_NEVER);
	assert_int_equal(r->stamp[MEM_STAGE_DRAM_ISSUE], TICK_NEVER);
	assert_int_equal(req_stage_delta(r, MEM_STAGE_CREATED, MEM_STAGE_L1_FILL), 1200);
	assert_int_equal(req_stage_delta(r, MEM_STAGE_L1_MISS, MEM_STAGE_L2_ACCESS), 260);
	assert_int_equal(req_stage_delta(r, MEM_STAGE_L2_FILL, MEM_STAGE_L2_FILL), 0);
	assert_int_equal(req_stage_delta(r, MEM_STAGE_CREATED, MEM_STAGE_L1_ACCESS), 0);
	req_enter(r, MEM_STAGE_RETIRED, 1310);
	assert_int_equal(req_stage_delta(r, MEM_STAGE_L1_FILL, MEM_STAGE_RETIRED), 10);
	req_free(p, r, 5000); /* RETIRED already entered: its stamp stays */
#ifndef SIM_DEBUG
	/* white box: the object is back in the pool (not poisoned in this build) */
	assert_int_equal(r->stamp[MEM_STAGE_RETIRED], 1310);
#endif
	assert_true(req_pool_is_drained(p));
}

/* req_enter_blind: the same stamps and stage as req_enter; the release build stores them without
 * reading the request (a stage out of order goes unchecked there), the debug build checks it
 * as req_enter does. */
static void test_enter_blind(void **state)
{
	struct req_pool *p = *state;
	struct mem_req *r = req_alloc(p, 100);

	req_enter(r, MEM_STAGE_L1_MISS, 140);
	req_enter_blind(r, MEM_STAGE_XBAR_REQ, 150);
	assert_int_equal(r->stage, MEM_STAGE_XBAR_REQ);
	assert_int_equal(r->stamp[MEM_STAGE_XBAR_REQ], 150);
	assert_int_equal(r->stamp[MEM_STAGE_L1_MISS], 140);
	assert_int_equal(r->stamp[MEM_STAGE_L2_ACCESS], TICK_NEVER);
	req_enter(r, MEM_STAGE_L2_ACCESS, 170); /* after it, in order */
	assert_int_equal(req_stage_delta(r, MEM_STAGE_XBAR_REQ, MEM_STAGE_L2_ACCESS), 20);
	expect_assert_failure(req_enter_blind(r, MEM_STAGE_COUNT, 180)); /* not a stage */
#ifdef SIM_DEBUG
	expect_assert_failure(req_enter_blind(r, MEM_STAGE_XBAR_REQ, 180)); /* backwards */
	assert_int_equal(r->stamp[MEM_STAGE_XBAR_REQ], 150);
	expect_assert_failure(req_enter_blind(r, MEM_STAGE_XBAR_REPLY, 160)); /* time backwards */
#else
	req_enter_blind(r, MEM_STAGE_XBAR_REQ, 180); /* unchecked: stored as given */
	assert_int_equal(r->stamp[MEM_STAGE_XBAR_REQ], 180);
	assert_int_equal(r->stage, MEM_STAGE_XBAR_REQ);
#endif
	req_free(p, r, 200);
	assert_true(req_pool_is_drained(p));
}

static void test_free_from_any_stage(void **state)
{
	struct req_pool *p = *state;

	for (int s = 0; s < MEM_STAGE_COUNT; s++) {
		struct mem_req *r = req_alloc(p, 10);

		if (s != MEM_STAGE_CREATED)
			req_enter(r, (enum mem_stage)s, 20);
		req_free(p, r, 30);
#ifndef SIM_DEBUG
		assert_int_equal(r->stamp[MEM_STAGE_RETIRED], s == MEM_STAGE_RETIRED ? 20 : 30);
#endif
		req_pool_check(p);
	}
	assert_int_equal(req_pool_retired(p), MEM_STAGE_COUNT);
	assert_true(req_pool_is_drained(p));
}

static void test_backwards_stage(void **state)
{
	struct req_pool *p = *state;
	struct mem_req *r = req_alloc(p, 0);

	req_enter(r, MEM_STAGE_L2_ACCESS, 50);
	expect_assert_failure(req_enter(r, MEM_STAGE_L1_MISS, 60));   /* backwards */
	expect_assert_failure(req_enter(r, MEM_STAGE_L2_ACCESS, 60)); /* the same stage again */
	expect_assert_failure(req_enter(r, MEM_STAGE_CREATED, 60));
	expect_assert_failure(req_enter(r, MEM_STAGE_COUNT, 60));     /* not a stage */
#ifdef SIM_DEBUG
	expect_assert_failure(req_enter(r, MEM_STAGE_L2_MISS, 49));   /* time went backwards */
#endif
	/* nothing changed */
	assert_int_equal(r->stage, MEM_STAGE_L2_ACCESS);
	assert_int_equal(r->stamp[MEM_STAGE_L1_MISS], TICK_NEVER);
	assert_int_equal(r->stamp[MEM_STAGE_L2_MISS], TICK_NEVER);
	req_enter(r, MEM_STAGE_L2_MISS, 50);
	/* deltas need both stamps, in order */
	expect_assert_failure(req_stage_delta(r, MEM_STAGE_CREATED, MEM_STAGE_MC_QUEUE));
	expect_assert_failure(req_stage_delta(r, MEM_STAGE_L1_ACCESS, MEM_STAGE_L2_MISS));
	expect_assert_failure(req_stage_delta(r, MEM_STAGE_L2_MISS, MEM_STAGE_CREATED));
#ifdef SIM_DEBUG
	/* freeing at a tick before the last stamp is a bug too */
	expect_assert_failure(req_free(p, r, 10));
#endif
	req_free(p, r, 60);
	assert_true(req_pool_is_drained(p));
}

static void test_double_free(void **state)
{
	struct req_pool *p = *state;
	struct mem_req *a = req_alloc(p, 0);
	struct mem_req *b = req_alloc(p, 0);

	req_free(p, a, 1);
	expect_assert_failure(req_free(p, a, 2));
	assert_int_equal(req_pool_retired(p), 1);
	assert_int_equal(req_pool_in_flight(p), 1);
	req_pool_check(p);
	/* a freed request cannot move on either */
	expect_assert_failure(req_enter(a, MEM_STAGE_L1_ACCESS, 3));
	req_free(p, b, 4);
	expect_assert_failure(req_free(p, b, 5));
	req_pool_check(p);
	assert_true(req_pool_is_drained(p));
}

/* req_pool_check notices an object on the free list that was written after it was freed. */
static void test_check_catches_write_after_free(void **state)
{
	struct req_pool *p = *state;
	struct mem_req *r = req_alloc(p, 0);
	enum mem_stage saved;

	req_free(p, r, 1);
	req_pool_check(p);
	saved = r->stage;
	r->stage = MEM_STAGE_L1_ACCESS; /* the bug under test */
	expect_assert_failure(req_pool_check(p));
	r->stage = saved;
	req_pool_check(p);
#ifdef SIM_DEBUG
	/* debug builds poison free objects and check the poison when handing them out */
	r->addr = 42;
	expect_assert_failure(req_alloc(p, 2));
	memset(&r->addr, 0xa5, sizeof r->addr);
	assert_ptr_equal(req_alloc(p, 2), r);
	req_free(p, r, 3);
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* The pool */

static void test_growth_in_chunks(void **state)
{
	struct req_pool *p = *state;
	struct mem_req *r[9];

	assert_int_equal(req_pool_capacity(p), 0);
	assert_int_equal(req_pool_grows(p), 0);
	assert_true(req_pool_is_drained(p));
	r[0] = req_alloc(p, 0);
	assert_int_equal(req_pool_capacity(p), 4);
	assert_int_equal(req_pool_grows(p), 1);
	for (int i = 1; i < 4; i++)
		r[i] = req_alloc(p, 0);
	assert_int_equal(req_pool_grows(p), 1);
	r[4] = req_alloc(p, 0);
	assert_int_equal(req_pool_capacity(p), 8);
	assert_int_equal(req_pool_grows(p), 2);
	for (int i = 5; i < 9; i++)
		r[i] = req_alloc(p, 0);
	assert_int_equal(req_pool_capacity(p), 12);
	assert_int_equal(req_pool_grows(p), 3);
	assert_int_equal(req_pool_in_flight(p), 9);
	assert_false(req_pool_is_drained(p));
	req_pool_check(p);
	for (int i = 0; i < 9; i++)
		req_free(p, r[i], 1);
	/* the same demand again costs no malloc */
	for (int i = 0; i < 9; i++)
		r[i] = req_alloc(p, 2);
	assert_int_equal(req_pool_grows(p), 3);
	for (int i = 0; i < 9; i++)
		req_free(p, r[i], 3);
	assert_true(req_pool_is_drained(p));
	req_pool_check(p);
}

/* Many rounds of a deterministic random mix of allocations and frees, checked at every step. */
static void test_conservation(void **state)
{
	enum { LIVE_MAX = 37, STEPS = 20000 };
	struct req_pool *p = *state;
	struct mem_req *live[LIVE_MAX];
	uint32_t nlive = 0, peak = 0;
	uint64_t x = 88172645463325252ull, grows_warm = 0, last_id = 0;
	tick_t now = 0;

	for (int step = 0; step < STEPS; step++) {
		x ^= x << 13; /* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		now += x % 3;
		if (nlive < LIVE_MAX && (nlive == 0 || x % 5 < 3)) {
			live[nlive] = req_alloc(p, now);
			assert_true(live[nlive]->id > last_id);
			last_id = live[nlive]->id;
			if (x % 7 == 0)
				req_enter(live[nlive], MEM_STAGE_L1_ACCESS, now);
			nlive++;
		} else {
			uint32_t i = (uint32_t)((x >> 20) % nlive);

			req_free(p, live[i], now);
			live[i] = live[--nlive];
		}
		peak = nlive > peak ? nlive : peak;
		assert_int_equal(req_pool_in_flight(p), nlive);
		assert_int_equal(req_pool_created(p) - req_pool_retired(p), nlive);
		assert_int_equal(req_pool_capacity(p), req_pool_grows(p) * 4);
		req_pool_check(p);
		if (step == STEPS / 2)
			grows_warm = req_pool_grows(p);
	}
	assert_int_equal(peak, LIVE_MAX);
	/* warm: once the peak was reached the pool never grew again */
	assert_int_equal(req_pool_grows(p), grows_warm);
	/* capacity is the peak rounded up to a chunk */
	assert_int_equal(req_pool_capacity(p), (LIVE_MAX + 3) / 4 * 4);
	while (nlive > 0)
		req_free(p, live[--nlive], now);
	assert_int_equal(req_pool_created(p), req_pool_retired(p));
	assert_true(req_pool_created(p) > STEPS / 2);
	assert_true(req_pool_is_drained(p));
	req_pool_check(p);
}

static void test_chunk_of_one(void **state)
{
	struct req_pool *p = req_pool_create(1);
	struct mem_req *a = req_alloc(p, 0), *b = req_alloc(p, 0);

	assert_ptr_not_equal(a, b);
	assert_int_equal(req_pool_capacity(p), 2);
	assert_int_equal(req_pool_grows(p), 2);
	req_free(p, b, 0);
	req_free(p, a, 0);
	assert_true(req_pool_is_drained(p));
	req_pool_check(p);
	req_pool_destroy(p);
	req_pool_destroy(NULL);
	expect_assert_failure(req_pool_create(0));
}

/* Destroying a pool with requests in flight frees them with it (no leak under valgrind). */
static void test_destroy_in_flight(void **state)
{
	struct req_pool *p = req_pool_create(3);

	for (int i = 0; i < 7; i++)
		req_alloc(p, 0);
	assert_int_equal(req_pool_in_flight(p), 7);
	assert_false(req_pool_is_drained(p));
	req_pool_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test_setup_teardown(test_alloc_fresh, pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_ids_monotonic, pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_stamps_and_stages, pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_enter_blind, pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_free_from_any_stage, pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_backwards_stage, pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_double_free, pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_check_catches_write_after_free, pool_setup,
						pool_teardown),
		cmocka_unit_test_setup_teardown(test_growth_in_chunks, pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_conservation, pool_setup, pool_teardown),
		cmocka_unit_test(test_chunk_of_one),
		cmocka_unit_test(test_destroy_in_flight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
