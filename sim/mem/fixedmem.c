/*
 * fixedmem.c - a fixed-latency memory behind one SM (see fixedmem.h for the interface).
 *
 * Models a memory whose every line request takes the same time, with a bandwidth limit: the
 * unit takes up to requests_per_cycle requests per core cycle from `in`, in order, and pushes
 * each on `resp` exactly latency_cycles (L) cycles after it took it. Nothing else: no caches,
 * no address dependence, no difference between loads and stores.
 *
 * Timing (core cycles; v = the cycle a request becomes visible at the head of `in`):
 *   accepted at a = v, or later when requests_per_cycle requests were already taken in that
 *                   cycle (a burst of k requests visible together is taken over
 *                   ceil(k / requests_per_cycle) cycles);
 *   reply pushed on `resp` at a + L, or later if `resp` is full (counted in stall_cycles).
 * With the SM links of sim.c (latency 1 each) an SM that pushes at c sees the reply at
 * c + 1 + L + 1 = c + L + 2 when nothing queues.
 *
 * One tick, at one core edge:
 *   (1) replies: while the head of the ring is due (due <= now), push it on `resp`; a refusal
 *       stops this stage until the SM pops (we are the producer of `resp`, its pop wakes us);
 *   (2) accept: up to requests_per_cycle visible requests from `in` into the ring's tail with
 *       due = now + L, while the ring has room;
 *   (3) sleep until the next cycle with work: the ring head's due cycle, the head of `in`
 *       (link_head_ready), or nothing at all (pushes on `in` wake us, we are its consumer).
 * Replies go before accepts, so a ring of L x requests_per_cycle slots never refuses a request
 * while `resp` keeps up: after (1) every entry was accepted in the last L - 1 cycles.
 *
 * The ring (a FIFO of {request, due cycle}) is allocated once at creation; due cycles are
 * non-decreasing along it because requests are accepted in cycle order with the same L.
 *
 * Stage stamps: none. The request keeps CREATED (the SM's push) and the SM's req_free stamps
 * RETIRED at its pop, so created -> retired is the SM's view of the latency, as with the
 * hierarchy; the stages of the L1, crossbar, L2 and DRAM stay TICK_NEVER.
 *
 * Invariants (fixedmem_check):
 *   - n <= cap; in_flight.cur == n; requests == replies + n;
 *   - due cycles are non-decreasing from head to tail, and each entry holds a request.
 *
 * Not modelled: anything that depends on the address or the type (hits, row buffers, channel
 * conflicts, write bandwidth apart from read bandwidth), reordering, and memory shared between
 * SMs (each SM has its own unit and its own requests_per_cycle).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "fixedmem.h"
#include "link.h"
#include "log.h"
#include "req.h"
#include "stats.h"

struct fixedmem_slot {
	struct mem_req *r;
	cycle_t due;  /* core cycle its reply is pushed on resp */
};

struct fixedmem {
	struct fixedmem_params p;
	uint32_t sm;
	char *prefix;
	struct clock *clk;
	struct clock_unit *unit;
	struct link *in, *resp;
	struct fixedmem_slot *ring;
	uint32_t cap, head, n;
	bool blocked;           /* resp refused the due head; its pop wakes us */
	cycle_t blocked_since;  /* the cycle it first refused */
	struct fixedmem_stats st;
};

int fixedmem_params_check(const struct fixedmem_params *p, const char *group,
			  struct sim_err *err)
{
	if (p->latency_cycles < 1)
		return sim_err_set(err, NULL, 0, "%s.latency_cycles: must be at least 1, got %u",
				   group, p->latency_cycles);
	if (p->requests_per_cycle < 1)
		return sim_err_set(err, NULL, 0, "%s.requests_per_cycle: must be at least 1, got %u",
				   group, p->requests_per_cycle);
	return 0;
}

static struct fixedmem_slot *slot_at(const struct fixedmem *m, uint32_t i)
{
	return &m->ring[(m->head + i) % m->cap];
}

/* ---------------------------------------------------------------------------------------------
 * Tick: (1) replies, (2) accept, (3) sleep
 */

static void fixedmem_replies(struct fixedmem *m, cycle_t now)
{
	while (m->n > 0 && slot_at(m, 0)->due <= now) {
		struct fixedmem_slot *s = slot_at(m, 0);
		struct mem_req *r = s->r;

		r->is_reply = true;
		if (!link_try_push(m->resp, r)) {
			r->is_reply = false;
			if (!m->blocked) {
				m->blocked = true;
				m->blocked_since = now;
			}
			return;
		}
		if (m->blocked) {
			m->st.stall_cycles += now - m->blocked_since;
			m->blocked = false;
		}
		s->r = NULL;
		m->head = (m->head + 1) % m->cap;
		m->n--;
		stat_level_dec(&m->st.in_flight);
		m->st.replies++;
	}
}

static void fixedmem_accept(struct fixedmem *m, cycle_t now)
{
	uint32_t k;

	for (k = 0; k < m->p.requests_per_cycle && m->n < m->cap; k++) {
		struct mem_req *r = link_peek(m->in);
		struct fixedmem_slot *s;

		if (r == NULL)
			return;
		m->st.queue_cycles += now - link_head_ready(m->in);
		SIM_ASSERT(link_pop(m->in) == r);
		s = slot_at(m, m->n++);
		s->r = r;
		s->due = now + m->p.latency_cycles;
		stat_level_inc(&m->st.in_flight);
		m->st.requests++;
		if (r->type == MEM_REQ_LOAD)
			m->st.loads++;
		else if (r->type == MEM_REQ_STORE)
			m->st.stores++;
	}
}

