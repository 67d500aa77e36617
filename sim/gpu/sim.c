/*
 * sim.c - builds the GPU memory system from its parameters and owns every unit (sim.h).
 *
 * Wiring (capacities in requests):
 *   sm_in[i]   core clock, SIM_PORT_DEPTH, latency 1: driver -> L1[i]
 *   sm_resp[i] core clock, SIM_PORT_DEPTH, latency 1: L1[i] -> driver
 *   l1_fill[i] core clock, SIM_PORT_DEPTH, latency 1: crossbar reply out i -> L1[i]
 *   l2_in[s]   L2 clock,   SIM_PORT_DEPTH, latency 1: crossbar request out s -> L2[s]
 *   the crossbar's own input links: L1[i] -> xbar_req_in(i), L2[s] -> xbar_reply_in(s)
 *   mc_in[ch]  DRAM clock, mc.read_queue + mc.write_queue, latency 1: the slices' accesses
 *              (mc_port_send: a slice takes a queue entry before it sends; sim/dram/mc.h)
 *   l2_fill[s] L2 clock, l2_reads_max, latency l2.fill_latency_cycles: the controllers push
 *              each completed read of slice s back
 * Slices: dram.channels x gpu.l2_slices_per_channel, chosen by the slice hash. Each slice is a
 * port of every controller (its misses go where the address map puts them), or, with
 * l2.hash.per_channel, of its partition's controller only (slices 2ch, 2ch + 1 of channel ch with
 * two slices per channel), which decodes the slices' slice-local addresses with one channel's
 * map.
 *
 * memory.model = "fixed" builds instead, per SM, one fixedmem (sim/mem/fixedmem.h) on the core
 * clock between sm_in[i] and sm_resp[i], and no L1, crossbar, L2, controller or l1_fill/l2_in
 * link (their pointers stay NULL and every loop below skips them). The clocks are the same, the
 * whole config is still checked, and the l1.* and l2.* totals exist (zero) so that reports and
 * scripts find them; mem.* sums the fixedmem counters.
 *
 * sim.fault_lose_dram_read drops one DRAM read's completion at its controller (struct mc_shared),
 * on purpose: the one way to wedge a correct model, for the watchdog's tests (sim/gpu/run.c).
 *
 * gpu.l2_partitions = 2: slices 0 .. n/2 - 1 (the first half of the channels) are partition 0,
 * the rest partition 1; SM i is in partition i x 2 / SMs and sends its loads to the near twin of
 * each line's home slice (l1_set_near_partition); twins i and i + n/2 are linked both ways
 * (l2_set_far, links l2sI.far_in and l2sI.far_fill: L2 clock, l2_reads_max, latency
 * l2.far_latency_cycles).
 *
 * The SMs (sim/front/sm.c, put on the machine by the
 * run driver sim/gpu/run.c for gmsim run) or a driver such as probe.c push line requests.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "clock.h"
#include "eventq.h"
#include "fixedmem.h"
#include "l1.h"
#include "l2.h"
#include "link.h"
#include "log.h"
#include "mc.h"
#include "req.h"
#include "sim.h"
#include "slice_hash.h"
#include "stats.h"
#include "totals.h"
#include "xbar.h"

/* Requests a port between units buffers: deep enough that a full link is a sign of contention
 * downstream, not of the link itself. */
#define SIM_PORT_DEPTH 64

struct sim {
	struct gpu_params p;
	struct eventq *q;
	struct clock *clk[GPU_CLK_COUNT];
	struct req_pool *pool;
	struct stats *st;
	struct dram_spec spec;
	struct addrmap map;
	struct addrmap ch_map;      /* one channel's map (l2.hash.per_channel) */
	struct slice_hash hash;
	uint32_t nsm, nslices;
	struct mc **mcs;
	struct xbar *xbar;
	struct l2 **l2;
	struct l1 **l1;
	struct fixedmem **fm;   /* fixed model: one per SM; NULL for the hierarchy */
	struct link **sm_in, **sm_resp, **l1_fill, **l2_in, **l2_fill, **mc_in;
	struct link **l2_far_in, **l2_far_fill; /* gpu.l2_partitions = 2: per slice */
	struct level_totals t1, t2;
	struct mem_totals tm;
	struct mc_shared mcsh;      /* dram.read_latency_ns, sim.fault_lose_dram_read */
};

