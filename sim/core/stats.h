/*
 * stats.h - the statistics registry.
 *
 * Units own their counters as plain uint64_t fields and register a pointer to each once, with a
 * dotted name ("sm3.l1d.read_hits") and a one-line description; the hot path is `st.hits++`.
 * The registry copies names and descriptions. Dump order is registration order.
 *
 * Kinds
 *   counter  a uint64_t the unit increments
 *   real     a double the unit sets (e.g. sim.host_seconds)
 *   level    a current value with its high-water mark (queue and MSHR occupancy)
 *   formula  a double computed at dump time by a callback (hit rates, bandwidths)
 *   dist     a distribution owned by the registry: running mean/sd/min/max (gsl_rstat), a
 *            fixed gsl_histogram over [lo, hi) for percentiles (uniform edges: the bin is found
 *            by arithmetic, checked against the edges), and our own underflow/overflow counts
 *            (gsl_histogram_increment silently drops out-of-range samples)
 *
 * Names: lower_snake components joined by dots. A name may not be registered twice, and may not
 * be both a value and a prefix of another name (the JSON is nested by component): both are bugs
 * and SIM_ASSERT.
 *
 * Fields: counters, reals and formulas have one value. A level dumps as <name>.cur and
 * <name>.hwm; a dist as <name>.count, .mean, .stddev, .min, .max, .p50, .p90, .p99,
 * .underflow, .overflow. In JSON these are the members of an object named <name>.
 *
 * Formats
 *   TEXT  a header comment line, then one aligned line per value: `name  value  # description`
 *   JSON  {"gmsim": {header}, <nested by dotted name>}; NaN and infinities print as null
 * A header with `partial` set says so in every format (JSON "partial": "max_cycles", CSV
 * gmsim.partial, TEXT "partial max_cycles"): the run stopped early and the values are those of
 * that moment.
 *   CSV   `name,value` rows, the header's fields first as gmsim.<field>
 * Integers print exactly; doubles with %.9g.
 *
 * Host-dependent values (wall-clock time) and figures of the simulator's own work rather than of
 * the modelled machine (events fired) are registered with STATS_HOST; dumping with
 * STATS_DUMP_NO_HOST leaves them and the header's host fields out, so that two runs of the same
 * inputs, and two builds that simulate the same machine the same way, compare byte for byte.
 */
#ifndef SIM_STATS_H
#define SIM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A current value and its high-water mark. Owned by the unit. */
struct stat_level {
	uint64_t cur;
	uint64_t hwm;
};

static inline void stat_level_set(struct stat_level *l, uint64_t v)
{
	l->cur = v;
	if (v > l->hwm)
		l->hwm = v;
}

static inline void stat_level_inc(struct stat_level *l)
{
	stat_level_set(l, l->cur + 1);
}

static inline void stat_level_dec(struct stat_level *l)
{
	l->cur--;
}

enum stats_format { STATS_TEXT, STATS_JSON, STATS_CSV };

/* Registration flags. */
enum { STATS_HOST = 1u << 0 };
/* Dump flags. */
enum { STATS_DUMP_NO_HOST = 1u << 0 };

/* What a dump's header says. Strings may be NULL (left out). */
struct stats_header {
	const char *version;
	uint64_t config_hash;
	uint64_t seed;
	const char *host_time;   /* ISO 8601 wall-clock time of the run (host-dependent) */
	double host_seconds;     /* wall-clock seconds of the run (host-dependent) */
	const char *partial;     /* why the run stopped early ("max_cycles", "watchdog"), or NULL:
				  * then the values are those at that point */
};

struct stats;
struct stats_dist;

typedef double stats_formula_fn(const void *ctx);

/* Never NULL. Calls gsl_set_error_handler_off() (GSL's default handler aborts). */
struct stats *stats_create(void);
/* Frees the registry and the distributions it owns; never the units' counters. */
void stats_destroy(struct stats *st);

/* The pointers are not const: the registry reads them at dump time and writes them in
 * stats_reset. They must outlive the registry (or its last dump and reset). */
void stats_counter(struct stats *st, const char *name, const char *desc, uint64_t *v);
/* The same with registration flags (STATS_HOST: a figure of the host or of the simulator's own
 * work, such as events fired, which STATS_DUMP_NO_HOST leaves out). */
void stats_counter_flags(struct stats *st, const char *name, const char *desc, uint64_t *v,
			 unsigned flags);

/* One counter of a unit's statistics struct, for stats_counters. */
struct stats_counter_def {
	const char *name; /* last component */
	const char *desc;
	size_t offset;    /* of the uint64_t in the struct */
};
#define STATS_COUNTER_DEF(type, field, desc) { #field, desc, offsetof(type, field) }

/* Registers n counters of the struct at base as "<prefix>.<name>", in table order. */
void stats_counters(struct stats *st, const char *prefix, void *base,
		    const struct stats_counter_def *defs, size_t n);
void stats_real(struct stats *st, const char *name, const char *desc, double *v, unsigned flags);
void stats_level(struct stats *st, const char *name, const char *desc, struct stat_level *lv);
void stats_formula(struct stats *st, const char *name, const char *desc, stats_formula_fn *fn,
		   const void *ctx);
/* A distribution with bins equal bins over [lo, hi) (lo < hi, bins >= 1); owned by the registry. */
struct stats_dist *stats_dist(struct stats *st, const char *name, const char *desc, double lo,
			      double hi, size_t bins);
void stats_dist_add(struct stats_dist *d, double x);
uint64_t stats_dist_count(const struct stats_dist *d);
double stats_dist_mean(const struct stats_dist *d);
/* The q-quantile (0 <= q <= 1) from the histogram, interpolated linearly within the bin; samples
 * below lo count at lo and above hi at the largest seen. NaN when empty. */
double stats_dist_quantile(const struct stats_dist *d, double q);

/* Zeroes every registered counter, level (cur stays, hwm = cur), real, and distribution. */
void stats_reset(struct stats *st);

/* Looks up a value by dotted name, fields included ("l1.hits", "load_latency_cycles.p99").
 * Returns false if no such value is registered. */
bool stats_get(const struct stats *st, const char *name, double *out);
/* Number of registered statistics. */
size_t stats_count(const struct stats *st);

/* Writes every statistic in format fmt. hdr may be NULL (no header). */
void stats_dump(const struct stats *st, FILE *out, enum stats_format fmt,
		const struct stats_header *hdr, unsigned flags);

#endif /* SIM_STATS_H */
