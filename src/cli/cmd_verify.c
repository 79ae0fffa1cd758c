// SPDX-License-Identifier: MIT
/* cdtail verify: is the disc, to its true end, this image or digest? */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "acqlog.h"
#include "readui.h"
#include "sumfile.h"

#define OPT_IMAGE 0x1301
#define OPT_SHA256 0x1302
#define OPT_MD5 0x1303
#define OPT_ALL 0x1304
#define OPT_FORMATTED 0x1305
#define OPT_SHA256_FILE 0x1306
#define OPT_MD5_FILE 0x1307
#define OPT_NAME 0x1308
#define OPT_LENGTH 0x1309
#define OPT_CUE 0x130a
#define OPT_CUE_PATHS 0x130b

static const char *const verdict_names[] = {
	[CDT_VERIFY_IDENTICAL] = "identical",
	[CDT_VERIFY_DIFFERENT] = "different",
	[CDT_VERIFY_UNREADABLE] = "unreadable",
	[CDT_VERIFY_PREFIX] = "prefix",
	[CDT_VERIFY_INCOMPLETE] = "incomplete",
};

static bool is_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return i == len;
}

/* -v: the 16-byte rows of the first differing block that differ. */
static void hex_diff(void *ctx, uint64_t lba, const uint8_t *disc,
		     const uint8_t *image, uint32_t bs)
{
	uint32_t off, i, rows = 0;

	(void)ctx;
	fprintf(stderr, "cdtail: first difference at LBA %llu (offset: disc | image)\n",
		(unsigned long long)lba);
	for (off = 0; off < bs && rows < 32; off += 16) {
		if (!memcmp(disc + off, image + off, 16))
			continue;
		rows++;
		fprintf(stderr, "%04x:", off);
		for (i = 0; i < 16; i++)
			fprintf(stderr, " %02x", disc[off + i]);
		fputs(" |", stderr);
		for (i = 0; i < 16; i++)
			fprintf(stderr, " %02x", image[off + i]);
		fputc('\n', stderr);
	}
}

struct verify_cli {
	struct rui ui;
	struct cdt_verify_opts vo;
	char sha256[65], md5[33];	/* the digest given, as hex */
	const char *sha256_file, *md5_file, *name;
	char entry[SUM_NAME_MAX];	/* the checksum file's entry used */
	bool cue_paths;		/* --cue-paths given */
	struct acqlog_opts lo;	/* --log FILE, --dfxml, case fields */
	struct acqlog log;
};

/*
 * A checksum line's digest, when it is one of digits hex digits: a GNU
 * line's, or a --tag line's of the algorithm those digits make (sha256
 * or md5).  0 with e filled, -1 otherwise.
 */
static int sum_entry(const char *line, size_t len, size_t digits, struct sum_line *e)
{
	if (sum_parse_line(line, len, e) != SUM_ENTRY || strlen(e->hex) != digits)
		return -1;
	return e->algo[0] && !sum_algo_is(e->algo, digits) ? -1 : 0;
}

/*
 * A digest as people paste it: the hex alone, or a line of a checksum
 * file in any of its forms (sumfile.h).  0 with out filled (lower-case),
 * -1 when it holds no digest of the length.
 */
static int digest_word(const char *arg, size_t digits, char *out)
{
	struct sum_line e;
	size_t n;

	arg += strspn(arg, " \t");
	n = strcspn(arg, " \t\r\n");
	if (n == digits) {
		memcpy(out, arg, n);
		out[n] = '\0';
		if (is_hex(out, digits)) {
			for (n = 0; n < digits; n++)
				out[n] = (char)tolower((unsigned char)out[n]);
			return 0;
		}
	}
	if (sum_entry(arg, strlen(arg), digits, &e))
		return -1;
	memcpy(out, e.hex, digits + 1);
	return 0;
}

