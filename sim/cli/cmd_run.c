/*
 * cmd_run.c - `gmsim run`: simulate one workload (sim/front/workload.h) on the GPU of a config
 * (SMs from sim/front/sm.h over the memory system of sim/gpu/sim.h) and report where the
 * memory system spends its time: a one-screen summary on stdout, every statistic in JSON or CSV.
 *
 * The run-level names of DESIGN section 6 (sim.cycles, sim.time_ns, the dram.* aggregates, the
 * achieved bandwidth of each level against its peak, bw.*) are assembled below the CLI, in
 * sim/gpu/totals.c; the run itself (kernel order, drain, watchdog, limits) is sim/gpu/run.c.
 *
 * Report. Per level: bandwidth against its peak, hit rates (with --predict, next to the hit
 * rates a fully associative LRU cache of the same size would reach on the same stream, from
 * sim/analysis/analyze.h), MSHR merges and reservation failures; DRAM row hits, refresh and ECC
 * cost; the load latency distribution; where a load line request spends its time, stage by
 * stage (the load_stage.* means of sm.h, which add up to the mean request latency); and the
 * DRAM bandwidth waterfall from peak to achieved (sim/dram/mc.h).
 *
 * Several -w: the kernels run in order on one machine (run.h: run_create), reported as one
 * run with each kernel's start and end (kernelN.start, kernelN.end). --trace LIST runs the
 * kernels of an Accel-Sim trace the same way (run.h: run_create_trace; doc/trace.md).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "cli.h"
#include "clock.h"
#include "log.h"
#include "mc.h"
#include "params.h"
#include "req.h"
#include "run.h"
#include "sim.h"
#include "stats.h"
#include "totals.h"
#include "trace.h"
#include "workload.h"

static const char usage[] =
	"Usage: gmsim run [-w WORKLOAD [-p name=value ...] ...] [-c FILE] [-o group.key=value ...]\n"
	"                 [--predict] [--quiet] [--stats-json FILE] [--stats-csv FILE]\n"
	"       gmsim run --trace DIR/kernelslist.g [--isa FILE] [--strict] [-c FILE] [-o ...] ...\n"
	"\n"
	"Simulates the kernel of a workload file on the GPU a config describes and prints a\n"
	"summary: cycles, warp instructions, coalescing, bandwidth and hit rates per level, DRAM\n"
	"row hits, refresh and ECC, load latency with its per-stage breakdown, and the DRAM\n"
	"bandwidth waterfall. Several -w run their kernels one after the other (each starts when\n"
	"the one before has finished and its stores have drained; the caches stay warm). With no\n"
	"options: the default config and workload.\n"
	"\n"
	CLI_WL_USAGE
	CLI_TRACE_USAGE
	"  --predict               also run the timing-free analysis (gmsim analyze) and print\n"
	"                          the predicted L1 and L2 hit rates next to the simulated ones\n"
	"  --max-cycles N          stop after N core cycles (exit status 4; the statistics so far\n"
	"                          are printed and written, marked partial)\n"
	"  --max-host-seconds S    stop after S seconds of wall-clock time (the same way)\n"
	"  -q, --quiet             no progress line on stderr\n"
	"  -h, --help              this help\n"
	"\n"
	"Exit status: 0 done, 1 bad input, 2 bad command line, 3 watchdog (no progress for\n"
	"sim.watchdog_cycles: a deadlock; the state of every unit on stderr), 4 a run limit.\n";

enum { OPT_PREDICT = CLI_OPT_FREE, OPT_MAX_CYCLES, OPT_MAX_HOST };

/* --max-cycles and --max-host-seconds; 0: none. */
struct run_limits {
	uint64_t max_cycles;
	double max_host_seconds;
};

/* The hit rates the timing-free analysis predicts (--predict); NaN: not asked. */
struct prediction {
	double l1, l2;
};

