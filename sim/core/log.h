/*
 * log.h - the three kinds of failure, warnings, and the xmalloc family.
 *
 *   user mistake (bad config, bad workload, bad CLI) -> sim_fatal: message to stderr, exit(1)
 *   simulator bug                                    -> sim_panic / SIM_ASSERT: abort()
 *   out of memory                                    -> xmalloc & co.: abort()
 *
 * Library-style code (config loader, trace readers) does not call sim_fatal itself: it returns -1
 * and fills a struct sim_err, and the CLI layer decides. A panic names the source line and, when a
 * simulation is running, the tick and the unit being ticked (see sim_log_attach).
 */
#ifndef SIM_LOG_H
#define SIM_LOG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "types.h"

/* Exit codes of the gmsim binary. A panic ends in abort() (134). */
enum sim_exit {
	SIM_EXIT_OK = 0,
	SIM_EXIT_USER = 1,  /* bad input */
	SIM_EXIT_USAGE = 2, /* bad command line */
	SIM_EXIT_WATCHDOG = 3, /* deadlock: no progress for sim.watchdog_cycles (doc/limits.md) */
	SIM_EXIT_LIMIT = 4,    /* a run limit (--max-cycles, --max-host-seconds) stopped the run */
};

/* A failure reported by library-style code: "file:line: msg" (file may be empty, line 0). */
#define SIM_ERR_MSG_MAX 1024
struct sim_err {
	char file[256];
	int line;
	char msg[SIM_ERR_MSG_MAX];
};

/* Fills err (file may be NULL, line may be 0) and returns -1 so callers can `return sim_err_set(...)`. */
int sim_err_set(struct sim_err *err, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Writes "file:line: msg" (or "file: msg" / "msg") into buf; returns buf. */
const char *sim_err_format(const struct sim_err *err, char *buf, size_t size);

_Noreturn void sim_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void sim_fatal_err(const struct sim_err *err);
_Noreturn void sim_panic_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void sim_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Called when SIM_ASSERT fails. A separate, non-inline function so that unit tests can link with
 * -Wl,--wrap=sim_assert_fail and use cmocka's expect_assert_failure against the real library.
 */
_Noreturn void sim_assert_fail(const char *expr, const char *file, int line);

#define sim_panic(...) sim_panic_at(__FILE__, __LINE__, __VA_ARGS__)

#ifdef SIM_NO_ASSERTS
#define SIM_ASSERT(cond) ((void)0)
#else
#define SIM_ASSERT(cond) ((cond) ? (void)0 : sim_assert_fail(#cond, __FILE__, __LINE__))
#endif

/*
 * Diagnostic context for panics. The one process-wide pointer in gmsim, and it is read only to
 * print where a panic happened, never to compute anything: the running simulation registers a
 * function that writes "tick T, unit U" (see eventq.c).
 */
typedef void sim_log_where_fn(const void *ctx, FILE *out);
void sim_log_attach(sim_log_where_fn *fn, const void *ctx);
void sim_log_detach(const void *ctx);

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* Grows an array: returns p resized to n elements of size bytes, aborting on overflow. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* SIM_LOG_H */
