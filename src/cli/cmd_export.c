// SPDX-License-Identifier: MIT
/*
 * cdtail export --ewf OUT.E01 IMAGE [--map MAP] [--log LOG]: a finished
 * 2048-byte image as an EWF (EnCase 6) file with the case metadata, the
 * acquisition its record tells (when it began, the drive, the medium, its
 * sessions), its MD5 and SHA-1 (SHA-256 in the notes, and with --xhash
 * in a section of its own), and the map's bad areas as acquiry errors,
 * as forensic examiners keep evidence (ewfacquire, Guymager and FTK Imager
 * write the same).  It seals only what it checked: the image against its
 * record and map (export_check.h), unless --unchecked says otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include <openssl/evp.h>
#include "cli.h"
#include "ewf.h"
#include "export_check.h"
#include "exportlog.h"
#include "readui.h"

/*
 * Set by SIGINT and SIGTERM (rui_catch_signals): the copy stops at its next
 * chunk, the EWF files begun are removed (no half E01 is left to pass for
 * evidence), and the run ends 130 or 143, with --json its error object.
 */
static volatile sig_atomic_t *export_stop;

static bool export_stopped(void)
{
	return export_stop && *export_stop;
}

#define CMD "export"
#define BLOCK 2048u
#define CHUNK (1u << 20)
#define MAX_SEGMENTS 64		/* .E01 to .E64: a bit each; 64 x 1.4 GiB */
/* cdt_mapview's bound: one cell a block (exact areas) up to 128 GB */
#define EXPORT_MAX_CELLS (1u << 26)

enum {
	OPT_EWF = 0x1701, OPT_MAP, OPT_FORCE, OPT_CASE, OPT_EVIDENCE,
	OPT_EXAMINER, OPT_DESCRIPTION, OPT_NOTES, OPT_LOG, OPT_UNCHECKED,
	OPT_SEGMENT_SIZE, OPT_COMPRESSION, OPT_XHASH, OPT_NO_LOG,
};
#define MIN_SEGMENT (1ull << 20)	/* ewfacquire -S's least: 1.0 MiB */
#define NOTES_MAX 8192

struct bad_area {
	uint64_t lba, blocks;
};

struct export_args {
	struct cli_common co;
	const char *ewf, *map, *log, *image;
	char base[4096];	/* OUT less ".E01": libewf appends the segment's */
	bool force, unchecked, xhash;
	uint64_t segment_size;	/* 0: libewf's 1.4 GiB */
	enum ewf_level level;
	const char *compression;	/* as given, for the record */
	struct ewf_meta meta;
	struct acqlog_opts lo;		/* --no-log; the case fields the E01 got */
	struct acqlog entry;		/* export's entry in IMAGE's record */
};

struct export_result {
	uint64_t bytes;
	struct bad_area *bad;
	size_t n_bad;
	uint8_t md5[16], sha1[20], sha256[32];
	char md5_hex[33], sha1_hex[41], sha256_hex[65];
	unsigned int segments;
	time_t started;		/* the acquisition's, from the record; 0: unsaid */
	struct export_check chk;
	bool writing;		/* EWF files begun: the record gets an entry */
	char error[5200];	/* why writing them failed */
};

static const struct cli_opt export_opts[] = {
	{ "ewf", OPT_EWF, "FILE", "write an EWF (EnCase 6) file, FILE ending in .E01" },
	{ "map", OPT_MAP, "MAPFILE", "IMAGE's map (else the one its record names, or IMAGE.map): "
	  "its identity blocks are checked, its bad areas become acquiry errors" },
	{ "log", OPT_LOG, "FILE", "IMAGE's acquisition record (else IMAGE.log beside it); "
	  "the export's entry is appended to it" },
	{ "no-log", OPT_NO_LOG, NULL, "append no entry to IMAGE's record" },
	{ "unchecked", OPT_UNCHECKED, NULL, "export even what fails the checks against the record "
	  "(or has none); the E01's notes say so" },
	{ "segment-size", OPT_SEGMENT_SIZE, "SIZE", "bytes a segment file holds at most, as "
	  "ewfacquire -S (a count, or with K, M, G, T: KiB...; at least 1M; default 1.4 GiB)" },
	{ "compression", OPT_COMPRESSION, "LEVEL", "as ewfacquire -c: none, empty-block, fast "
	  "(the default) or best, or deflate:LEVEL" },
	{ "xhash", OPT_XHASH, NULL, "also store the SHA-256 in an xhash section (ewfverify -d "
	  "sha256 checks it; Debian 12's ewfverify fails on it without -d sha256)" },
	{ "force", OPT_FORCE, NULL, "replace existing EWF files" },
	{ "case-number", OPT_CASE, "TEXT", "the case number to record" },
	{ "evidence-number", OPT_EVIDENCE, "TEXT", "the evidence number to record" },
	{ "examiner", OPT_EXAMINER, "TEXT", "the examiner's name to record" },
	{ "description", OPT_DESCRIPTION, "TEXT", "a description of the evidence" },
	{ "notes", OPT_NOTES, "TEXT", "notes to record" },
	CLI_OPTS_NO_DEVICE,
};

