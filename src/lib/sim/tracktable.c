// SPDX-License-Identifier: MIT
/*
 * The emulated disc as a table of sessions and tracks (issue 12):
 * layout=S[/S...] with tracks "data:BLOCKS" or "audio:BLOCKS" joined by
 * '+', the gaps between sessions (cdrkit README.multi, libburn
 * doc/cookbook.txt: 11400 blocks after the first session, 6900 after
 * later ones), and the keys that say what kind of medium it is.
 * Without layout= the table is one session holding one data track of N
 * blocks, which is what the drive always was.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdtail.h"
#include "sim/drive.h"

/* Most tracks a CD can number (1..99); DVD and BD use the same bound here. */
#define SIM_MAX_TRACKS 99u

static int parse_dec(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned int d;

		if (s[i] < '0' || s[i] > '9')
			return -1;
		d = (unsigned int)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int parse_hex2(const char *s, size_t len, uint8_t *out)
{
	unsigned int v = 0;
	size_t i;

	if (len == 0 || len > 2)
		return -1;
	for (i = 0; i < len; i++) {
		char ch = s[i];

		v <<= 4;
		if (ch >= '0' && ch <= '9')
			v |= (unsigned int)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			v |= (unsigned int)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			v |= (unsigned int)(ch - 'A' + 10);
		else
			return -1;
	}
	*out = (uint8_t)v;
	return 0;
}

/* Only the syntax here; the table is built once N is known. */
int sim_key_layout(struct sim_config *c, const char *v)
{
	if (!*v)
		return CDT_EUSAGE;
	c->layout = strdup(v);
	return c->layout ? 0 : CDT_ENOMEM;
}

int sim_key_gap(struct sim_config *c, const char *v)
{
	const char *s1, *s2;

	if (!strcmp(v, "hang")) {
		c->gap = SIM_GAP_HANG;
		return 0;
	}
	if (!strcmp(v, "zero")) {
		c->gap = SIM_GAP_ZERO;
		return 0;
	}
	s1 = strchr(v, '/');
	s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	if (!s2 || parse_hex2(v, (size_t)(s1 - v), &c->gap_key) ||
	    parse_hex2(s1 + 1, (size_t)(s2 - s1 - 1), &c->gap_asc) ||
	    parse_hex2(s2 + 1, strlen(s2 + 1), &c->gap_ascq))
		return CDT_EUSAGE;
	/* a sense key is 4 bits, and key 0 would be no error at all */
	if (c->gap_key == 0 || c->gap_key > 0x0f)
		return CDT_EUSAGE;
	c->gap = SIM_GAP_SENSE;
	return 0;
}

static const struct {
	const char *name;
	uint16_t code;		/* MMC-6 table 91, profile list */
} profiles[] = {
	{ "cd-rom", 0x0008 }, { "cd-r", 0x0009 }, { "cd-rw", 0x000a },
	{ "dvd-rom", 0x0010 }, { "dvd-r", 0x0011 }, { "dvd-ram", 0x0012 },
	{ "dvd+rw", 0x001a }, { "bd-rom", 0x0040 }, { "bd-re", 0x0043 },
	{ "dvd+r", 0x001b }, { "bd-r", 0x0041 },
};

int sim_key_profile(struct sim_config *c, const char *v)
{
	size_t i;

	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		if (!strcmp(v, profiles[i].name)) {
			c->profile = profiles[i].code;
			return 0;
		}
	}
	return CDT_EUSAGE;
}

int sim_key_formatted(struct sim_config *c, const char *v)
{
	if (parse_dec(v, strlen(v), &c->formatted) || c->formatted == 0)
		return CDT_EUSAGE;
	return 0;
}

uint16_t sim_profile(const struct sim *s)
{
	uint64_t bytes = s->n_blocks * s->cfg.block_size;

	if (s->cfg.profile)
		return s->cfg.profile;
	/* an appendable disc is a recordable one: CD-R, or DVD-R above a CD */
	if (s->cfg.open)
		return bytes <= SIM_CD_MAX_BYTES ? 0x0009 : 0x0011;
	return bytes <= SIM_CD_MAX_BYTES ? 0x0008 : 0x0010;
}

