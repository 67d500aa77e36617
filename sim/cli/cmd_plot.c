/*
 * cmd_plot.c - `gmsim plot`: a line or bar chart of one column of a results.csv against another,
 * one series per value of a third, through gnuplot. The data file and script come from
 * sim/batch/plot.h; this file parses the command line, finds gnuplot on PATH and runs it in the
 * directory of the files. Without gnuplot the two files are still written and the message says
 * how to make the chart elsewhere (exit 0).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "log.h"
#include "plot.h"

static const char usage[] =
	"Usage: gmsim plot RESULTS.csv --x COLUMN --y COLUMN [--by COLUMN] [--out FILE.svg|.png]\n"
	"                  [--kind line|bar]\n"
	"\n"
	"Plots column --y against column --x of a results.csv (as `gmsim sweep` writes it), one\n"
	"series per value of --by, with gnuplot. Rows whose status is not ok are left out.\n"
	"Writes FILE.dat and FILE.gp next to the chart and runs gnuplot if it is on PATH;\n"
	"otherwise says so and leaves the two files to plot elsewhere (`gnuplot FILE.gp`).\n"
	"\n"
	"  --x COLUMN          the horizontal axis (a number; any label for --kind bar)\n"
	"  --y COLUMN          the vertical axis (a number)\n"
	"  --by COLUMN         one series per value of COLUMN (default: one series)\n"
	"  --out FILE          FILE.svg or FILE.png (default: Y-vs-X[-by-BY].svg next to the CSV)\n"
	"  --kind line|bar     lines through the points (default), or clustered bars\n"
	"  -h, --help          this help\n"
	"\n"
	"Exit status: 0 ok (also when gnuplot is missing), 1 bad input or gnuplot failed, 2 usage.\n";

enum { OPT_X = 256, OPT_Y, OPT_BY, OPT_OUT, OPT_KIND };

/* True if an executable named name is in a directory of PATH. */
static bool on_path(const char *name)
{
	const char *p = getenv("PATH"), *colon;
	char buf[PATH_MAX];

	if (p == NULL)
		return false;
	for (; ; p = colon + 1) {
		size_t n;

		colon = strchr(p, ':');
		n = colon != NULL ? (size_t)(colon - p) : strlen(p);
		if (n > 0 && (size_t)snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, name) <
				     sizeof buf && access(buf, X_OK) == 0)
			return true;
		if (colon == NULL)
			return false;
	}
}

/* Runs `gnuplot GP` in GP's directory. Returns 0, or -1 with err filled. */
static int run_gnuplot(const char *gp, struct sim_err *err)
{
	const char *slash = strrchr(gp, '/');
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return sim_err_set(err, gp, 0, "cannot start gnuplot: %s", strerror(errno));
	if (pid == 0) {
		if (slash != NULL) {
			char *dir = xstrdup(gp);

			dir[slash - gp] = '\0';
			if (chdir(slash == gp ? "/" : dir) != 0)
				_exit(126);
		}
		execlp("gnuplot", "gnuplot", slash != NULL ? slash + 1 : gp, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return sim_err_set(err, gp, 0, "waiting for gnuplot: %s", strerror(errno));
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	return sim_err_set(err, gp, 0, "gnuplot failed (%s %d); the script and its data are kept",
			   WIFEXITED(st) ? "exit status" : "signal",
			   WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

int cmd_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "x", required_argument, NULL, OPT_X },
		{ "y", required_argument, NULL, OPT_Y },
		{ "by", required_argument, NULL, OPT_BY },
		{ "out", required_argument, NULL, OPT_OUT },
		{ "kind", required_argument, NULL, OPT_KIND },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct plot_spec s;
	struct plot_files pf;
	struct sim_err err;
	char *def_out = NULL;
	int ch, rc;

	memset(&s, 0, sizeof s);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_X: s.x = optarg; continue;
		case OPT_Y: s.y = optarg; continue;
		case OPT_BY: s.by = optarg; continue;
		case OPT_OUT: s.out = optarg; continue;
		case OPT_KIND:
			if (strcmp(optarg, "line") == 0)
				s.kind = PLOT_LINE;
			else if (strcmp(optarg, "bar") == 0)
				s.kind = PLOT_BAR;
			else
				return cli_usage_error("plot", "--kind %s: expected line or bar",
						       optarg);
			continue;
		case 'h':
			fputs(usage, stdout);
			return SIM_EXIT_OK;
		default:
			return cli_usage_error("plot", "bad option");
		}
	}
	if (optind < argc)
		s.csv = argv[optind++];
	if (optind < argc)
		return cli_usage_error("plot", "unexpected argument '%s'", argv[optind]);
	if (s.csv == NULL)
		return cli_usage_error("plot", "give a results.csv");
	if (s.x == NULL || s.y == NULL)
		return cli_usage_error("plot", "give --x COLUMN and --y COLUMN");
	if (s.out != NULL && !plot_out_ok(s.out))
		return cli_usage_error("plot", "--out %s: expected a name ending in .svg or .png",
				       s.out);
	if (s.out == NULL) {
		const char *slash = strrchr(s.csv, '/');
		int dl = slash != NULL ? (int)(slash - s.csv + 1) : 0;
		size_t n = (size_t)dl + strlen(s.y) + strlen(s.x) + (s.by ? strlen(s.by) : 0) + 16;

		def_out = xmalloc(n);
		snprintf(def_out, n, "%.*s%s-vs-%s%s%s.svg", dl, s.csv, s.y, s.x,
			 s.by != NULL ? "-by-" : "", s.by != NULL ? s.by : "");
		s.out = def_out;
	}
	if (plot_write(&s, &pf, &err) != 0) {
		free(def_out);
		return cli_user_error(&err);
	}
	printf("%s, %s: %zu rows in %zu series", pf.dat, pf.gp, pf.rows, pf.groups);
	if (pf.skipped > 0)
		printf("; %zu not ok, left out", pf.skipped);
	putchar('\n');
	rc = SIM_EXIT_OK;
	if (!on_path("gnuplot")) {
		fprintf(stderr, "gmsim plot: gnuplot is not on PATH, so no %s: wrote %s and %s; "
			"run `gnuplot %s` where gnuplot is installed, in the directory that holds "
			"both files\n", s.out, pf.gp, pf.dat, strrchr(pf.gp, '/') != NULL ?
			strrchr(pf.gp, '/') + 1 : pf.gp);
	} else if (run_gnuplot(pf.gp, &err) != 0) {
		rc = cli_user_error(&err);
	} else {
		printf("%s\n", s.out);
	}
	plot_files_free(&pf);
	free(def_out);
	return rc;
}
