/*
 * cmd_config.c - `gmsim config show|check|doc`: the effective config, what a config implies,
 * and the Markdown reference of every key.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "cli.h"
#include "clock.h"
#include "log.h"
#include "params.h"
#include "probe.h"
#include "sim.h"

/* Peak bandwidths from the parameters and unloaded latencies measured on a fresh machine. */
static void print_hierarchy(const struct gpu_params *p, const struct dram_spec *spec)
{
	double core = 1e6 / (double)clock_period_from_mhz(p->clock.core_mhz) / 1e3; /* GHz */
	double xb = 1e6 / (double)clock_period_from_mhz(p->clock.xbar_mhz) / 1e3;
	double l2c = 1e6 / (double)clock_period_from_mhz(p->clock.l2_mhz) / 1e3;
	uint32_t slices = spec->channels * p->gpu.l2_slices_per_channel;
	uint32_t ports = slices < p->gpu.sms ? slices : p->gpu.sms;
	double tck_ns = (double)clock_period_from_mhz(p->clock.core_mhz) / 1000.0;
	double l1 = p->l1.lookups_per_cycle * (double)p->l1.cache.line_bytes * core;
	struct probe_unloaded u;
	struct sim_err err;
	struct sim *s;

	printf("hierarchy: %u SMs, L1 %u KB per SM (%u-way), %u L2 slices x %u KB = %.1f MB "
	       "(%u-way)\n", p->gpu.sms, p->l1.cache.size_kb, p->l1.cache.assoc, slices,
	       p->l2.cache.size_kb, slices * (double)p->l2.cache.size_kb / 1024.0,
	       p->l2.cache.assoc);
	printf("  peak GB/s: L1 %.1f per SM, %.0f in all; crossbar requests %.0f, replies %.0f; "
	       "L2 %.0f; DRAM %.1f\n", l1, l1 * p->gpu.sms,
	       ports * (double)p->xbar.req_port_bytes * xb,
	       ports * (double)p->xbar.reply_port_bytes * xb,
	       slices * (double)p->l2.lookups_per_cycle * p->l2.cache.line_bytes * l2c,
	       spec->peak_gbps);
	{
		/* Unloaded means no refresh either: a refresh of the bank would close its row. */
		struct gpu_params q = *p;

		q.mc.refresh = MC_REFRESH_OFF;
		s = sim_create(&q, &err);
	}
	if (s == NULL || probe_unloaded(s, &u, &err) != 0) {
		printf("  unloaded latency: not measured (%s)\n", err.msg);
	} else {
		printf("  unloaded load latency (refresh off), core cycles (ns): L1 hit %.0f (%.1f), "
		       "L2 hit %.0f "
		       "(%.1f), DRAM row hit %.0f (%.1f), row miss %.0f (%.1f)\n",
		       u.l1_hit, u.l1_hit * tck_ns, u.l2_hit, u.l2_hit * tck_ns, u.dram_row_hit,
		       u.dram_row_hit * tck_ns, u.dram_row_miss, u.dram_row_miss * tck_ns);
	}
	sim_destroy(s);
}

/* The fixed-latency memory (memory.model = "fixed"): its latency and peak rate; the cache and
 * DRAM groups are checked but build nothing. Lines are the coalescer's 128 B. */
static void print_fixed_memory(const struct gpu_params *p)
{
	double core = 1e6 / (double)clock_period_from_mhz(p->clock.core_mhz) / 1e3; /* GHz */
	double per_sm = p->memory.requests_per_cycle * 128.0 * core;

	printf("memory: fixed latency, %u core cycles (%.1f ns) from a line request accepted to "
	       "its reply, %u as the SM sees it (one link cycle each way)\n",
	       p->memory.latency_cycles, p->memory.latency_cycles / core,
	       p->memory.latency_cycles + 2);
	printf("  %u line request%s per core cycle per SM: peak %.1f GB/s per SM of 128 B lines, "
	       "%.0f in all; no cache or DRAM is simulated\n", p->memory.requests_per_cycle,
	       p->memory.requests_per_cycle == 1 ? "" : "s", per_sm, per_sm * p->gpu.sms);
}

