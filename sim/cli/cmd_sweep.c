/*
 * cmd_sweep.c - `gmsim sweep`: expand a sweep file (sim/batch/sweep.h) and run its points, each
 * as its own `gmsim run` process (sim/batch/runner.h), into a result directory merged into
 * results.csv (sim/batch/merge.h); or list the points, or write them as a job list for GNU
 * Parallel, or merge a directory whatever ran it.
 *
 * Modes:
 *	gmsim sweep FILE --dry-run                      list the points
 *	gmsim sweep FILE --out DIR [-j N]               run (resumes), then merge
 *	gmsim sweep FILE --out DIR --emit-jobs JOBS     one shell command per point
 *	gmsim sweep FILE --out DIR --emit-slurm SCRIPT  a Slurm job array running those commands
 *	    ... --missing                               only the points without a result yet
 *	gmsim sweep --merge DIR                         results.csv from DIR's point files
 *	gmsim sweep --run-point --out DIR -c C -w W [-o k=v] [-p k=v]   one point (a job's command)
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "log.h"
#include "merge.h"
#include "runner.h"
#include "sweep.h"

static const char usage[] =
	"Usage: gmsim sweep FILE --dry-run\n"
	"       gmsim sweep FILE --out DIR [-j N] [--timeout S] [--retry-failed] [-q]\n"
	"       gmsim sweep FILE --out DIR --emit-jobs JOBS [--missing] [--timeout S]\n"
	"       gmsim sweep FILE --out DIR --emit-slurm SCRIPT [--emit-jobs JOBS] [--missing]\n"
	"                   [--timeout S]\n"
	"       gmsim sweep --merge DIR\n"
	"       gmsim sweep --run-point --out DIR [--timeout S] -c CONFIG -w WORKLOAD\n"
	"                   [-o group.key=value ...] [-p name=value ...]\n"
	"\n"
	"Runs every point of a sweep file (configs x workloads x override and parameter axes; the\n"
	"format is in doc/sweep.md) as its own `gmsim run` process, writes one JSON file per point\n"
	"into DIR/points and merges them into DIR/results.csv. Running the same command again\n"
	"resumes: finished points are skipped, failed ones too unless --retry-failed.\n"
	"\n"
	"  --dry-run           list the points (id, config, workload, overrides, params)\n"
	"  --out DIR           result directory (created if needed)\n"
	"  -j, --jobs N        points at once (default: the number of CPUs)\n"
	"  --timeout S         per-point limit in seconds (default: the file's timeout_s, else\n"
	"                      3600); a point past it is killed and recorded as timed out\n"
	"  --retry-failed      run failed and timed-out points again\n"
	"  -q, --quiet         no progress line on stderr\n"
	"  --emit-jobs JOBS    write one self-contained shell command per point to JOBS (run\n"
	"                      them with `parallel < JOBS`, then gmsim sweep --merge DIR)\n"
	"  --emit-slurm SCRIPT write an sbatch script whose array task K runs line K+1 of the\n"
	"                      job list (--emit-jobs JOBS, else SCRIPT's name with .jobs);\n"
	"                      `sbatch SCRIPT`, then gmsim sweep --merge DIR\n"
	"  --missing           (with --emit-*) only the points that have no result in DIR yet\n"
	"                      (and, with --retry-failed, the failed ones): resubmit what a\n"
	"                      cancelled or failed array left, nothing twice\n"
	"  --merge DIR         merge DIR's point files into DIR/results.csv\n"
	"  --run-point         run one point given by -c, -w, -o and -p into DIR (what an\n"
	"                      emitted job runs)\n"
	"  -h, --help          this help\n"
	"\n"
	"Exit status: 0 when every point finished ok, 1 when one failed (its file holds the\n"
	"error) or the sweep file is wrong, 2 on a usage error.\n";

enum { OPT_DRY = CLI_OPT_FREE, OPT_OUT, OPT_TIMEOUT, OPT_RETRY, OPT_EMIT, OPT_SLURM,
       OPT_MERGE, OPT_RUN_POINT, OPT_MISSING };

/* The gmsim binary running now, as the children exec it. */
static int self_path(char *buf, size_t n, struct sim_err *err)
{
	ssize_t r = readlink("/proc/self/exe", buf, n - 1);

	if (r <= 0 || (size_t)r >= n - 1)
		return sim_err_set(err, "/proc/self/exe", 0, "cannot find the gmsim binary: %s",
				   r < 0 ? strerror(errno) : "path too long");
	buf[r] = '\0';
	return 0;
}

