// SPDX-License-Identifier: MIT
/*
 * A checksum file's line in every form sha256sum and md5sum write (see
 * sumfile.h).  The forms as GNU coreutils documents them (its manual,
 * "md5sum invocation": the two-space and " *" forms, --tag's BSD form,
 * and a leading backslash marking a name with "\\", "\n" or "\r"
 * escaped); FreeBSD's sha256 -r prints "HEX NAME" with one space, and
 * OpenSSL's dgst "ALGO(NAME)= HEX".
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "sumfile.h"

static bool is_hex(char c)
{
	return isxdigit((unsigned char)c);
}

/* Copy n bytes of hex into out, lower-cased; false when too long. */
static bool take_hex(const char *s, size_t n, struct sum_line *out)
{
	size_t i;

	if (!n || n > SUM_HEX_MAX)
		return false;
	for (i = 0; i < n; i++)
		out->hex[i] = (char)tolower((unsigned char)s[i]);
	out->hex[n] = '\0';
	return true;
}

/*
 * The name of n bytes, unescaped when the line began with a backslash;
 * false for an empty or over-long name, or an escape coreutils never
 * writes.
 */
static bool take_name(const char *s, size_t n, bool escaped, struct sum_line *out)
{
	size_t i, o = 0;

	if (!n)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (escaped && c == '\\') {
			if (++i == n)
				return false;
			c = s[i] == '\\' ? '\\' : s[i] == 'n' ? '\n' : s[i] == 'r' ? '\r' : 0;
			if (!c)
				return false;
		}
		if (o + 1 >= sizeof(out->name))
			return false;
		out->name[o++] = c;
	}
	out->name[o] = '\0';
	return true;
}

/* "HEX  NAME", "HEX *NAME", "HEX NAME" */
static bool parse_gnu(const char *s, size_t len, bool escaped, struct sum_line *out)
{
	size_t h = 0;

	while (h < len && is_hex(s[h]))
		h++;
	if (h == len || s[h] != ' ' || !take_hex(s, h, out))
		return false;
	h++;
	out->binary = false;
	if (h < len && (s[h] == ' ' || s[h] == '*')) {
		out->binary = s[h] == '*';
		h++;
	}
	out->algo[0] = '\0';
	return take_name(s + h, len - h, escaped, out);
}

/* "ALGO (NAME) = HEX", "ALGO(NAME)= HEX": the name may hold ") = " */
static bool parse_tag(const char *s, size_t len, bool escaped, struct sum_line *out)
{
	size_t a = 0, open, h = len, close;

	while (a < len && (isalnum((unsigned char)s[a]) || s[a] == '-'))
		a++;
	if (!a || a >= sizeof(out->algo))
		return false;
	open = a < len && s[a] == ' ' ? a + 1 : a;
	if (open >= len || s[open] != '(')
		return false;
	while (h > 0 && is_hex(s[h - 1]))
		h--;
	/* ") = HEX" or ")= HEX": h - 1 is the space, h - 2 the '=' */
	if (h < 4 || s[h - 1] != ' ' || s[h - 2] != '=')
		return false;
	close = s[h - 3] == ' ' ? h - 4 : h - 3;
	if (close <= open || s[close] != ')' || !take_hex(s + h, len - h, out))
		return false;
	memcpy(out->algo, s, a);
	out->algo[a] = '\0';
	out->binary = false;
	return take_name(s + open + 1, close - open - 1, escaped, out);
}

enum sum_kind sum_parse_line(const char *line, size_t len, struct sum_line *out)
{
	bool escaped;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	while (len && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	if (!len || *line == '#')
		return SUM_NONE;
	escaped = *line == '\\';
	if (escaped) {
		line++;
		len--;
	}
	if (memchr(line, '\0', len))
		return SUM_OTHER;
	if (parse_gnu(line, len, escaped, out) || parse_tag(line, len, escaped, out))
		return SUM_ENTRY;
	return SUM_OTHER;
}

bool sum_algo_is(const char *algo, size_t digits)
{
	if (digits == 64)
		return !strcasecmp(algo, "SHA256") || !strcasecmp(algo, "SHA2-256");
	if (digits == 32)
		return !strcasecmp(algo, "MD5");
	return false;
}
