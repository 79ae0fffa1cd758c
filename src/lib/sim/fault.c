// SPDX-License-Identifier: MIT
/*
 * The ways real drives fail a read, on the emulated drive: fault=KIND@A-B[xT]
 * (timeouts followed by a reset, hardware errors, CHECK CONDITION without
 * sense, aborted commands, host errors, short GOOD reads, Mode 2 Form 2
 * sectors, deferred errors), ready=MS[@0] (the NOT READY period after a
 * reset or an insertion) and past= (what a read past the true end gets).
 * The answers are the ones the Linux sr/sg drivers and sg3_utils are
 * written to meet: SPC-4 4.5 (sense, deferred errors), MMC-5 4.2.3
 * (becoming ready), drivers/scsi/sr_ioctl.c (a drive that spins up).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "cdtail.h"
#include "mmc/mmc.h"
#include "mmc/readcd.h"
#include "sim/drive.h"

/* In enum sim_fault_kind's order. */
static const char *const kind_words[] = {
	"timeout", "hwerr", "nosense", "aborted", "host", "short", "form2",
	"deferred", "gone", "eject",
};

#define N_KINDS (sizeof(kind_words) / sizeof(kind_words[0]))

static int parse_dec(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!len)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned int d = (unsigned int)(s[i] - '0');

		if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* "A-B" or "A-BxT" of len bytes at s into f's range and count. */
static int parse_where(const char *s, size_t len, struct sim_fault *f)
{
	const char *dash = memchr(s, '-', len);
	const char *x = memchr(s, 'x', len);
	size_t last_len;
	uint64_t t = 0;

	if (!dash || (x && x < dash))
		return -1;
	last_len = (size_t)((x ? x : s + len) - dash - 1);
	if (parse_dec(s, (size_t)(dash - s), &f->r.first) ||
	    parse_dec(dash + 1, last_len, &f->r.last) || f->r.first > f->r.last)
		return -1;
	/* x0 would be a fault that never happens: surely a typo */
	if (x && (parse_dec(x + 1, (size_t)(s + len - x - 1), &t) || !t ||
		  t > UINT32_MAX))
		return -1;
	f->times = (uint32_t)t;
	return 0;
}

/* One "KIND@A-B[xT]" of len bytes at s. */
static int parse_fault(const char *s, size_t len, struct sim_fault *f)
{
	const char *at = memchr(s, '@', len);
	size_t i, klen;

	if (!at)
		return -1;
	klen = (size_t)(at - s);
	for (i = 0; i < N_KINDS; i++)
		if (strlen(kind_words[i]) == klen && !memcmp(s, kind_words[i], klen))
			break;
	if (i == N_KINDS)
		return -1;
	f->kind = (enum sim_fault_kind)i;
	return parse_where(at + 1, len - klen - 1, f);
}

int sim_key_fault(struct sim_config *c, const char *v)
{
	size_t n = 1, i = 0;
	const char *p;

	for (p = v; *p; p++)
		n += *p == ':';
	c->faults = calloc(n, sizeof(*c->faults));
	if (!c->faults)
		return CDT_ENOMEM;
	for (p = v;; i++) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);

		if (parse_fault(p, len, &c->faults[i]))
			return CDT_EUSAGE;
		if (!colon)
			break;
		p = colon + 1;
	}
	c->n_faults = n;
	return 0;
}

int sim_key_ready(struct sim_config *c, const char *v)
{
	const char *at = strchr(v, '@');
	size_t len = at ? (size_t)(at - v) : strlen(v);

	if (parse_dec(v, len, &c->ready_ms) || c->ready_ms > UINT32_MAX)
		return CDT_EUSAGE;
	if (at && strcmp(at, "@0"))
		return CDT_EUSAGE;
	c->ready_at_insert = at != NULL;
	return 0;
}

int sim_key_past(struct sim_config *c, const char *v)
{
	/* in enum sim_past's order */
	static const char *const words[] = { "end", "medium", "zero", "repeat",
					     "short" };
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strcmp(v, words[i])) {
			c->past = (enum sim_past)i;
			return 0;
		}
	}
	return CDT_EUSAGE;
}

