/* SPDX-License-Identifier: MIT */
/*
 * cdtail: find, recover, image and verify the blocks an optical drive
 * does not admit to.  Public API of libcdtail: the disc library (open a
 * drive, its commands, the probe, the disc's layout, image, tail,
 * verify).  Two more headers of the same library: cdtail-hazards.h (the
 * ordering hazards of a block device) and cdtail-tools.h (what the
 * command line builds on: command and sense text, names, map views).
 * libcdtail.so exports exactly the functions of the three, each named in
 * libcdtail.map (libcdtail(3), ABI).
 *
 * Conventions:
 *  - every function that can fail returns 0 or a negative enum cdt_error;
 *  - the library never prints and never exits; the text of the last error
 *    on a device is available from cdt_errmsg();
 *  - all counts and LBAs are in the drive's blocks (see cdt_block_size());
 *  - the library never sends a command that writes to the medium or changes
 *    the drive's settings: the device layer refuses every opcode outside a
 *    read-only allow-list before it reaches a transport;
 *  - structs grow: every options and result struct starts with
 *    `size_t size`, set by the caller with CDT_INIT() before the call
 *    (`struct cdt_image_opts o = CDT_INIT(o);`).  The library reads
 *    options and writes results only within that size, so a program built
 *    against an older header (a smaller size) keeps working: the fields it
 *    does not have read as their default.  New fields are only ever
 *    appended at the end of a struct.  A size of 0 is CDT_EUSAGE (the
 *    struct was not initialised); a struct embedded in another is covered
 *    by the outer one's size, the library sets its size member, and it
 *    never grows while the soname stays: a result that must grow is held
 *    by pointer instead (cdt_read_summary's probe), allocated by the
 *    library with the library's size (CDT_HAS() tells what it holds) and
 *    released by the outer result's free function;
 *  - every struct field is documented in libcdtail(3), STRUCT FIELDS, in
 *    declaration order (make check-abi checks it): document a new one there;
 *  - NULL options mean the defaults, in every entry point;
 *  - a result that owns memory is released by its cdt_<struct>_free(),
 *    which is safe on a zeroed or CDT_INIT() result and idempotent.
 */
#ifndef CDTAIL_H
#define CDTAIL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Everything declared here is the library's interface: exported from
 * libcdtail.so, which is built with -fvisibility=hidden, so nothing else
 * is (see libcdtail(3), ABI).
 */
#pragma GCC visibility push(default)

#define CDT_VERSION "0.3.0"

/* Initialise an options or result struct: `struct cdt_X v = CDT_INIT(v);` */
#define CDT_INIT(v) { .size = sizeof(v) }

/*
 * Does the struct *p, as its owner built it, hold field?  For a library
 * reading a caller's options, and for a caller reading a callback's struct
 * (a library newer or older than the header it was built with).
 */
#define CDT_HAS(p, field) \
	((p)->size >= offsetof(__typeof__(*(p)), field) + sizeof((p)->field))

enum cdt_error {
	CDT_OK = 0,
	CDT_EUSAGE = -1,	/* bad address, bad sim: key, bad argument */
	CDT_EOPEN = -2,		/* the device or image could not be opened */
	CDT_ENOMEDIUM = -3,	/* no medium in the drive */
	CDT_ETRANSPORT = -4,	/* the command did not reach the drive */
	CDT_ETIMEOUT = -5,	/* the drive did not answer in time */
	CDT_ENOMEM = -6,
	CDT_EIO = -7,		/* a local file could not be read or written */
	CDT_EREFUSED = -8,	/* opcode not on the read-only allow-list */
	CDT_ECHECK = -9,	/* CHECK CONDITION the caller must look at */
	CDT_ENOTSCSI = -10,	/* the path does not accept SG_IO */
	CDT_EFORMAT = -11,	/* a file (map, image) is malformed */
	CDT_EINTR = -12,	/* interrupted by a signal the caller asked for */
	CDT_EBUSY = -13,	/* the map or OUT is in use by another run */
	CDT_ECHANGED = -14,	/* the medium changed to another disc mid-run */
	CDT_EOTHERDISC = -15,	/* the map (and OUT) belong to another disc, or
				 * OUT is the source being read */
};

/* A short English name for an error code ("no medium", ...). */
const char *cdt_strerror(int err);

/* The library's version at run time ("0.3.0"); CDT_VERSION is the header's. */
const char *cdt_version(void);

struct cdt_dev;

/*
 * One executed command, handed to the caller's log callback (for -v;
 * cdt_cmd_text() of cdtail-tools.h words it).  sense_len is 0 when the
 * drive returned none.
 */
struct cdt_cmd_log {
	size_t size;			/* sizeof, set by CDT_INIT() */
	const uint8_t *cdb;
	unsigned int cdb_len;
	int transport_result;	/* 0, CDT_ETIMEOUT or CDT_ETRANSPORT */
	uint8_t status;		/* SCSI status byte */
	const uint8_t *sense;
	unsigned int sense_len;
	double ms;		/* measured, or virtual on the emulated drive */
	/* since libcdtail 0.3 (look with CDT_HAS): what moved, for -vv/-vvv */
	const uint8_t *data;	/* the data-in buffer, NULL for none */
	uint32_t data_len;	/* the transfer length asked for, in bytes */
	uint32_t resid;		/* the residual: bytes asked that did not arrive */
	bool virtual_time;	/* ms is the emulated drive's virtual time */
};

typedef void (*cdt_log_fn)(void *ctx, const struct cdt_cmd_log *log);

struct cdt_open_opts {
	size_t size;			/* sizeof, set by CDT_INIT() */
	unsigned int timeout_ms;	/* per command; 0 = 30000 */
	cdt_log_fn log;			/* may be NULL */
	void *log_ctx;
};

/*
 * Open DEV: a path to a node that accepts SG_IO (/dev/sr0, /dev/sg3),
 * "sim:IMAGE[,key=value...]" for the emulated drive, or
 * "iscsi://HOST[:PORT]/IQN/LUN".  On failure *devp is NULL and errbuf holds
 * a one-line message.
 */
int cdt_open(const char *addr, const struct cdt_open_opts *opts,
	     struct cdt_dev **devp, char *errbuf, size_t errlen);
void cdt_close(struct cdt_dev *dev);

/* Text of the last error on dev ("" when none). */
const char *cdt_errmsg(const struct cdt_dev *dev);

/* "sgio", "sim" or "iscsi". */
const char *cdt_transport_name(const struct cdt_dev *dev);
bool cdt_is_virtual_time(const struct cdt_dev *dev);

/*
 * Block size in bytes: 0 until cdt_read_sizes() (which cdt_probe() and
 * the image, tail and verify calls run) has set it from READ CAPACITY;
 * until then cdt_read_blocks() is CDT_EUSAGE.  Nothing else changes it.
 */
