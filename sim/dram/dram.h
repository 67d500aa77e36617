/*
 * dram.h - one DRAM channel as the controller sees it: banks with open rows, the earliest legal
 * cycle of every command, activate windows, and the command and data buses.
 *
 * A channel has spec->pcs pseudo-channels (HBM: 2, sharing this channel's command bus; GDDR6: 1),
 * each with its own banks and data bus. The controller asks which command a request needs
 * (dram_needed), when it may issue (dram_earliest / dram_can_issue), and issues it (dram_issue).
 * The device never decides anything; it only knows what is legal.
 *
 * Bank state machine (per bank):
 *
 *            ACT                         RD/WR (row hit)
 *   CLOSED --------> OPEN(row) ------------------+
 *     ^  ^             |  ^                       |
 *     |  |  PRE        |  +-----------------------+
 *     |  +-------------+
 *     |    RDA/WRA (closes at the implied precharge)
 *     +---- REFpb / REFab (bank stays CLOSED; ACT waits tRFCpb / tRFC)
 *
 *   CLOSED -> OPEN    [dram_issue ACT]
 *   OPEN   -> OPEN    [dram_issue RD, WR]
 *   OPEN   -> CLOSED  [dram_issue PRE, RDA, WRA]
 *   CLOSED -> CLOSED  [dram_issue REFPB, REFAB]
 *
 * Timing: each bank, bank group and pseudo-channel keeps next[cmd], the earliest cycle for each
 * command at that scope, raised by the rule table on every issue; the earliest cycle of a command
 * is the maximum over its bank, group and pseudo-channel, the tFAW / t32AW windows, and the
 * command bus (HBM: a row bus and a column bus, one command each per cycle; GDDR6: one bus).
 */
#ifndef SIM_DRAM_H
#define SIM_DRAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "addrmap.h"
#include "dram_std.h"
#include "stats.h"
#include "types.h"

#define DRAM_ROW_NONE UINT32_MAX

struct dram_chan;

/* Called for every command issued (command traces, the rule checker). */
typedef void dram_cmd_hook(void *ctx, uint32_t ch, enum dram_cmd c, const struct dram_addr *a,
			   cycle_t at);

struct dram_chan_stats {
	uint64_t cmds[DRAM_CMD_COUNT];
	uint64_t data_cycles; /* data-bus cycles carrying bursts, all pseudo-channels */
	uint64_t *bank_bursts; /* [pc * banks + bank]: column commands (bursts) per bank */
	uint64_t *bank_acts;   /* [pc * banks + bank]: ACTs per bank */
};

/* Creates channel id of spec (which must outlive it). Never NULL. */
struct dram_chan *dram_chan_create(const struct dram_spec *spec, uint32_t id);
void dram_chan_destroy(struct dram_chan *c);
void dram_chan_set_hook(struct dram_chan *c, dram_cmd_hook *fn, void *ctx);
const struct dram_chan_stats *dram_chan_stats(const struct dram_chan *c);

/* Bank flat index within its pseudo-channel. */
static inline uint32_t dram_bank_index(const struct dram_spec *s, const struct dram_addr *a)
{
	return a->bg * s->banks_per_group + a->ba;
}

/* Open row of the bank a names, or DRAM_ROW_NONE. */
uint32_t dram_open_row(const struct dram_chan *c, const struct dram_addr *a);
/* Open row of bank (flat index) of pseudo-channel pc, or DRAM_ROW_NONE. */
uint32_t dram_open_row_at(const struct dram_chan *c, uint32_t pc, uint32_t bank);
/* Number of open banks in pseudo-channel pc. */
uint32_t dram_open_banks(const struct dram_chan *c, uint32_t pc);

/* The next command an access to a needs: RD/WR on a row hit, ACT on a closed bank, PRE on a
 * bank with another row open. */
enum dram_cmd dram_needed(const struct dram_chan *c, const struct dram_addr *a, bool is_write);

