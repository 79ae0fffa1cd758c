// SPDX-License-Identifier: MIT
/* READ CAPACITY(10) and READ CAPACITY(16) response parsers. */
#include "fuzz.h"
#include "mmc/mmc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t last32, bl;
	uint64_t last64;

	if (mmc_parse_read_capacity10(data, size, &last32, &bl) == 0 && size < 8)
		__builtin_trap();
	if (mmc_parse_read_capacity16(data, size, &last64, &bl) == 0 && size < 12)
		__builtin_trap();
	return 0;
}
