/*
 * cache.h - the tag store shared by L1 and L2: a sectored, set-associative cache with per-sector
 * valid, dirty and pending bits, per-byte write masks, a set-index function and a replacement
 * policy chosen by name.
 *
 * This is a data structure, not a pipeline: it holds no requests, has no latency and makes no
 * policy decision (write-through or write-back, allocate on miss or on fill, fetch on write or
 * not). The L1 and L2 units and their MSHRs decide; the cache answers "which sectors of this
 * request are here", keeps the line states, and chooses victims among the ways that may go.
 *
 * Geometry. size = sets x assoc x line_bytes; line_bytes and sector_bytes are powers of two,
 * a line holds 1 to CACHE_MAX_SECTORS sectors; the set count may be any integer >= 1 (a 48 KB,
 * 4-way cache of 128 B lines has 96 sets). Addresses are byte addresses; a "line address" is
 * addr / line_bytes, and every function that takes addr accepts any byte of the line.
 *
 * Line and sector states (diagram and transition table in cache.c):
 *   a line is ABSENT or PRESENT; a present line with any pending sector is RESERVED: it is
 *     never chosen as a victim and may not be invalidated (its fill would find no line);
 *   a sector's data is INVALID, PARTIAL (only the written bytes are valid: written without a
 *     fetch), CLEAN, or DIRTY (valid, with written bytes not yet written back); independently
 *     it may be PENDING (a fill is outstanding, set by cache_allocate / cache_reserve, cleared
 *     by cache_fill). A fill merges under written bytes: they are newer than memory.
 *
 * Ownership and failure, for every function below: struct cache_params and the strings passed
 * in are copied or only read during the call; out-structs (struct cache_lookup, struct
 * cache_line_info) belong to the caller and are filled by the call. Contract violations (a
 * fill or write to an absent line, allocating a line that is present, invalidating a reserved
 * line, sector bits beyond the line) are simulator bugs and fail SIM_ASSERT. The only refusal a
 * caller must handle is cache_allocate's -1 (every way of the set is reserved): the requester
 * stalls and retries, as with any backpressure.
 */
#ifndef SIM_CACHE_H
#define SIM_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"
#include "log.h"
#include "stats.h"
#include "types.h"

/* ---------------------------------------------------------------------------------------------
 * Parameters
 */

#define CACHE_MAX_SECTORS    8    /* sector masks are uint32_t with 8 bits used */
#define CACHE_MAX_LINE_BYTES 256  /* two GPU lines; bounds struct cache_bytes */
#define CACHE_MAX_ASSOC      1024 /* a 128 KB fully associative L1 of 128 B lines */

/* Set-index functions (names are the config values): linear = line address mod sets; xor =
 * the line address's higher bits folded into the index (definition and worked numbers in
 * cache.c), valid for any set count. An L2 slice that owns every n-th line should pass an
 * address with the slice bits removed, or use xor, so that its sets are all used. */
#define CACHE_INDEX_LIST(X) \
	X(LINEAR, linear)   \
	X(XOR, xor)
enum cache_index {
#define X(e, n) CACHE_INDEX_##e,
	CACHE_INDEX_LIST(X)
#undef X
	CACHE_INDEX_COUNT
};
/* NULL-terminated, in enum order. */
extern const char *const cache_index_names[];

/* Replacement policies (cache_repl.c; names are the config values). */
#define CACHE_REPL_LIST(X) \
	X(LRU, lru)        \
	X(FIFO, fifo)      \
	X(RANDOM, random)  \
	X(PLRU, plru)
enum cache_repl {
#define X(e, n) CACHE_REPL_##e,
	CACHE_REPL_LIST(X)
#undef X
	CACHE_REPL_COUNT
};
/* NULL-terminated, in enum order. */
extern const char *const cache_repl_names[];

