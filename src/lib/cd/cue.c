// SPDX-License-Identifier: MIT
/*
 * The CUE sheet reader: see cd/cue.h.  Line by line, each
 * line split into at most a few words; a quoted word may hold blanks.
 * Nothing here trusts the sheet: track numbers must rise by one, index
 * times must rise within a file, every track needs INDEX 01.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cd/cue.h"
#include "mmc/mmc.h"
#include "mmc/subchan.h"

#define CUE_STR_(x) #x
#define CUE_STR(x) CUE_STR_(x)
#define MAX_WORDS 6
#define MAX_LINE (CUE_LINE_MAX + 1)

struct cue_line {
	unsigned int n;
	char *w[MAX_WORDS];
};

static void cue_err(char *err, size_t errlen, unsigned int line, const char *why)
{
	snprintf(err, errlen, "cue line %u: %s", line, why);
}

/* Split buf (modified) into words; a "quoted" word keeps its blanks. */
static int split(char *buf, struct cue_line *l)
{
	char *p = buf;

	l->n = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return 0;
		if (l->n == MAX_WORDS)
			return 0;	/* the rest: comments, titles */
		if (*p == '"') {
			char *end = strchr(p + 1, '"');

			if (!end)
				return -1;
			*end = '\0';
			l->w[l->n++] = p + 1;
			p = end + 1;
			continue;
		}
		l->w[l->n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static int parse_num(const char *s, unsigned int max, unsigned int *out)
{
	unsigned int v = 0;

	if (!*s || strlen(s) > 6)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned int)(*s - '0');
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

/* mm:ss:ff into frames (mm may exceed 99: long files) */
static int parse_time(const char *s, int64_t *frames)
{
	char buf[16], *s1, *s2;
	unsigned int m, sec, f;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	s1 = strchr(buf, ':');
	s2 = s1 ? strchr(s1 + 1, ':') : NULL;
	if (!s2)
		return -1;
	*s1 = *s2 = '\0';
	if (parse_num(buf, 9999, &m) || parse_num(s1 + 1, 59, &sec) ||
	    parse_num(s2 + 1, 74, &f))
		return -1;
	*frames = ((int64_t)m * 60 + sec) * 75 + f;
	return 0;
}

static int parse_mode(const char *s, enum cue_mode *m)
{
	static const struct { const char *name; enum cue_mode mode; } modes[] = {
		{ "MODE1/2048", CUE_MODE1_2048 }, { "MODE1/2352", CUE_MODE1_2352 },
		{ "MODE2/2352", CUE_MODE2_2352 }, { "AUDIO", CUE_AUDIO },
	};
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcasecmp(s, modes[i].name)) {
			*m = modes[i].mode;
			return 0;
		}
	return -1;
}

unsigned int cue_sector_size(enum cue_mode mode)
{
	return mode == CUE_MODE1_2048 ? 2048 : 2352;
}

struct cue_state {
	struct cue_sheet *c;
	uint32_t session;
	int64_t last_time;	/* the last index time in the current file */
	unsigned int flags;	/* cue_parse's */
	bool outside;		/* the failure is a FILE outside the folder */
	char *err;
	size_t errlen;
	unsigned int line;
};

static struct cue_track *cur(struct cue_state *st)
{
	return st->c->n_tracks ? &st->c->tracks[st->c->n_tracks - 1] : NULL;
}

static int fail(struct cue_state *st, const char *why)
{
	cue_err(st->err, st->errlen, st->line, why);
	return -1;
}

static int do_file(struct cue_state *st, const struct cue_line *l)
{
	struct cue_sheet *c = st->c;

	if (l->n < 3 || strcasecmp(l->w[2], "BINARY"))
		return fail(st, "want FILE \"name\" BINARY (other file types are not read)");
	if (!*l->w[1])
		return fail(st, "FILE with an empty name");
	if (!(st->flags & CUE_ANY_PATH) && !cue_path_inside(l->w[1])) {
		st->outside = true;
		return fail(st, "FILE outside the sheet's folder (an absolute name, "
			    "or one with ..) is not followed");
	}
	if (c->n_files == CUE_MAX_FILES)
		return fail(st, "more than 99 files");
	if (cur(st) && cur(st)->file == c->n_files - 1 && cur(st)->index1 < 0)
		return fail(st, "a track without INDEX 01");
	c->files[c->n_files] = strdup(l->w[1]);
	if (!c->files[c->n_files])
		return fail(st, "out of memory");
	c->n_files++;
	st->last_time = -1;
	return 0;
}

static int do_track(struct cue_state *st, const struct cue_line *l)
{
	struct cue_sheet *c = st->c;
	struct cue_track *t, *prev = cur(st);
	unsigned int n;

	if (!c->n_files)
		return fail(st, "TRACK before any FILE");
	if (l->n < 3 || parse_num(l->w[1], 99, &n) || n == 0)
		return fail(st, "want TRACK nn MODE (nn 01..99)");
	if (prev && prev->index1 < 0)
		return fail(st, "a track without INDEX 01");
	if (prev && n != prev->number + 1)
		return fail(st, "track numbers must rise by one");
	if (c->n_tracks == CUE_MAX_TRACKS)
		return fail(st, "more than 99 tracks");
	t = &c->tracks[c->n_tracks];
	memset(t, 0, sizeof(*t));
	if (parse_mode(l->w[2], &t->mode))
		return fail(st, "want a track mode of MODE1/2048, MODE1/2352, MODE2/2352 or AUDIO");
	t->number = n;
	t->session = st->session;
	t->file = c->n_files - 1;
	t->index0 = t->index1 = -1;
	c->n_tracks++;
	return 0;
}

/* INDEX n (2..99) of track t at frame at: numbers rise within a track. */
static int add_mark(struct cue_state *st, struct cue_track *t, unsigned int n,
		    int64_t at)
{
	struct cue_sheet *c = st->c;

	if (t->n_marks && n <= c->marks[t->mark0 + t->n_marks - 1].number)
		return fail(st, "index numbers must rise within a track");
	if (c->n_marks == CUE_MAX_MARKS)
		return fail(st, "more than " CUE_STR(CUE_MAX_MARKS) " INDEX 02..99 lines");
	if (!t->n_marks)
		t->mark0 = (uint16_t)c->n_marks;
	c->marks[c->n_marks++] = (struct cue_mark){ (uint8_t)n, at };
	t->n_marks++;
	return 0;
}

static int do_index(struct cue_state *st, const struct cue_line *l)
{
	struct cue_track *t = cur(st);
	unsigned int n;
	int64_t at;

	if (!t)
		return fail(st, "INDEX before any TRACK");
	if (l->n < 3 || parse_num(l->w[1], 99, &n) || parse_time(l->w[2], &at))
		return fail(st, "want INDEX nn mm:ss:ff");
	if (t->file != st->c->n_files - 1)
		return fail(st, "a FILE between a TRACK and its INDEX lines");
	if (at <= st->last_time)
		return fail(st, "index times must rise within a file");
	if (n == 0 && (t->index0 >= 0 || t->index1 >= 0))
		return fail(st, "INDEX 00 after another index of its track");
	if (n == 1 && t->index1 >= 0)
		return fail(st, "INDEX 01 given twice");
	if (n >= 2 && t->index1 < 0)
		return fail(st, "INDEX 02 or above before INDEX 01");
	if (n == 0)
		t->index0 = at;
	else if (n == 1)
		t->index1 = at;
	else if (add_mark(st, t, n, at))
		return -1;
	st->last_time = at;
	return 0;
}

static int do_pregap(struct cue_state *st, const struct cue_line *l)
{
	struct cue_track *t = cur(st);
	int64_t f;

	if (!t || t->index0 >= 0 || t->index1 >= 0)
		return fail(st, "PREGAP belongs after TRACK, before its INDEX lines");
	if (l->n < 2 || parse_time(l->w[1], &f))
		return fail(st, "want PREGAP mm:ss:ff");
	t->pregap = (uint64_t)f;
	return 0;
}

static int do_rem(struct cue_state *st, const struct cue_line *l)
{
	unsigned int n;

	if (l->n < 2 || strcasecmp(l->w[1], "SESSION"))
		return 0;
	if (l->n < 3 || parse_num(l->w[2], 99, &n) || n == 0)
		return fail(st, "want REM SESSION nn");
	if (n != st->session && n != st->session + 1)
		return fail(st, "sessions must rise by one");
	if (n != st->session && cur(st) && cur(st)->index1 < 0)
		return fail(st, "a track without INDEX 01");
	if (n != st->session && !st->c->n_tracks)
		return fail(st, "REM SESSION 2 or above before any track");
	st->session = n;
	return 0;
}

static const struct {
	const char *word;
	uint8_t bit;
} flag_words[] = {
	{ "DCP", MMC_CONTROL_DCP }, { "4CH", MMC_CONTROL_4CH }, { "PRE", MMC_CONTROL_PRE },
};

int cue_flags_text(uint8_t control, char *buf, size_t len)
{
	size_t i;
	int n = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < sizeof(flag_words) / sizeof(flag_words[0]); i++)
		if (control & flag_words[i].bit)
			n += snprintf(buf + ((size_t)n < len ? (size_t)n : len),
				      (size_t)n < len ? len - (size_t)n : 0, "%s%s",
				      n ? " " : "", flag_words[i].word);
	return n;
}

