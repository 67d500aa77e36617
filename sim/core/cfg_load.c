/*
 * cfg_load.c - reading config files into one libconfig tree (contract in cfg.h): includes
 * resolved against the including file's folder, layers (`base = "..."`), and libconfig's parse
 * errors made specific.
 *
 * Why gmsim expands @include itself: libconfig 1.5 (Debian 12's) opens an include as
 * include_dir + "/" + name, one folder for every file, so an included file's own includes were
 * looked for in the top file's folder and an absolute name never opened; 1.7's include hook is
 * not in Debian 12. So each file is read here, its `@include "name"` lines (libconfig's rule:
 * first on a line, outside comments and strings) replaced by the named file's lines, and the
 * whole parsed once by libconfig with a map from each line of the whole to its file and line.
 * After parsing, every setting's source file and line are set from that map, so errors, the
 * integer re-reading of cfg.c and `--origin` name the real file. Only that directive is
 * handled; every other token is libconfig's.
 *
 * Layers: a GPU config whose top level has `base = "file"` is read as that file (itself possibly
 * a layer) with this file's settings laid over it, key by key inside groups: a scalar replaces
 * the base's, a group merges into the base's group. Settings keep their own file and line, so an
 * unknown key or a bad value in a layer is reported at the layer's line.
 */
#include "config.h"

#include <errno.h>
#include <libconfig.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg.h"
#include "cfg_int.h"
#include "log.h"
#include "text.h"

#ifndef GMSIM_CONFIG_DIR
#define GMSIM_CONFIG_DIR "configs"
#endif

/* Nesting limit of includes (libconfig's own) and of bases. */
#define CFG_INCLUDE_DEPTH_MAX 10

/* ---------------------------------------------------------------------------------------------
 * Paths
 */

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

const char *cfg_shipped_dir(void)
{
	const char *e = getenv("GMSIM_CONFIG_DIR");

	return e != NULL && e[0] != '\0' ? e : GMSIM_CONFIG_DIR;
}

/* path as messages show it: the top file of c as its user named it; any other without "."
 * components and doubled slashes, and "a/.." folded where a is a folder that is not a symbolic
 * link (through a link, ".." is the link target's parent, so it stays). */
char *cfg_display_path(const struct cfg *c, const char *path)
{
	char *out;
	size_t len = 0, root = 0;
	const char *p = path;

	if (c != NULL && strcmp(path, c->name) == 0)
		return xstrdup(path); /* the top file as the user named it */
	out = xmalloc(strlen(path) + 2);

	if (path[0] == '/')
		out[len++] = '/';
	root = len;
	while (*p != '\0') {
		size_t n, start;
		struct stat st;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n == 1 && p[0] == '.') {
			p += n;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.' && len > root) {
			for (start = len; start > root && out[start - 1] != '/'; start--)
				;
			out[len] = '\0';
			if (strcmp(out + start, "..") != 0 && lstat(out, &st) == 0 &&
			    S_ISDIR(st.st_mode)) {
				len = start > root ? start - 1 : root;
				p += n;
				continue;
			}
		}
		if (len > root)
			out[len++] = '/';
		memcpy(out + len, p, n);
		len += n;
		p += n;
	}
	if (len == 0)
		out[len++] = '.';
	out[len] = '\0';
	return out;
}

/* The shipped folder as messages show it: its real path, relative to the current directory when
 * it lies inside it ("configs", not "/home/u/gmsim/build/../configs"). */
static char *shown_shipped(const char *shipped)
{
	char cwd[PATH_MAX], real[PATH_MAX];
	const char *dir = realpath(shipped, real) != NULL ? real : shipped;
	size_t n;

	if (dir[0] == '/' && getcwd(cwd, sizeof cwd) != NULL) {
		n = strlen(cwd);
		if (strncmp(dir, cwd, n) == 0 && dir[n] == '/' && dir[n + 1] != '\0')
			return cfg_display_path(NULL, dir + n + 1);
	}
	return cfg_display_path(NULL, dir);
}

