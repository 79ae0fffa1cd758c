/* SPDX-License-Identifier: MIT */
/*
 * One line of a checksum file, in every form sha256sum and md5sum write
 * and read (GNU coreutils, "Digest functions" in its manual; the BSD
 * tag form is also what FreeBSD's sha256(1), Fedora's and openSUSE's
 * CHECKSUM files and OpenSSL's dgst write):
 *
 *   HEX  NAME            text mode (two spaces)
 *   HEX *NAME            -b, binary mode
 *   HEX NAME             one space (FreeBSD sha256 -r)
 *   ALGO (NAME) = HEX    --tag (OpenSSL: "ALGO(NAME)= HEX")
 *   \...                 a line whose NAME holds "\\", "\n" or "\r" escapes
 *   # ..., blank         nothing
 *
 * Pure: the line's bytes in, its parts out; no length in the line is
 * trusted.  The parts are the caller's to judge (the digest's length,
 * the algorithm's name).
 */
#ifndef CDT_SUMFILE_H
#define CDT_SUMFILE_H

#include <stdbool.h>
#include <stddef.h>

#define SUM_HEX_MAX 128		/* SHA-512's 128 digits, the longest sum */
#define SUM_NAME_MAX 4096
#define SUM_ALGO_MAX 16

struct sum_line {
	char algo[SUM_ALGO_MAX];	/* --tag's "SHA256", "MD5"; "" otherwise */
	char hex[SUM_HEX_MAX + 1];	/* lower-case */
	char name[SUM_NAME_MAX];	/* unescaped */
	bool binary;			/* "HEX *NAME" */
};

enum sum_kind {
	SUM_ENTRY,	/* a digest and a name: out filled */
	SUM_NONE,	/* a blank line or a comment */
	SUM_OTHER,	/* anything else (a PGP armour line, a size note) */
};

/* line: len bytes, with or without its "\n" or "\r\n". */
enum sum_kind sum_parse_line(const char *line, size_t len, struct sum_line *out);

/* true when algo (a --tag line's) names the digest of digits hex digits */
bool sum_algo_is(const char *algo, size_t digits);

#endif
