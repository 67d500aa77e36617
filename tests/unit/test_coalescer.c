/*
 * test_coalescer.c - the memory coalescer (sim/front/coalescer.c).
 *
 * Hand-computed patterns from the seeds and DESIGN (the arithmetic is in the comments):
 * consecutive floats, stride 2 and 32 floats, lanes 1000 B apart, the 120..248 B straddle, AoS
 * .x with a 12 B stride, float4, bytes, inactive lanes, broadcast, misaligned accesses across a
 * sector and across a line, exact store byte masks, statistics over several instructions and
 * through the registry (DESIGN names); contract violations; then random instructions (default
 * and a 64 / 16 geometry) against a brute-force per-byte reference.
 *
 * Geometry unless stated: 128 B lines of four 32 B sectors.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "bits.h"
#include "coalescer.h"
#include "stats.h"

#define ALL 0xffffffffu

/* A fresh default coalescer. */
static struct coalescer *coal_new(void)
{
	struct coal_params p;

	coal_params_default(&p);
	return coalescer_create(&p);
}

/* Lane i at base + i * stride, for the lanes in mask. */
static struct coal_inst strided(addr_t base, uint64_t stride, uint32_t size, uint32_t mask)
{
	struct coal_inst in;
	uint32_t i;

	memset(&in, 0, sizeof in);
	in.active_mask = mask;
	in.size = size;
	for (i = 0; i < COAL_LANES; i++)
		in.addr[i] = base + i * stride;
	return in;
}

/* Expected per-instruction totals. */
struct expect {
	uint32_t lines;
	uint64_t sectors;
	uint64_t bytes;
	uint64_t ideal;       /* ceil(bytes / 32) */
	double efficiency;    /* ideal / sectors */
};

/* Coalesces in on a fresh coalescer into out (COAL_MAX_LINES) and checks the totals and the
 * statistics against x. Returns the number of lines. */
static uint32_t run_expect(const struct coal_inst *in, struct coal_line *out, struct expect x)
{
	struct coalescer *c = coal_new();
	const struct coal_stats *s;
	uint64_t sectors = 0, bytes = 0;
	uint32_t n, i;

	n = coalesce(c, in, out, COAL_MAX_LINES);
	assert_int_equal(n, x.lines);
	for (i = 0; i < n; i++) {
		sectors += (uint64_t)__builtin_popcount(out[i].sector_mask);
		bytes += out[i].bytes;
	}
	s = coalescer_stats(c);
	assert_int_equal(sectors, x.sectors);
	assert_int_equal(bytes, x.bytes);
	assert_int_equal(s->mem_insts, 1);
	assert_int_equal(s->requests, x.lines);
	assert_int_equal(s->sectors, x.sectors);
	assert_int_equal(s->bytes_requested, x.bytes);
	assert_int_equal(s->bytes_moved, x.sectors * 32);
	assert_int_equal(s->ideal_transactions, x.ideal);
	assert_int_equal(s->ideal_requests, (x.bytes + 127) / 128);
	assert_true(fabs(coal_stats_efficiency(s) - x.efficiency) < 1e-12);
	coalescer_destroy(c);
	return n;
}

/* ---------------------------------------------------------------------------------------------
 * Hand-computed patterns
 */

static void test_consecutive_floats(void **state)
{
	struct coal_inst in = strided(0x10000, 4, 4, ALL);
	struct coal_line out[COAL_MAX_LINES];

	(void)state;
	/* 32 x 4 B from 0x10000: bytes 0..127 of one line, sectors 0-3; 128 B, ideal
	 * ceil(128 / 32) = 4, actual 4 -> 1.0. */
	run_expect(&in, out, (struct expect){ 1, 4, 128, 4, 1.0 });
	assert_int_equal(out[0].addr, 0x10000);
	assert_int_equal(out[0].sector_mask, 0xf);
	assert_int_equal(out[0].byte_mask[0], ~0ull);
	assert_int_equal(out[0].byte_mask[1], ~0ull);
	assert_int_equal(out[0].bytes, 128);
	assert_int_equal(out[0].lanes, ALL);
}

