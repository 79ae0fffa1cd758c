// SPDX-License-Identifier: MIT
/*
 * The acquisition log and a map's identity, read back (acqread.h).  The
 * text form is turned back into the JSON object acqlog.c printed it from
 * (its text_value: "key: value" at two spaces a level, "key:" before an
 * object's keys or an array's "- k=v k=v" lines, "none" for null or an
 * empty array), so both forms are read by one extraction.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "acqread.h"

#define MAX_DEPTH 8
#define MAX_LOG (64u << 20)	/* a log of a million runs is not a log */
/* book/identity.c's words, which its records parser reads back the same */
#define ID_HEAD "# cdtail identity: "
#define ID_BLOCK "# cdtail identity block "

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* digits only, no sign, no overflow */
static bool take_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!n || n > 20)
		return false;
	for (i = 0; i < n; i++) {
		unsigned int d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

static size_t key_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && key_char(s[i]))
		i++;
	return i;
}

/* "none" is how the text form says null */
static json_object *text_scalar(const char *s, size_t n)
{
	if (n == 4 && !memcmp(s, "none", 4))
		return NULL;
	return json_object_new_string_len(s, (int)n);
}

/*
 * One "- ..." line: "k=v k=v" pairs as an object (a word without "=" goes
 * on with the value before it: a reason may hold blanks), else a string.
 */
static json_object *text_element(const char *s, size_t n)
{
	json_object *o = NULL;
	char key[64] = "";
	size_t i = 0, vstart = 0;

	while (i <= n) {
		size_t w = i, k;

		while (i < n && s[i] != ' ')
			i++;
		k = key_len(s + w, i - w);
		if (k && k < sizeof(key) && w + k < i && s[w + k] == '=') {
			if (o && key[0])
				json_object_object_add(o, key, text_scalar(s + vstart, w - 1 - vstart));
			if (!o)
				o = json_object_new_object();
			memcpy(key, s + w, k);
			key[k] = '\0';
			vstart = w + k + 1;
		}
		i++;
	}
	if (!o)
		return json_object_new_string_len(s, (int)n);
	json_object_object_add(o, key, text_scalar(s + vstart, n - vstart));
	return o;
}

struct text_state {
	json_object *obj[MAX_DEPTH + 1];	/* the object taking keys at each depth */
	int top;				/* the deepest open object */
	json_object *arr;			/* the array taking "- " lines at arr_depth */
	int arr_depth;
	json_object *last;			/* the last scalar: a line that is no key goes on with it */
	json_object *pending_in;		/* "key:" with nothing after: what follows decides */
	char pending_key[64];
	int pending_depth;
};

/* A "key:" with nothing after it, given what the next line at depth d is. */
static int settle_pending(struct text_state *st, int d, bool dash)
{
	json_object *c;

	if (!st->pending_in)
		return 0;
	if (d > st->pending_depth + 1)
		return -1;
	if (d <= st->pending_depth) {
		c = json_object_new_object();	/* an object without keys */
	} else if (dash) {
		c = json_object_new_array();
		st->arr = c;
		st->arr_depth = d;
	} else {
		if (d > MAX_DEPTH)
			return -1;
		c = json_object_new_object();
		st->obj[d] = c;
		st->top = d;
	}
	json_object_object_add(st->pending_in, st->pending_key, c);
	st->pending_in = NULL;
	return 0;
}

/*
 * A line that is neither a key nor an element goes on with the scalar
 * before it (acqlog.c writes a value as it is: notes given on several
 * lines stay several lines).  A key inside such a value still reads as a
 * key, and a key twice refuses the entry: it never overrides.
 */
static int go_on(struct text_state *st, const char *s, size_t n)
{
	const char *was;
	char *both;
	size_t w;

	if (!st->last || !json_object_is_type(st->last, json_type_string))
		return -1;
	was = json_object_get_string(st->last);
	w = (size_t)json_object_get_string_len(st->last);
	both = malloc(w + 1 + n + 1);
	if (!both)
		return -1;
	memcpy(both, was, w);
	both[w] = '\n';
	memcpy(both + w + 1, s, n);
	both[w + 1 + n] = '\0';
	json_object_set_string_len(st->last, both, (int)(w + 1 + n));
	free(both);
	return 0;
}

