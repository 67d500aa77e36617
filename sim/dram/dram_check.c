/*
 * dram_check.c - an independent checker of DRAM command streams (contract in dram_check.h).
 *
 * What it models. Each command is replayed against history kept here, not against dram.c's
 * next[] arrays: per bank, the last cycle each command type was issued there, the open row and
 * the cycle of the ACT that opened it, and when an RDA/WRA's implied precharge completes; per
 * pseudo-channel the recent ACT cycles (tFAW, t32AW) and the recent data-bus intervals; per
 * channel the command bus (HBM: row bus and column bus). A command is checked, in this order:
 *
 *   1. time      - cycles never go backwards on a channel;
 *   2. state     - ACT and REFpb to a closed bank, PRE to an open one, RD/WR/RDA/WRA to the open
 *                  row, REFab with every bank of its pseudo-channel closed;
 *   3. cmd bus   - one command per bus per cycle; an ACT holds the (row) bus act_cmd_cycles;
 *   4. data bus  - RD/RDA data [t+CL, t+CL+burst), WR/WRA data [t+CWL, t+CWL+burst) never
 *                  overlaps another burst of the same pseudo-channel;
 *   5. rules     - every rule of spec->rules whose `prev` matches an earlier command at the
 *                  rule's scope: t >= t_prev + latency. RDA counts as RD and as RDA, WRA as WR and
 *                  WRA, on both sides. REFab is pseudo-channel-wide: as `prev` it binds every bank,
 *                  as `next` it is bound by every bank;
 *   6. implied precharge of RDA/WRA - ACT, REFpb and REFab wait for
 *                  max(t + tRTP, t_act + tRAS) + tRP   (RDA)
 *                  max(t + CWL + burst + tWR, t_act + tRAS) + tRP   (WRA);
 *   7. windows   - at most 4 ACTs per pseudo-channel in any tFAW cycles, 32 in any t32AW.
 *
 * The first failing check of a command is recorded (the first message of the run is kept) and
 * the command counts as one violation; the command is then applied as if legal so that the
 * history stays meaningful.
 *
 * Invariants
 *   - a rule bound only needs the LAST earlier matching command (latencies are constant), so
 *     last[bank][cmd] is enough; rules are checked in O(banks) at worst (PC scope, REFab);
 *   - the data-bus ring of a pseudo-channel holds at least the bursts that can still overlap a
 *     new one on a bus-legal stream: max(CL, CWL) + burst + 1 column commands.
 *
 * Not checked: tPPD between implied precharges, refresh intervals (tREFI is a controller
 * policy, not a device rule), power-down and mode-register timings (not modelled).
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram_check.h"
#include "log.h"

#define MSG_MAX 320

struct kbank {
	uint32_t row;                  /* DRAM_ROW_NONE when closed */
	cycle_t act_at;                /* ACT that opened the row */
	cycle_t last[DRAM_CMD_COUNT];  /* last cycle of each command here; CYCLE_NEVER = none */
	cycle_t ap_ready;              /* implied precharge done: ACT/REF allowed; 0 = none */
	enum dram_cmd ap_cmd;          /* the RDA/WRA that implied it */
	cycle_t ap_at, ap_pre;         /* its cycle, and the cycle of the implied precharge */
};

struct kburst {
	cycle_t start, end;            /* [start, end) on the data bus */
	enum dram_cmd cmd;
	cycle_t at;
};

struct kpc {
	struct kbank *banks;
	uint32_t open;
	cycle_t *acts;                 /* ring of the last nring ACT cycles */
	uint32_t *act_bank;
	uint64_t nacts;
	struct kburst *bursts;         /* ring of the last nbursts column commands */
	uint64_t nburst_total;
};

struct kbus {
	cycle_t free;                  /* first cycle the bus is free */
	enum dram_cmd cmd;             /* last command on it */
	cycle_t at;
	bool used;
};

struct kchan {
	struct kpc *pcs;
	struct kbus row, col;          /* GDDR6: row is the one bus */
	cycle_t last_at;
	bool used;
};

/* One (rule, prev command) pair that can bind a given next command. */
struct kbind {
	uint32_t rule;
	enum dram_cmd prev;
};

struct dram_check {
	const struct dram_spec *s;
	struct kchan *chans;           /* spec->channels, pseudo-channels allocated on first use */
	uint32_t nring;                /* ACT ring length: 32 with t32AW, else 4 */
	uint32_t nbursts;              /* data ring length */
	struct kbind *binds[DRAM_CMD_COUNT];
	uint32_t nbinds[DRAM_CMD_COUNT];
	uint64_t commands, violations;
	char first[MSG_MAX];
	char msg[MSG_MAX];             /* scratch for the command being checked */
};

