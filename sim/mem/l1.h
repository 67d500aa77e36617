/*
 * l1.h - the L1 data cache of one SM: a sectored, write-through cache with a tag pipeline of
 * lookups_per_cycle lookups per cycle, its MSHR, a miss queue into the crossbar, a fill port and
 * a reply pipeline.
 *
 * The L1 is one clock unit of the core domain. Requests from the SM (the coalescer: one struct
 * mem_req per 128 B line, LOAD or STORE) arrive on `in`; replies to the SM leave on `resp`. Load
 * misses and stores (write-through) leave as new requests of the L1's own on `miss_out` (the
 * crossbar's request input for this SM, xbar_req_in); the L2's replies to them (the same
 * objects, is_reply set) come back on `fill_in`. See l1.c for the request flow, the latency
 * formulas and what is not modelled.
 *
 * Ownership: an SM request belongs to the L1 from link_pop on `in` until it is pushed on `resp`
 * (the same struct mem_req goes back up: is_reply set). The L1 allocates from the pool, and
 * frees, the requests it sends down (a load miss, a store's write-through): each is sent on
 * miss_out, comes back on fill_in and is freed there (req_free) - a load miss after its fill,
 * a store's write at its ack.
 */
#ifndef SIM_L1_H
#define SIM_L1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cache.h"
#include "cfg.h"
#include "level.h"
#include "log.h"
#include "mshr.h"
#include "stats.h"
#include "types.h"

struct clock;
struct clock_unit;
struct link;
struct req_pool;
struct slice_hash;

/* Write policies (names are the config values). Both are write-through: every store goes down
 * to the L2 with its byte mask. They differ in what a store does to a line that is absent. */
#define L1_WRITE_POLICIES(X)                                          \
	X(THROUGH_NO_ALLOCATE, "write_through_no_allocate")           \
	X(THROUGH_ALLOCATE, "write_through_allocate")

enum l1_write_policy {
#define L1_WP_ENUM(e, s) L1_WRITE_##e,
	L1_WRITE_POLICIES(L1_WP_ENUM)
#undef L1_WP_ENUM
	L1_WRITE_POLICY_COUNT
};
/* NULL-terminated, in enum order. */
extern const char *const l1_write_policy_names[];

/* When a store is acknowledged to the SM (the warp's store is done; its block can retire):
 * when its write-through enters the crossbar, or when the L2 slice's ack comes back. */
#define L1_STORE_ACKS(X)          \
	X(CROSSBAR, "crossbar")   \
	X(L2, "l2")

enum l1_store_ack {
#define L1_SA_ENUM(e, s) L1_STORE_ACK_##e,
	L1_STORE_ACKS(L1_SA_ENUM)
#undef L1_SA_ENUM
	L1_STORE_ACK_COUNT
};
extern const char *const l1_store_ack_names[];

/*
 * l1: the parameters of one SM's L1.
 *
 * Configuration: l1_fields covers only the scalar keys below (the group "l1"). The nested
 * structs are separate groups registered by the integrator with the tables of their own units,
 * at the offset of the nested struct:
 *   { "l1",       ..., l1_fields,    l1_nfields,    offsetof(P, l1) },
 *   { "l1.cache", ..., cache_fields, cache_nfields, offsetof(P, l1.cache) },
 *   { "l1.mshr",  ..., mshr_fields,  mshr_nfields,  offsetof(P, l1.mshr) },
 * (the cfg schema lists parents before children). Then call l1_params_check.
 */
struct l1_params {
	struct cache_params cache;
	struct mshr_params mshr;
	uint32_t hit_latency_cycles;  /* core cycles, request visible -> reply pushed, on a hit */
	uint32_t lookups_per_cycle;   /* tag lookups (requests taken from `in`) per cycle */
	uint32_t data_banks;          /* data-array banks, one word access each per cycle */
	uint32_t data_bank_bytes;     /* bytes of a bank word (32: a sector per bank) */
	uint32_t data_bytes_per_cycle; /* data path width: a lookup of k bank words holds it
					* k x data_bank_bytes / width cycles; 0 = no limit */
	uint32_t fill_latency_cycles; /* fill data visible on fill_in -> sectors readable */
	uint32_t fills_per_cycle;     /* fills (one returned miss each) the fill port writes per cycle */
	uint32_t miss_queue;          /* requests (misses, store writes) waiting for the crossbar */
	uint32_t write_policy;        /* enum l1_write_policy */
	uint32_t store_ack;           /* enum l1_store_ack */
};

