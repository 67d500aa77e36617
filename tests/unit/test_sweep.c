/*
 * test_sweep.c - sweep files (sim/batch/sweep.c) and the JSON reader the results use
 * (sim/batch/json.c): tests/data/sweep/small.sweep expands to its golden point list (zip and
 * exclusion included); point ids do not depend on the order of axes or assignments; each bad
 * sweep file fails with its exact `file:line: key: message`; JSON parses, keeps number text,
 * rejects what is not JSON and writes back what it read.
 *
 * The sweep names files relative to the current directory, so the tests run from the source
 * tree ($GMSIM_SRCDIR).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "sweep.h"
#include "unit.h"

static char *points_text(const struct sweep *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	sweep_write_points(s, f);
	fclose(f);
	return buf;
}

static void test_golden(void **state)
{
	struct sim_err err;
	struct sweep *s = sweep_load("tests/data/sweep/small.sweep", &err);
	char *got, *want = unit_read_src_file("tests/data/sweep/small.points");

	(void)state;
	if (s == NULL)
		fail_msg("%s", err.msg);
	assert_int_equal(s->npoints, 10);
	assert_int_equal(s->nexcluded, 2);
	assert_int_equal(s->naxes, 6);
	assert_int_equal(s->nmetrics, 3);
	assert_true(s->timeout_s == 60.0);
	got = points_text(s);
	assert_string_equal(got, want);
	/* zipped: size 64 always goes with assoc 8 */
	assert_string_equal(s->points[3].job.set[0], "l2.cache.size_kb=64");
	assert_string_equal(s->points[3].job.set[1], "l2.cache.assoc=8");
	free(got);
	free(want);
	sweep_free(s);
}

/* The same points written in another order have the same ids. */
static void test_ids_stable(void **state)
{
	static const char a[] =
		"configs = [ \"configs/test/small-gpu.cfg\" ];\n"
		"workloads = [ \"workloads/stride.wl\" ];\n"
		"axes = { l2 = { cache = { size_kb = [ 32, 64 ]; }; }; l1 = { cache = { assoc = [ 4 ]; }; }; };\n"
		"params = { stride = [ 1, 2 ]; n = [ 8192 ]; };\n";
	static const char b[] =
		"params = { n = [ 8192 ]; stride = [ 2, 1, 8 ]; };\n"
		"axes = { l1 = { cache = { assoc = [ 4 ]; }; }; l2 = { cache = { size_kb = [ 64, 32 ]; }; }; };\n"
		"workloads = [ \"workloads/stride.wl\" ];\n"
		"configs = [ \"configs/test/small-gpu.cfg\" ];\n";
	struct sim_err err;
	struct sweep *sa = sweep_load_string("a.sweep", a, &err), *sb;
	size_t i, j, found = 0;

	(void)state;
	if (sa == NULL)
		fail_msg("%s", err.msg);
	sb = sweep_load_string("b.sweep", b, &err);
	if (sb == NULL)
		fail_msg("%s", err.msg);
	assert_int_equal(sa->npoints, 4);
	assert_int_equal(sb->npoints, 6);
	for (i = 0; i < sa->npoints; i++)
		for (j = 0; j < sb->npoints; j++)
			found += strcmp(sa->points[i].job.id, sb->points[j].job.id) == 0;
	assert_int_equal(found, 4);
	sweep_free(sa);
	sweep_free(sb);
}

struct bad {
	const char *text;
	const char *msg; /* the whole report */
};

#define HEAD "configs = [ \"configs/test/small-gpu.cfg\" ];\nworkloads = [ \"workloads/stride.wl\" ];\n"

