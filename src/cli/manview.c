// SPDX-License-Identifier: MIT
/*
 * cdtail help COMMAND where man(1) is missing (a minimal container, a
 * rescue system): the command's page as plain text, formatted here.
 *
 * Only the man(7) requests cdtail's own pages use are understood (.TH,
 * .SH, .SS, .PP, .TP, .TQ, .IP, .RS/.RE, .EX/.EE, .nf/.fi, .in, .br,
 * .sp, the font macros) and the escapes they hold; anything else is left
 * out, never guessed at.  Text is filled to the width, not justified,
 * with man's indents: sections at 7 columns, a tagged paragraph's body 7
 * further, .RS 7 further again.  tests/cli/test_man.sh runs it on every
 * page and holds its lines to 80 columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "manview.h"

#define LINE_MAX_LEN 4096
#define NBSP '\x01'		/* "\ ": a blank that does not break */
#define MAX_RS 8
#define STEP 7			/* man's default indent */

struct view {
	FILE *out;
	unsigned int width;
	char line[LINE_MAX_LEN];	/* the output line being filled */
	size_t len;		/* its length, indent included; 0: empty */
	unsigned int base;	/* the paragraph's left margin */
	unsigned int body;	/* a tagged paragraph's body margin (base, or base + 7) */
	unsigned int rs[MAX_RS][2];	/* .RS: the base and body to go back to */
	int n_rs;
	int nofill;		/* .EX/.nf */
	int shift;		/* .in's offset in nofill text */
	int tag;		/* 1: the next text line is a .TP tag; 2: a .TQ one */
	int glue;		/* \c: the next text joins the last word */
	int blank;		/* a blank line is owed before the next text */
};

/* One escape at s (after the backslash): its text into out, returns bytes used. */
static size_t escape(const char *s, char *out, size_t *n, size_t cap)
{
	static const char *const named[][2] = {
		{ "aq", "'" }, { "dq", "\"" }, { "lq", "\"" }, { "rq", "\"" }, { "oq", "'" },
		{ "cq", "'" }, { "em", "--" }, { "en", "-" }, { "bu", "*" }, { "co", "(C)" },
		{ "mu", "x" }, { ">=", ">=" }, { "<=", "<=" }, { "hy", "-" }, { "ti", "~" },
		{ "ha", "^" }, { "rs", "\\" }, { "->", "->" }, { "<-", "<-" },
	};
	const char *t = "";
	size_t used = 1, i;

	switch (*s) {
	case '-': t = "-"; break;
	case 'e': t = "\\"; break;
	case ' ': t = "\x01"; break;
	case '(':
		if (!s[1] || !s[2])
			return strlen(s);
		for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
			if (!strncmp(s + 1, named[i][0], 2))
				t = named[i][1];
		used = 3;
		break;
	case 'f':
		used = s[1] ? (s[1] == '(' && s[2] && s[3] ? 4 : 2) : 1;
		break;
	case '*':
		used = s[1] == '(' && s[2] && s[3] ? 4 : s[1] ? 2 : 1;
		break;
	case '\0':
		return 0;
	default:		/* \& \| \^ \% \c and the unknown: nothing */
		break;
	}
	for (; *t && *n + 1 < cap; t++)
		out[(*n)++] = *t;
	return used;
}

/* s with its escapes done into out; *glue set when it ends in \c. */
static void inline_text(const char *s, char *out, size_t cap, int *glue)
{
	size_t n = 0;

	*glue = 0;
	while (*s && n + 1 < cap) {
		if (*s != '\\') {
			out[n++] = *s++;
			continue;
		}
		if (s[1] == 'c' && !s[2])
			*glue = 1;
		s++;
		s += escape(s, out, &n, cap);
	}
	out[n] = '\0';
}

static void flush(struct view *v)
{
	size_t i;

	if (!v->len)
		return;
	while (v->len && v->line[v->len - 1] == ' ')
		v->len--;
	for (i = 0; i < v->len; i++)
		fputc(v->line[i] == NBSP ? ' ' : v->line[i], v->out);
	fputc('\n', v->out);
	v->len = 0;
}

