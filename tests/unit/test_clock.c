/*
 * test_clock.c - clock domains: which unit is ticked at which exact cycle, and what it costs.
 *
 * Every test unit logs (unit, cycle) into one shared log, so a test states the whole expected
 * tick sequence, in order, as a literal.
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

#define MAX_LOG 512
#define MAX_UNITS 160

struct world;

struct tu {
	struct world *w;
	struct clock_unit *cu;
	int id;
	int sleep_after;  /* clock_sleep after this many ticks; 0: never by itself */
	void (*on_tick)(struct tu *u, cycle_t now);
	uint64_t ticks;
};

struct world {
	struct eventq *q;
	struct tu u[MAX_UNITS];
	int log_id[MAX_LOG];
	cycle_t log_cyc[MAX_LOG];
	int n;
};

static void tu_tick(void *unit, cycle_t now)
{
	struct tu *u = unit;
	struct world *w = u->w;

	/* clock.c names the unit being ticked, for panics. */
	assert_non_null(eventq_unit(w->q));
	assert_string_equal(eventq_unit(w->q), clock_unit_name(u->cu));
	assert_true(clock_is_awake(u->cu));
	assert_int_equal(clock_cycle(clock_unit_clock(u->cu)), now);
	assert_true(w->n < MAX_LOG);
	w->log_id[w->n] = u->id;
	w->log_cyc[w->n] = now;
	w->n++;
	u->ticks++;
	if (u->on_tick != NULL)
		u->on_tick(u, now);
	if (u->sleep_after != 0 && u->ticks == (uint64_t)u->sleep_after)
		clock_sleep(u->cu);
}

static struct world *world_new(void)
{
	struct world *w = calloc(1, sizeof *w);

	w->q = eventq_create();
	return w;
}

static void world_free(struct world *w)
{
	eventq_destroy(w->q);
	free(w);
}

static struct tu *add_unit(struct world *w, struct clock *c, int id, int sleep_after)
{
	struct tu *u = &w->u[id];
	char name[32];

	snprintf(name, sizeof name, "u%d", id);
	u->w = w;
	u->id = id;
	u->sleep_after = sleep_after;
	u->cu = clock_attach(c, name, tu_tick, u);
	return u;
}

/* Compares the log with pairs {id, cycle, id, cycle, ...}. */
static void expect_log(const struct world *w, const long *pairs, int n_pairs)
{
	int i;

	for (i = 0; i < n_pairs && i < w->n; i++) {
		if (w->log_id[i] != pairs[2 * i] || w->log_cyc[i] != (cycle_t)pairs[2 * i + 1])
			fail_msg("log[%d] = u%d@%llu, expected u%ld@%ld", i, w->log_id[i],
				 (unsigned long long)w->log_cyc[i], pairs[2 * i], pairs[2 * i + 1]);
	}
	assert_int_equal(w->n, n_pairs);
}

#define EXPECT_LOG(w, ...)                                                                  \
	do {                                                                                \
		static const long pairs_[] = { __VA_ARGS__ };                               \
		expect_log((w), pairs_, (int)(sizeof pairs_ / sizeof pairs_[0] / 2));       \
	} while (0)

/* An event that runs an arbitrary action at a given tick, outside any edge. */
struct action {
	void (*fn)(struct action *a);
	struct tu *target;
	cycle_t cyc;
};

static void action_fire(void *ctx, tick_t now)
{
	struct action *a = ctx;

	(void)now;
	a->fn(a);
}

static void act_wake(struct action *a)
{
	clock_wake(a->target->cu);
}

static void act_wake_at(struct action *a)
{
	clock_wake_at(a->target->cu, a->cyc);
}

/* on_tick of a unit that does one cycle of work per wake. */
static void sleep_now(struct tu *u, cycle_t now)
{
	(void)now;
	clock_sleep(u->cu);
}

/* ------------------------------------------------------------------------------------------------
 * Domains
 */

