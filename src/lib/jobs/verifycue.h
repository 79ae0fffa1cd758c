/* SPDX-License-Identifier: MIT */
/*
 * cdt_verify() with cue_path (verifycue.c): the disc read raw against the
 * .bin files of a CUE sheet, track by track.
 */
#ifndef CDT_VERIFYCUE_H
#define CDT_VERIFYCUE_H

#include "cdtail.h"

/*
 * Fills res as cdt_verify() does (sum, verdict, have_diff, first_diff_lba,
 * diff_blocks, length_differs, complete, extent_blocks) and res->tracks.
 * CDT_EFORMAT: the sheet does not parse or a FILE is too short for it;
 * CDT_EUSAGE: the sheet or a FILE cannot be opened, or cue_path is given
 * with an image or a digest; CDT_EINTR, or a device error.
 */
int rescue_verify_cue(struct cdt_dev *dev, const struct cdt_verify_opts *opts,
		      struct cdt_verify_result *res);

#endif
