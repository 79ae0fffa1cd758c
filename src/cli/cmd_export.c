// SPDX-License-Identifier: MIT
/*
 * cdtail export --ewf OUT.E01 IMAGE [--map MAP]: a finished 2048-byte image
 * as an EWF (EnCase 6) file with the case metadata, its MD5 and SHA-1, and
 * the map's bad areas as acquiry errors, as forensic examiners keep
 * evidence (ewfacquire, Guymager and FTK Imager write the same).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include <openssl/evp.h>
#include "cli.h"
#include "ewf.h"

#define CMD "export"
#define BLOCK 2048u
#define CHUNK (1u << 20)
#define MAX_SEGMENTS 64		/* .E01 to .E64: a bit each; 64 x 1.4 GiB */
/* cdt_mapview's bound: one cell a block (exact areas) up to 128 GB */
#define EXPORT_MAX_CELLS (1u << 26)

enum {
	OPT_EWF = 0x1701, OPT_MAP, OPT_FORCE, OPT_CASE, OPT_EVIDENCE,
	OPT_EXAMINER, OPT_DESCRIPTION, OPT_NOTES,
};

struct bad_area {
	uint64_t lba, blocks;
};

struct export_args {
	struct cli_common co;
	const char *ewf, *map, *image;
	char base[4096];	/* OUT less ".E01": libewf appends the segment's */
	bool force;
	struct ewf_meta meta;
};

struct export_result {
	uint64_t bytes;
	struct bad_area *bad;
	size_t n_bad;
	uint8_t md5[16], sha1[20];
	unsigned int segments;
};

static const struct cli_opt export_opts[] = {
	{ "ewf", OPT_EWF, "FILE", "write an EWF (EnCase 6) file, FILE ending in .E01" },
	{ "map", OPT_MAP, "MAPFILE", "IMAGE's map: its bad areas become acquiry errors" },
	{ "force", OPT_FORCE, NULL, "replace existing EWF files" },
	{ "case-number", OPT_CASE, "TEXT", "the case number to record" },
	{ "evidence-number", OPT_EVIDENCE, "TEXT", "the evidence number to record" },
	{ "examiner", OPT_EXAMINER, "TEXT", "the examiner's name to record" },
	{ "description", OPT_DESCRIPTION, "TEXT", "a description of the evidence" },
	{ "notes", OPT_NOTES, "TEXT", "notes to record" },
	CLI_OPTS_NO_DEVICE,
};

static int export_opt(void *ctx, int key, const char *arg)
{
	struct export_args *a = ctx;
	const char **text[] = {
		&a->meta.case_number, &a->meta.evidence_number, &a->meta.examiner,
		&a->meta.description, &a->meta.notes,
	};

	switch (key) {
	case OPT_EWF:
		return cli_opt_file(CMD, "ewf", arg, &a->ewf);
	case OPT_MAP:
		return cli_opt_file(CMD, "map", arg, &a->map);
	case OPT_FORCE:
		a->force = true;
		return 0;
	}
	if (key >= OPT_CASE && key <= OPT_NOTES) {
		*text[key - OPT_CASE] = arg;
		return 0;
	}
	return 1;
}

/* "x.E01" -> base "x"; anything else is a usage error. */
static int ewf_base(struct export_args *a)
{
	size_t n = strlen(a->ewf);

	if (n < 5 || strcasecmp(a->ewf + n - 4, ".E01"))
		return cli_usage(CMD, "--ewf %s: the name must end in .E01 (libewf names "
				 "the next segments .E02, .E03, ...)", a->ewf);
	if (n - 4 >= sizeof(a->base))
		return cli_usage(CMD, "--ewf %s: the name is too long", a->ewf);
	memcpy(a->base, a->ewf, n - 4);
	a->base[n - 4] = '\0';
	return 0;
}

static int parse_args(int argc, char **argv, struct export_args *a)
{
	struct cli_args ops;
	int rc;

	memset(a, 0, sizeof(*a));
	rc = cli_parse(&cli_cmd_export, argc, argv, &a->co, export_opt, a, &ops);
	if (rc)
		return rc;
	a->image = ops.op[0];
	cli_note_device(a->image);
	if (!*a->image)
		return cli_usage(CMD, "IMAGE is empty");
	if (!a->ewf)
		return cli_usage(CMD, "--ewf OUT.E01 is required (EWF is the format export writes)");
	rc = ewf_base(a);
	if (!rc)
		rc = cli_check_file(CMD, "IMAGE", a->image);
	if (!rc)
		rc = cli_check_new_file(CMD, "EWF file", a->ewf);
	return rc;
}

