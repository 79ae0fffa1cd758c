// SPDX-License-Identifier: MIT
/* An EWF writer over libewf (ewf.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libewf.h>
#include "cdtail.h"
#include "ewf.h"

struct ewf_out {
	libewf_handle_t *h;
};

/* "what: libewf's own message" into err; libewf's error is released. */
static int ewf_fail(libewf_error_t **le, const char *what, char *err, size_t errlen)
{
	char msg[512] = "";

	if (*le) {
		libewf_error_sprint(*le, msg, sizeof(msg));
		libewf_error_free(le);
	}
	/* libewf's message lists its call chain, one call a line: the last says why */
	snprintf(err, errlen, "%s%s%s", what, msg[0] ? ": " : "",
		 strrchr(msg, '\n') ? strrchr(msg, '\n') + 1 : msg);
	return -1;
}

static int set_value(libewf_handle_t *h, const char *id, const char *value,
		     char *err, size_t errlen)
{
	libewf_error_t *le = NULL;

	if (!value || !*value)
		return 0;
	if (libewf_handle_set_utf8_header_value(h, (const uint8_t *)id, strlen(id),
						(const uint8_t *)value, strlen(value), &le) != 1)
		return ewf_fail(&le, id, err, errlen);
	return 0;
}

/* The header values: the examiner's and the acquiring tool's. */
static int set_values(libewf_handle_t *h, const struct ewf_meta *m, char *err, size_t errlen)
{
	const char *ids[] = { "case_number", "evidence_number", "examiner_name",
			      "description", "notes", "acquiry_software",
			      "acquiry_software_version", "acquiry_operating_system" };
	const char *vals[] = { m->case_number, m->evidence_number, m->examiner,
			       m->description, m->notes, "cdtail", CDT_VERSION, "Linux" };
	size_t i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (set_value(h, ids[i], vals[i], err, errlen))
			return -1;
	return 0;
}

/*
 * The media as ewfacquire describes an optical disc: EnCase 6, optical,
 * physical (the whole disc, not a partition), deflate at its fast level
 * with empty-block compression (unwritten areas and zero-filled bad blocks
 * cost almost nothing).
 */
static int set_media(libewf_handle_t *h, uint64_t size, uint32_t sector,
		     char *err, size_t errlen)
{
	libewf_error_t *le = NULL;

	if (libewf_handle_set_format(h, LIBEWF_FORMAT_ENCASE6, &le) != 1 ||
	    libewf_handle_set_media_type(h, LIBEWF_MEDIA_TYPE_OPTICAL, &le) != 1 ||
	    libewf_handle_set_media_flags(h, LIBEWF_MEDIA_FLAG_PHYSICAL, &le) != 1 ||
	    libewf_handle_set_bytes_per_sector(h, sector, &le) != 1 ||
	    libewf_handle_set_media_size(h, size, &le) != 1 ||
	    libewf_handle_set_compression_values(h, LIBEWF_COMPRESSION_FAST,
						 LIBEWF_COMPRESS_FLAG_USE_EMPTY_BLOCK_COMPRESSION,
						 &le) != 1)
		return ewf_fail(&le, "cannot describe the media", err, errlen);
	return 0;
}

struct ewf_out *ewf_create(const char *base, uint64_t media_size, uint32_t sector_size,
			   const struct ewf_meta *meta, char *err, size_t errlen)
{
	struct ewf_out *e = calloc(1, sizeof(*e));
	libewf_error_t *le = NULL;
	char *names[1] = { (char *)base };

	if (!e) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (libewf_handle_initialize(&e->h, &le) != 1) {
		ewf_fail(&le, "libewf", err, errlen);
		free(e);
		return NULL;
	}
	if (libewf_handle_open(e->h, names, 1, LIBEWF_OPEN_WRITE, &le) != 1) {
		ewf_fail(&le, "cannot create the EWF files", err, errlen);
		goto fail;
	}
	if (set_media(e->h, media_size, sector_size, err, errlen) ||
	    set_values(e->h, meta, err, errlen))
		goto fail;
	return e;
fail:
	ewf_abandon(e);
	return NULL;
}

int ewf_write(struct ewf_out *e, const void *buf, size_t len, char *err, size_t errlen)
{
	libewf_error_t *le = NULL;

	if (libewf_handle_write_buffer(e->h, buf, len, &le) != (ssize_t)len)
		return ewf_fail(&le, "cannot write the EWF files", err, errlen);
	return 0;
}

int ewf_acquiry_error(struct ewf_out *e, uint64_t sector, uint64_t sectors,
		      char *err, size_t errlen)
{
	libewf_error_t *le = NULL;

	if (libewf_handle_append_acquiry_error(e->h, sector, sectors, &le) != 1)
		return ewf_fail(&le, "cannot record a bad area", err, errlen);
	return 0;
}

int ewf_finish(struct ewf_out *e, const uint8_t md5[16], const uint8_t sha1[20],
	       char *err, size_t errlen)
{
	libewf_error_t *le = NULL;
	uint8_t m[16], s[20];
	int rc = 0;

	/* libewf takes the digests by non-const pointer */
	memcpy(m, md5, sizeof(m));
	memcpy(s, sha1, sizeof(s));
	if (libewf_handle_set_md5_hash(e->h, m, sizeof(m), &le) != 1 ||
	    libewf_handle_set_sha1_hash(e->h, s, sizeof(s), &le) != 1)
		rc = ewf_fail(&le, "cannot store the digests", err, errlen);
	else if (libewf_handle_write_finalize(e->h, &le) < 0)
		rc = ewf_fail(&le, "cannot finish the EWF files", err, errlen);
	if (libewf_handle_close(e->h, &le) != 0 && !rc)
		rc = ewf_fail(&le, "cannot close the EWF files", err, errlen);
	if (le)
		libewf_error_free(&le);
	libewf_handle_free(&e->h, NULL);
	free(e);
	return rc;
}

void ewf_abandon(struct ewf_out *e)
{
	if (!e)
		return;
	libewf_handle_close(e->h, NULL);
	libewf_handle_free(&e->h, NULL);
	free(e);
}
