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

static const char usage[] =
	"Usage: gmsim config show  [-c FILE] [-o group.key=value ...]\n"
	"       gmsim config check [-c FILE] [-o group.key=value ...]\n"
	"       gmsim config doc\n"
	"\n"
	"  show    print the effective configuration: every key, defaults filled in\n"
	"  check   validate the configuration and print what it implies (clocks, DRAM)\n"
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
		{
			struct dram_spec spec;

			if (gpu_dram_spec(&p, &spec, &err) == 0)
				dram_spec_print(&spec, stdout);
		}
	}
	cli_config_opts_free(&o);
	return rc;
}
