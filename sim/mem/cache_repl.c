/*
 * cache_repl.c - the cache's replacement policies, chosen by name (l1.replacement, ...).
 *
 *   lru     least recently used: the evictable way with the oldest last-use stamp (a touch
 *           or an insert). Exact LRU, as GPGPU-Sim's 'L' (last access time).
 *   fifo    first in, first out: the evictable way with the oldest insert stamp; hits do not
 *           matter (GPGPU-Sim's 'F').
 *   random  uniform among the evictable ways, from a GSL mt19937 generator seeded at creation:
 *           the same seed and the same calls give the same victims on every run and host.
 *   plru    tree pseudo-LRU (one bit per inner node of a binary tree over the ways, as in many
 *           real L1s); power-of-two associativity only, anything else is refused by
 *           cache_params_check rather than approximated.
 *
 * Contract (cache.h, struct cache_repl_ops): a policy sees the cache's stamps read-only and
 * keeps its own metadata only; it returns one of the evictable ways, never a reserved one. The
 * cache has already preferred an empty way, so policies never see invalid lines.
 *
 * Stamps are sequence numbers of the cache's own calls (strictly increasing, never equal for
 * two ways of a set once inserted), so lru and fifo need no state and break no ties.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "cache.h"

/* ---------------------------------------------------------------------------------------------
 * Helpers
 */

static bool way_evictable(const struct cache_repl_set *s, uint32_t w)
{
	return (s->evictable[w / 64] >> (w % 64)) & 1;
}

/* The evictable way with the smallest stamp; ways in increasing order, so a tie (impossible
 * with the cache's stamps) would go to the lowest way. */
static uint32_t oldest(const struct cache_repl_set *s, const uint64_t *stamp)
{
	uint32_t w, best = UINT32_MAX;

	for (w = 0; w < s->assoc; w++)
		if (way_evictable(s, w) && (best == UINT32_MAX || stamp[w] < stamp[best]))
			best = w;
	SIM_ASSERT(best != UINT32_MAX);
	return best;
}

/* ---------------------------------------------------------------------------------------------
 * lru, fifo: stateless
 */

static uint32_t lru_victim(void *st, const struct cache_repl_set *s)
{
	(void)st;
	return oldest(s, s->last_use);
}

static uint32_t fifo_victim(void *st, const struct cache_repl_set *s)
{
	(void)st;
	return oldest(s, s->inserted);
}

/* ---------------------------------------------------------------------------------------------
 * random
 */

#define MT_SEED_MASK 0xffffffffu /* GSL's mt19937 keeps 32 bits of the seed */

static void *random_init(uint32_t sets, uint32_t assoc, uint64_t seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (r == NULL)
		sim_panic("out of memory (gsl_rng_alloc)");
	/* Fold the high half in so seeds that differ only there still differ. GSL maps seed 0 to
	 * its default 4357, so seeds 0 and 4357 draw the same stream. */
	gsl_rng_set(r, (unsigned long)((seed ^ (seed >> 32)) & MT_SEED_MASK));
	return r;
}

static void random_fini(void *st)
{
	gsl_rng_free(st);
}

/* The k-th (from 0) evictable way, k uniform in [0, number of evictable ways). */
static uint32_t random_victim(void *st, const struct cache_repl_set *s)
{
	uint32_t w, n = 0, k;

	for (w = 0; w < s->assoc; w++)
		n += way_evictable(s, w);
	SIM_ASSERT(n > 0);
	k = (uint32_t)gsl_rng_uniform_int(st, n);
	for (w = 0; w < s->assoc; w++)
		if (way_evictable(s, w) && k-- == 0)
			return w;
	sim_panic("random_victim: no evictable way");
}

/* ---------------------------------------------------------------------------------------------
 * plru: tree pseudo-LRU
 *
 * Inner nodes are numbered as a heap, 1 = root, children of n are 2n (left, lower ways) and
 * 2n+1 (right); way w is leaf assoc + w. Node n's bit says where the next victim is: 0 = left,
 * 1 = right. A use of way w sets every bit on its path to point away from it. Example, 4 ways,
 * nodes 1 (ways 0-1 | 2-3), 2 (0 | 1), 3 (2 | 3), state written "b1 b2 b3": from 000, a use of
 * way 0 gives 110, then way 2 gives 011: the victim is then way 1 (root 0 -> node 2, bit 1).
 *
 * With reserved ways, the walk follows a node's bit unless that side has no evictable way, and
 * then takes the other side: the result is the pseudo-LRU way among those that may go.
 */

