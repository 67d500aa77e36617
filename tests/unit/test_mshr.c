/*
 * test_mshr.c - miss status holding registers (sim/mem/mshr.c).
 *
 * Hand-computed sequences for both granularities: new / merged / full / merge limit (and which
 * refusal wins), probe and can_add agreeing with add, fills returning waiters in arrival order,
 * partial fills, extra sectors of a line entry and a sector refetched after its fill, entry reuse
 * (one entry, and a small table with collisions), the waiter pool growing to its bound,
 * statistics, dump text, contract violations; then 10^5 random operations per granularity
 * against a plain reference model, with mshr_check after every step and conservation (every
 * accepted request comes back exactly once).
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "cfg.h"
#include "mshr.h"
#include "req.h"
#include "stats.h"

#define LINE 128u
#define SECTOR 32u

static struct mshr_params params(uint32_t entries, uint32_t max_merge, enum mshr_granularity g)
{
	struct mshr_params p = { entries, max_merge, (uint32_t)g };

	return p;
}

/* Requests numbered 1..n (id = index + 1), all for line addr unless changed. */
static void reqs_init(struct mem_req *r, size_t n, addr_t addr)
{
	size_t i;

	memset(r, 0, n * sizeof *r);
	for (i = 0; i < n; i++) {
		r[i].id = i + 1;
		r[i].addr = addr;
		r[i].sector_mask = 0xf;
	}
}

/* Checks that chain holds exactly the ids in want (0-terminated), in that order. */
static void assert_chain(struct mem_req *chain, const uint64_t *want)
{
	size_t i = 0;

	for (; chain != NULL; chain = chain->merged, i++) {
		if (want[i] == 0)
			fail_msg("chain longer than expected: extra req %llu",
				 (unsigned long long)chain->id);
		assert_int_equal(chain->id, want[i]);
	}
	if (want[i] != 0)
		fail_msg("chain too short: req %llu missing", (unsigned long long)want[i]);
}

static uint64_t stat(const struct stats *st, const char *name)
{
	double v;

	if (!stats_get(st, name, &v))
		fail_msg("no statistic %s", name);
	return (uint64_t)v;
}

/* Adds and checks the result, the fetch mask and that probe had predicted both. */
static void add_expect(struct mshr *m, struct mem_req *r, uint32_t need, enum mshr_result want,
		       uint32_t want_fetch)
{
	uint32_t pf = 0xdead, f = 0xdead;
	enum mshr_result pr = mshr_probe(m, r->addr, need, &pf);
	enum mshr_result res;

	assert_int_equal(mshr_can_add(m, r->addr, need),
			 want != MSHR_FULL && want != MSHR_MERGE_FULL);
	res = mshr_add(m, r, need, &f);
	if (res != want)
		fail_msg("req %llu need 0x%x: got %s, expected %s", (unsigned long long)r->id, need,
			 mshr_result_name(res), mshr_result_name(want));
	assert_int_equal(pr, res);
	assert_int_equal(f, want_fetch);
	assert_int_equal(pf, want_fetch);
	mshr_check(m);
}

/* ---------------------------------------------------------------------------------------------
 * Parameters and names
 */

static void test_fields_table(void **state)
{
	static const struct cfg_group base[] = {
		{ "l1d", "L1 data cache.", NULL, 0, 0 },
		{ "l1d.mshr", "L1 MSHRs.", mshr_fields, 0, 0 },
	};
	struct cfg_group groups[2];
	struct cfg_schema s;
	struct mshr_params p;
	struct cfg *c;
	struct sim_err err;
	size_t i;

	(void)state;
	memcpy(groups, base, sizeof groups);
	groups[1].nfields = mshr_nfields;
	s.groups = groups;
	s.ngroups = 2;
	assert_int_equal(mshr_nfields, MSHR_NFIELDS);
	for (i = 0; i < mshr_nfields; i++)
		assert_true(strlen(mshr_fields[i].desc) > 20);

	memset(&p, 0xa5, sizeof p);
	if (cfg_defaults(&s, &p, &err) != 0)
		fail_msg("cfg_defaults: %s", err.msg);
	assert_int_equal(p.entries, 256);
	assert_int_equal(p.max_merge, 8);
	assert_int_equal(p.granularity, MSHR_GRAN_SECTOR);

	assert_int_equal(cfg_load_string(&c, "m.cfg",
					 "l1d: { mshr: { entries = 512; max_merge = 64;\n"
					 "  granularity = \"line\"; }; };\n",
					 &err),
			 0);
	if (cfg_read(c, &s, &p, &err) != 0)
		fail_msg("cfg_read: %s", err.msg);
	cfg_destroy(c);
	assert_int_equal(p.entries, 512);
	assert_int_equal(p.max_merge, 64);
	assert_int_equal(p.granularity, MSHR_GRAN_LINE);

	assert_int_equal(cfg_load_string(&c, "m.cfg", "l1d: { mshr: { max_merge = 0; }; };\n",
					 &err),
			 0);
	assert_int_equal(cfg_read(c, &s, &p, &err), -1);
	cfg_destroy(c);
	assert_non_null(strstr(err.msg, "l1d.mshr.max_merge"));
	assert_int_equal(cfg_load_string(&c, "m.cfg",
					 "l1d: { mshr: { granularity = \"word\"; }; };\n", &err),
			 0);
	assert_int_equal(cfg_read(c, &s, &p, &err), -1);
	cfg_destroy(c);
	assert_non_null(strstr(err.msg, "l1d.mshr.granularity"));
}

