// SPDX-License-Identifier: MIT
/*
 * What image, tail and verify do not read (skip.h).  Reading an audio
 * block or a gap with READ(10) costs a failing read each (seconds on a
 * real drive, ~34,000 of them for one CD-Extra gap) and proves nothing:
 * the structure already says they hold no user data (doc/disc-kinds.md).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/device.h"
#include "book/skip.h"

void skip_free(struct skip_plan *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static void plan_add(struct skip_plan *s, size_t cap, uint64_t start, uint64_t blocks,
		     enum cdt_skip_why why)
{
	if (!blocks || s->n >= cap)
		return;
	s->v[s->n++] = (struct cdt_skip){ start, blocks, why };
	s->blocks += blocks;
}

/*
 * The unwritten space of a formatted medium: from the filesystem's end,
 * which the probe compared with the formatted size (CDT_NOTE_FORMATTED).
 */
static uint64_t unwritten_from(const struct cdt_probe_result *p, uint64_t extent)
{
	int64_t fs = p->sizes.filesystem;

	if (!(p->notes & CDT_NOTE_FORMATTED) || fs <= 0 || (uint64_t)fs >= extent)
		return extent;
	return (uint64_t)fs;
}

int skip_plan_make(const struct cdt_layout *l, const struct cdt_probe_result *p,
		   enum cdt_formatted_policy policy, uint64_t *extent,
		   struct skip_plan *out)
{
	uint64_t fs_end = unwritten_from(p, *extent);
	size_t i, cap = (l ? l->n_skip : 0) + 1;

	memset(out, 0, sizeof(*out));
	if (policy == CDT_FORMATTED_CUT)
		*extent = fs_end;
	out->v = calloc(cap, sizeof(*out->v));
	if (!out->v)
		return CDT_ENOMEM;
	for (i = 0; l && i < l->n_skip; i++) {
		const struct cdt_skip *k = &l->skip[i];
		uint64_t end = k->start + k->blocks;

		if (end > fs_end && policy != CDT_FORMATTED_READ)
			end = fs_end;
		if (end > *extent)
			end = *extent;
		if (k->start < end)
			plan_add(out, cap, k->start, end - k->start, k->why);
	}
	if (policy == CDT_FORMATTED_SKIP && fs_end < *extent)
		plan_add(out, cap, fs_end, *extent - fs_end, CDT_SKIP_UNWRITTEN);
	return 0;
}

const struct cdt_skip *skip_at(const struct skip_plan *s, uint64_t lba)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct cdt_skip *k = &s->v[mid];

		if (lba < k->start)
			hi = mid;
		else if (lba - k->start >= k->blocks)
			lo = mid + 1;
		else
			return k;
	}
	return NULL;
}

/* The index of the first area that starts past lba. */
static size_t first_after(const struct skip_plan *s, uint64_t lba)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].start <= lba)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Join lba to an area of the same why that it touches: true if it did. */
static bool join_block(struct skip_plan *s, size_t i, uint64_t lba,
		       enum cdt_skip_why why)
{
	struct cdt_skip *prev = i ? &s->v[i - 1] : NULL;
	struct cdt_skip *next = i < s->n ? &s->v[i] : NULL;
	bool to_next = next && next->why == why && next->start == lba + 1;

	if (prev && prev->why == why && prev->start + prev->blocks == lba) {
		prev->blocks++;
		if (to_next) {
			prev->blocks += next->blocks;
			memmove(next, next + 1, (s->n - i - 1) * sizeof(*next));
			s->n--;
		}
		return true;
	}
	if (to_next) {
		next->start--;
		next->blocks++;
	}
	return to_next;
}

int skip_add(struct skip_plan *s, uint64_t lba, enum cdt_skip_why why)
{
	size_t i = first_after(s, lba);
	struct cdt_skip *v;

	if (skip_at(s, lba))
		return CDT_EFORMAT;
	if (!join_block(s, i, lba, why)) {
		if (s->n >= SKIP_MAX_AREAS)
			return CDT_EFORMAT;
		v = realloc(s->v, (s->n + 1) * sizeof(*v));
		if (!v)
			return CDT_ENOMEM;
		s->v = v;
		memmove(v + i + 1, v + i, (s->n - i) * sizeof(*v));
		v[i] = (struct cdt_skip){ lba, 1, why };
		s->n++;
	}
	s->blocks++;
	return 0;
}