static void test_stride2_floats(void **state)
{
	struct coal_inst in = strided(0x10000, 8, 4, ALL);
	struct coal_line out[COAL_MAX_LINES];

	(void)state;
	/* Lane i at 8i: 0..251 spans 2 lines, 16 lanes each; every 32 B sector holds 4 lanes ->
	 * 8 sectors. 128 B requested, ideal 4, efficiency 4 / 8 = 0.5. Byte mask per line:
	 * 4 bytes on, 4 off -> 0x0f0f0f0f0f0f0f0f in both words, 64 bytes per line. */
	run_expect(&in, out, (struct expect){ 2, 8, 128, 4, 0.5 });
	assert_int_equal(out[0].addr, 0x10000);
	assert_int_equal(out[1].addr, 0x10080);
	assert_int_equal(out[0].lanes, 0x0000ffffu);
	assert_int_equal(out[1].lanes, 0xffff0000u);
	assert_int_equal(out[0].byte_mask[0], 0x0f0f0f0f0f0f0f0full);
	assert_int_equal(out[1].byte_mask[1], 0x0f0f0f0f0f0f0f0full);
	assert_int_equal(out[0].bytes, 64);
	assert_int_equal(out[1].sector_mask, 0xf);
}

static void test_stride32_floats(void **state)
{
	struct coal_inst in = strided(0x20000, 128, 4, ALL);
	struct coal_line out[COAL_MAX_LINES];
	struct coalescer *c = coal_new();
	uint32_t i;

	(void)state;
	/* Stride 128 B: every lane its own line, sector 0 only -> 32 lines, 32 sectors.
	 * 128 B requested, 32 x 32 = 1024 B moved; ideal 4, efficiency 4 / 32 = 0.125.
	 * Whole-line view (seed 000's "about 3 %"): 128 / (32 x 128) = 3.1 %: ideal_requests
	 * ceil(128 / 128) = 1 of 32 requests -> 1/32. */
	run_expect(&in, out, (struct expect){ 32, 32, 128, 4, 0.125 });
	for (i = 0; i < 32; i++) {
		assert_int_equal(out[i].addr, 0x20000 + 128 * i);
		assert_int_equal(out[i].sector_mask, 0x1);
		assert_int_equal(out[i].byte_mask[0], 0xfull);
		assert_int_equal(out[i].lanes, 1u << i);
	}
	coalesce(c, &in, out, COAL_MAX_LINES);
	assert_int_equal(coalescer_stats(c)->bytes_moved, 1024);
	assert_true(fabs(coal_stats_request_efficiency(coalescer_stats(c)) - 1.0 / 32) < 1e-12);
	coalescer_destroy(c);
}

static void test_lanes_1000_apart(void **state)
{
	struct coal_inst in = strided(0, 1000, 4, ALL);
	struct coal_line out[COAL_MAX_LINES];
	uint32_t i;

	(void)state;
	/* 1000 > 128: 32 distinct lines, one sector each. Lane i at 1000i: line 1000i & ~127,
	 * offset 1000i mod 128 (multiple of 8, so 4 B never straddle a sector). Seed 003:
	 * efficiency 4 / 32 = 12.5 %. */
	run_expect(&in, out, (struct expect){ 32, 32, 128, 4, 0.125 });
	for (i = 0; i < 32; i++) {
		addr_t a = 1000ull * i;

		assert_int_equal(out[i].addr, a & ~127ull);
		assert_int_equal(out[i].sector_mask, 1u << ((a & 127) / 32));
		assert_int_equal(out[i].bytes, 4);
	}
}

static void test_straddle_120_248(void **state)
{
	struct coal_inst in = strided(120, 4, 4, ALL);
	struct coal_line out[COAL_MAX_LINES];

	(void)state;
	/* Seed 000: bytes 120..247 cross the 128 B boundary -> 2 lines. Line 0: bytes 120..127
	 * (lanes 0-1, sector 3); line 128: bytes 128..247 = offsets 0..119 (lanes 2-31, sectors
	 * 0-3). 5 sectors, 128 B, ideal 4 -> 0.8; 2 requests for an ideal 1. */
	run_expect(&in, out, (struct expect){ 2, 5, 128, 4, 0.8 });
	assert_int_equal(out[0].addr, 0);
	assert_int_equal(out[0].sector_mask, 0x8);
	assert_int_equal(out[0].lanes, 0x3);
	assert_int_equal(out[0].bytes, 8);
	assert_int_equal(out[0].byte_mask[0], 0);
	assert_int_equal(out[0].byte_mask[1], 0xff00000000000000ull);
	assert_int_equal(out[1].addr, 128);
	assert_int_equal(out[1].sector_mask, 0xf);
	assert_int_equal(out[1].lanes, 0xfffffffcu);
	assert_int_equal(out[1].bytes, 120);
	assert_int_equal(out[1].byte_mask[0], ~0ull);
	assert_int_equal(out[1].byte_mask[1], 0x00ffffffffffffffull);
}

