// SPDX-License-Identifier: MIT
/*
 * Ordering hazards of a block device: what sysfs (and the caching mode
 * page) says about write caches, FUA and multipath paths, turned into
 * findings.
 *
 * Since 2.6.37 the block layer has no barriers.  Ordering is what the
 * submitter builds from REQ_PREFLUSH, REQ_FUA and waiting for completions;
 * the block layer drops both flags for a queue whose write_cache says
 * "write through", and emulates FUA with a post-flush where queue/fua is 0.
 * Everything below follows from that (Documentation/block/
 * writeback_cache_control.rst) and from dm-multipath spreading requests
 * over its paths.
 *
 * Only values read are reported; a file that is missing or holds a value
 * the kernel does not print is "unknown" and no finding rests on it.
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
#include "cdtail.h"
#include "core/abi.h"
#include "core/cmds.h"
#include "hazards/hazards.h"
#include "scsi/mmc.h"

/* dm stacks are shallow (LVM on kpartx on multipath); stop loops anyway. */
#define HZ_MAX_DEPTH 8
#define HZ_MAX_NODES 256

/* A generous MODE SENSE(10) answer: header, descriptors, caching page. */
#define HZ_MODE_BUF 252

static const char *const severity_names[] = {
	[CDT_HAZARD_INFO] = "info",
	[CDT_HAZARD_WARNING] = "warning",
	[CDT_HAZARD_DANGER] = "danger",
};

const char *cdt_hazard_severity_name(enum cdt_hazard_severity s)
{
	if ((unsigned int)s >= sizeof(severity_names) / sizeof(severity_names[0]))
		return "unknown";
	return severity_names[s];
}

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

/* ---- value parsers ------------------------------------------------------ */

/* Length of s without one trailing newline. */
static size_t value_len(const char *s)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '\n')
		n--;
	return n;
}

static bool value_is(const char *s, const char *want)
{
	size_t n = value_len(s);

	return n == strlen(want) && !strncmp(s, want, n);
}

int hz_parse_write_cache(const char *s)
{
	if (!s)
		return -1;
	if (value_is(s, "write back"))
		return 1;
	if (value_is(s, "write through"))
		return 0;
	return -1;
}

int hz_parse_bool01(const char *s)
{
	if (!s)
		return -1;
	if (value_is(s, "1"))
		return 1;
	if (value_is(s, "0"))
		return 0;
	return -1;
}

/*
 * sd prints one of "write through", "none", "write back" and
 * "write back, no read (daft)": the last two mean a volatile cache.
 */
int hz_parse_cache_type(const char *s)
{
	if (!s)
		return -1;
	if (value_is(s, "write back") || value_is(s, "write back, no read (daft)"))
		return 1;
	if (value_is(s, "write through") || value_is(s, "none") ||
	    value_is(s, "write through, no read (daft)"))
		return 0;
	return -1;
}

