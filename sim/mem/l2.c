/*
 * l2.c - one L2 slice (see l2.h for the interface).
 *
 * Models the timing of one slice of a GPU's L2: a tag pipeline that takes lookups_per_cycle
 * requests per cycle from the crossbar in order, a sectored write-back cache that allocates on a
 * load miss and on a store without fetching (a store writes its bytes under a per-byte mask; a
 * later load of a partially written sector fetches it and the fill merges under the written
 * bytes), an MSHR that merges misses to sectors already in flight, a bounded miss queue of 32 B
 * DRAM accesses (sector reads and dirty-sector write-backs) drained into the memory controllers,
 * a fill port of fills_per_cycle sectors per cycle, and a fixed-latency reply pipeline.
 *
 * Request flow (one tick = the stages in this order, at one L2 edge):
 *
 *   in --(1) lookup: cache_probe/access, up to lookups_per_cycle, in order; a refusal leaves
 *   |        the request at the head (stall, counted per cycle by reason) and stops the lookups
 *   |
 *   +-- LOAD hit / STORE (write-allocate, no fetch) ----------------------> reply queue
 *   |                                                           (ready = now + hit_latency)
 *   +-- LOAD miss --> mshr_add --MERGED--> waits in the MSHR
 *                        |
 *                        +--NEW / MERGED_NEEDS_SECTORS--> allocate line (victim's dirty
 *                           sectors -> writes) / reserve sectors; one read per fetched sector
 *                                     |
 *                                     v
 *                              miss queue --(2) drain: mc_port_send--> mc[ch] ... DRAM
 *                                                                           |
 *   fill_in (the controllers push a read's record at its completion; visible fill_latency
 *            L2 cycles later); a written-back sector is the controller's once sent
 *                                     |
 *   (0) fill port, fills_per_cycle: cache_fill + mshr_fill -> satisfied requests ---> reply queue
 *                                                              (ready = now + hit_latency)
 *   (3) reply queue --link_try_push--> reply_out   (a refused push waits; counted per cycle)
 *
 * Stage order in a tick: (0) fills, (1) lookups, (2) miss-queue drain, (3) replies. A fill is
 * therefore seen by a lookup of the same cycle, and a miss found at cycle c is sent at c.
 * A store that writes only some bytes of k sectors holds the lookups k x partial_write_cycles
 * from its own (the data array's read-modify-write of each sector with its ECC, which takes
 * the place of the one array cycle a store's write is): the next lookup is at
 * c + k x partial_write_cycles, where a store of whole sectors leaves it at c + 1.
 *
 * Latency (L2 cycles; v = the cycle the request becomes visible at the head of `in`):
 *   hit or store ack:  reply pushed at v + hit_latency_cycles (unloaded); a store's ack at
 *                      v + store_ack_cycles when that is set (its own queue, sent after
 *                      the hits' replies of the same cycle);
 *   load miss:         sent to the MC at cycle v (DRAM enqueue tick v x period_l2);
 *                      DRAM completes at DRAM cycle D (for a closed bank, unloaded:
 *                      D = floor(v x period_l2 / tCK) + 1 + tRCDRD + CL + burst, see test_mc);
 *                      fill at F = floor(D x tCK / period_l2) + fill_latency_cycles;
 *                      reply pushed at F + hit_latency_cycles.
 *   So a miss costs hit latency + DRAM + fill latency, and the fill port and the reply pipeline
 *   are shared by hits and fills. The latency statistics measure visible -> pushed: a request
 *   stalled at the head of `in` is charged its wait (its L2_ACCESS stamp is the visible tick).
 *
 * DRAM access tracking. Each 32 B access has a struct l2_acc from a pool of the slice that grows
 * in chunks to the peak in flight and is reused; a read's record is the ctx its completion
 * brings back on fill_in:
 *
 *      alloc            sent (read)           fill port (popped from fill_in)
 *   FREE ----> QUEUED ------------> AT_MC ---------------------------------> FREE
 *                 |  sent (write)
 *                 +-----------------------------------------------------> FREE
 *
 *   FREE   -> QUEUED  [queue_reads, writeback_victim]  pushed on the miss queue
 *   QUEUED -> AT_MC   [l2_drain]       a read a controller accepted (at the controller, then
 *                                      back on fill_in, ready fill_latency L2 cycles after its
 *                                      data ended)
 *   QUEUED -> FREE    [l2_drain]       a write a controller accepted: the controller's now
 *   AT_MC  -> FREE    [l2_fill_port]   cache_fill + mshr_fill
 *
 * Miss-queue drain. The queue is one FIFO per controller (and one of far reads for the twin); each
 * drain sends every FIFO's accesses in order to its controller (mc_port_send through the slice's
 * port) until the controller refuses one, so one full channel does not block the others, each
 * channel sees this slice's accesses in order, and a refused channel's accesses are not visited
 * again in that drain. A controller without a free entry puts the port in line and wakes the slice
 * when it grants it one (mc.h: ports refused first are admitted first, so the slice ticked first in
 * a cycle does not take every entry that frees); meanwhile nothing is retried (the controller
 * mirrors the port's place in line in mq_inline: mc_port_watch), and the slice sleeps unless
 * something else is due. mq_refusals counts refusals per attempt as a slice retrying every cycle
 * would: the cycles slept through while a controller made the slice wait are added at the next
 * drain. Only a refusal for the controller's accept budget (mc.accept_per_cycle) keeps the slice
 * awake, to send again next cycle.
 *
 * Two partitions (l2_set_far, gpu.l2_partitions = 2). The SMs of a partition send their loads
 * to the slices of that partition (the near twin of each line's home slice), so a slice caches
 * lines homed at its twin too. A read of a sector homed in the other partition (is_far) is not
 * sent to a controller: send_far pushes it, as a one-sector LOAD embedded in its record
 * (sm = L2_FAR_SM, origin = the record), on the twin's far_in; the twin takes it through the
 * same lookups as the crossbar's requests (the two inputs take turns at going first), so it
 * hits, merges or misses to its own DRAM and allocates the line like any load, and replies from
 * its queue fq onto this slice's far_fill_in (a fill's waiters are split: the SMs' to rq, the
 * twin's to fq). This slice's fill port takes those replies after the controllers' fills and
 * fills the sector as a DRAM read's. Unloaded, a far hit costs the near miss, the link
 * (far_latency_cycles) both ways and a second hit pipeline; a far miss the home's DRAM path
 * plus the same. Stores go to the home slice (the L1 routes only loads to the near twin), so a
 * far-homed line is never dirty here and its eviction writes nothing back. Not modelled: the
 * coherence of a near copy after a store at the home (no data values are simulated, and the
 * copy stays valid), and the partition link's bandwidth (only its latency).
 *
 * Where an access goes is the controllers' business: the slice asks the address map for the
 * channel of an address (addrmap_channel), or, in a memory partition (l2_set_partition), sends
 * every access to its partition's controller as a slice-local address (slice_hash_local), which
 * the controller turns into a channel address (mc_set_map).
 *
 * Admission. A load miss that opens sectors needs room in the miss queue for its reads plus, if
 * the line is absent, a whole victim line (its dirty sectors are not known before the victim is
 * chosen): sectors + sectors per line. A store to an absent line needs sectors per line. Every
 * hit or store also needs a slot in the reply queue (sized (lookups + fills) x (hit_latency + 1)
 * so that it is never full unless reply_out backs up).
 *
 * Statistics. l2.* counts what the slice did with each accepted request (accesses, hits, sector
 * and line misses by the lookup that accepted it); <prefix>.cache counts each request's first
 * lookup (a stalled head is looked up again with cache_probe, not counted twice). Stalls are
 * cycles the head of `in` waited, by reason; the cycles are charged when the head is next tried
 * (the slice sleeps while the reason cannot go away), so an open stall is not yet counted.
 *
 * A refused head is not looked up again until the answer can change: a refusal changes nothing,
 * and while the head waits only a fill (cache and MSHR) or the drain (miss-queue room) touches
 * what try_accept reads; the reply queue only empties meanwhile, and a store refused for the
 * miss queue had reply room already. So a head refused for the MSHR, its merge limit or a set
 * with every way reserved waits for a fill, one refused for the miss queue for a fill or the
 * drain, and until then the retry just charges the stall cycles, as a lookup's refusal would:
 * the per-attempt counters (the MSHR's fail_full and fail_merge, the cache's alloc_fails) count
 * attempts that could have gone otherwise, however often the slice is ticked. A head refused
 * for the miss queue passed the tests before that one (the lookup's, the MSHR's), whose answers
 * no fill changes (level_head_waits): without partitions (whose other input's requests could),
 * a fill or a drain that leaves fewer free slots than it needs is charged so too, not looked up
 * (on a streaming copy of 1 Mi floats the slices looked such heads up 120 k times for 65 k
 * requests, each refused again). reply_stalls counts the cycles a ready reply waited for
 * reply_out, from its first refusal.
 *
 * Invariants (l2_check):
 *   - pool: free + queued + sent records = records allocated; the miss queue holds exactly the
 *     QUEUED records, <= miss_queue; a sent record is a read; fill_in holds no more records
 *     than were sent;
 *   - every read in flight (QUEUED, AT_MC) is for a sector that is pending in the cache line
 *     (present) and in flight in the MSHR; with sector-granular MSHRs the reads in flight are
 *     exactly the MSHR entries in use;
 *   - the reply queue holds <= its capacity, non-empty chains, non-decreasing ready cycles;
 *   - requests inside (accepted, not yet pushed on reply_out) = MSHR waiters + requests in the
 *     reply queue.
 *
 * Not modelled: atomics (SIM_ASSERT: an ATOMIC or WRITEBACK request is not accepted), data
 * values, separate tag and data banks (the pipeline is one latency with lookups_per_cycle
 * lookups), the DRAM stages of the request (MC_QUEUE, DRAM_ISSUE, DRAM_DONE are not stamped: the
 * MC sees 32 B accesses, not requests; L2_MISS -> L2_FILL covers them), flushes at kernel
 * boundaries, and the slice address hash (the integrator routes requests; the cache sees full
 * addresses, so use the xor set index with many slices, or the sets that only other slices'
 * lines map to go unused).
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrmap.h"
#include "bits.h"
#include "cache.h"
#include "cfg.h"
#include "clock.h"
#include "l2.h"
#include "level.h"
#include "link.h"
#include "log.h"
#include "mc.h"
#include "mshr.h"
#include "req.h"
#include "slice_hash.h"
#include "stats.h"

/* ---------------------------------------------------------------------------------------------
 * Parameters
 */