uint32_t cdt_block_size(const struct cdt_dev *dev);

struct cdt_stats {
	size_t size;			/* sizeof, set by CDT_INIT() */
	uint64_t commands;
	uint64_t reads;
	uint64_t failed_reads;
	double virtual_ms;	/* sum of the emulated drive's durations */
	double device_ms;	/* sum of all command durations */
};

void cdt_get_stats(const struct cdt_dev *dev, struct cdt_stats *st);
void cdt_reset_stats(struct cdt_dev *dev);

/* How a read ended, as the end search and the imaging loop see it. */
enum cdt_read_class {
	CDT_READ_OK = 0,
	CDT_READ_END,		/* 05/21/00, 05/63/00: past the end */
	CDT_READ_MEDIUM,	/* a block-level failure of any kind (03/xx/xx,
				 * 04/xx/xx, no sense, ...): the block is bad */
	CDT_READ_TIMEOUT,	/* the drive did not answer */
	CDT_READ_FATAL,		/* the drive refuses the command */
	CDT_READ_CHANGED,	/* 06/28/00: the medium may have changed; not
				 * retried, no data */
	CDT_READ_WRONG_MODE,	/* 05/64/xx: not a Mode 1 / Form 1 block (audio,
				 * Form 2, a pregap, a TAO run-out); the disc's
				 * structure says which */
	CDT_READ_SHORT,		/* GOOD, but only nblocks - resid / block size
				 * blocks arrived (resid: the bytes that did not) */
	CDT_READ_PROTECTED,	/* 05/6F/00-05: copy protection (a CSS-scrambled
				 * sector, a region mismatch) refuses the block
				 * without authentication: there, not damage */
};

struct cdt_read_result {
	size_t size;			/* sizeof, set by CDT_INIT() */
	enum cdt_read_class cls;
	uint8_t sense_key, asc, ascq;
	bool info_valid;	/* INFORMATION field with VALID bit */
	uint64_t info;		/* first unreadable LBA, when info_valid */
	uint32_t resid;		/* bytes not transferred */
	double ms;
};

/*
 * Read nblocks from lba into buf, which holds buf_len bytes (at least
 * nblocks * cdt_block_size(), else CDT_EUSAGE).  Returns 0 when the
 * command was carried out (look at res->cls), or a negative error when it
 * could not be sent at all.
 */
int cdt_read_blocks(struct cdt_dev *dev, uint64_t lba, uint32_t nblocks,
		    void *buf, size_t buf_len, struct cdt_read_result *res);

/* Largest read the transport accepts, in blocks. */
uint32_t cdt_max_read_blocks(const struct cdt_dev *dev);

struct cdt_inquiry {
	size_t size;			/* sizeof, set by CDT_INIT() */
	uint8_t peripheral_type;
	bool removable;
	char vendor[9];
	char product[17];
	char revision[5];
};

int cdt_inquiry(struct cdt_dev *dev, struct cdt_inquiry *inq);
/*
 * The drive's serial number from the Unit Serial Number VPD page (80h):
 * 0 with buf holding it (possibly ""), CDT_ECHECK when the drive does not
 * give one (many ATAPI drives refuse VPD pages), else the command's error.
 * One INQUIRY, after any other command: acquisition logs want it.
 */
int cdt_unit_serial(struct cdt_dev *dev, char *buf, size_t len);

/* Raw command, for tools: refused unless the opcode is read-only. */
int cdt_exec_in(struct cdt_dev *dev, const uint8_t *cdb, unsigned int cdb_len,
		void *buf, uint32_t buf_len, uint32_t *resid,
		uint8_t *sense, unsigned int *sense_len);

/* Is this CDB on the read-only allow-list? */
bool cdt_cdb_allowed(const uint8_t *cdb, unsigned int cdb_len);

/* ---- size sources ---------------------------------------------------- */

#define CDT_SIZE_ABSENT (-1)

struct cdt_sizes {
	size_t size;			/* sizeof, set by CDT_INIT() */
	int64_t read_capacity;		/* blocks, from READ CAPACITY(10/16) */
	int64_t toc_leadout;		/* READ TOC lead-out start LBA */
	int64_t track_end;		/* last track start + size (TRACK INFO) */
	int64_t disc_leadout;		/* DISC INFO last lead-out, if recorded */
	int64_t filesystem;		/* declared by ISO 9660 / UDF */
	int64_t kernel;			/* the kernel's size, in drive blocks */
	int64_t kernel_512;		/* the kernel's size, 512-byte units */
	char fs_type[16];		/* "iso9660", "udf", "" */
	uint16_t profile;		/* GET CONFIGURATION current profile */
	uint32_t block_size;
};

int cdt_read_sizes(struct cdt_dev *dev, struct cdt_sizes *sz);

/* "CD-ROM", "DVD-ROM", ..., or "unknown". */
const char *cdt_profile_name(uint16_t profile);

/* ---- raw sectors: READ CD (issue 25) ------------------------------------ */
/*
 * What the drive can read raw, from what GET CONFIGURATION declares (the
 * CD Read feature, 001Eh) and from trying READ CD at one LBA, because
 * declarations and firmware disagree (redumper decides by executing
 * commands).  Each "works" field is true only when the command succeeded
 * and moved exactly the bytes asked for, and what came is believable: a
 * raw sector whose header names the LBA asked, a Q whose CRC holds.
 */
struct cdt_raw_caps {
	size_t size;			/* sizeof, set by CDT_INIT() */
	bool declared;			/* CD Read (001Eh) listed and current */
	bool declared_c2;		/* it declares C2 error pointers */
	bool declared_cdtext;		/* it declares CD-Text */
	int64_t tried_lba;		/* where READ CD was tried, or CDT_SIZE_ABSENT */
	bool sectors;			/* 2352-byte raw sectors (sync .. EDC/ECC) */
	bool c2;			/* with 294 bytes of C2 error pointers */
	bool subq;			/* with formatted Q (16 bytes) */
	bool subpw;			/* with raw P-W (96 bytes) */
	/* the raw sector tried was a data sector whose EDC/ECC held; false
	 * for audio, and for drives that make sectors up with zero EDC/ECC
	 * (QEMU's ide-cd), which cdtail never trusts */
	bool edc_ok;
};

/* READ CD tried at lba (a data track's first block is a good choice). */
int cdt_raw_caps(struct cdt_dev *dev, int64_t lba, struct cdt_raw_caps *caps);

