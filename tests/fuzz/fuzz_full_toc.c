// SPDX-License-Identifier: MIT
/*
 * READ TOC format 2 (full TOC) parser.  Seeds: tests/fuzz/seeds/full_toc
 * (the emulated drive's answers for each layout, and hand-made ones).
 */
#include "fuzz.h"
#include "mmc/mmc.h"

static struct mmc_full_toc toc;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int i;

	if (mmc_parse_full_toc(data, size, &toc))
		return 0;
	if (toc.n_sessions > MMC_FULLTOC_MAX_SESSIONS || toc.n_tracks > MMC_TOC_MAX)
		__builtin_trap();
	/* kept ascending, each once, each in a session that was kept */
	for (i = 0; i < toc.n_tracks; i++) {
		if (i && toc.t[i].number <= toc.t[i - 1].number)
			__builtin_trap();
		if (!mmc_full_toc_session(&toc, toc.t[i].session))
			__builtin_trap();
	}
	return 0;
}
