/*
 * cmd_run.c - `gmsim run`: simulate one workload (sim/front/workload.h) on the GPU of a config
 * (SMs from sim/front/sm.h over the memory system of sim/gpu/sim.h) and report where the
 * memory system spends its time: a one-screen summary on stdout, every statistic in JSON or CSV.
 *
 * The run-level names of DESIGN section 6 are filled here: sim.cycles (core cycles until the
 * last block retired), sim.time_ns, sim.host_seconds, sim.events, and the dram.* aggregates
 * summed over the controllers' mcN.* counters (as sim/dram/dram_sim.c does standalone).
 *
 * Not yet: a list of kernels, the progress line, the per-stage latency breakdown and the
 * bandwidth waterfall, the predicted (reuse-distance) hit rates, `gmsim run` with no arguments
 * choosing a default workload.
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

#include "cli.h"
#include "clock.h"
#include "eventq.h"
#include "log.h"
#include "params.h"
#include "sim.h"
#include "sm.h"
#include "stats.h"
#include "workload.h"

static const char usage[] =
	"Usage: gmsim run [-c FILE] -w WORKLOAD [-p name=value ...] [-o group.key=value ...]\n"
	"                 [--stats-json FILE] [--stats-csv FILE]\n"
	"\n"
	"Simulates one kernel of a workload file on the GPU a config describes and prints a\n"
	"summary: cycles, warp instructions, coalescing, cache hit rates, DRAM bandwidth and load\n"
	"latency.\n"
	"\n"
	"  -w, --workload FILE     workload (.wl) to run\n"
	"  -p, --param NAME=VALUE  override a workload parameter; repeatable\n"
	"  -c, --config FILE       configuration (default " CLI_DEFAULT_CONFIG ")\n"
	"  -o, --set group.key=VAL override one config key; repeatable\n"
	"  --stats-json FILE       every statistic as JSON\n"
	"  --stats-csv FILE        every statistic as CSV\n"
	"  -h, --help              this help\n";

enum { OPT_JSON = 256, OPT_CSV };

/* The run-level and DRAM aggregates (DESIGN section 6). */
struct run_totals {
	uint64_t cycles, events;
	double time_ns, host_seconds;
	uint64_t reads, writes, bytes_moved, refreshes, row_hits, row_accesses, ecc_bursts;
	double peak_gbps, achieved_gbps, row_hit_rate;
};

static void register_totals(struct stats *st, struct run_totals *t)
{
	stats_counter(st, "sim.cycles", "core cycles until the last block retired", &t->cycles);
	stats_real(st, "sim.time_ns", "simulated time, ns", &t->time_ns, 0);
	stats_real(st, "sim.host_seconds", "wall-clock seconds of the simulation", &t->host_seconds,
		   STATS_HOST);
	stats_counter(st, "sim.events", "events fired", &t->events);
	stats_counter(st, "dram.reads", "32 B read bursts, all channels", &t->reads);
	stats_counter(st, "dram.writes", "32 B write bursts, all channels", &t->writes);
	stats_counter(st, "dram.bytes_moved", "bytes on the data buses, ECC included",
		      &t->bytes_moved);
	stats_real(st, "dram.peak_gbps", "peak DRAM bandwidth, GB/s", &t->peak_gbps, 0);
	stats_real(st, "dram.achieved_gbps", "read and write bursts x 32 B over sim.time_ns, GB/s",
		   &t->achieved_gbps, 0);
	stats_real(st, "dram.row_hit_rate", "row hits / column accesses", &t->row_hit_rate, 0);
	stats_counter(st, "dram.refreshes", "refresh commands, all channels", &t->refreshes);
}

static void fill_totals(struct sim *s, const struct dram_spec *spec, struct run_totals *t)
{
	struct stats *st = sim_stats(s);
	uint32_t ch;

	t->events = eventq_fired(sim_eventq(s));
	t->time_ns = (double)t->cycles * (double)clock_period(sim_core_clock(s)) / 1000.0;
	for (ch = 0; ch < spec->channels; ch++) {
		char name[64];
		double v;

#define SUM(field, stat)                                              \
	do {                                                           \
		snprintf(name, sizeof name, "mc%u." stat, ch);          \
		if (stats_get(st, name, &v))                           \
			t->field += (uint64_t)v;                       \
	} while (0)
		SUM(reads, "reads");
		SUM(writes, "writes");
		SUM(ecc_bursts, "ecc_reads");
		SUM(ecc_bursts, "ecc_writes");
		SUM(ecc_bursts, "rmw_reads");
		SUM(row_hits, "row_hits");
		SUM(row_accesses, "row_hits");
		SUM(row_accesses, "row_misses");
		SUM(row_accesses, "row_conflicts");
		SUM(refreshes, "refreshes");
#undef SUM
	}
	t->bytes_moved = (t->reads + t->writes + t->ecc_bursts) * spec->burst_bytes;
	t->peak_gbps = spec->peak_gbps;
	t->achieved_gbps = t->time_ns > 0
		? (double)((t->reads + t->writes) * spec->burst_bytes) / t->time_ns : 0.0;
	t->row_hit_rate = t->row_accesses ? (double)t->row_hits / (double)t->row_accesses : 0.0;
}

static double get(const struct stats *st, const char *name)
{
	double v;

	return stats_get(st, name, &v) ? v : NAN;
}

