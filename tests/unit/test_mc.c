/*
 * test_mc.c - the memory controller (mc.c) driven directly, on exact cycles.
 *
 * Each test builds an event queue, a DRAM clock of the spec's tCK and one or two controllers,
 * enqueues 32 B accesses at chosen cycles and checks the cycle each one completes against a hand
 * computation from spec.t[] (the numbers in the comments are GDDR6 at 14 Gb/s, tCK 571 ps:
 * CL 24, CWL 6, RCDRD 27, RCDWR 16, RP 27, RAS 53, RC 80, RTP 4, CCD_L 4, RRD_L 8, RTW 22,
 * WTR_S 9, REFI 3421, REFIpb 214, burst 2; HBM2 at 2 Gb/s, tCK 1 ns: CL 17, RCDRD 12, RRD_S 4,
 * an ACT holds the row bus 2 cycles). Every command goes through the independent rule checker
 * (dram_check.c) and a log; every test ends with everything completed, mc_pending() == 0,
 * mc_check() and no rule violation.
 *
 * Timing convention of the harness: an access "enqueued at cycle c" is enqueued by an event
 * half a cycle after edge c, as a front-end unit ticked at edge c would; its arrival is c and the
 * controller first looks at it at edge c + 1. An unloaded read of a closed bank therefore
 * completes at c + 1 (ACT) + tRCDRD (RD) + CL + burst.
 *
 *   a. latency: closed bank, row hit, conflict (tRP bound; tRAS/tRC bound); HBM2 pseudo-channels
 *      and its separate row and column command buses;
 *   b. scheduling: FR-FCFS serves a younger hit before an older conflict, FCFS the older first;
 *      the row-hit cap;
 *   c. write drain watermarks, writes with no read waiting;
 *   d. page policies: closed, adaptive, open;
 *   e. refresh: per-bank and all-bank counts and cycles with the staggered first deadline, off,
 *      postponement under load and the forced refresh;
 *   f. inline ECC: data bursts per row, ECC reads and the ECC cache, read-modify-write of a
 *      partial write, write-back of dirty ECC lines; mc_params_check messages;
 *   g. backpressure: queue room counts entries in flight, the producer woken on a completion,
 *      accept_per_cycle;
 *   h. idle refresh and the look-ahead: the same commands at the same cycles with fewer events
 *      (the look-ahead also where a write drain ends at a pass it could sleep through).
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "unit.h"

#include "addrmap.h"
#include "clock.h"
#include "dram.h"
#include "dram_check.h"
#include "dram_std.h"
#include "eventq.h"
#include "link.h"
#include "mc.h"
#include "mc_sched.h"
#include "stats.h"

/* ---------------------------------------------------------------------------------------------
 * Harness
 */

#define MAX_ACC 4096  /* accesses scheduled by a test */
#define MAX_DONE 8192 /* completions recorded (more are counted) */
#define MAX_LOG 16384 /* commands logged (more are checked and counted) */
#define MAX_MC 2

struct done_rec {
	uint32_t id;
	cycle_t arrival, done;
	bool is_write;
};

struct cmd_rec {
	uint32_t ch;
	enum dram_cmd cmd;
	struct dram_addr a;
	cycle_t at;
};

struct env;

struct acc_ev {
	struct env *e;
	uint32_t id;
	struct mc_access a;
};

struct env {
	struct dram_spec s;
	struct mc_params p;
	struct eventq *q;
	struct clock *clk;
	struct stats *st;
	struct dram_check *k;
	struct mc *mc[MAX_MC];
	uint32_t nmc;
	/* accesses scheduled with acc_at (ids 1..nacc) */
	struct acc_ev acc[MAX_ACC];
	uint32_t nacc;
	/* accesses enqueued by other means (feeders), counted here */
	uint64_t nextra;
	struct done_rec done[MAX_DONE];
	uint64_t ndone;
	struct cmd_rec log[MAX_LOG];
	uint32_t nlog;
	/* a producer unit for the feeder tests */
	struct clock_unit *feeder;
	uint32_t feed_next, feed_n;
	cycle_t feed_ticks[64];
	uint32_t nfeed_ticks;
	cycle_t feed_stop;
	uint32_t feed_bank, feed_row, feed_depth;
};

#define T(e, x) ((cycle_t)(e)->s.t[DRAM_T_##x])
#define BURST(e) ((cycle_t)(e)->s.burst_cycles)

static void spec_init(struct dram_spec *s, enum dram_standard std, double rate, uint32_t channels)
{
	struct dram_params dp;
	struct dram_timing_params tp;
	struct sim_err err;

	memset(&dp, 0, sizeof dp);
	memset(&tp, 0, sizeof tp);
	memset(&err, 0, sizeof err);
	dp.standard = std;
	dp.data_rate_gbps = rate;
	dp.channels = channels;
	dp.bank_group_mode = true;
	if (dram_spec_resolve(s, &dp, &tp, &err) != 0)
		fail_msg("dram_spec_resolve: %s", err.msg);
}

static void params_default(struct mc_params *p)
{
	memset(p, 0, sizeof *p);
	p->scheduler = 0; /* frfcfs */
	p->read_queue = 32;
	p->write_queue = 32;
	p->write_high = 24;
	p->write_low = 8;
	p->row_hit_cap = 16;
	p->page_policy = MC_PAGE_OPEN;
	p->accept_per_cycle = 0;
	p->refresh = MC_REFRESH_OFF; /* the refresh tests turn it on */
	p->refresh_postpone = 8;
	p->ecc = MC_ECC_OFF;
	p->ecc_cache_entries = 32;
}

/* A spec and default parameters; the test adjusts e->p, then calls env_start. The env is kept in
 * *state so that the teardown frees it even when an assertion fails. */
static struct env *env_new(void **state, enum dram_standard std, double rate, uint32_t channels)
{
	struct env *e = calloc(1, sizeof *e);

	assert_non_null(e);
	*state = e;
	spec_init(&e->s, std, rate, channels);
	params_default(&e->p);
	return e;
}

static void log_hook(void *ctx, uint32_t ch, enum dram_cmd cmd, const struct dram_addr *a,
		     cycle_t at)
{
	struct env *e = ctx;

	if (e->nlog < MAX_LOG) {
		struct cmd_rec *r = &e->log[e->nlog++];

		r->ch = ch;
		r->cmd = cmd;
		r->a = *a;
		r->at = at;
	}
	dram_check_hook(e->k, ch, cmd, a, at);
}

static void on_done(void *cb_ctx, const struct mc_access *a, cycle_t arrival, cycle_t done)
{
	struct env *e = cb_ctx;

	/* Reported at the cycle the data transfer ends, never later. */
	assert_int_equal(done, clock_cycle(e->clk));
	assert_true(done > arrival);
	if (e->ndone < MAX_DONE) {
		struct done_rec *r = &e->done[e->ndone];

		r->id = (uint32_t)(uintptr_t)a->ctx;
		r->arrival = arrival;
		r->done = done;
		r->is_write = a->is_write;
	}
	e->ndone++;
}

/* Creates the queue, the DRAM clock and controllers for channels 0 .. nmc - 1. */
static void env_start(struct env *e, uint32_t nmc)
{
	struct sim_err err;
	uint32_t i;
	char prefix[16];

	memset(&err, 0, sizeof err);
	if (mc_params_check(&e->p, &e->s, &err) != 0)
		fail_msg("mc_params_check: %s", err.msg);
	assert_true(nmc <= MAX_MC && nmc <= e->s.channels);
	e->q = eventq_create();
	e->clk = clock_create(e->q, "dram", e->s.tck_ps);
	e->st = stats_create();
	e->k = dram_check_create(&e->s);
	e->nmc = nmc;
	for (i = 0; i < nmc; i++) {
		snprintf(prefix, sizeof prefix, "mc%u", i);
		e->mc[i] = mc_create(&e->p, &e->s, i, e->clk, on_done, e, e->st, prefix);
		dram_chan_set_hook(mc_dram(e->mc[i]), log_hook, e);
	}
}

static int env_free(void **state)
{
	struct env *e = *state;
	uint32_t i;

	if (e == NULL)
		return 0;
	for (i = 0; i < e->nmc; i++)
		mc_destroy(e->mc[i]);
	if (e->clk != NULL)
		clock_destroy(e->clk);
	if (e->q != NULL)
		eventq_destroy(e->q);
	if (e->st != NULL)
		stats_destroy(e->st);
	dram_check_destroy(e->k);
	free(e);
	*state = NULL;
	return 0;
}

static struct dram_addr daddr(const struct env *e, uint32_t ch, uint32_t pc, uint32_t bank,
			      uint32_t row, uint32_t col)
{
	struct dram_addr a;

	memset(&a, 0, sizeof a);
	a.ch = ch;
	a.pc = pc;
	a.bg = bank / e->s.banks_per_group;
	a.ba = bank % e->s.banks_per_group;
	a.row = row;
	a.col = col;
	return a;
}

static void enqueue_ev(void *ctx, tick_t now)
{
	struct acc_ev *ev = ctx;
	struct env *e = ev->e;
	struct mc *m = e->mc[ev->a.da.ch];

	(void)now;
	assert_true(mc_can_accept(m, ev->a.is_write));
	mc_enqueue(m, &ev->a);
	mc_check(m);
}

/* Schedules an access to (ch, pc, bank, row, col), enqueued half a cycle after edge cyc (see
 * the convention at the top). Returns its id. */
static uint32_t acc_at_full(struct env *e, cycle_t cyc, uint32_t ch, uint32_t pc, uint32_t bank,
			    uint32_t row, uint32_t col, bool is_write, bool partial)
{
	struct acc_ev *ev;

	assert_true(e->nacc < MAX_ACC);
	ev = &e->acc[e->nacc++];
	ev->e = e;
	ev->id = e->nacc;
	memset(&ev->a, 0, sizeof ev->a);
	ev->a.da = daddr(e, ch, pc, bank, row, col);
	ev->a.is_write = is_write;
	ev->a.partial = partial;
	ev->a.ctx = (void *)(uintptr_t)ev->id;
	eventq_schedule(e->q, clock_tick_of(e->clk, cyc) + e->s.tck_ps / 2, EVQ_PRIO_DEFAULT,
			enqueue_ev, ev);
	return ev->id;
}

/* Channel 0, pseudo-channel 0. */
static uint32_t rd_at(struct env *e, cycle_t cyc, uint32_t bank, uint32_t row, uint32_t col)
{
	return acc_at_full(e, cyc, 0, 0, bank, row, col, false, false);
}

static uint32_t wr_at(struct env *e, cycle_t cyc, uint32_t bank, uint32_t row, uint32_t col)
{
	return acc_at_full(e, cyc, 0, 0, bank, row, col, true, false);
}

/* Runs every event up to and including the edge of cycle cyc. */
static void run_to(struct env *e, cycle_t cyc)
{
	eventq_run_until(e->q, clock_tick_of(e->clk, cyc));
}