static const char *last_part(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* the entry's name and NAME are the same file name, or end in the same one */
static bool same_name(const char *entry, const char *want)
{
	return !strcmp(entry, want) || !strcmp(last_part(entry), last_part(want));
}

/*
 * --sha256-file F / --md5-file F: a checksum file in any form sha256sum
 * and md5sum write (GNU, -b, --tag, escaped names; comments, blank lines
 * and other lines, such as a signed CHECKSUM file's armour, passed over);
 * the entry --name names (its path or its last component), or the only
 * one.  A --tag line of another algorithm is not an entry.
 */
static int digest_file(struct verify_cli *c, const char *opt, const char *path,
		       size_t digits, char *out)
{
	unsigned int found = 0, lines = 0;
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	struct sum_line e;
	ssize_t n;

	if (!f)
		return cli_usage("verify", "--%s: cannot read %s: %s", opt, path, strerror(errno));
	while ((n = getline(&line, &cap, f)) >= 0) {
		if (sum_entry(line, (size_t)n, digits, &e))
			continue;
		lines++;
		if (c->name && !same_name(e.name, c->name))
			continue;
		if (!found++) {
			memcpy(out, e.hex, digits + 1);
			snprintf(c->entry, sizeof(c->entry), "%s", e.name);
		}
	}
	free(line);
	fclose(f);
	if (found == 1)
		return 0;
	if (found > 1)
		return cli_usage("verify", "--%s: %s has %u entries%s%s: say which with --name",
				 opt, path, found, c->name ? " named " : "", c->name ? c->name : "");
	if (c->name)
		return cli_usage("verify", "--%s: no entry for '%s' in %s", opt, c->name, path);
	return cli_usage("verify", "--%s: no %zu-digit digest in %s%s", opt, digits, path,
			 lines ? "" : " (not a checksum file?)");
}

/*
 * --length BLOCKS, or BYTES with a B after them (an ISO's size as stat
 * -c%s gives it): whether BYTES are whole blocks the library tells once
 * the drive's block size is known.
 */
static int parse_length(const char *arg, struct cdt_verify_opts *vo)
{
	size_t n = strlen(arg);
	char num[32];

	if (n && n < sizeof(num) && arg[n - 1] == 'B') {
		memcpy(num, arg, n - 1);
		num[n - 1] = '\0';
		if (!cli_parse_u64(num, &vo->length_bytes) && vo->length_bytes)
			return 0;
		vo->length_bytes = 0;
	} else if (!cli_parse_u64(arg, &vo->length_blocks) && vo->length_blocks) {
		return 0;
	}
	vo->length_blocks = 0;
	return cli_usage("verify", "--length wants BLOCKS, or BYTES followed by B"
			 " ($(stat -c%%s FILE)B), not '%s'", arg);
}

static int verify_opt(void *ctx, int key, const char *arg)
{
	struct verify_cli *c = ctx;
	int rc;

	switch (key) {
	case OPT_IMAGE:
		c->vo.image_path = arg;
		return 0;
	case OPT_CUE:
		c->vo.cue_path = arg;
		return 0;
	case OPT_CUE_PATHS:
		/* inside (the default): a sheet from elsewhere opens no file it likes */
		if (strcmp(arg, "inside") && strcmp(arg, "any"))
			return cli_usage("verify", "--cue-paths wants any or inside, not '%s'", arg);
		c->vo.cue_paths_any = !strcmp(arg, "any");
		c->cue_paths = true;
		return 0;
	case OPT_SHA256:
		if (digest_word(arg, 64, c->sha256))
			return cli_usage("verify", "--sha256 wants 64 hex digits (or a sha256sum"
					 " line), not '%s'", arg);
		c->vo.sha256 = c->sha256;
		return 0;
	case OPT_MD5:
		if (digest_word(arg, 32, c->md5))
			return cli_usage("verify", "--md5 wants 32 hex digits (or an md5sum"
					 " line), not '%s'", arg);
		c->vo.md5 = c->md5;
		return 0;
	case OPT_SHA256_FILE:
		return cli_opt_file("verify", "sha256-file", arg, &c->sha256_file);
	case OPT_MD5_FILE:
		return cli_opt_file("verify", "md5-file", arg, &c->md5_file);
	case OPT_NAME:
		c->name = arg;
		return 0;
	case OPT_LENGTH:
		return parse_length(arg, &c->vo);
	case OPT_ALL:
		c->vo.all = true;
		return 0;
	case OPT_FORMATTED:
		return cli_opt_formatted("verify", arg, &c->vo.formatted);
	}
	rc = key == ACQ_K_NO_LOG ? 1 : acqlog_opt(&c->lo, "verify", key, arg);
	return rc == 1 ? rui_opt(&c->ui, key, arg) : rc;
}

/* verify changes nothing: its record is written only where --log says. */
static int check_log(struct verify_cli *c, int argc, char **argv)
{
	const char *others[4];
	size_t n = 0;

	if (c->vo.image_path)
		others[n++] = c->vo.image_path;
	if (c->vo.cue_path)
		others[n++] = c->vo.cue_path;
	others[n] = NULL;
	acqlog_begin(&c->log, "verify", &c->lo, NULL, c->ui.co.json, argc, argv);
	return acqlog_check(&c->log, others);
}

/* The record of a run that got as far as the probe; 3 when it could not be written. */
static int write_log(struct verify_cli *c, struct cdt_dev *dev, const char *addr,
		     const struct cdt_verify_result *res, int err, int status)
{
	struct acqlog_run run = {
		.addr = addr, .out = c->vo.image_path ? c->vo.image_path : c->vo.cue_path,
		.rd = &c->vo.rd, .sum = &res->sum, .verify = res, .status = status,
	};

	if (status == EX_USAGE_ERR || !res->sum.probe)
		return status;
	return acqlog_finish(&c->log, dev, &run, err, verdict_names[res->verdict]);
}

static int parse(struct verify_cli *c, struct cli_args *a, int argc, char **argv)
{
	const struct cdt_verify_opts *vo = &c->vo;
	int rc = cli_parse(&cli_cmd_verify, argc, argv, &c->ui.co, verify_opt, c, a);

	if (rc)
		return rc;
	if (!!vo->image_path + !!vo->sha256 + !!vo->md5 + !!c->sha256_file + !!c->md5_file +
	    !!vo->cue_path != 1)
		return cli_usage("verify", "give exactly one of --image, --cue, --sha256, --md5,"
				 " --sha256-file, --md5-file");
	if (vo->cue_path && (vo->length_blocks || vo->formatted))
		return cli_usage("verify", "--length and --formatted do not go with --cue");
	if (c->cue_paths && !vo->cue_path)
		return cli_usage("verify", "--cue-paths goes with --cue");
	if (c->name && !c->sha256_file && !c->md5_file)
		return cli_usage("verify", "--name goes with --sha256-file or --md5-file");
	if (c->sha256_file) {
		rc = digest_file(c, "sha256-file", c->sha256_file, 64, c->sha256);
		c->vo.sha256 = c->sha256;
	} else if (c->md5_file) {
		rc = digest_file(c, "md5-file", c->md5_file, 32, c->md5);
		c->vo.md5 = c->md5;
	}
	if (!rc)
		rc = check_log(c, argc, argv);
	return rc;
}

static const char *mode_name(const struct cdt_verify_opts *vo)
{
	return vo->image_path ? "image" : vo->cue_path ? "cue" : vo->sha256 ? "sha256" : "md5";
}

/* --cue: per track of the sheet, what was compared and the first difference. */
static json_object *cue_tracks_json(const struct cdt_verify_result *r)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < r->n_tracks; i++) {
		const struct cdt_cue_track *t = &r->tracks[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "number", json_object_new_int((int)t->number));
		json_object_object_add(o, "file", json_object_new_string(t->file));
		json_object_object_add(o, "first_lba", json_object_new_int64(t->first_lba));
		json_object_object_add(o, "sectors", json_object_new_int64((int64_t)t->sectors));
		json_object_object_add(o, "compared", json_object_new_int64((int64_t)t->compared));
		json_object_object_add(o, "length_differs", json_object_new_boolean(t->length_differs));
		json_object_object_add(o, "diff_sectors", json_object_new_int64((int64_t)t->diff_sectors));
		json_object_object_add(o, "first_diff_lba", t->diff_sectors ?
				       json_object_new_int64(t->first_diff_lba) : NULL);
		json_object_object_add(o, "first_diff_sector", t->diff_sectors ?
				       json_object_new_int64((int64_t)t->first_diff_sector) : NULL);
		json_object_object_add(o, "bad_sectors", json_object_new_int64((int64_t)t->bad_sectors));
		if (r->sub_file) {
			json_object_object_add(o, "sub_diff_sectors",
					       json_object_new_int64((int64_t)r->sub_diff_sectors[i]));
			json_object_object_add(o, "sub_first_diff_lba", r->sub_diff_sectors[i] ?
					       json_object_new_int64(r->sub_first_diff_lba[i]) : NULL);
		}
		json_object_array_add(a, o);
	}
	return a;
}

