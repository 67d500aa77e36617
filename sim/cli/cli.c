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
#include <unistd.h>

#include "cli.h"
#include "log.h"
#include "trace.h"
#include "workload.h"

const struct cli_cmd cli_cmds[] = {
	{ "config", "show, check or document a configuration", cmd_config },
	{ "run", "simulate a workload on the GPU of a config", cmd_run },
	{ "analyze", "coalescing and reuse-distance analysis of a workload, no timing",
	  cmd_analyze },
	{ "dram", "simulate the DRAM subsystem alone on a trace or pattern", cmd_dram },
	{ "probe", "drive the whole memory hierarchy with a pointer chase or a stream", cmd_probe },
	{ "validate", "compare microbenchmark runs with measured GPU data", cmd_validate },
	{ "sweep", "run a sweep file's points (configs x workloads x axes), each its own process",
	  cmd_sweep },
	{ "plot", "chart one results.csv column against another (gnuplot)", cmd_plot },
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

long cli_jobs_default(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
}

int cli_jobs_opt(const char *cmd, const char *arg, long *jobs)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || errno != 0 || v < 1 || v > CLI_JOBS_MAX)
		return cli_usage_error(cmd, "-j %s: expected 1..%d points at once", arg,
				       CLI_JOBS_MAX);
	*jobs = v;
	return 0;
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
	return cli_load_params_cfg(o, p, NULL, err);
}

int cli_load_params_cfg(const struct cli_config_opts *o, struct gpu_params *p, struct cfg **cfg,
			struct sim_err *err)
{
	const char *path = o->path != NULL ? o->path : CLI_DEFAULT_CONFIG;

	if (gpu_params_load_cfg(p, path, o->overrides, o->noverrides, cfg, err) != 0) {
		if (o->path == NULL && err->line == 0 && strstr(err->msg, "cannot open") != NULL) {
			char why[SIM_ERR_MSG_MAX];

			snprintf(why, sizeof why, "%s", err->msg); /* err->msg is rewritten */
			sim_err_set(err, path, 0,
				    "%s (the default config, relative to the current directory; "
				    "give -c FILE)", why);
		}
		return -1;
	}
	return 0;
}

int cli_write_stats(const struct stats *st, const char *path, enum stats_format fmt,
		    const struct gpu_params *p, double host_seconds, const char *partial,
		    unsigned flags, struct sim_err *err)
{
	struct stats_header h = { PACKAGE_VERSION, cfg_hash(&gpu_schema, p), p->sim.seed, NULL,
				  host_seconds, partial };
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	stats_dump(st, f, fmt, &h, flags);
	if (fclose(f) != 0)
		return sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
	return 0;
}

bool cli_wl_opt(struct cli_wl_opts *o, int ch, const char *arg)
{
	switch (ch) {
	case 'c':
		o->co.path = arg;
		return true;
	case 'o':
		cli_config_opts_add_override(&o->co, arg);
		return true;
	case 'w':
		o->workloads = xreallocarray(o->workloads, o->nworkloads + 1, sizeof *o->workloads);
		o->workloads[o->nworkloads++] = arg;
		return true;
	case 'p':
		o->params = xreallocarray(o->params, o->nparams + 1, sizeof *o->params);
		o->param_of = xreallocarray(o->param_of, o->nparams + 1, sizeof *o->param_of);
		o->param_of[o->nparams] = o->nworkloads > 0 ? o->nworkloads - 1 : 0;
		o->params[o->nparams++] = arg;
		return true;
	case CLI_OPT_JSON:
		o->json = arg;
		return true;
	case CLI_OPT_CSV:
		o->csv = arg;
		return true;
	case CLI_OPT_TRACE:
		o->trace = arg;
		return true;
	case CLI_OPT_ISA:
		o->isa = arg;
		return true;
	case CLI_OPT_STRICT:
		o->strict = true;
		return true;
	case CLI_OPT_NO_HOST:
		o->no_host = true;
		return true;
	case CLI_OPT_TRACE_MB: {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(arg, &end, 10);
		/* up to 2^40 MB (a petabyte): the ceiling in bytes must fit 64 bits */
		if (errno != 0 || end == arg || *end != '\0' || arg[0] == '-' || v == 0 ||
		    v > (1ull << 40))
			o->bad_number = true;
		o->max_trace_mb = v;
		return true;
	}
	default:
		return false;
	}
}

void cli_wl_opts_free(struct cli_wl_opts *o)
{
	cli_config_opts_free(&o->co);
	free(o->workloads);
	free(o->params);
	free(o->param_of);
	o->workloads = NULL;
	o->params = NULL;
	o->param_of = NULL;
	o->nworkloads = o->nparams = 0;
}

int cli_wl_load(const struct cli_wl_opts *o, struct gpu_params *p, struct workload ***ws,
		size_t *nw, struct sim_err *err)
{
	size_t n = o->nworkloads > 0 ? o->nworkloads : 1, k, i;
	const char **mine = xcalloc(o->nparams + 1, sizeof *mine);

	*ws = NULL;
	*nw = 0;
	if (cli_load_params(&o->co, p, err) != 0) {
		free(mine);
		return -1;
	}
	*ws = xcalloc(n, sizeof **ws);
	for (k = 0; k < n; k++) {
		const char *path = o->nworkloads > 0 ? o->workloads[k] : CLI_DEFAULT_WORKLOAD;
		size_t m = 0;

		for (i = 0; i < o->nparams; i++)
			if (o->param_of[i] == k)
				mine[m++] = o->params[i];
		(*ws)[k] = workload_load(path, mine, m, err);
		if ((*ws)[k] == NULL) {
			if (o->nworkloads == 0 && err->line == 0 &&
			    strstr(err->msg, "cannot") != NULL) {
				char why[SIM_ERR_MSG_MAX];

				snprintf(why, sizeof why, "%s", err->msg); /* err->msg is rewritten */
				sim_err_set(err, path, 0, "%s (the default workload, relative to "
					    "the current directory; give -w FILE)", why);
			}
			cli_wl_free(*ws, k);
			*ws = NULL;
			free(mine);
			return -1;
		}
	}
	free(mine);
	*nw = n;
	return 0;
}

int cli_trace_load(const struct cli_wl_opts *o, struct gpu_params *p, struct trace_list **tl,
		   struct sim_err *err)
{
	*tl = NULL;
	if (cli_load_params(&o->co, p, err) != 0)
		return -1;
	if (trace_list_load(o->trace, o->isa, o->strict, tl, err) != 0)
		return -1;
	if (o->max_trace_mb != 0)
		(*tl)->max_block_bytes = o->max_trace_mb << 20;
	return 0;
}

void cli_wl_free(struct workload **ws, size_t nw)
{
	size_t k;

	for (k = 0; k < nw && ws != NULL; k++)
		workload_free(ws[k]);
	free(ws);
}

int cli_wl_write_stats(const struct cli_wl_opts *o, const struct stats *st,
		       const struct gpu_params *p, double host_seconds, const char *partial,
		       struct sim_err *err)
{
	unsigned flags = o->no_host ? STATS_DUMP_NO_HOST : 0;

	if (o->json != NULL && cli_write_stats(st, o->json, STATS_JSON, p, host_seconds, partial,
					       flags, err) != 0)
		return -1;
	if (o->csv != NULL && cli_write_stats(st, o->csv, STATS_CSV, p, host_seconds, partial,
					      flags, err) != 0)
		return -1;
	return 0;
}