static void test_period_from_mhz(void **state)
{
	(void)state;
	assert_int_equal(clock_period_from_mhz(1380.0), 725);  /* 724.64 */
	assert_int_equal(clock_period_from_mhz(1000.0), 1000);
	assert_int_equal(clock_period_from_mhz(877.0), 1140);  /* 1140.25 */
	assert_int_equal(clock_period_from_mhz(1215.0), 823);  /* 823.05 */
	assert_int_equal(clock_period_from_mhz(1750.0), 571);  /* 571.43 */
	assert_int_equal(clock_period_from_mhz(1.5), 666667);  /* 666666.67 */
	assert_int_equal(clock_period_from_mhz(1e6), 1);
	assert_int_equal(clock_period_from_mhz(3e6), 1);       /* 0.33 ps: at least 1 */
	expect_assert_failure(clock_period_from_mhz(0.0));
	expect_assert_failure(clock_period_from_mhz(-100.0));
}

static void test_create_attach(void **state)
{
	struct world *w = world_new();
	char name[16] = "core";
	struct clock *c = clock_create(w->q, name, 725);
	struct tu *u;

	(void)state;
	strcpy(name, "XXXX"); /* the name was copied */
	assert_string_equal(clock_name(c), "core");
	assert_int_equal(clock_period(c), 725);
	assert_ptr_equal(clock_eventq(c), w->q);
	assert_int_equal(clock_cycle(c), 0);
	assert_int_equal(clock_tick_of(c, 3), 2175);
	assert_int_equal(clock_edges(c), 0);
	assert_int_equal(clock_awake_count(c), 0);
	u = add_unit(w, c, 0, 0);
	assert_string_equal(clock_unit_name(u->cu), "u0");
	assert_ptr_equal(clock_unit_clock(u->cu), c);
	assert_false(clock_is_awake(u->cu));
	assert_int_equal(clock_unit_ticks(u->cu), 0);
	/* Attaching schedules nothing. */
	assert_int_equal(eventq_pending(w->q), 0);
	clock_check(c);
	expect_assert_failure(clock_create(w->q, "zero", 0));
	expect_assert_failure(clock_attach(c, "nofn", NULL, NULL));
	clock_destroy(c);
	world_free(w);
}

/* Cycle numbers are floor(now / period), mid-cycle included, and edges sit at cyc * period. */
struct probe {
	struct clock *c;
	cycle_t seen[8];
	int n;
};

static void probe_fire(void *ctx, tick_t now)
{
	struct probe *p = ctx;

	(void)now;
	p->seen[p->n++] = clock_cycle(p->c);
}

static void test_cycle_from_tick(void **state)
{
	struct world *w = world_new();
	struct probe p = { .c = clock_create(w->q, "c", 725) };
	static const tick_t at[] = { 0, 724, 725, 1449, 1450, 725000000 };
	static const cycle_t want[] = { 0, 0, 1, 1, 2, 1000000 };
	int i;

	(void)state;
	for (i = 0; i < 6; i++)
		eventq_schedule(w->q, at[i], EVQ_PRIO_DEFAULT, probe_fire, &p);
	eventq_run_until(w->q, TICK_NEVER);
	assert_int_equal(p.n, 6);
	for (i = 0; i < 6; i++)
		assert_int_equal(p.seen[i], want[i]);
	assert_int_equal(clock_tick_of(p.c, 1000000), 725000000);
	assert_int_equal(clock_edges(p.c), 0);
	clock_destroy(p.c);
	world_free(w);
}

/* ------------------------------------------------------------------------------------------------
 * Tick order, wake and sleep inside an edge
 */

