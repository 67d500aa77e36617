/*
 * test_link.c - links: latency to the exact cycle, FIFO order, capacity and backpressure, and the
 * wakes that let producer and consumer sleep (with real clocks and units).
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "clock.h"
#include "eventq.h"
#include "link.h"

/* Items are small integers disguised as non-NULL pointers. */
#define ITEM(n) ((void *)(uintptr_t)((n) + 1))
#define ITEM_NO(p) ((int)((uintptr_t)(p) - 1))

static void noop(void *ctx, tick_t now)
{
	(void)ctx;
	(void)now;
}

static void tick_noop(void *unit, cycle_t now)
{
	(void)unit;
	(void)now;
}

/* Moves the queue's time to tick t (run_until alone stops at the last event). */
static void advance_to(struct eventq *q, tick_t t)
{
	eventq_schedule(q, t, EVQ_PRIO_DEFAULT, noop, NULL);
	eventq_run_until(q, t);
	assert_int_equal(eventq_now(q), t);
}

/* ------------------------------------------------------------------------------------------------
 * A polled link (no consumer unit): timing and flow control alone.
 */

static void test_accessors(void **state)
{
	struct eventq *q = eventq_create();
	struct clock *c = clock_create(q, "c", 1000);
	char name[16] = "l1_to_xbar";
	struct link *l = link_create(name, 4, 3, c, NULL);

	(void)state;
	strcpy(name, "XXXX");
	assert_string_equal(link_name(l), "l1_to_xbar");
	assert_int_equal(link_capacity(l), 4);
	assert_int_equal(link_latency(l), 3);
	assert_int_equal(link_occupancy(l), 0);
	assert_true(link_head_ready(l) == CYCLE_NEVER);
	assert_null(link_peek(l));
	assert_true(link_can_push(l));
	assert_int_equal(link_stats(l)->pushes, 0);
	link_check(l);
	link_destroy(l);
	clock_destroy(c);
	eventq_destroy(q);
}

/* Pushed at consumer cycle c: visible at c + latency, not a picosecond earlier. */
static void test_latency_exact(void **state)
{
	struct eventq *q = eventq_create();
	struct clock *c = clock_create(q, "c", 1000);
	struct link *l = link_create("l", 4, 3, c, NULL);
	struct link *l1 = link_create("l1", 4, 1, c, NULL);

	(void)state;
	advance_to(q, 2500); /* mid-cycle 2 */
	link_push(l, ITEM(7));
	assert_int_equal(link_head_ready(l), 5);
	assert_int_equal(link_occupancy(l), 1);
	advance_to(q, 4000);
	assert_null(link_peek(l));
	advance_to(q, 4999); /* the last picosecond of cycle 4 */
	assert_null(link_peek(l));
	expect_assert_failure(link_pop(l));
	advance_to(q, 5000);
	assert_ptr_equal(link_peek(l), ITEM(7));
	assert_ptr_equal(link_pop(l), ITEM(7));
	assert_null(link_peek(l));
	assert_int_equal(link_occupancy(l), 0);

	/* Latency 1, pushed exactly on an edge: not visible in the same cycle. */
	link_push(l1, ITEM(1));
	assert_int_equal(link_head_ready(l1), 6);
	assert_null(link_peek(l1));
	advance_to(q, 5999);
	assert_null(link_peek(l1));
	advance_to(q, 6000);
	assert_ptr_equal(link_pop(l1), ITEM(1));
	link_check(l);
	link_check(l1);
	link_destroy(l);
	link_destroy(l1);
	clock_destroy(c);
	eventq_destroy(q);
}

static void test_fifo_order(void **state)
{
	struct eventq *q = eventq_create();
	struct clock *c = clock_create(q, "c", 1000);
	struct link *l = link_create("l", 8, 2, c, NULL);
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		link_push(l, ITEM(i));
	advance_to(q, 1000);
	link_push(l, ITEM(3));
	advance_to(q, 2000);
	for (i = 0; i < 3; i++)
		assert_int_equal(ITEM_NO(link_pop(l)), i);
	/* Item 3 is behind them but not visible until cycle 3. */
	assert_null(link_peek(l));
	assert_int_equal(link_head_ready(l), 3);
	advance_to(q, 3000);
	assert_int_equal(ITEM_NO(link_pop(l)), 3);
	assert_int_equal(link_stats(l)->pushes, 4);
	assert_int_equal(link_stats(l)->pops, 4);
	link_check(l);
	link_destroy(l);
	clock_destroy(c);
	eventq_destroy(q);
}