/* --cue with OUT.sub beside the sheet: {"file", "checked", "length_differs"}, else null. */
static json_object *cue_sub_json(const struct cdt_verify_result *r)
{
	json_object *o;

	if (!r->sub_file)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "file", json_object_new_string(r->sub_file));
	json_object_object_add(o, "checked", json_object_new_boolean(r->sub_checked));
	json_object_object_add(o, "length_differs", json_object_new_boolean(r->sub_length_differs));
	return o;
}

/* --cue: OUT.sub, where the sheet has one beside it. */
static void print_cue_sub(const struct cdt_verify_result *r)
{
	uint64_t n = 0;
	size_t i;

	if (!r->sub_file)
		return;
	for (i = 0; i < r->n_tracks; i++)
		n += r->sub_diff_sectors[i];
	if (!r->sub_checked)
		printf("subchannel: %s not compared: the drive gives no raw P-W\n", r->sub_file);
	else
		printf("subchannel: %s, %llu sector%s whose P-W differs%s\n", r->sub_file,
		       (unsigned long long)n, n == 1 ? "" : "s",
		       r->sub_length_differs ? "; not 96 bytes a sector of the sheet's files" : "");
}

/* --cue: a line per track. */
static void print_cue_tracks(const struct cdt_verify_result *r)
{
	size_t i;

	for (i = 0; i < r->n_tracks; i++) {
		const struct cdt_cue_track *t = &r->tracks[i];

		printf("track %2u:  %s, %llu sectors from LBA %lld: ", t->number, t->file,
		       (unsigned long long)t->sectors, (long long)t->first_lba);
		if (t->diff_sectors)
			printf("differs, first at sector %llu (LBA %lld)",
			       (unsigned long long)t->first_diff_sector,
			       (long long)t->first_diff_lba);
		else if (t->bad_sectors)
			printf("%llu unreadable", (unsigned long long)t->bad_sectors);
		else if (!t->length_differs)
			fputs("identical", stdout);
		if (t->length_differs)
			printf("%snot the disc's length", t->diff_sectors || t->bad_sectors ?
			       "; " : "");
		putchar('\n');
	}
}