static uint64_t pending_all(const struct env *e)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < e->nmc; i++)
		n += mc_pending(e->mc[i]);
	return n;
}

/* Runs until every access scheduled or fed has completed and the controllers are empty (refresh
 * keeps events coming, so this steps rather than running the queue dry). */
static void run_all(struct env *e)
{
	tick_t limit = clock_tick_of(e->clk, 10000000);

	while (e->ndone < e->nacc + e->nextra || pending_all(e) != 0) {
		if (!eventq_step(e->q))
			fail_msg("no event left with %" PRIu64 " of %" PRIu64 " accesses done, %"
				 PRIu64 " pending", e->ndone, e->nacc + e->nextra, pending_all(e));
		if (eventq_now(e->q) > limit)
			fail_msg("not done by cycle 10M");
	}
}

/* The first max commands, as TAP comments: what a failing test shows. */
static void dump_log(const struct env *e, uint32_t max)
{
	uint32_t i;

	for (i = 0; i < e->nlog && i < max; i++)
		fprintf(stderr, "# %" PRIu64 " ch%u pc%u %s b%u r%u c%u\n", e->log[i].at,
			e->log[i].ch, e->log[i].a.pc, dram_cmd_name(e->log[i].cmd),
			dram_bank_index(&e->s, &e->log[i].a), e->log[i].a.row, e->log[i].a.col);
}

static void assert_no_violations(const struct env *e)
{
	if (dram_check_violations(e->k) != 0) {
		dump_log(e, 64);
		fail_msg("%" PRIu64 " rule violations, first: %s", dram_check_violations(e->k),
			 dram_check_first(e->k));
	}
}

/* The end of every test: all done, controllers empty and consistent, no rule broken. */
static void finish(struct env *e)
{
	uint32_t i;

	run_all(e);
	assert_int_equal(e->ndone, e->nacc + e->nextra);
	for (i = 0; i < e->nmc; i++) {
		assert_int_equal(mc_pending(e->mc[i]), 0);
		mc_check(e->mc[i]);
		dram_chan_check(mc_dram(e->mc[i]));
	}
	assert_true(dram_check_commands(e->k) > 0);
	assert_no_violations(e);
}

static const struct done_rec *done_of(const struct env *e, uint32_t id)
{
	uint64_t i;

	for (i = 0; i < e->ndone && i < MAX_DONE; i++)
		if (e->done[i].id == id)
			return &e->done[i];
	fail_msg("access %u has not completed", id);
	return NULL;
}

/* Asserts access id arrived at `arrival` and completed at `done`. */
static void expect_done(const struct env *e, uint32_t id, cycle_t arrival, cycle_t done)
{
	const struct done_rec *r = done_of(e, id);

	if (r->arrival != arrival || r->done != done)
		fail_msg("access %u: arrival %" PRIu64 ", done %" PRIu64 "; expected arrival %"
			 PRIu64 ", done %" PRIu64, id, r->arrival, r->done, arrival, done);
}

static cycle_t done_at(const struct env *e, uint32_t id)
{
	return done_of(e, id)->done;
}

/* Position of access id in completion order. */
static uint64_t done_rank(const struct env *e, uint32_t id)
{
	uint64_t i;

	for (i = 0; i < e->ndone && i < MAX_DONE; i++)
		if (e->done[i].id == id)
			return i;
	fail_msg("access %u has not completed", id);
	return 0;
}

static uint64_t stat(const struct env *e, uint32_t ch, const char *name)
{
	char full[96];
	double v;

	snprintf(full, sizeof full, "mc%u.%s", ch, name);
	if (!stats_get(e->st, full, &v))
		fail_msg("no statistic %s", full);
	return (uint64_t)v;
}

/* Cycle of the nth (from 0) cmd to (ch, pc, bank) in the log; CYCLE_NEVER if there is none. */
static cycle_t cmd_cycle(const struct env *e, uint32_t ch, uint32_t pc, enum dram_cmd cmd,
			 uint32_t bank, uint32_t nth)
{
	uint32_t i;

	for (i = 0; i < e->nlog; i++) {
		const struct cmd_rec *r = &e->log[i];

		if (r->ch == ch && r->a.pc == pc && r->cmd == cmd &&
		    (cmd == DRAM_CMD_REFAB || dram_bank_index(&e->s, &r->a) == bank) && nth-- == 0)
			return r->at;
	}
	return CYCLE_NEVER;
}

/* Commands cmd in the log on channel ch (any bank). */
static uint32_t cmd_count(const struct env *e, uint32_t ch, enum dram_cmd cmd)
{
	uint32_t i, n = 0;

	for (i = 0; i < e->nlog; i++)
		n += e->log[i].ch == ch && e->log[i].cmd == cmd;
	return n;
}

/* Column commands to (ch 0, pc 0, bank) issued in [from, to). */
static uint32_t col_cmds_between(const struct env *e, uint32_t bank, cycle_t from, cycle_t to)
{
	uint32_t i, n = 0;

	for (i = 0; i < e->nlog; i++) {
		const struct cmd_rec *r = &e->log[i];

		if (r->ch == 0 && r->a.pc == 0 && !dram_cmd_is_row(r->cmd) &&
		    dram_bank_index(&e->s, &r->a) == bank && r->at >= from && r->at < to)
			n++;
	}
	return n;
}

/* ---------------------------------------------------------------------------------------------
 * a. Latency
 */

static void test_latency_gddr6(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t a, b, c;
	cycle_t act, rd, pre;

	env_start(e, 1);
	assert_int_equal(e->s.tck_ps, 571);
	assert_int_equal(BURST(e), 2);

	/* Closed bank: enqueued at 10, ACT at the next edge 11, RD at 11 + tRCDRD = 38, data ends
	 * at 38 + CL + burst = 38 + 24 + 2 = 64. */
	a = rd_at(e, 10, 0, 1, 0);
	/* The same row later: a row hit, RD at 101, done 101 + 24 + 2 = 127. */
	b = rd_at(e, 100, 0, 1, 1);
	/* Another row of the bank: a conflict. PRE at 201 (tRAS from the ACT at 11 and tRTP from
	 * the RD at 101 are long over), ACT at 201 + tRP = 228 (tRC from 11 allows 91), RD at
	 * 228 + tRCDRD = 255, done 255 + 26 = 281. */
	c = rd_at(e, 200, 0, 2, 0);
	finish(e);

	act = 10 + 1;
	rd = act + T(e, RCDRD);
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_ACT, 0, 0), act);
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_RD, 0, 0), rd);
	expect_done(e, a, 10, rd + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, a), 64);
	expect_done(e, b, 100, 101 + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, b), 127);
	pre = 201;
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_PRE, 0, 0), pre);
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_ACT, 0, 1), pre + T(e, RP));
	expect_done(e, c, 200, pre + T(e, RP) + T(e, RCDRD) + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, c), 281);

	assert_int_equal(stat(e, 0, "reads"), 3);
	assert_int_equal(stat(e, 0, "writes"), 0);
	assert_int_equal(stat(e, 0, "row_hits"), 1);
	assert_int_equal(stat(e, 0, "row_misses"), 1);
	assert_int_equal(stat(e, 0, "row_conflicts"), 1);
	/* Arrival to RD: 38 - 10, 101 - 100, 255 - 200; RD to data end: CL + burst each. */
	assert_int_equal(stat(e, 0, "read_wait_cycles"), 28 + 1 + 55);
	assert_int_equal(stat(e, 0, "read_service_cycles"), 3 * (24 + 2));
}

/* A conflict right behind the access that opened the row: tRAS holds the PRE, tRP and tRC the
 * ACT. */
static void test_conflict_tras(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t a, x;
	cycle_t pre, act;

	env_start(e, 1);
	a = rd_at(e, 0, 0, 1, 0); /* ACT 1, RD 28, done 54 */
	x = rd_at(e, 1, 0, 2, 0); /* arrives after the ACT */
	finish(e);

	expect_done(e, a, 0, 1 + T(e, RCDRD) + T(e, CL) + BURST(e));
	/* PRE at max(ACT 1 + tRAS 53, RD 28 + tRTP 4) = 54; ACT at max(54 + tRP 27, 1 + tRC 80)
	 * = 81; RD 81 + 27 = 108; done 108 + 26 = 134. */
	pre = 1 + T(e, RAS);
	act = pre + T(e, RP) > 1 + T(e, RC) ? pre + T(e, RP) : 1 + T(e, RC);
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_PRE, 0, 0), pre);
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_ACT, 0, 1), act);
	expect_done(e, x, 1, act + T(e, RCDRD) + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, x), 134);
	assert_int_equal(stat(e, 0, "row_conflicts"), 1);
	assert_int_equal(stat(e, 0, "row_misses"), 1);
}

/* HBM2: two pseudo-channels share the command bus of the channel; an ACT holds the row bus two
 * cycles; a row and a column command may issue in the same cycle. */
static void test_latency_hbm2_pcs(void **state)
{
	struct env *e = env_new(state, DRAM_STD_HBM2, 2.0, 1);
	uint32_t a, b, c;
	cycle_t ra, rb;

	env_start(e, 1);
	assert_int_equal(e->s.pcs, 2);
	assert_int_equal(e->s.tck_ps, 1000);
	assert_int_equal(e->s.act_cmd_cycles, 2);
	a = acc_at_full(e, 0, 0, 0, 0, 1, 0, false, false); /* pc0 bank 0 */
	b = acc_at_full(e, 0, 0, 1, 0, 1, 0, false, false); /* pc1 bank 0 */
	/* pc0 bank 4 (group 1), arriving at 12: its ACT goes at 13 on the row bus, in the same
	 * cycle as a's RD on the column bus. */
	c = acc_at_full(e, 12, 0, 0, 4, 1, 0, false, false);
	finish(e);

	/* ACT pc0 at 1 (older first); ACT pc1 at 1 + 2 = 3 (row bus); RD pc0 at 1 + tRCDRD 12
	 * = 13, done 13 + CL 17 + 2 = 32; RD pc1 at 15, done 34. */
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_ACT, 0, 0), 1);
	assert_int_equal(cmd_cycle(e, 0, 1, DRAM_CMD_ACT, 0, 0), 1 + e->s.act_cmd_cycles);
	ra = 1 + T(e, RCDRD);
	rb = 1 + e->s.act_cmd_cycles + T(e, RCDRD);
	expect_done(e, a, 0, ra + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, a), 32);
	expect_done(e, b, 0, rb + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, b), 34);
	/* c: ACT at 13 (tRRD_S 4 from the pc0 ACT at 1 is over) with a's RD; RD 25, done 44. */
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_RD, 0, 0), ra);
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_ACT, 4, 0), ra);
	expect_done(e, c, 12, ra + T(e, RCDRD) + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, c), 44);
	assert_int_equal(stat(e, 0, "row_misses"), 3);
	assert_int_equal(stat(e, 0, "reads"), 3);
}

