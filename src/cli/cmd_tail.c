// SPDX-License-Identifier: MIT
/* cdtail tail: placeholder until its issue lands; replaced by the real command. */
#include "cli.h"

int cmd_tail(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("'tail' is not implemented yet");
	return EX_USAGE_ERR;
}
