// SPDX-License-Identifier: MIT
/*
 * The checksum-file line reader of verify (src/cli/sumfile.c, built in
 * here: the CLI is not in the library): every form sha256sum and md5sum
 * write, what is not an entry, and the escapes of a backslash line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "../../src/cli/sumfile.c"

#define H64 "b8fe3d7d56961963f5237fb47c0d45cde9954c3eb9f439e03f0982c73d11e032"
#define H32 "68a8368527568a3c661d24b1a9fb0b02"

static enum sum_kind parse(const char *line, struct sum_line *e)
{
	memset(e, 0x55, sizeof(*e));
	return sum_parse_line(line, strlen(line), e);
}

static void entry(const char *line, const char *algo, const char *hex, const char *name,
		  bool binary)
{
	struct sum_line e;

	assert_int_equal(parse(line, &e), SUM_ENTRY);
	assert_string_equal(e.algo, algo);
	assert_string_equal(e.hex, hex);
	assert_string_equal(e.name, name);
	assert_int_equal(e.binary, binary);
}

static void test_forms(void **state)
{
	(void)state;
	entry(H64 "  disc.iso\n", "", H64, "disc.iso", false);
	entry(H64 " *disc.iso\n", "", H64, "disc.iso", true);
	/* FreeBSD sha256 -r: one space */
	entry(H64 " disc.iso", "", H64, "disc.iso", false);
	entry("SHA256 (disc.iso) = " H64 "\n", "SHA256", H64, "disc.iso", false);
	entry("MD5 (disc.iso) = " H32 "\r\n", "MD5", H32, "disc.iso", false);
	/* OpenSSL dgst */
	entry("SHA2-256(disc.iso)= " H64, "SHA2-256", H64, "disc.iso", false);
	/* a name holding ") = " and spaces, leading blanks, upper-case hex */
	entry("  SHA256 (a) = b c.iso) = " H64, "SHA256", H64, "a) = b c.iso", false);
	entry("B8FE3D7D56961963F5237FB47C0D45CDE9954C3EB9F439E03F0982C73D11E032  x",
	      "", H64, "x", false);
}

static void test_escapes(void **state)
{
	(void)state;
	entry("\\" H64 "  a\\\\b\\nc\\r.iso\n", "", H64, "a\\b\nc\r.iso", false);
	entry("\\SHA256 (a\\\\b) = " H64, "SHA256", H64, "a\\b", false);
	/* without the leading backslash a backslash is the name's own */
	entry(H64 "  a\\nb", "", H64, "a\\nb", false);
}

static void test_not_entries(void **state)
{
	struct sum_line e;

	(void)state;
	assert_int_equal(parse("", &e), SUM_NONE);
	assert_int_equal(parse("\r\n", &e), SUM_NONE);
	assert_int_equal(parse("   \t\n", &e), SUM_NONE);
	assert_int_equal(parse("# " H64 "  disc.iso", &e), SUM_NONE);
	assert_int_equal(parse("-----BEGIN PGP SIGNED MESSAGE-----", &e), SUM_OTHER);
	assert_int_equal(parse("Hash: SHA256", &e), SUM_OTHER);
	assert_int_equal(parse(H64, &e), SUM_OTHER);
	assert_int_equal(parse(H64 "  ", &e), SUM_OTHER);
	assert_int_equal(parse("SHA256 () = " H64, &e), SUM_OTHER);
	assert_int_equal(parse("SHA256 (x) = ", &e), SUM_OTHER);
	assert_int_equal(parse("SHA256 (x) " H64, &e), SUM_OTHER);
	assert_int_equal(parse("SHA256 x) = " H64, &e), SUM_OTHER);
	/* an escape coreutils never writes, a backslash at the end */
	assert_int_equal(parse("\\" H64 "  a\\tb", &e), SUM_OTHER);
	assert_int_equal(parse("\\" H64 "  a\\", &e), SUM_OTHER);
	/* a NUL inside the line */
	assert_int_equal(sum_parse_line(H64 "  a\0b", 68, &e), SUM_OTHER);
}

static void test_limits(void **state)
{
	char line[SUM_HEX_MAX + SUM_NAME_MAX + 16];
	struct sum_line e;

	(void)state;
	/* 128 digits (SHA-512) taken, 129 not */
	memset(line, 'a', SUM_HEX_MAX);
	strcpy(line + SUM_HEX_MAX, "  n");
	assert_int_equal(parse(line, &e), SUM_ENTRY);
	assert_int_equal(strlen(e.hex), SUM_HEX_MAX);
	memset(line, 'a', SUM_HEX_MAX + 1);
	strcpy(line + SUM_HEX_MAX + 1, "  n");
	assert_int_equal(parse(line, &e), SUM_OTHER);
	/* a name that does not fit is no entry, never cut */
	memcpy(line, H64 "  ", 66);
	memset(line + 66, 'n', SUM_NAME_MAX);
	line[66 + SUM_NAME_MAX] = '\0';
	assert_int_equal(parse(line, &e), SUM_OTHER);
	line[66 + SUM_NAME_MAX - 1] = '\0';
	assert_int_equal(parse(line, &e), SUM_ENTRY);
	assert_int_equal(strlen(e.name), SUM_NAME_MAX - 1);
}

static void test_algo(void **state)
{
	(void)state;
	assert_true(sum_algo_is("SHA256", 64));
	assert_true(sum_algo_is("sha256", 64));
	assert_true(sum_algo_is("SHA2-256", 64));
	assert_true(sum_algo_is("MD5", 32));
	assert_false(sum_algo_is("MD5", 64));
	assert_false(sum_algo_is("SHA1", 64));
	assert_false(sum_algo_is("SHA512", 32));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_not_entries),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_algo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
