// SPDX-License-Identifier: MIT
/*
 * LD_PRELOAD shim for the CLI tests: the file system calls that NFS and
 * some FUSE file systems refuse, refused.  CDT_SHIM_REFUSE lists them:
 *   renameat2  renameat2() with flags fails EINVAL (fs/nfs/dir.c nfs_rename)
 *   link       link() fails EPERM (vfat, many FUSE file systems)
 * Each refusal appends a line to the file CDT_SHIM_LOG names (when set),
 * so a test knows the shim was in the way.
 * Built by the test that needs it: cc -shared -fPIC -o X.so refuse_rename.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int refused(const char *call)
{
	const char *list = getenv("CDT_SHIM_REFUSE");
	const char *log = getenv("CDT_SHIM_LOG");
	FILE *f;

	if (!list || !strstr(list, call))
		return 0;
	if (log && (f = fopen(log, "a"))) {
		fprintf(f, "%s refused\n", call);
		fclose(f);
	}
	return 1;
}

int renameat2(int olddirfd, const char *oldpath, int newdirfd,
	      const char *newpath, unsigned int flags)
{
	int (*real)(int, const char *, int, const char *, unsigned int);

	if (flags && refused("renameat2")) {
		errno = EINVAL;
		return -1;
	}
	real = (int (*)(int, const char *, int, const char *, unsigned int))
		dlsym(RTLD_NEXT, "renameat2");
	return real(olddirfd, oldpath, newdirfd, newpath, flags);
}

int link(const char *oldpath, const char *newpath)
{
	int (*real)(const char *, const char *);

	if (refused("link")) {
		errno = EPERM;
		return -1;
	}
	real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "link");
	return real(oldpath, newpath);
}
