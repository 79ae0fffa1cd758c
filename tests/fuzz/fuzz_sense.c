// SPDX-License-Identifier: MIT
/* Sense data: decoding, classification and the text, into small buffers too. */
#include <string.h>
#include "fuzz.h"
#include "scsi/sense.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cdt_sense s;
	char text[256], small[8];
	enum cdt_sense_class c;

	cdt_sense_decode(data, size, &s);
	c = cdt_sense_classify(&s);
	if (c > CDT_SENSE_FATAL)
		__builtin_trap();
	cdt_sense_describe(&s, text, sizeof(text));
	if (strnlen(text, sizeof(text)) == sizeof(text))
		__builtin_trap();
	cdt_sense_describe(&s, small, sizeof(small));
	if (strnlen(small, sizeof(small)) == sizeof(small))
		__builtin_trap();
	cdt_sense_describe(&s, small, 1);
	return 0;
}
