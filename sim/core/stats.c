/*
 * stats.c - the statistics registry: registration, lookup, reset, and the TEXT, JSON and CSV
 * dumps (contract in stats.h).
 *
 * Models nothing; it is bookkeeping for the units that do. Units keep their counters; the
 * registry keeps where they are, what they are called and how to print them.
 *
 * Data structures
 *   ents   a growable array in registration order, which is the TEXT and CSV order. Each entry
 *          owns copies of its name and description and points at the unit's value (or owns a
 *          distribution). Its values occupy rows [first_row, first_row + fields) of a dump's
 *          snapshot (one row per field: a counter has one, a level two, a dist ten).
 *   nodes  a tree of name components: "sm3.l1d.hits" is root -> "sm3" -> "l1d" -> "hits". Node 0
 *          is the root. A node is a group (entry == NO_ENTRY) or a value (a leaf). Children are
 *          chained in first-registration order, which is the JSON member order. A node's
 *          component points into the name copy of the entry that created it; those copies never
 *          move, so groups cost no string of their own.
 *   slots  an open-addressing hash table (linear probing, power-of-two size, load <= 1/2) of
 *          nodes keyed by (parent, component). Registering or looking up a name of k components
 *          costs O(k) expected time, so N registrations cost O(N) and no check ever scans all
 *          names (a 108-SM GPU registers tens of thousands).
 *
 * Invariants
 *   - A name is registered once; a value node has no children (no name is both a value and a
 *     prefix of another); names are [a-z0-9_]+ components joined by single dots; the first
 *     component "gmsim" is reserved, because the dump header is printed under it.
 *   - Every check of a registration runs before anything is changed, so a registration that
 *     fails SIM_ASSERT leaves the registry as it was (a test that catches the assertion can
 *     still use and destroy it).
 *   - node.has_plain is true iff the node's subtree holds a value not flagged STATS_HOST, so a
 *     STATS_DUMP_NO_HOST dump prints no empty JSON group.
 *   - A dist's count == underflow + overflow + the histogram's sum (0 before it is allocated).
 *
 * Printing
 *   Each dump evaluates every value once (formulas included) into a snapshot, then formats it.
 *   Integers print with PRIu64, doubles with %.9g. Non-finite doubles: TEXT prints "nan", "inf"
 *   or "-inf"; JSON prints null; CSV leaves NaN as an empty field and prints "inf" or "-inf".
 *   An empty distribution has count 0, underflow 0, overflow 0 and NaN for every other field.
 *   TEXT puts the description on the first line of an entry only (a level's .cur, a dist's
 *   .count). CSV lines end in "\n", not RFC 4180's CRLF; a field is quoted only when it holds a
 *   comma, a quote or a line break.
 *
 * Distributions on the hot path
 *   stats_dist_add runs for every request at several levels, so it avoids what GSL's
 *   per-sample cost it can:
 *   - mean, sd, min and max are kept by the running update gsl_rstat_add makes (Welford's: the
 *     same operations in the same order, so every figure is the same double), without the rest
 *     of gsl_rstat_add: its third and fourth moments and, the costly part, its P^2 running
 *     median (gsl_rstat_quantile_add), which nothing here reads (the quantiles come from the
 *     histogram) and which took 2-3% of a streaming copy's host time. GSL has no rstat without
 *     the median; sd is gsl_rstat_sd's sqrt(M2 / (n - 1)) (0 for one sample);
 *   - the histogram stays a gsl_histogram, allocated at the first sample that falls in it (an
 *     instance that never sees one, say the L1 of an SM without work, costs no bins). When its
 *     edges are exactly lo + i * width (checked
 *     edge by edge at creation; true for the power-of-two bin widths the units use), the bin is
 *     computed from x and checked against those edges by arithmetic instead of reading the
 *     range array, then h->bin[i] is incremented as gsl_histogram_accumulate does. Edges that
 *     round (gsl makes edge i ((n - i) / n) lo + (i / n) hi: 2,294 of the 20,001 edges of the
 *     1 ns bins over 20 us of the DRAM and load latencies are not i x 1.0) but span [lo, hi)
 *     exactly take the same guess, checked against the range array: gsl_histogram_increment's
 *     call and division cost 40 instructions a sample. Either way the bin found is the unique
 *     i with range[i] <= x < range[i + 1], which is what gsl's find returns. Other edges
 *     take gsl_histogram_increment.
 *
 * Quantiles
 *   stats_dist_quantile inverts the histogram's piecewise-linear CDF: the samples of a bin are
 *   taken as spread evenly over it, underflowed samples sit at lo and overflowed ones at the
 *   largest sample seen, and the result is clamped to [smallest, largest] sample seen. So the
 *   samples 1..100 in 100 unit bins over [0, 100) give p50 = 51 (sample 50 fills [50, 51)).
 *
 * Does not: deregister (units live as long as the registry), keep epochs (a caller dumps, then
 * resets), or lock (one simulation, one thread).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_histogram.h>

#include "bulk.h"
#include "log.h"
#include "stats.h"

#define NO_NODE  UINT32_MAX
#define NO_ENTRY UINT32_MAX
#define ROOT     0u
/* Initial hash table size; it doubles whenever it would be more than half full. */
#define SLOTS_MIN 64u
/* Longest number a value prints as: "-1.23456789e-308" is 16 characters, UINT64_MAX is 20. */
#define VAL_BUF 32

