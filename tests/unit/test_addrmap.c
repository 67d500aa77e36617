/*
 * test_addrmap.c - the DRAM address map: hand-computed decodes with and without hashing, channel
 * interleaving, how hashing spreads rows, exhaustive bijection on small odd geometries (12 and 3
 * channels, 60-burst inline-ECC rows), the power-of-two decode against the mixed-radix loop on
 * every order, wrap-around, the memo of a caller's last chunk against the plain decode, the report
 * string, every init error message, and the dram.map field table through the config loader.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "unit.h"

#include "addrmap.h"
#include "cfg.h"

/* The hash's building block, as documented in addrmap.c: t = q * 0x9E3779B1, t ^ (t >> 16).
 * mix(0) = 0; mix(1) = 0x9E3779B1 ^ 0x9E37 = 0x9E37E786 (2654463878 = 3 * 884821292 + 2). */
#define MIX1 0x9E37E786u

static struct addrmap_params params(const char *order, uint32_t interleave, bool hch, bool hba)
{
	struct addrmap_params p;

	memset(&p, 0, sizeof p);
	snprintf(p.order, sizeof p.order, "%s", order);
	p.interleave_bytes = interleave;
	p.hash_channel = hch;
	p.hash_bank = hba;
	return p;
}

static struct addrmap_geom geom(uint32_t ch, uint32_t pc, uint32_t bg, uint32_t ba, uint32_t rows,
				uint32_t bursts)
{
	struct addrmap_geom g = { ch, pc, bg, ba, rows, bursts, 32 };

	return g;
}

/* GDDR6 as a 16-channel GPU sees it: 4 x 4 banks, 16384 rows of 64 x 32 B. */
static const struct addrmap_geom gddr6 = { 16, 1, 4, 4, 16384, 64, 32 };

static void init_ok(struct addrmap *m, const struct addrmap_params *p,
		    const struct addrmap_geom *g)
{
	struct sim_err err;

	memset(&err, 0, sizeof err);
	if (addrmap_init(m, p, g, &err) != 0)
		fail_msg("addrmap_init: %s", err.msg);
}

static void assert_addr(const struct dram_addr *a, uint32_t ch, uint32_t pc, uint32_t bg,
			uint32_t ba, uint32_t row, uint32_t col)
{
	assert_int_equal(a->ch, ch);
	assert_int_equal(a->pc, pc);
	assert_int_equal(a->bg, bg);
	assert_int_equal(a->ba, ba);
	assert_int_equal(a->row, row);
	assert_int_equal(a->col, col);
}

/* ---------------------------------------------------------------------------------------------
 * Hand-computed decodes
 */

/*
 * 4 ch, 2 pc, 2 bg, 2 ba, 8 rows, 8 bursts of 32 B; interleave 64 B: col_lo 2, col_hi 4.
 * 0x5A6C = 23148: burst 723 (23136 + 12). 723 = 361 * 2 + 1 -> col_lo 1; then least significant
 * first: ch 361 % 4 = 1 (q 90), pc 90 % 2 = 0 (45), bg 1 (22), ba 0 (11), col_hi 11 % 4 = 3 (2),
 * row 2. col = 3 * 2 + 1 = 7.
 */
static void test_decode_by_hand(void **state)
{
	struct addrmap_params p = params("row:col:ba:bg:pc:ch", 64, false, false);
	struct addrmap_geom g = geom(4, 2, 2, 2, 8, 8);
	struct addrmap m;
	struct dram_addr a;

	(void)state;
	init_ok(&m, &p, &g);
	assert_int_equal(m.col_lo, 2);
	assert_int_equal(m.col_hi, 4);
	assert_int_equal(m.capacity_bytes, 4 * 2 * 2 * 2 * 8 * 8 * 32);
	addrmap_decode(&m, 0x5A6C, &a);
	assert_addr(&a, 1, 0, 1, 0, 2, 7);
	assert_int_equal(addrmap_encode(&m, &a), 23136);
	/* The last byte of the map: every field at its maximum. */
	addrmap_decode(&m, m.capacity_bytes - 1, &a);
	assert_addr(&a, 3, 1, 1, 1, 7, 7);
	assert_int_equal(m.wrapped, 0);

	/* Another order, column outermost but one: "ch:row:col:bg:ba:pc" (pc least significant).
	 * 723 -> col_lo 1, q 361: pc 1 (180), ba 0 (90), bg 0 (45), col_hi 45 % 4 = 1 (11),
	 * row 11 % 8 = 3 (1), ch 1. col = 1 * 2 + 1 = 3. */
	p = params("ch:row:col:bg:ba:pc", 64, false, false);
	init_ok(&m, &p, &g);
	addrmap_decode(&m, 0x5A6C, &a);
	assert_addr(&a, 1, 1, 0, 0, 3, 3);
	assert_int_equal(addrmap_encode(&m, &a), 23136);
}

