/*
 * cache.c - the sectored set-associative tag store shared by L1 and L2 (contract in cache.h).
 *
 * What it models: which lines and sectors a cache holds, which bytes were written without a
 * fetch, which sectors wait for a fill, where a line goes (the set-index function) and which
 * line leaves (the replacement policy, cache_repl.c). Storage is arrays sized at creation, one
 * entry per (set, way): the tag, the line state, the written-byte mask, and two stamps.
 *
 * What it does not model: time (hit latency, tag and data ports, banks and fill-port contention
 * belong to the L1 and L2 pipelines), data values (only masks), MSHR merge lists, write and
 * allocation policies (the callers choose by calling write/clean/allocate/fill), coherence,
 * inclusion between levels, victim caches, adaptive insertion or set dueling.
 *
 * Set index (cache_set_of). line = addr / line_bytes, S = sets, k = bits to write S - 1
 * (k = ceil(log2 S); 0 when S = 1).
 *   linear  line mod S.
 *   xor     r = line mod S, q = line div S, h = the XOR of q's k-bit chunks
 *           (q & m) ^ ((q >> k) & m) ^ ((q >> 2k) & m) ^ ... with m = 2^k - 1.
 *           Power-of-two S: set = r ^ h, the classic XOR fold (every k-bit chunk of the line
 *           address XORed together; r and h are both < S). Other S: XOR could leave [0, S),
 *           so the fold is added instead: set = (r + h) mod S (a skewed modulo). Either way each
 *           aligned run of S consecutive lines still covers every set once, while power-of-two
 *           strides, which linear indexing sends to gcd-limited subsets of the sets, spread.
 *   Worked: S = 4, k = 2, lines 0, 4, 8, 12, 16 (stride 4): linear 0 0 0 0 0; xor 0 1 2 3 1.
 *           S = 96, k = 7, lines 0, 128, 256, 384 (stride 128): linear 0 32 64 0;
 *           xor 0, 32+1 = 33, 64+2 = 66, 0+4 = 4.
 *
 * Line and sector states
 *
 * A line is ABSENT or PRESENT; a present line with a pending sector is RESERVED. A present
 * line may hold no valid sector (just allocated, or its partial sectors cleaned).
 *
 *   ABSENT --cache_allocate--> PRESENT --cache_allocate(pending) / cache_reserve--> RESERVED
 *   RESERVED --cache_fill (last pending sector)--> PRESENT
 *   PRESENT --chosen as victim by cache_allocate / cache_invalidate(_all)--> ABSENT
 *   RESERVED lines are never victims and never invalidated.
 *
 * Each sector's data state, from its valid bit and its written-byte mask ("bytes"):
 *
 *                        cache_write (every byte of the sector)
 *        +-------------------------------------------------------+
 *        |                                                       v
 *   +---------+  cache_write (some)  +---------+  cache_write  +-------+
 *   | INVALID | -------------------> | PARTIAL | ------------> | DIRTY |
 *   +---------+ <------------------- +---------+ (the rest)    +-------+
 *        |         cache_clean            |                     ^   |
 *        | cache_fill                     +---cache_fill--------+   | cache_clean
 *        v                                    (merge)           |   |
 *   +-------+                 cache_write                       |   |
 *   | CLEAN | --------------------------------------------------+   |
 *   +-------+ <-----------------------------------------------------+
 *
 *   INVALID  valid 0, bytes 0         PARTIAL  valid 0, 0 < bytes < all (only those are valid)
 *   CLEAN    valid 1, bytes 0         DIRTY    valid 1, bytes != 0 (to be written back)
 *
 * Transitions -> function:
 *   INVALID -> PARTIAL    [cache_write]   some of the sector's bytes
 *   INVALID -> DIRTY      [cache_write]   all of them (a full-sector write needs no fetch)
 *   INVALID -> CLEAN      [cache_fill]
 *   PARTIAL -> PARTIAL    [cache_write]   more bytes, not all
 *   PARTIAL -> DIRTY      [cache_write]   the last missing bytes
 *   PARTIAL -> DIRTY      [cache_fill]    fetch and merge: the written bytes stay
 *   PARTIAL -> INVALID    [cache_clean]   the written bytes went down; the rest never came
 *   CLEAN   -> DIRTY      [cache_write]
 *   DIRTY   -> CLEAN      [cache_clean]
 *   CLEAN, DIRTY -> (same) [cache_fill]   nothing changes (the written bytes are newer)
 *   any     -> ABSENT     [cache_allocate's victim, cache_invalidate] written bytes go to the
 *                                         caller in struct cache_line_info
 * The pending flag is orthogonal: set on INVALID or PARTIAL sectors by cache_allocate and
 * cache_reserve, cleared by cache_fill only. A write may complete a pending sector (then it is
 * DIRTY and pending; the fill just clears the flag).
 *
 * Finding a line. A lookup compares the line's tag with each way of its set: cheap for an L2
 * slice's 16-24 ways, not for the L1s of the shipped GPUs (4 sets of 128-352 ways: a V100 naive
 * transpose spent 12% of its instructions in that walk). A cache of CACHE_HASH_ASSOC ways or more
 * also keeps a hash index of its present lines (tag -> line index; open addressing, linear probing,
 * at most three quarters full, deletion by backward shift), so a lookup costs a few probes whatever
 * the ways. A slot holds the line index + 1 in its low bits and, above them, a fingerprint of the
 * tag (the top bits of its hash, those of the home slot first): a probe reads the line's tag
 * only when the fingerprint matches, so a lookup that misses (every first touch of a streamed
 * line) reads one run of slots instead of a tag of another line at each, each of which was a host
 * cache miss on a GPU's worth of L1s (find was 8% of a validation point's CPU samples); and
 * where the fingerprint holds the whole home slot (index and slot bits fit 32: every shipped L1)
 * a deletion's backward shift reads the homes from the slots, not from the lines. The index
 * answers exactly what the walk would (a tag is present at most once), so nothing
 * simulated changes; cache_check compares the two. Such a cache also finds a free way from a bitmap
 * of its absent ways (the lowest, as the walk), and under lru or fifo keeps each set's present
 * lines in stamp order (a doubly linked list: an insert, and under lru a use, moves the line to the
 * tail), so a victim is the first line from the head with no fill pending: the evictable way with
 * the smallest stamp, as the policy's own walk over the ways would pick. The order is then all the
 * policy needs of the stamps, so such a cache keeps no stamp arrays (last_use and inserted are
 * NULL; seq still counts): what the index and links add, the stamps they make redundant more than
 * pay for (a 352-way L1 of 1408 lines: 8 + 11 KB against 22 KB).
 *
 * Invariants (cache_check):
 *   - an absent line has tag 0, no valid, dirty or pending sector and no written byte;
 *   - a present line's tag maps to its set, and no two present ways of a set share a tag;
 *   - sector masks stay within the line's sectors; no written byte lies beyond line_bytes;
 *   - a sector is dirty exactly when it has written bytes;
 *   - a sector with every byte written is valid (PARTIAL means some byte is missing);
 *   - a present line's stamps, where the cache keeps them, satisfy 0 < inserted <= last_use
 *     <= seq;
 *   - hits + sector_misses + line_misses = accesses; dirty_evictions <= evictions.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bulk.h"
#include "cache.h"
#include "req.h"

/* ---------------------------------------------------------------------------------------------
 * Parameters
 */

