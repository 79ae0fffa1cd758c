/* SPDX-License-Identifier: MIT */
/*
 * The emulated MMC drive as its files share it: the drive's state (struct
 * sim), its configuration (struct sim_config), the disc's tracks, one
 * command's outcome, the sense codes, and what each file offers the
 * others.  None of this is seen above the transport seam.
 *
 * A header of its own, with no .c: sim.c, the dispatcher, calls every
 * handler, so the vocabulary the handlers take cannot live in sim.c's
 * header, or sim.c and each handler would depend on each other (issue 31:
 * that was the circle).  sim.c has no header; its one entry,
 * cdt_sim_open, is declared at the seam (transport/transport.h).
 *   sim.c        opening, closing, one command's path (unit attention,
 *                sense, virtual cost, trace): calls the others, called
 *                by none
 *   spec.c       the "IMAGE,key=value..." spec into a struct sim_config
 *   answer.c     sense and data-in helpers every handler uses
 *   read.c       READ(10)/(12)/(16) and the faults a read can meet
 *   fault.c      fault=, ready= and past=: the ways real drives fail a
 *                read, the reset after a timeout and the becoming-ready
 *                period
 *   tracktable.c the disc as sessions and tracks: layout= (pregaps too),
 *                gap=, tao=, open=, profile=, formatted=
 *   disc.c       what the disc is: READ CAPACITY, READ TOC, disc and
 *                track information
 *   config.c     what the drive is: INQUIRY, REQUEST SENSE, GET
 *                CONFIGURATION, MODE SENSE
 *   (cd/cue.c: a CUE sheet's text into tracks, pure; shared with verify)
 *   cuedisc.c    the disc of sim:FILE.cue: its sectors, READ CD, and what
 *                READ(10) gets from sectors that are not 2048-byte data
 *   ide.c        READ CD of a plain image: refused, or readcd=ide (QEMU)
 *   subchan.c    READ SUB-CHANNEL: the sheet's CATALOG and ISRCs, readsub=
 *   cdtext.c     READ TOC format 5: the sheet's CD-TEXT as packs, cdtext=
 *   change.c     change=: a medium change
 *   io.c         the image's bytes
 */
#ifndef CDT_SIM_DRIVE_H
#define CDT_SIM_DRIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include "mmc/mmc.h"
#include "transport/transport.h"

#define SIM_MAX_TRANSFER (8u * 1024 * 1024)
/* the smallest maxxfer=: Linux's blk_queue_max_hw_sectors never goes below a page */
#define SIM_MIN_TRANSFER 4096u
#define SIM_SENSE_LEN 18
/* 900 MB: larger images are DVDs, as no CD holds that much */
#define SIM_CD_MAX_BYTES 900000000ull

/* SPC/MMC sense keys and additional sense codes the drive answers with */
#define SK_NO_SENSE 0x00
#define SK_NOT_READY 0x02
#define SK_MEDIUM_ERROR 0x03
#define SK_HARDWARE_ERROR 0x04
#define SK_ILLEGAL_REQUEST 0x05
#define SK_UNIT_ATTENTION 0x06
#define SK_ABORTED_COMMAND 0x0b
#define ASC_NOT_READY 0x04
#define ASC_NO_MEDIUM 0x3a
#define ASCQ_BECOMING_READY 0x01
#define ASC_TRACKING_ERROR 0x09
#define ASCQ_TRACKING_SERVO 0x01
#define ASC_DATA_PHASE_ERROR 0x4b
#define ASC_UNRECOVERED_READ 0x11
#define ASC_INVALID_OPCODE 0x20
#define ASC_LBA_OUT_OF_RANGE 0x21
#define ASC_INVALID_FIELD 0x24
#define ASC_POWER_ON_RESET 0x29
#define ASC_MEDIUM_CHANGED 0x28
#define ASC_SAVING_NOT_SUPPORTED 0x39
#define ASC_END_OF_USER_AREA 0x64
#define ASC_COPY_PROTECTION 0x6f	/* MMC-5 F.2 05/6F/xx */
#define ASCQ_SCRAMBLED_NO_AUTH 0x03	/* 05/6F/03 */

