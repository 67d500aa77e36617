/*
 * cmd_analyze.c - `gmsim analyze`: the coalescing report and reuse-distance analysis of a
 * workload or of an Accel-Sim trace (--trace), without timing (sim/analysis/analyze.h). The
 * config supplies the SM count and occupancy (how warps interleave) and the L1 and L2
 * capacities the predictions are for.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze.h"
#include "cli.h"
#include "dram_std.h"
#include "log.h"
#include "params.h"
#include "reuse.h"
#include "stats.h"
#include "trace.h"
#include "workload.h"

static const char usage[] =
	"Usage: gmsim analyze [-w WORKLOAD] [-p name=value ...] [-c FILE] [-o group.key=value ...]\n"
	"                     [--capacity SIZES] [--stats-json FILE] [--stats-csv FILE]\n"
	"       gmsim analyze --trace DIR/kernelslist.g [--isa FILE] [--strict] [-c FILE] ...\n"
	"\n"
	"Executes a workload (or the kernels of a trace) without timing and reports, per memory\n"
	"instruction of its body (per kernel and PC of a trace), how the coalescer turns warp\n"
	"accesses into line requests and sectors (efficiency = ideal / actual sectors), then the\n"
	"reuse (LRU stack) distances of the request stream at sector and line granularity with the\n"
	"hit rate of a fully associative LRU cache of each capacity, and the predicted L1 and L2\n"
	"hit rates of the config's caches.\n"
	"\n"
	CLI_WL_USAGE
	CLI_TRACE_USAGE
	"  --capacity SIZES        capacities for the hit-rate table, e.g. 128K,4M,40M\n"
	"                          (default: the config's L1 and total L2)\n"
	"  -h, --help              this help\n";

enum { OPT_CAPACITY = CLI_OPT_FREE };

/* Per-SM L1 and total L2 capacity of config p, in bytes. */
int cli_cache_capacities(const struct gpu_params *p, uint64_t *l1, uint64_t *l2,
			 struct sim_err *err)
{
	struct dram_spec spec;

	if (gpu_dram_spec(p, &spec, err) != 0)
		return -1;
	*l1 = (uint64_t)p->l1.cache.size_kb * 1024;
	*l2 = (uint64_t)p->l2.cache.size_kb * 1024 * spec.channels * p->gpu.l2_slices_per_channel;
	return 0;
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_WL_LONGOPTS,
		CLI_TRACE_LONGOPTS,
		{ "capacity", required_argument, NULL, OPT_CAPACITY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_wl_opts o = { 0 };
	const char *caplist = NULL;
	struct analyze_params ap;
	struct analysis *a = NULL;
	struct workload **ws = NULL;
	struct trace_list *tl = NULL;
	size_t nw = 0;
	struct stats *st = NULL;
	struct gpu_params p;
	struct sim_err err;
	struct timespec t0, t1;
	uint64_t *caps = NULL, defcaps[2];
	size_t ncaps = 0;
	int ch, rc = SIM_EXIT_OK;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+" CLI_WL_SHORTOPTS "h", longopts, NULL)) != -1) {
		if (cli_wl_opt(&o, ch, optarg))
			continue;
		if (ch == OPT_CAPACITY) {
			caplist = optarg;
			continue;
		}
		cli_wl_opts_free(&o);
		if (ch == 'h') {
			fputs(usage, stdout);
			return SIM_EXIT_OK;
		}
		return cli_usage_error("analyze", "bad option");
	}
	if (optind < argc) {
		cli_wl_opts_free(&o);
		return cli_usage_error("analyze", "unexpected argument '%s'", argv[optind]);
	}
	if (caplist != NULL && reuse_parse_capacities("--capacity", caplist, &caps, &ncaps,
						      &err) != 0) {
		cli_wl_opts_free(&o);
		return cli_usage_error("analyze", "%s", err.msg);
	}
	if (o.bad_number) {
		cli_wl_opts_free(&o);
		free(caps);
		return cli_usage_error("analyze", "--max-trace-mb takes a whole number of MB, 1 or "
				       "more");
	}
	if (o.trace != NULL && (o.nworkloads > 0 || o.nparams > 0)) {
		cli_wl_opts_free(&o);
		free(caps);
		return cli_usage_error("analyze", "--trace analyses a trace: -w and -p do not apply "
				       "to it");
	}
	if (o.nworkloads > 1) {
		size_t n = o.nworkloads;

		cli_wl_opts_free(&o);
		free(caps);
		return cli_usage_error("analyze", "one workload at a time (-w given %zu times)", n);
	}
	if (o.trace != NULL ? cli_trace_load(&o, &p, &tl, &err) != 0
			    : cli_wl_load(&o, &p, &ws, &nw, &err) != 0)
		goto user_error;
	memset(&ap, 0, sizeof ap);
	ap.sms = p.gpu.sms;
	ap.sm = p.sm;
	ap.seed = p.sim.seed;
	if (cli_cache_capacities(&p, &ap.l1_bytes, &ap.l2_bytes, &err) != 0)
		goto user_error;
	if (caps != NULL) {
		ap.capacities = caps;
		ap.ncapacities = ncaps;
	} else {
		defcaps[0] = ap.l1_bytes;
		defcaps[1] = ap.l2_bytes;
		ap.capacities = defcaps;
		ap.ncapacities = 2;
	}
	st = stats_create();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	a = tl != NULL ? analyze_run_trace(tl, &ap, st, &err) : analyze_run(ws[0], &ap, st, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (a == NULL)
		goto user_error;
	analyze_report(a, stdout);
	if (cli_wl_write_stats(&o, st, &p,
			       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) /
			       1e9, NULL, &err) != 0)
		goto user_error;
	goto out;
user_error:
	rc = cli_user_error(&err);
out:
	analyze_free(a);
	stats_destroy(st);
	cli_wl_free(ws, nw);
	trace_list_free(tl);
	free(caps);
	cli_wl_opts_free(&o);
	return rc;
}
