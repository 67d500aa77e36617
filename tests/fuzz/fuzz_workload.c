/*
 * fuzz_workload.c - libFuzzer harness: workload files (.wl: parameters, arrays, loops, index expressions in
 * context) with -p overrides: the input is the file, then optionally a line "%%" and one
 * name=value per line. Entry point: workload_load; a workload that loads is also described.
 *
 * Any input must come back as success or as a struct sim_err; a crash, a hang, a leak or a
 * sanitizer report is a bug in the parser. Seed corpus: tests/fuzz/corpus/workload/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include <stdio.h>

#include "workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *ov[FUZZ_MAX_OVERRIDES];
	struct sim_err err;
	size_t text_size, n = fuzz_split_overrides(data, size, &text_size, ov);
	const char *path = fuzz_file(".wl", data, text_size);
	struct workload *w = workload_load(path, (const char *const *)ov, n, &err);

	if (w != NULL) {
		workload_describe(w, fuzz_devnull());
		workload_free(w);
	}
	fuzz_free_overrides(ov, n);
	return 0;
}
