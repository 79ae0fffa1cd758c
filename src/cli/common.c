// SPDX-License-Identifier: MIT
/* Shared pieces of the cdtail subcommands. */
#include <inttypes.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

/* What a run's end needs to know: the one piece of output state. */
static struct {
	bool json;		/* --json was asked for */
	bool printed;		/* a JSON object went to stdout */
	const char *dev;	/* DEV as given, or NULL */
	char msg[512];		/* the first error message */
} out;

void cli_note_json(bool on)
{
	out.json = on;
}

void cli_note_device(const char *dev)
{
	out.dev = dev;
}

static void keep_msg(const char *fmt, va_list ap)
{
	if (!out.msg[0])
		vsnprintf(out.msg, sizeof(out.msg), fmt, ap);
}

void cli_err(const char *fmt, ...)
{
	va_list ap;

	fputs("cdtail: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	va_start(ap, fmt);
	keep_msg(fmt, ap);
	va_end(ap);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cdtail: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'cdtail %s --help'.\n", cmd);
	va_start(ap, fmt);
	keep_msg(fmt, ap);
	va_end(ap);
	return EX_USAGE_ERR;
}

int cli_usage_line(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cdtail: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	va_start(ap, fmt);
	keep_msg(fmt, ap);
	va_end(ap);
	return EX_USAGE_ERR;
}

int cli_opt_u64(const char *cmd, const char *name, const char *what,
		const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	if (!cli_parse_u64(arg, out) && *out >= min && *out <= max)
		return 0;
	*out = 0;
	return cli_usage(cmd, "--%s wants %s from %" PRIu64 " to %" PRIu64 ", not '%s'",
			 name, what, min, max, arg);
}

int cli_opt_file(const char *cmd, const char *name, const char *arg,
		 const char **out)
{
	if (!*arg)
		return cli_usage(cmd, "--%s wants a file name", name);
	*out = arg;
	return 0;
}

int cli_opt_formatted(const char *cmd, const char *arg,
		      enum cdt_formatted_policy *out)
{
	static const char *const names[] = {
		[CDT_FORMATTED_SKIP] = "skip",
		[CDT_FORMATTED_CUT] = "cut",
		[CDT_FORMATTED_READ] = "read",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(arg, names[i])) {
			*out = (enum cdt_formatted_policy)i;
			return 0;
		}
	}
	return cli_usage(cmd, "--formatted wants skip, cut or read, not '%s'", arg);
}

int cli_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int cli_status_for(int err)
{
	return err == CDT_EUSAGE ? EX_USAGE_ERR : EX_DEVICE_ERR;
}

/* A path that exists and is no kind of device node: the user's to fix. */
static bool is_plain_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
}

static bool has_scheme(const char *addr)
{
	return !strncmp(addr, "sim:", 4) || !strncmp(addr, "iscsi://", 8);
}

/*
 * The exit table's rule for DEV: 2 for what the user can fix on the
 * command line (an address that does not parse, a sim: key, the sim:
 * IMAGE or trace file, a regular file or directory given as DEV), 3 for
 * what the device does (a node missing or not SCSI, no medium, timeouts).
 */
int cli_dev_status(const char *addr, int err)
{
	if (err == CDT_EUSAGE || err == CDT_EFORMAT)
		return EX_USAGE_ERR;
	if (!strncmp(addr, "sim:", 4) && err == CDT_EOPEN)
		return EX_USAGE_ERR;
	if (!has_scheme(addr) && is_plain_file(addr))
		return EX_USAGE_ERR;
	return EX_DEVICE_ERR;
}

int cli_open(const char *addr, const struct cli_common *co,
	     struct cdt_dev **devp)
{
	struct cdt_open_opts oo = {
		.size = sizeof(oo),
		.timeout_ms = co->timeout_ms,
		/* always: -v prints, and a failure's JSON says what the drive said */
		.log = cli_log_cmd,
		.log_ctx = (void *)&co->verbose,
	};
	char msg[512], path[4096];
	int rc;

	/* "d.img" names the file "./d.img" does: judge it as that path */
	if (!has_scheme(addr) && !strchr(addr, '/') && *addr && !access(addr, F_OK)) {
		snprintf(path, sizeof(path), "./%s", addr);
		addr = path;
	}
	rc = cdt_open(addr, &oo, devp, msg, sizeof(msg));
	if (rc) {
		cli_note_error(rc);
		cli_err("%s", msg);
		return cli_dev_status(addr, rc);
	}
	return 0;
}

int cli_check_file(const char *cmd, const char *what, const char *path)
{
	struct stat st;

	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return cli_usage(cmd, "%s %s is not a regular file", what, path);
	return 0;
}

int cli_check_new_file(const char *cmd, const char *what, const char *path)
{
	char dir[4096];
	struct stat st;
	char *slash;

	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return cli_usage(cmd, "%s %s is a directory", what, path);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st))
		return cli_usage(cmd, "cannot create %s %s: directory %s: %s", what, path, dir,
				 strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_usage(cmd, "cannot create %s %s: %s is not a directory", what, path, dir);
	if (access(dir, W_OK | X_OK))
		return cli_usage(cmd, "cannot create %s %s: directory %s: %s", what, path, dir,
				 strerror(errno));
	return 0;
}

