/*
 * eventq.c - the event core: a 4-ary min-heap of timed callbacks.
 *
 * Models nothing of the GPU; it is the simulator's notion of time. Every other unit advances only
 * when one of its events (usually a clock-domain edge, see clock.c) reaches the top of this heap.
 *
 * Layout
 *   keys[]   the heap proper: one 128-bit key per node, tick << 64 | prio << 56 | seq, so that one
 *            unsigned compare is exactly the (tick, priority, sequence) order of the contract.
 *            The array is placed so that the four children of a node share one 64-byte cache
 *            line, and child selection is branch-free (random keys defeat branch prediction).
 *   hslot[]  parallel to keys[]: the slot of each node. Kept apart so compares touch only keys.
 *   slots[]  what an event does: {fn, ctx, gen, next}. A slot is taken at schedule time and given
 *            back when its event fires or its dead node is dropped, through a LIFO free list
 *            (no malloc per event).
 *   id       gen << 32 | slot. A slot's generation is bumped every time the slot is freed, so an
 *            id names one event only; a slot whose generation would wrap is retired (never reused),
 *            which keeps ids unique for the whole run, not just for 2^32 reuses.
 *
 * Firing leaves the fired node's place at the root as a hole, and the first event its handler
 * schedules is sifted down from there: one sift-down instead of a pop plus a push, and a clock edge
 * rescheduling itself a period later usually sinks a level or two. A handler that schedules
 * nothing gets an ordinary pop when it returns.
 *
 * Invariants (eventq_check)
 *   - keys[] is a min-heap; every node's tick >= now (outside a handler: no hole).
 *   - every heap node names a distinct busy slot; busy slots == heap nodes.
 *   - a busy slot with fn != NULL is live, with fn == NULL is cancelled ("dead"); live + dead ==
 *     heap size, and the counters say so.
 *   - free slots are on the free list; busy + free + retired == slots.
 *
 * Cancel is lazy and O(1): the slot's fn is cleared and the dead node is dropped when it reaches
 * the top. So that a pattern such as "cancel the watchdog and re-arm it further out" cannot grow
 * the heap without bound, the heap is compacted (dead nodes dropped, heap rebuilt in O(n)) once
 * dead nodes outnumber live ones.
 *
 * Not modelled / not supported: re-entrant stepping (a handler calling eventq_step or
 * eventq_run_until is a bug and SIM_ASSERTs), and time beyond 2^64 - 1 ps.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventq.h"
#include "log.h"

/* Children per heap node. 4 halves the depth of a binary heap for the price of one compare more
 * per level; the four children are adjacent in memory. */
#define HEAP_ARITY 4
/* Initial array sizes; both double when full. */
#define EVQ_INIT_CAP 64
/* seq occupies the low 56 bits of ord, prio the high 8 (EVQ_PRIO_MAX == 255). */
#define ORD_SEQ_BITS 56
#define ORD_SEQ_MAX ((UINT64_C(1) << ORD_SEQ_BITS) - 1)
/* slots[].next: end of the free list, and the mark of a slot whose node is in the heap. */
#define SLOT_NIL UINT32_MAX
#define SLOT_BUSY (UINT32_MAX - 1)
/* Slot indices stop below the two markers. */
#define SLOT_MAX (UINT32_MAX - 2)
/* Do not bother compacting small heaps: a few dead nodes cost less than a rebuild. */
#define COMPACT_MIN_DEAD 64

/* tick << 64 | ord: one unsigned compare is the (tick, priority, sequence) order. */
__extension__ typedef unsigned __int128 evq_key;

struct evq_slot {
	eventq_fn *fn; /* NULL: free, or cancelled while its node waits in the heap */
	void *ctx;
	uint32_t gen;  /* generation of the id now (or next) using this slot; 0: retired */
	uint32_t next; /* free-list link, or SLOT_BUSY while a heap node refers to the slot */
};

