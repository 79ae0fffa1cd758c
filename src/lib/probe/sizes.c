// SPDX-License-Identifier: MIT
/*
 * Every size source a drive and a disc offer: READ CAPACITY, the TOC
 * lead-out, disc and track information, the filesystem's declared size and
 * the kernel's view.  dvdisaster's lesson: trust none of them alone, so
 * gather them all and let the end search and the report compare them.
 */
#include <blkid/blkid.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core/abi.h"
#include "core/cmds.h"
#include "core/device.h"
#include "probe/judge.h"
#include "probe/fsize.h"
#include "probe/head.h"
#include "probe/layout.h"
#include "probe/findings.h"
#include "probe/sizes.h"
#include "probe/structure.h"
#include "mmc/mmc.h"

#define TOC_ALLOC (4 + MMC_TOC_MAX * 8)
/* 16 system blocks, then the volume descriptors */
#define ISO_HEAD_READ 32u

static bool sane_block_size(uint32_t bs)
{
	return bs == 512 || bs == 1024 || bs == 2048 || bs == 4096;
}

/*
 * READ CAPACITY with this library's policy: a block size no data read
 * uses (some drives answer 2352 or 0 for CD media) is taken as 2048.
 */
int cdt_probe_read_capacity(struct cdt_dev *dev, uint64_t *blocks,
			    uint32_t *block_size)
{
	int rc = cdt_cmd_read_capacity(dev, blocks, block_size, NULL);

	if (rc == CDT_ECHECK)
		cdt_dev_seterr(dev, "the drive refused READ CAPACITY (no readable medium?)");
	if (!rc && !sane_block_size(*block_size))
		*block_size = 2048;
	return rc;
}

/* READ TOC format 0 from track 1, parsed into *toc; 0 or -1. */
static int read_toc(struct cdt_dev *dev, struct mmc_toc *toc)
{
	uint8_t *buf = malloc(TOC_ALLOC);
	uint32_t got = 0;
	int rc = -1;

	if (!buf)
		return -1;
	if (!cdt_cmd_read_toc(dev, 0, false, 1, buf, TOC_ALLOC, &got) &&
	    !mmc_parse_toc(buf, got, false, toc))
		rc = 0;
	free(buf);
	return rc;
}

static int64_t toc_leadout(const struct mmc_toc *toc)
{
	int64_t lba = mmc_toc_leadout(toc);

	return lba <= 0 ? CDT_SIZE_ABSENT : lba;
}

/*
 * The information of track number, or of the track before it when that
 * one is blank: an open session's last track is its invisible blank one,
 * and the data's structure ends with the track before (the kernel's
 * cdrom_get_last_written, drivers/cdrom/cdrom.c, and pktcdvd ask the
 * same: "if this track is blank, try the previous").  0 or -1.
 */
static int last_track_info(struct cdt_dev *dev, uint32_t track, uint8_t *buf,
			   struct mmc_track_info *ti)
{
	uint32_t got = 0;

	if (cdt_cmd_read_track_info(dev, track, buf, 36, &got) ||
	    mmc_parse_track_info(buf, got, ti))
		return -1;
	if (!ti->blank || track <= 1)
		return 0;
	if (cdt_cmd_read_track_info(dev, track - 1, buf, 36, &got) ||
	    mmc_parse_track_info(buf, got, ti))
		return -1;
	return 0;
}

/*
 * Disc information and the last track's information; what was answered
 * is kept in *a for the layout (probe/layout.c), which so needs no second
 * asking on a one-track disc.
 */
static void disc_and_track(struct cdt_dev *dev, struct cdt_sizes *sz,
			   struct layout_answers *a)
{
	struct mmc_disc_info *di = &a->di;
	struct mmc_track_info *ti = &a->last_ti;
	uint32_t got = 0, track = 1;
	uint8_t buf[64];

