/*
 * cmd_dram.c - `gmsim dram`: the DRAM subsystem on its own, driven by a trace (DRAMsim3,
 * Ramulator or native format, auto-detected) or a synthetic pattern.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dram_sim.h"
#include "dram_trace.h"
#include "log.h"
#include "params.h"

static const char usage[] =
	"Usage: gmsim dram [-c FILE] [-o group.key=value ...] (--trace FILE | --pattern KIND)\n"
	"                  [options]\n"
	"\n"
	"Simulates the memory controllers and DRAM channels of the config on their own.\n"
	"\n"
	"  -c, --config FILE          configuration (default " CLI_DEFAULT_CONFIG ")\n"
	"  -o, --set group.key=VAL    override one key; repeatable\n"
	"  -t, --trace FILE           trace: DRAMsim3 `0xADDR READ|WRITE CYCLE`, Ramulator\n"
	"                             `LD|ST ADDR` or `ADDR R|W`, native `CYCLE R|W ADDR [BYTES]`\n"
	"  -p, --pattern KIND         synthetic stream: stream, random or strided\n"
	"      --requests N           pattern: requests (default 100000)\n"
	"      --footprint BYTES      pattern: address range (default 4 GiB; k/M/G suffixes)\n"
	"      --stride BYTES         strided: distance between requests (default 4096)\n"
	"      --bytes N              request size where the trace gives none (default 64)\n"
	"      --write-fraction F     pattern: share of writes, 0..1 (default 0)\n"
	"      --seed N               pattern seed (default: sim.seed of the config)\n"
	"      --requests-per-cycle N front-end requests per DRAM cycle (default 0 = as many\n"
	"                             as the controllers accept)\n"
	"      --frontend-buffer N    accesses per channel held back while the trace goes on to\n"
	"                             other channels (default 1024; 0 = strictly in order)\n"
	"      --max-cycles N         stop after N DRAM cycles\n"
	"      --check                replay every command through the timing-rule checker\n"
	"      --stats-json FILE      write every statistic as JSON\n"
	"      --stats-csv FILE       write every statistic as CSV\n"
	"      --stats-no-host        leave the host's values (seconds, events) out of them,\n"
	"                             so that two runs of the same inputs compare byte for byte\n"
	"  -h, --help                 this help\n"
	"\n"
	"Exit status: 0 done (also at --max-cycles), 1 bad input, 2 bad command line, 3 watchdog\n"
	"(sim.watchdog_cycles DRAM cycles with requests left and none accepted or completed: a\n"
	"deadlock; the controllers with work on stderr).\n";

/* Parses a count with an optional k/M/G (binary) suffix. */
static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (end == s || errno != 0 || s[0] == '-')
		return -1;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end != '\0')
		return -1;
	*out = v;
	return 0;
}

enum {
	OPT_REQUESTS = 256, OPT_FOOTPRINT, OPT_STRIDE, OPT_BYTES, OPT_WRITE_FRACTION, OPT_SEED,
	OPT_RPC, OPT_MAX_CYCLES, OPT_CHECK, OPT_JSON, OPT_CSV, OPT_FEBUF, OPT_NO_HOST,
};

