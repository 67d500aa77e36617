/*
 * test_workload.c - the workload loader (workload.c): every shipped workload loads with the
 * launch, arrays, addresses and ops it documents (workload_describe goldens and field checks),
 * -p overrides apply, and each bad file under tests/data/workload/bad/ fails with its exact
 * `file:line: key: message`.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "unit.h"
#include "warpexec.h"
#include "workload.h"

/* ---------------------------------------------------------------------------------------------
 * Helpers
 */

static struct workload *load(const char *rel, const char *const *ovr, size_t n,
			     struct sim_err *err)
{
	memset(err, 0, sizeof *err);
	return workload_load(unit_src_path(rel), ovr, n, err);
}

static struct workload *load_ok(const char *rel, const char *const *ovr, size_t n)
{
	struct sim_err err;
	struct workload *w = load(rel, ovr, n, &err);

	if (w == NULL) {
		char buf[SIM_ERR_MSG_MAX + 300];

		fail_msg("%s: %s", rel, sim_err_format(&err, buf, sizeof buf));
	}
	return w;
}

/* workload_describe into a malloc'd string. */
static char *describe(const struct workload *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	workload_describe(w, f);
	fclose(f);
	return buf;
}

static void check_describe(const struct workload *w, const char *golden)
{
	char *got = describe(w);

	if (strcmp(got, golden) != 0) {
		fprintf(stderr, "--- expected\n%s--- got\n%s", golden, got);
		free(got);
		fail();
	}
	free(got);
}

/* Evaluates e for the given built-ins (tx ty tz bx by bz) and loop variables. */
static int64_t eval(const struct workload *w, const struct expr *e, const int64_t t[6],
		    const int64_t *loopv, size_t nloop)
{
	int64_t vars[WORKLOAD_NVARS] = { 0 };
	struct expr_ctx ctx = { 0 };
	int64_t v;
	size_t i;

	for (i = 0; i < 6; i++)
		vars[i] = t[i];
	for (i = 0; i < 3; i++) {
		vars[EXPR_BDX + i] = w->block[i];
		vars[EXPR_GDX + i] = w->grid[i];
	}
	for (i = 0; i < nloop; i++)
		vars[EXPR_BUILTIN_COUNT + i] = loopv[i];
	v = expr_eval(e, vars, &ctx);
	assert_false(ctx.error);
	return v;
}

/* ---------------------------------------------------------------------------------------------
 * Shipped workloads
 */

static void test_transpose_naive(void **state)
{
	struct workload *w = load_ok("workloads/transpose_naive.wl", NULL, 0);
	const struct workload_op *loop, *ld, *st;
	int64_t t[6] = { 5, 3, 0, 2, 7, 0 }, j = 2;

	(void)state;
	assert_string_equal(w->kernel, "transpose_naive");
	assert_int_equal(w->grid[0], 32);
	assert_int_equal(w->grid[1], 32);
	assert_int_equal(w->grid[2], 1);
	assert_int_equal(w->block[0], 32);
	assert_int_equal(w->block[1], 8);
	assert_int_equal(w->narrays, 2);
	assert_int_equal(w->arrays[0].bytes, 4u << 20);
	assert_int_equal(w->arrays[0].base, WORKLOAD_BASE);
	assert_int_equal(w->arrays[1].base, WORKLOAD_BASE + (4u << 20));
	assert_int_equal(w->nbody, 1);
	loop = &w->body[0];
	assert_int_equal(loop->kind, WORKLOAD_OP_LOOP);
	assert_int_equal(loop->var_slot, EXPR_BUILTIN_COUNT);
	assert_true(expr_is_const(loop->count));
	assert_int_equal(expr_const_value(loop->count), 4);
	assert_int_equal(loop->nbody, 2);
	ld = &loop->body[0];
	st = &loop->body[1];
	assert_int_equal(ld->line, 15);
	assert_int_equal(ld->reg, 0);
	assert_int_equal(ld->bytes, 4);
	assert_int_equal(st->uses, 1);
	assert_int_equal(st->reg, -1);
	/* in[(by*32 + ty + j*8) * n + bx*32 + tx], out[(bx*32 + tx) * n + by*32 + ty + j*8] */
	assert_int_equal(eval(w, ld->index, t, &j, 1), (7 * 32 + 3 + 16) * 1024 + 2 * 32 + 5);
	assert_int_equal(eval(w, st->index, t, &j, 1), (2 * 32 + 5) * 1024 + 7 * 32 + 3 + 16);
	check_describe(w,
		"kernel transpose_naive grid 32x32x1 block 32x8x1\n"
		"param n = 1024\n"
		"array in 1048576 x 4B at 0x10000000\n"
		"array out 1048576 x 4B at 0x10400000\n"
		"loop j < 4\n"
		"  load in[(by * 32 + ty + j * 8) * n + bx * 32 + tx] 4B -> v\n"
		"  store out[(bx * 32 + tx) * n + by * 32 + ty + j * 8] 4B uses v\n");
	workload_free(w);
}

