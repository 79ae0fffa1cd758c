// SPDX-License-Identifier: MIT
/*
 * The one option parser of every subcommand: a table of cli_opt gives
 * both getopt_long's entries and the lines of --help, so an option and
 * its explanation cannot drift apart.
 */
#include <getopt.h>
#include <string.h>
#include "cli.h"

#define MAX_OPTS 32

static size_t count_opts(const struct cli_opt *o)
{
	size_t n = 0;

	while (o[n].name)
		n++;
	return n;
}

static bool is_short(int key)
{
	return key > 0 && key < 0x80 && key != '?' && key != ':';
}

/* getopt_long's tables from ours; '+' keeps operands in place, ':' reports a missing value */
static void build(const struct cli_opt *o, struct option *lo, char *shorts)
{
	size_t i, n = count_opts(o), s = 0;

	shorts[s++] = '+';
	shorts[s++] = ':';
	for (i = 0; i < n && i < MAX_OPTS; i++) {
		lo[i] = (struct option){ o[i].name, o[i].arg ? required_argument : no_argument,
					 NULL, o[i].key };
		if (is_short(o[i].key)) {
			shorts[s++] = (char)o[i].key;
			if (o[i].arg)
				shorts[s++] = ':';
		}
	}
	lo[i] = (struct option){ NULL, 0, NULL, 0 };
	shorts[s] = '\0';
}

/* The long options whose name starts with the len bytes of word. */
static size_t candidates(const struct cli_opt *o, const char *word, size_t len,
			 const struct cli_opt **match, char *list, size_t list_len)
{
	size_t i, n = 0, used = 0;

	list[0] = '\0';
	for (i = 0; o[i].name; i++) {
		if (strncmp(o[i].name, word, len))
			continue;
		if (strlen(o[i].name) == len) {
			*match = &o[i];
			return 1;	/* an exact name is never ambiguous */
		}
		*match = &o[i];
		n++;
		if (used < list_len)
			used += (size_t)snprintf(list + used, list_len - used, "%s--%s",
						 n > 1 ? ", " : "", o[i].name);
	}
	return n;
}

/* The common options only a command that talks to a device takes. */
static const char *const device_only[] = { "verbose", "timeout" };

/* map and export talk to no device: -v and --timeout are refused, saying why */
static void no_device_hint(const struct cli_cmd *cmd, char *out, size_t len)
{
	size_t i, used;

	used = (size_t)snprintf(out, len, " (%s talks to no device; -v and --timeout are for "
				"the commands that do:", cmd->name);
	for (i = 0; cli_commands[i] && used < len; i++) {
		const struct cli_opt *o;

		for (o = cli_commands[i]->opts; o->name && o->key != CLI_K_TIMEOUT; o++)
			;
		if (o->name)
			used += (size_t)snprintf(out + used, len - used, " %s", cli_commands[i]->name);
	}
	if (used < len)
		snprintf(out + used, len - used, ")");
}

/*
 * " (did you mean '--json'?)" for an unknown long option within a typo of
 * one of cmd's (cdt_nearest_name), the reason for a device's common option
 * on a command without a device, else "".
 */
static void unknown_hint(const struct cli_cmd *cmd, const char *word, size_t len,
			 char *out, size_t out_len)
{
	const char *names[MAX_OPTS], *near;
	char typed[64];
	size_t i, n = count_opts(cmd->opts);

	out[0] = '\0';
	snprintf(typed, sizeof(typed), "%.*s", (int)len, word);
	for (i = 0; i < n && i < MAX_OPTS; i++)
		names[i] = cmd->opts[i].name;
	near = cdt_nearest_name(typed, names, i);
	if (near) {
		snprintf(out, out_len, " (did you mean '--%s'?)", near);
		return;
	}
	for (i = 0; i < sizeof(device_only) / sizeof(device_only[0]); i++)
		if (!strcmp(typed, device_only[i]))
			no_device_hint(cmd, out, out_len);
}

