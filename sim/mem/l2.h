/*
 * l2.h - one L2 slice: a sectored, write-back, write-allocate (without fetch) cache in front of
 * the DRAM controllers, with its MSHR, miss queue, fill port and reply pipeline.
 *
 * A slice is one clock unit of the L2 domain. Requests arrive on the `in` link (from the
 * crossbar), replies (load data, store acks) leave on `reply_out`. Misses and dirty write-backs
 * leave as 32 B accesses to the memory controllers through the slice's ports (mc_port_send);
 * each read comes back on fill_in. See l2.c for the request flow, the latency formulas and what
 * is not modelled.
 *
 * Ownership: a request belongs to the slice from link_pop on `in` until it is pushed on
 * reply_out (the same struct mem_req comes back up as the reply: is_reply set). The slice never
 * allocates or frees requests. Every DRAM read carries in mc_access.ctx a tracking record owned
 * by the slice (never NULL, never freed before it comes back on fill_in).
 */
#ifndef SIM_L2_H
#define SIM_L2_H

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

struct addrmap;
struct dram_addr;
struct slice_hash;
struct clock;
struct link;
struct mc;
struct mc_access;
struct mem_req;

/*
 * l2: the slice parameters. cache.size_kb is the capacity of ONE slice (a 40 MB L2 of 80
 * slices has cache.size_kb = 512).
 *
 * Configuration: l2_fields covers only the scalar keys below (the group "l2"). The nested
 * structs are separate groups registered by the integrator with the tables of their own units,
 * at the offset of the nested struct:
 *   { "l2",       ..., l2_fields,    l2_nfields,    offsetof(P, l2) },
 *   { "l2.cache", ..., cache_fields, cache_nfields, offsetof(P, l2.cache) },
 *   { "l2.mshr",  ..., mshr_fields,  mshr_nfields,  offsetof(P, l2.mshr) },
 * (the cfg schema lists parents before children). Then call l2_params_check.
 */
struct l2_params {
	struct cache_params cache;    /* per slice */
	struct mshr_params mshr;      /* per slice */
	uint32_t hit_latency_cycles;  /* tag + data, L2 cycles, request visible -> reply pushed */
	uint32_t fill_latency_cycles; /* DRAM data returned -> sector readable, L2 cycles */
	uint32_t lookups_per_cycle;   /* tag lookups (requests taken from `in`) per cycle */
	uint32_t fills_per_cycle;     /* sectors written by the fill port per cycle */
	uint32_t store_ack_cycles;    /* store visible -> ack pushed (0: hit_latency_cycles) */
	uint32_t miss_queue;          /* 32 B accesses (reads and write-backs) waiting for the MCs */
	uint32_t far_latency_cycles;  /* partition link, each way (gpu.l2_partitions = 2) */
	uint32_t partial_write_cycles; /* lookups held per sector a store writes only in part */
};

extern const struct cfg_field l2_fields[];
extern const size_t l2_nfields;
#define L2_NFIELDS 8 /* entries of l2_fields[] (checked in the .c) */

/* What the field ranges cannot check: cache_params_check of p->cache (as "<group>.cache"),
 * lines of at most 128 B (the width of mem_req.byte_mask), and a miss queue that holds one
 * line's fetch plus one victim's write-back (2 x sectors per line; a smaller one could never
 * take a line miss that evicts a fully dirty line). Returns 0, or -1 with err filled. */
int l2_params_check(const struct l2_params *p, const char *group, struct sim_err *err);
/* With two partitions (l2_set_far), what l2_params_check cannot know: enough MSHR entries for
 * a far line's miss on top of the entries kept back from such misses (see far_room in l2.c),
 * and two ways a set at least (one is kept from near copies in flight: far_way_room); with
 * fewer, no far miss is ever taken. Returns 0, or -1 with err filled. */
int l2_params_check_far(const struct l2_params *p, const char *group, struct sim_err *err);

/* Counters, registered as <prefix>.<name>. */
struct l2_stats {
	/* accesses, loads, stores, hits (loads served from the array, stores to a present line),
	 * sector and line misses, mshr_merges, the stall cycles by reason (sim/mem/level.h) */
	union {
		struct level_stats lv;
		struct {
			LEVEL_STATS_FIELDS
		};
	};
	uint64_t fills;           /* sectors written by the fill port */
	uint64_t fill_stalls;     /* fill-cycles a readable fill waited for the fill port */
	uint64_t dram_reads;      /* 32 B reads sent to the MCs (not to the twin: far_reads) */
	uint64_t writebacks;      /* dirty sectors written back to DRAM */
	uint64_t writebacks_partial; /* of those, sectors with only some bytes written */
	uint64_t partial_writes;  /* sectors stores wrote only in part (partial_write_cycles) */
	uint64_t mq_refusals;     /* controller refusals (per channel and cycle waited) */
	uint64_t replies;         /* replies pushed on reply_out */
	uint64_t reply_stalls;    /* cycles reply_out refused a ready reply */
	uint64_t far_reads;       /* 32 B reads of far-homed sectors sent to the twin slice */
	uint64_t far_served;      /* reads from the twin accepted here (also in accesses, loads) */
	uint64_t far_replies;     /* replies to them pushed to the twin */
	uint64_t far_reserve_stalls; /* far-homed misses refused: the MSHR's reserve for home
				      * lines and the twin's reads (refusals, not cycles) */
};