#define P struct l2_params
const struct cfg_field l2_fields[] = {
	CFG_U32_FIELD(P, hit_latency_cycles, 1, 10000, "100",
		      "L2 cycles from a request visible at the slice to its reply pushed on a hit "
		      "(tag + data; GPUs measure ~100-200 for the whole L2 hit path)"),
	CFG_U32_FIELD(P, fill_latency_cycles, 1, 10000, "10",
		      "L2 cycles from DRAM data returned to the sector readable in the slice"),
	CFG_U32_FIELD(P, lookups_per_cycle, 1, 64, "1",
		      "tag lookups (requests taken from the crossbar) per L2 cycle and slice"),
	CFG_U32_FIELD(P, fills_per_cycle, 1, 64, "1",
		      "sectors the fill port writes per L2 cycle and slice"),
	CFG_U32_FIELD(P, store_ack_cycles, 0, 10000, "0",
		      "L2 cycles from a store visible at the slice to its ack pushed (the write "
		      "accepted; no data to return); 0: hit_latency_cycles, in the hits' reply "
		      "pipeline"),
	CFG_U32_FIELD(P, miss_queue, 1, 65536, "32",
		      "32 B DRAM accesses (reads, write-backs) waiting for the memory controllers, "
		      "per slice (GPGPU-Sim: 32); at least 2 x sectors per line"),
	CFG_U32_FIELD(P, far_latency_cycles, 1, 10000, "1",
		      "with gpu.l2_partitions = 2: L2 cycles a read of a far-homed sector takes "
		      "across the partition link each way (near slice -> home slice, and its data "
		      "back); the home slice's own lookup and the near slice's fill and reply add "
		      "their latencies as for any access"),
	CFG_U32_FIELD(P, partial_write_cycles, 0, 1000, "0",
		      "L2 cycles a store holds the slice's lookups for each sector it writes only "
		      "some bytes of, in place of the one cycle of its own lookup: the data array "
		      "reads the sector, merges the bytes and writes it back with its ECC (a "
		      "read-modify-write: 2 = one read, one write); 0: a partial write costs what a "
		      "full one does (1 too, with one lookup a cycle)"),
};
#undef P
const size_t l2_nfields = sizeof l2_fields / sizeof l2_fields[0];
_Static_assert(sizeof l2_fields / sizeof l2_fields[0] == L2_NFIELDS,
	       "L2_NFIELDS must count l2_fields");

#define L2_REQ_LINE_BYTES 128 /* mem_req.byte_mask covers 128 bytes */

uint32_t l2_reads_max(const struct l2_params *p)
{
	uint32_t sectors = p->cache.line_bytes / p->cache.sector_bytes;

	/* a read in flight holds its sector in flight in the MSHR: at most entries x sectors */
	return p->mshr.entries * (p->mshr.granularity == MSHR_GRAN_LINE ? sectors : 1);
}

