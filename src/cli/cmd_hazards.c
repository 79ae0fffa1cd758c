// SPDX-License-Identifier: MIT
/*
 * cdtail hazards [--json] [--sysfs ROOT] [--no-mode-sense] DEV
 *
 * Report multipath and flush/FUA ordering hazards of the block device
 * behind DEV.  Exit 0 when there is none at or above --fail-on's severity
 * (default warning: an info note, "correct, but slow", is no failure), 10
 * when there is, 2 usage, 3 device error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdtail-hazards.h"
#include "readui.h"

#define CMD "hazards"
#define OPT_SYSFS 0x2001
#define OPT_NO_MODE_SENSE 0x2002
#define OPT_FAIL_ON 0x2003
/* hazards found: the same number as probe's hidden tail, by contract */
#define EX_HAZARDS EX_HIDDEN_TAIL

struct hz_args {
	struct cli_common co;
	const char *sysfs;	/* as given, NULL for the default /sys */
	bool no_mode_sense;
	enum cdt_hazard_severity fail_on;	/* the least severity that fails */
	const char *dev;
};

/* --fail-on: "error" is the contract's word for the library's "danger" */
static int parse_fail_on(const char *arg, enum cdt_hazard_severity *out)
{
	if (!strcmp(arg, "info"))
		*out = CDT_HAZARD_INFO;
	else if (!strcmp(arg, "warning"))
		*out = CDT_HAZARD_WARNING;
	else if (!strcmp(arg, "error") || !strcmp(arg, "danger"))
		*out = CDT_HAZARD_DANGER;
	else
		return cli_usage(CMD, "--fail-on wants info, warning or error, not '%s'", arg);
	return 0;
}

static int hz_opt(void *ctx, int key, const char *arg)
{
	struct hz_args *a = ctx;

	if (key == OPT_SYSFS)
		a->sysfs = arg;
	else if (key == OPT_NO_MODE_SENSE)
		a->no_mode_sense = true;
	else if (key == OPT_FAIL_ON)
		return parse_fail_on(arg, &a->fail_on);
	else
		return 1;
	return 0;
}

/* The findings at or above --fail-on's severity: exit 10 when any. */
static size_t failing(const struct hz_args *a, const struct cdt_hazard_list *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->n_hazards; i++)
		n += l->hazards[i].severity >= a->fail_on;
	return n;
}

/* Returns 0, EX_USAGE_ERR, or CLI_HELP_SHOWN (exit 0). */
static int parse_args(int argc, char **argv, struct hz_args *a)
{
	struct cli_args ops;
	int rc;

	memset(a, 0, sizeof(*a));
	a->fail_on = CDT_HAZARD_WARNING;
	rc = cli_parse(&cli_cmd_hazards, argc, argv, &a->co, hz_opt, a, &ops);
	if (rc)
		return rc;
	a->dev = ops.op[0];
	if (!*a->dev)
		return cli_usage(CMD, "DEV is empty");
	return 0;
}

/* ---- text output -------------------------------------------------------- */

static const char *role_name(enum cdt_hazard_role r)
{
	switch (r) {
	case CDT_NODE_PATH:
		return "path";
	case CDT_NODE_COMPONENT:
		return "component";
	case CDT_NODE_BACKING:
		return "backing";
	default:
		return "device";
	}
}

static const char *str_or(const char *s, const char *none)
{
	return s && *s ? s : none;
}

static void print_summary(const char *dev, const struct cdt_hazard_list *l)
{
	const struct cdt_hazard_node *top = &l->nodes[0];
	size_t i, paths = 0;

	for (i = 1; i < l->n_nodes; i++)
		paths += l->nodes[i].parent == 0;
	if (!l->node[0])
		printf("%s: no sysfs node; caching page only\n", dev);
	else if (top->is_multipath)
		printf("%s: %s, multipath map '%s', %zu path%s\n", dev, top->name,
		       top->dm_name, paths, paths == 1 ? "" : "s");
	else if (top->is_dm)
		/* an LVM uuid is 68 characters: a line of its own */
		printf("%s: %s, dm device '%s', %zu slave%s\n  dm/uuid '%s'\n", dev,
		       top->name, top->dm_name, paths, paths == 1 ? "" : "s", top->dm_uuid);
	else
		printf("%s: %s\n", dev, top->name);
}