	if (!cdt_cmd_read_disc_info(dev, buf, 34, &got) &&
	    !mmc_parse_disc_info(buf, got, di)) {
		a->have_di = true;
		/*
		 * The last possible lead-out is where a blank disc's capacity
		 * ends, not where its data does: a size shown, never searched
		 * for (probe.c leaves it out of the candidates).  The MSF
		 * reading of these bytes holds for CD media only.
		 */
		if (di->last_leadout > 0 && probe_cd_profile(sz->profile))
			sz->disc_leadout = di->last_leadout;
		if (di->last_track_last_session)
			track = di->last_track_last_session;
	}
	if (last_track_info(dev, track, buf, ti))
		return;
	a->have_last_ti = true;
	if (ti->blank || !ti->size)
		return;
	/*
	 * The start is signed (track 1 from -150 where the drive counts the
	 * pregap, size N + 150): the end is still start + size.  An end at or
	 * before LBA 0 is no size of anything.
	 */
	if (ti->start + ti->size > 0)
		sz->track_end = ti->start + ti->size;
}

static uint16_t current_profile(struct cdt_dev *dev)
{
	uint32_t got = 0;
	uint16_t profile = 0;
	uint8_t buf[16];

	/* RT=2, starting at feature 0: only the header is needed */
	if (cdt_cmd_get_configuration(dev, 2, 0, buf, 8, &got))
		return 0;
	if (mmc_parse_config_header(buf, got, &profile))
		return 0;
	return profile;
}

/*
 * Read up to CDT_FS_PROBE_BYTES, and no more than limit blocks, from LBA
 * 0; returns bytes read.  A bad block in a piece costs that piece read
 * again block by block, not the descriptors in it (at most HEAD_BAD_MAX
 * bad blocks: each may cost a real drive seconds).
 */
static size_t read_head(struct cdt_dev *dev, struct probe_findings *pf,
			uint64_t limit, uint8_t *buf)
{
	uint32_t bs = dev->block_size, chunk = cdt_max_read_blocks(dev);
	uint64_t want = CDT_FS_PROBE_BYTES / bs, lba = 0;
	unsigned int fails = PROBE_HEAD_BAD_MAX;

	if (want > limit)
		want = limit;
	if (chunk > 64)
		chunk = 64;
	while (lba < want) {
		/*
		 * The ISO 9660 descriptors (16 on) on their own first: a
		 * failure further on (a run-out a drive over-reports past)
		 * then keeps them.
		 */
		uint32_t step = lba ? chunk : (chunk < ISO_HEAD_READ ? chunk : ISO_HEAD_READ);
		uint32_t n = want - lba < step ? (uint32_t)(want - lba) : step;
		uint32_t got = probe_read_piece(dev, pf, lba, n, buf + lba * bs, &fails);

		lba += got;
		if (got < n)
			break;
	}
	return (size_t)(lba * bs);
}

/*
 * How much of the disc's head may be read for the filesystem: track 1
 * only, and only its data.  Past a short data track lie audio (05/64/00
 * for every READ(10), which image and verify promise never to send) or a
 * short first session's lead-out, where drives fail slowly, time out or
 * hang (doc/disc-kinds.md: DiscImageCreator issues 70, 41); a TAO run-out
 * fails.  Track 1 audio (a CD-Extra), its pregap too: nothing.  A formatted medium is one
 * track, so UDF's anchor at 256 stays within reach.
 */
