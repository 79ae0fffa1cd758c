// SPDX-License-Identifier: MIT
/*
 * Pregaps and index marks from subchannel Q (probe/qindex.h, issue 33).
 *
 * READ TRACK INFORMATION states a pregap only on drives that start a track
 * at it (CDEmu's libMirage; the emulated drive's trackinfo=pregap); most
 * give index 01, the TOC's start, and the pregap is then only in Q: ADR 1
 * Q names the track and its index, 00 in the pregap, 01.. after
 * (ECMA-130 22.3.3; IEC 60908).  redumper splits tracks by Q the same way
 * (cd/toc.ixx, its Q-based index detection).  A read of Q is one READ CD
 * of one sector with the Q field (MMC READ CD sub-channel selection 010b)
 * or raw P-W (001b) where that is what the drive gives.
 *
 * The index in Q rises through a track (00, 01, 02...), and the track
 * number through the disc, so each boundary is found by halving between
 * two blocks already read, never by a scan: a pregap within the standard
 * 150 blocks costs 3 reads (start - 1, start - 150, start - 151), a track
 * without marks 1 more (its last block), a mark about 18.  Q that cannot
 * be used (a CRC error, an ADR 2/3 frame that takes the place of the
 * position now and then, a damaged sector) is read again a block aside,
 * then further aside (a damaged run).  Where every block between two
 * known ones is an ADR 2/3 frame, the boundary is the later known block:
 * a track or index begins at the first ADR 1 frame naming it, the frames
 * without a position going with the one before (superg/redumper
 * cd/toc.ixx builds the TOC from Q so); a damaged frame there leaves it
 * not known.
 */
#include <stdlib.h>
#include <string.h>
#include "core/cmds.h"
#include "core/device.h"
#include "probe/findings.h"
#include "probe/layout.h"
#include "probe/qindex.h"
#include "probe/trackmodes.h"
#include "mmc/readcd.h"
#include "cd/sector.h"

/* Yellow/Red Book's pregap at a change of track: 2 seconds, 150 blocks */
#define QI_STD_PREGAP 150
/*
 * Blocks read in turn when one block's Q cannot be used: 0, +-1, +-2, then
 * further (+-4, +-8, +-16) to step over a damaged run.
 */
#define QI_NEIGHBOURS 11
/* blocks whose index a mark search keeps to bound the next one */
#define QI_SEEN_MAX 256

/* Where a block lies for the track searched. */
enum qi_class {
	QI_UNKNOWN,		/* no usable Q near it */
	QI_BEFORE,		/* an earlier track, or the session gap */
	QI_PREGAP,		/* the track's index 00 */
	QI_TRACK,		/* the track's index 01 or later */
	QI_OTHER,		/* a later track: the layout is not what Q says */
	QI_NO_POSITION,		/* every block between lo and hi: ADR 2/3 */
};

struct qi_run {
	const struct qi_track *t;
	qi_read_fn fn;
	void *ctx;
	unsigned int *reads;
};

static enum qi_class classify(const struct qi_track *t, const struct cd_subq *q)
{
	if (q->track == CD_TRACK_LEADOUT || q->track > t->number)
		return QI_OTHER;
	if (q->track < t->number)
		return QI_BEFORE;
	return q->index ? QI_TRACK : QI_PREGAP;
}

/*
 * The class of block want, or of the nearest block strictly between lo
 * and hi whose Q can be used; *at is the block that answered, *index its
 * index.  A READ CD that fails below the floor of a session's first track
 * is the gap before it.  QI_NO_POSITION: every block between lo and hi
 * was read and is an ADR 2/3 frame.
 */
static enum qi_class read_near(const struct qi_run *r, int64_t want, int64_t lo,
			       int64_t hi, int64_t *at, uint8_t *index)
{
	static const int step[QI_NEIGHBOURS] = { 0, 1, -1, 2, -2, 4, -4, 8, -8, 16, -16 };
	struct cd_subq q;
	unsigned int i, no_position = 0;

	for (i = 0; i < QI_NEIGHBOURS; i++) {
		int64_t x = want + step[i];
		enum qi_got got;

		if (x <= lo || x >= hi)
			continue;
		if (*r->reads >= QI_READS_MAX)
			return QI_UNKNOWN;
		(*r->reads)++;
		got = r->fn(r->ctx, x, &q);
		*at = x;
		if (got == QI_GOT_NOTHING && r->t->gap_below && x < r->t->start &&
		    x >= r->t->floor)
			return QI_BEFORE;
		no_position += got == QI_GOT_NO_POSITION;
		if (got != QI_GOT_Q)
			continue;
		*index = q.index;
		return classify(r->t, &q);
	}
	return no_position && (int64_t)no_position == hi - lo - 1 ? QI_NO_POSITION :
	       QI_UNKNOWN;
}