bool sim_profile_is_cd(uint16_t profile)
{
	return profile >= 0x0008 && profile <= 0x000a;
}

static bool profile_rewritable_formatted(uint16_t p)
{
	return p == 0x0012 || p == 0x001a || p == 0x0043;
}

static bool profile_recordable(uint16_t p)
{
	/* CD-R, CD-RW, DVD-R sequential, DVD+R, BD-R SRM */
	return p == 0x0009 || p == 0x000a || p == 0x0011 || p == 0x001b || p == 0x0041;
}

/*
 * One "data:B" or "audio:B" of len bytes at p into t, with "~P" after B a
 * pregap (index 00) of P blocks before the track's index 01.
 */
static int parse_track(const char *p, size_t len, struct sim_track *t)
{
	const char *colon = memchr(p, ':', len);
	const char *tilde = memchr(p, '~', len);
	size_t kind;

	if (!colon)
		return -1;
	t->pregap = 0;
	if (tilde) {
		if (tilde < colon ||
		    parse_dec(tilde + 1, len - (size_t)(tilde + 1 - p), &t->pregap) ||
		    t->pregap == 0)
			return -1;
		len = (size_t)(tilde - p);
	}
	kind = (size_t)(colon - p);
	if (kind == 4 && !memcmp(p, "data", 4))
		t->audio = false;
	else if (kind == 5 && !memcmp(p, "audio", 5))
		t->audio = true;
	else
		return -1;
	if (parse_dec(colon + 1, len - kind - 1, &t->blocks) || t->blocks == 0)
		return -1;
	return 0;
}

static int layout_error(char *err, size_t errlen, const char *spec,
			const char *why)
{
	snprintf(err, errlen, "sim: bad value '%s' for key 'layout' (%s)", spec,
		 why);
	return CDT_EUSAGE;
}

/* Tracks of layout= into s->tracks, their LBAs given out from 0. */
static int parse_table(struct sim *s, const char *spec, uint64_t *end,
		       char *err, size_t errlen)
{
	const char *p = spec;
	uint32_t session = 1;
	uint64_t lba = 0;

	for (;;) {
		size_t len = strcspn(p, "+/");
		struct sim_track *t;

		if (s->n_tracks == SIM_MAX_TRACKS)
			return layout_error(err, errlen, spec, "more than 99 tracks");
		t = &s->tracks[s->n_tracks];
		if (parse_track(p, len, t))
			return layout_error(err, errlen, spec,
					    "want sessions of data:BLOCKS or audio:BLOCKS "
					    "tracks, each with an optional ~PREGAP, joined "
					    "by '+', sessions by '/'");
		t->number = ++s->n_tracks;
		t->session = session;
		if (t->pregap > UINT64_MAX - lba - SIM_GAP_FIRST ||
		    t->blocks > UINT64_MAX - lba - t->pregap - SIM_GAP_FIRST)
			return layout_error(err, errlen, spec, "too large");
		/* the pregap counts in the total; the TOC gives index 01 */
		t->start = lba + t->pregap;
		lba = t->start + t->blocks;
		if (!p[len])
			break;
		if (p[len] == '/')
			lba += sim_gap_after(session++);
		p += len + 1;
	}
	s->n_sessions = session;
	*end = lba;
	return 0;
}

/* formatted=M: a rewritable DVD or BD of one data track that reads to M */
static int check_formatted(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;

	if (!c->formatted)
		return 0;
	if (!profile_rewritable_formatted(sim_profile(s))) {
		snprintf(err, errlen, "sim: formatted= needs profile=dvd+rw, "
			 "dvd-ram or bd-re");
		return CDT_EUSAGE;
	}
	if (c->formatted < s->n_blocks) {
		snprintf(err, errlen, "sim: formatted=%" PRIu64 " is less than the %"
			 PRIu64 " blocks in the image", c->formatted, s->n_blocks);
		return CDT_EUSAGE;
	}
	/* a run-out ends a TAO CD track; a formatted medium reads to its end */
	if (c->runout) {
		snprintf(err, errlen, "sim: runout= and formatted= do not go together: "
			 "a formatted medium reads to its formatted size");
		return CDT_EUSAGE;
	}
	if (c->open || s->n_tracks > 1 || c->extra || c->hide) {
		snprintf(err, errlen, "sim: formatted= is one data track: no layout "
			 "of several tracks, open=, hide= or extra= with it");
		return CDT_EUSAGE;
	}
	return 0;
}