static void test_attach_order_is_tick_order(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);

	(void)state;
	add_unit(w, c, 0, 3);
	add_unit(w, c, 1, 3);
	add_unit(w, c, 2, 3);
	/* Woken in the opposite order: still ticked in attach order. */
	clock_wake(w->u[2].cu);
	clock_wake(w->u[0].cu);
	clock_wake(w->u[1].cu);
	assert_int_equal(clock_awake_count(c), 3);
	assert_int_equal(eventq_pending(w->q), 1); /* one edge for the whole domain */
	clock_check(c);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1, 0, 2, 1, 2, 2, 2);
	assert_int_equal(clock_edges(c), 3);
	assert_int_equal(clock_ticks(c), 9); /* three units, three edges each */
	assert_int_equal(eventq_fired(w->q), 3);
	assert_int_equal(eventq_now(w->q), 2000);
	assert_int_equal(eventq_pending(w->q), 0);
	assert_int_equal(clock_awake_count(c), 0);
	assert_int_equal(clock_unit_ticks(w->u[1].cu), 3);
	assert_null(eventq_unit(w->q));
	clock_check(c);
	clock_destroy(c);
	world_free(w);
}

/* Unit 1 (attach order: 0, 1, 2) wakes unit 2 (after it) and unit 0 (before it) at cycle 5:
 * both are first ticked at 6, not at 5. Waking an awake unit changes nothing. */
static void wake_neighbours(struct tu *u, cycle_t now)
{
	if (now == 2)
		clock_wake(u->cu);
	if (now == 5) {
		clock_wake(u->w->u[2].cu);
		clock_wake(u->w->u[0].cu);
		assert_int_equal(clock_awake_count(clock_unit_clock(u->cu)), 3);
	}
}

static void test_wake_during_edge(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);

	(void)state;
	add_unit(w, c, 0, 1);
	add_unit(w, c, 1, 7)->on_tick = wake_neighbours;
	add_unit(w, c, 2, 1);
	clock_wake(w->u[1].cu);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 1, 0, 1, 1, 1, 2, 1, 3, 1, 4, 1, 5, 0, 6, 1, 6, 2, 6);
	assert_int_equal(clock_edges(c), 7);
	assert_int_equal(clock_ticks(c), 9); /* unit 1 at 0..6, units 0 and 2 at 6 */
	assert_int_equal(eventq_pending(w->q), 0);
	clock_check(c);
	clock_destroy(c);
	world_free(w);
}

/* Unit 0 puts unit 1 (later in order) to sleep at cycle 2: unit 1 is not ticked at 2. */
static void put_to_sleep(struct tu *u, cycle_t now)
{
	if (now == 2) {
		clock_sleep(u->w->u[1].cu);
		assert_false(clock_is_awake(u->w->u[1].cu));
	}
}

static void test_sleep_stops_ticks(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);

	(void)state;
	add_unit(w, c, 0, 4)->on_tick = put_to_sleep;
	add_unit(w, c, 1, 0);
	clock_wake(w->u[0].cu);
	clock_wake(w->u[1].cu);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 0, 0, 1, 0, 0, 1, 1, 1, 0, 2, 0, 3);
	assert_int_equal(clock_unit_ticks(w->u[1].cu), 2);
	assert_int_equal(clock_edges(c), 4);
	assert_int_equal(clock_ticks(c), 6); /* unit 0 at 0..3, unit 1 at 0 and 1 */
	assert_int_equal(eventq_fired(w->q), 4);
	/* A sleeping unit, put to sleep again, stays asleep and costs nothing. */
	clock_sleep(w->u[1].cu);
	assert_int_equal(eventq_pending(w->q), 0);
	clock_check(c);
	clock_destroy(c);
	world_free(w);
}

/* Outside an edge: the last awake unit going to sleep withdraws the domain's edge. */
static void test_sleep_outside_edge_cancels_edge(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);

	(void)state;
	add_unit(w, c, 0, 0);
	clock_wake(w->u[0].cu);
	assert_int_equal(eventq_pending(w->q), 1);
	clock_sleep(w->u[0].cu);
	assert_int_equal(eventq_pending(w->q), 0);
	clock_check(c);
	assert_int_equal(eventq_run_until(w->q, TICK_NEVER), 0);
	assert_int_equal(clock_edges(c), 0);
	clock_destroy(c);
	world_free(w);
}

/* ------------------------------------------------------------------------------------------------
 * Timed wakes
 */

static void sleep_until_script(struct tu *u, cycle_t now)
{
	if (now == 0)
		clock_sleep_until(u->cu, 10);
	else if (now == 10)
		clock_sleep_until(u->cu, 12);
	else
		clock_sleep(u->cu);
}

