// SPDX-License-Identifier: MIT
/*
 * The disc a CUE sheet describes (sim:FILE.cue): its sectors from the
 * sheet's BINARY files, laid out on LBAs as a drive would see them, and
 * the raw answers: READ CD and READ CD MSF (main channel fields, C2
 * pointers, formatted Q and raw P-W), and what READ(10)/(12) get from a
 * sector that is not 2048 bytes of Mode 1 or Form 1 user data.
 *
 * Layout: track 1's INDEX 01 is LBA 0; its pregap lies before it,
 * 00:00:00-00:01:74 = LBA -150..-1, read by READ CD only (stored, or made
 * in track 1's mode as an unstored pregap is).  Each later track of a
 * session follows the one before; its pregap (PREGAP frames, not stored,
 * then INDEX 00..01, stored) comes first and its INDEX 01 is where the TOC
 * says it starts.  The first track of a later session starts 11400 blocks
 * after the first session's end, 6900 after a later one's (tracktable.c's
 * gaps), its pregap the last 150 blocks of that gap (what the sheet gives,
 * the rest made: issue 33).
 *
 * What real drives answer, and the sources: READ(10) of an audio or Form 2
 * sector 05/64/00 (MMC-5; cdemu; dvdisaster issue 62); a sector whose ECC
 * cannot correct it fails READ(10) with 03/11/00 while READ CD with C2
 * pointers returns its bytes and flags them (redumper and DiscImageCreator
 * read C2 this way); READ CD's expected sector type that does not match
 * 05/64/00 (MMC-3 READ CD).  MODE1/2048 tracks get sync, header, EDC and
 * ECC made (cd/sector.c); Q is made from the layout (cd/subq.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "cdtail.h"
#include "mmc/readcd.h"
#include "cd/sector.h"
#include "cd/subq.h"
#include "cd/cue.h"
#include "sim/drive.h"

#define CUE_MAX_BYTES (1u << 20)	/* a sheet is text: 1 MiB is plenty */
#define SIM_PREGAP_MAX 150u		/* a later session's pregap, in its gap */

struct sim_cue_track {
	enum cue_mode mode;
	int fd;
	unsigned int ssize;	/* bytes a sector in the file */
	int64_t index1;		/* LBA of INDEX 01 */
	int64_t first;		/* LBA where the pregap starts (= index1 without) */
	int64_t stored;		/* LBA of the first sector in the file */
	off_t offset;		/* its byte offset in the file */
	uint64_t n_stored;	/* sectors in the file from there */
	const struct cue_mark *marks;	/* its INDEX 02..99 (the sheet's) */
	unsigned int n_marks;
};

struct sim_cue {
	struct cue_sheet sheet;
	int fds[CUE_MAX_FILES];
	struct sim_cue_track t[CUE_MAX_TRACKS];
	unsigned int n;
	int sheet_fd;		/* kept open: OUT must not be the sheet either */
};

bool sim_is_cue_path(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && !strcasecmp(path + n - 4, ".cue");
}