int l2_params_check(const struct l2_params *p, const char *group, struct sim_err *err)
{
	char g[128];
	uint32_t sectors;

	snprintf(g, sizeof g, "%s.cache", group);
	if (cache_params_check(&p->cache, g, err) != 0)
		return -1;
	if (p->cache.line_bytes > L2_REQ_LINE_BYTES)
		return sim_err_set(err, NULL, 0, "%s.line_bytes: at most %u (the request byte mask), "
				   "got %u", g, L2_REQ_LINE_BYTES, p->cache.line_bytes);
	snprintf(g, sizeof g, "%s.mshr", group);
	if (mshr_params_check(&p->mshr, p->cache.line_bytes, p->cache.sector_bytes, g, err) != 0)
		return -1;
	sectors = p->cache.line_bytes / p->cache.sector_bytes;
	if (p->miss_queue < 2 * sectors)
		return sim_err_set(err, NULL, 0, "%s.miss_queue: at least 2 x sectors per line (%u) "
				   "so a line miss can queue its reads and a victim's write-backs, "
				   "got %u", group, 2 * sectors, p->miss_queue);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * State
 */

enum l2_acc_state { ACC_FREE, ACC_QUEUED, ACC_AT_MC, ACC_STATE_COUNT };

/* One 32 B DRAM access of the slice; a read's record is the ctx its completion brings back. */
struct l2_acc {
	struct l2 *owner;
	addr_t addr;              /* the sector's address (the slice's view) */
	uint32_t ch;              /* index in mcs[] of the controller it goes to */
	uint32_t sector;          /* index in the line (reads) */
	uint32_t line_at;         /* reads: the line's index in the slice's cache (cache_line_at) */
	uint32_t mshr_rec;        /* reads: the line's MSHR record (mshr_record) */
	bool is_write, partial;
	bool remote;              /* a read of a sector homed in the far partition (l2_set_far) */
	enum l2_acc_state state;
	struct l2_acc *next;      /* free list */
	struct mem_req req;       /* remote: the read as the home slice sees it (origin = this) */
};

/* The sm of a request that is a read from the twin slice (l2_acc.req), not from an SM. */
#define L2_FAR_SM UINT16_MAX

/* A miss-queue slot: the record, and a copy of the fields of it that the drain reads, so that
 * the drain reads no record (it only writes the state of those it sends). On a copy the drain
 * visits about 22 queued accesses a tick and tries about 6 controllers; the records, last
 * touched long before (a fill freed them), were most of l2_tick's host cache misses. */
struct mq_slot {
	struct l2_acc *a;
	addr_t addr;
	uint32_t ch;
	uint32_t next;   /* the next slot of its FIFO (or of the free slots), MQ_NONE: none */
	bool remote, is_write, partial;
};

#define MQ_NONE UINT32_MAX

/* One controller's accesses in the miss queue, oldest first: slots first .. last by next. */
struct mq_fifo {
	uint32_t first, last; /* MQ_NONE: empty */
};

#define L2_ACC_CHUNK 64 /* records per pool growth: one growth covers 16 line misses */

struct l2_acc_chunk {
	struct l2_acc_chunk *next;
	struct l2_acc a[L2_ACC_CHUNK];
};

struct l2 {
	struct l2_params p;
	uint32_t id;
	char *prefix;
	struct clock *clk;
	struct clock_unit *unit;
	struct link *in, *reply_out, *fill_in;
	/* the controllers below (l2_set_dram, l2_set_partition): mcs[i] through port ports[i] */
	struct mc **mcs;
	uint32_t *ports, nch;
	const struct addrmap *map;      /* l2_set_dram: the channel of an address */
	struct addrmap_memo map_memo;   /* map's last chunk (a line's sectors share it) */
	const struct slice_hash *part;  /* l2_set_partition: slice-local addresses go down */
	const struct slice_hash *hash;  /* l2_set_local_index */
	struct cache *c;
	struct mshr *m;
	const struct cache_geom *g;

	/* tracking records */
	struct l2_acc_chunk *chunks;
	struct l2_acc *acc_free;
	uint64_t acc_total;       /* records allocated */
	uint64_t acc_count[ACC_STATE_COUNT];

	/* Miss queue: records waiting for an MC, one FIFO of slots per controller (mq_fifo[nch]:
	 * the far reads, to the twin). A drain visits the FIFOs with slots and stops each at its
	 * controller's first refusal, so the accesses of a controller that refused cost nothing
	 * until it takes more (one ring in arrival order cost a visit and a move of each a tick:
	 * 9% of a copy's instructions). */
	struct mq_slot *mq;       /* [miss_queue]: slots, in FIFOs or free */
	uint32_t mq_free_slot;    /* first free slot */
	uint32_t mq_n;            /* queued, all FIFOs */
	struct mq_fifo *mq_fifo;  /* [nch + 1] */
	uint64_t *mq_busy;        /* bit f: FIFO f has slots */
	uint64_t *mq_inline;      /* bit f: controller f keeps our port in line (mc_port_watch) */
	uint32_t ch_waiting;      /* controllers that refused at the last drain for want of an entry
				   * (they wake us when they grant one) */
	bool drain_retry;         /* a controller refused for its accept budget: retry next cycle */
	cycle_t last_drain;       /* cycle of the last drain */

	struct level_replyq rq;   /* reply pipeline onto reply_out */
	struct level_replyq aq;   /* store acks (store_ack_cycles > 0), also onto reply_out */
	struct level_replyq *ackq; /* where store acks go: aq, or rq (store_ack_cycles = 0) */
	uint32_t ack_latency;     /* store_ack_cycles, or hit_latency_cycles */
	struct level_head head;   /* the head of `in` */
	/* l2_set_far: two partitions; this slice and its twin cache each other's lines */
	struct link *far_in;      /* the twin's reads of sectors homed here (consumed) */
	struct link *far_fill_in; /* this slice's reads of far-homed sectors, back (consumed) */
	struct link *twin_in;     /* the twin's far_in, where this slice's remote reads go */
	struct level_replyq fq;   /* replies to the twin's reads, onto the twin's far_fill_in */
	struct level_head fhead;  /* the head of far_in */
	const struct slice_hash *home; /* home slice of an address */
	uint32_t part_base, part_slices; /* this partition's slices */
	bool far_first;           /* far_in is looked up first this cycle (they alternate) */
	cycle_t lookup_free;      /* the first cycle lookups may go on (a partial write holds
				   * them: partial_write_cycles) */
	bool twin_refused;        /* twin_in was full at the last drain (its pop wakes us) */
	uint64_t fill_gen;        /* fills so far (they change the cache and the MSHR) */
	uint32_t mq_want;         /* the free miss-queue slots the last refusal for them needed */
	uint64_t inside;          /* accepted requests not yet pushed on reply_out */
	struct l2_stats st;
};

/* ---------------------------------------------------------------------------------------------
 * Tracking records, miss queue, fill queue, reply queue
 */

static struct l2_acc *acc_alloc(struct l2 *l2)
{
	struct l2_acc *a;

	if (l2->acc_free == NULL) {
		struct l2_acc_chunk *ch = xcalloc(1, sizeof *ch);
		uint32_t i;

		ch->next = l2->chunks;
		l2->chunks = ch;
		for (i = 0; i < L2_ACC_CHUNK; i++) {
			ch->a[i].owner = l2;
			ch->a[i].state = ACC_FREE;
			ch->a[i].next = l2->acc_free;
			l2->acc_free = &ch->a[i];
		}
		l2->acc_total += L2_ACC_CHUNK;
		l2->acc_count[ACC_FREE] += L2_ACC_CHUNK;
	}
	a = l2->acc_free;
	l2->acc_free = a->next;
	a->next = NULL;
	return a;
}

/* Moves record a from state from (known to the caller: only the debug build reads the record to
 * check it) to state to. */
static void acc_move(struct l2 *l2, struct l2_acc *a, enum l2_acc_state from,
		     enum l2_acc_state to)
{
#ifdef SIM_DEBUG
	SIM_ASSERT(a->state == from);
#endif
	l2->acc_count[from]--;
	l2->acc_count[to]++;
	a->state = to;
}

static void acc_set(struct l2 *l2, struct l2_acc *a, enum l2_acc_state s)
{
	acc_move(l2, a, a->state, s);
}

/* Frees record a, in state from. */
static void acc_release(struct l2 *l2, struct l2_acc *a, enum l2_acc_state from)
{
	acc_move(l2, a, from, ACC_FREE);
	a->addr = 0;
	a->next = l2->acc_free;
	l2->acc_free = a;
}

static void acc_free(struct l2 *l2, struct l2_acc *a)
{
	acc_release(l2, a, a->state);
}

static uint64_t local_line(const void *ctx, uint64_t line)
{
	const struct l2 *l2 = ctx;
	uint32_t shift = l2->g->line_bytes == 0 ? 0 : (uint32_t)__builtin_ctz(l2->g->line_bytes);

	return slice_hash_local(l2->hash, (addr_t)line << shift) >> shift;
}

/* The controllers: n of them, each with the slice's port. */
static void set_mcs(struct l2 *l2, struct mc *const *mcs, const uint32_t *ports, uint32_t n)
{
	uint32_t i;

	SIM_ASSERT(l2_is_idle(l2) && l2->mcs == NULL && n >= 1);
	l2->nch = n;
	l2->mcs = xcalloc(n, sizeof *l2->mcs);
	l2->ports = xcalloc(n, sizeof *l2->ports);
	l2->mq_fifo = xcalloc((size_t)n + 1, sizeof *l2->mq_fifo);
	l2->mq_busy = xcalloc((size_t)n / 64 + 1, sizeof *l2->mq_busy);
	l2->mq_inline = xcalloc((size_t)n / 64 + 1, sizeof *l2->mq_inline);
	for (i = 0; i < n; i++) {
		l2->mcs[i] = mcs[i];
		l2->ports[i] = ports[i];
		mc_port_watch(mcs[i], ports[i], &l2->mq_inline[i / 64], 1ull << (i % 64));
	}
	for (i = 0; i <= n; i++)
		l2->mq_fifo[i].first = l2->mq_fifo[i].last = MQ_NONE;
}

void l2_set_dram(struct l2 *l2, struct mc *const *mcs, const uint32_t *ports,
		 const struct addrmap *map)
{
	set_mcs(l2, mcs, ports, map->g.channels);
	l2->map = map;
	l2->map_memo = (struct addrmap_memo){ 0 };
}

void l2_set_partition(struct l2 *l2, struct mc *mc, uint32_t port, const struct slice_hash *h)
{
	set_mcs(l2, &mc, &port, 1);
	l2->part = h;
}

void l2_set_far(struct l2 *l2, struct link *far_in, struct link *far_fill_in,
		struct link *twin_in, struct link *twin_fill_in, const struct slice_hash *home,
		uint32_t part_base, uint32_t part_slices)
{
	SIM_ASSERT(l2_is_idle(l2) && l2->far_in == NULL);
	SIM_ASSERT(far_in != NULL && far_fill_in != NULL && twin_in != NULL &&
		   twin_fill_in != NULL && home != NULL && part_slices >= 1);
	SIM_ASSERT(l2->id >= part_base && l2->id < part_base + part_slices);
	l2->far_in = far_in;
	l2->far_fill_in = far_fill_in;
	l2->twin_in = twin_in;
	/* replies to the twin's reads: sized as rq */
	level_replyq_init(&l2->fq, (l2->p.lookups_per_cycle + l2->p.fills_per_cycle) *
				   (l2->p.hit_latency_cycles + 1), twin_fill_in,
			  MEM_STAGE_L2_ACCESS, MEM_STAGE_L2_MISS);
	l2->home = home;
	l2->part_base = part_base;
	l2->part_slices = part_slices;
	link_set_consumer(far_in, l2->unit);
	link_set_consumer(far_fill_in, l2->unit);
	link_set_producer(twin_in, l2->unit);
	link_set_producer(twin_fill_in, l2->unit);
}

void l2_set_local_index(struct l2 *l2, const struct slice_hash *h)
{
	SIM_ASSERT(l2_is_idle(l2));
	l2->hash = h;
	cache_set_index_fn(l2->c, local_line, l2);
}

/* Whether addr is homed in the other partition (l2_set_far): this slice caches it for its SMs
 * and reads it from the home slice, its twin. */
static bool is_far(const struct l2 *l2, addr_t addr)
{
	uint32_t h;

	if (l2->home == NULL)
		return false;
	h = slice_hash_slice(l2->home, addr);
	return h < l2->part_base || h >= l2->part_base + l2->part_slices;
}

static uint32_t mq_free(const struct l2 *l2)
{
	return l2->p.miss_queue - l2->mq_n;
}

/* Appends v to FIFO f (a controller, or nch: the twin). */
static void mq_append(struct l2 *l2, uint32_t f, struct mq_slot v)
{
	struct mq_fifo *q = &l2->mq_fifo[f];
	uint32_t k = l2->mq_free_slot;

	SIM_ASSERT(k != MQ_NONE && f <= l2->nch);
	l2->mq_free_slot = l2->mq[k].next;
	v.next = MQ_NONE;
	l2->mq[k] = v;
	if (q->first == MQ_NONE) {
		q->first = k;
		l2->mq_busy[f / 64] |= 1ull << (f % 64);
	} else {
		l2->mq[q->last].next = k;
	}
	q->last = k;
	l2->mq_n++;
}

/* Takes the first slot off FIFO f (it has one) and frees it. */
static void mq_pop(struct l2 *l2, uint32_t f)
{
	struct mq_fifo *q = &l2->mq_fifo[f];
	uint32_t k = q->first;

	q->first = l2->mq[k].next;
	if (q->first == MQ_NONE) {
		q->last = MQ_NONE;
		l2->mq_busy[f / 64] &= ~(1ull << (f % 64));
	}
	l2->mq[k].next = l2->mq_free_slot;
	l2->mq_free_slot = k;
	l2->mq_n--;
}

/* Queues a 32 B access to sector address addr; the caller checked the room. Its controller is
 * the partition's, or the one the address map names. */
static struct l2_acc *mq_push(struct l2 *l2, addr_t addr, bool is_write, bool partial)
{
	struct l2_acc *a = acc_alloc(l2);

	SIM_ASSERT(l2->mq_n < l2->p.miss_queue);
	a->addr = addr;
	a->ch = l2->map != NULL ? addrmap_channel_memo(l2->map, &l2->map_memo, addr) : 0;
	a->is_write = is_write;
	a->partial = partial;
	a->remote = !is_write && is_far(l2, addr);
	acc_set(l2, a, ACC_QUEUED);
	mq_append(l2, a->remote ? l2->nch : a->ch,
		  (struct mq_slot){ .a = a, .addr = addr, .ch = a->ch, .remote = a->remote,
				    .is_write = is_write, .partial = partial });
	return a;
}

/* ---------------------------------------------------------------------------------------------
 * Misses and write-backs
 */

static addr_t line_addr(const struct l2 *l2, addr_t a)
{
	return a & ~(addr_t)(l2->g->line_bytes - 1);
}

enum cover { COVER_NONE, COVER_PART, COVER_ALL };

/* How much of sector s bytes covers. */
static enum cover sector_cover(const struct l2 *l2, const struct cache_bytes *bytes, uint32_t s)
{
	struct cache_bytes sb = cache_sector_bytes(l2->c, 1u << s);
	bool some = false, all = true;
	uint32_t w;

	for (w = 0; w < CACHE_MAX_LINE_BYTES / 64; w++) {
		some = some || (bytes->w[w] & sb.w[w]) != 0;
		all = all && (bytes->w[w] & sb.w[w]) == sb.w[w];
	}
	return all ? COVER_ALL : some ? COVER_PART : COVER_NONE;
}

/* The victim's dirty sectors become DRAM writes; a sector with only some bytes written is a
 * partial write (read-modify-write under inline ECC). */
static void writeback_victim(struct l2 *l2, const struct cache_line_info *v)
{
	uint32_t s;

	if (!v->present || v->dirty == 0)
		return;
	for (s = 0; s < l2->g->sectors; s++) {
		bool partial;

		if (!((v->dirty >> s) & 1))
			continue;
		partial = sector_cover(l2, &v->bytes, s) != COVER_ALL;
		mq_push(l2, v->addr + (addr_t)s * l2->g->sector_bytes, true, partial);
		l2->st.writebacks++;
		if (partial)
			l2->st.writebacks_partial++;
	}
}

/* The reads of the sectors of fetch of line, reserved at index at of the cache and in flight in
 * the MSHR. */
static void queue_reads(struct l2 *l2, addr_t line, uint32_t fetch, uint32_t at)
{
	uint32_t s, rec = fetch != 0 ? mshr_record(l2->m, line) : UINT32_MAX;

	for (s = 0; s < l2->g->sectors; s++) {
		if ((fetch >> s) & 1) {
			struct l2_acc *a = mq_push(l2, line + (addr_t)s * l2->g->sector_bytes, false,
						   false);

			a->sector = s;
			a->line_at = at;
			a->mshr_rec = rec;
			if (!a->remote)
				l2->st.dram_reads++;
		}
	}
}

/* ---------------------------------------------------------------------------------------------
 * (1) Lookup
 */

/* A store that wrote some sectors in part holds the lookups partial_write_cycles per such
 * sector from its own lookup (the data array's read-modify-write of each, in place of the
 * store's one array cycle). */
static void hold_for_partial(struct l2 *l2, const struct cache_bytes *bytes, cycle_t now)
{
	uint32_t s, n = 0;

	if (l2->p.partial_write_cycles == 0)
		return;
	for (s = 0; s < l2->g->sectors; s++)
		n += sector_cover(l2, bytes, s) == COVER_PART;
	if (n == 0)
		return;
	l2->st.partial_writes += n;
	l2->lookup_free = now + (cycle_t)n * l2->p.partial_write_cycles;
}

/* A store (write-allocate without fetch): it needs a reply slot for its ack and, for an absent
 * line, room in the miss queue for a victim's write-backs. */
static enum level_stall try_store(struct l2 *l2, struct mem_req *r, addr_t line,
				  const struct cache_lookup *lk, const struct cache_bytes *bytes,
				  cycle_t visible, cycle_t now)
{
	struct level_replyq *q = l2->ackq;
	struct cache_line_info victim;

	if (!level_replyq_has_room(q))
		return LEVEL_STALL_REPLY_FULL;
	if (lk->outcome == CACHE_LINE_MISS) {
		if (mq_free(l2) < l2->g->sectors) {
			l2->mq_want = l2->g->sectors;
			return LEVEL_STALL_MISS_QUEUE_FULL;
		}
		if (cache_allocate(l2->c, line, 0, &victim) < 0)
			return LEVEL_STALL_NO_LINE;
		writeback_victim(l2, &victim);
	}
	req_enter(r, MEM_STAGE_L2_ACCESS, clock_tick_of(l2->clk, visible));
	cache_write(l2->c, line, bytes);
	hold_for_partial(l2, bytes, now);
	/* A store hits when its line is present (the bytes it writes need not be: write-allocate
	 * without fetch), as the statistic's description and Nsight's write lookup hits count it. */
	level_count(&l2->st.lv, lk->outcome == CACHE_LINE_MISS ? CACHE_LINE_MISS : CACHE_HIT);
	l2->st.stores++;
	r->merged = NULL;
	level_replyq_push(q, now + l2->ack_latency, r);
	return LEVEL_STALL_NONE;
}

/* Partitions: the MSHR entries a miss of a far-homed line (to be read from the twin) may not
 * take. Without them both twins could fill their MSHRs with reads of each other's lines, each
 * waiting for the other to take its read, whose miss needs an entry: a protocol deadlock, which
 * hardware avoids with resources reserved per message class. With the reserve, reads from the
 * twin and misses of home lines (which need only DRAM) always find an entry in time. */
static uint32_t far_reserve(const struct l2_params *p)
{
	return p->mshr.entries / 8 > 0 ? p->mshr.entries / 8 : 1;
}

static bool far_room(const struct l2 *l2, uint32_t fetch)
{
	uint32_t need = l2->p.mshr.granularity == MSHR_GRAN_LINE ? 1
				: bits_pop32(fetch);

	return mshr_used(l2->m) + need + far_reserve(&l2->p) <= l2->p.mshr.entries;
}

static bool far_line(const void *ctx, addr_t line)
{
	return is_far(ctx, line);
}

/* Partitions: whether a miss of a far-homed line may make the way lk names (a line miss: a new
 * one) wait for a fill. The same deadlock as the MSHR's, in the ways of a set: were every way
 * of a set waiting for the twin's data, the twin's read of a line homed here that maps to the
 * set would find no line, and the twin's set likewise. One way of each set is kept from near
 * copies in flight; the others wait only for DRAM, or not at all. */
static bool far_way_room(const struct l2 *l2, const struct cache_lookup *lk)
{
	return cache_pending_ways(l2->c, lk->set, lk->outcome == CACHE_LINE_MISS ? -1 : lk->way,
				  far_line, l2) + 1 < l2->g->assoc;
}

int l2_params_check_far(const struct l2_params *p, const char *group, struct sim_err *err)
{
	bool line = p->mshr.granularity == MSHR_GRAN_LINE;
	/* the most entries one far miss takes: the line's, or each of its sectors */
	uint32_t need = line ? 1 : p->cache.line_bytes / p->cache.sector_bytes;

	if (need + far_reserve(p) > p->mshr.entries)
		return sim_err_set(err, NULL, 0, "%s.mshr.entries: with gpu.l2_partitions = 2, at "
				   "least %u (a far line's miss, %u %s entr%s, on top of the %u kept "
				   "back from far misses), got %u", group, need + far_reserve(p), need,
				   line ? "line" : "sector", need == 1 ? "y" : "ies", far_reserve(p),
				   p->mshr.entries);
	if (p->cache.assoc < 2)
		return sim_err_set(err, NULL, 0, "%s.cache.assoc: with gpu.l2_partitions = 2, at "
				   "least 2 (a set keeps one way from near copies of far-homed lines "
				   "in flight, and a near copy needs another), got %u", group,
				   p->cache.assoc);
	return 0;
}

/* A load miss: the MSHR, then room in the miss queue for its reads plus, for an absent line, a
 * whole victim's write-backs (its dirty sectors are not known before it is chosen), then the
 * line (see level.c). */
static enum level_stall try_load_miss(struct l2 *l2, struct mem_req *r, addr_t line,
				      const struct cache_lookup *lk, cycle_t visible, cycle_t now)
{
	struct cache_line_info victim;
	enum mshr_result res;
	enum level_stall why;
	uint32_t fetch, want, at = 0;

	why = level_miss_probe(l2->m, r, line, lk, &res, &fetch);
	if (why != LEVEL_STALL_NONE)
		return why;
	if (fetch != 0 && r->sm != L2_FAR_SM && is_far(l2, line)) {
		if (!far_room(l2, fetch)) {
			l2->st.far_reserve_stalls++;
			return LEVEL_STALL_MSHR_FULL;
		}
		if (!far_way_room(l2, lk)) {
			l2->st.far_reserve_stalls++;
			return LEVEL_STALL_NO_LINE;
		}
	}
	want = bits_pop32(fetch);
	if (lk->outcome == CACHE_LINE_MISS)
		want += l2->g->sectors;
	if (mq_free(l2) < want) {
		l2->mq_want = want;
		return LEVEL_STALL_MISS_QUEUE_FULL;
	}
	why = level_miss_reserve(l2->c, line, lk, res, fetch, &victim, &at);
	if (why != LEVEL_STALL_NONE)
		return why;
	writeback_victim(l2, &victim);
	level_miss_admit(l2->m, &l2->st.lv, r, line, lk, res, fetch, MEM_STAGE_L2_ACCESS,
			 clock_tick_of(l2->clk, visible), MEM_STAGE_L2_MISS,
			 clock_tick_of(l2->clk, now));
	queue_reads(l2, line, fetch, at);
	return LEVEL_STALL_NONE;
}

/* Tries to accept r, the visible head of `in`. Returns LEVEL_STALL_NONE when it was accepted
 * (the caller pops it), else the reason; a refusal changes nothing but counters. */
static enum level_stall try_accept(struct l2 *l2, struct level_head *h, struct mem_req *r,
				   cycle_t visible, cycle_t now)
{
	struct cache_bytes bytes;
	struct cache_lookup lk;
	addr_t line = line_addr(l2, r->addr);
	enum level_stall why;

	level_lookup(l2->c, h, r, line, &bytes, &lk);
	if (r->type == MEM_REQ_STORE)
		return try_store(l2, r, line, &lk, &bytes, visible, now);
	if (lk.outcome != CACHE_HIT)
		why = try_load_miss(l2, r, line, &lk, visible, now);
	else
		why = level_load_hit(r->sm == L2_FAR_SM ? &l2->fq : &l2->rq, &l2->st.lv, r,
				     clock_tick_of(l2->clk, visible),
				     now + l2->p.hit_latency_cycles);
	if (why == LEVEL_STALL_NONE && r->sm == L2_FAR_SM)
		l2->st.far_served++;
	return why;
}

/* Up to n lookups from link in (the crossbar's, or the twin's reads) whose head is h; returns
 * how many were accepted (a refusal ends them). */
static uint32_t lookups_from(struct l2 *l2, struct link *in, struct level_head *h, uint32_t n,
			     cycle_t now)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct mem_req *r = link_peek(in);
		enum level_stall why;
		bool waits;

		if (r == NULL || l2->lookup_free > now)
			break;
		/* (with partitions the other input's requests may change the answer) */
		waits = l2->far_in == NULL && level_head_waits(h, r, mq_free(l2));
		if (waits || level_head_same(h, r, l2->fill_gen, l2->mq_n, true)) {
			/* Same inputs, same refusal (see the top): charge it, keep the reason, and
			 * note what it saw, as a refusal does. */
			why = h->stall;
#ifdef SIM_DEBUG
			/* looked up again: a refusal for the miss queue changes nothing */
			SIM_ASSERT(!waits ||
				   (try_accept(l2, h, r, link_head_ready(in), now) == why &&
				    l2->mq_want == h->mq_want));
#endif
			level_head_charge(h, &l2->st.lv, now);
			level_head_refused(h, why, now, l2->fill_gen, l2->mq_n);
			break;
		}
		level_head_charge(h, &l2->st.lv, now);
		why = try_accept(l2, h, r, link_head_ready(in), now);
		if (why != LEVEL_STALL_NONE) {
			level_head_refused(h, why, now, l2->fill_gen, l2->mq_n);
			if (why == LEVEL_STALL_MISS_QUEUE_FULL)
				level_head_wants(h, l2->mq_want);
			break;
		}
		SIM_ASSERT(link_pop(in) == r);
		h->seen = NULL;
		l2->inside++;
	}
	return i;
}

