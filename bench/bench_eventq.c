/*
 * bench_eventq.c - event-queue throughput on a simulator-like mix.
 *
 * 10^4 actors each keep one event pending; every handler reschedules its actor at now + delay,
 * where the delay is 1..10 ps for 90% of events (clock edges and short pipelines) and
 * 100..10000 ps for the rest (DRAM, long timers). Priorities are drawn from the four named ones.
 * 3% of handlers also cancel another actor's pending event and reschedule it (a moved timed wake),
 * so dead nodes flow through the heap. The bench stops after 10^7 fired events.
 *
 * The random numbers come from a xorshift64 local to this file: a fixed seed, so every run fires
 * the same events and prints the same final tick.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "eventq.h"
#include "log.h"

#define N_ACTORS 10000
#define N_EVENTS 10000000ull
#define CANCEL_PCT 3
#define SHORT_PCT 90

struct bench;

struct actor {
	struct bench *b;
	uint64_t id;
};

struct bench {
	struct eventq *q;
	struct actor actors[N_ACTORS];
	uint64_t x;
	uint64_t fired;
	uint64_t cancels;
};

static const int prios[4] = { EVQ_PRIO_WAKE, EVQ_PRIO_DEFAULT, EVQ_PRIO_CLOCK, EVQ_PRIO_STATS };

static inline uint64_t rnd(struct bench *b)
{
	b->x ^= b->x << 13;
	b->x ^= b->x >> 7;
	b->x ^= b->x << 17;
	return b->x;
}

static inline tick_t delay(uint64_t r)
{
	if (r % 100 < SHORT_PCT)
		return 1 + (r >> 8) % 10;
	return 100 + (r >> 8) % 9901;
}

static void actor_fire(void *ctx, tick_t now);

static void actor_schedule(struct bench *b, struct actor *a, tick_t now)
{
	uint64_t r = rnd(b);

	a->id = eventq_schedule(b->q, now + delay(r), prios[(r >> 40) & 3], actor_fire, a);
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

int main(void)
{
	struct bench *b = xcalloc(1, sizeof *b);
	double t0, t1;
	uint64_t n;
	int i;

	b->q = eventq_create();
	b->x = 0x2545f4914f6cdd1dull;
	for (i = 0; i < N_ACTORS; i++) {
		b->actors[i].b = b;
		actor_schedule(b, &b->actors[i], 0);
	}
	t0 = seconds();
	n = eventq_run_until(b->q, TICK_NEVER);
	t1 = seconds();
	if (n != N_EVENTS || eventq_pending(b->q) != N_ACTORS) {
		fprintf(stderr, "bench_eventq: fired %llu, pending %zu: broken run\n",
			(unsigned long long)n, eventq_pending(b->q));
		return 1;
	}
	eventq_check(b->q);
	printf("eventq: mix: %d actors; each event reschedules its actor at now + 1..10 ps (%d%%) "
	       "or 100..10000 ps; 4 priorities; %d%% also cancel+reschedule another actor\n",
	       N_ACTORS, SHORT_PCT, CANCEL_PCT);
	printf("eventq: final tick %llu, %llu cancels\n", (unsigned long long)eventq_now(b->q),
	       (unsigned long long)b->cancels);
	printf("eventq: %llu events, %zu pending, %.2f s, %.1f M events/s\n",
	       (unsigned long long)n, eventq_pending(b->q), t1 - t0, (double)n / (t1 - t0) / 1e6);
	eventq_destroy(b->q);
	free(b);
	return 0;
}
