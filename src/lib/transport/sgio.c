// SPDX-License-Identifier: MIT
/*
 * Linux SG_IO through libsgutils2's pass-through layer (sg_pt).  The node
 * is opened read-only and non-blocking, so a drive without a medium can
 * still be asked what it is.  It hands over the answer as the kernel gave
 * it (status, sense, residual, host and driver bytes, errno); what they
 * mean is mmc/answer.c's table.
 *
 * The timeout: SG_IO on a block node (/dev/srN, block/scsi_ioctl.c sg_io)
 * never waits less than BLK_MIN_SG_TIMEOUT, 7 s, whatever is asked; on a
 * /dev/sgN node (sg.c) the asked timeout holds.  cdtail(1) says so.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <scsi/sg.h>
#include <scsi/sg_pt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "cdtail.h"
#include "mmc/answer.h"
#include "transport/transport.h"

#define SGIO_DID_TIME_OUT 0x03
#define SGIO_DRIVER_TIMEOUT 0x06
#define SGIO_DEFAULT_MAX_XFER 65536u
#define SGIO_MAX_XFER_CAP (1u << 20)

struct sgio_transport {
	struct cdt_transport base;
	int fd;
	bool is_block;
	dev_t rdev;
	char path[256];
	char err[384];		/* why the last failed exec failed */
};

static struct sgio_transport *to_sgio(struct cdt_transport *t)
{
	return (struct sgio_transport *)t;
}

/*
 * The byte after "NAME=0x" in sg_pt's transport error string, or 0.  The
 * string is the one place sg_pt gives both bytes in every version:
 * get_scsi_pt_transport_err() is (host << 8) + driver in the sg v3 era
 * and the host byte alone with the v4 header (sg3_utils 1.45 on), whose
 * driver byte has no getter.
 */
static uint8_t status_byte_in(const char *str, const char *name)
{
	const char *p = strstr(str, name);
	unsigned long v;
	char *end;

	if (!p)
		return 0;
	v = strtoul(p + strlen(name), &end, 16);
	return end == p + strlen(name) || v > 0xff ? 0 : (uint8_t)v;
}

static void set_transport_err(struct sgio_transport *st, struct sg_pt_base *pt,
			      struct cdt_cmd *cmd)
{
	char words[256] = "";
	const char *host, *drv;

	get_scsi_pt_transport_err_str(pt, sizeof(words), words);
	cmd->host_status = status_byte_in(words, "Host_status=0x");
	cmd->driver_status = status_byte_in(words, "Driver_status=0x");
	/* a string without the bytes: the host byte from the number */
	if (!cmd->host_status && !cmd->driver_status)
		cmd->host_status = (uint8_t)get_scsi_pt_transport_err(pt);
	host = cdt_host_byte_name(cmd->host_status);
	drv = cdt_driver_byte_name(cmd->driver_status);
	snprintf(st->err, sizeof(st->err),
		 "SG_IO transport failure: host status 0x%02x (%s), driver status 0x%02x (%s)",
		 cmd->host_status, host ? host : "unknown", cmd->driver_status,
		 drv ? drv : "unknown");
}

/* The kernel gave up waiting: DID_TIME_OUT, DRIVER_TIMEOUT, or the clock. */
static bool timed_out(const struct cdt_cmd *cmd, double ms)
{
	return cmd->host_status == SGIO_DID_TIME_OUT ||
	       (cmd->driver_status & 0x0f) == SGIO_DRIVER_TIMEOUT ||
	       ms >= 0.95 * cmd->timeout_ms;
}

