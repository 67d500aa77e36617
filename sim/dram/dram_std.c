/*
 * dram_std.c - GDDR6, HBM2 and HBM2e as data: organisation, timing sets with sources, the rule
 * table, and the checks that refuse an inconsistent part before it runs.
 *
 * Sources. JEDEC leaves GDDR6 AC timings to vendor datasheets (JESD250D abstract) and HBM2/2e
 * datasheets are not public, so most timing values here are the best public ones available, and
 * each says where it comes from (doc/research/dram-timings.md has the full comparison):
 *   [P] primary: a vendor datasheet or brief, a JEDEC text, NVIDIA documents
 *   [S] another simulator's or controller's preset (file named)
 *   [D] derived here from other values (arithmetic in the comment)
 * Times are given in ns where the array defines them and converted for the data rate in use as
 * max(n tCK, ceil(ns / tCK)); CL-like clock quantities are given in ns as well so that one set
 * serves every speed bin (a datasheet programs CL per bin; the ns value keeps the access time).
 *
 * Organisation and clocks [P]: GDDR6 has 2 x16 channels per device, 16 banks in 4 bank groups,
 * 2 KB page, BL16 = 32 B, data = 8 x CK (Micron MT61K256M32 brief). HBM2 has 8 x 128-bit
 * channels per stack; in pseudo-channel mode 2 x 64-bit pseudo-channels share one command bus
 * and always use BL4 = 32 B (AMD PG313); data = 2 x CK (DDR).
 *
 * Rules. Each rule bounds the distance from a command to a later one at a scope (same bank, same
 * bank group, same pseudo-channel); RDA/WRA obey every rule of RD/WR plus their own. The device
 * keeps the earliest legal cycle per command at each scope and takes the maximum, so a rule at a
 * wide scope also covers the narrower ones (tRRD_S at PC scope, tRRD_L at BG scope, tRC at bank
 * scope for ACT -> ACT). Windows (tFAW, t32AW) and command/data buses are handled in dram.c.
 *
 * Not modelled: rank/stack-ID levels (tCCDR), GDDR6 per-2-bank refresh, temperature-dependent
 * refresh rates, power-down and self refresh, the write-data preamble.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dram_std.h"
#include "log.h"

/* ---------------------------------------------------------------------------------------------
 * Names
 */

static const char *const cmd_names[DRAM_CMD_COUNT] = {
#define DRAM_CMD_NAME(e, s, row) s,
	DRAM_CMDS(DRAM_CMD_NAME)
#undef DRAM_CMD_NAME
};

static const char *const timing_names[DRAM_T_COUNT] = {
#define DRAM_TIMING_NAME(e, n, d) n,
	DRAM_TIMINGS(DRAM_TIMING_NAME)
#undef DRAM_TIMING_NAME
};

const char *const dram_standard_names[] = {
#define DRAM_STD_NAME(e, s) s,
	DRAM_STANDARDS(DRAM_STD_NAME)
#undef DRAM_STD_NAME
	NULL
};

const char *dram_cmd_name(enum dram_cmd c)
{
	return (unsigned)c < DRAM_CMD_COUNT ? cmd_names[c] : "?";
}

const char *dram_timing_name(enum dram_timing t)
{
	return t == DRAM_T_BURST ? "BURST" : (unsigned)t < DRAM_T_COUNT ? timing_names[t] : "?";
}

/* ---------------------------------------------------------------------------------------------
 * Config tables
 */

