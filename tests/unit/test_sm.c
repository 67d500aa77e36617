/*
 * test_sm.c - the pieces of the SM model that stand alone (sim/front/sm.c): the shared-memory
 * bank-conflict degree, the lane -> thread linearisation of a warp (x, then y, then z; partial
 * last warps), and the occupancy limit of the block scheduler (warps, blocks, shared memory).
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "unit.h"

#include "sm.h"
#include "warpexec.h"

#define ALL 0xffffffffu

static void test_bank_conflicts(void **state)
{
	uint64_t w[SM_WARP_LANES];
	uint32_t i;

	(void)state;
	/* consecutive words: 32 banks, no conflict */
	for (i = 0; i < 32; i++)
		w[i] = 100 + i;
	assert_int_equal(sm_bank_conflict_degree(w, ALL, 32), 1);
	/* tile[32][32] column: word i * 32, all in one bank, 32 distinct words */
	for (i = 0; i < 32; i++)
		w[i] = i * 32;
	assert_int_equal(sm_bank_conflict_degree(w, ALL, 32), 32);
	/* tile[32][33] column: word i * 33, bank i: none */
	for (i = 0; i < 32; i++)
		w[i] = i * 33;
	assert_int_equal(sm_bank_conflict_degree(w, ALL, 32), 1);
	/* broadcast: every lane the same word */
	for (i = 0; i < 32; i++)
		w[i] = 7;
	assert_int_equal(sm_bank_conflict_degree(w, ALL, 32), 1);
	/* stride 2 words: two distinct words per bank used */
	for (i = 0; i < 32; i++)
		w[i] = i * 2;
	assert_int_equal(sm_bank_conflict_degree(w, ALL, 32), 2);
	/* only lanes 0 and 1 active of the column: 2-way; none active: 0 */
	for (i = 0; i < 32; i++)
		w[i] = i * 32;
	assert_int_equal(sm_bank_conflict_degree(w, 0x3, 32), 2);
	assert_int_equal(sm_bank_conflict_degree(w, 0, 32), 0);
}

static void test_lanes(void **state)
{
	const uint32_t b[3] = { 32, 8, 1 }, odd[3] = { 5, 3, 2 };
	uint32_t t[3];

	(void)state;
	assert_true(wexec_lane_thread(b, 0, 31, t));
	assert_int_equal(t[0], 31);
	assert_int_equal(t[1], 0);
	assert_true(wexec_lane_thread(b, 3, 2, t));
	assert_int_equal(t[0], 2);
	assert_int_equal(t[1], 3);
	/* 5 x 3 x 2 = 30 threads: lane 17 is (2, 0, 1); lane 30 is beyond the block */
	assert_true(wexec_lane_thread(odd, 0, 17, t));
	assert_int_equal(t[0], 2);
	assert_int_equal(t[1], 0);
	assert_int_equal(t[2], 1);
	assert_false(wexec_lane_thread(odd, 0, 30, t));
	assert_int_equal(wexec_warp_mask(30, 0), 0x3fffffffu);
	assert_int_equal(wexec_warp_mask(64, 1), ALL);
	assert_int_equal(wexec_warp_mask(33, 1), 1);
	assert_int_equal(wexec_warp_mask(32, 1), 0);
}

static void test_occupancy(void **state)
{
	struct sm_params p = { 64, 32, 96, 1, SM_SCHED_LRR, 24, 32 };

	(void)state;
	/* 8-warp blocks, no shared memory: 64 / 8 */
	assert_int_equal(sm_blocks_per_sm(&p, 8, 0), 8);
	/* 1-warp blocks: the block limit */
	assert_int_equal(sm_blocks_per_sm(&p, 1, 0), 32);
	/* 40 KB of shared memory each: 96 / 40 */
	assert_int_equal(sm_blocks_per_sm(&p, 2, 40 * 1024), 2);
	/* too many warps, too much shared memory */
	assert_int_equal(sm_blocks_per_sm(&p, 65, 0), 0);
	assert_int_equal(sm_blocks_per_sm(&p, 1, 97 * 1024), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bank_conflicts),
		cmocka_unit_test(test_lanes),
		cmocka_unit_test(test_occupancy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
