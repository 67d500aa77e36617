/*
 * mshr.c - miss status holding registers (see mshr.h for the contract).
 *
 * Models the table of outstanding misses of one cache (an L1 or one L2 slice): how many misses
 * may be in flight (entries), how many requests may wait on one of them (max_merge), which
 * sectors each miss brings, and who gets woken when data returns. It is what turns a burst of
 * misses to one line into one request to the next level, and what makes a cache stall when too
 * many lines are in flight ("no MSHR") or too many requests pile onto one ("merge limit").
 *
 * Data structures. Everything in flight is filed by line, in one record per line (struct
 * mshr_line) taken from a fixed array of `entries` records; a line with anything in flight has
 * exactly one record. An open-addressing table (linear probing, 2^k >= 2 x entries slots,
 * Fibonacci hashing of the line number, backward-shift deletion, no tombstones) finds the record
 * of a line in O(1) on average. Each record keeps its waiters in arrival order as a list of
 * waiter slots (request pointer + the sectors it still lacks) from a pool that grows by doubling
 * up to entries x max_merge and then never again.
 *
 * Entry life (one record; a record is free exactly when no sector of it is in flight):
 *
 *                 mshr_add: NEW                  mshr_add: MERGED, MERGED_NEEDS_SECTORS,
 *          +---------------------------+         NEW (sector granularity, other sectors)
 *          |                           v         mshr_fill: some sectors still in flight
 *       +------+                 +-----------+ ---------------------------------+
 *       | FREE |                 | IN_FLIGHT |                                  |
 *       +------+                 +-----------+ <--------------------------------+
 *          ^                           |
 *          +---------------------------+
 *             mshr_fill: the last sector in flight arrives
 *
 *   FREE      -> IN_FLIGHT  [mshr_add]   record taken and hashed, primary queued, need pending
 *   IN_FLIGHT -> IN_FLIGHT  [mshr_add]   request queued; *fetch sectors join pending
 *   IN_FLIGHT -> IN_FLIGHT  [mshr_fill]  filled sectors leave pending; complete waiters leave
 *   IN_FLIGHT -> FREE       [mshr_fill]  pending became 0 (so no waiter is left), record freed
 *   a refused mshr_add (MSHR_FULL, MSHR_MERGE_FULL) changes no state, only a counter.
 * Each waiter: WAITING -> RETURNED [mshr_fill] once every sector of its need has been filled.
 *
 * Entries. Line granularity: one entry per record. Sector granularity: one entry per pending
 * sector, so used = sum of popcount(pending) and a record with k sectors in flight holds k
 * entries; the merge limit counts, per sector, the waiters still lacking it (for the sector's
 * primary and everyone merged behind it; none of them leaves before the sector arrives).
 *
 * Invariants (mshr_check):
 *   - a record is in use iff pending != 0, and then the table finds it under its line;
 *     records in use + free records = entries; table slots in use = records in use;
 *   - per record: every waiter lacks something (left != 0) and only pending sectors
 *     (left subset of pending); the union of the waiters' left == pending (a sector is in flight
 *     only while somebody waits for it); nwait and tail match the list;
 *   - cnt[record][s] = waiters whose left holds s, <= max_merge; line granularity: nwait <=
 *     max_merge;
 *   - used = records in use (line) or sum of popcount(pending) (sector), used <= entries;
 *   - waiting = sum of nwait; free waiter slots + waiting = slots allocated <= entries x
 *     max_merge.
 *
 * Not modelled: timing (the caller's pipeline decides when it may probe, add and fill), ports,
 * the miss queue toward the next level (the caller's, with its own "miss queue full" stall),
 * the data itself, and write handling (stores that allocate or merge are requests like any
 * other; whether they may merge with loads is the cache's policy, decided before mshr_add).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "bulk.h"
#include "log.h"
#include "mshr.h"

#define NIL UINT32_MAX

/* 2^64 / golden ratio, odd: Knuth's multiplicative (Fibonacci) hashing. Its top bits spread
 * consecutive and strided line numbers over the table. */
