/*
 * eventq.c - the event core: a timing wheel of one-tick buckets for the near future, a coarse
 * wheel behind it, and a 4-ary min-heap for the far future.
 *
 * Models nothing of the GPU; it is the simulator's notion of time. Every other unit advances only
 * when one of its events (usually a clock-domain edge, see clock.c) comes first in this queue.
 *
 * Why three levels
 *   In gmsim almost every event is scheduled less than a microsecond ahead: clock edges one
 *   period out, timed wakes a few dozen periods out, cache and DRAM completions tens to hundreds
 *   of nanoseconds out. A heap pays O(log n) data-dependent compares for each of them, and with
 *   10^4 events pending a cache miss or two per level. A wheel indexed by tick pays O(1): the
 *   bucket is the tick, and a bitmap finds the next non-empty bucket. A one-tick wheel long enough
 *   for DRAM would be megabytes, so a short one (16 ns) is backed by a coarse wheel of 4 ns
 *   buckets (1 us in all), whose buckets are poured into the fine wheel as time reaches them; only
 *   the rare event beyond that (watchdogs, stats epochs, idle timeouts) waits in the heap. On the
 *   benchmark's gmsim-like mix this is about twice as fast as the heap alone (bench_eventq.c).
 *
 * Layout
 *   slots[]  what an event does: {fn, ctx, tick, ord, gen, next}. A slot is taken at schedule
 *            time and given back when its event fires or its dead entry is dropped, through a LIFO
 *            free list (no malloc per event). ord = prio << 56 | seq: one unsigned compare is the
 *            (priority, sequence) order of the contract.
 *   id       gen << 32 | slot. A slot's generation is bumped every time the slot is freed, so an
 *            id names one event only; a slot whose generation would wrap is retired (never reused),
 *            which keeps ids unique for the whole run, not just for 2^32 reuses.
 *   near     a bucket per tick t in [now, now + NEAR_SIZE) and priority band (near_band: bands
 *            end at WAKE, DEFAULT and CLOCK, so the common priorities do not share a bucket), at
 *            index (t % NEAR_SIZE) << 2 | band: index order is (tick, band) order. A bucket is a
 *            circular singly linked list through slots[].next, sorted by ord; near_tail[b] names
 *            its last entry, whose next is the first. Appending (the usual case: the newest seq)
 *            and taking the first entry are both O(1); only a bucket that mixes priorities of one
 *            band needs a walk. A bit per bucket in near_bits[] and a bit per near_bits[] word in
 *            near_sum[] find the next non-empty bucket from now's with a count-trailing-zeros or
 *            two.
 *   mid      MID_SIZE buckets of MID_G ticks ("coarse" tick c = tick / MID_G): bucket c % MID_SIZE
 *            holds, unsorted (FIFO), the events of coarse tick c for c in [mid_first, mid_first +
 *            MID_SIZE). mid_first = now / MID_G + NEAR_SIZE / MID_G is as far as the near wheel
 *            reaches in whole coarse ticks: every event with tick / MID_G < mid_first is in the
 *            near wheel.
 *   heap     keys[] and hslot[]: the events with tick / MID_G >= mid_first + MID_SIZE, as a 4-ary
 *            min-heap of 128-bit keys tick << 64 | ord. The array is placed so that the four
 *            children of a node share one 64-byte cache line, and child selection is branch-free.
 *
 *   edges    a clock domain's next edge (at most one per domain, eventq_edge_set) is kept in its
 *            domain's record: its key tick << 64 | ord, ord from the same sequence, and the least
 *            pending one named (edge_first). A busy domain sets an edge every cycle; in a bucket it
 *            cost a slot, a host cache line of near_tail[] (one per tick) and the bucket's bits to
 *            put and take; here a few stores and a compare with the wheels' front (perf had put
 *            4.5% of a random GDDR6 run's samples on the load of that line; doc/performance.md,
 *            step 47).
 *
 * Schedule puts an event on the lowest level that reaches its tick. Firing takes the first entry
 * of the first non-empty near bucket from now's. Moving now forward (advance) can raise
 * mid_first; then the mid buckets that fell behind it are poured into the near wheel, and the
 * heap events that came within the mid wheel's reach move into it, before the handler runs. So
 * for any one tick, every event that came down from a coarser level is in its near bucket before
 * any event is scheduled straight into it (which keeps appends the common case), and near
 * buckets are ordered by a full ord compare anyway: (tick, priority, sequence) order holds
 * whichever way an event arrived. When the near wheel is empty, the earliest event is the
 * earliest of the first non-empty mid bucket (a scan of that bucket) or the heap's top, and now
 * jumps to it when it fires.
 *
 * Invariants (eventq_check)
 *   - mid_first == now / MID_G + NEAR_SIZE / MID_G.
 *   - near entries: tick in [now, now + NEAR_SIZE), tick / MID_G < mid_first, in bucket
 *     near_bucket(tick, ord); mid entries: tick / MID_G in [mid_first, mid_first + MID_SIZE), in
 *     bucket tick / MID_G % MID_SIZE; heap keys: tick / MID_G >= mid_first + MID_SIZE. So every
 *     near event orders before every mid event, and every mid event before every heap event.
 *   - a bucket's bit is set iff its list is non-empty; a near_sum[] bit is set iff its
 *     near_bits[] word is non-zero; every list is circular; near lists are strictly increasing in
 *     ord; keys[] is a min-heap.
 *   - every entry names a distinct slot with gen != 0; a slot with fn != NULL is live, with
 *     fn == NULL is cancelled ("dead"); live + dead == entries, and the counters say so.
 *   - free slots (fn == NULL) are on the free list; entries + free + retired == slots.
 *
 * Cancel is lazy and O(1): the slot's fn is cleared and the dead entry is dropped when it comes
 * first or moves down a level. So that a pattern such as "cancel the watchdog and re-arm it
 * further out" cannot grow the queue without bound, all levels are compacted (dead entries
 * dropped, heap rebuilt in O(n)) once dead entries outnumber live ones.
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

/*
 * Near wheel span in ticks (ps): 2^14 ps = 16.4 ns covers every clock edge and short timed wakes.
 * Each tick costs 4 buckets of 4 bytes (near_tail) + 1 bit: 256 KiB, which stays in L2. Spans of
 * 2^13..2^15 measured the same; 2^16 and up were slower (more cache misses on near_tail). Must be
 * a multiple of MID_G, and 2^10 or more so that near_sum[] has a whole word.
 */
