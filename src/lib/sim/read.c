// SPDX-License-Identifier: MIT
/*
 * READ(10)/(12)/(16) on the emulated drive, and the faults a read meets:
 * the end, run-out, bad and flaky blocks, hangs, INFORMATION, stale data,
 * and fault= (fault.c) where it stops a read.
 */
#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include "mmc/bytes.h"
#include "mmc/mmc.h"
#include "sim/drive.h"

/* Read CDBs, by their own layout; false for every other opcode. */
bool sim_decode_read(const struct cdt_cmd *cmd, struct sim_read *r)
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

/*
 * bad= with ecc=E: a DVD is written in ECC blocks of 16 sectors, a BD in
 * clusters of 32 (ECMA-267 16, the BD cluster), each decoded as one: a
 * defect in one sector fails every sector of its block.
 */
static bool in_bad(const struct sim_config *c, const struct sim_range *r, uint64_t b)
{
	if (!c->ecc)
		return in_range(r, b);
	return b / c->ecc >= r->first / c->ecc && b / c->ecc <= r->last / c->ecc;
}

/*
 * What the disc's structure says of block b below N: a gap block gets
 * gap= (zero: readable), an audio block (its pregap's too: CDEmu) and a TAO
 * data track's 2 run-out blocks 05/64/00, ILLEGAL MODE FOR THIS TRACK (MMC-5; cdemu; libburn
 * mmc.c on TAO run-outs).
 */
static bool layout_fails(const struct sim *s, uint64_t b, struct sim_outcome *o)
{
	const struct sim_track *t = sim_track_at(s, b);

	if (!t) {
		if (s->cfg.gap == SIM_GAP_ZERO)
			return false;
		sim_check(o, s->cfg.gap_key, s->cfg.gap_asc, s->cfg.gap_ascq);
		return true;
	}
	if (t->audio || (s->cfg.tao && b >= t->start && b - t->start >= t->blocks - 2)) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_END_OF_USER_AREA, 0);
		return true;
	}
	return false;
}

/*
 * What a read that reaches the true end N at block b gets (past=): true
 * when it stops there (o filled); false when b reads (zero, repeat).
 * start is the read's first LBA: past=short answers GOOD up to N for a
 * read that started before it, 05/21/00 for one that starts at or past it.
 */
static bool past_end_fails(const struct sim *s, uint64_t start, uint64_t b,
			   struct sim_outcome *o)
{
	switch (s->cfg.past) {
	case SIM_PAST_ZERO:
	case SIM_PAST_REPEAT:
		return false;
	case SIM_PAST_MEDIUM:
		/* tgt fails reads beyond its backing file as unreadable */
		sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
		return true;
	case SIM_PAST_SHORT:
		if (b > start)
			return true;	/* GOOD, the rest is the residual */
		/* fall through */
	case SIM_PAST_END:
	default:
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_LBA_OUT_OF_RANGE, 0);
		return true;
	}
}

/* Why block b cannot be read (o filled, true), or false when it can. */
static bool block_fails(struct sim *s, uint64_t start, uint64_t b,
			struct sim_outcome *o)
{
	const struct sim_config *c = &s->cfg;
	const struct sim_fault *f;
	size_t i;

	if (b >= s->n_blocks) {
		/*
		 * formatted=M: the unwritten formatted area reads as zeros,
		 * but where a bad= range's ECC block (ecc=) reaches into it:
		 * the medium fails the block as one
		 */
		if (b < c->formatted && c->ecc) {
			for (i = 0; i < c->n_bad; i++) {
				if (in_bad(c, &c->bad[i], b)) {
					sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
					return true;
				}
			}
		}
		if (b < c->formatted)
			return false;
		return past_end_fails(s, start, b, o);
	}
	if (layout_fails(s, b, o))
		return true;
	if (s->cue && sim_cue_block_fails(s, b, o))
		return true;
	if (b >= s->n_blocks - c->runout) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_END_OF_USER_AREA, 0);
		return true;
	}
	f = sim_fault_at(s, b);
	if (f && sim_fault_answer(f, o))
		return true;
	/*
	 * css=: a CSS-scrambled sector (a DVD-Video title's VOB) that the
	 * host has not authenticated for answers 05/6F/03 READ OF SCRAMBLED
	 * SECTOR WITHOUT AUTHENTICATION (MMC-5 4.10.3, F.2), at once.
	 */
	if (c->have_css && in_range(&c->css, b)) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_COPY_PROTECTION, ASCQ_SCRAMBLED_NO_AUTH);
		return true;
	}
	for (i = 0; i < c->n_bad; i++) {
		if (in_bad(c, &c->bad[i], b)) {
			sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
			return true;
		}
	}
	if (c->have_flaky && in_range(&c->flaky, b)) {
		/* b < n_blocks here, so it has a counter */
		uint32_t *fails = &s->flaky_fails[b - c->flaky.first];

		if (*fails < c->flaky_times) {
			(*fails)++;
			sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
			return true;
		}
	}
	return false;
}

