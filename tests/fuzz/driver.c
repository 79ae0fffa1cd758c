// SPDX-License-Identifier: MIT
/*
 * Replay driver for the fuzz targets without libFuzzer: every file named
 * on the command line (directories are walked one level deep) is fed to
 * LLVMFuzzerTestOneInput, in a buffer of exactly its size so the
 * sanitizers see any read past it.  Exits non-zero when a file cannot be
 * read; a crash is the sanitizers' to report.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path, unsigned long *count)
{
	uint8_t *buf = NULL;
	long size;
	FILE *f;
	int rc = -1;

	f = fopen(path, "rb");
	if (!f)
		goto out;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		goto out;
	/* malloc(0) may return NULL: keep one byte, pass a size of 0 */
	buf = malloc(size ? (size_t)size : 1);
	if (!buf)
		goto out;
	if (size && fread(buf, (size_t)size, 1, f) != 1)
		goto out;
	LLVMFuzzerTestOneInput(buf, (size_t)size);
	(*count)++;
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "fuzz replay: cannot read %s: %s\n", path,
			strerror(errno ? errno : EIO));
	free(buf);
	if (f)
		fclose(f);
	return rc;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files of a directory in name order, so a replay is reproducible. */
static int run_dir(const char *dir, unsigned long *count)
{
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	DIR *d;
	int rc = 0;

	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "fuzz replay: cannot open %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char **grown;

		if (de->d_name[0] == '.')
			continue;
		grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown) {
			rc = -1;
			break;
		}
		names = grown;
		if (asprintf(&names[n], "%s/%s", dir, de->d_name) < 0) {
			rc = -1;
			break;
		}
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		if (!rc && run_file(names[i], count))
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned long count = 0;
	struct stat st;
	int i, rc = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st)) {
			/* an absent regress/ directory is not an error */
			if (errno == ENOENT)
				continue;
			fprintf(stderr, "fuzz replay: %s: %s\n", argv[i],
				strerror(errno));
			rc = 1;
		} else if (S_ISDIR(st.st_mode) ? run_dir(argv[i], &count) :
			   run_file(argv[i], &count)) {
			rc = 1;
		}
	}
	printf("%s: %lu inputs replayed\n", argv[0], count);
	return rc;
}
