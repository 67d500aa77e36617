/*
 * mc.c - the memory controller of one channel (contract in mc.h).
 *
 * Queues. Every access gets an entry from a pool sized at creation (read_queue + write_queue +
 * room for ECC write-backs); entries sit in a per-bank FIFO, reads and writes apart, so that a
 * scheduling pass looks at banks, not at every queued access. ECC write-backs are not bounded
 * by the queues (an ECC line can be dirtied and evicted again before its last write-back
 * drained), so when the pool runs dry it grows by a chunk (rarely; never per access). A
 * write-back is queued prepared: it never waits for an entry (prepare_cands) as an access
 * whose ECC-cache eviction needs one does.
 *
 * One pass (mc_tick), at most once per DRAM cycle and only when something can happen:
 *   0. take the accesses the requesters sent on the input link (take_input);
 *   1. hand back accesses whose data transfer has ended (two FIFOs: reads complete in issue order
 *      since CL is fixed, writes likewise with CWL);
 *   2. refresh bookkeeping: each interval adds one owed refresh; a bank (per-bank mode) or
 *      pseudo-channel (all-bank) with refresh owed and no work, or with mc.refresh_postpone owed,
 *      is "held": no new ACT, precharged once its row hits are served (at once if forced), then
 *      refreshed;
 *   3. write drain: writes are served from write_high down to write_low, or when no read waits;
 *   4. candidates: per bank with work, the command its request needs next (a row hit's column
 *      command - under fcfs only when the bank's oldest access is that hit; ACT on a closed
 *      bank; PRE on a conflict or when the row-hit cap is reached) and
 *      the cycle dram_earliest allows it; the policy (mc_sched.c) picks among the ready ones, once
 *      for each command bus. A bank's candidate is kept between passes with its own bound
 *      (dram_own_bound: it moves only with commands to the bank, and REFab, which clear it); a
 *      pass skips the bank while the cycle last computed for it is in the future (commands only
 *      raise bounds, so that cycle is a lower bound) and then times it exactly from its own bound
 *      and the device's shared bounds, read in place (dram_bounds), without asking the device;
 *   5. sleep until the earliest cycle any candidate, completion or refresh deadline needs.
 * A pass that issued sleeps past the next cycle when it can tell that nothing could issue then
 * (after_issue: its candidates timed again after the commands, the banks served given their
 * next ones); a pass before that cycle only completes, or, when accesses arrived, times their
 * banks alone (arrivals_only). Only with one command bus and no inline ECC (m->lookahead); the
 * debug build checks both.
 *
 * Idle refresh (mc_set_lazy_refresh). A controller with nothing queued, in flight or sent to it
 * would still wake at every refresh deadline: on an idle GPU that was most of the events (a
 * pointer chase spent 82% of its events there). Instead it records the cycle of its next pass
 * (lazy_next) and sleeps without a wake; when an access comes (mc_tick, or mc_enqueue before it
 * queues it) or mc_settle is called, it first makes the passes it skipped, each at its own
 * cycle (catch_up: the same pass function, so the same PRE and REF commands at the same cycles,
 * the same counters and waterfall). Nothing else reads or changes an idle controller's state
 * meanwhile: an access sent through a port waits on the input link until the tick that catches
 * up, and a pass never looks at the link's contents. test_mc compares the two command by command.
 *
 * Page policy: open keeps rows open until a conflict; closed issues RDA/WRA unless another queued
 * access hits the row; adaptive issues RDA/WRA only when no queued access hits the row and one to
 * another row of the bank waits.
 *
 * Inline ECC (GDDR6): ECC burst of data column c is column data_cols + c / 16 of the same row
 * (2 B of ECC per 32 B burst). Before its own column command an access may need column reads of
 * the same row: the old data (a partial write's read-modify-write) and the ECC burst (on an ECC
 * cache miss of a read or partial write). A full write needs neither: its ECC bytes come from its
 * own data and are merged into the ECC cache (a miss installs the entry without a read; its
 * write-back is a masked write of the bytes held). A write that follows a read of its own row
 * waits for that read's data. Dirty ECC bursts evicted from the ECC cache become internal
 * writes.
 *
 * Waterfall: each burst's data starts at some cycle d; the data bus of its pseudo-channel was free
 * since f. The gap d - f is split into idle (no access was queued for the pseudo-channel) and one
 * cause taken from the access's history (refresh, activate window, row miss/conflict,
 * read/write turnaround, else "other"), so the categories add up to the elapsed time exactly.
 *
 * Not modelled: read-after-write forwarding from the write queue, BLISS-style fairness, refresh
 * pull-in (refreshing ahead of time when idle), temperature-dependent refresh rates.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bulk.h"
#include "clock.h"
#include "link.h"
#include "log.h"
#include "mc.h"
#include "mc_sched.h"

#define ECC_DATA_PER_BURST 16 /* 2 B of ECC per 32 B: one ECC burst covers 16 data bursts */
#define PRE_RMW 1u            /* the old data of a partial write */
#define PRE_ECC 2u            /* the ECC burst */

static const char *const page_names[] = { "open", "closed", "adaptive", NULL };
static const char *const refresh_names[] = { "per_bank", "all_bank", "off", NULL };
static const char *const ecc_names[] = { "off", "sideband", "inline", NULL };

#define P struct mc_params
const struct cfg_field mc_fields[] = {
	CFG_ENUM_FIELD(P, scheduler, mc_sched_names, "\"frfcfs\"",
		       "scheduling policy: frfcfs (row hits first, then oldest) or fcfs"),
	CFG_U32_FIELD(P, read_queue, 1, 4096, "128", "read queue entries per channel"),
	CFG_U32_FIELD(P, write_queue, 1, 4096, "128", "write queue entries per channel"),
	CFG_U32_FIELD(P, write_high, 1, 4096, "96",
		      "start draining writes when this many are queued"),
	CFG_U32_FIELD(P, write_low, 0, 4096, "32", "stop draining writes at this many"),
	CFG_U32_FIELD(P, row_hit_cap, 0, 1024, "16",
		      "row hits served while an older access to another row of the bank waits; "
		      "0 = no cap"),
	CFG_ENUM_FIELD(P, page_policy, page_names, "\"open\"",
		       "open: rows stay open; closed: auto-precharge unless a queued access hits; "
		       "adaptive: auto-precharge when a conflict waits and no hit does"),
	CFG_U32_FIELD(P, accept_per_cycle, 0, 1024, "0",
		      "accesses accepted per DRAM cycle; 0 = as many as the queues hold"),
	CFG_ENUM_FIELD(P, refresh, refresh_names, "\"per_bank\"",
		       "per_bank (REFpb, banks in turn), all_bank (REFab) or off"),
	CFG_U32_FIELD(P, refresh_postpone, 1, 8, "8",
		      "refreshes that may be owed before the bank is forced to refresh"),
	CFG_ENUM_FIELD(P, ecc, ecc_names, "\"off\"",
		       "off; sideband (HBM: no time or capacity cost); inline (GDDR6: 1/16 of "
		       "each row, extra column accesses)"),
	CFG_U32_FIELD(P, ecc_cache_entries, 1, 1024, "32",
		      "inline ECC: ECC bursts cached at the controller"),
};
#undef P
const size_t mc_nfields = sizeof mc_fields / sizeof mc_fields[0];

static cycle_t max_cycle(cycle_t a, cycle_t b)
{
	return a > b ? a : b;
}

/* A bank's longest row cycle for one access (a read: ACT, RD, PRE; a write: ACT, WR, PRE) must
 * fit between two refreshes of the bank: a forced refresh precharges an open bank at once, so
 * an access whose row cycle is longer than the time refresh leaves a bank could be cut short
 * for ever (the run ends at the watchdog). So must its ACT to ACT cycle, tRC: an ACT that waits
 * longer than that for the bank's last one finds refreshes owed again and the bank held (an
 * nRC of 4096 with an nREFI of 512 stopped random runs; bench/diff_builds.py --timings). Real
 * parts leave thousands of cycles for row cycles of under a hundred; only timings far off (an
 * nRCDWR or nRC of 4096, an nREFI of 256) fail. */
static int refresh_window_check(const struct mc_params *p, const struct dram_spec *s,
				struct sim_err *err)
{
	const uint32_t *t = s->t;
	cycle_t rd = max_cycle(t[DRAM_T_RAS], (cycle_t)t[DRAM_T_RCDRD] + t[DRAM_T_RTP]) +
		     t[DRAM_T_RP];
	cycle_t wr = max_cycle(t[DRAM_T_RAS], (cycle_t)t[DRAM_T_RCDWR] + t[DRAM_T_CWL] +
						  s->burst_cycles + t[DRAM_T_WR]) + t[DRAM_T_RP];
	const char *how = p->refresh == MC_REFRESH_ALL_BANK ? "tREFI - tRFC"
							     : "tREFIpb x banks - tRFCpb";
	cycle_t window;

	if (p->refresh == MC_REFRESH_OFF)
		return 0;
	/* dram_spec_resolve checked that refresh leaves some time: tREFI > tRFC, tREFIpb x
	 * banks > tRFCpb */
	window = p->refresh == MC_REFRESH_ALL_BANK
			 ? (cycle_t)t[DRAM_T_REFI] - t[DRAM_T_RFC]
			 : (cycle_t)t[DRAM_T_REFIPB] * s->banks - t[DRAM_T_RFCPB];
	if (max_cycle(rd, wr) > window)
		return sim_err_set(err, NULL, 0, "dram.timing: a %s's row cycle (%" PRIu64 " cycles: "
				   "ACT, %s, PRE, tRP) does not fit between two refreshes of its bank "
				   "(%" PRIu64 " cycles: %s with mc.refresh = \"%s\")",
				   wr > rd ? "write" : "read", (uint64_t)max_cycle(rd, wr),
				   wr > rd ? "WR" : "RD", (uint64_t)window, how,
				   refresh_names[p->refresh]);
	/* (a tRC above tRAS + tRP: the row cycles fit, not the ACT to ACT one) */
	if (t[DRAM_T_RC] > window)
		return sim_err_set(err, NULL, 0, "dram.timing.nRC: a bank's ACT to ACT cycle (tRC, "
				   "%u cycles) does not fit between two refreshes of the bank "
				   "(%" PRIu64 " cycles: %s with mc.refresh = \"%s\")",
				   t[DRAM_T_RC], (uint64_t)window, how, refresh_names[p->refresh]);
	return 0;
}

int mc_params_check(const struct mc_params *p, const struct dram_spec *s, struct sim_err *err)
{
	if (p->write_high > p->write_queue)
		return sim_err_set(err, NULL, 0, "mc.write_high: %u exceeds mc.write_queue (%u)",
				   p->write_high, p->write_queue);
	if (p->write_low >= p->write_high)
		return sim_err_set(err, NULL, 0, "mc.write_low: %u must be below mc.write_high (%u)",
				   p->write_low, p->write_high);
	if (p->ecc == MC_ECC_INLINE && s->std != DRAM_STD_GDDR6)
		return sim_err_set(err, NULL, 0, "mc.ecc: inline ECC is modelled for GDDR6; %s "
				   "carries ECC sideband (use \"sideband\")", s->std_name);
	if (p->ecc == MC_ECC_SIDEBAND && s->std == DRAM_STD_GDDR6)
		return sim_err_set(err, NULL, 0, "mc.ecc: GDDR6 has no sideband ECC pins; use "
				   "\"inline\" or \"off\"");
	return refresh_window_check(p, s, err);
}

uint32_t mc_data_bursts_per_row(const struct mc_params *p, const struct dram_spec *s)
{
	uint32_t n = s->bursts_per_row;

	if (p->ecc != MC_ECC_INLINE)
		return n;
	/* 15/16 for data; the ECC of data column c sits at n_data + c / 16. */
	return n - (n + ECC_DATA_PER_BURST) / (ECC_DATA_PER_BURST + 1);
}

void mc_map_geom(const struct mc_params *p, const struct dram_spec *s, uint32_t channels,
		 struct addrmap_geom *g)
{
	g->channels = channels;
	g->pcs = s->pcs;
	g->bank_groups = s->bank_groups;
	g->banks_per_group = s->banks_per_group;
	g->rows = s->rows;
	g->bursts_per_row = mc_data_bursts_per_row(p, s);
	g->burst_bytes = s->burst_bytes;
}