/* ---- CD-TEXT: READ TOC format 5 (issue 33) ---------------------------- */
/*
 * The CD-TEXT of a CD's lead-in (MMC-5 annex J; the Red Book's CD-TEXT
 * addendum, IEC 61866): up to 8 blocks, one a language, each with the
 * disc's and every track's text.  Packs whose CRC fails are dropped and
 * counted.  Text is UTF-8 from the block's character code (ISO 8859-1
 * converted, ASCII as it is); a byte that cannot be converted (MS-JIS and
 * the other double-byte codes, controls) stands as \xNN and a backslash
 * as \\: nothing is guessed.
 */
enum cdt_text_field {
	CDT_TEXT_TITLE,
	CDT_TEXT_PERFORMER,
	CDT_TEXT_SONGWRITER,
	CDT_TEXT_COMPOSER,
	CDT_TEXT_ARRANGER,
	CDT_TEXT_MESSAGE,
	CDT_TEXT_FIELDS
};

#define CDT_TEXT_TRACKS 99

struct cdt_text_block {
	unsigned int number;		/* the block's number on the disc, 0..7 */
	unsigned int language;		/* EBU Tech 3258 code (0x09 English), 0 unknown */
	unsigned int charset;		/* character code: 0x00 ISO 8859-1, 0x01
					 * ASCII, 0x80 MS-JIS, 0x81 Korean, 0x82
					 * Mandarin */
	bool size_info;			/* its size information (8Fh) was read;
					 * without it language 0 and ISO 8859-1 */
	/* [0] the disc's, [n] track n's; NULL where absent */
	char *text[CDT_TEXT_TRACKS + 1][CDT_TEXT_FIELDS];
};

struct cdt_cd_text {
	size_t size;			/* sizeof, set by CDT_INIT() */
	bool answered;			/* the drive answered READ TOC format 5 */
	unsigned int packs;		/* packs in its answer */
	unsigned int bad_crc;		/* of them dropped for their CRC */
	size_t n_blocks;
	struct cdt_text_block *blocks;	/* the blocks holding text, by number */
};

/*
 * READ TOC format 5 into t: 0 also when the drive refuses it or the disc
 * has none (answered false, or n_blocks 0); CDT_EINTR when interrupted,
 * CDT_ENOMEM, CDT_EUSAGE.  Release with cdt_cd_text_free().
 */
int cdt_read_cd_text(struct cdt_dev *dev, struct cdt_cd_text *t);
/*
 * A copy of the CD-TEXT the handle's last probe read into t (cdt_probe,
 * and the probe every image, tail and verify runs, read it on a CD with an
 * audio track; nothing read: answered false, no block): no command sent.
 * 0, CDT_ENOMEM, CDT_EUSAGE.  Release with cdt_cd_text_free().
 */
int cdt_dev_cd_text(const struct cdt_dev *dev, struct cdt_cd_text *t);
void cdt_cd_text_free(struct cdt_cd_text *t);
/* "TITLE", "PERFORMER", ... as CUE sheets spell them; "" out of range */
const char *cdt_text_field_name(enum cdt_text_field f);
/* "English", "German", ... for the codes seen on discs, else NULL */
const char *cdt_text_language_name(unsigned int code);
/* "ISO-8859-1", "ASCII", "MS-JIS", "Korean", "Mandarin", else NULL */
const char *cdt_text_charset_name(unsigned int code);

/* ---- the disc's structure: sessions, tracks, gaps (issue 12) ---------- */
/*
 * What READ TOC (formats 0, 1, 2), READ DISC INFORMATION, READ TRACK
 * INFORMATION and GET CONFIGURATION say the disc is made of.  cdt_probe()
 * reads it (so image, tail and verify do); cdt_dev_layout() returns a copy
 * of the last one, the caller's to free with cdt_layout_free().  A drive
 * that refuses READ TOC (or lists no track in it) is read from disc and
 * track information alone.  A drive that answers none of these gives one
 * session holding one data track over READ CAPACITY's blocks (has_toc
 * false).
 */
enum cdt_track_mode {
	CDT_TRACK_DATA = 0,		/* control nibble 4: 2048-byte user data */
	CDT_TRACK_AUDIO,		/* control nibble 0: READ(10) gets 05/64/00 */
};

/* "data", "audio" */
const char *cdt_track_mode_name(enum cdt_track_mode m);

/* What a track's first sector's header says it is (READ CD, raw). */
enum cdt_sector_mode {
	CDT_SECTOR_UNKNOWN = 0,		/* not read raw: the drive cannot, or it failed */
	CDT_SECTOR_MODE1,
	CDT_SECTOR_MODE2,		/* formless: 2336 bytes */
	CDT_SECTOR_MODE2_FORM1,		/* 2048 bytes, EDC and ECC */
	CDT_SECTOR_MODE2_FORM2,		/* 2324 bytes: READ(10) gets 05/64/00 */
	CDT_SECTOR_AUDIO,		/* no sync pattern: CD-DA */
};

/* "", "mode1", "mode2", "mode2-form1", "mode2-form2", "audio" */
const char *cdt_sector_mode_name(enum cdt_sector_mode m);

struct cdt_track {
	unsigned int number;		/* 1..99 */
	unsigned int session;		/* 1.. */
	enum cdt_track_mode mode;
	uint64_t start;			/* first LBA */
	uint64_t blocks;		/* length, a TAO run-out included */
	int64_t last_recorded;		/* TRACK INFO's last recorded address,
					 * or CDT_SIZE_ABSENT */
	bool runout;			/* ends with a 2-block TAO run-out */
	enum cdt_sector_mode sector_mode; /* its first sector read raw (issue 25) */
	uint64_t pregap;		/* blocks before start (index 00), in
					 * the track's own mode; 0: none known */
	uint8_t control;		/* the TOC's control nibble (or the
					 * track mode's): 8 four channels, 4
					 * data, 2 copy permitted, 1 pre-emphasis */
};

/* Why blocks inside the disc's extent are not data to be read. */
enum cdt_skip_why {
	CDT_SKIP_AUDIO = 0,		/* an audio track */
	CDT_SKIP_GAP,			/* lead-out, lead-in, pregap between sessions */
	CDT_SKIP_RUNOUT,		/* a TAO track's 2 run-out blocks */
	CDT_SKIP_UNWRITTEN,		/* a formatted medium past its data */
	CDT_SKIP_PREGAP,		/* an audio track's pregap (index 00) */
	CDT_SKIP_FORM2,			/* blocks of a data track that READ(10)
					 * answers 05/64/00: Mode 2 Form 2 */
	CDT_SKIP_PROTECTED,		/* blocks that answer 05/6F/xx: copy
					 * protected (CSS), cdtail does not
					 * authenticate */
};

/* "audio", "gap", "runout", "unwritten", "pregap", "form2", "protected" */
const char *cdt_skip_why_name(enum cdt_skip_why why);

