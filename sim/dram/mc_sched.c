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

static bool is_column(enum dram_cmd c)
{
	return !dram_cmd_is_row(c);
}

/*
 * Both picks take the smallest key among the ready candidates, the first of equal keys: the
 * request's age (seq, below 2^63), under frfcfs with row commands ranked after every column
 * command by the top bit. Without branches: which candidate wins is as good as random, and a
 * mispredicted branch costs more than the few instructions of a conditional move.
 */
#define KEY_ROW (UINT64_C(1) << 63)

static int pick_frfcfs(const struct mc_cand *c, size_t n, cycle_t now)
{
	uint64_t best_key = UINT64_MAX;
	int best = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t key = c[i].seq | (is_column(c[i].cmd) ? 0 : KEY_ROW);
		bool take = c[i].earliest <= now && key < best_key;

		best_key = take ? key : best_key;
		best = take ? (int)i : best;
	}
	return best;
}

static int pick_fcfs(const struct mc_cand *c, size_t n, cycle_t now)
{
	uint64_t best_key = UINT64_MAX;
	int best = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		bool take = c[i].earliest <= now && c[i].seq < best_key;

		best_key = take ? c[i].seq : best_key;
		best = take ? (int)i : best;
	}
	return best;
}

static const struct mc_sched_ops policies[] = {
	{ "frfcfs", "row hits first, then oldest (with mc.row_hit_cap: FR-FCFS-Cap)", true,
	  pick_frfcfs },
	{ "fcfs", "oldest ready request first, hits not preferred", false, pick_fcfs },
};

const char *const mc_sched_names[] = { "frfcfs", "fcfs", NULL };

const struct mc_sched_ops *mc_sched_get(uint32_t i)
{
	return i < sizeof policies / sizeof policies[0] ? &policies[i] : NULL;
}