static int read_text(const char *path, char **text, size_t *len, char *err,
		     size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	*text = NULL;
	if (fd < 0)
		goto fail;
	*text = malloc(CUE_MAX_BYTES);
	if (!*text) {
		close(fd);
		snprintf(err, errlen, "sim: out of memory");
		return CDT_ENOMEM;
	}
	*len = 0;
	while (*len < CUE_MAX_BYTES &&
	       (r = read(fd, *text + *len, CUE_MAX_BYTES - *len)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		*len += (size_t)r;
	}
	close(fd);
	return 0;
fail:
	snprintf(err, errlen, "sim: cannot open %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(*text);
	*text = NULL;
	return CDT_EOPEN;
}

/*
 * FILE names are relative to the sheet's folder (as every CUE reader takes
 * them); one outside it cue_parse refused unless cuepaths=any.
 */
static int open_files(struct sim_cue *c, const char *sheet, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < c->sheet.n_files; i++) {
		char path[4096];

		c->fds[i] = -1;
		if (!cue_file_path(sheet, c->sheet.files[i], path, sizeof(path)))
			c->fds[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (c->fds[i] < 0) {
			snprintf(err, errlen, "sim: %s: cannot open its FILE %s: %s",
				 sheet, path, strerror(errno));
			return CDT_EOPEN;
		}
	}
	return 0;
}

static int cue_error(char *err, size_t errlen, const char *sheet,
		     unsigned int track, const char *why)
{
	snprintf(err, errlen, "sim: %s: track %u: %s", sheet, track, why);
	return CDT_EUSAGE;
}

/* Sectors of track i in its file, from its extent's start (index 00 or 01). */
static int stored_sectors(const struct sim_cue *c, unsigned int i, uint64_t *n,
			  const char *sheet, char *err, size_t errlen)
{
	const struct cue_track *t = &c->sheet.tracks[i];
	off_t size = lseek(c->fds[t->file], 0, SEEK_END);
	const char *why;
	unsigned int track;

	if (size < 0)
		return cue_error(err, errlen, sheet, t->number, "its FILE cannot be sized");
	if (cue_stored_sectors(&c->sheet, i, (uint64_t)size, n, &why, &track))
		return cue_error(err, errlen, sheet, track, why);
	return 0;
}

/* LBAs of every track; *end is the disc's N. */
static int place_tracks(struct sim_cue *c, uint64_t *end, const char *sheet,
			char *err, size_t errlen)
{
	int64_t cursor = 0;
	unsigned int i;
	int rc;

	for (i = 0; i < c->sheet.n_tracks; i++) {
		const struct cue_track *t = &c->sheet.tracks[i];
		struct sim_cue_track *ct = &c->t[i];
		int64_t stored_pregap = t->index1 - cue_extent_start(t);
		int64_t pregap = stored_pregap + (int64_t)t->pregap;

		rc = stored_sectors(c, i, &ct->n_stored, sheet, err, errlen);
		if (rc)
			return rc;
		ct->mode = t->mode;
		ct->fd = c->fds[t->file];
		ct->ssize = cue_sector_size(t->mode);
		if (i == 0) {
			ct->index1 = 0;
		} else if (t->session != c->sheet.tracks[i - 1].session) {
			ct->index1 = cursor + (int64_t)sim_gap_after(t->session - 1);
			if (pregap > SIM_PREGAP_MAX)
				return cue_error(err, errlen, sheet, t->number,
						 "the first track of a later session has a pregap "
						 "of more than 150 blocks");
			/*
			 * a session's first track has its 2-second pregap at
			 * the end of the gap whatever the sheet says (Orange
			 * Book; CONTRACT's gaps): made as a PREGAP's blocks
			 */
			pregap = SIM_PREGAP_MAX;
		} else {
			ct->index1 = cursor + pregap;
		}
		ct->first = ct->index1 - pregap;
		ct->stored = ct->index1 - stored_pregap;
		ct->offset = (off_t)cue_extent_start(t) * ct->ssize;
		ct->marks = c->sheet.marks + t->mark0;
		ct->n_marks = t->n_marks;
		cursor = ct->stored + (int64_t)ct->n_stored;
	}
	c->n = c->sheet.n_tracks;
	*end = (uint64_t)cursor;
	return 0;
}

static void cue_close(struct sim_cue *c)
{
	unsigned int i;

	for (i = 0; i < c->sheet.n_files; i++)
		if (c->fds[i] >= 0)
			close(c->fds[i]);
	if (c->sheet_fd >= 0)
		close(c->sheet_fd);
	cue_free(&c->sheet);
	free(c);
}

int sim_cue_open(struct sim *s, const char *path, char *err, size_t errlen)
{
	struct sim_cue *c;
	size_t len = 0;
	char *text;
	char why[200];
	unsigned int i;
	int rc;

	if (s->cfg.block_size != 2048) {
		snprintf(err, errlen, "sim: a CUE disc has 2048-byte blocks (no block=512)");
		return CDT_EUSAGE;
	}
	if (s->cfg.change_image) {
		snprintf(err, errlen, "sim: change=N:IMAGE2 is not served with a CUE disc "
			 "(change=N alone is)");
		return CDT_EUSAGE;
	}
	rc = read_text(path, &text, &len, err, errlen);
	if (rc)
		return rc;
	c = calloc(1, sizeof(*c));
	if (!c) {
		free(text);
		snprintf(err, errlen, "sim: out of memory");
		return CDT_ENOMEM;
	}
	for (i = 0; i < CUE_MAX_FILES; i++)
		c->fds[i] = -1;
	c->sheet_fd = open(path, O_RDONLY | O_CLOEXEC);
	rc = cue_parse(text, len, s->cfg.cue_any_path ? CUE_ANY_PATH : 0, &c->sheet,
		       why, sizeof(why));
	free(text);
	if (rc) {
		snprintf(err, errlen, "sim: %s: %s%s", path, why,
			 rc == CUE_EOUTSIDE ? " (cuepaths=any follows it)" : "");
		free(c);
		return CDT_EUSAGE;
	}
	rc = open_files(c, path, err, errlen);
	if (!rc)
		rc = place_tracks(c, &s->n_blocks, path, err, errlen);
	if (rc) {
		cue_close(c);
		return rc;
	}
	s->cue = c;
	return 0;
}

bool sim_cue_serves(const struct sim *s, const struct stat *st)
{
	const struct sim_cue *c = s->cue;
	struct stat a;
	unsigned int i;

	if (c->sheet_fd >= 0 && !fstat(c->sheet_fd, &a) && a.st_dev == st->st_dev &&
	    a.st_ino == st->st_ino)
		return true;
	for (i = 0; i < c->sheet.n_files; i++)
		if (!fstat(c->fds[i], &a) && a.st_dev == st->st_dev &&
		    a.st_ino == st->st_ino)
			return true;
	return false;
}

void sim_cue_free(struct sim *s)
{
	if (s->cue)
		cue_close(s->cue);
	s->cue = NULL;
}

const struct cue_sheet *sim_cue_sheet(const struct sim *s)
{
	return s->cue ? &s->cue->sheet : NULL;
}

/* The sheet's tracks as the drive's table (sim_layout_build). */
void sim_cue_tracks(struct sim *s)
{
	const struct sim_cue *c = s->cue;
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		const struct sim_cue_track *ct = &c->t[i];
		struct sim_track *t = &s->tracks[i];

		t->number = c->sheet.tracks[i].number;
		t->session = c->sheet.tracks[i].session;
		t->audio = ct->mode == CUE_AUDIO;
		t->start = (uint64_t)ct->index1;
		t->blocks = (uint64_t)(ct->stored + (int64_t)ct->n_stored - ct->index1);
		/* track 1's pregap lies before LBA 0: not in the table */
		t->pregap = i ? (uint64_t)(ct->index1 - ct->first) : 0;
		t->flags = c->sheet.tracks[i].flags;
		memcpy(t->isrc, c->sheet.tracks[i].isrc, sizeof(t->isrc));
	}
	memcpy(s->catalog, c->sheet.catalog, sizeof(s->catalog));
	s->n_tracks = c->n;
	s->n_sessions = c->n ? c->sheet.tracks[c->n - 1].session : 1;
}

/* ---- one sector --------------------------------------------------------- */

struct sim_sector {
	const struct sim_cue_track *ct;
	uint32_t number;	/* the track's */
	uint8_t kind;		/* MMC_ST_CDDA .. MMC_ST_FORM2, SIM_ST_MODE0, 0 none */
	bool edc_bad;		/* stored raw, and its EDC/ECC does not match */
	bool leadout;		/* read past the end with past=zero: the lead-out */
	uint8_t raw[CD_RAW];
};

/*
 * A Mode 0 sector (sync, header, 2336 zeros: ECMA-130's Sector Mode 00), as a drive
 * reads the lead-out of a data disc (CDEmu answers READ CD there with Mode 0
 * sectors, REAL-DISCS.md).  Not one of MMC's expected sector types.
 */
#define SIM_ST_MODE0 6

/* Track 1's pregap, 00:00:00-00:01:74: LBA -150..-1 (MMC's LBAs are signed, REAL-DISCS.md) */
#define SIM_TRACK1_PREGAP 150

static const struct sim_cue_track *cue_track_at(const struct sim_cue *c, int64_t lba,
						uint32_t *number)
{
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		const struct sim_cue_track *ct = &c->t[i];
		/* every disc has track 1's 2 s pregap, in the sheet or not */
		int64_t first = i || ct->first < -SIM_TRACK1_PREGAP ? ct->first :
			       -SIM_TRACK1_PREGAP;

		if (lba >= first && lba < ct->stored + (int64_t)ct->n_stored) {
			*number = c->sheet.tracks[i].number;
			return ct;
		}
	}
	return NULL;
}