static void test_result_names(void **state)
{
	static const char *const names[] = { "new", "merged", "merged_needs_sectors", "full",
					     "merge_full" };
	int i;

	(void)state;
	assert_int_equal(MSHR_RESULT_COUNT, 5);
	for (i = 0; i < MSHR_RESULT_COUNT; i++)
		assert_string_equal(mshr_result_name((enum mshr_result)i), names[i]);
	assert_string_equal(mshr_result_name(MSHR_RESULT_COUNT), "?");
}

/* ---------------------------------------------------------------------------------------------
 * Hand-computed sequences
 */

/*
 * Sector granularity, 2 entries, 2 requests per entry, lines of 4 sectors.
 *   r1 0x1000 {0}    -> NEW, fetch {0}                    used 1
 *   r2 0x1000 {0}    -> MERGED                            (sector 0 holds r1 r2)
 *   r3 0x1000 {0}    -> MERGE_FULL
 *   r4 0x1000 {1}    -> NEW, fetch {1}: a new sector entry used 2
 *   r5 0x2000 {0}    -> FULL
 *   r6 0x1000 {0,1}  -> MERGE_FULL (sector 0 is full; checked before room)
 *   r7 0x1000 {1,2}  -> FULL (sector 2 needs an entry; sector 1 had room)
 *   fill 0x1000 {0}  -> r1 r2                              used 1
 *   r5 again         -> NEW                                used 2
 *   fill 0x1040 {1}  -> r4 (any address in the line)       used 1
 *   fill 0x2000 {0}  -> r5                                 used 0
 */
static void test_sector_sequence(void **state)
{
	struct mshr_params p = params(2, 2, MSHR_GRAN_SECTOR);
	struct stats *st = stats_create();
	struct mshr *m = mshr_create(&p, LINE, SECTOR, st, "l1d");
	struct mem_req r[7];

	(void)state;
	reqs_init(r, 7, 0x1000);
	r[4].addr = 0x2000;
	assert_true(mshr_is_empty(m));
	add_expect(m, &r[0], 0x1, MSHR_NEW, 0x1);
	assert_int_equal(mshr_used(m), 1);
	add_expect(m, &r[1], 0x1, MSHR_MERGED, 0);
	add_expect(m, &r[2], 0x1, MSHR_MERGE_FULL, 0);
	add_expect(m, &r[3], 0x2, MSHR_NEW, 0x2);
	assert_int_equal(mshr_used(m), 2);
	assert_int_equal(mshr_pending(m, 0x1000), 0x3);
	assert_int_equal(mshr_pending(m, 0x107f), 0x3);
	assert_int_equal(mshr_pending(m, 0x1080), 0);
	add_expect(m, &r[4], 0x1, MSHR_FULL, 0);
	add_expect(m, &r[5], 0x3, MSHR_MERGE_FULL, 0);
	add_expect(m, &r[6], 0x6, MSHR_FULL, 0);
	assert_int_equal(mshr_waiting(m), 3);

	assert_chain(mshr_fill(m, 0x1000, 0x1), (const uint64_t[]){ 1, 2, 0 });
	mshr_check(m);
	assert_int_equal(mshr_used(m), 1);
	add_expect(m, &r[4], 0x1, MSHR_NEW, 0x1);
	assert_chain(mshr_fill(m, 0x1040, 0x2), (const uint64_t[]){ 4, 0 });
	assert_chain(mshr_fill(m, 0x2000, 0x1), (const uint64_t[]){ 5, 0 });
	mshr_check(m);
	assert_true(mshr_is_empty(m));

	assert_int_equal(stat(st, "l1d.allocations"), 3);
	assert_int_equal(stat(st, "l1d.merges"), 1);
	assert_int_equal(stat(st, "l1d.fail_full"), 2);
	assert_int_equal(stat(st, "l1d.fail_merge"), 2);
	assert_int_equal(stat(st, "l1d.fetched_sectors"), 3);
	assert_int_equal(stat(st, "l1d.fills"), 3);
	assert_int_equal(stat(st, "l1d.occupancy.hwm"), 2);
	assert_int_equal(stat(st, "l1d.occupancy.cur"), 0);
	assert_int_equal(stat(st, "l1d.waiting.hwm"), 3);
	/* Sector entries served 2 (sector 0), 1 (sector 1), 1 (0x2000 sector 0). */
	assert_int_equal(stat(st, "l1d.requests_per_entry.count"), 3);
	assert_int_equal(stat(st, "l1d.requests_per_entry.max"), 2);
	mshr_destroy(m);
	stats_destroy(st);
}

