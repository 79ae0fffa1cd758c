// SPDX-License-Identifier: MIT
/*
 * LD_PRELOAD shim that makes GNU ddrescue face the same damaged disc, with
 * the same cost per read, as cdtail on the emulated drive (`make bench`,
 * part e; bench/README.md).
 *
 * ddrescue 1.27 opens its input with __open64_2 (open64 under
 * _FORTIFY_SOURCE) and reads it with lseek64 and read(2): nm -D of the
 * installed binary lists open64, __open64_2, lseek64 and read, and strace
 * shows no pread64 or readv on the input.  For the
 * one file named by DDSHIM_FILE the shim
 *  - drops O_DIRECT (the manual's -d; a file in /tmp may refuse it),
 *  - fails a read touching a bad block, or a flaky block that has not yet
 *    failed T times, with EIO, as the emulated drive fails the READ: the
 *    blocks are looked at in order and the first failing one decides, so
 *    only that one's flaky count goes up (src/lib/sim/read.c);
 *  - appends one line per read to DDSHIM_TRACE in the emulated drive's
 *    trace format ("28 lba=L blocks=N sense=03/11/00" or "sense=00/00/00"),
 *    so that one awk script reads both tools' traces;
 *  - keeps the flaky counts in DDSHIM_STATE, so that two ddrescue runs on
 *    the same disc (the manual's -n, then -d -r1) see one disc.
 * Nothing sleeps: the cost (DDSHIM_COST=OK_US/FAIL_MS, as sim's cost=) is
 * summed from the trace afterwards, exactly as the emulated drive's.
 *
 * DDSHIM_BAD=A-B[:A-B...], DDSHIM_FLAKY=A-B:T, DDSHIM_BS (default 2048).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_BAD 4096

struct range {
	uint64_t a, b;
};

static struct {
	int ready;
	const char *file;
	int fd;
	uint64_t bs;
	struct range bad[MAX_BAD];
	size_t nbad;
	struct range flaky;
	unsigned int flaky_t;
	unsigned int *flaky_n;
	FILE *trace;
	const char *state;
} sh = { .fd = -1 };

static ssize_t (*real_read)(int, void *, size_t);
static int (*real_open64)(const char *, int, ...);
static int (*real_open)(const char *, int, ...);
static int (*real_open64_2)(const char *, int);

static int parse_range(const char *p, struct range *r, const char **end)
{
	char *e;

	r->a = strtoull(p, &e, 10);
	if (*e != '-')
		return -1;
	r->b = strtoull(e + 1, &e, 10);
	*end = e;
	return r->a <= r->b ? 0 : -1;
}

static void load_state(void)
{
	uint64_t n = sh.flaky.b - sh.flaky.a + 1;
	FILE *f;

	sh.flaky_n = calloc(n, sizeof(*sh.flaky_n));
	if (!sh.flaky_n || !sh.state)
		return;
	f = fopen(sh.state, "r");
	if (!f)
		return;
	if (fread(sh.flaky_n, sizeof(*sh.flaky_n), n, f) != n)
		memset(sh.flaky_n, 0, n * sizeof(*sh.flaky_n));
	fclose(f);
}

static void save_state(void)
{
	FILE *f;

	if (!sh.flaky_n || !sh.state)
		return;
	f = fopen(sh.state, "w");
	if (!f)
		return;
	fwrite(sh.flaky_n, sizeof(*sh.flaky_n), sh.flaky.b - sh.flaky.a + 1, f);
	fclose(f);
}

static void setup(void)
{
	const char *p, *e;

	if (sh.ready)
		return;
	sh.ready = 1;
	real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	real_open64 = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real_open64_2 = (int (*)(const char *, int))dlsym(RTLD_NEXT, "__open64_2");
	sh.file = getenv("DDSHIM_FILE");
	p = getenv("DDSHIM_BS");
	sh.bs = p ? strtoull(p, NULL, 10) : 2048;
	if (!sh.bs)
		sh.bs = 2048;
	for (p = getenv("DDSHIM_BAD"); p && *p && sh.nbad < MAX_BAD; p = e + (*e == ':')) {
		if (parse_range(p, &sh.bad[sh.nbad], &e))
			break;
		sh.nbad++;
	}
	p = getenv("DDSHIM_FLAKY");
	if (p && !parse_range(p, &sh.flaky, &e) && *e == ':') {
		sh.flaky_t = (unsigned int)strtoul(e + 1, NULL, 10);
		sh.state = getenv("DDSHIM_STATE");
		load_state();
	}
	p = getenv("DDSHIM_TRACE");
	if (p)
		sh.trace = fopen(p, "a");
}

__attribute__((destructor)) static void shim_fini(void)
{
	save_state();
	if (sh.trace)
		fclose(sh.trace);
}

static int is_input(const char *path)
{
	return sh.file && path && !strcmp(path, sh.file);
}

static int do_open(int (*fn)(const char *, int, ...), const char *path,
		   int flags, mode_t mode)
{
	int fd;

	setup();
	if (is_input(path))
		flags &= ~O_DIRECT;
	fd = fn(path, flags, mode);
	if (fd >= 0 && is_input(path))
		sh.fd = fd;
	return fd;
}

/* open64 and open: the mode is there only with O_CREAT or O_TMPFILE */
#define OPEN_SHIM(name, real)						\
	int name(const char *path, int flags, ...)			\
	{								\
		mode_t mode = 0;					\
		va_list ap;						\
									\
		va_start(ap, flags);					\
		if (flags & (O_CREAT | O_TMPFILE))			\
			mode = va_arg(ap, mode_t);			\
		va_end(ap);						\
		setup();						\
		return do_open(real, path, flags, mode);		\
	}

OPEN_SHIM(open64, real_open64)
OPEN_SHIM(open, real_open)

static int open64_2_shim(const char *path, int flags, ...)
{
	return real_open64_2(path, flags);
}

int __open64_2(const char *path, int flags)
{
	setup();
	return do_open(open64_2_shim, path, flags, 0);
}

static int in_bad(uint64_t b)
{
	size_t i;

	for (i = 0; i < sh.nbad; i++)
		if (b >= sh.bad[i].a && b <= sh.bad[i].b)
			return 1;
	return 0;
}

/* Does block b fail this time?  Counts a flaky block's failure. */
static int block_fails(uint64_t b)
{
	if (in_bad(b))
		return 1;
	if (sh.flaky_n && b >= sh.flaky.a && b <= sh.flaky.b &&
	    sh.flaky_n[b - sh.flaky.a] < sh.flaky_t) {
		sh.flaky_n[b - sh.flaky.a]++;
		return 1;
	}
	return 0;
}

ssize_t read(int fd, void *buf, size_t len)
{
	off_t pos;
	uint64_t lba, n, b;
	int fail = 0;

	setup();
	if (fd != sh.fd || fd < 0 || !len)
		return real_read(fd, buf, len);
	pos = lseek(fd, 0, SEEK_CUR);
	if (pos < 0)
		return real_read(fd, buf, len);
	lba = (uint64_t)pos / sh.bs;
	n = ((uint64_t)pos + len + sh.bs - 1) / sh.bs - lba;
	for (b = lba; b < lba + n && !fail; b++)
		fail = block_fails(b);
	if (sh.trace)
		fprintf(sh.trace, "28 lba=%llu blocks=%llu sense=%s\n",
			(unsigned long long)lba, (unsigned long long)n,
			fail ? "03/11/00" : "00/00/00");
	if (fail) {
		errno = EIO;
		return -1;
	}
	return real_read(fd, buf, len);
}
