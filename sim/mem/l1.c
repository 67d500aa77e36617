/*
 * l1.c - the L1 data cache of one SM (see l1.h for the interface).
 *
 * Models the timing of a GPU's L1 data cache for global loads and stores: a tag pipeline that
 * takes lookups_per_cycle requests per cycle from the SM in order (an uncoalesced instruction's
 * many line requests therefore take several cycles), a sectored cache, an MSHR that merges
 * misses to sectors already in flight, a bounded miss queue drained in order into the crossbar,
 * a fill port of fills_per_cycle fills per cycle, and a fixed-latency reply pipeline shared by
 * hits and fills. Stores are write-through: each goes down to the L2 with its byte mask.
 *
 * Request flow (one tick = the stages in this order, at one core edge):
 *
 *   in --(2) lookup: cache_probe/access, up to lookups_per_cycle, in order; a refusal leaves
 *   |        the request at the head (stall, counted per cycle by reason) and stops the lookups
 *   |
 *   +-- LOAD hit --------------------------------------------------> reply queue
 *   |                                                     (ready = now + hit_latency)
 *   +-- LOAD miss --> mshr_add --MERGED--> waits in the MSHR
 *   |                    |
 *   |                    +--NEW / MERGED_NEEDS_SECTORS--> allocate line (never dirty: write-
 *   |                       through) / reserve sectors; one MISS request (pool) for the fetch
 *   |                                    |
 *   +-- STORE: write the bytes if the    v
 *       line is present (allocate   miss queue --(3) drain, in order: link_try_push--> miss_out
 *       first: write_through_        (misses and store writes)                          |
 *       allocate); a STORE request                |                      crossbar, L2 ...
 *       (pool) for the write-through   store write entered the crossbar:               |
 *                                      the ORIGINAL store -> ack queue                  |
 *   (0) fill_in: MISS reply -> fill queue (ready = now + fill_latency); STORE ack -> req_free
 *   (1) fill port, fills_per_cycle: cache_fill + mshr_fill -> satisfied requests (stage stamps
 *       of the miss copied, L1_FILL) --> reply queue (ready = now + hit_latency); req_free(miss)
 *   (4) reply queue, then ack queue --link_try_push--> resp (a refused push waits; counted)
 *
 * Stage order in a tick: (0) fill_in, (1) fill port, (2) lookups, (3) miss-queue drain,
 * (4) replies. A fill is seen by a lookup of the same cycle, a miss found at cycle c is pushed
 * into the crossbar at c, and a store is acknowledged to the SM at the cycle its write entered
 * the crossbar.
 *
 * Latency (core cycles; v = the cycle the request becomes visible at the head of `in`, H = hit
 * latency, FL = fill latency):
 *   hit:         reply pushed on resp at v + H (unloaded);
 *   load miss:   miss pushed into miss_out at v; its reply becomes visible on fill_in at some
 *                cycle f (crossbar + L2 + DRAM + crossbar); filled at F = f + FL (if the fill
 *                port is free); reply pushed at F + H. So a miss costs the L1 pipeline + the
 *                trip down + the fill latency, and the fill port and reply pipeline are shared.
 *   store:       the write pushed into miss_out at v; the ack to the SM pushed at v with
 *                store_ack = crossbar (the write has left: ordering is kept because loads and
 *                stores leave through the same in-order miss queue), or with store_ack = l2
 *                when the L2's ack of the write comes back on fill_in (the write carries the
 *                original in `parent`): the SM's warp, and so its block, is done with the
 *                store only when the L2 has it.
 * The latency statistics measure visible -> pushed: a request stalled at the head of `in` is
 * charged its wait (its L1_ACCESS stamp is the visible tick).
 *
 * Write policy. Both policies send every store down. write_through_no_allocate (default, as
 * GPUs do for global stores): a store to a present line writes its bytes into it (later loads of
 * a fully written sector hit), a store to an absent line leaves the cache alone.
 * write_through_allocate: a store to an absent line allocates it (no fetch) first (every way
 * reserved: stall "no line"). Since the bytes are on their way down, the written sectors are
 * cleaned at once (cache_clean): a fully written sector becomes CLEAN, a partially written one
 * INVALID (the L1 does not keep partial sectors). So no line of the L1 is ever dirty and a
 * victim never needs writing back (SIM_ASSERT).
 *
 * Stage stamps. The original request carries CREATED .. L1_ACCESS, and L1_MISS if it waited in
 * the MSHR. The MISS request that brings its data is stamped by the crossbar and the L2
 * (XBAR_REQ .. XBAR_REPLY). At the fill the stamps of those stages are copied into every
 * original the fill satisfies, for the stages it has not entered and that the miss entered no
 * earlier than the original's last stamp (a request that merged into a miss already in the
 * crossbar gets only the later stages: the stamps stay in increasing order), then L1_FILL is
 * stamped. req_stage_delta(orig, L1_MISS, XBAR_REQ) is then the miss queue wait of a primary.
 *
 * Admission. A load miss that opens sectors needs one miss-queue slot. A store needs one
 * miss-queue slot, and with store_ack = crossbar a place for its ack: stores in the miss queue
 * plus acks waiting for `resp` are bounded by miss_queue ("reply full" when the acks hold it);
 * with store_ack = l2 the originals held for the L2's ack are bounded by the writes in flight. A hit needs a slot in
 * the reply queue (sized (lookups + fills) x (hit_latency + 1) so that it is never full unless
 * resp backs up).
 *
 * Statistics. l1.* counts what the L1 did with each accepted request (accesses, hits, sector
 * and line misses by the lookup that accepted it); <prefix>.cache counts each request's first
 * lookup (a stalled head is looked up again with cache_probe, not counted twice). Stalls are
 * cycles the head of `in` waited, by reason, charged when the head is next tried. A head refused
 * for the MSHR, its merge limit or a fully reserved set is not tried again before a fill (nothing
 * else frees those), so the per-attempt counters (the MSHR's fail_full and fail_merge, the
 * cache's alloc_fails) count attempts that could have gone otherwise, however often the L1 is
 * ticked; one refused because the miss queue had no free slot is not looked up again before
 * one is free (level_head_waits: the naive transpose's L1s looked such heads up 367 k times,
 * each refused again). miss_out_stalls and reply_stalls count the cycles the head waited for
 * its link, from its first refusal.
 *
 * Invariants (l1_check):
 *   - the miss queue holds <= miss_queue requests, each of the L1 (origin), a LOAD miss or a
 *     STORE write with its original; stores in it (+ acks waiting, store_ack = crossbar) =
 *     stores_waiting <= miss_queue; with store_ack = l2, held = writes out + acks waiting;
 *   - misses in flight (queued + sent + fill-waiting) are each for sectors in flight in the
 *     MSHR and pending in the cache line; sent + fill-waiting <= the fill queue's capacity;
 *   - the fill queue and the reply queue have non-decreasing ready cycles; reply slots hold
 *     non-empty chains;
 *   - requests inside (accepted, not yet pushed on resp) = MSHR waiters + requests in the reply
 *     queue + stores_waiting + held.
 *
 * Not modelled: atomics and other request types (SIM_ASSERT), data values, separate tag and
 * data banks and bank conflicts inside a line (lookups_per_cycle is the one throughput limit),
 * shared memory and the texture path sharing the array, the write-through's own bandwidth into
 * the array, invalidation at kernel boundaries (cache_invalidate_all on l1_cache is the
 * integrator's, with the L1 idle), and fences (the SM does not wait for store acks before a
 * fence; with store_ack = l2 its block does before retiring).
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "cache.h"
#include "cfg.h"
#include "clock.h"
#include "l1.h"
#include "level.h"
#include "link.h"
#include "log.h"
#include "mshr.h"
#include "req.h"
#include "slice_hash.h"
#include "stats.h"

/* ---------------------------------------------------------------------------------------------
 * Parameters
 */