struct cdt_skip {
	uint64_t start;			/* first LBA */
	uint64_t blocks;
	enum cdt_skip_why why;
};

/* How a layout's pregaps and index marks were found (issue 33). */
enum cdt_qmarks {
	CDT_QMARKS_NONE = 0,		/* not searched: not a CD, no raw reads
					 * (or made-up ones) */
	CDT_QMARKS_FOUND,		/* from Q, every track */
	CDT_QMARKS_NO_Q,		/* the drive gives no Q (formatted or in
					 * P-W): the other answers' pregaps only,
					 * no index marks */
	CDT_QMARKS_PARTLY,		/* some tracks' Q could not be read:
					 * those keep the other answers' */
};

/* An index mark 02..99 (an array element: it keeps these fields). */
struct cdt_index {
	unsigned int track;		/* the track's number */
	unsigned int number;		/* 2..99 */
	uint64_t lba;			/* where Q's index turns to number */
};

struct cdt_layout {
	size_t size;			/* sizeof, set by CDT_INIT() */
	bool has_toc;			/* the drive described the disc: the
					 * TOC, or disc and track information */
	unsigned int sessions;
	struct cdt_track *tracks;	/* n_tracks, ascending */
	size_t n_tracks;
	struct cdt_skip *gaps;		/* n_gaps between sessions, ascending */
	size_t n_gaps;
	/*
	 * Every area of [0, extent) that image, tail and verify never read
	 * with READ(10)/(12): audio tracks, gaps, run-outs, and (formatted
	 * media, when asked to stop at the filesystem) the unwritten rest.
	 * n_skip of them, ascending, not overlapping.
	 */
	struct cdt_skip *skip;
	size_t n_skip;
	bool appendable;		/* the last session is open */
	int64_t last_possible_leadout;	/* DISC INFO: the blank disc's capacity,
					 * never a data end; or CDT_SIZE_ABSENT */
	uint16_t profile;		/* GET CONFIGURATION's current profile */
	bool formatted;			/* DVD+RW, DVD-RAM, BD-RE: READ CAPACITY
					 * is the formatted size */
	/*
	 * From subchannel Q (issue 33): how the pregaps and index marks were
	 * found, the READ CDs that cost, the tracks whose pregap Q puts
	 * elsewhere than the drive's other answers did (Q's stands), and
	 * every INDEX 02..99 of every track, n_indexes of them, by track
	 * then number.  A track's index 00 and 01 are its pregap and start.
	 */
	enum cdt_qmarks qmarks;
	unsigned int q_reads;
	unsigned int q_differs;
	struct cdt_index *indexes;
	size_t n_indexes;
};

/*
 * A copy of the layout the last probe of dev read (cdt_probe(), or the one
 * cdt_image(), cdt_image_raw(), cdt_tail() or cdt_verify() ran), or NULL
 * before one (or out of memory).  The caller owns it: it stays valid
 * after later calls on dev and after cdt_close(); free it with
 * cdt_layout_free().
 */
struct cdt_layout *cdt_dev_layout(const struct cdt_dev *dev);

/* Free a layout cdt_dev_layout() gave, its arrays with it; NULL is fine. */
void cdt_layout_free(struct cdt_layout *l);

/* ---- the true-end search and probe ------------------------------------ */

#define CDT_DEFAULT_MAX_EXTRA 16384

enum cdt_verdict {
	CDT_VERDICT_OK = 0,
	CDT_VERDICT_HIDDEN_TAIL,
	CDT_VERDICT_SHORT,
	/* no block of the disc reads (CDT_NOTE_NO_READABLE): its length
	 * says nothing (cdtail probe exits 4, as image does) */
	CDT_VERDICT_UNREADABLE,
};

enum cdt_probe_note {
	/* the last 1 or 2 reported blocks answer 05/64/00: a TAO run-out,
	 * the end (verdict ok); MEDIUM ERROR there is never one */
	CDT_NOTE_TAO_RUNOUT = 1 << 0,
	CDT_NOTE_CAPACITY_CHANGED = 1 << 1, /* READ CAPACITY grew after probing */
	CDT_NOTE_WINDOW_LIMIT = 1 << 2,	 /* search stopped at --max-extra */
	CDT_NOTE_TRAILING_MEDIUM = 1 << 3, /* end found at a medium error */
	CDT_NOTE_NO_READABLE = 1 << 4,	 /* not even LBA 0 could be read */
	/* the last track is audio: no end search (READ(10) cannot read it),
	 * the end is the structure's (cdt_dev_layout()) */
	CDT_NOTE_LAST_TRACK_AUDIO = 1 << 5,
	/* a formatted rewritable medium (DVD+RW, DVD-RAM, BD-RE) whose READ
	 * CAPACITY is more than 64 KiB past the filesystem, or whose true end
	 * is past it: the rest is unwritten; the verdict stays true_blocks
	 * against READ CAPACITY */
	CDT_NOTE_FORMATTED = 1 << 6,
	CDT_NOTE_APPENDABLE = 1 << 7,	 /* the last session is open */
	/* blocks of the last data track below its reported end answer
	 * 05/64/00: Mode 2 Form 2 sectors, part of the disc (true_blocks
	 * counts them); image lists them as skipped, why "form2" */
	CDT_NOTE_FORM2 = 1 << 10,
	/* the blocks before the agreed end (READ CAPACITY with the TOC or
	 * track information, and the filesystem where there is one) fail
	 * MEDIUM-class: damage, not the end; true_blocks is the agreed end,
	 * damaged_tail_blocks of it unreadable */
	CDT_NOTE_DAMAGED_TAIL = 1 << 11,
	/* reads past the agreed end of a CD succeed with only zeros or the
	 * last block again, no sector header to confirm them: not counted
	 * (true_blocks is the agreed end; unconfirmed_blocks were read) */
	CDT_NOTE_UNCONFIRMED_TAIL = 1 << 12,
};

/* Progress of a run, struct cdt_progress below says when it is called. */
struct cdt_progress;
typedef void (*cdt_progress_fn)(void *ctx, const struct cdt_progress *p);

struct cdt_probe_opts {
	size_t size;			/* sizeof, set by CDT_INIT() */
	uint64_t max_extra;	/* 0 = CDT_DEFAULT_MAX_EXTRA */
	cdt_progress_fn progress;	/* NULL, or told of every end-search read */
	void *progress_ctx;
	/* NULL, or a flag a signal handler sets: polled before each read of
	 * the end search, which then ends with CDT_EINTR */
	volatile sig_atomic_t *stop;
};

