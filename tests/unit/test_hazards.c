// SPDX-License-Identifier: MIT
/*
 * Unit tests of the hazards scan: the sysfs value parsers, the evaluation
 * of hand-made node lists, and whole scans over the fixture trees in
 * $CDT_FIXTURES/sysfs (set by `make unit`).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>
#include "cdtail-hazards.h"
#include "th.h"
#include "hazards/hazards.h"

/* ---- parsers ------------------------------------------------------------ */

static void test_parse_write_cache(void **state)
{
	(void)state;
	assert_int_equal(hz_parse_write_cache("write back\n"), 1);
	assert_int_equal(hz_parse_write_cache("write back"), 1);
	assert_int_equal(hz_parse_write_cache("write through\n"), 0);
	assert_int_equal(hz_parse_write_cache("write back \n"), -1);
	assert_int_equal(hz_parse_write_cache("Write Back\n"), -1);
	assert_int_equal(hz_parse_write_cache("write back\n\n"), -1);
	assert_int_equal(hz_parse_write_cache(""), -1);
	assert_int_equal(hz_parse_write_cache(NULL), -1);
}

static void test_parse_bool01(void **state)
{
	(void)state;
	assert_int_equal(hz_parse_bool01("1\n"), 1);
	assert_int_equal(hz_parse_bool01("0\n"), 0);
	assert_int_equal(hz_parse_bool01("0"), 0);
	assert_int_equal(hz_parse_bool01("2\n"), -1);
	assert_int_equal(hz_parse_bool01("01\n"), -1);
	assert_int_equal(hz_parse_bool01("\n"), -1);
	assert_int_equal(hz_parse_bool01(NULL), -1);
}

static void test_parse_cache_type(void **state)
{
	(void)state;
	assert_int_equal(hz_parse_cache_type("write back\n"), 1);
	assert_int_equal(hz_parse_cache_type("write back, no read (daft)\n"), 1);
	assert_int_equal(hz_parse_cache_type("write through\n"), 0);
	assert_int_equal(hz_parse_cache_type("none\n"), 0);
	assert_int_equal(hz_parse_cache_type("temporary write back\n"), -1);
	assert_int_equal(hz_parse_cache_type("write\n"), -1);
	assert_int_equal(hz_parse_cache_type(NULL), -1);
}

static void test_parse_ulong(void **state)
{
	(void)state;
	assert_int_equal(hz_parse_ulong("128\n"), 128);
	assert_int_equal(hz_parse_ulong("0"), 0);
	assert_int_equal(hz_parse_ulong("-1\n"), -1);
	assert_int_equal(hz_parse_ulong("12a\n"), -1);
	assert_int_equal(hz_parse_ulong(""), -1);
	assert_int_equal(hz_parse_ulong("9999999999\n"), -1);
	assert_int_equal(hz_parse_ulong(NULL), -1);
}

static void test_parse_devt(void **state)
{
	unsigned int ma = 99, mi = 99;

	(void)state;
	assert_int_equal(hz_parse_devt("8:16\n", &ma, &mi), 0);
	assert_int_equal(ma, 8);
	assert_int_equal(mi, 16);
	assert_int_equal(hz_parse_devt("254:0", &ma, &mi), 0);
	assert_int_equal(ma, 254);
	assert_int_equal(hz_parse_devt("8\n", &ma, &mi), -1);
	assert_int_equal(hz_parse_devt(":1", &ma, &mi), -1);
	assert_int_equal(hz_parse_devt("8:", &ma, &mi), -1);
	assert_int_equal(hz_parse_devt("8:x", &ma, &mi), -1);
	assert_int_equal(hz_parse_devt("123456789012:1", &ma, &mi), -1);
	assert_int_equal(hz_parse_devt(NULL, &ma, &mi), -1);
}

