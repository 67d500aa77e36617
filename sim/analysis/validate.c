/*
 * validate.c - measured CSV reader, metric@params parser, unit conversion, the family table of
 * `gmsim validate` and its error statistics (validate.h).
 *
 * What it models: nothing of the GPU. It decides, per measured row, which microbenchmark of
 * workloads/ubench/ mirrors the row's method and with which parameters, and turns a simulated
 * kernel's span into the row's quantity. doc/validation.md explains each mapping.
 *
 * Not done here: running the simulator (sim/cli/cmd_validate.c does), TLB effects (the
 * simulator has no TLB), and the sources' timing overheads (kernel launch, clock64 reads).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "csv.h"
#include "validate.h"

/* =========================================================================================
 * CSV
 * ========================================================================================= */

#define CSV_FIELDS 7
static const char *const csv_header[CSV_FIELDS] = { "gpu", "memory_type", "metric", "value",
						    "unit", "method", "source" };

struct vcsv *validate_csv_read(FILE *f, const char *name, struct sim_err *err)
{
	struct vcsv *c = xcalloc(1, sizeof *c);
	char *fields[CSV_FIELDS + 1];
	size_t cap = 0;
	int next = 1, nf, line;

	c->path = xstrdup(name);
	line = next;
	nf = csv_read_record(f, name, &next, fields, CSV_FIELDS + 1, err);
	if (nf <= 0) {
		if (nf == 0)
			sim_err_set(err, name, 1, "empty file: expected the header %s,%s,%s,%s,%s,%s,%s",
				    csv_header[0], csv_header[1], csv_header[2], csv_header[3],
				    csv_header[4], csv_header[5], csv_header[6]);
		validate_csv_free(c);
		return NULL;
	}
	for (int i = 0; i < CSV_FIELDS; i++) {
		if (nf != CSV_FIELDS || strcmp(fields[i], csv_header[i]) != 0) {
			sim_err_set(err, name, line, "bad header: expected %s,%s,%s,%s,%s,%s,%s",
				    csv_header[0], csv_header[1], csv_header[2], csv_header[3],
				    csv_header[4], csv_header[5], csv_header[6]);
			csv_free_fields(fields, (size_t)nf);
			validate_csv_free(c);
			return NULL;
		}
	}
	csv_free_fields(fields, (size_t)nf);
	for (;;) {
		struct vrow *r;
		char *end;

		line = next;
		nf = csv_read_record(f, name, &next, fields, CSV_FIELDS + 1, err);
		if (nf < 0) {
			validate_csv_free(c);
			return NULL;
		}
		if (nf == 0)
			break;
		if (nf == 1 && fields[0][0] == '\0') { /* a blank line */
			csv_free_fields(fields, 1);
			continue;
		}
		if (nf != CSV_FIELDS) {
			sim_err_set(err, name, line, "%d fields, expected %d (%s,...,%s)", nf,
				    CSV_FIELDS, csv_header[0], csv_header[CSV_FIELDS - 1]);
			csv_free_fields(fields, (size_t)nf);
			validate_csv_free(c);
			return NULL;
		}
		if (c->n == cap) {
			cap = cap ? 2 * cap : 256;
			c->rows = xreallocarray(c->rows, cap, sizeof *c->rows);
		}
		r = &c->rows[c->n];
		errno = 0;
		r->value = strtod(fields[3], &end);
		if (fields[3][0] == '\0' || *end != '\0' || errno != 0 || !isfinite(r->value)) {
			sim_err_set(err, name, line, "value: '%s' is not a number", fields[3]);
			csv_free_fields(fields, (size_t)nf);
			validate_csv_free(c);
			return NULL;
		}
		free(fields[3]);
		r->gpu = fields[0];
		r->memory_type = fields[1];
		r->metric = fields[2];
		r->unit = fields[4];
		r->method = fields[5];
		r->source = fields[6];
		r->line = line;
		c->n++;
	}
	return c;
}

struct vcsv *validate_csv_load(const char *path, struct sim_err *err)
{
	FILE *f = fopen(path, "r");
	struct vcsv *c;

	if (f == NULL) {
		sim_err_set(err, path, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	c = validate_csv_read(f, path, err);
	fclose(f);
	return c;
}

void validate_csv_free(struct vcsv *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n; i++) {
		struct vrow *r = &c->rows[i];

		free(r->gpu);
		free(r->memory_type);
		free(r->metric);
		free(r->unit);
		free(r->method);
		free(r->source);
	}
	free(c->rows);
	free(c->path);
	free(c);
}

/* =========================================================================================
 * Metric names
 * ========================================================================================= */

/* A last parameter written as a number and its unit ("32MB"): the unit is the name. */
static int metric_param_with_unit(const char *metric, const char *s, struct vmetric *m,
				  struct sim_err *err)
{
	char *end;
	double v;
	size_t nl;