enum stats_kind { KIND_COUNTER, KIND_REAL, KIND_LEVEL, KIND_FORMULA, KIND_DIST, KIND_COUNT };

/* Field names per kind; NULL: the value is the entry itself. */
static const char *const one_field[] = { NULL };
static const char *const level_fields[] = { "cur", "hwm" };
static const char *const dist_fields[] = {
	"count", "mean", "stddev", "min", "max", "p50", "p90", "p99", "underflow", "overflow",
};
enum { DIST_COUNT, DIST_MEAN, DIST_SD, DIST_MIN, DIST_MAX, DIST_P50, DIST_P90, DIST_P99,
       DIST_UNDER, DIST_OVER, DIST_NFIELDS };

static const struct {
	const char *const *names;
	unsigned n;
} kind_fields[KIND_COUNT] = {
	[KIND_COUNTER] = { one_field, 1 },
	[KIND_REAL] = { one_field, 1 },
	[KIND_LEVEL] = { level_fields, 2 },
	[KIND_FORMULA] = { one_field, 1 },
	[KIND_DIST] = { dist_fields, DIST_NFIELDS },
};

/* How stats_dist_add finds a bin (see the top): by arithmetic, the edges being exactly
 * lo + i x width; by the same guess checked against gsl's edges (they round, but span [lo, hi)
 * exactly); by gsl_histogram_increment. */
enum dist_search { SEARCH_ARITH, SEARCH_EDGES, SEARCH_GSL };

struct stats_dist {
	struct stats *st;        /* its registry: the shapes (dist_hist) */
	double mean, m2;         /* gsl_rstat_add's running mean and M2 (see the top) */
	double min, max;         /* of every sample */
	gsl_histogram *h;        /* [lo, hi) in equal bins, for the quantiles; NULL until the
				  * first sample in range, then &hist */
	gsl_histogram hist;      /* its arrays from bulk_calloc (GSL's own alloc would put them
				  * on small pages: see bulk.h) */
	size_t bins;
	double lo, hi;
	double width;            /* (hi - lo) / bins */
	double inv_width;        /* 1 / width: a first guess of the bin, checked */
	enum dist_search search; /* how stats_dist_add finds a sample's bin */
	uint64_t count;
	uint64_t underflow;      /* samples < lo */
	uint64_t overflow;       /* samples >= hi (gsl drops both kinds silently) */
};

struct stats_entry {
	enum stats_kind kind;
	unsigned flags;          /* STATS_HOST */
	char *name;              /* owned copy; nodes point into it */
	char *desc;              /* owned copy, "" when none was given */
	size_t first_row;        /* of this entry's fields in a dump snapshot */
	union {
		uint64_t *u;
		double *d;
		struct stat_level *lv;
		struct {
			stats_formula_fn *fn;
			const void *ctx;
		} f;
		struct stats_dist *dist;
	} v;
};

struct stats_node {
	const char *comp;        /* not NUL-terminated: comp[0 .. len) */
	uint32_t len;
	uint32_t hash;
	uint32_t parent;
	uint32_t first_child, last_child, next_sibling;
	uint32_t entry;          /* NO_ENTRY for a group */
	bool has_plain;          /* subtree holds a value without STATS_HOST */
};

/* The edges of a histogram shape seen before: every histogram of the same bins, lo and hi shares
 * gsl's uniform edges with the first one, not computed, checked or copied again (a GPU run
 * starts hundreds of 4096-bin histograms of a few shapes). */
struct dist_shape {
	size_t bins;
	double lo, hi;
	double *range;           /* bins + 1 edges, as gsl_histogram_set_ranges_uniform made them
				  * (bulk_calloc; every histogram of the shape points at them) */
	enum dist_search search;
};

struct stats {
	struct stats_entry *ents;
	size_t nents, cap_ents;
	size_t nrows;            /* fields of all entries: the size of a snapshot */
	struct stats_node *nodes;
	uint32_t nnodes, cap_nodes;
	uint32_t *slots;         /* node indices, NO_NODE when empty */
	uint32_t nslots;
	struct dist_shape *shapes;
	size_t nshapes;
};

/* One field's value in a dump snapshot. */
struct stats_val {
	bool is_int;
	uint64_t u;
	double d;
};

/* ------------------------------------------------------------------------------------------ */
/* Name tree and hash table */

static uint32_t key_hash(uint32_t parent, const char *s, size_t len)
{
	/* FNV-1a over the component, seeded with the parent index, then folded to 32 bits. */
	uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ull);

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return (uint32_t)(h ^ (h >> 32));
}

static uint32_t node_find(const struct stats *st, uint32_t parent, const char *s, size_t len)
{
	uint32_t hash = key_hash(parent, s, len);
	uint32_t mask = st->nslots - 1;

	for (uint32_t i = hash & mask; st->slots[i] != NO_NODE; i = (i + 1) & mask) {
		const struct stats_node *n = &st->nodes[st->slots[i]];

		if (n->hash == hash && n->parent == parent && n->len == len &&
		    memcmp(n->comp, s, len) == 0)
			return st->slots[i];
	}
	return NO_NODE;
}

