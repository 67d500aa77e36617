/*
 * dram_trace.c - request streams for the standalone DRAM mode: trace files (DRAMsim3, Ramulator
 * 1 and 2, native) read a line at a time, and synthetic patterns drawn from GSL's mt19937.
 *
 * Models the front end of a memory-only run: an ordered list of (address, size, read/write,
 * optional arrival cycle). It decides nothing about timing beyond passing the cycle through.
 *
 * Files
 *   - Read in 64 KiB blocks, each line cut into one fixed buffer as fgets would fill it: memory
 *     is constant whatever the file's size, and a
 *     line longer than DRAM_TRACE_LINE_MAX - 2 characters is an error, not a reallocation. A
 *     line with a byte no text holds (NUL, control characters) is "binary data", and a last line
 *     without its newline is a truncated file (a trace cut mid-record would otherwise read as a
 *     valid shorter record: "11 W 0x8" of "11 W 0x80"): both are errors.
 *   - The format is that of the first line that is neither blank nor a comment ('#' first).
 *     Exactly one format accepts any record (they differ in token count, in the op word or in the
 *     first token), so detection never guesses. dram_trace_open reads that first record and keeps
 *     it for the first dram_trace_next, so a file with no record is refused at open ("no
 *     records").
 *   - Every later line is parsed strictly in that format; the first bad line stops the trace:
 *     dram_trace_next returns -1 with err = path:line and says what was expected and what was
 *     found, and keeps returning -1 with the same error.
 *   - Numbers: "0x" hex or plain hex for the DRAMsim3 and Ramulator 1 addresses (both tools read
 *     them with a base-16 conversion); "0x" hex or decimal for Ramulator 2 and native addresses;
 *     decimal for cycles and sizes. A value that does not fit 64 bits is an error, never
 *     truncated. Cycles (dramsim3, native) are arrival times and must not decrease.
 *
 * Invariants: records counts what dram_trace_next returned; once failed, a trace yields nothing.
 *
 * Not modelled: Ramulator 2's ReadWriteTrace (address vectors) and SimpleO3/CPU-mode traces,
 * DRAMsim3's re-issue of the last line at EOF and its reading of unknown ops as reads (both are
 * accidents, not formats), compressed files.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "dram_trace.h"
#include "log.h"
#include "text.h"

/* Longest line accepted, newline and NUL included. Real trace lines are under 64 characters;
 * 512 leaves room for comments without letting a binary file grow a buffer. */
#define DRAM_TRACE_LINE_MAX 512
/* The file is read in blocks this large; lines are cut from them (fgets and its bookkeeping cost
 * more than the parse on a 2 M-record trace). */
#define DRAM_TRACE_READ_AHEAD 65536
/* Tokens a line may have in any format (native: 4); one more shows "extra field". */
#define DRAM_TRACE_TOK_MAX 5
/* Largest request a native record may ask for: 4 KiB, a page, 128 bursts of 32 B. */
#define DRAM_TRACE_BYTES_MAX 4096
/* Characters of an offending line quoted in an error message. */
#define DRAM_TRACE_QUOTE_MAX 80

struct dram_trace {
	enum dram_trace_format fmt;
	uint64_t records;       /* returned by dram_trace_next */
	bool failed;            /* err holds the error every later call returns */
	struct sim_err err;

	/* files */
	FILE *f;
	char *path;
	uint32_t default_bytes;
	int line;               /* number of the last line read */
	char buf[DRAM_TRACE_LINE_MAX];
	char *rd;               /* read-ahead: DRAM_TRACE_READ_AHEAD bytes, [rd_pos, rd_len) unread */
	size_t rd_pos, rd_len;
	bool rd_eof;
	bool has_pending;       /* the record found by detection, not yet returned */
	struct dram_trace_rec pending;
	uint64_t last_cycle;
	uint64_t max_cycle;     /* a record past it is an error; 0 = no limit */

	/* patterns */
	struct dram_pattern_params pp;
	gsl_rng *rng;
	uint64_t next_addr;     /* stream, strided */
	uint64_t step;          /* stride mod footprint */
	uint64_t slots;         /* random: footprint / bytes */
};

static const char *const format_names[DRAM_TRACE_FORMAT_COUNT] = {
	"dramsim3", "ramulator_ldst", "ramulator_rw", "native", "pattern"
};

