// SPDX-License-Identifier: MIT
/* MODE SENSE(10) header and caching page parser. */
#include "fuzz.h"
#include "mmc/mmc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mmc_mode_caching mc;

	(void)mmc_parse_mode_sense10_caching(data, size, &mc);
	return 0;
}
