// SPDX-License-Identifier: MIT
/* READ DISC INFORMATION response parser. */
#include "fuzz.h"
#include "mmc/mmc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mmc_disc_info di;

	(void)mmc_parse_disc_info(data, size, &di);
	return 0;
}
