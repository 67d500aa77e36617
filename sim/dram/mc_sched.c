/*
 * mc_sched.c - the scheduling policies: FR-FCFS and FCFS.
 *
 *   frfcfs  first ready, first come first served (Rixner et al., ISCA 2000): among the commands
 *           that can issue now, column commands (row hits) first, then the oldest request. With
 *           the controller's row-hit cap this is FR-FCFS-Cap.
 *   fcfs    the oldest request whose next command can issue now, hit or not.
 *
 * Both are pure functions of the candidate list: same list, same choice, on every run.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>

#include "mc_sched.h"

static int pick_frfcfs(const struct mc_cand *c, size_t n, cycle_t now);
static int pick_fcfs(const struct mc_cand *c, size_t n, cycle_t now);

static const struct mc_sched_ops policies[] = {
	{ "frfcfs", "row hits first, then oldest (with mc.row_hit_cap: FR-FCFS-Cap)", true, true,
	  pick_frfcfs },
	{ "fcfs", "oldest ready request first, hits not preferred", false, false, pick_fcfs },
};

/* Policy s's pick over the list: mc_sched_first of each in turn. */
static inline int pick_first(const struct mc_sched_ops *s, const struct mc_cand *c, size_t n,
			     cycle_t now)
{
	uint64_t best_key = UINT64_MAX;
	int best = -1;
	size_t i;

	for (i = 0; i < n; i++)
		best = mc_sched_first(s, &c[i], now, &best_key) ? (int)i : best;
	return best;
}

static int pick_frfcfs(const struct mc_cand *c, size_t n, cycle_t now)
{
	return pick_first(&policies[0], c, n, now);
}

static int pick_fcfs(const struct mc_cand *c, size_t n, cycle_t now)
{
	return pick_first(&policies[1], c, n, now);
}

const char *const mc_sched_names[] = { "frfcfs", "fcfs", NULL };

const struct mc_sched_ops *mc_sched_get(uint32_t i)
{
	return i < sizeof policies / sizeof policies[0] ? &policies[i] : NULL;
}
