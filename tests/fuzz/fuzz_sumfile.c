// SPDX-License-Identifier: MIT
/*
 * The checksum-file line reader of verify --sha256-file/--md5-file
 * (src/cli/sumfile.c, built in here: the CLI is not in the library).
 * Each line of the input is parsed; what it accepts must hold what the
 * reader promises: a digest of 1 to SUM_HEX_MAX lower-case hex digits,
 * a non-empty name without the line's end, an algorithm only from a
 * --tag line, every string terminated.
 */
#include <ctype.h>
#include <string.h>
#include "fuzz.h"
#include "../../src/cli/sumfile.c"

static void check(const struct sum_line *e)
{
	size_t i, n = strnlen(e->hex, sizeof(e->hex));

	if (!n || n > SUM_HEX_MAX || strnlen(e->algo, sizeof(e->algo)) >= sizeof(e->algo) ||
	    !e->name[0] || strnlen(e->name, sizeof(e->name)) >= sizeof(e->name))
		__builtin_trap();
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)e->hex[i]) || isupper((unsigned char)e->hex[i]))
			__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		struct sum_line e;
		enum sum_kind k = sum_parse_line(p, len, &e);

		if (k == SUM_ENTRY)
			check(&e);
		else if (k != SUM_NONE && k != SUM_OTHER)
			__builtin_trap();
		p += len;
	}
	return 0;
}
