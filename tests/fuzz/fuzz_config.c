// SPDX-License-Identifier: MIT
/* GET CONFIGURATION header parser and the profile names. */
#include <string.h>
#include "cdtail.h"
#include "fuzz.h"
#include "mmc/mmc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint16_t profile;

	if (mmc_parse_config_header(data, size, &profile) == 0) {
		if (!mmc_profile_name(profile) || !cdt_profile_name(profile))
			__builtin_trap();
		(void)strlen(mmc_profile_name(profile));
	}
	return 0;
}
