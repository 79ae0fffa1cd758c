// SPDX-License-Identifier: MIT
/*
 * A probe result as people and programs see it: the text report, the
 * JSON object and the layout in it, the exit status of a verdict.  Both
 * the single probe (cmd_probe.c) and probe --all (probe_all.c) render
 * through here, so neither calls into the other.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "cdtextout.h"

/* A BD's structure: its disc information (MMC-6 profiles 0040h-0043h). */
static bool probe_bd(const struct cdt_probe_result *r)
{
	return r->sizes.profile >= 0x0040 && r->sizes.profile <= 0x0043;
}

/* READ DISC STRUCTURE is asked there only: elsewhere its row says nothing */
static bool dvd_or_bd(const struct cdt_probe_result *r)
{
	uint16_t p = r->sizes.profile;

	return (p >= 0x0010 && p <= 0x001b) || p == 0x002a || p == 0x002b || probe_bd(r);
}

struct source_row {
	const char *key;	/* JSON key */
	const char *label;	/* text label */
	int64_t blocks;
};

static unsigned int source_rows(const struct cdt_probe_result *r,
				struct source_row *rows)
{
	const struct cdt_sizes *s = &r->sizes;
	unsigned int n = 0;

	rows[n++] = (struct source_row){ "read_capacity", "READ CAPACITY", s->read_capacity };
	rows[n++] = (struct source_row){ "toc_leadout", "TOC lead-out", s->toc_leadout };
	rows[n++] = (struct source_row){ "track_end", "track information", s->track_end };
	rows[n++] = (struct source_row){ "disc_leadout", "disc information", s->disc_leadout };
	rows[n++] = (struct source_row){ "disc_structure", "disc structure", r->structure_blocks };
	rows[n++] = (struct source_row){ "filesystem", "filesystem", s->filesystem };
	rows[n++] = (struct source_row){ "kernel", "kernel", s->kernel };
	return n;
}

static const struct {
	unsigned int bit;
	const char *id;
	const char *text;
} notes[] = {
	{ CDT_NOTE_TAO_RUNOUT, "tao-runout",
	  "a TAO-written CD's run-out, harmless: the last 2 reported blocks do not read (no data is there); the verdict is ok (the drive reports 2 blocks more than the disc holds) and images stop before them" },
	{ CDT_NOTE_CAPACITY_CHANGED, "capacity-changed",
	  "the drive's READ CAPACITY answer changed after reads past the reported end" },
	{ CDT_NOTE_WINDOW_LIMIT, "window-limit",
	  "reads still succeed at the edge of the search window; raise --max-extra to look further" },
	{ CDT_NOTE_TRAILING_MEDIUM, "trailing-medium-error",
	  "the blocks after the last readable one fail with MEDIUM ERROR, not ILLEGAL REQUEST: the drive reports its end that way, or the last blocks are damaged" },
	{ CDT_NOTE_NO_READABLE, "nothing-readable",
	  "not even LBA 0 could be read" },
	{ CDT_NOTE_LAST_TRACK_AUDIO, "last-track-audio",
	  "the last track is audio: READ(10) cannot read it, so there was no end search; the end is where the TOC and track information put it" },
	{ CDT_NOTE_FORMATTED, "formatted",
	  "a formatted rewritable medium: READ CAPACITY is the formatted size, past the filesystem; the rest is unwritten space (image --formatted says what to do with it); the verdict still compares the true end with READ CAPACITY" },
	{ CDT_NOTE_APPENDABLE, "appendable",
	  "the last session is open (appendable disc): the blank space after it and the disc information's last possible lead-out are not data" },
	{ CDT_NOTE_FORM2, "form2",
	  "blocks of the last data track below its run-out answer 05/64/00 (ILLEGAL MODE FOR THIS TRACK): Mode 2 Form 2 sectors (Video CD, CD-i, XA audio or video), part of the disc but not readable as 2048-byte data; image lists them as skipped (form2) and exits 4" },
};