#define NEAR_BITS 14
#define NEAR_SIZE (UINT64_C(1) << NEAR_BITS)
#define NEAR_MASK (NEAR_SIZE - 1)
/* Each tick has a bucket per priority band (see near_band), so that events of one tick but
 * different priorities do not have to be sorted into one list. */
#define NEAR_BAND_BITS 2
#define NEAR_BUCKETS (NEAR_SIZE << NEAR_BAND_BITS)
#define NEAR_WORDS (NEAR_BUCKETS / 64) /* near_bits[] */
#define NEAR_SUMS (NEAR_WORDS / 64) /* near_sum[] */
/*
 * Mid wheel: buckets of 2^12 ps = 4.1 ns, 256 of them, so 1.05 us past the near wheel: every DRAM
 * completion. A bucket is poured into the near wheel every 4.1 ns of simulated time. Buckets of
 * 2^10..2^12 measured the same.
 */
#define MID_BITS 12
#define MID_G (UINT64_C(1) << MID_BITS)
#define MID_SIZE 256
#define MID_WORDS (MID_SIZE / 64)
/* How far the near wheel reaches, in mid buckets. */
#define NEAR_IN_MID (NEAR_SIZE / MID_G)
_Static_assert(NEAR_SIZE % MID_G == 0 && NEAR_SUMS >= 1 && MID_SIZE % 64 == 0,
	       "eventq: wheel sizes");

/* Children per heap node. 4 halves the depth of a binary heap for the price of one compare more
 * per level; the four children are adjacent in memory. */
#define HEAP_ARITY 4
/* Initial array sizes; both double when full. */
#define EVQ_INIT_CAP 64
/* seq occupies the low 56 bits of ord, prio the high 8 (EVQ_PRIO_MAX == 255). */
#define ORD_SEQ_BITS 56
#define ORD_SEQ_MAX ((UINT64_C(1) << ORD_SEQ_BITS) - 1)
/* slots[].next and the tail arrays: end of the free list, or an empty bucket. */
#define SLOT_NIL UINT32_MAX
/* Slot indices stop below the marker. */
#define SLOT_MAX (UINT32_MAX - 1)
/* Do not bother compacting small queues: a few dead entries cost less than a sweep. */
#define COMPACT_MIN_DEAD 64

/* tick << 64 | ord: one unsigned compare is the (tick, priority, sequence) order. */
__extension__ typedef unsigned __int128 evq_key;

struct evq_slot {
	eventq_fn *fn; /* NULL: free, or cancelled while its entry waits in the queue */
	void *ctx;
	tick_t tick;   /* when it fires; kept while in the near or mid wheel (the heap has keys) */
	uint64_t ord;  /* prio << 56 | seq; likewise */
	uint32_t gen;  /* generation of the id now (or next) using this slot; 0: retired */
	uint32_t next; /* free-list link, or the next entry of the slot's bucket */
};

/* A clock domain's pending edge: its key (tick << 64 | ord, ord from the same sequence as every
 * event's), handler and context. */
struct evq_edge {
	evq_key key;
	eventq_fn *fn;
	void *ctx;
};