#define P struct dram_params
const struct cfg_field dram_fields[] = {
	CFG_ENUM_FIELD(P, standard, dram_standard_names, "\"gddr6\"",
		       "DRAM standard: organisation, timing set and rules"),
	CFG_F64_FIELD(P, data_rate_gbps, 0.5, 40.0, "14.0",
		      "data rate per pin, Gb/s; the DRAM clock derives from it (GDDR6: rate/8, "
		      "HBM: rate/2)"),
	CFG_U32_FIELD(P, channels, 1, 4096, "16",
		      "independent channels in the GPU (GDDR6: 2 per device; HBM: 8 per stack)"),
	CFG_U32_FIELD(P, pseudo_channels, 0, 2, "0",
		      "pseudo-channels per channel sharing its command bus; 0 = the standard's "
		      "(HBM 2, GDDR6 1)"),
	CFG_U32_FIELD(P, bank_groups, 0, 16, "0",
		      "bank groups per (pseudo-)channel; 0 = the standard's (4)"),
	CFG_U32_FIELD(P, banks_per_group, 0, 16, "0",
		      "banks per bank group; 0 = the standard's (4)"),
	CFG_U32_FIELD(P, rows, 0, 1u << 20, "0",
		      "rows per bank; 0 = the standard's (GDDR6 16384, HBM2 32768, HBM2e 65536)"),
	CFG_U32_FIELD(P, row_bytes, 0, 65536, "0",
		      "page size per (pseudo-)channel, bytes; 0 = the standard's (GDDR6 2048, "
		      "HBM 1024)"),
	CFG_U32_FIELD(P, width_bits, 0, 1024, "0",
		      "data pins per (pseudo-)channel; 0 = the standard's (GDDR6 16, HBM 64)"),
	CFG_BOOL_FIELD(P, bank_group_mode, "true",
		       "GDDR6 bank groups on: _S timings across groups, _L within; off: _L "
		       "between all banks"),
	CFG_BOOL_FIELD(P, clamshell, "false",
		       "GDDR6 clamshell: two x8 devices per channel (double page and capacity)"),
};
#undef P
const size_t dram_nfields = sizeof dram_fields / sizeof dram_fields[0];