static const char usage[] =
	"Usage: gmsim config show  [-c FILE] [-o group.key=value ...]\n"
	"       gmsim config check [-c FILE] [-o group.key=value ...]\n"
	"       gmsim config doc\n"
	"\n"
	"  show    print the effective configuration: every key, defaults filled in\n"
	"  check   validate the configuration and print what it implies: clocks, DRAM, peak\n"
	"          bandwidths, unloaded latencies of each level\n"
	"  doc     print the Markdown reference of every group and key\n"
	"\n"
	"  -c, --config FILE        configuration file (default " CLI_DEFAULT_CONFIG ")\n"
	"  -o, --set group.key=VAL  override one key; repeatable\n"
	"  -h, --help               this help\n";

static void print_clocks(const struct gpu_params *p)
{
	int d;

	printf("clock domains (each frequency rounded once to an integer period):\n");
	printf("  %-6s %14s %10s %12s %9s\n", "domain", "requested MHz", "period ps", "actual MHz",
	       "error");
	for (d = 0; d < GPU_CLK_COUNT; d++) {
		double mhz = gpu_clock_mhz(p, (enum gpu_clock_domain)d);
		tick_t period = clock_period_from_mhz(mhz);
		double actual = 1e6 / (double)period;

		if (d == GPU_CLK_DRAM) { /* derived from the data rate, already a whole period */
			printf("  %-6s %14s %10" PRIu64 " %12.3f %9s\n",
			       gpu_clock_name((enum gpu_clock_domain)d), "(data rate)", period, actual,
			       "-");
			continue;
		}
		printf("  %-6s %14.3f %10" PRIu64 " %12.3f %+8.3f%%\n",
		       gpu_clock_name((enum gpu_clock_domain)d), mhz, period, actual,
		       100.0 * (actual - mhz) / mhz);
	}
}

int cmd_config(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "set", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_config_opts o = { 0 };
	struct gpu_params p;
	struct sim_err err;
	const char *action;
	int ch, rc = SIM_EXIT_OK;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? SIM_EXIT_USAGE : SIM_EXIT_OK;
	}
	action = argv[1];
	if (strcmp(action, "show") != 0 && strcmp(action, "check") != 0 &&
	    strcmp(action, "doc") != 0)
		return cli_usage_error("config", "unknown action '%s' (expected show, check or doc)",
				       action);
	argc--;
	argv++;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+c:o:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			o.path = optarg;
			break;
		case 'o':
			cli_config_opts_add_override(&o, optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			cli_config_opts_free(&o);
			return SIM_EXIT_OK;
		default:
			cli_config_opts_free(&o);
			return cli_usage_error("config", "bad option");
		}
	}
	if (optind < argc) {
		cli_config_opts_free(&o);
		return cli_usage_error("config", "unexpected argument '%s'", argv[optind]);
	}
	if (strcmp(action, "doc") == 0) {
		if (o.path != NULL || o.noverrides > 0) {
			cli_config_opts_free(&o);
			return cli_usage_error("config", "doc takes no -c or -o");
		}
		cfg_write_doc(stdout, &gpu_schema);
		return SIM_EXIT_OK;
	}
	if (cli_load_params(&o, &p, &err) != 0) {
		rc = cli_user_error(&err);
	} else if (strcmp(action, "show") == 0) {
		cfg_write_effective(stdout, &gpu_schema, &p);
	} else {
		printf("%s: ok\n", o.path != NULL ? o.path : CLI_DEFAULT_CONFIG);
		printf("gpu: %s\n", p.gpu.name);
		printf("config hash: 0x%016" PRIx64 "\n", cfg_hash(&gpu_schema, &p));
		print_clocks(&p);
		if (p.memory.model == GPU_MEM_FIXED) {
			print_fixed_memory(&p);
		} else {
			struct dram_spec spec;

			if (gpu_dram_spec(&p, &spec, &err) == 0) {
				dram_spec_print(&spec, stdout);
				print_hierarchy(&p, &spec);
			}
		}
	}
	cli_config_opts_free(&o);
	return rc;
}
