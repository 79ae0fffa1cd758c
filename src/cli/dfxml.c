// SPDX-License-Identifier: MIT
/*
 * --dfxml FILE: the acquisition record (acqlog.c's entry) as Digital
 * Forensics XML, the form fiwalk and the BitCurator tools read and write.
 *
 * Element names, order and attributes follow the DFXML schema
 * (github.com/dfxml-working-group/dfxml_schema, dfxml.xsd, commit
 * a80a861): <dfxml version> holds <metadata> (Dublin Core), <creator>
 * (<program>, <version>, <build_environment> with <compiler> and
 * <library name version>, <execution_environment> with os_sysname,
 * os_release, os_version, host, arch, command_line, uid, username,
 * start_time), <source> (<image_filename>: the input, here the device),
 * and a <diskimageobject> whose <byte_runs> hold one <byte_run
 * file_offset len> per digested run of OUT (the image, each track) with
 * its <hashdigest type="md5|sha1|sha256">, and the bad areas as byte runs
 * with fill="0" (OUT holds zeros there); then <sector_size> and <error>.
 * A raw run's byte runs lie in its track files: each names its file
 * (cdtail:file) and its offset is within it.
 * What the schema has no element for (drive, medium, case fields, the
 * verdict) goes, whole, in the cdtail namespace as the schema allows
 * (xs:any namespace="##other" first in diskimageobject, anyAttribute on
 * byte_run).  The files of image, image --raw, tail, verify and of an
 * interrupted image validate with xmllint --schema dfxml.xsd (its ref/
 * dc.xsd and xml.xsd beside it), checked by hand on 2026-12-07; the
 * tests parse them with python's XML parser against the element names.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <openssl/opensslv.h>
#include "dfxml.h"

#define DFXML_NS "http://www.forensicswiki.org/wiki/Category:Digital_Forensics_XML"
#define CDTAIL_NS "urn:cdtail:acquisition"

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '&')
			fputs("&amp;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c < 0x20 && c != '\t' && c != '\n')
			fputc('?', f);	/* not allowed in XML 1.0 */
		else
			fputc(c, f);
	}
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v ? json_object_get_string(v) : NULL;
}

/* <name>text</name> at depth, only when there is a text. */
static void elem(FILE *f, int depth, const char *name, const char *text)
{
	if (!text)
		return;
	fprintf(f, "%*s<%s>", 2 * depth, "", name);
	esc(f, text);
	fprintf(f, "</%s>\n", name);
}

static void metadata(FILE *f, json_object *o)
{
	fputs("  <metadata>\n    <dc:type>Disk Image</dc:type>\n", f);
	elem(f, 2, "dc:identifier", str(o, "evidence_number"));
	elem(f, 2, "dc:creator", str(o, "examiner"));
	elem(f, 2, "dc:description", str(o, "description"));
	fputs("  </metadata>\n", f);
}

static void creator(FILE *f, json_object *o)
{
	json_object *host = get(o, "host"), *user = get(o, "user");

	fputs("  <creator>\n    <program>cdtail</program>\n", f);
	elem(f, 2, "version", CDT_VERSION);
	fputs("    <build_environment>\n", f);
#ifdef __VERSION__
	elem(f, 3, "compiler", "GCC-compatible " __VERSION__);
#endif
	fprintf(f, "      <library name=\"libcdtail\" version=\"%s\"/>\n", CDT_VERSION);
	fputs("      <library name=\"openssl\" version=\"", f);
	esc(f, OPENSSL_VERSION_TEXT);
	fprintf(f, "\"/>\n      <library name=\"json-c\" version=\"%s\"/>\n", JSON_C_VERSION);
	fputs("    </build_environment>\n    <execution_environment>\n", f);
	elem(f, 3, "os_sysname", str(host, "os"));
	elem(f, 3, "os_release", str(host, "kernel"));
	elem(f, 3, "os_version", str(host, "kernel_version"));
	elem(f, 3, "host", str(host, "name"));
	elem(f, 3, "arch", str(host, "machine"));
	elem(f, 3, "command_line", str(o, "command"));
	elem(f, 3, "uid", str(user, "uid"));
	elem(f, 3, "username", str(user, "name"));
	elem(f, 3, "start_time", str(o, "started"));
	fputs("    </execution_environment>\n", f);
	/* the library as it ran (the one above is the one built against) */
	fputs("    <library name=\"libcdtail\" version=\"", f);
	esc(f, cdt_version());
	fputs("\"/>\n  </creator>\n", f);
}