/* ewfacquire -S's sizes: a count of bytes, or binary units (1M = 1 MiB) */
static int parse_segment_size(const char *arg, uint64_t *out)
{
	static const char *units[] = { "", "K", "M", "G", "T" };
	char *end;
	unsigned long long v;
	size_t i;

	errno = 0;
	if (*arg < '0' || *arg > '9')
		return -1;
	v = strtoull(arg, &end, 10);
	if (errno)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i]);

		if (strncasecmp(end, units[i], n) || (strcasecmp(end + n, "") &&
						      strcasecmp(end + n, "iB") && strcasecmp(end + n, "B")))
			continue;
		if (v > (uint64_t)INT64_MAX >> (10 * i))
			return -1;
		*out = (uint64_t)v << (10 * i);
		return *out >= MIN_SEGMENT ? 0 : -1;
	}
	return -1;
}

static int parse_compression(const char *arg, enum ewf_level *out)
{
	static const char *names[] = { [EWF_FAST] = "fast", [EWF_NONE] = "none",
				       [EWF_EMPTY_BLOCK] = "empty-block", [EWF_BEST] = "best" };
	const char *level = arg;
	size_t i;

	if (!strncmp(arg, "deflate:", 8))
		level = arg + 8;
	else if (strchr(arg, ':'))
		return cli_usage(CMD, "--compression %s: EnCase 6 compresses with deflate only "
				 "(bzip2 is for EWF2 formats)", arg);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(level, names[i])) {
			*out = (enum ewf_level)i;
			return 0;
		}
	return cli_usage(CMD, "--compression wants none, empty-block, fast or best "
			 "(or deflate:LEVEL), not '%s'", arg);
}

static int export_opt(void *ctx, int key, const char *arg)
{
	struct export_args *a = ctx;
	const char **text[] = {
		&a->meta.case_number, &a->meta.evidence_number, &a->meta.examiner,
		&a->meta.description, &a->meta.notes,
	};

	switch (key) {
	case OPT_EWF:
		return cli_opt_file(CMD, "ewf", arg, &a->ewf);
	case OPT_MAP:
		return cli_opt_file(CMD, "map", arg, &a->map);
	case OPT_LOG:
		return cli_opt_file(CMD, "log", arg, &a->log);
	case OPT_UNCHECKED:
		a->unchecked = true;
		return 0;
	case OPT_XHASH:
		a->xhash = true;
		return 0;
	case OPT_NO_LOG:
		a->lo.no_log = true;
		return 0;
	case OPT_SEGMENT_SIZE:
		if (parse_segment_size(arg, &a->segment_size))
			return cli_usage(CMD, "--segment-size wants bytes of at least 1M (1048576; "
					 "K, M, G, T are KiB, MiB, GiB, TiB), not '%s'", arg);
		return 0;
	case OPT_COMPRESSION:
		a->compression = arg;
		return parse_compression(arg, &a->level);
	case OPT_FORCE:
		a->force = true;
		return 0;
	}
	if (key >= OPT_CASE && key <= OPT_NOTES) {
		*text[key - OPT_CASE] = arg;
		return 0;
	}
	return 1;
}

/* "x.E01" -> base "x"; anything else is a usage error. */
static int ewf_base(struct export_args *a)
{
	size_t n = strlen(a->ewf);

	if (n < 5 || strcasecmp(a->ewf + n - 4, ".E01"))
		return cli_usage(CMD, "--ewf %s: the name must end in .E01 (libewf names "
				 "the next segments .E02, .E03, ...)", a->ewf);
	if (n - 4 >= sizeof(a->base))
		return cli_usage(CMD, "--ewf %s: the name is too long", a->ewf);
	memcpy(a->base, a->ewf, n - 4);
	a->base[n - 4] = '\0';
	return 0;
}