static uint8_t mmc_kind(enum cd_sector_kind k)
{
	switch (k) {
	case CD_SECTOR_MODE1:
		return MMC_ST_MODE1;
	case CD_SECTOR_FORM1:
		return MMC_ST_FORM1;
	case CD_SECTOR_FORM2:
		return MMC_ST_FORM2;
	case CD_SECTOR_MODE2:
		return MMC_ST_MODE2;
	default:
		return 0;
	}
}

/* Sector lba as 2352 bytes: stored, made from 2048, or a made pregap. */
static bool load_sector(const struct sim *s, int64_t lba, struct sim_sector *sec)
{
	static const uint8_t zero_sub[4] = { 0 };
	const struct sim_cue_track *ct = cue_track_at(s->cue, lba, &sec->number);
	uint8_t data[CD_DATA];
	bool stored;
	off_t off;

	sec->ct = ct;
	sec->kind = 0;
	sec->edc_bad = false;
	sec->leadout = false;
	if (!ct)
		return true;
	stored = lba >= ct->stored;
	off = ct->offset + (off_t)(lba - ct->stored) * ct->ssize;
	if (ct->mode == CUE_AUDIO) {
		sec->kind = MMC_ST_CDDA;
		if (!stored)
			memset(sec->raw, 0, CD_RAW);
		return !stored || sim_pread_all(ct->fd, sec->raw, CD_RAW, off);
	}
	if (!stored || ct->mode == CUE_MODE1_2048) {
		memset(data, 0, sizeof(data));
		if (stored && !sim_pread_all(ct->fd, data, CD_DATA, off))
			return false;
		if (ct->mode == CUE_MODE2_2352)
			cd_sector_build_mode2(sec->raw, zero_sub, data, lba, true);
		else
			cd_sector_build_mode1(sec->raw, data, lba);
	} else if (!sim_pread_all(ct->fd, sec->raw, CD_RAW, off)) {
		return false;
	}
	{
		struct cd_sector_info info;
		struct cd_sector_check chk;

		cd_sector_parse(sec->raw, CD_RAW, &info);
		sec->kind = mmc_kind(info.kind);
		sec->edc_bad = !cd_sector_check(sec->raw, info.kind, &chk);
	}
	return true;
}