/* The JSON value v as XML in the cdtail namespace: keys are element names. */
static void record(FILE *f, int depth, const char *name, json_object *v)
{
	if (!v)
		return;
	fprintf(f, "%*s<cdtail:%s>", 2 * depth, "", name);
	if (json_object_is_type(v, json_type_object)) {
		fputc('\n', f);
		json_object_object_foreach(v, k, sub)
			record(f, depth + 1, k, sub);
		fprintf(f, "%*s", 2 * depth, "");
	} else if (json_object_is_type(v, json_type_array)) {
		size_t i, n = json_object_array_length(v);

		fputc('\n', f);
		for (i = 0; i < n; i++)
			record(f, depth + 1, "item", json_object_array_get_idx(v, i));
		fprintf(f, "%*s", 2 * depth, "");
	} else {
		esc(f, json_object_get_string(v));
	}
	fprintf(f, "</cdtail:%s>\n", name);
}

/* The digests of d present as <hashdigest> children. */
static void hashdigests(FILE *f, json_object *d)
{
	static const char *const types[] = { "md5", "sha1", "sha256" };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		const char *h = str(d, types[i]);

		if (h)
			fprintf(f, "        <hashdigest type=\"%s\">%s</hashdigest>\n", types[i], h);
	}
}

/* The rest of a byte run after its opening tag's attributes: its digests, if any. */
static void run_body(FILE *f, json_object *digests)
{
	if (!digests || !json_object_is_type(digests, json_type_object)) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	hashdigests(f, digests);
	fputs("      </byte_run>\n", f);
}

static void byte_run(FILE *f, int64_t off, int64_t len, const char *what, json_object *digests,
		     const char *extra)
{
	fprintf(f, "      <byte_run file_offset=\"%lld\" len=\"%lld\" cdtail:object=\"%s\"%s",
		(long long)off, (long long)len, what, extra ? extra : "");
	run_body(f, digests);
}

static int64_t num(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v ? json_object_get_int64(v) : 0;
}

/*
 * Where raw track k's sectors begin in its file: after the earlier tracks
 * written to the same file (all of them with --single-file; none when
 * each track is a file of its own).
 */
static int64_t raw_file_start(json_object *tracks, size_t k)
{
	const char *file = str(json_object_array_get_idx(tracks, k), "file");
	int64_t at = 0;
	size_t i;

	for (i = 0; file && i < k; i++) {
		json_object *t = json_object_array_get_idx(tracks, i);
		const char *other = str(t, "file");

		if (other && !strcmp(other, file))
			at += num(t, "sectors");
	}
	return at;
}

/* sectors of raw track k from its file's sector at: a run of that file, named. */
static void raw_run(FILE *f, json_object *tracks, size_t k, int64_t at, int64_t sectors,
		    const char *what, json_object *digests, const char *extra)
{
	json_object *t = json_object_array_get_idx(tracks, k);

	fprintf(f, "      <byte_run file_offset=\"%lld\" len=\"%lld\" cdtail:object=\"%s\" "
		"cdtail:track=\"%lld\" cdtail:file=\"", (long long)(at * 2352),
		(long long)(sectors * 2352), what, (long long)num(t, "number"));
	esc(f, str(t, "file"));
	fprintf(f, "\"%s", extra ? extra : "");
	run_body(f, digests);
}

/*
 * A raw run's bad area [start, start + blocks) in the files that hold it:
 * a run in each track it overlaps, at its place in that track's file (a
 * part in no track, a gap between sessions, is in no file).
 */
