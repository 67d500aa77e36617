/*
 * test_config.c - the config loader (cfg.c) and text helpers (text.c) on a test schema that has
 * every field type, a nested group and a required key.
 *
 * Good inputs are checked against exact field values and effective-config text; bad inputs
 * against the exact message, file and line.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cfg.h"
#include "params.h"
#include "text.h"
#include "unit.h"

/* ---------------------------------------------------------------------------------------------
 * A test schema
 */

struct t_unit_params {
	uint32_t ways;
	uint64_t size_bytes;
	int64_t offset;
	double latency_ns;
	bool enabled;
	char label[CFG_STR_MAX];
	uint32_t policy;
};

struct t_sub_params {
	uint32_t depth; /* required */
};

struct t_params {
	struct t_unit_params unit;
	struct t_sub_params sub;
};

static const char *const policy_names[] = { "lru", "fifo", "random", NULL };

static const struct cfg_field unit_fields[] = {
	CFG_U32_FIELD(struct t_unit_params, ways, 1, UINT32_MAX, "4", "ways per set"),
	CFG_U64_FIELD(struct t_unit_params, size_bytes, 1, INT64_MAX, "32768", "capacity, bytes"),
	CFG_I64_FIELD(struct t_unit_params, offset, -1000, 1000, "-7", "signed offset, bytes"),
	CFG_F64_FIELD(struct t_unit_params, latency_ns, 0.5, 1000.0, "13.75", "latency, ns"),
	CFG_BOOL_FIELD(struct t_unit_params, enabled, "true", "model it at all"),
	CFG_STR_FIELD(struct t_unit_params, label, "\"l1d\"", "name in reports"),
	CFG_ENUM_FIELD(struct t_unit_params, policy, policy_names, "\"lru\"", "replacement policy"),
};

static const struct cfg_field sub_fields[] = {
	CFG_U32_FIELD(struct t_sub_params, depth, 1, 64, NULL, "queue depth, entries"),
};

static const struct cfg_group t_groups[] = {
	{ "unit", "A unit with every type of field.", unit_fields,
	  sizeof unit_fields / sizeof unit_fields[0], offsetof(struct t_params, unit) },
	{ "unit.sub", "A nested group with a required key.", sub_fields,
	  sizeof sub_fields / sizeof sub_fields[0], offsetof(struct t_params, sub) },
};

static const struct cfg_schema t_schema = { t_groups, 2 };

/* Loads text (named "t.cfg") with overrides and reads it. Returns cfg_read's result. */
static int load(const char *text, const char *const *ovr, struct t_params *p, struct sim_err *err)
{
	struct cfg *c;
	int rc;

	memset(err, 0, sizeof *err);
	if (cfg_load_string(&c, "t.cfg", text, err) != 0)
		return -2;
	for (; ovr != NULL && *ovr != NULL; ovr++) {
		if (cfg_override(c, *ovr, err) != 0) {
			cfg_destroy(c);
			return -3;
		}
	}
	rc = cfg_read(c, &t_schema, p, err);
	cfg_destroy(c);
	return rc;
}

static const char *fmt_err(const struct sim_err *err)
{
	static char buf[SIM_ERR_MSG_MAX + 300];

	return sim_err_format(err, buf, sizeof buf);
}

static void expect_error(const char *text, const char *const *ovr, int want_rc, const char *msg)
{
	struct t_params p;
	struct sim_err err;

	assert_int_equal(load(text, ovr, &p, &err), want_rc);
	assert_string_equal(fmt_err(&err), msg);
}

#define SUB_OK "unit: { sub: { depth = 8; }; };\n"

/* ---------------------------------------------------------------------------------------------
 * Good inputs
 */

static void defaults_fill_every_field(void **state)
{
	struct t_params p;
	struct sim_err err;

	(void)state;
	assert_int_equal(load(SUB_OK, NULL, &p, &err), 0);
	assert_int_equal(p.unit.ways, 4);
	assert_int_equal(p.unit.size_bytes, 32768);
	assert_int_equal(p.unit.offset, -7);
	assert_true(p.unit.latency_ns == 13.75);
	assert_true(p.unit.enabled);
	assert_string_equal(p.unit.label, "l1d");
	assert_int_equal(p.unit.policy, 0);
	assert_int_equal(p.sub.depth, 8);
}

static void values_of_every_type(void **state)
{
	struct t_params p;
	struct sim_err err;

	(void)state;
	assert_int_equal(load("unit: { ways = 4294967295; size_bytes = 8589934592;\n"
			      "  offset = -1000; latency_ns = 2; enabled = false;\n"
			      "  label = \"x\"; policy = \"random\"; sub: { depth = 64; }; };\n",
			      NULL, &p, &err),
			 0);
	assert_int_equal(p.unit.ways, UINT32_MAX);
	/* No L suffix: libconfig 1.5 alone would have read 0 here. */
	assert_int_equal(p.unit.size_bytes, 8589934592ull);
	assert_int_equal(p.unit.offset, -1000);
	assert_true(p.unit.latency_ns == 2.0); /* an integer is a number */
	assert_false(p.unit.enabled);
	assert_string_equal(p.unit.label, "x");
	assert_int_equal(p.unit.policy, 2);
	assert_int_equal(p.sub.depth, 64);
}

