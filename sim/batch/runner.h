/*
 * runner.h - runs sweep points (sweep.h) as child processes and records each one's result.
 *
 * Result directory DIR:
 *	DIR/points/ID.json   one file per finished point (format below), written atomically: to
 *	                     DIR/tmp first, fsync'd, renamed, and the directory fsync'd, so a
 *	                     point file is either whole or absent, whatever kills the runner
 *	DIR/tmp/             the children's statistics and stderr while they run
 *	DIR/sweep.json       the manifest (merge.h), DIR/results.csv the merged table
 *
 * Each point is its own process: the gmsim binary (/proc/self/exe) exec'd as
 * `gmsim run -q -c CONFIG -w WORKLOAD [-p ...] [-o ...] --stats-json TMP`, in its own process
 * group, stdout discarded, stderr kept as the error message, killed (SIGKILL to the group) past
 * the timeout, and killed by the kernel if the runner dies (PR_SET_PDEATHSIG). A crash, a
 * deadlock or a bad input in one point cannot stop the others.
 *
 * Point file:
 *	{ "point": ID, "config": ..., "workload": ..., "overrides": { "l2.cache.size_kb": 512 },
 *	  "params": { "stride": 4 }, "seed": 1,
 *	  "status": "ok" | "failed" | "timeout" | "limit" | "watchdog",
 *	  "exit_status": 0, "host_seconds": 1.25, "error": null | "the child's stderr",
 *	  "stats": { every statistic of the run, as --stats-json writes them } | null }
 * "limit": the point reached max_cycles or max_host_seconds (exit 4); "watchdog": it deadlocked
 * (exit 3). Both keep the point's statistics, partial ("gmsim": {"partial": ...}), and its last
 * stderr line as the error; like "failed" they are rerun only with retry_failed.
 * Host-dependent fields (they differ between two runs of the same point): host_seconds, and in
 * stats gmsim.host_seconds and sim.host_seconds. Everything else is a function of the point.
 *
 * Resume: a point whose file says "ok" is skipped; one that failed or timed out is skipped too,
 * unless retry_failed. A SIGINT or SIGTERM to the runner kills the running children and loses
 * only their points; so does a SIGKILL.
 */
#ifndef SIM_RUNNER_H
#define SIM_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "log.h"
#include "sweep.h"

struct runner_opts {
	const char *out;    /* result directory */
	const char *self;   /* the gmsim binary the children exec */
	unsigned jobs;      /* children at once, >= 1 */
	double timeout_s;   /* per point */
	uint64_t max_cycles;        /* per point, --max-cycles of its gmsim run; 0: none */
	double max_host_seconds;    /* per point, --max-host-seconds; 0: none */
	bool retry_failed;
	bool progress;      /* a progress line on stderr */
	bool lock;          /* hold DIR/.lock: one runner per directory (--run-point does not) */
};

struct runner_tally {
	size_t total;       /* points given */
	size_t done_before; /* finished ok by an earlier run: skipped */
	size_t failed_before;
	size_t ok, failed;  /* run now */
	bool interrupted;   /* SIGINT or SIGTERM: stopped early */
};

/* The result DIR/points/ID.json holds: 1 finished ok, 2 failed or timed out, 0 none (or not
 * readable: a point whose file a killed job left half-written is run again). */
int runner_point_state(const char *out, const char *id);
/* Creates DIR, DIR/points and DIR/tmp as needed. Returns 0, or -1 with err filled. */
int runner_prepare(const char *out, struct sim_err *err);
/* Runs jobs[0..n) (skipping finished ones, see above). Returns 0 when every point was run or
 * skipped, whatever their outcome (see the tally), or -1 with err filled when the runner itself
 * cannot go on (the directory cannot be written, another runner holds it, a signal). */
int runner_run(const struct sweep_job *const *jobs, size_t n, const struct runner_opts *o,
	       struct runner_tally *t, struct sim_err *err);
/* Writes the whole file atomically: DIR/tmp, fsync, rename to path, fsync of path's directory.
 * text holds len bytes. Returns 0, or -1 with err filled. */
int runner_write_atomic(const char *out, const char *path, const char *text, size_t len,
			struct sim_err *err);

#endif /* SIM_RUNNER_H */
