// SPDX-License-Identifier: MIT
/*
 * The emulated MMC drive ("sim:IMAGE[,key=value...]", see cdtail(1) and
 * shared/CONTRACT.md): a transport that answers CDBs from an image file
 * opened read-only, with the faults real drives show near the end of a
 * disc (hidden tail, run-out, extra block, medium errors, unit attentions,
 * hangs) injected on request, and the quirks measured on real targets (tgt,
 * QEMU) that cdtail must cope with without knowing which target it faces.
 * Every piece of state lives in the handle, so any number of emulated
 * drives can be open at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "scsi/bytes.h"
#include "cdtail.h"
#include "scsi/mmc.h"
#include "transport/transport.h"

#define SIM_MAX_TRANSFER (8u * 1024 * 1024)
#define SIM_SENSE_LEN 18
/* 900 MB: larger images are DVDs, as no CD holds that much */
#define SIM_CD_MAX_BYTES 900000000ull

/* SPC/MMC sense keys and additional sense codes the drive answers with */
#define SK_NO_SENSE 0x00
#define SK_MEDIUM_ERROR 0x03
#define SK_ILLEGAL_REQUEST 0x05
#define SK_UNIT_ATTENTION 0x06
#define ASC_UNRECOVERED_READ 0x11
#define ASC_INVALID_OPCODE 0x20
#define ASC_LBA_OUT_OF_RANGE 0x21
#define ASC_INVALID_FIELD 0x24
#define ASC_POWER_ON_RESET 0x29
#define ASC_SAVING_NOT_SUPPORTED 0x39
#define ASC_END_OF_USER_AREA 0x64

enum sim_toc {
	SIM_TOC_REPORTED = 0,
	SIM_TOC_TRUE,
	SIM_TOC_NONE,
	SIM_TOC_CUT,		/* as reported, but 2 bytes short of its header */
};

/* What a failing read's INFORMATION field holds (VALID set unless NONE). */
enum sim_info {
	SIM_INFO_NONE = 0,
	SIM_INFO_LBA,		/* the first unreadable LBA */
	SIM_INFO_ZERO,		/* 0, whatever failed (QEMU IDE/AHCI) */
	SIM_INFO_START,		/* the command's first LBA */
	SIM_INFO_FIXED,		/* one constant, whatever failed (scsi_debug) */
};

struct sim_range {
	uint64_t first, last;	/* inclusive */
};

struct sim_config {
	uint64_t hide, extra, runout;
	enum sim_toc toc;
	struct sim_range *bad;
	size_t n_bad;
	bool have_flaky;
	struct sim_range flaky;
	uint32_t flaky_times;
	uint64_t ua_every;	/* 0: no unit attentions */
	bool have_hang;
	uint64_t hang_lba;
	uint32_t block_size;
	uint64_t ok_us, fail_ms;
	enum sim_info info;
	uint32_t info_fixed;	/* the constant of info=fixed:N */
	bool sleep;
	char *trace_path;
	/* quirks of real targets */
	bool past_medium;	/* past the end: 03/11/00, not 05/21/00 */
	bool reveal;		/* READ CAPACITY grows to what reads touched */
	bool getconf_full;	/* GET CONFIGURATION pads to the allocation */
	bool stale;		/* failing reads still move a whole buffer */
	bool cdb16;		/* READ(16), READ CAPACITY(16) answered */
};

struct sim {
	struct cdt_transport t;	/* first: the device layer holds a pointer to it */
	struct sim_config cfg;
	int image_fd;
	int trace_fd;		/* -1 without trace= */
	uint64_t n_blocks;	/* whole blocks in the image: the true end */
	uint64_t n_reported;	/* what READ CAPACITY says */
	uint64_t n_commands;
	bool last_was_ua;
	/* failures so far of each flaky block below n_blocks */
	uint32_t *flaky_fails;
	uint64_t n_flaky_fails;
	uint64_t touched_end;	/* highest LBA a read addressed, plus 1 */
	/* stale=1: what the previous read put in the initiator's buffer */
	uint8_t *stale_buf;
	size_t stale_len, stale_cap;
};

/* How one command ended, before it is written into the cdt_cmd. */
struct sim_outcome {
	bool timeout;
	bool check;
	bool failed_read;	/* costs FAIL_MS rather than 1 ms */
	uint8_t key, asc, ascq;
	bool info_valid;
	uint64_t info;
	uint64_t blocks_moved;
};

/* ---- byte helpers ---------------------------------------------------------- */

/* 32-bit address fields saturate rather than wrap to a small number */
static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* ---- parsing the spec ------------------------------------------------------ */

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

static int parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "0") || !strcmp(s, "1")) {
		*out = s[0] == '1';
		return 0;
	}
	return -1;
}

static int key_hide(struct sim_config *c, const char *v)
{
	return parse_u64(v, &c->hide) ? CDT_EUSAGE : 0;
}

static int key_extra(struct sim_config *c, const char *v)
{
	return parse_u64(v, &c->extra) ? CDT_EUSAGE : 0;
}