/*
 * Line granularity, 2 entries, 3 requests per entry.
 *   r1 0x1000 {0}    -> NEW, fetch {0}
 *   r2 0x1000 {0,1}  -> MERGED_NEEDS_SECTORS, fetch {1}; the entry now waits for {0,1}
 *   r3 0x1000 {1}    -> MERGED
 *   r4 0x1000 {2}    -> MERGE_FULL (3 requests on the entry)
 *   r5 0x2000 {3}    -> NEW; r6 0x3000 -> FULL
 *   fill {0}         -> r1 only (r2 still lacks sector 1)
 *   fill {1}         -> r2 r3, entry freed
 *   r4 again         -> NEW (fresh entry, fetch {2})
 */
static void test_line_sequence(void **state)
{
	struct mshr_params p = params(2, 3, MSHR_GRAN_LINE);
	struct stats *st = stats_create();
	struct mshr *m = mshr_create(&p, LINE, SECTOR, st, "l2s0.mshr");
	struct mem_req r[6];

	(void)state;
	reqs_init(r, 6, 0x1000);
	r[4].addr = 0x2000;
	r[5].addr = 0x3000;
	add_expect(m, &r[0], 0x1, MSHR_NEW, 0x1);
	add_expect(m, &r[1], 0x3, MSHR_MERGED_NEEDS_SECTORS, 0x2);
	assert_int_equal(mshr_pending(m, 0x1000), 0x3);
	assert_int_equal(mshr_used(m), 1);
	add_expect(m, &r[2], 0x2, MSHR_MERGED, 0);
	add_expect(m, &r[3], 0x4, MSHR_MERGE_FULL, 0);
	add_expect(m, &r[4], 0x8, MSHR_NEW, 0x8);
	add_expect(m, &r[5], 0x1, MSHR_FULL, 0);
	assert_int_equal(mshr_used(m), 2);

	assert_chain(mshr_fill(m, 0x1000, 0x1), (const uint64_t[]){ 1, 0 });
	mshr_check(m);
	assert_int_equal(mshr_pending(m, 0x1000), 0x2);
	assert_int_equal(mshr_used(m), 2);
	assert_chain(mshr_fill(m, 0x1000, 0x2), (const uint64_t[]){ 2, 3, 0 });
	mshr_check(m);
	assert_int_equal(mshr_used(m), 1);
	add_expect(m, &r[3], 0x4, MSHR_NEW, 0x4);
	/* A fill of the whole line brings the one sector asked for. */
	assert_chain(mshr_fill(m, 0x1000, 0xf), (const uint64_t[]){ 4, 0 });
	assert_chain(mshr_fill(m, 0x2000, 0xf), (const uint64_t[]){ 5, 0 });
	assert_true(mshr_is_empty(m));

	assert_int_equal(stat(st, "l2s0.mshr.allocations"), 3);
	assert_int_equal(stat(st, "l2s0.mshr.merges"), 2);
	assert_int_equal(stat(st, "l2s0.mshr.fail_full"), 1);
	assert_int_equal(stat(st, "l2s0.mshr.fail_merge"), 1);
	assert_int_equal(stat(st, "l2s0.mshr.fetched_sectors"), 4);
	/* Line entries served 3, 1, 1 requests. */
	assert_int_equal(stat(st, "l2s0.mshr.requests_per_entry.count"), 3);
	assert_int_equal(stat(st, "l2s0.mshr.requests_per_entry.max"), 3);
	mshr_destroy(m);
	stats_destroy(st);
}

