/*
 * bench_reuse.c - stack-distance engine throughput (sim/analysis/reuse.c), one line per path.
 *
 * Stream: N accesses (default 10^8), each with probability 1/2
 *   sweep   the next block of a cyclic streaming sweep over 4M blocks (2^22: 128 MiB of 32 B
 *           sectors, the shape of a STREAM kernel bigger than any L2), or
 *   random  a block drawn uniformly from a 1M-block working set (2^20: 32 MiB of sectors, the
 *           shape of a gather into an L2-sized table), disjoint from the sweep.
 * So the engine holds 5M distinct blocks, every sweep reuse has a distance of about 5M (it
 * misses in any cache below the whole footprint) and the random reuses spread over 0..5M: the
 * hash map (128 MiB) and the per-distance counts (64 MiB) are far bigger than the host's
 * caches, which is the case that matters for real traces. GSL's mt19937 with a fixed seed
 * draws the stream, so every run feeds the same accesses and prints the same hit rates.
 *
 * Two paths over the same stream, drawn in chunks of CHUNK blocks:
 *   many    reuse_access_many on each chunk (the fast path: it prefetches ahead);
 *   single  reuse_access on each block (the per-access call, distances returned).
 * Each line gives the seconds and accesses/s with the draws included, then for the engine
 * alone (minus a separate timing of the draws). The two paths must agree on every hit count;
 * if they do not the benchmark says so and exits 1.
 *
 * Usage: bench_reuse [N [many|single]]   (default: 10^8, both paths). Exit 2 on bad arguments.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include "reuse.h"

#define DEFAULT_N 100000000ull
#define SWEEP_BLOCKS (1ull << 22)
#define RANDOM_BLOCKS (1ull << 20)
#define SEED 20240601ul
#define SECTOR_BYTES 32
/* 4096 blocks = 32 KiB: the chunk stays in L1 while the engine reads it. */
#define CHUNK 4096

/* Capacities reported: 128 KiB (an L1), 4 MiB and 40 MiB (L2 sizes), in 32 B sectors. */
static const uint64_t caps_bytes[] = { 128ull << 10, 4ull << 20, 40ull << 20 };
#define NCAPS (sizeof caps_bytes / sizeof caps_bytes[0])

struct stream {
	gsl_rng *g;
	uint64_t sweep;   /* the sweep's next block */
};

static void stream_init(struct stream *s)
{
	gsl_rng_set(s->g, SEED);
	s->sweep = 0;
}

/* Fills buf[0..n) with the next n blocks. Random blocks sit above the sweep's range. */
static void stream_fill(struct stream *s, uint64_t *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned long u = gsl_rng_get(s->g); /* mt19937: 32 uniform bits */

		if (u & 1) {
			buf[i] = s->sweep;
			s->sweep = s->sweep + 1 == SWEEP_BLOCKS ? 0 : s->sweep + 1;
		} else {
			buf[i] = SWEEP_BLOCKS + ((u >> 1) & (RANDOM_BLOCKS - 1));
		}
	}
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Draws n blocks without the engine; returns the seconds. */
static double time_draws(struct stream *s, uint64_t n)
{
	static uint64_t buf[CHUNK];
	uint64_t done, sink = 0;
	double t0 = seconds();

	stream_init(s);
	for (done = 0; done < n; done += CHUNK) {
		size_t m = n - done < CHUNK ? (size_t)(n - done) : CHUNK;

		stream_fill(s, buf, m);
		sink += buf[m - 1];
	}
	/* Keeps the loop from being optimised away. */
	if (sink == 1)
		printf("\n");
	return seconds() - t0;
}

/* Runs the stream through one path and prints its line; hits[] gets the hit counts. */
static void run_path(struct stream *s, uint64_t n, int many, double t_draw, uint64_t *hits)
{
	static uint64_t buf[CHUNK];
	struct reuse *r = reuse_create();
	uint64_t done;
	double t0, t;
	size_t i, k;

	stream_init(s);
	t0 = seconds();
	for (done = 0; done < n; done += CHUNK) {
		size_t m = n - done < CHUNK ? (size_t)(n - done) : CHUNK;

		stream_fill(s, buf, m);
		if (many) {
			reuse_access_many(r, buf, m);
		} else {
			for (i = 0; i < m; i++)
				reuse_access(r, buf[i]);
		}
	}
	t = seconds() - t0;
	printf("reuse: %-6s %llu accesses, %llu distinct, %llu compactions, %.2f s, "
	       "%.1f M accesses/s (engine alone %.2f s, %.1f M accesses/s)\n",
	       many ? "many" : "single", (unsigned long long)n,
	       (unsigned long long)reuse_distinct(r), (unsigned long long)reuse_compactions(r), t,
	       (double)n / t / 1e6, t - t_draw, (double)n / (t - t_draw) / 1e6);
	printf("reuse: %-6s LRU hit rate, fully associative, 32 B sectors:", many ? "many" : "single");
	for (k = 0; k < NCAPS; k++) {
		hits[k] = reuse_hits_at(r, caps_bytes[k] / SECTOR_BYTES);
		printf(" %lluK %.4f", (unsigned long long)(caps_bytes[k] >> 10),
		       reuse_hit_rate(r, caps_bytes[k] / SECTOR_BYTES));
	}
	printf("\n");
	reuse_destroy(r);
}

int main(int argc, char **argv)
{
	uint64_t n = DEFAULT_N, hits_many[NCAPS], hits_single[NCAPS];
	int do_many = 1, do_single = 1;
	struct stream s;
	double t_draw;

	if (argc > 3) {
		fprintf(stderr, "usage: bench_reuse [N [many|single]]\n");
		return 2;
	}
	if (argc >= 2) {
		char *end;

		errno = 0;
		n = strtoull(argv[1], &end, 10);
		if (end == argv[1] || *end != '\0' || errno != 0 || n == 0 || argv[1][0] == '-') {
			fprintf(stderr, "bench_reuse: N: expected a positive count, got \"%s\"\n",
				argv[1]);
			return 2;
		}
	}
	if (argc == 3) {
		do_many = strcmp(argv[2], "many") == 0;
		do_single = strcmp(argv[2], "single") == 0;
		if (!do_many && !do_single) {
			fprintf(stderr, "bench_reuse: expected many or single, got \"%s\"\n",
				argv[2]);
			return 2;
		}
	}

	s.g = gsl_rng_alloc(gsl_rng_mt19937);
	t_draw = time_draws(&s, n);
	printf("reuse: mix: 50%% cyclic sweep over %llu blocks, 50%% uniform over %llu other "
	       "blocks (mt19937 seed %lu; drawing alone %.2f s)\n",
	       (unsigned long long)SWEEP_BLOCKS, (unsigned long long)RANDOM_BLOCKS, SEED, t_draw);
	if (do_many)
		run_path(&s, n, 1, t_draw, hits_many);
	if (do_single)
		run_path(&s, n, 0, t_draw, hits_single);
	gsl_rng_free(s.g);
	if (do_many && do_single && memcmp(hits_many, hits_single, sizeof hits_many) != 0) {
		fprintf(stderr, "bench_reuse: the many and single paths disagree: broken run\n");
		return 1;
	}
	return 0;
}
