// SPDX-License-Identifier: MIT
/* What export checks before it seals an image (export_check.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <openssl/evp.h>
#include "cli.h"
#include "export_check.h"

#define CMD "export"
#define BLOCK 2048u
#define UNCHECKED_HINT "or add --unchecked to export it anyway (the E01's notes say so)"

/*
 * A check that failed: refused (the first, exit 2) or, with --unchecked,
 * kept for the notes and the output.
 */
int chk_finding(struct export_check *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!c->unchecked) {
		cli_err("%s: %s", CMD, msg);
		snprintf(c->refusal, sizeof(c->refusal), "%s", msg);
		return EX_USAGE_ERR;
	}
	if (c->n_findings < CHK_MAX_FINDINGS) {
		/* the reason without its remedy: the first clause */
		char *semi = strstr(msg, ": ");

		snprintf(c->findings[c->n_findings++], sizeof(c->findings[0]), "%.*s",
			 semi ? (int)(semi - msg) : (int)strlen(msg), msg);
	}
	return 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The record: --log FILE, else IMAGE.log beside IMAGE (image's naming). */
static int find_record(struct export_check *c, const char *log_opt)
{
	char err[1200];

	if (log_opt) {
		c->log = log_opt;
	} else {
		snprintf(c->log_buf, sizeof(c->log_buf), "%s.log", c->image);
		c->log = exists(c->log_buf) ? c->log_buf : NULL;
	}
	if (!c->log)
		return chk_finding(c, "%s has no acquisition record (no %s.log beside it): export "
			       "checks an image against the record of the run that made it; name it "
			       "with --log FILE, " UNCHECKED_HINT, c->image, c->image);
	if (acq_read(c->log, &c->rec, err, sizeof(err)))
		return chk_finding(c, "%s: give the log of the run that made %s with --log FILE, "
			       UNCHECKED_HINT, err, c->image);
	c->have_record = true;
	return 0;
}

/*
 * A map path the record gives relative to the run's directory, from here:
 * where the record's OUT names IMAGE ("case/d.iso" of "/mnt/case/d.iso"),
 * the run was in what comes before it ("/mnt/").  0 when that cannot be told.
 */
static int from_run_dir(const struct export_check *c, char *out, size_t len)
{
	size_t ni = strlen(c->image), no = strlen(c->rec.out);

	if (c->rec.map[0] == '/' || c->rec.out[0] == '/' || !no || no > ni ||
	    strcmp(c->image + ni - no, c->rec.out) || (ni > no && c->image[ni - no - 1] != '/'))
		return 0;
	return snprintf(out, len, "%.*s%s", (int)(ni - no), c->image, c->rec.map) < (int)len;
}

/*
 * The map: --map, else the one the record's run used (as it named it,
 * from the run's directory, or by its name beside IMAGE), else IMAGE.map
 * beside IMAGE.
 */
static int find_map(struct export_check *c, const char *map_opt)
{
	const char *slash = strrchr(c->image, '/'), *name;

	c->map = map_opt;
	if (c->map)
		return 0;
	if (c->have_record && c->rec.map[0]) {
		if (from_run_dir(c, c->map_buf, sizeof(c->map_buf)) && exists(c->map_buf)) {
			c->map = c->map_buf;
			return 0;
		}
		if (exists(c->rec.map)) {
			c->map = c->rec.map;
			return 0;
		}
		name = strrchr(c->rec.map, '/') ? strrchr(c->rec.map, '/') + 1 : c->rec.map;
		snprintf(c->map_buf, sizeof(c->map_buf), "%.*s%s",
			 slash ? (int)(slash + 1 - c->image) : 0, c->image, name);
		if (exists(c->map_buf)) {
			c->map = c->map_buf;
			return 0;
		}
		/* its identity and its exact bad areas are what export checks and seals */
		return chk_finding(c, "%s names the map %s, which is not there (nor beside %s): "
				   "give it with --map MAPFILE, " UNCHECKED_HINT, c->log,
				   c->rec.map, c->image);
	}
	if (c->have_record)
		return 0;	/* the run used no map: a map beside is another run's */
	snprintf(c->map_buf, sizeof(c->map_buf), "%s.map", c->image);
	if (exists(c->map_buf))
		c->map = c->map_buf;
	return 0;
}

/*
 * cmd_image.c's verdicts: a finished run is "complete" or "unreadable"
 * (its bad areas mapped); cmd_tail.c's: the copy is whole once tail
 * "appended" the hidden tail or found "nothing-to-add".
 */
static int check_verdict(struct export_check *c)
{
	const char *v = c->rec.verdict;

	if (c->rec.interrupted)
		v = "interrupted";
	if (!strcmp(c->rec.run, "tail") && strcmp(v, "interrupted")) {
		if (!strcmp(v, "appended") || !strcmp(v, "nothing-to-add"))
			return 0;
		return chk_finding(c, "%s says cdtail tail's verdict %s: %s is not known to "
				   "be the whole disc; run cdtail tail again (or image the disc), "
				   UNCHECKED_HINT, c->log, v, c->image);
	}
	if (!strcmp(v, "complete") || !strcmp(v, "unreadable"))
		return 0;
	if (!strcmp(v, "interrupted"))
		return chk_finding(c, "%s says its run was interrupted (verdict interrupted): %s is "
			       "not finished; resume it (run the same cdtail image command again, "
			       "with its map) and export then, " UNCHECKED_HINT, c->log, c->image);
	if (!strcmp(v, "incomplete"))
		return chk_finding(c, "%s says verdict incomplete: %s lacks Form 2 blocks READ(10) "
			       "cannot give; image the disc with --raw, " UNCHECKED_HINT, c->log,
			       c->image);
	if (!strcmp(v, "window-limited"))
		return chk_finding(c, "%s says verdict window-limited: the end search stopped at "
			       "--max-extra's window, the disc may hold more than %s; image again "
			       "with a larger --max-extra, " UNCHECKED_HINT, c->log, c->image);
	return chk_finding(c, "%s says verdict %s: the run that made %s did not finish; image "
		       "the disc again, " UNCHECKED_HINT, c->log, v, c->image);
}

static int check_extent(struct export_check *c)
{
	uint32_t bs = c->rec.block_size ? c->rec.block_size : BLOCK;

	if (bs != BLOCK)
		return chk_finding(c, "%s records %u-byte blocks: export seals 2048-byte images; "
			       "give the record of %s with --log FILE, " UNCHECKED_HINT, c->log,
			       (unsigned int)bs, c->image);
	if (!c->rec.has_extent)
		return chk_finding(c, "%s says no extent (extent_blocks): it cannot tell %s's size; "
			       "give the record of a finished run with --log FILE, " UNCHECKED_HINT,
			       c->log, c->image);
	if (c->rec.extent_blocks > UINT64_MAX / BLOCK || c->rec.extent_blocks * BLOCK != c->bytes)
		return chk_finding(c, "%s is %llu blocks but its record %s says %llu: it changed "
			       "since, or the record is another image's; export the image the "
			       "record describes, " UNCHECKED_HINT, c->image,
			       (unsigned long long)(c->bytes / BLOCK), c->log,
			       (unsigned long long)c->rec.extent_blocks);
	return 0;
}

/* The whole file at path (a map: small), NUL-terminated; NULL with errno. */
static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	ssize_t n;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size >= 0 && st.st_size < (64 << 20))
		buf = malloc((size_t)st.st_size + 1);
	if (buf) {
		n = pread(fd, buf, (size_t)st.st_size, 0);
		if (n < 0) {
			free(buf);
			buf = NULL;
		} else {
			buf[n] = '\0';
			*len = (size_t)n;
		}
	} else {
		errno = errno ? errno : EFBIG;
	}
	close(fd);
	return buf;
}

