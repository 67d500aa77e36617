/*
 * cfg_write.c - the config schema written out: the effective config (a libconfig file that loads
 * back to the same values), its hash, and the Markdown reference of every key.
 *
 * All three walk the same tables as the loader in cfg.c, so the reference cannot drift from what
 * the loader accepts.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "log.h"
#include "text.h"

static const char *const type_names[CFG_TYPE_COUNT] = {
	[CFG_U32] = "integer (32-bit)", [CFG_U64] = "integer (64-bit)", [CFG_I64] = "integer",
	[CFG_F64] = "number", [CFG_BOOL] = "boolean", [CFG_STR] = "string", [CFG_ENUM] = "choice",
};

/* Shortest %g form that reads back to the same double, always with a '.' or exponent so that
 * libconfig reads it as a float. */
static void format_double(char *buf, size_t size, double d)
{
	double mag = fabs(d);
	int prec;

	/* Plain decimals where they are short and exact (1380.0, 0.25), else %g. */
	if (mag == 0.0 || (mag >= 1e-4 && mag < 1e15)) {
		for (prec = 1; prec <= 17; prec++) {
			snprintf(buf, size, "%.*f", prec, d);
			if (strtod(buf, NULL) == d) {
				/* Trim trailing zeros but keep one digit after the point. */
				char *end = buf + strlen(buf) - 1;

				while (end[0] == '0' && end[-1] != '.')
					*end-- = '\0';
				return;
			}
		}
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	if (strpbrk(buf, ".eEn") == NULL && strlen(buf) + 3 < size)
		strcat(buf, ".0");
}

static void format_string(char *buf, size_t size, const char *s)
{
	size_t n = 0;

	if (size < 3) {
		buf[0] = '\0';
		return;
	}
	buf[n++] = '"';
	for (; *s != '\0' && n + 3 < size; s++) {
		if (*s == '"' || *s == '\\')
			buf[n++] = '\\';
		buf[n++] = *s;
	}
	buf[n++] = '"';
	buf[n] = '\0';
}

void cfg_format_value(char *buf, size_t size, const struct cfg_field *f, const void *group_params)
{
	const char *src = (const char *)group_params + f->offset;

	switch (f->type) {
	case CFG_U32:
		snprintf(buf, size, "%" PRIu32, *(const uint32_t *)src);
		break;
	case CFG_U64: {
		uint64_t v = *(const uint64_t *)src;

		snprintf(buf, size, "%" PRIu64 "%s", v, v > INT32_MAX ? "L" : "");
		break;
	}
	case CFG_I64: {
		int64_t v = *(const int64_t *)src;

		snprintf(buf, size, "%" PRId64 "%s", v, v > INT32_MAX || v < INT32_MIN ? "L" : "");
		break;
	}
	case CFG_F64:
		format_double(buf, size, *(const double *)src);
		break;
	case CFG_BOOL:
		snprintf(buf, size, "%s", *(const bool *)src ? "true" : "false");
		break;
	case CFG_STR:
		format_string(buf, size, src);
		break;
	case CFG_ENUM: {
		uint32_t i = *(const uint32_t *)src;

		format_string(buf, size, i < cfg_enum_count(f) ? f->names[i] : "?");
		break;
	}
	default:
		snprintf(buf, size, "?");
		break;
	}
}

static const char *last_component(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot != NULL ? dot + 1 : name;
}

static bool is_child(const char *parent, const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t n;

	if (parent == NULL)
		return dot == NULL;
	n = strlen(parent);
	return dot != NULL && (size_t)(dot - name) == n && strncmp(name, parent, n) == 0;
}

static void write_group(FILE *out, const struct cfg_schema *s, const void *params,
			const struct cfg_group *g, int depth, bool comments)
{
	char val[CFG_STR_MAX * 2 + 8];
	size_t i;

	if (comments && g->desc != NULL)
		fprintf(out, "%*s# %s\n", depth * 2, "", g->desc);
	fprintf(out, "%*s%s:\n%*s{\n", depth * 2, "", last_component(g->name), depth * 2, "");
	for (i = 0; i < g->nfields; i++) {
		const struct cfg_field *f = &g->fields[i];

		cfg_format_value(val, sizeof val, f, (const char *)params + g->offset);
		if (comments)
			fprintf(out, "%*s%s = %s;  # %s\n", depth * 2 + 2, "", f->key, val, f->desc);
		else
			fprintf(out, "%*s%s = %s;\n", depth * 2 + 2, "", f->key, val);
	}
	for (i = 0; i < s->ngroups; i++)
		if (is_child(g->name, s->groups[i].name))
			write_group(out, s, params, &s->groups[i], depth + 1, comments);
	fprintf(out, "%*s};\n", depth * 2, "");
}

static void write_all(FILE *out, const struct cfg_schema *s, const void *params, bool comments)
{
	size_t i;

	for (i = 0; i < s->ngroups; i++)
		if (is_child(NULL, s->groups[i].name))
			write_group(out, s, params, &s->groups[i], 0, comments);
}

void cfg_write_effective(FILE *out, const struct cfg_schema *s, const void *params)
{
	fprintf(out, "# gmsim effective configuration: every key, defaults filled in.\n"
		     "# Load it with -c to reproduce a run; config hash 0x%016" PRIx64 ".\n",
		cfg_hash(s, params));
	write_all(out, s, params, true);
}

uint64_t cfg_hash(const struct cfg_schema *s, const void *params)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	uint64_t h;

	if (m == NULL)
		sim_panic("open_memstream failed");
	write_all(m, s, params, false);
	fclose(m);
	h = text_hash(TEXT_HASH_INIT, buf, len);
	free(buf);
	return h;
}

