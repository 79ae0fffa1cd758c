// SPDX-License-Identifier: MIT
/*
 * Reading for the hazards scan: resolve DEV to its node under the sysfs
 * root, walk device-mapper slaves, read each node's attributes and, for
 * SCSI disks of the live /sys, the caching mode page.  What it reads goes
 * into list->nodes; the rules (hazards/rules.c) turn that into findings.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "cdtail-hazards.h"
#include "core/abi.h"
#include "core/cmds.h"
#include "mmc/answer.h"
#include "hazards/hazards.h"
#include "mmc/mmc.h"

/* dm stacks are shallow (LVM on kpartx on multipath); stop loops anyway. */
#define HZ_MAX_DEPTH 8

/* A generous MODE SENSE(10) answer: header, descriptors, caching page. */
#define HZ_MODE_BUF 252

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- reading sysfs ------------------------------------------------------ */

static int join(char *buf, size_t len, const char *a, const char *b)
{
	int n = snprintf(buf, len, "%s/%s", a, b);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int hz_read_attr(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t got;
	int fd;

	if (!len)
		return -1;
	buf[0] = '\0';
	if (join(path, sizeof(path), dir, rel))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	got = read(fd, buf, len - 1);
	close(fd);
	if (got <= 0) {
		buf[0] = '\0';
		return -1;
	}
	buf[got] = '\0';
	/* sysfs ends every value with one newline; trim it (and blanks) */
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == ' '))
		buf[--got] = '\0';
	return got ? 0 : -1;
}

