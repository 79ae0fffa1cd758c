// SPDX-License-Identifier: MIT
/*
 * Pregaps and index marks from subchannel Q as probe and image --raw show
 * them (issue 33; cdtail(1), cdtail-image(1)): a track's "indexes" list,
 * the layout's "qmarks", "q_reads" and notes, the text lines.  Shown only
 * where Q was searched (a CD the drive reads raw), so the objects of other
 * discs stay as they were.
 */
#include <inttypes.h>
#include <stdio.h>
#include "cli.h"

static const char *const qmarks_ids[] = {
	[CDT_QMARKS_NONE] = NULL, [CDT_QMARKS_FOUND] = "found",
	[CDT_QMARKS_NO_Q] = "no-q", [CDT_QMARKS_PARTLY] = "partly",
};

bool cli_q_searched(const struct cdt_layout *l)
{
	return l && l->qmarks != CDT_QMARKS_NONE &&
	       (unsigned int)l->qmarks < sizeof(qmarks_ids) / sizeof(qmarks_ids[0]);
}

static json_object *index_json(unsigned int number, uint64_t lba)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "number", json_object_new_int((int)number));
	json_object_object_add(o, "lba", json_object_new_int64((int64_t)lba));
	return o;
}

json_object *cli_indexes_json(const struct cdt_layout *l, unsigned int track,
			      uint64_t index1, uint64_t pregap)
{
	json_object *a = json_object_new_array();
	size_t i;

	if (pregap && pregap <= index1)
		json_object_array_add(a, index_json(0, index1 - pregap));
	json_object_array_add(a, index_json(1, index1));
	for (i = 0; l && i < l->n_indexes; i++)
		if (l->indexes[i].track == track)
			json_object_array_add(a, index_json(l->indexes[i].number,
							    l->indexes[i].lba));
	return a;
}

void cli_qmarks_json(json_object *o, const struct cdt_layout *l)
{
	if (!cli_q_searched(l))
		return;
	json_object_object_add(o, "qmarks", json_object_new_string(qmarks_ids[l->qmarks]));
	json_object_object_add(o, "q_reads", json_object_new_int64(l->q_reads));
	json_object_object_add(o, "q_differs", json_object_new_int64(l->q_differs));
}

void cli_qmarks_notes(json_object *notes, const struct cdt_layout *l)
{
	if (!cli_q_searched(l))
		return;
	if (l->qmarks == CDT_QMARKS_NO_Q)
		json_object_array_add(notes, json_object_new_string("no-subchannel-q"));
	if (l->qmarks == CDT_QMARKS_PARTLY)
		json_object_array_add(notes, json_object_new_string("subchannel-q-partly"));
	if (l->q_differs)
		json_object_array_add(notes, json_object_new_string("pregap-differs"));
}

void cli_print_marks(const struct cdt_layout *l, unsigned int track)
{
	const char *sep = "  index";
	size_t i;

	for (i = 0; l && i < l->n_indexes; i++) {
		if (l->indexes[i].track != track)
			continue;
		printf("%s %02u at %" PRIu64, sep, l->indexes[i].number, l->indexes[i].lba);
		sep = ",";
	}
}

void cli_print_qmarks(const struct cdt_layout *l)
{
	if (!cli_q_searched(l))
		return;
	if (l->qmarks == CDT_QMARKS_NO_Q)
		cli_wrap(stdout, (size_t)printf("note:      "), 11,
			 "no-subchannel-q: the drive gives no subchannel Q: pregaps are"
			 " what its other answers say, index marks are not known");
	else
		printf("q:         pregaps and index marks from subchannel Q%s, %u reads\n",
		       l->qmarks == CDT_QMARKS_PARTLY ? " (not for every track: "
		       "the others' as the drive's other answers say)" : "", l->q_reads);
	if (l->q_differs)
		printf("note:      pregap-differs: %u track%s pregap in Q differs from the"
		       " drive's other answers (Q's is taken)\n", l->q_differs,
		       l->q_differs == 1 ? "'s" : "s'");
}
