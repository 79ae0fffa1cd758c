// SPDX-License-Identifier: MIT
/* MMC/SPC CDB builders and response parsers (see mmc.h). */
#include "mmc.h"

int64_t mmc_msf_to_lba(uint8_t m, uint8_t s, uint8_t f)
{
	return ((int64_t)m * 60 + s) * 75 + f - 150;
}

void mmc_lba_to_msf(int64_t lba, uint8_t *m, uint8_t *s, uint8_t *f)
{
	int64_t v = lba + 150;

	if (v < 0)
		v = 0;
	*f = (uint8_t)(v % 75);
	v /= 75;
	*s = (uint8_t)(v % 60);
	v /= 60;
	*m = v > 255 ? 255 : (uint8_t)v;
}
