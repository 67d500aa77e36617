/*
 * test_expr.c - index expressions (sim/front/expr.c).
 *
 * Hand-computed values for precedence, associativity, C truncation, wrap-around and shifts;
 * variables and constant names (the transpose index); constant folding; every compile error
 * message with its column; evaluation faults reported through the context; rand determinism
 * and range; then random expressions, printed with minimal parentheses from a generated tree,
 * compiled and evaluated against a reference evaluator of the tree.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "unit.h"

#include "expr.h"
#include "log.h"

/* Slots of the variables the tests add after the built-ins. */
enum { SLOT_I = EXPR_BUILTIN_COUNT, SLOT_J, SLOT_COUNT };

/* Built-ins, loop variables i and j, and the constant parameters n = 4 and stride = 32. */
struct names {
	struct expr_name v[SLOT_COUNT + 2];
	struct expr_names t;
};

static void names_init(struct names *nm)
{
	expr_names_builtin(nm->v);
	nm->v[SLOT_I] = (struct expr_name){ "i", false, SLOT_I, 0 };
	nm->v[SLOT_J] = (struct expr_name){ "j", false, SLOT_J, 0 };
	nm->v[SLOT_COUNT] = (struct expr_name){ "n", true, 0, 4 };
	nm->v[SLOT_COUNT + 1] = (struct expr_name){ "stride", true, 0, 32 };
	nm->t.v = nm->v;
	nm->t.n = SLOT_COUNT + 2;
}

static struct expr *compile_ok(const char *text, const struct names *nm)
{
	struct expr_err err;
	struct expr *e = expr_compile(text, &nm->t, &err);

	if (e == NULL)
		fail_msg("\"%s\": unexpected error: %s (column %zu)", text, err.msg, err.column);
	return e;
}

/* Compiles and evaluates text with all variables zero (except as given) and no error. */
static int64_t eval_text(const char *text, const int64_t *vars)
{
	static const int64_t zero[SLOT_COUNT];
	struct names nm;
	struct expr_ctx ctx = { 0 };
	struct expr *e;
	int64_t v;

	names_init(&nm);
	e = compile_ok(text, &nm);
	v = expr_eval(e, vars != NULL ? vars : zero, &ctx);
	if (ctx.error)
		fail_msg("\"%s\": unexpected evaluation error: %s", text, ctx.msg);
	expr_free(e);
	return v;
}

/* ---------------------------------------------------------------------------------------------
 * Hand-computed values
 */

struct value_case {
	const char *text;
	int64_t want;
};

static void check_values(const struct value_case *c, size_t n)
{
	size_t i;
	int64_t got;

	for (i = 0; i < n; i++) {
		got = eval_text(c[i].text, NULL);
		if (got != c[i].want)
			fail_msg("\"%s\" = %lld, expected %lld", c[i].text, (long long)got,
				 (long long)c[i].want);
	}
}

static void test_precedence(void **state)
{
	static const struct value_case c[] = {
		{ "1 + 2 * 3 << 1", 14 },            /* (1 + (2 * 3)) << 1 */
		{ "1 << 2 + 1", 8 },                 /* + binds tighter than << */
		{ "2 * 3 % 4", 2 },                  /* left to right: (2 * 3) % 4 */
		{ "10 - 4 - 3", 3 },                 /* left associative */
		{ "100 / 10 / 5", 2 },
		{ "1 << 2 << 3", 32 },
		{ "256 >> 2 >> 3", 8 },
		{ "6 & 3 ^ 5 | 8", 15 },             /* ((6 & 3) ^ 5) | 8 */
		{ "1 | 2 ^ 3 & 4", 3 },              /* 1 | (2 ^ (3 & 4)) */
		{ "5 & 4 + 1", 5 },                  /* & is looser than + */
		{ "(1 + 2) * 3", 9 },
		{ "-7 / 2", -3 },                    /* C truncates toward zero */
		{ "-7 % 2", -1 },
		{ "7 % -2", 1 },
		{ "-7 >> 1", -4 },                   /* arithmetic shift floors */
		{ "1 << 63 >> 63", -1 },             /* sign bit copied down */
		{ "~0 & 0xff", 255 },
		{ "~0", -1 },
		{ "- -3", 3 },
		{ "--3", 3 },
		{ "-~0", 1 },
		{ "-2 * 3", -6 },
		{ "-(2 + 3) * 2", -10 },
		{ "min(3, max(1, 2))", 2 },
		{ "max(-1, -2)", -1 },
		{ "min(0xffffffffffffffff, 0)", -1 }, /* signed comparison */
		{ "min(1 + 1, 3) * 2", 4 },
		{ "0x10 + 0XfF", 271 },
		{ "0", 0 },
		{ " \t1\n+\r2 ", 3 },
		{ "n * stride", 128 },               /* constant names */
	};

	(void)state;
	check_values(c, sizeof c / sizeof c[0]);
}

