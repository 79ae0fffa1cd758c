// SPDX-License-Identifier: MIT
/*
 * cdt_cmd_text (-v's words for a command) over any CDB and sense bytes,
 * and cdt_nearest_name over any word.  Input: byte 0 the CDB's length
 * (mod 17), byte 1 the status, byte 2 the transport result's choice, then
 * the CDB, then the sense; each in an exact-size heap copy so that ASan
 * sees an over-read.
 */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "cdtail-tools.h"

static uint8_t *copy(const uint8_t *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);

	if (c && n)
		memcpy(c, p, n);
	return c;
}

static void words(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "probe", "image", "tail", "verify", "help" };
	char *w = fuzz_strdup(data, size);
	const char *near;

	if (!w)
		return;
	near = cdt_nearest_name(w, names, sizeof(names) / sizeof(names[0]));
	if (near && strlen(near) > 6)
		__builtin_trap();
	free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int transport[] = { 0, CDT_ETIMEOUT, CDT_ETRANSPORT, 0 };
	struct cdt_cmd_log log = { .size = sizeof(log) };
	uint8_t *cdb, *sense;
	size_t cdb_len;
	char text[300], small[5];

	words(data, size);
	if (size < 3)
		return 0;
	cdb_len = data[0] % 17;
	if (cdb_len > size - 3)
		cdb_len = size - 3;
	cdb = copy(data + 3, cdb_len);
	sense = copy(data + 3 + cdb_len, size - 3 - cdb_len);
	log.cdb = cdb;
	log.cdb_len = (unsigned int)cdb_len;
	log.status = data[1];
	log.transport_result = transport[data[2] % 4];
	log.sense = sense;
	log.sense_len = (unsigned int)(size - 3 - cdb_len);
	cdt_cmd_text(&log, text, sizeof(text));
	if (strnlen(text, sizeof(text)) == sizeof(text))
		__builtin_trap();
	cdt_cmd_text(&log, small, sizeof(small));
	if (strnlen(small, sizeof(small)) == sizeof(small))
		__builtin_trap();
	cdt_cmd_text(&log, small, 0);
	free(cdb);
	free(sense);
	return 0;
}
