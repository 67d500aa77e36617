/*
 * merge.h - the manifest of a result directory and the merge of its point files into one CSV.
 *
 * DIR/sweep.json, written by `gmsim sweep` before it runs or emits anything:
 *	{ "sweep": "sweeps/stride.sweep", "axes": [ "config", "workload", "stride" ],
 *	  "metrics": [ "dram.achieved_gbps", "coal.*" ], "points": [ ID, ... ] }
 *
 * DIR/results.csv: a header, then one row per point of the manifest that has a point file (in
 * manifest order): point, the axes (config, workload, override and param values), status, then
 * one column per metric. A metric without wildcards is one column even where no point has it
 * (empty cells); a pattern is expanded to the numeric statistics of the points that match it (a
 * distribution's parts too: load_latency_cycles.p99), in the order the runs registered them.
 * The header group "gmsim" of a run's statistics is not matched. Cells are the numbers as the run
 * wrote them; fields with a comma, a quote or a newline are quoted as RFC 4180 says.
 */
#ifndef SIM_MERGE_H
#define SIM_MERGE_H

#include <stddef.h>

#include "log.h"
#include "sweep.h"

/* Writes DIR/sweep.json for s (atomically). Returns 0, or -1 with err filled. */
int merge_write_manifest(const struct sweep *s, const char *out, struct sim_err *err);
/* Writes DIR/results.csv from the manifest and the point files; *rows rows written, *missing
 * points of the manifest without a file, *failed rows whose status is not ok. Returns 0, or -1
 * with err filled (no manifest, an unreadable file, the CSV cannot be written). */
int merge_results(const char *out, size_t *rows, size_t *missing, size_t *failed,
		  struct sim_err *err);

#endif /* SIM_MERGE_H */