struct eventq {
	tick_t now;
	evq_key *keys;    /* heap keys, aligned (see heap_alloc) */
	void *keys_mem;   /* what heap_alloc got from xmalloc */
	uint32_t *hslot;  /* slot of each heap node */
	size_t heap_n;
	size_t heap_cap;
	struct evq_slot *slots;
	uint32_t slots_n;
	uint32_t slots_cap;
	uint32_t free_head;
	size_t live; /* heap nodes whose slot is live */
	size_t dead; /* heap nodes whose slot was cancelled */
	uint64_t seq;
	uint64_t fired;
	bool stop;
	bool firing;
	bool hole; /* node 0 is the fired event's spent node, to be reused or removed */
	const char *unit;
};

static inline tick_t key_tick(evq_key k)
{
	return (tick_t)(k >> 64);
}

static inline uint64_t key_ord(evq_key k)
{
	return (uint64_t)k;
}

/* ------------------------------------------------------------------------------------------------
 * Heap
 */

static inline size_t index_sel(size_t a, size_t b, bool take_b)
{
	return a ^ ((a ^ b) & -(size_t)take_b);
}

/*
 * Index of the smallest child of node i (and its key in *min), or n_nodes if i is a leaf. The
 * four children 4i+1..4i+4 of a full node are one cache line; a tournament of three compares picks
 * the smallest. Its outcomes feed index arithmetic, not branches: gcc turns 128-bit compares into
 * cmp/sbb/setb, whereas selecting 128-bit values makes it branch.
 */
static inline size_t heap_min_child(const evq_key *keys, size_t n_nodes, size_t i, evq_key *min)
{
	size_t c = HEAP_ARITY * i + 1;
	size_t best;
	evq_key m;

	if (c + HEAP_ARITY <= n_nodes) {
		size_t b01 = c + (keys[c + 1] < keys[c]);
		size_t b23 = c + 2 + (keys[c + 3] < keys[c + 2]);

		best = index_sel(b01, b23, keys[b23] < keys[b01]);
		*min = keys[best];
		return best;
	}
	if (c >= n_nodes)
		return n_nodes;
	best = c;
	m = keys[c];
	for (c++; c < n_nodes; c++) {
		if (keys[c] < m) {
			best = c;
			m = keys[c];
		}
	}
	*min = m;
	return best;
}

static void heap_sift_up(struct eventq *q, size_t i, evq_key k, uint32_t slot)
{
	while (i > 0) {
		size_t p = (i - 1) / HEAP_ARITY;

		if (k >= q->keys[p])
			break;
		q->keys[i] = q->keys[p];
		q->hslot[i] = q->hslot[p];
		i = p;
	}
	q->keys[i] = k;
	q->hslot[i] = slot;
}

/* Puts (k, slot) into the hole at i, which has a heap below it: the textbook sift-down, which
 * stops as soon as k orders before the smallest child. Best for a node that belongs near the
 * top. */
static void heap_sift_down(struct eventq *q, size_t n_nodes, size_t i, evq_key k, uint32_t slot)
{
	evq_key *keys = q->keys;
	uint32_t *hslot = q->hslot;

	for (;;) {
		evq_key m;
		size_t best = heap_min_child(keys, n_nodes, i, &m);

		if (best == n_nodes || m > k)
			break;
		keys[i] = m;
		hslot[i] = hslot[best];
		i = best;
	}
	keys[i] = k;
	hslot[i] = slot;
}

/*
 * The same for a node that belongs near the bottom (the last leaf, when popping). Floyd's variant:
 * the hole first sinks to a leaf along the smallest children without comparing against k, then k
 * rises from there, which saves most of the compares against k.
 */
static void heap_sift_down_deep(struct eventq *q, size_t n_nodes, size_t i, evq_key k,
				uint32_t slot)
{
	evq_key *keys = q->keys;
	uint32_t *hslot = q->hslot;
	size_t top = i;

	for (;;) {
		evq_key m;
		size_t best = heap_min_child(keys, n_nodes, i, &m);

		if (best == n_nodes)
			break;
		keys[i] = m;
		hslot[i] = hslot[best];
		i = best;
	}
	/* Rise, but not above the hole we started from. */
	while (i > top) {
		size_t p = (i - 1) / HEAP_ARITY;

		if (k >= keys[p])
			break;
		keys[i] = keys[p];
		hslot[i] = hslot[p];
		i = p;
	}
	keys[i] = k;
	hslot[i] = slot;
}

