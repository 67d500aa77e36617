/*
 * unit.h - what every CMocka test program includes.
 *
 * Pulls in cmocka with the headers it needs first, and declares the SIM_ASSERT seam: test
 * programs are linked with -Wl,--wrap=sim_assert_fail, so a failed SIM_ASSERT inside libsim.a
 * becomes mock_assert() and expect_assert_failure(...) can test a contract violation.
 */
#ifndef TESTS_UNIT_H
#define TESTS_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Reads a file under the source tree ($GMSIM_SRCDIR, or "." when unset) into a malloc'd string.
 * Fails the test if it cannot. */
char *unit_read_src_file(const char *relpath);
/* Absolute or relative path of a file under the source tree; static buffer, valid until the next
 * call. */
const char *unit_src_path(const char *relpath);

#endif /* TESTS_UNIT_H */
