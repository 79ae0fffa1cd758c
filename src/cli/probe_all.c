// SPDX-License-Identifier: MIT
/*
 * cdtail probe --all: every optical drive of the host (cdt_drives_find),
 * one thread per drive, each on its own handle (the library keeps no
 * global state); the main thread prints each drive's line the moment its
 * thread is done, so a slow drive never delays the report of a fast one.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cdtextout.h"

enum job_state { JOB_RUNNING = 0, JOB_DONE, JOB_PRINTED };

struct job {
	const struct cdt_drive *drive;
	const struct cli_common *co;
	struct shared *sh;
	char addr[1024];	/* what is opened: the drive's node */
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

/*
 * For the CLI tests only: with CDTAIL_TEST_DRIVES=DIR, the drive NAME
 * found in a fixture sysfs tree is opened at the address DIR/NAME holds
 * (a sim: address), so the threads, the order of the report and the exit
 * rule can be tested without optical drives.
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

static void test_address(struct job *j)
{
	const char *dir = getenv("CDTAIL_TEST_DRIVES");
	char path[4096];
	FILE *f;
	size_t n;

	snprintf(j->addr, sizeof(j->addr), "%s", j->drive->path);
	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, j->drive->name);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(j->addr, sizeof(j->addr), f)) {
		n = strcspn(j->addr, "\n");
		j->addr[n] = '\0';
	}
	fclose(f);
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

static void print_row(const struct job *j)
{
	const struct cdt_probe_result *r = &j->res;

	if (j->err && !j->no_medium) {
		printf("%-10s %-10s %10s %10s %8s  %-12s %9.1f  %s\n", j->drive->path, "-", "-",
		       "-", "-", "error", j->ms, j->msg);
	} else if (j->no_medium) {
		printf("%-10s %-10s %10s %10s %8s  %-12s %9.1f\n", j->drive->path, "none", "-",
		       "-", "-", "no-medium", j->ms);
	} else {
		printf("%-10s %-10s %10llu %10llu %8lld  %-12s %9.1f\n", j->drive->path,
		       medium_of(j), (unsigned long long)r->reported_blocks,
		       (unsigned long long)r->true_blocks, (long long)r->hidden_blocks,
		       cdt_verdict_name(r->verdict), j->ms);
	}
}

static void print_json_line(const struct job *j)
{
	json_object *o, *e;

	if (!j->err) {
		o = cli_probe_json(j->drive->path, &j->res, j->virt, j->ms, j->layout);
		/* cli_probe_json took the layout object over, o takes cd_text */
		json_object_object_add(o, "cd_text", j->cd_text);
		cli_json_out(o);
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(j->drive->path));
	if (j->no_medium) {
		/* no medium is a state of the drive, not a failure */
		json_object_object_add(o, "medium", NULL);
		json_object_object_add(o, "total", json_object_new_object());
		json_object_object_add(json_object_object_get(o, "total"), "elapsed_ms",
				       cli_json_ms(j->ms));
		json_object_object_add(o, "verdict", json_object_new_string("no-medium"));
	} else {
		e = json_object_new_object();
		json_object_object_add(e, "status", json_object_new_int(cli_dev_status(j->drive->path, j->err)));
		json_object_object_add(e, "message", json_object_new_string(j->msg));
		json_object_object_add(o, "error", e);
	}
	cli_json_out(o);
}

/*
 * The rule: 10 any hid a tail, else 11 any short, else 4 any disc read
 * nothing, else 3 any failed, else 0.
 */
static int overall(const struct job *jobs, size_t n)
{
	bool hidden = false, shorter = false, unreadable = false, failed = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (jobs[i].no_medium)
			continue;
		if (jobs[i].err)
			failed = true;
		else if (cli_verdict_status(jobs[i].res.verdict) == EX_HIDDEN_TAIL)
			hidden = true;
		else if (cli_verdict_status(jobs[i].res.verdict) == EX_SHORT)
			shorter = true;
		else if (cli_verdict_status(jobs[i].res.verdict) == EX_UNREADABLE)
			unreadable = true;
	}
	if (hidden)
		return EX_HIDDEN_TAIL;
	if (shorter)
		return EX_SHORT;
	if (unreadable)
		return EX_UNREADABLE;
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
			print_row(j);
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

static int run_jobs(const struct cdt_drive_list *list, const struct cli_common *co)
{
	struct shared sh = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
	struct job *jobs = calloc(list->n, sizeof(*jobs));
	size_t i;
	int rc;

	if (!jobs) {
		cli_err("probe: out of memory");
		return EX_DEVICE_ERR;
	}
	for (i = 0; i < list->n; i++) {
		jobs[i] = (struct job){ .drive = &list->drives[i], .co = co, .sh = &sh };
		test_address(&jobs[i]);
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
	if (!co->json && !co->quiet)
		printf("%-10s %-10s %10s %10s %8s  %-12s %9s\n", "drive", "medium", "reported",
		       "true", "hidden", "verdict", "time (ms)");
	fflush(stdout);
	report(jobs, list->n, &sh, co->json);
	for (i = 0; i < list->n; i++)
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
	rc = overall(jobs, list->n);
	free(jobs);
	return rc;
}

int cli_probe_all(const struct cli_common *co, const char *sysfs)
{
	struct cdt_drive_list list = CDT_INIT(list);
	char err[512];
	int rc;

	cli_note_device("--all");
	rc = cdt_drives_find(sysfs, &list, err, sizeof(err));
	if (rc) {
		cli_err("probe --all: %s", err);
		return rc == CDT_EUSAGE ? EX_USAGE_ERR : EX_DEVICE_ERR;
	}
	if (!list.n) {
		cli_err("probe --all: no optical drive under %s", sysfs ? sysfs : "/sys");
		cdt_drive_list_free(&list);
		return EX_DEVICE_ERR;
	}
	rc = run_jobs(&list, co);
	cdt_drive_list_free(&list);
	return rc;
}
