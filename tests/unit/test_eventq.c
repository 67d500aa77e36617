/*
 * test_eventq.c - the event core: order, cancel, handlers that schedule, run_until boundaries,
 * contract violations, a randomized comparison against a sorted reference, and events crossing
 * the boundaries between the queue's levels (checked online against a reference), with and
 * without clock-domain edges (eventq_edge_set) among them.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

#include "eventq.h"
#include "log.h"

/* ------------------------------------------------------------------------------------------------
 * A recorder: every event logs its tag, so a test compares the firing order with a literal list.
 */

#define MAX_LOG 64

struct rec {
	struct eventq *q;
	int log[MAX_LOG];
	tick_t at[MAX_LOG];
	int n;
};

struct ev {
	struct rec *r;
	int tag;
	void (*then)(struct ev *e, tick_t now); /* optional extra work in the handler */
	uint64_t arg;
	uint64_t id;
};

static void ev_fire(void *ctx, tick_t now)
{
	struct ev *e = ctx;
	struct rec *r = e->r;

	assert_true(r->n < MAX_LOG);
	r->log[r->n] = e->tag;
	r->at[r->n] = now;
	r->n++;
	if (e->then != NULL)
		e->then(e, now);
}

static uint64_t sched(struct ev *e, struct rec *r, int tag, tick_t when, int prio)
{
	e->r = r;
	e->tag = tag;
	e->id = eventq_schedule(r->q, when, prio, ev_fire, e);
	return e->id;
}

static void expect_log(const struct rec *r, const int *tags, int n)
{
	int i;

	assert_int_equal(r->n, n);
	for (i = 0; i < n; i++)
		assert_int_equal(r->log[i], tags[i]);
}

static void noop(void *ctx, tick_t now)
{
	(void)ctx;
	(void)now;
}

/* ------------------------------------------------------------------------------------------------
 * Basics
 */

static void test_empty(void **state)
{
	struct eventq *q = eventq_create();

	(void)state;
	assert_int_equal(eventq_now(q), 0);
	assert_int_equal(eventq_pending(q), 0);
	assert_int_equal(eventq_fired(q), 0);
	assert_true(eventq_next_tick(q) == TICK_NEVER);
	assert_false(eventq_step(q));
	assert_int_equal(eventq_run_until(q, 1000), 0);
	assert_int_equal(eventq_now(q), 0);
	assert_false(eventq_is_pending(q, 0));
	assert_false(eventq_is_pending(q, 1));
	assert_false(eventq_cancel(q, 0));
	assert_false(eventq_cancel(q, UINT64_MAX));
	eventq_check(q);
	eventq_destroy(q);
}

static void test_order_tick_then_prio(void **state)
{
	struct rec r = { .q = eventq_create() };
	struct ev e[8] = { { 0 } };
	static const int want[] = { 5, 1, 6, 0, 3, 2, 4, 7 };

	(void)state;
	sched(&e[0], &r, 0, 100, EVQ_PRIO_CLOCK);
	sched(&e[1], &r, 1, 100, EVQ_PRIO_WAKE);
	sched(&e[2], &r, 2, 100, EVQ_PRIO_EXIT);
	sched(&e[3], &r, 3, 100, EVQ_PRIO_STATS);
	sched(&e[4], &r, 4, 101, 0);
	sched(&e[5], &r, 5, 99, EVQ_PRIO_MAX);
	sched(&e[6], &r, 6, 100, EVQ_PRIO_DEFAULT);
	sched(&e[7], &r, 7, 1000, EVQ_PRIO_DEFAULT);
	assert_int_equal(eventq_pending(r.q), 8);
	assert_int_equal(eventq_next_tick(r.q), 99);
	eventq_check(r.q);
	assert_int_equal(eventq_run_until(r.q, TICK_NEVER), 8);
	expect_log(&r, want, 8);
	assert_int_equal(r.at[0], 99);
	assert_int_equal(r.at[5], 100);
	assert_int_equal(r.at[6], 101);
	assert_int_equal(r.at[7], 1000);
	assert_int_equal(eventq_now(r.q), 1000);
	assert_int_equal(eventq_fired(r.q), 8);
	assert_int_equal(eventq_pending(r.q), 0);
	eventq_check(r.q);
	eventq_destroy(r.q);
}

/* Equal tick and priority: schedule order, even when interleaved with other priorities and with
 * events scheduled at a later tick first. */
static void test_fifo_equal_keys(void **state)
{
	struct rec r = { .q = eventq_create() };
	struct ev e[12] = { { 0 } };
	static const int want[] = { 1, 3, 5, 7, 9, 11, 0, 2, 4, 6, 8, 10 };
	int i;

	(void)state;
	for (i = 0; i < 12; i++)
		sched(&e[i], &r, i, 500, i % 2 == 0 ? EVQ_PRIO_CLOCK : EVQ_PRIO_DEFAULT);
	assert_int_equal(eventq_run_until(r.q, 500), 12);
	expect_log(&r, want, 12);
	eventq_destroy(r.q);
}

static void test_step(void **state)
{
	struct rec r = { .q = eventq_create() };
	struct ev e[3] = { { 0 } };

	(void)state;
	sched(&e[0], &r, 0, 30, EVQ_PRIO_DEFAULT);
	sched(&e[1], &r, 1, 10, EVQ_PRIO_DEFAULT);
	sched(&e[2], &r, 2, 20, EVQ_PRIO_DEFAULT);
	assert_true(eventq_step(r.q));
	assert_int_equal(r.n, 1);
	assert_int_equal(r.log[0], 1);
	assert_int_equal(eventq_now(r.q), 10);
	assert_int_equal(eventq_pending(r.q), 2);
	assert_true(eventq_step(r.q));
	assert_int_equal(eventq_now(r.q), 20);
	assert_true(eventq_step(r.q));
	assert_int_equal(eventq_now(r.q), 30);
	assert_false(eventq_step(r.q));
	assert_int_equal(eventq_now(r.q), 30);
	assert_int_equal(eventq_fired(r.q), 3);
	eventq_destroy(r.q);
}

/* ------------------------------------------------------------------------------------------------
 * Ids and cancel
 */