static void print_findings(const struct cdt_hazard_list *l, bool quiet)
{
	size_t i;

	printf("%-24s %-8s %s\n", "ID", "SEVERITY", "WHERE");
	for (i = 0; i < l->n_hazards; i++)
		printf("%-24s %-8s %s\n", l->hazards[i].id,
		       cdt_hazard_severity_name(l->hazards[i].severity),
		       l->hazards[i].where);
	if (quiet)
		return;
	for (i = 0; i < l->n_hazards; i++) {
		printf("\n%s (%s, %s):\n", l->hazards[i].id, l->hazards[i].where,
		       cdt_hazard_severity_name(l->hazards[i].severity));
		fputs("  ", stdout);
		cli_wrap(stdout, 2, 2, l->hazards[i].detail);
	}
}

/*
 * The node facts in two tables of one row a node each, so that each fits
 * 80 columns: the queue (state, rotational, depth), then the cache (the
 * kernel's write_cache and FUA, the disk's cache_type, the caching page's
 * WCE and DPOFUA).  "-": not applicable (a dm map has no device/, sim:
 * has no sysfs).
 */
static void print_queue(const struct cdt_hazard_node *n, bool sysfs)
{
	const char *na = n->is_dm || !sysfs ? "-" : "unknown";
	char qd[24];

	if (n->queue_depth >= 0)
		snprintf(qd, sizeof(qd), "%ld", n->queue_depth);
	else
		snprintf(qd, sizeof(qd), "%s", na);
	printf("%-10s %-9s %-17s %-3s %s\n", n->name, role_name(n->role),
	       str_or(n->state, na),
	       sysfs ? cdt_hazard_tri_text(n->rotational, "1", "0") : "-", qd);
}

static void print_cache(const struct cdt_hazard_node *n, bool sysfs)
{
	const char *na = n->is_dm || !sysfs ? "-" : "unknown";
	const char *unk = sysfs ? "unknown" : "-";
	char wce[12], dpofua[12];

	snprintf(wce, sizeof(wce), "%s", !n->mode_sense_done ? "-" :
		 n->wce < 0 ? "no-page" : n->wce ? "1" : "0");
	snprintf(dpofua, sizeof(dpofua), "%s",
		 !n->mode_sense_done ? "-" : n->dpofua ? "1" : "0");
	printf("%-10s %-13s %-3s %-26s %-7s %s\n", n->name, str_or(n->write_cache, unk),
	       sysfs ? cdt_hazard_tri_text(n->fua, "1", "0") : "-",
	       str_or(n->cache_type, na), wce, dpofua);
}

/* why_not: why no caching page was read at all, or NULL when asked for */
static void print_nodes(const struct cdt_hazard_list *l, bool verbose,
			const char *why_not)
{
	bool sysfs = l->node[0] != '\0';
	size_t i;

	printf("\n%-10s %-9s %-17s %-3s %s\n", "NODE", "ROLE", "STATE", "ROT", "QDEPTH");
	for (i = 0; i < l->n_nodes; i++)
		print_queue(&l->nodes[i], sysfs);
	printf("\n%-10s %-13s %-3s %-26s %-7s %s\n", "NODE", "WRITE_CACHE", "FUA",
	       "CACHE_TYPE", "WCE", "DPOFUA");
	for (i = 0; i < l->n_nodes; i++)
		print_cache(&l->nodes[i], sysfs);
	if (!verbose)
		return;
	if (why_not && l->node[0]) {
		fputs("caching pages not read: ", stdout);
		cli_wrap(stdout, 24, 2, why_not);
		return;
	}
	for (i = 0; i < l->n_nodes; i++)
		if (l->nodes[i].mode_sense_note[0])
			cli_wrap(stdout, (size_t)printf("%s: caching page: ",
							l->nodes[i].name), 2,
				 l->nodes[i].mode_sense_note);
}