/*
 * The same address with both hashes on. Row 2:
 *   ch (n 4, xor):  h = (2 ^ mix(2 / 4 = 0)) & 3 = 2        -> ch 1 ^ 2 = 3
 *   bg (n 2, xor):  h = (2 ^ mix(1)) & 1 = (0 ^ 0) = 0     -> bg 1
 *   ba (n 2, xor):  x = row / bg = 1, h = (1 ^ mix(0)) & 1 = 1 -> ba 0 ^ 1 = 1
 */
static void test_decode_hashed_by_hand(void **state)
{
	struct addrmap_params p = params("row:col:ba:bg:pc:ch", 64, true, true);
	struct addrmap_geom g = geom(4, 2, 2, 2, 8, 8);
	struct addrmap m;
	struct dram_addr a;

	(void)state;
	init_ok(&m, &p, &g);
	addrmap_decode(&m, 0x5A6C, &a);
	assert_addr(&a, 3, 0, 1, 1, 2, 7);
	assert_int_equal(addrmap_encode(&m, &a), 23136);
}

/*
 * Three channels (add mod 3), 1 pc, 2 bg, 2 ba, 16 rows, 4 bursts, interleave 32 (col_lo 1).
 * Unhashed (ch 1, pc 0, bg 1, ba 0, row 5, col 2) is burst
 *   ((((5 * 4 + 2) * 2 + 0) * 2 + 1) * 1 + 0) * 3 + 1 = 268, byte 8576.
 * Row 5 hashed:
 *   ch (n 3, add):  h = 5 % 3 + mix(5 / 3 = 1) % 3 = 2 + 2 = 4 -> ch (1 + 4) % 3 = 2
 *   bg (n 2, xor):  h = (5 ^ mix(2)) & 1, mix(2) = 0x3C6ECF0C is even -> h 1, bg 0
 *   ba (n 2, xor):  x = 5 / 2 = 2, h = (2 ^ mix(1)) & 1 = 0     -> ba 0
 */
static void test_decode_three_channels_by_hand(void **state)
{
	struct addrmap_params p = params("row:col:ba:bg:pc:ch", 32, false, false);
	struct addrmap_geom g = geom(3, 1, 2, 2, 16, 4);
	struct addrmap m;
	struct dram_addr a;

	(void)state;
	assert_int_equal(MIX1 % 3, 2);
	init_ok(&m, &p, &g);
	addrmap_decode(&m, 8576 + 31, &a);
	assert_addr(&a, 1, 0, 1, 0, 5, 2);
	p = params("row:col:ba:bg:pc:ch", 32, true, true);
	init_ok(&m, &p, &g);
	addrmap_decode(&m, 8576 + 31, &a);
	assert_addr(&a, 2, 0, 0, 0, 5, 2);
	assert_int_equal(addrmap_encode(&m, &a), 8576);
}

/* ---------------------------------------------------------------------------------------------
 * Interleaving and spreading
 */

/* Hashing off: chunk k of 256 B goes to channel k mod 16, every byte of a chunk to the same one,
 * and the 16 chunks after the first 16 move on to the next bank group. */
static void test_interleave_consecutive_channels(void **state)
{
	struct addrmap_params p = params("row:col:ba:bg:pc:ch", 256, false, false);
	struct addrmap m;
	struct dram_addr a;
	uint64_t k, off;

	(void)state;
	init_ok(&m, &p, &gddr6);
	for (k = 0; k < 256; k++) {
		for (off = 0; off < 256; off += 32) {
			addrmap_decode(&m, k * 256 + off, &a);
			assert_int_equal(a.ch, k % 16);
			assert_int_equal(a.bg, (k / 16) % 4);
			assert_int_equal(a.ba, (k / 64) % 4);
			assert_int_equal(a.col, off / 32);
			assert_int_equal(a.row, 0);
		}
	}
	/* After all 16 x 4 x 4 chunks, the next column chunk of row 0. */
	addrmap_decode(&m, 256 * 256, &a);
	assert_addr(&a, 0, 0, 0, 0, 0, 8);
}

