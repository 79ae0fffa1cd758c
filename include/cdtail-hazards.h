/* SPDX-License-Identifier: MIT */
/*
 * cdtail: ordering hazards of a block device (multipath, write caches,
 * FUA), the product behind cdtail-hazards(1).  Part of libcdtail, apart
 * from the disc library of cdtail.h, which it includes: it reads sysfs
 * and the caching mode page of disks, not optical discs.  The conventions
 * of cdtail.h (errors, CDT_INIT(), structs that grow, free functions)
 * hold here too.
 */
#ifndef CDTAIL_HAZARDS_H
#define CDTAIL_HAZARDS_H

#include "cdtail.h"

#ifdef __cplusplus
extern "C" {
#endif

/* exported from libcdtail.so like cdtail.h (libcdtail(3), ABI) */
#pragma GCC visibility push(default)

/* ---- hazards ------------------------------------------------------------ */
/*
 * Ordering hazards of a block device, read from sysfs and, for SCSI
 * disks, from the caching mode page.  See cdtail-hazards(1).
 *
 * cdt_hazards_scan() resolves DEV (/dev/sdb, /dev/dm-3, /dev/mapper/NAME,
 * /dev/sgN, or a bare block name) to its node under the sysfs root, walks
 * dm slaves (multipath paths, LVM components) and collects what it read in
 * list->nodes and what it concluded in list->hazards.  A DEV of the form
 * "sim:..." or "iscsi://..." has no sysfs node: pass its open handle in
 * opts->dev and only the caching page is looked at.
 */
enum cdt_hazard_severity {
	CDT_HAZARD_INFO = 0,	/* performance, not correctness */
	CDT_HAZARD_WARNING,	/* ordering differs from what naive code assumes */
	CDT_HAZARD_DANGER,	/* acknowledged writes can be lost or misordered */
};

/* "info", "warning", "danger". */
const char *cdt_hazard_severity_name(enum cdt_hazard_severity s);

#define CDT_HAZARD_NAME_MAX 64
#define CDT_HAZARD_DETAIL_MAX 1024

struct cdt_hazard {
	const char *id;			/* stable id, e.g. "path-failed" */
	enum cdt_hazard_severity severity;
	char where[CDT_HAZARD_NAME_MAX];	/* block device it concerns */
	char detail[CDT_HAZARD_DETAIL_MAX];	/* one paragraph */
};

enum cdt_hazard_role {
	CDT_NODE_DEVICE = 0,	/* what DEV resolved to */
	CDT_NODE_PATH,		/* a path of a multipath map */
	CDT_NODE_COMPONENT,	/* a slave of any other dm device */
	CDT_NODE_BACKING,	/* the disk under a loop device's backing file */
};

/*
 * What was read for one block device.  Tri-state fields are 1, 0 or -1
 * for "unknown" (file missing, unreadable or holding an unexpected value);
 * strings are "" when unknown.
 */
struct cdt_hazard_node {
	char name[CDT_HAZARD_NAME_MAX];	/* "sda", "dm-0", "sim" */
	enum cdt_hazard_role role;
	int parent;			/* index in nodes[], -1 for the top */
	char dev[16];			/* "8:0" */
	bool is_dm, is_multipath;
	char dm_name[128], dm_uuid[128];
	char state[32];			/* device/state */
	char write_cache[32];		/* queue/write_cache as read */
	int write_back;			/* queue/write_cache says "write back" */
	int fua;			/* queue/fua */
	int rotational;			/* queue/rotational */
	long queue_depth;		/* device/queue_depth, -1 unknown */
	char cache_type[48];		/* scsi_disk/.../cache_type as read */
	int cache_volatile;		/* cache_type starts with "write back" */
	char wwid[128];			/* device/wwid */
	bool mode_sense_done;		/* caching page fields below are valid */
	int wce;			/* caching page WCE, -1 page absent */
	int dpofua;			/* mode parameter header DPOFUA */
	char mode_sense_note[256];	/* why it was not read, or "" */
};

struct cdt_hazard_list {
	size_t size;			/* sizeof, set by CDT_INIT() */
	char node[CDT_HAZARD_NAME_MAX];	/* DEV's block name, "" without sysfs */
	struct cdt_hazard_node *nodes;
	size_t n_nodes;
	struct cdt_hazard *hazards;
	size_t n_hazards;
	/*
	 * Why no caching page was read from the /dev nodes of SCSI disks, or
	 * "" when it was asked for and allowed: "mode_sense off", or the
	 * sysfs root is not the live /sys, whose /dev nodes
	 * are then not its devices.
	 */
	char mode_sense_off[128];
};

struct cdt_hazard_opts {
	size_t size;			/* sizeof, set by CDT_INIT() */
	const char *sysfs_root;		/* NULL = "/sys" */
	struct cdt_dev *dev;		/* open handle for DEV, or NULL */
	/*
	 * Open each SCSI disk found under /dev (when its major:minor matches
	 * sysfs) and read its caching page.  Honoured only when the sysfs
	 * root is the live /sys: with any other root the scan never looks at
	 * the host's /dev at all (DEV is resolved by its name).
	 */
	bool mode_sense;
	const struct cdt_open_opts *open_opts;	/* for those opens; NULL ok */
};

/*
 * Fill *list (CDT_INIT(), or reused after cdt_hazard_list_free()).
 * Returns 0, CDT_EUSAGE (unreadable sysfs root, empty DEV), CDT_EOPEN
 * (DEV resolves to no block device), CDT_ENOMEM; err holds one line.
 * Findings are not errors: look at list->n_hazards.
 */
int cdt_hazards_scan(const char *dev, const struct cdt_hazard_opts *opts,
		     struct cdt_hazard_list *list, char *err, size_t errlen);
void cdt_hazard_list_free(struct cdt_hazard_list *list);

/*
 * DEV has no sysfs node ("sim:...", "iscsi://..."): the caller opens it
 * and passes the handle in opts->dev.
 */
bool cdt_hazards_needs_handle(const char *dev);

/* A tri-state node field as text: one, zero, or "unknown" for -1. */
const char *cdt_hazard_tri_text(int v, const char *one, const char *zero);


#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif /* CDTAIL_HAZARDS_H */