/* The crossbar's requests and, with partitions, the twin's reads share the lookups; the two
 * inputs take turns at going first. */
static void l2_lookups(struct l2 *l2, cycle_t now)
{
	uint32_t n = l2->p.lookups_per_cycle;

	if (l2->lookup_free > now)
		return; /* a partial write's read-modify-write holds them */
	if (l2->far_in == NULL) {
		lookups_from(l2, l2->in, &l2->head, n, now);
		return;
	}
	if (l2->far_first) {
		n -= lookups_from(l2, l2->far_in, &l2->fhead, n, now);
		lookups_from(l2, l2->in, &l2->head, n, now);
	} else {
		n -= lookups_from(l2, l2->in, &l2->head, n, now);
		lookups_from(l2, l2->far_in, &l2->fhead, n, now);
	}
	l2->far_first = !l2->far_first;
}

/* ---------------------------------------------------------------------------------------------
 * (0) Fill port, (2) miss-queue drain, (3) replies
 */

/* Fills the sector of read a: the requests waiting for it are replied hit latency later, the
 * SMs' on reply_out, the twin's (partitions) on the twin's far_fill_in, in chain order each. */
static void fill_one(struct l2 *l2, struct l2_acc *a, cycle_t now)
{
	addr_t line = line_addr(l2, a->addr);
	struct mem_req *chain, *r, *next, *sm = NULL, *far = NULL, **sm_tail = &sm,
		       **far_tail = &far;

	SIM_ASSERT(a->owner == l2 && a->state == ACC_AT_MC && !a->is_write);
	/* the line stays where the miss reserved it: no tag walk over cold sets */
	cache_fill_at(l2->c, a->line_at, line, 1u << a->sector);
	/* and its MSHR record where the miss left it: no table slot read from cold memory */
	chain = mshr_fill_at(l2->m, a->mshr_rec, line, 1u << a->sector);
	for (r = chain; r != NULL; r = next) {
		next = r->merged;
		req_enter(r, MEM_STAGE_L2_FILL, clock_tick_of(l2->clk, now));
		r->merged = NULL;
		if (r->sm == L2_FAR_SM) {
			*far_tail = r;
			far_tail = &r->merged;
		} else {
			*sm_tail = r;
			sm_tail = &r->merged;
		}
	}
	if (sm != NULL)
		level_replyq_push(&l2->rq, now + l2->p.hit_latency_cycles, sm);
	if (far != NULL)
		level_replyq_push(&l2->fq, now + l2->p.hit_latency_cycles, far);
	acc_free(l2, a);
	l2->st.fills++;
	l2->fill_gen++;
}

