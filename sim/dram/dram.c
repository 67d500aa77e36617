/*
 * dram.c - one DRAM channel: bank state, the earliest legal cycle of each command, activate
 * windows and command buses (contract and state diagram in dram.h).
 *
 * How the rule table becomes state: at creation, the rules of the spec are expanded into one list
 * per issued command (RDA and WRA take the rules of RD and WR as well as their own; a rule whose
 * next command is RD or WR also binds RDA or WRA). Issuing a command walks its list and raises
 * next[] of the target command at the rule's scope: the bank, the bank group, or the
 * pseudo-channel. dram_earliest is then a maximum of three numbers plus the windows and the bus:
 * O(1) for every command but REFab, which looks at every bank of its pseudo-channel.
 *
 * Own and shared bounds: a bank's own next[] changes only with commands to that bank (and REFab);
 * the rest of a command's earliest cycle (the pseudo-channel's and bank group's next[], the
 * activate windows, kept as one number act_win, and the bus) is shared by the banks. The
 * controller keeps each waiting bank's own bound and reads the shared ones in place
 * (dram_bounds), so that it times a waiting command exactly without asking.
 *
 * Invariants (dram_chan_check)
 *   - a pseudo-channel's open-bank count equals the number of its banks with a row open;
 *   - the tFAW ring holds the last four ACT cycles of the pseudo-channel, oldest at ring[idx];
 *     the t32AW ring the last 32;
 *   - act_win is what the two rings allow an ACT (act_window).
 *
 * Not modelled: data-bus ownership as its own resource (the turnaround and tCCD rules keep bursts
 * apart; the rule checker in dram_check.c verifies they never overlap), command-bus parity and
 * CRC retry, power-down.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dram.h"
#include "log.h"

#define FAW_ACTS 4
#define AW32_ACTS 32

struct bank {
	uint32_t row;              /* DRAM_ROW_NONE when closed */
	cycle_t act_at;            /* cycle of the last ACT (for the auto-precharge's tRAS) */
	cycle_t next[DRAM_CMD_COUNT];
};

struct pchan {
	struct bank *banks;
	cycle_t *bg_next;          /* [bank group][cmd] */
	cycle_t next[DRAM_CMD_COUNT];
	cycle_t faw[FAW_ACTS];     /* ACT cycles, oldest at faw_idx; CYCLE_NEVER = none yet */
	uint32_t faw_idx;
	cycle_t aw32[AW32_ACTS];
	uint32_t aw32_idx;
	uint32_t open_banks;
	cycle_t act_win;           /* the earliest ACT the tFAW and t32AW windows allow */
};

/* One expanded rule: after the command owning the list, `next` waits `lat` at `scope`. */
struct xrule {
	enum dram_cmd next;
	enum dram_scope scope;
	uint32_t lat;
};

struct dram_chan {
	const struct dram_spec *s;
	uint32_t id;
	struct pchan *pcs;
	cycle_t row_bus_free;      /* GDDR6: the one command bus */
	cycle_t col_bus_free;      /* HBM only */
	struct xrule *xr[DRAM_CMD_COUNT];  /* each sorted by scope: bank, bank group, pc */
	uint32_t nxr[DRAM_CMD_COUNT];
	uint32_t nxr_scope[DRAM_CMD_COUNT][DRAM_SCOPE_COUNT];
	uint32_t *bank_bg;         /* flat bank index -> bank group */
	dram_cmd_hook *hook;
	void *hook_ctx;
	struct dram_chan_stats st;
};

static enum dram_cmd base_cmd(enum dram_cmd c)
{
	return c == DRAM_CMD_RDA ? DRAM_CMD_RD : c == DRAM_CMD_WRA ? DRAM_CMD_WR : c;
}

static void add_xrule(struct dram_chan *c, enum dram_cmd prev, enum dram_cmd next,
		      enum dram_scope scope, uint32_t lat)
{
	uint32_t i, n = c->nxr[prev];

	/* Keep one entry per (next, scope): the largest latency. */
	for (i = 0; i < n; i++) {
		if (c->xr[prev][i].next == next && c->xr[prev][i].scope == scope) {
			if (lat > c->xr[prev][i].lat)
				c->xr[prev][i].lat = lat;
			return;
		}
	}
	c->xr[prev] = xreallocarray(c->xr[prev], n + 1, sizeof *c->xr[prev]);
	c->xr[prev][n] = (struct xrule){ next, scope, lat };
	c->nxr[prev] = n + 1;
}