void qi_find_pregap(const struct qi_track *t, qi_read_fn fn, void *ctx,
		    struct qi_pregap *out)
{
	struct qi_run r = { t, fn, ctx, &out->reads };
	int64_t lo = t->floor - 1, hi = t->start, at = 0;
	unsigned int step;
	uint8_t index = 0;
	enum qi_class c;

	memset(out, 0, sizeof(*out));
	out->from = t->start;
	if (t->floor >= t->start) {
		out->known = true;
		return;
	}
	c = read_near(&r, t->start - 1, lo, hi, &at, &index);
	if (c == QI_TRACK)
		out->index1_differs = true;
	if (c != QI_PREGAP) {
		out->known = c == QI_BEFORE;
		return;
	}
	hi = at;
	for (step = 0; hi - lo > 1; step++) {
		int64_t mid = lo + (hi - lo) / 2;
		int64_t guess = t->start - QI_STD_PREGAP - (int64_t)step;

		if (step < 2 && guess > lo && guess < hi)
			mid = guess;
		c = read_near(&r, mid, lo, hi, &at, &index);
		if (c == QI_BEFORE)
			lo = at;
		else if (c == QI_PREGAP)
			hi = at;
		else if (c == QI_NO_POSITION)
			break;		/* those go with lo: the pregap begins at hi */
		else
			return;		/* no Q, or Q out of order: not known */
	}
	out->known = true;
	out->from = hi;
}

/* The blocks a mark search has read: their index, to bound the next. */
struct qi_seen {
	unsigned int n;
	int64_t lba[QI_SEEN_MAX];
	uint8_t index[QI_SEEN_MAX];
};

static void seen_add(struct qi_seen *s, int64_t lba, uint8_t index)
{
	if (s->n < QI_SEEN_MAX) {
		s->lba[s->n] = lba;
		s->index[s->n++] = index;
	}
}

/*
 * The last block known below index k and the first known at k or above
 * (with its index): the track's start has index 01, its end the highest.
 */
static void seen_bounds(const struct qi_seen *s, unsigned int k, int64_t *lo,
			int64_t *hi, uint8_t *hi_index)
{
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		if (s->index[i] < k && s->lba[i] > *lo)
			*lo = s->lba[i];
		if (s->index[i] >= k && s->lba[i] < *hi) {
			*hi = s->lba[i];
			*hi_index = s->index[i];
		}
	}
}

/* Where index k (or the first above it, *number) begins, into out: false when not found. */
static bool find_mark(const struct qi_run *r, struct qi_seen *s, unsigned int k,
		      struct qi_marks *out, unsigned int *number)
{
	int64_t lo = r->t->start, hi = r->t->end, at = 0;
	uint8_t hi_index = 0, index = 0;

	seen_bounds(s, k, &lo, &hi, &hi_index);
	while (hi - lo > 1) {
		enum qi_class c = read_near(r, lo + (hi - lo) / 2, lo, hi, &at, &index);

		if (c == QI_NO_POSITION)
			break;		/* those go with lo: the mark begins at hi */
		if (c != QI_TRACK && c != QI_PREGAP)
			return false;
		if (c == QI_PREGAP)
			index = 0;	/* index 00 inside a track: below every mark */
		seen_add(s, at, index);
		if (index >= k) {
			hi = at;
			hi_index = index;
		} else {
			lo = at;
		}
	}
	if (hi >= r->t->end || out->n >= QI_MARKS_MAX)
		return false;
	out->number[out->n] = hi_index;
	out->lba[out->n++] = hi;
	*number = hi_index;
	return true;
}

