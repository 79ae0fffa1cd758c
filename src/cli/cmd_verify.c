// SPDX-License-Identifier: MIT
/* cdtail verify: is the disc, to its true end, this image or digest? */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "readui.h"

static const char verify_help[] =
	"usage: cdtail verify [--json] [-q] [-v] [--all] [--chunk BLOCKS] [--retries N]\n"
	"                     [--timeout SECONDS] [--max-extra BLOCKS]\n"
	"                     DEV (--image FILE | --sha256 HEX | --md5 HEX)\n"
	"\n"
	"Read the whole disc to its true end and compare it with FILE (stopping\n"
	"at the first differing block unless --all; -v shows a hex diff of it,\n"
	"-vv also every command)\n"
	"or with a digest.  Also says whether the filesystem's declared size fits.\n"
	"Exit: 0 identical, 1 different, 4 unreadable blocks, 2 usage error,\n"
	"3 device error, 130/143 interrupted.\n";

#define OPT_IMAGE 0x1301
#define OPT_SHA256 0x1302
#define OPT_MD5 0x1303
#define OPT_ALL 0x1304

static const char *const verdict_names[] = {
	[CDT_VERIFY_IDENTICAL] = "identical",
	[CDT_VERIFY_DIFFERENT] = "different",
	[CDT_VERIFY_UNREADABLE] = "unreadable",
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

static int parse(struct rui *ui, struct cdt_verify_opts *vo, struct rui_args *a,
		 int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "image", required_argument, NULL, OPT_IMAGE },
		{ "sha256", required_argument, NULL, OPT_SHA256 },
		{ "md5", required_argument, NULL, OPT_MD5 },
		{ "all", no_argument, NULL, OPT_ALL },
		RUI_READ_LONGOPTS,
		CLI_COMMON_LONGOPTS
	};
	int opt, rc;

	opterr = 0;
	while ((opt = rui_getopt(a, argc, argv, longopts)) != -1) {
		switch (opt) {
		case 'h':
			fputs(verify_help, stdout);
			return -1;
		case OPT_IMAGE:
			vo->image_path = optarg;
			continue;
		case OPT_SHA256:
			if (!is_hex(optarg, 64))
				return cli_usage("verify", "--sha256 wants 64 hex digits, not '%s'", optarg);
			vo->sha256 = optarg;
			continue;
		case OPT_MD5:
			if (!is_hex(optarg, 32))
				return cli_usage("verify", "--md5 wants 32 hex digits, not '%s'", optarg);
			vo->md5 = optarg;
			continue;
		case OPT_ALL:
			vo->all = true;
			continue;
		}
		rc = rui_opt(ui, opt, optarg);
		if (rc < 0)
			return EX_USAGE_ERR;
		if (rc == 0)
			return cli_bad_option("verify", opt, argv);
	}
	if (!!vo->image_path + !!vo->sha256 + !!vo->md5 != 1)
		return cli_usage("verify", "give exactly one of --image, --sha256, --md5");
	if (a->n != 1)
		return cli_usage("verify", a->n ? "too many arguments" : "missing DEV");
	return 0;
}

static const char *mode_name(const struct cdt_verify_opts *vo)
{
	return vo->image_path ? "image" : vo->sha256 ? "sha256" : "md5";
}

static json_object *json_fs(const struct cdt_verify_result *r)
{
	const struct cdt_sizes *s = &r->sum.probe.sizes;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", s->fs_type[0] ? json_object_new_string(s->fs_type) : NULL);
	json_object_object_add(o, "blocks", cli_json_count(s->filesystem));
	json_object_object_add(o, "fits", r->fs_fits < 0 ? NULL : json_object_new_boolean(r->fs_fits));
	return o;
}