/* Room for a fill's replies: the SMs' queue and, with partitions, the twin's. */
static bool fill_room(const struct l2 *l2)
{
	return level_replyq_has_room(&l2->rq) &&
	       (l2->far_in == NULL || level_replyq_has_room(&l2->fq));
}

/* The fill port: reads back from the controllers, then (partitions) from the twin. */
static void l2_fill_port(struct l2 *l2, cycle_t now)
{
	uint32_t n = 0;
	struct l2_acc *a;
	struct mem_req *r;

	while (n < l2->p.fills_per_cycle && fill_room(l2) &&
	       (a = link_peek(l2->fill_in)) != NULL) {
		link_pop(l2->fill_in);
		fill_one(l2, a, now);
		n++;
	}
	l2->st.fill_stalls += link_visible(l2->fill_in);
	if (l2->far_fill_in == NULL)
		return;
	while (n < l2->p.fills_per_cycle && fill_room(l2) &&
	       (r = link_peek(l2->far_fill_in)) != NULL) {
		link_pop(l2->far_fill_in);
		a = r->origin;
		SIM_ASSERT(r == &a->req && a->remote);
		fill_one(l2, a, now);
		n++;
	}
	l2->st.fill_stalls += link_visible(l2->far_fill_in);
}

/* Sends remote read a to the home slice (the twin) as a one-sector load; false if the twin's
 * link is full. */
