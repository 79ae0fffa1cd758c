// SPDX-License-Identifier: MIT
/* cdtail tail: append the hidden tail to an image dd made. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "acqlog.h"
#include "readui.h"

static const char *const basis_names[] = {
	[CDT_TAIL_NONE] = NULL,
	[CDT_TAIL_REPORTED] = "reported",
	[CDT_TAIL_KERNEL] = "kernel",
	[CDT_TAIL_COMPLETE] = "complete",
};

static const char *const verdict_names[] = {
	[CDT_TAIL_APPENDED] = "appended",
	[CDT_TAIL_NOTHING_TO_ADD] = "nothing-to-add",
	[CDT_TAIL_BAD_LENGTH] = "length-mismatch",
	[CDT_TAIL_MISMATCH] = "data-mismatch",
	[CDT_TAIL_UNREADABLE] = "unreadable",
};

static bool has_lba(enum cdt_tail_verdict v)
{
	return v == CDT_TAIL_MISMATCH || v == CDT_TAIL_UNREADABLE;
}

/*
 * interrupted: a run stopped by a signal (exit 130/143) prints this same
 * object with "interrupted": true and verdict "interrupted", as image
 * does: IMAGE is back at its old length (its size now, also when the
 * stop came before the library looked at it) and nothing was appended.
 */
static void print_json(const char *addr, const char *image,
		       const struct cdt_tail_result *r, bool virt, bool interrupted)
{
	json_object *o = json_object_new_object();
	const char *basis = basis_names[r->basis];
	uint64_t before = r->image_bytes, after = r->final_bytes;
	struct stat st;

	if (interrupted && !stat(image, &st))
		before = after = (uint64_t)st.st_size;

	rui_json_summary(o, addr, &r->sum, virt);
	json_object_object_add(o, "out", json_object_new_string(image));
	json_object_object_add(o, "out_bytes_before", json_object_new_int64((int64_t)before));
	json_object_object_add(o, "out_bytes", json_object_new_int64((int64_t)after));
	json_object_object_add(o, "matched", basis ? json_object_new_string(basis) : NULL);
	json_object_object_add(o, "compared_blocks", json_object_new_int64((int64_t)r->compared_blocks));
	json_object_object_add(o, "first_diff_lba", r->verdict == CDT_TAIL_MISMATCH ?
			       json_object_new_int64((int64_t)r->mismatch_lba) : NULL);
	json_object_object_add(o, "first_unreadable_lba", r->verdict == CDT_TAIL_UNREADABLE ?
			       json_object_new_int64((int64_t)r->mismatch_lba) : NULL);
	json_object_object_add(o, "appended_blocks",
			       json_object_new_int64(interrupted ? 0 : (int64_t)r->appended_blocks));
	json_object_object_add(o, "skipped", rui_json_skipped(r->skipped, r->n_skipped));
	json_object_object_add(o, "skipped_blocks", json_object_new_int64((int64_t)r->skipped_blocks));
	json_object_object_add(o, "form2_blocks",
			       json_object_new_int64((int64_t)rui_form2_blocks(r->skipped, r->n_skipped)));
	json_object_object_add(o, "protected_blocks",
			       json_object_new_int64((int64_t)rui_protected_blocks(r->skipped, r->n_skipped)));
	json_object_object_add(o, "verdict", json_object_new_string(interrupted ? "interrupted" :
								    verdict_names[r->verdict]));
	if (interrupted)
		json_object_object_add(o, "interrupted", json_object_new_boolean(true));
	cli_json_out(o);
}

/* "image:     dd.iso, 598016 bytes = ...": the file by its name, wrapped */
static void print_match(const char *image, const struct cdt_tail_result *r)
{
	const struct cdt_probe_result *p = rui_probe(&r->sum);
	unsigned long long bytes = r->image_bytes;
	char text[4400];

	switch (r->basis) {
	case CDT_TAIL_REPORTED:
		snprintf(text, sizeof(text), "%s, %llu bytes = READ CAPACITY (%llu blocks)", image,
			 bytes, (unsigned long long)p->reported_blocks);
		break;
	case CDT_TAIL_KERNEL:
		snprintf(text, sizeof(text), "%s, %llu bytes = the kernel's size (%lld x 512)",
			 image, bytes, (long long)p->sizes.kernel_512);
		break;
	case CDT_TAIL_COMPLETE:
		snprintf(text, sizeof(text), "%s, %llu bytes = the true end already", image, bytes);
		break;
	default:
		snprintf(text, sizeof(text), "%s, %llu bytes: neither the reported length"
			 " (%llu bytes) nor the true end", image, bytes,
			 (unsigned long long)p->reported_blocks * r->sum.block_size);
		break;
	}
	cli_wrap(stdout, (size_t)printf("image:     "), 11, text);
}

