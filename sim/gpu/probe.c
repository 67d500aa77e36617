/*
 * probe.c - pointer chase and stream drivers of the memory hierarchy (contract in probe.h).
 *
 * Each SM in use is a unit of the core clock that pushes line requests into its L1 and pops
 * the replies; it sleeps while it waits (its reply link wakes it, and so does its request link
 * when a refused push may go through). Requests come from the simulation's pool and go back to
 * it when their reply is popped. Nothing is allocated per load.
 *
 * Not modelled here: instruction issue, the coalescer and warps (the front end's job); a probe
 * load is one request for one sector (chase) or one whole line (stream).
 */
#include "config.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "eventq.h"
#include "link.h"
#include "probe.h"
#include "req.h"
#include "sim.h"
#include "stats.h"

#define LINE_BYTES 128
#define SECTOR_BYTES 32

struct probe_sm {
	struct probe *pr;
	uint32_t id;
	struct clock_unit *unit;
	struct link *in, *resp;
	uint64_t next_addr;     /* stream: next line of its share */
	uint64_t share_lo, share_hi;
	uint32_t inflight;
};

struct probe {
	struct sim *s;
	const struct probe_opts *o;
	struct clock *clk;
	struct req_pool *pool;
	struct probe_sm *sm;
	uint32_t nsm;
	/* chase */
	uint32_t *next_slot;    /* the cyclic order: slot -> next slot */
	uint32_t cur;
	uint64_t warm, timed;   /* loads done in the warm-up pass, and timed */
	uint64_t warmup;
	cycle_t issued_at;
	cycle_t t0;
	bool waiting;
	struct stats *st;
	struct stats_dist *lat;
	/* stream */
	uint64_t issued, done;
	uint64_t bytes;
	cycle_t last;
};

static struct mem_req *new_load(struct probe *pr, uint32_t sm, addr_t addr, uint32_t sectors)
{
	struct mem_req *r = req_alloc(pr->pool, eventq_now(clock_eventq(pr->clk)));

	r->type = MEM_REQ_LOAD;
	r->addr = addr & ~(addr_t)(LINE_BYTES - 1);
	r->sector_mask = sectors;
	r->bytes = sectors == 0xf ? LINE_BYTES : 8;
	r->sm = (uint16_t)sm;
	return r;
}

/* ---------------------------------------------------------------------------------------------
 * Chase: one load in flight on SM 0.
 */

static void chase_tick(void *self, cycle_t now)
{
	struct probe_sm *ps = self;
	struct probe *pr = ps->pr;
	struct mem_req *r;

	while ((r = link_peek(ps->resp)) != NULL) {
		link_pop(ps->resp);
		req_free(pr->pool, r, eventq_now(clock_eventq(pr->clk)));
		if (pr->warm < pr->warmup) {
			pr->warm++;
		} else {
			stats_dist_add(pr->lat, (double)(now - pr->issued_at));
			pr->timed++;
		}
		pr->waiting = false;
		if (pr->timed == pr->o->loads) {
			pr->last = now;
			clock_sleep(ps->unit);
			eventq_stop(clock_eventq(pr->clk));
			return;
		}
	}
	if (!pr->waiting) {
		addr_t a = (addr_t)pr->cur * pr->o->stride;
		uint32_t sector = (uint32_t)((a % LINE_BYTES) / SECTOR_BYTES);

		if (!link_can_push(ps->in)) {
			clock_sleep(ps->unit);
			return;
		}
		if (pr->warm == pr->warmup && pr->timed == 0)
			pr->t0 = now;
		link_push(ps->in, new_load(pr, 0, a, 1u << sector));
		pr->issued_at = now;
		pr->waiting = true;
		pr->cur = pr->next_slot[pr->cur];
	}
	clock_sleep(ps->unit);
}

/* Sattolo's shuffle: a single cycle through all n slots. */
static uint32_t *cyclic_order(uint32_t n, uint64_t seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	uint32_t *perm = xcalloc(n, sizeof *perm), *next = xcalloc(n, sizeof *next);
	uint32_t i;

	gsl_rng_set(rng, (unsigned long)(seed ^ (seed >> 32)));
	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)gsl_rng_uniform_int(rng, i); /* 0 .. i-1 */
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < n; i++)
		next[perm[i]] = perm[(i + 1) % n];
	free(perm);
	gsl_rng_free(rng);
	return next;
}