static void slot_insert(struct stats *st, uint32_t idx)
{
	uint32_t mask = st->nslots - 1;
	uint32_t i = st->nodes[idx].hash & mask;

	while (st->slots[i] != NO_NODE)
		i = (i + 1) & mask;
	st->slots[i] = idx;
}

static void slots_rebuild(struct stats *st, uint32_t nslots)
{
	free(st->slots);
	st->nslots = nslots;
	st->slots = xreallocarray(NULL, nslots, sizeof *st->slots);
	memset(st->slots, 0xff, (size_t)nslots * sizeof *st->slots); /* NO_NODE everywhere */
	for (uint32_t i = ROOT + 1; i < st->nnodes; i++)
		slot_insert(st, i);
}

/* Appends a node for comp[0 .. len) under parent; returns its index. */
static uint32_t node_add(struct stats *st, uint32_t parent, const char *comp, size_t len,
			 uint32_t entry)
{
	struct stats_node *n;
	uint32_t idx;

	SIM_ASSERT(st->nnodes < NO_NODE - 1);
	if (st->nnodes == st->cap_nodes) {
		st->cap_nodes *= 2;
		st->nodes = xreallocarray(st->nodes, st->cap_nodes, sizeof *st->nodes);
	}
	idx = st->nnodes++;
	n = &st->nodes[idx];
	*n = (struct stats_node){
		.comp = comp, .len = (uint32_t)len, .hash = key_hash(parent, comp, len),
		.parent = parent, .first_child = NO_NODE, .last_child = NO_NODE,
		.next_sibling = NO_NODE, .entry = entry, .has_plain = false,
	};
	if (st->nodes[parent].last_child == NO_NODE)
		st->nodes[parent].first_child = idx;
	else
		st->nodes[st->nodes[parent].last_child].next_sibling = idx;
	st->nodes[parent].last_child = idx;

	if ((uint64_t)st->nnodes * 2 > st->nslots)
		slots_rebuild(st, st->nslots * 2);
	else
		slot_insert(st, idx);
	return idx;
}

/* Length of the component starting at s (up to the next '.' or the end). */
static size_t comp_len(const char *s)
{
	return strcspn(s, ".");
}

static bool name_syntax_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_.") == n &&
	       name[0] != '.' && name[n - 1] != '.' && strstr(name, "..") == NULL;
}

/*
 * Follows the components of a well-formed name down the tree as far as they match, stopping at
 * a value node. Returns the last node matched (ROOT if none) and points *rest at the first
 * component not matched ("" when the whole name matched).
 */
static uint32_t node_walk(const struct stats *st, const char *name, const char **rest)
{
	uint32_t idx = ROOT, child;
	const char *p = name;

	while (st->nodes[idx].entry == NO_ENTRY && *p != '\0' &&
	       (child = node_find(st, idx, p, comp_len(p))) != NO_NODE) {
		idx = child;
		p += comp_len(p);
		p += *p == '.';
	}
	*rest = p;
	return idx;
}

