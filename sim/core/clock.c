/*
 * clock.c - clock domains whose units are ticked only while they have work.
 *
 * Models a clock tree with one integer period per domain and edges at c * period. What it buys is
 * the "only busy units cost time" rule of DESIGN.md section 2: a domain's edge is a single eventq
 * event at EVQ_PRIO_CLOCK that exists only while some unit is awake, and a unit waiting for a known
 * cycle sleeps behind one EVQ_PRIO_WAKE event instead of being ticked idle.
 *
 * State of a unit (the diagram and rules are in clock.h):
 *
 *   ASLEEP          -> AWAKE           [clock_wake; clock_wake_at / wake_fire at the next edge]
 *   AWAKE           -> ASLEEP          [clock_sleep]
 *   AWAKE           -> SLEEPING_UNTIL  [clock_sleep_until; clock_sleep with a promise recorded]
 *   SLEEPING_UNTIL  -> AWAKE           [wake_fire, clock_wake]
 *
 * A unit's timed wake is a promise, wake_cycle: "u is ticked at wake_cycle". It is dropped only
 * when u is ticked at a cycle >= wake_cycle, whatever u does in between: clock_sleep never drops
 * it. While u is awake the promise needs no event (u is ticked every cycle); while u sleeps it is
 * backed by its domain: a promise less than WHEEL_SLOTS cycles ahead goes on the domain's wheel
 * (a bitmap of units per cycle modulo WHEEL_SLOTS), and the domain's edge event is kept at or
 * before the wheel's first cycle; the edge of that cycle wakes the units due before it takes its
 * snapshot, as a wake event at the same tick (EVQ_PRIO_WAKE, before every edge) would have. A busy
 * GPU's units sleep a few cycles at a time, millions of times a run: one event per domain edge
 * instead of one per sleep. A promise further out is backed by one wake event at the edge tick of
 * wake_cycle. There is one promise per unit and it
 * only moves earlier, so a request for a cycle after the pending one is covered by the earlier
 * tick, as clock.h says: a unit ticked early must look at its inputs again and sleep until the
 * next cycle it needs (for a link, clock_sleep_until(u, link_head_ready(l))).
 *
 * Invariants (clock_check)
 *   - awake_count == popcount(awake bitmap), and each unit's bit is its state.
 *   - outside an edge, an edge event is pending iff awake_count > 0 or the wheel holds a unit:
 *     at the next unfired edge if awake_count > 0, else at or before the wheel's first cycle
 *     (an edge left early by a cancelled promise just ticks nobody).
 *   - a sleeping unit with a promise has its wake event pending or is on the wheel (not both);
 *     a unit with either has a promise, at the event's cycle or in its wheel slot, and the
 *     wheel's promises lie within WHEEL_SLOTS cycles from the next edge.
 *   - next_unfired (one past the last cycle whose edge fired) never decreases.
 *   - memo, when set, holds a tick and that tick / period (clock_cycle's cache).
 *
 * The edge ticks the units awake at its start, in attach order, over a snapshot of the bitmap:
 * a unit woken during the edge waits for the next edge; a unit put to sleep during the edge before
 * its turn is skipped (the live bitmap is consulted too).
 *
 * Not modelled: clock phase offsets, jitter, frequency changes at run time, gated clocks' wake-up
 * latency (a wake costs nothing beyond the edge it lands on).
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "clock.h"
#include "eventq.h"
#include "log.h"

#define BITS_PER_WORD 64
/* Cycles a domain's wheel of timed wakes reaches (a power of two, one bit each in wheel_occ). */
#define WHEEL_SLOTS 64

struct clock_unit {
	struct clock *clk;
	char *name;
	clock_tick_fn *fn;
	void *unit;
	unsigned idx;       /* attach order; bit idx of the awake bitmap */
	bool awake;
	cycle_t wake_cycle; /* promised tick by this cycle, CYCLE_NEVER: none */
	uint64_t wake_id;   /* eventq id of the wake event, 0: none pending */
	bool in_wheel;      /* the promise is on the domain's wheel instead, */
	unsigned wheel_slot; /* in this slot (wake_cycle may move before it is taken off) */
	uint64_t ticks;
};

