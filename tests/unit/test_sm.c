/*
 * test_sm.c - the SM model (sim/front/sm.c): the shared-memory bank-conflict degree, the
 * lane -> thread linearisation of a warp (x, then y, then z; partial last warps), the occupancy
 * limit of the block scheduler (warps, blocks, shared memory, registers), and, on a fixed-latency
 * memory with the issue trace, the scoreboard (a use waits for its load, a load for its pending
 * destination), the LD/ST unit's requests per cycle, the warp schedulers' issue order (loose
 * round-robin, greedy-then-oldest, several schedulers, issue width) and register occupancy.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "unit.h"

#include "params.h"
#include "run.h"
#include "sim.h"
#include "sm.h"
#include "workload.h"
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
	struct sm_params p = { .max_warps = 64, .max_blocks = 32, .shared_kb = 96,
			       .registers = 65536, .schedulers = 4, .issue_width = 1 };

	(void)state;
	/* 8-warp blocks, no shared memory, no registers given: 64 / 8 */
	assert_int_equal(sm_blocks_per_sm(&p, 8, 0, 0), 8);
	/* 1-warp blocks: the block limit */
	assert_int_equal(sm_blocks_per_sm(&p, 1, 0, 0), 32);
	/* 40 KB of shared memory each: 96 / 40 */
	assert_int_equal(sm_blocks_per_sm(&p, 2, 40 * 1024, 0), 2);
	/* too many warps, too much shared memory */
	assert_int_equal(sm_blocks_per_sm(&p, 65, 0, 0), 0);
	assert_int_equal(sm_blocks_per_sm(&p, 1, 97 * 1024, 0), 0);
	/* registers: 64 per thread = 2048 per warp, 16384 per 8-warp block: 65536 / 16384 */
	assert_int_equal(sm_block_registers(8, 64), 16384);
	assert_int_equal(sm_blocks_per_sm(&p, 8, 0, 64), 4);
	/* 33 per thread: 1056 per warp rounds up to 1280; 10240 per block: 6 blocks */
	assert_int_equal(sm_block_registers(8, 33), 10240);
	assert_int_equal(sm_blocks_per_sm(&p, 8, 0, 33), 6);
	/* 255 per thread, 32 warps: 8160 -> 8192 per warp, 262144 per block: does not fit */
	assert_int_equal(sm_blocks_per_sm(&p, 32, 0, 255), 0);
	/* sm.registers = 0: no limit */
	p.registers = 0;
	assert_int_equal(sm_blocks_per_sm(&p, 8, 0, 255), 8);
}

/* ---------------------------------------------------------------------------------------------
 * The SMs on a fixed-latency memory (memory.model = "fixed", L = 10 cycles, one SM): exact issue
 * cycles from the trace hook. A load issued at cycle c is pushed at c, accepted by the memory at
 * c + 1, replied L cycles later and popped by the SM at c + L + 2 (test_fixedmem.c), which
 * issues the dependent op in that same cycle.
 */

#define L_FIXED 10
#define MAX_TRACE 256

struct trace {
	uint32_t n;
	cycle_t cycle[MAX_TRACE];
	uint64_t gid[MAX_TRACE];
	enum workload_op_kind kind[MAX_TRACE];
};

static void trace_fn(void *ctx, cycle_t cycle, uint32_t sm, uint64_t gid,
		     const struct winst *op)
{
	struct trace *t = ctx;

	(void)sm;
	assert_true(t->n < MAX_TRACE);
	t->cycle[t->n] = cycle;
	t->gid[t->n] = gid;
	t->kind[t->n] = op->kind;
	t->n++;
}

/* Runs workload wl (with -p params) on the small test GPU with one SM, the fixed memory and
 * the config overrides extra (NULL-terminated); fills t and returns the kernel's cycles. */