static void test_transpose_tiled(void **state)
{
	static const char *const unpadded[] = { "pad=0" };
	struct workload *w = load_ok("workloads/transpose_tiled.wl", NULL, 0);
	int64_t t[6] = { 1, 0, 0, 0, 0, 0 }, j = 0, v;

	(void)state;
	assert_int_equal(w->nshared, 1);
	assert_int_equal(w->shared[0].elems, 32 * 33);
	assert_int_equal(w->shared[0].base, 0);
	assert_int_equal(w->shared_bytes, 32 * 33 * 4);
	assert_int_equal(w->nregs, 2);
	check_describe(w,
		"kernel transpose_tiled grid 32x32x1 block 32x8x1\n"
		"param n = 1024\n"
		"param pad = 1\n"
		"array in 1048576 x 4B at 0x10000000\n"
		"array out 1048576 x 4B at 0x10400000\n"
		"shared tile 1056 x 4B at +0\n"
		"loop j < 4\n"
		"  load in[(by * 32 + ty + j * 8) * n + bx * 32 + tx] 4B -> v\n"
		"  shared_store tile[(ty + j * 8) * (32 + pad) + tx] 4B uses v\n"
		"barrier\n"
		"loop j < 4\n"
		"  shared_load tile[tx * (32 + pad) + ty + j * 8] 4B -> t\n"
		"  store out[(bx * 32 + ty + j * 8) * n + by * 32 + tx] 4B uses t\n");
	/* lane 1 of the column read: 33 floats on (bank 1) padded, 32 (bank 0) unpadded */
	v = eval(w, w->body[2].body[0].index, t, &j, 1);
	assert_int_equal(v, 33);
	assert_int_equal(w->body[2].body[1].uses, 2);
	workload_free(w);

	w = load_ok("workloads/transpose_tiled.wl", unpadded, 1);
	assert_int_equal(w->shared[0].elems, 32 * 32);
	assert_true(w->params[1].overridden);
	v = eval(w, w->body[2].body[0].index, t, &j, 1);
	assert_int_equal(v, 32);
	workload_free(w);
}