	errno = 0;
	v = strtod(s, &end);
	nl = strlen(end);
	if (errno != 0 || nl == 0 || nl >= VMETRIC_NAME_MAX || strchr(end, ';') != NULL ||
	    m->nparams == VMETRIC_MAX_PARAMS)
		return sim_err_set(err, NULL, 0, "metric '%s': expected name=value or a number "
				   "and its unit after '%.*s'", metric, (int)(s - metric), metric);
	for (const char *c = end; *c != '\0'; c++)
		if (!isalpha((unsigned char)*c))
			return sim_err_set(err, NULL, 0, "metric '%s': unit '%s' of a parameter "
					   "is not a word", metric, end);
	memcpy(m->p[m->nparams].name, end, nl + 1);
	m->p[m->nparams++].value = v;
	return 0;
}

int validate_metric_parse(const char *metric, struct vmetric *m, struct sim_err *err)
{
	const char *at = strchr(metric, '@'), *s;
	size_t len = at != NULL ? (size_t)(at - metric) : strlen(metric);

	memset(m, 0, sizeof *m);
	if (len == 0 || len >= sizeof m->family)
		return sim_err_set(err, NULL, 0, "metric '%s': family name empty or too long",
				   metric);
	memcpy(m->family, metric, len);
	if (at == NULL)
		return 0;
	s = at + 1;
	for (;;) {
		const char *eq = strchr(s, '=');
		char *end;
		size_t nl;

		/* "@32MB": a value with its unit, the unit names the parameter (MB=32) */
		if (isdigit((unsigned char)*s) && (eq == NULL || strcspn(s, ";") < (size_t)(eq - s)))
			return metric_param_with_unit(metric, s, m, err);
		if (eq == NULL || eq == s)
			return sim_err_set(err, NULL, 0, "metric '%s': expected name=value after "
					   "'%.*s'", metric, (int)(s - metric), metric);
		nl = (size_t)(eq - s);
		if (m->nparams == VMETRIC_MAX_PARAMS || nl >= VMETRIC_NAME_MAX)
			return sim_err_set(err, NULL, 0, "metric '%s': more than %d parameters or "
					   "a name too long", metric, VMETRIC_MAX_PARAMS);
		memcpy(m->p[m->nparams].name, s, nl);
		m->p[m->nparams].name[nl] = '\0';
		errno = 0;
		m->p[m->nparams].value = strtod(eq + 1, &end);
		if (end == eq + 1 || errno != 0 || (*end != '\0' && *end != ';' && *end != '_'))
			return sim_err_set(err, NULL, 0, "metric '%s': parameter %s: not a number",
					   metric, m->p[m->nparams].name);
		m->nparams++;
		if (*end == '\0')
			return 0;
		s = end + 1;
	}
}

bool validate_metric_param(const struct vmetric *m, const char *name, double *v)
{
	for (size_t i = 0; i < m->nparams; i++) {
		if (strcmp(m->p[i].name, name) == 0) {
			*v = m->p[i].value;
			return true;
		}
	}
	return false;
}

/* =========================================================================================
 * Units
 * ========================================================================================= */

enum vquantity validate_unit(const char *unit, double *to_canonical)
{
	static const struct {
		const char *unit;
		enum vquantity q;
		double f;
	} units[] = {
		{ "GB/s", VQ_BANDWIDTH, 1.0 },
		{ "GiB/s", VQ_BANDWIDTH, 1.073741824 },
		{ "MB/s", VQ_BANDWIDTH, 1e-3 },
		{ "MiB/s", VQ_BANDWIDTH, 1.048576e-3 },
		{ "TB/s", VQ_BANDWIDTH, 1e3 },
		{ "cycles", VQ_CYCLES, 1.0 },
		{ "cycles/warp-instr", VQ_CYCLES, 1.0 },
		{ "B/cycle/SM", VQ_BW_PER_SM, 1.0 },
	};

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(unit, units[i].unit) == 0) {
			*to_canonical = units[i].f;
			return units[i].q;
		}
	}
	*to_canonical = NAN;
	return VQ_UNKNOWN;
}

const char *validate_quantity_unit(enum vquantity q)
{
	switch (q) {
	case VQ_BANDWIDTH:
		return "GB/s";
	case VQ_CYCLES:
		return "cycles";
	case VQ_BW_PER_SM:
		return "B/cycle/SM";
	case VQ_UNKNOWN:
		break;
	}
	return "";
}

double validate_method_mhz(const char *method)
{
	const char *p = method, *hit;
	double mhz = 0.0;

	/* the last "N MHz" that is not a memory clock ("GDDR6 5001 MHz", "HBM2 877 MHz") */
	while ((hit = strstr(p, " MHz")) != NULL) {
		const char *num = hit, *word;

		p = hit + 4;
		while (num > method && (isdigit((unsigned char)num[-1]) || num[-1] == '.'))
			num--;
		if (num == hit)
			continue;
		word = num > method + 1 ? num - 1 : method;
		while (word > method && !isspace((unsigned char)word[-1]))
			word--;
		if (strncmp(word, "GDDR", 4) == 0 || strncmp(word, "HBM", 3) == 0 ||
		    strncmp(word, "memory", 6) == 0)
			continue;
		mhz = strtod(num, NULL);
	}
	return mhz;
}

/* =========================================================================================
 * Error statistics
 * ========================================================================================= */

double validate_error_pct(double meas, double sim)
{
	return 100.0 * (sim - meas) / meas;
}

void validate_stats(const double *meas, const double *sim, size_t n, struct vstats *out)
{
	double ape = 0.0, se = 0.0, mean = 0.0, worst = 0.0;
	bool meas_const = true, sim_const = true;

	memset(out, 0, sizeof *out);
	out->n = n;
	out->pearson = NAN;
	if (n == 0) {
		out->mape = out->nrmse = out->max_ape = NAN;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		double e = fabs(validate_error_pct(meas[i], sim[i]));

		ape += e;
		if (e > worst)
			worst = e;
		se += (sim[i] - meas[i]) * (sim[i] - meas[i]);
		mean += fabs(meas[i]);
		meas_const = meas_const && meas[i] == meas[0];
		sim_const = sim_const && sim[i] == sim[0];
	}
	mean /= (double)n;
	out->mape = ape / (double)n;
	out->max_ape = worst;
	out->nrmse = mean > 0 ? 100.0 * sqrt(se / (double)n) / mean : NAN;
	if (n >= 3 && !meas_const && !sim_const)
		out->pearson = gsl_stats_correlation(meas, 1, sim, 1, n);
}

