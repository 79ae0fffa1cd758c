// SPDX-License-Identifier: MIT
/*
 * cdtail probe --all: every optical drive of the host (cdt_drives_find),
 * or every DEV given after it, one thread per drive, each on its own
 * handle (the library keeps no global state); the main thread prints each
 * drive's line the moment its thread is done, so a slow drive never
 * delays the report of a fast one.  The table's columns are chosen as
 * util-linux's lsblk chooses them (-o LIST, -n, -r, -b).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "cdtextout.h"

enum job_state { JOB_RUNNING = 0, JOB_DONE, JOB_PRINTED };

struct job {
	const struct cdt_drive *drive;	/* the sysfs drive, or NULL: a DEV given */
	const struct cli_common *co;
	struct shared *sh;
	char label[1024];	/* what the report names: /dev/srN, or DEV as given */
	char addr[1024];	/* what is opened: the drive's node, or its sim: stand-in */
	pthread_t thread;
	bool started;
	/* filled by the thread */
	int err;		/* 0, or the cdt_* error */
	bool no_medium;
	bool virt;
	char msg[512];
	struct cdt_probe_result res;
	json_object *layout;	/* cli_layout_json() of the probed disc */
	json_object *cd_text;	/* cli_cd_text_json() of it, as probe --json's */
	double ms;
	enum job_state state;
};

struct shared {
	pthread_mutex_t lock;
	pthread_cond_t done;
};

/* sim:PATH with PATH relative: PATH taken from dir instead of the working directory */
static void resolve_sim(char *addr, size_t len, const char *dir)
{
	char tmp[1024];

	if (strncmp(addr, "sim:", 4) || addr[4] == '/' || !addr[4])
		return;
	snprintf(tmp, sizeof(tmp), "sim:%s/%s", dir, addr + 4);
	snprintf(addr, len, "%s", tmp);
}

/* The first line of path into out (newline cut); false when unreadable or empty. */
static bool first_line(const char *path, char *out, size_t len)
{
	char line[1024];
	FILE *f = fopen(path, "re");
	bool got;

	if (!f)
		return false;
	got = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (!got || !line[0])
		return false;
	snprintf(out, len, "%s", line);
	return true;
}

/*
 * What a sysfs drive is opened at: its node, or, in a fixture tree given
 * with --sysfs, the emulated drive ROOT/cdtail-sim/NAME names (its sim:
 * image relative to ROOT), so a rack can be rehearsed without drives
 * (fixtures/sysfs/rack-sim; /sys has no such file).  For the CLI tests,
 * CDTAIL_TEST_DRIVES=DIR does the same with DIR/NAME (relative paths as
 * given), over any tree.
 */
/* The disc's CD-TEXT as probe --json gives it (cdtextout.h), or NULL. */
static json_object *cd_text_of(struct cdt_dev *dev)
{
	struct cdt_cd_text text = CDT_INIT(text);
	json_object *o;

	if (cdt_dev_cd_text(dev, &text))
		cdt_cd_text_free(&text);
	o = cli_cd_text_json(&text);
	cdt_cd_text_free(&text);
	return o;
}

static void drive_address(struct job *j, const char *sysfs)
{
	const char *dir = getenv("CDTAIL_TEST_DRIVES");
	char path[4096];

	snprintf(j->label, sizeof(j->label), "%s", j->drive->path);
	snprintf(j->addr, sizeof(j->addr), "%s", j->drive->path);
	snprintf(path, sizeof(path), "%s/cdtail-sim/%s", sysfs ? sysfs : "", j->drive->name);
	if (sysfs && first_line(path, j->addr, sizeof(j->addr)))
		resolve_sim(j->addr, sizeof(j->addr), sysfs);
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "", j->drive->name);
	if (dir)
		first_line(path, j->addr, sizeof(j->addr));
}

static void *probe_one(void *arg)
{
	struct job *j = arg;
	struct cdt_open_opts oo = CDT_INIT(oo);
	struct cdt_probe_opts po = CDT_INIT(po);
	struct cdt_dev *dev = NULL;
	double t0 = cli_now_ms();
	int rc;

	oo.timeout_ms = j->co->timeout_ms;
	po.max_extra = j->co->max_extra;
	j->res = (struct cdt_probe_result)CDT_INIT(j->res);
	rc = cdt_open(j->addr, &oo, &dev, j->msg, sizeof(j->msg));
	if (!rc) {
		rc = cdt_probe(dev, &po, &j->res);
		if (rc)
			snprintf(j->msg, sizeof(j->msg), "%s", cdt_errmsg(dev)[0] ?
				 cdt_errmsg(dev) : cdt_strerror(rc));
		j->virt = cdt_is_virtual_time(dev);
		if (!rc) {
			struct cdt_layout *l = cdt_dev_layout(dev);

			j->layout = cli_layout_json(l);
			j->cd_text = cd_text_of(dev);
			cdt_layout_free(l);
		}
		cdt_close(dev);
	}
	j->ms = cli_now_ms() - t0;
	pthread_mutex_lock(&j->sh->lock);
	j->err = rc;
	j->no_medium = rc == CDT_ENOMEDIUM;
	j->state = JOB_DONE;
	pthread_cond_signal(&j->sh->done);
	pthread_mutex_unlock(&j->sh->lock);
	return NULL;
}

