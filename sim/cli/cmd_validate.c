/*
 * cmd_validate.c - `gmsim validate`: simulate the microbenchmarks of workloads/ubench/ that the
 * rows of a measured CSV call for, and compare: a table of measured vs simulated per point, and
 * per metric family n, MAPE, NRMSE and Pearson's r. The CSV, the family table and the
 * statistics are sim/analysis/validate.h; this file runs the simulator and prints.
 *
 * Each point is one machine (sim_create) running a kernel list: an optional warm-up kernel,
 * then the measured kernel; the value comes from the measured kernel's span (run_kernel_cycles).
 * Runs are deterministic: the config's seed, points in file order.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "json.h"
#include "log.h"
#include "params.h"
#include "run.h"
#include "sim.h"
#include "validate.h"
#include "workload.h"

static const char usage[] =
	"Usage: gmsim validate -c CONFIG --measured FILE --gpu NAME [--metrics PREFIX,...]\n"
	"                      [--max-points N] [--plot DIR] [--max-error PCT]\n"
	"                      [--stats-json FILE] [--ubench DIR] [-o group.key=value ...]\n"
	"\n"
	"Runs the microbenchmarks (workloads/ubench/) that mirror the rows of FILE whose gpu column\n"
	"is exactly NAME, and prints measured vs simulated per point and, per metric family, n,\n"
	"MAPE, NRMSE (RMSE / mean of the measured values) and Pearson's r (n/a below 3 points).\n"
	"Rows no microbenchmark mirrors are listed as skipped with the reason.\n"
	"\n"
	"  -c, --config FILE       configuration (default " CLI_DEFAULT_CONFIG ")\n"
	"  -o, --set group.key=VAL override one config key; repeatable\n"
	"  --measured FILE         measured data (gpu,memory_type,metric,value,unit,method,source)\n"
	"  --gpu NAME              the gpu column to select, exactly\n"
	"  --metrics P1,P2,...     only metrics starting with one of these prefixes\n"
	"  --max-points N          at most N points per family, evenly spaced (first and last)\n"
	"  --plot DIR              per family of 2 or more points DIR/FAMILY.dat and .gp, and .svg\n"
	"                          if gnuplot is on PATH\n"
	"  --max-error PCT         exit 1 if a family's MAPE exceeds PCT\n"
	"  --stats-json FILE       every point and family statistic as JSON\n"
	"  --ubench DIR            the microbenchmark workloads (default workloads/ubench)\n"
	"  -q, --quiet             no per-point progress on stderr\n"
	"  -h, --help              this help\n"
	"\n"
	"Exit status: 0 ok; 1 bad input, a run failed, or --max-error exceeded; 2 usage.\n";

enum {
	OPT_MEASURED = CLI_OPT_FREE,
	OPT_GPU,
	OPT_METRICS,
	OPT_MAX_POINTS,
	OPT_PLOT,
	OPT_MAX_ERROR,
	OPT_UBENCH,
};

struct vopts {
	struct cli_config_opts co;
	const char *measured, *gpu, *metrics, *plot, *json, *ubench;
	size_t max_points;
	double max_error;
	bool quiet;
};

/* One selected row and what became of it. */
struct vpoint {
	const struct vrow *row;
	struct vmetric mt;
	struct vplan plan;
	bool planned, ran;
	char reason[256];
	double meas, sim, err_pct, x;
};

struct vfam {
	char name[VMETRIC_NAME_MAX];
	size_t *pts, n;
	struct vstats st;
	const char *unit;
};

/* ---- running ------------------------------------------------------------------------------ */

static struct workload *load_wl(const char *dir, const char *file, char (*p)[VPLAN_P_LEN],
				size_t np, struct sim_err *err)
{
	const char *ov[VPLAN_MAX_P];
	char *path = xasprintf("%s/%s", dir, file);
	struct workload *w;

	for (size_t i = 0; i < np; i++)
		ov[i] = p[i];
	w = workload_load(path, ov, np, err);
	free(path);
	return w;
}

/* Runs the plan's kernels on a fresh machine; *value is the simulated quantity. Returns 0, or
 * -1 with err filled. */
