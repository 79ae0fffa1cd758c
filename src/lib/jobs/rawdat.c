// SPDX-License-Identifier: MIT
/*
 * OUT.dat (rawjob.h): the image as a Logiqx datafile, the XML that ROM
 * managers (clrmamepro, RomVault) load and that redump.org publishes
 * for its discs (the Logiqx "ROM Management Datafile" DTD): a header
 * naming cdtail, one game named after OUT, and a rom entry with size,
 * CRC-32, MD5 and SHA-1 for the sheet and each BIN, as OUT.hash's lines.
 * The sheet's sums are of the file as written, read back; the BINs' are
 * the tracks' (hashed from their files).  Names are escaped for XML.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cd/trackhash.h"
#include "core/device.h"
#include "jobs/rawjob.h"

#define DAT_LINE 8400
#define READ_CHUNK 65536

/* s with XML's five special characters escaped */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*s, f);
		}
}

/* The sums of the file at path, read back whole. */
static int sums_of(const char *path, struct th_sums *s)
{
	struct trackhash h;
	uint8_t *buf = malloc(READ_CHUNK);
	FILE *f = fopen(path, "rb");
	size_t n;
	int rc = buf && f ? trackhash_init(&h) : CDT_EIO;

	while (!rc && (n = fread(buf, 1, READ_CHUNK, f)) > 0)
		rc = trackhash_update(&h, buf, n);
	if (!rc && ferror(f))
		rc = CDT_EIO;
	if (!rc)
		rc = trackhash_final(&h, s);
	if (buf && f)
		trackhash_free(&h);
	if (f)
		fclose(f);
	free(buf);
	return rc;
}

static void put_rom(FILE *f, const char *path, const struct th_sums *s, char *line)
{
	const char *slash = strrchr(path, '/');

	trackhash_rom_line(line, DAT_LINE, slash ? slash + 1 : path, s);
	fprintf(f, "\t\t%s\n", line);
}

static void put_head(FILE *f, const char *game)
{
	fputs("<?xml version=\"1.0\"?>\n<!DOCTYPE datafile PUBLIC \"-//Logiqx//DTD ROM "
	      "Management Datafile//EN\" \"http://www.logiqx.com/Dats/datafile.dtd\">\n"
	      "<datafile>\n\t<header>\n\t\t<name>", f);
	put_escaped(f, game);
	fputs("</name>\n\t\t<description>", f);
	put_escaped(f, game);
	fprintf(f, "</description>\n\t\t<version>%s</version>\n\t\t<author>cdtail</author>\n"
		"\t</header>\n\t<game name=\"", cdt_version());
	put_escaped(f, game);
	fputs("\">\n\t\t<description>", f);
	put_escaped(f, game);
	fputs("</description>\n", f);
}

int raw_write_dat(struct raw_job *j, const char *base)
{
	char *path = malloc(strlen(base) + 8), *line = malloc(DAT_LINE), *game = strdup(base);
	struct th_sums s;
	FILE *f = NULL;
	size_t i;
	int rc = path && line && game ? 0 : CDT_ENOMEM;

	if (!rc) {
		sprintf(path, "%s.dat", base);
		rc = sums_of(j->cue_path, &s);
		if (rc)
			cdt_dev_seterr(j->dev, "cannot read %s back: %s", j->cue_path,
				       strerror(errno));
	}
	if (!rc && !(f = fopen(path, "w"))) {
		cdt_dev_seterr(j->dev, "cannot write %s: %s", path, strerror(errno));
		rc = CDT_EIO;
	}
	if (!rc) {
		put_head(f, basename(game));
		put_rom(f, j->cue_path, &s, line);
	}
	for (i = 0; !rc && i < j->plan.n; i++) {
		const struct cdt_raw_track *t = &j->res->tracks[i];
		struct th_sums b = { .size = j->plan.f[i].n * 2352, .crc32 = t->crc32 };

		memcpy(b.md5, t->md5, sizeof(b.md5));
		memcpy(b.sha1, t->sha1, sizeof(b.sha1));
		put_rom(f, j->paths[i], &b, line);
	}
	if (!rc)
		fputs("\t</game>\n</datafile>\n", f);
	if (f && (ferror(f) | fclose(f)) && !rc) {
		cdt_dev_seterr(j->dev, "cannot write %s: %s", path, strerror(errno));
		rc = CDT_EIO;
	}
	free(path);
	free(line);
	free(game);
	return rc;
}
