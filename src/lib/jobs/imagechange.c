// SPDX-License-Identifier: MIT
/*
 * A medium change under image (cdtail-image(1), Medium changes): is the
 * disc now in the drive the one this run began with?  The identity's
 * blocks say so once it holds one (the book's rule, book_changed).
 * Before that, what the run can tell: the size sources read again as the
 * probe first read them, and the blocks OUT already holds (up to 16 the
 * map marks read) read back the same.  A disc of the same sizes of which
 * OUT holds nothing yet cannot be told from the first one, and nothing
 * of the first one is in OUT to be mixed with it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "core/device.h"
#include "probe/findings.h"
#include "probe/probe.h"
#include "probe/sizes.h"
#include "jobs/job.h"
#include "jobs/imagejob.h"

/*
 * The first size source that differs, or NULL.  READ CAPACITY may be
 * the one after the search too: some drives (tgt) report the highest
 * block read so far.  The kernel's sizes are not the disc's.
 */
static const char *size_differs(const struct cdt_probe_result *p, const struct cdt_sizes *now,
				int64_t *was, int64_t *is)
{
	const struct cdt_sizes *s = &p->sizes;
	const struct {
		const char *name;
		int64_t was, is;
	} v[] = {
		{ "block size", s->block_size, now->block_size },
		{ "TOC lead-out", s->toc_leadout, now->toc_leadout },
		{ "last track's end", s->track_end, now->track_end },
		{ "disc lead-out", s->disc_leadout, now->disc_leadout },
		{ "filesystem size", s->filesystem, now->filesystem },
		{ "profile", s->profile, now->profile },
	};
	size_t i;

	if (now->read_capacity != s->read_capacity &&
	    !(p->capacity_after > 0 && now->read_capacity == p->capacity_after)) {
		*was = s->read_capacity;
		*is = now->read_capacity;
		return "READ CAPACITY";
	}
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (v[i].was != v[i].is) {
			*was = v[i].was;
			*is = v[i].is;
			return v[i].name;
		}
	}
	return strcmp(s->fs_type, now->fs_type) ? "filesystem type" : NULL;
}

/* The size sources read again (a probe's own, kept apart from the run's). */
static int same_sizes(struct image_job *j)
{
	struct probe_findings pf = { 0 };
	struct cdt_sizes now;
	const char *what;
	int64_t was = 0, is = 0;
	uint32_t bs = j->dev->block_size;
	int rc;

	memset(&now, 0, sizeof(now));
	now.size = sizeof(now);
	rc = probe_sizes(j->dev, &pf, &now);
	probe_findings_free(&pf);
	/* the run's layout and block size stand for cdt_dev_layout() and its reads */
	probe_publish(j->dev, &j->found);
	j->dev->block_size = bs;
	if (rc == CDT_ENOMEM)
		return rc;
	if (rc) {
		cdt_dev_seterr(j->dev, "the medium changed and the new disc's sizes cannot be read");
		return CDT_ECHANGED;
	}
	what = size_differs(j->res->sum.probe, &now, &was, &is);
	if (what) {
		cdt_dev_seterr(j->dev, "the medium changed: the new disc's %s is %" PRId64
			       ", that of the disc this run began with %" PRId64, what, is, was);
		return CDT_ECHANGED;
	}
	return 0;
}

/*
 * The first block at or after block from that the map marks read and
 * does not skip (skipped blocks are finished unread, and the first save
 * joins them to the read blocks around them); UINT64_MAX: none.
 */
static uint64_t first_read(const struct image_job *j, uint64_t from)
{
	const struct cdt_skip *k;
	uint64_t start, len, b, end;

	while (map_find(&j->book.map, MAP_FINISHED, from * j->bs, &start, &len)) {
		end = (start + len) / j->bs;
		for (b = start / j->bs; b < end; b = k->start + k->blocks) {
			k = skip_at(&j->book.rec.skip, b);
			if (!k)
				return b;
		}
		from = end;
	}
	return UINT64_MAX;
}

int image_out_differs(struct image_job *j, unsigned int *compared, uint64_t *at)
{
	uint64_t extent = j->book.map.size / j->bs, last = UINT64_MAX, b;
	uint8_t *have = j->buf + j->bs;
	unsigned int k;

	*compared = 0;
	for (k = 0; k < 16; k++) {
		struct cdt_read_result rr = CDT_INIT(rr);

		b = first_read(j, extent * k / 16);
		if (b == UINT64_MAX)
			break;
		if (b == last)
			continue;
		last = b;
		*at = b;
		if (pread(j->fd, have, j->bs, (off_t)(b * j->bs)) != (ssize_t)j->bs)
			return 2;
		if (reader_read(&j->cooked, b, 1, j->buf, &rr))
			return CDT_ETRANSPORT;
		if (rr.cls == CDT_READ_CHANGED)
			return CDT_ECHANGED;
		/* a GOOD read with a residual was compared before SHORT had a class */
		if (rr.cls != CDT_READ_OK && rr.cls != CDT_READ_SHORT)
			continue;
		if (memcmp(j->buf, have, j->bs))
			return 1;
		(*compared)++;
	}
	return 0;
}

/* The blocks OUT holds read back the same. */
static int same_out(struct image_job *j)
{
	unsigned int compared;
	uint64_t at = 0;
	int rc = image_out_differs(j, &compared, &at);

	if (rc == 1 || rc == 2)
		cdt_dev_seterr(j->dev, "the medium changed: block %" PRIu64
			       " is not the one of the disc this run began with", at);
	else if (rc == CDT_ECHANGED)
		cdt_dev_seterr(j->dev, "the medium changed again while it was compared");
	if (rc == 1 || rc == 2)
		return CDT_ECHANGED;
	return rc;
}

int image_same_disc(struct image_job *j, uint8_t *buf, size_t cap)
{
	int rc;

	if (j->book.rec.id.n)
		return book_changed(&j->book, buf, cap);
	rc = same_sizes(j);
	return rc ? rc : same_out(j);
}

/*
 * The end search after the copy.  A medium change under it (cdtail-image(1),
 * Medium changes): with the same disc in the drive the search starts again,
 * from what the probe knew before it; with another one, or a drive whose
 * medium keeps changing, the run ends (exit 3, the map saved).
 */
#define SEARCH_STARTS 4

int image_search_after_copy(struct image_job *j, struct rescue *r)
{
	struct cdt_probe_result *p = j->res->sum.probe, before = *p;
	struct cdt_probe_opts po = CDT_INIT(po);
	int i, rc = 0;

	rescue_probe_opts(&j->opts->rd, &po);
	for (i = 0; i < SEARCH_STARTS; i++) {
		*p = before;
		rc = probe_end_above(j->dev, &j->found, &po, j->search_above, p);
		if (rc != CDT_ECHANGED)
			return rc;
		rc = image_same_disc(j, r->buf, (size_t)r->chunk * r->bs);
		if (rc)
			return rc;
	}
	cdt_dev_seterr(j->dev, "the medium changed %d times during the end search",
		       SEARCH_STARTS);
	return CDT_ECHANGED;
}

int image_changed(void *job, uint8_t *buf, size_t cap)
{
	return image_same_disc(job, buf, cap);
}
