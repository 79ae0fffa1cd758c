// SPDX-License-Identifier: MIT
/*
 * LD_PRELOAD shim for the CLI tests: a file system that is (nearly) full.
 *   CDT_SHIM_FREE=BYTES      statvfs() says BYTES are free
 *   CDT_SHIM_FULL_AFTER=N    pwrite() fails ENOSPC once N bytes have been
 *                            written with it; from then on, fsync() of a
 *                            map's temporary file (*.cdtail-*) fails too
 * Built by the test that needs it: cc -shared -fPIC -o X.so full_disk.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/statvfs.h>

static unsigned long long written;
static int full;

static int env_ull(const char *name, unsigned long long *v)
{
	const char *s = getenv(name);

	if (!s || !*s)
		return 0;
	*v = strtoull(s, NULL, 10);
	return 1;
}

int statvfs(const char *path, struct statvfs *buf)
{
	int (*real)(const char *, struct statvfs *) =
		(int (*)(const char *, struct statvfs *))dlsym(RTLD_NEXT, "statvfs");
	unsigned long long free_bytes;
	int rc = real(path, buf);

	if (!rc && env_ull("CDT_SHIM_FREE", &free_bytes))
		buf->f_bavail = free_bytes / buf->f_frsize;
	return rc;
}

ssize_t pwrite(int fd, const void *b, size_t n, off_t off)
{
	ssize_t (*real)(int, const void *, size_t, off_t) =
		(ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	unsigned long long after;
	ssize_t w;

	if (env_ull("CDT_SHIM_FULL_AFTER", &after) && written + n > after) {
		full = 1;
		errno = ENOSPC;
		return -1;
	}
	w = real(fd, b, n, off);
	if (w > 0)
		written += (unsigned long long)w;
	return w;
}

/*
 * Once full, a map's new temporary file cannot be made durable either:
 * its fsync() fails ENOSPC, as a delayed allocation does (stdio's own
 * writes do not pass through an LD_PRELOAD shim).
 */
int fsync(int fd)
{
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	char link[64], path[512];
	ssize_t len;

	if (full) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		len = readlink(link, path, sizeof(path) - 1);
		if (len > 0) {
			path[len] = '\0';
			if (strstr(path, ".cdtail-")) {
				errno = ENOSPC;
				return -1;
			}
		}
	}
	return real(fd);
}