size_t validate_subset(size_t n, size_t k, size_t *idx)
{
	if (k == 0 || n == 0)
		return 0;
	if (k >= n) {
		for (size_t i = 0; i < n; i++)
			idx[i] = i;
		return n;
	}
	if (k == 1) {
		idx[0] = 0;
		return 1;
	}
	for (size_t i = 0; i < k; i++)
		idx[i] = (size_t)floor((double)i * (double)(n - 1) / (double)(k - 1) + 0.5);
	return k;
}

/* =========================================================================================
 * Families
 * ========================================================================================= */

const struct vfamily_info validate_families[] = {
	{ "pchase_latency", "pchase.wl",
	  "footprint_kB (gpu-latency: 64 B slots, one warp, host-timed) or footprint_bytes "
	  "(markdewing: 128 B lines, one thread, clock64); warm-up chase, then 4096 loads; "
	  "cycles per load" },
	{ "l1_l2_read_bw_per_dataset", "cache_bw.wl",
	  "kB: one 256-thread block per SM re-reads a kB float buffer (first 256 KiB), >= 128 KiB "
	  "per block after a one-pass warm-up; aggregate GB/s" },
	{ "l2_read_bw", "l2_bw.wl",
	  "total_working_set_kB = r x 512: gpu-l2-cache's kernel, 1024-thread blocks of 32 x 2 "
	  "loads of 8 B, block b reading 16 KiB chunks r i + c(b) (the source's c(b) = b mod r, "
	  "hashed so co-resident blocks share chunks 1 time in r); 4 waves of resident blocks "
	  "after a warm-up wave when the set fits 1.25 x L2; read GB/s" },
	{ "stream_init_bw", "gpu_stream.wl", "blockSize: one double per thread, 2 blocks per SM "
	  "(shared-memory spoiler), 32 waves of blocks after a run of the same kernel over one "
	  "L2 capacity (as the repeated timed runs), A[i] = c; GB/s of stores" },
	{ "stream_read_bw", "gpu_stream.wl", "blockSize: as init, t = B[i]; GB/s of loads" },
	{ "stream_scale_bw", "gpu_stream.wl", "blockSize: as init, A[i] = c B[i]; GB/s of loads "
	  "+ stores" },
	{ "stream_triad_bw", "gpu_stream.wl", "blockSize: as init, A[i] = 1.2 B[i] + C[i] (the "
	  "measured version's triad); GB/s of 2 loads + 1 store" },
	{ "l1_cycles_per_warp_load", "l1_strides.wl",
	  "float_ or double_block_width, pitch: one 1024-thread block of width w reads "
	  "A[x%64 + (y%32) pitch + k]; cycles per warp load" },
	{ "l1_cycles_per_warp_load", "l1_lane_strides.wl",
	  "float_ or double_stride: one 1024-thread block, thread t reads A[(t%64) stride + "
	  "4 k], k < 8, 8 passes after a warm-up pass; cycles per warp load" },
	{ "l1_load_bytes_per_cycle_per_SM", "l1_lane_strides.wl",
	  "float_ or double_stride: as above; requested bytes per cycle" },
	{ NULL, NULL, NULL },
};

/* Appends one "name=value" override. */
static void plan_p(char (*p)[VPLAN_P_LEN], size_t *n, const char *name, double v)
{
	snprintf(p[(*n)++], VPLAN_P_LEN, "%s=%.0f", name, v);
}

/* Appends the same override to the warm-up and the measured kernel. */
static void plan_both(struct vplan *pl, const char *name, double v)
{
	plan_p(pl->warm, &pl->nwarm, name, v);
	plan_p(pl->meas, &pl->nmeas, name, v);
}

static int skip(char *reason, size_t size, const char *fmt, const char *arg)
{
	snprintf(reason, size, fmt, arg);
	return 0;
}

/* Loads of the measured pointer chase: enough to average over the permutation and many
 * sectors and DRAM rows, few enough for a fraction of a second. */
#define PCHASE_LOADS 4096.0
/* cache_bw: bytes each block reads in the measured kernel at least, and the window. */
#define CACHE_BW_TARGET_KB 128.0
#define CACHE_BW_WIN_KB 256.0
/* l2_bw: what each block reads (the source's 32 x 2 x 1024 doubles). */
#define L2_BW_BLOCK_KB 512.0
/* l2_bw: waves of resident blocks the measured kernel runs (the source runs 200,000 blocks).
 * In one wave blocks b and b + SMs share an SM for the whole kernel; with the source's b mod r
 * they read the same chunks whenever r divides the SM count (at r = 3 on the A100 80 GB, +148%
 * in one wave, +45% in four), so the workload hashes a block's class (l2_bw.wl). */
#define L2_BW_WAVES 4.0

static int plan_pchase(const struct vrow *r, const struct vmetric *mt, const struct vmachine *m,
		       struct vplan *pl, char *reason, size_t size)
{
	double fp, stride, threads, nodes, warm;
	bool markdewing = strstr(r->method, "128-B") != NULL;