/* clock_cycle's last answer: now / period is a 64-bit division, and links, controllers and
 * caches ask for the cycle many times per edge at the same tick. Kept behind a pointer so that
 * clock_cycle can refresh it through a const domain. */
struct clock_memo {
	tick_t tick;        /* TICK_NEVER: none yet */
	cycle_t cycle;      /* tick / period */
};

struct clock {
	struct eventq *q;
	char *name;
	tick_t period;
	cycle_t cycle_max;  /* (TICK_NEVER - 1) / period: the last cycle whose edge tick fits */
	int prio;           /* of its edges: EVQ_PRIO_CLOCK + creation rank (eventq_add_domain) */
	struct clock_memo *memo;
	struct clock_unit **units;
	unsigned n_units;
	unsigned cap_units;
	uint64_t *awake;    /* bitmap by unit index */
	uint64_t *snap;     /* the bitmap at the start of the edge being processed */
	unsigned n_words;
	unsigned n_awake;
	bool edge_on;       /* an edge is pending (eventq_edge_set) */
	cycle_t edge_cycle; /* its cycle */
	uint64_t *wheel;    /* [n_words * WHEEL_SLOTS]: word w of slot s at w * WHEEL_SLOTS + s */
	uint64_t wheel_occ; /* bit s: slot s holds a unit */
	unsigned wheel_n;   /* units on the wheel */
	cycle_t next_unfired; /* one past the last cycle whose edge fired (0 before any) */
	uint64_t edges;
	bool in_edge;
};

static void edge_fire(void *ctx, tick_t now);
static void wake_fire(void *ctx, tick_t now);

/* ------------------------------------------------------------------------------------------------
 * Helpers
 */

/* A cycle whose edge tick does not fit in tick_t never comes: such a wake is no wake. */
static cycle_t clamp_cycle(const struct clock *c, cycle_t cyc)
{
	return cyc > c->cycle_max ? CYCLE_NEVER : cyc;
}

/* The first edge that has not fired yet and is not in the past: where a wake lands. An edge at
 * the current tick is past once an event ordering after it (a later domain's edge) fires: a
 * domain woken by a later domain at a tick they share waits for its next edge, as it would
 * have if its edge event had been pending (clock.h: shared edges fire in domain order). */
static cycle_t next_edge_cycle(const struct clock *c)
{
	tick_t now;
	cycle_t floor_now, ceil_now;
	bool on_edge;

	/* Inside this domain's edge (a unit's tick: most calls) the tick is the edge's, the
	 * firing priority ours, and next_unfired one past the edge: the answer below. */
	if (c->in_edge) {
#ifdef SIM_DEBUG
		SIM_ASSERT(eventq_now(c->q) == (c->next_unfired - 1) * c->period &&
			   eventq_firing_prio(c->q) == c->prio);
#endif
		return c->next_unfired;
	}
	now = eventq_now(c->q);
	floor_now = clock_cycle(c); /* memoised: no division at a tick already seen */
	on_edge = floor_now * c->period == now;
	ceil_now = floor_now + !on_edge;

	if (on_edge && eventq_firing_prio(c->q) > c->prio)
		ceil_now++;
	return ceil_now > c->next_unfired ? ceil_now : c->next_unfired;
}

/* An edge event pending at cycle cyc or earlier (inside an edge, edge_fire sees to it at its
 * end). */
static void edge_by(struct clock *c, cycle_t cyc)
{
	if (c->in_edge || (c->edge_on && c->edge_cycle <= cyc))
		return;
	c->edge_cycle = cyc;
	c->edge_on = true;
	eventq_edge_set(c->q, c->prio, clock_tick_of(c, cyc), edge_fire, c); /* replaces one */
}

/* An edge at the next edge cycle, for a unit just woken (one may be pending later, for the
 * wheel). */
static void edge_ensure(struct clock *c)
{
	if (c->in_edge)
		return; /* edge_fire reschedules itself at its end */
	edge_by(c, next_edge_cycle(c));
}

