// SPDX-License-Identifier: MIT
/* INQUIRY response parsers: standard data and the serial number page. */
#include <string.h>
#include "fuzz.h"
#include "mmc/mmc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mmc_inquiry inq;
	char serial[32];

	if (mmc_parse_inquiry(data, size, &inq) == 0) {
		/* the strings must be terminated within their arrays */
		if (strnlen(inq.vendor, sizeof(inq.vendor)) == sizeof(inq.vendor) ||
		    strnlen(inq.product, sizeof(inq.product)) == sizeof(inq.product) ||
		    strnlen(inq.revision, sizeof(inq.revision)) == sizeof(inq.revision))
			__builtin_trap();
	}
	/* the same bytes as a Unit Serial Number page */
	if (mmc_parse_unit_serial(data, size, serial, sizeof(serial)) == 0 &&
	    strnlen(serial, sizeof(serial)) == sizeof(serial))
		__builtin_trap();
	return 0;
}