/* FLAGS: the words it knows as the track's control bits; SCMS, DATA and others ignored. */
static int do_flags(struct cue_state *st, const struct cue_line *l)
{
	struct cue_track *t = cur(st);
	unsigned int w;
	size_t i;

	if (!t)
		return 0;	/* as before: a stray FLAGS line is read past */
	for (w = 1; w < l->n; w++)
		for (i = 0; i < sizeof(flag_words) / sizeof(flag_words[0]); i++)
			if (!strcasecmp(l->w[w], flag_words[i].word))
				t->flags |= flag_words[i].bit;
	return 0;
}

/*
 * CATALOG and ISRC: kept when well-formed, for the emulated drive's READ
 * SUB-CHANNEL; a malformed one is read past as before, not an error.
 */
static int do_catalog(struct cue_state *st, const struct cue_line *l)
{
	if (l->n >= 2 && mmc_mcn_valid(l->w[1], strlen(l->w[1])))
		strcpy(st->c->catalog, l->w[1]);
	return 0;
}

static int do_isrc(struct cue_state *st, const struct cue_line *l)
{
	struct cue_track *t = cur(st);

	if (t && l->n >= 2 && mmc_isrc_valid(l->w[1], strlen(l->w[1])))
		strcpy(t->isrc, l->w[1]);
	return 0;
}

