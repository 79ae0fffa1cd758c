// SPDX-License-Identifier: MIT
/*
 * The acquisition log (acqlog.h).  One entry is built as a JSON object and
 * written either as one line of JSON or as indented "key: value" text from
 * that same object, so the two forms never say different things.  Entries
 * are appended: the log of an image resumed three times tells all three
 * runs, as an examiner's notes would.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "acqlog.h"
#include "readui.h"

/* An existing log keeps the form its first entry has. */
static bool log_is_json(const char *path, bool want_json)
{
	char c = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return want_json;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c ? c == '{' : want_json;
}

void acqlog_begin(struct acqlog *l, const char *out, const char *explicit_path,
		  bool no_log, bool json, int argc, char **argv)
{
	memset(l, 0, sizeof(*l));
	if (!no_log)
		snprintf(l->path, sizeof(l->path), "%s%s", explicit_path ? explicit_path : out,
			 explicit_path ? "" : ".log");
	l->json = l->path[0] && log_is_json(l->path, json);
	l->argc = argc;
	l->argv = argv;
	clock_gettime(CLOCK_REALTIME, &l->start);
}

static json_object *iso_time(const struct timespec *t)
{
	char buf[32];
	struct tm tm;

	gmtime_r(&t->tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_object_new_string(buf);
}

/* The command line as a shell would take it back: words with blanks quoted. */
static json_object *command_line(const struct acqlog *l)
{
	char buf[4096];
	size_t used = (size_t)snprintf(buf, sizeof(buf), "cdtail");
	int i;

	for (i = 0; i < l->argc && used < sizeof(buf); i++) {
		bool plain = l->argv[i][0] && !strpbrk(l->argv[i], " \t'\"\\$`;&|<>*?()");

		used += (size_t)snprintf(buf + used, sizeof(buf) - used, plain ? " %s" : " '%s'",
					 l->argv[i]);
	}
	return json_object_new_string(buf);
}

static json_object *drive_json(struct cdt_dev *dev, const struct cdt_inquiry *inq)
{
	json_object *o = json_object_new_object();
	char serial[64];

	json_object_object_add(o, "vendor", json_object_new_string(inq->vendor));
	json_object_object_add(o, "product", json_object_new_string(inq->product));
	json_object_object_add(o, "revision", json_object_new_string(inq->revision));
	/* asked last, so the run's own command counts are what they were */
	json_object_object_add(o, "serial", dev && !cdt_unit_serial(dev, serial, sizeof(serial)) &&
				serial[0] ? json_object_new_string(serial) : NULL);
	return o;
}

static json_object *sizes_json(const struct cdt_probe_result *p)
{
	const struct cdt_sizes *s = &p->sizes;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "read_capacity", cli_json_count(s->read_capacity));
	json_object_object_add(o, "toc_leadout", cli_json_count(s->toc_leadout));
	json_object_object_add(o, "track_end", cli_json_count(s->track_end));
	json_object_object_add(o, "disc_leadout", cli_json_count(s->disc_leadout));
	json_object_object_add(o, "filesystem", cli_json_count(s->filesystem));
	json_object_object_add(o, "kernel", cli_json_count(s->kernel));
	return o;
}

static json_object *medium_json(const struct cdt_probe_result *p)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "profile", json_object_new_string(cdt_profile_name(p->sizes.profile)));
	json_object_object_add(o, "block_size", json_object_new_int((int)p->sizes.block_size));
	json_object_object_add(o, "filesystem", p->sizes.fs_type[0] ?
			       json_object_new_string(p->sizes.fs_type) : NULL);
	json_object_object_add(o, "reported_blocks", json_object_new_int64((int64_t)p->reported_blocks));
	json_object_object_add(o, "true_blocks", json_object_new_int64((int64_t)p->true_blocks));
	json_object_object_add(o, "end", json_object_new_string(cdt_verdict_name(p->verdict)));
	json_object_object_add(o, "sizes", sizes_json(p));
	return o;
}

static json_object *ranges_json(const struct cdt_range *r, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "start", json_object_new_int64((int64_t)r[i].first));
		json_object_object_add(e, "blocks", json_object_new_int64((int64_t)(r[i].last - r[i].first + 1)));
		json_object_array_add(a, e);
	}
	return a;
}

