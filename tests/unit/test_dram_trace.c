/*
 * test_dram_trace.c - DRAM trace files and synthetic patterns: every format parsed to exact
 * records, detection, comments and blank lines, each kind of bad line with its exact message and
 * line number, missing and empty files, the read-ahead's plain DRAMsim3 lines against the general
 * path, and the patterns' determinism, range, alignment, write share and wrap-around. Trace files
 * live in tests/data/dram/.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "unit.h"

#include "dram_trace.h"

#define DFLT_BYTES 64

struct want {
	uint64_t addr;
	bool is_write;
	bool has_cycle;
	uint64_t cycle;
	uint32_t bytes;
};

static const char *data_path(const char *name)
{
	static char rel[256];

	snprintf(rel, sizeof rel, "tests/data/dram/%s", name);
	return unit_src_path(rel);
}

static struct dram_trace *open_ok(const char *name)
{
	struct sim_err err;
	struct dram_trace *t = dram_trace_open(data_path(name), DFLT_BYTES, &err);

	if (t == NULL)
		fail_msg("%s:%d: %s", err.file, err.line, err.msg);
	return t;
}

/* Reads the whole trace and compares it with want[0..n). */
static void expect_records(const char *name, enum dram_trace_format fmt, const struct want *want,
			   size_t n)
{
	struct dram_trace *t = open_ok(name);
	struct dram_trace_rec r;
	struct sim_err err;
	size_t i;

	assert_int_equal(dram_trace_format(t), fmt);
	for (i = 0; i < n; i++) {
		int rc = dram_trace_next(t, &r, &err);

		if (rc != 1)
			fail_msg("%s record %zu: rc %d: %s:%d: %s", name, i, rc, err.file, err.line,
				 err.msg);
		assert_int_equal(r.addr, want[i].addr);
		assert_int_equal(r.is_write, want[i].is_write);
		assert_int_equal(r.has_cycle, want[i].has_cycle);
		assert_int_equal(r.cycle, want[i].cycle);
		assert_int_equal(r.bytes, want[i].bytes);
		assert_int_equal(dram_trace_records(t), i + 1);
	}
	assert_int_equal(dram_trace_next(t, &r, &err), 0);
	assert_int_equal(dram_trace_next(t, &r, &err), 0);
	assert_int_equal(dram_trace_records(t), n);
	dram_trace_close(t);
}

/* ---------------------------------------------------------------------------------------------
 * Good files
 */

static void test_dramsim3(void **state)
{
	static const struct want w[] = {
		{ 0x7f00, false, true, 120, DFLT_BYTES },
		{ 0x7f40, true, true, 121, DFLT_BYTES },
		{ 0x1000, false, true, 121, DFLT_BYTES }, /* P_MEM_RD, tab-separated */
		{ 0xabc0, false, true, 130, DFLT_BYTES }, /* P_FETCH, no 0x */
		{ 0x2000, true, true, 200, DFLT_BYTES },  /* P_MEM_WR, 0X */
		{ 0x2040, true, true, 200, DFLT_BYTES },  /* BOFF */
		{ 0xffffffffffffffe0ull, false, true, 250, DFLT_BYTES }, /* "Read" */
	};

	(void)state;
	expect_records("dramsim3.trace", DRAM_TRACE_DRAMSIM3, w, sizeof w / sizeof w[0]);
}

static void test_ramulator_ldst(void **state)
{
	static const struct want w[] = {
		{ 0x7f00, false, false, 0, DFLT_BYTES },
		{ 123, true, false, 0, DFLT_BYTES },          /* decimal */
		{ 0xabc, false, false, 0, DFLT_BYTES },       /* 0X, surrounding blanks */
		{ UINT64_MAX, true, false, 0, DFLT_BYTES },   /* largest decimal */
		{ 7, false, false, 0, DFLT_BYTES },           /* "007": decimal, not octal */
	};

	(void)state;
	expect_records("ramulator_ldst.trace", DRAM_TRACE_RAMULATOR_LDST, w,
		       sizeof w / sizeof w[0]);
}