/* The two notes that carry a count (issue 23): their text says it. */
static void print_counted_notes(const struct cdt_probe_result *r)
{
	char text[400];

	if (r->notes & CDT_NOTE_DAMAGED_TAIL) {
		snprintf(text, sizeof(text), "damaged-tail: the last %" PRIu64 " block%s before"
			 " the end that READ CAPACITY, the TOC or track information and the"
			 " filesystem agree on fail with MEDIUM ERROR: damage, not the end;"
			 " the disc holds them, image marks them bad",
			 r->damaged_tail_blocks, r->damaged_tail_blocks == 1 ? "" : "s");
		cli_wrap(stdout, (size_t)printf("note:      "), 11, text);
	}
	if (r->notes & CDT_NOTE_UNCONFIRMED_TAIL) {
		snprintf(text, sizeof(text), "unconfirmed-tail: %" PRIu64 " block%s past the end"
			 " the sources agree on read, but only as zeros or the last block again"
			 " (a drive reading the lead-out, or a stale cache) and no sector header"
			 " could confirm them: not counted",
			 r->unconfirmed_blocks, r->unconfirmed_blocks == 1 ? "" : "s");
		cli_wrap(stdout, (size_t)printf("note:      "), 11, text);
	}
}

/* ---- the disc's structure ------------------------------------------------ */

/*
 * The control nibble's bits besides data, as a CUE sheet's FLAGS words
 * (libcdtail(3) struct cdt_track: 8 four channels, 2 copy permitted, 1
 * pre-emphasis), in CDRWIN's order.
 */
static const struct {
	uint8_t bit;
	const char *word;
} control_flags[] = { { 0x02, "DCP" }, { 0x08, "4CH" }, { 0x01, "PRE" } };

#define N_CONTROL_FLAGS (sizeof(control_flags) / sizeof(control_flags[0]))

static bool has_flags(const struct cdt_track *t)
{
	for (size_t i = 0; i < N_CONTROL_FLAGS; i++)
		if (t->control & control_flags[i].bit)
			return true;
	return false;
}

/* ["DCP", "4CH", "PRE"] of those k has */
static json_object *flags_json(const struct cdt_track *k)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < N_CONTROL_FLAGS; i++)
		if (k->control & control_flags[i].bit)
			json_object_array_add(a, json_object_new_string(control_flags[i].word));
	return a;
}

/* "  flags DCP PRE", or nothing */
static void print_flags(const struct cdt_track *t)
{
	if (!has_flags(t))
		return;
	printf("  flags");
	for (size_t i = 0; i < N_CONTROL_FLAGS; i++)
		if (t->control & control_flags[i].bit)
			printf(" %s", control_flags[i].word);
}

json_object *cli_layout_json(const struct cdt_layout *l)
{
	json_object *o = json_object_new_object(), *tr, *gp, *t;
	size_t i;

	tr = json_object_new_array();
	gp = json_object_new_array();
	json_object_object_add(o, "sessions", l ? json_object_new_int((int)l->sessions) : NULL);
	for (i = 0; l && i < l->n_tracks; i++) {
		const struct cdt_track *k = &l->tracks[i];

		t = json_object_new_object();
		json_object_object_add(t, "number", json_object_new_int((int)k->number));
		json_object_object_add(t, "session", json_object_new_int((int)k->session));
		json_object_object_add(t, "mode", json_object_new_string(cdt_track_mode_name(k->mode)));
		json_object_object_add(t, "start", json_object_new_int64((int64_t)k->start));
		json_object_object_add(t, "blocks", json_object_new_int64((int64_t)k->blocks));
		json_object_object_add(t, "pregap", json_object_new_int64((int64_t)k->pregap));
		/* only where the drive read the track's first sector raw */
		if (k->sector_mode != CDT_SECTOR_UNKNOWN)
			json_object_object_add(t, "sector_mode", json_object_new_string(
					       cdt_sector_mode_name(k->sector_mode)));
		/* only where the TOC sets one: the others' objects stay as they were */
		if (has_flags(k))
			json_object_object_add(t, "flags", flags_json(k));
		if (cli_q_searched(l))
			json_object_object_add(t, "indexes", cli_indexes_json(l, k->number,
							k->start, k->pregap));
		json_object_array_add(tr, t);
	}
	for (i = 0; l && i < l->n_gaps; i++) {
		t = json_object_new_object();
		json_object_object_add(t, "start", json_object_new_int64((int64_t)l->gaps[i].start));
		json_object_object_add(t, "blocks", json_object_new_int64((int64_t)l->gaps[i].blocks));
		json_object_array_add(gp, t);
	}
	json_object_object_add(o, "tracks", tr);
	json_object_object_add(o, "gaps", gp);
	cli_qmarks_json(o, l);
	return o;
}