	if (validate_metric_param(mt, "footprint_kB", &fp))
		fp *= 1024.0;
	else if (!validate_metric_param(mt, "footprint_bytes", &fp))
		return skip(reason, size, "%s: no footprint_kB or footprint_bytes parameter",
			    mt->family);
	stride = markdewing ? 128.0 : 64.0;
	threads = markdewing ? 1.0 : 32.0;
	nodes = floor(fp / stride);
	if (nodes < 1.0)
		return skip(reason, size, "%s: footprint below one node", mt->family);
	pl->workload = "pchase.wl";
	/* After a pass over min(footprint, 1.25 x L2) the caches hold what a full pass leaves. */
	warm = fmin(nodes, ceil(1.25 * (double)m->l2_bytes / stride));
	plan_p(pl->warm, &pl->nwarm, "footprint_bytes", nodes * stride);
	plan_p(pl->warm, &pl->nwarm, "stride_bytes", stride);
	plan_p(pl->warm, &pl->nwarm, "threads", threads);
	plan_p(pl->warm, &pl->nwarm, "loads", warm);
	plan_p(pl->meas, &pl->nmeas, "footprint_bytes", nodes * stride);
	plan_p(pl->meas, &pl->nmeas, "stride_bytes", stride);
	plan_p(pl->meas, &pl->nmeas, "threads", threads);
	plan_p(pl->meas, &pl->nmeas, "loads", PCHASE_LOADS);
	/* The timed loads go on along the warm-up's cycle (the same array: the same order), as the
	 * source's timed pass follows its untimed ones: a node comes back only after the whole
	 * cycle. A new start would revisit nodes the warm-up left in the L2 (about 30% of them at
	 * 3x the A100's L2), which read as a DRAM latency falling with the footprint. */
	plan_p(pl->meas, &pl->nmeas, "start", warm);
	pl->ops = PCHASE_LOADS;
	pl->method_mhz = validate_method_mhz(r->method);
	/* gpu-latency divides host time by loads and multiplies by the clock it names;
	 * clock64() sources count SM cycles directly. */
	pl->kind = strstr(r->method, "clock64") == NULL && pl->method_mhz > 0
		? VV_HOST_CYCLES_PER_OP : VV_CYCLES_PER_OP;
	return 1;
}

/* cache_bw.wl over kb KiB: a one-repetition warm-up, then repetitions so each block reads at
 * least CACHE_BW_TARGET_KB; pl->ops = bytes one block (SM) reads in the measured kernel. */
static void plan_cache_run(const struct vmachine *m, struct vplan *pl, double kb)
{
	double per = fmin(kb, CACHE_BW_WIN_KB), reps = ceil(CACHE_BW_TARGET_KB / per);

	pl->workload = "cache_bw.wl";
	plan_p(pl->warm, &pl->nwarm, "kb", kb);
	plan_p(pl->warm, &pl->nwarm, "reps", 1);
	plan_p(pl->warm, &pl->nwarm, "win_kb", CACHE_BW_WIN_KB);
	plan_p(pl->warm, &pl->nwarm, "sms", m->sms);
	plan_p(pl->meas, &pl->nmeas, "kb", kb);
	plan_p(pl->meas, &pl->nmeas, "reps", reps);
	plan_p(pl->meas, &pl->nmeas, "win_kb", CACHE_BW_WIN_KB);
	plan_p(pl->meas, &pl->nmeas, "sms", m->sms);
	pl->ops = reps * per * 1024.0;
}

static int plan_cache_bw(const struct vmetric *mt, const struct vmachine *m, struct vplan *pl,
			 char *reason, size_t size)
{
	double kb;

	if (!validate_metric_param(mt, "kB", &kb))
		return skip(reason, size, "%s: no kB parameter", mt->family);
	if (kb < 1.0 || kb != floor(kb))
		return skip(reason, size, "%s: kB must be a whole number >= 1", mt->family);
	plan_cache_run(m, pl, kb);
	pl->kind = VV_GBPS;
	pl->ops *= m->sms;
	return 1;
}

static int plan_l2_bw(const struct vmetric *mt, const struct vmachine *m, struct vplan *pl,
		      char *reason, size_t size)
{
	double ws, r, blocks;

	if (!validate_metric_param(mt, "total_working_set_kB", &ws))
		return skip(reason, size, "%s: no total_working_set_kB parameter (a scalar from "
			    "another benchmark)", mt->family);
	if (ws < L2_BW_BLOCK_KB || fmod(ws, L2_BW_BLOCK_KB) != 0.0 || ws > 1e9)
		return skip(reason, size, "%s: working set not a multiple of the 512 KiB a block "
			    "reads", mt->family);
	if (m->blocks_1024 == 0)
		return skip(reason, size, "%s: a 1024-thread block does not fit on an SM",
			    mt->family);
	r = ws / L2_BW_BLOCK_KB;
	blocks = L2_BW_WAVES * (double)m->blocks_1024 * m->sms;
	pl->workload = "l2_bw.wl";
	/* warm-up: one wave of the same kernel, as the source's earlier blocks leave the L2 (a
	 * warm-up of r blocks ran on the first r SMs only, and with two L2 partitions the other
	 * partition's SMs then found nothing of the set near them: A100 80 GB at r = 11 -10 %) */
	if (ws * 1024.0 <= 1.25 * (double)m->l2_bytes) {
		plan_p(pl->warm, &pl->nwarm, "r", r);
		plan_p(pl->warm, &pl->nwarm, "blocks", (double)m->blocks_1024 * m->sms);
	}
	plan_p(pl->meas, &pl->nmeas, "r", r);
	plan_p(pl->meas, &pl->nmeas, "blocks", blocks);
	pl->kind = VV_GBPS;
	pl->ops = blocks * L2_BW_BLOCK_KB * 1024.0;
	return 1;
}

