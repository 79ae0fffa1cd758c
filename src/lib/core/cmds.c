// SPDX-License-Identifier: MIT
/*
 * One function per command (see core/cmds.h), and the public calls that
 * are one command each: cdt_read_blocks(), cdt_inquiry().
 */
#include <string.h>
#include "core/abi.h"
#include "core/cmds.h"
#include "mmc/mmc.h"
#include "mmc/structure.h"
#include "mmc/subchan.h"

int cdt_cmd_test_unit_ready(struct cdt_dev *dev, struct cdt_sense *sense)
{
	uint8_t cdb[16];

	return cdt_dev_simple(dev, cdb, mmc_cdb_test_unit_ready(cdb), NULL, 0,
			      NULL, sense);
}

static int read_capacity16(struct cdt_dev *dev, uint64_t *last,
			   uint32_t *block_len, struct cdt_sense *sense)
{
	uint8_t cdb[16], buf[32];
	uint32_t got = 0;
	int rc;

	rc = cdt_dev_simple(dev, cdb, mmc_cdb_read_capacity16(cdb, sizeof(buf)),
			    buf, sizeof(buf), &got, sense);
	if (rc)
		return rc;
	if (mmc_parse_read_capacity16(buf, got, last, block_len)) {
		cdt_dev_seterr(dev, "READ CAPACITY(16) answer too short");
		return CDT_ETRANSPORT;
	}
	return 0;
}

int cdt_cmd_read_capacity(struct cdt_dev *dev, uint64_t *blocks,
			  uint32_t *block_len, struct cdt_sense *sense)
{
	uint8_t cdb[16], buf[8];
	uint32_t got = 0, last32 = 0, bs = 0;
	struct cdt_sense local;
	uint64_t last;
	int rc;

	if (!sense)
		sense = &local;
	rc = cdt_dev_simple(dev, cdb, mmc_cdb_read_capacity10(cdb), buf,
			    sizeof(buf), &got, sense);
	if (rc == CDT_ECHECK && answer_is_invalid_opcode(sense))
		rc = read_capacity16(dev, &last, &bs, sense);
	else if (!rc && mmc_parse_read_capacity10(buf, got, &last32, &bs)) {
		cdt_dev_seterr(dev, "READ CAPACITY answer too short (%u bytes)", got);
		rc = CDT_ETRANSPORT;
	} else if (!rc) {
		last = last32;
		/* the 10-byte form saturates; ask the 16-byte one */
		if (last32 == 0xffffffffu)
			rc = read_capacity16(dev, &last, &bs, sense);
	}
	if (rc)
		return rc;
	*blocks = last + 1;
	*block_len = bs;
	return 0;
}

int cdt_cmd_read(struct cdt_dev *dev, uint64_t lba, uint32_t nblocks,
		 void *buf, uint32_t len, struct cdt_cmd *cmd,
		 struct cdt_sense *sense)
{
	memset(cmd, 0, sizeof(*cmd));
	if (lba > 0xffffffffull)
		cmd->cdb_len = mmc_cdb_read16(cmd->cdb, lba, nblocks);
	else if (nblocks > 0xffff)
		cmd->cdb_len = mmc_cdb_read12(cmd->cdb, (uint32_t)lba, nblocks);
	else
		cmd->cdb_len = mmc_cdb_read10(cmd->cdb, (uint32_t)lba,
					      (uint16_t)nblocks);
	cmd->data = buf;
	cmd->data_len = len;
	return cdt_dev_exec(dev, cmd, sense);
}

static int read_cd(struct cdt_dev *dev, bool msf, int64_t lba, uint32_t nblocks,
		   const struct mmc_read_cd *rq, void *buf, uint32_t len,
		   struct cdt_cmd *cmd, struct cdt_sense *sense)
{
	memset(cmd, 0, sizeof(*cmd));
	if (lba < INT32_MIN || lba > INT32_MAX || nblocks > 0xffffff) {
		cdt_dev_seterr(dev, "READ CD of %u blocks at %lld: out of its fields",
			       nblocks, (long long)lba);
		return CDT_EUSAGE;
	}
	cmd->cdb_len = msf ? mmc_cdb_read_cd_msf(cmd->cdb, (int32_t)lba, nblocks, rq) :
			     mmc_cdb_read_cd(cmd->cdb, (int32_t)lba, nblocks, rq);
	cmd->data = buf;
	cmd->data_len = len;
	return cdt_dev_exec(dev, cmd, sense);
}