/* One cache's parameters; the same table serves every cache group (l1, l2 ...). */
struct cache_params {
	uint32_t size_kb;      /* capacity, KB (1024 B) */
	uint32_t line_bytes;   /* power of two, 16 .. CACHE_MAX_LINE_BYTES */
	uint32_t sector_bytes; /* power of two, <= line_bytes, line_bytes / sector_bytes <= 8 */
	uint32_t assoc;        /* ways, 1 .. CACHE_MAX_ASSOC */
	uint32_t index;        /* enum cache_index */
	uint32_t replacement;  /* enum cache_repl */
};

extern const struct cfg_field cache_fields[];
extern const size_t cache_nfields;
#define CACHE_NFIELDS 6 /* entries of cache_fields[] (checked in the .c) */

/* The entries of cache_fields[], with defaults for size_kb and assoc (string literals, or NULL
 * for required): a level whose sizes have sensible defaults (the GPU schema's l1.cache,
 * l2.cache) builds its own table with them. */
#define CACHE_FIELDS(size_dflt, assoc_dflt)                                                     \
	CFG_U32_FIELD(struct cache_params, size_kb, 1, 1048576, size_dflt,                     \
		      "capacity, KB; a whole number of sets of assoc lines"),                   \
	CFG_U32_FIELD(struct cache_params, line_bytes, 16, CACHE_MAX_LINE_BYTES, "128",        \
		      "line size, bytes (power of two): the unit of tags and allocation; a GPU " \
		      "run needs 128, its requests' lines"),                                    \
	CFG_U32_FIELD(struct cache_params, sector_bytes, 4, CACHE_MAX_LINE_BYTES, "32",        \
		      "sector size, bytes (power of two, 1 to 8 per line): the unit of valid "  \
		      "and dirty bits and of fetches; a GPU run needs 32, its requests' "        \
		      "sectors"),                                                                \
	CFG_U32_FIELD(struct cache_params, assoc, 1, CACHE_MAX_ASSOC, assoc_dflt,              \
		      "ways per set; sets = size / (line x ways), any count >= 1"),             \
	CFG_ENUM_FIELD(struct cache_params, index, cache_index_names, "\"linear\"",            \
		       "set-index function: linear (line address mod sets) or xor (higher "     \
		       "line-address bits folded into the index)"),                              \
	CFG_ENUM_FIELD(struct cache_params, replacement, cache_repl_names, "\"lru\"",          \
		       "replacement policy: lru, fifo, random (seeded from sim.seed) or plru "  \
		       "(tree pseudo-LRU, power-of-two assoc)")

/* Checks what the field ranges cannot: powers of two, sectors per line, size a whole number of
 * sets, the policy's needs (plru: power-of-two assoc). group names the config group in the
 * messages ("l1" -> "l1.size_kb: 48 KB is not a multiple of line x ways (128 B x 7)").
 * Returns 0, or -1 with err filled. */
int cache_params_check(const struct cache_params *p, const char *group, struct sim_err *err);

/* ---------------------------------------------------------------------------------------------
 * Byte masks
 */

/* One bit per byte of a line: byte b is bit b % 64 of w[b / 64]. Plain value type. */
struct cache_bytes {
	uint64_t w[CACHE_MAX_LINE_BYTES / 64];
};

/* Sets bytes [off, off + len) of b (off + len <= CACHE_MAX_LINE_BYTES); returns b. */
struct cache_bytes *cache_bytes_set(struct cache_bytes *b, uint32_t off, uint32_t len);
bool cache_bytes_empty(const struct cache_bytes *b);

/* ---------------------------------------------------------------------------------------------
 * The cache
 */

struct cache;

/* Derived geometry. */
struct cache_geom {
	uint32_t sets;
	uint32_t assoc;
	uint32_t line_bytes;
	uint32_t sector_bytes;
	uint32_t sectors;      /* per line */
	uint32_t full_mask;    /* (1 << sectors) - 1 */
};

