/*
 * reuse.h - stack-distance (reuse-distance) analysis of a stream of block addresses.
 *
 * The caller feeds one block address per access (a byte address divided by the granularity of
 * interest: 32 B sectors or 128 B lines). For each access the reuse distance, also called the
 * LRU stack distance, is the number of DISTINCT other blocks accessed since the previous access
 * to the same block; the first access to a block has infinite distance (a cold miss).
 *
 *   stream   A    B    C    A    A    B
 *   distance inf  inf  inf  2    0    2
 *
 * Mattson's inclusion property makes one pass enough for every cache size: a fully associative
 * LRU cache of C blocks hits an access iff its distance < C. So after the stream,
 * reuse_hits_at(r, C) is exactly the hit count of such a cache, for any C, with no
 * approximation: the engine keeps one exact counter per distance (distances are below the
 * number of distinct blocks, so that array is bounded by the footprint, not by the stream).
 *
 * Cost: O(log T) per access, T = O(distinct blocks) (a Fenwick tree over access timestamps, see
 * reuse.c), plus amortised O(1) growth; memory O(distinct blocks), 30 to 60 B per distinct
 * block (most of it hash map), independent of the stream length, so streams of 10^8 and more
 * accesses are fine. No allocation per access beyond amortised doubling of the tables. On a
 * 5M-block footprint bench_reuse measures about 10 M accesses/s through reuse_access_many and
 * 3 M/s through reuse_access, which waits for one hash-map cache miss per call.
 *
 * Not modelled: set associativity and conflict misses (the result is for a fully associative
 * LRU cache), replacement policies other than LRU, writes versus reads, and timing. The library
 * is a pure function of the stream: no clock, no links, no statistics registry.
 *
 * Limits: at most UINT32_MAX distinct blocks (the tree counts are 32-bit; one more fails
 * SIM_ASSERT). At 16 B of hash table per block that is 64 GiB of table, far beyond any trace
 * we run (2^32 sectors are a 128 GiB footprint).
 *
 * Ownership: a struct reuse is owned by its creator and freed by reuse_destroy. Every query is
 * read-only and may be called at any point in the stream.
 */
#ifndef SIM_REUSE_H
#define SIM_REUSE_H

#include <stddef.h>
#include <stdint.h>

#include "log.h"

/* The distance reuse_access returns for a first access (a cold miss). */
#define REUSE_COLD UINT64_MAX
/* Buckets reuse_histogram can fill: bucket 0 holds distance 0 and bucket k >= 1 holds
 * [2^(k-1), 2^k), so 65 buckets cover every uint64_t distance. */
#define REUSE_HIST_BUCKETS 65
/* Timestamp slots reuse_create starts with and never compacts below: 2^16 slots are 8 KiB of
 * bitmap and 4 KiB of tree (see reuse.c), which fit in L1, while a small footprint still
 * compacts only once per tens of thousands of accesses. */
#define REUSE_MIN_SLOTS (1u << 16)

struct reuse;

/* An empty engine with the default minimum tree size REUSE_MIN_SLOTS. Never NULL. */
struct reuse *reuse_create(void);
/* The same with a minimum tree size of min_slots (>= 1, SIM_ASSERT). Only memory and the
 * compaction frequency depend on it, never a result; tests pass a tiny value to make the
 * compaction run often. Never NULL. */
struct reuse *reuse_create_sized(size_t min_slots);
/* Frees r and everything it owns. r may be NULL. */
void reuse_destroy(struct reuse *r);

/* Records one access to block and returns its reuse distance, or REUSE_COLD for the first
 * access to block. Any uint64_t is a valid block address. */
uint64_t reuse_access(struct reuse *r, uint64_t block);
/* Records blocks[0..n) in order: the same result as n calls of reuse_access, several times
 * faster on large footprints (it prefetches ahead in blocks, which stays the caller's). Use it
 * when the distances themselves are not needed. n may be 0. */
void reuse_access_many(struct reuse *r, const uint64_t *blocks, size_t n);

/* Accesses recorded, cold misses among them, and distinct blocks (equal to the cold misses). */
uint64_t reuse_accesses(const struct reuse *r);
uint64_t reuse_cold(const struct reuse *r);
uint64_t reuse_distinct(const struct reuse *r);
/* How many times the tree was compacted (renumbered); a diagnostic for tests and benchmarks. */
uint64_t reuse_compactions(const struct reuse *r);

/* Accesses with distance < capacity_blocks: the exact hit count of a fully associative LRU
 * cache of that many blocks that starts empty. 0 for capacity 0. O(min(capacity, distinct)). */
uint64_t reuse_hits_at(const struct reuse *r, uint64_t capacity_blocks);
/* reuse_hits_at / reuse_accesses; NaN when no access was recorded. */
double reuse_hit_rate(const struct reuse *r, uint64_t capacity_blocks);
/* Writes the power-of-two histogram of the finite distances (cold misses are not in it; see
 * reuse_cold) into buckets[0 .. min(n, max)) and returns n, the number of buckets up to the
 * last non-empty one (0 when no access was a reuse). n <= REUSE_HIST_BUCKETS, so a buffer of
 * REUSE_HIST_BUCKETS is always enough; with a smaller max the tail is left out. buckets may be
 * NULL when max is 0. */
size_t reuse_histogram(const struct reuse *r, uint64_t *buckets, size_t max);

/* Checks every invariant listed in reuse.c (SIM_ASSERT). O(tree size + hash table size). */
void reuse_check(const struct reuse *r);

/*
 * Parses a comma-separated list of sizes in bytes such as "128K,4M,40M": each entry is decimal
 * digits, optionally followed by K, M or G (powers of 1024, either case), optionally followed
 * by B ("512", "512B", "128K", "128KB", "40M", "1G"). No spaces, no empty entries, no zero.
 * On success returns 0 with *out a malloc'd array of *n >= 1 sizes in list order (the caller
 * frees it). On failure returns -1, sets *out = NULL and *n = 0 and fills err (may be NULL)
 * with a message that starts with what (for example "--capacity"; may be NULL) and quotes the
 * bad entry:
 *   --capacity: "12Q": expected a size such as 128K, 4M or 40M
 */
int reuse_parse_capacities(const char *what, const char *list, uint64_t **out, size_t *n,
			   struct sim_err *err);

#endif /* SIM_REUSE_H */
