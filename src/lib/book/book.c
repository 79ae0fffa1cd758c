// SPDX-License-Identifier: MIT
/* The map book (book.h): the map, its lock, records, save order and rules. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "core/device.h"
#include "book/book.h"
#include "book/lock.h"

void book_init(struct map_book *b, struct cdt_dev *dev, const char *path,
	       const char *caller_line, const char *unit)
{
	memset(b, 0, sizeof(*b));
	b->dev = dev;
	b->path = path;
	b->caller_line = caller_line;
	b->unit = unit;
	b->lock = -1;
	b->state = path ? BOOK_NEW : BOOK_NONE;
}

int book_lock(struct map_book *b, bool create)
{
	struct stat st;
	int rc;

	if (!b->path)
		return 0;
	b->create = create;
	b->created = create && stat(b->path, &st) != 0;
	rc = lock_open(b->path, create, &b->lock);
	if (rc == CDT_EOPEN) {
		/*
		 * None yet: book_create makes it.  A run killed in its first
		 * save left its temporary all the same, and no lock of a map
		 * guards them here: a save locks its temporary before it
		 * writes (map_save_locked), so one a live run holds stays.
		 */
		map_remove_stale(b->path);
		return 0;
	}
	if (rc == CDT_EBUSY) {
		cdt_dev_seterr(b->dev, "map %s is in use by another run", b->path);
		return rc;
	}
	if (rc) {
		cdt_dev_seterr(b->dev, "map %s: %s", b->path, strerror(errno));
		return errno == EISDIR ? CDT_EUSAGE : CDT_EIO;
	}
	/* ours now: what a killed run of it left is not in use */
	map_remove_stale(b->path);
	return 0;
}

/*
 * A finished search can leave blocks undecided past the true end it
 * found: blocks that never answered (a run-out or the lead-out that timed
 * out, a hang) are failed blocks, not the end, so the extent took them
 * in.  Where such a block is neither read nor skipped in the map, the
 * search runs again after the copy, as a pending one does: where those
 * blocks now answer as the end (a run-out's 05/64/00 at once), the extent
 * shrinks to the true end.
 */
static bool undecided_tail(const struct map_book *b)
{
	const struct disc_id *id = &b->rec.id;
	uint64_t bs = id->block_size, x;

	if (!bs || id->extent <= id->true_blocks)
		return false;
	for (x = id->true_blocks; x < id->extent; x++)
		if (!skip_at(&b->rec.skip, x) && map_status_at(&b->map, x * bs) != MAP_FINISHED)
			return true;
	return false;
}

static enum book_state decide(const struct map_book *b)
{
	const struct disc_id *id = &b->rec.id;

	if (!id->present)
		return BOOK_FOREIGN;
	if (id->pending || undecided_tail(b))
		return BOOK_PENDING;
	return id->window ? BOOK_WINDOW : BOOK_KNOWN;
}

int book_load(struct map_book *b, bool force)
{
	char err[400], *text = NULL;
	struct stat st;
	int rc;

	if (b->lock < 0 || force || b->created ||
	    (b->create && !fstat(b->lock, &st) && !st.st_size))
		return 0;
	rc = map_load_fd(b->lock, b->path, &b->map, &text, err, sizeof(err));
	if (rc) {
		cdt_dev_seterr(b->dev, "%s", err);
		return rc;
	}
	rc = records_parse(text, &b->rec, err, sizeof(err));
	free(text);
	if (rc == CDT_EFORMAT)
		cdt_dev_seterr(b->dev, "map %s has a damaged cdtail %s", b->path, err);
	if (rc) {
		map_free(&b->map);
		records_free(&b->rec);
		memset(&b->rec, 0, sizeof(b->rec));
		return rc;
	}
	b->state = decide(b);
	return 0;
}

int book_add_file(struct map_book *b, const char *path, int fd, bool created)
{
	struct book_file *v = realloc(b->files, (b->n_files + 1) * sizeof(*v));

	if (!v)
		return CDT_ENOMEM;
	b->files = v;
	b->files[b->n_files++] = (struct book_file){ path, fd, created };
	return 0;
}

