// SPDX-License-Identifier: MIT
/* cdtail hazards: placeholder until its issue lands; replaced by the real command. */
#include "cli.h"

int cmd_hazards(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("'hazards' is not implemented yet");
	return EX_USAGE_ERR;
}
