/*
 * expr.c - index expressions: a recursive-descent compiler to postfix code and a stack evaluator.
 *
 * Grammar (C operators and C precedence, loosest first; every binary operator is left
 * associative, so "a - b - c" is "(a - b) - c" and "a << b << c" is "(a << b) << c"):
 *
 *	expr    := xor { "|" xor }
 *	xor     := and { "^" and }
 *	and     := shift { "&" shift }
 *	shift   := add { ("<<" | ">>") add }
 *	add     := mul { ("+" | "-") mul }
 *	mul     := unary { ("*" | "/" | "%") unary }
 *	unary   := ("-" | "~") unary | primary
 *	primary := INT | NAME | "(" expr ")"
 *	         | "min" "(" expr "," expr ")" | "max" "(" expr "," expr ")"
 *	         | "rand" "(" ")" | "rand" "(" expr ")" | "hash" "(" expr ")"
 *	INT     := [1-9][0-9]* | "0" | "0x" [0-9a-fA-F]+      (also "0X")
 *	NAME    := [A-Za-z_][A-Za-z0-9_]*
 *
 * Blanks (space, tab, newline, CR) separate tokens. min, max, rand and hash are reserved: a name
 * of the caller's table spelled that way is never reached. There is no unary "+", no comparison, no
 * logical operator and no octal: "010" is an error rather than C's eight.
 *
 * Semantics: 64-bit two's complement integers.
 *   - Integer constants may be up to 2^64 - 1 and are taken modulo 2^64, so 0xffffffffffffffff
 *     is -1 and -9223372036854775808 is INT64_MIN.
 *   - + - * unary minus and << wrap modulo 2^64 (computed in uint64_t: no undefined behaviour).
 *   - / and % truncate toward zero as in C ("-7 / 2" is -3, "-7 % 2" is -1); INT64_MIN / -1
 *     wraps to INT64_MIN and INT64_MIN % -1 is 0. A zero divisor is an evaluation error.
 *   - a << n shifts in zeros and drops the bits shifted out; a >> n is arithmetic (copies the
 *     sign bit, i.e. floor division by 2^n): "1 << 63 >> 63" is -1. n outside 0..63 is an
 *     evaluation error, not C's undefined behaviour.
 *   - & | ^ ~ act on the two's complement bits; min and max compare as signed.
 *   - rand() is uniform over 0 .. 2^63 - 1 (two 32-bit draws, top bit cleared, so it is never
 *     negative and "rand() % n" stays in 0..n-1); rand(n) is uniform over 0 .. n-1, one
 *     gsl_rng_uniform_int for n < 2^32 and rejection over 63-bit draws above; n < 1 is an
 *     evaluation error. Both draw from ctx->rng, which must give 32 bits a draw (mt19937).
 *     Operands are evaluated left to right, so the draws of one expression happen in the order
 *     the rand calls appear in the text.
 *   - hash(x) mixes the low 32 bits of x into 0 .. 2^32 - 1, deterministic and free of the
 *     seed: h = x * 0x9E3779B1 (Knuth's multiplicative constant), h ^= h >> 15,
 *     h *= 0x2C1B3C6D, h ^= h >> 16, all modulo 2^32. For a per-block choice that neighbouring
 *     inputs should not correlate (a multiplicative hash alone keeps a near-constant step
 *     between x and x + 1); "hash(x) % n" is in 0..n-1.
 *
 * Compiled form: one allocation holding a postfix program (struct expr_insn: push a constant,
 * push vars[slot], or apply an operator to the top of the stack). The compiler folds every
 * operator whose operands are constants, so an expression without variables or rand becomes a
 * single push. Every operand is evaluated (no short circuit), hence an evaluation fails exactly
 * when some operator in it faults. The stack needs at most EXPR_STACK_MAX slots (checked at
 * compile time) and lives on the C stack of expr_eval: evaluation never allocates.
 *
 * Not modelled: floating point, comparisons and the conditional operator, array subscripts
 * (addresses are formed by the workload loader from an array base and the index), and
 * side effects other than rand's draws.
 */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "expr.h"
#include "log.h"
#include "text.h"

/* Parentheses and unary operators nested deeper than this are a compile error (bounds the C
 * stack the recursive-descent parser uses; no sensible index comes near it). */
#define EXPR_NEST_MAX 256
/* Longest name or token quoted in an error message (keeps the message within 256 bytes). */
#define EXPR_QUOTE_MAX 64
/* rand(n) uses gsl_rng_uniform_int for n up to this (the most it takes from a 32-bit mt19937). */
#define EXPR_RAND_GSL_MAX 0xffffffffull

/* ---------------------------------------------------------------------------------------------
 * Instructions
 */

