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

/*
 * The header values: the examiner's, the acquiring tool's and the
 * drive's.  libewf writes model and serial_number into header2's "md" and
 * "sn" fields (EnCase 5 and later; ewfinfo prints them as Model and
 * Serial number).  The acquiry date goes in as Unix time, the form of
 * header2's dates (its "m" beside the "u" libewf writes itself), so it
 * means the same instant in every time zone.
 */
static int set_values(libewf_handle_t *h, const struct ewf_meta *m,
		      const struct ewf_acquiry *a, char *err, size_t errlen)
{
	char when[24] = "";
	const char *ids[] = { "case_number", "evidence_number", "examiner_name",
			      "description", "notes", "acquiry_software",
			      "acquiry_software_version", "acquiry_operating_system",
			      "model", "serial_number", "acquiry_date" };
	const char *vals[] = { m->case_number, m->evidence_number, m->examiner,
			       m->description, m->notes, "cdtail", CDT_VERSION, "Linux",
			       a->model, a->serial, when };
	size_t i;

	if (a->started > 0)
		snprintf(when, sizeof(when), "%lld", (long long)a->started);
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (set_value(h, ids[i], vals[i], err, errlen))
			return -1;
	return 0;
}

/*
 * The media as ewfacquire describes an optical disc: EnCase 6, optical,
 * physical (the whole disc, not a partition), deflate at the level asked
 * (ewfacquire -c: none, empty-block, fast, best; fast by default, with
 * empty-block compression: unwritten areas and zero-filled bad blocks
 * cost almost nothing), segment files of the size asked (ewfacquire -S).
 */
static int set_media(libewf_handle_t *h, const struct ewf_layout *lay, char *err, size_t errlen)
{
	static const int8_t levels[] = {
		[EWF_FAST] = LIBEWF_COMPRESSION_FAST, [EWF_NONE] = LIBEWF_COMPRESSION_NONE,
		[EWF_EMPTY_BLOCK] = LIBEWF_COMPRESSION_NONE, [EWF_BEST] = LIBEWF_COMPRESSION_BEST,
	};
	uint8_t flags = lay->level == EWF_NONE ? 0 : LIBEWF_COMPRESS_FLAG_USE_EMPTY_BLOCK_COMPRESSION;
	libewf_error_t *le = NULL;

	if (libewf_handle_set_format(h, LIBEWF_FORMAT_ENCASE6, &le) != 1 ||
	    libewf_handle_set_media_type(h, LIBEWF_MEDIA_TYPE_OPTICAL, &le) != 1 ||
	    libewf_handle_set_media_flags(h, LIBEWF_MEDIA_FLAG_PHYSICAL, &le) != 1 ||
	    libewf_handle_set_bytes_per_sector(h, lay->sector_size, &le) != 1 ||
	    libewf_handle_set_media_size(h, lay->media_size, &le) != 1 ||
	    libewf_handle_set_compression_values(h, levels[lay->level], flags, &le) != 1)
		return ewf_fail(&le, "cannot describe the media", err, errlen);
	if (lay->segment_size &&
	    libewf_handle_set_maximum_segment_size(h, lay->segment_size, &le) != 1)
		return ewf_fail(&le, "cannot set the segment size", err, errlen);
	return 0;
}

struct ewf_out *ewf_create(const char *base, const struct ewf_layout *lay,
			   const struct ewf_meta *meta, const struct ewf_acquiry *acq,
			   char *err, size_t errlen)
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
	if (set_media(e->h, lay, err, errlen) || set_values(e->h, meta, acq, err, errlen))
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

/*
 * libewf 20140813 keeps sessions and (audio) tracks in one session
 * section; a data disc's image has sessions only, as ewfacquire -m optical
 * writes them.
 */
int ewf_session(struct ewf_out *e, uint64_t sector, uint64_t sectors, char *err, size_t errlen)
{
	libewf_error_t *le = NULL;

	if (libewf_handle_append_session(e->h, sector, sectors, &le) != 1)
		return ewf_fail(&le, "cannot record a session", err, errlen);
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