/* The wheel's first promise (the wheel holds one), all of them in [from, from + WHEEL_SLOTS). */
static cycle_t wheel_first(const struct clock *c, cycle_t from)
{
	unsigned r = (unsigned)(from % WHEEL_SLOTS);
	uint64_t occ = r == 0 ? c->wheel_occ : c->wheel_occ >> r | c->wheel_occ << (WHEEL_SLOTS - r);

	SIM_ASSERT(occ != 0);
	return from + (cycle_t)__builtin_ctzll(occ);
}

__attribute__((always_inline)) static inline void wheel_put(struct clock_unit *u)
{
	struct clock *c = u->clk;
	unsigned s = (unsigned)(u->wake_cycle % WHEEL_SLOTS);

	c->wheel[u->idx / BITS_PER_WORD * WHEEL_SLOTS + s] |= UINT64_C(1) << (u->idx % BITS_PER_WORD);
	c->wheel_occ |= UINT64_C(1) << s;
	c->wheel_n++;
	u->in_wheel = true;
	u->wheel_slot = s;
}

static void wheel_take(struct clock_unit *u)
{
	struct clock *c = u->clk;
	unsigned s = u->wheel_slot, w;

	c->wheel[u->idx / BITS_PER_WORD * WHEEL_SLOTS + s] &= ~(UINT64_C(1) << (u->idx % BITS_PER_WORD));
	c->wheel_n--;
	u->in_wheel = false;
	for (w = 0; w < c->n_words; w++)
		if (c->wheel[w * WHEEL_SLOTS + s] != 0)
			return;
	c->wheel_occ &= ~(UINT64_C(1) << s);
}

__attribute__((always_inline)) static inline void set_awake(struct clock_unit *u)
{
	struct clock *c = u->clk;

	if (u->awake)
		return;
	u->awake = true;
	c->awake[u->idx / BITS_PER_WORD] |= UINT64_C(1) << (u->idx % BITS_PER_WORD);
	if (c->n_awake++ == 0)
		edge_ensure(c);
}

__attribute__((always_inline)) static inline void set_asleep(struct clock_unit *u)
{
	struct clock *c = u->clk;

	if (!u->awake)
		return;
	u->awake = false;
	c->awake[u->idx / BITS_PER_WORD] &= ~(UINT64_C(1) << (u->idx % BITS_PER_WORD));
	/* An edge with nobody to tick is not worth an event (but the wheel's first promise is).
	 * Inside an edge, edge_fire decides. */
	if (--c->n_awake == 0 && c->edge_on && !c->in_edge) {
		eventq_edge_cancel(c->q, c->prio);
		c->edge_on = false;
		if (c->wheel_n > 0)
			edge_by(c, wheel_first(c, next_edge_cycle(c)));
	}
}

__attribute__((always_inline)) static inline void wake_cancel(struct clock_unit *u)
{
	if (u->in_wheel)
		wheel_take(u); /* the edge event may now come early: it ticks nobody */
	if (u->wake_id != 0) {
		eventq_cancel(u->clk->q, u->wake_id);
		u->wake_id = 0;
	}
}

/*
 * Backs a sleeping unit's promise with an event. A promise due at the next edge anyway needs no
 * event: the unit simply wakes now, which ticks it at that same edge. next: next_edge_cycle(),
 * which the callers have just computed.
 */
__attribute__((always_inline)) static inline void wake_arm(struct clock_unit *u, cycle_t next)
{
	struct clock *c = u->clk;

	SIM_ASSERT(!u->awake && u->wake_cycle != CYCLE_NEVER);
	if (u->wake_cycle <= next) {
		u->wake_cycle = next;
		wake_cancel(u);
		set_awake(u);
		return;
	}
	if (u->wake_id != 0 || u->in_wheel)
		return; /* already armed at wake_cycle (the invariant) */
	if (u->wake_cycle - next < WHEEL_SLOTS) {
		wheel_put(u);
		edge_by(c, u->wake_cycle);
		return;
	}
	u->wake_id = eventq_schedule(c->q, clock_tick_of(c, u->wake_cycle), EVQ_PRIO_WAKE,
				     wake_fire, u);
}

/* ------------------------------------------------------------------------------------------------
 * Events
 */