#define EXPR_OPS(X)                                                                       \
	X(CONST) /* push imm */                                                           \
	X(VAR)   /* push vars[arg] */                                                     \
	X(NEG) X(NOT)                                                                     \
	X(MUL) X(DIV) X(MOD) X(ADD) X(SUB) X(SHL) X(SHR) X(AND) X(XOR) X(OR)              \
	X(MIN) X(MAX)                                                                     \
	X(RAND0) /* push a 63-bit draw */                                                 \
	X(RAND1) /* replace n on top with a draw in 0..n-1 */                             \
	X(HASH)  /* replace x on top with hash(x) */

#define EXPR_OP_ENUM(name) EXPR_OP_##name,
enum expr_op { EXPR_OPS(EXPR_OP_ENUM) EXPR_OP_COUNT };
#undef EXPR_OP_ENUM

/* arg is the slot of VAR and the 1-based column of every other operator (for fault messages). */
struct expr_insn {
	uint32_t op;
	uint32_t arg;
	int64_t imm;
};

#define EXPR_F_RAND 0x1u

struct expr {
	uint32_t n;
	uint32_t flags;
	struct expr_insn code[];
};

/* What can go wrong at evaluation. */
enum expr_fault {
	EXPR_FAULT_NONE,
	EXPR_FAULT_DIV_ZERO,
	EXPR_FAULT_MOD_ZERO,
	EXPR_FAULT_SHIFT,
	EXPR_FAULT_RAND_RANGE,
	EXPR_FAULT_NO_RNG,
	EXPR_FAULT_RNG_BITS,
};

/* ---------------------------------------------------------------------------------------------
 * Arithmetic, shared by the evaluator and the constant folder so the two cannot disagree.
 * Values travel as uint64_t; s64 reinterprets the bits as two's complement without relying on
 * implementation-defined conversion.
 */

static inline int64_t s64(uint64_t x)
{
	return x <= (uint64_t)INT64_MAX ? (int64_t)x : -(int64_t)~x - 1;
}

/* Truncating division; b != 0 checked by the caller. */
static inline uint64_t op_div(uint64_t a, uint64_t b)
{
	int64_t sa = s64(a), sb = s64(b);

	if (sb == -1)
		return 0 - a; /* INT64_MIN / -1 wraps */
	return (uint64_t)(sa / sb);
}

static inline uint64_t op_mod(uint64_t a, uint64_t b)
{
	int64_t sa = s64(a), sb = s64(b);

	if (sb == -1)
		return 0;
	return (uint64_t)(sa % sb);
}

static inline bool shift_ok(uint64_t n)
{
	return n <= 63;
}

/* Arithmetic right shift by n in 0..63, written without implementation-defined behaviour. */
static inline uint64_t op_shr(uint64_t a, uint64_t n)
{
	if (a >> 63)
		return ~(~a >> n);
	return a >> n;
}

static inline uint64_t op_min(uint64_t a, uint64_t b)
{
	return s64(a) <= s64(b) ? a : b;
}

static inline uint64_t op_max(uint64_t a, uint64_t b)
{
	return s64(a) >= s64(b) ? a : b;
}

/* Applies binary op to a and b: EXPR_FAULT_NONE and *r, or the fault. Used by the folder; the
 * evaluator inlines the same op_* helpers. */
static enum expr_fault apply_binary(enum expr_op op, uint64_t a, uint64_t b, uint64_t *r)
{
	switch (op) {
	case EXPR_OP_MUL: *r = a * b; break;
	case EXPR_OP_DIV:
		if (b == 0)
			return EXPR_FAULT_DIV_ZERO;
		*r = op_div(a, b);
		break;
	case EXPR_OP_MOD:
		if (b == 0)
			return EXPR_FAULT_MOD_ZERO;
		*r = op_mod(a, b);
		break;
	case EXPR_OP_ADD: *r = a + b; break;
	case EXPR_OP_SUB: *r = a - b; break;
	case EXPR_OP_SHL:
		if (!shift_ok(b))
			return EXPR_FAULT_SHIFT;
		*r = a << b;
		break;
	case EXPR_OP_SHR:
		if (!shift_ok(b))
			return EXPR_FAULT_SHIFT;
		*r = op_shr(a, b);
		break;
	case EXPR_OP_AND: *r = a & b; break;
	case EXPR_OP_XOR: *r = a ^ b; break;
	case EXPR_OP_OR: *r = a | b; break;
	case EXPR_OP_MIN: *r = op_min(a, b); break;
	case EXPR_OP_MAX: *r = op_max(a, b); break;
	default: sim_panic("expr: %d is not a binary operator", (int)op);
	}
	return EXPR_FAULT_NONE;
}

/* A uniform 63-bit value from two 32-bit draws. */
static inline uint64_t rand63(gsl_rng *r)
{
	uint64_t hi = gsl_rng_get(r), lo = gsl_rng_get(r);

	return ((hi << 32) | lo) & (uint64_t)INT64_MAX;
}

/* Uniform in 0..n-1, n >= 1. */
static uint64_t rand_below(gsl_rng *r, uint64_t n)
{
	uint64_t lim, v;

	if (n <= EXPR_RAND_GSL_MAX)
		return gsl_rng_uniform_int(r, (unsigned long)n);
	/* Largest multiple of n within 2^63: draws at or above it would favour small results. */
	lim = ((uint64_t)INT64_MAX + 1) / n * n;
	do
		v = rand63(r);
	while (v >= lim);
	return v % n;
}