/* Why name cannot be registered, or NULL if it can. Changes nothing. */
static const char *name_problem(const struct stats *st, const char *name)
{
	const char *rest;
	uint32_t idx;

	if (!name_syntax_ok(name))
		return "not [a-z0-9_]+ components joined by dots";
	if (comp_len(name) == 5 && memcmp(name, "gmsim", 5) == 0)
		return "\"gmsim\" is reserved for the dump header";
	idx = node_walk(st, name, &rest);
	if (*rest == '\0')
		return st->nodes[idx].entry != NO_ENTRY ? "registered twice"
						       : "a prefix of a registered name";
	if (st->nodes[idx].entry != NO_ENTRY)
		return "a registered name is a prefix of it";
	return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Registration */

struct stats *stats_create(void)
{
	struct stats *st = xcalloc(1, sizeof *st);

	/* GSL's default handler aborts; every GSL call here checks its own return code instead. */
	gsl_set_error_handler_off();
	st->cap_ents = 16;
	st->ents = xreallocarray(NULL, st->cap_ents, sizeof *st->ents);
	st->cap_nodes = 32;
	st->nodes = xreallocarray(NULL, st->cap_nodes, sizeof *st->nodes);
	st->nodes[ROOT] = (struct stats_node){
		.comp = "", .parent = NO_NODE, .first_child = NO_NODE, .last_child = NO_NODE,
		.next_sibling = NO_NODE, .entry = NO_ENTRY,
	};
	st->nnodes = 1;
	slots_rebuild(st, SLOTS_MIN);
	return st;
}

static void dist_free(struct stats_dist *d)
{
	bulk_free(d->hist.bin); /* its edges are its shape's */
	free(d);
}

void stats_destroy(struct stats *st)
{
	if (st == NULL)
		return;
	for (size_t i = 0; i < st->nents; i++) {
		if (st->ents[i].kind == KIND_DIST)
			dist_free(st->ents[i].v.dist);
		free(st->ents[i].name);
		free(st->ents[i].desc);
	}
	for (size_t i = 0; i < st->nshapes; i++)
		bulk_free(st->shapes[i].range);
	free(st->shapes);
	free(st->ents);
	free(st->nodes);
	free(st->slots);
	free(st);
}

/* SIM_ASSERT that name may be registered; says why not on stderr first. Changes nothing. */
static void name_check(const struct stats *st, const char *name)
{
	const char *problem;

	SIM_ASSERT(st != NULL && name != NULL);
	problem = name_problem(st, name);
	if (problem != NULL) {
		fprintf(stderr, "gmsim: stats: \"%s\": %s\n", name, problem);
		SIM_ASSERT(problem == NULL);
	}
	SIM_ASSERT(st->nents < NO_ENTRY);
}

/*
 * Appends an entry of kind for a checked name and links the name into the tree. The caller fills
 * in the value pointer. The returned pointer is valid until the next registration.
 */
static struct stats_entry *stats_insert(struct stats *st, enum stats_kind kind, const char *name,
					const char *desc, unsigned flags)
{
	struct stats_entry *e;
	uint32_t eidx, idx;
	const char *p;

	if (st->nents == st->cap_ents) {
		st->cap_ents *= 2;
		st->ents = xreallocarray(st->ents, st->cap_ents, sizeof *st->ents);
	}
	eidx = (uint32_t)st->nents++;
	e = &st->ents[eidx];
	*e = (struct stats_entry){
		.kind = kind, .flags = flags, .name = xstrdup(name),
		.desc = xstrdup(desc != NULL ? desc : ""), .first_row = st->nrows,
	};
	st->nrows += kind_fields[kind].n;

	/* Below the existing prefix, add the rest; components point into e->name. */
	idx = node_walk(st, e->name, &p);
	for (;;) {
		size_t len = comp_len(p);
		bool last = p[len] == '\0';

		idx = node_add(st, idx, p, len, last ? eidx : NO_ENTRY);
		if (last)
			break;
		p += len + 1;
	}
	if (!(flags & STATS_HOST)) {
		for (; idx != NO_NODE && !st->nodes[idx].has_plain; idx = st->nodes[idx].parent)
			st->nodes[idx].has_plain = true;
	}
	return e;
}

/* name_check, then stats_insert: nothing changes unless the name is good. */
static struct stats_entry *stats_add(struct stats *st, enum stats_kind kind, const char *name,
				     const char *desc, unsigned flags)
{
	name_check(st, name);
	return stats_insert(st, kind, name, desc, flags);
}

void stats_counter(struct stats *st, const char *name, const char *desc, uint64_t *v)
{
	stats_counter_flags(st, name, desc, v, 0);
}

void stats_counter_flags(struct stats *st, const char *name, const char *desc, uint64_t *v,
			 unsigned flags)
{
	SIM_ASSERT(v != NULL);
	SIM_ASSERT((flags & ~(unsigned)STATS_HOST) == 0);
	stats_add(st, KIND_COUNTER, name, desc, flags)->v.u = v;
}

void stats_real(struct stats *st, const char *name, const char *desc, double *v, unsigned flags)
{
	SIM_ASSERT(v != NULL);
	SIM_ASSERT((flags & ~(unsigned)STATS_HOST) == 0);
	stats_add(st, KIND_REAL, name, desc, flags)->v.d = v;
}

void stats_level(struct stats *st, const char *name, const char *desc, struct stat_level *lv)
{
	SIM_ASSERT(lv != NULL);
	stats_add(st, KIND_LEVEL, name, desc, 0)->v.lv = lv;
}

void stats_formula(struct stats *st, const char *name, const char *desc, stats_formula_fn *fn,
		   const void *ctx)
{
	struct stats_entry *e;

	SIM_ASSERT(fn != NULL);
	e = stats_add(st, KIND_FORMULA, name, desc, 0);
	e->v.f.fn = fn;
	e->v.f.ctx = ctx;
}

/* ------------------------------------------------------------------------------------------ */
/* Distributions */

static void dist_reset(struct stats_dist *d);

/* Edge i of a uniform histogram as arithmetic: lo + i x width. One function, so that the check
 * at creation and the search in stats_dist_add compute the same doubles. */
static inline double dist_edge(const struct stats_dist *d, size_t i)
{
	return d->lo + (double)i * d->width;
}


struct stats_dist *stats_dist(struct stats *st, const char *name, const char *desc, double lo,
			      double hi, size_t bins)
{
	struct stats_dist *d;

	SIM_ASSERT(isfinite(lo) && isfinite(hi) && lo < hi);
	SIM_ASSERT(bins >= 1);
	name_check(st, name); /* before d exists, so that a caught assertion leaks nothing */
	d = xcalloc(1, sizeof *d);
	d->st = st;
	d->lo = lo;
	d->hi = hi;
	d->bins = bins;
	d->width = (hi - lo) / (double)bins;
	d->inv_width = 1.0 / d->width;
	dist_reset(d);
	stats_insert(st, KIND_DIST, name, desc, 0)->v.dist = d;
	return d;
}


/* The histogram, allocated with its first sample; whether its edges are exactly lo + i x width
 * (the fast bin search). Its edges are its shape's (see struct dist_shape: nothing writes a
 * histogram's edges after this), its counts its own, both on bulk memory: gsl_histogram_alloc
 * would put hundreds of them on small pages (see bulk.h). */
static gsl_histogram *dist_hist(struct stats_dist *d)
{
	struct stats *st = d->st;
	struct dist_shape *sh;
	size_t i;

	if (d->h != NULL)
		return d->h;
	d->hist.n = d->bins;
	d->hist.bin = bulk_calloc(d->bins, sizeof *d->hist.bin);
	d->h = &d->hist;
	for (i = 0; i < st->nshapes; i++) {
		sh = &st->shapes[i];
		if (sh->bins == d->bins && sh->lo == d->lo && sh->hi == d->hi) {
			d->hist.range = sh->range;
			d->search = sh->search;
			return d->h;
		}
	}
	d->hist.range = bulk_calloc(d->bins + 1, sizeof *d->hist.range);
	if (gsl_histogram_set_ranges_uniform(d->h, d->lo, d->hi) != GSL_SUCCESS)
		sim_panic("stats: cannot set the ranges of a distribution");
	d->search = d->width > 0.0 && isfinite(d->inv_width) && d->h->range[0] == d->lo &&
			    d->h->range[d->bins] == d->hi
		    ? SEARCH_ARITH
		    : SEARCH_GSL;
	for (i = 0; d->search == SEARCH_ARITH && i <= d->bins; i++)
		if (d->h->range[i] != dist_edge(d, i))
			d->search = SEARCH_EDGES;
	st->shapes = xreallocarray(st->shapes, st->nshapes + 1, sizeof *st->shapes);
	sh = &st->shapes[st->nshapes++];
	sh->bins = d->bins;
	sh->lo = d->lo;
	sh->hi = d->hi;
	sh->range = d->hist.range;
	sh->search = d->search;
	return d->h;
}

void stats_dist_add(struct stats_dist *d, double x)
{
	double delta, delta_n, n;

	SIM_ASSERT(!isnan(x));
	/* gsl_rstat_add's running update of what is read (see the top) */
	if (d->count == 0) {
		d->min = x;
		d->max = x;
	} else {
		if (x < d->min)
			d->min = x;
		if (x > d->max)
			d->max = x;
	}
	delta = x - d->mean;
	n = (double)++d->count;
	delta_n = delta / n;
	d->mean += delta_n;
	d->m2 += delta * delta_n * (n - 1.0);
	if (x < d->lo) {
		d->underflow++;
	} else if (x >= d->hi) {
		d->overflow++;
	} else if (dist_hist(d) != NULL && d->search != SEARCH_GSL) {
		/* range[0] == lo <= x < hi == range[n]: the bin exists; the guess is off by at
		 * most one or two where rounding bites, and the edges say which way. */
		const double *r = d->h->range;
		size_t nb = d->bins, i = (size_t)((x - d->lo) * d->inv_width);

		if (i >= nb)
			i = nb - 1;
		if (d->search == SEARCH_ARITH) {
			while (i > 0 && x < dist_edge(d, i))
				i--;
			while (i + 1 < nb && x >= dist_edge(d, i + 1))
				i++;
		} else {
			while (i > 0 && x < r[i])
				i--;
			while (i + 1 < nb && x >= r[i + 1])
				i++;
		}
		d->h->bin[i] += 1.0;
	} else if (gsl_histogram_increment(d->h, x) != GSL_SUCCESS) {
		d->overflow++; /* gsl's last edge lo + (hi - lo) may round below hi */
	}
}

uint64_t stats_dist_count(const struct stats_dist *d)
{
	return d->count;
}

double stats_dist_mean(const struct stats_dist *d)
{
	return d->count == 0 ? NAN : d->mean;
}

/* gsl_rstat_sd: the sample standard deviation, 0 for fewer than two samples. */
static double dist_sd(const struct stats_dist *d)
{
	return d->count > 1 ? sqrt(d->m2 / ((double)d->count - 1.0)) : 0.0;
}

/* The sample value at rank (0 <= rank <= count) under the model described at the top. */
static double dist_at_rank(const struct stats_dist *d, double rank)
{
	double cum = (double)d->underflow;

	if (d->underflow > 0 && rank <= cum)
		return d->lo;
	for (size_t i = 0; d->h != NULL && i < gsl_histogram_bins(d->h); i++) {
		double c = gsl_histogram_get(d->h, i);
		double lower, upper;

		if (c > 0.0 && rank <= cum + c) {
			gsl_histogram_get_range(d->h, i, &lower, &upper);
			return lower + (rank - cum) / c * (upper - lower);
		}
		cum += c;
	}
	return d->max; /* in the overflow */
}

double stats_dist_quantile(const struct stats_dist *d, double q)
{
	SIM_ASSERT(q >= 0.0 && q <= 1.0);
	if (d->count == 0)
		return NAN;
	return fmin(fmax(dist_at_rank(d, q * (double)d->count), d->min), d->max);
}

static void dist_reset(struct stats_dist *d)
{
	d->mean = d->m2 = d->min = d->max = 0.0;
	if (d->h != NULL)
		gsl_histogram_reset(d->h);
	d->count = 0;
	d->underflow = 0;
	d->overflow = 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Values, lookup, reset */

static struct stats_val val_int(uint64_t u)
{
	return (struct stats_val){ .is_int = true, .u = u, .d = (double)u };
}

static struct stats_val val_real(double d)
{
	return (struct stats_val){ .is_int = false, .d = d };
}

static struct stats_val dist_field(const struct stats_dist *d, unsigned f)
{
	bool empty = d->count == 0;

	switch (f) {
	case DIST_COUNT: return val_int(d->count);
	case DIST_MEAN:  return val_real(empty ? NAN : d->mean);
	case DIST_SD:    return val_real(empty ? NAN : dist_sd(d));
	case DIST_MIN:   return val_real(empty ? NAN : d->min);
	case DIST_MAX:   return val_real(empty ? NAN : d->max);
	case DIST_P50:   return val_real(stats_dist_quantile(d, 0.50));
	case DIST_P90:   return val_real(stats_dist_quantile(d, 0.90));
	case DIST_P99:   return val_real(stats_dist_quantile(d, 0.99));
	case DIST_UNDER: return val_int(d->underflow);
	case DIST_OVER:  return val_int(d->overflow);
	}
	SIM_ASSERT(f < DIST_NFIELDS);
	return val_real(NAN);
}

/* Field f (< kind_fields[e->kind].n) of e, now. Calls a formula's function. */
static struct stats_val entry_field(const struct stats_entry *e, unsigned f)
{
	switch (e->kind) {
	case KIND_COUNTER: return val_int(*e->v.u);
	case KIND_REAL:    return val_real(*e->v.d);
	case KIND_LEVEL:   return val_int(f == 0 ? e->v.lv->cur : e->v.lv->hwm);
	case KIND_FORMULA: return val_real(e->v.f.fn(e->v.f.ctx));
	case KIND_DIST:    return dist_field(e->v.dist, f);
	case KIND_COUNT:   break;
	}
	SIM_ASSERT(e->kind < KIND_COUNT);
	return val_real(NAN);
}

bool stats_get(const struct stats *st, const char *name, double *out)
{
	const struct stats_entry *e;
	const char *rest;
	uint32_t idx;

	if (!name_syntax_ok(name))
		return false;
	idx = node_walk(st, name, &rest);
	if (st->nodes[idx].entry == NO_ENTRY)
		return false; /* a group, or nothing */
	e = &st->ents[st->nodes[idx].entry];
	for (unsigned f = 0; f < kind_fields[e->kind].n; f++) {
		const char *fname = kind_fields[e->kind].names[f];

		if (strcmp(fname != NULL ? fname : "", rest) == 0) {
			*out = entry_field(e, f).d;
			return true;
		}
	}
	return false;
}

size_t stats_count(const struct stats *st)
{
	return st->nents;
}

void stats_reset(struct stats *st)
{
	for (size_t i = 0; i < st->nents; i++) {
		struct stats_entry *e = &st->ents[i];

		switch (e->kind) {
		case KIND_COUNTER: *e->v.u = 0; break;
		case KIND_REAL:    *e->v.d = 0.0; break;
		case KIND_LEVEL:   e->v.lv->hwm = e->v.lv->cur; break;
		case KIND_FORMULA: break;
		case KIND_DIST:    dist_reset(e->v.dist); break;
		case KIND_COUNT:   SIM_ASSERT(e->kind < KIND_COUNT); break;
		}
	}
}

/* ------------------------------------------------------------------------------------------ */
/* Dumps */

struct dump {
	const struct stats *st;
	FILE *out;
	const struct stats_val *vals; /* snapshot: st->nrows rows */
	unsigned flags;
};

static struct stats_val *snapshot(const struct stats *st)
{
	struct stats_val *vals = xreallocarray(NULL, st->nrows > 0 ? st->nrows : 1, sizeof *vals);

	for (size_t i = 0; i < st->nents; i++) {
		const struct stats_entry *e = &st->ents[i];

		for (unsigned f = 0; f < kind_fields[e->kind].n; f++)
			vals[e->first_row + f] = entry_field(e, f);
	}
	return vals;
}

static bool entry_shown(const struct dump *dp, const struct stats_entry *e)
{
	return !((dp->flags & STATS_DUMP_NO_HOST) && (e->flags & STATS_HOST));
}

static bool node_shown(const struct dump *dp, const struct stats_node *n)
{
	return !(dp->flags & STATS_DUMP_NO_HOST) || n->has_plain;
}

static bool host_shown(unsigned flags)
{
	return !(flags & STATS_DUMP_NO_HOST);
}

/* Formats v for fmt into buf (VAL_BUF bytes); see the top comment for non-finite doubles. */
static const char *val_format(char *buf, const struct stats_val *v, enum stats_format fmt)
{
	if (v->is_int)
		snprintf(buf, VAL_BUF, "%" PRIu64, v->u);
	else if (isfinite(v->d))
		snprintf(buf, VAL_BUF, "%.9g", v->d);
	else if (fmt == STATS_JSON)
		snprintf(buf, VAL_BUF, "null");
	else if (isnan(v->d))
		snprintf(buf, VAL_BUF, "%s", fmt == STATS_CSV ? "" : "nan");
	else
		snprintf(buf, VAL_BUF, "%s", v->d < 0 ? "-inf" : "inf");
	return buf;
}

/* One line of TEXT or CSV: field f of entry e (named e->name[.field]), formatted. */
struct row {
	const struct stats_entry *e;
	unsigned f;
	const char *field; /* NULL for a one-value kind */
	const char *val;
};

typedef void row_fn(const struct dump *dp, const struct row *r, void *acc);

/* Calls fn for each shown field of each entry in registration order, its value formatted. */
static void rows_each(const struct dump *dp, enum stats_format fmt, row_fn *fn, void *acc)
{
	char buf[VAL_BUF];

	for (size_t i = 0; i < dp->st->nents; i++) {
		const struct stats_entry *e = &dp->st->ents[i];

		if (!entry_shown(dp, e))
			continue;
		for (unsigned f = 0; f < kind_fields[e->kind].n; f++) {
			struct row r = {
				.e = e, .f = f, .field = kind_fields[e->kind].names[f],
				.val = val_format(buf, &dp->vals[e->first_row + f], fmt),
			};

			fn(dp, &r, acc);
		}
	}
}

static int row_name_len(const struct row *r)
{
	return (int)(strlen(r->e->name) + (r->field != NULL ? 1 + strlen(r->field) : 0));
}

struct text_widths {
	int name, val;
};

static void text_measure(const struct dump *dp, const struct row *r, void *acc)
{
	struct text_widths *w = acc;
	int vw = (int)strlen(r->val);

	w->name = row_name_len(r) > w->name ? row_name_len(r) : w->name;
	w->val = vw > w->val ? vw : w->val;
}

static void text_line(const struct dump *dp, const struct row *r, void *acc)
{
	const struct text_widths *w = acc;

	fprintf(dp->out, "%s%s%s%*s  %*s", r->e->name, r->field != NULL ? "." : "",
		r->field != NULL ? r->field : "", w->name - row_name_len(r), "", w->val, r->val);
	if (r->f == 0 && r->e->desc[0] != '\0')
		fprintf(dp->out, "  # %s", r->e->desc);
	fputc('\n', dp->out);
}

/* TEXT: `name  value  # description`, names left- and values right-aligned. */
static void dump_text(const struct dump *dp, const struct stats_header *hdr)
{
	struct text_widths w = { 0, 0 };
	char buf[VAL_BUF];

	if (hdr != NULL) {
		fprintf(dp->out, "# gmsim%s%s  config 0x%016" PRIx64 "  seed %" PRIu64,
			hdr->version != NULL ? " " : "", hdr->version != NULL ? hdr->version : "",
			hdr->config_hash, hdr->seed);
		if (hdr->partial != NULL)
			fprintf(dp->out, "  partial %s", hdr->partial);
		if (host_shown(dp->flags)) {
			struct stats_val hs = val_real(hdr->host_seconds);

			fprintf(dp->out, "  host %s s", val_format(buf, &hs, STATS_TEXT));
			if (hdr->host_time != NULL)
				fprintf(dp->out, "  %s", hdr->host_time);
		}
		fputc('\n', dp->out);
	}
	rows_each(dp, STATS_TEXT, text_measure, &w);
	rows_each(dp, STATS_TEXT, text_line, &w);
}

/* A CSV row whose value may need quoting (RFC 4180: double the quotes inside). */
static void csv_row(FILE *out, const char *name, const char *val)
{
	fprintf(out, "%s,", name);
	if (strpbrk(val, ",\"\r\n") == NULL) {
		fputs(val, out);
	} else {
		fputc('"', out);
		for (; *val != '\0'; val++) {
			if (*val == '"')
				fputc('"', out);
			fputc(*val, out);
		}
		fputc('"', out);
	}
	fputc('\n', out);
}

static void csv_line(const struct dump *dp, const struct row *r, void *acc)
{
	fprintf(dp->out, "%s%s%s,%s\n", r->e->name, r->field != NULL ? "." : "",
		r->field != NULL ? r->field : "", r->val);
}

/* CSV: `name,value`, the header's fields first as gmsim.<field>. */
static void dump_csv(const struct dump *dp, const struct stats_header *hdr)
{
	char buf[VAL_BUF];

	fputs("name,value\n", dp->out);
	if (hdr != NULL) {
		if (hdr->version != NULL)
			csv_row(dp->out, "gmsim.version", hdr->version);
		fprintf(dp->out, "gmsim.config_hash,0x%016" PRIx64 "\n", hdr->config_hash);
		fprintf(dp->out, "gmsim.seed,%" PRIu64 "\n", hdr->seed);
		if (hdr->partial != NULL)
			csv_row(dp->out, "gmsim.partial", hdr->partial);
		if (host_shown(dp->flags)) {
			struct stats_val hs = val_real(hdr->host_seconds);

			if (hdr->host_time != NULL)
				csv_row(dp->out, "gmsim.host_time", hdr->host_time);
			csv_row(dp->out, "gmsim.host_seconds", val_format(buf, &hs, STATS_CSV));
		}
	}
	rows_each(dp, STATS_CSV, csv_line, NULL);
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (c < 0x20)
				fprintf(out, "\\u%04x", c);
			else
				fputc(c, out); /* UTF-8 passes through */
		}
	}
	fputc('"', out);
}

