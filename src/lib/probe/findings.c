// SPDX-License-Identifier: MIT
/*
 * What a probe found (probe.h, struct probe_findings): its memory, the
 * failed reads noted where the probe reads, and the copy the handle keeps
 * for the public cdt_dev_layout().
 */
#include <stdlib.h>
#include <string.h>
#include "core/device.h"
#include "probe/findings.h"

void probe_findings_free(struct probe_findings *pf)
{
	if (!pf)
		return;
	cdt_layout_free(pf->layout);
	cdt_cd_text_free(pf->cd_text);
	free(pf->cd_text);
	memset(pf, 0, sizeof(*pf));
}

int probe_read_blocks(struct cdt_dev *dev, struct probe_findings *pf,
		      uint64_t lba, uint32_t n, void *buf, size_t buf_len,
		      struct cdt_read_result *rr)
{
	int rc = cdt_read_blocks(dev, lba, n, buf, buf_len, rr);

	if (!rc && pf && rr->cls == CDT_READ_MEDIUM && pf->n_failed < PROBE_FAILED_MAX)
		pf->failed[pf->n_failed++] = (struct probe_failed_read){ lba, n };
	return rc;
}

void probe_publish(struct cdt_dev *dev, const struct probe_findings *pf)
{
	cdt_dev_keep_layout(dev, pf ? cdt_layout_copy(pf->layout) : NULL);
	cdt_dev_keep_cd_text(dev, pf ? cdt_cd_text_copy(pf->cd_text) : NULL);
}