/* ---------------------------------------------------------------------------------------------
 * b. Scheduling
 */

/* A opens row 1 (ACT 1, RD 28); X (row 2) arrives at 2, Y (row 1) at 3. */
static void sched_scenario(struct env *e, uint32_t *a, uint32_t *x, uint32_t *y)
{
	*a = rd_at(e, 0, 0, 1, 0);
	*x = rd_at(e, 2, 0, 2, 0);
	*y = rd_at(e, 3, 0, 1, 1);
}

static void test_frfcfs_hit_first(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t a, x, y;

	env_start(e, 1);
	sched_scenario(e, &a, &x, &y);
	finish(e);

	/* The younger hit Y: RD at 28 + tCCD_L 4 = 32, done 58. Then X: PRE at max(1 + tRAS 53,
	 * 32 + tRTP 4) = 54, ACT 81, RD 108, done 134. */
	expect_done(e, a, 0, 54);
	expect_done(e, y, 3, 28 + T(e, CCD_L) + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, y), 58);
	expect_done(e, x, 2, 1 + T(e, RAS) + T(e, RP) + T(e, RCDRD) + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, x), 134);
	assert_true(done_rank(e, y) < done_rank(e, x));
	assert_int_equal(stat(e, 0, "row_hits"), 1);
	assert_int_equal(stat(e, 0, "row_conflicts"), 1);
}

/* The policies alone, on hand-made candidate lists (what the scenarios above cannot reach: a
 * column command of one bank against an older row command of another). */
static void test_pick_policies(void **state)
{
	const struct mc_sched_ops *fr = mc_sched_get(0), *fc = mc_sched_get(1);
	const cycle_t now = 100;
	const struct mc_cand c[] = {
		{ .seq = 5, .cmd = DRAM_CMD_ACT, .earliest = 90, .bank = 0 },
		{ .seq = 9, .cmd = DRAM_CMD_RD, .earliest = 100, .bank = 1 },
		{ .seq = 7, .cmd = DRAM_CMD_RDA, .earliest = 50, .bank = 2 },
		{ .seq = 1, .cmd = DRAM_CMD_PRE, .earliest = 101, .bank = 3 }, /* not ready */
		{ .seq = 6, .cmd = DRAM_CMD_WR, .earliest = 101, .bank = 4 },  /* not ready */
	};
	const struct mc_cand rows[] = {
		{ .seq = 0, .cmd = DRAM_CMD_REFPB, .earliest = 10, .bank = 5 },
		{ .seq = 8, .cmd = DRAM_CMD_PRE, .earliest = 10, .bank = 6 },
		{ .seq = 0, .cmd = DRAM_CMD_REFPB, .earliest = 10, .bank = 7 },
	};

	(void)state;
	assert_string_equal(fr->name, "frfcfs");
	assert_string_equal(fc->name, "fcfs");
	/* frfcfs: the oldest ready column command (seq 7), though a row command is older */
	assert_int_equal(fr->pick(c, 5, now), 2);
	/* no column command ready: the oldest ready row command */
	assert_int_equal(fr->pick(c, 1, now), 0);
	assert_int_equal(fr->pick(c, 5, 49), -1);
	/* equal ages (refreshes have none): the first in the list */
	assert_int_equal(fr->pick(rows, 3, now), 0);
	/* fcfs: the oldest ready command, row or column */
	assert_int_equal(fc->pick(c, 5, now), 0);
	assert_int_equal(fc->pick(c + 1, 4, now), 1);
	assert_int_equal(fc->pick(rows, 3, now), 0);
	assert_int_equal(fc->pick(c, 5, 49), -1);
}

static void test_fcfs_oldest_first(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t a, x, y;

	e->p.scheduler = 1; /* fcfs */
	env_start(e, 1);
	sched_scenario(e, &a, &x, &y);
	finish(e);

	/* X before Y: PRE at 54, ACT 81, RD 108, done 134. Then Y conflicts with row 2: PRE at
	 * max(81 + tRAS 53, 108 + tRTP 4) = 134, ACT 161 (= 81 + tRC too), RD 188, done 214. */
	expect_done(e, a, 0, 54);
	expect_done(e, x, 2, 134);
	expect_done(e, y, 3, 81 + T(e, RAS) + T(e, RP) + T(e, RCDRD) + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, y), 214);
	assert_true(done_rank(e, x) < done_rank(e, y));
	assert_int_equal(stat(e, 0, "row_hits"), 0);
	assert_int_equal(stat(e, 0, "row_conflicts"), 2);
}

/* Row-hit cap 2: A opened row 1 and was served (1 column command); X (row 2) waits; of the five
 * younger hits H1..H5 only H1 is served (the second column command since the ACT), then the cap
 * closes the row for X; H2..H5 follow after X. */
static void test_row_hit_cap(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t a, x, h[5], i;
	cycle_t act2;

	e->p.row_hit_cap = 2;
	env_start(e, 1);
	a = rd_at(e, 0, 0, 1, 0);
	x = rd_at(e, 2, 0, 2, 0);
	for (i = 0; i < 5; i++)
		h[i] = rd_at(e, 2, 0, 1, 1 + i);
	finish(e);

	/* A 54, H1 RD 32 done 58; PRE (cap) at 54, X: ACT 81, RD 108, done 134; H2: PRE at
	 * max(81 + 53, 108 + 4) = 134, ACT 161, RD 188, done 214; H3..H5 every tCCD_L: 218, 222,
	 * 226. */
	expect_done(e, a, 0, 54);
	expect_done(e, h[0], 2, 58);
	expect_done(e, x, 2, 134);
	act2 = 81 + T(e, RAS) + T(e, RP);
	for (i = 1; i < 5; i++)
		expect_done(e, h[i], 2,
			    act2 + T(e, RCDRD) + (i - 1) * T(e, CCD_L) + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, h[4]), 226);
	/* Completion order: A, H1, X, H2 .. H5. */
	assert_int_equal(done_rank(e, a), 0);
	assert_int_equal(done_rank(e, h[0]), 1);
	assert_int_equal(done_rank(e, x), 2);
	for (i = 1; i < 5; i++)
		assert_int_equal(done_rank(e, h[i]), 2 + i);
	/* Two column commands on row 1 before its PRE. */
	assert_int_equal(col_cmds_between(e, 0, 0, cmd_cycle(e, 0, 0, DRAM_CMD_PRE, 0, 0)), 2);
	assert_int_equal(stat(e, 0, "cap_preempts"), 1);
	assert_int_equal(stat(e, 0, "row_hits"), 4);
	assert_int_equal(stat(e, 0, "row_misses"), 1);
	assert_int_equal(stat(e, 0, "row_conflicts"), 2);
}

/* No cap: every hit first, X last, and no cap preemption. */
static void test_row_hit_nocap(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t a, x, h[5], i;

	e->p.row_hit_cap = 0;
	env_start(e, 1);
	a = rd_at(e, 0, 0, 1, 0);
	x = rd_at(e, 2, 0, 2, 0);
	for (i = 0; i < 5; i++)
		h[i] = rd_at(e, 2, 0, 1, 1 + i);
	finish(e);

	expect_done(e, a, 0, 54);
	for (i = 0; i < 5; i++)
		expect_done(e, h[i], 2, 28 + (i + 1) * T(e, CCD_L) + T(e, CL) + BURST(e));
	assert_int_equal(done_rank(e, x), 6);
	/* PRE at max(54, last RD 48 + 4) = 54: X done 134 as before. */
	expect_done(e, x, 2, 134);
	assert_int_equal(stat(e, 0, "cap_preempts"), 0);
	assert_int_equal(stat(e, 0, "row_hits"), 5);
}

/* ---------------------------------------------------------------------------------------------
 * c. Write drain
 */

static void check_no_writes(void *ctx, tick_t now)
{
	struct env *e = ctx;

	(void)now;
	/* three writes queued, all held behind the reads */
	assert_int_equal(stat(e, 0, "writes"), 0);
	assert_int_equal(stat(e, 0, "drains"), 0);
	assert_int_equal(mc_pending(e->mc[0]), 3 + 3 + 1); /* W1..W3, R4..R6 queued, R3 in flight */
}

static void test_write_drain(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t r[6], w[5], i;
	cycle_t rd4;

	e->p.write_queue = 8;
	e->p.write_high = 4;
	e->p.write_low = 1;
	env_start(e, 1);
	/* Six reads to six rows of bank 0: one conflict after another, reads waiting until ~440. */
	for (i = 0; i < 6; i++)
		r[i] = rd_at(e, 0, 0, 1 + i, 0);
	/* Writes to bank 4 (group 1), row 9: three held, the fourth reaches write_high. */
	w[0] = wr_at(e, 10, 4, 9, 0);
	w[1] = wr_at(e, 20, 4, 9, 1);
	w[2] = wr_at(e, 30, 4, 9, 2);
	eventq_schedule(e->q, clock_tick_of(e->clk, 199) + 1, EVQ_PRIO_DEFAULT, check_no_writes, e);
	w[3] = wr_at(e, 200, 4, 9, 3);
	/* Much later, on an idle controller: a write goes at once. */
	w[4] = wr_at(e, 1000, 8, 3, 0);
	finish(e);

	/* Reads: R1 ACT 1 RD 28 done 54; R2 PRE 54 ACT 81 RD 108 done 134; R3 PRE 134 ACT 161
	 * RD 188 done 214. */
	expect_done(e, r[0], 0, 54);
	expect_done(e, r[1], 0, 134);
	expect_done(e, r[2], 0, 214);
	/* Drain from 201: ACT bank 4 at 201, WR at 201 + tRCDWR 16 = 217, 221, 225 (tCCD_L);
	 * done WR + CWL 6 + 2. Three writes leave one: the drain stops at write_low. */
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_ACT, 4, 0), 201);
	for (i = 0; i < 3; i++)
		expect_done(e, w[i], 10 * (i + 1),
			    201 + T(e, RCDWR) + i * T(e, CCD_L) + T(e, CWL) + BURST(e));
	assert_int_equal(done_at(e, w[2]), 233);
	/* No read command during the drain: R4's PRE (legal from 161 + tRAS = 214) waits until
	 * the drain ends at 226; ACT 253, RD 280 (tWTR_S after the last write is over), done
	 * 306. */
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_PRE, 0, 2), 226);
	rd4 = 226 + T(e, RP) + T(e, RCDRD);
	expect_done(e, r[3], 0, rd4 + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, r[3]), 306);
	/* R5: PRE 306, ACT 333, RD 360, done 386; R6: PRE 386, ACT 413, RD 440, done 466. */
	expect_done(e, r[4], 0, 386);
	expect_done(e, r[5], 0, 466);
	/* W4 waits for the reads: when none is queued (after R6's RD at 440) it goes, at 440 +
	 * tRTW 22 = 462 (row 9 still open), done 470: after every read. */
	expect_done(e, w[3], 200, 440 + T(e, RTW) + T(e, CWL) + BURST(e));
	assert_int_equal(done_at(e, w[3]), 470);
	assert_true(done_rank(e, w[3]) > done_rank(e, r[5]));
	/* The idle write: ACT 1001, WR 1017, done 1025 = arrival + 1 + tRCDWR + CWL + burst. */
	expect_done(e, w[4], 1000, 1000 + 1 + T(e, RCDWR) + T(e, CWL) + BURST(e));
	assert_int_equal(done_at(e, w[4]), 1025);
	assert_int_equal(stat(e, 0, "drains"), 1);
	assert_int_equal(stat(e, 0, "writes"), 5);
	assert_int_equal(stat(e, 0, "reads"), 6);
}

