/* SPDX-License-Identifier: MIT */
/*
 * verify --cue of an image --raw --subchannel (verifysub.c): OUT.sub
 * beside the sheet (its name with .sub for .cue), record k the P-W of
 * stream sector k, the sheet's tracks' FILE sectors one after another
 * (CloneCD's layout, cd/subpw.h), compared with the P-W the disc gives in
 * the same READ CD as its main channel.
 */
#ifndef CDT_VERIFYSUB_H
#define CDT_VERIFYSUB_H

#include <stdbool.h>
#include <stdint.h>
#include "cdtail.h"

struct cue_sub {
	int fd;			/* OUT.sub, or -1: none beside the sheet */
	bool checked;		/* the drive gives raw P-W: compared */
	uint32_t chunk;		/* sectors of a step */
	uint8_t *disc;		/* chunk raw P-W records of the step, as read */
	uint8_t *file;		/* one record of OUT.sub */
	uint64_t *start;	/* per sheet track: its first record */
};

/*
 * OUT.sub of cue_path opened where it exists (res->sub_file set, the
 * per-track arrays made), checked when drive_pw (else res says it was
 * not, and nothing is compared).  0, CDT_ENOMEM, or CDT_EIO naming it.
 */
int cue_sub_open(struct cue_sub *s, struct cdt_dev *dev, const char *cue_path,
		 bool drive_pw, uint32_t chunk, size_t n_tracks,
		 struct cdt_verify_result *res);

/*
 * The records of the sheet's tracks, sectors[i] each: their starts, and
 * whether OUT.sub holds exactly them (res->sub_length_differs).
 */
int cue_sub_layout(struct cue_sub *s, const uint64_t *sectors, size_t n,
		   struct cdt_verify_result *res);

/*
 * Where the reader puts the raw P-W of n sectors read at the step's index
 * at (NULL when not compared or past the step).
 */
uint8_t *cue_sub_disc(struct cue_sub *s, uint64_t at, uint32_t n);

/*
 * Sector x of sheet track i, read at lba, its raw P-W the step's index at:
 * *differs when OUT.sub's record is not the disc's (counted in res).
 * Q that fails its CRC on either side is not compared (read noise of the
 * one channel without error correction); P and R-W are.
 */
int cue_sub_compare(struct cue_sub *s, size_t i, uint64_t x, uint32_t at,
		    int64_t lba, struct cdt_verify_result *res, bool *differs);

void cue_sub_close(struct cue_sub *s);
void cue_sub_result_free(struct cdt_verify_result *res);

#endif
