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

#include "cfg.h"
#include "types.h"

/* gpu: what the config describes. */
struct gpu_desc_params {
	char name[CFG_STR_MAX];
};

/* sim: how the simulation runs. */
struct sim_params {
	uint64_t seed;
	uint64_t max_cycles;
	uint64_t watchdog_cycles;
};

/* clock: the four clock domains. */
struct clock_params {
	double core_mhz;
	double xbar_mhz;
	double l2_mhz;
	double dram_mhz;
};

enum gpu_clock_domain { GPU_CLK_CORE, GPU_CLK_XBAR, GPU_CLK_L2, GPU_CLK_DRAM, GPU_CLK_COUNT };

struct gpu_params {
	struct gpu_desc_params gpu;
	struct sim_params sim;
	struct clock_params clock;
};

extern const struct cfg_schema gpu_schema;

/* Name and requested MHz of clock domain d. */
const char *gpu_clock_name(enum gpu_clock_domain d);
double gpu_clock_mhz(const struct gpu_params *p, enum gpu_clock_domain d);

/* Loads path, applies overrides (n of them), reads and checks everything: the one way every
 * subcommand gets its parameters. Returns 0, or -1 with err filled. */
int gpu_params_load(struct gpu_params *p, const char *path, const char *const *overrides,
		    size_t n, struct sim_err *err);

#endif /* SIM_PARAMS_H */
