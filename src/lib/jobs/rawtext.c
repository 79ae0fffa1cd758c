// SPDX-License-Identifier: MIT
/*
 * image --raw's CD-TEXT (rawjob.h): read once before the sheet is
 * written, through cdt_read_cd_text (core/cdtextread.c); the first block
 * (the lowest number, as redumper's default cd_text_index 0) is what the
 * sheet's TITLE .. MESSAGE lines give, every block is in the result (the
 * CLI's JSON).  A drive that refuses READ TOC format 5 or a disc without
 * CD-TEXT leaves the sheet as it was.
 */
#include <stdlib.h>
#include "jobs/rawjob.h"

int raw_read_text(struct raw_job *j)
{
	struct cdt_cd_text *t = calloc(1, sizeof(*t));
	int rc;

	if (!t)
		return CDT_ENOMEM;
	t->size = sizeof(*t);
	rc = cdt_read_cd_text(j->dev, t);
	if (rc) {
		cdt_cd_text_free(t);
		free(t);
		return rc;	/* out of memory, or interrupted */
	}
	if (!t->n_blocks) {
		cdt_cd_text_free(t);
		free(t);
		return 0;
	}
	j->res->cd_text = t;
	j->plan.text = &t->blocks[0];
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
