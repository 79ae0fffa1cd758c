// SPDX-License-Identifier: MIT
/*
 * cdtail image --raw: the disc as BIN/CUE (cdt_image_raw), its report in
 * text and JSON.  The JSON "tracks" keys are CONTRACT.md's; the per track
 * checksums are added where they are computed, never made up here.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "imageraw.h"
#include "cdtextout.h"

/* An offset larger than this is no drive's (AccurateRip lists some hundreds). */
#define OFFSET_MAX 100000

int image_raw_offset(const char *arg, struct cdt_raw_opts *ro)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!*arg || *end || v < -OFFSET_MAX || v > OFFSET_MAX)
		return cli_usage("image", "--offset wants a number of samples, -%d to %d, not '%s'",
				 OFFSET_MAX, OFFSET_MAX, arg);
	ro->offset_set = true;
	ro->offset_samples = (int)v;
	return 0;
}

static uint64_t edc_total(const struct cdt_raw_result *r)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < r->n_tracks; i++)
		n += r->tracks[i].edc_errors;
	return n;
}

/* 8 lower-case hex digits, or null (a data track: AccurateRip lists audio only). */
static json_object *json_arip(bool set, uint32_t v)
{
	char hex[9];

	if (!set)
		return NULL;
	snprintf(hex, sizeof(hex), "%08x", v);
	return json_object_new_string(hex);
}

/* The drive's MCN or ISRC, null where it gave none. */
static json_object *json_text_or_null(const char *s)
{
	return *s ? json_object_new_string(s) : NULL;
}

/* With --subchannel: the track's Q CRC errors and its zeroed records. */
static void json_sub_track(json_object *o, const struct cdt_raw_result *r, size_t i)
{
	if (!r->sub_file)
		return;
	json_object_object_add(o, "q_crc_errors", json_object_new_int64((int64_t)r->q_crc_errors[i]));
	json_object_object_add(o, "sub_zeroed", json_object_new_int64((int64_t)r->sub_zeroed[i]));
}

static uint64_t sub_total(const uint64_t *v, size_t n)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; v && i < n; i++)
		sum += v[i];
	return sum;
}

static json_object *json_tracks(const struct cdt_raw_result *r, const struct cdt_layout *l)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < r->n_tracks; i++) {
		const struct cdt_raw_track *t = &r->tracks[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "number", json_object_new_int((int)t->number));
		json_object_object_add(o, "session", json_object_new_int((int)t->session));
		json_object_object_add(o, "mode", json_object_new_string(
			t->mode == CDT_TRACK_AUDIO ? "audio" : cdt_sector_mode_name(t->sector_mode)[0] ?
			cdt_sector_mode_name(t->sector_mode) : "data"));
		json_object_object_add(o, "file", json_object_new_string(t->file));
		json_object_object_add(o, "first_lba", json_object_new_int64((int64_t)t->first_lba));
		json_object_object_add(o, "sectors", json_object_new_int64((int64_t)t->sectors));
		json_object_object_add(o, "pregap", json_object_new_int64((int64_t)t->pregap));
		json_object_object_add(o, "runout", json_object_new_int64((int64_t)t->runout));
		json_object_object_add(o, "edc_errors", json_object_new_int64((int64_t)t->edc_errors));
		json_object_object_add(o, "bad_sectors", json_object_new_int64((int64_t)t->bad_sectors));
		json_object_object_add(o, "isrc", json_text_or_null(t->isrc));
		if (cli_q_searched(l))	/* issue 33: from index 00, the file's first sector */
			json_object_object_add(o, "indexes", cli_indexes_json(l, t->number,
					       t->first_lba + t->pregap, t->pregap));
		json_sub_track(o, r, i);
		if (t->hashed) {
			char crc[9];

			snprintf(crc, sizeof(crc), "%08x", t->crc32);
			json_object_object_add(o, "crc32", json_object_new_string(crc));
			json_object_object_add(o, "md5", json_object_new_string(t->md5));
			json_object_object_add(o, "sha1", json_object_new_string(t->sha1));
			json_object_object_add(o, "accuraterip_v1", json_arip(t->accuraterip, t->arip_v1));
			json_object_object_add(o, "accuraterip_v2", json_arip(t->accuraterip, t->arip_v2));
		}
		json_object_array_add(a, o);
	}
	return a;
}

