/*
 * link.c - a bounded FIFO with a latency: the wires and queues between units.
 *
 * Models a pipelined, flow-controlled channel: capacity items may be in it at once (in flight or
 * waiting at the far end), each item takes latency cycles of the consumer's clock to cross, and a
 * full channel pushes back on the producer. It is a ring of {item, ready}, where ready is the
 * consumer cycle at which the item becomes visible, fixed at push time.
 *
 * Invariants (link_check)
 *   - 0 <= count <= capacity; occupancy.cur == count <= occupancy.hwm. (pushes - pops == count
 *     only until the first stats reset, so it is not checked.)
 *   - ready cycles are non-decreasing from head to tail (the consumer clock never runs backwards
 *     and latency is fixed), so only the head needs testing for visibility.
 *   - producer_waiting from a refused try_push until the next pop (the link stays full until
 *     then, so no push can get through in between).
 *
 * Items are opaque non-NULL pointers: link_peek's NULL means "nothing visible", so pushing NULL is
 * a bug (SIM_ASSERT). Not modelled: bandwidth in bytes (one item per push, any number of pushes
 * per cycle up to capacity; units that model a bus width limit their own pushes), credit-return
 * latency (a slot frees the moment the consumer pops), and reordering inside the link (a consumer
 * may take a visible item from behind the head, link_pop_at: that is the consumer's choice).
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "link.h"
#include "log.h"
#include "stats.h"

struct link_slot {
	void *item;
	cycle_t ready; /* consumer cycle at which the item is visible */
	uint32_t key;  /* link_set_key: the consumer's key of the item, from its push */
};

struct link {
	char *name;
	uint32_t capacity;
	uint32_t latency;
	struct clock *clk;
	struct clock_unit *consumer;
	struct clock_unit *producer;
	struct link_slot *ring;
	uint32_t head;  /* index of the oldest item */
	uint32_t count;
	bool producer_waiting;
	link_key_fn *key_fn;  /* link_set_key: computed at push, read by link_keys_visible */
	uint64_t *watch;      /* link_set_watch: the consumer's bitmap, and this link's bit */
	uint32_t watch_bit;
	struct link_stats st;
};

static inline uint32_t ring_index(const struct link *l, uint32_t k)
{
	uint32_t i = l->head + k;

	return i >= l->capacity ? i - l->capacity : i;
}

struct link *link_create(const char *name, uint32_t capacity, uint32_t latency, struct clock *clk,
			 struct clock_unit *consumer)
{
	struct link *l;

	SIM_ASSERT(name != NULL && clk != NULL);
	SIM_ASSERT(capacity >= 1);
	SIM_ASSERT(latency >= 1);
	SIM_ASSERT(consumer == NULL || clock_unit_clock(consumer) == clk);
	l = xcalloc(1, sizeof *l);
	l->name = xstrdup(name);
	l->capacity = capacity;
	l->latency = latency;
	l->clk = clk;
	l->consumer = consumer;
	l->ring = xreallocarray(NULL, capacity, sizeof *l->ring);
	return l;
}

void link_destroy(struct link *l)
{
	if (l == NULL)
		return;
	free(l->ring);
	free(l->name);
	free(l);
}

void link_set_producer(struct link *l, struct clock_unit *producer)
{
	l->producer = producer;
}

void link_set_consumer(struct link *l, struct clock_unit *consumer)
{
	SIM_ASSERT(consumer == NULL || clock_unit_clock(consumer) == l->clk);
	l->consumer = consumer;
	/* Items pushed before the consumer existed woke nobody: wake it for the head. */
	if (consumer != NULL && l->count > 0)
		clock_wake_at(consumer, l->ring[l->head].ready);
}

void link_set_key(struct link *l, link_key_fn *fn)
{
	uint32_t i;

	l->key_fn = fn;
	for (i = 0; i < l->count; i++) {
		struct link_slot *s = &l->ring[ring_index(l, i)];

		s->key = fn != NULL ? fn(s->item) : 0;
	}
}

uint32_t link_keys_visible(const struct link *l, cycle_t now, uint32_t from, uint32_t *keys,
			   cycle_t *ready, uint32_t max)
{
	const struct link_slot *ring = l->ring;
	uint32_t k, cap = l->capacity, n = l->count < max ? l->count : max;
	uint32_t i = l->head + from;

#ifdef SIM_DEBUG
	SIM_ASSERT(now == clock_cycle(l->clk));
	SIM_ASSERT(from <= n && (from == 0 || l->ring[ring_index(l, from - 1)].ready <= now));
#endif
	if (i >= cap)
		i -= cap;
	/* locals: keys and ready may alias the link as far as the compiler knows */
	for (k = from; k < n && ring[i].ready <= now; k++) {
		keys[k] = ring[i].key;
		ready[k] = ring[i].ready;
		if (++i == cap)
			i = 0;
	}
	return k;
}

void link_set_watch(struct link *l, uint64_t *words, uint32_t bit)
{
	l->watch = words;
	l->watch_bit = bit;
	if (words != NULL && l->count > 0)
		words[bit / 64] |= 1ull << (bit % 64);
}

bool link_can_push(const struct link *l)
{
	return l->count < l->capacity;
}

