/*
 * json.c - the JSON reader and writer of json.h: recursive descent over a NUL-terminated text.
 *
 * The parser keeps a cursor and a line count for messages; every failure unwinds through a
 * false return and frees what was built (json_free handles partly built trees because every
 * node is zeroed before it is filled).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "log.h"
#include "text.h"

struct jp {
	const char *s;
	int line;
	char *why;
	size_t whysize;
};

static bool jp_fail(struct jp *p, const char *what)
{
	if (p->why != NULL && p->why[0] == '\0')
		snprintf(p->why, p->whysize, "line %d: %s", p->line, what);
	return false;
}

static void jp_ws(struct jp *p)
{
	for (;;) {
		char c = *p->s;

		if (c == '\n')
			p->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		p->s++;
	}
}

static bool jp_hex4(struct jp *p, uint32_t *out)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		int h = text_hex_digit(p->s[i]);

		if (h < 0)
			return jp_fail(p, "bad \\u escape");
		v = v << 4 | (uint32_t)h;
	}
	p->s += 4;
	*out = v;
	return true;
}

/* Appends code point cp as UTF-8 to buf (room for 4 bytes guaranteed by the caller). */
static size_t put_utf8(char *buf, uint32_t cp)
{
	if (cp < 0x80) {
		buf[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		buf[0] = (char)(0xc0 | cp >> 6);
		buf[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		buf[0] = (char)(0xe0 | cp >> 12);
		buf[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		buf[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	buf[0] = (char)(0xf0 | cp >> 18);
	buf[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	buf[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	buf[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Parses a string literal at the cursor (on its opening quote) into a malloc'd *out. */
static bool jp_string(struct jp *p, char **out)
{
	const char *start = ++p->s;
	size_t cap = 16, n = 0;
	char *buf;

	while (*p->s != '"' && *p->s != '\0')
		p->s += *p->s == '\\' && p->s[1] != '\0' ? 2 : 1;
	if (*p->s == '\0')
		return jp_fail(p, "unterminated string");
	cap += (size_t)(p->s - start);
	buf = xmalloc(cap);
	p->s = start;
	while (*p->s != '"') {
		char c = *p->s++;
		uint32_t cp, lo;

		if ((unsigned char)c < 0x20) {
			free(buf);
			return jp_fail(p, "control character in a string");
		}
		if (c != '\\') {
			buf[n++] = c;
			continue;
		}
		c = *p->s++;
		switch (c) {
		case '"': case '\\': case '/':
			buf[n++] = c;
			break;
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case 'n': buf[n++] = '\n'; break;
		case 'r': buf[n++] = '\r'; break;
		case 't': buf[n++] = '\t'; break;
		case 'u':
			if (!jp_hex4(p, &cp)) {
				free(buf);
				return false;
			}
			if (cp >= 0xd800 && cp < 0xdc00 && p->s[0] == '\\' && p->s[1] == 'u') {
				p->s += 2;
				if (!jp_hex4(p, &lo)) {
					free(buf);
					return false;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (cp == 0) {
				free(buf);
				return jp_fail(p, "NUL in a string");
			}
			n += put_utf8(buf + n, cp); /* \uXXXX is 6 bytes of source, at most 4 out */
			break;
		default:
			free(buf);
			return jp_fail(p, "bad escape in a string");
		}
	}
	p->s++;
	buf[n] = '\0';
	*out = buf;
	return true;
}

static bool jp_value(struct jp *p, struct json *j, int depth);

static bool jp_number(struct jp *p, struct json *j)
{
	const char *start = p->s;
	char *end;

	if (*p->s == '-')
		p->s++;
	if (!(*p->s >= '0' && *p->s <= '9'))
		return jp_fail(p, "expected a value");
	while ((*p->s >= '0' && *p->s <= '9') || *p->s == '.' || *p->s == 'e' || *p->s == 'E' ||
	       *p->s == '+' || *p->s == '-')
		p->s++;
	j->text = xasprintf("%.*s", (int)(p->s - start), start);
	errno = 0;
	j->num = strtod(j->text, &end);
	if (*end != '\0')
		return jp_fail(p, "bad number");
	j->kind = JSON_NUMBER;
	return true;
}

static bool jp_word(struct jp *p, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(p->s, w, n) != 0)
		return jp_fail(p, "expected a value");
	p->s += n;
	return true;
}

/* Parses the elements of an array or the members of an object; the cursor is on [ or {. */
static bool jp_aggregate(struct jp *p, struct json *j, int depth, bool object)
{
	char close = object ? '}' : ']';
	size_t cap = 0;

	j->kind = object ? JSON_OBJECT : JSON_ARRAY;
	if (depth >= JSON_MAX_DEPTH)
		return jp_fail(p, "nested too deeply");
	p->s++;
	jp_ws(p);
	if (*p->s == close) {
		p->s++;
		return true;
	}
	for (;;) {
		struct json *k;
		char *key = NULL;

		if (object) {
			jp_ws(p);
			if (*p->s != '"')
				return jp_fail(p, "expected a member name");
			if (!jp_string(p, &key))
				return false;
			jp_ws(p);
			if (*p->s != ':') {
				free(key);
				return jp_fail(p, "expected ':'");
			}
			p->s++;
		}
		if (j->nkids == cap) {
			cap = cap ? 2 * cap : 8;
			j->kids = xreallocarray(j->kids, cap, sizeof *j->kids);
		}
		k = &j->kids[j->nkids++];
		memset(k, 0, sizeof *k);
		k->key = key;
		if (!jp_value(p, k, depth + 1))
			return false;
		jp_ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s == close) {
			p->s++;
			return true;
		}
		return jp_fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static bool jp_value(struct jp *p, struct json *j, int depth)
{
	jp_ws(p);
	switch (*p->s) {
	case '{':
		return jp_aggregate(p, j, depth, true);
	case '[':
		return jp_aggregate(p, j, depth, false);
	case '"':
		j->kind = JSON_STRING;
		return jp_string(p, &j->text);
	case 't':
		j->kind = JSON_BOOL;
		j->b = true;
		return jp_word(p, "true");
	case 'f':
		j->kind = JSON_BOOL;
		return jp_word(p, "false");
	case 'n':
		j->kind = JSON_NULL;
		return jp_word(p, "null");
	case '\0':
		return jp_fail(p, "unexpected end of text");
	default:
		return jp_number(p, j);
	}
}

struct json *json_parse(const char *text, char *why, size_t whysize)
{
	struct jp p = { text, 1, why, whysize };
	struct json *j = xcalloc(1, sizeof *j);

	if (why != NULL && whysize > 0)
		why[0] = '\0';
	if (!jp_value(&p, j, 0)) {
		json_free(j);
		return NULL;
	}
	jp_ws(&p);
	if (*p.s != '\0') {
		jp_fail(&p, "text after the value");
		json_free(j);
		return NULL;
	}
	return j;
}

struct json *json_parse_file(const char *path, char *why, size_t whysize)
{
	size_t n;
	char *buf = text_read_file(path, &n);
	struct json *j;

	if (buf == NULL) {
		snprintf(why, whysize, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (strlen(buf) != n) {
		free(buf);
		snprintf(why, whysize, "NUL byte in the file");
		return NULL;
	}
	j = json_parse(buf, why, whysize);
	free(buf);
	return j;
}

static void json_free_kids(struct json *j)
{
	size_t i;

	for (i = 0; i < j->nkids; i++)
		json_free_kids(&j->kids[i]);
	free(j->kids);
	free(j->key);
	free(j->text);
}

void json_free(struct json *j)
{
	if (j == NULL)
		return;
	json_free_kids(j);
	free(j);
}

const struct json *json_get(const struct json *o, const char *key)
{
	size_t i;

	if (o == NULL || o->kind != JSON_OBJECT)
		return NULL;
	for (i = 0; i < o->nkids; i++)
		if (strcmp(o->kids[i].key, key) == 0)
			return &o->kids[i];
	return NULL;
}

const char *json_str(const struct json *j)
{
	return j != NULL && j->kind == JSON_STRING ? j->text : NULL;
}

void json_write_string(FILE *out, const char *s)
{
	putc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			putc(c, out);
	}
	putc('"', out);
}

static void newline(FILE *out, int indent)
{
	if (indent >= 0)
		fprintf(out, "\n%*s", indent, "");
}

void json_write(FILE *out, const struct json *j, int indent)
{
	size_t i;

	switch (j->kind) {
	case JSON_NULL:
		fputs("null", out);
		return;
	case JSON_BOOL:
		fputs(j->b ? "true" : "false", out);
		return;
	case JSON_NUMBER:
		fputs(j->text, out);
		return;
	case JSON_STRING:
		json_write_string(out, j->text);
		return;
	case JSON_ARRAY:
	case JSON_OBJECT:
		break;
	}
	putc(j->kind == JSON_OBJECT ? '{' : '[', out);
	for (i = 0; i < j->nkids; i++) {
		if (i > 0)
			putc(',', out);
		newline(out, indent >= 0 ? indent + 2 : -1);
		if (j->kind == JSON_OBJECT) {
			json_write_string(out, j->kids[i].key);
			fputs(indent >= 0 ? ": " : ":", out);
		}
		json_write(out, &j->kids[i], indent >= 0 ? indent + 2 : -1);
	}
	if (j->nkids > 0)
		newline(out, indent);
	putc(j->kind == JSON_OBJECT ? '}' : ']', out);
}