/* ---- READ(10)/(12) ------------------------------------------------------ */

/*
 * What READ(10) gets from data block b of a CUE disc (audio is the
 * layout's): 05/64/00 for a sector with no 2048 bytes of user data, 03/11/00
 * for one whose EDC/ECC does not match, as an uncorrectable sector.
 */
bool sim_cue_block_fails(struct sim *s, uint64_t b, struct sim_outcome *o)
{
	struct sim_sector *sec = malloc(sizeof(*sec));
	bool fails = false;

	if (!sec || !load_sector(s, (int64_t)b, sec)) {
		sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
		free(sec);
		return true;
	}
	if (sec->ct && sec->kind != MMC_ST_MODE1 && sec->kind != MMC_ST_FORM1) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_END_OF_USER_AREA, 0);
		fails = true;
	} else if (sec->ct && sec->edc_bad) {
		sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
		fails = true;
	}
	free(sec);
	return fails;
}

/* The 2048 bytes of user data of n blocks from lba (each a readable data sector). */
bool sim_cue_copy_user(struct sim *s, uint64_t lba, uint64_t n, uint8_t *dst)
{
	struct sim_sector *sec = malloc(sizeof(*sec));
	uint64_t i;
	bool ok = sec != NULL;

	for (i = 0; ok && i < n; i++) {
		ok = load_sector(s, (int64_t)(lba + i), sec);
		if (!ok)
			break;
		if (!sec->ct)
			memset(dst + i * CD_DATA, 0, CD_DATA);
		else
			memcpy(dst + i * CD_DATA,
			       sec->raw + (sec->kind == MMC_ST_FORM1 ? 24 : 16), CD_DATA);
	}
	free(sec);
	return ok;
}

/* ---- READ CD ---------------------------------------------------------- */

struct field {
	uint8_t flag;
	uint16_t from, len;
};