static const struct bad bads[] = {
	{ HEAD "metric = [ \"sim.cycles\" ];\n",
	  "bad.sweep:3: metric: unknown key (did you mean \"metrics\"?)" },
	{ "workloads = [ \"workloads/stride.wl\" ];\n",
	  "bad.sweep: configs: required: an array of file names" },
	{ "configs = [ \"configs/nope.cfg\" ];\nworkloads = [ \"workloads/stride.wl\" ];\n",
	  "bad.sweep:1: configs[0]: cannot read configs/nope.cfg (names are relative to the "
	  "current directory)" },
	{ HEAD "axes = { l2 = { cache = { size_k = [ 32 ]; }; }; };\n",
	  "bad.sweep:3: axes.l2.cache.size_k: unknown config key (did you mean "
	  "\"l2.cache.size_kb\"?)" },
	{ HEAD "axes = { l2 = { cache = { size_kb = 32; }; }; };\n",
	  "bad.sweep:3: axes.l2.cache.size_kb: expected an array of values, [ v1, v2, ... ], got an "
	  "integer" },
	{ HEAD "params = { strid = [ 1 ]; };\n",
	  "bad.sweep:3: params.strid: not a parameter of workloads/stride.wl (did you mean "
	  "\"stride\"?)" },
	{ HEAD "params = { stride = ( 1, \"two\", 1 ); };\n",
	  "bad.sweep:3: params.stride[1]: expected an integer, got a string\n"
	  "bad.sweep:3: params.stride[2]: 1 is already a value of this axis" },
	{ HEAD "params = { stride = [ 1, 2 ]; n = [ 1024, 2048, 4096 ]; };\n"
	  "zip = ( [ \"stride\", \"n\" ] );\n",
	  "bad.sweep:4: zip[0][1]: n has 3 values, stride 2: zipped axes need the same number" },
	{ HEAD "params = { stride = [ 1, 2 ]; };\nzip = ( [ \"stride\", \"strid\" ] );\n",
	  "bad.sweep:4: zip[0][1]: strid is not an axis of the sweep (did you mean \"stride\"?)" },
	{ HEAD "params = { stride = [ 1, 2 ]; };\nexclude = ( { stride = 3; } );\n",
	  "bad.sweep:4: exclude[0].stride: 3 is not a value of axis stride" },
	{ HEAD "params = { stride = [ 1, 2 ]; };\nexclude = ( { stride = [ 1, 2 ]; } );\n",
	  "bad.sweep: exclude: every one of the 2 points is excluded" },
	{ HEAD "metrics = [ \"dram bw\" ];\ntimeout_s = 0;\n",
	  "bad.sweep:3: metrics[0]: expected a statistic name or pattern (letters, digits, _ . and "
	  "the wildcards * ? [ ])\n"
	  "bad.sweep:4: timeout_s: expected a number of seconds > 0" },
};

static void test_bad(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		struct sim_err err;
		struct sweep *s;
		char buf[SIM_ERR_MSG_MAX + 300];

		memset(&err, 0, sizeof err);
		s = sweep_load_string("bad.sweep", bads[i].text, &err);
		if (s != NULL)
			fail_msg("case %zu loaded", i);
		sim_err_format(&err, buf, sizeof buf);
		if (strcmp(buf, bads[i].msg) != 0)
			fail_msg("case %zu:\n got: %s\nwant: %s", i, buf, bads[i].msg);
	}
}

static void test_job_id_order(void **state)
{
	const char *s1[] = { "a.b=1", "c.d=\"x\"" }, *s2[] = { "c.d=\"x\"", "a.b=1" };
	const char *p1[] = { "n=1", "m=2" }, *p2[] = { "m=2", "n=1" };
	struct sweep_job a = { "", "c.cfg", "w.wl", s1, 2, p1, 2 };
	struct sweep_job b = { "", "c.cfg", "w.wl", s2, 2, p2, 2 };
	struct sweep_job c = { "", "c.cfg", "w.wl", s2, 2, p2, 1 };

	(void)state;
	sweep_job_set_id(&a);
	sweep_job_set_id(&b);
	sweep_job_set_id(&c);
	assert_int_equal(strlen(a.id), SWEEP_ID_LEN);
	assert_string_equal(a.id, b.id);
	assert_string_not_equal(a.id, c.id);
}

static void test_json(void **state)
{
	static const char text[] =
		"{ \"a\": 1.50, \"b\": [true, false, null, \"x\\\"\\u00e9\\n\"],\n"
		"  \"c\": { \"d\": -2e3 } }";
	char why[128], *buf = NULL;
	size_t len = 0;
	struct json *j = json_parse(text, why, sizeof why);
	FILE *f;

	(void)state;
	assert_non_null(j);
	assert_string_equal(json_get(j, "a")->text, "1.50");
	assert_true(json_get(json_get(j, "c"), "d")->num == -2000.0);
	assert_int_equal(json_get(j, "b")->nkids, 4);
	assert_string_equal(json_str(&json_get(j, "b")->kids[3]), "x\"\xc3\xa9\n");
	assert_null(json_get(j, "z"));
	f = open_memstream(&buf, &len);
	json_write(f, j, -1);
	fclose(f);
	assert_string_equal(buf, "{\"a\":1.50,\"b\":[true,false,null,\"x\\\"\xc3\xa9\\n\"],"
			    "\"c\":{\"d\":-2e3}}");
	free(buf);
	json_free(j);
	assert_null(json_parse("{ \"a\": 1,\n \"b\" 2 }", why, sizeof why));
	assert_string_equal(why, "line 2: expected ':'");
	assert_null(json_parse("[1, 2", why, sizeof why));
	assert_null(json_parse("\"abc", why, sizeof why));
	assert_string_equal(why, "line 1: unterminated string");
	assert_null(json_parse("1 2", why, sizeof why));
	assert_string_equal(why, "line 1: text after the value");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_ids_stable),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_job_id_order),
		cmocka_unit_test(test_json),
	};
	const char *src = getenv("GMSIM_SRCDIR");

	if (src != NULL && chdir(src) != 0) {
		perror(src);
		return 1;
	}
	return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