static void test_read_attr(void **state)
{
	char dir[] = "/tmp/cdt-hz-XXXXXX", path[64], buf[8];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/v", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("write back\n", f);
	fclose(f);
	/* a value longer than the buffer is cut, never overrun */
	assert_int_equal(hz_read_attr(dir, "v", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "write b");
	assert_int_equal(hz_read_attr(dir, "missing", buf, sizeof(buf)), -1);
	assert_string_equal(buf, "");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("\n", f);
	fclose(f);
	assert_int_equal(hz_read_attr(dir, "v", buf, sizeof(buf)), -1);
	unlink(path);
	rmdir(dir);
}

/* ---- evaluation of hand-made node lists ---------------------------------- */

static struct cdt_hazard_node blank_node(const char *name, int parent)
{
	struct cdt_hazard_node n;

	memset(&n, 0, sizeof(n));
	snprintf(n.name, sizeof(n.name), "%s", name);
	n.parent = parent;
	n.write_back = n.fua = n.rotational = -1;
	n.cache_volatile = n.wce = n.dpofua = -1;
	n.queue_depth = -1;
	return n;
}

/* Sorted, comma-joined ids of a list, for one-line comparisons. */
static void ids_of(const struct cdt_hazard_list *l, char *out, size_t len)
{
	const char *ids[64];
	size_t i, j, n = l->n_hazards < 64 ? l->n_hazards : 64;

	for (i = 0; i < n; i++)
		ids[i] = l->hazards[i].id;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(ids[j - 1], ids[j]) > 0; j--) {
			const char *t = ids[j];

			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i && !strcmp(ids[i], ids[i - 1]))
			continue;
		snprintf(out + strlen(out), len - strlen(out), "%s%s",
			 out[0] ? "," : "", ids[i]);
	}
}

static void evaluate(struct cdt_hazard_node *nodes, size_t n, char *ids,
		     size_t len)
{
	struct cdt_hazard_list l = CDT_INIT(l);

	l.nodes = malloc(n * sizeof(*nodes));
	assert_non_null(l.nodes);
	memcpy(l.nodes, nodes, n * sizeof(*nodes));
	l.n_nodes = n;
	assert_int_equal(hz_evaluate(&l), 0);
	ids_of(&l, ids, len);
	cdt_hazard_list_free(&l);
}

static void test_caching_page_only(void **state)
{
	struct cdt_hazard_node n = blank_node("sim", -1);
	struct mmc_mode_caching mc = { .dpofua = false, .have_caching = true,
				       .wce = true };
	char ids[256];

	(void)state;
	hz_apply_caching(&n, &mc);
	assert_true(n.mode_sense_done);
	evaluate(&n, 1, ids, sizeof(ids));
	assert_string_equal(ids, "write-cache-no-fua");

	/* what the emulated drive answers: WCE 0, DPOFUA 0 */
	mc.wce = false;
	hz_apply_caching(&n, &mc);
	evaluate(&n, 1, ids, sizeof(ids));
	assert_string_equal(ids, "");

	/* no caching page in the answer: WCE unknown, nothing concluded */
	mc.have_caching = false;
	mc.wce = true;
	hz_apply_caching(&n, &mc);
	assert_int_equal(n.wce, -1);
	assert_string_not_equal(n.mode_sense_note, "");
	evaluate(&n, 1, ids, sizeof(ids));
	assert_string_equal(ids, "");
}

static void test_wce_against_write_through(void **state)
{
	struct cdt_hazard_node n = blank_node("sda", -1);
	struct mmc_mode_caching mc = { .dpofua = true, .have_caching = true,
				       .wce = true };
	char ids[256];

	(void)state;
	n.write_back = 0;
	n.fua = 1;
	hz_apply_caching(&n, &mc);
	evaluate(&n, 1, ids, sizeof(ids));
	assert_string_equal(ids, "flush-disabled");

	/* the kernel sends FUA, the device says it has no DPOFUA */
	n.write_back = 1;
	mc.dpofua = false;
	hz_apply_caching(&n, &mc);
	evaluate(&n, 1, ids, sizeof(ids));
	assert_string_equal(ids, "fua-not-supported");
}

