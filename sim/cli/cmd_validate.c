/*
 * cmd_validate.c - `gmsim validate`: simulate the microbenchmarks of workloads/ubench/ that the
 * rows of a measured CSV call for, and compare: a table of measured vs simulated per point, and
 * per metric family n, MAPE, NRMSE and Pearson's r. The CSV, the family table and the
 * statistics are sim/analysis/validate.h; this file runs the simulator and prints.
 *
 * Each point is one machine (sim_create) running a kernel list: an optional warm-up kernel,
 * then the measured kernel; the value comes from the measured kernel's span (run_kernel_cycles),
 * from its first warp instruction for the mirrors of long-kernel sources
 * (validate_from_first_issue).
 * Runs are deterministic: the config's seed, points in file order.
 *
 * With -j N (default: the number of CPUs) up to N points run at once, each in a child process
 * (fork: a simulation is not thread-safe) that sends back its value or its error through a
 * pipe; the table's rows are printed in file order as the points before them finish, so the
 * output is the same for every N. A child that dies (an assertion, a signal) fails its point
 * with the reason and the others go on. -j 1 runs every point in this process.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
	"                      [--stats-json FILE] [--ubench DIR] [-j N] [-o group.key=value ...]\n"
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
	"  -j, --jobs N            points at once, each in its own process (default: the number\n"
	"                          of CPUs; 1: all in this one); the output is the same for any N\n"
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
	long jobs;
	bool quiet;
};

/*
 * What became of a selected row. plan_points puts each point in one of the first two states; a
 * planned point moves once more. reason holds the words printed for the states other than
 * PLANNED and RAN, and only for printing: no code reads it back.
 *
 *   UNMIRRORED                [plan_points]        metric does not parse, or no ubench mirrors it
 *   PLANNED
 *   PLANNED -> NOT_IN_SUBSET  [apply_max_points]   left out by --max-points
 *   PLANNED -> RAN            [run_points]
 *   PLANNED -> FAILED         [run_points]         the simulation returned an error
 */
enum vpoint_status {
	VPOINT_UNMIRRORED,
	VPOINT_PLANNED,
	VPOINT_NOT_IN_SUBSET,
	VPOINT_RAN,
	VPOINT_FAILED,
};

/* One selected row and what became of it. */
struct vpoint {
	const struct vrow *row;
	struct vmetric mt;
	struct vplan plan;
	enum vpoint_status status;
	char reason[256];
	double meas, sim, err_pct, x;
};

/* A metric family: the points (indices into pts) that make one curve and its statistics. */
struct vfam {
	char name[VMETRIC_NAME_MAX];
	size_t *pts, n;
	struct vstats st;
	const char *unit;
};

/* One `gmsim validate`: the machine, the selected points and their families. */
struct vrun {
	const struct vopts *o;
	struct gpu_params p;
	double core_mhz;
	struct vcsv *csv;
	struct vpoint *pts;
	size_t np;
	struct vfam *fams;
	size_t nf;
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
	if (validate_from_first_issue(pl) && run_kernel_first_issue(r, nw - 1) != CYCLE_NEVER)
		a = run_kernel_first_issue(r, nw - 1);
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