/* Usage error for what getopt_long refused ('?' or ':'), naming the candidates. */
static int bad_option(const struct cli_cmd *cmd, int opt, const char *word)
{
	const struct cli_opt *m = NULL;
	char list[512];
	size_t len, n;

	if (strncmp(word, "--", 2) || !word[2]) {
		if (opt == ':')
			return cli_usage(cmd->name, "option '-%c' needs a value", optopt);
		list[0] = '\0';
		if (optopt == 'v')
			no_device_hint(cmd, list, sizeof(list));
		return cli_usage(cmd->name, "unknown option '-%c'%s", optopt, list);
	}
	len = strcspn(word + 2, "=");
	n = candidates(cmd->opts, word + 2, len, &m, list, sizeof(list));
	if (n > 1)
		return cli_usage(cmd->name, "option '%.*s' is ambiguous: it could be %s",
				 (int)len + 2, word, list);
	if (n == 0) {
		unknown_hint(cmd, word + 2, len, list, sizeof(list));
		return cli_usage(cmd->name, "unknown option '%.*s'%s", (int)len + 2, word, list);
	}
	if (opt == ':')
		return cli_usage(cmd->name, "option '--%s' needs a value (--%s=%s)",
				 m->name, m->name, m->arg);
	return cli_usage(cmd->name, "option '--%s' takes no value", m->name);
}

static int common_opt(struct cli_common *co, const char *cmd, int key,
		      const char *arg)
{
	uint64_t v;
	int rc;

	switch (key) {
	case CLI_K_JSON:
		co->json = true;
		return 0;
	case 'v':
		co->verbose++;
		return 0;
	case 'q':
		co->quiet = true;
		return 0;
	case CLI_K_TIMEOUT:
		rc = cli_opt_u64(cmd, "timeout", "seconds", arg, 1, 3600, &v);
		co->timeout_ms = (unsigned int)v * 1000;
		return rc;
	case CLI_K_STATUS_EVERY:
		rc = cli_opt_u64(cmd, "status-every", "seconds", arg, 0, 86400, &v);
		co->status_every_s = (unsigned int)v;
		return rc;
	case CLI_K_MAX_EXTRA:
		return cli_opt_u64(cmd, "max-extra", "a block count", arg, 1, 1u << 24,
				   &co->max_extra);
	}
	return 1;
}

/* Whether word, before any "--", asks for --json (so a usage error can be JSON too). */
static bool wants_json(const struct cli_cmd *cmd, int argc, char **argv)
{
	const struct cli_opt *m = NULL;
	char list[8];
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		size_t len = strcspn(argv[i] + 2, "=");

		if (strncmp(argv[i], "--", 2) || !len)
			continue;
		if (candidates(cmd->opts, argv[i] + 2, len, &m, list, sizeof(list)) == 1 &&
		    m->key == CLI_K_JSON)
			return true;
	}
	return false;
}

static void add_operand(struct cli_args *a, char *word)
{
	if (a->n < CLI_MAX_OPERANDS)
		a->op[a->n] = word;
	a->n++;
}

/* The idx-th word of the usage line's operands ("DEV", "OUT"), for "missing X". */
static void operand_name(const char *ops, int idx, char *out, size_t len)
{
	const char *p = ops;
	size_t n;

	for (;;) {
		p += strspn(p, " ([");
		n = strcspn(p, " )]|");
		if (!idx-- || !p[n])
			break;
		p += n;
	}
	snprintf(out, len, "%.*s", (int)n, p);
}

/*
 * Habits of other tools answered with the option meant, in one line:
 * GNU ddrescue's IN OUT MAPFILE (image's map is --map) and an image file
 * after DEV (verify compares with --image FILE).  0: no habit seen.
 */
