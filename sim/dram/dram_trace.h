/*
 * dram_trace.h - request streams for the standalone DRAM mode: trace files in the formats of
 * DRAMsim3, Ramulator and gmsim's own, and synthetic patterns.
 *
 * Formats (auto-detected from the first line that is not blank or a comment):
 *   dramsim3       `0x7f00 READ 120`       hex address, op, memory-clock cycle. Ops READ, WRITE
 *                                           (any case), P_MEM_RD, P_FETCH, P_MEM_WR, BOFF.
 *   ramulator_ldst `LD 0x7f00` / `ST 123`  Ramulator 2 LoadStoreTrace; hex (0x) or decimal
 *   ramulator_rw   `0x7f00 R` / `0x7f00 W` Ramulator 1 DRAM mode
 *   native         `120 R 0x7f00 [64]`     cycle, R|W, hex or decimal address, optional bytes
 * Comments start with '#' (native, and any format's blank/comment lines are skipped). Every
 * later line must be in the detected format; a line that is not is an error naming file:line
 * and what was expected. Unlike DRAMsim3, an unknown op is an error, not a read.
 * Records without a cycle (Ramulator formats) have has_cycle false: they are issued as fast as
 * the front end allows. Bytes default to the caller's default request size.
 *
 * Files are streamed (constant memory whatever their size). Patterns draw from GSL's mt19937
 * with the given seed, so the same seed gives the same stream.
 */
#ifndef SIM_DRAM_TRACE_H
#define SIM_DRAM_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "log.h"
#include "types.h"

enum dram_trace_format {
	DRAM_TRACE_DRAMSIM3,
	DRAM_TRACE_RAMULATOR_LDST,
	DRAM_TRACE_RAMULATOR_RW,
	DRAM_TRACE_NATIVE,
	DRAM_TRACE_PATTERN,
	DRAM_TRACE_FORMAT_COUNT
};

struct dram_trace_rec {
	addr_t addr;
	uint32_t bytes;
	bool is_write;
	bool has_cycle;
	uint64_t cycle; /* memory-clock cycle (dramsim3, native) */
};

enum dram_pattern_kind { DRAM_PATTERN_STREAM, DRAM_PATTERN_RANDOM, DRAM_PATTERN_STRIDED };

struct dram_pattern_params {
	enum dram_pattern_kind kind;
	uint64_t count;          /* records to produce */
	uint64_t footprint;      /* bytes: addresses stay in [0, footprint) */
	uint64_t stride;         /* bytes between records (stream: 0 = bytes; strided: >= 1) */
	uint32_t bytes;          /* request size */
	double write_fraction;   /* 0..1: share of writes, drawn per record */
	uint64_t seed;
};

struct dram_trace;

/* Opens a trace file. default_bytes is the size of records that carry none. Returns NULL with
 * err filled (file: what) if it cannot be opened, has no record at all ("no records": an empty
 * trace is an error), or its first record is not in a known format. */
struct dram_trace *dram_trace_open(const char *path, uint32_t default_bytes,
				   struct sim_err *err);
/* A synthetic stream. Returns NULL with err filled on bad parameters (zero footprint ...). */
struct dram_trace *dram_trace_pattern(const struct dram_pattern_params *p, struct sim_err *err);
/* Next record: 1 and *r filled; 0 at the end; -1 with err = file:line: what (the trace stays
 * usable for reporting but yields nothing more). */
int dram_trace_next(struct dram_trace *t, struct dram_trace_rec *r, struct sim_err *err);
enum dram_trace_format dram_trace_format(const struct dram_trace *t);
const char *dram_trace_format_name(enum dram_trace_format f);
/* Records returned so far. */
uint64_t dram_trace_records(const struct dram_trace *t);
/* Makes a record with a cycle past max (one the simulation's clock can never reach) an error of
 * dram_trace_next, naming file:line, instead of a record that would wait for ever. 0 = none. */
void dram_trace_set_max_cycle(struct dram_trace *t, uint64_t max);
void dram_trace_close(struct dram_trace *t);

/* Parses "stream", "random", "strided"; -1 if none. */
int dram_pattern_kind_parse(const char *s);

#endif /* SIM_DRAM_TRACE_H */
