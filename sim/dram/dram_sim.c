/*
 * dram_sim.c - the standalone DRAM simulation: front end, controllers, measurements and report
 * (contract in dram_sim.h).
 *
 * Ownership: the sim owns the event queue, the DRAM clock, the controllers, the request pool and
 * the statistics. Requests come from a pool sized to what the controllers can hold, so nothing is
 * allocated per request.
 *
 * End of a run: when the stream is exhausted (or broken) and the last request has completed, the
 * completion handler stops the event queue; the controllers' refresh deadlines would otherwise
 * keep it going for ever. So would a request that never completes (a model bug: a lost wake or
 * a lost completion), which the watchdog turns into an error: progress is an access accepted
 * by a controller or a burst completed (progress_at); one event, due watchdog_cycles after the
 * last progress, moves to that cycle while progress goes on, and fires when it finds none with
 * work left (requests in flight, accesses held back, or a record due and not yet presented; a
 * front end waiting for a later record's cycle with nothing in flight is idle, not stuck).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "clock.h"
#include "dram_check.h"
#include "dram_sim.h"
#include "eventq.h"
#include "log.h"

struct dreq {
	uint32_t bursts_left;
	uint32_t bytes;
	bool is_write;
	bool accepted;
	cycle_t first_accept;
	struct dreq *next;
};

/* A ring of accesses waiting for one channel's controller. */
struct backlog {
	struct mc_access *a;
	uint32_t head, n;
	/* The controller refused the head for lack of entries when its mc_room_gen was full_gen:
	 * asking again before that changes would be refused the same way. */
	bool full;
	uint64_t full_gen;
};

struct dram_totals {
	uint64_t cycles, events, ticks, requests, reads, writes, bytes_moved, bytes_useful;
	uint64_t bursts, ecc_bursts, row_hits, row_misses, row_conflicts, refreshes;
	uint64_t refresh_bank_cycles;
	double time_ns, host_seconds, peak_gbps, achieved_gbps, moved_gbps;
	double row_hit_rate, refresh_pct, ecc_pct;
};

struct dram_sim {
	struct dram_spec spec;
	struct addrmap map;
	struct addrmap_memo map_memo; /* map's last chunk (a request's bursts share it) */
	struct dram_sim_opts o;
	const struct mc_params *mcp;
	struct eventq *q;
	struct clock *clk;
	struct clock_unit *fe;
	struct mc **mcs;
	struct stats *st;
	struct stats_dist *rd_lat, *wr_lat;
	struct dram_check *check;
	/* front end */
	struct dram_trace *trace;
	struct dram_trace_rec rec;
	bool has_rec, trace_done, trace_failed, stopped_at_limit, watchdog_fired;
	cycle_t progress_at;       /* the last cycle an access was accepted or a burst completed */
	uint64_t reads_done;       /* bursts read, for opts.lose_read */
	struct sim_err trace_err;
	uint32_t rec_bursts_done;
	struct dreq *cur;
	struct mc_access acc;      /* the burst being presented, decoded (acc_ready) */
	bool acc_ready;
	struct backlog *bl;        /* per channel: accesses held back, in order */
	uint64_t bl_total;
	struct dreq *pool, *free;
	uint64_t outstanding;
	struct dram_totals tot;
};

static void fe_tick(void *self, cycle_t now);

/* ---------------------------------------------------------------------------------------------
 * Creation
 */

