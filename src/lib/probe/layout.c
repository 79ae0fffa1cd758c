// SPDX-License-Identifier: MIT
/*
 * The disc's structure: sessions, tracks, gaps, what is not data.
 *
 * Sources (doc/disc-kinds.md, which names each fact's source): READ
 * TOC format 0 lists every track of every session with its control
 * nibble (4 data, 0 audio) and the lead-out of the last session; format 2
 * (full TOC) says which session each track is in and each session's
 * lead-out (A2); READ TRACK INFORMATION gives each track's start, size,
 * last recorded address and mode; READ DISC INFORMATION whether the last
 * session is open.  A drive that refuses READ TOC (or lists no track in
 * it) is asked READ TRACK INFORMATION for each track DISC INFORMATION
 * counts: MMC drives answer both apart from the TOC.  A one-track,
 * one-session disc costs no command beyond what cdt_read_sizes() asked
 * already.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cmds.h"
#include "core/device.h"
#include "probe/fsize.h"
#include "probe/layout.h"
#include "probe/head.h"
#include "probe/findings.h"
#include "mmc/mmc.h"

#define FULLTOC_ALLOC (4 + 11 * 3 * MMC_TOC_MAX)
#define TRACK_INFO_ALLOC 36
/* a TAO track's run-out: 2 blocks after its last user data block */
#define RUNOUT_BLOCKS 2
/* ISO 9660 descriptors from the session start: 16 system blocks, then VDs */
#define ISO_HEAD_BLOCKS 32
/* at least the system area, the PVD and a terminator */
#define ISO_HEAD_MIN 18

/* names[i], or "unknown" past the n names of an enum */
static const char *enum_name(const char *const *names, size_t n, unsigned int i)
{
	return i < n && names[i] ? names[i] : "unknown";
}

const char *cdt_track_mode_name(enum cdt_track_mode m)
{
	static const char *const names[] = { "data", "audio" };

	return enum_name(names, 2, m);
}

const char *cdt_skip_why_name(enum cdt_skip_why why)
{
	static const char *const names[] = { "audio", "gap", "runout", "unwritten",
					     "pregap", "form2", "protected" };

	return enum_name(names, 7, why);
}

const struct cdt_track *layout_last_track(const struct cdt_layout *l)
{
	return l && l->n_tracks ? &l->tracks[l->n_tracks - 1] : NULL;
}

static bool formatted_profile(uint16_t profile)
{
	/* DVD-RAM, DVD+RW, BD-RE: READ CAPACITY is the formatted size */
	return profile == 0x0012 || profile == 0x001a || profile == 0x0043;
}

/* ---- the tracks ------------------------------------------------------- */

/* Track entries 1..99 of format 0, ascending; the lead-out left out. */
static size_t toc_tracks(const struct mmc_toc *toc, struct cdt_track *t)
{
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < toc->n && i < MMC_TOC_MAX; i++) {
		const struct mmc_toc_entry *e = &toc->e[i];

		if (e->track < 1 || e->track > 99 || e->lba < 0)
			continue;
		if (n && (e->track <= t[n - 1].number || (uint64_t)e->lba < t[n - 1].start))
			continue;	/* out of order: not to be believed */
		t[n] = (struct cdt_track){
			.number = e->track, .session = 1,
			.mode = mmc_control_is_data(e->adr_control & 0x0f) ?
				CDT_TRACK_DATA : CDT_TRACK_AUDIO,
			.start = (uint64_t)e->lba,
			.last_recorded = CDT_SIZE_ABSENT,
			.runout = mmc_control_is_data(e->adr_control & 0x0f) &&
				  mmc_control_incremental(e->adr_control & 0x0f),
			.control = e->adr_control & 0x0f,
		};
		n++;
	}
	return n;
}

static int read_full_toc(struct cdt_dev *dev, struct mmc_full_toc *ft)
{
	uint8_t *buf = malloc(FULLTOC_ALLOC);
	uint32_t got = 0;
	int rc = -1;

	if (!buf)
		return -1;
	if (!cdt_cmd_read_full_toc(dev, buf, FULLTOC_ALLOC, &got) &&
	    !mmc_parse_full_toc(buf, got, ft) && ft->n_tracks)
		rc = 0;
	free(buf);
	return rc;
}

