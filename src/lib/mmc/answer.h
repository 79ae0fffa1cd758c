/* SPDX-License-Identifier: MIT */
/*
 * The one table of what cdtail does with each answer a command can get:
 * sense key/ASC/ASCQ (deferred and missing sense included), SCSI status,
 * Linux's host and driver bytes, the errno of SG_IO, a timeout and a
 * residual.  Pure: the rows are data, answer.c holds them with the source
 * of each (the kernel's sr/sg/scsi_error code, sg3_utils, SPC/MMC), and
 * cdtail(1) prints the same table.  The device layer acts on the result
 * (core/device.c: retries, waiting for a drive becoming ready) and the
 * read path hands it to the engines as a cdt_read_class.
 */
#ifndef CDT_ANSWER_H
#define CDT_ANSWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mmc/sense.h"

/*
 * Reads in a row that time out: the drive stopped answering.  One timeout
 * is a failed block like any other; this many end the end search and the
 * rescue (cdtail-errors(7)), with the map saved.
 */
#define CDT_TIMEOUTS_IN_ROW 4

enum cdt_action {
	CDT_ACT_OK = 0,		/* the data arrived (GOOD, RECOVERED ERROR) */
	CDT_ACT_SHORT,		/* GOOD with a residual: only what arrived counts */
	CDT_ACT_BAD_BLOCK,	/* the block failed: mark it bad, move on */
	CDT_ACT_WRONG_MODE,	/* 05/64/xx: not a Mode 1 / Form 1 block; the
				 * caller decides with the disc's structure */
	CDT_ACT_END,		/* 05/21/xx, 05/63/xx: past the end */
	CDT_ACT_TIMEOUT,	/* no answer: the block failed; many in a row
				 * mean the drive stopped answering */
	CDT_ACT_RETRY,		/* ask again, a bounded number of times */
	CDT_ACT_RESEND,		/* deferred sense: an earlier command's error,
				 * this one was not carried out */
	CDT_ACT_BECOMING_READY,	/* wait (up to 20 s), then ask again */
	CDT_ACT_TOO_LONG,	/* the transfer is too long: smaller reads */
	CDT_ACT_NO_MEDIUM,	/* the medium is gone: stop, save, say so */
	CDT_ACT_CHANGED,	/* 06/28: the medium may have changed */
	CDT_ACT_DEVICE_GONE,	/* the device is gone: stop, save, say so */
	CDT_ACT_REFUSED,	/* the drive refuses the command itself */
	CDT_ACT_INTERRUPTED,	/* a signal stopped the wait: never resent */
	CDT_ACT_PROTECTED,	/* 05/6F/00-05: copy protection (CSS) refuses
				 * the block without authentication: there,
				 * not damage, not the end; skipped */
};

/* An answer as the transport left it. */
struct cdt_answer {
	int transport_rc;	/* 0, CDT_ETIMEOUT, CDT_ETRANSPORT, ... */
	int sys_errno;		/* errno of a failed SG_IO ioctl, else 0 */
	uint8_t status;		/* SCSI status byte */
	uint8_t host, driver;	/* Linux host and driver bytes */
	const uint8_t *sense;
	size_t sense_len;
	uint32_t data_len, resid;
	uint32_t block_size;	/* 0: not a block transfer */
};

/* What to do, why, and how often before the fallback applies. */
struct cdt_disposition {
	enum cdt_action action;
	/* RETRY/RESEND/BECOMING_READY: tries, then act as spent */
	unsigned int budget;
	enum cdt_action spent;
	const char *what;	/* the answer in words ("HARDWARE ERROR") */
	const char *source;	/* where the row comes from */
	struct cdt_sense sense;	/* decoded, when sense was given */
};

void cdt_answer_classify(const struct cdt_answer *a, struct cdt_disposition *v);

/* The action of decoded sense alone (a CHECK CONDITION with it). */
enum cdt_action cdt_sense_action(const struct cdt_sense *s);

/*
 * Named questions of decoded sense for the callers that must tell one
 * answer apart from the table's action (the probe, the hazards, the exec
 * path's waits): no file but this table's compares sense key, ASC or
 * ASCQ.  Each is false for sense that is not valid.
 */
/* SPC sense key 6h, UNIT ATTENTION, of any kind: reported once per event */
bool answer_is_unit_attention(const struct cdt_sense *s);
/* 06/28/xx: NOT READY TO READY CHANGE, MEDIUM MAY HAVE CHANGED */
bool answer_is_medium_changed(const struct cdt_sense *s);
/* SPC sense key 5h, ILLEGAL REQUEST, of any kind: the command refused */
bool answer_is_illegal_request(const struct cdt_sense *s);
/* 05/20/00: INVALID COMMAND OPERATION CODE, the drive lacks the command */
bool answer_is_invalid_opcode(const struct cdt_sense *s);
/*
 * The same questions of a read's answer (struct cdt_read_result keeps the
 * bytes, not the sense): what the probe asks beyond the read's class.
 * Sense key 3, MEDIUM ERROR: the block is there, unreadable (a TAO
 * run-out's answer on many drives, a scratch's).
 */
bool answer_is_medium_error(uint8_t key);
/* 05/63/xx END OF USER AREA ENCOUNTERED ON THIS TRACK: some drives' answer
 * in a TAO run-out, where others give 05/64/00. */
bool answer_is_end_of_user_area(uint8_t key, uint8_t asc);

/* "bad block", "retry", ... for messages and the doc table. */
const char *cdt_action_name(enum cdt_action a);

/* The table's rows, for the unit tests and the manual's table. */
enum cdt_row_kind {
	CDT_ROW_SENSE = 0,	/* key, asc, ascq (-1: any) */
	CDT_ROW_STATUS,		/* SCSI status byte */
	CDT_ROW_HOST,		/* host byte */
	CDT_ROW_DRIVER,		/* driver byte, low nibble */
	CDT_ROW_ERRNO,		/* errno of SG_IO */
	CDT_ROW_OTHER,		/* no sense, deferred, timeout, residual */
};

struct cdt_answer_row {
	enum cdt_row_kind kind;
	int a, b, c;		/* what the row matches, by kind */
	enum cdt_action action;
	unsigned int budget;
	enum cdt_action spent;
	const char *what;
	const char *source;
};

const struct cdt_answer_row *cdt_answer_rows(size_t *n);

/* Host and driver bytes in words ("DID_ERROR"), or NULL when unknown. */
const char *cdt_host_byte_name(unsigned int host);
const char *cdt_driver_byte_name(unsigned int driver);

#endif
