// SPDX-License-Identifier: MIT
/*
 * Error messages that name their own failure (issue 32): a write or read
 * that comes back short sets no errno, so a message printing strerror
 * there printed whatever an earlier call left.  The system calls are
 * replaced here (this program's pwrite, pread and write are the ones
 * libcdtail.a links to): armed for files whose name ends in a given
 * suffix, they first leave a stale errno (EAGAIN), then answer short;
 * everything else goes to the kernel.  Cases: the file sink's pwrite that
 * writes nothing (engine/sink.c), image --raw reading a BIN back that
 * ends early (jobs/rawimage.c), tail's length note written short
 * (jobs/tail.c).
 */
#include <setjmp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "cdtail.h"
#include "th.h"

#define BS 2048
#define BLOCKS 200

enum short_call { NONE, PWRITE_ZERO, PREAD_HALF, WRITE_SHORT };

static enum short_call armed;
static const char *armed_suffix;
static unsigned int shorted;	/* calls answered short */

/* fd is open on a file whose path ends in armed_suffix */
static bool armed_for(int fd)
{
	char link[64], path[4096];
	size_t n = strlen(armed_suffix);
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return false;
	path[len] = '\0';
	return (size_t)len >= n && !strcmp(path + len - (ssize_t)n, armed_suffix);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	if (armed == PWRITE_ZERO && n && armed_for(fd)) {
		shorted++;
		errno = EAGAIN;
		return 0;
	}
	return syscall(SYS_pwrite64, fd, buf, n, off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	if (armed == PREAD_HALF && n > 1 && armed_for(fd)) {
		shorted++;
		errno = EAGAIN;
		return syscall(SYS_pread64, fd, buf, n / 2, off);
	}
	return syscall(SYS_pread64, fd, buf, n, off);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	if (armed == WRITE_SHORT && n > 3 && armed_for(fd)) {
		shorted++;
		errno = EAGAIN;
		return syscall(SYS_write, fd, buf, 3);
	}
	return syscall(SYS_write, fd, buf, n);
}

/* c for files ending in suffix from now on; NONE keeps the count */
static void arm(enum short_call c, const char *suffix)
{
	armed = c;
	armed_suffix = suffix;
	if (c != NONE)
		shorted = 0;
}

static char dir[64];

static void put_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(syscall(SYS_write, fd, data, len), (long)len);
	close(fd);
}

static uint8_t *pattern(size_t len, unsigned int seed)
{
	uint8_t *p = malloc(len);
	size_t i;

	assert_non_null(p);
	for (i = 0; i < len; i++)
		p[i] = (uint8_t)((i * 131 + seed * 7 + (i >> 11)) ^ (i >> 5));
	return p;
}

static int setup(void **state)
{
	(void)state;
	return th_tmpdir(dir, sizeof(dir), "errno");
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

/* image: OUT's pwrite takes nothing; the message says why, not EAGAIN's words. */
static void test_sink_write_took_nothing(void **state)
{
	struct cdt_image_opts o = CDT_INIT(o);
	struct cdt_image_result r = CDT_INIT(r);
	char img[128], out[128];
	uint8_t *data = pattern((size_t)BLOCKS * BS, 1);
	struct cdt_dev *dev;
	int rc;

	(void)state;
	snprintf(img, sizeof(img), "%s/disc.img", dir);
	snprintf(out, sizeof(out), "%s/zero.iso", dir);
	put_file(img, data, (size_t)BLOCKS * BS);
	free(data);
	dev = th_open_sim(img, "");
	arm(PWRITE_ZERO, "/zero.iso");
	rc = cdt_image(dev, out, &o, &r);
	arm(NONE, "");
	assert_true(shorted >= 1);
	assert_int_equal(rc, CDT_EIO);
	if (!strstr(cdt_errmsg(dev), "cannot write the output") ||
	    !strstr(cdt_errmsg(dev), strerror(ENOSPC)) || strstr(cdt_errmsg(dev), strerror(EAGAIN)))
		fail_msg("message '%s'", cdt_errmsg(dev));
	cdt_image_result_free(&r);
	cdt_close(dev);
}

/*
 * image --raw: the BIN read back for its checksums ends early.  Only what
 * waited behind a failed read is read back (rawhash.h): a bad sector
 * makes the run read back the sectors after it.
 */
static void test_raw_readback_short(void **state)
{
	static const char sheet[] = "FILE \"a.bin\" BINARY\n  TRACK 01 AUDIO\n"
		"    INDEX 01 00:00:00\n";
	struct cdt_raw_opts o = CDT_INIT(o);
	struct cdt_raw_result r = CDT_INIT(r);
	char bin[128], cue[128], out[128];
	uint8_t *data = pattern((size_t)300 * 2352, 2);
	struct cdt_dev *dev;
	int rc;

	(void)state;
	snprintf(bin, sizeof(bin), "%s/a.bin", dir);
	snprintf(cue, sizeof(cue), "%s/a.cue", dir);
	snprintf(out, sizeof(out), "%s/back.cue", dir);
	put_file(bin, data, (size_t)300 * 2352);
	put_file(cue, sheet, sizeof(sheet) - 1);
	free(data);
	dev = th_open_sim(cue, "bad=100-100");
	arm(PREAD_HALF, "/back.bin");
	rc = cdt_image_raw(dev, out, &o, &r);
	arm(NONE, "");
	assert_true(shorted >= 1);
	assert_int_equal(rc, CDT_EIO);
	if (!strstr(cdt_errmsg(dev), "back.bin: unexpected end of file at byte") ||
	    strstr(cdt_errmsg(dev), strerror(EAGAIN)))
		fail_msg("message '%s' (%u short reads)", cdt_errmsg(dev), shorted);
	cdt_raw_result_free(&r);
	cdt_close(dev);
}

/* tail: IMAGE.cdtail-tail, its length note, written short. */
static void test_tail_note_short(void **state)
{
	struct cdt_read_opts rd = { .size = sizeof(rd), .retries = -1 };
	struct cdt_tail_result t = CDT_INIT(t);
	char img[128], out[128], note[160];
	uint8_t *data = pattern((size_t)BLOCKS * BS, 3);
	struct cdt_dev *dev;
	int rc;

	(void)state;
	snprintf(img, sizeof(img), "%s/t.img", dir);
	snprintf(out, sizeof(out), "%s/t.iso", dir);
	snprintf(note, sizeof(note), "%s.cdtail-tail", out);
	put_file(img, data, (size_t)BLOCKS * BS);
	put_file(out, data, (size_t)(BLOCKS - 5) * BS);
	free(data);
	dev = th_open_sim(img, "hide=5");
	arm(WRITE_SHORT, ".cdtail-tail");
	rc = cdt_tail(dev, out, &rd, &t);
	arm(NONE, "");
	assert_int_equal(shorted, 1);
	assert_int_equal(rc, CDT_EIO);
	if (!strstr(cdt_errmsg(dev), "t.iso.cdtail-tail: short write") ||
	    strstr(cdt_errmsg(dev), strerror(EAGAIN)))
		fail_msg("message '%s'", cdt_errmsg(dev));
	cdt_tail_result_free(&t);
	cdt_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sink_write_took_nothing),
		cmocka_unit_test(test_raw_readback_short),
		cmocka_unit_test(test_tail_note_short),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