/*
 * Earliest cycle at which cmd to a is legal given everything issued so far, or CYCLE_NEVER if
 * the bank state forbids it (RD to a closed bank or another row, ACT to an open bank, PRE to a
 * closed bank, REFpb to an open bank, REFab with any bank of the pseudo-channel open). For
 * REFab only a->pc matters.
 */
cycle_t dram_earliest(const struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a);
/* dram_earliest of cmd (any but REFab) to bank `bank` (flat index) of pseudo-channel pc; row
 * matters for column commands only. The scheduler's form: no address to build. */
cycle_t dram_earliest_bank(const struct dram_chan *c, enum dram_cmd cmd, uint32_t pc,
			   uint32_t bank, uint32_t row);
static inline bool dram_can_issue(const struct dram_chan *c, enum dram_cmd cmd,
				  const struct dram_addr *a, cycle_t now)
{
	return dram_earliest(c, cmd, a) <= now;
}

/*
 * Issues cmd to a at cycle now (SIM_ASSERT that it is legal). For a column command returns the
 * cycle the data transfer ends (RD: now + CL + burst; WR: now + CWL + burst), else now.
 */
cycle_t dram_issue(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a,
		   cycle_t now);

/* Earliest cycle for an ACT to a counting only its own bank (tRC, tRP, refresh) and the bus,
 * not tRRD, tFAW or t32AW: when dram_earliest is later, an activate window holds the ACT. */
cycle_t dram_act_bank_bound(const struct dram_chan *c, const struct dram_addr *a);
/* Earliest cycle the command bus used by cmd is free. */
cycle_t dram_bus_free(const struct dram_chan *c, enum dram_cmd cmd);
/*
 * The parts of dram_earliest_bank, for a scheduler that times many waiting commands on every
 * pass without asking: dram_earliest_bank(cmd, pc, bank, row) is CYCLE_NEVER when
 * dram_own_bound(cmd, pc, bank, row) is, else the maximum of that own bound, pc_next[cmd],
 * bg_next[bg * DRAM_CMD_COUNT + cmd] (bg = bank_bg[bank]), for ACT *act_window, and the bus
 * (*row_bus for row commands, *col_bus for column commands).
 *   - The own bound (the bank's next[cmd], or CYCLE_NEVER if its state forbids cmd) changes
 *     only when a command goes to that bank, or a REFab to its pseudo-channel.
 *   - The shared ones change with any command; the pointers stay valid for the channel's life
 *     and always show their current values.
 */
cycle_t dram_own_bound(const struct dram_chan *c, enum dram_cmd cmd, uint32_t pc, uint32_t bank,
		       uint32_t row);
struct dram_bounds {
	const cycle_t *pc_next;     /* [cmd]: the pseudo-channel's */
	const cycle_t *bg_next;     /* [bank group * DRAM_CMD_COUNT + cmd] */
	const cycle_t *act_window;  /* the earliest ACT the tFAW and t32AW windows allow */
	const cycle_t *row_bus;     /* the command bus of row commands is free from */
	const cycle_t *col_bus;     /* that of column commands (GDDR6: the same bus) */
	const uint32_t *bank_bg;    /* [flat bank index]: its bank group */
};
void dram_bounds(const struct dram_chan *c, uint32_t pc, struct dram_bounds *b);

/* Registers <prefix>.pc<P>.b<B>.bursts and .acts for every bank. */
void dram_chan_register_stats(struct dram_chan *c, struct stats *st, const char *prefix);
/* One line per pseudo-channel and open bank, for the watchdog. */
void dram_chan_dump(const struct dram_chan *c, FILE *out);
/* Invariants: open-bank counts match the banks; next[] never below what the rules imply for the
 * last command issued (checked in debug builds after every issue). */
void dram_chan_check(const struct dram_chan *c);

#endif /* SIM_DRAM_H */
