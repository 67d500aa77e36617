/*
 * req.h - the memory request that travels down the hierarchy and back, and its pool.
 *
 * One struct mem_req per coalesced request (or write-back); at any moment exactly one unit or link
 * owns it, so one intrusive `next` pointer suffices for queues. Requests come from a pool that
 * grows in chunks and never frees to malloc on the hot path. Each request carries a time stamp
 * (in ticks) for every stage it entered; per-stage latencies fall out of the stamps.
 *
 * Invariants: stages are entered in strictly increasing order (a hit skips stages, nothing goes
 * back); at the end of a run created == retired and every object is back in the pool.
 */
#ifndef SIM_REQ_H
#define SIM_REQ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "types.h"

/* The stages of a request's life, in path order: X(ENUM_SUFFIX, "name"). */
#define MEM_STAGES(X)                  \
	X(CREATED, "created")          \
	X(L1_ACCESS, "l1_access")      \
	X(L1_MISS, "l1_miss")          \
	X(XBAR_REQ, "xbar_req")        \
	X(L2_ACCESS, "l2_access")      \
	X(L2_MISS, "l2_miss")          \
	X(MC_QUEUE, "mc_queue")        \
	X(DRAM_ISSUE, "dram_issue")    \
	X(DRAM_DONE, "dram_done")      \
	X(L2_FILL, "l2_fill")          \
	X(XBAR_REPLY, "xbar_reply")    \
	X(L1_FILL, "l1_fill")          \
	X(RETIRED, "retired")

enum mem_stage {
#define MEM_STAGE_ENUM(e, s) MEM_STAGE_##e,
	MEM_STAGES(MEM_STAGE_ENUM)
#undef MEM_STAGE_ENUM
	MEM_STAGE_COUNT
};

#define MEM_REQ_TYPES(X)            \
	X(LOAD, "load")             \
	X(STORE, "store")           \
	X(ATOMIC, "atomic")         \
	X(WRITEBACK, "writeback")

enum mem_req_type {
#define MEM_REQ_TYPE_ENUM(e, s) MEM_REQ_##e,
	MEM_REQ_TYPES(MEM_REQ_TYPE_ENUM)
#undef MEM_REQ_TYPE_ENUM
	MEM_REQ_TYPE_COUNT
};

struct mem_req {
	uint64_t id;              /* creation order; the tie-breaker everywhere */
	addr_t addr;              /* line-aligned address of the request */
	uint64_t byte_mask[2];    /* stores: bytes of the 128 B line written */
	uint32_t sector_mask;     /* which 32 B sectors of the line are wanted */
	uint32_t bytes;           /* bytes the instruction asked for in this line */
	enum mem_req_type type;
	enum mem_stage stage;     /* last stage entered */
	bool is_reply;            /* travelling back up */
	uint16_t sm;              /* origin SM: the return path */
	uint16_t warp;
	uint32_t inst;            /* the warp instruction it belongs to */
	uint32_t slice;           /* L2 slice, set by the address hash */
	uint32_t channel;         /* DRAM channel, set by the address map */
	void *origin;             /* opaque back-pointer for the issuing unit */
	struct mem_req *merged;   /* MSHR: waiters chained behind a primary miss */
	struct mem_req *next;     /* intrusive queue link (pool free list when free) */
	struct mem_req *parent;   /* made on behalf of another: an L1 store's write-through
				   * holds the SM's store, acked when the L2 acks the write */
	tick_t stamp[MEM_STAGE_COUNT]; /* tick each stage was entered; TICK_NEVER if not */
};

const char *mem_stage_name(enum mem_stage s);
const char *mem_req_type_name(enum mem_req_type t);

/* Zeroes r (id 0) and stamps stage CREATED at now, the other stages TICK_NEVER: a request
 * not from a pool (req_alloc uses it too), such as one an L2 slice embeds to read from its twin. */
void req_init(struct mem_req *r, tick_t now);
/* Stamps stage s at tick now. SIM_ASSERT that s comes after r->stage, and (the debug build
 * only: the check reads a stamp seldom in the host's caches) that now is not before its stamp. */
void req_enter(struct mem_req *r, enum mem_stage s, tick_t now);
/* req_enter for a unit that does not otherwise read r (the crossbar): the release build only
 * stores the stamp and the stage, so that a request no longer in the host's caches costs no wait
 * there (its reading unit takes the miss); the debug build makes req_enter's checks. */
void req_enter_blind(struct mem_req *r, enum mem_stage s, tick_t now);
/* Ticks between two stamped stages; SIM_ASSERT both were entered. */
tick_t req_stage_delta(const struct mem_req *r, enum mem_stage from, enum mem_stage to);

struct req_pool;

/* A pool that allocates objects chunk at a time (chunk >= 1). Never NULL. */
struct req_pool *req_pool_create(uint32_t chunk);
/* Frees every chunk. Requests still in flight are freed with it (check drained first). */
void req_pool_destroy(struct req_pool *p);
/* A zeroed request with a fresh id, stage CREATED stamped at now, other stamps TICK_NEVER.
 * Owned by the caller until req_free. Never NULL. */
struct mem_req *req_alloc(struct req_pool *p, tick_t now);
/* Stamps RETIRED (if not yet) at now and returns r to the pool; r must not be used afterwards. */
void req_free(struct req_pool *p, struct mem_req *r, tick_t now);

uint64_t req_pool_created(const struct req_pool *p);
uint64_t req_pool_retired(const struct req_pool *p);
uint64_t req_pool_in_flight(const struct req_pool *p);
/* Objects allocated from malloc so far (chunks x chunk size). */
uint64_t req_pool_capacity(const struct req_pool *p);
/* Number of times the pool grew (malloc calls); flat after warm-up. */
uint64_t req_pool_grows(const struct req_pool *p);
/* Conservation: free + in flight == capacity, created - retired == in flight. SIM_ASSERT. */
void req_pool_check(const struct req_pool *p);
/* True when every request created was retired and every object is free again. */
bool req_pool_is_drained(const struct req_pool *p);
/* The request in flight with the smallest id (the oldest), or NULL when none is. O(capacity):
 * for the watchdog's dump, never the hot path. Still owned by whoever holds it. */
const struct mem_req *req_pool_oldest(const struct req_pool *p);
/* One line about r (id, type, address, origin, stage) and one per stamped stage with its tick
 * and the core cycle of that tick (core_period_ps > 0), each line starting with indent. */
void req_dump(const struct mem_req *r, tick_t core_period_ps, const char *indent, FILE *out);

#endif /* SIM_REQ_H */