/*
 * The segment files of OUT that exist, by number: bit i-1 for base.E0i ...
 * base.E99 (libewf's first range), so every caller walks them the same way.
 */
static uint64_t existing_segments(const struct export_args *a)
{
	char name[4200];
	struct stat st;
	uint64_t set = 0;
	unsigned int i;

	for (i = 1; i <= MAX_SEGMENTS; i++) {
		snprintf(name, sizeof(name), "%s.E%02u", a->base, i);
		if (!lstat(name, &st))
			set |= 1ull << (i - 1);
	}
	return set;
}

/*
 * Remove the segments in set; with stop_at_error, the first that cannot go
 * is reported (status 3).  Existing segments are replaced only with
 * --force, and then all go: no stale .E02 beside a new .E01.
 */
static int remove_segments(const struct export_args *a, uint64_t set, bool stop_at_error)
{
	char name[4200];
	unsigned int i;

	for (i = 1; i <= MAX_SEGMENTS; i++) {
		if (!(set & (1ull << (i - 1))))
			continue;
		snprintf(name, sizeof(name), "%s.E%02u", a->base, i);
		if (!a->force && stop_at_error)
			return cli_usage(CMD, "%s exists: add --force to replace it", name);
		if (unlink(name) && stop_at_error) {
			cli_err("%s: cannot remove %s: %s", CMD, name, strerror(errno));
			return EX_DEVICE_ERR;
		}
	}
	return 0;
}

/* The CD sync pattern that opens every raw data sector (ECMA-130, 14.2). */
static bool raw_sync(const uint8_t *b)
{
	static const uint8_t sync[12] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff,
					  0xff, 0xff, 0xff, 0xff, 0xff, 0 };

	return !memcmp(b, sync, sizeof(sync));
}

/*
 * EWF holds the 2048-byte user data of a disc: a CUE sheet, a BIN of raw
 * 2352-byte sectors or a file of partial blocks is refused with what it is.
 */
static int check_image(const struct export_args *a, int fd, uint64_t *bytes)
{
	const char *dot = strrchr(a->image, '.');
	uint8_t head[16] = { 0 };
	struct stat st;

	if (fstat(fd, &st)) {
		cli_err("%s: %s: %s", CMD, a->image, strerror(errno));
		return EX_DEVICE_ERR;
	}
	if (dot && !strcasecmp(dot, ".cue"))
		return cli_usage(CMD, "%s is a CUE sheet: EWF holds 2048-byte data, not raw "
				 "BIN/CUE sectors; export a 2048-byte image (cdtail image)", a->image);
	if (pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) && raw_sync(head))
		return cli_usage(CMD, "%s holds raw 2352-byte sectors (a BIN): EWF holds "
				 "2048-byte data; export a 2048-byte image (cdtail image)", a->image);
	if (st.st_size <= 0 || st.st_size % BLOCK)
		return cli_usage(CMD, "%s is %lld bytes, not a whole number of 2048-byte blocks",
				 a->image, (long long)st.st_size);
	*bytes = (uint64_t)st.st_size;
	return 0;
}

static int add_bad(struct export_result *r, uint64_t lba, uint64_t blocks)
{
	struct bad_area *b = realloc(r->bad, (r->n_bad + 1) * sizeof(*b));

	if (!b)
		return -1;
	r->bad = b;
	r->bad[r->n_bad].lba = lba;
	r->bad[r->n_bad++].blocks = blocks;
	return 0;
}