/* Like bad= and flaky=: a fault only past the image can never happen. */
int sim_check_fault_ranges(const struct sim_config *c, uint64_t n, char *err,
			   size_t errlen)
{
	size_t i;

	for (i = 0; i < c->n_faults; i++) {
		const struct sim_range *r = &c->faults[i].r;

		if (r->first < n)
			continue;
		snprintf(err, errlen, "sim: fault=%s@%" PRIu64 "-%" PRIu64
			 " lies past the image, whose %" PRIu64 " blocks are LBAs 0-%" PRIu64,
			 kind_words[c->faults[i].kind], r->first, r->last, n,
			 n ? n - 1 : 0);
		return CDT_EUSAGE;
	}
	return 0;
}

/* A counter per block below N for each fault with xT; the clock at open. */
int sim_fault_alloc(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	size_t i;

	if (c->ready_at_insert)
		s->ready_at_ms = (double)c->ready_ms;
	if (!c->n_faults)
		return 0;
	s->fault_hits = calloc(c->n_faults, sizeof(*s->fault_hits));
	if (!s->fault_hits)
		goto nomem;
	for (i = 0; i < c->n_faults; i++) {
		const struct sim_fault *f = &c->faults[i];
		uint64_t last = f->r.last < s->n_blocks ? f->r.last : s->n_blocks - 1;

		/* sim_check_fault_ranges ran: first < N */
		if (!f->times)
			continue;
		s->fault_hits[i] = calloc(last - f->r.first + 1, sizeof(uint32_t));
		if (!s->fault_hits[i])
			goto nomem;
	}
	return 0;
nomem:
	snprintf(err, errlen, "sim: out of memory");
	return CDT_ENOMEM;
}

void sim_fault_free(struct sim *s)
{
	size_t i;

	if (s->fault_hits)
		for (i = 0; i < s->cfg.n_faults; i++)
			free(s->fault_hits[i]);
	free(s->fault_hits);
	free(s->cfg.faults);
}

/* Does fault i answer this read of b (and count it)? */
static bool fault_fires(struct sim *s, size_t i, uint64_t b)
{
	const struct sim_fault *f = &s->cfg.faults[i];
	uint32_t *hits;

	if (b < f->r.first || b > f->r.last)
		return false;
	if (!f->times)
		return true;
	hits = &s->fault_hits[i][b - f->r.first];
	if (*hits >= f->times)
		return false;
	(*hits)++;
	return true;
}

const struct sim_fault *sim_fault_at(struct sim *s, uint64_t b)
{
	size_t i;

	for (i = 0; i < s->cfg.n_faults; i++) {
		if (!fault_fires(s, i, b))
			continue;
		/* the read goes on; its error is reported on the next command */
		if (s->cfg.faults[i].kind == SIM_FAULT_DEFERRED) {
			s->deferred_pending = true;
			continue;
		}
		return &s->cfg.faults[i];
	}
	return NULL;
}

bool sim_fault_answer(const struct sim_fault *f, struct sim_outcome *o)
{
	switch (f->kind) {
	case SIM_FAULT_TIMEOUT:
		o->timeout = true;
		o->reset = true;
		break;
	case SIM_FAULT_HWERR:
		sim_check(o, SK_HARDWARE_ERROR, ASC_TRACKING_ERROR,
			  ASCQ_TRACKING_SERVO);
		break;
	case SIM_FAULT_NOSENSE:
		o->check = true;
		o->no_sense = true;
		break;
	case SIM_FAULT_ABORTED:
		sim_check(o, SK_ABORTED_COMMAND, ASC_DATA_PHASE_ERROR, 0);
		break;
	case SIM_FAULT_HOST:
		o->host_error = true;
		break;
	case SIM_FAULT_GONE:
		o->host_error = true;
		o->gone = true;
		break;
	case SIM_FAULT_EJECT:
		sim_check(o, SK_NOT_READY, ASC_NO_MEDIUM, 0);
		o->eject = true;
		break;
	case SIM_FAULT_SHORT:
		/* GOOD: nothing in o; the read stops here all the same */
		break;
	case SIM_FAULT_FORM2:
		/* READ(10) of a Form 2 sector: 2048 is not its length (MMC-5) */
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_END_OF_USER_AREA, 0);
		o->ili = true;
		break;
	case SIM_FAULT_DEFERRED:
		return false;
	}
	return true;
}

