// SPDX-License-Identifier: MIT
/*
 * The acquisition record (acqlog.h).  One entry is built as a JSON object
 * and written either as one line of JSON or as indented "key: value" text
 * from that same object, and with --dfxml as DFXML from it too, so the
 * forms never say different things.  Entries are appended: the log of an
 * image resumed three times tells all three runs, as an examiner's notes
 * would.  What each kind of run adds is acqrun.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "acqlog.h"
#include "acqrun.h"
#include "dfxml.h"

int acqlog_opt(struct acqlog_opts *o, const char *cmd, int key, const char *arg)
{
	const char **text[] = { &o->case_number, &o->evidence_number, &o->examiner,
				&o->description, &o->notes };

	switch (key) {
	case ACQ_K_LOG:
		return cli_opt_file(cmd, "log", arg, &o->log_path);
	case ACQ_K_NO_LOG:
		o->no_log = true;
		return 0;
	case ACQ_K_DFXML:
		return cli_opt_file(cmd, "dfxml", arg, &o->dfxml);
	case ACQ_K_CASE:
	case ACQ_K_EVIDENCE:
	case ACQ_K_EXAMINER:
	case ACQ_K_DESCRIPTION:
	case ACQ_K_NOTES:
		*text[key - ACQ_K_CASE] = arg;
		return 0;
	}
	return 1;
}

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

void acqlog_begin(struct acqlog *l, const char *cmd, const struct acqlog_opts *o,
		  const char *default_path, bool json, int argc, char **argv)
{
	memset(l, 0, sizeof(*l));
	l->cmd = cmd;
	l->opts = o;
	if (!o->no_log && (o->log_path || default_path))
		snprintf(l->path, sizeof(l->path), "%s", o->log_path ? o->log_path : default_path);
	l->json = l->path[0] && log_is_json(l->path, json);
	l->argc = argc;
	l->argv = argv;
	clock_gettime(CLOCK_REALTIME, &l->start);
}

int acqlog_check(const struct acqlog *l, const char *const *others)
{
	const char *cmd = l->cmd[0] == 'i' ? "image" : l->cmd;
	size_t i;
	int rc;

	if (l->opts->no_log && l->opts->log_path)
		return cli_usage(cmd, "--log and --no-log together");
	for (i = 0; others[i]; i++) {
		if (l->path[0] && !strcmp(others[i], l->path))
			return cli_usage(cmd, "the log %s is also %s: name another with --log",
					 l->path, others[i]);
		if (l->opts->dfxml && !strcmp(others[i], l->opts->dfxml))
			return cli_usage(cmd, "the --dfxml FILE %s is also %s", l->opts->dfxml,
					 others[i]);
	}
	if (l->opts->dfxml && l->path[0] && !strcmp(l->opts->dfxml, l->path))
		return cli_usage(cmd, "the --dfxml FILE %s is also the log", l->opts->dfxml);
	rc = l->path[0] ? cli_check_new_file(cmd, "the log", l->path) : 0;
	if (!rc && l->opts->dfxml)
		rc = cli_check_new_file(cmd, "the --dfxml FILE", l->opts->dfxml);
	return rc;
}

static void watch_progress(void *ctx, const struct cdt_progress *p)
{
	struct acqlog_passes *w = ctx;
	unsigned int ph = (unsigned int)p->phase;

	if (ph < sizeof(w->max_pass) / sizeof(w->max_pass[0])) {
		w->seen |= 1u << ph;
		if (p->pass > w->max_pass[ph])
			w->max_pass[ph] = p->pass;
	}
	if (w->inner)
		w->inner(w->inner_ctx, p);
}

void acqlog_watch(struct acqlog *l, struct cdt_read_opts *rd)
{
	l->passes.inner = rd->progress;
	l->passes.inner_ctx = rd->progress_ctx;
	rd->progress = watch_progress;
	rd->progress_ctx = &l->passes;
}

/* ISO 8601 in UTC to the millisecond: 2026-12-07T17:14:38.123Z */
static json_object *iso_time(const struct timespec *t)
{
	char buf[40], ms[24];
	struct tm tm;

	gmtime_r(&t->tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(ms, sizeof(ms), ".%03ldZ", t->tv_nsec / 1000000);
	strcat(buf, ms);
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

/* uname(2): the host, its OS and kernel, as Guymager's .info lists them. */
static json_object *host_json(void)
{
	json_object *o = json_object_new_object();
	struct utsname u;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	json_object_object_add(o, "name", u.nodename[0] ? json_object_new_string(u.nodename) : NULL);
	json_object_object_add(o, "os", u.sysname[0] ? json_object_new_string(u.sysname) : NULL);
	json_object_object_add(o, "kernel", u.release[0] ? json_object_new_string(u.release) : NULL);
	json_object_object_add(o, "kernel_version", u.version[0] ?
			       json_object_new_string(u.version) : NULL);
	json_object_object_add(o, "machine", u.machine[0] ? json_object_new_string(u.machine) : NULL);
	return o;
}

static json_object *user_json(void)
{
	json_object *o = json_object_new_object();
	struct passwd *pw = getpwuid(geteuid());

	json_object_object_add(o, "name", pw && pw->pw_name ? json_object_new_string(pw->pw_name) :
			       NULL);
	json_object_object_add(o, "uid", json_object_new_int64((int64_t)geteuid()));
	return o;
}

static json_object *text_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void add_case(json_object *o, const struct acqlog_opts *c)
{
	json_object_object_add(o, "case_number", text_or_null(c->case_number));
	json_object_object_add(o, "evidence_number", text_or_null(c->evidence_number));
	json_object_object_add(o, "examiner", text_or_null(c->examiner));
	json_object_object_add(o, "description", text_or_null(c->description));
	json_object_object_add(o, "notes", text_or_null(c->notes));
}

static double ms_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

/* The phases the run entered, each with its passes (retry passes counted). */
static json_object *passes_json(const struct acqlog_passes *p)
{
	json_object *a = json_object_new_array();
	unsigned int ph;

	for (ph = 0; ph < sizeof(p->max_pass) / sizeof(p->max_pass[0]); ph++) {
		json_object *e;

		if (!(p->seen & (1u << ph)))
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "phase", json_object_new_string(
					       cdt_phase_name((enum cdt_phase)ph)));
		json_object_object_add(e, "passes", json_object_new_int(
					       (int)(p->max_pass[ph] ? p->max_pass[ph] : 1)));
		json_object_array_add(a, e);
	}
	return a;
}

/* A number with the digits that mean something, as JSON shows it. */
static json_object *fixed(double v, int digits)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", digits, v);
	return json_object_new_double_s(v, buf);
}