static void print_text(const struct hz_args *a, const struct cdt_hazard_list *l,
		       const char *why_not)
{
	if (!a->co.quiet)
		print_summary(a->dev, l);
	if (l->n_hazards)
		print_findings(l, a->co.quiet);
	else if (!a->co.quiet)
		puts("no ordering hazard found");
	if (l->n_hazards && !failing(a, l) && !a->co.quiet)
		printf("\nexit 0: no finding is %s (--fail-on)\n",
		       a->fail_on == CDT_HAZARD_WARNING ? "a warning or worse" :
		       "an error (danger)");
	if (!a->co.quiet)
		print_nodes(l, a->co.verbose > 0, why_not);
}

/* ---- JSON output -------------------------------------------------------- */

static json_object *json_str(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static json_object *json_tri(int v)
{
	return v < 0 ? NULL : json_object_new_boolean(v);
}

static json_object *json_mode_sense(const struct cdt_hazard_node *n)
{
	json_object *o;

	if (!n->mode_sense_done)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "wce", json_tri(n->wce));
	json_object_object_add(o, "dpofua", json_object_new_boolean(n->dpofua > 0));
	return o;
}

static json_object *json_node(const struct cdt_hazard_list *l,
			      const struct cdt_hazard_node *n)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(n->name));
	json_object_object_add(o, "role", json_object_new_string(role_name(n->role)));
	json_object_object_add(o, "parent", n->parent < 0 ? NULL :
		json_object_new_string(l->nodes[n->parent].name));
	json_object_object_add(o, "dev", json_str(n->dev));
	json_object_object_add(o, "dm_name", json_str(n->dm_name));
	json_object_object_add(o, "dm_uuid", json_str(n->dm_uuid));
	json_object_object_add(o, "multipath", json_object_new_boolean(n->is_multipath));
	json_object_object_add(o, "state", json_str(n->state));
	json_object_object_add(o, "write_cache", json_str(n->write_cache));
	json_object_object_add(o, "fua", json_tri(n->fua));
	json_object_object_add(o, "rotational", json_tri(n->rotational));
	json_object_object_add(o, "queue_depth", n->queue_depth < 0 ? NULL :
		json_object_new_int64(n->queue_depth));
	json_object_object_add(o, "cache_type", json_str(n->cache_type));
	json_object_object_add(o, "wwid", json_str(n->wwid));
	json_object_object_add(o, "mode_sense", json_mode_sense(n));
	json_object_object_add(o, "mode_sense_note", json_str(n->mode_sense_note));
	return o;
}

static void print_json(const struct hz_args *a, const struct cdt_hazard_list *l)
{
	json_object *root = json_object_new_object();
	json_object *hz = json_object_new_array();
	json_object *nodes = json_object_new_array();
	size_t i;

	json_object_object_add(root, "device", json_object_new_string(a->dev));
	json_object_object_add(root, "node", json_str(l->node));
	json_object_object_add(root, "sysfs", l->node[0] ?
		json_object_new_string(a->sysfs ? a->sysfs : "/sys") : NULL);
	for (i = 0; i < l->n_hazards; i++) {
		const struct cdt_hazard *h = &l->hazards[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_string(h->id));
		json_object_object_add(o, "severity", json_object_new_string(
			cdt_hazard_severity_name(h->severity)));
		json_object_object_add(o, "detail", json_object_new_string(h->detail));
		json_object_object_add(o, "where", json_object_new_string(h->where));
		json_object_array_add(hz, o);
	}
	json_object_object_add(root, "hazards", hz);
	for (i = 0; i < l->n_nodes; i++)
		json_object_array_add(nodes, json_node(l, &l->nodes[i]));
	json_object_object_add(root, "nodes", nodes);
	json_object_object_add(root, "fail_on", json_object_new_string(
		cdt_hazard_severity_name(a->fail_on)));
	json_object_object_add(root, "failing", json_object_new_int64((int64_t)failing(a, l)));
	json_object_object_add(root, "verdict", json_object_new_string(
		l->n_hazards ? "hazards" : "no-hazard"));
	cli_json_out(root);
}