static json_object *reads_json(const struct cdt_image_opts *io, const struct cdt_image_result *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "commands", json_object_new_int64((int64_t)r->sum.stats.commands));
	json_object_object_add(o, "reads", json_object_new_int64((int64_t)r->sum.stats.reads));
	json_object_object_add(o, "failed_reads", json_object_new_int64((int64_t)r->sum.stats.failed_reads));
	json_object_object_add(o, "blocks_read", json_object_new_int64((int64_t)r->sum.blocks_read));
	json_object_object_add(o, "resumed", json_object_new_boolean(r->resumed));
	json_object_object_add(o, "finished_before", json_object_new_int64((int64_t)r->finished_before));
	/* cdt_read_opts: < 0 is the default, the learning retry plan */
	json_object_object_add(o, "retries", io->rd.retries < 0 ? json_object_new_string("plan") :
			       json_object_new_int(io->rd.retries));
	return o;
}

/* A digest's hex, or null where it was not computed. */
static json_object *hex_or_null(const char *h)
{
	return h[0] ? json_object_new_string(h) : NULL;
}

/* The digests asked for: sha1 only when it was (the default pair has none). */
static json_object *digests_json(const char *md5, const char *sha256, const char *sha1,
				 bool want_sha1)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "md5", hex_or_null(md5));
	json_object_object_add(o, "sha256", hex_or_null(sha256));
	if (want_sha1)
		json_object_object_add(o, "sha1", hex_or_null(sha1));
	return o;
}

/*
 * Each data track of the extent with its digests: the library computed
 * them from the same stream of blocks as the image's (never OUT read
 * again here).  Without digests, or on a failure, the tracks are listed
 * with null digests.
 */
static json_object *tracks_json(struct cdt_dev *dev, const struct acqlog_run *run)
{
	const struct cdt_image_result *r = run->res;
	bool sha1 = run->io->digests != CDT_HASH_NONE && (run->io->digests & CDT_HASH_SHA1);
	struct cdt_layout *lay;
	json_object *a = json_object_new_array();
	size_t i;

	if (r->n_track_digests) {
		for (i = 0; i < r->n_track_digests; i++) {
			const struct cdt_track_digests *t = &r->track_digests[i];
			json_object *e = json_object_new_object();

			json_object_object_add(e, "number", json_object_new_int((int)t->number));
			json_object_object_add(e, "session", json_object_new_int((int)t->session));
			json_object_object_add(e, "start", json_object_new_int64((int64_t)t->start));
			json_object_object_add(e, "blocks", json_object_new_int64((int64_t)t->blocks));
			json_object_object_add(e, "digests", digests_json(t->md5, t->sha256, t->sha1, sha1));
			json_object_array_add(a, e);
		}
		return a;
	}
	lay = cdt_dev_layout(dev);
	for (i = 0; lay && i < lay->n_tracks; i++) {
		const struct cdt_track *t = &lay->tracks[i];
		uint64_t end = t->start + t->blocks;
		json_object *e;

		if (t->mode != CDT_TRACK_DATA || t->start >= r->extent_blocks)
			continue;
		if (end > r->extent_blocks)
			end = r->extent_blocks;
		e = json_object_new_object();
		json_object_object_add(e, "number", json_object_new_int((int)t->number));
		json_object_object_add(e, "session", json_object_new_int((int)t->session));
		json_object_object_add(e, "start", json_object_new_int64((int64_t)t->start));
		json_object_object_add(e, "blocks", json_object_new_int64((int64_t)(end - t->start)));
		json_object_object_add(e, "digests", digests_json("", "", "", sha1));
		json_object_array_add(a, e);
	}
	cdt_layout_free(lay);
	return a;
}

static json_object *image_digests(const struct acqlog_run *run)
{
	const struct cdt_image_result *r = run->res;
	bool sha1 = run->io->digests != CDT_HASH_NONE && (run->io->digests & CDT_HASH_SHA1);

	return digests_json(r->sum.digests.md5, r->sum.digests.sha256, r->sha1, sha1);
}