static int sgio_status(struct sgio_transport *st, struct sg_pt_base *pt,
		       struct cdt_cmd *cmd, double ms)
{
	switch (get_scsi_pt_result_category(pt)) {
	case SCSI_PT_RESULT_GOOD:
		cmd->status = CDT_STATUS_GOOD;
		return 0;
	case SCSI_PT_RESULT_STATUS:
		cmd->status = (uint8_t)get_scsi_pt_status_response(pt);
		return 0;
	case SCSI_PT_RESULT_SENSE:
		cmd->status = CDT_STATUS_CHECK;
		cmd->sense_len = (unsigned int)get_scsi_pt_sense_len(pt);
		if (cmd->sense_len > sizeof(cmd->sense))
			cmd->sense_len = sizeof(cmd->sense);
		return 0;
	case SCSI_PT_RESULT_TRANSPORT_ERR:
		set_transport_err(st, pt, cmd);
		return timed_out(cmd, ms) ? CDT_ETIMEOUT : CDT_ETRANSPORT;
	default:
		snprintf(st->err, sizeof(st->err),
			 "SG_IO: an answer of an unknown kind (sg_pt category %d)",
			 get_scsi_pt_result_category(pt));
		return CDT_ETRANSPORT;
	}
}

static int sgio_exec(struct cdt_transport *t, struct cdt_cmd *cmd)
{
	struct sgio_transport *st = to_sgio(t);
	struct sg_pt_base *pt;
	int timeout_s = (int)((cmd->timeout_ms + 999) / 1000);
	double t0;
	int res, rc, resid;

	st->err[0] = '\0';
	pt = construct_scsi_pt_obj_with_fd(st->fd, 0);
	if (!pt)
		return CDT_ENOMEM;
	set_scsi_pt_cdb(pt, cmd->cdb, (int)cmd->cdb_len);
	set_scsi_pt_sense(pt, cmd->sense, sizeof(cmd->sense));
	if (cmd->data && cmd->data_len)
		set_scsi_pt_data_in(pt, cmd->data, (int)cmd->data_len);
	t0 = cdt_mono_ms();
	res = do_scsi_pt(pt, st->fd, timeout_s ? timeout_s : 1, 0);
	cmd->ms = cdt_mono_ms() - t0;
	if (res == SCSI_PT_DO_TIMEOUT) {
		rc = CDT_ETIMEOUT;
	} else if (res < 0) {
		/*
		 * The table (mmc/answer.c) reads the errno: EINTR (a signal;
		 * the CLI's handlers have no SA_RESTART, so sg.c's wait is
		 * never restarted and the READ never sent twice), EINVAL on a
		 * long read (too long for the queue), ENODEV (unplugged).
		 */
		cmd->sys_errno = -res;
		snprintf(st->err, sizeof(st->err), "SG_IO on %s failed: %s",
			 st->path, strerror(-res));
		rc = -res == ENOTTY ? CDT_ENOTSCSI : CDT_ETRANSPORT;
	} else if (res) {
		snprintf(st->err, sizeof(st->err), "SG_IO on %s failed (sg_pt error %d)",
			 st->path, res);
		rc = CDT_ETRANSPORT;
	} else {
		rc = sgio_status(st, pt, cmd, cmd->ms);
		resid = get_scsi_pt_resid(pt);
		cmd->resid = resid > 0 ? (uint32_t)resid : 0;
	}
	destruct_scsi_pt_obj(pt);
	return rc;
}

static const char *sgio_errmsg(struct cdt_transport *t)
{
	struct sgio_transport *st = to_sgio(t);

	return st->err[0] ? st->err : NULL;
}

static void sgio_close(struct cdt_transport *t)
{
	struct sgio_transport *st = to_sgio(t);

	if (st->fd >= 0)
		scsi_pt_close_device(st->fd);
	free(st);
}

static int read_sysfs_u64(const char *path, uint64_t *v)
{
	unsigned long long x;
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &x) == 1;
	fclose(f);
	if (!ok)
		return -1;
	*v = x;
	return 0;
}

/* The block device name (sr0) behind this node, from sysfs. */
static int block_name(struct sgio_transport *st, char name[256])
{
	char path[128], link[256], *base;
	struct dirent *de;
	ssize_t n;
	DIR *dir;

	if (st->is_block) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u",
			 major(st->rdev), minor(st->rdev));
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			return -1;
		link[n] = '\0';
		base = strrchr(link, '/');
		snprintf(name, 256, "%s", base ? base + 1 : link);
		return 0;
	}
	/* an sg node: device/block/ holds one entry, its block device */
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/block",
		 major(st->rdev), minor(st->rdev));
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir)) && de->d_name[0] == '.')
		;
	if (de)
		snprintf(name, 256, "%s", de->d_name);
	closedir(dir);
	return de ? 0 : -1;
}