static void test_ramulator_rw(void **state)
{
	static const struct want w[] = {
		{ 0x7f00, false, false, 0, DFLT_BYTES },
		{ 0x7f40, true, false, 0, DFLT_BYTES }, /* no 0x */
		{ UINT64_MAX, false, false, 0, DFLT_BYTES },
	};

	(void)state;
	expect_records("ramulator_rw.trace", DRAM_TRACE_RAMULATOR_RW, w, sizeof w / sizeof w[0]);
}

/* CRLF line ends, comments after records (with or without a blank before '#'), indented
 * comments, hex and decimal addresses, explicit sizes. */
static void test_native(void **state)
{
	static const struct want w[] = {
		{ 0x7f00, false, true, 120, DFLT_BYTES },
		{ 4096, true, true, 120, 64 },
		{ 0x80, false, true, 121, DFLT_BYTES },
		{ 0x100, true, true, 200, 4096 },
		{ 1, false, true, UINT64_MAX, 1 },
	};

	(void)state;
	expect_records("native.trace", DRAM_TRACE_NATIVE, w, sizeof w / sizeof w[0]);
}

static void test_format_names(void **state)
{
	(void)state;
	assert_string_equal(dram_trace_format_name(DRAM_TRACE_DRAMSIM3), "dramsim3");
	assert_string_equal(dram_trace_format_name(DRAM_TRACE_RAMULATOR_LDST), "ramulator_ldst");
	assert_string_equal(dram_trace_format_name(DRAM_TRACE_RAMULATOR_RW), "ramulator_rw");
	assert_string_equal(dram_trace_format_name(DRAM_TRACE_NATIVE), "native");
	assert_string_equal(dram_trace_format_name(DRAM_TRACE_PATTERN), "pattern");
	assert_int_equal(dram_pattern_kind_parse("stream"), DRAM_PATTERN_STREAM);
	assert_int_equal(dram_pattern_kind_parse("random"), DRAM_PATTERN_RANDOM);
	assert_int_equal(dram_pattern_kind_parse("strided"), DRAM_PATTERN_STRIDED);
	assert_int_equal(dram_pattern_kind_parse("Stream"), -1);
	assert_int_equal(dram_pattern_kind_parse(""), -1);
}

/* ---------------------------------------------------------------------------------------------
 * Bad files
 */

static void expect_open_error(const char *name, int line, const char *msg)
{
	struct sim_err err;

	memset(&err, 0, sizeof err);
	assert_null(dram_trace_open(data_path(name), DFLT_BYTES, &err));
	assert_string_equal(err.file, data_path(name));
	assert_int_equal(err.line, line);
	assert_string_equal(err.msg, msg);
}

/* Opens name, reads good records, then expects -1 with line and msg, and the same again. */
static void expect_next_error(const char *name, uint64_t good, int line, const char *msg)
{
	struct dram_trace *t = open_ok(name);
	struct dram_trace_rec r;
	struct sim_err err;
	uint64_t i;
	int k;

	for (i = 0; i < good; i++)
		assert_int_equal(dram_trace_next(t, &r, &err), 1);
	for (k = 0; k < 2; k++) {
		memset(&err, 0, sizeof err);
		assert_int_equal(dram_trace_next(t, &r, &err), -1);
		assert_string_equal(err.file, data_path(name));
		assert_int_equal(err.line, line);
		assert_string_equal(err.msg, msg);
	}
	assert_int_equal(dram_trace_records(t), good);
	dram_trace_close(t);
}