static cycle_t min_cycle(cycle_t a, cycle_t b)
{
	return a < b ? a : b;
}

static cycle_t at_least_next(cycle_t c, cycle_t now)
{
	return c > now ? c : now + 1;
}

/* Sleeps until the next cycle anything can happen here (see the top). A full ring with a
 * visible head needs no wake of its own: room comes only from a reply, which is the ring head's
 * due cycle or, when resp is blocked, the pop that wakes us. */
static void fixedmem_sleep(struct fixedmem *m, cycle_t now)
{
	cycle_t next = CYCLE_NEVER, h;

	if (m->n > 0 && !m->blocked)
		next = at_least_next(slot_at(m, 0)->due, now);
	h = link_head_ready(m->in);
	if (h != CYCLE_NEVER && m->n < m->cap)
		next = min_cycle(next, at_least_next(h, now));
	/* NEVER is a plain sleep; the next cycle keeps the unit awake. */
	clock_sleep_until(m->unit, next);
}

static void fixedmem_tick(void *unit, cycle_t now)
{
	struct fixedmem *m = unit;

	fixedmem_replies(m, now);
	fixedmem_accept(m, now);
	fixedmem_sleep(m, now);
#ifdef SIM_DEBUG
	fixedmem_check(m);
#endif
}

/* ---------------------------------------------------------------------------------------------
 * Create / destroy / queries
 */

static void register_stats(struct fixedmem *m, struct stats *st)
{
	static const struct stats_counter_def counters[] = {
#define C(f, d) STATS_COUNTER_DEF(struct fixedmem_stats, f, d)
		C(requests, "line requests accepted from the SM"),
		C(loads, "loads accepted"),
		C(stores, "stores accepted"),
		C(replies, "replies pushed to the SM (loads and store acks)"),
		C(queue_cycles, "cycles requests waited at the head of the SM link for "
		  "memory.requests_per_cycle (summed over requests)"),
		C(stall_cycles, "cycles a due reply waited for room on the SM's reply link"),
#undef C
	};
	char name[256];

	stats_counters(st, m->prefix, &m->st, counters, sizeof counters / sizeof counters[0]);
	snprintf(name, sizeof name, "%s.in_flight", m->prefix);
	stats_level(st, name, "requests accepted and not yet replied", &m->st.in_flight);
}

struct fixedmem *fixedmem_create(const struct fixedmem_params *p, uint32_t sm, struct clock *clk,
				 struct link *in, struct link *resp, struct stats *st,
				 const char *prefix)
{
	struct sim_err err;
	struct fixedmem *m;
	uint64_t cap;

	memset(&err, 0, sizeof err);
	SIM_ASSERT(fixedmem_params_check(p, "memory", &err) == 0);
	SIM_ASSERT(clk != NULL && in != NULL && resp != NULL);
	m = xcalloc(1, sizeof *m);
	m->p = *p;
	m->sm = sm;
	m->prefix = xstrdup(prefix != NULL ? prefix : "mem");
	m->clk = clk;
	m->in = in;
	m->resp = resp;
	cap = (uint64_t)p->latency_cycles * p->requests_per_cycle;
	m->cap = cap < FIXEDMEM_MAX_IN_FLIGHT ? (uint32_t)cap : FIXEDMEM_MAX_IN_FLIGHT;
	m->ring = xcalloc(m->cap, sizeof *m->ring);
	m->unit = clock_attach(clk, m->prefix, fixedmem_tick, m);
	link_set_consumer(in, m->unit);
	link_set_producer(resp, m->unit);
	if (st != NULL)
		register_stats(m, st);
	return m;
}

void fixedmem_destroy(struct fixedmem *m)
{
	if (m == NULL)
		return;
	free(m->ring);
	free(m->prefix);
	free(m);
}

struct clock_unit *fixedmem_unit(struct fixedmem *m)
{
	return m->unit;
}

bool fixedmem_is_idle(const struct fixedmem *m)
{
	return m->n == 0;
}

uint32_t fixedmem_capacity(const struct fixedmem *m)
{
	return m->cap;
}

const struct fixedmem_stats *fixedmem_stats(const struct fixedmem *m)
{
	return &m->st;
}

/* ---------------------------------------------------------------------------------------------
 * Check and dump
 */

void fixedmem_check(const struct fixedmem *m)
{
	cycle_t last = 0;
	uint32_t i;

	SIM_ASSERT(m->n <= m->cap && m->head < m->cap);
	SIM_ASSERT(m->st.in_flight.cur == m->n);
	SIM_ASSERT(m->st.requests == m->st.replies + m->n);
	for (i = 0; i < m->n; i++) {
		const struct fixedmem_slot *s = slot_at(m, i);

		SIM_ASSERT(s->r != NULL && s->due >= last);
		last = s->due;
	}
}

void fixedmem_dump(const struct fixedmem *m, FILE *out)
{
	fprintf(out, "%s: sm %u, cycle %" PRIu64 ", in flight %u/%u%s", m->prefix, m->sm,
		clock_cycle(m->clk), m->n, m->cap, m->blocked ? " (resp blocked)" : "");
	if (m->n > 0) {
		const struct mem_req *r = slot_at(m, 0)->r;

		fprintf(out, ", head req %" PRIu64 " %s 0x%" PRIx64 " due %" PRIu64, r->id,
			mem_req_type_name(r->type), r->addr, slot_at(m, 0)->due);
	}
	fprintf(out, "\n");
	link_dump(m->in, out);
	link_dump(m->resp, out);
}