/* Sector granularity: a request missing a whole line takes 4 entries and comes back only when the
 * last of them fills; one merged behind two of them comes back first. */
static void test_partial_fills(void **state)
{
	struct mshr_params p = params(8, 4, MSHR_GRAN_SECTOR);
	struct mshr *m = mshr_create(&p, LINE, SECTOR, NULL, NULL);
	struct mem_req r[3];

	(void)state;
	reqs_init(r, 3, 0x4000);
	add_expect(m, &r[0], 0xf, MSHR_NEW, 0xf);
	assert_int_equal(mshr_used(m), 4);
	add_expect(m, &r[1], 0x3, MSHR_MERGED, 0);
	add_expect(m, &r[2], 0xc, MSHR_MERGED, 0);
	assert_null(mshr_fill(m, 0x4000, 0x1));
	mshr_check(m);
	assert_int_equal(mshr_used(m), 3);
	assert_chain(mshr_fill(m, 0x4000, 0x2), (const uint64_t[]){ 2, 0 });
	assert_int_equal(mshr_used(m), 2);
	assert_null(mshr_fill(m, 0x4000, 0x8));
	/* Sectors not in flight, and lines with no entry, are ignored. */
	assert_null(mshr_fill(m, 0x4000, 0x3));
	assert_null(mshr_fill(m, 0x8000, 0xf));
	mshr_check(m);
	assert_int_equal(mshr_pending(m, 0x4000), 0x4);
	assert_chain(mshr_fill(m, 0x4000, 0xf), (const uint64_t[]){ 1, 3, 0 });
	assert_true(mshr_is_empty(m));
	mshr_check(m);
	mshr_destroy(m);
}

/* mshr_record names each line's record while anything of it is in flight (UINT32_MAX otherwise),
 * and mshr_fill_at at that record returns what mshr_fill would, on a twin MSHR given the same
 * requests; the record stays the line's until its last sector is filled. */
static void test_fill_at(void **state)
{
	struct mshr_params p = params(8, 4, MSHR_GRAN_SECTOR);
	struct mshr *a = mshr_create(&p, LINE, SECTOR, NULL, NULL);
	struct mshr *b = mshr_create(&p, LINE, SECTOR, NULL, NULL);
	struct mem_req ra[3], rb[3];
	uint32_t rec0, rec1;

	(void)state;
	reqs_init(ra, 3, 0x4000);
	reqs_init(rb, 3, 0x4000);
	ra[2].addr = rb[2].addr = 0x8000;
	assert_int_equal(mshr_record(b, 0x4000), UINT32_MAX);
	add_expect(a, &ra[0], 0x3, MSHR_NEW, 0x3);
	add_expect(b, &rb[0], 0x3, MSHR_NEW, 0x3);
	add_expect(a, &ra[1], 0x2, MSHR_MERGED, 0);
	add_expect(b, &rb[1], 0x2, MSHR_MERGED, 0);
	add_expect(a, &ra[2], 0x1, MSHR_NEW, 0x1);
	add_expect(b, &rb[2], 0x1, MSHR_NEW, 0x1);
	rec0 = mshr_record(b, 0x4000);
	rec1 = mshr_record(b, 0x8020); /* any address in the line */
	assert_true(rec0 < 8 && rec1 < 8 && rec0 != rec1);
	assert_null(mshr_fill(a, 0x4000, 0x1));
	assert_null(mshr_fill_at(b, rec0, 0x4000, 0x1));
	mshr_check(b);
	assert_int_equal(mshr_record(b, 0x4000), rec0);
	assert_chain(mshr_fill(a, 0x4000, 0x2), (const uint64_t[]){ 1, 2, 0 });
	assert_chain(mshr_fill_at(b, rec0, 0x4000, 0x2), (const uint64_t[]){ 1, 2, 0 });
	assert_int_equal(mshr_record(b, 0x4000), UINT32_MAX); /* freed with its last sector */
	assert_chain(mshr_fill_at(b, rec1, 0x8000, 0x1), (const uint64_t[]){ 3, 0 });
	assert_true(mshr_is_empty(b));
	mshr_check(b);
	expect_assert_failure(mshr_fill_at(b, 8, 0x8000, 0x1)); /* 8 records */
	mshr_destroy(a);
	mshr_destroy(b);
}

