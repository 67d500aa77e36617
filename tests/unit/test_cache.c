/*
 * test_cache.c - the cache unit (sim/mem/cache.c, cache_repl.c), every expectation worked by
 * hand: hit / sector-miss / line-miss sequences on a 4-set 2-way cache, LRU against FIFO on one
 * access order, random victims against GSL's mt19937 drawn directly, PLRU tree states step by
 * step (with a reserved way), reserved lines never evicted and a fully reserved set refusing
 * allocation, the byte masks of a dirty eviction, write without fetch then reads of written and
 * unwritten bytes, linear against XOR indexing on strided sweeps, a 96-set (48 KB) cache, line
 * sizes from 16 to 256 B, flush iteration, the hash index of a 64-way cache against a reference
 * model over 20 k random steps, statistics, every geometry error message, the field
 * table through the loader, and contract violations. cache_check runs after every step.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "unit.h"

#include "cache.h"
#include "cfg.h"
#include "stats.h"

/* ---------------------------------------------------------------------------------------------
 * Helpers
 */

#define LINE 128u
/* Byte address of line n (128 B lines). */
#define L(n) ((addr_t)(n) * LINE)

static struct cache_params params(uint32_t size_kb, uint32_t line, uint32_t sector,
				  uint32_t assoc, enum cache_index index, enum cache_repl repl)
{
	struct cache_params p;

	memset(&p, 0, sizeof p);
	p.size_kb = size_kb;
	p.line_bytes = line;
	p.sector_bytes = sector;
	p.assoc = assoc;
	p.index = index;
	p.replacement = repl;
	return p;
}

/* 1 KB of 128 B lines in 32 B sectors: 4 sets x 2 ways unless assoc says otherwise. */
static struct cache *mk(uint32_t assoc, enum cache_index index, enum cache_repl repl,
			uint64_t seed)
{
	struct cache_params p = params(1, LINE, 32, assoc, index, repl);
	struct cache *c = cache_create(&p, seed, NULL, "t");

	cache_check(c);
	return c;
}

static struct cache_bytes bytes(uint32_t off, uint32_t len)
{
	struct cache_bytes b;

	memset(&b, 0, sizeof b);
	return *cache_bytes_set(&b, off, len);
}

/* Every cache call below goes through one of these, so that cache_check runs after each step. */
static enum cache_outcome acc(struct cache *c, addr_t a, uint32_t sectors)
{
	struct cache_lookup lk;
	enum cache_outcome o = cache_access(c, a, sectors, NULL, &lk);

	cache_check(c);
	return o;
}

static struct cache_lookup probe(struct cache *c, addr_t a, uint32_t sectors,
				 const struct cache_bytes *b)
{
	struct cache_lookup lk;

	cache_probe(c, a, sectors, b, &lk);
	cache_check(c);
	return lk;
}

static int alloc(struct cache *c, addr_t a, uint32_t pending, struct cache_line_info *v)
{
	struct cache_line_info tmp;
	int way = cache_allocate(c, a, pending, v != NULL ? v : &tmp);

	cache_check(c);
	return way;
}

static void fill(struct cache *c, addr_t a, uint32_t sectors)
{
	cache_fill(c, a, sectors);
	cache_check(c);
}

static void reserve(struct cache *c, addr_t a, uint32_t sectors)
{
	cache_reserve(c, a, sectors);
	cache_check(c);
}

static void wr(struct cache *c, addr_t a, uint32_t off, uint32_t len)
{
	struct cache_bytes b = bytes(off, len);

	cache_write(c, a, &b);
	cache_check(c);
}

static void clean(struct cache *c, addr_t a, uint32_t sectors)
{
	cache_clean(c, a, sectors);
	cache_check(c);
}

static void touch(struct cache *c, addr_t a)
{
	assert_true(cache_touch(c, a));
	cache_check(c);
}

static struct cache_line_info info(struct cache *c, addr_t a)
{
	struct cache_line_info l;

	cache_line(c, a, &l);
	return l;
}

/* cache_dump's text (the caller frees it). */
static char *dump_text(const struct cache *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cache_dump(c, f);
	fclose(f);
	return buf;
}

static const char *tree(struct cache *c, uint32_t set)
{
	static char buf[64];

	return cache_repl_state(c, set, buf, sizeof buf);
}

/* ---------------------------------------------------------------------------------------------
 * Hits and misses
 */

/* 4 sets x 2 ways, linear: line n is in set n % 4. */
/* cache_fill_at, given the index cache_line_at names for the line's set and way (a line miss:
 * cache_allocate's way; a sector miss: the lookup's), leaves each line as cache_fill does. */
static void test_fill_at(void **state)
{
	struct cache *a = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	struct cache *b = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	struct cache_line_info la, lb;
	uint32_t n;

	(void)state;
	for (n = 0; n < 8; n++) {
		struct cache_lookup lk = probe(b, L(n), 0xf, NULL);
		int way;

		assert_int_equal(lk.outcome, CACHE_LINE_MISS);
		way = alloc(b, L(n), 0x5, NULL);
		assert_int_equal(alloc(a, L(n), 0x5, NULL), way);
		assert_int_equal(probe(b, L(n), 0x5, NULL).way, way);
		fill(a, L(n), 0x1);
		cache_fill_at(b, cache_line_at(b, lk.set, (uint32_t)way), L(n), 0x1);
		cache_check(b);
	}
	/* the lines' other pending sector, then a sector miss on a present line */
	for (n = 0; n < 8; n++) {
		struct cache_lookup lk = probe(b, L(n), 0x2, NULL);

		assert_int_equal(lk.outcome, CACHE_SECTOR_MISS);
		fill(a, L(n), 0x4);
		cache_fill_at(b, cache_line_at(b, lk.set, (uint32_t)lk.way), L(n), 0x4);
		reserve(a, L(n), 0x2);
		reserve(b, L(n), 0x2);
		fill(a, L(n), 0x2);
		cache_fill_at(b, cache_line_at(b, lk.set, (uint32_t)lk.way), L(n), 0x2);
		cache_check(b);
		assert_true(cache_line(a, L(n), &la));
		assert_true(cache_line(b, L(n), &lb));
		assert_int_equal(la.way, lb.way);
		assert_int_equal(lb.valid, 0x7);
		assert_int_equal(lb.pending, 0);
		assert_int_equal(la.valid, lb.valid);
		assert_int_equal(la.pending, lb.pending);
	}
	expect_assert_failure(cache_line_at(b, 4, 0)); /* 4 sets */
	expect_assert_failure(cache_line_at(b, 0, 2)); /* 2 ways */
	cache_destroy(a);
	cache_destroy(b);
}

