/*
 * workload.c - loads a workload file (format in workload.h) into a struct workload.
 *
 * Flow: the file is parsed by the config layer (cfg_load_file) and walked through its read-only
 * tree API, so this file never sees libconfig. The walk goes top to bottom in a fixed order,
 * because later parts need earlier ones: params (then -p overrides), grid and block (constant
 * expressions over params), global and shared arrays (sizes over params, bases assigned here),
 * then the body, whose expressions see the loop variables in scope and whose registers are
 * numbered in the order they are first written.
 *
 * Invariants of a loaded workload: every op's array index is valid for its kind; every bit of
 * every uses mask is a register written by an op earlier in file order; loop nesting is at most
 * WORKLOAD_MAX_DEPTH, so a loop variable's slot is below WORKLOAD_NVARS; every expression
 * compiled against exactly the names workload.h lists for its key.
 *
 * Errors never stop the walk: each problem is added to the collected list (struct wl_errs) and
 * the walk goes on with a placeholder, so one run shows everything wrong with a file. A part
 * whose problem would only cause follow-on noise (an op whose "op" is unknown) is skipped.
 *
 * Not done here: the permutation of a chase (built at run time from the run's seed), limits
 * that depend on the GPU config (threads per block, shared memory per SM), evaluation of index
 * expressions (the SM model does that per lane).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "text.h"
#include "workload.h"

/* At most this many problems are listed, as in cfg.c. */
#define WL_MAX_ERRORS 20
/* A key path such as "body[12].body[3].index". */
#define WL_KEY_MAX 256

struct wl_errs {
	struct sim_err *err;
	size_t n;
	size_t len; /* of err->msg */
};

struct wl_loader {
	struct workload *w;
	struct wl_errs e;
	const char *scope[WORKLOAD_MAX_DEPTH]; /* loop variables, outermost first */
	uint32_t depth;
	char **broken;                         /* arrays declared with an error: referring to */
	size_t nbroken;                        /* one is not reported again */
};

/* ---------------------------------------------------------------------------------------------
 * Error collection
 */

static void wl_vadd(struct wl_errs *e, const char *file, int line, const char *fmt, va_list ap)
{
	char msg[SIM_ERR_MSG_MAX];
	size_t room;
	int n;

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (e->n == 0) {
		sim_err_set(e->err, file, line, "%s", msg);
		e->len = strlen(e->err->msg);
	} else if (e->n < WL_MAX_ERRORS) {
		room = sizeof e->err->msg - e->len;
		if (line > 0)
			n = snprintf(e->err->msg + e->len, room, "\n%s:%d: %s", file, line, msg);
		else
			n = snprintf(e->err->msg + e->len, room, "\n%s: %s", file, msg);
		if (n > 0)
			e->len += (size_t)n < room ? (size_t)n : room - 1;
	} else if (e->n == WL_MAX_ERRORS) {
		room = sizeof e->err->msg - e->len;
		n = snprintf(e->err->msg + e->len, room, "\n(more not shown)");
		if (n > 0)
			e->len += (size_t)n < room ? (size_t)n : room - 1;
	}
	e->n++;
}

