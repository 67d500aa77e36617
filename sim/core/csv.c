/*
 * csv.c - an RFC 4180 record reader (csv.h), shared by the measured-data reader of
 * `gmsim validate` (sim/analysis/validate.c) and `gmsim plot`'s results.csv reader
 * (sim/batch/plot.c).
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>

#include "csv.h"

/* A growable string. */
struct sbuf {
	char *s;
	size_t n, cap;
};

static void sbuf_put(struct sbuf *b, char c)
{
	if (b->n + 1 >= b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->s = xrealloc(b->s, b->cap);
	}
	b->s[b->n++] = c;
	b->s[b->n] = '\0';
}

int csv_read_record(FILE *f, const char *name, int *next_line, char **fields, size_t max,
		    struct sim_err *err)
{
	struct sbuf b = { 0 };
	size_t nf = 0;
	int c, line = *next_line;
	bool quoted = false, was_quoted = false, any = false;

	for (;;) {
		c = getc(f);
		if (c == EOF) {
			if (quoted) {
				free(b.s);
				goto bad_eof;
			}
			if (!any && nf == 0) {
				free(b.s);
				return 0;
			}
			break;
		}
		any = true;
		if (quoted) {
			if (c == '"') {
				int d = getc(f);

				if (d == '"') {
					sbuf_put(&b, '"');
					continue;
				}
				if (d != EOF)
					ungetc(d, f);
				quoted = false;
				continue;
			}
			if (c == '\n')
				(*next_line)++;
			sbuf_put(&b, (char)c);
			continue;
		}
		if (c == '\r')
			continue;
		if (c == '"') {
			if (b.n != 0 || was_quoted) {
				free(b.s);
				for (size_t i = 0; i < nf; i++)
					free(fields[i]);
				return sim_err_set(err, name, line, "a quote inside field %zu that "
						   "does not start with one", nf + 1);
			}
			quoted = was_quoted = true;
			continue;
		}
		if (was_quoted && c != ',' && c != '\n') {
			free(b.s);
			for (size_t i = 0; i < nf; i++)
				free(fields[i]);
			return sim_err_set(err, name, line, "text after the closing quote of field "
					   "%zu", nf + 1);
		}
		if (c == ',' || c == '\n') {
			if (nf == max) {
				free(b.s);
				for (size_t i = 0; i < nf; i++)
					free(fields[i]);
				return sim_err_set(err, name, line, "more than %zu fields", max);
			}
			fields[nf++] = b.s != NULL ? b.s : xstrdup("");
			b.s = NULL;
			b.n = b.cap = 0;
			was_quoted = false;
			if (c == '\n') {
				(*next_line)++;
				return (int)nf;
			}
			continue;
		}
		sbuf_put(&b, (char)c);
	}
	if (nf == max) {
		free(b.s);
		for (size_t i = 0; i < nf; i++)
			free(fields[i]);
		return sim_err_set(err, name, line, "more than %zu fields", max);
	}
	fields[nf++] = b.s != NULL ? b.s : xstrdup("");
	(*next_line)++;
	return (int)nf;
bad_eof:
	for (size_t i = 0; i < nf; i++)
		free(fields[i]);
	return sim_err_set(err, name, line, "unterminated quoted field %zu", nf + 1);
}

void csv_free_fields(char **fields, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(fields[i]);
}
