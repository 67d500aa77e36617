/*
 * test_slice_hash.c - address -> L2 slice (sim/mem/slice_hash.c).
 *
 * The field table through the loader and the init errors; linear = chunk mod n; hand-computed
 * slices for xor and ipoly (n = 3, 16, 40); every polynomial of the table primitive; each group
 * of n chunks a rotation and the map a bijection (slice_hash_global inverts slice + local);
 * determinism; contiguous sweeps exactly even; strided sweeps (powers of two 128 B - 64 KB, odd
 * multiples of a line and of powers of two) for n = 16, 32, 40, 48, 64, 80, 96, with the
 * max / min slice counts printed and bounded, next to a random hash on the same accesses.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "cfg.h"
#include "slice_hash.h"

static const uint32_t counts[] = { 16, 32, 40, 48, 64, 80, 96 };
#define NCOUNTS (sizeof counts / sizeof counts[0])

static void init_ok(struct slice_hash *h, enum slice_hash_kind kind, uint32_t gran, uint32_t n)
{
	struct slice_hash_params p = { (uint32_t)kind, gran, false, false };
	struct sim_err err;

	memset(&err, 0, sizeof err);
	if (slice_hash_init(h, &p, n, "l2.hash", &err) != 0)
		fail_msg("slice_hash_init: %s", err.msg);
}

/* ---------------------------------------------------------------------------------------------
 * Parameters
 */

static void test_fields_table(void **state)
{
	static const struct cfg_group base[] = {
		{ "l2", "L2.", NULL, 0, 0 },
		{ "l2.hash", "Slice hash.", slice_hash_fields, 0, 0 },
	};
	struct cfg_group groups[2];
	struct cfg_schema s;
	struct slice_hash_params p;
	struct cfg *c;
	struct sim_err err;
	size_t i;

	(void)state;
	memcpy(groups, base, sizeof groups);
	groups[1].nfields = slice_hash_nfields;
	s.groups = groups;
	s.ngroups = 2;
	assert_int_equal(slice_hash_nfields, SLICE_HASH_NFIELDS);
	for (i = 0; i < slice_hash_nfields; i++)
		assert_true(strlen(slice_hash_fields[i].desc) > 20);

	memset(&p, 0xa5, sizeof p);
	if (cfg_defaults(&s, &p, &err) != 0)
		fail_msg("cfg_defaults: %s", err.msg);
	assert_int_equal(p.kind, SLICE_HASH_IPOLY);
	assert_int_equal(p.granularity_bytes, 256);

	assert_int_equal(cfg_load_string(&c, "h.cfg",
					 "l2: { hash: { kind = \"xor\";\n"
					 "  granularity_bytes = 4096; }; };\n",
					 &err),
			 0);
	if (cfg_read(c, &s, &p, &err) != 0)
		fail_msg("cfg_read: %s", err.msg);
	cfg_destroy(c);
	assert_int_equal(p.kind, SLICE_HASH_XOR);
	assert_int_equal(p.granularity_bytes, 4096);

	assert_int_equal(cfg_load_string(&c, "h.cfg",
					 "l2: { hash: { granularity_bytes = 16; }; };\n", &err),
			 0);
	assert_int_equal(cfg_read(c, &s, &p, &err), -1);
	cfg_destroy(c);
	assert_non_null(strstr(err.msg, "l2.hash.granularity_bytes"));
	assert_int_equal(cfg_load_string(&c, "h.cfg", "l2: { hash: { kind = \"crc\"; }; };\n",
					 &err),
			 0);
	assert_int_equal(cfg_read(c, &s, &p, &err), -1);
	cfg_destroy(c);
	assert_non_null(strstr(err.msg, "l2.hash.kind"));
}