static void wake_fire(void *ctx, tick_t now)
{
	struct clock_unit *u = ctx;

	u->wake_id = 0;
	/* The promise stays recorded until the unit is ticked at wake_cycle: should something put
	 * it to sleep before that edge, clock_sleep sees the promise due and keeps it awake. */
	set_awake(u);
}

static void edge_fire(void *ctx, tick_t now)
{
	struct clock *c = ctx;
	cycle_t cyc = now / c->period;
	unsigned w;

	c->edge_on = false;
	c->memo->tick = now;
	c->memo->cycle = cyc;
	c->next_unfired = cyc + 1;
	c->edges++;
	c->in_edge = true;
	if ((c->wheel_occ >> (cyc % WHEEL_SLOTS)) & 1) {
		/* the promises of this cycle wake their units before the snapshot */
		unsigned s = (unsigned)(cyc % WHEEL_SLOTS);

		c->wheel_occ &= ~(UINT64_C(1) << s);
		for (w = 0; w < c->n_words; w++) {
			uint64_t due = c->wheel[w * WHEEL_SLOTS + s];

			c->wheel[w * WHEEL_SLOTS + s] = 0;
			for (; due != 0; due &= due - 1) {
				struct clock_unit *u = c->units[w * BITS_PER_WORD +
								 (unsigned)__builtin_ctzll(due)];

				SIM_ASSERT(u->in_wheel && u->wake_cycle == cyc);
				u->in_wheel = false;
				c->wheel_n--;
				set_awake(u);
			}
		}
	}
	memcpy(c->snap, c->awake, c->n_words * sizeof *c->snap);
	for (w = 0; w < c->n_words; w++) {
		uint64_t todo = c->snap[w];

		/* Re-mask with the live word each time: a tick may put a later unit to sleep. */
		while ((todo &= c->awake[w]) != 0) {
			unsigned b = (unsigned)__builtin_ctzll(todo);
			struct clock_unit *u = c->units[w * BITS_PER_WORD + b];

			todo &= todo - 1;
			if (u->wake_cycle <= cyc) {
				/* Promise kept; its event (at or before this tick, at a lower
				 * priority value) has fired. */
				SIM_ASSERT(u->wake_id == 0 && !u->in_wheel);
				u->wake_cycle = CYCLE_NEVER;
			}
			u->ticks++;
			eventq_set_unit(c->q, u->name);
			u->fn(u->unit, cyc);
			eventq_set_unit(c->q, NULL);
		}
	}
	c->in_edge = false;
	if (c->n_awake > 0) {
		c->edge_cycle = cyc + 1;
		c->edge_on = true;
		eventq_edge_set(c->q, c->prio, now + c->period, edge_fire, c);
	} else if (c->wheel_n > 0) {
		edge_by(c, wheel_first(c, cyc + 1));
	}
#ifdef SIM_DEBUG
	clock_check(c);
#endif
}

/* ------------------------------------------------------------------------------------------------
 * Domains
 */

struct clock *clock_create(struct eventq *q, const char *name, tick_t period_ps)
{
	struct clock *c;

	SIM_ASSERT(q != NULL && name != NULL);
	SIM_ASSERT(period_ps >= 1);
	c = xcalloc(1, sizeof *c);
	c->q = q;
	c->name = xstrdup(name);
	c->period = period_ps;
	c->cycle_max = (TICK_NEVER - 1) / period_ps;
	c->prio = eventq_add_domain(q);
	c->memo = xcalloc(1, sizeof *c->memo);
	c->memo->tick = TICK_NEVER;
	return c;
}

void clock_destroy(struct clock *c)
{
	unsigned i;

	if (c == NULL)
		return;
	if (c->edge_on)
		eventq_edge_cancel(c->q, c->prio);
	for (i = 0; i < c->n_units; i++) {
		wake_cancel(c->units[i]);
		free(c->units[i]->name);
		free(c->units[i]);
	}
	free(c->units);
	free(c->wheel);
	free(c->awake);
	free(c->snap);
	free(c->memo);
	free(c->name);
	free(c);
}

struct clock_unit *clock_attach(struct clock *c, const char *name, clock_tick_fn *fn, void *unit)
{
	struct clock_unit *u;