/* ---------------------------------------------------------------------------------------------
 * State
 */

struct ent {
	struct mc_access a;
	uint64_t seq;
	cycle_t arrival;
	cycle_t not_before;   /* a write after its read-modify-write read: the read's data */
	cycle_t done;         /* data end of the latest burst issued for it */
	cycle_t issued;       /* its own column command (RD/WR) */
	uint32_t bank;        /* flat bank index in its pseudo-channel */
	uint8_t pre_ops;      /* PRE_RMW | PRE_ECC still to issue */
	bool internal;        /* an ECC write-back: not the requester's */
	bool counted;         /* row hit / miss / conflict counted */
	bool needed_row;      /* an ACT or PRE was issued for it */
	bool prepared;        /* inline ECC pre-ops decided */
	bool act_window;      /* its ACT waited for tFAW, t32AW or tRRD */
	struct ent *next;
};

struct fifo {
	struct ent *head, *tail;
	uint32_t n;
};

/* bankq.lb_dir: no cached candidate, or one for reads or for writes (one compare tells whether
 * it serves the direction of a pass). */
#define LB_NONE 0
#define LB_DIR(writes) ((writes) ? 2 : 1)

struct bankq {
	struct fifo rd, wr;
	uint32_t hits;        /* column commands since the last ACT */
	/* The bank's candidate from the last pass. It stays the right one until the bank's own
	 * queue or state changes (then lb_dir is cleared), and so does its own bound (the
	 * device's, and for an access's own column command the old data it waits for): a pass
	 * times it exactly from own and the device's shared bounds (bq_time), without asking. */
	struct mc_cand cand;
	cycle_t own;
	/* the device's shared bounds of cand.cmd, read in place: the pseudo-channel's, the bank
	 * group's, the activate windows' (not an ACT: a 0), the command bus's */
	const cycle_t *shared[4];
	uint8_t lb_dir;       /* LB_NONE, or the direction it was computed for: LB_DIR(writes) */
};

struct pcq {
	struct bankq *banks;
	/* bound[w][b]: bank b's cached candidate's earliest cycle, as last timed, if it is valid
	 * for direction w (writes), else 0. A lower bound of its earliest cycle, since commands
	 * only raise the device's bounds; packed so that a pass skips the banks whose bound is
	 * still in the future without touching them (bq_set, bq_retime, bq_clear keep it). A
	 * bank with nothing queued in direction w has bound 0 there (the command that took its
	 * last access cleared it), never a future cycle: a scan of every bank's bound finds the
	 * soonest of the banks with work without looking at which banks have work. */
	cycle_t *bound[2];
	struct dram_bounds db; /* the device's shared bounds, read in place */
	uint64_t work_rd;     /* bit b: bank b has queued reads */
	uint64_t work_wr;     /* bit b: bank b has queued writes */
	uint64_t held_mask;   /* bit b: bank b is held for refresh */
	uint32_t owed;        /* refreshes owed */
	cycle_t ref_due;      /* cycle the next refresh falls due */
	uint32_t ref_bank;    /* per-bank: the bank whose turn it is */
	cycle_t last_ref;     /* cycle of the last refresh command */
	uint32_t pending;     /* queued entries */
	cycle_t busy_since;   /* when pending last went from 0 to 1 */
	cycle_t bus_free;     /* data bus free from */
	bool last_write;      /* direction of the last column command */
	/* the look-ahead's (m->lookahead), after the fields every pass reads */
	uint64_t stood;       /* bit b: bank b's cached candidate stood in the last pass */
	uint64_t arrived;     /* bit b: an access was queued at bank b since the last scheduling */
};

struct ecc_line {
	uint64_t key;         /* (pc, bank, row, ecc column) + 1; 0 = empty */
	uint64_t used;
	uint16_t valid;       /* data bursts whose ECC bytes the entry holds (read or written) */
	bool dirty;
};

struct mc_stats {
	uint64_t reads, writes;             /* accesses completed */
	uint64_t row_hits, row_misses, row_conflicts;
	uint64_t refreshes, refresh_bank_cycles, refresh_forced;
	uint64_t ecc_reads, ecc_writes, rmw_reads, ecc_hits, ecc_misses;
	uint64_t drains, cap_preempts;
	uint64_t read_wait_cycles, read_service_cycles;
	struct stat_level rq, wq;
};

/* mc_port_send: ports refused for lack of entries wait in a FIFO line; entries that free are
 * granted to the head of the line (and its sender woken), and a granted port's next send is
 * accepted. state[port] is WAIT_NONE, WAIT_LINE or WAIT_GRANTED; ring holds up to nports. */
enum { WAIT_NONE, WAIT_LINE, WAIT_GRANTED };
struct mc_waiters {
	uint32_t *ring;       /* the line, oldest first */
	uint8_t *state;
	uint32_t cap, head, n, granted;
};

/* A requester on links (mc_port_add). */
struct mc_port {
	struct clock_unit *sender;  /* woken when the port is granted an entry */
	struct link *done;          /* read completions: the access's ctx */
	uint64_t *line_word;        /* mc_port_watch: bit line_bit set while the port is in line */
	uint64_t line_bit;
	/* the map's last chunk this port sent: a slice sends its accesses to a channel in order,
	 * a line's sectors one after another (among other slices' on a busy controller) */
	struct addrmap_memo memo;
};

struct mc {
	const struct mc_params *p;
	const struct dram_spec *s;
	const struct mc_sched_ops *sched;
	uint32_t ch;
	struct dram_chan *dram;
	struct clock *clk;
	struct clock_unit *unit;
	struct clock_unit *producer;
	bool producer_waiting;
	uint64_t room_gen;                  /* entries freed so far (mc_room_gen) */
	/* requesters on links: the input link, the ports, admission, the address map */
	struct link *in;                    /* sent accesses (struct ent), latency 1 */
	struct mc_port *ports;
	uint32_t nports;
	struct mc_waiters waiters[2];       /* mc_port_send: [is_write] */
	uint32_t reserved[2];               /* entries of accesses still on `in`: [is_write] */
	uint32_t req_pending;               /* requesters' accesses not yet completed */
	struct addrmap *map;                /* mc_set_map */
	uint32_t part_shift, part_ports;    /* partition map: chunk size (log2), ports */
	struct mc_shared *shared;           /* read latency distribution, injected fault */
	bool lazy_refresh;                  /* mc_set_lazy_refresh */
	cycle_t lazy_next;                  /* idle: the next pass skipped (CYCLE_NEVER: none) */
	cycle_t sched_next;                 /* mc_pass: when its scheduling is due again */
	bool queued;                        /* an access was queued since the last scheduling */
	bool served_writes;                 /* the direction the last scheduling served */
	bool lookahead;                     /* after_issue and arrivals_only apply (see there) */
	mc_done_fn *done_fn;
	void *done_ctx;
	struct ent *pool, *free;
	struct ent **chunks;                /* grown when ECC write-backs outnumber the pool */
	uint32_t nchunks;
	struct pcq *pcs;
	struct fifo rd_done, wr_done;       /* issued, data not yet complete */
	uint32_t nreads, nwrites, internal; /* queued (not issued) */
	uint32_t inflight;
	uint64_t seq;
	bool draining;
	cycle_t accept_cycle;
	uint32_t accepted;
	uint32_t data_cols;
	struct ecc_line *ecc;
	uint64_t ecc_clock;
	struct mc_cand *cands;
	size_t ncands_max;
	/* One command bus and no pre-ops to decide (single_issue): the gather picks as it goes,
	 * and the list holds the held banks' candidates only. */
	bool pick_in_gather;
#ifdef SIM_DEBUG
	struct mc_cand *dbg_cands;          /* every candidate of the pass, for the check */
	size_t dbg_n;
#endif
	struct mc_waterfall wf;
	struct mc_stats st;
};

static void mc_tick(void *self, cycle_t now);
static void catch_up(struct mc *m, cycle_t until);

/* ---------------------------------------------------------------------------------------------
 * FIFOs
 */

static void fifo_push(struct fifo *f, struct ent *e)
{
	e->next = NULL;
	if (f->tail != NULL)
		f->tail->next = e;
	else
		f->head = e;
	f->tail = e;
	f->n++;
}

static void fifo_remove(struct fifo *f, struct ent *e)
{
	struct ent **pp = &f->head, *prev = NULL;

	while (*pp != e) {
		SIM_ASSERT(*pp != NULL);
		prev = *pp;
		pp = &(*pp)->next;
	}
	*pp = e->next;
	if (f->tail == e)
		f->tail = prev;
	f->n--;
}

static struct ent *fifo_pop(struct fifo *f)
{
	struct ent *e = f->head;

	f->head = e->next;
	if (f->head == NULL)
		f->tail = NULL;
	f->n--;
	return e;
}

/* ---------------------------------------------------------------------------------------------
 * Creation
 */

static void register_stats(struct mc *m, struct stats *st, const char *prefix)
{
	static const struct stats_counter_def counters[] = {
#define C(f, d) STATS_COUNTER_DEF(struct mc_stats, f, d)
		C(reads, "read accesses completed (32 B each)"),
		C(writes, "write accesses completed (32 B each)"),
		C(row_hits, "accesses whose row was open"),
		C(row_misses, "accesses to a closed bank (ACT)"),
		C(row_conflicts, "accesses to a bank with another row open (PRE + ACT)"),
		C(refreshes, "refresh commands (REFab and REFpb)"),
		C(refresh_bank_cycles, "bank-cycles spent refreshing"),
		C(refresh_forced, "refreshes issued because the postponement limit was reached"),
		C(ecc_reads, "inline ECC: ECC bursts read"),
		C(ecc_writes, "inline ECC: ECC bursts written back"),
		C(rmw_reads, "inline ECC: reads for partial-write read-modify-write"),
		C(ecc_hits, "inline ECC: ECC cache hits"),
		C(ecc_misses, "inline ECC: ECC cache misses"),
		C(drains, "write drains started at the high watermark"),
		C(cap_preempts, "row closed by the row-hit cap"),
		C(read_wait_cycles, "reads, summed: arrival to their RD command (queueing, PRE, ACT)"),
		C(read_service_cycles, "reads, summed: RD command to the end of the data (CL + burst)"),
#undef C
	};
	char name[256];

	stats_counters(st, prefix, &m->st, counters, sizeof counters / sizeof counters[0]);
	snprintf(name, sizeof name, "%s.read_queue", prefix);
	stats_level(st, name, "reads queued", &m->st.rq);
	snprintf(name, sizeof name, "%s.write_queue", prefix);
	stats_level(st, name, "writes queued", &m->st.wq);
}

/* One command bus (a pass issues at most one command: the policy's pick among the ready
 * candidates) and no pre-ops to decide (inline ECC: a candidate may wait for them). There the
 * look-ahead applies (m->lookahead; not with a row command bus of its own, HBM, where the pass
 * after a command issues in four of five cases and the look-ahead cost 1-5% more instructions
 * for nothing), and the gather picks as it meets the candidates (m->pick_in_gather: the ready
 * banks' cached candidates are not copied into a list to be picked from in a second loop;
 * GDDR6's sequential reads have 10.4 a pass). */
static bool single_issue(const struct mc *m)
{
	return m->p->ecc != MC_ECC_INLINE && !m->s->separate_row_bus;
}