/* ---------------------------------------------------------------------------------------------
 * Set-up
 */

/* Does an issued command `c` count as rule command `r`? RDA is an RD too, WRA a WR. */
static bool cmd_matches(enum dram_cmd c, enum dram_cmd r)
{
	return c == r || (r == DRAM_CMD_RD && c == DRAM_CMD_RDA) ||
	       (r == DRAM_CMD_WR && c == DRAM_CMD_WRA);
}

static void add_bind(struct dram_check *k, enum dram_cmd next, uint32_t rule, enum dram_cmd prev)
{
	uint32_t n = k->nbinds[next];

	k->binds[next] = xreallocarray(k->binds[next], n + 1, sizeof *k->binds[next]);
	k->binds[next][n] = (struct kbind){ rule, prev };
	k->nbinds[next] = n + 1;
}

struct dram_check *dram_check_create(const struct dram_spec *s)
{
	struct dram_check *k = xcalloc(1, sizeof *k);
	uint32_t i, cl, cwl;
	int n, p;

	k->s = s;
	k->chans = xcalloc(s->channels, sizeof *k->chans);
	k->nring = s->t[DRAM_T_32AW] != 0 ? 32 : 4;
	cl = s->t[DRAM_T_CL];
	cwl = s->t[DRAM_T_CWL];
	k->nbursts = (cl > cwl ? cl : cwl) + s->burst_cycles + 1;
	for (i = 0; i < s->nrules; i++) {
		const struct dram_rule *r = &s->rules[i];

		for (n = 0; n < DRAM_CMD_COUNT; n++) {
			if (!cmd_matches((enum dram_cmd)n, r->next))
				continue;
			for (p = 0; p < DRAM_CMD_COUNT; p++)
				if (cmd_matches((enum dram_cmd)p, r->prev))
					add_bind(k, (enum dram_cmd)n, i, (enum dram_cmd)p);
		}
	}
	return k;
}

static void chan_init(const struct dram_check *k, struct kchan *c)
{
	const struct dram_spec *s = k->s;
	uint32_t p, b, j;

	c->pcs = xcalloc(s->pcs, sizeof *c->pcs);
	for (p = 0; p < s->pcs; p++) {
		struct kpc *pc = &c->pcs[p];

		pc->banks = xcalloc(s->banks, sizeof *pc->banks);
		for (b = 0; b < s->banks; b++) {
			pc->banks[b].row = DRAM_ROW_NONE;
			for (j = 0; j < DRAM_CMD_COUNT; j++)
				pc->banks[b].last[j] = CYCLE_NEVER;
		}
		pc->acts = xcalloc(k->nring, sizeof *pc->acts);
		pc->act_bank = xcalloc(k->nring, sizeof *pc->act_bank);
		pc->bursts = xcalloc(k->nbursts, sizeof *pc->bursts);
	}
	c->used = true;
}

void dram_check_destroy(struct dram_check *k)
{
	uint32_t ch, p;
	int i;

	if (k == NULL)
		return;
	for (ch = 0; ch < k->s->channels; ch++) {
		struct kchan *c = &k->chans[ch];

		if (!c->used)
			continue;
		for (p = 0; p < k->s->pcs; p++) {
			free(c->pcs[p].banks);
			free(c->pcs[p].acts);
			free(c->pcs[p].act_bank);
			free(c->pcs[p].bursts);
		}
		free(c->pcs);
	}
	for (i = 0; i < DRAM_CMD_COUNT; i++)
		free(k->binds[i]);
	free(k->chans);
	free(k);
}

uint64_t dram_check_commands(const struct dram_check *k)
{
	return k->commands;
}

uint64_t dram_check_violations(const struct dram_check *k)
{
	return k->violations;
}

const char *dram_check_first(const struct dram_check *k)
{
	return k->first;
}

/* ---------------------------------------------------------------------------------------------
 * Messages
 */

/* "ch0 pc1 b5: " or, for REFab, "ch0 pc1: " */
static int where(char *buf, size_t size, uint32_t ch, enum dram_cmd cmd, const struct dram_addr *a,
		 uint32_t bank)
{
	if (cmd == DRAM_CMD_REFAB)
		return snprintf(buf, size, "ch%u pc%u: ", ch, a->pc);
	return snprintf(buf, size, "ch%u pc%u b%u: ", ch, a->pc, bank);
}