/* Blocks the image never serves though they read: gaps (gap=zero), unwritten formatted area. */
static bool zero_block(const struct sim *s, uint64_t b)
{
	return b >= s->n_blocks || sim_in_gap(s, b);
}

/* Copy n blocks from the image; a failing pread is a medium error. */
static bool copy_image(struct sim *s, uint64_t lba, uint64_t n, uint8_t *dst)
{
	if (s->cue)
		return sim_cue_copy_user(s, lba, n, dst);
	return sim_pread_all(s->image_fd, dst, (size_t)(n * s->cfg.block_size),
			     (off_t)(lba * s->cfg.block_size));
}

/* past=repeat: every block past N is block N-1 again */
static bool repeat_block(const struct sim *s, uint64_t b)
{
	return s->cfg.past == SIM_PAST_REPEAT && b >= s->n_blocks &&
	       b >= s->cfg.formatted && s->n_blocks;
}

/* n readable blocks at lba: from the image, or zeros where it holds none */
static bool copy_blocks(struct sim *s, uint64_t lba, uint64_t n, uint8_t *dst)
{
	uint32_t bs = s->cfg.block_size;
	uint64_t i = 0;

	while (i < n) {
		if (repeat_block(s, lba + i)) {
			if (!copy_image(s, s->n_blocks - 1, 1, dst + i * bs))
				return false;
			i++;
			continue;
		}
		bool zero = zero_block(s, lba + i);
		uint64_t j = i + 1;

		while (j < n && zero_block(s, lba + j) == zero)
			j++;
		if (zero)
			memset(dst + i * bs, 0, (size_t)((j - i) * bs));
		else if (!copy_image(s, lba + i, j - i, dst + i * bs))
			return false;
		i = j;
	}
	return true;
}

/* gap=hang: a read touching a gap block gets no answer */
static bool hangs_in_gap(const struct sim *s, const struct sim_read *r)
{
	uint64_t i;

	if (s->cfg.gap != SIM_GAP_HANG || s->n_sessions < 2)
		return false;
	for (i = 0; i < r->nblocks && r->lba + i >= r->lba; i++)
		if (sim_in_gap(s, r->lba + i))
			return true;
	return false;
}

/* reveal=1: remember how far reads have reached, failing ones included. */
static void sim_note_touched(struct sim *s, const struct sim_read *r)
{
	uint64_t end = r->lba > UINT64_MAX - r->nblocks ? UINT64_MAX :
		       r->lba + r->nblocks;

	if (end > s->touched_end)
		s->touched_end = end;
}

/* What READ CAPACITY says now: tgt grows its size to cover any read sent. */
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

int sim_do_read(struct sim *s, struct cdt_cmd *cmd, const struct sim_read *r,
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
		sim_invalid_field(o);
		return 0;
	}
	if (hangs_in_gap(s, r)) {
		o->timeout = true;
		return 0;
	}
	sim_note_touched(s, r);
	while (good < r->nblocks && !block_fails(s, r->lba, r->lba + good, o))
		good++;
	/* no answer, or no SCSI status: nothing moved, nothing to sense */
	if (o->timeout || o->host_error)
		return 0;
	if (good && !copy_blocks(s, r->lba, good, cmd->data)) {
		good = 0;
		sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
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
	/*
	 * A scrambled sector is read whole and refused for its header's
	 * copyright bits (ECMA-267, the Data Sector's CPR_MAI): no retries, no FAIL_MS.
	 */
	o->failed_read = !(o->key == SK_ILLEGAL_REQUEST && o->asc == ASC_COPY_PROTECTION);
	set_info(s, r, good, o);
	return 0;
}
