// SPDX-License-Identifier: MIT
/*
 * Benchmark driver for `make bench`.
 *
 *   refstrat run ADDR TRUE_BLOCKS
 *	Run the three reference end-search strategies against the drive at
 *	ADDR (normally "sim:IMAGE,hide=K,cost=...,info=...") and print one
 *	line per strategy:  NAME READS FAILED VIRTUAL_MS END
 *	Each strategy gets a fresh open of ADDR; the size sources are read
 *	first (cdt_read_sizes, READ CAPACITY among them) and the statistics
 *	are reset after that, so only the strategy's own reads are counted,
 *	exactly as cdtail's end search counts its own.
 *
 *   refstrat mkimg OUT BLOCKS [iso]
 *	Create an image of BLOCKS blocks of 2048 bytes, each starting with
 *	its LBA + 1 (data, not zeros: cdtail-probe(1), unconfirmed-tail).  With "iso",
 *	write a primary volume descriptor declaring BLOCKS logical blocks of
 *	2048 bytes, and a set terminator, so the disc carries a filesystem
 *	size source that gives the true end.
 *
 *   refstrat jget FILE KEY...
 *	Print the value of each KEY of the JSON object in FILE, one per
 *	line ("a.b" looks into nested objects; a missing key or JSON null
 *	prints "null").
 *
 * The strategies, with R the count READ CAPACITY reports and every read
 * one block long:
 *
 *  linear  read R, R+1, R+2, ... until a read fails at F: the end is F.
 *	    When R itself fails, read, ... until one reads at G:
 *	    the end is G+1.
 *  gallop  read R + 2^i - 1 for i = 0, 1, 2, ... (R, R+1, R+3, R+7, ...)
 *	    until one fails; when R itself fails, read R - 2^i (R-1, R-2,
 *	    R-4, ...) until one reads.  That leaves a good LBA G and a failing
 *	    LBA F; bisect: read G + (F-G)/2 and move G or F there until
 *	    F = G + 1.  The end is F.
 *  oracle  knows the true end E: read E-1 (good) and E (failing).  No
 *	    strategy can prove the end with less, so this is the lower bound.
 *
 * None of them looks at size sources or at the sense INFORMATION field.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include "cdtail.h"

#define BS 2048

struct strat_ctx {
	struct cdt_dev *dev;
	uint8_t buf[BS];
	int err;
};

/* One single-block read: 1 good, 0 failed (end or medium), -1 error. */
static int rd(struct strat_ctx *c, uint64_t lba)
{
	struct cdt_read_result res = CDT_INIT(res);
	int rc;

	rc = cdt_read_blocks(c->dev, lba, 1, c->buf, sizeof(c->buf), &res);
	if (rc) {
		fprintf(stderr, "refstrat: read %llu: %s: %s\n",
			(unsigned long long)lba, cdt_strerror(rc),
			cdt_errmsg(c->dev));
		c->err = rc;
		return -1;
	}
	if (res.cls == CDT_READ_OK)
		return 1;
	if (res.cls == CDT_READ_END || res.cls == CDT_READ_MEDIUM)
		return 0;
	fprintf(stderr, "refstrat: read %llu: unexpected outcome %d (%02x/%02x/%02x)\n",
		(unsigned long long)lba, res.cls, res.sense_key, res.asc, res.ascq);
	c->err = CDT_ECHECK;
	return -1;
}

/*
 * How far from R a strategy reads next: the first read away from R is at
 * offset 1, then up (R + off, while the reads succeed) or down (R - off,
 * while they fail) by these.
 */
struct steps {
	uint64_t (*up)(uint64_t off);
	uint64_t (*down)(uint64_t off);
};

/* rd of LBA, which then becomes *good or *bad. */
static int rd_move(struct strat_ctx *c, uint64_t lba, uint64_t *good, uint64_t *bad)
{
	int ok = rd(c, lba);

	if (ok > 0)
		*good = lba;
	else if (!ok)
		*bad = lba;
	return ok;
}

/*
 * Reads R, then away from it at the offsets s gives until a read answers
 * otherwise than R did, which leaves a good LBA and a failing one; then
 * bisects between them until they are adjacent.  The end is the failing
 * one; 0 when nothing reads down to LBA 0, -1 on an error.
 */
