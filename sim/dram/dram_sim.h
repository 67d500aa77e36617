/*
 * dram_sim.h - the DRAM subsystem on its own: a front end that feeds a request stream (trace or
 * pattern) to the memory controllers of every channel, and the measurements of the run.
 *
 * The front end is a unit of the DRAM clock domain. A record with a cycle is presented at that
 * cycle (and waits if its controller is full, as DRAMsim3 does); a record without one as soon as
 * the front end may, at most requests_per_cycle per cycle (0: as many as the controllers take).
 * A request larger than a burst becomes one access per 32 B burst; it completes when the last
 * burst's data transfer ends. An access whose controller is full waits in a per-channel buffer
 * of frontend_buffer entries while the trace goes on to other channels, as independent
 * requesters would; when that buffer is full too, the front end stalls. Latency runs from the cycle its first burst was accepted by a
 * controller to that end, so it includes the controller's queueing.
 */
#ifndef SIM_DRAM_SIM_H
#define SIM_DRAM_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "addrmap.h"
#include "dram_std.h"
#include "dram_trace.h"
#include "mc.h"
#include "stats.h"

struct dram_sim_opts {
	uint32_t requests_per_cycle; /* 0 = unlimited */
	uint32_t frontend_buffer;    /* accesses per channel the front end may hold back while the
				      * trace goes on; 0 = strictly in order (DRAMsim3) */
	bool check;                  /* replay every command through dram_check */
	uint64_t max_cycles;         /* 0 = none */
	uint64_t watchdog_cycles;    /* DRAM cycles with work left and no access accepted or
				      * completed that end the run (sim.watchdog_cycles); 0 = none */
	uint64_t lose_read;          /* the n-th burst read to complete is never handed back, for
				      * the watchdog's test (sim.fault_lose_dram_read); 0 = off */
};

struct dram_sim;

/* Builds the whole DRAM side from its parameters. Returns NULL with err filled (the config key
 * at fault) if they are inconsistent. The params must outlive the sim. */
struct dram_sim *dram_sim_create(const struct dram_params *dp, const struct dram_timing_params *tp,
				 const struct addrmap_params *mp, const struct mc_params *cp,
				 const struct dram_sim_opts *o, struct sim_err *err);
void dram_sim_destroy(struct dram_sim *ds);

/* Runs the stream to its end (every request completed). Returns 0; or -1 with err filled when
 * the trace has a bad record: the requests before it are completed and measured all the same;
 * or -1 with err filled when the watchdog stopped it (dram_sim_watchdog_fired: opts.watchdog_cycles
 * DRAM cycles went by with requests in flight or waiting and no access accepted or completed;
 * the state of every controller with work went to stderr first). */
int dram_sim_run(struct dram_sim *ds, struct dram_trace *t, struct sim_err *err);
/* True when the watchdog stopped the run. */
bool dram_sim_watchdog_fired(const struct dram_sim *ds);

const struct dram_spec *dram_sim_spec(const struct dram_sim *ds);
const struct addrmap *dram_sim_map(const struct dram_sim *ds);
struct stats *dram_sim_stats(struct dram_sim *ds);
/* The run's wall-clock seconds (0 before the run ends). */
double dram_sim_host_seconds(const struct dram_sim *ds);
/* Human report: bandwidth, latency, row behaviour, refresh, ECC, utilisation, waterfall. */
void dram_sim_report(struct dram_sim *ds, FILE *out);
/* Command checker results when opts.check was set (0 commands otherwise). */
uint64_t dram_sim_check_violations(const struct dram_sim *ds, const char **first);
uint64_t dram_sim_checked_commands(const struct dram_sim *ds);
/* True when the run stopped at opts.max_cycles with requests left. */
bool dram_sim_hit_limit(const struct dram_sim *ds);

#endif /* SIM_DRAM_SIM_H */
