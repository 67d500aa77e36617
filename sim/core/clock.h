/*
 * clock.h - clock domains, and units that are ticked only while they have work.
 *
 * A clock domain has an integer period in picoseconds; its edges are at ticks c * period for cycle
 * c = 0, 1, 2, ... (no phase offset). Units attach to a domain and are ticked at an edge only while
 * awake, in attach order. A domain with no awake unit schedules no event at all, so an idle domain
 * costs nothing.
 *
 * A unit is in one of three states:
 *
 *        clock_wake / wake_at fires                 clock_sleep
 *   ASLEEP -----------------------> AWAKE -------------------------> ASLEEP
 *     ^                               |
 *     |        (timed wake pending)   | clock_sleep_until(c)
 *     +---- SLEEPING_UNTIL c <--------+
 *
 *   ASLEEP          -> AWAKE           [clock_wake, clock_wake_at: ticked from the next edge]
 *   AWAKE           -> ASLEEP          [clock_sleep]
 *   AWAKE           -> SLEEPING_UNTIL  [clock_sleep_until]
 *   SLEEPING_UNTIL  -> AWAKE           [timed wake event at cycle c, or clock_wake earlier]
 *
 * Rules
 *   - A unit stays awake (ticked every cycle) until it calls clock_sleep or clock_sleep_until,
 *     typically from its own tick function.
 *   - clock_wake(u) makes u be ticked at the next edge of its domain that has not yet fired: when
 *     called from inside an edge of u's own domain at cycle c, that is c + 1. Waking an awake unit
 *     does nothing.
 *   - clock_wake_at(u, c) guarantees u is ticked at cycle c (or earlier, if something else wakes
 *     it). A cycle at or before the current one means the next edge. Timed wakes only ever move
 *     earlier: a pending wake at c' < c is kept.
 *   - clock_sleep(u) stops ticks but never cancels a pending timed wake (a link may have promised
 *     data for that cycle); a spurious tick is harmless, a lost wake is a deadlock.
 *   - clock_sleep_until(u, c) = clock_sleep(u) + clock_wake_at(u, c).
 *   - The current cycle of a domain is always floor(now / period), recomputed from the event
 *     queue's tick, never counted.
 *   - Edges of several domains at one tick fire in the order the domains were created on the
 *     queue (each domain's edge events have their own priority, EVQ_PRIO_CLOCK + rank), never in
 *     the order they happened to be scheduled: so whether a domain slept and was woken, or ran on,
 *     cannot change which one goes first, and a unit that sleeps instead of polling changes no
 *     result. Links make data crossing domains order-free (latency >= 1), but flow control is
 *     not (a slot freed by a pop is usable at once), so this order is part of the model: create
 *     the domains that answer requests first (gpu/sim.c: DRAM, L2, crossbar, core). A domain
 *     woken at a tick it shares with the waker, by a later domain's edge, has had its turn at that
 *     tick: its units are ticked from its next edge, as if its edge event had been pending.
 */
#ifndef SIM_CLOCK_H
#define SIM_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "types.h"

struct eventq;
struct clock;
struct clock_unit;

/* A unit's per-cycle work. now is the domain's cycle number of this edge. */
typedef void clock_tick_fn(void *unit, cycle_t now);

/* Creates a domain on queue q. name is copied. period_ps >= 1. Never NULL. */
struct clock *clock_create(struct eventq *q, const char *name, tick_t period_ps);
/* Destroys the domain and every unit handle attached to it; cancels its pending events. */
void clock_destroy(struct clock *c);

/* Attaches a unit (asleep) and returns its handle, owned by the domain. name is copied. */
struct clock_unit *clock_attach(struct clock *c, const char *name, clock_tick_fn *fn, void *unit);

/* Rounds a frequency in MHz to an integer period in ps (at least 1). */
tick_t clock_period_from_mhz(double mhz);

const char *clock_name(const struct clock *c);
tick_t clock_period(const struct clock *c);
struct eventq *clock_eventq(const struct clock *c);
/* floor(now / period): the domain's current cycle. */
cycle_t clock_cycle(const struct clock *c);
/* The first edge of c that has not fired and is not in the past: where a wake lands. */
cycle_t clock_next_edge(const struct clock *c);
/* Tick of the edge of cycle cyc. */
tick_t clock_tick_of(const struct clock *c, cycle_t cyc);
/* Number of edges this domain has fired (its scheduling cost). */
uint64_t clock_edges(const struct clock *c);
/* Number of unit ticks its edges have made, over every unit attached (the work an edge
 * dispatches: one edge ticks every unit awake at it). */
uint64_t clock_ticks(const struct clock *c);
/* Number of units currently awake. */
unsigned clock_awake_count(const struct clock *c);

void clock_wake(struct clock_unit *u);
void clock_wake_at(struct clock_unit *u, cycle_t cyc);
void clock_sleep(struct clock_unit *u);
void clock_sleep_until(struct clock_unit *u, cycle_t cyc);
bool clock_is_awake(const struct clock_unit *u);
struct clock *clock_unit_clock(const struct clock_unit *u);
const char *clock_unit_name(const struct clock_unit *u);
/* Number of times this unit has been ticked. */
uint64_t clock_unit_ticks(const struct clock_unit *u);

/* Invariants: awake count matches the awake set; a pending edge exists iff a unit is awake. */
void clock_check(const struct clock *c);

#endif /* SIM_CLOCK_H */