static void test_stride(void **state)
{
	static const char *const s250[] = { "stride=250" };
	struct workload *w = load_ok("workloads/stride.wl", NULL, 0);
	int64_t t[6] = { 3, 0, 0, 2, 0, 0 };

	(void)state;
	assert_int_equal(w->grid[0], 4096);
	assert_int_equal(w->block[0], 256);
	assert_int_equal(w->arrays[0].elems, 1048576);
	assert_int_equal(eval(w, w->body[0].index, t, NULL, 0), 2 * 256 + 3);
	check_describe(w,
		"kernel stride grid 4096x1x1 block 256x1x1\n"
		"param stride = 1\n"
		"param n = 1048576\n"
		"array a 1048576 x 4B at 0x10000000\n"
		"load a[(bx * bdx + tx) * stride] 4B -> v\n"
		"alu 4 cycles uses v\n");
	workload_free(w);

	w = load_ok("workloads/stride.wl", s250, 1);
	assert_int_equal(w->arrays[0].elems, 1048576ull * 250);
	assert_int_equal(w->arrays[0].bytes, 1048576ull * 250 * 4);
	/* lanes 1000 B apart */
	assert_int_equal(eval(w, w->body[0].index, t, NULL, 0) * 4, (2 * 256 + 3) * 1000);
	workload_free(w);

	/* a full warp of a row is dense (wexec_addrs_dense) only with its lanes 4 B apart: stride
	 * 1, not 2 (an affine row all the same), nor stride 1 loading 2 B of each 4 B element */
	{
		static const char *const ov[][2] = { { "stride=1", "n=4096" },
						     { "stride=2", "n=4096" } };
		int k;

		for (k = 0; k < 3; k++) {
			struct expr_ctx ctx = { 0 };
			struct wexec x;
			addr_t addr[WEXEC_LANES];
			bool dense;

			w = load_ok("workloads/stride.wl", ov[k == 1], 2);
			if (k == 2)
				w->body[0].bytes = 2;
			wexec_start(&x, w, 1, 2, &ctx);
			assert_true(w->body[0].index_affine);
			assert_true(wexec_addrs_dense(&x, &w->body[0], &w->arrays[0], &ctx, addr,
						      &dense));
			assert_int_equal(dense, k == 0);
			/* block 1, warp 2: thread 256 + 64 */
			assert_int_equal(addr[0],
					 w->arrays[0].base + 320ull * (k == 1 ? 2 : 1) * 4);
			if (!dense)
				assert_int_equal(addr[31], addr[0] + 31 * (k == 1 ? 8 : 4));
			workload_free(w);
		}
	}
}

static void test_stream_copy(void **state)
{
	struct workload *w = load_ok("workloads/stream_copy.wl", NULL, 0);

	(void)state;
	assert_int_equal(w->grid[0], 4096);
	assert_int_equal(w->arrays[1].base, WORKLOAD_BASE + 4ull * 1024 * 1024);
	check_describe(w,
		"kernel stream_copy grid 4096x1x1 block 256x1x1\n"
		"param n = 1048576\n"
		"array a 1048576 x 4B at 0x10000000\n"
		"array b 1048576 x 4B at 0x10400000\n"
		"load a[bx * bdx + tx] 4B -> v\n"
		"store b[bx * bdx + tx] 4B uses v\n");
	workload_free(w);
}

static void test_pointer_chase(void **state)
{
	static const char *const ovr[] = { "footprint_kb=64", "stride_bytes=0x40", "loads=7" };
	struct workload *w = load_ok("workloads/pointer_chase.wl", NULL, 0);

	(void)state;
	assert_int_equal(w->arrays[0].elems, 8192);
	assert_int_equal(w->arrays[0].elem_bytes, 128);
	assert_int_equal(w->body[0].kind, WORKLOAD_OP_CHASE);
	assert_int_equal(w->body[0].bytes, 8);
	assert_int_equal(w->body[0].order, WORKLOAD_CHASE_RANDOM);
	assert_int_equal(expr_const_value(w->body[0].count), 100000);
	check_describe(w,
		"kernel pointer_chase grid 1x1x1 block 1x1x1\n"
		"param footprint_kb = 1024\n"
		"param stride_bytes = 128\n"
		"param loads = 100000\n"
		"array chain 8192 x 128B at 0x10000000\n"
		"chase chain loads loads 8B random -> p\n");
	workload_free(w);

	w = load_ok("workloads/pointer_chase.wl", ovr, 3);
	assert_int_equal(w->arrays[0].elems, 1024);
	assert_int_equal(w->arrays[0].elem_bytes, 64);
	assert_int_equal(expr_const_value(w->body[0].count), 7);
	workload_free(w);
}

