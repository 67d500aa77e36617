/*
 * params.c - the schema: which config groups exist, in which order, with which fields.
 *
 * Each group's field table states key, type, range, default and a one-line description with the
 * unit. The same tables produce doc/config-reference.md (gmsim config doc).
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "coalescer.h"
#include "params.h"

static const struct cfg_field gpu_fields[] = {
	CFG_STR_FIELD(struct gpu_desc_params, name, "\"unnamed\"",
		      "name of the GPU this config describes, as printed in reports"),
	CFG_U32_FIELD(struct gpu_desc_params, sms, 1, 1024, "80",
		      "streaming multiprocessors, each with its L1 and a crossbar port"),
	CFG_U32_FIELD(struct gpu_desc_params, l2_slices_per_channel, 1, 16, "2",
		      "L2 slices per DRAM channel (slices = dram.channels x this)"),
	CFG_U32_FIELD(struct gpu_desc_params, l2_partitions, 1, 2, "1",
		      "L2 partitions: 1, or 2 as on the A100 and later data-centre parts (each "
		      "partition holds the slices of half the channels and caches data for the "
		      "SMs of its half, SM i in partition i x 2 / sms, including lines whose home "
		      "is the far partition: a load goes to the near twin of its home slice, and "
		      "a miss there for a far-homed line is read from its home slice across the "
		      "partition link, l2.far_latency_cycles each way); stores go to the home slice"),
};

/* Defaults of a V100-class part: 128 KB L1 per SM; 6 MB of L2 in 64 slices of 96 KB. */
static const struct cfg_field l1_cache_fields[] = { CACHE_FIELDS("128", "4") };
static const struct cfg_field l2_cache_fields[] = { CACHE_FIELDS("96", "16") };

static const struct cfg_field sim_fields[] = {
	CFG_U64_FIELD(struct sim_params, seed, 0, INT64_MAX, "1",
		      "seed of every random choice (workload rand(), random replacement)"),
	/* 10^5 cycles is 20x the longest legitimate silence seen (a DRAM refresh storm under a
	 * full write drain is a few thousand cycles); the upper bound keeps last + span from
	 * overflowing a cycle_t. */
	CFG_U64_FIELD(struct sim_params, watchdog_cycles, 1, UINT64_C(1) << 40, "100000",
		      "core cycles with no warp instruction issued and no request retired that end "
		      "the run as a deadlock: every unit's queues and the oldest request in flight "
		      "go to stderr, exit status 3 (doc/limits.md); gmsim dram: DRAM cycles with no "
		      "access accepted or completed"),
	CFG_U64_FIELD(struct sim_params, fault_lose_dram_read, 0, INT64_MAX, "0",
		      "fault injection for tests of the watchdog: the n-th DRAM read to complete "
		      "(all channels, in completion order) is never handed back to its L2 slice "
		      "(gmsim dram: to the front end), so its requests wait for ever; 0: off"),
};

/* Up to 10 GHz: above that a period of 100 ps rounds too coarsely to trust. */
static const struct cfg_field clock_fields[] = {
	CFG_F64_FIELD(struct clock_params, core_mhz, 1.0, 10000.0, NULL,
		      "SM clock (warp issue, coalescer, L1, shared memory), MHz"),
	CFG_F64_FIELD(struct clock_params, xbar_mhz, 1.0, 10000.0, NULL,
		      "crossbar clock between SMs and L2 slices, MHz"),
	CFG_F64_FIELD(struct clock_params, l2_mhz, 1.0, 10000.0, NULL, "L2 slice clock, MHz"),
};

const char *const gpu_mem_model_names[] = {
#define GPU_MEM_NAME(e, s) s,
	GPU_MEM_MODELS(GPU_MEM_NAME)
#undef GPU_MEM_NAME
	NULL
};

/* Default latency 400 core cycles: of the order of a loaded DRAM access on the default config
 * (its unloaded DRAM row miss is 211). Up to 10^6 cycles (0.7 ms at 1.4 GHz); up to 64 requests
 * per cycle (8 KB per cycle, beyond the L1 bandwidth of any SM). */
static const struct cfg_field memory_fields[] = {
	CFG_ENUM_FIELD(struct memory_params, model, gpu_mem_model_names, "\"hierarchy\"",
		       "hierarchy: the L1s, crossbar, L2 slices, controllers and DRAM of the groups "
		       "below; fixed: one fixed-latency memory per SM (the two keys below), the "
		       "groups below are checked but build nothing"),
	CFG_U32_FIELD(struct memory_params, latency_cycles, 1, 1000000, "400",
		      "fixed model: core cycles from a line request accepted to its reply pushed; "
		      "an SM sees an unqueued reply latency + 2 cycles after its push (one link "
		      "cycle each way)"),
	CFG_U32_FIELD(struct memory_params, requests_per_cycle, 1, 64, "1",
		      "fixed model: line requests, loads and stores alike, each SM's memory accepts "
		      "per core cycle (a bandwidth of this x 128 B x the core clock per SM)"),
};