static bool send_far(struct l2 *l2, struct l2_acc *a, cycle_t now)
{
	struct mem_req *r = &a->req;

	req_init(r, clock_tick_of(l2->clk, now));
	r->type = MEM_REQ_LOAD;
	r->addr = line_addr(l2, a->addr);
	r->sector_mask = 1u << a->sector;
	r->bytes = l2->g->sector_bytes;
	r->sm = L2_FAR_SM;
	r->slice = l2->id;
	r->origin = a;
	if (!link_try_push(l2->twin_in, r))
		return false;
	acc_set(l2, a, ACC_AT_MC);
	l2->st.far_reads++;
	return true;
}

/* Sends FIFO f's accesses, in order, to its controller until it refuses one (its port is not
 * in the controller's line: l2_drain skips those). */
static void drain_ch(struct l2 *l2, uint32_t f)
{
	struct mq_fifo *q = &l2->mq_fifo[f];

	while (q->first != MQ_NONE) {
		const struct mq_slot *slot = &l2->mq[q->first];
		struct l2_acc *a = slot->a;
		struct mc_access ma;
		enum mc_send res;

		memset(&ma, 0, sizeof ma);
		ma.addr = l2->part != NULL ? slice_hash_local(l2->part, slot->addr) : slot->addr;
		ma.is_write = slot->is_write;
		ma.partial = slot->partial;
		ma.ctx = a;
		res = mc_port_send(l2->mcs[f], l2->ports[f], &ma);
		if (res != MC_SEND_OK) {
			l2->st.mq_refusals++;
			if (res == MC_SEND_RETRY)
				l2->drain_retry = true;
			else
				l2->ch_waiting++;
			return;
		}
		/* the record is written, not read (its state is known) */
		if (slot->is_write) /* written back: nothing comes back for it */
			acc_release(l2, a, ACC_QUEUED);
		else
			acc_move(l2, a, ACC_QUEUED, ACC_AT_MC);
		mq_pop(l2, f);
	}
}

/* Sends the miss queue's accesses, each controller's in order (and the far-homed reads to the
 * twin, in order), each controller's until it refuses. A controller that keeps our port in line
 * (mq_inline) would refuse its first access without a look at it: counted so, not asked (the
 * A100-class copy's slices found 5.4 of the 6.0 controllers they held accesses for keeping them
 * in line at a drain, each ask a read of that controller's state: 5% of its instructions). */
static void l2_drain(struct l2 *l2, cycle_t now)
{
	uint32_t w;

	/* A controller that made us wait refused us in every cycle we slept through: count those
	 * refusals as a slice that tried every cycle would have (mq_refusals is per attempt). */
	if (l2->last_drain != CYCLE_NEVER && now > l2->last_drain + 1)
		l2->st.mq_refusals += (now - l2->last_drain - 1) * l2->ch_waiting;
	l2->last_drain = now;
	l2->ch_waiting = 0;
	l2->drain_retry = false;
	l2->twin_refused = false;
	if (l2->mq_n == 0)
		return;
	for (w = 0; w <= l2->nch / 64; w++) {
		uint64_t busy = l2->mq_busy[w], in_line = busy & l2->mq_inline[w];
		uint32_t waiting = bits_pop64(in_line);

		l2->st.mq_refusals += waiting;
		l2->ch_waiting += waiting;
		for (busy &= ~in_line; busy != 0; busy &= busy - 1) {
			uint32_t f = w * 64 + (uint32_t)__builtin_ctzll(busy);

			if (f < l2->nch) {
				drain_ch(l2, f);
				continue;
			}
			while (l2->mq_fifo[f].first != MQ_NONE &&
			       send_far(l2, l2->mq[l2->mq_fifo[f].first].a, now))
				mq_pop(l2, f);
			/* the twin's pop of far_in wakes us */
			l2->twin_refused = l2->mq_fifo[f].first != MQ_NONE;
		}
	}
}

/* Hits and fills first, then store acks (a refused push stops both: one reply_out). */
static void l2_replies(struct l2 *l2, cycle_t now)
{
	l2->aq.blocked = false;
	if (level_replyq_send(&l2->rq, now, clock_period(l2->clk), &l2->st.replies,
			      &l2->st.reply_stalls, &l2->inside) &&
	    l2->aq.n > 0)
		level_replyq_send(&l2->aq, now, clock_period(l2->clk), &l2->st.replies,
				  &l2->st.reply_stalls, &l2->inside);
	else if (l2->aq.n > 0 && level_replyq_next(&l2->aq) <= now)
		l2->aq.blocked = true; /* behind the refused reply: reply_out wakes us */
	if (l2->fq.n > 0)
		level_replyq_send(&l2->fq, now, clock_period(l2->clk), &l2->st.far_replies,
				  &l2->st.reply_stalls, &l2->inside);
}

static cycle_t min_cycle(cycle_t a, cycle_t b)
{
	return a < b ? a : b;
}

/* When the head of in (h its state) may be looked up again: room says whether the queue of its
 * reply may have room again. */
static cycle_t head_answer(const struct l2 *l2, const struct link *in, const struct level_head *h,
			   bool room, cycle_t now)
{
	cycle_t c = link_head_ready(in);

	if (c == CYCLE_NEVER)
		return CYCLE_NEVER;
	switch (h->stall) {
	case LEVEL_STALL_NONE:
		return c > now ? c : now + 1;
	case LEVEL_STALL_REPLY_FULL:
		/* the head's queue (hits, or store acks) may have room again */
		return room ? now + 1 : CYCLE_NEVER;
	case LEVEL_STALL_MISS_QUEUE_FULL:
		/* Room comes from the drain (a controller that made us wait wakes us when it
		 * grants an entry) and a fill changes the answer: look again next cycle if either
		 * happened since the refusal. */
		return l2->mq_n != h->mq_n || l2->fill_gen != h->fill_gen ? now + 1 : CYCLE_NEVER;
	default:
		/* MSHR, merge limit, no line: only a fill frees them (fill_in, or a push on it,
		 * wakes us). */
		return CYCLE_NEVER;
	}
}

