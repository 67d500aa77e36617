/*
 * reuse.c - the stack-distance engine (see reuse.h for the definition and the contract).
 *
 * Method (Bennett and Kruskal 1975; Almasi, Cascaval and Padua 2002): number the accesses
 * 1, 2, 3, ... and keep one MARK per distinct block, at the timestamp of its most recent
 * access. When block b is accessed again at time now, having last been accessed at time last,
 * every other block accessed in between has its mark in (last, now), and every mark in
 * (last, now) belongs to such a block, once. So
 *
 *   distance = marks in (last, now) = distinct - marks in [1, last]
 *
 * (b's own mark sits at last and all marks are below now). A Fenwick (binary indexed) tree over
 * the timestamps answers "marks in [1, last]" in O(log T), and moving b's mark from last to now
 * is two O(log T) updates. An open-addressing hash map gives each block's last timestamp.
 *
 * Fenwick leaves of 64 timestamps. A mark is one bit, so the timestamps are a bitmap and the
 * Fenwick tree is built over its 64-bit words (node w + 1 holds word w's popcount in the usual
 * Fenwick sums): marks in [1, t] = fen_prefix(t / 64) + popcount(word t / 64 up to bit t % 64).
 * Per slot that is 1 bit + 4/64 B instead of 4 B, so for 5M blocks (10M slots) bitmap and tree
 * take 1.9 MB, which stays in cache, against 40 MB for a tree of uint32_t counters; the tree is
 * also 6 levels shorter. The counts are uint32_t (a node counts at most distinct marks).
 *
 * Compaction. Timestamps grow without bound but only `distinct` of them are marked, so the
 * bitmap does not keep a slot for every access: it has `slots` slots, and when the clock
 * reaches `slots` the live marks are renumbered 1..distinct in timestamp order (which keeps
 * every future distance: only the order of the marks matters) into
 * max(2 x distinct, min_slots) slots, and the clock continues from distinct. Renumbering is
 * linear, without sorting:
 *   1. fen[w + 1] = marks in words [0, w) (a prefix sum of popcounts, over the old tree);
 *   2. every map entry's timestamp t becomes its rank, fen[t / 64 + 1] + popcount of word
 *      t / 64 up to bit t % 64;
 *   3. the bitmap is resized and set to exactly 1..distinct, and the tree rebuilt in O(words).
 * Cost: O(slots / 64 + map capacity); after it at least max(distinct, slots / 2) accesses pass
 * before the next, so the amortised cost is O(1) per access, and memory stays O(distinct
 * blocks) for any stream length.
 *
 * Results. by_dist[d] counts the accesses at distance d exactly. A distance is below the number
 * of distinct blocks, so by_dist grows (doubling) with distinct and not with the stream. The
 * hit count of any capacity and the power-of-two histogram are sums over it at query time.
 *
 * Hash map: linear probing, power-of-two capacity, Fibonacci hashing (the multiplicative
 * constant 2^64 / phi; its high bits spread consecutive block numbers, the common case of a
 * streaming sweep, evenly), at most 3/4 full, doubling when a new block would pass that. A slot
 * with pos == 0 is empty (timestamps start at 1), so every uint64_t is a valid block; blocks are
 * never removed.
 *
 * Speed. Once the footprint outgrows the host caches, the map slot and the by_dist counter are
 * one cache miss each per access and dominate (the bitmap and tree stay cached). Every access
 * defers its counter increment by DEFER accesses and prefetches the counter meanwhile (the
 * queries add the pending few in), which leaves reuse_access bound by the map miss, since the
 * next block is unknown. reuse_access_many knows the next blocks and prefetches their map
 * slots too: on bench_reuse it runs 3 to 4 times faster than a loop of reuse_access.
 *
 * Invariants (reuse_check):
 *   distinct <= now <= slots; nwords = slots / 64 + 1;
 *   the set bits are exactly the map's timestamps (so none at 0 or above now), one per entry,
 *   and the tree agrees with the words' popcounts;
 *   the map holds exactly distinct entries, each findable by probing from its hash, and is at
 *   most 3/4 full;
 *   distinct <= by_dist_cap, by_dist[d] == 0 for d >= distinct, every pending distance is
 *   REUSE_COLD or below distinct, and sum(by_dist) + finite pending + distinct == accesses.
 *
 * Not modelled: see reuse.h (associativity, other policies, writes, timing).
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "log.h"
#include "reuse.h"

/* Initial hash map capacity: 64 slots (1 KiB); it doubles as blocks arrive. */
#define MAP_MIN_CAP 64u
/* Initial by_dist length; it doubles as blocks arrive. */
#define BY_DIST_MIN 64u
/* 2^64 / golden ratio, odd: Knuth's multiplicative hash. */
#define FIB_MUL 0x9e3779b97f4a7c15ull
/* Every access counts its distance DEFER accesses late, after prefetching the counter, and
 * reuse_access_many also prefetches the map slot of the access MANY_AHEAD ahead. Chosen on
 * bench_reuse (2-core Xeon VM, reuse_access_many): 16 / 8 ran at 12-13 M accesses/s, 8 / 4 at
 * 7.6, and 32 / 16 or 64 / 32 were no faster (9-12, within the noise of a shared machine).
 * DEFER is a power of two, so accesses % DEFER is a mask. */