/* What a record of each file format looks like, for error messages. */
static const char *const format_forms[DRAM_TRACE_PATTERN] = {
	"0xADDR READ|WRITE CYCLE", "LD|ST ADDR", "0xADDR R|W", "CYCLE R|W ADDR [BYTES]"
};

const char *dram_trace_format_name(enum dram_trace_format f)
{
	return (unsigned)f < DRAM_TRACE_FORMAT_COUNT ? format_names[f] : "?";
}

enum dram_trace_format dram_trace_format(const struct dram_trace *t)
{
	return t->fmt;
}

uint64_t dram_trace_records(const struct dram_trace *t)
{
	return t->records;
}

void dram_trace_set_max_cycle(struct dram_trace *t, uint64_t max)
{
	t->max_cycle = max;
}

int dram_pattern_kind_parse(const char *s)
{
	if (strcmp(s, "stream") == 0)
		return DRAM_PATTERN_STREAM;
	if (strcmp(s, "random") == 0)
		return DRAM_PATTERN_RANDOM;
	if (strcmp(s, "strided") == 0)
		return DRAM_PATTERN_STRIDED;
	return -1;
}

/* ---------------------------------------------------------------------------------------------
 * Tokens and numbers
 */

struct tok {
	const char *s;
	size_t len;
};

/* Splits line at blanks, stopping at '#' if hash_comments. Returns the number of tokens (which
 * may exceed max; only max are stored). The line is one read_line let through: its only byte
 * of class TEXT_BINARY is the terminating NUL, so one class test per character finds a token's
 * end (a blank, the NUL, or a comment's '#'). */
static size_t tokenize(const char *line, bool hash_comments, struct tok *toks, size_t max)
{
	const unsigned stop = TEXT_BINARY | (hash_comments ? TEXT_COMMENT : 0);
	const char *p = line;
	size_t n = 0;

	for (;;) {
		while (text_is_blank(*p))
			p++;
		if (text_char_class[(unsigned char)*p] & stop)
			return n;
		if (n < max)
			toks[n].s = p;
		while (!(text_char_class[(unsigned char)*p] & (stop | TEXT_BLANK)))
			p++;
		if (n < max)
			toks[n].len = (size_t)(p - toks[n].s);
		n++;
	}
}

static bool tok_is(const struct tok *t, const char *word)
{
	return t->len == strlen(word) && strncmp(t->s, word, t->len) == 0;
}

/* word: upper-case letters only (then clearing bit 5 of a byte matches it in either case and
 * nothing else). */
static bool tok_is_nocase(const struct tok *t, const char *word)
{
	size_t i;

	if (t->len != strlen(word))
		return false;
	for (i = 0; i < t->len; i++)
		if (((unsigned char)t->s[i] & ~0x20u) != (unsigned char)word[i])
			return false;
	return true;
}

static bool has_hex_prefix(const struct tok *t)
{
	return t->len >= 2 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X');
}

/* Hex digits, with an optional 0x prefix. */
static enum text_num parse_hex(const struct tok *t, uint64_t *v)
{
	size_t i = has_hex_prefix(t) ? 2 : 0;

	return text_digits(t->s + i, t->len - i, 16, v);
}

static enum text_num parse_dec(const struct tok *t, uint64_t *v)
{
	return text_digits(t->s, t->len, 10, v);
}

/* "0x" hex, or decimal. */
static enum text_num parse_hex_or_dec(const struct tok *t, uint64_t *v)
{
	return has_hex_prefix(t) ? parse_hex(t, v) : parse_dec(t, v);
}

/* ---------------------------------------------------------------------------------------------
 * One line in one format
 *
 * Each parser fills r and returns 0, or returns -1 with why (what was wrong, without the line,
 * which the caller quotes).
 */

#define WHY(...) (snprintf(why, why_size, __VA_ARGS__), -1)

static int check_num(enum text_num st, const char *what, const struct tok *t, char *why,
		     size_t why_size)
{
	if (st == TEXT_NUM_OVERFLOW)
		return WHY("%s \"%.*s\" does not fit 64 bits", what, (int)t->len, t->s);
	if (st == TEXT_NUM_BAD)
		return WHY("bad %s \"%.*s\"", what, (int)t->len, t->s);
	return 0;
}

