/*
 * slice_hash.h - which L2 slice owns an address, for any number of slices (16, 40, 48, 80, 96 ...),
 * not only powers of two.
 *
 * The address is cut into chunks of granularity_bytes; c = addr / granularity_bytes. Chunks are
 * dealt to the n slices in groups of n consecutive chunks: q = c / n is the group, r = c mod n
 * the position in it, and
 *
 *     slice = (r + (H(q) mod n)) mod n
 *
 * where H is a GF(2) matrix (bit fields of q combined by XOR) with K = ceil(log2 n) + 4 output
 * bits:
 *     linear  H = 0                           slice = c mod n
 *     xor     H(q) = XOR of the K-bit fields of q (bits 0..K-1, K..2K-1, ...)
 *     ipoly   H(q) = q(x) mod P_K(x) over GF(2), P_K a primitive polynomial of degree K
 *             (Rau's irreducible-polynomial hash, applied to the group number)
 * Within a group the map is a rotation, so every n consecutive aligned chunks land on n
 * different slices whatever the hash, and each slice owns exactly one chunk of each group: the
 * slice-local address (slice_hash_local) is q, and the map is a bijection. The hash moves the
 * rotation from group to group, which is what spreads strides that are multiples of the group.
 * See slice_hash.c for why K and what evenness was measured.
 */
#ifndef SIM_SLICE_HASH_H
#define SIM_SLICE_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "log.h"
#include "types.h"

enum slice_hash_kind { SLICE_HASH_LINEAR, SLICE_HASH_XOR, SLICE_HASH_IPOLY, SLICE_HASH_KIND_COUNT };

/* l2.slice_hash (the group name is the integrator's) */
struct slice_hash_params {
	uint32_t kind;              /* enum slice_hash_kind */
	uint32_t granularity_bytes; /* bytes one slice serves before the next; a power of two */
	bool per_channel;           /* slice i serves DRAM channel i / slices per channel only */
	bool local_index;           /* a slice indexes its sets with slice-local addresses */
};

extern const char *const slice_hash_kind_names[];
extern const struct cfg_field slice_hash_fields[];
extern const size_t slice_hash_nfields;
#define SLICE_HASH_NFIELDS 4 /* entries of slice_hash_fields[] (checked in the .c) */

#define SLICE_HASH_MAX_SLICES 65536
#define SLICE_HASH_EXTRA_BITS 4   /* K = ceil(log2 n) + this; see slice_hash.c */
#define SLICE_HASH_MAX_BITS 20    /* K for 65536 slices */

struct slice_hash {
	uint32_t kind;
	uint32_t nslices;
	uint32_t shift;          /* log2(granularity_bytes) */
	uint32_t bits;           /* K; 0 for linear */
	uint32_t poly;           /* ipoly: P_K with its x^K term; 0 otherwise */
	uint32_t tab[8][256];    /* H byte-sliced: tab[j][v] = H(v << 8j) */
};

/* Fills h for nslices slices. Returns 0, or -1 with err naming "<group>.<key>" (granularity not
 * a power of two, slice count 0 or above SLICE_HASH_MAX_SLICES). group may be NULL. */
int slice_hash_init(struct slice_hash *h, const struct slice_hash_params *p, uint32_t nslices,
		    const char *group, struct sim_err *err);
/* The slice that owns addr, in [0, nslices). */
uint32_t slice_hash_slice(const struct slice_hash *h, addr_t addr);
/* H(q) for group number q (0 for linear), before the mod n. */
uint32_t slice_hash_offset(const struct slice_hash *h, uint64_t q);
/* The address within its slice: (q << shift) | offset in the chunk. Dense: the chunks one slice
 * owns are numbered 0, 1, 2 ... in address order. For the slice's set index (no slice bits in
 * it, so no set camping). */
addr_t slice_hash_local(const struct slice_hash *h, addr_t addr);
/* The inverse: the address that slice_hash_slice maps to slice and slice_hash_local to local. */
addr_t slice_hash_global(const struct slice_hash *h, uint32_t slice, addr_t local);
/* "ipoly, 80 slices, 256 B granularity, K = 11, P = 0x805" style, for reports. */
void slice_hash_describe(const struct slice_hash *h, char *buf, size_t size);

#endif /* SIM_SLICE_HASH_H */
