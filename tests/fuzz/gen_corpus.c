// SPDX-License-Identifier: MIT
/*
 * Seed corpora from real answers: asks the emulated drive (the sim
 * transport, as the device layer would) what sizes.c and probe ask, under
 * a few fault settings, and writes each answer to CORPUS/TARGET/NAME.
 * Sense data comes from the failing reads.  Run by `make fuzz-corpus`:
 *
 *	gen_corpus CORPUS_DIR ISO_IMAGE UDF_IMAGE
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cdtail.h"
#include "mmc/mmc.h"
#include "transport/transport.h"
#include "fuzz.h"

static const char *out_dir;

/* Send one CDB; store the data answer and, on CHECK CONDITION, the sense. */
static void ask(struct cdt_transport *t, const char *tag, const char *target,
		const char *what, const uint8_t *cdb, unsigned int len,
		uint32_t alloc)
{
	static uint8_t buf[65536];
	struct cdt_cmd cmd;
	char name[256];

	memset(buf, 0, alloc);
	if (fuzz_exec(t, &cmd, cdb, len, buf, alloc, 1000))
		return;
	snprintf(name, sizeof(name), "%s-%s", tag, what);
	if (cmd.status == CDT_STATUS_GOOD && target)
		fuzz_put_file(out_dir, target, name, buf, alloc - cmd.resid);
	else if (cmd.sense_len)
		fuzz_put_file(out_dir, "fuzz_sense", name, cmd.sense, cmd.sense_len);
}

static void capture(const char *tag, const char *spec)
{
	struct cdt_transport *t;
	uint8_t cdb[16];
	uint32_t last = 0, bl = 2048, lba;
	char err[256], what[64];
	unsigned int n;

	if (cdt_sim_open(spec, &t, err, sizeof(err))) {
		fprintf(stderr, "gen_corpus: %s\n", err);
		exit(1);
	}
	n = mmc_cdb_inquiry(cdb, 96);
	ask(t, tag, "fuzz_inquiry", "inquiry", cdb, n, 96);
	n = mmc_cdb_read_capacity10(cdb);
	ask(t, tag, "fuzz_readcap", "rc10", cdb, n, 8);
	n = mmc_cdb_read_capacity16(cdb, 32);
	ask(t, tag, "fuzz_readcap", "rc16", cdb, n, 32);
	n = mmc_cdb_read_toc(cdb, 0, false, 0, 2048);
	ask(t, tag, "fuzz_toc", "toc-lba", cdb, n, 2048);
	n = mmc_cdb_read_toc(cdb, 0, true, 0, 2048);
	ask(t, tag, "fuzz_toc", "toc-msf", cdb, n, 2048);
	n = mmc_cdb_read_toc(cdb, 1, false, 0, 12);
	ask(t, tag, "fuzz_toc", "session-lba", cdb, n, 12);
	n = mmc_cdb_read_toc(cdb, 1, true, 0, 12);
	ask(t, tag, "fuzz_toc", "session-msf", cdb, n, 12);
	n = mmc_cdb_read_disc_info(cdb, 34);
	ask(t, tag, "fuzz_discinfo", "discinfo", cdb, n, 34);
	n = mmc_cdb_read_track_info(cdb, 1, 48);
	ask(t, tag, "fuzz_track_info", "trackinfo1", cdb, n, 48);
	n = mmc_cdb_read_track_info(cdb, 2, 48);
	ask(t, tag, "fuzz_track_info", "trackinfo2", cdb, n, 48);
	n = mmc_cdb_get_configuration(cdb, 1, 0, 8);
	ask(t, tag, "fuzz_config", "config-current", cdb, n, 8);
	n = mmc_cdb_get_configuration(cdb, 0, 0, 1024);
	ask(t, tag, "fuzz_config", "config-all", cdb, n, 1024);
	n = mmc_cdb_mode_sense10(cdb, 0x08, 256);
	ask(t, tag, "fuzz_modesense", "mode-08", cdb, n, 256);
	n = mmc_cdb_mode_sense10(cdb, 0x2a, 256);
	ask(t, tag, "fuzz_modesense", "mode-2a", cdb, n, 256);
	n = mmc_cdb_mode_sense10(cdb, 0x3f, 1024);
	ask(t, tag, "fuzz_modesense", "mode-3f", cdb, n, 1024);
	/* an opcode the drive does not know: ILLEGAL REQUEST sense */
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0xac;	/* GET PERFORMANCE, which the emulated drive lacks */
	ask(t, tag, NULL, "illegal", cdb, 12, 0);
	/* reads around the reported end: only the failures are kept */
	{
		struct cdt_cmd cmd;
		uint8_t ans[8];

		memset(&cmd, 0, sizeof(cmd));
		cmd.cdb_len = mmc_cdb_read_capacity10(cmd.cdb);
		cmd.data = ans;
		cmd.data_len = sizeof(ans);
		if (!t->ops->exec(t, &cmd) && cmd.status == CDT_STATUS_GOOD)
			(void)mmc_parse_read_capacity10(ans, 8, &last, &bl);
	}
	for (lba = last; lba <= last + 3; lba++) {
		n = mmc_cdb_read10(cdb, lba, 1);
		snprintf(what, sizeof(what), "read-%u", (unsigned int)(lba - last));
		ask(t, tag, NULL, what, cdb, n, bl);
	}
	t->ops->close(t);
}

struct spec {
	const char *tag;
	const char *keys;
	int udf;
};

static const struct spec specs[] = {
	{ "iso", "", 0 },
	{ "iso-hide", ",hide=3,info=1", 0 },
	{ "iso-runout", ",runout=2,toc=true", 0 },
	{ "iso-extra", ",extra=2,info=0", 0 },
	{ "iso-notoc", ",toc=none,hide=1", 0 },
	{ "iso-512", ",block=512,hide=8,info=1", 0 },
	{ "iso-bad", ",bad=100-200,hide=2", 0 },
	{ "udf", "", 1 },
	{ "udf-hide", ",hide=150,info=1", 1 },
};

/* Forms the emulated drive never sends: descriptor and deferred sense. */
static void made_sense(void)
{
	static const uint8_t desc[] = {
		0x72, 0x03, 0x11, 0x00, 0, 0, 0, 12,
		0x00, 0x0a, 0x80, 0, 0, 0, 0, 0, 0, 0x01, 0x23, 0x45,
	};
	static const uint8_t deferred[] = {
		0xf1, 0, 0x05, 0, 0, 0x10, 0, 10, 0, 0, 0, 0, 0x64, 0x00,
		0, 0, 0, 0,
	};

	fuzz_put_file(out_dir, "fuzz_sense", "made-descriptor-info", desc, sizeof(desc));
	fuzz_put_file(out_dir, "fuzz_sense", "made-deferred-end", deferred, sizeof(deferred));
}

int main(int argc, char **argv)
{
	char spec[1024];
	size_t i;

	if (argc != 4) {
		fprintf(stderr, "usage: gen_corpus CORPUS_DIR ISO UDF\n");
		return 2;
	}
	out_dir = argv[1];
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		snprintf(spec, sizeof(spec), "%s%s",
			 specs[i].udf ? argv[3] : argv[2], specs[i].keys);
		capture(specs[i].tag, spec);
	}
	made_sense();
	return 0;
}