static void hex_and_suffixed_integers(void **state)
{
	struct t_params p;
	struct sim_err err;

	(void)state;
	assert_int_equal(load("unit: { ways = 0x10; size_bytes = 0x200000000; offset = 5L;\n"
			      "  sub: { depth = 1; }; };\n", NULL, &p, &err),
			 0);
	assert_int_equal(p.unit.ways, 16);
	assert_int_equal(p.unit.size_bytes, 0x200000000ull);
	assert_int_equal(p.unit.offset, 5);
}

static void overrides_replace_and_create(void **state)
{
	const char *const ovr[] = { "unit.ways=8", "unit.policy=fifo", "unit.label=\"a b\"",
				    "unit.sub.depth=2", "unit.latency_ns=0.5", "unit.ways=16",
				    NULL };
	struct t_params p;
	struct sim_err err;

	(void)state;
	/* unit.sub does not exist in the text: the override creates it. */
	assert_int_equal(load("unit: { ways = 2; };\n", ovr, &p, &err), 0);
	assert_int_equal(p.unit.ways, 16); /* the last override wins */
	assert_int_equal(p.unit.policy, 1);
	assert_string_equal(p.unit.label, "a b");
	assert_int_equal(p.sub.depth, 2);
	assert_true(p.unit.latency_ns == 0.5);
}

static void is_set_tells_given_from_default(void **state)
{
	struct cfg *c;
	struct sim_err err;

	(void)state;
	assert_int_equal(cfg_load_string(&c, "t.cfg", "unit: { ways = 2; };", &err), 0);
	assert_int_equal(cfg_override(c, "unit.sub.depth=3", &err), 0);
	assert_true(cfg_is_set(c, "unit.ways"));
	assert_true(cfg_is_set(c, "unit.sub.depth"));
	assert_false(cfg_is_set(c, "unit.size_bytes"));
	assert_string_equal(cfg_name(c), "t.cfg");
	cfg_destroy(c);
}

static char *effective(const struct t_params *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	cfg_write_effective(m, &t_schema, p);
	fclose(m);
	return buf;
}

static void effective_config_is_exact_and_round_trips(void **state)
{
	struct t_params p, q;
	struct sim_err err;
	char *text, *again, expected[2048];

	(void)state;
	memset(&p, 0, sizeof p); /* padding too: the structs are compared bytewise */
	memset(&q, 0, sizeof q);
	assert_int_equal(load("unit: { size_bytes = 8589934592; label = \"say \\\"hi\\\"\";"
			      " sub: { depth = 3; }; };", NULL, &p, &err), 0);
	text = effective(&p);
	snprintf(expected, sizeof expected,
		 "# gmsim effective configuration: every key, defaults filled in.\n"
		 "# Load it with -c to reproduce a run; config hash 0x%016" PRIx64 ".\n"
		 "# A unit with every type of field.\n"
		 "unit:\n"
		 "{\n"
		 "  ways = 4;  # ways per set\n"
		 "  size_bytes = 8589934592L;  # capacity, bytes\n"
		 "  offset = -7;  # signed offset, bytes\n"
		 "  latency_ns = 13.75;  # latency, ns\n"
		 "  enabled = true;  # model it at all\n"
		 "  label = \"say \\\"hi\\\"\";  # name in reports\n"
		 "  policy = \"lru\";  # replacement policy\n"
		 "  # A nested group with a required key.\n"
		 "  sub:\n"
		 "  {\n"
		 "    depth = 3;  # queue depth, entries\n"
		 "  };\n"
		 "};\n",
		 cfg_hash(&t_schema, &p));
	assert_string_equal(text, expected);
	assert_int_equal(load(text, NULL, &q, &err), 0);
	again = effective(&q);
	assert_string_equal(again, text);
	assert_memory_equal(&p, &q, sizeof p);
	free(text);
	free(again);
}

static void hash_changes_with_any_value(void **state)
{
	const char *const ovr[] = { "unit.latency_ns=13.76", NULL };
	struct t_params p, q;
	struct sim_err err;

	(void)state;
	assert_int_equal(load(SUB_OK, NULL, &p, &err), 0);
	assert_int_equal(load(SUB_OK, NULL, &q, &err), 0);
	assert_int_equal(cfg_hash(&t_schema, &p), cfg_hash(&t_schema, &q));
	assert_int_equal(load(SUB_OK, ovr, &q, &err), 0);
	assert_int_not_equal(cfg_hash(&t_schema, &p), cfg_hash(&t_schema, &q));
}

static void doc_lists_every_key(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	(void)state;
	cfg_write_doc(m, &t_schema);
	fclose(m);
	assert_non_null(strstr(buf, "## `unit`\n\nA unit with every type of field.\n"));
	assert_non_null(strstr(buf, "| `ways` | integer (32-bit) | 1 .. 4294967295 | `4` | "
				    "ways per set |\n"));
	assert_non_null(strstr(buf, "| `latency_ns` | number | 0.5 .. 1000 | `13.75` |"));
	assert_non_null(strstr(buf, "| `policy` | choice | `lru`, `fifo`, `random` | `\"lru\"` |"));
	assert_non_null(strstr(buf, "| `depth` | integer (32-bit) | 1 .. 64 | *required* |"));
	free(buf);
}

/* ---------------------------------------------------------------------------------------------
 * Bad inputs: exact messages
 */

