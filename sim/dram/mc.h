/*
 * mc.h - the memory controller of one DRAM channel: read and write queues, write drain, a
 * scheduling policy, page policy, refresh and ECC.
 *
 * The controller is a clock unit in the DRAM domain. It accepts 32 B accesses (one burst each;
 * callers split larger requests) up to mc.accept_per_cycle per cycle, queues them per bank,
 * issues at most one command per command bus per cycle (HBM: a row and a column command; GDDR6:
 * one), and reports each access done at the cycle its data transfer ends: to requesters on
 * links (a GPU's L2 slices: mc_port_send) on their ports' done links, to a driver in the DRAM
 * domain (gmsim dram, unit tests: mc_enqueue) through the callback given at creation. Between
 * commands it sleeps until the next cycle anything could happen.
 *
 * Refresh is never silent: per-bank (REFpb every tREFIpb, banks in turn) or all-bank (REFab
 * every tREFI per pseudo-channel), with up to mc.refresh_postpone refreshes owed while the bank
 * is busy; a bank whose refresh is forced takes no new ACT, is precharged and refreshed while
 * the other banks keep serving. "off" is allowed only by asking for it, and the report says so.
 *
 * ECC: "sideband" (HBM) costs nothing in time or capacity; "inline" (GDDR6 as NVIDIA runs it)
 * keeps 1/16 of each row for ECC (the address map sees 15/16 of the columns), reads the ECC burst
 * of the same row on an ECC-cache miss, updates it on writes (written back when evicted from the
 * ECC cache), and turns a partial write into a read-modify-write.
 */
#ifndef SIM_MC_H
#define SIM_MC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "addrmap.h"
#include "dram.h"
#include "stats.h"
#include "types.h"

struct clock;
struct clock_unit;
struct link;
struct stats_dist;

enum mc_page_policy { MC_PAGE_OPEN, MC_PAGE_CLOSED, MC_PAGE_ADAPTIVE };
enum mc_refresh_mode { MC_REFRESH_PER_BANK, MC_REFRESH_ALL_BANK, MC_REFRESH_OFF };
enum mc_ecc_mode { MC_ECC_OFF, MC_ECC_SIDEBAND, MC_ECC_INLINE };

/* mc */
struct mc_params {
	uint32_t scheduler;      /* index into mc_sched_names */
	uint32_t read_queue;     /* entries per channel */
	uint32_t write_queue;
	uint32_t write_high;     /* start draining writes at this many */
	uint32_t write_low;      /* stop draining at this many */
	uint32_t row_hit_cap;    /* hits in a row while an older request waits; 0 = no cap */
	uint32_t page_policy;    /* enum mc_page_policy */
	uint32_t accept_per_cycle;
	uint32_t refresh;        /* enum mc_refresh_mode */
	uint32_t refresh_postpone;
	uint32_t ecc;            /* enum mc_ecc_mode */
	uint32_t ecc_cache_entries;
};

extern const struct cfg_field mc_fields[];
extern const size_t mc_nfields;
#define MC_NFIELDS 12 /* entries of mc_fields[] (checked in the .c) */

/* Checks that span fields and the DRAM (watermarks within the queue, inline ECC on GDDR6 ...). */
int mc_params_check(const struct mc_params *p, const struct dram_spec *s, struct sim_err *err);
/* Data bursts per row the address map may use: 15/16 of the row under inline ECC. */
uint32_t mc_data_bursts_per_row(const struct mc_params *p, const struct dram_spec *s);
/* The address map's field sizes for channels channels of the DRAM s behind controllers of p
 * (the organisation, and the data bursts per row of mc_data_bursts_per_row). */
void mc_map_geom(const struct mc_params *p, const struct dram_spec *s, uint32_t channels,
		 struct addrmap_geom *g);

/* One 32 B access as the caller sees it. */
struct mc_access {
	addr_t addr;           /* mc_port_send: what the controller's map decodes */
	struct dram_addr da;   /* where addrmap put it; da.ch selects the controller (mc_enqueue:
				* the caller's decode; mc_port_send: the controller's) */
	bool is_write;
	bool partial;          /* a write of fewer than 32 bytes: read-modify-write under inline ECC */
	uint32_t port;         /* mc_port_send: the port it came through (set by the controller) */
	void *ctx;             /* the caller's, handed back on completion */
};

/* Called when an access's data transfer ends (reads: data returned; writes: data written). */
typedef void mc_done_fn(void *cb_ctx, const struct mc_access *a, cycle_t arrival, cycle_t done);

struct mc;

