// SPDX-License-Identifier: MIT
/* An EWF writer over libewf (ewf.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
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

/*
 * A header section is lines of tab-separated fields: a value with a tab or
 * a line break in it (notes given on two lines) would shift every field
 * after it, and ewfinfo then shows none; they become blanks.
 */
static int set_value(libewf_handle_t *h, const char *id, const char *value,
		     char *err, size_t errlen)
{
	libewf_error_t *le = NULL;
	char *flat;
	size_t i, n;
	int rc = 0;

	if (!value || !*value)
		return 0;
	n = strlen(value);
	flat = strdup(value);
	if (!flat) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (flat[i] == '\t' || flat[i] == '\n' || flat[i] == '\r')
			flat[i] = ' ';
	if (libewf_handle_set_utf8_header_value(h, (const uint8_t *)id, strlen(id),
						(const uint8_t *)flat, n, &le) != 1)
		rc = ewf_fail(&le, id, err, errlen);
	free(flat);
	return rc;
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

/*
 * The section descriptor of the EWF format (libyal's "Expert Witness
 * Compression Format (EWF)" specification, "Section descriptor"): a type
 * of 16 bytes, the next section's offset and this section's size (64-bit
 * little-endian), 40 bytes of padding and the Adler-32 of the 72 bytes
 * before it.  Every segment file's first descriptor follows the 13-byte
 * file header; the last segment's chain ends in "done", whose next is
 * itself.
 */
#define SECTION 76
#define FILE_HEADER 13
#define MAX_SECTIONS 100000

static uint32_t adler32(uint32_t a, const uint8_t *p, size_t n)
{
	uint32_t lo = a & 0xffff, hi = a >> 16;

	while (n--) {
		lo = (lo + *p++) % 65521;
		hi = (hi + lo) % 65521;
	}
	return hi << 16 | lo;
}

static void put_le(uint8_t *p, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void descriptor(uint8_t *d, const char *type, uint64_t next, uint64_t size)
{
	memset(d, 0, SECTION);
	memcpy(d, type, strlen(type));
	put_le(d + 16, next, 8);
	put_le(d + 24, size, 8);
	put_le(d + 72, adler32(1, d, 72), 4);
}

/*
 * The offset of the "done" section of the segment open as fd, walking the
 * chain from the file header; -1 when the chain leaves the file, loops or
 * has no end.
 */
static int64_t find_done(int fd, uint64_t file_size)
{
	uint64_t pos = FILE_HEADER, next;
	uint8_t d[SECTION];
	unsigned int n;

	for (n = 0; n < MAX_SECTIONS && pos + SECTION <= file_size; n++) {
		if (pread(fd, d, SECTION, (off_t)pos) != SECTION ||
		    get_le32(d + 72) != adler32(1, d, 72))
			return -1;
		if (!memcmp(d, "done\0", 5))
			return (int64_t)pos;
		next = get_le64(d + 16);
		if (next <= pos || next > file_size)
			return -1;
		pos = next;
	}
	return -1;
}

/*
 * zlib's format (RFC 1950) around one stored DEFLATE block (RFC 1951,
 * 3.2.4): the XML is short and needs no compressing, and the writer no
 * zlib of its own.
 */
static size_t zlib_stored(const uint8_t *in, size_t n, uint8_t *out)
{
	uint32_t a = adler32(1, in, n);

	out[0] = 0x78;
	out[1] = 0x01;		/* 0x7801 % 31 == 0: the header check */
	out[2] = 0x01;		/* the final block, stored */
	put_le(out + 3, n, 2);
	put_le(out + 5, ~n & 0xffff, 2);
	memcpy(out + 7, in, n);
	out[7 + n] = (uint8_t)(a >> 24);
	out[8 + n] = (uint8_t)(a >> 16);
	out[9 + n] = (uint8_t)(a >> 8);
	out[10 + n] = (uint8_t)a;
	return n + 11;
}

int ewf_add_sha256(const char *last_segment, const char *sha256, char *err, size_t errlen)
{
	uint8_t xml[256], block[SECTION + 300 + SECTION];
	int fd = open(last_segment, O_RDWR | O_CLOEXEC);
	size_t xn, zn;
	struct stat st;
	int64_t done;
	int rc = -1;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", last_segment, strerror(errno));
		return -1;
	}
	/* the xhash section's XML as libewf writes it for EWF-X (the same specification) */
	xn = (size_t)snprintf((char *)xml, sizeof(xml), "\xef\xbb\xbf<?xml version=\"1.0\" "
			      "encoding=\"UTF-8\"?>\n<xhash>\n\t<SHA256>%.64s</SHA256>\n"
			      "</xhash>\n\n", sha256);
	done = fstat(fd, &st) ? -1 : find_done(fd, (uint64_t)st.st_size);
	if (done < 0) {
		snprintf(err, errlen, "%s: no end of its sections found", last_segment);
		goto out;
	}
	zn = zlib_stored(xml, xn, block + SECTION);
	descriptor(block, "xhash", (uint64_t)done + SECTION + zn, SECTION + zn);
	descriptor(block + SECTION + zn, "done", (uint64_t)done + SECTION + zn, 0);
	if (pwrite(fd, block, 2 * SECTION + zn, (off_t)done) != (ssize_t)(2 * SECTION + zn) ||
	    fsync(fd)) {
		snprintf(err, errlen, "cannot write %s: %s", last_segment, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}