static const char *medium_of(const struct job *j)
{
	if (j->no_medium)
		return "none";
	if (j->err)
		return "-";
	return cdt_profile_name(j->res.sizes.profile);
}

enum { COL_DRIVE, COL_MEDIUM, COL_REPORTED, COL_TRUE, COL_HIDDEN, COL_VERDICT, COL_TIME,
       COL_ERROR, N_DEFAULT, COL_SIZE = N_DEFAULT, COL_ADDRESS, N_COLS };

/* The table's columns: the default ones in their order, then the others. */
static const struct column {
	const char *name;	/* -o's word and -r's header */
	const char *head;	/* the aligned table's header */
	int width;		/* printf's: negative is left-aligned */
	const char *sep;	/* before it */
} columns[N_COLS] = {
	[COL_DRIVE] = { "drive", "drive", -10, "" },
	[COL_MEDIUM] = { "medium", "medium", -10, " " },
	[COL_REPORTED] = { "reported", "reported", 10, " " },
	[COL_TRUE] = { "true", "true", 10, " " },
	[COL_HIDDEN] = { "hidden", "hidden", 8, " " },
	[COL_VERDICT] = { "verdict", "verdict", -12, "  " },
	[COL_TIME] = { "time", "time (ms)", 9, " " },
	[COL_ERROR] = { "error", "error", 0, "  " },
	[COL_SIZE] = { "size", "size", 12, " " },
	[COL_ADDRESS] = { "address", "address", -10, " " },
};

#define MAX_SHOWN 16
static struct {
	int col[MAX_SHOWN];
	size_t n;
	const struct cli_probe_all *a;
	int width[2];		/* the longest drive and address, 10 at least */
} shown;

static int add_columns(const char *list)
{
	const char *names[N_COLS], *near;
	char word[32];
	size_t i, len;

	for (i = 0; i < N_COLS; i++)
		names[i] = columns[i].name;
	while (*list) {
		len = strcspn(list, ",");
		snprintf(word, sizeof(word), "%.*s", (int)(len < 31 ? len : 31), list);
		for (i = 0; i < N_COLS && strcasecmp(word, columns[i].name); i++)
			;
		if (i == N_COLS || shown.n == MAX_SHOWN) {
			near = cdt_nearest_name(word, names, N_COLS);
			return cli_usage("probe", "-o: %s column '%s'%s%s%s; the columns: drive, "
					 "medium, reported, true, hidden, verdict, time, error, "
					 "size, address",
					 shown.n == MAX_SHOWN ? "one too many," : "no", word,
					 near ? " (did you mean '" : "", near ? near : "",
					 near ? "'?)" : "");
		}
		shown.col[shown.n++] = (int)i;
		list += len + (list[len] == ',');
	}
	return shown.n ? 0 : cli_usage("probe", "-o wants at least one column");
}

int cli_probe_all_columns(const char *list)
{
	size_t i;

	shown.n = 0;
	if (!list || *list == '+')
		for (i = 0; i < N_DEFAULT; i++)
			shown.col[shown.n++] = (int)i;
	return list ? add_columns(list + (*list == '+')) : 0;
}

/* A count of blocks, or of bytes with -b. */
static void count(char *out, size_t len, const struct job *j, int64_t blocks)
{
	if (j->err)
		snprintf(out, len, "-");
	else if (shown.a->bytes)
		snprintf(out, len, "%lld", (long long)blocks * j->res.sizes.block_size);
	else
		snprintf(out, len, "%lld", (long long)blocks);
}