struct l2;

/* The most reads a slice of p has in flight (each holds a sector in flight in its MSHR): the
 * capacity its fill_in link needs so that a controller's completion never waits. */
uint32_t l2_reads_max(const struct l2_params *p);

/*
 * Creates slice `id`, a unit of clk (the L2 domain). It consumes `in` (requests from the
 * crossbar) and fill_in (the records of its DRAM reads, pushed back by the controllers at their
 * completion; latency l2.fill_latency_cycles, capacity at least l2_reads_max) and produces on
 * reply_out (the slice registers itself as reply_out's producer so a full link wakes it when it
 * drains). seed feeds the cache's random replacement. Statistics under prefix ("l2s7"), the
 * cache's under "<prefix>.cache", the MSHR's under "<prefix>.mshr" (st may be NULL: none). p
 * must pass l2_params_check (SIM_ASSERT) and is copied. Everything is allocated here except DRAM
 * tracking records, which grow in chunks up to the peak of accesses in flight and are reused.
 * Never NULL. Before any request, give it its controllers: l2_set_dram or l2_set_partition.
 *
 * The slice becomes the consumer of `in` and fill_in (link_set_consumer): create them on clk
 * with consumer NULL; a push then wakes the slice at the cycle the item becomes visible.
 */
struct l2 *l2_create(const struct l2_params *p, uint32_t id, struct clock *clk, struct link *in,
		     struct link *reply_out, struct link *fill_in, uint64_t seed,
		     struct stats *st, const char *prefix);
/* The controllers below: mcs[ch] for each channel ch of map, the slice sending through port
 * ports[ch] of each (mc_port_add, with fill_in as the done link); an access goes to the channel
 * addrmap_channel(map, address) names. mcs, ports: copied; map must outlive the slice. */
void l2_set_dram(struct l2 *l2, struct mc *const *mcs, const uint32_t *ports,
		 const struct addrmap *map);
/* A memory partition: every access goes to mc, through port, as the slice-local address of h
 * (slice_hash_local); mc turns it into its channel's address (mc_set_map with a partition).
 * h must outlive the slice. */
void l2_set_partition(struct l2 *l2, struct mc *mc, uint32_t port, const struct slice_hash *h);
/*
 * Two L2 partitions (gpu.l2_partitions = 2): this slice is one of slices part_base ..
 * part_base + part_slices - 1 and caches, for the SMs of its partition, lines homed in either
 * (the SMs send their loads to the near twin of the home slice; home gives an address's home
 * slice). A read of a sector homed in the other partition goes, instead of to a controller, to
 * the home slice, the twin, as a one-sector load pushed on twin_in (the twin's far_in); the
 * twin looks it up as any load (hit, or its own miss to DRAM, allocating the line there too) and
 * replies on this slice's far_fill_in, whose record is then filled here as a DRAM read is.
 * far_in carries the twin's reads to this slice, twin_fill_in takes the replies to them. The
 * four links: L2 clock, latency l2.far_latency_cycles, capacity at least l2_reads_max (so the
 * twin's reads never wait for room). The slice becomes the consumer of far_in and far_fill_in
 * and the producer of the other two. Call before any request.
 */
void l2_set_far(struct l2 *l2, struct link *far_in, struct link *far_fill_in,
		struct link *twin_in, struct link *twin_fill_in, const struct slice_hash *home,
		uint32_t part_base, uint32_t part_slices);
/* Index the sets with slice-local line addresses of h (cache_set_index_fn). */
void l2_set_local_index(struct l2 *l2, const struct slice_hash *h);
/* Frees the slice, its cache, MSHR and tracking records. Requests still inside are the
 * caller's (check l2_is_idle first). NULL is a no-op. */
void l2_destroy(struct l2 *l2);

/* The slice's clock unit. */
struct clock_unit *l2_unit(struct l2 *l2);

/* True when nothing is inside: no request accepted and unreplied, no access queued, no read at a
 * controller or waiting on fill_in. (Requests still in `in` are the link's; written-back
 * sectors already sent are the controllers': mc_requests_pending.) */
bool l2_is_idle(const struct l2 *l2);
const struct l2_stats *l2_stats(const struct l2 *l2);
struct cache *l2_cache(struct l2 *l2);
struct mshr *l2_mshr(struct l2 *l2);

/* SIM_ASSERTs the invariants listed in l2.c, and cache_check / mshr_check. */
void l2_check(const struct l2 *l2);
/* State for the watchdog: queues, the stalled head and why, MSHR entries, reserved lines. */
void l2_dump(const struct l2 *l2, FILE *out);

#endif /* SIM_L2_H */