static void test_cancel(void **state)
{
	struct rec r = { .q = eventq_create() };
	struct ev e[4] = { { 0 } };
	static const int want[] = { 0, 3 };
	uint64_t id1, id2;

	(void)state;
	sched(&e[0], &r, 0, 10, EVQ_PRIO_DEFAULT);
	id1 = sched(&e[1], &r, 1, 20, EVQ_PRIO_DEFAULT);
	id2 = sched(&e[2], &r, 2, 20, EVQ_PRIO_DEFAULT);
	sched(&e[3], &r, 3, 30, EVQ_PRIO_DEFAULT);
	assert_true(id1 >= 1 && id2 >= 1 && id1 != id2);
	assert_true(eventq_is_pending(r.q, id1));
	assert_true(eventq_cancel(r.q, id1));
	assert_false(eventq_is_pending(r.q, id1));
	assert_false(eventq_cancel(r.q, id1)); /* already cancelled */
	assert_true(eventq_is_pending(r.q, id2));
	assert_int_equal(eventq_pending(r.q), 3);
	assert_true(eventq_cancel(r.q, id2));
	assert_int_equal(eventq_pending(r.q), 2);
	eventq_check(r.q);
	assert_int_equal(eventq_run_until(r.q, 25), 1);
	/* Both events at 20 were cancelled: now stays at the last fired event. */
	assert_int_equal(eventq_now(r.q), 10);
	assert_int_equal(eventq_run_until(r.q, TICK_NEVER), 1);
	expect_log(&r, want, 2);
	assert_false(eventq_cancel(r.q, e[0].id)); /* already fired */
	assert_false(eventq_is_pending(r.q, e[3].id));
	assert_int_equal(eventq_fired(r.q), 2);
	eventq_check(r.q);
	eventq_destroy(r.q);
}

/* A fired or cancelled event's slot is reused; its old id must stay dead and must not reach the
 * new event. Ids are never issued twice. */
static void test_stale_ids(void **state)
{
	struct eventq *q = eventq_create();
	enum { N = 2000 };
	uint64_t *ids = calloc(N, sizeof *ids);
	uint64_t old, fresh;
	int i, j;

	(void)state;
	old = eventq_schedule(q, 5, EVQ_PRIO_DEFAULT, noop, NULL);
	assert_true(eventq_step(q));
	fresh = eventq_schedule(q, 6, EVQ_PRIO_DEFAULT, noop, NULL);
	assert_true(fresh != old);
	assert_false(eventq_is_pending(q, old));
	assert_false(eventq_cancel(q, old));
	assert_true(eventq_is_pending(q, fresh));
	assert_int_equal(eventq_pending(q), 1);
	assert_true(eventq_cancel(q, fresh));
	old = fresh;
	fresh = eventq_schedule(q, 7, EVQ_PRIO_DEFAULT, noop, NULL);
	/* The cancelled node still sits in the heap, so this one gets another slot; either way: */
	assert_true(fresh != old);
	assert_false(eventq_cancel(q, old));
	assert_true(eventq_is_pending(q, fresh));
	assert_int_equal(eventq_run_until(q, TICK_NEVER), 1);

	for (i = 0; i < N; i++) {
		ids[i] = eventq_schedule(q, eventq_now(q) + (uint64_t)(i % 3), i % 7, noop, NULL);
		if (i % 5 == 0)
			assert_true(eventq_cancel(q, ids[i]));
		if (i % 2 == 1)
			assert_true(eventq_step(q));
	}
	eventq_run_until(q, TICK_NEVER);
	for (i = 0; i < N; i++) {
		assert_true(ids[i] >= 1);
		assert_false(eventq_is_pending(q, ids[i]));
		for (j = 0; j < i; j++)
			assert_true(ids[i] != ids[j]);
	}
	eventq_check(q);
	free(ids);
	eventq_destroy(q);
}

/* Many cancelled far-future events: the heap compacts, and the rest still fires in order. */
static void test_cancel_many(void **state)
{
	struct eventq *q = eventq_create();
	enum { N = 1000 };
	uint64_t ids[N];
	struct rec r = { .q = q };
	struct ev e[10] = { { 0 } };
	int i, k = 0;
	static const int want[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };

	(void)state;
	for (i = 0; i < N; i++) {
		if (i % 100 == 50)
			ids[i] = sched(&e[k], &r, k, 1000 + (tick_t)i, EVQ_PRIO_DEFAULT), k++;
		else
			ids[i] = eventq_schedule(q, 1000 + (tick_t)i, EVQ_PRIO_DEFAULT, noop, NULL);
	}
	for (i = 0; i < N; i++) {
		if (i % 100 != 50)
			assert_true(eventq_cancel(q, ids[i]));
		if (i % 97 == 0)
			eventq_check(q);
	}
	assert_int_equal(eventq_pending(q), 10);
	eventq_check(q);
	for (i = 0; i < N; i++)
		assert_int_equal(eventq_is_pending(q, ids[i]), i % 100 == 50);
	assert_int_equal(eventq_next_tick(q), 1050);
	assert_int_equal(eventq_run_until(q, TICK_NEVER), 10);
	expect_log(&r, want, 10);
	assert_int_equal(r.at[9], 1950);
	eventq_check(q);
	eventq_destroy(q);
}

static void test_next_tick_skips_cancelled(void **state)
{
	struct eventq *q = eventq_create();
	uint64_t a, b, c;

	(void)state;
	a = eventq_schedule(q, 10, EVQ_PRIO_DEFAULT, noop, NULL);
	b = eventq_schedule(q, 20, EVQ_PRIO_DEFAULT, noop, NULL);
	c = eventq_schedule(q, 30, EVQ_PRIO_DEFAULT, noop, NULL);
	assert_int_equal(eventq_next_tick(q), 10);
	assert_true(eventq_cancel(q, a));
	assert_int_equal(eventq_next_tick(q), 20);
	assert_true(eventq_cancel(q, c));
	assert_int_equal(eventq_next_tick(q), 20);
	assert_true(eventq_cancel(q, b));
	assert_true(eventq_next_tick(q) == TICK_NEVER);
	assert_int_equal(eventq_pending(q), 0);
	assert_false(eventq_step(q));
	assert_int_equal(eventq_now(q), 0);
	assert_int_equal(eventq_fired(q), 0);
	eventq_check(q);
	eventq_destroy(q);
}

/* ------------------------------------------------------------------------------------------------
 * Handlers that schedule and cancel
 */

struct spawn_ctx {
	struct ev x, y, z;
	struct ev *victim;
};

static void spawn(struct ev *e, tick_t now)
{
	struct spawn_ctx *s = (struct spawn_ctx *)e->arg;

	/* Same tick, a priority that orders before everything still pending at 100. */
	sched(&s->x, e->r, 10, now, EVQ_PRIO_WAKE);
	/* Same tick and priority as the pending event 1: after it (later sequence). */
	sched(&s->y, e->r, 11, now, EVQ_PRIO_DEFAULT);
	sched(&s->z, e->r, 12, now + 50, EVQ_PRIO_DEFAULT);
	/* Cancelling the running event's own id: it already fired. */
	assert_false(eventq_cancel(e->r->q, e->id));
	assert_false(eventq_is_pending(e->r->q, e->id));
	/* Cancelling a later event at the same tick from inside a handler. */
	assert_true(eventq_cancel(e->r->q, s->victim->id));
	assert_int_equal(eventq_pending(e->r->q), 5);
}

