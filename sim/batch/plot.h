/*
 * plot.h - the model-independent half of `gmsim plot`: reads a results.csv (merge.h's format, or
 * any CSV with a header), picks an x column, a numeric y column and an optional grouping column,
 * and writes a gnuplot data file and script. Running gnuplot is the caller's
 * (sim/cli/cmd_plot.c), so the files can be made here and plotted elsewhere.
 *
 * Rows: when the CSV has a "status" column, rows whose status is not "ok" are skipped (a failed
 * point has no statistics); every other row must have a number in y, and in x for a line chart
 * (a bar chart takes any x as its label). Two rows with the same x in one group are an error: an
 * axis that is neither x nor --by varies, and the chart would mix its values.
 *
 * Files, for OUT = NAME.svg or NAME.png:
 *	NAME.dat  line: one block per group ("# by = value", then "x y" rows sorted by x), blocks
 *	          separated by two blank lines (gnuplot's index); bar: one row per x value,
 *	          '"label" y_group1 y_group2 ...', "?" where a group has no row
 *	NAME.gp   the script: terminal svg or pngcairo, axis labels, one series per group; it names
 *	          NAME.dat and OUT without a directory, so it runs in the directory that holds them
 * Groups are in the order of their first row (ascending when all are numbers); a line chart's x values ascend, a bar chart's are
 * in first-row order (ascending when all are numbers). Cells are the CSV's text, unchanged.
 */
#ifndef SIM_PLOT_H
#define SIM_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "log.h"

enum plot_kind { PLOT_LINE, PLOT_BAR };

struct plot_spec {
	const char *csv;      /* the results.csv */
	const char *x, *y;    /* column names */
	const char *by;       /* grouping column, or NULL: one series */
	enum plot_kind kind;
	const char *out;      /* NAME.svg or NAME.png */
};

struct plot_files {
	char *gp, *dat;       /* the files written (NAME.gp, NAME.dat) */
	size_t groups;        /* series */
	size_t rows;          /* rows plotted */
	size_t skipped;       /* rows whose status is not ok */
};

/* True if out ends in ".svg" or ".png" (after at least one character). */
bool plot_out_ok(const char *out);
/* Reads s->csv and writes the .dat and .gp next to s->out. Returns 0 with *pf filled (free with
 * plot_files_free), or -1 with err filled: file:line: message for a missing file, a malformed
 * CSV, an unknown column (with a "did you mean" from the header), a cell that is not a number,
 * a repeated x, no row to plot, or a file that cannot be written. */
int plot_write(const struct plot_spec *s, struct plot_files *pf, struct sim_err *err);
void plot_files_free(struct plot_files *pf);

#endif /* SIM_PLOT_H */
