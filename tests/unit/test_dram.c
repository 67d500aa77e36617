/*
 * test_dram.c - the DRAM device model: standards and their resolution (dram_std.c), the channel
 * model (dram.c) on exact cycles, and the independent command checker (dram_check.c).
 *
 *   a. spec resolution: every speed bin, hand-computed clocks, peaks and timings, every error;
 *   b. boundary cycles generated from the rule table: for every rule (and its RDA/WRA aliases)
 *      at its scope, prev at T, then dram_earliest(next) == T + the largest latency of all rules
 *      binding that pair (and the bus), early by one cycle refused, on time accepted; the checker
 *      passes the stream and flags it with next one cycle early; every rule must be exercised;
 *   c. the tFAW and t32AW windows;
 *   d. command buses: HBM row and column buses, the 2-cycle ACT, GDDR6's single bus;
 *   e. the implied precharge of RDA/WRA honours tRAS;
 *   f. long random legal streams checked by dram_check, and the checker's own mutation tests;
 *      in them, every answer is checked against its parts (dram_own_bound, the shared bounds
 *      read in place, the bus), and every own bound kept since the last command to its bank
 *      against a fresh one.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit.h"

#include "dram.h"
#include "dram_check.h"
#include "dram_std.h"

#define A DRAM_CMD_ACT
#define P DRAM_CMD_PRE
#define RD DRAM_CMD_RD
#define WR DRAM_CMD_WR
#define RDA DRAM_CMD_RDA
#define WRA DRAM_CMD_WRA
#define REFAB DRAM_CMD_REFAB
#define REFPB DRAM_CMD_REFPB

/* ---------------------------------------------------------------------------------------------
 * Helpers
 */

static uint32_t default_channels(enum dram_standard std)
{
	return std == DRAM_STD_GDDR6 ? 16 : std == DRAM_STD_HBM2 ? 32 : 40;
}

static void params_init(struct dram_params *p, struct dram_timing_params *tp,
			enum dram_standard std, double rate)
{
	memset(p, 0, sizeof *p);
	memset(tp, 0, sizeof *tp);
	p->standard = std;
	p->data_rate_gbps = rate;
	p->channels = default_channels(std);
	p->bank_group_mode = true;
}

static void resolve_ok(struct dram_spec *s, const struct dram_params *p,
		       const struct dram_timing_params *tp)
{
	struct sim_err err;

	memset(&err, 0, sizeof err);
	if (dram_spec_resolve(s, p, tp, &err) != 0)
		fail_msg("dram_spec_resolve: %s", err.msg);
}

static void spec_default(struct dram_spec *s, enum dram_standard std, double rate)
{
	struct dram_params p;
	struct dram_timing_params tp;

	params_init(&p, &tp, std, rate);
	resolve_ok(s, &p, &tp);
}

/* The error message of a resolution that must fail. Static buffer. */
static const char *resolve_err(const struct dram_params *p, const struct dram_timing_params *tp)
{
	static struct sim_err err;
	struct dram_spec s;

	memset(&err, 0, sizeof err);
	assert_int_equal(dram_spec_resolve(&s, p, tp, &err), -1);
	return err.msg;
}

/* Gives spec a rule table of its own (rules must outlive it), latencies computed for it. */
static void spec_set_rules(struct dram_spec *s, const struct dram_rule *rules, uint32_t n)
{
	uint32_t i;

	assert_true(n <= sizeof s->rule_lat / sizeof s->rule_lat[0]);
	s->rules = rules;
	s->nrules = n;
	for (i = 0; i < n; i++)
		s->rule_lat[i] = dram_rule_latency(s, &rules[i]);
}

static struct dram_addr baddr(const struct dram_spec *s, uint32_t ch, uint32_t pc, uint32_t bank,
			      uint32_t row)
{
	struct dram_addr a;

	memset(&a, 0, sizeof a);
	a.ch = ch;
	a.pc = pc;
	a.bg = bank / s->banks_per_group;
	a.ba = bank % s->banks_per_group;
	a.row = row;
	return a;
}

/* Issues cmd at exactly `at`, after checking that it is legal then and not a cycle earlier. */
static void issue_exact(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a,
			cycle_t at)
{
	assert_int_equal(dram_earliest(c, cmd, a), at);
	if (at > 0)
		assert_false(dram_can_issue(c, cmd, a, at - 1));
	assert_true(dram_can_issue(c, cmd, a, at));
	dram_issue(c, cmd, a, at);
}

/* Issues cmd at `at`, which must be legal (not necessarily the earliest cycle). */
static void issue_at(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a,
		     cycle_t at)
{
	assert_true(dram_can_issue(c, cmd, a, at));
	dram_issue(c, cmd, a, at);
}