/* ---------------------------------------------------------------------------------------------
 * d. Page policies
 */

static void test_page_closed(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	const struct dram_chan_stats *cs;
	uint32_t a, b, c, d;

	e->p.page_policy = MC_PAGE_CLOSED;
	env_start(e, 1);
	a = rd_at(e, 0, 0, 1, 0);
	b = rd_at(e, 100, 0, 1, 1);
	c = rd_at(e, 200, 0, 5, 0);
	d = rd_at(e, 200, 0, 5, 1);
	finish(e);

	cs = dram_chan_stats(mc_dram(e->mc[0]));
	/* A: ACT 1, RDA 28 (no other access to the row queued), done 54. */
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_RDA, 0, 0), 28);
	expect_done(e, a, 0, 54);
	/* B, the same row later: the bank was closed, a miss: ACT 101, RDA 128, done 154. */
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_ACT, 0, 1), 101);
	expect_done(e, b, 100, 101 + T(e, RCDRD) + T(e, CL) + BURST(e));
	/* C and D queued together: C's RD keeps the row open for D (RDA), 4 cycles apart. */
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_RD, 0, 0), 201 + T(e, RCDRD));
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_RDA, 0, 2), 201 + T(e, RCDRD) + T(e, CCD_L));
	expect_done(e, c, 200, 254);
	expect_done(e, d, 200, 258);
	assert_int_equal(cs->cmds[DRAM_CMD_RDA], 3);
	assert_int_equal(cs->cmds[DRAM_CMD_RD], 1);
	assert_int_equal(cs->cmds[DRAM_CMD_PRE], 0);
	assert_int_equal(stat(e, 0, "row_misses"), 3);
	assert_int_equal(stat(e, 0, "row_hits"), 1);
	assert_int_equal(stat(e, 0, "row_conflicts"), 0);
	assert_int_equal(dram_open_row_at(mc_dram(e->mc[0]), 0, 0), DRAM_ROW_NONE);
}

static void test_page_adaptive(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	const struct dram_chan_stats *cs;
	uint32_t a, b, a2, x;
	cycle_t pre_at;

	e->p.page_policy = MC_PAGE_ADAPTIVE;
	env_start(e, 1);
	a = rd_at(e, 0, 0, 1, 0);    /* nothing else waits: RD, row stays open */
	b = rd_at(e, 100, 0, 1, 1);  /* a hit: RD at 101, done 127 */
	a2 = rd_at(e, 200, 0, 1, 2); /* a hit with a conflict waiting behind it: RDA */
	x = rd_at(e, 200, 0, 2, 0);  /* then a miss, not a conflict */
	finish(e);

	cs = dram_chan_stats(mc_dram(e->mc[0]));
	expect_done(e, a, 0, 54);
	expect_done(e, b, 100, 127);
	/* A2: RDA at 201, done 227. X: the implied precharge at max(201 + tRTP, 1 + tRAS) = 205,
	 * ACT at 205 + tRP = 232, RD 259, done 285. */
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_RDA, 0, 0), 201);
	expect_done(e, a2, 200, 227);
	pre_at = 201 + T(e, RTP);
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_ACT, 0, 1), pre_at + T(e, RP));
	expect_done(e, x, 200, pre_at + T(e, RP) + T(e, RCDRD) + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, x), 285);
	assert_int_equal(cs->cmds[DRAM_CMD_RDA], 1);
	assert_int_equal(cs->cmds[DRAM_CMD_RD], 3);
	assert_int_equal(cs->cmds[DRAM_CMD_PRE], 0);
	assert_int_equal(stat(e, 0, "row_hits"), 2);
	assert_int_equal(stat(e, 0, "row_misses"), 2);
	assert_int_equal(stat(e, 0, "row_conflicts"), 0);
	/* X's row stays open: nothing waits. */
	assert_int_equal(dram_open_row_at(mc_dram(e->mc[0]), 0, 0), 2);
}

static void test_page_open(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	const struct dram_chan_stats *cs;
	uint32_t a, b;

	env_start(e, 1);
	a = rd_at(e, 0, 0, 1, 0);
	b = rd_at(e, 100, 0, 1, 1);
	finish(e);

	cs = dram_chan_stats(mc_dram(e->mc[0]));
	expect_done(e, a, 0, 54);
	expect_done(e, b, 100, 100 + 1 + T(e, CL) + BURST(e));
	assert_int_equal(cs->cmds[DRAM_CMD_RD], 2);
	assert_int_equal(cs->cmds[DRAM_CMD_RDA], 0);
	assert_int_equal(cs->cmds[DRAM_CMD_PRE], 0);
	assert_int_equal(stat(e, 0, "row_hits"), 1);
	assert_int_equal(dram_open_row_at(mc_dram(e->mc[0]), 0, 0), 1);
}

/* ---------------------------------------------------------------------------------------------
 * e. Refresh
 */

/* Refreshes on (ch, pc) up to cycle `upto` with no traffic: the first at the staggered deadline
 * interval * (ch * pcs + pc + 1) / (channels * pcs) (mc_create), then one every interval, each
 * issued exactly at its deadline; per-bank refresh takes the banks in turn. Returns the count. */
static uint64_t check_idle_refresh(const struct env *e, uint32_t ch, uint32_t pc, cycle_t upto)
{
	bool ab = e->p.refresh == MC_REFRESH_ALL_BANK;
	enum dram_cmd cmd = ab ? DRAM_CMD_REFAB : DRAM_CMD_REFPB;
	cycle_t interval = ab ? T(e, REFI) : T(e, REFIPB);
	cycle_t first = interval * (ch * e->s.pcs + pc + 1) / (e->s.channels * e->s.pcs);
	uint64_t n = upto >= first ? (upto - first) / interval + 1 : 0, k, seen = 0;
	uint32_t i;

	for (i = 0; i < e->nlog; i++) {
		const struct cmd_rec *r = &e->log[i];

		if (r->ch != ch || r->a.pc != pc)
			continue;
		assert_int_equal(r->cmd, cmd); /* nothing but refresh on an idle controller */
		k = seen++;
		if (r->at != first + k * interval)
			fail_msg("ch%u pc%u refresh %" PRIu64 " at %" PRIu64 ", expected %" PRIu64,
				 ch, pc, k, r->at, first + k * interval);
		if (!ab)
			assert_int_equal(dram_bank_index(&e->s, &r->a), k % e->s.banks);
	}
	assert_int_equal(seen, n);
	return n;
}

static void idle_refresh(void **state, enum dram_standard std, double rate, uint32_t channels,
			 uint32_t nmc, uint32_t mode, cycle_t intervals)
{
	struct env *e = env_new(state, std, rate, channels);
	cycle_t interval, upto;
	uint32_t ch, pc;

	e->p.refresh = mode;
	env_start(e, nmc);
	interval = mode == MC_REFRESH_ALL_BANK ? T(e, REFI) : T(e, REFIPB);
	/* Stop between deadlines of every (pseudo-)channel: a third into the interval after. */
	upto = intervals * interval + interval / 3;
	run_to(e, upto);
	for (ch = 0; ch < nmc; ch++) {
		uint64_t n = 0;

		for (pc = 0; pc < e->s.pcs; pc++) {
			uint64_t k = check_idle_refresh(e, ch, pc, upto);

			/* intervals or intervals + 1 deadlines, depending on the stagger */
			assert_true(k >= intervals && k <= intervals + 1);
			n += k;
		}
		assert_int_equal(stat(e, ch, "refreshes"), n);
		assert_int_equal(stat(e, ch, "refresh_forced"), 0);
		assert_int_equal(stat(e, ch, "refresh_bank_cycles"),
				 n * (mode == MC_REFRESH_ALL_BANK ? T(e, RFC) * e->s.banks
								 : T(e, RFCPB)));
	}
	finish(e);
}

/* GDDR6, 2 channels: REFab every tREFI 3421; channel 0 first at 3421 / 2 = 1710, channel 1 at
 * 3421. Up to 10 x 3421 + 1140 = 35350: (35350 - 1710) / 3421 + 1 = 10 and
 * (35350 - 3421) / 3421 + 1 = 10 refreshes. */
static void test_refresh_all_bank_gddr6(void **state)
{
	idle_refresh(state, DRAM_STD_GDDR6, 14.0, 2, 2, MC_REFRESH_ALL_BANK, 10);
}

/* GDDR6, 2 channels: REFpb every tREFIpb 214, channel 0 first at 107, channel 1 at 214, banks
 * 0, 1, 2, ... in turn; 40 intervals cover every bank twice and more. */
static void test_refresh_per_bank_gddr6(void **state)
{
	idle_refresh(state, DRAM_STD_GDDR6, 14.0, 2, 2, MC_REFRESH_PER_BANK, 40);
}

/* HBM2, 1 channel of 2 pseudo-channels: pc0 first at interval / 2, pc1 at interval. */
static void test_refresh_all_bank_hbm2(void **state)
{
	idle_refresh(state, DRAM_STD_HBM2, 2.0, 1, 1, MC_REFRESH_ALL_BANK, 6);
}

static void test_refresh_per_bank_hbm2(void **state)
{
	idle_refresh(state, DRAM_STD_HBM2, 2.0, 1, 1, MC_REFRESH_PER_BANK, 40);
}

static void test_refresh_off(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t i;

	env_start(e, 1);
	for (i = 0; i < 10; i++)
		rd_at(e, i * T(e, REFI), i % 16, 1, 0);
	finish(e);
	run_to(e, 12 * T(e, REFI));
	assert_int_equal(stat(e, 0, "refreshes"), 0);
	assert_int_equal(cmd_count(e, 0, DRAM_CMD_REFAB) + cmd_count(e, 0, DRAM_CMD_REFPB), 0);
}

/* A feeder that keeps feed_depth reads outstanding to one bank and row, every cycle, until
 * feed_stop; and checks that refresh keeps up with time within mc.refresh_postpone. */
