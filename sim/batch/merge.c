/*
 * merge.c - the manifest and results.csv of merge.h.
 *
 * The merge reads every point file once, flattens its statistics into (dotted name, number
 * text) pairs in file order, expands the metric patterns over the names the points have
 * (fnmatch, so * also crosses dots), and writes the table to a string before one atomic write.
 * Name lookups go through a small open-addressing table, so a "*" metric over a thousand points
 * with thousands of statistics each stays linear.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "merge.h"
#include "runner.h"
#include "text.h"

/* ---------------------------------------------------------------------------------------------
 * A string -> string table (keys are not owned)
 */

struct smap {
	const char **keys;
	const char **vals;
	size_t cap, n;
};

static size_t smap_slot(const struct smap *m, const char *k)
{
	size_t i = (size_t)text_hash(TEXT_HASH_INIT, k, strlen(k)) & (m->cap - 1);

	while (m->keys[i] != NULL && strcmp(m->keys[i], k) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void smap_put(struct smap *m, const char *k, const char *v)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct smap g = { NULL, NULL, m->cap ? 2 * m->cap : 64, 0 };

		g.keys = xcalloc(g.cap, sizeof *g.keys);
		g.vals = xcalloc(g.cap, sizeof *g.vals);
		for (i = 0; i < m->cap; i++)
			if (m->keys[i] != NULL)
				smap_put(&g, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		*m = g;
	}
	i = smap_slot(m, k);
	if (m->keys[i] == NULL)
		m->n++;
	m->keys[i] = k;
	m->vals[i] = v;
}

static const char *smap_get(const struct smap *m, const char *k)
{
	return m->cap ? m->vals[smap_slot(m, k)] : NULL;
}

static void smap_free(struct smap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------------------------------------
 * Manifest
 */

int merge_write_manifest(const struct sweep *s, const char *out, struct sim_err *err)
{
	char *text = NULL, *path;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (f == NULL)
		sim_panic("open_memstream: %s", strerror(errno));
	fputs("{\n  \"sweep\": ", f);
	json_write_string(f, s->path);
	fputs(",\n  \"axes\": [", f);
	for (i = 0; i < s->naxes; i++) {
		fputs(i > 0 ? ", " : " ", f);
		json_write_string(f, s->axes[i].name);
	}
	fputs(" ],\n  \"metrics\": [", f);
	for (i = 0; i < s->nmetrics; i++) {
		fputs(i > 0 ? ", " : " ", f);
		json_write_string(f, s->metrics[i]);
	}
	fputs(" ],\n  \"points\": [", f);
	for (i = 0; i < s->npoints; i++) {
		fputs(i > 0 ? ",\n    " : "\n    ", f);
		json_write_string(f, s->points[i].job.id);
	}
	fputs("\n  ]\n}\n", f);
	fclose(f);
	path = xasprintf("%s/sweep.json", out);
	rc = runner_write_atomic(out, path, text, len, err);
	free(path);
	free(text);
	return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Merge
 */

struct mpoint {
	struct json *j;
	const char **names;  /* flattened statistics, in file order */
	char **owned;        /* the same names, to free */
	size_t nnames;
	struct smap vals;    /* name -> number text */
};

static void flatten(struct mpoint *p, const struct json *o, const char *prefix)
{
	size_t i;

	for (i = 0; i < o->nkids; i++) {
		const struct json *k = &o->kids[i];
		char *name;

		if (prefix[0] == '\0' && strcmp(k->key, "gmsim") == 0)
			continue;
		name = prefix[0] != '\0' ? xasprintf("%s.%s", prefix, k->key) : xstrdup(k->key);
		if (k->kind == JSON_OBJECT) {
			flatten(p, k, name);
			free(name);
		} else if (k->kind == JSON_NUMBER) {
			p->owned = xreallocarray(p->owned, p->nnames + 1, sizeof *p->owned);
			p->names = xreallocarray(p->names, p->nnames + 1, sizeof *p->names);
			p->owned[p->nnames] = name;
			p->names[p->nnames++] = name;
			smap_put(&p->vals, name, k->text);
		} else {
			free(name);
		}
	}
}

static void csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\n\r") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The value of axis name in point file j, as a CSV cell wants it. */
static void axis_cell(FILE *f, const struct json *j, const char *name)
{
	const struct json *v = json_get(j, name);

	if (strcmp(name, "config") != 0 && strcmp(name, "workload") != 0) {
		v = json_get(json_get(j, "overrides"), name);
		if (v == NULL)
			v = json_get(json_get(j, "params"), name);
	}
	if (v == NULL)
		return;
	if (v->kind == JSON_STRING || v->kind == JSON_NUMBER)
		csv_field(f, v->text);
	else if (v->kind == JSON_BOOL)
		fputs(v->b ? "true" : "false", f);
}

static bool has_wildcard(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

int merge_results(const char *out, size_t *rows, size_t *missing, size_t *failed,
		  struct sim_err *err)
{
	char *mpath = xasprintf("%s/sweep.json", out), why[256], *text = NULL, *csv;
	struct json *man = json_parse_file(mpath, why, sizeof why);
	const struct json *axes = json_get(man, "axes"), *metrics = json_get(man, "metrics"),
			  *ids = json_get(man, "points");
	struct mpoint *pts = NULL;
	struct smap colset = { 0 };
	const char **cols = NULL;
	size_t npts = 0, ncols = 0, i, c, m, len = 0;
	int rc = 0;
	FILE *f;

	*rows = *missing = *failed = 0;
	if (man == NULL || axes == NULL || axes->kind != JSON_ARRAY || metrics == NULL ||
	    metrics->kind != JSON_ARRAY || ids == NULL || ids->kind != JSON_ARRAY) {
		rc = sim_err_set(err, mpath, 0, "%s", man == NULL ? why
				 : "not a sweep manifest (axes, metrics, points)");
		goto out;
	}
	pts = xcalloc(ids->nkids + 1, sizeof *pts);
	for (i = 0; i < ids->nkids; i++) {
		const char *id = json_str(&ids->kids[i]);
		char *path;
		struct mpoint *p;

		if (id == NULL)
			continue;
		path = xasprintf("%s/points/%s.json", out, id);
		p = &pts[npts];
		p->j = json_parse_file(path, why, sizeof why);
		if (p->j == NULL && strncmp(why, "cannot open", 11) == 0) {
			(*missing)++;
			free(path);
			continue;
		}
		if (p->j == NULL || p->j->kind != JSON_OBJECT) {
			rc = sim_err_set(err, path, 0, "%s", p->j == NULL ? why : "not a point file");
			json_free(p->j);
			p->j = NULL;
			free(path);
			goto out;
		}
		free(path);
		if (json_get(p->j, "stats") != NULL && json_get(p->j, "stats")->kind == JSON_OBJECT)
			flatten(p, json_get(p->j, "stats"), "");
		npts++;
	}
	/* columns */
	for (m = 0; m < metrics->nkids; m++) {
		const char *pat = json_str(&metrics->kids[m]);

		if (pat == NULL)
			continue;
		if (!has_wildcard(pat)) {
			if (smap_get(&colset, pat) == NULL) {
				smap_put(&colset, pat, pat);
				cols = xreallocarray(cols, ncols + 1, sizeof *cols);
				cols[ncols++] = pat;
			}
			continue;
		}
		for (i = 0; i < npts; i++)
			for (c = 0; c < pts[i].nnames; c++) {
				const char *name = pts[i].names[c];

				if (smap_get(&colset, name) != NULL || fnmatch(pat, name, 0) != 0)
					continue;
				smap_put(&colset, name, name);
				cols = xreallocarray(cols, ncols + 1, sizeof *cols);
				cols[ncols++] = name;
			}
	}
	f = open_memstream(&text, &len);
	if (f == NULL)
		sim_panic("open_memstream: %s", strerror(errno));
	fputs("point", f);
	for (c = 0; c < axes->nkids; c++) {
		fputc(',', f);
		csv_field(f, json_str(&axes->kids[c]) != NULL ? json_str(&axes->kids[c]) : "");
	}
	fputs(",status", f);
	for (c = 0; c < ncols; c++) {
		fputc(',', f);
		csv_field(f, cols[c]);
	}
	fputc('\n', f);
	for (i = 0; i < npts; i++) {
		const char *st = json_str(json_get(pts[i].j, "status"));

		csv_field(f, json_str(json_get(pts[i].j, "point")) != NULL
			  ? json_str(json_get(pts[i].j, "point")) : "");
		for (c = 0; c < axes->nkids; c++) {
			fputc(',', f);
			if (json_str(&axes->kids[c]) != NULL)
				axis_cell(f, pts[i].j, json_str(&axes->kids[c]));
		}
		fputc(',', f);
		csv_field(f, st != NULL ? st : "");
		if (st == NULL || strcmp(st, "ok") != 0)
			(*failed)++;
		for (c = 0; c < ncols; c++) {
			const char *v = smap_get(&pts[i].vals, cols[c]);

			fputc(',', f);
			if (v != NULL)
				fputs(v, f);
		}
		fputc('\n', f);
		(*rows)++;
	}
	fclose(f);
	csv = xasprintf("%s/results.csv", out);
	rc = runner_prepare(out, err);
	if (rc == 0)
		rc = runner_write_atomic(out, csv, text, len, err);
	free(csv);
out:
	for (i = 0; i < npts; i++) {
		json_free(pts[i].j);
		for (c = 0; c < pts[i].nnames; c++)
			free(pts[i].owned[c]);
		free(pts[i].owned);
		free(pts[i].names);
		smap_free(&pts[i].vals);
	}
	free(pts);
	free(cols);
	smap_free(&colset);
	free(text);
	json_free(man);
	free(mpath);
	return rc;
}
