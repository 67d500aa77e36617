/*
 * level.h - what the L1 and the L2 slice share: taking requests from the head of their input
 * into a sectored cache with an MSHR (the lookup, the refusals and their stall cycles, a load
 * miss's admission into the MSHR), and the reply pipeline that pushes replies up after the hit
 * latency. Each level keeps what is its own: its miss queue and what goes down (an L1 sends one
 * request per miss, an L2 slice one DRAM read per sector and its victims' write-backs), its fill
 * port, its write policy.
 *
 * A level's head of line (struct level_head): the request at the head of `in` is looked up; if
 * it cannot be taken (a reason of enum level_stall) it stays at the head, the level stops taking
 * requests this cycle, and the cycles until it is taken are charged to the reason
 * (level_head_charge, when the head is next tried). A refused head is not looked up again
 * until what the refusal depended on can have changed (level_head_same): the MSHR, its merge
 * limit and a fully reserved set change only at a fill; the L2's miss queue also at its drain,
 * and with one input only once it has as many free slots as the head needs (level_head_waits).
 *
 * The reply pipeline (struct level_replyq): a ring of slots, each a hit or the chain of requests
 * (linked by ->merged) one fill satisfied, with the cycle it is due; sized so that it is never
 * full while the link above keeps up ((lookups + fills) x (hit latency + 1): every cycle adds at
 * most lookups + fills slots, each due hit latency cycles later). level_replyq_send pushes the
 * due requests in order; a refused push leaves the rest for later (the link's pop wakes the
 * level, its producer), and the cycles a reply waits count in reply_stalls from its first
 * refusal. Each reply is counted in the level's latency distributions by outcome, from the cycle
 * its request became visible (the ACCESS stage stamp) to the cycle it is pushed.
 */
#ifndef SIM_LEVEL_H
#define SIM_LEVEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cache.h"
#include "mshr.h"
#include "req.h"
#include "types.h"

struct clock;
struct link;
struct stats;
struct stats_dist;

/* Slot head + i of a ring of cap slots (head < cap, i < cap): a compare instead of a division,
 * since the ring sizes are run-time values. */
static inline uint32_t ring_at(uint32_t head, uint32_t i, uint32_t cap)
{
	uint32_t k = head + i;

	return k >= cap ? k - cap : k;
}

/* Why the head of a level's input waits: X(ENUM_SUFFIX, "name"). */
#define LEVEL_STALLS(X)                       \
	X(NONE, "none")                       \
	X(MSHR_FULL, "mshr_full")             \
	X(MERGE_LIMIT, "merge_limit")         \
	X(NO_LINE, "no_line")                 \
	X(MISS_QUEUE_FULL, "miss_queue_full") \
	X(REPLY_FULL, "reply_full")

enum level_stall {
#define LEVEL_STALL_ENUM(e, s) LEVEL_STALL_##e,
	LEVEL_STALLS(LEVEL_STALL_ENUM)
#undef LEVEL_STALL_ENUM
	LEVEL_STALL_COUNT
};
extern const char *const level_stall_names[LEVEL_STALL_COUNT];

/*
 * The counters every level keeps, first in its statistics struct (l1_stats, l2_stats open with
 * the same fields through LEVEL_STATS_FIELDS, in a union with this struct, so that the level's
 * own names and these functions see the same counters).
 */
#define LEVEL_STATS_FIELDS                                                                \
	uint64_t accesses;        /* requests accepted (taken from `in`) */                \
	uint64_t loads;                                                                    \
	uint64_t stores;                                                                   \
	uint64_t hits;            /* a load with every sector present, a store (see level) */ \
	uint64_t sector_misses;   /* line present, some requested sector (or byte) not */  \
	uint64_t line_misses;     /* line absent */                                        \
	uint64_t mshr_merges;     /* load misses that joined an MSHR entry in flight */     \
	uint64_t stall_mshr_full; /* cycles the head of `in` waited: no free MSHR entry */ \
	uint64_t stall_merge_limit; /* ... an MSHR entry at its merge limit */             \
	uint64_t stall_no_line;   /* ... every way of the set reserved */                  \
	uint64_t stall_miss_queue_full; /* ... no room in the miss queue */                \
	uint64_t stall_reply_full; /* ... no room in the reply pipeline (or for an ack) */

