/*
 * fuzz_sweep.c - libFuzzer harness: sweep files (axes, values, excludes, workloads named by path, the points
 * they expand to). The input is the sweep file; one that loads has its points written out.
 * Entry point: sweep_load_string (sweep_load without the file).
 *
 * Any input must come back as success or as a struct sim_err; a crash, a hang, a leak or a
 * sanitizer report is a bug in the parser. Seed corpus: tests/fuzz/corpus/sweep/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include <stdio.h>

#include "sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_err err;
	char *text = fuzz_str(data, size);
	struct sweep *s = sweep_load_string("fuzz.sweep", text, &err);

	if (s != NULL) {
		sweep_write_points(s, fuzz_devnull());
		sweep_free(s);
	}
	free(text);
	return 0;
}
