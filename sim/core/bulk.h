/*
 * bulk.h - zeroed arrays that live as long as the unit that made them, from large chunks the
 * host may back with huge pages.
 *
 * A simulated GPU's per-unit state is tens of MB of arrays made once (the caches' tags and stamps,
 * the MSHR tables, the controllers' queue pools, the latency histograms' counts) and read in no
 * order the host's caches or TLB can follow (every L2 lookup touches another set of another
 * slice). Allocated one by one with calloc they sit on 4 KB pages: building them took most of
 * a small A100-class run's 10,600 page faults (and half of its 0.12-0.17 s of CPU, on a virtual
 * machine) and the run's lookups missed the TLB. Here they are carved, 64-byte aligned,
 * from chunks mapped 2 MB-aligned and marked for transparent huge pages (madvise MADV_HUGEPAGE;
 * a hint: where the host has none the chunk keeps small pages and works the same). A huge page
 * is resident as a whole once touched, so state a run touches sparsely stays on calloc (the
 * SMs' per-warp-slot cold state: 12 MB on the A100-class config, of which a pointer chase
 * touches a few pages).
 *
 * Contract
 *   - bulk_calloc returns n * size zeroed bytes, 64-byte aligned, never NULL (out of memory
 *     aborts, as xcalloc); n or size 0 gives a valid, distinct block.
 *   - bulk_free releases a block of bulk_calloc (NULL: nothing). A chunk is unmapped when its
 *     last block is freed, so freeing everything a simulation made returns its memory.
 *     Freed space is not reused inside a chunk: use it for arrays made at create time and freed
 *     at destroy, not for anything made per request.
 *   - Under AddressSanitizer or valgrind (detected at the first call) every block is a plain
 *     calloc, so they keep checking bounds and leaks block by block.
 * Not thread-safe (gmsim runs one simulation per process).
 */
#ifndef SIM_BULK_H
#define SIM_BULK_H

#include <stdbool.h>
#include <stddef.h>

void *bulk_calloc(size_t n, size_t size);
void bulk_free(void *p);

/* Chunks mapped now (0 in the plain mode): for tests. */
size_t bulk_chunks(void);
/* Forces the plain mode (calloc / free) on or off; only while no chunk is mapped (tests). */
void bulk_set_plain(bool plain);

#endif