static int parse_args(int argc, char **argv, struct export_args *a)
{
	struct cli_args ops;
	int rc;

	memset(a, 0, sizeof(*a));
	rc = cli_parse(&cli_cmd_export, argc, argv, &a->co, export_opt, a, &ops);
	if (rc)
		return rc;
	a->image = ops.op[0];
	cli_note_device(a->image);
	if (!*a->image)
		return cli_usage(CMD, "IMAGE is empty");
	if (!a->ewf)
		return cli_usage(CMD, "--ewf OUT.E01 is required (EWF is the format export writes)");
	rc = ewf_base(a);
	if (!rc)
		rc = cli_check_file(CMD, "IMAGE", a->image);
	if (!rc)
		rc = cli_check_new_file(CMD, "EWF file", a->ewf);
	if (!rc) {
		const char *others[] = { a->image, a->ewf, a->map ? a->map : a->image, NULL };

		rc = exportlog_begin(&a->entry, &a->lo, a->image, a->log, a->co.json, argc, argv,
				     others);
	}
	return rc;
}

/*
 * The segment files of OUT that exist, by number: bit i-1 for base.E0i ...
 * base.E99 (libewf's first range), so every caller walks them the same way.
 */
static uint64_t existing_segments(const struct export_args *a)
{
	char name[4200];
	struct stat st;
	uint64_t set = 0;
	unsigned int i;

	for (i = 1; i <= MAX_SEGMENTS; i++) {
		snprintf(name, sizeof(name), "%s.E%02u", a->base, i);
		if (!lstat(name, &st))
			set |= 1ull << (i - 1);
	}
	return set;
}

/*
 * Remove the segments in set; with stop_at_error, the first that cannot go
 * is reported (status 3).  Existing segments are replaced only with
 * --force, and then all go: no stale .E02 beside a new .E01.
 */
static int remove_segments(const struct export_args *a, uint64_t set, bool stop_at_error)
{
	char name[4200];
	unsigned int i;

	for (i = 1; i <= MAX_SEGMENTS; i++) {
		if (!(set & (1ull << (i - 1))))
			continue;
		snprintf(name, sizeof(name), "%s.E%02u", a->base, i);
		if (!a->force && stop_at_error)
			return cli_usage(CMD, "%s exists: add --force to replace it", name);
		if (unlink(name) && stop_at_error) {
			cli_err("%s: cannot remove %s: %s", CMD, name, strerror(errno));
			return EX_DEVICE_ERR;
		}
	}
	return 0;
}

/* The CD sync pattern that opens every raw data sector (ECMA-130, 14.2). */
static bool raw_sync(const uint8_t *b)
{
	static const uint8_t sync[12] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff,
					  0xff, 0xff, 0xff, 0xff, 0xff, 0 };

	return !memcmp(b, sync, sizeof(sync));
}

/*
 * EWF holds the 2048-byte user data of a disc: a CUE sheet, a BIN of raw
 * 2352-byte sectors or a file of partial blocks is refused with what it is.
 */
static int check_image(const struct export_args *a, int fd, uint64_t *bytes)
{
	const char *dot = strrchr(a->image, '.');
	uint8_t head[16] = { 0 };
	struct stat st;

	if (fstat(fd, &st)) {
		cli_err("%s: %s: %s", CMD, a->image, strerror(errno));
		return EX_DEVICE_ERR;
	}
	if (dot && !strcasecmp(dot, ".cue"))
		return cli_usage(CMD, "%s is a CUE sheet: EWF holds 2048-byte data, not raw "
				 "BIN/CUE sectors; export a 2048-byte image (cdtail image)", a->image);
	if (pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) && raw_sync(head))
		return cli_usage(CMD, "%s holds raw 2352-byte sectors (a BIN): EWF holds "
				 "2048-byte data; export a 2048-byte image (cdtail image)", a->image);
	if (st.st_size <= 0 || st.st_size % BLOCK)
		return cli_usage(CMD, "%s is %lld bytes, not a whole number of 2048-byte blocks",
				 a->image, (long long)st.st_size);
	*bytes = (uint64_t)st.st_size;
	return 0;
}

static int add_bad(struct export_result *r, uint64_t lba, uint64_t blocks)
{
	struct bad_area *b = realloc(r->bad, (r->n_bad + 1) * sizeof(*b));

	if (!b)
		return -1;
	r->bad = b;
	r->bad[r->n_bad].lba = lba;
	r->bad[r->n_bad++].blocks = blocks;
	return 0;
}

/*
 * The map covers IMAGE, block by block, and is finished; with --unchecked
 * what is not is a finding.  0 or the exit status.
 */