static char *join(const char *dir, const char *name)
{
	if (strcmp(dir, ".") == 0)
		return xstrdup(name);
	return xasprintf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
}

/* Whether two folders are the same one (both must exist). */
static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * The file that an @include or a base `name` written in a file of folder `dir` means: an
 * absolute name as it is; else dir/name, then the shipped configs folder's name. Returns the
 * path to open, or NULL with `looked` saying where it looked ("a/ and configs/").
 */
static char *find_file(const char *dir, const char *name, char *looked, size_t size)
{
	const char *shipped = cfg_shipped_dir();
	char *first, *second, *a, *b;
	struct stat st;

	looked[0] = '\0';
	if (name[0] == '/') {
		if (stat(name, &st) == 0)
			return xstrdup(name);
		snprintf(looked, size, "%s", strerror(errno));
		return NULL;
	}
	first = join(dir, name);
	if (stat(first, &st) == 0)
		return first;
	free(first);
	a = cfg_display_path(NULL, dir);
	if (same_dir(dir, shipped)) {
		snprintf(looked, size, "looked in %s/", a);
		free(a);
		return NULL;
	}
	b = shown_shipped(shipped); /* opens the same file, and reads better in messages */
	second = join(b, name);
	if (stat(second, &st) == 0) {
		free(a);
		free(b);
		return second;
	}
	free(second);
	snprintf(looked, size, "looked in %s/ and %s/", a, b);
	free(a);
	free(b);
	return NULL;
}

/* An error if text (len bytes, file shown) is not text: libconfig would stop at a NUL. */
static int check_text(const char *shown, const char *text, size_t len, struct sim_err *err)
{
	size_t bin = text_find_binary(text, len);
	unsigned bl, bc;

	if (bin >= len)
		return 0;
	text_line_col(text, bin, &bl, &bc);
	return sim_err_set(err, shown, (int)bl, "binary data (byte 0x%02x at column %u): not a "
			   "text file", (unsigned)(unsigned char)text[bin], bc);
}

/* The index of source name in c->srcs, added if new. Settings point at these strings. */
static uint32_t add_src(struct cfg *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nsrcs; i++)
		if (strcmp(c->srcs[i], name) == 0)
			return (uint32_t)i;
	c->srcs = xreallocarray(c->srcs, c->nsrcs + 1, sizeof *c->srcs);
	c->srcs[c->nsrcs] = xstrdup(name);
	return (uint32_t)c->nsrcs++;
}

/* ---------------------------------------------------------------------------------------------
 * Include expansion
 */

struct src_line {
	uint32_t src;  /* index in c->srcs */
	uint32_t line; /* 1-based */
};

struct expand {
	struct cfg *c;
	char *out;              /* the whole text libconfig parses */
	size_t len, cap;
	struct src_line *map;   /* map[i]: where line i + 1 of out came from */
	size_t nmap, mapcap;
	char *stack[CFG_INCLUDE_DEPTH_MAX + 1]; /* real paths of the files being read */
	int depth;
	struct sim_err *err;
};

static void emit_line(struct expand *x, const char *s, size_t n, uint32_t src, uint32_t line)
{
	if (x->cap - x->len < n + 2) {
		x->cap = (x->cap + n + 2) * 2;
		x->out = xrealloc(x->out, x->cap);
	}
	memcpy(x->out + x->len, s, n);
	x->len += n;
	x->out[x->len++] = '\n';
	x->out[x->len] = '\0';
	if (x->nmap == x->mapcap) {
		x->mapcap = x->mapcap * 2 + 64;
		x->map = xreallocarray(x->map, x->mapcap, sizeof *x->map);
	}
	x->map[x->nmap].src = src;
	x->map[x->nmap].line = line;
	x->nmap++;
}

static int expand_text(struct expand *x, uint32_t src, const char *text);

