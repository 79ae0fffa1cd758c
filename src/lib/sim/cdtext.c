// SPDX-License-Identifier: MIT
/*
 * READ TOC/PMA/ATIP format 5 (CD-TEXT) of the emulated drive: the packs
 * cd_text_build writes (cd/cdtext.h: one block, ISO 8859-1, English,
 * CRCs right, the TAB rule, the size information last) from the CUE
 * sheet's TITLE, PERFORMER, SONGWRITER, COMPOSER, ARRANGER and MESSAGE
 * lines (cd/cue.c keeps them), after the 4-byte header (MMC-5 6.26.3.7).
 * The sheet's text is taken as UTF-8: a character of ISO 8859-1 is
 * written as its one byte, any other byte as it stands.  A disc without
 * text answers the header alone (data length 2); a plain image, a DVD or
 * cdtext=refuse answer 05/24/00, as drives without CD-TEXT do (libcdio
 * and redumper take both for "no CD-TEXT").
 */
#include <stdlib.h>
#include <string.h>
#include "cd/cdtext.h"
#include "cd/cue.h"
#include "mmc/bytes.h"
#include "sim/drive.h"

/* 256 packs of a block after the header */
#define SIM_CD_TEXT_MAX (CD_TEXT_HEADER + 256 * CD_TEXT_PACK)

/* UTF-8 for U+0080..U+00FF as its ISO 8859-1 byte, into out (as long as s) */
static void to_latin1(const char *s, char *out)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		if ((p[0] == 0xc2 || p[0] == 0xc3) && (p[1] & 0xc0) == 0x80) {
			*out++ = (char)((p[0] & 0x03) << 6 | (p[1] & 0x3f));
			p += 2;
		} else {
			*out++ = (char)*p++;
		}
	}
	*out = '\0';
}

/* The sheet's text as the packs on the disc; their bytes, 0 for none. */
static size_t sheet_packs(const struct cue_sheet *c, uint8_t *out, size_t cap)
{
	const char *(*text)[CD_TEXT_FIELDS] = calloc(CUE_MAX_TRACKS + 1, sizeof(*text));
	char *copies[CUE_MAX_TRACKS + 1][CUE_TEXT_FIELDS] = { { 0 } };
	unsigned int n, f, last = c->n_tracks ? c->tracks[c->n_tracks - 1].number : 0;
	size_t len = 0;
	bool ok = text != NULL;

	for (n = 0; ok && n <= last; n++)
		for (f = 0; f < CUE_TEXT_FIELDS; f++) {
			if (!c->text[n][f])
				continue;
			copies[n][f] = malloc(strlen(c->text[n][f]) + 1);
			if (!copies[n][f]) {
				ok = false;
				continue;
			}
			to_latin1(c->text[n][f], copies[n][f]);
			text[n][f] = copies[n][f];
		}
	if (ok)
		len = cd_text_build(text, c->n_tracks ? c->tracks[0].number : 1, last,
				    out, cap);
	for (n = 0; n <= last; n++)
		for (f = 0; f < CUE_TEXT_FIELDS; f++)
			free(copies[n][f]);
	free(text);
	return len;
}

bool sim_has_cd_text(const struct sim *s)
{
	const struct cue_sheet *c = sim_cue_sheet(s);
	unsigned int n, f;

	if (!c || s->cfg.cdtext_refuse)
		return false;
	for (n = 0; n <= CUE_MAX_TRACKS; n++)
		for (f = 0; f < CUE_TEXT_FIELDS; f++)
			if (c->text[n][f])
				return true;
	return false;
}

void sim_read_cd_text(struct sim *s, struct cdt_cmd *cmd, struct sim_outcome *o)
{
	const struct cue_sheet *c = sim_cue_sheet(s);
	uint8_t *ans;
	size_t len;

	if (!c || s->cfg.cdtext_refuse || !sim_profile_is_cd(sim_profile(s))) {
		sim_invalid_field(o);
		return;
	}
	ans = calloc(1, SIM_CD_TEXT_MAX);
	if (!ans) {
		sim_check(o, SK_HARDWARE_ERROR, 0x44, 0);	/* internal target failure */
		return;
	}
	len = sheet_packs(c, ans + CD_TEXT_HEADER, SIM_CD_TEXT_MAX - CD_TEXT_HEADER);
	if (len > SIM_CD_TEXT_MAX - CD_TEXT_HEADER)
		len = 0;
	sg_put_unaligned_be16((uint16_t)(len + 2), ans);
	sim_put_answer(cmd, ans, CD_TEXT_HEADER + len, sg_get_unaligned_be16(cmd->cdb + 7));
	free(ans);
}
