/*
 * run.c - the run driver (contract in run.h).
 *
 * One run_simulate:
 *
 *   for each kernel (a trace: each command; a MemcpyHtoD warms the L2 and goes on)
 *       front_kernel_begin               the first blocks launch at the current core cycle
 *       run the queue in slices          until the front stops it at the last block's
 *                                        retirement (or a warp fails); between slices: the
 *                                        progress callback, the watchdog, the limits
 *       drain                            until nothing is in flight (sim_is_idle), in steps of
 *                                        RUN_DRAIN_STEP core cycles, within the watchdog span
 *   fill the run's statistics (totals_fill_run)
 *
 * Progress, for the watchdog, is a warp instruction issued or a reply taken by an SM
 * (front_last_progress), or the kernel's begin. The SMs stop the queue at the exact event of the
 * last block's retirement, so the drain starts there and not at the slice's end (refresh and
 * other timed events would run on to the slice's end).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "eventq.h"
#include "link.h"
#include "req.h"
#include "run.h"
#include "sim.h"
#include "sm.h"
#include "stats.h"
#include "totals.h"
#include "trace.h"

/* Core cycles per step of the drain at a kernel boundary. */
#define RUN_DRAIN_STEP 64

struct run {
	struct sim *s;
	struct front *f;
	struct trace_list *tl;       /* a trace's commands, or NULL */
	size_t nw;                   /* kernels */
	size_t kidx;                 /* the kernel running */
	struct clock *clk;
	struct eventq *q;
	uint64_t watchdog;           /* sim.watchdog_cycles */
	cycle_t max_cycles;          /* run_set_limits; 0: none */
	double max_host_s;
	struct timespec t0;          /* host time run_simulate started */
	enum run_outcome outcome;
	cycle_t stopped_at;          /* the cycle a limit or the watchdog stopped the run */
	cycle_t *kstart, *kend;      /* per kernel: first launch, last block retired */
	cycle_t *kissue;             /* per kernel: first warp instruction issued */
	run_progress_fn *progress_fn;
	void *progress_ctx;
	uint64_t warm_lines;         /* L2 lines the trace's MemcpyHtoD installed */
	struct run_totals t;
};

/* ---------------------------------------------------------------------------------------------
 * Creation
 */

/* The driver around an existing front (NULL: creation failed, nothing to free but r). */
static struct run *run_new(struct sim *s, size_t nw)
{
	struct run *r = xcalloc(1, sizeof *r);

	r->s = s;
	r->nw = nw;
	r->clk = sim_core_clock(s);
	r->q = sim_eventq(s);
	r->watchdog = sim_params(s)->sim.watchdog_cycles;
	r->kstart = xcalloc(nw, sizeof *r->kstart);
	r->kend = xcalloc(nw, sizeof *r->kend);
	r->kissue = xcalloc(nw, sizeof *r->kissue);
	return r;
}

/* What the SMs are wired to: s's core clock, pool and SM links. The link arrays are s's. */
static void front_env_of(struct sim *s, struct front_env *env)
{
	env->q = sim_eventq(s);
	env->clk = sim_core_clock(s);
	env->pool = sim_pool(s);
	env->in = sim_sm_in_links(s);
	env->resp = sim_sm_resp_links(s);
	env->sms = sim_sms(s);
	env->st = sim_stats(s);
}

struct run *run_create(struct sim *s, const struct workload *const *ws, size_t nw,
		       struct sim_err *err)
{
	const struct gpu_params *p = sim_params(s);
	struct front_env env;
	struct run *r;

	front_env_of(s, &env);
	r = run_new(s, nw);
	r->f = front_create(&env, &p->sm, ws, nw, p->sim.seed, err);
	if (r->f == NULL) {
		run_destroy(r);
		return NULL;
	}
	totals_register_run(sim_stats(s), &r->t, nw, sim_mem_model(s) != GPU_MEM_FIXED);
	return r;
}

struct run *run_create_trace(struct sim *s, struct trace_list *tl, struct sim_err *err)
{
	const struct gpu_params *p = sim_params(s);
	struct front_env env;
	struct run *r;

	front_env_of(s, &env);
	r = run_new(s, tl->nkernels);
	r->tl = tl;
	r->f = front_create_trace(&env, &p->sm, tl, p->sim.seed, err);
	if (r->f == NULL) {
		run_destroy(r);
		return NULL;
	}
	stats_counter(sim_stats(s), "trace.l2_warm_lines", "L2 lines installed by MemcpyHtoD",
		      &r->warm_lines);
	totals_register_run(sim_stats(s), &r->t, tl->nkernels, sim_mem_model(s) != GPU_MEM_FIXED);
	return r;
}

void run_destroy(struct run *r)
{
	if (r == NULL)
		return;
	front_destroy(r->f);
	totals_free_run(&r->t);
	free(r->kstart);
	free(r->kend);
	free(r->kissue);
	free(r);
}

