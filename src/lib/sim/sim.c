// SPDX-License-Identifier: MIT
/*
 * The emulated MMC drive ("sim:IMAGE[,key=value...]", its keys in
 * cdtail-sim(7)): a transport that answers CDBs from an
 * image file opened read-only, with the faults real drives show near the end of a
 * disc (hidden tail, run-out, extra block, medium errors, unit attentions,
 * hangs) injected on request, and the quirks measured on real targets (tgt,
 * QEMU) that cdtail must cope with without knowing which target it faces.
 * Every piece of state lives in the handle, so any number of emulated
 * drives can be open at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "mmc/bytes.h"
#include "cdtail.h"
#include "mmc/mmc.h"
#include "mmc/readcd.h"
#include "mmc/subchan.h"
#include "sim/drive.h"


static void sim_free(struct sim *s)
{
	if (s->image_fd >= 0)
		close(s->image_fd);
	if (s->trace_fd >= 0)
		close(s->trace_fd);
	free(s->cfg.bad);
	free(s->cfg.trace_path);
	free(s->cfg.layout);
	free(s->tracks);
	free(s->flaky_fails);
	free(s->stale_buf);
	sim_fault_free(s);
	sim_change_free(s);
	sim_cue_free(s);
	free(s);
}

static int open_image(struct sim *s, const char *path, char *err, size_t errlen)
{
	struct stat st;
	off_t size;

	if (sim_is_cue_path(path))
		return sim_cue_open(s, path, err, errlen);
	s->image_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->image_fd < 0 || fstat(s->image_fd, &st))
		goto fail;
	/* a directory "opens" but has no blocks, and lseek on it means nothing */
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		errno = EINVAL;
		goto fail;
	}
	/* lseek rather than st_size: a block device as image works too */
	size = lseek(s->image_fd, 0, SEEK_END);
	if (size < 0)
		goto fail;
	s->n_blocks = (uint64_t)size / s->cfg.block_size;
	return 0;
fail:
	snprintf(err, errlen, "sim: cannot open %s: %s", path, strerror(errno));
	return CDT_EOPEN;
}

static int value_too_big(char *err, size_t errlen, const char *key,
			 uint64_t value, const char *why)
{
	snprintf(err, errlen, "sim: bad value '%" PRIu64 "' for key '%s' (%s)",
		 value, key, why);
	return CDT_EUSAGE;
}

/* The checks that need N, the number of whole blocks in the image. */
static int check_sizes(struct sim *s, const char *path, char *err,
		       size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	uint64_t n = s->n_blocks;

	if (c->hide > n)
		return value_too_big(err, errlen, "hide", c->hide,
				     "more than the blocks in the image");
	if (c->runout > n)
		return value_too_big(err, errlen, "runout", c->runout,
				     "more than the blocks in the image");
	if (c->extra > UINT64_MAX - (n - c->hide))
		return value_too_big(err, errlen, "extra", c->extra, "too large");
	if (n && sim_check_ranges(c, n, err, errlen))
		return CDT_EUSAGE;
	s->n_reported = n - c->hide + c->extra;
	/* READ CAPACITY has no way to say "nothing": refuse rather than lie */
	if (s->n_reported > 0)
		return 0;
	if (n == 0) {
		snprintf(err, errlen, "sim: %s holds no whole %" PRIu32 "-byte block",
			 path, c->block_size);
		return CDT_EUSAGE;
	}
	return value_too_big(err, errlen, "hide", c->hide,
			     "leaves no reported block");
}

/* Counters only for the flaky blocks that can be read at all (below N). */
static int alloc_flaky(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	uint64_t last;

	if (!c->have_flaky || c->flaky.first >= s->n_blocks)
		return 0;
	last = c->flaky.last < s->n_blocks ? c->flaky.last : s->n_blocks - 1;
	s->n_flaky_fails = last - c->flaky.first + 1;
	s->flaky_fails = calloc(s->n_flaky_fails, sizeof(*s->flaky_fails));
	if (!s->flaky_fails) {
		snprintf(err, errlen, "sim: out of memory");
		return CDT_ENOMEM;
	}
	return 0;
}

static int open_trace(struct sim *s, char *err, size_t errlen)
{
	const char *path = s->cfg.trace_path;

	if (!path)
		return 0;
	s->trace_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (s->trace_fd < 0) {
		snprintf(err, errlen, "sim: cannot open trace file %s: %s", path,
			 strerror(errno));
		return CDT_EOPEN;
	}
	return 0;
}

static const struct cdt_transport_ops sim_ops;