/* One STREAM kernel: `loads` arrays read and `stores` written, bpsm blocks of bs threads per
 * SM, elem-byte elements, a warm-up run of the same kernel over one L2 capacity, then the
 * measured run over `bytes` bytes per array (0: 4 L2 capacities, 16..2048 iterations). */
static void plan_stream_run(const struct vmachine *m, struct vplan *pl, double bs, double bpsm,
			    double elem, int loads, int stores, double bytes)
{
	double per_iter = bpsm * m->sms * bs * elem, iters, first;

	/* gpu-stream loops over 1 GiB arrays; a short measured kernel is all ramp-up (at 1024
	 * threads and 4 iterations V100 read 302 GB/s, at 32 iterations 659): move at least 4 L2
	 * capacities per array, at most 2048 iterations a thread. */
	first = ceil((double)m->l2_bytes / per_iter);
	iters = bytes > 0 ? ceil(bytes / per_iter) : fmin(2048.0, fmax(4.0 * first, 16.0));
	pl->workload = "stream.wl";
	plan_p(pl->warm, &pl->nwarm, "threads", bs);
	plan_p(pl->warm, &pl->nwarm, "sms", m->sms);
	plan_p(pl->warm, &pl->nwarm, "blocks_per_sm", bpsm);
	plan_p(pl->warm, &pl->nwarm, "elem", elem);
	plan_p(pl->warm, &pl->nwarm, "first", 0);
	plan_p(pl->warm, &pl->nwarm, "iters", first);
	/* The warm-up is a run of the same kernel over one L2 capacity: what the timed runs of
	 * gpu-stream see is the previous run's lines, dirty for the kernels that store and clean
	 * for the read kernel (an init warm-up before a read made every read evict a dirty line:
	 * 581 instead of 758 GB/s on V100 at 1024 threads). */
	plan_p(pl->warm, &pl->nwarm, "loads", loads);
	plan_p(pl->warm, &pl->nwarm, "stores", stores);
	plan_p(pl->meas, &pl->nmeas, "first", first);
	plan_p(pl->meas, &pl->nmeas, "threads", bs);
	plan_p(pl->meas, &pl->nmeas, "sms", m->sms);
	plan_p(pl->meas, &pl->nmeas, "blocks_per_sm", bpsm);
	plan_p(pl->meas, &pl->nmeas, "elem", elem);
	plan_p(pl->meas, &pl->nmeas, "iters", iters);
	plan_p(pl->meas, &pl->nmeas, "loads", loads);
	plan_p(pl->meas, &pl->nmeas, "stores", stores);
	pl->kind = VV_GBPS;
	pl->ops = iters * per_iter * (loads + stores);
}

/* gpu_stream.wl: waves of resident blocks the measured kernel runs at least. */
#define GPU_STREAM_WAVES 32.0

/* RRZE gpu-stream: one double per thread in blocks of bs threads, 2 resident blocks per SM
 * (the source's shared-memory spoiler); a warm-up run of the same kernel over one L2 capacity,
 * then the measured one over 32 waves of resident blocks and at least one L2 capacity. */
static int plan_stream(const struct vmetric *mt, const struct vmachine *m, struct vplan *pl,
		       char *reason, size_t size)
{
	static const struct {
		const char *family;
		int loads, stores;
	} v[] = {
		{ "stream_init_bw", 0, 1 },
		{ "stream_read_bw", 1, 0 },
		{ "stream_scale_bw", 1, 1 },
		{ "stream_triad_bw", 2, 1 }, /* the measured version: 1.2 B + C, 3 streams */
	};
	const double bpsm = 2.0;
	double bs, first, blocks;
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		if (strcmp(mt->family, v[i].family) == 0)
			break;
	if (!validate_metric_param(mt, "blockSize", &bs))
		return skip(reason, size, "%s: no blockSize parameter (a scalar from another "
			    "benchmark)", mt->family);
	if (bs < 32 || bs > 1024 || fmod(bs, 32.0) != 0.0)
		return skip(reason, size, "%s: blockSize not a multiple of 32 in 32..1024",
			    mt->family);
	if (bpsm * bs > m->threads_per_sm)
		return skip(reason, size, "%s: 2 blocks of blockSize threads do not fit on an SM "
			    "(the source skips it)", mt->family);
	first = ceil((double)m->l2_bytes / (bs * 8.0));
	blocks = fmax(ceil(GPU_STREAM_WAVES * bpsm * m->sms), first);
	pl->workload = "gpu_stream.wl";
	plan_both(pl, "threads", bs);
	/* the spoiler: half the SM's shared memory a block, so 2 blocks fit and 3 do not */
	plan_both(pl, "spoiler", floor((double)m->shared_bytes / bpsm));
	plan_both(pl, "loads", v[i].loads);
	plan_both(pl, "stores", v[i].stores);
	plan_p(pl->warm, &pl->nwarm, "first", 0);
	plan_p(pl->warm, &pl->nwarm, "blocks", first);
	plan_p(pl->meas, &pl->nmeas, "first", first);
	plan_p(pl->meas, &pl->nmeas, "blocks", blocks);
	pl->kind = VV_GBPS;
	pl->ops = blocks * bs * 8.0 * (v[i].loads + v[i].stores);
	return 1;
}

/* gpu-strides' lane-stride kernel: 8 reads (step 4) a pass; passes in the measured kernel. */
#define LANE_READS 8.0
#define LANE_REPS 8.0