static void test_hit_miss_sequence(void **state)
{
	struct cache *c = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	const struct cache_stats *st = cache_stats(c);
	struct cache_line_info v;
	struct cache_lookup lk;

	(void)state;
	assert_int_equal(cache_geom(c)->sets, 4);
	assert_int_equal(cache_geom(c)->assoc, 2);
	assert_int_equal(cache_geom(c)->sectors, 4);
	assert_int_equal(cache_geom(c)->full_mask, 0xf);
	assert_int_equal(cache_set_of(c, L(5) + 127), 1);

	/* 1: load sector 0 of line 0: line miss; the MSHR allocates with sector 0 pending. */
	assert_int_equal(acc(c, L(0), 0x1), CACHE_LINE_MISS);
	assert_int_equal(alloc(c, L(0), 0x1, &v), 0);
	assert_false(v.present);
	/* 2: the same sector again before the fill: a sector miss the MSHR can merge. */
	lk = probe(c, L(0) + 8, 0x1, NULL);
	assert_int_equal(lk.outcome, CACHE_SECTOR_MISS);
	assert_int_equal(lk.set, 0);
	assert_int_equal(lk.way, 0);
	assert_int_equal(lk.miss, 0x1);
	assert_int_equal(lk.pending, 0x1);
	fill(c, L(0), 0x1);
	/* 3: hit, any byte of the sector. */
	assert_int_equal(acc(c, L(0) + 31, 0x1), CACHE_HIT);
	/* 4: sectors 0 and 1: sector 1 is missing. */
	lk = probe(c, L(0), 0x3, NULL);
	assert_int_equal(lk.outcome, CACHE_SECTOR_MISS);
	assert_int_equal(lk.hit, 0x1);
	assert_int_equal(lk.miss, 0x2);
	assert_int_equal(lk.pending, 0);
	assert_int_equal(acc(c, L(0), 0x3), CACHE_SECTOR_MISS);
	reserve(c, L(0), 0x2);
	fill(c, L(0), 0x2);
	assert_int_equal(acc(c, L(0), 0x3), CACHE_HIT);
	/* 5: line 4 is in set 0 too: line miss, second way. */
	assert_int_equal(acc(c, L(4), 0xf), CACHE_LINE_MISS);
	assert_int_equal(alloc(c, L(4), 0xf, &v), 1);
	assert_false(v.present);
	fill(c, L(4), 0xf);
	assert_int_equal(acc(c, L(4), 0x8), CACHE_HIT);
	/* 6: line 1 is in set 1: a miss that evicts nothing. */
	assert_int_equal(acc(c, L(1), 0x4), CACHE_LINE_MISS);
	lk = probe(c, L(1), 0x4, NULL);
	assert_int_equal(lk.set, 1);
	assert_int_equal(lk.way, -1);
	assert_int_equal(lk.miss, 0x4);

	assert_int_equal(st->accesses, 7);
	assert_int_equal(st->hits, 3);
	assert_int_equal(st->sector_misses, 1);
	assert_int_equal(st->line_misses, 3);
	assert_int_equal(st->evictions, 0);
	cache_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * Replacement
 */

/* Set 0 of the 4 x 2 cache: A = line 0, B = line 4, C = line 8. A, B inserted, A used again.
 * LRU evicts B (least recently used); FIFO evicts A (inserted first). */
static void test_lru_vs_fifo(void **state)
{
	struct cache_line_info v;
	struct cache *lru = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	struct cache *fifo = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_FIFO, 1);
	struct cache *cs[2] = { lru, fifo };
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		assert_int_equal(alloc(cs[i], L(0), 0, NULL), 0);
		fill(cs[i], L(0), 0xf);
		assert_int_equal(alloc(cs[i], L(4), 0, NULL), 1);
		fill(cs[i], L(4), 0xf);
		assert_int_equal(acc(cs[i], L(0), 0x1), CACHE_HIT);
	}
	assert_int_equal(alloc(lru, L(8), 0, &v), 1);
	assert_true(v.present);
	assert_int_equal(v.addr, L(4));
	assert_int_equal(v.way, 1);
	assert_int_equal(alloc(fifo, L(8), 0, &v), 0);
	assert_true(v.present);
	assert_int_equal(v.addr, L(0));
	/* Stamps: A inserted 1, B inserted 2, A used 3, C inserted 4. Next: LRU has A (used 3) and
	 * C (4): A goes. FIFO has C (way 0, inserted 4) and B (inserted 2): B goes. */
	assert_int_equal(alloc(lru, L(12), 0, &v), 0);
	assert_int_equal(v.addr, L(0));
	assert_int_equal(alloc(fifo, L(12), 0, &v), 1);
	assert_int_equal(v.addr, L(4));
	assert_string_equal(tree(lru, 0), "");
	cache_destroy(lru);
	cache_destroy(fifo);
}

/* One set of 8 ways (1 KB / 128 B / 8): once full, each allocation's victim is GSL's
 * mt19937 draw uniform_int(8) for the seed, in order. */
static void victims(uint64_t seed, uint32_t *out, int n)
{
	struct cache *c = mk(8, CACHE_INDEX_LINEAR, CACHE_REPL_RANDOM, seed);
	struct cache_line_info v;
	int i;

	for (i = 0; i < 8; i++)
		assert_int_equal(alloc(c, L(i), 0, NULL), i);
	for (i = 0; i < n; i++) {
		out[i] = (uint32_t)alloc(c, L(100 + i), 0, &v);
		assert_true(v.present);
	}
	assert_int_equal(cache_stats(c)->evictions, n);
	cache_destroy(c);
}

static void test_random_deterministic(void **state)
{
	enum { N = 64 };
	uint32_t a[N], b[N], d[N];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	int i, differ = 0;

	(void)state;
	victims(1, a, N);
	victims(1, b, N);
	victims(2, d, N);
	gsl_rng_set(r, 1);
	for (i = 0; i < N; i++) {
		assert_int_equal(a[i], b[i]);
		assert_int_equal(a[i], gsl_rng_uniform_int(r, 8));
		differ += a[i] != d[i];
	}
	assert_true(differ > N / 2); /* 7/8 expected to differ */
	/* The high half of a 64-bit seed matters: 1 and 1 + 2^32 fold to different MT seeds. */
	victims(1 + (1ull << 32), d, N);
	for (i = 0, differ = 0; i < N; i++)
		differ += a[i] != d[i];
	assert_true(differ > N / 2);
	gsl_rng_free(r);
}

/*
 * 4 ways (1 KB: 2 sets); set 0 holds even lines. Tree nodes b1 (ways 0-1 | 2-3), b2 (0 | 1),
 * b3 (2 | 3), written "b1 b2 b3"; a bit points at the side of the next victim (0 = left); a use
 * points its path away. LRU would pick B at step 6; PLRU picks C.
 */