static const char *verdict(const struct cdt_raw_result *r)
{
	return r->sum.bad_blocks ? "unreadable" : "complete";
}

/* Q's keys and notes (qmarks.c, issue 33): every raw run has "notes" */
static void json_qmarks(json_object *o, const struct cdt_layout *l)
{
	json_object *notes = json_object_new_array();

	cli_qmarks_json(o, l);
	cli_qmarks_notes(notes, l);
	json_object_object_add(o, "notes", notes);
}

static void print_json(const char *addr, const char *out, const struct cdt_raw_opts *ro,
		       const struct cdt_raw_result *r, bool virt, bool interrupted,
		       const struct cdt_layout *l)
{
	json_object *o = json_object_new_object();

	rui_json_summary(o, addr, &r->sum, virt);
	json_object_object_add(o, "raw", json_object_new_boolean(true));
	json_object_object_add(o, "cue", json_object_new_string(out));
	json_object_object_add(o, "stream_sectors", json_object_new_int64((int64_t)r->stream_sectors));
	rui_json_resume(o, ro->map_path, r->resumed, r->finished_before, r->identity_blocks);
	json_object_object_add(o, "audio_checked", json_object_new_boolean(r->audio_checked));
	json_object_object_add(o, "offset", ro->offset_set ?
			       json_object_new_int(ro->offset_samples) : NULL);
	json_object_object_add(o, "edc_errors", json_object_new_int64((int64_t)edc_total(r)));
	json_object_object_add(o, "catalog", json_text_or_null(r->catalog));
	json_object_object_add(o, "subchannel", r->sub_file ? json_object_new_string(r->sub_file) : NULL);
	json_object_object_add(o, "single_file", json_object_new_boolean(ro->single_file));
	json_object_object_add(o, "tracks", json_tracks(r, l));
	json_qmarks(o, l);
	json_object_object_add(o, "cd_text", cli_cd_text_json(r->cd_text));
	json_object_object_add(o, "verdict", json_object_new_string(interrupted ? "interrupted" :
								    verdict(r)));
	if (interrupted)
		json_object_object_add(o, "interrupted", json_object_new_boolean(true));
	cli_json_out(o);
}

static void print_tracks(const struct cdt_raw_result *r)
{
	size_t i;

	printf("tracks:    %-5s %-4s %-11s %9s %9s %7s %6s %5s  %s\n", "track", "sess",
	       "mode", "first", "sectors", "pregap", "bad", "edc", "file");
	for (i = 0; i < r->n_tracks; i++) {
		const struct cdt_raw_track *t = &r->tracks[i];
		const char *m = t->mode == CDT_TRACK_AUDIO ? "audio" :
				cdt_sector_mode_name(t->sector_mode);

		printf("           %5u %4u %-11s %9" PRIu64 " %9" PRIu64 " %7" PRIu64 " %6" PRIu64
		       " %5" PRIu64 "  %s\n", t->number, t->session, *m ? m : "data", t->first_lba,
		       t->sectors, t->pregap, t->bad_sectors, t->edc_errors, t->file);
	}
}

