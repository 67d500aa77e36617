/*
 * sim.c - builds the GPU memory system from its parameters and owns every unit (sim.h).
 *
 * Wiring (capacities in requests):
 *   sm_in[i]   core clock, SIM_PORT_DEPTH, latency 1: driver -> L1[i]
 *   sm_resp[i] core clock, SIM_PORT_DEPTH, latency 1: L1[i] -> driver
 *   l1_fill[i] core clock, SIM_PORT_DEPTH, latency 1: crossbar reply out i -> L1[i]
 *   l2_in[s]   L2 clock,   SIM_PORT_DEPTH, latency 1: crossbar request out s -> L2[s]
 *   the crossbar's own input links: L1[i] -> xbar_req_in(i), L2[s] -> xbar_reply_in(s)
 *   L2[s] -> mc[ch]: mc_try_enqueue; mc done -> l2_dram_done(l2_access_owner(a))
 * Slices: dram.channels x gpu.l2_slices_per_channel, chosen by the slice hash.
 *
 * Not modelled yet: the SM front end (warps, coalescer, shared memory) - a driver such as
 * probe.c pushes line requests; the watchdog; far/near L2 partitions.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "eventq.h"
#include "l1.h"
#include "l2.h"
#include "link.h"
#include "log.h"
#include "mc.h"
#include "req.h"
#include "sim.h"
#include "slice_hash.h"
#include "stats.h"
#include "xbar.h"

/* Requests a port between units buffers: deep enough that a full link is a sign of contention
 * downstream, not of the link itself. */
#define SIM_PORT_DEPTH 64

struct level_totals {
	uint64_t accesses, hits, mshr_merges, reservation_fails;
	double hit_rate;
};

struct sim {
	struct gpu_params p;
	struct eventq *q;
	struct clock *clk[GPU_CLK_COUNT];
	struct req_pool *pool;
	struct stats *st;
	struct dram_spec spec;
	struct addrmap map;
	struct slice_hash hash;
	uint32_t nsm, nslices;
	struct mc **mcs;
	struct xbar *xbar;
	struct l2 **l2;
	struct l1 **l1;
	struct link **sm_in, **sm_resp, **l1_fill, **l2_in;
	struct level_totals t1, t2;
};

static void mc_done(void *ctx, const struct mc_access *a, cycle_t arrival, cycle_t done)
{
	(void)ctx;
	(void)arrival;
	l2_dram_done(l2_access_owner(a), a, done);
}

static void register_totals(struct sim *s)
{
	static const struct {
		const char *level;
	} lv[2] = { { "l1" }, { "l2" } };
	int i;

	for (i = 0; i < 2; i++) {
		struct level_totals *t = i == 0 ? &s->t1 : &s->t2;
		char name[64];

		snprintf(name, sizeof name, "%s.accesses", lv[i].level);
		stats_counter(s->st, name, "requests looked up, all instances", &t->accesses);
		snprintf(name, sizeof name, "%s.hits", lv[i].level);
		stats_counter(s->st, name, "requests whose sectors were all present", &t->hits);
		snprintf(name, sizeof name, "%s.hit_rate", lv[i].level);
		stats_real(s->st, name, "hits / accesses", &t->hit_rate, 0);
		snprintf(name, sizeof name, "%s.mshr_merges", lv[i].level);
		stats_counter(s->st, name, "misses merged into an MSHR entry in flight",
			      &t->mshr_merges);
		snprintf(name, sizeof name, "%s.reservation_fails", lv[i].level);
		stats_counter(s->st, name, "cycles a request waited for an MSHR entry, a merge slot, "
			      "a line or the miss queue", &t->reservation_fails);
	}
}

struct sim *sim_create(const struct gpu_params *p, struct sim_err *err)
{
	struct sim *s = xcalloc(1, sizeof *s);
	struct addrmap_geom g;
	uint32_t i;
	char name[64];