static void busy_tick(void *self, cycle_t now)
{
	struct env *e = self;
	cycle_t interval = T(e, REFIPB), first = interval; /* 1 channel, 1 pc */
	uint64_t due = now >= first ? (now - first) / interval + 1 : 0, done;

	done = stat(e, 0, "refreshes");
	if (done > due || done + e->p.refresh_postpone < due)
		fail_msg("cycle %" PRIu64 ": %" PRIu64 " refreshes, %" PRIu64 " due", now, done,
			 due);
	if (now >= e->feed_stop) {
		clock_sleep(e->feeder);
		return;
	}
	while (e->nextra - e->ndone < e->feed_depth) {
		struct mc_access a;

		memset(&a, 0, sizeof a);
		a.da = daddr(e, 0, 0, e->feed_bank, e->feed_row, (uint32_t)(e->nextra % 60));
		a.ctx = (void *)(uintptr_t)(100000 + e->nextra);
		mc_enqueue(e->mc[0], &a);
		e->nextra++;
	}
}

static void test_refresh_postpone(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	cycle_t interval, forced_at, ref0, pre0;

	e->p.refresh = MC_REFRESH_PER_BANK;
	e->p.refresh_postpone = 4;
	env_start(e, 1);
	interval = T(e, REFIPB);
	e->feed_bank = 0;
	e->feed_row = 7;
	/* A RD every tCCD_L = 4 cycles with 26 cycles to its data end: some 7 in flight, so 16
	 * outstanding keep the bank's queue from running dry. */
	e->feed_depth = 16;
	e->feed_stop = 40 * interval;
	e->feeder = clock_attach(e->clk, "feeder", busy_tick, e);
	clock_wake(e->feeder);
	run_to(e, e->feed_stop);
	finish(e);

	/* Bank 0's first refresh falls due at 214 while it is busy: postponed, it is owed 4 times
	 * at 214 + 3 x 214 = 856 and then forced: no more hits, PRE, REFpb. */
	forced_at = interval + (e->p.refresh_postpone - 1) * interval;
	ref0 = cmd_cycle(e, 0, 0, DRAM_CMD_REFPB, 0, 0);
	pre0 = cmd_cycle(e, 0, 0, DRAM_CMD_PRE, 0, 0);
	assert_true(pre0 >= forced_at && pre0 <= forced_at + T(e, RTP));
	assert_int_equal(ref0, pre0 + T(e, RP));
	assert_int_equal(col_cmds_between(e, 0, forced_at, ref0), 0);
	assert_true(col_cmds_between(e, 0, interval, forced_at) > 100); /* it was busy */
	/* The owed refreshes of the idle banks 1, 2, 3 follow tRREFD apart. */
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_REFPB, 1, 0), ref0 + T(e, RREFD));
	assert_int_equal(cmd_cycle(e, 0, 0, DRAM_CMD_REFPB, 3, 0), ref0 + 3 * T(e, RREFD));
	/* Bank 0's turn comes back after 16 more refreshes: forced again (40 intervals hold two
	 * such episodes). */
	assert_true(stat(e, 0, "refresh_forced") >= 2);
	assert_true(stat(e, 0, "refreshes") + e->p.refresh_postpone >= 40);
	assert_true(e->nextra > 1000);
}

/* ---------------------------------------------------------------------------------------------
 * f. Inline ECC
 */

static void test_ecc_bursts_per_row(void **state)
{
	struct dram_spec g, h;
	struct mc_params p;

	(void)state;
	spec_init(&g, DRAM_STD_GDDR6, 14.0, 1);
	spec_init(&h, DRAM_STD_HBM2E, 3.2, 1);
	params_default(&p);
	assert_int_equal(g.bursts_per_row, 64); /* 2 KB row / 32 B */
	assert_int_equal(mc_data_bursts_per_row(&p, &g), 64);
	p.ecc = MC_ECC_INLINE;
	/* 60 data bursts need 60 / 16 -> 4 ECC bursts: 60 + 4 = 64. */
	assert_int_equal(mc_data_bursts_per_row(&p, &g), 60);
	p.ecc = MC_ECC_SIDEBAND;
	assert_int_equal(mc_data_bursts_per_row(&p, &h), h.bursts_per_row);
}

/* 16 reads of columns 0..15 of one row share one ECC burst (column 60): one ECC read, 15 hits. */
static void test_ecc_inline_reads(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t id[16], i;
	uint32_t ecc_rd = 0, n = 0;

	e->p.ecc = MC_ECC_INLINE;
	env_start(e, 1);
	for (i = 0; i < 16; i++)
		id[i] = rd_at(e, 0, 0, 1, i);
	finish(e);

	/* ACT 1; the ECC burst first at 28, then the 16 data reads at 32, 36, ..., 92: done
	 * 58 .. 118 (without ECC they would end at 114). */
	for (i = 0; i < 16; i++)
		expect_done(e, id[i], 0, 28 + (i + 1) * T(e, CCD_L) + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, id[15]), 118);
	for (i = 0; i < e->nlog; i++) {
		if (e->log[i].cmd != DRAM_CMD_RD)
			continue;
		n++;
		if (e->log[i].a.col == 60) {
			ecc_rd++;
			assert_int_equal(e->log[i].at, 28);
		}
	}
	assert_int_equal(n, 17);
	assert_int_equal(ecc_rd, 1);
	assert_int_equal(stat(e, 0, "ecc_reads"), 1);
	assert_int_equal(stat(e, 0, "ecc_misses"), 1);
	assert_int_equal(stat(e, 0, "ecc_hits"), 15);
	assert_int_equal(stat(e, 0, "rmw_reads"), 0);
	assert_int_equal(stat(e, 0, "reads"), 16);
}

/* A partial write: read the old data (RMW), read the ECC burst, then write, no earlier than the
 * old data has arrived. */
static void test_ecc_partial_write(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t w, full;
	cycle_t rmw, ecc, wr;

	e->p.ecc = MC_ECC_INLINE;
	env_start(e, 1);
	w = acc_at_full(e, 0, 0, 0, 0, 1, 5, true, true);
	/* A full write of the same ECC line later: an ECC-cache hit, no extra burst. */
	full = wr_at(e, 200, 0, 1, 6);
	finish(e);

	/* ACT 1; RMW read of column 5 at 1 + tRCDRD = 28 (data until 28 + 26 = 54); the ECC read
	 * (column 60) at 28 + tCCD_L = 32; WR at max(32 + tRTW 22, 54) = 54, done 54 + 6 + 2
	 * = 62. */
	rmw = 1 + T(e, RCDRD);
	ecc = rmw + T(e, CCD_L);
	wr = ecc + T(e, RTW);
	if (rmw + T(e, CL) + BURST(e) > wr)
		wr = rmw + T(e, CL) + BURST(e);
	assert_int_equal(e->log[1].cmd, DRAM_CMD_RD);
	assert_int_equal(e->log[1].a.col, 5);
	assert_int_equal(e->log[1].at, rmw);
	assert_int_equal(e->log[2].cmd, DRAM_CMD_RD);
	assert_int_equal(e->log[2].a.col, 60);
	assert_int_equal(e->log[2].at, ecc);
	assert_int_equal(e->log[3].cmd, DRAM_CMD_WR);
	assert_int_equal(e->log[3].at, wr);
	expect_done(e, w, 0, wr + T(e, CWL) + BURST(e));
	assert_int_equal(done_at(e, w), 62);
	assert_true(done_at(e, w) >= rmw + T(e, CL) + BURST(e));
	/* The full write: WR at 201, done 209. */
	expect_done(e, full, 200, 201 + T(e, CWL) + BURST(e));
	assert_int_equal(stat(e, 0, "rmw_reads"), 1);
	assert_int_equal(stat(e, 0, "ecc_reads"), 1);
	assert_int_equal(stat(e, 0, "ecc_hits"), 1);
	assert_int_equal(stat(e, 0, "writes"), 2);
	assert_int_equal(stat(e, 0, "ecc_writes"), 0); /* the dirty line is still cached */
}

/* A one-line ECC cache: the second write's ECC line evicts the first's, dirty: an ECC write of
 * column 60 of the first row. Full writes never read their ECC burst (a miss installs it). */
static void test_ecc_writeback(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t i, wb = 0;

	e->p.ecc = MC_ECC_INLINE;
	e->p.ecc_cache_entries = 1;
	env_start(e, 1);
	wr_at(e, 0, 0, 1, 0);
	wr_at(e, 0, 1, 2, 0);
	finish(e);

	for (i = 0; i < e->nlog; i++) {
		const struct cmd_rec *r = &e->log[i];

		if (dram_cmd_is_write(r->cmd) && r->a.col == 60) {
			wb++;
			assert_int_equal(dram_bank_index(&e->s, &r->a), 0);
			assert_int_equal(r->a.row, 1);
		}
	}
	assert_int_equal(wb, 1);
	assert_int_equal(stat(e, 0, "ecc_writes"), 1);
	assert_int_equal(stat(e, 0, "ecc_misses"), 2);
	assert_int_equal(stat(e, 0, "ecc_reads"), 0);
	assert_int_equal(stat(e, 0, "writes"), 2); /* the ECC write is not the requester's */
	assert_int_equal(e->ndone, 2);
}

/* The ECC cache holds the ECC bytes of written bursts only: after full writes of columns 0 and
 * 1, a read of column 1 finds its ECC bytes (no ECC read), a read of column 2 (same ECC burst,
 * not written) reads the ECC burst, and then column 3 finds it. */
static void test_ecc_full_write_valid(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t i, ecc_rd = 0, ecc_wr = 0;

	e->p.ecc = MC_ECC_INLINE;
	env_start(e, 1);
	wr_at(e, 0, 0, 1, 0);
	wr_at(e, 0, 0, 1, 1);
	rd_at(e, 300, 0, 1, 1);
	rd_at(e, 400, 0, 1, 2);
	rd_at(e, 500, 0, 1, 3);
	finish(e);

	for (i = 0; i < e->nlog; i++) {
		const struct cmd_rec *r = &e->log[i];

		if (r->a.col != 60)
			continue;
		if (r->cmd == DRAM_CMD_RD) {
			ecc_rd++;
			/* before the read of column 2 (at 400 or later), not before column 1's */
			assert_true(r->at >= 400 && r->at < 500);
		} else if (dram_cmd_is_write(r->cmd)) {
			ecc_wr++;
		}
	}
	assert_int_equal(ecc_rd, 1);
	assert_int_equal(ecc_wr, 0); /* still cached, dirty */
	assert_int_equal(stat(e, 0, "ecc_reads"), 1);
	assert_int_equal(stat(e, 0, "ecc_misses"), 2); /* the first write, the read of column 2 */
	assert_int_equal(stat(e, 0, "ecc_hits"), 3);
	assert_int_equal(stat(e, 0, "writes"), 2);
	assert_int_equal(stat(e, 0, "reads"), 3);
}

static const char *check_err(const struct mc_params *p, const struct dram_spec *s)
{
	static struct sim_err err;

	memset(&err, 0, sizeof err);
	assert_int_equal(mc_params_check(p, s, &err), -1);
	return err.msg;
}

