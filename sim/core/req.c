/*
 * req.c - memory request stamps, stage and type names, and the request pool (contract in req.h).
 *
 * Models nothing; it is the allocator and the clipboard of the request that travels through the
 * models. The pool takes objects from malloc a chunk at a time (one xmalloc per chunk, never one
 * per request) and keeps free objects on a list threaded through their `next` pointers. Chunks
 * are freed only by req_pool_destroy.
 *
 * Life of one object:
 *
 *     (chunk) --req_pool_grow--> FREE --req_alloc--> CREATED --req_enter--> ... --req_free--> FREE
 *
 *     FREE -> CREATED                [req_alloc]  zeroed, fresh id, stamp[CREATED] = now
 *     stage a -> stage b (b > a)     [req_enter]  stamp[b] = now >= stamp[a]
 *     any live stage -> FREE         [req_free]   stamp[RETIRED] = now unless already entered
 *
 * A free object's stage is REQ_STAGE_FREE (MEM_STAGE_COUNT, which no live request can have), so
 * req_free catches a double free and req_enter a use after free in every build, for as long as
 * the object has not been handed out again. Debug builds (SIM_DEBUG) also poison every free
 * object with 0xa5 bytes (all but `next` and `stage`) and check on req_alloc that the poison is
 * intact, which catches writes after free.
 *
 * Invariants (req_pool_check): capacity == grows * chunk; free + in flight == capacity;
 * in flight == created - retired; every object on the free list is marked free.
 *
 * Does not: check that a request freed into a pool came from it, or ever shrink.
 */
#include "config.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "req.h"

/* The stage of an object sitting in the pool. */
#define REQ_STAGE_FREE MEM_STAGE_COUNT
/* The byte freed objects are filled with in debug builds: odd, large, recognisable. */
#define REQ_POISON 0xa5

struct req_chunk {
	struct req_chunk *next;
	struct mem_req reqs[];
};

struct req_pool {
	uint32_t chunk;          /* objects per chunk */
	struct req_chunk *chunks;
	struct mem_req *free;    /* free list through mem_req.next */
	uint64_t nfree;
	uint64_t capacity;
	uint64_t grows;
	uint64_t created;
	uint64_t retired;
};

static const char *const stage_names[] = {
#define MEM_STAGE_NAME(e, s) [MEM_STAGE_##e] = s,
	MEM_STAGES(MEM_STAGE_NAME)
#undef MEM_STAGE_NAME
};

static const char *const type_names[] = {
#define MEM_REQ_TYPE_NAME(e, s) [MEM_REQ_##e] = s,
	MEM_REQ_TYPES(MEM_REQ_TYPE_NAME)
#undef MEM_REQ_TYPE_NAME
};

/* Out-of-range values name themselves "?": a dump of a corrupt request should not abort. */
const char *mem_stage_name(enum mem_stage s)
{
	return (unsigned)s < MEM_STAGE_COUNT ? stage_names[s] : "?";
}

const char *mem_req_type_name(enum mem_req_type t)
{
	return (unsigned)t < MEM_REQ_TYPE_COUNT ? type_names[t] : "?";
}

void req_enter(struct mem_req *r, enum mem_stage s, tick_t now)
{
	SIM_ASSERT(r->stage != REQ_STAGE_FREE); /* use after free */
	SIM_ASSERT((unsigned)s < MEM_STAGE_COUNT);
	SIM_ASSERT(s > r->stage);
#ifdef SIM_DEBUG
	/* The debug build's only: the last stage's stamp is seldom in the host's caches when the
	 * next stage comes (in a copy this check was 4% of the run's last-level misses). */
	SIM_ASSERT(now >= r->stamp[r->stage]);
#endif
	r->stamp[s] = now;
	r->stage = s;
}

void req_enter_blind(struct mem_req *r, enum mem_stage s, tick_t now)
{
#ifdef SIM_DEBUG
	req_enter(r, s, now);
#else
	SIM_ASSERT((unsigned)s < MEM_STAGE_COUNT);
	r->stamp[s] = now;
	r->stage = s;
#endif
}

tick_t req_stage_delta(const struct mem_req *r, enum mem_stage from, enum mem_stage to)
{
	SIM_ASSERT(from <= to && (unsigned)to < MEM_STAGE_COUNT);
	SIM_ASSERT(r->stamp[from] != TICK_NEVER && r->stamp[to] != TICK_NEVER);
	return r->stamp[to] - r->stamp[from];
}

/* ------------------------------------------------------------------------------------------ */
/* Pool */

#if defined(SIM_DEBUG) && !defined(SIM_NO_ASSERTS)
#define REQ_CHECK_POISON 1
static bool poison_skipped(size_t i)
{
	return (i >= offsetof(struct mem_req, next) &&
		i < offsetof(struct mem_req, next) + sizeof(struct mem_req *)) ||
	       (i >= offsetof(struct mem_req, stage) &&
		i < offsetof(struct mem_req, stage) + sizeof(enum mem_stage));
}

static bool poison_intact(const struct mem_req *r)
{
	const unsigned char *b = (const unsigned char *)r;

	for (size_t i = 0; i < sizeof *r; i++) {
		if (!poison_skipped(i) && b[i] != REQ_POISON)
			return false;
	}
	return true;
}
#endif

