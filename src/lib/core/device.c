// SPDX-License-Identifier: MIT
/*
 * The one command path above the transports: the read-only allow-list,
 * retries on UNIT ATTENTION and NOT READY, the timeout, statistics, the
 * log callback; and the device's state (block size, peripheral type).
 * The commands themselves are in core/cmds.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/device.h"
#include "scsi/mmc.h"
#include "scsi/readcd.h"

#define DEV_MAX_RETRIES 5
#define DEV_NOT_READY_WAIT_MS 200

void cdt_dev_seterr(struct cdt_dev *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dev->errmsg, sizeof(dev->errmsg), fmt, ap);
	va_end(ap);
}

const char *cdt_errmsg(const struct cdt_dev *dev)
{
	return dev ? dev->errmsg : "";
}

/*
 * Opcodes that mean a read-only command on an MMC (type 5) device but
 * something else, sometimes a write, under SBC: 0x51 is XPWRITE(10) on a
 * disk.  They pass only once INQUIRY has said the device is an MMC drive.
 */
static bool mmc_only(uint8_t op)
{
	switch (op) {
	case MMC_READ_FORMAT_CAPACITIES:
	case MMC_READ_TOC:
	case MMC_GET_CONFIGURATION:
	case MMC_GET_EVENT_STATUS:
	case MMC_READ_DISC_INFO:
	case MMC_READ_TRACK_INFO:
	case MMC_READ_DVD_STRUCTURE:
	case MMC_MECHANISM_STATUS:
	case MMC_READ_CD:
	case MMC_READ_CD_MSF:
		return true;
	}
	return false;
}

/*
 * Only commands that neither write the medium nor change the drive's
 * settings.  Checked before any transport sees the CDB, so no code path
 * above can send a write by mistake.  (READ SUB-CHANNEL and GET
 * PERFORMANCE are left out: unused, and UNMAP / ERASE(12) on a disk.)
 */