/* Creates the controller of channel ch, a unit of clock clk (the DRAM domain). spec and p must
 * outlive it. Registers statistics under prefix (e.g. "mc3"). Never NULL. */
struct mc *mc_create(const struct mc_params *p, const struct dram_spec *spec, uint32_t ch,
		     struct clock *clk, mc_done_fn *done, void *done_ctx, struct stats *st,
		     const char *prefix);
void mc_destroy(struct mc *m);

/*
 * Requesters on links: the L2 slices of a GPU, in their own clock domain. The integrator gives
 * the controller its input link (mc_set_input: a link on the controller's clock, latency 1,
 * room for read_queue + write_queue accesses) and one port per requester (mc_port_add: the
 * requester's clock unit, woken when the port is granted an entry, and the link its read
 * completions go back on). A requester sends with mc_port_send:
 *
 *   MC_SEND_OK     a queue entry is taken for the access (a credit: it is counted against
 *                  read_queue or write_queue from now on) and the access is on the input link;
 *                  the controller takes it at the next DRAM edge with the cycle it was sent as
 *                  its arrival. A read's completion pushes its ctx on the port's done link; a
 *                  write completes silently (mc_requests_pending tells when none is left).
 *   MC_SEND_WAIT   no entry for this port now: it waits in line (ports refused for lack of
 *                  entries are admitted in the order they were refused, so the requester that
 *                  sends first in a cycle cannot take every entry that frees: with 64 slices and
 *                  first-come order, slice 63's mean miss latency was 2.8 times slice 0's). When
 *                  an entry is granted to the port its sender is woken; its next send is
 *                  accepted. Sending again before that changes nothing.
 *   MC_SEND_RETRY  the entry is there but mc.accept_per_cycle is used up this DRAM cycle: send
 *                  again next cycle (a grant is kept).
 *
 * The controller decodes what its ports send with its map (mc_set_map): the whole address map
 * (the address must belong to this channel: addrmap_channel tells the requester which one), or,
 * for a memory partition, the map of one channel shared by part_ports requesters: port k sends
 * slice-local addresses, which the controller interleaves with the other ports' in chunks of
 * 2^part_shift bytes ((q >> shift) x part_ports + k chunks, plus the offset in the chunk), a
 * bijection from the requesters' addresses onto the channel's.
 */
enum mc_send { MC_SEND_OK, MC_SEND_WAIT, MC_SEND_RETRY };
void mc_set_input(struct mc *m, struct link *in);
/* Adds a port before any access is sent; returns its number (0, 1, ...). */
uint32_t mc_port_add(struct mc *m, struct clock_unit *sender, struct link *done);
/* map must outlive the controller; part_ports 0: the whole map. */
void mc_set_map(struct mc *m, struct addrmap *map, uint32_t part_shift, uint32_t part_ports);
enum mc_send mc_port_send(struct mc *m, uint32_t port, const struct mc_access *a);
/* Mirrors the port's place in line in the sender's bitmap: from now on bit (one bit) is set in
 * *word while the port waits in line for an entry of either kind (from the MC_SEND_WAIT that put
 * it there to the grant), and clear otherwise; the controller sets and clears it, the sender
 * only reads it. Until the grant, mc_port_send of an access of the kind waited for answers
 * MC_SEND_WAIT and changes nothing, so a sender that sends one kind at a time on a port (an L2
 * slice: its miss queue's head for that channel) and has a port on every channel skips the
 * ports in line by a look at its own words, without touching the controllers. Called before
 * the port waits; *word must stay valid while the controller runs (its grants write it). */
void mc_port_watch(struct mc *m, uint32_t port, uint64_t *word, uint64_t bit);
/* Where the controller puts addr sent through port (the whole map, or the partition's share of
 * port: see above); counts a wrapped address as addrmap_decode does. Each port keeps the last
 * interleave chunk it decoded (addrmap_decode_memo): a slice sends a line's sectors in a row. */
void mc_port_decode(struct mc *m, uint32_t port, addr_t addr, struct dram_addr *da);
/*
 * What every controller of a machine shares, owned by the integrator: the distribution of read
 * latencies (arrival to the end of the data, ns; NULL: none) over all channels, and the injected
 * fault of sim.fault_lose_dram_read (lose_read: the n-th read completed on any channel never
 * goes back; 0: none).
 */
struct mc_shared {
	struct stats_dist *read_latency_ns;
	uint64_t lose_read;
	uint64_t reads_done;
};
void mc_set_shared(struct mc *m, struct mc_shared *shared);