#define T struct dram_timing_params
#define TIMING_FIELDS(e, n, d)                                                                \
	{ "n" n, CFG_U32, offsetof(T, nck[DRAM_T_##e]), sizeof(uint32_t), 0, 1000000, 0, 0,  \
	  "0", NULL, d ", DRAM clock cycles (0 = the standard's value)" },                   \
	{ "t" n "_ns", CFG_F64, offsetof(T, ns[DRAM_T_##e]), sizeof(double), 0, 0, 0.0,      \
	  1e7, "0.0", NULL, d ", ns (0 = the standard's value)" },
const struct cfg_field dram_timing_fields[] = { DRAM_TIMINGS(TIMING_FIELDS) };
#undef TIMING_FIELDS
#undef T
const size_t dram_timing_nfields = sizeof dram_timing_fields / sizeof dram_timing_fields[0];

/* ---------------------------------------------------------------------------------------------
 * Standards
 */

/* One timing of a set: max(ck tCK, ceil(ns / tCK)); src says where it comes from. */
struct timing_val {
	double ns;
	uint32_t ck;
	const char *src;
};

struct std_def {
	const char *name;
	uint32_t pcs, bank_groups, banks_per_group, rows, row_bytes, width_bits;
	uint32_t burst_length;   /* beats */
	uint32_t beats_per_ck;   /* data beats per pin per CK */
	bool separate_row_bus;
	uint32_t act_cmd_cycles;
	const char *source;      /* of the timing set as a whole */
	const struct timing_val *t;   /* [DRAM_T_COUNT] */
	const struct timing_val *ovr; /* [DRAM_T_COUNT] or NULL: entries with a src replace t[] */
};

#define SRC_R2_GDDR6 "[S] Ramulator 2 GDDR6_2000_1350mV preset (cites a Samsung 8 Gb datasheet)"
#define SRC_GDDR6_NS "[S] ns inferred from Ramulator 2 GDDR6 1.35 V cycles at tCK 0.571 ns"
#define SRC_VEGA "[S] DRAMSys HBM2.json / gem5 HBM_2000_4H_1x64 (AMD Vega register values)"

/* GDDR6 8 Gb x16. */
static const struct timing_val gddr6_t[DRAM_T_COUNT] = {
	[DRAM_T_CL] = { 13.704, 0, "[S] 24 tCK at 14 Gb/s (Ramulator 2 nCL 24)" },
	[DRAM_T_CWL] = { 0, 6, "[S] Ramulator 2 nCWL 6" },
	[DRAM_T_RCDRD] = { 15.0, 0, SRC_GDDR6_NS },
	[DRAM_T_RCDWR] = { 9.0, 0, SRC_GDDR6_NS },
	[DRAM_T_RP] = { 15.0, 0, SRC_GDDR6_NS },
	[DRAM_T_RAS] = { 30.0, 0, SRC_GDDR6_NS },
	[DRAM_T_RC] = { 45.0, 0, SRC_GDDR6_NS "; DLS IFC_1412 table 47 also 45" },
	[DRAM_T_RTP] = { 0, 4, "[S] Ramulator 2 nRTP 4" },
	[DRAM_T_WR] = { 15.0, 0, SRC_GDDR6_NS },
	[DRAM_T_CCD_S] = { 0, 2, "[P] one BL16 burst = 2 tCK (Micron brief)" },
	[DRAM_T_CCD_L] = { 0, 4, "[P] Micron: bank groups for tCCDL = 3 and 4 tCK" },
	[DRAM_T_RRD_S] = { 4.0, 0, SRC_GDDR6_NS },
	[DRAM_T_RRD_L] = { 4.0, 0, SRC_GDDR6_NS },
	[DRAM_T_FAW] = { 16.0, 0, SRC_GDDR6_NS },
	[DRAM_T_32AW] = { 277.0, 0, "[S] DRAMsim3 GDDR6_8Gb_x16 t32AW 420 tCK x 0.66 ns" },
	[DRAM_T_WTR_S] = { 5.139, 0, "[S] Ramulator 2 nWTRS 9 at tCK 0.571 ns" },
	[DRAM_T_WTR_L] = { 6.281, 0, "[S] Ramulator 2 nWTRL 11 at tCK 0.571 ns" },
	[DRAM_T_RTW] = { 0, 0, "[D] CL + burst + 2 - CWL (DLS: RL + 4 - WL)" },
	[DRAM_T_PPD] = { 0, 2, "[S] DRAMsim3 tPPD 2" },
	[DRAM_T_RFC] = { 120.0, 0, SRC_GDDR6_NS " (DLS table 47: 110)" },
	[DRAM_T_RFCPB] = { 60.0, 0, "[S] Ramulator 2.1 default nRFCpb 60 ns" },
	[DRAM_T_RREFD] = { 8.0, 0, SRC_GDDR6_NS },
	[DRAM_T_REFI] = { 1953.125, 0, "[P] Micron brief: 16k refreshes per 32 ms" },
	[DRAM_T_REFIPB] = { 122.07, 0, "[D] tREFI / 16 banks" },

};

/* HBM2, and HBM2e but for hbm2e_ovr: array timings in ns (no public HBM2e AC table). */
static const struct timing_val hbm_t[DRAM_T_COUNT] = {
	[DRAM_T_CL] = { 17.0, 0, SRC_VEGA },
	[DRAM_T_CWL] = { 7.0, 0, SRC_VEGA },
	[DRAM_T_RCDRD] = { 12.0, 0, SRC_VEGA },
	[DRAM_T_RCDWR] = { 6.0, 0, SRC_VEGA },
	[DRAM_T_RP] = { 14.0, 0, SRC_VEGA },
	[DRAM_T_RAS] = { 28.0, 0, SRC_VEGA },
	[DRAM_T_RC] = { 42.0, 0, SRC_VEGA },
	[DRAM_T_RTP] = { 5.0, 0, SRC_VEGA },
	[DRAM_T_WR] = { 14.0, 0, SRC_VEGA },
	[DRAM_T_CCD_S] = { 0, 2, "[D] one BL4 burst = 2 tCK (DDR)" },
	[DRAM_T_CCD_L] = { 0, 3, SRC_VEGA },
	[DRAM_T_RRD_S] = { 4.0, 0, SRC_VEGA },
	[DRAM_T_RRD_L] = { 6.0, 0, SRC_VEGA },
	[DRAM_T_FAW] = { 16.0, 0, SRC_VEGA },
	[DRAM_T_32AW] = { 0, 0, "no such window in HBM" },
	[DRAM_T_WTR_S] = { 4.0, 0, SRC_VEGA },
	[DRAM_T_WTR_L] = { 9.0, 0, SRC_VEGA },
	[DRAM_T_RTW] = { 18.0, 0, SRC_VEGA },
	[DRAM_T_PPD] = { 0, 1, "[D] one command slot" },
	[DRAM_T_RFC] = { 220.0, 0, SRC_VEGA },
	[DRAM_T_RFCPB] = { 96.0, 0, SRC_VEGA },
	[DRAM_T_RREFD] = { 8.0, 0, SRC_VEGA },
	[DRAM_T_REFI] = { 3900.0, 0, "[P] JEDEC 3.9 us (gem5: value from JEDEC spec)" },
	[DRAM_T_REFIPB] = { 243.75, 0, "[D] tREFI / 16 banks" },

};

/* Where HBM2e (16 Gb channels, CK 1.6-1.8 GHz) differs from HBM2. */
static const struct timing_val hbm2e_ovr[DRAM_T_COUNT] = {
	[DRAM_T_CCD_L] = { 0, 4, "[S] Ramulator 2.1 hbm2 nCCDL 4 (at higher CK)" },
	[DRAM_T_RFC] = { 350.0, 0, "[S] Ramulator 2.1 hbm2 tRFC for an 8 Gb pseudo-channel" },
	[DRAM_T_RFCPB] = { 160.0, 0, "[S] Ramulator 2.1 hbm2 nRFCpb 160 ns" },
};

static const struct std_def std_defs[DRAM_STD_COUNT] = {
	[DRAM_STD_GDDR6] = {
		.name = "gddr6", .pcs = 1, .bank_groups = 4, .banks_per_group = 4,
		.rows = 16384, .row_bytes = 2048, .width_bits = 16,
		.burst_length = 16, .beats_per_ck = 8, .separate_row_bus = false,
		.act_cmd_cycles = 1,
		.source = "GDDR6 8 Gb x16 (Micron MT61K256M32 brief for organisation and refresh; "
			  "Samsung-derived ns via Ramulator 2 for array timings)",
		.t = gddr6_t,
	},
	[DRAM_STD_HBM2] = {
		.name = "hbm2", .pcs = 2, .bank_groups = 4, .banks_per_group = 4,
		.rows = 32768, .row_bytes = 1024, .width_bits = 64,
		.burst_length = 4, .beats_per_ck = 2, .separate_row_bus = true,
		.act_cmd_cycles = 2,
		.source = "HBM2 8 Gb/channel, pseudo-channel mode (AMD PG313 for organisation; "
			  "Vega register values via DRAMSys/gem5 for timings, at tCK 1 ns)",
		.t = hbm_t,
	},
	[DRAM_STD_HBM2E] = {
		.name = "hbm2e", .pcs = 2, .bank_groups = 4, .banks_per_group = 4,
		.rows = 65536, .row_bytes = 1024, .width_bits = 64,
		.burst_length = 4, .beats_per_ck = 2, .separate_row_bus = true,
		.act_cmd_cycles = 2,
		.source = "HBM2e 16 Gb/channel (Samsung Flashbolt 3.2 Gb/s, SK hynix 3.6 Gb/s); "
			  "array timings in ns as HBM2 (assumed: no public HBM2e AC table)",
		.t = hbm_t,
		.ovr = hbm2e_ovr,
	},
};

/* ---------------------------------------------------------------------------------------------
 * The rule table
 */

#define NO -1
#define B DRAM_T_BURST
#define R(p, n, sc, a, b, c, d)                                                            \
	{ DRAM_CMD_##p, DRAM_CMD_##n, DRAM_SCOPE_##sc, { a, b, c, d }, 0 }

static const struct dram_rule rules[] = {
	/* activation */
	R(ACT, ACT, BANK, DRAM_T_RC, NO, NO, NO),
	R(ACT, ACT, BG, DRAM_T_RRD_L, NO, NO, NO),
	R(ACT, ACT, PC, DRAM_T_RRD_S, NO, NO, NO),
	R(ACT, RD, BANK, DRAM_T_RCDRD, NO, NO, NO),
	R(ACT, WR, BANK, DRAM_T_RCDWR, NO, NO, NO),
	R(ACT, PRE, BANK, DRAM_T_RAS, NO, NO, NO),
	R(ACT, REFPB, BG, DRAM_T_RRD_L, NO, NO, NO),
	R(ACT, REFPB, PC, DRAM_T_RRD_S, NO, NO, NO),
	/* precharge */
	R(PRE, ACT, BANK, DRAM_T_RP, NO, NO, NO),
	R(PRE, REFAB, BANK, DRAM_T_RP, NO, NO, NO),
	R(PRE, REFPB, BANK, DRAM_T_RP, NO, NO, NO),
	R(PRE, PRE, PC, DRAM_T_PPD, NO, NO, NO),
	/* reads */
	R(RD, RD, BG, DRAM_T_CCD_L, NO, NO, NO),
	R(RD, RD, PC, DRAM_T_CCD_S, NO, NO, NO),
	R(RD, WR, PC, DRAM_T_RTW, NO, NO, NO),
	R(RD, PRE, BANK, DRAM_T_RTP, NO, NO, NO),
	/* writes: WR -> RD counts from the end of the write data */
	R(WR, WR, BG, DRAM_T_CCD_L, NO, NO, NO),
	R(WR, WR, PC, DRAM_T_CCD_S, NO, NO, NO),
	R(WR, RD, BG, DRAM_T_CWL, B, DRAM_T_WTR_L, NO),
	R(WR, RD, PC, DRAM_T_CWL, B, DRAM_T_WTR_S, NO),
	R(WR, PRE, BANK, DRAM_T_CWL, B, DRAM_T_WR, NO),
	/* auto-precharge: the implied PRE follows tRTP or write recovery, then tRP; dram.c also
	 * holds the implied PRE until tRAS after the ACT */
	R(RDA, ACT, BANK, DRAM_T_RTP, DRAM_T_RP, NO, NO),
	R(RDA, REFPB, BANK, DRAM_T_RTP, DRAM_T_RP, NO, NO),
	R(RDA, REFAB, BANK, DRAM_T_RTP, DRAM_T_RP, NO, NO),
	R(WRA, ACT, BANK, DRAM_T_CWL, B, DRAM_T_WR, DRAM_T_RP),
	R(WRA, REFPB, BANK, DRAM_T_CWL, B, DRAM_T_WR, DRAM_T_RP),
	R(WRA, REFAB, BANK, DRAM_T_CWL, B, DRAM_T_WR, DRAM_T_RP),
	/* refresh */
	R(REFAB, ACT, PC, DRAM_T_RFC, NO, NO, NO),
	R(REFAB, REFAB, PC, DRAM_T_RFC, NO, NO, NO),
	R(REFAB, REFPB, PC, DRAM_T_RFC, NO, NO, NO),
	R(REFPB, ACT, BANK, DRAM_T_RFCPB, NO, NO, NO),
	R(REFPB, ACT, PC, DRAM_T_RREFD, NO, NO, NO),
	R(REFPB, REFPB, BANK, DRAM_T_RFCPB, NO, NO, NO),
	R(REFPB, REFPB, PC, DRAM_T_RREFD, NO, NO, NO),
	R(REFPB, REFAB, BANK, DRAM_T_RFCPB, NO, NO, NO),
};
#undef R
#undef B
#undef NO

#define NRULES (sizeof rules / sizeof rules[0])

/* ---------------------------------------------------------------------------------------------
 * Resolution and checks
 */

uint32_t dram_rule_latency(const struct dram_spec *spec, const struct dram_rule *r)
{
	uint32_t lat = 0;
	int i;

	for (i = 0; i < DRAM_RULE_TERMS; i++) {
		if (r->terms[i] < 0)
			continue;
		lat += r->terms[i] == DRAM_T_BURST ? spec->burst_cycles : spec->t[r->terms[i]];
	}
	return lat + (uint32_t)r->add;
}

/* ceil(ns / tCK) with a little slack so that 15 ns at exactly 0.5 ns is 30, not 31. */
static uint32_t ns_to_cycles(double ns, tick_t tck_ps)
{
	double c;

	if (ns <= 0.0)
		return 0;
	c = ns * 1000.0 / (double)tck_ps;
	return (uint32_t)ceil(c - 1e-6);
}

double dram_spec_peak_from_org(const struct dram_spec *s)
{
	/* bytes per ps -> GB/s: x 1e12 / 1e9 */
	return (double)s->channels * s->pcs * s->burst_bytes /
	       ((double)s->burst_cycles * (double)s->tck_ps) * 1e3;
}

double dram_spec_peak_from_pins(const struct dram_spec *s)
{
	return (double)s->channels * s->pcs * s->width_bits * s->data_rate_gbps / 8.0;
}

#define CHECK(cond, ...)                                  \
	do {                                              \
		if (!(cond))                              \
			return sim_err_set(err, NULL, 0, __VA_ARGS__); \
	} while (0)

static int check_timings(const struct dram_spec *s, struct sim_err *err)
{
	const uint32_t *t = s->t;
	int i;

	for (i = 0; i < DRAM_T_COUNT; i++)
		CHECK(t[i] > 0 || i == DRAM_T_32AW,
		      "dram.timing: t%s is 0 cycles (every timing but t32AW must be at least 1)",
		      timing_names[i]);
	CHECK(t[DRAM_T_RC] >= t[DRAM_T_RAS] + t[DRAM_T_RP],
	      "dram.timing: tRC (%u) < tRAS (%u) + tRP (%u) cycles: a bank would be activated "
	      "again before it has precharged", t[DRAM_T_RC], t[DRAM_T_RAS], t[DRAM_T_RP]);
	CHECK(t[DRAM_T_RAS] >= t[DRAM_T_RCDRD],
	      "dram.timing: tRAS (%u) < tRCDRD (%u) cycles: a row would close before it can be read",
	      t[DRAM_T_RAS], t[DRAM_T_RCDRD]);
	CHECK(t[DRAM_T_CCD_S] >= s->burst_cycles,
	      "dram.timing: tCCD_S (%u) < burst (%u cycles): bursts would overlap on the data bus",
	      t[DRAM_T_CCD_S], s->burst_cycles);
	CHECK(t[DRAM_T_CCD_L] >= t[DRAM_T_CCD_S], "dram.timing: tCCD_L (%u) < tCCD_S (%u)",
	      t[DRAM_T_CCD_L], t[DRAM_T_CCD_S]);
	CHECK(t[DRAM_T_RRD_L] >= t[DRAM_T_RRD_S], "dram.timing: tRRD_L (%u) < tRRD_S (%u)",
	      t[DRAM_T_RRD_L], t[DRAM_T_RRD_S]);
	CHECK(t[DRAM_T_WTR_L] >= t[DRAM_T_WTR_S], "dram.timing: tWTR_L (%u) < tWTR_S (%u)",
	      t[DRAM_T_WTR_L], t[DRAM_T_WTR_S]);
	CHECK(t[DRAM_T_RTW] + t[DRAM_T_CWL] >= t[DRAM_T_CL] + s->burst_cycles,
	      "dram.timing: tRTW (%u) too short: write data at tRTW + CWL = %u cycles would "
	      "collide with read data until CL + burst = %u", t[DRAM_T_RTW],
	      t[DRAM_T_RTW] + t[DRAM_T_CWL], t[DRAM_T_CL] + s->burst_cycles);
	CHECK(t[DRAM_T_REFI] > t[DRAM_T_RFC],
	      "dram.timing: tREFI (%u) <= tRFC (%u): the part would do nothing but refresh",
	      t[DRAM_T_REFI], t[DRAM_T_RFC]);
	CHECK(t[DRAM_T_REFIPB] * s->banks > t[DRAM_T_RFCPB],
	      "dram.timing: tREFIpb (%u) x %u banks <= tRFCpb (%u)", t[DRAM_T_REFIPB], s->banks,
	      t[DRAM_T_RFCPB]);
	/* Per-bank refreshes are one tRREFD apart at the closest, and an ACT between two of them
	 * needs tRREFD after the first and tRRD_S before the second. Due about as often as
	 * that, they are owed about as fast as a controller can issue them, forced refreshes
	 * take every slot an ACT could use, and the requests that need a row wait for ever (runs
	 * ended at the watchdog with tREFIpb 10-17 on the GDDR6 test config). Half the slots at
	 * most: real parts use a tenth or less (GDDR6 14 Gb/s: 214 against 2 x 23). */
	CHECK(t[DRAM_T_REFIPB] >= 2 * (t[DRAM_T_RREFD] + t[DRAM_T_RRD_S]),
	      "dram.timing: tREFIpb (%u) < 2 x (tRREFD + tRRD_S) (2 x (%u + %u)): per-bank "
	      "refreshes would take more than half the slots an ACT needs",
	      t[DRAM_T_REFIPB], t[DRAM_T_RREFD], t[DRAM_T_RRD_S]);
	return 0;
}

int dram_spec_resolve(struct dram_spec *s, const struct dram_params *p,
		      const struct dram_timing_params *tp, struct sim_err *err)
{
	const struct std_def *d;
	double org, pins;
	uint32_t i;

	memset(s, 0, sizeof *s);
	CHECK(p->standard < DRAM_STD_COUNT, "dram.standard: unknown standard %u", p->standard);
	d = &std_defs[p->standard];
	s->std = (enum dram_standard)p->standard;
	s->std_name = d->name;
	s->timing_source = d->source;
	s->data_rate_gbps = p->data_rate_gbps;
	s->channels = p->channels;
	s->pcs = p->pseudo_channels != 0 ? p->pseudo_channels : d->pcs;
	CHECK(s->pcs == d->pcs,
	      "dram.pseudo_channels: %s has %u (pseudo-channel mode is the mode modelled), got %u",
	      d->name, d->pcs, s->pcs);
	s->bank_groups = p->bank_groups != 0 ? p->bank_groups : d->bank_groups;
	s->banks_per_group = p->banks_per_group != 0 ? p->banks_per_group : d->banks_per_group;
	s->banks = s->bank_groups * s->banks_per_group;
	CHECK(s->banks <= 64, "dram: %u banks per channel; at most 64 are modelled", s->banks);
	s->rows = p->rows != 0 ? p->rows : d->rows;
	s->width_bits = p->width_bits != 0 ? p->width_bits : d->width_bits;
	s->burst_bytes = s->width_bits * d->burst_length / 8;
	CHECK(s->burst_bytes == 32,
	      "dram.width_bits: a burst must carry one 32 B sector; %u pins x BL%u = %u B",
	      s->width_bits, d->burst_length, s->burst_bytes);
	s->burst_cycles = d->burst_length / d->beats_per_ck;
	s->separate_row_bus = d->separate_row_bus;
	s->act_cmd_cycles = d->act_cmd_cycles;
	{
		uint32_t row_bytes = p->row_bytes != 0 ? p->row_bytes : d->row_bytes;

		CHECK(row_bytes % s->burst_bytes == 0 && row_bytes >= 2 * s->burst_bytes,
		      "dram.row_bytes: %u is not a multiple of the %u B burst (at least 2 bursts)",
		      row_bytes, s->burst_bytes);
		s->bursts_per_row = row_bytes / s->burst_bytes;
	}
	if (p->clamshell) {
		CHECK(s->std == DRAM_STD_GDDR6, "dram.clamshell: only GDDR6 has a clamshell mode");
		s->bursts_per_row *= 2;
	}
	s->bank_group_mode = p->bank_group_mode;
	CHECK(s->bank_group_mode || s->std == DRAM_STD_GDDR6,
	      "dram.bank_group_mode: only GDDR6 can run with bank groups off");
	/* The clock: beats per pin per CK from the standard, so tCK = beats / rate. */
	s->tck_ps = (tick_t)llround((double)d->beats_per_ck * 1000.0 / p->data_rate_gbps);
	CHECK(s->tck_ps >= 100, "dram.data_rate_gbps: %g Gb/s gives a %" PRIu64 " ps clock; "
	      "at least 100 ps is modelled", p->data_rate_gbps, (uint64_t)s->tck_ps);

	for (i = 0; i < DRAM_T_COUNT; i++) {
		const struct timing_val *v = d->ovr != NULL && d->ovr[i].src != NULL ? &d->ovr[i]
										 : &d->t[i];

		CHECK(tp->nck[i] == 0 || tp->ns[i] == 0.0,
		      "dram.timing: n%s and t%s_ns both set; give one", timing_names[i],
		      timing_names[i]);
		if (tp->nck[i] != 0) {
			s->t[i] = tp->nck[i];
		} else if (tp->ns[i] != 0.0) {
			s->t[i] = ns_to_cycles(tp->ns[i], s->tck_ps);
		} else {
			uint32_t c = ns_to_cycles(v->ns, s->tck_ps);

			s->t[i] = c > v->ck ? c : v->ck;
		}
	}
	/* Every standard's tRC is tRAS + tRP in ns, but rounding each of the three up to whole
	 * cycles on its own can leave nRC one short of nRAS + nRP (GDDR6 at 14 Gb/s: 45, 30 and
	 * 15 ns give 79 < 53 + 27; HBM2e at 3.6 Gb/s: 76 < 51 + 26), which the check below would
	 * refuse. A bank cannot be activated before its precharge ends anyway, so the standard's
	 * own tRC is raised to nRAS + nRP; when dram.timing gives any of tRC, tRAS or tRP, the
	 * values are checked as given. */
	if (tp->nck[DRAM_T_RC] == 0 && tp->ns[DRAM_T_RC] == 0.0 && tp->nck[DRAM_T_RAS] == 0 &&
	    tp->ns[DRAM_T_RAS] == 0.0 && tp->nck[DRAM_T_RP] == 0 && tp->ns[DRAM_T_RP] == 0.0 &&
	    s->t[DRAM_T_RC] < s->t[DRAM_T_RAS] + s->t[DRAM_T_RP])
		s->t[DRAM_T_RC] = s->t[DRAM_T_RAS] + s->t[DRAM_T_RP];
	if (s->t[DRAM_T_RTW] == 0) /* derived: read data out, bus turnaround, then write data */
		s->t[DRAM_T_RTW] = s->t[DRAM_T_CL] + s->burst_cycles + 2 > s->t[DRAM_T_CWL]
				 ? s->t[DRAM_T_CL] + s->burst_cycles + 2 - s->t[DRAM_T_CWL] : 1;
	if (!s->bank_group_mode) {
		/* Bank groups off: the long (same-group) timings apply between all banks. JESD250
		 * table 21 was not available to confirm; DRAMsim3 applies the short ones, which
		 * would make turning bank groups off faster, not slower. */
		s->t[DRAM_T_CCD_S] = s->t[DRAM_T_CCD_L];
		s->t[DRAM_T_RRD_S] = s->t[DRAM_T_RRD_L];
		s->t[DRAM_T_WTR_S] = s->t[DRAM_T_WTR_L];
	}
	if (check_timings(s, err) != 0)
		return -1;

	s->capacity_bytes = (uint64_t)s->channels * s->pcs * s->banks * s->rows *
			    s->bursts_per_row * s->burst_bytes;
	org = dram_spec_peak_from_org(s);
	pins = dram_spec_peak_from_pins(s);
	/* The two differ only by the rounding of tCK to whole picoseconds. */
	CHECK(fabs(org - pins) <= 0.005 * pins,
	      "dram: peak from the organisation (%.1f GB/s) differs from pins x rate (%.1f GB/s)",
	      org, pins);
	s->peak_gbps = org;

	s->rules = rules;
	s->nrules = NRULES;
	SIM_ASSERT(NRULES <= sizeof s->rule_lat / sizeof s->rule_lat[0]);
	for (i = 0; i < NRULES; i++)
		s->rule_lat[i] = dram_rule_latency(s, &rules[i]);
	return 0;
}
#undef CHECK

const char *dram_timing_source(enum dram_standard std, enum dram_timing t)
{
	const struct std_def *d;

	if (std >= DRAM_STD_COUNT || (unsigned)t >= DRAM_T_COUNT)
		return "?";
	d = &std_defs[std];
	return d->ovr != NULL && d->ovr[t].src != NULL ? d->ovr[t].src : d->t[t].src;
}

void dram_spec_print(const struct dram_spec *s, FILE *out)
{
	int i;

	fprintf(out, "dram: %s at %.4g Gb/s: tCK %" PRIu64 " ps (%.1f MHz), %u channels x %u "
		     "pseudo-channel%s x %u banks (%u groups), %u rows x %u B pages\n",
		s->std_name, s->data_rate_gbps, (uint64_t)s->tck_ps, 1e6 / (double)s->tck_ps,
		s->channels, s->pcs, s->pcs > 1 ? "s" : "", s->banks, s->bank_groups, s->rows,
		s->bursts_per_row * s->burst_bytes);
	fprintf(out, "  capacity %.2f GiB, peak %.1f GB/s (= %u pins x %.4g Gb/s)\n",
		(double)s->capacity_bytes / (1024.0 * 1024.0 * 1024.0), s->peak_gbps,
		s->channels * s->pcs * s->width_bits, s->data_rate_gbps);
	fprintf(out, "  timings (cycles): ");
	for (i = 0; i < DRAM_T_COUNT; i++)
		fprintf(out, "%s%s %u", i ? ", " : "", timing_names[i], s->t[i]);
	fprintf(out, "\n  timing source: %s\n", s->timing_source);
}

_Static_assert(sizeof dram_fields / sizeof dram_fields[0] == DRAM_NFIELDS, "DRAM_NFIELDS must count dram_fields");

_Static_assert(sizeof dram_timing_fields / sizeof dram_timing_fields[0] == DRAM_TIMING_NFIELDS, "DRAM_TIMING_NFIELDS must count dram_timing_fields");