/* Fills k->msg with the location prefix and the formatted text; returns false (failed). */
static bool fail(struct dram_check *k, uint32_t ch, enum dram_cmd cmd, const struct dram_addr *a,
		 uint32_t bank, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static bool fail(struct dram_check *k, uint32_t ch, enum dram_cmd cmd, const struct dram_addr *a,
		 uint32_t bank, const char *fmt, ...)
{
	va_list ap;
	int n = where(k->msg, sizeof k->msg, ch, cmd, a, bank);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof k->msg)
		vsnprintf(k->msg + n, sizeof k->msg - (size_t)n, fmt, ap);
	va_end(ap);
	return false;
}

/* The rule's latency as a sum of names, e.g. "tRCDRD" or "CWL+burst+tWTR_L". */
static void rule_name(const struct dram_rule *r, char *buf, size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < DRAM_RULE_TERMS && len < size; i++) {
		int t = r->terms[i];
		const char *pre, *name;

		if (t < 0)
			continue;
		if (t == DRAM_T_BURST) {
			pre = "";
			name = "burst";
		} else {
			pre = t == DRAM_T_CL || t == DRAM_T_CWL ? "" : "t";
			name = dram_timing_name((enum dram_timing)t);
		}
		len += (size_t)snprintf(buf + len, size - len, "%s%s%s", len ? "+" : "", pre, name);
	}
	if (r->add != 0 && len < size)
		snprintf(buf + len, size - len, "%+d", r->add);
}

/* ---------------------------------------------------------------------------------------------
 * The checks; each returns true when the command passes, else fills k->msg
 */

static bool check_state(struct dram_check *k, struct kpc *pc, uint32_t ch, enum dram_cmd cmd,
			const struct dram_addr *a, cycle_t at, uint32_t bank)
{
	const struct kbank *bk = cmd == DRAM_CMD_REFAB ? NULL : &pc->banks[bank];
	const char *n = dram_cmd_name(cmd);

	switch (cmd) {
	case DRAM_CMD_REFAB:
		if (pc->open != 0)
			return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 " with %u bank%s open", n,
				    at, pc->open, pc->open > 1 ? "s" : "");
		return true;
	case DRAM_CMD_ACT:
	case DRAM_CMD_REFPB:
		if (bk->row != DRAM_ROW_NONE)
			return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 " to an open bank (row %u)",
				    n, at, bk->row);
		return true;
	case DRAM_CMD_PRE:
		if (bk->row == DRAM_ROW_NONE)
			return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 " to a closed bank", n, at);
		return true;
	default:
		if (bk->row == DRAM_ROW_NONE)
			return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 " to a closed bank", n, at);
		if (bk->row != a->row)
			return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 " to row %u but row %u is open",
				    n, at, a->row, bk->row);
		return true;
	}
}

static bool check_bus(struct dram_check *k, struct kchan *c, uint32_t ch, enum dram_cmd cmd,
		      const struct dram_addr *a, cycle_t at, uint32_t bank)
{
	const struct dram_spec *s = k->s;
	bool col = s->separate_row_bus && !dram_cmd_is_row(cmd);
	struct kbus *bus = col ? &c->col : &c->row;
	const char *name = !s->separate_row_bus ? "command" : col ? "column" : "row";

	if (bus->used && at < bus->free)
		return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 ": %s bus busy until %" PRIu64
			    " (%s at %" PRIu64 ")", dram_cmd_name(cmd), at, name, bus->free,
			    dram_cmd_name(bus->cmd), bus->at);
	return true;
}

static void data_interval(const struct dram_spec *s, enum dram_cmd cmd, cycle_t at,
			  struct kburst *b)
{
	b->start = at + (dram_cmd_is_read(cmd) ? s->t[DRAM_T_CL] : s->t[DRAM_T_CWL]);
	b->end = b->start + s->burst_cycles;
	b->cmd = cmd;
	b->at = at;
}

static bool check_data(struct dram_check *k, struct kpc *pc, uint32_t ch, enum dram_cmd cmd,
		       const struct dram_addr *a, cycle_t at, uint32_t bank)
{
	struct kburst nb;
	uint64_t n = pc->nburst_total < k->nbursts ? pc->nburst_total : k->nbursts;
	uint64_t i;

	if (dram_cmd_is_row(cmd))
		return true;
	data_interval(k->s, cmd, at, &nb);
	for (i = 0; i < n; i++) {
		const struct kburst *o = &pc->bursts[i];

		if (nb.start < o->end && o->start < nb.end)
			return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 ": data [%" PRIu64 ", %"
				    PRIu64 ") overlaps data [%" PRIu64 ", %" PRIu64 ") of %s at %"
				    PRIu64, dram_cmd_name(cmd), at, nb.start, nb.end, o->start,
				    o->end, dram_cmd_name(o->cmd), o->at);
	}
	return true;
}