static void shell_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The points an emitter writes: pick[0 .. n-1], indices into s->points. */
struct pick {
	size_t *idx;
	size_t n;
};

static int emit_jobs(const struct sweep *s, const struct pick *pk, const char *self,
		     const char *out, double timeout, const char *jobs_path, struct sim_err *err)
{
	char cwd[PATH_MAX], absout[PATH_MAX];
	FILE *f;
	size_t i, k;

	if (getcwd(cwd, sizeof cwd) == NULL || realpath(out, absout) == NULL)
		return sim_err_set(err, out, 0, "cannot resolve: %s", strerror(errno));
	f = fopen(jobs_path, "w");
	if (f == NULL)
		return sim_err_set(err, jobs_path, 0, "cannot write: %s", strerror(errno));
	for (i = 0; i < pk->n; i++) {
		const struct sweep_job *j = &s->points[pk->idx[i]].job;

		fputs("cd ", f);
		shell_quote(f, cwd);
		fputs(" && ", f);
		shell_quote(f, self);
		fputs(" sweep --run-point --out ", f);
		shell_quote(f, absout);
		fprintf(f, " --timeout %g -c ", timeout);
		shell_quote(f, j->config);
		fputs(" -w ", f);
		shell_quote(f, j->workload);
		for (k = 0; k < j->nset; k++) {
			fputs(" -o ", f);
			shell_quote(f, j->set[k]);
		}
		for (k = 0; k < j->nparam; k++) {
			fputs(" -p ", f);
			shell_quote(f, j->param[k]);
		}
		fputc('\n', f);
	}
	if (fclose(f) != 0)
		return sim_err_set(err, jobs_path, 0, "cannot write: %s", strerror(errno));
	return 0;
}

/* The job list next to an sbatch script: SCRIPT without a .sh, .sbatch or .slurm suffix, plus
 * ".jobs". Returns a malloc'd string the caller frees. */
static char *slurm_jobs_path(const char *script)
{
	static const char *const sfx[] = { ".sh", ".sbatch", ".slurm" };
	size_t n = strlen(script), k, l;
	char *p;

	for (k = 0; k < sizeof sfx / sizeof sfx[0]; k++) {
		l = strlen(sfx[k]);
		if (n > l && strcmp(script + n - l, sfx[k]) == 0 && script[n - l - 1] != '/') {
			n -= l;
			break;
		}
	}
	p = xmalloc(n + sizeof ".jobs");
	memcpy(p, script, n);
	memcpy(p + n, ".jobs", sizeof ".jobs");
	return p;
}

/*
 * --emit-slurm: the job list (emit_jobs, line K+1 = point K), then an sbatch script with one
 * array task per line. The task's time limit is the point's timeout plus a minute for the start
 * and the point file (the runner kills the point at the timeout itself); each task's output
 * goes to DIR/slurm-JOB_TASK.out. Nothing else is needed on the nodes: the lines are
 * self-contained.
 */