static void expand_rules(struct dram_chan *c)
{
	const struct dram_spec *s = c->s;
	uint32_t i;
	int p;

	for (i = 0; i < s->nrules; i++) {
		const struct dram_rule *r = &s->rules[i];

		for (p = 0; p < DRAM_CMD_COUNT; p++) {
			enum dram_cmd prev = (enum dram_cmd)p;

			if (r->prev != prev && r->prev != base_cmd(prev))
				continue;
			add_xrule(c, prev, r->next, r->scope, s->rule_lat[i]);
			if (r->next == DRAM_CMD_RD)
				add_xrule(c, prev, DRAM_CMD_RDA, r->scope, s->rule_lat[i]);
			if (r->next == DRAM_CMD_WR)
				add_xrule(c, prev, DRAM_CMD_WRA, r->scope, s->rule_lat[i]);
		}
	}
	/* By scope, so that dram_issue raises each scope in its own loop (insertion sort: a
	 * command has a few dozen rules at most; the order within a scope does not matter, every
	 * raise is a maximum). */
	for (p = 0; p < DRAM_CMD_COUNT; p++) {
		struct xrule *x = c->xr[p];
		uint32_t j;

		for (i = 1; i < c->nxr[p]; i++) {
			struct xrule t = x[i];

			for (j = i; j > 0 && x[j - 1].scope > t.scope; j--)
				x[j] = x[j - 1];
			x[j] = t;
		}
		for (i = 0; i < c->nxr[p]; i++)
			c->nxr_scope[p][x[i].scope]++;
	}
}

struct dram_chan *dram_chan_create(const struct dram_spec *s, uint32_t id)
{
	struct dram_chan *c = xcalloc(1, sizeof *c);
	uint32_t p, b, k;

	c->s = s;
	c->id = id;
	c->pcs = xcalloc(s->pcs, sizeof *c->pcs);
	for (p = 0; p < s->pcs; p++) {
		struct pchan *pc = &c->pcs[p];

		pc->banks = xcalloc(s->banks, sizeof *pc->banks);
		pc->bg_next = xcalloc((size_t)s->bank_groups * DRAM_CMD_COUNT, sizeof(cycle_t));
		for (b = 0; b < s->banks; b++)
			pc->banks[b].row = DRAM_ROW_NONE;
		for (k = 0; k < FAW_ACTS; k++)
			pc->faw[k] = CYCLE_NEVER;
		for (k = 0; k < AW32_ACTS; k++)
			pc->aw32[k] = CYCLE_NEVER;
	}
	c->st.bank_bursts = xcalloc((size_t)s->pcs * s->banks, sizeof *c->st.bank_bursts);
	c->st.bank_acts = xcalloc((size_t)s->pcs * s->banks, sizeof *c->st.bank_acts);
	c->bank_bg = xcalloc(s->banks, sizeof *c->bank_bg);
	for (b = 0; b < s->banks; b++)
		c->bank_bg[b] = b / s->banks_per_group;
	expand_rules(c);
	return c;
}

void dram_chan_register_stats(struct dram_chan *c, struct stats *st, const char *prefix)
{
	char name[256];
	uint32_t p, b;

	for (p = 0; p < c->s->pcs; p++) {
		for (b = 0; b < c->s->banks; b++) {
			size_t i = (size_t)p * c->s->banks + b;

			snprintf(name, sizeof name, "%s.pc%u.b%u.bursts", prefix, p, b);
			stats_counter(st, name, "bursts read or written in this bank",
				      &c->st.bank_bursts[i]);
			snprintf(name, sizeof name, "%s.pc%u.b%u.acts", prefix, p, b);
			stats_counter(st, name, "rows activated in this bank", &c->st.bank_acts[i]);
		}
	}
}

void dram_chan_destroy(struct dram_chan *c)
{
	uint32_t p;
	int k;

	if (c == NULL)
		return;
	for (p = 0; p < c->s->pcs; p++) {
		free(c->pcs[p].banks);
		free(c->pcs[p].bg_next);
	}
	for (k = 0; k < DRAM_CMD_COUNT; k++)
		free(c->xr[k]);
	free(c->st.bank_bursts);
	free(c->st.bank_acts);
	free(c->bank_bg);
	free(c->pcs);
	free(c);
}

void dram_chan_set_hook(struct dram_chan *c, dram_cmd_hook *fn, void *ctx)
{
	c->hook = fn;
	c->hook_ctx = ctx;
}