struct cdt_probe_result {
	size_t size;			/* sizeof, set by CDT_INIT() */
	struct cdt_inquiry inq;
	struct cdt_sizes sizes;
	uint64_t reported_blocks;	/* READ CAPACITY before any probing */
	uint64_t true_blocks;		/* 1 + last readable LBA (but for
					 * CDT_NOTE_DAMAGED_TAIL) */
	uint64_t extent_blocks;		/* what an image should cover: true_blocks
					 * and the MEDIUM ERROR blocks after it, up
					 * to where the drive says out of range */
	int64_t hidden_blocks;		/* true - reported */
	int64_t capacity_after;		/* READ CAPACITY after the search */
	enum cdt_verdict verdict;
	unsigned int notes;		/* enum cdt_probe_note bits */
	uint64_t reads, failed_reads;
	double search_ms;		/* duration the search spent */
	struct cdt_stats stats;		/* whole probe, sizes included */
	struct cdt_raw_caps raw;	/* what the drive reads raw (CDs only) */
	uint64_t damaged_tail_blocks;	/* CDT_NOTE_DAMAGED_TAIL: failing blocks
					 * at the end of true_blocks, else 0 */
	uint64_t unconfirmed_blocks;	/* CDT_NOTE_UNCONFIRMED_TAIL: filler
					 * blocks past true_blocks, else 0 */
	/*
	 * READ DISC STRUCTURE format 00h (issue 36), asked on DVD and BD
	 * profiles only; a size source beside struct cdt_sizes', which
	 * cannot grow.  structure_blocks: the DVD physical format's data
	 * area, or CDT_SIZE_ABSENT (refused, no DVD, a BD: its disc
	 * information holds physical addresses only); structure_layer0:
	 * layer 0's blocks on a disc of two layers (the LBA layer 1 starts
	 * at), else CDT_SIZE_ABSENT.
	 */
	int64_t structure_blocks;
	int64_t structure_layer0;
	unsigned int structure_layers;	/* 0: no structure answered */
	bool structure_otp;		/* DVD: opposite track path */
	uint8_t structure_version;	/* the book's part version */
	char structure_type[16];	/* "DVD-ROM", "DVD+R", ... (DVD book
					 * type), "BDO", "BDR", "BDW" (BD), "" */
	/*
	 * READ TRACK INFORMATION of the last recorded track on DVD±R,
	 * DVD-RW and BD-R (issue 36), each CDT_SIZE_ABSENT when not
	 * answered (other media, a refusal, a field not valid): its number,
	 * start, size and last recorded address, and the next writable
	 * address of the blank track after it (an open disc).  recorded_end
	 * is the track's recorded extent (LRA + 1, else start + size), a
	 * candidate of the end search where READ CAPACITY of an open disc
	 * says 1 or the last recorded address.
	 */
	int64_t recorded_track;
	int64_t recorded_start, recorded_size, recorded_last;
	int64_t next_writable;
	int64_t recorded_end;
	/*
	 * Since 0.3: the search stopped at the --max-extra window below the
	 * filesystem's size, and its last block was read once: 1 it read
	 * (the files are on the disc; the end lies past the window), 0 it
	 * did not; -1 not tried.
	 */
	int fs_end_read;
};

int cdt_probe(struct cdt_dev *dev, const struct cdt_probe_opts *opts,
	      struct cdt_probe_result *res);

const char *cdt_verdict_name(enum cdt_verdict v);

/* ---- image, tail, verify (see cdtail(1)) ------------------------------ */
/*
 * The three commands that read a whole disc share these pieces.  The
 * library never prints: progress goes to the caller's callback, errors to
 * cdt_errmsg(dev).  A caller that wants to be interruptible points stop at
 * a flag its signal handler sets; the library polls it between commands,
 * saves what it must and returns CDT_EINTR.
 */

struct cdt_range {
	uint64_t first, last;		/* inclusive LBAs */
};

enum cdt_phase {
	CDT_PHASE_COPY = 0,		/* large reads over untried blocks */
	CDT_PHASE_TRIM,			/* single blocks from the edges of failed chunks */
	CDT_PHASE_SCRAPE,		/* single blocks inside failed chunks */
	CDT_PHASE_RETRY,		/* single blocks still bad, once per pass */
	CDT_PHASE_COMPARE,		/* verify and tail: reading and comparing */
	CDT_PHASE_DIGEST,		/* hashing the output file */
	CDT_PHASE_SEARCH,		/* the end search, before any copying */
};

/* "copying", "trimming", "scraping", "retrying", "comparing", "hashing" */
const char *cdt_phase_name(enum cdt_phase phase);

struct cdt_progress {
	size_t size;			/* sizeof, set by CDT_INIT() */
	enum cdt_phase phase;
	unsigned int pass;
	uint64_t pos;			/* LBA being read (byte offset when hashing) */
	uint64_t total;			/* blocks to cover (bytes when hashing) */
	uint64_t done;			/* finished blocks (bytes when hashing) */
	uint64_t bad;			/* blocks that failed so far */
	uint64_t bytes_read;		/* read from the drive by this run */
	double elapsed_ms;
	uint64_t bad_areas;		/* runs of failed blocks so far */
	/* of total, as ddrescue counts them (image, tail; 0 in verify):
	 * blocks not tried yet, failed blocks still to be trimmed or scraped;
	 * bad - non_trimmed - non_scraped are the bad-sector blocks */
	uint64_t non_tried, non_trimmed, non_scraped;
};

/*
 * Called at most about 4 times a second, and once at each phase change.
 * In CDT_PHASE_SEARCH it is called after every read of the end search (a
 * failing read can take a real drive seconds): pos is the read's first
 * LBA, total the reported block count, done the reads so far, bad the
 * failing ones, elapsed_ms the search's drive time so far.
 * (cdt_progress_fn is declared above struct cdt_probe_opts.)
 */

/* Digests as lower-case hex, "" when not computed. */
struct cdt_digests {
	char md5[33];
	char sha256[65];
};

/* Settings image, tail and verify share; zero means the default. */
struct cdt_read_opts {
	size_t size;			/* sizeof, set by CDT_INIT() */
	uint64_t max_extra;		/* end search window; 0 = default */
	uint32_t chunk_blocks;		/* 0 = min(64 KiB, max transfer) */
	int retries;			/* passes over bad blocks; <0 = image/tail:
					 * sample, retry where it pays (cdtail(1)) */
	cdt_progress_fn progress;
	void *progress_ctx;
	volatile sig_atomic_t *stop;	/* set it to ask for a clean stop */
};

#define CDT_DEFAULT_RETRIES 2

/*
 * Outcome common to the commands that read a whole disc (image, image
 * --raw, tail, verify), embedded at the start of each one's result: it
 * keeps its layout for as long as the soname stays (libcdtail(3),
 * Structs that grow).  The probe result, which grows, is held by pointer.
 */
