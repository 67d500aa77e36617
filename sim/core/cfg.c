/*
 * cfg.c - libconfig files checked against the units' field tables (contract in cfg.h).
 *
 * Flow: cfg_load_* parses the file into a libconfig tree; cfg_override edits that tree; cfg_read
 * walks the tree once to reject unknown groups and keys, then fills each group's params struct
 * from defaults and settings, checking type and range. Every value, whether it comes from a file,
 * an override or a default in a table, passes through the same two steps: turn it into a
 * struct value, then store_value() checks and stores it. So a default in a table is held to the
 * same rules as a value a user writes.
 *
 * Invariants: the libconfig tree is only read after loading except by cfg_override; params are
 * only written by cfg_read / cfg_defaults.
 *
 * Not done here: checks that span several fields (a cache geometry whose set count is not a power
 * of two, tRC < tRAS + tRP) belong to the unit that owns the fields.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <libconfig.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "cfg_int.h"
#include "log.h"
#include "text.h"

/* At most this many problems are listed; a config with more has bigger trouble. */
#define CFG_MAX_ERRORS 20

/* A value from any source, before it is checked against a field. */
enum value_kind { V_INT, V_FLOAT, V_BOOL, V_STR, V_GROUP, V_ARRAY, V_LIST, V_NONE };

struct value {
	enum value_kind kind;
	int64_t i;
	double d;
	bool b;
	const char *s;
};

/* Problems are collected, not returned one at a time: a user fixes a config in one pass. They
 * are reported in file order (files in order of first mention, then by line). */
struct err_entry {
	char *file;
	int line;     /* 0: no line (sorts after the numbered lines of its file) */
	char *msg;
	size_t rank;  /* of the file, by first mention */
	size_t order; /* found */
};

struct errs {
	struct sim_err *err;
	struct err_entry *v;
	size_t n;
};

/* ---------------------------------------------------------------------------------------------
 * Error collection
 */

