// SPDX-License-Identifier: MIT
/*
 * The map comment cdtail writes for what it never reads ("# cdtail
 * skipped ...", book/skip.h).  An accepted list holds at most
 * SKIP_MAX_AREAS areas, ascending and apart, none empty, blocks their sum;
 * formatting it and parsing the result gives the same list back.
 */
#include <stdlib.h>
#include <string.h>
#include "cdtail.h"
#include "fuzz.h"
#include "book/skip.h"

static void check(const struct skip_plan *s)
{
	uint64_t sum = 0, end = 0;
	size_t i;

	if (s->n > SKIP_MAX_AREAS || (s->n && !s->v))
		__builtin_trap();
	for (i = 0; i < s->n; i++) {
		const struct cdt_skip *k = &s->v[i];

		if (!k->blocks || k->start < end || k->why > CDT_SKIP_PROTECTED)
			__builtin_trap();
		end = k->start + k->blocks;
		sum += k->blocks;
		if (skip_at(s, k->start) != k || skip_at(s, end - 1) != k)
			__builtin_trap();
	}
	if (s->n && sum != s->blocks)
		__builtin_trap();
}

static void round_trip(const struct skip_plan *s)
{
	size_t cap = skip_text_len(s) + 3;
	struct skip_plan again;
	char *text = malloc(cap);
	size_t i;

	if (!text)
		return;
	memcpy(text, "# ", 2);
	skip_format(s, text + 2, cap - 2);
	if (skip_parse(text, strlen(text), &again) || again.n != s->n)
		__builtin_trap();
	for (i = 0; i < s->n; i++)
		if (again.v[i].start != s->v[i].start || again.v[i].blocks != s->v[i].blocks ||
		    again.v[i].why != s->v[i].why)
			__builtin_trap();
	skip_free(&again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct skip_plan s;
	int rc = skip_parse((const char *)data, size, &s);

	if (rc) {
		if ((rc != CDT_EFORMAT && rc != CDT_ENOMEM) || s.v || s.n)
			__builtin_trap();
		return 0;
	}
	check(&s);
	round_trip(&s);
	skip_free(&s);
	return 0;
}