/*
 * IMAGE was refused: a copy GNU ddrescue made comes with its map, and
 * image grows that map to the true end instead (cdtail-image(1)): it
 * checks IMAGE's finished blocks, whatever its length, retries what
 * ddrescue left bad and reads the rest.
 */
static void print_next(const char *addr, const char *image, const struct cdt_tail_result *r)
{
	char text[4400];

	if (r->verdict != CDT_TAIL_BAD_LENGTH && r->verdict != CDT_TAIL_MISMATCH &&
	    r->verdict != CDT_TAIL_UNREADABLE)
		return;
	snprintf(text, sizeof(text), "if GNU ddrescue made %s, give image its map instead: it"
		 " checks the copy, grows the map to the true end and reads the rest:", image);
	cli_wrap(stdout, (size_t)printf("next:      "), 11, text);
	printf("           cdtail image --map MAP %s %s\n", addr, image);
}

static void print_text(const char *addr, const char *image, const struct cdt_tail_result *r,
		       bool virt)
{
	char text[4400];

	rui_print_summary(addr, &r->sum, virt);
	print_match(image, r);
	if (r->compared_blocks)
		printf("compared:  the last %llu block%s of %s with the disc\n",
		       (unsigned long long)r->compared_blocks, r->compared_blocks == 1 ? "" : "s",
		       image);
	else
		printf("compared:  nothing: %s\n", r->basis == CDT_TAIL_NONE ?
		       "its length is no size of this disc, so no block was read" :
		       "it holds no whole block");
	if (has_lba(r->verdict))
		printf("LBA %llu:  %s\n", (unsigned long long)r->mismatch_lba,
		       r->verdict == CDT_TAIL_MISMATCH ? "differs from the image: not a copy of this disc, nothing written"
						       : "cannot be read to compare, nothing written");
	snprintf(text, sizeof(text), "not compared; zeros where %s grew over them", image);
	rui_print_skipped(r->skipped, r->n_skipped, r->skipped_blocks, text);
	snprintf(text, sizeof(text), "%s lacks them (zeros)", image);
	rui_print_withheld(r->skipped, r->n_skipped, text);
	printf("appended:  %llu block%s (%s is now %llu bytes)\n",
	       (unsigned long long)r->appended_blocks, r->appended_blocks == 1 ? "" : "s",
	       image, (unsigned long long)r->final_bytes);
	snprintf(text, sizeof(text), "%s holds zeros there, and the digests above cover those zeros",
		 image);
	rui_print_lost(&r->sum, "lost:", text);
	print_next(addr, image, r);
	printf("verdict:   %s\n", verdict_names[r->verdict]);
}

static int status_for(const struct cdt_tail_result *r)
{
	switch (r->verdict) {
	case CDT_TAIL_BAD_LENGTH:
	case CDT_TAIL_MISMATCH:
		return EX_DIFFERENT;
	case CDT_TAIL_UNREADABLE:
		return EX_UNREADABLE;
	default:
		/* Form 2 and protected blocks make IMAGE incomplete as bad ones do */
		return r->sum.bad_blocks || rui_withheld_blocks(r->skipped, r->n_skipped) ?
		       EX_UNREADABLE : EX_SAME;
	}
}

struct tail_cli {
	struct rui ui;
	struct acqlog_opts lo;	/* --log, --no-log, --dfxml, case fields */
	struct acqlog log;
};

static int tail_opt(void *ctx, int key, const char *arg)
{
	struct tail_cli *c = ctx;
	int rc = acqlog_opt(&c->lo, "tail", key, arg);

	return rc == 1 ? rui_opt(&c->ui, key, arg) : rc;
}

/*
 * tail changes an examiner's copy: its record goes to IMAGE.log (or --log
 * FILE) whenever it got as far as the probe, with IMAGE's digests before
 * and after it was extended.  3 when the record cannot be written.
 */