int cdt_cmd_read_cd(struct cdt_dev *dev, int64_t lba, uint32_t nblocks,
		    const struct mmc_read_cd *rq, void *buf, uint32_t len,
		    struct cdt_cmd *cmd, struct cdt_sense *sense)
{
	return read_cd(dev, false, lba, nblocks, rq, buf, len, cmd, sense);
}

int cdt_cmd_read_cd_msf(struct cdt_dev *dev, int64_t lba, uint32_t nblocks,
			const struct mmc_read_cd *rq, void *buf, uint32_t len,
			struct cdt_cmd *cmd, struct cdt_sense *sense)
{
	return read_cd(dev, true, lba, nblocks, rq, buf, len, cmd, sense);
}

int cdt_cmd_read_toc(struct cdt_dev *dev, uint8_t format, bool msf,
		     uint8_t track, void *buf, uint16_t alloc, uint32_t *got)
{
	uint8_t cdb[16];

	return cdt_dev_simple(dev, cdb,
			      mmc_cdb_read_toc(cdb, format, msf, track, alloc),
			      buf, alloc, got, NULL);
}

int cdt_cmd_read_full_toc(struct cdt_dev *dev, void *buf, uint16_t alloc,
			  uint32_t *got)
{
	return cdt_cmd_read_toc(dev, 2, true, 1, buf, alloc, got);
}

int cdt_cmd_read_cd_text(struct cdt_dev *dev, void *buf, uint16_t alloc, uint32_t *got)
{
	return cdt_cmd_read_toc(dev, 5, false, 0, buf, alloc, got);
}

int cdt_cmd_read_disc_info(struct cdt_dev *dev, void *buf, uint16_t alloc,
			   uint32_t *got)
{
	uint8_t cdb[16];

	return cdt_dev_simple(dev, cdb, mmc_cdb_read_disc_info(cdb, alloc), buf,
			      alloc, got, NULL);
}

int cdt_cmd_read_track_info(struct cdt_dev *dev, uint32_t track, void *buf,
			    uint16_t alloc, uint32_t *got)
{
	uint8_t cdb[16];

	return cdt_dev_simple(dev, cdb, mmc_cdb_read_track_info(cdb, track, alloc),
			      buf, alloc, got, NULL);
}

int cdt_cmd_read_disc_structure(struct cdt_dev *dev, uint8_t media_type,
				uint8_t layer, uint8_t format, void *buf,
				uint16_t alloc, uint32_t *got)
{
	uint8_t cdb[16];

	return cdt_dev_simple(dev, cdb,
			      mmc_cdb_read_disc_structure(cdb, media_type, layer, format, alloc),
			      buf, alloc, got, NULL);
}

int cdt_cmd_get_configuration(struct cdt_dev *dev, uint8_t rt, uint16_t start,
			      void *buf, uint16_t alloc, uint32_t *got)
{
	uint8_t cdb[16];

	return cdt_dev_simple(dev, cdb,
			      mmc_cdb_get_configuration(cdb, rt, start, alloc),
			      buf, alloc, got, NULL);
}

int cdt_cmd_read_subchannel(struct cdt_dev *dev, uint8_t format, uint8_t track,
			    void *buf, uint16_t alloc, uint32_t *got,
			    struct cdt_sense *sense)
{
	uint8_t cdb[16];

	return cdt_dev_simple(dev, cdb, mmc_cdb_read_subchannel(cdb, format, track, alloc),
			      buf, alloc, got, sense);
}

int cdt_cmd_mode_sense10(struct cdt_dev *dev, uint8_t page, void *buf,
			 uint16_t alloc, uint32_t *got, struct cdt_sense *sense)
{
	uint8_t cdb[16];

	return cdt_dev_simple(dev, cdb, mmc_cdb_mode_sense10(cdb, page, alloc),
			      buf, alloc, got, sense);
}

/* ---- the public one-command calls ---------------------------------------- */

int cdt_inquiry(struct cdt_dev *dev, struct cdt_inquiry *inq)
{
	struct cdt_inquiry full;
	struct mmc_inquiry mi;
	int rc;

	rc = cdt_abi_res(dev, inq, &full, sizeof(full), "struct cdt_inquiry");
	if (rc)
		return rc;
	rc = cdt_dev_inquiry(dev, &mi);
	if (!rc) {
		full.peripheral_type = mi.peripheral_type;
		full.removable = mi.removable;
		memcpy(full.vendor, mi.vendor, sizeof(full.vendor));
		memcpy(full.product, mi.product, sizeof(full.product));
		memcpy(full.revision, mi.revision, sizeof(full.revision));
	}
	cdt_abi_out(inq, &full, sizeof(full));
	return rc;
}