#define GROUP(name_, desc_, fields_, member_)                                        \
	{ name_, desc_, fields_, sizeof fields_ / sizeof fields_[0],                 \
	  offsetof(struct gpu_params, member_) }
/* Tables defined next to their units; their sizes are constants in the units' headers. */
#define GROUP_N(name_, desc_, fields_, n_, member_)                                  \
	{ name_, desc_, fields_, n_, offsetof(struct gpu_params, member_) }

static const struct cfg_group groups[] = {
	GROUP("gpu", "The GPU the config describes.", gpu_fields, gpu),
	GROUP_N("sm", "Each SM's front end: occupancy limits, warp issue, shared memory.",
		sm_fields, SM_NFIELDS, sm),
	GROUP("sim", "How the simulation runs.", sim_fields, sim),
	GROUP("clock", "Clock domains. Each frequency is rounded once to an integer period in "
		       "picoseconds; `gmsim config check` prints the rounding. The DRAM clock "
		       "derives from `dram.data_rate_gbps`.",
	      clock_fields, clock),
	GROUP("memory", "What answers the SMs' line requests: the cache hierarchy and DRAM of the "
			"groups below, or a fixed-latency memory for tests and studies of the front "
			"end.", memory_fields, memory),
	GROUP_N("dram", "The DRAM: standard, data rate and organisation. Zero means the "
			"standard's value.", dram_fields, DRAM_NFIELDS, dram),
	GROUP_N("dram.timing", "Overrides of the standard's timing set, each in DRAM clock "
			       "cycles (`nX`) or nanoseconds (`tX_ns`), never both; 0 keeps the "
			       "standard's value. `gmsim config check` prints the result in cycles.",
		dram_timing_fields, DRAM_TIMING_NFIELDS, dram_timing),
	GROUP_N("dram.map", "Address mapping: physical address to channel, pseudo-channel, bank "
			    "group, bank, row and column.", addrmap_fields, ADDRMAP_NFIELDS,
		dram_map),
	GROUP_N("mc", "Memory controllers, one per channel: queues, scheduling, page policy, "
		      "refresh and ECC.", mc_fields, MC_NFIELDS, mc),
	GROUP_N("l1", "L1 data cache of each SM: pipeline, fill port, miss queue, write policy.",
		l1_fields, L1_NFIELDS, l1),
	GROUP_N("l1.cache", "L1 geometry and replacement (per SM).", l1_cache_fields,
		CACHE_NFIELDS, l1.cache),
	GROUP_N("l1.mshr", "L1 miss status holding registers (per SM).", mshr_fields,
		MSHR_NFIELDS, l1.mshr),
	GROUP_N("xbar", "Crossbar between SMs and L2 slices: request and reply networks.",
		xbar_fields, XBAR_NFIELDS, xbar),
	GROUP_N("l2", "Each L2 slice: hit pipeline, fill port, miss queue.", l2_fields,
		L2_NFIELDS, l2),
	GROUP_N("l2.cache", "Geometry and replacement of one L2 slice (size per slice).",
		l2_cache_fields, CACHE_NFIELDS, l2.cache),
	GROUP_N("l2.mshr", "MSHRs of one L2 slice.", mshr_fields, MSHR_NFIELDS, l2.mshr),
	GROUP_N("l2.hash", "Which slice serves an address: any slice count.", slice_hash_fields,
		SLICE_HASH_NFIELDS, l2_hash),
};

const struct cfg_schema gpu_schema = { groups, sizeof groups / sizeof groups[0] };

static const char *const clock_names[GPU_CLK_COUNT] = { "core", "xbar", "l2", "dram" };

const char *gpu_clock_name(enum gpu_clock_domain d)
{
	return clock_names[d];
}

double gpu_clock_mhz(const struct gpu_params *p, enum gpu_clock_domain d)
{
	switch (d) {
	case GPU_CLK_CORE:
		return p->clock.core_mhz;
	case GPU_CLK_XBAR:
		return p->clock.xbar_mhz;
	case GPU_CLK_L2:
		return p->clock.l2_mhz;
	default: {
		struct dram_spec s;
		struct sim_err err;

		return gpu_dram_spec(p, &s, &err) == 0 ? 1e6 / (double)s.tck_ps : 0.0;
	}
	}
}

/* The SMs' requests are lines of the coalescer's geometry (128 B lines of 32 B sectors: the
 * sector mask and byte mask every level reads), which the L1 and the L2 take whole: a level
 * of other lines or sectors would get masks that do not fit them (before 2026-12-06 any
 * other size stopped the run at a simulator assertion in the first lookup). */
static int request_geometry_check(const struct cache_params *c, const char *group,
				  struct sim_err *err)
{
	struct coal_params cp;