static int run_point(const struct gpu_params *p, const char *dir, const struct vplan *pl,
		     double *value, struct sim_err *err)
{
	struct workload *ws[2] = { NULL, NULL };
	size_t nw = 0;
	struct sim *s = NULL;
	struct run *r = NULL;
	cycle_t a, b;
	int rc = -1;

	if (pl->nwarm > 0) {
		ws[nw] = load_wl(dir, pl->workload, (char (*)[VPLAN_P_LEN])pl->warm, pl->nwarm, err);
		if (ws[nw++] == NULL)
			goto out;
	}
	ws[nw] = load_wl(dir, pl->workload, (char (*)[VPLAN_P_LEN])pl->meas, pl->nmeas, err);
	if (ws[nw++] == NULL)
		goto out;
	s = sim_create(p, err);
	if (s == NULL)
		goto out;
	r = run_create(s, (const struct workload *const *)ws, nw, err);
	if (r == NULL)
		goto out;
	if (run_simulate(r, err) != 0)
		goto out;
	run_kernel_cycles(r, nw - 1, &a, &b);
	*value = validate_value(pl, (uint64_t)(b - a), (double)clock_period(sim_core_clock(s)));
	rc = 0;
out:
	run_destroy(r);
	if (s != NULL)
		sim_destroy(s);
	for (size_t k = 0; k < 2; k++)
		if (ws[k] != NULL)
			workload_free(ws[k]);
	return rc;
}

/* ---- selection ---------------------------------------------------------------------------- */

static bool metric_selected(const char *metric, const char *prefixes)
{
	const char *s = prefixes;

	if (prefixes == NULL)
		return true;
	while (*s != '\0') {
		size_t n = strcspn(s, ",");

		if (n > 0 && strncmp(metric, s, n) == 0)
			return true;
		s += n;
		if (*s == ',')
			s++;
	}
	return false;
}

/* The first parameter of a point, its x on a curve (0 for a scalar). */
static double point_x(const struct vmetric *m)
{
	return m->nparams > 0 ? m->p[0].value : 0.0;
}

static struct vfam *family_of(struct vfam **fams, size_t *nf, const char *name)
{
	for (size_t i = 0; i < *nf; i++)
		if (strcmp((*fams)[i].name, name) == 0)
			return &(*fams)[i];
	*fams = xreallocarray(*fams, *nf + 1, sizeof **fams);
	memset(&(*fams)[*nf], 0, sizeof **fams);
	snprintf((*fams)[*nf].name, sizeof (*fams)[*nf].name, "%s", name);
	return &(*fams)[(*nf)++];
}

/* ---- output ------------------------------------------------------------------------------- */

static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path != NULL && *path != '\0') {
		size_t n = strcspn(path, ":");

		if (n > 0 && n + strlen(prog) + 2 < sizeof buf) {
			snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog);
			if (access(buf, X_OK) == 0)
				return true;
		}
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