#define MSHR_HASH_MUL 0x9E3779B97F4A7C15ull

/* First size of the waiter pool, in slots per entry: merged requests are the exception, so most
 * runs never grow it. It doubles on demand up to entries x max_merge. */
#define MSHR_WAITERS_PER_ENTRY 2

/* ---------------------------------------------------------------------------------------------
 * Parameters
 */

const char *const mshr_granularity_names[] = { "sector", "line", NULL };

#define P struct mshr_params
const struct cfg_field mshr_fields[] = {
	CFG_U32_FIELD(P, entries, 1, 65536, "256",
		      "miss entries in flight: sector entries or line entries by granularity; "
		      "sector entries at least the sectors of a line (GPGPU-Sim configs: 256-512 "
		      "per L1, 192-384 per L2 slice)"),
	CFG_U32_FIELD(P, max_merge, 1, 4096, "8",
		      "requests that may wait on one entry, the first included "
		      "(GPGPU-Sim: L1 8-64, L2 4)"),
	CFG_ENUM_FIELD(P, granularity, mshr_granularity_names, "\"sector\"",
		       "what one entry tracks: sector (one 32 B sector, as sectored GPU caches) or "
		       "line (a line, fetching more of its sectors for later requests)"),
};
#undef P
const size_t mshr_nfields = sizeof mshr_fields / sizeof mshr_fields[0];
_Static_assert(sizeof mshr_fields / sizeof mshr_fields[0] == MSHR_NFIELDS,
	       "MSHR_NFIELDS must count mshr_fields");

int mshr_params_check(const struct mshr_params *p, uint32_t line_bytes, uint32_t sector_bytes,
		      const char *group, struct sim_err *err)
{
	uint32_t sectors = line_bytes / sector_bytes;

	if (p->granularity == MSHR_GRAN_SECTOR && p->entries < sectors)
		return sim_err_set(err, NULL, 0, "%s.entries: at least the %u sectors of a line with "
				   "granularity \"sector\" (a request for a whole line takes an "
				   "entry for each at once), got %u", group, sectors, p->entries);
	return 0;
}

static const char *const result_names[MSHR_RESULT_COUNT] = {
#define MSHR_RESULT_NAME(e, s) s,
	MSHR_RESULTS(MSHR_RESULT_NAME)
#undef MSHR_RESULT_NAME
};

const char *mshr_result_name(enum mshr_result r)
{
	return (unsigned)r < MSHR_RESULT_COUNT ? result_names[r] : "?";
}

/* ---------------------------------------------------------------------------------------------
 * State
 */

struct mshr_waiter {
	struct mem_req *r;
	uint32_t left; /* sectors of its need not filled yet; != 0 while it waits */
	uint32_t next; /* next waiter of the same line (arrival order), or next free slot */
};

struct mshr_line {
	addr_t line;      /* line address; meaningful while pending != 0 */
	uint32_t pending; /* sectors asked from below and not filled yet; 0 = record free */
	uint32_t nwait;   /* waiters in the list */
	uint32_t head;    /* oldest waiter, NIL if none */
	uint32_t tail;    /* youngest waiter, NIL if none */
	uint32_t served;  /* requests that joined the record (line granularity statistics) */
};

struct mshr_stats {
	uint64_t allocations;
	uint64_t merges;
	uint64_t fail_full;
	uint64_t fail_merge;
	uint64_t fetched_sectors;
	uint64_t fills;
	struct stat_level occupancy;
	struct stat_level waiting; /* .cur is the number of waiting requests */
};