/* A finished map of IMAGE: its bad areas, block by block exact. */
static int map_bad_areas(const struct export_args *a, struct export_result *r)
{
	struct cdt_mapview_opts o = { .size = sizeof(o), .max_cells = EXPORT_MAX_CELLS,
				      .block_size = BLOCK };
	struct cdt_mapview v = CDT_INIT(v);
	uint64_t unfinished;
	char err[1024];
	size_t k;
	int rc;

	rc = cdt_mapview_load(a->map, &o, &v, err, sizeof(err));
	if (rc) {
		cli_err("%s: %s", CMD, err);
		return rc == CDT_ENOMEM || rc == CDT_EIO ? EX_DEVICE_ERR : EX_USAGE_ERR;
	}
	unfinished = v.area_bytes[CDT_AREA_NONTRIED] + v.area_bytes[CDT_AREA_NONTRIMMED] +
		     v.area_bytes[CDT_AREA_NONSCRAPED];
	rc = 0;
	if (v.bytes != r->bytes)
		rc = cli_usage(CMD, "%s covers %llu bytes but %s holds %llu: not its map?",
			       a->map, (unsigned long long)v.bytes, a->image,
			       (unsigned long long)r->bytes);
	else if (v.blocks_per_cell > 1)
		rc = cli_usage(CMD, "%s is too large to map block by block (over %llu blocks)",
			       a->map, (unsigned long long)EXPORT_MAX_CELLS);
	else if (unfinished)
		rc = cli_usage(CMD, "%s says %llu bytes of %s were never read: finish the "
			       "image first (run cdtail image with that map again)", a->map,
			       (unsigned long long)unfinished, a->image);
	for (k = 0; !rc && k < v.n_runs; k++)
		if (v.runs[k].area == CDT_AREA_BAD &&
		    add_bad(r, v.runs[k].lba, v.runs[k].blocks)) {
			cli_err("%s: out of memory", CMD);
			rc = EX_DEVICE_ERR;
		}
	cdt_mapview_free(&v);
	return rc;
}

/* IMAGE into the EWF writer, digesting it on the way. */
static int copy_image(const struct export_args *a, int fd, struct ewf_out *e,
		      struct export_result *r, char *err, size_t errlen)
{
	EVP_MD_CTX *md5 = EVP_MD_CTX_new(), *sha1 = EVP_MD_CTX_new();
	uint8_t *buf = malloc(CHUNK);
	uint64_t done = 0;
	ssize_t n = 0;
	int rc = -1;

	if (!md5 || !sha1 || !buf || !EVP_DigestInit_ex(md5, EVP_md5(), NULL) ||
	    !EVP_DigestInit_ex(sha1, EVP_sha1(), NULL)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	while (done < r->bytes) {
		n = pread(fd, buf, CHUNK, (off_t)done);
		if (n <= 0) {
			snprintf(err, errlen, "cannot read %s: %s", a->image,
				 n ? strerror(errno) : "it shrank while being read");
			goto out;
		}
		if (ewf_write(e, buf, (size_t)n, err, errlen))
			goto out;
		EVP_DigestUpdate(md5, buf, (size_t)n);
		EVP_DigestUpdate(sha1, buf, (size_t)n);
		done += (uint64_t)n;
	}
	EVP_DigestFinal_ex(md5, r->md5, NULL);
	EVP_DigestFinal_ex(sha1, r->sha1, NULL);
	rc = 0;
out:
	EVP_MD_CTX_free(md5);
	EVP_MD_CTX_free(sha1);
	free(buf);
	return rc;
}

static int write_ewf(const struct export_args *a, int fd, struct export_result *r)
{
	struct ewf_out *e;
	char err[1024];
	size_t k;

	e = ewf_create(a->base, r->bytes, BLOCK, &a->meta, err, sizeof(err));
	if (!e)
		goto fail;
	for (k = 0; k < r->n_bad; k++)
		if (ewf_acquiry_error(e, r->bad[k].lba, r->bad[k].blocks, err, sizeof(err))) {
			ewf_abandon(e);
			goto fail;
		}
	if (copy_image(a, fd, e, r, err, sizeof(err))) {
		ewf_abandon(e);
		goto fail;
	}
	if (ewf_finish(e, r->md5, r->sha1, err, sizeof(err)))
		goto fail;
	r->segments = (unsigned int)__builtin_popcountll(existing_segments(a));
	return 0;
fail:
	remove_segments(a, existing_segments(a), false);
	cli_err("%s: %s: %s", CMD, a->ewf, err);
	return EX_DEVICE_ERR;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static json_object *meta_json(const struct ewf_meta *m)
{
	json_object *o = json_object_new_object();
	const char *keys[] = { "case_number", "evidence_number", "examiner",
			       "description", "notes" };
	const char *vals[] = { m->case_number, m->evidence_number, m->examiner,
			       m->description, m->notes };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_object_add(o, keys[i], vals[i] ? json_object_new_string(vals[i]) : NULL);
	return o;
}

static void print_json(const struct export_args *a, const struct export_result *r,
		       const char *md5, const char *sha1)
{
	json_object *o = json_object_new_object(), *bad = json_object_new_array();
	size_t k;

	json_object_object_add(o, "image", json_object_new_string(a->image));
	json_object_object_add(o, "ewf", json_object_new_string(a->ewf));
	json_object_object_add(o, "segments", json_object_new_int((int)r->segments));
	json_object_object_add(o, "map", a->map ? json_object_new_string(a->map) : NULL);
	json_object_object_add(o, "block_size", json_object_new_int(BLOCK));
	json_object_object_add(o, "blocks", json_object_new_int64((int64_t)(r->bytes / BLOCK)));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)r->bytes));
	json_object_object_add(o, "md5", json_object_new_string(md5));
	json_object_object_add(o, "sha1", json_object_new_string(sha1));
	for (k = 0; k < r->n_bad; k++) {
		json_object *b = json_object_new_object();

		json_object_object_add(b, "start", json_object_new_int64((int64_t)r->bad[k].lba));
		json_object_object_add(b, "blocks", json_object_new_int64((int64_t)r->bad[k].blocks));
		json_object_array_add(bad, b);
	}
	json_object_object_add(o, "acquiry_errors", bad);
	json_object_object_add(o, "metadata", meta_json(&a->meta));
	cli_json_out(o);
}