static json_object *lengths_json(const struct cdt_verify_result *r)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < r->n_lengths; i++)
		json_object_array_add(a, json_object_new_int64((int64_t)r->lengths[i]));
	return a;
}

/* With a digest: the lengths it was checked at, and the one that matched. */
static void print_lengths(const struct cdt_verify_result *r)
{
	size_t i;

	if (r->n_lengths < 2 && r->matched_blocks == r->extent_blocks)
		return;
	fputs("lengths:   tried", stdout);
	for (i = 0; i < r->n_lengths; i++)
		printf("%s %llu", i ? "," : "", (unsigned long long)r->lengths[i]);
	if (r->matched_blocks)
		printf(" blocks; the digest is the first %llu blocks'\n",
		       (unsigned long long)r->matched_blocks);
	else
		fputs(" blocks; none matched\n", stdout);
}

/*
 * interrupted: a run stopped by a signal (exit 130/143) prints this same
 * object with "interrupted": true and verdict "interrupted", as image
 * does: what was compared so far.
 */
/*
 * The filesystem fits: within the true end, or its last block read past a
 * window-limited end (issue 35, 6: its files are on the disc).
 */
static bool fs_fits(const struct cdt_verify_result *r)
{
	return r->fs_fits > 0 || cli_fs_end_read(rui_probe(&r->sum));
}

