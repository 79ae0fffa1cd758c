// SPDX-License-Identifier: MIT
/*
 * The one table of answers (see answer.h).  Each row says what an answer
 * is, what cdtail does with it, and where that rests: the Linux SCSI
 * midlayer's disposition (drivers/scsi/scsi_error.c scsi_decide_disposition
 * and scsi_check_sense), the CD driver (drivers/scsi/sr.c, sr_ioctl.c),
 * sg3_utils' sg_err_category_new/sg_err_category_sense (sg_lib.c), SPC-4
 * and MMC-5.  Where the kernel would fail the block with EIO, GNU ddrescue
 * marks the sector bad and goes on: so does cdtail (CDT_ACT_BAD_BLOCK).
 * The rows are matched in order, first match wins: the specific before
 * the general.  cdtail-errors(7) prints the same table.
 */
#include <errno.h>
#include <string.h>
#include "cdtail.h"
#include "mmc/answer.h"

#define ANY (-1)

/* CDT_ROW_OTHER's a */
enum {
	OTHER_TIMEOUT = 0,	/* the transport got no answer in time */
	OTHER_NO_SENSE,		/* CHECK CONDITION without usable sense */
	OTHER_DEFERRED,		/* sense response code 71h/73h */
	OTHER_RESIDUAL,		/* GOOD, but less data than asked for */
	OTHER_TRANSPORT,	/* not delivered, and no host/driver byte says why */
};

/* sr.c MAX_RETRIES: the tries the kernel gives a CD command */
#define SR_RETRIES 3
/* core/device.c's budget for a UNIT ATTENTION or BUSY (one per event) */
#define UA_RETRIES 5
/* sr_ioctl.c: NOT READY, becoming ready, polled 10 times 2 s apart */
#define READY_POLLS 10

#define SENSE(k, a, q, act, what, src) \
	{ CDT_ROW_SENSE, k, a, q, act, 0, act, what, src }
#define SENSE_R(k, a, q, act, n, then, what, src) \
	{ CDT_ROW_SENSE, k, a, q, act, n, then, what, src }
#define ROW(kind, x, y, act, n, then, what, src) \
	{ kind, x, y, ANY, act, n, then, what, src }