static void unknown_key_suggests(void **state)
{
	(void)state;
	expect_error("unit: { way = 2;\n sub: { depth = 1; }; };", NULL, -1,
		     "t.cfg:1: unit.way: unknown key (did you mean unit.ways?)");
	expect_error(SUB_OK "zzz: { q = 1; };\n", NULL, -1, "t.cfg:2: zzz: unknown group");
	expect_error("unit: { sub: { depth = 1; dpth = 2; }; };", NULL, -1,
		     "t.cfg:1: unit.sub.dpth: unknown key (did you mean unit.sub.depth?)");
}

static void out_of_range_names_the_range(void **state)
{
	(void)state;
	expect_error("unit: {\n ways = 0;\n sub: { depth = 65; }; };", NULL, -1,
		     "t.cfg:2: unit.ways: expected an integer in 1..4294967295, got 0\n"
		     "t.cfg:3: unit.sub.depth: expected an integer in 1..64, got 65");
	expect_error("unit: { latency_ns = 0.25; sub: { depth = 1; }; };", NULL, -1,
		     "t.cfg:1: unit.latency_ns: expected a number in 0.5..1000, got 0.25");
}

static void sixty_four_bit_value_in_thirty_two_bit_field(void **state)
{
	(void)state;
	expect_error("unit: { ways = 4294967296; sub: { depth = 1; }; };", NULL, -1,
		     "t.cfg:1: unit.ways: expected an integer in 1..4294967295, got 4294967296");
	expect_error("unit: { ways = 8589934592L; sub: { depth = 1; }; };", NULL, -1,
		     "t.cfg:1: unit.ways: expected an integer in 1..4294967295, got 8589934592");
}

static void wrong_types(void **state)
{
	(void)state;
	expect_error("unit: { ways = 2.5; enabled = 1; label = 3; policy = \"lur\";\n"
		     " sub: { depth = \"8\"; }; };", NULL, -1,
		     "t.cfg:1: unit.ways: expected an integer in 1..4294967295, got 2.5\n"
		     "t.cfg:1: unit.enabled: expected true or false, got 1\n"
		     "t.cfg:1: unit.label: expected a string of at most 127 characters, got 3\n"
		     "t.cfg:1: unit.policy: expected one of \"lru\", \"fifo\", \"random\", "
		     "got \"lur\" (did you mean \"lru\"?)\n"
		     "t.cfg:2: unit.sub.depth: expected an integer in 1..64, got \"8\"");
	expect_error("unit: { ways = [1, 2]; sub = 3; };", NULL, -1,
		     "t.cfg:1: unit.sub: expected a group { ... }\n"
		     "t.cfg:1: unit.ways: expected an integer in 1..4294967295, got an array");
}

static void required_key_missing(void **state)
{
	(void)state;
	expect_error("unit: { ways = 2; };", NULL, -1,
		     "t.cfg: unit.sub.depth: required key missing (queue depth, entries)");
}

static void duplicate_and_syntax_errors(void **state)
{
	(void)state;
	expect_error("unit: {\n ways = 2;\n ways = 3;\n};", NULL, -2,
		     "t.cfg:3: ways: duplicate key (already set in this group)");
	expect_error("unit: {\n ways = 2\n size_bytes = ;\n};", NULL, -2,
		     "t.cfg:3: syntax error at or before \"size_bytes = ;\"");
}

static void bad_overrides(void **state)
{
	const char *const syntax[] = { "unit.ways", NULL };
	const char *const path[] = { "unit..ways=1", NULL };
	const char *const value[] = { "unit.ways=many", NULL };
	const char *const below[] = { "unit.sub.depth.x=1", NULL };
	const char *const unknown[] = { "unit.wayz=1", NULL };

	(void)state;
	expect_error(SUB_OK, syntax, -3,
		     "-o unit.ways: expected group.key=value (for example clock.core_mhz=1400)");
	expect_error(SUB_OK, path, -3,
		     "-o unit..ways=1: expected group.key=value (for example clock.core_mhz=1400)");
	expect_error(SUB_OK, value, -1,
		     "-o unit.ways=many: unit.ways: expected an integer in 1..4294967295, "
		     "got \"many\"");
	expect_error(SUB_OK, below, -3, "-o unit.sub.depth.x=1: depth is not a group in t.cfg");
	expect_error(SUB_OK, unknown, -1,
		     "-o unit.wayz=1: unit.wayz: unknown key (did you mean unit.ways?)");
}

static void files_and_includes(void **state)
{
	struct cfg *c;
	struct sim_err err;
	struct t_params p;
	char path[4096];

	(void)state;
	snprintf(path, sizeof path, "%s", unit_src_path("tests/data/config/unit/top.cfg"));
	assert_int_equal(cfg_load_file(&c, path, &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), 0);
	assert_int_equal(p.unit.ways, 12);             /* from the top file */
	assert_int_equal(p.sub.depth, 5);              /* from pieces/sub.cfg */
	assert_int_equal(p.unit.size_bytes, 1ull << 33); /* 64-bit literal in an included file */
	cfg_destroy(c);

	snprintf(path, sizeof path, "%s", unit_src_path("tests/data/config/unit/bad_piece.cfg"));
	assert_int_equal(cfg_load_file(&c, path, &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), -1);
	/* The message names the included file, with its path, and its line. */
	assert_non_null(strstr(err.file, "tests/data/config/unit/pieces/bad.cfg"));
	assert_int_equal(err.line, 3);
	assert_string_equal(err.msg, "unit.ways: expected an integer in 1..4294967295, "
				     "got 4294967296");
	cfg_destroy(c);

	assert_int_equal(cfg_load_file(&c, "/no/such/dir/x.cfg", &err), -1);
	assert_null(c);
	assert_string_equal(fmt_err(&err), "/no/such/dir/x.cfg: cannot open: No such file or "
					   "directory");
}

