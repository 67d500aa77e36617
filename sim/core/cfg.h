/*
 * cfg.h - the configuration loader: libconfig files checked against per-unit field tables.
 *
 * Each unit declares its parameters once, as a table of struct cfg_field (key, type, range,
 * default, one-line description) over the fields of its struct <unit>_params. A struct
 * cfg_schema lists every group of the simulator (dotted group names such as "clock" or
 * "dram.timing") with the offset of its params struct inside one big params struct. The same
 * tables drive loading, range checks, the effective-config writer, the config hash and the
 * Markdown reference in doc/. This is the only module that includes <libconfig.h>.
 *
 * Loading rules (cfg_load.c)
 *   - `@include "name"`: an absolute name as it is; else relative to the folder of the file that
 *     includes it, then to the shipped configs folder (cfg_shipped_dir). A missing include
 *     names every place looked; an include loop is an error.
 *   - Layers (cfg_load_layered, GPU configs): a file whose top level sets `base = "name"`
 *     (found as an include is) is that base with the file's settings laid over it, key by key
 *     inside groups. Each setting keeps its own file and line for errors and origins.
 *   - Every setting must be a known group or key: anything else is an error with a "did you
 *     mean" suggestion. Values are type- and range-checked; 32-bit fields reject 64-bit values.
 *     Integers are read as 64-bit: libconfig 1.5 silently truncates an integer literal without
 *     an L suffix to 32 bits, so for such settings the literal is re-read from the source line.
 *   - A key that is absent takes its default; a key without default (dflt == NULL) is required.
 *   - -o key=value overrides edit the tree before reading, so they get the same checks.
 *   - Every problem found is reported, one line each: `file:line: group.key: what was expected`
 *     (overrides name themselves: `-o clock.core_mhz=abc: clock.core_mhz: ...`).
 * Library style: functions return 0 or -1 and fill a struct sim_err; they never exit.
 */
#ifndef SIM_CFG_H
#define SIM_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log.h"

enum cfg_type {
	CFG_U32,  /* uint32_t */
	CFG_U64,  /* uint64_t */
	CFG_I64,  /* int64_t */
	CFG_F64,  /* double; integers accepted */
	CFG_BOOL, /* bool */
	CFG_STR,  /* char[CFG_STR_MAX] */
	CFG_ENUM, /* uint32_t index into names[] */
	CFG_TYPE_COUNT
};

#define CFG_STR_MAX 128

struct cfg_field {
	const char *key;          /* relative to the group; = the params field name */
	enum cfg_type type;
	size_t offset;            /* offsetof(struct <unit>_params, field) */
	size_t size;              /* sizeof the field, checked against the type */
	int64_t min, max;         /* integers: inclusive range */
	double rmin, rmax;        /* CFG_F64: inclusive range */
	const char *dflt;         /* default, as it would be written in a file; NULL = required */
	const char *const *names; /* CFG_ENUM: NULL-terminated value names */
	const char *desc;         /* one line, with the unit of the value */
};