static void test_sleep_until_exact(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);
	struct tu *u;

	(void)state;
	u = add_unit(w, c, 0, 0);
	u->on_tick = sleep_until_script;
	clock_wake(u->cu);
	eventq_run_until(w->q, 9999);
	assert_int_equal(clock_edges(c), 1);
	assert_false(clock_is_awake(u->cu));
	assert_int_equal(clock_awake_count(c), 0);
	assert_int_equal(eventq_pending(w->q), 1); /* the edge at 10 (the wheel's), no wake event */
	assert_int_equal(eventq_next_tick(w->q), 10000);
	clock_check(c);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 0, 0, 0, 10, 0, 12);
	assert_int_equal(clock_edges(c), 3);
	assert_int_equal(eventq_fired(w->q), 3); /* 3 edges: both promises were on the wheel */
	assert_int_equal(eventq_now(w->q), 12000);
	assert_int_equal(eventq_pending(w->q), 0);
	clock_check(c);
	clock_destroy(c);
	world_free(w);
}

/* A long sleep costs one wake event and one edge, however long. An idle domain costs nothing. */
static void sleep_long(struct tu *u, cycle_t now)
{
	if (now == 0)
		clock_sleep_until(u->cu, 1000000);
	else
		clock_sleep(u->cu);
}

static void test_idle_costs_nothing(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);
	struct clock *idle = clock_create(w->q, "idle", 700);
	struct tu *u;

	(void)state;
	u = add_unit(w, c, 0, 0);
	u->on_tick = sleep_long;
	add_unit(w, idle, 1, 0);
	clock_wake(u->cu);
	eventq_run_until(w->q, 500000000);
	assert_int_equal(clock_edges(c), 1);
	assert_int_equal(eventq_fired(w->q), 1);
	assert_int_equal(eventq_pending(w->q), 1);
	assert_int_equal(clock_awake_count(c), 0);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 0, 0, 0, 1000000);
	assert_int_equal(clock_edges(c), 2);
	assert_int_equal(eventq_fired(w->q), 3);
	assert_int_equal(eventq_now(w->q), 1000000000ull);
	assert_int_equal(clock_edges(idle), 0);
	assert_int_equal(clock_cycle(idle), 1000000000ull / 700);
	clock_check(c);
	clock_check(idle);
	clock_destroy(c);
	clock_destroy(idle);
	world_free(w);
}

/* The wheel's reach: at cycle 0 (next edge 1) a promise of 64 is 63 cycles ahead and goes on the
 * wheel (no event of its own; the edge event is put at 64), one of 65 is 64 ahead and gets a wake
 * event. Units 0 and 2 share the wheel's slot 64 % 64 = 0 with nothing else; unit 1 is further
 * out. Each is ticked at its cycle and nowhere between. */
static void sleep_until_id(struct tu *u, cycle_t now)
{
	if (now == 0)
		clock_sleep_until(u->cu, u->id == 1 ? 65 : 64);
	else
		clock_sleep(u->cu);
}

static void test_wheel_reach(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		add_unit(w, c, i, 0)->on_tick = sleep_until_id;
		clock_wake(w->u[i].cu);
	}
	eventq_run_until(w->q, 1000);
	EXPECT_LOG(w, 0, 0, 1, 0, 2, 0);
	assert_int_equal(clock_awake_count(c), 0);
	assert_int_equal(eventq_pending(w->q), 2); /* the edge at 64, the wake event at 65 */
	assert_int_equal(eventq_next_tick(w->q), 64000);
	clock_check(c);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 0, 0, 1, 0, 2, 0, 0, 64, 2, 64, 1, 65);
	assert_int_equal(clock_edges(c), 3);
	assert_int_equal(eventq_fired(w->q), 4); /* edges 0, 64, 65 and unit 1's wake */
	assert_int_equal(eventq_pending(w->q), 0);
	clock_check(c);
	clock_destroy(c);
	world_free(w);
}