static void test_bad_lines(void **state)
{
	(void)state;
	expect_next_error("bad_op.trace", 2, 3,
			  "expected \"0xADDR READ|WRITE CYCLE\" (dramsim3 format), got "
			  "\"0x40 FETCH 12\" (unknown op \"FETCH\")");
	expect_next_error("bad_addr.trace", 1, 3,
			  "expected \"LD|ST ADDR\" (ramulator_ldst format), got \"LD 0xZZ\" "
			  "(bad address \"0xZZ\")");
	expect_next_error("overflow_addr.trace", 1, 2,
			  "expected \"0xADDR R|W\" (ramulator_rw format), got "
			  "\"0x10000000000000000 R\" (address \"0x10000000000000000\" does not fit "
			  "64 bits)");
	expect_next_error("overflow_cycle.trace", 1, 2,
			  "expected \"0xADDR READ|WRITE CYCLE\" (dramsim3 format), got "
			  "\"0x40 READ 18446744073709551616\" (cycle \"18446744073709551616\" does "
			  "not fit 64 bits)");
	expect_next_error("missing_field.trace", 1, 2,
			  "expected \"CYCLE R|W ADDR [BYTES]\" (native format), got \"12 0x80\" "
			  "(missing field: 2 fields, expected 3 or 4)");
	expect_next_error("extra_field.trace", 1, 2,
			  "expected \"0xADDR READ|WRITE CYCLE\" (dramsim3 format), got "
			  "\"0x40 READ 13 # not a comment in dramsim3\" (extra field \"#\")");
	expect_next_error("extra_ldst.trace", 1, 2,
			  "expected \"LD|ST ADDR\" (ramulator_ldst format), got \"LD 0x80 W\" "
			  "(extra field \"W\")");
	expect_next_error("backwards.trace", 3, 4,
			  "cycle 11 is before cycle 12 of the previous record (cycles are arrival "
			  "times and must not decrease)");
	expect_next_error("mixed.trace", 1, 3,
			  "expected \"0xADDR READ|WRITE CYCLE\" (dramsim3 format), got \"LD 0x80\" "
			  "(a ramulator_ldst line: a trace keeps the format of its first record)");
	expect_next_error("bad_size.trace", 1, 2,
			  "expected \"CYCLE R|W ADDR [BYTES]\" (native format), got \"2 R 0x40 0\" "
			  "(bad size \"0\": expected 1..4096 bytes)");
	expect_next_error("big_size.trace", 1, 2,
			  "expected \"CYCLE R|W ADDR [BYTES]\" (native format), got "
			  "\"2 R 0x40 4097\" (bad size \"4097\": expected 1..4096 bytes)");
}

static void test_bad_files(void **state)
{
	(void)state;
	expect_open_error("unknown.trace", 2,
			  "expected a record in a known format (dramsim3 \"0xADDR READ|WRITE "
			  "CYCLE\", ramulator_ldst \"LD|ST ADDR\", ramulator_rw \"0xADDR R|W\", "
			  "native \"CYCLE R|W ADDR [BYTES]\"), got \"hello world\"");
	expect_open_error("empty.trace", 0, "no records");
	expect_open_error("comments_only.trace", 0, "no records");
	expect_open_error("no_such.trace", 0, "cannot open: No such file or directory");
	/* A NULL err is allowed. */
	assert_null(dram_trace_open(data_path("no_such.trace"), DFLT_BYTES, NULL));
}

/* A line longer than the reader's buffer is refused, not split or grown into. */
static void test_long_line(void **state)
{
	char path[] = "/tmp/gmsim_trace_XXXXXX";
	struct dram_trace_rec r;
	struct sim_err err;
	struct dram_trace *t;
	FILE *f;
	int fd, i;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "LD 0x40\nLD 0x");
	for (i = 0; i < 600; i++)
		fputc('0', f);
	fprintf(f, "40\nLD 0x80\n");
	fclose(f);
	t = dram_trace_open(path, DFLT_BYTES, &err);
	assert_non_null(t);
	assert_int_equal(dram_trace_next(t, &r, &err), 1);
	assert_int_equal(dram_trace_next(t, &r, &err), -1);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "line longer than 510 characters");
	dram_trace_close(t);
	unlink(path);
}

/* The file is read in 64 KiB blocks: records that straddle a block's end read whole, the longest
 * line allowed (510 characters and its newline, padded with blanks) is a record, one more
 * character is refused, and a last line without its newline is a truncated file. */