static int write_plots(const char *dir, const struct vfam *fams, size_t nf,
		       const struct vpoint *pts, const char *gpu, const char *cfg,
		       struct sim_err *err)
{
	bool gp = on_path("gnuplot");
	size_t svgs = 0;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return sim_err_set(err, dir, 0, "cannot create: %s", strerror(errno));
	if (strchr(dir, '\'') != NULL)
		gp = false;
	for (size_t i = 0; i < nf; i++) {
		const struct vfam *fm = &fams[i];
		char *dat, *gpf;
		FILE *f;
		double lo = INFINITY, hi = 0.0;

		if (fm->n < 2)
			continue; /* a scalar row is a line of the table, not a curve */
		dat = xasprintf("%s/%s.dat", dir, fm->name);
		gpf = xasprintf("%s/%s.gp", dir, fm->name);
		f = fopen(dat, "w");

		if (f == NULL) {
			sim_err_set(err, dat, 0, "cannot write: %s", strerror(errno));
			free(dat);
			free(gpf);
			return -1;
		}
		fprintf(f, "# %s: %s on %s\n# x measured simulated error_pct (%s)\n", fm->name, gpu,
			cfg, fm->unit);
		for (size_t k = 0; k < fm->n; k++) {
			const struct vpoint *v = &pts[fm->pts[k]];

			fprintf(f, "%.10g %.10g %.10g %.3f\n", v->x, v->meas, v->sim, v->err_pct);
			if (v->x > 0 && v->x < lo)
				lo = v->x;
			if (v->x > hi)
				hi = v->x;
		}
		fclose(f);
		f = fopen(gpf, "w");
		if (f == NULL) {
			sim_err_set(err, gpf, 0, "cannot write: %s", strerror(errno));
			free(dat);
			free(gpf);
			return -1;
		}
		fprintf(f, "set terminal svg size 800,500\nset output '%s.svg'\n"
			"set title \"%s: %s (%s)\" noenhanced\nset ylabel '%s'\nset key best\n%s"
			"plot '%s.dat' using 1:2 with linespoints title 'measured', \\\n"
			"     '%s.dat' using 1:3 with linespoints title 'simulated'\n", fm->name,
			fm->name, gpu, cfg, fm->unit, hi > 100 * lo ? "set logscale x\n" : "",
			fm->name, fm->name);
		fclose(f);
		if (gp && fm->n > 0) {
			char *cmd = xasprintf("cd '%s' && gnuplot '%s.gp'", dir, fm->name);

			if (system(cmd) == 0)
				svgs++;
			free(cmd);
		}
		free(dat);
		free(gpf);
	}
	if (!gp)
		printf("plots: gnuplot is not on PATH: wrote %s/*.dat and *.gp only (run gnuplot "
		       "on a .gp file to draw its SVG)\n", dir);
	else
		printf("plots: %zu SVG(s) in %s\n", svgs, dir);
	return 0;
}

static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
	else
		fputs("null", f);
}

static int write_json(const char *path, const struct vopts *o, const struct gpu_params *p,
		      const struct vpoint *pts, size_t np, const struct vfam *fams, size_t nf,
		      struct sim_err *err)
{
	FILE *f = fopen(path, "w");
	bool first = true;

	if (f == NULL)
		return sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	fputs("{\n  \"config\": ", f);
	json_write_string(f, p->gpu.name);
	fputs(",\n  \"measured\": ", f);
	json_write_string(f, o->measured);
	fputs(",\n  \"gpu\": ", f);
	json_write_string(f, o->gpu);
	fputs(",\n  \"points\": [", f);
	for (size_t i = 0; i < np; i++) {
		const struct vpoint *v = &pts[i];

		if (!v->ran)
			continue;
		fprintf(f, "%s\n    { \"metric\": ", first ? "" : ",");
		first = false;
		json_write_string(f, v->row->metric);
		fputs(", \"family\": ", f);
		json_write_string(f, v->mt.family);
		fprintf(f, ", \"line\": %d, \"unit\": ", v->row->line);
		json_write_string(f, v->row->unit);
		fputs(", \"measured\": ", f);
		json_num(f, v->meas);
		fputs(", \"simulated\": ", f);
		json_num(f, v->sim);
		fputs(", \"error_pct\": ", f);
		json_num(f, v->err_pct);
		fputs(" }", f);
	}
	fputs("\n  ],\n  \"families\": {", f);
	for (size_t i = 0; i < nf; i++) {
		fprintf(f, "%s\n    ", i ? "," : "");
		json_write_string(f, fams[i].name);
		fprintf(f, ": { \"n\": %zu, \"mape_pct\": ", fams[i].st.n);
		json_num(f, fams[i].st.mape);
		fputs(", \"nrmse_pct\": ", f);
		json_num(f, fams[i].st.nrmse);
		fputs(", \"pearson\": ", f);
		json_num(f, fams[i].st.pearson);
		fputs(", \"max_ape_pct\": ", f);
		json_num(f, fams[i].st.max_ape);
		fputs(" }", f);
	}
	fputs("\n  },\n  \"skipped\": [", f);
	first = true;
	for (size_t i = 0; i < np; i++) {
		if (pts[i].ran)
			continue;
		fprintf(f, "%s\n    { \"metric\": ", first ? "" : ",");
		first = false;
		json_write_string(f, pts[i].row->metric);
		fprintf(f, ", \"line\": %d, \"reason\": ", pts[i].row->line);
		json_write_string(f, pts[i].reason);
		fputs(" }", f);
	}
	fputs("\n  ]\n}\n", f);
	if (fclose(f) != 0)
		return sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	return 0;
}

