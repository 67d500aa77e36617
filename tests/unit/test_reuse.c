/*
 * test_reuse.c - the stack-distance engine (sim/analysis/reuse.c).
 *
 * Hand-worked streams first (the distances and the LRU contents are in the comments): A B C A,
 * A A, A B A B, hit counts and rates for capacities 0..4 on two six-access streams, the
 * power-of-two histogram on distances 0, 1, 2, 3, 4, 7, 8, and the empty engine. Then random
 * streams (GSL mt19937, fixed seeds) over alphabets of 1 to 2000 blocks against a brute-force
 * reference: an O(N x distinct) LRU stack list for every per-access distance, every capacity's
 * hit count and the histogram, plus separate fully associative LRU caches of a few sizes
 * simulated directly (the inclusion property the engine relies on, checked rather than
 * assumed). The same comparison with tiny minimum tree sizes forces hundreds of compactions,
 * and a 200000-access stream must give the same distances with and without compaction.
 * reuse_access_many in batches of many sizes gives exactly what reuse_access does.
 * Block addresses at the edges (0, 2^63, 2^64 - 1, multiples of 2^40, and 1200 blocks that
 * differ only in their high 32 bits) exercise the hash map.
 * Last, capacity lists: good ones and every error message, word for word. reuse_check runs
 * throughout.
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

#include "log.h"
#include "reuse.h"

#define A 0xa0u
#define B 0xb0u
#define C 0xc0u

/* Feeds n blocks and checks each returned distance against want (REUSE_COLD for a first
 * access). */
static void feed_expect(struct reuse *r, const uint64_t *blocks, const uint64_t *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(reuse_access(r, blocks[i]), want[i]);
	reuse_check(r);
}

/* ---------------------------------------------------------------------------------------------
 * Brute-force reference
 */

/* An LRU stack as a plain array, most recent first. */
struct lru_stack {
	uint64_t *b;
	size_t n;
	size_t cap;     /* entries kept: SIZE_MAX for the unbounded stack, C for a C-block cache */
	size_t max;     /* allocated */
};

static void lru_init(struct lru_stack *s, size_t cap, size_t max)
{
	s->b = calloc(max, sizeof *s->b);
	assert_non_null(s->b);
	s->n = 0;
	s->cap = cap;
	s->max = max;
}

/* Moves block to the top; returns its depth before the access (its distance), or REUSE_COLD
 * if it was not in the stack. A bounded stack drops its bottom entry when it overflows. */
static uint64_t lru_access(struct lru_stack *s, uint64_t block)
{
	size_t i;
	uint64_t d = REUSE_COLD;

	for (i = 0; i < s->n; i++) {
		if (s->b[i] == block) {
			d = i;
			break;
		}
	}
	if (d == REUSE_COLD) {
		if (s->n < s->cap) {
			assert_true(s->n < s->max);
			s->n++;
		}
		i = s->n - 1;
	}
	memmove(s->b + 1, s->b, i * sizeof *s->b);
	s->b[0] = block;
	return d;
}

/* Power-of-two bucket of a distance, by counting rather than by clz. */
static size_t bucket_of(uint64_t d)
{
	size_t k = 0;

	while (d != 0) {
		d >>= 1;
		k++;
	}
	return k;
}

/* Sizes of the directly simulated LRU caches. */
static const size_t cache_sizes[] = { 1, 2, 3, 5, 16, 64, 100, 500 };
#define NCACHES (sizeof cache_sizes / sizeof cache_sizes[0])

/* Runs blocks[0..n) through r and the references and compares everything: every per-access
 * distance, the counts, the hit count of every capacity 0 .. distinct + 2, the hit rate, the
 * histogram, and the hits of directly simulated LRU caches. reuse_check every check_every
 * accesses. */