static void test_block_boundaries(void **state)
{
	char path[] = "/tmp/gmsim_trace_XXXXXX";
	struct dram_trace_rec r;
	struct sim_err err;
	struct dram_trace *t;
	uint64_t i, n = 20000; /* "0x%08x READ %llu\n": ~25 bytes a line, ~8 blocks */
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (i = 0; i < n; i++)
		fprintf(f, "0x%08llx READ %llu\n", (unsigned long long)(i * 64),
			(unsigned long long)i);
	fprintf(f, "0x40 READ %llu%*s\n", (unsigned long long)n,
		(int)(510 - strlen("0x40 READ ") - 5), ""); /* 510 characters */
	fprintf(f, "0x80 READ %llu%*s\n", (unsigned long long)n,
		(int)(511 - strlen("0x80 READ ") - 5), ""); /* 511 */
	fclose(f);
	t = dram_trace_open(path, DFLT_BYTES, &err);
	assert_non_null(t);
	for (i = 0; i < n; i++) {
		assert_int_equal(dram_trace_next(t, &r, &err), 1);
		assert_int_equal(r.addr, i * 64);
		assert_int_equal(r.cycle, i);
	}
	assert_int_equal(dram_trace_next(t, &r, &err), 1);
	assert_int_equal(r.addr, 0x40);
	assert_int_equal(dram_trace_next(t, &r, &err), -1);
	assert_int_equal(err.line, (int)n + 2);
	assert_string_equal(err.msg, "line longer than 510 characters");
	dram_trace_close(t);

	/* truncated: the last record has no newline */
	f = fopen(path, "w");
	assert_non_null(f);
	for (i = 0; i < 5000; i++)
		fprintf(f, "0x%08llx READ 0\n", (unsigned long long)(i * 64));
	fprintf(f, "0x80 READ 0");
	fclose(f);
	t = dram_trace_open(path, DFLT_BYTES, &err);
	assert_non_null(t);
	for (i = 0; i < 5000; i++)
		assert_int_equal(dram_trace_next(t, &r, &err), 1);
	assert_int_equal(dram_trace_next(t, &r, &err), -1);
	assert_int_equal(err.line, 5001);
	assert_non_null(strstr(err.msg, "the file ends inside this line"));
	dram_trace_close(t);
	unlink(path);
}

/* Writes lines[0..n) to a new temporary file (its name into path, 24 bytes) and opens it. */
static struct dram_trace *open_lines(char *path, const char *const *lines, size_t n)
{
	struct sim_err err;
	struct dram_trace *t;
	FILE *f;
	size_t i;
	int fd;

	strcpy(path, "/tmp/gmsim_trace_XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (i = 0; i < n; i++)
		fputs(lines[i], f);
	fclose(f);
	t = dram_trace_open(path, DFLT_BYTES, &err);
	if (t == NULL)
		fail_msg("%s:%d: %s", err.file, err.line, err.msg);
	return t;
}

/* Closes t and removes its file. */
static void close_lines(struct dram_trace *t, const char *path)
{
	dram_trace_close(t);
	unlink(path);
}

/* DRAMsim3 lines in and just outside the plain form that dram_trace.c's plain_dramsim3 reads
 * straight from the read-ahead: each reads as the general path reads it (leading zeros past 16
 * hex or 19 decimal digits, tabs, any case, CRLF, a comment between, the largest cycle); a
 * 17-digit address that does not fit is refused, not wrapped, and so is a plain line whose
 * cycle goes back. */
static void test_dramsim3_plain_forms(void **state)
{
	static const char *const lines[] = {
		"0x40 READ 5\n", "0x0000000000000000080 read 5\n", "c0\tWrite\t6\n",
		"0X100  READ   00000000000000000000007\n", "# a comment\n", "0x140 READ 8\r\n",
		"0xffffffffffffffff WRITE 9\n", "0x10000000000000000 READ 9\n",
	};
	static const char *const back[] = { "0x40 READ 12\n", "0x80 READ 11\n" };
	static const char *const last[] = {
		"0x40 READ 12\n", "0x80 WRITE 18446744073709551615\n",
	};
	static const struct want w[] = {
		{ 0x40, false, true, 5, DFLT_BYTES }, { 0x80, false, true, 5, DFLT_BYTES },
		{ 0xc0, true, true, 6, DFLT_BYTES }, { 0x100, false, true, 7, DFLT_BYTES },
		{ 0x140, false, true, 8, DFLT_BYTES },
		{ 0xffffffffffffffffull, true, true, 9, DFLT_BYTES },
	};
	char path[24];
	struct dram_trace_rec r;
	struct sim_err err;
	struct dram_trace *t;
	size_t i;

	(void)state;
	t = open_lines(path, lines, sizeof lines / sizeof lines[0]);
	for (i = 0; i < sizeof w / sizeof w[0]; i++) {
		assert_int_equal(dram_trace_next(t, &r, &err), 1);
		assert_int_equal(r.addr, w[i].addr);
		assert_int_equal(r.is_write, w[i].is_write);
		assert_int_equal(r.cycle, w[i].cycle);
		assert_int_equal(r.bytes, w[i].bytes);
	}
	assert_int_equal(dram_trace_next(t, &r, &err), -1);
	assert_int_equal(err.line, 8);
	assert_string_equal(err.msg, "expected \"0xADDR READ|WRITE CYCLE\" (dramsim3 format), got "
			  "\"0x10000000000000000 READ 9\" (address \"0x10000000000000000\" does "
			  "not fit 64 bits)");
	close_lines(t, path);

	t = open_lines(path, back, 2);
	assert_int_equal(dram_trace_next(t, &r, &err), 1);
	assert_int_equal(dram_trace_next(t, &r, &err), -1);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "cycle 11 is before cycle 12 of the previous record (cycles "
			  "are arrival times and must not decrease)");
	close_lines(t, path);