#define MANY_AHEAD 16
#define DEFER 8

struct reuse_slot {
	uint64_t block;
	uint64_t pos;      /* timestamp of the block's last access; 0 = empty slot */
};

struct reuse {
	/* Hash map block -> last timestamp. */
	struct reuse_slot *map;
	size_t map_cap;            /* power of two */
	unsigned map_shift;        /* 64 - log2(map_cap) */
	/* Marks: bit t of bits[] (word t / 64, bit t % 64) is timestamp t, for t in 0..slots
	 * (bit 0 is never set). fen[1..nwords] is a Fenwick tree over the words' popcounts:
	 * node w + 1 stands for word w. */
	uint64_t *bits;
	uint32_t *fen;
	uint64_t nwords;           /* slots / 64 + 1 */
	uint64_t slots;
	uint64_t now;              /* timestamp of the latest access; 0 before the first */
	uint64_t min_slots;
	/* Exact counts per finite distance. */
	uint64_t *by_dist;
	uint64_t by_dist_cap;
	/* The distances of the last DEFER accesses, not yet in by_dist (REUSE_COLD: nothing to
	 * count); access number a (from 0) sits at pending[a % DEFER]. */
	uint64_t pending[DEFER];
	uint64_t accesses;
	uint64_t distinct;
	uint64_t compactions;
};

/* ---------------------------------------------------------------------------------------------
 * Marks: a bitmap with a Fenwick tree over its words
 */

static inline uint64_t lowbit(uint64_t i)
{
	return i & (~i + 1);
}

/* Sum of fen[1..i]: the marks in words [0, i). */
static inline uint64_t fen_prefix(const uint32_t *fen, uint64_t i)
{
	uint64_t s = 0;

	for (; i != 0; i &= i - 1)
		s += fen[i];
	return s;
}

static inline void fen_inc(uint32_t *fen, uint64_t n, uint64_t i)
{
	for (; i <= n; i += lowbit(i))
		fen[i]++;
}

static inline void fen_dec(uint32_t *fen, uint64_t n, uint64_t i)
{
	for (; i <= n; i += lowbit(i))
		fen[i]--;
}

/* Bits 0..b of a word (b in 0..63). */
static inline uint64_t mask_upto(uint64_t b)
{
	return ~0ull >> (63 - b);
}

/* Marks at timestamps [1, t]. */
static inline uint64_t marks_upto(const struct reuse *r, uint64_t t)
{
	return fen_prefix(r->fen, t >> 6) +
	       (uint64_t)bits_pop64(r->bits[t >> 6] & mask_upto(t & 63));
}

