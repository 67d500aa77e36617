/*
 * text.h - small string helpers shared by the config loader, the readers and the CLI: "did you
 * mean", a stable 64-bit hash, hexadecimal digits.
 */
#ifndef SIM_TEXT_H
#define SIM_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Levenshtein distance between a and b (insert, delete, substitute each cost 1). */
size_t text_edit_distance(const char *a, const char *b);

/*
 * The candidate closest to word, or NULL if none is close enough to be a plausible typo
 * (distance <= max(2, strlen(word) / 3)). Ties go to the earliest candidate. candidates[] has n
 * entries; NULL entries are skipped.
 */
const char *text_suggest(const char *word, const char *const *candidates, size_t n);

/* 64-bit FNV-1a of n bytes, continuing from h (start with TEXT_HASH_INIT). */
#define TEXT_HASH_INIT 0xcbf29ce484222325ull
uint64_t text_hash(uint64_t h, const void *data, size_t n);

/*
 * The offset of the first byte of buf[0..len) that no text file holds (NUL, a control character
 * other than tab, newline, vertical tab, form feed and carriage return, or DEL), or len if there
 * is none. Bytes 0x80 and above pass: UTF-8 comments and strings are text. The readers call this
 * to say "binary data" rather than a syntax error that echoes the bytes.
 */
size_t text_find_binary(const char *buf, size_t len);

/* Character classes, by table (the trace readers ask per character of millions of lines). */
enum { TEXT_BLANK = 1, TEXT_HEX = 2, TEXT_DEC = 4, TEXT_BINARY = 8, TEXT_COMMENT = 16 /* '#' */ };
extern const unsigned char text_char_class[256];

/* True for the blanks isspace() knows in the C locale: space, \t, \n, \v, \f, \r. */
static inline bool text_is_blank(char c)
{
	return (text_char_class[(unsigned char)c] & TEXT_BLANK) != 0;
}

/* Line (1-based) and column (1-based) of offset off in buf. */
void text_line_col(const char *buf, size_t off, unsigned *line, unsigned *col);

/* The value of each byte as a hexadecimal digit (either case), TEXT_NOT_DIGIT if it is none: one
 * load, where telling decimal from letter digits would be a branch that random addresses
 * mispredict. */
#define TEXT_NOT_DIGIT 0xff
extern const unsigned char text_digit_value[256];

/* The value of hexadecimal digit c (either case), or -1. */
static inline int text_hex_digit(char c)
{
	unsigned v = text_digit_value[(unsigned char)c];

	return v == TEXT_NOT_DIGIT ? -1 : (int)v;
}

/* The digits of base (2 .. 16) from s up to the first other byte or end, as a number into *v
 * (wrapping past 2^64 - 1: a caller bounds their count, as text_digits does): the end of the
 * digits, s when there is none. The one-pass readings of the trace readers take their numbers
 * with it, straight from the line. */
static inline const char *text_scan_digits(const char *s, const char *end, unsigned base,
					   uint64_t *v)
{
	uint64_t x = 0;
	unsigned d;

	for (; s < end && (d = text_digit_value[(unsigned char)*s]) < base; s++)
		x = x * base + d;
	*v = x;
	return s;
}

/* The digits s[0 .. len) in base (2 .. 16) as a number into *v: TEXT_NUM_BAD when there is none
 * or any other character (whatever came before), TEXT_NUM_OVERFLOW when it passes 2^64 - 1 (*v
 * wrapped). Both trace readers parse their numbers with it (millions of lines). */
enum text_num { TEXT_NUM_OK, TEXT_NUM_BAD, TEXT_NUM_OVERFLOW };

static inline enum text_num text_digits(const char *s, size_t len, unsigned base, uint64_t *v)
{
	uint64_t x = 0;
	bool over = false;
	size_t i;

	if (len == 0)
		return TEXT_NUM_BAD;
	if (len <= (base == 16 ? 16u : base == 10 ? 19u : 0u)) {
		/* too few digits to pass 2^64 - 1: no overflow check (a trace's usual number) */
		for (i = 0; i < len; i++) {
			unsigned d = text_digit_value[(unsigned char)s[i]];

			if (d >= base)
				return TEXT_NUM_BAD;
			x = x * base + d;
		}
		*v = x;
		return TEXT_NUM_OK;
	}
	for (i = 0; i < len; i++) {
		unsigned d = text_digit_value[(unsigned char)s[i]];

		if (d >= base) /* TEXT_NOT_DIGIT is >= every base */
			return TEXT_NUM_BAD;
		over |= __builtin_mul_overflow(x, (uint64_t)base, &x);
		over |= __builtin_add_overflow(x, (uint64_t)d, &x);
	}
	*v = x;
	return over ? TEXT_NUM_OVERFLOW : TEXT_NUM_OK;
}

/* The whole of file path, NUL-terminated (it may hold NULs too: its length is in *lenp, if not
 * NULL); malloc'd. NULL with errno set when it cannot be opened or read (a directory). */
char *text_read_file(const char *path, size_t *lenp);

#endif /* SIM_TEXT_H */
