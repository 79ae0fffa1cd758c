// SPDX-License-Identifier: MIT
/*
 * The rules of the hazards scan: findings from what hazards/sysfs.c read
 * into list->nodes, and nothing else (no file, no device is looked at
 * here).
 *
 * Since 2.6.37 the block layer has no barriers.  Ordering is what the
 * submitter builds from REQ_PREFLUSH, REQ_FUA and waiting for completions;
 * the block layer drops both flags for a queue whose write_cache says
 * "write through", and emulates FUA with a post-flush where queue/fua is 0.
 * Everything below follows from that (Documentation/block/
 * writeback_cache_control.rst) and from dm-multipath spreading requests
 * over its paths.  Only values read are reported; an unknown value (-1,
 * "") concludes nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdtail-hazards.h"
#include "hazards/hazards.h"

static const char *const severity_names[] = {
	[CDT_HAZARD_INFO] = "info",
	[CDT_HAZARD_WARNING] = "warning",
	[CDT_HAZARD_DANGER] = "danger",
};

const char *cdt_hazard_severity_name(enum cdt_hazard_severity s)
{
	if ((unsigned int)s >= sizeof(severity_names) / sizeof(severity_names[0]))
		return "unknown";
	return severity_names[s];
}

/* ---- findings ----------------------------------------------------------- */

