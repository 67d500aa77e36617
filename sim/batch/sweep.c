/*
 * sweep.c - loads a sweep file (format in sweep.h) and expands it into points.
 *
 * Flow: the file is parsed by the config layer and walked through its read-only tree (this file
 * never sees libconfig): configs and workloads (each workload is loaded once, to check the
 * param axes against what it declares), the override axes (each path checked against the config
 * schema, sim/gpu/params.h), the param axes, zip groups, exclusions, metrics, timeout. Then the
 * dimensions are built (an unzipped axis, or one zip group at the place of its first axis) and
 * walked as an odometer, last dimension fastest.
 *
 * Errors never stop the walk: each problem is collected (as workload.c does) so one run shows
 * everything wrong with a file; expansion runs only on a file without problems.
 *
 * Not checked here: the values of overrides and params (the run checks them, and a bad one fails
 * its point alone, recorded with the run's message).
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "params.h"
#include "sweep.h"
#include "text.h"
#include "workload.h"

#define SW_MAX_ERRORS 20
#define SW_KEY_MAX 256
/* A bound on the expansion: a typo multiplying axes should fail, not fill the disk. */
#define SW_MAX_POINTS 1000000u

struct sw_loader {
	struct sweep *s;
	struct sim_err *err;
	size_t nerr, len;
	struct workload **wls;  /* loaded workloads (NULL where loading failed) */
	size_t nwls;
	struct sw_excl *excl;
	size_t nexcl;
};

/* One exclusion: for each axis it names, which values it matches. */
struct sw_excl {
	bool **match;           /* per axis: NULL (not named) or a flag per value */
};

/* ---------------------------------------------------------------------------------------------
 * Errors
 */

static void sw_add(struct sw_loader *L, const char *file, int line, const char *msg)
{
	size_t room;
	int n;

	if (L->nerr == 0) {
		sim_err_set(L->err, file, line, "%s", msg);
		L->len = strlen(L->err->msg);
	} else if (L->nerr <= SW_MAX_ERRORS) {
		room = sizeof L->err->msg - L->len;
		if (L->nerr == SW_MAX_ERRORS)
			n = snprintf(L->err->msg + L->len, room, "\n(more not shown)");
		else if (line > 0)
			n = snprintf(L->err->msg + L->len, room, "\n%s:%d: %s", file, line, msg);
		else
			n = snprintf(L->err->msg + L->len, room, "\n%s: %s", file, msg);
		if (n > 0)
			L->len += (size_t)n < room ? (size_t)n : room - 1;
	}
	L->nerr++;
}

static void sw_err(struct sw_loader *L, const struct cfg_node *n, const char *key, const char *fmt,
		   ...) __attribute__((format(printf, 4, 5)));

static void sw_err(struct sw_loader *L, const struct cfg_node *n, const char *key, const char *fmt,
		   ...)
{
	char file[512], msg[SIM_ERR_MSG_MAX - 64], line_msg[SIM_ERR_MSG_MAX];
	va_list ap;
	int line;

	cfg_node_where(n, file, sizeof file, &line);
	if (file[0] == '\0')
		snprintf(file, sizeof file, "%s", L->s->path);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(line_msg, sizeof line_msg, "%s: %s", key, msg);
	sw_add(L, file, line, line_msg);
}

/* Appends src to buf[SW_KEY_MAX] at *n, truncating. */
static void key_put(char *buf, size_t *n, const char *src)
{
	size_t m = strlen(src);

	if (m > SW_KEY_MAX - 1 - *n)
		m = SW_KEY_MAX - 1 - *n;
	memcpy(buf + *n, src, m);
	*n += m;
	buf[*n] = '\0';
}

/* prefix.name (name alone for an empty prefix) into buf[SW_KEY_MAX]. */
static const char *key_join(char *buf, const char *prefix, const char *name)
{
	size_t n = 0;

	buf[0] = '\0';
	key_put(buf, &n, prefix);
	if (prefix[0] != '\0')
		key_put(buf, &n, ".");
	key_put(buf, &n, name);
	return buf;
}

