// SPDX-License-Identifier: MIT
/*
 * The JSON vocabulary every command shares, built in one place so the
 * same thing has the same name and shape everywhere (cdtail(1), JSON
 * OUTPUT): the disc's sizes, the filesystem, the end search's counts and
 * the whole run's counts.
 */
#include <math.h>
#include <stdio.h>
#include "cli.h"

json_object *cli_json_ms(double ms)
{
	char text[48];
	double v = round(ms * 100) / 100;
	size_t n;

	/* "%.2f", then no trailing zeros: 16038.9, not 16038.900000000005 */
	n = (size_t)snprintf(text, sizeof(text), "%.2f", v);
	while (n > 1 && text[n - 1] == '0')
		text[--n] = '\0';
	if (n > 1 && text[n - 1] == '.')
		text[--n] = '\0';
	return json_object_new_double_s(v, text);
}

static json_object *json_filesystem(const struct cdt_probe_result *p)
{
	const struct cdt_sizes *s = &p->sizes;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", s->fs_type[0] ? json_object_new_string(s->fs_type) : NULL);
	json_object_object_add(o, "blocks", cli_json_count(s->filesystem));
	/* read once where the window ended the search below it: null if not */
	json_object_object_add(o, "end_read", !CDT_HAS(p, fs_end_read) || p->fs_end_read < 0 ?
			       NULL : json_object_new_boolean(p->fs_end_read));
	return o;
}

void cli_json_disc(json_object *o, const char *addr, const struct cdt_probe_result *p)
{
	uint32_t bs = p->sizes.block_size;

	json_object_object_add(o, "device", json_object_new_string(addr));
	json_object_object_add(o, "block_size", json_object_new_int((int)bs));
	json_object_object_add(o, "reported_blocks", json_object_new_int64((int64_t)p->reported_blocks));
	json_object_object_add(o, "true_blocks", json_object_new_int64((int64_t)p->true_blocks));
	json_object_object_add(o, "hidden_blocks", json_object_new_int64(p->hidden_blocks));
	json_object_object_add(o, "hidden_512", json_object_new_int64(p->hidden_blocks * (int64_t)bs / 512));
	json_object_object_add(o, "extent_blocks", json_object_new_int64((int64_t)p->extent_blocks));
	json_object_object_add(o, "filesystem", json_filesystem(p));
	json_object_object_add(o, "search_reads", json_object_new_int64((int64_t)p->reads));
	json_object_object_add(o, "search_failed_reads", json_object_new_int64((int64_t)p->failed_reads));
	json_object_object_add(o, "search_ms", cli_json_ms(p->search_ms));
	json_object_object_add(o, "window_limit",
			       json_object_new_boolean(!!(p->notes & CDT_NOTE_WINDOW_LIMIT)));
}

json_object *cli_json_total(const struct cdt_stats *st, double elapsed_ms, bool virt)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "commands", json_object_new_int64((int64_t)st->commands));
	json_object_object_add(o, "reads", json_object_new_int64((int64_t)st->reads));
	json_object_object_add(o, "failed_reads", json_object_new_int64((int64_t)st->failed_reads));
	json_object_object_add(o, "device_ms", cli_json_ms(st->device_ms));
	json_object_object_add(o, "virtual_ms", virt ? cli_json_ms(st->virtual_ms) : NULL);
	json_object_object_add(o, "elapsed_ms", cli_json_ms(elapsed_ms));
	return o;
}