static void test_schedule_in_handler(void **state)
{
	struct rec r = { .q = eventq_create() };
	struct ev e[4] = { { 0 } };
	struct spawn_ctx s = { .victim = NULL };
	static const int want[] = { 0, 10, 1, 11, 3, 12 };

	(void)state;
	e[0].then = spawn;
	e[0].arg = (uint64_t)(uintptr_t)&s;
	sched(&e[0], &r, 0, 100, EVQ_PRIO_DEFAULT);
	sched(&e[1], &r, 1, 100, EVQ_PRIO_DEFAULT);
	sched(&e[2], &r, 2, 100, EVQ_PRIO_CLOCK);
	sched(&e[3], &r, 3, 100, EVQ_PRIO_EXIT);
	s.victim = &e[2];
	/* All of tick 100, including what the first handler adds at 100, fires in run_until(100) */
	assert_int_equal(eventq_run_until(r.q, 100), 5);
	assert_int_equal(eventq_now(r.q), 100);
	assert_int_equal(eventq_pending(r.q), 1);
	assert_int_equal(eventq_run_until(r.q, 149), 0);
	assert_int_equal(eventq_now(r.q), 100);
	assert_int_equal(eventq_run_until(r.q, 150), 1);
	expect_log(&r, want, 6);
	assert_int_equal(r.at[5], 150);
	eventq_check(r.q);
	eventq_destroy(r.q);
}

/* A handler that reschedules itself at the same tick a few times (a zero-delay loop). */
static void again(struct ev *e, tick_t now)
{
	if (e->arg-- > 0)
		sched(e, e->r, e->tag + 1, now, EVQ_PRIO_DEFAULT);
}

static void test_same_tick_chain(void **state)
{
	struct rec r = { .q = eventq_create() };
	struct ev e = { .then = again, .arg = 3 };
	struct ev late = { 0 };
	/* The copies run at EVQ_PRIO_DEFAULT, after the older event 9 at that priority. */
	static const int want[] = { 0, 9, 1, 2, 3 };

	(void)state;
	sched(&late, &r, 9, 7, EVQ_PRIO_DEFAULT);
	sched(&e, &r, 0, 7, EVQ_PRIO_WAKE);
	assert_int_equal(eventq_run_until(r.q, 7), 5);
	expect_log(&r, want, 5);
	eventq_destroy(r.q);
}

/* ------------------------------------------------------------------------------------------------
 * run_until and stop
 */

static void test_run_until_boundaries(void **state)
{
	struct rec r = { .q = eventq_create() };
	struct ev e[3] = { { 0 } };

	(void)state;
	sched(&e[0], &r, 0, 100, EVQ_PRIO_DEFAULT);
	sched(&e[1], &r, 1, 200, EVQ_PRIO_DEFAULT);
	sched(&e[2], &r, 2, 201, EVQ_PRIO_DEFAULT);
	assert_int_equal(eventq_run_until(r.q, 99), 0);
	assert_int_equal(eventq_now(r.q), 0); /* idle time is not simulated */
	assert_int_equal(eventq_run_until(r.q, 200), 2); /* exactly at the limit fires */
	assert_int_equal(eventq_now(r.q), 200);
	assert_int_equal(r.n, 2);
	assert_int_equal(eventq_run_until(r.q, 200), 0); /* limit + 1 does not */
	assert_int_equal(eventq_pending(r.q), 1);
	assert_int_equal(eventq_run_until(r.q, 50), 0); /* a limit in the past does nothing */
	assert_int_equal(eventq_now(r.q), 200);
	assert_int_equal(eventq_run_until(r.q, 100000), 1);
	assert_int_equal(eventq_now(r.q), 201); /* not 100000 */
	assert_int_equal(eventq_fired(r.q), 3);
	eventq_destroy(r.q);
}

static void do_stop(struct ev *e, tick_t now)
{
	(void)now;
	eventq_stop(e->r->q);
}

static void test_stop(void **state)
{
	struct rec r = { .q = eventq_create() };
	struct ev e[4] = { { 0 } };
	static const int want[] = { 0, 1, 2, 3 };

	(void)state;
	e[1].then = do_stop;
	sched(&e[0], &r, 0, 100, EVQ_PRIO_DEFAULT);
	sched(&e[1], &r, 1, 100, EVQ_PRIO_DEFAULT);
	sched(&e[2], &r, 2, 100, EVQ_PRIO_DEFAULT);
	sched(&e[3], &r, 3, 300, EVQ_PRIO_DEFAULT);
	assert_int_equal(eventq_run_until(r.q, 1000), 2);
	assert_int_equal(eventq_now(r.q), 100);
	assert_int_equal(eventq_pending(r.q), 2);
	/* The stop does not stick: the next run goes on to the limit. */
	assert_int_equal(eventq_run_until(r.q, 1000), 2);
	expect_log(&r, want, 4);
	assert_int_equal(eventq_now(r.q), 300);

	/* A stop requested outside run_until (here: a handler run by eventq_step) is forgotten. */
	e[1].then = do_stop;
	sched(&e[1], &r, 1, 400, EVQ_PRIO_DEFAULT);
	e[2].then = NULL;
	sched(&e[2], &r, 2, 500, EVQ_PRIO_DEFAULT);
	sched(&e[3], &r, 3, 600, EVQ_PRIO_DEFAULT);
	assert_true(eventq_step(r.q));
	assert_int_equal(eventq_run_until(r.q, 1000), 2);
	eventq_destroy(r.q);
}

/* ------------------------------------------------------------------------------------------------
 * Contract violations
 */

