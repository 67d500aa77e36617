/*
 * slice_hash.c - address -> L2 slice, for any slice count (the function is in slice_hash.h).
 *
 * Models the address hash that spreads a GPU's memory traffic over its L2 slices. NVIDIA's real
 * hash is not public; what matters for a performance model is that common access streams spread
 * evenly, and that slice counts that are not powers of two (40, 48, 80, 96 ...) work at all.
 * GPGPU-Sim's IPOLY asserts unless there are 16, 32 or 64 targets, which broke its first H100
 * config with 80 channels (gpgpusim-study.md section 1.8).
 *
 *     c = addr >> log2(granularity_bytes)     chunk
 *     q = c / n,  r = c mod n                 group of n chunks, position in the group
 *     slice = (r + (H(q) mod n)) mod n
 *     H(q) = XOR over the set bits b of q of column[b]     (a K x 64 matrix over GF(2))
 *       linear  K = 0, H = 0
 *       xor     column[b] = 1 << (b mod K)      (XOR-fold of q's K-bit fields)
 *       ipoly   column[b] = x^b mod P_K(x)      (P_K primitive of degree K, table below)
 *     K = ceil(log2 n) + SLICE_HASH_EXTRA_BITS (4)
 *
 * Properties (tests/unit/test_slice_hash.c checks each):
 *   - every aligned group of n consecutive chunks is a rotation of 0..n-1: a contiguous sweep of
 *     a multiple of n chunks is exactly even, for every n and kind;
 *   - (slice, q) determines the address: slice_hash_global inverts it, and q is a dense
 *     slice-local address;
 *   - power-of-two strides: with ipoly, x^k is invertible modulo P_K, so H runs through all 2^K
 *     values as q steps through any power-of-two progression; measured evenness is exact
 *     (max/min 1.000) for strides 128 B - 64 KB and n in {16, 32, 40, 48, 64, 80, 96} over
 *     1024 n accesses;
 *   - other strides (33 of them: 3 .. 255 lines, and 3, 5, 7, 9, 15 x 512 B .. 32 KB) are at a
 *     random hash's level, not exact: over 4096 n accesses the worst max/min measured 1.04 (n =
 *     16), 1.05 (32), 1.16 (40), 1.23 (48), 1.06 (64), 1.18 (80), 1.26 (96), the mean over the
 *     strides 1.02 - 1.06, where an ideal random hash gives a worst of 1.09 - 1.13. Powers of two
 *     do better than random; other counts up to 15 % worse in the worst case, from the mod-n
 *     bias below. The xor kind is exact on powers of two too but worse on these (up to 2.07).
 *
 * Why K = ceil(log2 n) + 4. H(q) mod n is uneven when 2^K is not a multiple of n: residues get
 * floor or ceil of 2^K / n values, at most 1/16 apart with 2^K >= 16 n (40 slices: 26 vs 25,
 * 4 %); for power-of-two n it is exact. More bits shrink that bias but lengthen the 2^K-group
 * cycle a power-of-two stride must complete before it is even. Worst max/min over the odd
 * strides of the test, all seven counts: +2 1.28, +3 1.41, +4 1.26, +5 1.31, +6 2.05, +8 2.43.
 *
 * Why 256 B by default. A 128 B line (the unit a coalesced request asks for) must live in one
 * slice, so the granularity is at least a line; 256 B is the DRAM channel interleave the address
 * map uses by default (dram.map.interleave_bytes) and the one GPGPU-Sim's tuned configs use
 * between channels (RTX 3070: channel bits from bit 8). GPUs interleave their L2 slices at
 * 128 B to 4 KB; any power of two from 32 B to 1 MB is accepted, and a granularity below the
 * L2 line size means the crossbar must split requests (the integrator's check, not this unit's).
 *
 * Not modelled: which channel a slice belongs to (slices per channel and the DRAM map are the
 * integrator's: to keep a slice's traffic on its own channel, derive the channel from the slice
 * or use the same chunk size for both), far/near partitions (a latency of the slice, not of the
 * hash), and hashing of address bits below the granularity.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "slice_hash.h"

/* ---------------------------------------------------------------------------------------------
 * Parameters
 */

const char *const slice_hash_kind_names[] = { "linear", "xor", "ipoly", NULL };

#define P struct slice_hash_params
const struct cfg_field slice_hash_fields[] = {
	CFG_ENUM_FIELD(P, kind, slice_hash_kind_names, "\"ipoly\"",
		       "slice of a chunk c among n: linear (c mod n), xor or ipoly (group of n "
		       "chunks rotated by an XOR-fold or polynomial hash of the group number)"),
	CFG_U32_FIELD(P, granularity_bytes, 32, 1048576, "256",
		      "bytes one slice serves before the next, a power of two, at least the L2 "
		      "line size, bytes"),
	CFG_BOOL_FIELD(P, per_channel, "false",
		       "each slice belongs to one DRAM channel, as the L2 of an NVIDIA memory "
		       "partition: slices c x n .. c x n + n - 1 (n = gpu.l2_slices_per_channel) "
		       "send their misses to channel c only, at the slice-local address; false: "
		       "dram.map decodes the whole address, so any slice reaches any channel"),
	CFG_BOOL_FIELD(P, local_index, "false",
		       "a slice indexes its sets with the slice-local address (the hash's group "
		       "number), so its lines spread over all its sets; false: with the whole "
		       "address, whose bits the hash has partly fixed"),
};
#undef P
const size_t slice_hash_nfields = sizeof slice_hash_fields / sizeof slice_hash_fields[0];
_Static_assert(sizeof slice_hash_fields / sizeof slice_hash_fields[0] == SLICE_HASH_NFIELDS,
	       "SLICE_HASH_NFIELDS must count slice_hash_fields");