static int map_fits(const struct export_args *a, struct export_result *r,
		    const struct cdt_mapview *v)
{
	uint64_t unfinished = v->area_bytes[CDT_AREA_NONTRIED] +
			      v->area_bytes[CDT_AREA_NONTRIMMED] + v->area_bytes[CDT_AREA_NONSCRAPED];
	int rc;

	if (v->bytes != r->bytes && !a->unchecked)
		return cli_usage(CMD, "%s covers %llu bytes but %s holds %llu: not its map? "
				 "(or add --unchecked to export it anyway)", r->chk.map,
				 (unsigned long long)v->bytes, a->image, (unsigned long long)r->bytes);
	if (v->bytes != r->bytes) {
		rc = chk_finding(&r->chk, "%s covers %llu bytes but %s holds %llu (its bad "
				 "areas inside the image kept)", r->chk.map,
				 (unsigned long long)v->bytes, a->image, (unsigned long long)r->bytes);
		if (rc)
			return rc;
	}
	if (v->blocks_per_cell > 1)
		return cli_usage(CMD, "%s is too large to map block by block (over %llu blocks)",
				 r->chk.map, (unsigned long long)EXPORT_MAX_CELLS);
	if (!unfinished) {
		if (v->bytes == r->bytes)
			r->chk.passed |= CHK_MAP;
		return 0;
	}
	if (!a->unchecked)
		return cli_usage(CMD, "%s says %llu bytes of %s were never read: finish the "
				 "image first (run cdtail image with that map again), or add "
				 "--unchecked to export it anyway", r->chk.map,
				 (unsigned long long)unfinished, a->image);
	return chk_finding(&r->chk, "%s says %llu bytes of %s were never read (acquiry "
			   "errors here)", r->chk.map, (unsigned long long)unfinished, a->image);
}

/*
 * A finished map of IMAGE: its bad areas, block by block exact.  With
 * --unchecked an unfinished map's never-read areas are acquiry errors too:
 * IMAGE holds zeros there, not the disc.
 */