struct plru {
	uint32_t assoc;
	uint32_t words;  /* uint64_t words per set: bits 1 .. assoc-1 (bit 0 unused) */
	uint64_t *bits;
};

static int plru_check(uint32_t assoc, const char *group, struct sim_err *err)
{
	if (assoc & (assoc - 1))
		return sim_err_set(err, NULL, 0, "%s.replacement: plru needs a power-of-two assoc, "
				   "got %u (lru, fifo and random take any)", group, assoc);
	return 0;
}

static void *plru_init(uint32_t sets, uint32_t assoc, uint64_t seed)
{
	struct plru *p = xcalloc(1, sizeof *p);

	SIM_ASSERT(assoc >= 1 && (assoc & (assoc - 1)) == 0);
	p->assoc = assoc;
	p->words = (assoc + 63) / 64;
	p->bits = xcalloc((size_t)sets * p->words, sizeof *p->bits);
	return p;
}

static void plru_fini(void *st)
{
	struct plru *p = st;

	free(p->bits);
	free(p);
}

static bool plru_bit(const struct plru *p, uint32_t set, uint32_t n)
{
	return (p->bits[(size_t)set * p->words + n / 64] >> (n % 64)) & 1;
}

static void plru_set_bit(struct plru *p, uint32_t set, uint32_t n, bool v)
{
	uint64_t *w = &p->bits[(size_t)set * p->words + n / 64];

	if (v)
		*w |= 1ull << (n % 64);
	else
		*w &= ~(1ull << (n % 64));
}

/* Points the path from the root to way's leaf away from it. */
static void plru_use(void *st, uint32_t set, uint32_t way)
{
	struct plru *p = st;
	uint32_t n = p->assoc + way;

	while (n > 1) {
		bool was_right = n & 1;

		n /= 2;
		plru_set_bit(p, set, n, !was_right);
	}
}

/* True if the ways under node n (leaves included) hold an evictable way. */
static bool plru_side_ok(const struct plru *p, const struct cache_repl_set *s, uint32_t n)
{
	uint32_t lo = n, hi = n + 1, w;

	while (lo < p->assoc) { /* descend to the leaf level: [lo, hi) */
		lo *= 2;
		hi *= 2;
	}
	for (w = lo - p->assoc; w < hi - p->assoc; w++)
		if (way_evictable(s, w))
			return true;
	return false;
}

static uint32_t plru_victim(void *st, const struct cache_repl_set *s)
{
	struct plru *p = st;
	uint32_t n = 1;

	SIM_ASSERT(s->assoc == p->assoc);
	while (n < p->assoc) {
		uint32_t pick = 2 * n + plru_bit(p, s->set, n);

		n = plru_side_ok(p, s, pick) ? pick : (pick ^ 1);
	}
	SIM_ASSERT(way_evictable(s, n - p->assoc));
	return n - p->assoc;
}

/* "tree b1 b2 ... b(assoc-1)" as digits; "tree -" for one way. */
static void plru_state(const void *st, uint32_t set, uint32_t assoc, char *buf, size_t size)
{
	const struct plru *p = st;
	size_t len;
	uint32_t n;

	len = (size_t)snprintf(buf, size, "tree %s", assoc == 1 ? "-" : "");
	for (n = 1; n < assoc && len + 1 < size; n++, len++) {
		buf[len] = plru_bit(p, set, n) ? '1' : '0';
		buf[len + 1] = '\0';
	}
}

/* ---------------------------------------------------------------------------------------------
 * Registry
 */

static const struct cache_repl_ops policies[CACHE_REPL_COUNT] = {
	[CACHE_REPL_LRU] = { "lru", "least recently used (exact)", NULL, NULL, NULL, NULL, NULL,
			     lru_victim, NULL },
	[CACHE_REPL_FIFO] = { "fifo", "oldest insert first; hits do not count", NULL, NULL, NULL,
			      NULL, NULL, fifo_victim, NULL },
	[CACHE_REPL_RANDOM] = { "random", "uniform among evictable ways, seeded from sim.seed",
				NULL, random_init, random_fini, NULL, NULL, random_victim, NULL },
	[CACHE_REPL_PLRU] = { "plru", "tree pseudo-LRU; power-of-two assoc only", plru_check,
			      plru_init, plru_fini, plru_use, plru_use, plru_victim, plru_state },
};

const char *const cache_repl_names[] = {
#define X(e, n) #n,
	CACHE_REPL_LIST(X)
#undef X
	NULL
};

const struct cache_repl_ops *cache_repl_get(uint32_t i)
{
	return i < CACHE_REPL_COUNT ? &policies[i] : NULL;
}