static bool rng_is_32bit(const gsl_rng *r)
{
	return gsl_rng_min(r) == 0 && gsl_rng_max(r) == 0xfffffffful;
}

/* Records the first evaluation fault in ctx. Cold: only reached on a fault. */
static void ctx_fault(struct expr_ctx *ctx, enum expr_fault f, uint32_t column, uint64_t operand)
{
	const char *what;
	char buf[64];

	if (ctx->error)
		return;
	switch (f) {
	case EXPR_FAULT_DIV_ZERO: what = "division by zero"; break;
	case EXPR_FAULT_MOD_ZERO: what = "modulo by zero"; break;
	case EXPR_FAULT_SHIFT:
		snprintf(buf, sizeof buf, "shift count %lld out of range 0..63",
			 (long long)s64(operand));
		what = buf;
		break;
	case EXPR_FAULT_RAND_RANGE:
		snprintf(buf, sizeof buf, "rand(n) needs n >= 1, got %lld",
			 (long long)s64(operand));
		what = buf;
		break;
	case EXPR_FAULT_NO_RNG: what = "rand without a random generator"; break;
	case EXPR_FAULT_RNG_BITS:
		what = "rand needs a generator with 32-bit output (mt19937)";
		break;
	default: what = "evaluation error"; break;
	}
	ctx->error = true;
	ctx->column = column;
	snprintf(ctx->msg, sizeof ctx->msg, "%s at column %u", what, (unsigned)column);
}

/* ---------------------------------------------------------------------------------------------
 * Evaluation
 */

/* hash(x): see the header comment. */
static uint64_t op_hash(uint64_t x)
{
	uint32_t h = (uint32_t)x * 0x9E3779B1u;

	h ^= h >> 15;
	h *= 0x2C1B3C6Du;
	h ^= h >> 16;
	return h;
}

int64_t expr_eval(const struct expr *e, const int64_t *vars, struct expr_ctx *ctx)
{
	uint64_t st[EXPR_STACK_MAX];
	uint64_t *sp = st; /* next free slot */
	const struct expr_insn *pc = e->code, *end = e->code + e->n;
	enum expr_fault f;
	uint64_t bad = 0;

	for (; pc < end; pc++) {
		switch ((enum expr_op)pc->op) {
		case EXPR_OP_CONST: *sp++ = (uint64_t)pc->imm; break;
		case EXPR_OP_VAR: *sp++ = (uint64_t)vars[pc->arg]; break;
		case EXPR_OP_NEG: sp[-1] = 0 - sp[-1]; break;
		case EXPR_OP_NOT: sp[-1] = ~sp[-1]; break;
		case EXPR_OP_HASH: sp[-1] = op_hash(sp[-1]); break;
		case EXPR_OP_MUL: sp--; sp[-1] *= sp[0]; break;
		case EXPR_OP_DIV:
			sp--;
			if (sp[0] == 0) {
				f = EXPR_FAULT_DIV_ZERO;
				goto fault;
			}
			sp[-1] = op_div(sp[-1], sp[0]);
			break;
		case EXPR_OP_MOD:
			sp--;
			if (sp[0] == 0) {
				f = EXPR_FAULT_MOD_ZERO;
				goto fault;
			}
			sp[-1] = op_mod(sp[-1], sp[0]);
			break;
		case EXPR_OP_ADD: sp--; sp[-1] += sp[0]; break;
		case EXPR_OP_SUB: sp--; sp[-1] -= sp[0]; break;
		case EXPR_OP_SHL:
			sp--;
			if (!shift_ok(sp[0])) {
				f = EXPR_FAULT_SHIFT;
				bad = sp[0];
				goto fault;
			}
			sp[-1] <<= sp[0];
			break;
		case EXPR_OP_SHR:
			sp--;
			if (!shift_ok(sp[0])) {
				f = EXPR_FAULT_SHIFT;
				bad = sp[0];
				goto fault;
			}
			sp[-1] = op_shr(sp[-1], sp[0]);
			break;
		case EXPR_OP_AND: sp--; sp[-1] &= sp[0]; break;
		case EXPR_OP_XOR: sp--; sp[-1] ^= sp[0]; break;
		case EXPR_OP_OR: sp--; sp[-1] |= sp[0]; break;
		case EXPR_OP_MIN: sp--; sp[-1] = op_min(sp[-1], sp[0]); break;
		case EXPR_OP_MAX: sp--; sp[-1] = op_max(sp[-1], sp[0]); break;
		case EXPR_OP_RAND0:
		case EXPR_OP_RAND1:
			if (ctx->rng == NULL) {
				f = EXPR_FAULT_NO_RNG;
				goto fault;
			}
			if (!rng_is_32bit(ctx->rng)) {
				f = EXPR_FAULT_RNG_BITS;
				goto fault;
			}
			if (pc->op == EXPR_OP_RAND0) {
				*sp++ = rand63(ctx->rng);
			} else if (s64(sp[-1]) < 1) {
				f = EXPR_FAULT_RAND_RANGE;
				bad = sp[-1];
				goto fault;
			} else {
				sp[-1] = rand_below(ctx->rng, sp[-1]);
			}
			break;
		default: sim_panic("expr: bad opcode %u", (unsigned)pc->op);
		}
	}
	return s64(st[0]);

fault:
	ctx_fault(ctx, f, pc->arg, bad);
	return 0;
}

