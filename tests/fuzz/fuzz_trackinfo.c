// SPDX-License-Identifier: MIT
/* READ TRACK INFORMATION response parser. */
#include "fuzz.h"
#include "scsi/mmc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mmc_track_info ti;

	(void)mmc_parse_track_info(data, size, &ti);
	return 0;
}