static void test_aos_stride12(void **state)
{
	struct coal_inst in = strided(0, 12, 4, ALL);
	struct coal_line out[COAL_MAX_LINES];

	(void)state;
	/* struct { float x, y, z; }, reading .x: lane i at 12i, bytes 12i..12i+3, last 375.
	 * Offsets are multiples of 4, so no lane crosses a sector. Lines 0, 128, 256:
	 *   line 0:   12i < 128 -> i = 0..10  (11 lanes, 44 B)
	 *   line 128: i = 11..21 (11 lanes, 44 B; lane 21 at 252..255)
	 *   line 256: i = 22..31 (10 lanes, 40 B; lane 31 at 372..375 -> sector 3 of that line)
	 * Stride 12 < 32, so each of sectors 0..11 (bytes 0..383) has a lane: 12 sectors.
	 * 128 B, ideal 4, efficiency 4 / 12 = 1/3; 3 requests for an ideal 1. */
	run_expect(&in, out, (struct expect){ 3, 12, 128, 4, 4.0 / 12.0 });
	assert_int_equal(out[0].lanes, 0x000007ffu);
	assert_int_equal(out[1].lanes, 0x003ff800u);
	assert_int_equal(out[2].lanes, 0xffc00000u);
	assert_int_equal(out[0].bytes, 44);
	assert_int_equal(out[1].bytes, 44);
	assert_int_equal(out[2].bytes, 40);
	assert_int_equal(out[0].sector_mask, 0xf);
	assert_int_equal(out[1].sector_mask, 0xf);
	assert_int_equal(out[2].sector_mask, 0xf);
	/* Line 0 bytes: lane 0 -> 0..3, lane 1 -> 12..15, lane 2 -> 24..27, ... */
	assert_int_equal(out[0].byte_mask[0] & 0xfffffffull, 0x0f00f00full);
}

static void test_float4(void **state)
{
	struct coal_inst in = strided(0x4000, 16, 16, ALL);
	struct coal_line out[COAL_MAX_LINES];
	uint32_t i;

	(void)state;
	/* 32 x 16 B = 512 B = 4 full lines, 8 lanes each, 16 sectors; ideal 512 / 32 = 16 -> 1.0. */
	run_expect(&in, out, (struct expect){ 4, 16, 512, 16, 1.0 });
	for (i = 0; i < 4; i++) {
		assert_int_equal(out[i].addr, 0x4000 + 128 * i);
		assert_int_equal(out[i].lanes, 0xffu << (8 * i));
		assert_int_equal(out[i].bytes, 128);
	}
}

static void test_unit_stride_straddle(void **state)
{
	struct coal_inst in = strided(100, 12, 12, ALL);
	struct coal_line out[COAL_MAX_LINES];

	(void)state;
	/* 32 x 12 B back to back from 100 (coalescer.c's file_row, a warp in one range): bytes
	 * 100..483 over lines 0, 128, 256, 384. Lane k holds 100 + 12k .. 111 + 12k:
	 *   line 0:   bytes 100..127 (sector 3), lanes 0..2 (lane 2 at 124..135 crosses);
	 *   line 128: all 128 bytes, lanes 2..12 (lane 12 ends at 255);
	 *   line 256: all 128 bytes, lanes 13..23 (lane 23 at 376..387 crosses);
	 *   line 384: bytes 384..483 (sectors 0..3), lanes 23..31.
	 * 13 sectors, 384 B, ideal 12 -> 12 / 13. */
	run_expect(&in, out, (struct expect){ 4, 13, 384, 12, 12.0 / 13.0 });
	assert_int_equal(out[0].addr, 0);
	assert_int_equal(out[0].lanes, 0x7u);
	assert_int_equal(out[0].sector_mask, 0x8);
	assert_int_equal(out[0].byte_mask[0], 0);
	assert_int_equal(out[0].byte_mask[1], ~0ull << 36);
	assert_int_equal(out[1].lanes, 0x1ffcu);
	assert_int_equal(out[1].bytes, 128);
	assert_int_equal(out[2].lanes, 0xffe000u);
	assert_int_equal(out[2].sector_mask, 0xf);
	assert_int_equal(out[3].addr, 384);
	assert_int_equal(out[3].lanes, 0xff800000u);
	assert_int_equal(out[3].bytes, 100);
	assert_int_equal(out[3].byte_mask[1], (1ull << 36) - 1);
	assert_int_equal(out[3].sector_mask, 0xf);
}