/* Is bank b bound by a rule of scope sc from a command at bank tb (or, for REFab, anywhere)? */
static bool in_scope(const struct dram_spec *s, enum dram_scope sc, bool refab, uint32_t b,
		     uint32_t tb)
{
	if (refab)
		return true;
	switch (sc) {
	case DRAM_SCOPE_BANK:
		return b == tb;
	case DRAM_SCOPE_BG:
		return b / s->banks_per_group == tb / s->banks_per_group;
	default:
		return true;
	}
}

static bool check_rules(struct dram_check *k, struct kpc *pc, uint32_t ch, enum dram_cmd cmd,
			const struct dram_addr *a, cycle_t at, uint32_t bank)
{
	const struct dram_spec *s = k->s;
	bool refab = cmd == DRAM_CMD_REFAB;
	uint32_t i, b;

	for (i = 0; i < k->nbinds[cmd]; i++) {
		const struct kbind *x = &k->binds[cmd][i];
		const struct dram_rule *r = &s->rules[x->rule];
		uint32_t lat = s->rule_lat[x->rule], from = 0;
		cycle_t latest = CYCLE_NEVER;
		char rn[96];

		for (b = 0; b < s->banks; b++) {
			cycle_t t = pc->banks[b].last[x->prev];

			if (t == CYCLE_NEVER || !in_scope(s, r->scope, refab, b, bank))
				continue;
			if (latest == CYCLE_NEVER || t > latest) {
				latest = t;
				from = b;
			}
		}
		if (latest == CYCLE_NEVER || at >= latest + lat)
			continue;
		rule_name(r, rn, sizeof rn);
		if (refab || x->prev == DRAM_CMD_REFAB || from == bank)
			return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 " after %s at %" PRIu64
				    ": %s needs %u", dram_cmd_name(cmd), at, dram_cmd_name(x->prev),
				    latest, rn, lat);
		return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 " after %s to b%u at %" PRIu64
			    ": %s needs %u", dram_cmd_name(cmd), at, dram_cmd_name(x->prev), from,
			    latest, rn, lat);
	}
	return true;
}

static bool check_autopre(struct dram_check *k, struct kpc *pc, uint32_t ch, enum dram_cmd cmd,
			  const struct dram_addr *a, cycle_t at, uint32_t bank)
{
	const struct dram_spec *s = k->s;
	uint32_t b, lo = bank, hi = bank + 1;

	if (cmd != DRAM_CMD_ACT && cmd != DRAM_CMD_REFPB && cmd != DRAM_CMD_REFAB)
		return true;
	if (cmd == DRAM_CMD_REFAB) {
		lo = 0;
		hi = s->banks;
	}
	for (b = lo; b < hi; b++) {
		const struct kbank *bk = &pc->banks[b];

		if (at < bk->ap_ready)
			return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 " after %s to b%u at %"
				    PRIu64 ": implied precharge at %" PRIu64 " + tRP needs %" PRIu64,
				    dram_cmd_name(cmd), at, dram_cmd_name(bk->ap_cmd), b, bk->ap_at,
				    bk->ap_pre, bk->ap_ready);
	}
	return true;
}

