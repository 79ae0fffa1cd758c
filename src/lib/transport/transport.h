/* SPDX-License-Identifier: MIT */
/*
 * The single seam between the library and whatever carries a CDB to a
 * drive.  Everything above it (device, sizes, endsearch, image) is the same
 * for SG_IO, the emulated drive and iSCSI.
 *
 * The seam has no data-out direction on purpose: cdtail only reads.
 */
#ifndef CDT_TRANSPORT_H
#define CDT_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#define CDT_SENSE_MAX 64

struct cdt_cmd {
	uint8_t cdb[16];
	unsigned int cdb_len;
	uint8_t *data;		/* data-in buffer, or NULL */
	uint32_t data_len;
	uint32_t resid;		/* set by the transport */
	uint8_t sense[CDT_SENSE_MAX];
	unsigned int sense_len;	/* set by the transport */
	uint8_t status;		/* SCSI status, set by the transport */
	/*
	 * Linux's host and driver bytes (include/scsi/scsi_status.h) of an
	 * answer that carries no SCSI status, set by the transport with
	 * CDT_ETRANSPORT; 0 otherwise.
	 */
	uint8_t host_status, driver_status;
	int sys_errno;		/* errno of a failed SG_IO ioctl, else 0 */
	unsigned int timeout_ms;
	double ms;		/* duration, set by the transport */
};

/* SCSI status bytes the layers above look at. */
#define CDT_STATUS_GOOD 0x00
#define CDT_STATUS_CHECK 0x02
#define CDT_STATUS_BUSY 0x08

struct cdt_transport;

struct cdt_transport_ops {
	const char *name;
	/*
	 * Carry cmd to the drive.  Returns 0 when the drive answered (status
	 * and sense say how), CDT_ETIMEOUT when it did not answer within
	 * cmd->timeout_ms, CDT_ETRANSPORT (or another negative cdt_error) when
	 * the command could not be delivered.
	 */
	int (*exec)(struct cdt_transport *t, struct cdt_cmd *cmd);
	void (*close)(struct cdt_transport *t);
	/* The kernel's size of the node in 512-byte units; optional. */
	int (*kernel_size_512)(struct cdt_transport *t, uint64_t *sectors);
	/* Largest transfer in bytes; optional (default 64 KiB). */
	uint32_t (*max_transfer)(struct cdt_transport *t);
	/* Why the last failed exec failed, in words, or NULL; optional. */
	const char *(*errmsg)(struct cdt_transport *t);
	/* Is st the file or node the commands read from?  Optional. */
	bool (*is_source)(struct cdt_transport *t, const struct stat *st);
	/*
	 * Let ms pass before the next command (waiting for a drive that is
	 * becoming ready).  Optional: without it the caller sleeps.  The
	 * emulated drive advances its virtual clock instead.
	 */
	void (*pause)(struct cdt_transport *t, unsigned int ms);
};

struct cdt_transport {
	const struct cdt_transport_ops *ops;
	bool virtual_time;	/* ms are the emulated drive's virtual cost */
};

/*
 * Constructors.  On failure they return a negative cdt_error and write a
 * one-line message (without trailing newline) to err.
 */
int cdt_sim_open(const char *spec, struct cdt_transport **tp,
		 char *err, size_t errlen);
int cdt_sgio_open(const char *path, struct cdt_transport **tp,
		  char *err, size_t errlen);
/* timeout_ms bounds connecting and logging in (0: 15 s). */
int cdt_iscsi_open(const char *url, unsigned int timeout_ms,
		   struct cdt_transport **tp, char *err, size_t errlen);

/* Now on the monotonic clock, in ms: what a real transport times a command by. */
static inline double cdt_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#endif