/* Waiters come back in arrival order whatever order their sectors complete in; the chain is
 * written fresh (stale ->merged values do not leak). */
static void test_fill_order(void **state)
{
	struct mshr_params p = params(4, 8, MSHR_GRAN_LINE);
	struct mshr *m = mshr_create(&p, LINE, SECTOR, NULL, NULL);
	struct mem_req r[6], junk;
	static const uint32_t need[6] = { 0x1, 0x2, 0x1, 0x3, 0x2, 0x1 };
	int i;

	(void)state;
	reqs_init(r, 6, 0x9000);
	for (i = 0; i < 6; i++) {
		r[i].merged = &junk;
		assert_true(mshr_add(m, &r[i], need[i], NULL) <= MSHR_MERGED_NEEDS_SECTORS);
	}
	mshr_check(m);
	assert_chain(mshr_fill(m, 0x9000, 0x2), (const uint64_t[]){ 2, 5, 0 });
	assert_chain(mshr_fill(m, 0x9000, 0x1), (const uint64_t[]){ 1, 3, 4, 6, 0 });
	assert_true(mshr_is_empty(m));
	mshr_destroy(m);
}

/* Line granularity: once a sector has been filled, a later request for it makes the entry fetch
 * it again (the cache would normally hit; the MSHR does not assume so). */
static void test_refetch_after_fill(void **state)
{
	struct mshr_params p = params(2, 4, MSHR_GRAN_LINE);
	struct mshr *m = mshr_create(&p, LINE, SECTOR, NULL, NULL);
	struct mem_req r[3];

	(void)state;
	reqs_init(r, 3, 0x100);
	add_expect(m, &r[0], 0x1, MSHR_NEW, 0x1);
	add_expect(m, &r[1], 0x2, MSHR_MERGED_NEEDS_SECTORS, 0x2);
	assert_chain(mshr_fill(m, 0x100, 0x1), (const uint64_t[]){ 1, 0 });
	add_expect(m, &r[2], 0x1, MSHR_MERGED_NEEDS_SECTORS, 0x1);
	assert_chain(mshr_fill(m, 0x100, 0x3), (const uint64_t[]){ 2, 3, 0 });
	assert_true(mshr_is_empty(m));
	mshr_destroy(m);
}

/* One entry used 1000 times over different lines; then 4 entries over lines that share table
 * slots, freed in every rotation, to exercise backward-shift deletion. */
static void test_entry_reuse(void **state)
{
	struct mshr_params p1 = params(1, 1, MSHR_GRAN_LINE);
	struct mshr_params p4 = params(4, 2, MSHR_GRAN_SECTOR);
	struct stats *st = stats_create();
	struct mshr *m = mshr_create(&p1, LINE, SECTOR, st, "one");
	struct mem_req r[2];
	int i, k, rot;

	(void)state;
	reqs_init(r, 2, 0);
	for (i = 0; i < 1000; i++) {
		r[0].addr = (addr_t)i * 0x10000 + 0x80;
		r[1].addr = r[0].addr + LINE;
		add_expect(m, &r[0], 0x4, MSHR_NEW, 0x4);
		add_expect(m, &r[1], 0x4, MSHR_FULL, 0);
		add_expect(m, &r[0], 0x4, MSHR_MERGE_FULL, 0);
		assert_chain(mshr_fill(m, r[0].addr, 0x4), (const uint64_t[]){ 1, 0 });
		assert_true(mshr_is_empty(m));
	}
	assert_int_equal(stat(st, "one.allocations"), 1000);
	assert_int_equal(stat(st, "one.occupancy.hwm"), 1);
	mshr_destroy(m);
	stats_destroy(st);

	m = mshr_create(&p4, LINE, SECTOR, NULL, NULL);
	for (rot = 0; rot < 4; rot++) {
		struct mem_req q[4];

		reqs_init(q, 4, 0);
		for (k = 0; k < 4; k++) {
			q[k].addr = (addr_t)k << 20; /* 4 lines in a table of 8 slots */
			add_expect(m, &q[k], 0x1, MSHR_NEW, 0x1);
		}
		for (k = 0; k < 4; k++) {
			int j = (k + rot) % 4;

			assert_chain(mshr_fill(m, q[j].addr, 0x1),
				     (const uint64_t[]){ (uint64_t)j + 1, 0 });
			mshr_check(m);
			/* Every line still in flight is still found. */
			for (int l = k + 1; l < 4; l++)
				assert_int_equal(mshr_pending(m, q[(l + rot) % 4].addr), 0x1);
		}
		assert_true(mshr_is_empty(m));
	}
	mshr_destroy(m);
}

