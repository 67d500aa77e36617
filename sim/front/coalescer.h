/*
 * coalescer.h - the memory coalescer: one warp memory instruction (32 lane addresses, an active
 * mask and an access size) in, one request per touched cache line out.
 *
 * A pure function-style unit: no clock, no queue, no state but its parameters and statistics.
 * The LD/ST unit calls coalesce() once per warp memory instruction and turns each struct
 * coal_line into a struct mem_req (addr, sector_mask, byte_mask, bytes carry over unchanged);
 * how many lines it may issue per cycle is the LD/ST unit's business, not this one's.
 *
 * Output order: ascending line address. Real GPUs issue either in order of the first lane that
 * touches each line or in address order; we pick address order because (1) it is a function of
 * the set of addresses alone, so renumbering lanes or permuting a warp's addresses gives the
 * same request stream (deterministic and easy to test against a reference), (2) GPGPU-Sim keys
 * its per-instruction transactions by block address in an ordered std::map and so issues in
 * the same order, and (3) neighbouring requests of a strided access go out neighbouring, which
 * is what the L1 banks and DRAM row buffers see on hardware for the common unit-stride case.
 *
 * Geometry: line_bytes and sector_bytes are powers of two, 16 <= line_bytes <= 128 (the byte
 * mask of struct mem_req covers 128 B; 16 B is the widest lane access, so one lane touches at
 * most two lines), 1 <= sector_bytes <= line_bytes, at most 32 sectors per line. Defaults
 * 128 / 32 (every NVIDIA GPU since Volta: 128 B L1/L2 lines of four 32 B sectors).
 *
 * Accounting (definitions used by the statistics; all per instruction, summed over the run):
 *   bytes_requested   distinct bytes the active lanes touch (a byte read by several lanes, as
 *                     in a broadcast, counts once): the useful data of the instruction;
 *   sectors           32 B sectors touched, summed over lines: the ACTUAL transactions;
 *   bytes_moved       sectors x sector_bytes: what the memory system transfers;
 *   ideal_transactions ceil(bytes_requested / sector_bytes): the fewest sectors that could
 *                     carry the data (DESIGN section 4 and seed 003: ceil(total data /
 *                     transaction size));
 *   efficiency        ideal_transactions / sectors, in (0, 1]; 1.0 for 32 consecutive floats,
 *                     0.125 for 4 B lanes 1000 B apart (seed 003's 12.5 %);
 *   requests          lines touched (line requests to the L1);
 *   ideal_requests    ceil(bytes_requested / line_bytes);
 *   request_efficiency ideal_requests / requests; 1/32 for a 128 B stride (seed 000's "about
 *                     3 %", which counts whole 128 B transactions).
 * The actual transaction is the sector because since Volta the sector is what L1, L2 and DRAM
 * move (GPGPU-Sim coalesce_arch >= 40 uses 32 B segments; Nsight's "sectors per request").
 * Since each sector holds at most sector_bytes distinct bytes, ideal <= actual always.
 *
 * Not modelled: timing and issue bandwidth (the LD/ST unit), sub-warp splitting
 * (GPGPU-Sim's mem_warp_parts; 1 on every modern config), shared and local memory rules
 * (local > 4 B split into 4 B pieces), atomics' per-lane serialisation, the texture path, and
 * alignment faults: a misaligned lane access is split where it crosses a sector or line rather
 * than trapping as hardware would.
 *
 * Ownership: params and prefix are copied; struct coal_inst and the out array are the caller's.
 * Contract violations (bad geometry, a size outside 1..16, an access wrapping past 2^64, more
 * lines than max_out) are simulator bugs and fail SIM_ASSERT.
 */
#ifndef SIM_COALESCER_H
#define SIM_COALESCER_H

#include <stdbool.h>
#include <stdint.h>

#include "log.h"
#include "stats.h"
#include "types.h"

