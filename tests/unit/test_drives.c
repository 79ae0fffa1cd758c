// SPDX-License-Identifier: MIT
/*
 * Finding the optical drives of a host in sysfs: the fixture trees
 * (fixtures/sysfs, laid out as the kernel lays out /sys) and small trees
 * made here for the cases they lack (a drive with an sg node only, sr10
 * after sr2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "cdtail.h"
#include "th.h"

static void tree(char *out, size_t len, const char *name)
{
	const char *d = getenv("CDT_FIXTURES");

	snprintf(out, len, "%s/sysfs/%s", d ? d : "fixtures", name);
}

static void check(const struct cdt_drive *d, const char *name, const char *sg)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/%s", name);
	assert_string_equal(d->name, name);
	assert_string_equal(d->path, path);
	assert_string_equal(d->sg, sg);
}

/* cdt_drives_find under root lists exactly these three: name and sg node */
static void find_three(const char *root, struct cdt_drive_list *l,
		       const char *const want[3][2])
{
	char err[256];

	assert_int_equal(cdt_drives_find(root, l, err, sizeof(err)), 0);
	assert_int_equal(l->n, 3);
	for (int i = 0; i < 3; i++)
		check(&l->drives[i], want[i][0], want[i][1]);
}

static void test_rack_fixture(void **state)
{
	struct cdt_drive_list l = CDT_INIT(l);
	char root[512];

	(void)state;
	tree(root, sizeof(root), "rack-three-drives");
	/* three CD-ROMs; the disk between them (type 0) is not one */
	find_three(root, &l, (const char *const[3][2]){
		{ "sr0", "sg0" }, { "sr1", "sg2" }, { "sr2", "sg3" } });
	assert_string_equal(l.drives[0].hctl, "0:0:0:0");
	assert_string_equal(l.drives[1].hctl, "2:0:0:0");
	assert_string_equal(l.drives[0].vendor, "QEMU");
	assert_string_equal(l.drives[0].model, "QEMU CD-ROM");
	cdt_drive_list_free(&l);
	cdt_drive_list_free(&l);
	cdt_drive_list_free(NULL);
}

static void test_no_drive(void **state)
{
	struct cdt_drive_list l = CDT_INIT(l);
	struct cdt_drive_list zero = { 0 };
	char root[512], err[256];

	(void)state;
	tree(root, sizeof(root), "mpath-running");
	assert_int_equal(cdt_drives_find(root, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 0);
	cdt_drive_list_free(&l);
	tree(root, sizeof(root), "sr0-plain");
	assert_int_equal(cdt_drives_find(root, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	cdt_drive_list_free(&l);
	assert_int_equal(cdt_drives_find("/nonexistent", &l, err, sizeof(err)), CDT_EUSAGE);
	assert_non_null(strstr(err, "/nonexistent"));
	assert_int_equal(cdt_drives_find(root, &zero, err, sizeof(err)), CDT_EUSAGE);
}

/* ROOT/REL with its directories: a file holding text, or a symlink to target */
static void make(const char *root, const char *rel, const char *text, const char *target)
{
	char path[1024], cmd[1200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	if (target) {
		assert_int_equal(symlink(target, path), 0);
		return;
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#define put(root, rel, text) make(root, rel, text, NULL)
#define lnk(root, rel, target) make(root, rel, NULL, target)

static void test_sg_only_and_order(void **state)
{
	struct cdt_drive_list l = CDT_INIT(l);
	char root[] = "/tmp/cdtail-drives.XXXXXX";
	static const char *const dev[] = { "h0/0:0:0:0", "h1/1:0:0:0", "h2/2:0:0:0" };
	unsigned int i;

	(void)state;
	assert_non_null(mkdtemp(root));
	for (i = 0; i < 3; i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "devices/%s/type", dev[i]);
		put(root, rel, "5\n");
		snprintf(rel, sizeof(rel), "devices/%s/model", dev[i]);
		put(root, rel, "DRIVE          \n");
	}
	/* sr10 and sr2 with block nodes; the third has only sg7 (no sr_mod) */
	lnk(root, "block/sr10/device", "../../devices/h0/0:0:0:0");
	lnk(root, "block/sr2/device", "../../devices/h1/1:0:0:0");
	lnk(root, "class/scsi_generic/sg7/device", "../../../devices/h2/2:0:0:0");
	lnk(root, "class/scsi_generic/sg1/device", "../../../devices/h1/1:0:0:0");
	find_three(root, &l, (const char *const[3][2]){
		{ "sr2", "sg1" }, { "sr10", "" }, { "sg7", "sg7" } });
	assert_string_equal(l.drives[2].model, "DRIVE");
	cdt_drive_list_free(&l);
	assert_int_equal(th_rmrf(root), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rack_fixture),
		cmocka_unit_test(test_no_drive),
		cmocka_unit_test(test_sg_only_and_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