/* Move lay's keys into o (lay is freed). */
static void add_layout(json_object *o, json_object *lay)
{
	if (!lay)
		lay = cli_layout_json(NULL);
	json_object_object_foreach(lay, key, val)
		json_object_object_add(o, key, json_object_get(val));
	json_object_put(lay);
}

static bool any_sector_mode(const struct cdt_layout *l)
{
	for (size_t i = 0; i < l->n_tracks; i++)
		if (l->tracks[i].sector_mode != CDT_SECTOR_UNKNOWN)
			return true;
	return false;
}

static void print_layout(const struct cdt_layout *l)
{
	size_t i, g = 0;
	bool modes;

	/* one data track in one session: nothing the sources do not say */
	if (!l || (l->n_tracks <= 1 && !l->n_gaps))
		return;
	printf("layout:    %u session%s, %zu track%s%s\n", l->sessions,
	       l->sessions == 1 ? "" : "s", l->n_tracks, l->n_tracks == 1 ? "" : "s",
	       l->has_toc ? "" : " (the drive gave no TOC: one data track assumed)");
	modes = any_sector_mode(l);
	printf("  %5s %7s %-5s %10s %10s %7s%s\n", "track", "session", "mode", "start",
	       "blocks", "pregap", modes ? "  sector" : "");
	for (i = 0; i < l->n_tracks; i++) {
		const struct cdt_track *t = &l->tracks[i];

		for (; g < l->n_gaps && l->gaps[g].start < t->start; g++)
			printf("  %-5s %7s %-5s %10llu %10llu %7s  between sessions\n", "gap",
			       "", "", (unsigned long long)l->gaps[g].start,
			       (unsigned long long)l->gaps[g].blocks, "");
		printf("  %5u %7u %-5s %10llu %10llu %7llu%s%s%s", t->number, t->session,
		       cdt_track_mode_name(t->mode), (unsigned long long)t->start,
		       (unsigned long long)t->blocks, (unsigned long long)t->pregap,
		       modes ? "  " : "",
		       modes ? (t->sector_mode ? cdt_sector_mode_name(t->sector_mode) : "-") : "",
		       t->runout ? "  TAO run-out" : "");
		print_flags(t);
		cli_print_marks(l, t->number);
		putchar('\n');
	}
	cli_print_qmarks(l);
}

/* 512-byte sectors dd of the kernel node would miss (negative: reads too many). */
static int64_t dd_loses_512(const struct cdt_probe_result *r)
{
	int64_t true_512 = (int64_t)r->true_blocks * r->sizes.block_size / 512;
	int64_t node_512 = r->sizes.kernel_512 >= 0 ? r->sizes.kernel_512 :
		(int64_t)r->reported_blocks * r->sizes.block_size / 512;

	return true_512 - node_512;
}

/*
 * A filesystem that ends before the true end is not wrong: a burn pads past
 * it (wodim -pad, mkisofs padding, a DVD's ECC block) or a later session
 * follows; only one that declares more than the disc holds is.
 */
