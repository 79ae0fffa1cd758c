// SPDX-License-Identifier: MIT
/* READ TOC format 0 (LBA and MSF) and format 1 (session info) parsers. */
#include "fuzz.h"
#include "mmc/mmc.h"

static void one(const uint8_t *data, size_t size, bool msf)
{
	struct mmc_toc toc;
	struct mmc_session_info si;

	if (mmc_parse_toc(data, size, msf, &toc) == 0) {
		if (toc.n > MMC_TOC_MAX)
			__builtin_trap();
		(void)mmc_toc_leadout(&toc);
	}
	(void)mmc_parse_session_info(data, size, msf, &si);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, false);
	one(data, size, true);
	return 0;
}
