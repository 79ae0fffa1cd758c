// SPDX-License-Identifier: MIT
/*
 * image --raw's CD-TEXT (rawjob.h): what the job's probe read (probe_raw,
 * cdt_read_cd_text in core/cdtextread.c), before the sheet is written;
 * the first block
 * (the lowest number, as redumper's default cd_text_index 0) is what the
 * sheet's TITLE .. MESSAGE lines give, every block is in the result (the
 * CLI's JSON).  A drive that refuses READ TOC format 5 or a disc without
 * CD-TEXT leaves the sheet as it was.
 */
#include <stdlib.h>
#include "probe/findings.h"
#include "jobs/rawjob.h"

int raw_read_text(struct raw_job *j)
{
	/* the probe of the job read it: taken over, not read again */
	if (!j->found.cd_text || !j->found.cd_text->n_blocks)
		return 0;
	j->res->cd_text = j->found.cd_text;
	j->found.cd_text = NULL;
	j->plan.text = &j->res->cd_text->blocks[0];
	return 0;
}

void raw_text_free(struct cdt_raw_result *res)
{
	if (!res->cd_text)
		return;
	cdt_cd_text_free(res->cd_text);
	free(res->cd_text);
	res->cd_text = NULL;
}