static void errs_add(struct errs *e, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void errs_add(struct errs *e, const char *file, int line, const char *fmt, ...)
{
	struct err_entry *x;
	va_list ap;
	size_t i;

	e->v = xreallocarray(e->v, e->n + 1, sizeof *e->v);
	x = &e->v[e->n];
	x->file = xstrdup(file != NULL ? file : "");
	x->line = line;
	x->order = e->n;
	x->rank = e->n;
	/* A config has a handful of problems at most; a linear search is fine. */
	for (i = 0; i < e->n; i++) {
		if (strcmp(e->v[i].file, x->file) == 0) {
			x->rank = e->v[i].rank;
			break;
		}
	}
	e->n++;
	va_start(ap, fmt);
	if (vasprintf(&x->msg, fmt, ap) < 0)
		sim_panic("out of memory");
	va_end(ap);
}

static int errs_cmp(const void *a, const void *b)
{
	const struct err_entry *x = a, *y = b;
	unsigned lx = x->line > 0 ? (unsigned)x->line : UINT_MAX;
	unsigned ly = y->line > 0 ? (unsigned)y->line : UINT_MAX;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Formats the collected problems into e->err (the first one's location in file/line, the others
 * on their own lines in msg) and frees them. Returns 0 if there were none, else -1. */
static int errs_finish(struct errs *e)
{
	struct sim_err *err = e->err;
	size_t i, len = 0;

	if (e->n == 0)
		return 0;
	qsort(e->v, e->n, sizeof *e->v, errs_cmp);
	for (i = 0; i < e->n && err != NULL; i++) {
		const struct err_entry *x = &e->v[i];
		char *dst;
		size_t room;
		int n;

		if (i == 0) {
			sim_err_set(err, x->file, x->line, "%s", x->msg);
			len = strlen(err->msg);
			continue;
		}
		dst = err->msg + len;
		room = sizeof err->msg - len;
		if (i == CFG_MAX_ERRORS) {
			snprintf(dst, room, "\n(%zu more not shown)", e->n - i);
			break;
		}
		if (x->file[0] != '\0' && x->line > 0)
			n = snprintf(dst, room, "\n%s:%d: %s", x->file, x->line, x->msg);
		else if (x->file[0] != '\0')
			n = snprintf(dst, room, "\n%s: %s", x->file, x->msg);
		else
			n = snprintf(dst, room, "\n%s", x->msg);
		if (n > 0)
			len += (size_t)n < room ? (size_t)n : room - 1;
	}
	for (i = 0; i < e->n; i++) {
		free(e->v[i].file);
		free(e->v[i].msg);
	}
	free(e->v);
	e->v = NULL;
	e->n = 0;
	return -1;
}

/* ---------------------------------------------------------------------------------------------
 * Where a setting came from
 */

static const struct cfg_override_rec *override_for(const struct cfg *c, const char *path)
{
	size_t n = strlen(path);
	size_t i;

	/* The last override that set this path, or created it as a parent group. */
	for (i = c->novr; i-- > 0;) {
		const char *p = c->ovr[i].path;

		if (strcmp(p, path) == 0 || (strncmp(p, path, n) == 0 && p[n] == '.'))
			return &c->ovr[i];
	}
	return NULL;
}

void cfg_setting_where(const struct cfg *c, const config_setting_t *s, const char *path,
		       char *file, size_t size, int *line)
{
	const char *src = config_setting_source_file(s);

	if (src == NULL && config_setting_source_line(s) > 0) {
		/* parsed by cfg_load_string: libconfig keeps the line but no file */
		snprintf(file, size, "%s", c->name);
		*line = (int)config_setting_source_line(s);
		return;
	}
	if (src == NULL) {
		const struct cfg_override_rec *o = override_for(c, path);

		if (o != NULL)
			snprintf(file, size, "-o %s", o->text);
		else
			snprintf(file, size, "%s", c->name);
		*line = 0;
		return;
	}
	char *shown = cfg_display_path(c, src);

	snprintf(file, size, "%s", shown);
	free(shown);
	*line = (int)config_setting_source_line(s);
}

/* ---------------------------------------------------------------------------------------------
 * Integer literals: libconfig 1.5 parses `x = 8589934592;` as a 32-bit 0 and says nothing. For
 * an INT setting that came from a file, find its literal on its source line and parse it again.
 */

static struct src_file *source_of(struct cfg *c, const char *src)
{
	struct src_file *f;
	size_t i, n;
	char *p;

	for (i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i].name, src) == 0)
			return &c->files[i];
	c->files = xreallocarray(c->files, c->nfiles + 1, sizeof *c->files);
	f = &c->files[c->nfiles++];
	memset(f, 0, sizeof *f);
	f->name = xstrdup(src);
	if (c->text != NULL && strcmp(src, c->name) == 0) {
		f->buf = xstrdup(c->text);
	} else {
		f->buf = text_read_file(src, NULL);
	}
	if (f->buf == NULL) {
		f->failed = true;
		return f;
	}
	for (n = 1, p = f->buf; *p != '\0'; p++)
		n += *p == '\n';
	f->lines = xcalloc(n, sizeof *f->lines);
	f->lines[0] = f->buf;
	for (n = 1, p = f->buf; *p != '\0'; p++) {
		if (*p == '\n') {
			*p = '\0';
			f->lines[n++] = p + 1;
		}
	}
	f->nlines = n;
	return f;
}

static bool is_ident(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-' || ch == '*';
}