uint64_t skip_next(const struct skip_plan *s, uint64_t lba)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].start + s->v[i].blocks > lba)
			return s->v[i].start > lba ? s->v[i].start : lba;
	return UINT64_MAX;
}

uint64_t skip_step(const struct skip_plan *s, uint64_t lba, uint64_t end,
		   uint32_t chunk, bool *skipped)
{
	const struct cdt_skip *k = skip_at(s, lba);
	uint64_t n;

	*skipped = k != NULL;
	if (k)
		return k->start + k->blocks - lba;
	n = skip_next(s, lba);
	n = (n < end ? n : end) - lba;
	return n < chunk ? n : chunk;
}

int skip_mark(const struct skip_plan *s, struct cdt_map *m, uint32_t bs)
{
	size_t i;
	int rc;

	for (i = 0; i < s->n; i++) {
		rc = map_set(m, s->v[i].start * bs, s->v[i].blocks * bs, MAP_FINISHED);
		if (rc)
			return rc;
	}
	return 0;
}

static const char skip_head[] = SKIP_TAG " (not data, never read, zeros in OUT; LBA+blocks):";

/* an entry: two 20-digit numbers, '+', ' ', a name, ", " */
#define SKIP_ENTRY_MAX (20 + 1 + 20 + 1 + 12 + 2)

size_t skip_text_len(const struct skip_plan *s)
{
	return s->n ? sizeof(skip_head) + s->n * SKIP_ENTRY_MAX : 0;
}

void skip_format(const struct skip_plan *s, char *out, size_t cap)
{
	size_t i, used;

	if (!cap)
		return;
	out[0] = '\0';
	if (!s->n)
		return;
	used = (size_t)snprintf(out, cap, "%s", skip_head);
	for (i = 0; i < s->n && used < cap; i++)
		used += (size_t)snprintf(out + used, cap - used, "%s %llu+%llu %s",
					 i ? "," : "",
					 (unsigned long long)s->v[i].start,
					 (unsigned long long)s->v[i].blocks,
					 cdt_skip_why_name(s->v[i].why));
}

/* ---- parsing ------------------------------------------------------------ */

struct cursor {
	const char *p, *end;
};

static void skip_spaces(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* A decimal number below 2^62 (an LBA times any block size stays in 64 bits). */
static bool take_number(struct cursor *c, uint64_t *v)
{
	const char *start = c->p;

	*v = 0;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		if (*v >= (1ull << 62) / 10)
			return false;
		*v = *v * 10 + (uint64_t)(*c->p - '0');
		c->p++;
	}
	return c->p > start;
}

static bool take_why(struct cursor *c, enum cdt_skip_why *why)
{
	enum cdt_skip_why w;

	for (w = CDT_SKIP_AUDIO; w <= CDT_SKIP_PROTECTED; w++) {
		const char *name = cdt_skip_why_name(w);
		size_t n = strlen(name);

		if ((size_t)(c->end - c->p) >= n && !memcmp(c->p, name, n) &&
		    (c->p + n == c->end || c->p[n] == ',' || c->p[n] == ' ' ||
		     c->p[n] == '\r')) {
			c->p += n;
			*why = w;
			return true;
		}
	}
	return false;
}

/* One "LBA+BLOCKS WHY" after what was already taken; false if damaged. */
static bool take_entry(struct cursor *c, struct skip_plan *s, size_t cap)
{
	uint64_t start, blocks;
	enum cdt_skip_why why;

	skip_spaces(c);
	if (!take_number(c, &start) || c->p >= c->end || *c->p++ != '+' ||
	    !take_number(c, &blocks) || !blocks)
		return false;
	skip_spaces(c);
	if (!take_why(c, &why) || s->n >= cap)
		return false;
	if (s->n && start < s->v[s->n - 1].start + s->v[s->n - 1].blocks)
		return false;	/* ascending and apart, as cdtail writes them */
	plan_add(s, cap, start, blocks, why);
	return true;
}

/*
 * The entries after the colon, counted by their '+' before anything is
 * allocated: the array is sized from what the line holds, never from its
 * length (a 64 MB line would otherwise ask for ~256 MB).  SIZE_MAX when
 * there are more than SKIP_MAX_AREAS.
 */
static size_t count_entries(const char *p, const char *end)
{
	size_t n = 0;

	for (; p < end; p++)
		if (*p == '+' && ++n > SKIP_MAX_AREAS)
			return SIZE_MAX;
	return n;
}