/* When the head of in can be looked up next: head_answer, not before a partial write's hold
 * ends (lookup_free). */
static cycle_t head_wake(const struct l2 *l2, const struct link *in, const struct level_head *h,
			 bool room, cycle_t now)
{
	cycle_t c = head_answer(l2, in, h, room, now);

	return c != CYCLE_NEVER && c < l2->lookup_free ? l2->lookup_free : c;
}

/* Sleeps until the next cycle anything can happen here; stays awake if that is the next one. */
static void l2_sleep(struct l2 *l2, cycle_t now)
{
	cycle_t next = CYCLE_NEVER, h;

	if (l2->mq_n > 0 && l2->drain_retry)
		next = now + 1;  /* a controller's accept budget: retry next cycle */
	/* a controller that made us wait wakes us when it grants an entry (see the top) */
	h = link_head_ready(l2->fill_in);
	if (h != CYCLE_NEVER)
		next = min_cycle(next, h > now ? h : now + 1);
	h = level_replyq_next(&l2->rq);
	if (h != CYCLE_NEVER && !l2->rq.blocked)
		next = min_cycle(next, h > now ? h : now + 1);
	h = level_replyq_next(&l2->aq);
	if (h != CYCLE_NEVER && !l2->aq.blocked && !l2->rq.blocked)
		next = min_cycle(next, h > now ? h : now + 1);
	/* blocked: reply_out wakes us when it pops (we are its producer). */
	next = min_cycle(next, head_wake(l2, l2->in, &l2->head,
					 level_replyq_has_room(&l2->rq) ||
					 level_replyq_has_room(l2->ackq), now));
	if (l2->far_in != NULL) {
		/* the same for the twin's reads, and our own coming back; the twin's
		 * far_fill_in wakes us when a blocked reply to it may go */
		next = min_cycle(next, head_wake(l2, l2->far_in, &l2->fhead,
						 level_replyq_has_room(&l2->fq), now));
		h = link_head_ready(l2->far_fill_in);
		if (h != CYCLE_NEVER)
			next = min_cycle(next, h > now ? h : now + 1);
		h = level_replyq_next(&l2->fq);
		if (h != CYCLE_NEVER && !l2->fq.blocked)
			next = min_cycle(next, h > now ? h : now + 1);
	}
	/* Covers all three cases: NEVER is a plain sleep, the next cycle keeps the unit awake. */
	clock_sleep_until(l2->unit, next);
}

static void l2_tick(void *unit, cycle_t now)
{
	struct l2 *l2 = unit;

	l2_fill_port(l2, now);
	l2_lookups(l2, now);
	l2_drain(l2, now);
	l2_replies(l2, now);
	l2_sleep(l2, now);
}

/* ---------------------------------------------------------------------------------------------
 * Create / destroy / queries
 */

static void register_stats(struct l2 *l2, struct stats *st, const char *prefix)
{
	static const struct stats_counter_def counters[] = {
#define C(f, d) STATS_COUNTER_DEF(struct l2_stats, f, d)
		C(accesses, "requests accepted from the crossbar"),
		C(loads, "loads accepted"),
		C(stores, "stores accepted (write-allocate without fetch)"),
		C(hits, "accepted with every requested sector (load) or the line (store) present"),
		C(sector_misses, "accepted with the line present, some requested sector or byte not"),
		C(line_misses, "accepted with the line absent"),
		C(mshr_merges, "load misses that joined an MSHR entry in flight"),
		C(stall_mshr_full, "cycles the head request waited: no free MSHR entry"),
		C(stall_merge_limit, "cycles the head request waited: MSHR entry at its merge limit"),
		C(stall_no_line, "cycles the head request waited: every way of its set reserved"),
		C(stall_miss_queue_full, "cycles the head request waited: miss queue full"),
		C(stall_reply_full, "cycles the head request waited: reply pipeline full"),
		C(fills, "sectors written by the fill port"),
		C(fill_stalls, "fill-cycles a readable sector waited for the fill port"),
		C(dram_reads, "32 B reads sent to DRAM"),
		C(writebacks, "dirty sectors written back to DRAM"),
		C(writebacks_partial, "of those, sectors with only some bytes written"),
		C(partial_writes, "sectors stores wrote only some bytes of (each held the lookups "
				  "partial_write_cycles; counted only when that is set)"),
		C(mq_refusals, "miss-queue accesses refused by a memory controller (per attempt)"),
		C(replies, "replies pushed to the crossbar"),
		C(reply_stalls, "cycles the crossbar refused a ready reply"),
		C(far_reads, "32 B reads of sectors homed in the far partition, sent to the twin "
			     "slice (gpu.l2_partitions = 2)"),
		C(far_served, "reads from the twin slice accepted here (also counted in accesses "
			      "and loads)"),
		C(far_replies, "replies to the twin slice's reads"),
		C(far_reserve_stalls, "misses of far-homed lines refused because only the MSHR "
				      "entries kept for home lines and the twin's reads were free, or "
				      "only the one way of the set kept from near copies in flight "
				      "(refusals)"),
#undef C
	};

	stats_counters(st, prefix, &l2->st, counters, sizeof counters / sizeof counters[0]);
	/* 8-cycle bins up to 8192 cycles; the registry counts overflow. */
	level_replyq_register(&l2->rq, st, prefix, 8192.0, 1024,
			      "load hits: L2 cycles from visible to reply pushed",
			      "load misses (MSHR): L2 cycles from visible to reply pushed",
			      "stores: L2 cycles from visible to ack pushed");
	/* store acks of their own queue go to the same distributions */
	l2->aq.lat_hit = l2->rq.lat_hit;
	l2->aq.lat_miss = l2->rq.lat_miss;
	l2->aq.lat_store = l2->rq.lat_store;
}

struct l2 *l2_create(const struct l2_params *p, uint32_t id, struct clock *clk, struct link *in,
		     struct link *reply_out, struct link *fill_in, uint64_t seed, struct stats *st,
		     const char *prefix)
{
	struct sim_err err;
	struct l2 *l2;
	char name[256];
	uint32_t i;

	memset(&err, 0, sizeof err);
	SIM_ASSERT(l2_params_check(p, "l2", &err) == 0);
	SIM_ASSERT(p->hit_latency_cycles >= 1 && p->fill_latency_cycles >= 1);
	SIM_ASSERT(p->lookups_per_cycle >= 1 && p->fills_per_cycle >= 1);
	SIM_ASSERT(clk != NULL && in != NULL && reply_out != NULL && fill_in != NULL);
	SIM_ASSERT(link_capacity(fill_in) >= l2_reads_max(p));
	l2 = xcalloc(1, sizeof *l2);
	l2->p = *p;
	l2->id = id;
	l2->prefix = xstrdup(prefix != NULL ? prefix : "l2");
	l2->clk = clk;
	l2->in = in;
	l2->reply_out = reply_out;
	l2->fill_in = fill_in;
	l2->last_drain = CYCLE_NEVER;
	snprintf(name, sizeof name, "%s.cache", l2->prefix);
	l2->c = cache_create(&p->cache, seed, st, name);
	l2->g = cache_geom(l2->c);
	snprintf(name, sizeof name, "%s.mshr", l2->prefix);
	l2->m = mshr_create(&p->mshr, l2->g->line_bytes, l2->g->sector_bytes, st, name);
	l2->mq = xcalloc(p->miss_queue, sizeof *l2->mq);
	for (i = 0; i < p->miss_queue; i++)
		l2->mq[i].next = i + 1 < p->miss_queue ? i + 1 : MQ_NONE;
	l2->mq_free_slot = p->miss_queue > 0 ? 0 : MQ_NONE;
	/* Never full while reply_out keeps up (level.h). */
	level_replyq_init(&l2->rq, (p->lookups_per_cycle + p->fills_per_cycle) *
				   (p->hit_latency_cycles + 1), reply_out, MEM_STAGE_L2_ACCESS,
			  MEM_STAGE_L2_MISS);
	/* one store ack a lookup: never full while reply_out keeps up */
	level_replyq_init(&l2->aq, p->lookups_per_cycle * (p->store_ack_cycles + 1), reply_out,
			  MEM_STAGE_L2_ACCESS, MEM_STAGE_L2_MISS);
	level_head_init(&l2->fhead);
	l2->ackq = p->store_ack_cycles > 0 ? &l2->aq : &l2->rq;
	l2->ack_latency = p->store_ack_cycles > 0 ? p->store_ack_cycles : p->hit_latency_cycles;
	level_head_init(&l2->head);
	l2->unit = clock_attach(clk, l2->prefix, l2_tick, l2);
	link_set_consumer(in, l2->unit);
	link_set_consumer(fill_in, l2->unit);
	link_set_producer(reply_out, l2->unit);
	if (st != NULL)
		register_stats(l2, st, l2->prefix);
	return l2;
}