/* Issues cmd at the first legal cycle >= from; returns that cycle. */
static cycle_t issue_asap(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a,
			  cycle_t from)
{
	cycle_t e = dram_earliest(c, cmd, a);

	assert_true(e != CYCLE_NEVER);
	if (e < from)
		e = from;
	dram_issue(c, cmd, a, e);
	return e;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A command log that forwards to a checker: lets a test replay (and mutate) a legal stream. */
#define LOG_MAX 4096
struct cmd_log {
	struct dram_check *k;
	uint32_t n;
	struct {
		uint32_t ch;
		enum dram_cmd cmd;
		struct dram_addr a;
		cycle_t at;
	} e[LOG_MAX];
};

static void log_hook(void *ctx, uint32_t ch, enum dram_cmd cmd, const struct dram_addr *a,
		     cycle_t at)
{
	struct cmd_log *l = ctx;

	assert_true(l->n < LOG_MAX);
	l->e[l->n].ch = ch;
	l->e[l->n].cmd = cmd;
	l->e[l->n].a = *a;
	l->e[l->n].at = at;
	l->n++;
	if (l->k != NULL)
		dram_check_hook(l->k, ch, cmd, a, at);
}

/* Replays entries [0, n) into a fresh checker, entry `moved` (if < n) at cycle `moved_at`.
 * Returns the checker (caller destroys). */
static struct dram_check *log_replay(const struct dram_spec *s, const struct cmd_log *l,
				     uint32_t n, uint32_t moved, cycle_t moved_at)
{
	struct dram_check *k = dram_check_create(s);
	uint32_t i;

	for (i = 0; i < n; i++)
		dram_check_hook(k, l->e[i].ch, l->e[i].cmd, &l->e[i].a,
				i == moved ? moved_at : l->e[i].at);
	return k;
}

static void assert_clean(const struct dram_check *k)
{
	if (dram_check_violations(k) != 0)
		fail_msg("%" PRIu64 " violations, first: %s", dram_check_violations(k),
			 dram_check_first(k));
	assert_string_equal(dram_check_first(k), "");
}

/* ---------------------------------------------------------------------------------------------
 * a. Spec resolution
 */

struct bin {
	enum dram_standard std;
	double rate;
	tick_t tck_ps;
	double peak_gbps; /* pins x rate, by hand */
	uint32_t pcs, rows, bursts_per_row;
	uint64_t capacity_gib;
};

static const struct bin bins[] = {
	/* GDDR6: 16 channels x 16 pins = 256 pins; CK = rate / 8 */
	{ DRAM_STD_GDDR6, 12.0, 667, 384.0, 1, 16384, 64, 8 },
	{ DRAM_STD_GDDR6, 14.0, 571, 448.0, 1, 16384, 64, 8 },
	{ DRAM_STD_GDDR6, 16.0, 500, 512.0, 1, 16384, 64, 8 },
	{ DRAM_STD_GDDR6, 18.0, 444, 576.0, 1, 16384, 64, 8 },
	{ DRAM_STD_GDDR6, 20.0, 400, 640.0, 1, 16384, 64, 8 },
	/* HBM2: 32 channels x 2 PCs x 64 pins = 4096 pins; CK = rate / 2 */
	{ DRAM_STD_HBM2, 2.0, 1000, 1024.0, 2, 32768, 32, 32 },
	{ DRAM_STD_HBM2, 2.4, 833, 1228.8, 2, 32768, 32, 32 },
	/* HBM2e: 40 channels x 2 PCs x 64 pins = 5120 pins */
	{ DRAM_STD_HBM2E, 3.2, 625, 2048.0, 2, 65536, 32, 80 },
	{ DRAM_STD_HBM2E, 3.6, 556, 2304.0, 2, 65536, 32, 80 },
};

static void test_spec_bins(void **state)
{
	size_t i;
	uint32_t r;

	(void)state;
	for (i = 0; i < sizeof bins / sizeof bins[0]; i++) {
		const struct bin *b = &bins[i];
		struct dram_spec s;
		bool hbm = b->std != DRAM_STD_GDDR6;

		spec_default(&s, b->std, b->rate);
		assert_int_equal(s.std, b->std);
		assert_int_equal(s.tck_ps, b->tck_ps);
		assert_int_equal(s.burst_cycles, 2);
		assert_int_equal(s.burst_bytes, 32);
		assert_int_equal(s.channels, default_channels(b->std));
		assert_int_equal(s.pcs, b->pcs);
		assert_int_equal(s.bank_groups, 4);
		assert_int_equal(s.banks_per_group, 4);
		assert_int_equal(s.banks, 16);
		assert_int_equal(s.rows, b->rows);
		assert_int_equal(s.bursts_per_row, b->bursts_per_row);
		assert_int_equal(s.width_bits, hbm ? 64 : 16);
		assert_int_equal(s.separate_row_bus, hbm);
		assert_int_equal(s.act_cmd_cycles, hbm ? 2 : 1);
		assert_int_equal(s.capacity_bytes, b->capacity_gib << 30);
		if (fabs(s.peak_gbps - b->peak_gbps) > 0.005 * b->peak_gbps)
			fail_msg("%s %.1f: peak %.2f GB/s, pins x rate %.2f", s.std_name, b->rate,
				 s.peak_gbps, b->peak_gbps);
		assert_true(fabs(dram_spec_peak_from_pins(&s) - b->peak_gbps) < 1e-9);
		assert_true(fabs(dram_spec_peak_from_org(&s) - s.peak_gbps) < 1e-9);
		/* consistency the resolver promises */
		assert_true(s.t[DRAM_T_RC] >= s.t[DRAM_T_RAS] + s.t[DRAM_T_RP]);
		assert_true(s.t[DRAM_T_CCD_S] >= s.burst_cycles);
		assert_int_equal(s.t[DRAM_T_32AW] != 0, !hbm);
		assert_non_null(s.rules);
		assert_true(s.nrules > 0 && s.nrules <= 64);
		for (r = 0; r < s.nrules; r++)
			assert_int_equal(s.rule_lat[r], dram_rule_latency(&s, &s.rules[r]));
	}
}

/* Every timing in cycles, computed by hand as max(n, ceil(ns / tCK)). */
static void assert_timings(const struct dram_spec *s, const uint32_t *want)
{
	int i;

	for (i = 0; i < DRAM_T_COUNT; i++)
		if (s->t[i] != want[i])
			fail_msg("%s at %.1f Gb/s: t%s is %u, want %u", s->std_name, s->data_rate_gbps,
				 dram_timing_name((enum dram_timing)i), s->t[i], want[i]);
}

static void test_spec_timings(void **state)
{
	struct dram_spec s;
	/* GDDR6 14 Gb/s, tCK 571 ps: CL 13.704 ns -> 24; tRCDRD 15 -> ceil(26.27) = 27; tRCDWR 9 ->
	 * 16; tRP 27; tRAS 30 -> ceil(52.54) = 53; tRC 45 -> ceil(78.81) = 79, raised to
	 * nRAS + nRP = 80 (see test_spec_trc_rounding); tRRD 4 -> ceil(7.005) = 8; tFAW 16 -> 29;
	 * t32AW 277 -> ceil(485.1) = 486; tWTR 5.139 / 6.281 -> 9 / 11; tRTW = CL + 2 + 2 - CWL =
	 * 22; tRFC 120 -> ceil(210.16) = 211; tRFCpb 60 -> 106; tRREFD 8 -> ceil(14.01) = 15;
	 * tREFI 1953.125 -> ceil(1953125 / 571) = ceil(3420.53) = 3421; tREFIpb 122.07 -> 214. */
	static const uint32_t gddr6_14[DRAM_T_COUNT] = {
		[DRAM_T_CL] = 24, [DRAM_T_CWL] = 6, [DRAM_T_RCDRD] = 27, [DRAM_T_RCDWR] = 16,
		[DRAM_T_RP] = 27, [DRAM_T_RAS] = 53, [DRAM_T_RC] = 80, [DRAM_T_RTP] = 4,
		[DRAM_T_WR] = 27, [DRAM_T_CCD_S] = 2, [DRAM_T_CCD_L] = 4, [DRAM_T_RRD_S] = 8,
		[DRAM_T_RRD_L] = 8, [DRAM_T_FAW] = 29, [DRAM_T_32AW] = 486, [DRAM_T_WTR_S] = 9,
		[DRAM_T_WTR_L] = 11, [DRAM_T_RTW] = 22, [DRAM_T_PPD] = 2, [DRAM_T_RFC] = 211,
		[DRAM_T_RFCPB] = 106, [DRAM_T_RREFD] = 15, [DRAM_T_REFI] = 3421,
		[DRAM_T_REFIPB] = 214,
	};
	/* GDDR6 16 Gb/s, tCK 500 ps: 15 ns is exactly 30 cycles (not 31); tREFI ceil(3906.25). */
	static const uint32_t gddr6_16[DRAM_T_COUNT] = {
		[DRAM_T_CL] = 28, [DRAM_T_CWL] = 6, [DRAM_T_RCDRD] = 30, [DRAM_T_RCDWR] = 18,
		[DRAM_T_RP] = 30, [DRAM_T_RAS] = 60, [DRAM_T_RC] = 90, [DRAM_T_RTP] = 4,
		[DRAM_T_WR] = 30, [DRAM_T_CCD_S] = 2, [DRAM_T_CCD_L] = 4, [DRAM_T_RRD_S] = 8,
		[DRAM_T_RRD_L] = 8, [DRAM_T_FAW] = 32, [DRAM_T_32AW] = 554, [DRAM_T_WTR_S] = 11,
		[DRAM_T_WTR_L] = 13, [DRAM_T_RTW] = 26, [DRAM_T_PPD] = 2, [DRAM_T_RFC] = 240,
		[DRAM_T_RFCPB] = 120, [DRAM_T_RREFD] = 16, [DRAM_T_REFI] = 3907,
		[DRAM_T_REFIPB] = 245,
	};
	/* HBM2 2.0 Gb/s, tCK 1000 ps: the ns values are the cycles; tREFIpb 243.75 -> 244. */
	static const uint32_t hbm2_20[DRAM_T_COUNT] = {
		[DRAM_T_CL] = 17, [DRAM_T_CWL] = 7, [DRAM_T_RCDRD] = 12, [DRAM_T_RCDWR] = 6,
		[DRAM_T_RP] = 14, [DRAM_T_RAS] = 28, [DRAM_T_RC] = 42, [DRAM_T_RTP] = 5,
		[DRAM_T_WR] = 14, [DRAM_T_CCD_S] = 2, [DRAM_T_CCD_L] = 3, [DRAM_T_RRD_S] = 4,
		[DRAM_T_RRD_L] = 6, [DRAM_T_FAW] = 16, [DRAM_T_32AW] = 0, [DRAM_T_WTR_S] = 4,
		[DRAM_T_WTR_L] = 9, [DRAM_T_RTW] = 18, [DRAM_T_PPD] = 1, [DRAM_T_RFC] = 220,
		[DRAM_T_RFCPB] = 96, [DRAM_T_RREFD] = 8, [DRAM_T_REFI] = 3900,
		[DRAM_T_REFIPB] = 244,
	};
	/* HBM2e 3.2 Gb/s, tCK 625 ps: CL 17 / 0.625 = 27.2 -> 28; tRC 42 -> 67.2 -> 68 = 45 + 23;
	 * tRTW 18 -> 28.8 -> 29; tRFC 350 -> 560; tREFI 3900 -> 6240. */
	static const uint32_t hbm2e_32[DRAM_T_COUNT] = {
		[DRAM_T_CL] = 28, [DRAM_T_CWL] = 12, [DRAM_T_RCDRD] = 20, [DRAM_T_RCDWR] = 10,
		[DRAM_T_RP] = 23, [DRAM_T_RAS] = 45, [DRAM_T_RC] = 68, [DRAM_T_RTP] = 8,
		[DRAM_T_WR] = 23, [DRAM_T_CCD_S] = 2, [DRAM_T_CCD_L] = 4, [DRAM_T_RRD_S] = 7,
		[DRAM_T_RRD_L] = 10, [DRAM_T_FAW] = 26, [DRAM_T_32AW] = 0, [DRAM_T_WTR_S] = 7,
		[DRAM_T_WTR_L] = 15, [DRAM_T_RTW] = 29, [DRAM_T_PPD] = 1, [DRAM_T_RFC] = 560,
		[DRAM_T_RFCPB] = 256, [DRAM_T_RREFD] = 13, [DRAM_T_REFI] = 6240,
		[DRAM_T_REFIPB] = 390,
	};

	(void)state;
	spec_default(&s, DRAM_STD_GDDR6, 14.0);
	assert_timings(&s, gddr6_14);
	spec_default(&s, DRAM_STD_GDDR6, 16.0);
	assert_timings(&s, gddr6_16);
	spec_default(&s, DRAM_STD_HBM2, 2.0);
	assert_timings(&s, hbm2_20);
	spec_default(&s, DRAM_STD_HBM2E, 3.2);
	assert_timings(&s, hbm2e_32);
}

/* Rules as sums: WR -> RD same group = CWL + burst + tWTR_L; WRA -> ACT = CWL + burst + tWR +
 * tRP; RDA -> ACT = tRTP + tRP (GDDR6 14 Gb/s). */
static void test_spec_rule_latency(void **state)
{
	struct dram_spec s;
	uint32_t i, found = 0;

	(void)state;
	spec_default(&s, DRAM_STD_GDDR6, 14.0);
	for (i = 0; i < s.nrules; i++) {
		const struct dram_rule *r = &s.rules[i];

		if (r->prev == WR && r->next == RD && r->scope == DRAM_SCOPE_BG) {
			assert_int_equal(s.rule_lat[i], 6 + 2 + 11);
			found |= 1;
		}
		if (r->prev == WRA && r->next == A) {
			assert_int_equal(s.rule_lat[i], 6 + 2 + 27 + 27);
			found |= 2;
		}
		if (r->prev == RDA && r->next == A) {
			assert_int_equal(s.rule_lat[i], 4 + 27);
			found |= 4;
		}
		if (r->prev == A && r->next == A && r->scope == DRAM_SCOPE_BANK) {
			assert_int_equal(s.rule_lat[i], 80);
			found |= 8;
		}
	}
	assert_int_equal(found, 15);
}

/*
 * The standard's own tRC is tRAS + tRP in ns; rounded separately at 14 Gb/s, 45 / 30 / 15 ns give
 * 79 < 53 + 27, so the standard's tRC is raised to 80 (HBM2e at 3.6 Gb/s: 76 -> 77). The same
 * 45 ns given by the user is taken as given and refused.
 */
static void test_spec_trc_rounding(void **state)
{
	struct dram_params p;
	struct dram_timing_params tp;
	struct dram_spec s;

	(void)state;
	spec_default(&s, DRAM_STD_GDDR6, 14.0);
	assert_int_equal(s.t[DRAM_T_RC], s.t[DRAM_T_RAS] + s.t[DRAM_T_RP]);
	spec_default(&s, DRAM_STD_HBM2E, 3.6);
	assert_int_equal(s.tck_ps, 556);
	assert_int_equal(s.t[DRAM_T_RAS], 51); /* ceil(28 / 0.556) = ceil(50.36) */
	assert_int_equal(s.t[DRAM_T_RP], 26);  /* ceil(25.18) */
	assert_int_equal(s.t[DRAM_T_RC], 77);  /* ceil(75.54) = 76, raised */

	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	tp.ns[DRAM_T_RC] = 45.0;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.timing: tRC (79) < tRAS (53) + tRP (27) cycles: a bank would be "
			    "activated again before it has precharged");
	tp.ns[DRAM_T_RC] = 45.7; /* ceil(80.03) = 81 */
	resolve_ok(&s, &p, &tp);
	assert_int_equal(s.t[DRAM_T_RC], 81);
	/* a user's tRP is checked against the standard's tRC, not silently absorbed */
	params_init(&p, &tp, DRAM_STD_GDDR6, 16.0);
	tp.nck[DRAM_T_RP] = 31;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.timing: tRC (90) < tRAS (60) + tRP (31) cycles: a bank would be "
			    "activated again before it has precharged");
}