/* Arrays are laid out at 256-byte alignment, in file order. */
static void test_layout(void **state)
{
	struct workload *w = load_ok("tests/data/workload/layout.wl", NULL, 0);

	(void)state;
	assert_int_equal(w->narrays, 3);
	assert_int_equal(w->arrays[0].base, WORKLOAD_BASE);
	assert_int_equal(w->arrays[0].bytes, 3);
	assert_int_equal(w->arrays[1].base, WORKLOAD_BASE + 256);
	assert_int_equal(w->arrays[1].bytes, 16 * 300);
	assert_int_equal(w->arrays[2].base, WORKLOAD_BASE + 256 + 4864);
	assert_int_equal(w->shared[0].base, 0);
	assert_int_equal(w->shared[1].base, 128);
	assert_int_equal(w->shared_bytes, 128 + 8 * 8);
	assert_int_equal(w->grid[0], 2);
	assert_int_equal(w->grid[1], 1);
	check_describe(w,
		"kernel layout grid 2x1x1 block 64x1x1\n"
		"param k = 3\n"
		"array c 3 x 1B at 0x10000000\n"
		"array f4 300 x 16B at 0x10000100\n"
		"array d 5 x 8B at 0x10001400\n"
		"shared s 5 x 2B at +0\n"
		"shared t 8 x 8B at +128\n"
		"load f4[tx] 16B -> a\n"
		"load d[tx % 5] 4B -> b\n"
		"loop i < k\n"
		"  loop m < i + gdx\n"
		"    shared_store s[i + m] 2B uses a,b\n"
		"    alu 3 cycles\n"
		"  barrier\n"
		"shared_load t[0] 8B -> a uses b\n"
		"store c[tx] 1B uses a\n"
		"chase d loads 12 8B sequential\n");
	/* nested loop variables get consecutive slots after the built-ins */
	assert_int_equal(w->body[2].var_slot, EXPR_BUILTIN_COUNT);
	assert_int_equal(w->body[2].body[0].var_slot, EXPR_BUILTIN_COUNT + 1);
	assert_true(expr_uses_slot(w->body[2].body[0].count, EXPR_BUILTIN_COUNT));
	workload_free(w);
}

/* ---------------------------------------------------------------------------------------------
 * Bad files: the exact message, with file and line
 */

struct bad_case {
	const char *file;     /* under tests/data/workload/bad/ */
	const char *expected; /* each line's "file:" is the path of the file */
};

static const struct bad_case bad_cases[] = {
	{ "unknown_op.wl", "@:6: body[0].op: unknown op \"lod\" (did you mean \"load\"?)" },
	{ "unknown_key.wl", "@:7: body[0].regg: unknown key for load (did you mean \"reg\"?)" },
	{ "bad_expr.wl",
	  "@:7: body[0].index: unknown name \"txx\" (did you mean \"tx\"?) at column 11" },
	{ "undef_reg.wl",
	  "@:7: body[1].uses: register \"w\" is not written by an earlier op "
	  "(did you mean \"v\"?)" },
	{ "unknown_array.wl",
	  "@:6: body[0].array: unknown array \"inn\" (did you mean \"in\"?)" },
	{ "missing_key.wl", "@:7: body[1].index: required key missing (op \"load\")" },
	{ "wrong_type.wl",
	  "@:7: body[0].latency: expected an integer in 1..1000000, got \"fast\"" },
	{ "registers.wl", "@:4: registers: expected a value in 1..255, got 300" },
	{ "many.wl",
	  "@:4: grid[0]: \"tx\" at column 1 is a thread or block index: only parameters may "
	  "appear here\n"
	  "@:5: arrays[0].type: unknown type \"floot\" (did you mean \"float\"?)\n"
	  "@:10: body[1].index: unknown name \"j\" (did you mean \"n\"?) at column 1\n"
	  "@:10: body[1].bytes: expected 1, 2, 4, 8 or 16, got 3" },
	{ "reserved.wl",
	  "@:3: params.hash: \"hash\" is a built-in name and cannot be a parameter\n"
	  "@:7: body[0].var: \"rand\" is already a built-in, parameter or enclosing loop "
	  "variable" },
	{ "missing_top.wl",
	  "@:3: bloc: unknown key (did you mean \"block\"?)\n"
	  "@: kernel: required key missing (the kernel's name)\n"
	  "@: body: required key missing (the list of ops)" },
};

