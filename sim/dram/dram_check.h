/*
 * dram_check.h - an independent checker of DRAM command streams against the rule table.
 *
 * It replays commands (fed by dram_chan_set_hook or from a list) and checks each one against
 * the history of earlier commands with its own bookkeeping - the last cycle of every command at
 * every bank - rather than the device's next[] arrays, so a bug in dram.c's bookkeeping cannot
 * hide itself. Checked: every rule of spec->rules at its scope (RDA/WRA obey RD/WR rules too),
 * the implied precharge of RDA/WRA (tRAS after ACT, then tRP), tFAW and t32AW windows, bank
 * state (ACT to a closed bank, column commands to the open row, PRE to an open bank, refresh
 * with the bank(s) closed), one command per cycle per command bus (HBM: row and column buses),
 * and no two bursts overlapping on a pseudo-channel's data bus.
 */
#ifndef SIM_DRAM_CHECK_H
#define SIM_DRAM_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "dram.h"

struct dram_check;

/* A checker for all channels of spec. Never NULL. */
struct dram_check *dram_check_create(const struct dram_spec *spec);
void dram_check_destroy(struct dram_check *k);
/* Checks one command; a violation is recorded (the first message kept), never fatal. Has the
 * dram_cmd_hook signature, so it can be installed with dram_chan_set_hook(c, dram_check_hook, k). */
void dram_check_hook(void *k, uint32_t ch, enum dram_cmd cmd, const struct dram_addr *a,
		     cycle_t at);
uint64_t dram_check_commands(const struct dram_check *k);
uint64_t dram_check_violations(const struct dram_check *k);
/* The first violation, e.g. "ch0 pc1 b5: RD at 1040 after ACT at 1030: tRCDRD needs 12"; "" if none. */
const char *dram_check_first(const struct dram_check *k);

#endif /* SIM_DRAM_CHECK_H */