/* CYCLE_NEVER (an empty link's head_ready), or a cycle whose tick overflows: no wake at all. */
static void sleep_forever(struct tu *u, cycle_t now)
{
	(void)now;
	clock_sleep_until(u->cu, CYCLE_NEVER);
}

static void test_sleep_until_never(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);
	struct tu *u;

	(void)state;
	u = add_unit(w, c, 0, 0);
	u->on_tick = sleep_forever;
	clock_wake(u->cu);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 0, 0);
	assert_false(clock_is_awake(u->cu));
	assert_int_equal(eventq_pending(w->q), 0);
	clock_wake_at(u->cu, CYCLE_NEVER);
	clock_wake_at(u->cu, CYCLE_NEVER / 1000 + 7); /* its tick would not fit in 64 bits */
	clock_sleep_until(u->cu, CYCLE_NEVER - 1);
	assert_int_equal(eventq_pending(w->q), 0);
	assert_false(clock_is_awake(u->cu));
	clock_check(c);
	clock_destroy(c);
	world_free(w);
}

/* wake_at(50), then (80): the later one is ignored; then (30): moves the wake earlier. One tick,
 * at 30: the promise "by 50" is kept by the earlier tick. */
static void test_wake_at_only_earlier(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);
	struct tu *u;

	(void)state;
	u = add_unit(w, c, 0, 1);
	clock_wake_at(u->cu, 50);
	assert_false(clock_is_awake(u->cu));
	assert_int_equal(eventq_pending(w->q), 1);
	assert_int_equal(eventq_next_tick(w->q), 50000);
	clock_wake_at(u->cu, 80);
	assert_int_equal(eventq_pending(w->q), 1);
	assert_int_equal(eventq_next_tick(w->q), 50000);
	clock_wake_at(u->cu, 30);
	assert_int_equal(eventq_pending(w->q), 1);
	assert_int_equal(eventq_next_tick(w->q), 30000);
	clock_check(c);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 0, 30);
	assert_int_equal(clock_edges(c), 1);
	assert_int_equal(eventq_fired(w->q), 1); /* the edge at 30: the promise was on the wheel */
	clock_check(c);
	clock_destroy(c);
	world_free(w);
}

/* clock_sleep does not cancel a pending timed wake: woken early (mid-cycle 10.5 -> cycle 11), the
 * unit sleeps again and is still ticked at 50. */
static void sleep_until_50_then_sleep(struct tu *u, cycle_t now)
{
	if (now == 0)
		clock_sleep_until(u->cu, 50);
	else
		clock_sleep(u->cu);
}

static void test_sleep_keeps_timed_wake(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);
	struct action a = { .fn = act_wake };
	struct tu *u;

	(void)state;
	u = add_unit(w, c, 0, 0);
	u->on_tick = sleep_until_50_then_sleep;
	a.target = u;
	clock_wake(u->cu);
	eventq_schedule(w->q, 10500, EVQ_PRIO_DEFAULT, action_fire, &a);
	eventq_run_until(w->q, 11000);
	EXPECT_LOG(w, 0, 0, 0, 11);
	assert_false(clock_is_awake(u->cu));
	assert_int_equal(eventq_pending(w->q), 1); /* the wake at 50 */
	assert_int_equal(eventq_next_tick(w->q), 50000);
	clock_check(c);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 0, 0, 0, 11, 0, 50);
	assert_int_equal(clock_edges(c), 3);
	clock_check(c);
	clock_destroy(c);
	world_free(w);
}

/* A cycle at or before the current one means the next edge: mid-cycle 5 -> 6; exactly at the
 * (unfired) edge of an idle domain -> that edge. */