struct level_stats {
	LEVEL_STATS_FIELDS
};

/* Counts an accepted request's outcome: accesses, and hits, sector or line misses. */
void level_count(struct level_stats *st, enum cache_outcome o);

/* The head of a level's input. */
struct level_head {
	const void *seen;        /* the request cache_lookup_head counted already */
	enum level_stall stall;  /* why the head waits (LEVEL_STALL_NONE: it does not) */
	cycle_t stall_at;        /* charged up to this cycle */
	uint64_t fill_gen;       /* the level's fills when it was refused */
	uint32_t mq_n;           /* the level's miss-queue occupancy then */
	uint32_t mq_want;        /* refused for the miss queue: the free slots it needs */
};

void level_head_init(struct level_head *h);
/* Charges the cycles since the last charge to the head's stall reason and clears it. */
void level_head_charge(struct level_head *h, struct level_stats *st, cycle_t now);
/* The head was refused at now for why; fill_gen and mq_n are what the answer depends on. */
void level_head_refused(struct level_head *h, enum level_stall why, cycle_t now,
			uint64_t fill_gen, uint32_t mq_n);
/* The head, refused for the miss queue (after level_head_refused), needs want free slots (0:
 * not their count alone decides: level_head_waits never holds). */
void level_head_wants(struct level_head *h, uint32_t want);
/* Whether trying r again would meet the same refusal: r is the head refused last time, for the
 * MSHR, its merge limit or a fully reserved set, and no fill came since (or, when mq_counts,
 * for the miss queue with neither a fill nor a change of the miss queue since). */
bool level_head_same(const struct level_head *h, const struct mem_req *r, uint64_t fill_gen,
		     uint32_t mq_n, bool mq_counts);
/* The same for a level with one input that notes what a head refused for its miss queue wants
 * (level_head_wants): r is that head and the free slots (mq_free) are still fewer than it
 * needs, whatever was filled since. A load's refusal came after the lookup and the MSHR's test,
 * and a fill changes neither answer nor the slots it needs: of an absent line nothing is in
 * flight, and of a present one the fill only makes valid sectors that were in flight, which
 * the load did not have to fetch (a load with nothing to fetch needs no slot), and frees MSHR
 * entries and merge slots. A store's refusal is the first test after its lookup (the L1's), or
 * comes only for an absent line (the L2's). Only a request taken meanwhile could change them,
 * and a level with one input takes none. */
bool level_head_waits(const struct level_head *h, const struct mem_req *r, uint32_t mq_free);

/* One line for the watchdog: the head of in, and why it waits. */
void level_head_dump(const struct level_head *h, const struct link *in, const char *name,
		     FILE *out);

/*
 * The lookup of r, the visible head: its line, the bytes it names (a load may name the bytes
 * it needs, then exactly in its sectors; a store must), and the cache's answer (counted once
 * per request: cache_lookup_head with h->seen). Returns the bytes in *bytes when r has them.
 */
bool level_lookup(struct cache *c, struct level_head *h, const struct mem_req *r, addr_t line,
		  struct cache_bytes *bytes, struct cache_lookup *lk);

/* A load hit: a slot in the reply pipeline q (else LEVEL_STALL_REPLY_FULL), stamped at the
 * tick it became visible, counted, its reply due at cycle ready. */
struct level_replyq;
enum level_stall level_load_hit(struct level_replyq *q, struct level_stats *st, struct mem_req *r,
				tick_t visible_tick, cycle_t ready);

/*
 * A load that missed (lk): the MSHR's answer. On a refusal (no entry, or the entry's merge
 * limit) the refusal is counted in the MSHR and the stall returned; else LEVEL_STALL_NONE with
 * *res and *fetch, the sectors this miss must fetch (some may be in flight already).
 */