static void test_backpressure(void **state)
{
	struct eventq *q = eventq_create();
	struct clock *c = clock_create(q, "c", 1000);
	struct link *l = link_create("l", 3, 1, c, NULL);
	const struct link_stats *st = link_stats(l);

	(void)state;
	assert_true(link_try_push(l, ITEM(0)));
	link_push(l, ITEM(1));
	assert_true(link_can_push(l));
	assert_true(link_try_push(l, ITEM(2)));
	assert_false(link_can_push(l));
	/* Refused: flow control, not an error. The item is not taken. */
	assert_false(link_try_push(l, ITEM(3)));
	assert_false(link_try_push(l, ITEM(3)));
	assert_int_equal(st->stalls, 2);
	assert_int_equal(st->pushes, 3);
	assert_int_equal(link_occupancy(l), 3);
	assert_int_equal(st->occupancy.cur, 3);
	assert_int_equal(st->occupancy.hwm, 3);
	expect_assert_failure(link_push(l, ITEM(3)));
	assert_int_equal(link_occupancy(l), 3);
	link_check(l);
	advance_to(q, 1000);
	assert_int_equal(ITEM_NO(link_pop(l)), 0);
	assert_true(link_can_push(l));
	assert_int_equal(st->occupancy.cur, 2);
	assert_true(link_try_push(l, ITEM(3)));
	assert_int_equal(ITEM_NO(link_pop(l)), 1);
	assert_int_equal(ITEM_NO(link_pop(l)), 2);
	assert_null(link_peek(l)); /* item 3 arrives at cycle 2 */
	assert_int_equal(st->occupancy.cur, 1);
	assert_int_equal(st->occupancy.hwm, 3);
	assert_int_equal(st->stalls, 2);
	assert_int_equal(st->pushes, 4);
	assert_int_equal(st->pops, 3);
	link_check(l);
	link_destroy(l);
	clock_destroy(c);
	eventq_destroy(q);
}

/* The ring wraps many times without reordering. */
static void test_ring_wrap(void **state)
{
	struct eventq *q = eventq_create();
	struct clock *c = clock_create(q, "c", 10);
	struct link *l = link_create("l", 3, 1, c, NULL);
	int round, next_in = 0, next_out = 0;

	(void)state;
	for (round = 0; round < 50; round++) {
		while (link_can_push(l) && next_in < next_out + 2 + round % 2)
			link_push(l, ITEM(next_in++));
		link_check(l);
		advance_to(q, eventq_now(q) + 10);
		while (link_peek(l) != NULL)
			assert_int_equal(ITEM_NO(link_pop(l)), next_out++);
		link_check(l);
	}
	assert_int_equal(next_out, next_in);
	assert_true(next_out > 100);
	assert_int_equal(link_stats(l)->occupancy.hwm, 3);
	link_destroy(l);
	clock_destroy(c);
	eventq_destroy(q);
}

/* Taking an item from behind the head (link_pop_at): capacity 4, latency 2, the ring wrapped.
 * Items 0, 1 pushed at cycle 2 (ready 4), 2 at cycle 3 (ready 5). At cycle 4: 0 and 1 visible,
 * 2 not (peek_at 2 is NULL, so is k past the count). pop_at(1) takes 1; 0 stays the head, then
 * 2 behind it. A full link has room again after a pop_at as after a pop. */
