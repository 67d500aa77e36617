/*
 * workload.h - workload files: one kernel launch described in libconfig syntax (*.wl).
 *
 * A workload gives the launch (grid, block), named global arrays, shared-memory arrays and the
 * body every thread runs. Example (workloads/stride.wl):
 *
 *	kernel = "stride";
 *	params = { stride = 1; n = 1048576; };        # integer defaults; -p stride=32
 *	grid   = ( "n / 256", 1, 1 );                  # a list: integers or expressions
 *	block  = [ 256, 1, 1 ];
 *	arrays = ( { name = "a"; elems = "n * stride"; type = "float"; } );
 *	body   = (
 *		{ op = "load"; array = "a"; index = "(bx * bdx + tx) * stride"; reg = "v"; },
 *		{ op = "alu"; latency = 4; uses = [ "v" ]; }
 *	);
 *
 * Top-level keys: kernel (string, required), params (group of integers), grid and block (1 to 3
 * dimensions, missing ones are 1: a list ( x, y, z ) of integers or expression strings, an array
 * [ x, y, z ] of integers (libconfig arrays cannot mix kinds) or one value for x; block defaults
 * to (32, 1, 1), grid is required), registers (per thread, 1..255, an integer or a constant
 * expression; optional: without it registers do not limit occupancy), arrays and shared (lists
 * of { name; elems; type or elem_bytes }; types char uchar short half int uint float long double
 * int2 float2 int4 float4 double2), body (list of ops, required).
 *
 * Ops (key "op"; every other key below, and nothing else, is allowed):
 *	load          array index [bytes] [reg] [uses]     global load; reg names the loaded value
 *	store         array index [bytes] [uses]           global store, waits for its uses
 *	shared_load   array index [bytes] [reg] [uses]     array is a shared array
 *	shared_store  array index [bytes] [uses]
 *	alu           latency [uses]                       latency in core cycles, 1..1000000
 *	barrier                                            __syncthreads()
 *	loop          var count body                       var runs 0 .. count-1
 *	chase         array loads [bytes] [order] [start] [reg]   pointer chase: `loads` dependent
 *	                                                   loads through array, each element one
 *	                                                   node, order "random" (default) /
 *	                                                   "sequential"; the first load is `start`
 *	                                                   steps (default 0) along the cycle from
 *	                                                   the warp's first node
 * bytes is 1, 2, 4, 8 or 16 (default: the element size, for chase min(element size, 8)).
 * uses is a register name or a list of them; each must be the reg of an earlier op.
 *
 * Expressions (sim/front/expr.h) are integers or strings. Names allowed:
 *	grid, block, elems, elem_bytes   parameters (constants after -p); must fold to a constant
 *	loop count, chase loads, start   parameters, grid/block dims (bdx..gdz, constants) and the
 *	                                 enclosing loop variables; folded when possible
 *	index                            tx ty tz bx by bz bdx bdy bdz gdx gdy gdz (variables),
 *	                                 enclosing loop variables, parameters (constants)
 * Variable slots: the built-ins at 0 .. EXPR_BUILTIN_COUNT-1, then the loop variable of nesting
 * depth d at EXPR_BUILTIN_COUNT + d. An evaluator needs WORKLOAD_NVARS int64_t slots.
 *
 * Memory layout: global arrays are placed in file order from WORKLOAD_BASE, each base aligned to
 * WORKLOAD_ALIGN bytes; shared arrays from offset 0 of the block's shared memory, each aligned
 * to WORKLOAD_SHARED_ALIGN bytes. Byte address of element i: base + i * elem_bytes.
 *
 * Errors: every problem is collected and reported as `file:line: key: message`, with key a path
 * such as body[3].index or body[1].body[0].uses; -p problems as `-p text: name: message`.
 */
#ifndef SIM_WORKLOAD_H
#define SIM_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "expr.h"
#include "log.h"
#include "types.h"