/*
 * A CD-TEXT line (cue.h): the disc's before any TRACK, else the last
 * track's; an unquoted text's words joined by one blank (the first five:
 * split() keeps MAX_WORDS; CDRWIN quotes a text of several words), an
 * empty one read past (as before, when these lines were ignored).  A
 * later line for the same field stands.
 */
static int do_text(struct cue_state *st, const struct cue_line *l, unsigned int field)
{
	struct cue_track *t = cur(st);
	char **slot = &st->c->text[t ? t->number : 0][field];
	size_t len = 0, w;
	char *v;

	if (l->n < 2 || !*l->w[1])
		return 0;
	for (w = 1; w < l->n; w++)
		len += strlen(l->w[w]) + 1;
	v = malloc(len);
	if (!v)
		return fail(st, "out of memory");
	strcpy(v, l->w[1]);
	for (w = 2; w < l->n; w++) {
		strcat(v, " ");
		strcat(v, l->w[w]);
	}
	free(*slot);
	*slot = v;
	return 0;
}

static int text_field(const char *k)
{
	unsigned int f;

	for (f = 0; f < CUE_TEXT_FIELDS; f++)
		if (!strcasecmp(k, cd_text_field_name(f)))
			return (int)f;
	return -1;
}

static int do_line(struct cue_state *st, const struct cue_line *l)
{
	static const char *const ignored[] = {
		"POSTGAP", "CDTEXTFILE",
	};
	const char *k = l->w[0];
	size_t i;

	if (!strcasecmp(k, "FILE"))
		return do_file(st, l);
	if (!strcasecmp(k, "TRACK"))
		return do_track(st, l);
	if (!strcasecmp(k, "INDEX"))
		return do_index(st, l);
	if (!strcasecmp(k, "PREGAP"))
		return do_pregap(st, l);
	if (!strcasecmp(k, "REM"))
		return do_rem(st, l);
	if (!strcasecmp(k, "FLAGS"))
		return do_flags(st, l);
	if (!strcasecmp(k, "CATALOG"))
		return do_catalog(st, l);
	if (!strcasecmp(k, "ISRC"))
		return do_isrc(st, l);
	if (text_field(k) >= 0)
		return do_text(st, l, (unsigned int)text_field(k));
	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		if (!strcasecmp(k, ignored[i]))
			return 0;
	return fail(st, "unknown command");
}

