// SPDX-License-Identifier: MIT
/*
 * Sense data and the table of answers: decoding, classification and the
 * text, into small buffers too.  The first 8 bytes make the rest of the
 * answer (status, host and driver bytes, errno, residual), the others are
 * the sense bytes.
 */
#include <string.h>
#include "fuzz.h"
#include "cdtail.h"
#include "mmc/answer.h"
#include "mmc/sense.h"

static void classify(const uint8_t *data, size_t size)
{
	struct cdt_answer a = { 0 };
	struct cdt_disposition v;

	if (size < 8)
		return;
	a.status = data[0];
	a.host = data[1];
	a.driver = data[2];
	a.sys_errno = data[3] & 0x80 ? data[3] & 0x7f : 0;
	a.transport_rc = data[4] & 1 ? CDT_ETIMEOUT : (data[4] & 2 ? CDT_ETRANSPORT : 0);
	a.block_size = data[4] & 4 ? 2048 : 0;
	a.data_len = (uint32_t)data[5] * 512;
	a.resid = (uint32_t)data[6] * 256;
	a.sense = data + 8;
	a.sense_len = size - 8;
	cdt_answer_classify(&a, &v);
	if (!v.what || !v.source || !strcmp(cdt_action_name(v.action), "?"))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cdt_sense s;
	char text[256], small[8];

	cdt_sense_decode(data, size, &s);
	if (!strcmp(cdt_action_name(cdt_sense_action(&s)), "?"))
		__builtin_trap();
	cdt_sense_describe(&s, text, sizeof(text));
	if (strnlen(text, sizeof(text)) == sizeof(text))
		__builtin_trap();
	cdt_sense_describe(&s, small, sizeof(small));
	if (strnlen(small, sizeof(small)) == sizeof(small))
		__builtin_trap();
	cdt_sense_describe(&s, small, 1);
	classify(data, size);
	return 0;
}
