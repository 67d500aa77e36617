/*
 * mc_sched.h - memory-controller scheduling policies, chosen by name (mc.scheduler).
 *
 * The controller decides what is legal and builds the candidates: for each bank with work, the
 * command its chosen request needs next and the earliest cycle that command may issue. A policy
 * only picks one of the candidates that are ready now; it never changes state (USIMM's split
 * between command_issuable and schedule). The row-hit cap is the controller's: a hit past the cap
 * is not offered as a candidate while an older request to another row of that bank waits.
 */
#ifndef SIM_MC_SCHED_H
#define SIM_MC_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dram_std.h"
#include "types.h"

struct mc_cand {
	uint64_t seq;          /* arrival order of the request (smaller = older) */
	enum dram_cmd cmd;     /* the command it needs next */
	bool kept;             /* the controller's: a copy of its bank's cached candidate */
	cycle_t earliest;      /* when that command is legal */
	uint32_t pc, bank;
	void *entry;           /* the controller's request */
};

struct mc_sched_ops {
	const char *name;
	const char *desc;
	/* Which request a bank offers: true, its oldest row hit before older requests to other
	 * rows (FR-FCFS); false, its oldest request, hit or not (FCFS). */
	bool hits_first;
	/* Index of the candidate to issue among the n whose earliest <= now, or -1 for none. */
	int (*pick)(const struct mc_cand *c, size_t n, cycle_t now);
};

/* NULL-terminated list of policy names, in registry order (for the config enum). */
extern const char *const mc_sched_names[];
/* The policy at index i of mc_sched_names. */
const struct mc_sched_ops *mc_sched_get(uint32_t i);

#endif /* SIM_MC_SCHED_H */
