/* SPDX-License-Identifier: MIT */
/*
 * The filesystem's declared end, read once where the --max-extra window
 * ended the search short of it (probe/fsend.c).
 */
#ifndef CDT_PROBE_FSEND_H
#define CDT_PROBE_FSEND_H

#include "cdtail.h"
#include "probe/findings.h"

/*
 * After a search the window stopped (CDT_NOTE_WINDOW_LIMIT) below the
 * filesystem's declared size: read the filesystem's last block, once, and
 * set res->fs_end_read (1 it read: the files are on the disc, the true
 * end lies past the window; 0 it did not).  -1 where not tried (no window
 * limit, no filesystem past the end).  Returns 0 or the read's error
 * (a timeout, a stop, a medium change are the caller's as ever).
 */
int probe_fs_end(struct cdt_dev *dev, struct probe_findings *pf,
		 struct cdt_probe_result *res);

#endif