static int map_bad_areas(const struct export_args *a, struct export_result *r)
{
	struct cdt_mapview_opts o = { .size = sizeof(o), .max_cells = EXPORT_MAX_CELLS,
				      .block_size = BLOCK };
	struct cdt_mapview v = CDT_INIT(v);
	char err[1024];
	size_t k;
	int rc;

	rc = cdt_mapview_load(r->chk.map, &o, &v, err, sizeof(err));
	if (rc) {
		cli_err("%s: %s", CMD, err);
		return rc == CDT_ENOMEM || rc == CDT_EIO ? EX_DEVICE_ERR : EX_USAGE_ERR;
	}
	rc = map_fits(a, r, &v);
	for (k = 0; !rc && k < v.n_runs; k++)
		if (v.runs[k].area >= CDT_AREA_NONTRIED && v.runs[k].lba < r->bytes / BLOCK &&
		    (v.runs[k].area == CDT_AREA_BAD || a->unchecked) &&
		    add_bad(r, v.runs[k].lba, v.runs[k].lba + v.runs[k].blocks > r->bytes / BLOCK ?
			    r->bytes / BLOCK - v.runs[k].lba : v.runs[k].blocks)) {
			cli_err("%s: out of memory", CMD);
			rc = EX_DEVICE_ERR;
		}
	cdt_mapview_free(&v);
	return rc;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static void digests_hex(struct export_result *r)
{
	hex(r->md5, sizeof(r->md5), r->md5_hex);
	hex(r->sha1, sizeof(r->sha1), r->sha1_hex);
	hex(r->sha256, sizeof(r->sha256), r->sha256_hex);
}

/*
 * Without a map, the bad areas the record lists (a run without --map):
 * zeros in IMAGE all the same, so acquiry errors all the same.
 */
static int record_bad_areas(struct export_result *r)
{
	const struct acq_record *rec = &r->chk.rec;
	uint64_t blocks = r->bytes / BLOCK;
	size_t k;

	for (k = 0; k < rec->n_bad; k++) {
		const struct acq_area *b = &rec->bad[k];

		if (b->start >= blocks)
			continue;
		if (add_bad(r, b->start, b->blocks > blocks - b->start ? blocks - b->start :
			    b->blocks)) {
			cli_err("%s: out of memory", CMD);
			return EX_DEVICE_ERR;
		}
	}
	return 0;
}

/* IMAGE into the EWF writer (e NULL: nowhere), digesting it on the way. */
static int copy_image(const struct export_args *a, int fd, struct ewf_out *e,
		      struct export_result *r, char *err, size_t errlen)
{
	EVP_MD_CTX *md5 = EVP_MD_CTX_new(), *sha1 = EVP_MD_CTX_new(), *sha256 = EVP_MD_CTX_new();
	uint8_t *buf = malloc(CHUNK);
	uint64_t done = 0;
	ssize_t n = 0;
	int rc = -1;

	if (!md5 || !sha1 || !sha256 || !buf || !EVP_DigestInit_ex(md5, EVP_md5(), NULL) ||
	    !EVP_DigestInit_ex(sha1, EVP_sha1(), NULL) ||
	    !EVP_DigestInit_ex(sha256, EVP_sha256(), NULL)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	while (done < r->bytes) {
		if (export_stopped()) {
			snprintf(err, errlen, "interrupted: the EWF files begun are removed");
			goto out;
		}
		n = pread(fd, buf, CHUNK, (off_t)done);
		if (n <= 0) {
			snprintf(err, errlen, "cannot read %s: %s", a->image,
				 n ? strerror(errno) : "it shrank while being read");
			goto out;
		}
		if (e && ewf_write(e, buf, (size_t)n, err, errlen))
			goto out;
		EVP_DigestUpdate(md5, buf, (size_t)n);
		EVP_DigestUpdate(sha1, buf, (size_t)n);
		EVP_DigestUpdate(sha256, buf, (size_t)n);
		done += (uint64_t)n;
	}
	EVP_DigestFinal_ex(md5, r->md5, NULL);
	EVP_DigestFinal_ex(sha1, r->sha1, NULL);
	EVP_DigestFinal_ex(sha256, r->sha256, NULL);
	rc = 0;
out:
	EVP_MD_CTX_free(md5);
	EVP_MD_CTX_free(sha1);
	EVP_MD_CTX_free(sha256);
	free(buf);
	return rc;
}

/*
 * The record's sessions (ewfinfo's Sessions), as ewfacquire -m optical
 * writes them: libewf 20140813 keeps only where each session starts and
 * reads back a session section only when they tile the media (a gap
 * between them makes a file it cannot open, found by trying), so the
 * first starts at 0, each later one at its first data track, and each
 * runs to the next: the gap between sessions is its session's lead-out.
 * Without tracks in the record: one session of the whole image.
 */
static int add_sessions(struct ewf_out *e, const struct export_result *r, char *err, size_t errlen)
{
	const struct acq_record *rec = &r->chk.rec;
	uint64_t blocks = r->bytes / BLOCK, start[100] = { 0 };
	unsigned int s, i, n = 1;

	for (s = 2; s <= 99; s++) {
		uint64_t first = UINT64_MAX;

		for (i = 0; i < rec->n_tracks; i++)
			if (rec->tracks[i].session == s && rec->tracks[i].start < first)
				first = rec->tracks[i].start;
		if (first < blocks && first > start[n - 1])
			start[n++] = first;
	}
	for (i = 0; i < n; i++)
		if (ewf_session(e, start[i], (i + 1 < n ? start[i + 1] : blocks) - start[i],
				err, errlen))
			return -1;
	return 0;
}

/* "VENDOR PRODUCT REVISION" of the record's drive, the words it has. */
static void drive_model(const struct acq_record *rec, char *out, size_t len)
{
	const char *w[] = { rec->vendor, rec->product, rec->revision };
	size_t used = 0, i;

	out[0] = '\0';
	for (i = 0; i < 3 && used < len; i++)
		if (w[i][0])
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? " " : "", w[i]);
}

/* The examiner's fields: as given, else as the acquisition recorded them. */
static struct ewf_meta case_meta(const struct export_args *a, const struct acq_record *rec,
				 const char *notes)
{
	struct ewf_meta m = a->meta;

	if (!m.case_number && rec->case_number[0])
		m.case_number = rec->case_number;
	if (!m.evidence_number && rec->evidence_number[0])
		m.evidence_number = rec->evidence_number;
	if (!m.examiner && rec->examiner[0])
		m.examiner = rec->examiner;
	if (!m.description && rec->description[0])
		m.description = rec->description;
	m.notes = notes;
	return m;
}

/* The SHA-256 into the last segment of the finished set (ewf.h). */
static int add_sha256(const struct export_args *a, const struct export_result *r,
		      char *err, size_t errlen)
{
	uint64_t set = existing_segments(a);
	char name[4200];

	if (!set) {
		snprintf(err, errlen, "no segment file written");
		return -1;
	}
	snprintf(name, sizeof(name), "%s.E%02u", a->base, 64 - __builtin_clzll(set));
	return ewf_add_sha256(name, r->sha256_hex, err, errlen);
}

static int write_ewf(const struct export_args *a, int fd, struct export_result *r)
{
	const struct acq_record *rec = &r->chk.rec;
	const char *user_notes = a->meta.notes ? a->meta.notes : rec->notes[0] ? rec->notes : NULL;
	struct ewf_layout lay = { .media_size = r->bytes, .sector_size = BLOCK,
				  .segment_size = a->segment_size, .level = a->level };
	char model[3 * ACQ_TEXT + 3], err[1024], *notes = malloc(NOTES_MAX);
	struct ewf_acquiry acq = { .model = model, .serial = rec->serial };
	struct ewf_meta meta;
	struct ewf_out *e = NULL;
	size_t k;
	int rc;

	if (!notes) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}
	r->writing = true;
	drive_model(rec, model, sizeof(model));
	chk_notes(&r->chk, user_notes, r->sha256_hex, notes, NOTES_MAX);
	meta = case_meta(a, rec, notes);
	acq.started = r->started;
	e = ewf_create(a->base, &lay, &meta, &acq, err, sizeof(err));
	if (!e || add_sessions(e, r, err, sizeof(err)))
		goto fail;
	for (k = 0; k < r->n_bad; k++)
		if (ewf_acquiry_error(e, r->bad[k].lba, r->bad[k].blocks, err, sizeof(err)))
			goto fail;
	if (copy_image(a, fd, e, r, err, sizeof(err)))
		goto fail;
	digests_hex(r);
	rc = ewf_finish(e, r->md5, r->sha1, err, sizeof(err));
	e = NULL;	/* released either way */
	if (rc || (a->xhash && add_sha256(a, r, err, sizeof(err))))
		goto fail;
	free(notes);
	r->segments = (unsigned int)__builtin_popcountll(existing_segments(a));
	return 0;
fail:
	ewf_abandon(e);
	free(notes);
	remove_segments(a, existing_segments(a), false);
	cli_err("%s: %s: %s", CMD, a->ewf, err);
	snprintf(r->error, sizeof(r->error), "%s: %s", a->ewf, err);
	return export_stopped() ? rui_interrupted_status() : EX_DEVICE_ERR;
}
static json_object *meta_json(const struct export_args *a, const struct export_result *r)
{
	struct ewf_meta m = case_meta(a, &r->chk.rec, a->meta.notes ? a->meta.notes :
				      r->chk.rec.notes[0] ? r->chk.rec.notes : NULL);
	json_object *o = json_object_new_object();
	const char *keys[] = { "case_number", "evidence_number", "examiner",
			       "description", "notes" };
	const char *vals[] = { m.case_number, m.evidence_number, m.examiner,
			       m.description, m.notes };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_object_add(o, keys[i], vals[i] ? json_object_new_string(vals[i]) : NULL);
	return o;
}

