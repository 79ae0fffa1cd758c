// SPDX-License-Identifier: MIT
/* ISO 9660 and UDF declared sizes over a whole small image. */
#include "fuzz.h"
#include "probe/fsize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t blocks[] = { 2048, 512 };
	uint64_t n;
	size_t i;

	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		(void)cdt_iso9660_size(data, size, blocks[i], &n);
		(void)cdt_udf_size(data, size, blocks[i], &n);
	}
	return 0;
}
