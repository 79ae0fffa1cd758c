// SPDX-License-Identifier: MIT
/*
 * The sysfs value parsers of the hazards scan, each over the same string,
 * with and without a trailing newline.
 */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "hazards/hazards.h"

static void all(const char *s)
{
	unsigned int maj, min;
	int r;

	r = hz_parse_write_cache(s);
	if (r < -1 || r > 1)
		__builtin_trap();
	r = hz_parse_bool01(s);
	if (r < -1 || r > 1)
		__builtin_trap();
	r = hz_parse_cache_type(s);
	if (r < -1 || r > 1)
		__builtin_trap();
	if (hz_parse_ulong(s) < -1)
		__builtin_trap();
	(void)hz_parse_devt(s, &maj, &min);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strdup(data, size);
	char *nl;

	if (!s)
		return 0;
	all(s);
	nl = malloc(size + 2);
	if (nl) {
		memcpy(nl, s, size + 1);
		strcat(nl, "\n");
		all(nl);
		free(nl);
	}
	free(s);
	return 0;
}