static void cell(const struct job *j, int col, char *out, size_t len)
{
	const struct cdt_probe_result *r = &j->res;

	switch (col) {
	case COL_DRIVE:
		snprintf(out, len, "%s", j->label);
		break;
	case COL_MEDIUM:
		snprintf(out, len, "%s", medium_of(j));
		break;
	case COL_REPORTED:
		count(out, len, j, (int64_t)r->reported_blocks);
		break;
	case COL_TRUE:
		count(out, len, j, (int64_t)r->true_blocks);
		break;
	case COL_HIDDEN:
		count(out, len, j, r->hidden_blocks);
		break;
	case COL_VERDICT:
		snprintf(out, len, "%s", j->no_medium ? "no-medium" : j->err ? "error" :
			 cdt_verdict_name(r->verdict));
		break;
	case COL_TIME:
		snprintf(out, len, "%.1f", j->ms);
		break;
	case COL_SIZE:
		if (j->err)
			snprintf(out, len, "-");
		else
			snprintf(out, len, "%llu", (unsigned long long)r->true_blocks *
				 r->sizes.block_size);
		break;
	case COL_ADDRESS:
		snprintf(out, len, "%s", j->addr);
		break;
	default:
		snprintf(out, len, "%s", j->err && !j->no_medium ? j->msg : "");
	}
}

/* -r: lsblk's raw form, a blank or a backslash as \\xHH so that a field is one word */
static size_t put_raw(char *out, size_t len, const char *v)
{
	size_t n = 0;

	for (; *v && n + 5 < len; v++)
		if (*v == ' ' || *v == '\\' || (unsigned char)*v < 0x20)
			n += (size_t)snprintf(out + n, len - n, "\\x%02x", (unsigned char)*v);
		else
			out[n++] = *v;
	out[n] = '\0';
	return n;
}

/* One line: the header (j NULL) or a drive's row, in the columns -o chose. */
static void print_line(const struct job *j)
{
	char v[1024], line[8192];
	size_t i, n = 0;

	for (i = 0; i < shown.n && n + 2 < sizeof(line); i++) {
		const struct column *c = &columns[shown.col[i]];
		int w = c->width;

		if (j)
			cell(j, shown.col[i], v, sizeof(v));
		else
			snprintf(v, sizeof(v), "%s", shown.a->raw ? c->name : c->head);
		if (shown.a->raw) {
			if (i)
				line[n++] = ' ';
			n += put_raw(line + n, sizeof(line) - n, v);
			continue;
		}
		if (shown.col[i] == COL_DRIVE || shown.col[i] == COL_ADDRESS)
			w = -shown.width[shown.col[i] == COL_ADDRESS];
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%*s", i ? c->sep : "",
				      i + 1 == shown.n ? 0 : w, v);
		n = n < sizeof(line) ? n : sizeof(line) - 1;
	}
	/* no blanks at the end of a line (an empty last column, -r's included) */
	while (n && line[n - 1] == ' ' && !shown.a->raw)
		n--;
	printf("%.*s\n", (int)n, line);
}

static void print_json_line(const struct job *j)
{
	json_object *o, *e;

	if (!j->err) {
		o = cli_probe_json(j->label, &j->res, j->virt, j->ms, j->layout);
		/* cli_probe_json took the layout object over, o takes cd_text */
		json_object_object_add(o, "cd_text", j->cd_text);
		cli_json_out(o);
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(j->label));
	if (j->no_medium) {
		/* no medium is a state of the drive, not a failure */
		json_object_object_add(o, "medium", NULL);
		json_object_object_add(o, "total", json_object_new_object());
		json_object_object_add(json_object_object_get(o, "total"), "elapsed_ms",
				       cli_json_ms(j->ms));
		json_object_object_add(o, "verdict", json_object_new_string("no-medium"));
	} else {
		e = json_object_new_object();
		json_object_object_add(e, "status", json_object_new_int(cli_dev_status(j->addr, j->err)));
		json_object_object_add(e, "message", json_object_new_string(j->msg));
		json_object_object_add(o, "error", e);
	}
	cli_json_out(o);
}

/* A drive's status as its own probe would exit: the window first (cmd_probe.c). */
static int drive_status(const struct job *j)
{
	if (j->res.notes & CDT_NOTE_WINDOW_LIMIT)
		return EX_WINDOW;
	return cli_verdict_status(j->res.verdict);
}

/*
 * The rule: 10 any hid a tail, else 11 any short, else 5 any stopped at
 * the window, else 4 any disc read nothing, else 3 any failed, else 0.
 */
static int overall(const struct job *jobs, size_t n)
{
	static const int order[] = { EX_HIDDEN_TAIL, EX_SHORT, EX_WINDOW, EX_UNREADABLE };
	bool seen[sizeof(order) / sizeof(order[0])] = { false }, failed = false;
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (jobs[i].no_medium)
			continue;
		failed |= jobs[i].err != 0;
		for (k = 0; !jobs[i].err && k < sizeof(order) / sizeof(order[0]); k++)
			seen[k] |= drive_status(&jobs[i]) == order[k];
	}
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		if (seen[k])
			return order[k];
	return failed ? EX_DEVICE_ERR : EX_SAME;
}