static int check_kind(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	uint16_t p = sim_profile(s);
	uint32_t i;
	int rc = check_formatted(s, err, errlen);

	if (rc)
		return rc;
	/*
	 * Only a disc written session by session can be left open: the
	 * read-only profiles hold none, and DVD+RW, DVD-RAM and BD-RE are
	 * written in place, never appended to: no open session on them.
	 */
	if (c->open && !profile_recordable(p)) {
		snprintf(err, errlen, "sim: open=1 needs a recordable profile "
			 "(cd-r, cd-rw, dvd-r, dvd+r or bd-r)");
		return CDT_EUSAGE;
	}
	if (c->opencap && !c->open) {
		snprintf(err, errlen, "sim: opencap= needs open=1 (an appendable disc)");
		return CDT_EUSAGE;
	}
	for (i = 0; i < s->n_tracks; i++) {
		if (s->tracks[i].audio && !sim_profile_is_cd(p)) {
			snprintf(err, errlen, "sim: audio tracks need a CD profile "
				 "(cd-rom, cd-r or cd-rw)");
			return CDT_EUSAGE;
		}
	}
	return 0;
}

int sim_layout_build(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	const struct sim_track *last;
	uint64_t end = s->n_blocks;
	int rc;

	s->tracks = calloc(SIM_MAX_TRACKS, sizeof(*s->tracks));
	if (!s->tracks) {
		snprintf(err, errlen, "sim: out of memory");
		return CDT_ENOMEM;
	}
	s->catalog[0] = '\0';
	if (s->cue) {
		sim_cue_tracks(s);
	} else if (!c->layout) {
		s->tracks[0] = (struct sim_track){ .number = 1, .session = 1, .blocks = s->n_blocks };
		s->n_tracks = 1;
		s->n_sessions = 1;
	} else {
		rc = parse_table(s, c->layout, &end, err, errlen);
		if (rc)
			return rc;
	}
	if (end != s->n_blocks) {
		snprintf(err, errlen, "sim: layout=%s accounts for %" PRIu64
			 " blocks (tracks and gaps), but the image holds %" PRIu64,
			 c->layout, end, s->n_blocks);
		return CDT_EUSAGE;
	}
	last = &s->tracks[s->n_tracks - 1];
	/* hide= and runout= act on the last track: they must stay inside it */
	if (c->layout && (c->hide >= last->blocks || c->runout > last->blocks)) {
		snprintf(err, errlen, "sim: hide= and runout= apply to the last track, "
			 "whose %" PRIu64 " blocks they must leave", last->blocks);
		return CDT_EUSAGE;
	}
	return check_kind(s, err, errlen);
}

const struct sim_track *sim_track_at(const struct sim *s, uint64_t lba)
{
	uint32_t i;

	for (i = 0; i < s->n_tracks; i++) {
		const struct sim_track *t = &s->tracks[i];

		if (lba + t->pregap >= t->start && lba < t->start + t->blocks)
			return t;
	}
	return NULL;
}

bool sim_in_gap(const struct sim *s, uint64_t lba)
{
	return lba < s->n_blocks && !sim_track_at(s, lba);
}

const struct sim_track *sim_session_first(const struct sim *s, uint32_t sn)
{
	uint32_t i;

	for (i = 0; i < s->n_tracks; i++)
		if (s->tracks[i].session == sn)
			return &s->tracks[i];
	return NULL;
}

const struct sim_track *sim_session_last(const struct sim *s, uint32_t sn)
{
	const struct sim_track *t = NULL;
	uint32_t i;

	for (i = 0; i < s->n_tracks; i++)
		if (s->tracks[i].session == sn)
			t = &s->tracks[i];
	return t;
}

uint64_t sim_track_blocks(const struct sim *s, const struct sim_track *t)
{
	if (t->number != s->n_tracks)
		return t->blocks;
	/* the last track ends where READ CAPACITY says the disc does */
	return s->n_reported > t->start ? s->n_reported - t->start : 0;
}