static void print_json(const char *addr, const struct cdt_verify_opts *vo,
		       const struct cdt_verify_result *r, bool virt, bool interrupted)
{
	json_object *o = json_object_new_object();

	json_object *fs, *notes;

	rui_json_summary(o, addr, &r->sum, virt);
	/* what was verified: --formatted cut ends it before the probe's extent */
	json_object_object_add(o, "extent_blocks", json_object_new_int64((int64_t)r->extent_blocks));
	json_object_object_add(o, "mode", json_object_new_string(mode_name(vo)));
	json_object_object_add(o, "image", vo->image_path ? json_object_new_string(vo->image_path) : NULL);
	if (vo->cue_path) {
		json_object_object_add(o, "cue", json_object_new_string(vo->cue_path));
		json_object_object_add(o, "tracks", cue_tracks_json(r));
		json_object_object_add(o, "subchannel", cue_sub_json(r));
	}
	json_object_object_add(o, "expected", vo->image_path || vo->cue_path ? NULL :
			       json_object_new_string(vo->sha256 ? vo->sha256 : vo->md5));
	json_object_object_add(o, "image_bytes", vo->image_path ?
			       json_object_new_int64((int64_t)r->image_bytes) : NULL);
	json_object_object_add(o, "length_differs", json_object_new_boolean(r->length_differs));
	json_object_object_add(o, "first_diff_lba", r->have_diff ?
			       json_object_new_int64((int64_t)r->first_diff_lba) : NULL);
	json_object_object_add(o, "diff_count", json_object_new_int64((int64_t)r->diff_blocks));
	json_object_object_add(o, "diff_blocks", rui_json_ranges(r->diffs, r->n_diffs));
	json_object_object_add(o, "complete", json_object_new_boolean(r->complete));
	json_object_object_add(o, "skipped", rui_json_skipped(r->skipped, r->n_skipped));
	json_object_object_add(o, "skipped_blocks", json_object_new_int64((int64_t)r->skipped_blocks));
	json_object_object_add(o, "form2_blocks",
			       json_object_new_int64((int64_t)rui_form2_blocks(r->skipped, r->n_skipped)));
	json_object_object_add(o, "protected_blocks",
			       json_object_new_int64((int64_t)rui_protected_blocks(r->skipped, r->n_skipped)));
	/* the shared filesystem object, and whether it fits within the true end */
	if (json_object_object_get_ex(o, "filesystem", &fs))
		json_object_object_add(fs, "fits", r->fs_fits < 0 ? NULL :
				       json_object_new_boolean(fs_fits(r)));
	json_object_object_add(o, "lengths_tried", vo->image_path || vo->cue_path ? NULL :
			       lengths_json(r));
	json_object_object_add(o, "matched_blocks", vo->image_path || vo->cue_path ||
			       !r->matched_blocks ? NULL :
			       json_object_new_int64((int64_t)r->matched_blocks));
	/* the digest compared, of matched_blocks; md5 and sha256 are the whole disc's */
	json_object_object_add(o, "compared_digest", vo->image_path || vo->cue_path ||
			       !r->matched_blocks ? NULL :
			       json_object_new_string(vo->sha256 ? vo->sha256 : vo->md5));
	json_object_object_add(o, "padding_blocks", vo->image_path ?
			       json_object_new_int64((int64_t)r->padding_blocks) : NULL);
	notes = json_object_new_array();
	if (r->padding_blocks && r->verdict != CDT_VERIFY_PREFIX)
		json_object_array_add(notes, json_object_new_string("padding"));
	json_object_object_add(o, "notes", notes);
	json_object_object_add(o, "verdict", json_object_new_string(interrupted ? "interrupted" :
								    verdict_names[r->verdict]));
	if (interrupted)
		json_object_object_add(o, "interrupted", json_object_new_boolean(true));
	cli_json_out(o);
}

static void print_fs(const struct cdt_verify_result *r)
{
	const struct cdt_sizes *s = &rui_probe(&r->sum)->sizes;

	if (r->fs_fits < 0) {
		printf("filesystem: no ISO 9660 / UDF size found\n");
		return;
	}
	printf("filesystem: %s declares %lld blocks: %s\n", s->fs_type,
	       (long long)s->filesystem, cli_fs_end_read(rui_probe(&r->sum)) ?
	       "its last block reads, past the window" : fs_fits(r) ?
	       "fits within the true end" : "does NOT fit within the true end");
}