int cdt_sim_open(const char *spec, struct cdt_transport **tp,
		 char *err, size_t errlen)
{
	struct sim *s;
	char *copy = NULL;
	char *comma;
	int rc = CDT_ENOMEM;

	*tp = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	s->image_fd = -1;
	s->trace_fd = -1;
	s->change_fd = -1;
	s->cfg.block_size = 2048;
	s->cfg.ok_us = 50;
	s->cfg.fail_ms = 8000;
	s->cfg.cdb16 = true;
	s->cfg.gap_key = SK_ILLEGAL_REQUEST;
	s->cfg.gap_asc = ASC_LBA_OUT_OF_RANGE;
	s->cfg.ready_ms = SIM_READY_DEFAULT_MS;
	copy = strdup(spec ? spec : "");
	if (!copy)
		goto nomem;
	comma = sim_next_item(copy);
	if (!copy[0]) {
		snprintf(err, errlen, "sim: no image file given (want sim:IMAGE[,key=value...])");
		rc = CDT_EUSAGE;
		goto out;
	}
	/* keys first: a typo is reported even when the image is missing too */
	if (comma) {
		rc = sim_parse_keys(&s->cfg, comma, err, errlen);
		if (rc)
			goto out;
	}
	rc = open_image(s, copy, err, errlen);
	if (!rc)
		rc = check_sizes(s, copy, err, errlen);
	if (!rc)
		rc = sim_layout_build(s, err, errlen);
	/* a formatted medium's capacity is the format's, not the data's */
	if (!rc && s->cfg.formatted)
		s->n_reported = s->cfg.formatted;
	if (!rc)
		rc = alloc_flaky(s, err, errlen);
	if (!rc)
		rc = sim_fault_alloc(s, err, errlen);
	if (!rc)
		rc = sim_change_open(s, err, errlen);
	if (!rc)
		rc = open_trace(s, err, errlen);
	if (rc)
		goto out;
	s->t.ops = &sim_ops;
	s->t.virtual_time = true;
	*tp = &s->t;
	free(copy);
	return 0;
nomem:
	snprintf(err, errlen, "sim: out of memory");
out:
	free(copy);
	if (s)
		sim_free(s);
	return rc;
}

static void sim_close(struct cdt_transport *t)
{
	if (t)
		sim_free((struct sim *)t);
}

static uint32_t sim_max_transfer(struct cdt_transport *t)
{
	const struct sim *s = (const struct sim *)t;

	return s->cfg.maxxfer ? s->cfg.maxxfer : SIM_MAX_TRANSFER;
}

/* ---- one command ----------------------------------------------------------- */

/* cdb16=0 (tgt): neither 16-byte command is known to the drive */
static bool refused_cdb16(const struct sim *s, uint8_t opcode)
{
	return !s->cfg.cdb16 &&
	       (opcode == MMC_READ16 || opcode == MMC_SERVICE_ACTION_IN16);
}

/*
 * Every command the drive knows besides the reads (sim_decode_read); any
 * other opcode is INVALID COMMAND OPERATION CODE.  TEST UNIT READY has
 * nothing to answer: GOOD unless a fault came first.
 */
static const struct {
	uint8_t opcode;
	sim_handler *fn;
} handlers[] = {
	{ MMC_TEST_UNIT_READY, NULL },
	{ MMC_REQUEST_SENSE, sim_do_request_sense },
	{ MMC_INQUIRY, sim_do_inquiry },
	{ MMC_READ_CAPACITY10, sim_do_read_capacity10 },
	{ MMC_SERVICE_ACTION_IN16, sim_do_service_action_in },
	{ MMC_READ_TOC, sim_do_read_toc },
	{ MMC_READ_SUBCHANNEL, sim_do_read_subchannel },
	{ MMC_GET_CONFIGURATION, sim_do_get_configuration },
	{ MMC_READ_DISC_INFO, sim_do_read_disc_info },
	{ MMC_READ_TRACK_INFO, sim_do_read_track_info },
	{ MMC_READ_DVD_STRUCTURE, sim_do_read_disc_structure },
	{ MMC_MODE_SENSE10, sim_do_mode_sense10 },
	{ MMC_READ_CD, sim_do_read_cd_any },
	{ MMC_READ_CD_MSF, sim_do_read_cd_any },
};