static void test_params_check(void **state)
{
	struct dram_spec g, h;
	struct mc_params p;
	struct sim_err err;

	(void)state;
	spec_init(&g, DRAM_STD_GDDR6, 14.0, 16);
	spec_init(&h, DRAM_STD_HBM2, 2.0, 8);
	params_default(&p);
	assert_int_equal(mc_params_check(&p, &g, &err), 0);
	p.ecc = MC_ECC_INLINE;
	assert_int_equal(mc_params_check(&p, &g, &err), 0);
	assert_string_equal(check_err(&p, &h), "mc.ecc: inline ECC is modelled for GDDR6; hbm2 "
					       "carries ECC sideband (use \"sideband\")");
	p.ecc = MC_ECC_SIDEBAND;
	assert_int_equal(mc_params_check(&p, &h, &err), 0);
	assert_string_equal(check_err(&p, &g),
			    "mc.ecc: GDDR6 has no sideband ECC pins; use \"inline\" or \"off\"");
	params_default(&p);
	p.write_low = 24;
	assert_string_equal(check_err(&p, &g), "mc.write_low: 24 must be below mc.write_high (24)");
	p.write_low = 200;
	assert_string_equal(check_err(&p, &g),
			    "mc.write_low: 200 must be below mc.write_high (24)");
	params_default(&p);
	p.write_high = 33;
	assert_string_equal(check_err(&p, &g), "mc.write_high: 33 exceeds mc.write_queue (32)");
	p.write_high = 32; /* equal is allowed */
	assert_int_equal(mc_params_check(&p, &g, &err), 0);
	/* A row cycle longer than refresh leaves a bank (GDDR6 14 Gb/s: tREFIpb 214 x 16 banks -
	 * tRFCpb 106 = 3318 cycles per bank; a write's cycle tRCDWR + CWL 6 + burst 2 + tWR 27 +
	 * tRP 27 reaches it at tRCDWR 3256). */
	params_default(&p);
	p.refresh = MC_REFRESH_PER_BANK;
	assert_int_equal(g.t[DRAM_T_REFIPB] * g.banks - g.t[DRAM_T_RFCPB], 3318);
	g.t[DRAM_T_RCDWR] = 3256;
	assert_int_equal(mc_params_check(&p, &g, &err), 0);
	g.t[DRAM_T_RCDWR] = 3257;
	assert_string_equal(check_err(&p, &g),
			    "dram.timing: a write's row cycle (3319 cycles: ACT, WR, PRE, tRP) does "
			    "not fit between two refreshes of its bank (3318 cycles: tREFIpb x banks "
			    "- tRFCpb with mc.refresh = \"per_bank\")");
	p.refresh = MC_REFRESH_OFF; /* no refresh, no bound */
	assert_int_equal(mc_params_check(&p, &g, &err), 0);
	/* all-bank: tREFI - tRFC 211 against a read's max(tRAS 53, tRCDRD 27 + tRTP 4) + tRP 27 */
	spec_init(&g, DRAM_STD_GDDR6, 14.0, 16);
	p.refresh = MC_REFRESH_ALL_BANK;
	g.t[DRAM_T_REFI] = 291;
	assert_int_equal(mc_params_check(&p, &g, &err), 0);
	g.t[DRAM_T_REFI] = 290;
	assert_string_equal(check_err(&p, &g),
			    "dram.timing: a read's row cycle (80 cycles: ACT, RD, PRE, tRP) does not "
			    "fit between two refreshes of its bank (79 cycles: tREFI - tRFC with "
			    "mc.refresh = \"all_bank\")");
	/* tRC too, whatever the access's row cycle (an nRC of 4096 with an nREFI of 512 stopped
	 * random runs at the watchdog): all-bank, tREFI 3000 - tRFC 211 = 2789 cycles */
	g.t[DRAM_T_REFI] = 3000;
	g.t[DRAM_T_RC] = 2789;
	assert_int_equal(mc_params_check(&p, &g, &err), 0);
	g.t[DRAM_T_RC] = 2790;
	assert_string_equal(check_err(&p, &g),
			    "dram.timing.nRC: a bank's ACT to ACT cycle (tRC, 2790 cycles) does "
			    "not fit between two refreshes of the bank (2789 cycles: tREFI - tRFC "
			    "with mc.refresh = \"all_bank\")");
	p.refresh = MC_REFRESH_PER_BANK; /* tREFIpb 214 x 16 - tRFCpb 106 = 3318 */
	assert_int_equal(mc_params_check(&p, &g, &err), 0);
	g.t[DRAM_T_RC] = 3319;
	assert_string_equal(check_err(&p, &g),
			    "dram.timing.nRC: a bank's ACT to ACT cycle (tRC, 3319 cycles) does "
			    "not fit between two refreshes of the bank (3318 cycles: tREFIpb x "
			    "banks - tRFCpb with mc.refresh = \"per_bank\")");
	p.refresh = MC_REFRESH_OFF;
	assert_int_equal(mc_params_check(&p, &g, &err), 0);
}

/* ---------------------------------------------------------------------------------------------
 * g. Backpressure
 */

static void test_queue_room(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	struct mc *m;

	e->p.read_queue = 2;
	env_start(e, 1);
	m = e->mc[0];
	rd_at(e, 0, 0, 1, 0); /* RD 28, done 54 */
	rd_at(e, 0, 0, 1, 1); /* RD 32, done 58 */
	run_to(e, 1);
	assert_false(mc_can_accept(m, false));
	assert_true(mc_can_accept(m, true)); /* the write queue is apart */
	run_to(e, 40); /* both issued, in flight */
	assert_int_equal(mc_pending(m), 2);
	assert_false(mc_can_accept(m, false));
	run_to(e, 54); /* the first has completed */
	assert_int_equal(mc_pending(m), 1);
	assert_true(mc_can_accept(m, false));
	finish(e);
	assert_true(mc_can_accept(m, false));
}

/* An access of channel 0, pseudo-channel 0 that the test offers itself (done_at works on its
 * id). */
static struct mc_access *acc_new(struct env *e, uint32_t bank, uint32_t row, uint32_t col)
{
	struct acc_ev *ev;

	assert_true(e->nacc < MAX_ACC);
	ev = &e->acc[e->nacc++];
	ev->e = e;
	ev->id = e->nacc;
	memset(&ev->a, 0, sizeof ev->a);
	ev->a.da = daddr(e, 0, 0, bank, row, col);
	ev->a.ctx = (void *)(uintptr_t)ev->id;
	return &ev->a;
}

/* Runs a and b completed the same n accesses at the same cycles and issued the same commands
 * (more than min_log, all logged) at the same cycles. */
static void assert_same_run(const struct env *a, const struct env *b, uint64_t n,
			    uint32_t min_log)
{
	uint64_t i;

	assert_int_equal(a->ndone, n);
	assert_int_equal(b->ndone, n);
	for (i = 0; i < n && i < MAX_DONE; i++) {
		assert_int_equal(a->done[i].id, b->done[i].id);
		assert_int_equal(a->done[i].arrival, b->done[i].arrival);
		assert_int_equal(a->done[i].done, b->done[i].done);
	}
	assert_true(a->nlog > min_log && a->nlog < MAX_LOG);
	assert_int_equal(a->nlog, b->nlog);
	for (i = 0; i < a->nlog; i++) {
		assert_int_equal(a->log[i].cmd, b->log[i].cmd);
		assert_int_equal(a->log[i].at, b->log[i].at);
		assert_memory_equal(&a->log[i].a, &b->log[i].a, sizeof a->log[i].a);
	}
}

/*
 * Idle refresh: a controller with lazy refresh on, woken only by its accesses and settled at the
 * end, issues every command at the same cycle as one that wakes for each refresh (per-bank
 * refresh on, accesses with idle gaps of many refresh intervals, a write among them), with the
 * same completions, counters and waterfall, for a fraction of the events.
 */
static void lazy_schedule(struct env *e)
{
	rd_at(e, 0, 1, 5, 0);
	rd_at(e, 3000, 1, 5, 1);
	wr_at(e, 3010, 2, 7, 0);
	rd_at(e, 20000, 3, 9, 0);
	rd_at(e, 20001, 3, 10, 0);
}

static void test_lazy_refresh(void **state)
{
	struct env *a = env_new(state, DRAM_STD_GDDR6, 14.0, 1), *b;
	struct mc_waterfall wa, wb;
	void *st2 = NULL;
	double ra = 0, rb = -1;

	b = env_new(&st2, DRAM_STD_GDDR6, 14.0, 1);
	a->p.refresh = b->p.refresh = MC_REFRESH_PER_BANK;
	env_start(a, 1);
	env_start(b, 1);
	mc_set_lazy_refresh(b->mc[0], true);
	lazy_schedule(a);
	lazy_schedule(b);
	run_to(a, 40000);
	run_to(b, 40000);
	mc_settle(b->mc[0], 40000);
	assert_same_run(a, b, 5, 100);
	assert_true(stats_get(a->st, "mc0.refreshes", &ra) && stats_get(b->st, "mc0.refreshes", &rb));
	assert_true(ra > 100 && ra == rb);
	mc_waterfall(a->mc[0], 40000, &wa);
	mc_waterfall(b->mc[0], 40000, &wb);
	assert_memory_equal(&wa, &wb, sizeof wa);
	print_message("# %.0f refreshes: %llu events woken for each, %llu lazy\n", ra,
		      (unsigned long long)eventq_fired(a->q), (unsigned long long)eventq_fired(b->q));
	/* the awake one wakes at least once for each refresh; the lazy one only for its five
	 * accesses (and their completions), whatever the number of refreshes */
	assert_true((double)eventq_fired(a->q) > ra);
	assert_true((double)eventq_fired(b->q) * 3 < ra);
	assert_no_violations(a);
	assert_no_violations(b);
	env_free(&st2);
}

/*
 * Look-ahead: a controller with it (the default on GDDR6) issues every command at the same cycle
 * as one without it (mc_set_lookahead off), with the same completions, counters and waterfall,
 * on a busy mix that keeps the skip's conditions moving: groups of 8 accesses every 150 cycles
 * (GSL's MT19937, seed 1), one group in three to one row (row hits: tCCD keeps the next column
 * command back, the case the look-ahead sleeps through), the others to random banks, rows and
 * columns with a write in three (direction turns), every 25th group 25 writes (a drain),
 * per-bank refresh postponed under load (banks held). It must fire fewer events (the release
 * build), or it did not look ahead.
 */