	coal_params_default(&cp);
	if (c->line_bytes != cp.line_bytes)
		return sim_err_set(err, NULL, 0, "%s.cache.line_bytes: the SMs' requests are %u B "
				   "lines (the coalescer's), which each cache level takes whole: a GPU "
				   "run needs %u, got %u", group, cp.line_bytes, cp.line_bytes,
				   c->line_bytes);
	if (c->sector_bytes != cp.sector_bytes)
		return sim_err_set(err, NULL, 0, "%s.cache.sector_bytes: the SMs' requests are "
				   "lines of %u B sectors (the coalescer's), which each cache level "
				   "takes whole: a GPU run needs %u, got %u", group, cp.sector_bytes,
				   cp.sector_bytes, c->sector_bytes);
	return 0;
}

int gpu_mem_check(const struct gpu_params *p, struct sim_err *err)
{
	struct slice_hash h;

	if (l1_params_check(&p->l1, "l1", err) != 0 || l2_params_check(&p->l2, "l2", err) != 0 ||
	    request_geometry_check(&p->l1.cache, "l1", err) != 0 ||
	    request_geometry_check(&p->l2.cache, "l2", err) != 0)
		return -1;
	/* 0 is no limit; a positive rate so small that a block's slot (n / rate cycles) leaves
	 * the cycle counter's range is not a rate anyone means */
	if (p->sm.block_dispatch_per_cycle > 0 && p->sm.block_dispatch_per_cycle < 1e-6)
		return sim_err_set(err, NULL, 0, "sm.block_dispatch_per_cycle: expected 0 (no "
				   "limit) or at least 1e-06 blocks a cycle, got %g",
				   p->sm.block_dispatch_per_cycle);
	if (p->dram.channels % p->gpu.l2_partitions != 0)
		return sim_err_set(err, NULL, 0, "gpu.l2_partitions: %u partitions hold half the "
				   "channels each, so dram.channels must be a multiple of %u, got %u",
				   p->gpu.l2_partitions, p->gpu.l2_partitions, p->dram.channels);
	if (p->gpu.sms < p->gpu.l2_partitions)
		return sim_err_set(err, NULL, 0, "gpu.l2_partitions: %u partitions need at least %u "
				   "SMs (gpu.sms), got %u", p->gpu.l2_partitions,
				   p->gpu.l2_partitions, p->gpu.sms);
	if (p->gpu.l2_partitions > 1 && l2_params_check_far(&p->l2, "l2", err) != 0)
		return -1;
	return slice_hash_init(&h, &p->l2_hash, p->dram.channels * p->gpu.l2_slices_per_channel,
			       "l2.hash", err);
}

int gpu_dram_spec(const struct gpu_params *p, struct dram_spec *spec, struct sim_err *err)
{
	struct addrmap_geom g;
	struct addrmap m;

	if (dram_spec_resolve(spec, &p->dram, &p->dram_timing, err) != 0 ||
	    mc_params_check(&p->mc, spec, err) != 0)
		return -1;
	g.channels = spec->channels;
	g.pcs = spec->pcs;
	g.bank_groups = spec->bank_groups;
	g.banks_per_group = spec->banks_per_group;
	g.rows = spec->rows;
	g.bursts_per_row = mc_data_bursts_per_row(&p->mc, spec);
	g.burst_bytes = spec->burst_bytes;
	return addrmap_init(&m, &p->dram_map, &g, err);
}

/* A check across fields failed; its message names the key it blames first ("l2.mshr.entries:
 * ..."). The error names where that key was set: the file and line (an included or base
 * file's too), or the override; else (a default) the config. */
static int cross_check_where(const struct cfg *c, const char *path, struct sim_err *err)
{
	char msg[SIM_ERR_MSG_MAX], key[128], file[SIM_ERR_MSG_MAX];
	size_t n = strcspn(err->msg, ": ");
	int line;

	snprintf(msg, sizeof msg, "%s", err->msg);
	if (n > 0 && n < sizeof key && msg[n] == ':') {
		memcpy(key, msg, n);
		key[n] = '\0';
		if (cfg_where(c, key, file, sizeof file, &line) || file[0] != '\0')
			return sim_err_set(err, file, line, "%s", msg);
	}
	return sim_err_set(err, path, 0, "%s", msg);
}

int gpu_params_load_cfg(struct gpu_params *p, const char *path, const char *const *overrides,
			size_t n, struct cfg **cfg, struct sim_err *err)
{
	struct cfg *c;
	size_t i;
	int rc;

	if (cfg != NULL)
		*cfg = NULL;
	if (cfg_load_layered(&c, path, err) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (cfg_override(c, overrides[i], err) != 0) {
			cfg_destroy(c);
			return -1;
		}
	}
	rc = cfg_read(c, &gpu_schema, p, err);
	if (rc == 0) {
		/* Checks across fields: the message names the keys, the error where the first
		 * was set. */
		struct dram_spec spec;

		if (gpu_dram_spec(p, &spec, err) != 0 || gpu_mem_check(p, err) != 0)
			rc = cross_check_where(c, path, err);
	}
	if (rc == 0 && cfg != NULL)
		*cfg = c;
	else
		cfg_destroy(c);
	return rc;
}

int gpu_params_load(struct gpu_params *p, const char *path, const char *const *overrides,
		    size_t n, struct sim_err *err)
{
	return gpu_params_load_cfg(p, path, overrides, n, NULL, err);
}