/* Where the first difference is, and why: a block, or where a length ends. */
static void print_diff(const struct cdt_verify_opts *vo, const struct cdt_verify_result *r)
{
	uint64_t bs = r->sum.block_size, lba = r->first_diff_lba;

	if (!r->have_diff)
		return;
	printf("differs:   first at LBA %llu", (unsigned long long)lba);
	if (r->length_differs && bs && lba == r->image_bytes / bs)
		printf(", where %s ends", vo->image_path);
	else if (r->length_differs && lba == r->extent_blocks)
		fputs(", where the disc ends", stdout);
	if (vo->all)
		printf("; %llu differing block%s in all", (unsigned long long)r->diff_blocks,
		       r->diff_blocks == 1 ? "" : "s");
	else
		fputs(" (the run stopped there; --all reads on and finds every one)", stdout);
	putchar('\n');
}

/*
 * FILE shorter than the disc (a burned ISO): what follows it.  Padding is
 * what a burn adds (wodim -pad, mkisofs padding, a TAO run-out, a DVD's
 * ECC block, unwritten formatted space): FILE is on the disc intact.
 */
static void print_burn(const char *addr, const struct cdt_verify_opts *vo,
		       const struct cdt_verify_result *r)
{
	uint64_t bs = r->sum.block_size, file_blocks = bs ? r->image_bytes / bs : 0;
	const char *file = vo->image_path;
	char text[4400];

	if (!file)
		return;
	if (r->verdict == CDT_VERIFY_PREFIX) {
		snprintf(text, sizeof(text), "%s is the disc's first %llu blocks; the disc holds"
			 " data past it (from LBA %llu)", file, (unsigned long long)file_blocks,
			 (unsigned long long)r->first_diff_lba);
		cli_wrap(stdout, (size_t)printf("prefix:    "), 11, text);
		if (file_blocks == rui_probe(&r->sum)->reported_blocks)
			printf("next:      it stops at the reported length (a dd copy): append\n"
			       "           the rest with: cdtail tail %s %s\n", addr, file);
		return;
	}
	if (r->padding_blocks && r->verdict != CDT_VERIFY_DIFFERENT) {
		snprintf(text, sizeof(text), "padding: the %llu block%s past %s %s zeros, run-out"
			 " or unwritten space, as a burn pads: %s is on the disc intact",
			 (unsigned long long)r->padding_blocks, r->padding_blocks == 1 ? "" : "s",
			 file, r->padding_blocks == 1 ? "is" : "are", file);
		cli_wrap(stdout, (size_t)printf("note:      "), 11, text);
	}
}

/* A digest verified at a length shorter than the disc (a padded burn). */
static bool digest_apart(const struct cdt_verify_opts *vo, const struct cdt_verify_result *r)
{
	return !vo->image_path && !vo->cue_path && r->matched_blocks &&
	       r->matched_blocks != r->extent_blocks;
}

/*
 * "expected:  ALGO HEX (STATE)", where it fits 80 columns (md5); a
 * SHA-256 digest goes on a line of its own below the state.  From a
 * checksum file, the file and its entry.
 */
static void print_expected(const struct verify_cli *c, const struct cdt_verify_result *r)
{
	const struct cdt_verify_opts *vo = &c->vo;
	const char *hex = vo->sha256 ? vo->sha256 : vo->md5;
	const char *file = c->sha256_file ? c->sha256_file : c->md5_file;
	const char *state = r->verdict == CDT_VERIFY_DIFFERENT ? "the disc's does not match" :
			    r->verdict != CDT_VERIFY_IDENTICAL ? "not all blocks read" :
			    digest_apart(vo, r) ? "matches a shorter length" : "matches";
	char text[SUM_NAME_MAX + 300];

	if (strlen(hex) + strlen(state) + 20 <= CLI_COLUMNS)
		printf("expected:  %s %s (%s)\n", mode_name(vo), hex, state);
	else
		printf("expected:  %s (%s)\n           %s\n", mode_name(vo), state, hex);
	if (!file)
		return;
	snprintf(text, sizeof(text), "the entry for %s in %s", c->entry, file);
	cli_wrap(stdout, (size_t)printf("from:      "), 11, text);
}