static void test_init_errors(void **state)
{
	struct slice_hash_params p = { SLICE_HASH_IPOLY, 384, false, false };
	struct slice_hash h;
	struct sim_err err;

	(void)state;
	assert_int_equal(slice_hash_init(&h, &p, 40, "l2.hash", &err), -1);
	assert_string_equal(err.msg, "l2.hash.granularity_bytes: 384 is not a power of two");
	p.granularity_bytes = 256;
	assert_int_equal(slice_hash_init(&h, &p, 0, "l2.hash", &err), -1);
	assert_string_equal(err.msg, "l2.hash: 0 slices, expected 1 to 65536");
	assert_int_equal(slice_hash_init(&h, &p, 65537, NULL, &err), -1);
	assert_string_equal(err.msg, "slice_hash: 65537 slices, expected 1 to 65536");
	p.kind = SLICE_HASH_KIND_COUNT;
	assert_int_equal(slice_hash_init(&h, &p, 4, "l2.hash", &err), -1);
	assert_string_equal(err.msg, "l2.hash.kind: unknown kind 3");
	p.kind = SLICE_HASH_IPOLY;
	assert_int_equal(slice_hash_init(&h, &p, 65536, "l2.hash", &err), 0);
	assert_int_equal(h.bits, 20);
}

static void test_describe(void **state)
{
	struct slice_hash h;
	char buf[128];

	(void)state;
	init_ok(&h, SLICE_HASH_IPOLY, 256, 80);
	slice_hash_describe(&h, buf, sizeof buf);
	assert_string_equal(buf, "ipoly, 80 slices, 256 B granularity, K = 11, P = 0x805");
	init_ok(&h, SLICE_HASH_XOR, 4096, 48);
	slice_hash_describe(&h, buf, sizeof buf);
	assert_string_equal(buf, "xor, 48 slices, 4096 B granularity, K = 10");
	init_ok(&h, SLICE_HASH_LINEAR, 128, 3);
	slice_hash_describe(&h, buf, sizeof buf);
	assert_string_equal(buf, "linear, 3 slices, 128 B granularity");
}

/* ---------------------------------------------------------------------------------------------
 * Hand-computed values
 */

static void test_linear_is_mod(void **state)
{
	static const uint32_t ns[] = { 1, 3, 12, 16, 40, 96, 1000 };
	struct slice_hash h;
	uint64_t s = 88172645463325252ull;
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		init_ok(&h, SLICE_HASH_LINEAR, 512, ns[i]);
		for (k = 0; k < 10000; k++) {
			addr_t a;

			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			a = s >> (k % 40);
			assert_int_equal(slice_hash_slice(&h, a), (a >> 9) % ns[i]);
			assert_int_equal(slice_hash_offset(&h, a), 0);
		}
	}
}

/*
 * slice = (r + H(q) mod n) mod n, c = addr / 256, q = c / n, r = c mod n.
 * xor, n = 3: K = 2 + 4 = 6, H = XOR of 6-bit fields.
 *   c = 100: q 33 r 1, H 33, 33 mod 3 = 0 -> 1.     c = 200: q 66 r 2, H = 2 ^ 1 = 3 -> 2.
 *   c = 210: q 70 r 0, H = 6 ^ 1 = 7, 7 mod 3 = 1 -> 1.
 * ipoly, n = 16: K = 8, P = x^8 + x^4 + x^3 + x^2 + 1 (0x11D); H(q) = q for q < 256.
 *   x^8 = 0x1D: q 256 r 5: H 29, 29 mod 16 = 13 -> 18 mod 16 = 2.
 *   q 0x1FF: H = 0xFF ^ 0x1D = 0xE2 = 226, mod 16 = 2 -> r 0 gives 2.
 *   x^9 = 0x3A = 58: q 512 r 1 -> 1 + 10 = 11.
 * ipoly, n = 40: K = 10, P = x^10 + x^3 + 1 (0x409).
 *   x^10 = 0x9: q 1024 r 7 -> 7 + 9 = 16.   q 1025: H = 9 ^ 1 = 8 -> 15.
 *   x^11 = 0x12 = 18: q 2048 r 39 -> 57 mod 40 = 17.   q 3 r 39: H 3 -> 42 mod 40 = 2.
 * xor, n = 40: K = 10: q 1024 (bit 10 -> bit 0): H 1, r 7 -> 8; q 2048: H 2, r 39 -> 1.
 */