/* Each SM's request and reply links (sm_in, sm_resp), on the core clock; their consumers
 * attach themselves (the memory side takes sm_in, the SM takes sm_resp). */
static void sm_links_create(struct sim *s)
{
	char name[64];
	uint32_t i;

	s->sm_in = xcalloc(s->nsm, sizeof *s->sm_in);
	s->sm_resp = xcalloc(s->nsm, sizeof *s->sm_resp);
	for (i = 0; i < s->nsm; i++) {
		snprintf(name, sizeof name, "sm%u.in", i);
		s->sm_in[i] = link_create(name, SIM_PORT_DEPTH, 1, s->clk[GPU_CLK_CORE], NULL);
		snprintf(name, sizeof name, "sm%u.resp", i);
		s->sm_resp[i] = link_create(name, SIM_PORT_DEPTH, 1, s->clk[GPU_CLK_CORE], NULL);
	}
}

static void create_fixed(struct sim *s, const struct fixedmem_params *fp)
{
	uint32_t i;
	char name[64];

	totals_register_mem(s->st, &s->tm);
	s->fm = xcalloc(s->nsm, sizeof *s->fm);
	sm_links_create(s);
	for (i = 0; i < s->nsm; i++) {
		struct clock *core = s->clk[GPU_CLK_CORE];

		snprintf(name, sizeof name, "sm%u.mem", i);
		s->fm[i] = fixedmem_create(fp, i, core, s->sm_in[i], s->sm_resp[i], s->st, name);
	}
}

/* The memory controllers, each with its input link, map and the shared read statistics. */
static void create_mcs(struct sim *s)
{
	const struct gpu_params *p = &s->p;
	uint32_t i, per = p->gpu.l2_slices_per_channel;
	char name[64];

	/* 1 ns bins up to 20 us; the registry counts the overflow. */
	s->mcsh.read_latency_ns = stats_dist(s->st, "dram.read_latency_ns", "32 B DRAM reads: "
					     "arrival at the controller to the end of the data, "
					     "ns", 0.0, 20000.0, 20000);
	s->mcsh.lose_read = p->sim.fault_lose_dram_read;
	s->mcs = xcalloc(s->spec.channels, sizeof *s->mcs);
	s->mc_in = xcalloc(s->spec.channels, sizeof *s->mc_in);
	for (i = 0; i < s->spec.channels; i++) {
		snprintf(name, sizeof name, "mc%u", i);
		s->mcs[i] = mc_create(&p->mc, &s->spec, i, s->clk[GPU_CLK_DRAM], NULL, NULL, s->st,
				      name);
		snprintf(name, sizeof name, "mc%u.in", i);
		s->mc_in[i] = link_create(name, p->mc.read_queue + p->mc.write_queue, 1,
					  s->clk[GPU_CLK_DRAM], NULL);
		mc_set_input(s->mcs[i], s->mc_in[i]);
		mc_set_shared(s->mcs[i], &s->mcsh);
		mc_set_lazy_refresh(s->mcs[i], true);
		if (p->l2_hash.per_channel)
			mc_set_map(s->mcs[i], &s->ch_map, s->hash.shift, per);
		else
			mc_set_map(s->mcs[i], &s->map, 0, 0);
	}
}

/* Two L2 partitions: slice i of the first half and slice i + n / 2 are twins, each the home of
 * the other's far lines; their four links (l2_set_far). */