static inline void mark_set(struct reuse *r, uint64_t t)
{
	r->bits[t >> 6] |= 1ull << (t & 63);
	fen_inc(r->fen, r->nwords, (t >> 6) + 1);
}

static inline void mark_clear(struct reuse *r, uint64_t t)
{
	r->bits[t >> 6] &= ~(1ull << (t & 63));
	fen_dec(r->fen, r->nwords, (t >> 6) + 1);
}

/* Builds fen[1..n] from the popcounts of bits[0..n) in O(n): each node adds itself into its
 * parent once, in increasing order, after its own children have. */
static void fen_build(uint32_t *fen, const uint64_t *bits, uint64_t n)
{
	uint64_t i;

	for (i = 1; i <= n; i++)
		fen[i] = bits_pop64(bits[i - 1]);
	for (i = 1; i <= n; i++) {
		uint64_t j = i + lowbit(i);

		if (j <= n)
			fen[j] += fen[i];
	}
}

/* Sets marks at exactly timestamps 1..d (d < 64 x n) in bits[0..n). */
static void bits_fill_prefix(uint64_t *bits, uint64_t n, uint64_t d)
{
	uint64_t w;

	for (w = 0; w < n; w++) {
		uint64_t lo = w * 64, first = lo > 1 ? lo : 1, last = lo + 63 < d ? lo + 63 : d;

		bits[w] = first > last ? 0 :
			  mask_upto(last - lo) & ~((1ull << (first - lo)) - 1);
	}
}

/* Allocates marks for timestamps 0..slots with marks at exactly 1..d. */
static void marks_alloc(struct reuse *r, uint64_t slots, uint64_t d)
{
	uint64_t n = slots / 64 + 1;

	SIM_ASSERT(n < SIZE_MAX / sizeof *r->bits);
	r->bits = xreallocarray(r->bits, (size_t)n, sizeof *r->bits);
	r->fen = xreallocarray(r->fen, (size_t)n + 1, sizeof *r->fen);
	r->fen[0] = 0;
	r->nwords = n;
	r->slots = slots;
	bits_fill_prefix(r->bits, n, d);
	fen_build(r->fen, r->bits, n);
}

/* ---------------------------------------------------------------------------------------------
 * Hash map
 */

static inline size_t map_home(const struct reuse *r, uint64_t block)
{
	return (size_t)((block * FIB_MUL) >> r->map_shift);
}

/* The slot holding block, or the empty slot where it would go. The map is never full. */
static inline struct reuse_slot *map_find(const struct reuse *r, uint64_t block)
{
	size_t mask = r->map_cap - 1;
	size_t i = map_home(r, block);

	for (;;) {
		struct reuse_slot *s = &r->map[i];

		if (s->pos == 0 || s->block == block)
			return s;
		i = (i + 1) & mask;
	}
}