static int read_track_info(struct cdt_dev *dev, unsigned int number,
			   struct mmc_track_info *ti)
{
	uint8_t buf[TRACK_INFO_ALLOC];
	uint32_t got = 0;

	if (cdt_cmd_read_track_info(dev, number, buf, sizeof(buf), &got))
		return -1;
	return mmc_parse_track_info(buf, got, ti);
}

/* What the full TOC says of track t: its session, that session's lead-out. */
static int64_t apply_full_toc(const struct mmc_full_toc *ft, struct cdt_track *t)
{
	const struct mmc_fulltoc_session *s;
	unsigned int i;

	for (i = 0; i < ft->n_tracks && i < MMC_TOC_MAX; i++) {
		if (ft->t[i].number != t->number)
			continue;
		t->session = ft->t[i].session;
		s = mmc_full_toc_session(ft, t->session);
		return s ? s->leadout : -1;
	}
	return -1;
}

/*
 * The track information's extent of t, [start, start + size).  Starting at
 * the TOC's index 01, it is t's length.  Starting before it, the drive
 * counts t's pregap (index 00) in the track, as CDEmu's libMirage does
 * (track 1 from -150, a mixed-mode disc's audio track 2 from its index 00;
 * doc/disc-kinds.md): the blocks before index 01 that lie on the disc
 * (LBA 0 on) are the pregap, the rest the length.  A start past index 01,
 * or an extent ending before it, is not believed.
 */
static void apply_extent(const struct mmc_track_info *ti, struct cdt_track *t)
{
	int64_t index1 = (int64_t)t->start, end = ti->start + ti->size;

	if (!ti->size || ti->start > index1 || end <= index1)
		return;
	t->blocks = (uint64_t)(end - index1);
	t->pregap = (uint64_t)(index1 - (ti->start > 0 ? ti->start : 0));
}

/*
 * What the track information says of t.  Its size is the track's length
 * (a TAO run-out included); a last recorded address 2 blocks before the
 * track's end says the 2 blocks are a run-out, as does an incremental
 * data mode.  A blank track (an open session's invisible one) is no track.
 */
static bool apply_track_info(const struct mmc_track_info *ti, struct cdt_track *t)
{
	if (ti->blank)
		return false;
	if (ti->session)
		t->session = ti->session;
	apply_extent(ti, t);
	if (ti->lra_valid && ti->last_recorded >= 0) {
		t->last_recorded = ti->last_recorded;
		if (t->mode == CDT_TRACK_DATA && t->blocks > RUNOUT_BLOCKS &&
		    (uint64_t)ti->last_recorded + 1 + RUNOUT_BLOCKS == t->start + t->blocks)
			t->runout = true;
	}
	if (t->mode == CDT_TRACK_DATA && mmc_control_incremental(ti->track_mode))
		t->runout = true;
	return true;
}

/* Where t's pregap, or t itself, starts. */
static uint64_t pregap_start(const struct cdt_track *t)
{
	return t->pregap < t->start ? t->start - t->pregap : 0;
}

/*
 * A pregap belongs to its own track: LBA 0 up to track 1's index 01 is
 * track 1's, and the track before it in the session
 * ends where the pregap starts (a data track ends where its data ends, not
 * at the next index 01).  A pregap reaching back to the track before's own
 * start is not believed.
 */
static void settle_pregaps(struct cdt_track *t, size_t n)
{
	size_t i;

	/* blocks before track 1's index 01 are its index 00 (Red Book) */
	if (n && t[0].start > t[0].pregap)
		t[0].pregap = t[0].start;
	for (i = 1; i < n; i++) {
		uint64_t from = pregap_start(&t[i]);

		if (!t[i].pregap || t[i].session != t[i - 1].session)
			continue;
		if (from <= t[i - 1].start) {
			t[i].pregap = 0;
			continue;
		}
		if (t[i - 1].start + t[i - 1].blocks > from)
			t[i - 1].blocks = from - t[i - 1].start;
	}
}

/*
 * Tracks whose length no answer gave end where the next track of their
 * session starts, or at their session's lead-out, or (the last track)
 * at the TOC lead-out or READ CAPACITY.
 */