	s->p = *p;
	p = &s->p;
	if (gpu_dram_spec(p, &s->spec, err) != 0)
		goto fail;
	g.channels = s->spec.channels;
	g.pcs = s->spec.pcs;
	g.bank_groups = s->spec.bank_groups;
	g.banks_per_group = s->spec.banks_per_group;
	g.rows = s->spec.rows;
	g.bursts_per_row = mc_data_bursts_per_row(&p->mc, &s->spec);
	g.burst_bytes = s->spec.burst_bytes;
	if (addrmap_init(&s->map, &p->dram_map, &g, err) != 0)
		goto fail;
	s->nsm = p->gpu.sms;
	s->nslices = s->spec.channels * p->gpu.l2_slices_per_channel;
	if (slice_hash_init(&s->hash, &p->l2_hash, s->nslices, "l2.hash", err) != 0 ||
	    l1_params_check(&p->l1, "l1", err) != 0 || l2_params_check(&p->l2, "l2", err) != 0)
		goto fail;

	s->q = eventq_create();
	for (i = 0; i < GPU_CLK_COUNT; i++) {
		tick_t period = i == GPU_CLK_DRAM ? s->spec.tck_ps
			: clock_period_from_mhz(gpu_clock_mhz(p, (enum gpu_clock_domain)i));

		s->clk[i] = clock_create(s->q, gpu_clock_name((enum gpu_clock_domain)i), period);
	}
	s->pool = req_pool_create(1024);
	s->st = stats_create();
	register_totals(s);

	s->mcs = xcalloc(s->spec.channels, sizeof *s->mcs);
	for (i = 0; i < s->spec.channels; i++) {
		snprintf(name, sizeof name, "mc%u", i);
		s->mcs[i] = mc_create(&p->mc, &s->spec, i, s->clk[GPU_CLK_DRAM], mc_done, s, s->st,
				      name);
	}
	s->xbar = xbar_create(&p->xbar, s->nsm, s->nslices, s->clk[GPU_CLK_XBAR], s->st, "xbar");
	s->l2 = xcalloc(s->nslices, sizeof *s->l2);
	s->l2_in = xcalloc(s->nslices, sizeof *s->l2_in);
	for (i = 0; i < s->nslices; i++) {
		snprintf(name, sizeof name, "l2s%u.in", i);
		s->l2_in[i] = link_create(name, SIM_PORT_DEPTH, 1, s->clk[GPU_CLK_L2], NULL);
		xbar_set_req_out(s->xbar, i, s->l2_in[i]);
		snprintf(name, sizeof name, "l2s%u", i);
		s->l2[i] = l2_create(&p->l2, i, s->clk[GPU_CLK_L2], s->l2_in[i],
				     xbar_reply_in(s->xbar, i), s->mcs, &s->map, p->sim.seed + i, s->st,
				     name);
	}
	s->l1 = xcalloc(s->nsm, sizeof *s->l1);
	s->sm_in = xcalloc(s->nsm, sizeof *s->sm_in);
	s->sm_resp = xcalloc(s->nsm, sizeof *s->sm_resp);
	s->l1_fill = xcalloc(s->nsm, sizeof *s->l1_fill);
	for (i = 0; i < s->nsm; i++) {
		struct clock *core = s->clk[GPU_CLK_CORE];

		snprintf(name, sizeof name, "sm%u.in", i);
		s->sm_in[i] = link_create(name, SIM_PORT_DEPTH, 1, core, NULL);
		snprintf(name, sizeof name, "sm%u.resp", i);
		s->sm_resp[i] = link_create(name, SIM_PORT_DEPTH, 1, core, NULL);
		snprintf(name, sizeof name, "sm%u.l1d.fill", i);
		s->l1_fill[i] = link_create(name, SIM_PORT_DEPTH, 1, core, NULL);
		xbar_set_reply_out(s->xbar, i, s->l1_fill[i]);
		snprintf(name, sizeof name, "sm%u.l1d", i);
		s->l1[i] = l1_create(&p->l1, i, core, s->sm_in[i], s->sm_resp[i],
				     xbar_req_in(s->xbar, i), s->l1_fill[i], s->pool, &s->hash,
				     p->sim.seed + 1000003u * (i + 1), s->st, name);
	}
	return s;
fail:
	free(s);
	return NULL;
}

