// SPDX-License-Identifier: MIT
/*
 * The sim: spec parser: cdt_sim_open("IMAGE,<fuzzed keys>").  When the
 * spec is accepted, a few commands are sent to the emulated drive and its
 * answers are parsed, so the keys' effect on the answers is fuzzed too.
 *
 * The image (64 blocks of 2048 bytes) lives in a private directory made
 * once; the process works in a sibling directory, and inputs whose
 * trace= value holds a '/' are skipped, so a fuzzed trace=NAME can only
 * create a file there (removed after each run) and never touches the
 * image or anything else.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cdtail.h"
#include "fuzz.h"
#include "mmc/mmc.h"
#include "transport/transport.h"

#define IMG_BLOCKS 64

static char img_dir[64], img_path[256], work_dir[300];

static void cleanup(void)
{
	unlink(img_path);
	rmdir(work_dir);
	rmdir(img_dir);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	uint8_t block[2048];
	FILE *f;
	int i;

	(void)argc;
	(void)argv;
	snprintf(img_dir, sizeof(img_dir), "/tmp/cdt-fuzz-simspec.XXXXXX");
	if (!mkdtemp(img_dir))
		die("mkdtemp");
	snprintf(img_path, sizeof(img_path), "%s/img", img_dir);
	snprintf(work_dir, sizeof(work_dir), "%s/work", img_dir);
	f = fopen(img_path, "w");
	if (!f)
		die(img_path);
	for (i = 0; i < IMG_BLOCKS; i++) {
		memset(block, i, sizeof(block));
		if (fwrite(block, sizeof(block), 1, f) != 1)
			die("fwrite");
	}
	if (fclose(f))
		die("fclose");
	if (mkdir(work_dir, 0700) || chdir(work_dir))
		die(work_dir);
	atexit(cleanup);
	return 0;
}

static int exec(struct cdt_transport *t, const uint8_t *cdb, unsigned int len,
		uint8_t *buf, uint32_t buf_len, size_t *got)
{
	struct cdt_cmd cmd;
	int rc;

	rc = fuzz_exec(t, &cmd, cdb, len, buf, buf_len, 1000);
	if (cmd.resid > buf_len || cmd.sense_len > CDT_SENSE_MAX)
		__builtin_trap();
	*got = buf_len - cmd.resid;
	return rc || cmd.status != CDT_STATUS_GOOD ? -1 : 0;
}

/* Ask what sizes.c asks, then read around the reported and the true end. */
static void drive(struct cdt_transport *t)
{
	static uint8_t buf[8 * 2048];
	uint8_t cdb[16];
	uint32_t last = 0, bl = 0;
	uint64_t last64, lba;
	struct mmc_toc toc;
	struct mmc_disc_info di;
	struct mmc_track_info ti;
	struct mmc_mode_caching mc;
	uint16_t profile;
	unsigned int n;
	size_t got;

	n = mmc_cdb_read_capacity10(cdb);
	if (!exec(t, cdb, n, buf, 8, &got))
		(void)mmc_parse_read_capacity10(buf, got, &last, &bl);
	n = mmc_cdb_read_capacity16(cdb, 32);
	if (!exec(t, cdb, n, buf, 32, &got))
		(void)mmc_parse_read_capacity16(buf, got, &last64, &bl);
	n = mmc_cdb_read_toc(cdb, 0, false, 0, 2048);
	if (!exec(t, cdb, n, buf, 2048, &got))
		(void)mmc_parse_toc(buf, got, false, &toc);
	n = mmc_cdb_read_toc(cdb, 0, true, 0, 2048);
	if (!exec(t, cdb, n, buf, 2048, &got))
		(void)mmc_parse_toc(buf, got, true, &toc);
	n = mmc_cdb_read_disc_info(cdb, 34);
	if (!exec(t, cdb, n, buf, 34, &got))
		(void)mmc_parse_disc_info(buf, got, &di);
	n = mmc_cdb_read_track_info(cdb, 1, 48);
	if (!exec(t, cdb, n, buf, 48, &got))
		(void)mmc_parse_track_info(buf, got, &ti);
	n = mmc_cdb_get_configuration(cdb, 1, 0, 8);
	if (!exec(t, cdb, n, buf, 8, &got))
		(void)mmc_parse_config_header(buf, got, &profile);
	n = mmc_cdb_mode_sense10(cdb, 0x08, 256);
	if (!exec(t, cdb, n, buf, 256, &got))
		(void)mmc_parse_mode_sense10_caching(buf, got, &mc);
	if (bl != 512 && bl != 2048)
		bl = 2048;
	/* reads of 1 and 4 blocks around the reported end and the image's */
	for (lba = last > 4 ? last - 4 : 0; lba <= (uint64_t)last + 6 &&
	     lba <= UINT32_MAX; lba++) {
		n = mmc_cdb_read10(cdb, (uint32_t)lba, 1);
		(void)exec(t, cdb, n, buf, bl, &got);
	}
	n = mmc_cdb_read12(cdb, IMG_BLOCKS * (2048 / bl) - 2, 4);
	(void)exec(t, cdb, n, buf, 4 * bl, &got);
}

/*
 * Items are split at ',' and a key is what precedes the first '=', as in
 * sim.c: a trace= item's value is what would be created.  Returns whether
 * every such value is a plain name; with unlink, removes them.
 */
static bool trace_names(const char *keys, bool do_unlink)
{
	char *copy = strdup(keys);
	char *item, *save = NULL;
	bool plain = true;

	if (!copy)
		return false;
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		if (strncmp(item, "trace=", 6))
			continue;
		if (strchr(item + 6, '/'))
			plain = false;
		else if (do_unlink && item[6])
			unlink(item + 6);
	}
	free(copy);
	return plain;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cdt_transport *t = NULL;
	char err[256];
	char *keys, *spec;
	size_t len;

	if (size > 4096 || memchr(data, '\0', size))
		return 0;
	keys = fuzz_strdup(data, size);
	len = strlen(img_path) + size + 2;
	spec = malloc(len);
	if (!keys || !spec || !trace_names(keys, false))
		goto out;
	snprintf(spec, len, "%s,%s", img_path, keys);
	err[0] = '\0';
	if (cdt_sim_open(spec, &t, err, sizeof(err)) == 0) {
		if (!t || !t->ops || !t->ops->exec)
			__builtin_trap();
		/* sleep=1 would make the drive wait its virtual time for real */
		if (!strstr(keys, "sleep=1"))
			drive(t);
		t->ops->close(t);
		trace_names(keys, true);
	} else if (t || !err[0]) {
		/*
		 * a refused spec leaves no handle and says why (the message
		 * quotes the bad value as given, newlines included)
		 */
		__builtin_trap();
	}
out:
	free(spec);
	free(keys);
	return 0;
}