static void test_wake_at_past_cycle(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);
	struct action a1 = { .fn = act_wake_at, .cyc = 2 };
	struct action a2 = { .fn = act_wake_at, .cyc = 7 };
	struct tu *u;

	(void)state;
	u = add_unit(w, c, 0, 0);
	u->on_tick = sleep_now;
	a1.target = a2.target = u;
	eventq_schedule(w->q, 5500, EVQ_PRIO_DEFAULT, action_fire, &a1);
	eventq_schedule(w->q, 7000, EVQ_PRIO_DEFAULT, action_fire, &a2);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 0, 6, 0, 7);
	assert_int_equal(clock_edges(c), 2);
	/* 2 actions + 2 edges: a wake due at the next edge needs no wake event. */
	assert_int_equal(eventq_fired(w->q), 4);
	clock_check(c);
	clock_destroy(c);
	world_free(w);
}

/*
 * A promise made to an awake unit survives its clock_sleep (a link's consumer is ticked in the
 * cycle of the push, sees nothing yet, and sleeps). Unit 0 (the producer) drives unit 1, which
 * calls clock_sleep at every tick from cycle 3 on:
 *   cycle 3  promise 6 to the awake unit 1; unit 1 sleeps on the wheel's slot for 6
 *   cycle 4  promise 7: a wake at 6 is pending, and timed wakes only move earlier: ignored
 *   cycle 6  unit 1 ticked (the promise kept); it sleeps with nothing pending
 *   cycle 7  clock_wake(unit 1): ticked from 8
 *   cycle 8  promise 9, due at the very next edge: unit 1's clock_sleep leaves it awake
 *   cycle 9  both sleep
 */
static void producer(struct tu *u, cycle_t now)
{
	struct clock_unit *cons = u->w->u[1].cu;

	if (now == 3)
		clock_wake_at(cons, 6);
	if (now == 4)
		clock_wake_at(cons, 7);
	if (now == 7)
		clock_wake(cons);
	if (now == 8)
		clock_wake_at(cons, 9);
	if (now == 9)
		clock_sleep(u->cu);
}

static void consumer(struct tu *u, cycle_t now)
{
	if (now >= 3) {
		clock_sleep(u->cu);
		assert_int_equal(clock_is_awake(u->cu), now == 8);
	}
}

static void test_promise_survives_sleep(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);

	(void)state;
	add_unit(w, c, 0, 0)->on_tick = producer;
	add_unit(w, c, 1, 0)->on_tick = consumer;
	clock_wake(w->u[0].cu);
	clock_wake(w->u[1].cu);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 0, 0, 1, 0, 0, 1, 1, 1, 0, 2, 1, 2, 0, 3, 1, 3, 0, 4, 0, 5, 0, 6, 1, 6,
		   0, 7, 0, 8, 1, 8, 0, 9, 1, 9);
	assert_int_equal(clock_edges(c), 10);
	assert_int_equal(eventq_fired(w->q), 10); /* 10 edges: the promise of 6 on the wheel */
	assert_int_equal(eventq_pending(w->q), 0);
	clock_check(c);
	clock_destroy(c);
	world_free(w);
}

/* ------------------------------------------------------------------------------------------------
 * Two domains
 */

/*
 * Domain A (725 ps) wakes a unit of domain B (1000 ps). Mid-cycle, the B unit is first ticked at
 * floor(now / 1000) + 1: A cycle 3 = 2175 ps -> B cycle 3; A cycle 7 = 5075 -> 6. A cycle 12 =
 * 8700 asks for B cycle 10 (a wake event); A cycle 13 = 9425 asks for cycle 2 (the past: the next
 * edge, 10, which is no earlier than the pending 10: nothing changes). A cycle 40 = 29000 ps is
 * exactly B's edge 29, which has not fired (B is idle): ticked at 29.
 */
static void a_script(struct tu *u, cycle_t now)
{
	struct clock_unit *b = u->w->u[1].cu;

	if (now == 3 || now == 7 || now == 40)
		clock_wake(b);
	if (now == 12)
		clock_wake_at(b, 10);
	if (now == 13)
		clock_wake_at(b, 2);
}