struct mc *mc_create(const struct mc_params *p, const struct dram_spec *s, uint32_t ch,
		     struct clock *clk, mc_done_fn *done, void *done_ctx, struct stats *st,
		     const char *prefix)
{
	struct mc *m = xcalloc(1, sizeof *m);
	uint32_t i, n;
	char name[64];

	m->p = p;
	m->s = s;
	m->sched = mc_sched_get(p->scheduler);
	SIM_ASSERT(m->sched != NULL);
	m->ch = ch;
	m->dram = dram_chan_create(s, ch);
	m->clk = clk;
	snprintf(name, sizeof name, "mc%u", ch);
	m->unit = clock_attach(clk, name, mc_tick, m);
	m->done_fn = done;
	m->done_ctx = done_ctx;
	m->lazy_next = CYCLE_NEVER;
	m->lookahead = single_issue(m);
	/* Pool: both queues, plus an ECC write-back per ECC cache line. */
	n = p->read_queue + p->write_queue + (p->ecc == MC_ECC_INLINE ? p->ecc_cache_entries : 0);
	m->pool = bulk_calloc(n, sizeof *m->pool);
	for (i = 0; i < n; i++) {
		m->pool[i].next = m->free;
		m->free = &m->pool[i];
	}
	m->pcs = xcalloc(s->pcs, sizeof *m->pcs);
	for (i = 0; i < s->pcs; i++) {
		struct pcq *q = &m->pcs[i];

		q->banks = xcalloc(s->banks, sizeof *q->banks);
		q->bound[0] = xcalloc(2 * (size_t)s->banks, sizeof *q->bound[0]);
		q->bound[1] = q->bound[0] + s->banks;
		dram_bounds(m->dram, i, &q->db);
		/* Stagger the channels' refresh so they do not all refresh at once. */
		q->ref_due = (p->refresh == MC_REFRESH_ALL_BANK ? s->t[DRAM_T_REFI]
								 : s->t[DRAM_T_REFIPB]) *
			     (ch * s->pcs + i + 1) / (s->channels * s->pcs);
		if (p->refresh == MC_REFRESH_OFF)
			q->ref_due = CYCLE_NEVER;
	}
	m->data_cols = mc_data_bursts_per_row(p, s);
	if (p->ecc == MC_ECC_INLINE)
		m->ecc = xcalloc(p->ecc_cache_entries, sizeof *m->ecc);
	m->ncands_max = (size_t)s->pcs * (s->banks + 1);
	m->cands = xcalloc(m->ncands_max, sizeof *m->cands);
	m->pick_in_gather = single_issue(m);
#ifdef SIM_DEBUG
	m->dbg_cands = xcalloc(m->ncands_max, sizeof *m->dbg_cands);
#endif
	if (st != NULL) {
		register_stats(m, st, prefix);
		dram_chan_register_stats(m->dram, st, prefix);
	}
	/* Refresh deadlines need the controller even when no access comes. */
	if (p->refresh != MC_REFRESH_OFF)
		clock_wake(m->unit);
	return m;
}

void mc_destroy(struct mc *m)
{
	uint32_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->s->pcs; i++) {
		free(m->pcs[i].banks);
		free(m->pcs[i].bound[0]);
	}
	free(m->pcs);
	bulk_free(m->pool);
	for (i = 0; i < m->nchunks; i++)
		free(m->chunks[i]);
	free(m->chunks);
	free(m->ecc);
	free(m->cands);
#ifdef SIM_DEBUG
	free(m->dbg_cands);
#endif
	for (i = 0; i < 2; i++) {
		free(m->waiters[i].ring);
		free(m->waiters[i].state);
	}
	free(m->ports);
	dram_chan_destroy(m->dram);
	free(m);
}

struct dram_chan *mc_dram(struct mc *m)
{
	return m->dram;
}

void mc_set_producer(struct mc *m, struct clock_unit *producer)
{
	m->producer = producer;
}

uint32_t mc_pending(const struct mc *m)
{
	return m->reserved[0] + m->reserved[1] + m->nreads + m->nwrites + m->internal +
	       m->inflight;
}

uint32_t mc_requests_pending(const struct mc *m)
{
	return m->req_pending;
}

/* ---------------------------------------------------------------------------------------------
 * Accepting
 */

bool mc_has_room(const struct mc *m, bool is_write)
{
	/* Entries stay allocated until their data completes, so count in-flight ones too, and
	 * those of accesses still on the input link. */
	if (is_write)
		return m->reserved[1] + m->nwrites + m->wr_done.n < m->p->write_queue;
	return m->reserved[0] + m->nreads + m->rd_done.n < m->p->read_queue;
}

uint64_t mc_room_gen(const struct mc *m)
{
	return m->room_gen;
}

/* Whether this cycle's port budget (mc.accept_per_cycle) has an access left. */
static bool ports_left(const struct mc *m)
{
	return m->p->accept_per_cycle == 0 || m->accept_cycle != clock_cycle(m->clk) ||
	       m->accepted < m->p->accept_per_cycle;
}

bool mc_can_accept(const struct mc *m, bool is_write)
{
	return ports_left(m) && mc_has_room(m, is_write);
}

#define ENT_CHUNK 64

static struct ent *ent_alloc(struct mc *m)
{
	struct ent *e;
	uint32_t i;

	if (m->free == NULL) {
		struct ent *c = xcalloc(ENT_CHUNK, sizeof *c);

		m->chunks = xreallocarray(m->chunks, m->nchunks + 1, sizeof *m->chunks);
		m->chunks[m->nchunks++] = c;
		for (i = 0; i < ENT_CHUNK; i++) {
			c[i].next = m->free;
			m->free = &c[i];
		}
	}
	e = m->free;
	m->free = e->next;
	memset(e, 0, sizeof *e);
	return e;
}

/* The bank's cached candidate is gone (its queue or state changed). */
static void bq_clear(struct pcq *q, uint32_t bank)
{
	q->banks[bank].lb_dir = LB_NONE;
	q->bound[0][bank] = q->bound[1][bank] = 0;
}

/* The cached candidate of the bank, valid for direction writes, was timed again to cycle t
 * (the other direction's bound stays as bq_set left it). */
static void bq_retime(struct pcq *q, uint32_t bank, bool writes, cycle_t t)
{
	SIM_ASSERT(q->banks[bank].lb_dir == LB_DIR(writes));
	q->banks[bank].cand.earliest = t;
	q->bound[writes][bank] = t;
}

/* The bank's cached candidate (valid for direction writes) was timed to cycle t; the other
 * direction's bound no longer holds. */
static void bq_set(struct pcq *q, uint32_t bank, bool writes, cycle_t t)
{
	SIM_ASSERT((((writes ? q->work_wr : q->work_rd) >> bank) & 1) != 0);
	bq_retime(q, bank, writes, t);
	q->bound[!writes][bank] = 0;
}

/* Queues e at its bank; arrival is the cycle it reached the controller. */
static void queue_ent(struct mc *m, struct ent *e, cycle_t arrival)
{
	struct pcq *q = &m->pcs[e->a.da.pc];
	struct bankq *b = &q->banks[e->bank];
	cycle_t now = arrival;

	e->seq = ++m->seq;
	e->arrival = arrival;
	m->queued = true;
	if (m->lookahead)
		q->arrived |= 1ull << e->bank;
	bq_clear(q, e->bank);
	if (q->pending++ == 0)
		q->busy_since = now;
	if (e->a.is_write) {
		fifo_push(&b->wr, e);
		q->work_wr |= 1ull << e->bank;
		if (e->internal)
			m->internal++;
		else
			m->nwrites++;
	} else {
		fifo_push(&b->rd, e);
		q->work_rd |= 1ull << e->bank;
		m->nreads++;
	}
	stat_level_set(&m->st.rq, m->nreads);
	stat_level_set(&m->st.wq, m->nwrites + m->internal);
}

void mc_enqueue(struct mc *m, const struct mc_access *a)
{
	cycle_t now = clock_cycle(m->clk);
	struct ent *e;

	SIM_ASSERT(mc_can_accept(m, a->is_write));
	SIM_ASSERT(a->da.ch == m->ch && a->da.col < m->data_cols);
	/* the passes an idle controller skipped happened before this access came; from now on
	 * it is awake (clock_wake below) and finds its next pass itself */
	if (m->lazy_next < clock_next_edge(m->clk))
		catch_up(m, clock_next_edge(m->clk) - 1);
	m->lazy_next = CYCLE_NEVER;
	if (m->accept_cycle != now) {
		m->accept_cycle = now;
		m->accepted = 0;
	}
	m->accepted++;
	m->req_pending++;
	e = ent_alloc(m);
	e->a = *a;
	e->bank = dram_bank_index(m->s, &a->da);
	queue_ent(m, e, now);
	clock_wake(m->unit);
}

/* Free entries of a queue kind (in-flight entries and those still on the input link hold
 * theirs). */
static uint32_t free_entries(const struct mc *m, bool is_write)
{
	uint32_t used = is_write ? m->reserved[1] + m->nwrites + m->wr_done.n
				 : m->reserved[0] + m->nreads + m->rd_done.n;
	uint32_t cap = is_write ? m->p->write_queue : m->p->read_queue;

	return used < cap ? cap - used : 0;
}

/* Grants the entries nobody holds to the head of the line, waking each port granted. */
static void grant(struct mc *m, bool is_write)
{
	struct mc_waiters *w = &m->waiters[is_write];
	uint32_t free_n = free_entries(m, is_write);

	while (w->n > 0 && free_n > w->granted) {
		uint32_t port = w->ring[w->head];

		w->state[port] = WAIT_GRANTED;
		w->head = w->head + 1 == w->cap ? 0 : w->head + 1;
		w->n--;
		w->granted++;
		if (m->ports[port].line_word != NULL && m->waiters[!is_write].state[port] != WAIT_LINE)
			*m->ports[port].line_word &= ~m->ports[port].line_bit;
		if (m->ports[port].sender != NULL)
			clock_wake(m->ports[port].sender);
	}
}

void mc_set_input(struct mc *m, struct link *in)
{
	m->in = in;
	link_set_consumer(in, m->unit);
}

uint32_t mc_port_add(struct mc *m, struct clock_unit *sender, struct link *done)
{
	uint32_t i, n = m->nports + 1;

	m->ports = xreallocarray(m->ports, n, sizeof *m->ports);
	m->ports[m->nports].sender = sender;
	m->ports[m->nports].done = done;
	m->ports[m->nports].line_word = NULL;
	m->ports[m->nports].line_bit = 0;
	m->ports[m->nports].memo = (struct addrmap_memo){ 0 };
	for (i = 0; i < 2; i++) {
		struct mc_waiters *w = &m->waiters[i];

		SIM_ASSERT(w->n == 0 && w->granted == 0); /* ports are added before any send */
		w->ring = xreallocarray(w->ring, n, sizeof *w->ring);
		w->state = xreallocarray(w->state, n, sizeof *w->state);
		w->state[m->nports] = WAIT_NONE;
		w->cap = n;
		w->head = 0;
	}
	return m->nports++;
}

void mc_set_map(struct mc *m, struct addrmap *map, uint32_t part_shift, uint32_t part_ports)
{
	uint32_t i;

	m->map = map;
	for (i = 0; i < m->nports; i++)
		m->ports[i].memo = (struct addrmap_memo){ 0 };
	m->part_shift = part_shift;
	m->part_ports = part_ports;
}

void mc_set_shared(struct mc *m, struct mc_shared *shared)
{
	m->shared = shared;
}

void mc_port_decode(struct mc *m, uint32_t port, addr_t addr, struct dram_addr *da)
{
	struct addrmap_memo *memo;

	SIM_ASSERT(port < m->nports);
	memo = &m->ports[port].memo;
	if (m->part_ports == 0) {
		addrmap_decode_memo(m->map, memo, addr, da);
		SIM_ASSERT(da->ch == m->ch);
		return;
	}
	{
		addr_t gran = (addr_t)1 << m->part_shift;

		SIM_ASSERT(port < m->part_ports);
		addrmap_decode_memo(m->map, memo,
				    ((addr >> m->part_shift) * m->part_ports + port) * gran +
					    (addr & (gran - 1)),
				    da);
		da->ch = m->ch;
	}
}

void mc_port_watch(struct mc *m, uint32_t port, uint64_t *word, uint64_t bit)
{
	SIM_ASSERT(port < m->nports && word != NULL && bit != 0);
	SIM_ASSERT(m->waiters[0].state[port] != WAIT_LINE && m->waiters[1].state[port] != WAIT_LINE);
	m->ports[port].line_word = word;
	m->ports[port].line_bit = bit;
	*word &= ~bit;
}

enum mc_send mc_port_send(struct mc *m, uint32_t port, const struct mc_access *a)
{
	struct mc_waiters *w = &m->waiters[a->is_write];
	uint32_t free_n;
	struct ent *e;
	uint8_t st;