struct progress {
	bool on;
	struct timespec t0, last;
	bool printed;
};

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* A progress line on stderr, once the run has taken 2 s, at most twice a second. */
static void progress_cb(void *ctx, cycle_t cycle, uint64_t done, uint64_t blocks,
			uint64_t insts)
{
	struct progress *pr = ctx;
	struct timespec now;
	double t;

	if (!pr->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	t = since(&pr->t0, &now);
	if (t < 2.0 || (pr->printed && since(&pr->last, &now) < 0.5))
		return;
	pr->last = now;
	pr->printed = true;
	fprintf(stderr, "\r  cycle %" PRIu64 ", %" PRIu64 " of %" PRIu64 " blocks (%.0f%%), "
		"%.0f k warp inst/s, %.0f s  ", (uint64_t)cycle, done, blocks,
		blocks ? 100.0 * (double)done / (double)blocks : 0.0, (double)insts / t / 1e3, t);
	fflush(stderr);
}

static double get(const struct stats *st, const char *name)
{
	double v;

	return stats_get(st, name, &v) ? v : NAN;
}

static double pct(double a, double b)
{
	return b > 0 ? 100.0 * a / b : 0.0;
}

/* " (predicted 0.870)" after a simulated hit rate, or nothing. */
static const char *predicted(double v, char *buf, size_t n)
{
	if (isnan(v))
		return "";
	snprintf(buf, n, " (LRU predicts %.3f)", v);
	return buf;
}

static void report_stages(const struct stats *st, double core_ps, const struct dram_spec *spec,
			  const struct run_totals *t)
{
	static const struct {
		enum mem_stage s;
		const char *label;
	} rows[] = {
		{ MEM_STAGE_CREATED, "SM->L1" },
		{ MEM_STAGE_L1_ACCESS, "L1" },
		{ MEM_STAGE_L1_MISS, "L1 miss queue" },
		{ MEM_STAGE_XBAR_REQ, "crossbar" },
		{ MEM_STAGE_L2_ACCESS, "L2" },
		{ MEM_STAGE_L2_MISS, "L2 miss->fill" },
		{ MEM_STAGE_L2_FILL, "L2 reply" },
		{ MEM_STAGE_XBAR_REPLY, "crossbar back" },
		{ MEM_STAGE_L1_FILL, "L1 fill->SM" },
		{ MEM_STAGE_MC_QUEUE, "controller" },
		{ MEM_STAGE_DRAM_ISSUE, "DRAM" },
		{ MEM_STAGE_DRAM_DONE, "DRAM done" },
	};
	double n = get(st, "load_stage.requests"), sum = 0.0;
	size_t i;
	int col = 15;

	if (!(n > 0))
		return;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char name[64];

		snprintf(name, sizeof name, "load_stage.%s", mem_stage_name(rows[i].s));
		sum += get(st, name);
	}
	printf("  load path    mean core cycles per load line request (%.0f requests, %.1f in "
	       "all):\n              ", n, sum);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char name[64], item[64];
		double v;
		int len;

		snprintf(name, sizeof name, "load_stage.%s", mem_stage_name(rows[i].s));
		v = get(st, name);
		if (!(v > 0))
			continue;
		len = snprintf(item, sizeof item, "%s %s %.1f", col > 15 ? "," : "", rows[i].label, v);
		if (col + len > 98) {
			printf(",\n              ");
			col = 15;
			len = snprintf(item, sizeof item, " %s %.1f", rows[i].label, v);
		}
		fputs(item, stdout);
		col += len;
	}
	putchar('\n');
	if (t->reads > 0) {
		double to_core = (double)spec->tck_ps / core_ps;

		printf("               a 32 B DRAM read: %.1f queued at the controller (to its RD), "
		       "%.1f in DRAM (RD to data)\n",
		       (double)t->read_wait / (double)t->reads * to_core,
		       (double)t->read_service / (double)t->reads * to_core);
	}
}

static void report_waterfall(struct sim *s, const struct run_totals *t)
{
	struct mc_waterfall sum, w;
	uint32_t ch;
	cycle_t end = (cycle_t)(t->time_ns * 1000.0 / (double)sim_dram_tck_ps(s));

	memset(&sum, 0, sizeof sum);
	for (ch = 0; ch < sim_channels(s); ch++) {
		mc_waterfall(sim_mc(s, ch), end, &w);
		mc_waterfall_add(&sum, &w);
	}
	printf("  DRAM bandwidth waterfall (GB/s; the lines sum to the peak):\n");
	mc_waterfall_print(stdout, &sum, t->peak_gbps, "    ");
}