enum sim_toc {
	SIM_TOC_REPORTED = 0,
	SIM_TOC_TRUE,
	SIM_TOC_NONE,
	SIM_TOC_CUT,		/* as reported, but 2 bytes short of its header */
};

/* What a failing read's INFORMATION field holds (VALID set unless NONE). */
enum sim_info {
	SIM_INFO_NONE = 0,
	SIM_INFO_LBA,		/* the first unreadable LBA */
	SIM_INFO_ZERO,		/* 0, whatever failed (QEMU IDE/AHCI) */
	SIM_INFO_START,		/* the command's first LBA */
	SIM_INFO_FIXED,		/* one constant, whatever failed (scsi_debug) */
};

struct sim_range {
	uint64_t first, last;	/* inclusive */
};

/* fault=KIND@A-B[xT]: how a read touching A..B fails (fault.c). */
enum sim_fault_kind {
	SIM_FAULT_TIMEOUT = 0,	/* no answer, then a reset and NOT READY */
	SIM_FAULT_HWERR,	/* HARDWARE ERROR 04/09/01 */
	SIM_FAULT_NOSENSE,	/* CHECK CONDITION without sense data */
	SIM_FAULT_ABORTED,	/* ABORTED COMMAND 0B/4B/00 */
	SIM_FAULT_HOST,		/* no SCSI status, host byte DID_ERROR */
	SIM_FAULT_SHORT,	/* GOOD, only the blocks before the fault move */
	SIM_FAULT_FORM2,	/* 05/64/00 with ILI: a Mode 2 Form 2 sector */
	SIM_FAULT_DEFERRED,	/* GOOD; the next command gets deferred sense */
	SIM_FAULT_GONE,		/* host byte DID_NO_CONNECT, to every later
				 * command too: the drive was unplugged */
	SIM_FAULT_EJECT,	/* NOT READY 02/3A/00, to every later command
				 * but INQUIRY, REQUEST SENSE: the disc is out */
};

struct sim_fault {
	enum sim_fault_kind kind;
	struct sim_range r;
	uint32_t times;		/* xT: only the first T reads of a block; 0: all */
};

/* What a read at or past the true end N gets (past=). */
enum sim_past {
	SIM_PAST_END = 0,	/* 05/21/00 */
	SIM_PAST_MEDIUM,	/* 03/11/00, as tgt */
	SIM_PAST_ZERO,		/* GOOD with zeros: a drive reading the lead-out */
	SIM_PAST_REPEAT,	/* GOOD with block N-1 again: a stale cache */
	SIM_PAST_SHORT,		/* GOOD up to N with a residual; from N 05/21/00 */
};

/* DID_ERROR of Linux's include/scsi/scsi_status.h: what fault=host sets */
#define SIM_DID_ERROR 0x07
/* DID_NO_CONNECT: what fault=gone sets */
#define SIM_DID_NO_CONNECT 0x01
/* ready= when not given: NOT READY for 5 s after a reset */
#define SIM_READY_DEFAULT_MS 5000

/* What a read touching an inter-session gap block gets (gap=). */
enum sim_gap {
	SIM_GAP_SENSE = 0,	/* gap_key/asc/ascq, 05/21/00 by default */
	SIM_GAP_HANG,		/* no answer: a timeout */
	SIM_GAP_ZERO,		/* success with zeros (drives reading the lead-out) */
};

/* One track of the disc's table (layout=, or one data track of N blocks). */
struct sim_track {
	uint32_t number;	/* from 1 */
	uint32_t session;	/* from 1 */
	bool audio;
	uint64_t start, blocks;	/* index 01 and its length, as the TOC says */
	uint64_t pregap;	/* blocks before start (index 00), same mode */
	uint8_t flags;		/* the control bits besides data: a CUE's
				 * FLAGS (MMC_CONTROL_*) */
	char isrc[13];		/* a CUE's ISRC, "" none */
};