	t = open_lines(path, last, 2);
	assert_int_equal(dram_trace_next(t, &r, &err), 1);
	assert_int_equal(dram_trace_next(t, &r, &err), 1);
	assert_int_equal(r.cycle, UINT64_MAX);
	assert_true(r.is_write);
	assert_int_equal(dram_trace_next(t, &r, &err), 0);
	close_lines(t, path);
}

/* Random DRAMsim3 records in forms the read-ahead's parser takes and just outside them (any
 * case, 0x or 0X or no prefix, leading zeros up to 18 hex and 21 decimal digits, runs of spaces
 * and tabs, the other ops), each line written twice: as it is, and with a blank before its
 * newline, which only the general path reads. Both files read to the same records. */
static void test_dramsim3_plain_like_general(void **state)
{
	static const char *const ops[] = { "READ", "WRITE", "P_MEM_RD", "P_MEM_WR" };
	enum { N = 4000 };
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	char **plain = calloc(N, sizeof *plain), **blank = calloc(N, sizeof *blank);
	char pa[24], pb[24];
	struct dram_trace *ta, *tb;
	struct dram_trace_rec ra, rb;
	struct sim_err err;
	uint64_t cycle = 0;
	size_t i, k;

	(void)state;
	assert_non_null(plain);
	assert_non_null(blank);
	gsl_rng_set(g, 5);
	for (i = 0; i < N; i++) {
		uint64_t addr = (uint64_t)gsl_rng_get(g) << 32 | gsl_rng_get(g);
		unsigned digits = 1 + (unsigned)gsl_rng_uniform_int(g, 16);
		const char *op = ops[gsl_rng_uniform_int(g, 10) == 0 ? 2 + gsl_rng_uniform_int(g, 2)
								     : gsl_rng_uniform_int(g, 2)];
		char a[64], o[16], sep1[4], sep2[4], line[128];
		int zeros = gsl_rng_uniform_int(g, 4) == 0 ? (int)gsl_rng_uniform_int(g, 3) : 0;

		if (digits < 16)
			addr &= (UINT64_C(1) << (4 * digits)) - 1;
		snprintf(a, sizeof a, gsl_rng_uniform_int(g, 2) ? "%0*" PRIx64 : "%0*" PRIX64,
			 zeros + (int)digits, addr);
		for (k = 0; op[k] != '\0'; k++) /* READ and WRITE in any case */
			o[k] = (char)(k < 5 && op[1] != '_' && gsl_rng_uniform_int(g, 2)
					      ? op[k] | 0x20 : op[k]);
		o[k] = '\0';
		for (k = 0; k < 3; k++) {
			sep1[k] = gsl_rng_uniform_int(g, 3) == 0 ? '\t' : ' ';
			sep2[k] = gsl_rng_uniform_int(g, 3) == 0 ? '\t' : ' ';
		}
		sep1[1 + gsl_rng_uniform_int(g, 2)] = '\0';
		sep2[1 + gsl_rng_uniform_int(g, 2)] = '\0';
		cycle += gsl_rng_uniform_int(g, 3) == 0 ? 0 : gsl_rng_uniform_int(g, 100000);
		snprintf(line, sizeof line, "%s%s%s%s%s%0*" PRIu64,
			 (const char *[]){ "0x", "0X", "" }[gsl_rng_uniform_int(g, 3)], a, sep1, o,
			 sep2, gsl_rng_uniform_int(g, 5) == 0 ? 21 : 1, cycle);
		plain[i] = malloc(strlen(line) + 2);
		blank[i] = malloc(strlen(line) + 3);
		assert_non_null(plain[i]);
		assert_non_null(blank[i]);
		sprintf(plain[i], "%s\n", line);
		sprintf(blank[i], "%s \n", line);
	}
	ta = open_lines(pa, (const char *const *)plain, N);
	tb = open_lines(pb, (const char *const *)blank, N);
	for (i = 0; i < N; i++) {
		assert_int_equal(dram_trace_next(ta, &ra, &err), 1);
		assert_int_equal(dram_trace_next(tb, &rb, &err), 1);
		if (ra.addr != rb.addr || ra.is_write != rb.is_write || ra.cycle != rb.cycle ||
		    ra.has_cycle != rb.has_cycle || ra.bytes != rb.bytes)
			fail_msg("line %zu \"%.*s\": %#" PRIx64 " %d %" PRIu64 ", the general "
				 "path's %#" PRIx64 " %d %" PRIu64, i + 1,
				 (int)strlen(plain[i]) - 1, plain[i], ra.addr, ra.is_write,
				 ra.cycle, rb.addr, rb.is_write, rb.cycle);
	}
	assert_int_equal(dram_trace_next(ta, &ra, &err), 0);
	assert_int_equal(dram_trace_next(tb, &rb, &err), 0);
	close_lines(ta, pa);
	close_lines(tb, pb);
	for (i = 0; i < N; i++) {
		free(plain[i]);
		free(blank[i]);
	}
	free(plain);
	free(blank);
	gsl_rng_free(g);
}

