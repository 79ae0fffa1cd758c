// SPDX-License-Identifier: MIT
/*
 * READ SUB-CHANNEL (0x42) of the emulated drive: the Media Catalog Number
 * (data format 02h) and a track's ISRC (03h), from the CUE sheet's
 * CATALOG and ISRC lines (cd/cue.c keeps the well-formed ones); a disc
 * without them, and every plain image, answers with MCVAL / TCVAL clear.
 * The answer's bytes are written out here from MMC-5 6.29 (the layout in
 * mmc/subchan.h), not with the parser's help.  Format 01h (the current
 * position) is not emulated: 05/24/00, as other fields the drive does not
 * take.  readsub=refuse: 05/20/00, a drive without the command.
 */
#include <string.h>
#include "mmc/bytes.h"
#include "mmc/subchan.h"
#include "sim/drive.h"

/* MMC-5 table of the audio status codes: 15h, no current audio status */
#define SIM_NO_AUDIO_STATUS 0x15

static const struct sim_track *track_numbered(const struct sim *s, uint8_t n)
{
	uint32_t i;

	for (i = 0; i < s->n_tracks; i++)
		if (s->tracks[i].number == n)
			return &s->tracks[i];
	return NULL;
}

/* text of n characters, or none ("": the valid bit clear, zeros) */
static void put_text(uint8_t *ans, const char *text, size_t n)
{
	if (!*text)
		return;
	ans[8] = 0x80;
	memcpy(ans + 9, text, n);
}

void sim_do_read_subchannel(struct sim *s, struct cdt_cmd *cmd,
			    struct sim_outcome *o)
{
	const uint8_t *cdb = cmd->cdb;
	uint8_t format = cdb[3], ans[MMC_SUBCH_ANSWER_LEN] = { 0 };
	const struct sim_track *t = NULL;
	size_t len = sizeof(ans);

	if (s->cfg.readsub_refuse) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_INVALID_OPCODE, 0);
		return;
	}
	if (format == MMC_SUBCH_ISRC)
		t = track_numbered(s, cdb[6]);
	if ((format != MMC_SUBCH_MCN && format != MMC_SUBCH_ISRC) ||
	    (format == MMC_SUBCH_ISRC && !t)) {
		sim_invalid_field(o);
		return;
	}
	ans[1] = SIM_NO_AUDIO_STATUS;
	/* SubQ clear: the header alone (MMC-5 6.29.2.3) */
	if (!(cdb[2] & 0x40))
		len = 4;
	sg_put_unaligned_be16((uint16_t)(len - 4), ans + 2);
	ans[4] = format;
	if (format == MMC_SUBCH_MCN) {
		put_text(ans, s->catalog, MMC_MCN_LEN);
	} else {
		ans[5] = (uint8_t)(0x30 | sim_track_control(t));	/* ADR 3: ISRC */
		ans[6] = (uint8_t)t->number;
		put_text(ans, t->isrc, MMC_ISRC_LEN);
	}
	sim_put_answer(cmd, ans, len, sg_get_unaligned_be16(cdb + 7));
}