static int plan_lane_strides(const struct vmetric *mt, struct vplan *pl, double stride,
			     double elem, char *reason, size_t size)
{
	double loads = 32.0 * LANE_READS * LANE_REPS; /* 32 warps */

	if (stride < 0 || stride > 1u << 20 || stride != floor(stride))
		return skip(reason, size, "%s: stride must be a whole number in 0..2^20",
			    mt->family);
	pl->workload = "l1_lane_strides.wl";
	plan_both(pl, "stride", stride);
	plan_both(pl, "elem", elem);
	plan_both(pl, "reads", LANE_READS);
	plan_p(pl->warm, &pl->nwarm, "reps", 1);
	plan_p(pl->meas, &pl->nmeas, "reps", LANE_REPS);
	if (strcmp(mt->family, "l1_load_bytes_per_cycle_per_SM") == 0) {
		pl->kind = VV_BYTES_PER_CYCLE_PER_SM; /* requested bytes, one SM */
		pl->ops = loads * 32.0 * elem;
	} else {
		pl->kind = VV_CYCLES_PER_OP;
		pl->ops = loads;
	}
	return 1;
}

static int plan_l1_strides(const struct vmetric *mt, struct vplan *pl, char *reason,
			   size_t size)
{
	double w, pitch, elem;
	const double reads = 64.0;

	if (validate_metric_param(mt, "float_stride", &w))
		return plan_lane_strides(mt, pl, w, 4.0, reason, size);
	if (validate_metric_param(mt, "double_stride", &w))
		return plan_lane_strides(mt, pl, w, 8.0, reason, size);
	if (strcmp(mt->family, "l1_cycles_per_warp_load") != 0)
		return skip(reason, size, "%s: only the lane-stride rows (*_stride) are mirrored",
			    mt->family);
	if (validate_metric_param(mt, "float_block_width", &w))
		elem = 4;
	else if (validate_metric_param(mt, "double_block_width", &w))
		elem = 8;
	else
		return skip(reason, size, "%s: no float_ or double_ stride or block_width "
			    "parameter", mt->family);
	if (!validate_metric_param(mt, "pitch", &pitch))
		return skip(reason, size, "%s: no pitch parameter", mt->family);
	if (w < 1 || w > 1024 || fmod(1024.0, w) != 0.0)
		return skip(reason, size, "%s: block width must divide 1024", mt->family);
	pl->workload = "l1_strides.wl";
	plan_p(pl->warm, &pl->nwarm, "w", w);
	plan_p(pl->warm, &pl->nwarm, "pitch", pitch);
	plan_p(pl->warm, &pl->nwarm, "reads", reads);
	plan_p(pl->warm, &pl->nwarm, "elem", elem);
	memcpy(pl->meas, pl->warm, sizeof pl->meas);
	pl->nmeas = pl->nwarm;
	pl->kind = VV_CYCLES_PER_OP;
	pl->ops = 32.0 * reads; /* 32 warps x reads warp loads */
	return 1;
}

/* ---- scalar rows: one figure of a named benchmark, no swept parameter ---------------- */

enum vscalar_how {
	SC_LAT_L1,    /* pointer chase inside the L1 */
	SC_LAT_L2,    /* pointer chase past the L1, inside the L2 */
	SC_LAT_DRAM,  /* pointer chase far past the L2 */
	SC_STREAM,    /* stream.wl at full occupancy (or the source's blocks) */
	SC_OCL,       /* ocl_rw.wl */
	SC_CACHE_L1,  /* cache_bw.wl inside the L1 */
	SC_CACHE_L2,  /* cache_bw.wl past the L1 */
};

