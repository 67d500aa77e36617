/*
 * fuzz_trace.c - libFuzzer harness: Accel-Sim traces. The input is written both as kernel-1.traceg (a kernel
 * file: header, #BEGIN_TB blocks, instruction lines) and as kernelslist.g (a list: kernel
 * files and MemcpyHtoD lines; a line naming kernel-1.traceg names the same input). Both are
 * loaded and every block of every kernel is read, with the repository's latency table. Entry
 * points: trace_list_load, trace_open, trace_next_block.
 *
 * Any input must come back as success or as a struct sim_err; a crash, a hang, a leak or a
 * sanitizer report is a bug in the parser. Seed corpus: tests/fuzz/corpus/trace/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include <stdbool.h>

#include "trace.h"
#include "trace_isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Loads path and reads every block of every kernel. */
static void read_all(const char *path)
{
	struct trace_list *l;
	struct trace_block b;
	struct sim_err err;
	size_t k;

	if (trace_list_load(path, ISA_DEFAULT_PATH, false, &l, &err) != 0)
		return;
	trace_block_init(&b);
	for (k = 0; k < l->nkernels; k++) {
		struct trace_reader *r;

		if (trace_open(l, k, &r, &err) != 0)
			continue;
		while (trace_next_block(r, &b, &err) == 1)
			;
		trace_close(r);
	}
	trace_block_free(&b);
	trace_list_free(l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_all(fuzz_dir_file("kernel-1.traceg", data, size));
	read_all(fuzz_dir_file("kernelslist.g", data, size));
	return 0;
}
