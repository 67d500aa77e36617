/*
 * validate.h - the model-independent half of `gmsim validate`: the measured-data CSV, metric
 * names with their swept parameters, unit conversion, the table of supported metric families
 * (which microbenchmark of workloads/ubench/ mirrors each, with which parameters, and how its
 * simulated value comes out of a run) and the error statistics.
 *
 * The CSV (data/hw/measured.csv) has the header gpu,memory_type,metric,value,unit,
 * method,source and one measurement a row. Fields may be quoted ("a, b" and "" for a quote);
 * every row has exactly seven fields and a numeric value. Errors name file:line.
 *
 * Metric names: family[@name=value{;name=value}]; a few sources join parameters with '_'
 * (l1_cycles_per_warp_load@float_block_width=1_pitch=4098), which the parser accepts too: a
 * value is a number, and what follows it is ';', '_' or the end.
 *
 * A plan says how to simulate one row: the workload file, the -p overrides of an optional
 * warm-up kernel and of the measured kernel (run as a kernel list on one machine, caches warm),
 * and how to turn the measured kernel's span into the row's quantity (validate_value). The
 * running itself is the caller's (sim/cli/cmd_validate.c), so this unit needs no simulator.
 */
#ifndef SIM_VALIDATE_H
#define SIM_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log.h"

/* ---- the measured CSV ------------------------------------------------------------------ */

struct vrow {
	char *gpu, *memory_type, *metric, *unit, *method, *source;
	double value;
	int line;
};

struct vcsv {
	char *path;
	struct vrow *rows;
	size_t n;
};

/* Reads a measured CSV from f (name is used in messages). Returns a new table (free with
 * validate_csv_free), or NULL with err filled as name:line: message. */
struct vcsv *validate_csv_read(FILE *f, const char *name, struct sim_err *err);
/* The same from a file path. */
struct vcsv *validate_csv_load(const char *path, struct sim_err *err);
void validate_csv_free(struct vcsv *c);

/* ---- metric names ---------------------------------------------------------------------- */

#define VMETRIC_MAX_PARAMS 4
#define VMETRIC_NAME_MAX 64

struct vmetric {
	char family[VMETRIC_NAME_MAX];
	size_t nparams;
	struct {
		char name[VMETRIC_NAME_MAX];
		double value;
	} p[VMETRIC_MAX_PARAMS];
};

/* Splits "family@a=1;b=2.5" (or "_" between parameters). Returns 0, or -1 with err->msg
 * saying what is wrong (no file or line: the caller adds the row's). */
int validate_metric_parse(const char *metric, struct vmetric *m, struct sim_err *err);
/* The value of parameter name, or false. */
bool validate_metric_param(const struct vmetric *m, const char *name, double *v);

/* ---- units ------------------------------------------------------------------------------ */

enum vquantity { VQ_BANDWIDTH, VQ_CYCLES, VQ_BW_PER_SM, VQ_UNKNOWN };

/* The quantity a unit measures and the factor to the canonical unit of that quantity (GB/s =
 * 1e9 B/s; SM cycles): "GB/s" 1, "GiB/s" 1.073741824, "MB/s" 0.001, "MiB/s" 0.001048576,
 * "TB/s" 1000, "cycles" and "cycles/warp-instr" 1; bytes per SM cycle per SM: "B/cycle/SM" 1.
 * Returns VQ_UNKNOWN for anything else. */
enum vquantity validate_unit(const char *unit, double *to_canonical);
/* The canonical unit of a quantity, for tables: "GB/s", "cycles", "B/cycle/SM" ("" unknown). */
const char *validate_quantity_unit(enum vquantity q);
/* The SM clock the method text states ("...; 1380 MHz"), in MHz, or 0 if it states none. */
double validate_method_mhz(const char *method);

/* ---- error statistics ------------------------------------------------------------------- */