static void test_cross_domain(void **state)
{
	struct world *w = world_new();
	struct clock *a = clock_create(w->q, "a", 725);
	struct clock *b = clock_create(w->q, "b", 1000);
	cycle_t want[] = { 3, 6, 10, 29 };
	int i, k = 0;

	(void)state;
	add_unit(w, a, 0, 41)->on_tick = a_script;
	add_unit(w, b, 1, 0)->on_tick = sleep_now;
	clock_wake(w->u[0].cu);
	eventq_run_until(w->q, TICK_NEVER);
	for (i = 0; i < w->n; i++) {
		if (w->log_id[i] != 1)
			continue;
		assert_true(k < 4);
		assert_int_equal(w->log_cyc[i], want[k]);
		k++;
	}
	assert_int_equal(k, 4);
	assert_int_equal(clock_edges(a), 41);
	assert_int_equal(clock_edges(b), 4);
	assert_int_equal(clock_unit_ticks(w->u[1].cu), 4);
	clock_check(a);
	clock_check(b);
	clock_destroy(a);
	clock_destroy(b);
	world_free(w);
}

/*
 * Edges of one tick fire in the order the domains were created, whatever the order their edge
 * events were scheduled in: b (created second) is woken first, well before a, yet at the ticks
 * they share (0, 1000, 2000) a's unit is ticked before b's. Without it, a domain that had slept
 * and been woken would fire after one that had run on, and flow control across domains at
 * shared edges would depend on which units had slept.
 */
static void test_shared_edges_in_domain_order(void **state)
{
	struct world *w = world_new();
	struct clock *a = clock_create(w->q, "a", 1000);
	struct clock *b = clock_create(w->q, "b", 500);
	struct action wake_a = { act_wake, NULL, 0 };

	(void)state;
	add_unit(w, a, 0, 3);
	add_unit(w, b, 1, 5);
	wake_a.target = &w->u[0];
	clock_wake(w->u[1].cu);            /* b's edge at tick 0 is scheduled first */
	eventq_schedule(w->q, 0, EVQ_PRIO_DEFAULT, action_fire, &wake_a);
	eventq_run_until(w->q, TICK_NEVER);
	/* a: cycles 0, 1, 2 at ticks 0, 1000, 2000; b: cycles 0..4 at ticks 0, 500, ... 2000 */
	EXPECT_LOG(w, 0, 0, 1, 0, 1, 1, 0, 1, 1, 2, 1, 3, 0, 2, 1, 4);
	clock_destroy(a);
	clock_destroy(b);
	world_free(w);
}

/*
 * A domain woken by a later domain at a tick they share has had its turn at that tick: b (second)
 * wakes a's unit at its edge at tick 1000; a's edge at 1000 would have fired before b's, so a's
 * unit is ticked from a's next edge (2000), not at 1000 after b. Woken by an event that orders
 * before the edges (here a DEFAULT event at 3000), it is ticked at that tick's edge.
 */
static void b_wakes_a(struct tu *u, cycle_t now)
{
	if (now == 1)
		clock_wake(u->w->u[0].cu);
}

static void test_woken_after_its_turn(void **state)
{
	struct world *w = world_new();
	struct clock *a = clock_create(w->q, "a", 1000);
	struct clock *b = clock_create(w->q, "b", 1000);
	struct action wake_a = { act_wake, NULL, 0 };

	(void)state;
	add_unit(w, a, 0, 1);
	add_unit(w, b, 1, 2)->on_tick = b_wakes_a;
	wake_a.target = &w->u[0];
	clock_wake(w->u[1].cu);
	eventq_run_until(w->q, 2500);
	EXPECT_LOG(w, 1, 0, 1, 1, 0, 2);
	w->u[0].ticks = 0;
	eventq_schedule(w->q, 3000, EVQ_PRIO_DEFAULT, action_fire, &wake_a);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 1, 0, 1, 1, 0, 2, 0, 3);
	clock_destroy(a);
	clock_destroy(b);
	world_free(w);
}

/* ------------------------------------------------------------------------------------------------
 * Many units: several bitmap words, wake and sleep across words inside an edge.
 */