/* ---------------------------------------------------------------------------------------------
 * Patterns
 */

static struct dram_pattern_params pattern(enum dram_pattern_kind kind, uint64_t count,
					  uint64_t footprint, uint32_t bytes)
{
	struct dram_pattern_params p;

	memset(&p, 0, sizeof p);
	p.kind = kind;
	p.count = count;
	p.footprint = footprint;
	p.bytes = bytes;
	p.seed = 1;
	return p;
}

static struct dram_trace *pattern_ok(const struct dram_pattern_params *p)
{
	struct sim_err err;
	struct dram_trace *t = dram_trace_pattern(p, &err);

	if (t == NULL)
		fail_msg("dram_trace_pattern: %s", err.msg);
	assert_int_equal(dram_trace_format(t), DRAM_TRACE_PATTERN);
	return t;
}

static void test_pattern_stream_wraps(void **state)
{
	struct dram_pattern_params p = pattern(DRAM_PATTERN_STREAM, 10, 256, 64);
	struct dram_trace *t = pattern_ok(&p);
	struct dram_trace_rec r;
	struct sim_err err;
	uint64_t i;

	(void)state;
	for (i = 0; i < 10; i++) {
		assert_int_equal(dram_trace_next(t, &r, &err), 1);
		assert_int_equal(r.addr, (i * 64) % 256);
		assert_int_equal(r.bytes, 64);
		assert_false(r.is_write);
		assert_false(r.has_cycle);
	}
	assert_int_equal(dram_trace_next(t, &r, &err), 0);
	assert_int_equal(dram_trace_records(t), 10);
	dram_trace_close(t);

	/* A footprint that is not a multiple of the stride: (i * 96) mod 200. */
	p = pattern(DRAM_PATTERN_STREAM, 50, 200, 32);
	p.stride = 96;
	t = pattern_ok(&p);
	for (i = 0; i < 50; i++) {
		assert_int_equal(dram_trace_next(t, &r, &err), 1);
		assert_int_equal(r.addr, (i * 96) % 200);
	}
	dram_trace_close(t);
}