struct vstats {
	size_t n;
	double mape;    /* mean of |sim - meas| / |meas|, percent */
	double nrmse;   /* RMSE / mean of |meas|, percent */
	double pearson; /* NAN when n < 3 or either vector is constant */
	double max_ape; /* worst point, percent */
};

/* Error statistics of sim[] against meas[] (n >= 1, meas[i] != 0). */
void validate_stats(const double *meas, const double *sim, size_t n, struct vstats *out);
/* Signed error of one point in percent: 100 (sim - meas) / meas. */
double validate_error_pct(double meas, double sim);
/* Indices of an evenly spaced subset of k of n points (first and last included when k >= 2;
 * k >= n: all): idx[i] = round(i (n - 1) / (k - 1)). Returns how many it wrote. */
size_t validate_subset(size_t n, size_t k, size_t *idx);

/* ---- families and plans ----------------------------------------------------------------- */

/* What the caller knows of the simulated machine. */
struct vmachine {
	uint32_t sms;
	uint32_t blocks_1024;   /* resident blocks of 1024 threads per SM */
	uint32_t threads_per_sm; /* resident threads per SM (full occupancy) */
	uint64_t shared_bytes;  /* shared memory per SM (sm.shared_kb) */
	uint64_t l1_bytes, l2_bytes;
	double core_mhz;
};

enum vvalue_kind {
	VV_CYCLES_PER_OP,  /* measured kernel's core cycles / ops */
	VV_HOST_CYCLES_PER_OP, /* its ns x the method's clock / ops (host-timed sources) */
	VV_GBPS,           /* bytes / its ns */
	VV_GBPS_AT_MHZ,    /* bytes / its cycles x the method's clock (sources that lock it) */
	VV_BYTES_PER_CYCLE_PER_SM, /* bytes / its cycles / SMs (ops: bytes per SM) */
};

#define VPLAN_MAX_P 8
#define VPLAN_P_LEN 64

struct vplan {
	const char *workload;           /* file name under the ubench directory */
	size_t nwarm, nmeas;            /* nwarm 0: no warm-up kernel */
	char warm[VPLAN_MAX_P][VPLAN_P_LEN], meas[VPLAN_MAX_P][VPLAN_P_LEN];
	enum vvalue_kind kind;
	double ops;                     /* loads (per-op kinds) or bytes (VV_GBPS) */
	double method_mhz;              /* VV_HOST_CYCLES_PER_OP: the clock the source used */
};

/* Whether plan's measured kernel is timed from its first warp instruction rather than from its
 * start: true for the mirrors whose sources run a few long-lived blocks for milliseconds
 * (pointer chases, gpu-cache, gpu-l2-cache, gpu-strides), where launching the blocks is a
 * negligible share of the time but would not be in the scaled-down mirror. The stream, OpenCL
 * and copy mirrors keep the kernel's whole span: their sources run many short blocks, whose
 * launch and retirement are part of what they measure. */
bool validate_from_first_issue(const struct vplan *plan);

/* The supported families, for --help and documentation: name, workload and a line on the
 * mapping; NULL-terminated. */
struct vfamily_info {
	const char *family, *workload, *mapping;
};
extern const struct vfamily_info validate_families[];
/* The supported scalar rows (one figure, matched by the whole metric name): n of them, and
 * row i as name (the metric), workload and mapping. */
size_t validate_scalar_count(void);
void validate_scalar_info(size_t i, struct vfamily_info *out);

/*
 * Plans row r for machine m. Returns 1 with plan filled; 0 if the row is not supported, with
 * reason filled (unknown family, a parameter missing, a variant not mirrored, a unit of
 * another quantity); -1 if the metric name does not parse (reason says why).
 */
int validate_plan(const struct vrow *r, const struct vmachine *m, struct vplan *plan,
		  char *reason, size_t reason_size);
/* The simulated value of a plan from its measured kernel's span: cycles at the core clock of
 * period core_ps picoseconds. In the canonical unit of the row's quantity. */
double validate_value(const struct vplan *plan, uint64_t cycles, double core_ps);

#endif /* SIM_VALIDATE_H */