static void compare_with_reference(struct reuse *r, const uint64_t *blocks, size_t n,
				   size_t check_every)
{
	struct lru_stack stack, caches[NCACHES];
	uint64_t cache_hits[NCACHES] = { 0 };
	uint64_t *dist = calloc(n, sizeof *dist);
	uint64_t want_hist[REUSE_HIST_BUCKETS] = { 0 }, hist[REUSE_HIST_BUCKETS];
	uint64_t cold = 0, cap, hits, j;
	size_t i, k, want_n = 0, got_n;

	assert_non_null(dist);
	lru_init(&stack, SIZE_MAX, n);
	for (k = 0; k < NCACHES; k++)
		lru_init(&caches[k], cache_sizes[k], cache_sizes[k]);
	for (i = 0; i < n; i++) {
		dist[i] = lru_access(&stack, blocks[i]);
		assert_int_equal(reuse_access(r, blocks[i]), dist[i]);
		for (k = 0; k < NCACHES; k++)
			cache_hits[k] += lru_access(&caches[k], blocks[i]) != REUSE_COLD;
		if (dist[i] == REUSE_COLD) {
			cold++;
		} else {
			want_hist[bucket_of(dist[i])]++;
			if (bucket_of(dist[i]) + 1 > want_n)
				want_n = bucket_of(dist[i]) + 1;
		}
		if (check_every != 0 && i % check_every == 0)
			reuse_check(r);
	}
	reuse_check(r);
	assert_int_equal(reuse_accesses(r), n);
	assert_int_equal(reuse_cold(r), cold);
	assert_int_equal(reuse_distinct(r), stack.n);
	for (cap = 0; cap <= stack.n + 2; cap++) {
		for (j = 0, hits = 0; j < n; j++)
			hits += dist[j] < cap; /* REUSE_COLD is never below cap */
		assert_int_equal(reuse_hits_at(r, cap), hits);
		assert_true(fabs(reuse_hit_rate(r, cap) - (double)hits / (double)n) < 1e-15);
	}
	assert_int_equal(reuse_hits_at(r, UINT64_MAX), n - cold);
	for (k = 0; k < NCACHES; k++)
		assert_int_equal(reuse_hits_at(r, cache_sizes[k]), cache_hits[k]);
	got_n = reuse_histogram(r, hist, REUSE_HIST_BUCKETS);
	assert_int_equal(got_n, want_n);
	for (k = 0; k < want_n; k++)
		assert_int_equal(hist[k], want_hist[k]);
	for (k = 0; k < NCACHES; k++)
		free(caches[k].b);
	free(stack.b);
	free(dist);
}

/* n blocks uniform over [base, base + alphabet). */
static uint64_t *stream_uniform(unsigned long seed, size_t n, unsigned long alphabet,
				uint64_t base)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	uint64_t *s = calloc(n, sizeof *s);
	size_t i;

	assert_non_null(s);
	gsl_rng_set(g, seed);
	for (i = 0; i < n; i++)
		s[i] = base + gsl_rng_uniform_int(g, alphabet);
	gsl_rng_free(g);
	return s;
}

/* A GPU-like mix: 60% from a hot set of 8 blocks, 25% a cyclic sweep over 400 blocks, 15%
 * uniform over 2000 blocks (the sets overlap). */
static uint64_t *stream_mixed(unsigned long seed, size_t n)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	uint64_t *s = calloc(n, sizeof *s);
	uint64_t sweep = 0;
	size_t i;

	assert_non_null(s);
	gsl_rng_set(g, seed);
	for (i = 0; i < n; i++) {
		double u = gsl_rng_uniform(g);

		if (u < 0.60)
			s[i] = gsl_rng_uniform_int(g, 8);
		else if (u < 0.85)
			s[i] = sweep++ % 400;
		else
			s[i] = gsl_rng_uniform_int(g, 2000);
	}
	gsl_rng_free(g);
	return s;
}

/* ---------------------------------------------------------------------------------------------
 * Hand-worked streams
 */

static void test_abca(void **state)
{
	/* A B C A: the last A saw B and C since its first access -> 2. */
	static const uint64_t s[] = { A, B, C, A };
	static const uint64_t d[] = { REUSE_COLD, REUSE_COLD, REUSE_COLD, 2 };
	struct reuse *r = reuse_create();

	(void)state;
	feed_expect(r, s, d, 4);
	assert_int_equal(reuse_accesses(r), 4);
	assert_int_equal(reuse_cold(r), 3);
	assert_int_equal(reuse_distinct(r), 3);
	assert_int_equal(reuse_compactions(r), 0);
	reuse_destroy(r);
}

