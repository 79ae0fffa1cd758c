// SPDX-License-Identifier: MIT
/* What the jobs share around the disc they read (job.h). */
#include <stdlib.h>
#include "core/device.h"
#include "probe/probe.h"
#include "jobs/job.h"

int rescue_summary_start(struct cdt_read_summary *sum)
{
	sum->size = sizeof(*sum);
	sum->stats.size = sizeof(sum->stats);
	sum->probe = calloc(1, sizeof(*sum->probe));
	if (!sum->probe)
		return CDT_ENOMEM;
	sum->probe->size = sizeof(*sum->probe);
	return 0;
}

void rescue_summary_free(struct cdt_read_summary *sum)
{
	free(sum->probe);
	sum->probe = NULL;
	free(sum->bad);
	sum->bad = NULL;
	sum->n_bad = 0;
}

void rescue_probe_opts(const struct cdt_read_opts *rd, struct cdt_probe_opts *po)
{
	po->max_extra = rd ? rd->max_extra : 0;
	po->progress = rd ? rd->progress : NULL;
	po->progress_ctx = rd ? rd->progress_ctx : NULL;
	po->stop = rd ? rd->stop : NULL;
}

static int probe_job(struct cdt_dev *dev, const struct cdt_read_opts *rd,
		     bool raw, struct cdt_read_summary *sum,
		     struct probe_findings *pf)
{
	struct cdt_probe_opts po = CDT_INIT(po);
	int rc;

	rescue_probe_opts(rd, &po);
	sum->size = sizeof(*sum);
	sum->stats.size = sizeof(sum->stats);
	rc = probe_whole(dev, pf, &po, raw, sum->probe);
	if (rc)
		return rc;
	sum->block_size = sum->probe->sizes.block_size;
	if (!sum->block_size) {
		cdt_dev_seterr(dev, "the drive reported a block size of 0");
		return CDT_ETRANSPORT;
	}
	return 0;
}

int rescue_probe(struct cdt_dev *dev, const struct cdt_read_opts *rd,
		 struct cdt_read_summary *sum, struct probe_findings *pf)
{
	return probe_job(dev, rd, false, sum, pf);
}

int rescue_probe_raw(struct cdt_dev *dev, const struct cdt_read_opts *rd,
		     struct cdt_read_summary *sum, struct probe_findings *pf)
{
	return probe_job(dev, rd, true, sum, pf);
}

/* Tried and failed; untried blocks of an interrupted run are not bad. */
static bool is_failed(char status)
{
	return status == MAP_BAD || status == MAP_NONTRIMMED ||
	       status == MAP_NONSCRAPED;
}

int rescue_bad_ranges(const struct cdt_map *map, uint32_t bs,
		      struct cdt_read_summary *sum)
{
	size_t i, n = 0;

	free(sum->bad);
	sum->bad = NULL;
	sum->n_bad = 0;
	sum->bad_blocks = 0;
	for (i = 0; i < map->n; i++)
		n += is_failed(map->runs[i].status);
	if (!n)
		return 0;
	sum->bad = calloc(n, sizeof(*sum->bad));
	if (!sum->bad)
		return CDT_ENOMEM;
	for (i = 0; i < map->n; i++) {
		const struct map_run *run = &map->runs[i];

		if (!is_failed(run->status))
			continue;
		sum->bad[sum->n_bad].first = run->pos / bs;
		sum->bad[sum->n_bad].last = (run->pos + run->size) / bs - 1;
		sum->bad_blocks += run->size / bs;
		sum->n_bad++;
	}
	return 0;
}