void l2_destroy(struct l2 *l2)
{
	struct l2_acc_chunk *ch, *next;

	if (l2 == NULL)
		return;
	for (ch = l2->chunks; ch != NULL; ch = next) {
		next = ch->next;
		free(ch);
	}
	cache_destroy(l2->c);
	mshr_destroy(l2->m);
	free(l2->mq);
	free(l2->mq_fifo);
	free(l2->mq_busy);
	free(l2->mq_inline);
	free(l2->mcs);
	free(l2->ports);
	level_replyq_free(&l2->rq);
	level_replyq_free(&l2->aq);
	if (l2->far_in != NULL)
		level_replyq_free(&l2->fq);
	free(l2->prefix);
	free(l2);
}

struct clock_unit *l2_unit(struct l2 *l2)
{
	return l2->unit;
}

bool l2_is_idle(const struct l2 *l2)
{
	return l2->inside == 0 && l2->acc_count[ACC_FREE] == l2->acc_total && l2->mq_n == 0 &&
	       l2->rq.n == 0 && l2->aq.n == 0 && l2->fq.n == 0;
}

const struct l2_stats *l2_stats(const struct l2 *l2)
{
	return &l2->st;
}

struct cache *l2_cache(struct l2 *l2)
{
	return l2->c;
}

struct mshr *l2_mshr(struct l2 *l2)
{
	return l2->m;
}

/* ---------------------------------------------------------------------------------------------
 * Check and dump
 */

/* The miss queue's FIFOs hold mq_n slots, each in the FIFO of its controller (nch: the far
 * reads) and copying its record, and the free list the others; the busy bits name the FIFOs
 * with slots. */
static void mq_check(const struct l2 *l2)
{
	uint32_t f, k, queued = 0, free_slots = 0;

	if (l2->mq_fifo == NULL) {
		SIM_ASSERT(l2->mq_n == 0);
		return;
	}
	for (f = 0; f <= l2->nch; f++) {
		const struct mq_fifo *q = &l2->mq_fifo[f];
		uint32_t last = MQ_NONE;

		SIM_ASSERT(((l2->mq_busy[f / 64] >> (f % 64)) & 1) == (q->first != MQ_NONE));
		/* a controller keeps the port in line only for an access still queued (and the
		 * twin's FIFO has no controller) */
		SIM_ASSERT(((l2->mq_inline[f / 64] >> (f % 64)) & 1) == 0 ||
			   (f < l2->nch && q->first != MQ_NONE));
		for (k = q->first; k != MQ_NONE; k = l2->mq[k].next) {
			const struct mq_slot *v = &l2->mq[k];

			SIM_ASSERT(k < l2->p.miss_queue && queued++ < l2->p.miss_queue);
			SIM_ASSERT(v->a->state == ACC_QUEUED && v->addr == v->a->addr &&
				   v->ch == v->a->ch && v->remote == v->a->remote &&
				   v->is_write == v->a->is_write && v->partial == v->a->partial);
			SIM_ASSERT(v->remote ? f == l2->nch : f == v->ch);
			last = k;
		}
		SIM_ASSERT(q->last == last);
	}
	for (k = l2->mq_free_slot; k != MQ_NONE; k = l2->mq[k].next)
		SIM_ASSERT(k < l2->p.miss_queue && free_slots++ < l2->p.miss_queue);
	SIM_ASSERT(queued == l2->mq_n && queued + free_slots == l2->p.miss_queue);
}

void l2_check(const struct l2 *l2)
{
	const struct l2_acc_chunk *ch;
	const struct l2_acc *a;
	uint64_t n[ACC_STATE_COUNT] = { 0 }, reads = 0, inq = 0;
	uint32_t i;

	cache_check(l2->c);
	mshr_check(l2->m);
	for (ch = l2->chunks; ch != NULL; ch = ch->next) {
		for (i = 0; i < L2_ACC_CHUNK; i++) {
			struct cache_line_info li;
			addr_t line;

			a = &ch->a[i];
			SIM_ASSERT(a->owner == l2 && a->state < ACC_STATE_COUNT);
			n[a->state]++;
			if (a->state == ACC_FREE)
				continue;
			SIM_ASSERT(a->state == ACC_QUEUED || !a->is_write); /* sent writes are freed */
			if (a->is_write)
				continue;
			reads++;
			line = line_addr(l2, a->addr);
			SIM_ASSERT(cache_line(l2->c, line, &li));
			SIM_ASSERT((li.pending >> a->sector) & 1);
			SIM_ASSERT((mshr_pending(l2->m, line) >> a->sector) & 1);
		}
	}
	for (i = 0; i < ACC_STATE_COUNT; i++)
		SIM_ASSERT(n[i] == l2->acc_count[i]);
	SIM_ASSERT(n[ACC_FREE] + n[ACC_QUEUED] + n[ACC_AT_MC] == l2->acc_total);
	SIM_ASSERT(l2->mq_n <= l2->p.miss_queue && l2->mq_n == n[ACC_QUEUED]);
	mq_check(l2);
	/* reads sent and not yet filled: at a controller or on fill_in */
	SIM_ASSERT(link_occupancy(l2->fill_in) <= n[ACC_AT_MC]);
	if (l2->p.mshr.granularity == MSHR_GRAN_SECTOR)
		SIM_ASSERT(reads == mshr_used(l2->m));
	inq = level_replyq_check(&l2->rq) + level_replyq_check(&l2->aq);
	if (l2->far_in != NULL)
		inq += level_replyq_check(&l2->fq);
	SIM_ASSERT(l2->far_in != NULL || l2->fq.n == 0);
	SIM_ASSERT(l2->p.store_ack_cycles > 0 || l2->aq.n == 0);
	SIM_ASSERT(l2->inside == mshr_waiting(l2->m) + inq);
}

void l2_dump(const struct l2 *l2, FILE *out)
{
	const struct l2_acc *a;
	uint32_t i, f;

	fprintf(out, "%s: cycle %" PRIu64 ", inside %" PRIu64 ", miss queue %u/%u%s, reply "
		"queue %u/%u%s, records %" PRIu64 " (queued %" PRIu64 ", reads sent %" PRIu64
		", of them %u back on fill_in)\n", l2->prefix, clock_cycle(l2->clk), l2->inside,
		l2->mq_n, l2->p.miss_queue, l2->ch_waiting > 0 ? " (waiting for a controller)" : "",
		l2->rq.n, l2->rq.cap, l2->rq.blocked ? " (blocked)" : "", l2->acc_total,
		l2->acc_count[ACC_QUEUED], l2->acc_count[ACC_AT_MC], link_occupancy(l2->fill_in));
	level_head_dump(&l2->head, l2->in, "in", out);
	if (l2->far_in != NULL) {
		level_head_dump(&l2->fhead, l2->far_in, "far_in (the twin's reads)", out);
		fprintf(out, "  replies to the twin: %u/%u%s\n", l2->fq.n, l2->fq.cap,
			l2->fq.blocked ? " (blocked)" : "");
		link_dump(l2->far_fill_in, out);
	}
	/* each controller's oldest access and how many wait behind it, in controller order (the
	 * far reads' last), at most 16 controllers */
	for (f = 0, i = 0; l2->mq_fifo != NULL && f <= l2->nch && i < 16; f++) {
		uint32_t k, behind = 0;

		if (l2->mq_fifo[f].first == MQ_NONE)
			continue;
		for (k = l2->mq[l2->mq_fifo[f].first].next; k != MQ_NONE; k = l2->mq[k].next)
			behind++;
		a = l2->mq[l2->mq_fifo[f].first].a;
		fprintf(out, "  mq %s %u of %u: %s 0x%" PRIx64 " and %u more\n",
			f == l2->nch ? "far reads, the twin's controller" : "controller", a->ch,
			l2->nch, a->is_write ? "WR" : "RD", a->addr, behind);
		i++;
	}
	link_dump(l2->fill_in, out);
	mshr_dump(l2->m, out);
	cache_dump(l2->c, out);
}