/* Primitive polynomials over GF(2), degree K at index K, the x^K term included (as in LFSR tap
 * tables; test_slice_hash checks that x has order 2^K - 1 modulo each). */
static const uint32_t primitive_poly[SLICE_HASH_MAX_BITS + 1] = {
	0,
	0x3,      /* x + 1 */
	0x7,      /* x^2 + x + 1 */
	0xB,      /* x^3 + x + 1 */
	0x13,     /* x^4 + x + 1 */
	0x25,     /* x^5 + x^2 + 1 */
	0x43,     /* x^6 + x + 1 */
	0x89,     /* x^7 + x^3 + 1 */
	0x11D,    /* x^8 + x^4 + x^3 + x^2 + 1 */
	0x211,    /* x^9 + x^4 + 1 */
	0x409,    /* x^10 + x^3 + 1 */
	0x805,    /* x^11 + x^2 + 1 */
	0x1053,   /* x^12 + x^6 + x^4 + x + 1 */
	0x201B,   /* x^13 + x^4 + x^3 + x + 1 */
	0x4443,   /* x^14 + x^10 + x^6 + x + 1 */
	0x8003,   /* x^15 + x + 1 */
	0x1002D,  /* x^16 + x^5 + x^3 + x^2 + 1 */
	0x20009,  /* x^17 + x^3 + 1 */
	0x40081,  /* x^18 + x^7 + 1 */
	0x80027,  /* x^19 + x^5 + x^2 + x + 1 */
	0x100009, /* x^20 + x^3 + 1 */
};

/* ---------------------------------------------------------------------------------------------
 * Set-up
 */

static uint32_t ceil_log2(uint32_t n)
{
	uint32_t k = 0;

	while ((1ull << k) < n)
		k++;
	return k;
}

int slice_hash_init(struct slice_hash *h, const struct slice_hash_params *p, uint32_t nslices,
		    const char *group, struct sim_err *err)
{
	const char *g = group != NULL ? group : "slice_hash";
	uint32_t col[64];
	uint32_t b, j, v;

	memset(h, 0, sizeof *h);
	if (p->kind >= SLICE_HASH_KIND_COUNT)
		return sim_err_set(err, NULL, 0, "%s.kind: unknown kind %u", g, p->kind);
	if (p->granularity_bytes == 0 || (p->granularity_bytes & (p->granularity_bytes - 1)) != 0)
		return sim_err_set(err, NULL, 0,
				   "%s.granularity_bytes: %u is not a power of two", g,
				   p->granularity_bytes);
	if (nslices == 0 || nslices > SLICE_HASH_MAX_SLICES)
		return sim_err_set(err, NULL, 0, "%s: %u slices, expected 1 to %u", g, nslices,
				   SLICE_HASH_MAX_SLICES);
	h->kind = p->kind;
	h->nslices = nslices;
	h->shift = (uint32_t)__builtin_ctz(p->granularity_bytes);
	if (p->kind == SLICE_HASH_LINEAR)
		return 0;

	h->bits = ceil_log2(nslices) + SLICE_HASH_EXTRA_BITS;
	if (p->kind == SLICE_HASH_IPOLY) {
		uint64_t r = 1;

		h->poly = primitive_poly[h->bits];
		for (b = 0; b < 64; b++) {
			col[b] = (uint32_t)r; /* x^b mod P_K */
			r <<= 1;
			if (r >> h->bits & 1)
				r ^= h->poly;
		}
	} else {
		for (b = 0; b < 64; b++)
			col[b] = 1u << (b % h->bits);
	}
	for (j = 0; j < 8; j++)
		for (v = 0; v < 256; v++) {
			uint32_t x = 0;

			for (b = 0; b < 8; b++)
				if (v >> b & 1)
					x ^= col[8 * j + b];
			h->tab[j][v] = x;
		}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The map
 */

uint32_t slice_hash_offset(const struct slice_hash *h, uint64_t q)
{
	uint32_t x = 0;
	uint32_t j;

	if (h->bits == 0)
		return 0;
	for (j = 0; j < 8 && q != 0; j++, q >>= 8)
		x ^= h->tab[j][q & 0xff];
	return x;
}

/* The group's rotation, reduced mod n. */
static inline uint32_t rotation(const struct slice_hash *h, uint64_t q)
{
	return slice_hash_offset(h, q) % h->nslices;
}

uint32_t slice_hash_slice(const struct slice_hash *h, addr_t addr)
{
	uint64_t c = addr >> h->shift;
	uint64_t q = c / h->nslices;
	uint32_t r = (uint32_t)(c - q * h->nslices);
	uint32_t s = r + rotation(h, q);

	return s >= h->nslices ? s - h->nslices : s;
}

addr_t slice_hash_local(const struct slice_hash *h, addr_t addr)
{
	uint64_t q = (addr >> h->shift) / h->nslices;

	return (q << h->shift) | (addr & (((addr_t)1 << h->shift) - 1));
}

addr_t slice_hash_global(const struct slice_hash *h, uint32_t slice, addr_t local)
{
	uint64_t q = local >> h->shift;
	uint32_t rot = rotation(h, q);
	uint32_t r;

	SIM_ASSERT(slice < h->nslices);
	r = slice >= rot ? slice - rot : slice + h->nslices - rot;
	return ((q * h->nslices + r) << h->shift) | (local & (((addr_t)1 << h->shift) - 1));
}

void slice_hash_describe(const struct slice_hash *h, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s, %u slices, %u B granularity",
			 slice_hash_kind_names[h->kind], h->nslices, 1u << h->shift);

	if (h->bits != 0 && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, ", K = %u", h->bits);
	if (h->poly != 0 && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ", P = 0x%X", h->poly);
}
