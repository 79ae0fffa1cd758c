// SPDX-License-Identifier: MIT
/*
 * Raw CD sectors (cd/sector.c, edc.c, ecc.c): the input as one answer
 * of any length, then as 2352-byte sectors, each parsed and checked by
 * its kind.  A sector the checks call good is rebuilt from its user data
 * and address: Mode 1 and Form 1 must come out byte for byte the same
 * (the EDC and ECC determine every other byte), which the fuzzer can only
 * reach through the seeds (tests/fuzz/corpus/fuzz_rawsector, sectors
 * from tests/raw/model.py).
 */
#include <string.h>
#include "fuzz.h"
#include "cd/sector.h"

static void rebuild(const uint8_t *s, const struct cd_sector_info *info)
{
	uint8_t again[CD_RAW];

	if (!info->bcd_ok || (s[15] & 0xe0))
		return;
	if (info->kind == CD_SECTOR_MODE1)
		cd_sector_build_mode1(again, s + 16, info->lba);
	else if (info->kind == CD_SECTOR_FORM1)
		cd_sector_build_mode2(again, info->subheader, s + 24, info->lba, true);
	else
		return;
	/* minutes past 99 do not round-trip through BCD */
	if (memcmp(again, s, 16))
		return;
	if (memcmp(again, s, CD_RAW))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cd_sector_info info;
	struct cd_sector_check chk;
	size_t off;

	if (cd_sector_parse(data, size, &info) == 0 && size < CD_RAW)
		__builtin_trap();
	for (off = 0; off + CD_RAW <= size; off += CD_RAW) {
		if (cd_sector_parse(data + off, CD_RAW, &info))
			__builtin_trap();
		if (cd_sector_user_offset(info.kind) + cd_sector_user_size(info.kind) > CD_RAW)
			__builtin_trap();
		if (cd_sector_check(data + off, info.kind, &chk))
			rebuild(data + off, &info);
		(void)cd_sector_kind_name(info.kind);
	}
	return 0;
}
