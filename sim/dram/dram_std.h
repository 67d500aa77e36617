/*
 * dram_std.h - DRAM standards as data: organisation, timing sets with their sources, the timing
 * rule table, and the config groups that select and override them.
 *
 * A standard (GDDR6, HBM2, HBM2e) contributes three things:
 *   - an organisation: channels, pseudo-channels sharing one command bus, bank groups, banks,
 *     rows, bursts per row, bytes per burst, beats per burst and whether row and column commands
 *     have separate buses;
 *   - a timing set in nanoseconds and clocks, each value with the source it came from, converted
 *     to clock cycles of the data rate in use as max(n tCK, ceil(ns / tCK));
 *   - the rule table: for each (previous command, next command, scope) the minimum distance as a
 *     sum of timing parameters. The device model (dram.c), the boundary tests and the command-trace
 *     checker all read this one table.
 *
 * The clock derives from the data rate: GDDR6 moves 8 bits per pin per CK (CK = rate / 8), HBM
 * 2 (CK = rate / 2). dram_std_resolve checks that the organisation's peak equals pins x rate and
 * that the timings are consistent (tRC >= tRAS + tRP, tCCD_S >= burst ...) before any run.
 */
#ifndef SIM_DRAM_STD_H
#define SIM_DRAM_STD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"
#include "log.h"
#include "types.h"

/* ---------------------------------------------------------------------------------------------
 * Commands
 */
#define DRAM_CMDS(X)                                    \
	X(ACT, "ACT", true)   /* activate a row */       \
	X(PRE, "PRE", true)   /* precharge one bank */   \
	X(RD, "RD", false)    /* read burst */           \
	X(WR, "WR", false)    /* write burst */          \
	X(RDA, "RDA", false)  /* read, auto-precharge */ \
	X(WRA, "WRA", false)  /* write, auto-precharge */ \
	X(REFAB, "REFab", true) /* all-bank refresh */   \
	X(REFPB, "REFpb", true) /* per-bank refresh */

enum dram_cmd {
#define DRAM_CMD_ENUM(e, s, row) DRAM_CMD_##e,
	DRAM_CMDS(DRAM_CMD_ENUM)
#undef DRAM_CMD_ENUM
	DRAM_CMD_COUNT
};

const char *dram_cmd_name(enum dram_cmd c);
/* Row commands (ACT, PRE, REF) use the row bus on HBM; column commands (RD, WR) the column bus.
 * Inline: the scheduler asks this for every candidate. */
#define DRAM_CMD_ROW_BIT(e, s, row) | ((unsigned)(row) << DRAM_CMD_##e)
static inline bool dram_cmd_is_row(enum dram_cmd c)
{
	return ((0u DRAM_CMDS(DRAM_CMD_ROW_BIT)) >> c) & 1u;
}
#undef DRAM_CMD_ROW_BIT
static inline bool dram_cmd_is_read(enum dram_cmd c)
{
	return c == DRAM_CMD_RD || c == DRAM_CMD_RDA;
}
static inline bool dram_cmd_is_write(enum dram_cmd c)
{
	return c == DRAM_CMD_WR || c == DRAM_CMD_WRA;
}

/* ---------------------------------------------------------------------------------------------
 * Timing parameters: X(name, "description")
 */
#define DRAM_TIMINGS(X)                                                               \
	X(CL, "CL", "read latency: RD to first data")                                 \
	X(CWL, "CWL", "write latency: WR to first data")                              \
	X(RCDRD, "RCDRD", "ACT to RD, same bank")                                     \
	X(RCDWR, "RCDWR", "ACT to WR, same bank")                                     \
	X(RP, "RP", "PRE to ACT, same bank")                                          \
	X(RAS, "RAS", "ACT to PRE, same bank")                                        \
	X(RC, "RC", "ACT to ACT, same bank")                                          \
	X(RTP, "RTP", "RD to PRE, same bank")                                         \
	X(WR, "WR", "write recovery: end of write data to PRE, same bank")            \
	X(CCD_S, "CCD_S", "column to column, different bank group")                   \
	X(CCD_L, "CCD_L", "column to column, same bank group")                        \
	X(RRD_S, "RRD_S", "ACT to ACT, different bank group")                         \
	X(RRD_L, "RRD_L", "ACT to ACT, same bank group")                              \
	X(FAW, "FAW", "window holding at most 4 ACTs per (pseudo-)channel")           \
	X(32AW, "32AW", "window holding at most 32 ACTs (GDDR6; 0 = no such window)") \
	X(WTR_S, "WTR_S", "end of write data to RD, different bank group")            \
	X(WTR_L, "WTR_L", "end of write data to RD, same bank group")                 \
	X(RTW, "RTW", "RD to WR turnaround, any bank")                                \
	X(PPD, "PPD", "PRE to PRE, any bank")                                         \
	X(RFC, "RFC", "all-bank refresh cycle: REFab to ACT")                         \
	X(RFCPB, "RFCpb", "per-bank refresh cycle: REFpb to ACT, same bank")          \
	X(RREFD, "RREFD", "REFpb to REFpb or ACT, different bank")                    \
	X(REFI, "REFI", "average interval between REFab commands")                    \
	X(REFIPB, "REFIpb", "average interval between REFpb commands")

enum dram_timing {
#define DRAM_TIMING_ENUM(e, n, d) DRAM_T_##e,
	DRAM_TIMINGS(DRAM_TIMING_ENUM)
#undef DRAM_TIMING_ENUM
	DRAM_T_COUNT
};

const char *dram_timing_name(enum dram_timing t);