static void test_bytes(void **state)
{
	struct coal_inst in = strided(0x100, 1, 1, ALL);
	struct coal_line out[COAL_MAX_LINES];

	(void)state;
	/* 32 x 1 B consecutive: bytes 0..31 of line 0x100, one sector; ideal 1 -> 1.0. */
	run_expect(&in, out, (struct expect){ 1, 1, 32, 1, 1.0 });
	assert_int_equal(out[0].byte_mask[0], 0xffffffffull);
	assert_int_equal(out[0].sector_mask, 0x1);

	/* 1 B every 4 B (a char field of an int-sized record): bytes 0, 4, ..., 124 -> one line,
	 * 4 sectors for 32 B: ideal 1, efficiency 1 / 4. */
	in = strided(0x100, 4, 1, ALL);
	run_expect(&in, out, (struct expect){ 1, 4, 32, 1, 0.25 });
	assert_int_equal(out[0].byte_mask[0], 0x1111111111111111ull);
	assert_int_equal(out[0].byte_mask[1], 0x1111111111111111ull);
}

static void test_inactive_lanes(void **state)
{
	struct coal_inst in = strided(0x1000, 4, 4, 0x0000ffffu);
	struct coal_line out[COAL_MAX_LINES];
	struct coalescer *c = coal_new();
	uint32_t i;

	(void)state;
	/* Poison the inactive lanes: they must not show up. */
	for (i = 16; i < 32; i++)
		in.addr[i] = 0xdead0000ull + 4096 * i;
	/* Lanes 0-15: bytes 0..63, sectors 0-1; 64 B, ideal 2 -> 1.0. */
	run_expect(&in, out, (struct expect){ 1, 2, 64, 2, 1.0 });
	assert_int_equal(out[0].lanes, 0x0000ffffu);
	assert_int_equal(out[0].sector_mask, 0x3);

	/* Odd lanes only: 16 x 4 B at 4, 12, 20, ...: one line, 4 sectors, 64 B -> 2 / 4. */
	in = strided(0x1000, 4, 4, 0xaaaaaaaau);
	run_expect(&in, out, (struct expect){ 1, 4, 64, 2, 0.5 });
	assert_int_equal(out[0].byte_mask[0], 0xf0f0f0f0f0f0f0f0ull);

	/* No lane active: nothing out, but the instruction counts; efficiency stays NaN. */
	in.active_mask = 0;
	assert_int_equal(coalesce(c, &in, out, 0), 0);
	assert_int_equal(coalescer_stats(c)->mem_insts, 1);
	assert_int_equal(coalescer_stats(c)->requests, 0);
	assert_true(isnan(coal_stats_efficiency(coalescer_stats(c))));
	coalescer_destroy(c);
}

static void test_broadcast(void **state)
{
	struct coal_inst in = strided(0x2004, 0, 4, ALL);
	struct coal_line out[COAL_MAX_LINES];

	(void)state;
	/* All lanes read 0x2004..0x2007: one line, sector 0, 4 distinct bytes (counted once),
	 * ideal ceil(4 / 32) = 1, actual 1 -> 1.0 (not 32 x 4 B = 128 B "requested"). */
	run_expect(&in, out, (struct expect){ 1, 1, 4, 1, 1.0 });
	assert_int_equal(out[0].addr, 0x2000);
	assert_int_equal(out[0].byte_mask[0], 0xf0ull);
	assert_int_equal(out[0].lanes, ALL);
}

static void test_misaligned(void **state)
{
	struct coal_inst in = strided(124, 0, 8, 0x1);
	struct coal_line out[COAL_MAX_LINES];

	(void)state;
	/* One lane, 8 B at 124: bytes 124..127 in line 0 (sector 3) and 128..131 in line 128
	 * (sector 0): 2 lines, 2 sectors, 8 B, ideal 1 -> 0.5. */
	run_expect(&in, out, (struct expect){ 2, 2, 8, 1, 0.5 });
	assert_int_equal(out[0].addr, 0);
	assert_int_equal(out[0].sector_mask, 0x8);
	assert_int_equal(out[0].byte_mask[0], 0);
	assert_int_equal(out[0].byte_mask[1], 0xf000000000000000ull);
	assert_int_equal(out[0].lanes, 0x1);
	assert_int_equal(out[1].addr, 128);
	assert_int_equal(out[1].sector_mask, 0x1);
	assert_int_equal(out[1].byte_mask[0], 0xfull);
	assert_int_equal(out[1].lanes, 0x1);

	/* 8 B at 28: bytes 28..35 cross the sector 0/1 boundary in one line: 1 line, 2 sectors. */
	in = strided(28, 0, 8, 0x1);
	run_expect(&in, out, (struct expect){ 1, 2, 8, 1, 0.5 });
	assert_int_equal(out[0].sector_mask, 0x3);
	assert_int_equal(out[0].byte_mask[0], 0xffull << 28);

	/* 16 B at 56: bytes 56..71 cross the 64-bit word of the byte mask (and sectors 1/2). */
	in = strided(56, 0, 16, 0x1);
	run_expect(&in, out, (struct expect){ 1, 2, 16, 1, 0.5 });
	assert_int_equal(out[0].byte_mask[0], 0xff00000000000000ull);
	assert_int_equal(out[0].byte_mask[1], 0xffull);
	assert_int_equal(out[0].sector_mask, 0x6);

	/* Every lane 16 B misaligned by 8 at a 256 B stride: each straddles a line -> 64 lines,
	 * the worst case COAL_MAX_LINES; 64 sectors, 512 B, ideal 16 -> 0.25. */
	in = strided(120, 256, 16, ALL);
	run_expect(&in, out, (struct expect){ 64, 64, 512, 16, 0.25 });
	assert_int_equal(out[63].addr, 120 + 31 * 256 + 8);
}