static int emit_slurm(const struct sweep *s, const struct pick *pk, bool missing,
		      const char *self, const char *out, double timeout, const char *jobs_path,
		      const char *script, struct sim_err *err)
{
	char absjobs[PATH_MAX], absout[PATH_MAX];
	long minutes = (long)(timeout / 60.0);
	FILE *f;

	if (minutes * 60.0 < timeout)
		minutes++;
	minutes++;
	if (pk->n == 0)
		return sim_err_set(err, s->path, 0, "no points: nothing to put in a job array");
	if (emit_jobs(s, pk, self, out, timeout, jobs_path, err) != 0)
		return -1;
	if (realpath(jobs_path, absjobs) == NULL || realpath(out, absout) == NULL)
		return sim_err_set(err, jobs_path, 0, "cannot resolve: %s", strerror(errno));
	f = fopen(script, "w");
	if (f == NULL)
		return sim_err_set(err, script, 0, "cannot write: %s", strerror(errno));
	fprintf(f, "#!/bin/sh\n"
		"# gmsim sweep %s: %zu %spoints, one Slurm array task each (task K runs line K+1 of\n"
		"# the job list). Submit with `sbatch %s`; when every task is done:\n"
		"#	gmsim sweep --merge ",
		s->path, pk->n, missing ? "missing " : "", script);
	shell_quote(f, absout);
	fprintf(f, "\n#SBATCH --job-name=gmsim-sweep\n"
		"#SBATCH --array=0-%zu\n"
		"#SBATCH --ntasks=1\n"
		"#SBATCH --cpus-per-task=1\n"
		"#SBATCH --time=%ld\n"
		"#SBATCH --output=%s/slurm-%%A_%%a.out\n"
		"jobs=", pk->n - 1, minutes, absout);
	shell_quote(f, absjobs);
	fputs("\n: \"${SLURM_ARRAY_TASK_ID:?not a Slurm array task (sbatch this script)}\"\n"
	      "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" \"$jobs\")\n"
	      "[ -n \"$line\" ] || { echo \"$jobs: no line $((SLURM_ARRAY_TASK_ID + 1))\" >&2; "
	      "exit 1; }\n"
	      "exec sh -c \"$line\"\n", f);
	if (fclose(f) != 0)
		return sim_err_set(err, script, 0, "cannot write: %s", strerror(errno));
	return 0;
}

static int merge_report(const char *out, bool quiet)
{
	struct sim_err err;
	size_t rows, missing, failed;

	if (merge_results(out, &rows, &missing, &failed, &err) != 0)
		return cli_user_error(&err);
	if (!quiet) {
		printf("%s/results.csv: %zu rows", out, rows);
		if (failed > 0)
			printf(", %zu failed", failed);
		if (missing > 0)
			printf("; %zu points have no result yet", missing);
		putchar('\n');
	}
	return SIM_EXIT_OK;
}

struct sweep_args {
	const char *file, *out, *emit, *slurm, *merge;
	bool dry, retry, quiet, run_point, missing;
	long jobs;
	double timeout;
	struct cli_wl_opts wl;
};