/* Counters, registered as <prefix>.<name> (plus <prefix>.hit_rate). */
struct cache_stats {
	uint64_t accesses;        /* cache_access calls */
	uint64_t hits;            /* every requested byte present */
	uint64_t sector_misses;   /* line present, some requested sector (or byte) not */
	uint64_t line_misses;     /* line absent */
	uint64_t evictions;       /* present lines replaced by cache_allocate */
	uint64_t dirty_evictions; /* of those, lines with written bytes (the caller writes back) */
	uint64_t alloc_fails;     /* cache_allocate refused: every way of the set reserved */
};

/* Creates an empty cache. p must pass cache_params_check (SIM_ASSERT otherwise) and is copied.
 * seed feeds the random policy (callers pass sim.seed, or a value derived from it per instance
 * when instances should draw different streams). If st is not NULL the counters are registered
 * under prefix ("sm3.l1d"); the cache must then outlive the registry's last dump and reset.
 * Every array is allocated here; no later call allocates. Never NULL (xmalloc aborts). */
struct cache *cache_create(const struct cache_params *p, uint64_t seed, struct stats *st,
			   const char *prefix);
/* Frees the cache and its policy state. NULL is a no-op. */
void cache_destroy(struct cache *c);

const struct cache_geom *cache_geom(const struct cache *c);
const struct cache_stats *cache_stats(const struct cache *c);
/* The set addr maps to under the configured index function. */
uint32_t cache_set_of(const struct cache *c, addr_t addr);
/* The line number the set index is computed from, for line number `line` (addr / line bytes):
 * an L2 slice passes its slice-local line so its lines cover all its sets. Tags stay the whole
 * line number. fn NULL: the line itself (the default). Set before the first access. */
typedef uint64_t cache_index_fn(const void *ctx, uint64_t line);
void cache_set_index_fn(struct cache *c, cache_index_fn *fn, const void *ctx);
/* Sectors of a line that b touches. */
uint32_t cache_sectors_of(const struct cache *c, const struct cache_bytes *b);
/* Every byte of the sectors in mask. */
struct cache_bytes cache_sector_bytes(const struct cache *c, uint32_t mask);

enum cache_outcome {
	CACHE_HIT,          /* every requested sector (or byte) is present */
	CACHE_SECTOR_MISS,  /* the line is present, some requested sector or byte is not */
	CACHE_LINE_MISS,    /* the line is absent */
	CACHE_OUTCOME_COUNT
};

/* What a lookup found. Sector masks are restricted to the requested sectors. */
struct cache_lookup {
	enum cache_outcome outcome;
	uint32_t set;
	int32_t way;       /* way holding the line; -1 on a line miss */
	uint32_t hit;      /* sectors that can be served now */
	uint32_t miss;     /* sectors to fetch (all requested ones on a line miss) */
	uint32_t pending;  /* of miss, sectors with a fill outstanding (MSHR merge candidates) */
};

/*
 * Looks addr up without changing anything (no statistics, no replacement update): a requester
 * that stalls may probe every cycle. sectors (non-zero, within the line) names the requested
 * sectors; bytes, if not NULL, narrows each requested sector to the bytes needed (each
 * requested sector must have at least one): a PARTIAL sector then hits if every needed byte
 * was written. With bytes NULL every byte of the requested sectors is needed. Returns the
 * outcome (also in out->outcome).
 */
enum cache_outcome cache_probe(const struct cache *c, addr_t addr, uint32_t sectors,
			       const struct cache_bytes *bytes, struct cache_lookup *out);
/* cache_probe, then counts the access and its outcome and, when the line is present (hit or
 * sector miss), touches it. Call once per accepted access. */
enum cache_outcome cache_access(struct cache *c, addr_t addr, uint32_t sectors,
				const struct cache_bytes *bytes, struct cache_lookup *out);
/* Marks the line of addr as just used for the replacement policy. Returns false (and does
 * nothing) if the line is absent. */
bool cache_touch(struct cache *c, addr_t addr);