bool cfg_reread_int(struct cfg *c, const config_setting_t *s, int64_t *out, bool *overflow)
{
	const char *src = config_setting_source_file(s);
	const char *name = config_setting_name(s);
	unsigned line = config_setting_source_line(s);
	struct src_file *f;
	long long libval;
	const char *p;
	size_t n;

	*overflow = false;
	if (name == NULL || line == 0)
		return false;
	if (src == NULL)
		src = c->name; /* from cfg_load_string */
	f = source_of(c, src);
	if (f->failed || line > f->nlines)
		return false;
	n = strlen(name);
	/* The setting's literal: the first `name = number` on its line whose low 32 bits are what
	 * libconfig read (so that of two settings of one name on a line, say two array entries'
	 * `elems`, each gets its own), or one too large for 64 bits. */
	libval = config_setting_get_int64(s);
	for (p = f->lines[line - 1]; (p = strstr(p, name)) != NULL; p += n) {
		const char *q = p + n;
		char *end;
		long long v;

		if (p > f->lines[line - 1] && is_ident(p[-1]))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '=' && *q != ':')
			continue;
		q++;
		errno = 0;
		v = strtoll(q, &end, 0);
		if (end == q)
			continue;
		if (errno != ERANGE && (uint32_t)v != (uint32_t)libval)
			continue;
		if (errno == ERANGE)
			*overflow = true;
		*out = v;
		return true;
	}
	return false;
}

/* ---------------------------------------------------------------------------------------------
 * Values
 */

static void setting_value(struct cfg *c, const config_setting_t *s, struct value *v,
			  bool *overflow)
{
	memset(v, 0, sizeof *v);
	*overflow = false;
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT: {
		int64_t lit;

		v->kind = V_INT;
		v->i = config_setting_get_int64(s);
		if (cfg_reread_int(c, s, &lit, overflow))
			v->i = lit;
		break;
	}
	case CONFIG_TYPE_INT64:
		v->kind = V_INT;
		v->i = config_setting_get_int64(s);
		break;
	case CONFIG_TYPE_FLOAT:
		v->kind = V_FLOAT;
		v->d = config_setting_get_float(s);
		break;
	case CONFIG_TYPE_BOOL:
		v->kind = V_BOOL;
		v->b = config_setting_get_bool(s);
		break;
	case CONFIG_TYPE_STRING:
		v->kind = V_STR;
		v->s = config_setting_get_string(s);
		break;
	case CONFIG_TYPE_GROUP:
		v->kind = V_GROUP;
		break;
	case CONFIG_TYPE_ARRAY:
		v->kind = V_ARRAY;
		break;
	case CONFIG_TYPE_LIST:
		v->kind = V_LIST;
		break;
	default:
		v->kind = V_NONE;
		break;
	}
}

/* Parses a value as typed after -o key= or in a table's default. Never fails: text that is no
 * number or boolean is a string (quotes optional). */
static void text_value(const char *text, struct value *v, char *strbuf, size_t size)
{
	char *end;
	size_t n = strlen(text);

	memset(v, 0, sizeof *v);
	if (n >= 2 && text[0] == '"' && text[n - 1] == '"') {
		snprintf(strbuf, size, "%.*s", (int)(n - 2), text + 1);
		v->kind = V_STR;
		v->s = strbuf;
		return;
	}
	if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
		v->kind = V_BOOL;
		v->b = text[0] == 't';
		return;
	}
	if (n > 0) {
		const char *t = text;
		bool has_l = n > 1 && (text[n - 1] == 'L' || text[n - 1] == 'l') &&
			     text[n - 2] >= '0' && text[n - 2] <= '9' &&
			     strchr(text, '.') == NULL;

		errno = 0;
		long long ll = strtoll(t, &end, 0);
		if (end != t && (*end == '\0' || (has_l && end == t + n - 1))) {
			v->kind = V_INT;
			v->i = ll;
			if (errno == ERANGE) {
				/* Out of 64-bit range: keep it as text so the error shows it. */
				snprintf(strbuf, size, "%s", text);
				v->kind = V_STR;
				v->s = strbuf;
			}
			return;
		}
		double d = strtod(t, &end);
		if (end != t && *end == '\0') {
			v->kind = V_FLOAT;
			v->d = d;
			return;
		}
	}
	snprintf(strbuf, size, "%s", text);
	v->kind = V_STR;
	v->s = strbuf;
}

