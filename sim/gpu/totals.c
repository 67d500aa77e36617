/*
 * totals.c - the aggregate statistics in one place (contract in totals.h).
 *
 * The level sums add each instance's counters (l1_stats, l2_stats, fixedmem_stats); the
 * reservation failures of a level are its four stall reasons. The run's figures come from the
 * units (the controllers' mc_sum, sim.events from the event queue) and from statistics already
 * registered (coal.bytes_moved, xbar.req.bytes, xbar.reply.bytes, l2.accesses), read by name:
 *   bw.l1_gbps        coal.bytes_moved / sim.time_ns; peak SMs x l1.lookups_per_cycle x 128 B
 *                     x core clock;
 *   bw.xbar_*_gbps    xbar.{req,reply}.bytes / time; peak min(SMs, slices) x port bytes x
 *                     crossbar clock;
 *   bw.l2_lookup_busy_pct  l2.accesses / (slices x lookups_per_cycle x L2 cycles);
 *   dram.*            the controllers' sums; bytes moved include ECC bursts, bytes useful do
 *                     not; refresh_pct is refresh bank-cycles over (DRAM cycles x banks).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "eventq.h"
#include "fixedmem.h"
#include "l1.h"
#include "l2.h"
#include "log.h"
#include "mc.h"
#include "sim.h"
#include "stats.h"
#include "totals.h"

/* ---------------------------------------------------------------------------------------------
 * Cache levels and fixed memories
 */

void totals_register_levels(struct stats *st, struct level_totals *t1, struct level_totals *t2)
{
	static const struct stats_counter_def defs[] = {
#define C(f, d) STATS_COUNTER_DEF(struct level_totals, f, d)
		C(accesses, "requests looked up, all instances"),
		C(hits, "requests whose sectors were all present"),
		C(sector_misses, "requests to a present line missing a sector"),
		C(line_misses, "requests to an absent line"),
		C(mshr_merges, "misses merged into an MSHR entry in flight"),
		C(reservation_fails, "cycles a request waited at the head: the four reasons below"),
		C(stall_mshr_full, "... no free MSHR entry"),
		C(stall_merge_limit, "... an MSHR entry at its merge limit"),
		C(stall_no_line, "... every way of the set waiting for a fill"),
		C(stall_miss_queue_full, "... no room in the miss queue"),
		C(fill_stalls, "fill-cycles a fill waited for the fill port"),
		C(writebacks, "dirty sectors written to the next level (L2: to DRAM)"),
#undef C
	};
	int i;

	for (i = 0; i < 2; i++) {
		struct level_totals *t = i == 0 ? t1 : t2;
		const char *lv = i == 0 ? "l1" : "l2";
		char name[64];

		stats_counters(st, lv, t, defs, sizeof defs / sizeof defs[0]);
		snprintf(name, sizeof name, "%s.hit_rate", lv);
		stats_real(st, name, "hits / accesses", &t->hit_rate, 0);
	}
}

void totals_register_mem(struct stats *st, struct mem_totals *tm)
{
	static const struct stats_counter_def defs[] = {
#define C(f, d) STATS_COUNTER_DEF(struct mem_totals, f, d)
		C(requests, "line requests the fixed-latency memory accepted, all SMs"),
		C(loads, "loads accepted"),
		C(stores, "stores accepted"),
		C(replies, "replies pushed to the SMs (loads and store acks)"),
		C(queue_cycles, "cycles requests waited for memory.requests_per_cycle, summed"),
		C(stall_cycles, "cycles due replies waited for room on the SMs' reply links"),
#undef C
	};

	stats_counters(st, "mem", tm, defs, sizeof defs / sizeof defs[0]);
}

#define ADD_LEVEL(t, x)                                                                   \
	do {                                                                              \
		(t)->accesses += (x)->accesses;                                           \
		(t)->hits += (x)->hits;                                                   \
		(t)->sector_misses += (x)->sector_misses;                                 \
		(t)->line_misses += (x)->line_misses;                                     \
		(t)->mshr_merges += (x)->mshr_merges;                                     \
		(t)->stall_mshr_full += (x)->stall_mshr_full;                             \
		(t)->stall_merge_limit += (x)->stall_merge_limit;                         \
		(t)->stall_no_line += (x)->stall_no_line;                                 \
		(t)->stall_miss_queue_full += (x)->stall_miss_queue_full;                 \
		(t)->fill_stalls += (x)->fill_stalls;                                     \
	} while (0)

static void finish_level(struct level_totals *t)
{
	t->reservation_fails = t->stall_mshr_full + t->stall_merge_limit + t->stall_no_line +
			       t->stall_miss_queue_full;
	t->hit_rate = t->accesses ? (double)t->hits / (double)t->accesses : 0.0;
}