int cmd_dram(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "set", required_argument, NULL, 'o' },
		{ "trace", required_argument, NULL, 't' },
		{ "pattern", required_argument, NULL, 'p' },
		{ "requests", required_argument, NULL, OPT_REQUESTS },
		{ "footprint", required_argument, NULL, OPT_FOOTPRINT },
		{ "stride", required_argument, NULL, OPT_STRIDE },
		{ "bytes", required_argument, NULL, OPT_BYTES },
		{ "write-fraction", required_argument, NULL, OPT_WRITE_FRACTION },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "requests-per-cycle", required_argument, NULL, OPT_RPC },
		{ "max-cycles", required_argument, NULL, OPT_MAX_CYCLES },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "stats-json", required_argument, NULL, OPT_JSON },
		{ "stats-csv", required_argument, NULL, OPT_CSV },
		{ "frontend-buffer", required_argument, NULL, OPT_FEBUF },
		{ "stats-no-host", no_argument, NULL, OPT_NO_HOST },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_config_opts co = { 0 };
	struct dram_pattern_params pat = { DRAM_PATTERN_STREAM, 100000, 4ull << 30, 0, 64, 0.0, 0 };
	struct dram_sim_opts so = { 0, 1024, false, 0, 0, 0 };
	const char *trace_path = NULL, *json = NULL, *csv = NULL;
	unsigned dump_flags = 0;
	double host;
	const char *partial;
	int run_rc;
	bool have_pattern = false, have_seed = false, have_stride = false;
	struct gpu_params p;
	struct sim_err err;
	struct dram_trace *t;
	struct dram_sim *ds;
	uint64_t v;
	char *end;
	int ch, rc = SIM_EXIT_OK;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+c:o:t:p:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			co.path = optarg;
			break;
		case 'o':
			cli_config_opts_add_override(&co, optarg);
			break;
		case 't':
			trace_path = optarg;
			break;
		case 'p': {
			int k = dram_pattern_kind_parse(optarg);

			if (k < 0) {
				cli_config_opts_free(&co);
				return cli_usage_error("dram", "--pattern: expected stream, random or "
						       "strided, got '%s'", optarg);
			}
			pat.kind = (enum dram_pattern_kind)k;
			have_pattern = true;
			break;
		}
		case OPT_REQUESTS:
		case OPT_FOOTPRINT:
		case OPT_STRIDE:
		case OPT_BYTES:
		case OPT_SEED:
		case OPT_RPC:
		case OPT_MAX_CYCLES:
			if (parse_size(optarg, &v) != 0 ||
			    ((ch == OPT_BYTES || ch == OPT_RPC) && v > 1000000)) {
				cli_config_opts_free(&co);
				return cli_usage_error("dram", "--%s: expected a non-negative integer, "
						       "got '%s'", longopts[ch - OPT_REQUESTS + 4].name,
						       optarg);
			}
			if (ch == OPT_REQUESTS)
				pat.count = v;
			else if (ch == OPT_FOOTPRINT)
				pat.footprint = v;
			else if (ch == OPT_STRIDE) {
				pat.stride = v;
				have_stride = true;
			} else if (ch == OPT_BYTES)
				pat.bytes = (uint32_t)v;
			else if (ch == OPT_SEED) {
				pat.seed = v;
				have_seed = true;
			} else if (ch == OPT_RPC)
				so.requests_per_cycle = (uint32_t)v;
			else
				so.max_cycles = v;
			break;
		case OPT_WRITE_FRACTION:
			pat.write_fraction = strtod(optarg, &end);
			if (*end != '\0' || end == optarg || !(pat.write_fraction >= 0.0) ||
			    pat.write_fraction > 1.0) {
				cli_config_opts_free(&co);
				return cli_usage_error("dram", "--write-fraction: expected a number in "
						       "0..1, got '%s'", optarg);
			}
			break;
		case OPT_FEBUF:
			if (parse_size(optarg, &v) != 0 || v > 65536) {
				cli_config_opts_free(&co);
				return cli_usage_error("dram", "--frontend-buffer: expected an integer "
						       "in 0..65536, got '%s'", optarg);
			}
			so.frontend_buffer = (uint32_t)v;
			break;
		case OPT_CHECK:
			so.check = true;
			break;
		case OPT_JSON:
			json = optarg;
			break;
		case OPT_CSV:
			csv = optarg;
			break;
		case OPT_NO_HOST:
			dump_flags = STATS_DUMP_NO_HOST;
			break;
		case 'h':
			fputs(usage, stdout);
			cli_config_opts_free(&co);
			return SIM_EXIT_OK;
		default:
			cli_config_opts_free(&co);
			return cli_usage_error("dram", "bad option");
		}
	}
	if (optind < argc) {
		cli_config_opts_free(&co);
		return cli_usage_error("dram", "unexpected argument '%s'", argv[optind]);
	}
	if ((trace_path != NULL) == have_pattern) {
		cli_config_opts_free(&co);
		return cli_usage_error("dram", "give exactly one of --trace FILE and --pattern KIND");
	}
	if (cli_load_params(&co, &p, &err) != 0) {
		cli_config_opts_free(&co);
		return cli_user_error(&err);
	}
	cli_config_opts_free(&co);
	if (!have_seed)
		pat.seed = p.sim.seed;
	if (pat.kind == DRAM_PATTERN_STRIDED && !have_stride)
		pat.stride = 4096;
	so.watchdog_cycles = p.sim.watchdog_cycles; /* here DRAM cycles */
	so.lose_read = p.sim.fault_lose_dram_read;
	t = trace_path != NULL ? dram_trace_open(trace_path, pat.bytes, &err)
			       : dram_trace_pattern(&pat, &err);
	if (t == NULL)
		return cli_user_error(&err);
	ds = dram_sim_create(&p.dram, &p.dram_timing, &p.dram_map, &p.mc, &so, &err);
	if (ds == NULL) {
		dram_trace_close(t);
		return cli_user_error(&err);
	}
	run_rc = dram_sim_run(ds, t, &err);
	if (run_rc != 0 && dram_sim_watchdog_fired(ds)) {
		char buf[SIM_ERR_MSG_MAX + 300];

		/* What was done before it stopped (its statistics marked partial), then why; the
		 * state of the controllers is on stderr already. */
		dram_sim_report(ds, stdout);
		fprintf(stderr, "gmsim: %s\n", sim_err_format(&err, buf, sizeof buf));
		rc = SIM_EXIT_WATCHDOG;
	} else if (run_rc != 0) {
		/* Report what was done before the bad record, then the error. */
		dram_sim_report(ds, stdout);
		printf("trace stopped at a bad record after %" PRIu64 " records\n",
		       dram_trace_records(t));
		rc = cli_user_error(&err);
	} else {
		printf("%s: %" PRIu64 " records (%s)\n",
		       trace_path != NULL ? trace_path : "pattern", dram_trace_records(t),
		       dram_trace_format_name(dram_trace_format(t)));
		dram_sim_report(ds, stdout);
		if (dram_sim_hit_limit(ds))
			printf("stopped at --max-cycles %" PRIu64 " with requests in flight\n",
			       so.max_cycles);
	}
	if (so.check) {
		const char *first;
		uint64_t bad = dram_sim_check_violations(ds, &first);

		printf("command checker: %" PRIu64 " commands, %" PRIu64 " violations%s%s\n",
		       dram_sim_checked_commands(ds), bad, bad != 0 ? "; first: " : "", first);
		if (bad != 0)
			sim_panic("DRAM command stream violates the timing rules: %s", first);
	}
	host = dram_sim_host_seconds(ds);
	partial = dram_sim_watchdog_fired(ds) ? "watchdog" : NULL;
	if ((json != NULL && cli_write_stats(dram_sim_stats(ds), json, STATS_JSON, &p, host,
					     partial, dump_flags, &err) != 0) ||
	    (csv != NULL && cli_write_stats(dram_sim_stats(ds), csv, STATS_CSV, &p, host, partial,
					    dump_flags, &err) != 0))
		rc = cli_user_error(&err);
	dram_sim_destroy(ds);
	dram_trace_close(t);
	return rc;
}
