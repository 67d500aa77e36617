/*
 * addrmap.h - physical address -> DRAM coordinates (channel, pseudo-channel, bank group, bank,
 * row, column), for any channel count, with optional hashing.
 *
 * The map is a mixed-radix decomposition of the burst index (address / burst_bytes), so field
 * sizes need not be powers of two (12 channels, 60 data bursts per row under inline ECC):
 *   - the lowest interleave_bytes / burst_bytes bursts are the low column bits (col_lo): one
 *     channel serves that many consecutive bursts before the next channel takes over;
 *   - then the fields named in `order`, from least to most significant (order is written most
 *     significant first, like DRAMsim3's "rochrababgco": "row:col:ba:bg:pc:ch"); "col" there is
 *     the rest of the column (col_hi);
 *   - the most significant field takes what is left modulo its size (addresses past the capacity
 *     wrap; addrmap_decode counts them).
 * Hashing spreads rows over channels and banks: with hash_channel, ch = (ch + h(row)) mod
 * channels (XOR when channels is a power of two); with hash_bank the same for bank and bank
 * group. h mixes the row bits. Both keep the map a bijection (row is unchanged), so
 * addrmap_encode inverts addrmap_decode exactly.
 */
#ifndef SIM_ADDRMAP_H
#define SIM_ADDRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "log.h"
#include "types.h"

/* dram.map */
struct addrmap_params {
	char order[CFG_STR_MAX];   /* "row:col:ba:bg:pc:ch", most significant first */
	uint32_t interleave_bytes; /* bytes one channel serves before the next; multiple of burst */
	bool hash_channel;
	bool hash_bank;
};

extern const struct cfg_field addrmap_fields[];
extern const size_t addrmap_nfields;
#define ADDRMAP_NFIELDS 4 /* entries of addrmap_fields[] (checked in the .c) */

/* The sizes of the fields, from the DRAM organisation. */
struct addrmap_geom {
	uint32_t channels, pcs, bank_groups, banks_per_group, rows;
	uint32_t bursts_per_row; /* data column positions per row (after any inline-ECC share) */
	uint32_t burst_bytes;
};

struct dram_addr {
	uint32_t ch, pc, bg, ba, row, col; /* ba: bank within its group; col: burst index in row */
};

enum addrmap_field { AM_CH, AM_PC, AM_BG, AM_BA, AM_ROW, AM_COL, AM_FIELD_COUNT };

struct addrmap {
	struct addrmap_geom g;
	struct addrmap_params p;
	uint32_t col_lo;                  /* bursts per interleave chunk */
	uint32_t col_hi;                  /* bursts_per_row / col_lo */
	enum addrmap_field order[AM_FIELD_COUNT]; /* least significant first */
	uint32_t order_size[AM_FIELD_COUNT];      /* the size of each field of order */
	uint64_t capacity_bytes;          /* data bytes the map covers */
	uint64_t wrapped;                 /* decodes of addresses >= capacity */
	/* Every size a power of two (the default config's map, the V100's, the RTX 3070's; not
	 * 12, 24 or 40 channels or inline ECC's 60-burst rows): addrmap_decode takes each field
	 * with a shift and a mask, the mixed-radix loop's result without its loop and branches
	 * (test_addrmap compares the two). Clearing pow2 after addrmap_init forces the loop. */
	bool pow2;
	uint8_t burst_shift, lo_bits;     /* log2 of burst_bytes and of col_lo */
	uint8_t top;                      /* bits of the fields above col_lo, all together */
	uint8_t pos[AM_FIELD_COUNT];      /* each field's lowest bit above col_lo */
	uint32_t mask[AM_FIELD_COUNT];    /* each field's size - 1 */
	uint8_t lg[AM_FIELD_COUNT];       /* each field's log2, 0xFF if not a power of two */
};

/* Checks p against g and fills m. Returns 0, or -1 with err naming the dram.map key at fault
 * (bad order string, interleave not a multiple of the burst or not dividing the row). */
int addrmap_init(struct addrmap *m, const struct addrmap_params *p, const struct addrmap_geom *g,
		 struct sim_err *err);
/* Decodes a byte address. Never fails; addresses past the capacity wrap (and are counted). */
void addrmap_decode(struct addrmap *m, addr_t addr, struct dram_addr *out);
/* The channel addrmap_decode puts addr in (nothing counted): for a requester that only routes. */
uint32_t addrmap_channel(const struct addrmap *m, addr_t addr);
/*
 * The same decodes for a caller that decodes runs of nearby addresses (an L2 slice's sector
 * misses, a controller's accesses as a slice sends them, the bursts of a DRAM trace's request):
 * every field of an address but the column's lowest part is its interleave chunk's
 * (dram.map.interleave_bytes; the hashes read the row alone), so the memo keeps the last chunk
 * decoded and an address in it costs a copy. The same answers (and wrapped count) as
 * addrmap_decode and addrmap_channel. A memo is the caller's, for one map; zeroed, it holds
 * nothing.
 */
struct addrmap_memo {
	uint64_t key;        /* the chunk held, plus one (0: none) */
	struct dram_addr a;  /* its fields, col its first burst's */
	bool wrapped;        /* whether it is at or past the capacity */
};
void addrmap_decode_memo(struct addrmap *m, struct addrmap_memo *memo, addr_t addr,
			 struct dram_addr *out);
uint32_t addrmap_channel_memo(const struct addrmap *m, struct addrmap_memo *memo, addr_t addr);
/* The lowest byte address that decodes to a (inverse of addrmap_decode). */
addr_t addrmap_encode(const struct addrmap *m, const struct dram_addr *a);
/* "row:col:ba:bg:pc:ch" style description of the effective map, for reports. */
void addrmap_describe(const struct addrmap *m, char *buf, size_t size);

#endif /* SIM_ADDRMAP_H */
