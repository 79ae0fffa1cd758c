// SPDX-License-Identifier: MIT
/*
 * One logged command in words, as sg3_utils' -v prints it (sg_lib's
 * command, status and sense strings): what a user of sg_read or sg_dd
 * already reads.  A pure function of the log's bytes: never past cdb_len
 * or sense_len.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <scsi/sg_lib.h>
#include "cdtail-tools.h"
#include "mmc/sense.h"


/* Where the reads of MMC and SBC keep their LBA and block count. */
struct lba_field {
	uint8_t opcode;
	uint8_t lba_at, lba_len;	/* bytes, big-endian */
	uint8_t len_at, len_len;
};

static const struct lba_field lba_fields[] = {
	{ 0x28, 2, 4, 7, 2 },	/* READ(10), SBC-3 5.11 */
	{ 0xa8, 2, 4, 6, 4 },	/* READ(12), SBC-3 5.12 */
	{ 0x88, 2, 8, 10, 4 },	/* READ(16), SBC-3 5.13 */
	{ 0xbe, 2, 4, 6, 3 },	/* READ CD, MMC-6 6.19 */
	{ 0x2f, 2, 4, 7, 2 },	/* VERIFY(10), SBC-3 5.33 */
};

static uint64_t be_field(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

static size_t put(char *buf, size_t len, size_t used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Append to buf; used stays at most len - 1, whatever was cut. */
static size_t put(char *buf, size_t len, size_t used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (used + 1 >= len)
		return used;
	va_start(ap, fmt);
	n = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	if (n < 0)
		return used;
	return used + (size_t)n < len ? used + (size_t)n : len - 1;
}

static size_t put_command(const struct cdt_cmd_log *log, char *buf, size_t len, size_t used)
{
	char name[80];
	size_t i;

	if (!log->cdb || !log->cdb_len)
		return put(buf, len, used, "(no CDB)");
	/* a service action is in byte 1: a 1-byte CDB has none to read */
	if (log->cdb_len >= 2)
		sg_get_command_name(log->cdb, PDT_MMC, (int)sizeof(name), name);
	else
		sg_get_opcode_name(log->cdb[0], PDT_MMC, (int)sizeof(name), name);
	used = put(buf, len, used, "%s", name);
	for (i = 0; i < sizeof(lba_fields) / sizeof(lba_fields[0]); i++) {
		const struct lba_field *f = &lba_fields[i];

		if (f->opcode != log->cdb[0])
			continue;
		if (log->cdb_len < (unsigned int)f->len_at + f->len_len)
			break;
		used = put(buf, len, used, " lba=%" PRIu64 " len=%" PRIu64,
			   be_field(log->cdb + f->lba_at, f->lba_len),
			   be_field(log->cdb + f->len_at, f->len_len));
		break;
	}
	return used;
}

static size_t put_sense(const struct cdt_cmd_log *log, char *buf, size_t len, size_t used)
{
	struct cdt_sense s;
	char key[80], asc[160];

	cdt_sense_decode(log->sense, log->sense ? log->sense_len : 0, &s);
	if (!s.valid)
		return put(buf, len, used, ", no sense data");
	cdt_sense_words(&s, key, sizeof(key), asc, sizeof(asc));
	used = put(buf, len, used, ", %s, %s", key, asc);
	if (s.info_valid)
		used = put(buf, len, used, ", Info fld=0x%" PRIx64, s.info);
	return used;
}

void cdt_cmd_text(const struct cdt_cmd_log *log, char *buf, size_t len)
{
	char status[64];
	size_t used;

	if (!buf || !len)
		return;
	buf[0] = '\0';
	if (!log)
		return;
	used = put_command(log, buf, len, 0);
	used = put(buf, len, used, ": ");
	if (log->transport_result == CDT_ETIMEOUT) {
		put(buf, len, used, "timeout");
		return;
	}
	if (log->transport_result) {
		put(buf, len, used, "transport error (%s)", cdt_strerror(log->transport_result));
		return;
	}
	sg_get_scsi_status_str(log->status, (int)sizeof(status), status);
	used = put(buf, len, used, "%s", status);
	if (log->status || log->sense_len)
		put_sense(log, buf, len, used);
}
