/*
 * text.c - edit distance for "did you mean" suggestions, and FNV-1a hashing (config hashes).
 *
 * Neither is on a hot path: suggestions are computed only when reporting an error, and the
 * config hash once per run.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "text.h"

size_t text_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xcalloc(lb + 1, sizeof *row);
	size_t i, j, d;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0]; /* row[i-1][j-1] */

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j]; /* row[i-1][j] */
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

const char *text_suggest(const char *word, const char *const *candidates, size_t n)
{
	size_t limit = strlen(word) / 3;
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	size_t i;

	if (limit < 2)
		limit = 2;
	for (i = 0; i < n; i++) {
		size_t d;

		if (candidates[i] == NULL)
			continue;
		d = text_edit_distance(word, candidates[i]);
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best_d <= limit ? best : NULL;
}

uint64_t text_hash(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Bytes below 0x20 but the blanks \t..\r, and DEL, are binary. */
#define B_ TEXT_BINARY
#define H_ TEXT_HEX
#define D_ (TEXT_HEX | TEXT_DEC)
const unsigned char text_char_class[256] = {
	B_, B_, B_, B_, B_, B_, B_, B_, B_, TEXT_BLANK, TEXT_BLANK, TEXT_BLANK, TEXT_BLANK,
	TEXT_BLANK, B_, B_, B_, B_, B_, B_, B_, B_, B_, B_, B_, B_, B_, B_, B_, B_, B_, B_,
	[' '] = TEXT_BLANK,
	['0'] = D_, ['1'] = D_, ['2'] = D_, ['3'] = D_, ['4'] = D_, ['5'] = D_, ['6'] = D_,
	['7'] = D_, ['8'] = D_, ['9'] = D_,
	['a'] = H_, ['b'] = H_, ['c'] = H_, ['d'] = H_, ['e'] = H_, ['f'] = H_,
	['A'] = H_, ['B'] = H_, ['C'] = H_, ['D'] = H_, ['E'] = H_, ['F'] = H_,
	['#'] = TEXT_COMMENT,
	[0x7f] = B_,
};
#undef B_
#undef H_
#undef D_

#define N_ TEXT_NOT_DIGIT
#define ROW16_N N_, N_, N_, N_, N_, N_, N_, N_, N_, N_, N_, N_, N_, N_, N_, N_
const unsigned char text_digit_value[256] = {
	ROW16_N, ROW16_N, ROW16_N,                                      /* 0x00 - 0x2f */
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, N_, N_, N_, N_, N_, N_,         /* '0' - '?' */
	N_, 10, 11, 12, 13, 14, 15, N_, N_, N_, N_, N_, N_, N_, N_, N_, /* '@' - 'O' */
	ROW16_N,                                                        /* 'P' - '_' */
	N_, 10, 11, 12, 13, 14, 15, N_, N_, N_, N_, N_, N_, N_, N_, N_, /* '`' - 'o' */
	ROW16_N, ROW16_N, ROW16_N, ROW16_N, ROW16_N, ROW16_N, ROW16_N, ROW16_N, ROW16_N,
};
#undef ROW16_N
#undef N_

/* Whether any byte of the 8 in w is below 0x20 or is 0x7f: every binary byte is, and so are
 * the blanks tab .. carriage return (which the table then tells apart). The two tests are the
 * usual "a byte less than n" and "a zero byte" word tricks, exact as yes / no answers. */
static bool word_maybe_binary(uint64_t w)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
	uint64_t x = w ^ (ones * 0x7f);

	return (((w - ones * 0x20) & ~w) | ((x - ones) & ~x)) & highs;
}

size_t text_find_binary(const char *buf, size_t len)
{
	size_t i = 0;

	/* eight bytes at a time while none can be binary (every trace line is read through here:
	 * a byte at a time it was a tenth of a trace run's parse) */
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		size_t j;

		memcpy(&w, buf + i, 8);
		if (!word_maybe_binary(w))
			continue;
		for (j = i; j < i + 8; j++)
			if (text_char_class[(unsigned char)buf[j]] & TEXT_BINARY)
				return j;
	}
	for (; i < len; i++)
		if (text_char_class[(unsigned char)buf[i]] & TEXT_BINARY)
			return i;
	return len;
}

void text_line_col(const char *buf, size_t off, unsigned *line, unsigned *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}


char *text_read_file(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL)
		return NULL;
	do {
		if (cap - len < 4096) {
			cap = cap * 2 + 8192;
			buf = xrealloc(buf, cap);
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) { /* a directory, an I/O error */
		int saved = errno;

		fclose(f);
		free(buf);
		errno = saved;
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return buf;
}