static void register_totals(struct dram_sim *ds)
{
	struct stats *st = ds->st;
	struct dram_totals *t = &ds->tot;

	stats_counter(st, "sim.cycles", "DRAM clock cycles simulated (standalone mode)", &t->cycles);
	stats_real(st, "sim.time_ns", "simulated time, ns", &t->time_ns, 0);
	stats_real(st, "sim.host_seconds", "wall-clock seconds of the run", &t->host_seconds,
		   STATS_HOST);
	stats_counter_flags(st, "sim.events", "events fired (the simulator's own work: left out by "
			    "--stats-no-host)", &t->events, STATS_HOST);
	stats_counter_flags(st, "sim.ticks", "unit ticks: controller passes and front-end ticks "
			    "(the simulator's own work: left out by --stats-no-host)", &t->ticks,
			    STATS_HOST);
	stats_counter(st, "dram.requests", "requests completed", &t->requests);
	stats_counter(st, "dram.reads", "read requests completed", &t->reads);
	stats_counter(st, "dram.writes", "write requests completed", &t->writes);
	stats_counter(st, "dram.bytes_moved", "bytes on the data bus, ECC and RMW included",
		      &t->bytes_moved);
	stats_counter(st, "dram.bytes_useful", "bytes the requests asked for", &t->bytes_useful);
	stats_counter(st, "dram.bursts", "32 B bursts for requests", &t->bursts);
	stats_counter(st, "dram.ecc_bursts", "32 B bursts for ECC and read-modify-write",
		      &t->ecc_bursts);
	stats_real(st, "dram.peak_gbps", "peak bandwidth, GB/s", &t->peak_gbps, 0);
	stats_real(st, "dram.achieved_gbps", "useful bytes per second, GB/s", &t->achieved_gbps, 0);
	stats_real(st, "dram.moved_gbps", "bytes moved per second, GB/s", &t->moved_gbps, 0);
	stats_counter(st, "dram.row_hits", "accesses to an open row", &t->row_hits);
	stats_counter(st, "dram.row_misses", "accesses to a closed bank", &t->row_misses);
	stats_counter(st, "dram.row_conflicts", "accesses to a bank with another row open",
		      &t->row_conflicts);
	stats_real(st, "dram.row_hit_rate", "row hits / accesses", &t->row_hit_rate, 0);
	stats_counter(st, "dram.refreshes", "refresh commands", &t->refreshes);
	stats_counter(st, "dram.refresh_bank_cycles", "bank-cycles spent refreshing",
		      &t->refresh_bank_cycles);
	stats_real(st, "dram.refresh_pct", "share of bank time spent refreshing, %",
		   &t->refresh_pct, 0);
	stats_real(st, "dram.ecc_pct", "share of bursts moved for ECC, %", &t->ecc_pct, 0);
	ds->rd_lat = stats_dist(st, "dram.read_latency_ns",
				"read latency, controller arrival to last data, ns", 0, 10000, 10000);
	ds->wr_lat = stats_dist(st, "dram.write_latency_ns",
				"write latency, controller arrival to data written, ns", 0, 10000,
				10000);
}

static void on_done(void *ctx, const struct mc_access *a, cycle_t arrival, cycle_t done);

struct dram_sim *dram_sim_create(const struct dram_params *dp, const struct dram_timing_params *tp,
				 const struct addrmap_params *mp, const struct mc_params *cp,
				 const struct dram_sim_opts *o, struct sim_err *err)
{
	struct dram_sim *ds = xcalloc(1, sizeof *ds);
	struct addrmap_geom g;
	uint32_t ch, n;
	char prefix[32];

	if (dram_spec_resolve(&ds->spec, dp, tp, err) != 0 ||
	    mc_params_check(cp, &ds->spec, err) != 0) {
		free(ds);
		return NULL;
	}
	mc_map_geom(cp, &ds->spec, ds->spec.channels, &g);
	if (addrmap_init(&ds->map, mp, &g, err) != 0) {
		free(ds);
		return NULL;
	}
	ds->o = *o;
	ds->mcp = cp;
	ds->q = eventq_create();
	ds->clk = clock_create(ds->q, "dram", ds->spec.tck_ps);
	ds->st = stats_create();
	register_totals(ds);
	if (o->check)
		ds->check = dram_check_create(&ds->spec);
	ds->mcs = xcalloc(ds->spec.channels, sizeof *ds->mcs);
	for (ch = 0; ch < ds->spec.channels; ch++) {
		snprintf(prefix, sizeof prefix, "mc%u", ch);
		ds->mcs[ch] = mc_create(cp, &ds->spec, ch, ds->clk, on_done, ds, ds->st, prefix);
		if (ds->check != NULL)
			dram_chan_set_hook(mc_dram(ds->mcs[ch]), dram_check_hook, ds->check);
	}
	/* The front end ticks after the controllers in each cycle (units tick in attach order): an
	 * access it hands over at cycle t is scheduled from t + 1, as a GPU's L2 slice's is (its
	 * input link takes a cycle), whether the controller was awake at t or asleep. Ticking
	 * first, it reached an awake controller at t and a sleeping one at t + 1. */
	ds->fe = clock_attach(ds->clk, "frontend", fe_tick, ds);
	for (ch = 0; ch < ds->spec.channels; ch++)
		mc_set_producer(ds->mcs[ch], ds->fe);
	ds->bl = xcalloc(ds->spec.channels, sizeof *ds->bl);
	for (ch = 0; ch < ds->spec.channels && o->frontend_buffer != 0; ch++)
		ds->bl[ch].a = xcalloc(o->frontend_buffer, sizeof *ds->bl[ch].a);
	/* At most one request per queue or buffer entry can be outstanding, plus the one being
	 * split. */
	n = ds->spec.channels * (cp->read_queue + cp->write_queue + o->frontend_buffer) + 1;
	ds->pool = xcalloc(n, sizeof *ds->pool);
	while (n-- > 0) {
		ds->pool[n].next = ds->free;
		ds->free = &ds->pool[n];
	}
	return ds;
}

