// SPDX-License-Identifier: MIT
/*
 * The one-FILE sheet of --single-file: see jobs/rawsingle.h.  Debian's
 * bchunk and cuetools read one FILE only; an INDEX time there counts
 * from the start of the FILE, so each track's times move by where its
 * part of OUT.bin starts (75 frames a second, 60 seconds a minute: the
 * CUE sheet's MM:SS:FF).  Below the text, what the job (rawjob.h) asks
 * of --single-file: where each track's bytes lie in OUT.bin, the sheet,
 * the names of OUT.hash's lines.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cd/sector.h"
#include "jobs/rawjob.h"
#include "jobs/rawsingle.h"

#define FRAMES_A_SECOND 75

/* snprintf that appends at *used and never writes past cap */
#define PUT(...) (*used += (size_t)snprintf(out + (*used < cap ? *used : cap), \
					   *used < cap ? cap - *used : 0, __VA_ARGS__))

/* "INDEX nn MM:SS:FF" after the indent: its number and frames, or false. */
static bool parse_index(const char *s, size_t len, unsigned int *nn, uint64_t *frames)
{
	unsigned int n, m, sec, f;
	char line[18], tail;

	/* the line alone: the sheet's next line follows it in s */
	if (len != 17)
		return false;
	memcpy(line, s, len);
	line[len] = '\0';
	if (strncmp(line, "INDEX ", 6) ||
	    sscanf(line, "INDEX %2u %2u:%2u:%2u%c", &n, &m, &sec, &f, &tail) != 4 ||
	    line[8] != ' ' || line[11] != ':' || line[14] != ':' || sec >= 60 ||
	    f >= FRAMES_A_SECOND)
		return false;
	*nn = n;
	*frames = ((uint64_t)m * 60 + sec) * FRAMES_A_SECOND + f;
	return true;
}

/* One line of len bytes (no newline) of the multi-file sheet. */
static void put_line(char *out, size_t cap, size_t *used, const char *line, size_t len,
		     const struct raw_plan *p, long *file, const char *bin_name)
{
	size_t indent = strspn(line, " ");
	unsigned int nn;
	uint64_t f;

	if (len >= 6 && !strncmp(line, "FILE \"", 6)) {
		if (++*file == 0)
			PUT("FILE \"%s\" BINARY\n", bin_name);
		return;
	}
	if (*file >= 0 && (size_t)*file < p->n &&
	    parse_index(line + indent, len - indent, &nn, &f)) {
		f += p->f[*file].stream;
		PUT("%.*sINDEX %02u %02" PRIu64 ":%02" PRIu64 ":%02" PRIu64 "\n", (int)indent, line,
		    nn, f / (60 * FRAMES_A_SECOND), f / FRAMES_A_SECOND % 60, f % FRAMES_A_SECOND);
		return;
	}
	PUT("%.*s\n", (int)len, line);
}

size_t raw_sheet_single(char *out, size_t cap, const char *multi,
			const struct raw_plan *p, const char *bin_name)
{
	size_t n = 0, *used = &n;
	long file = -1;

	if (cap)
		out[0] = '\0';
	while (*multi) {
		const char *nl = strchr(multi, '\n');
		size_t len = nl ? (size_t)(nl - multi) : strlen(multi);

		put_line(out, cap, used, multi, len, p, &file, bin_name);
		multi += len + (nl ? 1 : 0);
	}
	return n;
}

/* ---- the job's side (rawjob.h) ------------------------------------------- */

uint64_t raw_file_base(const struct raw_job *j, size_t i)
{
	return j->opts->single_file ? j->plan.f[i].stream * CD_RAW : 0;
}

size_t raw_single_sheet(const struct raw_job *j, char **text, size_t cap)
{
	char *one = malloc(cap);
	const char *slash = strrchr(j->paths[0], '/');
	size_t len;

	if (!one)
		return cap;
	len = raw_sheet_single(one, cap, *text, &j->plan, slash ? slash + 1 : j->paths[0]);
	free(*text);
	*text = one;
	return len;
}

/*
 * Track i's line: its file's name; with --single-file the name its file
 * has in a multi-file image (redump.org's), its bytes a range of OUT.bin,
 * so the lines are the same as a multi-file run's.
 */
void raw_rom_name(const struct raw_job *j, size_t i, const char *base,
		  char *out, size_t cap)
{
	const char *slash = strrchr(j->paths[i], '/');

	if (!j->opts->single_file) {
		snprintf(out, cap, "%s", slash ? slash + 1 : j->paths[i]);
		return;
	}
	slash = strrchr(base, '/');
	raw_bin_name(out, cap, slash ? slash + 1 : base, j->plan.f[i].t->number, j->plan.n);
}