static bool is_dir(const char *dir, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	if (join(path, sizeof(path), dir, rel))
		return false;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool exists(const char *dir, const char *rel)
{
	char path[PATH_MAX];

	if (join(path, sizeof(path), dir, rel))
		return false;
	return !access(path, F_OK);
}

/* realpath of DIR/REL into out (PATH_MAX); 0 when it is a directory. */
static int real_dir(const char *dir, const char *rel, char *out)
{
	char path[PATH_MAX];
	struct stat st;

	if (join(path, sizeof(path), dir, rel) || !realpath(path, out))
		return -1;
	return !stat(out, &st) && S_ISDIR(st.st_mode) ? 0 : -1;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* First entry of a directory not starting with '.', sorted; 0 when found. */
static int first_entry(const char *dir, char *name, size_t len)
{
	struct dirent **ents;
	int n, i, rc = -1;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (rc && ents[i]->d_name[0] != '.' &&
		    strlen(ents[i]->d_name) < len) {
			strcpy(name, ents[i]->d_name);
			rc = 0;
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}

/* ---- resolving DEV to a sysfs node -------------------------------------- */

struct looked {
	char text[768];
};

static void looked_add(struct looked *l, const char *path)
{
	size_t n = strlen(l->text);

	snprintf(l->text + n, sizeof(l->text) - n, "%s%s", n ? ", " : "", path);
}

/* Try ROOT/REL as a node directory. */
static int try_node(const char *root, const char *rel, char *out,
		    struct looked *l)
{
	char path[PATH_MAX];

	if (join(path, sizeof(path), root, rel))
		return -1;
	looked_add(l, path);
	return real_dir(root, rel, out);
}

/* ROOT/class/scsi_generic/SG/device/block/<name> (or ROOT/dev/char/M:N). */
static int try_sg(const char *root, const char *sgdir_rel, char *out,
		  struct looked *l)
{
	char rel[PATH_MAX], name[NAME_MAX + 1];
	char path[PATH_MAX];

	if (snprintf(rel, sizeof(rel), "%s/device/block", sgdir_rel) >=
	    (int)sizeof(rel) || join(path, sizeof(path), root, rel))
		return -1;
	looked_add(l, path);
	if (first_entry(path, name, sizeof(name)))
		return -1;
	return real_dir(path, name, out);
}

/* A dm device whose dm/name is NAME, searched under ROOT/block. */
static int try_dm_name(const char *root, const char *name, char *out,
		       struct looked *l)
{
	char blockdir[PATH_MAX], pattern[PATH_MAX + 16], val[256];
	struct dirent **ents;
	int n, i, rc = -1;

	if (join(blockdir, sizeof(blockdir), root, "block"))
		return -1;
	snprintf(pattern, sizeof(pattern), "%s/dm-*/dm/name", blockdir);
	looked_add(l, pattern);
	n = scandir(blockdir, &ents, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (rc && !strncmp(ents[i]->d_name, "dm-", 3)) {
			char rel[NAME_MAX + 16];

			snprintf(rel, sizeof(rel), "%s/dm/name", ents[i]->d_name);
			if (!hz_read_attr(blockdir, rel, val, sizeof(val)) &&
			    !strcmp(val, name))
				rc = real_dir(blockdir, ents[i]->d_name, out);
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}

static bool is_sg_name(const char *s)
{
	if (strncmp(s, "sg", 2) || !s[2])
		return false;
	for (s += 2; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* An existing node: look it up by major:minor. */
static int resolve_by_devt(const char *root, const struct stat *st,
			   char *out, struct looked *l)
{
	char rel[64];

	if (S_ISBLK(st->st_mode)) {
		snprintf(rel, sizeof(rel), "dev/block/%u:%u",
			 major(st->st_rdev), minor(st->st_rdev));
		return try_node(root, rel, out, l);
	}
	snprintf(rel, sizeof(rel), "dev/char/%u:%u", major(st->st_rdev),
		 minor(st->st_rdev));
	return try_sg(root, rel, out, l);
}

/* No usable node: go by the name, as fixture trees need. */
static int resolve_by_name(const char *root, const char *dev, char *out,
			   struct looked *l)
{
	const char *name = base_name(dev);
	char rel[PATH_MAX];
	bool mapper = strstr(dev, "/mapper/") != NULL;

	if (mapper)
		return try_dm_name(root, name, out, l);
	if (is_sg_name(name)) {
		snprintf(rel, sizeof(rel), "class/scsi_generic/%s", name);
		return try_sg(root, rel, out, l);
	}
	snprintf(rel, sizeof(rel), "class/block/%s", name);
	if (!try_node(root, rel, out, l))
		return 0;
	snprintf(rel, sizeof(rel), "block/%s", name);
	if (!try_node(root, rel, out, l))
		return 0;
	/* a bare map name ("mpatha") is a dm name too */
	return try_dm_name(root, name, out, l);
}

/*
 * DEV -> real path of its whole-disk node directory under ROOT.
 * Partitions are replaced by their disk: queue/ and device/ live there.
 */
static int resolve(const char *root, bool live, const char *dev, char *out,
		   char *err, size_t errlen)
{
	struct looked l = { .text = "" };
	struct stat st;
	char disk[PATH_MAX];
	int rc = -1;

	/*
	 * The host's /dev describes the live /sys only: under any other root
	 * a /dev path is a name, whatever this machine has there.  Another
	 * path is still looked at, to refuse a regular file.
	 */
	if ((live || strncmp(dev, "/dev/", 5)) && !stat(dev, &st)) {
		if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode)) {
			set_err(err, errlen, "'%s' is not a block device or an sg node",
				dev);
			return CDT_EOPEN;
		}
		if (live)
			rc = resolve_by_devt(root, &st, out, &l);
	}
	if (rc)
		rc = resolve_by_name(root, dev, out, &l);
	if (rc) {
		set_err(err, errlen, "no block device '%s' under %s (looked for %s)",
			base_name(dev), root, l.text);
		return CDT_EOPEN;
	}
	if (exists(out, "partition") && !real_dir(out, "..", disk))
		strcpy(out, disk);
	return 0;
}

/* ---- the node list ------------------------------------------------------ */

static struct cdt_hazard_node *node_new(struct cdt_hazard_list *list)
{
	struct cdt_hazard_node *n;

	if (list->n_nodes >= HZ_MAX_NODES)
		return NULL;
	n = HZ_APPEND(list->nodes, list->n_nodes);
	if (!n)
		return NULL;
	n->parent = -1;
	n->write_back = n->fua = n->rotational = -1;
	n->cache_volatile = n->wce = n->dpofua = -1;
	n->queue_depth = -1;
	return n;
}

/* sd: device/scsi_disk/H:C:T:L/cache_type; virtio-blk: NAME/cache_type. */
static void read_cache_type(const char *dir, struct cdt_hazard_node *n)
{
	char sd[PATH_MAX], hctl[NAME_MAX + 1];

	if (hz_read_attr(dir, "cache_type", n->cache_type,
			 sizeof(n->cache_type)) &&
	    !join(sd, sizeof(sd), dir, "device/scsi_disk") &&
	    !first_entry(sd, hctl, sizeof(hctl))) {
		char rel[NAME_MAX + 16];

		snprintf(rel, sizeof(rel), "%s/cache_type", hctl);
		hz_read_attr(sd, rel, n->cache_type, sizeof(n->cache_type));
	}
	n->cache_volatile = n->cache_type[0] ?
		hz_parse_cache_type(n->cache_type) : -1;
}

static void read_node_facts(const char *dir, struct cdt_hazard_node *n)
{
	char v[64];

	snprintf(n->name, sizeof(n->name), "%s", base_name(dir));
	hz_read_attr(dir, "dev", n->dev, sizeof(n->dev));
	n->is_dm = is_dir(dir, "dm");
	if (n->is_dm) {
		hz_read_attr(dir, "dm/name", n->dm_name, sizeof(n->dm_name));
		hz_read_attr(dir, "dm/uuid", n->dm_uuid, sizeof(n->dm_uuid));
		/* multipathd names its maps' uuids "mpath-<wwid>" */
		n->is_multipath = !strncmp(n->dm_uuid, "mpath-", 6);
	}
	hz_read_attr(dir, "device/state", n->state, sizeof(n->state));
	hz_read_attr(dir, "queue/write_cache", n->write_cache,
		     sizeof(n->write_cache));
	n->write_back = hz_parse_write_cache(n->write_cache);
	if (!hz_read_attr(dir, "queue/fua", v, sizeof(v)))
		n->fua = hz_parse_bool01(v);
	if (!hz_read_attr(dir, "queue/rotational", v, sizeof(v)))
		n->rotational = hz_parse_bool01(v);
	if (!hz_read_attr(dir, "device/queue_depth", v, sizeof(v)))
		n->queue_depth = hz_parse_ulong(v);
	hz_read_attr(dir, "device/wwid", n->wwid, sizeof(n->wwid));
	read_cache_type(dir, n);
}

/* MODE SENSE(10), caching page, current values; read-only by nature. */
static void read_caching(struct cdt_dev *d, struct cdt_hazard_node *n)
{
	struct mmc_mode_caching mc;
	struct cdt_sense sense;
	uint8_t buf[HZ_MODE_BUF];
	uint32_t got = 0;
	int rc;

	memset(buf, 0, sizeof(buf));
	rc = cdt_cmd_mode_sense10(d, 0x08, buf, sizeof(buf), &got, &sense);
	if (rc == CDT_ECHECK && answer_is_illegal_request(&sense)) {
		snprintf(n->mode_sense_note, sizeof(n->mode_sense_note),
			 "MODE SENSE(10) page 0x08 refused (ILLEGAL REQUEST)");
		return;
	}
	if (rc) {
		snprintf(n->mode_sense_note, sizeof(n->mode_sense_note),
			 "MODE SENSE(10) page 0x08 failed: %s", cdt_strerror(rc));
		return;
	}
	if (mmc_parse_mode_sense10_caching(buf, got, &mc)) {
		snprintf(n->mode_sense_note, sizeof(n->mode_sense_note),
			 "MODE SENSE(10) answer too short to use");
		return;
	}
	hz_apply_caching(n, &mc);
}

/*
 * Open /dev/NAME for a SCSI node, but only when it is the device sysfs
 * describes (same major:minor): a fixture tree must never send commands
 * to an unrelated disk that happens to share the name.
 */
static void mode_sense_node(const struct cdt_hazard_opts *o,
			    struct cdt_hazard_node *n)
{
	unsigned int maj, min;
	char path[CDT_HAZARD_NAME_MAX + 8], msg[200];
	struct cdt_dev *d;
	struct stat st;
	int rc;

	snprintf(path, sizeof(path), "/dev/%s", n->name);
	if (hz_parse_devt(n->dev, &maj, &min) || stat(path, &st) ||
	    !S_ISBLK(st.st_mode) || major(st.st_rdev) != maj ||
	    minor(st.st_rdev) != min) {
		snprintf(n->mode_sense_note, sizeof(n->mode_sense_note),
			 "%s is not the node sysfs describes; not opened", path);
		return;
	}
	rc = cdt_open(path, o->open_opts, &d, msg, sizeof(msg));
	if (rc) {
		snprintf(n->mode_sense_note, sizeof(n->mode_sense_note),
			 "%s", msg);
		return;
	}
	read_caching(d, n);
	cdt_close(d);
}

struct walk {
	const struct cdt_hazard_opts *o;
	struct cdt_hazard_list *list;
	const char *root;	/* the sysfs root */
	bool mode_sense;	/* asked for, and the root is the live /sys */
	bool nomem;
};

static bool is_scsi_node(const char *dir, const struct cdt_hazard_node *n)
{
	/* scsi_level belongs to a SCSI device, not to virtio-blk or nvme */
	return !n->is_dm && exists(dir, "device/scsi_level");
}

static void walk_node(struct walk *w, const char *dir,
		      enum cdt_hazard_role role, int parent, int depth);
static void walk_backing(struct walk *w, const char *dir, int self, int depth);

static void walk_slaves(struct walk *w, const char *dir, int self,
			enum cdt_hazard_role role, int depth)
{
	char slaves[PATH_MAX], child[PATH_MAX];
	struct dirent **ents;
	int n, i;

	if (join(slaves, sizeof(slaves), dir, "slaves"))
		return;
	n = scandir(slaves, &ents, NULL, alphasort);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' &&
		    !real_dir(slaves, ents[i]->d_name, child))
			walk_node(w, child, role, self, depth + 1);
		free(ents[i]);
	}
	free(ents);
}

/* Block names are unique in sysfs: a name seen before is a loop. */
static bool seen(const struct cdt_hazard_list *l, const char *dir)
{
	const char *name = base_name(dir);
	size_t i;

	for (i = 0; i < l->n_nodes; i++)
		if (!strcmp(l->nodes[i].name, name))
			return true;
	return false;
}

static void walk_node(struct walk *w, const char *dir,
		      enum cdt_hazard_role role, int parent, int depth)
{
	struct cdt_hazard_node *n;
	int self;

	if (depth > HZ_MAX_DEPTH || w->nomem || seen(w->list, dir))
		return;
	n = node_new(w->list);
	if (!n) {
		w->nomem = w->list->n_nodes < HZ_MAX_NODES;
		return;
	}
	self = (int)(w->list->n_nodes - 1);
	n->role = role;
	n->parent = parent;
	read_node_facts(dir, n);
	if (is_scsi_node(dir, n)) {
		if (self == 0 && w->o->dev)
			read_caching(w->o->dev, n);
		else if (w->mode_sense)
			mode_sense_node(w->o, n);
		else
			snprintf(n->mode_sense_note, sizeof(n->mode_sense_note),
				 "not read (%s)", w->list->mode_sense_off);
	}
	/* n may move when children are added: only indices from here on */
	if (w->list->nodes[self].is_dm)
		walk_slaves(w, dir, self,
			    w->list->nodes[self].is_multipath ?
			    CDT_NODE_PATH : CDT_NODE_COMPONENT, depth);
	else
		walk_backing(w, dir, self, depth);
}

/*
 * The block device whose filesystem holds FILE: its st_dev looked up as
 * dev/block/MAJ:MIN under the root, a partition replaced by its disk.
 * 0 with out set, -1 (the file is missing, or its filesystem has no block
 * device there: tmpfs, overlayfs, NFS, a btrfs subvolume's anonymous dev).
 */
static int file_disk(const char *root, const char *file, char *out)
{
	char rel[64], disk[PATH_MAX];
	struct stat st;

	if (stat(file, &st))
		return -1;
	snprintf(rel, sizeof(rel), "dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (real_dir(root, rel, out))
		return -1;
	if (exists(out, "partition") && !real_dir(out, "..", disk))
		strcpy(out, disk);
	return 0;
}

/*
 * A loop device sends its I/O to a file (loop/backing_file, a path on
 * this machine: the kernel's Documentation/ABI/stable/sysfs-block,
 * drivers/block/loop.c loop_attr_backing_file_show), so what orders its
 * writes is the device under that file's filesystem: walked as the
 * loop's child, role "backing".  Where it cannot be followed an info
 * finding says why, so that no scan passes the loop off as the disk.
 */
static void walk_backing(struct walk *w, const char *dir, int self, int depth)
{
	char file[PATH_MAX], child[PATH_MAX];
	struct cdt_hazard_list *l = w->list;

	if (hz_read_attr(dir, "loop/backing_file", file, sizeof(file)))
		return;
	if (!file_disk(w->root, file, child)) {
		walk_node(w, child, CDT_NODE_BACKING, self, depth + 1);
		return;
	}
	if (hz_note(l, "loop-backing-unknown", l->nodes[self].name,
		    "%s is a loop device over the file %s, whose filesystem has no block device "
		    "under %s (the file is missing, or on tmpfs, overlayfs, NFS or a btrfs "
		    "subvolume): the ordering of the storage under it was not looked at.",
		    l->nodes[self].name, file, w->root))
		w->nomem = true;
}

/* No sysfs node (sim:, iscsi://): only the caching page. */
static int scan_handle_only(const struct cdt_hazard_opts *o,
			    struct cdt_hazard_list *list)
{
	struct cdt_hazard_node *n = node_new(list);

	if (!n)
		return CDT_ENOMEM;
	snprintf(n->name, sizeof(n->name), "%s", cdt_transport_name(o->dev));
	read_caching(o->dev, n);
	return 0;
}

bool cdt_hazards_needs_handle(const char *dev)
{
	return dev && (!strncmp(dev, "sim:", 4) || !strncmp(dev, "iscsi://", 8));
}

/* Commands go to /dev nodes only when sysfs describes this very machine. */
static bool root_is_live(const char *root)
{
	char real[PATH_MAX];

	return realpath(root, real) && !strcmp(real, "/sys");
}

static int check_root(const char *root, char *err, size_t errlen)
{
	struct stat st;

	if (stat(root, &st) || !S_ISDIR(st.st_mode) ||
	    access(root, R_OK | X_OK)) {
		set_err(err, errlen, "cannot read sysfs root '%s': %s", root,
			errno ? strerror(errno) : "not a directory");
		return CDT_EUSAGE;
	}
	return 0;
}

static void list_free(struct cdt_hazard_list *list)
{
	free(list->nodes);
	free(list->hazards);
	list->nodes = NULL;
	list->hazards = NULL;
	list->n_nodes = 0;
	list->n_hazards = 0;
	list->node[0] = '\0';
	list->mode_sense_off[0] = '\0';
}

static int scan(const char *dev, const struct cdt_hazard_opts *o,
		struct cdt_hazard_list *list, char *err, size_t errlen)
{
	const char *root = o->sysfs_root ? o->sysfs_root : "/sys";
	struct walk w = { .o = o, .list = list, .root = root };
	char dir[PATH_MAX];
	bool live;
	int rc;

	if (!dev || !*dev) {
		set_err(err, errlen, "no device given");
		return CDT_EUSAGE;
	}
	if (cdt_hazards_needs_handle(dev)) {
		if (!o->dev) {
			set_err(err, errlen, "'%s' has no sysfs node and no open handle was given",
				dev);
			return CDT_EUSAGE;
		}
		rc = scan_handle_only(o, list);
	} else {
		errno = 0;
		rc = check_root(root, err, errlen);
		if (rc)
			return rc;
		live = root_is_live(root);
		if (!o->mode_sense)
			snprintf(list->mode_sense_off, sizeof(list->mode_sense_off),
				 "mode_sense off");
		else if (!live)
			snprintf(list->mode_sense_off, sizeof(list->mode_sense_off),
				 "the sysfs root is not the live /sys, so /dev nodes are not its devices");
		w.mode_sense = !list->mode_sense_off[0];
		rc = resolve(root, live, dev, dir, err, errlen);
		if (rc)
			return rc;
		snprintf(list->node, sizeof(list->node), "%s", base_name(dir));
		walk_node(&w, dir, CDT_NODE_DEVICE, -1, 0);
		rc = w.nomem || !list->n_nodes ? CDT_ENOMEM : 0;
	}
	if (!rc)
		rc = hz_evaluate(list);
	if (rc) {
		if (rc == CDT_ENOMEM)
			set_err(err, errlen, "out of memory");
		list_free(list);
	}
	return rc;
}

int cdt_hazards_scan(const char *dev, const struct cdt_hazard_opts *opts,
		     struct cdt_hazard_list *list, char *err, size_t errlen)
{
	struct cdt_hazard_opts o;
	struct cdt_hazard_list full;
	int rc;

	if (cdt_abi_opts(NULL, &o, sizeof(o), opts, "")) {
		set_err(err, errlen, "struct cdt_hazard_opts: size is 0: initialise it with CDT_INIT()");
		return CDT_EUSAGE;
	}
	if (cdt_abi_res(NULL, list, &full, sizeof(full), "")) {
		set_err(err, errlen, "struct cdt_hazard_list: missing or size 0: initialise it with CDT_INIT()");
		return CDT_EUSAGE;
	}
	rc = scan(dev, &o, &full, err, errlen);
	cdt_abi_out(list, &full, sizeof(full));
	if (!CDT_HAS(list, n_hazards))
		list_free(&full);
	return rc;
}

void cdt_hazard_list_free(struct cdt_hazard_list *list)
{
	if (list && CDT_HAS(list, n_hazards))
		list_free(list);
}
