/*
 * eventq.h - the event core: a priority queue of timed callbacks (a timing wheel for the near
 * future backed by a heap; eventq.c says why).
 *
 * Contract
 *   - Events fire in (tick, priority, sequence) order: earlier tick first; at equal ticks the lower
 *     priority value first; at equal tick and priority, the one scheduled first. Sequence numbers
 *     come from a counter, so the order is the same on every run and every host.
 *   - eventq_schedule returns an id (>= 1, never reused). eventq_cancel is lazy: the entry stays in
 *     the queue, marked dead, and is dropped when it comes first. Cancelling an id that already
 *     fired or was already cancelled is harmless and returns false.
 *   - A handler may schedule and cancel events, including events at the current tick (they fire
 *     in this same run, after every pending event that orders before them).
 *   - now never moves backwards. Scheduling before now is a bug (SIM_ASSERT), as is a NULL
 *     handler or a priority outside 0..EVQ_PRIO_MAX.
 *   - run_until fires events whose tick is <= limit and leaves now at the tick of the last event
 *     it fired: idle time at the end is not simulated.
 */
#ifndef SIM_EVENTQ_H
#define SIM_EVENTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

/* Named priorities (lower fires first at the same tick), in the spirit of gem5's. */
enum eventq_prio {
	EVQ_PRIO_WAKE = 10,    /* a sleeping unit's timed wake-up, before its domain's edge */
	EVQ_PRIO_DEFAULT = 20, /* data returns, timers */
	EVQ_PRIO_CLOCK = 50,   /* clock-domain edges: units are ticked here; the k-th domain
				* created on a queue has EVQ_PRIO_CLOCK + k (eventq_add_domain), so
				* edges of one tick fire in domain order, whatever their history */
	EVQ_CLOCK_DOMAINS = 32, /* domains one queue can order */
	EVQ_PRIO_STATS = 90,   /* statistics epochs: after all work of the tick */
	EVQ_PRIO_EXIT = 100,   /* end of simulation, watchdog */
	EVQ_PRIO_MAX = 255,
};

typedef void eventq_fn(void *ctx, tick_t now);

struct eventq;
/* The edge priority of a new clock domain on q: EVQ_PRIO_CLOCK + (domains created before it). */
int eventq_add_domain(struct eventq *q);
/* The priority of the event being fired; -1 outside any handler. */
int eventq_firing_prio(const struct eventq *q);

struct eventq;

/*
 * Clock-domain edges. A domain (prio from eventq_add_domain) has at most one edge pending; it is
 * an event like any other for the contract (it takes a sequence number when set, fires in
 * (tick, priority, sequence) order with the rest, counts in eventq_fired and eventq_pending), but
 * it is kept in a record of its domain, not in the queue: a busy domain sets its next edge every
 * cycle, and this costs a store instead of a bucket. eventq_edge_set replaces a pending edge of
 * the domain (as a cancel and a new schedule would); eventq_edge_cancel returns whether one was
 * pending; eventq_edge_tick is its tick, TICK_NEVER if none.
 */
void eventq_edge_set(struct eventq *q, int prio, tick_t when, eventq_fn *fn, void *ctx);
bool eventq_edge_cancel(struct eventq *q, int prio);
bool eventq_edge_pending(const struct eventq *q, int prio);
tick_t eventq_edge_tick(const struct eventq *q, int prio);

/* Returns a new, empty queue at tick 0. Never NULL (aborts on out of memory). */
struct eventq *eventq_create(void);
void eventq_destroy(struct eventq *q);

/* Schedules fn(ctx, when) at tick when (>= now). Returns the event's id (>= 1). */
uint64_t eventq_schedule(struct eventq *q, tick_t when, int prio, eventq_fn *fn, void *ctx);
/* Cancels a pending event. Returns true if it was pending, false otherwise. */
bool eventq_cancel(struct eventq *q, uint64_t id);
/* True if the event with this id is scheduled and neither fired nor cancelled. */
bool eventq_is_pending(const struct eventq *q, uint64_t id);

/* Fires the earliest live event. Returns false (and does nothing) if none is pending. */
bool eventq_step(struct eventq *q);
/* Fires every live event with tick <= limit, in order, until none is left or eventq_stop() is
 * called by a handler. Returns the number of events fired by this call. */
uint64_t eventq_run_until(struct eventq *q, tick_t limit);
/* Makes the current eventq_run_until return after the handler that calls it. */
void eventq_stop(struct eventq *q);
/* How far the simulation has been run: the greatest limit an eventq_run_until reached without
 * being stopped (every event up to it fired, even if the last one was much earlier), or the tick
 * it was stopped at (events of that tick ordering after the stopping one did not fire). Work a
 * unit defers while idle is due up to here (mc_settle). 0 before any run. */
tick_t eventq_horizon(const struct eventq *q);

tick_t eventq_now(const struct eventq *q);
/* Moves now forward to t, outside any handler, with no event pending before t (say, to the
 * limit an eventq_run_until reached without firing anything that late). */
void eventq_advance(struct eventq *q, tick_t t);
/* Tick of the earliest live event, or TICK_NEVER if none. */
tick_t eventq_next_tick(struct eventq *q);
/* Number of live (scheduled, not fired, not cancelled) events. */
size_t eventq_pending(const struct eventq *q);
/* Number of events fired since creation. */
uint64_t eventq_fired(const struct eventq *q);

/* Name of the unit being ticked (set by clock.c around each tick; NULL outside), for panics. */
void eventq_set_unit(struct eventq *q, const char *unit);
const char *eventq_unit(const struct eventq *q);

/* Invariant check: every level is ordered as eventq.c says and the live count matches.
 * SIM_ASSERT on failure. */
void eventq_check(const struct eventq *q);

#endif /* SIM_EVENTQ_H */