static const struct cdt_answer_row rows[] = {
	/* ---- no answer, or an answer without sense ---- */
	ROW(CDT_ROW_OTHER, OTHER_TIMEOUT, ANY, CDT_ACT_TIMEOUT, 0, CDT_ACT_TIMEOUT,
	    "no answer within --timeout",
	    "scsi_error.c scsi_times_out, then the error handler resets the device; ddrescue: EIO, the sector is bad"),
	ROW(CDT_ROW_OTHER, OTHER_DEFERRED, ANY, CDT_ACT_RESEND, SR_RETRIES, CDT_ACT_BAD_BLOCK,
	    "deferred sense (response code 71h/73h)",
	    "SPC-4 4.5.5: the error belongs to an earlier command, the current one was not performed; scsi_error.c scsi_check_sense: scsi_sense_is_deferred -> NEEDS_RETRY"),
	ROW(CDT_ROW_OTHER, OTHER_NO_SENSE, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK,
	    "CHECK CONDITION without sense data",
	    "scsi_error.c scsi_check_sense: no valid sense -> FAILED, the error handler retries; USB bridges answer so; sg_lib: SG_LIB_CAT_SENSE"),
	ROW(CDT_ROW_OTHER, OTHER_RESIDUAL, ANY, CDT_ACT_SHORT, 0, CDT_ACT_SHORT,
	    "GOOD with a residual",
	    "SG_IO resid (sg.c); sg_dd sums and warns: only the blocks that arrived count"),
	ROW(CDT_ROW_OTHER, OTHER_TRANSPORT, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_DEVICE_GONE,
	    "not delivered, no host or driver byte",
	    "sg_pt: SCSI_PT_RESULT_OS_ERR or an unknown category; iSCSI: the connection failed"),

	/* ---- sense: key/ASC/ASCQ (SPC-4 4.5.6, MMC-5 annex F) ---- */
	SENSE(0x00, ANY, ANY, CDT_ACT_OK, "NO SENSE",
	      "scsi_error.c scsi_check_sense: NO_SENSE -> SUCCESS; sg_lib: SG_LIB_CAT_NO_SENSE"),
	SENSE(0x01, ANY, ANY, CDT_ACT_OK, "RECOVERED ERROR",
	      "scsi_error.c scsi_check_sense: RECOVERED_ERROR -> SUCCESS; sg_lib: SG_LIB_CAT_RECOVERED"),
	SENSE(0x02, 0x3a, ANY, CDT_ACT_NO_MEDIUM, "NOT READY, MEDIUM NOT PRESENT",
	      "sr.c sr_done / cdrom.c: no medium; MMC-5 F.2 02/3A/xx"),
	SENSE_R(0x02, 0x04, 0x03, CDT_ACT_BAD_BLOCK, 0, CDT_ACT_BAD_BLOCK,
		"NOT READY, MANUAL INTERVENTION REQUIRED",
		"scsi_error.c scsi_check_sense: NOT_READY -> SUCCESS (no retry, EIO); waiting will not help"),
	SENSE_R(0x02, 0x04, ANY, CDT_ACT_BECOMING_READY, READY_POLLS, CDT_ACT_BAD_BLOCK,
		"NOT READY, BECOMING READY (or in progress)",
		"sr_ioctl.c sr_do_ioctl: 02/04/01 polled every 2 s, 10 times (\"20 secs are enough?\"); scsi_error.c scsi_check_sense: 04/01, 04/07, 04/08 -> NEEDS_RETRY"),
	SENSE(0x02, ANY, ANY, CDT_ACT_BAD_BLOCK, "NOT READY (other)",
	      "scsi_error.c scsi_check_sense: NOT_READY -> SUCCESS, the read fails with EIO; ddrescue marks the sector bad"),
	SENSE(0x03, ANY, ANY, CDT_ACT_BAD_BLOCK, "MEDIUM ERROR",
	      "sr.c sr_done: MEDIUM_ERROR, good bytes up to INFORMATION; sg_lib: SG_LIB_CAT_MEDIUM_HARD"),
	SENSE(0x04, ANY, ANY, CDT_ACT_BAD_BLOCK, "HARDWARE ERROR",
	      "scsi_error.c scsi_check_sense: HARDWARE_ERROR -> SUCCESS (EIO); drives answer 04/09/01, 04/02/00, 04/15/xx, 04/44/00 on damaged areas; sg_lib: SG_LIB_CAT_MEDIUM_HARD"),
	SENSE(0x05, 0x20, ANY, CDT_ACT_REFUSED, "ILLEGAL REQUEST, INVALID COMMAND OPERATION CODE",
	      "sg_lib: SG_LIB_CAT_INVALID_OP; sd.c/sr.c fall back to another CDB"),
	SENSE(0x05, 0x21, ANY, CDT_ACT_END, "ILLEGAL REQUEST, LBA OUT OF RANGE",
	      "MMC-5 F.2 05/21/00: past the last addressable block"),
	SENSE(0x05, 0x63, ANY, CDT_ACT_END, "ILLEGAL REQUEST, END OF USER AREA",
	      "MMC-5 F.2 05/63/00: end of user area encountered on this track"),
	SENSE(0x05, 0x64, ANY, CDT_ACT_WRONG_MODE, "ILLEGAL REQUEST, ILLEGAL MODE FOR THIS TRACK",
	      "MMC-5 F.2 05/64/00: audio, Mode 2 Form 2, a pregap or a TAO run-out; the structure says which"),
	/*
	 * 05/6F/00-05: the copy protection answers of a DVD drive (MMC-5
	 * F.2; names as sg3_utils lib/sg_lib_data.c lists them).  A CSS
	 * disc's scrambled sectors answer 05/6F/03 until the host has
	 * authenticated (MMC-5 4.10.3 CSS, REPORT KEY / SEND KEY), which
	 * cdtail never does: the block is there and whole, not damage and
	 * not the end; the jobs list it skipped "protected".
	 */
	SENSE(0x05, 0x6f, 0x00, CDT_ACT_PROTECTED,
	      "ILLEGAL REQUEST, COPY PROTECTION KEY EXCHANGE FAILURE - AUTHENTICATION FAILURE",
	      "MMC-5 F.2 05/6F/00; sg3_utils sg_lib_data.c"),
	SENSE(0x05, 0x6f, 0x01, CDT_ACT_PROTECTED,
	      "ILLEGAL REQUEST, COPY PROTECTION KEY EXCHANGE FAILURE - KEY NOT PRESENT",
	      "MMC-5 F.2 05/6F/01; sg3_utils sg_lib_data.c"),
	SENSE(0x05, 0x6f, 0x02, CDT_ACT_PROTECTED,
	      "ILLEGAL REQUEST, COPY PROTECTION KEY EXCHANGE FAILURE - KEY NOT ESTABLISHED",
	      "MMC-5 F.2 05/6F/02; sg3_utils sg_lib_data.c"),
	SENSE(0x05, 0x6f, 0x03, CDT_ACT_PROTECTED,
	      "ILLEGAL REQUEST, READ OF SCRAMBLED SECTOR WITHOUT AUTHENTICATION",
	      "MMC-5 F.2 05/6F/03: a CSS-scrambled sector read before authentication; sg3_utils sg_lib_data.c"),
	SENSE(0x05, 0x6f, 0x04, CDT_ACT_PROTECTED,
	      "ILLEGAL REQUEST, MEDIA REGION CODE IS MISMATCHED TO LOGICAL UNIT REGION",
	      "MMC-5 F.2 05/6F/04 (RPC-II drives); sg3_utils sg_lib_data.c"),
	SENSE(0x05, 0x6f, 0x05, CDT_ACT_PROTECTED,
	      "ILLEGAL REQUEST, DRIVE REGION MUST BE PERMANENT/REGION RESET COUNT ERROR",
	      "MMC-5 F.2 05/6F/05; sg3_utils sg_lib_data.c"),
	SENSE(0x05, ANY, ANY, CDT_ACT_BAD_BLOCK, "ILLEGAL REQUEST (other)",
	      "scsi_lib.c scsi_io_completion: ILLEGAL_REQUEST -> ACTION_FAIL, EIO; ddrescue marks the sector bad"),
	SENSE(0x06, 0x28, ANY, CDT_ACT_CHANGED, "UNIT ATTENTION, MEDIUM MAY HAVE CHANGED",
	      "cdrom.c media_changed; sg_lib: SG_LIB_CAT_UNIT_ATTENTION (was MEDIA_CHANGED)"),
	SENSE_R(0x06, ANY, ANY, CDT_ACT_RETRY, UA_RETRIES, CDT_ACT_BAD_BLOCK,
		"UNIT ATTENTION (reset, mode change)",
		"scsi_error.c scsi_check_sense: UNIT_ATTENTION -> NEEDS_RETRY; reported once per event (SPC-4 5.14)"),
	SENSE_R(0x0b, ANY, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK,
		"ABORTED COMMAND",
		"scsi_error.c scsi_check_sense: ABORTED_COMMAND -> NEEDS_RETRY; sg_dd retries it (max_aborted); then EIO"),
	SENSE(ANY, ANY, ANY, CDT_ACT_BAD_BLOCK, "any other sense key",
	      "scsi_lib.c scsi_io_completion: ACTION_FAIL, EIO; ddrescue marks the sector bad"),

	/* ---- SCSI status other than GOOD and CHECK CONDITION (SAM-5 5.3) ---- */
	ROW(CDT_ROW_STATUS, 0x04, ANY, CDT_ACT_OK, 0, CDT_ACT_OK, "CONDITION MET",
	    "sg_lib: SG_LIB_CAT_CONDITION_MET"),
	ROW(CDT_ROW_STATUS, 0x08, ANY, CDT_ACT_RETRY, UA_RETRIES, CDT_ACT_BAD_BLOCK, "BUSY",
	    "scsi_error.c scsi_decide_disposition: BUSY -> ADD_TO_MLQUEUE; sg_lib: SG_LIB_CAT_BUSY, invites retry"),
	ROW(CDT_ROW_STATUS, 0x28, ANY, CDT_ACT_RETRY, UA_RETRIES, CDT_ACT_BAD_BLOCK, "TASK SET FULL",
	    "scsi_error.c: QUEUE_FULL -> ADD_TO_MLQUEUE; sg_lib: SG_LIB_CAT_TS_FULL, wait then retry"),
	ROW(CDT_ROW_STATUS, 0x40, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "TASK ABORTED",
	    "scsi_error.c: TASK_ABORTED -> maybe_retry"),
	ROW(CDT_ROW_STATUS, 0x18, ANY, CDT_ACT_REFUSED, 0, CDT_ACT_REFUSED, "RESERVATION CONFLICT",
	    "scsi_error.c: RESERVATION_CONFLICT -> SUCCESS (fails); another initiator holds the drive"),
	ROW(CDT_ROW_STATUS, ANY, ANY, CDT_ACT_BAD_BLOCK, 0, CDT_ACT_BAD_BLOCK, "any other status",
	    "scsi_error.c: default -> FAILED; EIO"),

	/* ---- host byte (include/scsi/scsi_status.h) ---- */
	ROW(CDT_ROW_HOST, 0x01, ANY, CDT_ACT_DEVICE_GONE, 0, CDT_ACT_DEVICE_GONE, "DID_NO_CONNECT",
	    "scsi_error.c: DID_NO_CONNECT -> SUCCESS (fails at once); the device was unplugged"),
	ROW(CDT_ROW_HOST, 0x02, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_BUS_BUSY",
	    "scsi_error.c: DID_BUS_BUSY -> maybe_retry; sg_lib: SG_LIB_CAT_TIMEOUT"),
	ROW(CDT_ROW_HOST, 0x03, ANY, CDT_ACT_TIMEOUT, 0, CDT_ACT_TIMEOUT, "DID_TIME_OUT",
	    "sg_lib: SG_LIB_CAT_TIMEOUT; scsi_error.c: the error handler ran"),
	ROW(CDT_ROW_HOST, 0x04, ANY, CDT_ACT_DEVICE_GONE, 0, CDT_ACT_DEVICE_GONE, "DID_BAD_TARGET",
	    "scsi_error.c: DID_BAD_TARGET -> SUCCESS (fails at once)"),
	ROW(CDT_ROW_HOST, 0x05, ANY, CDT_ACT_TIMEOUT, 0, CDT_ACT_TIMEOUT, "DID_ABORT",
	    "scsi_error.c: DID_ABORT after the error handler's abort is DID_TIME_OUT"),
	ROW(CDT_ROW_HOST, 0x06, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_PARITY",
	    "scsi_error.c: DID_PARITY -> maybe_retry"),
	ROW(CDT_ROW_HOST, 0x07, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_ERROR",
	    "scsi_error.c: DID_ERROR -> maybe_retry"),
	ROW(CDT_ROW_HOST, 0x08, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_RESET",
	    "scsi_status.h: reset by somebody; the command ended before the drive answered, nothing says the block is bad: sg_err_category_new leaves it to the caller, sent again"),
	ROW(CDT_ROW_HOST, 0x09, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_BAD_INTR",
	    "scsi_error.c: default -> FAILED, the error handler retries"),
	ROW(CDT_ROW_HOST, 0x0b, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_SOFT_ERROR",
	    "scsi_error.c: DID_SOFT_ERROR -> maybe_retry"),
	ROW(CDT_ROW_HOST, 0x0c, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_IMM_RETRY",
	    "scsi_error.c: DID_IMM_RETRY -> NEEDS_RETRY"),
	ROW(CDT_ROW_HOST, 0x0d, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_REQUEUE",
	    "scsi_error.c: DID_REQUEUE -> ADD_TO_MLQUEUE"),
	ROW(CDT_ROW_HOST, 0x0e, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_TRANSPORT_DISRUPTED",
	    "scsi_error.c: DID_TRANSPORT_DISRUPTED -> maybe_retry"),
	ROW(CDT_ROW_HOST, 0x0f, ANY, CDT_ACT_DEVICE_GONE, 0, CDT_ACT_DEVICE_GONE, "DID_TRANSPORT_FAILFAST",
	    "scsi_error.c: DID_TRANSPORT_FAILFAST -> SUCCESS (fails at once): the path is gone"),
	ROW(CDT_ROW_HOST, 0x10, ANY, CDT_ACT_BAD_BLOCK, 0, CDT_ACT_BAD_BLOCK, "DID_TARGET_FAILURE",
	    "scsi_error.c: permanent target failure, no retry; EIO"),
	ROW(CDT_ROW_HOST, 0x11, ANY, CDT_ACT_REFUSED, 0, CDT_ACT_REFUSED, "DID_NEXUS_FAILURE",
	    "sg_lib: SG_LIB_CAT_RES_CONFLICT"),
	ROW(CDT_ROW_HOST, 0x12, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_ALLOC_FAILURE",
	    "scsi_error.c: space allocation failed on the target; retried"),
	ROW(CDT_ROW_HOST, 0x13, ANY, CDT_ACT_BAD_BLOCK, 0, CDT_ACT_BAD_BLOCK, "DID_MEDIUM_ERROR",
	    "scsi_error.c: medium error, no retry; EIO"),
	ROW(CDT_ROW_HOST, 0x14, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DID_TRANSPORT_MARGINAL",
	    "scsi_error.c: a marginal path; retried here, there is no other path"),
	ROW(CDT_ROW_HOST, ANY, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "any other host byte",
	    "scsi_error.c: default -> FAILED, the error handler retries"),

	/* ---- driver byte, low nibble (sg.c; include/scsi/sg.h SG_ERR_DRIVER_*) ---- */
	ROW(CDT_ROW_DRIVER, 0x01, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DRIVER_BUSY",
	    "sg3_utils sg_lib_data.c: driver busy"),
	ROW(CDT_ROW_DRIVER, 0x02, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "DRIVER_SOFT",
	    "sg3_utils sg_lib_data.c: driver soft error"),
	ROW(CDT_ROW_DRIVER, 0x03, ANY, CDT_ACT_BAD_BLOCK, 0, CDT_ACT_BAD_BLOCK, "DRIVER_MEDIA",
	    "sg3_utils sg_lib_data.c: media error"),
	ROW(CDT_ROW_DRIVER, 0x06, ANY, CDT_ACT_TIMEOUT, 0, CDT_ACT_TIMEOUT, "DRIVER_TIMEOUT",
	    "sg_lib sg_err_category_new: SG_LIB_DRIVER_TIMEOUT -> SG_LIB_CAT_TIMEOUT"),
	ROW(CDT_ROW_DRIVER, 0x05, ANY, CDT_ACT_REFUSED, 0, CDT_ACT_REFUSED, "DRIVER_INVALID",
	    "sg3_utils sg_lib_data.c: driver invalid (the request was refused)"),
	ROW(CDT_ROW_DRIVER, ANY, ANY, CDT_ACT_BAD_BLOCK, 0, CDT_ACT_BAD_BLOCK, "DRIVER_ERROR, DRIVER_HARD, other",
	    "sg_lib sg_err_category_new: SG_LIB_CAT_OTHER; EIO"),

	/* ---- errno of the SG_IO ioctl (b: 1 when more than one block was asked) ---- */
	ROW(CDT_ROW_ERRNO, EINTR, ANY, CDT_ACT_INTERRUPTED, 0, CDT_ACT_INTERRUPTED, "EINTR",
	    "sg.c sg_wait_event: a signal ends the wait; without SA_RESTART the command is never sent again"),
	ROW(CDT_ROW_ERRNO, ENODEV, ANY, CDT_ACT_DEVICE_GONE, 0, CDT_ACT_DEVICE_GONE, "ENODEV",
	    "sg.c: sdp->detaching; sr.c: the device was removed"),
	ROW(CDT_ROW_ERRNO, ENXIO, ANY, CDT_ACT_DEVICE_GONE, 0, CDT_ACT_DEVICE_GONE, "ENXIO",
	    "block layer: the queue is dying"),
	ROW(CDT_ROW_ERRNO, EINVAL, 1, CDT_ACT_TOO_LONG, 0, CDT_ACT_TOO_LONG, "EINVAL on a multi-block read",
	    "block/blk-map.c blk_rq_map_user_iov: the transfer exceeds the queue's limits"),
	ROW(CDT_ROW_ERRNO, ENOMEM, 1, CDT_ACT_TOO_LONG, 0, CDT_ACT_TOO_LONG, "ENOMEM on a multi-block read",
	    "sg.c sg_build_indirect: no buffer for a transfer that long"),
	ROW(CDT_ROW_ERRNO, EIO, 1, CDT_ACT_TOO_LONG, 0, CDT_ACT_TOO_LONG, "EIO on a multi-block read",
	    "block/scsi_ioctl.c sg_io: dxfer_len > max_hw_sectors -> EIO"),
	ROW(CDT_ROW_ERRNO, EINVAL, ANY, CDT_ACT_REFUSED, 0, CDT_ACT_REFUSED, "EINVAL",
	    "sg.c/scsi_ioctl.c: the request itself is refused (not a SCSI device)"),
	ROW(CDT_ROW_ERRNO, ENOTTY, ANY, CDT_ACT_REFUSED, 0, CDT_ACT_REFUSED, "ENOTTY",
	    "the node does not accept SG_IO"),
	ROW(CDT_ROW_ERRNO, EAGAIN, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "EAGAIN",
	    "sg.c: the queue is full for now"),
	ROW(CDT_ROW_ERRNO, EBUSY, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "EBUSY",
	    "sg.c: the queue is full for now"),
	ROW(CDT_ROW_ERRNO, ENOMEM, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_BAD_BLOCK, "ENOMEM",
	    "sg.c: no memory for the request now"),
	ROW(CDT_ROW_ERRNO, ANY, ANY, CDT_ACT_RETRY, SR_RETRIES, CDT_ACT_DEVICE_GONE, "any other errno",
	    "the ioctl failed: a node that keeps failing is gone"),
};