void totals_fill_levels(struct level_totals *t1, struct level_totals *t2, struct mem_totals *tm,
			struct l1 *const *l1, struct fixedmem *const *fm, uint32_t nsm,
			struct l2 *const *l2, uint32_t nslices)
{
	uint32_t i;

	memset(t1, 0, sizeof *t1);
	memset(t2, 0, sizeof *t2);
	memset(tm, 0, sizeof *tm);
	for (i = 0; l1 != NULL && i < nsm; i++)
		ADD_LEVEL(t1, l1_stats(l1[i]));
	for (i = 0; fm != NULL && i < nsm; i++) {
		const struct fixedmem_stats *m = fixedmem_stats(fm[i]);

		tm->requests += m->requests;
		tm->loads += m->loads;
		tm->stores += m->stores;
		tm->replies += m->replies;
		tm->queue_cycles += m->queue_cycles;
		tm->stall_cycles += m->stall_cycles;
	}
	for (i = 0; i < nslices; i++) {
		ADD_LEVEL(t2, l2_stats(l2[i]));
		t2->writebacks += l2_stats(l2[i])->writebacks;
	}
	finish_level(t1);
	finish_level(t2);
}
#undef ADD_LEVEL

/* ---------------------------------------------------------------------------------------------
 * The run
 */

void totals_register_run(struct stats *st, struct run_totals *t, size_t nkernels,
			 bool hierarchy)
{
	size_t k;

	t->nkernels = nkernels;
	t->kstart = xcalloc(nkernels, sizeof *t->kstart);
	t->kend = xcalloc(nkernels, sizeof *t->kend);
	stats_counter(st, "sim.cycles", "core cycles until the last block retired", &t->cycles);
	for (k = 0; k < nkernels; k++) {
		char name[48];

		snprintf(name, sizeof name, "kernel%zu.start", k);
		stats_counter(st, name, "core cycle the kernel's first blocks launched",
			      &t->kstart[k]);
		snprintf(name, sizeof name, "kernel%zu.end", k);
		stats_counter(st, name, "core cycle the kernel's last block retired", &t->kend[k]);
	}
	stats_real(st, "sim.time_ns", "simulated time, ns", &t->time_ns, 0);
	stats_real(st, "sim.host_seconds", "wall-clock seconds of the simulation", &t->host_seconds,
		   STATS_HOST);
	stats_counter_flags(st, "sim.events", "events fired (the simulator's own work: left out by "
			    "--stats-no-host)", &t->events, STATS_HOST);
	stats_counter_flags(st, "sim.ticks", "unit ticks the clock edges made (the simulator's own "
			    "work: left out by --stats-no-host)", &t->ticks, STATS_HOST);
	stats_real(st, "bw.l1_gbps", "bytes the coalesced requests move between SMs and L1s, "
		   "GB/s", &t->l1_gbps, 0);
	stats_real(st, "bw.l1_peak_gbps", "SMs x l1.lookups_per_cycle x 128 B x core clock",
		   &t->l1_peak, 0);
	if (!hierarchy)
		return;
	stats_real(st, "bw.xbar_req_gbps", "crossbar request network, bytes with headers, GB/s",
		   &t->xreq_gbps, 0);
	stats_real(st, "bw.xbar_req_peak_gbps", "min(inputs, outputs) x xbar.req_port_bytes x "
		   "crossbar clock", &t->xreq_peak, 0);
	stats_real(st, "bw.xbar_reply_gbps", "crossbar reply network, bytes with headers, GB/s",
		   &t->xrep_gbps, 0);
	stats_real(st, "bw.xbar_reply_peak_gbps", "min(inputs, outputs) x xbar.reply_port_bytes "
		   "x crossbar clock", &t->xrep_peak, 0);
	stats_real(st, "bw.l2_lookup_busy_pct", "L2 lookups / (slices x lookups_per_cycle x L2 "
		   "cycles), %", &t->l2_busy_pct, 0);
	stats_counter(st, "dram.requests", "32 B accesses the L2 slices completed at DRAM",
		      &t->requests);
	stats_counter(st, "dram.reads", "32 B read bursts, all channels", &t->reads);
	stats_counter(st, "dram.writes", "32 B write bursts, all channels", &t->writes);
	stats_counter(st, "dram.bytes_moved", "bytes on the data buses, ECC included",
		      &t->bytes_moved);
	stats_counter(st, "dram.bytes_useful", "bytes of the L2's reads and writes (no ECC)",
		      &t->bytes_useful);
	stats_real(st, "dram.peak_gbps", "peak DRAM bandwidth, GB/s", &t->peak_gbps, 0);
	stats_real(st, "dram.achieved_gbps", "dram.bytes_useful over sim.time_ns, GB/s",
		   &t->achieved_gbps, 0);
	stats_real(st, "dram.row_hit_rate", "row hits / column accesses", &t->row_hit_rate, 0);
	stats_counter(st, "dram.refreshes", "refresh commands, all channels", &t->refreshes);
	stats_real(st, "dram.refresh_pct", "share of bank time spent refreshing, %",
		   &t->refresh_pct, 0);
	stats_real(st, "dram.ecc_pct", "share of bursts moved for ECC, %", &t->ecc_pct, 0);
}

