/* SPDX-License-Identifier: MIT */
/*
 * The image job's state, shared by image.c (the job: locks, map,
 * identity, extent, the engine's passes) and imageout.c (OUT and the
 * map's comment lines: created, sized, checked for space and holes).
 */
#ifndef CDT_IMAGEJOB_H
#define CDT_IMAGEJOB_H

#include <stdbool.h>
#include <stdint.h>
#include "cdtail.h"
#include "book/identity.h"
#include "book/mapfile.h"
#include "engine/sink.h"
#include "book/skip.h"
#include "probe/probe.h"

/*
 * The drive that read last, a comment line of the map beside the disc's
 * identity (identity.h): a resume in another drive gives every bad block
 * one more try (another drive is the standard second try: its laser,
 * firmware and error recovery differ, and blocks one drive gives up on
 * another often reads; GNU ddrescue's manual advises the same), where the
 * same drive gets the learning plan (retry.h).  INQUIRY's vendor, product
 * and revision: two drives of one model and firmware look the same.
 */
#define DRIVE_HEAD "cdtail drive: "
#define DRIVE_MAX 40

struct image_job {
	struct cdt_dev *dev;
	const char *out_path;
	const struct cdt_image_opts *opts;
	struct cdt_image_result *res;
	struct cdt_map map;
	uint64_t extent_bytes;
	unsigned int digests;	/* CDT_HASH_MD5/SHA256 bits; 0: none */
	int fd;			/* OUT, locked for the whole run */
	int map_lock;		/* the map, locked for the whole run, or -1 */
	struct skip_plan skip;	/* not data: never read (skip.h) */
	char *base_comment;	/* the caller's line and the skip list */
	bool loaded;		/* a map was read */
	bool data_first;	/* copy the agreed extent, then search */
	uint64_t search_above;	/* the search starts here (a window resumed) */
	uint64_t window_extra;	/* the --max-extra of the search the record keeps */
	bool created_out, created_map;
	struct disc_id id;	/* the disc's, recorded or read from the map */
	struct probe_findings found;	/* the probe's: layout, failed reads */
	struct file_sink out;	/* the engine's sink while it runs */
	char *comment;		/* map comment lines: the caller's, identity */
	size_t comment_cap;
	uint8_t *buf;		/* one block, for identity and checks */
	uint32_t bs;
	char drive[DRIVE_MAX];	/* this run's (DRIVE_HEAD) */
	char map_drive[DRIVE_MAX];	/* the loaded map's, "" none */
};

/* "MAPFILE/OUT is in use by another run": the message and CDT_EBUSY. */
int image_busy(struct image_job *j, const char *what, const char *path);

/*
 * imageout.c.  Each returns 0 or a CDT_E* error with the device's message
 * set, as the job's other steps do.
 */
/* OUT resized to the extent. */
int image_size_out(struct image_job *j);
/* OUT of a resumed map: it must exist when the map says blocks were read,
 * and its length lie between what was read and the map's size. */
int image_open_resumed(struct image_job *j);
/* A fresh run: the map saved first (so OUT never exists without it), then OUT. */
int image_create_fresh(struct image_job *j);
/* The map's comment lines: the caller's, the drive, the skip list, the identity. */
int image_make_comment(struct image_job *j);
/* The same, handed to the file sink that saves them with the map. */
int image_attach_comment(struct image_job *j);
/* The identity's blocks a checked map marks read, noted from OUT. */
int image_note_from_out(struct image_job *j);
/* Free space for what OUT still needs, before anything is read. */
int image_check_space(struct image_job *j);
/* res->no_holes when OUT must grow on a filesystem that keeps no holes. */
void image_check_holes(struct image_job *j);

#endif