static void test_wrap(void **state)
{
	static const struct value_case c[] = {
		{ "9223372036854775807 + 1", INT64_MIN },
		{ "-9223372036854775808", INT64_MIN },
		{ "9223372036854775808", INT64_MIN },
		{ "18446744073709551615", -1 },
		{ "0xffffffffffffffff", -1 },
		{ "-9223372036854775808 / -1", INT64_MIN },
		{ "-9223372036854775808 % -1", 0 },
		{ "-(-9223372036854775808)", INT64_MIN },
		{ "0x4000000000000000 * 4", 0 },
		{ "1 << 63", INT64_MIN },
		{ "3 << 63", INT64_MIN },
		{ "-1 << 1", -2 },
		{ "-1 >> 63", -1 },
		{ "0x7fffffffffffffff >> 62", 1 },
		{ "1 >> 0", 1 },
		{ "1 << 0", 1 },
	};

	(void)state;
	check_values(c, sizeof c / sizeof c[0]);
}

static void test_variables(void **state)
{
	int64_t vars[SLOT_COUNT] = { 0 };
	struct names nm;
	struct expr_ctx ctx = { 0 };
	struct expr *e;
	int64_t bx, by, tx, ty;

	(void)state;
	names_init(&nm);
	e = compile_ok("by * 1024 * 32 + ty * 1024 + bx * 32 + tx", &nm);
	assert_false(expr_is_const(e));
	assert_true(expr_uses_slot(e, EXPR_TX));
	assert_true(expr_uses_slot(e, EXPR_BY));
	assert_false(expr_uses_slot(e, EXPR_TZ));
	assert_false(expr_uses_rand(e));
	for (by = 0; by < 32; by += 7)
		for (bx = 0; bx < 32; bx += 5)
			for (ty = 0; ty < 32; ty += 3)
				for (tx = 0; tx < 32; tx++) {
					vars[EXPR_TX] = tx;
					vars[EXPR_TY] = ty;
					vars[EXPR_BX] = bx;
					vars[EXPR_BY] = by;
					assert_int_equal(expr_eval(e, vars, &ctx),
							 by * 1024 * 32 + ty * 1024 + bx * 32 + tx);
				}
	assert_false(ctx.error);
	expr_free(e);

	/* Every built-in reads its own slot; loop variables read theirs. */
	for (tx = 0; tx < SLOT_COUNT; tx++)
		vars[tx] = 100 + tx;
	assert_int_equal(eval_text("tx + ty * 2 + tz * 3", vars), 100 + 101 * 2 + 102 * 3);
	assert_int_equal(eval_text("bdx * gdx + bdy - gdy + bdz ^ gdz",
				   vars), ((106 * 109 + 107 - 110 + 108) ^ 111));
	assert_int_equal(eval_text("(i << 4) | j + stride", vars), (112 << 4) | (113 + 32));
	assert_int_equal(eval_text("bx + by + bz", vars), 103 + 104 + 105);
	assert_string_equal(expr_builtin_name(EXPR_BDY), "bdy");
	assert_string_equal(expr_builtin_name(EXPR_GDZ), "gdz");
}

static void test_const_fold(void **state)
{
	struct names nm;
	struct expr_ctx ctx = { 0 };
	struct expr *e;

	(void)state;
	names_init(&nm);
	e = compile_ok("(n * stride + 3) << 2", &nm);
	assert_true(expr_is_const(e));
	assert_int_equal(expr_const_value(e), (4 * 32 + 3) << 2);
	assert_int_equal(expr_eval(e, NULL, &ctx), (4 * 32 + 3) << 2);
	expr_free(e);

	e = compile_ok("min(-n, ~stride)", &nm);
	assert_true(expr_is_const(e));
	assert_int_equal(expr_const_value(e), -33);
	expr_free(e);

	e = compile_ok("tx * 0", &nm);             /* no algebra: a variable is never folded */
	assert_false(expr_is_const(e));
	expect_assert_failure(expr_const_value(e));
	expr_free(e);

	e = compile_ok("rand(4) * 0", &nm);
	assert_false(expr_is_const(e));
	assert_true(expr_uses_rand(e));
	expr_free(e);

	/* A constant that faults is left for the evaluation to report. */
	e = compile_ok("1 + 4 / (n - 4)", &nm);
	assert_false(expr_is_const(e));
	assert_int_equal(expr_eval(e, NULL, &ctx), 0);
	assert_true(ctx.error);
	assert_string_equal(ctx.msg, "division by zero at column 7");
	assert_int_equal(ctx.column, 7);
	expr_free(e);
}