static int key_runout(struct sim_config *c, const char *v)
{
	return parse_u64(v, &c->runout) ? CDT_EUSAGE : 0;
}

static int key_toc(struct sim_config *c, const char *v)
{
	if (!strcmp(v, "reported"))
		c->toc = SIM_TOC_REPORTED;
	else if (!strcmp(v, "true"))
		c->toc = SIM_TOC_TRUE;
	else if (!strcmp(v, "none"))
		c->toc = SIM_TOC_NONE;
	else if (!strcmp(v, "cut"))
		c->toc = SIM_TOC_CUT;
	else
		return CDT_EUSAGE;
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
	if (!strcmp(v, "0"))
		c->info = SIM_INFO_NONE;
	else if (!strcmp(v, "1"))
		c->info = SIM_INFO_LBA;
	else if (!strcmp(v, "zero"))
		c->info = SIM_INFO_ZERO;
	else if (!strcmp(v, "start"))
		c->info = SIM_INFO_START;
	else if (!strncmp(v, "fixed:", 6)) {
		uint64_t n;

		if (parse_u64(v + 6, &n) || n > UINT32_MAX)
			return CDT_EUSAGE;
		c->info = SIM_INFO_FIXED;
		c->info_fixed = (uint32_t)n;
	} else {
		return CDT_EUSAGE;
	}
	return 0;
}

static int key_sleep(struct sim_config *c, const char *v)
{
	return parse_bool(v, &c->sleep) ? CDT_EUSAGE : 0;
}

static int key_trace(struct sim_config *c, const char *v)
{
	if (!*v)
		return CDT_EUSAGE;
	c->trace_path = strdup(v);
	return c->trace_path ? 0 : CDT_ENOMEM;
}

static int key_past(struct sim_config *c, const char *v)
{
	if (!strcmp(v, "end"))
		c->past_medium = false;
	else if (!strcmp(v, "medium"))
		c->past_medium = true;
	else
		return CDT_EUSAGE;
	return 0;
}

static int key_reveal(struct sim_config *c, const char *v)
{
	return parse_bool(v, &c->reveal) ? CDT_EUSAGE : 0;
}

static int key_getconf(struct sim_config *c, const char *v)
{
	if (!strcmp(v, "exact"))
		c->getconf_full = false;
	else if (!strcmp(v, "full"))
		c->getconf_full = true;
	else
		return CDT_EUSAGE;
	return 0;
}

static int key_stale(struct sim_config *c, const char *v)
{
	return parse_bool(v, &c->stale) ? CDT_EUSAGE : 0;
}

static int key_cdb16(struct sim_config *c, const char *v)
{
	return parse_bool(v, &c->cdb16) ? CDT_EUSAGE : 0;
}

struct sim_key {
	const char *name;
	int (*parse)(struct sim_config *c, const char *value);
	const char *want;
};

static const struct sim_key sim_keys[] = {
	{ "hide", key_hide, "a block count" },
	{ "extra", key_extra, "a block count" },
	{ "toc", key_toc, "reported, true, cut or none" },
	{ "bad", key_bad, "A-B[:A-B...] with A <= B" },
	{ "runout", key_runout, "a block count" },
	{ "flaky", key_flaky, "A-B:T with A <= B and T >= 1" },
	{ "ua", key_ua, "a command count >= 1" },
	{ "hang", key_hang, "an LBA" },
	{ "block", key_block, "512 or 2048" },
	{ "cost", key_cost, "OK_US/FAIL_MS" },
	{ "info", key_info, "0, 1, zero, start or fixed:N" },
	{ "sleep", key_sleep, "0 or 1" },
	{ "trace", key_trace, "a file name" },
	{ "past", key_past, "end or medium" },
	{ "reveal", key_reveal, "0 or 1" },
	{ "getconf", key_getconf, "exact or full" },
	{ "stale", key_stale, "0 or 1" },
	{ "cdb16", key_cdb16, "0 or 1" },
};

#define N_SIM_KEYS (sizeof(sim_keys) / sizeof(sim_keys[0]))

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
		snprintf(err, errlen, "sim: key '%s' has no value (want key=value)", item);
		return CDT_EUSAGE;
	}
	*eq = '\0';
	value = eq + 1;
	for (i = 0; i < N_SIM_KEYS; i++)
		if (!strcmp(item, sim_keys[i].name))
			break;
	if (i == N_SIM_KEYS) {
		snprintf(err, errlen, "sim: unknown key '%s'", item);
		return CDT_EUSAGE;
	}
	if (seen[i]) {
		snprintf(err, errlen, "sim: key '%s' given twice", item);
		return CDT_EUSAGE;
	}
	seen[i] = true;
	rc = sim_keys[i].parse(c, value);
	if (rc == CDT_ENOMEM)
		snprintf(err, errlen, "sim: out of memory");
	else if (rc)
		snprintf(err, errlen, "sim: bad value '%s' for key '%s' (want %s)",
			 value, item, sim_keys[i].want);
	return rc;
}

