/*
 * link.h - a bounded FIFO with a latency, the only way units talk to each other.
 *
 * Contract
 *   - An item pushed while the consumer's domain is at cycle c becomes visible to link_peek /
 *     link_pop at consumer cycle c + latency (latency >= 1, so the order in which units are ticked
 *     within a cycle never changes results). Items stay in push order.
 *   - capacity bounds the items in the link, in flight or waiting. A full link refuses pushes:
 *     that is flow control, not an error. link_try_push counts the refusal as a stall and
 *     remembers that the producer waits; the next pop wakes the producer's clock_unit (if one was
 *     set with link_set_producer) so a sleeping producer retries.
 *   - A push wakes the consumer's clock_unit (if any) at the cycle the item becomes visible.
 *   - Ownership: the link owns an item from push to pop; then the popper owns it.
 *   - link_pop_at lets a consumer take a visible item from behind the head (the others keep
 *     their order): the link stays a FIFO for every consumer that pops only heads.
 * Statistics: pushes, pops, stalls (refused try_push calls), occupancy (current and high-water).
 */
#ifndef SIM_LINK_H
#define SIM_LINK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"
#include "types.h"

struct clock;
struct clock_unit;
struct link;

struct link_stats {
	uint64_t pushes;
	uint64_t pops;
	uint64_t stalls;
	struct stat_level occupancy;
};

/*
 * Creates a link of capacity items (>= 1) and latency consumer cycles (>= 1), timed by the
 * consumer's clock domain clk. consumer may be NULL (the consumer polls, e.g. in tests). name is
 * copied. Never NULL.
 */
struct link *link_create(const char *name, uint32_t capacity, uint32_t latency, struct clock *clk,
			 struct clock_unit *consumer);
void link_destroy(struct link *l);
/* The unit woken when a refused producer may push again (NULL: nobody). */
void link_set_producer(struct link *l, struct clock_unit *producer);
/* The unit woken by pushes (as link_create's consumer), for a consumer created after its link;
 * must belong to the link's clock. If items are waiting it is woken for the head. */
void link_set_consumer(struct link *l, struct clock_unit *consumer);

/* A key of each item, computed by fn when the item is pushed and kept beside it, so that a
 * consumer that scans many waiting items (link_keys_visible) need not touch the items themselves
 * (the crossbar keeps each packet's output port). NULL: no key. Items already in the link get
 * theirs now. */
typedef uint32_t link_key_fn(const void *item);
void link_set_key(struct link *l, link_key_fn *fn);
/* The keys and ready cycles of the items visible at cycle now (the consumer's current cycle,
 * which the caller has at hand: SIM_ASSERT in the debug build), head first, from the one from
 * places behind the head (the caller has those before it) into keys[from..] and ready[from..]
 * (at most max in all); returns the count visible (at least from: from <= that count, SIM_ASSERT
 * in the debug build). Then the item of keys[k] is the one k places behind the head, visible
 * since ready[k]. */
uint32_t link_keys_visible(const struct link *l, cycle_t now, uint32_t from, uint32_t *keys,
			   cycle_t *ready, uint32_t max);

/* A consumer with many input links: every push sets bit `bit` of words (the consumer clears it
 * when it finds the link empty, link_occupancy), so that it visits only the links that may hold
 * something. words NULL: no watch. */
void link_set_watch(struct link *l, uint64_t *words, uint32_t bit);

bool link_can_push(const struct link *l);
/* Pushes item if there is room and returns true; else counts a stall and returns false. */
bool link_try_push(struct link *l, void *item);
/* Pushes item; the link must have room (SIM_ASSERT). */
void link_push(struct link *l, void *item);
/* The head item if it is visible at the consumer's current cycle, else NULL. */
void *link_peek(const struct link *l);
/* Removes and returns the visible head item; SIM_ASSERT that there is one. */
void *link_pop(struct link *l);
/* The item k places behind the head (k = 0: the head) if it is visible, else NULL (also when
 * k >= occupancy). For consumers that may take any visible item (a crossbar's virtual output
 * queues). */
void *link_peek_at(const struct link *l, uint32_t k);
/* The ready cycle of the item k places behind the head; k < occupancy (SIM_ASSERT). */
cycle_t link_ready_at(const struct link *l, uint32_t k);
/* Removes and returns the visible item k places behind the head; the others keep their order.
 * SIM_ASSERT that it is visible. O(k). */
void *link_pop_at(struct link *l, uint32_t k);
/* Items visible at the consumer's current cycle (the head's, and those behind it that are due:
 * ready cycles never decrease from head to tail). O(items visible). */
uint32_t link_visible(const struct link *l);
/* Cycle (of the consumer's domain) at which the head becomes visible; CYCLE_NEVER if empty. */
cycle_t link_head_ready(const struct link *l);

uint32_t link_occupancy(const struct link *l);
uint32_t link_capacity(const struct link *l);
uint32_t link_latency(const struct link *l);
const char *link_name(const struct link *l);
const struct link_stats *link_stats(const struct link *l);

/* Registers <prefix>.pushes, .pops, .stalls, .occupancy under the link's statistics. */
void link_register_stats(struct link *l, struct stats *st, const char *prefix);
/* One line: name, occupancy/capacity, head ready cycle. For the watchdog. */
void link_dump(const struct link *l, FILE *out);
void link_check(const struct link *l);

#endif /* SIM_LINK_H */