static void fill_lengths(struct cdt_track *t, size_t n, const int64_t *sess_leadout,
			 int64_t leadout)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t end = -1;

		if (t[i].blocks)
			continue;
		if (i + 1 < n && t[i + 1].session == t[i].session)
			end = (int64_t)pregap_start(&t[i + 1]);
		else if (sess_leadout[i] > 0)
			end = sess_leadout[i];
		else if (i + 1 == n)
			end = leadout;
		else
			end = (int64_t)t[i + 1].start;
		if (end > (int64_t)t[i].start)
			t[i].blocks = (uint64_t)end - t[i].start;
	}
}

/*
 * What one block answers READ(10): data, the wrong mode, MEDIUM ERROR (a
 * damaged block that is there), or anything else.
 */
enum block_answer { BLOCK_DATA, BLOCK_WRONG_MODE, BLOCK_DAMAGED, BLOCK_OTHER };

/*
 * 05/64/00 ILLEGAL MODE FOR THIS TRACK (05/63/00 END OF USER AREA on some
 * drives): a block that is not 2048-byte user data, i.e. a TAO run-out,
 * an audio pregap or a Form 2 sector (doc/disc-kinds.md).
 */
static enum block_answer read_one(struct cdt_dev *dev, struct probe_findings *pf, uint64_t lba, uint8_t *buf)
{
	struct cdt_read_result rr = CDT_INIT(rr);

	if (probe_read_blocks(dev, pf, lba, 1, buf, dev->block_size, &rr))
		return BLOCK_OTHER;
	if (rr.cls == CDT_READ_OK || rr.cls == CDT_READ_SHORT)
		return BLOCK_DATA;
	if (rr.cls == CDT_READ_WRONG_MODE || answer_is_end_of_user_area(rr.sense_key, rr.asc))
		return BLOCK_WRONG_MODE;
	if (answer_is_medium_error(rr.sense_key))
		return BLOCK_DAMAGED;
	return BLOCK_OTHER;
}

/* Yellow Book's pregap at a change of track mode: 2 seconds, 150 blocks. */
#define STD_PREGAP 150

/*
 * The first block of the run of wrong-mode blocks that ends data track t,
 * known to begin at or before wrong (and after t's start): a search that
 * tries the standard 150-block pregap first (2 reads, one failing), then
 * halves.  A MEDIUM ERROR is a damaged block of the data track, never a
 * run-out or a pregap (issue 32: one just before a TAO run-out cut the
 * pregap short and left a run-out block to be taken for Form 2); any
 * other answer stops it at what is known.
 */
static uint64_t wrong_mode_from(struct cdt_dev *dev, struct probe_findings *pf, const struct cdt_track *t,
				uint64_t wrong, uint8_t *buf)
{
	uint64_t end = t->start + t->blocks;
	int64_t lo = (int64_t)t->start - 1, hi = (int64_t)wrong;
	unsigned int step;

	for (step = 0; hi - lo > 1; step++) {
		int64_t mid = lo + (hi - lo) / 2;
		int64_t guess = (int64_t)end - STD_PREGAP - (int64_t)step;
		enum block_answer a;

		if (step < 2 && guess > lo && guess < hi)
			mid = guess;
		a = read_one(dev, pf, (uint64_t)mid, buf);
		if (a == BLOCK_DATA || a == BLOCK_DAMAGED)
			lo = mid;
		else if (a == BLOCK_WRONG_MODE)
			hi = mid;
		else
			break;
	}
	return (uint64_t)hi;
}

/*
 * The end of data track t, inside the disc, when no answer told it.  One
 * read of the first run-out block: a TAO run-out answers 05/64/00 (or
 * 05/63/00) there.  Where an audio track follows in the session (a change
 * of mode, where the Yellow Book asks for a pregap), one read more before
 * it tells a run-out (2 blocks) from the audio track's pregap, which a
 * drive that gives index 01 starts counts in the data track: the data
 * then ends where the wrong-mode blocks begin, and they are next's pregap.
 * Only tracks that are not the last one: the end search reads the last.
 */