void dram_sim_destroy(struct dram_sim *ds)
{
	uint32_t ch;

	if (ds == NULL)
		return;
	for (ch = 0; ch < ds->spec.channels; ch++)
		mc_destroy(ds->mcs[ch]);
	free(ds->mcs);
	for (ch = 0; ch < ds->spec.channels; ch++)
		free(ds->bl[ch].a);
	free(ds->bl);
	dram_check_destroy(ds->check);
	clock_destroy(ds->clk);
	eventq_destroy(ds->q);
	stats_destroy(ds->st);
	free(ds->pool);
	free(ds);
}

const struct dram_spec *dram_sim_spec(const struct dram_sim *ds)
{
	return &ds->spec;
}

const struct addrmap *dram_sim_map(const struct dram_sim *ds)
{
	return &ds->map;
}

struct stats *dram_sim_stats(struct dram_sim *ds)
{
	return ds->st;
}

double dram_sim_host_seconds(const struct dram_sim *ds)
{
	return ds->tot.host_seconds;
}

bool dram_sim_hit_limit(const struct dram_sim *ds)
{
	return ds->stopped_at_limit;
}

/* ---------------------------------------------------------------------------------------------
 * Front end
 */

static void maybe_finish(struct dram_sim *ds)
{
	if (ds->trace_done && ds->outstanding == 0 && !ds->has_rec)
		eventq_stop(ds->q);
}

static void accepted(struct dram_sim *ds, const struct mc_access *a, cycle_t now)
{
	struct dreq *r = a->ctx;

	ds->progress_at = now;
	if (!r->accepted) {
		r->accepted = true;
		r->first_accept = now;
	}
}

/* After m refused an access of this kind: if for lack of entries (not its per-cycle budget), the
 * channel is full until mc_room_gen changes, and drain_backlogs does not ask before. */
static void note_full(struct backlog *b, const struct mc *m, bool is_write)
{
	if (!mc_has_room(m, is_write)) {
		b->full = true;
		b->full_gen = mc_room_gen(m);
	}
}

/* Hands held-back accesses to their controllers, oldest first per channel. */
static void drain_backlogs(struct dram_sim *ds, cycle_t now)
{
	uint32_t ch, cap = ds->o.frontend_buffer;

	for (ch = 0; ch < ds->spec.channels && ds->bl_total != 0; ch++) {
		struct backlog *b = &ds->bl[ch];
		struct mc *m = ds->mcs[ch];

		if (b->n == 0 || (b->full && mc_room_gen(m) == b->full_gen))
			continue;
		b->full = false;
		while (b->n != 0 && mc_try_enqueue(m, &b->a[b->head])) {
			accepted(ds, &b->a[b->head], now);
			b->head = (b->head + 1) % cap;
			b->n--;
			ds->bl_total--;
		}
		if (b->n != 0)
			note_full(b, m, b->a[b->head].is_write);
	}
}