void qi_find_marks(const struct qi_track *t, qi_read_fn fn, void *ctx,
		   struct qi_marks *out)
{
	struct qi_run r = { t, fn, ctx, &out->reads };
	struct qi_seen *s;
	unsigned int k, top, number;
	int64_t at = 0;
	uint8_t index = 0;

	memset(out, 0, sizeof(*out));
	if (t->end - 1 <= t->start) {
		out->known = true;
		return;
	}
	if (read_near(&r, t->end - 1, t->start, t->end, &at, &index) != QI_TRACK)
		return;
	if (index <= 1) {
		out->known = true;
		return;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return;
	top = index;
	seen_add(s, at, index);
	for (k = 2; k <= top; k = number + 1)
		if (!find_mark(&r, s, k, out, &number))
			break;
	out->known = k > top;
	free(s);
}

/* ---- on the drive --------------------------------------------------------- */

struct qi_dev {
	struct cdt_dev *dev;
	uint8_t sub;		/* MMC_SUB_Q or MMC_SUB_RAW */
	uint8_t buf[CD_RAW + CD_PW_LEN];
};

/*
 * Q of lba with its raw sector, as the raw capabilities were tried
 * (core/rawcaps.c): a drive that gave Q with the sector there gives it so.
 */
static enum qi_got read_q(void *ctx, int64_t lba, struct cd_subq *q)
{
	struct qi_dev *d = ctx;
	struct mmc_read_cd rq = { .type = MMC_ST_ANY, .fields = MMC_RCD_RAW, .sub = d->sub };
	uint32_t len = CD_RAW + (d->sub == MMC_SUB_Q ? CD_Q_FORMATTED : CD_PW_LEN);
	const uint8_t *p = d->buf + CD_RAW;
	uint8_t qb[CD_Q_LEN];
	struct cdt_sense sense;
	struct cdt_cmd cmd;

	memset(d->buf, 0, sizeof(d->buf));
	if (cdt_cmd_read_cd(d->dev, lba, 1, &rq, d->buf, len, &cmd, &sense) || cmd.resid)
		return QI_GOT_NOTHING;
	if (d->sub == MMC_SUB_RAW) {
		cd_pw_to_q(p, CD_PW_LEN, qb);
		p = qb;
	}
	if (cd_subq_parse(p, CD_Q_LEN, q) || q->crc == CD_Q_CRC_BAD)
		return QI_GOT_UNUSABLE;
	if (q->adr == 2 || q->adr == 3)
		return QI_GOT_NO_POSITION;
	if (q->adr != 1 || !q->bcd_ok || q->lba != lba)
		return QI_GOT_UNUSABLE;
	return QI_GOT_Q;
}

/* Where track i's pregap may begin (see struct qi_track). */
static void pregap_window(const struct cdt_layout *l, size_t i, struct qi_track *q)
{
	const struct cdt_track *t = &l->tracks[i], *prev = &l->tracks[i - 1];

	q->number = t->number;
	q->start = (int64_t)t->start;
	q->gap_below = prev->session != t->session;
	q->floor = q->gap_below ? q->start - QI_STD_PREGAP : (int64_t)prev->start + 1;
	if (q->gap_below && q->floor < (int64_t)(prev->start + prev->blocks))
		q->floor = (int64_t)(prev->start + prev->blocks);
	q->end = q->start;
}

/*
 * Q's pregap of track i into the layout: a pregap the drive's other
 * answers put elsewhere counts in q_differs (Q stands: it is the disc's
 * own mark), and the track before in the session ends where it begins
 * (a run-out inferred at the old end was none).  False: not known.
 */
static bool pregap_of(struct cdt_layout *l, size_t i, struct qi_dev *d)
{
	struct cdt_track *t = &l->tracks[i], *prev = &l->tracks[i - 1];
	struct qi_track qt;
	struct qi_pregap found;
	uint64_t pregap;

	pregap_window(l, i, &qt);
	qi_find_pregap(&qt, read_q, d, &found);
	l->q_reads += found.reads;
	if (!found.known)
		return false;
	pregap = (uint64_t)(qt.start - found.from);
	if (pregap == t->pregap)
		return true;
	if (t->pregap)
		l->q_differs++;
	t->pregap = pregap;
	if (prev->session == t->session) {
		prev->blocks = (uint64_t)found.from - prev->start;
		prev->runout = false;
	}
	return true;
}

/* Past track i's own last block: the next pregap, its run-out, the extent. */
static int64_t own_end(const struct cdt_layout *l, size_t i, uint64_t extent)
{
	const struct cdt_track *t = &l->tracks[i];
	uint64_t end = t->start + t->blocks - (t->runout && t->blocks > 2 ? 2 : 0);

	if (i + 1 < l->n_tracks && l->tracks[i + 1].session == t->session &&
	    l->tracks[i + 1].start - l->tracks[i + 1].pregap < end)
		end = l->tracks[i + 1].start - l->tracks[i + 1].pregap;
	if (extent && end > extent)
		end = extent;
	return (int64_t)end;
}

/* Track i's index marks appended to *marks (n of cap, grown). */
static int marks_of(struct cdt_layout *l, size_t i, struct qi_dev *d, uint64_t extent,
		    struct cdt_index **marks, size_t *n, bool *known)
{
	const struct cdt_track *t = &l->tracks[i];
	struct qi_track qt = { .number = t->number, .start = (int64_t)t->start,
			       .floor = (int64_t)t->start,
			       .end = own_end(l, i, extent) };
	struct qi_marks *found = malloc(sizeof(*found));
	struct cdt_index *grown;
	unsigned int k;