/* Bytes read, the run's time and the rate (MB: 10^6 bytes), as ewfacquire's summary gives them. */
static void add_throughput(json_object *o, const struct acqlog_run *run, double ms)
{
	uint64_t bytes = run->sum ? run->sum->blocks_read * run->sum->block_size : run->bytes;

	json_object_object_add(o, "elapsed_s", fixed(ms / 1e3, 3));
	json_object_object_add(o, "bytes_read", json_object_new_int64((int64_t)bytes));
	json_object_object_add(o, "throughput_mb_s", ms > 0 ?
			       fixed((double)bytes / 1e6 / (ms / 1e3), 2) : NULL);
}

static json_object *entry(const struct acqlog *l, struct cdt_dev *dev, const struct acqlog_run *run)
{
	json_object *o = json_object_new_object();
	struct timespec end;
	const char *err = run->error;

	clock_gettime(CLOCK_REALTIME, &end);
	json_object_object_add(o, "tool", json_object_new_string("cdtail " CDT_VERSION));
	json_object_object_add(o, "library", json_object_new_string(cdt_version()));
	json_object_object_add(o, "run", json_object_new_string(l->cmd));
	json_object_object_add(o, "command", command_line(l));
	json_object_object_add(o, "host", host_json());
	json_object_object_add(o, "user", user_json());
	add_case(o, l->opts);
	json_object_object_add(o, "started", iso_time(&l->start));
	json_object_object_add(o, "ended", iso_time(&end));
	add_throughput(o, run, ms_between(&l->start, &end));
	json_object_object_add(o, "device", text_or_null(run->addr));
	json_object_object_add(o, "out", run->out ? json_object_new_string(run->out) : NULL);
	json_object_object_add(o, "map", text_or_null(run->map_path));
	if (run->sum)
		acqrun_add(o, dev, run);
	if (run->own) {
		json_object_object_foreach(run->own, k, v)
			json_object_object_add(o, k, json_object_get(v));
	}
	json_object_object_add(o, "passes", passes_json(&l->passes));
	if (run->after)
		json_object_object_add(o, "verification", acqrun_verification(run->after));
	/* an interrupted run's message is the library's, or says what stopped it */
	if (run->interrupted && (!err || !err[0]))
		err = "interrupted by a signal before the run ended";
	json_object_object_add(o, "error", err && err[0] ? json_object_new_string(err) : NULL);
	json_object_object_add(o, "interrupted", json_object_new_boolean(run->interrupted));
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
	int rc = 0;

	if (!l->path[0] && !l->opts->dfxml)
		return 0;
	o = entry(l, dev, run);
	if (l->path[0])
		rc = append(l, o);
	if (l->opts->dfxml && dfxml_write(l->opts->dfxml, o))
		rc = -1;
	json_object_put(o);
	return rc;
}

int acqlog_finish(const struct acqlog *l, struct cdt_dev *dev, struct acqlog_run *run,
		  int err, const char *done_verdict)
{
	run->interrupted = err == CDT_EINTR;
	run->verdict = err == CDT_EINTR ? "interrupted" : err ? "failed" : done_verdict;
	run->error = err ? cdt_errmsg(dev) : NULL;
	if (acqlog_write(l, dev, run) && run->status != EX_DEVICE_ERR && run->status < 128)
		return EX_DEVICE_ERR;
	return run->status;
}
