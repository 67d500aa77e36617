/*
 * unit.c - shared helpers of the CMocka test programs (see unit.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

_Noreturn void __wrap_sim_assert_fail(const char *expr, const char *file, int line);

void __wrap_sim_assert_fail(const char *expr, const char *file, int line)
{
	mock_assert(0, expr, file, line);
	abort(); /* mock_assert longjmps; never reached */
}

const char *unit_src_path(const char *relpath)
{
	static char buf[4096];
	const char *top = getenv("GMSIM_SRCDIR");

	snprintf(buf, sizeof buf, "%s/%s", top != NULL && top[0] != '\0' ? top : ".", relpath);
	return buf;
}

char *unit_read_src_file(const char *relpath)
{
	const char *path = unit_src_path(relpath);
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n)
		fail_msg("cannot read %s", path);
	buf[n] = '\0';
	fclose(f);
	return buf;
}