static void add_result(json_object *o, struct cdt_dev *dev, const struct acqlog_run *run)
{
	const struct cdt_image_result *r = run->res;

	json_object_object_add(o, "drive", drive_json(dev, &rui_probe(&r->sum)->inq));
	json_object_object_add(o, "medium", medium_json(rui_probe(&r->sum)));
	json_object_object_add(o, "extent_blocks", json_object_new_int64((int64_t)r->extent_blocks));
	json_object_object_add(o, "reads", reads_json(run->io, r));
	json_object_object_add(o, "bad_blocks", json_object_new_int64((int64_t)r->sum.bad_blocks));
	json_object_object_add(o, "bad_areas", ranges_json(r->sum.bad, r->sum.n_bad));
	json_object_object_add(o, "skipped_blocks", json_object_new_int64((int64_t)r->skipped_blocks));
	json_object_object_add(o, "skipped", rui_json_skipped(r->skipped, r->n_skipped));
	json_object_object_add(o, "digests", image_digests(run));
	/* a track's digests mean something only once the run is over */
	json_object_object_add(o, "tracks", run->error ? json_object_new_array() :
			       tracks_json(dev, run));
}

static json_object *entry(const struct acqlog *l, struct cdt_dev *dev, const struct acqlog_run *run)
{
	json_object *o = json_object_new_object();
	struct timespec end;

	clock_gettime(CLOCK_REALTIME, &end);
	json_object_object_add(o, "tool", json_object_new_string("cdtail " CDT_VERSION));
	json_object_object_add(o, "library", json_object_new_string(cdt_version()));
	json_object_object_add(o, "command", command_line(l));
	json_object_object_add(o, "started", iso_time(&l->start));
	json_object_object_add(o, "ended", iso_time(&end));
	json_object_object_add(o, "device", json_object_new_string(run->addr));
	json_object_object_add(o, "out", json_object_new_string(run->out));
	json_object_object_add(o, "map", run->io->map_path ?
			       json_object_new_string(run->io->map_path) : NULL);
	if (run->res)
		add_result(o, dev, run);
	json_object_object_add(o, "error", run->error ? json_object_new_string(run->error) : NULL);
	json_object_object_add(o, "verdict", json_object_new_string(run->verdict));
	json_object_object_add(o, "status", json_object_new_int(run->status));
	return o;
}

static void text_value(FILE *f, json_object *v, int depth);

/* An array of objects: one line an element, "key=value" pairs. */
static void text_array(FILE *f, json_object *a, int depth)
{
	size_t i, n = json_object_array_length(a);

	if (!n)
		fputs(" none\n", f);
	else
		fputc('\n', f);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);

		fprintf(f, "%*s-", 2 * depth, "");
		if (json_object_is_type(e, json_type_object)) {
			json_object_object_foreach(e, k, v) {
				if (json_object_is_type(v, json_type_object)) {
					json_object_object_foreach(v, k2, v2)
						fprintf(f, " %s=%s", k2, v2 ? json_object_get_string(v2) : "none");
				} else {
					fprintf(f, " %s=%s", k, v ? json_object_get_string(v) : "none");
				}
			}
		} else {
			fprintf(f, " %s", json_object_get_string(e));
		}
		fputc('\n', f);
	}
}

static void text_value(FILE *f, json_object *v, int depth)
{
	if (!v) {
		fputs(" none\n", f);
	} else if (json_object_is_type(v, json_type_object)) {
		fputc('\n', f);
		json_object_object_foreach(v, k, sub) {
			fprintf(f, "%*s%s:", 2 * depth, "", k);
			text_value(f, sub, depth + 1);
		}
	} else if (json_object_is_type(v, json_type_array)) {
		text_array(f, v, depth);
	} else {
		fprintf(f, " %s\n", json_object_get_string(v));
	}
}

static int append(const struct acqlog *l, json_object *o)
{
	FILE *f = fopen(l->path, "ae");
	int rc = 0;

	if (!f) {
		cli_err("cannot write the acquisition log %s: %s", l->path, strerror(errno));
		return -1;
	}
	if (l->json) {
		fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	} else {
		fputs("==== cdtail acquisition log: one run ====", f);
		text_value(f, o, 0);
		fputc('\n', f);
	}
	if (ferror(f) | fclose(f)) {
		cli_err("cannot write the acquisition log %s: %s", l->path, strerror(errno));
		rc = -1;
	}
	return rc;
}

int acqlog_write(const struct acqlog *l, struct cdt_dev *dev, const struct acqlog_run *run)
{
	json_object *o;
	int rc;

	if (!l->path[0])
		return 0;
	o = entry(l, dev, run);
	rc = append(l, o);
	json_object_put(o);
	return rc;
}