/* The file of `@include "name"` on line `line` of source src, expanded in place. */
static int include(struct expand *x, uint32_t src, uint32_t line, const char *name)
{
	struct cfg *c = x->c;
	char *shown = cfg_display_path(c, c->srcs[src]);
	char *dir = dir_of(c->srcs[src]);
	char looked[2 * PATH_MAX + 64];
	char *path = find_file(dir, name, looked, sizeof looked);
	char real[PATH_MAX];
	struct stat st;
	char *text;
	size_t len;
	int rc = 0, i;

	free(dir);
	if (path == NULL) {
		if (name[0] == '/')
			rc = sim_err_set(x->err, shown, (int)line, "cannot open include file \"%s\": %s",
					 name, looked);
		else
			rc = sim_err_set(x->err, shown, (int)line, "cannot open include file \"%s\" "
					 "(%s)", name, looked);
		goto out;
	}
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = sim_err_set(x->err, shown, (int)line, "cannot include \"%s\": not a regular file",
				 name);
		goto out;
	}
	if (realpath(path, real) == NULL)
		snprintf(real, sizeof real, "%s", path);
	for (i = 0; i < x->depth; i++) {
		if (strcmp(x->stack[i], real) == 0) {
			rc = sim_err_set(x->err, shown, (int)line, "include loop: \"%s\" is already "
					 "being read (it includes itself, directly or through other "
					 "files)", name);
			goto out;
		}
	}
	if (x->depth >= CFG_INCLUDE_DEPTH_MAX) {
		rc = sim_err_set(x->err, shown, (int)line, "cannot include \"%s\": includes nested "
				 "more than %d deep", name, CFG_INCLUDE_DEPTH_MAX);
		goto out;
	}
	text = text_read_file(path, &len);
	if (text == NULL) {
		rc = sim_err_set(x->err, shown, (int)line, "cannot open include file \"%s\": %s",
				 name, strerror(errno));
		goto out;
	}
	{
		char *ishown = cfg_display_path(c, path);

		rc = check_text(ishown, text, len, x->err);
		free(ishown);
		if (rc != 0) {
			free(text);
			goto out;
		}
	}
	x->stack[x->depth++] = xstrdup(real);
	rc = expand_text(x, add_src(c, path), text);
	free(x->stack[--x->depth]);
	free(text);
out:
	free(path);
	free(shown);
	return rc;
}

/*
 * Appends text (source src) to x->out, line by line, with its @include lines replaced by the
 * files they name. Tracks libconfig's lexer state across lines (block comments, strings, which
 * may span lines) so that an @include inside either is not one. A string still open at the end
 * of a file is an error here: libconfig 1.5 leaks its buffer on it (doc/fuzzing.md).
 */