static void test_plru_tree(void **state)
{
	struct cache *c = mk(4, CACHE_INDEX_LINEAR, CACHE_REPL_PLRU, 1);
	struct cache_line_info v;

	(void)state;
	assert_int_equal(cache_geom(c)->sets, 2);
	assert_string_equal(tree(c, 0), "tree 000");
	assert_int_equal(alloc(c, L(0), 0, NULL), 0);  /* A: way 0 -> b1 = 1, b2 = 1 */
	assert_string_equal(tree(c, 0), "tree 110");
	assert_int_equal(alloc(c, L(2), 0, NULL), 1);  /* B: way 1 -> b1 = 1, b2 = 0 */
	assert_string_equal(tree(c, 0), "tree 100");
	assert_int_equal(alloc(c, L(4), 0, NULL), 2);  /* C: way 2 -> b1 = 0, b3 = 1 */
	assert_string_equal(tree(c, 0), "tree 001");
	assert_int_equal(alloc(c, L(6), 0, NULL), 3);  /* D: way 3 -> b1 = 0, b3 = 0 */
	assert_string_equal(tree(c, 0), "tree 000");
	assert_string_equal(tree(c, 1), "tree 000");   /* set 1 untouched */
	touch(c, L(0));                                 /* A again: b1 = 1, b2 = 1 */
	assert_string_equal(tree(c, 0), "tree 110");
	/* 6: b1 = 1 -> right, b3 = 0 -> way 2 (C). Insert way 2: b1 = 0, b3 = 1. */
	assert_int_equal(alloc(c, L(8), 0, &v), 2);
	assert_int_equal(v.addr, L(4));
	assert_string_equal(tree(c, 0), "tree 011");
	touch(c, L(6));                                 /* D (way 3): b1 = 0, b3 = 0 */
	assert_string_equal(tree(c, 0), "tree 010");
	/* 8: b1 = 0 -> left, b2 = 1 -> way 1 (B). Insert way 1: b1 = 1, b2 = 0. */
	assert_int_equal(alloc(c, L(10), 0, &v), 1);
	assert_int_equal(v.addr, L(2));
	assert_string_equal(tree(c, 0), "tree 100");
	/* 9: the tree points at way 2 (E, line 8), but E is reserved: the walk takes the other leaf
	 * under b3, way 3 (D). Insert way 3: b1 = 0, b3 = 0. */
	reserve(c, L(8), 0x1);
	assert_int_equal(alloc(c, L(12), 0, &v), 3);
	assert_int_equal(v.addr, L(6));
	assert_string_equal(tree(c, 0), "tree 000");
	/* 10: b1 = 0 -> left, b2 = 0 -> way 0 (A). */
	assert_int_equal(alloc(c, L(14), 0, &v), 0);
	assert_int_equal(v.addr, L(0));
	assert_string_equal(tree(c, 0), "tree 110");
	/* 11: b1 = 1 -> right; way 2 reserved, way 3 free: way 3, whatever b3 says. Now reserve
	 * ways 2 and 3 (G = line 12 in way 3): the right subtree has no evictable way, so the walk
	 * goes left against b1 = 1 and takes b2's way. */
	reserve(c, L(12), 0x2);
	assert_string_equal(tree(c, 0), "tree 110");
	assert_int_equal(alloc(c, L(16), 0, &v), 1); /* b2 = 1 -> way 1 (F, line 10) */
	assert_int_equal(v.addr, L(10));
	cache_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * Reservations
 */

static void test_reserved_never_victim(void **state)
{
	struct cache *c = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	struct cache_line_info v;

	(void)state;
	/* A (line 0, way 0) waits for sector 0; B (line 4, way 1) is complete. A is the LRU line
	 * but reserved, so C replaces B. */
	assert_int_equal(alloc(c, L(0), 0x1, NULL), 0);
	assert_int_equal(alloc(c, L(4), 0, NULL), 1);
	fill(c, L(4), 0xf);
	assert_int_equal(info(c, L(0)).pending, 0x1);
	assert_int_equal(alloc(c, L(8), 0, &v), 1);
	assert_int_equal(v.addr, L(4));
	/* C's sector 2 goes to the next level: both ways reserved, D is refused and nothing
	 * changes but the counter. */
	reserve(c, L(8), 0x4);
	memset(&v, 0x5a, sizeof v);
	assert_int_equal(alloc(c, L(12), 0, &v), -1);
	assert_false(v.present);
	assert_int_equal(v.addr, 0);
	assert_int_equal(cache_stats(c)->alloc_fails, 1);
	assert_int_equal(cache_stats(c)->evictions, 1);
	assert_true(info(c, L(0)).present);
	assert_true(info(c, L(8)).present);
	assert_false(info(c, L(12)).present);
	/* Other sets are unaffected. */
	assert_int_equal(alloc(c, L(13), 0, NULL), 0);
	/* A reserved line cannot be invalidated: its fill would find no line. */
	expect_assert_failure(cache_invalidate(c, L(0), NULL));
	cache_check(c);
	/* A's fill lands: A is evictable again and the least recently used. */
	fill(c, L(0), 0x1);
	assert_int_equal(alloc(c, L(12), 0, &v), 0);
	assert_int_equal(v.addr, L(0));
	assert_int_equal(v.valid, 0x1);
	assert_int_equal(v.pending, 0);
	cache_destroy(c);
}

/* cache_pending_ways' predicate: lines at or above line 8. */
static bool high_line(const void *ctx, addr_t line)
{
	(void)ctx;
	return line >= L(8);
}

/* 1 KB of 2 sets x 4 ways; set 0 holds A (line 0, waiting), B (line 4, complete), C (line 8,
 * waiting) and D (line 12, complete, then a sector reserved). */
static void test_pending_ways(void **state)
{
	struct cache *c = mk(4, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);

	(void)state;
	assert_int_equal(cache_geom(c)->sets, 2);
	assert_int_equal(alloc(c, L(0), 0x1, NULL), 0);
	assert_int_equal(alloc(c, L(4), 0, NULL), 1);
	fill(c, L(4), 0xf);
	assert_int_equal(alloc(c, L(8), 0x3, NULL), 2);
	assert_int_equal(alloc(c, L(12), 0, NULL), 3);
	fill(c, L(12), 0x1);
	/* waiting: A and C; of them at line 8 or above: C */
	assert_int_equal(cache_pending_ways(c, 0, -1, high_line, NULL), 1);
	assert_int_equal(cache_pending_ways(c, 0, 2, high_line, NULL), 0); /* C's way skipped */
	assert_int_equal(cache_pending_ways(c, 0, 0, high_line, NULL), 1);
	/* D's sector 1 goes to the next level: D waits too */
	reserve(c, L(12), 0x2);
	assert_int_equal(cache_pending_ways(c, 0, -1, high_line, NULL), 2);
	assert_int_equal(cache_pending_ways(c, 0, 3, high_line, NULL), 1);
	/* the other set has nothing; C's fill ends its wait */
	assert_int_equal(cache_pending_ways(c, 1, -1, high_line, NULL), 0);
	fill(c, L(8), 0x3);
	assert_int_equal(cache_pending_ways(c, 0, -1, high_line, NULL), 1);
	expect_assert_failure(cache_pending_ways(c, 2, -1, high_line, NULL));
	expect_assert_failure(cache_pending_ways(c, 0, 4, high_line, NULL));
	cache_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * Writes
 */

static void test_dirty_eviction_bytes(void **state)
{
	struct cache *c = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	struct cache_line_info v, l;

	(void)state;
	/* A = line 0, sectors 0 and 1 fetched. */
	alloc(c, L(0), 0x3, NULL);
	fill(c, L(0), 0x3);
	wr(c, L(0), 4, 4);    /* sector 0, bytes 4..7: CLEAN -> DIRTY */
	wr(c, L(0), 96, 32);  /* sector 3, every byte: INVALID -> DIRTY without a fetch */
	wr(c, L(0), 70, 2);   /* sector 2, bytes 70, 71: INVALID -> PARTIAL */
	l = info(c, L(0));
	assert_int_equal(l.valid, 0xb);
	assert_int_equal(l.dirty, 0xd);
	assert_int_equal(l.pending, 0);
	assert_int_equal(l.bytes.w[0], 0xf0);                 /* bytes 4..7 */
	assert_int_equal(l.bytes.w[1], 0xffffffff000000c0ull); /* bytes 70, 71 and 96..127 */
	/* B = line 4, clean, used last: A is the LRU victim and comes back whole. */
	alloc(c, L(4), 0, NULL);
	fill(c, L(4), 0xf);
	touch(c, L(4));
	assert_int_equal(alloc(c, L(8), 0, &v), 0);
	assert_true(v.present);
	assert_int_equal(v.addr, L(0));
	assert_int_equal(v.set, 0);
	assert_int_equal(v.way, 0);
	assert_int_equal(v.valid, 0xb);
	assert_int_equal(v.dirty, 0xd);
	assert_int_equal(v.bytes.w[0], 0xf0);
	assert_int_equal(v.bytes.w[1], 0xffffffff000000c0ull);
	assert_int_equal(v.bytes.w[2], 0);
	assert_int_equal(v.bytes.w[3], 0);
	assert_false(info(c, L(0)).present);
	/* The new line starts empty: nothing of A's is left in way 0. */
	l = info(c, L(8));
	assert_int_equal(l.valid | l.dirty | l.pending, 0);
	assert_true(cache_bytes_empty(&l.bytes));
	/* B goes next, clean. */
	assert_int_equal(alloc(c, L(12), 0, &v), 1);
	assert_int_equal(v.addr, L(4));
	assert_int_equal(v.dirty, 0);
	assert_int_equal(cache_stats(c)->evictions, 2);
	assert_int_equal(cache_stats(c)->dirty_evictions, 1);
	cache_destroy(c);
}

static void test_write_without_fetch(void **state)
{
	struct cache *c = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	struct cache_bytes b, b2;
	struct cache_lookup lk;
	struct cache_line_info l;

	(void)state;
	/* An L2 write miss, write-allocate without fetch: bytes 8..15 of sector 0. */
	assert_int_equal(acc(c, L(0), 0x1), CACHE_LINE_MISS);
	alloc(c, L(0), 0, NULL);
	wr(c, L(0), 8, 8);
	l = info(c, L(0));
	assert_int_equal(l.valid, 0);
	assert_int_equal(l.dirty, 0x1);
	/* Read of written bytes 8..11: a hit, served from the written bytes. */
	b = bytes(8, 4);
	lk = probe(c, L(0), 0x1, &b);
	assert_int_equal(lk.outcome, CACHE_HIT);
	assert_int_equal(lk.hit, 0x1);
	assert_int_equal(cache_access(c, L(0), 0x1, &b, &lk), CACHE_HIT);
	/* Read of byte 16 (not written): a sector miss that must fetch and merge. */
	b = bytes(16, 1);
	lk = probe(c, L(0), 0x1, &b);
	assert_int_equal(lk.outcome, CACHE_SECTOR_MISS);
	assert_int_equal(lk.miss, 0x1);
	/* Bytes 12..19 straddle written and unwritten: a miss. */
	b = bytes(12, 8);
	assert_int_equal(probe(c, L(0), 0x1, &b).outcome, CACHE_SECTOR_MISS);
	/* A whole-sector read (no byte mask) of a PARTIAL sector misses. */
	assert_int_equal(probe(c, L(0), 0x1, NULL).outcome, CACHE_SECTOR_MISS);
	/* Two sectors: written bytes of sector 0 hit, sector 1 misses. */
	b = bytes(8, 8);
	b2 = bytes(40, 4);
	b.w[0] |= b2.w[0];
	lk = probe(c, L(0), 0x3, &b);
	assert_int_equal(lk.outcome, CACHE_SECTOR_MISS);
	assert_int_equal(lk.hit, 0x1);
	assert_int_equal(lk.miss, 0x2);
	/* Fetch and merge sector 0: pending while the fetch is out, then DIRTY with the written
	 * bytes kept (they are newer than memory). */
	reserve(c, L(0), 0x1);
	b = bytes(16, 1);
	lk = probe(c, L(0), 0x1, &b);
	assert_int_equal(lk.pending, 0x1);
	fill(c, L(0), 0x1);
	l = info(c, L(0));
	assert_int_equal(l.valid, 0x1);
	assert_int_equal(l.dirty, 0x1);
	assert_int_equal(l.pending, 0);
	assert_int_equal(l.bytes.w[0], 0xff00);
	assert_int_equal(probe(c, L(0), 0x1, &b).outcome, CACHE_HIT);
	/* Writing all of sector 1 makes it valid without a fetch. */
	wr(c, L(0), 32, 32);
	assert_int_equal(info(c, L(0)).valid, 0x3);
	/* Two partial writes that together cover sector 2 make it valid too. */
	wr(c, L(0), 64, 16);
	assert_int_equal(info(c, L(0)).valid, 0x3);
	wr(c, L(0), 80, 16);
	assert_int_equal(info(c, L(0)).valid, 0x7);
	/* A write while a fill is pending: the sector stays pending, and becomes valid when the
	 * write covers it; the fill then only clears the flag. */
	reserve(c, L(0), 0x8);
	wr(c, L(0), 96, 32);
	l = info(c, L(0));
	assert_int_equal(l.valid, 0xf);
	assert_int_equal(l.pending, 0x8);
	fill(c, L(0), 0x8);
	assert_int_equal(info(c, L(0)).pending, 0);
	/* Written back: everything CLEAN, no byte marked. */
	clean(c, L(0), 0xf);
	l = info(c, L(0));
	assert_int_equal(l.valid, 0xf);
	assert_int_equal(l.dirty, 0);
	assert_true(cache_bytes_empty(&l.bytes));
	/* Cleaning a PARTIAL sector leaves it INVALID: the rest never came. */
	alloc(c, L(4), 0, NULL);
	wr(c, L(4), 100, 1);
	clean(c, L(4), 0x8);
	l = info(c, L(4));
	assert_int_equal(l.valid | l.dirty, 0);
	assert_int_equal(cache_stats(c)->accesses, 2);
	assert_int_equal(cache_stats(c)->hits, 1);
	assert_int_equal(cache_stats(c)->line_misses, 1);
	cache_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * Indexing
 */

/*
 * 4 sets (k = 2), stride 4 lines: linear puts every line in set 0. xor: set = (line mod 4) ^
 * fold(line / 4); line 4i: i = 0..3 -> 0 1 2 3; i = 4 (100b: 00 ^ 01) -> 1; 5 (101b: 01 ^ 01)
 * -> 0; 6 (110b: 10 ^ 01) -> 3; 7 (111b: 11 ^ 01) -> 2.
 */
static void test_xor_vs_linear(void **state)
{
	static const uint32_t xor_sets[8] = { 0, 1, 2, 3, 1, 0, 3, 2 };
	struct cache *lin = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	struct cache *xr = mk(2, CACHE_INDEX_XOR, CACHE_REPL_LRU, 1);
	int i, pass;

	(void)state;
	for (i = 0; i < 8; i++) {
		assert_int_equal(cache_set_of(lin, L(4 * i)), 0);
		assert_int_equal(cache_set_of(xr, L(4 * i) + 64), xor_sets[i]);
	}
	/* Consecutive lines 0..7 under xor: 0 1 2 3, then (r ^ 1): 1 0 3 2. */
	for (i = 0; i < 8; i++)
		assert_int_equal(cache_set_of(xr, L(i)), (uint32_t)(i % 4) ^ (uint32_t)(i / 4));
	/* Two passes of the 8-line strided sweep: linear thrashes 2 ways (0 hits in pass 2),
	 * xor puts 2 lines in each set (8 hits in pass 2). */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < 8; i++) {
			if (acc(lin, L(4 * i), 0x1) != CACHE_HIT) {
				alloc(lin, L(4 * i), 0, NULL);
				fill(lin, L(4 * i), 0xf);
			}
			if (acc(xr, L(4 * i), 0x1) != CACHE_HIT) {
				alloc(xr, L(4 * i), 0, NULL);
				fill(xr, L(4 * i), 0xf);
			}
		}
	}
	assert_int_equal(cache_stats(lin)->hits, 0);
	assert_int_equal(cache_stats(lin)->evictions, 14);
	assert_int_equal(cache_stats(xr)->hits, 8);
	assert_int_equal(cache_stats(xr)->evictions, 0);
	cache_destroy(lin);
	cache_destroy(xr);
}

/*
 * 48 KB of 128 B lines, 4 ways: 96 sets, k = 7. Linear: line mod 96. xor: (r + fold(q)) mod
 * 96 with r = line mod 96, q = line / 96. Stride 128 lines: 128i mod 96 = 0 32 64 0 32; q = 0 1
 * 2 4 5 -> xor 0 33 66 4 37. Line 96 * 200 + 5: r = 5, q = 200 = 1 1001000b: 72 ^ 1 = 73 -> 78.
 */
static void test_non_pow2_sets(void **state)
{
	static const uint32_t lin_sets[5] = { 0, 32, 64, 0, 32 };
	static const uint32_t xor_sets[5] = { 0, 33, 66, 4, 37 };
	struct cache_params p = params(48, LINE, 32, 4, CACHE_INDEX_LINEAR, CACHE_REPL_LRU);
	struct cache *lin, *xr;
	struct cache_line_info v;
	struct sim_err err;
	uint32_t i, pass;

	(void)state;
	assert_int_equal(cache_params_check(&p, "l1", &err), 0);
	lin = cache_create(&p, 1, NULL, "lin");
	p.index = CACHE_INDEX_XOR;
	xr = cache_create(&p, 1, NULL, "xor");
	assert_int_equal(cache_geom(lin)->sets, 96);
	for (i = 0; i < 5; i++) {
		assert_int_equal(cache_set_of(lin, L(128 * i)), lin_sets[i]);
		assert_int_equal(cache_set_of(xr, L(128 * i)), xor_sets[i]);
	}
	assert_int_equal(cache_set_of(lin, L(96 * 200 + 5)), 5);
	assert_int_equal(cache_set_of(xr, L(96 * 200 + 5)), 78);
	/* 384 consecutive lines fill all 96 x 4 ways under both functions without an eviction
	 * (each aligned run of 96 lines covers every set once), and a second pass hits. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < 384; i++) {
			struct cache *cs[2] = { lin, xr };
			struct cache_lookup lk;
			int k;

			for (k = 0; k < 2; k++) {
				if (cache_access(cs[k], L(i), 0xf, NULL, &lk) != CACHE_HIT) {
					assert_true(cache_allocate(cs[k], L(i), 0xf, &v) >= 0);
					assert_false(v.present);
					cache_fill(cs[k], L(i), 0xf);
				}
			}
		}
		cache_check(lin);
		cache_check(xr);
	}
	assert_int_equal(cache_stats(lin)->hits, 384);
	assert_int_equal(cache_stats(xr)->hits, 384);
	assert_int_equal(cache_stats(lin)->evictions, 0);
	assert_int_equal(cache_stats(xr)->evictions, 0);
	/* Line 384 goes to set 0 (linear): it evicts line 0, the LRU of 0, 96, 192, 288. */
	assert_int_equal(cache_allocate(lin, L(384), 0, &v), 0);
	assert_int_equal(v.addr, L(0));
	cache_check(lin);
	cache_destroy(lin);
	cache_destroy(xr);
}

/* The sectors a byte set meets: every run of bytes [off, off + len) of a 128 B line of 32 B
 * sectors and of a 256 B line of 32 B sectors (bytes in all four mask words) gives the sectors
 * off / 32 .. (off + len - 1) / 32; two runs give the union; none gives 0. */
static void test_sectors_of(void **state)
{
	static const uint32_t lines[] = { 128, 256 };
	uint32_t li, off, len;

	(void)state;
	for (li = 0; li < 2; li++) {
		struct cache_params p = params(1, lines[li], 32, 2, CACHE_INDEX_LINEAR,
					       CACHE_REPL_LRU);
		struct cache *c = cache_create(&p, 1, NULL, "t");
		struct cache_bytes none;

		memset(&none, 0, sizeof none);
		assert_int_equal(cache_sectors_of(c, &none), 0);
		for (off = 0; off < lines[li]; off++) {
			for (len = 1; off + len <= lines[li]; len++) {
				struct cache_bytes b = bytes(off, len);
				uint32_t want = 0, s;

				for (s = off / 32; s <= (off + len - 1) / 32; s++)
					want |= 1u << s;
				assert_int_equal(cache_sectors_of(c, &b), want);
			}
		}
		/* two runs: byte 31 (sector 0) and byte lines - 1 (the last sector) */
		{
			struct cache_bytes b = bytes(31, 1);

			cache_bytes_set(&b, lines[li] - 1, 1);
			assert_int_equal(cache_sectors_of(c, &b),
					 1u | 1u << (lines[li] / 32 - 1));
		}
		cache_destroy(c);
	}
}

/* Lines from 16 B (one word of byte mask, partly used) to 256 B (four words, 8 sectors), and a
 * non-sectored cache (one 128 B sector). */
static void test_line_sizes(void **state)
{
	struct cache_params p = params(1, 256, 32, 2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU);
	struct cache *c = cache_create(&p, 1, NULL, "big");
	struct cache_bytes b;
	struct cache_line_info l;

	(void)state;
	assert_int_equal(cache_geom(c)->sets, 2);
	assert_int_equal(cache_geom(c)->sectors, 8);
	assert_int_equal(cache_geom(c)->full_mask, 0xff);
	alloc(c, 0x1000, 0, NULL);
	wr(c, 0x1000, 250, 6);  /* sector 7, bytes 250..255: bits 58..63 of word 3 */
	wr(c, 0x1000, 0, 32);   /* sector 0 whole */
	l = info(c, 0x10ff);
	assert_int_equal(l.addr, 0x1000);
	assert_int_equal(l.valid, 0x01);
	assert_int_equal(l.dirty, 0x81);
	assert_int_equal(l.bytes.w[3], 0xfc00000000000000ull);
	assert_int_equal(l.bytes.w[0], 0xffffffffull);
	b = cache_sector_bytes(c, 0x81);
	assert_int_equal(b.w[0], 0xffffffffull);
	assert_int_equal(b.w[3], 0xffffffff00000000ull);
	assert_int_equal(cache_sectors_of(c, &l.bytes), 0x81);
	cache_destroy(c);

	p = params(1, 16, 4, 4, CACHE_INDEX_XOR, CACHE_REPL_LRU);
	c = cache_create(&p, 1, NULL, "tiny");
	assert_int_equal(cache_geom(c)->sets, 16);
	assert_int_equal(cache_geom(c)->sectors, 4);
	alloc(c, 0x40, 0, NULL);
	wr(c, 0x4c, 12, 4);
	assert_int_equal(info(c, 0x40).valid, 0x8);
	/* A byte beyond the 16 B line is a caller bug. */
	b = bytes(16, 1);
	expect_assert_failure(cache_write(c, 0x40, &b));
	cache_destroy(c);

	p = params(1, 128, 128, 2, CACHE_INDEX_LINEAR, CACHE_REPL_FIFO);
	c = cache_create(&p, 1, NULL, "flat");
	assert_int_equal(cache_geom(c)->sectors, 1);
	assert_int_equal(acc(c, L(3), 0x1), CACHE_LINE_MISS);
	alloc(c, L(3), 0x1, NULL);
	fill(c, L(3), 0x1);
	assert_int_equal(acc(c, L(3) + 100, 0x1), CACHE_HIT);
	cache_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * Flush, invalidate, statistics, dump
 */

static void count_line(void *ctx, const struct cache_line_info *l)
{
	addr_t *seen = ctx;

	seen[seen[0] + 1] = l->addr;
	seen[0]++;
}

static void test_flush_and_invalidate(void **state)
{
	struct cache *c = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	struct cache_line_info l;
	addr_t seen[8] = { 0 };
	uint32_t cur = 0;

	(void)state;
	/* Dirty: line 6 (set 2, way 0), line 1 (set 1, way 0), line 5 (set 1, way 1); clean:
	 * line 0. Iteration order is (set, way): 1, 5, 6. */
	alloc(c, L(6), 0, NULL);
	wr(c, L(6), 0, 1);
	alloc(c, L(1), 0, NULL);
	wr(c, L(1), 127, 1);
	alloc(c, L(5), 0, NULL);
	wr(c, L(5), 32, 32);
	alloc(c, L(0), 0, NULL);
	fill(c, L(0), 0xf);
	assert_true(cache_next_dirty(c, &cur, &l));
	assert_int_equal(l.addr, L(1));
	assert_int_equal(l.dirty, 0x8);
	assert_int_equal(cur, 2 * 1 + 0 + 1);
	assert_true(cache_next_dirty(c, &cur, &l));
	assert_int_equal(l.addr, L(5));
	assert_int_equal(l.valid, 0x2);
	/* The caller writes line 5 back and cleans it; the cursor goes on. */
	clean(c, l.addr, l.dirty);
	assert_true(cache_next_dirty(c, &cur, &l));
	assert_int_equal(l.addr, L(6));
	assert_false(cache_next_dirty(c, &cur, &l));
	assert_false(l.present);
	/* cache_flush: lines 1 and 6 remain dirty. */
	assert_int_equal(cache_flush(c, count_line, seen), 2);
	cache_check(c);
	assert_int_equal(seen[0], 2);
	assert_int_equal(seen[1], L(1));
	assert_int_equal(seen[2], L(6));
	cur = 0;
	assert_false(cache_next_dirty(c, &cur, &l));
	/* Invalidate one line: its state comes back; absent lines report false. */
	assert_true(cache_invalidate(c, L(5), &l));
	assert_int_equal(l.valid, 0x2);
	assert_int_equal(l.dirty, 0);
	cache_check(c);
	assert_false(cache_invalidate(c, L(5), &l));
	assert_false(l.present);
	/* invalidate_all refuses dirty lines, then drops everything once clean. */
	wr(c, L(0), 0, 4);
	expect_assert_failure(cache_invalidate_all(c));
	clean(c, L(0), 0xf);
	cache_invalidate_all(c);
	cache_check(c);
	assert_false(info(c, L(0)).present);
	assert_false(info(c, L(1)).present);
	assert_false(cache_touch(c, L(0)));
	assert_int_equal(acc(c, L(0), 0x1), CACHE_LINE_MISS);
	cache_destroy(c);
}

/* A cache of CACHE_HASH_ASSOC ways or more finds its lines through a hash index, its free ways
 * through a bitmap and, under lru and fifo, its victims through a stamp-ordered list (cache.c).
 * 20 k random steps over 4x its capacity in lines (allocations, a quarter of them with a fill
 * pending, fills, uses, invalidations), against a reference model: exactly the lines the model
 * holds are found, and each victim is the model's: in the new line's set, the line with no fill
 * pending whose last use (lru) or insert (fifo) is oldest. cache_check compares the index, the
 * bitmap and the list with the arrays after every step. */
static void hash_run(enum cache_repl repl)
{
	enum { SETS = 4, WAYS = 64, NLINES = 4 * SETS * WAYS };
	struct cache_params p = params(SETS * WAYS * LINE / 1024, LINE, 32, WAYS,
				       CACHE_INDEX_XOR, repl);
	struct cache *c = cache_create(&p, 1, NULL, "t");
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	static bool ref[NLINES], pend[NLINES];
	static uint64_t stamp[NLINES];
	uint64_t clock = 0;
	uint32_t step, n, k, present = 0, evicted = 0, dropped = 0, refused = 0;

	memset(ref, 0, sizeof ref);
	memset(pend, 0, sizeof pend);
	gsl_rng_set(rng, 7);
	for (step = 0; step < 20000; step++) {
		struct cache_line_info v;

		n = (uint32_t)gsl_rng_uniform_int(rng, NLINES);
		if (!ref[n]) {
			bool with_fill = gsl_rng_uniform_int(rng, 4) == 0;
			uint32_t set = cache_set_of(c, L(n)), want = NLINES, free_ways = WAYS;

			for (k = 0; k < NLINES; k++) {
				if (!ref[k] || cache_set_of(c, L(k)) != set)
					continue;
				free_ways--;
				if (!pend[k] && (want == NLINES || stamp[k] < stamp[want]))
					want = k;
			}
			if (alloc(c, L(n), with_fill ? 0x1 : 0, &v) < 0) {
				/* every way of the set waits for a fill */
				assert_int_equal(free_ways, 0);
				assert_int_equal(want, NLINES);
				refused++;
				continue;
			}
			if (free_ways > 0) {
				assert_false(v.present);
			} else {
				assert_true(v.present && v.addr % LINE == 0 && v.addr / LINE < NLINES);
				/* random: any line of the set with no fill pending */
				if (repl != CACHE_REPL_RANDOM)
					assert_int_equal(v.addr, L(want));
				want = (uint32_t)(v.addr / LINE);
				assert_true(ref[want] && !pend[want] && cache_set_of(c, v.addr) == set);
				ref[want] = false;
				evicted++;
			}
			ref[n] = true;
			pend[n] = with_fill;
			stamp[n] = ++clock;
		} else if (pend[n]) {
			fill(c, L(n), 0x1);
			pend[n] = false;
		} else if (gsl_rng_uniform_int(rng, 2) == 0) {
			assert_true(cache_invalidate(c, L(n), &v));
			assert_int_equal(v.addr, L(n));
			ref[n] = false;
			dropped++;
		} else {
			assert_int_not_equal(acc(c, L(n), 0x1), CACHE_LINE_MISS);
			if (repl == CACHE_REPL_LRU)
				stamp[n] = ++clock;
		}
		cache_check(c);
		if (step % 1000 == 999)
			for (k = 0; k < NLINES; k++)
				assert_int_equal(info(c, L(k)).present, ref[k]);
	}
	for (n = 0; n < NLINES; n++)
		present += ref[n];
	/* the sequence did fill the cache and churn it every way */
	assert_true(present > SETS * WAYS * 9 / 10 && evicted > 1000 && dropped > 500 && refused > 0);
	if (repl != CACHE_REPL_RANDOM) {
		/* no stamps kept: the dump gives each line's place in its set's order instead */
		char *buf = dump_text(c);

		assert_non_null(strstr(buf, " order 0 bytes 0x"));
		assert_null(strstr(buf, " used "));
		free(buf);
	}
	for (n = 0; n < NLINES; n++)
		if (pend[n])
			fill(c, L(n), 0x1);
	cache_invalidate_all(c);
	cache_check(c);
	for (n = 0; n < NLINES; n++)
		assert_false(info(c, L(n)).present);
	gsl_rng_free(rng);
	cache_destroy(c);
}

static void test_hash_index(void **state)
{
	(void)state;
	hash_run(CACHE_REPL_LRU);
	hash_run(CACHE_REPL_FIFO);
	hash_run(CACHE_REPL_RANDOM); /* the policy's own walk; index and bitmap as above */
}

/* The hash index of a cache too large for a slot to hold both a line's index and its whole home
 * slot (65536 lines: 17 index bits, 2^17 slots), where a deletion's backward shift reads each
 * home from the line's tag instead of the slot: 200 k random allocations, uses and invalidations
 * over twice its capacity in lines, against a model of which lines are present. */
static void test_hash_index_wide(void **state)
{
	enum { SETS = 2048, WAYS = 32, UNIVERSE = 1 << 17 };
	struct cache_params p = params(SETS * WAYS * LINE / 1024, LINE, 32, WAYS,
				       CACHE_INDEX_XOR, CACHE_REPL_LRU);
	struct cache *c = cache_create(&p, 1, NULL, "t");
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	static bool ref[UNIVERSE];
	uint32_t step, n, present = 0, dropped = 0, evicted = 0;

	(void)state;
	memset(ref, 0, sizeof ref);
	gsl_rng_set(rng, 11);
	for (step = 0; step < 200000; step++) {
		struct cache_line_info v;
		struct cache_lookup lk;

		n = (uint32_t)gsl_rng_uniform_int(rng, UNIVERSE);
		if (!ref[n]) {
			/* (not alloc: its cache_check on every step is too slow at this size) */
			assert_true(cache_allocate(c, L(n), 0, &v) >= 0);
			if (v.present) {
				assert_true(v.addr / LINE < UNIVERSE && ref[v.addr / LINE]);
				ref[v.addr / LINE] = false;
				evicted++;
			}
			ref[n] = true;
		} else if (gsl_rng_uniform_int(rng, 2) == 0) {
			assert_true(cache_invalidate(c, L(n), &v));
			ref[n] = false;
			dropped++;
		} else {
			assert_int_not_equal(cache_access(c, L(n), 0x1, NULL, &lk), CACHE_LINE_MISS);
		}
		if (step % 20000 == 19999)
			cache_check(c);
	}
	for (n = 0; n < UNIVERSE; n++) {
		assert_int_equal(info(c, L(n)).present, ref[n]);
		present += ref[n];
	}
	print_message("# %u present, %u evicted, %u invalidated\n", present, evicted, dropped);
	assert_true(present > 40000 && evicted > 5000 && dropped > 20000);
	gsl_rng_free(rng);
	cache_destroy(c);
}

static void test_stats_registry(void **state)
{
	struct stats *st = stats_create();
	struct cache_params p = params(1, LINE, 32, 2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU);
	struct cache *c = cache_create(&p, 1, st, "sm3.l1d");
	static const char *const names[] = {
		"accesses", "hits", "sector_misses", "line_misses", "evictions", "dirty_evictions",
		"alloc_fails", "hit_rate",
	};
	char name[64];
	double v;
	size_t i;

	(void)state;
	assert_int_equal(stats_count(st), 8);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(name, sizeof name, "sm3.l1d.%s", names[i]);
		assert_true(stats_get(st, name, &v));
	}
	assert_true(stats_get(st, "sm3.l1d.hit_rate", &v));
	assert_true(isnan(v));
	acc(c, L(0), 0x1);
	alloc(c, L(0), 0, NULL);
	fill(c, L(0), 0xf);
	acc(c, L(0), 0x1);
	acc(c, L(0), 0x3);
	acc(c, L(4), 0x1);
	assert_true(stats_get(st, "sm3.l1d.accesses", &v));
	assert_float_equal(v, 4, 0);
	assert_true(stats_get(st, "sm3.l1d.line_misses", &v));
	assert_float_equal(v, 2, 0);
	assert_true(stats_get(st, "sm3.l1d.hit_rate", &v));
	assert_float_equal(v, 0.5, 0);
	stats_reset(st);
	assert_int_equal(cache_stats(c)->accesses, 0);
	cache_check(c);
	stats_destroy(st);
	cache_destroy(c);
}

static void test_dump(void **state)
{
	struct cache *c = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	char *buf;

	(void)state;
	alloc(c, L(1), 0x2, NULL);
	wr(c, L(1), 0, 8);
	buf = dump_text(c);
	assert_non_null(strstr(buf, "cache t: 4 sets x 2 ways x 128 B lines (4 x 32 B sectors), "
				    "1 KB, index linear, replacement lru\n"));
	assert_non_null(strstr(buf, "lines: 1 present, 1 reserved, 1 dirty; seq 1\n"));
	assert_non_null(strstr(buf, "  set 1 way 0: line 0x80 valid 0x0 dirty 0x1 pending 0x2 "
				    "used 1 ins 1 bytes 0x"
				    "0000000000000000" "00000000000000ff\n"));
	free(buf);
	cache_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * Parameters
 */

static void expect_error(struct cache_params p, const char *group, const char *msg)
{
	struct sim_err err;

	memset(&err, 0, sizeof err);
	assert_int_equal(cache_params_check(&p, group, &err), -1);
	assert_string_equal(err.msg, msg);
}

static void test_geometry_errors(void **state)
{
	struct sim_err err;
	struct cache_params ok = params(48, 128, 32, 4, CACHE_INDEX_XOR, CACHE_REPL_PLRU);

	(void)state;
	assert_int_equal(cache_params_check(&ok, "l1", &err), 0);
	expect_error(params(48, 128, 32, 7, 0, 0), "l1",
		     "l1.size_kb: 48 KB is not a multiple of line x ways (128 B x 7)");
	expect_error(params(1, 128, 32, 16, 0, 0), "l2",
		     "l2.size_kb: 1 KB is smaller than one set (128 B x 16 ways)");
	expect_error(params(48, 96, 32, 4, 0, 0), "l1",
		     "l1.line_bytes: 96 B is not a power of two");
	expect_error(params(48, 512, 64, 4, 0, 0), "l1",
		     "l1.line_bytes: 512 B is outside 16 .. 256 B");
	expect_error(params(48, 8, 8, 4, 0, 0), "l1",
		     "l1.line_bytes: 8 B is outside 16 .. 256 B");
	expect_error(params(48, 128, 24, 4, 0, 0), "l1",
		     "l1.sector_bytes: 24 B is not a power of two");
	expect_error(params(48, 128, 256, 4, 0, 0), "l1",
		     "l1.sector_bytes: 256 B exceeds l1.line_bytes (128 B)");
	expect_error(params(48, 128, 8, 4, 0, 0), "l1",
		     "l1.sector_bytes: 8 B sectors make 16 per 128 B line; at most 8");
	expect_error(params(48, 128, 32, 0, 0, 0), "l1", "l1.assoc: 0 ways is outside 1 .. 1024");
	expect_error(params(1024, 128, 32, 2048, 0, 0), "l1",
		     "l1.assoc: 2048 ways is outside 1 .. 1024");
	expect_error(params(48, 128, 32, 6, 0, CACHE_REPL_PLRU), "l1",
		     "l1.replacement: plru needs a power-of-two assoc, got 6 (lru, fifo and random "
		     "take any)");
	expect_error(params(48, 128, 32, 4, CACHE_INDEX_COUNT, 0), "l1",
		     "l1.index: 2 is not a set-index function");
	expect_error(params(48, 128, 32, 4, 0, CACHE_REPL_COUNT), "l1",
		     "l1.replacement: 4 is not a policy");
	/* 6 ways of 128 B, 48 KB: 64 sets, fine for lru. */
	ok = params(48, 128, 32, 6, CACHE_INDEX_LINEAR, CACHE_REPL_LRU);
	assert_int_equal(cache_params_check(&ok, "l1", &err), 0);
	/* cache_create takes only checked parameters. */
	ok.assoc = 7;
	expect_assert_failure(cache_create(&ok, 1, NULL, "l1"));
}

struct two_caches {
	struct cache_params l1, l2;
};

/* The same table at two offsets, as the L1 and L2 groups will use it. */
static void test_fields_table(void **state)
{
	struct cfg_group groups[2] = {
		{ "l1", "L1.", cache_fields, CACHE_NFIELDS, offsetof(struct two_caches, l1) },
		{ "l2", "L2.", cache_fields, CACHE_NFIELDS, offsetof(struct two_caches, l2) },
	};
	struct cfg_schema s = { groups, 2 };
	struct two_caches p;
	struct cfg *c;
	struct sim_err err;
	size_t i;

	(void)state;
	assert_int_equal(cache_nfields, CACHE_NFIELDS);
	for (i = 0; i < CACHE_NFIELDS; i++)
		assert_true(strlen(cache_fields[i].desc) > 20);
	for (i = 0; i < CACHE_REPL_COUNT; i++)
		assert_string_equal(cache_repl_get((uint32_t)i)->name, cache_repl_names[i]);
	assert_null(cache_repl_names[CACHE_REPL_COUNT]);
	assert_null(cache_index_names[CACHE_INDEX_COUNT]);
	assert_null(cache_repl_get(CACHE_REPL_COUNT));

	memset(&p, 0xa5, sizeof p);
	if (cfg_defaults(&s, &p, &err) != 0)
		fail_msg("cfg_defaults: %s", err.msg);
	assert_int_equal(p.l1.line_bytes, 128);
	assert_int_equal(p.l1.sector_bytes, 32);
	assert_int_equal(p.l2.index, CACHE_INDEX_LINEAR);
	assert_int_equal(p.l2.replacement, CACHE_REPL_LRU);

	assert_int_equal(cfg_load_string(&c, "c.cfg",
					 "l1: { size_kb = 48; assoc = 4; };\n"
					 "l2: { size_kb = 512; assoc = 16; index = \"xor\";\n"
					 "      replacement = \"plru\"; sector_bytes = 64; };\n",
					 &err),
			 0);
	if (cfg_read(c, &s, &p, &err) != 0)
		fail_msg("cfg_read: %s", err.msg);
	cfg_destroy(c);
	assert_int_equal(p.l1.size_kb, 48);
	assert_int_equal(p.l1.assoc, 4);
	assert_int_equal(p.l1.replacement, CACHE_REPL_LRU);
	assert_int_equal(p.l2.size_kb, 512);
	assert_int_equal(p.l2.assoc, 16);
	assert_int_equal(p.l2.index, CACHE_INDEX_XOR);
	assert_int_equal(p.l2.replacement, CACHE_REPL_PLRU);
	assert_int_equal(p.l2.sector_bytes, 64);
	assert_int_equal(cache_params_check(&p.l1, "l1", &err), 0);
	assert_int_equal(cache_params_check(&p.l2, "l2", &err), 0);

	/* size_kb and assoc are required; ranges are the table's. */
	assert_int_equal(cfg_load_string(&c, "c.cfg",
					 "l1: { size_kb = 48; assoc = 4; sector_bytes = 2; };\n"
					 "l2: { size_kb = 512; replacement = \"mru\"; };\n",
					 &err),
			 0);
	assert_int_equal(cfg_read(c, &s, &p, &err), -1);
	cfg_destroy(c);
	assert_non_null(strstr(err.msg, "l1.sector_bytes"));
	assert_non_null(strstr(err.msg, "l2.assoc"));
	assert_non_null(strstr(err.msg, "l2.replacement"));
}

/* ---------------------------------------------------------------------------------------------
 * Contract violations
 */

static void test_contract(void **state)
{
	struct cache *c = mk(2, CACHE_INDEX_LINEAR, CACHE_REPL_LRU, 1);
	struct cache_line_info v;
	struct cache_lookup lk;
	struct cache_bytes empty, b;

	(void)state;
	memset(&empty, 0, sizeof empty);
	expect_assert_failure(cache_fill(c, L(0), 0x1));       /* absent */
	expect_assert_failure(cache_write(c, L(0), &empty));   /* absent */
	expect_assert_failure(cache_reserve(c, L(0), 0x1));    /* absent */
	expect_assert_failure(cache_clean(c, L(0), 0x1));      /* absent */
	expect_assert_failure(cache_probe(c, L(0), 0, NULL, &lk));     /* no sector */
	expect_assert_failure(cache_probe(c, L(0), 0x10, NULL, &lk));  /* beyond the line */
	alloc(c, L(0), 0x1, NULL);
	expect_assert_failure(cache_allocate(c, L(0), 0, &v));  /* present */
	expect_assert_failure(cache_allocate(c, L(4), 0x20, &v)); /* beyond the line */
	expect_assert_failure(cache_reserve(c, L(0), 0x1));     /* already pending */
	expect_assert_failure(cache_write(c, L(0), &empty));    /* no byte */
	fill(c, L(0), 0x1);
	expect_assert_failure(cache_reserve(c, L(0), 0x1));     /* valid */
	/* A byte mask must name a byte in each requested sector. */
	alloc(c, L(1), 0, NULL);
	b = bytes(0, 4);
	expect_assert_failure(cache_probe(c, L(1), 0x3, &b, &lk));
	cache_check(c);
	cache_destroy(c);
	cache_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_at),
		cmocka_unit_test(test_hit_miss_sequence),
		cmocka_unit_test(test_lru_vs_fifo),
		cmocka_unit_test(test_random_deterministic),
		cmocka_unit_test(test_plru_tree),
		cmocka_unit_test(test_reserved_never_victim),
		cmocka_unit_test(test_pending_ways),
		cmocka_unit_test(test_dirty_eviction_bytes),
		cmocka_unit_test(test_write_without_fetch),
		cmocka_unit_test(test_xor_vs_linear),
		cmocka_unit_test(test_non_pow2_sets),
		cmocka_unit_test(test_sectors_of),
		cmocka_unit_test(test_line_sizes),
		cmocka_unit_test(test_flush_and_invalidate),
		cmocka_unit_test(test_hash_index),
		cmocka_unit_test(test_hash_index_wide),
		cmocka_unit_test(test_stats_registry),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_geometry_errors),
		cmocka_unit_test(test_fields_table),
		cmocka_unit_test(test_contract),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
