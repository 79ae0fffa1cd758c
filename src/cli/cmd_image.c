// SPDX-License-Identifier: MIT
/* cdtail image: the whole disc, hidden tail included, to a file. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "acqlog.h"
#include "acqrun.h"
#include "imageraw.h"
#include "mapdraw.h"
#include "readui.h"

#define OPT_MAP 0x1201
#define OPT_FORCE 0x1202
#define OPT_MAP_INTERVAL 0x1203
#define OPT_DIGEST 0x1204
#define OPT_SVG 0x1205
#define OPT_SVG_EVERY 0x1206
#define OPT_FORMATTED 0x1207
#define OPT_VERIFY_AFTER 0x1222
#define OPT_RAW 0x1230
#define OPT_OFFSET 0x1231
#define OPT_SUBCHANNEL 0x1232
#define OPT_SINGLE_FILE 0x1233

struct image_cli {
	struct rui ui;
	struct cdt_image_opts io;
	char comment[512];
	struct mapdraw_watch svg;	/* --svg, --svg-every */
	struct acqlog_opts lo;		/* --log, --no-log, --dfxml, case fields */
	struct acqlog log;
	bool verify_after;		/* --verify-after */
	struct cdt_verify_result vres;	/* its result */
	struct acqlog_verify after;
	bool raw;			/* --raw: BIN/CUE (imageraw.c) */
	bool digest_set, formatted_set;	/* options --raw refuses */
	struct cdt_raw_opts ro;		/* --offset */
};

/*
 * --digest: "none", or md5, sha256 and/or sha1 separated by a comma, each
 * at most once.  0 with the CDT_HASH_* bits in *out, or -1.
 */
static int parse_digests(const char *arg, unsigned int *out)
{
	unsigned int bits = 0, bit;
	const char *p = arg;

	if (!strcmp(arg, "none")) {
		*out = CDT_HASH_NONE;
		return 0;
	}
	for (;;) {
		size_t n = strcspn(p, ",");

		if (n == 3 && !strncmp(p, "md5", 3))
			bit = CDT_HASH_MD5;
		else if (n == 6 && !strncmp(p, "sha256", 6))
			bit = CDT_HASH_SHA256;
		else if (n == 4 && !strncmp(p, "sha1", 4))
			bit = CDT_HASH_SHA1;
		else
			return -1;
		if (bits & bit)
			return -1;
		bits |= bit;
		if (!p[n])
			break;
		p += n + 1;
	}
	*out = bits;
	return 0;
}

static int image_opt(void *ctx, int key, const char *arg)
{
	struct image_cli *c = ctx;
	uint64_t v;
	int rc;

	switch (key) {
	case OPT_MAP:
		return cli_opt_file("image", "map", arg, &c->io.map_path);
	case OPT_FORCE:
		c->io.force = true;
		return 0;
	case OPT_MAP_INTERVAL:
		rc = cli_opt_u64("image", "map-interval", "milliseconds", arg, 1, 3600000, &v);
		c->io.map_interval_ms = (unsigned int)v;
		return rc;
	case OPT_SVG:
		return cli_opt_file("image", "svg", arg, &c->svg.svg);
	case OPT_SVG_EVERY:
		c->svg.every = true;
		return 0;
	case OPT_FORMATTED:
		c->formatted_set = true;
		return cli_opt_formatted("image", arg, &c->io.formatted);
	case OPT_VERIFY_AFTER:
		c->verify_after = true;
		return 0;
	case OPT_RAW:
		c->raw = true;
		return 0;
	case OPT_OFFSET:
		return image_raw_offset(arg, &c->ro);
	case OPT_SUBCHANNEL:
		c->ro.subchannel = true;
		return 0;
	case OPT_SINGLE_FILE:
		c->ro.single_file = true;
		return 0;
	case OPT_DIGEST:
		c->digest_set = true;
		if (parse_digests(arg, &c->io.digests))
			return cli_usage("image", "--digest wants md5, sha256 and/or sha1 (a comma between), or none, not '%s'",
					 arg);
		return 0;
	}
	rc = acqlog_opt(&c->lo, "image", key, arg);
	return rc == 1 ? rui_opt(&c->ui, key, arg) : rc;
}