static void test_end(struct cdt_dev *dev, struct probe_findings *pf, struct cdt_track *t,
		     struct cdt_track *next)
{
	uint64_t end = t->start + t->blocks, from;
	uint8_t *buf;

	if (t->runout || t->mode != CDT_TRACK_DATA || t->blocks <= RUNOUT_BLOCKS ||
	    !dev->block_size)
		return;
	buf = malloc(dev->block_size);
	if (!buf)
		return;
	if (read_one(dev, pf, end - RUNOUT_BLOCKS, buf) != BLOCK_WRONG_MODE)
		goto out;
	if (next->mode != CDT_TRACK_AUDIO || next->session != t->session ||
	    next->pregap || t->blocks <= RUNOUT_BLOCKS + 1 ||
	    read_one(dev, pf, end - RUNOUT_BLOCKS - 1, buf) != BLOCK_WRONG_MODE) {
		t->runout = true;
		goto out;
	}
	from = wrong_mode_from(dev, pf, t, end - RUNOUT_BLOCKS - 1, buf);
	next->pregap = next->start - from;
	t->blocks = from - t->start;
out:
	free(buf);
}

/*
 * Track number num from its track information alone, after prev (NULL for
 * the first): its mode is the track mode's data bit, as the TOC's control
 * nibble; a blank track, one that does not start past prev's end, or
 * another track than the one asked for is not to be believed.
 */
static bool track_from_info(const struct mmc_track_info *ti, unsigned int num,
			    const struct cdt_track *prev, struct cdt_track *t)
{
	if (ti->blank || (ti->track && ti->track != num))
		return false;
	if (prev && ti->start < (int64_t)(prev->start + (prev->blocks ? prev->blocks : 1)))
		return false;
	/* without a TOC no index 01 is known: the track from LBA 0 on */
	*t = (struct cdt_track){
		.number = num,
		.session = prev ? prev->session : 1,
		.mode = mmc_control_is_data(ti->track_mode) ?
			CDT_TRACK_DATA : CDT_TRACK_AUDIO,
		.control = ti->track_mode & 0x0f,
		.start = ti->start > 0 ? (uint64_t)ti->start : 0,
		.last_recorded = CDT_SIZE_ABSENT,
	};
	return apply_track_info(ti, t);
}

/*
 * No track from the TOC (refused, or empty): DISC INFORMATION's first
 * track to the last track of the last session, each from READ TRACK
 * INFORMATION (the last one cdt_read_sizes() asked already).
 */
static size_t info_tracks(struct cdt_dev *dev, const struct layout_answers *a,
			  struct cdt_track *t)
{
	struct mmc_track_info ti;
	unsigned int num, first, last;
	size_t n = 0;

	if (!a->have_di)
		return 0;
	first = a->di.first_track ? a->di.first_track : 1;
	last = a->di.last_track_last_session;
	for (num = first; num <= last && num <= 99 && n < MMC_TOC_MAX; num++) {
		if (a->have_last_ti && a->last_ti.track == num)
			ti = a->last_ti;
		else if (read_track_info(dev, num, &ti))
			continue;
		if (track_from_info(&ti, num, n ? &t[n - 1] : NULL, &t[n]))
			n++;
	}
	return n;
}

/* ---- the sessions ----------------------------------------------------- */

static size_t count_gaps(const struct cdt_track *t, size_t n)
{
	size_t i, g = 0;

	for (i = 1; i < n; i++)
		if (t[i].session != t[i - 1].session &&
		    pregap_start(&t[i]) > t[i - 1].start + t[i - 1].blocks)
			g++;
	return g;
}

/* Gaps: [end of session k's last track, session k+1's first pregap). */
static int build_gaps(struct cdt_layout *l)
{
	size_t i, g = 0, n = count_gaps(l->tracks, l->n_tracks);
	const struct cdt_track *t = l->tracks;

	if (!n)
		return 0;
	l->gaps = calloc(n, sizeof(*l->gaps));
	if (!l->gaps)
		return CDT_ENOMEM;
	for (i = 1; i < l->n_tracks && g < n; i++) {
		uint64_t end = t[i - 1].start + t[i - 1].blocks;

		if (t[i].session == t[i - 1].session || pregap_start(&t[i]) <= end)
			continue;
		l->gaps[g++] = (struct cdt_skip){ end, pregap_start(&t[i]) - end,
						  CDT_SKIP_GAP };
	}
	l->n_gaps = g;
	return 0;
}