/*
 * The control nibble of t, the TOC's and Q's: 4 a data track, 0 audio (2
 * channels, no pre-emphasis), with the sheet's FLAGS bits (MMC-5 6.26.3:
 * 4CH 8, DCP 2, PRE 1).  Here, not in disc.c, so that cuedisc.c's Q needs
 * no call up into the table's module.
 */
static inline uint8_t sim_track_control(const struct sim_track *t)
{
	uint8_t flags = MMC_CONTROL_4CH | MMC_CONTROL_DCP | MMC_CONTROL_PRE;

	return (uint8_t)((t->audio ? 0x00 : 0x04) | (t->flags & flags));
}

/*
 * Lead-out + next lead-in + pregap between sessions (cdrkit README.multi,
 * libburn cookbook.txt): 6750 + 4500 + 150 after the first, 2250 + 4500 +
 * 150 after each later one.
 */
#define SIM_GAP_FIRST 11400u
/* the 2-second pregap before LBA 0 (00:00:00 to 00:02:00) */
#define SIM_PREGAP 150u
#define SIM_GAP_LATER 6900u
#define SIM_LEADOUT_FIRST 6750u
#define SIM_LEADOUT_LATER 2250u
/* last possible lead-out start of an appendable disc: 79:59:74 */
#define SIM_LAST_LEADOUT 359849u

/* structure=END:L0:PATH: a dual-layer DVD's track path (structure.c) */
enum sim_struct_path {
	SIM_STRUCT_OTP = 0,	/* opposite: one descriptor for both layers */
	SIM_STRUCT_PTP,		/* parallel: layer 1 has its own descriptor */
	SIM_STRUCT_PTP_L0ONLY,	/* parallel, layer 1's descriptor refused */
};

/* opencap=: what READ CAPACITY says of an open DVD±R/BD-R (structure.c) */
enum sim_opencap {
	SIM_OPENCAP_DATA = 0,	/* the data's end, as most drives */
	SIM_OPENCAP_ONE,	/* 1 block */
	SIM_OPENCAP_LRA,	/* the last recorded address as the count */
};

