// SPDX-License-Identifier: MIT
/*
 * verify --cue: OUT.sub against the disc's P-W (jobs/verifysub.h).  The
 * record of sheet track i's FILE sector x is start[i] + x, as image --raw
 * --subchannel writes them (jobs/rawsub.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include "core/device.h"
#include "engine/compare.h"
#include "cd/subq.h"
#include "cd/subpw.h"
#include "jobs/verifysub.h"

/* The sheet's path with .sub for .cue (or .sub added). */
static char *sub_path(const char *cue_path)
{
	size_t n = strlen(cue_path);
	char *p = malloc(n + 5);

	if (!p)
		return NULL;
	memcpy(p, cue_path, n + 1);
	if (n > 4 && !strcasecmp(p + n - 4, ".cue"))
		p[n - 4] = '\0';
	strcat(p, ".sub");
	return p;
}

int cue_sub_open(struct cue_sub *s, struct cdt_dev *dev, const char *cue_path,
		 bool drive_pw, uint32_t chunk, size_t n_tracks,
		 struct cdt_verify_result *res)
{
	char *path = sub_path(cue_path);

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (!path)
		return CDT_ENOMEM;
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		int rc = errno == ENOENT ? 0 : CDT_EIO;

		if (rc)
			cdt_dev_seterr(dev, "%s: %s", path, strerror(errno));
		free(path);
		return rc;
	}
	res->sub_file = path;
	res->sub_diff_sectors = calloc(n_tracks ? n_tracks : 1, sizeof(uint64_t));
	res->sub_first_diff_lba = calloc(n_tracks ? n_tracks : 1, sizeof(int64_t));
	s->start = calloc(n_tracks ? n_tracks : 1, sizeof(uint64_t));
	if (!res->sub_diff_sectors || !res->sub_first_diff_lba || !s->start)
		return CDT_ENOMEM;
	res->sub_checked = drive_pw;
	s->checked = drive_pw;
	s->chunk = chunk;
	s->disc = malloc((size_t)chunk * CD_PW_LEN);
	s->file = malloc(CD_PW_LEN);
	return s->disc && s->file ? 0 : CDT_ENOMEM;
}

int cue_sub_layout(struct cue_sub *s, const uint64_t *sectors, size_t n,
		   struct cdt_verify_result *res)
{
	uint64_t total = 0;
	struct stat st;
	size_t i;

	if (s->fd < 0)
		return 0;
	for (i = 0; i < n; i++) {
		s->start[i] = total;
		total += sectors[i];
	}
	if (fstat(s->fd, &st))
		return CDT_EIO;
	res->sub_length_differs = (uint64_t)st.st_size != total * CD_PW_LEN;
	return 0;
}

uint8_t *cue_sub_disc(struct cue_sub *s, uint64_t at, uint32_t n)
{
	if (!s->checked || at + n > s->chunk)
		return NULL;
	return s->disc + (size_t)at * CD_PW_LEN;
}

static bool q_ok(const uint8_t *rec)
{
	const uint8_t *q = rec + CD_SUB_Q_AT;
	uint16_t want = (uint16_t)(cd_q_crc(q) ^ 0xffff), stored = (uint16_t)(q[10] << 8 | q[11]);

	return want == stored;
}

/* Two records alike: P and R-W always, Q where both hold their CRC. */
static bool same(const uint8_t *a, const uint8_t *b)
{
	if (memcmp(a, b, CD_SUB_Q_AT) ||
	    memcmp(a + CD_SUB_Q_AT + CD_Q_LEN, b + CD_SUB_Q_AT + CD_Q_LEN,
		   CD_PW_LEN - CD_SUB_Q_AT - CD_Q_LEN))
		return false;
	return !q_ok(a) || !q_ok(b) || !memcmp(a + CD_SUB_Q_AT, b + CD_SUB_Q_AT, CD_Q_LEN);
}

int cue_sub_compare(struct cue_sub *s, size_t i, uint64_t x, uint32_t at,
		    int64_t lba, struct cdt_verify_result *res, bool *differs)
{
	uint8_t disc[CD_PW_LEN];
	size_t got = 0;

	*differs = false;
	if (s->fd < 0 || !s->checked || at >= s->chunk)
		return 0;
	if (compare_pread(s->fd, s->file, CD_PW_LEN, (s->start[i] + x) * CD_PW_LEN, &got))
		return CDT_EIO;
	if (got < CD_PW_LEN)	/* past OUT.sub's end: its length says so */
		return 0;
	cd_pw_deinterleave(s->disc + (size_t)at * CD_PW_LEN, disc);
	if (same(disc, s->file))
		return 0;
	*differs = true;
	if (!res->sub_diff_sectors[i]++)
		res->sub_first_diff_lba[i] = lba;
	return 0;
}

void cue_sub_close(struct cue_sub *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->disc);
	free(s->file);
	free(s->start);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

void cue_sub_result_free(struct cdt_verify_result *res)
{
	free(res->sub_file);
	free(res->sub_diff_sectors);
	free(res->sub_first_diff_lba);
	res->sub_file = NULL;
	res->sub_diff_sectors = NULL;
	res->sub_first_diff_lba = NULL;
}
