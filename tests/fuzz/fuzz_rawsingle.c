// SPDX-License-Identifier: MIT
/*
 * image --raw --single-file's sheet (jobs/rawsingle.c) from any text as
 * the multi-file sheet, and the P-W de-interleave (cd/subpw.c) of each
 * 96 bytes of the input: the length returned is the text's made in full,
 * a short buffer holds its start, at most one FILE line comes out; P-W
 * interleaved back is the input again.
 */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "cd/subq.h"
#include "cd/subpw.h"
#include "jobs/rawsingle.h"

#define BIG (1u << 20)

static void check_sheet(const char *text)
{
	struct raw_file f[3] = { { .stream = 0 }, { .stream = 120 }, { .stream = 269999 } };
	struct raw_plan p = { .f = f, .n = 3 };
	char *big = malloc(BIG), small[37], *at;
	size_t n, m, files = 0;

	if (!big)
		return;
	n = raw_sheet_single(big, BIG, text, &p, "o.bin");
	m = raw_sheet_single(small, sizeof(small), text, &p, "o.bin");
	if (n != m)
		__builtin_trap();
	if (n < BIG && strlen(big) != n)
		__builtin_trap();
	if (strlen(small) != (n < sizeof(small) ? n : sizeof(small) - 1) ||
	    memcmp(small, big, strlen(small)))
		__builtin_trap();
	for (at = big; n < BIG && (at = strstr(at, "FILE \"")); at++)
		if (at == big || at[-1] == '\n')
			files++;
	if (files > 1)
		__builtin_trap();
	free(big);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size);
	uint8_t rec[CD_PW_LEN], back[CD_PW_LEN];
	size_t off;

	/* more than a sheet of 99 tracks could be: not this target's */
	if (text && size < 65536)
		check_sheet(text);
	free(text);
	for (off = 0; off + CD_PW_LEN <= size; off += CD_PW_LEN) {
		cd_pw_deinterleave(data + off, rec);
		cd_pw_interleave(rec, back);
		if (memcmp(back, data + off, CD_PW_LEN))
			__builtin_trap();
	}
	return 0;
}
