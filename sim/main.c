/*
 * main.c - gmsim's entry point: global options and dispatch to one subcommand in cli/.
 *
 * Exit codes: 0 ok, 1 user error (bad config, workload or trace), 2 usage, 3 watchdog (a
 * deadlock), 4 a run limit (--max-cycles, --max-host-seconds), 134 panic (a simulator bug);
 * doc/limits.md.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bulk.h"
#include "cli.h"
#include "log.h"
#include "text.h"

static void usage(FILE *out)
{
	const struct cli_cmd *c;

	fprintf(out, "Usage: gmsim [--help] [--version] COMMAND [ARGS]\n\n"
		     "gmsim is a cycle-level GPU memory-subsystem simulator.\n\nCommands:\n");
	for (c = cli_cmds; c->name != NULL; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fprintf(out, "\n'gmsim COMMAND --help' describes one command.\n");
}

int main(int argc, char **argv)
{
	const struct cli_cmd *c;
	const char *names[16];
	size_t n = 0;

	if (argc < 2) {
		usage(stderr);
		return SIM_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return SIM_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("gmsim %s\n", PACKAGE_VERSION);
		return SIM_EXIT_OK;
	}
	for (c = cli_cmds; c->name != NULL; c++) {
		if (strcmp(argv[1], c->name) == 0) {
			int rc = c->run(argc - 1, argv + 1);

			/* a command that ended well freed what it made: every bulk chunk is gone
			 * (valgrind's leak check sees plain blocks; this sees the chunks) */
			SIM_ASSERT(rc != SIM_EXIT_OK || bulk_chunks() == 0);
			return rc;
		}
		if (n < sizeof names / sizeof names[0])
			names[n++] = c->name;
	}
	{
		const char *s = text_suggest(argv[1], names, n);

		fprintf(stderr, "gmsim: unknown command '%s'%s%s%s\n", argv[1],
			s != NULL ? " (did you mean '" : "", s != NULL ? s : "",
			s != NULL ? "'?)" : "");
		fprintf(stderr, "Try 'gmsim --help'.\n");
	}
	return SIM_EXIT_USAGE;
}