static void value_repr(const struct value *v, char *buf, size_t size)
{
	switch (v->kind) {
	case V_INT:
		snprintf(buf, size, "%" PRId64, v->i);
		break;
	case V_FLOAT:
		snprintf(buf, size, "%g", v->d);
		break;
	case V_BOOL:
		snprintf(buf, size, "%s", v->b ? "true" : "false");
		break;
	case V_STR:
		snprintf(buf, size, "\"%s\"", v->s);
		break;
	case V_GROUP:
		snprintf(buf, size, "a group");
		break;
	case V_ARRAY:
		snprintf(buf, size, "an array");
		break;
	case V_LIST:
		snprintf(buf, size, "a list");
		break;
	default:
		snprintf(buf, size, "nothing");
		break;
	}
}

static void expected_text(const struct cfg_field *f, char *buf, size_t size)
{
	size_t i, len;

	switch (f->type) {
	case CFG_U32:
	case CFG_U64:
	case CFG_I64:
		snprintf(buf, size, "an integer in %" PRId64 "..%" PRId64, f->min, f->max);
		break;
	case CFG_F64:
		snprintf(buf, size, "a number in %g..%g", f->rmin, f->rmax);
		break;
	case CFG_BOOL:
		snprintf(buf, size, "true or false");
		break;
	case CFG_STR:
		snprintf(buf, size, "a string of at most %d characters", CFG_STR_MAX - 1);
		break;
	case CFG_ENUM:
		len = (size_t)snprintf(buf, size, "one of");
		for (i = 0; f->names[i] != NULL && len < size; i++)
			len += (size_t)snprintf(buf + len, size - len, "%s \"%s\"", i ? "," : "",
						f->names[i]);
		break;
	default:
		snprintf(buf, size, "?");
		break;
	}
}

size_t cfg_enum_count(const struct cfg_field *f)
{
	size_t n = 0;

	while (f->names[n] != NULL)
		n++;
	return n;
}

/* Checks v against f and stores it at dst. On failure fills why and returns -1. */
static int store_value(const struct cfg_field *f, const struct value *v, void *dst, char *why,
		       size_t size)
{
	char exp[512], got[256];
	const char *hint = "";
	char hintbuf[CFG_STR_MAX + 32];

	switch (f->type) {
	case CFG_U32:
	case CFG_U64:
	case CFG_I64:
		if (v->kind != V_INT || v->i < f->min || v->i > f->max)
			break;
		if (f->type == CFG_U32)
			*(uint32_t *)dst = (uint32_t)v->i;
		else if (f->type == CFG_U64)
			*(uint64_t *)dst = (uint64_t)v->i;
		else
			*(int64_t *)dst = v->i;
		return 0;
	case CFG_F64: {
		double d;

		if (v->kind == V_INT)
			d = (double)v->i;
		else if (v->kind == V_FLOAT)
			d = v->d;
		else
			break;
		if (!isfinite(d) || d < f->rmin || d > f->rmax)
			break;
		*(double *)dst = d;
		return 0;
	}
	case CFG_BOOL:
		if (v->kind != V_BOOL)
			break;
		*(bool *)dst = v->b;
		return 0;
	case CFG_STR:
		if (v->kind != V_STR || strlen(v->s) >= CFG_STR_MAX)
			break;
		memset(dst, 0, CFG_STR_MAX); /* no stale bytes after the NUL */
		memcpy(dst, v->s, strlen(v->s));
		return 0;
	case CFG_ENUM:
		if (v->kind != V_STR)
			break;
		for (uint32_t i = 0; f->names[i] != NULL; i++) {
			if (strcmp(f->names[i], v->s) == 0) {
				*(uint32_t *)dst = i;
				return 0;
			}
		}
		{
			const char *s = text_suggest(v->s, (const char *const *)f->names,
						     cfg_enum_count(f));

			if (s != NULL) {
				snprintf(hintbuf, sizeof hintbuf, " (did you mean \"%s\"?)", s);
				hint = hintbuf;
			}
		}
		break;
	default:
		break;
	}
	expected_text(f, exp, sizeof exp);
	value_repr(v, got, sizeof got);
	snprintf(why, size, "expected %s, got %s%s", exp, got, hint);
	return -1;
}

/* ---------------------------------------------------------------------------------------------
 * Overrides
 */

