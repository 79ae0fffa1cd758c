/* SPDX-License-Identifier: MIT */
/*
 * An EWF (EnCase 6, .E01) writer over libewf: the CLI's only user of
 * libewf, so the library never depends on it (as with json-c).
 */
#ifndef CDT_CLI_EWF_H
#define CDT_CLI_EWF_H

#include <stddef.h>
#include <stdint.h>

struct ewf_out;

/* The case metadata an examiner records (NULL: not given). */
struct ewf_meta {
	const char *case_number, *evidence_number, *examiner, *description, *notes;
};

/*
 * Create the segment files of base (libewf appends .E01, .E02, ...) for
 * media_size bytes in sectors of sector_size.  NULL with err set.
 */
struct ewf_out *ewf_create(const char *base, uint64_t media_size, uint32_t sector_size,
			   const struct ewf_meta *meta, char *err, size_t errlen);
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

#endif