static void create_partitions(struct sim *s)
{
	const struct gpu_params *p = &s->p;
	uint32_t i, half = s->nslices / 2;
	char name[64];

	SIM_ASSERT(p->gpu.l2_partitions == 2 && s->nslices % 2 == 0);
	s->l2_far_in = xcalloc(s->nslices, sizeof *s->l2_far_in);
	s->l2_far_fill = xcalloc(s->nslices, sizeof *s->l2_far_fill);
	for (i = 0; i < s->nslices; i++) {
		struct clock *clk = s->clk[GPU_CLK_L2];

		snprintf(name, sizeof name, "l2s%u.far_in", i);
		s->l2_far_in[i] = link_create(name, l2_reads_max(&p->l2),
					      p->l2.far_latency_cycles, clk, NULL);
		snprintf(name, sizeof name, "l2s%u.far_fill", i);
		s->l2_far_fill[i] = link_create(name, l2_reads_max(&p->l2),
						p->l2.far_latency_cycles, clk, NULL);
	}
	for (i = 0; i < s->nslices; i++) {
		uint32_t t = i < half ? i + half : i - half;

		l2_set_far(s->l2[i], s->l2_far_in[i], s->l2_far_fill[i], s->l2_far_in[t],
			   s->l2_far_fill[t], &s->hash, i < half ? 0 : half, half);
	}
}

/* The L2 slices, each with its fill link and its ports at the controllers. */
static void create_slices(struct sim *s)
{
	const struct gpu_params *p = &s->p;
	uint32_t i, ch, per = p->gpu.l2_slices_per_channel;
	uint32_t *ports = xcalloc(s->spec.channels, sizeof *ports);
	char name[64];

	s->l2 = xcalloc(s->nslices, sizeof *s->l2);
	s->l2_in = xcalloc(s->nslices, sizeof *s->l2_in);
	s->l2_fill = xcalloc(s->nslices, sizeof *s->l2_fill);
	for (i = 0; i < s->nslices; i++) {
		struct clock *clk = s->clk[GPU_CLK_L2];

		snprintf(name, sizeof name, "l2s%u.in", i);
		s->l2_in[i] = link_create(name, SIM_PORT_DEPTH, 1, clk, NULL);
		xbar_set_req_out(s->xbar, i, s->l2_in[i]);
		snprintf(name, sizeof name, "l2s%u.fill", i);
		s->l2_fill[i] = link_create(name, l2_reads_max(&p->l2), p->l2.fill_latency_cycles,
					    clk, NULL);
		snprintf(name, sizeof name, "l2s%u", i);
		s->l2[i] = l2_create(&p->l2, i, clk, s->l2_in[i], xbar_reply_in(s->xbar, i),
				     s->l2_fill[i], p->sim.seed + i, s->st, name);
		if (p->l2_hash.per_channel) {
			ch = i / per;
			ports[0] = mc_port_add(s->mcs[ch], l2_unit(s->l2[i]), s->l2_fill[i]);
			SIM_ASSERT(ports[0] == i % per); /* the partition's interleave order */
			l2_set_partition(s->l2[i], s->mcs[ch], ports[0], &s->hash);
		} else {
			for (ch = 0; ch < s->spec.channels; ch++)
				ports[ch] = mc_port_add(s->mcs[ch], l2_unit(s->l2[i]), s->l2_fill[i]);
			l2_set_dram(s->l2[i], s->mcs, ports, &s->map);
		}
		if (p->l2_hash.local_index)
			l2_set_local_index(s->l2[i], &s->hash);
	}
	free(ports);
	if (p->gpu.l2_partitions > 1)
		create_partitions(s);
}

struct sim *sim_create(const struct gpu_params *p, struct sim_err *err)
{
	struct sim *s = xcalloc(1, sizeof *s);
	struct fixedmem_params fp = { p->memory.latency_cycles, p->memory.requests_per_cycle };
	struct addrmap_geom g;
	uint32_t i;
	char name[64];

	s->p = *p;
	p = &s->p;
	if (gpu_dram_spec(p, &s->spec, err) != 0)
		goto fail;
	mc_map_geom(&p->mc, &s->spec, s->spec.channels, &g);
	if (addrmap_init(&s->map, &p->dram_map, &g, err) != 0)
		goto fail;
	if (p->l2_hash.per_channel) {
		/* the same map on one channel: a slice's channel comes from the slice */
		g.channels = 1;
		if (addrmap_init(&s->ch_map, &p->dram_map, &g, err) != 0)
			goto fail;
	}
	s->nsm = p->gpu.sms;
	s->nslices = s->spec.channels * p->gpu.l2_slices_per_channel;
	if (slice_hash_init(&s->hash, &p->l2_hash, s->nslices, "l2.hash", err) != 0 ||
	    l1_params_check(&p->l1, "l1", err) != 0 || l2_params_check(&p->l2, "l2", err) != 0)
		goto fail;
	if (p->memory.model == GPU_MEM_FIXED && fixedmem_params_check(&fp, "memory", err) != 0)
		goto fail;

