/*
 * trace_isa.c - opcode classes, access widths and the per-architecture latency table (contract
 * in trace_isa.h). The table is read with the config layer's read-only tree (sim/core/cfg.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "log.h"
#include "text.h"
#include "trace_isa.h"

/* A base chain longer than this is a loop (`base` naming itself or a cycle). */
#define ISA_MAX_BASE_DEPTH 16
#define ISA_MAX_LATENCY 100000

struct isa_entry {
	char *name;
	size_t len;           /* strlen(name): isa_latency compares for every ALU trace line */
	uint32_t cycles;
};

/* isa_describe's memo: the opcodes described last, one per slot of a hash of their text. */
#define ISA_MEMO_SLOTS 64
#define ISA_MEMO_NAME 32  /* longer opcodes are described each time */
struct isa_memo {
	char name[ISA_MEMO_NAME]; /* "": empty */
	struct isa_op op;
};

struct isa_table {
	char *arch;
	struct isa_entry *e;   /* sorted by name */
	size_t n;
	uint32_t unknown;
	struct isa_memo memo[ISA_MEMO_SLOTS];
};

static const struct {
	const char *name;
	size_t len; /* strlen(name), which isa_classify compares for every trace line */
	enum isa_class cls;
	enum isa_space space;
} mem_ops[] = {
#define OP(name, cls, space) { name, sizeof name - 1, cls, space }
	OP("LDG", ISA_LOAD, ISA_SPACE_GLOBAL),     OP("LDGSTS", ISA_LOAD, ISA_SPACE_GLOBAL),
	OP("SULD", ISA_LOAD, ISA_SPACE_GLOBAL),    OP("STG", ISA_STORE, ISA_SPACE_GLOBAL),
	OP("SUST", ISA_STORE, ISA_SPACE_GLOBAL),   OP("ATOMG", ISA_ATOMIC, ISA_SPACE_GLOBAL),
	OP("ATOM", ISA_ATOMIC, ISA_SPACE_GLOBAL),  OP("RED", ISA_STORE, ISA_SPACE_GLOBAL),
	OP("LDL", ISA_LOAD, ISA_SPACE_LOCAL),      OP("STL", ISA_STORE, ISA_SPACE_LOCAL),
	OP("LDS", ISA_LOAD, ISA_SPACE_SHARED),     OP("LDSM", ISA_LOAD, ISA_SPACE_SHARED),
	OP("STS", ISA_STORE, ISA_SPACE_SHARED),    OP("ATOMS", ISA_ATOMIC, ISA_SPACE_SHARED),
	OP("LDC", ISA_LOAD, ISA_SPACE_CONST),      OP("LD", ISA_LOAD, ISA_SPACE_GENERIC),
	OP("ST", ISA_STORE, ISA_SPACE_GENERIC),
#undef OP
};

size_t isa_base_len(const char *opcode)
{
	const char *dot = strchr(opcode, '.');

	return dot != NULL ? (size_t)(dot - opcode) : strlen(opcode);
}

void isa_classify(const char *opcode, enum isa_class *cls, enum isa_space *space)
{
	size_t len = isa_base_len(opcode), i;

	*cls = ISA_ALU;
	*space = ISA_SPACE_NONE;
	for (i = 0; i < sizeof mem_ops / sizeof mem_ops[0]; i++)
		if (mem_ops[i].len == len && memcmp(mem_ops[i].name, opcode, len) == 0) {
			*cls = mem_ops[i].cls;
			*space = mem_ops[i].space;
			return;
		}
	if (len == 3 && memcmp(opcode, "BAR", 3) == 0) {
		/* BAR.ARV arrives without waiting: no barrier for this warp */
		if (strstr(opcode, ".ARV") == NULL)
			*cls = ISA_BARRIER;
	} else if (len == 4 && memcmp(opcode, "EXIT", 4) == 0) {
		*cls = ISA_EXIT;
	}
}