static void lookahead_schedule(struct env *e)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	uint32_t g, i;

	assert_non_null(r);
	gsl_rng_set(r, 1);
	for (g = 0; g < 250; g++) {
		cycle_t at = 150 * (cycle_t)g;
		uint32_t bank = (uint32_t)gsl_rng_uniform_int(r, 16);
		uint32_t row = (uint32_t)gsl_rng_uniform_int(r, 1024);

		if (g % 25 == 12) {
			/* 25 writes: past write_high (24), a drain */
			for (i = 0; i < 25; i++)
				wr_at(e, at + i, (uint32_t)gsl_rng_uniform_int(r, 16),
				      (uint32_t)gsl_rng_uniform_int(r, 1024),
				      (uint32_t)gsl_rng_uniform_int(r, 64));
			continue;
		}
		for (i = 0; i < 8; i++) {
			if (g % 3 == 0) {
				rd_at(e, at, bank, row, 8 * i);
				continue;
			}
			acc_at_full(e, at + i, 0, 0, (uint32_t)gsl_rng_uniform_int(r, 16),
				    (uint32_t)gsl_rng_uniform_int(r, 1024),
				    (uint32_t)gsl_rng_uniform_int(r, 64), gsl_rng_uniform(r) < 1.0 / 3,
				    false);
		}
	}
	gsl_rng_free(r);
}

static void test_lookahead(void **state)
{
	static const char *const counters[] = { "reads", "writes", "row_hits", "row_misses",
						"row_conflicts", "refreshes", "refresh_forced",
						"drains", "read_wait_cycles" };
	struct env *a = env_new(state, DRAM_STD_GDDR6, 14.0, 1), *b;
	struct mc_waterfall wa, wb;
	void *st2 = NULL;
	uint32_t i;

	b = env_new(&st2, DRAM_STD_GDDR6, 14.0, 1);
	a->p.refresh = b->p.refresh = MC_REFRESH_PER_BANK;
	env_start(a, 1);
	env_start(b, 1);
	assert_false(mc_set_lookahead(a->mc[0], false));
	assert_true(mc_set_lookahead(b->mc[0], true));
	lookahead_schedule(a);
	lookahead_schedule(b);
	run_to(a, 60000);
	run_to(b, 60000);
	assert_same_run(a, b, a->nacc, 4000);
	for (i = 0; i < sizeof counters / sizeof counters[0]; i++)
		assert_int_equal(stat(a, 0, counters[i]), stat(b, 0, counters[i]));
	/* the mix reached what it is for */
	assert_true(stat(a, 0, "writes") > 500 && stat(a, 0, "row_hits") > 450);
	assert_true(stat(a, 0, "refreshes") > 100 && stat(a, 0, "drains") > 5);
	mc_waterfall(a->mc[0], 60000, &wa);
	mc_waterfall(b->mc[0], 60000, &wb);
	assert_memory_equal(&wa, &wb, sizeof wa);
	print_message("# %" PRIu32 " commands: %llu events without the look-ahead, %llu with\n",
		      a->nlog, (unsigned long long)eventq_fired(a->q),
		      (unsigned long long)eventq_fired(b->q));
#ifndef SIM_DEBUG
	/* (the debug build makes the passes the look-ahead skips, to check them) */
	assert_true(eventq_fired(b->q) * 10 < eventq_fired(a->q) * 9);
#endif
	assert_no_violations(a);
	assert_no_violations(b);
	env_free(&st2);
}

/*
 * Look-ahead and the end of a write drain: with write_high 3 and write_low 1, a drain ends at the
 * pass after the write that leaves one queued, even when that pass still serves writes because
 * no read waits; a write that comes next (two queued, below write_high) starts none, so a read
 * that comes after it goes first. A look-ahead that slept through that pass (the same direction
 * served) kept the drain on: fewer drains counted and, where a read came in time, the writes
 * served first. Groups of 1-4 accesses every 60 cycles, each a write or a read with even odds,
 * to random banks, rows and columns (GSL's MT19937), refresh off; for seeds 1-8 the same run with
 * and without the look-ahead, as test_lookahead. (Without the drain condition in after_issue,
 * seed 3 counts 243 drains with the look-ahead against 245 without, and seed 4 completes other
 * accesses first.)
 */
static void drain_end_schedule(struct env *e, unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	uint32_t g, i;

	assert_non_null(r);
	gsl_rng_set(r, seed);
	for (g = 0; g < 600; g++) {
		uint32_t n = 1 + (uint32_t)gsl_rng_uniform_int(r, 4);

		for (i = 0; i < n; i++)
			acc_at_full(e, 60 * (cycle_t)g + i, 0, 0, (uint32_t)gsl_rng_uniform_int(r, 16),
				    (uint32_t)gsl_rng_uniform_int(r, 1024),
				    (uint32_t)gsl_rng_uniform_int(r, 64), gsl_rng_uniform(r) < 0.5,
				    false);
	}
	gsl_rng_free(r);
}

static void test_lookahead_drain_end(void **state)
{
	unsigned long seed;

	for (seed = 1; seed <= 8; seed++) {
		void *sb = NULL;
		struct env *a = env_new(state, DRAM_STD_GDDR6, 14.0, 1); /* the teardown's */
		struct env *b = env_new(&sb, DRAM_STD_GDDR6, 14.0, 1);

		a->p.refresh = b->p.refresh = MC_REFRESH_OFF;
		a->p.write_high = b->p.write_high = 3;
		a->p.write_low = b->p.write_low = 1;
		env_start(a, 1);
		env_start(b, 1);
		assert_false(mc_set_lookahead(a->mc[0], false));
		assert_true(mc_set_lookahead(b->mc[0], true));
		drain_end_schedule(a, seed);
		drain_end_schedule(b, seed);
		run_to(a, 40000);
		run_to(b, 40000);
		assert_same_run(a, b, a->nacc, 2000);
		assert_int_equal(stat(a, 0, "drains"), stat(b, 0, "drains"));
		assert_true(stat(a, 0, "drains") > 50);
		assert_no_violations(a);
		assert_no_violations(b);
		env_free(state);
		env_free(&sb);
	}
}

/* Where the look-ahead does not apply (HBM2: a row command bus of its own), mc_set_lookahead
 * says so. */
static void test_lookahead_applies(void **state)
{
	struct env *e = env_new(state, DRAM_STD_HBM2, 2.0, 1);

	env_start(e, 1);
	assert_false(mc_set_lookahead(e->mc[0], true));
}

/* A port's sender: a unit of the DRAM clock that does nothing but go back to sleep. */
static void sender_tick(void *self, cycle_t now)
{
	struct clock_unit **u = self;

	(void)now;
	clock_sleep(*u);
}

/* Controller 0 of e (started) takes accesses from ports: its input link (returned) and a map
 * (row:col:ba:bg:pc:ch, 256 B interleave) of one channel, written to *map. */
static struct link *ports_input(struct env *e, struct addrmap *map)
{
	struct addrmap_params ap;
	struct addrmap_geom g;
	struct sim_err err;
	struct link *in;

	memset(&ap, 0, sizeof ap);
	memset(&err, 0, sizeof err);
	snprintf(ap.order, sizeof ap.order, "row:col:ba:bg:pc:ch");
	ap.interleave_bytes = 256;
	mc_map_geom(&e->p, &e->s, 1, &g);
	assert_int_equal(addrmap_init(map, &ap, &g, &err), 0);
	in = link_create("in", 64, 1, e->clk, NULL);
	mc_set_input(e->mc[0], in);
	mc_set_map(e->mc[0], map, 0, 0);
	return in;
}

/*
 * mc_port_send: entries that free go to the ports refused first, whoever sends first in the
 * cycle, and the port granted one has its sender woken. Read queue of 2, both entries taken at
 * cycle 0 (done 54 and 58, as in test_queue_room); ports 3, 7 and 9 of ten send accesses whose
 * addresses the whole map puts in channel 0. An access sent is taken off the input link one
 * cycle later (its arrival is the cycle it was sent) and a read's ctx comes back on its port's
 * done link. The senders' mirror of the line (mc_port_watch, bit p for port p) has a port's bit
 * set from its refusal to its grant.
 */
static void test_admission_order(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	struct mc_access *a7, *a3, *a3b, *a9;
	struct clock_unit *sender[10];
	struct link *done[10], *in;
	struct addrmap map;
	struct mc *m;
	uint64_t line = ~UINT64_C(0); /* mc_port_watch clears a bit it is given */
	uint32_t i;

	e->p.read_queue = 2;
	env_start(e, 1);
	m = e->mc[0];
	in = ports_input(e, &map);
	for (i = 0; i < 10; i++) {
		sender[i] = clock_attach(e->clk, "sender", sender_tick, &sender[i]);
		done[i] = link_create("done", 4, 1, e->clk, NULL);
		assert_int_equal(mc_port_add(m, sender[i], done[i]), i);
	}
	mc_port_watch(m, 3, &line, UINT64_C(1) << 3);
	mc_port_watch(m, 7, &line, UINT64_C(1) << 7);
	mc_port_watch(m, 9, &line, UINT64_C(1) << 9);
	assert_int_equal(line, ~UINT64_C(0x288));
	line = 0;
	rd_at(e, 0, 0, 1, 0);
	rd_at(e, 0, 0, 1, 1);
	a7 = acc_new(e, 1, 1, 0);
	a3 = acc_new(e, 2, 1, 0);
	a3b = acc_new(e, 2, 1, 1);
	a9 = acc_new(e, 3, 1, 0);
	a7->addr = addrmap_encode(&map, &a7->da);
	a3->addr = addrmap_encode(&map, &a3->da);
	a3b->addr = addrmap_encode(&map, &a3b->da);
	a9->addr = addrmap_encode(&map, &a9->da);
	run_to(e, 2);
	/* Full: port 7, then port 3 are refused and wait in that order. */
	assert_int_equal(mc_port_send(m, 7, a7), MC_SEND_WAIT);
	assert_int_equal(line, UINT64_C(1) << 7);
	assert_int_equal(mc_port_send(m, 3, a3), MC_SEND_WAIT);
	assert_int_equal(line, (UINT64_C(1) << 7) | (UINT64_C(1) << 3));
	run_to(e, 53);
	assert_int_equal(line, (UINT64_C(1) << 7) | (UINT64_C(1) << 3));
	run_to(e, 54);
	/* One entry free: it is port 7's (its sender woken, 3's not), though port 3 asks first. */
	assert_int_equal(mc_pending(m), 1);
	assert_true(clock_is_awake(sender[7]));
	assert_false(clock_is_awake(sender[3]));
	assert_int_equal(line, UINT64_C(1) << 3);
	assert_int_equal(mc_port_send(m, 3, a3), MC_SEND_WAIT);
	assert_int_equal(mc_port_send(m, 7, a7), MC_SEND_OK);
	assert_int_equal(mc_pending(m), 2); /* on the input link, counted */
	assert_int_equal(link_occupancy(in), 1);
	assert_int_equal(mc_port_send(m, 3, a3), MC_SEND_WAIT);
	assert_int_equal(line, UINT64_C(1) << 3);
	run_to(e, 58);
	assert_int_equal(link_occupancy(in), 0);
	assert_int_equal(line, 0);
	/* The next entry is port 3's; port 9, new, asks first and queues behind. */
	assert_int_equal(mc_port_send(m, 9, a9), MC_SEND_WAIT);
	assert_int_equal(mc_port_send(m, 3, a3), MC_SEND_OK);
	assert_int_equal(line, UINT64_C(1) << 9);
	/* Full again: port 3's second access waits behind 9. */
	assert_int_equal(mc_port_send(m, 3, a3b), MC_SEND_WAIT);
	assert_int_equal(line, (UINT64_C(1) << 9) | (UINT64_C(1) << 3));
	mc_check(m);
	run_to(e, 300);
	assert_int_equal(line, 0);
	assert_int_equal(mc_pending(m), 0);
	assert_int_equal(mc_requests_pending(m), 0);
	/* Drained: two entries free, granted to 9 and 3, the whole line (each sender woken: 9 once,
	 * 3 a second time); each is accepted. */
	assert_int_equal(clock_unit_ticks(sender[9]), 1);
	assert_int_equal(clock_unit_ticks(sender[3]), 2);
	assert_int_equal(clock_unit_ticks(sender[7]), 1);
	assert_int_equal(mc_port_send(m, 3, a3b), MC_SEND_OK);
	assert_int_equal(mc_port_send(m, 9, a9), MC_SEND_OK);
	finish(e);
	assert_true(done_at(e, 3) > 54 && done_at(e, 4) > done_at(e, 3));
	assert_true(done_at(e, 5) > done_at(e, 4) && done_at(e, 6) > done_at(e, 4));
	/* each read's ctx came back on its own port's done link, in completion order */
	assert_int_equal(link_occupancy(done[7]), 1);
	assert_int_equal(link_occupancy(done[3]), 2);
	assert_int_equal(link_occupancy(done[9]), 1);
	assert_ptr_equal(link_pop(done[7]), a7->ctx);
	assert_ptr_equal(link_pop(done[3]), a3->ctx);
	assert_ptr_equal(link_pop(done[3]), a3b->ctx);
	/* the arrival of an access sent is the cycle it was sent (a7 at 54: waited from 54) */
	for (i = 0; i < e->ndone && i < MAX_DONE; i++)
		if (e->done[i].id == 3)
			assert_int_equal(e->done[i].arrival, 54);
	link_destroy(in);
	for (i = 0; i < 10; i++)
		link_destroy(done[i]);
}

