// SPDX-License-Identifier: MIT
/*
 * The emulated drive's spec: "IMAGE,key=value,..." into a struct sim_config.
 * Each key has its own small parser; the table says what each wants.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdtail-tools.h"
#include "sim/drive.h"


/* Decimal digits only: no sign, no blanks, no hex, no overflow. */
static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned int d;

		if (*s < '0' || *s > '9')
			return -1;
		d = (unsigned int)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* "A-B" with A <= B; s is not modified. */
static int parse_range(const char *s, size_t len, struct sim_range *r)
{
	char buf[64];
	char *dash;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	dash = strchr(buf, '-');
	if (!dash)
		return -1;
	*dash = '\0';
	if (parse_u64(buf, &r->first) || parse_u64(dash + 1, &r->last))
		return -1;
	return r->first <= r->last ? 0 : -1;
}

/* The index of v among n words, or -1. */
static int pick_word(const char *v, const char *const *words, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v, words[i]))
			return i;
	return -1;
}

static int key_toc(struct sim_config *c, const char *v)
{
	/* in enum sim_toc's order */
	static const char *const words[] = { "reported", "true", "none", "cut" };
	int i = pick_word(v, words, 4);

	if (i < 0)
		return CDT_EUSAGE;
	c->toc = (enum sim_toc)i;
	return 0;
}
static int key_bad(struct sim_config *c, const char *v)
{
	size_t n = 1, i = 0;
	const char *p;

	for (p = v; *p; p++)
		n += *p == ':';
	c->bad = calloc(n, sizeof(*c->bad));
	if (!c->bad)
		return CDT_ENOMEM;
	for (p = v;; i++) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);

		if (parse_range(p, len, &c->bad[i]))
			return CDT_EUSAGE;
		if (!colon)
			break;
		p = colon + 1;
	}
	c->n_bad = n;
	return 0;
}

static int key_flaky(struct sim_config *c, const char *v)
{
	const char *colon = strchr(v, ':');
	uint64_t times;

	if (!colon || parse_range(v, (size_t)(colon - v), &c->flaky))
		return CDT_EUSAGE;
	/* T=0 would be a flaky range that never fails: surely a typo */
	if (parse_u64(colon + 1, &times) || times == 0 || times > UINT32_MAX)
		return CDT_EUSAGE;
	c->flaky_times = (uint32_t)times;
	c->have_flaky = true;
	return 0;
}

static int key_css(struct sim_config *c, const char *v)
{
	if (parse_range(v, strlen(v), &c->css))
		return CDT_EUSAGE;
	c->have_css = true;
	return 0;
}

/* ecc=: a DVD's ECC block (16 sectors), a BD cluster (32) */
static int key_ecc(struct sim_config *c, const char *v)
{
	if (!strcmp(v, "16"))
		c->ecc = 16;
	else if (!strcmp(v, "32"))
		c->ecc = 32;
	else
		return CDT_EUSAGE;
	return 0;
}

static int key_ua(struct sim_config *c, const char *v)
{
	if (parse_u64(v, &c->ua_every) || c->ua_every == 0)
		return CDT_EUSAGE;
	return 0;
}

static int key_hang(struct sim_config *c, const char *v)
{
	if (parse_u64(v, &c->hang_lba))
		return CDT_EUSAGE;
	c->have_hang = true;
	return 0;
}

static int key_block(struct sim_config *c, const char *v)
{
	if (!strcmp(v, "512"))
		c->block_size = 512;
	else if (!strcmp(v, "2048"))
		c->block_size = 2048;
	else
		return CDT_EUSAGE;
	return 0;
}

static int key_cost(struct sim_config *c, const char *v)
{
	const char *slash = strchr(v, '/');
	char ok[32];
	size_t len;

	if (!slash)
		return CDT_EUSAGE;
	len = (size_t)(slash - v);
	if (len >= sizeof(ok))
		return CDT_EUSAGE;
	memcpy(ok, v, len);
	ok[len] = '\0';
	if (parse_u64(ok, &c->ok_us) || parse_u64(slash + 1, &c->fail_ms))
		return CDT_EUSAGE;
	return 0;
}

