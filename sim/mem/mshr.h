/*
 * mshr.h - miss status holding registers: the misses a cache has sent down and the requests
 * waiting for them, shared by the L1 and the L2 slices.
 *
 * A cache calls mshr_add for each request that misses on one or more sectors of a line. The
 * MSHR either opens a new entry (the caller sends the miss down), merges the request behind an
 * entry already in flight (no new miss), or refuses it (the caller stalls and retries; nothing
 * changed). When data returns the cache calls mshr_fill with the sectors that arrived and gets
 * back, in arrival order, the requests that now have everything they waited for.
 *
 * Granularity (mshr.granularity)
 *   sector  one entry per 32 B sector in flight (GPGPU-Sim's sectored caches key the MSHR by the
 *           sector address). A request missing two sectors of a line takes two entries, or
 *           merges into the ones already there; max_merge applies to each sector entry.
 *   line    one entry per line in flight, which tracks which sectors it has asked for. A request
 *           for a sector the entry has not asked for merges into the entry and makes it ask for
 *           the extra sectors (MSHR_MERGED_NEEDS_SECTORS): no new entry, one more miss.
 * Either way the MSHR files requests by line; the granularity decides what an "entry" is when
 * capacity (entries) and the merge limit (max_merge, the primary included) are counted.
 *
 * What a request waits for. mshr_add takes `need`, the sectors of the line the request still
 * lacks, separately from r->sector_mask: a request that hits on sectors 0-1 and misses on 2-3
 * waits only for 2-3. A request comes back from mshr_fill once every sector of its `need` has
 * been filled after it was added.
 *
 * Ownership. The MSHR never allocates, frees or forwards requests; it only remembers pointers
 * (in its own waiter slots, not in the request, so the same request may sit in the L1's MSHR
 * and then in an L2 slice's MSHR). The only field it writes is r->merged, and only on the
 * requests mshr_fill returns: there r->merged links the returned chain (NULL-terminated). It
 * never reads r->merged or r->next.
 *
 * Cost: lookups are O(1) on average (open addressing over a table twice the entry count);
 * mshr_fill walks the waiters of one line. Waiter slots come from a pool that grows by doubling
 * up to entries x max_merge, so after warm-up nothing is allocated.
 */
#ifndef SIM_MSHR_H
#define SIM_MSHR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"
#include "req.h"
#include "stats.h"
#include "types.h"

enum mshr_granularity { MSHR_GRAN_SECTOR, MSHR_GRAN_LINE, MSHR_GRAN_COUNT };

/* l1d.mshr, l2.mshr: the same table serves every cache level (one group per level). */
struct mshr_params {
	uint32_t entries;     /* sector or line entries, by granularity */
	uint32_t max_merge;   /* requests per entry, the primary included */
	uint32_t granularity; /* enum mshr_granularity */
};

extern const char *const mshr_granularity_names[];
extern const struct cfg_field mshr_fields[];
extern const size_t mshr_nfields;
#define MSHR_NFIELDS 3 /* entries of mshr_fields[] (checked in the .c) */

/* Most sectors a line may have: the width of mem_req.sector_mask. */
#define MSHR_MAX_SECTORS 32

/* What mshr_add did: X(ENUM_SUFFIX, "name"). */
#define MSHR_RESULTS(X)                                    \
	X(NEW, "new")                                      \
	X(MERGED, "merged")                                \
	X(MERGED_NEEDS_SECTORS, "merged_needs_sectors")    \
	X(FULL, "full")                                    \
	X(MERGE_FULL, "merge_full")

enum mshr_result {
#define MSHR_RESULT_ENUM(e, s) MSHR_##e,
	MSHR_RESULTS(MSHR_RESULT_ENUM)
#undef MSHR_RESULT_ENUM
	MSHR_RESULT_COUNT
};

/*
 * The results, and what the caller does:
 *   MSHR_NEW                  r joined no existing entry; new entries were opened for all of
 *                             `need`. Send a miss for *fetch (== need).
 *   MSHR_MERGED               r waits behind entries already in flight. Send nothing.
 *   MSHR_MERGED_NEEDS_SECTORS r joined an existing entry, but some sectors of `need` are not
 *                             in flight: send a miss for *fetch (those sectors only). Line
 *                             granularity: the line entry now also waits for them. Sector
 *                             granularity: new sector entries were opened for them.
 *   MSHR_FULL                 not enough free entries. Nothing changed; stall ("no MSHR").
 *   MSHR_MERGE_FULL           an entry r would join already holds max_merge requests. Nothing
 *                             changed; stall ("merge limit"). Checked before MSHR_FULL.
 * So: a miss goes down exactly when *fetch != 0, and then for exactly the sectors in *fetch.
 */

