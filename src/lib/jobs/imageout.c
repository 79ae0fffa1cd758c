// SPDX-License-Identifier: MIT
/*
 * The image job's output: OUT created, locked, sized and checked against
 * its map, free space and holes checked up front (imagejob.h).  image.c
 * runs the job around them; the map is the book's (book/book.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "core/device.h"
#include "jobs/imagejob.h"
#include "book/lock.h"

int image_busy(struct image_job *j, const char *what, const char *path)
{
	cdt_dev_seterr(j->dev, "%s %s is in use by another run", what, path);
	return CDT_EBUSY;
}

/*
 * Where the blocks the map says were read end, in bytes: its finished
 * areas but the skipped ones, which the first save already marks finished
 * and which are zeros whatever OUT holds.  A run killed before OUT existed,
 * or before its size was set, leaves a map whose only finished areas are
 * skipped: OUT then holds nothing the resume needs (issue 28, A).
 */
static uint64_t read_end(const struct image_job *j)
{
	uint64_t end = j->book.map.size, start, len, b;
	const struct cdt_skip *k;

	while (map_find_back(&j->book.map, MAP_FINISHED, end, &start, &len)) {
		b = (start + len + j->bs - 1) / j->bs;
		while (b > start / j->bs && (k = skip_at(&j->book.rec.skip, b - 1)))
			b = k->start;
		if (b > start / j->bs)
			return b * j->bs < start + len ? b * j->bs : start + len;
		end = start;
	}
	return 0;
}

/* OUT, created (exclusively unless force) and locked; or the one we hold. */
static int create_out(struct image_job *j, bool excl)
{
	int rc;

	if (j->fd >= 0)
		return 0;
	j->fd = open(j->out_path, O_RDWR | O_CREAT | O_CLOEXEC | (excl ? O_EXCL : 0), 0644);
	if (j->fd < 0) {
		if (errno == EEXIST) {
			cdt_dev_seterr(j->dev,
				       "%s exists: use --force to overwrite it, or --map with its map to resume",
				       j->out_path);
			return CDT_EUSAGE;
		}
		cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
		return errno == ENOENT || errno == ENOTDIR || errno == EISDIR ||
		       errno == ENAMETOOLONG ? CDT_EUSAGE : CDT_EIO;
	}
	rc = book_add_file(&j->book, j->out_path, j->fd, true);
	if (rc) {
		close(j->fd);
		j->fd = -1;
		return rc;
	}
	rc = lock_fd(j->fd);
	if (rc)
		return image_busy(j, "OUT", j->out_path);
	return 0;
}

int image_size_out(struct image_job *j)
{
	if (ftruncate(j->fd, (off_t)j->extent_bytes)) {
		cdt_dev_seterr(j->dev, "%s: %s", j->out_path, strerror(errno));
		return errno == EFBIG ? CDT_EUSAGE : CDT_EIO;
	}
	return 0;
}

int image_open_resumed(struct image_job *j)
{
	uint64_t need = read_end(j), most = j->book.map.size;
	struct stat st;
	int rc;

	if (j->fd < 0 && need) {
		cdt_dev_seterr(j->dev, "%s: %s, but its map says part of it was read",
			       j->out_path, strerror(ENOENT));
		return CDT_EUSAGE;
	}
	rc = create_out(j, false);
	if (rc)
		return rc;
	if (fstat(j->fd, &st) || (uint64_t)st.st_size < need ||
	    (uint64_t)st.st_size > most) {
		if (need == most)
			cdt_dev_seterr(j->dev, "%s is %lld bytes; its map wants exactly %" PRIu64
				       ": not the output of this map",
				       j->out_path, (long long)st.st_size, need);
		else
			cdt_dev_seterr(j->dev, "%s is %lld bytes; its map wants %" PRIu64 " to %" PRIu64
				       ": not the output of this map",
				       j->out_path, (long long)st.st_size, need, most);
		return CDT_EFORMAT;
	}
	return 0;
}