static void test_pattern_strided(void **state)
{
	struct dram_pattern_params p = pattern(DRAM_PATTERN_STRIDED, 1000, 1ull << 40, 32);
	struct dram_trace *t;
	struct dram_trace_rec r;
	struct sim_err err;
	uint64_t i;

	(void)state;
	/* A stride larger than the footprint, near 2^64: i * stride would overflow. */
	p.stride = (1ull << 63) + 4096;
	t = pattern_ok(&p);
	for (i = 0; i < 1000; i++) {
		unsigned __int128 want = ((unsigned __int128)i * p.stride) % p.footprint;

		assert_int_equal(dram_trace_next(t, &r, &err), 1);
		assert_int_equal(r.addr, (uint64_t)want);
	}
	dram_trace_close(t);
}

static void test_pattern_random_range(void **state)
{
	struct dram_pattern_params p = pattern(DRAM_PATTERN_RANDOM, 100000, 1 << 20, 128);
	struct dram_trace *t;
	struct dram_trace_rec r;
	struct sim_err err;
	uint64_t i, hi = 0, lo = UINT64_MAX;

	(void)state;
	t = pattern_ok(&p);
	while (dram_trace_next(t, &r, &err) == 1) {
		assert_true(r.addr < p.footprint);
		assert_int_equal(r.addr % 128, 0);
		hi = r.addr > hi ? r.addr : hi;
		lo = r.addr < lo ? r.addr : lo;
	}
	assert_int_equal(dram_trace_records(t), 100000);
	assert_int_equal(lo, 0); /* 8192 slots, 100000 draws: both ends are hit */
	assert_int_equal(hi, p.footprint - 128);
	dram_trace_close(t);

	/* More than 2^32 slots: two draws per address, still in range and aligned, and the top
	 * half of the range is reached. */
	p = pattern(DRAM_PATTERN_RANDOM, 1000, 1ull << 50, 32);
	t = pattern_ok(&p);
	hi = 0;
	for (i = 0; i < 1000; i++) {
		assert_int_equal(dram_trace_next(t, &r, &err), 1);
		assert_true(r.addr < p.footprint);
		assert_int_equal(r.addr % 32, 0);
		hi = r.addr > hi ? r.addr : hi;
	}
	assert_true(hi >= p.footprint / 2);
	dram_trace_close(t);

	/* A footprint that is not a multiple of bytes: whole requests stay inside it. */
	p = pattern(DRAM_PATTERN_RANDOM, 1000, 100, 32);
	t = pattern_ok(&p);
	while (dram_trace_next(t, &r, &err) == 1)
		assert_true(r.addr + 32 <= 100);
	dram_trace_close(t);
}

/* Draws the whole stream into a[]. */
static void draw(const struct dram_pattern_params *p, uint64_t *a, bool *w, size_t n)
{
	struct dram_trace *t = pattern_ok(p);
	struct dram_trace_rec r;
	struct sim_err err;
	size_t i;

	for (i = 0; i < n; i++) {
		assert_int_equal(dram_trace_next(t, &r, &err), 1);
		a[i] = r.addr;
		w[i] = r.is_write;
	}
	dram_trace_close(t);
}