void expr_free(struct expr *e)
{
	free(e);
}

bool expr_is_const(const struct expr *e)
{
	return e->n == 1 && e->code[0].op == EXPR_OP_CONST;
}

int64_t expr_const_value(const struct expr *e)
{
	SIM_ASSERT(expr_is_const(e));
	return e->code[0].imm;
}

bool expr_uses_rand(const struct expr *e)
{
	return (e->flags & EXPR_F_RAND) != 0;
}

bool expr_uses_slot(const struct expr *e, uint32_t slot)
{
	uint32_t i;

	for (i = 0; i < e->n; i++)
		if (e->code[i].op == EXPR_OP_VAR && e->code[i].arg == slot)
			return true;
	return false;
}

/* A pending value of affine_scan: its degree in the variables of slots (0: free of them, 1:
 * affine, 2: anything else), its value when it is a constant (konst), and at degree 1 its
 * coefficients in the variables listed (cslots) when they are constants (cf_known). */
struct coef_val {
	uint8_t deg;
	bool konst, cf_known;
	uint64_t val;
	uint64_t cf[EXPR_COEF_MAX];
};

/* Whether e is affine in the variables of slots (expr_is_affine), and if so whether its
 * coefficients in the variables cslots[0..ncs) (all of them in slots) are constants, in
 * coef[0..ncs) (expr_affine_coefs): -1 not affine, 0 affine, 1 affine with constant ones. */
static int affine_scan(const struct expr *e, uint64_t slots, const uint32_t *cslots, uint32_t ncs,
		       uint64_t *coef)
{
	struct coef_val st[EXPR_STACK_MAX], *a, *b;
	uint32_t i, k, n = 0;

	SIM_ASSERT(ncs <= EXPR_COEF_MAX);
	if (e->flags & EXPR_F_RAND)
		return -1; /* each evaluation draws: one per lane, in lane order */
	for (i = 0; i < e->n; i++) {
		const struct expr_insn *pc = &e->code[i];
		struct coef_val *v;

		switch ((enum expr_op)pc->op) {
		case EXPR_OP_CONST:
			v = &st[n++];
			memset(v, 0, sizeof *v);
			v->konst = true;
			v->val = (uint64_t)pc->imm;
			continue;
		case EXPR_OP_VAR:
			v = &st[n++];
			memset(v, 0, sizeof *v);
			if (pc->arg < 64 && ((slots >> pc->arg) & 1)) {
				v->deg = 1;
				for (k = 0; k < ncs && cslots[k] != pc->arg; k++)
					;
				v->cf_known = k < ncs || ncs == 0;
				if (k < ncs)
					v->cf[k] = 1;
			}
			continue;
		case EXPR_OP_NEG:
		case EXPR_OP_NOT: /* ~x == -x - 1: the same coefficients as -x */
			v = &st[n - 1];
			v->val = pc->op == EXPR_OP_NEG ? 0 - v->val : ~v->val;
			for (k = 0; k < ncs; k++)
				v->cf[k] = 0 - v->cf[k];
			continue;
		case EXPR_OP_ADD:
		case EXPR_OP_SUB:
		case EXPR_OP_MUL:
		case EXPR_OP_SHL:
			break;
		case EXPR_OP_RAND0:
		case EXPR_OP_RAND1:
			return -1;
		default: /* HASH DIV MOD SHR AND XOR OR MIN MAX: affine only of values free of them */
			if (pc->op == EXPR_OP_HASH) {
				SIM_ASSERT(n >= 1);
				v = &st[n - 1];
				v->deg = v->deg != 0 ? 2 : 0;
			} else {
				SIM_ASSERT(n >= 2);
				n--;
				v = &st[n - 1];
				v->deg = v->deg != 0 || st[n].deg != 0 ? 2 : 0;
			}
			v->konst = false; /* not needed: never a coefficient's factor */
			continue;
		}
		SIM_ASSERT(n >= 2);
		b = &st[--n];
		a = &st[n - 1];
		switch ((enum expr_op)pc->op) {
		case EXPR_OP_ADD:
		case EXPR_OP_SUB:
			for (k = 0; k < ncs; k++)
				a->cf[k] = pc->op == EXPR_OP_ADD ? a->cf[k] + b->cf[k]
								 : a->cf[k] - b->cf[k];
			a->val = pc->op == EXPR_OP_ADD ? a->val + b->val : a->val - b->val;
			a->cf_known = (a->deg != 1 || a->cf_known) && (b->deg != 1 || b->cf_known);
			a->konst = a->konst && b->konst;
			a->deg = a->deg > b->deg ? a->deg : b->deg;
			break;
		case EXPR_OP_MUL:
			if (a->deg == 0 && b->deg == 1) { /* as b * a */
				struct coef_val t = *a;

				*a = *b;
				*b = t;
			}
			if (a->deg == 1 && b->deg == 0) {
				for (k = 0; k < ncs; k++)
					a->cf[k] *= b->val;
				a->cf_known = a->cf_known && b->konst;
			} else {
				a->deg = a->deg + b->deg > 2 ? 2 : (uint8_t)(a->deg + b->deg);
				a->val *= b->val;
				a->konst = a->konst && b->konst;
			}
			break;
		default: /* SHL: x << k == x * 2^k, for a k free of the variables */
			if (b->deg != 0) {
				a->deg = 2;
			} else if (a->deg == 1) {
				/* k outside 0..63 fails every evaluation, e(0)'s too: any answer */
				for (k = 0; k < ncs; k++)
					a->cf[k] <<= b->val & 63;
				a->cf_known = a->cf_known && b->konst;
			} else {
				a->val <<= b->val & 63;
				a->konst = a->konst && b->konst && shift_ok(b->val);
			}
			break;
		}
	}
	if (n != 1 || st[0].deg > 1)
		return -1;
	if (st[0].deg == 1 && !st[0].cf_known)
		return 0;
	for (k = 0; k < ncs; k++)
		coef[k] = st[0].deg == 1 ? st[0].cf[k] : 0;
	return 1;
}