/* --svg draws the map file: it needs one, and a new FILE unless resuming. */
static int check_svg(struct image_cli *c)
{
	struct stat st;

	if (!c->svg.svg)
		return cli_usage("image", "--svg-every needs --svg FILE");
	if (!c->io.map_path)
		return cli_usage("image", "--svg draws the map: it needs --map MAPFILE");
	if (!strcmp(c->svg.svg, c->io.map_path))
		return cli_usage("image", "--svg FILE and MAPFILE are the same file");
	if (!c->io.force && !lstat(c->svg.svg, &st) && lstat(c->io.map_path, &st))
		return cli_usage("image", "%s exists: add --force to replace it", c->svg.svg);
	c->svg.map = c->io.map_path;
	return cli_check_new_file("image", "the --svg FILE", c->svg.svg);
}

/*
 * The acquisition record: OUT.log (with --raw OUT.cue.log), never OUT,
 * the map or the SVG (it is appended to); the DFXML file likewise.
 */
static int check_log(struct image_cli *c, const char *out, int argc, char **argv)
{
	const char *others[4] = { out };
	char def[4096];
	size_t n = 1;

	if (c->io.map_path)
		others[n++] = c->io.map_path;
	if (c->svg.svg)
		others[n++] = c->svg.svg;
	others[n] = NULL;
	snprintf(def, sizeof(def), "%s.log", out);
	acqlog_begin(&c->log, c->raw ? "image --raw" : "image", &c->lo, def, c->ui.co.json,
		     argc, argv);
	return acqlog_check(&c->log, others);
}

/*
 * "complete" (exit 0), "unreadable" (exit 4), "incomplete" (exit 4: no
 * block is bad, but Form 2 blocks hold what READ(10) cannot give), or
 * "window-limited" (exit 5, whatever else holds: the end search stopped
 * at the --max-extra window, so the disc may hold more than OUT).
 */
static const char *verdict_name(const struct cdt_image_result *r)
{
	if (rui_probe(&r->sum)->notes & CDT_NOTE_WINDOW_LIMIT)
		return "window-limited";
	if (r->sum.bad_blocks)
		return "unreadable";
	return rui_withheld_blocks(r->skipped, r->n_skipped) ? "incomplete" : "complete";
}

/*
 * One entry in the acquisition log for a run that left an image (a run
 * that removed OUT, or never made it, leaves no log either).  Returns the
 * run's status, 3 when the log could not be written.
 */
static int write_log(struct image_cli *c, struct cdt_dev *dev, const char *addr,
		     const char *out, const struct cdt_image_result *res, int err, int status,
		     const struct acqlog_verify *after)
{
	struct acqlog_run run = {
		.addr = addr, .out = out, .map_path = c->io.map_path, .rd = &c->io.rd,
		.digests = c->io.digests, .sum = &res->sum, .image = res, .after = after,
		.status = status,
	};
	struct stat st;

	if (res->removed || status == EX_USAGE_ERR || stat(out, &st))
		return status;
	return acqlog_finish(&c->log, dev, &run, err, verdict_name(res));
}

/* --raw writes OUT.cue and its BIN files: the options of a 2048-byte OUT do not apply. */
static int check_raw(struct image_cli *c, const char *out)
{
	size_t n = strlen(out);

	if (!c->raw && (c->ro.subchannel || c->ro.single_file))
		return cli_usage("image", "%s is part of a raw image: it needs --raw",
				 c->ro.subchannel ? "--subchannel" : "--single-file");
	if (!c->raw)
		return c->ro.offset_set ? cli_usage("image", "--offset corrects audio: it needs --raw") : 0;
	if (c->digest_set || c->formatted_set || c->svg.svg || c->svg.every || c->verify_after)
		return cli_usage("image", "--raw takes --map, --force, --map-interval, --offset, --subchannel, --single-file and the record's options; not --digest, --formatted, --svg or --verify-after");
	if (n < 5 || strcasecmp(out + n - 4, ".cue"))
		return cli_usage("image", "with --raw OUT is the CUE sheet: a name ending in .cue, not '%s'", out);
	return 0;
}