struct front *run_front(struct run *r)
{
	return r->f;
}

void run_set_limits(struct run *r, cycle_t max_cycles, double max_host_seconds)
{
	r->max_cycles = max_cycles;
	r->max_host_s = max_host_seconds;
}

void run_set_progress(struct run *r, run_progress_fn *fn, void *ctx)
{
	r->progress_fn = fn;
	r->progress_ctx = ctx;
}

/* ---------------------------------------------------------------------------------------------
 * One kernel
 */

/* The watchdog's report on stderr: the SMs, every unit's queues, the oldest request in flight
 * with its stage stamps. Fills err with the one-line summary; returns -1. */
static int watchdog_fire(struct run *r, cycle_t at, const char *why, struct sim_err *err)
{
	struct req_pool *pool = sim_pool(r->s);
	const struct mem_req *q = req_pool_oldest(pool);
	uint64_t inflight = req_pool_in_flight(pool), done, all;

	r->outcome = RUN_WATCHDOG;
	r->stopped_at = at;
	sim_settle(r->s);
	fprintf(stderr, "gmsim: watchdog at core cycle %" PRIu64 ": %s; state of every unit:\n",
		(uint64_t)at, why);
	front_dump(r->f, stderr);
	sim_dump(r->s, stderr);
	if (q != NULL) {
		fprintf(stderr, "oldest request in flight (of %" PRIu64 "):\n", inflight);
		req_dump(q, clock_period(r->clk), "  ", stderr);
	} else {
		fprintf(stderr, "no request in flight\n");
	}
	fprintf(stderr, "gmsim: watchdog: end of state dump\n");
	front_blocks(r->f, &done, &all);
	return sim_err_set(err, front_kernel_path(r->f), 0, "watchdog: %s at core cycle %" PRIu64
			   " (kernel %zu, %" PRIu64 " of %" PRIu64 " blocks done, %" PRIu64
			   " requests in flight); the state dump above names the units and the "
			   "oldest request", why, (uint64_t)at, r->kidx, done, all, inflight);
}

static double host_seconds_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The last progress: a warp instruction, a reply, or the kernel's begin. */
static cycle_t last_progress(const struct run *r)
{
	return front_last_progress(r->f);
}

/* Between two slices at cycle cur: the progress callback, then the watchdog and the limits.
 * Returns 0 to go on, or -1 with err filled and the outcome set. */
static int check_slice(struct run *r, cycle_t cur, struct sim_err *err)
{
	uint64_t done, all;
	char why[160];

	front_blocks(r->f, &done, &all);
	if (r->progress_fn != NULL)
		r->progress_fn(r->progress_ctx, cur, done, all, front_warp_insts(r->f));
	if (cur >= last_progress(r) + r->watchdog) {
		snprintf(why, sizeof why, "no warp instruction issued and no request retired "
			 "in the %" PRIu64 " core cycles since cycle %" PRIu64
			 " (sim.watchdog_cycles)", r->watchdog, (uint64_t)last_progress(r));
		return watchdog_fire(r, cur, why, err);
	}
	if (r->max_cycles != 0 && cur >= r->max_cycles) {
		r->outcome = RUN_LIMIT_CYCLES;
		r->stopped_at = cur;
		return sim_err_set(err, NULL, 0, "limit: the run reached --max-cycles %" PRIu64
				   " with %" PRIu64 " of %" PRIu64 " blocks of kernel %zu done; "
				   "statistics so far, marked partial", (uint64_t)r->max_cycles,
				   done, all, r->kidx);
	}
	if (r->max_host_s > 0 && host_seconds_since(&r->t0) >= r->max_host_s) {
		r->outcome = RUN_LIMIT_HOST;
		r->stopped_at = cur;
		return sim_err_set(err, NULL, 0, "limit: the run used up --max-host-seconds %g "
				   "at core cycle %" PRIu64 " with %" PRIu64 " of %" PRIu64
				   " blocks of kernel %zu done; statistics so far, marked partial",
				   r->max_host_s, (uint64_t)cur, done, all, r->kidx);
	}
	if (eventq_next_tick(r->q) == TICK_NEVER && !sim_has_deadlines(r->s))
		return watchdog_fire(r, cur, "nothing left to simulate with blocks to run", err);
	return 0;
}

/* Runs the queue in slices until the kernel's last block retires. Returns 0 with *cur the
 * cycle it retired at, or -1 with err filled and the outcome set. */