static void test_contract(void **state)
{
	struct eventq *q = eventq_create();

	(void)state;
	eventq_schedule(q, 10, EVQ_PRIO_DEFAULT, noop, NULL);
	assert_true(eventq_step(q));
	assert_int_equal(eventq_now(q), 10);
	expect_assert_failure(eventq_schedule(q, 9, EVQ_PRIO_DEFAULT, noop, NULL));
	expect_assert_failure(eventq_schedule(q, 0, EVQ_PRIO_DEFAULT, noop, NULL));
	expect_assert_failure(eventq_schedule(q, 20, EVQ_PRIO_DEFAULT, NULL, NULL));
	expect_assert_failure(eventq_schedule(q, 20, -1, noop, NULL));
	expect_assert_failure(eventq_schedule(q, 20, EVQ_PRIO_MAX + 1, noop, NULL));
	/* Nothing was scheduled by the refused calls; the boundaries are accepted. */
	assert_int_equal(eventq_pending(q), 0);
	eventq_schedule(q, 10, 0, noop, NULL);
	eventq_schedule(q, 10, EVQ_PRIO_MAX, noop, NULL);
	assert_int_equal(eventq_pending(q), 2);
	/* Edges: only of a domain the queue made, not before now, with a handler. */
	expect_assert_failure(eventq_edge_set(q, EVQ_PRIO_CLOCK, 20, noop, NULL));
	assert_int_equal(eventq_add_domain(q), EVQ_PRIO_CLOCK);
	expect_assert_failure(eventq_edge_set(q, EVQ_PRIO_CLOCK + 1, 20, noop, NULL));
	expect_assert_failure(eventq_edge_set(q, EVQ_PRIO_CLOCK, 9, noop, NULL));
	expect_assert_failure(eventq_edge_set(q, EVQ_PRIO_CLOCK, 20, NULL, NULL));
	assert_false(eventq_edge_pending(q, EVQ_PRIO_CLOCK));
	assert_int_equal(eventq_pending(q), 2);
	/* Set twice: the second replaces the first (one pending, at the second's tick). */
	eventq_edge_set(q, EVQ_PRIO_CLOCK, 30, noop, NULL);
	eventq_edge_set(q, EVQ_PRIO_CLOCK, 10, noop, NULL);
	assert_int_equal(eventq_pending(q), 3);
	assert_true(eventq_edge_tick(q, EVQ_PRIO_CLOCK) == 10);
	eventq_check(q);
	/* At tick 10 it fires between the priority-0 event and the EVQ_PRIO_MAX one. */
	assert_true(eventq_step(q));
	assert_true(eventq_edge_pending(q, EVQ_PRIO_CLOCK));
	assert_true(eventq_step(q));
	assert_false(eventq_edge_pending(q, EVQ_PRIO_CLOCK));
	assert_true(eventq_edge_tick(q, EVQ_PRIO_CLOCK) == TICK_NEVER);
	assert_int_equal(eventq_pending(q), 1);
	assert_false(eventq_edge_cancel(q, EVQ_PRIO_CLOCK));
	eventq_check(q);
	eventq_destroy(q);
}

static void test_unit_name(void **state)
{
	struct eventq *q = eventq_create();
	static const char name[] = "sm3.l1d";

	(void)state;
	assert_null(eventq_unit(q));
	eventq_set_unit(q, name);
	assert_ptr_equal(eventq_unit(q), name);
	eventq_set_unit(q, NULL);
	assert_null(eventq_unit(q));
	eventq_destroy(q);
}

/* A panic names the tick and the unit (the printer eventq_create attaches). Runs in a child,
 * since a panic aborts. */
static void panic_here(void *ctx, tick_t now)
{
	(void)now;
	eventq_set_unit(ctx, "mc7");
	sim_panic("boom");
}

static void test_panic_context(void **state)
{
	int fds[2], status;
	char buf[512];
	ssize_t n, got = 0;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct eventq *q = eventq_create();

		dup2(fds[1], 2);
		close(fds[0]);
		eventq_schedule(q, 1234, EVQ_PRIO_DEFAULT, panic_here, q);
		eventq_run_until(q, TICK_NEVER);
		_exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
		got += n;
	close(fds[0]);
	buf[got] = '\0';
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	assert_non_null(strstr(buf, "(tick 1234, unit mc7): boom"));
}

/* ------------------------------------------------------------------------------------------------
 * Randomized: ~10^4 events with cancels, some scheduled and cancelled from handlers, against a
 * reference that sorts the survivors by (tick, prio, seq).
 */

#define RND_N 12000

struct rnd;

struct rnd_ev {
	struct rnd *owner;
	tick_t tick;
	int prio;
	uint64_t seq;
	uint64_t id;
	bool cancelled;
	bool fired;
};

struct rnd {
	struct eventq *q;
	struct rnd_ev ev[RND_N];
	int n;
	int order[RND_N]; /* indices in firing order */
	int n_fired;
	uint64_t seq;
	uint64_t x; /* xorshift64 state */
};

static uint64_t rnd_next(struct rnd *t)
{
	t->x ^= t->x << 13;
	t->x ^= t->x >> 7;
	t->x ^= t->x << 17;
	return t->x;
}

static const int rnd_prios[] = { EVQ_PRIO_WAKE, EVQ_PRIO_DEFAULT, EVQ_PRIO_CLOCK, EVQ_PRIO_STATS };

static void rnd_fire(void *ctx, tick_t now);

static void rnd_add(struct rnd *t, tick_t tick, int prio)
{
	struct rnd_ev *e = &t->ev[t->n];

	e->tick = tick;
	e->prio = prio;
	e->seq = t->seq++;
	e->owner = t;
	e->id = eventq_schedule(t->q, tick, prio, rnd_fire, e);
	t->n++;
}

/* Cancels a random event that has neither fired nor been cancelled, if it finds one quickly. */
static void rnd_cancel_one(struct rnd *t)
{
	int k;

	for (k = 0; k < 8; k++) {
		struct rnd_ev *e = &t->ev[rnd_next(t) % (uint64_t)t->n];

		if (!e->fired && !e->cancelled) {
			assert_true(eventq_is_pending(t->q, e->id));
			assert_true(eventq_cancel(t->q, e->id));
			e->cancelled = true;
			return;
		}
	}
}

static void rnd_fire(void *ctx, tick_t now)
{
	struct rnd_ev *e = ctx;
	struct rnd *t = e->owner;

	assert_false(e->fired || e->cancelled);
	assert_int_equal(now, e->tick);
	assert_false(eventq_is_pending(t->q, e->id));
	e->fired = true;
	t->order[t->n_fired++] = (int)(e - t->ev);
	/* Children order after the running event, so the firing order stays the sorted order. */
	if (t->n < RND_N && rnd_next(t) % 4 == 0) {
		tick_t d = rnd_next(t) % 3 == 0 ? 0 : rnd_next(t) % 200;
		int p = rnd_prios[rnd_next(t) % 4];

		if (d == 0 && p < e->prio)
			p = e->prio;
		rnd_add(t, now + d, p);
	}
	if (rnd_next(t) % 20 == 0)
		rnd_cancel_one(t);
	if (t->n_fired % 1000 == 0)
		eventq_check(t->q);
}