	SIM_ASSERT(port < m->nports && m->in != NULL && m->map != NULL);
	st = w->state[port];
	if (st == WAIT_LINE)
		return MC_SEND_WAIT; /* still in line: only a grant (a completion) lets it on */
	free_n = free_entries(m, a->is_write);
	/* Entries free only in complete(), which grants them to the line at once: nothing is
	 * ever left to grant here. */
	SIM_ASSERT(w->n == 0 || free_n <= w->granted);
	if (st != WAIT_GRANTED && (w->n > 0 || free_n <= w->granted)) {
		/* Entries are short and others were refused first: wait in line. */
		if (st == WAIT_NONE) {
			w->ring[w->head + w->n < w->cap ? w->head + w->n : w->head + w->n - w->cap] =
				port;
			w->n++;
			w->state[port] = WAIT_LINE;
			if (m->ports[port].line_word != NULL)
				*m->ports[port].line_word |= m->ports[port].line_bit;
		}
		return MC_SEND_WAIT;
	}
	if (!mc_can_accept(m, a->is_write))
		return MC_SEND_RETRY; /* this cycle's port budget (a grant is kept) */
	if (st == WAIT_GRANTED) {
		w->state[port] = WAIT_NONE;
		w->granted--;
	}
	if (m->accept_cycle != clock_cycle(m->clk)) {
		m->accept_cycle = clock_cycle(m->clk);
		m->accepted = 0;
	}
	m->accepted++;
	m->req_pending++;
	m->reserved[a->is_write]++;
	e = ent_alloc(m);
	e->a = *a;
	e->a.port = port;
	mc_port_decode(m, port, a->addr, &e->a.da);
	SIM_ASSERT(e->a.da.col < m->data_cols);
	e->bank = dram_bank_index(m->s, &e->a.da);
	e->arrival = clock_cycle(m->clk);
	link_push(m->in, e);
	return MC_SEND_OK;
}

/* Takes the accesses that reached the controller off the input link, in the order sent. */
static void take_input(struct mc *m)
{
	struct ent *e;

	while ((e = link_peek(m->in)) != NULL) {
		link_pop(m->in);
		m->reserved[e->a.is_write]--;
		queue_ent(m, e, e->arrival);
	}
}

bool mc_try_enqueue(struct mc *m, const struct mc_access *a)
{
	bool room = mc_has_room(m, a->is_write), ports = ports_left(m);

	if (room && ports) { /* mc_can_accept */
		mc_enqueue(m, a);
		return true;
	}
	/* Out of ports: the producer tries again at its next edge. A timed wake, not clock_wake:
	 * the producer is ticking now and goes to sleep after this refusal, which would cancel a
	 * plain wake (and no completion may come to wake it). */
	if (!ports && m->producer != NULL)
		clock_wake_at(m->producer, 0);
	/* Out of entries (as well): a completion wakes it. Also when the ports ran out too: a
	 * producer that keeps a refused queue's mc_room_gen does not ask again before it changes,
	 * so the completion's wake is the only one it gets (without it, the GDDR6 test config with
	 * accept_per_cycle 1 and 2-entry write queues stopped for good after 0-5 of 200
	 * requests). */
	if (!room)
		m->producer_waiting = true;
	return false;
}

/* ---------------------------------------------------------------------------------------------
 * Inline ECC
 */

static uint32_t ecc_col(const struct mc *m, uint32_t col)
{
	return m->data_cols + col / ECC_DATA_PER_BURST;
}

static uint64_t ecc_key(const struct mc *m, const struct dram_addr *a)
{
	return ((((uint64_t)a->pc * m->s->banks + dram_bank_index(m->s, a)) * m->s->rows + a->row) *
		m->s->bursts_per_row + ecc_col(m, a->col)) + 1;
}

/* Looks the ECC burst of a up for an access (write: a full write, whose ECC bytes are computed
 * from its own data). Returns true when the entry serves it without reading the ECC burst: a
 * read or partial write whose data burst's ECC bytes the entry holds, or any full write, which
 * only sets its ECC bytes (a miss installs the entry without reading it: the write-back is a
 * masked write, GDDR6's WDM/WSM commands, of the bytes written). Otherwise the caller reads the
 * burst (which brings all 16 data bursts' ECC). A miss evicts the least recently used entry,
 * which becomes an internal write if dirty. */
static bool ecc_lookup(struct mc *m, const struct dram_addr *a, bool full_write, cycle_t now)
{
	uint64_t key = ecc_key(m, a);
	uint16_t bit = (uint16_t)(1u << (a->col % ECC_DATA_PER_BURST));
	struct ecc_line *victim = &m->ecc[0];
	uint32_t i;

	for (i = 0; i < m->p->ecc_cache_entries; i++) {
		struct ecc_line *l = &m->ecc[i];

		if (l->key == key) {
			l->used = ++m->ecc_clock;
			if (full_write) {
				l->valid |= bit;
				l->dirty = true;
			} else if ((l->valid & bit) == 0) {
				l->valid = 0xffff; /* read now, with the bytes held merged in */
				m->st.ecc_misses++;
				return false;
			}
			m->st.ecc_hits++;
			return true;
		}
		if (l->key == 0 || (victim->key != 0 && l->used < victim->used))
			victim = l;
	}
	m->st.ecc_misses++;
	if (victim->key != 0 && victim->dirty) {
		/* Write the evicted ECC burst back to its own row. */
		uint64_t k = victim->key - 1;
		struct ent *e = ent_alloc(m);
		struct dram_addr *d = &e->a.da;

		d->ch = m->ch;
		d->col = (uint32_t)(k % m->s->bursts_per_row);
		k /= m->s->bursts_per_row;
		d->row = (uint32_t)(k % m->s->rows);
		k /= m->s->rows;
		e->bank = (uint32_t)(k % m->s->banks);
		d->pc = (uint32_t)(k / m->s->banks);
		d->bg = e->bank / m->s->banks_per_group;
		d->ba = e->bank % m->s->banks_per_group;
		e->a.is_write = true;
		e->internal = true;
		e->prepared = true; /* no pre-ops, and no entry to wait for (prepare_cands) */
		queue_ent(m, e, now);
	}
	victim->key = key;
	victim->used = ++m->ecc_clock;
	victim->dirty = full_write;
	victim->valid = full_write ? bit : 0xffff;
	return full_write;
}

/* ---------------------------------------------------------------------------------------------
 * Completion
 */

/* A requester's access on links completed: a read's data goes back on its port's done link
 * (the access's ctx), unless it is the injected lost read; a write completes silently. */
static void port_done(struct mc *m, const struct ent *e)
{
	struct mc_shared *sh = m->shared;

	if (e->a.is_write)
		return;
	if (sh != NULL) {
		if (sh->read_latency_ns != NULL)
			stats_dist_add(sh->read_latency_ns, (double)(e->done - e->arrival) *
				       (double)m->s->tck_ps / 1000.0);
		/* The injected fault: the read's data is lost on its way back; the requester waits
		 * for ever (the watchdog's test). */
		if (++sh->reads_done == sh->lose_read)
			return;
	}
	link_push(m->ports[e->a.port].done, e->a.ctx);
}