static void test_unknowns_conclude_nothing(void **state)
{
	struct cdt_hazard_node n[3];
	char ids[256];

	(void)state;
	n[0] = blank_node("dm-0", -1);
	n[0].is_dm = n[0].is_multipath = true;
	n[0].write_back = 1;
	n[0].fua = 1;
	n[1] = blank_node("sda", 0);
	n[1].role = CDT_NODE_PATH;
	n[2] = blank_node("sdb", 0);
	n[2].role = CDT_NODE_PATH;
	/* every path file missing: no state, cache or queue finding */
	evaluate(n, 3, ids, sizeof(ids));
	assert_string_equal(ids, "");

	/* one path known offline, the other unknown: failed, but not "none" */
	strcpy(n[1].state, "offline");
	evaluate(n, 3, ids, sizeof(ids));
	assert_string_equal(ids, "path-failed");
}

static void test_map_without_paths(void **state)
{
	struct cdt_hazard_node n = blank_node("dm-0", -1);
	char ids[256];

	(void)state;
	n.is_dm = n.is_multipath = true;
	evaluate(&n, 1, ids, sizeof(ids));
	assert_string_equal(ids, "no-active-path");
}

static void test_severity_names(void **state)
{
	(void)state;
	assert_string_equal(cdt_hazard_severity_name(CDT_HAZARD_INFO), "info");
	assert_string_equal(cdt_hazard_severity_name(CDT_HAZARD_WARNING), "warning");
	assert_string_equal(cdt_hazard_severity_name(CDT_HAZARD_DANGER), "danger");
	assert_string_equal(cdt_hazard_severity_name((enum cdt_hazard_severity)7),
			    "unknown");
}

/* ---- scans over the fixture trees ---------------------------------------- */

static int scan_tree(const char *tree, const char *dev,
		     struct cdt_hazard_list *l, char *err, size_t errlen)
{
	const char *fix = getenv("CDT_FIXTURES");
	char root[4096];
	struct cdt_hazard_opts o = { .size = sizeof(o), .sysfs_root = root };

	snprintf(root, sizeof(root), "%s/sysfs/%s", fix ? fix : "fixtures",
		 tree);
	return cdt_hazards_scan(dev, &o, l, err, errlen);
}

static void expect_ids(const char *tree, const char *dev, const char *want)
{
	struct cdt_hazard_list l = CDT_INIT(l);
	char err[1024] = "", ids[512];
	int rc;

	rc = scan_tree(tree, dev, &l, err, sizeof(err));
	if (rc)
		fail_msg("%s %s: %s", tree, dev, err);
	ids_of(&l, ids, sizeof(ids));
	if (strcmp(ids, want))
		fail_msg("%s %s: ids '%s', wanted '%s'", tree, dev, ids, want);
	cdt_hazard_list_free(&l);
}

static void test_fixture_ids(void **state)
{
	(void)state;
	expect_ids("sr0-plain", "/dev/sr0", "");
	expect_ids("sr0-plain", "/dev/sg0", "");
	expect_ids("mpath-running", "/dev/mapper/mpatha", "multipath-active-paths");
	expect_ids("mpath-running", "mpatha", "multipath-active-paths");
	expect_ids("mpath-running", "/dev/dm-0", "multipath-active-paths");
	expect_ids("mpath-path-offline", "/dev/mapper/mpatha", "path-failed");
	expect_ids("mpath-all-offline", "/dev/mapper/mpatha",
		   "no-active-path,path-failed");
	expect_ids("mpath-cache-mismatch", "/dev/mapper/mpatha",
		   "cache-mode-mismatch,multipath-active-paths");
	expect_ids("disk-flush-disabled", "/dev/sda", "flush-disabled");
	expect_ids("disk-flush-disabled", "/dev/sda1", "flush-disabled");
	expect_ids("disk-no-fua", "/dev/sda", "write-cache-no-fua");
	expect_ids("mpath-single-path", "/dev/mapper/mpatha", "");
	expect_ids("mpath-wwid-mismatch", "/dev/mapper/mpatha",
		   "multipath-active-paths,path-wwid-mismatch");
	expect_ids("mpath-queue-mismatch", "/dev/mapper/mpatha",
		   "multipath-active-paths,queue-depth-mismatch,rotational-mismatch");
	expect_ids("lvm-on-mpath", "/dev/mapper/vg0-data",
		   "cache-mode-mismatch,flush-disabled,multipath-active-paths");
	expect_ids("mpath-map-write-through", "/dev/mapper/mpatha",
		   "cache-mode-mismatch,flush-disabled,multipath-active-paths");
}

