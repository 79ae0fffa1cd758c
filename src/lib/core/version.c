// SPDX-License-Identifier: MIT
/* The library's version, as it was built (CDT_VERSION is the caller's header). */
#include "cdtail.h"

const char *cdt_version(void)
{
	return CDT_VERSION;
}