static void report(const struct export_args *a, const struct export_result *r)
{
	char md5[33], sha1[41];
	uint64_t bad_blocks = 0;
	size_t k;

	hex(r->md5, sizeof(r->md5), md5);
	hex(r->sha1, sizeof(r->sha1), sha1);
	if (a->co.json) {
		print_json(a, r, md5, sha1);
		return;
	}
	for (k = 0; k < r->n_bad; k++)
		bad_blocks += r->bad[k].blocks;
	/* -q: the result lines alone, as -q keeps them in every command */
	if (!a->co.quiet) {
		printf("export: %s -> %s (%u segment%s)\n", a->image, a->ewf, r->segments,
		       r->segments == 1 ? "" : "s");
		printf("  %llu blocks of 2048 bytes; %zu bad area%s (%llu blocks) recorded as "
		       "acquiry errors\n", (unsigned long long)(r->bytes / BLOCK), r->n_bad,
		       r->n_bad == 1 ? "" : "s", (unsigned long long)bad_blocks);
	}
	printf("  md5  %s\n  sha1 %s\n", md5, sha1);
}

static int export_run(int argc, char **argv)
{
	struct export_result r = { 0 };
	struct export_args a;
	int fd = -1, rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc == CLI_HELP_SHOWN ? 0 : rc;
	fd = open(a.image, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_err("%s: cannot open %s: %s", CMD, a.image, strerror(errno));
		return errno == ENOENT ? EX_USAGE_ERR : EX_DEVICE_ERR;
	}
	rc = check_image(&a, fd, &r.bytes);
	if (!rc && a.map)
		rc = map_bad_areas(&a, &r);
	if (!rc)
		rc = remove_segments(&a, existing_segments(&a), true);
	if (!rc)
		rc = write_ewf(&a, fd, &r);
	close(fd);
	if (!rc)
		report(&a, &r);
	free(r.bad);
	return rc;
}

const struct cli_cmd cli_cmd_export = {
	.name = "export",
	.operands = "--ewf OUT.E01 IMAGE",
	.about = "export a finished image as EWF (E01) with case metadata\n"
		 "\n"
		 "Write IMAGE (2048-byte blocks, as cdtail image writes it) into\n"
		 "EnCase 6 EWF files OUT.E01, OUT.E02, ... with libewf: the media\n"
		 "size, the sector size, IMAGE's MD5 and SHA-1, the metadata given,\n"
		 "and with --map the map's bad areas as acquiry errors.  ewfverify\n"
		 "checks the result and ewfexport gives IMAGE back.\n",
	.exits = "Exit: 0 exported, 2 usage error (also: IMAGE is raw BIN/CUE, the map\n"
		 "is another image's or unfinished, OUT exists), 3 read or write error.\n",
	.opts = export_opts,
	.min_operands = 1,
	.max_operands = 1,
	.run = export_run,
};
