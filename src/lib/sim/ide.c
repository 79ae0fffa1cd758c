// SPDX-License-Identifier: MIT
/*
 * READ CD (0xBE) on the emulated drive: a CUE disc answers it in cuedisc.c;
 * a plain image refuses it (05/20/00, as QEMU's scsi-cd and tgt do), or,
 * with readcd=ide, answers it as QEMU's ide-cd does (hw/ide/atapi.c
 * cmd_read_cd and cd_data_to_raw; REAL-DISCS.md): only byte 9 = 0x10 (the
 * 2048 bytes) or 0xF8 (2352: sync, a header whose M:S:F is binary, not
 * BCD, mode 1, the data, 288 zero bytes where EDC and ECC belong), the
 * expected sector type, the C2 field (byte 9 bits 2-1: QEMU switches on
 * byte 9 & 0xF8) and the subchannel selection ignored, anything else
 * 05/24/00.  Seen through libata, as the kernel shows it: a GOOD READ CD
 * reports residual 0 whatever the buffer's length (measured in QEMU 7.2
 * under the 6.1 kernel, tests/vm/README.md).  Kept apart from cuedisc.c:
 * it reads through read.c, which asks cuedisc.c about CUE sectors.
 */
#include <stdlib.h>
#include <string.h>
#include "mmc/mmc.h"
#include "mmc/readcd.h"
#include "cd/sector.h"
#include "sim/drive.h"

/* byte 9 as QEMU's cmd_read_cd looks at it: the C2 field is not */
#define IDE_FIELDS 0xF8

/* QEMU's header: LBA + 150 as binary minutes, seconds, frames */
static void ide_raw(uint8_t *p, const uint8_t *data, uint64_t lba)
{
	uint64_t a = lba + 150;

	memset(p, 0xff, 12);
	p[0] = p[11] = 0;
	p[12] = (uint8_t)(a / 75 / 60);
	p[13] = (uint8_t)(a / 75 % 60);
	p[14] = (uint8_t)(a % 75);
	p[15] = 1;
	memcpy(p + 16, data, CD_DATA);
	memset(p + 16 + CD_DATA, 0, CD_RAW - 16 - CD_DATA);
}

static void ide_read_cd(struct sim *s, struct cdt_cmd *cmd, struct sim_outcome *o)
{
	struct mmc_read_cd rq;
	struct sim_read r;
	struct cdt_cmd inner;
	uint32_t n, i;
	int64_t lba;
	uint8_t *data;
	uint32_t size;

	if (mmc_parse_read_cd_cdb(cmd->cdb, cmd->cdb_len, &lba, &n, &rq) || lba < 0) {
		sim_invalid_field(o);
		return;
	}
	rq.fields &= IDE_FIELDS;
	if (rq.fields != MMC_RCD_USER && rq.fields != MMC_RCD_RAW && rq.fields) {
		sim_invalid_field(o);
		return;
	}
	if (!n || !rq.fields)
		return;
	size = rq.fields == MMC_RCD_RAW ? CD_RAW : CD_DATA;
	if (!cmd->data || n > cmd->data_len / size) {
		sim_invalid_field(o);
		return;
	}
	data = malloc((size_t)n * CD_DATA);
	if (!data) {
		sim_check(o, SK_MEDIUM_ERROR, ASC_UNRECOVERED_READ, 0);
		return;
	}
	/* the blocks as READ(10) gets them: every fault and key applies */
	inner = *cmd;
	inner.data = data;
	inner.data_len = n * CD_DATA;
	r.lba = (uint64_t)lba;
	r.nblocks = n;
	sim_do_read(s, &inner, &r, o);
	if (rq.fields == MMC_RCD_USER)
		memcpy(cmd->data, data, (size_t)o->blocks_moved * CD_DATA);
	else
		for (i = 0; i < o->blocks_moved; i++)
			ide_raw((uint8_t *)cmd->data + (size_t)i * CD_RAW,
				data + (size_t)i * CD_DATA, (uint64_t)lba + i);
	/* every block came: libata reports no residual (tests/vm/README.md) */
	cmd->resid = o->blocks_moved == n ? 0 : cmd->data_len - (uint32_t)o->blocks_moved * size;
	free(data);
}

void sim_do_read_cd_any(struct sim *s, struct cdt_cmd *cmd, struct sim_outcome *o)
{
	if (s->cue)
		sim_do_read_cd(s, cmd, o);
	else if (s->cfg.readcd_ide && cmd->cdb[0] == MMC_READ_CD)
		ide_read_cd(s, cmd, o);
	else
		sim_check(o, SK_ILLEGAL_REQUEST, ASC_INVALID_OPCODE, 0);
}
