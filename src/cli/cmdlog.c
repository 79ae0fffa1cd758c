// SPDX-License-Identifier: MIT
/*
 * Every command the library sends passes here (the open's log callback):
 * -v prints it as sg3_utils' -v does, and the last answer that was not
 * GOOD is kept, so that a run that fails on the drive's answer says in
 * its JSON error object what the drive said (issue 35, 3).
 *
 * The levels follow sg3_utils (sg_lib.c sg_print_command_len and
 * sg_get_sense_str, sg_pt's -v/-vv/-vvv in sg_read and sg_dd): -v the
 * command decoded, its CDB in hex and the decoded sense; -vv also the
 * sense bytes and the transfer (asked, residual); -vvv the data-in bytes,
 * the first and last 64.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* The SPC-4 limit of sense data (the additional length is one byte). */
#define LAST_SENSE_MAX 252
/* -vvv: the data-in bytes shown at each end */
#define DATA_SHOWN 64

/* The last answer that was not GOOD, and the library error of the failure. */
static struct {
	bool have;
	int transport_result;
	uint8_t status;
	uint8_t sense[LAST_SENSE_MAX];
	unsigned int sense_len;
	int err;
} last;

void cli_note_error(int err)
{
	last.err = err;
}

static void remember(const struct cdt_cmd_log *log)
{
	unsigned int n = log->sense && log->sense_len ? log->sense_len : 0;

	if (!log->transport_result && !log->status)
		return;
	last.have = true;
	last.transport_result = log->transport_result;
	last.status = log->status;
	last.sense_len = n < LAST_SENSE_MAX ? n : LAST_SENSE_MAX;
	if (last.sense_len)
		memcpy(last.sense, log->sense, last.sense_len);
}

static void log_bytes(const char *label, const uint8_t *b, unsigned int n)
{
	unsigned int i;

	fprintf(stderr, "cdtail:   %s", label);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %02x", b[i]);
	fputc('\n', stderr);
}

/* rows of 16 from off, n bytes, with their offsets */
static void log_rows(const uint8_t *b, uint32_t off, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i += 16) {
		char label[32];

		snprintf(label, sizeof(label), "data %04x:", off + i);
		log_bytes(label, b + off + i, n - i < 16 ? n - i : 16);
	}
}

/* -vvv: what arrived, the first and last DATA_SHOWN bytes of it */
static void log_data(const struct cdt_cmd_log *log)
{
	uint32_t moved;

	if (!CDT_HAS(log, virtual_time) || !log->data || !log->data_len)
		return;
	moved = log->data_len - log->resid;
	fprintf(stderr, "cdtail:   data-in: %u bytes%s\n", moved,
		moved > 2 * DATA_SHOWN ? ", the first and last 64" : "");
	if (moved <= 2 * DATA_SHOWN) {
		log_rows(log->data, 0, moved);
		return;
	}
	log_rows(log->data, 0, DATA_SHOWN);
	fprintf(stderr, "cdtail:   ...\n");
	log_rows(log->data, moved - DATA_SHOWN, DATA_SHOWN);
}

/* -v: the sense decoded as sg_get_sense_str words it, with the triple */
static void log_sense(const struct cdt_cmd_log *log)
{
	char words[400], triple[200];

	if (!log->sense || !log->sense_len ||
	    cdt_sense_detail(log->sense, log->sense_len, words, sizeof(words)))
		return;
	cdt_sense_text(log->sense, log->sense_len, triple, sizeof(triple));
	/* "03/11/00 Medium Error: ..." -> "03/11/00" */
	triple[strcspn(triple, " ")] = '\0';
	fprintf(stderr, "cdtail:   sense %s: %s\n", triple, words);
}

void cli_log_cmd(void *ctx, const struct cdt_cmd_log *log)
{
	const int *verbose = ctx;
	bool virt = CDT_HAS(log, virtual_time) && log->virtual_time;
	char text[400];

	remember(log);
	if (!verbose || *verbose < 1)
		return;
	cdt_cmd_text(log, text, sizeof(text));
	fprintf(stderr, "cdtail: %s (%.1f ms%s)\n", text, log->ms, virt ? ", virtual" : "");
	if (log->cdb && log->cdb_len)
		log_bytes("cdb:", log->cdb, log->cdb_len);
	log_sense(log);
	if (*verbose < 2)
		return;
	if (log->sense && log->sense_len)
		log_bytes("sense:", log->sense, log->sense_len);
	if (CDT_HAS(log, virtual_time) && log->data_len)
		fprintf(stderr, "cdtail:   transfer: %u bytes asked, residual %u\n",
			log->data_len, log->resid);
	if (*verbose >= 3)
		log_data(log);
}

/* The categories of cdtail-errors(7), by sense key (SPC-4 4.5.6). */
static const char *key_category(uint8_t key)
{
	switch (key) {
	case 0x2:
		return "not-ready";
	case 0x3:
		return "medium";
	case 0x4:
		return "hardware";
	case 0x5:
		return "illegal-request";
	case 0x6:
		return "unit-attention";
	case 0xb:
		return "aborted";
	}
	return NULL;
}

/* {"key", "asc", "ascq", "text"} of the last sense kept; NULL without */
static json_object *sense_json(unsigned int *key)
{
	unsigned int k, a, q;
	char text[300];
	json_object *o;
	int n = 0;

	if (!last.sense_len || cdt_sense_text(last.sense, last.sense_len, text, sizeof(text)) ||
	    sscanf(text, "%2x/%2x/%2x %n", &k, &a, &q, &n) != 3 || !n)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "key", json_object_new_int((int)k));
	json_object_object_add(o, "asc", json_object_new_int((int)a));
	json_object_object_add(o, "ascq", json_object_new_int((int)q));
	json_object_object_add(o, "text", json_object_new_string(text + n));
	*key = k;
	return o;
}

/*
 * The error came from the drive: a timeout, a transport failure, or an
 * answer the run could not go on after (no medium, a medium change, a
 * CHECK CONDITION).  A local file's error, a usage error or another
 * disc's map has no category, whatever the drive said before.
 */
void cli_json_error_cause(json_object *e)
{
	const char *cat = NULL;
	json_object *sense = NULL;
	unsigned int key = 0;

	switch (last.err) {
	case CDT_ETIMEOUT:
		cat = "timeout";
		break;
	case CDT_ETRANSPORT:
		cat = "transport";
		break;
	case CDT_ECHECK:
	case CDT_ENOMEDIUM:
	case CDT_ECHANGED:
		sense = last.have && !last.transport_result ? sense_json(&key) : NULL;
		cat = sense ? key_category((uint8_t)key) : NULL;
		if (!cat)
			cat = last.err == CDT_ENOMEDIUM ? "not-ready" :
			      last.err == CDT_ECHANGED ? "unit-attention" : NULL;
		break;
	}
	json_object_object_add(e, "category", cat ? json_object_new_string(cat) : NULL);
	json_object_object_add(e, "sense", sense);
}