static void test_aa(void **state)
{
	/* A A: nothing in between -> 0; a one-block cache hits it. */
	static const uint64_t s[] = { A, A };
	static const uint64_t d[] = { REUSE_COLD, 0 };
	struct reuse *r = reuse_create();

	(void)state;
	feed_expect(r, s, d, 2);
	assert_int_equal(reuse_hits_at(r, 0), 0);
	assert_int_equal(reuse_hits_at(r, 1), 1);
	assert_true(fabs(reuse_hit_rate(r, 1) - 0.5) < 1e-15);
	reuse_destroy(r);
}

static void test_abab(void **state)
{
	/* A B A B: each reuse saw the other block once -> 1 1. Repeated, B A B A keeps 1. */
	static const uint64_t s[] = { A, B, A, B, A, B };
	static const uint64_t d[] = { REUSE_COLD, REUSE_COLD, 1, 1, 1, 1 };
	struct reuse *r = reuse_create();

	(void)state;
	feed_expect(r, s, d, 6);
	assert_int_equal(reuse_hits_at(r, 1), 0);
	assert_int_equal(reuse_hits_at(r, 2), 4);
	reuse_destroy(r);
}

static void test_hit_rates(void **state)
{
	/* Cyclic A B C A B C: distances inf inf inf 2 2 2. A 1- or 2-block LRU cache thrashes
	 * (0 hits); 3 blocks hold the loop (3 hits of 6). */
	static const uint64_t s1[] = { A, B, C, A, B, C };
	static const uint64_t d1[] = { REUSE_COLD, REUSE_COLD, REUSE_COLD, 2, 2, 2 };
	/* A B A C B A: A inf; B inf; A 1 (B); C inf; B 2 (A, C); A 2 (C, B).
	 * LRU 2 blocks: A- B- A+ [A B] C- [C A] B- [B C] A- -> 1 hit.
	 * LRU 3 blocks: A- B- A+ C- [C A B] B+ [B C A] A+ -> 3 hits. */
	static const uint64_t s2[] = { A, B, A, C, B, A };
	static const uint64_t d2[] = { REUSE_COLD, REUSE_COLD, 1, REUSE_COLD, 2, 2 };
	struct reuse *r = reuse_create();

	(void)state;
	assert_true(isnan(reuse_hit_rate(r, 1)));
	assert_int_equal(reuse_hits_at(r, 4), 0);
	feed_expect(r, s1, d1, 6);
	assert_int_equal(reuse_hits_at(r, 0), 0);
	assert_int_equal(reuse_hits_at(r, 1), 0);
	assert_int_equal(reuse_hits_at(r, 2), 0);
	assert_int_equal(reuse_hits_at(r, 3), 3);
	assert_int_equal(reuse_hits_at(r, 4), 3);
	assert_true(reuse_hit_rate(r, 2) == 0.0);
	assert_true(fabs(reuse_hit_rate(r, 3) - 0.5) < 1e-15);
	reuse_destroy(r);

	r = reuse_create();
	feed_expect(r, s2, d2, 6);
	assert_int_equal(reuse_cold(r), 3);
	assert_int_equal(reuse_hits_at(r, 1), 0);
	assert_int_equal(reuse_hits_at(r, 2), 1);
	assert_int_equal(reuse_hits_at(r, 3), 3);
	assert_true(reuse_hit_rate(r, 1) == 0.0);
	assert_true(fabs(reuse_hit_rate(r, 2) - 1.0 / 6.0) < 1e-15);
	assert_true(fabs(reuse_hit_rate(r, 3) - 3.0 / 6.0) < 1e-15);
	reuse_destroy(r);
}