struct sim_config {
	uint64_t hide, extra, runout;
	enum sim_toc toc;
	struct sim_range *bad;
	size_t n_bad;
	bool have_flaky;
	struct sim_range flaky;
	uint32_t flaky_times;
	uint64_t ua_every;	/* 0: no unit attentions */
	bool have_hang;
	uint64_t hang_lba;
	uint32_t block_size;
	uint64_t ok_us, fail_ms;
	enum sim_info info;
	uint32_t info_fixed;	/* the constant of info=fixed:N */
	bool sleep;
	char *trace_path;
	/*
	 * maxxfer=: the largest transfer in bytes (0: SIM_MAX_TRANSFER); a
	 * command asking for more fails as the kernel fails an SG_IO over
	 * the queue's max_hw_sectors: EINVAL, never seen by the drive.
	 */
	uint32_t maxxfer;
	/* real drives' failures (fault.c) */
	struct sim_fault *faults;
	size_t n_faults;
	uint64_t ready_ms;	/* NOT READY this long after a reset */
	bool ready_at_insert;	/* ready=MS@0: and after insertion */
	bool notready_mmc;	/* notready=mmc: only medium access refused */
	enum sim_past past;
	/* quirks of real targets */
	bool reveal;		/* READ CAPACITY grows to what reads touched */
	bool getconf_full;	/* GET CONFIGURATION pads to the allocation */
	bool stale;		/* failing reads still move a whole buffer */
	bool cdb16;		/* READ(16), READ CAPACITY(16) answered */
	bool readcd_ide;	/* readcd=ide: READ CD as QEMU's ide-cd (ide.c) */
	bool pregap1_refuse;	/* pregap1=refuse: no READ CD before LBA 0 */
	bool readsub_refuse;	/* readsub=refuse: READ SUB-CHANNEL 05/20/00 */
	bool cdtext_refuse;	/* cdtext=refuse: READ TOC format 5 05/24/00 */
	bool no_subq, no_subpw;	/* subchannel=: READ CD refuses formatted Q, raw P-W */
	uint32_t qadr;		/* qadr=N: every Nth Q ADR 2/3 (cuedisc.c); 0 none */
	char product[17];	/* drive=NAME: INQUIRY's product, "" the default */
	uint64_t change_at;	/* change=N: the Nth command meets 06/28/00 */
	char *change_image;	/* change=N:IMAGE2, or NULL: the same image */
	/* the disc's kind (issue 12) */
	char *layout;		/* layout= as given, parsed once N is known */
	enum sim_gap gap;
	uint8_t gap_key, gap_asc, gap_ascq;
	bool tao;		/* each data track's last 2 blocks: 05/64/00 */
	bool open;		/* the last session allows another */
	uint16_t profile;	/* 0: by size, CD-ROM or DVD-ROM */
	uint64_t formatted;	/* 0: not a formatted medium */
	bool trackinfo_pregap;	/* READ TRACK INFO starts at index 00 */
	bool cue_any_path;	/* cuepaths=any: a sheet's FILE may lie anywhere */
	/* DVD and BD (issue 36) */
	bool have_css;		/* css=A-B: CSS-scrambled sectors, read */
	struct sim_range css;	/* without authentication: 05/6F/03 */
	bool have_structure;	/* structure=END[:L0[:PATH]]: READ DISC */
	uint64_t structure_end;	/* STRUCTURE answered (structure.c), else */
	uint64_t structure_l0;	/* refused; L0 0: one layer */
	enum sim_struct_path structure_path;
	enum sim_opencap opencap;	/* READ CAPACITY of an open disc */
	uint32_t ecc;		/* ecc=16|32: bad= fails whole ECC blocks; 0 */
};

struct sim {
	struct cdt_transport t;	/* first: the device layer holds a pointer to it */
	struct sim_config cfg;
	int image_fd;
	int trace_fd;		/* -1 without trace= */
	uint64_t n_blocks;	/* whole blocks in the image: the true end */
	uint64_t n_reported;	/* what READ CAPACITY says */
	uint64_t n_commands;
	bool last_was_ua;
	/* failures so far of each flaky block below n_blocks */
	uint32_t *flaky_fails;
	uint64_t n_flaky_fails;
	uint64_t touched_end;	/* highest LBA a read addressed, plus 1 */
	/* stale=1: what the previous read put in the initiator's buffer */
	uint8_t *stale_buf;
	size_t stale_len, stale_cap;
	int change_fd;		/* change=N:IMAGE2 opened ahead, or -1 */
	/* the disc as sessions and tracks, built by sim_layout_build */
	struct sim_track *tracks;
	uint32_t n_tracks, n_sessions;
	char catalog[14];	/* a CUE's CATALOG, "" none */
	/* fault.c: reads each fault answered per block below N, or NULL */
	uint32_t **fault_hits;
	double clock_ms;	/* virtual time since open: costs and pauses */
	double ready_at_ms;	/* NOT READY until the clock reaches this */
	bool deferred_pending;	/* the next command gets deferred sense */
	bool gone, ejected;	/* fault=gone, fault=eject happened */
	bool too_long;		/* the last command was over maxxfer= */
	struct sim_cue *cue;	/* sim:FILE.cue: the sheet's disc (raw.c), or NULL */
};