		if (v->status != VPOINT_RAN)
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
		if (pts[i].status == VPOINT_RAN)
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

/* ---- the phases of the command ------------------------------------------------------------ */

/* Loads the config and the CSV, selects the rows of o->gpu and plans each against the machine.
 * Returns 0, or -1 with err filled (v is then still safe to vrun_free). */
static int plan_points(struct vrun *v, const struct vopts *o, struct sim_err *err)
{
	struct gpu_params *p = &v->p;
	struct vmachine m;

	memset(v, 0, sizeof *v);
	v->o = o;
	if (cli_load_params(&o->co, p, err) != 0)
		return -1;
	v->csv = validate_csv_load(o->measured, err);
	if (v->csv == NULL)
		return -1;
	memset(&m, 0, sizeof m);
	m.sms = p->gpu.sms;
	m.blocks_1024 = sm_blocks_per_sm(&p->sm, 32, 0, 0);
	m.threads_per_sm = p->sm.max_warps * 32;
	m.shared_bytes = (uint64_t)p->sm.shared_kb * 1024;
	m.core_mhz = v->core_mhz = gpu_clock_mhz(p, GPU_CLK_CORE);
	if (cli_cache_capacities(p, &m.l1_bytes, &m.l2_bytes, err) != 0)
		return -1;
	v->pts = xcalloc(v->csv->n + 1, sizeof *v->pts);
	for (size_t i = 0; i < v->csv->n; i++) {
		const struct vrow *r = &v->csv->rows[i];
		struct vpoint *pt;
		struct sim_err e;

		if (strcmp(r->gpu, o->gpu) != 0 || !metric_selected(r->metric, o->metrics))
			continue;
		pt = &v->pts[v->np++];
		pt->row = r;
		pt->status = VPOINT_UNMIRRORED;
		if (validate_metric_parse(r->metric, &pt->mt, &e) != 0) {
			snprintf(pt->reason, sizeof pt->reason, "%.200s", e.msg);
			continue;
		}
		pt->x = point_x(&pt->mt);
		if (validate_plan(r, &m, &pt->plan, pt->reason, sizeof pt->reason) == 1)
			pt->status = VPOINT_PLANNED;
	}
	if (v->np == 0)
		return sim_err_set(err, o->measured, 0, "no row has gpu \"%s\"%s%s", o->gpu,
				   o->metrics ? " and a metric starting with one of " : "",
				   o->metrics ? o->metrics : "");
	return 0;
}

/* Groups the planned points into families, in file order. */
static void group_families(struct vrun *v)
{
	for (size_t i = 0; i < v->np; i++) {
		struct vfam *fm;

		if (v->pts[i].status != VPOINT_PLANNED)
			continue;
		fm = family_of(&v->fams, &v->nf, v->pts[i].mt.family);
		fm->pts = xreallocarray(fm->pts, fm->n + 1, sizeof *fm->pts);
		fm->pts[fm->n++] = i;
	}
}

/* Keeps at most --max-points evenly spaced points of each family; the rest leave the family. */
static void apply_max_points(struct vrun *v)
{
	size_t max = v->o->max_points;

	for (size_t i = 0; i < v->nf; i++) {
		struct vfam *fm = &v->fams[i];
		size_t *idx, *keep, k;

		if (max == 0 || fm->n <= max)
			continue;
		idx = xcalloc(max, sizeof *idx);
		k = validate_subset(fm->n, max, idx);
		keep = xcalloc(k, sizeof *keep);
		for (size_t j = 0, t = 0; j < fm->n; j++) {
			struct vpoint *pt = &v->pts[fm->pts[j]];

			if (t < k && idx[t] == j) {
				keep[t++] = fm->pts[j];
				continue;
			}
			snprintf(pt->reason, sizeof pt->reason,
				 "not in the --max-points %zu subset", max);
			pt->status = VPOINT_NOT_IN_SUBSET;
		}
		free(fm->pts);
		free(idx);
		fm->pts = keep;
		fm->n = k;
	}
}

/* Records what a point's simulation gave: rc 0, its value; else the reason it failed. */
static void point_done(struct vpoint *pt, int rc, double value, const char *reason)
{
	if (rc != 0) {
		snprintf(pt->reason, sizeof pt->reason, "run failed: %.200s", reason);
		pt->status = VPOINT_FAILED;
		return;
	}
	pt->sim = value;
	pt->status = VPOINT_RAN;
	pt->err_pct = validate_error_pct(pt->meas, pt->sim);
}

/* The table's row of a point that ran (a failed one has none: the summary lists it). */
static void print_row(const struct vpoint *pt)
{
	double f;

	if (pt->status == VPOINT_RAN)
		printf("%-58s %12.1f %12.1f %+9.1f  %s\n", pt->row->metric, pt->meas, pt->sim,
		       pt->err_pct, validate_quantity_unit(validate_unit(pt->row->unit, &f)));
}

/* What a child sends back: under PIPE_BUF bytes, so one write that never blocks on the empty
 * pipe and arrives whole. */
struct vmsg {
	int rc;
	double value;
	char reason[SIM_ERR_MSG_MAX + 300];
};
_Static_assert(sizeof(struct vmsg) <= PIPE_BUF, "a result must fit one atomic pipe write");

/* A point running in a child process (pid 0: a free slot). */
struct vchild {
	pid_t pid;
	int fd;     /* the pipe's read end */
	size_t pt;  /* index into v->pts */
};

/* In the child: simulates point pt, sends the result on fd and exits. */
static _Noreturn void child_point(const struct vrun *v, const struct vpoint *pt, int fd)
{
	struct vmsg msg;
	struct sim_err err;
	size_t off = 0;

	memset(&msg, 0, sizeof msg);
	msg.rc = run_point(&v->p, v->o->ubench, &pt->plan, &msg.value, &err);
	if (msg.rc != 0)
		sim_err_format(&err, msg.reason, sizeof msg.reason);
	while (off < sizeof msg) {
		ssize_t w = write(fd, (const char *)&msg + off, sizeof msg - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(SIM_EXIT_USER); /* the parent finds no result and says how */
		off += (size_t)w;
	}
	fflush(stdout); /* anything the simulation printed (nothing of the parent's: it flushed) */
	_exit(SIM_EXIT_OK);
}

/* Starts point i in a child on slot c. Returns 0, or -1 with err filled (no process or pipe). */
static int spawn_point(const struct vrun *v, size_t i, struct vchild *c, struct sim_err *err)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds) != 0)
		return sim_err_set(err, NULL, 0, "validate: pipe: %s", strerror(errno));
	fflush(stdout); /* the child must not print what the parent has buffered */
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		return sim_err_set(err, NULL, 0, "validate: fork: %s", strerror(e));
	}
	if (pid == 0) {
		close(fds[0]);
		child_point(v, &v->pts[i], fds[1]);
	}
	close(fds[1]);
	c->pid = pid;
	c->fd = fds[0];
	c->pt = i;
	return 0;
}