/* expected with every "@" replaced by path. */
static char *expand(const char *expected, const char *path)
{
	size_t n = 1, i;
	char *out, *p;

	for (i = 0; expected[i] != '\0'; i++)
		n += expected[i] == '@' ? strlen(path) : 1;
	out = p = malloc(n);
	assert_non_null(out);
	for (i = 0; expected[i] != '\0'; i++) {
		if (expected[i] == '@') {
			strcpy(p, path);
			p += strlen(path);
		} else {
			*p++ = expected[i];
		}
	}
	*p = '\0';
	return out;
}

static void check_bad(const char *rel, const char *const *ovr, size_t n, const char *expected,
		      int line)
{
	char path[4096], buf[SIM_ERR_MSG_MAX + 600];
	struct sim_err err;
	struct workload *w;
	char *want;

	snprintf(path, sizeof path, "%s", unit_src_path(rel));
	w = load(rel, ovr, n, &err);
	assert_null(w);
	want = expand(expected, path);
	sim_err_format(&err, buf, sizeof buf);
	if (strcmp(buf, want) != 0) {
		fprintf(stderr, "%s\n--- expected\n%s\n--- got\n%s\n", rel, want, buf);
		free(want);
		fail();
	}
	free(want);
	assert_int_equal(err.line, line);
}

static void test_bad_files(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		char rel[256];
		const char *colon = strchr(bad_cases[i].expected, ':');

		snprintf(rel, sizeof rel, "tests/data/workload/bad/%s", bad_cases[i].file);
		check_bad(rel, NULL, 0, bad_cases[i].expected, atoi(colon + 1));
	}
}

static void test_bad_overrides(void **state)
{
	static const char *const typo[] = { "strid=3" };
	static const char *const noeq[] = { "stride" };
	static const char *const nonint[] = { "stride=4x", "n=0x100000" };
	static const char *const zero[] = { "n=0" };
	struct sim_err err;

	(void)state;
	assert_null(load("workloads/stride.wl", typo, 1, &err));
	assert_string_equal(err.file, "-p strid=3");
	assert_int_equal(err.line, 0);
	assert_string_equal(err.msg, "strid: unknown parameter (did you mean \"stride\"?)");
	assert_null(load("workloads/stride.wl", noeq, 1, &err));
	assert_string_equal(err.msg, "expected name=value (for example stride=32)");
	assert_null(load("workloads/stride.wl", nonint, 2, &err));
	assert_string_equal(err.file, "-p stride=4x");
	assert_string_equal(err.msg, "stride: expected a 64-bit integer, got \"4x\"");
	/* a value that makes a size zero is reported where the size is written */
	check_bad("workloads/stride.wl", zero, 1,
		  "@:7: grid[0]: expected a value in 1..2147483647, got 0\n"
		  "@:10: arrays[0].elems: expected a value in 1..1099511627776, got 0", 7);
}

/* Kernels run one after another chase the same array through the same cycle (the second
 * draws nothing from the rng), and `start` begins that many steps along it: the timed kernel of
 * a benchmark goes on where its warm-up stopped. */