/* ---------------------------------------------------------------------------------------------
 * Stream: every SM keeps `window` line loads in flight over its share.
 */

static void stream_tick(void *self, cycle_t now)
{
	struct probe_sm *ps = self;
	struct probe *pr = ps->pr;
	struct mem_req *r;

	while ((r = link_peek(ps->resp)) != NULL) {
		link_pop(ps->resp);
		req_free(pr->pool, r, eventq_now(clock_eventq(pr->clk)));
		ps->inflight--;
		pr->done++;
		pr->bytes += LINE_BYTES;
		if (pr->done == pr->o->loads) {
			pr->last = now;
			eventq_stop(clock_eventq(pr->clk));
			clock_sleep(ps->unit);
			return;
		}
	}
	while (ps->inflight < pr->o->window && pr->issued < pr->o->loads && link_can_push(ps->in)) {
		link_push(ps->in, new_load(pr, ps->id, ps->next_addr, 0xf));
		ps->next_addr += LINE_BYTES;
		if (ps->next_addr >= ps->share_hi)
			ps->next_addr = ps->share_lo;
		ps->inflight++;
		pr->issued++;
	}
	clock_sleep(ps->unit);
}

/* ---------------------------------------------------------------------------------------------
 * Run
 */

int probe_run(struct sim *s, const struct probe_opts *o, struct probe_result *res,
	      struct sim_err *err)
{
	struct probe pr;
	uint32_t i, nsm = sim_sms(s);

	memset(&pr, 0, sizeof pr);
	memset(res, 0, sizeof *res);
	if (o->loads == 0)
		return sim_err_set(err, NULL, 0, "probe: --loads must be at least 1");
	if (o->kind == PROBE_CHASE) {
		uint64_t slots;

		if (o->stride < 8 || o->stride % 8 != 0)
			return sim_err_set(err, NULL, 0, "probe: --stride must be a multiple of 8 "
					   "bytes, got %u", o->stride);
		slots = o->footprint / o->stride;
		if (slots < 2 || slots > (1u << 28))
			return sim_err_set(err, NULL, 0, "probe: footprint / stride gives %llu slots; "
					   "2 .. 2^28 are possible", (unsigned long long)slots);
		pr.next_slot = cyclic_order((uint32_t)slots, o->seed);
		pr.warmup = slots;
		nsm = 1;
	} else {
		if (o->window == 0)
			return sim_err_set(err, NULL, 0, "probe: --window must be at least 1");
		if (o->sms != 0 && o->sms < nsm)
			nsm = o->sms;
		if (o->footprint < (uint64_t)nsm * LINE_BYTES)
			return sim_err_set(err, NULL, 0, "probe: footprint %llu B is smaller than a line "
					   "per SM", (unsigned long long)o->footprint);
	}
	pr.s = s;
	pr.o = o;
	pr.clk = sim_core_clock(s);
	pr.pool = sim_pool(s);
	pr.nsm = nsm;
	pr.st = sim_stats(s);
	pr.lat = stats_dist(pr.st, "load_latency_cycles",
			    "probe load latency, issue to reply, core cycles", 0, 20000, 20000);
	pr.sm = xcalloc(nsm, sizeof *pr.sm);
	for (i = 0; i < nsm; i++) {
		struct probe_sm *ps = &pr.sm[i];
		char name[32];
		uint64_t share = o->footprint / nsm / LINE_BYTES * LINE_BYTES;

		ps->pr = &pr;
		ps->id = i;
		ps->in = sim_sm_in(s, i);
		ps->resp = sim_sm_resp(s, i);
		ps->share_lo = ps->next_addr = (uint64_t)i * share;
		ps->share_hi = ps->share_lo + (share > 0 ? share : LINE_BYTES);
		snprintf(name, sizeof name, "probe%u", i);
		ps->unit = clock_attach(pr.clk, name, o->kind == PROBE_CHASE ? chase_tick : stream_tick,
					ps);
		link_set_consumer(ps->resp, ps->unit);
		link_set_producer(ps->in, ps->unit);
		clock_wake(ps->unit);
	}
	eventq_run_until(sim_eventq(s), TICK_NEVER);
	sim_settle(s);