/* The map first (so OUT never exists without it), then OUT. */
int image_create_fresh(struct image_job *j)
{
	int rc;

	rc = map_init(&j->book.map, j->extent_bytes, MAP_NONTRIED);
	if (!rc)
		rc = skip_mark(&j->book.rec.skip, &j->book.map, j->bs);
	if (rc)
		return rc;
	if (j->fd >= 0 && !j->opts->force) {
		cdt_dev_seterr(j->dev,
			       "%s exists: use --force to overwrite it, or --map with its map to resume",
			       j->out_path);
		return CDT_EUSAGE;
	}
	rc = book_create(&j->book, j->opts->force);
	if (rc)
		return rc;
	rc = create_out(j, !j->opts->force);
	/*
	 * Only an overwritten OUT is cut: one made here is empty, and a
	 * truncate to 0 makes ext4 (auto_da_alloc) write the whole file back
	 * at close, 0.16 s of waiting for 700 MiB.
	 */
	if (!rc && j->opts->force && ftruncate(j->fd, 0))
		rc = CDT_EIO;
	return rc;
}

/*
 * A map checked against OUT: the identity's blocks it marks read are
 * recorded from OUT (which was just shown to hold this disc), the others
 * as the passes read them.
 */
int image_note_from_out(struct image_job *j)
{
	unsigned int i;
	int rc;

	for (i = 0; i < j->book.rec.id.nwant; i++) {
		uint64_t b = j->book.rec.id.want[i];

		if (map_status_at(&j->book.map, b * j->bs) != MAP_FINISHED)
			continue;
		if (pread(j->fd, j->buf, j->bs, (off_t)(b * j->bs)) != (ssize_t)j->bs)
			continue;
		rc = id_note(&j->book.rec.id, b, 1, j->buf);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Free space up front (statvfs): a disk too small for OUT is found before
 * the first block is read, not when it fills.  What OUT already holds on
 * disk counts; where statvfs cannot tell, the writes will.
 */
int image_check_space(struct image_job *j)
{
	uint64_t have = 0, need, avail;
	struct statvfs sv;
	struct stat st;
	char *copy;
	int rc;

	if (j->fd >= 0 && !fstat(j->fd, &st))
		have = (uint64_t)st.st_blocks * 512;
	need = j->extent_bytes > have ? j->extent_bytes - have : 0;
	copy = strdup(j->out_path);
	if (!copy)
		return CDT_ENOMEM;
	rc = statvfs(dirname(copy), &sv);
	free(copy);
	if (rc)
		return 0;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail >= need)
		return 0;
	cdt_dev_seterr(j->dev, "not enough free space for %s: %" PRIu64 " more bytes are needed, %"
		       PRIu64 " are free: free space and run the same command again",
		       j->out_path, need, avail);
	return CDT_EIO;
}

/*
 * Does OUT's filesystem keep holes?  image sizes OUT with ftruncate and
 * leaves what it has not read (and never reads: audio, gaps) unwritten,
 * which on vfat or exFAT (no sparse files: fat_cont_expand in
 * fs/fat/file.c, exfat_cont_expand in fs/exfat/file.c zero every new
 * cluster) writes zeros over the whole extent at once and takes all its
 * space.  A scratch file in OUT's directory, never named where O_TMPFILE
 * works, grown by SPARSE_PROBE_BYTES: a filesystem that allocated most of
 * them keeps no holes.  True only when the test says so; any failure is
 * "can't tell" (false).  NFS reports what the server allocated.
 */
#define SPARSE_PROBE_BYTES (1u << 20)

static int scratch_in_dir_of(const char *path)
{
	char *copy = strdup(path), *dir, *name = NULL;
	int fd = -1;

	if (!copy)
		return -1;
	dir = dirname(copy);
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && asprintf(&name, "%s/.cdtail-holes-XXXXXX", dir) > 0) {
		fd = mkostemp(name, O_CLOEXEC);
		if (fd >= 0)
			unlink(name);
	}
	free(name);
	free(copy);
	return fd;
}

static bool keeps_no_holes(const char *out_path)
{
	int fd = scratch_in_dir_of(out_path);
	struct stat st;
	bool none = false;

	if (fd < 0)
		return false;
	if (!ftruncate(fd, SPARSE_PROBE_BYTES) && !fstat(fd, &st))
		none = (uint64_t)st.st_blocks * 512 >= SPARSE_PROBE_BYTES / 2;
	close(fd);
	return none;
}

/* Only a run that grows OUT relies on holes: told in res->no_holes. */
void image_check_holes(struct image_job *j)
{
	struct stat st;

	if (j->fd >= 0 && !fstat(j->fd, &st) && (uint64_t)st.st_size < j->extent_bytes)
		j->res->no_holes = keeps_no_holes(j->out_path);
}