/* What a line holds; filled by cache_allocate (the victim), cache_invalidate, cache_line and
 * cache_next_dirty. When present is false every other field is zero. */
struct cache_line_info {
	bool present;
	addr_t addr;              /* byte address of the line's first byte */
	uint32_t set, way;
	uint32_t valid;           /* sectors CLEAN or DIRTY */
	uint32_t dirty;           /* sectors with written bytes (DIRTY or PARTIAL): write back */
	uint32_t pending;         /* sectors with a fill outstanding */
	struct cache_bytes bytes; /* the written bytes; for a PARTIAL sector only these are valid */
};

/*
 * Allocates a way for addr's line, which must be absent (SIM_ASSERT): an empty way if the set
 * has one (the lowest), else the policy's choice among the ways that are not reserved. The
 * evicted line, if any, is described in *victim (victim->present false when the way was
 * empty); its dirty sectors and bytes are the caller's to write back, the cache forgets them.
 * The new line starts with every sector INVALID, those in pending (may be 0) PENDING, and is
 * inserted in the policy. Returns the way, or -1 when every way of the set is reserved: nothing
 * changes except alloc_fails, *victim is zeroed, and the caller stalls.
 */
int cache_allocate(struct cache *c, addr_t addr, uint32_t pending, struct cache_line_info *victim);
/* Marks sectors of a present line PENDING (a sector miss sent to the next level). The sectors
 * must be neither valid nor already pending (SIM_ASSERT: an outstanding fill is merged by the
 * MSHR, not reserved twice). */
void cache_reserve(struct cache *c, addr_t addr, uint32_t sectors);
/* Data for sectors of a present line arrived: they become valid, PARTIAL ones DIRTY (merged
 * under their written bytes), and stop pending. Sectors need not have been pending (fills of an
 * allocate-on-fill cache); filling a valid sector changes nothing. */
void cache_fill(struct cache *c, addr_t addr, uint32_t sectors);
/* The index of the line in way `way` of set `set`: where the line stays while it is present. */
uint32_t cache_line_at(const struct cache *c, uint32_t set, uint32_t way);
/* cache_fill of the line at index i (cache_line_at), which must hold addr's line (checked by the
 * debug build only): no lookup. For a fill that comes long after its miss reserved the line,
 * whose tags would have to be read again from cold memory. */
void cache_fill_at(struct cache *c, uint32_t i, addr_t addr, uint32_t sectors);
/* Writes bytes (non-empty) into a present line without fetching: the bytes are marked written,
 * their sectors dirty; a sector whose every byte is now written becomes valid. Pending state is
 * kept: the fill that follows merges under these bytes. */
void cache_write(struct cache *c, addr_t addr, const struct cache_bytes *bytes);
/* The written bytes of sectors of a present line have reached the next level (a write-back or
 * a write-through): DIRTY sectors become CLEAN, PARTIAL ones INVALID (the cache never had the
 * rest of the sector). */
void cache_clean(struct cache *c, addr_t addr, uint32_t sectors);
/* Removes addr's line, which must not be reserved (SIM_ASSERT). Returns false if it was absent.
 * *out (may be NULL) receives the line as it was: its dirty sectors are the caller's to write
 * back. */
bool cache_invalidate(struct cache *c, addr_t addr, struct cache_line_info *out);
/* Removes every line (a kernel-boundary L1 invalidation). SIM_ASSERT that none is reserved or
 * dirty: flush first. */
void cache_invalidate_all(struct cache *c);
/* Describes addr's line in *out. Returns out->present. */
bool cache_line(const struct cache *c, addr_t addr, struct cache_line_info *out);
/* How many ways of set `set`, other than way `skip` (-1: none skipped), hold a line with a fill
 * outstanding for which pred(ctx, the line's address) is true. O(assoc). */
typedef bool cache_line_pred(const void *ctx, addr_t line);
uint32_t cache_pending_ways(const struct cache *c, uint32_t set, int32_t skip,
			    cache_line_pred *pred, const void *ctx);

