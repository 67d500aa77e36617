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
	/* The order the pick follows (mc_sched_first): true, row commands after every column
	 * command, each kind oldest first (FR-FCFS); false, oldest first (FCFS). */
	bool rows_last;
	/* Index of the candidate to issue among the n whose earliest <= now, or -1 for none: the
	 * first in the policy's order (mc_sched_first over the list). */
	int (*pick)(const struct mc_cand *c, size_t n, cycle_t now);
};

/* Candidate c's key under policy s (mc_sched_first): the request's age (seq, below 2^63), with
 * rows_last a row command ranked after every column command by the top bit. */
static inline uint64_t mc_sched_key(const struct mc_sched_ops *s, const struct mc_cand *c)
{
	return c->seq | ((uint64_t)(s->rows_last && dram_cmd_is_row(c->cmd)) << 63);
}

/* Whether candidate c comes first under policy s, against the pick so far whose key is *best_key
 * (UINT64_MAX: none yet), and if so its key in *best_key: its command is ready at now and its key
 * (mc_sched_key) is the least; the first of equal keys stays. Both policies' picks are
 * this over their list, and a controller that picks while it gathers its candidates (one command
 * bus) asks it of each as it meets it. Without branches: which candidate wins is as good as
 * random, and a mispredicted branch costs more than the few instructions of a conditional move. */
static inline bool mc_sched_first(const struct mc_sched_ops *s, const struct mc_cand *c,
				  cycle_t now, uint64_t *best_key)
{
	uint64_t key = mc_sched_key(s, c);
	bool take = c->earliest <= now && key < *best_key;

	*best_key = take ? key : *best_key;
	return take;
}

/* NULL-terminated list of policy names, in registry order (for the config enum). */
extern const char *const mc_sched_names[];
/* The policy at index i of mc_sched_names. */
const struct mc_sched_ops *mc_sched_get(uint32_t i);

#endif /* SIM_MC_SCHED_H */