/* ---- the command -------------------------------------------------------------------------- */

static int validate(const struct vopts *o, struct sim_err *err, bool *over)
{
	struct gpu_params p;
	struct vmachine m;
	struct vcsv *csv;
	struct vpoint *pts;
	struct vfam *fams = NULL;
	size_t np = 0, nf = 0, nskip = 0, nrun = 0, nsubset = 0;
	double core_mhz;
	int rc = -1;

	if (cli_load_params(&o->co, &p, err) != 0)
		return -1;
	csv = validate_csv_load(o->measured, err);
	if (csv == NULL)
		return -1;
	memset(&m, 0, sizeof m);
	m.sms = p.gpu.sms;
	m.blocks_1024 = sm_blocks_per_sm(&p.sm, 32, 0, 0);
	m.threads_per_sm = p.sm.max_warps * 32;
	m.core_mhz = core_mhz = gpu_clock_mhz(&p, GPU_CLK_CORE);
	if (cli_cache_capacities(&p, &m.l1_bytes, &m.l2_bytes, err) != 0) {
		validate_csv_free(csv);
		return -1;
	}
	pts = xcalloc(csv->n + 1, sizeof *pts);
	for (size_t i = 0; i < csv->n; i++) {
		const struct vrow *r = &csv->rows[i];
		struct vpoint *v;
		struct sim_err e;

		if (strcmp(r->gpu, o->gpu) != 0 || !metric_selected(r->metric, o->metrics))
			continue;
		v = &pts[np++];
		v->row = r;
		if (validate_metric_parse(r->metric, &v->mt, &e) != 0) {
			snprintf(v->reason, sizeof v->reason, "%.200s", e.msg);
			continue;
		}
		v->x = point_x(&v->mt);
		v->planned = validate_plan(r, &m, &v->plan, v->reason, sizeof v->reason) == 1;
	}
	if (np == 0) {
		sim_err_set(err, o->measured, 0, "no row has gpu \"%s\"%s%s", o->gpu,
			    o->metrics ? " and a metric starting with one of " : "",
			    o->metrics ? o->metrics : "");
		goto out;
	}
	/* families of the planned points, then the subset to run */
	for (size_t i = 0; i < np; i++) {
		struct vfam *fm;

		if (!pts[i].planned)
			continue;
		fm = family_of(&fams, &nf, pts[i].mt.family);
		fm->pts = xreallocarray(fm->pts, fm->n + 1, sizeof *fm->pts);
		fm->pts[fm->n++] = i;
	}
	for (size_t i = 0; i < nf; i++) {
		struct vfam *fm = &fams[i];

		if (o->max_points > 0 && fm->n > o->max_points) {
			size_t *idx = xcalloc(o->max_points, sizeof *idx), *keep;
			size_t k = validate_subset(fm->n, o->max_points, idx);

			keep = xcalloc(k, sizeof *keep);
			for (size_t j = 0, t = 0; j < fm->n; j++) {
				if (t < k && idx[t] == j) {
					keep[t++] = fm->pts[j];
					continue;
				}
				snprintf(pts[fm->pts[j]].reason, sizeof pts[0].reason,
					 "not in the --max-points %zu subset", o->max_points);
				pts[fm->pts[j]].planned = false;
			}
			free(fm->pts);
			free(idx);
			fm->pts = keep;
			fm->n = k;
		}
	}
	printf("validate %s (%s, core %.0f MHz, %u SMs) against %s, gpu \"%s\"\n", p.gpu.name,
	       o->co.path ? o->co.path : CLI_DEFAULT_CONFIG, core_mhz, p.gpu.sms, o->measured,
	       o->gpu);
	printf("%-58s %12s %12s %9s  %s\n", "metric", "measured", "simulated", "error%", "unit");
	for (size_t i = 0; i < np; i++) {
		struct vpoint *v = &pts[i];
		double f;

		if (!v->planned)
			continue;
		validate_unit(v->row->unit, &f);
		v->meas = v->row->value * f;
		if (!o->quiet)
			fprintf(stderr, "  running %s ...\n", v->row->metric);
		if (run_point(&p, o->ubench, &v->plan, &v->sim, err) != 0) {
			char buf[SIM_ERR_MSG_MAX + 300];

			snprintf(v->reason, sizeof v->reason, "run failed: %.200s",
				 sim_err_format(err, buf, sizeof buf));
			continue;
		}
		v->ran = true;
		nrun++;
		v->err_pct = validate_error_pct(v->meas, v->sim);
		printf("%-58s %12.1f %12.1f %+9.1f  %s\n", v->row->metric, v->meas, v->sim,
		       v->err_pct, validate_quantity_unit(validate_unit(v->row->unit, &f)));
	}
	printf("\n%-34s %4s %9s %9s %8s %9s\n", "family", "n", "MAPE%", "NRMSE%", "pearson",
	       "worst%");
	for (size_t i = 0; i < nf; i++) {
		struct vfam *fm = &fams[i];
		double *a = xcalloc(fm->n + 1, sizeof *a), *b = xcalloc(fm->n + 1, sizeof *b);
		size_t k = 0;
		double f;

		for (size_t j = 0; j < fm->n; j++) {
			const struct vpoint *v = &pts[fm->pts[j]];

			if (!v->ran)
				continue;
			a[k] = v->meas;
			b[k++] = v->sim;
			fm->unit = validate_quantity_unit(validate_unit(v->row->unit, &f));
		}
		validate_stats(a, b, k, &fm->st);
		free(a);
		free(b);
		if (k == 0) {
			fm->unit = "";
			printf("%-34s %4zu %9s %9s %8s %9s\n", fm->name, k, "-", "-", "-", "-");
			continue;
		}
		printf("%-34s %4zu %9.1f %9.1f ", fm->name, k, fm->st.mape, fm->st.nrmse);
		if (isnan(fm->st.pearson))
			printf("%8s", "n/a");
		else
			printf("%8.3f", fm->st.pearson);
		printf(" %9.1f\n", fm->st.max_ape);
		if (o->max_error > 0 && fm->st.mape > o->max_error)
			*over = true;
	}
	printf("NRMSE = RMSE / mean of the measured values; Pearson's r needs 3 points.\n");
	for (size_t i = 0; i < np; i++) {
		if (pts[i].ran)
			continue;
		nskip++;
		if (strncmp(pts[i].reason, "not in the --max-points", 23) == 0)
			nsubset++;
	}
	for (size_t i = 0; i < np; i++) {
		const struct vpoint *v = &pts[i];
		double mhz;

		if (v->ran && v->plan.kind == VV_HOST_CYCLES_PER_OP &&
		    fabs(v->plan.method_mhz - core_mhz) > 0.5) {
			mhz = v->plan.method_mhz;
			printf("note: %s is host-timed at %.0f MHz; the config's core runs at %.0f "
			       "MHz, so simulated ns are converted to cycles at %.0f MHz as the "
			       "source counts them\n", v->mt.family, mhz, core_mhz, mhz);
			break;
		}
	}
	for (size_t i = 0; i < np; i++) {
		const struct vpoint *v = &pts[i];
		double mhz = validate_method_mhz(v->row->method);

		if (v->ran && v->plan.kind == VV_GBPS_AT_MHZ && fabs(mhz - core_mhz) > 0.5) {
			printf("note: %s is measured at a locked %.0f MHz; simulated bytes per "
			       "cycle are converted at that clock\n", v->mt.family, mhz);
			continue;
		}
		if (v->ran && v->plan.kind != VV_HOST_CYCLES_PER_OP && v->plan.kind != VV_GBPS &&
		    mhz > 0 && fabs(mhz - core_mhz) > 0.5) {
			printf("note: %s counts SM cycles at %.0f MHz, compared with simulated "
			       "cycles at %.0f MHz\n", v->mt.family, mhz, core_mhz);
			break;
		}
	}
	printf("\n%zu rows for gpu \"%s\": %zu simulated, %zu skipped\n", np, o->gpu, nrun, nskip);
	if (nsubset > 0)
		printf("  skipped %zu rows of supported families: not in the --max-points %zu "
		       "subset\n", nsubset, o->max_points);
	for (size_t i = 0; i < np; i++)
		if (!pts[i].ran && strncmp(pts[i].reason, "not in the --max-points", 23) != 0)
			printf("  skipped %s (line %d): %s\n", pts[i].row->metric, pts[i].row->line,
			       pts[i].reason);
	if (o->plot != NULL && write_plots(o->plot, fams, nf, pts, o->gpu, p.gpu.name, err) != 0)
		goto out;
	if (o->json != NULL && write_json(o->json, o, &p, pts, np, fams, nf, err) != 0)
		goto out;
	rc = 0;
out:
	for (size_t i = 0; i < nf; i++)
		free(fams[i].pts);
	free(fams);
	free(pts);
	validate_csv_free(csv);
	return rc;
}