static void test_histogram(void **state)
{
	/* For each wanted distance d: X, d fresh blocks, X -> one reuse at exactly d (the rest
	 * cold). Distances 0, 1, 2, 3, 4, 7, 8 fall in buckets 0:{0} 1:{1} 2:{2,3} 3:{4,7} 4:{8}. */
	static const uint64_t want[] = { 0, 1, 2, 3, 4, 7, 8 };
	static const uint64_t buckets[] = { 1, 1, 2, 2, 1 };
	struct reuse *r = reuse_create();
	uint64_t h[REUSE_HIST_BUCKETS], fresh = 1000, got;
	size_t i, j;

	(void)state;
	assert_int_equal(reuse_histogram(r, h, REUSE_HIST_BUCKETS), 0);
	assert_int_equal(reuse_histogram(r, NULL, 0), 0);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		uint64_t x = 100 + i;

		assert_int_equal(reuse_access(r, x), REUSE_COLD);
		for (j = 0; j < want[i]; j++)
			assert_int_equal(reuse_access(r, fresh++), REUSE_COLD);
		got = reuse_access(r, x);
		assert_int_equal(got, want[i]);
	}
	reuse_check(r);
	assert_int_equal(reuse_accesses(r), 7 * 2 + 25);
	assert_int_equal(reuse_cold(r), 7 + 25);
	assert_int_equal(reuse_histogram(r, h, REUSE_HIST_BUCKETS), 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(h[i], buckets[i]);
	/* A short buffer gets the head; the return still says 5; the rest is untouched. */
	memset(h, 0xff, sizeof h);
	assert_int_equal(reuse_histogram(r, h, 3), 5);
	assert_int_equal(h[0], 1);
	assert_int_equal(h[2], 2);
	assert_int_equal(h[3], UINT64_MAX);
	/* Hits by capacity: distances < 5 are 0..4 -> 5 hits; < 8 adds 7 -> 6; < 9 all 7. */
	assert_int_equal(reuse_hits_at(r, 5), 5);
	assert_int_equal(reuse_hits_at(r, 8), 6);
	assert_int_equal(reuse_hits_at(r, 9), 7);
	reuse_destroy(r);
}

static void test_reference_on_hand_streams(void **state)
{
	/* The brute force itself agrees with the hand-worked A B A C B A. */
	static const uint64_t s[] = { A, B, A, C, B, A };
	static const uint64_t d[] = { REUSE_COLD, REUSE_COLD, 1, REUSE_COLD, 2, 2 };
	struct lru_stack st;
	size_t i;

	(void)state;
	lru_init(&st, SIZE_MAX, 6);
	for (i = 0; i < 6; i++)
		assert_int_equal(lru_access(&st, s[i]), d[i]);
	assert_int_equal(st.n, 3);
	free(st.b);
}

/* ---------------------------------------------------------------------------------------------
 * Random streams against the reference
 */

