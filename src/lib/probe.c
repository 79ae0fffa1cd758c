// SPDX-License-Identifier: MIT
/* cdt_probe: identify, gather the size sources, run the end search. */
#include <stdlib.h>
#include <string.h>
#include "device.h"
#include "endsearch.h"

struct probe_reader {
	struct cdt_dev *dev;
	uint8_t *buf;
	uint32_t buf_blocks;
};

static int probe_read(void *ctx, uint64_t lba, uint32_t n,
		      struct es_outcome *out)
{
	struct probe_reader *r = ctx;
	struct cdt_read_result rr;
	int rc;

	if (n > r->buf_blocks)
		return CDT_EUSAGE;
	rc = cdt_read_blocks(r->dev, lba, n, r->buf, &rr);
	if (rc)
		return rc;
	out->cls = rr.cls;
	out->info_valid = rr.info_valid;
	out->info = rr.info;
	out->ms = rr.ms;
	if (rr.cls == CDT_READ_TIMEOUT)
		cdt_dev_seterr(r->dev, "READ at LBA %llu did not complete within the timeout",
			       (unsigned long long)lba);
	else if (rr.cls == CDT_READ_FATAL)
		cdt_dev_seterr(r->dev, "READ at LBA %llu failed: sense %02x/%02x/%02x",
			       (unsigned long long)lba, rr.sense_key, rr.asc, rr.ascq);
	return 0;
}

static void add_candidate(struct es_params *p, int64_t v)
{
	if (v > 0 && p->ncandidates < ES_MAX_CANDIDATES)
		p->candidates[p->ncandidates++] = (uint64_t)v;
}

static void fill_params(struct es_params *p, const struct cdt_sizes *sz,
			uint64_t max_extra, uint32_t max_read)
{
	memset(p, 0, sizeof(*p));
	p->reported = (uint64_t)sz->read_capacity;
	p->max_extra = max_extra ? max_extra : CDT_DEFAULT_MAX_EXTRA;
	/* the end search never needs big transfers to be correct */
	p->max_read_blocks = max_read;
	add_candidate(p, sz->toc_leadout);
	add_candidate(p, sz->track_end);
	add_candidate(p, sz->disc_leadout);
	add_candidate(p, sz->filesystem);
	add_candidate(p, sz->kernel);
}

static int run_search(struct cdt_dev *dev, const struct cdt_probe_opts *opts,
		      struct cdt_probe_result *res, struct es_result *er)
{
	struct probe_reader r = { .dev = dev };
	struct es_params p;
	int rc;

	r.buf_blocks = cdt_max_read_blocks(dev);
	r.buf = malloc((size_t)r.buf_blocks * dev->block_size);
	if (!r.buf)
		return CDT_ENOMEM;
	fill_params(&p, &res->sizes, opts ? opts->max_extra : 0, r.buf_blocks);
	dev->errmsg[0] = '\0';
	rc = es_find_end(&p, probe_read, &r, er);
	free(r.buf);
	if (rc && !dev->errmsg[0])
		cdt_dev_seterr(dev, "end search failed: %s", cdt_strerror(rc));
	return rc;
}

static void capacity_after(struct cdt_dev *dev, struct cdt_probe_result *res)
{
	uint64_t blocks;
	uint32_t bs;

	res->capacity_after = CDT_SIZE_ABSENT;
	if (cdt_dev_read_capacity(dev, &blocks, &bs))
		return;
	res->capacity_after = (int64_t)blocks;
	if (blocks != res->reported_blocks)
		res->notes |= CDT_NOTE_CAPACITY_CHANGED;
	/* the block size from before probing is the one the search used */
	dev->block_size = res->sizes.block_size;
}

static void judge(struct cdt_probe_result *res, const struct es_result *er)
{
	res->true_blocks = er->end;
	res->hidden_blocks = (int64_t)er->end - (int64_t)res->reported_blocks;
	res->extent_blocks = er->end;
	if (er->medium_end) {
		res->notes |= CDT_NOTE_TRAILING_MEDIUM;
		/* unreadable, not absent: an image must hold them, marked bad */
		if (res->reported_blocks > er->end)
			res->extent_blocks = res->reported_blocks;
	}
	if (er->window_limit)
		res->notes |= CDT_NOTE_WINDOW_LIMIT;
	if (er->nothing_readable)
		res->notes |= CDT_NOTE_NO_READABLE;
	if (res->hidden_blocks == -2)
		res->notes |= CDT_NOTE_TAO_RUNOUT;
	if (res->hidden_blocks > 0)
		res->verdict = CDT_VERDICT_HIDDEN_TAIL;
	else if (res->hidden_blocks < 0)
		res->verdict = CDT_VERDICT_SHORT;
	else
		res->verdict = CDT_VERDICT_OK;
	res->reads = er->reads;
	res->failed_reads = er->failed_reads;
	res->search_ms = er->ms;
}

int cdt_probe(struct cdt_dev *dev, const struct cdt_probe_opts *opts,
	      struct cdt_probe_result *res)
{
	struct es_result er;
	int rc;

	memset(res, 0, sizeof(*res));
	cdt_reset_stats(dev);
	rc = cdt_inquiry(dev, &res->inq);
	if (rc)
		return rc;
	rc = cdt_read_sizes(dev, &res->sizes);
	if (rc)
		return rc;
	res->reported_blocks = (uint64_t)res->sizes.read_capacity;
	rc = run_search(dev, opts, res, &er);
	if (rc)
		return rc;
	judge(res, &er);
	capacity_after(dev, res);
	cdt_get_stats(dev, &res->stats);
	return 0;
}
