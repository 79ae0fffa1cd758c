// SPDX-License-Identifier: MIT
/*
 * What the emulated disc is, as the drive tells it: READ CAPACITY,
 * READ TOC, READ DISC INFORMATION, READ TRACK INFORMATION.
 */
#include <string.h>
#include "mmc/bytes.h"
#include "mmc/mmc.h"
#include "sim/drive.h"

uint64_t sim_capacity_now(const struct sim *s)
{
	if (s->cfg.reveal && s->touched_end > s->n_reported)
		return s->touched_end;
	/* opencap= (open=1 only): what drives say of an open DVD±R */
	if (s->cfg.opencap == SIM_OPENCAP_ONE)
		return 1;
	if (s->cfg.opencap == SIM_OPENCAP_LRA && s->n_reported > 1)
		return s->n_reported - 1;
	return s->n_reported;
}


void sim_do_read_capacity10(struct sim *s, struct cdt_cmd *cmd,
			    struct sim_outcome *o)
{
	uint8_t ans[8];

	(void)o;
	sg_put_unaligned_be32(sim_clamp32(sim_capacity_now(s) - 1), ans);
	sg_put_unaligned_be32(s->cfg.block_size, ans + 4);
	sim_put_answer(cmd, ans, sizeof(ans), sizeof(ans));
}

void sim_do_service_action_in(struct sim *s, struct cdt_cmd *cmd,
				 struct sim_outcome *o)
{
	uint8_t ans[32] = { 0 };

	if ((cmd->cdb[1] & 0x1f) != MMC_SAI_READ_CAPACITY16) {
		sim_invalid_field(o);
		return;
	}
	sg_put_unaligned_be64(sim_capacity_now(s) - 1, ans);
	sg_put_unaligned_be32(s->cfg.block_size, ans + 8);
	sim_put_answer(cmd, ans, sizeof(ans), sg_get_unaligned_be32(cmd->cdb + 10));
}

/* A TOC track descriptor or address field, in LBA or 0:M:S:F form. */
static void put_address(uint8_t *p, uint64_t lba, bool msf)
{
	if (!msf) {
		sg_put_unaligned_be32(sim_clamp32(lba), p);
		return;
	}
	p[0] = 0;
	mmc_lba_to_msf((int64_t)(lba > INT32_MAX ? INT32_MAX : lba),
		       &p[1], &p[2], &p[3]);
}

static void put_toc_entry(uint8_t *p, uint8_t control, uint8_t track,
			  uint64_t lba, bool msf)
{
	memset(p, 0, 8);
	p[1] = 0x10 | control;	/* ADR 1: Q sub-channel position */
	p[2] = track;
	put_address(p + 4, lba, msf);
}

/* Where the TOC says session sn's lead-out starts. */
static uint64_t session_leadout(const struct sim *s, uint32_t sn)
{
	const struct sim_track *t = sim_session_last(s, sn);

	if (sn == s->n_sessions)
		return s->cfg.toc == SIM_TOC_TRUE ? s->n_blocks : s->n_reported;
	return t->start + t->blocks;
}

/* Format 0: every track from the one asked for, then the lead-out. */
static size_t toc_format0(const struct sim *s, uint8_t from, bool msf,
			  uint8_t *ans, struct sim_outcome *o)
{
	const struct sim_track *last = &s->tracks[s->n_tracks - 1];
	size_t len = 4;
	uint32_t i;

	if (from > s->n_tracks && from != 0xaa) {
		sim_invalid_field(o);
		return 0;
	}
	ans[2] = 1;
	ans[3] = (uint8_t)s->n_tracks;
	for (i = 0; i < s->n_tracks && from != 0xaa; i++) {
		const struct sim_track *t = &s->tracks[i];

		if (t->number < from)
			continue;
		put_toc_entry(ans + len, sim_track_control(t), (uint8_t)t->number,
			      t->start, msf);
		len += 8;
	}
	put_toc_entry(ans + len, sim_track_control(last), 0xaa,
		      session_leadout(s, s->n_sessions), msf);
	return len + 8;
}