/*
 * A read's outcome as the engines see it: the table's action
 * (mmc/answer.c) in the public class.  A block-level failure of any kind
 * is MEDIUM: the block is bad; 05/64/xx is WRONG_MODE, where the disc's
 * structure decides; GOOD with a residual is SHORT (read_answer), the
 * residual saying how much did not arrive.
 */
static enum cdt_read_class read_class(enum cdt_action a)
{
	switch (a) {
	case CDT_ACT_OK:
		return CDT_READ_OK;
	case CDT_ACT_SHORT:
		return CDT_READ_SHORT;
	case CDT_ACT_END:
		return CDT_READ_END;
	case CDT_ACT_WRONG_MODE:
		return CDT_READ_WRONG_MODE;
	case CDT_ACT_PROTECTED:
		return CDT_READ_PROTECTED;
	case CDT_ACT_BAD_BLOCK:
		return CDT_READ_MEDIUM;
	case CDT_ACT_TIMEOUT:
		return CDT_READ_TIMEOUT;
	case CDT_ACT_CHANGED:
		return CDT_READ_CHANGED;
	default:
		return CDT_READ_FATAL;
	}
}

/* Actions that end the read call itself: the run cannot go on. */
static bool read_stops(enum cdt_action a)
{
	return a == CDT_ACT_NO_MEDIUM || a == CDT_ACT_DEVICE_GONE ||
	       a == CDT_ACT_INTERRUPTED;
}

static int check_read_args(struct cdt_dev *dev, uint32_t nblocks,
			   const void *buf, size_t buf_len)
{
	uint64_t bytes = (uint64_t)nblocks * dev->block_size;

	if (!dev->block_size) {
		cdt_dev_seterr(dev, "the block size is not known yet: cdt_read_sizes() or cdt_probe() first");
		return CDT_EUSAGE;
	}
	if (!nblocks || bytes > 0xffffffffull) {
		cdt_dev_seterr(dev, "bad read size: %u blocks", nblocks);
		return CDT_EUSAGE;
	}
	if (!buf || buf_len < bytes) {
		cdt_dev_seterr(dev, "read of %u blocks needs %llu bytes, the buffer holds %zu",
			       nblocks, (unsigned long long)bytes, buf ? buf_len : 0);
		return CDT_EUSAGE;
	}
	return 0;
}

/* A read command's answer (rc, cmd, sense; bytes asked for) into res. */
static int read_answer(struct cdt_dev *dev, int rc, const struct cdt_cmd *cmd,
		       const struct cdt_sense *sense, uint32_t bytes,
		       struct cdt_read_result *res)
{
	dev->stats.reads++;
	res->ms += cmd->ms;
	res->resid = cmd->resid > bytes ? bytes : cmd->resid;
	res->cls = read_class(dev->last_action);
	/* the table's SHORT and OK differ by the residual the caller capped */
	if (res->cls == CDT_READ_SHORT && !res->resid)
		res->cls = CDT_READ_OK;
	else if (res->cls == CDT_READ_OK && res->resid)
		res->cls = CDT_READ_SHORT;
	if (rc == 0 && res->resid == 0)
		return 0;
	dev->stats.failed_reads++;
	if (read_stops(dev->last_action) ||
	    (rc && rc != CDT_ECHECK && rc != CDT_ETIMEOUT &&
	     dev->last_action == CDT_ACT_REFUSED))
		return rc ? rc : CDT_ETRANSPORT;
	res->sense_key = sense->key;
	res->asc = sense->asc;
	res->ascq = sense->ascq;
	res->info_valid = sense->info_valid;
	res->info = sense->info;
	return 0;
}

int cdt_read_cd_blocks(struct cdt_dev *dev, int64_t lba, uint32_t nblocks,
		       const struct mmc_read_cd *rq, void *buf, uint32_t len,
		       struct cdt_read_result *res)
{
	struct cdt_sense sense;
	struct cdt_cmd cmd;
	int rc;

	memset(&sense, 0, sizeof(sense));
	rc = cdt_cmd_read_cd(dev, lba, nblocks, rq, buf, len, &cmd, &sense);
	return read_answer(dev, rc, &cmd, &sense, len, res);
}