static int habit(const struct cli_cmd *cmd, const struct cli_args *a)
{
	if (!strcmp(cmd->name, "image") && a->n == 3)
		return cli_usage_line(cmd->name, "too many arguments: '%s' (GNU ddrescue's "
				      "order? the map is an option here: cdtail image --map %s "
				      "%s %s)", a->op[2], a->op[2], a->op[0], a->op[1]);
	if (!strcmp(cmd->name, "verify") && a->n == 2)
		return cli_usage_line(cmd->name, "too many arguments: '%s' (an image to compare "
				      "with? cdtail verify --image %s %s)", a->op[1], a->op[1],
				      a->op[0]);
	return 0;
}

static int check_count(const struct cli_cmd *cmd, const struct cli_args *a)
{
	char name[32];

	if (a->n < cmd->min_operands) {
		operand_name(cmd->operands, a->n, name, sizeof(name));
		return cli_usage(cmd->name, "missing %s", name);
	}
	if (a->n > cmd->max_operands && habit(cmd, a))
		return EX_USAGE_ERR;
	if (a->n > cmd->max_operands && cmd->max_operands < CLI_MAX_OPERANDS)
		return cli_usage(cmd->name, "too many arguments: '%s' (it takes %s)",
				 a->op[cmd->max_operands], cmd->operands);
	if (a->n > cmd->max_operands)
		return cli_usage(cmd->name, "too many arguments (it takes %s)", cmd->operands);
	return 0;
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      struct cli_common *co, cli_opt_fn fn, void *ctx,
	      struct cli_args *a)
{
	struct option lo[MAX_OPTS + 1];
	char shorts[2 * MAX_OPTS + 3];
	int opt, rc;

	memset(co, 0, sizeof(*co));
	co->timeout_ms = CLI_TIMEOUT_DEFAULT_S * 1000;
	co->max_extra = CDT_DEFAULT_MAX_EXTRA;
	co->status_every_s = CLI_STATUS_EVERY_DEFAULT;
	a->n = 0;
	build(cmd->opts, lo, shorts);
	cli_note_json(wants_json(cmd, argc, argv));
	optind = 0;	/* glibc: start afresh */
	opterr = 0;
	for (;;) {
		opt = getopt_long(argc, argv, shorts, lo, NULL);
		if (opt == -1) {
			if (optind > 1 && !strcmp(argv[optind - 1], "--")) {
				while (optind < argc)
					add_operand(a, argv[optind++]);
				break;
			}
			if (optind >= argc)
				break;
			add_operand(a, argv[optind++]);
			continue;
		}
		if (opt == '?' || opt == ':')
			return bad_option(cmd, opt, argv[optind - 1]);
		if (opt == 'h') {
			cli_help(cmd, stdout);
			return CLI_HELP_SHOWN;
		}
		if (opt == 'V') {
			printf("cdtail %s\n", CDT_VERSION);
			return CLI_HELP_SHOWN;
		}
		rc = common_opt(co, cmd->name, opt, optarg);
		if (rc == 1)
			rc = fn ? fn(ctx, opt, optarg) : 1;
		if (rc)
			return EX_USAGE_ERR;
	}
	if (a->n && !strncmp(cmd->operands, "DEV", 3))
		cli_note_device(a->op[0]);
	return check_count(cmd, a);
}

void cli_help(const struct cli_cmd *cmd, FILE *f)
{
	const struct cli_opt *o;

	fprintf(f, "usage: cdtail %s [OPTIONS] %s\n\n%s\n", cmd->name, cmd->operands,
		cmd->about);
	fputs("Options (anywhere on the line; -- ends them; --opt=VALUE and\n"
	      "unambiguous abbreviations work):\n", f);
	for (o = cmd->opts; o->name; o++) {
		char left[48];

		snprintf(left, sizeof(left), "%c%c%c --%s%s%s", is_short(o->key) ? '-' : ' ',
			 is_short(o->key) ? o->key : ' ', is_short(o->key) ? ',' : ' ',
			 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-26s ", left);
		cli_wrap(f, strlen(left) > 26 ? strlen(left) + 3 : 29, 29, o->help);
	}
	fprintf(f, "\n%s", cmd->exits);
}
