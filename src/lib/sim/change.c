// SPDX-License-Identifier: MIT
/*
 * change=N[:IMAGE2]: the medium changes before the Nth command since open
 * (cdtail-sim(7)).  That command answers UNIT ATTENTION
 * 06/28/00 (NOT READY TO READY CHANGE, MEDIUM MAY HAVE CHANGED, as a drive
 * does after a disc is swapped, SPC-4 / MMC-6), and from then on the drive
 * serves IMAGE2, or the same image again.  IMAGE2 is opened with the
 * first so that a missing file is a usage error at once; hide=, extra=,
 * runout=, bad= and formatted= apply to the new disc as they did to the
 * first (a formatted medium reports its format's size whatever its data),
 * flaky= no longer does.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cdtail.h"
#include "sim/drive.h"

int sim_key_change(struct sim_config *c, const char *v)
{
	const char *colon = strchr(v, ':');
	char *end;

	errno = 0;
	c->change_at = strtoull(v, &end, 10);
	if (errno || end == v || !c->change_at || (*end && end != colon) || *v == '-')
		return CDT_EUSAGE;
	if (colon) {
		if (!colon[1])
			return CDT_EUSAGE;
		c->change_image = strdup(colon + 1);
		if (!c->change_image)
			return CDT_ENOMEM;
	}
	return 0;
}

int sim_change_open(struct sim *s, char *err, size_t errlen)
{
	struct stat st;

	s->change_fd = -1;
	if (!s->cfg.change_image)
		return 0;
	s->change_fd = open(s->cfg.change_image, O_RDONLY | O_CLOEXEC);
	if (s->change_fd < 0 || fstat(s->change_fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "sim: cannot open %s (change=): %s",
			 s->cfg.change_image, s->change_fd < 0 ? strerror(errno) :
			 "not a regular file");
		return CDT_EOPEN;
	}
	/* the first disc's rule (tracktable.c), checked at open as it is */
	if (s->cfg.formatted && (uint64_t)st.st_size / s->cfg.block_size > s->cfg.formatted) {
		snprintf(err, errlen, "sim: formatted=%" PRIu64 " is less than the %" PRIu64
			 " blocks in %s (change=)", s->cfg.formatted,
			 (uint64_t)st.st_size / s->cfg.block_size, s->cfg.change_image);
		return CDT_EUSAGE;
	}
	return 0;
}

/* The new disc's sizes; a disc too small for hide= reports one block. */
static void resize(struct sim *s)
{
	const struct sim_config *c = &s->cfg;
	off_t size = lseek(s->image_fd, 0, SEEK_END);
	uint64_t n = size > 0 ? (uint64_t)size / c->block_size : 0;

	s->n_blocks = n;
	s->n_reported = (n > c->hide ? n - c->hide : 0) + c->extra;
	if (c->formatted)
		s->n_reported = c->formatted;
	if (!s->n_reported)
		s->n_reported = 1;
	if (c->runout > n)
		s->cfg.runout = n;
	s->cfg.have_flaky = false;
	s->touched_end = 0;
}

bool sim_change_due(struct sim *s)
{
	if (!s->cfg.change_at || s->n_commands != s->cfg.change_at)
		return false;
	if (s->change_fd >= 0) {
		close(s->image_fd);
		s->image_fd = s->change_fd;
		s->change_fd = -1;
		resize(s);
	}
	return true;
}

void sim_change_free(struct sim *s)
{
	if (s->change_fd >= 0)
		close(s->change_fd);
	free(s->cfg.change_image);
}

bool sim_serves(const struct sim *s, const struct stat *st)
{
	struct stat a;

	if (s->cue && sim_cue_serves(s, st))
		return true;
	if (!fstat(s->image_fd, &a) && a.st_dev == st->st_dev && a.st_ino == st->st_ino)
		return true;
	return s->change_fd >= 0 && !fstat(s->change_fd, &a) &&
	       a.st_dev == st->st_dev && a.st_ino == st->st_ino;
}