/* 256 MiB: away from address 0 so a stray zero address stands out in a trace. */
#define WORKLOAD_BASE 0x10000000ull
/* Two 128-byte lines: arrays never share a line or a DRAM burst pair. */
#define WORKLOAD_ALIGN 256u
/* One row of the 32 four-byte banks: every shared array starts at bank 0. */
#define WORKLOAD_SHARED_ALIGN 128u
/* Loop nesting depth and registers per kernel (a uses set is one uint64_t mask). */
#define WORKLOAD_MAX_DEPTH 8u
#define WORKLOAD_MAX_REGS 64u
#define WORKLOAD_NVARS (EXPR_BUILTIN_COUNT + WORKLOAD_MAX_DEPTH)
/* Registers one thread may use (the PTX limit since Kepler). */
#define WORKLOAD_MAX_THREAD_REGS 255

#define WORKLOAD_OPS(X)                     \
	X(LOAD, "load")                     \
	X(STORE, "store")                   \
	X(SHARED_LOAD, "shared_load")       \
	X(SHARED_STORE, "shared_store")     \
	X(ALU, "alu")                       \
	X(BARRIER, "barrier")               \
	X(LOOP, "loop")                     \
	X(CHASE, "chase")

#define WORKLOAD_OP_ENUM(id, name) WORKLOAD_OP_##id,
enum workload_op_kind { WORKLOAD_OPS(WORKLOAD_OP_ENUM) WORKLOAD_OP_COUNT };
#undef WORKLOAD_OP_ENUM

enum workload_chase_order { WORKLOAD_CHASE_RANDOM, WORKLOAD_CHASE_SEQUENTIAL };

struct workload_param {
	char *name;
	int64_t value; /* after -p */
	bool overridden;
};

struct workload_array {
	char *name;
	uint64_t elems;
	uint32_t elem_bytes;
	addr_t base;    /* global: byte address; shared: byte offset in the block's shared memory */
	uint64_t bytes; /* elems * elem_bytes */
};

/* One op of a body. Fields not used by a kind are 0 / NULL / -1. */
struct workload_op {
	enum workload_op_kind kind;
	int line;             /* source line of the op's group */
	uint32_t array;       /* index into arrays (load/store/chase) or shared (shared_*) */
	struct expr *index;   /* load/store/shared_*: element index */
	bool index_affine;    /* index is affine in tx, ty, tz (expr_is_affine) */
	bool index_coef_known;   /* and its steps in them are constants (expr_affine_coefs): */
	uint64_t index_coef[3];  /* index(tx + 1) - index(tx), the same for ty and tz */
	char *index_text;     /* as written (for workload_describe) */
	uint32_t bytes;       /* memory ops: access size */
	int reg;              /* register written (load, shared_load, chase), or -1 */
	uint64_t uses;        /* bit r: waits for register r */
	uint32_t latency;     /* alu: cycles */
	/* loop */
	char *var;
	uint32_t var_slot;    /* EXPR_BUILTIN_COUNT + depth */
	struct expr *count;   /* loop: trip count; chase: number of loads */
	char *count_text;
	struct workload_op *body;
	size_t nbody;
	enum workload_chase_order order;
	struct expr *start;   /* chase: steps along the cycle before the first load, or NULL */
	char *start_text;
};

struct workload {
	char *path;           /* as given */
	char *kernel;
	uint32_t grid[3], block[3];
	uint32_t registers;     /* per thread; 0: not given */
	struct workload_param *params;
	size_t nparams;
	struct workload_array *arrays;
	size_t narrays;
	struct workload_array *shared;
	size_t nshared;
	uint64_t shared_bytes;  /* per block, with alignment */
	struct workload_op *body;
	size_t nbody;
	char *regs[WORKLOAD_MAX_REGS]; /* register names by number */
	uint32_t nregs;
};

/*
 * Loads path; overrides[0..n) are "name=value" strings (-p) for declared parameters. Returns a
 * new workload (free with workload_free), or NULL with err filled: the first problem's file and
 * line, every problem (up to 20) one per line in err->msg. Never exits.
 */
struct workload *workload_load(const char *path, const char *const *overrides, size_t n,
			       struct sim_err *err);
void workload_free(struct workload *w);

/* "load", ... */
const char *workload_op_name(enum workload_op_kind k);
/* The parameter's value, or false if there is no such parameter. */
bool workload_param(const struct workload *w, const char *name, int64_t *value);
/* Writes the launch, arrays and one line per op (loop bodies indented by two spaces). */
void workload_describe(const struct workload *w, FILE *out);

#endif /* SIM_WORKLOAD_H */