/* prefix[i] into buf[SW_KEY_MAX]. */
static const char *key_elem(char *buf, const char *prefix, size_t i)
{
	char idx[32];
	size_t n = 0;

	snprintf(idx, sizeof idx, "[%zu]", i);
	buf[0] = '\0';
	key_put(buf, &n, prefix);
	key_put(buf, &n, idx);
	return buf;
}

/* ---------------------------------------------------------------------------------------------
 * Values and axes
 */

/* The value of scalar n; false if n is not a scalar. */
static bool node_value(const struct cfg_node *n, struct sweep_value *v)
{
	int64_t i;
	double d;
	bool b;

	switch (cfg_node_kind(n)) {
	case CFG_KIND_INT:
		if (cfg_node_int(n, &i) != 0)
			return false;
		v->kind = SWEEP_INT;
		v->text = xasprintf("%" PRId64, i);
		return true;
	case CFG_KIND_FLOAT:
		cfg_node_float(n, &d);
		v->kind = SWEEP_FLOAT;
		v->text = xasprintf("%.15g", d);
		return true;
	case CFG_KIND_BOOL:
		cfg_node_bool(n, &b);
		v->kind = SWEEP_BOOL;
		v->text = xstrdup(b ? "true" : "false");
		return true;
	case CFG_KIND_STRING:
		v->kind = SWEEP_STRING;
		v->text = xstrdup(cfg_node_string(n));
		return true;
	default:
		return false;
	}
}

static struct sweep_axis *axis_add(struct sweep *s, const char *name, enum sweep_axis_kind kind)
{
	struct sweep_axis *a;

	s->axes = xreallocarray(s->axes, s->naxes + 1, sizeof *s->axes);
	a = &s->axes[s->naxes++];
	memset(a, 0, sizeof *a);
	a->name = xstrdup(name);
	a->kind = kind;
	a->zip = -1;
	return a;
}

static void axis_push(struct sweep_axis *a, const struct sweep_value *v)
{
	a->values = xreallocarray(a->values, a->nvalues + 1, sizeof *a->values);
	a->values[a->nvalues++] = *v;
}

/* Reads the values of axis a from n (an array or list of scalars; for params, of integers). */
static void read_values(struct sw_loader *L, const struct cfg_node *n, const char *key,
			struct sweep_axis *a, bool ints_only)
{
	enum cfg_kind k = cfg_node_kind(n);
	size_t i;

	if (k != CFG_KIND_ARRAY && k != CFG_KIND_LIST) {
		sw_err(L, n, key, "expected an array of values, [ v1, v2, ... ], got %s",
		       cfg_kind_name(k));
		return;
	}
	if (cfg_node_length(n) == 0) {
		sw_err(L, n, key, "expected at least one value");
		return;
	}
	for (i = 0; i < cfg_node_length(n); i++) {
		const struct cfg_node *e = cfg_node_elem(n, i);
		struct sweep_value v;
		char ekey[SW_KEY_MAX];
		size_t j;

		key_elem(ekey, key, i);
		if ((ints_only && cfg_node_kind(e) != CFG_KIND_INT) || !node_value(e, &v)) {
			sw_err(L, e, ekey, "expected %s, got %s",
			       ints_only ? "an integer" : "an integer, number, boolean or string",
			       cfg_kind_name(cfg_node_kind(e)));
			continue;
		}
		for (j = 0; j < a->nvalues; j++)
			if (strcmp(a->values[j].text, v.text) == 0)
				break;
		if (j < a->nvalues) {
			sw_err(L, e, ekey, "%s is already a value of this axis", v.text);
			free(v.text);
			continue;
		}
		axis_push(a, &v);
	}
}

/* Every "group.key" of the config schema, for suggestions; free the strings and the array. */
static char **schema_keys(size_t *n)
{
	size_t g, f, k = 0, total = 0;
	char **names;

	for (g = 0; g < gpu_schema.ngroups; g++)
		total += gpu_schema.groups[g].nfields;
	names = xcalloc(total, sizeof *names);
	for (g = 0; g < gpu_schema.ngroups; g++)
		for (f = 0; f < gpu_schema.groups[g].nfields; f++)
			names[k++] = xasprintf("%s.%s", gpu_schema.groups[g].name,
					       gpu_schema.groups[g].fields[f].key);
	*n = k;
	return names;
}

