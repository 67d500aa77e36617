/*
 * log.c - fatal errors, panics, warnings and the xmalloc family.
 *
 * Models nothing; it is the error policy of STYLE.md made concrete. sim_fatal exits 1 (user
 * mistake), sim_panic and failed SIM_ASSERTs abort (simulator bug), allocation failure aborts.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/* Panic context: see log.h. Diagnostics only. */
static sim_log_where_fn *where_fn;
static const void *where_ctx;

void sim_log_attach(sim_log_where_fn *fn, const void *ctx)
{
	where_fn = fn;
	where_ctx = ctx;
}

void sim_log_detach(const void *ctx)
{
	if (where_ctx == ctx) {
		where_fn = NULL;
		where_ctx = NULL;
	}
}

int sim_err_set(struct sim_err *err, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	snprintf(err->file, sizeof err->file, "%s", file != NULL ? file : "");
	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

const char *sim_err_format(const struct sim_err *err, char *buf, size_t size)
{
	if (err->file[0] != '\0' && err->line > 0)
		snprintf(buf, size, "%s:%d: %s", err->file, err->line, err->msg);
	else if (err->file[0] != '\0')
		snprintf(buf, size, "%s: %s", err->file, err->msg);
	else
		snprintf(buf, size, "%s", err->msg);
	return buf;
}

void sim_fatal(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("gmsim: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(SIM_EXIT_USER);
}

void sim_fatal_err(const struct sim_err *err)
{
	char buf[SIM_ERR_MSG_MAX + 300];

	sim_fatal("%s", sim_err_format(err, buf, sizeof buf));
}

void sim_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("gmsim: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void print_where(void)
{
	if (where_fn != NULL) {
		fputs(" (", stderr);
		where_fn(where_ctx, stderr);
		fputc(')', stderr);
	}
}

void sim_panic_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "gmsim: panic at %s:%d", file, line);
	print_where();
	fputs(": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void sim_assert_fail(const char *expr, const char *file, int line)
{
	fflush(stdout);
	fprintf(stderr, "gmsim: assertion failed at %s:%d", file, line);
	print_where();
	fprintf(stderr, ": %s\n", expr);
	abort();
}

static _Noreturn void out_of_memory(size_t size)
{
	fprintf(stderr, "gmsim: out of memory allocating %zu bytes\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size != 0 ? size : 1);

	if (p == NULL)
		out_of_memory(size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n != 0 ? n : 1, size != 0 ? size : 1);

	if (p == NULL)
		out_of_memory(n * size);
	return p;
}

void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size != 0 ? size : 1);

	if (q == NULL)
		out_of_memory(size);
	return q;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);

	memcpy(p, s, n);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory(0);
	return s;
}