/*
 * Dirty lines, in (set, way) order, for a flush that can stall: start with *cursor = 0; each
 * call describes the next line with written bytes at or after *cursor in *out, moves *cursor
 * past it and returns true; false when there are no more. The caller writes the line back and
 * calls cache_clean(c, out->addr, out->dirty) when it has.
 */
bool cache_next_dirty(const struct cache *c, uint32_t *cursor, struct cache_line_info *out);
/* Calls fn for every dirty line, in (set, way) order, then cleans it. Returns the count. */
typedef void cache_flush_fn(void *ctx, const struct cache_line_info *line);
uint64_t cache_flush(struct cache *c, cache_flush_fn *fn, void *ctx);

/* Writes the replacement policy's state for one set into buf (e.g. plru "tree 101"; "" for
 * policies whose state is the line stamps). Returns buf. */
const char *cache_repl_state(const struct cache *c, uint32_t set, char *buf, size_t size);

/* Geometry, counters, line counts by state, and every reserved line; every present line too
 * when the cache has at most CACHE_DUMP_ALL_LINES lines. */
#define CACHE_DUMP_ALL_LINES 64
void cache_dump(const struct cache *c, FILE *out);
/* SIM_ASSERTs every invariant listed in cache.c. O(lines). */
void cache_check(const struct cache *c);

/* ---------------------------------------------------------------------------------------------
 * Replacement plug-ins (cache_repl.c); only cache.c calls them.
 */

/* What a policy may read of one set when choosing a victim. */
struct cache_repl_set {
	uint32_t set;
	uint32_t assoc;
	const uint64_t *last_use;  /* [assoc]: sequence number of the way's last touch or insert */
	const uint64_t *inserted;  /* [assoc]: sequence number of the way's insert */
	const uint64_t *evictable; /* bitmap of the ways the policy may return; never empty */
};

/*
 * A policy keeps its own metadata only (tree bits, a generator); the per-line stamps are the
 * cache's and read-only here. Only ways in evictable may be returned: the cache has already
 * used an empty way if there was one and left out reserved ways.
 */
struct cache_repl_ops {
	const char *name;
	const char *desc;
	/* NULL if any assoc works; else 0, or -1 with err filled naming <group>.replacement. */
	int (*check)(uint32_t assoc, const char *group, struct sim_err *err);
	/* Creates the policy's state (NULL if it keeps none). */
	void *(*init)(uint32_t sets, uint32_t assoc, uint64_t seed);
	void (*fini)(void *st);
	/* A hit (or any use) of way; the stamps are already updated. May be NULL. */
	void (*touch)(void *st, uint32_t set, uint32_t way);
	/* way was just filled with a new line; the stamps are already updated. May be NULL. */
	void (*insert)(void *st, uint32_t set, uint32_t way);
	/* The way to evict. */
	uint32_t (*victim)(void *st, const struct cache_repl_set *s);
	/* Describes the set's state into buf ("" if none). May be NULL. */
	void (*state)(const void *st, uint32_t set, uint32_t assoc, char *buf, size_t size);
};

/* The policy at index i of cache_repl_names (enum cache_repl); NULL if out of range. */
const struct cache_repl_ops *cache_repl_get(uint32_t i);


struct mem_req;
/* The bytes a request names (its byte_mask) as a line byte mask; false if it names none. */
bool cache_bytes_of_req(const struct mem_req *r, struct cache_bytes *b);
/* A lookup for the request at the head of a unit's input: counted (cache_access) the first time
 * that request is looked up, a side-effect-free probe when it is retried after a stall. *seen
 * remembers the request last counted. */
void cache_lookup_head(struct cache *c, const void **seen, const void *req, addr_t line,
		       uint32_t sectors, const struct cache_bytes *bytes, struct cache_lookup *out);

#endif /* SIM_CACHE_H */