static void test_fixture_facts(void **state)
{
	struct cdt_hazard_list l = CDT_INIT(l);
	char err[1024];

	(void)state;
	assert_int_equal(scan_tree("lvm-on-mpath", "/dev/mapper/vg0-data", &l,
				   err, sizeof(err)), 0);
	assert_string_equal(l.node, "dm-1");
	assert_int_equal(l.n_nodes, 4);
	assert_string_equal(l.nodes[0].dm_name, "vg0-data");
	assert_false(l.nodes[0].is_multipath);
	assert_string_equal(l.nodes[1].name, "dm-0");
	assert_int_equal(l.nodes[1].role, CDT_NODE_COMPONENT);
	assert_true(l.nodes[1].is_multipath);
	assert_string_equal(l.nodes[3].name, "sdb");
	assert_int_equal(l.nodes[3].role, CDT_NODE_PATH);
	assert_int_equal(l.nodes[3].parent, 1);
	assert_string_equal(l.nodes[3].state, "running");
	assert_string_equal(l.nodes[3].write_cache, "write through");
	assert_int_equal(l.nodes[3].write_back, 0);
	assert_string_equal(l.nodes[3].cache_type, "write back");
	assert_int_equal(l.nodes[3].cache_volatile, 1);
	assert_int_equal(l.nodes[3].queue_depth, 128);
	assert_string_equal(l.nodes[3].wwid, "naa.5000c50015ea71ac");
	assert_string_equal(l.nodes[3].dev, "8:16");
	assert_false(l.nodes[3].mode_sense_done);
	/* the danger comes first and names the path */
	assert_string_equal(l.hazards[0].id, "flush-disabled");
	assert_int_equal(l.hazards[0].severity, CDT_HAZARD_DANGER);
	assert_string_equal(l.hazards[0].where, "sdb");
	assert_non_null(strstr(l.hazards[0].detail, "queue/write_cache"));
	cdt_hazard_list_free(&l);
	assert_null(l.nodes);
	assert_int_equal(l.n_hazards, 0);

	/* sr0: no scsi_disk, so cache_type is unknown, not guessed */
	assert_int_equal(scan_tree("sr0-plain", "/dev/sr0", &l, err,
				   sizeof(err)), 0);
	assert_string_equal(l.nodes[0].cache_type, "");
	assert_int_equal(l.nodes[0].cache_volatile, -1);
	assert_int_equal(l.nodes[0].write_back, 0);
	cdt_hazard_list_free(&l);
}

static void test_errors(void **state)
{
	struct cdt_hazard_list l = CDT_INIT(l);
	struct cdt_hazard_opts o = { .size = sizeof(o), .sysfs_root = "/nonexistent/sysfs" };
	char err[1024];

	(void)state;
	assert_int_equal(scan_tree("sr0-plain", "/dev/sdz", &l, err,
				   sizeof(err)), CDT_EOPEN);
	assert_non_null(strstr(err, "no block device 'sdz' under "));
	assert_non_null(strstr(err, "(looked for "));
	assert_null(strchr(err, '\n'));
	assert_null(l.nodes);
	assert_int_equal(scan_tree("mpath-running", "/dev/mapper/nope", &l, err,
				   sizeof(err)), CDT_EOPEN);
	assert_int_equal(scan_tree("sr0-plain", "/dev/sg7", &l, err,
				   sizeof(err)), CDT_EOPEN);
	assert_int_equal(scan_tree("sr0-plain", "", &l, err, sizeof(err)),
			 CDT_EUSAGE);
	assert_int_equal(cdt_hazards_scan("/dev/sr0", &o, &l, err, sizeof(err)),
			 CDT_EUSAGE);
	assert_non_null(strstr(err, "/nonexistent/sysfs"));
	/* sim: without a handle cannot be looked at */
	assert_int_equal(cdt_hazards_scan("sim:x.iso", NULL, &l, err,
					  sizeof(err)), CDT_EUSAGE);
	/* a regular file is not a device */
	assert_int_equal(scan_tree("sr0-plain", "/etc/passwd", &l, NULL, 0),
			 CDT_EOPEN);
	cdt_hazard_list_free(NULL);
}