static bool fs_fits(const struct source_row *row, const struct cdt_probe_result *r)
{
	return !strcmp(row->key, "filesystem") && row->blocks >= 0 &&
	       (uint64_t)row->blocks < r->true_blocks;
}

/* Past a window-limited end, its last block read: not wrong, unmeasured. */
static bool fs_read_past(const struct source_row *row, const struct cdt_probe_result *r)
{
	return !strcmp(row->key, "filesystem") && cli_fs_end_read(r);
}

static json_object *json_sources(const struct cdt_probe_result *r,
				 json_object **wrong)
{
	struct source_row rows[8];
	json_object *o = json_object_new_object();
	unsigned int i, n = source_rows(r, rows);

	*wrong = json_object_new_array();
	for (i = 0; i < n; i++) {
		json_object_object_add(o, rows[i].key, cli_json_count(rows[i].blocks));
		if (rows[i].blocks >= 0 && (uint64_t)rows[i].blocks != r->true_blocks &&
		    !fs_fits(&rows[i], r) && !fs_read_past(&rows[i], r))
			json_object_array_add(*wrong, json_object_new_string(rows[i].key));
	}
	return o;
}

static json_object *json_drive(const struct cdt_probe_result *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "vendor", json_object_new_string(r->inq.vendor));
	json_object_object_add(o, "product", json_object_new_string(r->inq.product));
	json_object_object_add(o, "revision", json_object_new_string(r->inq.revision));
	json_object_object_add(o, "peripheral_type", json_object_new_int(r->inq.peripheral_type));
	return o;
}

/* Tried at all: a CD (DVD and BD have no raw sectors to try). */
static bool raw_tried(const struct cdt_raw_caps *c)
{
	return c->tried_lba != CDT_SIZE_ABSENT || c->declared;
}

/*
 * The sector READ CD was tried on is audio (no sync): it has no EDC, so
 * edc_ok says nothing of the drive there (issue 33).  probe tries a data
 * track's first sector where the disc has one; an all-audio CD has none.
 */
static bool tried_audio(const struct cdt_layout *l, int64_t lba)
{
	for (size_t i = 0; l && i < l->n_tracks; i++)
		if ((int64_t)l->tracks[i].start == lba)
			return l->tracks[i].sector_mode == CDT_SECTOR_AUDIO;
	return false;
}

/* The same, from the layout's JSON (the probe's JSON holds no cdt_layout). */
static bool tried_audio_json(json_object *o, int64_t lba)
{
	json_object *tracks, *t, *v;
	size_t i;

	if (!json_object_object_get_ex(o, "tracks", &tracks))
		return false;
	for (i = 0; i < json_object_array_length(tracks); i++) {
		t = json_object_array_get_idx(tracks, i);
		if (json_object_object_get_ex(t, "start", &v) && json_object_get_int64(v) == lba)
			return json_object_object_get_ex(t, "sector_mode", &v) &&
			       !strcmp(json_object_get_string(v), "audio");
	}
	return false;
}

static json_object *json_raw(const struct cdt_raw_caps *c, bool audio)
{
	json_object *o;

	if (!raw_tried(c))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "sectors", json_object_new_boolean(c->sectors));
	json_object_object_add(o, "c2", json_object_new_boolean(c->c2));
	json_object_object_add(o, "subchannel_q", json_object_new_boolean(c->subq));
	json_object_object_add(o, "subchannel_pw", json_object_new_boolean(c->subpw));
	/* null on an audio sector: there is no EDC to be right or wrong */
	json_object_object_add(o, "edc_ok", audio && c->sectors ? NULL :
			       json_object_new_boolean(c->edc_ok));
	if (audio && c->sectors)
		json_object_object_add(o, "edc_note", json_object_new_string(
				       "audio sector: no EDC/ECC to check (the disc has no data track)"));
	json_object_object_add(o, "declared", json_object_new_boolean(c->declared));
	json_object_object_add(o, "declared_c2", json_object_new_boolean(c->declared_c2));
	json_object_object_add(o, "tried_lba", cli_json_count(c->tried_lba));
	return o;
}