/* What fuzzing found libconfig 1.5 not to survive (doc/fuzzing.md) is an error with a message:
 * an unterminated string leaked its buffer, an @include of a directory made it exit(2). */
static void fuzz_findings_are_errors(void **state)
{
	char name[512];
	struct t_params p;
	struct sim_err err;
	struct cfg *c;

	expect_error("unit: { label = \"l1d;\n};\n", NULL, -2,
		     "t.cfg:1: unterminated string: the \" opened on this line has no closing \"");
	expect_error("unit: { sub: { depth = 8; }; };\n# a comment \"\nunit2 = \"a\\\"", NULL, -2,
		     "t.cfg:3: unterminated string: the \" opened on this line has no closing \"");
	/* quotes in comments and escaped quotes are not the end of anything */
	assert_int_equal(load("unit: { label = \"a\\\"#b\"; /* \" */ sub: { depth = 8; }; };"
			      " // \"\n# \"\n", NULL, &p, &err), 0);
	assert_string_equal(p.unit.label, "a\"#b");

	/* an override naming a key libconfig refuses ("_mhz") crashed on a NULL setting */
	{
		const char *const under[] = { "unit._ways=1", NULL };
		const char *const group[] = { "unit._sub.depth=1", NULL };

		expect_error(SUB_OK, under, -3, "-o unit._ways=1: expected group.key=value "
			     "(for example clock.core_mhz=1400)");
		expect_error(SUB_OK, group, -3, "-o unit._sub.depth=1: expected group.key=value "
			     "(for example clock.core_mhz=1400)");
	}

	snprintf(name, sizeof name, "%s", unit_src_path("tests/data/config/unit/t.cfg"));
	assert_int_equal(cfg_load_string(&c, name, "\n  @include \"pieces\"\n", &err), -1);
	assert_null(c);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "cannot include \"pieces\": not a regular file");
	assert_int_equal(cfg_load_string(&c, name, "@include \"\"\n", &err), -1);
	assert_string_equal(err.msg, "cannot include \"\": not a regular file");
	/* in an included file too */
	assert_int_equal(cfg_load_string(&c, name, "@include \"pieces/sub.cfg\"\n", &err), 0);
	cfg_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * Layers, includes found next to the including file, origins. Files are written into a fresh
 * temporary folder, outside the source tree.
 */

static char tmpdir[256];

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *tpath(const char *rel)
{
	static char path[4][512];
	static int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof path[k], "%s/%s", tmpdir, rel);
	return path[k];
}