struct cdt_read_summary {
	size_t size;			/* sizeof, set by the library */
	/*
	 * The probe this run did: allocated by the library, released by the
	 * result's cdt_<struct>_free(); NULL only when the call failed
	 * before it started (CDT_EUSAGE for the result, CDT_ENOMEM).  Its size
	 * is the library's: a field newer than the library that filled it is
	 * not there (CDT_HAS(sum.probe, field) says whether it is).
	 */
	struct cdt_probe_result *probe;
	uint32_t block_size;
	uint64_t blocks_read;		/* blocks read good by this run */
	uint64_t bad_blocks;		/* blocks left unreadable */
	struct cdt_range *bad;		/* n_bad ranges, ascending */
	size_t n_bad;
	struct cdt_digests digests;
	double elapsed_ms;		/* wall clock */
	struct cdt_stats stats;		/* this run's commands, probe included */
};

/* ---- image ------------------------------------------------------------ */

/*
 * Which digests cdt_image() computes: CDT_HASH_MD5, CDT_HASH_SHA256 and/or
 * CDT_HASH_SHA1, or CDT_HASH_NONE alone for no digest at all (no hashing
 * thread runs and OUT is never read back).  0 is the default, MD5 and
 * SHA-256 (CDT_HASH_ALL, the default pair: it does not include SHA-1).  A
 * digest not computed is "" in the result; any other combination is
 * CDT_EUSAGE.
 */
#define CDT_HASH_MD5		0x1u
#define CDT_HASH_SHA256		0x2u
#define CDT_HASH_ALL		(CDT_HASH_MD5 | CDT_HASH_SHA256)
#define CDT_HASH_SHA1		0x4u
#define CDT_HASH_NONE		0x100u

/*
 * A formatted rewritable medium (DVD+RW, DVD-RAM, BD-RE) reads to its
 * formatted size, far past the filesystem: what image does with the rest.
 */
enum cdt_formatted_policy {
	CDT_FORMATTED_SKIP = 0,		/* zeros in OUT (a hole), never read,
					 * listed as skipped "unwritten" */
	CDT_FORMATTED_CUT,		/* OUT ends at the filesystem's end */
	CDT_FORMATTED_READ,		/* read it all (earlier contents) */
};

struct cdt_image_opts {
	size_t size;			/* sizeof, set by CDT_INIT() */
	struct cdt_read_opts rd;
	const char *map_path;		/* NULL: the map lives in memory only */
	const char *map_comment;	/* one more comment line in the map */
	bool force;			/* OUT may exist: it is truncated */
	unsigned int map_interval_ms;	/* 0 = 5000 */
	unsigned int digests;		/* CDT_HASH_* bits; 0 = both */
	enum cdt_formatted_policy formatted;	/* formatted media past the
					 * filesystem; 0 = CDT_FORMATTED_SKIP */
};

enum cdt_digest_source {
	CDT_DIGEST_NONE = 0,		/* not computed (interrupted, or
					 * CDT_HASH_NONE asked for none) */
	CDT_DIGEST_STREAM,		/* while reading, in order */
	CDT_DIGEST_FILE,		/* some or all of OUT read back
					 * (digest_read_back says how much) */
};

/*
 * The digests of one data track's blocks in OUT, [start, start + blocks),
 * computed from the same stream as the image's (cdt_image_result).  A
 * digest not asked for is "".  An element of an array: it never grows.
 */
struct cdt_track_digests {
	unsigned int number;		/* the track, 1..99 */
	unsigned int session;
	uint64_t start;			/* first LBA */
	uint64_t blocks;		/* in OUT: the TOC's length, cut at the extent */
	char md5[33];			/* lower-case hex, or "" */
	char sha256[65];
	char sha1[41];
};

struct cdt_image_result {
	size_t size;			/* sizeof, set by CDT_INIT() */
	struct cdt_read_summary sum;
	uint64_t extent_blocks;		/* OUT's size in blocks */
	bool resumed;			/* a map was loaded */
	uint64_t finished_before;	/* blocks the map marked finished */
	enum cdt_digest_source digest_source;
	uint64_t out_blocks;		/* blocks OUT holds read good */
	bool removed;			/* failed or stopped before its first
					 * block: OUT and the map it created
					 * are gone */
	unsigned int identity_blocks;	/* disc identity: blocks recorded, or
					 * on a resume compared */
	struct cdt_skip *skipped;	/* n_skipped areas not read: not data */
	size_t n_skipped;
	uint64_t skipped_blocks;	/* their blocks, never in bad_blocks */
	bool no_holes;			/* OUT's filesystem keeps no holes
					 * (vfat, exFAT) and this run grew
					 * OUT: its whole size was written */
	uint64_t map_grown_from;	/* a map without cdtail identity that
					 * stopped short of the extent (GNU
					 * ddrescue's of /dev/sr0): the blocks
					 * it covered; 0: not grown */
	bool other_drive;		/* resumed in another drive than the
					 * map's last (or a map naming none):
					 * without rd.retries, every bad block
					 * was tried once more */
	bool map_saved;			/* MAPFILE holds this run's map to
					 * resume from: its last save succeeded
					 * (or the map it read was this disc's
					 * and stands as read); false without
					 * MAPFILE, removed, or a failed save */
	char sha1[41];			/* with CDT_HASH_SHA1: OUT's SHA-1 (hex;
					 * sum.digests holds MD5 and SHA-256) */
	struct cdt_track_digests *track_digests;	/* each data track's */
	size_t n_track_digests;		/* 0 without digests or on a failure */
	uint64_t digest_read_back;	/* bytes of OUT read back for the
					 * digests: what earlier runs wrote,
					 * and what this one wrote after a
					 * failed read until the end; 0 when
					 * every byte was hashed as written */
	bool end_pending;		/* the run stopped before its end search
					 * (the data comes first on a disc whose
					 * sizes agree): sum.probe's true_blocks
					 * is only what was read, not an end */
};

/*
 * Image DEV to out_path, hidden tail included: [0, extent_blocks) of
 * cdt_probe().  Returns 0 when the run finished (look at sum.bad_blocks),
 * CDT_EUSAGE (OUT exists without force and without its map), CDT_EFORMAT
 * (the map is malformed or belongs to another disc), CDT_EINTR (stopped;
 * the map is saved), CDT_EIO (OUT or the map could not be written), or a
 * device error.  The result is filled as far as the run got; release it
 * with cdt_image_result_free().
 */
int cdt_image(struct cdt_dev *dev, const char *out_path,
	      const struct cdt_image_opts *opts, struct cdt_image_result *res);

void cdt_image_result_free(struct cdt_image_result *res);