int chk_identity(struct export_check *c, int fd)
{
	struct acq_identity id;
	uint8_t block[BLOCK], md[32];
	unsigned int i, mdlen;
	char err[512];
	size_t len = 0;
	char *text;
	int rc;

	if (!c->map)
		return 0;
	text = slurp(c->map, &len);
	if (!text) {
		cli_err("%s: cannot read %s: %s", CMD, c->map, strerror(errno));
		return errno == ENOENT ? EX_USAGE_ERR : EX_DEVICE_ERR;
	}
	rc = acq_identity_parse(text, len, &id, err, sizeof(err));
	free(text);
	if (rc)
		return chk_finding(c, "%s: %s; give IMAGE's own map with --map, " UNCHECKED_HINT,
			       c->map, err);
	if (id.present && id.block_size != BLOCK)
		return chk_finding(c, "%s records %u-byte blocks: it is not the map of a 2048-byte "
			       "image; give %s's own map with --map, " UNCHECKED_HINT, c->map,
			       (unsigned int)id.block_size, c->image);
	for (i = 0; i < id.n; i++) {
		mdlen = sizeof(md);
		if (id.lba[i] >= c->bytes / BLOCK ||
		    pread(fd, block, BLOCK, (off_t)(id.lba[i] * BLOCK)) != (ssize_t)BLOCK ||
		    EVP_Digest(block, BLOCK, md, &mdlen, EVP_sha256(), NULL) != 1 ||
		    memcmp(md, id.sha256[i], sizeof(md)))
			return chk_finding(c, "block %llu of %s differs from the SHA-256 its map %s "
				       "holds of the disc's block: %s changed since it was read; "
				       "image the disc again (or restore the image), " UNCHECKED_HINT,
				       (unsigned long long)id.lba[i], c->image, c->map, c->image);
		c->id_blocks++;
	}
	c->passed |= CHK_IDENTITY;
	return 0;
}

/* A check's result rc, noted as passed where it found nothing (findings: as many as before). */
static int passed(struct export_check *c, unsigned int findings, int rc, unsigned int check)
{
	if (!rc && c->n_findings == findings)
		c->passed |= check;
	return rc;
}