/* Format 1: the first track of the last session and where it starts. */
static size_t toc_format1(const struct sim *s, bool msf, uint8_t *ans)
{
	const struct sim_track *t = sim_session_first(s, s->n_sessions);

	ans[2] = 1;
	ans[3] = (uint8_t)s->n_sessions;
	put_toc_entry(ans + 4, sim_track_control(t), (uint8_t)t->number, t->start,
		      msf);
	return 12;
}

/* One 11-byte full-TOC descriptor: P-MSF is an absolute time (+150). */
static size_t put_full(uint8_t *p, uint32_t sn, uint8_t adr_control,
		       uint8_t point, const uint8_t msf[3], uint64_t plba)
{
	memset(p, 0, 11);
	p[0] = (uint8_t)sn;
	p[1] = adr_control;
	p[3] = point;
	if (msf)
		memcpy(p + 4, msf, 3);
	mmc_lba_to_msf((int64_t)(plba > SIM_LAST_LEADOUT ? SIM_LAST_LEADOUT : plba),
		       &p[8], &p[9], &p[10]);
	return 11;
}

/* A0/A1 carry a number, not a time, in PMIN (PSEC: the disc type) */
static size_t put_full_number(uint8_t *p, uint32_t sn, uint8_t control,
			      uint8_t point, uint8_t pmin, uint8_t psec)
{
	memset(p, 0, 11);
	p[0] = (uint8_t)sn;
	p[1] = 0x10 | control;
	p[3] = point;
	p[8] = pmin;
	p[9] = psec;
	return 11;
}

/* CD-ROM XA (20h) when there are several sessions, else CD-DA/CD-ROM (00h) */
static uint8_t disc_type(const struct sim *s)
{
	return s->n_sessions > 1 ? 0x20 : 0x00;
}

/* Where the session after sn may start: its lead-out, lead-in and pregap on. */
static uint64_t next_program_area(const struct sim *s, uint32_t sn)
{
	const struct sim_track *t = sim_session_last(s, sn);

	return t->start + t->blocks + sim_gap_after(sn);
}

static size_t full_session(const struct sim *s, uint32_t sn, uint8_t *p)
{
	const struct sim_track *first = sim_session_first(s, sn);
	const struct sim_track *last = sim_session_last(s, sn);
	size_t len = 0;
	uint32_t i;

	len += put_full_number(p + len, sn, sim_track_control(first), 0xa0,
			       (uint8_t)first->number, disc_type(s));
	len += put_full_number(p + len, sn, sim_track_control(last), 0xa1,
			       (uint8_t)last->number, 0);
	len += put_full(p + len, sn, 0x10 | sim_track_control(last), 0xa2, NULL,
			session_leadout(s, sn));
	for (i = 0; i < s->n_tracks; i++) {
		const struct sim_track *t = &s->tracks[i];

		if (t->session == sn)
			len += put_full(p + len, sn, 0x10 | sim_track_control(t),
					(uint8_t)t->number, NULL, t->start);
	}
	/*
	 * B0 (ADR 5): another session may follow.  Every session but a
	 * closed disc's last one allows it; MIN:SEC:FRAME is where the next
	 * program area starts, PMIN:PSEC:PFRAME the outermost lead-out.
	 */
	if (sn < s->n_sessions || s->cfg.open) {
		uint8_t next[3];

		mmc_lba_to_msf((int64_t)next_program_area(s, sn), &next[0],
			       &next[1], &next[2]);
		len += put_full(p + len, sn, 0x50 | sim_track_control(last), 0xb0,
				next, SIM_LAST_LEADOUT);
	}
	return len;
}

/* Format 2 (MMC full TOC): first and last session, then descriptors. */
static size_t toc_format2(const struct sim *s, uint8_t *ans)
{
	size_t len = 4;
	uint32_t sn;

	ans[2] = 1;
	ans[3] = (uint8_t)s->n_sessions;
	for (sn = 1; sn <= s->n_sessions; sn++)
		len += full_session(s, sn, ans + len);
	return len;
}

/* 4-byte header, format 0's 100 entries or format 2's 4 per session + 99 */
#define SIM_TOC_MAX (4 + 11 * (99 + 4 * 99))