	s->q = eventq_create();
	/* Created from the DRAM up: at a tick the domains share, their edges fire in creation
	 * order (clock.h), so the side that answers requests goes first. */
	for (i = GPU_CLK_COUNT; i-- > 0;) {
		tick_t period = i == GPU_CLK_DRAM ? s->spec.tck_ps
			: clock_period_from_mhz(gpu_clock_mhz(p, (enum gpu_clock_domain)i));

		s->clk[i] = clock_create(s->q, gpu_clock_name((enum gpu_clock_domain)i), period);
	}
	s->pool = req_pool_create(1024);
	s->st = stats_create();
	totals_register_levels(s->st, &s->t1, &s->t2);
	if (p->memory.model == GPU_MEM_FIXED) {
		s->nslices = 0; /* no L2 slice exists */
		create_fixed(s, &fp);
		return s;
	}

	create_mcs(s);
	s->xbar = xbar_create(&p->xbar, s->nsm, s->nslices, s->clk[GPU_CLK_XBAR], s->st, "xbar");
	create_slices(s);
	s->l1 = xcalloc(s->nsm, sizeof *s->l1);
	sm_links_create(s);
	s->l1_fill = xcalloc(s->nsm, sizeof *s->l1_fill);
	for (i = 0; i < s->nsm; i++) {
		struct clock *core = s->clk[GPU_CLK_CORE];

		snprintf(name, sizeof name, "sm%u.l1d.fill", i);
		s->l1_fill[i] = link_create(name, SIM_PORT_DEPTH, 1, core, NULL);
		xbar_set_reply_out(s->xbar, i, s->l1_fill[i]);
		snprintf(name, sizeof name, "sm%u.l1d", i);
		s->l1[i] = l1_create(&p->l1, i, core, s->sm_in[i], s->sm_resp[i],
				     xbar_req_in(s->xbar, i), s->l1_fill[i], s->pool, &s->hash,
				     p->sim.seed + 1000003u * (i + 1), s->st, name);
		if (p->gpu.l2_partitions > 1) {
			uint32_t part = (uint32_t)((uint64_t)i * p->gpu.l2_partitions / s->nsm);
			uint32_t n = s->nslices / p->gpu.l2_partitions;

			l1_set_near_partition(s->l1[i], part * n, n);
		}
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
		if (s->fm != NULL)
			fixedmem_destroy(s->fm[i]);
		if (s->l1 != NULL) {
			l1_destroy(s->l1[i]);
			link_destroy(s->l1_fill[i]);
		}
		link_destroy(s->sm_in[i]);
		link_destroy(s->sm_resp[i]);
	}
	for (i = 0; i < s->nslices; i++) {
		l2_destroy(s->l2[i]);
		link_destroy(s->l2_in[i]);
		link_destroy(s->l2_fill[i]);
		if (s->l2_far_in != NULL) {
			link_destroy(s->l2_far_in[i]);
			link_destroy(s->l2_far_fill[i]);
		}
	}
	xbar_destroy(s->xbar);
	for (i = 0; s->mcs != NULL && i < s->spec.channels; i++) {
		mc_destroy(s->mcs[i]);
		link_destroy(s->mc_in[i]);
	}
	for (i = 0; i < GPU_CLK_COUNT; i++)
		clock_destroy(s->clk[i]);
	eventq_destroy(s->q);
	req_pool_destroy(s->pool);
	stats_destroy(s->st);
	free(s->l1);
	free(s->fm);
	free(s->sm_in);
	free(s->sm_resp);
	free(s->l1_fill);
	free(s->l2);
	free(s->l2_in);
	free(s->l2_fill);
	free(s->l2_far_in);
	free(s->l2_far_fill);
	free(s->mc_in);
	free(s->mcs);
	free(s);
}

const struct gpu_params *sim_params(const struct sim *s)
{
	return &s->p;
}