int layout_regap(struct cdt_layout *l)
{
	free(l->gaps);
	l->gaps = NULL;
	l->n_gaps = 0;
	return build_gaps(l);
}

/*
 * Blocks of track t's head worth reading for ISO 9660: its data only, so
 * never a run-out test_end() found nor the last track's last 2 blocks
 * (a run-out, perhaps, which the end search reads).
 */
static uint32_t iso_head_blocks(const struct cdt_track *t, bool last, uint32_t per)
{
	uint64_t n = t->blocks;

	if (t->runout || last)
		n = n > RUNOUT_BLOCKS ? n - RUNOUT_BLOCKS : 0;
	return n < ISO_HEAD_BLOCKS * per ? (uint32_t)n : ISO_HEAD_BLOCKS * per;
}

/*
 * ISO 9660 in the last data session: its volume descriptors at the
 * session's first data track start + 16, its volume space size the
 * absolute end (mkisofs -C).  A size smaller than the descriptors' own
 * place cannot be absolute: it counts from the session start.
 */
static const struct cdt_track *last_session_first_data(const struct cdt_layout *l)
{
	const struct cdt_track *first = NULL;
	size_t i;

	for (i = l ? l->n_tracks : 0; i-- > 0;) {
		if (l->tracks[i].mode != CDT_TRACK_DATA)
			continue;
		if (first && l->tracks[i].session != first->session)
			break;
		first = &l->tracks[i];
	}
	return first;
}

uint64_t layout_last_session_start(const struct cdt_layout *l)
{
	const struct cdt_track *first = last_session_first_data(l);

	return first ? first->start : 0;
}

static void last_session_filesystem(struct cdt_dev *dev, struct probe_findings *pf, const struct cdt_layout *l,
				    struct cdt_sizes *sz)
{
	const struct cdt_track *first = last_session_first_data(l);
	unsigned int fails = PROBE_HEAD_BAD_MAX;
	uint32_t bs = dev->block_size, n, per;
	uint64_t blocks = 0;
	uint8_t *buf;

	/* the session at LBA 0: cdt_read_sizes() reads the head, with libblkid */
	if (!first || !first->start || !bs)
		return;
	/*
	 * The descriptors are 2048-byte sectors whatever the drive's block
	 * (block=512: 4 blocks each, issue 32): the head, the minimum and
	 * the PVD's place count in them.
	 */
	per = bs < 2048 ? 2048 / bs : 1;
	/* a failing read or few per inner track at most: test_end()'s */
	n = iso_head_blocks(first, first == layout_last_track(l), per);
	if (n < ISO_HEAD_MIN * per)
		return;
	buf = malloc((size_t)ISO_HEAD_BLOCKS * per * bs);
	if (!buf)
		return;
	/*
	 * A bad block in the session's head costs the head read again
	 * block by block, as at LBA 0, not the descriptors after it.
	 */
	n = probe_read_piece(dev, pf, first->start, n, buf, &fails);
	if (n < ISO_HEAD_MIN * per)
		goto out;
	if (cdt_iso9660_size(buf, (size_t)n * bs, bs, &blocks) || !blocks)
		goto out;
	if (blocks <= ISO_HEAD_BLOCKS * 2048u / bs)
		goto out;
	if (blocks <= first->start + 16 * per)
		blocks += first->start;
	sz->filesystem = (int64_t)blocks;
	snprintf(sz->fs_type, sizeof(sz->fs_type), "iso9660");
out:
	free(buf);
}

/* ---- building ----------------------------------------------------------- */

/* One session holding one data track over READ CAPACITY's blocks. */
static int fallback_track(struct cdt_layout *l, const struct cdt_sizes *sz)
{
	l->tracks = calloc(1, sizeof(*l->tracks));
	if (!l->tracks)
		return CDT_ENOMEM;
	l->tracks[0] = (struct cdt_track){
		.number = 1, .session = 1, .mode = CDT_TRACK_DATA,
		.blocks = sz->read_capacity > 0 ? (uint64_t)sz->read_capacity : 0,
		.last_recorded = CDT_SIZE_ABSENT,
	};
	l->n_tracks = 1;
	l->sessions = 1;
	return 0;
}