/* A finished job not printed yet, or NULL; under sh->lock. */
static struct job *next_done(struct job *jobs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (jobs[i].state == JOB_DONE)
			return &jobs[i];
	return NULL;
}

/* Print each drive as its thread finishes, in the order they finish. */
static void report(struct job *jobs, size_t n, struct shared *sh, bool json)
{
	size_t printed;
	struct job *j;

	pthread_mutex_lock(&sh->lock);
	for (printed = 0; printed < n; printed++) {
		/* the state is looked at under the lock: no wake-up is lost */
		while (!(j = next_done(jobs, n)))
			pthread_cond_wait(&sh->done, &sh->lock);
		j->state = JOB_PRINTED;
		pthread_mutex_unlock(&sh->lock);
		if (json) {
			print_json_line(j);	/* hands j->layout over */
		} else {
			print_line(j);
			json_object_put(j->layout);	/* the table has no place for it */
			json_object_put(j->cd_text);
		}
		j->layout = NULL;
		j->cd_text = NULL;
		fflush(stdout);
		pthread_mutex_lock(&sh->lock);
	}
	pthread_mutex_unlock(&sh->lock);
}

static int run_jobs(struct job *jobs, size_t n, const struct cli_common *co)
{
	struct shared sh = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
	size_t i;
	int rc;

	shown.width[0] = shown.width[1] = 10;
	for (i = 0; i < n; i++) {
		if (strlen(jobs[i].label) > (size_t)shown.width[0])
			shown.width[0] = (int)strlen(jobs[i].label);
		if (strlen(jobs[i].addr) > (size_t)shown.width[1])
			shown.width[1] = (int)strlen(jobs[i].addr);
	}
	for (i = 0; i < n; i++) {
		jobs[i].co = co;
		jobs[i].sh = &sh;
		rc = pthread_create(&jobs[i].thread, NULL, probe_one, &jobs[i]);
		if (rc) {
			/* no thread: report it as this drive's failure */
			jobs[i].err = CDT_ENOMEM;
			snprintf(jobs[i].msg, sizeof(jobs[i].msg), "cannot start a thread: %s",
				 strerror(rc));
			jobs[i].state = JOB_DONE;
		} else {
			jobs[i].started = true;
		}
	}
	if (!co->json && !co->quiet && !shown.a->noheadings)
		print_line(NULL);
	fflush(stdout);
	report(jobs, n, &sh, co->json);
	for (i = 0; i < n; i++)
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
	return overall(jobs, n);
}

/* The drives sysfs lists, each at its address. */
static int sysfs_jobs(const struct cli_probe_all *a, struct cdt_drive_list *list,
		      struct job **jobs)
{
	char err[512];
	size_t i;
	int rc;

	rc = cdt_drives_find(a->sysfs, list, err, sizeof(err));
	if (rc) {
		cli_err("probe --all: %s", err);
		return rc == CDT_EUSAGE ? EX_USAGE_ERR : EX_DEVICE_ERR;
	}
	if (!list->n) {
		cli_err("probe --all: no optical drive under %s", a->sysfs ? a->sysfs : "/sys");
		return EX_DEVICE_ERR;
	}
	*jobs = calloc(list->n, sizeof(**jobs));
	if (!*jobs) {
		cli_err("probe: out of memory");
		return EX_DEVICE_ERR;
	}
	for (i = 0; i < list->n; i++) {
		(*jobs)[i].drive = &list->drives[i];
		drive_address(&(*jobs)[i], a->sysfs);
	}
	return 0;
}

int cli_probe_all(const struct cli_common *co, const struct cli_probe_all *a)
{
	struct cdt_drive_list list = CDT_INIT(list);
	struct job *jobs = NULL;
	size_t i, n = a->devs ? (size_t)a->n_devs : 0;
	int rc = 0;

	cli_note_device("--all");
	shown.a = a;
	if (!shown.n)
		cli_probe_all_columns(NULL);
	if (a->devs) {
		jobs = calloc(n, sizeof(*jobs));
		if (!jobs) {
			cli_err("probe: out of memory");
			return EX_DEVICE_ERR;
		}
		for (i = 0; i < n; i++) {
			snprintf(jobs[i].label, sizeof(jobs[i].label), "%s", a->devs[i]);
			snprintf(jobs[i].addr, sizeof(jobs[i].addr), "%s", a->devs[i]);
		}
	} else {
		rc = sysfs_jobs(a, &list, &jobs);
		n = list.n;
	}
	if (!rc)
		rc = run_jobs(jobs, n, co);
	free(jobs);
	cdt_drive_list_free(&list);
	return rc;
}