static uint64_t head_blocks(const struct cdt_layout *l, uint64_t reported,
			    uint16_t profile)
{
	const struct cdt_track *t = l && l->n_tracks ? &l->tracks[0] : NULL;
	uint64_t n;

	/* track 1 from LBA 0 on, its pregap (index 00) included */
	if (!t || !l->has_toc || t->start > t->pregap)
		return reported;
	if (t->mode != CDT_TRACK_DATA)
		return 0;
	n = t->blocks ? t->pregap + t->blocks : reported;
	/*
	 * A TAO run-out the layout found, or may not know of yet: track 1
	 * as the only track is the last, whose end the search reads later.
	 * Its last 2 blocks are never a filesystem's descriptors.
	 */
	if ((t->runout || l->n_tracks == 1) && n > 2)
		n -= 2;
	/*
	 * An open DVD±R or BD-R whose READ CAPACITY says 1 or its last
	 * recorded address (doc/disc-kinds.md, issue 36): the track's
	 * recorded size, not READ CAPACITY, bounds its head.
	 */
	if (probe_sequential_profile(profile) && !probe_cd_profile(profile))
		return n;
	return n < reported ? n : reported;
}

/* libblkid names the filesystem; it reads from a memfd copy of the head. */
/*
 * libblkid sets its debug mask on the first blkid_new_probe() and reads it
 * everywhere after: set it once, under a lock (which, unlike pthread_once,
 * helgrind sees), so probes of several drives in threads (probe --all)
 * never race on it (helgrind showed they did).  The one process-wide
 * state, and it only says that libblkid is initialised.
 */
static pthread_mutex_t blkid_lock = PTHREAD_MUTEX_INITIALIZER;
static bool blkid_ready;

static void blkid_init_once(void)
{
	pthread_mutex_lock(&blkid_lock);
	if (!blkid_ready) {
		blkid_init_debug(0);
		blkid_ready = true;
	}
	pthread_mutex_unlock(&blkid_lock);
}

static void blkid_type(const uint8_t *buf, size_t len, char *type, size_t tlen)
{
	blkid_probe pr = NULL;
	const char *val;
	int fd;

	type[0] = '\0';
	blkid_init_once();
	fd = memfd_create("cdtail-head", MFD_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, buf, len) != (ssize_t)len)
		goto out;
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, (blkid_loff_t)len))
		goto out;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	if (blkid_do_safeprobe(pr) == 0 &&
	    blkid_probe_lookup_value(pr, "TYPE", &val, NULL) == 0)
		snprintf(type, tlen, "%s", val);
out:
	if (pr)
		blkid_free_probe(pr);
	close(fd);
}

static void filesystem_size(struct cdt_dev *dev, struct probe_findings *pf, uint64_t limit,
			    struct cdt_sizes *sz)
{
	uint8_t *buf = calloc(1, CDT_FS_PROBE_BYTES);
	uint64_t blocks = 0;
	size_t len;
	int rc = -1;

	if (!buf)
		return;
	len = read_head(dev, pf, limit, buf);
	if (!len)
		goto out;
	blkid_type(buf, len, sz->fs_type, sizeof(sz->fs_type));
	if (!strcmp(sz->fs_type, "udf"))
		rc = cdt_udf_size(buf, len, dev->block_size, &blocks);
	/*
	 * libblkid 2.38 names a UDF bridge disc (ISO 9660 descriptors first
	 * in the recognition sequence, OSTA UDF 2.60 6.9) "udf" and gives no
	 * size of either (no FSSIZE for udf or iso9660): where the UDF
	 * descriptors give none, the bridge's ISO 9660 volume still does,
	 * and the type names the filesystem the size came from.
	 */
	if (rc && (!strcmp(sz->fs_type, "udf") || !strcmp(sz->fs_type, "iso9660") ||
		   !sz->fs_type[0])) {
		rc = cdt_iso9660_size(buf, len, dev->block_size, &blocks);
		if (!rc && !strcmp(sz->fs_type, "udf"))
			sz->fs_type[0] = '\0';
	}
	if (!rc && !sz->fs_type[0])
		snprintf(sz->fs_type, sizeof(sz->fs_type), "iso9660");
	if (!rc && blocks)
		sz->filesystem = (int64_t)blocks;
out:
	free(buf);
}