static const struct vscalar {
	const char *metric;     /* the whole metric name (with its parameter, if any) */
	enum vquantity q;
	enum vscalar_how how;
	int loads, stores;      /* SC_STREAM: arrays read and written; SC_OCL: stores = write */
	int elem, threads;      /* element bytes; block size (0: 256) */
	int misaligned;         /* SC_OCL */
	double mbytes;          /* SC_STREAM: bytes per array (0: 4 L2 capacities), MB */
	const char *mapping;
} scalars[] = {
	{ "l1_hit_latency", VQ_CYCLES, SC_LAT_L1, 0, 0, 0, 0, 0, 0,
	  "one thread chases 128 B nodes over 4 KiB" },
	{ "ldg_32b_latency (L1 hit)", VQ_CYCLES, SC_LAT_L1, 0, 0, 0, 0, 0, 0,
	  "one thread chases 128 B nodes over 4 KiB (load width not modelled in L1 latency)" },
	{ "ldg_64b_latency (L1 hit)", VQ_CYCLES, SC_LAT_L1, 0, 0, 0, 0, 0, 0,
	  "as ldg_32b" },
	{ "ldg_128b_latency (L1 hit)", VQ_CYCLES, SC_LAT_L1, 0, 0, 0, 0, 0, 0,
	  "as ldg_32b" },
	{ "l2_hit_latency", VQ_CYCLES, SC_LAT_L2, 0, 0, 0, 0, 0, 0,
	  "one thread chases 128 B nodes over half the L2 (at least 16 L1s)" },
	{ "dram_latency", VQ_CYCLES, SC_LAT_DRAM, 0, 0, 0, 0, 0, 0,
	  "one thread chases 128 B nodes over 32 L2 capacities (no TLB is modelled)" },
	{ "dram_latency (cited)", VQ_CYCLES, SC_LAT_DRAM, 0, 0, 0, 0, 0, 0,
	  "as dram_latency (a figure one paper cites from another)" },
	{ "dram_bw_measured", VQ_BANDWIDTH, SC_STREAM, 1, 1, 8, 256, 0, 0,
	  "copy a[i] = b[i] (stream.wl scale), full occupancy; loads + stores" },
	{ "coalesced_read_bw", VQ_BANDWIDTH, SC_OCL, 0, 0, 4, 64, 0, 0,
	  "ocl_rw.wl: 16 floats a work-item at i N + n; bytes read" },
	{ "coalesced_write_bw", VQ_BANDWIDTH, SC_OCL, 0, 1, 4, 64, 0, 0,
	  "ocl_rw.wl: 16 floats a work-item at i N + n; bytes written" },
	{ "misaligned_read_bw", VQ_BANDWIDTH, SC_OCL, 0, 0, 4, 64, 1, 0,
	  "ocl_rw.wl: 16 floats a work-item at 16 n + i; bytes read" },
	{ "misaligned_write_bw", VQ_BANDWIDTH, SC_OCL, 0, 1, 4, 64, 1, 0,
	  "ocl_rw.wl: 16 floats a work-item at 16 n + i; bytes written" },
	{ "opencl_global_read_bw_float", VQ_BANDWIDTH, SC_OCL, 0, 0, 4, 256, 0, 0,
	  "ocl_rw.wl: 16 float a work-item, coalesced" },
	{ "opencl_global_read_bw_float2", VQ_BANDWIDTH, SC_OCL, 0, 0, 8, 256, 0, 0,
	  "ocl_rw.wl: 16 float2 a work-item, coalesced" },
	{ "opencl_global_read_bw_float4", VQ_BANDWIDTH, SC_OCL, 0, 0, 16, 256, 0, 0,
	  "ocl_rw.wl: 16 float4 a work-item, coalesced" },
	{ "bandwidthTest_d2d_bw@32MB", VQ_BANDWIDTH, SC_STREAM, 1, 1, 8, 256, 0, 32.0,
	  "copy of 32 MB (stream.wl scale), full occupancy; 2 x bytes copied" },
	{ "saxpy_bw_noncompressible", VQ_BANDWIDTH, SC_STREAM, 2, 1, 4, 768, 0, 0,
	  "y = a x + y as stream.wl triad, floats, blocks of 768 at full occupancy; 3 arrays" },
	{ "l1_load_bw", VQ_BW_PER_SM, SC_CACHE_L1, 0, 0, 4, 256, 0, 0,
	  "cache_bw.wl over 16 KiB: every SM re-reads an L1-resident buffer; B/cycle/SM" },
	{ "l1_hit_bw_global_aggregate", VQ_BANDWIDTH, SC_CACHE_L1, 0, 0, 4, 256, 0, 0,
	  "cache_bw.wl over 16 KiB; B/cycle x the locked clock of the method" },
	{ "l2_load_bw", VQ_BANDWIDTH, SC_CACHE_L2, 0, 0, 4, 256, 0, 0,
	  "cache_bw.wl over a 256 KiB window past the L1: every SM streams it from the L2" },
};
#define NSCALARS (sizeof scalars / sizeof scalars[0])

size_t validate_scalar_count(void)
{
	return NSCALARS;
}

void validate_scalar_info(size_t i, struct vfamily_info *out)
{
	static const char *const wl[] = {
		[SC_LAT_L1] = "pchase.wl", [SC_LAT_L2] = "pchase.wl", [SC_LAT_DRAM] = "pchase.wl",
		[SC_STREAM] = "stream.wl", [SC_OCL] = "ocl_rw.wl", [SC_CACHE_L1] = "cache_bw.wl",
		[SC_CACHE_L2] = "cache_bw.wl",
	};

	out->family = scalars[i].metric;
	out->workload = wl[scalars[i].how];
	out->mapping = scalars[i].mapping;
}

/* The scalar row's plan; q is the row unit's quantity. */
static int plan_scalar(const struct vrow *r, const struct vscalar *sc, const struct vmachine *m,
		       struct vplan *pl, char *reason, size_t size)
{
	double fp = 0.0, nodes, l1 = (double)m->l1_bytes, l2 = (double)m->l2_bytes;
	double bs = sc->threads, bpsm;

