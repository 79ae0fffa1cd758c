// SPDX-License-Identifier: MIT
/*
 * "Did you mean": the known name nearest a mistyped one, for the messages
 * of the emulated drive's keys and the CLI's commands.  Optimal string
 * alignment distance (Levenshtein with a swap of two neighbours as one
 * edit): the typos people make are a letter missed, doubled, wrong or two
 * letters swapped.
 */
#include <string.h>
#include "cdtail-tools.h"

/* names longer than this are never typos of anything cdtail knows */
#define NAME_MAX_LEN 32

static unsigned int min3(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int m = a < b ? a : b;

	return m < c ? m : c;
}

/* Three rows of the table: the one before the last is needed for a swap. */
static unsigned int distance(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned int rows[3][NAME_MAX_LEN + 1];
	unsigned int *two = rows[0], *prev = rows[1], *cur = rows[2], *t;
	size_t i, j;

	for (j = 0; j <= lb; j++)
		prev[j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		cur[0] = (unsigned int)i;
		for (j = 1; j <= lb; j++) {
			unsigned int cost = a[i - 1] != b[j - 1];

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    two[j - 2] + 1 < cur[j])
				cur[j] = two[j - 2] + 1;
		}
		t = two;
		two = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

const char *cdt_nearest_name(const char *word, const char *const *names, size_t n)
{
	size_t lw = word ? strnlen(word, NAME_MAX_LEN + 1) : 0, i;
	unsigned int best = ~0u, limit = lw <= 4 ? 1 : 2;
	const char *found = NULL;

	if (!lw || lw > NAME_MAX_LEN || !names)
		return NULL;
	for (i = 0; i < n; i++) {
		size_t ln = names[i] ? strnlen(names[i], NAME_MAX_LEN + 1) : 0;
		unsigned int d;

		if (!ln || ln > NAME_MAX_LEN)
			continue;
		d = distance(word, lw, names[i], ln);
		if (d < best) {
			best = d;
			found = names[i];
		}
	}
	return best <= limit ? found : NULL;
}
