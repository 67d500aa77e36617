/*
 * plot.c - results.csv to a gnuplot data file and script (plot.h).
 *
 * The whole CSV is read into memory (a study has thousands of rows, not millions), the three
 * columns are looked up in the header, rows are grouped and ordered, then both files are
 * written. Nothing here runs gnuplot.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "plot.h"
#include "text.h"

/* Columns a header may have: merge.h's results.csv has the axes and the expanded metrics. */
#define PLOT_MAX_COLUMNS 4096

struct prow {
	char *x, *y;          /* the cells, as written */
	double xv;            /* x as a number (line charts, or bar charts with numeric x) */
	size_t group;
	int line;
};

struct ptable {
	char **head;          /* the header's fields */
	size_t ncol;
	struct prow *rows;
	size_t n;
	char **groups;        /* group names in first-row order (not owned: a row's cell) */
	size_t ngroups;
	bool x_numeric;       /* every x cell is a number */
};

static void ptable_free(struct ptable *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->rows[i].x);
		free(t->rows[i].y);
	}
	free(t->rows);
	for (i = 0; i < t->ngroups; i++)
		free(t->groups[i]);
	free(t->groups);
	csv_free_fields(t->head, t->ncol);
	free(t->head);
}

static bool cell_number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return s[0] != '\0' && *end == '\0' && errno == 0 && isfinite(*v);
}

/* The index of column name in the header; -1 with err filled (and a suggestion) if none. */
static long column(const struct ptable *t, const char *csv, const char *opt, const char *name,
		   struct sim_err *err)
{
	const char *near;
	size_t i;

	for (i = 0; i < t->ncol; i++)
		if (strcmp(t->head[i], name) == 0)
			return (long)i;
	near = text_suggest(name, (const char *const *)t->head, t->ncol);
	if (near != NULL)
		sim_err_set(err, csv, 1, "%s %s: no such column (did you mean \"%s\"?)", opt, name,
			    near);
	else {
		char list[SIM_ERR_MSG_MAX / 2];
		size_t n = 0;

		list[0] = '\0';
		for (i = 0; i < t->ncol && n + 8 < sizeof list; i++)
			n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i > 0 ? "," : "",
					      t->head[i]);
		if (n >= sizeof list)
			strcpy(list + sizeof list - 5, "...");
		sim_err_set(err, csv, 1, "%s %s: no such column; the header is %s", opt, name,
			    list);
	}
	return -1;
}

static size_t group_of(struct ptable *t, const char *name)
{
	size_t g;

	for (g = 0; g < t->ngroups; g++)
		if (strcmp(t->groups[g], name) == 0)
			return g;
	t->groups = xreallocarray(t->groups, t->ngroups + 1, sizeof *t->groups);
	t->groups[t->ngroups] = xstrdup(name);
	return t->ngroups++;
}

static int by_number(const void *a, const void *b)
{
	double x = strtod(*(char *const *)a, NULL), y = strtod(*(char *const *)b, NULL);

	return x < y ? -1 : x > y;
}

/* Groups whose names are all numbers (--by stride) ascend instead of keeping first-row order. */
static void sort_numeric_groups(struct ptable *t)
{
	char **old;
	size_t g, k, i;
	double v;

	for (g = 0; g < t->ngroups; g++)
		if (!cell_number(t->groups[g], &v))
			return;
	old = xcalloc(t->ngroups, sizeof *old);
	memcpy(old, t->groups, t->ngroups * sizeof *old);
	qsort(t->groups, t->ngroups, sizeof *t->groups, by_number);
	for (i = 0; i < t->n; i++) {
		for (k = 0; t->groups[k] != old[t->rows[i].group]; k++)
			;
		t->rows[i].group = k;
	}
	free(old);
}

/* Reads the CSV and keeps the rows to plot. Returns 0, or -1 with err filled. */
static int ptable_read(struct ptable *t, const struct plot_spec *s, size_t *skipped,
		       struct sim_err *err)
{
	char **f = xcalloc(PLOT_MAX_COLUMNS + 1, sizeof *f);
	long xc, yc, bc = -1, sc = -1;
	int next = 1, line, nf;
	size_t i, cap = 0;
	FILE *in = fopen(s->csv, "r");

