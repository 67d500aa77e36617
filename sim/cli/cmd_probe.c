/*
 * cmd_probe.c - `gmsim probe`: drive the whole memory hierarchy (L1, crossbar, L2, DRAM) with a
 * built-in pointer chase or stream, until the front end and workloads land.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "log.h"
#include "params.h"
#include "probe.h"
#include "sim.h"
#include "stats.h"

static const char usage[] =
	"Usage: gmsim probe [-c FILE] [-o group.key=value ...] --chase | --stream [options]\n"
	"\n"
	"Drives the memory hierarchy of the config with a built-in access pattern.\n"
	"\n"
	"  --chase                 dependent loads over a random cyclic order (latency)\n"
	"  --stream                whole-line loads from many SMs (bandwidth)\n"
	"  --footprint-kb N        bytes touched, KB (default 1024)\n"
	"  --sweep-kb LO:HI        chase: footprints LO, 2 LO, ... HI KB, one line each\n"
	"  --stride B              chase: bytes between slots (default 128)\n"
	"  --loads N               timed loads (default 2000 chase, 100000 stream)\n"
	"  --window N              stream: loads in flight per SM (default 32)\n"
	"  --sms N                 stream: SMs used (default all)\n"
	"  --stats-json FILE       every statistic of the (last) run as JSON\n"
	"  -c, --config FILE       configuration (default " CLI_DEFAULT_CONFIG ")\n"
	"  -o, --set group.key=VAL override one key; repeatable\n"
	"  -h, --help              this help\n";

enum { OPT_CHASE = 256, OPT_STREAM, OPT_FOOT, OPT_SWEEP, OPT_STRIDE, OPT_LOADS, OPT_WINDOW,
       OPT_SMS, OPT_JSON };

static int num(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return end == s || *end != '\0' || errno != 0 || s[0] == '-' ? -1 : 0;
}

/* One run on a fresh machine; prints nothing. */
static int run_one(const struct gpu_params *p, const struct probe_opts *o,
		   struct probe_result *r, const char *json, struct sim_err *err)
{
	struct sim *s = sim_create(p, err);
	int rc;

	if (s == NULL)
		return -1;
	rc = probe_run(s, o, r, err);
	if (rc == 0 && json != NULL) {
		sim_totals(s);
		rc = cli_write_stats(sim_stats(s), json, STATS_JSON, p, 0.0, NULL, 0, err);
	}
	sim_destroy(s);
	return rc;
}

int cmd_probe(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "set", required_argument, NULL, 'o' },
		{ "chase", no_argument, NULL, OPT_CHASE },
		{ "stream", no_argument, NULL, OPT_STREAM },
		{ "footprint-kb", required_argument, NULL, OPT_FOOT },
		{ "sweep-kb", required_argument, NULL, OPT_SWEEP },
		{ "stride", required_argument, NULL, OPT_STRIDE },
		{ "loads", required_argument, NULL, OPT_LOADS },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "sms", required_argument, NULL, OPT_SMS },
		{ "stats-json", required_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_config_opts co = { 0 };
	struct probe_opts o = { PROBE_CHASE, 1024 * 1024, 128, 0, 32, 0, 1 };
	uint64_t v, lo = 0, hi = 0, kb;
	const char *json = NULL;
	struct probe_result r;
	struct gpu_params p;
	struct sim_err err;
	int ch, kinds = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+c:o:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			co.path = optarg;
			break;
		case 'o':
			cli_config_opts_add_override(&co, optarg);
			break;
		case OPT_CHASE:
		case OPT_STREAM:
			o.kind = ch == OPT_CHASE ? PROBE_CHASE : PROBE_STREAM;
			kinds++;
			break;
		case OPT_SWEEP:
			if (sscanf(optarg, "%" SCNu64 ":%" SCNu64, &lo, &hi) != 2 || lo == 0 || hi < lo) {
				cli_config_opts_free(&co);
				return cli_usage_error("probe", "--sweep-kb: expected LO:HI with "
						       "0 < LO <= HI, got '%s'", optarg);
			}
			break;
		case OPT_JSON:
			json = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			cli_config_opts_free(&co);
			return SIM_EXIT_OK;
		case OPT_FOOT:
		case OPT_STRIDE:
		case OPT_LOADS:
		case OPT_WINDOW:
		case OPT_SMS:
			if (num(optarg, &v) != 0 || v > (1ull << 40)) {
				cli_config_opts_free(&co);
				return cli_usage_error("probe", "expected a non-negative integer, got '%s'",
						       optarg);
			}
			if (ch == OPT_FOOT)
				o.footprint = v * 1024;
			else if (ch == OPT_STRIDE)
				o.stride = (uint32_t)v;
			else if (ch == OPT_LOADS)
				o.loads = v;
			else if (ch == OPT_WINDOW)
				o.window = (uint32_t)v;
			else
				o.sms = (uint32_t)v;
			break;
		default:
			cli_config_opts_free(&co);
			return cli_usage_error("probe", "bad option");
		}
	}
	if (optind < argc || kinds != 1) {
		cli_config_opts_free(&co);
		return cli_usage_error("probe", optind < argc ? "unexpected argument" :
					"give exactly one of --chase and --stream");
	}
	if (cli_load_params(&co, &p, &err) != 0) {
		cli_config_opts_free(&co);
		return cli_user_error(&err);
	}
	cli_config_opts_free(&co);
	o.seed = p.sim.seed;
	if (o.loads == 0)
		o.loads = o.kind == PROBE_CHASE ? 2000 : 100000;
	if (o.kind == PROBE_STREAM) {
		if (run_one(&p, &o, &r, json, &err) != 0)
			return cli_user_error(&err);
		printf("stream: %" PRIu64 " line loads from %u SMs x %u in flight over %" PRIu64
		       " KB: %" PRIu64 " core cycles = %.1f ns, %.1f GB/s\n", r.loads,
		       o.sms != 0 && o.sms < p.gpu.sms ? o.sms : p.gpu.sms, o.window,
		       o.footprint / 1024, r.cycles, r.time_ns, r.gbps);
		return SIM_EXIT_OK;
	}
	if (lo == 0)
		lo = hi = o.footprint / 1024;
	printf("%12s %14s %10s %10s %10s\n", "footprint_kb", "latency_cycles", "p50", "p99",
	       "ns");
	for (kb = lo; kb <= hi; kb *= 2) {
		o.footprint = kb * 1024;
		if (run_one(&p, &o, &r, kb * 2 > hi ? json : NULL, &err) != 0)
			return cli_user_error(&err);
		printf("%12" PRIu64 " %14.1f %10.1f %10.1f %10.1f\n", kb, r.mean_cycles, r.p50_cycles,
		       r.p99_cycles, r.mean_ns);
		fflush(stdout);
	}
	return SIM_EXIT_OK;
}