static int64_t search(struct strat_ctx *c, uint64_t r, const struct steps *s)
{
	uint64_t good = r, bad = r, off;
	int up, ok;

	up = rd(c, r);
	if (up < 0)
		return -1;
	for (off = 1;; off = up ? s->up(off) : s->down(off)) {
		if (!up && off > r)
			return 0;	/* nothing readable down to LBA 0 */
		ok = rd_move(c, up ? r + off : r - off, &good, &bad);
		if (ok < 0)
			return -1;
		if (ok != up)
			break;
	}
	while (bad - good > 1)
		if (rd_move(c, good + (bad - good) / 2, &good, &bad) < 0)
			return -1;
	return (int64_t)bad;
}

static uint64_t next_block(uint64_t off)
{
	return off + 1;
}

static uint64_t gallop_up(uint64_t off)
{
	return 2 * off + 1;	/* R + 2^i - 1 */
}

static uint64_t gallop_down(uint64_t off)
{
	return 2 * off;		/* R - 2^i */
}

/* Linear: every block in turn, so the bracket is adjacent: no bisection. */
static int64_t strat_linear(struct strat_ctx *c, uint64_t r, uint64_t truth)
{
	static const struct steps linear = { next_block, next_block };

	(void)truth;
	return search(c, r, &linear);
}

static int64_t strat_gallop(struct strat_ctx *c, uint64_t r, uint64_t truth)
{
	static const struct steps gallop = { gallop_up, gallop_down };

	(void)truth;
	return search(c, r, &gallop);
}

static int64_t strat_oracle(struct strat_ctx *c, uint64_t r, uint64_t truth)
{
	(void)r;
	if (truth && rd(c, truth - 1) < 0)
		return -1;
	if (rd(c, truth) < 0)
		return -1;
	return (int64_t)truth;
}

/*
 * READ CAPACITY, as cdtail's probe sends it before its search: the device
 * layer then knows the block size and sends nothing more before the reads.
 */
static int read_capacity(struct cdt_dev *dev, uint64_t *blocks)
{
	struct cdt_sizes sz = CDT_INIT(sz);
	int rc;

	rc = cdt_read_sizes(dev, &sz);
	if (rc)
		return rc;
	if (sz.read_capacity <= 0 || cdt_block_size(dev) != BS)
		return CDT_ECHECK;
	*blocks = (uint64_t)sz.read_capacity;
	return 0;
}

static const struct {
	const char *name;
	int64_t (*fn)(struct strat_ctx *c, uint64_t r, uint64_t truth);
} strategies[] = {
	{ "linear", strat_linear },
	{ "gallop", strat_gallop },
	{ "oracle", strat_oracle },
};

static int cmd_run(const char *addr, uint64_t truth)
{
	struct strat_ctx c;
	struct cdt_stats st = CDT_INIT(st);
	char err[256];
	uint64_t r;
	int64_t end;
	size_t i;
	int rc, ret = 0;

	for (i = 0; i < sizeof(strategies) / sizeof(strategies[0]); i++) {
		memset(&c, 0, sizeof(c));
		rc = cdt_open(addr, NULL, &c.dev, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "refstrat: %s\n", err);
			return 3;
		}
		rc = read_capacity(c.dev, &r);
		if (rc) {
			fprintf(stderr, "refstrat: READ CAPACITY: %s: %s\n",
				cdt_strerror(rc), cdt_errmsg(c.dev));
			cdt_close(c.dev);
			return 3;
		}
		cdt_reset_stats(c.dev);
		end = strategies[i].fn(&c, r, truth);
		cdt_get_stats(c.dev, &st);
		cdt_close(c.dev);
		if (end < 0)
			return 3;
		if ((uint64_t)end != truth) {
			fprintf(stderr, "refstrat: %s found end %lld, true end %llu\n",
				strategies[i].name, (long long)end,
				(unsigned long long)truth);
			ret = 1;
		}
		printf("%s %llu %llu %.3f %lld\n", strategies[i].name,
		       (unsigned long long)st.reads,
		       (unsigned long long)st.failed_reads, st.virtual_ms,
		       (long long)end);
	}
	return ret;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v & 0xff;	/* little-endian */
	p[1] = v >> 8;
	p[2] = v >> 8;		/* big-endian */
	p[3] = v & 0xff;
}