static bool valid_path(const char *p, size_t n)
{
	bool start = true;
	size_t i;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++) {
		char ch = p[i];

		if (ch == '.') {
			if (start)
				return false;
			start = true;
			continue;
		}
		/* a letter first, as libconfig requires of a name (config_setting_add refuses
		 * "_x": an override that passed here once crashed on its NULL, found by fuzzing) */
		if (start && !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')))
			return false;
		if (!is_ident(ch) || ch == '*')
			return false;
		start = false;
	}
	return !start;
}

int cfg_override(struct cfg *c, const char *assignment, struct sim_err *err)
{
	const char *eq = strchr(assignment, '=');
	char strbuf[CFG_STR_MAX * 2];
	config_setting_t *parent, *s;
	struct value v;
	char *path, *comp, *save = NULL, *last = NULL;

	if (eq == NULL || !valid_path(assignment, (size_t)(eq - assignment)))
		return sim_err_set(err, NULL, 0,
				   "-o %s: expected group.key=value (for example "
				   "clock.core_mhz=1400)", assignment);
	path = xasprintf("%.*s", (int)(eq - assignment), assignment);
	text_value(eq + 1, &v, strbuf, sizeof strbuf);

	/* Walk (and create) the groups on the way to the key. */
	parent = config_root_setting(&c->lc);
	char *walk = xstrdup(path);
	for (comp = strtok_r(walk, ".", &save); comp != NULL; comp = strtok_r(NULL, ".", &save)) {
		if (last != NULL) {
			s = config_setting_get_member(parent, last);
			if (s == NULL)
				s = config_setting_add(parent, last, CONFIG_TYPE_GROUP);
			if (s == NULL || config_setting_type(s) != CONFIG_TYPE_GROUP) {
				int rc = sim_err_set(err, NULL, 0, "-o %s: %s is not a group in %s",
						     assignment, last, c->name);

				free(walk);
				free(path);
				return rc;
			}
			parent = s;
		}
		last = comp;
	}
	s = config_setting_get_member(parent, last);
	if (s != NULL)
		config_setting_remove(parent, last);
	s = config_setting_add(parent, last, v.kind == V_INT ? CONFIG_TYPE_INT64
			       : v.kind == V_FLOAT ? CONFIG_TYPE_FLOAT
			       : v.kind == V_BOOL ? CONFIG_TYPE_BOOL : CONFIG_TYPE_STRING);
	if (s == NULL) { /* a name libconfig refuses; valid_path should have said so */
		int rc = sim_err_set(err, NULL, 0, "-o %s: %s cannot be set in %s", assignment,
				     path, c->name);

		free(walk);
		free(path);
		return rc;
	}
	switch (v.kind) {
	case V_INT:
		config_setting_set_int64(s, v.i);
		break;
	case V_FLOAT:
		config_setting_set_float(s, v.d);
		break;
	case V_BOOL:
		config_setting_set_bool(s, v.b);
		break;
	default:
		config_setting_set_string(s, v.s);
		break;
	}
	free(walk);
	c->ovr = xreallocarray(c->ovr, c->novr + 1, sizeof *c->ovr);
	c->ovr[c->novr].path = path;
	c->ovr[c->novr].text = xstrdup(assignment);
	c->novr++;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Schema lookups
 */

static const struct cfg_group *find_group(const struct cfg_schema *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->ngroups; i++)
		if (strcmp(s->groups[i].name, name) == 0)
			return &s->groups[i];
	return NULL;
}

static const struct cfg_field *find_field(const struct cfg_group *g, const char *key)
{
	size_t i;

	for (i = 0; i < g->nfields; i++)
		if (strcmp(g->fields[i].key, key) == 0)
			return &g->fields[i];
	return NULL;
}