static void test_pop_at(void **state)
{
	struct eventq *q = eventq_create();
	struct clock *c = clock_create(q, "c", 10);
	struct link *l = link_create("l", 4, 2, c, NULL);
	int k;

	(void)state;
	/* wrap the ring: head at index 3 */
	for (k = 0; k < 3; k++)
		link_push(l, ITEM(100 + k));
	advance_to(q, 20);
	for (k = 0; k < 3; k++)
		assert_int_equal(ITEM_NO(link_pop(l)), 100 + k);
	link_push(l, ITEM(0));
	link_push(l, ITEM(1));
	advance_to(q, 30);
	link_push(l, ITEM(2));
	assert_int_equal(link_ready_at(l, 0), 4);
	assert_int_equal(link_ready_at(l, 2), 5);
	advance_to(q, 40);
	assert_int_equal(ITEM_NO(link_peek_at(l, 0)), 0);
	assert_int_equal(ITEM_NO(link_peek_at(l, 1)), 1);
	assert_null(link_peek_at(l, 2));
	assert_null(link_peek_at(l, 3));
	expect_assert_failure(link_pop_at(l, 2));
	assert_int_equal(ITEM_NO(link_pop_at(l, 1)), 1);
	link_check(l);
	assert_int_equal(link_occupancy(l), 2);
	assert_int_equal(ITEM_NO(link_peek(l)), 0);
	assert_int_equal(link_ready_at(l, 1), 5);
	advance_to(q, 60);
	assert_int_equal(ITEM_NO(link_pop_at(l, 1)), 2);
	assert_int_equal(ITEM_NO(link_pop(l)), 0);
	assert_int_equal(link_occupancy(l), 0);
	assert_int_equal(link_stats(l)->pops, 6);
	/* the last of a full link popped from behind the head: room again */
	for (k = 0; k < 4; k++)
		link_push(l, ITEM(10 + k));
	assert_false(link_try_push(l, ITEM(99)));
	advance_to(q, 90);
	assert_int_equal(ITEM_NO(link_pop_at(l, 3)), 13);
	assert_true(link_can_push(l));
	for (k = 0; k < 3; k++)
		assert_int_equal(ITEM_NO(link_pop(l)), 10 + k);
	link_check(l);
	link_destroy(l);
	clock_destroy(c);
	eventq_destroy(q);
}

static uint32_t key_times_ten(const void *item)
{
	return (uint32_t)ITEM_NO(item) * 10;
}

/* Keys: computed at push (and for items already there when the function is set), read for the
 * visible items only, head first, and they follow their items through a pop_at. */
static void test_keys(void **state)
{
	struct eventq *q = eventq_create();
	struct clock *c = clock_create(q, "c", 10);
	struct link *l = link_create("l", 4, 2, c, NULL);
	uint32_t keys[4];
	cycle_t ready[4];

	(void)state;
	link_push(l, ITEM(1));
	link_set_key(l, key_times_ten);
	link_push(l, ITEM(2));
	advance_to(q, 10);
	link_push(l, ITEM(3));
	assert_int_equal(link_keys_visible(l, 1, 0, keys, ready, 4), 0);  /* cycle 1: none visible yet */
	advance_to(q, 20);
	assert_int_equal(link_keys_visible(l, 2, 0, keys, ready, 4), 2);  /* 1, 2 (ready 2), not 3 */
	assert_int_equal(keys[0], 10);
	assert_int_equal(keys[1], 20);
	assert_int_equal(ready[0], 2);
	assert_int_equal(ready[1], 2);
	assert_int_equal(link_keys_visible(l, 2, 0, keys, ready, 1), 1);  /* at most max */
	keys[0] = keys[1] = 0;
	assert_int_equal(link_keys_visible(l, 2, 1, keys, ready, 4), 2);  /* from 1: only keys[1] */
	assert_int_equal(keys[0], 0);
	assert_int_equal(keys[1], 20);
	advance_to(q, 30);
	keys[2] = 0;
	assert_int_equal(link_keys_visible(l, 3, 2, keys, ready, 4), 3);  /* 3 is visible now */
	assert_int_equal(keys[2], 30);
	assert_int_equal(ready[2], 3);
	assert_int_equal(link_keys_visible(l, 3, 3, keys, ready, 4), 3);  /* none behind it */
	assert_int_equal(ITEM_NO(link_pop_at(l, 1)), 2);
	assert_int_equal(link_keys_visible(l, 3, 0, keys, ready, 4), 2);
	assert_int_equal(keys[0], 10);
	assert_int_equal(keys[1], 30);
	assert_int_equal(ready[1], 3);
	link_check(l);
	link_destroy(l);
	clock_destroy(c);
	eventq_destroy(q);
}