static int run_sweep(const struct sweep_args *a, const char *self)
{
	struct sim_err err;
	struct sweep *s = sweep_load(a->file, &err);
	struct runner_opts ro;
	struct runner_tally t;
	const struct sweep_job **jobs;
	size_t i;
	int rc;

	if (s == NULL)
		return cli_user_error(&err);
	if (a->dry) {
		sweep_write_points(s, stdout);
		sweep_free(s);
		return SIM_EXIT_OK;
	}
	memset(&ro, 0, sizeof ro);
	ro.out = a->out;
	ro.self = self;
	ro.jobs = (unsigned)a->jobs;
	ro.timeout_s = a->timeout > 0 ? a->timeout : s->timeout_s;
	ro.max_cycles = s->max_cycles;
	ro.max_host_seconds = s->max_host_seconds;
	ro.retry_failed = a->retry;
	ro.progress = !a->quiet && isatty(STDERR_FILENO);
	ro.lock = true;
	if (runner_prepare(a->out, &err) != 0 || merge_write_manifest(s, a->out, &err) != 0) {
		sweep_free(s);
		return cli_user_error(&err);
	}
	if (a->slurm != NULL || a->emit != NULL) {
		struct pick pk = { xcalloc(s->npoints + 1, sizeof *pk.idx), 0 };
		size_t have = 0;

		/* --missing: the points without a result (failed ones too with --retry-failed) */
		for (i = 0; i < s->npoints; i++) {
			int st = a->missing ? runner_point_state(a->out, s->points[i].job.id) : 0;

			if (st == 0 || (st == 2 && a->retry))
				pk.idx[pk.n++] = i;
			else
				have++;
		}
		if (pk.n == 0 && a->missing && s->npoints > 0) {
			if (!a->quiet)
				printf("%s: every one of the %zu points has a result in %s/points; "
				       "nothing to emit (gmsim sweep --merge %s)\n", a->file,
				       s->npoints, a->out, a->out);
			rc = 0;
		} else if (a->slurm != NULL) {
			char *jp = a->emit != NULL ? xstrdup(a->emit) : slurm_jobs_path(a->slurm);

			rc = emit_slurm(s, &pk, a->missing, self, a->out, ro.timeout_s, jp, a->slurm,
					&err);
			if (rc == 0 && !a->quiet)
				printf("%s: a Slurm array of %zu tasks running the lines of %s%s; "
				       "sbatch %s, then gmsim sweep --merge %s\n", a->slurm, pk.n, jp,
				       a->missing ? " (the points without a result)" : "", a->slurm,
				       a->out);
			free(jp);
		} else {
			rc = emit_jobs(s, &pk, self, a->out, ro.timeout_s, a->emit, &err);
			if (rc == 0 && !a->quiet)
				printf("%s: %zu jobs%s; run them (e.g. parallel < %s), then gmsim "
				       "sweep --merge %s\n", a->emit, pk.n, a->missing ?
				       " (the points without a result)" : "", a->emit, a->out);
		}
		if (rc == 0 && a->missing && !a->quiet && pk.n > 0)
			printf("%zu of %zu points already have a result\n", have, s->npoints);
		free(pk.idx);
		sweep_free(s);
		return rc == 0 ? SIM_EXIT_OK : cli_user_error(&err);
	}
	jobs = xcalloc(s->npoints, sizeof *jobs);
	for (i = 0; i < s->npoints; i++)
		jobs[i] = &s->points[i].job;
	rc = runner_run(jobs, s->npoints, &ro, &t, &err);
	free(jobs);
	if (rc != 0) {
		sweep_free(s);
		return cli_user_error(&err);
	}
	if (!a->quiet)
		printf("%s: %zu points: %zu ok (%zu now, %zu before), %zu failed (%zu now, %zu "
		       "before)\n", a->file, t.total, t.ok + t.done_before, t.ok, t.done_before,
		       t.failed + t.failed_before, t.failed, t.failed_before);
	rc = merge_report(a->out, a->quiet);
	if (rc == SIM_EXIT_OK && t.failed + t.failed_before > 0) {
		fprintf(stderr, "gmsim: error: %zu of %zu points failed; their errors are in %s/"
			"points (status in %s/results.csv)%s\n", t.failed + t.failed_before,
			t.total, a->out, a->out, a->retry ? "" : "; --retry-failed runs them again");
		rc = SIM_EXIT_USER;
	}
	sweep_free(s);
	return rc;
}