#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

const struct cdt_answer_row *cdt_answer_rows(size_t *n)
{
	*n = N_ROWS;
	return rows;
}

static bool match(int want, int got)
{
	return want == ANY || want == got;
}

static const struct cdt_answer_row *find(enum cdt_row_kind kind, int a, int b,
					 int c)
{
	size_t i;

	for (i = 0; i < N_ROWS; i++)
		if (rows[i].kind == kind && match(rows[i].a, a) &&
		    match(rows[i].b, b) && match(rows[i].c, c))
			return &rows[i];
	return &rows[N_ROWS - 1];	/* not reached: each kind ends with ANY */
}

static void take(const struct cdt_answer_row *r, struct cdt_disposition *v)
{
	v->action = r->action;
	v->budget = r->budget;
	v->spent = r->spent;
	v->what = r->what;
	v->source = r->source;
}

enum cdt_action cdt_sense_action(const struct cdt_sense *s)
{
	if (!s->valid)
		return find(CDT_ROW_OTHER, OTHER_NO_SENSE, ANY, ANY)->action;
	if (s->deferred)
		return find(CDT_ROW_OTHER, OTHER_DEFERRED, ANY, ANY)->action;
	return find(CDT_ROW_SENSE, s->key, s->asc, s->ascq)->action;
}

