// SPDX-License-Identifier: MIT
/*
 * The ddrescue mapfile reader.  An accepted map must hold the invariants
 * of mapfile.h (sorted contiguous runs from 0 covering size, known
 * statuses, no two adjacent runs alike), and writing it and parsing the
 * result must give the same map back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdtail.h"
#include "fuzz.h"
#include "book/mapfile.h"

static void check(const struct cdt_map *m)
{
	uint64_t pos = 0, total = 0, start, len;
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct map_run *r = &m->runs[i];

		if (r->pos != pos || !r->size || !strchr("?*/-+", r->status) ||
		    !r->status)
			__builtin_trap();
		if (i && r->status == m->runs[i - 1].status)
			__builtin_trap();
		if (r->size > UINT64_MAX - pos)
			__builtin_trap();
		pos += r->size;
		if (map_status_at(m, r->pos) != r->status)
			__builtin_trap();
	}
	if (pos != m->size)
		__builtin_trap();
	for (i = 0; i < 5; i++)
		total += map_count(m, "?*/-+"[i]);
	if (total != m->size)
		__builtin_trap();
	if (map_find(m, MAP_BAD, 0, &start, &len) && (!len || start + len > m->size))
		__builtin_trap();
	if (map_find_back(m, MAP_FINISHED, m->size, &start, &len) &&
	    (!len || start + len > m->size))
		__builtin_trap();
}

static void round_trip(const struct cdt_map *m)
{
	struct cdt_map again;
	char *text = NULL;
	size_t text_len = 0;
	char err[256];
	FILE *f;
	size_t i;

	f = open_memstream(&text, &text_len);
	if (!f)
		return;
	if (map_write(f, m, "fuzz") || fclose(f)) {
		free(text);
		return;
	}
	if (map_parse(text, text_len, &again, err, sizeof(err)))
		__builtin_trap();
	if (again.n != m->n || again.size != m->size ||
	    again.cur_pos != m->cur_pos || again.cur_status != m->cur_status)
		__builtin_trap();
	for (i = 0; i < m->n; i++)
		if (again.runs[i].pos != m->runs[i].pos ||
		    again.runs[i].size != m->runs[i].size ||
		    again.runs[i].status != m->runs[i].status)
			__builtin_trap();
	map_free(&again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cdt_map m;
	char err[256];
	int rc;

	err[0] = '\0';
	rc = map_parse((const char *)data, size, &m, err, sizeof(err));
	if (rc) {
		if (rc != CDT_EFORMAT && rc != CDT_ENOMEM)
			__builtin_trap();
		if (!err[0] || strchr(err, '\n'))
			__builtin_trap();
		return 0;
	}
	check(&m);
	round_trip(&m);
	map_free(&m);
	return 0;
}