static int sgio_kernel_size(struct cdt_transport *t, uint64_t *sectors)
{
	struct sgio_transport *st = to_sgio(t);
	char name[256], path[320];
	uint64_t bytes;

	if (st->is_block && ioctl(st->fd, BLKGETSIZE64, &bytes) == 0) {
		*sectors = bytes / 512;
		return 0;
	}
	if (block_name(st, name))
		return CDT_EIO;
	snprintf(path, sizeof(path), "/sys/block/%s/size", name);
	return read_sysfs_u64(path, sectors) ? CDT_EIO : 0;
}

static uint32_t sgio_max_transfer(struct cdt_transport *t)
{
	struct sgio_transport *st = to_sgio(t);
	char name[256], path[320];
	uint64_t kb;

	if (block_name(st, name))
		return SGIO_DEFAULT_MAX_XFER;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/max_sectors_kb", name);
	if (read_sysfs_u64(path, &kb) || kb < 2)
		return SGIO_DEFAULT_MAX_XFER;
	return kb * 1024 > SGIO_MAX_XFER_CAP ? SGIO_MAX_XFER_CAP : (uint32_t)(kb * 1024);
}

/* The node itself (any name of it), or another node of the same device. */
static bool sgio_is_source(struct cdt_transport *t, const struct stat *st)
{
	struct sgio_transport *s = to_sgio(t);
	struct stat a;

	if ((S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode)) && st->st_rdev == s->rdev)
		return true;
	return !fstat(s->fd, &a) && a.st_dev == st->st_dev && a.st_ino == st->st_ino;
}

static const struct cdt_transport_ops sgio_ops = {
	.name = "sgio",
	.is_source = sgio_is_source,
	.exec = sgio_exec,
	.close = sgio_close,
	.kernel_size_512 = sgio_kernel_size,
	.max_transfer = sgio_max_transfer,
	.errmsg = sgio_errmsg,
};

static int check_node(const char *path, struct stat *st, char *err, size_t errlen)
{
	if (stat(path, st)) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return CDT_EOPEN;
	}
	if (S_ISREG(st->st_mode)) {
		snprintf(err, errlen,
			 "%s is a regular file, not a SCSI device (for a disc image use sim:%s)",
			 path, path);
		return CDT_ENOTSCSI;
	}
	if (!S_ISBLK(st->st_mode) && !S_ISCHR(st->st_mode)) {
		snprintf(err, errlen, "%s is not a device node", path);
		return CDT_ENOTSCSI;
	}
	return 0;
}

int cdt_sgio_open(const char *path, struct cdt_transport **tp,
		  char *err, size_t errlen)
{
	struct sgio_transport *st;
	struct stat sb;
	int fd, rc, version;

	*tp = NULL;
	rc = check_node(path, &sb, err, errlen);
	if (rc)
		return rc;
	fd = scsi_pt_open_device(path, true, 0);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(-fd));
		return CDT_EOPEN;
	}
	/* answered by sg nodes and by block nodes whose driver speaks SCSI */
	if (ioctl(fd, SG_GET_VERSION_NUM, &version) < 0) {
		snprintf(err, errlen, "%s is not a SCSI device (SG_IO not supported)",
			 path);
		scsi_pt_close_device(fd);
		return CDT_ENOTSCSI;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		scsi_pt_close_device(fd);
		snprintf(err, errlen, "out of memory");
		return CDT_ENOMEM;
	}
	st->base.ops = &sgio_ops;
	st->fd = fd;
	st->is_block = S_ISBLK(sb.st_mode);
	st->rdev = sb.st_rdev;
	snprintf(st->path, sizeof(st->path), "%s", path);
	*tp = &st->base;
	return 0;
}
