// SPDX-License-Identifier: MIT
/*
 * The one command path above the transports: the read-only allow-list,
 * what to do with each answer (mmc/answer.c's table: bounded retries
 * with a back-off, waiting up to 20 s for a drive becoming ready, sending
 * again a command that met deferred sense), the timeout, statistics, the
 * log callback; and the device's state (block size, peripheral type).
 * The commands themselves are in core/cmds.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/device.h"
#include "mmc/mmc.h"
#include "mmc/readcd.h"
#include "mmc/subchan.h"

#define DEV_MAX_RETRIES 5
/* sr_ioctl.c polls a drive becoming ready every 2 s, 10 times */
#define DEV_READY_POLL_MS 2000
/* the first back-off of a retry; doubled each time, up to 16 times it */
#define DEV_BACKOFF_MS 100

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
 * disk, 0x42 UNMAP.  They pass only once INQUIRY has said the device is
 * an MMC drive.
 */
static bool mmc_only(uint8_t op)
{
	switch (op) {
	case MMC_READ_FORMAT_CAPACITIES:
	case MMC_READ_SUBCHANNEL:
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
 * above can send a write by mistake.  (GET PERFORMANCE is left out:
 * unused, and ERASE(12) on a disk.  READ SUB-CHANNEL, for the MCN and
 * ISRCs, is on the kernel's read-safe list too: mmc/subchan.h.)
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

/*
 * Let ms pass: the emulated drive's virtual clock advances (and counts in
 * virtual_ms); a real drive is waited for.  False when a signal cut the
 * wait short: the caller asked to stop.
 */
static bool dev_pause(struct cdt_dev *dev, unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	dev->stats.device_ms += ms;
	if (dev->t->ops->pause)
		dev->t->ops->pause(dev->t, ms);
	/* a virtual clock's wait is counted, never slept */
	if (dev->t->virtual_time) {
		dev->stats.virtual_ms += ms;
		return true;
	}
	return nanosleep(&ts, NULL) == 0;
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
		.data = cmd->data,
		.data_len = cmd->data ? cmd->data_len : 0,
		.resid = cmd->data && cmd->resid <= cmd->data_len ? cmd->resid : 0,
		.virtual_time = dev->t->virtual_time,
	};
	dev->log(dev->log_ctx, &log);
}

static void reset_answer(struct cdt_cmd *cmd)
{
	cmd->resid = 0;
	cmd->sense_len = 0;
	cmd->status = 0;
	cmd->host_status = 0;
	cmd->driver_status = 0;
	cmd->sys_errno = 0;
	cmd->ms = 0;
}

static bool is_read(uint8_t op)
{
	return op == MMC_READ10 || op == MMC_READ12 || op == MMC_READ16;
}

/*
 * A command that moves the disc's sectors: READ 10/12/16 and READ CD (MSF).
 * What it returns after a medium change may be another disc's, so the
 * change goes back to its caller; any other command is simply asked again.
 */
static bool reads_sectors(uint8_t op)
{
	return is_read(op) || op == MMC_READ_CD || op == MMC_READ_CD_MSF;
}

static bool known_mmc(struct cdt_dev *dev)
{
	struct mmc_inquiry mi;

	if (dev->peripheral_type < 0)
		cdt_dev_inquiry(dev, &mi);
	return dev->peripheral_type == 5;
}

/* What the transport left in cmd, for the table (mmc/answer.c). */
static void answer_of(const struct cdt_dev *dev, const struct cdt_cmd *cmd,
		      int rc, struct cdt_answer *a)
{
	*a = (struct cdt_answer){
		.transport_rc = rc,
		.sys_errno = rc ? cmd->sys_errno : 0,
		.status = cmd->status,
		.host = rc ? cmd->host_status : 0,
		.driver = cmd->driver_status,
		.sense = cmd->sense,
		.sense_len = rc ? 0 : cmd->sense_len,
		.data_len = cmd->data_len,
		.resid = cmd->resid,
		.block_size = is_read(cmd->cdb[0]) ? dev->block_size : 0,
	};
}

/* The tries so far of each bounded action in one cdt_dev_exec. */
struct dev_tries {
	unsigned int retry, resend, ready;
};

/*
 * Before trying again: how long to wait.  A UNIT ATTENTION is reported
 * once per event and a deferred error is already told, so at once; other
 * retries back off (100, 200, 400 ms: the drive or the bus is busy);
 * a drive becoming ready is polled every 2 s, as sr_ioctl.c does.
 */
static unsigned int wait_before(const struct cdt_disposition *v, unsigned int n)
{
	if (v->action == CDT_ACT_BECOMING_READY)
		return DEV_READY_POLL_MS;
	if (v->action == CDT_ACT_RESEND ||
	    answer_is_unit_attention(&v->sense))
		return 0;
	return DEV_BACKOFF_MS << (n < 4 ? n : 4);
}

/* The counter of v's action, or NULL when it is not tried again. */
static unsigned int *tries_of(struct dev_tries *t, enum cdt_action a)
{
	switch (a) {
	case CDT_ACT_RETRY:
		return &t->retry;
	case CDT_ACT_RESEND:
		return &t->resend;
	case CDT_ACT_BECOMING_READY:
		return &t->ready;
	default:
		return NULL;
	}
}

/*
 * A medium change is not a plain UNIT ATTENTION: a read that met it goes
 * back to the caller at once, whose data may now be another disc's; other
 * commands are asked again, and the count tells the layers above either way.
 */
static void note_change(struct cdt_dev *dev, const struct cdt_cmd *cmd,
			struct cdt_disposition *v)
{
	if (v->action != CDT_ACT_CHANGED)
		return;
	dev->medium_changes++;
	if (!reads_sectors(cmd->cdb[0])) {
		v->action = CDT_ACT_RETRY;
		v->budget = DEV_MAX_RETRIES;
		v->spent = CDT_ACT_REFUSED;
	}
}

/* The message and return code of an answer that is not tried again. */
static int dev_result(struct cdt_dev *dev, const struct cdt_cmd *cmd, int rc,
		      const struct cdt_disposition *v)
{
	const char *why;

	switch (v->action) {
	case CDT_ACT_OK:
	case CDT_ACT_SHORT:
		return 0;
	case CDT_ACT_TIMEOUT:
		cdt_dev_seterr(dev, "command 0x%02x timed out after %u ms",
			       cmd->cdb[0], cmd->timeout_ms);
		return CDT_ETIMEOUT;
	case CDT_ACT_NO_MEDIUM:
		cdt_dev_seterr(dev, "no medium in the drive");
		return CDT_ENOMEDIUM;
	case CDT_ACT_INTERRUPTED:
		cdt_dev_seterr(dev, "command 0x%02x interrupted by a signal (not sent again)",
			       cmd->cdb[0]);
		return CDT_EINTR;
	case CDT_ACT_CHANGED:
		cdt_dev_seterr(dev, "the medium changed (sense 06/28/%02x)",
			       v->sense.ascq);
		return CDT_ECHECK;
	default:
		break;
	}
	if (!rc)
		return CDT_ECHECK;
	why = dev->t->ops->errmsg ? dev->t->ops->errmsg(dev->t) : NULL;
	if (v->action == CDT_ACT_TOO_LONG)
		cdt_dev_seterr(dev, "command 0x%02x: the transfer of %u bytes is too long for the device (%s)",
			       cmd->cdb[0], cmd->data_len, why ? why : v->what);
	else if (v->action == CDT_ACT_DEVICE_GONE)
		cdt_dev_seterr(dev, "command 0x%02x: the device is gone (%s)",
			       cmd->cdb[0], why ? why : v->what);
	else
		cdt_dev_seterr(dev, "command 0x%02x: %s", cmd->cdb[0],
			       why ? why : cdt_strerror(rc));
	return rc;
}

int cdt_dev_exec(struct cdt_dev *dev, struct cdt_cmd *cmd,
		 struct cdt_sense *sense)
{
	struct dev_tries tries = { 0, 0, 0 };
	struct cdt_answer answer;
	struct cdt_disposition v;
	unsigned int *n;
	int rc;

	if (sense)
		memset(sense, 0, sizeof(*sense));
	dev->last_action = CDT_ACT_REFUSED;
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
	for (;;) {
		reset_answer(cmd);
		rc = dev->t->ops->exec(dev->t, cmd);
		account(dev, cmd, rc);
		answer_of(dev, cmd, rc, &answer);
		cdt_answer_classify(&answer, &v);
		note_change(dev, cmd, &v);
		if (sense)
			*sense = v.sense;
		n = tries_of(&tries, v.action);
		if (n && *n < v.budget) {
			if (!dev_pause(dev, wait_before(&v, (*n)++))) {
				v.action = CDT_ACT_INTERRUPTED;
				break;
			}
			continue;
		}
		if (n)
			v.action = v.spent;
		break;
	}
	dev->last_action = v.action;
	return dev_result(dev, cmd, rc, &v);
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
	/* a read refused as too long mid-run lowered it (core/cmds.c) */
	if (dev->max_blocks && dev->max_blocks < bytes / bs)
		return dev->max_blocks;
	return bytes / bs;
}

uint32_t cdt_dev_max_bytes(const struct cdt_dev *dev)
{
	uint32_t bytes = 65536, bs = dev->block_size;

	if (dev->t->ops->max_transfer)
		bytes = dev->t->ops->max_transfer(dev->t);
	/* a read refused as too long mid-run lowered it (core/cmds.c) */
	if (dev->max_blocks && bs && dev->max_blocks < bytes / bs)
		bytes = dev->max_blocks * bs;
	return bytes;
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