/* Starts a member of an object at depth: the separator, the indentation and the key. Keys are
 * names or components ([a-z0-9_]) and need no escaping. */
static void json_key(FILE *out, int depth, const char *key, size_t len, bool *first)
{
	fprintf(out, "%s%*s\"%.*s\": ", *first ? "\n" : ",\n", 2 * depth, "", (int)len, key);
	*first = false;
}

/* Ends an object at depth opened with '{'; "{}" when it got no member. */
static void json_close(FILE *out, int depth, bool first)
{
	if (first)
		fputc('}', out);
	else
		fprintf(out, "\n%*s}", 2 * depth, "");
}

static void json_val(FILE *out, const struct stats_val *v)
{
	char buf[VAL_BUF];

	fputs(val_format(buf, v, STATS_JSON), out);
}

static void json_header(const struct dump *dp, const struct stats_header *hdr, int depth)
{
	FILE *out = dp->out;
	bool first = true;
	char hash[24];

	fputc('{', out);
	if (hdr->version != NULL) {
		json_key(out, depth + 1, "version", 7, &first);
		json_string(out, hdr->version);
	}
	json_key(out, depth + 1, "config_hash", 11, &first);
	snprintf(hash, sizeof hash, "0x%016" PRIx64, hdr->config_hash);
	json_string(out, hash);
	json_key(out, depth + 1, "seed", 4, &first);
	fprintf(out, "%" PRIu64, hdr->seed);
	if (hdr->partial != NULL) {
		json_key(out, depth + 1, "partial", 7, &first);
		json_string(out, hdr->partial);
	}
	if (host_shown(dp->flags)) {
		struct stats_val hs = val_real(hdr->host_seconds);

		if (hdr->host_time != NULL) {
			json_key(out, depth + 1, "host_time", 9, &first);
			json_string(out, hdr->host_time);
		}
		json_key(out, depth + 1, "host_seconds", 12, &first);
		json_val(out, &hs);
	}
	json_close(out, depth, first);
}

