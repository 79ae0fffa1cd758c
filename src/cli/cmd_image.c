// SPDX-License-Identifier: MIT
/* cdtail image: placeholder until its issue lands; replaced by the real command. */
#include "cli.h"

int cmd_image(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_err("'image' is not implemented yet");
	return EX_USAGE_ERR;
}