static int text_line(struct text_state *st, const char *line, size_t len)
{
	const char *s = line;
	size_t sp = 0, k, n = len;
	json_object *in;
	char key[64];
	bool dash;
	int d;

	while (sp < n && s[sp] == ' ')
		sp++;
	if (sp == n)
		return 0;
	if (sp % 2)
		return go_on(st, line, len);
	d = (int)(sp / 2);
	s += sp;
	n -= sp;
	dash = n >= 2 && s[0] == '-' && s[1] == ' ';
	if (settle_pending(st, d, dash))
		return -1;
	if (dash && st->arr && d == st->arr_depth) {
		st->last = NULL;
		json_object_array_add(st->arr, text_element(s + 2, n - 2));
		return 0;
	}
	k = key_len(s, n);
	if (d > st->top || !k || k >= sizeof(key) || k >= n || s[k] != ':' ||
	    (k + 1 < n && s[k + 1] != ' '))
		return go_on(st, line, len);
	st->arr = NULL;
	st->top = d;
	in = st->obj[d];
	memcpy(key, s, k);
	key[k] = '\0';
	if (json_object_object_get_ex(in, key, NULL))
		return -2;	/* one key twice: which would be the record? */
	if (k + 1 == n) {
		st->last = NULL;
		st->pending_in = in;
		memcpy(st->pending_key, key, k + 1);
		st->pending_depth = d;
		return 0;
	}
	st->last = text_scalar(s + k + 2, n - k - 2);
	json_object_object_add(in, key, st->last);
	return 0;
}

/* The lines of one text entry, [p, end), after its "====" line. */
static json_object *text_entry(const char *p, const char *end, char *err, size_t errlen)
{
	struct text_state st = { .top = 0 };
	unsigned int line = 1;
	json_object *root = json_object_new_object();
	int rc = 0;

	st.obj[0] = root;
	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		line++;
		if (memchr(p, '\0', n))
			rc = -1;
		else
			rc = text_line(&st, p, n);
		p += n + (nl ? 1 : 0);
	}
	if (!rc)
		rc = settle_pending(&st, 0, false);
	if (!rc)
		return root;
	json_object_put(root);
	if (rc == -2)
		fail(err, errlen, "the last entry says a key twice (its line %u)", line);
	else
		fail(err, errlen, "the last entry's line %u is not \"key: value\"", line);
	return NULL;
}

/* The start of the last line of [buf, end) that begins with prefix, or NULL. */
static const char *last_line_with(const char *buf, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = end;

	while (p > buf) {
		const char *q = p - 1;

		while (q > buf && q[-1] != '\n')
			q--;
		if ((size_t)(p - q) >= n && !memcmp(q, prefix, n))
			return q;
		p = q;
	}
	return NULL;
}

/* The JSON line at q, up to end. */
static json_object *json_entry(const char *q, const char *end, char *err, size_t errlen)
{
	const char *nl = memchr(q, '\n', (size_t)(end - q));
	struct json_tokener *tok;
	json_object *o;

	tok = json_tokener_new();
	if (!tok) {
		fail(err, errlen, "out of memory");
		return NULL;
	}
	o = json_tokener_parse_ex(tok, q, (int)((nl ? nl : end) - q));
	if (o && (json_tokener_get_error(tok) != json_tokener_success ||
		  !json_object_is_type(o, json_type_object))) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	if (!o)
		fail(err, errlen, "its last entry is not a JSON object");
	return o;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* A scalar's text; an object or array is not a value here. */
static void take_str(json_object *o, const char *key, char *dst, size_t n)
{
	json_object *v = get(o, key);
	const char *s;

	if (!v || json_object_is_type(v, json_type_object) || json_object_is_type(v, json_type_array))
		return;
	s = json_object_get_string(v);
	if (s)
		snprintf(dst, n, "%s", s);
}

static bool take_count(json_object *o, const char *key, uint64_t *out)
{
	char s[32] = "";

	take_str(o, key, s, sizeof(s));
	return take_u64(s, strlen(s), out);
}

static bool is_hex(const char *s, size_t want)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == want;
}