long hz_parse_ulong(const char *s)
{
	size_t n, i;
	long v = 0;

	if (!s)
		return -1;
	n = value_len(s);
	if (!n || n > 9)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int hz_parse_devt(const char *s, unsigned int *maj, unsigned int *min)
{
	char a[12], b[12];
	const char *colon;
	size_t n;
	long ma, mi;

	if (!s)
		return -1;
	n = value_len(s);
	colon = memchr(s, ':', n);
	if (!colon || (size_t)(colon - s) >= sizeof(a) ||
	    n - (size_t)(colon - s) - 1 >= sizeof(b))
		return -1;
	memcpy(a, s, (size_t)(colon - s));
	a[colon - s] = '\0';
	memcpy(b, colon + 1, n - (size_t)(colon - s) - 1);
	b[n - (size_t)(colon - s) - 1] = '\0';
	ma = hz_parse_ulong(a);
	mi = hz_parse_ulong(b);
	if (ma < 0 || mi < 0)
		return -1;
	*maj = (unsigned int)ma;
	*min = (unsigned int)mi;
	return 0;
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
static int resolve(const char *root, const char *dev, char *out,
		   char *err, size_t errlen)
{
	struct looked l = { .text = "" };
	struct stat st;
	char disk[PATH_MAX];
	int rc = -1;

	if (!stat(dev, &st)) {
		if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode)) {
			set_err(err, errlen, "'%s' is not a block device or an sg node",
				dev);
			return CDT_EOPEN;
		}
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
	struct cdt_hazard_node *v, *n;

	if (list->n_nodes >= HZ_MAX_NODES)
		return NULL;
	v = realloc(list->nodes, (list->n_nodes + 1) * sizeof(*v));
	if (!v)
		return NULL;
	list->nodes = v;
	n = &v[list->n_nodes++];
	memset(n, 0, sizeof(*n));
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

void hz_apply_caching(struct cdt_hazard_node *n,
		      const struct mmc_mode_caching *mc)
{
	n->mode_sense_done = true;
	n->mode_sense_note[0] = '\0';
	n->dpofua = mc->dpofua;
	n->wce = mc->have_caching ? mc->wce : -1;
	if (!mc->have_caching)
		snprintf(n->mode_sense_note, sizeof(n->mode_sense_note),
			 "the answer holds no caching page (0x08)");
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
	if (rc == CDT_ECHECK && sense.key == 0x05) {
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
	bool nomem;
};

static bool is_scsi_node(const char *dir, const struct cdt_hazard_node *n)
{
	/* scsi_level belongs to a SCSI device, not to virtio-blk or nvme */
	return !n->is_dm && exists(dir, "device/scsi_level");
}

static void walk_node(struct walk *w, const char *dir,
		      enum cdt_hazard_role role, int parent, int depth);

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
		else if (w->o->mode_sense)
			mode_sense_node(w->o, n);
		else
			snprintf(n->mode_sense_note, sizeof(n->mode_sense_note),
				 "not read (mode_sense off)");
	}
	/* n may move when children are added: only indices from here on */
	if (w->list->nodes[self].is_dm)
		walk_slaves(w, dir, self,
			    w->list->nodes[self].is_multipath ?
			    CDT_NODE_PATH : CDT_NODE_COMPONENT, depth);
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

static bool has_no_sysfs(const char *dev)
{
	return !strncmp(dev, "sim:", 4) || !strncmp(dev, "iscsi://", 8);
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
}

static int scan(const char *dev, const struct cdt_hazard_opts *o,
		struct cdt_hazard_list *list, char *err, size_t errlen)
{
	const char *root = o->sysfs_root ? o->sysfs_root : "/sys";
	struct walk w = { .o = o, .list = list };
	char dir[PATH_MAX];
	int rc;

	if (!dev || !*dev) {
		set_err(err, errlen, "no device given");
		return CDT_EUSAGE;
	}
	if (has_no_sysfs(dev)) {
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
		rc = resolve(root, dev, dir, err, errlen);
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

/* ---- findings ----------------------------------------------------------- */

static int add_hazard(struct cdt_hazard_list *l, const char *id,
		      enum cdt_hazard_severity sev, const char *where,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int add_hazard(struct cdt_hazard_list *l, const char *id,
		      enum cdt_hazard_severity sev, const char *where,
		      const char *fmt, ...)
{
	struct cdt_hazard *v, *h;
	va_list ap;

	v = realloc(l->hazards, (l->n_hazards + 1) * sizeof(*v));
	if (!v)
		return CDT_ENOMEM;
	l->hazards = v;
	h = &v[l->n_hazards++];
	h->id = id;
	h->severity = sev;
	snprintf(h->where, sizeof(h->where), "%s", where);
	va_start(ap, fmt);
	vsnprintf(h->detail, sizeof(h->detail), fmt, ap);
	va_end(ap);
	return 0;
}

/* Append to a fixed buffer, ", "-separated; truncation is harmless. */
static void cat(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	if (n)
		n += (size_t)snprintf(buf + n, len - n, ", ");
	if (n >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static const char *tri_text(int v, const char *one, const char *zero)
{
	return v < 0 ? "unknown" : v ? one : zero;
}

/* What says this node has a volatile cache, or "" when nothing does. */
static void volatile_evidence(const struct cdt_hazard_node *n, char *buf,
			      size_t len)
{
	buf[0] = '\0';
	if (n->cache_volatile == 1)
		cat(buf, len, "cache_type is '%s'", n->cache_type);
	if (n->mode_sense_done && n->wce == 1)
		cat(buf, len, "the caching mode page (0x08) has WCE set");
}

static int check_flush_disabled(struct cdt_hazard_list *l, size_t i)
{
	const struct cdt_hazard_node *n = &l->nodes[i];
	char ev[384];
	size_t j;

	if (n->write_back != 0)
		return 0;
	volatile_evidence(n, ev, sizeof(ev));
	/* a stacked device passes flushes on only when it advertises a cache */
	for (j = i + 1; j < l->n_nodes; j++) {
		const struct cdt_hazard_node *c = &l->nodes[j];

		if (c->parent != (int)i)
			continue;
		if (c->write_back == 1)
			cat(ev, sizeof(ev), "its slave %s has queue/write_cache 'write back'",
			    c->name);
		else if (c->cache_volatile == 1)
			cat(ev, sizeof(ev), "its slave %s has cache_type '%s'",
			    c->name, c->cache_type);
	}
	if (!ev[0])
		return 0;
	return add_hazard(l, "flush-disabled", CDT_HAZARD_DANGER, n->name,
		"%s: queue/write_cache is 'write through', but %s. The block layer "
		"strips REQ_PREFLUSH and REQ_FUA from requests to a queue that "
		"advertises no write-back cache, so no flush ever reaches this "
		"volatile cache: nothing orders writes on the medium, and a power "
		"loss loses writes that were already acknowledged, fsync included.",
		n->name, ev);
}

static int check_no_fua(struct cdt_hazard_list *l, size_t i)
{
	const struct cdt_hazard_node *n = &l->nodes[i];
	const char *src = "queue/write_cache is 'write back' and queue/fua is 0";
	int wb = n->write_back, fua = n->fua;

	/* without sysfs (sim:, iscsi://) the caching page is all there is */
	if (wb < 0 && fua < 0 && n->mode_sense_done) {
		wb = n->wce;
		fua = n->dpofua;
		src = "the caching mode page has WCE set and the mode parameter "
		      "header's DPOFUA bit is 0";
	}
	if (wb != 1 || fua != 0)
		return 0;
	return add_hazard(l, "write-cache-no-fua", CDT_HAZARD_INFO, n->name,
		"%s: %s. The block layer carries out every REQ_FUA write as the "
		"write followed by a full cache flush, so each ordered write "
		"(journal commit, fsync) waits for the whole cache to be written "
		"out. Correct, but slow.", n->name, src);
}

static int check_fua_unsupported(struct cdt_hazard_list *l, size_t i)
{
	const struct cdt_hazard_node *n = &l->nodes[i];

	if (n->fua != 1 || !n->mode_sense_done || n->dpofua != 0)
		return 0;
	return add_hazard(l, "fua-not-supported", CDT_HAZARD_WARNING, n->name,
		"%s: queue/fua is 1, so the kernel sets the FUA bit instead of "
		"flushing after a REQ_FUA write, but the MODE SENSE(10) header's "
		"DPOFUA bit is 0: the device says it does not support FUA and may "
		"acknowledge such writes from its volatile cache.", n->name);
}

/* The paths of map m, in the order they were found. */
struct paths {
	size_t idx[HZ_MAX_NODES];
	size_t n;
};

static void collect_paths(const struct cdt_hazard_list *l, size_t m,
			  struct paths *p)
{
	size_t j;

	p->n = 0;
	for (j = m + 1; j < l->n_nodes; j++)
		if (l->nodes[j].parent == (int)m)
			p->idx[p->n++] = j;
}

static bool is_running(const struct cdt_hazard_node *n)
{
	return !strcmp(n->state, "running");
}

static int check_path_states(struct cdt_hazard_list *l, size_t m,
			     const struct paths *p)
{
	const struct cdt_hazard_node *map = &l->nodes[m];
	char run[512] = "", bad[512] = "", unk[256] = "";
	size_t k, n_run = 0, n_bad = 0;
	int rc = 0;

	for (k = 0; k < p->n; k++) {
		const struct cdt_hazard_node *c = &l->nodes[p->idx[k]];

		if (!c->state[0]) {
			cat(unk, sizeof(unk), "%s", c->name);
		} else if (is_running(c)) {
			cat(run, sizeof(run), "%s", c->name);
			n_run++;
		} else {
			cat(bad, sizeof(bad), "%s '%s'", c->name, c->state);
			n_bad++;
		}
	}
	if (n_run >= 2)
		rc = add_hazard(l, "multipath-active-paths", CDT_HAZARD_WARNING,
			map->name,
			"%s (dm/uuid '%s'): %zu paths have device/state 'running' "
			"(%s). dm-multipath sends each request down one path, so "
			"requests in flight on different paths reach the logical "
			"unit in any order and a later write can complete before "
			"an earlier one. Only a flush or FUA write that the "
			"submitter waits for orders them: filesystems do that, code "
			"that relies on the completion order of plain writes does "
			"not get it.", map->name, map->dm_uuid, n_run, run);
	if (!rc && n_bad)
		rc = add_hazard(l, "path-failed", CDT_HAZARD_WARNING, map->name,
			"%s: %zu of its %zu paths are not 'running' in device/state "
			"(%s). Requests that were in flight on a failing path are "
			"requeued onto another path and can complete after requests "
			"issued later.", map->name, n_bad, p->n, bad);
	if (!rc && !n_run && !unk[0])
		rc = add_hazard(l, "no-active-path", CDT_HAZARD_DANGER, map->name,
			"%s (dm/uuid '%s'): no path is usable (%s). Writes to the "
			"map fail, or with queue_if_no_path in its table wait "
			"unacknowledged, until a path returns.", map->name,
			map->dm_uuid, p->n ? bad : "no path under slaves/");
	return rc;
}

/* Do the known write_cache (or fua) values differ among map + paths? */
static bool tri_differs(const struct cdt_hazard_list *l, size_t m,
			const struct paths *p, bool fua)
{
	int seen = -1;
	size_t k;

	for (k = 0; k <= p->n; k++) {
		const struct cdt_hazard_node *n =
			&l->nodes[k ? p->idx[k - 1] : m];
		int v = fua ? n->fua : n->write_back;

		if (v < 0)
			continue;
		if (seen >= 0 && v != seen)
			return true;
		seen = v;
	}
	return false;
}

static int check_cache_mismatch(struct cdt_hazard_list *l, size_t m,
				const struct paths *p)
{
	char wc[400] = "", fua[300] = "";
	size_t k;

	if (!tri_differs(l, m, p, false) && !tri_differs(l, m, p, true))
		return 0;
	for (k = 0; k <= p->n; k++) {
		const struct cdt_hazard_node *n =
			&l->nodes[k ? p->idx[k - 1] : m];

		cat(wc, sizeof(wc), "%s '%s'", n->name,
		    tri_text(n->write_back, "write back", "write through"));
		cat(fua, sizeof(fua), "%s %s", n->name, tri_text(n->fua, "1", "0"));
	}
	return add_hazard(l, "cache-mode-mismatch", CDT_HAZARD_WARNING,
		l->nodes[m].name,
		"%s: the map and its paths disagree; queue/write_cache: %s; "
		"queue/fua: %s. A map's cache settings are fixed when its table "
		"is loaded, a path changed later no longer matches, and whether a "
		"flush or FUA write is honoured, passed on or emulated depends on "
		"the path a request happens to take: the ordering a filesystem "
		"builds holds on one path and not on another.",
		l->nodes[m].name, wc, fua);
}

static int check_wwid(struct cdt_hazard_list *l, size_t m,
		      const struct paths *p)
{
	const char *first = NULL;
	bool differ = false;
	char list[512] = "";
	size_t k;

	for (k = 0; k < p->n; k++) {
		const struct cdt_hazard_node *c = &l->nodes[p->idx[k]];

		if (!c->wwid[0])
			continue;
		cat(list, sizeof(list), "%s '%s'", c->name, c->wwid);
		if (first && strcmp(first, c->wwid))
			differ = true;
		first = first ? first : c->wwid;
	}
	if (!differ)
		return 0;
	return add_hazard(l, "path-wwid-mismatch", CDT_HAZARD_DANGER,
		l->nodes[m].name,
		"%s: its paths report different device/wwid (%s). They are not "
		"one logical unit, yet the map spreads writes over them: data and "
		"its ordering are split across different devices.",
		l->nodes[m].name, list);
}

static int check_path_queues(struct cdt_hazard_list *l, size_t m,
			     const struct paths *p)
{
	char rot[300] = "", qd[300] = "";
	int rot_seen = -1;
	long qd_seen = -1;
	bool rot_diff = false, qd_diff = false;
	size_t k;
	int rc = 0;

	for (k = 0; k < p->n; k++) {
		const struct cdt_hazard_node *c = &l->nodes[p->idx[k]];

		cat(rot, sizeof(rot), "%s %s", c->name,
		    tri_text(c->rotational, "1", "0"));
		if (c->queue_depth >= 0)
			cat(qd, sizeof(qd), "%s %ld", c->name, c->queue_depth);
		else
			cat(qd, sizeof(qd), "%s unknown", c->name);
		if (c->rotational >= 0) {
			rot_diff |= rot_seen >= 0 && c->rotational != rot_seen;
			rot_seen = c->rotational;
		}
		if (c->queue_depth >= 0) {
			qd_diff |= qd_seen >= 0 && c->queue_depth != qd_seen;
			qd_seen = c->queue_depth;
		}
	}
	if (rot_diff)
		rc = add_hazard(l, "rotational-mismatch", CDT_HAZARD_INFO,
			l->nodes[m].name,
			"%s: its paths disagree on queue/rotational (%s). Paths to "
			"one logical unit should look alike; this suggests "
			"different devices or a misdetected path behind the map "
			"(compare device/wwid).", l->nodes[m].name, rot);
	if (!rc && qd_diff)
		rc = add_hazard(l, "queue-depth-mismatch", CDT_HAZARD_INFO,
			l->nodes[m].name,
			"%s: its paths have different device/queue_depth (%s). The "
			"path with the deeper queue keeps more requests in flight, "
			"so more of them can be overtaken by requests sent down "
			"the other path.", l->nodes[m].name, qd);
	return rc;
}

static int check_map(struct cdt_hazard_list *l, size_t m)
{
	struct paths *p = malloc(sizeof(*p));
	int rc;

	if (!p)
		return CDT_ENOMEM;
	collect_paths(l, m, p);
	rc = check_path_states(l, m, p);
	if (!rc)
		rc = check_cache_mismatch(l, m, p);
	if (!rc)
		rc = check_wwid(l, m, p);
	if (!rc)
		rc = check_path_queues(l, m, p);
	free(p);
	return rc;
}

/* Most severe first; equal severities keep the order they were found in. */
static void sort_by_severity(struct cdt_hazard_list *l)
{
	struct cdt_hazard tmp;
	size_t i, j;

	for (i = 1; i < l->n_hazards; i++) {
		tmp = l->hazards[i];
		for (j = i; j > 0 && l->hazards[j - 1].severity < tmp.severity; j--)
			l->hazards[j] = l->hazards[j - 1];
		l->hazards[j] = tmp;
	}
}

int hz_evaluate(struct cdt_hazard_list *l)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < l->n_nodes; i++) {
		if (l->nodes[i].is_multipath)
			rc = check_map(l, i);
		if (!rc)
			rc = check_flush_disabled(l, i);
		if (!rc)
			rc = check_no_fua(l, i);
		if (!rc)
			rc = check_fua_unsupported(l, i);
	}
	if (!rc)
		sort_by_severity(l);
	return rc;
}