/*
 * A padded burn verified by its digest: the digest compared is that of
 * the length that matched (the expected one), printed with that length;
 * the disc's whole digests, which the summary prints otherwise, come
 * apart and labelled.
 */
static void print_apart(const struct cdt_verify_opts *vo, const struct cdt_verify_result *r)
{
	uint64_t bs = r->sum.block_size;

	printf("compared:  the disc's first %llu blocks (%llu bytes): their %s is the\n"
	       "           one expected, above\n", (unsigned long long)r->matched_blocks,
	       (unsigned long long)(r->matched_blocks * bs), mode_name(vo));
	printf("disc:      all %llu blocks (%llu bytes), longer than compared:\n",
	       (unsigned long long)r->extent_blocks, (unsigned long long)(r->extent_blocks * bs));
	if (r->sum.digests.md5[0])
		printf("disc md5:     %s\n", r->sum.digests.md5);
	if (r->sum.digests.sha256[0])
		printf("disc sha256:  %s\n", r->sum.digests.sha256);
}

static void print_text(const struct verify_cli *c, const char *addr,
		       const struct cdt_verify_result *r, bool virt)
{
	const struct cdt_verify_opts *vo = &c->vo;
	struct cdt_read_summary sum = r->sum;

	/* the whole disc's digests are not the ones compared: print_apart */
	if (digest_apart(vo, r))
		memset(&sum.digests, 0, sizeof(sum.digests));
	rui_print_summary(addr, &sum, virt);
	if (vo->image_path)
		printf("image:     %s, %llu bytes%s\n", vo->image_path,
		       (unsigned long long)r->image_bytes,
		       r->length_differs ? " (not the length of the disc)" : "");
	else if (vo->cue_path)
		printf("cue:       %s, %zu track%s compared raw\n", vo->cue_path, r->n_tracks,
		       r->n_tracks == 1 ? "" : "s");
	else
		print_expected(c, r);
	if (digest_apart(vo, r))
		print_apart(vo, r);
	print_burn(addr, vo, r);
	print_cue_tracks(r);
	print_cue_sub(r);
	if (!vo->image_path && !vo->cue_path && r->complete)
		print_lengths(r);
	if (r->verdict != CDT_VERIFY_PREFIX && !vo->cue_path)
		print_diff(vo, r);
	if (r->n_diffs > 1)
		rui_print_ranges("ranges:", r->diffs, r->n_diffs);
	rui_print_skipped(r->skipped, r->n_skipped, r->skipped_blocks,
			  vo->image_path ? "not compared, zeros in the digests" : "zeros in the digests");
	rui_print_withheld(r->skipped, r->n_skipped, "not compared");
	rui_print_lost(&r->sum, "unread:", "not compared; the digests count them as zeros");
	if (!vo->cue_path)
		print_fs(r);
	printf("verdict:   %s\n", verdict_names[r->verdict]);
}

static const int verdict_status[] = {
	[CDT_VERIFY_IDENTICAL] = EX_SAME,
	[CDT_VERIFY_DIFFERENT] = EX_DIFFERENT,
	[CDT_VERIFY_UNREADABLE] = EX_UNREADABLE,
	[CDT_VERIFY_PREFIX] = EX_DIFFERENT,
	/* Form 2 blocks: never identical, READ(10) gave no word of them */
	[CDT_VERIFY_INCOMPLETE] = EX_UNREADABLE,
};