/* ---------------------------------------------------------------------------------------------
 * Compile errors
 */

struct error_case {
	const char *text;
	size_t column;
	const char *msg;
};

static void test_errors(void **state)
{
	static const struct error_case c[] = {
		{ "", 1, "empty expression" },
		{ " \t ", 1, "empty expression" },
		{ "(1 + 2))", 8, "unexpected token \")\" at column 8" },
		{ "min(1,)", 7, "unexpected token \")\" at column 7" },
		{ "txx + 1", 1, "unknown name \"txx\" (did you mean \"tx\"?)" },
		{ "2 * bdxx", 5, "unknown name \"bdxx\" (did you mean \"bdx\"?)" },
		{ "maxx(1, 2)", 1, "unknown name \"maxx\" (did you mean \"max\"?)" },
		{ "strid * 2", 1, "unknown name \"strid\" (did you mean \"stride\"?)" },
		{ "1 + foobar", 5, "unknown name \"foobar\"" },
		{ "min(tx, ty 3)", 12, "expected \")\" after arguments of min at column 12" },
		{ "max(1, 2", 9, "expected \")\" after arguments of max at column 9" },
		{ "min(1)", 1, "min takes 2 arguments, got 1" },
		{ "1 + max(1, 2, 3)", 5, "max takes 2 arguments, got 3" },
		{ "min()", 1, "min takes 2 arguments, got 0" },
		{ "rand(1, 2)", 1, "rand takes 0 or 1 arguments, got 2" },
		{ "hash()", 1, "hash takes 1 argument, got 0" },
		{ "2 * hash(1, 2)", 5, "hash takes 1 argument, got 2" },
		{ "hsh(1)", 1, "unknown name \"hsh\" (did you mean \"hash\"?)" },
		{ "min + 1", 5, "expected \"(\" after min at column 5" },
		{ "rand", 5, "expected \"(\" after rand at column 5" },
		{ "1 +", 4, "unexpected end of expression at column 4" },
		{ "-", 2, "unexpected end of expression at column 2" },
		{ "(1 + 2", 7, "expected \")\" at column 7" },
		{ "(1 2)", 4, "expected \")\" at column 4" },
		{ "1 2", 3, "unexpected token \"2\" at column 3" },
		{ "tx ty", 4, "unexpected token \"ty\" at column 4" },
		{ "()", 2, "unexpected token \")\" at column 2" },
		{ "+1", 1, "unexpected token \"+\" at column 1" },
		{ "1 * / 2", 5, "unexpected token \"/\" at column 5" },
		{ "1, 2", 2, "unexpected token \",\" at column 2" },
		{ "1 $ 2", 3, "unexpected character \"$\" at column 3" },
		{ "1 < 2", 3, "unexpected character \"<\" at column 3" },
		{ "tx >= 2", 4, "unexpected character \">\" at column 4" },
		{ "1 + \x01", 5, "unexpected character 0x01 at column 5" },
		{ "12abc", 1, "bad integer constant \"12abc\" at column 1" },
		{ "1 + 0x", 5, "bad integer constant \"0x\" at column 5" },
		{ "0x1g", 1, "bad integer constant \"0x1g\" at column 1" },
		{ "010", 1, "bad integer constant \"010\" at column 1" },
		{ "18446744073709551616", 1,
		  "integer constant \"18446744073709551616\" out of range at column 1" },
		{ "0x10000000000000000", 1,
		  "integer constant \"0x10000000000000000\" out of range at column 1" },
	};
	struct names nm;
	struct expr_err err;
	struct expr *e;
	size_t i;

	(void)state;
	names_init(&nm);
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		memset(&err, 0x55, sizeof err);
		e = expr_compile(c[i].text, &nm.t, &err);
		if (e != NULL)
			fail_msg("\"%s\" compiled; expected \"%s\"", c[i].text, c[i].msg);
		if (strcmp(err.msg, c[i].msg) != 0 || err.column != c[i].column)
			fail_msg("\"%s\": got \"%s\" (column %zu), expected \"%s\" (column %zu)",
				 c[i].text, err.msg, err.column, c[i].msg, c[i].column);
	}
}