static void pad_to(struct view *v, unsigned int col)
{
	while (v->len < col && v->len + 1 < sizeof(v->line))
		v->line[v->len++] = ' ';
}

static void owe_blank(struct view *v)
{
	flush(v);
	v->blank = 1;
}

static void pay_blank(struct view *v)
{
	if (v->blank)
		fputc('\n', v->out);
	v->blank = 0;
}

/* A word of filled text at the body margin, wrapped at the width. */
static void word(struct view *v, const char *w, int joined)
{
	size_t wl = strlen(w);

	if (v->len && !joined && v->len + 1 + wl > v->width)
		flush(v);
	if (!v->len) {
		pay_blank(v);
		pad_to(v, v->body);
	} else if (!joined && v->line[v->len - 1] != ' ') {
		v->line[v->len++] = ' ';
	}
	if (v->len + wl + 1 < sizeof(v->line)) {
		memcpy(v->line + v->len, w, wl);
		v->len += wl;
	}
}

static void fill_text(struct view *v, const char *text)
{
	char buf[LINE_MAX_LEN], *p, *save = NULL;
	int joined = v->glue, glue;

	inline_text(text, buf, sizeof(buf), &glue);
	for (p = strtok_r(buf, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
		word(v, p, joined);
		joined = 0;
	}
	v->glue = glue;
}

/* A .TP/.TQ tag: on its own line, or before the body when it fits. */
static void tag_line(struct view *v, const char *text, int more)
{
	char buf[LINE_MAX_LEN];
	int glue;

	inline_text(text, buf, sizeof(buf), &glue);
	flush(v);
	pay_blank(v);
	pad_to(v, v->base);
	if (v->len + strlen(buf) + 1 < sizeof(v->line)) {
		memcpy(v->line + v->len, buf, strlen(buf));
		v->len += strlen(buf);
	}
	if (more || v->len + 1 > v->body)
		flush(v);
	else
		pad_to(v, v->body);
}

static void nofill_text(struct view *v, const char *text)
{
	char buf[LINE_MAX_LEN];
	int col = (int)v->body + v->shift, glue;

	inline_text(text, buf, sizeof(buf), &glue);
	flush(v);
	pay_blank(v);
	fprintf(v->out, "%*s", col > 0 && buf[0] ? col : 0, "");
	for (char *p = buf; *p; p++)
		fputc(*p == NBSP ? ' ' : *p, v->out);
	fputc('\n', v->out);
}

/* The arguments of a request, quotes honoured; joined without blanks for .BR and kin. */
static void macro_args(const char *s, int alternate, char *out, size_t cap)
{
	size_t n = 0;

	while (*s && n + 2 < cap) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (n && !alternate)
			out[n++] = ' ';
		if (*s == '"') {
			for (s++; *s && *s != '"' && n + 1 < cap; s++)
				out[n++] = *s == ' ' ? '\x02' : *s;
			if (*s)
				s++;
		} else {
			/* an escape is part of its word, "\ " too */
			for (; *s && *s != ' ' && *s != '\t' && n + 2 < cap; s++) {
				if (*s == '\\' && s[1])
					out[n++] = *s++;
				out[n++] = *s;
			}
		}
	}
	out[n] = '\0';
}

/* Text, as a tag, a nofill line or filled words, as the state says. */
static void text(struct view *v, const char *s)
{
	if (v->tag) {
		tag_line(v, s, v->tag == 2);
		v->tag = 0;
	} else if (v->nofill) {
		nofill_text(v, s);
	} else if (!*s) {
		owe_blank(v);
	} else {
		fill_text(v, s);
	}
}

/* A quoted argument's blanks stay blanks in the text, but never break it. */
static void quoted_blanks(char *s)
{
	for (; *s; s++)
		if (*s == '\x02')
			*s = NBSP;
}

static void paragraph(struct view *v)
{
	owe_blank(v);
	v->body = v->base;
	v->tag = 0;
}