/*
 * SPC-4 lets INQUIRY and REQUEST SENSE through whatever state the unit
 * is in (6.6, 6.39): the device layer asks INQUIRY to know the drive.
 */
static bool always_answered(uint8_t opcode)
{
	return opcode == MMC_INQUIRY || opcode == MMC_REQUEST_SENSE;
}

/*
 * While the drive is becoming ready, which commands answer NOT READY.
 * notready=all (the default, CONTRACT.md's ready=): every one but
 * INQUIRY and REQUEST SENSE, the hardest drive for the layers above.
 * notready=mmc: as MMC-5 4.1.8 has a drive report the Not Ready condition
 * only to commands that need the medium, and as QEMU's ATAPI drive does
 * (hw/ide/atapi.c atapi_cmd_table: CHECK_READY on TEST UNIT READY, READ
 * CAPACITY, READ(10)/(12), READ TOC, READ DISC INFORMATION, READ DVD
 * STRUCTURE, READ CD; GET CONFIGURATION, GET EVENT STATUS NOTIFICATION,
 * MODE SENSE, MECHANISM STATUS answered): the medium's commands below
 * are refused, the drive's own answered (REPORT LUNS is SPC-4's, 6.33).
 * READ FORMAT CAPACITIES and READ TRACK INFORMATION describe the medium,
 * so they wait for it too.
 */
static bool needs_medium(uint8_t opcode)
{
	switch (opcode) {
	case MMC_TEST_UNIT_READY:
	case MMC_READ_FORMAT_CAPACITIES:
	case MMC_READ_CAPACITY10:
	case MMC_READ10:
	case MMC_READ_TOC:
	case MMC_READ_DISC_INFO:
	case MMC_READ_TRACK_INFO:
	case MMC_READ16:
	case MMC_SERVICE_ACTION_IN16:
	case MMC_READ12:
	case MMC_READ_DVD_STRUCTURE:
	case MMC_READ_CD:
	case MMC_READ_CD_MSF:
		return true;
	default:
		return false;
	}
}

static bool refused_not_ready(const struct sim *s, uint8_t opcode)
{
	return s->clock_ms < s->ready_at_ms &&
	       (!s->cfg.notready_mmc || needs_medium(opcode));
}

bool sim_fault_preempts(struct sim *s, const struct cdt_cmd *cmd,
			struct sim_outcome *o)
{
	/* an unplugged drive answers nothing (scsi_error.c: DID_NO_CONNECT) */
	if (s->gone) {
		o->host_error = true;
		o->gone = true;
		return true;
	}
	if (always_answered(cmd->cdb[0]))
		return false;
	/* the disc is out: MMC-5 F.2 02/3A/00 to all but the drive's own */
	if (s->ejected) {
		sim_check(o, SK_NOT_READY, ASC_NO_MEDIUM, 0);
		return true;
	}
	/*
	 * A deferred error is reported on the next command, which is not
	 * carried out (SPC-4 4.5.5): it must be sent again.
	 */
	if (s->deferred_pending) {
		s->deferred_pending = false;
		sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
		o->deferred = true;
		return true;
	}
	if (refused_not_ready(s, cmd->cdb[0])) {
		sim_check(o, SK_NOT_READY, ASC_NOT_READY, ASCQ_BECOMING_READY);
		return true;
	}
	return false;
}

void sim_fault_after(struct sim *s, const struct sim_outcome *o, double ms)
{
	s->clock_ms += ms;
	s->gone |= o->gone;
	s->ejected |= o->eject;
	/* the host's error handler resets a drive that timed out (scsi_error.c) */
	if (o->reset)
		s->ready_at_ms = s->clock_ms + (double)s->cfg.ready_ms;
}