static int key_info(struct sim_config *c, const char *v)
{
	/* in enum sim_info's order, up to fixed:N */
	static const char *const words[] = { "0", "1", "zero", "start" };
	int i = pick_word(v, words, 4);
	uint64_t n;

	if (i >= 0) {
		c->info = (enum sim_info)i;
		return 0;
	}
	if (strncmp(v, "fixed:", 6) || parse_u64(v + 6, &n) || n > UINT32_MAX)
		return CDT_EUSAGE;
	c->info = SIM_INFO_FIXED;
	c->info_fixed = (uint32_t)n;
	return 0;
}
/* drive=NAME: another drive model, for a disc moved between drives */
static int key_drive(struct sim_config *c, const char *v)
{
	size_t n = strlen(v);

	if (!n || n >= sizeof(c->product))
		return CDT_EUSAGE;
	memcpy(c->product, v, n + 1);
	return 0;
}

/* subchannel=all|q|pw|none: what READ CD gives of the subchannel (issue 33) */
static int key_subchannel(struct sim_config *c, const char *v)
{
	static const char *const words[] = { "all", "q", "pw", "none" };
	int i = pick_word(v, words, 4);

	if (i < 0)
		return CDT_EUSAGE;
	c->no_subq = i == 2 || i == 3;
	c->no_subpw = i == 1 || i == 3;
	return 0;
}

/* qadr=N: every Nth Q frame ADR 2 or 3 where the sheet has an MCN or ISRC */
static int key_qadr(struct sim_config *c, const char *v)
{
	uint64_t n;

	if (parse_u64(v, &n) || n < 2 || n > 1000000)
		return CDT_EUSAGE;
	c->qadr = (uint32_t)n;
	return 0;
}

static int key_trace(struct sim_config *c, const char *v)
{
	if (!*v)
		return CDT_EUSAGE;
	c->trace_path = strdup(v);
	return c->trace_path ? 0 : CDT_ENOMEM;
}

/* maxxfer=BYTES: the queue's limit, from a page to SIM_MAX_TRANSFER */
static int key_maxxfer(struct sim_config *c, const char *v)
{
	uint64_t n;

	if (parse_u64(v, &n) || n < SIM_MIN_TRANSFER || n > SIM_MAX_TRANSFER)
		return CDT_EUSAGE;
	c->maxxfer = (uint32_t)n;
	return 0;
}

/*
 * A key is parsed by its own function, or it is a flag (one of two words:
 * the first clears it, the second sets it) or a count at off in the config.
 */
struct sim_key {
	const char *name;
	int (*parse)(struct sim_config *c, const char *value);
	const char *want;
	size_t off;
	const char *words[2];
};

#define SIM_KEY(key, fn, what) { .name = key, .parse = fn, .want = what }
#define SIM_FLAG(key, field, no, yes)					\
	{ .name = key, .want = no " or " yes,				\
	  .off = offsetof(struct sim_config, field), .words = { no, yes } }
#define SIM_COUNT(key, field)						\
	{ .name = key, .want = "a block count",				\
	  .off = offsetof(struct sim_config, field) }