static void make_tmpdir(void)
{
	char sub[300];

	snprintf(tmpdir, sizeof tmpdir, "/tmp/gmsim-cfg.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	snprintf(sub, sizeof sub, "%s/sub", tmpdir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof sub, "%s/ship", tmpdir);
	assert_int_equal(mkdir(sub, 0700), 0);
}

static void remove_tmpdir(void)
{
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	assert_int_equal(system(cmd), 0);
}

static void layers_win_key_by_key(void **state)
{
	struct t_params p;
	struct sim_err err;
	struct cfg *c;
	char where[1024];

	(void)state;
	make_tmpdir();
	put("base.cfg", "unit: {\n  ways = 8;\n  label = \"base\";\n  sub: { depth = 4; };\n};\n");
	/* one key of a nested group changed, one added; the rest stays the base's */
	put("sub/mid.cfg", "# a layer\nbase = \"../base.cfg\";\nunit: { sub: { depth = 16; }; "
	    "latency_ns = 2.5; };\n");
	/* a layer of a layer, naming its base by absolute path: the later layer wins */
	{
		char text[1024];

		snprintf(text, sizeof text, "base = \"%s\";\nunit: {\n  ways = 32;\n};\n",
			 tpath("sub/mid.cfg"));
		put("top.cfg", text);
	}
	assert_int_equal(cfg_load_layered(&c, tpath("top.cfg"), &err), 0);
	assert_string_equal(cfg_name(c), tpath("top.cfg"));
	assert_int_equal(cfg_override(c, "unit.policy=fifo", &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), 0);
	assert_int_equal(p.unit.ways, 32);             /* top */
	assert_int_equal(p.sub.depth, 16);             /* mid, inside a group the base set */
	assert_true(p.unit.latency_ns == 2.5);         /* mid, added */
	assert_string_equal(p.unit.label, "base");     /* base, its group merged, not replaced */
	assert_int_equal(p.unit.size_bytes, 32768);    /* default */
	assert_int_equal(p.unit.policy, 1);            /* -o */
	/* where each value came from */
	cfg_origin(c, "unit.ways", where, sizeof where);
	assert_string_equal(where, tpath("top.cfg:3"));
	cfg_origin(c, "unit.sub.depth", where, sizeof where);
	assert_string_equal(where, tpath("sub/mid.cfg:3"));
	cfg_origin(c, "unit.label", where, sizeof where);
	assert_string_equal(where, tpath("base.cfg:3"));
	cfg_origin(c, "unit.size_bytes", where, sizeof where);
	assert_string_equal(where, "default");
	cfg_origin(c, "unit.policy", where, sizeof where);
	assert_string_equal(where, "-o unit.policy=fifo");
	/* the same for an error about a key: file and line apart, a file's only */
	{
		char file[1024];
		int line = -1;

		assert_true(cfg_where(c, "unit.sub.depth", file, sizeof file, &line));
		assert_string_equal(file, tpath("sub/mid.cfg"));
		assert_int_equal(line, 3);
		assert_false(cfg_where(c, "unit.policy", file, sizeof file, &line));
		assert_string_equal(file, "-o unit.policy=fifo");
		assert_int_equal(line, 0);
		line = -1;
		assert_false(cfg_where(c, "unit.size_bytes", file, sizeof file, &line));
		assert_string_equal(file, "");
		assert_int_equal(line, 0);
	}
	cfg_destroy(c);

	/* an error in a layer is reported at the layer's line, not taken from the base */
	put("typo.cfg", "base = \"base.cfg\";\n\nunit: { wayz = 2; };\n");
	assert_int_equal(cfg_load_layered(&c, tpath("typo.cfg"), &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), -1);
	assert_string_equal(err.file, tpath("typo.cfg"));
	assert_int_equal(err.line, 3);
	assert_string_equal(err.msg, "unit.wayz: unknown key (did you mean unit.ways?)");
	cfg_destroy(c);
	put("range.cfg", "base = \"base.cfg\";\nunit: { sub: { depth = 65; }; };\n");
	assert_int_equal(cfg_load_layered(&c, tpath("range.cfg"), &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), -1);
	assert_string_equal(err.file, tpath("range.cfg"));
	assert_int_equal(err.line, 2);
	cfg_destroy(c);

	/* a 64-bit literal in a layer is re-read from the layer's own line */
	put("big.cfg", "base = \"base.cfg\";\nunit: { size_bytes = 8589934592; };\n");
	assert_int_equal(cfg_load_layered(&c, tpath("big.cfg"), &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), 0);
	assert_int_equal(p.unit.size_bytes, 1ull << 33);
	cfg_destroy(c);

	/* a layer that sets a scalar where the base has a group replaces it: cfg_read says so */
	put("scalar.cfg", "base = \"base.cfg\";\nunit: { sub = 3; };\n");
	assert_int_equal(cfg_load_layered(&c, tpath("scalar.cfg"), &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), -1);
	assert_int_equal(err.line, 2);
	cfg_destroy(c);

	/* a file without base is what cfg_load_file makes of it */
	assert_int_equal(cfg_load_layered(&c, tpath("base.cfg"), &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), 0);
	assert_int_equal(p.unit.ways, 8);
	cfg_destroy(c);
	remove_tmpdir();
}

static void layer_errors(void **state)
{
	struct sim_err err;
	struct cfg *c;

	(void)state;
	make_tmpdir();
	put("a.cfg", "base = \"b.cfg\";\n");
	put("b.cfg", "\nbase = \"a.cfg\";\n");
	assert_int_equal(cfg_load_layered(&c, tpath("a.cfg"), &err), -1);
	assert_null(c);
	assert_string_equal(err.file, tpath("b.cfg"));
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "base: loop: \"a.cfg\" is already a layer of this config (a "
				     "base of itself, directly or through other bases)");
	put("self.cfg", "base = \"self.cfg\";\n");
	assert_int_equal(cfg_load_layered(&c, tpath("self.cfg"), &err), -1);
	assert_non_null(strstr(err.msg, "base: loop"));
	put("list.cfg", "base = [ \"a.cfg\" ];\n");
	assert_int_equal(cfg_load_layered(&c, tpath("list.cfg"), &err), -1);
	assert_string_equal(err.msg, "base: expected a string naming the config this file changes "
				     "(base = \"a100-80gb.cfg\";), got an array");
	put("dir.cfg", "base = \"sub\";\n");
	assert_int_equal(cfg_load_layered(&c, tpath("dir.cfg"), &err), -1);
	assert_string_equal(err.msg, "base: \"sub\" is not a regular file");
	put("abs.cfg", "base = \"/no/such/gpu.cfg\";\n");
	assert_int_equal(cfg_load_layered(&c, tpath("abs.cfg"), &err), -1);
	assert_string_equal(err.msg, "base: cannot open \"/no/such/gpu.cfg\": No such file or "
				     "directory");
	/* a base with a syntax error: the message is the base's, at its line */
	put("broken.cfg", "unit: {\n  ways = ;\n};\n");
	put("onbroken.cfg", "base = \"broken.cfg\";\n");
	assert_int_equal(cfg_load_layered(&c, tpath("onbroken.cfg"), &err), -1);
	assert_string_equal(err.file, tpath("broken.cfg"));
	assert_int_equal(err.line, 2);
	remove_tmpdir();
}

