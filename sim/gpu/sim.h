/*
 * sim.h - the simulated GPU memory system, wired from a config: per-SM L1s, the crossbar, the
 * L2 slices, the memory controllers and DRAM, each in its clock domain.
 *
 *   SM i --sm_in[i]--> L1[i] --xbar req--> L2 slice s --mc_in[ch] (port)--> mc[ch] -> DRAM
 *   SM i <-sm_resp[i]-- L1[i] <-xbar reply-- L2 slice s <--l2_fill[s]-- mc[ch] (reads)
 *
 * The slice of a line comes from the slice hash (l2.hash), the channel of a sector from the
 * DRAM address map (dram.map) or the slice's memory partition (l2.hash.per_channel). Whoever drives the SMs (the front end, or a probe) pushes line
 * requests (struct mem_req from sim_pool) into sim_sm_in and pops replies from sim_sm_resp;
 * it owns a request again when it pops its reply and must req_free it.
 *
 * With memory.model = "fixed" the same two links per SM end in a fixed-latency memory
 * (sim/mem/fixedmem.h) instead of the L1, and none of the units above exists:
 *
 *   SM i --sm_in[i]--> fixedmem[i] --(memory.latency_cycles later)--sm_resp[i]--> SM i
 */
#ifndef SIM_SIM_H
#define SIM_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "params.h"

struct clock;
struct eventq;
struct link;
struct mc;
struct req_pool;
struct stats;
struct sim;

/* Builds the machine. Returns NULL with err filled if the parameters do not fit together. */
struct sim *sim_create(const struct gpu_params *p, struct sim_err *err);
void sim_destroy(struct sim *s);
/* The parameters the machine was built with (the sim's own copy). */
const struct gpu_params *sim_params(const struct sim *s);

struct eventq *sim_eventq(struct sim *s);
struct clock *sim_core_clock(struct sim *s);
/* Unit ticks so far over every clock domain (clock_ticks): the simulator's work. */
uint64_t sim_ticks(const struct sim *s);
struct req_pool *sim_pool(struct sim *s);
struct stats *sim_stats(struct sim *s);
uint32_t sim_sms(const struct sim *s);
/* The link SM sm pushes requests into (core clock; the L1 consumes it). */
struct link *sim_sm_in(struct sim *s, uint32_t sm);
/* The link SM sm's replies arrive on (core clock); set its consumer with link_set_consumer. */
struct link *sim_sm_resp(struct sim *s, uint32_t sm);
/* Both as arrays indexed by SM (sim_sms entries), owned by s. */
struct link *const *sim_sm_in_links(struct sim *s);
struct link *const *sim_sm_resp_links(struct sim *s);
/* The memory model the sim was built with (memory.model). */
enum gpu_mem_model sim_mem_model(const struct sim *s);
/* True when no request is anywhere in the hierarchy (refresh aside). */
bool sim_is_idle(const struct sim *s);
/* Fills the aggregate statistics (l1.*, l2.*, and mem.* with the fixed model; sim/gpu/totals.h)
 * from the units'; call before dumping. */
void sim_totals(struct sim *s);
/* DRAM channels (memory controllers; 0 with the fixed model), L2 slices, the controller of
 * channel ch, and the DRAM clock period. */
uint32_t sim_channels(const struct sim *s);
uint32_t sim_slices(const struct sim *s);
struct mc *sim_mc(struct sim *s, uint32_t ch);
tick_t sim_dram_tck_ps(const struct sim *s);
/* The DRAM as the config resolves it (standard, organisation, timings, peak). */
const struct dram_spec *sim_dram_spec(const struct sim *s);
/*
 * A host-to-device copy of bytes at addr, done before the next kernel (a trace's MemcpyHtoD): the
 * lines it wrote are left in their L2 slices, every sector valid and clean (the copy's data also
 * reached DRAM), as a copy through the L2 leaves them; a line that does not fit evicts what the
 * replacement policy picks, without a write-back (the copy happened before the simulated time).
 * Untimed; nothing with the fixed model. Returns the lines installed.
 */
uint64_t sim_l2_warm(struct sim *s, addr_t addr, uint64_t bytes);
/*
 * Idle controllers do not wake for refresh (sim/dram/mc.h: mc_set_lazy_refresh): they make the
 * refresh passes they skipped when next woken or here, up to the simulation's horizon
 * (eventq_horizon: the run's stops come from the core domain, whose edges order after the
 * DRAM's at a shared tick). Call before reading statistics or dumping state.
 */
void sim_settle(struct sim *s);
/* True when the machine has work due at known times even with nothing in flight (refresh), so
 * an empty event queue does not mean that nothing is left to simulate. */
bool sim_has_deadlines(const struct sim *s);
/* Every unit's queues, for the watchdog and panics. */
void sim_dump(const struct sim *s, FILE *out);

#endif /* SIM_SIM_H */
