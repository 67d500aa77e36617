/*
 * test_log.c - the error policy (log.c): sim_err formatting, sim_fatal's exit code and message,
 * panics and failed SIM_ASSERTs abort with where they happened, and the xmalloc family.
 *
 * sim_fatal and sim_panic end the process, so they run in a forked child whose exit status and
 * stderr are checked.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "unit.h"

static void err_formats(void **state)
{
	struct sim_err err;
	char buf[2048];

	(void)state;
	assert_int_equal(sim_err_set(&err, "a.cfg", 14, "dram.timing.nRCD: expected %s, got %d",
				     "an integer in 1..1000", -3), -1);
	assert_string_equal(sim_err_format(&err, buf, sizeof buf),
			    "a.cfg:14: dram.timing.nRCD: expected an integer in 1..1000, got -3");
	sim_err_set(&err, "a.cfg", 0, "cannot open");
	assert_string_equal(sim_err_format(&err, buf, sizeof buf), "a.cfg: cannot open");
	sim_err_set(&err, NULL, 7, "plain");
	assert_string_equal(sim_err_format(&err, buf, sizeof buf), "plain");
	assert_int_equal(sim_err_set(NULL, "x", 1, "ignored"), -1);
}

/* Runs fn in a child with stderr captured; returns the wait status and fills out. */
static int in_child(void (*fn)(void), char *out, size_t size)
{
	int fds[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		fn();
		_exit(99);
	}
	close(fds[1]);
	while ((n = read(fds[0], out + len, size - 1 - (size_t)len)) > 0)
		len += n;
	out[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void do_fatal(void)
{
	sim_fatal("configs/x.cfg:%d: %s", 3, "clock.core_mz: unknown key");
}

static void fatal_exits_one_with_message(void **state)
{
	char out[1024];
	int st;

	(void)state;
	st = in_child(do_fatal, out, sizeof out);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), SIM_EXIT_USER);
	assert_string_equal(out, "gmsim: error: configs/x.cfg:3: clock.core_mz: unknown key\n");
}

static void where(const void *ctx, FILE *out)
{
	fprintf(out, "tick %d, unit %s", 1234, (const char *)ctx);
}

static void do_panic(void)
{
	sim_log_attach(where, "mc3");
	sim_panic("bank %d in state %s", 5, "ACTIVE");
}

static void panic_aborts_with_where(void **state)
{
	char out[1024];
	int st;

	(void)state;
	st = in_child(do_panic, out, sizeof out);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGABRT);
	assert_non_null(strstr(out, "gmsim: panic at "));
	assert_non_null(strstr(out, "test_log.c:"));
	assert_non_null(strstr(out, " (tick 1234, unit mc3): bank 5 in state ACTIVE\n"));
}

static void do_detached_panic(void)
{
	static const char ctx[] = "l2";

	sim_log_attach(where, ctx);
	sim_log_detach("other"); /* not the attached context: no effect */
	sim_log_detach(ctx);
	sim_panic("x");
}

static void detach_forgets_the_context(void **state)
{
	char out[1024];

	(void)state;
	in_child(do_detached_panic, out, sizeof out);
	assert_null(strstr(out, "tick"));
	assert_non_null(strstr(out, ": x\n"));
}

static void assert_failure_reaches_the_seam(void **state)
{
	int two = 2;

	(void)state;
	SIM_ASSERT(two == 2); /* holds: nothing happens */
	expect_assert_failure(SIM_ASSERT(two == 3));
}

static void xalloc_family(void **state)
{
	char *s, *t;
	int *v;

	(void)state;
	s = xstrdup("gmsim");
	assert_string_equal(s, "gmsim");
	t = xasprintf("%s-%d.%s", s, 7, "cfg");
	assert_string_equal(t, "gmsim-7.cfg");
	v = xcalloc(4, sizeof *v);
	assert_int_equal(v[0] + v[1] + v[2] + v[3], 0);
	v = xreallocarray(v, 1000, sizeof *v);
	v[999] = 5;
	assert_int_equal(v[999], 5);
	free(v);
	free(s);
	free(t);
	free(xmalloc(0)); /* a valid pointer, not NULL */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(err_formats),
		cmocka_unit_test(fatal_exits_one_with_message),
		cmocka_unit_test(panic_aborts_with_where),
		cmocka_unit_test(detach_forgets_the_context),
		cmocka_unit_test(assert_failure_reaches_the_seam),
		cmocka_unit_test(xalloc_family),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