/* Every "group" and "group.key" the schema knows: the candidates for "did you mean". */
static const char **schema_names(const struct cfg_schema *s, size_t *n)
{
	size_t i, j, k = 0, total = s->ngroups;
	const char **names;

	for (i = 0; i < s->ngroups; i++)
		total += s->groups[i].nfields;
	names = xcalloc(total, sizeof *names);
	for (i = 0; i < s->ngroups; i++) {
		names[k++] = xstrdup(s->groups[i].name);
		for (j = 0; j < s->groups[i].nfields; j++)
			names[k++] = xasprintf("%s.%s", s->groups[i].name,
					       s->groups[i].fields[j].key);
	}
	*n = k;
	return names;
}

static void free_names(const char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free((char *)names[i]);
	free(names);
}

struct known_ctx {
	struct cfg *c;
	const struct cfg_schema *s;
	struct errs *e;
	const char **names;
	size_t nnames;
};

static void report_unknown(struct known_ctx *k, const config_setting_t *st, const char *path,
			   const char *what)
{
	char file[512];
	int line;
	const char *sug = text_suggest(path, k->names, k->nnames);

	cfg_setting_where(k->c, st, path, file, sizeof file, &line);
	if (sug != NULL)
		errs_add(k->e, file, line, "%s: unknown %s (did you mean %s?)", path, what, sug);
	else
		errs_add(k->e, file, line, "%s: unknown %s", path, what);
}

/* True if some schema group is below path ("dram" when "dram.timing" exists). */
static bool has_subgroups(const struct cfg_schema *s, const char *path)
{
	size_t i, n = strlen(path);

	for (i = 0; i < s->ngroups; i++)
		if (strncmp(s->groups[i].name, path, n) == 0 && s->groups[i].name[n] == '.')
			return true;
	return false;
}