	SIM_ASSERT(name != NULL && fn != NULL);
	SIM_ASSERT(!c->in_edge); /* the snapshot and bitmap are sized for the units at edge start */
	if (c->n_units == c->cap_units) {
		c->cap_units = c->cap_units != 0 ? 2 * c->cap_units : 8;
		c->units = xreallocarray(c->units, c->cap_units, sizeof *c->units);
	}
	if (c->n_units == c->n_words * BITS_PER_WORD) {
		c->n_words++;
		c->awake = xreallocarray(c->awake, c->n_words, sizeof *c->awake);
		c->snap = xreallocarray(c->snap, c->n_words, sizeof *c->snap);
		c->awake[c->n_words - 1] = 0;
		c->wheel = xreallocarray(c->wheel, (size_t)c->n_words * WHEEL_SLOTS, sizeof *c->wheel);
		memset(&c->wheel[(size_t)(c->n_words - 1) * WHEEL_SLOTS], 0,
		       WHEEL_SLOTS * sizeof *c->wheel);
	}
	u = xcalloc(1, sizeof *u);
	u->clk = c;
	u->name = xstrdup(name);
	u->fn = fn;
	u->unit = unit;
	u->idx = c->n_units;
	u->wake_cycle = CYCLE_NEVER;
	c->units[c->n_units++] = u;
	return u;
}

tick_t clock_period_from_mhz(double mhz)
{
	double ps;

	/* Also rejects NaN. 2^62 ps is about 53 days: no clock is that slow. */
	SIM_ASSERT(mhz > 0.0);
	ps = 1e6 / mhz + 0.5;
	SIM_ASSERT(ps < 4611686018427387904.0);
	return ps < 1.0 ? 1 : (tick_t)ps;
}

const char *clock_name(const struct clock *c)
{
	return c->name;
}

tick_t clock_period(const struct clock *c)
{
	return c->period;
}

struct eventq *clock_eventq(const struct clock *c)
{
	return c->q;
}

cycle_t clock_next_edge(const struct clock *c)
{
	return next_edge_cycle(c);
}

cycle_t clock_cycle(const struct clock *c)
{
	tick_t now;

	if (c->in_edge) {
		/* this domain's own edge (see next_edge_cycle) */
#ifdef SIM_DEBUG
		SIM_ASSERT(eventq_now(c->q) == (c->next_unfired - 1) * c->period);
#endif
		return c->next_unfired - 1;
	}
	now = eventq_now(c->q);
	if (now != c->memo->tick) {
		c->memo->tick = now;
		c->memo->cycle = now / c->period;
	}
	return c->memo->cycle;
}

tick_t clock_tick_of(const struct clock *c, cycle_t cyc)
{
	SIM_ASSERT(cyc <= TICK_NEVER / c->period);
	return cyc * c->period;
}

uint64_t clock_edges(const struct clock *c)
{
	return c->edges;
}

uint64_t clock_ticks(const struct clock *c)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < c->n_units; i++)
		n += c->units[i]->ticks;
	return n;
}

unsigned clock_awake_count(const struct clock *c)
{
	return c->n_awake;
}

/* ------------------------------------------------------------------------------------------------
 * Units
 */

void clock_wake(struct clock_unit *u)
{
	set_awake(u);
}

void clock_wake_at(struct clock_unit *u, cycle_t cyc)
{
	cycle_t next;

	cyc = clamp_cycle(u->clk, cyc);
	/* timed wakes only move earlier (and raising cyc to the next edge cannot make it so):
	 * the common case of a link's consumer promised its earlier item */
	if (cyc >= u->wake_cycle)
		return;
	next = next_edge_cycle(u->clk);
	if (cyc < next)
		cyc = next;
	if (cyc >= u->wake_cycle)
		return;
	u->wake_cycle = cyc;
	/* A pending event is now too late. An awake unit keeps the promise without one. */
	wake_cancel(u);
	if (!u->awake)
		wake_arm(u, next);
}

void clock_sleep(struct clock_unit *u)
{
	cycle_t next;

	if (!u->awake)
		return;
	/* A promise due at the next edge would wake the unit right back: just stay awake. */
	next = next_edge_cycle(u->clk);
	if (u->wake_cycle <= next)
		return;
	set_asleep(u); /* moves no time: next stands */
	if (u->wake_cycle != CYCLE_NEVER)
		wake_arm(u, next);
}