static json_object *str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

/* What export checked IMAGE against, or with --unchecked what failed. */
static void json_checks(json_object *o, const struct export_result *r)
{
	const struct export_check *c = &r->chk;
	json_object *f = json_object_new_array();
	unsigned int i;

	json_object_object_add(o, "log", str_or_null(c->log));
	json_object_object_add(o, "map", str_or_null(c->map));
	json_object_object_add(o, "unchecked", json_object_new_boolean(c->unchecked));
	for (i = 0; i < c->n_findings; i++)
		json_object_array_add(f, json_object_new_string(c->findings[i]));
	json_object_object_add(o, "findings", f);
	json_object_object_add(o, "identity_blocks", json_object_new_int((int)c->id_blocks));
	json_object_object_add(o, "verdict", str_or_null(c->rec.verdict));
	json_object_object_add(o, "acquired", str_or_null(c->rec.started));
}

static void print_json(const struct export_args *a, const struct export_result *r)
{
	json_object *o = json_object_new_object(), *bad = json_object_new_array();
	size_t k;

	json_object_object_add(o, "image", json_object_new_string(a->image));
	json_object_object_add(o, "ewf", json_object_new_string(a->ewf));
	json_object_object_add(o, "segments", json_object_new_int((int)r->segments));
	json_checks(o, r);
	json_object_object_add(o, "block_size", json_object_new_int(BLOCK));
	json_object_object_add(o, "blocks", json_object_new_int64((int64_t)(r->bytes / BLOCK)));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)r->bytes));
	json_object_object_add(o, "md5", json_object_new_string(r->md5_hex));
	json_object_object_add(o, "sha1", json_object_new_string(r->sha1_hex));
	json_object_object_add(o, "sha256", json_object_new_string(r->sha256_hex));
	for (k = 0; k < r->n_bad; k++) {
		json_object *b = json_object_new_object();

		json_object_object_add(b, "start", json_object_new_int64((int64_t)r->bad[k].lba));
		json_object_object_add(b, "blocks", json_object_new_int64((int64_t)r->bad[k].blocks));
		json_object_array_add(bad, b);
	}
	json_object_object_add(o, "acquiry_errors", bad);
	json_object_object_add(o, "metadata", meta_json(a, r));
	cli_json_out(o);
}