static cycle_t run_traced_on(bool fixed, const char *wl, const char *const *params,
			     size_t nparams, const char *const *extra, struct trace *t)
{
	const char *ovr[16] = { "gpu.sms=1", "memory.model=\"fixed\"", "memory.latency_cycles=10",
				"memory.requests_per_cycle=64" };
	size_t n = fixed ? 4 : 1;
	struct gpu_params p;
	struct sim_err err;
	struct workload *w;
	struct run *r;
	struct sim *s;
	cycle_t cycles;

	while (extra != NULL && *extra != NULL)
		ovr[n++] = *extra++;
	if (gpu_params_load(&p, unit_src_path("configs/test/small-gpu.cfg"), ovr, n, &err) != 0)
		fail_msg("config: %s", err.msg);
	w = workload_load(unit_src_path(wl), params, nparams, &err);
	if (w == NULL)
		fail_msg("workload: %s", err.msg);
	s = sim_create(&p, &err);
	assert_non_null(s);
	r = run_create(s, (const struct workload *const *)&w, 1, &err);
	assert_non_null(r);
	memset(t, 0, sizeof *t);
	front_set_trace(run_front(r), trace_fn, t);
	assert_int_equal(run_simulate(r, &err), 0);
	cycles = run_cycles(r);
	run_destroy(r);
	sim_destroy(s);
	workload_free(w);
	return cycles;
}

static cycle_t run_traced(const char *wl, const char *const *params, size_t nparams,
			  const char *const *extra, struct trace *t)
{
	return run_traced_on(true, wl, params, nparams, extra, t);
}

static void test_scoreboard(void **state)
{
	static const char *const nouse[] = { "uses=0" };
	struct trace t;

	(void)state;
	/* The ALU op that uses v issues when the load's reply arrives: L + 2 cycles after it. */
	run_traced("tests/data/sm/scoreboard.wl", NULL, 0, NULL, &t);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.kind[0], WORKLOAD_OP_LOAD);
	assert_int_equal(t.kind[1], WORKLOAD_OP_ALU);
	assert_int_equal(t.cycle[1] - t.cycle[0], L_FIXED + 2);
	/* Without the use it issues the next cycle. */
	run_traced("tests/data/sm/scoreboard.wl", nouse, 1, NULL, &t);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.cycle[1] - t.cycle[0], 1);
	/* A load whose destination is still pending waits too (write after write). */
	run_traced("tests/data/sm/waw.wl", NULL, 0, NULL, &t);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.cycle[1] - t.cycle[0], L_FIXED + 2);
}

static void test_ldst_rate(void **state)
{
	static const char *const four[] = { "sm.ldst_requests_per_cycle=4", NULL };
	struct trace t;

	(void)state;
	/* 32 line requests, one per cycle: the last is pushed 31 cycles after the first, and the
	 * use waits for it. */
	run_traced("tests/data/sm/stride32.wl", NULL, 0, NULL, &t);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.cycle[1] - t.cycle[0], 31 + L_FIXED + 2);
	/* Four per cycle: the last leaves 7 cycles after the first. */
	run_traced("tests/data/sm/stride32.wl", NULL, 0, four, &t);
	assert_int_equal(t.cycle[1] - t.cycle[0], 7 + L_FIXED + 2);
}

static void test_scheduler_order(void **state)
{
	static const char *const gto[] = { "sm.schedulers=1", "sm.scheduler=\"gto\"", NULL };
	static const char *const lrr[] = { "sm.schedulers=1", "sm.scheduler=\"lrr\"", NULL };
	static const char *const lrr2[] = { "sm.schedulers=2", "sm.scheduler=\"lrr\"", NULL };
	static const char *const wide[] = { "sm.schedulers=1", "sm.issue_width=4", NULL };
	static const uint64_t lrr_order[12] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
	static const uint64_t gto_order[12] = { 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3 };
	struct trace t;
	uint32_t i;

	(void)state;
	/* One scheduler, 4 warps of three 1-cycle ALU ops. Round-robin takes turns. */
	run_traced("tests/data/sm/alu3.wl", NULL, 0, lrr, &t);
	assert_int_equal(t.n, 12);
	for (i = 0; i < 12; i++) {
		assert_int_equal(t.gid[i], lrr_order[i]);
		assert_int_equal(t.cycle[i], t.cycle[0] + i);
	}
	/* Greedy-then-oldest keeps warp 0 until it is done (its next op is ready every cycle). */
	run_traced("tests/data/sm/alu3.wl", NULL, 0, gto, &t);
	assert_int_equal(t.n, 12);
	for (i = 0; i < 12; i++) {
		assert_int_equal(t.gid[i], gto_order[i]);
		assert_int_equal(t.cycle[i], t.cycle[0] + i);
	}
	/* Two schedulers: slots 0 and 2 are scheduler 0's, 1 and 3 scheduler 1's; two issues a
	 * cycle, 6 cycles in all. */
	run_traced("tests/data/sm/alu3.wl", NULL, 0, lrr2, &t);
	assert_int_equal(t.n, 12);
	for (i = 0; i < 12; i += 2) {
		assert_int_equal(t.cycle[i], t.cycle[0] + i / 2);
		assert_int_equal(t.cycle[i + 1], t.cycle[i]);
		assert_int_equal(t.gid[i] % 2, 0);
		assert_int_equal(t.gid[i + 1] % 2, 1);
	}
	/* One scheduler issuing 4 a cycle: every warp each cycle, 3 cycles in all. */
	run_traced("tests/data/sm/alu3.wl", NULL, 0, wide, &t);
	assert_int_equal(t.n, 12);
	assert_int_equal(t.cycle[11] - t.cycle[0], 2);
}