static void put(const char *root, const char *rel, const char *value)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(value, f);
	fclose(f);
}

static void mkdir_in(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void remove_in(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(remove(path), 0);
}

/* A tree whose dm device lists itself as its slave: visited once. */
static void test_slave_loop(void **state)
{
	char root[] = "/tmp/cdt-hz-loop-XXXXXX", path[512];
	struct cdt_hazard_opts o = { .size = sizeof(o), .sysfs_root = root };
	struct cdt_hazard_list l = CDT_INIT(l);
	char err[1024];

	(void)state;
	assert_non_null(mkdtemp(root));
	mkdir_in(root, "block");
	mkdir_in(root, "block/dm-0");
	mkdir_in(root, "block/dm-0/dm");
	mkdir_in(root, "block/dm-0/slaves");
	put(root, "block/dm-0/dm/name", "m\n");
	put(root, "block/dm-0/dm/uuid", "mpath-x\n");
	snprintf(path, sizeof(path), "%s/block/dm-0/slaves/dm-0", root);
	assert_int_equal(symlink("../../dm-0", path), 0);
	assert_int_equal(cdt_hazards_scan("/dev/mapper/m", &o, &l, err,
					  sizeof(err)), 0);
	assert_int_equal(l.n_nodes, 1);
	assert_int_equal(l.n_hazards, 1);
	assert_string_equal(l.hazards[0].id, "no-active-path");
	cdt_hazard_list_free(&l);
	remove_in(root, "block/dm-0/slaves/dm-0");
	remove_in(root, "block/dm-0/slaves");
	remove_in(root, "block/dm-0/dm/name");
	remove_in(root, "block/dm-0/dm/uuid");
	remove_in(root, "block/dm-0/dm");
	remove_in(root, "block/dm-0");
	remove_in(root, "block");
	assert_int_equal(rmdir(root), 0);
}

/*
 * Under a fixture root the host's /dev is never looked at: /dev/null (a
 * character device 1:3 on every Linux host) resolves by its name exactly
 * as a name the host does not have, although the tree also holds
 * dev/char/1:3 (where the host's major:minor would lead), and no caching
 * page is read though mode_sense is asked for.
 */
static void test_fixture_ignores_host_dev(void **state)
{
	static const char *const devs[] = { "/dev/null", "/dev/cdtail-absent-node" };
	char root[] = "/tmp/cdt-hz-host-XXXXXX";
	struct cdt_hazard_opts o = { .size = sizeof(o), .sysfs_root = root,
				     .mode_sense = true };
	char err[1024];
	unsigned int i;

	(void)state;
	assert_non_null(mkdtemp(root));
	mkdir_in(root, "class");
	mkdir_in(root, "class/block");
	mkdir_in(root, "dev");
	mkdir_in(root, "dev/char");
	mkdir_in(root, "dev/char/1:3");
	mkdir_in(root, "dev/char/1:3/device");
	mkdir_in(root, "dev/char/1:3/device/block");
	mkdir_in(root, "dev/char/1:3/device/block/sdx");
	for (i = 0; i < 2; i++) {
		const char *name = devs[i] + 5;
		char rel[128];
		struct cdt_hazard_list l = CDT_INIT(l);

		snprintf(rel, sizeof(rel), "class/block/%s", name);
		mkdir_in(root, rel);
		snprintf(rel, sizeof(rel), "class/block/%s/device", name);
		mkdir_in(root, rel);
		snprintf(rel, sizeof(rel), "class/block/%s/device/scsi_level", name);
		put(root, rel, "6\n");
		snprintf(rel, sizeof(rel), "class/block/%s/dev", name);
		put(root, rel, "1:3\n");
		assert_int_equal(cdt_hazards_scan(devs[i], &o, &l, err, sizeof(err)), 0);
		assert_string_equal(l.node, name);
		assert_int_equal(l.n_nodes, 1);
		assert_false(l.nodes[0].mode_sense_done);
		assert_non_null(strstr(l.nodes[0].mode_sense_note, "not the live /sys"));
		assert_non_null(strstr(l.mode_sense_off, "not the live /sys"));
		cdt_hazard_list_free(&l);
	}
	assert_int_equal(th_rmrf(root), 0);
}

/*
 * A loop device is followed to the disk under its backing file (issue 35,
 * 8): the file's st_dev leads to dev/block/MAJ:MIN under the root, here a
 * partition of a write-through disk with a volatile cache (flush-disabled
 * at the disk, found through the loop); a file that is not there gives
 * the info note loop-backing-unknown and no other node.
 */
static void test_loop_backing(void **state)
{
	char root[] = "/tmp/cdt-hz-lo-XXXXXX", rel[700], file[600], devt[32];
	struct cdt_hazard_opts o = { .size = sizeof(o) };
	struct cdt_hazard_list l = CDT_INIT(l);
	struct stat st;
	char err[1024];

	(void)state;
	assert_non_null(mkdtemp(root));
	o.sysfs_root = root;
	mkdir_in(root, "block");
	mkdir_in(root, "block/loop0");
	mkdir_in(root, "block/loop0/loop");
	mkdir_in(root, "block/loop0/queue");
	put(root, "block/loop0/dev", "7:0\n");
	put(root, "block/loop0/queue/write_cache", "write back\n");
	mkdir_in(root, "block/sda");
	mkdir_in(root, "block/sda/queue");
	mkdir_in(root, "block/sda/sda1");
	put(root, "block/sda/sda1/partition", "1\n");
	put(root, "block/sda/queue/write_cache", "write through\n");
	put(root, "block/sda/cache_type", "write back\n");
	mkdir_in(root, "dev");
	mkdir_in(root, "dev/block");
	snprintf(file, sizeof(file), "%s/backing.img", root);
	put(root, "backing.img", "x");
	assert_int_equal(stat(file, &st), 0);
	snprintf(devt, sizeof(devt), "%u:%u", major(st.st_dev), minor(st.st_dev));
	snprintf(rel, sizeof(rel), "%s/dev/block/%s", root, devt);
	assert_int_equal(symlink("../../block/sda/sda1", rel), 0);
	snprintf(rel, sizeof(rel), "%s\n", file);
	put(root, "block/loop0/loop/backing_file", rel);

	assert_int_equal(cdt_hazards_scan("/dev/loop0", &o, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n_nodes, 2);
	assert_string_equal(l.nodes[1].name, "sda");
	assert_int_equal(l.nodes[1].role, CDT_NODE_BACKING);
	assert_int_equal(l.nodes[1].parent, 0);
	assert_int_equal(l.n_hazards, 1);
	assert_string_equal(l.hazards[0].id, "flush-disabled");
	assert_string_equal(l.hazards[0].where, "sda");
	cdt_hazard_list_free(&l);

	snprintf(rel, sizeof(rel), "%s/absent.img\n", root);
	put(root, "block/loop0/loop/backing_file", rel);
	assert_int_equal(cdt_hazards_scan("/dev/loop0", &o, &l, err, sizeof(err)), 0);
	assert_int_equal(l.n_nodes, 1);
	assert_int_equal(l.n_hazards, 1);
	assert_string_equal(l.hazards[0].id, "loop-backing-unknown");
	assert_int_equal(l.hazards[0].severity, CDT_HAZARD_INFO);
	assert_non_null(strstr(l.hazards[0].detail, "absent.img"));
	cdt_hazard_list_free(&l);
	assert_int_equal(th_rmrf(root), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_write_cache),
		cmocka_unit_test(test_parse_bool01),
		cmocka_unit_test(test_parse_cache_type),
		cmocka_unit_test(test_parse_ulong),
		cmocka_unit_test(test_parse_devt),
		cmocka_unit_test(test_read_attr),
		cmocka_unit_test(test_caching_page_only),
		cmocka_unit_test(test_wce_against_write_through),
		cmocka_unit_test(test_unknowns_conclude_nothing),
		cmocka_unit_test(test_map_without_paths),
		cmocka_unit_test(test_severity_names),
		cmocka_unit_test(test_fixture_ids),
		cmocka_unit_test(test_fixture_facts),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_slave_loop),
		cmocka_unit_test(test_fixture_ignores_host_dev),
		cmocka_unit_test(test_loop_backing),
	};

	return cmocka_run_group_tests_name("hazards", tests, NULL, NULL);
}
