// SPDX-License-Identifier: MIT
/*
 * CD-TEXT as probe and image --raw report it: the library's blocks
 * (cdt_read_cd_text) in JSON and as text lines, each field under the
 * lower-case name of its CUE word.  The text is the library's UTF-8,
 * with its \xNN escapes, never changed here.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "cdtextout.h"

static json_object *fields_json(json_object *o, const struct cdt_text_block *b, unsigned int n)
{
	char key[16];
	unsigned int f, i;

	for (f = 0; f < CDT_TEXT_FIELDS; f++) {
		const char *name = cdt_text_field_name(f);

		if (!b->text[n][f])
			continue;
		for (i = 0; name[i] && i + 1 < sizeof(key); i++)
			key[i] = (char)tolower((unsigned char)name[i]);
		key[i] = '\0';
		json_object_object_add(o, key, json_object_new_string(b->text[n][f]));
	}
	return o;
}

static bool track_has_text(const struct cdt_text_block *b, unsigned int n)
{
	for (unsigned int f = 0; f < CDT_TEXT_FIELDS; f++)
		if (b->text[n][f])
			return true;
	return false;
}

static json_object *block_json(const struct cdt_text_block *b)
{
	json_object *o = json_object_new_object(), *tracks = json_object_new_array();
	const char *lang = cdt_text_language_name(b->language);
	const char *cs = cdt_text_charset_name(b->charset);
	unsigned int n;

	json_object_object_add(o, "block", json_object_new_int((int)b->number));
	json_object_object_add(o, "language", json_object_new_int((int)b->language));
	json_object_object_add(o, "language_name", lang ? json_object_new_string(lang) : NULL);
	json_object_object_add(o, "charset", cs ? json_object_new_string(cs) : NULL);
	json_object_object_add(o, "charset_code", json_object_new_int((int)b->charset));
	json_object_object_add(o, "disc", fields_json(json_object_new_object(), b, 0));
	for (n = 1; n <= CDT_TEXT_TRACKS; n++) {
		json_object *t;

		if (!track_has_text(b, n))
			continue;
		t = json_object_new_object();
		json_object_object_add(t, "number", json_object_new_int((int)n));
		json_object_array_add(tracks, fields_json(t, b, n));
	}
	json_object_object_add(o, "tracks", tracks);
	return o;
}

json_object *cli_cd_text_json(const struct cdt_cd_text *t)
{
	json_object *o, *blocks;
	size_t i;

	if (!t || !t->n_blocks)
		return NULL;
	o = json_object_new_object();
	blocks = json_object_new_array();
	json_object_object_add(o, "packs", json_object_new_int((int)t->packs));
	json_object_object_add(o, "bad_crc", json_object_new_int((int)t->bad_crc));
	for (i = 0; i < t->n_blocks; i++)
		json_object_array_add(blocks, block_json(&t->blocks[i]));
	json_object_object_add(o, "blocks", blocks);
	return o;
}

static void print_fields(const struct cdt_text_block *b, unsigned int n)
{
	char where[16];

	if (n)
		snprintf(where, sizeof(where), "track %u", n);
	else
		snprintf(where, sizeof(where), "disc");
	for (unsigned int f = 0; f < CDT_TEXT_FIELDS; f++)
		if (b->text[n][f])
			printf("    %-9s %-10s \"%s\"\n", where, cdt_text_field_name(f),
			       b->text[n][f]);
}

void cli_cd_text_print(const struct cdt_cd_text *t)
{
	size_t i;

	if (!t || !t->n_blocks)
		return;
	printf("cd-text:   %zu block%s, %u packs", t->n_blocks, t->n_blocks == 1 ? "" : "s",
	       t->packs);
	if (t->bad_crc)
		printf(", %u dropped for a wrong CRC", t->bad_crc);
	printf("\n");
	for (i = 0; i < t->n_blocks; i++) {
		const struct cdt_text_block *b = &t->blocks[i];
		const char *lang = cdt_text_language_name(b->language);
		const char *cs = cdt_text_charset_name(b->charset);

		printf("  block %u: language %s (%u), %s\n", b->number, lang ? lang : "unknown",
		       b->language, cs ? cs : "unknown character code");
		for (unsigned int n = 0; n <= CDT_TEXT_TRACKS; n++)
			print_fields(b, n);
	}
}