	res->loads = o->kind == PROBE_CHASE ? pr.timed : pr.done;
	res->cycles = pr.last > pr.t0 ? pr.last - pr.t0 : 0;
	res->time_ns = (double)res->cycles * (double)clock_period(pr.clk) / 1000.0;
	if (o->kind == PROBE_CHASE) {
		res->mean_cycles = stats_dist_mean(pr.lat);
		res->p50_cycles = stats_dist_quantile(pr.lat, 0.5);
		res->p99_cycles = stats_dist_quantile(pr.lat, 0.99);
		res->mean_ns = res->mean_cycles * (double)clock_period(pr.clk) / 1000.0;
	} else {
		res->gbps = res->time_ns > 0 ? (double)pr.bytes / res->time_ns : 0.0;
	}
	free(pr.sm);
	free(pr.next_slot);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Unloaded latencies: one load at a time.
 */

struct single {
	struct probe pr;
	struct probe_sm sm[2];
	cycle_t issued, replied;
	bool got;
};

static void single_tick(void *self, cycle_t now)
{
	struct probe_sm *ps = self;
	struct single *sg = (struct single *)ps->pr;
	struct mem_req *r = link_peek(ps->resp);

	if (r != NULL) {
		link_pop(ps->resp);
		req_free(sg->pr.pool, r, eventq_now(clock_eventq(sg->pr.clk)));
		sg->replied = now;
		sg->got = true;
		eventq_stop(clock_eventq(sg->pr.clk));
	}
	clock_sleep(ps->unit);
}

/* Pushes one load now (the queue is idle between loads) and runs until its reply. */
static double single_load(struct single *sg, uint32_t sm, addr_t a)
{
	struct probe_sm *ps = &sg->sm[sm];
	uint32_t sector = (uint32_t)((a % LINE_BYTES) / SECTOR_BYTES);
	struct eventq *q = clock_eventq(sg->pr.clk);

	sg->got = false;
	sg->issued = clock_cycle(sg->pr.clk);
	link_push(ps->in, new_load(&sg->pr, sm, a, 1u << sector));
	while (!sg->got && eventq_next_tick(q) != TICK_NEVER)
		eventq_run_until(q, TICK_NEVER);
	SIM_ASSERT(sg->got);
	return (double)(sg->replied - sg->issued);
}

int probe_unloaded(struct sim *s, struct probe_unloaded *u, struct sim_err *err)
{
	struct single *sg;
	uint32_t i;

	if (sim_mem_model(s) != GPU_MEM_HIERARCHY)
		return sim_err_set(err, NULL, 0, "probe: unloaded latencies need the cache hierarchy "
				   "(memory.model = \"hierarchy\")");
	if (sim_sms(s) < 2)
		return sim_err_set(err, NULL, 0, "probe: unloaded latencies need two SMs");
	sg = xcalloc(1, sizeof *sg);
	sg->pr.s = s;
	sg->pr.clk = sim_core_clock(s);
	sg->pr.pool = sim_pool(s);
	for (i = 0; i < 2; i++) {
		struct probe_sm *ps = &sg->sm[i];
		char name[32];

		ps->pr = &sg->pr;
		ps->id = i;
		ps->in = sim_sm_in(s, i);
		ps->resp = sim_sm_resp(s, i);
		snprintf(name, sizeof name, "unloaded%u", i);
		ps->unit = clock_attach(sg->pr.clk, name, single_tick, ps);
		link_set_consumer(ps->resp, ps->unit);
	}
	u->dram_row_miss = single_load(sg, 0, 0);
	u->dram_row_hit = single_load(sg, 0, LINE_BYTES);
	u->l2_hit = single_load(sg, 1, 0);
	u->l1_hit = single_load(sg, 0, 0);
	/* The units stay attached to the core clock, asleep with nothing to wake them; the
	 * caller destroys the sim without running it again. */
	free(sg);
	return 0;
}
