/*
 * addrmap.c - the DRAM address map: byte address <-> (channel, pseudo-channel, bank group, bank,
 * row, column), a mixed-radix decomposition with optional row hashing.
 *
 * Models what a GPU's address slicing does between the L2 and the memory controllers: it decides
 * which channel, bank and row a byte lands in, and so how evenly a stream of requests spreads.
 *
 * Decomposition (see addrmap.h). b = addr / burst_bytes is split, least significant first, into
 *   col_lo = b mod (interleave_bytes / burst_bytes), then the six fields of `order` read right to
 *   left, with "col" standing for col_hi = bursts_per_row / col_lo. Every field but the most
 *   significant takes quotient mod size; the most significant takes quotient mod size too, and a
 *   quotient >= size (an address at or past capacity_bytes) is counted in m->wrapped. Sizes need
 *   not be powers of two, so 12 channels or 60 data bursts per row (inline ECC) work unchanged.
 *
 * Hashing. Only the row feeds the hash and the row is never changed, so each hash is, for a fixed
 * row, a permutation of one field: the map stays a bijection on [0, capacity_bytes) and
 * addrmap_encode undoes it exactly. For a field of size n hashed by the row digit sequence x
 * (x = row for the channel and the bank group, x = row / bank_groups for the bank):
 *
 *     s = x mod n, q = x / n           (the row's own low digit, and the block of n rows)
 *     h = s XOR mix(q)  (n a power of two: field ^= h & (n - 1))
 *     h = s + mix(q)    (otherwise:        field = (field + h) mod n)
 *     mix(q) = t ^ (t >> 16), t = q * 0x9E3779B1 mod 2^32
 *
 * mix is a multiplicative (Fibonacci) hash, 2^32 / golden ratio, xor-folded so that its well-mixed
 * high half reaches the low bits that the fields use; mix(0) = 0. What this buys:
 *   - n consecutive rows of an aligned block of n (same column, same pre-hash field) land on n
 *     different channels (banks): s runs through every value and mix(q) is fixed. Consecutive
 *     rows differ everywhere except possibly across a block boundary.
 *   - strides of whole blocks of rows (powers of two in particular, which defeat plain
 *     interleaving) change q, and mix(q) moves the field pseudo-randomly.
 *   - the bank group takes the lowest row digit and the bank the next (x = row / bank_groups), so
 *     bank_groups * banks_per_group consecutive rows visit every bank of a channel.
 *
 * Not modelled: hashing of the pseudo-channel or the column, address holes, per-channel capacity
 * differences, and vendor hash functions (NVIDIA's are not public). The map knows nothing of
 * timing: which layout is best is measured by running it.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "addrmap.h"
#include "log.h"

/* ---------------------------------------------------------------------------------------------
 * Parameters
 */

const struct cfg_field addrmap_fields[] = {
	CFG_STR_FIELD(struct addrmap_params, order, "\"row:col:ba:bg:pc:ch\"",
		      "address fields, most significant first: each of ch pc bg ba row col once, "
		      "':'-separated (field names)"),
	CFG_U32_FIELD(struct addrmap_params, interleave_bytes, 32, 1048576, "256",
		      "bytes one channel serves before the next takes over, a multiple of the "
		      "burst dividing the row, bytes"),
	CFG_BOOL_FIELD(struct addrmap_params, hash_channel, "true",
		       "spread rows over channels: channel hashed with the row (boolean)"),
	CFG_BOOL_FIELD(struct addrmap_params, hash_bank, "true",
		       "spread rows over bank groups and banks: both hashed with the row "
		       "(boolean)"),
};
const size_t addrmap_nfields = sizeof addrmap_fields / sizeof addrmap_fields[0];

/* Field names as written in dram.map.order, indexed by enum addrmap_field. */
static const char *const field_names[AM_FIELD_COUNT] = { "ch", "pc", "bg", "ba", "row", "col" };

/* ---------------------------------------------------------------------------------------------
 * Hashing
 */

/* 2^32 / golden ratio, odd: multiplication by it permutes 32-bit values (Knuth's Fibonacci
 * hashing). */