const struct dram_chan_stats *dram_chan_stats(const struct dram_chan *c)
{
	return &c->st;
}

static struct bank *bank_of(const struct dram_chan *c, const struct dram_addr *a)
{
	SIM_ASSERT(a->pc < c->s->pcs && a->bg < c->s->bank_groups &&
		   a->ba < c->s->banks_per_group);
	return &c->pcs[a->pc].banks[dram_bank_index(c->s, a)];
}

uint32_t dram_open_row(const struct dram_chan *c, const struct dram_addr *a)
{
	return bank_of(c, a)->row;
}

uint32_t dram_open_row_at(const struct dram_chan *c, uint32_t pc, uint32_t bank)
{
	return c->pcs[pc].banks[bank].row;
}

uint32_t dram_open_banks(const struct dram_chan *c, uint32_t pc)
{
	return c->pcs[pc].open_banks;
}

enum dram_cmd dram_needed(const struct dram_chan *c, const struct dram_addr *a, bool is_write)
{
	uint32_t row = bank_of(c, a)->row;

	if (row == a->row)
		return is_write ? DRAM_CMD_WR : DRAM_CMD_RD;
	return row == DRAM_ROW_NONE ? DRAM_CMD_ACT : DRAM_CMD_PRE;
}

cycle_t dram_bus_free(const struct dram_chan *c, enum dram_cmd cmd)
{
	if (c->s->separate_row_bus && !dram_cmd_is_row(cmd))
		return c->col_bus_free;
	return c->row_bus_free;
}

static cycle_t max_c(cycle_t a, cycle_t b)
{
	return a > b ? a : b;
}

#define CMD_BIT(c) (1u << DRAM_CMD_##c)
/* The commands (not REFab) a bank allows: [0] closed, [1] open at another row than asked,
 * [2] open at the row asked. */
static const uint32_t allowed_in_state[3] = {
	CMD_BIT(ACT) | CMD_BIT(REFPB),
	CMD_BIT(PRE),
	CMD_BIT(PRE) | CMD_BIT(RD) | CMD_BIT(WR) | CMD_BIT(RDA) | CMD_BIT(WRA),
};

/* Whether the state of bank bk forbids cmd (not REFab; row: a column command's row): ACT and
 * REFpb need it closed, PRE open, column commands open at row. A table lookup, not a branch (the
 * command asked about is as good as random). */
static inline bool state_forbids(const struct bank *bk, enum dram_cmd cmd, uint32_t row)
{
	unsigned open = bk->row != DRAM_ROW_NONE;
	unsigned hit = (bk->row == row) & (row != DRAM_ROW_NONE);

	return !((allowed_in_state[open + hit] >> cmd) & 1);
}

/* The earliest cycle of cmd (not REFab) to bank `bank` of bank group bg in pseudo-channel pcx
 * (row: a column command's row): the bank's own bound, the pseudo-channel's and the bank
 * group's, the activate windows, the command bus. */
static inline cycle_t bank_earliest(const struct dram_chan *c, enum dram_cmd cmd, uint32_t pcx,
				    uint32_t bank, uint32_t bg, uint32_t row)
{
	const struct pchan *pc = &c->pcs[pcx];
	const struct bank *bk = &pc->banks[bank];
	cycle_t t;

	if (state_forbids(bk, cmd, row))
		return CYCLE_NEVER;
	t = max_c(bk->next[cmd], pc->next[cmd]);
	t = max_c(t, pc->bg_next[bg * DRAM_CMD_COUNT + cmd]);
	t = max_c(t, pc->act_win & -(cycle_t)(cmd == DRAM_CMD_ACT)); /* ACT only, no branch */
	return max_c(t, dram_bus_free(c, cmd));
}

/* What the activate windows allow an ACT of pseudo-channel pc: 0 until a window has filled. */
static cycle_t act_window(const struct dram_spec *s, const struct pchan *pc)
{
	cycle_t t = 0;

	if (pc->faw[pc->faw_idx] != CYCLE_NEVER)
		t = pc->faw[pc->faw_idx] + s->t[DRAM_T_FAW];
	if (s->t[DRAM_T_32AW] != 0 && pc->aw32[pc->aw32_idx] != CYCLE_NEVER)
		t = max_c(t, pc->aw32[pc->aw32_idx] + s->t[DRAM_T_32AW]);
	return t;
}