/* One more line of the base comment: the lines are joined by '\n'. */
static int add_line(char **base, size_t *len, const char *line)
{
	size_t n = strlen(line);
	char *p;

	if (!n)
		return 0;
	p = realloc(*base, *len + n + 2);
	if (!p)
		return CDT_ENOMEM;
	*base = p;
	if (*len)
		p[(*len)++] = '\n';
	memcpy(p + *len, line, n + 1);
	*len += n;
	return 0;
}

/* The caller's line, the drive, the skip list, the raw line. */
static int make_base(struct map_book *b)
{
	size_t len = 0, skip_len = skip_text_len(&b->rec.skip);
	char line[DRIVE_MAX + 128], *skip = malloc(skip_len + 1);
	int rc;

	free(b->base);
	b->base = NULL;
	if (!skip)
		return CDT_ENOMEM;
	skip_format(&b->rec.skip, skip, skip_len + 1);
	rc = add_line(&b->base, &len, b->caller_line ? b->caller_line : "");
	if (!rc && b->drive[0]) {
		snprintf(line, sizeof(line), DRIVE_HEAD "%s", b->drive);
		rc = add_line(&b->base, &len, line);
	}
	if (!rc)
		rc = add_line(&b->base, &len, skip);
	if (!rc && b->rec.raw) {
		records_raw_line(line, sizeof(line), b->rec.raw_sectors, b->rec.raw_files);
		rc = add_line(&b->base, &len, line);
	}
	free(skip);
	if (!rc && !b->base && !(b->base = strdup("")))
		rc = CDT_ENOMEM;
	return rc;
}

/* The base lines, then the identity record's, into the comment buffer. */
static void format_comment(struct map_book *b)
{
	size_t used;

	snprintf(b->comment, b->comment_cap, "%s%s", b->base, *b->base ? "\n" : "");
	used = strlen(b->comment);
	id_format(&b->rec.id, b->comment + used, b->comment_cap - used);
}

int book_make_comment(struct map_book *b)
{
	int rc = make_base(b);

	if (rc)
		return rc;
	free(b->comment);
	b->comment_cap = strlen(b->base) + ID_TEXT_MAX + 2;
	b->comment = malloc(b->comment_cap);
	if (!b->comment)
		return CDT_ENOMEM;
	format_comment(b);
	return 0;
}

int book_create(struct map_book *b, bool replace)
{
	char err[400];
	int rc;

	if (!b->path)
		return 0;
	if (!b->comment && (rc = book_make_comment(b)))
		return rc;
	format_comment(b);
	rc = map_save_locked(b->path, &b->map, b->comment, &b->lock, replace, err, sizeof(err));
	b->holds = !rc;
	if (rc) {
		cdt_dev_seterr(b->dev, "%s", err);
		return rc == CDT_EIO && (errno == ENOENT || errno == ENOTDIR ||
					 errno == ENAMETOOLONG || errno == EISDIR) ?
		       CDT_EUSAGE : rc;
	}
	b->created = true;
	return 0;
}

int book_save(struct map_book *b, const struct cdt_map *map)
{
	char err[300];
	size_t i;
	int rc;

	if (!b->path)
		return 0;
	/* the map must never claim data the outputs do not durably hold */
	for (i = 0; i < b->n_files; i++) {
		if (b->files[i].fd >= 0 && fdatasync(b->files[i].fd)) {
			cdt_dev_seterr(b->dev, "cannot sync %s: %s", b->files[i].path,
				       strerror(errno));
			b->holds = false;
			return CDT_EIO;
		}
	}
	if (!b->comment && (rc = book_make_comment(b))) {
		b->holds = false;
		return rc;
	}
	format_comment(b);
	rc = map_save_locked(b->path, map, b->comment, &b->lock, true, err, sizeof(err));
	b->holds = !rc;
	if (rc)
		cdt_dev_seterr(b->dev, "%s", err);
	return rc;
}