static void test_store_byte_masks(void **state)
{
	struct coal_inst in = strided(0x3000, 4, 2, ALL);
	struct coal_line out[COAL_MAX_LINES];
	struct coalescer *c = coal_new();

	(void)state;
	/* 16-bit stores to the low half of each 4 B word: bytes 4i, 4i+1 -> 0x3333... per word;
	 * one line, 4 sectors, 64 B, ideal 2 -> 0.5. */
	in.is_store = true;
	run_expect(&in, out, (struct expect){ 1, 4, 64, 2, 0.5 });
	assert_int_equal(out[0].byte_mask[0], 0x3333333333333333ull);
	assert_int_equal(out[0].byte_mask[1], 0x3333333333333333ull);

	/* Scattered single-lane stores: lane 0 byte 5, lane 1 bytes 100..103, lane 2 byte 127. */
	memset(&in, 0, sizeof in);
	in.is_store = true;
	in.size = 1;
	in.active_mask = 0x5;
	in.addr[0] = 0x3005;
	in.addr[2] = 0x307f;
	assert_int_equal(coalesce(c, &in, out, COAL_MAX_LINES), 1);
	assert_int_equal(out[0].byte_mask[0], 1ull << 5);
	assert_int_equal(out[0].byte_mask[1], 1ull << 63);
	assert_int_equal(out[0].sector_mask, 0x9);
	assert_int_equal(out[0].bytes, 2);
	in.size = 4;
	in.active_mask = 0x2;
	in.addr[1] = 0x3064;
	assert_int_equal(coalesce(c, &in, out, COAL_MAX_LINES), 1);
	assert_int_equal(out[0].byte_mask[0], 0);
	assert_int_equal(out[0].byte_mask[1], 0xfull << 36);
	assert_int_equal(out[0].sector_mask, 0x8);
	assert_int_equal(coalescer_stats(c)->store_insts, 2);
	coalescer_destroy(c);
}

static void test_order_independent_of_lanes(void **state)
{
	struct coal_inst in = strided(0, 0, 4, ALL);
	struct coal_line out[COAL_MAX_LINES];
	uint32_t i;

	(void)state;
	/* Lane i reads line (31 - i): output still ascends by address. */
	for (i = 0; i < 32; i++)
		in.addr[i] = 0x8000 + 128ull * (31 - i);
	run_expect(&in, out, (struct expect){ 32, 32, 128, 4, 0.125 });
	for (i = 0; i < 32; i++) {
		assert_int_equal(out[i].addr, 0x8000 + 128ull * i);
		assert_int_equal(out[i].lanes, 1u << (31 - i));
	}
}

/* A dense instruction (struct coal_inst.dense: every lane active, lane i at addr[0] + i x size,
 * the producer's word) is coalesced from addr[0] alone: the same lines and statistics as the
 * warp with every lane written, aligned or not, and where the row runs past the top of the
 * address space (the lane-by-lane filing then builds the lanes). The release build gets garbage
 * in lanes 1-31, which it must not read; the debug build checks the word and stops on a false
 * one. */
static void test_dense_first_lane(void **state)
{
	static const addr_t bases[] = { 0x10000, 0x10004, 120, 0x7ffff0, (addr_t)0 - 64 };
	static const uint32_t sizes[] = { 1, 4, 8, 16 };
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof bases / sizeof bases[0]; i++)
	for (j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
		struct coalescer *c1 = coal_new(), *c2 = coal_new();
		struct coal_inst full = strided(bases[i], sizes[j], sizes[j], ALL), dense = full;
		struct coal_line o1[COAL_MAX_LINES], o2[COAL_MAX_LINES];
		uint32_t n1, n2;

		dense.dense = true;
#ifndef SIM_DEBUG
		for (uint32_t lane = 1; lane < COAL_LANES; lane++)
			dense.addr[lane] = 0xdead0000 + lane * 4096;
#endif
		n1 = coalesce(c1, &full, o1, COAL_MAX_LINES);
		n2 = coalesce(c2, &dense, o2, COAL_MAX_LINES);
		assert_int_equal(n2, n1);
		assert_memory_equal(o2, o1, n1 * sizeof *o1);
		assert_memory_equal(coalescer_stats(c2), coalescer_stats(c1),
				    sizeof(struct coal_stats));
		coalescer_destroy(c1);
		coalescer_destroy(c2);
	}