/* The waiter pool starts at 2 slots per entry and grows to entries x max_merge. */
static void test_waiter_pool_growth(void **state)
{
	struct mshr_params p = params(2, 64, MSHR_GRAN_LINE);
	struct mshr *m = mshr_create(&p, LINE, SECTOR, NULL, NULL);
	struct mem_req r[129];
	int i;

	(void)state;
	reqs_init(r, 129, 0x0);
	for (i = 0; i < 128; i++) {
		r[i].addr = i < 64 ? 0x0 : 0x80;
		assert_true(mshr_add(m, &r[i], 0x1, NULL) <= MSHR_MERGED);
	}
	mshr_check(m);
	assert_int_equal(mshr_waiting(m), 128);
	add_expect(m, &r[128], 0x1, MSHR_MERGE_FULL, 0);
	assert_non_null(mshr_fill(m, 0x0, 0x1));
	assert_non_null(mshr_fill(m, 0x80, 0x1));
	assert_true(mshr_is_empty(m));
	mshr_check(m);
	mshr_destroy(m);
}

/* Other geometries: 8 sectors of 16 B in a 128 B line; 64 B lines of 2 sectors. */
static void test_geometry(void **state)
{
	struct mshr_params p = params(8, 2, MSHR_GRAN_SECTOR);
	struct mshr *m = mshr_create(&p, 128, 16, NULL, NULL);
	struct mem_req r[2];

	(void)state;
	reqs_init(r, 2, 0x200);
	add_expect(m, &r[0], 0xff, MSHR_NEW, 0xff);
	assert_int_equal(mshr_used(m), 8);
	add_expect(m, &r[1], 0x80, MSHR_MERGED, 0);
	assert_chain(mshr_fill(m, 0x27f, 0x80), (const uint64_t[]){ 2, 0 });
	assert_chain(mshr_fill(m, 0x200, 0x7f), (const uint64_t[]){ 1, 0 });
	mshr_destroy(m);

	m = mshr_create(&p, 64, 32, NULL, NULL);
	r[0].addr = 0x40;
	r[1].addr = 0x80;
	add_expect(m, &r[0], 0x3, MSHR_NEW, 0x3);
	add_expect(m, &r[1], 0x3, MSHR_NEW, 0x3);
	assert_int_equal(mshr_pending(m, 0x40), 0x3);
	assert_int_equal(mshr_pending(m, 0x80), 0x3);
	expect_assert_failure(mshr_add(m, &r[1], 0x4, NULL)); /* only 2 sectors */
	mshr_destroy(m);
}