cycle_t dram_earliest(const struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a)
{
	const struct dram_spec *s = c->s;
	const struct pchan *pc = &c->pcs[a->pc];
	cycle_t t;
	uint32_t b, g;

	if (cmd != DRAM_CMD_REFAB) {
		(void)bank_of(c, a); /* checks the address */
		return bank_earliest(c, cmd, a->pc, dram_bank_index(s, a), a->bg, a->row);
	}
	if (pc->open_banks != 0)
		return CYCLE_NEVER;
	t = pc->next[cmd];
	for (b = 0; b < s->banks; b++)
		t = max_c(t, pc->banks[b].next[cmd]);
	for (g = 0; g < s->bank_groups; g++)
		t = max_c(t, pc->bg_next[g * DRAM_CMD_COUNT + cmd]);
	return max_c(t, dram_bus_free(c, cmd));
}

cycle_t dram_earliest_bank(const struct dram_chan *c, enum dram_cmd cmd, uint32_t pc,
			   uint32_t bank, uint32_t row)
{
	SIM_ASSERT(cmd != DRAM_CMD_REFAB && pc < c->s->pcs && bank < c->s->banks);
	return bank_earliest(c, cmd, pc, bank, c->bank_bg[bank], row);
}

cycle_t dram_act_bank_bound(const struct dram_chan *c, const struct dram_addr *a)
{
	return max_c(bank_of(c, a)->next[DRAM_CMD_ACT], dram_bus_free(c, DRAM_CMD_ACT));
}

static void raise(cycle_t *slot, cycle_t v)
{
	*slot = v > *slot ? v : *slot; /* no branch: which way it goes varies */
}

cycle_t dram_own_bound(const struct dram_chan *c, enum dram_cmd cmd, uint32_t pc, uint32_t bank,
		       uint32_t row)
{
	const struct bank *bk;

	SIM_ASSERT(cmd != DRAM_CMD_REFAB && pc < c->s->pcs && bank < c->s->banks);
	bk = &c->pcs[pc].banks[bank];
	return state_forbids(bk, cmd, row) ? CYCLE_NEVER : bk->next[cmd];
}

void dram_bounds(const struct dram_chan *c, uint32_t pc, struct dram_bounds *b)
{
	SIM_ASSERT(pc < c->s->pcs);
	b->pc_next = c->pcs[pc].next;
	b->bg_next = c->pcs[pc].bg_next;
	b->act_window = &c->pcs[pc].act_win;
	b->row_bus = &c->row_bus_free;
	b->col_bus = c->s->separate_row_bus ? &c->col_bus_free : &c->row_bus_free;
	b->bank_bg = c->bank_bg;
}

/* The implied precharge of RDA/WRA: not before tRAS after the ACT. Its tRP then bounds ACT and
 * refresh of the bank. */
static void auto_precharge(const struct dram_chan *c, struct bank *bk, cycle_t pre_at)
{
	const struct dram_spec *s = c->s;
	cycle_t ready;

	pre_at = max_c(pre_at, bk->act_at + s->t[DRAM_T_RAS]);
	ready = pre_at + s->t[DRAM_T_RP];
	raise(&bk->next[DRAM_CMD_ACT], ready);
	raise(&bk->next[DRAM_CMD_REFPB], ready);
	raise(&bk->next[DRAM_CMD_REFAB], ready);
}