/* Removes the top node (the heap must not be empty). */
static void heap_pop(struct eventq *q)
{
	size_t last = --q->heap_n;

	if (last > 0)
		heap_sift_down_deep(q, last, 0, q->keys[last], q->hslot[last]);
}

/* The fired event's node left a hole at the root (see fire_top); close it the ordinary way. */
static void fill_hole(struct eventq *q)
{
	if (q->hole) {
		q->hole = false;
		heap_pop(q);
	}
}

/*
 * Heap arrays of cap nodes. keys[1] sits on a 64-byte boundary, so the children 4i+1..4i+4 of
 * every node fill exactly one cache line.
 */
static void heap_alloc(struct eventq *q, size_t cap)
{
	void *mem;
	uintptr_t line;
	evq_key *keys;

	SIM_ASSERT(cap < SIZE_MAX / (2 * sizeof(evq_key)));
	mem = xmalloc(cap * sizeof(evq_key) + 64);
	line = ((uintptr_t)mem + sizeof(evq_key) + 63) & ~(uintptr_t)63;
	keys = (evq_key *)(line - sizeof(evq_key));
	if (q->keys != NULL)
		memcpy(keys, q->keys, q->heap_n * sizeof *keys);
	free(q->keys_mem);
	q->keys_mem = mem;
	q->keys = keys;
	q->hslot = xreallocarray(q->hslot, cap, sizeof *q->hslot);
	q->heap_cap = cap;
}

static void heap_push(struct eventq *q, evq_key k, uint32_t slot)
{
	if (q->hole) {
		/* The first event a handler schedules takes the fired event's place. */
		q->hole = false;
		heap_sift_down(q, q->heap_n, 0, k, slot);
		return;
	}
	if (q->heap_n == q->heap_cap)
		heap_alloc(q, 2 * q->heap_cap);
	heap_sift_up(q, q->heap_n++, k, slot);
}

/* ------------------------------------------------------------------------------------------------
 * Slots
 */

static uint32_t slot_alloc(struct eventq *q)
{
	uint32_t s = q->free_head;

	if (s != SLOT_NIL) {
		q->free_head = q->slots[s].next;
	} else {
		if (q->slots_n == q->slots_cap) {
			SIM_ASSERT(q->slots_cap <= SLOT_MAX / 2);
			q->slots_cap *= 2;
			q->slots = xreallocarray(q->slots, q->slots_cap, sizeof *q->slots);
		}
		s = q->slots_n++;
		q->slots[s].gen = 1; /* ids have gen >= 1, so 0 is never a valid id */
	}
	q->slots[s].next = SLOT_BUSY;
	return s;
}

/* Gives a slot back once its heap node is gone. The new generation makes the old id stale. */
static void slot_free(struct eventq *q, uint32_t s)
{
	struct evq_slot *sl = &q->slots[s];

	sl->fn = NULL;
	sl->ctx = NULL;
	if (++sl->gen == 0) {
		/* Generation wrapped: retire the slot so that no id is ever issued twice. */
		sl->next = SLOT_NIL;
		return;
	}
	sl->next = q->free_head;
	q->free_head = s;
}

static inline uint64_t make_id(uint32_t gen, uint32_t slot)
{
	return (uint64_t)gen << 32 | slot;
}

/* The busy slot that id names, or NULL if the id is stale, cancelled-and-freed, or never issued. */
static struct evq_slot *slot_of_id(const struct eventq *q, uint64_t id)
{
	uint32_t s = (uint32_t)id;
	uint32_t gen = (uint32_t)(id >> 32);
	struct evq_slot *sl;

	if (gen == 0 || s >= q->slots_n)
		return NULL;
	sl = &q->slots[s];
	if (sl->gen != gen || sl->next != SLOT_BUSY)
		return NULL;
	return sl;
}