static void dispatch(struct sim *s, struct cdt_cmd *cmd, struct sim_outcome *o)
{
	struct sim_read r;

	if (refused_cdb16(s, cmd->cdb[0])) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_INVALID_OPCODE, 0);
		return;
	}
	if (sim_decode_read(cmd, &r)) {
		sim_do_read(s, cmd, &r, o);
		return;
	}
	for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++) {
		if (handlers[i].opcode != cmd->cdb[0])
			continue;
		if (handlers[i].fn)
			handlers[i].fn(s, cmd, o);
		return;
	}
	sim_check(o, SK_ILLEGAL_REQUEST, ASC_INVALID_OPCODE, 0);
}

/* Every Nth command meets a unit attention, but never two in a row. */
static bool unit_attention_due(struct sim *s)
{
	bool due;

	s->n_commands++;
	due = s->cfg.ua_every && !s->last_was_ua &&
	      s->n_commands % s->cfg.ua_every == 0;
	s->last_was_ua = due;
	return due;
}

/*
 * Fixed-format sense (SPC-4 4.5.3): response code 70h, or 71h for a
 * deferred error; VALID when INFORMATION holds an LBA; ILI in byte 2.
 * fault=nosense: CHECK CONDITION and no sense bytes at all, as USB
 * bridges answer.
 */
static void put_sense(struct cdt_cmd *cmd, const struct sim_outcome *o)
{
	uint8_t *p = cmd->sense;

	cmd->status = CDT_STATUS_CHECK;
	if (o->no_sense)
		return;
	memset(p, 0, SIM_SENSE_LEN);
	p[0] = o->deferred ? 0x71 : 0x70;
	if (o->info_valid)
		p[0] |= 0x80;
	p[2] = o->key | (o->ili ? 0x20 : 0);
	if (o->info_valid)
		sg_put_unaligned_be32((uint32_t)o->info, p + 3);
	p[7] = SIM_SENSE_LEN - 8;
	p[12] = o->asc;
	p[13] = o->ascq;
	cmd->sense_len = SIM_SENSE_LEN;
}

static double virtual_ms(const struct sim *s, const struct cdt_cmd *cmd,
			 const struct sim_outcome *o)
{
	if (o->timeout)
		return cmd->timeout_ms;
	if (o->failed_read)
		return (double)s->cfg.fail_ms;
	if (o->check)
		return 1.0;
	return 1.0 + (double)s->cfg.ok_us * (double)o->blocks_moved / 1000.0;
}

static void sleep_ms(double ms)
{
	struct timespec left;

	if (ms <= 0)
		return;
	left.tv_sec = (time_t)(ms / 1000);
	left.tv_nsec = (long)((ms - (double)left.tv_sec * 1000) * 1e6);
	if (left.tv_nsec >= 1000000000L)
		left.tv_nsec = 999999999L;
	while (nanosleep(&left, &left) && errno == EINTR)
		;
}