/* ---- READ DISC STRUCTURE (issue 36) -------------------------------------- */

/* null where the drive answered no structure (a CD, a refusal) */
static json_object *json_structure(const struct cdt_probe_result *r)
{
	json_object *o;

	if (!r->structure_layers)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string(r->structure_type));
	json_object_object_add(o, "version", json_object_new_int(r->structure_version));
	json_object_object_add(o, "layers", json_object_new_int((int)r->structure_layers));
	json_object_object_add(o, "track_path", probe_bd(r) ? NULL :
			       json_object_new_string(r->structure_otp ? "opposite" : "parallel"));
	json_object_object_add(o, "layer0_blocks", cli_json_count(r->structure_layer0));
	return o;
}

/* "structure: DVD-ROM version 1, 2 layers, opposite track path; layer 0 ..." */
static void print_structure(const struct cdt_probe_result *r)
{
	if (!r->structure_layers)
		return;
	printf("structure: %s version %u, %u layer%s", r->structure_type,
	       r->structure_version, r->structure_layers,
	       r->structure_layers == 1 ? "" : "s");
	if (!probe_bd(r))
		printf(", %s track path", r->structure_otp ? "opposite" : "parallel");
	if (r->structure_layer0 > 0)
		printf("; layer 0: %lld blocks (layer 1 from LBA %lld)",
		       (long long)r->structure_layer0, (long long)r->structure_layer0);
	printf("\n");
}

/* null but on DVD±R, DVD-RW and BD-R, where the track information answered */
static json_object *json_recorded(const struct cdt_probe_result *r)
{
	json_object *o;

	if (r->recorded_track < 0 && r->next_writable < 0)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "track", cli_json_count(r->recorded_track));
	json_object_object_add(o, "start", cli_json_count(r->recorded_start));
	json_object_object_add(o, "size", cli_json_count(r->recorded_size));
	json_object_object_add(o, "last_recorded", cli_json_count(r->recorded_last));
	json_object_object_add(o, "next_writable", cli_json_count(r->next_writable));
	json_object_object_add(o, "recorded_end", cli_json_count(r->recorded_end));
	return o;
}

/*
 * READ CAPACITY of an open disc short of the last track's recorded extent:
 * what drives answer on appendable DVD±R (1, or the last recorded
 * address; doc/disc-kinds.md); the extent is the end the search tested.
 */
static bool open_capacity(const struct cdt_probe_result *r)
{
	return (r->notes & CDT_NOTE_APPENDABLE) && r->recorded_end > 0 &&
	       r->sizes.read_capacity >= 0 && r->sizes.read_capacity < r->recorded_end;
}

static void print_recorded(const struct cdt_probe_result *r)
{
	if (r->recorded_track >= 0) {
		printf("recorded:  track %lld from LBA %lld, %lld blocks", (long long)r->recorded_track,
		       (long long)r->recorded_start, (long long)r->recorded_size);
		if (r->recorded_last >= 0)
			printf(", last recorded LBA %lld", (long long)r->recorded_last);
		if (r->next_writable >= 0)
			printf("; next writable LBA %lld", (long long)r->next_writable);
		printf("\n");
	} else if (r->next_writable >= 0) {
		printf("recorded:  nothing; next writable LBA %lld\n", (long long)r->next_writable);
	}
}

static void print_open_capacity(const struct cdt_probe_result *r)
{
	char text[400];

	if (!open_capacity(r))
		return;
	snprintf(text, sizeof(text), "open-capacity: READ CAPACITY of this appendable disc says"
		 " %lld block%s, short of the last track's recorded extent (%lld: its last"
		 " recorded address + 1), as drives answer for open DVD-R and DVD+R discs; the end"
		 " is judged from the recorded extent and the reads",
		 (long long)r->sizes.read_capacity, r->sizes.read_capacity == 1 ? "" : "s",
		 (long long)r->recorded_end);
	cli_wrap(stdout, (size_t)printf("note:      "), 11, text);
}