static void put32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++) {
		p[i] = (v >> (8 * i)) & 0xff;
		p[7 - i] = (v >> (8 * i)) & 0xff;
	}
}

/*
 * Each block starts with its LBA + 1: data, not zeros, since zeros past an
 * end READ CAPACITY and the TOC agree on are no hidden tail on a CD
 * (cdtail-probe(1), unconfirmed-tail).
 */
static int stamp_blocks(int fd, uint64_t blocks)
{
	uint64_t lba, v;

	for (lba = 0; lba < blocks; lba++) {
		v = lba + 1;
		if (pwrite(fd, &v, sizeof(v), (off_t)(lba * BS)) != (ssize_t)sizeof(v))
			return -1;
	}
	return 0;
}

static int cmd_mkimg(const char *out, uint64_t blocks, int iso)
{
	uint8_t vd[2 * BS];
	int fd;

	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "refstrat: %s: %s\n", out, strerror(errno));
		return 1;
	}
	if (ftruncate(fd, (off_t)(blocks * BS)) || stamp_blocks(fd, blocks)) {
		fprintf(stderr, "refstrat: %s: %s\n", out, strerror(errno));
		close(fd);
		return 1;
	}
	if (iso) {
		memset(vd, 0, sizeof(vd));
		vd[0] = 1;				/* primary */
		memcpy(vd + 1, "CD001", 5);
		vd[6] = 1;
		memset(vd + 8, ' ', 32);		/* system id */
		memset(vd + 40, ' ', 32);		/* volume id */
		memcpy(vd + 40, "CDTAIL_BENCH", 12);
		put32(vd + 80, (uint32_t)blocks);	/* volume space size */
		put16(vd + 120, 1);			/* volume set size */
		put16(vd + 124, 1);			/* sequence number */
		put16(vd + 128, BS);			/* logical block size */
		vd[881] = 1;				/* structure version */
		vd[BS] = 255;				/* set terminator */
		memcpy(vd + BS + 1, "CD001", 5);
		vd[BS + 6] = 1;
		if (pwrite(fd, vd, sizeof(vd), 16 * BS) != (ssize_t)sizeof(vd)) {
			fprintf(stderr, "refstrat: %s: write failed\n", out);
			close(fd);
			return 1;
		}
	}
	if (close(fd)) {
		fprintf(stderr, "refstrat: %s: %s\n", out, strerror(errno));
		return 1;
	}
	return 0;
}

static int cmd_jget(const char *file, int nkeys, char **keys)
{
	json_object *root, *o;
	char *path, *tok, *save;
	int i;

	root = json_object_from_file(file);
	if (!root) {
		fprintf(stderr, "refstrat: %s: not JSON\n", file);
		return 1;
	}
	for (i = 0; i < nkeys; i++) {
		path = strdup(keys[i]);
		if (!path)
			return 1;
		o = root;
		for (tok = strtok_r(path, ".", &save); tok && o;
		     tok = strtok_r(NULL, ".", &save))
			if (!json_object_object_get_ex(o, tok, &o))
				o = NULL;
		puts(o ? json_object_get_string(o) : "null");
		free(path);
	}
	json_object_put(root);
	return 0;
}

static int usage(void)
{
	fputs("usage: refstrat run ADDR TRUE_BLOCKS\n"
	      "       refstrat mkimg OUT BLOCKS [iso]\n"
	      "       refstrat jget FILE KEY...\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "run"))
		return cmd_run(argv[2], strtoull(argv[3], NULL, 10));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "mkimg"))
		return cmd_mkimg(argv[2], strtoull(argv[3], NULL, 10),
				 argc == 5 && !strcmp(argv[4], "iso"));
	if (argc >= 4 && !strcmp(argv[1], "jget"))
		return cmd_jget(argv[2], argc - 3, argv + 3);
	return usage();
}