static void wl_add(struct wl_errs *e, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void wl_add(struct wl_errs *e, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wl_vadd(e, file, line, fmt, ap);
	va_end(ap);
}

/* Reports a problem about key at node n (its file and line). */
static void wl_err(struct wl_loader *L, const struct cfg_node *n, const char *key, const char *fmt,
		   ...) __attribute__((format(printf, 4, 5)));

static void wl_err(struct wl_loader *L, const struct cfg_node *n, const char *key, const char *fmt,
		   ...)
{
	char file[512], msg[SIM_ERR_MSG_MAX - 64];
	va_list ap;
	int line;

	cfg_node_where(n, file, sizeof file, &line);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	wl_add(&L->e, file, line, "%s: %s", key, msg);
}

/* Writes prefix.name (or name alone for an empty prefix) into buf[WL_KEY_MAX], truncated. */
static const char *wl_key(char *buf, const char *prefix, const char *name)
{
	size_t np = strlen(prefix), nn = strlen(name);

	if (np > WL_KEY_MAX / 2)
		np = WL_KEY_MAX / 2;
	if (nn > WL_KEY_MAX / 2 - 2)
		nn = WL_KEY_MAX / 2 - 2;
	memcpy(buf, prefix, np);
	if (np > 0)
		buf[np++] = '.';
	memcpy(buf + np, name, nn);
	buf[np + nn] = '\0';
	return buf;
}

/* Writes prefix[i] into buf[WL_KEY_MAX], truncated. */
static const char *wl_key_elem(char *buf, const char *prefix, size_t i)
{
	char idx[32];
	size_t np = strlen(prefix), ni;

	ni = (size_t)snprintf(idx, sizeof idx, "[%zu]", i);
	if (np > WL_KEY_MAX - 1 - ni)
		np = WL_KEY_MAX - 1 - ni;
	memcpy(buf, prefix, np);
	memcpy(buf + np, idx, ni + 1);
	return buf;
}

/* Checks that every member of group n is one of keys[0..nkeys); reports the others. */
static void wl_check_keys(struct wl_loader *L, const struct cfg_node *n, const char *prefix,
			  const char *what, const char *const *keys, size_t nkeys)
{
	size_t i, j;

	for (i = 0; i < cfg_node_length(n); i++) {
		const struct cfg_node *m = cfg_node_elem(n, i);
		const char *name = cfg_node_name(m);
		char key[WL_KEY_MAX];
		const char *sug;
		bool ok = false;

		for (j = 0; j < nkeys && !ok; j++)
			ok = strcmp(keys[j], name) == 0;
		if (ok)
			continue;
		wl_key(key, prefix, name);
		sug = text_suggest(name, keys, nkeys);
		if (sug != NULL)
			wl_err(L, m, key, "unknown key%s%s (did you mean \"%s\"?)",
			       what[0] != '\0' ? " for " : "", what, sug);
		else
			wl_err(L, m, key, "unknown key%s%s", what[0] != '\0' ? " for " : "", what);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Names and expressions
 */

static bool wl_is_reserved(const char *name)
{
	size_t i;

	if (expr_is_function(name))
		return true;
	for (i = 0; i < EXPR_BUILTIN_COUNT; i++)
		if (strcmp(name, expr_builtin_name((enum expr_builtin)i)) == 0)
			return true;
	return false;
}

static bool wl_is_name(const char *s)
{
	size_t i;

	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return false;
	for (i = 1; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

enum wl_names_kind {
	WL_NAMES_PARAMS, /* parameters only */
	WL_NAMES_COUNT,  /* loop variables in scope, launch dims as constants, parameters */
	WL_NAMES_INDEX,  /* built-ins, loop variables in scope, parameters */
};

/* Fills v (room for EXPR_BUILTIN_COUNT + WORKLOAD_MAX_DEPTH + nparams) and returns the count. */
static size_t wl_names(const struct wl_loader *L, enum wl_names_kind kind, struct expr_name *v)
{
	const struct workload *w = L->w;
	size_t n = 0, i;

	if (kind == WL_NAMES_INDEX) {
		expr_names_builtin(v);
		n = EXPR_BUILTIN_COUNT;
	} else if (kind == WL_NAMES_COUNT) {
		for (i = EXPR_BDX; i <= EXPR_GDZ; i++) {
			const uint32_t *d = i <= EXPR_BDZ ? w->block : w->grid;

			v[n].name = expr_builtin_name((enum expr_builtin)i);
			v[n].is_const = true;
			v[n].slot = 0;
			v[n].value = d[(i - EXPR_BDX) % 3];
			n++;
		}
	}
	if (kind != WL_NAMES_PARAMS) {
		for (i = 0; i < L->depth; i++) {
			v[n].name = L->scope[i];
			v[n].is_const = false;
			v[n].slot = (uint32_t)(EXPR_BUILTIN_COUNT + i);
			v[n].value = 0;
			n++;
		}
	}
	for (i = 0; i < w->nparams; i++) {
		v[n].name = w->params[i].name;
		v[n].is_const = true;
		v[n].slot = 0;
		v[n].value = w->params[i].value;
		n++;
	}
	return n;
}

/*
 * Compiles node n (an integer or a string) as an expression over the names of kind. Returns the
 * expression (and its text in *text if text is not NULL), or NULL after reporting the problem.
 */
static struct expr *wl_compile(struct wl_loader *L, const struct cfg_node *n, const char *key,
			       enum wl_names_kind kind, char **text)
{
	struct expr_name *v = xcalloc(EXPR_BUILTIN_COUNT + WORKLOAD_MAX_DEPTH + L->w->nparams,
				      sizeof *v);
	struct expr_names names = { v, 0 };
	struct expr_err ee;
	struct expr *e = NULL;
	char got[256], *src;
	int64_t i;

	if (cfg_node_int(n, &i) == 0) {
		src = xasprintf("%" PRId64, i);
	} else if (cfg_node_string(n) != NULL) {
		src = xstrdup(cfg_node_string(n));
	} else {
		cfg_node_repr(n, got, sizeof got);
		wl_err(L, n, key, "expected an integer or an expression string, got %s", got);
		free(v);
		return NULL;
	}
	names.n = wl_names(L, kind, v);
	e = expr_compile(src, &names, &ee);
	free(v);
	if (e == NULL) {
		static const char unknown[] = "unknown name \"";
		size_t len = strncmp(ee.msg, unknown, sizeof unknown - 1) == 0
				     ? strcspn(ee.msg + sizeof unknown - 1, "\"") : 0;

		for (i = 0; kind != WL_NAMES_INDEX && len > 0 && i <= EXPR_BZ; i++) {
			const char *b = expr_builtin_name((enum expr_builtin)i);

			if (strlen(b) == len && strncmp(ee.msg + sizeof unknown - 1, b, len) == 0) {
				wl_err(L, n, key, "\"%s\" at column %zu is a thread or block index: "
				       "only %s may appear here", b, ee.column,
				       kind == WL_NAMES_PARAMS ? "parameters"
				       : "parameters, bdx..gdz and enclosing loop variables");
				free(src);
				return NULL;
			}
		}
		if (ee.column > 0 && strstr(ee.msg, "at column") == NULL)
			wl_err(L, n, key, "%s at column %zu", ee.msg, ee.column);
		else
			wl_err(L, n, key, "%s", ee.msg);
		free(src);
		return NULL;
	}
	if (text != NULL)
		*text = src;
	else
		free(src);
	return e;
}

/* Compiles n over the parameters and requires a constant in lo..hi. Returns 0 or -1. */
static int wl_const(struct wl_loader *L, const struct cfg_node *n, const char *key, int64_t lo,
		    int64_t hi, int64_t *out)
{
	struct expr *e = wl_compile(L, n, key, WL_NAMES_PARAMS, NULL);
	int64_t v;

	if (e == NULL)
		return -1;
	if (!expr_is_const(e) && !expr_uses_rand(e)) {
		/* Only a fault stops the folder here (parameters are constants): say which. */
		int64_t zero[EXPR_BUILTIN_COUNT + WORKLOAD_MAX_DEPTH] = { 0 };
		struct expr_ctx ctx = { 0 };

		expr_eval(e, zero, &ctx);
		if (ctx.error) {
			wl_err(L, n, key, "%s", ctx.msg);
			expr_free(e);
			return -1;
		}
	}
	if (!expr_is_const(e)) {
		wl_err(L, n, key, "expected a constant (rand and division by zero are not)");
		expr_free(e);
		return -1;
	}
	v = expr_const_value(e);
	expr_free(e);
	if (v < lo || v > hi) {
		wl_err(L, n, key, "expected a value in %" PRId64 "..%" PRId64 ", got %" PRId64, lo,
		       hi, v);
		return -1;
	}
	*out = v;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Params, launch, arrays
 */

static void wl_load_params(struct wl_loader *L, const struct cfg_node *p)
{
	struct workload *w = L->w;
	char got[256], key[WL_KEY_MAX];
	size_t i;

	if (p == NULL)
		return;
	if (cfg_node_kind(p) != CFG_KIND_GROUP) {
		cfg_node_repr(p, got, sizeof got);
		wl_err(L, p, "params", "expected a group { name = integer; ... }, got %s", got);
		return;
	}
	w->params = xcalloc(cfg_node_length(p) + 1, sizeof *w->params);
	for (i = 0; i < cfg_node_length(p); i++) {
		const struct cfg_node *m = cfg_node_elem(p, i);
		const char *name = cfg_node_name(m);
		int64_t v;
		int rc;

		wl_key(key, "params", name);
		if (wl_is_reserved(name)) {
			wl_err(L, m, key, "\"%s\" is a built-in name and cannot be a parameter", name);
			continue;
		}
		rc = cfg_node_int(m, &v);
		if (rc != 0) {
			cfg_node_repr(m, got, sizeof got);
			wl_err(L, m, key, rc == -2 ? "integer does not fit in 64 bits"
						   : "expected an integer, got %s", got);
			continue;
		}
		w->params[w->nparams].name = xstrdup(name);
		w->params[w->nparams].value = v;
		w->nparams++;
	}
}

static void wl_apply_overrides(struct wl_loader *L, const char *const *ovr, size_t n)
{
	struct workload *w = L->w;
	const char **names = xcalloc(w->nparams + 1, sizeof *names);
	size_t i, j;

	for (j = 0; j < w->nparams; j++)
		names[j] = w->params[j].name;
	for (i = 0; i < n; i++) {
		const char *eq = strchr(ovr[i], '=');
		char file[WL_KEY_MAX], *name, *end;
		struct workload_param *p = NULL;
		long long v;

		snprintf(file, sizeof file, "-p %s", ovr[i]);
		if (eq == NULL || eq == ovr[i]) {
			wl_add(&L->e, file, 0, "expected name=value (for example stride=32)");
			continue;
		}
		name = xasprintf("%.*s", (int)(eq - ovr[i]), ovr[i]);
		for (j = 0; j < w->nparams && p == NULL; j++)
			if (strcmp(w->params[j].name, name) == 0)
				p = &w->params[j];
		if (p == NULL) {
			const char *sug = text_suggest(name, names, w->nparams);

			if (sug != NULL)
				wl_add(&L->e, file, 0, "%s: unknown parameter (did you mean \"%s\"?)",
				       name, sug);
			else
				wl_add(&L->e, file, 0, "%s: unknown parameter (%s declares %zu)",
				       name, w->path, w->nparams);
			free(name);
			continue;
		}
		errno = 0;
		v = strtoll(eq + 1, &end, 0);
		if (end == eq + 1 || *end != '\0' || errno == ERANGE) {
			wl_add(&L->e, file, 0, "%s: expected a 64-bit integer, got \"%s\"", name,
			       eq + 1);
			free(name);
			continue;
		}
		p->value = v;
		p->overridden = true;
		free(name);
	}
	free(names);
}

/* grid or block: 1 to 3 dimensions (list or array), or one value for x alone. */
static int wl_load_dims(struct wl_loader *L, const struct cfg_node *d, const char *key,
			uint32_t out[3])
{
	enum cfg_kind k = cfg_node_kind(d);
	size_t i, n = 1;
	char sub[WL_KEY_MAX];
	int rc = 0;

	out[0] = out[1] = out[2] = 1;
	if (k == CFG_KIND_LIST || k == CFG_KIND_ARRAY) {
		n = cfg_node_length(d);
		if (n < 1 || n > 3) {
			wl_err(L, d, key, "expected 1 to 3 dimensions (x, y, z), got %zu", n);
			return -1;
		}
	}
	for (i = 0; i < n; i++) {
		const struct cfg_node *e = k == CFG_KIND_LIST || k == CFG_KIND_ARRAY
						   ? cfg_node_elem(d, i) : d;
		int64_t v;

		wl_key_elem(sub, key, i);
		if (wl_const(L, e, sub, 1, INT32_MAX, &v) != 0)
			rc = -1;
		else
			out[i] = (uint32_t)v;
	}
	return rc;
}

struct wl_type {
	const char *name;
	uint32_t bytes;
};

static const struct wl_type wl_types[] = {
	{ "char", 1 },   { "uchar", 1 },   { "short", 2 },   { "half", 2 },
	{ "int", 4 },    { "uint", 4 },    { "float", 4 },   { "long", 8 },
	{ "double", 8 }, { "int2", 8 },    { "float2", 8 },  { "int4", 16 },
	{ "float4", 16 }, { "double2", 16 },
};
#define WL_NTYPES (sizeof wl_types / sizeof wl_types[0])

static bool wl_array_exists(const struct workload *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->narrays; i++)
		if (strcmp(w->arrays[i].name, name) == 0)
			return true;
	for (i = 0; i < w->nshared; i++)
		if (strcmp(w->shared[i].name, name) == 0)
			return true;
	return false;
}

/* arrays or shared: a list of { name; elems; type or elem_bytes }. */
static void wl_load_arrays(struct wl_loader *L, const struct cfg_node *list, const char *key,
			   bool shared)
{
	static const char *const keys[] = { "name", "elems", "type", "elem_bytes" };
	struct workload *w = L->w;
	struct workload_array **pv = shared ? &w->shared : &w->arrays;
	size_t *pn = shared ? &w->nshared : &w->narrays;
	uint64_t next = shared ? 0 : WORKLOAD_BASE;
	uint64_t align = shared ? WORKLOAD_SHARED_ALIGN : WORKLOAD_ALIGN;
	char got[256], k[WL_KEY_MAX], sub[WL_KEY_MAX];
	size_t i, j;

	if (list == NULL)
		return;
	if (cfg_node_kind(list) != CFG_KIND_LIST) {
		cfg_node_repr(list, got, sizeof got);
		wl_err(L, list, key, "expected a list ( { name = ...; elems = ...; type = ...; } ), "
		       "got %s", got);
		return;
	}
	*pv = xcalloc(cfg_node_length(list) + 1, sizeof **pv);
	for (i = 0; i < cfg_node_length(list); i++) {
		const struct cfg_node *a = cfg_node_elem(list, i);
		const struct cfg_node *nm = cfg_node_member(a, "name");
		const struct cfg_node *el = cfg_node_member(a, "elems");
		const struct cfg_node *ty = cfg_node_member(a, "type");
		const struct cfg_node *eb = cfg_node_member(a, "elem_bytes");
		int64_t elems = 1, ebytes = 4;
		bool ok = true;

		wl_key_elem(k, key, i);
		if (cfg_node_kind(a) != CFG_KIND_GROUP) {
			cfg_node_repr(a, got, sizeof got);
			wl_err(L, a, k, "expected a group { name = ...; elems = ...; type = ...; }, "
			       "got %s", got);
			continue;
		}
		wl_check_keys(L, a, k, "", keys, 4);
		wl_key(sub, k, "name");
		if (nm == NULL) {
			wl_err(L, a, sub, "required key missing");
			ok = false;
		} else if (cfg_node_string(nm) == NULL || !wl_is_name(cfg_node_string(nm))) {
			cfg_node_repr(nm, got, sizeof got);
			wl_err(L, nm, sub, "expected a name string such as \"in\", got %s", got);
			ok = false;
		} else if (wl_array_exists(w, cfg_node_string(nm))) {
			wl_err(L, nm, sub, "array \"%s\" declared twice", cfg_node_string(nm));
			ok = false;
		}
		wl_key(sub, k, "elems");
		if (el == NULL) {
			wl_err(L, a, sub, "required key missing");
			ok = false;
		} else if (wl_const(L, el, sub, 1, INT64_C(1) << 40, &elems) != 0) {
			ok = false;
		}
		if (ty != NULL && eb != NULL) {
			wl_key(sub, k, "elem_bytes");
			wl_err(L, eb, sub, "give type or elem_bytes, not both");
			ok = false;
		} else if (ty != NULL) {
			const char *t = cfg_node_string(ty);
			const char *names[WL_NTYPES];

			wl_key(sub, k, "type");
			for (j = 0; j < WL_NTYPES; j++)
				names[j] = wl_types[j].name;
			for (j = 0; t != NULL && j < WL_NTYPES; j++)
				if (strcmp(t, wl_types[j].name) == 0)
					break;
			if (t != NULL && j < WL_NTYPES) {
				ebytes = wl_types[j].bytes;
			} else {
				const char *sug = t != NULL ? text_suggest(t, names, WL_NTYPES) : NULL;

				cfg_node_repr(ty, got, sizeof got);
				if (sug != NULL)
					wl_err(L, ty, sub, "unknown type %s (did you mean \"%s\"?)",
					       got, sug);
				else
					wl_err(L, ty, sub, "expected a type name such as \"float\" "
					       "or \"int4\", got %s", got);
				ok = false;
			}
		} else if (eb != NULL) {
			wl_key(sub, k, "elem_bytes");
			if (wl_const(L, eb, sub, 1, 1 << 20, &ebytes) != 0)
				ok = false;
		} else {
			wl_key(sub, k, "type");
			wl_err(L, a, sub, "required key missing (or elem_bytes)");
			ok = false;
		}
		if (!ok) {
			if (nm != NULL && cfg_node_string(nm) != NULL) {
				L->broken = xreallocarray(L->broken, L->nbroken + 1,
							  sizeof *L->broken);
				L->broken[L->nbroken++] = xstrdup(cfg_node_string(nm));
			}
			continue;
		}
		struct workload_array *x = &(*pv)[(*pn)++];

		x->name = xstrdup(cfg_node_string(nm));
		x->elems = (uint64_t)elems;
		x->elem_bytes = (uint32_t)ebytes;
		x->bytes = x->elems * x->elem_bytes;
		x->base = (next + align - 1) / align * align;
		next = x->base + x->bytes;
	}
	if (shared)
		w->shared_bytes = next;
}

/* ---------------------------------------------------------------------------------------------
 * Body
 */

/* Allowed keys per op kind, "op" first. */
static const char *const wl_op_keys[WORKLOAD_OP_COUNT][7] = {
	[WORKLOAD_OP_LOAD] = { "op", "array", "index", "bytes", "reg", "uses" },
	[WORKLOAD_OP_STORE] = { "op", "array", "index", "bytes", "uses" },
	[WORKLOAD_OP_SHARED_LOAD] = { "op", "array", "index", "bytes", "reg", "uses" },
	[WORKLOAD_OP_SHARED_STORE] = { "op", "array", "index", "bytes", "uses" },
	[WORKLOAD_OP_ALU] = { "op", "latency", "uses" },
	[WORKLOAD_OP_BARRIER] = { "op" },
	[WORKLOAD_OP_LOOP] = { "op", "var", "count", "body" },
	[WORKLOAD_OP_CHASE] = { "op", "array", "loads", "bytes", "order", "start", "reg" },
};

#define WL_OP_NAME(id, name) name,
static const char *const wl_op_names[WORKLOAD_OP_COUNT] = { WORKLOAD_OPS(WL_OP_NAME) };
#undef WL_OP_NAME

const char *workload_op_name(enum workload_op_kind k)
{
	SIM_ASSERT(k < WORKLOAD_OP_COUNT);
	return wl_op_names[k];
}

static size_t wl_nkeys(enum workload_op_kind k)
{
	size_t n = 0;

	while (n < 7 && wl_op_keys[k][n] != NULL)
		n++;
	return n;
}

static int wl_find_reg(const struct workload *w, const char *name)
{
	uint32_t i;

	for (i = 0; i < w->nregs; i++)
		if (strcmp(w->regs[i], name) == 0)
			return (int)i;
	return -1;
}

/* The register name of node r, numbered on first sight; -1 after reporting a problem. */
static int wl_def_reg(struct wl_loader *L, const struct cfg_node *r, const char *key)
{
	struct workload *w = L->w;
	const char *name = cfg_node_string(r);
	char got[256];
	int i;

	if (name == NULL || !wl_is_name(name)) {
		cfg_node_repr(r, got, sizeof got);
		wl_err(L, r, key, "expected a register name such as \"a\", got %s", got);
		return -1;
	}
	i = wl_find_reg(w, name);
	if (i >= 0)
		return i;
	if (w->nregs == WORKLOAD_MAX_REGS) {
		wl_err(L, r, key, "more than %u registers", WORKLOAD_MAX_REGS);
		return -1;
	}
	w->regs[w->nregs] = xstrdup(name);
	return (int)w->nregs++;
}

/* uses: a register name or a list/array of them, each written by an earlier op. */
static uint64_t wl_uses(struct wl_loader *L, const struct cfg_node *u, const char *key)
{
	enum cfg_kind k = cfg_node_kind(u);
	size_t i, n = k == CFG_KIND_LIST || k == CFG_KIND_ARRAY ? cfg_node_length(u) : 1;
	uint64_t mask = 0;
	char got[256];

	for (i = 0; i < n; i++) {
		const struct cfg_node *e = n == 1 && k == CFG_KIND_STRING ? u : cfg_node_elem(u, i);
		const char *name = cfg_node_string(e);
		int r;

		if (name == NULL) {
			cfg_node_repr(e != NULL ? e : u, got, sizeof got);
			wl_err(L, e != NULL ? e : u, key,
			       "expected a register name or a list of them, got %s", got);
			continue;
		}
		r = wl_find_reg(L->w, name);
		if (r < 0) {
			const char *sug = text_suggest(name, (const char *const *)L->w->regs,
						       L->w->nregs);

			if (sug != NULL)
				wl_err(L, e, key, "register \"%s\" is not written by an earlier op "
				       "(did you mean \"%s\"?)", name, sug);
			else
				wl_err(L, e, key, "register \"%s\" is not written by an earlier op",
				       name);
			continue;
		}
		mask |= UINT64_C(1) << r;
	}
	return mask;
}

/* The array named by node a among global (or shared) arrays; -1 after reporting a problem. */
static int wl_array_ref(struct wl_loader *L, const struct cfg_node *a, const char *key,
			bool shared)
{
	const struct workload *w = L->w;
	const struct workload_array *v = shared ? w->shared : w->arrays;
	const struct workload_array *other = shared ? w->arrays : w->shared;
	size_t n = shared ? w->nshared : w->narrays;
	size_t no = shared ? w->narrays : w->nshared;
	const char *name = cfg_node_string(a);
	const char **names;
	const char *sug;
	char got[256];
	size_t i;

	if (name == NULL) {
		cfg_node_repr(a, got, sizeof got);
		wl_err(L, a, key, "expected an array name, got %s", got);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return (int)i;
	for (i = 0; i < L->nbroken; i++)
		if (strcmp(L->broken[i], name) == 0)
			return -1; /* its declaration's error says it all */
	for (i = 0; i < no; i++) {
		if (strcmp(other[i].name, name) == 0) {
			wl_err(L, a, key, "\"%s\" is a %s array (use %s)", name,
			       shared ? "global" : "shared",
			       shared ? "load/store" : "shared_load/shared_store");
			return -1;
		}
	}
	names = xcalloc(n + 1, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = v[i].name;
	sug = text_suggest(name, names, n);
	if (sug != NULL)
		wl_err(L, a, key, "unknown %sarray \"%s\" (did you mean \"%s\"?)",
		       shared ? "shared " : "", name, sug);
	else
		wl_err(L, a, key, "unknown %sarray \"%s\"", shared ? "shared " : "", name);
	free(names);
	return -1;
}

static bool wl_is_access_size(int64_t b)
{
	return b == 1 || b == 2 || b == 4 || b == 8 || b == 16;
}

static void wl_load_body(struct wl_loader *L, const struct cfg_node *list, const char *key,
			 struct workload_op **ops, size_t *nops);

/* A required member: reports its absence. */
static const struct cfg_node *wl_need(struct wl_loader *L, const struct cfg_node *g,
				      const char *prefix, const char *name, const char *opname)
{
	const struct cfg_node *m = cfg_node_member(g, name);
	char key[WL_KEY_MAX];

	if (m == NULL) {
		wl_key(key, prefix, name);
		wl_err(L, g, key, "required key missing (op \"%s\")", opname);
	}
	return m;
}

/* The array member of a memory op, global or shared: its index, or -1 (problem reported). */
static int wl_op_array(struct wl_loader *L, const struct cfg_node *g, const char *key,
		       const char *opname, bool shared)
{
	const struct cfg_node *an = wl_need(L, g, key, "array", opname);
	char sub[WL_KEY_MAX];

	if (an == NULL)
		return -1;
	wl_key(sub, key, "array");
	return wl_array_ref(L, an, sub, shared);
}

/* The bytes and reg members of a memory op on array a (-1: unusable). Without bytes an access
 * reads a whole element, a chase at most 8 B of its node (the next pointer). Returns false if
 * either is bad. */
static bool wl_op_bytes_reg(struct wl_loader *L, const struct cfg_node *g, const char *key,
			    struct workload_op *op, int a, bool shared)
{
	const struct cfg_node *m = cfg_node_member(g, "bytes");
	char sub[WL_KEY_MAX], got[256];
	bool ok = true;
	int64_t v;

	wl_key(sub, key, "bytes");
	if (m != NULL) {
		int rc = cfg_node_int(m, &v);

		if (rc != 0 || !wl_is_access_size(v)) {
			cfg_node_repr(m, got, sizeof got);
			wl_err(L, m, sub, "expected 1, 2, 4, 8 or 16, got %s", got);
			ok = false;
		} else {
			op->bytes = (uint32_t)v;
		}
	} else if (a >= 0) {
		const struct workload_array *arr = shared ? &L->w->shared[a] : &L->w->arrays[a];
		uint32_t eb = arr->elem_bytes;

		if (op->kind == WORKLOAD_OP_CHASE)
			op->bytes = eb < 8 ? eb : 8;
		else
			op->bytes = eb;
		if (!wl_is_access_size(op->bytes)) {
			wl_err(L, g, sub, "required key missing: the element size %u of \"%s\" is "
			       "not an access size (1, 2, 4, 8 or 16)", eb, arr->name);
			ok = false;
		}
	}
	m = cfg_node_member(g, "reg");
	if (m != NULL) {
		wl_key(sub, key, "reg");
		op->reg = wl_def_reg(L, m, sub);
		if (op->reg < 0)
			ok = false;
	}
	return ok;
}

/* load, store, shared_load, shared_store: array, index, then bytes and reg. */
static bool wl_load_access(struct wl_loader *L, const struct cfg_node *g, const char *key,
			   const char *opname, struct workload_op *op)
{
	bool shared = op->kind == WORKLOAD_OP_SHARED_LOAD || op->kind == WORKLOAD_OP_SHARED_STORE;
	int a = wl_op_array(L, g, key, opname, shared);
	const struct cfg_node *m;
	char sub[WL_KEY_MAX];
	bool ok = true;

	if (a < 0)
		ok = false;
	else
		op->array = (uint32_t)a;
	m = wl_need(L, g, key, "index", opname);
	wl_key(sub, key, "index");
	if (m == NULL || (op->index = wl_compile(L, m, sub, WL_NAMES_INDEX,
						 &op->index_text)) == NULL)
		ok = false;
	else {
		static const uint32_t tid[3] = { EXPR_TX, EXPR_TY, EXPR_TZ };

		op->index_affine = expr_is_affine(op->index, 1u << EXPR_TX | 1u << EXPR_TY |
							     1u << EXPR_TZ);
		op->index_coef_known = op->index_affine &&
				       expr_affine_coefs(op->index, tid, 3, op->index_coef);
	}
	if (!wl_op_bytes_reg(L, g, key, op, a, shared))
		ok = false;
	return ok;
}

/* chase: array, loads, order (random unless "sequential"), then bytes and reg. */
static bool wl_load_chase(struct wl_loader *L, const struct cfg_node *g, const char *key,
			  const char *opname, struct workload_op *op)
{
	int a = wl_op_array(L, g, key, opname, false);
	const struct cfg_node *m;
	char sub[WL_KEY_MAX], got[256];
	bool ok = true;

	if (a < 0)
		ok = false;
	else
		op->array = (uint32_t)a;
	m = wl_need(L, g, key, "loads", opname);
	wl_key(sub, key, "loads");
	if (m == NULL || (op->count = wl_compile(L, m, sub, WL_NAMES_COUNT,
						 &op->count_text)) == NULL)
		ok = false;
	m = cfg_node_member(g, "order");
	if (m != NULL) {
		const char *o = cfg_node_string(m);

		wl_key(sub, key, "order");
		if (o != NULL && strcmp(o, "random") == 0) {
			op->order = WORKLOAD_CHASE_RANDOM;
		} else if (o != NULL && strcmp(o, "sequential") == 0) {
			op->order = WORKLOAD_CHASE_SEQUENTIAL;
		} else {
			cfg_node_repr(m, got, sizeof got);
			wl_err(L, m, sub, "expected \"random\" or \"sequential\", got %s", got);
			ok = false;
		}
	}
	m = cfg_node_member(g, "start");
	wl_key(sub, key, "start");
	if (m != NULL && (op->start = wl_compile(L, m, sub, WL_NAMES_COUNT,
						 &op->start_text)) == NULL)
		ok = false;
	if (!wl_op_bytes_reg(L, g, key, op, a, false))
		ok = false;
	return ok;
}

/* alu: latency in cycles. */
static bool wl_load_alu(struct wl_loader *L, const struct cfg_node *g, const char *key,
			const char *opname, struct workload_op *op)
{
	const struct cfg_node *m = wl_need(L, g, key, "latency", opname);
	char sub[WL_KEY_MAX], got[256];
	int64_t v;

	if (m == NULL)
		return false;
	wl_key(sub, key, "latency");
	if (cfg_node_int(m, &v) != 0 || v < 1 || v > 1000000) {
		cfg_node_repr(m, got, sizeof got);
		wl_err(L, m, sub, "expected an integer in 1..1000000, got %s", got);
		return false;
	}
	op->latency = (uint32_t)v;
	return true;
}

/* barrier: nothing beyond the op. */
static bool wl_load_barrier(struct wl_loader *L, const struct cfg_node *g, const char *key,
			    const char *opname, struct workload_op *op)
{
	(void)L;
	(void)g;
	(void)key;
	(void)opname;
	(void)op;
	return true;
}

/* The loop variable named by node vn (NULL: missing): the name, or NULL after reporting one
 * that is not a name or shadows a built-in, a parameter or an enclosing loop's variable. */
static const char *wl_loop_var(struct wl_loader *L, const struct cfg_node *vn, const char *key)
{
	const char *var = cfg_node_string(vn);
	char sub[WL_KEY_MAX], got[256];
	bool clash;
	int64_t pv;

	wl_key(sub, key, "var");
	if (vn != NULL && (var == NULL || !wl_is_name(var))) {
		cfg_node_repr(vn, got, sizeof got);
		wl_err(L, vn, sub, "expected a variable name such as \"k\", got %s", got);
		return NULL;
	}
	if (var == NULL)
		return NULL;
	clash = wl_is_reserved(var);
	for (size_t i = 0; i < L->depth; i++)
		clash = clash || strcmp(L->scope[i], var) == 0;
	clash = clash || workload_param(L->w, var, &pv);
	if (clash) {
		wl_err(L, vn, sub, "\"%s\" is already a built-in, parameter or enclosing loop "
		       "variable", var);
		return NULL;
	}
	return var;
}

/* loop: var, count and body; the body is loaded with var in scope (and walked even when var is
 * bad, to report its problems too). */
static bool wl_load_loop(struct wl_loader *L, const struct cfg_node *g, const char *key,
			 const char *opname, struct workload_op *op)
{
	const struct cfg_node *vn = wl_need(L, g, key, "var", opname);
	const struct cfg_node *cn = wl_need(L, g, key, "count", opname);
	const struct cfg_node *bn = wl_need(L, g, key, "body", opname);
	const char *var;
	char sub[WL_KEY_MAX];
	bool ok = true;

	wl_key(sub, key, "count");
	if (cn == NULL || (op->count = wl_compile(L, cn, sub, WL_NAMES_COUNT,
						  &op->count_text)) == NULL)
		ok = false;
	var = wl_loop_var(L, vn, key);
	if (var == NULL) {
		ok = false;
		var = "?";
	}
	if (L->depth == WORKLOAD_MAX_DEPTH) {
		wl_err(L, g, key, "loops nested deeper than %u", WORKLOAD_MAX_DEPTH);
		return false;
	}
	op->var = xstrdup(var);
	op->var_slot = EXPR_BUILTIN_COUNT + L->depth;
	if (bn != NULL) {
		wl_key(sub, key, "body");
		L->scope[L->depth++] = op->var;
		wl_load_body(L, bn, sub, &op->body, &op->nbody);
		L->depth--;
	}
	return ok;
}

/* The loader of each op kind: fills what the kind reads from group g (key is its path, opname
 * its op) and returns false if the op is unusable, every problem reported. */
typedef bool wl_op_loader_fn(struct wl_loader *L, const struct cfg_node *g, const char *key,
			      const char *opname, struct workload_op *op);

static wl_op_loader_fn *const wl_op_loaders[WORKLOAD_OP_COUNT] = {
	[WORKLOAD_OP_LOAD] = wl_load_access,
	[WORKLOAD_OP_STORE] = wl_load_access,
	[WORKLOAD_OP_SHARED_LOAD] = wl_load_access,
	[WORKLOAD_OP_SHARED_STORE] = wl_load_access,
	[WORKLOAD_OP_ALU] = wl_load_alu,
	[WORKLOAD_OP_BARRIER] = wl_load_barrier,
	[WORKLOAD_OP_LOOP] = wl_load_loop,
	[WORKLOAD_OP_CHASE] = wl_load_chase,
};

/* The kind named by g's op member into op->kind; false after reporting a missing or unknown
 * op. */
static bool wl_op_kind(struct wl_loader *L, const struct cfg_node *g, const char *key,
		       struct workload_op *op)
{
	const struct cfg_node *opn = cfg_node_member(g, "op");
	const char *opname = cfg_node_string(opn);
	char sub[WL_KEY_MAX], got[256];
	const char *sug;
	size_t i;

	wl_key(sub, key, "op");
	if (opn == NULL) {
		wl_err(L, g, sub, "required key missing (one of load, store, shared_load, "
		       "shared_store, alu, barrier, loop, chase)");
		return false;
	}
	for (i = 0; opname != NULL && i < WORKLOAD_OP_COUNT; i++) {
		if (strcmp(opname, wl_op_names[i]) == 0) {
			op->kind = (enum workload_op_kind)i;
			return true;
		}
	}
	sug = opname != NULL ? text_suggest(opname, wl_op_names, WORKLOAD_OP_COUNT) : NULL;
	cfg_node_repr(opn, got, sizeof got);
	if (sug != NULL)
		wl_err(L, opn, sub, "unknown op %s (did you mean \"%s\"?)", got, sug);
	else
		wl_err(L, opn, sub, "unknown op %s (one of load, store, shared_load, "
		       "shared_store, alu, barrier, loop, chase)", got);
	return false;
}

/* Fills op from group g (key is its path): the kind, the keys it allows, the registers it uses,
 * then the kind's own loader. Returns false if the op is unusable. */
static bool wl_load_op(struct wl_loader *L, const struct cfg_node *g, const char *key,
		       struct workload_op *op)
{
	const struct cfg_node *m;
	const char *opname;
	char sub[WL_KEY_MAX];
	int l;

	memset(op, 0, sizeof *op);
	op->reg = -1;
	cfg_node_where(g, sub, sizeof sub, &l);
	op->line = l;
	if (!wl_op_kind(L, g, key, op))
		return false;
	opname = wl_op_names[op->kind];
	wl_check_keys(L, g, key, opname, wl_op_keys[op->kind], wl_nkeys(op->kind));

	/* uses first: they name registers written before this op */
	m = cfg_node_member(g, "uses");
	if (m != NULL) {
		wl_key(sub, key, "uses");
		op->uses = wl_uses(L, m, sub);
	}
	if (wl_op_loaders[op->kind] == NULL)
		sim_panic("op kind %d", (int)op->kind);
	return wl_op_loaders[op->kind](L, g, key, opname, op);
}

static void wl_free_ops(struct workload_op *ops, size_t n);

/* Frees what op owns (not op itself). */
static void wl_free_op(struct workload_op *op)
{
	expr_free(op->index);
	expr_free(op->count);
	expr_free(op->start);
	free(op->index_text);
	free(op->count_text);
	free(op->start_text);
	free(op->var);
	wl_free_ops(op->body, op->nbody);
	memset(op, 0, sizeof *op);
}

static void wl_free_ops(struct workload_op *ops, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		wl_free_op(&ops[i]);
	free(ops);
}

static void wl_load_body(struct wl_loader *L, const struct cfg_node *list, const char *key,
			 struct workload_op **ops, size_t *nops)
{
	char got[256], sub[WL_KEY_MAX];
	size_t i;

	*ops = NULL;
	*nops = 0;
	if (cfg_node_kind(list) != CFG_KIND_LIST) {
		cfg_node_repr(list, got, sizeof got);
		wl_err(L, list, key, "expected a list of ops ( { op = ...; }, ... ), got %s", got);
		return;
	}
	*ops = xcalloc(cfg_node_length(list) + 1, sizeof **ops);
	for (i = 0; i < cfg_node_length(list); i++) {
		const struct cfg_node *g = cfg_node_elem(list, i);
		struct workload_op *op = &(*ops)[*nops];

		wl_key_elem(sub, key, i);
		if (cfg_node_kind(g) != CFG_KIND_GROUP) {
			cfg_node_repr(g, got, sizeof got);
			wl_err(L, g, sub, "expected an op { op = \"...\"; ... }, got %s", got);
			continue;
		}
		if (wl_load_op(L, g, sub, op))
			(*nops)++;
		else
			wl_free_op(op);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Whole file
 */

static const char *const wl_top_keys[] = { "kernel", "params", "grid", "block", "registers",
					   "arrays", "shared", "body" };

static void wl_load_tree(struct wl_loader *L, struct cfg *c, const char *const *ovr, size_t n)
{
	struct workload *w = L->w;
	const struct cfg_node *root = cfg_root(c), *m;
	char got[256];

	wl_check_keys(L, root, "", "", wl_top_keys, sizeof wl_top_keys / sizeof wl_top_keys[0]);
	m = cfg_node_member(root, "kernel");
	if (m == NULL) {
		wl_add(&L->e, w->path, 0, "kernel: required key missing (the kernel's name)");
	} else if (cfg_node_string(m) == NULL || cfg_node_string(m)[0] == '\0') {
		cfg_node_repr(m, got, sizeof got);
		wl_err(L, m, "kernel", "expected a name string, got %s", got);
	} else {
		w->kernel = xstrdup(cfg_node_string(m));
	}
	wl_load_params(L, cfg_node_member(root, "params"));
	wl_apply_overrides(L, ovr, n);

	m = cfg_node_member(root, "grid");
	if (m == NULL)
		wl_add(&L->e, w->path, 0, "grid: required key missing ((x, y, z) blocks)");
	else
		wl_load_dims(L, m, "grid", w->grid);
	m = cfg_node_member(root, "block");
	if (m == NULL) {
		w->block[0] = 32;
		w->block[1] = w->block[2] = 1;
	} else {
		wl_load_dims(L, m, "block", w->block);
	}
	m = cfg_node_member(root, "registers");
	if (m != NULL) {
		int64_t v;

		if (wl_const(L, m, "registers", 1, WORKLOAD_MAX_THREAD_REGS, &v) == 0)
			w->registers = (uint32_t)v;
	}

	wl_load_arrays(L, cfg_node_member(root, "arrays"), "arrays", false);
	wl_load_arrays(L, cfg_node_member(root, "shared"), "shared", true);

	m = cfg_node_member(root, "body");
	if (m == NULL)
		wl_add(&L->e, w->path, 0, "body: required key missing (the list of ops)");
	else
		wl_load_body(L, m, "body", &w->body, &w->nbody);
}

struct workload *workload_load(const char *path, const char *const *overrides, size_t n,
			       struct sim_err *err)
{
	struct wl_loader L;
	struct workload *w;
	struct cfg *c;

	if (cfg_load_file(&c, path, err) != 0)
		return NULL;
	w = xcalloc(1, sizeof *w);
	w->path = xstrdup(path);
	memset(&L, 0, sizeof L);
	L.w = w;
	L.e.err = err;
	wl_load_tree(&L, c, overrides, n);
	cfg_destroy(c);
	for (size_t i = 0; i < L.nbroken; i++)
		free(L.broken[i]);
	free(L.broken);
	if (L.e.n > 0) {
		workload_free(w);
		return NULL;
	}
	return w;
}

void workload_free(struct workload *w)
{
	size_t i;

	if (w == NULL)
		return;
	for (i = 0; i < w->nparams; i++)
		free(w->params[i].name);
	free(w->params);
	for (i = 0; i < w->narrays; i++)
		free(w->arrays[i].name);
	free(w->arrays);
	for (i = 0; i < w->nshared; i++)
		free(w->shared[i].name);
	free(w->shared);
	wl_free_ops(w->body, w->nbody);
	for (i = 0; i < w->nregs; i++)
		free(w->regs[i]);
	free(w->kernel);
	free(w->path);
	free(w);
}

bool workload_param(const struct workload *w, const char *name, int64_t *value)
{
	size_t i;

	for (i = 0; i < w->nparams; i++) {
		if (strcmp(w->params[i].name, name) == 0) {
			*value = w->params[i].value;
			return true;
		}
	}
	return false;
}

/* ---------------------------------------------------------------------------------------------
 * Describe
 */

static void wl_describe_uses(const struct workload *w, uint64_t uses, FILE *out)
{
	const char *sep = " uses ";
	uint32_t r;

	for (r = 0; r < w->nregs; r++) {
		if (uses & (UINT64_C(1) << r)) {
			fprintf(out, "%s%s", sep, w->regs[r]);
			sep = ",";
		}
	}
}

static void wl_describe_ops(const struct workload *w, const struct workload_op *ops, size_t n,
			    int indent, FILE *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct workload_op *op = &ops[i];
		const char *kind = workload_op_name(op->kind);

		fprintf(out, "%*s%s", indent, "", kind);
		switch (op->kind) {
		case WORKLOAD_OP_LOAD:
		case WORKLOAD_OP_STORE:
			fprintf(out, " %s[%s] %uB", w->arrays[op->array].name, op->index_text,
				op->bytes);
			break;
		case WORKLOAD_OP_SHARED_LOAD:
		case WORKLOAD_OP_SHARED_STORE:
			fprintf(out, " %s[%s] %uB", w->shared[op->array].name, op->index_text,
				op->bytes);
			break;
		case WORKLOAD_OP_ALU:
			fprintf(out, " %u cycles", op->latency);
			break;
		case WORKLOAD_OP_BARRIER:
			break;
		case WORKLOAD_OP_LOOP:
			fprintf(out, " %s < %s", op->var, op->count_text);
			break;
		case WORKLOAD_OP_CHASE:
			fprintf(out, " %s loads %s %uB %s", w->arrays[op->array].name, op->count_text,
				op->bytes, op->order == WORKLOAD_CHASE_RANDOM ? "random" : "sequential");
			if (op->start != NULL)
				fprintf(out, " from step %s", op->start_text);
			break;
		default:
			break;
		}
		if (op->reg >= 0)
			fprintf(out, " -> %s", w->regs[op->reg]);
		wl_describe_uses(w, op->uses, out);
		fprintf(out, "\n");
		if (op->kind == WORKLOAD_OP_LOOP)
			wl_describe_ops(w, op->body, op->nbody, indent + 2, out);
	}
}

void workload_describe(const struct workload *w, FILE *out)
{
	size_t i;

	fprintf(out, "kernel %s grid %ux%ux%u block %ux%ux%u", w->kernel, w->grid[0], w->grid[1],
		w->grid[2], w->block[0], w->block[1], w->block[2]);
	if (w->registers > 0)
		fprintf(out, " registers %u", w->registers);
	fputc('\n', out);
	for (i = 0; i < w->nparams; i++)
		fprintf(out, "param %s = %" PRId64 "%s\n", w->params[i].name, w->params[i].value,
			w->params[i].overridden ? " (-p)" : "");
	for (i = 0; i < w->narrays; i++)
		fprintf(out, "array %s %" PRIu64 " x %uB at 0x%" PRIx64 "\n", w->arrays[i].name,
			w->arrays[i].elems, w->arrays[i].elem_bytes, w->arrays[i].base);
	for (i = 0; i < w->nshared; i++)
		fprintf(out, "shared %s %" PRIu64 " x %uB at +%" PRIu64 "\n", w->shared[i].name,
			w->shared[i].elems, w->shared[i].elem_bytes, w->shared[i].base);
	wl_describe_ops(w, w->body, w->nbody, 0, out);
}