extern const struct cfg_field l1_fields[];
extern const size_t l1_nfields;
#define L1_NFIELDS 10 /* entries of l1_fields[] (checked in the .c) */

/* What the field ranges cannot check: cache_params_check of p->cache (as "<group>.cache") and
 * lines of at most 128 B (the width of mem_req.byte_mask). Returns 0, or -1 with err filled. */
int l1_params_check(const struct l1_params *p, const char *group, struct sim_err *err);

/* Counters, registered as <prefix>.<name>. */
struct l1_stats {
	/* accesses, loads, stores, hits (every requested sector of a load, or byte of a store,
	 * present), sector and line misses, mshr_merges, the stall cycles by reason (reply_full:
	 * the reply pipeline or a store's ack) (sim/mem/level.h) */
	union {
		struct level_stats lv;
		struct {
			LEVEL_STATS_FIELDS
		};
	};
	uint64_t misses_sent;     /* load misses pushed into the crossbar */
	uint64_t writes_sent;     /* store write-throughs pushed into the crossbar */
	uint64_t miss_out_stalls; /* cycles the crossbar's input refused the miss-queue head */
	uint64_t fills;           /* returned misses written by the fill port */
	uint64_t fill_stalls;     /* fill-cycles a readable fill waited for the fill port */
	uint64_t store_acks;      /* write-through acks from the L2 (retired here) */
	uint64_t replies;         /* replies pushed on resp (loads and stores) */
	uint64_t reply_stalls;    /* cycles resp refused a ready reply */
	uint64_t bank_conflicts;  /* lookups deferred a cycle: a data bank already used this cycle */
	uint64_t data_port_waits; /* cycles the head request waited for the data path */
};

struct l1;

/*
 * Creates the L1 of SM sm, a unit of clk (the core domain).
 *   in        requests from the SM; the L1 becomes its consumer (create it on clk, consumer NULL)
 *   resp      replies to the SM; the L1 becomes its producer (a refused push waits for a pop)
 *   miss_out  the crossbar's request input of this SM (xbar_req_in(x, sm)); the L1 becomes its
 *             producer, so the crossbar's pop wakes a refused L1
 *   fill_in   replies from the crossbar for this SM (the link given to xbar_set_reply_out);
 *             the L1 becomes its consumer (create it on clk, consumer NULL)
 *   pool      the request pool: the L1 allocates its misses and write-throughs here
 *   slices    the L2 slice hash: each request sent down gets slice = slice_hash_slice(addr)
 * seed feeds the cache's random replacement. Statistics under prefix ("sm3.l1d"), the cache's
 * under "<prefix>.cache", the MSHR's under "<prefix>.mshr" (st may be NULL: none). p must pass
 * l1_params_check (SIM_ASSERT) and is copied. Everything is allocated here. Never NULL.
 */
struct l1 *l1_create(const struct l1_params *p, uint32_t sm, struct clock *clk, struct link *in,
		     struct link *resp, struct link *miss_out, struct link *fill_in,
		     struct req_pool *pool, const struct slice_hash *slices, uint64_t seed,
		     struct stats *st, const char *prefix);
/* With partitioned L2 slices (gpu.l2_partitions): loads go to the twin of their home slice in
 * the partition of slices base .. base + n - 1 (slice base + home mod n), which caches far-homed
 * lines for this SM; stores still go to the home slice. */
void l1_set_near_partition(struct l1 *l1, uint32_t base, uint32_t n);
/* Frees the L1, its cache and MSHR. Requests still inside are the caller's (the pool frees
 * them; check l1_is_idle first). NULL is a no-op. */
void l1_destroy(struct l1 *l1);

/* The L1's clock unit. */
struct clock_unit *l1_unit(struct l1 *l1);

/* True when nothing is inside: no SM request accepted and unreplied, no miss or write queued,
 * in the crossbar or L2 (sent and not come back), or waiting for the fill port. (Requests still
 * in `in` and `resp` are the links'.) */
bool l1_is_idle(const struct l1 *l1);
const struct l1_stats *l1_stats(const struct l1 *l1);
struct cache *l1_cache(struct l1 *l1);
struct mshr *l1_mshr(struct l1 *l1);

/* SIM_ASSERTs the invariants listed in l1.c, and cache_check / mshr_check. */
void l1_check(const struct l1 *l1);
/* State for the watchdog: queues, the stalled head and why, MSHR entries, reserved lines. */
void l1_dump(const struct l1 *l1, FILE *out);

#endif /* SIM_L1_H */