#define CFG_FIELD_SIZE(T, f) sizeof(((T *)0)->f)
#define CFG_U32_FIELD(T, f, lo, hi, d, text) \
	{ #f, CFG_U32, offsetof(T, f), CFG_FIELD_SIZE(T, f), lo, hi, 0, 0, d, NULL, text }
#define CFG_U64_FIELD(T, f, lo, hi, d, text) \
	{ #f, CFG_U64, offsetof(T, f), CFG_FIELD_SIZE(T, f), lo, hi, 0, 0, d, NULL, text }
#define CFG_I64_FIELD(T, f, lo, hi, d, text) \
	{ #f, CFG_I64, offsetof(T, f), CFG_FIELD_SIZE(T, f), lo, hi, 0, 0, d, NULL, text }
#define CFG_F64_FIELD(T, f, lo, hi, d, text) \
	{ #f, CFG_F64, offsetof(T, f), CFG_FIELD_SIZE(T, f), 0, 0, lo, hi, d, NULL, text }
#define CFG_BOOL_FIELD(T, f, d, text) \
	{ #f, CFG_BOOL, offsetof(T, f), CFG_FIELD_SIZE(T, f), 0, 1, 0, 0, d, NULL, text }
#define CFG_STR_FIELD(T, f, d, text) \
	{ #f, CFG_STR, offsetof(T, f), CFG_FIELD_SIZE(T, f), 0, 0, 0, 0, d, NULL, text }
#define CFG_ENUM_FIELD(T, f, choices, d, text) \
	{ #f, CFG_ENUM, offsetof(T, f), CFG_FIELD_SIZE(T, f), 0, 0, 0, 0, d, choices, text }

struct cfg_group {
	const char *name;               /* dotted path: "clock", "dram.timing" */
	const char *desc;               /* one line */
	const struct cfg_field *fields;
	size_t nfields;
	size_t offset;                  /* of this group's params struct in the whole params */
};

struct cfg_schema {
	const struct cfg_group *groups; /* parents before children */
	size_t ngroups;
};

struct cfg;

/* Parses path and its includes. On failure returns -1 with err filled and *out NULL. */
int cfg_load_file(struct cfg **out, const char *path, struct sim_err *err);
/* As cfg_load_file, then, if the top level has `base = "name"`, loads that base (layered too)
 * and lays this file's other settings over it: one tree, as if one file had said it all. */
int cfg_load_layered(struct cfg **out, const char *path, struct sim_err *err);
/* The shipped configs folder that includes and bases fall back to: $GMSIM_CONFIG_DIR if set,
 * else the configs/ of the source tree gmsim was built from. */
const char *cfg_shipped_dir(void);
/* Parses text as if it were the file name (for tests and generated configs). */
int cfg_load_string(struct cfg **out, const char *name, const char *text, struct sim_err *err);
void cfg_destroy(struct cfg *c);
/* The top file's name as given to cfg_load_*. */
const char *cfg_name(const struct cfg *c);

/* Applies one "group.key=value" override. Errors in the assignment's syntax are reported here;
 * type and range errors when cfg_read runs. */
int cfg_override(struct cfg *c, const char *assignment, struct sim_err *err);

/* Fills params (the whole struct the schema's offsets refer to) from defaults and the tree,
 * after checking every setting is known. Returns 0, or -1 with every problem in err->msg. */
int cfg_read(struct cfg *c, const struct cfg_schema *s, void *params, struct sim_err *err);
/* True if path ("clock.core_mhz") was given in the file or by an override. */
bool cfg_is_set(const struct cfg *c, const char *path);
/* Where the value of path ("l2.cache.size_kb") came from: "file:line" of the setting that set
 * it (the layer or include that wrote it), "-o group.key=value" for an override, or "default". */
void cfg_origin(const struct cfg *c, const char *path, char *buf, size_t size);
/* Where the setting of path was, for an error about it: true with the file (as errors show it)
 * and line when a file set it; false when an override did (file "-o group.key=value"), or
 * nothing (file empty), with line 0. */
bool cfg_where(const struct cfg *c, const char *path, char *file, size_t size, int *line);

/* Fills params with every field's default; required fields are zeroed. Returns -1 (err filled)
 * if a table is inconsistent: a default that does not parse or is out of range, a field size
 * that does not match its type, a duplicate key. */
int cfg_defaults(const struct cfg_schema *s, void *params, struct sim_err *err);

/* Writes params as a libconfig file that loads back to the same values, every key present,
 * each with its description as a comment. */
void cfg_write_effective(FILE *out, const struct cfg_schema *s, const void *params);
/* FNV-1a hash of the effective config text (without comments): equal hashes, equal configs. */
uint64_t cfg_hash(const struct cfg_schema *s, const void *params);
/* Markdown reference of every group and key. */
void cfg_write_doc(FILE *out, const struct cfg_schema *s);

/* Number of names of a CFG_ENUM field. */
size_t cfg_enum_count(const struct cfg_field *f);
/* Formats one field's value from params, as it would be written in a file. */
void cfg_format_value(char *buf, size_t size, const struct cfg_field *f, const void *group_params);

/* ---------------------------------------------------------------------------------------------
 * Read-only tree (cfg_tree.c): for files that are not a schema of params, such as workloads.
 *
 * A struct cfg_node is a handle on one setting of a loaded struct cfg: the root group, a group,
 * a list ( ... ), an array [ ... ] or a scalar. Handles are owned by the cfg and stay valid until
 * cfg_destroy (or a cfg_override that replaces the setting). Every function accepts NULL where a
 * node is expected and then answers "absent" (NULL, 0, -1), so lookups may be chained.
 * Integers are 64-bit: a literal libconfig 1.5 truncated to 32 bits is re-read from the source
 * line as cfg_read does (for named settings; an element of a list or array has no name and keeps
 * libconfig's value, so write big numbers with an L suffix there).
 */
enum cfg_kind {
	CFG_KIND_GROUP,  /* { key = value; ... } */
	CFG_KIND_LIST,   /* ( value, ... ), any kinds */
	CFG_KIND_ARRAY,  /* [ scalar, ... ], one kind */
	CFG_KIND_INT,    /* 32- or 64-bit literal */
	CFG_KIND_FLOAT,
	CFG_KIND_BOOL,
	CFG_KIND_STRING,
	CFG_KIND_COUNT
};

struct cfg_node;

/* The root group of c. Never NULL. */
const struct cfg_node *cfg_root(struct cfg *c);
/* Member name of group n, or NULL if n is not a group or has no such member. */
const struct cfg_node *cfg_node_member(const struct cfg_node *n, const char *name);
/* Element i of a list or array, or member i (in file order) of a group; NULL if out of range.
 * Iterate a group's members with i = 0 .. cfg_node_length(n) - 1 and cfg_node_name. */
const struct cfg_node *cfg_node_elem(const struct cfg_node *n, size_t i);
/* Number of elements or members; 0 for a scalar or NULL. */
size_t cfg_node_length(const struct cfg_node *n);
/* The kind of n; CFG_KIND_COUNT for NULL. */
enum cfg_kind cfg_node_kind(const struct cfg_node *n);
/* "a group", "a list", "an array", "an integer", "a number", "a boolean", "a string". */
const char *cfg_kind_name(enum cfg_kind k);
/* Scalar getters. Return 0 and store the value; -1 if n is not of that kind (nothing stored);
 * cfg_node_int returns -2 if the literal does not fit in 64 bits. cfg_node_float accepts ints. */
int cfg_node_int(const struct cfg_node *n, int64_t *out);
int cfg_node_float(const struct cfg_node *n, double *out);
int cfg_node_bool(const struct cfg_node *n, bool *out);
/* The string, owned by the cfg; NULL if n is not a string. */
const char *cfg_node_string(const struct cfg_node *n);
/* The member name of n; NULL for the root and for list or array elements. */
const char *cfg_node_name(const struct cfg_node *n);
/* The value of n as an error message shows it: 42, 1.5, true, "text", a group, a list. */
void cfg_node_repr(const struct cfg_node *n, char *buf, size_t size);
/* Where n was written, as cfg_read reports it: file in display form and 1-based line (0 when
 * unknown, e.g. for the root or a setting made by an override). */
void cfg_node_where(const struct cfg_node *n, char *file, size_t size, int *line);

#endif /* SIM_CFG_H */