int chk_record(struct export_check *c, const char *log_opt, const char *map_opt)
{
	unsigned int f;
	int rc;

	if (log_opt && !exists(log_opt)) {
		cli_err("%s: --log %s: no such file (the acquisition record of %s)", CMD, log_opt,
			c->image);
		return EX_USAGE_ERR;
	}
	rc = find_record(c, log_opt);
	f = c->n_findings;
	if (!rc && c->have_record)
		rc = passed(c, f, check_verdict(c), CHK_VERDICT);
	f = c->n_findings;
	if (!rc && c->have_record)
		rc = passed(c, f, check_extent(c), CHK_EXTENT);
	if (!rc)
		rc = find_map(c, map_opt);
	if (!rc && !c->map && c->have_record && c->rec.bad_unread)
		rc = chk_finding(c, "%s lists a bad area it does not give in full: give %s's map "
				 "with --map, " UNCHECKED_HINT, c->log, c->image);
	return rc;
}

int chk_digests(struct export_check *c, const char *md5, const char *sha1, const char *sha256)
{
	const char *names[] = { "MD5", "SHA-1", "SHA-256" };
	const char *got[] = { md5, sha1, sha256 };
	const char *want[] = { c->rec.md5, c->rec.sha1, c->rec.sha256 };
	size_t i;

	if (!c->have_record)
		return 0;
	for (i = 0; i < 3; i++)
		if (want[i][0] && strcmp(want[i], got[i]))
			return chk_finding(c, "the %s of %s as export read it, %s, differs from its "
				       "record's %s (%s): %s changed since it was acquired; image "
				       "the disc again (or restore the image), " UNCHECKED_HINT,
				       names[i], c->image, got[i], want[i], c->log, c->image);
	if (want[0][0] || want[1][0] || want[2][0])
		c->passed |= CHK_DIGESTS;
	return 0;
}

static size_t put(char *out, size_t len, size_t used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t put(char *out, size_t len, size_t used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (used >= len)
		return used;
	va_start(ap, fmt);
	n = vsnprintf(out + used, len - used, fmt, ap);
	va_end(ap);
	return n < 0 ? used : used + (size_t)n;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* What the record says of the run and the medium (the drive and the start have header values of their own). */
static size_t record_notes(const struct export_check *c, char *out, size_t len, size_t u)
{
	const struct acq_record *r = &c->rec;

	if (r->digests_none)
		u = put(out, len, u, "; the run recorded no digests");
	u = put(out, len, u, "; verdict %s, %llu bad blocks; medium %s, %llu blocks (reported "
		"%llu, true %llu, end %s)", r->verdict, (unsigned long long)r->bad_blocks,
		r->profile[0] ? r->profile : "?", (unsigned long long)r->extent_blocks,
		(unsigned long long)r->reported_blocks, (unsigned long long)r->true_blocks,
		r->end[0] ? r->end : "?");
	if (r->sizes[0])
		u = put(out, len, u, "; sizes %s", r->sizes);
	if (r->filesystem[0])
		u = put(out, len, u, "; filesystem %s", r->filesystem);
	return u;
}

/* A cut inside a UTF-8 character would make the notes unreadable: cut before it. */
static void cut_utf8(char *out, size_t max)
{
	size_t n = strlen(out);

	if (n <= max)
		return;
	while (max && ((unsigned char)out[max] & 0xc0) == 0x80)
		max--;
	out[max] = '\0';
}

void chk_notes(const struct export_check *c, const char *user_notes, const char *sha256,
	       char *out, size_t len)
{
	size_t u = 0;
	unsigned int i;

	out[0] = '\0';
	if (user_notes && *user_notes)
		u = put(out, len, u, "%s; ", user_notes);
	u = put(out, len, u, "cdtail %s", CDT_VERSION);
	if (c->unchecked)
		u = put(out, len, u, " --unchecked: NOT checked against its record");
	else
		u = put(out, len, u, ": checked against %s%s%s", base_name(c->log),
			c->map ? " and " : "", c->map ? base_name(c->map) : "");
	if (!sha256 || !*sha256)
		sha256 = c->rec.sha256;
	if (*sha256)
		u = put(out, len, u, "; sha256 %s", sha256);
	if (c->have_record)
		u = record_notes(c, out, len, u);
	for (i = 0; i < c->n_findings; i++)
		u = put(out, len, u, "; unchecked: %s", c->findings[i]);
	/* header values are lines of tab-separated fields: neither may appear */
	for (i = 0; out[i]; i++)
		if (out[i] == '\n' || out[i] == '\t' || out[i] == '\r')
			out[i] = ' ';
	cut_utf8(out, CHK_NOTES_MAX);
}

time_t chk_started(const struct export_check *c)
{
	struct tm tm = { 0 };
	const char *rest;

	if (!c->have_record || !c->rec.started[0])
		return 0;
	rest = strptime(c->rec.started, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!rest)
		return 0;
	return timegm(&tm);
}