static int parse(struct image_cli *c, struct cli_args *a, int argc, char **argv)
{
	int rc = cli_parse(&cli_cmd_image, argc, argv, &c->ui.co, image_opt, c, a);

	if (rc)
		return rc;
	rc = check_raw(c, a->op[1]);
	if (rc)
		return rc;
	if (c->io.map_path && !strcmp(c->io.map_path, a->op[1]))
		return cli_usage("image", "MAPFILE and OUT are the same file");
	rc = cli_check_new_file("image", "OUT", a->op[1]);
	if (!rc && c->io.map_path)
		rc = cli_check_new_file("image", "MAPFILE", c->io.map_path);
	if (!rc && (c->svg.svg || c->svg.every))
		rc = check_svg(c);
	if (!rc)
		rc = check_log(c, a->op[1], argc, argv);
	return rc;
}

/*
 * interrupted: a run stopped by a signal (exit 130/143) prints this same
 * object with "interrupted": true and verdict "interrupted": what was
 * done so far and where the map is.
 */
static void print_json(const char *addr, const char *out, const struct cdt_image_opts *io,
		       const struct cdt_image_result *r, bool virt, bool interrupted,
		       const struct acqlog_verify *after)
{
	static const char *const src[] = { NULL, "stream", "file" };
	json_object *o = json_object_new_object(), *notes;

	rui_json_summary(o, addr, &r->sum, virt);
	/* what the image covers: --formatted cut ends it before the probe's extent */
	json_object_object_add(o, "extent_blocks", json_object_new_int64((int64_t)r->extent_blocks));
	json_object_object_add(o, "out", json_object_new_string(out));
	json_object_object_add(o, "out_bytes", json_object_new_int64((int64_t)(r->extent_blocks *
								  r->sum.block_size)));
	rui_json_resume(o, io->map_path, r->resumed, r->finished_before, r->identity_blocks);
	json_object_object_add(o, "other_drive", json_object_new_boolean(r->other_drive));
	json_object_object_add(o, "map_grown_from", r->map_grown_from ?
			       json_object_new_int64((int64_t)r->map_grown_from) : NULL);
	json_object_object_add(o, "digest_source",
			       src[r->digest_source] ? json_object_new_string(src[r->digest_source]) : NULL);
	/* SHA-1 only when asked for: the default pair has none */
	if (io->digests != CDT_HASH_NONE && (io->digests & CDT_HASH_SHA1))
		json_object_object_add(o, "sha1", r->sha1[0] ? json_object_new_string(r->sha1) : NULL);
	json_object_object_add(o, "digest_read_back", json_object_new_int64((int64_t)r->digest_read_back));
	json_object_object_add(o, "skipped", rui_json_skipped(r->skipped, r->n_skipped));
	json_object_object_add(o, "skipped_blocks", json_object_new_int64((int64_t)r->skipped_blocks));
	json_object_object_add(o, "form2_blocks",
			       json_object_new_int64((int64_t)rui_form2_blocks(r->skipped, r->n_skipped)));
	json_object_object_add(o, "protected_blocks",
			       json_object_new_int64((int64_t)rui_protected_blocks(r->skipped, r->n_skipped)));
	notes = json_object_new_array();
	cli_json_fs_past_end(o, notes, rui_probe(&r->sum));
	cli_json_agreed_end(o, notes, rui_probe(&r->sum));
	json_object_object_add(o, "notes", notes);
	if (after)
		json_object_object_add(o, "verification", acqrun_verification(after));
	json_object_object_add(o, "verdict", json_object_new_string(interrupted ? "interrupted" :
								    verdict_name(r)));
	if (interrupted)
		json_object_object_add(o, "interrupted", json_object_new_boolean(true));
	cli_json_out(o);
}

