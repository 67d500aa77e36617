/*
 * level.c - what the L1 and the L2 slice share (contract in level.h).
 *
 * A load miss in three steps, so that each level can put its own checks in between:
 *
 *   level_miss_probe    MSHR full or entry at its merge limit -> refused (counted in the MSHR)
 *        |  (the level: room in its miss queue for what the miss sends down?)
 *   level_miss_reserve  line miss: allocate the line (every way reserved -> refused), victim out
 *        |              sector miss: reserve the sectors to fetch
 *        |  (the level: write the victim back, or check it is clean)
 *   level_miss_admit    stamps, mshr_add (as probed), counters
 *           (the level: send the fetch down)
 *
 * Nothing changes before the last step can no longer be refused: a refused request leaves the
 * cache and the MSHR as they were, but for the MSHR's per-attempt refusal counters.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level.h"
#include "link.h"
#include "log.h"
#include "stats.h"

const char *const level_stall_names[LEVEL_STALL_COUNT] = {
#define LEVEL_STALL_NAME(e, s) s,
	LEVEL_STALLS(LEVEL_STALL_NAME)
#undef LEVEL_STALL_NAME
};

void level_count(struct level_stats *st, enum cache_outcome o)
{
	st->accesses++;
	if (o == CACHE_HIT)
		st->hits++;
	else if (o == CACHE_SECTOR_MISS)
		st->sector_misses++;
	else
		st->line_misses++;
}

/* ---------------------------------------------------------------------------------------------
 * The head of the input
 */

void level_head_init(struct level_head *h)
{
	memset(h, 0, sizeof *h);
	h->stall = LEVEL_STALL_NONE;
}

void level_head_charge(struct level_head *h, struct level_stats *st, cycle_t now)
{
	uint64_t *ctr[LEVEL_STALL_COUNT] = {
		NULL, &st->stall_mshr_full, &st->stall_merge_limit, &st->stall_no_line,
		&st->stall_miss_queue_full, &st->stall_reply_full,
	};

	if (h->stall != LEVEL_STALL_NONE) {
		*ctr[h->stall] += now - h->stall_at;
		h->stall = LEVEL_STALL_NONE;
	}
}

void level_head_refused(struct level_head *h, enum level_stall why, cycle_t now,
			uint64_t fill_gen, uint32_t mq_n)
{
	h->stall = why;
	h->stall_at = now;
	h->fill_gen = fill_gen;
	h->mq_n = mq_n;
}

void level_head_wants(struct level_head *h, uint32_t want)
{
	SIM_ASSERT(h->stall == LEVEL_STALL_MISS_QUEUE_FULL);
	h->mq_want = want;
}

bool level_head_same(const struct level_head *h, const struct mem_req *r, uint64_t fill_gen,
		     uint32_t mq_n, bool mq_counts)
{
	if (r != h->seen || fill_gen != h->fill_gen)
		return false;
	switch (h->stall) {
	case LEVEL_STALL_MSHR_FULL:
	case LEVEL_STALL_MERGE_LIMIT:
	case LEVEL_STALL_NO_LINE:
		return true;
	case LEVEL_STALL_MISS_QUEUE_FULL:
		return mq_counts && mq_n == h->mq_n;
	default:
		return false;
	}
}

bool level_head_waits(const struct level_head *h, const struct mem_req *r, uint32_t mq_free)
{
	return r == h->seen && h->stall == LEVEL_STALL_MISS_QUEUE_FULL && mq_free < h->mq_want;
}

void level_head_dump(const struct level_head *h, const struct link *in, const char *name,
		     FILE *out)
{
	const struct mem_req *r = link_peek(in);

	fprintf(out, "  head of %s: ", name);
	if (r != NULL)
		fprintf(out, "req %" PRIu64 " %s 0x%" PRIx64 " sectors 0x%x", r->id,
			mem_req_type_name(r->type), r->addr, r->sector_mask);
	else
		fprintf(out, "none visible (next at %" PRIu64 ")", link_head_ready(in));
	if (h->stall != LEVEL_STALL_NONE)
		fprintf(out, ", stalled (%s) since cycle %" PRIu64, level_stall_names[h->stall],
			h->stall_at);
	fprintf(out, "\n");
}