void sim_do_read_toc(struct sim *s, struct cdt_cmd *cmd, struct sim_outcome *o)
{
	const uint8_t *cdb = cmd->cdb;
	uint8_t format = cdb[2] & 0x0f;
	bool msf = cdb[1] & 0x02;
	uint8_t ans[SIM_TOC_MAX] = { 0 };
	size_t len, sent;

	if (format == 5 && s->cfg.toc != SIM_TOC_NONE) {
		sim_read_cd_text(s, cmd, o);
		return;
	}
	if (s->cfg.toc == SIM_TOC_NONE || format > 2 ||
	    (format == 2 && !sim_profile_is_cd(sim_profile(s)))) {
		sim_invalid_field(o);
		return;
	}
	if (format == 0)
		len = toc_format0(s, cdb[6], msf, ans, o);
	else if (format == 1)
		len = toc_format1(s, msf, ans);
	else
		len = toc_format2(s, ans);
	if (o->check)
		return;
	sg_put_unaligned_be16((uint16_t)(len - 2), ans);
	/* tgt's header counts the whole lead-out entry but sends 2 bytes less */
	sent = len;
	if (format == 0 && s->cfg.toc == SIM_TOC_CUT)
		sent -= 2;
	sim_put_answer(cmd, ans, sent, sg_get_unaligned_be16(cdb + 7));
}

static bool profile_erasable(uint16_t p)
{
	return p == 0x000a || p == 0x0012 || p == 0x001a || p == 0x0043;
}

/* A disc-information address: M:S:F on a CD, an LBA elsewhere (MMC). */
static void put_disc_address(const struct sim *s, uint8_t *p, uint64_t lba)
{
	if (sim_profile_is_cd(sim_profile(s)))
		put_address(p, lba, true);
	else
		sg_put_unaligned_be32(sim_clamp32(lba), p);
}

/*
 * open=1: the last closed session is followed by an empty one holding an
 * invisible blank track (as dvd+rw-mediainfo shows appendable discs:
 * "State of Last Session: empty"), counted in the sessions and tracks.
 */
void sim_do_read_disc_info(struct sim *s, struct cdt_cmd *cmd,
			   struct sim_outcome *o)
{
	const struct sim_track *first = sim_session_first(s, s->n_sessions);
	uint16_t profile = sim_profile(s);
	uint8_t ans[34] = { 0 };
	bool open = s->cfg.open;

	if (cmd->cdb[1] & 0x07) {	/* only data type 0, standard info */
		sim_invalid_field(o);
		return;
	}
	sg_put_unaligned_be16(sizeof(ans) - 2, ans);
	/* last session empty, disc appendable; or both complete */
	ans[2] = open ? 0 << 2 | 1 : 3 << 2 | 2;
	if (profile_erasable(profile))
		ans[2] |= 0x10;
	ans[3] = 1;		/* first track */
	ans[4] = (uint8_t)(s->n_sessions + open);
	ans[5] = (uint8_t)(open ? s->n_tracks + 1 : first->number);
	ans[6] = (uint8_t)(open ? s->n_tracks + 1 : s->n_tracks);
	ans[8] = disc_type(s);
	if (open) {
		uint64_t leadout = session_leadout(s, s->n_sessions);
		uint64_t leadin = leadout + (s->n_sessions == 1 ?
				  SIM_LEADOUT_FIRST : SIM_LEADOUT_LATER);

		put_disc_address(s, ans + 16, leadin);
		put_disc_address(s, ans + 20, SIM_LAST_LEADOUT);
	} else {
		/* complete: no lead-in or last possible lead-out (Pioneer: FFh) */
		memset(ans + 16, 0xff, 8);
	}
	sim_put_answer(cmd, ans, sizeof(ans), sg_get_unaligned_be16(cmd->cdb + 7));
}

/* open=1: the invisible blank track after the last session's lead-out */
static uint64_t blank_start(const struct sim *s)
{
	return session_leadout(s, s->n_sessions) + sim_gap_after(s->n_sessions);
}

static void put_blank_track(const struct sim *s, uint8_t *ans)
{
	uint64_t start = blank_start(s);
	uint64_t size = start < SIM_LAST_LEADOUT ? SIM_LAST_LEADOUT - start : 0;

	ans[2] = (uint8_t)(s->n_tracks + 1);
	ans[3] = (uint8_t)(s->n_sessions + 1);
	ans[5] = 0x04;		/* data, recorded uninterrupted (when it is) */
	ans[6] = 0x40 | 0x0f;	/* blank, data mode not yet known */
	ans[7] = 0x01;		/* NWA_V */
	sg_put_unaligned_be32(sim_clamp32(start), ans + 8);
	sg_put_unaligned_be32(sim_clamp32(start), ans + 12);
	sg_put_unaligned_be32(sim_clamp32(size), ans + 16);
	sg_put_unaligned_be32(sim_clamp32(size), ans + 24);
}