bool cdt_cdb_allowed(const uint8_t *cdb, unsigned int cdb_len)
{
	if (!cdb || cdb_len < 6 || cdb_len > 16)
		return false;
	if (mmc_only(cdb[0]))
		return cdb[0] != MMC_GET_EVENT_STATUS ||
		       /* only the polled form: the asynchronous one is a no-op here */
		       (cdb_len >= 10 && (cdb[1] & 0x01));
	switch (cdb[0]) {
	case MMC_TEST_UNIT_READY:
	case MMC_REQUEST_SENSE:
	case MMC_INQUIRY:
	case MMC_MODE_SENSE6:
	case MMC_READ_CAPACITY10:
	case MMC_READ10:
	case MMC_MODE_SENSE10:
	case MMC_READ16:
	case MMC_REPORT_LUNS:
	case MMC_READ12:
		return true;
	case MMC_SERVICE_ACTION_IN16:
		return cdb_len == 16 && (cdb[1] & 0x1f) == MMC_SAI_READ_CAPACITY16;
	}
	return false;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void account(struct cdt_dev *dev, const struct cdt_cmd *cmd, int rc)
{
	struct cdt_cmd_log log;

	dev->stats.commands++;
	dev->stats.device_ms += cmd->ms;
	if (dev->t->virtual_time)
		dev->stats.virtual_ms += cmd->ms;
	if (!dev->log)
		return;
	log = (struct cdt_cmd_log){
		.size = sizeof(log),
		.cdb = cmd->cdb,
		.cdb_len = cmd->cdb_len,
		.transport_result = rc,
		.status = cmd->status,
		.sense = cmd->sense,
		.sense_len = rc ? 0 : cmd->sense_len,
		.ms = cmd->ms,
	};
	dev->log(dev->log_ctx, &log);
}

static void reset_answer(struct cdt_cmd *cmd)
{
	cmd->resid = 0;
	cmd->sense_len = 0;
	cmd->status = 0;
	cmd->ms = 0;
}

bool cdt_sense_medium_changed(const struct cdt_sense *s)
{
	return s->key == 0x06 && s->asc == 0x28;
}

static bool is_read(uint8_t op)
{
	return op == MMC_READ10 || op == MMC_READ12 || op == MMC_READ16;
}

static bool known_mmc(struct cdt_dev *dev)
{
	struct mmc_inquiry mi;

	if (dev->peripheral_type < 0)
		cdt_dev_inquiry(dev, &mi);
	return dev->peripheral_type == 5;
}

int cdt_dev_exec(struct cdt_dev *dev, struct cdt_cmd *cmd,
		 struct cdt_sense *sense)
{
	struct cdt_sense local;
	enum cdt_sense_class cls;
	int attempt, rc;

	if (!sense)
		sense = &local;
	memset(sense, 0, sizeof(*sense));
	if (!cdt_cdb_allowed(cmd->cdb, cmd->cdb_len)) {
		cdt_dev_seterr(dev, "refused opcode 0x%02x: not a read-only command",
			       cmd->cdb_len ? cmd->cdb[0] : 0);
		return CDT_EREFUSED;
	}
	if (mmc_only(cmd->cdb[0]) && !known_mmc(dev)) {
		cdt_dev_seterr(dev, "refused opcode 0x%02x: read-only only on an MMC device, and this is peripheral type %d",
			       cmd->cdb[0], dev->peripheral_type);
		return CDT_EREFUSED;
	}
	if (!cmd->timeout_ms)
		cmd->timeout_ms = dev->timeout_ms;
	/* an old message must not explain a new failure */
	dev->errmsg[0] = '\0';
	for (attempt = 0;; attempt++) {
		reset_answer(cmd);
		rc = dev->t->ops->exec(dev->t, cmd);
		account(dev, cmd, rc);
		if (rc == CDT_ETIMEOUT) {
			cdt_dev_seterr(dev, "command 0x%02x timed out after %u ms",
				       cmd->cdb[0], cmd->timeout_ms);
			return rc;
		}
		if (rc) {
			const char *why = dev->t->ops->errmsg ?
				dev->t->ops->errmsg(dev->t) : NULL;

			cdt_dev_seterr(dev, "command 0x%02x: %s", cmd->cdb[0],
				       why ? why : cdt_strerror(rc));
			return rc;
		}
		if (cmd->status == CDT_STATUS_GOOD)
			return 0;
		if (cmd->status != CDT_STATUS_CHECK) {
			/* BUSY, TASK SET FULL: the drive asks to be asked again */
			if (attempt < DEV_MAX_RETRIES) {
				sleep_ms(DEV_NOT_READY_WAIT_MS);
				continue;
			}
			cdt_dev_seterr(dev, "command 0x%02x: SCSI status 0x%02x",
				       cmd->cdb[0], cmd->status);
			return CDT_ETRANSPORT;
		}
		cdt_sense_decode(cmd->sense, cmd->sense_len, sense);
		cls = cdt_sense_classify(sense);
		/*
		 * A medium change is not a plain UNIT ATTENTION: a read that
		 * met it goes back to the caller at once, whose data may now
		 * be another disc's; other commands are asked again, and the
		 * count tells the layers above either way.
		 */
		if (cdt_sense_medium_changed(sense)) {
			dev->medium_changes++;
			if (is_read(cmd->cdb[0])) {
				cdt_dev_seterr(dev, "the medium changed (sense 06/28/%02x)",
					       sense->ascq);
				return CDT_ECHECK;
			}
		}
		if (cls == CDT_SENSE_RETRY && attempt < DEV_MAX_RETRIES) {
			/* a UNIT ATTENTION is reported once; NOT READY needs time */
			if (sense->key == 0x02 && !dev->t->virtual_time)
				sleep_ms(DEV_NOT_READY_WAIT_MS);
			continue;
		}
		if (cls == CDT_SENSE_NO_MEDIUM) {
			cdt_dev_seterr(dev, "no medium in the drive");
			return CDT_ENOMEDIUM;
		}
		return CDT_ECHECK;
	}
}

/* Build a data-in command around cdb and buf and run it. */
static int run_in(struct cdt_dev *dev, const uint8_t *cdb, unsigned int len,
		  void *buf, uint32_t buf_len, struct cdt_cmd *cmd,
		  struct cdt_sense *sense)
{
	memset(cmd, 0, sizeof(*cmd));
	if (!cdb || len > sizeof(cmd->cdb))
		return CDT_EUSAGE;
	memcpy(cmd->cdb, cdb, len);
	cmd->cdb_len = len;
	cmd->data = buf;
	cmd->data_len = buf ? buf_len : 0;
	return cdt_dev_exec(dev, cmd, sense);
}

int cdt_dev_simple(struct cdt_dev *dev, const uint8_t *cdb, unsigned int len,
		   void *buf, uint32_t buf_len, uint32_t *got,
		   struct cdt_sense *sense)
{
	struct cdt_cmd cmd;
	int rc = run_in(dev, cdb, len, buf, buf_len, &cmd, sense);

	if (got)
		*got = cmd.resid > cmd.data_len ? 0 : cmd.data_len - cmd.resid;
	return rc;
}

int cdt_exec_in(struct cdt_dev *dev, const uint8_t *cdb, unsigned int cdb_len,
		void *buf, uint32_t buf_len, uint32_t *resid,
		uint8_t *sense, unsigned int *sense_len)
{
	struct cdt_cmd cmd;
	int rc = run_in(dev, cdb, cdb_len, buf, buf_len, &cmd, NULL);

	if (resid)
		*resid = cmd.resid;
	if (sense && sense_len) {
		unsigned int n = cmd.sense_len < *sense_len ? cmd.sense_len : *sense_len;

		memcpy(sense, cmd.sense, n);
		*sense_len = n;
	}
	return rc;
}

void cdt_layout_free(struct cdt_layout *l)
{
	if (!l)
		return;
	free(l->tracks);
	free(l->gaps);
	free(l->skip);
	free(l);
}

void cdt_dev_set_layout(struct cdt_dev *dev, struct cdt_layout *l)
{
	if (dev->layout != l)
		cdt_layout_free(dev->layout);
	dev->layout = l;
}

const struct cdt_layout *cdt_dev_layout(const struct cdt_dev *dev)
{
	return dev ? dev->layout : NULL;
}

const char *cdt_transport_name(const struct cdt_dev *dev)
{
	return dev->t->ops->name;
}

bool cdt_is_virtual_time(const struct cdt_dev *dev)
{
	return dev->t->virtual_time;
}

uint32_t cdt_block_size(const struct cdt_dev *dev)
{
	return dev->block_size;
}

uint32_t cdt_max_read_blocks(const struct cdt_dev *dev)
{
	uint32_t bytes = 65536, bs = dev->block_size ? dev->block_size : 2048;

	if (dev->t->ops->max_transfer)
		bytes = dev->t->ops->max_transfer(dev->t);
	if (bytes < bs)
		return 1;
	return bytes / bs;
}

int cdt_dev_inquiry(struct cdt_dev *dev, struct mmc_inquiry *mi)
{
	uint8_t cdb[16], buf[96];
	uint32_t got = 0;
	unsigned int len;
	int rc;

	len = mmc_cdb_inquiry(cdb, sizeof(buf));
	rc = cdt_dev_simple(dev, cdb, len, buf, sizeof(buf), &got, NULL);
	if (rc) {
		if (rc == CDT_ECHECK)
			cdt_dev_seterr(dev, "INQUIRY was refused by the drive");
		return rc;
	}
	if (mmc_parse_inquiry(buf, got, mi)) {
		cdt_dev_seterr(dev, "INQUIRY answer too short (%u bytes)", got);
		return CDT_ETRANSPORT;
	}
	dev->peripheral_type = mi->peripheral_type;
	return 0;
}