static void many_script(struct tu *u, cycle_t now)
{
	struct world *w = u->w;

	if (now != 0)
		return;
	if (u->id == 10)
		clock_sleep(w->u[90].cu);  /* later word: 90 is skipped at 0 */
	if (u->id == 100)
		clock_wake(w->u[90].cu);   /* awake again, but its turn at 0 has passed */
	if (u->id == 70) {
		clock_wake(w->u[129].cu);  /* later word, asleep: ticked from 1 */
		clock_wake(w->u[120].cu);  /* same word, later, asleep: ticked from 1 */
		clock_wake(w->u[5].cu);    /* earlier word, asleep: ticked from 1 */
	}
}

static void test_many_units(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 100);
	int i, n_units = 130, k;
	cycle_t cyc;

	(void)state;
	for (i = 0; i < n_units; i++) {
		add_unit(w, c, i, i % 3 + 1)->on_tick = many_script;
		if (i != 5 && i != 120 && i != 129)
			clock_wake(w->u[i].cu);
	}
	assert_int_equal(clock_awake_count(c), 127);
	clock_check(c);
	eventq_run_until(w->q, TICK_NEVER);
	clock_check(c);
	/* Expected: unit i ticked at cycles 0 .. i%3 (5, 90, 120, 129 one cycle later), in index
	 * order within each cycle. */
	k = 0;
	for (cyc = 0; cyc < 4; cyc++) {
		for (i = 0; i < n_units; i++) {
			cycle_t first = (i == 5 || i == 90 || i == 120 || i == 129) ? 1 : 0;

			if (cyc < first || cyc >= first + (cycle_t)(i % 3 + 1))
				continue;
			assert_true(k < w->n);
			if (w->log_id[k] != i || w->log_cyc[k] != cyc)
				fail_msg("log[%d] = u%d@%llu, expected u%d@%llu", k, w->log_id[k],
					 (unsigned long long)w->log_cyc[k], i,
					 (unsigned long long)cyc);
			k++;
		}
	}
	assert_int_equal(k, w->n);
	assert_int_equal(clock_edges(c), 4);
	clock_destroy(c);
	world_free(w);
}

/* ------------------------------------------------------------------------------------------------
 * Teardown
 */

static void test_destroy_cancels_events(void **state)
{
	struct world *w = world_new();
	struct clock *c = clock_create(w->q, "c", 1000);
	struct clock *keep = clock_create(w->q, "keep", 500);

	(void)state;
	add_unit(w, c, 0, 0);
	add_unit(w, c, 1, 0);
	add_unit(w, keep, 2, 1);
	clock_wake(w->u[0].cu);
	clock_wake_at(w->u[1].cu, 100);
	clock_wake_at(w->u[2].cu, 3);
	assert_int_equal(eventq_pending(w->q), 3); /* c's edge, u1's wake, u2's wake */
	clock_destroy(c);
	assert_int_equal(eventq_pending(w->q), 1);
	eventq_run_until(w->q, TICK_NEVER);
	EXPECT_LOG(w, 2, 3);
	clock_check(keep);
	clock_destroy(keep);
	world_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_period_from_mhz),
		cmocka_unit_test(test_create_attach),
		cmocka_unit_test(test_cycle_from_tick),
		cmocka_unit_test(test_attach_order_is_tick_order),
		cmocka_unit_test(test_wake_during_edge),
		cmocka_unit_test(test_sleep_stops_ticks),
		cmocka_unit_test(test_sleep_outside_edge_cancels_edge),
		cmocka_unit_test(test_sleep_until_exact),
		cmocka_unit_test(test_idle_costs_nothing),
		cmocka_unit_test(test_sleep_until_never),
		cmocka_unit_test(test_wheel_reach),
		cmocka_unit_test(test_wake_at_only_earlier),
		cmocka_unit_test(test_sleep_keeps_timed_wake),
		cmocka_unit_test(test_wake_at_past_cycle),
		cmocka_unit_test(test_promise_survives_sleep),
		cmocka_unit_test(test_cross_domain),
		cmocka_unit_test(test_shared_edges_in_domain_order),
		cmocka_unit_test(test_woken_after_its_turn),
		cmocka_unit_test(test_many_units),
		cmocka_unit_test(test_destroy_cancels_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
