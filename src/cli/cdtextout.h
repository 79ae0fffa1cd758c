/* SPDX-License-Identifier: MIT */
/* CD-TEXT in probe's and image --raw's reports (cdtextout.c). */
#ifndef CDT_CDTEXTOUT_H
#define CDT_CDTEXTOUT_H

#include "cli.h"

/*
 * "cd_text": null (none read: the drive refused it, or the disc has
 * none), or {"packs", "bad_crc", "blocks": [{"block", "language",
 * "language_name", "charset", "charset_code", "disc": {"title", ...},
 * "tracks": [{"number", "title", ...}]}]}, the fields present only where
 * the disc has them (cdtail-probe(1), cdtail-image(1)).
 */
json_object *cli_cd_text_json(const struct cdt_cd_text *t);
/* The "cd-text:" lines of the text report; nothing without text. */
void cli_cd_text_print(const struct cdt_cd_text *t);

#endif