/* "raw:" only where READ CD gave something or the drive declares it */
static void print_raw(const struct cdt_raw_caps *c, const struct cdt_layout *l)
{
	if (!c->sectors && !c->declared)
		return;
	if (!c->sectors) {
		printf("raw:       none (CD Read declared, READ CD failed at LBA %lld)\n",
		       (long long)c->tried_lba);
		return;
	}
	printf("raw:       sectors%s%s%s (READ CD at LBA %lld%s)\n", c->c2 ? ", C2" : "",
	       c->subq ? ", subchannel Q" : "", c->subpw ? ", subchannel P-W" : "",
	       (long long)c->tried_lba,
	       tried_audio(l, c->tried_lba) ? ", an audio sector: no EDC/ECC to check" :
	       c->edc_ok ? ", EDC/ECC right" : ", EDC/ECC not right: not trusted");
}

/* The layout's Q notes (qmarks.c) from its JSON keys, which o now holds. */
static void qmarks_notes(json_object *o, json_object *nt)
{
	json_object *v;
	struct cdt_layout l = { .qmarks = CDT_QMARKS_FOUND };

	if (!json_object_object_get_ex(o, "qmarks", &v))
		return;
	if (!strcmp(json_object_get_string(v), "no-q"))
		l.qmarks = CDT_QMARKS_NO_Q;
	else if (!strcmp(json_object_get_string(v), "partly"))
		l.qmarks = CDT_QMARKS_PARTLY;
	if (json_object_object_get_ex(o, "q_differs", &v))
		l.q_differs = (unsigned int)json_object_get_int64(v);
	cli_qmarks_notes(nt, &l);
}