/*
 * Where READ TRACK INFORMATION says t starts, signed as MMC's LBAs are
 * (-150 is 00:00:00), and how many blocks it counts from there.
 * trackinfo=index1: the TOC's index 01, the track running to the next
 * track's index 01 in its session (the next pregap counted here).
 * trackinfo=pregap: the track's own pregap (index 00) on, track 1 from
 * -150, as CDEmu's libMirage answers (doc/disc-kinds.md).
 */
static int64_t track_info_extent(const struct sim *s, const struct sim_track *t,
				 uint64_t *blocks)
{
	const struct sim_track *next = t->number < s->n_tracks ? t + 1 : NULL;
	uint64_t lead = t->number == 1 ? SIM_PREGAP : 0;

	*blocks = sim_track_blocks(s, t);
	if (s->cfg.trackinfo_pregap) {
		*blocks += t->pregap + lead;
		return (int64_t)(t->start - t->pregap) - (int64_t)lead;
	}
	if (next && next->session == t->session)
		*blocks += next->pregap;
	return (int64_t)t->start;
}

static void put_track(const struct sim *s, const struct sim_track *t,
		      uint8_t *ans)
{
	uint64_t blocks;
	int64_t start = track_info_extent(s, t, &blocks);

	ans[2] = (uint8_t)t->number;
	ans[3] = (uint8_t)t->session;
	ans[5] = sim_track_control(t);	/* track mode: the TOC's control */
	ans[6] = t->audio ? 0x0f : 0x01;	/* data mode 1, or none */
	ans[7] = 0x02;		/* LRA_V */
	sg_put_unaligned_be32((uint32_t)(int32_t)start, ans + 8);
	sg_put_unaligned_be32(sim_clamp32(blocks), ans + 24);
	sg_put_unaligned_be32((uint32_t)(int32_t)(start + (int64_t)blocks - 1), ans + 28);
}

/* The track an address names: 0 an LBA, 1 a track number, 2 a session. */
static int find_track(const struct sim *s, uint8_t type, uint32_t addr,
		      const struct sim_track **t, struct sim_outcome *o)
{
	bool open = s->cfg.open;

	*t = NULL;
	if (type == 0) {
		const struct sim_track *last = &s->tracks[s->n_tracks - 1];

		if (open && addr >= blank_start(s) && addr < SIM_LAST_LEADOUT)
			return 1;
		if (addr >= last->start + sim_track_blocks(s, last)) {
			sim_check(o, SK_ILLEGAL_REQUEST, ASC_LBA_OUT_OF_RANGE, 0);
			return -1;
		}
		*t = sim_track_at(s, addr);
	} else if (type == 1) {
		if (open && addr == s->n_tracks + 1)
			return 1;
		if (addr >= 1 && addr <= s->n_tracks)
			*t = &s->tracks[addr - 1];
	} else if (type == 2) {
		if (open && addr == s->n_sessions + 1)
			return 1;
		if (addr >= 1 && addr <= s->n_sessions)
			*t = sim_session_first(s, addr);
	}
	if (!*t) {
		/* a gap LBA, or no such track or session */
		sim_invalid_field(o);
		return -1;
	}
	return 0;
}

void sim_do_read_track_info(struct sim *s, struct cdt_cmd *cmd,
			    struct sim_outcome *o)
{
	uint8_t type = cmd->cdb[1] & 0x03;
	uint32_t addr = sg_get_unaligned_be32(cmd->cdb + 2);
	const struct sim_track *t;
	uint8_t ans[36] = { 0 };
	int rc;

	rc = find_track(s, type, addr, &t, o);
	if (rc < 0)
		return;
	sg_put_unaligned_be16(sizeof(ans) - 2, ans);
	if (rc)
		put_blank_track(s, ans);
	else
		put_track(s, t, ans);
	sim_put_answer(cmd, ans, sizeof(ans), sg_get_unaligned_be16(cmd->cdb + 7));
}