static int check_count(size_t n, size_t lo, size_t hi, const struct tok *toks, char *why,
		       size_t why_size)
{
	if (n < lo && lo == hi)
		return WHY("missing field: %zu fields, expected %zu", n, lo);
	if (n < lo)
		return WHY("missing field: %zu fields, expected %zu or %zu", n, lo, hi);
	if (n > hi)
		return WHY("extra field \"%.*s\"", (int)toks[hi].len, toks[hi].s);
	return 0;
}

/* A DRAMsim3 record from its three tokens (parse_dramsim3, and plain_dramsim3 on the
 * read-ahead). */
static int dramsim3_fields(const struct tok *t, uint32_t dflt_bytes, struct dram_trace_rec *r,
			   char *why, size_t why_size)
{
	if (check_num(parse_hex(&t[0], &r->addr), "address", &t[0], why, why_size) < 0)
		return -1;
	if (tok_is_nocase(&t[1], "READ") || tok_is(&t[1], "P_MEM_RD") || tok_is(&t[1], "P_FETCH"))
		r->is_write = false;
	else if (tok_is_nocase(&t[1], "WRITE") || tok_is(&t[1], "P_MEM_WR") ||
		 tok_is(&t[1], "BOFF"))
		r->is_write = true;
	else
		return WHY("unknown op \"%.*s\"", (int)t[1].len, t[1].s);
	if (check_num(parse_dec(&t[2], &r->cycle), "cycle", &t[2], why, why_size) < 0)
		return -1;
	r->has_cycle = true;
	r->bytes = dflt_bytes;
	return 0;
}

static int parse_dramsim3(const char *line, uint32_t dflt_bytes, struct dram_trace_rec *r,
			  char *why, size_t why_size)
{
	struct tok t[DRAM_TRACE_TOK_MAX];
	size_t n = tokenize(line, false, t, DRAM_TRACE_TOK_MAX);

	if (check_count(n, 3, 3, t, why, why_size) < 0)
		return -1;
	return dramsim3_fields(t, dflt_bytes, r, why, why_size);
}

static int parse_ramulator_ldst(const char *line, uint32_t dflt_bytes, struct dram_trace_rec *r,
				char *why, size_t why_size)
{
	struct tok t[DRAM_TRACE_TOK_MAX];
	size_t n = tokenize(line, false, t, DRAM_TRACE_TOK_MAX);

	if (check_count(n, 2, 2, t, why, why_size) < 0)
		return -1;
	if (tok_is(&t[0], "LD"))
		r->is_write = false;
	else if (tok_is(&t[0], "ST"))
		r->is_write = true;
	else
		return WHY("unknown op \"%.*s\"", (int)t[0].len, t[0].s);
	if (check_num(parse_hex_or_dec(&t[1], &r->addr), "address", &t[1], why, why_size) < 0)
		return -1;
	r->has_cycle = false;
	r->cycle = 0;
	r->bytes = dflt_bytes;
	return 0;
}

static int parse_ramulator_rw(const char *line, uint32_t dflt_bytes, struct dram_trace_rec *r,
			      char *why, size_t why_size)
{
	struct tok t[DRAM_TRACE_TOK_MAX];
	size_t n = tokenize(line, false, t, DRAM_TRACE_TOK_MAX);

	if (check_count(n, 2, 2, t, why, why_size) < 0)
		return -1;
	if (check_num(parse_hex(&t[0], &r->addr), "address", &t[0], why, why_size) < 0)
		return -1;
	if (tok_is(&t[1], "R"))
		r->is_write = false;
	else if (tok_is(&t[1], "W"))
		r->is_write = true;
	else
		return WHY("unknown op \"%.*s\"", (int)t[1].len, t[1].s);
	r->has_cycle = false;
	r->cycle = 0;
	r->bytes = dflt_bytes;
	return 0;
}