/* keys points into a writable copy of the spec, after the image name */
static int parse_keys(struct sim_config *c, char *keys, char *err, size_t errlen)
{
	bool seen[N_SIM_KEYS] = { false };
	char *item = keys;

	while (item) {
		char *comma = strchr(item, ',');
		int rc;

		if (comma)
			*comma = '\0';
		rc = parse_item(c, item, seen, err, errlen);
		if (rc)
			return rc;
		item = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* ---- opening and closing --------------------------------------------------- */

static void sim_free(struct sim *s)
{
	if (s->image_fd >= 0)
		close(s->image_fd);
	if (s->trace_fd >= 0)
		close(s->trace_fd);
	free(s->cfg.bad);
	free(s->cfg.trace_path);
	free(s->flaky_fails);
	free(s->stale_buf);
	free(s);
}

static int open_image(struct sim *s, const char *path, char *err, size_t errlen)
{
	struct stat st;
	off_t size;

	s->image_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->image_fd < 0 || fstat(s->image_fd, &st))
		goto fail;
	/* a directory "opens" but has no blocks, and lseek on it means nothing */
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		errno = EINVAL;
		goto fail;
	}
	/* lseek rather than st_size: a block device as image works too */
	size = lseek(s->image_fd, 0, SEEK_END);
	if (size < 0)
		goto fail;
	s->n_blocks = (uint64_t)size / s->cfg.block_size;
	return 0;
fail:
	snprintf(err, errlen, "sim: cannot open %s: %s", path, strerror(errno));
	return CDT_EOPEN;
}

static int value_too_big(char *err, size_t errlen, const char *key,
			 uint64_t value, const char *why)
{
	snprintf(err, errlen, "sim: bad value '%" PRIu64 "' for key '%s' (%s)",
		 value, key, why);
	return CDT_EUSAGE;
}

/* The checks that need N, the number of whole blocks in the image. */
static int check_sizes(struct sim *s, const char *path, char *err,
		       size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	uint64_t n = s->n_blocks;

	if (c->hide > n)
		return value_too_big(err, errlen, "hide", c->hide,
				     "more than the blocks in the image");
	if (c->runout > n)
		return value_too_big(err, errlen, "runout", c->runout,
				     "more than the blocks in the image");
	if (c->extra > UINT64_MAX - (n - c->hide))
		return value_too_big(err, errlen, "extra", c->extra, "too large");
	s->n_reported = n - c->hide + c->extra;
	/* READ CAPACITY has no way to say "nothing": refuse rather than lie */
	if (s->n_reported > 0)
		return 0;
	if (n == 0) {
		snprintf(err, errlen, "sim: %s holds no whole %" PRIu32 "-byte block",
			 path, c->block_size);
		return CDT_EUSAGE;
	}
	return value_too_big(err, errlen, "hide", c->hide,
			     "leaves no reported block");
}

/* Counters only for the flaky blocks that can be read at all (below N). */
static int alloc_flaky(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	uint64_t last;

	if (!c->have_flaky || c->flaky.first >= s->n_blocks)
		return 0;
	last = c->flaky.last < s->n_blocks ? c->flaky.last : s->n_blocks - 1;
	s->n_flaky_fails = last - c->flaky.first + 1;
	s->flaky_fails = calloc(s->n_flaky_fails, sizeof(*s->flaky_fails));
	if (!s->flaky_fails) {
		snprintf(err, errlen, "sim: out of memory");
		return CDT_ENOMEM;
	}
	return 0;
}

static int open_trace(struct sim *s, char *err, size_t errlen)
{
	const char *path = s->cfg.trace_path;

	if (!path)
		return 0;
	s->trace_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (s->trace_fd < 0) {
		snprintf(err, errlen, "sim: cannot open trace file %s: %s", path,
			 strerror(errno));
		return CDT_EOPEN;
	}
	return 0;
}

static const struct cdt_transport_ops sim_ops;

int cdt_sim_open(const char *spec, struct cdt_transport **tp,
		 char *err, size_t errlen)
{
	struct sim *s;
	char *copy = NULL;
	char *comma;
	int rc = CDT_ENOMEM;

	*tp = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	s->image_fd = -1;
	s->trace_fd = -1;
	s->cfg.block_size = 2048;
	s->cfg.ok_us = 50;
	s->cfg.fail_ms = 8000;
	s->cfg.cdb16 = true;
	copy = strdup(spec ? spec : "");
	if (!copy)
		goto nomem;
	comma = strchr(copy, ',');
	if (comma)
		*comma = '\0';
	if (!copy[0]) {
		snprintf(err, errlen, "sim: no image file given (want sim:IMAGE[,key=value...])");
		rc = CDT_EUSAGE;
		goto out;
	}
	/* keys first: a typo is reported even when the image is missing too */
	if (comma) {
		rc = parse_keys(&s->cfg, comma + 1, err, errlen);
		if (rc)
			goto out;
	}
	rc = open_image(s, copy, err, errlen);
	if (!rc)
		rc = check_sizes(s, copy, err, errlen);
	if (!rc)
		rc = alloc_flaky(s, err, errlen);
	if (!rc)
		rc = open_trace(s, err, errlen);
	if (rc)
		goto out;
	s->t.ops = &sim_ops;
	s->t.virtual_time = true;
	*tp = &s->t;
	free(copy);
	return 0;
nomem:
	snprintf(err, errlen, "sim: out of memory");
out:
	free(copy);
	if (s)
		sim_free(s);
	return rc;
}