/* Where each field of byte 9 lies in a sector of each kind (cd/sector.h). */
static size_t put_main(const struct sim_sector *sec, uint8_t fields, uint8_t *p)
{
	static const struct field mode1[] = {
		{ MMC_RCD_SYNC, 0, 12 }, { MMC_RCD_HEADER, 12, 4 },
		{ MMC_RCD_USER, 16, 2048 }, { MMC_RCD_EDC_ECC, 2064, 288 },
	};
	static const struct field mode2[] = {
		{ MMC_RCD_SYNC, 0, 12 }, { MMC_RCD_HEADER, 12, 4 },
		{ MMC_RCD_USER, 16, 2336 },
	};
	static const struct field form1[] = {
		{ MMC_RCD_SYNC, 0, 12 }, { MMC_RCD_HEADER, 12, 4 },
		{ MMC_RCD_SUBHEADER, 16, 8 }, { MMC_RCD_USER, 24, 2048 },
		{ MMC_RCD_EDC_ECC, 2072, 280 },
	};
	static const struct field form2[] = {
		{ MMC_RCD_SYNC, 0, 12 }, { MMC_RCD_HEADER, 12, 4 },
		{ MMC_RCD_SUBHEADER, 16, 8 }, { MMC_RCD_USER, 24, 2324 },
		{ MMC_RCD_EDC_ECC, 2348, 4 },
	};
	static const struct field audio[] = { { MMC_RCD_USER, 0, 2352 } };
	static const struct { const struct field *f; size_t n; } by_kind[] = {
		[MMC_ST_CDDA] = { audio, 1 }, [MMC_ST_MODE1] = { mode1, 4 },
		[MMC_ST_MODE2] = { mode2, 3 }, [MMC_ST_FORM1] = { form1, 5 },
		[MMC_ST_FORM2] = { form2, 5 }, [SIM_ST_MODE0] = { mode2, 3 },
	};
	size_t n = 0, i;

	if (!sec->kind || sec->kind > SIM_ST_MODE0)
		return 0;
	for (i = 0; i < by_kind[sec->kind].n; i++) {
		const struct field *f = &by_kind[sec->kind].f[i];

		if (fields & f->flag) {
			memcpy(p + n, sec->raw + f->from, f->len);
			n += f->len;
		}
	}
	return n;
}

/* C2 pointers: one bit per byte of the 2352, all set on a bad sector. */
static size_t put_c2(uint8_t fields, bool bad, uint8_t *p)
{
	size_t n = fields & MMC_RCD_C2_BLOCK ? MMC_C2_BLOCK_LEN :
		   fields & MMC_RCD_C2 ? MMC_C2_LEN : 0;

	if (!n)
		return 0;
	memset(p, bad ? 0xff : 0, MMC_C2_LEN);
	if (n == MMC_C2_BLOCK_LEN) {
		p[MMC_C2_LEN] = bad ? 0xff : 0;	/* the block error byte: OR of all */
		p[MMC_C2_LEN + 1] = 0;
	}
	return n;
}

/*
 * The LBA where the sheet's mark i of the track begins: its frames into
 * the FILE from where the track's extent is stored there.
 */
static int64_t mark_lba(const struct sim_cue *c, const struct sim_cue_track *ct,
			unsigned int i)
{
	int64_t extent0 = cue_extent_start(&c->sheet.tracks[ct - c->t]);

	return ct->stored + (ct->marks[i].at - extent0);
}

/*
 * The index Q gives at lba of its track (ECMA-130 22.3.3.4): 00 in the
 * pregap, 01 from INDEX 01, then each INDEX nn of the sheet from its time.
 */
static uint8_t q_index_at(const struct sim_cue *c, const struct sim_cue_track *ct,
			  int64_t lba)
{
	uint8_t index = lba < ct->index1 ? 0 : 1;
	unsigned int i;

	for (i = 0; index && i < ct->n_marks; i++)
		if (lba >= mark_lba(c, ct, i))
			index = ct->marks[i].number;
	return index;
}

/* lba is where Q's track or index changes: a pregap's, index 01's, a mark's first block */
static bool q_mark_at(const struct sim_cue *c, const struct sim_cue_track *ct,
		      int64_t lba)
{
	unsigned int i;

	if (lba == ct->first || lba == ct->index1)
		return true;
	for (i = 0; i < ct->n_marks; i++)
		if (lba == mark_lba(c, ct, i))
			return true;
	return false;
}