static void test_spec_errors(void **state)
{
	struct dram_params p;
	struct dram_timing_params tp;
	struct dram_spec s;

	(void)state;
	/* tRC < tRAS + tRP with an nRC override */
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	tp.nck[DRAM_T_RC] = 70;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.timing: tRC (70) < tRAS (53) + tRP (27) cycles: a bank would be "
			    "activated again before it has precharged");
	/* both the cycle and the ns override */
	params_init(&p, &tp, DRAM_STD_HBM2E, 3.2);
	tp.nck[DRAM_T_RCDRD] = 30;
	tp.ns[DRAM_T_RCDRD] = 15.0;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.timing: nRCDRD and tRCDRD_ns both set; give one");
	/* tCCD_S below the burst */
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	tp.nck[DRAM_T_CCD_S] = 1;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.timing: tCCD_S (1) < burst (2 cycles): bursts would overlap on the "
			    "data bus");
	/* tRTW too short: 10 + CWL 6 = 16 < CL 24 + burst 2 = 26 */
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	tp.nck[DRAM_T_RTW] = 10;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.timing: tRTW (10) too short: write data at tRTW + CWL = 16 cycles "
			    "would collide with read data until CL + burst = 26");
	/* a zero timing: an ns override far below one cycle */
	params_init(&p, &tp, DRAM_STD_HBM2, 2.0);
	tp.ns[DRAM_T_PPD] = 1e-7;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.timing: tPPD is 0 cycles (every timing but t32AW must be at least 1)");
	/* bad width: the burst must be 32 B */
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	p.width_bits = 32;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.width_bits: a burst must carry one 32 B sector; 32 pins x BL16 = 64 B");
	params_init(&p, &tp, DRAM_STD_HBM2E, 3.2);
	p.width_bits = 128;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.width_bits: a burst must carry one 32 B sector; 128 pins x BL4 = 64 B");
	/* clamshell on HBM */
	params_init(&p, &tp, DRAM_STD_HBM2, 2.0);
	p.clamshell = true;
	assert_string_equal(resolve_err(&p, &tp), "dram.clamshell: only GDDR6 has a clamshell mode");
	/* bank groups off on HBM */
	params_init(&p, &tp, DRAM_STD_HBM2E, 3.2);
	p.bank_group_mode = false;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.bank_group_mode: only GDDR6 can run with bank groups off");
	/* pseudo-channels other than the standard's */
	params_init(&p, &tp, DRAM_STD_HBM2E, 3.2);
	p.pseudo_channels = 1;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.pseudo_channels: hbm2e has 2 (pseudo-channel mode is the mode "
			    "modelled), got 1");
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	p.pseudo_channels = 2;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.pseudo_channels: gddr6 has 1 (pseudo-channel mode is the mode "
			    "modelled), got 2");
	/* unknown standard */
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	p.standard = 7;
	assert_string_equal(resolve_err(&p, &tp), "dram.standard: unknown standard 7");
	/* ordering checks */
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	tp.nck[DRAM_T_CCD_L] = 3;
	tp.nck[DRAM_T_CCD_S] = 4;
	assert_string_equal(resolve_err(&p, &tp), "dram.timing: tCCD_L (3) < tCCD_S (4)");
	params_init(&p, &tp, DRAM_STD_HBM2, 2.0);
	tp.nck[DRAM_T_REFI] = 220;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.timing: tREFI (220) <= tRFC (220): the part would do nothing but "
			    "refresh");
	/* per-bank refreshes taking more than half the ACT slots (GDDR6 14 Gb/s: tRREFD 15,
	 * tRRD_S 8: tREFIpb 46 at least) */
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	tp.nck[DRAM_T_REFIPB] = 45;
	assert_string_equal(resolve_err(&p, &tp),
			    "dram.timing: tREFIpb (45) < 2 x (tRREFD + tRRD_S) (2 x (15 + 8)): "
			    "per-bank refreshes would take more than half the slots an ACT needs");
	tp.nck[DRAM_T_REFIPB] = 46;
	resolve_ok(&s, &p, &tp);
}

/* GDDR6 with bank groups off: the long timings apply between all banks. */
static void test_spec_bank_groups_off(void **state)
{
	struct dram_params p;
	struct dram_timing_params tp;
	struct dram_spec s;
	uint32_t i;

	(void)state;
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	p.bank_group_mode = false;
	resolve_ok(&s, &p, &tp);
	assert_false(s.bank_group_mode);
	assert_int_equal(s.t[DRAM_T_CCD_S], 4);
	assert_int_equal(s.t[DRAM_T_CCD_L], 4);
	assert_int_equal(s.t[DRAM_T_RRD_S], 8);
	assert_int_equal(s.t[DRAM_T_RRD_L], 8);
	assert_int_equal(s.t[DRAM_T_WTR_S], 11);
	assert_int_equal(s.t[DRAM_T_WTR_L], 11);
	for (i = 0; i < s.nrules; i++)
		if (s.rules[i].prev == RD && s.rules[i].next == RD)
			assert_int_equal(s.rule_lat[i], 4); /* tCCD_L at both scopes */
	/* clamshell doubles the page and the capacity */
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	p.clamshell = true;
	resolve_ok(&s, &p, &tp);
	assert_int_equal(s.bursts_per_row, 128);
	assert_int_equal(s.capacity_bytes, 16ull << 30);
}

/* An override in ns is converted at the clock in use; one in cycles is taken as is; either
 * replaces the standard's value, including its minimum in clocks. */
static void test_spec_overrides(void **state)
{
	struct dram_params p;
	struct dram_timing_params tp;
	struct dram_spec s;

	(void)state;
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	tp.ns[DRAM_T_RCDRD] = 20.0;   /* ceil(20 / 0.571) = ceil(35.03) = 36 */
	tp.nck[DRAM_T_RCDWR] = 30;    /* cycles as given */
	tp.ns[DRAM_T_CCD_L] = 1.0;    /* ceil(1.75) = 2: the standard's 4 tCK minimum is replaced */
	tp.nck[DRAM_T_CL] = 30;       /* tRTW follows: 30 + 2 + 2 - 6 = 28 */
	resolve_ok(&s, &p, &tp);
	assert_int_equal(s.t[DRAM_T_RCDRD], 36);
	assert_int_equal(s.t[DRAM_T_RCDWR], 30);
	assert_int_equal(s.t[DRAM_T_CCD_L], 2);
	assert_int_equal(s.t[DRAM_T_CL], 30);
	assert_int_equal(s.t[DRAM_T_RTW], 28);
	/* untouched values keep the standard's */
	assert_int_equal(s.t[DRAM_T_RP], 27);
	/* 15 ns at tCK 500 ps is exactly 30 cycles */
	params_init(&p, &tp, DRAM_STD_GDDR6, 16.0);
	tp.ns[DRAM_T_RCDRD] = 15.0;
	resolve_ok(&s, &p, &tp);
	assert_int_equal(s.t[DRAM_T_RCDRD], 30);
	tp.ns[DRAM_T_RCDRD] = 15.001; /* 30.002 -> 31 */
	resolve_ok(&s, &p, &tp);
	assert_int_equal(s.t[DRAM_T_RCDRD], 31);
	/* an explicit tRTW is kept */
	params_init(&p, &tp, DRAM_STD_HBM2E, 3.2);
	tp.nck[DRAM_T_RTW] = 40;
	resolve_ok(&s, &p, &tp);
	assert_int_equal(s.t[DRAM_T_RTW], 40);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(dram_cmd_name(REFAB), "REFab");
	assert_string_equal(dram_cmd_name(REFPB), "REFpb");
	assert_string_equal(dram_cmd_name(RDA), "RDA");
	assert_string_equal(dram_timing_name(DRAM_T_RCDRD), "RCDRD");
	assert_string_equal(dram_timing_name(DRAM_T_BURST), "BURST");
	assert_true(dram_cmd_is_row(A) && dram_cmd_is_row(P) && dram_cmd_is_row(REFAB) &&
		    dram_cmd_is_row(REFPB));
	assert_false(dram_cmd_is_row(RD) || dram_cmd_is_row(WR) || dram_cmd_is_row(RDA) ||
		     dram_cmd_is_row(WRA));
	assert_string_equal(dram_standard_names[DRAM_STD_HBM2E], "hbm2e");
	assert_null(dram_standard_names[DRAM_STD_COUNT]);
	assert_non_null(dram_timing_source(DRAM_STD_GDDR6, DRAM_T_32AW));
}

/* ---------------------------------------------------------------------------------------------
 * b. Boundary cycles generated from the rule table
 *
 * The oracle here reads only the rule table: a command h binds `next` on the target bank when a
 * rule's prev matches h (RDA is an RD too, WRA a WR), its next matches `next`, and the target is
 * in the rule's scope of h's bank (REFab covers every bank). The expected earliest cycle is the
 * maximum of h.at + latency over all binding rules and commands since T, the command bus, and
 * the implied precharge of an RDA/WRA.
 */

#define BANK_ALL UINT32_MAX
#define GAP 5000 /* cycles between set-up and T: more than any latency or window */
#define ROW_CASE 100

struct hcmd {
	enum dram_cmd cmd;
	uint32_t bank; /* BANK_ALL for REFab */
	cycle_t at;
};

struct gen_stats {
	uint32_t cases, checked, skipped, bridged;
	uint32_t exercised[64], decisive[64];
};

static bool cmd_is(enum dram_cmd c, enum dram_cmd rule_cmd)
{
	return c == rule_cmd || (rule_cmd == RD && c == RDA) || (rule_cmd == WR && c == WRA);
}

static bool rule_binds(const struct dram_spec *s, const struct dram_rule *r, const struct hcmd *h,
		       enum dram_cmd next, uint32_t tbank)
{
	if (!cmd_is(h->cmd, r->prev) || !cmd_is(next, r->next))
		return false;
	if (h->bank == BANK_ALL || tbank == BANK_ALL)
		return true;
	switch (r->scope) {
	case DRAM_SCOPE_BANK:
		return h->bank == tbank;
	case DRAM_SCOPE_BG:
		return h->bank / s->banks_per_group == tbank / s->banks_per_group;
	default:
		return true;
	}
}

static bool same_bus(const struct dram_spec *s, enum dram_cmd a, enum dram_cmd b)
{
	return !s->separate_row_bus || dram_cmd_is_row(a) == dram_cmd_is_row(b);
}

/* Expected earliest cycle of next on tbank after hist; marks binding rules when st != NULL. */
static cycle_t oracle(const struct dram_spec *s, const struct hcmd *hist, uint32_t n,
		      const cycle_t *act_at, enum dram_cmd next, uint32_t tbank,
		      struct gen_stats *st)
{
	cycle_t e = 0;
	uint32_t i, r;