void sim_destroy(struct sim *s)
{
	uint32_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nsm; i++) {
		l1_destroy(s->l1[i]);
		link_destroy(s->sm_in[i]);
		link_destroy(s->sm_resp[i]);
		link_destroy(s->l1_fill[i]);
	}
	for (i = 0; i < s->nslices; i++) {
		l2_destroy(s->l2[i]);
		link_destroy(s->l2_in[i]);
	}
	xbar_destroy(s->xbar);
	for (i = 0; i < s->spec.channels; i++)
		mc_destroy(s->mcs[i]);
	for (i = 0; i < GPU_CLK_COUNT; i++)
		clock_destroy(s->clk[i]);
	eventq_destroy(s->q);
	req_pool_destroy(s->pool);
	stats_destroy(s->st);
	free(s->l1);
	free(s->sm_in);
	free(s->sm_resp);
	free(s->l1_fill);
	free(s->l2);
	free(s->l2_in);
	free(s->mcs);
	free(s);
}

struct eventq *sim_eventq(struct sim *s)
{
	return s->q;
}

struct clock *sim_core_clock(struct sim *s)
{
	return s->clk[GPU_CLK_CORE];
}

struct req_pool *sim_pool(struct sim *s)
{
	return s->pool;
}

struct stats *sim_stats(struct sim *s)
{
	return s->st;
}

uint32_t sim_sms(const struct sim *s)
{
	return s->nsm;
}

struct link *sim_sm_in(struct sim *s, uint32_t sm)
{
	SIM_ASSERT(sm < s->nsm);
	return s->sm_in[sm];
}

struct link *sim_sm_resp(struct sim *s, uint32_t sm)
{
	SIM_ASSERT(sm < s->nsm);
	return s->sm_resp[sm];
}

bool sim_is_idle(const struct sim *s)
{
	uint32_t i;

	for (i = 0; i < s->nsm; i++)
		if (!l1_is_idle(s->l1[i]))
			return false;
	for (i = 0; i < s->nslices; i++)
		if (!l2_is_idle(s->l2[i]))
			return false;
	return xbar_pending(s->xbar) == 0 && req_pool_in_flight(s->pool) == 0;
}

void sim_totals(struct sim *s)
{
	uint32_t i;

	memset(&s->t1, 0, sizeof s->t1);
	memset(&s->t2, 0, sizeof s->t2);
	for (i = 0; i < s->nsm; i++) {
		const struct l1_stats *x = l1_stats(s->l1[i]);

		s->t1.accesses += x->accesses;
		s->t1.hits += x->hits;
		s->t1.mshr_merges += x->mshr_merges;
		s->t1.reservation_fails += x->stall_mshr_full + x->stall_merge_limit +
					   x->stall_no_line + x->stall_miss_queue_full;
	}
	for (i = 0; i < s->nslices; i++) {
		const struct l2_stats *x = l2_stats(s->l2[i]);

		s->t2.accesses += x->accesses;
		s->t2.hits += x->hits;
		s->t2.mshr_merges += x->mshr_merges;
		s->t2.reservation_fails += x->stall_mshr_full + x->stall_merge_limit +
					   x->stall_no_line + x->stall_miss_queue_full;
	}
	s->t1.hit_rate = s->t1.accesses ? (double)s->t1.hits / (double)s->t1.accesses : 0.0;
	s->t2.hit_rate = s->t2.accesses ? (double)s->t2.hits / (double)s->t2.accesses : 0.0;
}

void sim_dump(const struct sim *s, FILE *out)
{
	uint32_t i;

	for (i = 0; i < s->nsm; i++)
		l1_dump(s->l1[i], out);
	xbar_dump(s->xbar, out);
	for (i = 0; i < s->nslices; i++)
		l2_dump(s->l2[i], out);
	for (i = 0; i < s->spec.channels; i++)
		mc_dump(s->mcs[i], out);
}