/* Gives an access to its controller, or holds it back. False when neither is possible. */
static bool send(struct dram_sim *ds, const struct mc_access *a, cycle_t now)
{
	struct backlog *b = &ds->bl[a->da.ch];
	struct mc *m = ds->mcs[a->da.ch];
	uint32_t cap = ds->o.frontend_buffer;

	if (b->n == 0) {
		if (mc_try_enqueue(m, a)) {
			accepted(ds, a, now);
			return true;
		}
		note_full(b, m, a->is_write);
	}
	if (b->n == cap)
		return false; /* the controller wakes us when it has room */
	b->a[(b->head + b->n) % cap] = *a;
	b->n++;
	ds->bl_total++;
	return true;
}

static void on_done(void *ctx, const struct mc_access *a, cycle_t arrival, cycle_t done)
{
	struct dram_sim *ds = ctx;
	struct dreq *r = a->ctx;
	double ns;

	(void)arrival;
	SIM_ASSERT(r->bursts_left > 0);
	if (done > ds->progress_at)
		ds->progress_at = done;
	/* the injected fault: this burst's completion is lost, its request never completes */
	if (ds->o.lose_read != 0 && !a->is_write && ++ds->reads_done == ds->o.lose_read)
		return;
	if (--r->bursts_left != 0)
		return;
	ns = (double)(done - r->first_accept) * (double)ds->spec.tck_ps / 1000.0;
	stats_dist_add(r->is_write ? ds->wr_lat : ds->rd_lat, ns);
	ds->tot.requests++;
	if (r->is_write)
		ds->tot.writes++;
	else
		ds->tot.reads++;
	ds->tot.bytes_useful += r->bytes;
	ds->outstanding--;
	r->next = ds->free;
	ds->free = r;
	clock_wake(ds->fe); /* it may be waiting for a request slot */
	maybe_finish(ds);
}

/* Presents the current record's remaining bursts. Returns false if a controller refused one
 * (the front end then waits to be woken). */
static bool present(struct dram_sim *ds, cycle_t now)
{
	const struct dram_trace_rec *rec = &ds->rec;
	addr_t first = rec->addr & ~(addr_t)(ds->spec.burst_bytes - 1);
	addr_t end = rec->addr + rec->bytes;
	uint32_t nbursts = (uint32_t)((end - first + ds->spec.burst_bytes - 1) /
				      ds->spec.burst_bytes);

	if (ds->cur == NULL) {
		if (ds->free == NULL)
			return false; /* a completion frees one and wakes us */
		ds->cur = ds->free;
		ds->free = ds->cur->next;
		memset(ds->cur, 0, sizeof *ds->cur);
		ds->cur->bursts_left = nbursts;
		ds->cur->bytes = rec->bytes;
		ds->cur->is_write = rec->is_write;
		ds->outstanding++;
	}
	while (ds->rec_bursts_done < nbursts) {
		struct mc_access *acc = &ds->acc;

		/* a refused burst is presented again as decoded then */
		if (!ds->acc_ready) {
			addr_t ba = first + (addr_t)ds->rec_bursts_done * ds->spec.burst_bytes;

			memset(acc, 0, sizeof *acc);
			acc->addr = ba;
			addrmap_decode_memo(&ds->map, &ds->map_memo, ba, &acc->da);
			acc->is_write = rec->is_write;
			acc->partial = rec->is_write &&
				       (ba < rec->addr || ba + ds->spec.burst_bytes > end);
			acc->ctx = ds->cur;
			ds->acc_ready = true;
		}
		if (!send(ds, acc, now))
			return false;
		ds->acc_ready = false;
		ds->rec_bursts_done++;
	}
	ds->cur = NULL;
	ds->has_rec = false;
	return true;
}

static void fe_tick(void *self, cycle_t now)
{
	struct dram_sim *ds = self;
	uint32_t budget = ds->o.requests_per_cycle != 0 ? ds->o.requests_per_cycle : UINT32_MAX;

	drain_backlogs(ds, now);
	while (budget > 0) {
		if (!ds->has_rec) {
			int r;

			if (ds->trace_done)
				break;
			r = dram_trace_next(ds->trace, &ds->rec, &ds->trace_err);
			if (r <= 0) {
				ds->trace_done = true;
				ds->trace_failed = r < 0;
				break;
			}
			ds->has_rec = true;
			ds->rec_bursts_done = 0;
		}
		if (ds->rec.has_cycle && ds->rec.cycle > now) {
			clock_sleep_until(ds->fe, ds->rec.cycle);
			return;
		}
		if (!present(ds, now)) {
			clock_sleep(ds->fe);
			return;
		}
		budget--;
	}
	if (ds->trace_done) {
		clock_sleep(ds->fe);
		maybe_finish(ds);
	}
	/* Out of budget: stay awake for the next cycle. */
}