/* Nesting is bounded: parentheses by the parser, pending values by the evaluator's stack. */
static void test_nesting_limits(void **state)
{
	struct names nm;
	struct expr_err err;
	struct expr *e;
	char *s;
	size_t i, k, len;

	(void)state;
	names_init(&nm);

	/* 200 parentheses deep is fine; 300 is not. */
	for (k = 200; k <= 300; k += 100) {
		s = xmalloc(2 * k + 2);
		memset(s, '(', k);
		s[k] = '7';
		memset(s + k + 1, ')', k);
		s[2 * k + 1] = '\0';
		e = expr_compile(s, &nm.t, &err);
		if (k == 200) {
			assert_non_null(e);
			assert_int_equal(expr_const_value(e), 7);
			expr_free(e);
		} else {
			assert_null(e);
			assert_string_equal(err.msg, "expression too deeply nested at column 256");
		}
		free(s);
	}
	s = xmalloc(1000);
	memset(s, '-', 999);
	s[999] = '\0';
	e = expr_compile(s, &nm.t, &err);
	assert_null(e);
	assert_string_equal(err.msg, "expression too deeply nested at column 256");
	free(s);

	/* "tx+(tx+(...))": pending values grow by one per level; the 65th tx overflows. */
	s = xmalloc(8 * 80 + 1);
	for (k = 63; k <= 64; k++) {
		len = 0;
		for (i = 0; i < k; i++)
			len += (size_t)sprintf(s + len, "tx+(");
		len += (size_t)sprintf(s + len, "tx");
		for (i = 0; i < k; i++)
			s[len++] = ')';
		s[len] = '\0';
		e = expr_compile(s, &nm.t, &err);
		if (k == 63) {
			int64_t vars[SLOT_COUNT] = { 0 };
			struct expr_ctx ctx = { 0 };

			assert_non_null(e);
			vars[EXPR_TX] = 3;
			assert_int_equal(expr_eval(e, vars, &ctx), 3 * 64);
			expr_free(e);
		} else {
			assert_null(e);
			assert_string_equal(err.msg, "expression too deeply nested at column 257");
			assert_int_equal(err.column, 257);
		}
	}
	free(s);
}

/* ---------------------------------------------------------------------------------------------
 * Evaluation faults
 */

static void expect_fault(const char *text, const int64_t *vars, gsl_rng *rng, const char *msg,
			 size_t column)
{
	struct names nm;
	struct expr_ctx ctx = { 0 };
	struct expr *e;

	names_init(&nm);
	ctx.rng = rng;
	e = compile_ok(text, &nm);
	assert_int_equal(expr_eval(e, vars, &ctx), 0);
	if (!ctx.error || strcmp(ctx.msg, msg) != 0 || ctx.column != column)
		fail_msg("\"%s\": got %s\"%s\" (column %zu), expected \"%s\" (column %zu)", text,
			 ctx.error ? "" : "no error, ", ctx.msg, ctx.column, msg, column);
	expr_free(e);
}