/* Drops every dead node and rebuilds the heap bottom-up. O(heap size). */
static void compact(struct eventq *q)
{
	size_t i, n = 0;

	fill_hole(q);
	for (i = 0; i < q->heap_n; i++) {
		uint32_t s = q->hslot[i];

		if (q->slots[s].fn == NULL) {
			slot_free(q, s);
		} else {
			q->keys[n] = q->keys[i];
			q->hslot[n] = s;
			n++;
		}
	}
	q->heap_n = n;
	q->dead = 0;
	if (n < 2)
		return;
	for (i = (n - 2) / HEAP_ARITY + 1; i-- > 0;)
		heap_sift_down(q, n, i, q->keys[i], q->hslot[i]);
}

/* Pops dead nodes off the top; afterwards the top (if any) is live. */
static void drop_dead_top(struct eventq *q)
{
	fill_hole(q);
	while (q->heap_n > 0) {
		uint32_t s = q->hslot[0];

		if (q->slots[s].fn != NULL)
			return;
		heap_pop(q);
		slot_free(q, s);
		q->dead--;
	}
}

/* ------------------------------------------------------------------------------------------------
 * Panic context
 */

static void eventq_where(const void *ctx, FILE *out)
{
	const struct eventq *q = ctx;

	fprintf(out, "tick %llu, unit %s", (unsigned long long)q->now,
		q->unit != NULL ? q->unit : "-");
}

/* ------------------------------------------------------------------------------------------------
 * Public interface
 */

struct eventq *eventq_create(void)
{
	struct eventq *q = xcalloc(1, sizeof *q);

	heap_alloc(q, EVQ_INIT_CAP);
	q->slots_cap = EVQ_INIT_CAP;
	q->slots = xreallocarray(NULL, q->slots_cap, sizeof *q->slots);
	q->free_head = SLOT_NIL;
	sim_log_attach(eventq_where, q);
	return q;
}

void eventq_destroy(struct eventq *q)
{
	if (q == NULL)
		return;
	sim_log_detach(q);
	free(q->keys_mem);
	free(q->hslot);
	free(q->slots);
	free(q);
}

uint64_t eventq_schedule(struct eventq *q, tick_t when, int prio, eventq_fn *fn, void *ctx)
{
	uint64_t ord;
	uint32_t s;

	SIM_ASSERT(when >= q->now);
	SIM_ASSERT(fn != NULL);
	SIM_ASSERT(prio >= 0 && prio <= EVQ_PRIO_MAX);
	SIM_ASSERT(q->seq < ORD_SEQ_MAX);

	s = slot_alloc(q);
	q->slots[s].fn = fn;
	q->slots[s].ctx = ctx;
	ord = (uint64_t)prio << ORD_SEQ_BITS | q->seq++;
	heap_push(q, (evq_key)when << 64 | ord, s);
	q->live++;
	return make_id(q->slots[s].gen, s);
}

bool eventq_cancel(struct eventq *q, uint64_t id)
{
	struct evq_slot *sl = slot_of_id(q, id);

	if (sl == NULL || sl->fn == NULL)
		return false;
	sl->fn = NULL;
	sl->ctx = NULL;
	q->live--;
	q->dead++;
	if (q->dead >= COMPACT_MIN_DEAD && q->dead > q->live)
		compact(q);
	return true;
}

bool eventq_is_pending(const struct eventq *q, uint64_t id)
{
	const struct evq_slot *sl = slot_of_id(q, id);

	return sl != NULL && sl->fn != NULL;
}

/* Pops the top node, which must be live, and runs it. */
static void fire_top(struct eventq *q)
{
	uint32_t s = q->hslot[0];
	eventq_fn *fn = q->slots[s].fn;
	void *ctx = q->slots[s].ctx;
	tick_t when = key_tick(q->keys[0]);

	/* The node stays as a hole at the root for the handler's first schedule (heap_push).
	 * Free the slot before the call: the handler may schedule (reusing it) or cancel its own
	 * id, which must then be stale. */
	q->hole = true;
	slot_free(q, s);
	q->live--;
	q->now = when;
	q->fired++;
	q->firing = true;
	fn(ctx, when);
	q->firing = false;
	fill_hole(q);
}

