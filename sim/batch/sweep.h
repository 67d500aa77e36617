/*
 * sweep.h - sweep files: a study of many simulations described in libconfig syntax (*.sweep),
 * expanded into points, each one `gmsim run` of one config and one workload with overrides.
 *
 * Example (sweeps/stride.sweep):
 *
 *	configs   = [ "configs/t4.cfg", "configs/a100-80gb.cfg" ];
 *	workloads = [ "workloads/stride.wl" ];
 *	params    = { stride = [ 1, 2, 4, 8, 16, 32 ]; n = [ 262144 ]; };  # -p of the workload
 *	axes      = { l2 = { cache = { size_kb = [ 512, 1024 ]; }; }; };     # -o l2.cache.size_kb
 *	zip       = ( [ "stride", "l2.cache.size_kb" ] );                    # advance together
 *	exclude   = ( { config = "configs/t4.cfg"; stride = [ 16, 32 ]; } );
 *	metrics   = [ "dram.achieved_gbps", "coal.*" ];
 *	timeout_s = 600;
 *
 * Top-level keys (every other key is an error, with a "did you mean"):
 *	configs    array or list of config file names, required (each point runs one, as -c)
 *	workloads  array or list of workload files, required (as -w)
 *	axes       config overrides (as -o): groups nested as in a config file, each leaf an array
 *	           or list of values (integers, numbers, booleans or strings); the axis is named by
 *	           its dotted path, l2.cache.size_kb. Paths must be keys of the config schema.
 *	params     workload parameters (as -p): name = [ integers ]; every workload of the sweep
 *	           must declare each name
 *	zip        list of arrays of axis names (config, workload, a dotted override path or a
 *	           param name): the axes of one array have equal lengths and take their i-th values
 *	           together, as one axis at the place of the first of them
 *	exclude    list of groups, each { axis = value or [ values ]; ... } with axis named as in
 *	           zip (an override by nested groups: { l2 = { cache = { size_kb = 512; }; }; }); a
 *	           point whose values match every listed axis is left out
 *	metrics    statistic names for results.csv, * and ? wildcards as in the shell (coal.*,
 *	           mc*.row_hits); a distribution's parts are name.mean, name.p99, ... Default:
 *	           SWEEP_DEFAULT_METRICS
 *	timeout_s  per-point wall-clock limit in seconds (default SWEEP_DEFAULT_TIMEOUT_S): the
 *	           runner kills a point past it (status "timeout", no statistics)
 *	max_cycles, max_host_seconds
 *	           run limits of each point, as gmsim run --max-cycles / --max-host-seconds: a
 *	           point that reaches one stops itself (status "limit", partial statistics kept);
 *	           default none
 *
 * Expansion: the cartesian product of config x workload x the override axes in file order x
 * the param axes in file order, the first outermost, minus exclusions. File names are used as
 * written, relative to the current directory, as -c and -w are.
 *
 * Point ids: 12 hex digits of FNV-1a over the point's config, workload and sorted -o/-p
 * assignments. They do not depend on the order or the other values of the axes, so adding a
 * value to an axis keeps the ids (and finished results) of the points already there.
 *
 * Errors: every problem is collected and reported as `file:line: key: message`, key a path such
 * as configs[1], axes.l2.cache.size_kb, exclude[0].stride or zip[0][1].
 */
#ifndef SIM_SWEEP_H
#define SIM_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log.h"

#define SWEEP_ID_LEN 12
#define SWEEP_DEFAULT_TIMEOUT_S 3600.0
#define SWEEP_DEFAULT_METRICS \
	"sim.cycles", "dram.achieved_gbps", "coal.efficiency", "l1.hit_rate", "l2.hit_rate"

enum sweep_axis_kind { SWEEP_AXIS_CONFIG, SWEEP_AXIS_WORKLOAD, SWEEP_AXIS_SET, SWEEP_AXIS_PARAM };
enum sweep_value_kind { SWEEP_INT, SWEEP_FLOAT, SWEEP_BOOL, SWEEP_STRING };

struct sweep_value {
	enum sweep_value_kind kind;
	char *text; /* 20480, 1.5, true or the string itself (no quotes) */
};

struct sweep_axis {
	char *name;                  /* "config", "workload", "l2.cache.size_kb", "stride" */
	enum sweep_axis_kind kind;
	struct sweep_value *values;
	size_t nvalues;
	int zip;                     /* index into the zip list, or -1 */
};

/*
 * One simulation: what `gmsim run` is given. The strings are owned by whoever filled the job
 * (the sweep, or the command line of --run-point).
 */
struct sweep_job {
	char id[SWEEP_ID_LEN + 1];
	const char *config, *workload;
	const char **set;            /* "l2.cache.size_kb=512", as -o takes it */
	size_t nset;
	const char **param;          /* "stride=4", as -p takes it */
	size_t nparam;
};

struct sweep_point {
	size_t *choice;              /* per axis: index into its values */
	struct sweep_job job;
};

struct sweep {
	char *path;
	struct sweep_axis *axes;     /* config, workload, overrides, params */
	size_t naxes;
	char **metrics;
	size_t nmetrics;
	double timeout_s;
	uint64_t max_cycles;         /* 0: none */
	double max_host_seconds;     /* 0: none */
	struct sweep_point *points;
	size_t npoints;
	size_t nexcluded;
};

/* Loads and expands path. Returns a new sweep (free with sweep_free), or NULL with err filled:
 * the first problem's file and line, every problem (up to 20) one per line. Never exits. */
struct sweep *sweep_load(const char *path, struct sim_err *err);
/* The same on text given as the file name (unit tests); files it names are still opened. */
struct sweep *sweep_load_string(const char *name, const char *text, struct sim_err *err);
void sweep_free(struct sweep *s);

/* Fills job->id from the rest of job. */
void sweep_job_set_id(struct sweep_job *job);
/* Writes the points, one line each: id, config, workload, then key=value per override and param
 * axis (in axis order), after a header naming the sweep, its counts and its axes. */
void sweep_write_points(const struct sweep *s, FILE *out);

#endif /* SIM_SWEEP_H */
