/*
 * coalescer.c - the memory coalescer (see coalescer.h for the contract and the accounting).
 *
 * Models how the LD/ST unit of an SM turns one warp memory instruction into cache-line
 * requests: every active lane's bytes [addr, addr + size) are cut at line boundaries; each
 * piece lands in the entry of its line, setting the lane bit, the bytes in the byte mask and
 * the sectors those bytes fall in. A lane access that crosses a line boundary thus appears in
 * two entries, and one that crosses a sector boundary sets both sectors.
 *
 * Data structure: the entries under construction live in a fixed array of COAL_MAX_LINES on
 * the stack, kept sorted by line address; a piece is filed by a linear search from the entry
 * the previous piece hit (consecutive lanes almost always hit the same or the next line, so the
 * common case is O(1); the worst, 64 distinct lines, is 64 x 64 comparisons). Nothing is
 * allocated per instruction.
 *
 * Invariants (checked on every instruction's result by coal_line_check in the --enable-debug
 * build, which every test also runs in):
 *   entries strictly ascending by addr, each line-aligned; lanes != 0 and a subset of the
 *   active mask; byte_mask has no bit at or above line_bytes; bytes == popcount(byte_mask);
 *   sector_mask == exactly the sectors holding a byte of byte_mask.
 *
 * Not modelled: see coalescer.h (timing, sub-warps, shared/local/atomic rules, faults).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "coalescer.h"
#include "log.h"

struct coalescer {
	struct coal_params p;
	uint32_t line_shift;      /* log2(line_bytes) */
	uint32_t sector_shift;    /* log2(sector_bytes) */
	uint32_t nsectors;        /* line_bytes / sector_bytes */
	struct coal_stats st;
};