#ifdef SIM_DEBUG
	{
		struct coalescer *c = coal_new();
		struct coal_inst in = strided(0x10000, 8, 4, ALL); /* not 4 B apart */
		struct coal_line out[COAL_MAX_LINES];

		in.dense = true;
		expect_assert_failure(coalesce(c, &in, out, COAL_MAX_LINES));
		coalescer_destroy(c);
	}
#endif
}

static void test_stats_accumulate(void **state)
{
	struct coalescer *c = coal_new();
	struct stats *st = stats_create();
	struct coal_line out[COAL_MAX_LINES];
	struct coal_inst in;
	double v;

	(void)state;
	coalescer_register_stats(c, st, "coal");
	assert_true(stats_get(st, "coal.efficiency", &v));
	assert_true(isnan(v));

	/* 1: consecutive floats      1 line,  4 sectors, 128 B, ideal 4, ideal req 1
	 * 2: stride 32 floats       32 lines, 32 sectors, 128 B, ideal 4, ideal req 1
	 * 3: stride 2 floats (store) 2 lines,  8 sectors, 128 B, ideal 4, ideal req 1
	 * total: 3 insts, 35 lines, 44 sectors, 384 B requested, 44 x 32 = 1408 B moved,
	 * ideal 12 -> efficiency 12 / 44; request efficiency 3 / 35. */
	in = strided(0, 4, 4, ALL);
	coalesce(c, &in, out, COAL_MAX_LINES);
	in = strided(0x10000, 128, 4, ALL);
	coalesce(c, &in, out, COAL_MAX_LINES);
	in = strided(0x20000, 8, 4, ALL);
	in.is_store = true;
	coalesce(c, &in, out, COAL_MAX_LINES);

#define GET(name, want)                                        \
	do {                                                   \
		assert_true(stats_get(st, name, &v));          \
		assert_true(fabs(v - (double)(want)) < 1e-12); \
	} while (0)
	GET("coal.mem_insts", 3);
	GET("coal.requests", 35);
	GET("coal.sectors", 44);
	GET("coal.ideal_transactions", 12);
	GET("coal.efficiency", 12.0 / 44.0);
	GET("coal.bytes_requested", 384);
	GET("coal.bytes_moved", 1408);
	GET("coal.store_insts", 1);
	GET("coal.ideal_requests", 3);
	GET("coal.request_efficiency", 3.0 / 35.0);
#undef GET
	assert_int_equal(stats_count(st), 10);

	/* Reset zeroes the counters the registry points at. */
	stats_reset(st);
	assert_int_equal(coalescer_stats(c)->mem_insts, 0);
	assert_int_equal(coalescer_stats(c)->sectors, 0);
	stats_destroy(st);
	coalescer_destroy(c);
}

static void test_params(void **state)
{
	struct coal_params p;
	struct sim_err err;

	(void)state;
	coal_params_default(&p);
	assert_int_equal(p.line_bytes, 128);
	assert_int_equal(p.sector_bytes, 32);
	assert_int_equal(coal_params_check(&p, &err), 0);
	p.line_bytes = 256; /* wider than the byte mask */
	assert_int_equal(coal_params_check(&p, &err), -1);
	p.line_bytes = 8;   /* a 16 B lane access could touch three lines */
	assert_int_equal(coal_params_check(&p, NULL), -1);
	p.line_bytes = 96;
	assert_int_equal(coal_params_check(&p, NULL), -1);
	p.line_bytes = 128;
	p.sector_bytes = 2; /* 64 sectors > 32 */
	assert_int_equal(coal_params_check(&p, NULL), -1);
	p.sector_bytes = 4;
	assert_int_equal(coal_params_check(&p, NULL), 0);
	p.sector_bytes = 256;
	assert_int_equal(coal_params_check(&p, NULL), -1);
	p.sector_bytes = 24;
	assert_int_equal(coal_params_check(&p, NULL), -1);
	expect_assert_failure(coalescer_create(&p));
}