const char *const cache_index_names[] = {
#define X(e, n) #n,
	CACHE_INDEX_LIST(X)
#undef X
	NULL
};

const struct cfg_field cache_fields[] = { CACHE_FIELDS(NULL, NULL) };
const size_t cache_nfields = sizeof cache_fields / sizeof cache_fields[0];

static bool is_pow2(uint32_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

static uint32_t log2_floor(uint64_t v)
{
	uint32_t k = 0;

	while (v >>= 1)
		k++;
	return k;
}

int cache_params_check(const struct cache_params *p, const char *g, struct sim_err *err)
{
	uint64_t size = (uint64_t)p->size_kb * 1024, set_bytes;
	const struct cache_repl_ops *repl;
	uint32_t sectors;

	if (!is_pow2(p->line_bytes))
		return sim_err_set(err, NULL, 0, "%s.line_bytes: %u B is not a power of two", g,
				   p->line_bytes);
	if (p->line_bytes < 16 || p->line_bytes > CACHE_MAX_LINE_BYTES)
		return sim_err_set(err, NULL, 0, "%s.line_bytes: %u B is outside 16 .. %u B", g,
				   p->line_bytes, CACHE_MAX_LINE_BYTES);
	if (!is_pow2(p->sector_bytes))
		return sim_err_set(err, NULL, 0, "%s.sector_bytes: %u B is not a power of two", g,
				   p->sector_bytes);
	if (p->sector_bytes > p->line_bytes)
		return sim_err_set(err, NULL, 0,
				   "%s.sector_bytes: %u B exceeds %s.line_bytes (%u B)", g,
				   p->sector_bytes, g, p->line_bytes);
	sectors = p->line_bytes / p->sector_bytes;
	if (sectors > CACHE_MAX_SECTORS)
		return sim_err_set(err, NULL, 0,
				   "%s.sector_bytes: %u B sectors make %u per %u B line; "
				   "at most %u", g, p->sector_bytes, sectors, p->line_bytes,
				   CACHE_MAX_SECTORS);
	if (p->assoc < 1 || p->assoc > CACHE_MAX_ASSOC)
		return sim_err_set(err, NULL, 0, "%s.assoc: %u ways is outside 1 .. %u", g,
				   p->assoc, CACHE_MAX_ASSOC);
	set_bytes = (uint64_t)p->line_bytes * p->assoc;
	if (size < set_bytes)
		return sim_err_set(err, NULL, 0,
				   "%s.size_kb: %u KB is smaller than one set (%u B x %u ways)", g,
				   p->size_kb, p->line_bytes, p->assoc);
	if (size % set_bytes != 0)
		return sim_err_set(err, NULL, 0,
				   "%s.size_kb: %u KB is not a multiple of line x ways (%u B x %u)",
				   g, p->size_kb, p->line_bytes, p->assoc);
	if (size / set_bytes > UINT32_MAX)
		return sim_err_set(err, NULL, 0, "%s.size_kb: %u KB makes more than 2^32 - 1 sets",
				   g, p->size_kb);
	if (p->index >= CACHE_INDEX_COUNT)
		return sim_err_set(err, NULL, 0, "%s.index: %u is not a set-index function", g,
				   p->index);
	repl = cache_repl_get(p->replacement);
	if (repl == NULL)
		return sim_err_set(err, NULL, 0, "%s.replacement: %u is not a policy", g,
				   p->replacement);
	if (repl->check != NULL && repl->check(p->assoc, g, err) != 0)
		return -1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Byte masks
 */

#define BYTE_WORDS (CACHE_MAX_LINE_BYTES / 64)

struct cache_bytes *cache_bytes_set(struct cache_bytes *b, uint32_t off, uint32_t len)
{
	uint32_t i;

	SIM_ASSERT(off <= CACHE_MAX_LINE_BYTES && len <= CACHE_MAX_LINE_BYTES - off);
	for (i = off; i < off + len; i++)
		b->w[i / 64] |= 1ull << (i % 64);
	return b;
}

bool cache_bytes_empty(const struct cache_bytes *b)
{
	uint32_t i;

	for (i = 0; i < BYTE_WORDS; i++)
		if (b->w[i] != 0)
			return false;
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * State
 */

struct cline {
	uint8_t valid;    /* sectors CLEAN or DIRTY */
	uint8_t dirty;    /* sectors with written bytes */
	uint8_t pending;  /* sectors with a fill outstanding */
	bool present;
};

struct cache {
	struct cache_params p;
	struct cache_geom g;
	char *prefix;               /* for cache_dump */
	uint32_t line_shift;        /* log2(line_bytes) */
	uint32_t index_bits;        /* k of the xor index: ceil(log2(sets)) */
	bool sets_pow2;
	uint64_t sets_magic;        /* UINT64_MAX / sets + 1: line % sets without a division */
	uint32_t mask_words;        /* uint64_t words of written-byte mask per line */
	uint64_t line_bits_mask;    /* valid bits of the last mask word */
	struct cache_bytes sector_bm[CACHE_MAX_SECTORS]; /* every byte of sector s */
	size_t nlines;              /* sets * assoc */
	struct cline *lines;        /* [nlines], (set, way) at set * assoc + way */
	/* [nlines]: line address (addr / line_bytes) + 1 when present, 0 when absent. Apart from
	 * the lines' state, so that a set's tag walk reads 8 B a way: the walk's host cache misses
	 * were most of find's time (line_bytes >= 16, so the + 1 never wraps). */
	uint64_t *keys;
	uint64_t *bytes;            /* [nlines * mask_words]: written bytes */
	uint64_t *last_use;         /* [nlines]; NULL with the stamp order (ord_head) */
	uint64_t *inserted;         /* [nlines]; likewise */
	uint64_t *evictable;        /* scratch bitmap for cache_allocate, [ceil(assoc / 64)] */
	uint64_t seq;               /* last stamp handed out */
	const struct cache_repl_ops *repl;
	void *repl_st;
	struct cache_stats st;
	cache_index_fn *index_fn;   /* NULL: index with the line number itself */
	const void *index_ctx;
	/* hash index of the present lines (see the top): slot = fingerprint << hx_ibits | (line
	 * index + 1), 0 empty; NULL below CACHE_HASH_ASSOC ways */
	uint32_t *hx;
	uint32_t hx_mask;           /* slots - 1 (a power of two, >= 4/3 x nlines) */
	uint32_t hx_shift;          /* 64 - log2(slots) */
	uint32_t hx_ibits;          /* bits of a slot's line index + 1 (nlines + 1 fits) */
	uint32_t hx_imask;          /* (1 << hx_ibits) - 1 */
	bool hx_fp_home;            /* a slot's top 64 - hx_shift bits are its home slot */
	/* with hx: bit w of freebits[set * fw ..]: way w is absent */
	uint64_t *freebits;
	uint32_t fw;                /* words per set */
	/* with hx, under lru or fifo: each set's present lines in stamp order (line indices;
	 * ORD_NIL ends), oldest at ord_head[set]; NULL otherwise */
	uint32_t *ord_prev, *ord_next, *ord_head, *ord_tail;
	bool ord_on_use;            /* lru: a use restamps the line (moves it to the tail) */
};

#define ORD_NIL UINT32_MAX

/* The line address of present line i. */
static inline uint64_t line_tag(const struct cache *c, size_t i)
{
	return c->keys[i] - 1;
}

/* Ways from which a cache keeps a hash index of its lines. */
#define CACHE_HASH_ASSOC 32

static size_t line_idx(const struct cache *c, uint32_t set, uint32_t way)
{
	return (size_t)set * c->g.assoc + way;
}

static void line_bytes_get(const struct cache *c, size_t i, struct cache_bytes *b)
{
	memset(b, 0, sizeof *b);
	memcpy(b->w, &c->bytes[i * c->mask_words], c->mask_words * sizeof b->w[0]);
}

static void line_bytes_put(struct cache *c, size_t i, const struct cache_bytes *b)
{
	memcpy(&c->bytes[i * c->mask_words], b->w, c->mask_words * sizeof b->w[0]);
}

/* True if b has a byte beyond the line. */
static bool bytes_beyond_line(const struct cache *c, const struct cache_bytes *b)
{
	uint32_t i;

	if (b->w[c->mask_words - 1] & ~c->line_bits_mask)
		return true;
	for (i = c->mask_words; i < BYTE_WORDS; i++)
		if (b->w[i] != 0)
			return true;
	return false;
}

/* a & b != 0, from all words: an exit at the first that meets went either way on the data and
 * was mispredicted about once a call */
static bool bytes_meet(const struct cache_bytes *a, const struct cache_bytes *b)
{
	uint64_t any = 0;
	uint32_t i;

	for (i = 0; i < BYTE_WORDS; i++)
		any |= a->w[i] & b->w[i];
	return any != 0;
}

/* a is a subset of b */
static bool bytes_within(const struct cache_bytes *a, const struct cache_bytes *b)
{
	uint32_t i;

	for (i = 0; i < BYTE_WORDS; i++)
		if (a->w[i] & ~b->w[i])
			return false;
	return true;
}

static struct cache_bytes bytes_and(const struct cache_bytes *a, const struct cache_bytes *b)
{
	struct cache_bytes r;
	uint32_t i;

	for (i = 0; i < BYTE_WORDS; i++)
		r.w[i] = a->w[i] & b->w[i];
	return r;
}

/* The hash slot line number line starts its probe at (Fibonacci hashing). */
static inline uint32_t hx_home(const struct cache *c, uint64_t line)
{
	return (uint32_t)((line * UINT64_C(0x9E3779B97F4A7C15)) >> c->hx_shift);
}

/* The slot value of line i whose tag is line: the top 32 - hx_ibits bits of the hash (whose
 * first 64 - hx_shift are the home slot's), then i + 1. */
static inline uint32_t hx_entry(const struct cache *c, uint64_t line, size_t i)
{
	uint64_t h = line * UINT64_C(0x9E3779B97F4A7C15);

	return ((uint32_t)(h >> 32) & ~c->hx_imask) | ((uint32_t)i + 1);
}

/* The home slot of slot value e's line. */
static inline uint32_t hx_home_of(const struct cache *c, uint32_t e)
{
	if (c->hx_fp_home)
		return e >> (c->hx_shift - 32);
	return hx_home(c, line_tag(c, (e & c->hx_imask) - 1));
}

/* Files present line i (tag set) in the hash index. */
static void hx_insert(struct cache *c, size_t i)
{
	uint32_t h = hx_home(c, line_tag(c, i));

	while (c->hx[h] != 0)
		h = (h + 1) & c->hx_mask;
	c->hx[h] = hx_entry(c, line_tag(c, i), i);
}

/* Takes present line i out of the hash index: the entries after its slot that probed past it
 * move back (backward-shift deletion), so every probe still ends at an empty slot. */
static void hx_remove(struct cache *c, size_t i)
{
	uint32_t h = hx_home(c, line_tag(c, i)), hole, j;

	while ((c->hx[h] & c->hx_imask) != (uint32_t)i + 1) {
		SIM_ASSERT(c->hx[h] != 0);
		h = (h + 1) & c->hx_mask;
	}
	hole = h;
	for (j = (hole + 1) & c->hx_mask; c->hx[j] != 0; j = (j + 1) & c->hx_mask) {
		uint32_t home = hx_home_of(c, c->hx[j]);

		/* it may fill the hole unless its home lies cyclically in (hole, j] */
		if (((j - home) & c->hx_mask) >= ((j - hole) & c->hx_mask)) {
			c->hx[hole] = c->hx[j];
			hole = j;
		}
	}
	c->hx[hole] = 0;
}

/* Links line i (of set) at the tail of its set's stamp order: its stamp is the newest. */
static void ord_append(struct cache *c, uint32_t set, size_t i)
{
	uint32_t t = c->ord_tail[set];

	c->ord_prev[i] = t;
	c->ord_next[i] = ORD_NIL;
	if (t == ORD_NIL)
		c->ord_head[set] = (uint32_t)i;
	else
		c->ord_next[t] = (uint32_t)i;
	c->ord_tail[set] = (uint32_t)i;
}

static void ord_unlink(struct cache *c, uint32_t set, size_t i)
{
	uint32_t p = c->ord_prev[i], n = c->ord_next[i];

	if (p == ORD_NIL)
		c->ord_head[set] = n;
	else
		c->ord_next[p] = n;
	if (n == ORD_NIL)
		c->ord_tail[set] = p;
	else
		c->ord_prev[n] = p;
}

/* Empties line i, of set. */
static void line_clear(struct cache *c, uint32_t set, size_t i)
{
	if (c->hx != NULL && c->lines[i].present) {
		uint32_t way = (uint32_t)(i - line_idx(c, set, 0));

		hx_remove(c, i);
		c->freebits[(size_t)set * c->fw + way / 64] |= 1ull << (way % 64);
		if (c->ord_head != NULL)
			ord_unlink(c, set, i);
	}
	memset(&c->lines[i], 0, sizeof c->lines[i]);
	c->keys[i] = 0;
	memset(&c->bytes[i * c->mask_words], 0, c->mask_words * sizeof c->bytes[0]);
}

static void line_info(const struct cache *c, size_t i, struct cache_line_info *out)
{
	const struct cline *l = &c->lines[i];

	memset(out, 0, sizeof *out);
	if (!l->present)
		return;
	out->present = true;
	out->addr = line_tag(c, i) << c->line_shift;
	out->set = (uint32_t)(i / c->g.assoc);
	out->way = (uint32_t)(i % c->g.assoc);
	out->valid = l->valid;
	out->dirty = l->dirty;
	out->pending = l->pending;
	line_bytes_get(c, i, &out->bytes);
}

/* ---------------------------------------------------------------------------------------------
 * Creation
 */

static double hit_rate(const void *ctx)
{
	const struct cache_stats *s = ctx;

	return s->accesses == 0 ? NAN : (double)s->hits / (double)s->accesses;
}

static void register_stats(struct cache *c, struct stats *st, const char *prefix)
{
	static const struct stats_counter_def counters[] = {
#define C(f, d) STATS_COUNTER_DEF(struct cache_stats, f, d)
		C(accesses, "accesses looked up (cache_access)"),
		C(hits, "accesses whose every requested byte was present"),
		C(sector_misses, "accesses to a present line missing a requested sector or byte"),
		C(line_misses, "accesses whose line was absent"),
		C(evictions, "lines replaced to make room"),
		C(dirty_evictions, "evicted lines with written bytes, handed back for write-back"),
		C(alloc_fails, "allocations refused because every way of the set was reserved"),
#undef C
	};
	char name[256];

	stats_counters(st, prefix, &c->st, counters, sizeof counters / sizeof counters[0]);
	snprintf(name, sizeof name, "%s.hit_rate", prefix);
	stats_formula(st, name, "hits / accesses (NaN before the first access)", hit_rate, &c->st);
}

struct cache *cache_create(const struct cache_params *p, uint64_t seed, struct stats *st,
			   const char *prefix)
{
	struct cache *c;
	struct sim_err err;
	uint32_t s;

	if (cache_params_check(p, prefix != NULL ? prefix : "cache", &err) != 0) {
		sim_warn("cache_create: %s", err.msg);
		sim_assert_fail("cache_params_check(p) == 0", __FILE__, __LINE__);
	}
	c = xcalloc(1, sizeof *c);
	c->p = *p;
	c->prefix = xstrdup(prefix != NULL ? prefix : "cache");
	c->g.line_bytes = p->line_bytes;
	c->g.sector_bytes = p->sector_bytes;
	c->g.sectors = p->line_bytes / p->sector_bytes;
	c->g.full_mask = (1u << c->g.sectors) - 1;
	c->g.assoc = p->assoc;
	c->g.sets = (uint32_t)((uint64_t)p->size_kb * 1024 / ((uint64_t)p->line_bytes * p->assoc));
	c->line_shift = log2_floor(p->line_bytes);
	c->sets_pow2 = is_pow2(c->g.sets);
	c->sets_magic = UINT64_MAX / c->g.sets + 1;
	c->index_bits = c->g.sets == 1 ? 0 : log2_floor(c->g.sets - 1) + 1;
	c->mask_words = (p->line_bytes + 63) / 64;
	c->line_bits_mask = p->line_bytes % 64 == 0 ? ~0ull : (1ull << (p->line_bytes % 64)) - 1;
	for (s = 0; s < c->g.sectors; s++)
		cache_bytes_set(&c->sector_bm[s], s * p->sector_bytes, p->sector_bytes);
	c->nlines = (size_t)c->g.sets * c->g.assoc;
	c->lines = bulk_calloc(c->nlines, sizeof *c->lines);
	c->keys = bulk_calloc(c->nlines, sizeof *c->keys);
	c->bytes = bulk_calloc(c->nlines * c->mask_words, sizeof *c->bytes);
	c->evictable = xcalloc((c->g.assoc + 63) / 64, sizeof *c->evictable);
	if (c->g.assoc >= CACHE_HASH_ASSOC) {
		uint32_t bits = 1;

		/* at most three quarters full (a 1408-line L1: 2048 slots) */
		while ((UINT64_C(3) << bits) < 4 * (uint64_t)c->nlines)
			bits++;
		SIM_ASSERT(bits < 32);
		c->hx = bulk_calloc((size_t)1 << bits, sizeof *c->hx);
		c->hx_mask = (uint32_t)((UINT64_C(1) << bits) - 1);
		c->hx_shift = 64 - bits;
		/* the index in the low bits, the hash's top bits above: the home slot's whole
		 * when both fit (a 1408-line L1: 11 + 11 bits) */
		c->hx_ibits = 1;
		while ((UINT64_C(1) << c->hx_ibits) <= c->nlines)
			c->hx_ibits++;
		SIM_ASSERT(c->hx_ibits < 32);
		c->hx_imask = (uint32_t)((UINT64_C(1) << c->hx_ibits) - 1);
		c->hx_fp_home = bits + c->hx_ibits <= 32;
		c->fw = (c->g.assoc + 63) / 64;
		c->freebits = bulk_calloc((size_t)c->g.sets * c->fw, sizeof *c->freebits);
		for (s = 0; s < c->g.sets; s++) {
			uint32_t w;

			for (w = 0; w < c->g.assoc; w++)
				c->freebits[(size_t)s * c->fw + w / 64] |= 1ull << (w % 64);
		}
		if (p->replacement == CACHE_REPL_LRU || p->replacement == CACHE_REPL_FIFO) {
			c->ord_prev = bulk_calloc(c->nlines, sizeof *c->ord_prev);
			c->ord_next = bulk_calloc(c->nlines, sizeof *c->ord_next);
			c->ord_head = bulk_calloc(c->g.sets, sizeof *c->ord_head);
			c->ord_tail = bulk_calloc(c->g.sets, sizeof *c->ord_tail);
			for (s = 0; s < c->g.sets; s++)
				c->ord_head[s] = c->ord_tail[s] = ORD_NIL;
			c->ord_on_use = p->replacement == CACHE_REPL_LRU;
		}
	}
	if (c->ord_head == NULL) {
		c->last_use = bulk_calloc(c->nlines, sizeof *c->last_use);
		c->inserted = bulk_calloc(c->nlines, sizeof *c->inserted);
	}
	c->repl = cache_repl_get(p->replacement);
	c->repl_st = c->repl->init != NULL ? c->repl->init(c->g.sets, c->g.assoc, seed) : NULL;
	if (st != NULL)
		register_stats(c, st, c->prefix);
	return c;
}

void cache_destroy(struct cache *c)
{
	if (c == NULL)
		return;
	if (c->repl->fini != NULL)
		c->repl->fini(c->repl_st);
	bulk_free(c->hx);
	bulk_free(c->freebits);
	bulk_free(c->ord_prev);
	bulk_free(c->ord_next);
	bulk_free(c->ord_head);
	bulk_free(c->ord_tail);
	free(c->evictable);
	bulk_free(c->inserted);
	bulk_free(c->last_use);
	bulk_free(c->bytes);
	bulk_free(c->keys);
	bulk_free(c->lines);
	free(c->prefix);
	free(c);
}

const struct cache_geom *cache_geom(const struct cache *c)
{
	return &c->g;
}

const struct cache_stats *cache_stats(const struct cache *c)
{
	return &c->st;
}

/* ---------------------------------------------------------------------------------------------
 * Index and lookup
 */

/* line % sets. Every lookup needs it and sets is a run-time value (48 in a 96 KB 16-way slice),
 * so a line number below 2^32 uses Lemire's fastmod (exact for 32-bit numerators and divisors:
 * Lemire, Kaser, Kurz, "Faster remainder by direct computation", 2019); others divide. */
static uint64_t line_mod_sets(const struct cache *c, uint64_t line)
{
	if (line <= UINT32_MAX && c->g.sets <= UINT32_MAX)
		return (uint64_t)(((unsigned __int128)(c->sets_magic * line) * c->g.sets) >> 64);
	return line % c->g.sets;
}

static uint32_t set_of_line(const struct cache *c, uint64_t line)
{
	uint64_t sets = c->g.sets, r, q, h = 0, m;

	if (c->index_fn != NULL)
		line = c->index_fn(c->index_ctx, line);

	if (c->p.index == CACHE_INDEX_LINEAR || sets == 1)
		return (uint32_t)line_mod_sets(c, line);
	r = line % sets;
	q = line / sets;
	m = (1ull << c->index_bits) - 1;
	for (; q != 0; q >>= c->index_bits)
		h ^= q & m;
	if (c->sets_pow2)
		return (uint32_t)(r ^ h);
	return (uint32_t)((r + h) % sets);
}

void cache_set_index_fn(struct cache *c, cache_index_fn *fn, const void *ctx)
{
	c->index_fn = fn;
	c->index_ctx = ctx;
}

uint32_t cache_set_of(const struct cache *c, addr_t addr)
{
	return set_of_line(c, addr >> c->line_shift);
}

uint32_t cache_sectors_of(const struct cache *c, const struct cache_bytes *b)
{
	uint32_t s, m = 0;

	for (s = 0; s < c->g.sectors; s++)
		m |= (uint32_t)bytes_meet(b, &c->sector_bm[s]) << s;
	return m;
}

struct cache_bytes cache_sector_bytes(const struct cache *c, uint32_t mask)
{
	struct cache_bytes b;
	uint32_t s, i;

	memset(&b, 0, sizeof b);
	for (mask &= c->g.full_mask; mask != 0; mask &= mask - 1) {
		s = (uint32_t)__builtin_ctz(mask);
		for (i = 0; i < BYTE_WORDS; i++)
			b.w[i] |= c->sector_bm[s].w[i];
	}
	return b;
}

/* Index of addr's line in lines[], or -1; *set gets the set. */
static ptrdiff_t find(const struct cache *c, addr_t addr, uint32_t *set)
{
	uint64_t line = addr >> c->line_shift, key = line + 1;
	const uint64_t *keys;
	uint32_t w;

	*set = set_of_line(c, line);
	if (c->hx != NULL) {
		uint32_t h = hx_home(c, line), want = hx_entry(c, line, 0), fp = ~c->hx_imask, e;

		/* want's index part is 1 (line 0): only the fingerprints are compared */
		for (; (e = c->hx[h]) != 0; h = (h + 1) & c->hx_mask)
			if (((e ^ want) & fp) == 0 && c->keys[(e & c->hx_imask) - 1] == key)
				return (ptrdiff_t)(e & c->hx_imask) - 1;
		return -1;
	}
	keys = &c->keys[line_idx(c, *set, 0)];
	for (w = 0; w < c->g.assoc; w++)
		if (keys[w] == key) /* an absent way's key is 0 */
			return keys + w - c->keys;
	return -1;
}

/* Index of addr's line, which must be present. */
static size_t find_present(const struct cache *c, addr_t addr)
{
	uint32_t set;
	ptrdiff_t i = find(c, addr, &set);

	SIM_ASSERT(i >= 0);
	return (size_t)i;
}

/* A use of line i (of set). */
static void stamp_use(struct cache *c, uint32_t set, size_t i)
{
	++c->seq;
	if (c->last_use != NULL)
		c->last_use[i] = c->seq;
	if (c->ord_on_use) {
		if (c->ord_tail[set] != (uint32_t)i) {
			ord_unlink(c, set, i);
			ord_append(c, set, i);
		}
	}
	if (c->repl->touch != NULL)
		c->repl->touch(c->repl_st, (uint32_t)(i / c->g.assoc), (uint32_t)(i % c->g.assoc));
}

enum cache_outcome cache_probe(const struct cache *c, addr_t addr, uint32_t sectors,
			       const struct cache_bytes *bytes, struct cache_lookup *out)
{
	struct cache_bytes written;
	const struct cline *l;
	ptrdiff_t i;
	uint32_t s;

	SIM_ASSERT(sectors != 0 && (sectors & ~c->g.full_mask) == 0);
	SIM_ASSERT(bytes == NULL || !bytes_beyond_line(c, bytes));
	memset(out, 0, sizeof *out);
	i = find(c, addr, &out->set);
	out->way = -1;
	if (i < 0) {
		out->miss = sectors;
		out->outcome = CACHE_LINE_MISS;
		return out->outcome;
	}
	l = &c->lines[i];
	out->way = (int32_t)((size_t)i % c->g.assoc);
	if (bytes != NULL)
		line_bytes_get(c, (size_t)i, &written);
	for (s = 0; s < c->g.sectors; s++) {
		uint32_t bit = 1u << s;

		if (!(sectors & bit))
			continue;
		if (l->valid & bit) {
			out->hit |= bit;
			continue;
		}
		if (bytes != NULL) {
			struct cache_bytes need = bytes_and(bytes, &c->sector_bm[s]);

			SIM_ASSERT(!cache_bytes_empty(&need));
			if (bytes_within(&need, &written)) {
				/* every needed byte of a PARTIAL sector was written */
				out->hit |= bit;
				continue;
			}
		}
		out->miss |= bit;
		if (l->pending & bit)
			out->pending |= bit;
	}
	out->outcome = out->miss != 0 ? CACHE_SECTOR_MISS : CACHE_HIT;
	return out->outcome;
}

enum cache_outcome cache_access(struct cache *c, addr_t addr, uint32_t sectors,
				const struct cache_bytes *bytes, struct cache_lookup *out)
{
	enum cache_outcome o = cache_probe(c, addr, sectors, bytes, out);

	c->st.accesses++;
	switch (o) {
	case CACHE_HIT:
		c->st.hits++;
		break;
	case CACHE_SECTOR_MISS:
		c->st.sector_misses++;
		break;
	default:
		c->st.line_misses++;
		break;
	}
	if (out->way >= 0)
		stamp_use(c, out->set, line_idx(c, out->set, (uint32_t)out->way));
	return o;
}

bool cache_touch(struct cache *c, addr_t addr)
{
	uint32_t set;
	ptrdiff_t i = find(c, addr, &set);

	if (i < 0)
		return false;
	stamp_use(c, set, (size_t)i);
	return true;
}

bool cache_line(const struct cache *c, addr_t addr, struct cache_line_info *out)
{
	uint32_t set;
	ptrdiff_t i = find(c, addr, &set);

	if (i < 0) {
		memset(out, 0, sizeof *out);
		return false;
	}
	line_info(c, (size_t)i, out);
	return true;
}

uint32_t cache_pending_ways(const struct cache *c, uint32_t set, int32_t skip,
			    cache_line_pred *pred, const void *ctx)
{
	size_t base = line_idx(c, set, 0);
	uint32_t way, n = 0;

	SIM_ASSERT(set < c->g.sets && (skip < 0 || (uint32_t)skip < c->g.assoc));
	for (way = 0; way < c->g.assoc; way++) {
		size_t i = base + way;

		if ((int32_t)way != skip && c->lines[i].present && c->lines[i].pending != 0 &&
		    pred(ctx, (addr_t)line_tag(c, i) << c->line_shift))
			n++;
	}
	return n;
}

/* ---------------------------------------------------------------------------------------------
 * Allocation and line updates
 */

/* The victim of a full set under lru or fifo with the stamp order: its oldest line with no fill
 * pending (the way), UINT32_MAX if every way waits for one. */
static uint32_t ord_victim(const struct cache *c, uint32_t set)
{
	uint32_t k;

	for (k = c->ord_head[set]; k != ORD_NIL && c->lines[k].pending != 0; k = c->ord_next[k])
		;
	return k == ORD_NIL ? UINT32_MAX : (uint32_t)(k - line_idx(c, set, 0));
}

/* The policy's victim among a full set's ways with no fill pending, UINT32_MAX if none. */
static uint32_t policy_victim(struct cache *c, uint32_t set)
{
	size_t base = line_idx(c, set, 0);
	struct cache_repl_set rs;
	uint32_t w, way, nev = 0;

	memset(c->evictable, 0, (c->g.assoc + 63) / 64 * sizeof *c->evictable);
	for (w = 0; w < c->g.assoc; w++) {
		if (c->lines[base + w].pending == 0) {
			c->evictable[w / 64] |= 1ull << (w % 64);
			nev++;
		}
	}
	if (nev == 0)
		return UINT32_MAX;
	rs.set = set;
	rs.assoc = c->g.assoc;
	rs.last_use = &c->last_use[base];
	rs.inserted = &c->inserted[base];
	rs.evictable = c->evictable;
	way = c->repl->victim(c->repl_st, &rs);
	SIM_ASSERT(way < c->g.assoc && ((c->evictable[way / 64] >> (way % 64)) & 1));
	return way;
}

int cache_allocate(struct cache *c, addr_t addr, uint32_t pending, struct cache_line_info *victim)
{
	uint64_t line = addr >> c->line_shift;
	uint32_t set, w, way = UINT32_MAX;
	size_t base, i;

	SIM_ASSERT((pending & ~c->g.full_mask) == 0);
	/* find gives the set (not inside SIM_ASSERT: --disable-asserts compiles that out) */
	i = (size_t)find(c, addr, &set);
	SIM_ASSERT(i == (size_t)-1);
	base = line_idx(c, set, 0);
	memset(victim, 0, sizeof *victim);
	if (c->hx != NULL) {
		/* the lowest absent way, from the bitmap */
		const uint64_t *fb = &c->freebits[(size_t)set * c->fw];

		for (w = 0; w < c->fw; w++)
			if (fb[w] != 0) {
				way = w * 64 + (uint32_t)__builtin_ctzll(fb[w]);
				break;
			}
	} else {
		for (w = 0; w < c->g.assoc; w++) {
			if (!c->lines[base + w].present) {
				way = w;
				break;
			}
		}
	}
	if (way == UINT32_MAX) {
		way = c->ord_head != NULL ? ord_victim(c, set) : policy_victim(c, set);
		if (way == UINT32_MAX) {
			c->st.alloc_fails++;
			return -1;
		}
		line_info(c, base + way, victim);
		c->st.evictions++;
		if (victim->dirty != 0)
			c->st.dirty_evictions++;
	}
	i = base + way;
	line_clear(c, set, i);
	c->lines[i].present = true;
	c->keys[i] = line + 1;
	if (c->hx != NULL) {
		hx_insert(c, i);
		c->freebits[(size_t)set * c->fw + way / 64] &= ~(1ull << (way % 64));
		if (c->ord_head != NULL)
			ord_append(c, set, i);
	}
	c->lines[i].pending = (uint8_t)pending;
	++c->seq;
	if (c->last_use != NULL)
		c->inserted[i] = c->last_use[i] = c->seq;
	if (c->repl->insert != NULL)
		c->repl->insert(c->repl_st, set, way);
	return (int)way;
}

void cache_reserve(struct cache *c, addr_t addr, uint32_t sectors)
{
	struct cline *l = &c->lines[find_present(c, addr)];

	SIM_ASSERT((sectors & ~c->g.full_mask) == 0);
	SIM_ASSERT((sectors & (l->valid | l->pending)) == 0);
	l->pending |= (uint8_t)sectors;
}

uint32_t cache_line_at(const struct cache *c, uint32_t set, uint32_t way)
{
	SIM_ASSERT(set < c->g.sets && way < c->g.assoc && c->nlines <= UINT32_MAX);
	return (uint32_t)line_idx(c, set, way);
}

void cache_fill_at(struct cache *c, uint32_t i, addr_t addr, uint32_t sectors)
{
	struct cline *l;

	SIM_ASSERT(i < c->nlines && (sectors & ~c->g.full_mask) == 0);
#ifdef SIM_DEBUG
	SIM_ASSERT(find_present(c, addr) == i);
#else
	(void)addr;
#endif
	l = &c->lines[i];
	l->valid |= (uint8_t)sectors;
	l->pending &= (uint8_t)~sectors;
}

void cache_fill(struct cache *c, addr_t addr, uint32_t sectors)
{
	cache_fill_at(c, (uint32_t)find_present(c, addr), addr, sectors);
}

void cache_write(struct cache *c, addr_t addr, const struct cache_bytes *bytes)
{
	size_t i = find_present(c, addr);
	struct cline *l = &c->lines[i];
	struct cache_bytes written;
	uint32_t s, w;

	SIM_ASSERT(!cache_bytes_empty(bytes) && !bytes_beyond_line(c, bytes));
	line_bytes_get(c, i, &written);
	for (w = 0; w < BYTE_WORDS; w++)
		written.w[w] |= bytes->w[w];
	line_bytes_put(c, i, &written);
	for (s = 0; s < c->g.sectors; s++) {
		if (!bytes_meet(bytes, &c->sector_bm[s]))
			continue;
		l->dirty |= (uint8_t)(1u << s);
		if (bytes_within(&c->sector_bm[s], &written))
			l->valid |= (uint8_t)(1u << s);
	}
}

void cache_clean(struct cache *c, addr_t addr, uint32_t sectors)
{
	size_t i = find_present(c, addr);
	struct cline *l = &c->lines[i];
	struct cache_bytes written;
	uint32_t s, w;

	SIM_ASSERT((sectors & ~c->g.full_mask) == 0);
	line_bytes_get(c, i, &written);
	for (s = 0; s < c->g.sectors; s++)
		if (sectors & (1u << s))
			for (w = 0; w < BYTE_WORDS; w++)
				written.w[w] &= ~c->sector_bm[s].w[w];
	line_bytes_put(c, i, &written);
	l->dirty &= (uint8_t)~sectors;
}

bool cache_invalidate(struct cache *c, addr_t addr, struct cache_line_info *out)
{
	struct cache_line_info tmp;
	uint32_t set;
	ptrdiff_t i = find(c, addr, &set);

	if (out == NULL)
		out = &tmp;
	if (i < 0) {
		memset(out, 0, sizeof *out);
		return false;
	}
	SIM_ASSERT(c->lines[i].pending == 0);
	line_info(c, (size_t)i, out);
	line_clear(c, set, (size_t)i);
	return true;
}

void cache_invalidate_all(struct cache *c)
{
	size_t i;

	for (i = 0; i < c->nlines; i++) /* all checked before any is dropped */
		SIM_ASSERT(c->lines[i].pending == 0 && c->lines[i].dirty == 0);
	for (i = 0; i < c->nlines; i++)
		line_clear(c, (uint32_t)(i / c->g.assoc), i);
}

bool cache_next_dirty(const struct cache *c, uint32_t *cursor, struct cache_line_info *out)
{
	size_t i;

	for (i = *cursor; i < c->nlines; i++) {
		if (c->lines[i].present && c->lines[i].dirty != 0) {
			line_info(c, i, out);
			*cursor = (uint32_t)(i + 1);
			return true;
		}
	}
	*cursor = (uint32_t)c->nlines;
	memset(out, 0, sizeof *out);
	return false;
}

uint64_t cache_flush(struct cache *c, cache_flush_fn *fn, void *ctx)
{
	struct cache_line_info l;
	uint32_t cur = 0;
	uint64_t n = 0;

	while (cache_next_dirty(c, &cur, &l)) {
		fn(ctx, &l);
		cache_clean(c, l.addr, l.dirty);
		n++;
	}
	return n;
}

/* ---------------------------------------------------------------------------------------------
 * Debugging
 */

const char *cache_repl_state(const struct cache *c, uint32_t set, char *buf, size_t size)
{
	SIM_ASSERT(set < c->g.sets && size > 0);
	buf[0] = '\0';
	if (c->repl->state != NULL)
		c->repl->state(c->repl_st, set, c->g.assoc, buf, size);
	return buf;
}

static void dump_line(const struct cache *c, size_t i, FILE *out)
{
	const struct cline *l = &c->lines[i];
	uint32_t w;

	fprintf(out, "  set %zu way %zu: line 0x%llx valid 0x%x dirty 0x%x pending 0x%x ",
		i / c->g.assoc, i % c->g.assoc, (unsigned long long)(line_tag(c, i) << c->line_shift),
		l->valid, l->dirty, l->pending);
	if (c->last_use != NULL) {
		fprintf(out, "used %llu ins %llu ", (unsigned long long)c->last_use[i],
			(unsigned long long)c->inserted[i]);
	} else {
		/* no stamps (see the top): the line's place in its set's order, 0 the oldest */
		uint32_t k, rank = 0;

		for (k = c->ord_head[i / c->g.assoc]; k != (uint32_t)i; k = c->ord_next[k])
			rank++;
		fprintf(out, "order %u ", rank);
	}
	fputs("bytes 0x", out);
	for (w = c->mask_words; w-- > 0;)
		fprintf(out, "%016llx", (unsigned long long)c->bytes[i * c->mask_words + w]);
	fputc('\n', out);
}

void cache_dump(const struct cache *c, FILE *out)
{
	uint64_t present = 0, reserved = 0, dirty = 0;
	bool all = c->nlines <= CACHE_DUMP_ALL_LINES;
	size_t i;

	for (i = 0; i < c->nlines; i++) {
		present += c->lines[i].present;
		reserved += c->lines[i].pending != 0;
		dirty += c->lines[i].dirty != 0;
	}
	fprintf(out, "cache %s: %u sets x %u ways x %u B lines (%u x %u B sectors), %u KB, "
		"index %s, replacement %s\n", c->prefix, c->g.sets, c->g.assoc, c->g.line_bytes,
		c->g.sectors, c->g.sector_bytes, c->p.size_kb, cache_index_names[c->p.index],
		c->repl->name);
	fprintf(out, "  lines: %llu present, %llu reserved, %llu dirty; seq %llu\n",
		(unsigned long long)present, (unsigned long long)reserved,
		(unsigned long long)dirty, (unsigned long long)c->seq);
	fprintf(out, "  accesses %llu hits %llu sector_misses %llu line_misses %llu evictions %llu "
		"dirty_evictions %llu alloc_fails %llu\n", (unsigned long long)c->st.accesses,
		(unsigned long long)c->st.hits, (unsigned long long)c->st.sector_misses,
		(unsigned long long)c->st.line_misses, (unsigned long long)c->st.evictions,
		(unsigned long long)c->st.dirty_evictions, (unsigned long long)c->st.alloc_fails);
	for (i = 0; i < c->nlines; i++)
		if (all ? c->lines[i].present : c->lines[i].pending != 0)
			dump_line(c, i, out);
}

void cache_check(const struct cache *c)
{
	uint32_t set, w, w2, s;

	for (set = 0; set < c->g.sets; set++) {
		for (w = 0; w < c->g.assoc; w++) {
			size_t i = line_idx(c, set, w);
			const struct cline *l = &c->lines[i];
			struct cache_bytes b;

			line_bytes_get(c, i, &b);
			if (!l->present) {
				SIM_ASSERT(c->keys[i] == 0 && l->valid == 0 && l->dirty == 0 &&
					   l->pending == 0 && cache_bytes_empty(&b));
				continue;
			}
			SIM_ASSERT(c->keys[i] != 0 && set_of_line(c, line_tag(c, i)) == set);
			for (w2 = w + 1; w2 < c->g.assoc; w2++)
				SIM_ASSERT(c->keys[line_idx(c, set, w2)] != c->keys[i]);
			SIM_ASSERT(((l->valid | l->dirty | l->pending) & ~c->g.full_mask) == 0);
			SIM_ASSERT(!bytes_beyond_line(c, &b));
			for (s = 0; s < c->g.sectors; s++) {
				bool has = bytes_meet(&b, &c->sector_bm[s]);
				bool full = bytes_within(&c->sector_bm[s], &b);

				SIM_ASSERT(has == (((l->dirty >> s) & 1) != 0));
				SIM_ASSERT(!full || ((l->valid >> s) & 1));
			}
			SIM_ASSERT(c->last_use == NULL ||
				   (c->inserted[i] > 0 && c->inserted[i] <= c->last_use[i] &&
				    c->last_use[i] <= c->seq));
		}
	}
	SIM_ASSERT(c->st.hits + c->st.sector_misses + c->st.line_misses == c->st.accesses);
	SIM_ASSERT(c->st.dirty_evictions <= c->st.evictions);
	if (c->hx != NULL) {
		/* the hash index holds exactly the present lines, each where a probe finds it; the
		 * free bitmap marks the absent ways; the stamp order links every present line of
		 * its set */
		size_t i, present = 0, filed = 0, linked = 0;

		for (set = 0; set < c->g.sets; set++) {
			uint32_t k, prev = ORD_NIL;

			for (w = 0; w < c->g.assoc; w++)
				SIM_ASSERT(((c->freebits[(size_t)set * c->fw + w / 64] >> (w % 64)) & 1) ==
					   !c->lines[line_idx(c, set, w)].present);
			if (c->ord_head == NULL)
				continue;
			/* (its order against the stamps: test_cache's reference model) */
			for (k = c->ord_head[set]; k != ORD_NIL; prev = k, k = c->ord_next[k]) {
				SIM_ASSERT(k / c->g.assoc == set && c->lines[k].present &&
					   c->ord_prev[k] == prev);
				linked++;
			}
			SIM_ASSERT(c->ord_tail[set] == prev);
		}

		for (i = 0; i <= c->hx_mask; i++)
			if (c->hx[i] != 0) {
				size_t k = (c->hx[i] & c->hx_imask) - 1;

				/* a present line's slot, with its tag's fingerprint */
				SIM_ASSERT(k < c->nlines && c->lines[k].present &&
					   c->hx[i] == hx_entry(c, line_tag(c, k), k));
				filed++;
			}
		for (i = 0; i < c->nlines; i++) {
			uint32_t in_set;

			if (!c->lines[i].present)
				continue;
			present++;
			SIM_ASSERT(find(c, line_tag(c, i) << c->line_shift, &in_set) == (ptrdiff_t)i);
		}
		SIM_ASSERT(filed == present);
		SIM_ASSERT(c->ord_head == NULL || linked == present);
	}
}

_Static_assert(sizeof cache_fields / sizeof cache_fields[0] == CACHE_NFIELDS,
	       "CACHE_NFIELDS must count cache_fields");

bool cache_bytes_of_req(const struct mem_req *r, struct cache_bytes *b)
{
	memset(b, 0, sizeof *b);
	b->w[0] = r->byte_mask[0];
	b->w[1] = r->byte_mask[1];
	return !cache_bytes_empty(b);
}

void cache_lookup_head(struct cache *c, const void **seen, const void *req, addr_t line,
		       uint32_t sectors, const struct cache_bytes *bytes, struct cache_lookup *out)
{
	if (*seen != req) {
		cache_access(c, line, sectors, bytes, out);
		*seen = req;
	} else {
		cache_probe(c, line, sectors, bytes, out);
	}
}