struct mshr {
	struct mshr_params p;
	uint32_t line_bytes;
	uint32_t line_shift;    /* log2(line_bytes): the hash's key without a division */
	uint32_t sector_shift;
	uint32_t nsect;         /* sectors per line */
	uint32_t all_sectors;   /* mask of nsect ones */
	struct mshr_line *lines; /* p.entries records */
	uint16_t *cnt;          /* [record * nsect + s]: waiters whose left holds sector s */
	uint32_t *free_lines;   /* stack of free record indices */
	uint32_t nfree_lines;
	uint32_t *slots;        /* hash table: record index + 1, 0 = empty */
	uint32_t slot_bits;
	uint32_t slot_mask;
	struct mshr_waiter *w;  /* waiter pool */
	uint32_t wcap;          /* slots allocated */
	uint32_t wmax;          /* entries x max_merge: the most that can wait at once */
	uint32_t wfree;         /* free list head */
	uint32_t used;          /* entries in use */
	char *name;             /* statistics prefix, for dumps */
	struct mshr_stats st;
	struct stats_dist *per_entry; /* requests served per entry; NULL without statistics */
};

static inline uint32_t popcount32(uint32_t x)
{
	return bits_pop32(x);
}

static inline addr_t line_of(const struct mshr *m, addr_t addr)
{
	return addr & ~(addr_t)(m->line_bytes - 1);
}

static inline uint16_t *cnt_of(const struct mshr *m, uint32_t rec)
{
	return &m->cnt[(size_t)rec * m->nsect];
}

/* ---------------------------------------------------------------------------------------------
 * The line table: open addressing with linear probing
 */

static inline uint32_t home_slot(const struct mshr *m, addr_t line)
{
	uint64_t k = line >> m->line_shift;

	return (uint32_t)((k * MSHR_HASH_MUL) >> (64 - m->slot_bits));
}

/* The record of line, or NIL. Terminates: at least half of the slots are always empty. */
static uint32_t find(const struct mshr *m, addr_t line)
{
	uint32_t i = home_slot(m, line);

	for (;;) {
		uint32_t v = m->slots[i];

		if (v == 0)
			return NIL;
		if (m->lines[v - 1].line == line)
			return v - 1;
		i = (i + 1) & m->slot_mask;
	}
}

static void hash_insert(struct mshr *m, uint32_t rec)
{
	uint32_t i = home_slot(m, m->lines[rec].line);

	while (m->slots[i] != 0)
		i = (i + 1) & m->slot_mask;
	m->slots[i] = rec + 1;
}