static void test_pattern_determinism(void **state)
{
	enum { N = 1000 };
	struct dram_pattern_params p = pattern(DRAM_PATTERN_RANDOM, N, 1ull << 30, 64);
	static uint64_t a[N], b[N];
	static bool wa[N], wb[N];
	size_t i, same = 0;

	(void)state;
	p.write_fraction = 0.5;
	p.seed = 42;
	draw(&p, a, wa, N);
	draw(&p, b, wb, N);
	assert_memory_equal(a, b, sizeof a);
	assert_memory_equal(wa, wb, sizeof wa);
	p.seed = 43;
	draw(&p, b, wb, N);
	for (i = 0; i < N; i++)
		same += a[i] == b[i];
	assert_true(same < 5);
	/* Seeds that differ only above bit 31 still differ. */
	p.seed = 42 | (1ull << 40);
	draw(&p, b, wb, N);
	assert_true(memcmp(a, b, sizeof a) != 0);

	/* Pure reads and pure writes draw addresses only: the same address stream. */
	p.seed = 7;
	p.write_fraction = 0.0;
	draw(&p, a, wa, N);
	p.write_fraction = 1.0;
	draw(&p, b, wb, N);
	assert_memory_equal(a, b, sizeof a);
	for (i = 0; i < N; i++) {
		assert_false(wa[i]);
		assert_true(wb[i]);
	}
}

static void test_pattern_write_fraction(void **state)
{
	struct dram_pattern_params p = pattern(DRAM_PATTERN_STREAM, 100000, 1 << 20, 32);
	struct dram_trace *t;
	struct dram_trace_rec r;
	struct sim_err err;
	uint64_t writes = 0;

	(void)state;
	p.write_fraction = 0.3;
	t = pattern_ok(&p);
	while (dram_trace_next(t, &r, &err) == 1)
		writes += r.is_write;
	dram_trace_close(t);
	/* sd of the share: sqrt(0.3 * 0.7 / 100000) = 0.0014; 0.01 is 7 sd. */
	assert_true(fabs((double)writes / 100000 - 0.3) < 0.01);
}

static void expect_pattern_error(const struct dram_pattern_params *p, const char *msg)
{
	struct sim_err err;

	memset(&err, 0, sizeof err);
	assert_null(dram_trace_pattern(p, &err));
	assert_string_equal(err.file, "");
	assert_int_equal(err.line, 0);
	assert_string_equal(err.msg, msg);
}

static void test_pattern_errors(void **state)
{
	struct dram_pattern_params p;

	(void)state;
	p = pattern(DRAM_PATTERN_STREAM, 0, 4096, 32);
	expect_pattern_error(&p, "pattern: count must be at least 1, got 0");
	p = pattern(DRAM_PATTERN_STREAM, 10, 4096, 0);
	expect_pattern_error(&p, "pattern: bytes must be at least 1, got 0");
	p = pattern(DRAM_PATTERN_RANDOM, 10, 16, 32);
	expect_pattern_error(&p, "pattern: footprint (16 B) must be at least bytes (32 B)");
	p = pattern(DRAM_PATTERN_RANDOM, 10, 0, 32);
	expect_pattern_error(&p, "pattern: footprint (0 B) must be at least bytes (32 B)");
	p = pattern(DRAM_PATTERN_STREAM, 10, 4096, 32);
	p.write_fraction = 1.5;
	expect_pattern_error(&p, "pattern: write_fraction must be in [0, 1], got 1.5");
	p.write_fraction = -0.1;
	expect_pattern_error(&p, "pattern: write_fraction must be in [0, 1], got -0.1");
	p.write_fraction = NAN;
	expect_pattern_error(&p, "pattern: write_fraction must be in [0, 1], got nan");
	p = pattern(DRAM_PATTERN_STRIDED, 10, 4096, 32);
	expect_pattern_error(&p, "pattern: strided needs a stride of at least 1 B");
	p = pattern((enum dram_pattern_kind)7, 10, 4096, 32);
	expect_pattern_error(&p, "pattern: unknown kind 7");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dramsim3),
		cmocka_unit_test(test_ramulator_ldst),
		cmocka_unit_test(test_ramulator_rw),
		cmocka_unit_test(test_native),
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_block_boundaries),
		cmocka_unit_test(test_dramsim3_plain_forms),
		cmocka_unit_test(test_dramsim3_plain_like_general),
		cmocka_unit_test(test_pattern_stream_wraps),
		cmocka_unit_test(test_pattern_strided),
		cmocka_unit_test(test_pattern_random_range),
		cmocka_unit_test(test_pattern_determinism),
		cmocka_unit_test(test_pattern_write_fraction),
		cmocka_unit_test(test_pattern_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