static int write_log(struct tail_cli *c, struct cdt_dev *dev, const char *addr, const char *image,
		     const struct cdt_tail_result *res, int err, int status)
{
	struct acqlog_run run = {
		.addr = addr, .out = image, .rd = &c->ui.rd, .sum = &res->sum, .tail = res,
		.status = status,
	};

	if (status == EX_USAGE_ERR || !res->sum.probe)
		return status;
	return acqlog_finish(&c->log, dev, &run, err, verdict_names[res->verdict]);
}

static int check_log(struct tail_cli *c, const char *image, int argc, char **argv)
{
	const char *others[] = { image, NULL };
	char def[4096];

	snprintf(def, sizeof(def), "%s.log", image);
	acqlog_begin(&c->log, "tail", &c->lo, def, c->ui.co.json, argc, argv);
	return acqlog_check(&c->log, others);
}

static int run(int argc, char **argv)
{
	struct cdt_tail_result res = CDT_INIT(res);
	struct cli_args a;
	struct cdt_dev *dev;
	struct tail_cli c;
	int rc, err;

	memset(&c, 0, sizeof(c));
	rui_init(&c.ui, "tail");
	rc = cli_parse(&cli_cmd_tail, argc, argv, &c.ui.co, tail_opt, &c, &a);
	if (rc)
		return rc == CLI_HELP_SHOWN ? 0 : rc;
	rc = cli_check_file("tail", "IMAGE", a.op[1]);
	if (!rc)
		rc = check_log(&c, a.op[1], argc, argv);
	if (rc)
		return rc;
	rc = cli_open(a.op[0], &c.ui.co, &dev);
	if (rc)
		return rc;
	c.ui.stop_hint = "Ctrl-C stops; the image keeps its old length";
	rui_start(&c.ui, dev);
	acqlog_watch(&c.log, &c.ui.rd);
	err = rc = cdt_tail(dev, a.op[1], &c.ui.rd, &res);
	if (rc) {
		rc = rui_fail(&c.ui, dev, "tail", rc);
		if (err == CDT_EINTR && c.ui.co.json)
			print_json(a.op[0], a.op[1], &res, cdt_is_virtual_time(dev), true);
	} else {
		rui_end_line(&c.ui);
		if (c.ui.co.json)
			print_json(a.op[0], a.op[1], &res, cdt_is_virtual_time(dev), false);
		else if (c.ui.co.quiet) {
			rui_print_digests(&res.sum);
			printf("verdict:   %s\n", verdict_names[res.verdict]);
		}
		else
			print_text(a.op[0], a.op[1], &res, cdt_is_virtual_time(dev));
		rc = rui_window_status(&res.sum, c.ui.rd.max_extra, status_for(&res));
	}
	rc = write_log(&c, dev, a.op[0], a.op[1], &res, err, rc);
	cdt_tail_result_free(&res);
	cdt_close(dev);
	return rc;
}

static const struct cli_opt tail_opts[] = {
	{ "log", ACQ_K_LOG, "FILE", "append the run's record to FILE (default: IMAGE.log)" },
	{ "no-log", ACQ_K_NO_LOG, NULL, "write no record" },
	ACQLOG_OPTS_CASE,
	RUI_OPTS,
	CLI_OPTS_COMMON
};

const struct cli_cmd cli_cmd_tail = {
	.name = "tail",
	.operands = "DEV IMAGE",
	.about = "append the hidden tail to a dd image\n"
		 "\n"
		 "IMAGE is a copy of the disc that stopped at the length the drive reports\n"
		 "(dd if=/dev/sr0).  Check its length and its last 64 data blocks against\n"
		 "the disc (audio, gaps and run-outs are never read), then append the\n"
		 "blocks past the reported end.  A second run adds nothing.  A copy GNU\n"
		 "ddrescue made, with its map: cdtail image --map MAP DEV IMAGE instead.\n",
	.exits = "Exit: 0 appended or nothing to add, 1 IMAGE does not match the disc\n"
		 "(nothing written), 4 appended with unreadable blocks, 5 the end search\n"
		 "stopped at the --max-extra window, 2 usage error, 3 device error,\n"
		 "130/143 interrupted (IMAGE cut back to its old length).\n",
	.opts = tail_opts,
	.min_operands = 2,
	.max_operands = 2,
	.run = run,
};
