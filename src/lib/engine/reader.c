// SPDX-License-Identifier: MIT
/*
 * The cooked reader (reader.h): READ(10)/(12)/(16) of n blocks as pieces
 * of at most the device's largest transfer, each one command through
 * cdt_read_blocks() (core/cmds.c: the answer table's class, the failed
 * reads the probe keeps, and the halving when a drive refuses a length
 * it said it takes).  The hook dispatches through the reader's own
 * implementation, which reader_init_raw (reader_raw.c) sets for raw reads.
 */
#include <string.h>
#include "core/device.h"
#include "engine/reader.h"

static uint32_t cooked_max(const struct reader *r);
static int read_cooked(struct reader *r, int64_t lba, uint32_t n, uint8_t *buf,
		       struct cdt_read_result *rr);

void reader_init(struct reader *r, struct cdt_dev *dev)
{
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->max = cooked_max;
	r->read_at = read_cooked;
}

/*
 * Whole blocks, re-asked before every piece: a read refused as too long
 * lowers the device's largest read mid-run (core/cmds.c read_smaller).
 */
static uint32_t cooked_max(const struct reader *r)
{
	return cdt_max_read_blocks(r->dev);
}

uint32_t reader_max_sectors(const struct reader *r)
{
	return r->max(r);
}

static int read_cooked(struct reader *r, int64_t lba, uint32_t n, uint8_t *buf,
		       struct cdt_read_result *rr)
{
	uint32_t bs = cdt_block_size(r->dev), done = 0;
	size_t size = rr->size;
	double ms = 0;
	int rc;

	if (lba < 0 || !n || !bs || (uint64_t)n * bs > UINT32_MAX) {
		cdt_dev_seterr(r->dev, "bad read: %u blocks of %u bytes", n, bs);
		return CDT_EUSAGE;
	}
	while (done < n) {
		struct cdt_read_result piece = CDT_INIT(piece);
		uint32_t k = n - done, max = cooked_max(r);

		if (k > max)
			k = max;
		rc = cdt_read_blocks(r->dev, (uint64_t)lba + done, k, buf + (size_t)done * bs,
				     (size_t)k * bs, &piece);
		if (rc)
			return rc;
		ms += piece.ms;
		if (piece.cls != CDT_READ_OK) {
			/*
			 * What did not arrive: a short piece's residual, a
			 * failed piece whole (whatever residual the transport
			 * left), and every piece after it.
			 */
			*rr = piece;
			rr->resid = (piece.cls == CDT_READ_SHORT ? piece.resid : k * bs) +
				    (n - done - k) * bs;
			rr->ms = ms;
			rr->size = size;
			return 0;
		}
		done += k;
	}
	memset(rr, 0, sizeof(*rr));
	rr->size = size;
	rr->cls = CDT_READ_OK;
	rr->ms = ms;
	return 0;
}

int reader_read(void *ctx, uint64_t lba, uint32_t n, uint8_t *buf,
		struct cdt_read_result *rr)
{
	struct reader *r = ctx;

	if (lba > INT64_MAX)
		return CDT_EUSAGE;
	return r->read_at(r, (int64_t)lba, n, buf, rr);
}
