// SPDX-License-Identifier: MIT
/*
 * export's entry in the image's record (exportlog.h).  The record's
 * reader passes over it (acqread.c), so an image exported twice is
 * checked against its acquisition both times, and the entries tell every
 * E01 made of it, as an examiner's notes would.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "exportlog.h"

#define CMD "export"
#define BLOCK 2048u
#define HEAD "==== cdtail acquisition log"

/* The entry can be appended at path: the file is writable, or its directory is where it is not. */
static bool can_append(const char *path)
{
	char dir[4096];
	char *slash;

	if (!access(path, F_OK))
		return !access(path, W_OK);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		return !access(".", W_OK | X_OK);
	slash[slash == dir] = '\0';
	return !access(dir, W_OK | X_OK);
}

int exportlog_begin(struct acqlog *l, struct acqlog_opts *o, const char *image,
		    const char *log_opt, bool json, int argc, char **argv,
		    const char *const *others)
{
	char def[4096];

	snprintf(def, sizeof(def), "%s.log", image);
	o->log_path = o->no_log ? NULL : log_opt;
	acqlog_begin(l, CMD, o, def, json, argc, argv);
	/* evidence is often on a read-only mount: name both ways out */
	if (l->path[0] && !can_append(l->path))
		return cli_usage(CMD, "cannot append the export's entry to the record %s: %s; give "
				 "a writable copy of it with --log FILE, or add --no-log", l->path,
				 strerror(errno));
	return acqlog_check(l, others);
}

/*
 * acqlog.c's forms open with "{" or its "====" line: a file that is
 * neither (an examiner's own notes given as --log) is not appended to.
 */
static bool takes_entries(const char *path)
{
	char head[sizeof(HEAD)] = "";
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t i = 0;

	if (fd < 0)
		return errno == ENOENT;
	n = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (n <= 0)
		return n == 0;
	while (i < (size_t)n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\t' ||
				 head[i] == '\r'))
		i++;
	return i == (size_t)n || head[i] == '{' || !strncmp(head, HEAD, (size_t)n);
}

static json_object *text_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

/* The EWF files left: base.E01 ... */
static json_object *files_json(const struct export_entry *e)
{
	json_object *a = json_object_new_array();
	char name[4200];
	unsigned int i;

	for (i = 1; i <= e->segments; i++) {
		snprintf(name, sizeof(name), "%s.E%02u", e->base, i);
		json_object_array_add(a, json_object_new_string(name));
	}
	return a;
}

/* Each digest export computed against the record's: equal, differs, not recorded. */
static json_object *against_record(const struct export_entry *e)
{
	const struct acq_record *r = &e->chk->rec;
	const char *keys[] = { "md5", "sha1", "sha256" };
	const char *got[] = { e->md5, e->sha1, e->sha256 };
	const char *want[] = { r->md5, r->sha1, r->sha256 };
	json_object *o;
	size_t i;

	if (!e->chk->have_record || !e->md5 || !e->md5[0])
		return NULL;
	o = json_object_new_object();
	for (i = 0; i < 3; i++)
		json_object_object_add(o, keys[i], json_object_new_string(
			!want[i][0] ? "not recorded" : strcmp(want[i], got[i]) ? "differs" : "equal"));
	return o;
}

static json_object *digests_json(const struct export_entry *e)
{
	json_object *o;

	if (!e->md5 || !e->md5[0])
		return NULL;	/* a failure before IMAGE was read */
	o = json_object_new_object();
	json_object_object_add(o, "md5", json_object_new_string(e->md5));
	json_object_object_add(o, "sha1", json_object_new_string(e->sha1));
	json_object_object_add(o, "sha256", json_object_new_string(e->sha256));
	return o;
}

/* The checks that held, a line each, with what they compared. */
static json_object *checks_json(const struct export_check *c)
{
	json_object *a = json_object_new_array();
	char buf[4200];

	if (c->passed & CHK_VERDICT) {
		snprintf(buf, sizeof(buf), "verdict %s of the run that made the image", c->rec.verdict);
		json_object_array_add(a, json_object_new_string(buf));
	}
	if (c->passed & CHK_EXTENT) {
		snprintf(buf, sizeof(buf), "extent: %llu blocks as recorded",
			 (unsigned long long)c->rec.extent_blocks);
		json_object_array_add(a, json_object_new_string(buf));
	}
	if (c->passed & CHK_MAP) {
		snprintf(buf, sizeof(buf), "map %s: covers the image, finished", c->map);
		json_object_array_add(a, json_object_new_string(buf));
	}
	if (c->passed & CHK_IDENTITY) {
		snprintf(buf, sizeof(buf), "identity: %u blocks equal to the map's SHA-256",
			 c->id_blocks);
		json_object_array_add(a, json_object_new_string(buf));
	}
	if (c->passed & CHK_DIGESTS)
		json_object_array_add(a, json_object_new_string("digests: equal to the record's"));
	return a;
}

static json_object *findings_json(const struct export_check *c)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < c->n_findings; i++)
		json_object_array_add(a, json_object_new_string(c->findings[i]));
	return a;
}

static json_object *own_keys(const struct export_entry *e)
{
	const struct export_check *c = e->chk;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "image", json_object_new_string(e->image));
	json_object_object_add(o, "record", text_or_null(c->have_record ? c->log : NULL));
	json_object_object_add(o, "acquired", text_or_null(c->rec.started));
	json_object_object_add(o, "format", json_object_new_string("EnCase 6 (E01)"));
	json_object_object_add(o, "ewf_files", files_json(e));
	json_object_object_add(o, "segments", json_object_new_int((int)e->segments));
	json_object_object_add(o, "segment_size", e->segment_size ?
			       json_object_new_int64((int64_t)e->segment_size) : NULL);
	json_object_object_add(o, "compression", json_object_new_string(e->compression));
	json_object_object_add(o, "xhash", json_object_new_boolean(e->xhash));
	json_object_object_add(o, "block_size", json_object_new_int(BLOCK));
	json_object_object_add(o, "image_bytes", json_object_new_int64((int64_t)e->bytes));
	json_object_object_add(o, "acquiry_errors", json_object_new_int64((int64_t)e->n_bad));
	json_object_object_add(o, "acquiry_error_blocks", json_object_new_int64(
				       (int64_t)e->bad_blocks));
	json_object_object_add(o, "digests", digests_json(e));
	json_object_object_add(o, "digests_against_record", against_record(e));
	json_object_object_add(o, "checks", checks_json(c));
	json_object_object_add(o, "unchecked", json_object_new_boolean(c->unchecked));
	json_object_object_add(o, "findings", findings_json(c));
	return o;
}

int exportlog_write(const struct acqlog *l, const struct export_entry *e, int status,
		    const char *verdict, const char *error)
{
	struct acqlog_run run = {
		.out = e->ewf, .map_path = e->chk->map, .status = status, .verdict = verdict,
		.error = error, .interrupted = status >= 128, .bytes = e->md5 && e->md5[0] ? e->bytes : 0,
	};
	int rc;

	if (!l->path[0])
		return 0;
	if (!takes_entries(l->path)) {
		cli_err("%s: %s is not a record cdtail writes: the export's entry is not "
			"appended to it", CMD, l->path);
		return 0;
	}
	run.own = own_keys(e);
	rc = acqlog_write(l, NULL, &run);
	json_object_put(run.own);
	return rc;
}