static void test_hand_computed(void **state)
{
	struct slice_hash h;

	(void)state;
	init_ok(&h, SLICE_HASH_XOR, 256, 3);
	assert_int_equal(h.bits, 6);
	assert_int_equal(slice_hash_offset(&h, 66), 3);
	assert_int_equal(slice_hash_slice(&h, 100 * 256), 1);
	assert_int_equal(slice_hash_slice(&h, 200 * 256 + 255), 2);
	assert_int_equal(slice_hash_slice(&h, 210 * 256), 1);

	init_ok(&h, SLICE_HASH_IPOLY, 256, 16);
	assert_int_equal(h.bits, 8);
	assert_int_equal(h.poly, 0x11D);
	assert_int_equal(slice_hash_offset(&h, 255), 255);
	assert_int_equal(slice_hash_offset(&h, 256), 0x1D);
	assert_int_equal(slice_hash_offset(&h, 0x1FF), 0xE2);
	assert_int_equal(slice_hash_slice(&h, (256 * 16 + 5) * 256ull), 2);
	assert_int_equal(slice_hash_slice(&h, (0x1FF * 16 + 0) * 256ull), 2);
	assert_int_equal(slice_hash_slice(&h, (512 * 16 + 1) * 256ull), 11);

	init_ok(&h, SLICE_HASH_IPOLY, 256, 40);
	assert_int_equal(h.bits, 10);
	assert_int_equal(h.poly, 0x409);
	assert_int_equal(slice_hash_slice(&h, (1024 * 40 + 7) * 256ull), 16);
	assert_int_equal(slice_hash_slice(&h, (1025 * 40 + 7) * 256ull), 15);
	assert_int_equal(slice_hash_slice(&h, (2048 * 40 + 39) * 256ull + 17), 17);
	assert_int_equal(slice_hash_slice(&h, (3 * 40 + 39) * 256ull), 2);

	init_ok(&h, SLICE_HASH_XOR, 256, 40);
	assert_int_equal(slice_hash_slice(&h, (1024 * 40 + 7) * 256ull), 8);
	assert_int_equal(slice_hash_slice(&h, (2048 * 40 + 39) * 256ull), 1);

	init_ok(&h, SLICE_HASH_IPOLY, 256, 1);
	assert_int_equal(slice_hash_slice(&h, 0x123456789abcull), 0);
}