static int expand_text(struct expand *x, uint32_t src, const char *text)
{
	const char *p = text;
	uint32_t line = 1, str_line = 0;
	bool comment = false;

	while (*p != '\0') {
		const char *eol = strchr(p, '\n');
		size_t n = eol != NULL ? (size_t)(eol - p) : strlen(p), i = 0;

		if (!comment && str_line == 0) {
			const char *q = p + strspn(p, " \t");

			if (strncmp(q, "@include", 8) == 0 && (q[8] == ' ' || q[8] == '\t')) {
				const char *name = q + 8 + strspn(q + 8, " \t");
				size_t k = *name == '"' ? strcspn(name + 1, "\"\n") : 0;
				char *nm;
				int rc;

				if (*name != '"' || name[1 + k] != '"') {
					char *shown = cfg_display_path(x->c, x->c->srcs[src]);

					rc = sim_err_set(x->err, shown, (int)line, "@include: expected "
							 "a file name in double quotes");
					free(shown);
					return rc;
				}
				nm = xasprintf("%.*s", (int)k, name + 1);
				rc = include(x, src, line, nm);
				free(nm);
				if (rc != 0)
					return rc;
				/* The rest of the line follows the included text, as libconfig has it. */
				i = (size_t)(name + 2 + k - p);
				p += i;
				n -= i;
				i = 0;
			}
		}
		for (i = 0; i < n; i++) {
			char ch = p[i];

			if (comment) {
				if (ch == '*' && i + 1 < n && p[i + 1] == '/') {
					comment = false;
					i++;
				}
			} else if (str_line != 0) {
				if (ch == '\\' && i + 1 < n)
					i++;
				else if (ch == '"')
					str_line = 0;
			} else if (ch == '#' || (ch == '/' && i + 1 < n && p[i + 1] == '/')) {
				break;
			} else if (ch == '/' && i + 1 < n && p[i + 1] == '*') {
				comment = true;
				i++;
			} else if (ch == '"') {
				str_line = line;
			}
		}
		emit_line(x, p, n, src, line);
		if (eol == NULL)
			break;
		p = eol + 1;
		line++;
	}
	if (str_line != 0) {
		char *shown = cfg_display_path(x->c, x->c->srcs[src]);
		int rc = sim_err_set(x->err, shown, (int)str_line, "unterminated string: the \" "
				     "opened on this line has no closing \"");

		free(shown);
		return rc;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Parse errors
 */

/* Copies line `line` (1-based) of text into out, trimmed; empty if there is no such line. */
static void line_of(const char *text, int line, char *out, size_t size)
{
	const char *p = text;
	size_t n;
	int l;

	out[0] = '\0';
	for (l = 1; p != NULL && l < line; l++) {
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	if (p == NULL || line < 1)
		return;
	while (*p == ' ' || *p == '\t')
		p++;
	n = strcspn(p, "\n");
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
		n--;
	snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), p);
}

/*
 * Why a text that libconfig found to end too early does: the innermost string, group, list or
 * array still open at the end (with the line of the whole that opened it), in *line and *open
 * ('"' for a string). Comments and strings are skipped as libconfig's scanner skips them.
 * Returns false if nothing is open.
 */
static bool open_at_end(const char *text, int *open_line, char *open)
{
	char stack[64];
	int lines[64];
	size_t depth = 0;
	int line = 1, str_line = 0;
	const char *p;

	for (p = text; *p != '\0'; p++) {
		if (*p == '\n')
			line++;
		if (str_line != 0) {
			if (*p == '\\' && p[1] != '\0')
				p++;
			else if (*p == '"')
				str_line = 0;
			continue;
		}
		if (*p == '#' || (*p == '/' && p[1] == '/')) {
			p += strcspn(p, "\n");
			if (*p == '\0')
				break;
			line++;
		} else if (*p == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			for (p += 2; *p != '\0' && p != e; p++)
				line += *p == '\n';
			if (*p == '\0')
				break;
			p++;
		} else if (*p == '"') {
			str_line = line;
		} else if (*p == '{' || *p == '(' || *p == '[') {
			if (depth < sizeof stack) {
				stack[depth] = *p;
				lines[depth] = line;
			}
			depth++;
		} else if ((*p == '}' || *p == ')' || *p == ']') && depth > 0) {
			depth--;
		}
	}
	if (str_line != 0) {
		*open_line = str_line;
		*open = '"';
		return true;
	}
	if (depth == 0)
		return false;
	if (depth > sizeof stack)
		depth = sizeof stack;
	*open_line = lines[depth - 1];
	*open = stack[depth - 1];
	return true;
}

/* Source and line of line `line` (1-based) of the whole; the last line for one past the end. */
static struct src_line where_of(const struct expand *x, int line)
{
	struct src_line none = { 0, (uint32_t)(line > 0 ? line : 0) };

	if (x->nmap == 0)
		return none;
	if (line < 1)
		line = 1;
	if ((size_t)line > x->nmap)
		line = (int)x->nmap;
	return x->map[line - 1];
}

/* libconfig's parse errors, made specific: which file, which key, which text. */
static int parse_error(struct expand *x, struct sim_err *err)
{
	struct cfg *c = x->c;
	const char *why = config_error_text(&c->lc);
	int line = config_error_line(&c->lc);
	struct src_line at_src = where_of(x, line);
	char *shown = cfg_display_path(c, c->srcs[at_src.src]);
	char at[256];
	size_t bin;
	int rc;

	bin = text_find_binary(x->out, x->len);
	line_of(x->out, line, at, sizeof at);
	if (bin < x->len) {
		unsigned bl, bc;
		struct src_line b;
		char *bshown;

		text_line_col(x->out, bin, &bl, &bc);
		b = where_of(x, (int)bl);
		bshown = cfg_display_path(c, c->srcs[b.src]);
		rc = sim_err_set(err, bshown, (int)b.line, "binary data (byte 0x%02x at column %u): "
				 "not a text file", (unsigned)(unsigned char)x->out[bin], bc);
		free(bshown);
	} else if (strcmp(why, "syntax error") == 0 && (size_t)line > x->nmap) {
		struct src_line last = where_of(x, (int)x->nmap);
		int open_line;
		char open;

		free(shown);
		shown = cfg_display_path(c, c->srcs[last.src]);
		if (open_at_end(x->out, &open_line, &open)) {
			struct src_line o = where_of(x, open_line);
			char what[PATH_MAX + 64];

			if (o.src == last.src)
				snprintf(what, sizeof what, "line %u", o.line);
			else {
				char *os = cfg_display_path(c, c->srcs[o.src]);

				snprintf(what, sizeof what, "%s:%u", os, o.line);
				free(os);
			}
			if (open == '"')
				rc = sim_err_set(err, shown, (int)last.line, "syntax error: the file ends "
						 "early: the string opened on %s is not closed "
						 "(truncated?)", what);
			else
				rc = sim_err_set(err, shown, (int)last.line, "syntax error: the file ends "
						 "early: the \"%c\" opened on %s is not closed "
						 "(truncated?)", open, what);
		} else {
			rc = sim_err_set(err, shown, (int)last.line, "syntax error: the file ends early "
					 "(truncated?)");
		}
	} else if (strcmp(why, "duplicate setting name") == 0) {
		size_t n = strcspn(at, " \t=:");

		/* With includes, the likely cause is a file that includes a config to change it. */
		rc = sim_err_set(err, shown, (int)at_src.line, "%.*s: duplicate key (already set in "
				 "this group%s)", (int)n, at, c->nsrcs > 1 ? "; to change values of "
				 "an included config, name it as the base instead: base = \"file\";"
				 : "");
	} else if (at[0] != '\0') {
		rc = sim_err_set(err, shown, (int)at_src.line, "%s at or before \"%s\"", why, at);
	} else {
		rc = sim_err_set(err, shown, (int)at_src.line, "%s", why);
	}
	free(shown);
	return rc;
}

/* Every setting's source file and line: from the line of the whole to the file's own. */
static void set_sources(struct cfg *c, const struct expand *x, config_setting_t *s)
{
	unsigned i, n;

	if (s->line > 0 && s->line <= x->nmap) {
		const struct src_line *w = &x->map[s->line - 1];

		s->file = c->srcs[w->src];
		s->line = w->line;
	}
	if (config_setting_is_aggregate(s)) {
		n = (unsigned)config_setting_length(s);
		for (i = 0; i < n; i++)
			set_sources(c, x, config_setting_get_elem(s, i));
	}
}

/* ---------------------------------------------------------------------------------------------
 * Loading one file
 */

static struct cfg *cfg_new(const char *name)
{
	struct cfg *c = xcalloc(1, sizeof *c);

	config_init(&c->lc);
	c->name = xstrdup(name);
	add_src(c, name);
	return c;
}

/* Parses text, the contents of c->name, with its includes. */
static int load_text(struct cfg *c, const char *text, struct sim_err *err)
{
	struct expand x = { .c = c, .err = err };
	char real[PATH_MAX];
	int rc = 0;

	if (realpath(c->name, real) == NULL)
		snprintf(real, sizeof real, "%s", c->name);
	x.stack[x.depth++] = xstrdup(real);
	if (expand_text(&x, 0, text) != 0) {
		rc = -1;
	} else if (config_read_string(&c->lc, x.out != NULL ? x.out : "") != CONFIG_TRUE) {
		rc = parse_error(&x, err);
	} else {
		set_sources(c, &x, config_root_setting(&c->lc));
	}
	free(x.stack[0]);
	free(x.out);
	free(x.map);
	return rc;
}

int cfg_load_file(struct cfg **out, const char *path, struct sim_err *err)
{
	struct stat st;
	struct cfg *c;
	char *text;
	size_t len;

	*out = NULL;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return sim_err_set(err, path, 0, "cannot open: Is a directory");
	text = text_read_file(path, &len);
	if (text == NULL)
		return sim_err_set(err, path, 0, "cannot open: %s", strerror(errno));
	if (check_text(path, text, len, err) != 0) {
		free(text);
		return -1;
	}
	c = cfg_new(path);
	if (load_text(c, text, err) != 0) {
		free(text);
		cfg_destroy(c);
		return -1;
	}
	free(text);
	*out = c;
	return 0;
}

int cfg_load_string(struct cfg **out, const char *name, const char *text, struct sim_err *err)
{
	struct cfg *c = cfg_new(name);

	*out = NULL;
	c->text = xstrdup(text);
	if (load_text(c, text, err) != 0) {
		cfg_destroy(c);
		return -1;
	}
	*out = c;
	return 0;
}

void cfg_destroy(struct cfg *c)
{
	size_t i;

	if (c == NULL)
		return;
	config_destroy(&c->lc);
	for (i = 0; i < c->novr; i++) {
		free(c->ovr[i].path);
		free(c->ovr[i].text);
	}
	free(c->ovr);
	for (i = 0; i < c->nfiles; i++) {
		free(c->files[i].name);
		free(c->files[i].buf);
		free(c->files[i].lines);
	}
	free(c->files);
	for (i = 0; i < c->nsrcs; i++)
		free(c->srcs[i]);
	free(c->srcs);
	free(c->text);
	free(c->name);
	free(c);
}

const char *cfg_name(const struct cfg *c)
{
	return c->name;
}

/* ---------------------------------------------------------------------------------------------
 * Layers
 */

/* A copy of setting m as member `name` (NULL in a list or array) of parent, in c's tree, with
 * m's source file and line. */
static void copy_setting(struct cfg *c, config_setting_t *parent, const char *name,
			 const config_setting_t *m)
{
	config_setting_t *n = config_setting_add(parent, name, (int)config_setting_type(m));
	unsigned i, len;

	SIM_ASSERT(n != NULL);
	switch (config_setting_type(m)) {
	case CONFIG_TYPE_INT:
		config_setting_set_int(n, config_setting_get_int(m));
		break;
	case CONFIG_TYPE_INT64:
		config_setting_set_int64(n, config_setting_get_int64(m));
		break;
	case CONFIG_TYPE_FLOAT:
		config_setting_set_float(n, config_setting_get_float(m));
		break;
	case CONFIG_TYPE_BOOL:
		config_setting_set_bool(n, config_setting_get_bool(m));
		break;
	case CONFIG_TYPE_STRING:
		config_setting_set_string(n, config_setting_get_string(m));
		break;
	default:
		len = (unsigned)config_setting_length(m);
		for (i = 0; i < len; i++) {
			const config_setting_t *e = config_setting_get_elem(m, i);

			copy_setting(c, n, config_setting_type(m) == CONFIG_TYPE_GROUP
				     ? config_setting_name(e) : NULL, e);
		}
		break;
	}
	n->line = m->line;
	n->file = NULL;
	if (m->file != NULL) {
		uint32_t k = add_src(c, m->file); /* may move c->srcs: index it after */

		n->file = c->srcs[k];
	}
}

/* Lays group src over group dst (of c's tree): key by key, groups merged, anything else
 * replaced. `skip` names a member of src not to copy (the top level's base). */
static void merge(struct cfg *c, config_setting_t *dst, const config_setting_t *src,
		  const char *skip)
{
	unsigned i, len = (unsigned)config_setting_length(src);

	for (i = 0; i < len; i++) {
		const config_setting_t *m = config_setting_get_elem(src, i);
		const char *name = config_setting_name(m);
		config_setting_t *d = config_setting_get_member(dst, name);

		if (skip != NULL && strcmp(name, skip) == 0)
			continue;
		if (d != NULL && config_setting_type(d) == CONFIG_TYPE_GROUP &&
		    config_setting_type(m) == CONFIG_TYPE_GROUP) {
			merge(c, d, m, NULL);
			continue;
		}
		if (d != NULL)
			config_setting_remove(dst, name);
		copy_setting(c, dst, name, m);
	}
}

#define CFG_BASE_KEY "base"

static int load_layer(struct cfg **out, const char *path, char **chain, int depth,
		      struct sim_err *err)
{
	const config_setting_t *b;
	struct cfg *c, *base = NULL;
	char looked[2 * PATH_MAX + 64], real[PATH_MAX];
	char *shown, *dir, *bpath;
	const char *name;
	struct stat st;
	int i, rc = -1;

	*out = NULL;
	if (cfg_load_file(&c, path, err) != 0)
		return -1;
	b = config_setting_get_member(config_root_setting(&c->lc), CFG_BASE_KEY);
	if (b == NULL) {
		*out = c;
		return 0;
	}
	shown = cfg_display_path(c, b->file != NULL ? b->file : path);
	name = config_setting_get_string(b);
	if (name == NULL || name[0] == '\0') {
		char v[128];

		cfg_node_repr((const struct cfg_node *)(const void *)b, v, sizeof v);
		rc = sim_err_set(err, shown, (int)b->line, CFG_BASE_KEY ": expected a string naming "
				 "the config this file changes (base = \"a100-80gb.cfg\";), got %s",
				 v);
		goto out;
	}
	dir = dir_of(path);
	bpath = find_file(dir, name, looked, sizeof looked);
	free(dir);
	if (bpath == NULL) {
		if (name[0] == '/')
			rc = sim_err_set(err, shown, (int)b->line, CFG_BASE_KEY ": cannot open \"%s\": "
					 "%s", name, looked);
		else
			rc = sim_err_set(err, shown, (int)b->line, CFG_BASE_KEY ": cannot open \"%s\" "
					 "(%s)", name, looked);
		goto out;
	}
	if (stat(bpath, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = sim_err_set(err, shown, (int)b->line, CFG_BASE_KEY ": \"%s\" is not a regular "
				 "file", name);
		free(bpath);
		goto out;
	}
	if (realpath(bpath, real) == NULL)
		snprintf(real, sizeof real, "%s", bpath);
	for (i = 0; i < depth; i++) {
		if (strcmp(chain[i], real) == 0) {
			rc = sim_err_set(err, shown, (int)b->line, CFG_BASE_KEY ": loop: \"%s\" is "
					 "already a layer of this config (a base of itself, "
					 "directly or through other bases)", name);
			free(bpath);
			goto out;
		}
	}
	if (depth >= CFG_INCLUDE_DEPTH_MAX) {
		rc = sim_err_set(err, shown, (int)b->line, CFG_BASE_KEY ": bases nested more than %d "
				 "deep", CFG_INCLUDE_DEPTH_MAX);
		free(bpath);
		goto out;
	}
	chain[depth] = xstrdup(real);
	rc = load_layer(&base, bpath, chain, depth + 1, err);
	free(chain[depth]);
	free(bpath);
	if (rc != 0)
		goto out;
	merge(base, config_root_setting(&base->lc), config_root_setting(&c->lc), CFG_BASE_KEY);
	free(base->name);
	base->name = xstrdup(c->name);
	*out = base;
	base = NULL;
out:
	free(shown);
	cfg_destroy(c);
	cfg_destroy(base);
	return rc;
}

int cfg_load_layered(struct cfg **out, const char *path, struct sim_err *err)
{
	char *chain[CFG_INCLUDE_DEPTH_MAX + 1];
	char real[PATH_MAX];
	int rc;

	if (realpath(path, real) == NULL)
		snprintf(real, sizeof real, "%s", path);
	chain[0] = xstrdup(real);
	rc = load_layer(out, path, chain, 1, err);
	free(chain[0]);
	return rc;
}