/* After unreadable blocks: what was lost, and what to do about it. */
static void print_next(const char *addr, const char *out, const struct cdt_image_opts *io,
		       const struct cdt_image_result *r)
{
	bool digests = r->sum.digests.md5[0] || r->sum.digests.sha256[0];
	char text[4400];

	if (!r->sum.bad_blocks)
		return;
	snprintf(text, sizeof(text), "%s holds zeros there%s", out,
		 digests ? ", and the digests above cover those zeros" : "");
	rui_print_lost(&r->sum, "lost:", text);
	if (!io->map_path) {
		printf("next:      without --map a new run reads the whole disc again; to keep\n"
		       "           what it reads and resume after:\n"
		       "           cdtail image --force --map %s.map %s %s\n", out, addr, out);
		return;
	}
	/* what a plain resume does: the learning plan (retry.c), or in
	 * another drive one more try of every bad block (image.c) */
	printf("next:      run the same command again: on this drive it retries the\n"
	       "           first block of one bad area of each size, and the other areas\n"
	       "           only where that block reads (--retries N: every bad block N\n"
	       "           more times); in another drive every bad block is tried once more:\n"
	       "           cdtail image --map %s NEWDEV %s\n", io->map_path, out);
}

/* The skipped areas' blocks of one kind (audio). */
static uint64_t skipped_of(const struct cdt_image_result *r, enum cdt_skip_why why)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < r->n_skipped; i++)
		if (r->skipped[i].why == why)
			n += r->skipped[i].blocks;
	return n;
}

/*
 * Audio tracks and Mode 2 Form 2 sectors are not 2048-byte data: OUT
 * holds zeros for them (a CD-Extra's or an audio CD's image is mostly
 * zeros, yet complete).  What OUT lacks, and the raw image that has it
 * (issue 35, 7): OUT's name with .cue for its extension.
 */
static void print_raw_next(const char *addr, const char *out, const struct cdt_image_result *r)
{
	uint64_t audio = skipped_of(r, CDT_SKIP_AUDIO);
	uint64_t form2 = rui_form2_blocks(r->skipped, r->n_skipped);
	const char *slash = strrchr(out, '/'), *dot = strrchr(out, '.');
	int base = dot && dot > (slash ? slash : out) ? (int)(dot - out) : (int)strlen(out);
	char text[4400];

	if (!audio && !form2)
		return;
	if (audio && form2)
		snprintf(text, sizeof(text), "%s lacks the audio tracks' %llu blocks and %llu Mode"
			 " 2 Form 2 blocks (zeros in it): a 2048-byte image holds data sectors only",
			 out, (unsigned long long)audio, (unsigned long long)form2);
	else
		snprintf(text, sizeof(text), "%s lacks %s %llu blocks (zeros in it): a 2048-byte"
			 " image holds data sectors only", out, audio ? "the audio tracks'" :
			 "its Mode 2 Form 2 sectors,", (unsigned long long)(audio + form2));
	cli_wrap(stdout, (size_t)printf("note:      "), 11, text);
	if (!rui_probe(&r->sum)->raw.sectors)
		printf("next:      this drive reads no raw sectors (READ CD): image every\n"
		       "           track raw (2352-byte sectors, BIN/CUE) in a drive that does:\n");
	else
		printf("next:      image every track raw (2352-byte sectors, BIN/CUE):\n");
	printf("           cdtail image --raw --map %.*s.raw.map %s %.*s.cue\n", base, out,
	       rui_probe(&r->sum)->raw.sectors ? addr : "NEWDEV", base, out);
}