void link_push(struct link *l, void *item)
{
	struct link_slot *s;
	uint32_t tail;

	SIM_ASSERT(l->count < l->capacity);
	SIM_ASSERT(item != NULL);
	tail = l->head + l->count;
	if (tail >= l->capacity)
		tail -= l->capacity;
	s = &l->ring[tail];
	s->item = item;
	s->ready = clock_cycle(l->clk) + l->latency;
	s->key = l->key_fn != NULL ? l->key_fn(item) : 0;
	l->count++;
	if (l->watch != NULL)
		l->watch[l->watch_bit / 64] |= 1ull << (l->watch_bit % 64);
	l->st.pushes++;
	stat_level_inc(&l->st.occupancy);
	if (l->consumer != NULL)
		clock_wake_at(l->consumer, s->ready);
}

bool link_try_push(struct link *l, void *item)
{
	if (l->count == l->capacity) {
		l->st.stalls++;
		l->producer_waiting = true;
		return false;
	}
	link_push(l, item);
	return true;
}

void *link_peek(const struct link *l)
{
	const struct link_slot *s;

	if (l->count == 0)
		return NULL;
	s = &l->ring[l->head];
	return clock_cycle(l->clk) >= s->ready ? s->item : NULL;
}

void *link_peek_at(const struct link *l, uint32_t k)
{
	const struct link_slot *s;

	if (k >= l->count)
		return NULL;
	s = &l->ring[ring_index(l, k)];
	return clock_cycle(l->clk) >= s->ready ? s->item : NULL;
}

cycle_t link_ready_at(const struct link *l, uint32_t k)
{
	SIM_ASSERT(k < l->count);
	return l->ring[ring_index(l, k)].ready;
}

void *link_pop_at(struct link *l, uint32_t k)
{
	void *item = link_peek_at(l, k);
	uint32_t i, j;

	SIM_ASSERT(item != NULL);
	/* Close the gap from the head's side: the items before k move one place back, keeping
	 * their order (and the ring's non-decreasing ready cycles), then the head pops. */
	for (i = ring_index(l, k), j = k; j > 0; j--) {
		uint32_t prev = i == 0 ? l->capacity - 1 : i - 1;

		l->ring[i] = l->ring[prev];
		i = prev;
	}
	l->ring[l->head].item = item;
	return link_pop(l);
}

void *link_pop(struct link *l)
{
	void *item = link_peek(l);

	SIM_ASSERT(item != NULL);
	l->ring[l->head].item = NULL;
	if (++l->head == l->capacity)
		l->head = 0;
	l->count--;
	l->st.pops++;
	stat_level_dec(&l->st.occupancy);
	if (l->producer_waiting) {
		/* Room again: let a producer that backed off retry at its next edge. */
		l->producer_waiting = false;
		if (l->producer != NULL)
			clock_wake(l->producer);
	}
	return item;
}

uint32_t link_visible(const struct link *l)
{
	cycle_t now = clock_cycle(l->clk);
	uint32_t i, k = l->head;

	for (i = 0; i < l->count && l->ring[k].ready <= now; i++)
		k = k + 1 == l->capacity ? 0 : k + 1;
	return i;
}

cycle_t link_head_ready(const struct link *l)
{
	return l->count > 0 ? l->ring[l->head].ready : CYCLE_NEVER;
}

uint32_t link_occupancy(const struct link *l)
{
	return l->count;
}

uint32_t link_capacity(const struct link *l)
{
	return l->capacity;
}

uint32_t link_latency(const struct link *l)
{
	return l->latency;
}

const char *link_name(const struct link *l)
{
	return l->name;
}

const struct link_stats *link_stats(const struct link *l)
{
	return &l->st;
}

void link_register_stats(struct link *l, struct stats *st, const char *prefix)
{
	char *name;

	name = xasprintf("%s.pushes", prefix);
	stats_counter(st, name, "items pushed into the link", &l->st.pushes);
	free(name);
	name = xasprintf("%s.pops", prefix);
	stats_counter(st, name, "items popped from the link", &l->st.pops);
	free(name);
	name = xasprintf("%s.stalls", prefix);
	stats_counter(st, name, "pushes refused because the link was full", &l->st.stalls);
	free(name);
	name = xasprintf("%s.occupancy", prefix);
	stats_level(st, name, "items in the link, in flight or waiting", &l->st.occupancy);
	free(name);
}

void link_dump(const struct link *l, FILE *out)
{
	fprintf(out, "link %s: %u/%u items, latency %u, now cycle %llu, head ready ", l->name,
		l->count, l->capacity, l->latency, (unsigned long long)clock_cycle(l->clk));
	if (l->count > 0)
		fprintf(out, "%llu", (unsigned long long)l->ring[l->head].ready);
	else
		fputs("-", out);
	fprintf(out, "%s\n", l->producer_waiting ? ", producer waiting" : "");
}

void link_check(const struct link *l)
{
	uint32_t i;

	SIM_ASSERT(l->count <= l->capacity);
	SIM_ASSERT(l->head < l->capacity);
	SIM_ASSERT(l->st.occupancy.cur == l->count);
	SIM_ASSERT(l->st.occupancy.hwm >= l->st.occupancy.cur);
	SIM_ASSERT(!l->producer_waiting || l->count == l->capacity);
	for (i = 0; i < l->count; i++) {
		uint32_t k = (l->head + i) % l->capacity;
		uint32_t prev = (k + l->capacity - 1) % l->capacity;

		SIM_ASSERT(l->ring[k].item != NULL);
		if (i > 0)
			SIM_ASSERT(l->ring[prev].ready <= l->ring[k].ready);
	}
}