const char *const l1_write_policy_names[] = {
#define L1_WP_NAME(e, s) s,
	L1_WRITE_POLICIES(L1_WP_NAME)
#undef L1_WP_NAME
	NULL,
};

const char *const l1_store_ack_names[] = {
#define L1_SA_NAME(e, s) s,
	L1_STORE_ACKS(L1_SA_NAME)
#undef L1_SA_NAME
	NULL,
};

#define P struct l1_params
const struct cfg_field l1_fields[] = {
	CFG_U32_FIELD(P, hit_latency_cycles, 1, 10000, "28",
		      "core cycles from a request visible at the L1 to its reply pushed on a hit "
		      "(pipeline + tag check + data; GPUs measure ~20-40)"),
	CFG_U32_FIELD(P, lookups_per_cycle, 1, 64, "1",
		      "tag lookups (line requests taken from the SM) per core cycle: an "
		      "uncoalesced instruction's n line requests take n / lookups cycles"),
	CFG_U32_FIELD(P, data_banks, 1, 64, "4",
		      "data-array banks, each reading or writing one word of data_bank_bytes per "
		      "cycle: word w of line L sits in bank (L x words per line + w) mod banks; a "
		      "second lookup in a cycle waits when it needs a bank already used"),
	CFG_U32_FIELD(P, data_bank_bytes, 4, 256, "32",
		      "bytes of a bank word (power of two, at most a sector: 32 is a sector per "
		      "bank; 4 with 32 banks is the Volta/Ampere array, where lanes of different "
		      "lines that need the same bank serialise)"),
	CFG_U32_FIELD(P, data_bytes_per_cycle, 0, 4096, "0",
		      "bytes the data array moves to or from the SM per core cycle: a lookup of "
		      "k bank words holds it k x data_bank_bytes / width cycles and the next "
		      "lookup waits (Turing and GA10x: 64); 0: no limit beyond the banks"),
	CFG_U32_FIELD(P, fill_latency_cycles, 0, 10000, "4",
		      "core cycles from a miss's data arriving from the crossbar to its sectors "
		      "readable"),
	CFG_U32_FIELD(P, fills_per_cycle, 1, 64, "1",
		      "returned misses the fill port writes per core cycle"),
	CFG_U32_FIELD(P, miss_queue, 1, 65536, "8",
		      "load misses and store write-throughs waiting to enter the crossbar"),
	CFG_ENUM_FIELD(P, write_policy, l1_write_policy_names, "\"write_through_no_allocate\"",
		       "stores always go through to the L2; write_through_no_allocate writes a "
		       "present line only (GPUs, global stores), write_through_allocate also "
		       "allocates an absent line (no fetch)"),
	CFG_ENUM_FIELD(P, store_ack, l1_store_ack_names, "\"crossbar\"",
		       "when the SM's store is acknowledged (the warp's store done, so its block "
		       "may retire): crossbar, when its write-through enters the crossbar; l2, "
		       "when the L2 slice's ack of the write comes back"),
};
#undef P
const size_t l1_nfields = sizeof l1_fields / sizeof l1_fields[0];
_Static_assert(sizeof l1_fields / sizeof l1_fields[0] == L1_NFIELDS,
	       "L1_NFIELDS must count l1_fields");

#define L1_REQ_LINE_BYTES 128 /* mem_req.byte_mask covers 128 bytes */

