// SPDX-License-Identifier: MIT
/*
 * The Q subchannel and READ CD's subchannel answers (cd/subq.c): the
 * input as one formatted Q of any length, as 96-byte raw P-W blocks
 * de-interleaved to Q, as a READ CD CDB and as a GET CONFIGURATION answer
 * holding the CD Read feature (mmc/readcd.c).  A Q whose
 * CRC and BCD hold is rebuilt from its fields and must come out the same.
 */
#include <string.h>
#include "fuzz.h"
#include "mmc/readcd.h"
#include "cd/subq.h"

static void check_q(const uint8_t *q, size_t len)
{
	struct cd_subq sq;
	uint8_t again[CD_Q_LEN], pw[CD_PW_LEN];

	if (cd_subq_parse(q, len, &sq)) {
		if (len >= CD_Q_LEN)
			__builtin_trap();
		return;
	}
	if (sq.crc != CD_Q_CRC_OK || !sq.bcd_ok || sq.adr != 1 || q[6])
		return;
	cd_subq_build(again, sq.control, sq.track, sq.index, sq.relative, sq.lba);
	if (memcmp(again, q, CD_Q_LEN))
		__builtin_trap();
	cd_q_to_pw(q, false, pw);
	if (cd_pw_to_q(pw, sizeof(pw), again) || memcmp(again, q, CD_Q_LEN))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mmc_cd_read_feature f;
	struct mmc_read_cd rq;
	uint8_t q[CD_Q_LEN];
	uint32_t n;
	int64_t lba;
	size_t off;

	check_q(data, size);
	if (mmc_parse_cd_read_feature(data, size, &f) == 0 && size < 8)
		__builtin_trap();
	for (off = 0; off + CD_PW_LEN <= size; off += CD_PW_LEN) {
		if (cd_pw_to_q(data + off, CD_PW_LEN, q))
			__builtin_trap();
		check_q(q, sizeof(q));
	}
	if (mmc_parse_read_cd_cdb(data, size > 16 ? 16 : (unsigned int)size,
				  &lba, &n, &rq) == 0) {
		(void)mmc_read_cd_main_size(&rq, rq.type);
		if (mmc_read_cd_extra_size(&rq) > MMC_C2_BLOCK_LEN + CD_PW_LEN)
			__builtin_trap();
	}
	return 0;
}