struct eventq *sim_eventq(struct sim *s)
{
	return s->q;
}

struct clock *sim_core_clock(struct sim *s)
{
	return s->clk[GPU_CLK_CORE];
}

uint64_t sim_ticks(const struct sim *s)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < GPU_CLK_COUNT; i++)
		n += clock_ticks(s->clk[i]);
	return n;
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

struct link *const *sim_sm_in_links(struct sim *s)
{
	return s->sm_in;
}

struct link *const *sim_sm_resp_links(struct sim *s)
{
	return s->sm_resp;
}

enum gpu_mem_model sim_mem_model(const struct sim *s)
{
	return (enum gpu_mem_model)s->p.memory.model;
}

bool sim_is_idle(const struct sim *s)
{
	uint32_t i;

	for (i = 0; i < s->nsm; i++)
		if ((s->l1 != NULL && !l1_is_idle(s->l1[i])) ||
		    (s->fm != NULL && !fixedmem_is_idle(s->fm[i])))
			return false;
	for (i = 0; i < s->nslices; i++)
		if (!l2_is_idle(s->l2[i]))
			return false;
	/* written-back sectors a slice sent are its controller's until they complete */
	for (i = 0; s->mcs != NULL && i < s->spec.channels; i++)
		if (mc_requests_pending(s->mcs[i]) != 0)
			return false;
	return (s->xbar == NULL || xbar_pending(s->xbar) == 0) &&
	       req_pool_in_flight(s->pool) == 0;
}

void sim_totals(struct sim *s)
{
	totals_fill_levels(&s->t1, &s->t2, &s->tm, s->l1, s->fm, s->nsm, s->l2, s->nslices);
}

uint64_t sim_l2_warm(struct sim *s, addr_t addr, uint64_t bytes)
{
	uint64_t n = 0;
	addr_t a, end;
	uint32_t lb;

	if (s->l2 == NULL || bytes == 0)
		return 0;
	lb = cache_geom(l2_cache(s->l2[0]))->line_bytes;
	end = addr + bytes < addr ? ~(addr_t)0 : addr + bytes;
	for (a = addr / lb * lb; a < end; a += lb) {
		struct cache *c = l2_cache(s->l2[slice_hash_slice(&s->hash, a)]);
		struct cache_line_info victim;

		if (!cache_touch(c, a) && cache_allocate(c, a, 0, &victim) < 0)
			continue; /* every way reserved: cannot happen between kernels */
		cache_fill(c, a, cache_geom(c)->full_mask);
		n++;
		if (a + lb < a)
			break;
	}
	return n;
}

void sim_dump(const struct sim *s, FILE *out)
{
	uint32_t i;

	for (i = 0; i < s->nsm; i++) {
		if (s->fm != NULL)
			fixedmem_dump(s->fm[i], out);
		if (s->l1 != NULL)
			l1_dump(s->l1[i], out);
	}
	if (s->xbar != NULL)
		xbar_dump(s->xbar, out);
	for (i = 0; i < s->nslices; i++)
		l2_dump(s->l2[i], out);
	for (i = 0; s->mcs != NULL && i < s->spec.channels; i++)
		mc_dump(s->mcs[i], out);
}

void sim_settle(struct sim *s)
{
	cycle_t until = eventq_horizon(s->q) / s->spec.tck_ps;
	uint32_t i;

	for (i = 0; s->mcs != NULL && i < s->spec.channels; i++)
		mc_settle(s->mcs[i], until);
}

bool sim_has_deadlines(const struct sim *s)
{
	return s->mcs != NULL && s->p.mc.refresh != MC_REFRESH_OFF;
}

uint32_t sim_channels(const struct sim *s)
{
	return s->mcs != NULL ? s->spec.channels : 0;
}

uint32_t sim_slices(const struct sim *s)
{
	return s->nslices;
}

struct mc *sim_mc(struct sim *s, uint32_t ch)
{
	SIM_ASSERT(ch < sim_channels(s));
	return s->mcs[ch];
}

tick_t sim_dram_tck_ps(const struct sim *s)
{
	return s->spec.tck_ps;
}

const struct dram_spec *sim_dram_spec(const struct sim *s)
{
	return &s->spec;
}
