// SPDX-License-Identifier: MIT
/*
 * The CLI's man page formatter (src/cli/manview.c: cdtail help without
 * man) over any bytes as a page: requests, escapes, quotes, an escape at
 * the end of a line or of the input, lines longer than its buffer.  The
 * output goes to /dev/null; ASan and UBSan watch the line buffers.
 * Byte 0 picks the width (40 to 295).
 */
#include <stdio.h>
#include "fuzz.h"
#include "../../src/cli/manview.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in, *out;

	if (!size)
		return 0;
	in = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "r");
	out = fopen("/dev/null", "w");
	if (in && out)
		manview_render(in, out, 40u + data[0]);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	return 0;
}