static int parse_native(const char *line, uint32_t dflt_bytes, struct dram_trace_rec *r,
			char *why, size_t why_size)
{
	struct tok t[DRAM_TRACE_TOK_MAX];
	size_t n = tokenize(line, true, t, DRAM_TRACE_TOK_MAX);
	uint64_t bytes = dflt_bytes;

	if (check_count(n, 3, 4, t, why, why_size) < 0)
		return -1;
	if (check_num(parse_dec(&t[0], &r->cycle), "cycle", &t[0], why, why_size) < 0)
		return -1;
	if (tok_is(&t[1], "R"))
		r->is_write = false;
	else if (tok_is(&t[1], "W"))
		r->is_write = true;
	else
		return WHY("unknown op \"%.*s\"", (int)t[1].len, t[1].s);
	if (check_num(parse_hex_or_dec(&t[2], &r->addr), "address", &t[2], why, why_size) < 0)
		return -1;
	if (n == 4) {
		if (parse_dec(&t[3], &bytes) != TEXT_NUM_OK || bytes < 1 ||
		    bytes > DRAM_TRACE_BYTES_MAX)
			return WHY("bad size \"%.*s\": expected 1..%d bytes", (int)t[3].len,
				   t[3].s, DRAM_TRACE_BYTES_MAX);
	}
	r->has_cycle = true;
	r->bytes = (uint32_t)bytes;
	return 0;
}

#undef WHY

typedef int parse_fn(const char *line, uint32_t dflt_bytes, struct dram_trace_rec *r, char *why,
		     size_t why_size);

static parse_fn *const parsers[DRAM_TRACE_PATTERN] = {
	parse_dramsim3, parse_ramulator_ldst, parse_ramulator_rw, parse_native
};

/* ---------------------------------------------------------------------------------------------
 * Files
 */

/* The line without surrounding blanks, cut to DRAM_TRACE_QUOTE_MAX characters, for messages. */
static void quote_line(const char *line, char *out, size_t size)
{
	size_t len;

	while (text_is_blank(*line))
		line++;
	len = strlen(line);
	while (len > 0 && text_is_blank(line[len - 1]))
		len--;
	if (len > DRAM_TRACE_QUOTE_MAX)
		snprintf(out, size, "%.*s...", DRAM_TRACE_QUOTE_MAX, line);
	else
		snprintf(out, size, "%.*s", (int)len, line);
}