#define ADDRMAP_MIX_MUL 0x9E3779B1u

static uint32_t mix(uint32_t q)
{
	uint32_t t = q * ADDRMAP_MIX_MUL;

	return t ^ (t >> 16);
}

static bool is_pow2(uint32_t n)
{
	return (n & (n - 1)) == 0;
}

/* struct addrmap's lg[] of a size that is not a power of two */
#define LG_NONE 0xFFu

/* q / n and q % n, with a shift and a mask when n is a power of two: decoding is on the path of
 * every request, and a 64-bit division by a variable costs tens of cycles. */
static inline uint64_t divmod(uint64_t q, uint32_t n, uint32_t *rem)
{
	if ((n & (n - 1)) == 0) {
		*rem = (uint32_t)(q & (n - 1));
		return q >> __builtin_ctz(n);
	}
	*rem = (uint32_t)(q % n);
	return q / n;
}

/* The hashed value of field v (size n; lg its log2 when n is a power of two, else LG_NONE) for
 * row digits x; undo inverts it (XOR, for a power of two, is its own inverse). */
static uint32_t hash_apply(uint32_t v, uint32_t n, uint8_t lg, uint32_t x, bool undo)
{
	uint64_t h; /* 64-bit sums: n may exceed 2^31 */

	if (lg != LG_NONE) /* n = 1 too: the mask is 0 */
		return v ^ ((x ^ mix(x >> lg)) & (n - 1));
	h = ((uint64_t)(x % n) + mix(x / n) % n) % n;
	return (uint32_t)(undo ? ((uint64_t)v + n - h) % n : ((uint64_t)v + h) % n);
}

