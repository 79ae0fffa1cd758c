/* SPDX-License-Identifier: MIT */
/*
 * An EWF (EnCase 6, .E01) writer over libewf: the CLI's only user of
 * libewf, so the library never depends on it (as with json-c).
 */
#ifndef CDT_CLI_EWF_H
#define CDT_CLI_EWF_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct ewf_out;

/* The case metadata an examiner records (NULL: not given). */
struct ewf_meta {
	const char *case_number, *evidence_number, *examiner, *description, *notes;
};

/* What the acquisition recorded, as EWF header values (NULL or 0: unsaid). */
struct ewf_acquiry {
	const char *model;	/* the drive: vendor, product, revision */
	const char *serial;
	time_t started;		/* when the acquisition began; 0: libewf's now */
};

/* ewfacquire -c's levels: deflate is EnCase 6's one method */
enum ewf_level { EWF_FAST = 0, EWF_NONE, EWF_EMPTY_BLOCK, EWF_BEST };

struct ewf_layout {
	uint64_t media_size;
	uint32_t sector_size;
	uint64_t segment_size;	/* bytes a segment file at most; 0: libewf's 1.4 GiB */
	enum ewf_level level;
};

/*
 * Create the segment files of base (libewf appends .E01, .E02, ...) for
 * the media the layout describes.  NULL with err set.
 */
struct ewf_out *ewf_create(const char *base, const struct ewf_layout *lay,
			   const struct ewf_meta *meta, const struct ewf_acquiry *acq,
			   char *err, size_t errlen);
/* An optical session of the media, in sectors; 0, or -1 with err set. */
int ewf_session(struct ewf_out *e, uint64_t sector, uint64_t sectors, char *err, size_t errlen);
/* Append len bytes of the media; 0, or -1 with err set. */
int ewf_write(struct ewf_out *e, const void *buf, size_t len, char *err, size_t errlen);
/* A bad area of the acquisition, in sectors; 0, or -1 with err set. */
int ewf_acquiry_error(struct ewf_out *e, uint64_t sector, uint64_t sectors,
		      char *err, size_t errlen);
/*
 * Store the digests of the media and finish the files; 0, or -1 with err
 * set.  The handle is released either way.
 */
int ewf_finish(struct ewf_out *e, const uint8_t md5[16], const uint8_t sha1[20],
	       char *err, size_t errlen);
/* Release without finishing (after an error). */
void ewf_abandon(struct ewf_out *e);

/*
 * libewf 20140813 writes no SHA-256 into an EnCase 6 file; its readers
 * (ewfverify, ewfinfo) take one from an "xhash" section, the section
 * libewf's own EWF-X format keeps its digests in.  Insert one before the
 * "done" section of the finished set's last segment; 0, or -1 with err.
 * Only when asked (export --xhash): Debian 12's ewfverify without
 * -d sha256 fails on any file holding a SHA-256 (its buffer for the
 * digests it prints holds a SHA-1; ewfacquire -f ewfx's files fail the
 * same, tried), and a plain ewfverify is what an examiner runs first.
 */
int ewf_add_sha256(const char *last_segment, const char *sha256, char *err, size_t errlen);

#endif