static void check_known(struct known_ctx *k, const config_setting_t *g, const char *prefix)
{
	const struct cfg_group *grp = prefix != NULL ? find_group(k->s, prefix) : NULL;
	int i, n = config_setting_length(g);

	for (i = 0; i < n; i++) {
		const config_setting_t *st = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(st);
		char *path = prefix != NULL ? xasprintf("%s.%s", prefix, name) : xstrdup(name);

		if (config_setting_type(st) == CONFIG_TYPE_GROUP) {
			if (find_group(k->s, path) != NULL || has_subgroups(k->s, path))
				check_known(k, st, path);
			else if (grp != NULL && find_field(grp, name) != NULL)
				; /* a key given a group: the type check reports it */
			else
				report_unknown(k, st, path, "group");
		} else if (grp == NULL || find_field(grp, name) == NULL) {
			if (find_group(k->s, path) != NULL) {
				char file[512];
				int line;

				cfg_setting_where(k->c, st, path, file, sizeof file, &line);
				errs_add(k->e, file, line, "%s: expected a group { ... }", path);
			} else {
				report_unknown(k, st, path, "key");
			}
		}
		free(path);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Reading
 */

static int check_field_size(const struct cfg_field *f)
{
	switch (f->type) {
	case CFG_U32:
	case CFG_ENUM:
		return f->size == sizeof(uint32_t) ? 0 : -1;
	case CFG_U64:
	case CFG_I64:
		return f->size == sizeof(uint64_t) ? 0 : -1;
	case CFG_F64:
		return f->size == sizeof(double) ? 0 : -1;
	case CFG_BOOL:
		return f->size == sizeof(bool) ? 0 : -1;
	case CFG_STR:
		return f->size == CFG_STR_MAX ? 0 : -1;
	default:
		return -1;
	}
}

int cfg_defaults(const struct cfg_schema *s, void *params, struct sim_err *err)
{
	struct errs e = { .err = err };
	char strbuf[CFG_STR_MAX * 2], why[1024];
	size_t i, j;

	for (i = 0; i < s->ngroups; i++) {
		const struct cfg_group *g = &s->groups[i];
		char *dot = strrchr(g->name, '.');

		if (find_group(s, g->name) != g)
			errs_add(&e, NULL, 0, "schema: group %s declared twice", g->name);
		if (dot != NULL) {
			char *parent = xasprintf("%.*s", (int)(dot - g->name), g->name);
			const struct cfg_group *pg = find_group(s, parent);

			if (pg == NULL || pg > g)
				errs_add(&e, NULL, 0, "schema: group %s needs group %s before it",
					 g->name, parent);
			free(parent);
		}
		for (j = 0; j < g->nfields; j++) {
			const struct cfg_field *f = &g->fields[j];
			char *dst = (char *)params + g->offset + f->offset;
			struct value v;

			if (find_field(g, f->key) != f)
				errs_add(&e, NULL, 0, "schema: %s.%s declared twice", g->name, f->key);
			if (f->type >= CFG_TYPE_COUNT || check_field_size(f) != 0 ||
			    (f->type == CFG_ENUM && f->names == NULL)) {
				errs_add(&e, NULL, 0, "schema: %s.%s: field size %zu does not fit "
					 "its type", g->name, f->key, f->size);
				continue;
			}
			memset(dst, 0, f->size);
			if (f->dflt == NULL)
				continue;
			text_value(f->dflt, &v, strbuf, sizeof strbuf);
			if (store_value(f, &v, dst, why, sizeof why) != 0)
				errs_add(&e, NULL, 0, "schema: %s.%s: default %s: %s", g->name, f->key,
					 f->dflt, why);
		}
	}
	return errs_finish(&e);
}

int cfg_read(struct cfg *c, const struct cfg_schema *s, void *params, struct sim_err *err)
{
	struct errs e = { .err = err };
	struct known_ctx k = { .c = c, .s = s, .e = &e };
	char why[1024], file[512];
	size_t i, j;
	int line;

	if (cfg_defaults(s, params, err) != 0)
		return -1;
	k.names = schema_names(s, &k.nnames);
	check_known(&k, config_root_setting(&c->lc), NULL);
	free_names(k.names, k.nnames);

	for (i = 0; i < s->ngroups; i++) {
		const struct cfg_group *g = &s->groups[i];
		const config_setting_t *gs = config_lookup(&c->lc, g->name);

		if (gs != NULL && config_setting_type(gs) != CONFIG_TYPE_GROUP)
			continue; /* reported by check_known; its keys would only add noise */
		for (j = 0; j < g->nfields; j++) {
			const struct cfg_field *f = &g->fields[j];
			char *dst = (char *)params + g->offset + f->offset;
			const config_setting_t *st =
				gs != NULL ? config_setting_get_member(gs, f->key) : NULL;
			char path[512];
			struct value v;
			bool overflow;

			snprintf(path, sizeof path, "%s.%s", g->name, f->key);
			if (st == NULL) {
				if (f->dflt == NULL) {
					const char *at = gs != NULL ? file : c->name;

					line = 0;
					if (gs != NULL)
						cfg_setting_where(c, gs, g->name, file, sizeof file, &line);
					errs_add(&e, at, line, "%s: required key missing (%s)", path,
						 f->desc);
				}
				continue;
			}
			cfg_setting_where(c, st, path, file, sizeof file, &line);
			setting_value(c, st, &v, &overflow);
			if (overflow) {
				errs_add(&e, file, line, "%s: integer does not fit in 64 bits", path);
				continue;
			}
			if (store_value(f, &v, dst, why, sizeof why) != 0)
				errs_add(&e, file, line, "%s: %s", path, why);
		}
	}
	return errs_finish(&e);
}

bool cfg_is_set(const struct cfg *c, const char *path)
{
	return config_lookup(&c->lc, path) != NULL;
}

bool cfg_where(const struct cfg *c, const char *path, char *file, size_t size, int *line)
{
	const config_setting_t *s = config_lookup(&c->lc, path);

	*line = 0;
	if (s == NULL) {
		if (size > 0)
			file[0] = '\0';
		return false;
	}
	cfg_setting_where(c, s, path, file, size, line);
	return *line > 0;
}

void cfg_origin(const struct cfg *c, const char *path, char *buf, size_t size)
{
	char file[PATH_MAX + 64];
	int line;

	if (cfg_where(c, path, file, sizeof file, &line))
		snprintf(buf, size, "%s:%d", file, line);
	else
		snprintf(buf, size, "%s", file[0] != '\0' ? file : "default");
}