static int take_digests(json_object *o, struct acq_record *r, char *err, size_t errlen)
{
	json_object *d = get(o, "digests");
	const char *keys[] = { "md5", "sha1", "sha256" };
	char *dst[] = { r->md5, r->sha1, r->sha256 };
	size_t lens[] = { 32, 40, 64 }, i;
	char asked[16] = "";

	if (json_object_object_get_ex(o, "digests", NULL) && !d)
		r->digests_none = true;		/* the text form's "digests: none" */
	if (d && json_object_is_type(d, json_type_string))
		r->digests_none = !strcmp(json_object_get_string(d), "none");
	take_str(o, "digests_asked", asked, sizeof(asked));
	if (!strcmp(asked, "none"))
		r->digests_none = true;		/* the run was asked for none */
	for (i = 0; i < 3; i++) {
		char v[80] = "";

		take_str(d, keys[i], v, sizeof(v));
		if (!v[0])
			continue;
		if (!is_hex(v, lens[i]))
			return fail(err, errlen, "its digests.%s is not %u lowercase hex digits",
				    keys[i], (unsigned int)lens[i]);
		memcpy(dst[i], v, lens[i] + 1);
	}
	if (d && !r->md5[0] && !r->sha1[0] && !r->sha256[0])
		r->digests_none = true;		/* every digest null: none computed */
	return 0;
}

/* medium.sizes as "key=value" words, in the log's order. */
static void take_sizes(json_object *sizes, char *dst, size_t n)
{
	size_t used = 0;

	if (!sizes || !json_object_is_type(sizes, json_type_object))
		return;
	json_object_object_foreach(sizes, k, v) {
		if (used >= n)
			break;
		used += (size_t)snprintf(dst + used, n - used, "%s%s=%s", used ? " " : "", k,
					 v ? json_object_get_string(v) : "none");
	}
}

static void take_tracks(json_object *a, struct acq_record *r)
{
	size_t i, n;

	if (!a || !json_object_is_type(a, json_type_array))
		return;
	n = json_object_array_length(a);
	for (i = 0; i < n && r->n_tracks < ACQ_MAX_TRACKS; i++) {
		json_object *t = json_object_array_get_idx(a, i);
		struct acq_track *k = &r->tracks[r->n_tracks];
		uint64_t num, ses;

		if (take_count(t, "number", &num) && take_count(t, "session", &ses) &&
		    take_count(t, "start", &k->start) && take_count(t, "blocks", &k->blocks) &&
		    num <= 99 && ses <= 99) {
			k->number = (unsigned int)num;
			k->session = (unsigned int)ses;
			r->n_tracks++;
		}
	}
}

/* The bad areas the run recorded ({start, blocks}), for an image without its map. */
static int take_bad(json_object *a, struct acq_record *r)
{
	size_t i, n;

	if (!a || !json_object_is_type(a, json_type_array))
		return 0;
	n = json_object_array_length(a);
	if (!n)
		return 0;
	r->bad = calloc(n, sizeof(*r->bad));
	if (!r->bad)
		return -1;
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct acq_area *b = &r->bad[r->n_bad];

		if (take_count(e, "start", &b->start) && take_count(e, "blocks", &b->blocks) &&
		    b->blocks && b->start <= UINT64_MAX - b->blocks)
			r->n_bad++;
		else
			r->bad_unread = true;
	}
	return 0;
}

/* The case fields at the entry's top, or in a "case" object (the record's choice). */
static void take_case(json_object *o, struct acq_record *r)
{
	json_object *c = get(o, "case");
	json_object *in[] = { o, c };
	size_t i;

	for (i = 0; i < 2; i++) {
		take_str(in[i], "case_number", r->case_number, sizeof(r->case_number));
		take_str(in[i], "evidence_number", r->evidence_number, sizeof(r->evidence_number));
		take_str(in[i], "examiner", r->examiner, sizeof(r->examiner));
		take_str(in[i], "description", r->description, sizeof(r->description));
		take_str(in[i], "notes", r->notes, sizeof(r->notes));
	}
}