/* The same byte of 16 consecutive rows: hashing off, all on one channel; hash_channel on, one
 * row per channel (an aligned block of n rows is a permutation), and a stride of 16 rows (which
 * keeps the row's low digit) still moves between channels. Likewise for 12 channels. */
static void test_hash_spreads_rows(void **state)
{
	const uint64_t row_span = 16ull * 4 * 4 * 64 * 32; /* bytes between rows, 2 MiB */
	struct addrmap_params off = params("row:col:ba:bg:pc:ch", 256, false, false);
	struct addrmap_params on = params("row:col:ba:bg:pc:ch", 256, true, false);
	struct addrmap_geom g12 = gddr6;
	struct addrmap m_off, m_on;
	struct dram_addr a;
	unsigned hits[16] = { 0 }, distinct = 0;
	uint32_t r, prev = UINT32_MAX;
	const uint64_t base = 5 * 256 + 64; /* channel 5 before hashing */

	(void)state;
	init_ok(&m_off, &off, &gddr6);
	init_ok(&m_on, &on, &gddr6);
	for (r = 0; r < 256; r++) {
		addrmap_decode(&m_off, base + r * row_span, &a);
		assert_int_equal(a.ch, 5);
		assert_int_equal(a.row, r);
		addrmap_decode(&m_on, base + r * row_span, &a);
		assert_int_equal(a.row, r);
		assert_int_equal(a.col, 2);
		assert_true(a.ch != prev); /* consecutive rows, different channels */
		prev = a.ch;
		hits[a.ch]++;
	}
	for (r = 0; r < 16; r++)
		assert_int_equal(hits[r], 16); /* every aligned block of 16 rows is a permutation */
	memset(hits, 0, sizeof hits);
	for (r = 0; r < 16; r++) {
		addrmap_decode(&m_on, base + (uint64_t)r * 16 * row_span, &a);
		distinct += hits[a.ch]++ == 0;
	}
	/* channel 5 ^ (low 4 bits of mix(q)), q = 0..15: 5 3 9 0 12 5 15 6 6 15 5 12 0 9 3 10 */
	assert_int_equal(distinct, 8);

	g12.channels = 12;
	init_ok(&m_on, &on, &g12);
	prev = UINT32_MAX;
	for (r = 0; r < 12; r++) {
		addrmap_decode(&m_on, 5 * 256 + (uint64_t)r * (row_span / 16 * 12), &a);
		assert_int_equal(a.row, r);
		assert_int_equal(a.ch, (5 + r) % 12); /* block 0: mix(0) = 0, h = row */
	}
}

/* hash_bank: 16 consecutive rows of one channel visit all 4 x 4 banks (bank group from the
 * row's lowest digit, bank from the next); the channel is left alone. */