bool answer_is_unit_attention(const struct cdt_sense *s)
{
	return s->valid && s->key == 0x06;
}

bool answer_is_medium_changed(const struct cdt_sense *s)
{
	return s->valid && s->key == 0x06 && s->asc == 0x28;
}

bool answer_is_illegal_request(const struct cdt_sense *s)
{
	return s->valid && s->key == 0x05;
}

bool answer_is_invalid_opcode(const struct cdt_sense *s)
{
	return s->valid && s->key == 0x05 && s->asc == 0x20 && s->ascq == 0x00;
}

bool answer_is_medium_error(uint8_t key)
{
	return key == 0x03;
}

bool answer_is_end_of_user_area(uint8_t key, uint8_t asc)
{
	return key == 0x05 && asc == 0x63;
}

/* CHECK CONDITION or COMMAND TERMINATED, or the driver byte says sense */
static bool has_sense_status(const struct cdt_answer *a)
{
	return a->status == 0x02 || a->status == 0x22 || (a->driver & 0x0f) == 0x08;
}

static void classify_sense(const struct cdt_answer *a, struct cdt_disposition *v)
{
	const struct cdt_sense *s = &v->sense;

	cdt_sense_decode(a->sense, a->sense ? a->sense_len : 0, &v->sense);
	if (!s->valid)
		take(find(CDT_ROW_OTHER, OTHER_NO_SENSE, ANY, ANY), v);
	else if (s->deferred)
		take(find(CDT_ROW_OTHER, OTHER_DEFERRED, ANY, ANY), v);
	else
		take(find(CDT_ROW_SENSE, s->key, s->asc, s->ascq), v);
}