/* Applies (undo false) or removes (undo true) the hashes the params ask for. */
static inline void hash_fields(const struct addrmap *m, struct dram_addr *a, bool undo)
{
	const struct addrmap_geom *g = &m->g;

	if (m->p.hash_channel)
		a->ch = hash_apply(a->ch, g->channels, m->lg[AM_CH], a->row, undo);
	if (m->p.hash_bank) {
		uint32_t rows_bg = m->lg[AM_BG] != LG_NONE ? a->row >> m->lg[AM_BG]
							   : a->row / g->bank_groups;

		a->bg = hash_apply(a->bg, g->bank_groups, m->lg[AM_BG], a->row, undo);
		a->ba = hash_apply(a->ba, g->banks_per_group, m->lg[AM_BA], rows_bg, undo);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Set-up
 */

static uint32_t field_size(const struct addrmap *m, enum addrmap_field f)
{
	switch (f) {
	case AM_CH:
		return m->g.channels;
	case AM_PC:
		return m->g.pcs;
	case AM_BG:
		return m->g.bank_groups;
	case AM_BA:
		return m->g.banks_per_group;
	case AM_ROW:
		return m->g.rows;
	default:
		return m->col_hi;
	}
}

/* Appends text to the string in buf (truncating at size). */
static void append(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "%s", text);
}

/* Appends "verb a, b and c" for the fields f with count[f] in [lo, hi], after a ", " if buf
 * already says something. */
static void append_fields(char *buf, size_t size, const char *verb, const unsigned *count,
			  unsigned lo, unsigned hi)
{
	size_t n = 0, k = 0, i;

	for (i = 0; i < AM_FIELD_COUNT; i++)
		n += count[i] >= lo && count[i] <= hi;
	if (n == 0)
		return;
	append(buf, size, buf[0] != '\0' ? ", " : " ");
	append(buf, size, verb);
	for (i = 0; i < AM_FIELD_COUNT; i++) {
		if (count[i] < lo || count[i] > hi)
			continue;
		append(buf, size, k == 0 ? " " : (k + 1 == n ? " and " : ", "));
		append(buf, size, field_names[i]);
		k++;
	}
}

/*
 * Parses "row:col:ba:bg:pc:ch" into m->order (least significant first). On error returns -1 with
 * every problem in err, in this order: unknown or empty names, repeated names, missing names.
 */
static int parse_order(struct addrmap *m, const char *order, struct sim_err *err)
{
	enum addrmap_field msb_first[AM_FIELD_COUNT];
	unsigned seen[AM_FIELD_COUNT] = { 0 };
	char what[SIM_ERR_MSG_MAX / 2] = "";
	char item[CFG_STR_MAX + 32];
	const char *p = order;
	size_t ntok = 0, i;
	bool unknown = false;

	for (;;) {
		const char *end = strchr(p, ':');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		int f = -1;

		for (i = 0; i < AM_FIELD_COUNT; i++)
			if (strlen(field_names[i]) == len && strncmp(p, field_names[i], len) == 0)
				f = (int)i;
		if (f >= 0) {
			if (seen[f]++ == 0)
				msb_first[ntok++] = (enum addrmap_field)f;
		} else {
			if (len == 0)
				snprintf(item, sizeof item, "%shas an empty field",
					 what[0] != '\0' ? ", " : " ");
			else
				snprintf(item, sizeof item, "%shas unknown field \"%.*s\"",
					 what[0] != '\0' ? ", " : " ", (int)len, p);
			append(what, sizeof what, item);
			unknown = true;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
	append_fields(what, sizeof what, "repeats", seen, 2, ~0u);
	append_fields(what, sizeof what, "lacks", seen, 0, 0);
	if (unknown)
		append(what, sizeof what, " (fields: ch, pc, bg, ba, row, col)");
	if (what[0] != '\0')
		return sim_err_set(err, NULL, 0, "dram.map.order: \"%s\"%s", order, what);
	for (i = 0; i < AM_FIELD_COUNT; i++)
		m->order[i] = msb_first[AM_FIELD_COUNT - 1 - i];
	return 0;
}

static uint8_t log2_of(uint32_t n)
{
	return (uint8_t)__builtin_ctz(n);
}

/* Each field's log2 (for the hashes), and the shifts and masks of the power-of-two decode when
 * every size is a power of two. */
static void set_shifts(struct addrmap *m)
{
	const struct addrmap_geom *g = &m->g;
	unsigned bit = 0;
	int i;

	m->pow2 = is_pow2(g->burst_bytes) && is_pow2(m->col_lo);
	for (i = 0; i < AM_FIELD_COUNT; i++) {
		bool p2 = is_pow2(m->order_size[i]);

		m->lg[m->order[i]] = p2 ? log2_of(m->order_size[i]) : LG_NONE;
		m->pow2 = m->pow2 && p2;
	}
	if (!m->pow2)
		return;
	m->burst_shift = log2_of(g->burst_bytes);
	m->lo_bits = log2_of(m->col_lo);
	for (i = 0; i < AM_FIELD_COUNT; i++) {
		m->pos[m->order[i]] = (uint8_t)bit;
		m->mask[m->order[i]] = m->order_size[i] - 1;
		bit += m->lg[m->order[i]];
	}
	SIM_ASSERT(bit + m->lo_bits + m->burst_shift < 64); /* the capacity is below 2^64 */
	m->top = (uint8_t)bit;
}

int addrmap_init(struct addrmap *m, const struct addrmap_params *p, const struct addrmap_geom *g,
		 struct sim_err *err)
{
	uint64_t row_bytes, cap;
	enum addrmap_field f;

	SIM_ASSERT(m != NULL && p != NULL && g != NULL);
	SIM_ASSERT(g->channels >= 1 && g->pcs >= 1 && g->bank_groups >= 1);
	SIM_ASSERT(g->banks_per_group >= 1 && g->rows >= 1);
	SIM_ASSERT(g->bursts_per_row >= 1 && g->burst_bytes >= 1);
	memset(m, 0, sizeof *m);
	m->g = *g;
	m->p = *p;
	if (parse_order(m, p->order, err) < 0)
		return -1;
	row_bytes = (uint64_t)g->bursts_per_row * g->burst_bytes;
	if (p->interleave_bytes == 0 || p->interleave_bytes % g->burst_bytes != 0)
		return sim_err_set(err, NULL, 0,
				   "dram.map.interleave_bytes: %" PRIu32 " is not a multiple of "
				   "the %" PRIu32 " B burst",
				   p->interleave_bytes, g->burst_bytes);
	if (row_bytes % p->interleave_bytes != 0)
		return sim_err_set(err, NULL, 0,
				   "dram.map.interleave_bytes: %" PRIu32 " does not divide the "
				   "%" PRIu64 " B row (%" PRIu32 " bursts of %" PRIu32 " B)",
				   p->interleave_bytes, row_bytes, g->bursts_per_row,
				   g->burst_bytes);
	m->col_lo = p->interleave_bytes / g->burst_bytes;
	m->col_hi = g->bursts_per_row / m->col_lo;
	for (f = AM_CH; f < AM_FIELD_COUNT; f++)
		m->order_size[f] = field_size(m, m->order[f]);
	cap = row_bytes;
	for (f = AM_CH; f < AM_FIELD_COUNT; f++) {
		if (f == AM_COL)
			continue;
		if (__builtin_mul_overflow(cap, (uint64_t)field_size(m, f), &cap))
			return sim_err_set(err, NULL, 0,
					   "dram.map: the organisation holds 2^64 bytes or more");
	}
	m->capacity_bytes = cap;
	set_shifts(m);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Decode and encode
 */

static uint32_t *field_ptr(struct dram_addr *a, enum addrmap_field f)
{
	switch (f) {
	case AM_CH:
		return &a->ch;
	case AM_PC:
		return &a->pc;
	case AM_BG:
		return &a->bg;
	case AM_BA:
		return &a->ba;
	case AM_ROW:
		return &a->row;
	default:
		return &a->col;
	}
}

/* The interleave chunk of addr, q = (addr / burst_bytes) / col_lo, and in *lo the burst's place
 * in it: every field of an address but the column's low part is its chunk's (the hashes read the
 * row alone), which decode_chunk finds and addrmap_decode_memo keeps. */
static inline uint64_t chunk_of(const struct addrmap *m, addr_t addr, uint32_t *lo)
{
	uint64_t bi;
	uint32_t r;

	if (m->pow2) {
		bi = addr >> m->burst_shift;
		*lo = (uint32_t)bi & (m->col_lo - 1);
		return bi >> m->lo_bits;
	}
	bi = divmod(addr, m->g.burst_bytes, &r);
	return divmod(bi, m->col_lo, lo);
}

/* The fields of chunk q, the column that of its first burst (a multiple of col_lo); returns
 * whether the chunk wrapped (was at or past the capacity). Every size a power of two
 * (m->pow2): each field with a shift and a mask, the loop's result. */
static bool decode_chunk(const struct addrmap *m, uint64_t q, struct dram_addr *out)
{
	uint32_t v[AM_FIELD_COUNT];
	bool wrapped;
	int i;

	if (m->pow2) {
		out->ch = (uint32_t)(q >> m->pos[AM_CH]) & m->mask[AM_CH];
		out->pc = (uint32_t)(q >> m->pos[AM_PC]) & m->mask[AM_PC];
		out->bg = (uint32_t)(q >> m->pos[AM_BG]) & m->mask[AM_BG];
		out->ba = (uint32_t)(q >> m->pos[AM_BA]) & m->mask[AM_BA];
		out->row = (uint32_t)(q >> m->pos[AM_ROW]) & m->mask[AM_ROW];
		out->col = ((uint32_t)(q >> m->pos[AM_COL]) & m->mask[AM_COL]) << m->lo_bits;
		wrapped = (q >> m->top) != 0;
	} else {
		for (i = 0; i < AM_FIELD_COUNT; i++)
			q = divmod(q, m->order_size[i], &v[m->order[i]]);
		out->ch = v[AM_CH];
		out->pc = v[AM_PC];
		out->bg = v[AM_BG];
		out->ba = v[AM_BA];
		out->row = v[AM_ROW];
		out->col = v[AM_COL] * m->col_lo;
		wrapped = q != 0;
	}
	hash_fields(m, out, false);
	return wrapped;
}

void addrmap_decode(struct addrmap *m, addr_t addr, struct dram_addr *out)
{
	uint32_t lo;

	if (decode_chunk(m, chunk_of(m, addr, &lo), out))
		m->wrapped++;
	out->col += lo;
}

/* The chunk's fields from the memo, decoded first if it holds another chunk. */
static const struct addrmap_memo *memo_chunk(const struct addrmap *m, struct addrmap_memo *memo,
					     addr_t addr, uint32_t *lo)
{
	uint64_t q = chunk_of(m, addr, lo);

	if (memo->key != q + 1) {
		memo->wrapped = decode_chunk(m, q, &memo->a);
		memo->key = q + 1;
	}
#ifdef SIM_DEBUG
	{
		struct dram_addr check;

		SIM_ASSERT(decode_chunk(m, q, &check) == memo->wrapped);
		SIM_ASSERT(memcmp(&check, &memo->a, sizeof check) == 0);
	}
#endif
	return memo;
}

void addrmap_decode_memo(struct addrmap *m, struct addrmap_memo *memo, addr_t addr,
			 struct dram_addr *out)
{
	uint32_t lo;
	const struct addrmap_memo *c = memo_chunk(m, memo, addr, &lo);

	*out = c->a;
	out->col += lo;
	m->wrapped += c->wrapped;
}

uint32_t addrmap_channel(const struct addrmap *m, addr_t addr)
{
	struct dram_addr a;
	uint32_t lo;

	decode_chunk(m, chunk_of(m, addr, &lo), &a);
	return a.ch;
}

uint32_t addrmap_channel_memo(const struct addrmap *m, struct addrmap_memo *memo, addr_t addr)
{
	uint32_t lo;

	return memo_chunk(m, memo, addr, &lo)->a.ch;
}

addr_t addrmap_encode(const struct addrmap *m, const struct dram_addr *a)
{
	struct dram_addr u = *a;
	uint64_t b = 0;
	int i;

	SIM_ASSERT(a->ch < m->g.channels && a->pc < m->g.pcs && a->bg < m->g.bank_groups);
	SIM_ASSERT(a->ba < m->g.banks_per_group && a->row < m->g.rows);
	SIM_ASSERT(a->col < m->g.bursts_per_row);
	hash_fields(m, &u, true);
	u.col /= m->col_lo;
	for (i = AM_FIELD_COUNT - 1; i >= 0; i--)
		b = b * field_size(m, m->order[i]) + *field_ptr(&u, m->order[i]);
	b = b * m->col_lo + a->col % m->col_lo;
	return b * m->g.burst_bytes;
}

/* ---------------------------------------------------------------------------------------------
 * Reports
 */

static const char *hash_kind(uint32_t n)
{
	return is_pow2(n) ? "xor" : "add";
}

void addrmap_describe(const struct addrmap *m, char *buf, size_t size)
{
	char tmp[64];
	int i;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (i = AM_FIELD_COUNT - 1; i >= 0; i--) {
		snprintf(tmp, sizeof tmp, "%s%s[%" PRIu32 "]", i == AM_FIELD_COUNT - 1 ? "" : ":",
			 field_names[m->order[i]], field_size(m, m->order[i]));
		append(buf, size, tmp);
	}
	snprintf(tmp, sizeof tmp, ":col[%" PRIu32 "] x %" PRIu32 " B", m->col_lo,
		 m->g.burst_bytes);
	append(buf, size, tmp);
	if (!m->p.hash_channel && !m->p.hash_bank) {
		append(buf, size, "; no hash");
		return;
	}
	append(buf, size, "; hash");
	if (m->p.hash_channel) {
		snprintf(tmp, sizeof tmp, " ch (%s)", hash_kind(m->g.channels));
		append(buf, size, tmp);
	}
	if (m->p.hash_bank) {
		snprintf(tmp, sizeof tmp, "%s bg (%s), ba (%s)", m->p.hash_channel ? "," : "",
			 hash_kind(m->g.bank_groups), hash_kind(m->g.banks_per_group));
		append(buf, size, tmp);
	}
}

_Static_assert(sizeof addrmap_fields / sizeof addrmap_fields[0] == ADDRMAP_NFIELDS, "ADDRMAP_NFIELDS must count addrmap_fields");