static int run(int argc, char **argv)
{
	struct cdt_verify_result res = CDT_INIT(res);
	struct verify_cli c;
	struct cli_args a;
	struct cdt_dev *dev;
	int rc, err;

	memset(&c, 0, sizeof(c));
	c.vo.size = sizeof(c.vo);
	rui_init(&c.ui, "verify");
	rc = parse(&c, &a, argc, argv);
	if (rc)
		return rc == CLI_HELP_SHOWN ? 0 : rc;
	rc = cli_open(a.op[0], &c.ui.co, &dev);
	if (rc)
		return rc;
	c.ui.stop_hint = "Ctrl-C stops";
	rui_start(&c.ui, dev);
	c.vo.rd = c.ui.rd;
	acqlog_watch(&c.log, &c.vo.rd);
	if (c.ui.co.verbose)
		c.vo.diff = hex_diff;
	err = rc = cdt_verify(dev, &c.vo, &res);
	if (rc) {
		int err = rc;

		rc = rui_fail(&c.ui, dev, "verify", rc);
		if (err == CDT_EINTR && c.ui.co.json)
			print_json(a.op[0], &c.vo, &res, cdt_is_virtual_time(dev), true);
	} else {
		rui_end_line(&c.ui);
		if (c.ui.co.json)
			print_json(a.op[0], &c.vo, &res, cdt_is_virtual_time(dev), false);
		else if (c.ui.co.quiet)
			printf("verdict:   %s\n", verdict_names[res.verdict]);
		else
			print_text(&c, a.op[0], &res, cdt_is_virtual_time(dev));
		rc = rui_window_status(&res.sum, c.ui.rd.max_extra, verdict_status[res.verdict]);
	}
	rc = write_log(&c, dev, a.op[0], &res, err, rc);
	cdt_verify_result_free(&res);
	cdt_close(dev);
	return rc;
}

static const struct cli_opt verify_opts[] = {
	{ "image", OPT_IMAGE, "FILE", "compare with FILE, stopping at the first differing block" },
	{ "cue", OPT_CUE, "FILE", "compare raw, track by track, with the .bin files the CUE sheet FILE names" },
	{ "cue-paths", OPT_CUE_PATHS, "WHERE", "with --cue: inside (the default: a FILE outside the "
	  "sheet's folder, absolute or with .., is refused) or any" },
	{ "sha256", OPT_SHA256, "HEX", "compare with this SHA-256 digest (64 hex digits, "
	  "or a sha256sum line)" },
	{ "md5", OPT_MD5, "HEX", "compare with this MD5 digest (32 hex digits)" },
	{ "sha256-file", OPT_SHA256_FILE, "F", "compare with the SHA-256 in sha256sum's file F" },
	{ "md5-file", OPT_MD5_FILE, "F", "compare with the MD5 in md5sum's file F" },
	{ "length", OPT_LENGTH, "N[B]", "with a digest: also try the first N blocks (NB: bytes)" },
	{ "name", OPT_NAME, "NAME", "with --sha256-file/--md5-file: the entry for NAME "
	  "(without it: the only one)" },
	{ "all", OPT_ALL, NULL, "with --image, read on past differences and list them all" },
	{ "formatted", OPT_FORMATTED, "HOW", CLI_FORMATTED_HELP },
	{ "log", ACQ_K_LOG, "FILE", "append the run's record to FILE (verify writes none without it)" },
	ACQLOG_OPTS_CASE,
	RUI_OPTS_VERIFY,
	CLI_OPTS_COMMON
};

const struct cli_cmd cli_cmd_verify = {
	.name = "verify",
	.operands = "DEV (--image FILE |\n"
		    "       --cue FILE.cue [--cue-paths WHERE] |\n"
		    "       --sha256 HEX | --md5 HEX | --sha256-file F |\n"
		    "       --md5-file F [--name NAME])",
	.about = "compare the disc with an image or a digest\n"
		 "\n"
		 "Read the whole disc to its true end and compare it with FILE or a\n"
		 "digest; -v also shows a hex diff of the first differing block.  Audio,\n"
		 "gaps and run-outs are never read: zeros in the digests, as image\n"
		 "writes them, and not compared with FILE; --formatted says what the\n"
		 "unwritten rest of a formatted medium is, as for image.  Also says\n"
		 "whether the filesystem's declared size fits.  --cue reads the disc raw\n"
		 "(READ CD) and compares each track with its .bin file, reporting the\n"
		 "first differing sector per track.\n",
	.exits = "Exit: 0 identical, 1 different, 4 unreadable blocks, 5 the end search\n"
		 "stopped at the --max-extra window, 2 usage error, 3 device error,\n"
		 "130/143 interrupted.\n",
	.opts = verify_opts,
	.min_operands = 1,
	.max_operands = 1,
	.run = run,
};