/* Marks r free and puts it on the free list. */
static void pool_put(struct req_pool *p, struct mem_req *r)
{
#ifdef SIM_DEBUG
	memset(r, REQ_POISON, sizeof *r);
#endif
	r->stage = REQ_STAGE_FREE;
	r->next = p->free;
	p->free = r;
	p->nfree++;
}

static void pool_grow(struct req_pool *p)
{
	struct req_chunk *c = xmalloc(sizeof *c + (size_t)p->chunk * sizeof c->reqs[0]);

	c->next = p->chunks;
	p->chunks = c;
	/* Backwards, so the first allocations come out in address order. */
	for (uint32_t i = p->chunk; i-- > 0;)
		pool_put(p, &c->reqs[i]);
	p->capacity += p->chunk;
	p->grows++;
}

struct req_pool *req_pool_create(uint32_t chunk)
{
	struct req_pool *p;

	SIM_ASSERT(chunk >= 1);
	p = xcalloc(1, sizeof *p);
	p->chunk = chunk;
	return p;
}

void req_pool_destroy(struct req_pool *p)
{
	if (p == NULL)
		return;
	while (p->chunks != NULL) {
		struct req_chunk *c = p->chunks;

		p->chunks = c->next;
		free(c);
	}
	free(p);
}

void req_init(struct mem_req *r, tick_t now)
{
	memset(r, 0, sizeof *r);
	r->stage = MEM_STAGE_CREATED;
	for (int s = 0; s < MEM_STAGE_COUNT; s++)
		r->stamp[s] = TICK_NEVER;
	r->stamp[MEM_STAGE_CREATED] = now;
}

struct mem_req *req_alloc(struct req_pool *p, tick_t now)
{
	struct mem_req *r;

	if (p->free == NULL)
		pool_grow(p);
	r = p->free;
	SIM_ASSERT(r->stage == REQ_STAGE_FREE);
#ifdef REQ_CHECK_POISON
	SIM_ASSERT(poison_intact(r)); /* written after it was freed */
#endif
	p->free = r->next;
	p->nfree--;

	req_init(r, now);
	r->id = ++p->created;
	return r;
}

void req_free(struct req_pool *p, struct mem_req *r, tick_t now)
{
	SIM_ASSERT(r != NULL);
	SIM_ASSERT(r->stage != REQ_STAGE_FREE); /* double free */
	SIM_ASSERT(p->retired < p->created);
	if (r->stage != MEM_STAGE_RETIRED)
		req_enter(r, MEM_STAGE_RETIRED, now);
	p->retired++;
	pool_put(p, r);
}

uint64_t req_pool_created(const struct req_pool *p)
{
	return p->created;
}

uint64_t req_pool_retired(const struct req_pool *p)
{
	return p->retired;
}

uint64_t req_pool_in_flight(const struct req_pool *p)
{
	return p->created - p->retired;
}

uint64_t req_pool_capacity(const struct req_pool *p)
{
	return p->capacity;
}

uint64_t req_pool_grows(const struct req_pool *p)
{
	return p->grows;
}

/* O(free objects): walks the free list. */
void req_pool_check(const struct req_pool *p)
{
	uint64_t n = 0;

	SIM_ASSERT(p->retired <= p->created);
	SIM_ASSERT(p->capacity == p->grows * p->chunk);
	SIM_ASSERT(p->nfree + (p->created - p->retired) == p->capacity);
	/* n bounds the walk, so a cycle in a corrupt list fails instead of hanging */
	for (const struct mem_req *r = p->free; r != NULL && n <= p->nfree; r = r->next) {
		SIM_ASSERT(r->stage == REQ_STAGE_FREE);
		n++;
	}
	SIM_ASSERT(n == p->nfree);
	(void)n; /* with SIM_NO_ASSERTS */
}

bool req_pool_is_drained(const struct req_pool *p)
{
	return p->created == p->retired && p->nfree == p->capacity;
}

const struct mem_req *req_pool_oldest(const struct req_pool *p)
{
	const struct mem_req *best = NULL;

	for (const struct req_chunk *c = p->chunks; c != NULL; c = c->next) {
		for (uint32_t i = 0; i < p->chunk; i++) {
			const struct mem_req *r = &c->reqs[i];

			if (r->stage != REQ_STAGE_FREE && (best == NULL || r->id < best->id))
				best = r;
		}
	}
	return best;
}

void req_dump(const struct mem_req *r, tick_t core_period_ps, const char *indent, FILE *out)
{
	fprintf(out, "%srequest %" PRIu64 ": %s of line %#" PRIx64 " (sectors %#x), sm %u warp %u, "
		"slice %u, channel %u, stage %s%s\n", indent, r->id, mem_req_type_name(r->type),
		(uint64_t)r->addr, r->sector_mask, r->sm, r->warp, r->slice, r->channel,
		mem_stage_name(r->stage), r->is_reply ? " (reply)" : "");
	for (int s = 0; s < MEM_STAGE_COUNT; s++) {
		if (r->stamp[s] == TICK_NEVER)
			continue;
		fprintf(out, "%s  %-11s tick %" PRIu64 " ps = core cycle %" PRIu64 "\n", indent,
			mem_stage_name((enum mem_stage)s), (uint64_t)r->stamp[s],
			core_period_ps > 0 ? (uint64_t)(r->stamp[s] / core_period_ps) : 0);
	}
}
