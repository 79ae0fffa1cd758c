// SPDX-License-Identifier: MIT
/* cdtail: dispatch to a subcommand. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

const struct cli_cmd *const cli_commands[] = {
	&cli_cmd_probe, &cli_cmd_image, &cli_cmd_tail, &cli_cmd_verify,
	&cli_cmd_hazards, &cli_cmd_map, &cli_cmd_export, NULL,
};

const struct cli_cmd *cli_find_command(const char *name)
{
	size_t i;

	for (i = 0; cli_commands[i]; i++)
		if (!strcmp(name, cli_commands[i]->name))
			return cli_commands[i];
	return NULL;
}

/* The first line of a command's about text, for the command list. */
static void usage(FILE *f)
{
	size_t i;

	fputs("usage: cdtail COMMAND [OPTIONS] DEV ...\n"
	      "       cdtail help [COMMAND] | --help | --version\n\ncommands:\n", f);
	for (i = 0; cli_commands[i]; i++)
		fprintf(f, "  %-8s %.*s\n", cli_commands[i]->name,
			(int)strcspn(cli_commands[i]->about, "\n"), cli_commands[i]->about);
	fputs("\nDEV is /dev/srN, /dev/sgN, sim:IMAGE[,key=value...] or\n"
	      "iscsi://HOST[:PORT]/IQN/LUN.  'cdtail COMMAND --help' explains each\n"
	      "option of COMMAND, 'cdtail help COMMAND' shows its manual page,\n"
	      "cdtail-COMMAND(1); cdtail(1) has the overview.\n", f);
}

/*
 * One line, as git and apt say it: the whole usage would push the
 * mistake off a small screen.
 */
static int unknown_command(const char *word)
{
	const char *names[sizeof(cli_commands) / sizeof(cli_commands[0])], *near;
	size_t n;

	for (n = 0; cli_commands[n]; n++)
		names[n] = cli_commands[n]->name;
	names[n++] = "help";
	near = cdt_nearest_name(word, names, n);
	if (near)
		cli_err("unknown command '%s' (did you mean '%s'?); 'cdtail --help' lists them",
			word, near);
	else
		cli_err("unknown command '%s'; 'cdtail --help' lists the commands", word);
	return EX_USAGE_ERR;
}

/* cdtail help [COMMAND]: the commands, or COMMAND's page (help.c) */
static int help(int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	c = cli_find_command(argv[1]);
	if (!c || argc > 2) {
		if (!c)
			return unknown_command(argv[1]);
		cli_err("help: one COMMAND at most");
		usage(stderr);
		return EX_USAGE_ERR;
	}
	return cli_help_page(c);
}

/*
 * Whether status is one of the numbers of c's "Exit:" lines, the ones
 * --help prints and cdtail-COMMAND(1) lists (tests/cli/check_pages.py).
 */
static bool exit_listed(const struct cli_cmd *c, int status)
{
	const char *p = c->exits;

	while (*p) {
		char *end;

		if (isdigit((unsigned char)*p) && (p == c->exits || !isalnum((unsigned char)p[-1]))) {
			if (strtol(p, &end, 10) == status && !isalnum((unsigned char)*end))
				return true;
			p = end;
			continue;
		}
		p++;
	}
	return false;
}

/*
 * The tests' check of the code against its --help (CDTAIL_CHECK_EXITS set,
 * as tests/cli/lib.sh does): a status the command's Exit: lines do not
 * list fails the run with 70 (sysexits' EX_SOFTWARE) and says so.
 */
static int checked_exit(const struct cli_cmd *c, int status)
{
	if (!getenv("CDTAIL_CHECK_EXITS") || exit_listed(c, status))
		return status;
	cli_err("internal: %s ended with exit status %d, which 'cdtail %s --help' does "
		"not list", c->name, status, c->name);
	return 70;
}

/*
 * git's order: options before the command (cdtail -v probe DEV) are the
 * command's, as if given after its name.  The first word that names a
 * command is the command; what comes before it moves behind it.  Returns
 * false when no word names one.
 */
static bool command_first(int argc, char **argv)
{
	int i;
	char *cmd;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (cli_find_command(argv[i]))
			break;
	if (i >= argc || !strcmp(argv[i], "--"))
		return false;
	cmd = argv[i];
	memmove(argv + 2, argv + 1, (size_t)(i - 1) * sizeof(*argv));
	argv[1] = cmd;
	return true;
}

static int dispatch(int argc, char **argv)
{
	const struct cli_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return EX_USAGE_ERR;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("cdtail %s\n", CDT_VERSION);
		return 0;
	}
	if (argv[1][0] == '-' && !command_first(argc, argv)) {
		cli_err("option '%s' before no command; 'cdtail --help' lists the commands",
			argv[1]);
		return EX_USAGE_ERR;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	c = cli_find_command(argv[1]);
	if (c)
		return checked_exit(c, c->run(argc - 1, argv + 1));
	return unknown_command(argv[1]);
}

int main(int argc, char **argv)
{
	return cli_finish(dispatch(argc, argv));
}