/*
 * qadr=N: the ADR of lba's Q.  A disc with a Media Catalog Number or
 * ISRCs carries them in Q in place of the position now and then: mode 1
 * (ADR 1) in at least 9 of every 10 frames, mode 2 (ADR 2, the MCN) at
 * least once in every 100 where present, mode 3 (ADR 3, the ISRC) on audio
 * tracks only (ECMA-130 22.3, its q-Mode field, as cdrinfo.com's glossary
 * "q-Mode field" quotes it; mode 3's layout is IEC 60908's).  N < 10 breaks
 * the 9 in 10 on purpose: a harder disc for the Q search.  The drive's
 * fixed rule: the frame at absolute time A (lba + 150) with A % N == N - 1
 * is the k-th (k = A / N); it carries the MCN where the sheet has a
 * CATALOG, the ISRC where the audio track has one, both: the MCN when k
 * is even, the ISRC when odd; else it stays ADR 1 (so does the lead-out).
 * The first block of a pregap, of index 01 and of each INDEX nn stays
 * ADR 1 too: Q is where the mark is, and a reader places it at the first
 * ADR 1 frame naming it, an ADR 2/3 frame going with the position before
 * (superg/redumper cd/toc.ixx builds its TOC from Q so: ADR 2/3 frames
 * skipped, a track or index beginning at its first ADR 1 frame).
 */
static uint8_t q_adr_at(const struct sim *s, const struct sim_sector *sec,
			const struct sim_track *t, int64_t lba)
{
	uint64_t a = (uint64_t)(lba + 150), n = s->cfg.qadr;
	bool mcn = s->catalog[0], isrc = t->audio && t->isrc[0];

	if (!n || a % n != n - 1 || (!mcn && !isrc) || q_mark_at(s->cue, sec->ct, lba))
		return 1;
	if (mcn && isrc)
		return a / n % 2 ? 3 : 2;
	return mcn ? 2 : 3;
}

/*
 * Q from the layout: track, index 00 before INDEX 01, times; the control
 * nibble the track's, the sheet's FLAGS with it (ECMA-130 22.3.1: bit 0
 * pre-emphasis, 1 digital copy permitted, 2 data, 3 four channels; the
 * CUE's FLAGS PRE, DCP, 4CH as cdrdao's and libcdio's sheets write them).
 */
static void q_frame(const struct sim *s, const struct sim_sector *sec,
		    int64_t lba, uint8_t *q)
{
	const struct sim_track *t;
	uint8_t control;

	if (sec->leadout) {	/* track AA, index 01, counting from the lead-out's start */
		control = sec->kind == MMC_ST_CDDA ? 0x0 : 0x4;
		cd_subq_build(q, control, CD_TRACK_LEADOUT, 1, lba - (int64_t)sec->number, lba);
		return;
	}
	t = &s->tracks[sec->ct - s->cue->t];
	control = sim_track_control(t);
	switch (q_adr_at(s, sec, t, lba)) {
	case 2:
		cd_subq_build_mcn(q, control, s->catalog, lba);
		return;
	case 3:
		cd_subq_build_isrc(q, control, t->isrc, lba);
		return;
	}
	cd_subq_build(q, control, (uint8_t)sec->number, q_index_at(s->cue, sec->ct, lba),
		      lba < sec->ct->index1 ? sec->ct->index1 - lba : lba - sec->ct->index1,
		      lba);
}

static size_t put_sub(const struct sim *s, const struct sim_sector *sec,
		      int64_t lba, uint8_t sub, uint8_t *p)
{
	uint8_t q[CD_Q_LEN];
	bool pregap = !sec->leadout && lba < sec->ct->index1;

	if (sub != MMC_SUB_Q && sub != MMC_SUB_RAW)
		return 0;
	q_frame(s, sec, lba, q);
	if (sub == MMC_SUB_Q) {
		memcpy(p, q, CD_Q_LEN);
		memset(p + CD_Q_LEN, 0, CD_Q_FORMATTED - CD_Q_LEN);
		return CD_Q_FORMATTED;
	}
	/* P is set in a pause (index 00) */
	cd_q_to_pw(q, pregap, p);
	return CD_PW_LEN;
}

static bool in_ranges(const struct sim_range *r, size_t n, uint64_t b)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b >= r[i].first && b <= r[i].last)
			return true;
	return false;
}