void totals_free_run(struct run_totals *t)
{
	free(t->kstart);
	free(t->kend);
	t->kstart = t->kend = NULL;
}

static double get(const struct stats *st, const char *name)
{
	double v;

	return stats_get(st, name, &v) ? v : NAN;
}

static double gbps(double bytes, double ns)
{
	return ns > 0 ? bytes / ns : 0.0;
}

/* The crossbar and L2 lookup figures (the hierarchy). */
static void fill_hierarchy_bw(struct sim *s, struct run_totals *t)
{
	const struct gpu_params *p = sim_params(s);
	struct stats *st = sim_stats(s);
	uint32_t nsl = sim_slices(s);
	double xmhz = gpu_clock_mhz(p, GPU_CLK_XBAR), l2mhz = gpu_clock_mhz(p, GPU_CLK_L2);
	double ports = (double)(p->gpu.sms < nsl ? p->gpu.sms : nsl);

	t->xreq_gbps = gbps(get(st, "xbar.req.bytes"), t->time_ns);
	t->xrep_gbps = gbps(get(st, "xbar.reply.bytes"), t->time_ns);
	t->xreq_peak = ports * p->xbar.req_port_bytes * xmhz / 1000.0;
	t->xrep_peak = ports * p->xbar.reply_port_bytes * xmhz / 1000.0;
	t->l2_busy_pct = t->time_ns > 0
		? 100.0 * get(st, "l2.accesses") /
		  ((double)nsl * p->l2.lookups_per_cycle * t->time_ns * l2mhz / 1000.0)
		: 0.0;
}

/* The controllers' sums and what follows from them. */
static void fill_dram(struct sim *s, struct run_totals *t)
{
	const struct dram_spec *spec = sim_dram_spec(s);
	uint32_t ch, nch = sim_channels(s);
	struct mc_sum sum;

	memset(&sum, 0, sizeof sum);
	for (ch = 0; ch < nch; ch++)
		mc_sum_add(sim_mc(s, ch), &sum);
	t->reads = sum.reads;
	t->writes = sum.writes;
	t->ecc_bursts = sum.ecc_bursts;
	t->row_hits = sum.row_hits;
	t->row_accesses = sum.row_hits + sum.row_misses + sum.row_conflicts;
	t->refreshes = sum.refreshes;
	t->refresh_bank_cycles = sum.refresh_bank_cycles;
	t->read_wait = sum.read_wait_cycles;
	t->read_service = sum.read_service_cycles;
	t->requests = t->reads + t->writes;
	t->bytes_useful = t->requests * spec->burst_bytes;
	t->bytes_moved = (t->reads + t->writes + t->ecc_bursts) * spec->burst_bytes;
	t->peak_gbps = spec->peak_gbps;
	t->achieved_gbps = gbps((double)t->bytes_useful, t->time_ns);
	t->row_hit_rate = t->row_accesses ? (double)t->row_hits / (double)t->row_accesses : 0.0;
	{
		/* bank time of the kernel: its DRAM cycles x banks */
		double dcycles = t->time_ns * 1000.0 / (double)spec->tck_ps;
		double banks = (double)spec->channels * spec->pcs * spec->banks;

		t->refresh_pct = dcycles > 0 ? 100.0 * (double)t->refresh_bank_cycles /
				 (dcycles * banks) : 0.0;
	}
	t->ecc_pct = t->requests + t->ecc_bursts
		? 100.0 * (double)t->ecc_bursts / (double)(t->requests + t->ecc_bursts) : 0.0;
}

void totals_fill_run(struct sim *s, struct run_totals *t)
{
	const struct gpu_params *p = sim_params(s);
	struct stats *st = sim_stats(s);
	double core_mhz = gpu_clock_mhz(p, GPU_CLK_CORE);

	sim_totals(s);
	t->events = eventq_fired(sim_eventq(s));
	t->ticks = sim_ticks(s);
	t->time_ns = (double)t->cycles * (double)clock_period(sim_core_clock(s)) / 1000.0;
	t->l1_gbps = gbps(get(st, "coal.bytes_moved"), t->time_ns);
	t->l1_peak = (double)p->gpu.sms * p->l1.lookups_per_cycle * 128.0 * core_mhz / 1000.0;
	if (sim_channels(s) == 0)
		return;
	fill_hierarchy_bw(s, t);
	fill_dram(s, t);
}
