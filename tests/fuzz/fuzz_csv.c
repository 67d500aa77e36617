/*
 * fuzz_csv.c - libFuzzer harness: measured-data CSV files (RFC 4180 records, then validate's columns, units
 * and values). The input is the CSV file. Entry point: validate_csv_load, which reads records
 * with csv_read_record.
 *
 * Any input must come back as success or as a struct sim_err; a crash, a hang, a leak or a
 * sanitizer report is a bug in the parser. Seed corpus: tests/fuzz/corpus/csv/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include "validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_err err;
	struct vcsv *c = validate_csv_load(fuzz_file(".csv", data, size), &err);

	validate_csv_free(c);
	return 0;
}
