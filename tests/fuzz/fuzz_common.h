/*
 * fuzz_common.h - what the libFuzzer harnesses of tests/fuzz/ share.
 *
 * Most parsers take a file path, so a harness writes each input to a temporary file (created
 * once per process under /tmp, rewritten for every input) and calls the real entry point. Some
 * inputs carry command-line overrides as well: the text after a line "%%" is split into lines,
 * each one override (`-o key=value` for configs, `-p name=value` for workloads).
 *
 * The harnesses run from the source tree (fuzz_init chdirs there) so that inputs naming the
 * repository's own files (a sweep's workloads, a config's @include) find them.
 */
#ifndef SIM_FUZZ_COMMON_H
#define SIM_FUZZ_COMMON_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* Most overrides taken from one input; the rest are ignored. */
#define FUZZ_MAX_OVERRIDES 8

/* Chdirs to the source tree. fuzz_common.c's LLVMFuzzerInitialize calls it, then
 * fuzz_setup: a harness that needs more set-up (links, a generator) defines fuzz_setup; the
 * others take the empty default. */
void fuzz_init(void);
void fuzz_setup(void);

/* /dev/null, opened once, for parsers' describe/print functions. */
FILE *fuzz_devnull(void);

/* The path of this process's temporary file, ending in suffix (".cfg", ".traceg", ...), with
 * data[0..size) as its content. The same suffix gives the same file on every call. Aborts if the
 * file cannot be written (a harness problem, not a finding). */
const char *fuzz_file(const char *suffix, const uint8_t *data, size_t size);

/* The path of a file named name (e.g. "kernel-1.traceg") in this process's temporary directory,
 * with data[0..size) as its content. */
const char *fuzz_dir_file(const char *name, const uint8_t *data, size_t size);

/* Makes name in this process's temporary directory a symbolic link to target, a path relative
 * to the source tree (so that a config's `@include "dram/x.cfg"` finds configs/dram/). */
void fuzz_dir_link(const char *name, const char *target);

/* A NUL-terminated malloc'd copy of data[0..size). */
char *fuzz_str(const uint8_t *data, size_t size);

/* Splits data at the first line "%%": *text_size is the length of the part before it; the lines
 * after it (at most FUZZ_MAX_OVERRIDES, empty ones skipped) become malloc'd strings in ov[].
 * Returns their number; free them with fuzz_free_overrides. */
size_t fuzz_split_overrides(const uint8_t *data, size_t size, size_t *text_size, char **ov);
void fuzz_free_overrides(char **ov, size_t n);

#endif /* SIM_FUZZ_COMMON_H */
