// SPDX-License-Identifier: MIT
/* cdtail verify: placeholder until its issue lands; replaced by the real command. */
#include "cli.h"

int cmd_verify(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("'verify' is not implemented yet");
	return EX_USAGE_ERR;
}