static void test_chase_shared_cycle(void **state)
{
	static const char *const small[] = { "footprint_bytes=1024", "stride_bytes=64",
					     "loads=5", "threads=1", "start=5" };
	static const char *const other[] = { "footprint_bytes=2048", "stride_bytes=64" };
	static const char *const back[] = { "footprint_bytes=1024", "stride_bytes=64",
					    "start=-1" };
	struct workload *w1 = load_ok("workloads/ubench/pchase.wl", small, 5);
	struct workload *w2 = load_ok("workloads/ubench/pchase.wl", small, 5);
	struct workload *w3 = load_ok("workloads/ubench/pchase.wl", other, 2);
	struct workload *w4 = load_ok("workloads/ubench/pchase.wl", back, 3);
	const struct workload *ws[4] = { w1, w2, w3, w4 };
	uint32_t **next[4];
	uint64_t node, seen = 0;
	struct expr_ctx ctx = { 0 };
	struct sim_err err;
	struct wexec x;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	unsigned long drawn;
	int i;

	(void)state;
	next[0] = wexec_chase_build(w1, rng, ws, next, 0, &err);
	assert_non_null(next[0]);
	gsl_rng_set(rng, 1);
	/* the same array (name, 16 nodes, random order): the same order, nothing drawn */
	next[1] = wexec_chase_build(w2, rng, ws, next, 1, &err);
	assert_non_null(next[1]);
	assert_ptr_equal(next[1][0], next[0][0]);
	drawn = gsl_rng_get(rng);
	gsl_rng_set(rng, 1);
	assert_int_equal(drawn, gsl_rng_get(rng));
	/* another footprint: another array, its own order */
	next[2] = wexec_chase_build(w3, rng, ws, next, 2, &err);
	assert_non_null(next[2]);
	assert_ptr_not_equal(next[2][0], next[0][0]);
	next[3] = wexec_chase_build(w4, rng, ws, next, 3, &err);
	assert_ptr_equal(next[3][0], next[0][0]);
	/* one cycle through all 16 nodes */
	for (node = 0, i = 0; i < 16; i++) {
		seen |= 1ull << node;
		node = next[0][0][node];
	}
	assert_int_equal(node, 0);
	assert_int_equal(seen, 0xffff);
	/* start = 5: the node 5 steps from warp 0's first node; 16 + 5 the same; -1 an error */
	wexec_start(&x, w1, 0, 0, &ctx);
	for (node = 0, i = 0; i < 5; i++)
		node = next[0][0][node];
	assert_int_equal(wexec_chase_first(&x, &w1->body[0], &w1->arrays[0], next[0][0], 0,
					   &ctx), node);
	assert_false(ctx.error);
	wexec_start(&x, w4, 0, 0, &ctx);
	(void)wexec_chase_first(&x, &w4->body[0], &w4->arrays[0], next[3][0], 0, &ctx);
	assert_true(ctx.error);
	assert_string_equal(ctx.msg, "chase start: expected a value >= 0, got -1");
	wexec_chase_free_all(ws, next, 4);
	gsl_rng_free(rng);
	workload_free(w1);
	workload_free(w2);
	workload_free(w3);
	workload_free(w4);
}

/* Every lane's address is its own thread's, for block shapes whose rows and planes are shorter,
 * as long as or longer than a warp (wexec_start keeps lane 0's thread and the lanes count on from
 * it): through the affine index and through the lane-by-lane one, and both leave the last active
 * lane's thread in tx, ty, tz. wexec_addrs_dense, on a twin walk, calls a warp dense exactly when
 * the index is affine and the warp is a full row of the block (its lanes 1 B apart: char
 * elements), with the same first address (the same lanes otherwise) and threads. */