cycle_t dram_issue(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a,
		   cycle_t now)
{
	const struct dram_spec *s = c->s;
	struct pchan *pc = &c->pcs[a->pc];
	struct bank *bk = cmd == DRAM_CMD_REFAB ? NULL : bank_of(c, a);
	const struct xrule *x = c->xr[cmd];
	const uint32_t *ns = c->nxr_scope[cmd];
	const uint32_t end_bank = ns[DRAM_SCOPE_BANK], end_bg = end_bank + ns[DRAM_SCOPE_BG];
	cycle_t done = now;
	uint32_t i, b;

	/* Legal now: the bank's state and own bound here, every bound (bank group, channel, bus,
	 * activate windows) in the debug build: the controller only issues what it timed with
	 * them (dram_earliest was a third of dram_issue's instructions, and an idle channel's
	 * refreshes are most of a pointer chase's commands). */
	SIM_ASSERT(bk == NULL ? dram_earliest(c, cmd, a) <= now
			      : !state_forbids(bk, cmd, a->row) && bk->next[cmd] <= now);
#ifdef SIM_DEBUG
	SIM_ASSERT(dram_earliest(c, cmd, a) <= now);
#endif
	SIM_ASSERT(end_bg + ns[DRAM_SCOPE_PC] == c->nxr[cmd]);
	/* the rules by scope (expand_rules sorted them) */
	if (bk != NULL) {
		cycle_t *bg_next = &pc->bg_next[a->bg * DRAM_CMD_COUNT];

		for (i = 0; i < end_bank; i++)
			raise(&bk->next[x[i].next], now + x[i].lat);
		for (; i < end_bg; i++)
			raise(&bg_next[x[i].next], now + x[i].lat);
	} else { /* REFab binds every bank and bank group */
		for (i = 0; i < end_bank; i++)
			for (b = 0; b < s->banks; b++)
				raise(&pc->banks[b].next[x[i].next], now + x[i].lat);
		for (; i < end_bg; i++)
			for (b = 0; b < s->bank_groups; b++)
				raise(&pc->bg_next[b * DRAM_CMD_COUNT + x[i].next], now + x[i].lat);
	}
	for (; i < c->nxr[cmd]; i++)
		raise(&pc->next[x[i].next], now + x[i].lat);
	switch (cmd) {
	case DRAM_CMD_ACT:
		bk->row = a->row;
		bk->act_at = now;
		pc->open_banks++;
		pc->faw[pc->faw_idx] = now;
		pc->faw_idx = (pc->faw_idx + 1) % FAW_ACTS;
		pc->aw32[pc->aw32_idx] = now;
		pc->aw32_idx = (pc->aw32_idx + 1) % AW32_ACTS;
		pc->act_win = act_window(s, pc); /* the windows moved */
		break;
	case DRAM_CMD_PRE:
		bk->row = DRAM_ROW_NONE;
		pc->open_banks--;
		break;
	case DRAM_CMD_RD:
		done = now + s->t[DRAM_T_CL] + s->burst_cycles;
		break;
	case DRAM_CMD_WR:
		done = now + s->t[DRAM_T_CWL] + s->burst_cycles;
		break;
	case DRAM_CMD_RDA:
		done = now + s->t[DRAM_T_CL] + s->burst_cycles;
		auto_precharge(c, bk, now + s->t[DRAM_T_RTP]);
		bk->row = DRAM_ROW_NONE;
		pc->open_banks--;
		break;
	case DRAM_CMD_WRA:
		done = now + s->t[DRAM_T_CWL] + s->burst_cycles;
		auto_precharge(c, bk, done + s->t[DRAM_T_WR]);
		bk->row = DRAM_ROW_NONE;
		pc->open_banks--;
		break;
	default: /* refresh: banks stay closed */
		break;
	}
	if (dram_cmd_is_row(cmd) || !s->separate_row_bus)
		c->row_bus_free = now + (cmd == DRAM_CMD_ACT ? s->act_cmd_cycles : 1);
	else
		c->col_bus_free = now + 1;
	c->st.cmds[cmd]++;
	if (!dram_cmd_is_row(cmd)) {
		c->st.data_cycles += s->burst_cycles;
		c->st.bank_bursts[(size_t)a->pc * s->banks + dram_bank_index(s, a)]++;
	} else if (cmd == DRAM_CMD_ACT) {
		c->st.bank_acts[(size_t)a->pc * s->banks + dram_bank_index(s, a)]++;
	}
	if (c->hook != NULL)
		c->hook(c->hook_ctx, c->id, cmd, a, now);
#ifdef SIM_DEBUG
	dram_chan_check(c);
#endif
	return done;
}

void dram_chan_dump(const struct dram_chan *c, FILE *out)
{
	uint32_t p, b;

	for (p = 0; p < c->s->pcs; p++) {
		const struct pchan *pc = &c->pcs[p];

		fprintf(out, "  dram ch%u pc%u: %u open banks", c->id, p, pc->open_banks);
		for (b = 0; b < c->s->banks; b++)
			if (pc->banks[b].row != DRAM_ROW_NONE)
				fprintf(out, " b%u:r%u", b, pc->banks[b].row);
		fputc('\n', out);
	}
}

void dram_chan_check(const struct dram_chan *c)
{
	uint32_t p, b, open;

	for (p = 0; p < c->s->pcs; p++) {
		const struct pchan *pc = &c->pcs[p];

		for (open = 0, b = 0; b < c->s->banks; b++)
			open += pc->banks[b].row != DRAM_ROW_NONE;
		SIM_ASSERT(open == pc->open_banks);
		SIM_ASSERT(pc->faw_idx < FAW_ACTS && pc->aw32_idx < AW32_ACTS);
		SIM_ASSERT(pc->act_win == act_window(c->s, pc));
	}
}