static void report(const struct workload *w, const struct gpu_params *p, struct sim *s,
		   const struct run_totals *t)
{
	const struct stats *st = sim_stats(s);
	double insts = get(st, "sim.warp_insts");

	printf("kernel %s (%s) on %s: grid (%u, %u, %u), block (%u, %u, %u), %u SMs\n", w->kernel,
	       w->path, p->gpu.name, w->grid[0], w->grid[1], w->grid[2], w->block[0], w->block[1],
	       w->block[2], p->gpu.sms);
	printf("  time         %" PRIu64 " core cycles = %.1f ns; %.0f warp instructions, %.3f per "
	       "cycle (%.2f s host, %.0f inst/s)\n", t->cycles, t->time_ns, insts,
	       t->cycles ? insts / (double)t->cycles : 0.0, t->host_seconds,
	       t->host_seconds > 0 ? insts / t->host_seconds : 0.0);
	printf("  coalescing   %.0f memory instructions -> %.0f line requests, %.0f sectors; "
	       "efficiency %.3f%s\n", get(st, "coal.mem_insts"), get(st, "coal.requests"),
	       get(st, "coal.sectors"), get(st, "coal.efficiency"),
	       get(st, "coal.efficiency") < 0.5 ? " (poor: below 0.5)" : "");
	printf("  shared       %.0f instructions, %.0f bank-conflict cycles\n",
	       get(st, "sm.shared_insts"), get(st, "sm.shared_bank_conflicts"));
	printf("  L1           %.0f accesses, hit rate %.3f, %.0f MSHR merges, %.0f reservation "
	       "fails\n", get(st, "l1.accesses"), get(st, "l1.hit_rate"), get(st, "l1.mshr_merges"),
	       get(st, "l1.reservation_fails"));
	printf("  L2           %.0f accesses, hit rate %.3f, %.0f MSHR merges, %.0f reservation "
	       "fails\n", get(st, "l2.accesses"), get(st, "l2.hit_rate"), get(st, "l2.mshr_merges"),
	       get(st, "l2.reservation_fails"));
	printf("  DRAM         %" PRIu64 " read / %" PRIu64 " write bursts, %.1f of %.1f GB/s peak "
	       "(%.1f%%), row-hit rate %.3f, %" PRIu64 " refreshes\n", t->reads, t->writes,
	       t->achieved_gbps, t->peak_gbps,
	       t->peak_gbps > 0 ? 100.0 * t->achieved_gbps / t->peak_gbps : 0.0, t->row_hit_rate,
	       t->refreshes);
	printf("  load latency mean %.1f, p50 %.1f, p99 %.1f core cycles (%.0f loads)\n",
	       get(st, "load_latency_cycles.mean"), get(st, "load_latency_cycles.p50"),
	       get(st, "load_latency_cycles.p99"), get(st, "load_latency_cycles.count"));
}

static int run(const struct gpu_params *p, const struct workload *w, const char *json,
	       const char *csv, struct sim_err *err)
{
	struct run_totals t;
	struct dram_spec spec;
	struct timespec t0, t1;
	struct front *f;
	struct sim *s;
	int rc = 0;

	memset(&t, 0, sizeof t);
	if (gpu_dram_spec(p, &spec, err) != 0)
		return -1;
	s = sim_create(p, err);
	if (s == NULL)
		return -1;
	f = front_create(s, &p->sm, w, p->sim.seed, err);
	if (f == NULL) {
		sim_destroy(s);
		return -1;
	}
	register_totals(sim_stats(s), &t);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = front_run(f, err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc == 0) {
		t.host_seconds = (double)(t1.tv_sec - t0.tv_sec) +
				 (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		t.cycles = front_cycles(f);
		sim_totals(s);
		fill_totals(s, &spec, &t);
		report(w, p, s, &t);
		if (json != NULL)
			rc = cli_write_stats(sim_stats(s), json, STATS_JSON, p, t.host_seconds, err);
		if (rc == 0 && csv != NULL)
			rc = cli_write_stats(sim_stats(s), csv, STATS_CSV, p, t.host_seconds, err);
	}
	front_destroy(f);
	sim_destroy(s);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "set", required_argument, NULL, 'o' },
		{ "workload", required_argument, NULL, 'w' },
		{ "param", required_argument, NULL, 'p' },
		{ "stats-json", required_argument, NULL, OPT_JSON },
		{ "stats-csv", required_argument, NULL, OPT_CSV },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_config_opts co = { 0 };
	const char **params = NULL;
	size_t nparams = 0;
	const char *wpath = NULL, *json = NULL, *csv = NULL;
	struct workload *w;
	struct gpu_params p;
	struct sim_err err;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+c:o:w:p:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			co.path = optarg;
			break;
		case 'o':
			cli_config_opts_add_override(&co, optarg);
			break;
		case 'w':
			wpath = optarg;
			break;
		case 'p':
			params = xreallocarray(params, nparams + 1, sizeof *params);
			params[nparams++] = optarg;
			break;
		case OPT_JSON:
			json = optarg;
			break;
		case OPT_CSV:
			csv = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			cli_config_opts_free(&co);
			free(params);
			return SIM_EXIT_OK;
		default:
			cli_config_opts_free(&co);
			free(params);
			return cli_usage_error("run", "bad option");
		}
	}
	if (optind < argc || wpath == NULL) {
		cli_config_opts_free(&co);
		free(params);
		return cli_usage_error("run", optind < argc ? "unexpected argument" :
				       "give a workload with -w FILE");
	}
	if (cli_load_params(&co, &p, &err) != 0) {
		cli_config_opts_free(&co);
		free(params);
		return cli_user_error(&err);
	}
	cli_config_opts_free(&co);
	w = workload_load(wpath, params, nparams, &err);
	free(params);
	if (w == NULL)
		return cli_user_error(&err);
	rc = run(&p, w, json, csv, &err);
	workload_free(w);
	return rc == 0 ? SIM_EXIT_OK : cli_user_error(&err);
}
