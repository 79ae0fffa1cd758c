/* SPDX-License-Identifier: MIT */
/*
 * th: what the unit tests share.  The Makefile links every .c file of tests/unit
 * that is not a test_*.c (UNIT_HELPERS) into each test, so a helper here
 * is written once: scratch folders, byte order, the exact-size copies the
 * parser tests feed in, and the emulated drive driven through its seam.
 * Include it after <cmocka.h>: its checks fail the running test.
 */
#ifndef CDTAIL_TH_H
#define CDTAIL_TH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cdt_cmd;
struct cdt_dev;
struct cdt_transport;

#define TH_N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- files and folders ---- */

/* mkdtemp of /tmp/cdtail-TAG-XXXXXX into dir; 0 or -1. */
int th_tmpdir(char *dir, size_t len, const char *tag);
/* DIR/NAME into buf, which must hold it. */
void th_path(char *buf, size_t len, const char *dir, const char *name);
/* rm -rf DIR; 0 or -1. */
int th_rmrf(const char *dir);
/* n pseudo-random bytes from seed (a fixed LCG: the same bytes every run). */
uint8_t *th_random(size_t n, unsigned int seed);
void th_write_file(const char *path, const void *data, size_t n);
/* PATH is nblocks of bs: [first_bad, last_bad] zeros, the rest want's blocks. */
void th_expect_image(const char *path, const uint8_t *want, size_t bs,
		     uint64_t nblocks, uint64_t first_bad, uint64_t last_bad);

/*
 * The imaging tests' fixture: a scratch folder DIR (/tmp/cdtail-TAG-*) with
 * the paths of disc.img, out.img, out.map and trace in it, and disc.img
 * written from data, len pseudo-random bytes of seed (th_random).
 */
struct th_disc {
	char dir[64];
	char img[96], out[96], map[96], trace[96];
	uint8_t *data;
};

/* The fixture made and disc.img written; NULL if it failed. */
struct th_disc *th_disc_new(const char *tag, size_t len, unsigned int seed);
/* DIR removed, d freed; 0, or -1 if DIR could not be removed. */
int th_disc_free(struct th_disc *d);

/* ---- bytes ---- */

uint16_t th_be16(const uint8_t *p);
uint32_t th_be32(const uint8_t *p);
void th_put_be32(uint8_t *p, uint32_t v);
void th_put_le32(uint8_t *p, uint32_t v);
/* A heap copy of exactly n bytes, so that reading byte n is an error. */
uint8_t *th_exact(const uint8_t *src, size_t n);

/* buf holds exactly these bytes */
#define TH_EXPECT_BYTES(buf, ...)					\
	do {								\
		static const uint8_t want_[] = { __VA_ARGS__ };		\
		assert_memory_equal((buf), want_, sizeof(want_));	\
	} while (0)

/* buf[at] is want, for each pair: TH_EXPECT_AT(buf, { 0, 0x70 }, { 7, 10 }) */
struct th_byte {
	size_t at;
	uint8_t want;
};
void th_expect_at(const uint8_t *buf, const struct th_byte *b, size_t n);
#define TH_EXPECT_AT(buf, ...)						\
	th_expect_at((buf), (const struct th_byte[]){ __VA_ARGS__ },	\
		     sizeof((const struct th_byte[]){ __VA_ARGS__ }) /	\
		     sizeof(struct th_byte))

/*
 * fn on every prefix of buf, from none to all of it, each in an exact-size
 * heap buffer, so valgrind and ASan catch a read past the given length.
 */
typedef void th_prefix_fn(const uint8_t *p, size_t len, void *ctx);
void th_each_prefix(const uint8_t *buf, size_t len, th_prefix_fn *fn, void *ctx);
/* a parser's return on every prefix: -1 below min_len, 0 from it on */
typedef int th_parse_fn(const uint8_t *p, size_t len);
void th_expect_prefixes(const uint8_t *buf, size_t len, size_t min_len,
			th_parse_fn *parse);

/* ---- the emulated drive ---- */

/* One READ (10) or READ (12) in the emulated drive's trace= log. */
struct th_read {
	uint64_t lba, n;
	bool ok;		/* good (sense 00/00/00) */
	bool end;		/* failed with an end-of-medium sense (05/...) */
};

/* The READs of the trace log at PATH, in order, the first max into r; how many. */
size_t th_read_trace(const char *path, struct th_read *r, size_t max);

/* cdt_sim_open of the formatted spec; err is "" unless it failed. */
int th_sim_open(struct cdt_transport **tp, char *err, size_t errlen,
		const char *fmt, ...);
/* cdt_open of sim:IMG,cost=0/0[,KEYS]; fails the test if it fails */
struct cdt_dev *th_open_sim(const char *img, const char *keys);
/* One command through the seam; resid and status poisoned beforehand. */
int th_exec(struct cdt_transport *t, struct cdt_cmd *cmd, const uint8_t *cdb,
	    unsigned int cdb_len, void *buf, uint32_t buf_len);
void th_expect_good(const struct cdt_cmd *cmd);
/* CHECK CONDITION with 18 bytes of fixed sense KEY/ASC/ASCQ */
void th_expect_sense(const struct cdt_cmd *cmd, uint8_t key, uint8_t asc,
		     uint8_t ascq);

#endif