static const struct sim_key sim_keys[] = {
	SIM_COUNT("hide", hide),
	SIM_COUNT("extra", extra),
	SIM_KEY("toc", key_toc, "reported, true, cut or none"),
	SIM_KEY("bad", key_bad, "A-B[:A-B...] with A <= B"),
	SIM_COUNT("runout", runout),
	SIM_KEY("flaky", key_flaky, "A-B:T with A <= B and T >= 1"),
	SIM_KEY("ua", key_ua, "a command count >= 1"),
	SIM_KEY("hang", key_hang, "an LBA"),
	SIM_KEY("block", key_block, "512 or 2048"),
	SIM_KEY("cost", key_cost, "OK_US/FAIL_MS"),
	SIM_KEY("info", key_info, "0, 1, zero, start or fixed:N"),
	SIM_FLAG("sleep", sleep, "0", "1"),
	SIM_KEY("trace", key_trace, "a file name"),
	SIM_KEY("maxxfer", key_maxxfer, "a byte count from 4096 to 8388608"),
	SIM_KEY("past", sim_key_past, "end, medium, zero, repeat or short"),
	SIM_KEY("fault", sim_key_fault, "KIND@A-B[xT][:KIND@A-B[xT]...] with KIND timeout, hwerr, nosense, aborted, host, short, form2, deferred, gone or eject, A <= B and T >= 1"),
	SIM_KEY("ready", sim_key_ready, "MS or MS@0, milliseconds"),
	SIM_FLAG("notready", notready_mmc, "all", "mmc"),
	SIM_FLAG("reveal", reveal, "0", "1"),
	SIM_FLAG("getconf", getconf_full, "exact", "full"),
	SIM_FLAG("stale", stale, "0", "1"),
	SIM_FLAG("cdb16", cdb16, "0", "1"),
	SIM_FLAG("readcd", readcd_ide, "none", "ide"),
	SIM_FLAG("pregap1", pregap1_refuse, "read", "refuse"),
	SIM_FLAG("readsub", readsub_refuse, "answer", "refuse"),
	SIM_FLAG("cdtext", cdtext_refuse, "answer", "refuse"),
	SIM_KEY("subchannel", key_subchannel, "all, q, pw or none"),
	SIM_KEY("qadr", key_qadr, "a frame count from 2 to 1000000"),
	SIM_KEY("change", sim_key_change, "N[:IMAGE2], a command count >= 1"),
	SIM_KEY("layout", sim_key_layout, "S[/S...], each S data:BLOCKS[~PREGAP] or audio:BLOCKS[~PREGAP] joined by '+'"),
	SIM_KEY("gap", sim_key_gap, "SK/ASC/ASCQ in hex, hang or zero"),
	SIM_FLAG("tao", tao, "0", "1"),
	SIM_FLAG("open", open, "0", "1"),
	SIM_KEY("profile", sim_key_profile, "cd-rom, cd-r, cd-rw, dvd-rom, dvd-r, dvd+r, dvd+rw, dvd-ram, bd-rom, bd-r or bd-re"),
	SIM_KEY("formatted", sim_key_formatted, "a block count >= 1"),
	SIM_FLAG("trackinfo", trackinfo_pregap, "index1", "pregap"),
	SIM_FLAG("cuepaths", cue_any_path, "inside", "any"),
	SIM_KEY("drive", key_drive, "a product name of 1 to 16 characters"),
	SIM_KEY("css", key_css, "A-B with A <= B"),
	SIM_KEY("structure", sim_key_structure, "END[:L0[:otp|ptp|ptp-l0only]], block counts with 0 < L0 < END"),
	SIM_KEY("opencap", sim_key_opencap, "one or lra"),
	SIM_KEY("ecc", key_ecc, "16 or 32"),
};

static int parse_key(const struct sim_key *k, struct sim_config *c, const char *v)
{
	char *field = (char *)c + k->off;

	if (k->parse)
		return k->parse(c, v);
	if (!k->words[0])
		return parse_u64(v, (uint64_t *)field) ? CDT_EUSAGE : 0;
	if (strcmp(v, k->words[0]) && strcmp(v, k->words[1]))
		return CDT_EUSAGE;
	*(bool *)field = !strcmp(v, k->words[1]);
	return 0;
}

#define N_SIM_KEYS (sizeof(sim_keys) / sizeof(sim_keys[0]))