static unsigned log2_size(size_t v)
{
	unsigned n = 0;

	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

static void map_alloc(struct reuse *r, size_t cap)
{
	r->map = xcalloc(cap, sizeof *r->map);
	r->map_cap = cap;
	r->map_shift = 64 - log2_size(cap);
}

/* Doubles the map; timestamps move with their blocks. */
static void map_grow(struct reuse *r)
{
	struct reuse_slot *old = r->map;
	size_t old_cap = r->map_cap, i;

	SIM_ASSERT(old_cap <= SIZE_MAX / 2 / sizeof *old);
	map_alloc(r, old_cap * 2);
	for (i = 0; i < old_cap; i++) {
		if (old[i].pos != 0)
			*map_find(r, old[i].block) = old[i];
	}
	free(old);
}

/* ---------------------------------------------------------------------------------------------
 * Compaction
 */

/* Renumbers the live marks 1..distinct in timestamp order into max(2 x distinct, min_slots)
 * slots (see the file comment). */
static void reuse_compact(struct reuse *r)
{
	uint64_t d = r->distinct, n = r->nwords, w, acc = 0, want;
	size_t k;

	/* 1. fen[w + 1] = marks in words [0, w): the rank base of word w. */
	for (w = 0; w < n; w++) {
		r->fen[w + 1] = (uint32_t)acc;
		acc += (uint64_t)bits_pop64(r->bits[w]);
	}
	SIM_ASSERT(acc == d);
	/* 2. Every block's timestamp becomes its mark's rank. */
	for (k = 0; k < r->map_cap; k++) {
		uint64_t t = r->map[k].pos;

		if (t != 0)
			r->map[k].pos = r->fen[(t >> 6) + 1] +
				(uint64_t)bits_pop64(r->bits[t >> 6] & mask_upto(t & 63));
	}
	/* 3. Fresh marks at 1..d. */
	want = 2 * d > r->min_slots ? 2 * d : r->min_slots;
	marks_alloc(r, want, d);
	r->now = d;
	r->compactions++;
}

/* ---------------------------------------------------------------------------------------------
 * Engine
 */

struct reuse *reuse_create_sized(size_t min_slots)
{
	struct reuse *r;
	size_t k;

	SIM_ASSERT(min_slots >= 1 && min_slots < SIZE_MAX / 2);
	r = xcalloc(1, sizeof *r);
	map_alloc(r, MAP_MIN_CAP);
	r->min_slots = min_slots;
	marks_alloc(r, min_slots, 0);
	r->by_dist_cap = BY_DIST_MIN;
	r->by_dist = xcalloc(BY_DIST_MIN, sizeof *r->by_dist);
	for (k = 0; k < DEFER; k++)
		r->pending[k] = REUSE_COLD;
	return r;
}

struct reuse *reuse_create(void)
{
	return reuse_create_sized(REUSE_MIN_SLOTS);
}

void reuse_destroy(struct reuse *r)
{
	if (r == NULL)
		return;
	free(r->map);
	free(r->bits);
	free(r->fen);
	free(r->by_dist);
	free(r);
}

/* A block not seen before: claims its slot (growing the map first if it would pass 3/4 full)
 * and makes room in by_dist for the distances a new block makes possible. Returns the slot. */
static struct reuse_slot *reuse_add_block(struct reuse *r, struct reuse_slot *s, uint64_t block)
{
	SIM_ASSERT(r->distinct < UINT32_MAX);
	if ((r->distinct + 1) * 4 > (uint64_t)r->map_cap * 3) {
		map_grow(r);
		s = map_find(r, block);
	}
	s->block = block;
	r->distinct++;
	if (r->distinct > r->by_dist_cap) {
		uint64_t cap = r->by_dist_cap * 2;

		r->by_dist = xreallocarray(r->by_dist, (size_t)cap, sizeof *r->by_dist);
		memset(r->by_dist + r->by_dist_cap, 0,
		       (size_t)(cap - r->by_dist_cap) * sizeof *r->by_dist);
		r->by_dist_cap = cap;
	}
	return s;
}

/* One access. Its distance goes into the pending ring, and the distance it displaces, from
 * DEFER accesses ago, into by_dist, whose counter was prefetched then. A pending distance is
 * below the distinct count of its time, so by_dist, which only grows, still holds it. */
static inline uint64_t reuse_step(struct reuse *r, uint64_t block)
{
	struct reuse_slot *s;
	uint64_t d, *p;

	if (r->now == r->slots)
		reuse_compact(r);
	r->now++;
	s = map_find(r, block);
	if (s->pos == 0) {
		s = reuse_add_block(r, s, block);
		d = REUSE_COLD;
	} else {
		d = r->distinct - marks_upto(r, s->pos);
		mark_clear(r, s->pos);
		__builtin_prefetch(&r->by_dist[d], 1);
	}
	mark_set(r, r->now);
	s->pos = r->now;
	p = &r->pending[r->accesses % DEFER];
	if (*p != REUSE_COLD)
		r->by_dist[*p]++;
	*p = d;
	r->accesses++;
	return d;
}

uint64_t reuse_access(struct reuse *r, uint64_t block)
{
	return reuse_step(r, block);
}

void reuse_access_many(struct reuse *r, const uint64_t *blocks, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		/* A hint only: a map that grows or a block that moves before then costs a wasted
		 * prefetch, never a wrong answer. */
		if (i + MANY_AHEAD < n)
			__builtin_prefetch(&r->map[map_home(r, blocks[i + MANY_AHEAD])]);
		reuse_step(r, blocks[i]);
	}
}

