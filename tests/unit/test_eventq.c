/*
 * test_eventq.c - the event core: order, cancel, handlers that schedule, run_until boundaries,
 * contract violations, and a randomized comparison against a sorted reference.
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