uint32_t isa_width(const char *opcode)
{
	const char *p = strchr(opcode, '.');

	while (p != NULL) {
		const char *m = p + 1, *d = m;
		uint32_t bits = 0;

		p = strchr(m, '.');
		if (*d == 'U' || *d == 'S')
			d++;
		if (*d >= '0' && *d <= '9') {
			const char *e = d;

			while (*e >= '0' && *e <= '9' && bits < 100000)
				bits = bits * 10 + (uint32_t)(*e++ - '0');
			if (e == (p != NULL ? p : m + strlen(m))) {
				uint32_t bytes = bits / 8;

				return bytes < 1 ? 1 : bytes > 16 ? 16 : bytes;
			}
		}
	}
	return 4;
}

/* ---------------------------------------------------------------------------------------------
 * The table
 */

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct isa_entry *)a)->name, ((const struct isa_entry *)b)->name);
}

static int where_err(struct sim_err *err, const struct cfg_node *n, const char *path,
		     const char *what)
{
	char file[256];
	int line = 0;

	cfg_node_where(n, file, sizeof file, &line);
	return sim_err_set(err, line > 0 ? file : path, line, "%s", what);
}

static const struct cfg_node *find_arch(const struct cfg_node *archs, const char *name)
{
	size_t i;

	for (i = 0; i < cfg_node_length(archs); i++) {
		const struct cfg_node *a = cfg_node_elem(archs, i);
		const char *nm = cfg_node_string(cfg_node_member(a, "name"));

		if (nm != NULL && strcmp(nm, name) == 0)
			return a;
	}
	return NULL;
}

/* Adds (or overrides) arch a's latencies, its base's first. */
static int add_arch(struct isa_table *t, const struct cfg_node *archs, const struct cfg_node *a,
		    int depth, const char *path, struct sim_err *err)
{
	const struct cfg_node *base = cfg_node_member(a, "base");
	const struct cfg_node *lat = cfg_node_member(a, "latency");
	size_t i, j;

	if (depth > ISA_MAX_BASE_DEPTH)
		return where_err(err, a, path, "archs: the `base` chain loops");
	if (base != NULL) {
		const char *bn = cfg_node_string(base);
		const struct cfg_node *b = bn != NULL ? find_arch(archs, bn) : NULL;

		if (b == NULL)
			return where_err(err, base, path, "base: expected the name of another "
					 "group of archs");
		if (add_arch(t, archs, b, depth + 1, path, err) != 0)
			return -1;
	}
	if (cfg_node_kind(lat) != CFG_KIND_GROUP)
		return where_err(err, a, path, "latency: expected a group { OPCODE = cycles; ... }");
	for (i = 0; i < cfg_node_length(lat); i++) {
		const struct cfg_node *e = cfg_node_elem(lat, i);
		const char *nm = cfg_node_name(e);
		int64_t v;

		if (cfg_node_int(e, &v) != 0 || v < 1 || v > ISA_MAX_LATENCY) {
			char msg[128];

			snprintf(msg, sizeof msg, "latency.%s: expected cycles, 1 .. %d", nm,
				 ISA_MAX_LATENCY);
			return where_err(err, e, path, msg);
		}
		for (j = 0; j < t->n; j++)
			if (strcmp(t->e[j].name, nm) == 0)
				break;
		if (j == t->n) {
			t->e = xreallocarray(t->e, t->n + 1, sizeof *t->e);
			t->e[t->n].len = strlen(nm);
			t->e[t->n++].name = xstrdup(nm);
		}
		t->e[j].cycles = (uint32_t)v;
	}
	return 0;
}

