// SPDX-License-Identifier: MIT
/*
 * Sense data decoding (see sense.h), and the short names of the library's
 * error codes.  What an answer means for the run is answer.c's table.
 */
#include <stdio.h>
#include <string.h>
#include <scsi/sg_lib.h>
#include "mmc/bytes.h"
#include "cdtail-tools.h"
#include "mmc/sense.h"

/* Bytes 0..7 are the header; the additional length may only shrink len. */
static size_t sense_end(const uint8_t *buf, size_t len)
{
	size_t claimed;

	if (len < 8)
		return len;
	claimed = 8 + (size_t)buf[7];
	return claimed < len ? claimed : len;
}

static void decode_fixed(const uint8_t *buf, size_t len, struct cdt_sense *out)
{
	size_t end = sense_end(buf, len);

	out->key = buf[2] & 0x0f;
	/* INFORMATION sits in the first 8 bytes: only len bounds it */
	if ((buf[0] & 0x80) && len >= 7) {
		out->info_valid = true;
		out->info = sg_get_unaligned_be32(buf + 3);
	}
	if (end > 12)
		out->asc = buf[12];
	if (end > 13)
		out->ascq = buf[13];
}

/* The information descriptor (type 0): VALID in byte 2, value in 4..11. */
static void decode_descriptors(const uint8_t *buf, size_t end,
			       struct cdt_sense *out)
{
	size_t off = 8;

	while (off + 2 <= end) {
		const uint8_t *d = buf + off;
		size_t dlen = 2 + (size_t)d[1];

		if (off + dlen > end)
			break;
		if (d[0] == 0x00 && dlen >= 12 && (d[2] & 0x80)) {
			out->info_valid = true;
			out->info = sg_get_unaligned_be64(d + 4);
			return;
		}
		off += dlen;
	}
}

static void decode_desc(const uint8_t *buf, size_t len, struct cdt_sense *out)
{
	out->descriptor = true;
	out->key = buf[1] & 0x0f;
	if (len > 2)
		out->asc = buf[2];
	if (len > 3)
		out->ascq = buf[3];
	decode_descriptors(buf, sense_end(buf, len), out);
}

void cdt_sense_decode(const uint8_t *buf, size_t len, struct cdt_sense *out)
{
	uint8_t rc;

	memset(out, 0, sizeof(*out));
	if (!buf || len < 2)
		return;
	rc = buf[0] & 0x7f;
	if (rc == 0x72 || rc == 0x73) {
		out->valid = true;
		decode_desc(buf, len, out);
	} else if ((rc == 0x70 || rc == 0x71) && len >= 3) {
		out->valid = true;
		decode_fixed(buf, len, out);
	}
	out->deferred = out->valid && (rc == 0x71 || rc == 0x73);
}

/* sg_lib words the ASC as "Additional sense: ..."; the key names it here */
static const char *asc_words(const char *str)
{
	static const char prefix[] = "Additional sense: ";

	if (!strncmp(str, prefix, sizeof(prefix) - 1))
		return str + sizeof(prefix) - 1;
	return str;
}

void cdt_sense_words(const struct cdt_sense *s, char *key, size_t key_len, char *asc,
		     size_t asc_len)
{
	char words[160];

	sg_get_sense_key_str(s->key, (int)key_len, key);
	sg_get_asc_ascq_str(s->asc, s->ascq, (int)sizeof(words), words);
	snprintf(asc, asc_len, "%s", asc_words(words));
}

void cdt_sense_describe(const struct cdt_sense *s, char *buf, size_t len)
{
	char key[80], asc[160];

	if (!buf || !len)
		return;
	if (!s->valid) {
		snprintf(buf, len, "no sense data");
		return;
	}
	cdt_sense_words(s, key, sizeof(key), asc, sizeof(asc));
	snprintf(buf, len, "%s: %s", key, asc);
}

int cdt_sense_text(const uint8_t *sense, size_t sense_len, char *buf,
		   size_t len)
{
	struct cdt_sense s;
	char words[240];

	cdt_sense_decode(sense, sense ? sense_len : 0, &s);
	cdt_sense_describe(&s, words, sizeof(words));
	if (!buf || !len)
		return s.valid ? 0 : -1;
	if (!s.valid) {
		snprintf(buf, len, "%s", words);
		return -1;
	}
	snprintf(buf, len, "%02x/%02x/%02x %s", s.key, s.asc, s.ascq, words);
	return 0;
}

/*
 * sg3_utils' sg_get_sense_str (lib/sg_lib.c) prints the format and
 * whether the error is current or deferred, "Sense key:", "Additional
 * sense:" and "Info fld=0x64 [100]" on lines of their own; here they
 * are one line, "; " where it breaks lines, as one log line wants them.
 */
int cdt_sense_detail(const uint8_t *sense, size_t sense_len, char *buf, size_t len)
{
	struct cdt_sense s;
	char key[80], asc[160];
	int n;

	cdt_sense_decode(sense, sense ? sense_len : 0, &s);
	if (!buf || !len)
		return s.valid ? 0 : -1;
	if (!s.valid) {
		snprintf(buf, len, "no sense data");
		return -1;
	}
	cdt_sense_words(&s, key, sizeof(key), asc, sizeof(asc));
	n = snprintf(buf, len, "%s format, %s; Sense key: %s; Additional sense: %s",
		     s.descriptor ? "Descriptor" : "Fixed",
		     s.deferred ? "<<<deferred>>>" : "current", key, asc);
	if (s.info_valid && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; Info fld=0x%llx [%llu]",
			 (unsigned long long)s.info, (unsigned long long)s.info);
	return 0;
}

const char *cdt_strerror(int err)
{
	/* by -err: the codes count down from CDT_OK */
	static const char *const text[] = {
		[-CDT_OK] = "success",
		[-CDT_EUSAGE] = "invalid argument",
		[-CDT_EOPEN] = "cannot open",
		[-CDT_ENOMEDIUM] = "no medium",
		[-CDT_ETRANSPORT] = "transport failure",
		[-CDT_ETIMEOUT] = "command timed out",
		[-CDT_ENOMEM] = "out of memory",
		[-CDT_EIO] = "I/O error",
		[-CDT_EREFUSED] = "command not allowed",
		[-CDT_ECHECK] = "check condition",
		[-CDT_ENOTSCSI] = "not a SCSI device",
		[-CDT_EFORMAT] = "malformed file",
		[-CDT_EINTR] = "interrupted",
		[-CDT_EBUSY] = "in use by another run",
		[-CDT_ECHANGED] = "the medium changed",
		[-CDT_EOTHERDISC] = "not this disc",
	};

	if (err > 0 || err <= -(int)(sizeof(text) / sizeof(text[0])) || !text[-err])
		return "unknown error";
	return text[-err];
}