static void print_checks(const struct export_result *r)
{
	const struct export_check *c = &r->chk;
	unsigned int i;

	if (c->unchecked) {
		printf("  UNCHECKED (--unchecked): the E01's notes say so\n");
		for (i = 0; i < c->n_findings; i++)
			printf("  unchecked: %s\n", c->findings[i]);
		return;
	}
	printf("  checked against %s: verdict %s, extent, %s", c->log, c->rec.verdict,
	       c->rec.md5[0] || c->rec.sha1[0] || c->rec.sha256[0] ? "digests" :
	       "no digests recorded");
	if (c->map)
		printf("; %s: %u identity block%s equal", c->map, c->id_blocks,
		       c->id_blocks == 1 ? "" : "s");
	printf("\n");
}

static void report(const struct export_args *a, const struct export_result *r)
{
	uint64_t bad_blocks = 0;
	size_t k;

	if (a->co.json) {
		print_json(a, r);
		return;
	}
	for (k = 0; k < r->n_bad; k++)
		bad_blocks += r->bad[k].blocks;
	/* -q: the result lines alone, as -q keeps them in every command */
	if (!a->co.quiet) {
		printf("export: %s -> %s (%u segment%s)\n", a->image, a->ewf, r->segments,
		       r->segments == 1 ? "" : "s");
		printf("  %llu blocks of 2048 bytes; %zu bad area%s (%llu blocks) recorded as "
		       "acquiry errors\n", (unsigned long long)(r->bytes / BLOCK), r->n_bad,
		       r->n_bad == 1 ? "" : "s", (unsigned long long)bad_blocks);
		print_checks(r);
	}
	printf("  md5  %s\n  sha1 %s\n  sha256 %s\n", r->md5_hex, r->sha1_hex, r->sha256_hex);
}

/* A read of IMAGE for its digests alone, checked against the record's. */
static int digest_first(const struct export_args *a, int fd, struct export_result *r)
{
	char err[1024];

	if (copy_image(a, fd, NULL, r, err, sizeof(err))) {
		cli_err("%s: %s", CMD, err);
		return export_stopped() ? rui_interrupted_status() : EX_DEVICE_ERR;
	}
	digests_hex(r);
	return chk_digests(&r->chk, r->md5_hex, r->sha1_hex, r->sha256_hex);
}

/* EWF numbers its segments .E01 to .E99 here (MAX_SEGMENTS walked): a size that needs more is refused */
static int check_segments(const struct export_args *a, uint64_t bytes)
{
	if (a->segment_size && bytes / a->segment_size + 2 > MAX_SEGMENTS)
		return cli_usage(CMD, "--segment-size %llu would split %s into more than %u "
				 "segment files: give at least %llu", (unsigned long long)a->segment_size,
				 a->image, MAX_SEGMENTS,
				 (unsigned long long)(bytes / (MAX_SEGMENTS - 2) + 1));
	return 0;
}

/* Check, write, check the digests: an E01 whose digests differ from the record's is removed. */
static int export_image(struct export_args *a, int fd, struct export_result *r)
{
	int rc;

	r->chk.image = a->image;
	r->chk.bytes = r->bytes;
	r->chk.unchecked = a->unchecked;
	rc = check_segments(a, r->bytes);
	if (!rc)
		rc = chk_record(&r->chk, a->log, a->map);
	if (!rc && r->chk.map)
		rc = map_bad_areas(a, r);
	else if (!rc)
		rc = record_bad_areas(r);
	if (!rc)
		rc = chk_identity(&r->chk, fd);
	if (!rc)
		rc = remove_segments(a, existing_segments(a), true);
	if (rc)
		return rc;
	r->started = chk_started(&r->chk);
	/*
	 * The digests first where the notes, written before the data, need
	 * them: with --unchecked to say they differ, and wherever the record
	 * holds no SHA-256 (no record, --digest none) to hold the image's.
	 */
	if ((a->unchecked && r->chk.have_record) || !r->chk.rec.sha256[0]) {
		rc = digest_first(a, fd, r);
		if (rc)
			return rc;
	}
	rc = write_ewf(a, fd, r);
	if (rc || a->unchecked)
		return rc;
	rc = chk_digests(&r->chk, r->md5_hex, r->sha1_hex, r->sha256_hex);
	if (rc) {
		remove_segments(a, existing_segments(a), false);
		r->segments = 0;
	}
	return rc;
}

