// SPDX-License-Identifier: MIT
/* Helpers shared by the fuzz targets. */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"

char *fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