uint64_t reuse_accesses(const struct reuse *r)
{
	return r->accesses;
}

uint64_t reuse_cold(const struct reuse *r)
{
	return r->distinct;
}

uint64_t reuse_distinct(const struct reuse *r)
{
	return r->distinct;
}

uint64_t reuse_compactions(const struct reuse *r)
{
	return r->compactions;
}

uint64_t reuse_hits_at(const struct reuse *r, uint64_t capacity_blocks)
{
	uint64_t lim = capacity_blocks < r->distinct ? capacity_blocks : r->distinct;
	uint64_t hits = 0, d;
	size_t k;

	for (d = 0; d < lim; d++)
		hits += r->by_dist[d];
	for (k = 0; k < DEFER; k++)
		hits += r->pending[k] < capacity_blocks; /* REUSE_COLD never is */
	return hits;
}

double reuse_hit_rate(const struct reuse *r, uint64_t capacity_blocks)
{
	if (r->accesses == 0)
		return NAN;
	return (double)reuse_hits_at(r, capacity_blocks) / (double)r->accesses;
}

/* The power-of-two bucket of a finite distance: 0 for 0, else its bit length. */
static size_t hist_bucket(uint64_t d)
{
	return d == 0 ? 0 : (size_t)(64 - __builtin_clzll(d));
}

size_t reuse_histogram(const struct reuse *r, uint64_t *buckets, size_t max)
{
	uint64_t h[REUSE_HIST_BUCKETS] = { 0 };
	size_t n = 0, k;
	uint64_t d;

	for (d = 0; d < r->distinct; d++) {
		if (r->by_dist[d] == 0)
			continue;
		k = hist_bucket(d);
		h[k] += r->by_dist[d];
		if (k + 1 > n)
			n = k + 1;
	}
	for (k = 0; k < DEFER; k++) {
		size_t b;

		if (r->pending[k] == REUSE_COLD)
			continue;
		b = hist_bucket(r->pending[k]);
		h[b]++;
		if (b + 1 > n)
			n = b + 1;
	}
	for (k = 0; k < n && k < max; k++)
		buckets[k] = h[k];
	return n;
}

void reuse_check(const struct reuse *r)
{
	uint64_t *owners;
	uint64_t w, marks = 0, entries = 0, sum = 0, i;
	size_t k;

	SIM_ASSERT(r->now <= r->slots && r->distinct <= r->now);
	SIM_ASSERT(r->slots >= r->min_slots && r->nwords == r->slots / 64 + 1);
	SIM_ASSERT(r->map_cap >= MAP_MIN_CAP && (r->map_cap & (r->map_cap - 1)) == 0);
	SIM_ASSERT(r->distinct * 4 <= (uint64_t)r->map_cap * 3);
	/* The blocks' timestamps, as a bitmap of their own. */
	owners = xcalloc((size_t)r->nwords, sizeof *owners);
	for (k = 0; k < r->map_cap; k++) {
		const struct reuse_slot *s = &r->map[k];

		if (s->pos == 0)
			continue;
		entries++;
		SIM_ASSERT(s->pos <= r->now);
		SIM_ASSERT(map_find(r, s->block) == s);
		SIM_ASSERT((owners[s->pos >> 6] & (1ull << (s->pos & 63))) == 0);
		owners[s->pos >> 6] |= 1ull << (s->pos & 63);
	}
	SIM_ASSERT(entries == r->distinct);
	/* Marks are exactly those timestamps (so none at 0 or above now), and every Fenwick node
	 * agrees with the popcounts. */
	for (w = 0; w < r->nwords; w++) {
		uint64_t pop = (uint64_t)bits_pop64(r->bits[w]);

		SIM_ASSERT(r->bits[w] == owners[w]);
		SIM_ASSERT(fen_prefix(r->fen, w + 1) - fen_prefix(r->fen, w) == pop);
		marks += pop;
	}
	SIM_ASSERT(marks == r->distinct);
	free(owners);
	SIM_ASSERT(r->distinct <= r->by_dist_cap);
	for (i = 0; i < r->by_dist_cap; i++) {
		SIM_ASSERT(i < r->distinct || r->by_dist[i] == 0);
		sum += r->by_dist[i];
	}
	for (k = 0; k < DEFER; k++) {
		SIM_ASSERT(r->pending[k] == REUSE_COLD || r->pending[k] < r->distinct);
		SIM_ASSERT(r->pending[k] == REUSE_COLD || k < r->accesses);
		sum += r->pending[k] != REUSE_COLD;
	}
	SIM_ASSERT(sum + r->distinct == r->accesses);
}