/* ---- image --raw: BIN/CUE (issue 26) ---------------------------------- */
/*
 * cdt_image_raw() images a CD whole as 2352-byte sectors read with READ
 * CD: one BIN file per track (Redump's "OUT (Track N).bin", "OUT.bin"
 * for one track) and a CUE sheet, through the same rescue passes as
 * cdt_image().  The map (GNU ddrescue format) is in bytes of the raw
 * stream: the track files one after the other in track order, so it
 * applies to their concatenation; inter-session gaps and TAO run-outs
 * are in no file and not in the map.  See cdtail-image(1).
 */
struct cdt_raw_opts {
	size_t size;			/* sizeof, set by CDT_INIT() */
	struct cdt_read_opts rd;
	const char *map_path;		/* NULL: the map lives in memory only */
	const char *map_comment;	/* one more comment line in the map */
	bool force;			/* the BIN files and sheet may exist */
	unsigned int map_interval_ms;	/* 0 = 5000 */
	bool offset_set;		/* --offset given */
	int offset_samples;		/* the drive's read offset in samples:
					 * audio sample i of the disc is read
					 * at i + offset_samples */
	bool subchannel;		/* OUT.sub: P-W of every stored sector,
					 * CloneCD's layout (issue 33) */
	bool single_file;		/* one BIN, OUT.bin, and a one-FILE sheet */
};

struct cdt_raw_track {
	unsigned int number;		/* 1..99 */
	unsigned int session;
	enum cdt_track_mode mode;
	enum cdt_sector_mode sector_mode;
	char *file;			/* the BIN file's path */
	uint64_t first_lba;		/* its first sector: the stored pregap's */
	uint64_t sectors;		/* 2352-byte sectors in the file */
	uint64_t pregap;		/* of them before index 01 */
	uint64_t runout;		/* TAO run-out blocks after it, not stored */
	uint64_t bad_sectors;		/* sectors left unreadable (zeros) */
	uint64_t edc_errors;		/* of them: data sectors that arrived
					 * GOOD but whose EDC/ECC failed */
	bool hashed;			/* the three below are set: the run
					 * finished; computed from the bytes as
					 * written (what waited behind a failed
					 * read, or an earlier run's, read back) */
	uint32_t crc32;			/* the file's, as redump.org's DATs */
	char md5[33];			/* lowercase hex */
	char sha1[41];
	bool accuraterip;		/* an audio track whose two AccurateRip
					 * CRCs below are set (hashed too) */
	uint32_t arip_v1;		/* from its index 01 to the next track's */
	uint32_t arip_v2;
	char isrc[13];			/* the drive's ISRC, "" none */
};

struct cdt_raw_result {
	size_t size;			/* sizeof, set by CDT_INIT() */
	struct cdt_read_summary sum;	/* block_size 2352; bad: LBAs */
	uint64_t stream_sectors;	/* the files' sectors together */
	bool resumed;			/* a map was loaded */
	uint64_t finished_before;	/* sectors the map marked finished */
	bool audio_checked;		/* C2 pointers checked the audio */
	bool removed;			/* nothing read: what it made is gone */
	unsigned int identity_blocks;	/* recorded, or compared on a resume */
	struct cdt_raw_track *tracks;	/* n_tracks, in track order */
	size_t n_tracks;
	char catalog[14];		/* the drive's Media Catalog Number
					 * (13 digits), "" none */
	bool map_saved;			/* as cdt_image_result's */
	struct cdt_cd_text *cd_text;	/* the disc's CD-TEXT (in the sheet too),
					 * or NULL: none, or the drive gave none */
	/* with subchannel (issue 33), else NULL: */
	char *sub_file;			/* OUT.sub's path */
	uint64_t *q_crc_errors;		/* n_tracks: sectors read whose Q CRC
					 * failed, per track */
	uint64_t *sub_zeroed;		/* n_tracks: sectors not read, whose
					 * P-W record is zeros, per track */
};

/*
 * Image DEV to cue_path and its BIN files.  Returns as cdt_image(), and
 * CDT_EUSAGE when the drive cannot read raw sectors (or makes them up
 * with zero EDC/ECC) or the disc is not a CD.  Release the result with
 * cdt_raw_result_free().
 */
int cdt_image_raw(struct cdt_dev *dev, const char *cue_path,
		  const struct cdt_raw_opts *opts, struct cdt_raw_result *res);

void cdt_raw_result_free(struct cdt_raw_result *res);

/* ---- tail ------------------------------------------------------------- */

#define CDT_TAIL_COMPARE_BLOCKS 64

enum cdt_tail_basis {
	CDT_TAIL_NONE = 0,		/* IMAGE's length matches nothing */
	CDT_TAIL_REPORTED,		/* READ CAPACITY x block size */
	CDT_TAIL_KERNEL,		/* the kernel's size x 512 */
	CDT_TAIL_COMPLETE,		/* already the true end: nothing to add */
};

enum cdt_tail_verdict {
	CDT_TAIL_APPENDED = 0,
	CDT_TAIL_NOTHING_TO_ADD,
	CDT_TAIL_BAD_LENGTH,		/* IMAGE is not a copy of this disc */
	CDT_TAIL_MISMATCH,		/* a compared block differs */
	CDT_TAIL_UNREADABLE,		/* a block to compare could not be read */
};

struct cdt_tail_result {
	size_t size;			/* sizeof, set by CDT_INIT() */
	struct cdt_read_summary sum;
	enum cdt_tail_basis basis;
	enum cdt_tail_verdict verdict;
	uint64_t image_bytes;		/* IMAGE's length before */
	uint64_t final_bytes;		/* and after */
	uint64_t compared_blocks;
	uint64_t mismatch_lba;		/* MISMATCH, UNREADABLE */
	uint64_t appended_blocks;
	struct cdt_skip *skipped;	/* n_skipped areas not read: not data */
	size_t n_skipped;
	uint64_t skipped_blocks;	/* their blocks, never in bad_blocks */
	struct cdt_digests digests_before;	/* APPENDED: IMAGE's MD5 and
					 * SHA-256 before it was extended
					 * (sum.digests: after), from the
					 * same one read of its old bytes */
};

/*
 * Check that image_path is a copy of DEV cut at the reported (or kernel)
 * length, compare its last CDT_TAIL_COMPARE_BLOCKS data blocks with the
 * disc (skipped areas, which are not data, are never read nor compared),
 * then append [end of IMAGE, extent), zeros over skipped areas.  A findings is not an error: look at
 * verdict.  On an error or CDT_EINTR IMAGE is cut back to its old length.
 */
int cdt_tail(struct cdt_dev *dev, const char *image_path,
	     const struct cdt_read_opts *opts, struct cdt_tail_result *res);

void cdt_tail_result_free(struct cdt_tail_result *res);

/* ---- verify ----------------------------------------------------------- */

