// SPDX-License-Identifier: MIT
/*
 * The --max-extra window bounds the end search; a filesystem may declare
 * more than the window's edge.  Judged from the edge alone, it would be a
 * filesystem past the disc's end ("the files stored there are not on the
 * disc") beside a search that never looked there.  One read of the
 * filesystem's last block settles it (issue 35, 6): it reads, and the
 * files are there (the true end lies past the window: a larger
 * --max-extra finds it), or it does not, and the filesystem does claim
 * more than the disc gives up to there.
 */
#include <stdlib.h>
#include "core/device.h"
#include "probe/fsend.h"

int probe_fs_end(struct cdt_dev *dev, struct probe_findings *pf,
		 struct cdt_probe_result *res)
{
	int64_t fs = res->sizes.filesystem;
	struct cdt_read_result rr = CDT_INIT(rr);
	uint32_t bs = dev->block_size;
	uint8_t *buf;
	int rc;

	res->fs_end_read = -1;
	if (!(res->notes & CDT_NOTE_WINDOW_LIMIT) || fs <= 0 ||
	    (uint64_t)fs <= res->true_blocks || !bs)
		return 0;
	buf = malloc(bs);
	if (!buf)
		return CDT_ENOMEM;
	rc = probe_read_blocks(dev, pf, (uint64_t)fs - 1, 1, buf, bs, &rr);
	free(buf);
	/* a timeout settles nothing: not tried, as far as the result says */
	if (!rc && rr.cls != CDT_READ_TIMEOUT)
		res->fs_end_read = rr.cls == CDT_READ_OK;
	return rc;
}