#define COAL_LANES 32
/* Each active lane touches at most two lines (size <= 16 <= line_bytes). */
#define COAL_MAX_LINES (2 * COAL_LANES)
/* The width of struct mem_req.byte_mask / coal_line.byte_mask. */
#define COAL_MAX_LINE_BYTES 128
#define COAL_MIN_LINE_BYTES 16
#define COAL_MAX_ACCESS_BYTES 16
#define COAL_MAX_SECTORS 32

struct coal_params {
	uint32_t line_bytes;   /* default 128 */
	uint32_t sector_bytes; /* default 32 */
};

/* One warp memory instruction. Addresses of inactive lanes are ignored. */
struct coal_inst {
	uint32_t active_mask;     /* bit i: lane i takes part */
	addr_t addr[COAL_LANES];  /* first byte each lane accesses (any alignment) */
	uint32_t size;            /* bytes per lane: 1, 2, 4, 8 or 16 (any of 1..16 is accepted) */
	bool is_store;
	/* The producer's word that every lane is active and lane i reads addr[0] + i x size (a
	 * unit-stride warp, as an affine index's row or a trace's base-stride line tells): then
	 * only addr[0] is read, and the coalescer does not check the other 31. false: addr[]. */
	bool dense;
};

/* One request: everything the instruction touches in one line. */
struct coal_line {
	addr_t addr;              /* line-aligned */
	uint64_t byte_mask[2];    /* bit b (of word b / 64): byte b of the line is touched */
	uint32_t sector_mask;     /* bit s: sector s holds a touched byte */
	uint32_t bytes;           /* distinct bytes touched = popcount(byte_mask) */
	uint32_t lanes;           /* bit i: lane i touches this line */
};

/* Plain counters; see "Accounting" above. */
struct coal_stats {
	uint64_t mem_insts;          /* warp memory instructions (an all-inactive one counts) */
	uint64_t store_insts;        /* of which stores */
	uint64_t requests;           /* lines */
	uint64_t sectors;            /* actual transactions */
	uint64_t ideal_transactions; /* sum of ceil(bytes_requested / sector_bytes) */
	uint64_t ideal_requests;     /* sum of ceil(bytes_requested / line_bytes) */
	uint64_t bytes_requested;    /* distinct bytes touched by active lanes */
	uint64_t bytes_moved;        /* sectors x sector_bytes */
};

struct coalescer;

/* 128 / 32. */
void coal_params_default(struct coal_params *p);
/* 0 if p is a legal geometry (see above), else -1 with err filled (err may be NULL). */
int coal_params_check(const struct coal_params *p, struct sim_err *err);

/* A coalescer with geometry p (copied; SIM_ASSERT coal_params_check(p) == 0). Never NULL. */
struct coalescer *coalescer_create(const struct coal_params *p);
void coalescer_destroy(struct coalescer *c);

/* Registers the statistics under prefix (copied): with prefix "coal" the DESIGN section 6 names
 * coal.mem_insts, coal.requests, coal.sectors, coal.ideal_transactions, coal.efficiency,
 * coal.bytes_requested, coal.bytes_moved, then coal.store_insts, coal.ideal_requests,
 * coal.request_efficiency. The formulas are NaN before the first touched sector. c must
 * outlive the registry's last dump and reset. */
void coalescer_register_stats(struct coalescer *c, struct stats *st, const char *prefix);

/* Coalesces one instruction: writes one entry per touched line into out[0..n) in ascending
 * address order and returns n (0 when no lane is active; at most COAL_MAX_LINES). max_out must
 * be at least n (SIM_ASSERT; COAL_MAX_LINES is always enough). Updates the statistics. */
uint32_t coalesce(struct coalescer *c, const struct coal_inst *in, struct coal_line *out,
		  uint32_t max_out);

const struct coal_stats *coalescer_stats(const struct coalescer *c);
const struct coal_params *coalescer_params(const struct coalescer *c);
/* ideal_transactions / sectors and ideal_requests / requests; NaN when the divisor is 0. */
double coal_stats_efficiency(const struct coal_stats *s);
double coal_stats_request_efficiency(const struct coal_stats *s);

#endif /* SIM_COALESCER_H */
