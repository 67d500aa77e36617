/*
 * bulk.c - zeroed long-lived arrays from huge-page chunks (contract in bulk.h).
 *
 * A chunk is an anonymous mapping, 2 MB-aligned, whose first 64 bytes hold its struct chunk.
 * Blocks are carved from it in order (a bump pointer), each behind a 64-byte header that names
 * its chunk; a chunk counts its live blocks and is unmapped when the count returns to 0. Fresh
 * anonymous memory is zero, and no space is handed out twice, so no block is ever cleared by
 * hand: the kernel zeroes a huge page when it is first touched.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#endif

#include "bulk.h"
#include "log.h"

#define BULK_ALIGN 64u
#define HUGE_BYTES ((size_t)2 << 20)
/* A chunk's size: 32 MB of address space (the pages no block touches are never resident); a
 * block over a quarter of it gets a chunk of its own. */
#define CHUNK_BYTES ((size_t)32 << 20)

struct chunk {
	size_t bytes; /* of the mapping */
	size_t used;  /* bytes handed out from its start, this struct included */
	size_t live;  /* blocks not yet freed */
};

struct head {
	struct chunk *ch;
	unsigned char pad[BULK_ALIGN - sizeof(struct chunk *)];
};

enum mode { MODE_UNSET, MODE_CHUNKS, MODE_PLAIN };

static enum mode mode = MODE_UNSET;
static struct chunk *cur; /* where the next block is carved */
static size_t nchunks;
static bool mapped_any;   /* a chunk was mapped: the first keeps its first 2 MB on small pages */

static _Noreturn void bulk_oom(size_t size)
{
	fprintf(stderr, "gmsim: out of memory allocating %zu bytes\n", size);
	abort();
}

/* Plain under AddressSanitizer (it checks bounds only of its own allocations) or valgrind (its
 * leak check sees blocks, not mappings). */
static enum mode mode_detect(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return MODE_PLAIN;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return MODE_PLAIN;
#endif
#endif
#ifdef RUNNING_ON_VALGRIND
	if (RUNNING_ON_VALGRIND)
		return MODE_PLAIN;
#endif
	return MODE_CHUNKS;
}

static size_t round_up(size_t n, size_t to)
{
	if (n > SIZE_MAX - (to - 1))
		bulk_oom(SIZE_MAX);
	return (n + to - 1) / to * to;
}

static struct chunk *chunk_map(size_t bytes)
{
	size_t map = bytes + HUGE_BYTES;
	char *p, *a;
	struct chunk *ch;

	if (bytes > SIZE_MAX - HUGE_BYTES)
		bulk_oom(SIZE_MAX);
	p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		bulk_oom(bytes);
	/* keep the 2 MB-aligned part */
	a = (char *)(((uintptr_t)p + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (a + bytes < p + map)
		munmap(a + bytes, (size_t)(p + map - (a + bytes)));
#ifdef MADV_HUGEPAGE
	/* A hint: without it, small pages. The first 2 MB of the process's first chunk stay on
	 * small pages: a run whose blocks all fit there (`gmsim dram`: its controllers' pools and
	 * a few histograms, some hundred KB) had the whole huge page resident, a peak RSS of 7.4
	 * MB where small pages hold 6.0 (the GDDR6 bench rows); a GPU run's tens of MB are on huge
	 * pages from the second 2 MB on. */
	if (mapped_any)
		(void)madvise(a, bytes, MADV_HUGEPAGE);
	else if (bytes > HUGE_BYTES)
		(void)madvise(a + HUGE_BYTES, bytes - HUGE_BYTES, MADV_HUGEPAGE);
#endif
	mapped_any = true;
	ch = (struct chunk *)(void *)a;
	ch->bytes = bytes;
	ch->used = BULK_ALIGN;
	ch->live = 0;
	nchunks++;
	return ch;
}

static void *carve(struct chunk *ch, size_t bytes)
{
	struct head *h = (struct head *)(void *)((char *)ch + ch->used);

	h->ch = ch;
	ch->used += sizeof *h + bytes;
	ch->live++;
	return h + 1;
}

void *bulk_calloc(size_t n, size_t size)
{
	size_t bytes, need;
	void *p;

	if (mode == MODE_UNSET)
		mode = mode_detect();
	if (size != 0 && n > SIZE_MAX / size)
		bulk_oom(SIZE_MAX);
	bytes = round_up(n * size != 0 ? n * size : 1, BULK_ALIGN);
	if (mode == MODE_PLAIN) {
		p = aligned_alloc(BULK_ALIGN, bytes);
		if (p == NULL)
			bulk_oom(bytes);
		return memset(p, 0, bytes);
	}
	need = sizeof(struct head) + bytes;
	if (need > CHUNK_BYTES / 4)
		return carve(chunk_map(round_up(BULK_ALIGN + need, HUGE_BYTES)), bytes);
	if (cur == NULL || cur->bytes - cur->used < need)
		cur = chunk_map(CHUNK_BYTES);
	return carve(cur, bytes);
}

void bulk_free(void *p)
{
	struct chunk *ch;

	if (p == NULL)
		return;
	if (mode == MODE_PLAIN) {
		free(p);
		return;
	}
	SIM_ASSERT(mode == MODE_CHUNKS);
	ch = ((struct head *)p - 1)->ch;
	SIM_ASSERT(ch->live > 0);
	if (--ch->live != 0)
		return;
	if (ch == cur)
		cur = NULL;
	munmap(ch, ch->bytes);
	nchunks--;
}

size_t bulk_chunks(void)
{
	return nchunks;
}

void bulk_set_plain(bool plain)
{
	SIM_ASSERT(nchunks == 0);
	cur = NULL;
	mode = plain ? MODE_PLAIN : MODE_CHUNKS;
}
