/*
 * cli.h - the subcommands of the gmsim binary and what they share.
 *
 * main.c only dispatches: each subcommand lives in one cli/cmd_*.c file, parses its own options
 * and returns the process exit code (SIM_EXIT_*). User errors print one message and return 1;
 * usage errors print the message and a pointer to --help and return 2.
 */
#ifndef SIM_CLI_H
#define SIM_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "params.h"
#include "stats.h"

/* The config used when -c is not given, relative to the current directory. */
#define CLI_DEFAULT_CONFIG "configs/default.cfg"
/* The workload `gmsim run` and `gmsim analyze` use when -w is not given. */
#define CLI_DEFAULT_WORKLOAD "workloads/stream_copy.wl"

struct cli_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

/* The table main.c dispatches from; NULL-terminated. Lists only working subcommands. */
extern const struct cli_cmd cli_cmds[];

int cmd_analyze(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_dram(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/* Prints "gmsim CMD: message" and "Try 'gmsim CMD --help'." to stderr; returns SIM_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints the error (every line of a multi-line config report) to stderr; returns SIM_EXIT_USER. */
int cli_user_error(const struct sim_err *err);

/* -j of sweep and validate, points at once: the CPUs online by default (1 if unknown), and
 * 1 .. CLI_JOBS_MAX. cli_jobs_opt sets *jobs from arg and returns 0, or for anything else prints
 * command cmd's usage error ("-j ARG: expected 1..1024 points at once") and returns
 * SIM_EXIT_USAGE. */
#define CLI_JOBS_MAX 1024
long cli_jobs_default(void);
int cli_jobs_opt(const char *cmd, const char *arg, long *jobs);

/* Writes st to path in format fmt with a header for config p and the run's host seconds;
 * partial (or NULL) says why the run stopped early; flags are stats_dump's (STATS_DUMP_NO_HOST).
 * Returns 0, or -1 with err filled (the file cannot be written). */
int cli_write_stats(const struct stats *st, const char *path, enum stats_format fmt,
		    const struct gpu_params *p, double host_seconds, const char *partial,
		    unsigned flags, struct sim_err *err);

/* -c FILE and repeated -o key=value, as every simulating subcommand takes them. */
struct cli_config_opts {
	const char *path;
	const char **overrides;
	size_t noverrides;
};
void cli_config_opts_add_override(struct cli_config_opts *o, const char *kv);
void cli_config_opts_free(struct cli_config_opts *o);
/* Loads and checks the config the options name. Returns 0, or -1 with err filled. */
int cli_load_params(const struct cli_config_opts *o, struct gpu_params *p, struct sim_err *err);
/* As cli_load_params, and hands over the loaded tree in *cfg when cfg is not NULL (for
 * cfg_origin; the caller destroys it). */
int cli_load_params_cfg(const struct cli_config_opts *o, struct gpu_params *p, struct cfg **cfg,
			struct sim_err *err);

/*
 * The options of the subcommands that take a workload (run, analyze): -c, -o, -w, -p,
 * --stats-json, --stats-csv, --stats-no-host. A subcommand lists CLI_WL_LONGOPTS in its option table and
 * CLI_WL_SHORTOPTS in its short option string, hands every option to cli_wl_opt first, and
 * numbers its own long-only options from CLI_OPT_FREE.
 */
enum { CLI_OPT_JSON = 256, CLI_OPT_CSV, CLI_OPT_NO_HOST, CLI_OPT_TRACE, CLI_OPT_ISA,
       CLI_OPT_STRICT, CLI_OPT_TRACE_MB, CLI_OPT_FREE };
#define CLI_WL_SHORTOPTS "c:o:w:p:"
#define CLI_WL_LONGOPTS                                            \
	{ "config", required_argument, NULL, 'c' },                \
	{ "set", required_argument, NULL, 'o' },                   \
	{ "workload", required_argument, NULL, 'w' },              \
	{ "param", required_argument, NULL, 'p' },                 \
	{ "stats-json", required_argument, NULL, CLI_OPT_JSON },   \
	{ "stats-csv", required_argument, NULL, CLI_OPT_CSV },      \
	{ "stats-no-host", no_argument, NULL, CLI_OPT_NO_HOST }
/* The usage lines of those options. */
#define CLI_WL_USAGE                                                                  \
	"  -w, --workload FILE     workload (.wl; default " CLI_DEFAULT_WORKLOAD ")\n"  \
	"  -p, --param NAME=VALUE  override a parameter of the workload of the last -w\n" \
	"                          before it (or of the first); repeatable\n"          \
	"  -c, --config FILE       configuration (default " CLI_DEFAULT_CONFIG ")\n"    \
	"  -o, --set group.key=VAL override one config key; repeatable\n"               \
	"  --stats-json FILE       every statistic as JSON\n"                           \
	"  --stats-csv FILE        every statistic as CSV\n"                            \
	"  --stats-no-host         leave the host's wall-clock values out of them, so that\n" \
	"                          two runs of the same inputs compare byte for byte\n"

/* The trace options of run and analyze (in their option tables after CLI_WL_LONGOPTS). */
#define CLI_TRACE_LONGOPTS                                         \
	{ "trace", required_argument, NULL, CLI_OPT_TRACE },       \
	{ "isa", required_argument, NULL, CLI_OPT_ISA },           \
	{ "strict", no_argument, NULL, CLI_OPT_STRICT },           \
	{ "max-trace-mb", required_argument, NULL, CLI_OPT_TRACE_MB }
#define CLI_TRACE_USAGE                                                                   \
	"  --trace LIST            an Accel-Sim trace instead of a workload: DIR/kernelslist.g\n" \
	"                          (or one kernel-N.traceg[.xz]); doc/trace.md\n"              \
	"  --isa FILE              opcode latency table (default " "data/isa/latency.cfg" ")\n"  \
	"  --strict                an opcode in no latency table is an error, not a warning\n" \
	"  --max-trace-mb N        ceiling on what one buffered thread block of the trace may\n" \
	"                          hold, MB (default 1024); a larger block is an error\n"

struct workload;
struct trace_list;

/* -w may repeat (gmsim run: kernels run in that order); a -p belongs to the workload of the
 * last -w before it, or to the first workload if no -w precedes it. */
struct cli_wl_opts {
	struct cli_config_opts co;
	const char **workloads;        /* none: CLI_DEFAULT_WORKLOAD */
	size_t nworkloads;
	const char **params;
	size_t *param_of;              /* params[i] belongs to workload param_of[i] */
	size_t nparams;
	const char *json, *csv;
	const char *trace, *isa;       /* --trace, --isa */
	bool strict;
	bool no_host;                  /* --stats-no-host */
	uint64_t max_trace_mb;         /* --max-trace-mb; 0: not given */
	bool bad_number;               /* an option's number did not parse */
};
/* Takes option ch (with its argument) if it is one of the above; false otherwise. */
bool cli_wl_opt(struct cli_wl_opts *o, int ch, const char *arg);
void cli_wl_opts_free(struct cli_wl_opts *o);
/* Loads the config and the workloads into a malloc'd array *ws of *nw (>= 1; free with
 * cli_wl_free). Returns 0, or -1 with err filled. */
int cli_wl_load(const struct cli_wl_opts *o, struct gpu_params *p, struct workload ***ws,
		size_t *nw, struct sim_err *err);
void cli_wl_free(struct workload **ws, size_t nw);
/* With --trace: loads the config and the trace list (*tl; free with trace_list_free). Returns 0,
 * or -1 with err filled. Usage errors (-w or -p with --trace) are the caller's to check. */
int cli_trace_load(const struct cli_wl_opts *o, struct gpu_params *p, struct trace_list **tl,
		   struct sim_err *err);
/* Per-SM L1 and total L2 (slices x slice) capacity of config p, in bytes. Returns 0, or -1
 * with err filled (the DRAM part of p does not resolve). */
int cli_cache_capacities(const struct gpu_params *p, uint64_t *l1, uint64_t *l2,
			 struct sim_err *err);
/* Writes --stats-json and --stats-csv if given. Returns 0, or -1 with err filled. */
int cli_wl_write_stats(const struct cli_wl_opts *o, const struct stats *st,
		       const struct gpu_params *p, double host_seconds, const char *partial,
		       struct sim_err *err);

#endif /* SIM_CLI_H */