/* How one command ended, before it is written into the cdt_cmd. */
struct sim_outcome {
	bool timeout;
	bool reset;		/* fault=timeout: the drive resets after it */
	bool check;
	bool no_sense;		/* CHECK CONDITION with no sense data */
	bool deferred;		/* sense response code 71h */
	bool ili;		/* the ILI bit of the sense key byte */
	bool host_error;	/* no SCSI status: host byte DID_ERROR */
	bool gone;		/* fault=gone: DID_NO_CONNECT, from now on */
	bool eject;		/* fault=eject: no medium, from now on */
	bool failed_read;	/* costs FAIL_MS rather than 1 ms */
	uint8_t key, asc, ascq;
	bool info_valid;
	uint64_t info;
	uint64_t blocks_moved;
};

struct sim_read {
	uint64_t lba;
	uint64_t nblocks;
};

/* spec.c */
int sim_parse_keys(struct sim_config *c, char *keys, char *err, size_t errlen);
/*
 * Split a writable spec at its first unescaped comma ("\," is a comma,
 * "\\" a backslash), unescaping the item before it; the next item, or NULL.
 */
char *sim_next_item(char *p);
/* bad= and flaky= ranges that start past the image's n blocks: CDT_EUSAGE. */
int sim_check_ranges(const struct sim_config *c, uint64_t n, char *err, size_t errlen);

/* change.c: change=N[:IMAGE2] */
int sim_key_change(struct sim_config *c, const char *v);
int sim_change_open(struct sim *s, char *err, size_t errlen);
/* Counted after n_commands: true when this command meets the change. */
bool sim_change_due(struct sim *s);
void sim_change_free(struct sim *s);
/* Is st the file of one of the emulated drive's discs? */
bool sim_serves(const struct sim *s, const struct stat *st);

/* fault.c: fault=, ready=, past= */
int sim_key_fault(struct sim_config *c, const char *v);
int sim_key_ready(struct sim_config *c, const char *v);
int sim_key_past(struct sim_config *c, const char *v);
int sim_check_fault_ranges(const struct sim_config *c, uint64_t n, char *err,
			   size_t errlen);
int sim_fault_alloc(struct sim *s, char *err, size_t errlen);
void sim_fault_free(struct sim *s);
/*
 * The fault of fault= that block b (below N) meets now, counted, or NULL.
 * A deferred fault only arms the next command's sense and returns NULL.
 */
const struct sim_fault *sim_fault_at(struct sim *s, uint64_t b);
/* Fill o as fault f answers a read; true when the read stops at it. */
bool sim_fault_answer(const struct sim_fault *f, struct sim_outcome *o);
/* Before a command: NOT READY or a deferred error takes its place. */
bool sim_fault_preempts(struct sim *s, const struct cdt_cmd *cmd,
			struct sim_outcome *o);
/* After a command: advance the clock; a timeout resets the drive. */
void sim_fault_after(struct sim *s, const struct sim_outcome *o, double ms);

/* io.c: len bytes at off of fd, retried on EINTR and short reads; false on
 * an error or end of file (the image is shorter than the disc says). */
bool sim_pread_all(int fd, void *buf, size_t len, off_t off);

/* tracktable.c: layout=, gap=, tao=, open=, profile=, formatted= */
int sim_key_layout(struct sim_config *c, const char *v);
int sim_key_gap(struct sim_config *c, const char *v);
int sim_key_profile(struct sim_config *c, const char *v);
int sim_key_formatted(struct sim_config *c, const char *v);
/* The track table from layout= (or one data track) checked against N. */
int sim_layout_build(struct sim *s, char *err, size_t errlen);
/* The track holding lba, its pregap included, or NULL (a gap, or past the last track). */
const struct sim_track *sim_track_at(const struct sim *s, uint64_t lba);
bool sim_in_gap(const struct sim *s, uint64_t lba);
/* First and last track of session sn (1-based). */
const struct sim_track *sim_session_first(const struct sim *s, uint32_t sn);
const struct sim_track *sim_session_last(const struct sim *s, uint32_t sn);
/* Blocks a track counts: the last one's end follows hide=/extra=/formatted=. */
uint64_t sim_track_blocks(const struct sim *s, const struct sim_track *t);
/*
 * The blocks between session sn's lead-out start and session sn+1's first.
 * An inline of drive.h, not a function of tracktable.c: the layout table
 * and the CUE disc (cuedisc.c) both place sessions with it, and cuedisc.c
 * is what tracktable.c calls for a CUE disc's tracks (no two files call
 * each other).
 */