/* The last cycle whose edge tick fits in tick_t. */
static cycle_t last_cycle(const struct dram_sim *ds)
{
	return (TICK_NEVER - 1) / ds->spec.tck_ps;
}

/* Whether the front end holds a record whose cycle is still ahead. */
static bool record_ahead(const struct dram_sim *ds, cycle_t now)
{
	return ds->has_rec && ds->rec.has_cycle && ds->rec.cycle > now;
}

/* Work that should make progress: requests in flight, accesses held back, or a record due and
 * not yet presented (the front end waits for nothing else). */
static bool work_left(const struct dram_sim *ds, cycle_t now)
{
	return ds->outstanding != 0 || ds->bl_total != 0 || (ds->has_rec && !record_ahead(ds, now));
}

static void watchdog(void *ctx, tick_t tick)
{
	struct dram_sim *ds = ctx;
	cycle_t now = tick / ds->spec.tck_ps, due;
	uint32_t ch;

	if (!work_left(ds, now)) /* idle: the span counts from the next record's cycle */
		ds->progress_at = record_ahead(ds, now) ? ds->rec.cycle : now;
	due = ds->progress_at + ds->o.watchdog_cycles;
	if (due > now) {
		/* (a span past the last cycle a tick can hold: no watchdog from here) */
		if (due <= last_cycle(ds))
			eventq_schedule(ds->q, clock_tick_of(ds->clk, due), EVQ_PRIO_EXIT, watchdog,
					ds);
		return;
	}
	ds->watchdog_fired = true;
	fprintf(stderr, "gmsim: watchdog at DRAM cycle %" PRIu64 ": no access accepted or completed "
		"since cycle %" PRIu64 " with %" PRIu64 " requests in flight and %" PRIu64
		" accesses held back; state of every controller with work:\n", (uint64_t)now,
		(uint64_t)ds->progress_at, ds->outstanding, ds->bl_total);
	for (ch = 0; ch < ds->spec.channels; ch++)
		if (mc_pending(ds->mcs[ch]) != 0 || ds->bl[ch].n != 0) {
			fprintf(stderr, "front end: %" PRIu32 " accesses held back for channel %" PRIu32
				"\n", ds->bl[ch].n, ch);
			mc_dump(ds->mcs[ch], stderr);
		}
	fprintf(stderr, "gmsim: watchdog: end of state dump\n");
	eventq_stop(ds->q);
}

static void at_limit(void *ctx, tick_t now)
{
	struct dram_sim *ds = ctx;

	(void)now;
	ds->stopped_at_limit = true;
	eventq_stop(ds->q);
}

/* ---------------------------------------------------------------------------------------------
 * Run and totals
 */

static void totals(struct dram_sim *ds, double host_seconds)
{
	struct dram_totals *t = &ds->tot;
	const struct dram_spec *s = &ds->spec;
	uint32_t ch;

	t->cycles = clock_cycle(ds->clk);
	t->time_ns = (double)t->cycles * (double)s->tck_ps / 1000.0;
	t->events = eventq_fired(ds->q);
	t->ticks = clock_ticks(ds->clk);
	t->host_seconds = host_seconds;
	{
		struct mc_sum sum;

		memset(&sum, 0, sizeof sum);
		for (ch = 0; ch < s->channels; ch++)
			mc_sum_add(ds->mcs[ch], &sum);
		t->bursts = sum.reads + sum.writes;
		t->ecc_bursts = sum.ecc_bursts;
		t->row_hits = sum.row_hits;
		t->row_misses = sum.row_misses;
		t->row_conflicts = sum.row_conflicts;
		t->refreshes = sum.refreshes;
		t->refresh_bank_cycles = sum.refresh_bank_cycles;
	}
	t->bytes_moved = (t->bursts + t->ecc_bursts) * s->burst_bytes;
	t->peak_gbps = s->peak_gbps;
	t->achieved_gbps = t->time_ns > 0 ? (double)t->bytes_useful / t->time_ns : 0.0;
	t->moved_gbps = t->time_ns > 0 ? (double)t->bytes_moved / t->time_ns : 0.0;
	{
		uint64_t acc = t->row_hits + t->row_misses + t->row_conflicts;

		t->row_hit_rate = acc != 0 ? (double)t->row_hits / (double)acc : 0.0;
	}
	t->refresh_pct = t->cycles != 0
		? 100.0 * (double)t->refresh_bank_cycles /
		  ((double)t->cycles * s->channels * s->pcs * s->banks)
		: 0.0;
	t->ecc_pct = t->bursts + t->ecc_bursts != 0
		? 100.0 * (double)t->ecc_bursts / (double)(t->bursts + t->ecc_bursts) : 0.0;
}