static void test_contract(void **state)
{
	struct coalescer *c = coal_new();
	struct coal_line out[COAL_MAX_LINES];
	struct coal_inst in = strided(0, 128, 4, ALL);

	(void)state;
	/* 32 lines into room for 31. Nothing counted. */
	expect_assert_failure(coalesce(c, &in, out, 31));
	assert_int_equal(coalescer_stats(c)->mem_insts, 0);
	in.size = 0;
	expect_assert_failure(coalesce(c, &in, out, COAL_MAX_LINES));
	in.size = 17;
	expect_assert_failure(coalesce(c, &in, out, COAL_MAX_LINES));
	/* Wraps past 2^64. */
	in = strided(UINT64_MAX - 1, 0, 4, 0x1);
	expect_assert_failure(coalesce(c, &in, out, COAL_MAX_LINES));
	/* The last 4 bytes of the address space are fine. */
	in = strided(UINT64_MAX - 3, 0, 4, 0x1);
	assert_int_equal(coalesce(c, &in, out, COAL_MAX_LINES), 1);
	assert_int_equal(out[0].addr, UINT64_MAX - 127);
	assert_int_equal(out[0].byte_mask[1], 0xfull << 60);
	coalescer_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * Random instructions against a brute-force reference
 */

static uint64_t rng_next(uint64_t *s)
{
	/* splitmix64 */
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Builds the expected lines byte by byte: every touched byte b goes to line b / L, bit b % L;
 * then sorts by address and derives sectors and counts one bit at a time. */
static uint32_t reference(const struct coal_params *p, const struct coal_inst *in,
			  struct coal_line *r)
{
	uint32_t n = 0, lane, i, j, k;

	for (lane = 0; lane < COAL_LANES; lane++) {
		if (!(in->active_mask & (1u << lane)))
			continue;
		for (k = 0; k < in->size; k++) {
			addr_t b = in->addr[lane] + k;
			addr_t line = b / p->line_bytes * p->line_bytes;
			uint32_t off = (uint32_t)(b - line);

			for (i = 0; i < n && r[i].addr != line; i++)
				;
			if (i == n) {
				assert_true(n < COAL_MAX_LINES);
				memset(&r[n], 0, sizeof r[n]);
				r[n++].addr = line;
			}
			r[i].byte_mask[off / 64] |= 1ull << (off % 64);
			r[i].lanes |= 1u << lane;
		}
	}
	for (i = 1; i < n; i++) /* insertion sort by address */
		for (j = i; j > 0 && r[j - 1].addr > r[j].addr; j--) {
			struct coal_line t = r[j];

			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		for (k = 0; k < p->line_bytes; k++)
			if (r[i].byte_mask[k / 64] & (1ull << (k % 64))) {
				r[i].bytes++;
				r[i].sector_mask |= 1u << (k / p->sector_bytes);
			}
	return n;
}

static void run_random(uint32_t line_bytes, uint32_t sector_bytes, uint64_t seed, int iters)
{
	static const uint32_t sizes[] = { 1, 2, 4, 8, 16, 3, 12 };
	struct coal_params p = { line_bytes, sector_bytes };
	struct coalescer *c = coalescer_create(&p);
	struct coal_line out[COAL_MAX_LINES], ref[COAL_MAX_LINES];
	struct coal_stats want;
	int it;

	memset(&want, 0, sizeof want);
	for (it = 0; it < iters; it++) {
		struct coal_inst in;
		uint64_t mode = rng_next(&seed) % 4, bytes = 0, sectors = 0;
		addr_t base = (rng_next(&seed) % (1ull << 40)) & ~15ull;
		uint64_t stride = rng_next(&seed) % 300;
		uint64_t mis = rng_next(&seed) % 16;
		uint32_t i, n, nref;

		memset(&in, 0, sizeof in);
		in.size = sizes[rng_next(&seed) % (sizeof sizes / sizeof sizes[0])];
		in.is_store = rng_next(&seed) & 1;
		in.active_mask = (rng_next(&seed) % 3 == 0) ? (uint32_t)rng_next(&seed) : ALL;
		for (i = 0; i < COAL_LANES; i++) {
			switch (mode) {
			case 0: /* strided, maybe misaligned */
				in.addr[i] = base + mis + i * stride;
				break;
			case 1: /* random within a 512 B window: many shared lines and bytes */
				in.addr[i] = base + rng_next(&seed) % 512;
				break;
			case 2: /* random within 64 KB */
				in.addr[i] = base + rng_next(&seed) % 65536;
				break;
			default: /* natural alignment, random within 2 KB */
				in.addr[i] = base + (rng_next(&seed) % 2048) / in.size * in.size;
				break;
			}
		}
		n = coalesce(c, &in, out, COAL_MAX_LINES);
		nref = reference(&p, &in, ref);
		assert_int_equal(n, nref);
		for (i = 0; i < n; i++) {
			assert_int_equal(out[i].addr, ref[i].addr);
			assert_int_equal(out[i].byte_mask[0], ref[i].byte_mask[0]);
			assert_int_equal(out[i].byte_mask[1], ref[i].byte_mask[1]);
			assert_int_equal(out[i].sector_mask, ref[i].sector_mask);
			assert_int_equal(out[i].bytes, ref[i].bytes);
			assert_int_equal(out[i].lanes, ref[i].lanes);
			bytes += ref[i].bytes;
			sectors += (uint64_t)__builtin_popcount(ref[i].sector_mask);
		}
		want.mem_insts++;
		want.store_insts += in.is_store;
		want.requests += n;
		want.sectors += sectors;
		want.bytes_requested += bytes;
		want.bytes_moved += sectors * sector_bytes;
		want.ideal_transactions += (bytes + sector_bytes - 1) / sector_bytes;
		want.ideal_requests += (bytes + line_bytes - 1) / line_bytes;
		assert_true(sectors * sector_bytes >= bytes); /* ideal <= actual */
	}
	assert_memory_equal(coalescer_stats(c), &want, sizeof want);
	assert_true(coal_stats_efficiency(&want) <= 1.0);
	coalescer_destroy(c);
}

static void test_random_default(void **state)
{
	(void)state;
	run_random(128, 32, 0x243F6A8885A308D3ull, 20000);
}

static void test_random_small_geometry(void **state)
{
	(void)state;
	run_random(64, 16, 0x13198A2E03707344ull, 20000);
	run_random(16, 1, 0xA4093822299F31D0ull, 5000);
	run_random(128, 128, 0x082EFA98EC4E6C89ull, 5000);
}

/* bits_pop32/64 (bits.h), which count every mask's bytes and sectors here and downstream: hand
 * counts, then each single bit, each bit pair and every run of ones against a bit-by-bit loop. */
static uint32_t pop_loop(uint64_t x)
{
	uint32_t n = 0;

	for (; x != 0; x >>= 1)
		n += (uint32_t)(x & 1);
	return n;
}

static void test_bits_pop(void **state)
{
	uint32_t i, j;

	(void)state;
	assert_int_equal(bits_pop64(0), 0);
	assert_int_equal(bits_pop64(UINT64_MAX), 64);
	assert_int_equal(bits_pop64(UINT64_C(0x8000000000000001)), 2);
	assert_int_equal(bits_pop64(UINT64_C(0xf0f0f0f0f0f0f0f0)), 32);
	assert_int_equal(bits_pop32(0), 0);
	assert_int_equal(bits_pop32(UINT32_MAX), 32);
	assert_int_equal(bits_pop32(0x80000001u), 2);
	assert_int_equal(bits_pop32(0x00ff00f0u), 12);
	for (i = 0; i < 64; i++) {
		uint64_t run = i == 63 ? UINT64_MAX : (UINT64_C(1) << (i + 1)) - 1;

		assert_int_equal(bits_pop64(run), i + 1);
		assert_int_equal(bits_pop64(~run), pop_loop(~run));
		assert_int_equal(bits_pop32((uint32_t)run), pop_loop((uint32_t)run));
		for (j = 0; j < 64; j++) {
			uint64_t x = (UINT64_C(1) << i) | (UINT64_C(1) << j);

			assert_int_equal(bits_pop64(x), pop_loop(x));
			assert_int_equal(bits_pop64(~x), pop_loop(~x));
			assert_int_equal(bits_pop32((uint32_t)x), pop_loop((uint32_t)x));
			assert_int_equal(bits_pop32((uint32_t)~x), pop_loop((uint32_t)~x));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_consecutive_floats),
		cmocka_unit_test(test_stride2_floats),
		cmocka_unit_test(test_stride32_floats),
		cmocka_unit_test(test_lanes_1000_apart),
		cmocka_unit_test(test_straddle_120_248),
		cmocka_unit_test(test_aos_stride12),
		cmocka_unit_test(test_float4),
		cmocka_unit_test(test_unit_stride_straddle),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_inactive_lanes),
		cmocka_unit_test(test_broadcast),
		cmocka_unit_test(test_misaligned),
		cmocka_unit_test(test_store_byte_masks),
		cmocka_unit_test(test_order_independent_of_lanes),
		cmocka_unit_test(test_dense_first_lane),
		cmocka_unit_test(test_stats_accumulate),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_contract),
		cmocka_unit_test(test_random_default),
		cmocka_unit_test(test_random_small_geometry),
		cmocka_unit_test(test_bits_pop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