bool expr_is_affine(const struct expr *e, uint64_t slots)
{
	return affine_scan(e, slots, NULL, 0, NULL) >= 0;
}

bool expr_affine_coefs(const struct expr *e, const uint32_t *slots, uint32_t nslots,
		       uint64_t *coef)
{
	uint64_t mask = 0;
	uint32_t k;

	for (k = 0; k < nslots; k++) {
		SIM_ASSERT(slots[k] < 64);
		mask |= UINT64_C(1) << slots[k];
	}
	return affine_scan(e, mask, slots, nslots, coef) == 1;
}

#define EXPR_BUILTIN_NAME(id, name) name,
static const char *const expr_builtin_names[EXPR_BUILTIN_COUNT] = {
	EXPR_BUILTINS(EXPR_BUILTIN_NAME)
};
#undef EXPR_BUILTIN_NAME

/* The functions, reserved words of every expression (parse_primary, parse_name's suggestions,
 * expr_is_function). */
static const char *const expr_funcs[] = { "min", "max", "rand", "hash" };
#define EXPR_NFUNCS (sizeof expr_funcs / sizeof expr_funcs[0])

bool expr_is_function(const char *name)
{
	size_t i;

	for (i = 0; i < EXPR_NFUNCS; i++)
		if (strcmp(name, expr_funcs[i]) == 0)
			return true;
	return false;
}

const char *expr_builtin_name(enum expr_builtin b)
{
	SIM_ASSERT((unsigned)b < EXPR_BUILTIN_COUNT);
	return expr_builtin_names[b];
}

