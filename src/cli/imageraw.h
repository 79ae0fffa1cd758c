/* SPDX-License-Identifier: MIT */
/* image --raw: BIN/CUE (cdt_image_raw), the part of cmd_image.c apart. */
#ifndef CDT_IMAGERAW_H
#define CDT_IMAGERAW_H

#include "acqlog.h"
#include "readui.h"

/* --offset SAMPLES: 0 taken into ro, else EX_USAGE_ERR after the message. */
int image_raw_offset(const char *arg, struct cdt_raw_opts *ro);

/*
 * Run image --raw of addr to out (a .cue) on the open dev and append its
 * acquisition record to log (OUT.cue.log); the exit status.
 */
int image_raw_run(struct rui *ui, struct cdt_dev *dev, const char *addr,
		  const char *out, struct cdt_raw_opts *ro, struct acqlog *log);

#endif