static void report(struct workload *const *ws, const struct trace_list *tl, size_t nw,
		   const struct gpu_params *p, struct sim *s, const struct run_totals *t,
		   const struct prediction *pred)
{
	const struct stats *st = sim_stats(s);
	double insts = get(st, "sim.warp_insts");
	char b1[48], b2[48];
	size_t k;

	for (k = 0; k < nw; k++) {
		const char *name = tl != NULL ? tl->kernels[k].name : ws[k]->kernel;
		const char *path = tl != NULL ? tl->kernels[k].path : ws[k]->path;
		const uint32_t *grid = tl != NULL ? tl->kernels[k].grid : ws[k]->grid;
		const uint32_t *block = tl != NULL ? tl->kernels[k].block : ws[k]->block;

		printf("%s %s (%s)%s%s: grid (%u, %u, %u), block (%u, %u, %u)", k == 0 ? "kernel"
		       : "  then", name != NULL ? name : "?", path, k == 0 ? " on " : "",
		       k == 0 ? p->gpu.name : "", grid[0], grid[1], grid[2], block[0],
		       block[1], block[2]);
		if (k == 0)
			printf(", %u SMs", p->gpu.sms);
		if (nw > 1)
			printf(": cycles %" PRIu64 " .. %" PRIu64, t->kstart[k], t->kend[k]);
		putchar('\n');
	}
	printf("  time         %" PRIu64 " core cycles = %.1f ns; %.0f warp instructions, %.3f per "
	       "cycle (%.2f s host, %.0f inst/s)\n", t->cycles, t->time_ns, insts,
	       t->cycles ? insts / (double)t->cycles : 0.0, t->host_seconds,
	       t->host_seconds > 0 ? insts / t->host_seconds : 0.0);
	printf("  coalescing   %.0f memory instructions -> %.0f line requests, %.0f sectors; ",
	       get(st, "coal.mem_insts"), get(st, "coal.requests"), get(st, "coal.sectors"));
	/* no memory instruction: no efficiency (null in --stats-json) */
	if (isnan(get(st, "coal.efficiency")))
		printf("efficiency n/a\n");
	else
		printf("efficiency %.3f%s\n", get(st, "coal.efficiency"),
		       get(st, "coal.efficiency") < 0.5 ? " (poor: below 0.5)" : "");
	printf("  shared       %.0f instructions, %.0f bank-conflict cycles\n",
	       get(st, "sm.shared_insts"), get(st, "sm.shared_bank_conflicts"));
	if (sim_mem_model(s) == GPU_MEM_FIXED) {
		printf("  memory       fixed: %u core cycles, %u requests per cycle per SM; SM<->"
		       "memory %.1f of %.1f GB/s (%.1f%%)\n", p->memory.latency_cycles,
		       p->memory.requests_per_cycle, t->l1_gbps, t->l1_peak,
		       pct(t->l1_gbps, t->l1_peak));
	} else {
		printf("  bandwidth    SM<->L1 %.1f of %.1f GB/s (%.1f%%); crossbar requests %.1f "
		       "of %.1f (%.1f%%), replies %.1f of %.1f GB/s (%.1f%%); L2 lookups %.1f%% "
		       "busy\n", t->l1_gbps, t->l1_peak, pct(t->l1_gbps, t->l1_peak), t->xreq_gbps,
		       t->xreq_peak, pct(t->xreq_gbps, t->xreq_peak), t->xrep_gbps, t->xrep_peak,
		       pct(t->xrep_gbps, t->xrep_peak), t->l2_busy_pct);
		printf("  L1           %.0f accesses, hit rate %.3f%s, %.0f MSHR merges, %.0f "
		       "reservation fails\n", get(st, "l1.accesses"), get(st, "l1.hit_rate"),
		       predicted(pred->l1, b1, sizeof b1), get(st, "l1.mshr_merges"),
		       get(st, "l1.reservation_fails"));
		printf("  L2           %.0f accesses, hit rate %.3f%s, %.0f MSHR merges, %.0f "
		       "reservation fails\n", get(st, "l2.accesses"), get(st, "l2.hit_rate"),
		       predicted(pred->l2, b2, sizeof b2), get(st, "l2.mshr_merges"),
		       get(st, "l2.reservation_fails"));
		printf("  DRAM         %" PRIu64 " read / %" PRIu64 " write bursts, %.1f of %.1f "
		       "GB/s peak (%.1f%%), row-hit rate %.3f; refresh %" PRIu64 " commands, "
		       "%.2f%% of bank time; ECC %.2f%% of bursts\n", t->reads, t->writes,
		       t->achieved_gbps, t->peak_gbps, pct(t->achieved_gbps, t->peak_gbps),
		       t->row_hit_rate, t->refreshes, t->refresh_pct, t->ecc_pct);
	}
	if (get(st, "load_latency_cycles.count") == 0)
		printf("  load latency none (0 loads)\n");
	else
		printf("  load latency mean %.1f, p50 %.1f, p99 %.1f core cycles (%.0f loads)\n",
		       get(st, "load_latency_cycles.mean"), get(st, "load_latency_cycles.p50"),
		       get(st, "load_latency_cycles.p99"), get(st, "load_latency_cycles.count"));
	if (sim_mem_model(s) == GPU_MEM_FIXED)
		return;
	report_stages(st, (double)clock_period(sim_core_clock(s)), sim_dram_spec(s), t);
	report_waterfall(s, t);
}