static void complete(struct mc *m, struct fifo *f, cycle_t now)
{
	while (f->head != NULL && f->head->done <= now) {
		struct ent *e = fifo_pop(f);

		m->inflight--;
		m->room_gen++;
		if (!e->internal) {
			if (e->a.is_write)
				m->st.writes++;
			else {
				m->st.reads++;
				m->st.read_wait_cycles += e->issued - e->arrival;
				m->st.read_service_cycles += e->done - e->issued;
			}
			m->req_pending--;
			if (m->done_fn != NULL)
				m->done_fn(m->done_ctx, &e->a, e->arrival, e->done);
			if (m->nports > 0)
				port_done(m, e);
		}
		e->next = m->free;
		m->free = e;
		if (m->producer_waiting && m->producer != NULL) {
			m->producer_waiting = false;
			clock_wake(m->producer);
		}
		if (m->waiters[f == &m->wr_done].n > 0)
			grant(m, f == &m->wr_done);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Refresh
 */

static cycle_t refresh_interval(const struct mc *m)
{
	return m->p->refresh == MC_REFRESH_ALL_BANK ? m->s->t[DRAM_T_REFI]
						    : m->s->t[DRAM_T_REFIPB];
}

/* The banks held for the refreshes owed on q (none while none is owed): per-bank, the bank
 * whose turn it is once it has no work or the refreshes can be postponed no more; all-bank,
 * every bank once the pseudo-channel has no work or likewise. */
static uint64_t held_banks(const struct mc *m, const struct pcq *q)
{
	if (q->owed == 0)
		return 0;
	if (m->p->refresh == MC_REFRESH_PER_BANK) {
		uint64_t bit = 1ull << q->ref_bank;

		if (((q->work_rd | q->work_wr) & bit) == 0 || q->owed >= m->p->refresh_postpone)
			return bit;
	} else if (q->pending == 0 || q->owed >= m->p->refresh_postpone) {
		return m->s->banks == 64 ? ~0ull : (1ull << m->s->banks) - 1;
	}
	return 0;
}

/* Updates owed refreshes and which banks are held for refresh. */
static void refresh_update(struct mc *m, struct pcq *q, cycle_t now)
{
	q->held_mask = 0;
	if (m->p->refresh == MC_REFRESH_OFF)
		return;
	while (now >= q->ref_due) {
		q->owed++;
		q->ref_due += refresh_interval(m);
	}
	q->held_mask = held_banks(m, q);
}

static void refresh_issued(struct mc *m, struct pcq *q, enum dram_cmd cmd, cycle_t now)
{
	if (q->owed >= m->p->refresh_postpone)
		m->st.refresh_forced++;
	q->owed--;
	q->last_ref = now;
	m->st.refreshes++;
	if (cmd == DRAM_CMD_REFPB) {
		m->st.refresh_bank_cycles += m->s->t[DRAM_T_RFCPB];
		q->ref_bank = (q->ref_bank + 1) % m->s->banks;
	} else {
		m->st.refresh_bank_cycles += (uint64_t)m->s->t[DRAM_T_RFC] * m->s->banks;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Candidates
 */

static bool other_hit_queued(const struct bankq *b, const struct ent *e, uint32_t row)
{
	const struct ent *x;

	for (x = b->rd.head; x != NULL; x = x->next)
		if (x != e && x->a.da.row == row)
			return true;
	for (x = b->wr.head; x != NULL; x = x->next)
		if (x != e && x->a.da.row == row)
			return true;
	return false;
}

static bool other_row_queued(const struct bankq *b, uint32_t row)
{
	const struct ent *x;

	for (x = b->rd.head; x != NULL; x = x->next)
		if (x->a.da.row != row)
			return true;
	for (x = b->wr.head; x != NULL; x = x->next)
		if (x->a.da.row != row)
			return true;
	return false;
}

/* The column command e needs next (a pre-op read, or its own RD/WR with or without
 * auto-precharge). */
static enum dram_cmd column_cmd(const struct mc *m, const struct bankq *b, const struct ent *e)
{
	bool close;

	if (e->pre_ops != 0)
		return DRAM_CMD_RD;
	switch (m->p->page_policy) {
	case MC_PAGE_CLOSED:
		close = !other_hit_queued(b, e, e->a.da.row);
		break;
	case MC_PAGE_ADAPTIVE:
		close = !other_hit_queued(b, e, e->a.da.row) && other_row_queued(b, e->a.da.row);
		break;
	default:
		close = false;
		break;
	}
	if (e->a.is_write)
		return close ? DRAM_CMD_WRA : DRAM_CMD_WR;
	return close ? DRAM_CMD_RDA : DRAM_CMD_RD;
}

/* The address a command for e goes to: pre-op reads of the ECC burst use the ECC column. */
static void cmd_addr(const struct mc *m, const struct ent *e, enum dram_cmd cmd,
		     struct dram_addr *a)
{
	*a = e->a.da;
	if (cmd == DRAM_CMD_RD && (e->pre_ops & PRE_RMW) == 0 && (e->pre_ops & PRE_ECC) != 0)
		a->col = ecc_col(m, e->a.da.col);
}

/* The address of candidate c's command: the access's (or its ECC burst's), or for refresh and
 * refresh precharges just the bank. */
static void cand_addr(const struct mc *m, const struct mc_cand *c, struct dram_addr *a)
{
	if (c->entry != NULL) {
		cmd_addr(m, c->entry, c->cmd, a);
		return;
	}
	memset(a, 0, sizeof *a);
	a->ch = m->ch;
	a->pc = c->pc;
	a->bg = c->bank / m->s->banks_per_group;
	a->ba = c->bank % m->s->banks_per_group;
}

/* Earliest cycle of candidate c: the device's answer, and for a column command its access's
 * read-modify-write data. */
static cycle_t cand_earliest(const struct mc *m, const struct mc_cand *c)
{
	const struct ent *e = c->entry;
	cycle_t t;

	if (c->cmd == DRAM_CMD_REFAB) {
		struct dram_addr a;

		cand_addr(m, c, &a);
		return dram_earliest(m->dram, c->cmd, &a);
	}
	/* the ECC burst of a pre-op read is in the access's row: only the column differs */
	t = dram_earliest_bank(m->dram, c->cmd, c->pc, c->bank, e != NULL ? e->a.da.row : 0);
	/* Only the access's own column command waits for the old data; its ECC read does not. */
	if (e != NULL && !dram_cmd_is_row(c->cmd) && e->pre_ops == 0 && e->not_before > t)
		t = e->not_before;
	return t;
}

/* What a shared bound that does not apply reads (bankq.shared). */
static const cycle_t zero_cycle = 0;

/* Where the device's shared bounds of command cmd to bank b of pseudo-channel q are (see
 * dram_bounds): the pseudo-channel's, the bank group's, the activate windows' (not an ACT: a 0),
 * the command bus's. */
static void cand_shared(const struct pcq *q, enum dram_cmd cmd, uint32_t b,
			const cycle_t *shared[4])
{
	/* by index, not by branch: the command is as good as random */
	const cycle_t *window[2] = { &zero_cycle, q->db.act_window };
	const cycle_t *bus[2] = { q->db.col_bus, q->db.row_bus };

	shared[0] = &q->db.pc_next[cmd];
	shared[1] = &q->db.bg_next[q->db.bank_bg[b] * DRAM_CMD_COUNT + cmd];
	shared[2] = window[cmd == DRAM_CMD_ACT];
	shared[3] = bus[dram_cmd_is_row(cmd)];
}

/* The earliest cycle of a command from its own bound and its shared bounds: cand_earliest's
 * answer (not for REFab), without asking the device. */
static cycle_t time_parts(cycle_t own, const cycle_t *const shared[4])
{
	cycle_t t = max_cycle(own, *shared[0]);

	t = max_cycle(t, *shared[1]);
	t = max_cycle(t, *shared[2]);
	return max_cycle(t, *shared[3]);
}

/* Candidate c's own bound (not REFab): the device's, and for an access's own column command
 * the old data it waits for (as cand_earliest). */
static cycle_t cand_own(const struct mc *m, const struct mc_cand *c)
{
	const struct ent *e = c->entry;
	cycle_t own;

	if (e == NULL)
		return dram_own_bound(m->dram, c->cmd, c->pc, c->bank, 0);
	own = dram_own_bound(m->dram, c->cmd, c->pc, c->bank, e->a.da.row);
	/* without a branch: the command is as good as random */
	return max_cycle(own, (!dram_cmd_is_row(c->cmd) & (e->pre_ops == 0)) ? e->not_before : 0);
}

/* Candidate c: access e's (NULL: a refresh's) command cmd to bank `bank` of pseudo-channel pc;
 * kept: made as the bank's cached one (bank_keep). Not timed. */
static inline void cand_set(struct mc_cand *c, struct ent *e, enum dram_cmd cmd, uint32_t pc,
			    uint32_t bank, bool kept)
{
	c->seq = e != NULL ? e->seq : 0;
	c->cmd = cmd;
	c->kept = kept;
	c->pc = pc;
	c->bank = bank;
	c->entry = e;
}

/* Candidate c's earliest cycle (not a refresh's) from its own bound (*own) and its shared bounds
 * (shared[], where they are): cand_earliest's answer, without asking the device. */
static inline cycle_t cand_time(const struct mc *m, const struct mc_cand *c, cycle_t *own,
				const cycle_t *shared[4])
{
	cycle_t t;

	*own = cand_own(m, c);
	cand_shared(&m->pcs[c->pc], c->cmd, c->bank, shared);
	t = time_parts(*own, shared);
#ifdef SIM_DEBUG
	SIM_ASSERT(t == cand_earliest(m, c));
#endif
	return t;
}

/* Candidate c, timed, not kept: a held bank's (held_choice), which every pass (and the
 * look-ahead) makes afresh; a bank's kept candidate is made by bank_keep. */
static inline void cand_make(const struct mc *m, struct mc_cand *c, struct ent *e,
			     enum dram_cmd cmd, uint32_t pc, uint32_t bank)
{
	cand_set(c, e, cmd, pc, bank, false);
	if (cmd == DRAM_CMD_REFAB || cmd == DRAM_CMD_REFPB) {
		/* never kept, so its parts are not needed */
		c->earliest = cand_earliest(m, c);
	} else {
		const cycle_t *shared[4];
		cycle_t own;

		c->earliest = cand_time(m, c, &own, shared);
	}
}

/* Appends a held bank's candidate, timed (cand_make). */
static void add_cand(struct mc *m, size_t *n, struct ent *e, enum dram_cmd cmd, uint32_t pc,
		     uint32_t bank)
{
	size_t i = (*n)++;

	SIM_ASSERT(*n <= m->ncands_max);
	cand_make(m, &m->cands[i], e, cmd, pc, bank);
}

/* The oldest entry of the fifo that hits row, or NULL. */
static struct ent *oldest_hit(const struct fifo *f, uint32_t row)
{
	struct ent *x;

	for (x = f->head; x != NULL; x = x->next)
		if (x->a.da.row == row)
			return x;
	return NULL;
}

/* The command bank `bank` of pseudo-channel pc needs next in direction writes (*cmd) and the
 * access it serves (*e): a row hit's column command; PRE on a conflict (charged to the oldest
 * access) or a row closing for refresh; ACT on a closed bank. False when it needs none (held and
 * closed, or nothing queued). */
static inline bool bank_choice(const struct mc *m, uint32_t pc, uint32_t bank, bool writes,
			       struct ent **e, enum dram_cmd *cmd)
{
	const struct pcq *q = &m->pcs[pc];
	const struct bankq *b = &q->banks[bank];
	const struct fifo *f = writes ? &b->wr : &b->rd;
	bool held = (q->held_mask >> bank) & 1;
	uint32_t open;
	struct ent *hit, *head = f->head;

	open = dram_open_row_at(m->dram, pc, bank);
	if (open != DRAM_ROW_NONE) {
		hit = oldest_hit(f, open);
		/* FCFS: the bank serves its oldest access, so a hit does not pass it. */
		if (!m->sched->hits_first && head != NULL && head->a.da.row != open)
			hit = NULL;
		/* The cap: enough hits while an older access to another row waits. */
		if (hit != NULL && m->p->row_hit_cap != 0 && b->hits >= m->p->row_hit_cap &&
		    head != NULL && head->a.da.row != open && head->seq < hit->seq)
			hit = NULL;
		if (hit != NULL && !(held && q->owed >= m->p->refresh_postpone)) {
			*e = hit;
			*cmd = column_cmd(m, b, hit);
			return true;
		}
		/* A conflict (charged to the oldest access), or a row closing for refresh. */
		*e = head;
		*cmd = DRAM_CMD_PRE;
		return head != NULL || held;
	}
	*e = head;
	*cmd = DRAM_CMD_ACT;
	return !held && head != NULL;
}

/* The command bank b of pseudo-channel pc needs next while it is held for refresh (*cmd) and
 * the access it serves (*e; NULL for a refresh): open, its hits' column commands or its PRE
 * (bank_choice); closed, its refresh (all-bank: REFab at bank 0 once every bank is closed).
 * False when it needs none. The gather and the look-ahead ask it alike. */
static inline bool held_choice(const struct mc *m, uint32_t pc, uint32_t b, bool writes,
			       struct ent **e, enum dram_cmd *cmd)
{
	*e = NULL;
	if (dram_open_row_at(m->dram, pc, b) != DRAM_ROW_NONE)
		return bank_choice(m, pc, b, writes, e, cmd);
	if (m->p->refresh == MC_REFRESH_PER_BANK) {
		*cmd = DRAM_CMD_REFPB;
		return true;
	}
	if (b == 0 && dram_open_banks(m->dram, pc) == 0) {
		*cmd = DRAM_CMD_REFAB;
		return true;
	}
	return false;
}

/* ---------------------------------------------------------------------------------------------
 * Issue
 */

static void waterfall_burst(struct mc *m, struct pcq *q, struct ent *e, bool is_write,
			    cycle_t data_start, bool useful)
{
	struct mc_waterfall *w = &m->wf;

	if (data_start > q->bus_free) {
		cycle_t gap = data_start - q->bus_free, idle = 0;

		if (q->busy_since > q->bus_free)
			idle = q->busy_since - q->bus_free < gap ? q->busy_since - q->bus_free : gap;
		w->idle += idle;
		gap -= idle;
		if (q->last_ref > q->bus_free && q->last_ref < data_start)
			w->refresh += gap;
		else if (e != NULL && e->act_window)
			w->act_window += gap;
		else if (e != NULL && e->needed_row)
			w->row += gap;
		else if (is_write != q->last_write)
			w->turnaround += gap;
		else
			w->other += gap;
		q->bus_free = data_start;
	}
	q->bus_free += m->s->burst_cycles;
	if (useful)
		w->data += m->s->burst_cycles;
	else
		w->ecc += m->s->burst_cycles;
	q->last_write = is_write;
}

static void count_row(struct mc *m, struct ent *e, enum dram_cmd cmd)
{
	if (e == NULL || e->counted || e->internal)
		return;
	e->counted = true;
	if (cmd == DRAM_CMD_ACT)
		m->st.row_misses++;
	else if (cmd == DRAM_CMD_PRE)
		m->st.row_conflicts++;
	else
		m->st.row_hits++;
}

static void issue(struct mc *m, const struct mc_cand *c, cycle_t now)
{
	struct pcq *q = &m->pcs[c->pc];
	struct bankq *b = &q->banks[c->bank];
	struct ent *e = c->entry;
	struct dram_addr a;
	cycle_t done;

	cand_addr(m, c, &a);
	bq_clear(q, c->bank);
	count_row(m, e, c->cmd);
	if (c->cmd == DRAM_CMD_ACT && e != NULL) {
		/* Did a window (tFAW, t32AW, tRRD) rather than the bank itself hold this ACT? */
		cycle_t own = dram_act_bank_bound(m->dram, &a);

		e->needed_row = true;
		if (c->earliest > own && c->earliest > e->arrival)
			e->act_window = true;
	}
	if (c->cmd == DRAM_CMD_PRE && e != NULL)
		e->needed_row = true;
	if (c->cmd == DRAM_CMD_PRE && b->hits >= m->p->row_hit_cap && m->p->row_hit_cap != 0)
		m->st.cap_preempts++;
	done = dram_issue(m->dram, c->cmd, &a, now);
	switch (c->cmd) {
	case DRAM_CMD_ACT:
		b->hits = 0;
		return;
	case DRAM_CMD_PRE:
		return;
	case DRAM_CMD_REFAB: {
		/* it raised every bank's own bounds: the cached candidates' are stale */
		uint32_t k;

		for (k = 0; k < m->s->banks; k++)
			bq_clear(q, k);
		refresh_issued(m, q, c->cmd, now);
		return;
	}
	case DRAM_CMD_REFPB:
		refresh_issued(m, q, c->cmd, now);
		return;
	default:
		break;
	}
	/* A column command. */
	b->hits++;
	if (e->pre_ops != 0) {
		uint8_t op = (e->pre_ops & PRE_RMW) != 0 ? PRE_RMW : PRE_ECC;

		e->pre_ops &= (uint8_t)~op;
		if (op == PRE_RMW) {
			m->st.rmw_reads++;
			e->not_before = done; /* the merge needs the old data */
		} else {
			m->st.ecc_reads++;
		}
		if (done > e->done)
			e->done = done;
		waterfall_burst(m, q, e, false, done - m->s->burst_cycles, false);
		return;
	}
	if (e->internal)
		m->st.ecc_writes++;
	waterfall_burst(m, q, e, e->a.is_write, done - m->s->burst_cycles, !e->internal);
	e->issued = now;
	if (done > e->done)
		e->done = done;
	/* Out of the bank queue, into the completion FIFO. */
	if (e->a.is_write) {
		fifo_remove(&b->wr, e);
		if (b->wr.n == 0)
			q->work_wr &= ~(1ull << c->bank); /* its bounds are 0 (bq_clear above) */
		if (e->internal)
			m->internal--;
		else
			m->nwrites--;
		fifo_push(&m->wr_done, e);
	} else {
		fifo_remove(&b->rd, e);
		if (b->rd.n == 0)
			q->work_rd &= ~(1ull << c->bank); /* its bounds are 0 (bq_clear above) */
		m->nreads--;
		fifo_push(&m->rd_done, e);
	}
	m->inflight++;
	q->pending--;
	stat_level_set(&m->st.rq, m->nreads);
	stat_level_set(&m->st.wq, m->nwrites + m->internal);
}

/* Decides the pre-ops an access needs the first time it reaches its column command. */
static void prepare_ecc(struct mc *m, struct ent *e, cycle_t now)
{
	if (e->prepared)
		return;
	e->prepared = true;
	if (m->p->ecc != MC_ECC_INLINE || e->internal)
		return;
	if (e->a.is_write && e->a.partial)
		e->pre_ops |= PRE_RMW;
	if (!ecc_lookup(m, &e->a.da, e->a.is_write && !e->a.partial, now))
		e->pre_ops |= PRE_ECC;
}

/* ---------------------------------------------------------------------------------------------
 * The pass
 */

/* Whether candidate c is a column command whose access decides its inline-ECC pre-ops when it
 * first stands as a candidate, ready or not (prepare_cands): such a candidate must stay in the
 * list even when it is not ready. */
static bool needs_prepare(const struct mc *m, const struct mc_cand *c)
{
	return m->p->ecc == MC_ECC_INLINE && c->entry != NULL && !dram_cmd_is_row(c->cmd) &&
	       !((const struct ent *)c->entry)->prepared;
}

/* Finds the candidate of bank b of pseudo-channel pc, which has work in direction writes and is
 * not held, and keeps it as the bank's cached one (made in place, not copied: its own bound and
 * where its shared bounds are, computed once); returns its earliest cycle. */
static inline cycle_t bank_keep(struct mc *m, uint32_t pc, uint32_t b, bool writes)
{
	struct pcq *q = &m->pcs[pc];
	struct bankq *bq = &q->banks[b];
	struct mc_cand *c = &bq->cand;
	struct ent *e;
	enum dram_cmd cmd;
	bool any = bank_choice(m, pc, b, writes, &e, &cmd);

	SIM_ASSERT(any && e != NULL); /* a bank with work, not held */
	cand_set(c, e, cmd, pc, b, true);
	c->earliest = cand_time(m, c, &bq->own, bq->shared);
	bq->lb_dir = LB_DIR(writes);
	bq_set(q, b, writes, c->earliest);
	return c->earliest;
}

/* The exact earliest cycle of a cached candidate: its own bound and the device's shared bounds.
 * The same answer as cand_earliest, without a branch. */
static cycle_t bq_time(const struct mc *m, const struct bankq *bq)
{
	cycle_t t = time_parts(bq->own, bq->shared);

#ifdef SIM_DEBUG
	SIM_ASSERT(t == cand_earliest(m, &bq->cand));
#else
	(void)m;
#endif
	return t;
}

/* Whether the write drain runs after a pass now, from whether it ran (hysteresis). */
static bool drain_next(const struct mc *m, bool draining)
{
	if (!draining && m->nwrites + m->internal >= m->p->write_high)
		return true;
	if (draining && m->nwrites + m->internal <= m->p->write_low)
		return false;
	return draining;
}

/* The direction a pass serves (true: writes) once the drain is draining: writes also go when
 * no read waits. */
static bool direction(const struct mc *m, bool draining)
{
	return draining || (m->nreads == 0 && m->nwrites + m->internal > 0);
}

/* Write drain with hysteresis; writes also go when no read waits. Returns the direction this
 * pass serves (true: writes). */
static bool serve_writes(struct mc *m)
{
	bool d = drain_next(m, m->draining);

	if (d && !m->draining)
		m->st.drains++;
	m->draining = d;
	return direction(m, d);
}

/* The banks of the packed bounds bound[0..nb) that are due at now (a mask: the caller keeps
 * those with work), lowering *soonest to the earliest bound still in the future. The soonest
 * is the least of t - (now + 1) in unsigned arithmetic, where a bound that has come wraps
 * above every future one (and CYCLE_NEVER's): one subtraction and one minimum a bank. */
static inline uint64_t scan_bounds(const cycle_t *bound, uint32_t nb, cycle_t now,
				   cycle_t *soonest)
{
	const cycle_t next = now + 1, none = CYCLE_NEVER - next;
	cycle_t least = none;
	uint64_t due = 0;
	uint32_t b;

	SIM_ASSERT(now < CYCLE_NEVER - 1);
	for (b = nb; b-- > 0;) {
		cycle_t t = bound[b], d = t - next;

		due = due + due + (t < next);
		least = d < least ? d : least;
	}
	if (least < none && least + next < *soonest)
		*soonest = least + next;
	return due;
}

/* Mask work without its four lowest banks: 0 when the banks with work are so few that
 * visiting them one by one (scan_work) is cheaper than scanning every bank (scan_bounds), as
 * on a controller a pointer chase or refresh alone keeps busy. */
static uint64_t few_banks(uint64_t work)
{
	work &= work - 1;
	work &= work - 1;
	work &= work - 1;
	return work & (work - 1);
}

/* The same as scan_bounds over the banks of mask work only, one by one: the held banks left
 * out while a refresh is owed, and the banks of a controller with few at work (and the debug
 * build's check of scan_bounds). */
static inline uint64_t scan_work(const cycle_t *bound, uint64_t work, cycle_t now,
				 cycle_t *soonest)
{
	cycle_t s = *soonest;
	uint64_t due = 0;

	while (work != 0) {
		uint32_t b = (uint32_t)__builtin_ctzll(work);
		cycle_t t = bound[b], later;

		work &= work - 1;
		due |= (uint64_t)(t <= now) << b;
		later = t > now ? t : CYCLE_NEVER;
		s = later < s ? later : s;
	}
	*soonest = s;
	return due;
}

/* The gather's pick so far (pick_in_gather): the candidate (NULL: none ready yet) and its key. */
struct gather_best {
	const struct mc_cand *c;
	uint64_t key;
};

#ifdef SIM_DEBUG
/* The debug build's record of every candidate the gather meets (pick_in_gather), timed, for
 * issue_on_buses's check of the gather's pick against the policy's over all of them. */
static void dbg_record(struct mc *m, const struct mc_cand *c)
{
	SIM_ASSERT(m->dbg_n < m->ncands_max);
	m->dbg_cands[m->dbg_n++] = *c;
}
#endif

/* Candidate c met by the gather (pick_in_gather): the policy's pick so far, *best, takes it if
 * it comes first (mc_sched_first). */
static inline void gather_pick(struct mc *m, const struct mc_cand *c, cycle_t now,
			       struct gather_best *best)
{
	best->c = mc_sched_first(m->sched, c, now, &best->key) ? c : best->c;
#ifdef SIM_DEBUG
	dbg_record(m, c);
#endif
}

/* The cached candidate of bank b of q, due and met by the gather after a ready one that comes
 * before it (pick_in_gather): the pass issues that one or one before it, so this one's cycle
 * is not needed now (nor when nothing issues: that cannot be). Its bound stays at or before
 * now, so the next pass looks at it again; the look-ahead, which believes only the bounds of
 * the banks not in stood, times it after the command (after_issue) as a candidate that stood
 * (a time taken here would be taken again there: the command may move it). Left out of stood,
 * the look-ahead missed commands (10 of bench/same_stats.sh's 44 outputs changed). The debug
 * build times it for its check of the pick. */
static inline void gather_untimed(struct mc *m, struct pcq *q, uint32_t b)
{
#ifdef SIM_DEBUG
	struct mc_cand c = q->banks[b].cand;

	c.earliest = bq_time(m, &q->banks[b]);
	dbg_record(m, &c);
#endif
	if (m->lookahead)
		q->stood |= 1ull << b;
}

/* The candidates of pseudo-channel pc: for each bank with work in the direction served or held
 * for refresh, the command it needs next (a refresh once a held bank is closed; the bank's
 * cached candidate while it stands), if it can issue now or (inline ECC) its access has still to
 * decide its pre-ops. Lowers *next to refresh deadlines, to the bounds of the banks skipped and
 * to the earliest cycles of the candidates timed that cannot issue. A cached candidate is
 * looked at once its bound has come, and then timed exactly (bq_time). Where the gather picks
 * (pick_in_gather), the ready ones go to the pick (*best) and not to the list, which holds the
 * held banks' candidates (which also go to the pick); a cached candidate met after a ready one
 * that comes before it is not timed (gather_untimed): on sequential GDDR6 reads nine banks a
 * scheduling are due, and only the few that come first so far need their cycle. */
static void gather_pc(struct mc *m, uint32_t pc, bool writes, cycle_t now, cycle_t *next,
		      size_t *n, struct gather_best *best)
{
	struct pcq *q = &m->pcs[pc];
	const cycle_t *bound = q->bound[writes];
	cycle_t soonest = CYCLE_NEVER;
	uint64_t work, due = 0, held;
	struct bankq *banks;
	uint32_t b;

	refresh_update(m, q, now);
	if (q->ref_due < *next)
		*next = q->ref_due;
	/* The banks whose cached bound is still in the future only lower next (without branches:
	 * which way a bank goes is as good as random). With no bank held and more than four at
	 * work, every bank's bound in one pass over the packed array, cheaper than visiting the
	 * banks with work one by one: those with nothing queued this way have bound 0, so they
	 * come out due (the mask drops them) and never the soonest. */
	work = writes ? q->work_wr : q->work_rd;
	if (q->held_mask == 0 && few_banks(work) != 0) {
		/* 16 banks, the standards' (GDDR6; HBM2 and HBM2e pseudo-channels): unrolled */
		due = work & (m->s->banks == 16 ? scan_bounds(bound, 16, now, &soonest)
						: scan_bounds(bound, m->s->banks, now, &soonest));
#ifdef SIM_DEBUG
		{
			cycle_t check = CYCLE_NEVER;

			SIM_ASSERT(due == scan_work(bound, work, now, &check));
			SIM_ASSERT(check == soonest);
		}
#endif
	} else {
		due = scan_work(bound, work & ~q->held_mask, now, &soonest);
	}
	if (soonest < *next)
		*next = soonest;
	/* (the loop's stores are of cycles, which could alias q's words as far as the compiler
	 * knows: what it reads of q on every bank, in locals) */
	held = q->held_mask;
	banks = q->banks;
	work = due | held;
	while (work != 0) {
		struct bankq *bq;
		cycle_t t;

		b = (uint32_t)__builtin_ctzll(work);
		work &= work - 1;
		bq = &banks[b];
		if ((held >> b) & 1) {
			struct ent *e;
			enum dram_cmd cmd;

			/* (not kept: made afresh by every pass) */
			if (held_choice(m, pc, b, writes, &e, &cmd)) {
				add_cand(m, n, e, cmd, pc, b);
				if (m->pick_in_gather)
					gather_pick(m, &m->cands[*n - 1], now, best);
			}
			continue;
		}
		/* (only the gather's pick, pick_in_gather, sets best->c) */
		if (best->c != NULL && bq->lb_dir == LB_DIR(writes) &&
		    mc_sched_key(m->sched, &bq->cand) >= best->key) {
			/* cached, and cannot come first: left untimed (gather_untimed) */
			gather_untimed(m, q, b);
			continue;
		}
		if (bq->lb_dir == LB_DIR(writes)) {
			t = bq_time(m, bq);
			bq_retime(q, b, writes, t);
		} else {
			t = bank_keep(m, pc, b, writes);
		}
		if (t > now && !needs_prepare(m, &bq->cand)) {
			/* (cached, and not a candidate this pass) */
			if (t < *next)
				*next = t;
			continue;
		}
		if (m->pick_in_gather) {
			gather_pick(m, &bq->cand, now, best);
		} else {
			SIM_ASSERT(*n < m->ncands_max);
			m->cands[(*n)++] = bq->cand;
		}
		if (m->lookahead)
			q->stood |= 1ull << b;
	}
}

/* Under inline ECC an access decides its pre-ops when it first reaches its column command; an
 * ECC-cache eviction may need an entry, so a candidate waits while none is free and a
 * completion is coming to free one. */
static void prepare_cands(struct mc *m, size_t n, cycle_t now)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct mc_cand *c = &m->cands[i];
		struct ent *e = c->entry;

		if (e == NULL || dram_cmd_is_row(c->cmd) || e->prepared)
			continue;
		if (m->free == NULL && m->inflight != 0) {
			c->earliest = CYCLE_NEVER; /* a completion frees one and wakes us */
			continue;
		}
		/* With nothing in flight no completion comes: the queued accesses hold every
		 * entry and the write-backs that could free one wait behind them in their banks
		 * (a bank serves its open row's oldest access, which would wait here). It takes a
		 * new entry if its eviction needs one: the pool grows by a chunk (ent_alloc). */
		prepare_ecc(m, e, now);
		bq_clear(&m->pcs[c->pc], c->bank);
		c->cmd = column_cmd(m, &m->pcs[c->pc].banks[c->bank], e);
		c->earliest = cand_earliest(m, c);
	}
}

/* Issues the policy's pick on each command bus (HBM: a row and a column bus; GDDR6: one), at
 * most one command each. After each, while a bus is left, the candidates of the bus used and of
 * the bank served go and the ready ones are re-timed (the command may bind them). Where the
 * gather picked (pick_in_gather: one bus), its pick (gb->c, NULL: none ready) is the command,
 * what the policy's pick would take from the same candidates (the debug build checks it).
 * Returns true if anything was issued (then the candidates left in *n are not read again: the
 * next pass is the next cycle). */
static bool issue_on_buses(struct mc *m, size_t *n, const struct gather_best *gb,
			   cycle_t now)
{
	bool row_bus_used = false, col_bus_used = false;

#ifdef SIM_DEBUG
	if (m->pick_in_gather) {
		int kd = m->sched->pick(m->dbg_cands, m->dbg_n, now);
		const struct mc_cand *c = kd < 0 ? NULL : &m->dbg_cands[kd];

		SIM_ASSERT((c == NULL) == (gb->c == NULL));
		SIM_ASSERT(c == NULL || (c->pc == gb->c->pc && c->bank == gb->c->bank &&
					 c->cmd == gb->c->cmd && c->entry == gb->c->entry &&
					 c->seq == gb->c->seq && c->earliest == gb->c->earliest));
	}
#endif
	/* (with the gather's pick, one bus: the loop ends after its command) */
	for (;;) {
		int k = m->pick_in_gather ? -1 : m->sched->pick(m->cands, *n, now);
		struct mc_cand picked;
		size_t j, w = 0;

		if (k < 0 && (!m->pick_in_gather || gb->c == NULL))
			break;
		picked = k < 0 ? *gb->c : m->cands[k];
		issue(m, &picked, now);
		if (m->s->separate_row_bus) {
			if (dram_cmd_is_row(picked.cmd))
				row_bus_used = true;
			else
				col_bus_used = true;
		} else {
			row_bus_used = col_bus_used = true;
		}
		if (row_bus_used && col_bus_used)
			break;
		/* Another pick on the other bus: only the candidates ready before this command can
		 * be (its effect only raises earliest cycles), so only they are re-timed; the rest
		 * keep their stale lower bounds, which nothing reads again (a pass that issued
		 * passes again next cycle whatever they say). */
		for (j = 0; j < *n; j++) {
			struct mc_cand *c = &m->cands[j];
			bool row = dram_cmd_is_row(c->cmd);

			if (j == (size_t)k || (row && row_bus_used) || (!row && col_bus_used) ||
			    (c->pc == picked.pc && c->bank == picked.bank))
				continue;
			if (c->earliest <= now) {
				const struct bankq *bq = &m->pcs[c->pc].banks[c->bank];

				/* A kept one whose bank the command left cached: its own bound
				 * stands (only its bank's commands and REFab move it, and they
				 * clear the cache), so its parts time it, as a pass would. */
				c->earliest = c->kept && bq->lb_dir != LB_NONE ? bq_time(m, bq)
									: cand_earliest(m, c);
#ifdef SIM_DEBUG
				SIM_ASSERT(c->earliest == cand_earliest(m, c));
#endif
			}
			m->cands[w++] = *c;
		}
		*n = w;
	}
	return row_bus_used || col_bus_used;
}

/* Sleeps until the next cycle anything can happen: the earliest candidate left (re-evaluated
 * then), a completion, an access on the input link, a refresh deadline (in next already); the
 * next cycle if anything was issued. With nothing pending and refresh off, a plain sleep. */
/* The next cycle anything can happen: the earliest candidate left (re-evaluated then), a
 * completion, an access on the input link, a refresh deadline (in next already); the next
 * cycle if anything was issued. */
static cycle_t next_pass(const struct mc *m, size_t n, bool issued, cycle_t next, cycle_t now)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (m->cands[i].earliest < next)
			next = m->cands[i].earliest;
	if (issued)
		next = now + 1;
	if (m->rd_done.head != NULL && m->rd_done.head->done < next)
		next = m->rd_done.head->done;
	if (m->wr_done.head != NULL && m->wr_done.head->done < next)
		next = m->wr_done.head->done;
	if (m->in != NULL && link_head_ready(m->in) < next)
		next = link_head_ready(m->in);
	return next <= now ? now + 1 : next;
}

/* Whether a pass at now + 1, after this one issued, would find nothing to do: nothing queued or
 * in flight (so the only candidates are refresh's), no refresh owed on any pseudo-channel (so
 * no bank held) and none falling due by then, no drain to end. Such a pass only clears the held
 * banks and sleeps until the next deadline: on an idle controller, the pass after each refresh
 * (half the passes of a pointer chase's idle channels, which catch_up makes). */
static bool idle_after_issue(const struct mc *m, cycle_t now)
{
	uint32_t pc;

	if (m->nreads + m->nwrites + m->internal + m->inflight != 0 || m->draining)
		return false;
	for (pc = 0; pc < m->s->pcs; pc++)
		if (m->pcs[pc].owed != 0 || m->pcs[pc].ref_due <= now + 1)
			return false;
	return true;
}

static cycle_t min_cycle(cycle_t a, cycle_t b)
{
	return a < b ? a : b;
}

/* The scheduling part of a pass that issued nothing is due again at the earliest cycle it found
 * (sched_next): refresh deadlines, banks' bounds, candidates' cycles. */
static cycle_t sched_next_of(const struct mc *m, size_t n, bool issued, cycle_t next, cycle_t now)
{
	size_t i;

	if (issued)
		return now + 1;
	for (i = 0; i < n; i++)
		next = min_cycle(next, m->cands[i].earliest);
	return next;
}

/* bank_keep for the look-ahead, as gather_pc does for a bank whose bound was cleared. Out of
 * line, so that gather_pc keeps bank_keep inlined (with more callers the compiler made such
 * helpers calls: +3% instructions on HBM2e random reads). */
__attribute__((noinline)) static cycle_t recache(struct mc *m, uint32_t pc, uint32_t b,
						 bool writes)
{
	return bank_keep(m, pc, b, writes);
}

/* Whether the pass after one that issued can be told now to issue nothing at now + 1, and if
 * so, the cycle of the next pass that can issue (*when). The banks whose candidates stood in
 * this pass (stood) are each timed again after the commands or, for a bank served (its
 * candidate cleared), given its next candidate as the next pass would do first; every other
 * bank's bound is in the future, and next has the least of them and the refresh deadlines.
 * The first bank that could issue at now + 1 ends it. Only where the look-ahead applies
 * (m->lookahead), while the next pass would neither start nor end a write drain (the drain's
 * state is the pass's to change: a write that left write_low queued ends the drain there even
 * when writes still go because no read waits, and a read that comes later must then find it
 * ended) and so serves the same direction, and the next pass holds the same banks for refresh
 * as this one (refreshes may be owed and postponed; none falls due by then): their candidates,
 * which no pass keeps, are made and timed as it would make them (held_choice). On random GDDR6
 * reads four in five passes the cycle after a command issued nothing (tCCD, the bank just
 * served); each cost a wake, the scan of the bounds and this timing. Banks are held often
 * (a refresh owed whose bank has no work, or postponed no more): when the look-ahead stood
 * down while one was, the passes after its commands were 58 k of 200 k random GDDR6 reads'
 * 211 k passes that issue nothing, 61 k of the sequential ones' 64 k. */
static bool after_issue(struct mc *m, bool writes, cycle_t next, cycle_t now, cycle_t *when)
{
	uint32_t pc;

	if (!m->lookahead || drain_next(m, m->draining) != m->draining ||
	    direction(m, m->draining) != writes)
		return false;
	for (pc = 0; pc < m->s->pcs; pc++)
		if (held_banks(m, &m->pcs[pc]) != m->pcs[pc].held_mask ||
		    m->pcs[pc].ref_due <= now + 1)
			return false;
	for (pc = 0; pc < m->s->pcs; pc++) {
		struct pcq *q = &m->pcs[pc];
		uint64_t stood = q->stood, served = 0, held = q->held_mask;

		while (stood != 0) {
			uint32_t b = (uint32_t)__builtin_ctzll(stood);
			struct bankq *bq = &q->banks[b];
			cycle_t t;

			stood &= stood - 1;
			if (bq->lb_dir != LB_DIR(writes)) {
				served |= 1ull << b;
				continue;
			}
			/* stood, not served: the commands may have moved its shared bounds */
			t = bq_time(m, bq);
			if (t <= now + 1)
				return false;
			bq_retime(q, b, writes, t);
			next = min_cycle(next, t);
		}
		while (served != 0) {
			uint32_t b = (uint32_t)__builtin_ctzll(served);
			cycle_t t;

			served &= served - 1;
			SIM_ASSERT(q->banks[b].lb_dir == LB_NONE);
			if ((((writes ? q->work_wr : q->work_rd) >> b) & 1) == 0)
				continue; /* its last access went */
			t = recache(m, pc, b, writes);
			if (t <= now + 1)
				return false;
			next = min_cycle(next, t);
		}
		while (held != 0) {
			uint32_t b = (uint32_t)__builtin_ctzll(held);
			struct mc_cand c;
			struct ent *e;
			enum dram_cmd cmd;

			held &= held - 1;
			if (!held_choice(m, pc, b, writes, &e, &cmd))
				continue;
			cand_make(m, &c, e, cmd, pc, b); /* as the gather makes it */
			if (c.earliest <= now + 1)
				return false;
			next = min_cycle(next, c.earliest);
		}
	}
	*when = next;
	return true;
}

/* Whether the scheduling of a pass at now may look at the banks accesses arrived at alone
 * (arrivals_only): where the look-ahead applies (m->lookahead), accesses were queued since
 * the last scheduling, which found no cycle before sched_next at which anything could issue
 * (it issued nothing, or after_issue told so); the same direction is served; no refresh falls
 * due, the arrivals leave the same banks held for the refreshes owed (held_banks) and came to
 * none of them (the held banks' candidates, looked at on every scheduling, are as the last
 * one found them). */
static bool arrivals_only_ok(const struct mc *m, bool writes, cycle_t now)
{
	uint32_t pc;

	if (!m->lookahead || !m->queued || now >= m->sched_next || writes != m->served_writes)
		return false;
	for (pc = 0; pc < m->s->pcs; pc++) {
		const struct pcq *q = &m->pcs[pc];

		if (q->ref_due <= now || held_banks(m, q) != q->held_mask ||
		    (q->arrived & q->held_mask) != 0)
			return false;
	}
	return true;
}

/* The scheduling of a pass that arrivals_only_ok allows: the banks accesses arrived at in the
 * direction served are timed and cached as gather_pc would (their bounds were cleared); every
 * other bank's bound is still at or after sched_next. Returns false, at the first of those
 * banks whose command could issue now, for the full scheduling (which keeps what was cached
 * here); else lowers sched_next to their cycles (which keeps it at or before the cycle the
 * full scheduling would find). */
static bool arrivals_only(struct mc *m, bool writes, cycle_t now)
{
	uint32_t pc;

	for (pc = 0; pc < m->s->pcs; pc++) {
		struct pcq *q = &m->pcs[pc];
		uint64_t banks = q->arrived & (writes ? q->work_wr : q->work_rd);

		while (banks != 0) {
			uint32_t b = (uint32_t)__builtin_ctzll(banks);
			cycle_t t;

			banks &= banks - 1;
			t = recache(m, pc, b, writes);
			if (t <= now)
				return false;
			m->sched_next = min_cycle(m->sched_next, t);
		}
		q->arrived = 0;
	}
	m->queued = false;
	return true;
}

/* One pass at cycle now but the input (see the top): completions, refresh and candidates, ECC
 * pre-ops, issue. Returns the next cycle a pass is needed.
 *
 * A pass that a completion brings before sched_next, with no access queued since the last
 * scheduling (queued) and the last one issuing nothing, only completes: its scheduling would
 * find what the last one found (no bound has come, since commands alone move them; no refresh
 * fell due; the same direction and held banks, the queues being unchanged) and issue nothing.
 * Random GDDR6 reads made 6% of their passes so. Not with inline ECC, where a completion's free
 * entry lets an access decide its pre-ops. The debug build makes the full pass and checks that
 * it issues nothing and asks for the same cycle. */
static cycle_t mc_pass(struct mc *m, cycle_t now)
{
	cycle_t next = CYCLE_NEVER;
	bool writes, issued, only_completes;
	struct gather_best best = { NULL, UINT64_MAX };
	size_t n = 0;
	uint32_t pc;
#ifdef SIM_DEBUG
	bool only_arrivals = false, was_draining;
	cycle_t fast_next = CYCLE_NEVER;
#endif

	only_completes = now < m->sched_next && !m->queued && m->p->ecc != MC_ECC_INLINE;
	if (m->rd_done.head != NULL && m->rd_done.head->done <= now)
		complete(m, &m->rd_done, now);
	if (m->wr_done.head != NULL && m->wr_done.head->done <= now)
		complete(m, &m->wr_done, now);
#ifndef SIM_DEBUG
	if (only_completes)
		return next_pass(m, 0, false, m->sched_next, now);
#else
	was_draining = m->draining;
#endif
	writes = serve_writes(m);
#ifdef SIM_DEBUG
	/* a pass the release build skips (only_completes) must not move the write drain either */
	SIM_ASSERT(!only_completes || m->draining == was_draining);
#endif
	if (arrivals_only_ok(m, writes, now) && arrivals_only(m, writes, now)) {
#ifdef SIM_DEBUG
		only_arrivals = true;
		fast_next = m->sched_next;
#else
		return next_pass(m, 0, false, m->sched_next, now);
#endif
	}
	m->queued = false;
	m->served_writes = writes;
#ifdef SIM_DEBUG
	m->dbg_n = 0;
#endif
	for (pc = 0; pc < m->s->pcs; pc++) {
		if (m->lookahead)
			m->pcs[pc].arrived = m->pcs[pc].stood = 0;
		gather_pc(m, pc, writes, now, &next, &n, &best);
	}
	if (m->p->ecc == MC_ECC_INLINE)
		prepare_cands(m, n, now);
	issued = issue_on_buses(m, &n, &best, now);
#ifdef SIM_DEBUG
	/* (the debug build's sched_next is always a full scheduling's: it makes the full pass
	 * after arrivals_only too, and after_issue's is exact) */
	SIM_ASSERT(!only_completes ||
		   (!issued && sched_next_of(m, n, false, next, now) == m->sched_next));
	SIM_ASSERT(!only_arrivals ||
		   (!issued && sched_next_of(m, n, false, next, now) >= fast_next));
#endif
	m->sched_next = sched_next_of(m, n, issued, next, now);
	if (issued && idle_after_issue(m, now)) {
		/* what that pass would leave: no bank held, and next (every pseudo-channel's
		 * refresh deadline, from the gather; the input and completions in next_pass) */
		for (pc = 0; pc < m->s->pcs; pc++)
			m->pcs[pc].held_mask = 0;
		return next_pass(m, 0, false, next, now);
	}
	if (issued && after_issue(m, writes, next, now, &m->sched_next)) {
#ifdef SIM_DEBUG
		/* pass at now + 1 all the same: a full one (only_completes), which checks that
		 * it issues nothing and finds the same sched_next */
		return next_pass(m, 0, true, m->sched_next, now);
#else
		return next_pass(m, 0, false, m->sched_next, now);
#endif
	}
	return next_pass(m, n, issued, next, now);
}

/* An idle controller's passes up to cycle until (inclusive), which it skipped while it slept
 * (see "Idle refresh" at the top). */
static void catch_up(struct mc *m, cycle_t until)
{
	while (m->lazy_next != CYCLE_NEVER && m->lazy_next <= until) {
		/* idle then: accesses sent since (on the input link) are not visible yet */
		SIM_ASSERT(m->nreads + m->nwrites + m->internal + m->inflight == 0);
		m->lazy_next = mc_pass(m, m->lazy_next);
	}
}

static void mc_tick(void *self, cycle_t now)
{
	struct mc *m = self;
	cycle_t next;

	if (m->lazy_next < now)
		catch_up(m, now - 1);
	m->lazy_next = CYCLE_NEVER;
	if (m->in != NULL)
		take_input(m);
	next = mc_pass(m, now);
	if (mc_pending(m) == 0 && m->p->refresh == MC_REFRESH_OFF) {
		clock_sleep(m->unit);
	} else if (m->lazy_refresh && mc_pending(m) == 0) {
		/* Idle: the passes refresh needs are caught up when something comes, or at the
		 * end of the run (mc_settle), at the cycles they fall on. */
		m->lazy_next = next;
		clock_sleep(m->unit);
	} else {
		clock_sleep_until(m->unit, next);
	}
#ifdef SIM_DEBUG
	mc_check(m);
#endif
}

bool mc_set_lookahead(struct mc *m, bool on)
{
	SIM_ASSERT(m->seq == 0); /* no access queued yet: the masks start empty */
	m->lookahead = on && single_issue(m);
	return m->lookahead;
}

void mc_set_lazy_refresh(struct mc *m, bool on)
{
	m->lazy_refresh = on;
}

void mc_settle(struct mc *m, cycle_t until)
{
	catch_up(m, until);
}

/* ---------------------------------------------------------------------------------------------
 * Reports
 */

void mc_waterfall(const struct mc *m, cycle_t now, struct mc_waterfall *w)
{
	uint32_t pc;

	*w = m->wf;
	for (pc = 0; pc < m->s->pcs; pc++) {
		const struct pcq *q = &m->pcs[pc];

		if (now > q->bus_free) {
			if (q->pending == 0)
				w->idle += now - q->bus_free;
			else
				w->other += now - q->bus_free;
		}
	}
}

void mc_sum_add(const struct mc *m, struct mc_sum *sum)
{
	sum->reads += m->st.reads;
	sum->writes += m->st.writes;
	sum->ecc_bursts += m->st.ecc_reads + m->st.ecc_writes + m->st.rmw_reads;
	sum->row_hits += m->st.row_hits;
	sum->row_misses += m->st.row_misses;
	sum->row_conflicts += m->st.row_conflicts;
	sum->refreshes += m->st.refreshes;
	sum->refresh_bank_cycles += m->st.refresh_bank_cycles;
	sum->read_wait_cycles += m->st.read_wait_cycles;
	sum->read_service_cycles += m->st.read_service_cycles;
}

void mc_waterfall_add(struct mc_waterfall *sum, const struct mc_waterfall *w)
{
	sum->data += w->data;
	sum->ecc += w->ecc;
	sum->row += w->row;
	sum->act_window += w->act_window;
	sum->turnaround += w->turnaround;
	sum->refresh += w->refresh;
	sum->other += w->other;
	sum->idle += w->idle;
}

void mc_waterfall_print(FILE *out, const struct mc_waterfall *w, double peak_gbps,
			const char *indent)
{
	uint64_t total = w->data + w->ecc + w->row + w->act_window + w->turnaround + w->refresh +
			 w->other + w->idle;
	double per = total != 0 ? peak_gbps / (double)total : 0.0;

#define ROW(label, gbps) fprintf(out, "%s%-36s %9.1f\n", indent, label, gbps)
	ROW("peak", peak_gbps);
	ROW("- row misses and conflicts", (double)w->row * per);
	ROW("- activate windows (t32AW/FAW/RRD)", (double)w->act_window * per);
	ROW("- read/write turnaround", (double)w->turnaround * per);
	ROW("- refresh", (double)w->refresh * per);
	ROW("- ECC and read-modify-write", (double)w->ecc * per);
	ROW("- other (bus, tCCD, order)", (double)w->other * per);
	ROW("- idle (nothing queued)", (double)w->idle * per);
	ROW("= achieved (bursts moved)", (double)w->data * per);
#undef ROW
}

void mc_dump(const struct mc *m, FILE *out)
{
	uint32_t pc;

	fprintf(out, "mc%u: %u reads, %u writes, %u internal queued, %u in flight, %u on the input "
		"link, %u + %u ports waiting for entries, %s\n", m->ch, m->nreads, m->nwrites,
		m->internal, m->inflight, m->reserved[0] + m->reserved[1], m->waiters[0].n,
		m->waiters[1].n, m->draining ? "draining writes" : "serving reads");
	for (pc = 0; pc < m->s->pcs; pc++)
		fprintf(out, "  pc%u: %u pending, %u refreshes owed, next due at %llu\n", pc,
			m->pcs[pc].pending, m->pcs[pc].owed,
			(unsigned long long)m->pcs[pc].ref_due);
	dram_chan_dump(m->dram, out);
}

void mc_check(const struct mc *m)
{
	uint32_t pc, b, i, rd = 0, wr = 0;

	for (pc = 0; pc < m->s->pcs; pc++) {
		uint32_t pend = 0;

		for (b = 0; b < m->s->banks; b++) {
			rd += m->pcs[pc].banks[b].rd.n;
			wr += m->pcs[pc].banks[b].wr.n;
			pend += m->pcs[pc].banks[b].rd.n + m->pcs[pc].banks[b].wr.n;
			/* the packed bounds mirror the cached candidates */
			for (i = 0; i < 2; i++) {
				const struct bankq *bq = &m->pcs[pc].banks[b];

				uint64_t work = i == 1 ? m->pcs[pc].work_wr : m->pcs[pc].work_rd;
				cycle_t want = bq->lb_dir == LB_DIR(i == 1) ? bq->cand.earliest : 0;

				SIM_ASSERT(m->pcs[pc].bound[i][b] == want);
				/* no work that way: no cached candidate either */
				SIM_ASSERT(((work >> b) & 1) != 0 || want == 0);
			}
		}
		SIM_ASSERT(pend == m->pcs[pc].pending);
	}
	SIM_ASSERT(rd == m->nreads);
	SIM_ASSERT(wr == m->nwrites + m->internal);
	SIM_ASSERT(m->rd_done.n + m->wr_done.n == m->inflight);
	/* the input link holds exactly the entries taken by sent accesses not yet queued */
	SIM_ASSERT(m->in == NULL ? m->reserved[0] + m->reserved[1] == 0
				 : link_occupancy(m->in) == m->reserved[0] + m->reserved[1]);
	SIM_ASSERT(m->req_pending <= mc_pending(m));
	/* a controller that skips its passes has nothing queued or in flight */
	SIM_ASSERT(m->lazy_next == CYCLE_NEVER ||
		   m->nreads + m->nwrites + m->internal + m->inflight == 0);
	for (i = 0; i < 2; i++) {
		SIM_ASSERT(m->waiters[i].n <= m->nports);
		/* a line waits only while its entries are short */
		SIM_ASSERT(m->waiters[i].n == 0 ||
			   free_entries(m, i == 1) <= m->waiters[i].granted);
	}
	/* the senders' mirrors of the line (mc_port_watch) */
	for (i = 0; i < m->nports; i++) {
		const struct mc_port *pt = &m->ports[i];
		bool in_line = m->waiters[0].state[i] == WAIT_LINE ||
			       m->waiters[1].state[i] == WAIT_LINE;

		SIM_ASSERT(pt->line_word == NULL || ((*pt->line_word & pt->line_bit) != 0) == in_line);
	}
}

_Static_assert(sizeof mc_fields / sizeof mc_fields[0] == MC_NFIELDS, "MC_NFIELDS must count mc_fields");