/* Records the error every later call returns; returns -1. */
static int trace_fail(struct dram_trace *t, struct sim_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int trace_fail(struct dram_trace *t, struct sim_err *err, const char *fmt, ...)
{
	va_list ap;

	t->failed = true;
	snprintf(t->err.file, sizeof t->err.file, "%s", t->path);
	t->err.line = t->line;
	va_start(ap, fmt);
	vsnprintf(t->err.msg, sizeof t->err.msg, fmt, ap);
	va_end(ap);
	if (err != NULL)
		*err = t->err;
	return -1;
}

/*
 * Reads the next line that is neither blank nor a comment into t->buf. Returns 1, 0 at the end
 * of the file, or -1 (error recorded) on a read error or an over-long line.
 */
/*
 * The next piece of the file as fgets into t->buf would give it: up to and including the next
 * newline, at most sizeof t->buf - 1 bytes, NUL-terminated (a NUL byte inside stays, the length
 * counts it). Returns the length, 0 at the end of the file, -1 on a read error (errno set).
 */
static ssize_t next_piece(struct dram_trace *t)
{
	const size_t max = sizeof t->buf - 1;

	for (;;) {
		size_t avail = t->rd_len - t->rd_pos, n = 0;
		const char *from = t->rd + t->rd_pos, *nl;

		nl = memchr(from, '\n', avail < max ? avail : max);
		if (nl != NULL)
			n = (size_t)(nl - from) + 1;
		else if (avail >= max || (t->rd_eof && avail > 0))
			n = avail < max ? avail : max;
		else if (t->rd_eof)
			return 0;
		if (n > 0) {
			memcpy(t->buf, from, n);
			t->buf[n] = '\0';
			t->rd_pos += n;
			return (ssize_t)n;
		}
		/* a partial line: keep it, read the next block after it */
		memmove(t->rd, from, avail);
		t->rd_pos = 0;
		t->rd_len = avail;
		n = fread(t->rd + avail, 1, DRAM_TRACE_READ_AHEAD - avail, t->f);
		if (n == 0) {
			if (ferror(t->f))
				return -1;
			t->rd_eof = true;
		}
		t->rd_len += n;
	}
}

static int read_line(struct dram_trace *t, struct sim_err *err)
{
	for (;;) {
		ssize_t got = next_piece(t);
		size_t len, bin;
		const char *p;

		if (got < 0)
			return trace_fail(t, err, "read error: %s", strerror(errno));
		if (got == 0)
			return 0;
		t->line++;
		len = (size_t)got;
		bin = text_find_binary(t->buf, len);
		if (bin < len)
			return trace_fail(t, err, "binary data (byte 0x%02x at column %zu): not a text "
					  "trace", (unsigned)(unsigned char)t->buf[bin], bin + 1);
		/* a full buffer without its newline is a longer line */
		if (len == sizeof t->buf - 1 && t->buf[len - 1] != '\n')
			return trace_fail(t, err, "line longer than %d characters",
					  DRAM_TRACE_LINE_MAX - 2);
		if (len > 0 && t->buf[len - 1] != '\n')
			return trace_fail(t, err, "the file ends inside this line (no newline after "
					  "\"%.*s\"): truncated? End a complete last line with a "
					  "newline", (int)(len < 64 ? len : 64), t->buf);
		for (p = t->buf; text_is_blank(*p); p++)
			;
		if (*p != '\0' && *p != '#')
			return 1;
	}
}

/* The message for a line that is not a record of t's format. */
static int bad_line(struct dram_trace *t, const char *why, struct sim_err *err)
{
	char got[DRAM_TRACE_QUOTE_MAX + 4], other_why[128];
	struct dram_trace_rec other;
	int f;

	quote_line(t->buf, got, sizeof got);
	for (f = 0; f < DRAM_TRACE_PATTERN; f++) {
		if (f != (int)t->fmt &&
		    parsers[f](t->buf, t->default_bytes, &other, other_why, sizeof other_why) == 0)
			return trace_fail(t, err,
					  "expected \"%s\" (%s format), got \"%s\" (a %s line: a "
					  "trace keeps the format of its first record)",
					  format_forms[t->fmt], format_names[t->fmt], got,
					  format_names[f]);
	}
	return trace_fail(t, err, "expected \"%s\" (%s format), got \"%s\" (%s)",
			  format_forms[t->fmt], format_names[t->fmt], got, why);
}

/* Parses t->buf in t's format into r, checking that cycles do not decrease. */
static int parse_record(struct dram_trace *t, struct dram_trace_rec *r, struct sim_err *err)
{
	char why[128];

	if (parsers[t->fmt](t->buf, t->default_bytes, r, why, sizeof why) < 0)
		return bad_line(t, why, err);
	if (r->has_cycle) {
		if (r->cycle < t->last_cycle)
			return trace_fail(t, err,
					  "cycle %" PRIu64 " is before cycle %" PRIu64 " of the "
					  "previous record (cycles are arrival times and must not "
					  "decrease)",
					  r->cycle, t->last_cycle);
		t->last_cycle = r->cycle;
	}
	return 0;
}

/* Finds the format from the first record and keeps that record pending. */
static int detect(struct dram_trace *t, struct sim_err *err)
{
	char why[128], got[DRAM_TRACE_QUOTE_MAX + 4];
	int rc = read_line(t, err), f;

	if (rc < 0)
		return -1;
	if (rc == 0) {
		t->line = 0;
		return trace_fail(t, err, "no records");
	}
	for (f = 0; f < DRAM_TRACE_PATTERN; f++) {
		if (parsers[f](t->buf, t->default_bytes, &t->pending, why, sizeof why) == 0) {
			t->fmt = (enum dram_trace_format)f;
			t->has_pending = true;
			t->last_cycle = t->pending.cycle;
			return 0;
		}
	}
	quote_line(t->buf, got, sizeof got);
	return trace_fail(t, err,
			  "expected a record in a known format (dramsim3 \"%s\", ramulator_ldst "
			  "\"%s\", ramulator_rw \"%s\", native \"%s\"), got \"%s\"",
			  format_forms[DRAM_TRACE_DRAMSIM3],
			  format_forms[DRAM_TRACE_RAMULATOR_LDST],
			  format_forms[DRAM_TRACE_RAMULATOR_RW], format_forms[DRAM_TRACE_NATIVE],
			  got);
}

struct dram_trace *dram_trace_open(const char *path, uint32_t default_bytes,
				   struct sim_err *err)
{
	struct dram_trace *t;

	SIM_ASSERT(path != NULL);
	t = xcalloc(1, sizeof *t);
	t->path = xstrdup(path);
	t->default_bytes = default_bytes;
	t->rd = xmalloc(DRAM_TRACE_READ_AHEAD);
	t->f = fopen(path, "r");
	if (t->f == NULL) {
		trace_fail(t, err, "cannot open: %s", strerror(errno));
		dram_trace_close(t);
		return NULL;
	}
	if (detect(t, err) < 0) {
		dram_trace_close(t);
		return NULL;
	}
	return t;
}

static bool is_space_or_tab(char c)
{
	return c == ' ' || c == '\t';
}

/* The next line straight from the read-ahead, when it is a DRAMsim3 record in its plain form:
 * the address in at most 16 hex digits (after an optional 0x), spaces or tabs, READ or WRITE
 * in any case, spaces or tabs, the cycle in at most 19 decimal digits, the newline, no other
 * byte, and its cycle not before the last: the record the general path (read_line, then
 * parse_dramsim3) reads from it. Anything else (other blanks or ops, more digits, a comment, a
 * line the read-ahead cuts, an error to report) returns false having consumed nothing, and the
 * general path takes it. That path copies the line, scans it for binary bytes and tokenizes
 * it first: about 650 instructions a line, a tenth of a sequential run's; this one reads the
 * numbers as it meets them and compares the op as that path does, with tok_is_nocase (about 240;
 * test_dramsim3_plain_like_general holds the two to the same records). */
static bool plain_dramsim3(struct dram_trace *t, struct dram_trace_rec *r)
{
	const char *s = t->rd + t->rd_pos, *end = t->rd + t->rd_len, *p = s, *d;
	uint64_t addr, cycle;
	struct tok op;
	bool write;

	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	d = p;
	p = text_scan_digits(d, end, 16, &addr);
	if (p == d || p - d > 16 || p == end || !is_space_or_tab(*p))
		return false;
	while (p < end && is_space_or_tab(*p))
		p++;
	/* the op, compared as the general path compares it */
	for (op.s = p; p < end && !(text_char_class[(unsigned char)*p] & (TEXT_BLANK | TEXT_BINARY));
	     p++)
		;
	op.len = (size_t)(p - op.s);
	if (p == end || !is_space_or_tab(*p))
		return false;
	if (tok_is_nocase(&op, "READ"))
		write = false;
	else if (tok_is_nocase(&op, "WRITE"))
		write = true;
	else
		return false;
	while (p < end && is_space_or_tab(*p))
		p++;
	d = p;
	p = text_scan_digits(d, end, 10, &cycle);
	if (p == d || p - d > 19 || p == end || *p != '\n' || p - s >= DRAM_TRACE_LINE_MAX / 2 ||
	    cycle < t->last_cycle)
		return false;
	r->addr = addr;
	r->is_write = write;
	r->cycle = cycle;
	r->has_cycle = true;
	r->bytes = t->default_bytes;
	t->rd_pos += (size_t)(p + 1 - s);
	t->line++;
	t->last_cycle = cycle;
	return true;
}

static int file_next(struct dram_trace *t, struct dram_trace_rec *r, struct sim_err *err)
{
	int rc;

	if (t->has_pending) {
		*r = t->pending;
		t->has_pending = false;
		return 1;
	}
	if (t->fmt == DRAM_TRACE_DRAMSIM3 && plain_dramsim3(t, r))
		return 1;
	rc = read_line(t, err);
	if (rc <= 0)
		return rc;
	if (parse_record(t, r, err) < 0)
		return -1;
	return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Patterns
 *
 * Per record, in this order: the address (random: one draw, or two when footprint / bytes
 * exceeds 2^32 - 1, the most gsl_rng_uniform_int takes from mt19937), then the op (one
 * gsl_rng_uniform only when 0 < write_fraction < 1: pure-read and pure-write streams draw
 * addresses only, so a random read stream is the same whether or not writes are configured off).
 */

/* mt19937 yields 32 bits per draw: its range is 0..2^32 - 1. */
#define MT_MAX 0xffffffffu

/* Uniform in [0, n), n >= 1, any 64-bit n. */
static uint64_t uniform_u64(gsl_rng *rng, uint64_t n)
{
	uint64_t limit, v;

	if (n <= MT_MAX)
		return gsl_rng_uniform_int(rng, (unsigned long)n);
	/* Two draws make 64 bits; rejecting the top partial block keeps every value equally likely
	 * (limit is the largest multiple of n that fits, so fewer than half the draws are lost). */
	limit = UINT64_MAX - UINT64_MAX % n;
	do {
		v = (uint64_t)gsl_rng_get(rng) << 32;
		v |= (uint64_t)gsl_rng_get(rng);
	} while (v >= limit);
	return v % n;
}

struct dram_trace *dram_trace_pattern(const struct dram_pattern_params *p, struct sim_err *err)
{
	struct dram_trace *t;
	uint64_t stride;

	SIM_ASSERT(p != NULL);
	if (p->kind != DRAM_PATTERN_STREAM && p->kind != DRAM_PATTERN_RANDOM &&
	    p->kind != DRAM_PATTERN_STRIDED) {
		sim_err_set(err, NULL, 0, "pattern: unknown kind %d", (int)p->kind);
		return NULL;
	}
	if (p->count < 1) {
		sim_err_set(err, NULL, 0, "pattern: count must be at least 1, got 0");
		return NULL;
	}
	if (p->bytes < 1) {
		sim_err_set(err, NULL, 0, "pattern: bytes must be at least 1, got 0");
		return NULL;
	}
	if (p->footprint < p->bytes) {
		sim_err_set(err, NULL, 0,
			    "pattern: footprint (%" PRIu64 " B) must be at least bytes (%" PRIu32
			    " B)",
			    p->footprint, p->bytes);
		return NULL;
	}
	if (!(p->write_fraction >= 0.0 && p->write_fraction <= 1.0)) {
		sim_err_set(err, NULL, 0, "pattern: write_fraction must be in [0, 1], got %g",
			    p->write_fraction);
		return NULL;
	}
	if (p->kind == DRAM_PATTERN_STRIDED && p->stride == 0) {
		sim_err_set(err, NULL, 0, "pattern: strided needs a stride of at least 1 B");
		return NULL;
	}
	t = xcalloc(1, sizeof *t);
	t->fmt = DRAM_TRACE_PATTERN;
	t->path = xstrdup("pattern");
	t->pp = *p;
	t->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (t->rng == NULL)
		sim_panic("out of memory allocating the pattern generator");
	/* GSL's mt19937 keeps 32 bits of the seed: fold the high half in so that seeds which
	 * differ only there still differ. (GSL maps seed 0 to its default, 4357.) */
	gsl_rng_set(t->rng, (unsigned long)((p->seed ^ (p->seed >> 32)) & MT_MAX));
	stride = p->stride != 0 ? p->stride : p->bytes;
	t->step = stride % p->footprint;
	t->slots = p->footprint / p->bytes;
	return t;
}

static int pattern_next(struct dram_trace *t, struct dram_trace_rec *r)
{
	const struct dram_pattern_params *p = &t->pp;

	if (t->records >= p->count)
		return 0;
	if (p->kind == DRAM_PATTERN_RANDOM) {
		r->addr = uniform_u64(t->rng, t->slots) * p->bytes;
	} else {
		/* (i * stride) mod footprint, without the product overflowing. */
		r->addr = t->next_addr;
		if (t->next_addr >= p->footprint - t->step)
			t->next_addr -= p->footprint - t->step;
		else
			t->next_addr += t->step;
	}
	if (p->write_fraction <= 0.0)
		r->is_write = false;
	else if (p->write_fraction >= 1.0)
		r->is_write = true;
	else
		r->is_write = gsl_rng_uniform(t->rng) < p->write_fraction;
	r->bytes = p->bytes;
	r->has_cycle = false;
	r->cycle = 0;
	return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Both
 */

int dram_trace_next(struct dram_trace *t, struct dram_trace_rec *r, struct sim_err *err)
{
	int rc;

	if (t->failed) {
		if (err != NULL)
			*err = t->err;
		return -1;
	}
	rc = t->fmt == DRAM_TRACE_PATTERN ? pattern_next(t, r) : file_next(t, r, err);
	if (rc == 1 && t->max_cycle != 0 && r->has_cycle && r->cycle > t->max_cycle)
		return trace_fail(t, err,
				  "cycle %" PRIu64 " is past the last cycle the simulation can reach "
				  "(%" PRIu64 ")", r->cycle, t->max_cycle);
	if (rc == 1)
		t->records++;
	return rc;
}

void dram_trace_close(struct dram_trace *t)
{
	if (t == NULL)
		return;
	if (t->f != NULL)
		fclose(t->f);
	free(t->rd);
	if (t->rng != NULL)
		gsl_rng_free(t->rng);
	free(t->path);
	free(t);
}
