/*
 * fuzz_dram_trace.c - libFuzzer harness: DRAM trace files for the standalone DRAM mode (DRAMsim3, Ramulator
 * LoadStoreTrace and DRAM mode, gmsim native: format detection and every line). The input is
 * the trace file; every record is read, with a cycle limit as `gmsim dram` sets one. Entry
 * points: dram_trace_open, dram_trace_next.
 *
 * Any input must come back as success or as a struct sim_err; a crash, a hang, a leak or a
 * sanitizer report is a bug in the parser. Seed corpus: tests/fuzz/corpus/dram_trace/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include "dram_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_err err;
	struct dram_trace_rec r;
	const char *path = fuzz_file(".trace", data, size);
	struct dram_trace *t = dram_trace_open(path, 64, &err);

	if (t == NULL)
		return 0;
	dram_trace_set_max_cycle(t, UINT64_MAX / 2);
	while (dram_trace_next(t, &r, &err) == 1)
		;
	dram_trace_close(t);
	return 0;
}
