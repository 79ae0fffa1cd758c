// SPDX-License-Identifier: MIT
/*
 * LD_PRELOAD shim for the CLI tests: a filesystem that keeps no holes
 * (vfat, exFAT): fstat() of a regular file says every byte of it is
 * allocated, as a file grown by ftruncate is there.
 * Built by the test that needs it: cc -shared -fPIC -o X.so no_holes.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/stat.h>

int fstat(int fd, struct stat *st)
{
	int (*real)(int, struct stat *) =
		(int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
	int rc = real(fd, st);

	if (!rc && S_ISREG(st->st_mode))
		st->st_blocks = (st->st_size + 511) / 512;
	return rc;
}