int dram_sim_run(struct dram_sim *ds, struct dram_trace *t, struct sim_err *err)
{
	struct timespec t0, t1;

	ds->trace = t;
	/* A record whose edge tick would not fit in tick_t never arrives: make it an error rather
	 * than a run that waits for it for ever (refresh keeps the event queue going). */
	dram_trace_set_max_cycle(t, last_cycle(ds));
	if (ds->o.max_cycles != 0)
		eventq_schedule(ds->q, clock_tick_of(ds->clk, ds->o.max_cycles), EVQ_PRIO_EXIT,
				at_limit, ds);
	if (ds->o.watchdog_cycles != 0 && ds->o.watchdog_cycles <= last_cycle(ds))
		eventq_schedule(ds->q, clock_tick_of(ds->clk, ds->o.watchdog_cycles), EVQ_PRIO_EXIT,
				watchdog, ds);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_wake(ds->fe);
	eventq_run_until(ds->q, TICK_NEVER);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	totals(ds, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
	/* the watchdog first (a stall after a bad record is the model's fault) */
	if (ds->watchdog_fired)
		return sim_err_set(err, NULL, 0, "watchdog: %" PRIu64 " DRAM cycles with requests "
				   "left and no access accepted or completed, since cycle %" PRIu64
				   " (sim.watchdog_cycles)", ds->o.watchdog_cycles,
				   (uint64_t)ds->progress_at);
	if (ds->trace_failed) {
		*err = ds->trace_err;
		return -1;
	}
	return 0;
}

bool dram_sim_watchdog_fired(const struct dram_sim *ds)
{
	return ds->watchdog_fired;
}

uint64_t dram_sim_check_violations(const struct dram_sim *ds, const char **first)
{
	if (ds->check == NULL) {
		*first = "";
		return 0;
	}
	*first = dram_check_first(ds->check);
	return dram_check_violations(ds->check);
}

uint64_t dram_sim_checked_commands(const struct dram_sim *ds)
{
	return ds->check != NULL ? dram_check_commands(ds->check) : 0;
}

/* ---------------------------------------------------------------------------------------------
 * Report
 */

static void print_lat(FILE *out, const char *what, const struct stats_dist *d)
{
	if (stats_dist_count(d) == 0) {
		fprintf(out, "  %-6s latency: none\n", what);
		return;
	}
	fprintf(out, "  %-6s latency: mean %.1f ns, p50 %.1f ns, p99 %.1f ns (%" PRIu64
		     " requests)\n", what, stats_dist_mean(d), stats_dist_quantile(d, 0.5),
		stats_dist_quantile(d, 0.99), stats_dist_count(d));
}

void dram_sim_report(struct dram_sim *ds, FILE *out)
{
	const struct dram_spec *s = &ds->spec;
	const struct dram_totals *t = &ds->tot;
	struct mc_waterfall w, sum;
	uint64_t ch_min = UINT64_MAX, ch_max = 0, ch_sum = 0;
	double util;
	uint32_t ch;
	char map[256];

	memset(&sum, 0, sizeof sum);
	for (ch = 0; ch < s->channels; ch++) {
		uint64_t d;

		mc_waterfall(ds->mcs[ch], t->cycles, &w);
		mc_waterfall_add(&sum, &w);
		d = dram_chan_stats(mc_dram(ds->mcs[ch]))->data_cycles;
		ch_min = d < ch_min ? d : ch_min;
		ch_max = d > ch_max ? d : ch_max;
		ch_sum += d;
	}
	addrmap_describe(&ds->map, map, sizeof map);
	fprintf(out, "dram: %s, %u channels x %u pseudo-channel%s, %.3g Gb/s, tCK %" PRIu64
		     " ps, map %s, refresh %s, ecc %s\n",
		s->std_name, s->channels, s->pcs, s->pcs > 1 ? "s" : "", s->data_rate_gbps,
		(uint64_t)s->tck_ps, map,
		ds->mcp->refresh == MC_REFRESH_PER_BANK ? "per-bank"
		: ds->mcp->refresh == MC_REFRESH_ALL_BANK ? "all-bank" : "OFF",
		ds->mcp->ecc == MC_ECC_INLINE ? "inline" : ds->mcp->ecc == MC_ECC_SIDEBAND
		? "sideband" : "off");
	{
		struct rusage ru;
		double rss_mb = getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss / 1024.0 : 0;

		fprintf(out, "run: %" PRIu64 " requests (%" PRIu64 " reads, %" PRIu64 " writes) in %"
			     PRIu64 " cycles = %.3f us; host %.2f s, %.2f M requests/s, %.0f MB "
			     "peak RSS\n",
			t->requests, t->reads, t->writes, t->cycles, t->time_ns / 1000.0,
			t->host_seconds,
			t->host_seconds > 0 ? (double)t->requests / t->host_seconds / 1e6 : 0.0,
			rss_mb);
	}
	fprintf(out, "bandwidth: achieved %.1f GB/s of %.1f GB/s peak (%.1f%%); moved %.1f GB/s "
		     "(%" PRIu64 " B useful, %" PRIu64 " B moved)\n",
		t->achieved_gbps, t->peak_gbps, 100.0 * t->achieved_gbps / t->peak_gbps,
		t->moved_gbps, t->bytes_useful, t->bytes_moved);
	print_lat(out, "read", ds->rd_lat);
	print_lat(out, "write", ds->wr_lat);
	{
		uint64_t acc = t->row_hits + t->row_misses + t->row_conflicts;
		double a = acc != 0 ? (double)acc : 1.0;

		fprintf(out, "rows: %.1f%% hits, %.1f%% misses (closed bank), %.1f%% conflicts "
			     "(other row open)\n", 100.0 * (double)t->row_hits / a,
			100.0 * (double)t->row_misses / a, 100.0 * (double)t->row_conflicts / a);
	}
	fprintf(out, "refresh: %" PRIu64 " commands, %.2f%% of bank time; ecc: %.2f%% of bursts\n",
		t->refreshes, t->refresh_pct, t->ecc_pct);
	util = t->cycles != 0 ? 100.0 / ((double)t->cycles * s->pcs) : 0.0;
	fprintf(out, "data-bus utilisation per channel: min %.1f%%, mean %.1f%%, max %.1f%%\n",
		(double)ch_min * util, (double)ch_sum / s->channels * util, (double)ch_max * util);
	{
		/* A bank is busy for a burst's data cycles; its share of the run. */
		uint64_t bmin = UINT64_MAX, bmax = 0, bsum = 0, nb = 0;
		uint32_t i;

		for (ch = 0; ch < s->channels; ch++) {
			const struct dram_chan_stats *cs = dram_chan_stats(mc_dram(ds->mcs[ch]));

			for (i = 0; i < s->pcs * s->banks; i++, nb++) {
				uint64_t v = cs->bank_bursts[i];

				bmin = v < bmin ? v : bmin;
				bmax = v > bmax ? v : bmax;
				bsum += v;
			}
		}
		util = t->cycles != 0 ? 100.0 * s->burst_cycles / (double)t->cycles : 0.0;
		fprintf(out, "data-bus utilisation per bank: min %.2f%%, mean %.2f%%, max %.2f%% "
			     "(%" PRIu64 " banks; per bank in --stats-json)\n",
			(double)bmin * util, (double)bsum / (double)nb * util, (double)bmax * util,
			nb);
	}

	fprintf(out, "bandwidth waterfall (GB/s; the lines sum to the peak):\n");
	mc_waterfall_print(out, &sum, t->peak_gbps, "  ");
}
