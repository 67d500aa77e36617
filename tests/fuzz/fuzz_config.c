/*
 * fuzz_config.c - libFuzzer harness: GPU config files (libconfig, @include, the field tables of every unit, checks
 * across groups) with -o overrides: the input is the file, then optionally a line "%%" and one
 * override per line. Entry point: gpu_params_load, as every subcommand calls it.
 *
 * Any input must come back as success or as a struct sim_err; a crash, a hang, a leak or a
 * sanitizer report is a bug in the parser. Seed corpus: tests/fuzz/corpus/config/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include "params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

void fuzz_setup(void)
{
	fuzz_dir_link("dram", "configs/dram");
	fuzz_dir_link("sm", "configs/sm");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gpu_params p;
	char *ov[FUZZ_MAX_OVERRIDES];
	struct sim_err err;
	size_t text_size, n = fuzz_split_overrides(data, size, &text_size, ov);
	const char *path = fuzz_file(".cfg", data, text_size);

	gpu_params_load(&p, path, (const char *const *)ov, n, &err);
	fuzz_free_overrides(ov, n);
	return 0;
}