static void test_dump(void **state)
{
	struct eventq *q = eventq_create();
	struct clock *c = clock_create(q, "c", 1000);
	struct link *l = link_create("xbar.up3", 2, 3, c, NULL);
	char *buf = NULL;
	size_t size = 0;
	FILE *f;

	(void)state;
	advance_to(q, 2000);
	link_push(l, ITEM(0));
	link_push(l, ITEM(1));
	assert_false(link_try_push(l, ITEM(2)));
	f = open_memstream(&buf, &size);
	link_dump(l, f);
	fclose(f);
	assert_string_equal(buf, "link xbar.up3: 2/2 items, latency 3, now cycle 2, head ready 5, "
				 "producer waiting\n");
	free(buf);
	link_destroy(l);
	clock_destroy(c);
	eventq_destroy(q);
}

static void test_contract(void **state)
{
	struct eventq *q = eventq_create();
	struct clock *c = clock_create(q, "c", 1000);
	struct clock *other = clock_create(q, "other", 500);
	struct clock_unit *u = clock_attach(other, "u", tick_noop, NULL);
	struct link *l;

	(void)state;
	expect_assert_failure(link_create("l", 4, 0, c, NULL));
	expect_assert_failure(link_create("l", 0, 1, c, NULL));
	/* The consumer must be clocked by the link's clock: latency counts its cycles. */
	expect_assert_failure(link_create("l", 4, 1, c, u));
	l = link_create("l", 1, 1, c, NULL);
	expect_assert_failure(link_pop(l));       /* empty */
	expect_assert_failure(link_push(l, NULL)); /* NULL is link_peek's "nothing" */
	link_push(l, ITEM(0));
	expect_assert_failure(link_push(l, ITEM(1))); /* full */
	expect_assert_failure(link_pop(l));       /* not visible yet */
	assert_int_equal(link_occupancy(l), 1);
	assert_int_equal(link_stats(l)->pushes, 1);
	link_check(l);
	link_destroy(l);
	clock_destroy(c);
	clock_destroy(other);
	eventq_destroy(q);
}

/* ------------------------------------------------------------------------------------------------
 * Real units: consumer and producer sleep and are woken by the link.
 */

#define MAX_LOG 64

struct pc {
	struct eventq *q;
	struct link *l;
	struct clock_unit *prod, *cons;
	int n_items;          /* items the producer has to send */
	int next;             /* next item to send */
	int per_tick;         /* consumer pops at most this many per tick */
	int log_item[MAX_LOG];
	cycle_t log_cyc[MAX_LOG];
	int n_log;
	cycle_t prod_cyc[MAX_LOG];
	int n_prod;
};

/* Consumer: pops what is visible (up to per_tick), then sleeps until the head is due. */
static void cons_tick(void *unit, cycle_t now)
{
	struct pc *p = unit;
	int k = 0;

	while (k < p->per_tick && link_peek(p->l) != NULL) {
		assert_true(p->n_log < MAX_LOG);
		p->log_item[p->n_log] = ITEM_NO(link_pop(p->l));
		p->log_cyc[p->n_log++] = now;
		k++;
	}
	if (link_occupancy(p->l) == 0)
		clock_sleep(p->cons);
	else if (link_peek(p->l) == NULL)
		clock_sleep_until(p->cons, link_head_ready(p->l));
	link_check(p->l);
}

/* Producer: pushes while the link takes items; refused or done, it sleeps. */
static void prod_tick(void *unit, cycle_t now)
{
	struct pc *p = unit;

	p->prod_cyc[p->n_prod++] = now;
	while (p->next < p->n_items) {
		if (!link_try_push(p->l, ITEM(p->next)))
			break;
		p->next++;
	}
	clock_sleep(p->prod);
}

/* An item pushed from outside any edge wakes the sleeping consumer at exactly its ready cycle. */
static void push_action(void *ctx, tick_t now)
{
	struct pc *p = ctx;

	(void)now;
	link_push(p->l, ITEM(p->next++));
}

