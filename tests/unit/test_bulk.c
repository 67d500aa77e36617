/*
 * test_bulk.c - zeroed long-lived arrays from huge-page chunks (sim/core/bulk.c).
 *
 * In the chunk mode: blocks are zeroed, 64-byte aligned and do not overlap; small blocks share a
 * chunk, a block over a quarter of a chunk gets its own, a full chunk opens the next one; a chunk
 * is unmapped exactly when its last block is freed, and what is allocated after that is zero
 * again. In the plain mode (what AddressSanitizer and valgrind get) no chunk is mapped. The mode
 * cannot change under mapped chunks.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "unit.h"

#include "bulk.h"

#define MB ((size_t)1 << 20)

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

static int chunks_mode(void **state)
{
	(void)state;
	bulk_set_plain(false);
	return 0;
}

static int plain_mode(void **state)
{
	(void)state;
	bulk_set_plain(true);
	return 0;
}

static void test_small_blocks_share_a_chunk(void **state)
{
	enum { N = 100 };
	unsigned char *b[N];
	size_t i;

	(void)state;
	assert_int_equal(bulk_chunks(), 0);
	for (i = 0; i < N; i++) {
		size_t n = 1 + i * 37; /* 1 .. 3664 bytes: most not a multiple of 64 */

		b[i] = bulk_calloc(n, 1);
		assert_non_null(b[i]);
		assert_int_equal((uintptr_t)b[i] % 64, 0);
		assert_true(all_zero(b[i], n));
		memset(b[i], (int)(i + 1), n); /* overlapping blocks would overwrite each other */
	}
	assert_int_equal(bulk_chunks(), 1);
	for (i = 0; i < N; i++) {
		size_t n = 1 + i * 37;

		for (size_t k = 0; k < n; k++)
			assert_int_equal(b[i][k], (unsigned char)(i + 1));
	}
	/* the chunk lives while any block does */
	for (i = 0; i + 1 < N; i++)
		bulk_free(b[i]);
	assert_int_equal(bulk_chunks(), 1);
	bulk_free(b[N - 1]);
	assert_int_equal(bulk_chunks(), 0);
}

static void test_large_block_own_chunk(void **state)
{
	unsigned char *small, *big;

	(void)state;
	small = bulk_calloc(10, 8);
	assert_int_equal(bulk_chunks(), 1);
	big = bulk_calloc(9 * MB, 1); /* over a quarter of 32 MB */
	assert_int_equal(bulk_chunks(), 2);
	assert_int_equal((uintptr_t)big % 64, 0);
	assert_true(all_zero(big, 9 * MB));
	memset(big, 0xab, 9 * MB);
	bulk_free(big);
	assert_int_equal(bulk_chunks(), 1);
	/* the small block's chunk still takes new blocks */
	big = bulk_calloc(1, 64);
	assert_int_equal(bulk_chunks(), 1);
	bulk_free(big);
	bulk_free(small);
	assert_int_equal(bulk_chunks(), 0);
}

static void test_full_chunk_opens_next(void **state)
{
	enum { N = 5 };
	unsigned char *b[N];
	size_t i;

	(void)state;
	/* 7 MB each (under a quarter): four fit 32 MB, the fifth opens a second chunk */
	for (i = 0; i < N; i++) {
		b[i] = bulk_calloc(7, MB);
		assert_true(all_zero(b[i], 7 * MB));
		b[i][7 * MB - 1] = 1;
		assert_int_equal(bulk_chunks(), i < 4 ? 1 : 2);
	}
	/* the first chunk goes with its last block, while the second lives */
	for (i = 0; i < 4; i++)
		bulk_free(b[i]);
	assert_int_equal(bulk_chunks(), 1);
	bulk_free(b[4]);
	assert_int_equal(bulk_chunks(), 0);
}

static void test_zero_again_after_release(void **state)
{
	unsigned char *a, *b;

	(void)state;
	a = bulk_calloc(4096, 1);
	memset(a, 0xff, 4096);
	bulk_free(a);
	assert_int_equal(bulk_chunks(), 0);
	b = bulk_calloc(4096, 1);
	assert_true(all_zero(b, 4096));
	bulk_free(b);
}

static void test_empty_blocks_distinct(void **state)
{
	void *a, *b;

	(void)state;
	a = bulk_calloc(0, 8);
	b = bulk_calloc(8, 0);
	assert_non_null(a);
	assert_non_null(b);
	assert_ptr_not_equal(a, b);
	bulk_free(a);
	bulk_free(b);
	bulk_free(NULL);
	assert_int_equal(bulk_chunks(), 0);
}

static void test_mode_fixed_under_chunks(void **state)
{
	void *a;

	(void)state;
	a = bulk_calloc(1, 1);
	expect_assert_failure(bulk_set_plain(true));
	bulk_free(a);
	bulk_set_plain(false);
}

static void test_plain_mode(void **state)
{
	unsigned char *a, *b;

	(void)state;
	a = bulk_calloc(1000, 3);
	b = bulk_calloc(9 * MB, 1);
	assert_int_equal(bulk_chunks(), 0);
	assert_int_equal((uintptr_t)a % 64, 0);
	assert_int_equal((uintptr_t)b % 64, 0);
	assert_true(all_zero(a, 3000));
	assert_true(all_zero(b, 9 * MB));
	bulk_free(a);
	bulk_free(b);
	bulk_set_plain(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_small_blocks_share_a_chunk, chunks_mode),
		cmocka_unit_test_setup(test_large_block_own_chunk, chunks_mode),
		cmocka_unit_test_setup(test_full_chunk_opens_next, chunks_mode),
		cmocka_unit_test_setup(test_zero_again_after_release, chunks_mode),
		cmocka_unit_test_setup(test_empty_blocks_distinct, chunks_mode),
		cmocka_unit_test_setup(test_mode_fixed_under_chunks, chunks_mode),
		cmocka_unit_test_setup(test_plain_mode, plain_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