static void includes_next_to_their_file(void **state)
{
	struct t_params p;
	struct sim_err err;
	struct cfg *c;
	char where[1024], text[1024];

	(void)state;
	make_tmpdir();
	/* sub/piece.cfg includes "leaf.cfg": found in sub/, not in the top file's folder */
	put("sub/leaf.cfg", "depth = 9;\n");
	put("sub/piece.cfg", "ways = 3;\nsub: {\n  @include \"leaf.cfg\"\n};\n");
	put("leaf.cfg", "depth = 1;\n"); /* the wrong one */
	put("top.cfg", "unit: {\n  @include \"sub/piece.cfg\"\n  label = \"x\";\n};\n");
	assert_int_equal(cfg_load_file(&c, tpath("top.cfg"), &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), 0);
	assert_int_equal(p.unit.ways, 3);
	assert_int_equal(p.sub.depth, 9);
	cfg_origin(c, "unit.sub.depth", where, sizeof where);
	assert_string_equal(where, tpath("sub/leaf.cfg:1"));
	/* lines after an include keep their own numbers */
	cfg_origin(c, "unit.label", where, sizeof where);
	assert_string_equal(where, tpath("top.cfg:3"));
	cfg_destroy(c);

	/* an absolute include */
	snprintf(text, sizeof text, "unit: {\n  @include \"%s\"\n};\n", tpath("sub/piece.cfg"));
	put("abs.cfg", text);
	assert_int_equal(cfg_load_file(&c, tpath("abs.cfg"), &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), 0);
	assert_int_equal(p.sub.depth, 9);
	cfg_destroy(c);

	/* not next to the file: the shipped folder; a missing one names both places */
	put("ship/only-shipped.cfg", "ways = 77;\nsub: { depth = 2; };\n");
	setenv("GMSIM_CONFIG_DIR", tpath("ship"), 1);
	put("shipped.cfg", "unit: {\n  @include \"only-shipped.cfg\"\n};\n");
	assert_int_equal(cfg_load_file(&c, tpath("shipped.cfg"), &err), 0);
	assert_int_equal(cfg_read(c, &t_schema, &p, &err), 0);
	assert_int_equal(p.unit.ways, 77);
	cfg_destroy(c);
	put("missing.cfg", "\n@include \"nowhere.cfg\"\n");
	assert_int_equal(cfg_load_file(&c, tpath("missing.cfg"), &err), -1);
	assert_int_equal(err.line, 2);
	snprintf(text, sizeof text, "cannot open include file \"nowhere.cfg\" (looked in %s/ and "
		 "%s/)", tmpdir, tpath("ship"));
	assert_string_equal(err.msg, text);
	unsetenv("GMSIM_CONFIG_DIR");

	/* loops: a file including itself through another */
	put("loop1.cfg", "@include \"sub/loop2.cfg\"\n");
	put("sub/loop2.cfg", "# back up\n@include \"../loop1.cfg\"\n");
	assert_int_equal(cfg_load_file(&c, tpath("loop1.cfg"), &err), -1);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "include loop: \"../loop1.cfg\" is already being read (it "
				     "includes itself, directly or through other files)");
	/* a syntax error in an included file: that file and its line */
	put("sub/bad.cfg", "ways = 2;\nways2 = ;\n");
	put("inbad.cfg", "unit: {\n\n  @include \"sub/bad.cfg\"\n};\n");
	assert_int_equal(cfg_load_file(&c, tpath("inbad.cfg"), &err), -1);
	assert_string_equal(err.file, tpath("sub/bad.cfg"));
	assert_int_equal(err.line, 2);
	/* an include whose name is not quoted */
	put("noquote.cfg", "@include sub/bad.cfg\n");
	assert_int_equal(cfg_load_file(&c, tpath("noquote.cfg"), &err), -1);
	assert_string_equal(err.msg, "@include: expected a file name in double quotes");
	remove_tmpdir();
}

/* ---------------------------------------------------------------------------------------------
 * Schemas are checked too: a bad default is a bug in a table, caught before any user sees it.
 */

struct bad_params {
	uint32_t a;
	uint64_t b;
};

static void inconsistent_tables_are_rejected(void **state)
{
	static const struct cfg_field bad_fields[] = {
		CFG_U32_FIELD(struct bad_params, a, 1, 10, "11", "out of range default"),
		/* declared U32 but the field is 64-bit */
		{ "b", CFG_U32, offsetof(struct bad_params, b), sizeof(uint64_t), 0, 1, 0, 0, "0",
		  NULL, "wrong size" },
	};
	static const struct cfg_group bad_groups[] = {
		{ "g.child", "child before parent", bad_fields, 2, 0 },
	};
	static const struct cfg_schema bad = { bad_groups, 1 };
	struct bad_params p;
	struct sim_err err;

	(void)state;
	assert_int_equal(cfg_defaults(&bad, &p, &err), -1);
	assert_string_equal(fmt_err(&err),
			    "schema: group g.child needs group g before it\n"
			    "schema: g.child.a: default 11: expected an integer in 1..10, got 11\n"
			    "schema: g.child.b: field size 8 does not fit its type");
}

static void shipped_schema_defaults_are_valid(void **state)
{
	struct t_params p;
	struct gpu_params g;
	struct sim_err err;

	(void)state;
	assert_int_equal(cfg_defaults(&t_schema, &p, &err), 0);
	/* The simulator's own tables: every default parses and is in range. */
	assert_int_equal(cfg_defaults(&gpu_schema, &g, &err), 0);
	assert_int_equal(g.sim.seed, 1);
	assert_int_equal(g.gpu.sms, 80);
}

/* ---------------------------------------------------------------------------------------------
 * text.c
 */

