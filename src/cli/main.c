// SPDX-License-Identifier: MIT
/* cdtail: dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *what;
} commands[] = {
	{ "probe", cmd_probe, "find the true number of readable blocks" },
	{ "image", cmd_image, "image the whole disc, hidden tail included" },
	{ "tail", cmd_tail, "append the hidden tail to a dd image" },
	{ "verify", cmd_verify, "compare the disc with an image or a digest" },
	{ "hazards", cmd_hazards, "report multipath and flush ordering hazards" },
};

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: cdtail COMMAND [OPTIONS] DEV ...\n\ncommands:\n", f);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].what);
	fputs("\nDEV is /dev/srN, /dev/sgN, sim:IMAGE[,key=value...] or\n"
	      "iscsi://HOST[:PORT]/IQN/LUN.  See cdtail(1).\n", f);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EX_USAGE_ERR;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cdtail %s\n", CDT_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "cdtail: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EX_USAGE_ERR;
}