	switch (sc->how) {
	case SC_LAT_L1:
	case SC_LAT_L2:
	case SC_LAT_DRAM:
		fp = sc->how == SC_LAT_L1 ? 4096.0
		     : sc->how == SC_LAT_L2 ? fmax(l2 / 2.0, fmin(16.0 * l1, 0.75 * l2))
		     : 32.0 * l2;
		nodes = floor(fp / 128.0);
		pl->workload = "pchase.wl";
		plan_p(pl->warm, &pl->nwarm, "footprint_bytes", nodes * 128.0);
		plan_p(pl->warm, &pl->nwarm, "stride_bytes", 128.0);
		plan_p(pl->warm, &pl->nwarm, "threads", 1.0);
		plan_p(pl->warm, &pl->nwarm, "loads", fmin(nodes, ceil(1.25 * l2 / 128.0)));
		plan_p(pl->meas, &pl->nmeas, "footprint_bytes", nodes * 128.0);
		plan_p(pl->meas, &pl->nmeas, "stride_bytes", 128.0);
		plan_p(pl->meas, &pl->nmeas, "threads", 1.0);
		plan_p(pl->meas, &pl->nmeas, "loads", PCHASE_LOADS);
		plan_p(pl->meas, &pl->nmeas, "start", fmin(nodes, ceil(1.25 * l2 / 128.0)));
		pl->ops = PCHASE_LOADS;
		pl->kind = VV_CYCLES_PER_OP; /* the sources time in SM clocks on the GPU */
		return 1;
	case SC_STREAM:
		bpsm = floor(m->threads_per_sm / bs);
		if (bpsm < 1.0)
			return skip(reason, size, "%s: the source's block does not fit on an SM",
				    sc->metric);
		plan_stream_run(m, pl, bs, bpsm, sc->elem, sc->loads, sc->stores,
				sc->mbytes * 1e6);
		return 1;
	case SC_OCL: {
		double per = 16.0 * sc->elem, warm, items;

		warm = bs * ceil(l2 / per / bs);
		items = bs * ceil(4.0 * l2 / per / bs);
		pl->workload = "ocl_rw.wl";
		plan_p(pl->warm, &pl->nwarm, "items", warm);
		plan_p(pl->meas, &pl->nmeas, "items", items);
		plan_p(pl->meas, &pl->nmeas, "off", warm * 16.0);
		plan_p(pl->warm, &pl->nwarm, "off", 0);
		plan_both(pl, "vec", 16);
		plan_both(pl, "elem", sc->elem);
		plan_both(pl, "threads", bs);
		plan_both(pl, "store", sc->stores);
		plan_both(pl, "misaligned", sc->misaligned);
		pl->kind = VV_GBPS;
		pl->ops = items * per;
		return 1;
	}
	case SC_CACHE_L1:
	case SC_CACHE_L2:
		if (sc->how == SC_CACHE_L2 && CACHE_BW_WIN_KB * 1024.0 <= l1)
			return skip(reason, size, "%s: the L1 holds the 256 KiB window",
				    sc->metric);
		plan_cache_run(m, pl, sc->how == SC_CACHE_L1 ? 16.0 : CACHE_BW_WIN_KB * 4.0);
		if (sc->q == VQ_BW_PER_SM) {
			pl->kind = VV_BYTES_PER_CYCLE_PER_SM;
			return 1;
		}
		pl->ops *= m->sms;
		pl->method_mhz = validate_method_mhz(r->method);
		pl->kind = pl->method_mhz > 0 ? VV_GBPS_AT_MHZ : VV_GBPS;
		return 1;
	}
	return skip(reason, size, "%s: no mapping", sc->metric);
}

bool validate_from_first_issue(const struct vplan *plan)
{
	static const char *const longk[] = { "pchase.wl", "cache_bw.wl", "l2_bw.wl",
					     "l1_strides.wl", "l1_lane_strides.wl" };
	size_t i;

	for (i = 0; i < sizeof longk / sizeof longk[0]; i++)
		if (plan->workload != NULL && strcmp(plan->workload, longk[i]) == 0)
			return true;
	return false;
}

int validate_plan(const struct vrow *r, const struct vmachine *m, struct vplan *pl,
		  char *reason, size_t size)
{
	struct vmetric mt;
	struct sim_err err;
	enum vquantity q;
	double f;

	memset(pl, 0, sizeof *pl);
	if (validate_metric_parse(r->metric, &mt, &err) != 0) {
		snprintf(reason, size, "%.200s", err.msg);
		return -1;
	}
	q = validate_unit(r->unit, &f);
	if (strcmp(mt.family, "pchase_latency") == 0 && q == VQ_CYCLES)
		return plan_pchase(r, &mt, m, pl, reason, size);
	if (strcmp(mt.family, "l1_l2_read_bw_per_dataset") == 0 && q == VQ_BANDWIDTH)
		return plan_cache_bw(&mt, m, pl, reason, size);
	if (strcmp(mt.family, "l2_read_bw") == 0 && q == VQ_BANDWIDTH)
		return plan_l2_bw(&mt, m, pl, reason, size);
	if (strncmp(mt.family, "stream_", 7) == 0 && q == VQ_BANDWIDTH &&
	    (strcmp(mt.family, "stream_init_bw") == 0 || strcmp(mt.family, "stream_read_bw") == 0 ||
	     strcmp(mt.family, "stream_scale_bw") == 0 ||
	     strcmp(mt.family, "stream_triad_bw") == 0))
		return plan_stream(&mt, m, pl, reason, size);
	if (strcmp(mt.family, "l1_cycles_per_warp_load") == 0 && q == VQ_CYCLES)
		return plan_l1_strides(&mt, pl, reason, size);
	if (strcmp(mt.family, "l1_load_bytes_per_cycle_per_SM") == 0 && q == VQ_BW_PER_SM)
		return plan_l1_strides(&mt, pl, reason, size);
	for (size_t i = 0; i < NSCALARS; i++) {
		if (strcmp(r->metric, scalars[i].metric) != 0)
			continue;
		if (q != scalars[i].q)
			return skip(reason, size, "unit '%s' is not the row's quantity", r->unit);
		return plan_scalar(r, &scalars[i], m, pl, reason, size);
	}
	for (size_t i = 0; validate_families[i].family != NULL; i++)
		if (strcmp(mt.family, validate_families[i].family) == 0)
			return skip(reason, size, "unit '%s' is not the family's quantity",
				    r->unit);
	return skip(reason, size, "no microbenchmark mirrors family %s", mt.family);
}

double validate_value(const struct vplan *pl, uint64_t cycles, double core_ps)
{
	double ns = (double)cycles * core_ps / 1000.0;

	switch (pl->kind) {
	case VV_CYCLES_PER_OP:
		return (double)cycles / pl->ops;
	case VV_HOST_CYCLES_PER_OP:
		return ns * pl->method_mhz / 1000.0 / pl->ops;
	case VV_GBPS:
		return ns > 0 ? pl->ops / ns : NAN;
	case VV_GBPS_AT_MHZ:
		return cycles > 0 ? pl->ops / (double)cycles * pl->method_mhz / 1000.0 : NAN;
	case VV_BYTES_PER_CYCLE_PER_SM:
		return cycles > 0 ? pl->ops / (double)cycles : NAN;
	}
	return NAN;
}