/* The processing blocks share the LD/ST unit round-robin: with a warp of each of 4 schedulers
 * ready to load every time it frees, the loads go 0, 1, 2, 3, 0, 1, ... (a fixed order among the
 * schedulers would give scheduler 0's warp all three first: 0, 0, 0, 1, 1, 1, ...). */
static void test_ldst_shared_round_robin(void **state)
{
	static const char *const four[] = { "sm.schedulers=4", "sm.ldst_requests_per_cycle=4",
					     NULL };
	struct trace t;
	uint32_t i;

	(void)state;
	run_traced("tests/data/sm/ld3.wl", NULL, 0, four, &t);
	assert_int_equal(t.n, 12);
	for (i = 0; i < 12; i++) {
		assert_int_equal(t.kind[i], WORKLOAD_OP_LOAD);
		assert_int_equal(t.gid[i], i % 4);
		/* 32 line requests, 4 a cycle: the last 4 leave 7 cycles after the first 4, and the
		 * next load takes the unit in that cycle; its lines start the cycle after (4 a cycle
		 * in all), so from then on a load every 8 cycles */
		assert_int_equal(t.cycle[i] - t.cycle[0], i == 0 ? 0 : 8 * i - 1);
	}
}

static void test_register_occupancy(void **state)
{
	static const char *const small[] = { "r=16" };
	struct trace t;
	uint32_t i;

	(void)state;
	/* 128 registers per thread: two 8-warp blocks fill the 65536 registers; the third block
	 * starts when the first two retire, 100 cycles of ALU later. */
	run_traced("tests/data/sm/regs.wl", NULL, 0, NULL, &t);
	assert_int_equal(t.n, 24);
	for (i = 0; i < 16; i++)
		assert_true(t.gid[i] < 16 && t.cycle[i] < t.cycle[0] + 8);
	for (i = 16; i < 24; i++)
		assert_true(t.gid[i] >= 16 && t.cycle[i] >= t.cycle[0] + 100);
	/* 16 per thread: all three blocks at once. */
	run_traced("tests/data/sm/regs.wl", small, 1, NULL, &t);
	assert_int_equal(t.n, 24);
	assert_true(t.cycle[23] < t.cycle[0] + 8);
}