struct mshr;

/* What the field ranges cannot check, for lines of line_bytes made of sectors of sector_bytes
 * (as cache_params_check passed them): with sector granularity, at least an entry for each
 * sector of a line, since a request for a whole line takes one per sector at once (with fewer,
 * the first such request waits for ever). Errors name group ("l2.mshr"). */
int mshr_params_check(const struct mshr_params *p, uint32_t line_bytes, uint32_t sector_bytes,
		      const char *group, struct sim_err *err);

/* An MSHR for lines of line_bytes bytes made of sectors of sector_bytes (both powers of two,
 * sector_bytes <= line_bytes, at most MSHR_MAX_SECTORS sectors; SIM_ASSERT otherwise). p is
 * copied. Registers statistics under prefix ("sm3.l1d.mshr") unless st is NULL. Never NULL. */
struct mshr *mshr_create(const struct mshr_params *p, uint32_t line_bytes, uint32_t sector_bytes,
			 struct stats *st, const char *prefix);
/* Frees the MSHR, never the requests still waiting (the caller owns those). */
void mshr_destroy(struct mshr *m);

/* What mshr_add(m, r, need, fetch) would return for a request for line addr; pure (no stats,
 * no change). fetch may be NULL. need: non-empty mask of sectors of the line (SIM_ASSERT). */
enum mshr_result mshr_probe(const struct mshr *m, addr_t addr, uint32_t need, uint32_t *fetch);
/* True if mshr_add would accept the request (any result but MSHR_FULL and MSHR_MERGE_FULL). */
bool mshr_can_add(const struct mshr *m, addr_t addr, uint32_t need);
/* Files r as waiting for sectors `need` of line r->addr (any address in the line). On an
 * accepted result r stays the caller's but must not be handed to mshr_add again until mshr_fill
 * returns it; *fetch (may be NULL) gets the sectors to request from below, 0 if none. Refusals
 * are counted in fail_full / fail_merge each time they happen, and change nothing else. */
enum mshr_result mshr_add(struct mshr *m, struct mem_req *r, uint32_t need, uint32_t *fetch);
/* Sectors `sectors` of the line holding addr have arrived. Returns the requests whose whole
 * `need` has now been filled, oldest first, chained through ->merged and NULL-terminated (NULL
 * if none); they are the caller's again. Sectors not in flight are ignored. An entry is freed
 * when none of its sectors is in flight any more; requests still missing sectors stay. */
struct mem_req *mshr_fill(struct mshr *m, addr_t addr, uint32_t sectors);
/* The index of line addr's record while anything of it is in flight (it stays the line's until
 * its last sector is filled), or UINT32_MAX. */
uint32_t mshr_record(const struct mshr *m, addr_t addr);
/* mshr_fill of line addr, whose record is rec (mshr_record's while the sectors were in flight;
 * checked by the debug build only): no table lookup. For a fill that comes long after its miss,
 * when the table's slot would be read from cold memory. */
struct mem_req *mshr_fill_at(struct mshr *m, uint32_t rec, addr_t addr, uint32_t sectors);

/* Sectors of the line holding addr that are in flight (0: no entry). */
uint32_t mshr_pending(const struct mshr *m, addr_t addr);
/* Entries in use (sector or line entries by granularity), and the configured number. */
uint32_t mshr_used(const struct mshr *m);
uint32_t mshr_entries(const struct mshr *m);
/* Requests waiting. */
uint64_t mshr_waiting(const struct mshr *m);
/* True when nothing is in flight and nothing waits. */
bool mshr_is_empty(const struct mshr *m);

const char *mshr_result_name(enum mshr_result r);

/* Invariants (SIM_ASSERT): see the top of mshr.c. */
void mshr_check(const struct mshr *m);
/* Every entry and its waiters, for the watchdog, headed by the statistics prefix. */
void mshr_dump(const struct mshr *m, FILE *out);

#endif /* SIM_MSHR_H */