void expr_names_builtin(struct expr_name *out)
{
	uint32_t i;

	for (i = 0; i < EXPR_BUILTIN_COUNT; i++) {
		out[i].name = expr_builtin_names[i];
		out[i].is_const = false;
		out[i].slot = i;
		out[i].value = 0;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Lexer
 */

enum expr_tok {
	TOK_END, TOK_INT, TOK_NAME,
	TOK_PLUS, TOK_MINUS, TOK_STAR, TOK_SLASH, TOK_PERCENT, TOK_SHL, TOK_SHR,
	TOK_AMP, TOK_CARET, TOK_PIPE, TOK_TILDE, TOK_LPAREN, TOK_RPAREN, TOK_COMMA,
};

struct expr_parser {
	const char *text;
	const char *p;            /* first character after the current token */
	enum expr_tok tok;        /* current token */
	const char *tok_start;
	size_t tok_len;
	uint64_t tok_val;         /* TOK_INT */
	const struct expr_names *names;
	struct expr_err *err;
	bool failed;              /* err is filled; everything after unwinds */
	struct expr_insn *code;   /* program so far */
	size_t n, cap;
	size_t depth;             /* values on the evaluation stack after code[0..n) */
	size_t nest;              /* current parenthesis / unary nesting */
	uint32_t flags;
};

static void fail(struct expr_parser *ps, size_t column, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct expr_parser *ps, size_t column, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = true;
	ps->err->column = column;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof ps->err->msg, fmt, ap);
	va_end(ap);
}

static size_t tok_column(const struct expr_parser *ps)
{
	return (size_t)(ps->tok_start - ps->text) + 1;
}

static int quote_len(size_t len)
{
	return (int)(len < EXPR_QUOTE_MAX ? len : EXPR_QUOTE_MAX);
}

static bool is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

/* Scans the integer constant at ps->tok_start (which starts with a digit). */
static void lex_int(struct expr_parser *ps)
{
	const char *s = ps->tok_start, *q = s;
	uint64_t v = 0;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	bool overflow = false, bad = false;
	unsigned base = hex ? 16 : 10;
	int d;

	if (hex)
		q += 2;
	for (; (d = text_hex_digit(*q)) >= 0 && (unsigned)d < base; q++) {
		if (v > (UINT64_MAX - (unsigned)d) / base)
			overflow = true;
		v = v * base + (unsigned)d;
	}
	if (hex && q == s + 2)
		bad = true;                     /* "0x" without digits */
	if (!hex && s[0] == '0' && q - s > 1)
		bad = true;                     /* leading zero: C would read octal */
	while (is_name_char(*q)) {             /* "12abc", "0x1g" */
		bad = true;
		q++;
	}
	ps->tok = TOK_INT;
	ps->tok_len = (size_t)(q - s);
	ps->tok_val = v;
	ps->p = q;
	if (bad)
		fail(ps, tok_column(ps), "bad integer constant \"%.*s\" at column %zu",
		     quote_len(ps->tok_len), s, tok_column(ps));
	else if (overflow)
		fail(ps, tok_column(ps), "integer constant \"%.*s\" out of range at column %zu",
		     quote_len(ps->tok_len), s, tok_column(ps));
}

/* Advances to the next token. A character no token starts with is an error. */
static void next(struct expr_parser *ps)
{
	const char *q = ps->p;

	while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
		q++;
	ps->tok_start = q;
	ps->tok_len = 1;
	ps->p = q + 1;
	switch (*q) {
	case '\0': ps->tok = TOK_END; ps->tok_len = 0; ps->p = q; return;
	case '+': ps->tok = TOK_PLUS; return;
	case '-': ps->tok = TOK_MINUS; return;
	case '*': ps->tok = TOK_STAR; return;
	case '/': ps->tok = TOK_SLASH; return;
	case '%': ps->tok = TOK_PERCENT; return;
	case '&': ps->tok = TOK_AMP; return;
	case '^': ps->tok = TOK_CARET; return;
	case '|': ps->tok = TOK_PIPE; return;
	case '~': ps->tok = TOK_TILDE; return;
	case '(': ps->tok = TOK_LPAREN; return;
	case ')': ps->tok = TOK_RPAREN; return;
	case ',': ps->tok = TOK_COMMA; return;
	case '<':
	case '>':
		if (q[1] == q[0]) {
			ps->tok = q[0] == '<' ? TOK_SHL : TOK_SHR;
			ps->tok_len = 2;
			ps->p = q + 2;
			return;
		}
		break;
	default:
		if (*q >= '0' && *q <= '9') {
			lex_int(ps);
			return;
		}
		if (is_name_start(*q)) {
			while (is_name_char(*ps->p))
				ps->p++;
			ps->tok = TOK_NAME;
			ps->tok_len = (size_t)(ps->p - q);
			return;
		}
		break;
	}
	ps->tok = TOK_END; /* stop here; the error explains */
	if ((unsigned char)*q >= 0x20 && (unsigned char)*q < 0x7f)
		fail(ps, tok_column(ps), "unexpected character \"%c\" at column %zu", *q,
		     tok_column(ps));
	else
		fail(ps, tok_column(ps), "unexpected character 0x%02x at column %zu",
		     (unsigned char)*q, tok_column(ps));
}

/* ---------------------------------------------------------------------------------------------
 * Code generation with constant folding
 */

static void emit(struct expr_parser *ps, enum expr_op op, uint32_t arg, int64_t imm)
{
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 16;
		ps->code = xreallocarray(ps->code, ps->cap, sizeof *ps->code);
	}
	ps->code[ps->n].op = op;
	ps->code[ps->n].arg = arg;
	ps->code[ps->n].imm = imm;
	ps->n++;
}

/* A push of a constant or a variable (or a rand() draw): one more pending value. */
static void emit_push(struct expr_parser *ps, enum expr_op op, uint32_t arg, int64_t imm,
		      size_t column)
{
	if (ps->depth == EXPR_STACK_MAX) {
		fail(ps, column, "expression too deeply nested at column %zu", column);
		return;
	}
	ps->depth++;
	emit(ps, op, arg, imm);
}

static bool last_is_const(const struct expr_parser *ps, size_t back)
{
	return ps->n >= back && ps->code[ps->n - back].op == EXPR_OP_CONST;
}

static void emit_unary(struct expr_parser *ps, enum expr_op op, size_t column)
{
	if (last_is_const(ps, 1)) {
		uint64_t v = (uint64_t)ps->code[ps->n - 1].imm;

		ps->code[ps->n - 1].imm = s64(op == EXPR_OP_NEG ? 0 - v
					      : op == EXPR_OP_NOT ? ~v : op_hash(v));
		return;
	}
	emit(ps, op, (uint32_t)column, 0);
}

