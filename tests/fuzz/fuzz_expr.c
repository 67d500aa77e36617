/*
 * fuzz_expr.c - libFuzzer harness: index expressions on their own. The input is the expression text; it is
 * compiled with the built-in variables, one loop variable and two constant parameters, and a
 * compiled expression is evaluated for a few lanes with a seeded generator for rand(). Entry
 * points: expr_compile, expr_eval.
 *
 * Any input must come back as success or as a struct sim_err; a crash, a hang, a leak or a
 * sanitizer report is a bug in the parser. Seed corpus: tests/fuzz/corpus/expr/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include <gsl/gsl_rng.h>

#include "expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gsl_rng *rng;

void fuzz_setup(void)
{
	rng = gsl_rng_alloc(gsl_rng_mt19937);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct expr_name v[EXPR_BUILTIN_COUNT + 3];
	struct expr_names names = { v, EXPR_BUILTIN_COUNT + 3 };
	int64_t vars[EXPR_BUILTIN_COUNT + 1];
	struct expr_err err;
	struct expr *e;
	char *text = fuzz_str(data, size);
	uint32_t i, lane;

	expr_names_builtin(v);
	v[EXPR_BUILTIN_COUNT] = (struct expr_name){ "i", false, EXPR_BUILTIN_COUNT, 0 };
	v[EXPR_BUILTIN_COUNT + 1] = (struct expr_name){ "N", true, 0, 1024 };
	v[EXPR_BUILTIN_COUNT + 2] = (struct expr_name){ "BIG", true, 0, INT64_MAX };
	e = expr_compile(text, &names, &err);
	free(text);
	if (e == NULL)
		return 0;
	gsl_rng_set(rng, 1);
	for (lane = 0; lane < 4; lane++) {
		struct expr_ctx ctx = { rng, false, 0, "" };

		for (i = 0; i <= EXPR_BUILTIN_COUNT; i++)
			vars[i] = (int64_t)(lane * 7 + i);
		vars[EXPR_GDX] = lane == 3 ? INT64_MIN : vars[EXPR_GDX];
		expr_eval(e, vars, &ctx);
	}
	if (expr_is_const(e))
		expr_const_value(e);
	expr_free(e);
	return 0;
}