/* A map without identity grown to the true end (a GNU ddrescue map of /dev/sr0). */
static void print_grown(const struct cdt_image_result *r)
{
	uint64_t from = r->map_grown_from;

	if (!from)
		return;
	printf("grown:     the map covered %llu blocks%s; grown to %llu,\n"
	       "           its finished blocks checked against OUT (%u read the same)\n",
	       (unsigned long long)from,
	       from == rui_probe(&r->sum)->reported_blocks ? " (READ CAPACITY's length)" : "",
	       (unsigned long long)r->extent_blocks, r->identity_blocks);
}

static void print_text(const char *addr, const char *out, const struct cdt_image_opts *io,
		       const struct cdt_image_result *r, bool virt)
{
	char text[4400];

	rui_print_summary(addr, &r->sum, virt);
	if (r->sha1[0])
		printf("sha1:      %s\n", r->sha1);
	printf("image:     %s, %llu blocks (%llu bytes)\n", out,
	       (unsigned long long)r->extent_blocks,
	       (unsigned long long)r->extent_blocks * r->sum.block_size);
	if (r->resumed)
		printf("resumed:   %llu blocks were already finished\n",
		       (unsigned long long)r->finished_before);
	if (r->resumed && r->other_drive && io->rd.retries < 0)
		printf("           in another drive than the map's: its bad blocks were\n"
		       "           tried once more\n");
	snprintf(text, sizeof(text), "zeros in %s", out);
	rui_print_skipped(r->skipped, r->n_skipped, r->skipped_blocks, text);
	snprintf(text, sizeof(text), "%s lacks them (zeros)", out);
	rui_print_withheld(r->skipped, r->n_skipped, text);
	printf("map:       %s\n", io->map_path ? io->map_path : "none (no --map)");
	print_grown(r);
	snprintf(text, sizeof(text), "the files stored past the disc's end are lost: %s holds"
		 " what the disc holds, and no drive reads more", out);
	cli_print_fs_past_end(rui_probe(&r->sum), text);
	print_next(addr, out, io, r);
	print_raw_next(addr, out, r);
	printf("verdict:   %s\n", verdict_name(r));
}

static void make_comment(struct image_cli *c, int argc, char **argv)
{
	size_t used;
	int i;

	used = (size_t)snprintf(c->comment, sizeof(c->comment), "Command line: cdtail");
	for (i = 0; i < argc && used < sizeof(c->comment); i++)
		used += (size_t)snprintf(c->comment + used, sizeof(c->comment) - used,
					 " %s", argv[i]);
	c->io.map_comment = c->comment;
}


/*
 * The library tells, once a run grew OUT, that OUT's filesystem keeps no
 * holes (cdt_image_result.no_holes): said once, on stderr, whatever the
 * run's end, since it explains a slow start and a full disk.
 */
static void warn_no_holes(const struct cdt_image_result *res, const char *out)
{
	if (res->no_holes)
		fprintf(stderr, "cdtail: image: warning: %s is on a filesystem without sparse files (holes; vfat and exFAT have none): it takes its whole size on disk from the start, zeros where nothing was read yet\n",
			out);
}
/*
 * --verify-after: the disc read again and compared with OUT block by
 * block (verify's job: cdt_verify with image_path OUT), the same read
 * options and --formatted, so the record can say a second read gave what
 * the image holds.  Its exit status when it does not: 1 a difference,
 * 3 it failed, 130/143 interrupted; 0 otherwise.
 */
static int verify_after(struct image_cli *c, struct cdt_dev *dev, const char *out)
{
	struct cdt_verify_opts vo = CDT_INIT(vo);

	c->vres = (struct cdt_verify_result)CDT_INIT(c->vres);
	vo.rd = c->io.rd;
	vo.image_path = out;
	vo.formatted = c->io.formatted;
	c->after.ran = true;
	c->after.res = &c->vres;
	c->after.rc = cdt_verify(dev, &vo, &c->vres);
	c->after.error = c->after.rc ? cdt_errmsg(dev) : NULL;
	if (c->after.rc == CDT_EINTR)
		return rui_interrupted_status();
	if (c->after.rc)
		return EX_DEVICE_ERR;
	return c->vres.verdict == CDT_VERIFY_DIFFERENT ? EX_DIFFERENT : 0;
}