int book_save_after(struct map_book *b, const struct cdt_map *map, int rc)
{
	char first[sizeof(b->dev->errmsg)], second[sizeof(b->dev->errmsg)];
	int rc2;

	if (!rc)
		return book_save(b, map);
	snprintf(first, sizeof(first), "%s", cdt_errmsg(b->dev));
	b->dev->errmsg[0] = '\0';
	rc2 = book_save(b, map);
	snprintf(second, sizeof(second), "%s", cdt_errmsg(b->dev));
	if (rc2)
		cdt_dev_seterr(b->dev, "%s; and the map could not be saved: %s (it holds the last save)",
			       first, second[0] ? second : cdt_strerror(rc2));
	else
		cdt_dev_seterr(b->dev, "%s", first);
	return rc2;
}

int book_check(struct map_book *b, uint8_t *buf, size_t cap,
	       unsigned int *matched, uint64_t *at)
{
	if (b->check)
		return b->check(b->check_ctx, matched, at);
	/* one block at least: what the identity's reads need */
	if (!b->read || cap < b->rec.id.block_size)
		return CDT_EUSAGE;
	return id_check(b->read, b->read_ctx, &b->rec.id, buf, matched, at);
}

int book_verify(struct map_book *b, uint8_t *buf, size_t cap,
		unsigned int *matched, bool *verified)
{
	uint64_t at = 0;
	int rc;

	*matched = 0;
	*verified = false;
	if (!b->rec.id.present)
		return 0;
	rc = book_check(b, buf, cap, matched, &at);
	if (rc == 1)
		return book_other_disc(b, "%s %" PRIu64 " differs from the one it recorded",
				       b->unit, at);
	if (rc == CDT_ECHANGED) {
		cdt_dev_seterr(b->dev, "the medium changed while its identity was read");
		return rc;
	}
	if (rc < 0)
		return rc;
	*verified = rc == 0;
	return 0;
}

int book_changed(struct map_book *b, uint8_t *buf, size_t cap)
{
	unsigned int matched;
	uint64_t at = 0;
	int rc = book_check(b, buf, cap, &matched, &at);

	if (!rc)
		return 0;
	if (rc == 1)
		cdt_dev_seterr(b->dev, "the medium changed: %s %" PRIu64
			       " is not the one of the disc this run began with", b->unit, at);
	else if (rc == 2 || rc == CDT_ECHANGED)
		cdt_dev_seterr(b->dev, "the medium changed and the new disc's identity cannot be read");
	else
		return rc;
	return CDT_ECHANGED;
}

int book_other_disc(struct map_book *b, const char *fmt, ...)
{
	char why[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	cdt_dev_seterr(b->dev, "map %s belongs to another disc: %s", b->path, why);
	return CDT_EOTHERDISC;
}

void book_accept(struct map_book *b)
{
	if (book_resumed(b))
		b->holds = true;
}

bool book_remove_created(struct map_book *b)
{
	bool removed = false;
	size_t i;

	for (i = 0; i < b->n_files; i++)
		if (b->files[i].created && !unlink(b->files[i].path))
			removed = true;
	if (b->created && b->path && !unlink(b->path)) {
		removed = true;
		b->holds = false;
	}
	return removed;
}

int book_close(struct map_book *b, int rc)
{
	size_t i;

	for (i = 0; i < b->n_files; i++) {
		if (b->files[i].fd >= 0 && close(b->files[i].fd) && !rc) {
			cdt_dev_seterr(b->dev, "%s: %s", b->files[i].path, strerror(errno));
			rc = CDT_EIO;
		}
	}
	if (b->lock >= 0)
		close(b->lock);
	b->lock = -1;
	free(b->files);
	b->files = NULL;
	b->n_files = 0;
	map_free(&b->map);
	records_free(&b->rec);
	free(b->base);
	free(b->comment);
	b->base = b->comment = NULL;
	return rc;
}