	for (i = 0; i < n; i++) {
		const struct hcmd *h = &hist[i];

		for (r = 0; r < s->nrules; r++)
			if (rule_binds(s, &s->rules[r], h, next, tbank) && h->at + s->rule_lat[r] > e)
				e = h->at + s->rule_lat[r];
		if (same_bus(s, h->cmd, next)) {
			cycle_t b = h->at + (h->cmd == A ? s->act_cmd_cycles : 1);

			if (b > e)
				e = b;
		}
		if ((h->cmd == RDA || h->cmd == WRA) && (next == A || next == REFPB || next == REFAB) &&
		    (tbank == BANK_ALL || tbank == h->bank)) {
			cycle_t pre = h->cmd == RDA ? h->at + s->t[DRAM_T_RTP]
				    : h->at + s->t[DRAM_T_CWL] + s->burst_cycles + s->t[DRAM_T_WR];

			if (act_at[h->bank] + s->t[DRAM_T_RAS] > pre)
				pre = act_at[h->bank] + s->t[DRAM_T_RAS];
			if (pre + s->t[DRAM_T_RP] > e)
				e = pre + s->t[DRAM_T_RP];
		}
	}
	if (st != NULL) {
		for (i = 0; i < n; i++)
			for (r = 0; r < s->nrules; r++)
				if (rule_binds(s, &s->rules[r], &hist[i], next, tbank)) {
					st->exercised[r]++;
					if (hist[i].at + s->rule_lat[r] == e)
						st->decisive[r]++;
				}
	}
	return e;
}

static bool needs_open(enum dram_cmd c)
{
	return c == P || c == RD || c == WR || c == RDA || c == WRA;
}

/* Open after c was issued to an open (or closed, for ACT) bank? */
static bool leaves_open(enum dram_cmd c)
{
	return c == A || c == RD || c == WR;
}

static struct dram_addr case_addr(const struct dram_spec *s, uint32_t pc, uint32_t bank,
				  uint32_t row)
{
	return baddr(s, 0, pc, bank == BANK_ALL ? 0 : bank, row);
}

/* One case: prev (pc, pb) at T, then next to tbank (BANK_ALL = REFab). */
static void gen_case(const struct dram_spec *s, uint32_t rule, enum dram_cmd prev,
		     enum dram_cmd next, struct gen_stats *st)
{
	const struct dram_rule *r = &s->rules[rule];
	uint32_t pc = s->pcs - 1; /* the last pseudo-channel: catches pc indexing on HBM */
	uint32_t pb = 1 * s->banks_per_group + 1;          /* bg1 ba1 */
	uint32_t tb;
	uint32_t open[2], nopen = 0, i;
	cycle_t act_at[64];
	struct hcmd hist[2];
	uint32_t nh = 0;
	bool bridge = false;
	struct dram_chan *c;
	struct cmd_log *log;
	struct dram_addr a;
	cycle_t t = 0, T, E;
	struct dram_check *k;

	st->cases++;
	if (next == REFAB)
		tb = BANK_ALL;
	else if (r->scope == DRAM_SCOPE_BANK)
		tb = pb;
	else if (r->scope == DRAM_SCOPE_BG)
		tb = 1 * s->banks_per_group + 2;           /* bg1 ba2 */
	else
		tb = 2 * s->banks_per_group + 3;           /* bg2 ba3 */
	if (prev == REFAB)
		pb = BANK_ALL;

	/* The state each command needs; skip what no single command sequence can give. */
	if (needs_open(prev))
		open[nopen++] = pb;
	if (needs_open(next)) {
		if (tb == pb) {
			if (!leaves_open(prev)) {
				st->skipped++;
				return;
			}
		} else if (pb == BANK_ALL) {
			st->skipped++; /* REFab needs every bank closed */
			return;
		} else {
			open[nopen++] = tb;
		}
	} else if ((tb == pb || tb == BANK_ALL) && pb != BANK_ALL && leaves_open(prev)) {
		bridge = true; /* a PRE closes the bank between prev and next */
	}

	c = dram_chan_create(s, 0);
	log = xcalloc(1, sizeof *log);
	log->k = dram_check_create(s);
	dram_chan_set_hook(c, log_hook, log);
	for (i = 0; i < 64; i++)
		act_at[i] = 0;
	for (i = 0; i < nopen; i++) {
		a = case_addr(s, pc, open[i], ROW_CASE);
		act_at[open[i]] = t = issue_asap(c, A, &a, t);
		t++;
	}
	T = t + GAP;

	/* prev at T: nothing from the set-up binds it any more */
	a = case_addr(s, pc, pb, ROW_CASE);
	assert_true(dram_earliest(c, prev, &a) <= T);
	dram_issue(c, prev, &a, T);
	hist[nh++] = (struct hcmd){ prev, pb, T };
	if (prev == A)
		act_at[pb] = T;
	if (bridge) {
		cycle_t tp = oracle(s, hist, nh, act_at, P, pb, NULL);

		issue_exact(c, P, &a, tp);
		hist[nh++] = (struct hcmd){ P, pb, tp };
		st->bridged++;
	}

	E = oracle(s, hist, nh, act_at, next, tb, st);
	a = case_addr(s, pc, tb, ROW_CASE);
	if (dram_earliest(c, next, &a) != E)
		fail_msg("%s rule %u (%s -> %s, scope %d): %s at T=%" PRIu64 " then %s to %s: "
			 "earliest %" PRIu64 ", expected T + %" PRIu64, s->std_name, rule,
			 dram_cmd_name(r->prev), dram_cmd_name(r->next), (int)r->scope,
			 dram_cmd_name(prev), T, dram_cmd_name(next),
			 tb == BANK_ALL ? "the PC" : tb == pb ? "the same bank" : "another bank",
			 dram_earliest(c, next, &a), E - T);
	assert_false(dram_can_issue(c, next, &a, E - 1));
	assert_true(dram_can_issue(c, next, &a, E));
	dram_issue(c, next, &a, E);
	dram_chan_check(c);

	/* the checker passes the legal stream ... */
	assert_int_equal(dram_check_commands(log->k), log->n);
	assert_clean(log->k);
	/* ... and flags the same stream with next one cycle early */
	k = log_replay(s, log, log->n, log->n - 1, E - 1);
	if (dram_check_violations(k) != 1)
		fail_msg("%s rule %u: checker found %" PRIu64 " violations with %s one cycle early",
			 s->std_name, rule, dram_check_violations(k), dram_cmd_name(next));
	dram_check_destroy(k);

	dram_check_destroy(log->k);
	free(log);
	dram_chan_destroy(c);
	st->checked++;
}

static void gen_spec(const struct dram_spec *s, struct gen_stats *st)
{
	uint32_t r;

	for (r = 0; r < s->nrules; r++) {
		const struct dram_rule *rule = &s->rules[r];
		enum dram_cmd prevs[2] = { rule->prev, rule->prev }, nexts[2] = { rule->next, rule->next };
		uint32_t np = 1, nn = 1, i, j;

		/* RDA/WRA obey RD/WR rules on both sides: each alias is a case of its own */
		if (rule->prev == RD || rule->prev == WR)
			prevs[np++] = rule->prev == RD ? RDA : WRA;
		if (rule->next == RD || rule->next == WR)
			nexts[nn++] = rule->next == RD ? RDA : WRA;
		for (i = 0; i < np; i++)
			for (j = 0; j < nn; j++)
				gen_case(s, r, prevs[i], nexts[j], st);
	}
}

static void test_rule_boundaries(void **state)
{
	static const struct {
		enum dram_standard std;
		double rate;
		bool bg_mode;
		bool required; /* every rule must be exercised and decisive in these */
	} specs[] = {
		{ DRAM_STD_GDDR6, 14.0, true, true },
		{ DRAM_STD_HBM2E, 3.2, true, true },
		{ DRAM_STD_GDDR6, 16.0, false, false },
		{ DRAM_STD_HBM2, 2.0, true, false },
	};
	struct gen_stats total;
	uint32_t nrules = 0, i, r;

	(void)state;
	memset(&total, 0, sizeof total);
	for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		struct dram_params p;
		struct dram_timing_params tp;
		struct dram_spec s;
		struct gen_stats st;

		params_init(&p, &tp, specs[i].std, specs[i].rate);
		p.bank_group_mode = specs[i].bg_mode;
		resolve_ok(&s, &p, &tp);
		memset(&st, 0, sizeof st);
		gen_spec(&s, &st);
		printf("# rule boundaries, %s %.1f Gb/s%s: %u rules, %u cases, %u checked (%u via an "
		       "intervening PRE), %u skipped (bank state)\n", s.std_name, s.data_rate_gbps,
		       specs[i].bg_mode ? "" : " bank groups off", s.nrules, st.cases, st.checked,
		       st.bridged, st.skipped);
		assert_int_equal(st.cases, st.checked + st.skipped);
		nrules = s.nrules;
		for (r = 0; r < s.nrules; r++) {
			if (st.exercised[r] == 0)
				fail_msg("%s: rule %u (%s -> %s) never exercised", s.std_name, r,
					 dram_cmd_name(s.rules[r].prev),
					 dram_cmd_name(s.rules[r].next));
			if (!specs[i].required)
				continue;
			total.exercised[r] += st.exercised[r];
			total.decisive[r] += st.decisive[r];
		}
		total.cases += st.cases;
		total.checked += st.checked;
		total.skipped += st.skipped;
	}
	/* Across GDDR6 and HBM2e every rule must have set the expected cycle at least once, so an
	 * off-by-one in any rule's latency or scope cannot pass unseen. */
	for (r = 0; r < nrules; r++) {
		assert_true(total.exercised[r] > 0);
		if (total.decisive[r] == 0)
			fail_msg("rule %u never decided an expected cycle", r);
	}
	printf("# rule boundaries: %u cases, %u checked, %u skipped, all %u rules exercised and "
	       "decisive\n", total.cases, total.checked, total.skipped, nrules);
}

/*
 * The same generated cases on the standard table extended with rule shapes it does not use
 * today but a future table may: a BANK-scope and a BG-scope rule after REFab (REFab binds every
 * bank), a BG-scope rule before REFab (REFab is bound by every group), and a second rule for an
 * existing (prev, next, scope) with a larger latency (the larger wins). The `add` terms make each
 * extra rule the one that decides its case.
 */
