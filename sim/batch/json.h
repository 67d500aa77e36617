/*
 * json.h - a small JSON reader and writer for the sweep results: the per-point files that
 * `gmsim sweep` writes (embedding a run's --stats-json) and reads back to resume and to merge.
 *
 * The reader builds a tree of struct json. A number keeps its source text as well as its value,
 * so that a merged CSV shows a statistic exactly as the run wrote it. Objects keep their members
 * in file order; duplicate keys are kept (json_get finds the first). Depth is limited to
 * JSON_MAX_DEPTH. Strings may hold any escape; \u escapes are decoded to UTF-8 (surrogate pairs
 * included), and a string with an embedded NUL is rejected.
 *
 * Not done: streaming, comments, numbers beyond double precision (the text is kept).
 */
#ifndef SIM_JSON_H
#define SIM_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 64

enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_kind kind;
	char *key;           /* member name inside an object, else NULL */
	char *text;          /* JSON_STRING: the decoded string; JSON_NUMBER: the literal */
	double num;          /* JSON_NUMBER */
	bool b;              /* JSON_BOOL */
	struct json *kids;   /* JSON_ARRAY elements, JSON_OBJECT members */
	size_t nkids;
};

/* Parses text. Returns a new tree (free with json_free), or NULL with "line L: what" in why. */
struct json *json_parse(const char *text, char *why, size_t whysize);
/* Reads and parses a whole file. NULL with why filled if it cannot be read or parsed. */
struct json *json_parse_file(const char *path, char *why, size_t whysize);
void json_free(struct json *j);

/* The first member key of object o, or NULL (also when o is NULL or not an object). */
const struct json *json_get(const struct json *o, const char *key);
/* The string of j, or NULL if j is not a string. */
const char *json_str(const struct json *j);

/* Writes s as a JSON string literal, with quotes and escapes. */
void json_write_string(FILE *out, const char *s);
/* Writes j; nested values indented by indent + 2 spaces per level (indent < 0: one line). */
void json_write(FILE *out, const struct json *j, int indent);

#endif /* SIM_JSON_H */