/* More than one track or session: the full TOC and each track's information. */
static bool needs_more(const struct layout_answers *a, size_t n)
{
	return n > 1 || (a->have_di && a->di.n_sessions > 1);
}

/*
 * The lengths no answer gave, run-outs inside the disc, the number of
 * sessions: the same whichever answers listed the tracks.
 */
static void finish_tracks(struct cdt_dev *dev, struct probe_findings *pf, struct cdt_layout *l,
			  const struct cdt_sizes *sz, const int64_t *sess_leadout)
{
	struct cdt_track *t = l->tracks;
	int64_t leadout = sz->toc_leadout > 0 ? sz->toc_leadout : sz->read_capacity;
	size_t i;

	settle_pregaps(t, l->n_tracks);
	fill_lengths(t, l->n_tracks, sess_leadout, leadout);
	for (i = 0; i + 1 < l->n_tracks; i++)
		test_end(dev, pf, &t[i], &t[i + 1]);
	for (i = 0; i < l->n_tracks; i++)
		if (t[i].session > l->sessions)
			l->sessions = t[i].session;
}

/* Sessions, lengths and run-outs of the n tracks format 0 listed. */
static void describe_tracks(struct cdt_dev *dev, struct probe_findings *pf, struct cdt_layout *l,
			    const struct layout_answers *a, const struct cdt_sizes *sz,
			    int64_t *sess_leadout)
{
	struct mmc_full_toc *ft = calloc(1, sizeof(*ft));
	struct mmc_track_info ti;
	struct cdt_track *t = l->tracks;
	size_t i, kept = 0;
	bool more = needs_more(a, l->n_tracks);

	if (more && ft && !read_full_toc(dev, ft))
		for (i = 0; i < l->n_tracks; i++)
			sess_leadout[i] = apply_full_toc(ft, &t[i]);
	free(ft);
	for (i = 0; i < l->n_tracks; i++) {
		bool keep = true;

		if (more && !read_track_info(dev, t[i].number, &ti))
			keep = apply_track_info(&ti, &t[i]);
		else if (!more && a->have_last_ti && a->last_ti.track == t[i].number)
			keep = apply_track_info(&a->last_ti, &t[i]);
		if (keep) {
			sess_leadout[kept] = sess_leadout[i];
			t[kept++] = t[i];
		}
	}
	l->n_tracks = kept;
	finish_tracks(dev, pf, l, sz, sess_leadout);
}

/*
 * The tracks from the TOC, else from disc and track information; NULL
 * (and n_tracks 0) when neither lists one.  Returns 0 or CDT_ENOMEM.
 */
static int list_tracks(struct cdt_dev *dev, struct probe_findings *pf, struct cdt_layout *l,
		       const struct cdt_sizes *sz, const struct layout_answers *a)
{
	int64_t *sess_leadout;
	size_t i;

	l->tracks = calloc(MMC_TOC_MAX, sizeof(*l->tracks));
	sess_leadout = calloc(MMC_TOC_MAX, sizeof(*sess_leadout));
	if (!l->tracks || !sess_leadout) {
		free(sess_leadout);
		return CDT_ENOMEM;
	}
	for (i = 0; i < MMC_TOC_MAX; i++)
		sess_leadout[i] = -1;
	l->n_tracks = a->have_toc ? toc_tracks(&a->toc, l->tracks) : 0;
	if (l->n_tracks) {
		describe_tracks(dev, pf, l, a, sz, sess_leadout);
	} else {
		l->n_tracks = info_tracks(dev, a, l->tracks);
		if (l->n_tracks)
			finish_tracks(dev, pf, l, sz, sess_leadout);
	}
	free(sess_leadout);
	if (!l->n_tracks) {
		free(l->tracks);
		l->tracks = NULL;
	}
	return 0;
}

