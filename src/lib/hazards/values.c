// SPDX-License-Identifier: MIT
/*
 * The values of the hazards scan: parsers of sysfs attributes as the
 * kernel prints them, and the caching mode page folded into a node.  Pure
 * functions over strings and parsed answers (fuzzed: fuzz_hazards_values).
 * A value the kernel does not print is "unknown" (-1), never a guess.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hazards/hazards.h"

/* ---- value parsers ------------------------------------------------------ */

/* Length of s without one trailing newline. */
static size_t value_len(const char *s)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '\n')
		n--;
	return n;
}

static bool value_is(const char *s, const char *want)
{
	size_t n = value_len(s);

	return n == strlen(want) && !strncmp(s, want, n);
}

/* 1 for the value one, 0 for zero, -1 for anything else */
static int one_of(const char *s, const char *one, const char *zero)
{
	if (!s)
		return -1;
	if (value_is(s, one))
		return 1;
	return value_is(s, zero) ? 0 : -1;
}

int hz_parse_write_cache(const char *s)
{
	return one_of(s, "write back", "write through");
}

int hz_parse_bool01(const char *s)
{
	return one_of(s, "1", "0");
}

void *hz_grow(void *v, size_t n, size_t elem)
{
	char *p = realloc(v, (n + 1) * elem);

	if (p)
		memset(p + n * elem, 0, elem);
	return p;
}

/*
 * sd prints one of "write through", "none", "write back" and
 * "write back, no read (daft)": the last two mean a volatile cache.
 */
int hz_parse_cache_type(const char *s)
{
	if (!s)
		return -1;
	if (value_is(s, "write back") || value_is(s, "write back, no read (daft)"))
		return 1;
	if (value_is(s, "write through") || value_is(s, "none") ||
	    value_is(s, "write through, no read (daft)"))
		return 0;
	return -1;
}

long hz_parse_ulong(const char *s)
{
	size_t n, i;
	long v = 0;

	if (!s)
		return -1;
	n = value_len(s);
	if (!n || n > 9)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int hz_parse_devt(const char *s, unsigned int *maj, unsigned int *min)
{
	char a[12], b[12];
	const char *colon;
	size_t n;
	long ma, mi;

	if (!s)
		return -1;
	n = value_len(s);
	colon = memchr(s, ':', n);
	if (!colon || (size_t)(colon - s) >= sizeof(a) ||
	    n - (size_t)(colon - s) - 1 >= sizeof(b))
		return -1;
	memcpy(a, s, (size_t)(colon - s));
	a[colon - s] = '\0';
	memcpy(b, colon + 1, n - (size_t)(colon - s) - 1);
	b[n - (size_t)(colon - s) - 1] = '\0';
	ma = hz_parse_ulong(a);
	mi = hz_parse_ulong(b);
	if (ma < 0 || mi < 0)
		return -1;
	*maj = (unsigned int)ma;
	*min = (unsigned int)mi;
	return 0;
}

void hz_apply_caching(struct cdt_hazard_node *n,
		      const struct mmc_mode_caching *mc)
{
	n->mode_sense_done = true;
	n->mode_sense_note[0] = '\0';
	n->dpofua = mc->dpofua;
	n->wce = mc->have_caching ? mc->wce : -1;
	if (!mc->have_caching)
		snprintf(n->mode_sense_note, sizeof(n->mode_sense_note),
			 "the answer holds no caching page (0x08)");
}