static void write_md_escaped(FILE *out, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			fputc(*s, out);
	}
}

void cfg_write_doc(FILE *out, const struct cfg_schema *s)
{
	size_t i, j, k;

	fputs("# Configuration reference\n\n"
	      "Generated by `gmsim config doc` from the field tables in `sim/`; do not edit by hand\n"
	      "(`make config-doc` regenerates it, and `make check` fails if it is stale).\n\n"
	      "A config is a libconfig file: `group: { key = value; };`. Unknown groups and keys,\n"
	      "values of the wrong type and values out of range are errors that name the file and\n"
	      "line. Any key can be overridden on the command line with `-o group.key=value`.\n"
	      "Integers are 64-bit (`L` suffix optional); a key marked *required* has no default.\n"
	      "\n"
	      "## Layers, includes and origins\n"
	      "\n"
	      "**Layers.** A config may name a base and set only what differs from it:\n"
	      "\n"
	      "```\n"
	      "base = \"a100-80gb.cfg\";            # the config this one changes\n"
	      "l2: { cache: { size_kb = 1024; }; };  # twice the L2; everything else is the base's\n"
	      "```\n"
	      "\n"
	      "The file is read as its base with its own settings laid over it, key by key inside\n"
	      "groups: a key replaces the base's value, a group merges into the base's group. A base\n"
	      "may itself name a base (the later layer wins), and `-o` overrides come last. Every\n"
	      "command that takes `-c`, and the configs of a sweep file, take layers. A key of a layer\n"
	      "is checked as any other, at the layer's file and line: a typo is an error, never a\n"
	      "silent base value. The config hash is the hash of the effective values, so a layer\n"
	      "that sets its base's values has its base's hash. Why a `base` key and not a repeated\n"
	      "`-c`: a variant is then one file that says what it is built on, and runs, sweeps and\n"
	      "result files that name it need nothing else to reproduce it; an `@include` cannot do\n"
	      "this, since including a config and setting one of its keys again is a duplicate key.\n"
	      "\n"
	      "**Where files are found.** `base = \"name\"` and `@include \"name\"`: an absolute\n"
	      "name as written; otherwise the folder of the file that names it, then the shipped\n"
	      "`configs/` folder (the source tree's, or `$GMSIM_CONFIG_DIR`). So a variant in a study\n"
	      "folder may write `base = \"v100.cfg\";` or `base = \"../gmsim/configs/v100.cfg\";`,\n"
	      "and v100.cfg's own `@include \"sm/volta.cfg\"` is found next to v100.cfg. A missing\n"
	      "file names every place looked; include and base loops are errors.\n"
	      "\n"
	      "**Origins.** `gmsim config show -c FILE --origin` prints every key with its effective\n"
	      "value and where it came from: the `file:line` of the layer or include that set it,\n"
	      "`-o group.key=value`, or `default`. `gmsim config diff A B` prints the keys whose\n"
	      "effective values differ, with both origins, and the derived figures that change\n"
	      "with them (capacities, peak bandwidths, unloaded latencies). Examples of variants:\n"
	      "`configs/variants/`; a sweep over a base and its variants: `sweeps/variants.sweep`.\n"
	      "An error about values that do not fit together (a size not a whole number of sets,\n"
	      "MSHRs too few for a line) names the key it blames where that was set: its layer's or\n"
	      "include's `file:line`, or its `-o`.\n",
	      out);
	for (i = 0; i < s->ngroups; i++) {
		const struct cfg_group *g = &s->groups[i];

		fprintf(out, "\n## `%s`\n\n%s\n\n", g->name, g->desc != NULL ? g->desc : "");
		fputs("| key | type | range | default | description |\n"
		      "|---|---|---|---|---|\n", out);
		for (j = 0; j < g->nfields; j++) {
			const struct cfg_field *f = &g->fields[j];

			fprintf(out, "| `%s` | %s | ", f->key, type_names[f->type]);
			switch (f->type) {
			case CFG_U32:
			case CFG_U64:
			case CFG_I64:
				fprintf(out, "%" PRId64 " .. %" PRId64, f->min, f->max);
				break;
			case CFG_F64:
				fprintf(out, "%g .. %g", f->rmin, f->rmax);
				break;
			case CFG_ENUM:
				for (k = 0; f->names[k] != NULL; k++)
					fprintf(out, "%s`%s`", k ? ", " : "", f->names[k]);
				break;
			default:
				fputs("-", out);
				break;
			}
			fputs(" | ", out);
			if (f->dflt != NULL) {
				fputc('`', out);
				write_md_escaped(out, f->dflt);
				fputc('`', out);
			} else {
				fputs("*required*", out);
			}
			fputs(" | ", out);
			write_md_escaped(out, f->desc);
			fputs(" |\n", out);
		}
	}
}