static void test_random_uniform(void **state)
{
	static const struct { unsigned long seed, alphabet; size_t n; } cases[] = {
		{ 1, 1, 500 },   { 2, 2, 3000 },    { 3, 3, 3000 },    { 4, 17, 4000 },
		{ 5, 100, 4000 }, { 6, 1000, 4000 }, { 7, 1530, 6000 }, { 8, 5000, 2000 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t *s = stream_uniform(cases[i].seed, cases[i].n, cases[i].alphabet, 0);
		struct reuse *r = reuse_create();

		compare_with_reference(r, s, cases[i].n, 499);
		assert_int_equal(reuse_compactions(r), 0); /* 4000 < REUSE_MIN_SLOTS */
		reuse_destroy(r);
		free(s);
	}
}

static void test_random_mixed(void **state)
{
	uint64_t *s = stream_mixed(42, 5000);
	struct reuse *r = reuse_create();

	(void)state;
	compare_with_reference(r, s, 5000, 250);
	reuse_destroy(r);
	free(s);
}

static void test_edge_addresses(void **state)
{
	/* 0, the top bit, all ones, and multiples of 2^40 (identical low bits): any uint64_t is a
	 * block, and the hash spreads them. Drawn at random from 24 such blocks. */
	uint64_t pool[24], *s;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct reuse *r = reuse_create_sized(5);
	size_t i, n = 3000;

	(void)state;
	pool[0] = 0;
	pool[1] = UINT64_MAX;
	pool[2] = 1ull << 63;
	pool[3] = UINT64_MAX - 1;
	for (i = 4; i < 24; i++)
		pool[i] = (uint64_t)i << 40;
	s = calloc(n, sizeof *s);
	assert_non_null(s);
	gsl_rng_set(g, 99);
	for (i = 0; i < n; i++)
		s[i] = pool[gsl_rng_uniform_int(g, 24)];
	compare_with_reference(r, s, n, 100);
	assert_true(reuse_compactions(r) > 50);
	reuse_destroy(r);

	/* 1200 blocks equal in their low 32 bits (i x 2^32), so the map, up to 3/4 full, holds
	 * long probe runs of keys that differ only in their high half. */
	r = reuse_create();
	gsl_rng_set(g, 100);
	for (i = 0; i < n; i++)
		s[i] = (uint64_t)gsl_rng_uniform_int(g, 1200) << 32;
	compare_with_reference(r, s, n, 1000);
	gsl_rng_free(g);
	reuse_destroy(r);
	free(s);
}

/* ---------------------------------------------------------------------------------------------
 * Compaction
 */

static void test_compaction(void **state)
{
	/* A tiny minimum tree: the clock runs into the tree end every max(2 x distinct, min) - distinct
	 * accesses, so these streams compact hundreds of times, growing the tree with the footprint.
	 * min_slots 1 is the extreme (the first compaction has one block). */
	static const struct { size_t min_slots; unsigned long seed, alphabet; size_t n; } cases[] = {
		{ 1, 11, 3, 3000 }, { 2, 12, 40, 6000 }, { 7, 13, 300, 12000 },
		{ 64, 14, 1000, 8000 }, { 1, 15, 1, 100 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t *s = stream_uniform(cases[i].seed, cases[i].n, cases[i].alphabet,
					     1ull << 32);
		struct reuse *r = reuse_create_sized(cases[i].min_slots);

		compare_with_reference(r, s, cases[i].n, 97);
		/* Between compactions at most max(2 x alphabet, min_slots) accesses pass. */
		assert_true(reuse_compactions(r) >= 10);
		reuse_destroy(r);
		free(s);
	}
}

static void test_compaction_mixed(void **state)
{
	/* Mixed stream, min tree 16: many compactions while the footprint grows to 2000. */
	uint64_t *s = stream_mixed(7, 10000);
	struct reuse *r = reuse_create_sized(16);

	(void)state;
	compare_with_reference(r, s, 10000, 333);
	assert_true(reuse_compactions(r) >= 5);
	reuse_destroy(r);
	free(s);
}

static void test_compaction_phases(void **state)
{
	/* A wide phase (1500 blocks) then a narrow one (4 blocks): after the wide phase the tree
	 * keeps 2 x distinct slots, and the narrow phase's reuses of old blocks still see every
	 * block accessed since, across compactions. Then a return to the wide set. */
	size_t n = 9000, i;
	uint64_t *s = calloc(n, sizeof *s);
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct reuse *r = reuse_create_sized(3);

	(void)state;
	assert_non_null(s);
	gsl_rng_set(g, 5);
	for (i = 0; i < n; i++) {
		if (i < 3000 || i >= 7000)
			s[i] = gsl_rng_uniform_int(g, 1500);
		else
			s[i] = gsl_rng_uniform_int(g, 4) * 7;
	}
	compare_with_reference(r, s, n, 211);
	assert_true(reuse_compactions(r) >= 3);
	gsl_rng_free(g);
	reuse_destroy(r);
	free(s);
}

static void test_compaction_invariance(void **state)
{
	/* Too long for the brute force: 200000 accesses, half a sweep over 30000 blocks, half
	 * uniform over 40000 (the sets overlap). An engine whose tree never fills (min_slots > n)
	 * is the reference for engines that compact with small and odd tree sizes, across many
	 * hundred-word bitmaps: every distance and every result must be the same. */
	static const size_t min_slots[] = { 1, 100, 4095 };
	size_t n = 200000, i, k, sweep = 0;
	uint64_t *s = calloc(n, sizeof *s);
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct reuse *ref = reuse_create_sized(n + 1), *r[3];

	(void)state;
	assert_non_null(s);
	gsl_rng_set(g, 2024);
	for (i = 0; i < n; i++)
		s[i] = gsl_rng_uniform(g) < 0.5 ? sweep++ % 30000 : gsl_rng_uniform_int(g, 40000);
	for (k = 0; k < 3; k++)
		r[k] = reuse_create_sized(min_slots[k]);
	for (i = 0; i < n; i++) {
		uint64_t d = reuse_access(ref, s[i]);

		for (k = 0; k < 3; k++)
			assert_int_equal(reuse_access(r[k], s[i]), d);
	}
	assert_int_equal(reuse_compactions(ref), 0);
	reuse_check(ref);
	for (k = 0; k < 3; k++) {
		assert_true(reuse_compactions(r[k]) >= 4);
		reuse_check(r[k]);
		assert_int_equal(reuse_accesses(r[k]), reuse_accesses(ref));
		assert_int_equal(reuse_cold(r[k]), reuse_cold(ref));
		assert_int_equal(reuse_hits_at(r[k], 1000), reuse_hits_at(ref, 1000));
		reuse_destroy(r[k]);
	}
	reuse_destroy(ref);
	gsl_rng_free(g);
	free(s);
}

/* ---------------------------------------------------------------------------------------------
 * reuse_access_many
 */

/* Expects a and b to hold the same results: counts, every capacity's hits, the histogram. */
static void expect_same(const struct reuse *a, const struct reuse *b)
{
	uint64_t ha[REUSE_HIST_BUCKETS], hb[REUSE_HIST_BUCKETS], cap;
	size_t na, nb, k;

	assert_int_equal(reuse_accesses(a), reuse_accesses(b));
	assert_int_equal(reuse_cold(a), reuse_cold(b));
	assert_int_equal(reuse_compactions(a), reuse_compactions(b));
	for (cap = 0; cap <= reuse_distinct(a) + 1; cap++)
		assert_int_equal(reuse_hits_at(a, cap), reuse_hits_at(b, cap));
	na = reuse_histogram(a, ha, REUSE_HIST_BUCKETS);
	nb = reuse_histogram(b, hb, REUSE_HIST_BUCKETS);
	assert_int_equal(na, nb);
	for (k = 0; k < na; k++)
		assert_int_equal(ha[k], hb[k]);
}

static void test_access_many(void **state)
{
	/* The mixed stream in batches of 0, 1, 2, 7, 8, 9, 16, 17, 100 and 1000 blocks (around the
	 * prefetch distances) and then the rest in one call, against reuse_access one by one; with
	 * a tiny tree (compactions and map growth inside batches) and the default one. */
	static const size_t batch[] = { 0, 1, 2, 7, 8, 9, 16, 17, 100, 1000 };
	static const size_t min_slots[] = { 3, REUSE_MIN_SLOTS };
	size_t n = 8000, m, done, i, k;
	uint64_t *s = stream_mixed(77, n);

	(void)state;
	for (m = 0; m < 2; m++) {
		struct reuse *one = reuse_create_sized(min_slots[m]);
		struct reuse *many = reuse_create_sized(min_slots[m]);

		for (i = 0; i < n; i++)
			reuse_access(one, s[i]);
		for (done = 0, k = 0; done < n; k++) {
			size_t len = k < sizeof batch / sizeof batch[0] ? batch[k] : n - done;

			if (len > n - done)
				len = n - done;
			reuse_access_many(many, s + done, len);
			done += len;
			reuse_check(many);
		}
		expect_same(one, many);
		if (m == 0)
			assert_true(reuse_compactions(many) >= 10);
		reuse_destroy(one);
		reuse_destroy(many);
	}
	free(s);
}

/* ---------------------------------------------------------------------------------------------
 * Capacity lists
 */

static void test_parse_good(void **state)
{
	uint64_t *v = NULL;
	size_t n = 0;
	struct sim_err err;

	(void)state;
	assert_int_equal(reuse_parse_capacities("--capacity", "128K,4M,40M", &v, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0], 131072);
	assert_int_equal(v[1], 4194304);
	assert_int_equal(v[2], 41943040);
	free(v);

	assert_int_equal(reuse_parse_capacities("--capacity", "1", &v, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0], 1);
	free(v);

	/* Plain bytes, lower-case suffixes, an optional B, G, and the largest value. */
	assert_int_equal(reuse_parse_capacities(NULL, "512,512B,2k,3m,1G,1GB,16G,16777215G,"
						"18446744073709551615,2g,007K", &v, &n, NULL), 0);
	assert_int_equal(n, 11);
	assert_int_equal(v[0], 512);
	assert_int_equal(v[1], 512);
	assert_int_equal(v[2], 2048);
	assert_int_equal(v[3], 3ull << 20);
	assert_int_equal(v[4], 1ull << 30);
	assert_int_equal(v[5], 1ull << 30);
	assert_int_equal(v[6], 16ull << 30);
	assert_int_equal(v[7], 16777215ull << 30);
	assert_int_equal(v[8], UINT64_MAX);
	assert_int_equal(v[9], 2ull << 30);
	assert_int_equal(v[10], 7ull << 10); /* decimal, not octal */
	free(v);
}

/* Expects list to fail with exactly msg, and the outputs cleared. */
static void expect_parse_error(const char *what, const char *list, const char *msg)
{
	uint64_t one = 1, *v = &one;
	size_t n = 5;
	struct sim_err err;

	memset(&err, 0, sizeof err);
	assert_int_equal(reuse_parse_capacities(what, list, &v, &n, &err), -1);
	assert_null(v);
	assert_int_equal(n, 0);
	assert_string_equal(err.msg, msg);
	assert_string_equal(err.file, "");
	assert_int_equal(err.line, 0);
	/* err may be NULL. */
	assert_int_equal(reuse_parse_capacities(what, list, &v, &n, NULL), -1);
}

static void test_parse_bad(void **state)
{
	(void)state;
	expect_parse_error("--capacity", "12Q",
			   "--capacity: \"12Q\": expected a size such as 128K, 4M or 40M");
	expect_parse_error("--capacity", "128K,4M,12Q,40M",
			   "--capacity: \"12Q\": expected a size such as 128K, 4M or 40M");
	expect_parse_error(NULL, "12Q", "\"12Q\": expected a size such as 128K, 4M or 40M");
	expect_parse_error("--capacity", "K",
			   "--capacity: \"K\": expected a size such as 128K, 4M or 40M");
	expect_parse_error("--capacity", "-1",
			   "--capacity: \"-1\": expected a size such as 128K, 4M or 40M");
	expect_parse_error("--capacity", " 4M",
			   "--capacity: \" 4M\": expected a size such as 128K, 4M or 40M");
	expect_parse_error("--capacity", "4MM",
			   "--capacity: \"4MM\": expected a size such as 128K, 4M or 40M");
	expect_parse_error("--capacity", "4Mb",
			   "--capacity: \"4Mb\": expected a size such as 128K, 4M or 40M");
	expect_parse_error("--capacity", "4.5M",
			   "--capacity: \"4.5M\": expected a size such as 128K, 4M or 40M");
	expect_parse_error("--capacity", "0x10",
			   "--capacity: \"0x10\": expected a size such as 128K, 4M or 40M");
	expect_parse_error("--capacity", "",
			   "--capacity: expected a size such as 128K, 4M or 40M, got nothing");
	expect_parse_error("--capacity", "4M,,8M",
			   "--capacity: \"4M,,8M\": empty entry; expected sizes separated by "
			   "single commas, such as 128K,4M,40M");
	expect_parse_error("--capacity", "4M,",
			   "--capacity: \"4M,\": empty entry; expected sizes separated by "
			   "single commas, such as 128K,4M,40M");
	expect_parse_error("--capacity", ",4M",
			   "--capacity: \",4M\": empty entry; expected sizes separated by "
			   "single commas, such as 128K,4M,40M");
	expect_parse_error("--capacity", "0",
			   "--capacity: \"0\": a capacity must be at least one byte");
	expect_parse_error("--capacity", "4M,0K",
			   "--capacity: \"0K\": a capacity must be at least one byte");
	/* 2^64 and 2^34 G = 2^64 overflow; 2^64 - 1 (above) does not. */
	expect_parse_error("--capacity", "18446744073709551616",
			   "--capacity: \"18446744073709551616\": larger than 2^64 - 1 bytes");
	expect_parse_error("--capacity", "17179869184G",
			   "--capacity: \"17179869184G\": larger than 2^64 - 1 bytes");
}

/* ---------------------------------------------------------------------------------------------
 * Contract
 */

static void test_contract(void **state)
{
	uint64_t *v;
	size_t n;

	(void)state;
	expect_assert_failure(reuse_create_sized(0));
	expect_assert_failure(reuse_parse_capacities("x", NULL, &v, &n, NULL));
	reuse_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abca),
		cmocka_unit_test(test_aa),
		cmocka_unit_test(test_abab),
		cmocka_unit_test(test_hit_rates),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_reference_on_hand_streams),
		cmocka_unit_test(test_random_uniform),
		cmocka_unit_test(test_random_mixed),
		cmocka_unit_test(test_edge_addresses),
		cmocka_unit_test(test_compaction),
		cmocka_unit_test(test_compaction_mixed),
		cmocka_unit_test(test_compaction_phases),
		cmocka_unit_test(test_compaction_invariance),
		cmocka_unit_test(test_access_many),
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_contract),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