/* bad= and flaky= blocks: what the disc cannot give back (flaky counts a try). */
static bool unreadable(struct sim *s, uint64_t b)
{
	const struct sim_config *c = &s->cfg;

	if (in_ranges(c->bad, c->n_bad, b))
		return true;
	if (c->have_flaky && b >= c->flaky.first && b <= c->flaky.last &&
	    b < s->n_blocks) {
		uint32_t *fails = &s->flaky_fails[b - c->flaky.first];

		if (*fails < c->flaky_times) {
			(*fails)++;
			return true;
		}
	}
	return false;
}

/* tao=1: a data track's last 2 blocks are run-out, link blocks with no sector */
static bool in_runout(const struct sim *s, uint64_t b)
{
	uint32_t i;

	if ((uint64_t)b >= s->n_blocks - s->cfg.runout)
		return true;
	/* the table's own walk, not sim_track_at(): tracktable.c calls into here */
	for (i = 0; s->cfg.tao && i < s->n_tracks; i++) {
		const struct sim_track *t = &s->tracks[i];

		if (!t->audio && b >= t->start && b < t->start + t->blocks)
			return b - t->start >= t->blocks - 2;
	}
	return false;
}

/* Why block lba cannot be answered at all (o filled), or false. */
static bool read_cd_fails(struct sim *s, int64_t lba, const struct mmc_read_cd *rq,
			  const struct sim_sector *sec, struct sim_outcome *o)
{
	/*
	 * Track 1's pregap is where drives differ: CDEmu reads it
	 * (REAL-DISCS.md), others answer 05/21/00 at LBA -1
	 * (DiscImageCreator issue #1): pregap1=refuse is the latter.
	 */
	if (lba < 0 && s->cfg.pregap1_refuse) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_LBA_OUT_OF_RANGE, 0);
		return true;
	}
	if (!sec->ct && !sec->leadout && (lba < 0 || (uint64_t)lba >= s->n_blocks)) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_LBA_OUT_OF_RANGE, 0);
		return true;
	}
	if (!sec->ct && !sec->leadout) {
		/* a gap answers READ CD as READ(10): gap=hang no answer at all */
		if (s->cfg.gap == SIM_GAP_HANG)
			o->timeout = true;
		else
			sim_check(o, s->cfg.gap_key, s->cfg.gap_asc, s->cfg.gap_ascq);
		return true;
	}
	/* a Mode 0 sector has no expected type (6 is reserved): only "any" reads it */
	if ((lba >= 0 && !sec->leadout && in_runout(s, (uint64_t)lba)) ||
	    (rq->type && rq->type != sec->kind)) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_END_OF_USER_AREA, 0);
		return true;
	}
	return false;
}

/*
 * fault= at lba: true when the read stops there (o filled, or GOOD for
 * short).  form2 is READ(10)'s answer to a Form 2 sector, which READ CD
 * reads: not applied here.
 */
static bool read_cd_fault(struct sim *s, int64_t lba, struct sim_outcome *o)
{
	const struct sim_fault *f = sim_fault_at(s, (uint64_t)lba);

	return f && f->kind != SIM_FAULT_FORM2 && sim_fault_answer(f, o);
}

/* The lead-out sector lba: Mode 0 on a data disc, silence after audio. */
static void leadout_sector(const struct sim *s, int64_t lba, struct sim_sector *sec)
{
	static const uint8_t zeros[CD_DATA];
	const struct sim_cue *c = s->cue;

	sec->ct = NULL;
	sec->edc_bad = false;
	sec->leadout = true;
	sec->number = (uint32_t)s->n_blocks;	/* where the lead-out starts, for Q */
	if (c->n && c->t[c->n - 1].mode == CUE_AUDIO) {
		sec->kind = MMC_ST_CDDA;
		memset(sec->raw, 0, CD_RAW);
		return;
	}
	/* sync and header as Mode 1 makes them, then mode 0 and zeros */
	cd_sector_build_mode1(sec->raw, zeros, lba);
	sec->raw[15] = 0;
	memset(sec->raw + 16, 0, CD_RAW - 16);
	sec->kind = SIM_ST_MODE0;
}

/*
 * Sector *lba, or what answers for it past the end N (past=): zero reads
 * the lead-out, repeat answers block N-1 again, whole, header and Q
 * naming N-1 (a stale cache: redumper's notes on the PLEXTOR PX-740A,
 * REAL-DISCS.md), so *lba becomes N-1; end and short 05/21/00 (left to
 * read_cd_fails), medium 03/11/00 as READ(10) gets.  False with o filled.
 */