/*
 * Idle refresh. With lazy refresh on, a controller with nothing queued, in flight or on its
 * input does not wake for the refreshes that fall due: it keeps the cycle of its next pass and
 * makes the passes it skipped, at exactly those cycles, when it is next woken (an access
 * arrives) or when mc_settle asks, so every command, counter and the waterfall are the same as
 * a controller that woke for each. Whoever turns it on must call mc_settle with the last DRAM
 * cycle the run reached before reading the controller's statistics or state.
 */
void mc_set_lazy_refresh(struct mc *m, bool on);
/* Makes the passes an idle controller skipped up to DRAM cycle until (inclusive). */
void mc_settle(struct mc *m, cycle_t until);

/*
 * Look-ahead, on from creation where it applies (one command bus, no inline ECC): a pass that
 * issued a command sleeps past the next cycle when it can tell that nothing could issue then,
 * and a pass that accesses bring before that cycle times their banks alone; every command is
 * issued at the same cycle either way. Off, the controller passes the cycle after each command
 * and schedules in full at each arrival. For tests that compare the two; before the first
 * access only. Returns whether it is on (false where it does not apply).
 */
bool mc_set_lookahead(struct mc *m, bool on);

/* True if the queue of this kind has a free entry (the per-cycle budget aside). */
bool mc_has_room(const struct mc *m, bool is_write);
/* Counts the entries freed so far: while it has not changed, a queue without room still has
 * none (a producer refused for lack of entries need not ask again before). */
uint64_t mc_room_gen(const struct mc *m);
/* True if an access of this kind can be accepted this cycle (queue room and port budget). */
bool mc_can_accept(const struct mc *m, bool is_write);
/* Queues a copy of *a (SIM_ASSERT mc_can_accept) and wakes the controller. */
void mc_enqueue(struct mc *m, const struct mc_access *a);
/* mc_enqueue if there is room; else remembers that the producer waits (it is woken when an
 * entry frees) and returns false. */
bool mc_try_enqueue(struct mc *m, const struct mc_access *a);
/* The unit woken when a queue that refused an access has room again. */
void mc_set_producer(struct mc *m, struct clock_unit *producer);
/* The counters a report sums over the channels. */
struct mc_sum {
	uint64_t reads, writes;              /* requesters' accesses completed */
	uint64_t ecc_bursts;                 /* ECC reads and writes, read-modify-write reads */
	uint64_t row_hits, row_misses, row_conflicts;
	uint64_t refreshes, refresh_bank_cycles;
	uint64_t read_wait_cycles, read_service_cycles;
};
/* sum += m's counters. */
void mc_sum_add(const struct mc *m, struct mc_sum *sum);
/* Accesses on the input link, queued or in flight, ECC write-backs included (0: idle apart from
 * refresh). */
uint32_t mc_pending(const struct mc *m);
/* Requesters' accesses accepted and not yet completed (no ECC write-backs). */
uint32_t mc_requests_pending(const struct mc *m);
struct dram_chan *mc_dram(struct mc *m);

/* Where the data bus's time went, in data-bus cycles summed over pseudo-channels, since the
 * start. The fields add up to elapsed cycles x pseudo-channels (see mc_waterfall_close). */
struct mc_waterfall {
	uint64_t data;        /* bursts the requesters asked for */
	uint64_t ecc;         /* bursts moved for ECC and read-modify-write */
	uint64_t row;         /* waiting for ACT / PRE (row misses and conflicts) */
	uint64_t act_window;  /* ACT held back by tFAW, t32AW or tRRD */
	uint64_t turnaround;  /* read/write turnaround (tRTW, tWTR) */
	uint64_t refresh;     /* banks refreshing */
	uint64_t other;       /* command bus, tCCD, queue order */
	uint64_t idle;        /* nothing to do */
};
/* The waterfall up to cycle now (the tail since the last burst counted as idle or waiting). */
void mc_waterfall(const struct mc *m, cycle_t now, struct mc_waterfall *w);
/* sum += w, field by field (a waterfall over several channels). */
void mc_waterfall_add(struct mc_waterfall *sum, const struct mc_waterfall *w);
/* Prints w as GB/s lines from peak_gbps down to the achieved bandwidth, each line indented by
 * indent; the lines subtract to the achieved line (bus cycles scaled so all of them sum to the
 * peak). */
void mc_waterfall_print(FILE *out, const struct mc_waterfall *w, double peak_gbps,
			const char *indent);

void mc_dump(const struct mc *m, FILE *out);
void mc_check(const struct mc *m);

#endif /* SIM_MC_H */