/* The timing-free prediction of the L1 and L2 hit rates (gmsim analyze) into t. */
static int predict(const struct gpu_params *p, const struct workload *w,
		   struct prediction *pred, struct sim_err *err)
{
	struct analyze_params ap;
	struct analysis *a;
	struct stats *st;

	memset(&ap, 0, sizeof ap);
	ap.sms = p->gpu.sms;
	ap.sm = p->sm;
	ap.seed = p->sim.seed;
	if (cli_cache_capacities(p, &ap.l1_bytes, &ap.l2_bytes, err) != 0)
		return -1;
	st = stats_create();
	a = analyze_run(w, &ap, st, err);
	if (a != NULL) {
		pred->l1 = analyze_predicted_l1(a);
		pred->l2 = analyze_predicted_l2(a);
	}
	analyze_free(a);
	stats_destroy(st);
	return a != NULL ? 0 : -1;
}

/* The name a partial run's statistics carry (stats.h: stats_header.partial), or NULL. */
static const char *partial_name(enum run_outcome out)
{
	switch (out) {
	case RUN_WATCHDOG:
		return "watchdog";
	case RUN_LIMIT_CYCLES:
		return "max_cycles";
	case RUN_LIMIT_HOST:
		return "max_host_seconds";
	default:
		return NULL;
	}
}

/* Returns 0, -1 with err filled (bad input), or SIM_EXIT_WATCHDOG / SIM_EXIT_LIMIT with err
 * holding the message; after a limit or the watchdog the statistics so far are reported and
 * written, marked partial. */
static int run(const struct gpu_params *p, struct workload *const *ws, struct trace_list *tl,
	       size_t nw, const struct cli_wl_opts *o, bool want_predict, bool quiet,
	       const struct run_limits *lim, struct sim_err *err)
{
	struct prediction pred = { NAN, NAN };
	struct dram_spec spec;
	struct progress pr;
	struct run *r;
	struct sim *s;
	const char *partial;
	int rc = 0;

	if (gpu_dram_spec(p, &spec, err) != 0)
		return -1;
	if (want_predict && p->memory.model != GPU_MEM_FIXED && predict(p, ws[0], &pred, err) != 0)
		return -1;
	s = sim_create(p, err);
	if (s == NULL)
		return -1;
	r = tl != NULL ? run_create_trace(s, tl, err)
		: run_create(s, (const struct workload *const *)ws, nw, err);
	if (r == NULL) {
		sim_destroy(s);
		return -1;
	}
	memset(&pr, 0, sizeof pr);
	pr.on = !quiet && isatty(STDERR_FILENO);
	run_set_progress(r, progress_cb, &pr);
	clock_gettime(CLOCK_MONOTONIC, &pr.t0);
	run_set_limits(r, lim->max_cycles, lim->max_host_seconds);
	rc = run_simulate(r, err);
	if (pr.printed)
		fprintf(stderr, "\r%*s\r", 79, "");
	partial = partial_name(run_outcome(r));
	if (rc == 0 || partial != NULL) {
		const struct run_totals *t = run_totals(r);
		struct sim_err werr;

		if (partial != NULL)
			printf("PARTIAL: the run stopped early (%s) at core cycle %" PRIu64 "; what "
			       "follows is the state at that cycle\n", partial,
			       (uint64_t)run_cycles(r));
		report(ws, tl, nw, p, s, t, &pred);
		if (cli_wl_write_stats(o, sim_stats(s), p, t->host_seconds, partial, &werr) != 0) {
			*err = werr;
			rc = -1;
		} else if (partial != NULL) {
			rc = run_outcome(r) == RUN_WATCHDOG ? SIM_EXIT_WATCHDOG : SIM_EXIT_LIMIT;
		}
	}
	run_destroy(r);
	sim_destroy(s);
	return rc;
}