static void test_lane_threads(void **state)
{
	static const uint32_t shapes[][3] = {
		{ 3, 5, 7 }, { 1, 1, 64 }, { 32, 1, 1 }, { 5, 2, 9 }, { 7, 1, 3 }, { 2, 3, 1 },
		{ 33, 2, 1 }, { 1, 40, 2 },
	};
	uint32_t dense_warps = 0;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
		char ov[3][32];
		const char *const ovr[3] = { ov[0], ov[1], ov[2] };
		struct workload *w;
		uint64_t threads;
		uint32_t warp, nwarps;

		snprintf(ov[0], sizeof ov[0], "x=%u", shapes[k][0]);
		snprintf(ov[1], sizeof ov[1], "y=%u", shapes[k][1]);
		snprintf(ov[2], sizeof ov[2], "z=%u", shapes[k][2]);
		w = load_ok("tests/data/workload/lanes.wl", ovr, 3);
		assert_true(w->body[0].index_affine);
		assert_false(w->body[1].index_affine);
		/* the steps of the affine one are constants: e(0) is its one evaluation a warp */
		assert_true(w->body[0].index_coef_known);
		assert_int_equal(w->body[0].index_coef[0], 1);
		assert_int_equal(w->body[0].index_coef[1], 1000);
		assert_int_equal(w->body[0].index_coef[2], 1000000);
		threads = (uint64_t)shapes[k][0] * shapes[k][1] * shapes[k][2];
		nwarps = (uint32_t)((threads + WEXEC_LANES - 1) / WEXEC_LANES);
		for (warp = 0; warp < nwarps; warp++) {
			struct expr_ctx ctx = { 0 }, ctx2 = { 0 };
			struct wexec x, x2;
			int op;

			wexec_start(&x, w, 0, warp, &ctx);
			wexec_start(&x2, w, 0, warp, &ctx2);
			for (op = 0; op < 2; op++) {
				addr_t addr[WEXEC_LANES], addr2[WEXEC_LANES];
				uint32_t lane, t[3], last[3] = { 0, 0, 0 };
				bool dense, row;

				assert_ptr_equal(wexec_op(&x), &w->body[op]);
				assert_true(wexec_addrs(&x, &w->body[op], &w->arrays[0], &ctx, addr));
				assert_true(wexec_addrs_dense(&x2, &w->body[op], &w->arrays[0],
							      &ctx2, addr2, &dense));
				row = x.active == UINT32_MAX;
				for (lane = 1; lane < WEXEC_LANES && row; lane++)
					row = addr[lane] == addr[0] + lane;
				assert_int_equal(dense, op == 0 && row);
				dense_warps += dense;
				assert_int_equal(addr2[0], addr[0]);
				for (lane = 1; lane < WEXEC_LANES && !dense; lane++)
					if ((x.active >> lane) & 1)
						assert_int_equal(addr2[lane], addr[lane]);
				assert_memory_equal(&x2.vars[EXPR_TX], &x.vars[EXPR_TX],
						    3 * sizeof x.vars[EXPR_TX]);
				for (lane = 0; lane < WEXEC_LANES; lane++) {
					bool live = wexec_lane_thread(w->block, warp, lane, t);

					assert_int_equal(live, (x.active >> lane) & 1);
					if (!live)
						continue;
					assert_int_equal(addr[lane], w->arrays[0].base + t[0] +
									 1000ull * t[1] +
									 1000000ull * t[2]);
					memcpy(last, t, sizeof last);
				}
				assert_int_equal(x.vars[EXPR_TX], last[0]);
				assert_int_equal(x.vars[EXPR_TY], last[1]);
				assert_int_equal(x.vars[EXPR_TZ], last[2]);
				wexec_next(&x, &ctx);
				wexec_next(&x2, &ctx2);
				assert_false(ctx.error);
			}
		}
		workload_free(w);
	}
	/* {32, 1, 1}: its warp; {33, 2, 1}: its first of three */
	assert_int_equal(dense_warps, 2);
}

static void test_missing_file(void **state)
{
	struct sim_err err;

	(void)state;
	assert_null(load("tests/data/workload/no_such.wl", NULL, 0, &err));
	assert_non_null(strstr(err.msg, "cannot open"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transpose_naive),
		cmocka_unit_test(test_transpose_tiled),
		cmocka_unit_test(test_stride),
		cmocka_unit_test(test_stream_copy),
		cmocka_unit_test(test_pointer_chase),
		cmocka_unit_test(test_chase_shared_cycle),
		cmocka_unit_test(test_lane_threads),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_bad_overrides),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