/* One whole line per write(2), so a killed run leaves whole lines. */
static void trace_write(struct sim *s, const char *line, int len)
{
	size_t off = 0;

	if (len < 0)
		return;
	/* the trace is a diagnostic: a full disk must not fail the command */
	while (off < (size_t)len) {
		ssize_t w = write(s->trace_fd, line + off, (size_t)len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		off += (size_t)w;
	}
}

static const char *const sector_type_names[] = {
	"any", "cdda", "mode1", "mode2", "form1", "form2",
};

/*
 * READ CD and READ CD MSF: the LBA (negative in the pregap), the count,
 * the expected sector type and the bytes the command moves at most.
 */
static bool trace_read_cd(struct sim *s, const struct cdt_cmd *cmd,
			  const char *sense)
{
	struct mmc_read_cd rq;
	char line[160];
	uint32_t n;
	int64_t lba;
	int len;

	if (mmc_parse_read_cd_cdb(cmd->cdb, cmd->cdb_len, &lba, &n, &rq))
		return false;
	len = snprintf(line, sizeof(line), "%02x lba=%" PRId64 " blocks=%u type=%s bytes=%u sense=%s\n",
		       cmd->cdb[0], lba, n,
		       rq.type < 6 ? sector_type_names[rq.type] : "reserved",
		       cmd->data_len, sense);
	if (len > 0 && (size_t)len < sizeof(line))
		trace_write(s, line, len);
	return true;
}

static void trace_line(struct sim *s, const struct cdt_cmd *cmd,
		       const struct sim_outcome *o)
{
	struct sim_read r = { 0, 0 };
	char line[128], sense[16];
	int len;

	if (s->trace_fd < 0)
		return;
	sim_decode_read(cmd, &r);
	if (s->too_long)
		snprintf(sense, sizeof(sense), "einval");
	else if (o->timeout)
		snprintf(sense, sizeof(sense), "timeout");
	else if (o->host_error)
		snprintf(sense, sizeof(sense), o->gone ? "gone" : "host");
	else if (o->no_sense)
		snprintf(sense, sizeof(sense), "none");
	else
		snprintf(sense, sizeof(sense), "%02x/%02x/%02x", o->key, o->asc,
			 o->ascq);
	if (trace_read_cd(s, cmd, sense))
		return;
	/* a GOOD read that moved less says how much (fault=short, past=short) */
	if (!s->too_long && !o->check && !o->timeout && !o->host_error &&
	    r.nblocks > o->blocks_moved &&
	    sim_decode_read(cmd, &r))
		len = snprintf(line, sizeof(line), "%02x lba=%" PRIu64 " blocks=%" PRIu64
			       " sense=%s moved=%" PRIu64 "\n", cmd->cdb[0], r.lba,
			       r.nblocks, sense, o->blocks_moved);
	else
		len = snprintf(line, sizeof(line), "%02x lba=%" PRIu64 " blocks=%" PRIu64
			       " sense=%s%s\n", cmd->cdb[0], r.lba, r.nblocks, sense,
			       o->deferred ? " deferred" : "");
	if (len > 0 && (size_t)len < sizeof(line))
		trace_write(s, line, len);
}

/*
 * A transfer over maxxfer=: the kernel refuses the SG_IO before any CDB
 * is sent (block/blk-map.c: over the queue's max_hw_sectors), so the
 * ioctl fails with EINVAL, no SCSI status, no time on the drive, and the
 * drive's own counts (ua=, change=) do not see it.
 */
static int refuse_too_long(struct sim *s, struct cdt_cmd *cmd)
{
	struct sim_outcome o = { 0 };

	cmd->ms = 0;
	cmd->sys_errno = EINVAL;
	trace_line(s, cmd, &o);
	return CDT_ETRANSPORT;
}

static int sim_exec(struct cdt_transport *t, struct cdt_cmd *cmd)
{
	struct sim *s = (struct sim *)t;
	struct sim_outcome o = { 0 };

	cmd->resid = cmd->data_len;
	cmd->sense_len = 0;
	cmd->status = CDT_STATUS_GOOD;
	cmd->host_status = 0;
	cmd->driver_status = 0;
	s->too_long = cmd->data_len > sim_max_transfer(t);
	if (s->too_long)
		return refuse_too_long(s, cmd);
	if (unit_attention_due(s))
		sim_check(&o, SK_UNIT_ATTENTION, ASC_POWER_ON_RESET, 0);
	else if (sim_change_due(s))
		sim_check(&o, SK_UNIT_ATTENTION, ASC_MEDIUM_CHANGED, 0);
	else if (!sim_fault_preempts(s, cmd, &o))
		dispatch(s, cmd, &o);
	if (o.check)
		put_sense(cmd, &o);
	cmd->ms = virtual_ms(s, cmd, &o);
	sim_fault_after(s, &o, cmd->ms);
	trace_line(s, cmd, &o);
	if (s->cfg.sleep)
		sleep_ms(cmd->ms);
	if (o.timeout)
		return CDT_ETIMEOUT;
	if (o.host_error) {
		/* no SCSI status: what SG_IO reports as a transport error */
		cmd->host_status = o.gone ? SIM_DID_NO_CONNECT : SIM_DID_ERROR;
		cmd->status = CDT_STATUS_GOOD;
		return CDT_ETRANSPORT;
	}
	return 0;
}

static void sim_pause(struct cdt_transport *t, unsigned int ms)
{
	struct sim *s = (struct sim *)t;

	s->clock_ms += ms;
	if (s->cfg.sleep)
		sleep_ms(ms);
}

static const char *sim_errmsg(struct cdt_transport *t)
{
	const struct sim *s = (const struct sim *)t;

	/* the three ways an emulated command fails to be delivered */
	if (s->too_long)
		return "SG_IO failed: Invalid argument (over the emulated queue's maxxfer=)";
	if (s->gone)
		return "host status 0x01 (DID_NO_CONNECT, the device was unplugged)";
	return "host status 0x07 (DID_ERROR, internal error)";
}

static bool sim_is_source(struct cdt_transport *t, const struct stat *st)
{
	return sim_serves((const struct sim *)t, st);
}

static const struct cdt_transport_ops sim_ops = {
	.name = "sim",
	.is_source = sim_is_source,
	.exec = sim_exec,
	.close = sim_close,
	.kernel_size_512 = NULL,
	.max_transfer = sim_max_transfer,
	.errmsg = sim_errmsg,
	.pause = sim_pause,
};
