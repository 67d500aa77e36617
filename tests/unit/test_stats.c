/*
 * test_stats.c - the statistics registry (sim/core/stats.c).
 *
 * Golden dumps in the three formats (tests/data/stats/expected.{txt,json,csv}), checked byte for
 * byte; the hand computation behind their numbers is in golden_build(). With GMSIM_UPDATE_GOLDEN=1
 * the golden tests write the files instead of reading them: review the diff before committing.
 * The rest covers nesting order, host values, name checks, lookup, reset, quantiles and scale.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_rstat.h>

#include "unit.h"

#include "stats.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers */

/* The dump as a malloc'd string. */
static char *dump_str(const struct stats *st, enum stats_format fmt,
		      const struct stats_header *hdr, unsigned flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	stats_dump(st, f, fmt, hdr, flags);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static double get(const struct stats *st, const char *name)
{
	double v = -12345.0;

	if (!stats_get(st, name, &v))
		fail_msg("stats_get(\"%s\") found nothing", name);
	return v;
}

static void assert_contains(const char *hay, const char *needle)
{
	if (strstr(hay, needle) == NULL)
		fail_msg("expected to find [%s] in:\n%s", needle, hay);
}

static void assert_lacks(const char *hay, const char *needle)
{
	if (strstr(hay, needle) != NULL)
		fail_msg("did not expect [%s] in:\n%s", needle, hay);
}

static double frac(const void *ctx)
{
	const uint64_t *v = ctx; /* v[0] / v[1] */

	return (double)v[0] / (double)v[1];
}

static double third(const void *ctx)
{
	return 1.0 / 3.0;
}

static int st_setup(void **state)
{
	*state = stats_create();
	return 0;
}

static int st_teardown(void **state)
{
	stats_destroy(*state);
	return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Golden registry */

struct golden {
	struct stats *st;
	uint64_t cycles, accesses_hits[2], bytes_moved, events;
	double host_seconds, time_ns;
	struct stat_level mshr;
	struct stats_dist *lat, *dram_lat;
};

static const struct stats_header golden_hdr = {
	.version = "0.1.0",
	.config_hash = 0xdeadbeefull,
	.seed = 42,
	.host_time = "2024-01-02T03:04:05Z",
	.host_seconds = 1.5,
};

/*
 * Hand computation of the values in the goldens:
 *   l1.hit_rate          = 750 / 1000 = 0.75
 *   dram.row_hit_rate    = 1/3, %.9g -> 0.333333333
 *   sim.time_ns          = 1234.5678901234, %.9g -> 1234.56789
 *   dram.bytes_moved     = UINT64_MAX = 18446744073709551615, printed exactly
 *   load_latency_cycles  = samples 1..100 into [0, 100) in 100 unit bins:
 *       count 100, mean 5050/100 = 50.5, min 1, max 100;
 *       stddev (n - 1) = sqrt(n (n + 1) / 12) = sqrt(841.666...) = 29.0114920 -> 29.011492;
 *       100 == hi overflows: underflow 0, overflow 1; sample k fills bin [k, k + 1);
 *       p50: rank 50, the 50th sample (k = 50) fills [50, 51) -> 50 + 1/1 = 51; likewise
 *       p90 -> 91; p99: rank 99 -> 99 + 1 = 100 (clamped to max 100 anyway).
 *   dram.read_latency_ns = empty: count 0, doubles NaN (text nan, JSON null, CSV empty).
 */
static struct golden *golden_build(void)
{
	struct golden *g = calloc(1, sizeof *g);
	struct stats *st = stats_create();

	assert_non_null(g);
	g->st = st;
	g->cycles = 12345;
	g->host_seconds = 1.25;
	g->accesses_hits[0] = 750;  /* hits */
	g->accesses_hits[1] = 1000; /* accesses */
	g->bytes_moved = UINT64_MAX;
	g->time_ns = 1234.5678901234;
	stat_level_set(&g->mshr, 7);
	stat_level_set(&g->mshr, 3);

	stats_counter(st, "sim.cycles", "core cycles", &g->cycles);
	stats_real(st, "sim.host_seconds", "wall-clock seconds of the run", &g->host_seconds,
		   STATS_HOST);
	stats_counter(st, "l1.accesses", "L1 accesses", &g->accesses_hits[1]);
	stats_counter(st, "l1.hits", "L1 hits", &g->accesses_hits[0]);
	stats_counter(st, "dram.bytes_moved", "bytes moved on the DRAM bus", &g->bytes_moved);
	stats_formula(st, "l1.hit_rate", "hits / accesses", frac, g->accesses_hits);
	stats_level(st, "l1.mshr_occupancy", "MSHR entries in use", &g->mshr);
	stats_real(st, "sim.time_ns", "simulated time", &g->time_ns, 0);
	g->lat = stats_dist(st, "load_latency_cycles", "load latency, issue to data (core cycles)",
			    0, 100, 100);
	stats_formula(st, "dram.row_hit_rate", "row hits / accesses", third, NULL);
	g->dram_lat = stats_dist(st, "dram.read_latency_ns", "DRAM read latency (ns)", 0, 1000, 10);
	stats_counter(st, "sim.events", NULL, &g->events);
	for (int k = 1; k <= 100; k++)
		stats_dist_add(g->lat, k);
	return g;
}

static void golden_free(struct golden *g)
{
	stats_destroy(g->st);
	free(g);
}

static void golden_check(enum stats_format fmt, const char *relpath)
{
	struct golden *g = golden_build();
	char *got = dump_str(g->st, fmt, &golden_hdr, STATS_DUMP_NO_HOST);
	const char *upd = getenv("GMSIM_UPDATE_GOLDEN");

	if (upd != NULL && strcmp(upd, "1") == 0) {
		FILE *f = fopen(unit_src_path(relpath), "w");

		assert_non_null(f);
		fputs(got, f);
		assert_int_equal(fclose(f), 0);
		print_message("wrote %s\n", unit_src_path(relpath));
	} else {
		char *want = unit_read_src_file(relpath);

		assert_string_equal(got, want);
		free(want);
	}
	free(got);
	golden_free(g);
}

static void test_golden_text(void **state)
{
	golden_check(STATS_TEXT, "tests/data/stats/expected.txt");
}

static void test_golden_json(void **state)
{
	golden_check(STATS_JSON, "tests/data/stats/expected.json");
}

static void test_golden_csv(void **state)
{
	golden_check(STATS_CSV, "tests/data/stats/expected.csv");
}

/* The hand-computed numbers of the golden registry, through the API rather than the dump. */
static void test_golden_values(void **state)
{
	struct golden *g = golden_build();
	struct stats *st = g->st;

	assert_int_equal(stats_count(st), 12);
	assert_int_equal(stats_dist_count(g->lat), 100);
	assert_float_equal(stats_dist_mean(g->lat), 50.5, 1e-12);
	assert_float_equal(get(st, "load_latency_cycles.stddev"), sqrt(100.0 * 101.0 / 12.0), 1e-9);
	assert_float_equal(get(st, "load_latency_cycles.p50"), 51.0, 1e-9);
	assert_float_equal(get(st, "load_latency_cycles.p90"), 91.0, 1e-9);
	assert_float_equal(get(st, "load_latency_cycles.p99"), 100.0, 1e-9);
	assert_float_equal(get(st, "load_latency_cycles.overflow"), 1.0, 0);
	assert_float_equal(get(st, "load_latency_cycles.underflow"), 0.0, 0);
	assert_float_equal(get(st, "l1.hit_rate"), 0.75, 0);
	golden_free(g);
}

/* Without STATS_DUMP_NO_HOST the header's host fields and STATS_HOST values appear. */
static void test_dump_with_host(void **state)
{
	struct golden *g = golden_build();
	char *txt = dump_str(g->st, STATS_TEXT, &golden_hdr, 0);
	char *json = dump_str(g->st, STATS_JSON, &golden_hdr, 0);
	char *csv = dump_str(g->st, STATS_CSV, &golden_hdr, 0);
	char *nohost = dump_str(g->st, STATS_JSON, &golden_hdr, STATS_DUMP_NO_HOST);

	assert_contains(txt, "# gmsim 0.1.0  config 0x00000000deadbeef  seed 42  "
			     "host 1.5 s  2024-01-02T03:04:05Z\n");
	assert_contains(txt, "sim.host_seconds ");
	assert_contains(txt, " 1.25  # wall-clock seconds of the run\n");
	assert_contains(json, "    \"seed\": 42,\n"
			      "    \"host_time\": \"2024-01-02T03:04:05Z\",\n"
			      "    \"host_seconds\": 1.5\n  },\n");
	assert_contains(json, "    \"cycles\": 12345,\n    \"host_seconds\": 1.25,\n");
	assert_contains(csv, "gmsim.seed,42\ngmsim.host_time,2024-01-02T03:04:05Z\n"
			     "gmsim.host_seconds,1.5\n");
	assert_contains(csv, "\nsim.host_seconds,1.25\n");
	assert_lacks(nohost, "host");
	free(txt);
	free(json);
	free(csv);
	free(nohost);
	golden_free(g);
}

/* ------------------------------------------------------------------------------------------ */
/* JSON shape */

static void test_json_nesting_order(void **state)
{
	struct stats *st = *state;
	uint64_t v[6] = { 1, 2, 3, 4, 5, 6 };
	char *got;

	stats_counter(st, "a.x", "", &v[0]);
	stats_counter(st, "b.y", "", &v[1]);
	stats_counter(st, "a.z", "", &v[2]);
	stats_counter(st, "a.w.v", "", &v[3]);
	stats_counter(st, "c", "", &v[4]);
	stats_counter(st, "b.0th", "", &v[5]);
	got = dump_str(st, STATS_JSON, NULL, 0);
	assert_string_equal(got, "{\n"
				 "  \"a\": {\n"
				 "    \"x\": 1,\n"
				 "    \"z\": 3,\n"
				 "    \"w\": {\n"
				 "      \"v\": 4\n"
				 "    }\n"
				 "  },\n"
				 "  \"b\": {\n"
				 "    \"y\": 2,\n"
				 "    \"0th\": 6\n"
				 "  },\n"
				 "  \"c\": 5\n"
				 "}\n");
	free(got);
}

/* A group holding only host values disappears with NO_HOST instead of printing as {}. */
static void test_json_host_only_group(void **state)
{
	struct stats *st = *state;
	double wall = 2.0, cpu = 1.0;
	uint64_t n = 9;
	char *got;

	stats_real(st, "host.wall", "", &wall, STATS_HOST);
	stats_counter(st, "n", "", &n);
	stats_real(st, "host.cpu", "", &cpu, STATS_HOST);
	got = dump_str(st, STATS_JSON, NULL, STATS_DUMP_NO_HOST);
	assert_string_equal(got, "{\n  \"n\": 9\n}\n");
	free(got);
	got = dump_str(st, STATS_JSON, NULL, 0);
	assert_string_equal(got, "{\n  \"host\": {\n    \"wall\": 2,\n    \"cpu\": 1\n  },\n"
				 "  \"n\": 9\n}\n");
	free(got);
}

static void test_empty_registry(void **state)
{
	struct stats *st = *state;
	struct stats_header hdr = { .config_hash = 1, .seed = 2 }; /* no strings */
	char *s;

	s = dump_str(st, STATS_JSON, NULL, 0);
	assert_string_equal(s, "{}\n");
	free(s);
	s = dump_str(st, STATS_TEXT, NULL, 0);
	assert_string_equal(s, "");
	free(s);
	s = dump_str(st, STATS_CSV, NULL, 0);
	assert_string_equal(s, "name,value\n");
	free(s);
	s = dump_str(st, STATS_JSON, &hdr, STATS_DUMP_NO_HOST);
	assert_string_equal(s, "{\n  \"gmsim\": {\n    \"config_hash\": \"0x0000000000000001\",\n"
			       "    \"seed\": 2\n  }\n}\n");
	free(s);
	s = dump_str(st, STATS_TEXT, &hdr, STATS_DUMP_NO_HOST);
	assert_string_equal(s, "# gmsim  config 0x0000000000000001  seed 2\n");
	free(s);
	s = dump_str(st, STATS_CSV, &hdr, STATS_DUMP_NO_HOST);
	assert_string_equal(s, "name,value\ngmsim.config_hash,0x0000000000000001\ngmsim.seed,2\n");
	free(s);
	assert_int_equal(stats_count(st), 0);
}

/* Header strings are escaped in JSON and quoted in CSV; non-finite doubles per format. */
static void test_escaping_and_nonfinite(void **state)
{
	struct stats *st = *state;
	struct stats_header hdr = {
		.version = "1.0 \"beta\", a\\b\n\t\x01", .host_time = "x,y", .host_seconds = NAN,
	};
	double pinf = INFINITY, ninf = -INFINITY;
	char *s;

	stats_real(st, "p", "", &pinf, 0);
	stats_real(st, "n", "", &ninf, 0);
	s = dump_str(st, STATS_JSON, &hdr, 0);
	assert_contains(s, "\"version\": \"1.0 \\\"beta\\\", a\\\\b\\n\\t\\u0001\",\n");
	assert_contains(s, "\"host_time\": \"x,y\",\n    \"host_seconds\": null\n");
	assert_contains(s, "\"p\": null,\n  \"n\": null\n}\n");
	free(s);
	s = dump_str(st, STATS_CSV, &hdr, 0);
	assert_string_equal(s, "name,value\n"
			       "gmsim.version,\"1.0 \"\"beta\"\", a\\b\n\t\x01\"\n"
			       "gmsim.config_hash,0x0000000000000000\n"
			       "gmsim.seed,0\n"
			       "gmsim.host_time,\"x,y\"\n"
			       "gmsim.host_seconds,\n"
			       "p,inf\n"
			       "n,-inf\n");
	free(s);
	s = dump_str(st, STATS_TEXT, NULL, 0);
	assert_string_equal(s, "p   inf\nn  -inf\n");
	free(s);
}

/* ------------------------------------------------------------------------------------------ */
/* Name checks */

static void test_duplicate_name(void **state)
{
	struct stats *st = *state;
	uint64_t a = 0, b = 0;
	double r = 0;

	stats_counter(st, "l1.hits", "", &a);
	expect_assert_failure(stats_counter(st, "l1.hits", "", &b));
	expect_assert_failure(stats_real(st, "l1.hits", "", &r, 0));
	expect_assert_failure(stats_dist(st, "l1.hits", "", 0, 1, 1));
	assert_int_equal(stats_count(st), 1);
}

static void test_prefix_clash(void **state)
{
	struct stats *st = *state;
	uint64_t v = 0;
	struct stat_level lv = { 0, 0 };
	char *before, *mid, *after;

	stats_counter(st, "a.b", "", &v);
	stats_counter(st, "x.y.z", "", &v);
	before = dump_str(st, STATS_JSON, NULL, 0);
	/* a value, then a longer name through it */
	expect_assert_failure(stats_counter(st, "a.b.c", "", &v));
	expect_assert_failure(stats_level(st, "a.b.c.d", "", &lv));
	/* a longer name, then a value at its prefix */
	expect_assert_failure(stats_counter(st, "x.y", "", &v));
	expect_assert_failure(stats_counter(st, "x", "", &v));
	expect_assert_failure(stats_counter(st, "a", "", &v));
	mid = dump_str(st, STATS_JSON, NULL, 0);
	assert_string_equal(mid, before); /* the failed registrations changed nothing */
	/* a level's field names are values of their own: "q.cur" clashes with "q" */
	stats_level(st, "q", "", &lv);
	expect_assert_failure(stats_counter(st, "q.cur", "", &v));
	/* siblings are fine */
	stats_counter(st, "a.bb", "", &v);
	stats_counter(st, "x.y2", "", &v);
	assert_int_equal(stats_count(st), 5);
	after = dump_str(st, STATS_JSON, NULL, 0);
	assert_string_equal(after, "{\n  \"a\": {\n    \"b\": 0,\n    \"bb\": 0\n  },\n"
				   "  \"x\": {\n    \"y\": {\n      \"z\": 0\n    },\n"
				   "    \"y2\": 0\n  },\n"
				   "  \"q\": {\n    \"cur\": 0,\n    \"hwm\": 0\n  }\n}\n");
	free(before);
	free(mid);
	free(after);
}

/* A function of its own: a longjmp out of expect_assert_failure may clobber a caller's loop
 * variable. */
static void expect_bad_name(struct stats *st, const char *name, uint64_t *v)
{
	expect_assert_failure(stats_counter(st, name, "", v));
}

static void test_bad_names(void **state)
{
	static const char *const bad[] = {
		"", ".", "a.", ".a", "a..b", "A", "l1.Hits", "a-b", "a b", "sm3/l1", "ä",
		"gmsim", "gmsim.version", "x.y.", "a.b\n",
	};
	static const char *const good[] = { "a", "0", "3d.x_1", "_", "gmsim2.x", "x.gmsim" };
	struct stats *st = *state;
	uint64_t v = 0;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		expect_bad_name(st, bad[i], &v);
	assert_int_equal(stats_count(st), 0);
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		stats_counter(st, good[i], "", &v);
	assert_int_equal(stats_count(st), sizeof good / sizeof good[0]);
}

static void test_dist_bad_args(void **state)
{
	struct stats *st = *state;
	struct stats_dist *d;

	expect_assert_failure(stats_dist(st, "d", "", 1, 1, 4));
	expect_assert_failure(stats_dist(st, "d", "", 2, 1, 4));
	expect_assert_failure(stats_dist(st, "d", "", 0, 1, 0));
	expect_assert_failure(stats_dist(st, "d", "", 0, INFINITY, 4));
	assert_int_equal(stats_count(st), 0);
	d = stats_dist(st, "d", "", 0, 1, 4);
	expect_assert_failure(stats_dist_add(d, NAN));
	expect_assert_failure(stats_dist_quantile(d, -0.1));
	expect_assert_failure(stats_dist_quantile(d, 1.1));
	assert_int_equal(stats_dist_count(d), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Values */

static void test_get_every_kind(void **state)
{
	static const char *const dist_fields[] = {
		"count", "mean", "stddev", "min", "max", "p50", "p90", "p99", "underflow", "overflow",
	};
	struct stats *st = *state;
	uint64_t c = 7, ratio[2] = { 1, 4 };
	double r = -2.5;
	struct stat_level lv = { 0, 0 };
	struct stats_dist *d;
	double out = 0;
	char name[64];

	stats_counter(st, "u.c", "", &c);
	stats_real(st, "u.r", "", &r, 0);
	stats_level(st, "u.lv", "", &lv);
	stats_formula(st, "u.f", "", frac, ratio);
	d = stats_dist(st, "u.d", "", 0, 10, 10);
	stat_level_inc(&lv);
	stat_level_inc(&lv);
	stat_level_dec(&lv);
	stats_dist_add(d, 2);
	stats_dist_add(d, 4);

	assert_float_equal(get(st, "u.c"), 7, 0);
	assert_float_equal(get(st, "u.r"), -2.5, 0);
	assert_float_equal(get(st, "u.lv.cur"), 1, 0);
	assert_float_equal(get(st, "u.lv.hwm"), 2, 0);
	assert_float_equal(get(st, "u.f"), 0.25, 0);
	assert_float_equal(get(st, "u.d.count"), 2, 0);
	assert_float_equal(get(st, "u.d.mean"), 3, 1e-12);
	assert_float_equal(get(st, "u.d.stddev"), sqrt(2.0), 1e-12);
	assert_float_equal(get(st, "u.d.min"), 2, 0);
	assert_float_equal(get(st, "u.d.max"), 4, 0);
	assert_float_equal(get(st, "u.d.p50"), 3, 1e-12); /* rank 1: bin [2,3) full -> 3 */
	assert_float_equal(get(st, "u.d.underflow"), 0, 0);
	for (size_t i = 0; i < sizeof dist_fields / sizeof dist_fields[0]; i++) {
		snprintf(name, sizeof name, "u.d.%s", dist_fields[i]);
		assert_true(stats_get(st, name, &out));
	}
	/* formulas are evaluated when read */
	ratio[0] = 3;
	assert_float_equal(get(st, "u.f"), 0.75, 0);

	static const char *const missing[] = {
		"u", "u.lv", "u.d", "u.c.cur", "u.lv.count", "u.d.p95", "u.d.count.x", "u.x",
		"v", "", "u.", ".u.c", "u..c", "u.c.", "u.lv.cur.x",
	};
	for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
		out = 99;
		if (stats_get(st, missing[i], &out))
			fail_msg("stats_get(\"%s\") found something", missing[i]);
		assert_float_equal(out, 99, 0);
	}
}

static void test_reset(void **state)
{
	struct stats *st = *state;
	uint64_t c = 5, ratio[2] = { 1, 2 };
	double r = 3.5;
	struct stat_level lv = { 0, 0 };
	struct stats_dist *d;

	stats_counter(st, "c", "", &c);
	stats_real(st, "r", "", &r, STATS_HOST);
	stats_level(st, "lv", "", &lv);
	stats_formula(st, "f", "", frac, ratio);
	d = stats_dist(st, "d", "", 0, 10, 10);
	stat_level_set(&lv, 9);
	stat_level_set(&lv, 4);
	stats_dist_add(d, -1);
	stats_dist_add(d, 5);
	stats_dist_add(d, 50);

	stats_reset(st);
	assert_int_equal(c, 0);
	assert_float_equal(r, 0.0, 0);
	assert_int_equal(lv.cur, 4);
	assert_int_equal(lv.hwm, 4);
	assert_int_equal(ratio[0], 1); /* a formula's inputs are not the registry's */
	assert_int_equal(stats_dist_count(d), 0);
	assert_true(isnan(stats_dist_mean(d)));
	assert_float_equal(get(st, "d.underflow"), 0, 0);
	assert_float_equal(get(st, "d.overflow"), 0, 0);
	assert_true(isnan(get(st, "d.p50")));
	/* the distribution works again, with nothing of the old samples left */
	stats_dist_add(d, 7.5);
	assert_float_equal(get(st, "d.count"), 1, 0);
	assert_float_equal(get(st, "d.min"), 7.5, 0);
	assert_float_equal(get(st, "d.max"), 7.5, 0);
	assert_float_equal(get(st, "d.p50"), 7.5, 0);
}

static void test_under_overflow(void **state)
{
	struct stats *st = *state;
	struct stats_dist *d = stats_dist(st, "d", "", 10, 20, 10);
	/* one sample below lo, lo itself, inside, just under hi, hi itself, and far above */
	static const double xs[] = { 5, 9.999, 10, 15.5, 19.999, 20, 100 };

	for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
		stats_dist_add(d, xs[i]);
	assert_int_equal(stats_dist_count(d), 7);
	assert_float_equal(get(st, "d.underflow"), 2, 0);
	assert_float_equal(get(st, "d.overflow"), 2, 0);
	assert_float_equal(get(st, "d.count"), 7, 0);
	assert_float_equal(get(st, "d.min"), 5, 0);
	assert_float_equal(get(st, "d.max"), 100, 0);
	assert_float_equal(stats_dist_mean(d), (5 + 9.999 + 10 + 15.5 + 19.999 + 20 + 100) / 7,
			   1e-12);
	/* gsl's last edge may round either side of hi; no sample is ever lost */
	d = stats_dist(st, "e", "", 0.1, 0.3, 7);
	stats_dist_add(d, 0.3);
	stats_dist_add(d, nextafter(0.3, 0));
	stats_dist_add(d, 0.1);
	stats_dist_add(d, nextafter(0.1, 0));
	assert_float_equal(get(st, "e.count"), 4, 0);
	assert_float_equal(get(st, "e.underflow"), 1, 0);
	assert_true(get(st, "e.overflow") >= 1);
}

/* stats_dist_quantile inverts the piecewise-linear CDF of the histogram (see stats.c). */
static void test_quantile_interpolation(void **state)
{
	struct stats *st = *state;
	struct stats_dist *d = stats_dist(st, "a", "", 0, 10, 10);

	/* 2.0 and 2.5 in bin [2, 3), 7.5 in bin [7, 8): count 3 */
	stats_dist_add(d, 2.0);
	stats_dist_add(d, 2.5);
	stats_dist_add(d, 7.5);
	assert_float_equal(stats_dist_quantile(d, 0.0), 2.0, 1e-12);        /* rank 0 */
	assert_float_equal(stats_dist_quantile(d, 1.0 / 3), 2.5, 1e-12);    /* rank 1: 2 + 1/2 */
	assert_float_equal(stats_dist_quantile(d, 0.5), 2.75, 1e-12);       /* rank 1.5 */
	assert_float_equal(stats_dist_quantile(d, 2.0 / 3), 3.0, 1e-12);    /* rank 2: bin top */
	assert_float_equal(stats_dist_quantile(d, 0.8), 7.4, 1e-12);        /* rank 2.4: 7 + .4 */
	assert_float_equal(stats_dist_quantile(d, 0.9), 7.5, 1e-12);        /* 7.7 clamped to max */
	assert_float_equal(stats_dist_quantile(d, 1.0), 7.5, 1e-12);

	/* underflow counts at lo, overflow at the largest sample */
	d = stats_dist(st, "b", "", 10, 20, 10);
	stats_dist_add(d, 5);
	stats_dist_add(d, 5);
	stats_dist_add(d, 15);
	stats_dist_add(d, 25);
	assert_float_equal(stats_dist_quantile(d, 0.0), 10, 1e-12);
	assert_float_equal(stats_dist_quantile(d, 0.25), 10, 1e-12);  /* rank 1 */
	assert_float_equal(stats_dist_quantile(d, 0.5), 10, 1e-12);   /* rank 2 */
	assert_float_equal(stats_dist_quantile(d, 0.6), 15.4, 1e-12); /* rank 2.4 */
	assert_float_equal(stats_dist_quantile(d, 0.8), 25, 1e-12);   /* rank 3.2: overflow */
	assert_float_equal(stats_dist_quantile(d, 1.0), 25, 1e-12);

	/* bin centres 0.5 .. 99.5: the interpolated quantiles are the exact ones */
	d = stats_dist(st, "c", "", 0, 100, 100);
	for (int k = 0; k < 100; k++)
		stats_dist_add(d, k + 0.5);
	assert_float_equal(stats_dist_quantile(d, 0.50), 50, 1e-9);
	assert_float_equal(stats_dist_quantile(d, 0.90), 90, 1e-9);
	assert_float_equal(stats_dist_quantile(d, 0.99), 99, 1e-9);
	assert_float_equal(stats_dist_quantile(d, 0.125), 12.5, 1e-9);
	assert_float_equal(stats_dist_quantile(d, 1.0), 99.5, 1e-9); /* clamped to max */

	/* wide bins: 4 samples in [0, 100) interpolate across it, clamped to [min, max] */
	d = stats_dist(st, "w", "", 0, 1000, 10);
	for (int k = 0; k < 4; k++)
		stats_dist_add(d, 10 + 20 * k); /* 10 30 50 70 */
	assert_float_equal(stats_dist_quantile(d, 0.5), 50, 1e-9);  /* rank 2 of 4 -> 0 + 2/4 */
	assert_float_equal(stats_dist_quantile(d, 0.75), 70, 1e-9); /* 75 clamped to 70 */
	assert_float_equal(stats_dist_quantile(d, 0.0), 10, 1e-9);  /* 0 clamped to 10 */

	/* one sample: every quantile is that sample */
	d = stats_dist(st, "one", "", 0, 1, 1);
	stats_dist_add(d, 0.25);
	assert_float_equal(stats_dist_quantile(d, 0.0), 0.25, 0);
	assert_float_equal(stats_dist_quantile(d, 0.5), 0.25, 0);
	assert_float_equal(stats_dist_quantile(d, 1.0), 0.25, 0);
}

/* The reference model of stats.c's quantiles, on a plain gsl_histogram fed by
 * gsl_histogram_increment. */
static double ref_quantile(const gsl_histogram *h, double lo, uint64_t under, uint64_t count,
			   double mn, double mx, double q)
{
	double rank = q * (double)count, cum = (double)under, v = mx;

	if (under > 0 && rank <= cum) {
		v = lo;
	} else {
		for (size_t i = 0; i < gsl_histogram_bins(h); i++) {
			double c = gsl_histogram_get(h, i), lower, upper;

			if (c > 0.0 && rank <= cum + c) {
				gsl_histogram_get_range(h, i, &lower, &upper);
				v = lower + (rank - cum) / c * (upper - lower);
				break;
			}
			cum += c;
		}
	}
	return fmin(fmax(v, mn), mx);
}

/* stats_dist_add finds bins by arithmetic where the edges allow (see stats.c): every field must
 * equal, bit for bit, what gsl_rstat and gsl_histogram_increment give,
 * for bin layouts the units use (exact edges) and ones where gsl's edges round (searched).
 * Each layout runs twice: the second distribution of a shape takes its edges from the first
 * (the registry's shapes), and must agree with gsl as well. */
static void test_dist_matches_gsl(void **state)
{
	static const struct layout { double lo, hi; size_t bins; } lays[] = {
		{ 0, 20000, 20000 }, { 0, 8192, 1024 }, { 1, 33, 32 }, { 0, 1024, 1024 },
		{ 0.1, 0.3, 7 }, { 0, 1000, 7 }, { -5, 5, 3 }, { 10, 20, 10 },
	};
	const size_t nlays = sizeof lays / sizeof lays[0];
	struct stats *st = *state;
	unsigned seed = 12345;

	for (size_t k = 0; k < 2 * nlays; k++) {
		const struct layout *lay = &lays[k % nlays];
		struct stats_dist *d;
		gsl_rstat_workspace *rs = gsl_rstat_alloc();
		gsl_histogram *h = gsl_histogram_alloc(lay->bins);
		uint64_t under = 0, over = 0, n = 0;
		double span = lay->hi - lay->lo, got;
		char name[32];

		snprintf(name, sizeof name, "m%zu", k);
		d = stats_dist(st, name, "", lay->lo, lay->hi, lay->bins);
		gsl_histogram_set_ranges_uniform(h, lay->lo, lay->hi);
		for (int i = 0; i < 20000; i++) {
			double x;

			seed = seed * 1103515245u + 12345u;
			switch (i % 4) {
			case 0: /* integers around the range */
				x = floor(lay->lo - span / 10 + (seed >> 8) % (unsigned)(span * 1.2 + 2));
				break;
			case 1: /* fractions */
				x = lay->lo - span / 10 + (double)(seed >> 4) / 268435456.0 * span * 1.2;
				break;
			case 2: /* the edges and their neighbours */
				x = lay->lo + span * (double)((seed >> 8) % (lay->bins + 1)) /
						    (double)lay->bins;
				if (seed & 1)
					x = nextafter(x, (seed & 2) ? INFINITY : -INFINITY);
				break;
			default:
				x = (seed & 0x10000) ? lay->hi : lay->lo;
				break;
			}
			stats_dist_add(d, x);
			gsl_rstat_add(x, rs);
			n++;
			if (x < lay->lo)
				under++;
			else if (x >= lay->hi || gsl_histogram_increment(h, x) != GSL_SUCCESS)
				over++;
		}
		snprintf(name, sizeof name, "m%zu.mean", k);
		assert_true(stats_get(st, name, &got) && got == gsl_rstat_mean(rs));
		snprintf(name, sizeof name, "m%zu.stddev", k);
		assert_true(stats_get(st, name, &got) && got == gsl_rstat_sd(rs));
		snprintf(name, sizeof name, "m%zu.min", k);
		assert_true(stats_get(st, name, &got) && got == gsl_rstat_min(rs));
		snprintf(name, sizeof name, "m%zu.max", k);
		assert_true(stats_get(st, name, &got) && got == gsl_rstat_max(rs));
		snprintf(name, sizeof name, "m%zu.underflow", k);
		assert_true(stats_get(st, name, &got) && got == (double)under);
		snprintf(name, sizeof name, "m%zu.overflow", k);
		assert_true(stats_get(st, name, &got) && got == (double)over);
		assert_int_equal(stats_dist_count(d), n);
		for (int q = 0; q <= 1000; q++)
			assert_true(stats_dist_quantile(d, q / 1000.0) ==
				    ref_quantile(h, lay->lo, under, n, gsl_rstat_min(rs),
						 gsl_rstat_max(rs), q / 1000.0));
		gsl_histogram_free(h);
		gsl_rstat_free(rs);
	}
}

static void test_empty_dist(void **state)
{
	static const char *const nan_fields[] = { "mean", "stddev", "min", "max", "p50", "p90",
						  "p99" };
	struct stats *st = *state;
	struct stats_dist *d = stats_dist(st, "e", "empty", 0, 1, 2);
	char name[32], *s;

	assert_int_equal(stats_dist_count(d), 0);
	assert_true(isnan(stats_dist_mean(d)));
	assert_true(isnan(stats_dist_quantile(d, 0.5)));
	assert_float_equal(get(st, "e.count"), 0, 0);
	assert_float_equal(get(st, "e.underflow"), 0, 0);
	assert_float_equal(get(st, "e.overflow"), 0, 0);
	for (size_t i = 0; i < sizeof nan_fields / sizeof nan_fields[0]; i++) {
		snprintf(name, sizeof name, "e.%s", nan_fields[i]);
		assert_true(isnan(get(st, name)));
	}
	s = dump_str(st, STATS_TEXT, NULL, 0);
	assert_string_equal(s, "e.count        0  # empty\n"
			       "e.mean       nan\n"
			       "e.stddev     nan\n"
			       "e.min        nan\n"
			       "e.max        nan\n"
			       "e.p50        nan\n"
			       "e.p90        nan\n"
			       "e.p99        nan\n"
			       "e.underflow    0\n"
			       "e.overflow     0\n");
	free(s);
	s = dump_str(st, STATS_JSON, NULL, 0);
	assert_string_equal(s, "{\n  \"e\": {\n    \"count\": 0,\n    \"mean\": null,\n"
			       "    \"stddev\": null,\n    \"min\": null,\n    \"max\": null,\n"
			       "    \"p50\": null,\n    \"p90\": null,\n    \"p99\": null,\n"
			       "    \"underflow\": 0,\n    \"overflow\": 0\n  }\n}\n");
	free(s);
	s = dump_str(st, STATS_CSV, NULL, 0);
	assert_string_equal(s, "name,value\ne.count,0\ne.mean,\ne.stddev,\ne.min,\ne.max,\n"
			       "e.p50,\ne.p90,\ne.p99,\ne.underflow,0\ne.overflow,0\n");
	free(s);
}

/* A dump reads the units' values when it runs, not when they were registered. */
static void test_dump_reads_live_values(void **state)
{
	struct stats *st = *state;
	uint64_t hits_acc[2] = { 0, 1 };
	char *s;

	stats_counter(st, "hits", "h", &hits_acc[0]);
	stats_formula(st, "rate", "r", frac, hits_acc);
	hits_acc[0] = 1;
	hits_acc[1] = 8;
	s = dump_str(st, STATS_TEXT, NULL, 0);
	assert_string_equal(s, "hits      1  # h\nrate  0.125  # r\n");
	free(s);
}

/* Counters are 64-bit all the way to the output: a counter incremented past 2^32 (as a long run
 * does: 4.3 G events is minutes of simulation) and one near 2^64 print exactly in every format,
 * as do a level's high-water mark; nothing wraps at 32 bits. */
static void test_counters_past_2_32(void **state)
{
	struct stats *st = *state;
	uint64_t c = UINT64_C(4294967290), big = UINT64_MAX - 1;
	struct stat_level lv = { 0, 0 };
	char *s;
	int i;

	stats_counter(st, "events", "e", &c);
	stats_counter(st, "big", "b", &big);
	stats_level(st, "q", "l", &lv);
	for (i = 0; i < 10; i++) /* the hot path's ++ across the 32-bit boundary */
		c++;
	stat_level_set(&lv, (uint64_t)1 << 33);
	assert_true(c == UINT64_C(4294967300));
	s = dump_str(st, STATS_JSON, NULL, 0);
	assert_contains(s, "\"events\": 4294967300,");
	assert_contains(s, "\"big\": 18446744073709551614,");
	assert_contains(s, "\"hwm\": 8589934592");
	free(s);
	s = dump_str(st, STATS_CSV, NULL, 0);
	assert_contains(s, "events,4294967300\n");
	assert_contains(s, "big,18446744073709551614\n");
	assert_contains(s, "q.hwm,8589934592\n");
	free(s);
	s = dump_str(st, STATS_TEXT, NULL, 0);
	assert_contains(s, "4294967300");
	assert_contains(s, "18446744073709551614");
	free(s);
	/* stats_get returns a double: exact up to 2^53 */
	assert_true(get(st, "events") == 4294967300.0);
}

/* 108 SMs x 400 names, plus the clash checks at that size: linear, not quadratic. */
static void test_many_names(void **state)
{
	enum { SMS = 108, PER_SM = 400 };
	struct stats *st = *state;
	uint64_t *vals = calloc((size_t)SMS * PER_SM, sizeof *vals);
	char name[64];
	double out;
	char *s;

	assert_non_null(vals);
	for (int sm = 0; sm < SMS; sm++) {
		for (int k = 0; k < PER_SM; k++) {
			snprintf(name, sizeof name, "sm%d.%s.s%d", sm, k % 2 ? "l1d" : "tex", k);
			vals[sm * PER_SM + k] = (uint64_t)sm * 1000 + (uint64_t)k;
			stats_counter(st, name, "", &vals[sm * PER_SM + k]);
		}
	}
	assert_int_equal(stats_count(st), SMS * PER_SM);
	assert_true(stats_get(st, "sm107.tex.s398", &out));
	assert_float_equal(out, 107398, 0);
	assert_true(stats_get(st, "sm0.l1d.s1", &out));
	assert_float_equal(out, 1, 0);
	assert_false(stats_get(st, "sm0.l1d.s2", &out));
	expect_assert_failure(stats_counter(st, "sm55.l1d.s7", "", &vals[0]));
	expect_assert_failure(stats_counter(st, "sm55.l1d", "", &vals[0]));
	s = dump_str(st, STATS_JSON, NULL, 0);
	assert_contains(s, "  \"sm1\": {\n    \"tex\": {\n      \"s0\": 1000,\n      \"s2\": 1002,\n");
	free(s);
	free(vals);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_text),
		cmocka_unit_test(test_golden_json),
		cmocka_unit_test(test_golden_csv),
		cmocka_unit_test(test_golden_values),
		cmocka_unit_test(test_dump_with_host),
		cmocka_unit_test_setup_teardown(test_json_nesting_order, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_json_host_only_group, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_empty_registry, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_escaping_and_nonfinite, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_duplicate_name, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_prefix_clash, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_bad_names, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_dist_bad_args, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_get_every_kind, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_reset, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_under_overflow, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_quantile_interpolation, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_dist_matches_gsl, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_empty_dist, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_counters_past_2_32, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_dump_reads_live_values, st_setup, st_teardown),
		cmocka_unit_test_setup_teardown(test_many_names, st_setup, st_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