static void test_block_dispatch(void **state)
{
	static const char *const launch[] = { "sm.block_launch_cycles=50", NULL };
	static const char *const one[] = { "sm.block_dispatch_per_cycle=1", NULL };
	static const char *const two[] = { "sm.block_dispatch_per_cycle=2", NULL };
	static const char *const both[] = { "sm.block_dispatch_per_cycle=1",
					    "sm.block_launch_cycles=50", NULL };
	static const char *const half[] = { "sm.block_dispatch_per_cycle=0.5", NULL };
	static const char *const three_q[] = { "sm.block_dispatch_per_cycle=0.75", NULL };
	static const char *const three[] = { "sm.block_dispatch_per_cycle=3", NULL };
	struct trace t;
	cycle_t c0;
	uint32_t i;

	(void)state;
	/* Four one-warp blocks on four schedulers, no dispatcher limit: all issue in one cycle. */
	run_traced("tests/data/sm/blocks4.wl", NULL, 0, NULL, &t);
	assert_int_equal(t.n, 4);
	c0 = t.cycle[0];
	for (i = 0; i < 4; i++)
		assert_int_equal(t.cycle[i], c0);
	/* A launch latency of 50 cycles: every warp's first issue 50 cycles later. */
	run_traced("tests/data/sm/blocks4.wl", NULL, 0, launch, &t);
	assert_int_equal(t.n, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(t.cycle[i], c0 + 50);
	/* One block a cycle: block b starts b cycles after block 0. */
	run_traced("tests/data/sm/blocks4.wl", NULL, 0, one, &t);
	assert_int_equal(t.n, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(t.cycle[i], c0 + t.gid[i]);
	/* Two a cycle: blocks 0 and 1, then 2 and 3. */
	run_traced("tests/data/sm/blocks4.wl", NULL, 0, two, &t);
	assert_int_equal(t.n, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(t.cycle[i], c0 + t.gid[i] / 2);
	/* Half a block a cycle: one every other cycle. */
	run_traced("tests/data/sm/blocks4.wl", NULL, 0, half, &t);
	assert_int_equal(t.n, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(t.cycle[i], c0 + 2 * t.gid[i]);
	/* Three blocks in four cycles: floor(n / 0.75) = 0, 1, 2, 4. */
	run_traced("tests/data/sm/blocks4.wl", NULL, 0, three_q, &t);
	assert_int_equal(t.n, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(t.cycle[i], c0 + (t.gid[i] == 3 ? 4 : t.gid[i]));
	/* Three a cycle (not a power of two): blocks 0-2, then 3 a cycle later. */
	run_traced("tests/data/sm/blocks4.wl", NULL, 0, three, &t);
	assert_int_equal(t.n, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(t.cycle[i], c0 + t.gid[i] / 3);
	/* Both: the slot, then the latency. */
	run_traced("tests/data/sm/blocks4.wl", NULL, 0, both, &t);
	assert_int_equal(t.n, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(t.cycle[i], c0 + 50 + t.gid[i]);
}

/* One block per SM, two blocks of one store each, on the real hierarchy: the second block
 * starts when the first retires. With l1.store_ack = "l2" the first block's store is done
 * only when the L2's ack comes back, which is at least the L2's pipeline (hit latency) later
 * than when its write entered the crossbar (store_ack = "crossbar"). */
static void test_block_retire_store_ack(void **state)
{
	static const char *const xbar[] = { "sm.max_blocks=1", "l2.hit_latency_cycles=150",
					    NULL };
	static const char *const l2[] = { "sm.max_blocks=1", "l2.hit_latency_cycles=150",
					  "l1.store_ack=\"l2\"", NULL };
	struct trace t;
	cycle_t gap_xbar, gap_l2;

	(void)state;
	run_traced_on(false, "tests/data/sm/store2.wl", NULL, 0, xbar, &t);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.gid[0], 0);
	assert_int_equal(t.gid[1], 1);
	gap_xbar = t.cycle[1] - t.cycle[0];
	run_traced_on(false, "tests/data/sm/store2.wl", NULL, 0, l2, &t);
	assert_int_equal(t.n, 2);
	gap_l2 = t.cycle[1] - t.cycle[0];
	/* crossbar: the write leaves the L1 a few cycles after the store issues */
	assert_true(gap_xbar < 20);
	/* l2: there and back through the crossbar, and the L2's 150 cycles */
	assert_true(gap_l2 >= gap_xbar + 150);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bank_conflicts),
		cmocka_unit_test(test_lanes),
		cmocka_unit_test(test_occupancy),
		cmocka_unit_test(test_scoreboard),
		cmocka_unit_test(test_ldst_rate),
		cmocka_unit_test(test_scheduler_order),
		cmocka_unit_test(test_ldst_shared_round_robin),
		cmocka_unit_test(test_register_occupancy),
		cmocka_unit_test(test_block_dispatch),
		cmocka_unit_test(test_block_retire_store_ack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