/* A finished image: the verification pass if asked, the report, the status. */
static int finished(struct image_cli *c, struct cdt_dev *dev, const char *addr,
		    const char *out, const struct cdt_image_result *res)
{
	int rc = rui_window_status(&res->sum, c->io.rd.max_extra,
				   res->sum.bad_blocks ||
				   rui_withheld_blocks(res->skipped, res->n_skipped) ?
				   EX_UNREADABLE : EX_SAME);
	int vrc = c->verify_after ? verify_after(c, dev, out) : 0;

	rui_end_line(&c->ui);
	warn_no_holes(res, out);
	if (c->ui.co.json) {
		print_json(addr, out, &c->io, res, cdt_is_virtual_time(dev), false,
			   c->verify_after ? &c->after : NULL);
	} else if (c->ui.co.quiet) {
		rui_print_digests(&res->sum);
		if (res->sha1[0])
			printf("sha1:      %s\n", res->sha1);
		printf("verdict:   %s\n", verdict_name(res));
	} else {
		print_text(addr, out, &c->io, res, cdt_is_virtual_time(dev));
	}
	if (c->verify_after && !c->ui.co.json)
		printf("verified:  %s: the disc read again and compared with OUT\n",
		       acqrun_verify_result(&c->after));
	if (c->after.rc && c->after.rc != CDT_EINTR)
		cli_err("--verify-after: %s", c->after.error && c->after.error[0] ?
			c->after.error : cdt_strerror(c->after.rc));
	return vrc ? vrc : rc;
}

static int run(int argc, char **argv)
{
	struct cli_args a;
	struct image_cli c;
	struct cdt_image_result res = CDT_INIT(res);
	struct cdt_dev *dev;
	const char *addr, *out;
	int rc, svg_rc;

	memset(&c, 0, sizeof(c));
	c.io.size = sizeof(c.io);
	rui_init(&c.ui, "image");
	rc = parse(&c, &a, argc, argv);
	if (rc)
		return rc == CLI_HELP_SHOWN ? 0 : rc;
	addr = a.op[0];
	out = a.op[1];
	make_comment(&c, argc, argv);
	rc = cli_open(addr, &c.ui.co, &dev);
	if (rc)
		return rc;
	c.ui.stop_hint = c.io.map_path ? "Ctrl-C stops; the map is saved" :
		"Ctrl-C stops; no --map: no resume";
	rui_start(&c.ui, dev);
	if (c.raw) {
		c.ro.size = sizeof(c.ro);
		c.ro.map_path = c.io.map_path;
		c.ro.map_comment = c.io.map_comment;
		c.ro.force = c.io.force;
		c.ro.map_interval_ms = c.io.map_interval_ms;
		rc = image_raw_run(&c.ui, dev, addr, out, &c.ro, &c.log);
		cdt_close(dev);
		return rc;
	}
	c.io.rd = c.ui.rd;
	acqlog_watch(&c.log, &c.io.rd);
	if (c.svg.svg)
		mapdraw_watch(&c.svg, &c.io.rd);
	rc = cdt_image(dev, out, &c.io, &res);
	svg_rc = c.svg.svg ? mapdraw_watch_end(&c.svg) : 0;
	if (rc) {
		int err = rc;

		rc = rui_fail(&c.ui, dev, "image", rc);
		warn_no_holes(&res, out);
		if (err == CDT_EINTR && c.ui.co.json)
			print_json(addr, out, &c.io, &res, cdt_is_virtual_time(dev), true, NULL);
		if (res.removed)
			cli_err("nothing was read: %s%s%s removed", out,
				c.io.map_path ? " and " : "", c.io.map_path ? c.io.map_path : "");
		else if (res.map_saved)	/* the library says so (issue 31) */
			cli_err("the map %s is saved: run the same command again to resume",
				c.io.map_path);
		else if (!c.io.map_path && res.extent_blocks && err != CDT_EUSAGE &&
			 rc != EX_USAGE_ERR)
			cli_err("%s is incomplete: it holds %" PRIu64 " of %" PRIu64
				" blocks (no --map: a new run starts over)", out,
				res.out_blocks, res.extent_blocks);
		rc = write_log(&c, dev, addr, out, &res, err, rc, NULL);
	} else {
		rc = finished(&c, dev, addr, out, &res);
		/* the image is good, but an output file asked for is not */
		if (svg_rc && rc < EX_DEVICE_ERR)
			rc = EX_DEVICE_ERR;
		rc = write_log(&c, dev, addr, out, &res, 0, rc, c.verify_after ? &c.after : NULL);
		cdt_verify_result_free(&c.vres);
	}
	cdt_image_result_free(&res);
	cdt_close(dev);
	return rc;
}