/* The members of group node g at depth (recursion depth = components in a name). */
static void json_members(const struct dump *dp, uint32_t g, int depth, bool *first)
{
	const struct stats *st = dp->st;

	for (uint32_t c = st->nodes[g].first_child; c != NO_NODE; c = st->nodes[c].next_sibling) {
		const struct stats_node *n = &st->nodes[c];
		const struct stats_entry *e;
		bool ffirst = true;

		if (!node_shown(dp, n))
			continue;
		json_key(dp->out, depth, n->comp, n->len, first);
		if (n->entry == NO_ENTRY) {
			fputc('{', dp->out);
			json_members(dp, c, depth + 1, &ffirst);
			json_close(dp->out, depth, ffirst);
			continue;
		}
		e = &st->ents[n->entry];
		if (kind_fields[e->kind].names[0] == NULL) {
			json_val(dp->out, &dp->vals[e->first_row]);
			continue;
		}
		fputc('{', dp->out);
		for (unsigned f = 0; f < kind_fields[e->kind].n; f++) {
			const char *fname = kind_fields[e->kind].names[f];

			json_key(dp->out, depth + 1, fname, strlen(fname), &ffirst);
			json_val(dp->out, &dp->vals[e->first_row + f]);
		}
		json_close(dp->out, depth, ffirst);
	}
}

