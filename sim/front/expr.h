/*
 * expr.h - index expressions of workload files: compiled once, evaluated for every lane.
 *
 * A workload names the element a thread touches with a string such as
 *
 *	index = "by * 1024 * 32 + ty * 1024 + bx * 32 + tx";
 *
 * expr_compile turns the string into a flat postfix program in one allocation; expr_eval runs it
 * over an array of variable values with a fixed-size stack on the C stack (no allocation, no
 * recursion). The grammar and the exact semantics are in the comment at the top of expr.c; in
 * short: C operators and C precedence over 64-bit two's complement integers that wrap,
 * min(a, b), max(a, b), rand() and rand(n).
 *
 * Names. The caller passes the identifiers it allows (struct expr_names). Each is either a
 * variable, read at evaluation time from vars[slot], or a constant known at compile time (a
 * workload parameter after -p overrides), which the compiler folds. The built-ins
 * tx ty tz bx by bz bdx bdy bdz gdx gdy gdz are not special to the compiler: the caller lists
 * them like any other name; expr_names_builtin fills them in at slots 0..EXPR_BUILTIN_COUNT-1.
 *
 * Errors. Compile errors fill struct expr_err with a message that names the offending token and
 * a 1-based column; the caller prefixes file:line:key. Evaluation errors (division or modulo by
 * zero, a shift count outside 0..63, rand(n) with n < 1, rand without a generator) set
 * ctx->error and ctx->msg, and expr_eval returns 0; they never crash.
 */
#ifndef SIM_EXPR_H
#define SIM_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

/* The thread and launch built-ins, in the slot order expr_names_builtin uses. */
#define EXPR_BUILTINS(X) \
	X(TX, "tx")      \
	X(TY, "ty")      \
	X(TZ, "tz")      \
	X(BX, "bx")      \
	X(BY, "by")      \
	X(BZ, "bz")      \
	X(BDX, "bdx")    \
	X(BDY, "bdy")    \
	X(BDZ, "bdz")    \
	X(GDX, "gdx")    \
	X(GDY, "gdy")    \
	X(GDZ, "gdz")

#define EXPR_BUILTIN_ENUM(id, name) EXPR_##id,
enum expr_builtin { EXPR_BUILTINS(EXPR_BUILTIN_ENUM) EXPR_BUILTIN_COUNT };
#undef EXPR_BUILTIN_ENUM

/*
 * Values pending at once during evaluation (the evaluator's stack, on the C stack). An
 * expression that needs more is a compile error; only deliberately nested input such as
 * "1+(1+(1+(...)))" 64 levels deep gets there.
 */
#define EXPR_STACK_MAX 64
/* Most variables expr_affine_coefs takes (tx, ty, tz). */
#define EXPR_COEF_MAX 3

/* One allowed identifier: a variable read from vars[slot], or a compile-time constant. */
struct expr_name {
	const char *name;
	bool is_const;
	uint32_t slot;  /* !is_const: index into the vars array given to expr_eval */
	int64_t value;  /* is_const: the value */
};

/* The identifiers an expression may use. The first entry wins if a name appears twice. */
struct expr_names {
	const struct expr_name *v;
	size_t n;
};

/* A compile error: what went wrong and where (1-based column into the text; 0 if none). */
#define EXPR_ERR_MSG_MAX 256
struct expr_err {
	size_t column;
	char msg[EXPR_ERR_MSG_MAX];
};

/*
 * Evaluation context, owned by the caller and reused across evaluations. rng feeds rand() (the
 * run's GSL generator, seeded from the run's seed; NULL makes rand an evaluation error). The
 * first evaluation error sets error, column (1-based, of the operator) and msg; later errors do
 * not overwrite them, so the caller may check once after many evaluations. Clear error to reuse.
 */
#define EXPR_CTX_MSG_MAX 128
struct expr_ctx {
	gsl_rng *rng;
	bool error;
	size_t column;
	char msg[EXPR_CTX_MSG_MAX];
};

struct expr;

/*
 * Compiles text. Returns a new expression (free with expr_free), or NULL with *err filled.
 * names may be NULL (no names allowed). names and text are not referenced after the call (the
 * names[i].name strings may be freed).
 */
struct expr *expr_compile(const char *text, const struct expr_names *names, struct expr_err *err);

/*
 * Evaluates e. vars[slot] supplies each variable name e was compiled with; ctx must not be NULL.
 * Returns the value, or 0 with ctx->error set (if not set already) on an evaluation error.
 * Never allocates.
 */
int64_t expr_eval(const struct expr *e, const int64_t *vars, struct expr_ctx *ctx);

/* Frees e; NULL is allowed. */
void expr_free(struct expr *e);

/*
 * True if e folded to one constant: it reads no variable and calls no rand (constant names are
 * fine), and folding hit no evaluation error (a constant "1 / 0" stays unfolded and fails at
 * evaluation, as any other division by zero does).
 */
bool expr_is_const(const struct expr *e);
/* The value of a constant expression. Panics (SIM_ASSERT) unless expr_is_const(e). */
int64_t expr_const_value(const struct expr *e);
/* True if e calls rand (so each evaluation draws from ctx->rng). */
bool expr_uses_rand(const struct expr *e);
/* True if e reads vars[slot]. */
bool expr_uses_slot(const struct expr *e, uint32_t slot);
/*
 * True if e is affine in the variables whose slots are set in slots (bit i: vars[i]): they
 * reach the result only through +, -, unary - and ~, products with and left shifts by values
 * free of them, so that with 64-bit wrapping arithmetic
 *   e(v) == e(0) + sum over those variables of v_i * (e(unit i) - e(0))
 * for any values of them (the others held), and an evaluation error cannot depend on them. No
 * rand (each evaluation draws).
 */
bool expr_is_affine(const struct expr *e, uint64_t slots);
/*
 * The coefficients of an affine e (expr_is_affine) in the variables vars[slots[0..n)) when they
 * are constants, free of every variable (e's other variables reach them only through e(0): a
 * coefficient made of +, -, unary - and ~, products and left shifts of constants): then
 * coef[i] = e(unit i) - e(0) with 64-bit wrapping for any values of the others, and true; false
 * (coef untouched) otherwise, as for tx * bx. No evaluation: no error either. Slots below 64.
 */
bool expr_affine_coefs(const struct expr *e, const uint32_t *slots, uint32_t n, uint64_t *coef);

/*
 * Fills out[0..EXPR_BUILTIN_COUNT) with the built-in variables, out[i] = { name, false, i }.
 * The caller appends loop variables and parameters after them.
 */
void expr_names_builtin(struct expr_name *out);
/* Whether name is one of the functions (min, max, rand, hash): reserved in every expression. */
bool expr_is_function(const char *name);
/* The name of built-in b ("tx", ...). */
const char *expr_builtin_name(enum expr_builtin b);

#endif /* SIM_EXPR_H */