	if (!found)
		return CDT_ENOMEM;
	qi_find_marks(&qt, read_q, d, found);
	l->q_reads += found->reads;
	*known = found->known;
	if (found->n) {
		grown = realloc(*marks, (*n + found->n) * sizeof(**marks));
		if (!grown) {
			free(found);
			return CDT_ENOMEM;
		}
		*marks = grown;
	}
	for (k = 0; k < found->n; k++)
		(*marks)[(*n)++] = (struct cdt_index){ t->number, found->number[k],
						       (uint64_t)found->lba[k] };
	free(found);
	return 0;
}

static int search(struct cdt_layout *l, struct qi_dev *d, uint64_t extent)
{
	struct cdt_index *marks = NULL;
	size_t i, n = 0;
	bool all = true, known;
	int rc = 0;

	for (i = 1; i < l->n_tracks; i++)
		if (!pregap_of(l, i, d))
			all = false;
	for (i = 0; i < l->n_tracks && !rc; i++) {
		rc = marks_of(l, i, d, extent, &marks, &n, &known);
		all = all && known;
	}
	if (rc) {
		free(marks);
		return rc;
	}
	free(l->indexes);
	l->indexes = marks;
	l->n_indexes = n;
	l->qmarks = all ? CDT_QMARKS_FOUND : CDT_QMARKS_PARTLY;
	return 0;
}

int probe_q_marks(struct cdt_dev *dev, struct probe_findings *pf)
{
	struct cdt_layout *l = pf->layout;
	const struct cdt_track *last;
	struct qi_dev *d;
	int rc;

	/* a drive that makes raw sectors up (QEMU's ide-cd) reads no disc raw */
	if (!l || !l->n_tracks || !probe_raw_trusted(&pf->raw, l))
		return 0;
	if (!pf->raw.subq && !pf->raw.subpw) {
		l->qmarks = CDT_QMARKS_NO_Q;
		return 0;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return CDT_ENOMEM;
	d->dev = dev;
	d->sub = pf->raw.subq ? MMC_SUB_Q : MMC_SUB_RAW;
	rc = search(l, d, pf->extent);
	free(d);
	if (!rc)
		rc = layout_regap(l);
	last = layout_last_track(l);
	if (!rc)
		rc = layout_finish(l, pf->extent, last && last->runout);
	return rc;
}

/*
 * Pregaps and index marks from Q (probe/qindex.c, issue 33), after the
 * end: the layout again for cdt_dev_layout(), the reads in the stats.
 */
int probe_q_marks_published(struct cdt_dev *dev, struct probe_findings *pf,
			     struct cdt_probe_result *res)
{
	unsigned int seen = dev->medium_changes;
	int rc = probe_q_marks(dev, pf);

	if (rc)
		return rc;
	if (dev->medium_changes != seen) {
		cdt_dev_seterr(dev, "the medium changed while Q was read");
		return CDT_ECHANGED;
	}
	probe_publish(dev, pf);
	cdt_get_stats(dev, &res->stats);
	return 0;
}