static void edit_distance_and_suggestions(void **state)
{
	const char *const words[] = { "config", "run", "sweep", NULL, "validate" };

	(void)state;
	assert_int_equal(text_edit_distance("", ""), 0);
	assert_int_equal(text_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(text_edit_distance("abc", ""), 3);
	assert_int_equal(text_edit_distance("flaw", "lawn"), 2);
	assert_string_equal(text_suggest("confg", words, 5), "config");
	assert_string_equal(text_suggest("swep", words, 5), "sweep");
	assert_string_equal(text_suggest("validat", words, 5), "validate");
	assert_null(text_suggest("xyzzy", words, 5));
}

/* The character tables against the classes spelled out: every byte value. */
static void char_classes(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 256; i++) {
		char c = (char)i;
		bool blank = i == ' ' || (i >= '\t' && i <= '\r');
		bool binary = (i < 0x20 && !blank) || i == 0x7f;
		int hex = i >= '0' && i <= '9' ? i - '0'
			  : i >= 'a' && i <= 'f' ? i - 'a' + 10
			  : i >= 'A' && i <= 'F' ? i - 'A' + 10 : -1;

		assert_int_equal(text_is_blank(c), blank);
		assert_int_equal(text_find_binary(&c, 1), binary ? 0 : 1);
		assert_int_equal(text_hex_digit(c), hex);
	}
	assert_int_equal(text_find_binary("ab\tc\x01d", 6), 4);
	assert_int_equal(text_find_binary("caf\xc3\xa9\n", 6), 6); /* UTF-8 is text */
}

/* text_find_binary reads eight bytes at a time: every byte value at every position of lines
 * of 0-40 bytes (the tail and the words), after a tab or a UTF-8 byte in the same word, and the
 * first of two binary bytes. */
static void find_binary_every_position(void **state)
{
	char buf[41];
	size_t len, pos;
	int v;

	(void)state;
	for (len = 0; len <= 40; len++) {
		memset(buf, 'a', sizeof buf);
		assert_int_equal(text_find_binary(buf, len), len);
		for (pos = 0; pos < len; pos++)
			for (v = 0; v < 256; v++) {
				bool blank = v == ' ' || (v >= '\t' && v <= '\r');
				bool binary = (v < 0x20 && !blank) || v == 0x7f;

				memset(buf, 'a', sizeof buf);
				if (pos > 0)
					buf[pos - 1] = (pos % 2) ? '\t' : (char)0xc3;
				buf[pos] = (char)v;
				assert_int_equal(text_find_binary(buf, len), binary ? pos : len);
				if (pos + 3 < len) {
					buf[pos + 3] = 0x01;
					assert_int_equal(text_find_binary(buf, len),
							 binary ? pos : pos + 3);
				}
			}
	}
}

static void fnv1a_known_values(void **state)
{
	(void)state;
	/* FNV-1a 64 reference values: "" and "a". */
	assert_int_equal(text_hash(TEXT_HASH_INIT, "", 0), 0xcbf29ce484222325ull);
	assert_int_equal(text_hash(TEXT_HASH_INIT, "a", 1), 0xaf63dc4c8601ec8cull);
	assert_int_equal(text_hash(text_hash(TEXT_HASH_INIT, "fo", 2), "o", 1),
			 text_hash(TEXT_HASH_INIT, "foo", 3));
}

/* ---------------------------------------------------------------------------------------------
 * The read-only tree API (cfg_tree.c)
 */

static const char tree_text[] =
	"big = 8589934592;\n"            /* line 1: truncated by libconfig 1.5, re-read */
	"neg = -5;\n"
	"f = 1.5;\n"
	"b = true;\n"
	"s = \"hi\";\n"                  /* line 5 */
	"g = {\n"
	"  x = 0x10;\n"
	"  y = ( 1, \"two\", [ 3, 4 ] );\n"
	"};\n"
	"huge = 99999999999999999999;\n" /* line 10 */
	"arr = ( { n = 1024; w = 4; }, { n = 64; w = 8589934592; } );\n";

