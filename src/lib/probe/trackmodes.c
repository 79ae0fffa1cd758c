// SPDX-License-Identifier: MIT
/*
 * Raw sectors in the probe: see probe/trackmodes.h.  READ CD is tried on CDs
 * only (a DVD or BD has no raw sectors), at the first data track's start
 * (else track 1's), whatever GET CONFIGURATION declares, because firmware
 * and declarations disagree (redumper decides by executing commands).
 * What a READ(10) past the reported end returns is believed only when the
 * raw sector's header names the address asked: some firmware answers past
 * the lead-out with the last cached sector again (redumper's notes on the
 * PLEXTOR PX-740A), others with lead-out (Mode 0) sectors.
 */
#include <stdlib.h>
#include <string.h>
#include "core/cmds.h"
#include "core/rawcaps.h"
#include "probe/judge.h"
#include "probe/findings.h"
#include "probe/trackmodes.h"
#include "mmc/readcd.h"
#include "cd/sector.h"

#define CONFIRM_CHUNK 16

const char *cdt_sector_mode_name(enum cdt_sector_mode m)
{
	static const char *const names[] = {
		[CDT_SECTOR_UNKNOWN] = "", [CDT_SECTOR_MODE1] = "mode1",
		[CDT_SECTOR_MODE2] = "mode2", [CDT_SECTOR_MODE2_FORM1] = "mode2-form1",
		[CDT_SECTOR_MODE2_FORM2] = "mode2-form2", [CDT_SECTOR_AUDIO] = "audio",
	};

	return (unsigned int)m < sizeof(names) / sizeof(names[0]) ? names[m] : "";
}

static enum cdt_sector_mode mode_of(const uint8_t *s, int64_t lba)
{
	struct cd_sector_info info;

	if (cd_sector_parse(s, CD_RAW, &info))
		return CDT_SECTOR_UNKNOWN;
	if (info.kind == CD_SECTOR_NONE)
		return CDT_SECTOR_AUDIO;
	/* a header naming another block is not this track's sector */
	if (!info.bcd_ok || info.lba != lba)
		return CDT_SECTOR_UNKNOWN;
	switch (info.kind) {
	case CD_SECTOR_MODE1:
		return CDT_SECTOR_MODE1;
	case CD_SECTOR_MODE2:
		return CDT_SECTOR_MODE2;
	case CD_SECTOR_FORM1:
		return CDT_SECTOR_MODE2_FORM1;
	case CD_SECTOR_FORM2:
		return CDT_SECTOR_MODE2_FORM2;
	default:
		return CDT_SECTOR_UNKNOWN;
	}
}

/* n raw 2352-byte sectors from lba into buf; 0, or what the command gave. */
static int read_raw(struct cdt_dev *dev, int64_t lba, uint32_t n, uint8_t *buf)
{
	struct mmc_read_cd rq = { .type = MMC_ST_ANY, .fields = MMC_RCD_RAW };
	struct cdt_sense sense;
	struct cdt_cmd cmd;
	int rc = cdt_cmd_read_cd(dev, lba, n, &rq, buf, n * CD_RAW, &cmd, &sense);

	if (!rc && cmd.resid)
		rc = CDT_ETRANSPORT;	/* a short answer: nothing to trust */
	return rc;
}

static void track_modes(struct cdt_dev *dev, struct cdt_layout *l)
{
	uint8_t buf[CD_RAW];
	size_t i;

	for (i = 0; i < l->n_tracks; i++) {
		struct cdt_track *t = &l->tracks[i];

		if (!read_raw(dev, (int64_t)t->start, 1, buf))
			t->sector_mode = mode_of(buf, (int64_t)t->start);
	}
}

static int64_t try_at(const struct cdt_layout *l)
{
	size_t i;

	for (i = 0; l && i < l->n_tracks; i++)
		if (l->tracks[i].mode == CDT_TRACK_DATA)
			return (int64_t)l->tracks[i].start;
	return l && l->n_tracks ? (int64_t)l->tracks[0].start : 0;
}