	memset(t, 0, sizeof *t);
	t->x_numeric = true;
	*skipped = 0;
	if (in == NULL) {
		free(f);
		return sim_err_set(err, s->csv, 0, "cannot open: %s", strerror(errno));
	}
	nf = csv_read_record(in, s->csv, &next, f, PLOT_MAX_COLUMNS + 1, err);
	if (nf <= 0 || (nf == 1 && f[0][0] == '\0')) {
		if (nf >= 0)
			sim_err_set(err, s->csv, 1, "no header: expected a CSV such as `gmsim sweep` "
				    "writes (point,config,...,status,metrics)");
		csv_free_fields(f, nf > 0 ? (size_t)nf : 0);
		free(f);
		fclose(in);
		return -1;
	}
	t->head = xcalloc((size_t)nf, sizeof *t->head);
	memcpy(t->head, f, (size_t)nf * sizeof *f);
	t->ncol = (size_t)nf;
	if ((xc = column(t, s->csv, "--x", s->x, err)) < 0 ||
	    (yc = column(t, s->csv, "--y", s->y, err)) < 0 ||
	    (s->by != NULL && (bc = column(t, s->csv, "--by", s->by, err)) < 0))
		goto fail;
	for (i = 0; i < t->ncol; i++)
		if (strcmp(t->head[i], "status") == 0)
			sc = (long)i;
	for (;;) {
		struct prow *r;
		double yv;

		line = next;
		nf = csv_read_record(in, s->csv, &next, f, PLOT_MAX_COLUMNS + 1, err);
		if (nf < 0)
			goto fail;
		if (nf == 0)
			break;
		if (nf == 1 && f[0][0] == '\0') {
			csv_free_fields(f, 1);
			continue;
		}
		if ((size_t)nf != t->ncol) {
			sim_err_set(err, s->csv, line, "%d fields, the header has %zu", nf, t->ncol);
			csv_free_fields(f, (size_t)nf);
			goto fail;
		}
		if (sc >= 0 && strcmp(f[sc], "ok") != 0) {
			(*skipped)++;
			csv_free_fields(f, (size_t)nf);
			continue;
		}
		if (!cell_number(f[yc], &yv)) {
			sim_err_set(err, s->csv, line, "--y %s: '%s' is not a number", s->y, f[yc]);
			csv_free_fields(f, (size_t)nf);
			goto fail;
		}
		if (t->n == cap) {
			cap = cap ? 2 * cap : 64;
			t->rows = xreallocarray(t->rows, cap, sizeof *t->rows);
		}
		r = &t->rows[t->n];
		r->line = line;
		if (!cell_number(f[xc], &r->xv)) {
			if (s->kind == PLOT_LINE) {
				sim_err_set(err, s->csv, line, "--x %s: '%s' is not a number (a bar "
					    "chart, --kind bar, takes labels)", s->x, f[xc]);
				csv_free_fields(f, (size_t)nf);
				goto fail;
			}
			t->x_numeric = false;
		}
		r->group = group_of(t, bc >= 0 ? f[bc] : s->y);
		for (i = 0; i < t->n; i++) {
			if (t->rows[i].group == r->group && strcmp(t->rows[i].x, f[xc]) == 0) {
				sim_err_set(err, s->csv, line, "a second row for %s = %s%s%s (the "
					    "first is line %d): another axis varies; choose it with "
					    "--by", s->x, f[xc], bc >= 0 ? " in group " : "",
					    bc >= 0 ? f[bc] : "", t->rows[i].line);
				csv_free_fields(f, (size_t)nf);
				goto fail;
			}
		}
		r->x = f[xc];
		r->y = f[yc];
		f[xc] = f[yc] = NULL;
		t->n++;
		csv_free_fields(f, (size_t)nf);
	}
	free(f);
	fclose(in);
	sort_numeric_groups(t);
	if (t->n == 0) {
		sim_err_set(err, s->csv, 0, "no row to plot (%zu not ok)", *skipped);
		ptable_free(t);
		return -1;
	}
	return 0;
fail:
	free(f);
	fclose(in);
	ptable_free(t);
	return -1;
}

/* Orders rows by x; ties keep CSV order (lines are unique, so qsort's instability is moot). */
static int by_x(const void *a, const void *b)
{
	const struct prow *ra = *(const struct prow *const *)a;
	const struct prow *rb = *(const struct prow *const *)b;

	if (ra->xv != rb->xv)
		return ra->xv < rb->xv ? -1 : 1;
	return ra->line - rb->line;
}

/* A gnuplot single-quoted string: '' for a quote. */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static const char *base_name(const char *p)
{
	const char *b = strrchr(p, '/');

	return b != NULL ? b + 1 : p;
}

