// SPDX-License-Identifier: MIT
/*
 * The optical drives of a host, from sysfs: a SCSI device whose "type" is
 * 5 (MMC, CD/DVD: SPC-4 peripheral device type) found through its sr block
 * node (block/srN/device) or its sg node (class/scsi_generic/sgN/device),
 * as the Linux sr and sg drivers publish them.  Both links lead to the
 * same SCSI device directory; it is the key that merges them.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cdtail.h"
#include "core/abi.h"

struct found {
	struct cdt_drive d;
	char key[PATH_MAX];	/* realpath of the SCSI device directory */
};

struct finder {
	const char *root;
	struct found *f;
	size_t n, cap;
};

/* First line of DIR/NAME, trailing blanks cut; -1 when unreadable. */
static int read_line(const char *dir, const char *name, char *out, size_t len)
{
	char path[PATH_MAX + 64];
	size_t n;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "re");
	if (!fp)
		return -1;
	if (!fgets(out, (int)len, fp))
		out[0] = '\0';
	fclose(fp);
	n = strlen(out);
	while (n && isspace((unsigned char)out[n - 1]))
		out[--n] = '\0';
	return 0;
}

static struct found *lookup(struct finder *fi, const char *key)
{
	struct found *f;
	size_t i;

	for (i = 0; i < fi->n; i++)
		if (!strcmp(fi->f[i].key, key))
			return &fi->f[i];
	if (fi->n == fi->cap) {
		size_t cap = fi->cap ? 2 * fi->cap : 8;

		f = realloc(fi->f, cap * sizeof(*f));
		if (!f)
			return NULL;
		fi->f = f;
		fi->cap = cap;
	}
	f = &fi->f[fi->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "%s", key);
	return f;
}

/* ROOT/CLASS/NAME/device, when it is a type 5 SCSI device. */
static int add(struct finder *fi, const char *class, const char *name, bool block)
{
	char link[PATH_MAX], dev[PATH_MAX], type[16];
	struct found *f;
	const char *base;

	if (strlen(name) >= CDT_DRIVE_NAME_MAX)
		return 0;
	snprintf(link, sizeof(link), "%s/%s/%s/device", fi->root, class, name);
	if (!realpath(link, dev) || read_line(dev, "type", type, sizeof(type)) ||
	    strcmp(type, "5"))
		return 0;
	f = lookup(fi, dev);
	if (!f)
		return CDT_ENOMEM;
	if (block || !f->d.name[0]) {
		/* the precision tells the compiler what the check above did */
		snprintf(f->d.name, sizeof(f->d.name), "%.*s",
			 CDT_DRIVE_NAME_MAX - 1, name);
		snprintf(f->d.path, sizeof(f->d.path), "/dev/%.*s",
			 CDT_DRIVE_NAME_MAX - 1, name);
	}
	if (!block)
		snprintf(f->d.sg, sizeof(f->d.sg), "%.*s", CDT_DRIVE_NAME_MAX - 1,
			 name);
	base = strrchr(dev, '/');
	snprintf(f->d.hctl, sizeof(f->d.hctl), "%.*s", CDT_DRIVE_NAME_MAX - 1,
		 base ? base + 1 : dev);
	read_line(dev, "vendor", f->d.vendor, sizeof(f->d.vendor));
	read_line(dev, "model", f->d.model, sizeof(f->d.model));
	return 0;
}

static int scan(struct finder *fi, const char *class, const char *prefix, bool block)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", fi->root, class);
	d = opendir(path);
	if (!d)
		return 0;	/* no sr or no sg driver loaded: nothing there */
	while (!rc && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			rc = add(fi, class, e->d_name, block);
	closedir(d);
	return rc;
}

/* sr before sg, then by the number: sr2 before sr10. */
static int by_name(const void *a, const void *b)
{
	const struct cdt_drive *x = a, *y = b;
	int sx = strncmp(x->name, "sr", 2) != 0, sy = strncmp(y->name, "sr", 2) != 0;
	size_t lx = strlen(x->name), ly = strlen(y->name);

	if (sx != sy)
		return sx - sy;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->name, y->name);
}

int cdt_drives_find(const char *sysfs_root, struct cdt_drive_list *list,
		    char *err, size_t errlen)
{
	struct finder fi = { .root = sysfs_root ? sysfs_root : "/sys" };
	struct cdt_drive_list out;
	struct stat st;
	size_t i;
	int rc;

	if (cdt_abi_res(NULL, list, &out, sizeof(out), "cdt_drives_find")) {
		snprintf(err, errlen, "a drive list without CDT_INIT()");
		return CDT_EUSAGE;
	}
	if (stat(fi.root, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s is not a sysfs directory", fi.root);
		return CDT_EUSAGE;
	}
	rc = scan(&fi, "block", "sr", true);
	if (!rc)
		rc = scan(&fi, "class/scsi_generic", "sg", false);
	if (!rc && fi.n) {
		out.drives = calloc(fi.n, sizeof(*out.drives));
		if (!out.drives)
			rc = CDT_ENOMEM;
	}
	for (i = 0; !rc && i < fi.n; i++)
		out.drives[i] = fi.f[i].d;
	if (!rc) {
		out.n = fi.n;
		if (out.n)
			qsort(out.drives, out.n, sizeof(*out.drives), by_name);
	} else {
		snprintf(err, errlen, "out of memory");
	}
	free(fi.f);
	cdt_abi_out(list, &out, sizeof(out));
	return rc;
}

void cdt_drive_list_free(struct cdt_drive_list *list)
{
	if (!list)
		return;
	free(list->drives);
	list->drives = NULL;
	list->n = 0;
}