/* ---- the command -------------------------------------------------------- */

/* Why no SCSI node got a MODE SENSE (the library says), or NULL. */
static const char *mode_sense_off(const struct hz_args *a,
				  const struct cdt_hazard_list *l)
{
	if (a->no_mode_sense)
		return "--no-mode-sense";
	return l->mode_sense_off[0] ? l->mode_sense_off : NULL;
}

static int scan(const struct hz_args *a, struct cdt_dev *dev,
		struct cdt_hazard_list *l)
{
	struct cdt_open_opts oo = {
		.size = sizeof(oo),
		.timeout_ms = a->co.timeout_ms,
		.log = a->co.verbose ? cli_log_cmd : NULL,
		.log_ctx = (void *)&a->co.verbose,
	};
	struct cdt_hazard_opts ho = {
		.size = sizeof(ho),
		.sysfs_root = a->sysfs,
		.dev = dev,
		.mode_sense = !a->no_mode_sense,
		.open_opts = &oo,
	};
	char err[1024];
	int rc;

	rc = cdt_hazards_scan(a->dev, &ho, l, err, sizeof(err));
	if (rc) {
		cli_err("%s: %s", CMD, err);
		return cli_dev_status(a->dev, rc);
	}
	return 0;
}

static int run(int argc, char **argv)
{
	struct cdt_hazard_list list = CDT_INIT(list);
	/* a signal ends the scan's wait (a sysfs read, MODE SENSE): the run
	 * then ends 130/143, with --json the error object (issue 35, 2) */
	volatile sig_atomic_t *stop = rui_catch_signals();
	struct cdt_dev *dev = NULL;
	struct hz_args a;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc == CLI_HELP_SHOWN ? 0 : rc;
	if (cdt_hazards_needs_handle(a.dev)) {
		rc = cli_open(a.dev, &a.co, &dev);
		if (rc)
			return rc;
	}
	rc = scan(&a, dev, &list);
	if (!rc && *stop) {
		cdt_hazard_list_free(&list);
		cli_err("%s: interrupted", CMD);
		rc = rui_interrupted_status();
	} else if (!rc) {
		if (a.co.json)
			print_json(&a, &list);
		else
			print_text(&a, &list, mode_sense_off(&a, &list));
		rc = failing(&a, &list) ? EX_HAZARDS : EX_SAME;
		cdt_hazard_list_free(&list);
	}
	if (dev)
		cdt_close(dev);
	return rc;
}

static const struct cli_opt hazards_opts[] = {
	{ "sysfs", OPT_SYSFS, "ROOT", "read sysfs from ROOT instead of /sys" },
	{ "no-mode-sense", OPT_NO_MODE_SENSE, NULL, "do not read the caching mode page of SCSI disks" },
	{ "fail-on", OPT_FAIL_ON, "LEVEL", "exit 10 for a finding of LEVEL or worse: info, warning "
	  "(default) or error" },
	CLI_OPTS_COMMON
};

const struct cli_cmd cli_cmd_hazards = {
	.name = CMD,
	.operands = "DEV",
	.about = "report multipath and flush ordering hazards\n"
		 "\n"
		 "Report multipath and flush/FUA ordering hazards of the block device\n"
		 "behind DEV (/dev/sdX, /dev/dm-N, /dev/mapper/NAME, /dev/sgN, sim:...).\n"
		 "-q prints only the findings table, -v also why a caching page was not read.\n",
	.exits = "Exit: 0 no hazard at or above --fail-on (default warning), 10 one\n"
		 "found, 2 usage error, 3 device error, 130/143 interrupted.\n",
	.opts = hazards_opts,
	.min_operands = 1,
	.max_operands = 1,
	.run = run,
};
