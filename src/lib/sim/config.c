// SPDX-License-Identifier: MIT
/*
 * What the emulated drive is: INQUIRY, REQUEST SENSE, GET CONFIGURATION
 * and the mode pages.
 */
#include <string.h>
#include "mmc/bytes.h"
#include "mmc/mmc.h"
#include "sim/drive.h"

void sim_do_inquiry(struct sim *s, struct cdt_cmd *cmd, struct sim_outcome *o)
{
	uint8_t ans[36] = { 0 };
	size_t n = strlen(s->cfg.product);

	/* no VPD pages, and a page code is only valid with EVPD */
	if ((cmd->cdb[1] & 0x01) || cmd->cdb[2]) {
		sim_invalid_field(o);
		return;
	}
	ans[0] = 0x05;		/* CD/DVD device */
	ans[1] = 0x80;		/* RMB */
	ans[2] = 0x05;		/* SPC-3 */
	ans[3] = 0x02;
	ans[4] = sizeof(ans) - 5;
	memcpy(ans + 8, "CDTAIL  ", 8);
	/* SPC: ASCII, left-aligned, padded with spaces */
	if (n) {
		memset(ans + 16, ' ', 16);
		memcpy(ans + 16, s->cfg.product, n);
	} else {
		memcpy(ans + 16, "EMULATED DRIVE  ", 16);
	}
	memcpy(ans + 32, "1.0 ", 4);
	sim_put_answer(cmd, ans, sizeof(ans), sg_get_unaligned_be16(cmd->cdb + 3));
}

void sim_do_request_sense(struct sim *s, struct cdt_cmd *cmd,
			  struct sim_outcome *o)
{
	uint8_t ans[SIM_SENSE_LEN] = { 0x70 };

	(void)s;
	(void)o;
	ans[7] = SIM_SENSE_LEN - 8;
	sim_put_answer(cmd, ans, sizeof(ans), cmd->cdb[4]);
}

static uint16_t current_profile(const struct sim *s)
{
	return sim_profile(s);
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
	} else if (code == 0x0001) {
		sg_put_unaligned_be32(0x00000001, p + 4);	/* physical interface: SCSI family */
	} else {
		p[2] = 0x0b;	/* CD Read, version 2 (MMC-4), persistent, current */
		/* C2 error pointers, CD-Text where the sheet holds it; no DAP */
		p[4] = (uint8_t)(0x02 | (sim_has_cd_text(s) ? 0x01 : 0));
	}
	return 8;
}

void sim_do_get_configuration(struct sim *s, struct cdt_cmd *cmd,
				 struct sim_outcome *o)
{
	/* 001Eh CD Read only where READ CD is answered: a CUE disc */
	static const uint16_t features[] = { 0x0000, 0x0001, 0x001e };
	uint8_t rt = cmd->cdb[1] & 0x03;
	uint16_t start = sg_get_unaligned_be16(cmd->cdb + 2);
	uint8_t ans[8 + 3 * 8] = { 0 };
	size_t len = 8, i;

	if (rt == 3) {
		sim_invalid_field(o);
		return;
	}
	/* both features are always current, so RT 0 and 1 list the same */
	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		if (rt == 2 ? features[i] != start : features[i] < start)
			continue;
		if (features[i] == 0x001e && !s->cue)
			continue;
		len += put_feature(s, features[i], ans + len);
	}
	sg_put_unaligned_be32((uint32_t)(len - 4), ans);
	sg_put_unaligned_be16(current_profile(s), ans + 6);
	if (s->cfg.getconf_full)
		sim_put_padded_answer(cmd, ans, len, sg_get_unaligned_be16(cmd->cdb + 7));
	else
		sim_put_answer(cmd, ans, len, sg_get_unaligned_be16(cmd->cdb + 7));
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

void sim_do_mode_sense10(struct sim *s, struct cdt_cmd *cmd,
			 struct sim_outcome *o)
{
	uint8_t page = cmd->cdb[2] & 0x3f;
	uint8_t pc = cmd->cdb[2] >> 6;
	bool changeable = pc == 1;
	uint8_t ans[8 + 20 + 22];
	size_t len = 8;

	(void)s;
	if (pc == 3) {
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_SAVING_NOT_SUPPORTED, 0);
		return;
	}
	if (cmd->cdb[3] || (page != 0x08 && page != 0x2a && page != 0x3f)) {
		sim_invalid_field(o);
		return;
	}
	/* no block descriptors; device-specific 0: no DPOFUA, not protected */
	memset(ans, 0, 8);
	if (page == 0x08 || page == 0x3f)
		len += put_caching_page(ans + len);
	if (page == 0x2a || page == 0x3f)
		len += put_capabilities_page(ans + len, changeable);
	sg_put_unaligned_be16((uint16_t)(len - 2), ans);
	sim_put_answer(cmd, ans, len, sg_get_unaligned_be16(cmd->cdb + 7));
}