/* What follows the line's first ':' (the words before it vary). */
static int parse_line(const char *line, size_t len, struct skip_plan *out)
{
	const char *colon = memchr(line, ':', len);
	struct cursor c = { colon ? colon + 1 : line + len, line + len };
	size_t cap;

	if (!colon)
		return CDT_EFORMAT;
	cap = count_entries(c.p, c.end);
	if (cap == SIZE_MAX)
		return CDT_EFORMAT;
	cap++;			/* never calloc(0) */

	out->v = calloc(cap, sizeof(*out->v));
	if (!out->v)
		return CDT_ENOMEM;
	while (c.p < c.end && *c.p != '\r') {
		if (!take_entry(&c, out, cap))
			goto damaged;
		skip_spaces(&c);
		if (c.p < c.end && *c.p == ',')
			c.p++;
		else if (c.p < c.end && *c.p != '\r')
			goto damaged;
	}
	return 0;
damaged:
	skip_free(out);
	return CDT_EFORMAT;
}

int skip_parse(const char *text, size_t len, struct skip_plan *out)
{
	size_t off = 0;

	memset(out, 0, sizeof(*out));
	while (off < len) {
		const char *line = text + off;
		const char *nl = memchr(line, '\n', len - off);
		size_t llen = nl ? (size_t)(nl - line) : len - off;

		off += llen + (nl ? 1 : 0);
		if (llen < 2 || line[0] != '#' || line[1] != ' ')
			continue;
		line += 2;
		llen -= 2;
		if (llen >= sizeof(SKIP_TAG) - 1 &&
		    !memcmp(line, SKIP_TAG, sizeof(SKIP_TAG) - 1))
			return parse_line(line, llen, out);
	}
	return 0;
}

int skip_copy_range(const struct skip_plan *s, uint64_t from, uint64_t to,
		    struct cdt_skip **v, size_t *n, uint64_t *blocks)
{
	size_t i;

	*v = NULL;
	*n = 0;
	*blocks = 0;
	if (!s->n || from >= to)
		return 0;
	*v = malloc(s->n * sizeof(**v));
	if (!*v)
		return CDT_ENOMEM;
	for (i = 0; i < s->n; i++) {
		const struct cdt_skip *k = &s->v[i];
		uint64_t a = k->start > from ? k->start : from;
		uint64_t b = k->start + k->blocks < to ? k->start + k->blocks : to;

		if (a >= b)
			continue;
		(*v)[(*n)++] = (struct cdt_skip){ a, b - a, k->why };
		*blocks += b - a;
	}
	if (!*n) {
		free(*v);
		*v = NULL;
	}
	return 0;
}

int skip_copy(const struct skip_plan *s, struct cdt_skip **v, size_t *n,
	      uint64_t *blocks)
{
	return skip_copy_range(s, 0, UINT64_MAX, v, n, blocks);
}

uint64_t skip_blocks_in(const struct skip_plan *s, uint64_t from, uint64_t to)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < s->n && from < to; i++) {
		const struct cdt_skip *k = &s->v[i];
		uint64_t a = k->start > from ? k->start : from;
		uint64_t b = k->start + k->blocks < to ? k->start + k->blocks : to;

		if (a < b)
			sum += b - a;
	}
	return sum;
}

/*
 * Walk down from end over data runs and skipped areas alike until count
 * data blocks lie in [start, end): the areas are few (a disc has at most
 * 99 tracks and their gaps), so one pass over them from the top is enough.
 */
uint64_t skip_window_start(const struct skip_plan *s, uint64_t end, uint64_t count)
{
	size_t i = s->n;
	uint64_t lba = end;

	while (count && lba) {
		const struct cdt_skip *k = NULL;
		uint64_t floor, run;

		while (i && s->v[i - 1].start >= lba)
			i--;
		if (i)
			k = &s->v[i - 1];
		if (k && k->start + k->blocks >= lba) {
			lba = k->start;		/* lba - 1 is skipped */
			continue;
		}
		floor = k ? k->start + k->blocks : 0;
		run = lba - floor < count ? lba - floor : count;
		lba -= run;
		count -= run;
	}
	return lba;
}

void skip_result_free(struct cdt_skip **v, size_t *n, uint64_t *blocks)
{
	free(*v);
	*v = NULL;
	*n = 0;
	*blocks = 0;
}