int l1_params_check(const struct l1_params *p, const char *group, struct sim_err *err)
{
	char g[128];

	snprintf(g, sizeof g, "%s.cache", group);
	if (cache_params_check(&p->cache, g, err) != 0)
		return -1;
	if (p->cache.line_bytes > L1_REQ_LINE_BYTES)
		return sim_err_set(err, NULL, 0, "%s.line_bytes: at most %u (the request byte mask), "
				   "got %u", g, L1_REQ_LINE_BYTES, p->cache.line_bytes);
	snprintf(g, sizeof g, "%s.mshr", group);
	if (mshr_params_check(&p->mshr, p->cache.line_bytes, p->cache.sector_bytes, g, err) != 0)
		return -1;
	if (p->write_policy >= L1_WRITE_POLICY_COUNT)
		return sim_err_set(err, NULL, 0, "%s.write_policy: unknown policy %u", group,
				   p->write_policy);
	if (p->store_ack >= L1_STORE_ACK_COUNT)
		return sim_err_set(err, NULL, 0, "%s.store_ack: unknown value %u", group,
				   p->store_ack);
	if (p->data_bank_bytes == 0 || (p->data_bank_bytes & (p->data_bank_bytes - 1)) != 0 ||
	    p->data_bank_bytes > p->cache.sector_bytes)
		return sim_err_set(err, NULL, 0, "%s.data_bank_bytes: expected a power of two of "
				   "at most the sector (%u), got %u", group, p->cache.sector_bytes,
				   p->data_bank_bytes);
	if (p->data_banks < 1 || p->data_banks > 64)
		return sim_err_set(err, NULL, 0, "%s.data_banks: expected 1..64, got %u", group,
				   p->data_banks);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * State
 */

/* A miss-queue slot: a request of the L1 for the crossbar; for a store's write, its original. */
struct l1_mq {
	struct mem_req *r;
	struct mem_req *orig; /* STORE: the SM's store, acked when r enters the crossbar */
};

/* A returned miss waiting for the fill port. */
struct l1_fill {
	struct mem_req *r;
	cycle_t ready;
};

struct l1 {
	struct l1_params p;
	uint32_t sm;
	char *prefix;
	struct clock *clk;
	struct clock_unit *unit;
	struct link *in, *resp, *miss_out, *fill_in;
	struct req_pool *pool;
	const struct slice_hash *slices;
	uint32_t part_base, part_slices; /* l1_set_near_partition: loads go to slice
					  * part_base + home mod part_slices; 0 slices: home */
	struct cache *c;
	struct mshr *m;
	const struct cache_geom *g;
	uint32_t line_shift;      /* log2(line_bytes) (a power of two) */
	uint32_t bank_mask;       /* data_banks - 1 when a power of two, else 0 */

	/* miss queue (ring of miss_queue slots) */
	struct l1_mq *mq;
	uint32_t mq_head, mq_n;
	bool mq_blocked;          /* miss_out refused this cycle: its pop wakes us */
	cycle_t mq_wait_since;    /* first refused cycle of the miss queue's head (miss_out_stalls) */
	uint32_t stores_waiting;  /* stores in the miss queue + acks waiting (<= miss_queue) */
	uint32_t mq_want;         /* the free slots the last refusal for the miss queue needed (0:
				   * refused for the stores waiting, which acks decide) */

	/* sent down, not yet back */
	uint64_t misses_out, writes_out;

	/* fill queue: ring by ready cycle */
	struct l1_fill *fq;
	uint32_t fq_cap, fq_head, fq_n;

	/* reply pipeline onto resp, and behind it the SM's stores to ack (a FIFO through their
	 * `next`): with store_ack = crossbar those whose write entered the crossbar (counted in
	 * stores_waiting), with l2 those whose L2 ack came back; held: the originals with
	 * store_ack = l2 whose write is out or whose ack waits */
	struct level_replyq rq;
	struct mem_req *ack_first, *ack_last;
	uint32_t ack_n, held;

	struct level_head head;      /* the head of `in` */
	uint64_t fill_gen;           /* fills so far (they change the cache and the MSHR) */
	uint64_t data_pos;           /* data path: bytes moved, in cycle x width units */
	cycle_t data_free;           /* first cycle it takes another lookup (data_pos / width) */
	cycle_t last_lookup;         /* cycle of the last lookup taken (data_port_waits) */

	uint64_t inside;          /* accepted requests not yet pushed on resp */
	struct l1_stats st;
};

/* ---------------------------------------------------------------------------------------------
 * Queues
 */

static addr_t line_addr(const struct l1 *l1, addr_t a)
{
	return a & ~(addr_t)(l1->g->line_bytes - 1);
}

static uint32_t mq_free(const struct l1 *l1)
{
	return l1->p.miss_queue - l1->mq_n;
}

static struct l1_mq *mq_at(const struct l1 *l1, uint32_t i)
{
	return &l1->mq[ring_at(l1->mq_head, i, l1->p.miss_queue)];
}

static void mq_push(struct l1 *l1, struct mem_req *r, struct mem_req *orig)
{
	struct l1_mq *s;

	SIM_ASSERT(l1->mq_n < l1->p.miss_queue);
	s = mq_at(l1, l1->mq_n++);
	s->r = r;
	s->orig = orig;
}

static struct l1_fill *fq_at(const struct l1 *l1, uint32_t i)
{
	return &l1->fq[ring_at(l1->fq_head, i, l1->fq_cap)];
}

/* A request of the L1 for the level below, for line and sectors. */
static struct mem_req *new_down(struct l1 *l1, const struct mem_req *orig, enum mem_req_type type,
				addr_t line, uint32_t sectors, tick_t tnow)
{
	struct mem_req *d = req_alloc(l1->pool, tnow);

	d->type = type;
	d->addr = line;
	d->sector_mask = sectors;
	d->sm = (uint16_t)l1->sm;
	d->warp = orig->warp;
	d->inst = orig->inst;
	d->slice = slice_hash_slice(l1->slices, line);
	if (type == MEM_REQ_LOAD && l1->part_slices != 0)
		d->slice = l1->part_base + d->slice % l1->part_slices; /* the near twin */
	d->origin = l1;
	if (type == MEM_REQ_STORE) {
		d->byte_mask[0] = orig->byte_mask[0];
		d->byte_mask[1] = orig->byte_mask[1];
		d->bytes = orig->bytes;
	} else {
		d->bytes = bits_pop32(sectors) * l1->g->sector_bytes;
	}
	return d;
}

/* ---------------------------------------------------------------------------------------------
 * (2) Lookup
 */

static enum level_stall try_store(struct l1 *l1, struct mem_req *r, const struct cache_lookup *lk,
			       const struct cache_bytes *bytes, cycle_t visible, tick_t tnow)
{
	addr_t line = line_addr(l1, r->addr);
	struct cache_line_info victim;
	bool present = lk->outcome != CACHE_LINE_MISS;

	if (mq_free(l1) == 0) {
		l1->mq_want = 1;
		return LEVEL_STALL_MISS_QUEUE_FULL;
	}
	if (l1->stores_waiting >= l1->p.miss_queue) {
		l1->mq_want = 0;
		return l1->p.store_ack == L1_STORE_ACK_CROSSBAR && l1->ack_n > 0
			       ? LEVEL_STALL_REPLY_FULL : LEVEL_STALL_MISS_QUEUE_FULL;
	}
	if (!present && l1->p.write_policy == L1_WRITE_THROUGH_ALLOCATE) {
		if (cache_allocate(l1->c, line, 0, &victim) < 0)
			return LEVEL_STALL_NO_LINE;
		SIM_ASSERT(victim.dirty == 0); /* write-through: nothing to write back */
		present = true;
	}
	req_enter(r, MEM_STAGE_L1_ACCESS, clock_tick_of(l1->clk, visible));
	if (present) {
		/* The bytes are on their way down: keep them as clean data (see the top). */
		cache_write(l1->c, line, bytes);
		cache_clean(l1->c, line, cache_sectors_of(l1->c, bytes));
	}
	{
		struct mem_req *d = new_down(l1, r, MEM_REQ_STORE, line, r->sector_mask, tnow);

		if (l1->p.store_ack == L1_STORE_ACK_L2)
			d->parent = r; /* acked to the SM when d's ack comes back */
		mq_push(l1, d, r);
	}
	l1->stores_waiting++;
	level_count(&l1->st.lv, lk->outcome);
	l1->st.stores++;
	return LEVEL_STALL_NONE;
}

/* A load miss: the MSHR, then a miss-queue slot for its fetch (if it fetches), then the line
 * (see level.c); the fetch goes down as one request. */
static enum level_stall try_load_miss(struct l1 *l1, struct mem_req *r, addr_t line,
				      const struct cache_lookup *lk, cycle_t visible, tick_t tnow)
{
	struct cache_line_info victim;
	enum mshr_result res;
	enum level_stall why;
	uint32_t fetch;

	why = level_miss_probe(l1->m, r, line, lk, &res, &fetch);
	if (why != LEVEL_STALL_NONE)
		return why;
	if (fetch != 0 && mq_free(l1) == 0) {
		l1->mq_want = 1;
		return LEVEL_STALL_MISS_QUEUE_FULL;
	}
	/* its fill finds the line by lookup (the line's index is the L2's need) */
	why = level_miss_reserve(l1->c, line, lk, res, fetch, &victim, NULL);
	if (why != LEVEL_STALL_NONE)
		return why;
	SIM_ASSERT(victim.dirty == 0); /* write-through: nothing to write back */
	level_miss_admit(l1->m, &l1->st.lv, r, line, lk, res, fetch, MEM_STAGE_L1_ACCESS,
			 clock_tick_of(l1->clk, visible), MEM_STAGE_L1_MISS, tnow);
	if (fetch != 0)
		mq_push(l1, new_down(l1, r, MEM_REQ_LOAD, line, fetch, tnow), NULL);
	return LEVEL_STALL_NONE;
}

/* Tries to accept r, the visible head of `in`. Returns LEVEL_STALL_NONE when it was accepted
 * (the caller pops it), else the reason; a refusal changes nothing but counters. */
static enum level_stall try_accept(struct l1 *l1, struct mem_req *r, cycle_t visible,
				   cycle_t now)
{
	struct cache_bytes bytes;
	struct cache_lookup lk;
	tick_t tnow = clock_tick_of(l1->clk, now);
	addr_t line = line_addr(l1, r->addr);

	level_lookup(l1->c, &l1->head, r, line, &bytes, &lk);
	if (r->type == MEM_REQ_STORE)
		return try_store(l1, r, &lk, &bytes, visible, tnow);
	if (lk.outcome != CACHE_HIT)
		return try_load_miss(l1, r, line, &lk, visible, tnow);
	return level_load_hit(&l1->rq, &l1->st.lv, r, clock_tick_of(l1->clk, visible),
			      now + l1->p.hit_latency_cycles);
}

/* Bit k of the result: nibble k of m (bits 4k .. 4k + 3) is not zero; k < 16. */
static inline uint64_t nibbles_any(uint64_t m)
{
	m |= m >> 1;
	m |= m >> 2;
	m &= UINT64_C(0x1111111111111111);
	m = (m | m >> 3) & UINT64_C(0x0303030303030303);
	m = (m | m >> 6) & UINT64_C(0x000f000f000f000f);
	m = (m | m >> 12) & UINT64_C(0x000000ff000000ff);
	return (m | m >> 24) & UINT64_C(0xffff);
}

/* The data banks r touches: word w (data_bank_bytes each) of line L sits in bank
 * (L x words per line + w) mod data_banks, so a line's words spread over the banks. Words of
 * a sector: the requested bytes (byte_mask) when words are smaller than sectors and r has
 * them, else every word of each requested sector. */
static uint64_t data_bank_mask(const struct l1 *l1, const struct mem_req *r, uint32_t *words)
{
	uint32_t bb = l1->p.data_bank_bytes, sb = l1->p.cache.sector_bytes;
	uint32_t wpl = l1->p.cache.line_bytes / bb, wps = sb / bb, nb = l1->p.data_banks;
	uint64_t first = (r->addr >> l1->line_shift) * wpl;
	bool bytes = wps > 1 && bb < 64 && (r->byte_mask[0] | r->byte_mask[1]) != 0;
	uint32_t sectors = r->sector_mask & ((1u << (wpl / wps)) - 1); /* the line's */
	/* two divisions on every lookup otherwise */
	uint32_t bank0 = (uint32_t)(l1->bank_mask != 0 ? first & l1->bank_mask : first % nb);
	uint64_t mask = 0;

	if (bb == 4 && wpl <= 32 && nb >= wpl) {
		/* The shipped L1s (4 B words, 128 B lines, 32 banks): the word mask as bits,
		 * each word's 4 byte bits ORed and gathered (no loop per word), then its banks
		 * as a rotation by bank0 (a line's words fall in distinct banks). */
		uint64_t wm = 0, span = ((uint64_t)1 << wps) - 1;

		while (sectors != 0) {
			wm |= span << ((uint32_t)__builtin_ctz(sectors) * wps);
			sectors &= sectors - 1;
		}
		if (bytes)
			wm &= nibbles_any(r->byte_mask[0]) | nibbles_any(r->byte_mask[1]) << 16;
		*words += bits_pop64(wm);
		if (bank0 == 0)
			return wm;
		mask = wm << bank0 | wm >> (nb - bank0);
		return nb == 64 ? mask : mask & (((uint64_t)1 << nb) - 1);
	}
	/* the words of each requested sector (bb divides sb: l1_params_check), their banks
	 * counted on from the sector's first without a division per word: on every access */
	while (sectors != 0) {
		uint32_t w = (uint32_t)__builtin_ctz(sectors) * wps, end = w + wps;
		uint32_t bank = (bank0 + w) % nb;

		sectors &= sectors - 1;
		for (; w < end; w++, bank = bank + 1 == nb ? 0 : bank + 1) {
			if (bytes) {
				uint32_t off = w * bb;
				uint64_t m = ((1ull << bb) - 1) << (off % 64);

				if ((r->byte_mask[off / 64] & m) == 0)
					continue;
			}
			mask |= 1ull << bank;
			(*words)++;
		}
	}
	return mask;
}

static void l1_lookups(struct l1 *l1, cycle_t now)
{
	uint64_t banks_used = 0;
	uint32_t i;

	for (i = 0; i < l1->p.lookups_per_cycle; i++) {
		struct mem_req *r = link_peek(l1->in);
		enum level_stall why;
		cycle_t visible;
		uint64_t banks;
		uint32_t words;
		bool same, waits;

		if (r == NULL)
			break;
		/* The data path still moves an earlier lookup's sectors. */
		if (l1->data_free > now)
			break;
		/* A second lookup of the cycle whose sectors need a bank already in use waits for
		 * the next cycle (the first one always goes: its sectors are in distinct banks or
		 * it is serialised by the array as one access). */
		words = 0;
		banks = data_bank_mask(l1, r, &words);
		if ((banks & banks_used) != 0) {
			l1->st.bank_conflicts++;
			break;
		}
		banks_used |= banks;
		visible = link_head_ready(l1->in);
		/* a head refused for the MSHR, its merge limit or a reserved set waits for a fill
		 * (level.h); the miss queue and the acks can free room without one, and one refused
		 * for a free slot of the miss queue waits for one (level_head_waits: the L1 is
		 * awake every cycle the miss queue drains, and looked such a head up each time) */
		waits = level_head_waits(&l1->head, r, mq_free(l1));
		same = waits || level_head_same(&l1->head, r, l1->fill_gen, 0, false);
		why = same ? l1->head.stall : LEVEL_STALL_NONE;
#ifdef SIM_DEBUG
		/* looked up again: a refusal for the miss queue changes nothing */
		SIM_ASSERT(!waits || (try_accept(l1, r, visible, now) == why &&
				      l1->mq_want == l1->head.mq_want));
#endif
		level_head_charge(&l1->head, &l1->st.lv, now);
		if (!same)
			why = try_accept(l1, r, visible, now);
		if (why != LEVEL_STALL_NONE) {
			/* (level_head_same held only with no fill since: the fills then and now) */
			level_head_refused(&l1->head, why, now, l1->fill_gen, 0);
			if (why == LEVEL_STALL_MISS_QUEUE_FULL && !same)
				level_head_wants(&l1->head, l1->mq_want);
			break;
		}
		SIM_ASSERT(link_pop(l1->in) == r);
		l1->head.seen = NULL;
		l1->inside++;
		if (l1->p.data_bytes_per_cycle > 0) {
			uint64_t w = l1->p.data_bytes_per_cycle;
			uint64_t b = (uint64_t)words * l1->p.data_bank_bytes;

			cycle_t head = visible > l1->last_lookup ? visible : l1->last_lookup;

			/* the head waited from becoming head (and visible) to the path's freeing */
			if (l1->data_free > head)
				l1->st.data_port_waits += l1->data_free - head;
			l1->last_lookup = now;
			if (l1->data_pos < now * w)
				l1->data_pos = now * w;
			l1->data_pos += b;
			l1->data_free = l1->data_pos / w;
		}
	}
}

/* Queues the SM's store o for its ack on resp, behind the reply pipeline (l1_replies). */
static void ack_push(struct l1 *l1, struct mem_req *o)
{
	o->next = NULL;
	if (l1->ack_last != NULL)
		l1->ack_last->next = o;
	else
		l1->ack_first = o;
	l1->ack_last = o;
	l1->ack_n++;
}

/* ---------------------------------------------------------------------------------------------
 * (0) fill_in, (1) fill port, (3) miss-queue drain, (4) replies
 */

static void l1_fill_in(struct l1 *l1, cycle_t now)
{
	struct mem_req *r;

	while ((r = link_peek(l1->fill_in)) != NULL) {
		link_pop(l1->fill_in);
		SIM_ASSERT(r->origin == l1 && r->is_reply);
		if (r->type == MEM_REQ_STORE) {
			SIM_ASSERT(l1->writes_out > 0);
			SIM_ASSERT((r->parent != NULL) == (l1->p.store_ack == L1_STORE_ACK_L2));
			l1->writes_out--;
			l1->st.store_acks++;
			if (r->parent != NULL)
				ack_push(l1, r->parent); /* store_ack = l2: now acknowledged */
			req_free(l1->pool, r, clock_tick_of(l1->clk, now));
			continue;
		}
		SIM_ASSERT(r->type == MEM_REQ_LOAD && l1->misses_out > 0);
		SIM_ASSERT(l1->fq_n < l1->fq_cap);
		l1->misses_out--;
		fq_at(l1, l1->fq_n)->r = r;
		fq_at(l1, l1->fq_n)->ready = now + l1->p.fill_latency_cycles;
		l1->fq_n++;
	}
}

/* Gives r the stamps of the stages miss went through below the L1 (see the top). */
static void copy_stamps(struct mem_req *r, const struct mem_req *miss)
{
	enum mem_stage s;

	for (s = MEM_STAGE_XBAR_REQ; s <= MEM_STAGE_XBAR_REPLY; s++) {
		if (s <= r->stage || miss->stamp[s] == TICK_NEVER ||
		    miss->stamp[s] < r->stamp[r->stage])
			continue;
		r->stamp[s] = miss->stamp[s];
		r->stage = s;
	}
}

static void l1_fill_port(struct l1 *l1, cycle_t now)
{
	tick_t tnow = clock_tick_of(l1->clk, now);
	uint32_t n = 0, i;

	while (l1->fq_n > 0 && fq_at(l1, 0)->ready <= now && n < l1->p.fills_per_cycle &&
	       level_replyq_has_room(&l1->rq)) {
		struct mem_req *miss = fq_at(l1, 0)->r, *chain, *r;
		addr_t line = line_addr(l1, miss->addr);

		l1->fq_head = ring_at(l1->fq_head, 1, l1->fq_cap);
		l1->fq_n--;
		cache_fill(l1->c, line, miss->sector_mask);
		chain = mshr_fill(l1->m, line, miss->sector_mask);
		for (r = chain; r != NULL; r = r->merged) {
			copy_stamps(r, miss);
			req_enter(r, MEM_STAGE_L1_FILL, tnow);
		}
		if (chain != NULL)
			level_replyq_push(&l1->rq, now + l1->p.hit_latency_cycles, chain);
		req_free(l1->pool, miss, tnow);
		l1->st.fills++;
		l1->fill_gen++;
		n++;
	}
	for (i = 0; i < l1->fq_n && fq_at(l1, i)->ready <= now; i++)
		l1->st.fill_stalls++;
}

/* Cycles from the first refusal (*since) to now, counted once the push went through. */
static void end_wait(uint64_t *stalls, cycle_t *since, cycle_t now)
{
	if (*since != CYCLE_NEVER) {
		*stalls += now - *since;
		*since = CYCLE_NEVER;
	}
}

static void l1_drain(struct l1 *l1, cycle_t now)
{
	l1->mq_blocked = false;
	while (l1->mq_n > 0) {
		struct l1_mq *s = mq_at(l1, 0);

		if (!link_try_push(l1->miss_out, s->r)) {
			l1->mq_blocked = true;
			if (l1->mq_wait_since == CYCLE_NEVER)
				l1->mq_wait_since = now;
			return;
		}
		end_wait(&l1->st.miss_out_stalls, &l1->mq_wait_since, now);
		if (s->orig != NULL) {
			if (l1->p.store_ack == L1_STORE_ACK_L2) {
				/* held until the L2's ack of the write comes back */
				l1->stores_waiting--;
				l1->held++;
			} else {
				/* The store's write entered the crossbar: ack the SM (see the top). */
				ack_push(l1, s->orig);
			}
			l1->writes_out++;
			l1->st.writes_sent++;
		} else {
			l1->misses_out++;
			l1->st.misses_sent++;
		}
		s->r = s->orig = NULL;
		l1->mq_head = ring_at(l1->mq_head, 1, l1->p.miss_queue);
		l1->mq_n--;
	}
}

/* The reply pipeline, then the store acks (level.h): both wait while resp refuses. */
static void l1_replies(struct l1 *l1, cycle_t now)
{
	tick_t period = clock_period(l1->clk);

	if (!level_replyq_send(&l1->rq, now, period, &l1->st.replies, &l1->st.reply_stalls,
			       &l1->inside))
		return;
	while (l1->ack_first != NULL) {
		struct mem_req *o = l1->ack_first, *next = o->next;

		if (!level_reply(&l1->rq, o, now, period, &l1->st.replies, &l1->st.reply_stalls,
				 &l1->inside))
			return;
		l1->ack_first = next;
		if (next == NULL)
			l1->ack_last = NULL;
		l1->ack_n--;
		if (l1->p.store_ack == L1_STORE_ACK_L2)
			l1->held--;
		else
			l1->stores_waiting--;
	}
}

static cycle_t min_cycle(cycle_t a, cycle_t b)
{
	return a < b ? a : b;
}

static cycle_t at_least_next(cycle_t c, cycle_t now)
{
	return c > now ? c : now + 1;
}

/* Sleeps until the next cycle anything can happen here; stays awake if that is the next one.
 * Pushes on `in` and fill_in wake us (we are their consumer), pops of resp and miss_out too
 * (we are their producer), so a blocked link needs no polling. */
static void l1_sleep(struct l1 *l1, cycle_t now)
{
	cycle_t next = CYCLE_NEVER, h;

	if (l1->mq_n > 0 && !l1->mq_blocked)
		next = now + 1;
	/* A ready fill is retried (and its stall counted) every cycle, as in l2.c. */
	if (l1->fq_n > 0)
		next = min_cycle(next, at_least_next(fq_at(l1, 0)->ready, now));
	if (!l1->rq.blocked) {
		if (l1->rq.n > 0)
			next = min_cycle(next, at_least_next(level_replyq_next(&l1->rq), now));
		if (l1->ack_n > 0)
			next = now + 1;
	}
	h = link_head_ready(l1->fill_in);
	if (h != CYCLE_NEVER)
		next = min_cycle(next, at_least_next(h, now));
	h = link_head_ready(l1->in);
	if (h != CYCLE_NEVER) {
		switch (l1->head.stall) {
		case LEVEL_STALL_NONE:
			next = min_cycle(next, at_least_next(h > l1->data_free ? h : l1->data_free,
							      now));
			break;
		case LEVEL_STALL_MISS_QUEUE_FULL:
			/* Room comes from the drain; a blocked miss_out wakes us when it pops. */
			if (!l1->mq_blocked)
				next = now + 1;
			break;
		case LEVEL_STALL_REPLY_FULL:
			/* Room comes from the replies; a blocked resp wakes us when it pops. */
			if (!l1->rq.blocked)
				next = now + 1;
			break;
		default:
			/* MSHR, merge limit, no line: only a fill frees them (fill queue above, or a
			 * push on fill_in wakes us). */
			break;
		}
	}
	/* Covers all three cases: NEVER is a plain sleep, the next cycle keeps the unit awake. */
	clock_sleep_until(l1->unit, next);
}

static void l1_tick(void *unit, cycle_t now)
{
	struct l1 *l1 = unit;

	l1_fill_in(l1, now);
	l1_fill_port(l1, now);
	l1_lookups(l1, now);
	l1_drain(l1, now);
	l1_replies(l1, now);
	l1_sleep(l1, now);
}

/* ---------------------------------------------------------------------------------------------
 * Create / destroy / queries
 */

static void register_stats(struct l1 *l1, struct stats *st, const char *prefix)
{
	static const struct stats_counter_def counters[] = {
#define C(f, d) STATS_COUNTER_DEF(struct l1_stats, f, d)
		C(accesses, "requests accepted from the SM"),
		C(loads, "loads accepted"),
		C(stores, "stores accepted (written through to the L2)"),
		C(hits, "accepted with every requested sector (load) or byte (store) present"),
		C(sector_misses, "accepted with the line present, some requested sector or byte not"),
		C(line_misses, "accepted with the line absent"),
		C(mshr_merges, "load misses that joined an MSHR entry in flight"),
		C(stall_mshr_full, "cycles the head request waited: no free MSHR entry"),
		C(stall_merge_limit, "cycles the head request waited: MSHR entry at its merge limit"),
		C(stall_no_line, "cycles the head request waited: every way of its set reserved"),
		C(stall_miss_queue_full, "cycles the head request waited: miss queue full"),
		C(stall_reply_full, "cycles the head request waited: reply pipeline or store acks "
		  "full"),
		C(misses_sent, "load misses sent into the crossbar"),
		C(writes_sent, "store write-throughs sent into the crossbar"),
		C(miss_out_stalls, "cycles the crossbar input refused the miss queue's head"),
		C(fills, "returned misses written by the fill port"),
		C(fill_stalls, "fill-cycles a readable fill waited for the fill port"),
		C(store_acks, "write-through acks from the L2"),
		C(replies, "replies pushed to the SM (loads and store acks)"),
		C(reply_stalls, "cycles the SM refused a ready reply"),
		C(bank_conflicts, "lookups deferred a cycle because a data bank was taken"),
		C(data_port_waits, "cycles a lookup waited for the data path (data_bytes_per_cycle)"),
#undef C
	};

	stats_counters(st, prefix, &l1->st, counters, sizeof counters / sizeof counters[0]);
	/* 1-cycle bins up to 4096 cycles; the registry counts overflow. */
	level_replyq_register(&l1->rq, st, prefix, 4096.0, 4096,
			      "load hits: core cycles from visible to reply pushed",
			      "load misses (MSHR): core cycles from visible to reply pushed",
			      "stores: core cycles from visible to ack pushed (the write entered "
			      "the crossbar)");
}

struct l1 *l1_create(const struct l1_params *p, uint32_t sm, struct clock *clk, struct link *in,
		     struct link *resp, struct link *miss_out, struct link *fill_in,
		     struct req_pool *pool, const struct slice_hash *slices, uint64_t seed,
		     struct stats *st, const char *prefix)
{
	struct sim_err err;
	struct l1 *l1;
	char name[256];

	memset(&err, 0, sizeof err);
	SIM_ASSERT(l1_params_check(p, "l1", &err) == 0);
	SIM_ASSERT(p->hit_latency_cycles >= 1);
	SIM_ASSERT(p->lookups_per_cycle >= 1 && p->fills_per_cycle >= 1 && p->miss_queue >= 1);
	SIM_ASSERT(clk != NULL && in != NULL && resp != NULL && miss_out != NULL &&
		   fill_in != NULL && pool != NULL && slices != NULL);
	SIM_ASSERT(sm <= UINT16_MAX);
	l1 = xcalloc(1, sizeof *l1);
	l1->p = *p;
	l1->sm = sm;
	l1->prefix = xstrdup(prefix != NULL ? prefix : "l1");
	l1->clk = clk;
	l1->in = in;
	l1->resp = resp;
	l1->miss_out = miss_out;
	l1->fill_in = fill_in;
	l1->pool = pool;
	l1->slices = slices;
	snprintf(name, sizeof name, "%s.cache", l1->prefix);
	l1->c = cache_create(&p->cache, seed, st, name);
	l1->g = cache_geom(l1->c);
	l1->line_shift = (uint32_t)__builtin_ctz(p->cache.line_bytes);
	SIM_ASSERT(p->cache.line_bytes == 1u << l1->line_shift);
	if ((p->data_banks & (p->data_banks - 1)) == 0)
		l1->bank_mask = p->data_banks - 1;
	snprintf(name, sizeof name, "%s.mshr", l1->prefix);
	l1->m = mshr_create(&p->mshr, l1->g->line_bytes, l1->g->sector_bytes, st, name);
	l1->mq = xcalloc(p->miss_queue, sizeof *l1->mq);
	/* Every miss in flight holds at least one new sector in flight in the MSHR. */
	l1->fq_cap = p->mshr.entries *
		     (p->mshr.granularity == MSHR_GRAN_LINE ? l1->g->sectors : 1);
	l1->fq = xcalloc(l1->fq_cap, sizeof *l1->fq);
	/* Never full while resp keeps up (level.h). */
	level_replyq_init(&l1->rq, (p->lookups_per_cycle + p->fills_per_cycle) *
				   (p->hit_latency_cycles + 1), resp, MEM_STAGE_L1_ACCESS,
			  MEM_STAGE_L1_MISS);
	level_head_init(&l1->head);
	l1->mq_wait_since = CYCLE_NEVER;
	l1->unit = clock_attach(clk, l1->prefix, l1_tick, l1);
	link_set_consumer(in, l1->unit);
	link_set_consumer(fill_in, l1->unit);
	link_set_producer(resp, l1->unit);
	link_set_producer(miss_out, l1->unit);
	if (st != NULL)
		register_stats(l1, st, l1->prefix);
	return l1;
}

void l1_set_near_partition(struct l1 *l1, uint32_t base, uint32_t n)
{
	SIM_ASSERT(n >= 1 && l1_is_idle(l1));
	l1->part_base = base;
	l1->part_slices = n;
}

void l1_destroy(struct l1 *l1)
{
	if (l1 == NULL)
		return;
	cache_destroy(l1->c);
	mshr_destroy(l1->m);
	free(l1->mq);
	free(l1->fq);
	level_replyq_free(&l1->rq);
	free(l1->prefix);
	free(l1);
}

struct clock_unit *l1_unit(struct l1 *l1)
{
	return l1->unit;
}

bool l1_is_idle(const struct l1 *l1)
{
	return l1->inside == 0 && l1->mq_n == 0 && l1->misses_out == 0 && l1->writes_out == 0 &&
	       l1->fq_n == 0 && l1->rq.n == 0 && l1->ack_n == 0;
}

const struct l1_stats *l1_stats(const struct l1 *l1)
{
	return &l1->st;
}

struct cache *l1_cache(struct l1 *l1)
{
	return l1->c;
}

struct mshr *l1_mshr(struct l1 *l1)
{
	return l1->m;
}

/* ---------------------------------------------------------------------------------------------
 * Check and dump
 */

static void check_miss(const struct l1 *l1, const struct mem_req *r)
{
	struct cache_line_info li;
	addr_t line = line_addr(l1, r->addr);

	SIM_ASSERT(r->origin == l1 && r->type == MEM_REQ_LOAD && r->addr == line);
	SIM_ASSERT(r->sector_mask != 0 && (r->sector_mask & ~l1->g->full_mask) == 0);
	SIM_ASSERT(cache_line(l1->c, line, &li));
	SIM_ASSERT((li.pending & r->sector_mask) == r->sector_mask);
	SIM_ASSERT((mshr_pending(l1->m, line) & r->sector_mask) == r->sector_mask);
}

void l1_check(const struct l1 *l1)
{
	uint64_t stores = 0, inq = 0, misses = 0;
	cycle_t last = 0;
	uint32_t i;

	cache_check(l1->c);
	mshr_check(l1->m);
	SIM_ASSERT(l1->mq_n <= l1->p.miss_queue);
	for (i = 0; i < l1->mq_n; i++) {
		const struct l1_mq *s = mq_at(l1, i);

		if (s->orig != NULL) {
			SIM_ASSERT(s->r->origin == l1 && s->r->type == MEM_REQ_STORE);
			SIM_ASSERT(s->orig->type == MEM_REQ_STORE && s->r->addr == s->orig->addr);
			stores++;
		} else {
			check_miss(l1, s->r);
			misses++;
		}
	}
	/* crossbar: acks waiting hold their miss-queue room; l2: each held original has its
	 * write out or its ack waiting */
	if (l1->p.store_ack == L1_STORE_ACK_L2)
		SIM_ASSERT(l1->stores_waiting == stores &&
			   l1->held == l1->writes_out + l1->ack_n);
	else
		SIM_ASSERT(l1->stores_waiting == stores + l1->ack_n && l1->held == 0);
	SIM_ASSERT(l1->stores_waiting <= l1->p.miss_queue);
	SIM_ASSERT(l1->fq_n + l1->misses_out <= l1->fq_cap);
	for (i = 0; i < l1->fq_n; i++) {
		const struct l1_fill *f = fq_at(l1, i);

		SIM_ASSERT(f->ready >= last);
		last = f->ready;
		check_miss(l1, f->r);
	}
	misses += l1->fq_n + l1->misses_out;
	if (l1->p.mshr.granularity == MSHR_GRAN_SECTOR)
		SIM_ASSERT(misses <= mshr_used(l1->m));
	inq = level_replyq_check(&l1->rq);
	SIM_ASSERT(l1->inside == mshr_waiting(l1->m) + inq + l1->stores_waiting + l1->held);
}

void l1_dump(const struct l1 *l1, FILE *out)
{
	uint32_t i;

	fprintf(out, "%s: sm %u, cycle %" PRIu64 ", inside %" PRIu64 ", miss queue %u/%u%s, "
		"misses out %" PRIu64 ", writes out %" PRIu64 ", fill queue %u/%u, reply queue "
		"%u/%u, acks %u (%u held)%s\n", l1->prefix, l1->sm,
		clock_cycle(l1->clk), l1->inside, l1->mq_n, l1->p.miss_queue,
		l1->mq_blocked ? " (blocked)" : "", l1->misses_out, l1->writes_out, l1->fq_n,
		l1->fq_cap, l1->rq.n, l1->rq.cap, l1->ack_n, l1->held,
		l1->rq.blocked ? " (resp blocked)" : "");
	level_head_dump(&l1->head, l1->in, "in", out);
	for (i = 0; i < l1->mq_n && i < 16; i++) {
		const struct l1_mq *s = mq_at(l1, i);

		fprintf(out, "  mq[%u] req %" PRIu64 " %s 0x%" PRIx64 " sectors 0x%x slice %u\n", i,
			s->r->id, mem_req_type_name(s->r->type), s->r->addr, s->r->sector_mask,
			s->r->slice);
	}
	for (i = 0; i < l1->fq_n && i < 16; i++) {
		const struct l1_fill *f = fq_at(l1, i);

		fprintf(out, "  fill req %" PRIu64 " 0x%" PRIx64 " sectors 0x%x ready %" PRIu64 "\n",
			f->r->id, f->r->addr, f->r->sector_mask, f->ready);
	}
	mshr_dump(l1->m, out);
	cache_dump(l1->c, out);
}
