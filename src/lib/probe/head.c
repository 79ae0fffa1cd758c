// SPDX-License-Identifier: MIT
/* Reading a head of volume descriptors past bad blocks (head.h). */
#include <string.h>
#include "core/cmds.h"
#include "probe/head.h"
#include "probe/findings.h"

/* A bad block of the head, while *fails allows: zeros, one allowance less. */
static bool pass_bad(uint8_t *block, uint32_t bs, unsigned int *fails)
{
	if (!*fails)
		return false;
	(*fails)--;
	memset(block, 0, bs);
	return true;
}

uint32_t probe_read_piece(struct cdt_dev *dev, struct probe_findings *pf,
			  uint64_t lba, uint32_t n, uint8_t *buf,
			  unsigned int *fails)
{
	struct cdt_read_result rr = CDT_INIT(rr);
	uint32_t bs = dev->block_size, i;

	if (probe_read_blocks(dev, pf, lba, n, buf, (size_t)n * bs, &rr))
		return 0;
	if (rr.cls == CDT_READ_OK || rr.cls == CDT_READ_SHORT)
		return n;
	if (rr.cls != CDT_READ_MEDIUM)
		return 0;
	if (n == 1)
		return pass_bad(buf, bs, fails) ? 1 : 0;
	for (i = 0; i < n; i++) {
		if (probe_read_blocks(dev, pf, lba + i, 1, buf + (size_t)i * bs, bs, &rr))
			return i;
		if (rr.cls != CDT_READ_OK && rr.cls != CDT_READ_SHORT &&
		    (rr.cls != CDT_READ_MEDIUM || !pass_bad(buf + (size_t)i * bs, bs, fails)))
			return i;
	}
	return n;
}