/*
 * mc_port_watch with a port in line for both kinds: read queue of 1 and write queue of 2, all
 * taken at cycle 0 (two writes reach write_high: the drain serves them first); port 0 sends a
 * read, then a write, and both wait: its bit is set. The writes' entries free first and the
 * write is granted (the sender woken) while the read still waits: the bit stays set. The read's
 * grant clears it.
 */
static void test_port_watch_both_kinds(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	struct mc_access *r, *w;
	struct clock_unit *sender;
	struct link *done, *in;
	struct addrmap map;
	struct mc *m;
	uint64_t line = 0;
	cycle_t c, first;

	e->p.read_queue = 1;
	e->p.write_queue = 2;
	e->p.write_high = 2;
	e->p.write_low = 0;
	env_start(e, 1);
	m = e->mc[0];
	in = ports_input(e, &map);
	sender = clock_attach(e->clk, "sender", sender_tick, &sender);
	done = link_create("done", 4, 1, e->clk, NULL);
	assert_int_equal(mc_port_add(m, sender, done), 0);
	mc_port_watch(m, 0, &line, 1);
	rd_at(e, 0, 0, 1, 0);
	wr_at(e, 0, 1, 1, 0);
	wr_at(e, 0, 1, 1, 1);
	r = acc_new(e, 2, 1, 0);
	w = acc_new(e, 3, 1, 0);
	w->is_write = true;
	r->addr = addrmap_encode(&map, &r->da);
	w->addr = addrmap_encode(&map, &w->da);
	run_to(e, 2);
	assert_int_equal(mc_port_send(m, 0, r), MC_SEND_WAIT);
	assert_int_equal(line, 1);
	assert_int_equal(mc_port_send(m, 0, w), MC_SEND_WAIT);
	assert_int_equal(line, 1);
	for (c = 3; c < 2000 && clock_unit_ticks(sender) == 0; c++)
		run_to(e, c);
	/* the write's grant: accepted, the read still in line, the bit still set */
	first = c - 1;
	assert_int_equal(clock_unit_ticks(sender), 1);
	assert_int_equal(line, 1);
	assert_int_equal(mc_port_send(m, 0, r), MC_SEND_WAIT);
	assert_int_equal(mc_port_send(m, 0, w), MC_SEND_OK);
	assert_int_equal(line, 1);
	mc_check(m);
	for (; c < 4000 && clock_unit_ticks(sender) == 1; c++)
		run_to(e, c);
	/* the read's grant, later: the bit clear */
	assert_int_equal(clock_unit_ticks(sender), 2);
	assert_true(c - 1 > first);
	assert_int_equal(line, 0);
	assert_int_equal(mc_port_send(m, 0, r), MC_SEND_OK);
	assert_int_equal(line, 0);
	finish(e);
	link_destroy(in);
	link_destroy(done);
}

/* A producer that offers its accesses with mc_try_enqueue and goes to sleep when refused, as
 * the contract allows; records the cycle each one was accepted. */
static void feed_tick(void *self, cycle_t now)
{
	struct env *e = self;

	assert_true(e->nfeed_ticks < sizeof e->feed_ticks / sizeof e->feed_ticks[0]);
	e->feed_ticks[e->nfeed_ticks++] = now;
	while (e->feed_next < e->feed_n) {
		struct acc_ev *ev = &e->acc[e->feed_next];

		if (!mc_try_enqueue(e->mc[0], &ev->a)) {
			clock_sleep(e->feeder);
			return;
		}
		e->feed_next++;
	}
	clock_sleep(e->feeder);
}

/* Prepares n reads (banks 0, 1, ... row 1) for feed_tick; they count as scheduled accesses. */
static void feed_prepare(struct env *e, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct acc_ev *ev = &e->acc[e->nacc++];

		ev->e = e;
		ev->id = e->nacc;
		memset(&ev->a, 0, sizeof ev->a);
		ev->a.da = daddr(e, 0, 0, i % 2, 1, i);
		ev->a.ctx = (void *)(uintptr_t)ev->id;
	}
	e->feed_n = n;
	e->feeder = clock_attach(e->clk, "feeder", feed_tick, e);
	mc_set_producer(e->mc[0], e->feeder);
	clock_wake(e->feeder);
}

/* Read queue of 2: the third and fourth accesses are refused; each completion wakes the
 * producer, which is ticked at the next edge and gets its access in. */
static void test_producer_woken(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);

	e->p.read_queue = 2;
	env_start(e, 1);
	feed_prepare(e, 4);
	finish(e);

	/* 1 and 2 at cycle 0 (banks 0 and 1): ACT 1 and 1 + tRRD_L 8 = 9, RD 28 and 36, done 54
	 * and 62. 3 enters at 55, 4 at 63. */
	expect_done(e, 1, 0, 54);
	expect_done(e, 2, 0, 9 + T(e, RCDRD) + T(e, CL) + BURST(e));
	assert_int_equal(done_at(e, 2), 62);
	assert_int_equal(done_of(e, 3)->arrival, done_at(e, 1) + 1);
	assert_int_equal(done_of(e, 4)->arrival, done_at(e, 2) + 1);
	/* Ticked only when there was something to do: 0, 55, 63. */
	assert_int_equal(e->nfeed_ticks, 3);
	assert_int_equal(e->feed_ticks[1], 55);
	assert_int_equal(e->feed_ticks[2], 63);
}

/* One access per cycle: the second of a cycle is refused and the producer, asleep after the
 * refusal, is ticked again at the next cycle. */
static void test_accept_per_cycle(void **state)
{
	struct env *e = env_new(state, DRAM_STD_GDDR6, 14.0, 1);
	uint32_t i;

	e->p.accept_per_cycle = 1;
	env_start(e, 1);
	feed_prepare(e, 4);
	run_to(e, 0);
	/* At cycle 0 the first went in and the port is used up. */
	assert_int_equal(e->feed_next, 1);
	assert_false(mc_can_accept(e->mc[0], false));
	assert_false(mc_can_accept(e->mc[0], true));
	finish(e);
	for (i = 0; i < 4; i++)
		assert_int_equal(done_of(e, i + 1)->arrival, i);
	assert_int_equal(e->nfeed_ticks, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_latency_gddr6, env_free),
		cmocka_unit_test_teardown(test_conflict_tras, env_free),
		cmocka_unit_test_teardown(test_latency_hbm2_pcs, env_free),
		cmocka_unit_test_teardown(test_frfcfs_hit_first, env_free),
		cmocka_unit_test(test_pick_policies),
		cmocka_unit_test_teardown(test_fcfs_oldest_first, env_free),
		cmocka_unit_test_teardown(test_row_hit_cap, env_free),
		cmocka_unit_test_teardown(test_row_hit_nocap, env_free),
		cmocka_unit_test_teardown(test_write_drain, env_free),
		cmocka_unit_test_teardown(test_page_closed, env_free),
		cmocka_unit_test_teardown(test_page_adaptive, env_free),
		cmocka_unit_test_teardown(test_page_open, env_free),
		cmocka_unit_test_teardown(test_refresh_all_bank_gddr6, env_free),
		cmocka_unit_test_teardown(test_refresh_per_bank_gddr6, env_free),
		cmocka_unit_test_teardown(test_refresh_all_bank_hbm2, env_free),
		cmocka_unit_test_teardown(test_refresh_per_bank_hbm2, env_free),
		cmocka_unit_test_teardown(test_refresh_off, env_free),
		cmocka_unit_test_teardown(test_refresh_postpone, env_free),
		cmocka_unit_test(test_ecc_bursts_per_row),
		cmocka_unit_test_teardown(test_ecc_inline_reads, env_free),
		cmocka_unit_test_teardown(test_ecc_partial_write, env_free),
		cmocka_unit_test_teardown(test_ecc_writeback, env_free),
		cmocka_unit_test_teardown(test_ecc_full_write_valid, env_free),
		cmocka_unit_test(test_params_check),
		cmocka_unit_test_teardown(test_queue_room, env_free),
		cmocka_unit_test_teardown(test_producer_woken, env_free),
		cmocka_unit_test_teardown(test_accept_per_cycle, env_free),
		cmocka_unit_test_teardown(test_admission_order, env_free),
		cmocka_unit_test_teardown(test_port_watch_both_kinds, env_free),
		cmocka_unit_test_teardown(test_lazy_refresh, env_free),
		cmocka_unit_test_teardown(test_lookahead, env_free),
		cmocka_unit_test_teardown(test_lookahead_drain_end, env_free),
		cmocka_unit_test_teardown(test_lookahead_applies, env_free),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