static void test_consumer_woken_at_ready(void **state)
{
	struct pc p = { .per_tick = 8 };
	struct clock *c;

	(void)state;
	p.q = eventq_create();
	c = clock_create(p.q, "c", 1000);
	p.cons = clock_attach(c, "cons", cons_tick, &p);
	p.l = link_create("l", 4, 3, c, p.cons);
	eventq_schedule(p.q, 2500, EVQ_PRIO_DEFAULT, push_action, &p); /* cycle 2 -> ready 5 */
	eventq_run_until(p.q, 4999);
	assert_int_equal(p.n_log, 0);
	assert_int_equal(clock_edges(c), 0);
	assert_false(clock_is_awake(p.cons));
	eventq_run_until(p.q, TICK_NEVER);
	assert_int_equal(p.n_log, 1);
	assert_int_equal(p.log_cyc[0], 5);
	assert_int_equal(p.log_item[0], 0);
	assert_int_equal(clock_edges(c), 1);
	assert_int_equal(eventq_fired(p.q), 2); /* the push, the edge at 5 (the promise on the wheel) */

	/* Two pushes, cycles 7 and 8 (ready 10 and 11): the consumer, woken at 10, sleeps until
	 * the second item's cycle. */
	eventq_schedule(p.q, 7100, EVQ_PRIO_DEFAULT, push_action, &p);
	eventq_schedule(p.q, 8900, EVQ_PRIO_DEFAULT, push_action, &p);
	eventq_run_until(p.q, TICK_NEVER);
	assert_int_equal(p.n_log, 3);
	assert_int_equal(p.log_cyc[1], 10);
	assert_int_equal(p.log_item[1], 1);
	assert_int_equal(p.log_cyc[2], 11);
	assert_int_equal(p.log_item[2], 2);
	assert_int_equal(clock_edges(c), 3);
	clock_check(c);
	link_destroy(p.l);
	clock_destroy(c);
	eventq_destroy(p.q);
}

/* A link created before its consumer (link_set_consumer): an item pushed at cycle 2 with
 * latency 3 is ready at 5; the consumer attached later is woken for exactly that cycle, and
 * later pushes wake it as link_create's consumer would be. */
static void test_consumer_set_later(void **state)
{
	struct pc p = { .per_tick = 8 };
	struct clock *c, *other;

	(void)state;
	p.q = eventq_create();
	c = clock_create(p.q, "c", 1000);
	other = clock_create(p.q, "other", 700);
	p.l = link_create("l", 4, 3, c, NULL);
	eventq_schedule(p.q, 2500, EVQ_PRIO_DEFAULT, push_action, &p); /* cycle 2 -> ready 5 */
	eventq_run_until(p.q, 3000);
	assert_int_equal(clock_edges(c), 0); /* nobody to wake yet */
	p.cons = clock_attach(c, "cons", cons_tick, &p);
	link_set_consumer(p.l, p.cons);
	eventq_run_until(p.q, TICK_NEVER);
	assert_int_equal(p.n_log, 1);
	assert_int_equal(p.log_cyc[0], 5);
	eventq_schedule(p.q, 7100, EVQ_PRIO_DEFAULT, push_action, &p); /* cycle 7 -> ready 10 */
	eventq_run_until(p.q, TICK_NEVER);
	assert_int_equal(p.n_log, 2);
	assert_int_equal(p.log_cyc[1], 10);
	/* A consumer on another clock is a bug. */
	expect_assert_failure(link_set_consumer(p.l, clock_attach(other, "x", cons_tick, &p)));
	clock_check(c);
	link_destroy(p.l);
	clock_destroy(other);
	clock_destroy(c);
	eventq_destroy(p.q);
}

/*
 * Capacity 2, latency 1, six items; the producer (attached first) pushes until refused and
 * sleeps; the consumer pops one item per cycle. Each pop after a refusal wakes the producer for
 * the next edge:
 *   cycle 0  P pushes 0, 1; 2 refused, P sleeps     (C woken for cycle 1)
 *   cycle 1  C pops 0 -> P woken for 2
 *   cycle 2  P pushes 2; 3 refused, sleeps; C pops 1 -> P woken for 3
 *   cycle 3  P pushes 3; 4 refused;  C pops 2 -> wake
 *   cycle 4  P pushes 4; 5 refused;  C pops 3 -> wake
 *   cycle 5  P pushes 5, done; C pops 4: nobody waits since the last pop, no wake
 *   cycle 6  C pops 5; empty, sleeps
 */
