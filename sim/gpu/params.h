/*
 * params.h - every parameter of the simulated GPU, in one struct, and its schema.
 *
 * struct gpu_params holds one params struct per unit; the schema (gpu_schema) lists the config
 * groups in the order they are written and documented. A new unit adds its params struct here,
 * its field table next to its code, and one line to the schema in params.c.
 */
#ifndef SIM_PARAMS_H
#define SIM_PARAMS_H

#include <stdint.h>

#include "addrmap.h"
#include "cfg.h"
#include "dram_std.h"
#include "l1.h"
#include "l2.h"
#include "mc.h"
#include "slice_hash.h"
#include "sm.h"
#include "types.h"
#include "xbar.h"

/* gpu: what the config describes. */
struct gpu_desc_params {
	char name[CFG_STR_MAX];
	uint32_t sms;
	uint32_t l2_slices_per_channel;
	uint32_t l2_partitions;  /* 1, or 2: each half of the SMs has a near half of the slices */
};

/* sim: how the simulation runs: the seed, the watchdog (sim/gpu/run.c) and a fault
 * that tests use to wedge the model on purpose. Host limits (--max-cycles, --max-host-seconds)
 * are options of gmsim run, not config keys: they bound a run, not the machine it models. */
struct sim_params {
	uint64_t seed;
	uint64_t watchdog_cycles;       /* core cycles without progress that end a run, exit 3 */
	uint64_t fault_lose_dram_read;  /* 0: off; n: the n-th DRAM read never returns */
};

/* clock: the clock domains set directly; the DRAM clock derives from dram.data_rate_gbps. */
struct clock_params {
	double core_mhz;
	double xbar_mhz;
	double l2_mhz;
};

enum gpu_clock_domain { GPU_CLK_CORE, GPU_CLK_XBAR, GPU_CLK_L2, GPU_CLK_DRAM, GPU_CLK_COUNT };

/* memory: what answers the SMs' line requests (names are the config values). */
#define GPU_MEM_MODELS(X)               \
	X(HIERARCHY, "hierarchy")       \
	X(FIXED, "fixed")

enum gpu_mem_model {
#define GPU_MEM_ENUM(e, s) GPU_MEM_##e,
	GPU_MEM_MODELS(GPU_MEM_ENUM)
#undef GPU_MEM_ENUM
	GPU_MEM_MODEL_COUNT
};
/* NULL-terminated, in enum order. */
extern const char *const gpu_mem_model_names[];

/* hierarchy: the units of the groups l1 .. l2.hash and the DRAM; fixed: one fixedmem per SM
 * (sim/mem/fixedmem.h) with the two keys below, and none of the hierarchy's units. */
struct memory_params {
	uint32_t model;              /* enum gpu_mem_model */
	uint32_t latency_cycles;     /* fixed: struct fixedmem_params */
	uint32_t requests_per_cycle; /* fixed: struct fixedmem_params */
};

struct gpu_params {
	struct gpu_desc_params gpu;
	struct sim_params sim;
	struct clock_params clock;
	struct memory_params memory;
	struct dram_params dram;
	struct dram_timing_params dram_timing;
	struct addrmap_params dram_map;
	struct mc_params mc;
	struct l1_params l1;
	struct xbar_params xbar;
	struct l2_params l2;
	struct slice_hash_params l2_hash;
	struct sm_params sm;
};

extern const struct cfg_schema gpu_schema;

/* Name and requested MHz of clock domain d (DRAM: the CK its data rate implies). */
const char *gpu_clock_name(enum gpu_clock_domain d);
double gpu_clock_mhz(const struct gpu_params *p, enum gpu_clock_domain d);
/* Checks across groups of the hierarchy above the DRAM (L1, L2, slice hash) and the SM's
 * block dispatcher. */
int gpu_mem_check(const struct gpu_params *p, struct sim_err *err);
/* Resolves the DRAM part of p (standard, clocks, timings, controller checks). */
int gpu_dram_spec(const struct gpu_params *p, struct dram_spec *spec, struct sim_err *err);

/* Loads path (a layered config: its base, if it names one, under it), applies overrides (n of
 * them), reads and checks everything: the one way every subcommand gets its parameters.
 * Returns 0, or -1 with err filled. */
int gpu_params_load(struct gpu_params *p, const char *path, const char *const *overrides,
		    size_t n, struct sim_err *err);
/* As gpu_params_load, and on success hands over the loaded tree in *cfg (for cfg_origin; the
 * caller destroys it). */
int gpu_params_load_cfg(struct gpu_params *p, const char *path, const char *const *overrides,
			size_t n, struct cfg **cfg, struct sim_err *err);

#endif /* SIM_PARAMS_H */