static inline uint64_t sim_gap_after(uint32_t sn)
{
	return sn == 1 ? SIM_GAP_FIRST : SIM_GAP_LATER;
}
uint16_t sim_profile(const struct sim *s);
bool sim_profile_is_cd(uint16_t profile);

/* answer.c */
uint32_t sim_clamp32(uint64_t v);
void sim_check(struct sim_outcome *o, uint8_t key, uint8_t asc, uint8_t ascq);
void sim_invalid_field(struct sim_outcome *o);
void sim_put_answer(struct cdt_cmd *cmd, const uint8_t *ans, size_t len,
		    uint32_t alloc);
void sim_put_padded_answer(struct cdt_cmd *cmd, const uint8_t *ans,
			   size_t len, uint32_t alloc);

/* read.c */
bool sim_decode_read(const struct cdt_cmd *cmd, struct sim_read *r);
int sim_do_read(struct sim *s, struct cdt_cmd *cmd, const struct sim_read *r,
		struct sim_outcome *o);

/*
 * One command other than a read: fill cmd's data (sim_put_answer) or set
 * o's sense.  sim.c's table maps each opcode the drive knows to one.
 */
typedef void sim_handler(struct sim *s, struct cdt_cmd *cmd,
			 struct sim_outcome *o);

/* structure.c: structure= and READ DISC STRUCTURE */
int sim_key_structure(struct sim_config *c, const char *v);
int sim_key_opencap(struct sim_config *c, const char *v);
sim_handler sim_do_read_disc_structure;

/* disc.c */
uint64_t sim_capacity_now(const struct sim *s);
sim_handler sim_do_read_capacity10;
sim_handler sim_do_service_action_in;
sim_handler sim_do_read_toc;
sim_handler sim_do_read_disc_info;
sim_handler sim_do_read_track_info;

/* subchan.c */
sim_handler sim_do_read_subchannel;

/* cdtext.c: READ TOC format 5 (called by disc.c's READ TOC) */
sim_handler sim_read_cd_text;
/* The sheet holds CD-TEXT and cdtext=refuse is not given. */
bool sim_has_cd_text(const struct sim *s);

/* cuedisc.c: sim:FILE.cue */
struct sim_cue;
struct cue_sheet;
bool sim_is_cue_path(const char *path);
/* The sheet read, its files opened, s->n_blocks set. */
int sim_cue_open(struct sim *s, const char *path, char *err, size_t errlen);
void sim_cue_free(struct sim *s);
/* s->tracks from the sheet. */
void sim_cue_tracks(struct sim *s);
bool sim_cue_block_fails(struct sim *s, uint64_t b, struct sim_outcome *o);
bool sim_cue_copy_user(struct sim *s, uint64_t lba, uint64_t n, uint8_t *dst);
sim_handler sim_do_read_cd;
/* ide.c: READ CD of any disc: cuedisc.c's, readcd=ide's, or 05/20/00 */
sim_handler sim_do_read_cd_any;
/* The sheet of sim:FILE.cue, NULL for a plain image. */
const struct cue_sheet *sim_cue_sheet(const struct sim *s);
/* Is st the sheet's file or one of its FILEs? */
bool sim_cue_serves(const struct sim *s, const struct stat *st);

/* config.c */
sim_handler sim_do_inquiry;
sim_handler sim_do_request_sense;
sim_handler sim_do_get_configuration;
sim_handler sim_do_mode_sense10;

#endif