static void test_producer_woken_after_stall(void **state)
{
	struct pc p = { .per_tick = 1, .n_items = 6 };
	struct clock *c;
	static const cycle_t want_prod[] = { 0, 2, 3, 4, 5 };
	int i;

	(void)state;
	p.q = eventq_create();
	c = clock_create(p.q, "c", 1000);
	p.prod = clock_attach(c, "prod", prod_tick, &p);
	p.cons = clock_attach(c, "cons", cons_tick, &p);
	p.l = link_create("l", 2, 1, c, p.cons);
	link_set_producer(p.l, p.prod);
	clock_wake(p.prod);
	eventq_run_until(p.q, TICK_NEVER);
	assert_int_equal(p.n_log, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(p.log_item[i], i);
		assert_int_equal(p.log_cyc[i], (cycle_t)i + 1);
	}
	assert_int_equal(p.n_prod, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(p.prod_cyc[i], want_prod[i]);
	assert_int_equal(link_stats(p.l)->stalls, 4);
	assert_int_equal(link_stats(p.l)->occupancy.hwm, 2);
	assert_int_equal(clock_edges(c), 7);
	assert_int_equal(eventq_pending(p.q), 0);
	clock_check(c);
	link_destroy(p.l);
	clock_destroy(c);
	eventq_destroy(p.q);
}

/*
 * Producer in a 725 ps domain pushes one item per cycle for cycles 0..7 (ticks 0, 725, ... 5075);
 * the consumer is in a 1000 ps domain and the link's latency is 2 of its cycles. The consumer
 * cycles at the pushes are 0 0 1 2 2 3 4 5, so the items are ready at 2 2 3 4 4 5 6 7.
 */
static void prod_one_per_cycle(void *unit, cycle_t now)
{
	struct pc *p = unit;

	p->prod_cyc[p->n_prod++] = now;
	link_push(p->l, ITEM(p->next++));
	if (p->next == p->n_items)
		clock_sleep(p->prod);
}

static void test_cross_domain(void **state)
{
	struct pc p = { .per_tick = 8, .n_items = 8 };
	struct clock *fast, *slow;
	static const int want_cyc[] = { 2, 2, 3, 4, 4, 5, 6, 7 };
	int i;

	(void)state;
	p.q = eventq_create();
	fast = clock_create(p.q, "fast", 725);
	slow = clock_create(p.q, "slow", 1000);
	p.prod = clock_attach(fast, "prod", prod_one_per_cycle, &p);
	p.cons = clock_attach(slow, "cons", cons_tick, &p);
	p.l = link_create("l", 8, 2, slow, p.cons);
	link_set_producer(p.l, p.prod);
	clock_wake(p.prod);
	eventq_run_until(p.q, TICK_NEVER);
	assert_int_equal(p.n_log, 8);
	for (i = 0; i < 8; i++) {
		assert_int_equal(p.log_item[i], i);
		assert_int_equal(p.log_cyc[i], want_cyc[i]);
	}
	assert_int_equal(clock_edges(fast), 8);
	assert_int_equal(clock_edges(slow), 6); /* cycles 2..7: asleep before the first item */
	assert_int_equal(eventq_now(p.q), 7000);
	assert_int_equal(link_stats(p.l)->stalls, 0);
	clock_check(fast);
	clock_check(slow);
	link_destroy(p.l);
	clock_destroy(fast);
	clock_destroy(slow);
	eventq_destroy(p.q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accessors),
		cmocka_unit_test(test_latency_exact),
		cmocka_unit_test(test_fifo_order),
		cmocka_unit_test(test_backpressure),
		cmocka_unit_test(test_ring_wrap),
		cmocka_unit_test(test_pop_at),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_contract),
		cmocka_unit_test(test_consumer_woken_at_ready),
		cmocka_unit_test(test_consumer_set_later),
		cmocka_unit_test(test_producer_woken_after_stall),
		cmocka_unit_test(test_cross_domain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
