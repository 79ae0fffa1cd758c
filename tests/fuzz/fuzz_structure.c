// SPDX-License-Identifier: MIT
/*
 * READ DISC STRUCTURE format 00h: the DVD physical format (both layers of
 * a parallel disc) and BD DI parsers.
 */
#include "fuzz.h"
#include "mmc/structure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mmc_dvd_physical p, l1;
	struct mmc_bd_disc_info bd;

	if (!mmc_parse_dvd_physical(data, size, &p)) {
		/* the input's second half as layer 1's answer */
		if (!mmc_parse_dvd_physical(data + size / 2, size - size / 2, &l1))
			(void)mmc_dvd_ptp_blocks(&p, &l1);
		(void)mmc_dvd_data_blocks(&p);
		(void)mmc_dvd_placed_blocks(&p);
		(void)mmc_dvd_layer0_blocks(&p);
		(void)mmc_dvd_category_name(p.category);
	}
	(void)mmc_parse_bd_disc_info(data, size, &bd);
	return 0;
}