/* --run-point: the one point -c/-w/-o/-p describe. */
static int run_point(const struct sweep_args *a, const char *self)
{
	struct sweep_job job, *jp = &job;
	struct runner_opts ro;
	struct runner_tally t;
	struct sim_err err;
	int rc;

	if (a->wl.co.path == NULL || a->wl.nworkloads != 1 || a->wl.json != NULL ||
	    a->wl.csv != NULL)
		return cli_usage_error("sweep", "--run-point takes one -c and one -w (and -o, -p)");
	memset(&job, 0, sizeof job);
	job.config = a->wl.co.path;
	job.workload = a->wl.workloads[0];
	job.set = a->wl.co.overrides;
	job.nset = a->wl.co.noverrides;
	job.param = a->wl.params;
	job.nparam = a->wl.nparams;
	sweep_job_set_id(&job);
	memset(&ro, 0, sizeof ro);
	ro.out = a->out;
	ro.self = self;
	ro.jobs = 1;
	ro.timeout_s = a->timeout > 0 ? a->timeout : SWEEP_DEFAULT_TIMEOUT_S;
	ro.retry_failed = a->retry;
	rc = runner_run((const struct sweep_job *const *)&jp, 1, &ro, &t, &err);
	if (rc != 0)
		return cli_user_error(&err);
	return t.failed > 0 ? SIM_EXIT_USER : SIM_EXIT_OK;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_WL_LONGOPTS,
		{ "dry-run", no_argument, NULL, OPT_DRY },
		{ "out", required_argument, NULL, OPT_OUT },
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "retry-failed", no_argument, NULL, OPT_RETRY },
		{ "emit-jobs", required_argument, NULL, OPT_EMIT },
		{ "emit-slurm", required_argument, NULL, OPT_SLURM },
		{ "merge", required_argument, NULL, OPT_MERGE },
		{ "run-point", no_argument, NULL, OPT_RUN_POINT },
		{ "missing", no_argument, NULL, OPT_MISSING },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sweep_args a;
	struct sim_err err;
	char self[PATH_MAX], *end;
	int ch, rc;

	memset(&a, 0, sizeof a);
	a.jobs = cli_jobs_default();
	optind = 1;
	while ((ch = getopt_long(argc, argv, CLI_WL_SHORTOPTS "j:qh", longopts, NULL)) != -1) {
		if (cli_wl_opt(&a.wl, ch, optarg))
			continue;
		switch (ch) {
		case OPT_DRY: a.dry = true; continue;
		case OPT_OUT: a.out = optarg; continue;
		case OPT_RETRY: a.retry = true; continue;
		case OPT_EMIT: a.emit = optarg; continue;
		case OPT_SLURM: a.slurm = optarg; continue;
		case OPT_MERGE: a.merge = optarg; continue;
		case OPT_RUN_POINT: a.run_point = true; continue;
		case OPT_MISSING: a.missing = true; continue;
		case 'q': a.quiet = true; continue;
		case 'j':
			if ((rc = cli_jobs_opt("sweep", optarg, &a.jobs)) == 0)
				continue;
			cli_wl_opts_free(&a.wl);
			return rc;
		case OPT_TIMEOUT:
			a.timeout = strtod(optarg, &end);
			if (*end == '\0' && a.timeout > 0)
				continue;
			cli_wl_opts_free(&a.wl);
			return cli_usage_error("sweep", "--timeout %s: expected seconds > 0", optarg);
		case 'h':
			cli_wl_opts_free(&a.wl);
			fputs(usage, stdout);
			return SIM_EXIT_OK;
		default:
			cli_wl_opts_free(&a.wl);
			return cli_usage_error("sweep", "bad option");
		}
	}
	if (optind < argc)
		a.file = argv[optind++];
	rc = -1;
	if (optind < argc)
		rc = cli_usage_error("sweep", "unexpected argument '%s'", argv[optind]);
	else if (a.merge != NULL && (a.file != NULL || a.run_point || a.dry || a.emit != NULL ||
				  a.slurm != NULL))
		rc = cli_usage_error("sweep", "--merge DIR takes no sweep file and no other mode");
	else if (a.run_point && (a.file != NULL || a.out == NULL))
		rc = cli_usage_error("sweep", "--run-point takes --out DIR and no sweep file");
	else if (!a.run_point && (a.wl.co.path != NULL || a.wl.nworkloads > 0 ||
				  a.wl.co.noverrides > 0 || a.wl.nparams > 0 || a.wl.json != NULL ||
				  a.wl.csv != NULL))
		rc = cli_usage_error("sweep", "-c, -w, -o and -p go with --run-point only");
	else if (a.merge == NULL && !a.run_point && a.file == NULL)
		rc = cli_usage_error("sweep", "give a sweep file (or --merge DIR)");
	else if (a.file != NULL && !a.dry && a.out == NULL)
		rc = cli_usage_error("sweep", "give --out DIR (or --dry-run)");
	else if (a.dry && (a.emit != NULL || a.slurm != NULL))
		rc = cli_usage_error("sweep", "--dry-run and --emit-%s are two modes: give one",
				     a.slurm != NULL ? "slurm" : "jobs");
	else if (a.run_point && (a.emit != NULL || a.slurm != NULL))
		rc = cli_usage_error("sweep", "--run-point runs a point: no --emit-jobs or --emit-slurm");
	else if (a.missing && a.emit == NULL && a.slurm == NULL)
		rc = cli_usage_error("sweep", "--missing goes with --emit-slurm or --emit-jobs (the "
				     "built-in runner skips finished points by itself)");
	if (rc >= 0) {
		cli_wl_opts_free(&a.wl);
		return rc;
	}
	if (a.merge != NULL)
		rc = merge_report(a.merge, a.quiet);
	else if (!a.dry && self_path(self, sizeof self, &err) != 0)
		rc = cli_user_error(&err);
	else if (a.run_point)
		rc = run_point(&a, self);
	else
		rc = run_sweep(&a, self);
	cli_wl_opts_free(&a.wl);
	return rc;
}