static void test_rule_boundaries_synthetic(void **state)
{
	static const struct dram_rule extra[] = {
		{ REFAB, A, DRAM_SCOPE_BANK, { DRAM_T_RFC, -1, -1, -1 }, 7 },
		{ REFAB, REFPB, DRAM_SCOPE_BG, { DRAM_T_RFC, -1, -1, -1 }, 9 },
		{ P, REFAB, DRAM_SCOPE_BG, { DRAM_T_RP, -1, -1, -1 }, 11 },
		{ RD, RD, DRAM_SCOPE_BG, { DRAM_T_CCD_L, -1, -1, -1 }, 5 },
	};
	const size_t nextra = sizeof extra / sizeof extra[0];
	static const struct {
		enum dram_standard std;
		double rate;
	} specs[] = { { DRAM_STD_GDDR6, 14.0 }, { DRAM_STD_HBM2E, 3.2 } };
	size_t i;
	uint32_t r;

	(void)state;
	for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		struct dram_rule *rules;
		struct dram_spec s;
		struct gen_stats st;
		uint32_t n;

		spec_default(&s, specs[i].std, specs[i].rate);
		n = s.nrules + (uint32_t)nextra;
		rules = xcalloc(n, sizeof *rules);
		memcpy(rules, s.rules, s.nrules * sizeof *rules);
		memcpy(rules + s.nrules, extra, sizeof extra);
		spec_set_rules(&s, rules, n);
		memset(&st, 0, sizeof st);
		gen_spec(&s, &st);
		printf("# rule boundaries, %s with %zu synthetic rules: %u cases, %u checked, %u "
		       "skipped\n", s.std_name, nextra, st.cases, st.checked, st.skipped);
		for (r = 0; r < n; r++)
			assert_true(st.exercised[r] > 0);
		for (r = n - (uint32_t)nextra; r < n; r++)
			if (st.decisive[r] == 0)
				fail_msg("%s: synthetic rule %u never decided its case", s.std_name, r);
		free(rules);
	}
}

/* ---------------------------------------------------------------------------------------------
 * c. Activate windows
 */

/* Five ACTs to five banks as fast as legal: the fifth waits tFAW after the first. tFAW is set
 * to 40 so that it exceeds 4 x tRRD_S (GDDR6 14: 4 x 8 = 32; with the default 29 the window
 * never binds). */
static void test_faw(void **state)
{
	static const uint32_t banks[6] = { 0, 4, 8, 12, 1, 5 }; /* groups 0 1 2 3 0 1 */
	struct dram_params p;
	struct dram_timing_params tp;
	struct dram_spec s;
	struct dram_chan *c;
	struct dram_check *k;
	struct dram_addr a;
	cycle_t at;
	uint32_t i;

	(void)state;
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	tp.nck[DRAM_T_FAW] = 40;
	resolve_ok(&s, &p, &tp);
	c = dram_chan_create(&s, 0);
	k = dram_check_create(&s);
	dram_chan_set_hook(c, dram_check_hook, k);
	{
		static const cycle_t want[6] = { 1000, 1008, 1016, 1024, 1040, 1048 };

		for (i = 0; i < 6; i++) {
			a = baddr(&s, 0, 0, banks[i], i);
			if (i == 4) {
				/* the bank itself (and the bus) would allow 1025: the window holds it */
				assert_int_equal(dram_act_bank_bound(c, &a), 1025);
				assert_int_equal(dram_earliest(c, A, &a), 1040);
			}
			at = issue_asap(c, A, &a, 1000);
			assert_int_equal(at, want[i]);
		}
	}
	assert_clean(k);
	dram_check_destroy(k);
	dram_chan_destroy(c);

	/* HBM2e, same window: it is per pseudo-channel; the other PC's ACT goes ahead */
	params_init(&p, &tp, DRAM_STD_HBM2E, 3.2);
	tp.nck[DRAM_T_FAW] = 40;
	resolve_ok(&s, &p, &tp);
	c = dram_chan_create(&s, 0);
	k = dram_check_create(&s);
	dram_chan_set_hook(c, dram_check_hook, k);
	for (i = 0; i < 4; i++) { /* tRRD_S 7 */
		a = baddr(&s, 0, 0, banks[i], i);
		issue_exact(c, A, &a, i == 0 ? 0 : 7 * i);
	}
	a = baddr(&s, 0, 0, banks[4], 4);
	assert_int_equal(dram_earliest(c, A, &a), 40);
	a = baddr(&s, 0, 1, banks[4], 4);
	issue_exact(c, A, &a, 23); /* row bus after the ACT at 21 (2 cycles) */
	a = baddr(&s, 0, 0, banks[4], 4);
	issue_exact(c, A, &a, 40);
	assert_clean(k);
	dram_check_destroy(k);
	dram_chan_destroy(c);

	/* defaults: HBM2 2.0 tFAW 16 = 4 x tRRD_S, the fifth at 16 either way; HBM2e tFAW 26 < 28 */
	spec_default(&s, DRAM_STD_HBM2, 2.0);
	c = dram_chan_create(&s, 0);
	for (i = 0; i < 5; i++) {
		a = baddr(&s, 0, 0, banks[i], i);
		assert_int_equal(issue_asap(c, A, &a, 0), 4 * i);
	}
	dram_chan_destroy(c);
	spec_default(&s, DRAM_STD_HBM2E, 3.2);
	c = dram_chan_create(&s, 0);
	for (i = 0; i < 5; i++) {
		a = baddr(&s, 0, 0, banks[i], i);
		assert_int_equal(issue_asap(c, A, &a, 0), 7 * i);
	}
	dram_chan_destroy(c);
}

/*
 * GDDR6 t32AW: ACTs to banks 0..15 round robin with distinct rows, each bank precharged as soon
 * as tRAS allows, as fast as legal. tRRD_S = 8 puts ACT i at 8i (the PREs land at 8j + 53, off
 * the ACT slots; tFAW 29 < 32 never binds), so ACT 31 is at 248; the 33rd ACT (i = 32) waits for
 * t32AW after the first: 0 + 486; the 34th for the second: 8 + 486 = 494.
 */