struct eventq {
	tick_t now;
	struct evq_slot *slots;
	uint32_t slots_n;
	uint32_t slots_cap;
	uint32_t free_head;
	/* near wheel */
	size_t near_n;               /* entries, live or dead */
	uint32_t *near_tail;         /* NEAR_BUCKETS: last entry of each bucket, or SLOT_NIL */
	uint64_t *near_bits;         /* NEAR_WORDS: bucket non-empty */
	uint64_t near_sum[NEAR_SUMS]; /* near_bits[] word non-zero */
	/* mid wheel */
	size_t mid_n;
	uint64_t mid_first;          /* first coarse tick on the mid wheel */
	uint32_t mid_tail[MID_SIZE];
	uint64_t mid_bits[MID_WORDS];
	/* heap */
	evq_key *keys;    /* heap keys, aligned (see heap_alloc) */
	void *keys_mem;   /* what heap_alloc got from xmalloc */
	uint32_t *hslot;  /* slot of each heap node */
	size_t heap_n;
	size_t heap_cap;
	size_t live; /* entries whose slot is live */
	size_t dead; /* entries whose slot was cancelled */
	uint64_t seq;
	uint64_t fired;
	int domains;                 /* eventq_add_domain */
	/* clock-domain edges, one per domain at most, out of the wheels ("edges" under Layout) */
	struct evq_edge edge[EVQ_CLOCK_DOMAINS];
	uint32_t edge_mask;          /* bit d: domain d has an edge pending */
	uint32_t edge_first;         /* the domain of the least pending edge key (edge_mask != 0) */
	int cur_prio;                /* priority of the event firing (or the last fired) */
	tick_t horizon;              /* eventq_horizon */
	bool stop;
	bool firing;
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
 * Slots
 */

static uint32_t slot_alloc(struct eventq *q)
{
	uint32_t s = q->free_head;

	if (s != SLOT_NIL) {
		q->free_head = q->slots[s].next;
		return s;
	}
	if (q->slots_n == q->slots_cap) {
		SIM_ASSERT(q->slots_cap <= SLOT_MAX / 2);
		q->slots_cap *= 2;
		q->slots = xreallocarray(q->slots, q->slots_cap, sizeof *q->slots);
	}
	s = q->slots_n++;
	q->slots[s].gen = 1; /* ids have gen >= 1, so 0 is never a valid id */
	return s;
}

/* Gives a slot back once its entry is gone. The new generation makes the old id stale. */
static inline void slot_free(struct eventq *q, uint32_t s)
{
	struct evq_slot *sl = &q->slots[s];

	sl->fn = NULL;
	if (__builtin_expect(++sl->gen == 0, 0)) {
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

/*
 * The slot of a pending event, or NULL if the id is stale, fired, cancelled or never issued. A
 * free slot's generation is the one its next id will get, so an id carrying it was never issued;
 * its fn is NULL, which rejects it all the same.
 */
static struct evq_slot *slot_of_id(const struct eventq *q, uint64_t id)
{
	uint32_t s = (uint32_t)id;
	uint32_t gen = (uint32_t)(id >> 32);
	struct evq_slot *sl;

	if (gen == 0 || s >= q->slots_n)
		return NULL;
	sl = &q->slots[s];
	if (sl->gen != gen || sl->fn == NULL)
		return NULL;
	return sl;
}

/*
 * Drops the dead entries of the circular list ending at *tail, keeping the others in order.
 * Returns the number dropped; *tail becomes SLOT_NIL if none is left.
 */
static size_t list_sweep(struct eventq *q, uint32_t *tail)
{
	struct evq_slot *slots = q->slots;
	uint32_t t = *tail;
	uint32_t n = slots[t].next;
	uint32_t first = SLOT_NIL, last = SLOT_NIL;
	size_t dropped = 0;

	for (;;) {
		uint32_t after = slots[n].next; /* before slot_free reuses it */
		bool end = n == t;

		if (slots[n].fn == NULL) {
			slot_free(q, n);
			dropped++;
		} else {
			if (last == SLOT_NIL)
				first = n;
			else
				slots[last].next = n;
			last = n;
		}
		if (end)
			break;
		n = after;
	}
	if (last != SLOT_NIL)
		slots[last].next = first;
	*tail = last;
	q->dead -= dropped;
	return dropped;
}

/* ------------------------------------------------------------------------------------------------
 * Near wheel
 */

static inline void near_mark(struct eventq *q, size_t b)
{
	size_t w = b / 64;

	q->near_bits[w] |= UINT64_C(1) << (b % 64);
	q->near_sum[w / 64] |= UINT64_C(1) << (w % 64);
}

static inline void near_unmark(struct eventq *q, size_t b)
{
	size_t w = b / 64;

	q->near_bits[w] &= ~(UINT64_C(1) << (b % 64));
	if (q->near_bits[w] == 0)
		q->near_sum[w / 64] &= ~(UINT64_C(1) << (w % 64));
}

/*
 * The priority band of ord: bands end at the named priorities WAKE, DEFAULT and CLOCK, so the
 * common ones each have their own bucket; within a band, ord order decides.
 */
static inline size_t near_band(uint64_t ord)
{
	unsigned prio = (unsigned)(ord >> ORD_SEQ_BITS);

	return (size_t)(prio > EVQ_PRIO_WAKE) + (prio > EVQ_PRIO_DEFAULT) + (prio > EVQ_PRIO_CLOCK);
}

/* The near bucket of an event: its tick's, then its band. Bucket order is (tick, band) order. */
static inline size_t near_bucket(tick_t tick, uint64_t ord)
{
	return (size_t)(tick & NEAR_MASK) << NEAR_BAND_BITS | near_band(ord);
}

/* Inserts slot s, its tick and ord set, into its bucket at its place in ord order. */
static inline void near_insert(struct eventq *q, uint32_t s)
{
	struct evq_slot *slots = q->slots;
	size_t b = near_bucket(slots[s].tick, slots[s].ord);
	uint64_t ord = slots[s].ord;
	uint32_t t = q->near_tail[b];
	uint32_t p;

	q->near_n++;
	if (t == SLOT_NIL) {
		slots[s].next = s;
		q->near_tail[b] = s;
		near_mark(q, b);
		return;
	}
	if (slots[t].ord < ord) {
		/* After the last entry: what a schedule usually does (its seq is the newest). */
		slots[s].next = slots[t].next;
		slots[t].next = s;
		q->near_tail[b] = s;
		return;
	}
	/* Before the last entry: a lower priority value, or an event that came down from a coarser
	 * level. The walk stops at the latest at t, whose ord is greater. */
	p = t;
	while (slots[slots[p].next].ord < ord)
		p = slots[p].next;
	slots[s].next = slots[p].next;
	slots[p].next = s;
}

/* Unlinks and returns the first entry of non-empty bucket b. */
static inline uint32_t near_take_first(struct eventq *q, size_t b)
{
	struct evq_slot *slots = q->slots;
	uint32_t t = q->near_tail[b];
	uint32_t h = slots[t].next;

	if (h == t) {
		q->near_tail[b] = SLOT_NIL;
		near_unmark(q, b);
	} else {
		slots[t].next = slots[h].next;
	}
	q->near_n--;
	return h;
}

/*
 * The first non-empty bucket at or after now's, going round (the near wheel must not be empty).
 * The buckets from now's to the end of the array hold ticks now.., those before it the ticks that
 * wrapped round, which come later.
 */
static inline size_t near_next(const struct eventq *q)
{
	size_t c = (size_t)(q->now & NEAR_MASK) << NEAR_BAND_BITS;
	size_t w = c / 64;
	uint64_t m = q->near_bits[w] & (~UINT64_C(0) << (c % 64));
	size_t i;

	if (m != 0)
		return w * 64 + (size_t)__builtin_ctzll(m);
	/* Words after w, then round to the words before it and w's own low bits. */
	for (i = 0; i <= NEAR_SUMS; i++) {
		size_t k = (w / 64 + i) % NEAR_SUMS;
		uint64_t sm = q->near_sum[k];

		if (i == 0)
			sm &= (~UINT64_C(0) << (w % 64)) << 1;
		if (sm != 0) {
			size_t ww = k * 64 + (size_t)__builtin_ctzll(sm);

			return ww * 64 + (size_t)__builtin_ctzll(q->near_bits[ww]);
		}
	}
	SIM_ASSERT(!"near_next on an empty wheel");
	return 0;
}

/*
 * Drops dead entries from the front of the near wheel. Returns the slot of the earliest live near
 * event, or SLOT_NIL if there is none; *bucket is its bucket.
 */
static inline uint32_t near_front(struct eventq *q, size_t *bucket)
{
	while (q->near_n > 0) {
		size_t b = near_next(q);
		uint32_t h = q->slots[q->near_tail[b]].next;

		if (q->slots[h].fn != NULL) {
			*bucket = b;
			return h;
		}
		near_take_first(q, b);
		slot_free(q, h);
		q->dead--;
	}
	return SLOT_NIL;
}

/* Unlinks every dead entry of the near wheel. O(NEAR_WORDS + entries). */
static void near_compact(struct eventq *q)
{
	size_t w;

	for (w = 0; w < NEAR_WORDS; w++) {
		uint64_t m = q->near_bits[w];

		while (m != 0) {
			size_t b = w * 64 + (size_t)__builtin_ctzll(m);

			m &= m - 1;
			q->near_n -= list_sweep(q, &q->near_tail[b]);
			if (q->near_tail[b] == SLOT_NIL)
				near_unmark(q, b);
		}
	}
}

/* ------------------------------------------------------------------------------------------------
 * Mid wheel
 */

/* Appends slot s, its tick and ord set, to the bucket of coarse tick c (on the mid wheel). */
static inline void mid_append(struct eventq *q, uint64_t c, uint32_t s)
{
	struct evq_slot *slots = q->slots;
	size_t k = (size_t)(c % MID_SIZE);
	uint32_t t = q->mid_tail[k];

	if (t == SLOT_NIL) {
		slots[s].next = s;
		q->mid_bits[k / 64] |= UINT64_C(1) << (k % 64);
	} else {
		slots[s].next = slots[t].next;
		slots[t].next = s;
	}
	q->mid_tail[k] = s;
	q->mid_n++;
}

static void mid_unmark(struct eventq *q, size_t k)
{
	q->mid_bits[k / 64] &= ~(UINT64_C(1) << (k % 64));
}

/* Pours mid bucket k into the near wheel, dropping its dead entries. */
static void mid_pour(struct eventq *q, size_t k)
{
	struct evq_slot *slots = q->slots;
	uint32_t t = q->mid_tail[k];
	uint32_t n;

	if (t == SLOT_NIL)
		return;
	n = slots[t].next;
	for (;;) {
		uint32_t after = slots[n].next; /* before near_insert or slot_free reuses it */
		bool end = n == t;

		q->mid_n--;
		if (slots[n].fn == NULL) {
			slot_free(q, n);
			q->dead--;
		} else {
			near_insert(q, n);
		}
		if (end)
			break;
		n = after;
	}
	q->mid_tail[k] = SLOT_NIL;
	mid_unmark(q, k);
}

/* The first non-empty mid bucket from mid_first's, going round (the mid wheel must not be
 * empty). */
static size_t mid_next(const struct eventq *q)
{
	size_t c = (size_t)(q->mid_first % MID_SIZE);
	size_t i;

	for (i = 0; i <= MID_WORDS; i++) {
		size_t w = (c / 64 + i) % MID_WORDS;
		uint64_t m = q->mid_bits[w];

		if (i == 0)
			m &= ~UINT64_C(0) << (c % 64);
		if (m != 0)
			return w * 64 + (size_t)__builtin_ctzll(m);
	}
	SIM_ASSERT(!"mid_next on an empty wheel");
	return 0;
}

/*
 * Finds the earliest live mid event: returns false if the mid wheel has none, else true with its
 * tick in *tick. Its bucket is the first non-empty one, but unsorted: a scan. Dead entries on
 * the way are dropped.
 */
static bool mid_front(struct eventq *q, tick_t *tick)
{
	while (q->mid_n > 0) {
		size_t k = mid_next(q);
		uint32_t t, n;
		tick_t min = TICK_NEVER;

		q->mid_n -= list_sweep(q, &q->mid_tail[k]);
		t = q->mid_tail[k];
		if (t == SLOT_NIL) {
			mid_unmark(q, k);
			continue;
		}
		n = t;
		do {
			n = q->slots[n].next;
			if (q->slots[n].tick < min)
				min = q->slots[n].tick;
		} while (n != t);
		*tick = min;
		return true;
	}
	return false;
}

static void mid_compact(struct eventq *q)
{
	size_t k;

	for (k = 0; k < MID_SIZE; k++) {
		if (q->mid_tail[k] == SLOT_NIL)
			continue;
		q->mid_n -= list_sweep(q, &q->mid_tail[k]);
		if (q->mid_tail[k] == SLOT_NIL)
			mid_unmark(q, k);
	}
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
 * stops as soon as k orders before the smallest child. */
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
	if (q->heap_n == q->heap_cap)
		heap_alloc(q, 2 * q->heap_cap);
	heap_sift_up(q, q->heap_n++, k, slot);
}

/* Drops every dead node and rebuilds the heap bottom-up. O(heap size). */
static void heap_compact(struct eventq *q)
{
	size_t i, n = 0;

	for (i = 0; i < q->heap_n; i++) {
		uint32_t s = q->hslot[i];

		if (q->slots[s].fn == NULL) {
			slot_free(q, s);
			q->dead--;
		} else {
			q->keys[n] = q->keys[i];
			q->hslot[n] = s;
			n++;
		}
	}
	q->heap_n = n;
	if (n < 2)
		return;
	for (i = (n - 2) / HEAP_ARITY + 1; i-- > 0;)
		heap_sift_down(q, n, i, q->keys[i], q->hslot[i]);
}

/* Pops dead nodes off the top; afterwards the top (if any) is live. Returns heap_n > 0. */
static bool heap_front(struct eventq *q)
{
	while (q->heap_n > 0) {
		uint32_t s = q->hslot[0];

		if (q->slots[s].fn != NULL)
			return true;
		heap_pop(q);
		slot_free(q, s);
		q->dead--;
	}
	return false;
}

/* ------------------------------------------------------------------------------------------------
 * All levels
 */

/*
 * now has moved on far enough that the near wheel reaches coarse ticks below first (>
 * mid_first): pour the mid buckets that fell behind into the near wheel, then move the heap
 * events that came within the mid wheel's reach (or, after a jump, the near wheel's) down.
 */
static void shift(struct eventq *q, uint64_t first)
{
	uint64_t c, end = first;

	if (first - q->mid_first > MID_SIZE)
		end = q->mid_first + MID_SIZE;
	for (c = q->mid_first; c < end && q->mid_n > 0; c++)
		mid_pour(q, (size_t)(c % MID_SIZE));
	q->mid_first = first;
	while (q->heap_n > 0) {
		evq_key k = q->keys[0];
		uint32_t s = q->hslot[0];
		struct evq_slot *sl = &q->slots[s];

		c = key_tick(k) >> MID_BITS;
		if (c >= first + MID_SIZE)
			break;
		heap_pop(q);
		if (sl->fn == NULL) {
			slot_free(q, s);
			q->dead--;
			continue;
		}
		sl->tick = key_tick(k);
		sl->ord = key_ord(k);
		if (c < first)
			near_insert(q, s);
		else
			mid_append(q, c, s);
	}
}

/* Moves now forward to t (<= every pending event's tick), and events down a level if that brings
 * them within reach. */
static inline void advance(struct eventq *q, tick_t t)
{
	uint64_t first = (t >> MID_BITS) + NEAR_IN_MID;

	q->now = t;
	if (first != q->mid_first)
		shift(q, first);
}

static void compact(struct eventq *q)
{
	near_compact(q);
	mid_compact(q);
	heap_compact(q);
}

/* Finds the earliest live event beyond the near wheel: false if none, else true with its tick in
 * *tick. */
static bool far_front(struct eventq *q, tick_t *tick)
{
	if (mid_front(q, tick))
		return true;
	if (!heap_front(q))
		return false;
	*tick = key_tick(q->keys[0]);
	return true;
}

/* Runs an event already taken off the queue (a slot's or an edge): now moves to its tick. */
static inline void call(struct eventq *q, int prio, tick_t when, eventq_fn *fn, void *ctx)
{
	q->cur_prio = prio;
	advance(q, when);
	q->fired++;
	q->firing = true;
	fn(ctx, when);
	q->firing = false;
}

/* Takes the first entry s of near bucket b (live: the earliest event) and runs it. */
static inline void fire(struct eventq *q, size_t b, uint32_t s)
{
	struct evq_slot *sl = &q->slots[s];
	eventq_fn *fn = sl->fn;
	void *ctx = sl->ctx;
	tick_t when = sl->tick;
	int prio = (int)(sl->ord >> ORD_SEQ_BITS);

	near_take_first(q, b);
	/* Free the slot before the call: the handler may schedule (reusing it) or cancel its own
	 * id, which must then be stale. */
	slot_free(q, s);
	q->live--;
	call(q, prio, when, fn, ctx);
}

/* The domain of the least pending edge key (edge_mask != 0): a scan of the few domains. */
static uint32_t edge_least(const struct eventq *q)
{
	uint32_t m = q->edge_mask, best = (uint32_t)__builtin_ctz(m);

	for (m &= m - 1; m != 0; m &= m - 1) {
		uint32_t d = (uint32_t)__builtin_ctz(m);

		if (q->edge[d].key < q->edge[best].key)
			best = d;
	}
	return best;
}

/* Domain d's edge is no longer pending. */
static inline void edge_drop(struct eventq *q, uint32_t d)
{
	q->edge_mask &= ~(UINT32_C(1) << d);
	q->live--;
	if (q->edge_mask != 0 && d == q->edge_first)
		q->edge_first = edge_least(q);
}

/* Runs the least pending edge (the earliest event). */
static inline void fire_edge(struct eventq *q)
{
	uint32_t d = q->edge_first;
	const struct evq_edge *e = &q->edge[d];
	eventq_fn *fn = e->fn;
	void *ctx = e->ctx;
	tick_t when = key_tick(e->key);
	int prio = (int)(key_ord(e->key) >> ORD_SEQ_BITS);

	/* Dropped before the call: the handler may set its domain's next edge. */
	edge_drop(q, d);
	call(q, prio, when, fn, ctx);
}

/* What front() found: nothing due by the limit, a slot's event, or a domain's edge. */
enum front_kind { FRONT_NONE, FRONT_SLOT, FRONT_EDGE };

/*
 * Finds the earliest live event and, if its tick is <= limit, says which: the first entry of near
 * bucket *bucket (slot *slot), or the least pending edge. If the near wheel is empty and the
 * earliest event is on a coarser level, now jumps to its tick (it is about to fire), which brings
 * it down. An edge orders against a slot by the same key (tick, priority, sequence); every event
 * on a coarser level has a tick at or after the mid wheel's first, so an edge before that needs
 * no look there.
 */
static inline enum front_kind front(struct eventq *q, tick_t limit, size_t *bucket,
				    uint32_t *slot)
{
	uint32_t s = near_front(q, bucket);
	bool edge = q->edge_mask != 0;
	evq_key ek = edge ? q->edge[q->edge_first].key : 0;

	if (__builtin_expect(s == SLOT_NIL, 0)) {
		tick_t t;

		if (edge && (key_tick(ek) >> MID_BITS) < q->mid_first)
			return key_tick(ek) <= limit ? FRONT_EDGE : FRONT_NONE;
		if (!far_front(q, &t) || (edge && key_tick(ek) < t))
			return edge && key_tick(ek) <= limit ? FRONT_EDGE : FRONT_NONE;
		if (t > limit)
			return FRONT_NONE;
		advance(q, t);
		s = near_front(q, bucket);
	}
	if (edge && ek < ((evq_key)q->slots[s].tick << 64 | q->slots[s].ord))
		return key_tick(ek) <= limit ? FRONT_EDGE : FRONT_NONE;
	if (q->slots[s].tick > limit)
		return FRONT_NONE;
	*slot = s;
	return FRONT_SLOT;
}

/* Fires what front() found. */
static inline void fire_front(struct eventq *q, enum front_kind k, size_t b, uint32_t s)
{
	if (k == FRONT_EDGE)
		fire_edge(q);
	else
		fire(q, b, s);
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

	q->near_tail = xreallocarray(NULL, NEAR_BUCKETS, sizeof *q->near_tail);
	memset(q->near_tail, 0xff, NEAR_BUCKETS * sizeof *q->near_tail); /* SLOT_NIL */
	q->near_bits = xcalloc(NEAR_WORDS, sizeof *q->near_bits);
	memset(q->mid_tail, 0xff, sizeof q->mid_tail);
	q->mid_first = NEAR_IN_MID; /* advance(q, 0) */
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
	free(q->near_tail);
	free(q->near_bits);
	free(q->keys_mem);
	free(q->hslot);
	free(q->slots);
	free(q);
}

int eventq_firing_prio(const struct eventq *q)
{
	return q->firing ? q->cur_prio : -1;
}

int eventq_add_domain(struct eventq *q)
{
	SIM_ASSERT(q->domains < EVQ_CLOCK_DOMAINS);
	return EVQ_PRIO_CLOCK + q->domains++;
}

uint64_t eventq_schedule(struct eventq *q, tick_t when, int prio, eventq_fn *fn, void *ctx)
{
	struct evq_slot *sl;
	uint64_t ord, c;
	uint32_t s;

	SIM_ASSERT(when >= q->now);
	SIM_ASSERT(fn != NULL);
	SIM_ASSERT(prio >= 0 && prio <= EVQ_PRIO_MAX);
	SIM_ASSERT(q->seq < ORD_SEQ_MAX);

	s = slot_alloc(q);
	sl = &q->slots[s];
	sl->fn = fn;
	sl->ctx = ctx;
	ord = (uint64_t)prio << ORD_SEQ_BITS | q->seq++;
	c = when >> MID_BITS;
	if (c < q->mid_first + MID_SIZE) {
		sl->tick = when;
		sl->ord = ord;
		if (c < q->mid_first)
			near_insert(q, s);
		else
			mid_append(q, c, s);
	} else {
		heap_push(q, (evq_key)when << 64 | ord, s);
	}
	q->live++;
	return make_id(sl->gen, s);
}

/* Domain index of an edge priority (eventq_add_domain's). */
static uint32_t edge_domain(const struct eventq *q, int prio)
{
	SIM_ASSERT(prio >= EVQ_PRIO_CLOCK && prio < EVQ_PRIO_CLOCK + q->domains);
	return (uint32_t)(prio - EVQ_PRIO_CLOCK);
}

void eventq_edge_set(struct eventq *q, int prio, tick_t when, eventq_fn *fn, void *ctx)
{
	uint32_t d = edge_domain(q, prio);
	struct evq_edge *e = &q->edge[d];

	SIM_ASSERT(when >= q->now);
	SIM_ASSERT(fn != NULL);
	SIM_ASSERT(q->seq < ORD_SEQ_MAX);
	if ((q->edge_mask >> d) & 1)
		edge_drop(q, d);
	e->key = (evq_key)when << 64 | ((uint64_t)prio << ORD_SEQ_BITS | q->seq++);
	e->fn = fn;
	e->ctx = ctx;
	if (q->edge_mask == 0 || e->key < q->edge[q->edge_first].key)
		q->edge_first = d;
	q->edge_mask |= UINT32_C(1) << d;
	q->live++;
}

bool eventq_edge_cancel(struct eventq *q, int prio)
{
	uint32_t d = edge_domain(q, prio);

	if (!((q->edge_mask >> d) & 1))
		return false;
	edge_drop(q, d);
	return true;
}

bool eventq_edge_pending(const struct eventq *q, int prio)
{
	return (q->edge_mask >> edge_domain(q, prio)) & 1;
}

tick_t eventq_edge_tick(const struct eventq *q, int prio)
{
	uint32_t d = edge_domain(q, prio);

	return (q->edge_mask >> d) & 1 ? key_tick(q->edge[d].key) : TICK_NEVER;
}

bool eventq_cancel(struct eventq *q, uint64_t id)
{
	struct evq_slot *sl = slot_of_id(q, id);

	if (sl == NULL)
		return false;
	sl->fn = NULL;
	q->live--;
	q->dead++;
	if (q->dead >= COMPACT_MIN_DEAD && q->dead > q->live)
		compact(q);
	return true;
}

bool eventq_is_pending(const struct eventq *q, uint64_t id)
{
	return slot_of_id(q, id) != NULL;
}

bool eventq_step(struct eventq *q)
{
	size_t b = 0;
	uint32_t s = SLOT_NIL;
	enum front_kind k;

	SIM_ASSERT(!q->firing);
	k = front(q, TICK_NEVER, &b, &s);
	if (k == FRONT_NONE)
		return false;
	fire_front(q, k, b, s);
	return true;
}

uint64_t eventq_run_until(struct eventq *q, tick_t limit)
{
	uint64_t start = q->fired;

	SIM_ASSERT(!q->firing);
	q->stop = false;
	for (;;) {
		size_t b = 0; /* set by front() whenever it finds a slot */
		uint32_t s = SLOT_NIL;
		enum front_kind k = front(q, limit, &b, &s);

		if (k == FRONT_NONE)
			break;
		fire_front(q, k, b, s);
		if (q->stop)
			break;
	}
	/* Stopped: the simulation reached now (the events of this tick that order after the
	 * stopping one have not fired). Ran out: it reached the limit, however long ago the last
	 * event fired. */
	if (q->stop || limit == TICK_NEVER)
		q->horizon = q->now > q->horizon ? q->now : q->horizon;
	else
		q->horizon = limit > q->horizon ? limit : q->horizon;
	q->stop = false;
	return q->fired - start;
}

void eventq_advance(struct eventq *q, tick_t t)
{
	SIM_ASSERT(!q->firing && t >= q->now && eventq_next_tick(q) >= t);
	advance(q, t);
}

tick_t eventq_horizon(const struct eventq *q)
{
	return q->horizon;
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
	size_t b;
	uint32_t s = near_front(q, &b);
	tick_t t = TICK_NEVER, e;

	if (s != SLOT_NIL)
		t = q->slots[s].tick;
	else if (!far_front(q, &t))
		t = TICK_NEVER;
	if (q->edge_mask == 0)
		return t;
	e = key_tick(q->edge[q->edge_first].key);
	return e < t ? e : t;
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

/* Counts entry s as seen once and as live or dead. */
static void check_entry(const struct eventq *q, unsigned char *seen, uint32_t s, size_t *live,
			size_t *dead)
{
	SIM_ASSERT(s < q->slots_n);
	SIM_ASSERT(!seen[s]);
	seen[s] = 1;
	SIM_ASSERT(q->slots[s].gen != 0);
	if (q->slots[s].fn != NULL)
		(*live)++;
	else
		(*dead)++;
}

/* Walks the circular list ending at tail and checks its entries; returns their number. */
static size_t check_list(const struct eventq *q, unsigned char *seen, uint32_t tail, bool sorted,
			 size_t *live, size_t *dead)
{
	uint32_t p = tail;
	size_t n = 0;

	SIM_ASSERT(tail < q->slots_n);
	do {
		uint32_t e = q->slots[p].next;

		check_entry(q, seen, e, live, dead);
		SIM_ASSERT((q->slots[e].ord & ORD_SEQ_MAX) < q->seq);
		SIM_ASSERT(q->slots[e].tick >= q->now);
		if (sorted && e != tail)
			SIM_ASSERT(q->slots[q->slots[e].next].ord > q->slots[e].ord);
		n++;
		p = e;
	} while (p != tail);
	return n;
}

void eventq_check(const struct eventq *q)
{
	size_t i, live = 0, dead = 0, near = 0, mid = 0, nfree = 0, retired = 0;
	unsigned char *seen;
	uint32_t s, p;

	SIM_ASSERT(q->heap_n <= q->heap_cap);
	SIM_ASSERT(q->slots_n <= q->slots_cap);
	SIM_ASSERT(q->mid_first == (q->now >> MID_BITS) + NEAR_IN_MID);
	seen = xcalloc(q->slots_n > 0 ? q->slots_n : 1, 1);

	/* Near wheel: marks, then each bucket's list, sorted, of its own tick. */
	for (i = 0; i < NEAR_WORDS; i++)
		SIM_ASSERT(((q->near_sum[i / 64] >> (i % 64)) & 1) == (q->near_bits[i] != 0));
	for (i = 0; i < NEAR_BUCKETS; i++) {
		bool marked = (q->near_bits[i / 64] >> (i % 64)) & 1;
		uint32_t t = q->near_tail[i];

		SIM_ASSERT(marked == (t != SLOT_NIL));
		if (t == SLOT_NIL)
			continue;
		near += check_list(q, seen, t, true, &live, &dead);
		p = t;
		do {
			tick_t tk = q->slots[p].tick;

			SIM_ASSERT(near_bucket(tk, q->slots[p].ord) == i);
			SIM_ASSERT(tk - q->now < NEAR_SIZE);
			SIM_ASSERT((tk >> MID_BITS) < q->mid_first);
			p = q->slots[p].next;
		} while (p != t);
	}
	SIM_ASSERT(near == q->near_n);

	/* Mid wheel: marks, then each bucket's list, of its own coarse tick. */
	for (i = 0; i < MID_SIZE; i++) {
		bool marked = (q->mid_bits[i / 64] >> (i % 64)) & 1;
		uint32_t t = q->mid_tail[i];

		SIM_ASSERT(marked == (t != SLOT_NIL));
		if (t == SLOT_NIL)
			continue;
		mid += check_list(q, seen, t, false, &live, &dead);
		p = t;
		do {
			uint64_t c = q->slots[p].tick >> MID_BITS;

			SIM_ASSERT(c % MID_SIZE == i);
			SIM_ASSERT(c >= q->mid_first && c - q->mid_first < MID_SIZE);
			p = q->slots[p].next;
		} while (p != t);
	}
	SIM_ASSERT(mid == q->mid_n);

	/* Heap: beyond the mid wheel's reach, and a min-heap. */
	for (i = 0; i < q->heap_n; i++) {
		SIM_ASSERT((key_tick(q->keys[i]) >> MID_BITS) >= q->mid_first + MID_SIZE);
		SIM_ASSERT((key_ord(q->keys[i]) & ORD_SEQ_MAX) < q->seq);
		/* Keys are unique (seq), so a child is strictly greater than its parent. */
		if (i > 0)
			SIM_ASSERT(q->keys[i] > q->keys[(i - 1) / HEAP_ARITY]);
		check_entry(q, seen, q->hslot[i], &live, &dead);
	}
	/* Edges: of known domains, ordered with the rest by their sequence numbers, the least
	 * named. */
	SIM_ASSERT(q->domains >= 32 || (q->edge_mask >> q->domains) == 0);
	if (q->edge_mask != 0) {
		SIM_ASSERT((q->edge_mask >> q->edge_first) & 1);
		SIM_ASSERT(q->edge_first == edge_least(q));
	}
	for (i = 0; i < EVQ_CLOCK_DOMAINS; i++) {
		if (!((q->edge_mask >> i) & 1))
			continue;
		SIM_ASSERT(key_tick(q->edge[i].key) >= q->now);
		SIM_ASSERT(key_ord(q->edge[i].key) >> ORD_SEQ_BITS == EVQ_PRIO_CLOCK + i);
		SIM_ASSERT((key_ord(q->edge[i].key) & ORD_SEQ_MAX) < q->seq);
		SIM_ASSERT(q->edge[i].fn != NULL);
		live++;
	}
	SIM_ASSERT(live == q->live);
	SIM_ASSERT(dead == q->dead);

	/* Slots: every one is an entry, free, or retired. */
	for (s = q->free_head; s != SLOT_NIL; s = q->slots[s].next) {
		SIM_ASSERT(s < q->slots_n);
		SIM_ASSERT(!seen[s]);
		SIM_ASSERT(q->slots[s].fn == NULL && q->slots[s].gen != 0);
		seen[s] = 2;
		nfree++;
	}
	for (s = 0; s < q->slots_n; s++) {
		if (seen[s] == 0) {
			SIM_ASSERT(q->slots[s].gen == 0 && q->slots[s].fn == NULL);
			retired++;
		}
	}
	SIM_ASSERT(near + mid + q->heap_n + nfree + retired == q->slots_n);
	free(seen);
}
