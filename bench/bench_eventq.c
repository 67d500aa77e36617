/*
 * bench_eventq.c - event-queue throughput on two mixes, one line each.
 *
 * Both mixes: 10^4 actors each keep one event pending; every handler reschedules its actor at
 * now + a delay drawn from the mix, and 3% of handlers also cancel another actor's pending event
 * and reschedule it (a moved timed wake), so dead entries flow through the queue. A run stops
 * after 10^7 fired events.
 *
 *   realistic   what gmsim's units do. 60% of events are a clock edge one period out (uniformly
 *               one of 725, 725, 1000, 1140 ps: SM, crossbar, L2 and DRAM domains) at
 *               EVQ_PRIO_CLOCK; 10% a timed wake 2..50 periods out at EVQ_PRIO_WAKE; 20% an
 *               L1/L2-like completion 15..150 ns out and 10% a DRAM-like one 100..600 ns out, both
 *               at EVQ_PRIO_DEFAULT. About 1 event in 5 ps, spread over 600 ns.
 *   stress      the earlier mix, kept as a short-delay stress: 90% of delays are 1..10 ps, the
 *               rest 100..10000 ps, priorities drawn from four named ones. About 20 events share
 *               every tick, so it stresses same-tick ordering rather than the time spread.
 *
 * The random numbers come from a xorshift64 local to this file with a fixed seed, so every run
 * fires the same events and prints the same final tick. `bench_eventq realistic` or
 * `bench_eventq stress` runs one mix only (for profilers).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eventq.h"
#include "log.h"

#define N_ACTORS 10000
#define N_EVENTS 10000000ull
#define CANCEL_PCT 3
#define SEED 0x2545f4914f6cdd1dull

struct bench;

struct actor {
	struct bench *b;
	uint64_t id;
};

/* Draws a delay (ps) and a priority from r. */
typedef tick_t bench_draw_fn(uint64_t r, int *prio);

struct bench_mix {
	const char *name;
	const char *desc;
	bench_draw_fn *draw;
};

struct bench {
	struct eventq *q;
	bench_draw_fn *draw;
	struct actor actors[N_ACTORS];
	uint64_t x;
	uint64_t fired;
	uint64_t cancels;
};

/* SM, crossbar, L2 and DRAM clock periods (ps); the SM domain appears twice, so it is drawn
 * twice as often. */
static const tick_t periods[4] = { 725, 725, 1000, 1140 };

static tick_t draw_realistic(uint64_t r, int *prio)
{
	uint64_t pct = r % 100;
	uint64_t u = r >> 16;

	if (pct < 60) {
		*prio = EVQ_PRIO_CLOCK;
		return periods[(r >> 8) & 3];
	}
	if (pct < 70) {
		*prio = EVQ_PRIO_WAKE;
		return periods[(r >> 8) & 3] * (2 + u % 49);
	}
	*prio = EVQ_PRIO_DEFAULT;
	if (pct < 90)
		return 15 * PS_PER_NS + u % (135 * PS_PER_NS + 1);
	return 100 * PS_PER_NS + u % (500 * PS_PER_NS + 1);
}

static const int stress_prios[4] = { EVQ_PRIO_WAKE, EVQ_PRIO_DEFAULT, EVQ_PRIO_CLOCK,
				     EVQ_PRIO_STATS };

static tick_t draw_stress(uint64_t r, int *prio)
{
	*prio = stress_prios[(r >> 40) & 3];
	if (r % 100 < 90)
		return 1 + (r >> 8) % 10;
	return 100 + (r >> 8) % 9901;
}

static const struct bench_mix mixes[] = {
	{ "realistic",
	  "10^4 actors; reschedule at now + one clock period of 725/725/1000/1140 ps (60%, CLOCK), "
	  "2..50 periods (10%, WAKE), 15..150 ns (20%) or 100..600 ns (10%, DEFAULT); "
	  "3% also cancel+reschedule another actor",
	  draw_realistic },
	{ "stress",
	  "short-delay stress: 10^4 actors; reschedule at now + 1..10 ps (90%) or 100..10000 ps; "
	  "4 priorities; 3% also cancel+reschedule another actor",
	  draw_stress },
};

static inline uint64_t rnd(struct bench *b)
{
	b->x ^= b->x << 13;
	b->x ^= b->x >> 7;
	b->x ^= b->x << 17;
	return b->x;
}

static void actor_fire(void *ctx, tick_t now);

static void actor_schedule(struct bench *b, struct actor *a, tick_t now)
{
	int prio;
	tick_t d = b->draw(rnd(b), &prio);

	a->id = eventq_schedule(b->q, now + d, prio, actor_fire, a);
}

static void actor_fire(void *ctx, tick_t now)
{
	struct actor *a = ctx;
	struct bench *b = a->b;
	uint64_t r = rnd(b);

	if (r % 100 < CANCEL_PCT) {
		struct actor *o = &b->actors[(r >> 16) % N_ACTORS];

		if (o != a && eventq_cancel(b->q, o->id)) {
			b->cancels++;
			actor_schedule(b, o, now);
		}
	}
	actor_schedule(b, a, now);
	if (++b->fired == N_EVENTS)
		eventq_stop(b->q);
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs one mix; returns 0, or 1 if the run did not fire what it should have. */
static int bench_run(const struct bench_mix *m)
{
	struct bench *b = xcalloc(1, sizeof *b);
	double t0, t1;
	uint64_t n;
	int i;

	b->q = eventq_create();
	b->draw = m->draw;
	b->x = SEED;
	for (i = 0; i < N_ACTORS; i++) {
		b->actors[i].b = b;
		actor_schedule(b, &b->actors[i], 0);
	}
	t0 = seconds();
	n = eventq_run_until(b->q, TICK_NEVER);
	t1 = seconds();
	if (n != N_EVENTS || eventq_pending(b->q) != N_ACTORS) {
		fprintf(stderr, "bench_eventq: %s: fired %llu, pending %zu: broken run\n", m->name,
			(unsigned long long)n, eventq_pending(b->q));
		return 1;
	}
	eventq_check(b->q);
	printf("eventq: %-9s mix: %s\n", m->name, m->desc);
	printf("eventq: %-9s %llu events, %zu pending, %.2f s, %.1f M events/s "
	       "(final tick %llu, %llu cancels)\n",
	       m->name, (unsigned long long)n, eventq_pending(b->q), t1 - t0,
	       (double)n / (t1 - t0) / 1e6, (unsigned long long)eventq_now(b->q),
	       (unsigned long long)b->cancels);
	eventq_destroy(b->q);
	free(b);
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;
	int rc = 0, ran = 0;

	for (i = 0; i < sizeof mixes / sizeof mixes[0]; i++) {
		if (argc > 1 && strcmp(argv[1], mixes[i].name) != 0)
			continue;
		rc |= bench_run(&mixes[i]);
		ran++;
	}
	if (ran == 0) {
		fprintf(stderr, "usage: bench_eventq [realistic|stress]\n");
		return 2;
	}
	return rc;
}