static void test_32aw(void **state)
{
	struct dram_spec s;
	struct dram_chan *c;
	struct cmd_log *log;
	struct dram_check *k;
	cycle_t act_at[40], now;
	uint32_t nact = 0, i, i33 = 0;

	(void)state;
	spec_default(&s, DRAM_STD_GDDR6, 14.0);
	assert_int_equal(s.t[DRAM_T_32AW], 486);
	c = dram_chan_create(&s, 0);
	log = xcalloc(1, sizeof *log);
	log->k = dram_check_create(&s);
	dram_chan_set_hook(c, log_hook, log);
	for (now = 0; nact < 34 && now < 2000; now++) {
		struct dram_addr a = baddr(&s, 0, 0, nact % 16, nact);
		uint32_t b;

		if (dram_can_issue(c, A, &a, now)) {
			if (nact == 32)
				i33 = log->n;
			dram_issue(c, A, &a, now);
			act_at[nact++] = now;
			continue;
		}
		for (b = 0; b < 16; b++) { /* else close the oldest open bank when legal */
			struct dram_addr pa = baddr(&s, 0, 0, (nact + b) % 16, 0);

			if (dram_open_row(c, &pa) != DRAM_ROW_NONE) {
				pa.row = dram_open_row(c, &pa);
				if (dram_can_issue(c, P, &pa, now))
					dram_issue(c, P, &pa, now);
				break;
			}
		}
	}
	assert_int_equal(nact, 34);
	for (i = 0; i < 32; i++)
		assert_int_equal(act_at[i], 8 * i);
	assert_int_equal(act_at[32], 486);
	assert_int_equal(act_at[33], 494);
	assert_clean(log->k);

	/* the checker sees the same window: the 33rd ACT one cycle early */
	k = log_replay(&s, log, i33 + 1, i33, 485);
	assert_int_equal(dram_check_violations(k), 1);
	assert_string_equal(dram_check_first(k),
			    "ch0 pc0 b0: ACT at 485 after ACT to b0 at 0, 32 ACTs back: t32AW needs 486");
	dram_check_destroy(k);
	dram_check_destroy(log->k);
	free(log);
	dram_chan_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * d. Command buses
 */

static void test_hbm_buses(void **state)
{
	struct dram_spec s;
	struct dram_chan *c;
	struct dram_check *k;
	struct dram_addr a00, a10, a06, a09, a15;
	const cycle_t T = 1000;

	(void)state;
	spec_default(&s, DRAM_STD_HBM2E, 3.2);
	c = dram_chan_create(&s, 0);
	k = dram_check_create(&s);
	dram_chan_set_hook(c, dram_check_hook, k);
	a00 = baddr(&s, 0, 0, 0, 1);
	a10 = baddr(&s, 0, 1, 0, 1);
	a06 = baddr(&s, 0, 0, 6, 2);
	a09 = baddr(&s, 0, 0, 9, 2);
	a15 = baddr(&s, 0, 1, 5, 2);
	issue_asap(c, A, &a00, 0);
	issue_asap(c, A, &a10, 0);

	/* a row and a column command in the same cycle: different PCs ... */
	issue_at(c, A, &a15, T);
	issue_at(c, RD, &a00, T);
	/* ... and the same PC, different banks */
	issue_at(c, A, &a06, T + 100);
	issue_at(c, WR, &a00, T + 100);

	/* two row commands in one cycle are not legal; an ACT holds the row bus 2 cycles */
	issue_at(c, A, &a09, T + 200);
	assert_false(dram_can_issue(c, P, &a10, T + 200));
	assert_false(dram_can_issue(c, P, &a10, T + 201));
	issue_exact(c, P, &a10, T + 202);
	/* a PRE holds it one cycle, across PCs too (tPPD is per PC) */
	assert_false(dram_can_issue(c, P, &a00, T + 202));
	issue_exact(c, P, &a00, T + 203);
	/* two column commands in one cycle are not legal either, across PCs */
	issue_asap(c, A, &a00, T + 300);
	issue_asap(c, A, &a10, T + 300);
	{
		cycle_t t = issue_asap(c, RD, &a00, T + 400);

		assert_false(dram_can_issue(c, RD, &a10, t));
		issue_exact(c, RD, &a10, t + 1); /* other PC: no tCCD, own data bus */
	}
	assert_int_equal(dram_bus_free(c, RD), dram_bus_free(c, WR));
	assert_true(dram_bus_free(c, A) != dram_bus_free(c, RD));
	assert_clean(k);
	assert_int_equal(dram_check_commands(k), 13);
	dram_check_destroy(k);
	dram_chan_destroy(c);
}

static void test_gddr6_bus(void **state)
{
	struct dram_spec s;
	struct dram_chan *c;
	struct dram_check *k;
	struct dram_addr a0, a5, a10;
	const cycle_t T = 1000;

	(void)state;
	spec_default(&s, DRAM_STD_GDDR6, 14.0);
	c = dram_chan_create(&s, 0);
	k = dram_check_create(&s);
	dram_chan_set_hook(c, dram_check_hook, k);
	a0 = baddr(&s, 0, 0, 0, 1);
	a5 = baddr(&s, 0, 0, 5, 2);
	a10 = baddr(&s, 0, 0, 10, 3);
	issue_asap(c, A, &a0, 0);
	issue_asap(c, A, &a10, 0);
	/* one bus: a row and a column command never share a cycle */
	issue_at(c, A, &a5, T);
	assert_false(dram_can_issue(c, RD, &a0, T));
	issue_exact(c, RD, &a0, T + 1);
	assert_false(dram_can_issue(c, P, &a10, T + 1));
	issue_exact(c, P, &a10, T + 2);
	/* RD -> WR any bank: tRTW 22 */
	issue_exact(c, WR, &a0, T + 1 + 22);
	assert_int_equal(dram_bus_free(c, RD), dram_bus_free(c, A));
	assert_clean(k);
	dram_check_destroy(k);
	dram_chan_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * e. The implied precharge of RDA/WRA honours tRAS
 *
 * After ACT at T and RDA at T + tRCDRD, the bank precharges at max(T + tRCDRD + tRTP, T + tRAS)
 * and takes ACT or REFpb tRP later. tRC >= tRAS + tRP makes the tRAS part invisible to ACT, but
 * not to REFpb, whose rules alone (RDA -> REFpb tRTP + tRP) would allow it earlier.
 */
struct ap_case {
	enum dram_standard std;
	double rate;
	enum dram_cmd col;       /* RDA or WRA */
	enum dram_cmd next;      /* ACT or REFpb */
	cycle_t col_at, next_at; /* after ACT at T */
	bool implied_first;      /* one cycle early, only the implied precharge is broken */
};

static void test_autoprecharge_tras(void **state)
{
	static const struct ap_case cases[] = {
		/* HBM2e 3.2: tRCDRD 20, tRTP 8, tRAS 45, tRP 23: max(28, 45) + 23 = 68 (= tRC);
		 * REFpb by the rules alone: 20 + 8 + 23 = 51 */
		{ DRAM_STD_HBM2E, 3.2, RDA, A, 20, 68, false }, /* tRC first */
		{ DRAM_STD_HBM2E, 3.2, RDA, REFPB, 20, 68, true },
		{ DRAM_STD_HBM2E, 3.2, RDA, REFAB, 20, 68, true },
		/* GDDR6 14: tRCDRD 27, tRTP 4, tRAS 53, tRP 27: max(31, 53) + 27 = 80; rules: 58 */
		{ DRAM_STD_GDDR6, 14.0, RDA, A, 27, 80, false },
		{ DRAM_STD_GDDR6, 14.0, RDA, REFPB, 27, 80, true },
		/* HBM2e WRA at tRCDWR 10: max(10 + 12 + 2 + 23 = 47, 45) + 23 = 70 (> tRC 68) */
		{ DRAM_STD_HBM2E, 3.2, WRA, A, 10, 70, false },
		{ DRAM_STD_HBM2E, 3.2, WRA, REFPB, 10, 70, false }, /* rule: 70 too */
		/* GDDR6 WRA at tRCDWR 16: max(16 + 6 + 2 + 27 = 51, 53) + 27 = 80; rules: 78 */
		{ DRAM_STD_GDDR6, 14.0, WRA, A, 16, 80, false },
		{ DRAM_STD_GDDR6, 14.0, WRA, REFPB, 16, 80, true },
		{ DRAM_STD_GDDR6, 14.0, WRA, REFAB, 16, 80, true },
		/* late RDA/WRA, past tRAS: tRTP (write recovery) decides. HBM2e RDA at 60:
		 * 60 + 8 + 23 = 91; WRA at 60: 60 + 12 + 2 + 23 + 23 = 120. GDDR6 RDA at 100:
		 * 100 + 4 + 27 = 131. With the standard table the RDA/WRA rule says the same. */
		{ DRAM_STD_HBM2E, 3.2, RDA, A, 60, 91, false },
		{ DRAM_STD_HBM2E, 3.2, RDA, REFPB, 60, 91, false },
		{ DRAM_STD_HBM2E, 3.2, WRA, A, 60, 120, false },
		{ DRAM_STD_GDDR6, 14.0, RDA, REFAB, 100, 131, false },
	};
	struct dram_rule norda[64];
	size_t i;
	uint32_t r, n;
	int pass;

	(void)state;
	/* pass 1: the standard table; pass 2: the table without the rules after RDA/WRA, so that
	 * the implied precharge alone has to give the same cycles */
	for (pass = 1; pass <= 2; pass++)
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct ap_case *x = &cases[i];
		const cycle_t T = 1000;
		struct dram_spec s;
		struct dram_chan *c;
		struct cmd_log *log;
		struct dram_check *k;
		struct dram_addr a;
		bool implied_first = x->implied_first;
		uint32_t rcd;

		spec_default(&s, x->std, x->rate);
		if (pass == 2) {
			for (n = 0, r = 0; r < s.nrules; r++)
				if (s.rules[r].prev != RDA && s.rules[r].prev != WRA)
					norda[n++] = s.rules[r];
			assert_int_equal(n, s.nrules - 6);
			spec_set_rules(&s, norda, n);
			/* now only tRC can fire before the implied precharge */
			implied_first = x->next != A || x->next_at - 1 >= s.t[DRAM_T_RC];
		}
		c = dram_chan_create(&s, 0);
		log = xcalloc(1, sizeof *log);
		log->k = dram_check_create(&s);
		dram_chan_set_hook(c, log_hook, log);
		a = baddr(&s, 0, 0, 6, 9);
		issue_at(c, A, &a, T);
		rcd = s.t[x->col == RDA ? DRAM_T_RCDRD : DRAM_T_RCDWR];
		assert_int_equal(dram_earliest(c, x->col, &a), T + rcd);
		issue_at(c, x->col, &a, T + x->col_at);
		assert_int_equal(dram_open_row(c, &a), DRAM_ROW_NONE);
		assert_int_equal(dram_open_banks(c, 0), 0);
		if (x->next == A)
			assert_int_equal(dram_act_bank_bound(c, &a), T + x->next_at);
		issue_exact(c, x->next, &a, T + x->next_at);
		assert_clean(log->k);
		/* one cycle early: the checker names the implied precharge when the rules pass */
		k = log_replay(&s, log, 3, 2, T + x->next_at - 1);
		assert_int_equal(dram_check_violations(k), 1);
		if (implied_first) {
			char want[200];

			snprintf(want, sizeof want,
				 x->next == REFAB
				 ? "ch0 pc0: %s at %" PRIu64 " after %s to b6 at %" PRIu64
				   ": implied precharge at %" PRIu64 " + tRP needs %" PRIu64
				 : "ch0 pc0 b6: %s at %" PRIu64 " after %s to b6 at %" PRIu64
				   ": implied precharge at %" PRIu64 " + tRP needs %" PRIu64,
				 dram_cmd_name(x->next), T + x->next_at - 1, dram_cmd_name(x->col),
				 T + x->col_at, T + x->next_at - s.t[DRAM_T_RP], T + x->next_at);
			assert_string_equal(dram_check_first(k), want);
		}
		dram_check_destroy(k);
		dram_check_destroy(log->k);
		free(log);
		dram_chan_destroy(c);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Channel basics: state, dram_needed, stats, the bank state machine's refusals
 */

static void test_channel_state(void **state)
{
	struct dram_spec s;
	struct dram_chan *c;
	struct dram_addr a, other;
	const struct dram_chan_stats *st;

	(void)state;
	spec_default(&s, DRAM_STD_HBM2E, 3.2);
	c = dram_chan_create(&s, 7);
	a = baddr(&s, 7, 1, 13, 42);
	other = a;
	other.row = 43;
	assert_int_equal(dram_needed(c, &a, false), A);
	assert_int_equal(dram_open_row(c, &a), DRAM_ROW_NONE);
	/* closed bank: no column command, no PRE */
	assert_true(dram_earliest(c, RD, &a) == CYCLE_NEVER);
	assert_true(dram_earliest(c, WRA, &a) == CYCLE_NEVER);
	assert_true(dram_earliest(c, P, &a) == CYCLE_NEVER);
	assert_int_equal(dram_earliest(c, REFAB, &a), 0);
	issue_asap(c, A, &a, 0);
	assert_int_equal(dram_open_row(c, &a), 42);
	assert_int_equal(dram_open_banks(c, 1), 1);
	assert_int_equal(dram_open_banks(c, 0), 0);
	assert_int_equal(dram_needed(c, &a, false), RD);
	assert_int_equal(dram_needed(c, &a, true), WR);
	assert_int_equal(dram_needed(c, &other, true), P);
	/* open bank: no ACT, no REFpb, no column command to another row, no REFab in its PC */
	assert_true(dram_earliest(c, A, &a) == CYCLE_NEVER);
	assert_true(dram_earliest(c, REFPB, &a) == CYCLE_NEVER);
	assert_true(dram_earliest(c, RD, &other) == CYCLE_NEVER);
	assert_true(dram_earliest(c, REFAB, &a) == CYCLE_NEVER);
	other = baddr(&s, 7, 0, 13, 42);
	assert_true(dram_earliest(c, REFAB, &other) != CYCLE_NEVER);
	/* RD returns the end of its data, WR likewise */
	assert_int_equal(dram_issue(c, RD, &a, 100), 100 + 28 + 2);
	assert_int_equal(dram_issue(c, WR, &a, 200), 200 + 12 + 2);
	assert_int_equal(dram_issue(c, P, &a, 300), 300);
	st = dram_chan_stats(c);
	assert_int_equal(st->cmds[A], 1);
	assert_int_equal(st->cmds[RD], 1);
	assert_int_equal(st->cmds[WR], 1);
	assert_int_equal(st->cmds[P], 1);
	assert_int_equal(st->data_cycles, 4);
	dram_chan_check(c);
	dram_chan_destroy(c);
	dram_chan_destroy(NULL);
}

/* Issuing an illegal command is a simulator bug: SIM_ASSERT. */
static void test_issue_illegal_asserts(void **state)
{
	struct dram_spec s;
	struct dram_chan *c;
	struct dram_addr a;

	(void)state;
	spec_default(&s, DRAM_STD_GDDR6, 14.0);
	c = dram_chan_create(&s, 0);
	a = baddr(&s, 0, 0, 3, 5);
	expect_assert_failure(dram_issue(c, RD, &a, 10));
	dram_issue(c, A, &a, 10);
	expect_assert_failure(dram_issue(c, RD, &a, 10 + 26)); /* tRCDRD 27 */
	dram_issue(c, RD, &a, 10 + 27);
	dram_chan_destroy(c);
}

/* ---------------------------------------------------------------------------------------------
 * f. Random legal streams under the checker
 */

struct rnd {
	uint64_t s;
};

static uint64_t rnd_next(struct rnd *r) /* xorshift64* */
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ull;
}

static uint32_t rnd_below(struct rnd *r, uint32_t n)
{
	return (uint32_t)((rnd_next(r) >> 32) % n);
}

/* Does the bank state alone forbid cmd to a? (what dram_earliest must answer CYCLE_NEVER to) */
static bool state_forbids(const struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a)
{
	uint32_t row = dram_open_row(c, a);

	switch (cmd) {
	case DRAM_CMD_ACT:
	case DRAM_CMD_REFPB:
		return row != DRAM_ROW_NONE;
	case DRAM_CMD_PRE:
		return row == DRAM_ROW_NONE;
	case DRAM_CMD_REFAB:
		return dram_open_banks(c, a->pc) != 0;
	default:
		return row == DRAM_ROW_NONE || row != a->row;
	}
}

/*
 * Up to four random attempts per cycle: a random (pc, bank, row); a quarter of the time any
 * command at all, else one that suits the bank (column commands mostly to the open row, PRE,
 * ACT, now and then REFpb). Every tREFI a pseudo-channel drains: PREs only, then REFab. A command
 * is issued only when dram_can_issue says so; the checker sees every one.
 */
/* An own bound for (pc, bank, cmd) and the row it was asked for: what a controller caches,
 * valid until a command goes to the bank (or a REFab to its pseudo-channel). */
struct memo {
	cycle_t own;
	uint32_t row;
	bool valid;
};

static void random_run(enum dram_standard std, double rate, uint64_t want, uint64_t seed)
{
	const uint32_t ch = 2;
	struct memo *memo;
	struct dram_bounds db[2];
	uint64_t kept = 0, asked = 0;
	struct dram_spec s;
	struct dram_chan *c;
	struct dram_check *k;
	struct rnd rng = { seed };
	cycle_t refresh_due[2], now;
	bool drain[2] = { false, false };
	uint64_t issued = 0, refused = 0, never = 0, sum = 0, cols;
	const struct dram_chan_stats *st;
	double t0, dt;
	uint32_t p, i, j;

	spec_default(&s, std, rate);
	c = dram_chan_create(&s, ch);
	k = dram_check_create(&s);
	dram_chan_set_hook(c, dram_check_hook, k);
	memo = calloc((size_t)s.pcs * s.banks * DRAM_CMD_COUNT, sizeof *memo);
	assert_non_null(memo);
	assert_true(s.pcs <= 2);
	for (p = 0; p < s.pcs; p++)
		dram_bounds(c, p, &db[p]); /* read in place from here on */
	for (p = 0; p < s.pcs; p++)
		refresh_due[p] = s.t[DRAM_T_REFI] * (p + 1) / s.pcs;
	t0 = now_s();
	for (now = 0; issued < want; now++) {
		for (i = 0; i < 4; i++) {
			uint32_t bank = rnd_below(&rng, s.banks), open;
			struct dram_addr a = baddr(&s, ch, rnd_below(&rng, s.pcs), bank,
						   rnd_below(&rng, 8));
			enum dram_cmd cmd;
			cycle_t e;

			open = dram_open_row(c, &a);
			assert_int_equal(dram_open_row_at(c, a.pc, bank), open);
			if (!drain[a.pc] && now >= refresh_due[a.pc])
				drain[a.pc] = true;
			if (drain[a.pc]) {
				if (dram_open_banks(c, a.pc) == 0)
					cmd = REFAB;
				else if (open != DRAM_ROW_NONE)
					cmd = P;
				else
					continue;
			} else if (rnd_below(&rng, 4) == 0) {
				cmd = (enum dram_cmd)rnd_below(&rng, DRAM_CMD_COUNT);
			} else if (open != DRAM_ROW_NONE) {
				uint32_t r = rnd_below(&rng, 16);

				if (r < 14)
					a.row = open;
				cmd = r < 5 ? RD : r < 9 ? WR : r == 9 ? RDA : r == 10 ? WRA : P;
			} else {
				cmd = rnd_below(&rng, 24) == 0 ? REFPB : A;
			}
			e = dram_earliest(c, cmd, &a);
			if (cmd != REFAB) {
				struct memo *mo = &memo[((size_t)a.pc * s.banks + bank) * DRAM_CMD_COUNT +
							cmd];
				cycle_t own = dram_own_bound(c, cmd, a.pc, bank, a.row), t;

				/* the answer is the maximum of its parts */
				t = own;
				if (t != CYCLE_NEVER) {
					const struct dram_bounds *b = &db[a.pc];
					cycle_t sh[4] = {
						b->pc_next[cmd], b->bg_next[b->bank_bg[bank] * DRAM_CMD_COUNT + cmd],
						cmd == A ? *b->act_window : 0,
						dram_cmd_is_row(cmd) ? *b->row_bus : *b->col_bus,
					};

					for (j = 0; j < 4; j++)
						t = t > sh[j] ? t : sh[j];
				}
				if (t != e)
					fail_msg("%s to b%u at %" PRIu64 ": earliest %" PRIu64 ", parts "
						 "give %" PRIu64, dram_cmd_name(cmd), bank, now, e, t);
				/* a kept own bound is still the bank's */
				if (mo->valid && mo->row == a.row) {
					if (mo->own != own)
						fail_msg("%s to b%u at %" PRIu64 ": own bound kept %"
							 PRIu64 ", now %" PRIu64, dram_cmd_name(cmd),
							 bank, now, mo->own, own);
					kept++;
				} else {
					asked++;
				}
				*mo = (struct memo){ own, a.row, true };
			}
			if ((e == CYCLE_NEVER) != state_forbids(c, cmd, &a))
				fail_msg("%s to b%u at %" PRIu64 ": earliest %" PRIu64
					 " disagrees with the bank state", dram_cmd_name(cmd), bank,
					 now, e);
			if (e == CYCLE_NEVER) {
				never++;
				continue;
			}
			if (e > now) {
				assert_false(dram_can_issue(c, cmd, &a, now));
				refused++;
				continue;
			}
			dram_issue(c, cmd, &a, now);
			issued++;
			/* the bank's own bounds and row changed (REFab: every bank's) */
			for (p = 0; p < s.banks * DRAM_CMD_COUNT; p++)
				if (cmd == REFAB || p / DRAM_CMD_COUNT == bank)
					memo[(size_t)a.pc * s.banks * DRAM_CMD_COUNT + p].valid = false;
			if (cmd == REFAB) {
				drain[a.pc] = false;
				refresh_due[a.pc] = now + s.t[DRAM_T_REFI];
			}
			if ((issued & 1023) == 0)
				dram_chan_check(c);
		}
	}
	dt = now_s() - t0;

	st = dram_chan_stats(c);
	for (i = 0; i < DRAM_CMD_COUNT; i++) {
		if (st->cmds[i] == 0)
			fail_msg("%s: no %s issued", s.std_name, dram_cmd_name((enum dram_cmd)i));
		sum += st->cmds[i];
	}
	cols = st->cmds[RD] + st->cmds[WR] + st->cmds[RDA] + st->cmds[WRA];
	assert_int_equal(sum, issued);
	assert_int_equal(st->data_cycles, cols * s.burst_cycles);
	assert_int_equal(dram_check_commands(k), issued);
	assert_clean(k);
	/* both outcomes are exercised, many times */
	assert_true(kept > 10000 && asked > 10000);
	printf("# %s: %" PRIu64 " own bounds kept, %" PRIu64 " asked anew\n", s.std_name, kept,
	       asked);
	free(memo);
	printf("# random %s %.1f Gb/s: %" PRIu64 " commands (ACT %" PRIu64 ", PRE %" PRIu64
	       ", RD %" PRIu64 ", WR %" PRIu64 ", RDA %" PRIu64 ", WRA %" PRIu64 ", REFab %" PRIu64
	       ", REFpb %" PRIu64 ") in %" PRIu64 " cycles, %" PRIu64 " refused early, %" PRIu64
	       " refused by state; 0 violations; %.3f s\n", s.std_name, rate, issued, st->cmds[A],
	       st->cmds[P], st->cmds[RD], st->cmds[WR], st->cmds[RDA], st->cmds[WRA],
	       st->cmds[REFAB], st->cmds[REFPB], now, refused, never, dt);
	dram_check_destroy(k);
	dram_chan_destroy(c);
}

static void test_random_gddr6(void **state)
{
	(void)state;
	random_run(DRAM_STD_GDDR6, 14.0, 250000, 0x9e3779b97f4a7c15ull);
}

static void test_random_hbm2e(void **state)
{
	(void)state;
	random_run(DRAM_STD_HBM2E, 3.2, 250000, 0x2545f4914f6cdd1dull);
}

/* ---------------------------------------------------------------------------------------------
 * The checker on hand-made illegal streams: each caught, with the expected first message
 */

struct feed {
	enum dram_cmd cmd;
	uint32_t pc, bank, row;
	cycle_t at;
};

/* Feeds cmds to a fresh checker on channel ch; returns it (caller destroys). */
static struct dram_check *feed(const struct dram_spec *s, uint32_t ch, const struct feed *f,
			       size_t n)
{
	struct dram_check *k = dram_check_create(s);
	size_t i;

	for (i = 0; i < n; i++) {
		struct dram_addr a = baddr(s, ch, f[i].pc, f[i].bank, f[i].row);

		dram_check_hook(k, ch, f[i].cmd, &a, f[i].at);
	}
	assert_int_equal(dram_check_commands(k), n);
	return k;
}

static void expect_first(const struct dram_spec *s, uint32_t ch, const struct feed *f, size_t n,
			 uint64_t violations, const char *msg)
{
	struct dram_check *k = feed(s, ch, f, n);

	assert_int_equal(dram_check_violations(k), violations);
	assert_string_equal(dram_check_first(k), msg);
	dram_check_destroy(k);
}

#define FEED(...) ((const struct feed[]){ __VA_ARGS__ })
#define NFEED(...) (sizeof((const struct feed[]){ __VA_ARGS__ }) / sizeof(struct feed))
#define EXPECT(s, ch, v, msg, ...) expect_first(s, ch, FEED(__VA_ARGS__), NFEED(__VA_ARGS__), v, msg)

static void test_checker_mutations(void **state)
{
	struct dram_params p;
	struct dram_timing_params tp;
	struct dram_spec g, g40, h;

	(void)state;
	spec_default(&g, DRAM_STD_GDDR6, 14.0);
	spec_default(&h, DRAM_STD_HBM2E, 3.2);
	params_init(&p, &tp, DRAM_STD_GDDR6, 14.0);
	tp.nck[DRAM_T_FAW] = 40;
	resolve_ok(&g40, &p, &tp);

	/* legal: nothing to say */
	EXPECT(&g, 0, 0, "", { A, 0, 5, 7, 100 }, { RD, 0, 5, 7, 127 }, { P, 0, 5, 7, 153 });
	/* RD one cycle before tRCDRD (27) */
	EXPECT(&g, 0, 1, "ch0 pc0 b5: RD at 126 after ACT at 100: tRCDRD needs 27",
	       { A, 0, 5, 7, 100 }, { RD, 0, 5, 7, 126 });
	EXPECT(&g, 3, 1, "ch3 pc0 b5: RD at 1126 after ACT at 1100: tRCDRD needs 27",
	       { A, 0, 5, 7, 1100 }, { RD, 0, 5, 7, 1126 });
	/* five ACTs inside tFAW (40): 0, 8, 16, 24 (tRRD_S 8 kept), then 39 */
	EXPECT(&g40, 0, 1, "ch0 pc0 b1: ACT at 39 after ACT to b0 at 0, 4 ACTs back: tFAW needs 40",
	       { A, 0, 0, 1, 0 }, { A, 0, 4, 1, 8 }, { A, 0, 8, 1, 16 }, { A, 0, 12, 1, 24 },
	       { A, 0, 1, 1, 39 });
	EXPECT(&g40, 0, 0, "", { A, 0, 0, 1, 0 }, { A, 0, 4, 1, 8 }, { A, 0, 8, 1, 16 },
	       { A, 0, 12, 1, 24 }, { A, 0, 1, 1, 40 });
	/* overlapping data bursts: RD data [124, 126) and [125, 127) (CL 24) */
	EXPECT(&g, 0, 1, "ch0 pc0 b4: RD at 101: data [125, 127) overlaps data [124, 126) of RD at 100",
	       { A, 0, 0, 1, 0 }, { A, 0, 4, 1, 8 }, { RD, 0, 0, 1, 100 }, { RD, 0, 4, 1, 101 });
	/* write data [225, 227) (CWL 6) into read data [224, 226) */
	EXPECT(&g, 0, 1, "ch0 pc0 b4: WR at 219: data [225, 227) overlaps data [224, 226) of RD at 200",
	       { A, 0, 0, 1, 0 }, { A, 0, 4, 1, 8 }, { RD, 0, 0, 1, 200 }, { WR, 0, 4, 1, 219 });
	/* an overlap with the burst two column commands back, not the last one */
	EXPECT(&g, 0, 1, "ch0 pc0 b8: WR at 118: data [124, 126) overlaps data [124, 126) of RD at 100",
	       { A, 0, 0, 1, 0 }, { A, 0, 4, 1, 8 }, { A, 0, 8, 1, 16 }, { RD, 0, 0, 1, 100 },
	       { RD, 0, 4, 1, 102 }, { WR, 0, 8, 1, 118 });
	/* HBM: each pseudo-channel has its own data bus */
	EXPECT(&h, 0, 0, "", { A, 0, 0, 1, 0 }, { A, 1, 0, 1, 2 }, { RD, 0, 0, 1, 100 },
	       { RD, 1, 0, 1, 101 });
	/* ACT to an open bank */
	EXPECT(&g, 0, 1, "ch0 pc0 b3: ACT at 200 to an open bank (row 1)",
	       { A, 0, 3, 1, 0 }, { A, 0, 3, 2, 200 });
	/* the other state violations */
	EXPECT(&g, 0, 1, "ch0 pc0 b2: PRE at 10 to a closed bank", { P, 0, 2, 0, 10 });
	EXPECT(&g, 0, 1, "ch0 pc0 b3: RD at 300 to row 2 but row 1 is open",
	       { A, 0, 3, 1, 0 }, { RD, 0, 3, 2, 300 });
	EXPECT(&g, 0, 1, "ch0 pc0 b3: WRA at 300 to a closed bank", { WRA, 0, 3, 2, 300 });
	EXPECT(&g, 0, 1, "ch0 pc0 b3: REFpb at 300 to an open bank (row 1)",
	       { A, 0, 3, 1, 0 }, { REFPB, 0, 3, 0, 300 });
	EXPECT(&h, 0, 1, "ch0 pc1: REFab at 300 with 2 banks open",
	       { A, 1, 3, 1, 0 }, { A, 1, 9, 1, 20 }, { REFAB, 1, 0, 0, 300 });
	/* time goes backwards */
	EXPECT(&g, 0, 1, "ch0 pc0 b3: PRE at 50 after a command at 200: time went backwards",
	       { A, 0, 3, 1, 0 }, { A, 0, 7, 1, 200 }, { P, 0, 3, 1, 50 });
	/* RDA counts as RD: RD to the same group 3 cycles after, tCCD_L 4 */
	EXPECT(&g, 0, 1, "ch0 pc0 b1: RD at 103 after RDA to b0 at 100: tCCD_L needs 4",
	       { A, 0, 0, 1, 0 }, { A, 0, 1, 1, 8 }, { RDA, 0, 0, 1, 100 }, { RD, 0, 1, 1, 103 });
	/* a rule with next RD binds RDA: tRCDRD */
	EXPECT(&g, 0, 1, "ch0 pc0 b5: RDA at 126 after ACT at 100: tRCDRD needs 27",
	       { A, 0, 5, 7, 100 }, { RDA, 0, 5, 7, 126 });
	/* a sum of terms: WR -> RD same group = CWL + burst + tWTR_L = 19 */
	EXPECT(&g, 0, 1, "ch0 pc0 b1: RD at 118 after WR to b0 at 100: CWL+burst+tWTR_L needs 19",
	       { A, 0, 0, 1, 0 }, { A, 0, 1, 1, 8 }, { WR, 0, 0, 1, 100 }, { RD, 0, 1, 1, 118 });
	/* REFab as prev binds every bank */
	EXPECT(&g, 0, 1, "ch0 pc0 b7: ACT at 210 after REFab at 0: tRFC needs 211",
	       { REFAB, 0, 0, 0, 0 }, { A, 0, 7, 1, 210 });
	/* REFab as next is bound by every bank: PRE -> REFab tRP 27 */
	EXPECT(&g, 0, 1, "ch0 pc0: REFab at 126 after PRE at 100: tRP needs 27",
	       { A, 0, 11, 1, 0 }, { P, 0, 11, 1, 100 }, { REFAB, 0, 0, 0, 126 });
	/* tRRD_L across banks of one group, HBM2e (10) */
	EXPECT(&h, 0, 1, "ch0 pc0 b2: ACT at 9 after ACT to b1 at 0: tRRD_L needs 10",
	       { A, 0, 1, 1, 0 }, { A, 0, 2, 1, 9 });
	/* HBM row bus: an ACT holds it 2 cycles, across pseudo-channels */
	EXPECT(&h, 0, 1, "ch0 pc1 b0: PRE at 101: row bus busy until 102 (ACT at 100)",
	       { A, 1, 0, 1, 0 }, { A, 0, 0, 1, 100 }, { P, 1, 0, 1, 101 });
	/* ... and the column bus one command per cycle */
	EXPECT(&h, 0, 1, "ch0 pc1 b0: RD at 100: column bus busy until 101 (RD at 100)",
	       { A, 0, 0, 1, 0 }, { A, 1, 0, 1, 2 }, { RD, 0, 0, 1, 100 }, { RD, 1, 0, 1, 100 });
	/* GDDR6: one bus */
	EXPECT(&g, 0, 1, "ch0 pc0 b0: RD at 100: command bus busy until 101 (ACT at 100)",
	       { A, 0, 0, 1, 0 }, { A, 0, 5, 1, 100 }, { RD, 0, 0, 1, 100 });
	/* implied precharge: ACT 0, RDA 20, REFpb at 67 passes the rules (51) but not tRAS */
	EXPECT(&h, 0, 1, "ch0 pc0 b6: REFpb at 67 after RDA to b6 at 20: implied precharge at 45 "
			 "+ tRP needs 68",
	       { A, 0, 6, 1, 0 }, { RDA, 0, 6, 1, 20 }, { REFPB, 0, 6, 0, 67 });
	/* violations are counted per command; the first message stays */
	EXPECT(&g, 0, 2, "ch0 pc0 b5: RD at 126 after ACT at 100: tRCDRD needs 27",
	       { A, 0, 5, 7, 100 }, { RD, 0, 5, 7, 126 }, { P, 0, 5, 7, 127 });
}

/* The checker's cost is O(banks) per command: a million commands in well under a second. */
static void test_checker_speed(void **state)
{
	struct dram_spec s;
	struct dram_check *k;
	struct dram_addr a;
	double t0, dt;
	cycle_t t = 0;
	uint32_t i, b;

	(void)state;
	spec_default(&s, DRAM_STD_HBM2E, 3.2);
	k = dram_check_create(&s);
	t0 = now_s();
	/* per round: ACT to 16 banks of PC 0 (tRRD_L 10 apart within a group), 16 reads spread
	 * over groups, 16 PREs; legal by construction */
	for (i = 0; dram_check_commands(k) < 1000000; i++) {
		for (b = 0; b < 16; b++) {
			a = baddr(&s, 0, 0, (b % 4) * 4 + b / 4, i);
			dram_check_hook(k, 0, A, &a, t);
			t += 10;
		}
		t += 20;
		for (b = 0; b < 16; b++) {
			a = baddr(&s, 0, 0, (b % 4) * 4 + b / 4, i);
			dram_check_hook(k, 0, RD, &a, t);
			t += 4;
		}
		t += 50;
		for (b = 0; b < 16; b++) {
			a = baddr(&s, 0, 0, (b % 4) * 4 + b / 4, i);
			dram_check_hook(k, 0, P, &a, t);
			t += 1;
		}
		t += 30;
	}
	dt = now_s() - t0;
	assert_clean(k);
	printf("# checker: %" PRIu64 " commands in %.3f s\n", dram_check_commands(k), dt);
	dram_check_destroy(k);
	dram_check_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_bins),
		cmocka_unit_test(test_spec_timings),
		cmocka_unit_test(test_spec_rule_latency),
		cmocka_unit_test(test_spec_trc_rounding),
		cmocka_unit_test(test_spec_errors),
		cmocka_unit_test(test_spec_bank_groups_off),
		cmocka_unit_test(test_spec_overrides),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_channel_state),
		cmocka_unit_test(test_issue_illegal_asserts),
		cmocka_unit_test(test_rule_boundaries),
		cmocka_unit_test(test_rule_boundaries_synthetic),
		cmocka_unit_test(test_faw),
		cmocka_unit_test(test_32aw),
		cmocka_unit_test(test_hbm_buses),
		cmocka_unit_test(test_gddr6_bus),
		cmocka_unit_test(test_autoprecharge_tras),
		cmocka_unit_test(test_checker_mutations),
		cmocka_unit_test(test_checker_speed),
		cmocka_unit_test(test_random_gddr6),
		cmocka_unit_test(test_random_hbm2e),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