int isa_load(const char *path, uint32_t version, struct isa_table **out, struct sim_err *err)
{
	struct cfg *c = NULL;
	const struct cfg_node *root, *archs, *unk, *found = NULL;
	struct isa_table *t;
	char have[256] = "";
	size_t i, j, hl = 0;
	int64_t v;

	*out = NULL;
	if (cfg_load_file(&c, path, err) != 0)
		return -1;
	root = cfg_root(c);
	archs = cfg_node_member(root, "archs");
	unk = cfg_node_member(root, "unknown_latency");
	if (cfg_node_kind(archs) != CFG_KIND_LIST) {
		cfg_destroy(c);
		return sim_err_set(err, path, 0, "archs: expected a list of architecture groups");
	}
	if (unk == NULL || cfg_node_int(unk, &v) != 0 || v < 1 || v > ISA_MAX_LATENCY) {
		where_err(err, unk != NULL ? unk : root, path,
			  "unknown_latency: expected cycles, 1 .. 100000");
		cfg_destroy(c);
		return -1;
	}
	for (i = 0; i < cfg_node_length(archs) && found == NULL; i++) {
		const struct cfg_node *a = cfg_node_elem(archs, i);
		const struct cfg_node *vs = cfg_node_member(a, "versions");

		for (j = 0; j < cfg_node_length(vs); j++) {
			int64_t x;

			if (cfg_node_int(cfg_node_elem(vs, j), &x) != 0)
				continue;
			if ((uint64_t)x == version) {
				found = a;
				break;
			}
			if (hl + 8 < sizeof have)
				hl += (size_t)snprintf(have + hl, sizeof have - hl, "%s%lld",
						       hl ? ", " : "", (long long)x);
		}
	}
	if (found == NULL) {
		sim_err_set(err, path, 0, "no architecture lists binary version %u (the trace "
			    "header's -binary version); listed: %s", version, have);
		cfg_destroy(c);
		return -1;
	}
	t = xcalloc(1, sizeof *t);
	t->unknown = (uint32_t)v;
	t->arch = xstrdup(cfg_node_string(cfg_node_member(found, "name")) != NULL
			  ? cfg_node_string(cfg_node_member(found, "name")) : "?");
	if (add_arch(t, archs, found, 0, path, err) != 0) {
		isa_free(t);
		cfg_destroy(c);
		return -1;
	}
	cfg_destroy(c);
	qsort(t->e, t->n, sizeof *t->e, entry_cmp);
	*out = t;
	return 0;
}

void isa_free(struct isa_table *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		free(t->e[i].name);
	free(t->e);
	free(t->arch);
	free(t);
}

const char *isa_arch(const struct isa_table *t)
{
	return t->arch;
}

uint32_t isa_unknown_latency(const struct isa_table *t)
{
	return t->unknown;
}

bool isa_latency(const struct isa_table *t, const char *name, size_t len, uint32_t *cycles)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct isa_entry *e = &t->e[mid];
		int c = memcmp(e->name, name, e->len < len ? e->len : len);

		if (c == 0 && e->len != len) /* one is a prefix of the other: the shorter first */
			c = e->len < len ? -1 : 1;
		if (c == 0) {
			*cycles = t->e[mid].cycles;
			return true;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

void isa_describe(struct isa_table *t, const char *opcode, size_t len, struct isa_op *out)
{
	struct isa_memo *m = NULL;

	SIM_ASSERT(opcode[len] == '\0');
	if (t != NULL && len < ISA_MEMO_NAME) {
		m = &t->memo[text_hash(TEXT_HASH_INIT, opcode, len) % ISA_MEMO_SLOTS];
		if (memcmp(m->name, opcode, len + 1) == 0) {
			*out = m->op;
			return;
		}
	}
	isa_classify(opcode, &out->cls, &out->space);
	out->width = isa_width(opcode);
	out->latency = 1;
	out->known = t == NULL || isa_latency(t, opcode, isa_base_len(opcode), &out->latency);
	if (!out->known)
		out->latency = t->unknown;
	if (m != NULL) {
		memcpy(m->name, opcode, len + 1);
		m->op = *out;
	}
}