static void print_json(const char *addr, const struct cdt_verify_opts *vo,
		       const struct cdt_verify_result *r, bool virt)
{
	json_object *o = json_object_new_object();

	rui_json_summary(o, addr, &r->sum, virt);
	json_object_object_add(o, "map", NULL);
	json_object_object_add(o, "mode", json_object_new_string(mode_name(vo)));
	json_object_object_add(o, "image", vo->image_path ? json_object_new_string(vo->image_path) : NULL);
	json_object_object_add(o, "expected", vo->image_path ? NULL :
			       json_object_new_string(vo->sha256 ? vo->sha256 : vo->md5));
	json_object_object_add(o, "image_bytes", vo->image_path ?
			       json_object_new_int64((int64_t)r->image_bytes) : NULL);
	json_object_object_add(o, "length_differs", json_object_new_boolean(r->length_differs));
	json_object_object_add(o, "first_diff_lba", r->have_diff ?
			       json_object_new_int64((int64_t)r->first_diff_lba) : NULL);
	json_object_object_add(o, "diff_count", json_object_new_int64((int64_t)r->diff_blocks));
	json_object_object_add(o, "diff_blocks", rui_json_ranges(r->diffs, r->n_diffs));
	json_object_object_add(o, "complete", json_object_new_boolean(r->complete));
	json_object_object_add(o, "filesystem", json_fs(r));
	json_object_object_add(o, "verdict", json_object_new_string(verdict_names[r->verdict]));
	cli_json_out(o);
}

static void print_fs(const struct cdt_verify_result *r)
{
	const struct cdt_sizes *s = &r->sum.probe.sizes;

	if (r->fs_fits < 0) {
		printf("filesystem: no ISO 9660 / UDF size found\n");
		return;
	}
	printf("filesystem: %s declares %lld blocks: %s\n", s->fs_type,
	       (long long)s->filesystem,
	       r->fs_fits ? "fits within the true end" : "does NOT fit within the true end");
}

static void print_text(const char *addr, const struct cdt_verify_opts *vo,
		       const struct cdt_verify_result *r, bool virt)
{
	rui_print_summary(addr, &r->sum, virt);
	if (vo->image_path)
		printf("image:     %s, %llu bytes%s\n", vo->image_path,
		       (unsigned long long)r->image_bytes,
		       r->length_differs ? " (not the length of the disc)" : "");
	else
		printf("expected:  %s %s\n", mode_name(vo), vo->sha256 ? vo->sha256 : vo->md5);
	if (r->have_diff)
		printf("differs:   first at LBA %llu, %llu differing blocks seen\n",
		       (unsigned long long)r->first_diff_lba, (unsigned long long)r->diff_blocks);
	if (r->n_diffs > 1)
		rui_print_ranges("ranges:", r->diffs, r->n_diffs);
	print_fs(r);
	printf("verdict:   %s\n", verdict_names[r->verdict]);
}

static const int verdict_status[] = {
	[CDT_VERIFY_IDENTICAL] = EX_SAME,
	[CDT_VERIFY_DIFFERENT] = EX_DIFFERENT,
	[CDT_VERIFY_UNREADABLE] = EX_UNREADABLE,
};

int cmd_verify(int argc, char **argv)
{
	struct rui_args a = { .n = 0 };
	struct cdt_verify_opts vo;
	struct cdt_verify_result res;
	struct cli_common co;
	struct cdt_dev *dev;
	struct rui ui;
	int rc;

	memset(&vo, 0, sizeof(vo));
	rui_init(&ui, "verify");
	rc = parse(&ui, &vo, &a, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;
	/* -v is the hex diff here; the command log wants -vv */
	co = ui.co;
	co.verbose = co.verbose > 1;
	rc = cli_open(a.op[0], &co, &dev);
	if (rc)
		return rc;
	rui_start(&ui, dev);
	vo.rd = ui.rd;
	if (ui.co.verbose)
		vo.diff = hex_diff;
	rc = cdt_verify(dev, &vo, &res);
	if (rc) {
		rc = rui_fail(&ui, dev, "verify", rc);
	} else {
		rui_end_line(&ui);
		if (ui.co.json)
			print_json(a.op[0], &vo, &res, cdt_is_virtual_time(dev));
		else
			print_text(a.op[0], &vo, &res, cdt_is_virtual_time(dev));
		rc = verdict_status[res.verdict];
	}
	cdt_verify_result_free(&res);
	cdt_close(dev);
	return rc;
}