/* Every polynomial the hash can pick (K = 4 .. 20) is primitive: x has order 2^K - 1. */
static void test_polynomials_primitive(void **state)
{
	struct slice_hash h;
	uint32_t k;

	(void)state;
	for (k = 4; k <= SLICE_HASH_MAX_BITS; k++) {
		uint64_t r = 1, order = 0;

		init_ok(&h, SLICE_HASH_IPOLY, 256, 1u << (k - 4));
		assert_int_equal(h.bits, k);
		assert_int_equal(h.poly >> k, 1);
		assert_int_equal(h.poly & 1, 1);
		do {
			r <<= 1;
			if (r >> k & 1)
				r ^= h.poly;
			order++;
		} while (r != 1 && order < (1ull << k));
		assert_int_equal(order, (1ull << k) - 1);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Structure: rotation per group, bijection, determinism
 */

static void test_rotation_and_bijection(void **state)
{
	static const enum slice_hash_kind kinds[] = { SLICE_HASH_LINEAR, SLICE_HASH_XOR,
						      SLICE_HASH_IPOLY };
	static const uint32_t ns[] = { 1, 3, 12, 16, 40, 48, 80, 96, 1000 };
	uint64_t s = 0x243F6A8885A308D3ull;
	struct slice_hash h;
	size_t ki, ni;

	(void)state;
	for (ki = 0; ki < 3; ki++)
		for (ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
			uint32_t n = ns[ni], g;
			bool seen[1000];

			init_ok(&h, kinds[ki], 128, n);
			for (g = 0; g < 200; g++) {
				uint64_t q;
				uint32_t i;

				s = s * 6364136223846793005ull + 1442695040888963407ull;
				q = g < 100 ? g : s >> 24;
				memset(seen, 0, sizeof seen);
				for (i = 0; i < n; i++) {
					addr_t a = ((q * n + i) << 7) | (i & 127);
					uint32_t sl = slice_hash_slice(&h, a);
					addr_t loc = slice_hash_local(&h, a);

					assert_true(sl < n);
					assert_false(seen[sl]);
					seen[sl] = true;
					assert_int_equal(loc, (q << 7) | (i & 127));
					assert_int_equal(slice_hash_global(&h, sl, loc), a);
				}
			}
		}
}

/* A slice's chunks are numbered 0, 1, 2 ... by slice_hash_local in address order. */
static void test_local_dense(void **state)
{
	struct slice_hash h;
	uint32_t sl, q;

	(void)state;
	init_ok(&h, SLICE_HASH_IPOLY, 256, 40);
	for (sl = 0; sl < 40; sl += 13) {
		addr_t prev = 0;

		for (q = 0; q < 5000; q++) {
			addr_t a = slice_hash_global(&h, sl, (addr_t)q << 8 | 0x11);

			assert_int_equal(slice_hash_slice(&h, a), sl);
			assert_int_equal(slice_hash_local(&h, a), (addr_t)q << 8 | 0x11);
			if (q > 0)
				assert_true(a > prev);
			prev = a;
		}
	}
}

static void test_determinism(void **state)
{
	struct slice_hash a, b;
	uint64_t x;

	(void)state;
	init_ok(&a, SLICE_HASH_IPOLY, 256, 80);
	init_ok(&b, SLICE_HASH_IPOLY, 256, 80);
	assert_memory_equal(&a, &b, sizeof a);
	for (x = 1; x < (1ull << 40); x = x * 3 + 7)
		assert_int_equal(slice_hash_slice(&a, x), slice_hash_slice(&b, x));
}

/* ---------------------------------------------------------------------------------------------
 * Evenness of sweeps
 */

/* max / min of the per-slice counts of a sweep of `accesses` addresses 0, stride, 2 stride ... */
static double sweep_ratio(const struct slice_hash *h, uint64_t stride, uint64_t accesses)
{
	uint64_t cnt[128] = { 0 }, mn = UINT64_MAX, mx = 0, i;
	uint32_t s;

	for (i = 0; i < accesses; i++)
		cnt[slice_hash_slice(h, i * stride)]++;
	for (s = 0; s < h->nslices; s++) {
		mn = cnt[s] < mn ? cnt[s] : mn;
		mx = cnt[s] > mx ? cnt[s] : mx;
	}
	return mn == 0 ? INFINITY : (double)mx / (double)mn;
}

/* The same for an ideal random hash (splitmix64 of the 256 B chunk), for comparison. */
static double random_ratio(uint32_t n, uint64_t stride, uint64_t accesses)
{
	uint64_t cnt[128] = { 0 }, mn = UINT64_MAX, mx = 0, i;
	uint32_t s;

	for (i = 0; i < accesses; i++) {
		uint64_t z = (i * stride >> 8) + 0x9E3779B97F4A7C15ull;

		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		cnt[(z ^ (z >> 31)) % n]++;
	}
	for (s = 0; s < n; s++) {
		mn = cnt[s] < mn ? cnt[s] : mn;
		mx = cnt[s] > mx ? cnt[s] : mx;
	}
	return mn == 0 ? INFINITY : (double)mx / (double)mn;
}

static void test_contiguous_exact(void **state)
{
	static const enum slice_hash_kind kinds[] = { SLICE_HASH_LINEAR, SLICE_HASH_XOR,
						      SLICE_HASH_IPOLY };
	struct slice_hash h;
	size_t ki, ni;

	(void)state;
	for (ki = 0; ki < 3; ki++)
		for (ni = 0; ni < NCOUNTS; ni++) {
			init_ok(&h, kinds[ki], 256, counts[ni]);
			/* 128 B lines: two per chunk; 64 groups of n chunks. */
			assert_true(sweep_ratio(&h, 128, 128ull * counts[ni]) == 1.0);
			assert_true(sweep_ratio(&h, 256, 64ull * counts[ni]) == 1.0);
		}
}

/* Powers of two from 128 B to 64 KB over 1024 n accesses: exact for ipoly and xor; linear is
 * shown to fail (a stride of n chunks lands on one slice). */
static void test_strided_pow2(void **state)
{
	struct slice_hash h;
	size_t ni;
	int j;

	(void)state;
	print_message("# power-of-two strides 128 B - 64 KB, 1024 n accesses: worst max/min\n");
	for (ni = 0; ni < NCOUNTS; ni++) {
		uint32_t n = counts[ni];
		double wi = 1, wx = 1, wl = 1;

		for (j = 0; j <= 9; j++) {
			uint64_t stride = 128ull << j;
			double ri, rx, rl;

			init_ok(&h, SLICE_HASH_IPOLY, 256, n);
			ri = sweep_ratio(&h, stride, 1024ull * n);
			init_ok(&h, SLICE_HASH_XOR, 256, n);
			rx = sweep_ratio(&h, stride, 1024ull * n);
			init_ok(&h, SLICE_HASH_LINEAR, 256, n);
			rl = sweep_ratio(&h, stride, 1024ull * n);
			wi = ri > wi ? ri : wi;
			wx = rx > wx ? rx : wx;
			wl = rl > wl ? rl : wl;
			if (ri > 1.01 || rx > 1.01)
				fail_msg("n %u stride %llu: ipoly %.3f xor %.3f", n,
					 (unsigned long long)stride, ri, rx);
		}
		print_message("#   n %2u: ipoly %.3f  xor %.3f  linear %s\n", n, wi, wx,
			      isinf(wl) ? "inf (slices unused)" : "finite");
		assert_true(isinf(wl));
	}
	/* Linear: a stride of n chunks always hits the same slice. */
	init_ok(&h, SLICE_HASH_LINEAR, 256, 40);
	assert_int_equal(slice_hash_slice(&h, 40 * 256 * 12345ull), 0);
}

/*
 * Odd strides: odd multiples of a 128 B line (3 .. 255 lines) and of 512 B .. 32 KB (3, 5, 7, 9,
 * 15 times), over 4096 n accesses. No deterministic hash is exact on all of these; ipoly must stay
 * within 1.30 of max / min everywhere, close to a random hash on the same accesses (whose worst
 * is printed alongside; its expected worst is about 1 + 5 / sqrt(4096) = 1.08).
 */
static void test_strided_odd(void **state)
{
	static const uint32_t lines[] = { 3, 5, 7, 9, 11, 13, 15, 17, 25, 33, 63, 127, 255 };
	static const uint32_t odd[] = { 3, 5, 7, 9, 15 };
	uint64_t strides[64];
	size_t ns = 0, i, ni;
	struct slice_hash h;

	(void)state;
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++)
		strides[ns++] = 128ull * lines[i];
	for (i = 0; i < sizeof odd / sizeof odd[0]; i++)
		for (int j = 9; j <= 15; j += 2)
			strides[ns++] = (1ull << j) * odd[i];
	print_message("# odd strides (%zu of them), 4096 n accesses: worst max/min\n", ns);
	for (ni = 0; ni < NCOUNTS; ni++) {
		uint32_t n = counts[ni];
		double wi = 1, wx = 1, wr = 1, mean = 0;
		uint64_t wis = 0;

		for (i = 0; i < ns; i++) {
			double ri, rx, rr;

			init_ok(&h, SLICE_HASH_IPOLY, 256, n);
			ri = sweep_ratio(&h, strides[i], 4096ull * n);
			init_ok(&h, SLICE_HASH_XOR, 256, n);
			rx = sweep_ratio(&h, strides[i], 4096ull * n);
			rr = random_ratio(n, strides[i], 4096ull * n);
			if (ri > wi) {
				wi = ri;
				wis = strides[i];
			}
			wx = rx > wx ? rx : wx;
			wr = rr > wr ? rr : wr;
			mean += ri / (double)ns;
			if (ri > 1.30)
				fail_msg("n %u stride %llu: ipoly %.3f", n,
					 (unsigned long long)strides[i], ri);
		}
		print_message("#   n %2u: ipoly worst %.3f (stride %llu B) mean %.3f;  xor worst "
			      "%.3f;  random hash worst %.3f\n",
			      n, wi, (unsigned long long)wis, mean, wx, wr);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_table),
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_linear_is_mod),
		cmocka_unit_test(test_hand_computed),
		cmocka_unit_test(test_polynomials_primitive),
		cmocka_unit_test(test_rotation_and_bijection),
		cmocka_unit_test(test_local_dense),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_contiguous_exact),
		cmocka_unit_test(test_strided_pow2),
		cmocka_unit_test(test_strided_odd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
