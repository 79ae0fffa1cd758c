// SPDX-License-Identifier: MIT
/*
 * What the emulated disc is, as the drive tells it: READ CAPACITY,
 * READ TOC, READ DISC INFORMATION, READ TRACK INFORMATION.
 */
#include <string.h>
#include "scsi/bytes.h"
#include "scsi/mmc.h"
#include "transport/sim/sim.h"

uint64_t sim_capacity_now(const struct sim *s)
{
	if (s->cfg.reveal && s->touched_end > s->n_reported)
		return s->touched_end;
	return s->n_reported;
}


void sim_do_read_capacity10(struct sim *s, struct cdt_cmd *cmd)
{
	uint8_t ans[8];

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

static void put_toc_track(uint8_t *p, uint8_t track, uint64_t lba, bool msf)
{
	memset(p, 0, 8);
	p[1] = 0x14;		/* ADR 1 (Q position), control 4: data track */
	p[2] = track;
	put_address(p + 4, lba, msf);
}

void sim_do_read_toc(struct sim *s, struct cdt_cmd *cmd, struct sim_outcome *o)
{
	const uint8_t *cdb = cmd->cdb;
	uint8_t format = cdb[2] & 0x0f;
	bool msf = cdb[1] & 0x02;
	uint8_t track = cdb[6];
	uint64_t leadout;
	uint8_t ans[4 + 2 * 8];
	size_t len = 4, sent;

	if (s->cfg.toc == SIM_TOC_NONE || format > 1) {
		sim_invalid_field(o);
		return;
	}
	ans[2] = 1;		/* first track, or first session */
	ans[3] = 1;		/* last track, or last session */
	if (format == 1) {
		put_toc_track(ans + len, 1, 0, msf);
		len += 8;
	} else {
		if (track > 1 && track != 0xaa) {
			sim_invalid_field(o);
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
	sim_put_answer(cmd, ans, sent, sg_get_unaligned_be16(cdb + 7));
}

void sim_do_read_disc_info(struct cdt_cmd *cmd, struct sim_outcome *o)
{
	uint8_t ans[34] = { 0 };

	if (cmd->cdb[1] & 0x07) {	/* only data type 0, standard info */
		sim_invalid_field(o);
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
	sim_put_answer(cmd, ans, sizeof(ans), sg_get_unaligned_be16(cmd->cdb + 7));
}

void sim_do_read_track_info(struct sim *s, struct cdt_cmd *cmd,
			       struct sim_outcome *o)
{
	uint8_t type = cmd->cdb[1] & 0x03;
	uint32_t addr = sg_get_unaligned_be32(cmd->cdb + 2);
	uint8_t ans[36] = { 0 };

	if (type == 0 && addr >= s->n_reported) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_LBA_OUT_OF_RANGE, 0);
		return;
	}
	/* type 1: track 1; type 2: session 1, whose first track is 1 */
	if (type == 3 || (type != 0 && addr != 1)) {
		sim_invalid_field(o);
		return;
	}
	sg_put_unaligned_be16(sizeof(ans) - 2, ans);
	ans[2] = 1;		/* track */
	ans[3] = 1;		/* session */
	ans[5] = 0x04;		/* track mode: data, recorded uninterrupted */
	ans[6] = 0x01;		/* data mode 1 */
	ans[7] = 0x02;		/* LRA_V */
	sg_put_unaligned_be32(sim_clamp32(s->n_reported), ans + 24);
	sg_put_unaligned_be32(sim_clamp32(s->n_reported - 1), ans + 28);
	sim_put_answer(cmd, ans, sizeof(ans), sg_get_unaligned_be16(cmd->cdb + 7));
}

