/*
 * fuzz_common.c - temporary files and override splitting for the libFuzzer harnesses.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"

/* This process's directory under /tmp, made on first use and removed at exit. */
static char tmp_dir[64];
/* Files made in it, removed at exit. */
#define FUZZ_MAX_FILES 8
static char *tmp_files[FUZZ_MAX_FILES];
static size_t ntmp_files;

static void remove_tmp(void)
{
	size_t i;

	for (i = 0; i < ntmp_files; i++) {
		unlink(tmp_files[i]);
		free(tmp_files[i]);
	}
	if (tmp_dir[0] != '\0')
		rmdir(tmp_dir);
}

void fuzz_init(void)
{
	if (chdir(GMSIM_SRCDIR) != 0) {
		perror(GMSIM_SRCDIR);
		abort();
	}
}

/* The default for harnesses without set-up of their own. */
__attribute__((weak)) void fuzz_setup(void)
{
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	fuzz_setup();
	return 0;
}

FILE *fuzz_devnull(void)
{
	static FILE *f;

	if (f == NULL && (f = fopen("/dev/null", "w")) == NULL) {
		perror("/dev/null");
		abort();
	}
	return f;
}

static const char *dir(void)
{
	if (tmp_dir[0] == '\0') {
		snprintf(tmp_dir, sizeof tmp_dir, "/tmp/gmsim-fuzz-XXXXXX");
		if (mkdtemp(tmp_dir) == NULL) {
			perror("mkdtemp");
			abort();
		}
		atexit(remove_tmp);
	}
	return tmp_dir;
}

static void write_all(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || (size > 0 && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
		perror(path);
		abort();
	}
}

const char *fuzz_dir_file(const char *name, const uint8_t *data, size_t size)
{
	char path[256];
	size_t i;

	snprintf(path, sizeof path, "%s/%s", dir(), name);
	for (i = 0; i < ntmp_files && strcmp(tmp_files[i], path) != 0; i++)
		;
	if (i == ntmp_files) {
		if (ntmp_files == FUZZ_MAX_FILES)
			abort();
		tmp_files[ntmp_files++] = strdup(path);
	}
	write_all(tmp_files[i], data, size);
	return tmp_files[i];
}

void fuzz_dir_link(const char *name, const char *target)
{
	char path[256], abs[512];

	snprintf(path, sizeof path, "%s/%s", dir(), name);
	snprintf(abs, sizeof abs, "%s/%s", GMSIM_SRCDIR, target);
	if (ntmp_files == FUZZ_MAX_FILES || symlink(abs, path) != 0) {
		perror(path);
		abort();
	}
	tmp_files[ntmp_files++] = strdup(path);
}

const char *fuzz_file(const char *suffix, const uint8_t *data, size_t size)
{
	char name[64];

	snprintf(name, sizeof name, "input%s", suffix);
	return fuzz_dir_file(name, data, size);
}

char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

size_t fuzz_split_overrides(const uint8_t *data, size_t size, size_t *text_size, char **ov)
{
	const uint8_t *p = data, *end = data + size;
	size_t n = 0;

	*text_size = size;
	/* a line "%%": at the start, or after a newline */
	for (; p + 2 <= end; p++) {
		if (p[0] == '%' && p[1] == '%' && (p == data || p[-1] == '\n') &&
		    (p + 2 == end || p[2] == '\n'))
			break;
	}
	if (p + 2 > end)
		return 0;
	*text_size = (size_t)(p - data);
	p += 2;
	while (p < end && n < FUZZ_MAX_OVERRIDES) {
		const uint8_t *nl;

		if (*p == '\n') {
			p++;
			continue;
		}
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		ov[n++] = fuzz_str(p, (size_t)(nl - p));
		p = nl;
	}
	return n;
}

void fuzz_free_overrides(char **ov, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(ov[i]);
}