json_object *cli_probe_json(const char *addr, const struct cdt_probe_result *r, bool virt,
			    double elapsed_ms, json_object *lay)
{
	json_object *o = json_object_new_object(), *wrong, *nt;
	size_t i;

	cli_json_disc(o, addr, r);
	json_object_object_add(o, "drive", json_drive(r));
	json_object_object_add(o, "profile", json_object_new_string(cdt_profile_name(r->sizes.profile)));
	json_object_object_add(o, "sources", json_sources(r, &wrong));
	json_object_object_add(o, "wrong_sources", wrong);
	json_object_object_add(o, "kernel_512", cli_json_count(r->sizes.kernel_512));
	json_object_object_add(o, "dd_loses_512", json_object_new_int64(dd_loses_512(r)));
	json_object_object_add(o, "capacity_after", cli_json_count(r->capacity_after));
	/* the contract's names for the end search's counts and time */
	json_object_object_add(o, "reads", json_object_new_int64((int64_t)r->reads));
	json_object_object_add(o, "failed_reads", json_object_new_int64((int64_t)r->failed_reads));
	json_object_object_add(o, "virtual_ms", virt ? cli_json_ms(r->search_ms) : NULL);
	json_object_object_add(o, "total", cli_json_total(&r->stats, elapsed_ms, virt));
	nt = json_object_new_array();
	for (i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (r->notes & notes[i].bit)
			json_object_array_add(nt, json_object_new_string(notes[i].id));
	if (open_capacity(r))
		json_object_array_add(nt, json_object_new_string("open-capacity"));
	cli_json_fs_past_end(o, nt, r);
	cli_json_agreed_end(o, nt, r);
	json_object_object_add(o, "notes", nt);
	add_layout(o, lay);
	qmarks_notes(o, nt);
	json_object_object_add(o, "raw", json_raw(&r->raw, tried_audio_json(o, r->raw.tried_lba)));
	json_object_object_add(o, "structure", json_structure(r));
	json_object_object_add(o, "recorded_track", json_recorded(r));
	json_object_object_add(o, "verdict", json_object_new_string(cdt_verdict_name(r->verdict)));
	return o;
}

static void print_source(const struct source_row *row, const struct cdt_probe_result *r)
{
	int64_t diff;

	if (row->blocks < 0) {
		printf("  %-18s %12s\n", row->label, "-");
		return;
	}
	diff = row->blocks - (int64_t)r->true_blocks;
	if (fs_fits(row, r))
		printf("  %-18s %12lld  fits (%lld blocks after it)\n", row->label,
		       (long long)row->blocks, (long long)-diff);
	else if (fs_read_past(row, r))
		printf("  %-18s %12lld  its last block reads (past the window)\n", row->label,
		       (long long)row->blocks);
	else if (!diff)
		printf("  %-18s %12lld  right\n", row->label, (long long)row->blocks);
	else
		printf("  %-18s %12lld  wrong (%lld %s)\n", row->label,
		       (long long)row->blocks, (long long)(diff < 0 ? -diff : diff),
		       diff < 0 ? "short" : "too many");
}

/* Why the disc needs more than dd, and the command that copies it. */
static const char *next_reason(const struct cdt_probe_result *r)
{
	if (r->notes & CDT_NOTE_NO_READABLE)
		return NULL;
	if (r->verdict == CDT_VERDICT_HIDDEN_TAIL)
		return "dd of the kernel node stops at the reported end and misses the hidden"
		       " tail; image the whole disc with a map (or complete a dd copy with"
		       " cdtail tail DEV COPY):";
	if (r->verdict == CDT_VERDICT_SHORT)
		return "dd of the kernel node would fail on the blocks past the true end;"
		       " image to the true end with a map:";
	if (r->notes & (CDT_NOTE_TRAILING_MEDIUM | CDT_NOTE_DAMAGED_TAIL))
		return "the last blocks fail with MEDIUM ERROR, the drive's end or damage;"
		       " image with a map: a resume reads only what is missing, and in"
		       " another drive it tries every bad block once more:";
	return NULL;
}

/*
 * Audio tracks or Mode 2 Form 2 sectors (a CD-Extra, an audio CD, a Video
 * CD): a 2048-byte image would hold zeros for them, so the raw image is
 * what to make (issue 35, 7).  Its first sector's header tells a Form 2
 * track (or a formless Mode 2 one: neither gives READ(10) its sectors).
 */
static bool wants_raw(const struct cdt_layout *l)
{
	size_t i;

	for (i = 0; l && i < l->n_tracks; i++)
		if (l->tracks[i].mode == CDT_TRACK_AUDIO ||
		    l->tracks[i].sector_mode == CDT_SECTOR_MODE2_FORM2 ||
		    l->tracks[i].sector_mode == CDT_SECTOR_MODE2)
			return true;
	return false;
}

static void print_next(const char *addr, const struct cdt_probe_result *r,
		       const struct cdt_layout *l)
{
	const char *why = next_reason(r);

	if (r->notes & CDT_NOTE_NO_READABLE) {
		cli_wrap(stdout, (size_t)printf("next:      "), 11,
			 "nothing reads: clean the disc or try another drive, then probe again");
		return;
	}
	if (wants_raw(l)) {
		cli_wrap(stdout, (size_t)printf("next:      "), 11, r->raw.sectors ?
			 "the disc holds audio or Mode 2 sectors, which a 2048-byte image lacks"
			 " (zeros there): image every track raw (2352-byte sectors, BIN/CUE),"
			 " to its true end:" :
			 "the disc holds audio or Mode 2 sectors, which a 2048-byte image lacks"
			 " (zeros there), and this drive reads no raw sectors (READ CD): image"
			 " every track raw in a drive that does (or here the data only):");
		printf("           cdtail image --raw --map disc.map %s disc.cue\n",
		       r->raw.sectors ? addr : "NEWDEV");
		if (!r->raw.sectors)
			printf("           cdtail image %s disc.iso\n", addr);
		return;
	}
	if (!why)
		return;
	cli_wrap(stdout, (size_t)printf("next:      "), 11, why);
	printf("           cdtail image --map disc.map %s disc.iso\n", addr);
}

/*
 * A count of blocks is never negative in words: a drive that reports more
 * than the disc holds (a TAO run-out, a short burn) says so.
 */
static void print_hidden(int64_t hidden, uint32_t bs)
{
	int64_t more = -hidden;

	if (hidden >= 0)
		printf("hidden:    %lld block%s (%lld x 512-byte sectors)\n", (long long)hidden,
		       hidden == 1 ? "" : "s", (long long)(hidden * (int64_t)bs / 512));
	else
		printf("hidden:    none; the drive reports %lld block%s more than the disc holds\n"
		       "           (%lld x 512-byte sectors)\n", (long long)more,
		       more == 1 ? "" : "s", (long long)(more * (int64_t)bs / 512));
}

void cli_probe_text(const char *addr, const struct cdt_probe_result *r, bool virt,
		    const struct cdt_layout *l, const struct cdt_cd_text *text)
{
	struct source_row rows[8];
	unsigned int i, n = source_rows(r, rows);
	uint32_t bs = r->sizes.block_size;
	int64_t lost = dd_loses_512(r);
	char dt[48];

	printf("device:    %s\n", addr);
	printf("drive:     %s %s %s (peripheral type %u)\n", r->inq.vendor,
	       r->inq.product, r->inq.revision, r->inq.peripheral_type);
	printf("medium:    %s, %u-byte blocks, filesystem %s\n",
	       cdt_profile_name(r->sizes.profile), bs,
	       r->sizes.fs_type[0] ? r->sizes.fs_type : "not recognised");
	print_layout(l);
	print_raw(&r->raw, l);
	print_structure(r);
	print_recorded(r);
	cli_cd_text_print(text);
	printf("sources (blocks):\n");
	for (i = 0; i < n; i++)
		if (strcmp(rows[i].key, "disc_structure") || dvd_or_bd(r))
			print_source(&rows[i], r);
	if (r->capacity_after >= 0 && (uint64_t)r->capacity_after != r->reported_blocks)
		printf("  %-18s %12lld  (after probing; %llu before)\n", "READ CAPACITY",
		       (long long)r->capacity_after, (unsigned long long)r->reported_blocks);
	printf("true end:  %llu blocks", (unsigned long long)r->true_blocks);
	if (r->true_blocks > r->damaged_tail_blocks)
		printf(" (last readable LBA %llu)",
		       (unsigned long long)(r->true_blocks - r->damaged_tail_blocks - 1));
	putchar('\n');
	print_hidden(r->hidden_blocks, bs);
	if (lost > 0)
		printf("dd:        dd of the kernel node would lose %lld 512-byte sectors\n",
		       (long long)lost);
	else if (lost < 0)
		printf("dd:        dd of the kernel node would hit %lld unreadable 512-byte sectors\n",
		       (long long)-lost);
	cli_duration(dt, sizeof(dt), r->search_ms);
	printf("search:    %llu reads, %llu failed, %s of drive time%s\n",
	       (unsigned long long)r->reads, (unsigned long long)r->failed_reads,
	       dt, virt ? " (virtual)" : "");
	for (i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (r->notes & notes[i].bit)
			cli_wrap(stdout, (size_t)printf("note:      "), 11, notes[i].text);
	print_counted_notes(r);
	print_open_capacity(r);
	cli_print_fs_past_end(r, "the files stored there are not on the disc, and no copy"
			      " of it holds them");
	print_next(addr, r, l);
	printf("verdict:   %s\n", cdt_verdict_name(r->verdict));
}

int cli_verdict_status(enum cdt_verdict v)
{
	if (v == CDT_VERDICT_HIDDEN_TAIL)
		return EX_HIDDEN_TAIL;
	if (v == CDT_VERDICT_SHORT)
		return EX_SHORT;
	/* nothing reads: as image says of such a disc */
	if (v == CDT_VERDICT_UNREADABLE)
		return EX_UNREADABLE;
	return EX_SAME;
}