static bool is_pow2(uint32_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

static uint32_t log2_u32(uint32_t v)
{
	uint32_t n = 0;

	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

static uint32_t mask_popcount(const uint64_t m[2])
{
	return (uint32_t)(bits_pop64(m[0]) + bits_pop64(m[1]));
}

/* Sets bytes [off, off + len) of a 128-bit byte mask (off + len <= 128). */
static void mask_set(uint64_t m[2], uint32_t off, uint32_t len)
{
	while (len > 0) {
		uint32_t w = off / 64, b = off % 64;
		uint32_t n = len < 64 - b ? len : 64 - b;

		m[w] |= (n == 64 ? ~0ull : ((1ull << n) - 1) << b);
		off += n;
		len -= n;
	}
}


/* ---------------------------------------------------------------------------------------------
 * Parameters
 */

void coal_params_default(struct coal_params *p)
{
	p->line_bytes = 128;
	p->sector_bytes = 32;
}

int coal_params_check(const struct coal_params *p, struct sim_err *err)
{
	struct sim_err dummy;

	if (err == NULL)
		err = &dummy;
	if (!is_pow2(p->line_bytes) || p->line_bytes < COAL_MIN_LINE_BYTES ||
	    p->line_bytes > COAL_MAX_LINE_BYTES)
		return sim_err_set(err, NULL, 0,
				   "coalescer: line_bytes must be a power of two in [%u, %u], got %u",
				   COAL_MIN_LINE_BYTES, COAL_MAX_LINE_BYTES, p->line_bytes);
	if (!is_pow2(p->sector_bytes) || p->sector_bytes > p->line_bytes)
		return sim_err_set(err, NULL, 0,
				   "coalescer: sector_bytes must be a power of two <= line_bytes (%u), got %u",
				   p->line_bytes, p->sector_bytes);
	if (p->line_bytes / p->sector_bytes > COAL_MAX_SECTORS)
		return sim_err_set(err, NULL, 0,
				   "coalescer: at most %u sectors per line, got %u / %u",
				   COAL_MAX_SECTORS, p->line_bytes, p->sector_bytes);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Life cycle and statistics
 */

struct coalescer *coalescer_create(const struct coal_params *p)
{
	struct coalescer *c;
	struct sim_err err;

	if (coal_params_check(p, &err) != 0) {
		sim_warn("coalescer_create: %s", err.msg);
		sim_assert_fail("coal_params_check(p) == 0", __FILE__, __LINE__);
	}
	c = xcalloc(1, sizeof *c);
	c->p = *p;
	c->line_shift = log2_u32(p->line_bytes);
	c->sector_shift = log2_u32(p->sector_bytes);
	c->nsectors = p->line_bytes / p->sector_bytes;
	return c;
}

void coalescer_destroy(struct coalescer *c)
{
	free(c);
}

const struct coal_stats *coalescer_stats(const struct coalescer *c)
{
	return &c->st;
}

const struct coal_params *coalescer_params(const struct coalescer *c)
{
	return &c->p;
}

double coal_stats_efficiency(const struct coal_stats *s)
{
	return s->sectors == 0 ? NAN : (double)s->ideal_transactions / (double)s->sectors;
}

double coal_stats_request_efficiency(const struct coal_stats *s)
{
	return s->requests == 0 ? NAN : (double)s->ideal_requests / (double)s->requests;
}

static double efficiency_fn(const void *ctx)
{
	return coal_stats_efficiency(ctx);
}

static double request_efficiency_fn(const void *ctx)
{
	return coal_stats_request_efficiency(ctx);
}

void coalescer_register_stats(struct coalescer *c, struct stats *st, const char *prefix)
{
	/* DESIGN section 6 order first: efficiency sits between ideal_transactions and
	 * bytes_requested, so the counters are registered in two runs around it. */
	static const struct stats_counter_def head[] = {
#define C(f, d) STATS_COUNTER_DEF(struct coal_stats, f, d)
		C(mem_insts, "warp memory instructions coalesced"),
		C(requests, "line requests (distinct lines touched per instruction)"),
		C(sectors, "sectors touched per instruction: the actual transactions"),
		C(ideal_transactions, "sum of ceil(bytes_requested / sector_bytes) per instruction"),
	};
	static const struct stats_counter_def tail[] = {
		C(bytes_requested, "distinct bytes touched by active lanes"),
		C(bytes_moved, "sectors x sector_bytes"),
		C(store_insts, "of mem_insts, stores"),
		C(ideal_requests, "sum of ceil(bytes_requested / line_bytes) per instruction"),
#undef C
	};
	char name[256];

	stats_counters(st, prefix, &c->st, head, sizeof head / sizeof head[0]);
	snprintf(name, sizeof name, "%s.efficiency", prefix);
	stats_formula(st, name, "ideal_transactions / sectors (1.0 = perfectly coalesced)",
		      efficiency_fn, &c->st);
	stats_counters(st, prefix, &c->st, tail, sizeof tail / sizeof tail[0]);
	snprintf(name, sizeof name, "%s.request_efficiency", prefix);
	stats_formula(st, name, "ideal_requests / requests (whole-line transactions)",
		      request_efficiency_fn, &c->st);
}

/* ---------------------------------------------------------------------------------------------
 * Coalescing
 */

/* The sectors holding bytes [off, off + len) of a line (len >= 1): first..last, at most 32. */
static uint32_t sector_span(const struct coalescer *c, uint32_t off, uint32_t len)
{
	uint32_t first = off >> c->sector_shift, last = (off + len - 1) >> c->sector_shift;

	return (uint32_t)((((uint64_t)1 << (last - first + 1)) - 1) << first);
}

/* Files bytes [off, off + len) of the line at line_addr, touched by lane, into the sorted
 * entries e[0..*n). hint: index where the search starts (the previous piece's entry). Returns
 * the index of the entry. */
static uint32_t file_piece(const struct coalescer *c, struct coal_line *e, uint32_t *n,
			   uint32_t hint, addr_t line_addr, uint32_t off, uint32_t len,
			   uint32_t lanes)
{
	uint32_t i = hint < *n ? hint : (*n > 0 ? *n - 1 : 0);

	/* Walk from the hint to the first entry with addr >= line_addr. */
	while (i > 0 && e[i - 1].addr >= line_addr)
		i--;
	while (i < *n && e[i].addr < line_addr)
		i++;
	if (i == *n || e[i].addr != line_addr) {
		SIM_ASSERT(*n < COAL_MAX_LINES);
		memmove(&e[i + 1], &e[i], (*n - i) * sizeof *e);
		memset(&e[i], 0, sizeof *e);
		e[i].addr = line_addr;
		(*n)++;
	}
	e[i].sector_mask |= sector_span(c, off, len);
	mask_set(e[i].byte_mask, off, len);
	e[i].lanes |= lanes;
	return i;
}

/* The invariants of one instruction's result (see the top of the file). */
#ifdef SIM_DEBUG
/* True if any of bytes [off, off + len) is set. */
static bool mask_any(const uint64_t m[2], uint32_t off, uint32_t len)
{
	while (len > 0) {
		uint32_t w = off / 64, b = off % 64;
		uint32_t n = len < 64 - b ? len : 64 - b;

		if (m[w] & (n == 64 ? ~0ull : ((1ull << n) - 1) << b))
			return true;
		off += n;
		len -= n;
	}
	return false;
}

static void coal_line_check(const struct coalescer *c, const struct coal_inst *in,
			    const struct coal_line *e, uint32_t n)
{
	uint32_t i, s;

	for (i = 0; i < n; i++) {
		uint32_t sm = 0;

		SIM_ASSERT((e[i].addr & (c->p.line_bytes - 1)) == 0);
		SIM_ASSERT(i == 0 || e[i - 1].addr < e[i].addr);
		SIM_ASSERT(e[i].lanes != 0 && (e[i].lanes & ~in->active_mask) == 0);
		SIM_ASSERT(c->p.line_bytes == 128 ||
			   !mask_any(e[i].byte_mask, c->p.line_bytes, 128 - c->p.line_bytes));
		SIM_ASSERT(e[i].bytes == mask_popcount(e[i].byte_mask));
		for (s = 0; s < c->nsectors; s++)
			if (mask_any(e[i].byte_mask, s * c->p.sector_bytes, c->p.sector_bytes))
				sm |= 1u << s;
		SIM_ASSERT(e[i].sector_mask == sm);
	}
}
#endif

/* Files every active lane's bytes into e (sorted, as file_piece keeps it); returns the
 * entries. Lanes are filed in runs: an active lane whose bytes start where the run's end, in
 * the run's line, joins it (a unit-stride warp files 4 runs, not 32 pieces); the union of
 * bytes, sectors and lanes is the same as filing each lane's bytes on its own. */
static uint32_t file_lanes(const struct coalescer *c, const struct coal_inst *in,
			   struct coal_line *e)
{
	const addr_t line_off_mask = (addr_t)c->p.line_bytes - 1;
	uint32_t n = 0, hint = 0, lane, run_lanes = 0;
	addr_t run_first = 0, run_last = 0;

	for (lane = 0; lane < COAL_LANES; lane++) {
		addr_t a, last;

		if (!(in->active_mask & (1u << lane)))
			continue;
		a = in->addr[lane];
		last = a + in->size - 1;
		SIM_ASSERT(last >= a); /* no wrap past 2^64 */
		if (run_lanes != 0 && a == run_last + 1 &&
		    (last & ~line_off_mask) == (run_first & ~line_off_mask)) {
			run_last = last;
			run_lanes |= 1u << lane;
			continue;
		}
		if (run_lanes != 0) {
			addr_t line = run_first & ~line_off_mask;

			hint = file_piece(c, e, &n, hint, line, (uint32_t)(run_first - line),
					  (uint32_t)(run_last - run_first + 1), run_lanes);
			run_lanes = 0;
		}
		/* At most two pieces: size <= 16 <= line_bytes. The last one opens a run. */
		for (;;) {
			addr_t line = a & ~line_off_mask;
			addr_t piece_last = last < (line | line_off_mask) ? last : (line | line_off_mask);

			if (piece_last == last) {
				run_first = a;
				run_last = last;
				run_lanes = 1u << lane;
				break;
			}
			hint = file_piece(c, e, &n, hint, line, (uint32_t)(a - line),
					  (uint32_t)(piece_last - a + 1), 1u << lane);
			a = piece_last + 1;
		}
	}
	if (run_lanes != 0) {
		addr_t line = run_first & ~line_off_mask;

		hint = file_piece(c, e, &n, hint, line, (uint32_t)(run_first - line),
				  (uint32_t)(run_last - run_first + 1), run_lanes);
	}
	return n;
}

/* The same entries as file_lanes for a full warp whose lanes' bytes follow one another (lane k
 * at addr[0] + k size: a unit-stride load or store of a copy), line by line from the range
 * they cover, without a look at each lane beyond the check. Returns false, having filed
 * nothing, for any other warp (or a range that reaches the last line below 2^64). */
static bool file_row(const struct coalescer *c, const struct coal_inst *in, struct coal_line *e,
		     uint32_t *n)
{
	const addr_t a = in->addr[0], size = in->size, line_bytes = c->p.line_bytes;
	const addr_t end = a + COAL_LANES * size; /* one past the last byte */
	addr_t line, diff = 0;
	uint32_t lane, k = 0;

	if (in->active_mask != UINT32_MAX || end < a || end > (addr_t)0 - line_bytes)
		return false;
	/* a dense instruction's lanes are these by its producer's word */
	if (!in->dense)
		for (lane = 1; lane < COAL_LANES; lane++)
			diff |= in->addr[lane] - (a + lane * size);
	if (diff != 0)
		return false;
	for (line = a & ~(line_bytes - 1); line < end; line += line_bytes, k++) {
		addr_t lo = line > a ? line : a, hi = end < line + line_bytes ? end : line + line_bytes;
		uint32_t off = (uint32_t)(lo - line), len = (uint32_t)(hi - lo);
		uint32_t lane_lo = (uint32_t)((lo - a) / size), lane_hi = (uint32_t)((hi - 1 - a) / size);

		SIM_ASSERT(k < COAL_MAX_LINES);
		memset(&e[k], 0, sizeof e[k]);
		e[k].addr = line;
		e[k].sector_mask = sector_span(c, off, len);
		mask_set(e[k].byte_mask, off, len);
		e[k].lanes = (uint32_t)(((UINT64_C(2) << lane_hi) - 1) & ~((UINT64_C(1) << lane_lo) - 1));
	}
	*n = k;
	return true;
}

/* in with every lane's address written: in itself, or a dense instruction's lanes from its
 * addr[0] in *full (struct coal_inst.dense). */
static const struct coal_inst *lanes_of(const struct coal_inst *in, struct coal_inst *full)
{
	uint32_t lane;

	if (!in->dense)
		return in;
	*full = *in;
	full->dense = false;
	for (lane = 1; lane < COAL_LANES; lane++)
		full->addr[lane] = in->addr[0] + lane * (addr_t)in->size;
	return full;
}

uint32_t coalesce(struct coalescer *c, const struct coal_inst *in, struct coal_line *out,
		  uint32_t max_out)
{
	struct coal_line e[COAL_MAX_LINES];
	struct coal_inst full;
	uint32_t n = 0, i;
	uint64_t bytes = 0, sectors = 0;
	bool row;

	SIM_ASSERT(in->size >= 1 && in->size <= COAL_MAX_ACCESS_BYTES);
	SIM_ASSERT(!in->dense || in->active_mask == UINT32_MAX);
#ifdef SIM_DEBUG
	/* the producers of the debug build write every lane of a dense instruction: its word */
	SIM_ASSERT(!in->dense || memcmp(lanes_of(in, &full)->addr, in->addr, sizeof in->addr) == 0);
#endif
	row = file_row(c, in, e, &n);
	if (!row) /* a dense warp's too, at the top of the address space */
		n = file_lanes(c, lanes_of(in, &full), e);
#ifdef SIM_DEBUG
	if (row) {
		/* the debug build files the lanes one by one too: the same entries */
		struct coal_line ref[COAL_MAX_LINES];

		SIM_ASSERT(file_lanes(c, lanes_of(in, &full), ref) == n &&
			   memcmp(ref, e, n * sizeof *e) == 0);
	}
#endif

	SIM_ASSERT(n <= max_out);
	for (i = 0; i < n; i++) {
		e[i].bytes = mask_popcount(e[i].byte_mask);
		bytes += e[i].bytes;
		sectors += (uint64_t)bits_pop32(e[i].sector_mask);
	}
#ifdef SIM_DEBUG
	coal_line_check(c, lanes_of(in, &full), e, n); /* the debug build's (tests run it) */
#endif
	if (n > 0)
		memcpy(out, e, n * sizeof *e);

	c->st.mem_insts++;
	if (in->is_store)
		c->st.store_insts++;
	c->st.requests += n;
	c->st.sectors += sectors;
	c->st.bytes_requested += bytes;
	c->st.bytes_moved += sectors * c->p.sector_bytes;
	c->st.ideal_transactions += (bytes + c->p.sector_bytes - 1) >> c->sector_shift;
	c->st.ideal_requests += (bytes + c->p.line_bytes - 1) >> c->line_shift;
	return n;
}