static void request(struct view *v, const char *name, const char *args)
{
	char buf[LINE_MAX_LEN];
	size_t n;
	int alternate = strlen(name) == 2 && strchr("BIR", name[0]) && strchr("BIR", name[1]);

	if (!strcmp(name, "SH") || !strcmp(name, "SS")) {
		owe_blank(v);
		v->n_rs = 0;
		v->base = v->body = STEP;
		v->nofill = v->shift = v->tag = 0;
		char head[LINE_MAX_LEN];
		int glue;

		macro_args(args, 0, buf, sizeof(buf));
		quoted_blanks(buf);
		inline_text(buf, head, sizeof(head), &glue);
		pay_blank(v);
		fputs(name[1] == 'S' ? "   " : "", v->out);
		for (char *p = head; *p; p++)
			fputc(*p == NBSP ? ' ' : *p, v->out);
		fputc('\n', v->out);
	} else if (!strcmp(name, "PP") || !strcmp(name, "LP") || !strcmp(name, "P")) {
		paragraph(v);
	} else if (!strcmp(name, "TP") || !strcmp(name, "IP") || !strcmp(name, "TQ")) {
		if (name[1] != 'Q')
			owe_blank(v);
		v->body = v->base + STEP;
		v->tag = name[0] == 'T';
		macro_args(args, 0, buf, sizeof(buf));
		if (name[0] == 'I' && *buf) {
			quoted_blanks(buf);
			tag_line(v, buf, 0);
		}
	} else if (!strcmp(name, "RS")) {
		/* man's .RS: the paragraph's margin, not a tag's body, moves on */
		flush(v);
		if (v->n_rs < MAX_RS) {
			v->rs[v->n_rs][0] = v->base;
			v->rs[v->n_rs++][1] = v->body;
		}
		v->base += *args ? (unsigned int)atoi(args) : STEP;
		v->body = v->base;
	} else if (!strcmp(name, "RE")) {
		flush(v);
		if (v->n_rs) {
			v->n_rs--;
			v->base = v->rs[v->n_rs][0];
			v->body = v->rs[v->n_rs][1];
		}
	} else if (!strcmp(name, "EX") || !strcmp(name, "nf")) {
		flush(v);
		v->nofill = 1;
	} else if (!strcmp(name, "EE") || !strcmp(name, "fi")) {
		v->nofill = 0;
	} else if (!strcmp(name, "in")) {
		v->shift = *args ? atoi(args) : 0;
	} else if (!strcmp(name, "br")) {
		flush(v);
	} else if (!strcmp(name, "sp")) {
		owe_blank(v);
	} else if (!strcmp(name, "B") || !strcmp(name, "I") || !strcmp(name, "SM") ||
		   !strcmp(name, "SB") || alternate) {
		macro_args(args, alternate, buf, sizeof(buf));
		quoted_blanks(buf);
		text(v, buf);
	} else if (!strcmp(name, "TH")) {
		char title[LINE_MAX_LEN];
		int glue;

		/* TITLE SECTION ...: "TITLE(SECTION)" as man heads a page */
		macro_args(args, 0, buf, sizeof(buf));
		inline_text(buf, title, sizeof(title), &glue);
		n = strcspn(title, " ");
		fprintf(v->out, "%.*s(%.*s)\n", (int)n, title, (int)strcspn(title + n + !!title[n],
			" \x02"), title + n + !!title[n]);
		v->blank = 1;
	}
	/* anything else (.nh, .ad, .hy, .ne ...) changes nothing in plain text */
}

/* One source line: a request, a comment, or text. */
static void source_line(struct view *v, char *s)
{
	char name[8];
	size_t n;

	s[strcspn(s, "\n")] = '\0';
	if ((s[0] == '.' || s[0] == '\'') && s[1] == '\\' && s[2] == '"')
		return;
	if (s[0] != '.' && s[0] != '\'') {
		text(v, s);
		return;
	}
	s++;
	while (*s == ' ')
		s++;
	n = strcspn(s, " \t");
	snprintf(name, sizeof(name), "%.*s", (int)(n < 7 ? n : 7), s);
	request(v, name, s + n);
}

int manview_render(FILE *in, FILE *out, unsigned int width)
{
	struct view v = { .out = out, .width = width < 40 ? 40 : width, .base = STEP,
			  .body = STEP };
	char line[LINE_MAX_LEN];

	while (fgets(line, sizeof(line), in))
		source_line(&v, line);
	flush(&v);
	return ferror(in) ? -1 : 0;
}