bool level_lookup(struct cache *c, struct level_head *h, const struct mem_req *r, addr_t line,
		  struct cache_bytes *bytes, struct cache_lookup *lk)
{
	const struct cache_geom *g = cache_geom(c);
	bool has_bytes = cache_bytes_of_req(r, bytes);

	SIM_ASSERT(r->sector_mask != 0 && (r->sector_mask & ~g->full_mask) == 0);
	SIM_ASSERT(r->type == MEM_REQ_LOAD || r->type == MEM_REQ_STORE);
	SIM_ASSERT(!has_bytes || cache_sectors_of(c, bytes) == r->sector_mask);
	SIM_ASSERT(r->type == MEM_REQ_LOAD || has_bytes);
	cache_lookup_head(c, &h->seen, r, line, r->sector_mask, has_bytes ? bytes : NULL, lk);
	return has_bytes;
}

enum level_stall level_load_hit(struct level_replyq *q, struct level_stats *st, struct mem_req *r,
				tick_t visible_tick, cycle_t ready)
{
	if (!level_replyq_has_room(q))
		return LEVEL_STALL_REPLY_FULL;
	req_enter(r, q->access, visible_tick);
	level_count(st, CACHE_HIT);
	st->loads++;
	r->merged = NULL;
	level_replyq_push(q, ready, r);
	return LEVEL_STALL_NONE;
}

/* ---------------------------------------------------------------------------------------------
 * Load misses
 */

enum level_stall level_miss_probe(struct mshr *m, struct mem_req *r, addr_t line,
				  const struct cache_lookup *lk, enum mshr_result *res,
				  uint32_t *fetch)
{
	*fetch = 0;
	*res = mshr_probe(m, line, lk->miss, fetch);
	if (*res == MSHR_FULL || *res == MSHR_MERGE_FULL) {
		enum mshr_result again = mshr_add(m, r, lk->miss, NULL); /* counts the refusal */

		SIM_ASSERT(again == *res);
		return *res == MSHR_FULL ? LEVEL_STALL_MSHR_FULL : LEVEL_STALL_MERGE_LIMIT;
	}
	return LEVEL_STALL_NONE;
}

enum level_stall level_miss_reserve(struct cache *c, addr_t line, const struct cache_lookup *lk,
				    enum mshr_result res, uint32_t fetch,
				    struct cache_line_info *victim, uint32_t *at)
{
	memset(victim, 0, sizeof *victim);
	if (lk->outcome == CACHE_LINE_MISS) {
		int way;

		/* Nothing of an absent line can be in flight: its fill would find no line. */
		SIM_ASSERT(res == MSHR_NEW && fetch == lk->miss);
		way = cache_allocate(c, line, fetch, victim);
		if (way < 0)
			return LEVEL_STALL_NO_LINE;
		if (at != NULL)
			*at = cache_line_at(c, lk->set, (uint32_t)way);
	} else if (fetch != 0) {
		cache_reserve(c, line, fetch);
		if (at != NULL)
			*at = cache_line_at(c, lk->set, (uint32_t)lk->way);
	}
	return LEVEL_STALL_NONE;
}

void level_miss_admit(struct mshr *m, struct level_stats *st, struct mem_req *r, addr_t line,
		      const struct cache_lookup *lk, enum mshr_result res, uint32_t fetch,
		      enum mem_stage access, tick_t visible_tick, enum mem_stage miss,
		      tick_t now_tick)
{
	uint32_t fetch2 = 0;
	enum mshr_result res2;

	(void)line;
	req_enter(r, access, visible_tick);
	res2 = mshr_add(m, r, lk->miss, &fetch2);
	SIM_ASSERT(res2 == res && fetch2 == fetch);
	if (res != MSHR_NEW)
		st->mshr_merges++;
	req_enter(r, miss, now_tick);
	level_count(st, lk->outcome);
	st->loads++;
}

/* ---------------------------------------------------------------------------------------------
 * The reply pipeline
 */