/* JSON: {"gmsim": {header}, then the tree}, two-space indentation, one member per line. */
static void dump_json(const struct dump *dp, const struct stats_header *hdr)
{
	bool first = true;

	fputc('{', dp->out);
	if (hdr != NULL) {
		json_key(dp->out, 1, "gmsim", 5, &first);
		json_header(dp, hdr, 1);
	}
	json_members(dp, ROOT, 1, &first);
	json_close(dp->out, 0, first);
	fputc('\n', dp->out);
}

void stats_dump(const struct stats *st, FILE *out, enum stats_format fmt,
		const struct stats_header *hdr, unsigned flags)
{
	struct stats_val *vals = snapshot(st);
	struct dump dp = { .st = st, .out = out, .vals = vals, .flags = flags };

	switch (fmt) {
	case STATS_TEXT: dump_text(&dp, hdr); break;
	case STATS_JSON: dump_json(&dp, hdr); break;
	case STATS_CSV:  dump_csv(&dp, hdr); break;
	default:         SIM_ASSERT(fmt == STATS_TEXT || fmt == STATS_JSON || fmt == STATS_CSV);
	}
	free(vals);
}

void stats_counters(struct stats *st, const char *prefix, void *base,
		    const struct stats_counter_def *defs, size_t n)
{
	char name[512];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s.%s", prefix, defs[i].name);
		stats_counter(st, name, defs[i].desc, (uint64_t *)((char *)base + defs[i].offset));
	}
}
