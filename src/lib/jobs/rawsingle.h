/* SPDX-License-Identifier: MIT */
/*
 * image --raw --single-file (rawsingle.c): the one-FILE sheet, made from
 * the multi-file sheet raw_sheet() writes (rawplan.h), so every line it
 * has (REM, CATALOG, CD-TEXT, FLAGS, ISRC, INDEX nn) stays as it is but
 * for the FILE lines and the INDEX times.  Pure, over the text; what the
 * job asks of --single-file besides (OUT.bin's ranges, the sheet, the
 * names of OUT.hash's lines) rawjob.h declares and rawsingle.c holds too.
 */
#ifndef CDT_RAWSINGLE_H
#define CDT_RAWSINGLE_H

#include <stddef.h>
#include "jobs/rawplan.h"

/*
 * multi's lines with its first FILE line naming bin_name, the later FILE
 * lines left out, and every INDEX time after the k-th FILE line moved by
 * the stream start of p's file k (times on the whole stream).  Returns
 * the length it needed (as snprintf); out holds it when that is below cap.
 */
size_t raw_sheet_single(char *out, size_t cap, const char *multi,
			const struct raw_plan *p, const char *bin_name);

#endif