static int take_record(json_object *o, struct acq_record *r, char *err, size_t errlen)
{
	json_object *drive = get(o, "drive"), *medium = get(o, "medium");
	uint64_t bs = 0;
	char flag[8] = "";

	take_str(o, "run", r->run, sizeof(r->run));
	take_str(o, "interrupted", flag, sizeof(flag));
	r->interrupted = !strcmp(flag, "true");
	take_str(o, "verdict", r->verdict, sizeof(r->verdict));
	take_str(o, "started", r->started, sizeof(r->started));
	take_str(o, "tool", r->tool, sizeof(r->tool));
	take_str(o, "command", r->command, sizeof(r->command));
	take_str(o, "device", r->device, sizeof(r->device));
	take_str(o, "out", r->out, sizeof(r->out));
	take_str(o, "map", r->map, sizeof(r->map));
	take_str(drive, "vendor", r->vendor, sizeof(r->vendor));
	take_str(drive, "product", r->product, sizeof(r->product));
	take_str(drive, "revision", r->revision, sizeof(r->revision));
	take_str(drive, "serial", r->serial, sizeof(r->serial));
	take_str(medium, "profile", r->profile, sizeof(r->profile));
	take_str(medium, "filesystem", r->filesystem, sizeof(r->filesystem));
	take_str(medium, "end", r->end, sizeof(r->end));
	take_sizes(get(medium, "sizes"), r->sizes, sizeof(r->sizes));
	if (take_count(medium, "block_size", &bs) && bs && bs <= 65536)
		r->block_size = (uint32_t)bs;
	r->has_reported = take_count(medium, "reported_blocks", &r->reported_blocks);
	r->has_true = take_count(medium, "true_blocks", &r->true_blocks);
	r->has_extent = take_count(o, "extent_blocks", &r->extent_blocks);
	/* tail's entry gives the copy's size after it, in bytes */
	if (!r->has_extent && take_count(o, "image_bytes_after", &bs) &&
	    !(bs % (r->block_size ? r->block_size : 2048))) {
		r->extent_blocks = bs / (r->block_size ? r->block_size : 2048);
		r->has_extent = true;
	}
	take_count(o, "bad_blocks", &r->bad_blocks);
	take_tracks(get(o, "tracks"), r);
	if (take_bad(get(o, "bad_areas"), r))
		return fail(err, errlen, "out of memory");
	take_case(o, r);
	if (!r->verdict[0])
		return fail(err, errlen, "its last entry has no verdict");
	return take_digests(o, r, err, errlen);
}

/*
 * The entry whose line opens at q, up to stop: a JSON line, or the text
 * lines after a "==== " line.
 */
static json_object *one_entry(bool json, const char *q, const char *stop, char *err, size_t errlen)
{
	const char *nl;

	if (json)
		return json_entry(q, stop, err, errlen);
	nl = memchr(q, '\n', (size_t)(stop - q));
	return text_entry(nl ? nl + 1 : stop, stop, err, errlen);
}

/*
 * A verify run reads the disc and an export run reads the image: neither
 * changes it, so the entry before them is the image's (an image exported
 * twice is checked against its acquisition both times).
 */
static bool made_nothing(json_object *o)
{
	json_object *run = get(o, "run");

	return run && json_object_is_type(run, json_type_string) &&
	       (!strcmp(json_object_get_string(run), "verify") ||
		!strcmp(json_object_get_string(run), "export"));
}

int acq_parse(const char *buf, size_t len, struct acq_record *r, char *err, size_t errlen)
{
	const char *end = buf + len, *p = buf, *q, *stop;
	json_object *o;
	bool json;
	int rc;

	memset(r, 0, sizeof(*r));
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	if (p == end)
		return fail(err, errlen, "it is empty");
	json = *p == '{';
	for (stop = end;; stop = q) {
		q = last_line_with(p, stop, json ? "{" : "==== ");
		if (!q)
			return fail(err, errlen, stop == end ? "no entry in it" :
				    "it holds verify and export runs only, no run that made the image");
		o = one_entry(json, q, stop, err, errlen);
		if (!o)
			return -1;
		if (!made_nothing(o))
			break;
		json_object_put(o);
	}
	rc = take_record(o, r, err, errlen);
	json_object_put(o);
	if (rc)
		acq_free(r);
	return rc;
}

