// SPDX-License-Identifier: MIT
/* th: the unit tests' shared helpers (th.h says why they live here). */
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdtail.h"
#include "transport/transport.h"
#include "th.h"

int th_tmpdir(char *dir, size_t len, const char *tag)
{
	snprintf(dir, len, "/tmp/cdtail-%s-XXXXXX", tag);
	return mkdtemp(dir) ? 0 : -1;
}

void th_path(char *buf, size_t len, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		fail_msg("path %s/%s too long", dir, name);
}

int th_rmrf(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

uint8_t *th_random(size_t n, unsigned int seed)
{
	uint8_t *p = malloc(n ? n : 1);

	assert_non_null(p);
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)((seed = seed * 1103515245 + 12345) >> 16);
	return p;
}

void th_write_file(const char *path, const void *data, size_t n)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

void th_expect_image(const char *path, const uint8_t *want, size_t bs,
		     uint64_t nblocks, uint64_t first_bad, uint64_t last_bad)
{
	uint8_t *got = malloc((size_t)nblocks * bs), *zero = calloc(1, bs);
	FILE *fp = fopen(path, "rb");

	assert_non_null(fp);
	assert_non_null(got);
	assert_non_null(zero);
	assert_int_equal(fread(got, bs, nblocks, fp), nblocks);
	assert_int_equal(fgetc(fp), EOF);
	fclose(fp);
	for (uint64_t b = 0; b < nblocks; b++) {
		bool bad = b >= first_bad && b <= last_bad;

		if (memcmp(got + b * bs, bad ? zero : want + b * bs, bs))
			fail_msg("block %llu of %s is wrong", (unsigned long long)b,
				 path);
	}
	free(zero);
	free(got);
}

struct th_disc *th_disc_new(const char *tag, size_t len, unsigned int seed)
{
	struct th_disc *d = calloc(1, sizeof(*d));

	if (!d || th_tmpdir(d->dir, sizeof(d->dir), tag))
		return NULL;
	th_path(d->img, sizeof(d->img), d->dir, "disc.img");
	th_path(d->out, sizeof(d->out), d->dir, "out.img");
	th_path(d->map, sizeof(d->map), d->dir, "out.map");
	th_path(d->trace, sizeof(d->trace), d->dir, "trace");
	d->data = th_random(len, seed);
	if (!d->data)
		return NULL;
	th_write_file(d->img, d->data, len);
	return d;
}

int th_disc_free(struct th_disc *d)
{
	int rc = th_rmrf(d->dir);

	free(d->data);
	free(d);
	return rc;
}

uint16_t th_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

uint32_t th_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

void th_put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

void th_put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

uint8_t *th_exact(const uint8_t *src, size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	assert_non_null(p);
	memcpy(p, src, n);
	return p;
}

void th_expect_at(const uint8_t *buf, const struct th_byte *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (buf[b[i].at] != b[i].want)
			fail_msg("byte %zu is 0x%02x, want 0x%02x", b[i].at,
				 buf[b[i].at], b[i].want);
}

void th_each_prefix(const uint8_t *buf, size_t len, th_prefix_fn *fn, void *ctx)
{
	for (size_t n = 0; n <= len; n++) {
		uint8_t *p = th_exact(buf, n);

		fn(p, n, ctx);
		free(p);
	}
}

struct prefix_want {
	size_t min_len;
	th_parse_fn *parse;
};

static void check_prefix(const uint8_t *p, size_t len, void *ctx)
{
	const struct prefix_want *w = ctx;
	int rc = w->parse(p, len);

	if (rc != (len < w->min_len ? -1 : 0))
		fail_msg("a %zu-byte prefix parses to %d", len, rc);
}

void th_expect_prefixes(const uint8_t *buf, size_t len, size_t min_len,
			th_parse_fn *parse)
{
	struct prefix_want w = { min_len, parse };

	th_each_prefix(buf, len, check_prefix, &w);
}

int th_sim_open(struct cdt_transport **tp, char *err, size_t errlen,
		const char *fmt, ...)
{
	char spec[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(spec, sizeof(spec), fmt, ap);
	va_end(ap);
	err[0] = '\0';
	return cdt_sim_open(spec, tp, err, errlen);
}

struct cdt_dev *th_open_sim(const char *img, const char *keys)
{
	char addr[512], err[256];
	struct cdt_dev *dev = NULL;

	snprintf(addr, sizeof(addr), "sim:%s,cost=0/0%s%s", img, *keys ? "," : "",
		 keys);
	if (cdt_open(addr, NULL, &dev, err, sizeof(err)))
		fail_msg("open %s: %s", addr, err);
	return dev;
}

int th_exec(struct cdt_transport *t, struct cdt_cmd *cmd, const uint8_t *cdb,
	    unsigned int cdb_len, void *buf, uint32_t buf_len)
{
	memset(cmd, 0, sizeof(*cmd));
	memcpy(cmd->cdb, cdb, cdb_len);
	cmd->cdb_len = cdb_len;
	cmd->data = buf;
	cmd->data_len = buf_len;
	cmd->timeout_ms = 30000;
	cmd->resid = 0xdeadbeef;
	cmd->status = 0xee;
	return t->ops->exec(t, cmd);
}

void th_expect_good(const struct cdt_cmd *cmd)
{
	if (cmd->status != CDT_STATUS_GOOD)
		fail_msg("status %02x sense %02x/%02x/%02x", cmd->status,
			 cmd->sense[2], cmd->sense[12], cmd->sense[13]);
	assert_int_equal(cmd->sense_len, 0);
}

void th_expect_sense(const struct cdt_cmd *cmd, uint8_t key, uint8_t asc,
		     uint8_t ascq)
{
	assert_int_equal(cmd->status, CDT_STATUS_CHECK);
	assert_int_equal(cmd->sense_len, 18);
	assert_int_equal(cmd->sense[0] & 0x7f, 0x70);
	assert_int_equal(cmd->sense[2] & 0x0f, key);
	assert_int_equal(cmd->sense[7], 10);
	assert_int_equal(cmd->sense[12], asc);
	assert_int_equal(cmd->sense[13], ascq);
}

size_t th_read_trace(const char *path, struct th_read *r, size_t max)
{
	char line[256];
	FILE *fp = fopen(path, "r");
	size_t n = 0;

	assert_non_null(fp);
	while (n < max && fgets(line, sizeof(line), fp)) {
		unsigned int op;
		unsigned long long lba, blocks;
		char sense[16];

		if (sscanf(line, "%x lba=%llu blocks=%llu sense=%15s", &op, &lba,
			   &blocks, sense) != 4 || (op != 0x28 && op != 0xa8))
			continue;
		r[n++] = (struct th_read){ lba, blocks, !strcmp(sense, "00/00/00"),
					   !strncmp(sense, "05/", 3) };
	}
	fclose(fp);
	return n;
}