/*
 * The next line of text into buf (CR, LF or both end it); its length, or
 * -1 at the end.  A line longer than buf takes sets *too_long.
 */
static long next_line(const char *text, size_t len, size_t *pos, char *buf,
		      bool *too_long)
{
	size_t n = 0;

	*too_long = false;
	if (*pos >= len)
		return -1;
	while (*pos < len && text[*pos] != '\n' && text[*pos] != '\r') {
		if (n < MAX_LINE - 1)
			buf[n++] = text[*pos] ? text[*pos] : ' ';
		else
			*too_long = true;
		(*pos)++;
	}
	if (*pos < len && text[*pos] == '\r')
		(*pos)++;
	if (*pos < len && text[*pos] == '\n')
		(*pos)++;
	buf[n] = '\0';
	return (long)n;
}

int cue_parse(const char *text, size_t len, unsigned int flags,
	      struct cue_sheet *out, char *err, size_t errlen)
{
	struct cue_state st = { out, 1, -1, flags, false, err, errlen, 0 };
	char buf[MAX_LINE];
	struct cue_line l;
	bool too_long;
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	/* a UTF-8 byte order mark, as some tools write */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3;
	while (next_line(text, len, &pos, buf, &too_long) >= 0) {
		st.line++;
		if (too_long) {
			fail(&st, "longer than " CUE_STR(CUE_LINE_MAX) " characters");
			goto bad;
		}
		if (split(buf, &l)) {
			fail(&st, "unclosed quote");
			goto bad;
		}
		if (l.n && do_line(&st, &l))
			goto bad;
	}
	if (!out->n_tracks) {
		cue_err(err, errlen, st.line, "no TRACK");
		goto bad;
	}
	if (cur(&st)->index1 < 0) {
		cue_err(err, errlen, st.line, "the last track has no INDEX 01");
		goto bad;
	}
	return 0;
bad:
	cue_free(out);
	return st.outside ? CUE_EOUTSIDE : -1;
}

bool cue_path_inside(const char *name)
{
	const char *p = name;

	if (name[0] == '/')
		return false;
	for (;;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		if (!p[n])
			return true;
		p += n + 1;
	}
}

void cue_free(struct cue_sheet *c)
{
	unsigned int i, f;

	for (i = 0; i < c->n_files; i++)
		free(c->files[i]);
	for (i = 0; i <= CUE_MAX_TRACKS; i++)
		for (f = 0; f < CUE_TEXT_FIELDS; f++) {
			free(c->text[i][f]);
			c->text[i][f] = NULL;
		}
	c->n_files = 0;
	c->n_tracks = 0;
	c->n_marks = 0;
}

int cue_file_path(const char *sheet_path, const char *name, char *buf, size_t len)
{
	const char *slash = strrchr(sheet_path, '/');
	int dir = slash ? (int)(slash - sheet_path) + 1 : 0;
	int n = name[0] == '/' ? snprintf(buf, len, "%s", name) :
				 snprintf(buf, len, "%.*s%s", dir, sheet_path, name);

	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int cue_stored_sectors(const struct cue_sheet *c, unsigned int i,
		       uint64_t file_bytes, uint64_t *n, const char **why,
		       unsigned int *track)
{
	const struct cue_track *t = &c->tracks[i];
	const struct cue_track *next = i + 1 < c->n_tracks ? t + 1 : NULL;
	unsigned int ss = cue_sector_size(t->mode);
	int64_t end;

	if (next && next->file == t->file) {
		if (cue_sector_size(next->mode) != ss) {
			*why = "tracks of one FILE must have one sector size";
			*track = next->number;
			return -1;
		}
		end = cue_extent_start(next);
	} else {
		end = (int64_t)(file_bytes / ss);
	}
	if (end <= t->index1) {
		*why = "its FILE ends before INDEX 01, or holds no sector of it";
		*track = t->number;
		return -1;
	}
	*n = (uint64_t)(end - cue_extent_start(t));
	return 0;
}