/* The first differing block, for a hex diff; both are block_size bytes. */
typedef void (*cdt_diff_fn)(void *ctx, uint64_t lba, const uint8_t *disc,
			    const uint8_t *image, uint32_t block_size);

struct cdt_verify_opts {
	size_t size;			/* sizeof, set by CDT_INIT() */
	struct cdt_read_opts rd;
	const char *image_path;		/* compare with this file, or */
	const char *md5;		/* these digests (hex, any case) */
	const char *sha256;
	bool all;			/* go on after the first difference */
	cdt_diff_fn diff;		/* may be NULL */
	void *diff_ctx;
	enum cdt_formatted_policy formatted;	/* as cdt_image_opts': the extent
					 * and skip list image made; 0 = SKIP */
	uint64_t length_blocks;		/* with a digest: one more length to
					 * try (0: none) */
	const char *cue_path;		/* compare raw, track by track, with
					 * the .bin files this CUE sheet names
					 * (instead of image_path or a digest) */
	uint64_t length_bytes;		/* length_blocks in bytes (0: none): whole
					 * blocks, else CDT_EUSAGE */
	bool cue_paths_any;		/* with cue_path: follow a FILE outside
					 * the sheet's folder (absolute, or with
					 * ..); false: CDT_EUSAGE naming its line */
};

/* With cue_path: one track of the sheet against the disc, read raw. */
struct cdt_cue_track {
	unsigned int number;		/* the sheet's TRACK nn */
	char file[256];			/* its FILE as the sheet names it (cut) */
	int64_t first_lba;		/* the disc LBA of its first sector in
					 * FILE (its pregap's, with INDEX 00) */
	uint64_t sectors;		/* sectors FILE holds for it */
	uint64_t compared;		/* sectors read and compared */
	uint64_t diff_sectors;		/* sectors that differ (after the first
					 * only with all) */
	int64_t first_diff_lba;		/* valid when diff_sectors */
	uint64_t first_diff_sector;	/* the same, counted in FILE's sectors
					 * of this track from 0 */
	uint64_t bad_sectors;		/* unreadable sectors (not compared) */
	bool length_differs;		/* the disc's track is not as long as the
					 * sheet's, or is not on the disc */
};

enum cdt_verify_verdict {
	CDT_VERIFY_IDENTICAL = 0,
	CDT_VERIFY_DIFFERENT,
	CDT_VERIFY_UNREADABLE,		/* no difference seen, some blocks unreadable */
	CDT_VERIFY_PREFIX,		/* FILE is the disc's start; data follows it */
	CDT_VERIFY_INCOMPLETE,		/* no difference seen, no block unreadable,
					 * but Form 2 blocks (skipped, form2) hold
					 * what READ(10) cannot give: not compared */
};

struct cdt_verify_result {
	size_t size;			/* sizeof, set by CDT_INIT() */
	struct cdt_read_summary sum;
	enum cdt_verify_verdict verdict;
	uint64_t image_bytes;		/* --image: the file's length */
	bool length_differs;
	bool have_diff;
	uint64_t first_diff_lba;
	uint64_t diff_blocks;		/* differing blocks seen */
	struct cdt_range *diffs;	/* with all: every differing range */
	size_t n_diffs;
	bool complete;			/* read to the end (digests valid) */
	int fs_fits;			/* 1, 0, or -1 when no filesystem size */
	struct cdt_skip *skipped;	/* n_skipped areas not read: not data */
	size_t n_skipped;
	uint64_t skipped_blocks;	/* their blocks, never in bad_blocks */
	uint64_t extent_blocks;		/* what was verified: the probe's extent,
					 * cut at the filesystem by
					 * CDT_FORMATTED_CUT */
	/* image_path shorter than the disc: the blocks past it that are
	 * padding (zeros, a TAO run-out, unwritten formatted space); the
	 * verdict is IDENTICAL when all are, PREFIX when data follows */
	uint64_t padding_blocks;
	/* with a digest: the lengths it was checked at (the true end's
	 * extent first, then READ CAPACITY, the filesystem's size and
	 * length_blocks where they are shorter and differ) and the one whose
	 * digest matched, 0 if none */
	uint64_t lengths[4];
	size_t n_lengths;
	uint64_t matched_blocks;
	struct cdt_cue_track *tracks;	/* with cue_path: n_tracks, the sheet's
					 * order */
	size_t n_tracks;
	/* with cue_path and the sheet's OUT.sub beside it (issue 33), else
	 * NULL: its path, and per track (n_tracks) the sectors whose P-W
	 * differs from the disc's (counted in diff_sectors too) and the
	 * first one's LBA (valid when counted) */
	char *sub_file;
	uint64_t *sub_diff_sectors;
	int64_t *sub_first_diff_lba;
	bool sub_checked;		/* the drive gave raw P-W to compare */
	bool sub_length_differs;	/* OUT.sub is not 96 bytes a sector of
					 * the sheet's files */
};

int cdt_verify(struct cdt_dev *dev, const struct cdt_verify_opts *opts,
	       struct cdt_verify_result *res);

void cdt_verify_result_free(struct cdt_verify_result *res);

/* ---- optical drives of the host (probe --all) ------------------------- */
/*
 * Every SCSI device of peripheral type 5 (CD/DVD) under a sysfs root: the
 * ones with an sr block node (block/sr*) and those with only an sg node
 * (class/scsi_generic), one entry per SCSI device, in the order of their
 * names (sr0, sr1, ..., sr10, then sgN).  Reads sysfs only; opens nothing.
 */
#define CDT_DRIVE_NAME_MAX 32

struct cdt_drive {
	char name[CDT_DRIVE_NAME_MAX];	/* "sr0", or "sg3" without a block node */
	char path[CDT_DRIVE_NAME_MAX + 8];	/* "/dev/sr0": the address to open */
	char sg[CDT_DRIVE_NAME_MAX];	/* "sg0", or "" */
	char hctl[CDT_DRIVE_NAME_MAX];	/* "0:0:0:0" */
	char vendor[16], model[32];	/* sysfs's, blanks trimmed */
};

struct cdt_drive_list {
	size_t size;			/* sizeof(struct cdt_drive_list) */
	struct cdt_drive *drives;	/* n of them */
	size_t n;
};

/*
 * Fill *list from sysfs_root (NULL: "/sys").  0 (n may be 0), CDT_EUSAGE
 * (the root is not a readable directory, or list without CDT_INIT()),
 * CDT_ENOMEM; err holds one line.  Release with cdt_drive_list_free().
 */
int cdt_drives_find(const char *sysfs_root, struct cdt_drive_list *list,
		    char *err, size_t errlen);
void cdt_drive_list_free(struct cdt_drive_list *list);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* CDTAIL_H */