static void raw_bad(FILE *f, json_object *tracks, int64_t start, int64_t blocks)
{
	size_t k, n = json_object_array_length(tracks);

	for (k = 0; k < n; k++) {
		json_object *t = json_object_array_get_idx(tracks, k);
		int64_t ts = num(t, "start"), te = ts + num(t, "sectors");
		int64_t lo = start > ts ? start : ts, hi = start + blocks < te ? start + blocks : te;

		if (lo < hi)
			raw_run(f, tracks, k, raw_file_start(tracks, k) + lo - ts, hi - lo, "bad-area",
				NULL, " fill=\"0\"");
	}
}

/* The image, its tracks (a raw track is its own file, or a part of one), its bad areas. */
static void byte_runs(FILE *f, json_object *o, int64_t bs)
{
	json_object *tracks = get(o, "tracks"), *bad = get(o, "bad_areas");
	bool raw = get(o, "audio_checked") != NULL;
	int64_t out = get(o, "out_bytes") ? num(o, "out_bytes") : num(o, "image_bytes_after");
	size_t i;
	char extra[64];

	if (tracks && !json_object_is_type(tracks, json_type_array))
		tracks = NULL;
	fputs("    <byte_runs>\n", f);
	if (get(o, "digests_before"))
		byte_run(f, 0, num(o, "image_bytes_before"), "image-before", get(o, "digests_before"),
			 NULL);
	if (!raw)
		byte_run(f, 0, out, "image", get(o, "digests"), NULL);
	for (i = 0; tracks && i < json_object_array_length(tracks); i++) {
		json_object *t = json_object_array_get_idx(tracks, i);

		snprintf(extra, sizeof(extra), " cdtail:track=\"%lld\"", (long long)num(t, "number"));
		if (raw)
			raw_run(f, tracks, i, raw_file_start(tracks, i), num(t, "sectors"),
				"track-file", get(t, "digests"), NULL);
		else
			byte_run(f, num(t, "start") * bs, num(t, "blocks") * bs, "track",
				 get(t, "digests"), extra);
	}
	for (i = 0; bad && i < json_object_array_length(bad); i++) {
		json_object *b = json_object_array_get_idx(bad, i);

		/* OUT holds zeros where a block could not be read */
		if (raw && tracks)
			raw_bad(f, tracks, num(b, "start"), num(b, "blocks"));
		else if (!raw)
			byte_run(f, num(b, "start") * bs, num(b, "blocks") * bs, "bad-area", NULL,
				 " fill=\"0\"");
	}
	fputs("    </byte_runs>\n", f);
}

static void diskimage(FILE *f, json_object *o)
{
	json_object *medium = get(o, "medium");
	int64_t bs = get(o, "audio_checked") ? 2352 : num(medium, "block_size");

	fputs("  <diskimageobject>\n", f);
	record(f, 2, "record", o);
	byte_runs(f, o, bs ? bs : 2048);
	if (bs)
		fprintf(f, "    <sector_size>%lld</sector_size>\n", (long long)bs);
	elem(f, 2, "error", str(o, "error"));
	fputs("  </diskimageobject>\n", f);
}

int dfxml_write(const char *path, json_object *o)
{
	FILE *f = fopen(path, "we");

	if (!f) {
		cli_err("cannot write the DFXML file %s: %s", path, strerror(errno));
		return -1;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fputs("<dfxml xmlns=\"" DFXML_NS "\"\n       xmlns:dc=\"http://purl.org/dc/elements/1.1/\"\n"
	      "       xmlns:cdtail=\"" CDTAIL_NS "\"\n       version=\"1.2.0\">\n", f);
	metadata(f, o);
	creator(f, o);
	fputs("  <source>\n", f);
	elem(f, 2, "image_filename", str(o, "device"));
	fputs("  </source>\n", f);
	diskimage(f, o);
	fputs("</dfxml>\n", f);
	if (ferror(f) | fclose(f)) {
		cli_err("cannot write the DFXML file %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