static int run_blocks(struct run *r, cycle_t *cur, struct sim_err *err)
{
	for (;;) {
		cycle_t stop = *cur + RUN_SLICE_CYCLES, deadline = last_progress(r) + r->watchdog;

		if (deadline < stop)
			stop = deadline;
		if (r->max_cycles != 0 && r->max_cycles < stop)
			stop = r->max_cycles > *cur ? r->max_cycles : *cur;
		eventq_run_until(r->q, clock_tick_of(r->clk, stop));
		if (front_failed(r->f, err)) {
			r->outcome = RUN_FAILED;
			return -1;
		}
		if (front_kernel_done(r->f)) {
			/* stopped at the last block's retirement, not at the slice's end */
			*cur = clock_cycle(r->clk);
			return 0;
		}
		*cur = stop;
		if (check_slice(r, *cur, err) != 0)
			return -1;
	}
}

/* Runs the queue on from cycle cur, in steps of RUN_DRAIN_STEP, until nothing is in flight (the
 * kernel boundary); time stands at the end of that step, where the next kernel begins. Returns
 * 0, or -1 with err filled (the watchdog: the memory system did not drain in its span). */
static int drain(struct run *r, cycle_t cur, struct sim_err *err)
{
	cycle_t give_up = cur + r->watchdog;
	char why[160];

	while (!sim_is_idle(r->s) && cur < give_up &&
	       (eventq_next_tick(r->q) != TICK_NEVER || sim_has_deadlines(r->s))) {
		cur = cur + RUN_DRAIN_STEP < give_up ? cur + RUN_DRAIN_STEP : give_up;
		eventq_run_until(r->q, clock_tick_of(r->clk, cur));
	}
	if (!sim_is_idle(r->s)) {
		snprintf(why, sizeof why, "the memory system did not drain in the %" PRIu64
			 " core cycles after the kernel's last block (sim.watchdog_cycles)",
			 r->watchdog);
		return watchdog_fire(r, cur, why, err);
	}
	SIM_ASSERT(req_pool_is_drained(sim_pool(r->s)));
	/* The queue stands at its last event, which may be well before the step's end; the next
	 * kernel begins at the step's end whatever happened to fire last (before, the last
	 * refresh of an idle controller did). */
	if (clock_tick_of(r->clk, cur) > eventq_now(r->q))
		eventq_advance(r->q, clock_tick_of(r->clk, cur));
	return 0;
}

/* Runs kernel k from its first launch to the end of its drain. Returns 0, or -1 with err filled
 * and the outcome set. */
static int run_kernel(struct run *r, size_t k, struct sim_err *err)
{
	cycle_t cur = clock_cycle(r->clk);

	r->kidx = k;
	r->kstart[k] = cur;
	if (front_kernel_begin(r->f, k, err) != 0) {
		r->outcome = RUN_FAILED;
		return -1;
	}
	if (run_blocks(r, &cur, err) != 0)
		return -1;
	r->kend[k] = front_end_cycle(r->f);
	r->kissue[k] = front_first_issue_cycle(r->f);
	return drain(r, cur, err);
}

/* ---------------------------------------------------------------------------------------------
 * The run
 */

static int run_all(struct run *r, struct sim_err *err)
{
	size_t k, c;

	if (r->tl == NULL) {
		for (k = 0; k < r->nw; k++)
			if (run_kernel(r, k, err) != 0)
				return -1;
		return 0;
	}
	/* the list's commands in order: copies warm the L2, kernels run */
	for (c = 0; c < r->tl->ncmds; c++) {
		const struct trace_cmd *cmd = &r->tl->cmds[c];

		if (cmd->kind == TRACE_CMD_MEMCPY)
			r->warm_lines += sim_l2_warm(r->s, cmd->addr, cmd->bytes);
		else if (run_kernel(r, cmd->kernel, err) != 0)
			return -1;
	}
	return 0;
}

int run_simulate(struct run *r, struct sim_err *err)
{
	size_t k;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &r->t0);
	r->outcome = RUN_DONE;
	rc = run_all(r, err);
	front_finish(r->f); /* a partial run's too */
	sim_settle(r->s);
	r->t.host_seconds = host_seconds_since(&r->t0);
	r->t.cycles = run_cycles(r);
	for (k = 0; k < r->nw; k++) {
		r->t.kstart[k] = r->kstart[k];
		r->t.kend[k] = r->kend[k];
	}
	totals_fill_run(r->s, &r->t);
	return rc;
}

enum run_outcome run_outcome(const struct run *r)
{
	return r->outcome;
}

cycle_t run_cycles(const struct run *r)
{
	return r->outcome == RUN_DONE || r->outcome == RUN_FAILED ? front_end_cycle(r->f)
								   : r->stopped_at;
}

void run_kernel_cycles(const struct run *r, size_t k, cycle_t *start, cycle_t *end)
{
	SIM_ASSERT(k < r->nw);
	*start = r->kstart[k];
	*end = r->kend[k];
}

cycle_t run_kernel_first_issue(const struct run *r, size_t k)
{
	SIM_ASSERT(k < r->nw);
	return r->kissue[k];
}

const struct run_totals *run_totals(const struct run *r)
{
	return &r->t;
}