void acq_free(struct acq_record *r)
{
	free(r->bad);
	r->bad = NULL;
	r->n_bad = 0;
}

/* The whole file at path in *buf (NUL after it); -1 with errno. */
static int slurp(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "re");
	size_t cap = 1u << 16, n = 0;
	char *b = NULL, *nb;

	if (!f)
		return -1;
	for (;;) {
		nb = realloc(b, cap + 1);
		if (!nb)
			break;
		b = nb;
		n += fread(b + n, 1, cap - n, f);
		if (n < cap || cap >= MAX_LOG)
			break;
		cap *= 2;
	}
	if (!nb || ferror(f) || n >= MAX_LOG) {
		int e = !nb ? ENOMEM : ferror(f) ? EIO : EFBIG;

		free(b);
		fclose(f);
		errno = e;
		return -1;
	}
	fclose(f);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int acq_read(const char *path, struct acq_record *r, char *err, size_t errlen)
{
	char *buf, why[512];
	size_t len;
	int rc;

	memset(r, 0, sizeof(*r));
	if (slurp(path, &buf, &len)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	rc = acq_parse(buf, len, r, why, sizeof(why));
	free(buf);
	if (rc)
		snprintf(err, errlen, "%s is not an acquisition log cdtail wrote: %s", path, why);
	return rc;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "name=digits" among the words of [s, s + n); false when missing or not a count */
static bool word_count(const char *s, size_t n, const char *name, uint64_t *out)
{
	size_t k = strlen(name), i = 0;

	while (i < n) {
		size_t w = i;

		while (i < n && s[i] != ' ')
			i++;
		if (i - w > k && !memcmp(s + w, name, k))
			return take_u64(s + w + k, i - w - k, out);
		i++;
	}
	return false;
}

static int id_head(const char *s, size_t n, struct acq_identity *id)
{
	uint64_t bs, extent;

	if (id->present || !word_count(s, n, "block_size=", &bs) ||
	    !word_count(s, n, "extent=", &extent) || !bs || bs > 65536 || !extent ||
	    extent > (uint64_t)INT64_MAX / bs)
		return -1;
	id->present = true;
	id->block_size = (uint32_t)bs;
	id->extent = extent;
	return 0;
}

/* "LBA sha256=HEX" */
static int id_block(const char *s, size_t n, struct acq_identity *id)
{
	const char *sp = memchr(s, ' ', n);
	size_t i;

	if (!sp || id->n >= ACQ_ID_MAX || !take_u64(s, (size_t)(sp - s), &id->lba[id->n]) ||
	    (size_t)(s + n - sp) != 1 + 7 + 64 || memcmp(sp + 1, "sha256=", 7))
		return -1;
	for (i = 0; i < 32; i++) {
		int hi = hex_digit(sp[8 + 2 * i]), lo = hex_digit(sp[9 + 2 * i]);

		if (hi < 0 || lo < 0)
			return -1;
		id->sha256[id->n][i] = (uint8_t)(hi << 4 | lo);
	}
	id->n++;
	return 0;
}

int acq_identity_parse(const char *buf, size_t len, struct acq_identity *id,
		       char *err, size_t errlen)
{
	const char *p = buf, *end = buf + len;
	size_t hl = strlen(ID_HEAD), bl = strlen(ID_BLOCK);
	unsigned int line = 0, i;

	memset(id, 0, sizeof(*id));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		int rc = 0;

		line++;
		if (n > hl && !memcmp(p, ID_HEAD, hl))
			rc = id_head(p + hl, n - hl, id);
		else if (n > bl && !memcmp(p, ID_BLOCK, bl))
			rc = id_block(p + bl, n - bl, id);
		if (rc)
			return fail(err, errlen, "its identity line %u is not one cdtail writes",
				    line);
		p += n + (nl ? 1 : 0);
	}
	if (id->n && !id->present)
		return fail(err, errlen, "it has identity blocks without the identity line");
	for (i = 0; i < id->n; i++)
		if (id->lba[i] >= id->extent)
			return fail(err, errlen, "its identity block %llu lies past its extent",
				    (unsigned long long)id->lba[i]);
	return 0;
}