/* GOOD, or sense that says all is well: whole, or short of data */
static void classify_good(const struct cdt_answer *a, struct cdt_disposition *v)
{
	uint32_t bs = a->block_size ? a->block_size : 1;

	/* only whole blocks count: a partial one did not arrive */
	if (a->data_len && a->resid && a->resid <= a->data_len &&
	    (a->data_len - a->resid) / bs < a->data_len / bs)
		take(find(CDT_ROW_OTHER, OTHER_RESIDUAL, ANY, ANY), v);
}

/* sg3_utils sg_err_category_new's order: sense, host byte, driver byte. */
void cdt_answer_classify(const struct cdt_answer *a, struct cdt_disposition *v)
{
	memset(v, 0, sizeof(*v));
	v->what = "GOOD";
	v->source = "SAM-5 5.3.2";
	if (a->transport_rc == CDT_ETIMEOUT) {
		take(find(CDT_ROW_OTHER, OTHER_TIMEOUT, ANY, ANY), v);
		return;
	}
	if (a->sys_errno) {
		bool multi = a->block_size && a->data_len > a->block_size;

		take(find(CDT_ROW_ERRNO, a->sys_errno, multi, ANY), v);
		return;
	}
	if (has_sense_status(a))
		classify_sense(a, v);
	else if (a->host)
		take(find(CDT_ROW_HOST, a->host, ANY, ANY), v);
	else if (a->driver & 0x0f)
		take(find(CDT_ROW_DRIVER, a->driver & 0x0f, ANY, ANY), v);
	else if (a->transport_rc)
		take(find(CDT_ROW_OTHER, OTHER_TRANSPORT, ANY, ANY), v);
	else if (a->status)
		take(find(CDT_ROW_STATUS, a->status, ANY, ANY), v);
	if (v->action == CDT_ACT_OK)
		classify_good(a, v);
}

