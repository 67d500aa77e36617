/* test_link.c - stub, replaced by the real tests. */
#include "config.h"
#include "unit.h"

static void placeholder(void **state)
{
	(void)state;
	fail_msg("test_link not written yet");
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(placeholder) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