static void test_eval_faults(void **state)
{
	int64_t vars[SLOT_COUNT] = { 0 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng *r8 = gsl_rng_alloc(gsl_rng_ranlux); /* 24-bit output */
	struct names nm;
	struct expr_ctx ctx = { 0 };
	struct expr *div, *mod;

	(void)state;
	vars[EXPR_TX] = 9;
	vars[EXPR_BX] = 0;
	expect_fault("tx / bx", vars, NULL, "division by zero at column 4", 4);
	expect_fault("tx % bx", vars, NULL, "modulo by zero at column 4", 4);
	expect_fault("1 + 2 * (tx % (bx * 2))", vars, NULL, "modulo by zero at column 13", 13);
	expect_fault("1 / 0", vars, NULL, "division by zero at column 3", 3);
	vars[SLOT_I] = 64;
	expect_fault("1 << i", vars, NULL, "shift count 64 out of range 0..63 at column 3", 3);
	expect_fault("tx >> -1", vars, NULL, "shift count -1 out of range 0..63 at column 4", 4);
	expect_fault("rand(bx)", vars, rng, "rand(n) needs n >= 1, got 0 at column 1", 1);
	expect_fault("rand(-5)", vars, rng, "rand(n) needs n >= 1, got -5 at column 1", 1);
	expect_fault("tx + rand()", vars, NULL, "rand without a random generator at column 6", 6);
	expect_fault("rand(2)", vars, r8,
		     "rand needs a generator with 32-bit output (mt19937) at column 1", 1);

	/* The first fault sticks; a good evaluation after it still returns its value. */
	names_init(&nm);
	div = compile_ok("tx / bx", &nm);
	mod = compile_ok("tx % bx", &nm);
	assert_int_equal(expr_eval(div, vars, &ctx), 0);
	assert_int_equal(expr_eval(mod, vars, &ctx), 0);
	assert_string_equal(ctx.msg, "division by zero at column 4");
	vars[EXPR_BX] = 2;
	assert_int_equal(expr_eval(div, vars, &ctx), 4);
	assert_true(ctx.error);
	ctx.error = false;
	vars[EXPR_BX] = 0;
	assert_int_equal(expr_eval(mod, vars, &ctx), 0);
	assert_string_equal(ctx.msg, "modulo by zero at column 4");
	expr_free(div);
	expr_free(mod);
	gsl_rng_free(rng);
	gsl_rng_free(r8);
}

/* ---------------------------------------------------------------------------------------------
 * rand
 */

static void test_rand(void **state)
{
	static const int64_t bounds[] = { 1, 2, 7, 32, 1000, 0xffffffffll, 0x100000000ll,
					  (1ll << 40) + 3, INT64_MAX };
	int64_t vars[SLOT_COUNT] = { 0 };
	gsl_rng *a = gsl_rng_alloc(gsl_rng_mt19937), *b = gsl_rng_alloc(gsl_rng_mt19937);
	struct expr_ctx ca = { 0 }, cb = { 0 };
	struct names nm;
	struct expr *e, *e2;
	uint64_t hi, lo;
	int64_t v, w, seen_hi = 0;
	size_t i, k, hist[7] = { 0 };

	(void)state;
	names_init(&nm);
	ca.rng = a;
	cb.rng = b;

	/* Same seed, same values; rand() is 63 bits from two consecutive 32-bit draws. */
	gsl_rng_set(a, 12345);
	gsl_rng_set(b, 12345);
	e = compile_ok("rand()", &nm);
	assert_true(expr_uses_rand(e));
	for (i = 0; i < 1000; i++) {
		v = expr_eval(e, vars, &ca);
		hi = gsl_rng_get(b);
		lo = gsl_rng_get(b);
		assert_int_equal(v, (int64_t)(((hi << 32) | lo) & (uint64_t)INT64_MAX));
		assert_true(v >= 0);
		seen_hi |= v;
	}
	assert_int_equal(seen_hi, INT64_MAX); /* every one of the 63 bits turned up */
	expr_free(e);

	/* rand(n) for n < 2^32 is gsl_rng_uniform_int(rng, n). */
	gsl_rng_set(a, 99);
	gsl_rng_set(b, 99);
	e = compile_ok("rand(i)", &nm);
	vars[SLOT_I] = 1000;
	for (i = 0; i < 1000; i++)
		assert_int_equal(expr_eval(e, vars, &ca), (int64_t)gsl_rng_uniform_int(b, 1000));

	/* Range, for small and huge n, and determinism across two generators. */
	gsl_rng_set(a, 7);
	gsl_rng_set(b, 7);
	for (k = 0; k < sizeof bounds / sizeof bounds[0]; k++) {
		vars[SLOT_I] = bounds[k];
		for (i = 0; i < 2000; i++) {
			v = expr_eval(e, vars, &ca);
			w = expr_eval(e, vars, &cb);
			assert_int_equal(v, w);
			assert_true(v >= 0 && v < bounds[k]);
			if (bounds[k] == 7)
				hist[v]++;
		}
	}
	for (i = 0; i < 7; i++)       /* 2000 / 7 = 286 expected; far outside 200..380 is broken */
		assert_true(hist[i] > 200 && hist[i] < 380);
	assert_false(ca.error || cb.error);
	expr_free(e);

	/* Draws happen left to right in the text. */
	gsl_rng_set(a, 5);
	gsl_rng_set(b, 5);
	e = compile_ok("rand(10) * 100 + rand(100)", &nm);
	e2 = compile_ok("rand(10)", &nm);
	for (i = 0; i < 100; i++) {
		v = expr_eval(e, vars, &ca);
		w = expr_eval(e2, vars, &cb) * 100;
		w += (int64_t)gsl_rng_uniform_int(b, 100);
		assert_int_equal(v, w);
	}
	expr_free(e);
	expr_free(e2);
	gsl_rng_free(a);
	gsl_rng_free(b);
}

/* ---------------------------------------------------------------------------------------------
 * Random expressions against a reference evaluator
 *
 * gen_node builds a random tree and prints it with the fewest parentheses C precedence allows
 * (plus a few redundant ones and random blanks); the reference computes the tree's value
 * directly with int64_t arithmetic as gcc defines it, independently of expr.c.
 */

#define REF_VARS 4
#define PREC_ATOM 7

struct ref {
	char *text;      /* malloc'd */
	int prec;        /* binding strength of the top operator; PREC_ATOM for atoms */
	int64_t value;
	bool fault;      /* some operator in the tree faults */
	bool uses_var;
};

struct gen {
	gsl_rng *r;
	int64_t vars[SLOT_COUNT];
};

static const char *const ref_var_names[REF_VARS] = { "tx", "by", "i", "j" };
static const uint32_t ref_var_slots[REF_VARS] = { EXPR_TX, EXPR_BY, SLOT_I, SLOT_J };

static const struct {
	const char *tok;
	int prec;
} ref_ops[] = {
	{ "*", 6 }, { "/", 6 }, { "%", 6 }, { "+", 5 }, { "-", 5 }, { "<<", 4 }, { ">>", 4 },
	{ "&", 3 }, { "^", 2 }, { "|", 1 },
};

static unsigned pick(struct gen *g, unsigned n)
{
	return (unsigned)gsl_rng_uniform_int(g->r, n);
}

static const char *blank(struct gen *g)
{
	return pick(g, 3) == 0 ? "" : " ";
}

static uint64_t rand_u64(struct gen *g)
{
	return ((uint64_t)gsl_rng_get(g->r) << 32) | gsl_rng_get(g->r);
}

/* Wraps r->text in parentheses. */
static void paren(struct ref *r)
{
	char *t = xasprintf("(%s)", r->text);

	free(r->text);
	r->text = t;
	r->prec = PREC_ATOM;
}

static int64_t ref_binary(int op, int64_t a, int64_t b, bool *fault)
{
	switch (op) {
	case 0: return (int64_t)((uint64_t)a * (uint64_t)b);
	case 1:
	case 2:
		if (b == 0) {
			*fault = true;
			return 0;
		}
		if (a == INT64_MIN && b == -1)
			return op == 1 ? INT64_MIN : 0;
		return op == 1 ? a / b : a % b;
	case 3: return (int64_t)((uint64_t)a + (uint64_t)b);
	case 4: return (int64_t)((uint64_t)a - (uint64_t)b);
	case 5:
	case 6:
		if (b < 0 || b > 63) {
			*fault = true;
			return 0;
		}
		return op == 5 ? (int64_t)((uint64_t)a << b) : a >> b;
	case 7: return a & b;
	case 8: return a ^ b;
	case 9: return a | b;
	}
	fail_msg("bad op %d", op);
	return 0;
}

static struct ref gen_leaf(struct gen *g)
{
	struct ref r = { 0 };
	uint64_t u;
	unsigned k;

	r.prec = PREC_ATOM;
	switch (pick(g, 6)) {
	case 0:
	case 1:
		r.value = pick(g, 10);
		r.text = xasprintf("%lld", (long long)r.value);
		break;
	case 2:
		r.value = pick(g, 5000);
		r.text = xasprintf("0x%llx", (unsigned long long)r.value);
		break;
	case 3:
		u = rand_u64(g);
		u >>= pick(g, 64);
		r.value = (int64_t)u;
		r.text = pick(g, 2) ? xasprintf("%llu", (unsigned long long)u) :
				      xasprintf("0X%llX", (unsigned long long)u);
		break;
	default:
		k = pick(g, REF_VARS);
		r.value = g->vars[ref_var_slots[k]];
		r.text = xasprintf("%s", ref_var_names[k]);
		r.uses_var = true;
		break;
	}
	return r;
}

/* A shift count: usually in range, sometimes anything. */
static struct ref gen_node(struct gen *g, unsigned depth);

static struct ref gen_shift_count(struct gen *g, unsigned depth)
{
	struct ref r = { 0 };

	if (pick(g, 8) != 0) {
		r.prec = PREC_ATOM;
		r.value = pick(g, 64);
		r.text = xasprintf("%lld", (long long)r.value);
		return r;
	}
	return gen_node(g, depth);
}

static struct ref gen_node(struct gen *g, unsigned depth)
{
	struct ref r, a, b;
	unsigned k = depth == 0 ? 0 : pick(g, 10);
	int op;

	if (k <= 1) {
		r = gen_leaf(g);
	} else if (k == 2) {                    /* unary */
		a = gen_node(g, depth - 1);
		if (a.prec < PREC_ATOM)
			paren(&a);
		op = (int)pick(g, 2);
		r = a;
		r.text = xasprintf("%s%s%s", op ? "~" : "-", blank(g), a.text);
		free(a.text);
		r.value = op ? ~a.value : (int64_t)(0 - (uint64_t)a.value);
	} else if (k == 3) {                    /* min / max */
		a = gen_node(g, depth - 1);
		b = gen_node(g, depth - 1);
		op = (int)pick(g, 2);
		r.text = xasprintf("%s(%s%s,%s%s%s)", op ? "max" : "min", blank(g), a.text,
				   blank(g), b.text, blank(g));
		r.prec = PREC_ATOM;
		r.value = op ? (a.value > b.value ? a.value : b.value) :
			       (a.value < b.value ? a.value : b.value);
		r.fault = a.fault || b.fault;
		r.uses_var = a.uses_var || b.uses_var;
		free(a.text);
		free(b.text);
	} else {                                /* binary */
		op = (int)pick(g, 10);
		a = gen_node(g, depth - 1);
		b = op == 5 || op == 6 ? gen_shift_count(g, depth - 1) : gen_node(g, depth - 1);
		if (a.prec < ref_ops[op].prec || pick(g, 10) == 0)
			paren(&a);
		if (b.prec <= ref_ops[op].prec || pick(g, 10) == 0)
			paren(&b);
		r.text = xasprintf("%s%s%s%s%s", a.text, blank(g), ref_ops[op].tok, blank(g),
				   b.text);
		r.prec = ref_ops[op].prec;
		r.fault = a.fault || b.fault;
		r.uses_var = a.uses_var || b.uses_var;
		r.value = ref_binary(op, a.value, b.value, &r.fault);
		free(a.text);
		free(b.text);
	}
	return r;
}

static void test_random_vs_reference(void **state)
{
	static const int64_t interesting[] = { 0, 1, -1, 2, 31, 32, 63, 64, 1000, INT64_MIN,
					       INT64_MAX, -7 };
	struct gen g;
	struct names nm;
	struct expr_err err;
	struct expr_ctx ctx = { 0 };
	struct expr *e;
	struct ref r;
	size_t iter, k, faults = 0, consts = 0;
	int64_t got;

	(void)state;
	names_init(&nm);
	g.r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(g.r, 20240605);
	memset(g.vars, 0, sizeof g.vars);
	for (iter = 0; iter < 30000; iter++) {
		for (k = 0; k < REF_VARS; k++)
			g.vars[ref_var_slots[k]] =
				pick(&g, 3) == 0 ? (int64_t)rand_u64(&g) :
						   interesting[pick(&g, sizeof interesting /
									sizeof interesting[0])];
		r = gen_node(&g, 1 + pick(&g, 6));
		e = expr_compile(r.text, &nm.t, &err);
		if (e == NULL)
			fail_msg("\"%s\": %s", r.text, err.msg);
		ctx.error = false;
		got = expr_eval(e, g.vars, &ctx);
		if (ctx.error != r.fault || (!r.fault && got != r.value))
			fail_msg("\"%s\": got %lld%s, reference %lld%s", r.text, (long long)got,
				 ctx.error ? " (fault)" : "", (long long)r.value,
				 r.fault ? " (fault)" : "");
		/* Folded exactly when there is no variable and nothing faults. */
		assert_int_equal(expr_is_const(e), !r.uses_var && !r.fault);
		if (expr_is_const(e))
			assert_int_equal(expr_const_value(e), r.value);
		faults += r.fault;
		consts += expr_is_const(e);
		expr_free(e);
		free(r.text);
	}
	/* The generator exercises both outcomes. */
	assert_true(faults > 100 && faults < 15000);
	assert_true(consts > 100);
	gsl_rng_free(g.r);
}

/* expr_is_affine in tx, ty, tz: which expressions qualify, and for those that do, that
 * e(0) + sum v_i (e(unit i) - e(0)) equals a direct evaluation at other values (including
 * wrap-around), which is what the warps' lane addresses rely on. */
/* hash(x): values computed apart (Python, the four steps of the header comment modulo 2^32),
 * only the low 32 bits count, constants fold, and hash(x) >> 16 is the inline mix that
 * workloads/ubench/l2_bw.wl spelled out before hash existed. */
static void test_hash(void **state)
{
	static const struct value_case c[] = {
		{ "hash(0)", 0 },
		{ "hash(1)", 3355560946 },
		{ "hash(2)", 888631460 },
		{ "hash(3)", 2519921217 },
		{ "hash(1000)", 4046143197 },
		{ "hash(-1)", 420470409 },         /* low 32 bits 0xffffffff */
		{ "hash(0xffffffff)", 420470409 },
		{ "hash(1 << 32)", 0 },             /* the upper bits are ignored */
		{ "hash(5) % 7", 5 },
	};
	struct names nm;
	struct expr *e, *inl;
	struct expr_ctx ctx = { 0 };
	int64_t v[SLOT_COUNT] = { 0 };
	int64_t x;

	(void)state;
	check_values(c, sizeof c / sizeof c[0]);
	names_init(&nm);
	e = compile_ok("hash(n * stride)", &nm);
	assert_true(expr_is_const(e));
	expr_free(e);
	e = compile_ok("hash(i) >> 16", &nm);
	inl = compile_ok("((((i * 2654435761) & 4294967295) ^ (((i * 2654435761) & 4294967295) >> 15))"
			 " * 739982445 & 4294967295) >> 16", &nm);
	for (x = 0; x < 5000; x += 7) {
		v[SLOT_I] = x;
		assert_int_equal(expr_eval(e, v, &ctx), expr_eval(inl, v, &ctx));
	}
	assert_false(ctx.error);
	expr_free(e);
	expr_free(inl);
}

static void test_affine(void **state)
{
	/* known: expr_affine_coefs finds the steps constant (free of every variable), and then
	 * they are e(unit) - e(0) at the values below */
	static const struct {
		const char *text;
		bool affine, known;
	} cases[] = {
		{ "bx * bdx + tx", true, true },
		{ "(by * 32 + ty + i * 8) * n + bx * 32 + tx", true, true },
		{ "(tx + 1) << 2", true, true },
		{ "-tx + ~ty * stride - tz", true, true },
		{ "n / 2 + tx * 4", true, true },
		{ "(i % 3) * tx + (j >> 1)", true, false },
		{ "tx * bx", true, false },
		{ "tx << i", true, false },
		{ "tx * (3 - 1) * bdx + ty", true, false },
		{ "(tx + ty * 2) * 3 + (tz << 4) - 7", true, true },
		{ "ty * -5 + (1 << 3) * tz", true, true },
		{ "tx * ty", false, false },
		{ "tx / 2", false, false },
		{ "tx % 32", false, false },
		{ "tx >> 1", false, false },
		{ "tx & 31", false, false },
		{ "min(tx, 4)", false, false },
		{ "1 << tx", false, false },
		{ "rand(4) + tx", false, false },
		{ "rand() + 1", false, false },
		{ "hash(tx)", false, false },
		{ "hash(bx / 3) % n * 1024 + tx", true, true },
		{ "i * j", true, true },
	};
	/* hand-computed steps of the known ones, in case order (n = 4, stride = 32) */
	static const int64_t steps[][3] = {
		{ 1, 0, 0 }, { 1, 4, 0 }, { 4, 0, 0 }, { -1, -32, -1 }, { 4, 0, 0 },
		{ 3, 6, 16 }, { 0, -5, 8 }, { 1, 0, 0 }, { 0, 0, 0 },
	};
	static const uint32_t tid[3] = { EXPR_TX, EXPR_TY, EXPR_TZ };
	size_t known = 0;
	const uint64_t lanes = 1u << EXPR_TX | 1u << EXPR_TY | 1u << EXPR_TZ;
	struct names nm;
	size_t k;

	(void)state;
	names_init(&nm);
	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct expr *e = compile_ok(cases[k].text, &nm);
		struct expr_ctx ctx = { 0 };
		int64_t v[SLOT_COUNT] = { 0 };
		uint64_t e0, c[3], t[3] = { 31, 7, 0x7fffffffffffffffull }, want;
		uint32_t d;

		uint64_t coef[3] = { 0, 0, 0 };
		bool has_coef = expr_affine_coefs(e, tid, 3, coef);

		if (expr_is_affine(e, lanes) != cases[k].affine)
			fail_msg("\"%s\": affine %d, expected %d", cases[k].text, !cases[k].affine,
				 cases[k].affine);
		if (has_coef != cases[k].known)
			fail_msg("\"%s\": constant steps %d, expected %d", cases[k].text, has_coef,
				 cases[k].known);
		if (has_coef)
			for (d = 0; d < 3; d++)
				assert_int_equal((int64_t)coef[d], steps[known][d]);
		known += has_coef;
		if (!cases[k].affine) {
			expr_free(e);
			continue;
		}
		v[EXPR_BX] = 5;
		v[EXPR_BY] = 3;
		v[EXPR_BDX] = 256;
		v[SLOT_I] = 2;
		v[SLOT_J] = -9;
		e0 = (uint64_t)expr_eval(e, v, &ctx);
		for (d = 0; d < 3; d++) {
			v[EXPR_TX + d] = 1;
			c[d] = (uint64_t)expr_eval(e, v, &ctx) - e0;
			v[EXPR_TX + d] = 0;
			if (has_coef)
				assert_true(c[d] == coef[d]);
		}
		for (d = 0; d < 3; d++)
			v[EXPR_TX + d] = (int64_t)t[d];
		want = (uint64_t)expr_eval(e, v, &ctx);
		assert_false(ctx.error);
		assert_true(e0 + t[0] * c[0] + t[1] * c[1] + t[2] * c[2] == want);
		expr_free(e);
	}
	assert_int_equal(known, sizeof steps / sizeof steps[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_variables),
		cmocka_unit_test(test_const_fold),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_nesting_limits),
		cmocka_unit_test(test_eval_faults),
		cmocka_unit_test(test_rand),
		cmocka_unit_test(test_random_vs_reference),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_affine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