static int build(struct cdt_dev *dev, struct probe_findings *pf, struct cdt_layout *l, struct cdt_sizes *sz,
		 const struct layout_answers *a)
{
	if (list_tracks(dev, pf, l, sz, a))
		return CDT_ENOMEM;
	if (!l->n_tracks)
		return fallback_track(l, sz);
	l->has_toc = true;
	if (build_gaps(l))
		return CDT_ENOMEM;
	last_session_filesystem(dev, pf, l, sz);
	return 0;
}

int layout_read(struct cdt_dev *dev, struct probe_findings *pf,
		struct cdt_sizes *sz, const struct layout_answers *a)
{
	struct cdt_layout *l = calloc(1, sizeof(*l));
	int rc;

	if (!l)
		return CDT_ENOMEM;
	l->size = sizeof(*l);
	l->profile = sz->profile;
	l->formatted = formatted_profile(sz->profile);
	l->last_possible_leadout = CDT_SIZE_ABSENT;
	if (a->have_di) {
		l->appendable = mmc_disc_appendable(&a->di);
		if (a->di.last_leadout > 0)
			l->last_possible_leadout = a->di.last_leadout;
	}
	rc = build(dev, pf, l, sz, a);
	if (rc) {
		cdt_layout_free(l);
		return rc;
	}
	cdt_layout_free(pf->layout);
	pf->layout = l;
	return 0;
}

/* ---- the skip list ------------------------------------------------------ */

static size_t add_skip(struct cdt_skip *out, size_t n, size_t cap, uint64_t start,
		       uint64_t blocks, enum cdt_skip_why why, uint64_t extent)
{
	uint64_t end = start + blocks;

	/* never overlapping what came before, never past the extent */
	if (n && start < out[n - 1].start + out[n - 1].blocks)
		start = out[n - 1].start + out[n - 1].blocks;
	if (end > extent)
		end = extent;
	if (n >= cap || start >= end)
		return n;
	out[n] = (struct cdt_skip){ start, end - start, why };
	return n + 1;
}

size_t layout_skips(const struct cdt_layout *l, uint64_t extent,
		    struct cdt_skip *out, size_t cap)
{
	size_t i, g = 0, n = 0;

	for (i = 0; i < l->n_tracks; i++) {
		const struct cdt_track *t = &l->tracks[i];

		for (; g < l->n_gaps && l->gaps[g].start < t->start; g++)
			n = add_skip(out, n, cap, l->gaps[g].start, l->gaps[g].blocks,
				     CDT_SKIP_GAP, extent);
		if (t->mode == CDT_TRACK_AUDIO) {
			n = add_skip(out, n, cap, pregap_start(t), t->pregap,
				     CDT_SKIP_PREGAP, extent);
			n = add_skip(out, n, cap, t->start, t->blocks, CDT_SKIP_AUDIO, extent);
		}
		else if (t->runout && t->blocks > RUNOUT_BLOCKS)
			n = add_skip(out, n, cap, t->start + t->blocks - RUNOUT_BLOCKS,
				     RUNOUT_BLOCKS, CDT_SKIP_RUNOUT, extent);
	}
	for (; g < l->n_gaps; g++)
		n = add_skip(out, n, cap, l->gaps[g].start, l->gaps[g].blocks,
			     CDT_SKIP_GAP, extent);
	return n;
}

int layout_finish(struct cdt_layout *l, uint64_t extent, bool runout_end)
{
	struct cdt_track *last;
	size_t cap;

	if (!l)
		return 0;
	last = l->n_tracks ? &l->tracks[l->n_tracks - 1] : NULL;
	/* the search knows the last data track's length better than any answer */
	if (last && last->mode == CDT_TRACK_DATA && extent > last->start) {
		if (runout_end && extent + RUNOUT_BLOCKS == last->start + last->blocks)
			last->runout = true;
		else
			last->blocks = extent - last->start;
	}
	free(l->skip);
	l->skip = NULL;
	l->n_skip = 0;
	cap = 2 * l->n_tracks + l->n_gaps;
	if (!cap)
		return 0;
	l->skip = calloc(cap, sizeof(*l->skip));
	if (!l->skip)
		return CDT_ENOMEM;
	l->n_skip = layout_skips(l, extent, l->skip, cap);
	return 0;
}
