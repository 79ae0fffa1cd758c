// SPDX-License-Identifier: MIT
/*
 * Seeds from the emulated drive's disc kinds (issue 12): for each layout,
 * its READ TOC format 0 (LBA and MSF), format 1, format 2 (full TOC),
 * disc information and every track's information (the invisible blank
 * track of an open disc included), written to
 *	DIR/corpus/fuzz_toc, DIR/corpus/fuzz_discinfo,
 *	DIR/seeds/full_toc (fuzz_full_toc), DIR/seeds/track_info (fuzz_track_info).
 * A CD answer's full TOC only: the drive refuses format 2 on a DVD or BD.
 * Not here: DVD+R and BD-R (the drive has no such profile; open DVD-R
 * stands for them) and gap= (it changes reads, not these answers).
 * Run by `make fuzz-seeds-layout`:  gen_sim_seeds DIR
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cdtail.h"
#include "mmc/mmc.h"
#include "transport/transport.h"
#include "fuzz.h"

static const char *out_dir;

/* One 10-byte CDB; the answer (what moved) into sub/name. */
static void ask(struct cdt_transport *t, const uint8_t *cdb, const char *name,
		const char *sub1, const char *sub2)
{
	static uint8_t buf[8192];
	struct cdt_cmd cmd;

	if (fuzz_exec(t, &cmd, cdb, 10, buf, sizeof(buf), 30000) ||
	    cmd.status != CDT_STATUS_GOOD)
		return;
	fuzz_put_file(out_dir, sub1, name, buf, cmd.data_len - cmd.resid);
	if (sub2)
		fuzz_put_file(out_dir, sub2, name, buf, cmd.data_len - cmd.resid);
}

struct kind {
	const char *tag;
	unsigned long blocks;
	const char *keys;
	unsigned int tracks;
};

static const struct kind kinds[] = {
	{ "cdextra", 300 + 200 + 11400 + 100, "layout=audio:300+audio:200/data:100", 3 },
	{ "mixed", 1500, "layout=data:1000+audio:500", 2 },
	{ "3session", 100 + 11400 + 50 + 6900 + 30, "layout=data:100/data:50/data:30", 3 },
	{ "tao", 100 + 11400 + 50, "layout=data:100/data:50,tao=1", 2 },
	{ "open-cdr", 100 + 11400 + 50, "layout=data:100/data:50,open=1,profile=cd-r", 3 },
	{ "open-dvdr", 1000, "open=1,profile=dvd-r", 2 },
	{ "dvdrw-formatted", 1000, "profile=dvd+rw,formatted=100000", 1 },
	/* multi-session CD-R, closed: B0 in session 1 only; hide= and extra=
	 * move the last track's end, the lead-out and A2 */
	{ "cdr-2session", 1000 + 11400 + 500, "layout=data:1000/data:500,profile=cd-r", 2 },
	{ "cdr-2session-hide", 1000 + 11400 + 500, "layout=data:1000/data:500,profile=cd-r,hide=100", 2 },
	{ "cdr-2session-extra", 1000 + 11400 + 500, "layout=data:1000/data:500,profile=cd-r,extra=100", 2 },
	{ "cdextra-hide", 300 + 200 + 11400 + 100, "layout=audio:300+audio:200/data:100,hide=50", 3 },
	/* TAO: several tracks in one session, a mixed-mode disc, and open */
	{ "tao-3track", 400 + 300 + 300, "layout=data:400+data:300+data:300,tao=1,profile=cd-r", 3 },
	{ "mixed-tao", 1500, "layout=data:1000+audio:500,tao=1", 2 },
	{ "mixed-3audio", 1000 + 200 + 200 + 100, "layout=data:1000+audio:200+audio:200+audio:100", 4 },
	{ "open-tao", 100 + 11400 + 50, "layout=data:100/data:50,tao=1,open=1,profile=cd-r", 3 },
	{ "open-cdextra", 300 + 11400 + 100, "layout=audio:300/data:100,open=1,profile=cd-r", 3 },
	{ "open-cdr-1session", 1000, "layout=data:1000,open=1,profile=cd-r", 2 },
	{ "open-dvdr-extra", 1000, "open=1,profile=dvd-r,extra=10", 2 },
	/* the other formatted rewritable media */
	{ "dvdram-formatted", 1000, "profile=dvd-ram,formatted=5000", 1 },
	{ "bdre-formatted", 1000, "profile=bd-re,formatted=120000", 1 },
};

static void one_kind(const struct kind *k, const char *img)
{
	uint8_t cdb[10];
	struct cdt_transport *t;
	char spec[512], name[64], err[256];
	unsigned int i;
	int fd;

	fd = open(img, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)k->blocks * 2048) || close(fd)) {
		perror(img);
		exit(1);
	}
	snprintf(spec, sizeof(spec), "%s,%s", img, k->keys);
	if (cdt_sim_open(spec, &t, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	for (i = 0; i < 4; i++) {
		static const char *const what[] = { "toc-lba", "toc-msf", "session", "fulltoc" };
		static const uint8_t fmt[] = { 0, 0, 1, 2 };

		mmc_cdb_read_toc(cdb, fmt[i], i == 1, 0, 8192);
		snprintf(name, sizeof(name), "sim-%s-%s", k->tag, what[i]);
		ask(t, cdb, name, i == 3 ? "seeds/full_toc" : "corpus/fuzz_toc", NULL);
	}
	memset(cdb, 0, sizeof(cdb));
	cdb[0] = MMC_READ_DISC_INFO;
	cdb[8] = 34;
	snprintf(name, sizeof(name), "sim-%s-discinfo", k->tag);
	ask(t, cdb, name, "corpus/fuzz_discinfo", NULL);
	for (i = 1; i <= k->tracks; i++) {
		memset(cdb, 0, sizeof(cdb));
		cdb[0] = MMC_READ_TRACK_INFO;
		cdb[1] = 1;
		cdb[5] = (uint8_t)i;
		cdb[8] = 36;
		snprintf(name, sizeof(name), "sim-%s-trackinfo%u", k->tag, i);
		ask(t, cdb, name, "seeds/track_info", NULL);
	}
	t->ops->close(t);
}

int main(int argc, char **argv)
{
	char img[] = "/tmp/cdtail-seeds-XXXXXX";
	size_t i;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_sim_seeds DIR\n");
		return 2;
	}
	out_dir = argv[1];
	fd = mkstemp(img);
	if (fd < 0)
		return 1;
	close(fd);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		one_kind(&kinds[i], img);
	unlink(img);
	return 0;
}
