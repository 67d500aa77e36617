/*
 * cli.h - the subcommands of the gmsim binary and what they share.
 *
 * main.c only dispatches: each subcommand lives in one cli/cmd_*.c file, parses its own options
 * and returns the process exit code (SIM_EXIT_*). User errors print one message and return 1;
 * usage errors print the message and a pointer to --help and return 2.
 */
#ifndef SIM_CLI_H
#define SIM_CLI_H

#include <stddef.h>

#include "params.h"
#include "stats.h"

/* The config used when -c is not given, relative to the current directory. */
#define CLI_DEFAULT_CONFIG "configs/default.cfg"

struct cli_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

/* The table main.c dispatches from; NULL-terminated. Lists only working subcommands. */
extern const struct cli_cmd cli_cmds[];

int cmd_config(int argc, char **argv);
int cmd_dram(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_run(int argc, char **argv);

/* Prints "gmsim CMD: message" and "Try 'gmsim CMD --help'." to stderr; returns SIM_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints the error (every line of a multi-line config report) to stderr; returns SIM_EXIT_USER. */
int cli_user_error(const struct sim_err *err);

/* Writes st to path in format fmt with a header for config p and the run's host seconds.
 * Returns 0, or -1 with err filled (the file cannot be written). */
int cli_write_stats(const struct stats *st, const char *path, enum stats_format fmt,
		    const struct gpu_params *p, double host_seconds, struct sim_err *err);

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

#endif /* SIM_CLI_H */