/* ---------------------------------------------------------------------------------------------
 * Rules
 */

/* Which banks a rule constrains, relative to the bank the previous command went to. Wider
 * scopes include narrower ones; the model keeps the maximum. */
enum dram_scope {
	DRAM_SCOPE_BANK, /* the same bank */
	DRAM_SCOPE_BG,   /* every bank of the same bank group */
	DRAM_SCOPE_PC,   /* every bank of the same (pseudo-)channel */
	DRAM_SCOPE_COUNT
};

/* Burst length in clock cycles is not a timing parameter but appears in rules. */
#define DRAM_T_BURST DRAM_T_COUNT
#define DRAM_RULE_TERMS 4

struct dram_rule {
	enum dram_cmd prev, next;
	enum dram_scope scope;
	/* latency = sum of the terms (DRAM_T_* or DRAM_T_BURST; -1 = unused) + add */
	int terms[DRAM_RULE_TERMS];
	int add;
};

/* ---------------------------------------------------------------------------------------------
 * Standards and their parameters
 */
#define DRAM_STANDARDS(X) \
	X(GDDR6, "gddr6")  \
	X(HBM2, "hbm2")    \
	X(HBM2E, "hbm2e")

enum dram_standard {
#define DRAM_STD_ENUM(e, s) DRAM_STD_##e,
	DRAM_STANDARDS(DRAM_STD_ENUM)
#undef DRAM_STD_ENUM
	DRAM_STD_COUNT
};

extern const char *const dram_standard_names[]; /* NULL-terminated, for CFG_ENUM */

/* dram: what the memory is. */
struct dram_params {
	uint32_t standard;        /* enum dram_standard */
	double data_rate_gbps;    /* per pin */
	uint32_t channels;        /* independent channels in the whole GPU */
	uint32_t pseudo_channels; /* per channel, sharing its command bus (HBM 2, GDDR6 1) */
	uint32_t bank_groups;     /* per (pseudo-)channel */
	uint32_t banks_per_group;
	uint32_t rows;            /* per bank */
	uint32_t row_bytes;       /* page size per (pseudo-)channel */
	uint32_t width_bits;      /* data pins per (pseudo-)channel */
	bool bank_group_mode;     /* GDDR6: bank groups on (tCCD_L/tRRD_L/tWTR_L apply) */
	bool clamshell;           /* GDDR6: two x8 devices per channel (double page and capacity) */
};

/* dram.timing: overrides of the standard's timing set, each in ns or in clock cycles (0 = keep
 * the standard's value; setting both is an error). */
struct dram_timing_params {
	double ns[DRAM_T_COUNT];
	uint32_t nck[DRAM_T_COUNT];
};

/* Everything derived from the parameters, in DRAM clock cycles. */
struct dram_spec {
	enum dram_standard std;
	const char *std_name;
	const char *timing_source; /* where the standard's timing set comes from */
	double data_rate_gbps;
	tick_t tck_ps;             /* DRAM clock period, rounded to ps */
	uint32_t channels, pcs, bank_groups, banks_per_group, banks; /* banks per PC */
	uint32_t rows;
	uint32_t bursts_per_row;   /* column positions of one burst */
	uint32_t burst_bytes;      /* 32 */
	uint32_t burst_cycles;     /* data-bus cycles per burst */
	uint32_t width_bits;
	bool separate_row_bus;     /* HBM: one row and one column command per cycle */
	uint32_t act_cmd_cycles;   /* cycles an ACT occupies the (row) command bus */
	bool bank_group_mode;
	uint32_t t[DRAM_T_COUNT];  /* cycles */
	uint64_t capacity_bytes;   /* whole GPU, before ECC */
	double peak_gbps;          /* whole GPU, GB/s (1e9 bytes) */
	/* the rule table instantiated for this spec: latencies in cycles */
	const struct dram_rule *rules;
	uint32_t nrules;
	uint32_t rule_lat[64];
};

extern const struct cfg_field dram_fields[];
extern const size_t dram_nfields;
#define DRAM_NFIELDS 11 /* entries of dram_fields[] (checked in the .c) */
extern const struct cfg_field dram_timing_fields[];
extern const size_t dram_timing_nfields;
#define DRAM_TIMING_NFIELDS (2 * DRAM_T_COUNT) /* nX and tX_ns for each timing */

/*
 * Builds spec from the parameters: the standard's organisation and timing set, the overrides,
 * the clock from the data rate; then checks consistency. Returns 0, or -1 with err naming the
 * key and the rule broken (e.g. "dram.timing: tRC (30) < tRAS (28) + tRP (14)").
 */
int dram_spec_resolve(struct dram_spec *spec, const struct dram_params *p,
		      const struct dram_timing_params *tp, struct sim_err *err);

/* Latency in cycles of a rule of the spec's table. */
uint32_t dram_rule_latency(const struct dram_spec *spec, const struct dram_rule *r);

/* Peak bandwidth of the spec computed from the organisation (bursts x bytes / burst cycles) in
 * GB/s, and from pins x rate; dram_spec_resolve refuses a spec where they differ. */
double dram_spec_peak_from_org(const struct dram_spec *spec);
double dram_spec_peak_from_pins(const struct dram_spec *spec);

/* Where the standard's value of timing t comes from ([P], [S] or [D] and the document). */
const char *dram_timing_source(enum dram_standard std, enum dram_timing t);
/* Organisation, clock, capacity, peak and every timing in cycles, for `config check`. */
void dram_spec_print(const struct dram_spec *s, FILE *out);

#endif /* SIM_DRAM_STD_H */
