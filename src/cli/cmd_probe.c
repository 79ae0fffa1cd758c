// SPDX-License-Identifier: MIT
/* cdtail probe: how many blocks does the disc really hold? */
#include <stdio.h>
#include <string.h>
#include "readui.h"

#define OPT_ALL 0x1601
#define OPT_SYSFS 0x1602

struct probe_all_args {
	bool all;
	const char *sysfs;
};

static int probe_opt(void *ctx, int key, const char *arg)
{
	struct probe_all_args *a = ctx;

	if (key == OPT_ALL)
		a->all = true;
	else if (key == OPT_SYSFS)
		a->sysfs = arg;
	else
		return 1;
	return 0;
}

static int run(int argc, char **argv)
{
	struct probe_all_args all;
	struct cdt_probe_opts po = CDT_INIT(po);
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_layout *layout;
	struct cli_common co;
	struct cli_args a;
	struct cdt_dev *dev;
	struct screen screen;
	double t0;
	int rc;

	memset(&all, 0, sizeof(all));
	rc = cli_parse(&cli_cmd_probe, argc, argv, &co, probe_opt, &all, &a);
	if (rc)
		return rc == CLI_HELP_SHOWN ? 0 : rc;
	if (all.all || all.sysfs) {
		if (!all.all)
			return cli_usage("probe", "--sysfs goes with --all");
		if (a.n)
			return cli_usage("probe", "--all probes every drive: no DEV");
		return cli_probe_all(&co, all.sysfs);
	}
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
	if (co.json)
		cli_json_out(cli_probe_json(a.op[0], &res, cdt_is_virtual_time(dev),
					    cli_now_ms() - t0, cli_layout_json(layout)));
	else if (co.quiet)
		printf("verdict:   %s\n", cdt_verdict_name(res.verdict));
	else
		cli_probe_text(a.op[0], &res, cdt_is_virtual_time(dev), layout);
	cdt_layout_free(layout);
	cdt_close(dev);
	/* the window decided the end: the disc may hold more (issue 35, 6) */
	if (res.notes & CDT_NOTE_WINDOW_LIMIT)
		return EX_WINDOW;
	return cli_verdict_status(res.verdict);
}

static const struct cli_opt probe_opts[] = {
	{ "all", OPT_ALL, NULL, "every optical drive of the host, in parallel (no DEV)" },
	{ "sysfs", OPT_SYSFS, "ROOT", "with --all: find the drives under ROOT instead of /sys" },
	CLI_OPT_MAX_EXTRA, CLI_OPTS_COMMON
};

const struct cli_cmd cli_cmd_probe = {
	.name = "probe",
	.operands = "DEV",
	.about = "find the true number of readable blocks\n"
		 "\n"
		 "Identify the drive and the medium, gather every size source and find\n"
		 "the true number of readable blocks.  --all: every optical drive of\n"
		 "the host at once, one thread each, a line (JSON Lines with --json) per\n"
		 "drive as soon as it is done.\n",
	.exits = "Exit: 0 the reported length is true, 10 hidden tail found, 11 the disc\n"
		 "holds less than reported, 5 the search stopped at the --max-extra window\n"
		 "(the disc may hold more), 2 usage error, 3 device error, 130/143\n"
		 "interrupted.  --all: 10 when\n"
		 "any drive hid a tail, else 11 when any was short, else 3 when any failed\n"
		 "(or none was found), else 0; drives without a medium count as none.\n",
	.opts = probe_opts,
	.min_operands = 0,
	.max_operands = 1,
	.run = run,
};