/* The exit status of run()'s result. */
static int run_status(int rc, const struct sim_err *err)
{
	char buf[SIM_ERR_MSG_MAX + 300];

	if (rc == 0)
		return SIM_EXIT_OK;
	if (rc < 0)
		return cli_user_error(err);
	fprintf(stderr, "gmsim: %s\n", sim_err_format(err, buf, sizeof buf));
	return rc;
}

/* A whole number >= 1 (cycles) or a positive real (seconds) from an option's argument. */
static bool parse_limit(const char *arg, bool whole, uint64_t *u, double *d)
{
	char *end;

	errno = 0;
	if (whole) {
		if (arg[0] == '-')
			return false;
		*u = strtoull(arg, &end, 10);
		return errno == 0 && end != arg && *end == '\0' && *u > 0;
	}
	*d = strtod(arg, &end);
	return errno == 0 && end != arg && *end == '\0' && *d > 0 && isfinite(*d);
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_WL_LONGOPTS,
		CLI_TRACE_LONGOPTS,
		{ "predict", no_argument, NULL, OPT_PREDICT },
		{ "max-cycles", required_argument, NULL, OPT_MAX_CYCLES },
		{ "max-host-seconds", required_argument, NULL, OPT_MAX_HOST },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_wl_opts o = { 0 };
	struct workload **ws = NULL;
	struct trace_list *tl = NULL;
	size_t nw = 0;
	struct gpu_params p;
	struct sim_err err;
	bool want_predict = false, quiet = false;
	struct run_limits lim = { 0, 0.0 };
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+" CLI_WL_SHORTOPTS "qh", longopts, NULL)) != -1) {
		if (cli_wl_opt(&o, ch, optarg))
			continue;
		if (ch == OPT_PREDICT) {
			want_predict = true;
			continue;
		}
		if (ch == 'q') {
			quiet = true;
			continue;
		}
		if (ch == OPT_MAX_CYCLES && parse_limit(optarg, true, &lim.max_cycles, NULL))
			continue;
		if (ch == OPT_MAX_HOST && parse_limit(optarg, false, NULL, &lim.max_host_seconds))
			continue;
		cli_wl_opts_free(&o);
		if (ch == OPT_MAX_CYCLES || ch == OPT_MAX_HOST)
			return cli_usage_error("run", "%s takes a number above 0, got '%s'",
					       ch == OPT_MAX_CYCLES ? "--max-cycles"
								    : "--max-host-seconds", optarg);
		if (ch == 'h') {
			fputs(usage, stdout);
			return SIM_EXIT_OK;
		}
		return cli_usage_error("run", "bad option");
	}
	if (optind < argc) {
		cli_wl_opts_free(&o);
		return cli_usage_error("run", "unexpected argument '%s'", argv[optind]);
	}
	if (o.bad_number) {
		cli_wl_opts_free(&o);
		return cli_usage_error("run", "--max-trace-mb takes a whole number of MB, 1 or more");
	}
	if (o.trace != NULL && (o.nworkloads > 0 || o.nparams > 0 || want_predict)) {
		cli_wl_opts_free(&o);
		return cli_usage_error("run", "--trace runs a trace: -w, -p and --predict do not "
				       "apply to it");
	}
	if (o.trace != NULL) {
		if (cli_trace_load(&o, &p, &tl, &err) != 0) {
			cli_wl_opts_free(&o);
			return cli_user_error(&err);
		}
		rc = run(&p, NULL, tl, tl->nkernels, &o, false, quiet, &lim, &err);
		trace_list_free(tl);
		cli_wl_opts_free(&o);
		return run_status(rc, &err);
	}
	if (want_predict && o.nworkloads > 1) {
		cli_wl_opts_free(&o);
		return cli_usage_error("run", "--predict analyses one kernel: give one -w");
	}
	if (cli_wl_load(&o, &p, &ws, &nw, &err) != 0) {
		cli_wl_opts_free(&o);
		return cli_user_error(&err);
	}
	rc = run(&p, ws, NULL, nw, &o, want_predict, quiet, &lim, &err);
	cli_wl_free(ws, nw);
	cli_wl_opts_free(&o);
	return run_status(rc, &err);
}