static void sim_close(struct cdt_transport *t)
{
	if (t)
		sim_free((struct sim *)t);
}

static uint32_t sim_max_transfer(struct cdt_transport *t)
{
	(void)t;
	return SIM_MAX_TRANSFER;
}

/* ---- answering ------------------------------------------------------------- */

static void check(struct sim_outcome *o, uint8_t key, uint8_t asc, uint8_t ascq)
{
	o->check = true;
	o->key = key;
	o->asc = asc;
	o->ascq = ascq;
}

static void invalid_field(struct sim_outcome *o)
{
	check(o, SK_ILLEGAL_REQUEST, ASC_INVALID_FIELD, 0);
}

/* Hand a built answer to the initiator: no more than alloc or the buffer. */
static void put_answer(struct cdt_cmd *cmd, const uint8_t *ans, size_t len,
		       uint32_t alloc)
{
	size_t n = len;

	if (n > alloc)
		n = alloc;
	if (n > cmd->data_len)
		n = cmd->data_len;
	if (!cmd->data)
		n = 0;
	if (n)
		memcpy(cmd->data, ans, n);
	cmd->resid = cmd->data_len - (uint32_t)n;
}

/*
 * getconf=full (tgt): the whole allocation length moves, zero-padded past
 * the answer, with no residual; only the header tells the answer's length.
 */
static void put_padded_answer(struct cdt_cmd *cmd, const uint8_t *ans,
			      size_t len, uint32_t alloc)
{
	uint32_t n = alloc < cmd->data_len ? alloc : cmd->data_len;

	if (!cmd->data)
		n = 0;
	if (n)
		memset(cmd->data, 0, n);
	put_answer(cmd, ans, len, n);
	cmd->resid = cmd->data_len - n;
}

struct sim_read {
	uint64_t lba;
	uint64_t nblocks;
};

/* Read CDBs, by their own layout; false for every other opcode. */
static bool decode_read(const struct cdt_cmd *cmd, struct sim_read *r)
{
	const uint8_t *cdb = cmd->cdb;

	switch (cdb[0]) {
	case MMC_READ10:
		r->lba = sg_get_unaligned_be32(cdb + 2);
		r->nblocks = sg_get_unaligned_be16(cdb + 7);
		return true;
	case MMC_READ12:
		r->lba = sg_get_unaligned_be32(cdb + 2);
		r->nblocks = sg_get_unaligned_be32(cdb + 6);
		return true;
	case MMC_READ16:
		r->lba = sg_get_unaligned_be64(cdb + 2);
		r->nblocks = sg_get_unaligned_be32(cdb + 10);
		return true;
	default:
		return false;
	}
}

static bool in_range(const struct sim_range *r, uint64_t b)
{
	return b >= r->first && b <= r->last;
}

/* Why block b cannot be read (o filled, true), or false when it can. */
static bool block_fails(struct sim *s, uint64_t b, struct sim_outcome *o)
{
	const struct sim_config *c = &s->cfg;
	size_t i;

	if (b >= s->n_blocks) {
		/* tgt fails reads beyond its backing file as unreadable */
		if (c->past_medium)
			check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
		else
			check(o, SK_ILLEGAL_REQUEST, ASC_LBA_OUT_OF_RANGE, 0);
		return true;
	}
	if (b >= s->n_blocks - c->runout) {
		check(o, SK_ILLEGAL_REQUEST, ASC_END_OF_USER_AREA, 0);
		return true;
	}
	for (i = 0; i < c->n_bad; i++) {
		if (in_range(&c->bad[i], b)) {
			check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
			return true;
		}
	}
	if (c->have_flaky && in_range(&c->flaky, b)) {
		/* b < n_blocks here, so it has a counter */
		uint32_t *fails = &s->flaky_fails[b - c->flaky.first];

		if (*fails < c->flaky_times) {
			(*fails)++;
			check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
			return true;
		}
	}
	return false;
}