static void print_text(const char *addr, const char *out, const struct cdt_raw_opts *ro,
		       const struct cdt_raw_result *r, bool virt, const struct cdt_layout *l)
{
	rui_print_summary(addr, &r->sum, virt);
	printf("sheet:     %s, %zu track file%s, %" PRIu64 " sectors of 2352 bytes\n", out,
	       r->n_tracks, r->n_tracks == 1 ? "" : "s", r->stream_sectors);
	print_tracks(r);
	cli_print_qmarks(l);	/* how the pregaps were found, or that Q was not there */
	cli_cd_text_print(r->cd_text);
	if (r->sub_file)
		printf("subchannel: %s, Q CRC errors %" PRIu64 ", %" PRIu64 " records zeros (not read)\n",
		       r->sub_file, sub_total(r->q_crc_errors, r->n_tracks),
		       sub_total(r->sub_zeroed, r->n_tracks));
	if (r->resumed)
		printf("resumed:   %" PRIu64 " sectors were already finished\n", r->finished_before);
	printf("audio:     %s; %s\n", r->audio_checked ? "checked with C2 error pointers" :
	       "not checked: the drive gives no C2 error pointers",
	       ro->offset_set ? "offset-corrected (--offset)" : "not offset-corrected (no --offset)");
	if (r->sum.bad_blocks)
		rui_print_ranges("bad LBAs:", r->sum.bad, r->sum.n_bad);
	printf("map:       %s\n", ro->map_path ? ro->map_path : "none (no --map)");
	printf("verdict:   %s\n", verdict(r));
}

/* Audio that cannot be checked is said once, before the run. */
static void warn_unchecked(const struct cdt_raw_result *r)
{
	size_t i;

	for (i = 0; i < r->n_tracks; i++)
		if (r->tracks[i].mode == CDT_TRACK_AUDIO && !r->audio_checked) {
			cli_err("note: this drive gives no C2 error pointers: audio sectors cannot be checked, only data sectors' EDC/ECC");
			return;
		}
}

static int failed(struct rui *ui, struct cdt_dev *dev, const char *addr, const char *out,
		  struct cdt_raw_opts *ro, struct cdt_raw_result *res, int err)
{
	int rc = rui_fail(ui, dev, "image", err);

	if (err == CDT_EINTR && ui->co.json)
		print_json(addr, out, ro, res, cdt_is_virtual_time(dev), true, NULL);
	if (res->removed)
		cli_err("nothing was read: what this run made is removed");
	else if (res->map_saved)	/* the library says so (issue 31) */
		cli_err("the map %s is saved: run the same command again to resume", ro->map_path);
	return rc;
}

/*
 * The record of a run that left its files (one that removed them, or
 * never made them, leaves none); 3 when it could not be written.
 */
static int write_log(struct acqlog *log, struct cdt_dev *dev, const char *addr, const char *out,
		     const struct cdt_raw_opts *ro, const struct cdt_raw_result *res, int err,
		     int status)
{
	struct acqlog_run run = {
		.addr = addr, .out = out, .map_path = ro->map_path, .rd = &ro->rd,
		.sum = &res->sum, .raw = res, .status = status,
	};

	if (res->removed || status == EX_USAGE_ERR || !res->sum.probe)
		return status;
	return acqlog_finish(log, dev, &run, err, verdict(res));
}

int image_raw_run(struct rui *ui, struct cdt_dev *dev, const char *addr,
		  const char *out, struct cdt_raw_opts *ro, struct acqlog *log)
{
	struct cdt_raw_result res = CDT_INIT(res);
	struct cdt_layout *l;
	int rc, err;

	ro->rd = ui->rd;
	acqlog_watch(log, &ro->rd);
	err = rc = cdt_image_raw(dev, out, ro, &res);
	l = rc ? NULL : cdt_dev_layout(dev);	/* the run's: its pregaps, its marks */
	if (rc) {
		rc = failed(ui, dev, addr, out, ro, &res, rc);
	} else {
		rui_end_line(ui);
		if (!ui->co.json)
			warn_unchecked(&res);
		if (ui->co.json)
			print_json(addr, out, ro, &res, cdt_is_virtual_time(dev), false, l);
		else if (ui->co.quiet)
			printf("verdict:   %s\n", verdict(&res));
		else
			print_text(addr, out, ro, &res, cdt_is_virtual_time(dev), l);
		rc = rui_window_status(&res.sum, ro->rd.max_extra,
				       res.sum.bad_blocks ? EX_UNREADABLE : EX_SAME);
	}
	rc = write_log(log, dev, addr, out, ro, &res, err, rc);
	cdt_raw_result_free(&res);
	cdt_layout_free(l);
	return rc;
}