int cmd_validate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "set", required_argument, NULL, 'o' },
		{ "measured", required_argument, NULL, OPT_MEASURED },
		{ "gpu", required_argument, NULL, OPT_GPU },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "max-points", required_argument, NULL, OPT_MAX_POINTS },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "max-error", required_argument, NULL, OPT_MAX_ERROR },
		{ "stats-json", required_argument, NULL, CLI_OPT_JSON },
		{ "ubench", required_argument, NULL, OPT_UBENCH },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vopts o;
	struct sim_err err;
	bool over = false;
	char *end;
	int ch, rc;

	memset(&o, 0, sizeof o);
	o.ubench = "workloads/ubench";
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+c:o:qh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			o.co.path = optarg;
			break;
		case 'o':
			cli_config_opts_add_override(&o.co, optarg);
			break;
		case OPT_MEASURED:
			o.measured = optarg;
			break;
		case OPT_GPU:
			o.gpu = optarg;
			break;
		case OPT_METRICS:
			o.metrics = optarg;
			break;
		case OPT_MAX_POINTS: {
			long v;

			errno = 0;
			v = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 || v < 1) {
				cli_config_opts_free(&o.co);
				return cli_usage_error("validate", "--max-points: '%s' is not a "
						       "positive integer", optarg);
			}
			o.max_points = (size_t)v;
			break;
		}
		case OPT_MAX_ERROR:
			errno = 0;
			o.max_error = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || errno != 0 || !(o.max_error > 0)) {
				cli_config_opts_free(&o.co);
				return cli_usage_error("validate", "--max-error: '%s' is not a "
						       "positive percentage", optarg);
			}
			break;
		case OPT_PLOT:
			o.plot = optarg;
			break;
		case CLI_OPT_JSON:
			o.json = optarg;
			break;
		case OPT_UBENCH:
			o.ubench = optarg;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'h':
			cli_config_opts_free(&o.co);
			fputs(usage, stdout);
			printf("\nFamilies (metric prefix before '@', workload, mapping):\n");
			for (size_t i = 0; validate_families[i].family != NULL; i++)
				printf("  %-27s %-14s %s\n", validate_families[i].family,
				       validate_families[i].workload, validate_families[i].mapping);
			printf("\nScalar rows (the whole metric name, workload, mapping):\n");
			for (size_t i = 0; i < validate_scalar_count(); i++) {
				struct vfamily_info fi;

				validate_scalar_info(i, &fi);
				printf("  %-27s %-14s %s\n", fi.family, fi.workload, fi.mapping);
			}
			return SIM_EXIT_OK;
		default:
			cli_config_opts_free(&o.co);
			return cli_usage_error("validate", "bad option");
		}
	}
	if (optind < argc) {
		cli_config_opts_free(&o.co);
		return cli_usage_error("validate", "unexpected argument '%s'", argv[optind]);
	}
	if (o.measured == NULL || o.gpu == NULL) {
		cli_config_opts_free(&o.co);
		return cli_usage_error("validate", "give --measured FILE and --gpu NAME");
	}
	rc = validate(&o, &err, &over);
	cli_config_opts_free(&o.co);
	if (rc != 0)
		return cli_user_error(&err);
	if (over) {
		fprintf(stderr, "gmsim validate: a family's MAPE exceeds --max-error %g%%\n",
			o.max_error);
		return SIM_EXIT_USER;
	}
	return SIM_EXIT_OK;
}