static bool schema_has(char *const *names, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], path) == 0)
			return true;
	return false;
}

/* axes = { group = { key = [ ... ]; }; }: one SET axis per leaf, named by its dotted path. */
static void read_set_axes(struct sw_loader *L, const struct cfg_node *g, const char *prefix,
			  char *const *names, size_t nnames)
{
	size_t i;

	for (i = 0; i < cfg_node_length(g); i++) {
		const struct cfg_node *m = cfg_node_elem(g, i);
		char path[SW_KEY_MAX], key[SW_KEY_MAX];
		const char *sug;

		key_join(path, prefix, cfg_node_name(m));
		key_join(key, "axes", path);
		if (cfg_node_kind(m) == CFG_KIND_GROUP) {
			read_set_axes(L, m, path, names, nnames);
			continue;
		}
		if (!schema_has(names, nnames, path)) {
			sug = text_suggest(path, (const char *const *)names, nnames);
			if (sug != NULL)
				sw_err(L, m, key, "unknown config key (did you mean \"%s\"?)", sug);
			else
				sw_err(L, m, key, "unknown config key");
			continue;
		}
		read_values(L, m, key, axis_add(L->s, path, SWEEP_AXIS_SET), false);
	}
}

/* configs or workloads: a non-empty array or list of strings, each a file that can be read. */
static void read_files(struct sw_loader *L, const struct cfg_node *n, const char *key,
		       struct sweep_axis *a)
{
	size_t i;

	if (n == NULL) {
		sw_err(L, n, key, "required: an array of file names");
		return;
	}
	if (cfg_node_kind(n) == CFG_KIND_STRING) {
		struct sweep_value v;

		node_value(n, &v);
		axis_push(a, &v);
	} else {
		read_values(L, n, key, a, false);
	}
	for (i = 0; i < a->nvalues; i++) {
		char ekey[SW_KEY_MAX];

		key_elem(ekey, key, i);
		if (a->values[i].kind != SWEEP_STRING)
			sw_err(L, cfg_node_elem(n, i), ekey, "expected a file name (a string), got %s",
			       a->values[i].text);
		else if (access(a->values[i].text, R_OK) != 0)
			sw_err(L, cfg_node_elem(n, i) != NULL ? cfg_node_elem(n, i) : n, ekey,
			       "cannot read %s (names are relative to the current directory)",
			       a->values[i].text);
	}
}