/* ---------------------------------------------------------------------------------------------
 * Capacity lists
 */

/* Parses one entry [p, end) into *v; returns NULL on success, else the reason. */
static const char *parse_one(const char *p, const char *end, uint64_t *v)
{
	static const char bad[] = "expected a size such as 128K, 4M or 40M";
	uint64_t x = 0;
	unsigned shift = 0;

	if (p == end || *p < '0' || *p > '9')
		return bad;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		uint64_t dig = (uint64_t)(*p - '0');

		if (x > (UINT64_MAX - dig) / 10)
			return "larger than 2^64 - 1 bytes";
		x = x * 10 + dig;
	}
	if (p < end) {
		switch (*p) {
		case 'K': case 'k': shift = 10; p++; break;
		case 'M': case 'm': shift = 20; p++; break;
		case 'G': case 'g': shift = 30; p++; break;
		default: break;
		}
	}
	if (p < end && *p == 'B')
		p++;
	if (p != end)
		return bad;
	if (x > (UINT64_MAX >> shift))
		return "larger than 2^64 - 1 bytes";
	if (x == 0)
		return "a capacity must be at least one byte";
	*v = x << shift;
	return NULL;
}

int reuse_parse_capacities(const char *what, const char *list, uint64_t **out, size_t *n,
			   struct sim_err *err)
{
	const char *pre = what != NULL ? what : "", *sep = what != NULL ? ": " : "";
	const char *p = list, *why;
	uint64_t *v;
	size_t count = 1, i = 0;

	SIM_ASSERT(list != NULL && out != NULL && n != NULL);
	*out = NULL;
	*n = 0;
	if (*list == '\0')
		return sim_err_set(err, NULL, 0, "%s%sexpected a size such as 128K, 4M or 40M, "
				   "got nothing", pre, sep);
	for (p = list; *p != '\0'; p++)
		count += *p == ',';
	v = xreallocarray(NULL, count, sizeof *v);
	for (p = list;; p++) {
		const char *end = strchr(p, ',');

		if (end == NULL)
			end = p + strlen(p);
		if (end == p) {
			free(v);
			return sim_err_set(err, NULL, 0, "%s%s\"%s\": empty entry; expected sizes "
					   "separated by single commas, such as 128K,4M,40M",
					   pre, sep, list);
		}
		why = parse_one(p, end, &v[i]);
		if (why != NULL) {
			free(v);
			return sim_err_set(err, NULL, 0, "%s%s\"%.*s\": %s", pre, sep,
					   (int)(end - p), p, why);
		}
		i++;
		if (*end == '\0')
			break;
		p = end;
	}
	SIM_ASSERT(i == count);
	*out = v;
	*n = count;
	return 0;
}