static const struct cli_opt image_opts[] = {
	{ "map", OPT_MAP, "MAPFILE", "keep progress in a GNU ddrescue mapfile; run again to resume" },
	{ "force", OPT_FORCE, NULL, "overwrite an existing OUT (without its map)" },
	{ "map-interval", OPT_MAP_INTERVAL, "MS", "save the map at least every MS ms (default 5000)" },
	{ "digest", OPT_DIGEST, "LIST", "md5,sha256 (default), any of md5, sha256, sha1, or none: digests of OUT and its tracks" },
	{ "formatted", OPT_FORMATTED, "HOW", CLI_FORMATTED_HELP },
	{ "svg", OPT_SVG, "FILE", "draw the map as SVG into FILE at the end (as cdtail map --svg)" },
	{ "svg-every", OPT_SVG_EVERY, NULL, "with --svg: redraw FILE at each map save, to watch in a browser" },
	{ "log", ACQ_K_LOG, "FILE", "append the acquisition record to FILE (default: OUT.log)" },
	{ "no-log", ACQ_K_NO_LOG, NULL, "write no acquisition record" },
	ACQLOG_OPTS_CASE,
	{ "verify-after", OPT_VERIFY_AFTER, NULL, "read the disc again after the run and compare it with OUT" },
	{ "raw", OPT_RAW, NULL, "every sector raw (2352 bytes, READ CD): OUT.cue and a BIN file per track" },
	{ "offset", OPT_OFFSET, "SAMPLES", "with --raw: the drive's read offset; audio shifted by whole samples" },
	{ "subchannel", OPT_SUBCHANNEL, NULL, "with --raw: also OUT.sub, the P-W subchannel of every sector (CloneCD's layout)" },
	{ "single-file", OPT_SINGLE_FILE, NULL, "with --raw: one BIN for the whole disc and a one-FILE sheet" },
	RUI_OPTS,
	CLI_OPTS_COMMON
};

const struct cli_cmd cli_cmd_image = {
	.name = "image",
	.operands = "DEV OUT",
	.about = "image the whole disc, hidden tail included\n"
		 "\n"
		 "Find the true end as probe does and write every block up to it to OUT.\n"
		 "With --map, progress is kept in a GNU ddrescue mapfile and a second run\n"
		 "with the same map reads only what is not finished yet.  With --raw,\n"
		 "OUT is a CUE sheet and every track is read raw into its own BIN file,\n"
		 "audio and Mode 2 included, each data sector's EDC/ECC checked.\n",
	.exits = "Exit: 0 every block read, 4 finished with unreadable blocks, 5 the\n"
		 "end search stopped at the --max-extra window (the map records it: run\n"
		 "again with a larger --max-extra), 1 --verify-after found a difference,\n"
		 "2 usage error, 3 device error, 130/143 interrupted (the map is saved).\n",
	.opts = image_opts,
	.min_operands = 2,
	.max_operands = 2,
	.run = run,
};