static bool json_pretty;

void cli_json_pretty(bool on)
{
	json_pretty = on;
}

void cli_json_out(json_object *obj)
{
	puts(json_object_to_json_string_ext(obj, (json_pretty ? JSON_C_TO_STRING_PRETTY |
						  JSON_C_TO_STRING_SPACED :
						  JSON_C_TO_STRING_PLAIN) |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(obj);
	out.printed = true;
}

static void json_error(int status)
{
	json_object *o = json_object_new_object(), *e = json_object_new_object();

	json_object_object_add(o, "device", out.dev ? json_object_new_string(out.dev) : NULL);
	json_object_object_add(e, "status", json_object_new_int(status));
	json_object_object_add(e, "message", json_object_new_string(out.msg[0] ? out.msg :
								     "failed"));
	cli_json_error_cause(e);
	json_object_object_add(o, "error", e);
	if (status >= 128)
		json_object_object_add(o, "interrupted", json_object_new_boolean(true));
	cli_json_out(o);
}

int cli_finish(int status)
{
	int err = 0;

	/* 130/143: a run stopped by a signal before it had an object of its own */
	if (out.json && !out.printed && (status == EX_USAGE_ERR || status == EX_DEVICE_ERR ||
					 status >= 128))
		json_error(status);
	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : EIO;
	/* fclose reports what fflush could not see (a deferred write error) */
	if (fclose(stdout) && !err)
		err = errno ? errno : EIO;
	if (!err)
		return status;
	fprintf(stderr, "cdtail: cannot write standard output: %s\n", strerror(err));
	return EX_DEVICE_ERR;
}

void cli_wrap(FILE *f, size_t col, size_t indent, const char *text)
{
	const char *p = text;
	bool line_start = true;

	while (*p) {
		size_t w = strcspn(p, " ");

		if (!line_start && col + 1 + w > CLI_COLUMNS) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			line_start = true;
		}
		if (!line_start) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += w;
		line_start = false;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void cli_duration(char *out, size_t len, double ms)
{
	double s = ms / 1000;

	if (ms < 1000)
		snprintf(out, len, "%.0f ms", ms);
	else if (s < 60)
		snprintf(out, len, "%.1f s (%.0f ms)", s, ms);
	else if (s < 2 * 3600)
		snprintf(out, len, "%.0f min (%.0f ms)", s / 60, ms);
	else
		snprintf(out, len, "%.1f h (%.0f ms)", s / 3600, ms);
}

double cli_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

bool cli_fs_end_read(const struct cdt_probe_result *p)
{
	return CDT_HAS(p, fs_end_read) && p->fs_end_read == 1;
}

uint64_t cli_fs_past_end(const struct cdt_probe_result *p)
{
	int64_t fs = p->sizes.filesystem;

	/* its last block read past a window-limited end: the files are there */
	if (cli_fs_end_read(p))
		return 0;
	return fs > 0 && (uint64_t)fs > p->true_blocks ? (uint64_t)fs - p->true_blocks : 0;
}

void cli_json_fs_past_end(json_object *o, json_object *notes, const struct cdt_probe_result *p)
{
	uint64_t past = cli_fs_past_end(p);

	if (past)
		json_object_array_add(notes, json_object_new_string("filesystem-past-end"));
	json_object_object_add(o, "filesystem_past_end_blocks", json_object_new_int64((int64_t)past));
}

void cli_json_agreed_end(json_object *o, json_object *notes, const struct cdt_probe_result *p)
{
	if (p->notes & CDT_NOTE_DAMAGED_TAIL)
		json_object_array_add(notes, json_object_new_string("damaged-tail"));
	if (p->notes & CDT_NOTE_UNCONFIRMED_TAIL)
		json_object_array_add(notes, json_object_new_string("unconfirmed-tail"));
	json_object_object_add(o, "damaged_tail_blocks",
			       json_object_new_int64((int64_t)p->damaged_tail_blocks));
	json_object_object_add(o, "unconfirmed_blocks",
			       json_object_new_int64((int64_t)p->unconfirmed_blocks));
}

void cli_print_fs_past_end(const struct cdt_probe_result *p, const char *lost)
{
	char text[400];
	uint64_t past = cli_fs_past_end(p);

	if (cli_fs_end_read(p)) {
		snprintf(text, sizeof(text), "the %s declares %lld blocks and its last block"
			 " reads: its files are on the disc, whose true end lies past the search"
			 " window (a larger --max-extra finds it)", p->sizes.fs_type,
			 (long long)p->sizes.filesystem);
		cli_wrap(stdout, (size_t)printf("note:      "), 11, text);
		return;
	}
	if (!past)
		return;
	snprintf(text, sizeof(text), "filesystem-past-end: the %s declares %" PRIu64 " block%s"
		 " more than the disc holds (a burn that stopped early?): %s", p->sizes.fs_type,
		 past, past == 1 ? "" : "s", lost);
	cli_wrap(stdout, (size_t)printf("note:      "), 11, text);
}

json_object *cli_json_count(int64_t v)
{
	return v < 0 ? NULL : json_object_new_int64(v);
}