/* Copy n blocks from the image; a failing pread is a medium error. */
static bool copy_blocks(struct sim *s, uint64_t lba, uint64_t n, uint8_t *dst)
{
	size_t want = (size_t)(n * s->cfg.block_size);
	off_t off = (off_t)(lba * s->cfg.block_size);
	size_t got = 0;

	while (got < want) {
		ssize_t r = pread(s->image_fd, dst + got, want - got,
				  off + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

/* reveal=1: remember how far reads have reached, failing ones included. */
static void note_touched(struct sim *s, const struct sim_read *r)
{
	uint64_t end = r->lba > UINT64_MAX - r->nblocks ? UINT64_MAX :
		       r->lba + r->nblocks;

	if (end > s->touched_end)
		s->touched_end = end;
}

/* What READ CAPACITY says now: tgt grows its size to cover any read sent. */
static uint64_t capacity_now(const struct sim *s)
{
	if (s->cfg.reveal && s->touched_end > s->n_reported)
		return s->touched_end;
	return s->n_reported;
}

/* The INFORMATION field of a read that failed after good blocks. */
static void set_info(const struct sim *s, const struct sim_read *r,
		     uint64_t good, struct sim_outcome *o)
{
	uint64_t at;

	switch (s->cfg.info) {
	case SIM_INFO_LBA:
		at = r->lba + good;
		break;
	case SIM_INFO_ZERO:
		at = 0;
		break;
	case SIM_INFO_START:
		at = r->lba;
		break;
	case SIM_INFO_FIXED:
		at = s->cfg.info_fixed;
		break;
	default:
		return;
	}
	/* fixed-format sense holds 32 bits: a wider LBA goes without */
	if (at > UINT32_MAX)
		return;
	o->info_valid = true;
	o->info = at;
}

/*
 * stale=1: keep what this read left in the buffer for the next failing
 * one.  Out of memory only forgets it, and the next failure sends zeros,
 * which tgt may do as well.
 */
static void remember_stale(struct sim *s, const uint8_t *data, size_t len)
{
	if (len > s->stale_cap) {
		uint8_t *p = realloc(s->stale_buf, len);

		if (!p) {
			s->stale_len = 0;
			return;
		}
		s->stale_buf = p;
		s->stale_cap = len;
	}
	if (len)
		memcpy(s->stale_buf, data, len);
	s->stale_len = len;
}

/* Bytes [from, to) of a failing read: the previous read's, then zeros. */
static void fill_stale(const struct sim *s, uint8_t *data, size_t from,
		       size_t to)
{
	size_t old = s->stale_len < to ? s->stale_len : to;

	if (from < old) {
		memcpy(data + from, s->stale_buf + from, old - from);
		from = old;
	}
	if (from < to)
		memset(data + from, 0, to - from);
}

static int do_read(struct sim *s, struct cdt_cmd *cmd, const struct sim_read *r,
		   struct sim_outcome *o)
{
	uint32_t bs = s->cfg.block_size;
	uint64_t good = 0;
	size_t moved;

	if (s->cfg.have_hang && s->cfg.hang_lba >= r->lba &&
	    s->cfg.hang_lba - r->lba < r->nblocks) {
		o->timeout = true;
		return 0;
	}
	if (r->nblocks == 0)
		return 0;
	/* never write past the initiator's buffer, whatever the CDB asks */
	if (!cmd->data || r->nblocks > cmd->data_len / bs) {
		invalid_field(o);
		return 0;
	}
	note_touched(s, r);
	while (good < r->nblocks && !block_fails(s, r->lba + good, o))
		good++;
	if (good && !copy_blocks(s, r->lba, good, cmd->data)) {
		good = 0;
		check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
	}
	moved = (size_t)(good * bs);
	if (o->check && s->cfg.stale) {
		fill_stale(s, cmd->data, moved, (size_t)(r->nblocks * bs));
		moved = (size_t)(r->nblocks * bs);
	}
	if (s->cfg.stale)
		remember_stale(s, cmd->data, moved);
	cmd->resid = cmd->data_len - (uint32_t)moved;
	o->blocks_moved = good;
	if (!o->check)
		return 0;
	o->failed_read = true;
	set_info(s, r, good, o);
	return 0;
}

static void do_inquiry(struct cdt_cmd *cmd, struct sim_outcome *o)
{
	uint8_t ans[36] = { 0 };

	/* no VPD pages, and a page code is only valid with EVPD */
	if ((cmd->cdb[1] & 0x01) || cmd->cdb[2]) {
		invalid_field(o);
		return;
	}
	ans[0] = 0x05;		/* CD/DVD device */
	ans[1] = 0x80;		/* RMB */
	ans[2] = 0x05;		/* SPC-3 */
	ans[3] = 0x02;
	ans[4] = sizeof(ans) - 5;
	memcpy(ans + 8, "CDTAIL  ", 8);
	memcpy(ans + 16, "EMULATED DRIVE  ", 16);
	memcpy(ans + 32, "1.0 ", 4);
	put_answer(cmd, ans, sizeof(ans), sg_get_unaligned_be16(cmd->cdb + 3));
}

static void do_request_sense(struct cdt_cmd *cmd)
{
	uint8_t ans[SIM_SENSE_LEN] = { 0x70 };

	ans[7] = SIM_SENSE_LEN - 8;
	put_answer(cmd, ans, sizeof(ans), cmd->cdb[4]);
}

static void do_read_capacity10(struct sim *s, struct cdt_cmd *cmd)
{
	uint8_t ans[8];

	sg_put_unaligned_be32(clamp32(capacity_now(s) - 1), ans);
	sg_put_unaligned_be32(s->cfg.block_size, ans + 4);
	put_answer(cmd, ans, sizeof(ans), sizeof(ans));
}

static void do_service_action_in(struct sim *s, struct cdt_cmd *cmd,
				 struct sim_outcome *o)
{
	uint8_t ans[32] = { 0 };

	if ((cmd->cdb[1] & 0x1f) != MMC_SAI_READ_CAPACITY16) {
		invalid_field(o);
		return;
	}
	sg_put_unaligned_be64(capacity_now(s) - 1, ans);
	sg_put_unaligned_be32(s->cfg.block_size, ans + 8);
	put_answer(cmd, ans, sizeof(ans), sg_get_unaligned_be32(cmd->cdb + 10));
}

/* A TOC track descriptor or address field, in LBA or 0:M:S:F form. */
static void put_address(uint8_t *p, uint64_t lba, bool msf)
{
	if (!msf) {
		sg_put_unaligned_be32(clamp32(lba), p);
		return;
	}
	p[0] = 0;
	mmc_lba_to_msf((int64_t)(lba > INT32_MAX ? INT32_MAX : lba),
		       &p[1], &p[2], &p[3]);
}

static void put_toc_track(uint8_t *p, uint8_t track, uint64_t lba, bool msf)
{
	memset(p, 0, 8);
	p[1] = 0x14;		/* ADR 1 (Q position), control 4: data track */
	p[2] = track;
	put_address(p + 4, lba, msf);
}

static void do_read_toc(struct sim *s, struct cdt_cmd *cmd, struct sim_outcome *o)
{
	const uint8_t *cdb = cmd->cdb;
	uint8_t format = cdb[2] & 0x0f;
	bool msf = cdb[1] & 0x02;
	uint8_t track = cdb[6];
	uint64_t leadout;
	uint8_t ans[4 + 2 * 8];
	size_t len = 4, sent;

	if (s->cfg.toc == SIM_TOC_NONE || format > 1) {
		invalid_field(o);
		return;
	}
	ans[2] = 1;		/* first track, or first session */
	ans[3] = 1;		/* last track, or last session */
	if (format == 1) {
		put_toc_track(ans + len, 1, 0, msf);
		len += 8;
	} else {
		if (track > 1 && track != 0xaa) {
			invalid_field(o);
			return;
		}
		leadout = s->cfg.toc == SIM_TOC_TRUE ? s->n_blocks : s->n_reported;
		if (track != 0xaa) {
			put_toc_track(ans + len, 1, 0, msf);
			len += 8;
		}
		put_toc_track(ans + len, 0xaa, leadout, msf);
		len += 8;
	}
	sg_put_unaligned_be16((uint16_t)(len - 2), ans);
	/* tgt's header counts the whole lead-out entry but sends 2 bytes less */
	sent = len;
	if (format == 0 && s->cfg.toc == SIM_TOC_CUT)
		sent -= 2;
	put_answer(cmd, ans, sent, sg_get_unaligned_be16(cdb + 7));
}

static uint16_t current_profile(const struct sim *s)
{
	uint64_t bytes = s->n_blocks * s->cfg.block_size;

	return bytes <= SIM_CD_MAX_BYTES ? 0x0008 : 0x0010;
}

/* Feature 0000h (profile list) or 0001h (core) at p; returns its length. */
static size_t put_feature(const struct sim *s, uint16_t code, uint8_t *p)
{
	memset(p, 0, 8);
	sg_put_unaligned_be16(code, p);
	p[2] = 0x03;		/* version 0, persistent, current */
	p[3] = 4;
	if (code == 0x0000) {
		sg_put_unaligned_be16(current_profile(s), p + 4);
		p[6] = 0x01;	/* CurrentP */
	} else {
		sg_put_unaligned_be32(0x00000001, p + 4);	/* physical interface: SCSI family */
	}
	return 8;
}

static void do_get_configuration(struct sim *s, struct cdt_cmd *cmd,
				 struct sim_outcome *o)
{
	static const uint16_t features[] = { 0x0000, 0x0001 };
	uint8_t rt = cmd->cdb[1] & 0x03;
	uint16_t start = sg_get_unaligned_be16(cmd->cdb + 2);
	uint8_t ans[8 + 2 * 8] = { 0 };
	size_t len = 8, i;

	if (rt == 3) {
		invalid_field(o);
		return;
	}
	/* both features are always current, so RT 0 and 1 list the same */
	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		if (rt == 2 ? features[i] != start : features[i] < start)
			continue;
		len += put_feature(s, features[i], ans + len);
	}
	sg_put_unaligned_be32((uint32_t)(len - 4), ans);
	sg_put_unaligned_be16(current_profile(s), ans + 6);
	if (s->cfg.getconf_full)
		put_padded_answer(cmd, ans, len, sg_get_unaligned_be16(cmd->cdb + 7));
	else
		put_answer(cmd, ans, len, sg_get_unaligned_be16(cmd->cdb + 7));
}

static void do_read_disc_info(struct cdt_cmd *cmd, struct sim_outcome *o)
{
	uint8_t ans[34] = { 0 };

	if (cmd->cdb[1] & 0x07) {	/* only data type 0, standard info */
		invalid_field(o);
		return;
	}
	sg_put_unaligned_be16(sizeof(ans) - 2, ans);
	ans[2] = 3 << 2 | 2;	/* last session complete, disc complete */
	ans[3] = 1;		/* first track */
	ans[4] = 1;		/* sessions */
	ans[5] = 1;		/* first track in last session */
	ans[6] = 1;		/* last track in last session */
	ans[8] = 0x00;		/* CD-DA or CD-ROM */
	/* not recordable: no lead-in or last possible lead-out to give */
	memset(ans + 16, 0xff, 8);
	put_answer(cmd, ans, sizeof(ans), sg_get_unaligned_be16(cmd->cdb + 7));
}

static void do_read_track_info(struct sim *s, struct cdt_cmd *cmd,
			       struct sim_outcome *o)
{
	uint8_t type = cmd->cdb[1] & 0x03;
	uint32_t addr = sg_get_unaligned_be32(cmd->cdb + 2);
	uint8_t ans[36] = { 0 };

	if (type == 0 && addr >= s->n_reported) {
		check(o, SK_ILLEGAL_REQUEST, ASC_LBA_OUT_OF_RANGE, 0);
		return;
	}
	/* type 1: track 1; type 2: session 1, whose first track is 1 */
	if (type == 3 || (type != 0 && addr != 1)) {
		invalid_field(o);
		return;
	}
	sg_put_unaligned_be16(sizeof(ans) - 2, ans);
	ans[2] = 1;		/* track */
	ans[3] = 1;		/* session */
	ans[5] = 0x04;		/* track mode: data, recorded uninterrupted */
	ans[6] = 0x01;		/* data mode 1 */
	ans[7] = 0x02;		/* LRA_V */
	sg_put_unaligned_be32(clamp32(s->n_reported), ans + 24);
	sg_put_unaligned_be32(clamp32(s->n_reported - 1), ans + 28);
	put_answer(cmd, ans, sizeof(ans), sg_get_unaligned_be16(cmd->cdb + 7));
}

/*
 * Mode pages.  Current and default values are the same; the "changeable"
 * masks are all zero, as nothing here may be changed.  The caching page
 * is all zero in every form: WCE 0 and RCD 0, a read-only drive.
 */
static size_t put_caching_page(uint8_t *p)
{
	memset(p, 0, 20);
	p[0] = 0x08;
	p[1] = 0x12;
	return 20;
}

static size_t put_capabilities_page(uint8_t *p, bool changeable)
{
	memset(p, 0, 22);
	p[0] = 0x2a;
	p[1] = 0x14;
	if (changeable)
		return 22;
	p[2] = 0x08;		/* reads DVD-ROM; no CD-R/RW, no writing */
	p[4] = 0x40;		/* multi-session */
	p[6] = 0x29;		/* tray loader, eject, lock */
	sg_put_unaligned_be16(7056, p + 8);	/* max read speed, kB/s (40x CD) */
	sg_put_unaligned_be16(2048, p + 12);	/* buffer, KiB */
	sg_put_unaligned_be16(7056, p + 14);	/* current read speed */
	return 22;
}

static void do_mode_sense10(struct cdt_cmd *cmd, struct sim_outcome *o)
{
	uint8_t page = cmd->cdb[2] & 0x3f;
	uint8_t pc = cmd->cdb[2] >> 6;
	bool changeable = pc == 1;
	uint8_t ans[8 + 20 + 22];
	size_t len = 8;

	if (pc == 3) {
		check(o, SK_ILLEGAL_REQUEST, ASC_SAVING_NOT_SUPPORTED, 0);
		return;
	}
	if (cmd->cdb[3] || (page != 0x08 && page != 0x2a && page != 0x3f)) {
		invalid_field(o);
		return;
	}
	/* no block descriptors; device-specific 0: no DPOFUA, not protected */
	memset(ans, 0, 8);
	if (page == 0x08 || page == 0x3f)
		len += put_caching_page(ans + len);
	if (page == 0x2a || page == 0x3f)
		len += put_capabilities_page(ans + len, changeable);
	sg_put_unaligned_be16((uint16_t)(len - 2), ans);
	put_answer(cmd, ans, len, sg_get_unaligned_be16(cmd->cdb + 7));
}

/* cdb16=0 (tgt): neither 16-byte command is known to the drive */
static bool refused_cdb16(const struct sim *s, uint8_t opcode)
{
	return !s->cfg.cdb16 &&
	       (opcode == MMC_READ16 || opcode == MMC_SERVICE_ACTION_IN16);
}

static void dispatch(struct sim *s, struct cdt_cmd *cmd, struct sim_outcome *o)
{
	struct sim_read r;

	if (refused_cdb16(s, cmd->cdb[0])) {
		check(o, SK_ILLEGAL_REQUEST, ASC_INVALID_OPCODE, 0);
		return;
	}
	if (decode_read(cmd, &r)) {
		do_read(s, cmd, &r, o);
		return;
	}
	switch (cmd->cdb[0]) {
	case MMC_TEST_UNIT_READY:
		break;
	case MMC_REQUEST_SENSE:
		do_request_sense(cmd);
		break;
	case MMC_INQUIRY:
		do_inquiry(cmd, o);
		break;
	case MMC_READ_CAPACITY10:
		do_read_capacity10(s, cmd);
		break;
	case MMC_SERVICE_ACTION_IN16:
		do_service_action_in(s, cmd, o);
		break;
	case MMC_READ_TOC:
		do_read_toc(s, cmd, o);
		break;
	case MMC_GET_CONFIGURATION:
		do_get_configuration(s, cmd, o);
		break;
	case MMC_READ_DISC_INFO:
		do_read_disc_info(cmd, o);
		break;
	case MMC_READ_TRACK_INFO:
		do_read_track_info(s, cmd, o);
		break;
	case MMC_MODE_SENSE10:
		do_mode_sense10(cmd, o);
		break;
	default:
		check(o, SK_ILLEGAL_REQUEST, ASC_INVALID_OPCODE, 0);
		break;
	}
}

/* Every Nth command meets a unit attention, but never two in a row. */
static bool unit_attention_due(struct sim *s)
{
	bool due;

	s->n_commands++;
	due = s->cfg.ua_every && !s->last_was_ua &&
	      s->n_commands % s->cfg.ua_every == 0;
	s->last_was_ua = due;
	return due;
}

static void put_sense(struct cdt_cmd *cmd, const struct sim_outcome *o)
{
	uint8_t *p = cmd->sense;

	memset(p, 0, SIM_SENSE_LEN);
	p[0] = o->info_valid ? 0xf0 : 0x70;
	p[2] = o->key;
	if (o->info_valid)
		sg_put_unaligned_be32((uint32_t)o->info, p + 3);
	p[7] = SIM_SENSE_LEN - 8;
	p[12] = o->asc;
	p[13] = o->ascq;
	cmd->sense_len = SIM_SENSE_LEN;
	cmd->status = CDT_STATUS_CHECK;
}

static double virtual_ms(const struct sim *s, const struct cdt_cmd *cmd,
			 const struct sim_outcome *o)
{
	if (o->timeout)
		return cmd->timeout_ms;
	if (o->failed_read)
		return (double)s->cfg.fail_ms;
	if (o->check)
		return 1.0;
	return 1.0 + (double)s->cfg.ok_us * (double)o->blocks_moved / 1000.0;
}

static void sleep_ms(double ms)
{
	struct timespec left;

	if (ms <= 0)
		return;
	left.tv_sec = (time_t)(ms / 1000);
	left.tv_nsec = (long)((ms - (double)left.tv_sec * 1000) * 1e6);
	if (left.tv_nsec >= 1000000000L)
		left.tv_nsec = 999999999L;
	while (nanosleep(&left, &left) && errno == EINTR)
		;
}

/* One whole line per write(2), so a killed run leaves whole lines. */
static void trace_line(struct sim *s, const struct cdt_cmd *cmd,
		       const struct sim_outcome *o)
{
	struct sim_read r = { 0, 0 };
	char line[128], sense[16];
	size_t off = 0;
	int len;

	if (s->trace_fd < 0)
		return;
	decode_read(cmd, &r);
	if (o->timeout)
		snprintf(sense, sizeof(sense), "timeout");
	else
		snprintf(sense, sizeof(sense), "%02x/%02x/%02x", o->key, o->asc,
			 o->ascq);
	len = snprintf(line, sizeof(line), "%02x lba=%" PRIu64 " blocks=%" PRIu64 " sense=%s\n",
		       cmd->cdb[0], r.lba, r.nblocks, sense);
	if (len < 0 || (size_t)len >= sizeof(line))
		return;
	/* the trace is a diagnostic: a full disk must not fail the command */
	while (off < (size_t)len) {
		ssize_t w = write(s->trace_fd, line + off, (size_t)len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		off += (size_t)w;
	}
}

static int sim_exec(struct cdt_transport *t, struct cdt_cmd *cmd)
{
	struct sim *s = (struct sim *)t;
	struct sim_outcome o = { 0 };

	cmd->resid = cmd->data_len;
	cmd->sense_len = 0;
	cmd->status = CDT_STATUS_GOOD;
	if (unit_attention_due(s))
		check(&o, SK_UNIT_ATTENTION, ASC_POWER_ON_RESET, 0);
	else
		dispatch(s, cmd, &o);
	if (o.check)
		put_sense(cmd, &o);
	cmd->ms = virtual_ms(s, cmd, &o);
	trace_line(s, cmd, &o);
	if (s->cfg.sleep)
		sleep_ms(cmd->ms);
	return o.timeout ? CDT_ETIMEOUT : 0;
}

static const struct cdt_transport_ops sim_ops = {
	.name = "sim",
	.exec = sim_exec,
	.close = sim_close,
	.kernel_size_512 = NULL,
	.max_transfer = sim_max_transfer,
};