static void test_dump(void **state)
{
	struct mshr_params p = params(4, 4, MSHR_GRAN_LINE);
	struct mshr *m = mshr_create(&p, LINE, SECTOR, NULL, "sm3.l1d.mshr");
	struct mem_req r[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	reqs_init(r, 2, 0x1a80);
	mshr_add(m, &r[0], 0x1, NULL);
	mshr_add(m, &r[1], 0x6, NULL);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	mshr_dump(m, f);
	fclose(f);
	assert_string_equal(buf,
			    "sm3.l1d.mshr: 1 of 4 line entries in use, 2 requests waiting\n"
			    "  line 0x1a80: sectors 0x7 in flight, 2 waiting: "
			    "req 1 (needs 0x1) req 2 (needs 0x6)\n");
	free(buf);
	mshr_destroy(m);
}

static void test_contract(void **state)
{
	struct mshr_params p = params(4, 4, MSHR_GRAN_SECTOR);
	struct mshr_params bad = params(4, 4, MSHR_GRAN_SECTOR);
	struct mshr *m = mshr_create(&p, LINE, SECTOR, NULL, NULL);
	struct mem_req r;

	(void)state;
	reqs_init(&r, 1, 0x0);
	expect_assert_failure(mshr_add(m, &r, 0, NULL));
	expect_assert_failure(mshr_add(m, &r, 0x10, NULL));
	expect_assert_failure(mshr_probe(m, 0x0, 0, NULL));
	assert_true(mshr_is_empty(m));
	mshr_destroy(m);
	expect_assert_failure(mshr_create(&bad, 96, SECTOR, NULL, NULL));
	expect_assert_failure(mshr_create(&bad, 4096, 64, NULL, NULL)); /* 64 sectors */
	bad.max_merge = 0;
	expect_assert_failure(mshr_create(&bad, LINE, SECTOR, NULL, NULL));
}

/* ---------------------------------------------------------------------------------------------
 * Random operations against a reference model
 */

/* The model: waiters as a flat list in arrival order, everything recomputed by scanning. */
struct model_waiter {
	struct mem_req *r;
	addr_t line;
	uint32_t left;
};

struct model {
	struct model_waiter w[4096];
	size_t n;
	uint32_t entries, max_merge, nsect;
	bool line_gran;
};

static uint32_t model_pending(const struct model *md, addr_t line)
{
	uint32_t pend = 0;
	size_t i;

	for (i = 0; i < md->n; i++)
		if (md->w[i].line == line)
			pend |= md->w[i].left;
	return pend;
}

static uint32_t model_used(const struct model *md)
{
	uint32_t used = 0;
	size_t i, j;

	for (i = 0; i < md->n; i++) {
		bool first = true;

		for (j = 0; j < i; j++)
			if (md->w[j].line == md->w[i].line)
				first = false;
		if (!first)
			continue;
		used += md->line_gran
				? 1
				: (uint32_t)__builtin_popcount(model_pending(md, md->w[i].line));
	}
	return used;
}

static enum mshr_result model_classify(const struct model *md, addr_t line, uint32_t need,
				       uint32_t *fetch)
{
	uint32_t pend = model_pending(md, line), used = model_used(md);
	uint32_t old = need & pend, fresh = need & ~pend, s, nwait = 0;
	uint32_t cnt[MSHR_MAX_SECTORS] = { 0 };
	size_t i;

	*fetch = 0;
	for (i = 0; i < md->n; i++)
		if (md->w[i].line == line) {
			nwait++;
			for (s = 0; s < md->nsect; s++)
				cnt[s] += md->w[i].left >> s & 1;
		}
	if (pend == 0) {
		uint32_t n = md->line_gran ? 1 : (uint32_t)__builtin_popcount(need);

		if (used + n > md->entries)
			return MSHR_FULL;
		*fetch = need;
		return MSHR_NEW;
	}
	if (md->line_gran) {
		if (nwait >= md->max_merge)
			return MSHR_MERGE_FULL;
		*fetch = fresh;
		return fresh ? MSHR_MERGED_NEEDS_SECTORS : MSHR_MERGED;
	}
	for (s = 0; s < md->nsect; s++)
		if ((old >> s & 1) && cnt[s] >= md->max_merge)
			return MSHR_MERGE_FULL;
	if (used + (uint32_t)__builtin_popcount(fresh) > md->entries)
		return MSHR_FULL;
	*fetch = fresh;
	if (old == 0)
		return MSHR_NEW;
	return fresh ? MSHR_MERGED_NEEDS_SECTORS : MSHR_MERGED;
}

/* xorshift64*: the test's own generator, so runs are identical everywhere. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

#define NREQ 1024
#define NLINES 12

static void run_random(enum mshr_granularity g, uint64_t seed)
{
	struct mshr_params p = params(g == MSHR_GRAN_SECTOR ? 20 : 8, 3, g);
	struct stats *st = stats_create();
	struct mshr *m = mshr_create(&p, LINE, SECTOR, st, "r");
	struct model *md = calloc(1, sizeof *md);
	struct mem_req *reqs = calloc(NREQ, sizeof *reqs);
	uint32_t *times = calloc(NREQ, sizeof *times); /* returns per request */
	uint32_t *adds = calloc(NREQ, sizeof *adds);    /* acceptances per request */
	bool *busy = calloc(NREQ, sizeof *busy);
	uint64_t s = seed, accepted = 0, returned = 0, results[MSHR_RESULT_COUNT] = { 0 };
	int op;
	size_t i;

	assert_non_null(md);
	assert_non_null(reqs);
	md->entries = p.entries;
	md->max_merge = p.max_merge;
	md->nsect = LINE / SECTOR;
	md->line_gran = g == MSHR_GRAN_LINE;
	for (i = 0; i < NREQ; i++)
		reqs[i].id = i + 1;

	for (op = 0; op < 100000; op++) {
		addr_t line = (rnd(&s) % NLINES) * 0x3000 + LINE; /* lines collide in the table */

		if (rnd(&s) % 100 < 55) {
			uint32_t need = (uint32_t)(rnd(&s) % 15) + 1, f, mf;
			size_t k = rnd(&s) % NREQ;
			enum mshr_result want, got;

			while (busy[k])
				k = (k + 1) % NREQ;
			reqs[k].addr = line + rnd(&s) % LINE; /* any address in the line */
			want = model_classify(md, line, need, &mf);
			got = mshr_add(m, &reqs[k], need, &f);
			if (got != want)
				fail_msg("op %d: add %s, model %s", op, mshr_result_name(got),
					 mshr_result_name(want));
			assert_int_equal(f, mf);
			results[got]++;
			if (got != MSHR_FULL && got != MSHR_MERGE_FULL) {
				busy[k] = true;
				adds[k]++;
				accepted++;
				md->w[md->n].r = &reqs[k];
				md->w[md->n].line = line;
				md->w[md->n].left = need;
				md->n++;
			}
		} else {
			uint32_t pend = model_pending(md, line);
			uint32_t sectors = rnd(&s) % 4 == 0 ? (uint32_t)(rnd(&s) % 16)
							    : pend & (uint32_t)(rnd(&s) % 16);
			uint32_t got = sectors & pend;
			struct mem_req *chain = mshr_fill(m, line + rnd(&s) % LINE, sectors);
			size_t j = 0;

			/* The model's satisfied waiters, in arrival order, must be the chain. */
			for (i = 0; i < md->n; i++) {
				struct model_waiter *w = &md->w[i];

				if (w->line == line)
					w->left &= ~got;
				if (w->line == line && w->left == 0) {
					assert_non_null(chain);
					assert_ptr_equal(chain, w->r);
					busy[w->r - reqs] = false;
					times[w->r - reqs]++;
					returned++;
					chain = chain->merged;
					continue;
				}
				md->w[j++] = *w;
			}
			md->n = j;
			assert_null(chain);
		}
		mshr_check(m);
		assert_int_equal(mshr_used(m), model_used(md));
		assert_int_equal(mshr_waiting(m), md->n);
		assert_int_equal(mshr_pending(m, line), model_pending(md, line));
	}
	/* Drain: fill everything; then every accepted request has come back exactly once. */
	for (i = 0; i < NLINES; i++) {
		addr_t line = i * 0x3000 + LINE;
		struct mem_req *c = mshr_fill(m, line, 0xf);

		for (; c != NULL; c = c->merged) {
			assert_true(busy[c - reqs]);
			busy[c - reqs] = false;
			times[c - reqs]++;
			returned++;
		}
	}
	mshr_check(m);
	assert_true(mshr_is_empty(m));
	assert_int_equal(returned, accepted);
	for (i = 0; i < NREQ; i++)
		assert_int_equal(times[i], adds[i]);
	assert_int_equal(stat(st, "r.merges"),
			 results[MSHR_MERGED] + results[MSHR_MERGED_NEEDS_SECTORS]);
	assert_int_equal(stat(st, "r.fail_full"), results[MSHR_FULL]);
	assert_int_equal(stat(st, "r.fail_merge"), results[MSHR_MERGE_FULL]);
	/* Every result happened (the mix is not degenerate). */
	for (i = 0; i < MSHR_RESULT_COUNT; i++)
		assert_true(results[i] > 100);
	print_message("# %s: %llu new, %llu merged, %llu merged+sectors, %llu full, "
		      "%llu merge-full\n",
		      mshr_granularity_names[g], (unsigned long long)results[MSHR_NEW],
		      (unsigned long long)results[MSHR_MERGED],
		      (unsigned long long)results[MSHR_MERGED_NEEDS_SECTORS],
		      (unsigned long long)results[MSHR_FULL],
		      (unsigned long long)results[MSHR_MERGE_FULL]);
	mshr_destroy(m);
	stats_destroy(st);
	free(md);
	free(reqs);
	free(times);
	free(adds);
	free(busy);
}

static void test_random_sector(void **state)
{
	(void)state;
	run_random(MSHR_GRAN_SECTOR, 0x9E3779B97F4A7C15ull);
}

static void test_random_line(void **state)
{
	(void)state;
	run_random(MSHR_GRAN_LINE, 0xD1B54A32D192ED03ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_table),
		cmocka_unit_test(test_result_names),
		cmocka_unit_test(test_sector_sequence),
		cmocka_unit_test(test_line_sequence),
		cmocka_unit_test(test_partial_fills),
		cmocka_unit_test(test_fill_order),
		cmocka_unit_test(test_fill_at),
		cmocka_unit_test(test_refetch_after_fill),
		cmocka_unit_test(test_entry_reuse),
		cmocka_unit_test(test_waiter_pool_growth),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_contract),
		cmocka_unit_test(test_random_sector),
		cmocka_unit_test(test_random_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