static int rnd_cmp(const void *a, const void *b, void *arg)
{
	const struct rnd *t = arg;
	const struct rnd_ev *x = &t->ev[*(const int *)a];
	const struct rnd_ev *y = &t->ev[*(const int *)b];

	if (x->tick != y->tick)
		return x->tick < y->tick ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void test_randomized(void **state)
{
	struct rnd *t = calloc(1, sizeof *t);
	int *want, n_want = 0, i;

	(void)state;
	t->q = eventq_create();
	t->x = 0x9e3779b97f4a7c15ull;
	for (i = 0; i < 8000; i++) {
		rnd_add(t, rnd_next(t) % 5000, rnd_prios[rnd_next(t) % 4]);
		if (rnd_next(t) % 25 == 0)
			rnd_cancel_one(t);
	}
	eventq_check(t->q);
	while (eventq_step(t->q))
		;
	eventq_check(t->q);

	want = calloc(RND_N, sizeof *want);
	for (i = 0; i < t->n; i++)
		if (!t->ev[i].cancelled)
			want[n_want++] = i;
	qsort_r(want, (size_t)n_want, sizeof *want, rnd_cmp, t);
	assert_true(t->n > 9000);
	assert_true(n_want < t->n - 200); /* the cancels did happen */
	assert_int_equal(t->n_fired, n_want);
	assert_int_equal(eventq_fired(t->q), (uint64_t)n_want);
	for (i = 0; i < n_want; i++)
		assert_int_equal(t->order[i], want[i]);
	for (i = 0; i < t->n; i++)
		assert_false(eventq_is_pending(t->q, t->ev[i].id));
	assert_int_equal(eventq_pending(t->q), 0);
	free(want);
	eventq_destroy(t->q);
	free(t);
}

/* ------------------------------------------------------------------------------------------------
 * Levels: the queue keeps near events, farther ones and the farthest in different structures (see
 * eventq.c). These tests do not know where the boundaries are; they schedule at many distances,
 * around powers of two and around aligned ticks, so that events cross every boundary.
 */

/* The trigger of test_far_and_direct_same_key: schedules at the tick of the far events. */
struct same_key_ctx {
	struct ev c, d, e, g;
	tick_t at;
};

static void same_key_trigger(struct ev *e, tick_t now)
{
	struct same_key_ctx *k = (struct same_key_ctx *)e->arg;

	(void)now;
	sched(&k->c, e->r, 3, k->at, EVQ_PRIO_DEFAULT);
	sched(&k->d, e->r, 4, k->at, EVQ_PRIO_WAKE);
	sched(&k->e, e->r, 5, k->at, EVQ_PRIO_CLOCK);
	sched(&k->g, e->r, 6, k->at, 12);
	eventq_check(e->r->q);
}

/*
 * Events scheduled long before their tick (far) and events scheduled at the same tick and
 * priority shortly before it (near) fire in (priority, sequence) order: the far ones first, as
 * they were scheduled first. For gaps around every power of two and start ticks of several
 * alignments.
 */
static void test_far_and_direct_same_key(void **state)
{
	static const tick_t offs[] = { 0, 1, 1023, 4095, 4096, 4097, 12345, 65535 };
	/* trigger, B (WAKE), D (WAKE), G (12), F (15), A (DEFAULT), C (DEFAULT), E (CLOCK) */
	static const int want[] = { 0, 2, 4, 6, 7, 1, 3, 5 };
	size_t o;
	int k;

	(void)state;
	for (o = 0; o < sizeof offs / sizeof offs[0]; o++) {
		for (k = 0; k <= 25; k++) {
			int j;

			for (j = -1; j <= 1; j++) {
				struct rec r = { .q = NULL };
				struct ev a = { 0 }, b = { 0 }, f = { 0 }, trig = { 0 };
				struct same_key_ctx ctx = { .at = 0 };
				tick_t base = (UINT64_C(1) << 30) + offs[o];
				tick_t gap = (UINT64_C(1) << k) + (tick_t)j;

				if (gap == 0)
					continue; /* the trigger must come first */
				r.q = eventq_create();
				ctx.at = base + gap;
				sched(&a, &r, 1, ctx.at, EVQ_PRIO_DEFAULT);
				sched(&b, &r, 2, ctx.at, EVQ_PRIO_WAKE);
				sched(&f, &r, 7, ctx.at, 15);
				trig.then = same_key_trigger;
				trig.arg = (uint64_t)(uintptr_t)&ctx;
				sched(&trig, &r, 0, base, EVQ_PRIO_DEFAULT);
				eventq_check(r.q);
				assert_int_equal(eventq_next_tick(r.q), base);
				assert_int_equal(eventq_run_until(r.q, base), 1);
				assert_int_equal(eventq_now(r.q), base);
				assert_int_equal(eventq_pending(r.q), 7);
				assert_int_equal(eventq_next_tick(r.q), ctx.at);
				eventq_check(r.q);
				assert_int_equal(eventq_run_until(r.q, ctx.at - 1), 0);
				assert_int_equal(eventq_run_until(r.q, ctx.at), 7);
				expect_log(&r, want, 8);
				assert_int_equal(eventq_now(r.q), ctx.at);
				eventq_check(r.q);
				eventq_destroy(r.q);
			}
		}
	}
}

/* A logger for many events: the order of tags. */
struct tag_log {
	int *tags;
	int n;
};

struct tagged {
	struct tag_log *log;
	int tag;
};

static void tagged_fire(void *ctx, tick_t now)
{
	struct tagged *t = ctx;

	(void)now;
	t->log->tags[t->log->n++] = t->tag;
}

/* Far events that moved closer as time advanced, then were cancelled: gone, and the rest fires
 * in order. */
static void test_cancel_moved(void **state)
{
	enum { N = 300 };
	struct eventq *q = eventq_create();
	struct tag_log log = { .tags = calloc(N, sizeof(int)) };
	struct tagged ev[N];
	uint64_t ids[N];
	tick_t start = UINT64_C(1) << 21;
	int i, n_live = N, n_want = 0;

	(void)state;
	for (i = 0; i < N; i++) {
		ev[i].log = &log;
		ev[i].tag = i;
		/* 3.3 ns apart: across the near, middle and far ranges once time is at start. */
		ids[i] = eventq_schedule(q, start + (tick_t)i * 3331, i % 2 ? EVQ_PRIO_CLOCK : 0,
					 tagged_fire, &ev[i]);
	}
	/* Time moves to just before the first of them. */
	eventq_schedule(q, start - 1, EVQ_PRIO_DEFAULT, noop, NULL);
	assert_int_equal(eventq_run_until(q, start - 1), 1);
	eventq_check(q);
	for (i = 0; i < N; i += 3) {
		assert_true(eventq_cancel(q, ids[i]));
		n_live--;
		if (i % 9 == 0)
			eventq_check(q);
	}
	assert_int_equal(eventq_pending(q), n_live);
	for (i = 0; i < N; i++)
		assert_int_equal(eventq_is_pending(q, ids[i]), i % 3 != 0);
	assert_int_equal(eventq_next_tick(q), start + 3331);
	eventq_check(q);
	assert_int_equal(eventq_run_until(q, TICK_NEVER), n_live);
	assert_int_equal(log.n, n_live);
	for (i = 0; i < N; i++)
		if (i % 3 != 0)
			assert_int_equal(log.tags[n_want++], i);
	assert_int_equal(eventq_now(q), start + (N - 1) * 3331);
	eventq_check(q);
	free(log.tags);
	eventq_destroy(q);
}

/* "Cancel and re-arm" at every distance, many times over without time moving: dead entries on
 * every level are compacted away, and the live ones still fire in order. */
static void test_cancel_rearm_levels(void **state)
{
	static const tick_t dist[] = { 0, 7, 4096, 20000, UINT64_C(1) << 19, UINT64_C(1) << 21,
				       UINT64_C(1) << 30 };
	enum { N_DIST = sizeof dist / sizeof dist[0] };
	struct eventq *q = eventq_create();
	struct tag_log log = { .tags = calloc(4 * N_DIST, sizeof(int)) };
	struct tagged ev[4 * N_DIST];
	uint64_t keep[N_DIST] = { 0 };
	int i, k, n = 0;

	(void)state;
	eventq_schedule(q, 1000, EVQ_PRIO_DEFAULT, noop, NULL);
	assert_true(eventq_step(q));
	for (i = 0; i < 20000; i++) {
		k = i % N_DIST;
		if (keep[k] != 0)
			assert_true(eventq_cancel(q, keep[k]));
		keep[k] = eventq_schedule(q, 1000 + dist[k] + (tick_t)(i % 5), EVQ_PRIO_CLOCK, noop,
					  NULL);
		if (i % 997 == 0)
			eventq_check(q);
	}
	assert_int_equal(eventq_pending(q), N_DIST);
	eventq_check(q);
	/* Live events on every level, among many cancelled ones; tags in firing order. */
	for (k = 0; k < N_DIST; k++) {
		assert_true(eventq_cancel(q, keep[k]));
		for (i = 0; i < 4; i++) {
			uint64_t id;

			ev[n].log = &log;
			ev[n].tag = n;
			id = eventq_schedule(q, 1000 + dist[k] + (tick_t)i, EVQ_PRIO_DEFAULT,
					     tagged_fire, &ev[n]);
			n++;
			assert_true(eventq_cancel(q, eventq_schedule(q, 1000 + dist[k] + (tick_t)i,
								      EVQ_PRIO_WAKE, noop, NULL)));
			assert_true(eventq_is_pending(q, id));
		}
	}
	eventq_check(q);
	assert_int_equal(eventq_run_until(q, TICK_NEVER), n);
	for (i = 0; i < n; i++)
		assert_int_equal(log.tags[i], i);
	eventq_check(q);
	free(log.tags);
	eventq_destroy(q);
}

static void jump_then(struct ev *e, tick_t now)
{
	struct ev *kids = (struct ev *)e->arg;

	/* After a jump: near, middle and far again, scheduled in reverse. */
	sched(&kids[2], e->r, 12, now + (UINT64_C(1) << 31), EVQ_PRIO_DEFAULT);
	sched(&kids[1], e->r, 11, now + (UINT64_C(1) << 20), EVQ_PRIO_DEFAULT);
	sched(&kids[0], e->r, 10, now + 5, EVQ_PRIO_DEFAULT);
	eventq_check(e->r->q);
}

/* Jumps of time far larger than any wheel, up to the end of time. */
static void test_time_jumps(void **state)
{
	struct rec r = { .q = eventq_create() };
	struct ev e[7] = { { 0 } }, kids[3] = { { 0 } };
	tick_t big = UINT64_C(1) << 40;
	static const int want[] = { 0, 2, 1, 3, 10, 11, 12, 4, 5, 6 };

	(void)state;
	sched(&e[0], &r, 0, 1, EVQ_PRIO_DEFAULT);
	sched(&e[1], &r, 1, big, EVQ_PRIO_CLOCK);
	sched(&e[2], &r, 2, big, EVQ_PRIO_WAKE);
	e[3].then = jump_then;
	e[3].arg = (uint64_t)(uintptr_t)kids;
	sched(&e[3], &r, 3, big + 1, EVQ_PRIO_DEFAULT);
	sched(&e[4], &r, 4, UINT64_C(1) << 62, EVQ_PRIO_DEFAULT);
	sched(&e[5], &r, 5, TICK_NEVER - 2, EVQ_PRIO_DEFAULT);
	sched(&e[6], &r, 6, TICK_NEVER - 1, EVQ_PRIO_DEFAULT);
	eventq_check(r.q);
	assert_int_equal(eventq_run_until(r.q, big - 1), 1);
	assert_int_equal(eventq_now(r.q), 1);
	assert_true(eventq_next_tick(r.q) == big);
	assert_true(eventq_step(r.q));
	assert_true(eventq_now(r.q) == big);
	eventq_check(r.q);
	assert_int_equal(eventq_run_until(r.q, big + 1), 2);
	assert_true(eventq_next_tick(r.q) == big + 6);
	assert_int_equal(eventq_run_until(r.q, (UINT64_C(1) << 62) - 1), 3);
	assert_true(eventq_now(r.q) == big + 1 + (UINT64_C(1) << 31));
	eventq_check(r.q);
	assert_true(eventq_next_tick(r.q) == UINT64_C(1) << 62);
	assert_int_equal(eventq_run_until(r.q, TICK_NEVER - 2), 2);
	assert_true(eventq_now(r.q) == TICK_NEVER - 2);
	eventq_check(r.q);
	/* Right at the end of time: scheduling at the last ticks still works. */
	eventq_schedule(r.q, TICK_NEVER - 2, EVQ_PRIO_MAX, noop, NULL);
	assert_int_equal(eventq_run_until(r.q, TICK_NEVER), 2);
	assert_true(eventq_now(r.q) == TICK_NEVER - 1);
	expect_log(&r, want, 10);
	assert_int_equal(eventq_pending(r.q), 0);
	eventq_check(r.q);
	/* An event at TICK_NEVER itself is an event like any other, from far and from near. */
	sched(&e[0], &r, 20, TICK_NEVER, EVQ_PRIO_DEFAULT);
	assert_int_equal(eventq_run_until(r.q, TICK_NEVER - 1), 0);
	assert_true(eventq_step(r.q));
	assert_true(eventq_now(r.q) == TICK_NEVER);
	sched(&e[1], &r, 21, TICK_NEVER, EVQ_PRIO_DEFAULT);
	eventq_check(r.q);
	assert_int_equal(eventq_run_until(r.q, TICK_NEVER), 1);
	assert_int_equal(r.log[11], 21);
	eventq_destroy(r.q);
	/* The same from a fresh queue: the jump from 0 goes straight to the end of time. */
	r.q = eventq_create();
	r.n = 0;
	sched(&e[0], &r, 22, TICK_NEVER, EVQ_PRIO_DEFAULT);
	assert_true(eventq_next_tick(r.q) == TICK_NEVER);
	assert_int_equal(eventq_pending(r.q), 1);
	assert_int_equal(eventq_run_until(r.q, TICK_NEVER), 1);
	assert_true(eventq_now(r.q) == TICK_NEVER);
	eventq_check(r.q);
	eventq_destroy(r.q);
}

/*
 * Randomized, checked online: every event that fires must be the smallest (tick, prio, seq) of
 * the reference's pending set at that moment. Events are scheduled from outside and from
 * handlers (including at the current tick with a priority that orders before the running one's),
 * at distances drawn to cross every level boundary: a few ticks, powers of two +-2, multiples of
 * 4096 +-1, up to 4 us, and jumps of 2^28..2^34; half of the ticks are rounded up to a multiple
 * of 1024, so that far and near events meet at one tick and priority. The driver alternates
 * steps and run_until with limits at every distance, cancels from both sides, and checks
 * next_tick, pending, is_pending, run_until's count and now.
 */

#define LV_MAX 40000
#define LV_MAX_PENDING 600

struct lv;

struct lv_ev {
	struct lv *owner;
	tick_t tick;
	int prio;
	uint64_t seq;
	uint64_t id;
	int pos; /* index in pend[] while pending, else -1 */
	int dom; /* a clock domain's edge (eventq_edge_set): its domain; a plain event: -1 */
	bool fired;
};

/* Domains whose edges test_randomized_edges mixes in (their priorities are EVQ_PRIO_CLOCK + d:
 * the first two are also among lv_prios, so edges and plain events meet at one key but for the
 * sequence number). */
#define LV_DOMAINS 3

struct lv {
	struct eventq *q;
	struct lv_ev *ev;
	int n;
	int *pend; /* indices of pending events, unordered */
	int n_pend;
	uint64_t seq;
	uint64_t n_fired;
	uint64_t x;
	bool edges;                /* a third of the events added are domains' edges */
	int edge_ev[LV_DOMAINS];   /* the pending edge of each domain (index in ev[]), or -1 */
};

static const int lv_prios[] = { 0, 5, EVQ_PRIO_WAKE, 11, EVQ_PRIO_DEFAULT, 30, EVQ_PRIO_CLOCK,
				51, EVQ_PRIO_STATS, EVQ_PRIO_EXIT, EVQ_PRIO_MAX };

static uint64_t lv_rnd(struct lv *t)
{
	t->x ^= t->x << 13;
	t->x ^= t->x >> 7;
	t->x ^= t->x << 17;
	return t->x;
}

/* A tick at or after now, at a distance that crosses the levels' boundaries. */
static tick_t lv_when(struct lv *t, tick_t now)
{
	uint64_t r = lv_rnd(t), r2 = lv_rnd(t);
	tick_t d;

	switch (r % 10) {
	case 0:
	case 1:
	case 2:
		return now + r2 % 4;
	case 3: /* around a power of two */
		d = (UINT64_C(1) << (6 + r2 % 19)) + (r >> 8) % 5;
		return now + d - 2;
	case 4: /* around an aligned tick */
		d = (4096 - now % 4096) % 4096 + 4096 * (r2 % 300);
		return d > 0 ? now + d - (r >> 8) % 2 : now;
	case 5:
	case 6:
		d = r2 % (UINT64_C(1) << 21);
		break;
	case 7:
		d = (UINT64_C(1) << 20) + r2 % (UINT64_C(3) << 20);
		break;
	case 8: /* a jump */
		return now + (UINT64_C(1) << 28) + r2 % (UINT64_C(1) << 34);
	default:
		d = r2 % 100000;
		break;
	}
	if ((r >> 8) % 2)
		return ((now + d) | 1023) + 1; /* rounded up to a multiple of 1024 */
	return now + d;
}

static void lv_fire(void *ctx, tick_t now);
static void lv_unpend(struct lv *t, struct lv_ev *e);

static void lv_add(struct lv *t, tick_t tick, int prio)
{
	struct lv_ev *e = &t->ev[t->n];

	assert_true(t->n < LV_MAX);
	e->owner = t;
	e->tick = tick;
	e->prio = prio;
	e->seq = t->seq++;
	e->fired = false;
	e->dom = -1;
	if (t->edges && lv_rnd(t) % 3 == 0) {
		/* a domain's edge instead, replacing the one pending (its priority the domain's) */
		int d = (int)(lv_rnd(t) % LV_DOMAINS);

		if (t->edge_ev[d] >= 0)
			lv_unpend(t, &t->ev[t->edge_ev[d]]);
		e->dom = d;
		e->prio = EVQ_PRIO_CLOCK + d;
		e->id = 0;
		eventq_edge_set(t->q, e->prio, tick, lv_fire, e);
		t->edge_ev[d] = t->n;
	} else {
		e->id = eventq_schedule(t->q, tick, prio, lv_fire, e);
	}
	e->pos = t->n_pend;
	t->pend[t->n_pend++] = t->n;
	t->n++;
}

/* Whether the queue holds e pending: by its id, or as its domain's edge. */
static bool lv_pending(const struct lv *t, const struct lv_ev *e)
{
	if (e->dom < 0)
		return eventq_is_pending(t->q, e->id);
	return eventq_edge_pending(t->q, e->prio) && t->edge_ev[e->dom] == (int)(e - t->ev);
}

static void lv_unpend(struct lv *t, struct lv_ev *e)
{
	int last = t->pend[--t->n_pend];

	t->pend[e->pos] = last;
	t->ev[last].pos = e->pos;
	e->pos = -1;
	if (e->dom >= 0 && t->edge_ev[e->dom] == (int)(e - t->ev))
		t->edge_ev[e->dom] = -1;
}

static bool lv_before(const struct lv_ev *a, const struct lv_ev *b)
{
	if (a->tick != b->tick)
		return a->tick < b->tick;
	if (a->prio != b->prio)
		return a->prio < b->prio;
	return a->seq < b->seq;
}

/* The reference's earliest pending event, or NULL. */
static struct lv_ev *lv_min(struct lv *t)
{
	struct lv_ev *m = NULL;
	int i;

	for (i = 0; i < t->n_pend; i++) {
		struct lv_ev *e = &t->ev[t->pend[i]];

		if (m == NULL || lv_before(e, m))
			m = e;
	}
	return m;
}

static void lv_cancel_some(struct lv *t, int n)
{
	while (n-- > 0 && t->n_pend > 0) {
		struct lv_ev *e = &t->ev[t->pend[lv_rnd(t) % (uint64_t)t->n_pend]];

		assert_true(lv_pending(t, e));
		if (e->dom >= 0) {
			assert_true(eventq_edge_cancel(t->q, e->prio));
			assert_false(eventq_edge_cancel(t->q, e->prio));
		} else {
			assert_true(eventq_cancel(t->q, e->id));
			assert_false(eventq_cancel(t->q, e->id));
		}
		lv_unpend(t, e);
	}
}

static void lv_fire(void *ctx, tick_t now)
{
	struct lv_ev *e = ctx;
	struct lv *t = e->owner;
	int k;

	assert_int_equal(now, e->tick);
	assert_true(e->pos >= 0);
	assert_ptr_equal(lv_min(t), e);
	assert_int_equal(eventq_firing_prio(t->q), e->prio);
	lv_unpend(t, e);
	assert_false(lv_pending(t, e));
	e->fired = true;
	t->n_fired++;
	/* Children: some at this very tick, with any priority (one that orders before the running
	 * event's still fires after it: that one has fired). */
	for (k = (int)(lv_rnd(t) % 3); k > 0; k--) {
		tick_t when = lv_rnd(t) % 4 == 0 ? now : lv_when(t, now);

		if (t->n_pend < LV_MAX_PENDING && t->n < LV_MAX - 16)
			lv_add(t, when, lv_prios[lv_rnd(t) % 11]);
	}
	if (lv_rnd(t) % 8 == 0)
		lv_cancel_some(t, 1);
	if (t->n_fired % 512 == 0) {
		eventq_check(t->q);
		assert_int_equal(eventq_pending(t->q), (size_t)t->n_pend);
	}
}

static int lv_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void randomized_levels(bool edges)
{
	struct lv *t = calloc(1, sizeof *t);
	uint64_t *ids;
	int i, n_ids, round = 0;

	t->q = eventq_create();
	t->edges = edges;
	for (i = 0; i < LV_DOMAINS; i++) {
		assert_int_equal(eventq_add_domain(t->q), EVQ_PRIO_CLOCK + i);
		t->edge_ev[i] = -1;
	}
	t->ev = calloc(LV_MAX, sizeof *t->ev);
	t->pend = calloc(LV_MAX, sizeof *t->pend);
	t->x = 0x2545f4914f6cdd1dull;
	while (t->n < LV_MAX - 64) {
		tick_t now = eventq_now(t->q), limit;
		struct lv_ev *m;
		uint64_t before = t->n_fired, fired;
		int k;

		for (k = (int)(lv_rnd(t) % 6); k > 0 && t->n_pend < LV_MAX_PENDING; k--)
			lv_add(t, lv_when(t, now), lv_prios[lv_rnd(t) % 11]);
		lv_cancel_some(t, (int)(lv_rnd(t) % 3));
		m = lv_min(t);
		assert_true(eventq_next_tick(t->q) == (m != NULL ? m->tick : TICK_NEVER));
		assert_int_equal(eventq_pending(t->q), (size_t)t->n_pend);
		if (round++ % 64 == 0)
			eventq_check(t->q);
		if (lv_rnd(t) % 4 == 0) {
			assert_int_equal(eventq_step(t->q), m != NULL);
			assert_int_equal(t->n_fired - before, m != NULL);
			assert_true(eventq_now(t->q) == (m != NULL ? m->tick : now));
			continue;
		}
		limit = lv_rnd(t) % 2 ? lv_when(t, now) : now + lv_rnd(t) % 64;
		fired = eventq_run_until(t->q, limit);
		assert_int_equal(fired, t->n_fired - before);
		/* Nothing at or before the limit is left; now is the last fired tick. */
		m = lv_min(t);
		assert_true(m == NULL || m->tick > limit);
		if (fired == 0)
			assert_true(eventq_now(t->q) == now);
		else
			assert_true(eventq_now(t->q) <= limit && eventq_now(t->q) >= now);
		for (k = 0; k < 4; k++) {
			struct lv_ev *e = &t->ev[lv_rnd(t) % (uint64_t)t->n];

			assert_int_equal(lv_pending(t, e), e->pos >= 0);
		}
	}
	eventq_check(t->q);
	eventq_run_until(t->q, TICK_NEVER);
	assert_int_equal(t->n_pend, 0);
	assert_int_equal(eventq_pending(t->q), 0);
	assert_true(t->n_fired > LV_MAX / 2);
	assert_int_equal(eventq_fired(t->q), t->n_fired);
	eventq_check(t->q);
	/* Ids were never issued twice (edges have none). */
	ids = calloc((size_t)t->n, sizeof *ids);
	for (i = n_ids = 0; i < t->n; i++)
		if (t->ev[i].dom < 0)
			ids[n_ids++] = t->ev[i].id;
	assert_true(edges ? n_ids < t->n * 3 / 4 : n_ids == t->n);
	qsort(ids, (size_t)n_ids, sizeof *ids, lv_cmp_u64);
	for (i = 1; i < n_ids; i++)
		assert_true(ids[i] != ids[i - 1]);
	free(ids);
	eventq_destroy(t->q);
	free(t->pend);
	free(t->ev);
	free(t);
}

static void test_randomized_levels(void **state)
{
	(void)state;
	randomized_levels(false);
}

/* The same with a third of the events domains' edges, which the queue keeps out of its levels:
 * set (replacing the domain's pending one), cancelled and fired in the one order with the rest. */
static void test_randomized_edges(void **state)
{
	(void)state;
	randomized_levels(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_order_tick_then_prio),
		cmocka_unit_test(test_fifo_equal_keys),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_stale_ids),
		cmocka_unit_test(test_cancel_many),
		cmocka_unit_test(test_next_tick_skips_cancelled),
		cmocka_unit_test(test_schedule_in_handler),
		cmocka_unit_test(test_same_tick_chain),
		cmocka_unit_test(test_run_until_boundaries),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_contract),
		cmocka_unit_test(test_unit_name),
		cmocka_unit_test(test_panic_context),
		cmocka_unit_test(test_randomized),
		cmocka_unit_test(test_far_and_direct_same_key),
		cmocka_unit_test(test_cancel_moved),
		cmocka_unit_test(test_cancel_rearm_levels),
		cmocka_unit_test(test_time_jumps),
		cmocka_unit_test(test_randomized_levels),
		cmocka_unit_test(test_randomized_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