/* Reads child c's result (its pipe is readable: the result or the end), reaps it and records
 * the point. A child that ended without a whole result fails its point with how it ended. */
static void reap_point(struct vrun *v, struct vchild *c)
{
	struct vmsg msg;
	size_t got = 0;
	int status = 0;

	while (got < sizeof msg) {
		ssize_t r = read(c->fd, (char *)&msg + got, sizeof msg - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(c->fd);
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got == sizeof msg) {
		msg.reason[sizeof msg.reason - 1] = '\0';
		point_done(&v->pts[c->pt], msg.rc, msg.value, msg.reason);
	} else {
		char why[96];

		if (WIFSIGNALED(status))
			snprintf(why, sizeof why, "its process was killed by signal %d (%s)",
				 WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			snprintf(why, sizeof why, "its process exited %d without a result",
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		point_done(&v->pts[c->pt], -1, 0.0, why);
	}
	c->pid = 0;
}

/* Prints the progress line of point i and sets its measured value. */
static void point_start(struct vrun *v, size_t i)
{
	struct vpoint *pt = &v->pts[i];
	double f;

	validate_unit(pt->row->unit, &f);
	pt->meas = pt->row->value * f;
	if (!v->o->quiet)
		fprintf(stderr, "  running %s ...\n", pt->row->metric);
}

/* The planned points, up to jobs at once in child processes; rows printed in file order (a
 * point's row once every point before it is done). Where no child can be started (no pipe or
 * process), the points not started fail with the reason (err holds it). */
static void run_parallel(struct vrun *v, size_t jobs, struct sim_err *err)
{
	struct vchild *ch = xcalloc(jobs, sizeof *ch);
	struct pollfd *pfd = xcalloc(jobs, sizeof *pfd);
	size_t next = 0, shown = 0, running = 0, k;
	int rc = 0;

	for (;;) {
		/* start points while slots are free */
		for (k = 0; k < jobs && rc == 0; k++) {
			while (next < v->np && v->pts[next].status != VPOINT_PLANNED)
				next++;
			if (ch[k].pid != 0 || next == v->np)
				continue;
			point_start(v, next);
			if (spawn_point(v, next, &ch[k], err) != 0) {
				rc = -1;
				break;
			}
			next++; /* (a point below next still PLANNED is running) */
			running++;
		}
		if (running == 0)
			break;
		for (k = 0; k < jobs; k++) {
			pfd[k].fd = ch[k].pid != 0 ? ch[k].fd : -1;
			pfd[k].events = POLLIN;
			pfd[k].revents = 0;
		}
		if (poll(pfd, (nfds_t)jobs, -1) < 0) {
			if (errno == EINTR)
				continue;
			sim_fatal("validate: poll: %s", strerror(errno));
		}
		for (k = 0; k < jobs; k++)
			if (ch[k].pid != 0 && pfd[k].revents != 0) {
				reap_point(v, &ch[k]);
				running--;
			}
		/* the rows of the points done whose predecessors are all done, in file order */
		for (; shown < next && v->pts[shown].status != VPOINT_PLANNED; shown++)
			print_row(&v->pts[shown]);
	}
	if (rc != 0) {
		char buf[SIM_ERR_MSG_MAX + 300];

		sim_err_format(err, buf, sizeof buf);
		for (; next < v->np; next++)
			if (v->pts[next].status == VPOINT_PLANNED)
				point_done(&v->pts[next], -1, 0.0, buf);
		for (; shown < v->np; shown++)
			print_row(&v->pts[shown]);
	}
	free(pfd);
	free(ch);
}

/* Prints the table's head, then runs each planned point (here, or jobs at once in child
 * processes) and prints its row. A failed run is the point's reason, not the command's error
 * (err keeps the last failure's message); it makes the exit status 1 at the end. */
static void run_points(struct vrun *v, struct sim_err *err)
{
	const struct vopts *o = v->o;

	printf("validate %s (%s, core %.0f MHz, %u SMs) against %s, gpu \"%s\"\n", v->p.gpu.name,
	       o->co.path ? o->co.path : CLI_DEFAULT_CONFIG, v->core_mhz, v->p.gpu.sms,
	       o->measured, o->gpu);
	printf("%-58s %12s %12s %9s  %s\n", "metric", "measured", "simulated", "error%", "unit");
	if (o->jobs > 1) {
		run_parallel(v, (size_t)o->jobs, err);
		return;
	}
	for (size_t i = 0; i < v->np; i++) {
		struct vpoint *pt = &v->pts[i];
		char buf[SIM_ERR_MSG_MAX + 300];
		double value;

		if (pt->status != VPOINT_PLANNED)
			continue;
		point_start(v, i);
		if (run_point(&v->p, o->ubench, &pt->plan, &value, err) != 0)
			point_done(pt, -1, 0.0, sim_err_format(err, buf, sizeof buf));
		else
			point_done(pt, 0, value, NULL);
		print_row(pt);
	}
}

/* Computes and prints each family's statistics over its points that ran; sets *over when a
 * family's MAPE exceeds --max-error. */
static void family_stats(struct vrun *v, bool *over)
{
	printf("\n%-34s %4s %9s %9s %8s %9s\n", "family", "n", "MAPE%", "NRMSE%", "pearson",
	       "worst%");
	for (size_t i = 0; i < v->nf; i++) {
		struct vfam *fm = &v->fams[i];
		double *a = xcalloc(fm->n + 1, sizeof *a), *b = xcalloc(fm->n + 1, sizeof *b);
		size_t k = 0;
		double f;

		for (size_t j = 0; j < fm->n; j++) {
			const struct vpoint *pt = &v->pts[fm->pts[j]];

			if (pt->status != VPOINT_RAN)
				continue;
			a[k] = pt->meas;
			b[k++] = pt->sim;
			fm->unit = validate_quantity_unit(validate_unit(pt->row->unit, &f));
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
		if (v->o->max_error > 0 && fm->st.mape > v->o->max_error)
			*over = true;
	}
	printf("NRMSE = RMSE / mean of the measured values; Pearson's r needs 3 points.\n");
}

/* Notes on points whose source counts at another clock than the config's core: the first
 * host-timed one, then the locked-clock ones and the first SM-cycle one. */
static void print_clock_notes(const struct vrun *v)
{
	for (size_t i = 0; i < v->np; i++) {
		const struct vpoint *pt = &v->pts[i];
		double mhz;

		if (pt->status == VPOINT_RAN && pt->plan.kind == VV_HOST_CYCLES_PER_OP &&
		    fabs(pt->plan.method_mhz - v->core_mhz) > 0.5) {
			mhz = pt->plan.method_mhz;
			printf("note: %s is host-timed at %.0f MHz; the config's core runs at %.0f "
			       "MHz, so simulated ns are converted to cycles at %.0f MHz as the "
			       "source counts them\n", pt->mt.family, mhz, v->core_mhz, mhz);
			break;
		}
	}
	for (size_t i = 0; i < v->np; i++) {
		const struct vpoint *pt = &v->pts[i];
		double mhz = validate_method_mhz(pt->row->method);

		if (pt->status != VPOINT_RAN)
			continue;
		if (pt->plan.kind == VV_GBPS_AT_MHZ && fabs(mhz - v->core_mhz) > 0.5) {
			printf("note: %s is measured at a locked %.0f MHz; simulated bytes per "
			       "cycle are converted at that clock\n", pt->mt.family, mhz);
			continue;
		}
		if (pt->plan.kind != VV_HOST_CYCLES_PER_OP && pt->plan.kind != VV_GBPS &&
		    mhz > 0 && fabs(mhz - v->core_mhz) > 0.5) {
			printf("note: %s counts SM cycles at %.0f MHz, compared with simulated "
			       "cycles at %.0f MHz\n", pt->mt.family, mhz, v->core_mhz);
			break;
		}
	}
}

/* Prints how many rows ran and were skipped: the --max-points subset as one line, every other
 * skipped row with its reason. */
static void print_summary(const struct vrun *v)
{
	size_t nrun = 0, nskip = 0, nsubset = 0;

	for (size_t i = 0; i < v->np; i++) {
		if (v->pts[i].status == VPOINT_RAN)
			nrun++;
		else
			nskip++;
		if (v->pts[i].status == VPOINT_NOT_IN_SUBSET)
			nsubset++;
	}
	printf("\n%zu rows for gpu \"%s\": %zu simulated, %zu skipped\n", v->np, v->o->gpu, nrun,
	       nskip);
	if (nsubset > 0)
		printf("  skipped %zu rows of supported families: not in the --max-points %zu "
		       "subset\n", nsubset, v->o->max_points);
	for (size_t i = 0; i < v->np; i++) {
		const struct vpoint *pt = &v->pts[i];

		if (pt->status != VPOINT_RAN && pt->status != VPOINT_NOT_IN_SUBSET)
			printf("  skipped %s (line %d): %s\n", pt->row->metric, pt->row->line,
			       pt->reason);
	}
}

/* Writes the --plot files and the --stats-json file that were asked for. Returns 0, or -1 with
 * err filled. */
static int write_outputs(const struct vrun *v, struct sim_err *err)
{
	const struct vopts *o = v->o;

	if (o->plot != NULL &&
	    write_plots(o->plot, v->fams, v->nf, v->pts, o->gpu, v->p.gpu.name, err) != 0)
		return -1;
	if (o->json != NULL && write_json(o->json, o, &v->p, v->pts, v->np, v->fams, v->nf,
					  err) != 0)
		return -1;
	return 0;
}

/* Frees what v owns (not v itself). */
static void vrun_free(struct vrun *v)
{
	for (size_t i = 0; i < v->nf; i++)
		free(v->fams[i].pts);
	free(v->fams);
	free(v->pts);
	validate_csv_free(v->csv);
}

/* ---- the command -------------------------------------------------------------------------- */

/* The phases in order. Returns 0 (*over set when --max-error is exceeded, *failed to the
 * points whose run failed), or -1 with err filled. */
static int validate(const struct vopts *o, struct sim_err *err, bool *over, size_t *failed)
{
	struct vrun v;
	int rc = -1;

	if (plan_points(&v, o, err) == 0) {
		group_families(&v);
		apply_max_points(&v);
		run_points(&v, err);
		family_stats(&v, over);
		print_clock_notes(&v);
		print_summary(&v);
		rc = write_outputs(&v, err);
		for (size_t i = 0; i < v.np; i++)
			*failed += v.pts[i].status == VPOINT_FAILED;
	}
	vrun_free(&v);
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
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vopts o;
	struct sim_err err;
	bool over = false;
	size_t failed = 0;
	char *end;
	int ch, rc;

	memset(&o, 0, sizeof o);
	o.ubench = "workloads/ubench";
	o.jobs = cli_jobs_default();
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+c:o:j:qh", longopts, NULL)) != -1) {
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
		case 'j':
			if ((rc = cli_jobs_opt("validate", optarg, &o.jobs)) != 0) {
				cli_config_opts_free(&o.co);
				return rc;
			}
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
	rc = validate(&o, &err, &over, &failed);
	cli_config_opts_free(&o.co);
	if (rc != 0)
		return cli_user_error(&err);
	fflush(stdout);
	if (failed > 0)
		fprintf(stderr, "gmsim validate: %zu point%s failed to run (listed above with the "
			"reason)\n", failed, failed == 1 ? "" : "s");
	if (over)
		fprintf(stderr, "gmsim validate: a family's MAPE exceeds --max-error %g%%\n",
			o.max_error);
	return failed > 0 || over ? SIM_EXIT_USER : SIM_EXIT_OK;
}