static bool check_windows(struct dram_check *k, struct kpc *pc, uint32_t ch, enum dram_cmd cmd,
			  const struct dram_addr *a, cycle_t at, uint32_t bank)
{
	const struct dram_spec *s = k->s;
	static const struct {
		uint32_t acts;
		enum dram_timing t;
		const char *name;
	} win[] = { { 4, DRAM_T_FAW, "tFAW" }, { 32, DRAM_T_32AW, "t32AW" } };
	size_t w;

	if (cmd != DRAM_CMD_ACT)
		return true;
	for (w = 0; w < sizeof win / sizeof win[0]; w++) {
		uint32_t len = s->t[win[w].t];
		uint64_t j;

		if (len == 0 || win[w].acts > k->nring || pc->nacts < win[w].acts)
			continue;
		j = (pc->nacts - win[w].acts) % k->nring;
		if (at < pc->acts[j] + len)
			return fail(k, ch, cmd, a, bank, "%s at %" PRIu64 " after ACT to b%u at %"
				    PRIu64 ", %u ACTs back: %s needs %u", dram_cmd_name(cmd), at,
				    pc->act_bank[j], pc->acts[j], win[w].acts, win[w].name, len);
	}
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Applying a command to the history
 */

static void apply(struct dram_check *k, struct kchan *c, struct kpc *pc, enum dram_cmd cmd,
		  const struct dram_addr *a, cycle_t at, uint32_t bank)
{
	const struct dram_spec *s = k->s;
	struct kbank *bk = cmd == DRAM_CMD_REFAB ? NULL : &pc->banks[bank];
	bool col = s->separate_row_bus && !dram_cmd_is_row(cmd);
	struct kbus *bus = col ? &c->col : &c->row;
	uint32_t b;

	if (bk != NULL) {
		bk->last[cmd] = at;
	} else {
		for (b = 0; b < s->banks; b++)
			pc->banks[b].last[cmd] = at;
	}
	switch (cmd) {
	case DRAM_CMD_ACT:
		if (bk->row == DRAM_ROW_NONE)
			pc->open++;
		bk->row = a->row;
		bk->act_at = at;
		pc->acts[pc->nacts % k->nring] = at;
		pc->act_bank[pc->nacts % k->nring] = bank;
		pc->nacts++;
		break;
	case DRAM_CMD_PRE:
		if (bk->row != DRAM_ROW_NONE)
			pc->open--;
		bk->row = DRAM_ROW_NONE;
		break;
	case DRAM_CMD_RDA:
	case DRAM_CMD_WRA: {
		cycle_t pre = cmd == DRAM_CMD_RDA
			? at + s->t[DRAM_T_RTP]
			: at + s->t[DRAM_T_CWL] + s->burst_cycles + s->t[DRAM_T_WR];

		if (bk->row != DRAM_ROW_NONE) {
			if (bk->act_at + s->t[DRAM_T_RAS] > pre)
				pre = bk->act_at + s->t[DRAM_T_RAS];
			pc->open--;
		}
		bk->ap_cmd = cmd;
		bk->ap_at = at;
		bk->ap_pre = pre;
		bk->ap_ready = pre + s->t[DRAM_T_RP];
		bk->row = DRAM_ROW_NONE;
		break;
	}
	default:
		break;
	}
	if (!dram_cmd_is_row(cmd)) {
		data_interval(s, cmd, at, &pc->bursts[pc->nburst_total % k->nbursts]);
		pc->nburst_total++;
	}
	bus->free = at + (cmd == DRAM_CMD_ACT ? s->act_cmd_cycles : 1);
	bus->cmd = cmd;
	bus->at = at;
	bus->used = true;
	if (at > c->last_at)
		c->last_at = at;
}

void dram_check_hook(void *ctx, uint32_t ch, enum dram_cmd cmd, const struct dram_addr *a,
		     cycle_t at)
{
	struct dram_check *k = ctx;
	const struct dram_spec *s = k->s;
	struct kchan *c;
	struct kpc *pc;
	uint32_t bank;
	bool ok;

	SIM_ASSERT(ch < s->channels && (unsigned)cmd < DRAM_CMD_COUNT && a->pc < s->pcs);
	SIM_ASSERT(cmd == DRAM_CMD_REFAB || (a->bg < s->bank_groups && a->ba < s->banks_per_group));
	c = &k->chans[ch];
	if (!c->used)
		chan_init(k, c);
	pc = &c->pcs[a->pc];
	bank = cmd == DRAM_CMD_REFAB ? 0 : dram_bank_index(s, a);
	k->commands++;

	ok = true;
	if (c->last_at > at)
		ok = fail(k, ch, cmd, a, bank, "%s at %" PRIu64 " after a command at %" PRIu64
			  ": time went backwards", dram_cmd_name(cmd), at, c->last_at);
	ok = ok && check_state(k, pc, ch, cmd, a, at, bank);
	ok = ok && check_bus(k, c, ch, cmd, a, at, bank);
	ok = ok && check_data(k, pc, ch, cmd, a, at, bank);
	ok = ok && check_rules(k, pc, ch, cmd, a, at, bank);
	ok = ok && check_autopre(k, pc, ch, cmd, a, at, bank);
	ok = ok && check_windows(k, pc, ch, cmd, a, at, bank);
	if (!ok) {
		if (k->violations == 0)
			snprintf(k->first, sizeof k->first, "%s", k->msg);
		k->violations++;
	}
	apply(k, c, pc, cmd, a, at, bank);
}