/*
 * Emits a binary operator over the two values on top. When both operands are constants they are
 * the last two instructions (any compound operand ends in an operator), and the operator folds
 * into one push unless it faults; a faulting constant operation is kept for expr_eval to report.
 */
static void emit_binary(struct expr_parser *ps, enum expr_op op, size_t column)
{
	uint64_t r;

	ps->depth--;
	if (last_is_const(ps, 1) && last_is_const(ps, 2) &&
	    apply_binary(op, (uint64_t)ps->code[ps->n - 2].imm, (uint64_t)ps->code[ps->n - 1].imm,
			 &r) == EXPR_FAULT_NONE) {
		ps->n--;
		ps->code[ps->n - 1].imm = s64(r);
		return;
	}
	emit(ps, op, (uint32_t)column, 0);
}

/* ---------------------------------------------------------------------------------------------
 * Parser
 */

static void parse_expr(struct expr_parser *ps);

/* Binding strength of a binary operator token (higher binds tighter); 0 if not one. */
static int binary_prec(enum expr_tok t, enum expr_op *op)
{
	switch (t) {
	case TOK_PIPE: *op = EXPR_OP_OR; return 1;
	case TOK_CARET: *op = EXPR_OP_XOR; return 2;
	case TOK_AMP: *op = EXPR_OP_AND; return 3;
	case TOK_SHL: *op = EXPR_OP_SHL; return 4;
	case TOK_SHR: *op = EXPR_OP_SHR; return 4;
	case TOK_PLUS: *op = EXPR_OP_ADD; return 5;
	case TOK_MINUS: *op = EXPR_OP_SUB; return 5;
	case TOK_STAR: *op = EXPR_OP_MUL; return 6;
	case TOK_SLASH: *op = EXPR_OP_DIV; return 6;
	case TOK_PERCENT: *op = EXPR_OP_MOD; return 6;
	default: return 0;
	}
}

static bool tok_is(const struct expr_parser *ps, const char *word)
{
	return ps->tok == TOK_NAME && strlen(word) == ps->tok_len &&
	       memcmp(ps->tok_start, word, ps->tok_len) == 0;
}

static bool tok_is_function(const struct expr_parser *ps)
{
	size_t i;

	for (i = 0; i < EXPR_NFUNCS; i++)
		if (tok_is(ps, expr_funcs[i]))
			return true;
	return false;
}

/* Reports the current token as unexpected ("empty expression" when there is nothing at all). */
static void fail_unexpected(struct expr_parser *ps)
{
	size_t col = tok_column(ps);

	if (ps->tok != TOK_END)
		fail(ps, col, "unexpected token \"%.*s\" at column %zu", quote_len(ps->tok_len),
		     ps->tok_start, col);
	else if (ps->n == 0 && ps->tok_start == ps->text + strspn(ps->text, " \t\r\n"))
		fail(ps, 1, "empty expression");
	else
		fail(ps, col, "unexpected end of expression at column %zu", col);
}

/* min(a, b), max(a, b), rand(), rand(n), hash(x): the current token is the function's name. */
static void parse_call(struct expr_parser *ps)
{
	const char *fname = ps->tok_start;
	int flen = (int)ps->tok_len;
	size_t col = tok_column(ps);
	unsigned nargs = 0;

	next(ps);
	if (ps->failed)
		return;
	if (ps->tok != TOK_LPAREN) {
		fail(ps, tok_column(ps), "expected \"(\" after %.*s at column %zu", flen, fname,
		     tok_column(ps));
		return;
	}
	next(ps);
	if (ps->tok == TOK_RPAREN) {
		next(ps);
	} else {
		for (;;) {
			if (ps->failed)
				return;
			parse_expr(ps);
			if (ps->failed)
				return;
			nargs++;
			if (ps->tok == TOK_COMMA) {
				next(ps);
				continue;
			}
			if (ps->tok == TOK_RPAREN) {
				next(ps);
				break;
			}
			fail(ps, tok_column(ps),
			     "expected \")\" after arguments of %.*s at column %zu", flen, fname,
			     tok_column(ps));
			return;
		}
	}
	if (ps->failed)
		return;
	if (fname[0] == 'r') {
		if (nargs > 1) {
			fail(ps, col, "rand takes 0 or 1 arguments, got %u", nargs);
			return;
		}
		ps->flags |= EXPR_F_RAND;
		if (nargs == 0)
			emit_push(ps, EXPR_OP_RAND0, (uint32_t)col, 0, col);
		else
			emit(ps, EXPR_OP_RAND1, (uint32_t)col, 0);
		return;
	}
	if (fname[0] == 'h') {
		if (nargs != 1) {
			fail(ps, col, "hash takes 1 argument, got %u", nargs);
			return;
		}
		emit_unary(ps, EXPR_OP_HASH, col);
		return;
	}
	if (nargs != 2) {
		fail(ps, col, "%.*s takes 2 arguments, got %u", flen, fname, nargs);
		return;
	}
	emit_binary(ps, fname[1] == 'i' ? EXPR_OP_MIN : EXPR_OP_MAX, col);
}

