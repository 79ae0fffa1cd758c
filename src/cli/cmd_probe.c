// SPDX-License-Identifier: MIT
/* cdtail probe: how many blocks does the disc really hold? */
#include <stdio.h>
#include <string.h>
#include "readui.h"
#include "cdtextout.h"

#define OPT_ALL 0x1601
#define OPT_SYSFS 0x1602
#define OPT_PRETTY 0x1603

/* --all's table options, util-linux's letters (lsblk -o, -n, -r, -b) */
struct probe_args {
	struct cli_probe_all all;
	bool pretty;
};

static int probe_opt(void *ctx, int key, const char *arg)
{
	struct probe_args *a = ctx;

	switch (key) {
	case OPT_ALL:
		a->all.all = true;
		return 0;
	case OPT_SYSFS:
		a->all.sysfs = arg;
		return 0;
	case 'o':
		a->all.columns = arg;
		return cli_probe_all_columns(arg);
	case 'n':
		a->all.noheadings = true;
		return 0;
	case 'r':
		a->all.raw = true;
		return 0;
	case 'b':
		a->all.bytes = true;
		return 0;
	case OPT_PRETTY:
		a->pretty = true;
		return 0;
	}
	return 1;
}

/* probe --all [DEV...]: the options only it takes were given alone? */
static int all_only(const struct probe_args *p, const struct cli_args *a)
{
	const char *opt = p->all.sysfs ? "--sysfs" : p->all.columns ? "-o" :
			  p->all.noheadings ? "-n" : p->all.raw ? "-r" : p->all.bytes ? "-b" : NULL;

	if (opt)
		return cli_usage("probe", "%s goes with --all", opt);
	if (a->n > 1)
		return cli_usage("probe", "too many arguments: '%s' (it takes one DEV; several: "
				 "--all DEV...)", a->op[1]);
	return 0;
}

/* probe's JSON with the disc's CD-TEXT ("cd_text", null where none) */
static json_object *probe_json(const char *addr, const struct cdt_probe_result *r,
			       struct cdt_dev *dev, double ms, const struct cdt_layout *l,
			       const struct cdt_cd_text *text)
{
	json_object *o = cli_probe_json(addr, r, cdt_is_virtual_time(dev), ms,
					 cli_layout_json(l));

	json_object_object_add(o, "cd_text", cli_cd_text_json(text));
	return o;
}

static int run(int argc, char **argv)
{
	struct probe_args pa;
	struct cdt_probe_opts po = CDT_INIT(po);
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_cd_text text = CDT_INIT(text);
	struct cdt_layout *layout;
	struct cli_common co;
	struct cli_args a;
	struct cdt_dev *dev;
	struct screen screen;
	double t0;
	int rc;

	memset(&pa, 0, sizeof(pa));
	rc = cli_parse(&cli_cmd_probe, argc, argv, &co, probe_opt, &pa, &a);
	if (rc)
		return rc == CLI_HELP_SHOWN ? 0 : rc;
	if (pa.pretty && !co.json)
		return cli_usage("probe", "--pretty goes with --json");
	cli_json_pretty(pa.pretty);
	if (pa.all.all) {
		if (pa.all.sysfs && a.n)
			return cli_usage("probe", "--sysfs finds the drives: no DEV with it");
		pa.all.devs = a.n ? a.op : NULL;
		pa.all.n_devs = a.n;
		return cli_probe_all(&co, &pa.all);
	}
	rc = all_only(&pa, &a);
	if (rc)
		return rc;
	if (a.n != 1)
		return cli_usage("probe", "missing DEV (or --all)");
	rc = cli_open(a.op[0], &co, &dev);
	if (rc)
		return rc;
	po.max_extra = co.max_extra;
	po.stop = rui_catch_signals();
	if (screen_start(&screen, "probe", &co)) {
		po.progress = screen_draw;
		po.progress_ctx = &screen;
	}
	t0 = cli_now_ms();
	rc = cdt_probe(dev, &po, &res);
	screen_end(&screen);
	if (rc == CDT_EINTR) {
		cli_err("probe: interrupted");
		cdt_close(dev);
		return rui_interrupted_status();
	}
	if (rc) {
		cli_note_error(rc);
		cli_err("%s: %s", a.op[0], cdt_errmsg(dev)[0] ? cdt_errmsg(dev) : cdt_strerror(rc));
		cdt_close(dev);
		return cli_status_for(rc);
	}
	layout = cdt_dev_layout(dev);
	if (cdt_dev_cd_text(dev, &text))
		cdt_cd_text_free(&text);	/* out of memory: shown as none */
	if (co.json)
		cli_json_out(probe_json(a.op[0], &res, dev, cli_now_ms() - t0, layout, &text));
	else if (co.quiet)
		printf("verdict:   %s\n", cdt_verdict_name(res.verdict));
	else
		cli_probe_text(a.op[0], &res, cdt_is_virtual_time(dev), layout, &text);
	cdt_cd_text_free(&text);
	cdt_layout_free(layout);
	cdt_close(dev);
	/* the window decided the end: the disc may hold more (issue 35, 6) */
	if (res.notes & CDT_NOTE_WINDOW_LIMIT)
		return EX_WINDOW;
	return cli_verdict_status(res.verdict);
}

static const struct cli_opt probe_opts[] = {
	{ "all", OPT_ALL, NULL, "every optical drive of the host, or every DEV given, in parallel" },
	{ "sysfs", OPT_SYSFS, "ROOT", "with --all: find the drives under ROOT instead of /sys" },
	{ "output", 'o', "LIST", "with --all: the table's columns: drive, medium, reported, true, "
	  "hidden, verdict, time, error (these eight unless told), size, address; +LIST adds to "
	  "the eight" },
	{ "noheadings", 'n', NULL, "with --all: no header line" },
	{ "raw", 'r', NULL, "with --all: one space between columns, blanks as \\x20" },
	{ "bytes", 'b', NULL, "with --all: reported, true and hidden in bytes, not blocks" },
	{ "pretty", OPT_PRETTY, NULL, "with --json: indented, an object over several lines" },
	CLI_OPT_MAX_EXTRA, CLI_OPTS_COMMON
};

const struct cli_cmd cli_cmd_probe = {
	.name = "probe",
	.operands = "DEV | --all [DEV...]",
	.about = "find the true number of readable blocks\n"
		 "\n"
		 "Identify the drive and the medium, gather every size source and find\n"
		 "the true number of readable blocks.  --all: every optical drive of\n"
		 "the host (or every DEV given: sim:A sim:B rehearse a rack) at once,\n"
		 "one thread each, a line (JSON Lines with --json) per drive as soon as\n"
		 "it is done.\n",
	.exits = "Exit: 0 the reported length is true, 10 hidden tail found, 11 the disc\n"
		 "holds less than reported, 4 no block reads, 5 the search stopped at the\n"
		 "--max-extra window (the disc may hold more), 2 usage error, 3 device\n"
		 "error, 130/143 interrupted.  --all: 10 when any drive hid a tail, else\n"
		 "11 when any was short, else 4 when any read nothing, else 3 when any\n"
		 "failed (or none was found), else 0; drives without a medium count as\n"
		 "none.\n",
	.opts = probe_opts,
	.min_operands = 0,
	.max_operands = CLI_MAX_OPERANDS,
	.run = run,
};