/*
 * The disc's CD-TEXT (cdt_read_cd_text: READ TOC format 5), on a CD with
 * an audio track (CD-TEXT is the Red Book's, for audio): kept in pf where
 * a block holds text, for probe's report, image --raw's sheet and
 * cdt_dev_cd_text().  A refusal is no CD-TEXT, never an error.
 */
static void probe_cd_text(struct cdt_dev *dev, struct probe_findings *pf)
{
	struct cdt_cd_text *t;
	size_t i;

	cdt_cd_text_free(pf->cd_text);
	free(pf->cd_text);
	pf->cd_text = NULL;
	for (i = 0; pf->layout && i < pf->layout->n_tracks; i++)
		if (pf->layout->tracks[i].mode == CDT_TRACK_AUDIO)
			break;
	if (!pf->layout || i == pf->layout->n_tracks)
		return;
	t = calloc(1, sizeof(*t));
	if (!t)
		return;
	t->size = sizeof(*t);
	if (!cdt_read_cd_text(dev, t) && t->n_blocks) {
		pf->cd_text = t;
		return;
	}
	cdt_cd_text_free(t);
	free(t);
}

void probe_raw(struct cdt_dev *dev, struct probe_findings *pf,
	       struct cdt_probe_result *res)
{
	memset(&res->raw, 0, sizeof(res->raw));
	res->raw.size = sizeof(res->raw);
	res->raw.tried_lba = CDT_SIZE_ABSENT;
	if (probe_cd_profile(res->sizes.profile)) {
		raw_caps_declared(dev, &res->raw);
		raw_caps_try(dev, try_at(pf->layout), &res->raw);
		if (res->raw.sectors && pf->layout)
			track_modes(dev, pf->layout);
		probe_cd_text(dev, pf);
	}
	pf->raw = res->raw;
}

enum cdt_sector_mode probe_raw_tried_mode(const struct cdt_layout *l, int64_t lba)
{
	size_t i;

	for (i = 0; l && i < l->n_tracks; i++)
		if ((int64_t)l->tracks[i].start == lba)
			return l->tracks[i].sector_mode;
	return CDT_SECTOR_UNKNOWN;
}

bool probe_raw_witnesses(const struct cdt_raw_caps *raw, const struct cdt_layout *l)
{
	enum cdt_sector_mode m = probe_raw_tried_mode(l, raw->tried_lba);

	return raw->sectors &&
	       (raw->edc_ok || m == CDT_SECTOR_MODE2 || m == CDT_SECTOR_MODE2_FORM2);
}

bool probe_raw_trusted(const struct cdt_raw_caps *raw, const struct cdt_layout *l)
{
	enum cdt_sector_mode m = probe_raw_tried_mode(l, raw->tried_lba);

	return raw->sectors &&
	       (raw->edc_ok || (m != CDT_SECTOR_MODE1 && m != CDT_SECTOR_MODE2_FORM1));
}

bool probe_raw_confirm(struct cdt_dev *dev, uint64_t lba, uint32_t n,
		       uint64_t *first)
{
	uint8_t *buf = malloc(CONFIRM_CHUNK * CD_RAW);
	uint32_t done = 0;
	bool ok = buf != NULL;

	*first = lba;
	while (ok && done < n) {
		uint32_t k = n - done < CONFIRM_CHUNK ? n - done : CONFIRM_CHUNK;
		uint32_t j;

		if (read_raw(dev, (int64_t)(lba + done), k, buf)) {
			*first = lba + done;
			ok = false;
			break;
		}
		for (j = 0; j < k; j++) {
			enum cdt_sector_mode m = mode_of(buf + (size_t)j * CD_RAW,
							 (int64_t)(lba + done + j));

			if (m == CDT_SECTOR_UNKNOWN || m == CDT_SECTOR_AUDIO) {
				*first = lba + done + j;
				ok = false;
				break;
			}
		}
		done += k;
	}
	free(buf);
	return ok;
}