/*
 * The export's entry in IMAGE's record, once it began writing EWF files
 * (a refusal before that changed nothing and is said on stderr alone),
 * with the case fields the E01 got.  The status, or 3 when the entry
 * cannot be written.
 */
static int record_export(struct export_args *a, struct export_result *r, int rc)
{
	const struct acq_record *rec = &r->chk.rec;
	struct ewf_meta m = case_meta(a, rec, a->meta.notes ? a->meta.notes :
				      rec->notes[0] ? rec->notes : NULL);
	struct export_entry e = {
		.image = a->image, .ewf = a->ewf, .base = a->base, .segments = r->segments,
		.segment_size = a->segment_size, .compression = a->compression ? a->compression :
		"fast", .xhash = a->xhash, .bytes = r->bytes, .md5 = r->md5_hex,
		.sha1 = r->sha1_hex, .sha256 = r->sha256_hex, .n_bad = r->n_bad, .chk = &r->chk,
	};
	size_t k;

	if (!r->writing)
		return rc;
	for (k = 0; k < r->n_bad; k++)
		e.bad_blocks += r->bad[k].blocks;
	a->lo.case_number = m.case_number;
	a->lo.evidence_number = m.evidence_number;
	a->lo.examiner = m.examiner;
	a->lo.description = m.description;
	a->lo.notes = m.notes;
	if (exportlog_write(&a->entry, &e, rc, !rc ? "exported" : rc == EX_USAGE_ERR ? "refused" :
			    rc >= 128 ? "interrupted" : "failed",
			    rc == EX_USAGE_ERR ? r->chk.refusal : r->error) && !rc)
		return EX_DEVICE_ERR;
	return rc;
}

static int export_run(int argc, char **argv)
{
	struct export_result *r = calloc(1, sizeof(*r));
	struct export_args a;
	int fd = -1, rc;

	if (!r) {
		cli_err("%s: out of memory", CMD);
		return EX_DEVICE_ERR;
	}
	export_stop = rui_catch_signals();
	rc = parse_args(argc, argv, &a);
	if (rc) {
		free(r);
		return rc == CLI_HELP_SHOWN ? 0 : rc;
	}
	fd = open(a.image, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_err("%s: cannot open %s: %s", CMD, a.image, strerror(errno));
		free(r);
		return errno == ENOENT ? EX_USAGE_ERR : EX_DEVICE_ERR;
	}
	rc = check_image(&a, fd, &r->bytes);
	if (!rc)
		rc = export_image(&a, fd, r);
	close(fd);
	if (!rc)
		report(&a, r);
	rc = record_export(&a, r, rc);
	free(r->bad);
	acq_free(&r->chk.rec);
	free(r);
	return rc;
}

const struct cli_cmd cli_cmd_export = {
	.name = "export",
	.operands = "--ewf OUT.E01 IMAGE",
	.about = "export a finished image as EWF (E01) with case metadata\n"
		 "\n"
		 "Write IMAGE (2048-byte blocks, as cdtail image writes it) into\n"
		 "EnCase 6 EWF files OUT.E01, OUT.E02, ... with libewf: the media\n"
		 "size, the sector size, IMAGE's MD5 and SHA-1, the metadata given,\n"
		 "the acquisition its record tells (when it began, the drive's model\n"
		 "and serial number, the medium and its size sources in the notes,\n"
		 "the sessions) and the map's bad areas as acquiry errors.  IMAGE is\n"
		 "checked first against its acquisition record (IMAGE.log, or --log)\n"
		 "and its map (--map, the record's, or IMAGE.map): a run that did not\n"
		 "finish, a size, an identity block or a digest that differs is\n"
		 "refused, and so is an image without a record, unless --unchecked.\n"
		 "export appends its own entry to that record (--no-log: none).\n"
		 "ewfverify checks the result and ewfexport gives IMAGE back.\n",
	.exits = "Exit: 0 exported, 2 usage error (also: IMAGE fails a check against\n"
		 "its record or map, has no record, is raw BIN/CUE, the map is another\n"
		 "image's or unfinished, OUT exists), 3 read or write error, 130/143\n"
		 "interrupted (the EWF files begun removed).\n",
	.opts = export_opts,
	.min_operands = 1,
	.max_operands = 1,
	.run = export_run,
};