void clock_sleep_until(struct clock_unit *u, cycle_t cyc)
{
	/* clock_sleep + clock_wake_at, folded so that no event is armed for a promise that the
	 * new, earlier one replaces. */
	cycle_t next = next_edge_cycle(u->clk);

	cyc = clamp_cycle(u->clk, cyc);
	if (cyc < next)
		cyc = next;
	if (cyc < u->wake_cycle) {
		u->wake_cycle = cyc;
		wake_cancel(u);
	}
	if (u->wake_cycle <= next) {
		set_awake(u);
		return;
	}
	set_asleep(u);
	/* CYCLE_NEVER (say, the head_ready of an empty link): a plain clock_sleep. */
	if (u->wake_cycle != CYCLE_NEVER)
		wake_arm(u, next);
}

bool clock_is_awake(const struct clock_unit *u)
{
	return u->awake;
}

struct clock *clock_unit_clock(const struct clock_unit *u)
{
	return u->clk;
}

const char *clock_unit_name(const struct clock_unit *u)
{
	return u->name;
}

uint64_t clock_unit_ticks(const struct clock_unit *u)
{
	return u->ticks;
}

void clock_check(const struct clock *c)
{
	unsigned i, w, pop = 0;

	SIM_ASSERT(c->n_units <= c->n_words * BITS_PER_WORD);
	SIM_ASSERT(c->memo->tick == TICK_NEVER || c->memo->cycle == c->memo->tick / c->period);
	for (w = 0; w < c->n_words; w++)
		pop += (unsigned)bits_pop64(c->awake[w]);
	SIM_ASSERT(pop == c->n_awake);
	if (!c->in_edge) {
		SIM_ASSERT(c->edge_on == (c->n_awake > 0 || c->wheel_n > 0));
		SIM_ASSERT(c->edge_on == eventq_edge_pending(c->q, c->prio));
		SIM_ASSERT(!c->edge_on ||
			   eventq_edge_tick(c->q, c->prio) == clock_tick_of(c, c->edge_cycle));
		if (c->n_awake > 0)
			SIM_ASSERT(c->edge_cycle == next_edge_cycle(c));
		else if (c->wheel_n > 0)
			SIM_ASSERT(c->edge_cycle <= wheel_first(c, next_edge_cycle(c)));
	}
	{
		unsigned on = 0, s;

		for (s = 0; s < WHEEL_SLOTS; s++) {
			uint64_t any = 0;

			for (w = 0; w < c->n_words; w++) {
				any |= c->wheel[w * WHEEL_SLOTS + s];
				on += (unsigned)bits_pop64(c->wheel[w * WHEEL_SLOTS + s]);
			}
			SIM_ASSERT((any != 0) == ((c->wheel_occ >> s) & 1));
		}
		SIM_ASSERT(on == c->wheel_n);
	}
	for (i = 0; i < c->n_units; i++) {
		const struct clock_unit *u = c->units[i];
		bool bit = (c->awake[i / BITS_PER_WORD] >> (i % BITS_PER_WORD)) & 1;

		SIM_ASSERT(u->clk == c && u->idx == i);
		SIM_ASSERT(u->awake == bit);
		if (u->wake_id != 0) {
			SIM_ASSERT(eventq_is_pending(c->q, u->wake_id) && !u->in_wheel);
			SIM_ASSERT(u->wake_cycle != CYCLE_NEVER);
		}
		if (u->in_wheel) {
			unsigned s = (unsigned)(u->wake_cycle % WHEEL_SLOTS);

			SIM_ASSERT((c->wheel[i / BITS_PER_WORD * WHEEL_SLOTS + s] >> (i % BITS_PER_WORD)) & 1);
			/* within the wheel's reach of the next edge (so slots are not shared) */
			SIM_ASSERT(u->wake_cycle >= next_edge_cycle(c) &&
				   u->wake_cycle - next_edge_cycle(c) < WHEEL_SLOTS);
		}
		if (!u->awake && u->wake_cycle != CYCLE_NEVER)
			SIM_ASSERT(u->wake_id != 0 || u->in_wheel);
	}
}