enum level_stall level_miss_probe(struct mshr *m, struct mem_req *r, addr_t line,
				  const struct cache_lookup *lk, enum mshr_result *res,
				  uint32_t *fetch);
/*
 * Then, once the level has room for what the miss sends down: the line's sectors to fetch are
 * reserved, on a line miss by allocating the line (the victim in *victim, for the level to
 * write back or check; LEVEL_STALL_NO_LINE when every way of the set is reserved). *at (if at
 * is not NULL) gets the line's index in the cache (cache_line_at) when it is reserved.
 */
enum level_stall level_miss_reserve(struct cache *c, addr_t line, const struct cache_lookup *lk,
				    enum mshr_result res, uint32_t fetch,
				    struct cache_line_info *victim, uint32_t *at);
/*
 * Then the load enters the MSHR: stamped `access` at the tick it became visible and `miss` at
 * now_tick, merged into the entry in flight or given a new one (as probed), and counted (an
 * access with its outcome, a load, a merge). The level sends its fetch down.
 */
void level_miss_admit(struct mshr *m, struct level_stats *st, struct mem_req *r, addr_t line,
		      const struct cache_lookup *lk, enum mshr_result res, uint32_t fetch,
		      enum mem_stage access, tick_t visible_tick, enum mem_stage miss,
		      tick_t now_tick);

/* One slot of the reply pipeline. */
struct level_reply {
	cycle_t ready;
	struct mem_req *chain; /* linked by ->merged */
};

struct level_replyq {
	struct level_reply *slots;
	uint32_t cap, head, n;
	struct link *out;         /* where replies go up */
	enum mem_stage access, miss; /* the level's stages: latency from access; miss if stamped */
	bool blocked;             /* out refused this cycle: its pop wakes the level */
	cycle_t wait_since;       /* first refused cycle of the reply at the head */
	struct stats_dist *lat_hit, *lat_miss, *lat_store;
};

/* A pipeline of cap slots replying on out. */
void level_replyq_init(struct level_replyq *q, uint32_t cap, struct link *out,
		       enum mem_stage access, enum mem_stage miss);
void level_replyq_free(struct level_replyq *q);
/* Registers <prefix>.latency_hit, .latency_miss and .latency_store, each with `bins` bins up to
 * max cycles and its description. */
void level_replyq_register(struct level_replyq *q, struct stats *st, const char *prefix,
			   double max, uint32_t bins, const char *hit_desc, const char *miss_desc,
			   const char *store_desc);
static inline bool level_replyq_has_room(const struct level_replyq *q)
{
	return q->n < q->cap;
}
/* Queues chain (non-empty), due at cycle ready (>= the last one queued). */
void level_replyq_push(struct level_replyq *q, cycle_t ready, struct mem_req *chain);
/* The cycle the head slot is due; CYCLE_NEVER when empty. */
cycle_t level_replyq_next(const struct level_replyq *q);
/*
 * Pushes r on out as a reply at cycle now (period: the level's clock period, for the latency
 * in cycles). False, with nothing changed but the wait, when out is full (q->blocked set).
 * Counts the reply (replies) and the cycles it waited (reply_stalls), and takes it off the
 * level's count of requests inside (*inside).
 */
bool level_reply(struct level_replyq *q, struct mem_req *r, cycle_t now, tick_t period,
		 uint64_t *replies, uint64_t *reply_stalls, uint64_t *inside);
/* Pushes every due slot's requests, in order, until out refuses one. Returns false if it did
 * (the rest wait; q->blocked). */
bool level_replyq_send(struct level_replyq *q, cycle_t now, tick_t period, uint64_t *replies,
		       uint64_t *reply_stalls, uint64_t *inside);
/* SIM_ASSERTs slots <= capacity, non-empty chains, non-decreasing due cycles; returns the
 * requests in the pipeline. */
uint64_t level_replyq_check(const struct level_replyq *q);

#endif /* SIM_LEVEL_H */