static int axis_find(const struct sweep *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->naxes; i++)
		if (strcmp(s->axes[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Reports an unknown axis name, with the closest axis. */
static void unknown_axis(struct sw_loader *L, const struct cfg_node *n, const char *key,
			 const char *name)
{
	const char **names = xcalloc(L->s->naxes, sizeof *names);
	const char *sug;
	size_t i;

	for (i = 0; i < L->s->naxes; i++)
		names[i] = L->s->axes[i].name;
	sug = text_suggest(name, names, L->s->naxes);
	if (sug != NULL)
		sw_err(L, n, key, "%s is not an axis of the sweep (did you mean \"%s\"?)", name, sug);
	else
		sw_err(L, n, key, "%s is not an axis of the sweep", name);
	free(names);
}

/* ---------------------------------------------------------------------------------------------
 * params, zip, exclude, metrics
 */

static void read_params(struct sw_loader *L, const struct cfg_node *g)
{
	size_t i, w;

	if (g == NULL)
		return;
	if (cfg_node_kind(g) != CFG_KIND_GROUP) {
		sw_err(L, g, "params", "expected a group { name = [ values ]; ... }, got %s",
		       cfg_kind_name(cfg_node_kind(g)));
		return;
	}
	for (i = 0; i < cfg_node_length(g); i++) {
		const struct cfg_node *m = cfg_node_elem(g, i);
		const char *name = cfg_node_name(m);
		char key[SW_KEY_MAX];

		key_join(key, "params", name);
		if (strcmp(name, "config") == 0 || strcmp(name, "workload") == 0) {
			sw_err(L, m, key, "%s names an axis already; rename the parameter", name);
			continue;
		}
		for (w = 0; w < L->nwls; w++) {
			const struct workload *wl = L->wls[w];
			int64_t v;

			if (wl != NULL && !workload_param(wl, name, &v)) {
				const char **pn = xcalloc(wl->nparams + 1, sizeof *pn);
				const char *sug;
				size_t k;

				for (k = 0; k < wl->nparams; k++)
					pn[k] = wl->params[k].name;
				sug = text_suggest(name, pn, wl->nparams);
				if (sug != NULL)
					sw_err(L, m, key, "not a parameter of %s (did you mean \"%s\"?)",
					       wl->path, sug);
				else
					sw_err(L, m, key, "not a parameter of %s", wl->path);
				free(pn);
			}
		}
		read_values(L, m, key, axis_add(L->s, name, SWEEP_AXIS_PARAM), true);
	}
}

static void read_zip(struct sw_loader *L, const struct cfg_node *z)
{
	size_t i, j;

	if (z == NULL)
		return;
	if (cfg_node_kind(z) != CFG_KIND_LIST && cfg_node_kind(z) != CFG_KIND_ARRAY) {
		sw_err(L, z, "zip", "expected a list of arrays of axis names, ( [ \"a\", \"b\" ] ), "
		       "got %s", cfg_kind_name(cfg_node_kind(z)));
		return;
	}
	for (i = 0; i < cfg_node_length(z); i++) {
		const struct cfg_node *g = cfg_node_elem(z, i);
		char key[SW_KEY_MAX];
		size_t len = 0, first = 0;
		int nmembers = 0;

		key_elem(key, "zip", i);
		if ((cfg_node_kind(g) != CFG_KIND_ARRAY && cfg_node_kind(g) != CFG_KIND_LIST) ||
		    cfg_node_length(g) < 2) {
			sw_err(L, g, key, "expected an array of two or more axis names");
			continue;
		}
		for (j = 0; j < cfg_node_length(g); j++) {
			const struct cfg_node *e = cfg_node_elem(g, j);
			const char *name = cfg_node_string(e);
			char ekey[SW_KEY_MAX];
			int a;

			key_elem(ekey, key, j);
			if (name == NULL) {
				sw_err(L, e, ekey, "expected an axis name (a string)");
				continue;
			}
			a = axis_find(L->s, name);
			if (a < 0) {
				unknown_axis(L, e, ekey, name);
				continue;
			}
			if (L->s->axes[a].zip >= 0) {
				sw_err(L, e, ekey, "%s is zipped already (zip[%d])", name,
				       L->s->axes[a].zip);
				continue;
			}
			if (nmembers == 0) {
				len = L->s->axes[a].nvalues;
				first = (size_t)a;
			} else if (L->s->axes[a].nvalues != len) {
				sw_err(L, e, ekey, "%s has %zu values, %s %zu: zipped axes need the "
				       "same number", name, L->s->axes[a].nvalues,
				       L->s->axes[first].name, len);
				continue;
			}
			L->s->axes[a].zip = (int)i;
			nmembers++;
		}
	}
}

static void excl_axis(struct sw_loader *L, struct sw_excl *x, const struct cfg_node *m,
		      const char *name, const char *key)
{
	int a = axis_find(L->s, name);
	struct sweep_axis *ax;
	size_t i, n;
	bool list;

	if (a < 0) {
		unknown_axis(L, m, key, name);
		return;
	}
	ax = &L->s->axes[a];
	if (x->match[a] == NULL)
		x->match[a] = xcalloc(ax->nvalues, sizeof **x->match);
	list = cfg_node_kind(m) == CFG_KIND_ARRAY || cfg_node_kind(m) == CFG_KIND_LIST;
	n = list ? cfg_node_length(m) : 1;
	for (i = 0; i < n; i++) {
		const struct cfg_node *e = list ? cfg_node_elem(m, i) : m;
		struct sweep_value v;
		size_t j;

		if (!node_value(e, &v)) {
			sw_err(L, e, key, "expected a value or an array of values, got %s",
			       cfg_kind_name(cfg_node_kind(e)));
			continue;
		}
		for (j = 0; j < ax->nvalues; j++)
			if (strcmp(ax->values[j].text, v.text) == 0)
				break;
		if (j == ax->nvalues)
			sw_err(L, e, key, "%s is not a value of axis %s", v.text, name);
		else
			x->match[a][j] = true;
		free(v.text);
	}
}

static void excl_group(struct sw_loader *L, struct sw_excl *x, const struct cfg_node *g,
		       const char *prefix, const char *key)
{
	size_t i;

	for (i = 0; i < cfg_node_length(g); i++) {
		const struct cfg_node *m = cfg_node_elem(g, i);
		char path[SW_KEY_MAX], mkey[SW_KEY_MAX];

		key_join(path, prefix, cfg_node_name(m));
		key_join(mkey, key, cfg_node_name(m));
		if (cfg_node_kind(m) == CFG_KIND_GROUP)
			excl_group(L, x, m, path, mkey);
		else
			excl_axis(L, x, m, path, mkey);
	}
}

static void read_exclude(struct sw_loader *L, const struct cfg_node *n)
{
	size_t i;

	if (n == NULL)
		return;
	if (cfg_node_kind(n) != CFG_KIND_LIST) {
		sw_err(L, n, "exclude", "expected a list of groups, ( { axis = value; ... } ), got %s",
		       cfg_kind_name(cfg_node_kind(n)));
		return;
	}
	L->excl = xcalloc(cfg_node_length(n), sizeof *L->excl);
	for (i = 0; i < cfg_node_length(n); i++) {
		const struct cfg_node *g = cfg_node_elem(n, i);
		struct sw_excl *x = &L->excl[L->nexcl++];
		char key[SW_KEY_MAX];

		x->match = xcalloc(L->s->naxes, sizeof *x->match);
		key_elem(key, "exclude", i);
		if (cfg_node_kind(g) != CFG_KIND_GROUP || cfg_node_length(g) == 0) {
			sw_err(L, g, key, "expected a group { axis = value; ... }");
			continue;
		}
		excl_group(L, x, g, "", key);
	}
}

static bool metric_ok(const char *m)
{
	size_t i;

	if (m[0] == '\0')
		return false;
	for (i = 0; m[i] != '\0'; i++)
		if (!((m[i] >= 'a' && m[i] <= 'z') || (m[i] >= 'A' && m[i] <= 'Z') ||
		      (m[i] >= '0' && m[i] <= '9') || strchr("_.*?[]-", m[i]) != NULL))
			return false;
	return true;
}

static void read_metrics(struct sw_loader *L, const struct cfg_node *n)
{
	static const char *const dflt[] = { SWEEP_DEFAULT_METRICS };
	size_t i;

	if (n == NULL) {
		for (i = 0; i < sizeof dflt / sizeof dflt[0]; i++) {
			L->s->metrics = xreallocarray(L->s->metrics, i + 1, sizeof *L->s->metrics);
			L->s->metrics[L->s->nmetrics++] = xstrdup(dflt[i]);
		}
		return;
	}
	if ((cfg_node_kind(n) != CFG_KIND_ARRAY && cfg_node_kind(n) != CFG_KIND_LIST) ||
	    cfg_node_length(n) == 0) {
		sw_err(L, n, "metrics", "expected an array of statistic names, [ \"dram.achieved_gbps\","
		       " \"coal.*\" ]");
		return;
	}
	for (i = 0; i < cfg_node_length(n); i++) {
		const struct cfg_node *e = cfg_node_elem(n, i);
		const char *m = cfg_node_string(e);
		char key[SW_KEY_MAX];

		key_elem(key, "metrics", i);
		if (m == NULL || !metric_ok(m)) {
			sw_err(L, e, key, "expected a statistic name or pattern (letters, digits, _ . "
			       "and the wildcards * ? [ ])");
			continue;
		}
		L->s->metrics = xreallocarray(L->s->metrics, L->s->nmetrics + 1,
					      sizeof *L->s->metrics);
		L->s->metrics[L->s->nmetrics++] = xstrdup(m);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Expansion
 */

static int strptr_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void sweep_job_set_id(struct sweep_job *job)
{
	size_t n = job->nset + job->nparam, i, k = 0;
	char **items = xcalloc(n + 1, sizeof *items);
	uint64_t h = TEXT_HASH_INIT;

	for (i = 0; i < job->nset; i++)
		items[k++] = xasprintf("o %s", job->set[i]);
	for (i = 0; i < job->nparam; i++)
		items[k++] = xasprintf("p %s", job->param[i]);
	qsort(items, n, sizeof *items, strptr_cmp);
	h = text_hash(h, "c ", 2);
	h = text_hash(h, job->config, strlen(job->config) + 1);
	h = text_hash(h, "w ", 2);
	h = text_hash(h, job->workload, strlen(job->workload) + 1);
	for (i = 0; i < n; i++) {
		h = text_hash(h, items[i], strlen(items[i]) + 1);
		free(items[i]);
	}
	free(items);
	snprintf(job->id, sizeof job->id, "%012" PRIx64, (uint64_t)(h & 0xffffffffffffull));
}

static bool excluded(const struct sw_loader *L, const size_t *choice)
{
	size_t x, a;

	for (x = 0; x < L->nexcl; x++) {
		bool all = true;

		for (a = 0; a < L->s->naxes && all; a++)
			if (L->excl[x].match[a] != NULL && !L->excl[x].match[a][choice[a]])
				all = false;
		if (all)
			return true;
	}
	return false;
}

static void make_point(struct sweep *s, const size_t *choice)
{
	struct sweep_point *pt;
	size_t a;

	s->points = xreallocarray(s->points, s->npoints + 1, sizeof *s->points);
	pt = &s->points[s->npoints++];
	memset(pt, 0, sizeof *pt);
	pt->choice = xcalloc(s->naxes, sizeof *pt->choice);
	memcpy(pt->choice, choice, s->naxes * sizeof *choice);
	pt->job.set = xcalloc(s->naxes, sizeof *pt->job.set);
	pt->job.param = xcalloc(s->naxes, sizeof *pt->job.param);
	for (a = 0; a < s->naxes; a++) {
		const struct sweep_axis *ax = &s->axes[a];
		const struct sweep_value *v = &ax->values[choice[a]];

		switch (ax->kind) {
		case SWEEP_AXIS_CONFIG:
			pt->job.config = v->text;
			break;
		case SWEEP_AXIS_WORKLOAD:
			pt->job.workload = v->text;
			break;
		case SWEEP_AXIS_SET:
			pt->job.set[pt->job.nset++] = v->kind == SWEEP_STRING
				? xasprintf("%s=\"%s\"", ax->name, v->text)
				: xasprintf("%s=%s", ax->name, v->text);
			break;
		case SWEEP_AXIS_PARAM:
			pt->job.param[pt->job.nparam++] = xasprintf("%s=%s", ax->name, v->text);
			break;
		}
	}
	sweep_job_set_id(&pt->job);
}

/* The odometer: dims[d] lists the axes that move together (one, or a zip group). */
static void expand(struct sw_loader *L)
{
	struct sweep *s = L->s;
	size_t *dim_of = xcalloc(s->naxes, sizeof *dim_of), *len = xcalloc(s->naxes, sizeof *len);
	size_t *ctr = xcalloc(s->naxes, sizeof *ctr), *choice = xcalloc(s->naxes, sizeof *choice);
	size_t ndims = 0, a, b, d, total = 1;

	for (a = 0; a < s->naxes; a++) {
		for (b = 0; b < a; b++)
			if (s->axes[a].zip >= 0 && s->axes[b].zip == s->axes[a].zip)
				break;
		if (b < a) {
			dim_of[a] = dim_of[b];
			continue;
		}
		dim_of[a] = ndims;
		len[ndims++] = s->axes[a].nvalues;
		if (total > SW_MAX_POINTS / s->axes[a].nvalues) {
			sw_err(L, NULL, "axes", "more than %u points", SW_MAX_POINTS);
			goto out;
		}
		total *= s->axes[a].nvalues;
	}
	for (;;) {
		for (a = 0; a < s->naxes; a++)
			choice[a] = ctr[dim_of[a]];
		if (excluded(L, choice))
			s->nexcluded++;
		else
			make_point(s, choice);
		for (d = ndims; d-- > 0;) {
			if (++ctr[d] < len[d])
				break;
			ctr[d] = 0;
		}
		if (d == (size_t)-1)
			break;
	}
	for (a = 0; a < s->npoints; a++)
		for (b = 0; b < a; b++)
			if (strcmp(s->points[a].job.id, s->points[b].job.id) == 0)
				sim_panic("sweep: point ids collide: %s", s->points[a].job.id);
	if (s->npoints == 0)
		sw_err(L, NULL, "exclude", "every one of the %zu points is excluded", s->nexcluded);
out:
	free(dim_of);
	free(len);
	free(ctr);
	free(choice);
}

/* ---------------------------------------------------------------------------------------------
 * Loading
 */

static const char *const sw_keys[] = {
	"configs", "workloads", "axes", "params", "zip", "exclude", "metrics", "timeout_s",
	"max_cycles", "max_host_seconds",
};
#define SW_NKEYS (sizeof sw_keys / sizeof sw_keys[0])

static struct sweep *sw_load(struct cfg *c, const char *path, struct sim_err *err)
{
	const struct cfg_node *root = cfg_root(c), *n;
	struct sw_loader L;
	struct sweep *s = xcalloc(1, sizeof *s);
	size_t i, nerr;

	memset(&L, 0, sizeof L);
	L.s = s;
	L.err = err;
	s->path = xstrdup(path);
	s->timeout_s = SWEEP_DEFAULT_TIMEOUT_S;
	for (i = 0; i < cfg_node_length(root); i++) {
		const struct cfg_node *m = cfg_node_elem(root, i);
		const char *name = cfg_node_name(m), *sug;
		size_t k;

		for (k = 0; k < SW_NKEYS; k++)
			if (strcmp(name, sw_keys[k]) == 0)
				break;
		if (k < SW_NKEYS)
			continue;
		sug = text_suggest(name, sw_keys, SW_NKEYS);
		if (sug != NULL)
			sw_err(&L, m, name, "unknown key (did you mean \"%s\"?)", sug);
		else
			sw_err(&L, m, name, "unknown key");
	}
	nerr = L.nerr;
	read_files(&L, cfg_node_member(root, "configs"), "configs",
		   axis_add(s, "config", SWEEP_AXIS_CONFIG));
	read_files(&L, cfg_node_member(root, "workloads"), "workloads",
		   axis_add(s, "workload", SWEEP_AXIS_WORKLOAD));
	if (L.nerr == nerr) { /* the files are there: load the workloads to check params */
		struct sweep_axis *w = &s->axes[SWEEP_AXIS_WORKLOAD];

		L.wls = xcalloc(w->nvalues, sizeof *L.wls);
		for (i = 0; i < w->nvalues; i++) {
			struct sim_err werr;
			char key[SW_KEY_MAX], buf[SIM_ERR_MSG_MAX + 300];

			L.wls[L.nwls++] = workload_load(w->values[i].text, NULL, 0, &werr);
			if (L.wls[i] == NULL)
				sw_err(&L, cfg_node_elem(cfg_node_member(root, "workloads"), i),
				       key_elem(key, "workloads", i), "%s",
				       sim_err_format(&werr, buf, sizeof buf));
		}
	}
	n = cfg_node_member(root, "axes");
	if (n != NULL && cfg_node_kind(n) != CFG_KIND_GROUP) {
		sw_err(&L, n, "axes", "expected a group { group = { key = [ values ]; }; }, got %s",
		       cfg_kind_name(cfg_node_kind(n)));
	} else if (n != NULL) {
		size_t nnames;
		char **names = schema_keys(&nnames);

		read_set_axes(&L, n, "", names, nnames);
		for (i = 0; i < nnames; i++)
			free(names[i]);
		free(names);
	}
	read_params(&L, cfg_node_member(root, "params"));
	read_zip(&L, cfg_node_member(root, "zip"));
	read_exclude(&L, cfg_node_member(root, "exclude"));
	read_metrics(&L, cfg_node_member(root, "metrics"));
	n = cfg_node_member(root, "timeout_s");
	if (n != NULL && (cfg_node_float(n, &s->timeout_s) != 0 || !(s->timeout_s > 0)))
		sw_err(&L, n, "timeout_s", "expected a number of seconds > 0");
	n = cfg_node_member(root, "max_cycles");
	if (n != NULL) {
		int64_t v;

		if (cfg_node_int(n, &v) != 0 || v <= 0)
			sw_err(&L, n, "max_cycles", "expected a whole number of core cycles > 0");
		else
			s->max_cycles = (uint64_t)v;
	}
	n = cfg_node_member(root, "max_host_seconds");
	if (n != NULL && (cfg_node_float(n, &s->max_host_seconds) != 0 ||
			  !(s->max_host_seconds > 0)))
		sw_err(&L, n, "max_host_seconds", "expected a number of seconds > 0");
	if (L.nerr == 0)
		expand(&L);
	for (i = 0; i < L.nwls; i++)
		workload_free(L.wls[i]);
	free(L.wls);
	for (i = 0; i < L.nexcl; i++) {
		size_t a;

		for (a = 0; a < s->naxes; a++)
			free(L.excl[i].match[a]);
		free(L.excl[i].match);
	}
	free(L.excl);
	if (L.nerr > 0) {
		sweep_free(s);
		return NULL;
	}
	return s;
}

struct sweep *sweep_load(const char *path, struct sim_err *err)
{
	struct cfg *c;
	struct sweep *s;

	if (cfg_load_file(&c, path, err) != 0)
		return NULL;
	s = sw_load(c, path, err);
	cfg_destroy(c);
	return s;
}

struct sweep *sweep_load_string(const char *name, const char *text, struct sim_err *err)
{
	struct cfg *c;
	struct sweep *s;

	if (cfg_load_string(&c, name, text, err) != 0)
		return NULL;
	s = sw_load(c, name, err);
	cfg_destroy(c);
	return s;
}

void sweep_free(struct sweep *s)
{
	size_t i, j;

	if (s == NULL)
		return;
	for (i = 0; i < s->npoints; i++) {
		for (j = 0; j < s->points[i].job.nset; j++)
			free((char *)s->points[i].job.set[j]);
		for (j = 0; j < s->points[i].job.nparam; j++)
			free((char *)s->points[i].job.param[j]);
		free(s->points[i].job.set);
		free(s->points[i].job.param);
		free(s->points[i].choice);
	}
	free(s->points);
	for (i = 0; i < s->naxes; i++) {
		for (j = 0; j < s->axes[i].nvalues; j++)
			free(s->axes[i].values[j].text);
		free(s->axes[i].values);
		free(s->axes[i].name);
	}
	free(s->axes);
	for (i = 0; i < s->nmetrics; i++)
		free(s->metrics[i]);
	free(s->metrics);
	free(s->path);
	free(s);
}

void sweep_write_points(const struct sweep *s, FILE *out)
{
	size_t i, a;

	fprintf(out, "# %s: %zu points", s->path, s->npoints);
	if (s->nexcluded > 0)
		fprintf(out, " (%zu excluded)", s->nexcluded);
	fprintf(out, "; axes");
	for (a = 0; a < s->naxes; a++) {
		fprintf(out, " %s", s->axes[a].name);
		if (s->axes[a].zip >= 0)
			fprintf(out, " (zip %d)", s->axes[a].zip);
	}
	fprintf(out, "\n# id config workload [override=value ...] [param=value ...]\n");
	for (i = 0; i < s->npoints; i++) {
		const struct sweep_point *pt = &s->points[i];

		fprintf(out, "%s %s %s", pt->job.id, pt->job.config, pt->job.workload);
		for (a = 0; a < pt->job.nset; a++)
			fprintf(out, " %s", pt->job.set[a]);
		for (a = 0; a < pt->job.nparam; a++)
			fprintf(out, " %s", pt->job.param[a]);
		fputc('\n', out);
	}
}