void level_replyq_init(struct level_replyq *q, uint32_t cap, struct link *out,
		       enum mem_stage access, enum mem_stage miss)
{
	memset(q, 0, sizeof *q);
	SIM_ASSERT(cap >= 1 && out != NULL);
	q->slots = xcalloc(cap, sizeof *q->slots);
	q->cap = cap;
	q->out = out;
	q->access = access;
	q->miss = miss;
	q->wait_since = CYCLE_NEVER;
}

void level_replyq_free(struct level_replyq *q)
{
	free(q->slots);
	q->slots = NULL;
}

void level_replyq_register(struct level_replyq *q, struct stats *st, const char *prefix,
			   double max, uint32_t bins, const char *hit_desc, const char *miss_desc,
			   const char *store_desc)
{
	char name[256];

	snprintf(name, sizeof name, "%s.latency_hit", prefix);
	q->lat_hit = stats_dist(st, name, hit_desc, 0.0, max, bins);
	snprintf(name, sizeof name, "%s.latency_miss", prefix);
	q->lat_miss = stats_dist(st, name, miss_desc, 0.0, max, bins);
	snprintf(name, sizeof name, "%s.latency_store", prefix);
	q->lat_store = stats_dist(st, name, store_desc, 0.0, max, bins);
}

void level_replyq_push(struct level_replyq *q, cycle_t ready, struct mem_req *chain)
{
	struct level_reply *s;

	SIM_ASSERT(q->n < q->cap && chain != NULL);
	s = &q->slots[ring_at(q->head, q->n++, q->cap)];
	s->ready = ready;
	s->chain = chain;
}

cycle_t level_replyq_next(const struct level_replyq *q)
{
	return q->n > 0 ? q->slots[q->head].ready : CYCLE_NEVER;
}

bool level_reply(struct level_replyq *q, struct mem_req *r, cycle_t now, tick_t period,
		 uint64_t *replies, uint64_t *reply_stalls, uint64_t *inside)
{
	cycle_t lat = now - r->stamp[q->access] / period;
	struct stats_dist *d;

	r->is_reply = true;
	if (!link_try_push(q->out, r)) {
		r->is_reply = false;
		if (q->wait_since == CYCLE_NEVER)
			q->wait_since = now;
		q->blocked = true;
		return false;
	}
	if (q->wait_since != CYCLE_NEVER) {
		/* every cycle since the first refusal was a refused cycle */
		*reply_stalls += now - q->wait_since;
		q->wait_since = CYCLE_NEVER;
	}
	if (r->type == MEM_REQ_STORE)
		d = q->lat_store;
	else if (r->stamp[q->miss] != TICK_NEVER)
		d = q->lat_miss;
	else
		d = q->lat_hit;
	if (d != NULL)
		stats_dist_add(d, (double)lat);
	(*replies)++;
	(*inside)--;
	return true;
}

bool level_replyq_send(struct level_replyq *q, cycle_t now, tick_t period, uint64_t *replies,
		       uint64_t *reply_stalls, uint64_t *inside)
{
	q->blocked = false;
	while (q->n > 0 && q->slots[q->head].ready <= now) {
		struct level_reply *s = &q->slots[q->head];

		while (s->chain != NULL) {
			struct mem_req *r = s->chain, *next = r->merged;

			r->merged = NULL;
			if (!level_reply(q, r, now, period, replies, reply_stalls, inside)) {
				r->merged = next;
				return false;
			}
			s->chain = next;
		}
		q->head = ring_at(q->head, 1, q->cap);
		q->n--;
	}
	return true;
}

uint64_t level_replyq_check(const struct level_replyq *q)
{
	uint64_t inq = 0;
	cycle_t last = 0;
	uint32_t i;

	SIM_ASSERT(q->n <= q->cap);
	for (i = 0; i < q->n; i++) {
		const struct level_reply *s = &q->slots[ring_at(q->head, i, q->cap)];
		const struct mem_req *r;

		SIM_ASSERT(s->chain != NULL && s->ready >= last);
		last = s->ready;
		for (r = s->chain; r != NULL; r = r->merged)
			inq++;
	}
	return inq;
}