bool eventq_step(struct eventq *q)
{
	SIM_ASSERT(!q->firing);
	drop_dead_top(q);
	if (q->heap_n == 0)
		return false;
	fire_top(q);
	return true;
}

uint64_t eventq_run_until(struct eventq *q, tick_t limit)
{
	uint64_t start = q->fired;

	SIM_ASSERT(!q->firing);
	q->stop = false;
	for (;;) {
		drop_dead_top(q);
		if (q->heap_n == 0 || key_tick(q->keys[0]) > limit)
			break;
		fire_top(q);
		if (q->stop)
			break;
	}
	q->stop = false;
	return q->fired - start;
}

void eventq_stop(struct eventq *q)
{
	q->stop = true;
}

tick_t eventq_now(const struct eventq *q)
{
	return q->now;
}

tick_t eventq_next_tick(struct eventq *q)
{
	drop_dead_top(q);
	return q->heap_n > 0 ? key_tick(q->keys[0]) : TICK_NEVER;
}

size_t eventq_pending(const struct eventq *q)
{
	return q->live;
}

uint64_t eventq_fired(const struct eventq *q)
{
	return q->fired;
}

void eventq_set_unit(struct eventq *q, const char *unit)
{
	q->unit = unit;
}

const char *eventq_unit(const struct eventq *q)
{
	return q->unit;
}

void eventq_check(const struct eventq *q)
{
	/* Inside a handler node 0 may be the fired event's spent node (q->hole): not a node. */
	size_t first = q->hole ? 1 : 0;
	size_t i, live = 0, dead = 0, busy = 0, nfree = 0, retired = 0;
	unsigned char *seen;
	uint32_t s;

	SIM_ASSERT(q->heap_n <= q->heap_cap);
	SIM_ASSERT(q->slots_n <= q->slots_cap);
	SIM_ASSERT(!q->hole || (q->firing && q->heap_n >= 1));
	for (i = first; i < q->heap_n; i++) {
		uint32_t slot = q->hslot[i];

		SIM_ASSERT(key_tick(q->keys[i]) >= q->now);
		SIM_ASSERT(slot < q->slots_n);
		SIM_ASSERT(q->slots[slot].next == SLOT_BUSY);
		SIM_ASSERT(q->slots[slot].gen != 0);
		SIM_ASSERT((key_ord(q->keys[i]) & ORD_SEQ_MAX) < q->seq);
		/* Keys are unique (seq), so a child is strictly greater than its parent. */
		if (i > 0 && (i - 1) / HEAP_ARITY >= first)
			SIM_ASSERT(q->keys[i] > q->keys[(i - 1) / HEAP_ARITY]);
		if (q->slots[slot].fn != NULL)
			live++;
		else
			dead++;
	}
	SIM_ASSERT(live == q->live);
	SIM_ASSERT(dead == q->dead);
	/* Each busy slot is named by exactly one node. */
	seen = xcalloc(q->slots_n, 1);
	for (i = first; i < q->heap_n; i++) {
		SIM_ASSERT(!seen[q->hslot[i]]);
		seen[q->hslot[i]] = 1;
	}
	free(seen);
	for (s = 0; s < q->slots_n; s++) {
		if (q->slots[s].next == SLOT_BUSY)
			busy++;
		else if (q->slots[s].gen == 0)
			retired++;
	}
	SIM_ASSERT(busy == q->heap_n - first);
	for (s = q->free_head; s != SLOT_NIL; s = q->slots[s].next) {
		SIM_ASSERT(s < q->slots_n);
		SIM_ASSERT(q->slots[s].fn == NULL && q->slots[s].gen != 0);
		nfree++;
		SIM_ASSERT(nfree <= q->slots_n); /* no cycle */
	}
	SIM_ASSERT(busy + nfree + retired == q->slots_n);
}