static int write_dat(const struct ptable *t, const struct plot_spec *s, const char *path,
		     struct sim_err *err)
{
	const struct prow **order = xcalloc(t->n, sizeof *order);
	size_t i, g, k;
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		free(order);
		return sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	}
	for (i = 0; i < t->n; i++)
		order[i] = &t->rows[i];
	if (t->x_numeric)
		qsort(order, t->n, sizeof *order, by_x);
	fprintf(f, "# gmsim plot %s: %s against %s", s->csv, s->y, s->x);
	if (s->by != NULL)
		fprintf(f, " for each %s", s->by);
	fputc('\n', f);
	if (s->kind == PLOT_LINE) {
		for (g = 0; g < t->ngroups; g++) {
			if (g > 0)
				fputs("\n\n", f);
			if (s->by != NULL)
				fprintf(f, "# %s = %s\n", s->by, t->groups[g]);
			fprintf(f, "# %s %s\n", s->x, s->y);
			for (k = 0; k < t->n; k++)
				if (order[k]->group == g)
					fprintf(f, "%s %s\n", order[k]->x, order[k]->y);
		}
	} else {
		fprintf(f, "# %s", s->x);
		for (g = 0; g < t->ngroups; g++)
			fprintf(f, " \"%s\"", t->groups[g]);
		fputc('\n', f);
		for (k = 0; k < t->n; k++) {
			const struct prow *r = order[k];
			const char *c;

			/* The first row of each x value carries the whole line. */
			for (i = 0; i < k; i++)
				if (strcmp(order[i]->x, r->x) == 0)
					break;
			if (i < k)
				continue;
			fputc('"', f);
			for (c = r->x; *c != '\0'; c++)
				fputc(*c == '"' ? '\'' : *c, f);
			fputc('"', f);
			for (g = 0; g < t->ngroups; g++) {
				const char *y = "?";

				for (i = k; i < t->n; i++)
					if (order[i]->group == g &&
					    strcmp(order[i]->x, r->x) == 0)
						y = order[i]->y;
				fprintf(f, " %s", y);
			}
			fputc('\n', f);
		}
	}
	free(order);
	if (fclose(f) != 0)
		return sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	return 0;
}

static int write_gp(const struct ptable *t, const struct plot_spec *s, const char *path,
		    const char *dat, struct sim_err *err)
{
	bool png = strcmp(s->out + strlen(s->out) - 4, ".png") == 0;
	char title[512];
	size_t g;
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	snprintf(title, sizeof title, "%s vs %s%s%s", s->y, s->x, s->by != NULL ? " by " : "",
		 s->by != NULL ? s->by : "");
	fprintf(f, "# gmsim plot: %s, from %s. Run `gnuplot %s` in the directory that holds "
		"%s.\n", title, s->csv, base_name(path), base_name(dat));
	fprintf(f, "set terminal %s size 900,540 noenhanced\n", png ? "pngcairo" : "svg");
	fputs("set output ", f);
	gp_string(f, base_name(s->out));
	fputs("\nset title ", f);
	gp_string(f, title);
	fputs("\nset xlabel ", f);
	gp_string(f, s->x);
	fputs("\nset ylabel ", f);
	gp_string(f, s->y);
	fputs("\nset grid\nset key outside right top", f);
	if (s->by != NULL) {
		fputs(" title ", f);
		gp_string(f, s->by);
	}
	fputs("\nset datafile missing '?'\n", f);
	if (s->kind == PLOT_BAR)
		fputs("set style data histograms\nset style histogram clustered gap 1\n"
		      "set style fill solid 0.8 border -1\nset yrange [0:*]\n", f);
	fputs("plot ", f);
	for (g = 0; g < t->ngroups; g++) {
		if (g > 0)
			fputs(", \\\n     ", f);
		gp_string(f, g == 0 ? base_name(dat) : "");
		if (s->kind == PLOT_LINE)
			fprintf(f, " index %zu using 1:2 with linespoints title ", g);
		else if (g == 0)
			fprintf(f, " using %zu:xtic(1) title ", g + 2);
		else
			fprintf(f, " using %zu title ", g + 2);
		gp_string(f, t->groups[g]);
	}
	fputc('\n', f);
	if (fclose(f) != 0)
		return sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	return 0;
}

bool plot_out_ok(const char *out)
{
	size_t n = strlen(out);

	return n > 4 && out[n - 5] != '/' &&
	       (strcmp(out + n - 4, ".svg") == 0 || strcmp(out + n - 4, ".png") == 0);
}

int plot_write(const struct plot_spec *s, struct plot_files *pf, struct sim_err *err)
{
	struct ptable t;
	size_t n = strlen(s->out) - 4;

	SIM_ASSERT(plot_out_ok(s->out));
	memset(pf, 0, sizeof *pf);
	if (ptable_read(&t, s, &pf->skipped, err) != 0)
		return -1;
	pf->gp = xmalloc(n + 4);
	pf->dat = xmalloc(n + 5);
	memcpy(pf->gp, s->out, n);
	memcpy(pf->gp + n, ".gp", 4);
	memcpy(pf->dat, s->out, n);
	memcpy(pf->dat + n, ".dat", 5);
	pf->groups = t.ngroups;
	pf->rows = t.n;
	if (write_dat(&t, s, pf->dat, err) != 0 || write_gp(&t, s, pf->gp, pf->dat, err) != 0) {
		ptable_free(&t);
		plot_files_free(pf);
		return -1;
	}
	ptable_free(&t);
	return 0;
}

void plot_files_free(struct plot_files *pf)
{
	free(pf->gp);
	free(pf->dat);
	pf->gp = pf->dat = NULL;
}