static void tree_kinds_and_values(void **state)
{
	struct sim_err err;
	struct cfg *c;
	const struct cfg_node *r, *g, *y;
	int64_t i = 0;
	double d = 0;
	bool b = false;
	char buf[64];

	(void)state;
	assert_int_equal(cfg_load_string(&c, "t.cfg", tree_text, &err), 0);
	r = cfg_root(c);
	assert_int_equal(cfg_node_kind(r), CFG_KIND_GROUP);
	assert_int_equal(cfg_node_length(r), 8);
	assert_null(cfg_node_name(r));
	assert_int_equal(cfg_node_int(cfg_node_member(r, "big"), &i), 0);
	assert_true(i == INT64_C(8589934592));
	/* two settings of one name on a line: each its own literal (the re-read of a truncated
	 * 64-bit literal must not take the first one it finds) */
	g = cfg_node_member(r, "arr");
	assert_int_equal(cfg_node_int(cfg_node_member(cfg_node_elem(g, 0), "n"), &i), 0);
	assert_int_equal(i, 1024);
	assert_int_equal(cfg_node_int(cfg_node_member(cfg_node_elem(g, 1), "n"), &i), 0);
	assert_int_equal(i, 64);
	assert_int_equal(cfg_node_int(cfg_node_member(cfg_node_elem(g, 0), "w"), &i), 0);
	assert_int_equal(i, 4);
	assert_int_equal(cfg_node_int(cfg_node_member(cfg_node_elem(g, 1), "w"), &i), 0);
	assert_true(i == INT64_C(8589934592));
	assert_int_equal(cfg_node_int(cfg_node_member(r, "neg"), &i), 0);
	assert_int_equal(i, -5);
	assert_int_equal(cfg_node_float(cfg_node_member(r, "f"), &d), 0);
	assert_true(d == 1.5);
	assert_int_equal(cfg_node_float(cfg_node_member(r, "neg"), &d), 0); /* ints are numbers */
	assert_true(d == -5.0);
	assert_int_equal(cfg_node_int(cfg_node_member(r, "f"), &i), -1);   /* not the reverse */
	assert_int_equal(cfg_node_bool(cfg_node_member(r, "b"), &b), 0);
	assert_true(b);
	assert_int_equal(cfg_node_bool(cfg_node_member(r, "s"), &b), -1);
	assert_string_equal(cfg_node_string(cfg_node_member(r, "s")), "hi");
	assert_null(cfg_node_string(cfg_node_member(r, "b")));

	g = cfg_node_member(r, "g");
	assert_int_equal(cfg_node_kind(g), CFG_KIND_GROUP);
	assert_int_equal(cfg_node_int(cfg_node_member(g, "x"), &i), 0);
	assert_int_equal(i, 16);
	y = cfg_node_member(g, "y");
	assert_int_equal(cfg_node_kind(y), CFG_KIND_LIST);
	assert_int_equal(cfg_node_length(y), 3);
	assert_null(cfg_node_name(cfg_node_elem(y, 0)));
	assert_int_equal(cfg_node_kind(cfg_node_elem(y, 1)), CFG_KIND_STRING);
	assert_int_equal(cfg_node_kind(cfg_node_elem(y, 2)), CFG_KIND_ARRAY);
	assert_int_equal(cfg_node_int(cfg_node_elem(cfg_node_elem(y, 2), 1), &i), 0);
	assert_int_equal(i, 4);
	assert_null(cfg_node_elem(y, 3));

	/* absent nodes chain to "absent" */
	assert_null(cfg_node_member(r, "nope"));
	assert_null(cfg_node_member(cfg_node_member(r, "nope"), "x"));
	assert_null(cfg_node_member(cfg_node_member(r, "s"), "x")); /* not a group */
	assert_int_equal(cfg_node_length(NULL), 0);
	assert_int_equal(cfg_node_length(cfg_node_member(r, "s")), 0);
	assert_int_equal(cfg_node_kind(NULL), CFG_KIND_COUNT);
	assert_int_equal(cfg_node_int(NULL, &i), -1);

	/* a literal beyond 64 bits */
	assert_int_equal(cfg_node_int(cfg_node_member(r, "huge"), &i), -2);

	cfg_node_repr(cfg_node_member(r, "s"), buf, sizeof buf);
	assert_string_equal(buf, "\"hi\"");
	cfg_node_repr(y, buf, sizeof buf);
	assert_string_equal(buf, "a list");
	cfg_node_repr(cfg_node_member(r, "big"), buf, sizeof buf);
	assert_string_equal(buf, "8589934592");
	assert_string_equal(cfg_kind_name(CFG_KIND_ARRAY), "an array");
	cfg_destroy(c);
}

static void tree_members_in_order_and_where(void **state)
{
	static const char *const names[] = { "big", "neg", "f", "b", "s", "g", "huge", "arr" };
	struct sim_err err;
	struct cfg *c;
	const struct cfg_node *r;
	char file[64];
	int line;
	size_t i;

	(void)state;
	assert_int_equal(cfg_load_string(&c, "t.cfg", tree_text, &err), 0);
	r = cfg_root(c);
	for (i = 0; i < cfg_node_length(r); i++)
		assert_string_equal(cfg_node_name(cfg_node_elem(r, i)), names[i]);
	cfg_node_where(cfg_node_member(r, "s"), file, sizeof file, &line);
	assert_string_equal(file, "t.cfg");
	assert_int_equal(line, 5);
	cfg_node_where(cfg_node_elem(cfg_node_member(cfg_node_member(r, "g"), "y"), 1), file,
		       sizeof file, &line);
	assert_int_equal(line, 8);
	cfg_node_where(NULL, file, sizeof file, &line);
	assert_string_equal(file, "");
	assert_int_equal(line, 0);
	cfg_destroy(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_fill_every_field),
		cmocka_unit_test(values_of_every_type),
		cmocka_unit_test(hex_and_suffixed_integers),
		cmocka_unit_test(overrides_replace_and_create),
		cmocka_unit_test(is_set_tells_given_from_default),
		cmocka_unit_test(effective_config_is_exact_and_round_trips),
		cmocka_unit_test(hash_changes_with_any_value),
		cmocka_unit_test(doc_lists_every_key),
		cmocka_unit_test(unknown_key_suggests),
		cmocka_unit_test(out_of_range_names_the_range),
		cmocka_unit_test(sixty_four_bit_value_in_thirty_two_bit_field),
		cmocka_unit_test(wrong_types),
		cmocka_unit_test(required_key_missing),
		cmocka_unit_test(duplicate_and_syntax_errors),
		cmocka_unit_test(bad_overrides),
		cmocka_unit_test(files_and_includes),
		cmocka_unit_test(layers_win_key_by_key),
		cmocka_unit_test(layer_errors),
		cmocka_unit_test(includes_next_to_their_file),
		cmocka_unit_test(inconsistent_tables_are_rejected),
		cmocka_unit_test(shipped_schema_defaults_are_valid),
		cmocka_unit_test(edit_distance_and_suggestions),
		cmocka_unit_test(char_classes),
		cmocka_unit_test(find_binary_every_position),
		cmocka_unit_test(fuzz_findings_are_errors),
		cmocka_unit_test(fnv1a_known_values),
		cmocka_unit_test(tree_kinds_and_values),
		cmocka_unit_test(tree_members_in_order_and_where),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
