/*
 * cli.c - the subcommand table and the pieces every subcommand shares: error reporting with the
 * documented exit codes, and -c / -o handling.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "log.h"

const struct cli_cmd cli_cmds[] = {
	{ "config", "show, check or document a configuration", cmd_config },
	{ "run", "simulate a workload on the GPU of a config", cmd_run },
	{ "dram", "simulate the DRAM subsystem alone on a trace or pattern", cmd_dram },
	{ "probe", "drive the whole memory hierarchy with a pointer chase or a stream", cmd_probe },
	{ NULL, NULL, NULL },
};

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gmsim %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'gmsim %s --help'.\n", cmd);
	return SIM_EXIT_USAGE;
}

int cli_user_error(const struct sim_err *err)
{
	char buf[SIM_ERR_MSG_MAX + 300];

	fprintf(stderr, "gmsim: error: %s\n", sim_err_format(err, buf, sizeof buf));
	return SIM_EXIT_USER;
}

void cli_config_opts_add_override(struct cli_config_opts *o, const char *kv)
{
	o->overrides = xreallocarray(o->overrides, o->noverrides + 1, sizeof *o->overrides);
	o->overrides[o->noverrides++] = kv;
}

void cli_config_opts_free(struct cli_config_opts *o)
{
	free(o->overrides);
	o->overrides = NULL;
	o->noverrides = 0;
}

int cli_load_params(const struct cli_config_opts *o, struct gpu_params *p, struct sim_err *err)
{
	const char *path = o->path != NULL ? o->path : CLI_DEFAULT_CONFIG;

	if (gpu_params_load(p, path, o->overrides, o->noverrides, err) != 0) {
		if (o->path == NULL && err->line == 0 && strstr(err->msg, "cannot open") != NULL)
			sim_err_set(err, path, 0,
				    "%s (the default config, relative to the current directory; "
				    "give -c FILE)", err->msg);
		return -1;
	}
	return 0;
}

int cli_write_stats(const struct stats *st, const char *path, enum stats_format fmt,
		    const struct gpu_params *p, double host_seconds, struct sim_err *err)
{
	struct stats_header h = { PACKAGE_VERSION, cfg_hash(&gpu_schema, p), p->sim.seed, NULL,
				  host_seconds };
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	stats_dump(st, f, fmt, &h, 0);
	if (fclose(f) != 0)
		return sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	return 0;
}