static int unknown_key(const char *key, char *err, size_t errlen)
{
	const char *names[N_SIM_KEYS], *near;
	size_t i;

	for (i = 0; i < N_SIM_KEYS; i++)
		names[i] = sim_keys[i].name;
	near = cdt_nearest_name(key, names, N_SIM_KEYS);
	if (near)
		snprintf(err, errlen, "sim: unknown key '%s' (did you mean '%s'?)", key, near);
	else
		snprintf(err, errlen, "sim: unknown key '%s'", key);
	return CDT_EUSAGE;
}

/* One "key=value" item; item is modified (split at '='). */
static int parse_item(struct sim_config *c, char *item, bool *seen,
		      char *err, size_t errlen)
{
	char *eq = strchr(item, '=');
	const char *value;
	size_t i;
	int rc;

	if (!*item) {
		snprintf(err, errlen, "sim: empty item in the key list (stray ',')");
		return CDT_EUSAGE;
	}
	if (!eq) {
		snprintf(err, errlen, "sim: key '%s' has no value (want key=value; "
			 "a comma in a file name is written \\,)", item);
		return CDT_EUSAGE;
	}
	*eq = '\0';
	value = eq + 1;
	for (i = 0; i < N_SIM_KEYS; i++)
		if (!strcmp(item, sim_keys[i].name))
			break;
	if (i == N_SIM_KEYS)
		return unknown_key(item, err, errlen);
	if (seen[i]) {
		snprintf(err, errlen, "sim: key '%s' given twice", item);
		return CDT_EUSAGE;
	}
	seen[i] = true;
	rc = parse_key(&sim_keys[i], c, value);
	if (rc == CDT_ENOMEM)
		snprintf(err, errlen, "sim: out of memory");
	else if (rc)
		snprintf(err, errlen, "sim: bad value '%s' for key '%s' (want %s)",
			 value, item, sim_keys[i].want);
	return rc;
}

/*
 * End the item that starts at p at its first comma that is not escaped:
 * "\," stands for a comma and "\\" for a backslash (a file name may hold
 * both), any other backslash is itself.  Unescapes the item in place and
 * returns where the next one starts, or NULL after the last.
 */
char *sim_next_item(char *p)
{
	char *out = p;

	for (; *p; p++) {
		if (*p == '\\' && (p[1] == ',' || p[1] == '\\')) {
			*out++ = *++p;
			continue;
		}
		if (*p == ',') {
			*out = '\0';
			return p + 1;
		}
		*out++ = *p;
	}
	*out = '\0';
	return NULL;
}

/* keys points into a writable copy of the spec, after the image name */
int sim_parse_keys(struct sim_config *c, char *keys, char *err, size_t errlen)
{
	bool seen[N_SIM_KEYS] = { false };
	char *item = keys;

	while (item) {
		char *next = sim_next_item(item);
		int rc;

		rc = parse_item(c, item, seen, err, errlen);
		if (rc)
			return rc;
		item = next;
	}
	return 0;
}

/* A fault that names only blocks past the image can never happen: a typo. */
static int past_image(const char *key, const struct sim_range *r, uint64_t n,
		      char *err, size_t errlen)
{
	if (r->first < n)
		return 0;
	snprintf(err, errlen, "sim: %s=%" PRIu64 "-%" PRIu64 " lies past the image, whose %" PRIu64
		 " blocks are LBAs 0-%" PRIu64 " (reads past them fail as past the end anyway)",
		 key, r->first, r->last, n, n ? n - 1 : 0);
	return CDT_EUSAGE;
}

int sim_check_ranges(const struct sim_config *c, uint64_t n, char *err, size_t errlen)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < c->n_bad && !rc; i++)
		rc = past_image("bad", &c->bad[i], n, err, errlen);
	if (!rc && c->have_flaky)
		rc = past_image("flaky", &c->flaky, n, err, errlen);
	if (!rc && c->have_css)
		rc = past_image("css", &c->css, n, err, errlen);
	if (!rc)
		rc = sim_check_fault_ranges(c, n, err, errlen);
	return rc;
}