const char *cdt_action_name(enum cdt_action a)
{
	/* in enum cdt_action's order */
	static const char *const names[] = {
		"ok", "short read: only what arrived counts",
		"bad block: mark it, go on", "wrong mode for this track",
		"end of the disc", "timeout: the block is bad",
		"retry", "send again (deferred error)",
		"wait until ready", "transfer too long: smaller reads",
		"medium gone: stop", "medium changed: stop",
		"device gone: stop", "refused: stop", "interrupted",
		"protected: skipped (no authentication)",
	};

	if ((size_t)a >= sizeof(names) / sizeof(names[0]))
		return "?";
	return names[a];
}

/* include/scsi/scsi_status.h, by value */
const char *cdt_host_byte_name(unsigned int host)
{
	static const char *const names[] = {
		"DID_OK", "DID_NO_CONNECT", "DID_BUS_BUSY", "DID_TIME_OUT",
		"DID_BAD_TARGET", "DID_ABORT", "DID_PARITY", "DID_ERROR",
		"DID_RESET", "DID_BAD_INTR", "DID_PASSTHROUGH",
		"DID_SOFT_ERROR", "DID_IMM_RETRY", "DID_REQUEUE",
		"DID_TRANSPORT_DISRUPTED", "DID_TRANSPORT_FAILFAST",
		"DID_TARGET_FAILURE", "DID_NEXUS_FAILURE", "DID_ALLOC_FAILURE",
		"DID_MEDIUM_ERROR", "DID_TRANSPORT_MARGINAL",
	};

	return host < sizeof(names) / sizeof(names[0]) ? names[host] : NULL;
}

/* include/scsi/sg.h's driver bytes (low nibble), by value */
const char *cdt_driver_byte_name(unsigned int driver)
{
	static const char *const names[] = {
		"DRIVER_OK", "DRIVER_BUSY", "DRIVER_SOFT", "DRIVER_MEDIA",
		"DRIVER_ERROR", "DRIVER_INVALID", "DRIVER_TIMEOUT",
		"DRIVER_HARD", "DRIVER_SENSE",
	};

	driver &= 0x0f;
	return driver < sizeof(names) / sizeof(names[0]) ? names[driver] : NULL;
}