static bool load_any(struct sim *s, int64_t *lba, struct sim_sector *sec,
		     struct sim_outcome *o)
{
	bool past = *lba >= 0 && (uint64_t)*lba >= s->n_blocks;

	if (past && s->cfg.past == SIM_PAST_ZERO) {
		leadout_sector(s, *lba, sec);
		return true;
	}
	if (past && s->cfg.past == SIM_PAST_MEDIUM) {
		sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
		return false;
	}
	if (past && s->cfg.past == SIM_PAST_REPEAT && s->n_blocks)
		*lba = (int64_t)s->n_blocks - 1;
	if (*lba >= 0 && (uint64_t)*lba >= s->n_blocks) {
		sec->ct = NULL;
		sec->leadout = false;
		return true;
	}
	if (!load_sector(s, *lba, sec)) {
		sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
		return false;
	}
	return true;
}

/* One sector's answer at p; 0 with *stop (and o filled, but for short) when it fails. */
static size_t read_cd_one(struct sim *s, int64_t lba, const struct mmc_read_cd *rq,
			  struct sim_sector *sec, uint8_t *p, struct sim_outcome *o,
			  bool *stop)
{
	bool c2 = rq->fields & (MMC_RCD_C2 | MMC_RCD_C2_BLOCK);
	bool bad;
	size_t n;

	*stop = true;
	if (!load_any(s, &lba, sec, o))
		return 0;
	if (read_cd_fails(s, lba, rq, sec, o) || (!sec->leadout && read_cd_fault(s, lba, o)))
		return 0;
	bad = unreadable(s, (uint64_t)lba);
	/* without C2 pointers a drive can only fail an unreadable sector */
	if (bad && !c2) {
		sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
		return 0;
	}
	n = put_main(sec, rq->fields, p);
	n += put_c2(rq->fields, bad || sec->edc_bad, p + n);
	n += put_sub(s, sec, lba, rq->sub, p + n);
	*stop = false;
	return n;
}

/* The most bytes one sector's answer can take: main, C2 with block byte, P-W. */
#define READ_CD_MAX (CD_RAW + MMC_C2_BLOCK_LEN + CD_PW_LEN)

void sim_do_read_cd(struct sim *s, struct cdt_cmd *cmd, struct sim_outcome *o)
{
	struct sim_sector *sec;
	struct mmc_read_cd rq;
	uint32_t nblocks, i;
	size_t moved = 0;
	int64_t lba;

	if (mmc_parse_read_cd_cdb(cmd->cdb, cmd->cdb_len, &lba, &nblocks, &rq)) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_INVALID_OPCODE, 0);
		return;
	}
	if ((rq.fields & MMC_RCD_C2) && (rq.fields & MMC_RCD_C2_BLOCK)) {
		sim_invalid_field(o);
		return;
	}
	/* subchannel= (issue 33): a drive without Q or P-W refuses the field */
	if (rq.sub == MMC_SUB_RW || rq.sub > MMC_SUB_Q || rq.type > MMC_ST_FORM2 ||
	    (rq.sub == MMC_SUB_Q && s->cfg.no_subq) ||
	    (rq.sub == MMC_SUB_RAW && s->cfg.no_subpw)) {
		sim_invalid_field(o);
		return;
	}
	sec = malloc(sizeof(*sec));
	if (!sec) {
		sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
		return;
	}
	for (i = 0; i < nblocks; i++) {
		uint8_t one[READ_CD_MAX];
		bool stop;
		size_t n = read_cd_one(s, lba + i, &rq, sec, one, o, &stop);

		if (stop)
			break;
		/* never past the initiator's buffer: as a drive, refuse the CDB */
		if (!cmd->data || n > cmd->data_len - moved) {
			sim_invalid_field(o);
			break;
		}
		memcpy((uint8_t *)cmd->data + moved, one, n);
		moved += n;
		o->blocks_moved++;
	}
	free(sec);
	/* no answer, or no SCSI status: nothing moved (as sim_do_read) */
	if (o->timeout || o->host_error)
		moved = 0;
	cmd->resid = cmd->data_len - (uint32_t)moved;
	if ((o->check || o->timeout) && o->asc != ASC_INVALID_FIELD)
		o->failed_read = true;
}