static int add_hazard(struct cdt_hazard_list *l, const char *id,
		      enum cdt_hazard_severity sev, const char *where,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int add_hazard(struct cdt_hazard_list *l, const char *id,
		      enum cdt_hazard_severity sev, const char *where,
		      const char *fmt, ...)
{
	struct cdt_hazard *h = HZ_APPEND(l->hazards, l->n_hazards);
	va_list ap;

	if (!h)
		return CDT_ENOMEM;
	h->id = id;
	h->severity = sev;
	snprintf(h->where, sizeof(h->where), "%s", where);
	va_start(ap, fmt);
	vsnprintf(h->detail, sizeof(h->detail), fmt, ap);
	va_end(ap);
	return 0;
}

int hz_note(struct cdt_hazard_list *l, const char *id, const char *where,
	    const char *fmt, ...)
{
	char detail[CDT_HAZARD_DETAIL_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	return add_hazard(l, id, CDT_HAZARD_INFO, where, "%s", detail);
}

/* Append to a fixed buffer, ", "-separated; truncation is harmless. */
static void cat(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	if (n)
		n += (size_t)snprintf(buf + n, len - n, ", ");
	if (n >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

const char *cdt_hazard_tri_text(int v, const char *one, const char *zero)
{
	return v < 0 ? "unknown" : v ? one : zero;
}

/* What says this node has a volatile cache, or "" when nothing does. */
static void volatile_evidence(const struct cdt_hazard_node *n, char *buf,
			      size_t len)
{
	buf[0] = '\0';
	if (n->cache_volatile == 1)
		cat(buf, len, "cache_type is '%s'", n->cache_type);
	if (n->mode_sense_done && n->wce == 1)
		cat(buf, len, "the caching mode page (0x08) has WCE set");
}

static int check_flush_disabled(struct cdt_hazard_list *l, size_t i)
{
	const struct cdt_hazard_node *n = &l->nodes[i];
	char ev[384];
	size_t j;

	if (n->write_back != 0)
		return 0;
	volatile_evidence(n, ev, sizeof(ev));
	/* a stacked device passes flushes on only when it advertises a cache */
	for (j = i + 1; j < l->n_nodes; j++) {
		const struct cdt_hazard_node *c = &l->nodes[j];

		if (c->parent != (int)i)
			continue;
		if (c->write_back == 1)
			cat(ev, sizeof(ev), "its slave %s has queue/write_cache 'write back'",
			    c->name);
		else if (c->cache_volatile == 1)
			cat(ev, sizeof(ev), "its slave %s has cache_type '%s'",
			    c->name, c->cache_type);
	}
	if (!ev[0])
		return 0;
	return add_hazard(l, "flush-disabled", CDT_HAZARD_DANGER, n->name,
		"%s: queue/write_cache is 'write through', but %s. The block layer "
		"strips REQ_PREFLUSH and REQ_FUA from requests to a queue that "
		"advertises no write-back cache, so no flush ever reaches this "
		"volatile cache: nothing orders writes on the medium, and a power "
		"loss loses writes that were already acknowledged, fsync included.",
		n->name, ev);
}

static int check_no_fua(struct cdt_hazard_list *l, size_t i)
{
	const struct cdt_hazard_node *n = &l->nodes[i];
	const char *src = "queue/write_cache is 'write back' and queue/fua is 0";
	int wb = n->write_back, fua = n->fua;

	/* without sysfs (sim:, iscsi://) the caching page is all there is */
	if (wb < 0 && fua < 0 && n->mode_sense_done) {
		wb = n->wce;
		fua = n->dpofua;
		src = "the caching mode page has WCE set and the mode parameter "
		      "header's DPOFUA bit is 0";
	}
	if (wb != 1 || fua != 0)
		return 0;
	return add_hazard(l, "write-cache-no-fua", CDT_HAZARD_INFO, n->name,
		"%s: %s. The block layer carries out every REQ_FUA write as the "
		"write followed by a full cache flush, so each ordered write "
		"(journal commit, fsync) waits for the whole cache to be written "
		"out. Correct, but slow.", n->name, src);
}

static int check_fua_unsupported(struct cdt_hazard_list *l, size_t i)
{
	const struct cdt_hazard_node *n = &l->nodes[i];

	if (n->fua != 1 || !n->mode_sense_done || n->dpofua != 0)
		return 0;
	return add_hazard(l, "fua-not-supported", CDT_HAZARD_WARNING, n->name,
		"%s: queue/fua is 1, so the kernel sets the FUA bit instead of "
		"flushing after a REQ_FUA write, but the MODE SENSE(10) header's "
		"DPOFUA bit is 0: the device says it does not support FUA and may "
		"acknowledge such writes from its volatile cache.", n->name);
}

/* The paths of map m, in the order they were found. */
struct paths {
	size_t idx[HZ_MAX_NODES];
	size_t n;
};

static void collect_paths(const struct cdt_hazard_list *l, size_t m,
			  struct paths *p)
{
	size_t j;

	p->n = 0;
	for (j = m + 1; j < l->n_nodes; j++)
		if (l->nodes[j].parent == (int)m)
			p->idx[p->n++] = j;
}

static bool is_running(const struct cdt_hazard_node *n)
{
	return !strcmp(n->state, "running");
}

static int check_path_states(struct cdt_hazard_list *l, size_t m,
			     const struct paths *p)
{
	const struct cdt_hazard_node *map = &l->nodes[m];
	char run[512] = "", bad[512] = "", unk[256] = "";
	size_t k, n_run = 0, n_bad = 0;
	int rc = 0;

	for (k = 0; k < p->n; k++) {
		const struct cdt_hazard_node *c = &l->nodes[p->idx[k]];

		if (!c->state[0]) {
			cat(unk, sizeof(unk), "%s", c->name);
		} else if (is_running(c)) {
			cat(run, sizeof(run), "%s", c->name);
			n_run++;
		} else {
			cat(bad, sizeof(bad), "%s '%s'", c->name, c->state);
			n_bad++;
		}
	}
	if (n_run >= 2)
		rc = add_hazard(l, "multipath-active-paths", CDT_HAZARD_WARNING,
			map->name,
			"%s (dm/uuid '%s'): %zu paths have device/state 'running' "
			"(%s). dm-multipath sends each request down one path, so "
			"requests in flight on different paths reach the logical "
			"unit in any order and a later write can complete before "
			"an earlier one. Only a flush or FUA write that the "
			"submitter waits for orders them: filesystems do that, code "
			"that relies on the completion order of plain writes does "
			"not get it.", map->name, map->dm_uuid, n_run, run);
	if (!rc && n_bad)
		rc = add_hazard(l, "path-failed", CDT_HAZARD_WARNING, map->name,
			"%s: %zu of its %zu paths %s not 'running' in device/state "
			"(%s). Requests that were in flight on a failing path are "
			"requeued onto another path and can complete after requests "
			"issued later.", map->name, n_bad, p->n, n_bad == 1 ? "is" : "are",
			bad);
	if (!rc && !n_run && !unk[0])
		rc = add_hazard(l, "no-active-path", CDT_HAZARD_DANGER, map->name,
			"%s (dm/uuid '%s'): no path is usable (%s). Writes to the "
			"map fail, or with queue_if_no_path in its table wait "
			"unacknowledged, until a path returns.", map->name,
			map->dm_uuid, p->n ? bad : "no path under slaves/");
	return rc;
}

/* Do the known write_cache (or fua) values differ among map + paths? */
static bool tri_differs(const struct cdt_hazard_list *l, size_t m,
			const struct paths *p, bool fua)
{
	int seen = -1;
	size_t k;

	for (k = 0; k <= p->n; k++) {
		const struct cdt_hazard_node *n =
			&l->nodes[k ? p->idx[k - 1] : m];
		int v = fua ? n->fua : n->write_back;

		if (v < 0)
			continue;
		if (seen >= 0 && v != seen)
			return true;
		seen = v;
	}
	return false;
}

static int check_cache_mismatch(struct cdt_hazard_list *l, size_t m,
				const struct paths *p)
{
	char wc[400] = "", fua[300] = "";
	size_t k;

	if (!tri_differs(l, m, p, false) && !tri_differs(l, m, p, true))
		return 0;
	for (k = 0; k <= p->n; k++) {
		const struct cdt_hazard_node *n =
			&l->nodes[k ? p->idx[k - 1] : m];

		cat(wc, sizeof(wc), "%s '%s'", n->name,
		    cdt_hazard_tri_text(n->write_back, "write back", "write through"));
		cat(fua, sizeof(fua), "%s %s", n->name, cdt_hazard_tri_text(n->fua, "1", "0"));
	}
	return add_hazard(l, "cache-mode-mismatch", CDT_HAZARD_WARNING,
		l->nodes[m].name,
		"%s: the map and its paths disagree; queue/write_cache: %s; "
		"queue/fua: %s. A map's cache settings are fixed when its table "
		"is loaded, a path changed later no longer matches, and whether a "
		"flush or FUA write is honoured, passed on or emulated depends on "
		"the path a request happens to take: the ordering a filesystem "
		"builds holds on one path and not on another.",
		l->nodes[m].name, wc, fua);
}

static int check_wwid(struct cdt_hazard_list *l, size_t m,
		      const struct paths *p)
{
	const char *first = NULL;
	bool differ = false;
	char list[512] = "";
	size_t k;

	for (k = 0; k < p->n; k++) {
		const struct cdt_hazard_node *c = &l->nodes[p->idx[k]];

		if (!c->wwid[0])
			continue;
		cat(list, sizeof(list), "%s '%s'", c->name, c->wwid);
		if (first && strcmp(first, c->wwid))
			differ = true;
		first = first ? first : c->wwid;
	}
	if (!differ)
		return 0;
	return add_hazard(l, "path-wwid-mismatch", CDT_HAZARD_DANGER,
		l->nodes[m].name,
		"%s: its paths report different device/wwid (%s). They are not "
		"one logical unit, yet the map spreads writes over them: data and "
		"its ordering are split across different devices.",
		l->nodes[m].name, list);
}

/* map m's paths differ in an attribute (values: each path's): info */
static int add_mismatch(struct cdt_hazard_list *l, size_t m, const char *id,
			const char *how, const char *values, const char *why)
{
	const char *name = l->nodes[m].name;

	return add_hazard(l, id, CDT_HAZARD_INFO, name, "%s: its paths %s (%s). %s",
			  name, how, values, why);
}

static int check_path_queues(struct cdt_hazard_list *l, size_t m,
			     const struct paths *p)
{
	char rot[300] = "", qd[300] = "";
	int rot_seen = -1;
	long qd_seen = -1;
	bool rot_diff = false, qd_diff = false;
	size_t k;
	int rc = 0;

	for (k = 0; k < p->n; k++) {
		const struct cdt_hazard_node *c = &l->nodes[p->idx[k]];

		cat(rot, sizeof(rot), "%s %s", c->name,
		    cdt_hazard_tri_text(c->rotational, "1", "0"));
		if (c->queue_depth >= 0)
			cat(qd, sizeof(qd), "%s %ld", c->name, c->queue_depth);
		else
			cat(qd, sizeof(qd), "%s unknown", c->name);
		if (c->rotational >= 0) {
			rot_diff |= rot_seen >= 0 && c->rotational != rot_seen;
			rot_seen = c->rotational;
		}
		if (c->queue_depth >= 0) {
			qd_diff |= qd_seen >= 0 && c->queue_depth != qd_seen;
			qd_seen = c->queue_depth;
		}
	}
	if (rot_diff)
		rc = add_mismatch(l, m, "rotational-mismatch",
			"disagree on queue/rotational", rot, "Paths to one "
			"logical unit should look alike; this suggests different "
			"devices or a misdetected path behind the map (compare "
			"device/wwid).");
	if (!rc && qd_diff)
		rc = add_mismatch(l, m, "queue-depth-mismatch",
			"have different device/queue_depth", qd, "The path with "
			"the deeper queue keeps more requests in flight, so more "
			"of them can be overtaken by requests sent down the other "
			"path.");
	return rc;
}

/* The rules over one map's paths, in the order their findings are listed. */
static int (*const map_checks[])(struct cdt_hazard_list *l, size_t m,
				 const struct paths *p) = {
	check_path_states, check_cache_mismatch, check_wwid, check_path_queues,
};

static int check_map(struct cdt_hazard_list *l, size_t m)
{
	struct paths *p = malloc(sizeof(*p));
	int rc = 0;

	if (!p)
		return CDT_ENOMEM;
	collect_paths(l, m, p);
	for (size_t i = 0; !rc && i < sizeof(map_checks) / sizeof(map_checks[0]); i++)
		rc = map_checks[i](l, m, p);
	free(p);
	return rc;
}

/* Most severe first; equal severities keep the order they were found in. */
static void sort_by_severity(struct cdt_hazard_list *l)
{
	struct cdt_hazard tmp;
	size_t i, j;

	for (i = 1; i < l->n_hazards; i++) {
		tmp = l->hazards[i];
		for (j = i; j > 0 && l->hazards[j - 1].severity < tmp.severity; j--)
			l->hazards[j] = l->hazards[j - 1];
		l->hazards[j] = tmp;
	}
}

int hz_evaluate(struct cdt_hazard_list *l)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < l->n_nodes; i++) {
		if (l->nodes[i].is_multipath)
			rc = check_map(l, i);
		if (!rc)
			rc = check_flush_disabled(l, i);
		if (!rc)
			rc = check_no_fua(l, i);
		if (!rc)
			rc = check_fua_unsupported(l, i);
	}
	if (!rc)
		sort_by_severity(l);
	return rc;
}