/* Removes rec and shifts back the entries of its probe run that may move into the hole. */
static void hash_remove(struct mshr *m, uint32_t rec)
{
	uint32_t i = home_slot(m, m->lines[rec].line);
	uint32_t j;

	while (m->slots[i] != rec + 1) {
		SIM_ASSERT(m->slots[i] != 0);
		i = (i + 1) & m->slot_mask;
	}
	j = i;
	for (;;) {
		uint32_t k;

		j = (j + 1) & m->slot_mask;
		if (m->slots[j] == 0)
			break;
		k = home_slot(m, m->lines[m->slots[j] - 1].line);
		/* The entry at j stays if its home lies cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		m->slots[i] = m->slots[j];
		i = j;
	}
	m->slots[i] = 0;
}

/* ---------------------------------------------------------------------------------------------
 * Records and waiter slots
 */

static uint32_t line_alloc(struct mshr *m, addr_t line)
{
	uint32_t rec;
	struct mshr_line *e;

	SIM_ASSERT(m->nfree_lines > 0);
	rec = m->free_lines[--m->nfree_lines];
	e = &m->lines[rec];
	SIM_ASSERT(e->pending == 0 && e->nwait == 0);
	e->line = line;
	e->head = e->tail = NIL;
	e->served = 0;
	hash_insert(m, rec);
	return rec;
}

static void line_free(struct mshr *m, uint32_t rec)
{
	hash_remove(m, rec);
	m->free_lines[m->nfree_lines++] = rec;
}

static uint32_t waiter_get(struct mshr *m)
{
	uint32_t i;

	if (m->wfree == NIL) {
		uint32_t old = m->wcap;
		uint32_t cap = old * 2 < m->wmax ? old * 2 : m->wmax;

		SIM_ASSERT(cap > old); /* more waiters than entries x max_merge: a bug */
		m->w = xreallocarray(m->w, cap, sizeof *m->w);
		for (i = old; i < cap; i++) {
			m->w[i].r = NULL;
			m->w[i].left = 0;
			m->w[i].next = i + 1 < cap ? i + 1 : NIL;
		}
		m->wfree = old;
		m->wcap = cap;
	}
	i = m->wfree;
	m->wfree = m->w[i].next;
	return i;
}

static void waiter_put(struct mshr *m, uint32_t i)
{
	m->w[i].r = NULL;
	m->w[i].left = 0;
	m->w[i].next = m->wfree;
	m->wfree = i;
}

/* ---------------------------------------------------------------------------------------------
 * Create / destroy
 */

static void register_stats(struct mshr *m, struct stats *st, const char *prefix)
{
	static const struct stats_counter_def counters[] = {
#define C(f, d) STATS_COUNTER_DEF(struct mshr_stats, f, d)
		C(allocations, "entries allocated (sector or line entries, by granularity)"),
		C(merges, "requests that joined an entry already in flight"),
		C(fail_full, "refused requests: no free entry (per attempt)"),
		C(fail_merge, "refused requests: an entry at its merge limit (per attempt)"),
		C(fetched_sectors, "sectors requested from the next level"),
		C(fills, "fills that brought at least one sector in flight"),
#undef C
	};
	char name[256];

	stats_counters(st, prefix, &m->st, counters, sizeof counters / sizeof counters[0]);
	snprintf(name, sizeof name, "%s.occupancy", prefix);
	stats_level(st, name, "entries in use", &m->st.occupancy);
	snprintf(name, sizeof name, "%s.waiting", prefix);
	stats_level(st, name, "requests waiting on entries", &m->st.waiting);
	snprintf(name, sizeof name, "%s.requests_per_entry", prefix);
	m->per_entry = stats_dist(st, name, "requests served by one entry, the first included",
				  1.0, (double)m->p.max_merge + 1.0, m->p.max_merge);
}

static bool is_pow2(uint32_t x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

struct mshr *mshr_create(const struct mshr_params *p, uint32_t line_bytes, uint32_t sector_bytes,
			 struct stats *st, const char *prefix)
{
	struct mshr *m;
	uint32_t i, size;

	SIM_ASSERT(p->entries >= 1 && p->entries <= 65536);
	SIM_ASSERT(p->max_merge >= 1 && p->max_merge <= UINT16_MAX);
	SIM_ASSERT(p->granularity < MSHR_GRAN_COUNT);
	SIM_ASSERT(is_pow2(line_bytes) && is_pow2(sector_bytes) && sector_bytes <= line_bytes);
	SIM_ASSERT(line_bytes / sector_bytes <= MSHR_MAX_SECTORS);

	SIM_ASSERT((uint64_t)p->entries * p->max_merge < NIL);

	m = xcalloc(1, sizeof *m);
	m->p = *p;
	m->line_bytes = line_bytes;
	m->line_shift = (uint32_t)__builtin_ctz(line_bytes);
	m->sector_shift = (uint32_t)__builtin_ctz(sector_bytes);
	m->nsect = line_bytes / sector_bytes;
	m->all_sectors = m->nsect == 32 ? UINT32_MAX : (1u << m->nsect) - 1;

	m->lines = bulk_calloc(p->entries, sizeof *m->lines);
	m->cnt = bulk_calloc((size_t)p->entries * m->nsect, sizeof *m->cnt);
	m->free_lines = bulk_calloc(p->entries, sizeof *m->free_lines);
	/* Pop order = index order: the first record used is 0 (dumps read naturally). */
	for (i = 0; i < p->entries; i++) {
		m->lines[i].head = m->lines[i].tail = NIL;
		m->free_lines[i] = p->entries - 1 - i;
	}
	m->nfree_lines = p->entries;

	for (size = 2; size < 2 * p->entries; size <<= 1)
		;
	m->slot_bits = (uint32_t)__builtin_ctz(size);
	m->slot_mask = size - 1;
	m->slots = bulk_calloc(size, sizeof *m->slots);

	m->wmax = p->entries * p->max_merge;
	m->wcap = p->entries * MSHR_WAITERS_PER_ENTRY;
	if (m->wcap > m->wmax)
		m->wcap = m->wmax;
	m->w = xcalloc(m->wcap, sizeof *m->w);
	for (i = 0; i < m->wcap; i++)
		m->w[i].next = i + 1 < m->wcap ? i + 1 : NIL;
	m->wfree = 0;

	m->name = xstrdup(prefix != NULL ? prefix : "mshr");
	if (st != NULL)
		register_stats(m, st, m->name);
	return m;
}

void mshr_destroy(struct mshr *m)
{
	if (m == NULL)
		return;
	bulk_free(m->lines);
	bulk_free(m->cnt);
	bulk_free(m->free_lines);
	bulk_free(m->slots);
	free(m->w);
	free(m->name);
	free(m);
}

/* ---------------------------------------------------------------------------------------------
 * Add, probe, fill
 */

/* Decides what adding a request for (line, need) does, without doing it. *rec: the line's
 * record or NIL; *fetch: sectors to request; *nnew: entries it would open. */
static enum mshr_result plan(const struct mshr *m, addr_t line, uint32_t need, uint32_t *rec,
			     uint32_t *fetch, uint32_t *nnew)
{
	const struct mshr_line *e;
	uint32_t old, fresh, n, s;

	SIM_ASSERT(need != 0 && (need & ~m->all_sectors) == 0);
	*rec = find(m, line);
	*fetch = 0;
	*nnew = 0;
	if (*rec == NIL) {
		n = m->p.granularity == MSHR_GRAN_LINE ? 1 : popcount32(need);
		if (m->used + n > m->p.entries)
			return MSHR_FULL;
		*fetch = need;
		*nnew = n;
		return MSHR_NEW;
	}
	e = &m->lines[*rec];
	old = need & e->pending;
	fresh = need & ~e->pending;
	if (m->p.granularity == MSHR_GRAN_LINE) {
		if (e->nwait >= m->p.max_merge)
			return MSHR_MERGE_FULL;
		*fetch = fresh;
		return fresh != 0 ? MSHR_MERGED_NEEDS_SECTORS : MSHR_MERGED;
	}
	for (s = 0; s < m->nsect; s++)
		if ((old >> s & 1) && cnt_of(m, *rec)[s] >= m->p.max_merge)
			return MSHR_MERGE_FULL;
	n = popcount32(fresh);
	if (m->used + n > m->p.entries)
		return MSHR_FULL;
	*fetch = fresh;
	*nnew = n;
	if (old == 0)
		return MSHR_NEW;
	return fresh != 0 ? MSHR_MERGED_NEEDS_SECTORS : MSHR_MERGED;
}

enum mshr_result mshr_probe(const struct mshr *m, addr_t addr, uint32_t need, uint32_t *fetch)
{
	uint32_t rec, f, nnew;
	enum mshr_result res = plan(m, line_of(m, addr), need, &rec, &f, &nnew);

	if (fetch != NULL)
		*fetch = f;
	return res;
}

bool mshr_can_add(const struct mshr *m, addr_t addr, uint32_t need)
{
	enum mshr_result res = mshr_probe(m, addr, need, NULL);

	return res != MSHR_FULL && res != MSHR_MERGE_FULL;
}

enum mshr_result mshr_add(struct mshr *m, struct mem_req *r, uint32_t need, uint32_t *fetch)
{
	addr_t line = line_of(m, r->addr);
	uint32_t rec, f, nnew, wi, s;
	enum mshr_result res = plan(m, line, need, &rec, &f, &nnew);
	struct mshr_line *e;
	uint16_t *cnt;

	if (fetch != NULL)
		*fetch = f;
	if (res == MSHR_FULL) {
		m->st.fail_full++;
		return res;
	}
	if (res == MSHR_MERGE_FULL) {
		m->st.fail_merge++;
		return res;
	}
	if (rec == NIL)
		rec = line_alloc(m, line);
	e = &m->lines[rec];
	wi = waiter_get(m);
	m->w[wi].r = r;
	m->w[wi].left = need;
	m->w[wi].next = NIL;
	if (e->tail == NIL)
		e->head = wi;
	else
		m->w[e->tail].next = wi;
	e->tail = wi;
	e->nwait++;
	e->served++;
	cnt = cnt_of(m, rec);
	for (s = 0; s < m->nsect; s++)
		if (need >> s & 1)
			cnt[s]++;
	e->pending |= need;
	m->used += nnew;

	m->st.allocations += nnew;
	if (res != MSHR_NEW)
		m->st.merges++;
	m->st.fetched_sectors += popcount32(f);
	stat_level_set(&m->st.occupancy, m->used);
	stat_level_inc(&m->st.waiting);
	return res;
}

uint32_t mshr_record(const struct mshr *m, addr_t addr)
{
	uint32_t rec = find(m, line_of(m, addr));

	return rec == NIL ? UINT32_MAX : rec;
}

struct mem_req *mshr_fill(struct mshr *m, addr_t addr, uint32_t sectors)
{
	uint32_t rec = find(m, line_of(m, addr));

	if (rec == NIL)
		return NULL;
	return mshr_fill_at(m, rec, addr, sectors);
}

struct mem_req *mshr_fill_at(struct mshr *m, uint32_t rec, addr_t addr, uint32_t sectors)
{
	struct mem_req *head = NULL, *tail = NULL;
	struct mshr_line *e;
	uint32_t got, s, cur, prev;
	uint16_t *cnt;

	SIM_ASSERT(rec < m->p.entries);
#ifdef SIM_DEBUG
	SIM_ASSERT(find(m, line_of(m, addr)) == rec);
#else
	(void)addr;
#endif
	e = &m->lines[rec];
	got = sectors & e->pending;
	if (got == 0)
		return NULL;
	m->st.fills++;

	cnt = cnt_of(m, rec);
	for (s = 0; s < m->nsect; s++) {
		if (!(got >> s & 1))
			continue;
		if (m->p.granularity == MSHR_GRAN_SECTOR && m->per_entry != NULL)
			stats_dist_add(m->per_entry, cnt[s]);
		cnt[s] = 0;
	}
	if (m->p.granularity == MSHR_GRAN_SECTOR)
		m->used -= popcount32(got);
	e->pending &= ~got;

	prev = NIL;
	cur = e->head;
	while (cur != NIL) {
		struct mshr_waiter *w = &m->w[cur];
		uint32_t next = w->next;

		w->left &= ~got;
		if (w->left != 0) {
			prev = cur;
			cur = next;
			continue;
		}
		if (prev == NIL)
			e->head = next;
		else
			m->w[prev].next = next;
		if (e->tail == cur)
			e->tail = prev;
		w->r->merged = NULL;
		if (tail == NULL)
			head = w->r;
		else
			tail->merged = w->r;
		tail = w->r;
		waiter_put(m, cur);
		e->nwait--;
		stat_level_dec(&m->st.waiting);
		cur = next;
	}

	if (e->pending == 0) {
		SIM_ASSERT(e->nwait == 0);
		if (m->p.granularity == MSHR_GRAN_LINE) {
			if (m->per_entry != NULL)
				stats_dist_add(m->per_entry, e->served);
			m->used--;
		}
		line_free(m, rec);
	}
	stat_level_set(&m->st.occupancy, m->used);
	return head;
}

/* ---------------------------------------------------------------------------------------------
 * Queries, invariants, dump
 */

uint32_t mshr_pending(const struct mshr *m, addr_t addr)
{
	uint32_t rec = find(m, line_of(m, addr));

	return rec == NIL ? 0 : m->lines[rec].pending;
}

uint32_t mshr_used(const struct mshr *m)
{
	return m->used;
}

uint32_t mshr_entries(const struct mshr *m)
{
	return m->p.entries;
}

uint64_t mshr_waiting(const struct mshr *m)
{
	return m->st.waiting.cur;
}

bool mshr_is_empty(const struct mshr *m)
{
	return m->used == 0 && m->st.waiting.cur == 0;
}

void mshr_check(const struct mshr *m)
{
	uint32_t rec, s, i, nrec = 0, used = 0, nslots = 0, nfree = 0;
	uint64_t waiting = 0;

	for (rec = 0; rec < m->p.entries; rec++) {
		const struct mshr_line *e = &m->lines[rec];
		const uint16_t *cnt = cnt_of(m, rec);
		uint32_t c[MSHR_MAX_SECTORS] = { 0 };
		uint32_t uni = 0, n = 0, last = NIL, wi;

		if (e->pending == 0) {
			SIM_ASSERT(e->nwait == 0 && e->head == NIL && e->tail == NIL);
			for (s = 0; s < m->nsect; s++)
				SIM_ASSERT(cnt[s] == 0);
			continue;
		}
		nrec++;
		SIM_ASSERT(line_of(m, e->line) == e->line);
		SIM_ASSERT((e->pending & ~m->all_sectors) == 0);
		SIM_ASSERT(find(m, e->line) == rec);
		for (wi = e->head; wi != NIL; wi = m->w[wi].next) {
			const struct mshr_waiter *w = &m->w[wi];

			SIM_ASSERT(wi < m->wcap && w->r != NULL);
			SIM_ASSERT(w->left != 0 && (w->left & ~e->pending) == 0);
			uni |= w->left;
			for (s = 0; s < m->nsect; s++)
				c[s] += w->left >> s & 1;
			last = wi;
			SIM_ASSERT(++n <= m->wmax);
		}
		SIM_ASSERT(n == e->nwait && last == e->tail);
		SIM_ASSERT(uni == e->pending);
		for (s = 0; s < m->nsect; s++)
			SIM_ASSERT(c[s] == cnt[s] && c[s] <= m->p.max_merge);
		if (m->p.granularity == MSHR_GRAN_LINE) {
			SIM_ASSERT(n <= m->p.max_merge);
			used++;
		} else {
			used += popcount32(e->pending);
		}
		waiting += n;
	}
	SIM_ASSERT(used == m->used && used <= m->p.entries);
	SIM_ASSERT(nrec + m->nfree_lines == m->p.entries);
	SIM_ASSERT(waiting == m->st.waiting.cur);
	for (i = 0; i <= m->slot_mask; i++)
		if (m->slots[i] != 0) {
			SIM_ASSERT(m->slots[i] <= m->p.entries);
			SIM_ASSERT(m->lines[m->slots[i] - 1].pending != 0);
			nslots++;
		}
	SIM_ASSERT(nslots == nrec);
	for (i = m->wfree; i != NIL; i = m->w[i].next) {
		SIM_ASSERT(i < m->wcap && m->w[i].r == NULL);
		SIM_ASSERT(++nfree <= m->wcap);
	}
	SIM_ASSERT(nfree + waiting == m->wcap && m->wcap <= m->wmax);
}

void mshr_dump(const struct mshr *m, FILE *out)
{
	uint32_t rec, wi;

	fprintf(out, "%s: %u of %u %s entries in use, %" PRIu64 " requests waiting\n", m->name,
		m->used, m->p.entries, mshr_granularity_names[m->p.granularity],
		m->st.waiting.cur);
	for (rec = 0; rec < m->p.entries; rec++) {
		const struct mshr_line *e = &m->lines[rec];

		if (e->pending == 0)
			continue;
		fprintf(out, "  line 0x%" PRIx64 ": sectors 0x%x in flight, %u waiting:", e->line,
			e->pending, e->nwait);
		for (wi = e->head; wi != NIL; wi = m->w[wi].next)
			fprintf(out, " req %" PRIu64 " (needs 0x%x)", m->w[wi].r->id,
				m->w[wi].left);
		fputc('\n', out);
	}
}