static void test_hash_spreads_banks(void **state)
{
	const uint64_t row_span = 16ull * 4 * 4 * 64 * 32;
	struct addrmap_params p = params("row:col:ba:bg:pc:ch", 256, false, true);
	struct addrmap m;
	struct dram_addr a;
	bool seen[4][4] = { { false } };
	uint32_t r;

	(void)state;
	init_ok(&m, &p, &gddr6);
	for (r = 32; r < 48; r++) {
		addrmap_decode(&m, 3 * 256 + r * row_span, &a);
		assert_int_equal(a.ch, 3);
		assert_false(seen[a.bg][a.ba]);
		seen[a.bg][a.ba] = true;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Bijection
 */

/* Decodes every burst of the map (and a byte inside it), checks each field is in range, that
 * encode gives the burst back, and that a second lap wraps onto the first. */
static void check_bijection(const struct addrmap_params *p, const struct addrmap_geom *g)
{
	struct addrmap m;
	struct dram_addr a, b;
	uint64_t addr;

	init_ok(&m, p, g);
	for (addr = 0; addr < m.capacity_bytes; addr += g->burst_bytes) {
		addrmap_decode(&m, addr + (addr / g->burst_bytes) % g->burst_bytes, &a);
		if (a.ch >= g->channels || a.pc >= g->pcs || a.bg >= g->bank_groups ||
		    a.ba >= g->banks_per_group || a.row >= g->rows || a.col >= g->bursts_per_row)
			fail_msg("%s il %u: %#llx out of range", p->order, p->interleave_bytes,
				 (unsigned long long)addr);
		if (addrmap_encode(&m, &a) != addr)
			fail_msg("%s il %u hash %d%d: encode(decode(%#llx)) = %#llx", p->order,
				 p->interleave_bytes, p->hash_channel, p->hash_bank,
				 (unsigned long long)addr,
				 (unsigned long long)addrmap_encode(&m, &a));
	}
	assert_int_equal(m.wrapped, 0);
	addrmap_decode(&m, m.capacity_bytes + 7 * g->burst_bytes, &a);
	addrmap_decode(&m, 7 * g->burst_bytes, &b);
	assert_memory_equal(&a, &b, sizeof a);
	assert_int_equal(m.wrapped, 1);
}

static void test_bijection_exhaustive(void **state)
{
	static const char *const orders[] = { "row:col:ba:bg:pc:ch", "ch:row:bg:ba:col:pc",
					      "ba:pc:row:ch:col:bg" };
	static const uint32_t channels[] = { 12, 3, 16 };
	static const uint32_t pcs[] = { 1, 2 };
	static const uint32_t bursts[] = { 60, 64 }; /* 60: inline ECC, 64 * 15 / 16 */
	static const uint32_t interleave[] = { 32, 128, 256, 2048 };
	size_t o, c, pc, b, il, h, checked = 0, refused = 0;

	(void)state;
	for (o = 0; o < 3; o++)
	for (c = 0; c < 3; c++)
	for (pc = 0; pc < 2; pc++)
	for (b = 0; b < 2; b++)
	for (il = 0; il < 4; il++)
	for (h = 0; h < 4; h++) {
		struct addrmap_params p = params(orders[o], interleave[il], h & 1, h & 2);
		struct addrmap_geom g = geom(channels[c], pcs[pc], 2, 3, 5, bursts[b]);
		struct addrmap m;
		struct sim_err err;

		/* 60 bursts (1920 B): 256 and 2048 do not divide the row. */
		if (bursts[b] * 32 % interleave[il] != 0) {
			assert_int_equal(addrmap_init(&m, &p, &g, &err), -1);
			refused++;
			continue;
		}
		check_bijection(&p, &g);
		checked++;
	}
	assert_int_equal(checked, 3 * 3 * 2 * 4 * (2 + 4));
	assert_int_equal(refused, 3 * 3 * 2 * 4 * 2);
}

/* Power-of-two fields everywhere, XOR hashes on every field at once, GDDR6-like banks. */
static void test_bijection_pow2(void **state)
{
	struct addrmap_params p = params("row:col:ba:bg:pc:ch", 256, true, true);
	struct addrmap_geom g = geom(8, 2, 4, 4, 12, 64);

	(void)state;
	check_bijection(&p, &g);
	p = params("row:ba:bg:col:pc:ch", 2048, true, true);
	check_bijection(&p, &g);
}

/* The power-of-two decode (shifts and masks) against the mixed-radix loop it stands for, on the
 * same map with pow2 cleared: every one of the 720 orders, every hash combination, three
 * interleaves, two geometries, random addresses below and past the capacity (the wrap count
 * too). Geometries with a size that is not a power of two keep the loop. */
static void check_pow2_like_loop(const char *order, const struct addrmap_geom *g, gsl_rng *r)
{
	static const uint32_t interleave[] = { 32, 256, 1024 };
	size_t il, h, k;

	for (il = 0; il < 3; il++)
	for (h = 0; h < 4; h++) {
		struct addrmap_params p = params(order, interleave[il], h & 1, h & 2);
		struct addrmap fast, loop;
		struct dram_addr a, b;

		init_ok(&fast, &p, g);
		init_ok(&loop, &p, g);
		assert_true(fast.pow2);
		loop.pow2 = false;
		for (k = 0; k < 64; k++) {
			/* half below the capacity, half anywhere in 64 bits */
			uint64_t addr = (uint64_t)gsl_rng_get(r) << 32 | gsl_rng_get(r);

			if (k % 2 == 0)
				addr %= fast.capacity_bytes;
			addrmap_decode(&fast, addr, &a);
			addrmap_decode(&loop, addr, &b);
			if (memcmp(&a, &b, sizeof a) != 0)
				fail_msg("%s il %u hash %zu: %#llx decodes to ch %u pc %u bg %u ba %u "
					 "row %u col %u, the loop's ch %u pc %u bg %u ba %u row %u "
					 "col %u", order, interleave[il], h, (unsigned long long)addr,
					 a.ch, a.pc, a.bg, a.ba, a.row, a.col, b.ch, b.pc, b.bg,
					 b.ba, b.row, b.col);
		}
		assert_int_equal(fast.wrapped, loop.wrapped);
		assert_true(fast.wrapped > 16); /* a random 64-bit address is past 8 GiB */
	}
}

static void test_pow2_decode_like_loop(void **state)
{
	static const char *const names[AM_FIELD_COUNT] = { "ch", "pc", "bg", "ba", "row", "col" };
	/* GDDR6 as above; HBM2e-like: 8 channels of 2 pseudo-channels, 32768 rows of 32 x 32 B */
	static const struct addrmap_geom hbm = { 8, 2, 4, 4, 32768, 32, 32 };
	const struct addrmap_geom odd = geom(12, 1, 4, 4, 16384, 64);
	struct addrmap_params p = params("row:col:ba:bg:pc:ch", 256, true, true);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	unsigned perm[AM_FIELD_COUNT] = { 0, 1, 2, 3, 4, 5 }, orders = 0;
	struct addrmap m;

	(void)state;
	gsl_rng_set(r, 7);
	/* every order: the permutations in lexicographic order */
	for (;;) {
		char order[64] = "";
		unsigned t;
		int i, j;

		for (i = 0; i < AM_FIELD_COUNT; i++) {
			strcat(order, names[perm[i]]);
			if (i + 1 < AM_FIELD_COUNT)
				strcat(order, ":");
		}
		check_pow2_like_loop(order, &gddr6, r);
		check_pow2_like_loop(order, &hbm, r);
		orders++;
		for (i = AM_FIELD_COUNT - 2; i >= 0 && perm[i] > perm[i + 1]; i--)
			;
		if (i < 0)
			break;
		for (j = AM_FIELD_COUNT - 1; perm[j] < perm[i]; j--)
			;
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
		for (i++, j = AM_FIELD_COUNT - 1; i < j; i++, j--) {
			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
	}
	assert_int_equal(orders, 720);
	gsl_rng_free(r);
	init_ok(&m, &p, &odd);
	assert_false(m.pow2); /* 12 channels: the loop */
}

/* Addresses past the capacity wrap and are counted; the most significant field never exceeds
 * its size. */
static void test_wrap_counts(void **state)
{
	struct addrmap_params p = params("row:col:ba:bg:pc:ch", 256, false, false);
	struct addrmap m;
	struct dram_addr a;

	(void)state;
	init_ok(&m, &p, &gddr6);
	assert_int_equal(m.capacity_bytes, 16ull * 4 * 4 * 16384 * 2048); /* 8 GiB */
	addrmap_decode(&m, m.capacity_bytes - 32, &a);
	assert_addr(&a, 15, 0, 3, 3, 16383, 63);
	assert_int_equal(m.wrapped, 0);
	addrmap_decode(&m, m.capacity_bytes, &a);
	assert_addr(&a, 0, 0, 0, 0, 0, 0);
	addrmap_decode(&m, UINT64_MAX, &a);
	assert_true(a.row < 16384);
	assert_int_equal(m.wrapped, 2);
}

/* The memo (addrmap_decode_memo, addrmap_channel_memo) against the plain decode on walks that
 * stay in a chunk, step to the next, jump anywhere below the capacity, past it, and back to the
 * chunk before last: the same fields, channel and wrap count, on power-of-two and mixed-radix
 * maps, hashed and not, at three interleaves. A memo that reused its chunk for another, left
 * out the column's low part or the wrap, fails here. */
static void check_memo_like_decode(const struct addrmap_params *p, const struct addrmap_geom *g,
				   gsl_rng *r)
{
	struct addrmap plain, memod;
	struct addrmap_memo memo, chmemo;
	uint64_t addr = 0, before_last = 0, last_chunk = 0;
	size_t k;

	init_ok(&plain, p, g);
	init_ok(&memod, p, g);
	memset(&memo, 0, sizeof memo);
	memset(&chmemo, 0, sizeof chmemo);
	for (k = 0; k < 4000; k++) {
		uint32_t step = (uint32_t)gsl_rng_uniform_int(r, 16);
		struct dram_addr a, b;
		uint64_t chunk;

		if (step < 8) /* the next burst, often in the same chunk */
			addr += g->burst_bytes;
		else if (step < 11) /* a byte further in the same burst, or the next */
			addr += gsl_rng_uniform_int(r, g->burst_bytes);
		else if (step < 13)
			addr = ((uint64_t)gsl_rng_get(r) << 32 | gsl_rng_get(r)) %
			       plain.capacity_bytes;
		else if (step < 14) /* anywhere in 64 bits: past the capacity */
			addr = (uint64_t)gsl_rng_get(r) << 32 | gsl_rng_get(r);
		else /* the chunk before last again */
			addr = before_last * p->interleave_bytes +
			       gsl_rng_uniform_int(r, p->interleave_bytes);
		addrmap_decode(&plain, addr, &a);
		addrmap_decode_memo(&memod, &memo, addr, &b);
		if (memcmp(&a, &b, sizeof a) != 0)
			fail_msg("%s il %u: %#llx: the memo gives ch %u pc %u bg %u ba %u row %u "
				 "col %u, the decode ch %u pc %u bg %u ba %u row %u col %u",
				 p->order, p->interleave_bytes, (unsigned long long)addr, b.ch,
				 b.pc, b.bg, b.ba, b.row, b.col, a.ch, a.pc, a.bg, a.ba, a.row,
				 a.col);
		assert_int_equal(addrmap_channel_memo(&memod, &chmemo, addr), a.ch);
		assert_int_equal(addrmap_channel(&plain, addr), a.ch);
		chunk = addr / p->interleave_bytes;
		if (chunk != last_chunk) {
			before_last = last_chunk;
			last_chunk = chunk;
		}
	}
	assert_int_equal(memod.wrapped, plain.wrapped);
	assert_true(plain.wrapped > 50);
}

static void test_memo_like_decode(void **state)
{
	static const char *const orders[] = { "row:col:ba:bg:pc:ch", "ch:row:ba:bg:col:pc",
					      "row:ba:bg:col:pc:ch" };
	static const uint32_t interleave[] = { 32, 256, 1024 }, interleave60[] = { 32, 128, 384 };
	static const struct addrmap_geom hbm = { 8, 2, 4, 4, 32768, 32, 32 };
	struct addrmap_geom g12 = geom(12, 1, 4, 4, 16384, 64), g60 = gddr6;
	const struct addrmap_geom *gs[] = { &gddr6, &hbm, &g12, &g60 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct addrmap m;
	struct addrmap_memo memo;
	struct dram_addr a, b;
	size_t o, il, h, gi;

	(void)state;
	gsl_rng_set(r, 11);
	g60.bursts_per_row = 60; /* inline ECC's rows: 60 bursts, col_hi not a power of two */
	for (gi = 0; gi < 4; gi++)
	for (o = 0; o < 3; o++)
	for (il = 0; il < 3; il++)
	for (h = 0; h < 4; h++) {
		/* a 60-burst row (1,920 B) takes 32, 128 and 384 B chunks (12 bursts: col_lo
		 * not a power of two either) */
		uint32_t chunk = gi == 3 ? interleave60[il] : interleave[il];
		struct addrmap_params p = params(orders[o], chunk, h & 1, h & 2);

		check_memo_like_decode(&p, gs[gi], r);
	}
	gsl_rng_free(r);

	/* The chunk it keeps: 256 B interleave, 32 B bursts: bursts 0..7 of a chunk share it. */
	{
		struct addrmap_params p = params("row:col:ba:bg:pc:ch", 256, true, true);

		init_ok(&m, &p, &gddr6);
		memset(&memo, 0, sizeof memo);
		addrmap_decode_memo(&m, &memo, 5 * 256 + 32, &a);
		assert_int_equal(memo.key, 5 + 1);
		addrmap_decode_memo(&m, &memo, 5 * 256 + 7 * 32 + 31, &b);
		assert_int_equal(memo.key, 5 + 1);
		assert_int_equal(b.col, a.col + 6);
		addrmap_decode_memo(&m, &memo, 6 * 256, &b);
		assert_int_equal(memo.key, 6 + 1);
		assert_int_not_equal(b.ch, a.ch);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Reports
 */

static void test_describe(void **state)
{
	struct addrmap_params p = params("row:col:ba:bg:pc:ch", 256, true, true);
	struct addrmap_geom g12 = gddr6;
	struct addrmap m;
	char buf[256];

	(void)state;
	init_ok(&m, &p, &gddr6);
	addrmap_describe(&m, buf, sizeof buf);
	assert_string_equal(buf, "row[16384]:col[8]:ba[4]:bg[4]:pc[1]:ch[16]:col[8] x 32 B; "
				 "hash ch (xor), bg (xor), ba (xor)");
	g12.channels = 12;
	g12.bursts_per_row = 60;
	p = params("ch:row:ba:bg:col:pc", 128, true, false);
	init_ok(&m, &p, &g12);
	addrmap_describe(&m, buf, sizeof buf);
	assert_string_equal(buf, "ch[12]:row[16384]:ba[4]:bg[4]:col[15]:pc[1]:col[4] x 32 B; "
				 "hash ch (add)");
	p = params("row:col:ba:bg:pc:ch", 32, false, true);
	init_ok(&m, &p, &g12);
	addrmap_describe(&m, buf, sizeof buf);
	assert_string_equal(buf, "row[16384]:col[60]:ba[4]:bg[4]:pc[1]:ch[12]:col[1] x 32 B; "
				 "hash bg (xor), ba (xor)");
	p.hash_bank = false;
	init_ok(&m, &p, &g12);
	addrmap_describe(&m, buf, sizeof buf);
	assert_string_equal(buf, "row[16384]:col[60]:ba[4]:bg[4]:pc[1]:ch[12]:col[1] x 32 B; "
				 "no hash");
	/* Truncation keeps a terminated string. */
	addrmap_describe(&m, buf, 10);
	assert_string_equal(buf, "row[16384");
}

/* ---------------------------------------------------------------------------------------------
 * Errors
 */

static void expect_init_error(const char *order, uint32_t interleave,
			      const struct addrmap_geom *g, const char *msg)
{
	struct addrmap_params p = params(order, interleave, true, true);
	struct addrmap m;
	struct sim_err err;

	memset(&err, 0, sizeof err);
	assert_int_equal(addrmap_init(&m, &p, g, &err), -1);
	assert_string_equal(err.file, "");
	assert_int_equal(err.line, 0);
	assert_string_equal(err.msg, msg);
}

static void test_init_errors(void **state)
{
	struct addrmap_geom ecc = gddr6, huge = gddr6;

	(void)state;
	expect_init_error("row:col:ba:bg:ch", 256, &gddr6,
			  "dram.map.order: \"row:col:ba:bg:ch\" lacks pc");
	expect_init_error("row:col:bank:bg:pc:ch", 256, &gddr6,
			  "dram.map.order: \"row:col:bank:bg:pc:ch\" has unknown field \"bank\", "
			  "lacks ba (fields: ch, pc, bg, ba, row, col)");
	expect_init_error("row:col:ba:bg:pc:ch:ch", 256, &gddr6,
			  "dram.map.order: \"row:col:ba:bg:pc:ch:ch\" repeats ch");
	expect_init_error("row:row:xx:bg:ch:ch", 256, &gddr6,
			  "dram.map.order: \"row:row:xx:bg:ch:ch\" has unknown field \"xx\", "
			  "repeats ch and row, lacks pc, ba and col "
			  "(fields: ch, pc, bg, ba, row, col)");
	expect_init_error("row:col::ba:bg:pc:ch", 256, &gddr6,
			  "dram.map.order: \"row:col::ba:bg:pc:ch\" has an empty field "
			  "(fields: ch, pc, bg, ba, row, col)");
	expect_init_error("", 256, &gddr6,
			  "dram.map.order: \"\" has an empty field, lacks ch, pc, bg, ba, row and "
			  "col (fields: ch, pc, bg, ba, row, col)");
	expect_init_error("ROW:col:ba:bg:pc:ch", 256, &gddr6,
			  "dram.map.order: \"ROW:col:ba:bg:pc:ch\" has unknown field \"ROW\", "
			  "lacks row (fields: ch, pc, bg, ba, row, col)");
	expect_init_error("row:col:ba:bg:pc:ch", 48, &gddr6,
			  "dram.map.interleave_bytes: 48 is not a multiple of the 32 B burst");
	expect_init_error("row:col:ba:bg:pc:ch", 0, &gddr6,
			  "dram.map.interleave_bytes: 0 is not a multiple of the 32 B burst");
	expect_init_error("row:col:ba:bg:pc:ch", 4096, &gddr6,
			  "dram.map.interleave_bytes: 4096 does not divide the 2048 B row "
			  "(64 bursts of 32 B)");
	ecc.bursts_per_row = 60;
	expect_init_error("row:col:ba:bg:pc:ch", 256, &ecc,
			  "dram.map.interleave_bytes: 256 does not divide the 1920 B row "
			  "(60 bursts of 32 B)");
	huge.channels = UINT32_MAX;
	huge.rows = UINT32_MAX;
	expect_init_error("row:col:ba:bg:pc:ch", 256, &huge,
			  "dram.map: the organisation holds 2^64 bytes or more");
}

/* ---------------------------------------------------------------------------------------------
 * The field table, through the real loader
 */

static const struct cfg_group map_groups[] = {
	{ "dram", "DRAM.", NULL, 0, 0 },
	{ "dram.map", "Address map.", addrmap_fields, 0, 0 },
};

static void test_fields_table(void **state)
{
	struct cfg_group groups[2];
	struct cfg_schema s;
	struct addrmap_params p;
	struct cfg *c;
	struct sim_err err;
	size_t i;

	(void)state;
	memcpy(groups, map_groups, sizeof groups);
	groups[1].nfields = addrmap_nfields;
	s.groups = groups;
	s.ngroups = 2;
	assert_int_equal(addrmap_nfields, 4);
	for (i = 0; i < addrmap_nfields; i++)
		assert_true(strlen(addrmap_fields[i].desc) > 20);

	memset(&p, 0xa5, sizeof p);
	if (cfg_defaults(&s, &p, &err) != 0)
		fail_msg("cfg_defaults: %s", err.msg);
	assert_string_equal(p.order, "row:col:ba:bg:pc:ch");
	assert_int_equal(p.interleave_bytes, 256);
	assert_true(p.hash_channel);
	assert_true(p.hash_bank);

	assert_int_equal(cfg_load_string(&c, "map.cfg",
					 "dram: { map: { order = \"ch:row:col:ba:bg:pc\";\n"
					 "  interleave_bytes = 512; hash_bank = false; }; };\n",
					 &err),
			 0);
	if (cfg_read(c, &s, &p, &err) != 0)
		fail_msg("cfg_read: %s", err.msg);
	cfg_destroy(c);
	assert_string_equal(p.order, "ch:row:col:ba:bg:pc");
	assert_int_equal(p.interleave_bytes, 512);
	assert_true(p.hash_channel);
	assert_false(p.hash_bank);

	/* The range is the table's: 16 B is refused by the loader, before addrmap_init. */
	assert_int_equal(cfg_load_string(&c, "map.cfg",
					 "dram: { map: { interleave_bytes = 16; }; };\n", &err),
			 0);
	assert_int_equal(cfg_read(c, &s, &p, &err), -1);
	cfg_destroy(c);
	assert_non_null(strstr(err.msg, "dram.map.interleave_bytes"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_by_hand),
		cmocka_unit_test(test_decode_hashed_by_hand),
		cmocka_unit_test(test_decode_three_channels_by_hand),
		cmocka_unit_test(test_interleave_consecutive_channels),
		cmocka_unit_test(test_hash_spreads_rows),
		cmocka_unit_test(test_hash_spreads_banks),
		cmocka_unit_test(test_bijection_exhaustive),
		cmocka_unit_test(test_bijection_pow2),
		cmocka_unit_test(test_pow2_decode_like_loop),
		cmocka_unit_test(test_wrap_counts),
		cmocka_unit_test(test_memo_like_decode),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_fields_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