static void kernel_size(struct cdt_dev *dev, struct cdt_sizes *sz)
{
	uint64_t sectors;

	if (!dev->t->ops->kernel_size_512 ||
	    dev->t->ops->kernel_size_512(dev->t, &sectors))
		return;
	sz->kernel_512 = (int64_t)sectors;
	if (dev->block_size)
		sz->kernel = (int64_t)(sectors * 512 / dev->block_size);
}

static void sizes_init(struct cdt_sizes *sz)
{
	memset(sz, 0, sizeof(*sz));
	sz->read_capacity = CDT_SIZE_ABSENT;
	sz->toc_leadout = CDT_SIZE_ABSENT;
	sz->track_end = CDT_SIZE_ABSENT;
	sz->disc_leadout = CDT_SIZE_ABSENT;
	sz->filesystem = CDT_SIZE_ABSENT;
	sz->kernel = CDT_SIZE_ABSENT;
	sz->kernel_512 = CDT_SIZE_ABSENT;
}

/*
 * The kernel's view comes first: the Linux sr driver shrinks its idea of
 * the size after medium errors near the end, so it must be read before
 * anything here reads a block.
 */
int probe_sizes(struct cdt_dev *dev, struct probe_findings *pf,
		struct cdt_sizes *sz)
{
	struct layout_answers *a;
	uint64_t blocks;
	int rc;

	sizes_init(sz);
	/* a layout of an earlier probe says nothing of this medium */
	probe_findings_free(pf);
	probe_publish(dev, NULL);
	kernel_size(dev, sz);
	rc = cdt_cmd_test_unit_ready(dev, NULL);
	if (rc == CDT_ENOMEDIUM || (rc && rc != CDT_ECHECK))
		return rc;
	rc = cdt_probe_read_capacity(dev, &blocks, &sz->block_size);
	if (rc)
		return rc;
	/* the block size every later read uses: set here, explicitly */
	dev->block_size = sz->block_size;
	pf->block_size = sz->block_size;
	sz->read_capacity = (int64_t)blocks;
	if (sz->kernel_512 >= 0)
		sz->kernel = sz->kernel_512 * 512 / sz->block_size;
	sz->profile = current_profile(dev);
	a = calloc(1, sizeof(*a));
	if (!a)
		return CDT_ENOMEM;
	if (!read_toc(dev, &a->toc)) {
		a->have_toc = true;
		sz->toc_leadout = toc_leadout(&a->toc);
	}
	disc_and_track(dev, sz, a);
	rc = layout_read(dev, pf, sz, a);
	free(a);
	if (rc)
		return rc;
	probe_publish(dev, pf);
	/*
	 * The last data session's volume descriptor said nothing: the head,
	 * when that session is the one at LBA 0.  Another session's
	 * descriptor is never this disc's size (issue 28: session 1's 90
	 * blocks once stood for a disc of 11700 whose last descriptor had a
	 * bad block).
	 */
	if (sz->filesystem < 0 && !layout_last_session_start(pf->layout))
		filesystem_size(dev, pf, head_blocks(pf->layout, blocks, sz->profile), sz);
	return 0;
}


int cdt_read_sizes(struct cdt_dev *dev, struct cdt_sizes *sz)
{
	struct probe_findings pf = { 0 };
	struct cdt_sizes full;
	int rc = cdt_abi_res(dev, sz, &full, sizeof(full), "struct cdt_sizes");

	if (!rc)
		rc = probe_sizes(dev, &pf, &full);
	probe_findings_free(&pf);
	cdt_abi_out(sz, &full, sizeof(full));
	return rc;
}

const char *cdt_verdict_name(enum cdt_verdict v)
{
	switch (v) {
	case CDT_VERDICT_OK:
		return "ok";
	case CDT_VERDICT_HIDDEN_TAIL:
		return "hidden-tail";
	case CDT_VERDICT_SHORT:
		return "short";
	case CDT_VERDICT_UNREADABLE:
		return "unreadable";
	}
	return "unknown";
}