/* A name of the caller's table: push its slot or its constant value. */
static void parse_name(struct expr_parser *ps)
{
	const struct expr_names *nm = ps->names;
	const char **cand;
	const char *sugg;
	char word[EXPR_QUOTE_MAX + 1];
	size_t i, col = tok_column(ps), nn = nm != NULL ? nm->n : 0;

	for (i = 0; i < nn; i++) {
		const struct expr_name *x = &nm->v[i];

		if (strncmp(x->name, ps->tok_start, ps->tok_len) == 0 &&
		    x->name[ps->tok_len] == '\0') {
			if (x->is_const)
				emit_push(ps, EXPR_OP_CONST, 0, x->value, col);
			else
				emit_push(ps, EXPR_OP_VAR, x->slot, 0, col);
			next(ps);
			return;
		}
	}
	/* Unknown: suggest the closest allowed name or function. */
	snprintf(word, sizeof word, "%.*s", quote_len(ps->tok_len), ps->tok_start);
	cand = xcalloc(nn + EXPR_NFUNCS, sizeof *cand);
	for (i = 0; i < nn; i++)
		cand[i] = nm->v[i].name;
	for (i = 0; i < EXPR_NFUNCS; i++)
		cand[nn + i] = expr_funcs[i];
	sugg = text_suggest(word, cand, nn + EXPR_NFUNCS);
	if (sugg != NULL)
		fail(ps, col, "unknown name \"%s\" (did you mean \"%.*s\"?)", word,
		     EXPR_QUOTE_MAX, sugg);
	else
		fail(ps, col, "unknown name \"%s\"", word);
	free(cand);
}

static void parse_primary(struct expr_parser *ps)
{
	size_t col;

	switch (ps->tok) {
	case TOK_INT:
		emit_push(ps, EXPR_OP_CONST, 0, s64(ps->tok_val), tok_column(ps));
		next(ps);
		return;
	case TOK_NAME:
		if (tok_is_function(ps))
			parse_call(ps);
		else
			parse_name(ps);
		return;
	case TOK_LPAREN:
		next(ps);
		parse_expr(ps);
		if (ps->failed)
			return;
		if (ps->tok != TOK_RPAREN) {
			col = tok_column(ps);
			fail(ps, col, "expected \")\" at column %zu", col);
			return;
		}
		next(ps);
		return;
	default:
		fail_unexpected(ps);
		return;
	}
}

static void parse_unary(struct expr_parser *ps)
{
	enum expr_op op;
	size_t col = tok_column(ps);

	if (ps->failed)
		return;
	if (ps->nest == EXPR_NEST_MAX) {
		fail(ps, col, "expression too deeply nested at column %zu", col);
		return;
	}
	if (ps->tok != TOK_MINUS && ps->tok != TOK_TILDE) {
		parse_primary(ps);
		return;
	}
	op = ps->tok == TOK_MINUS ? EXPR_OP_NEG : EXPR_OP_NOT;
	next(ps);
	ps->nest++;
	parse_unary(ps);
	ps->nest--;
	if (!ps->failed)
		emit_unary(ps, op, col);
}

/* Precedence climbing: operands bind operators of strength >= min_prec, left to right. */
static void parse_binary(struct expr_parser *ps, int min_prec)
{
	enum expr_op op = EXPR_OP_ADD;
	size_t col;
	int prec;

	parse_unary(ps);
	while (!ps->failed) {
		prec = binary_prec(ps->tok, &op);
		if (prec == 0 || prec < min_prec)
			return;
		col = tok_column(ps);
		next(ps);
		parse_binary(ps, prec + 1);
		if (ps->failed)
			return;
		emit_binary(ps, op, col);
	}
}

static void parse_expr(struct expr_parser *ps)
{
	if (ps->nest == EXPR_NEST_MAX) {
		size_t col = tok_column(ps);

		fail(ps, col, "expression too deeply nested at column %zu", col);
		return;
	}
	ps->nest++;
	parse_binary(ps, 1);
	ps->nest--;
}

struct expr *expr_compile(const char *text, const struct expr_names *names, struct expr_err *err)
{
	struct expr_parser ps;
	struct expr *e = NULL;

	memset(&ps, 0, sizeof ps);
	ps.text = text;
	ps.p = text;
	ps.names = names;
	ps.err = err;
	err->column = 0;
	err->msg[0] = '\0';

	next(&ps);
	if (!ps.failed)
		parse_expr(&ps);
	if (!ps.failed && ps.tok != TOK_END)
		fail_unexpected(&ps);
	if (!ps.failed) {
		SIM_ASSERT(ps.n >= 1 && ps.depth == 1);
		e = xmalloc(sizeof *e + ps.n * sizeof e->code[0]);
		e->n = (uint32_t)ps.n;
		e->flags = ps.flags;
		memcpy(e->code, ps.code, ps.n * sizeof e->code[0]);
	}
	free(ps.code);
	return e;
}