/* One READ command, its answer into res. */
static int read_once(struct cdt_dev *dev, uint64_t lba, uint32_t nblocks,
		     uint8_t *buf, struct cdt_read_result *res)
{
	uint32_t bytes = nblocks * dev->block_size;
	struct cdt_sense sense;
	struct cdt_cmd cmd;
	int rc;

	rc = cdt_cmd_read(dev, lba, nblocks, buf, bytes, &cmd, &sense);
	return read_answer(dev, rc, &cmd, &sense, bytes, res);
}

/*
 * The span in pieces of at most max blocks, halving the device's largest
 * read (and max) while it refuses a piece as too long.  The pieces'
 * answers sum into res, up to the first piece that does not arrive whole.
 */
static int read_pieces(struct cdt_dev *dev, uint64_t lba, uint32_t nblocks,
		       uint8_t *buf, struct cdt_read_result *res, uint32_t max)
{
	uint32_t bs = dev->block_size, done = 0;
	int rc;

	while (done < nblocks) {
		uint32_t n = nblocks - done;
		struct cdt_read_result piece = { .size = res->size };

		if (n > max)
			n = max;
		rc = read_once(dev, lba + done, n, buf + (size_t)done * bs, &piece);
		res->ms += piece.ms;
		if (!rc && dev->last_action == CDT_ACT_TOO_LONG && n > 1) {
			max = dev->max_blocks = n / 2;
			continue;
		}
		piece.ms = res->ms;
		*res = piece;
		if (rc || piece.cls != CDT_READ_OK) {
			res->resid = (nblocks - done - n) * bs + piece.resid;
			return rc;
		}
		done += n;
	}
	return 0;
}

/*
 * The device said the transfer is too long (EINVAL from SG_IO mid-run:
 * the queue's limits shrank, or were never what sysfs said): lower the
 * device's largest read to half of this one and read the span again in
 * pieces, halving again while the device still refuses.
 */
static int read_smaller(struct cdt_dev *dev, uint64_t lba, uint32_t nblocks,
			uint8_t *buf, struct cdt_read_result *res)
{
	dev->max_blocks = nblocks / 2;
	return read_pieces(dev, lba, nblocks, buf, res, dev->max_blocks);
}

/*
 * A span longer than the device's largest read is never sent whole: the
 * kernel would refuse it (EINVAL over the queue's max_hw_sectors) before
 * the drive saw it, so it goes in pieces of that size from the start (the
 * probe's reads of a fixed size included); a shorter one goes whole, and
 * in smaller pieces only when the device refuses it.
 */
static int read_blocks(struct cdt_dev *dev, uint64_t lba, uint32_t nblocks,
		       void *buf, size_t buf_len, struct cdt_read_result *res)
{
	int rc = check_read_args(dev, nblocks, buf, buf_len);
	uint32_t max = cdt_max_read_blocks(dev);

	if (rc)
		return rc;
	res->ms = 0;
	if (nblocks > max)
		rc = read_pieces(dev, lba, nblocks, buf, res, max);
	else
		rc = read_once(dev, lba, nblocks, buf, res);
	if (!rc && nblocks <= max && dev->last_action == CDT_ACT_TOO_LONG && nblocks > 1)
		return read_smaller(dev, lba, nblocks, buf, res);
	return rc;
}

int cdt_read_blocks(struct cdt_dev *dev, uint64_t lba, uint32_t nblocks,
		    void *buf, size_t buf_len, struct cdt_read_result *res)
{
	struct cdt_read_result full;
	int rc;

	rc = cdt_abi_res(dev, res, &full, sizeof(full), "struct cdt_read_result");
	if (rc)
		return rc;
	rc = read_blocks(dev, lba, nblocks, buf, buf_len, &full);
	cdt_abi_out(res, &full, sizeof(full));
	return rc;
}

int cdt_unit_serial(struct cdt_dev *dev, char *buf, size_t len)
{
	uint8_t cdb[16], page[252];
	struct cdt_sense sense;
	uint32_t got = 0;
	int rc;

	if (!dev || !buf || !len)
		return CDT_EUSAGE;
	buf[0] = '\0';
	rc = cdt_dev_simple(dev, cdb, mmc_cdb_inquiry_vpd(cdb, 0x80, sizeof(page)),
			    page, sizeof(page), &got, &sense);
	if (rc)
		return rc;
	if (mmc_parse_unit_serial(page, got, buf, len)) {
		cdt_dev_seterr(dev, "INQUIRY: no Unit Serial Number page in the answer");
		return CDT_ECHECK;
	}
	return 0;
}
