// SPDX-License-Identifier: MIT
/*
 * The map comment lines of a disc's identity ("# cdtail identity: ...",
 * book/identity.h), read by the records' strict parser (book/records.h),
 * with the end search's state (search=pending, or max_extra=M
 * search=window, issue 28 B).  An accepted record has a block size a
 * drive reads in (or 2352) and an extent of at least one block, counts
 * whose byte offsets stay below 2^63 (so never the 2^64 - 1 that sscanf
 * made of "true_blocks=-1", issue 31), at most ID_MAX_BLOCKS blocks inside
 * the extent, a window only with its --max-extra, its true end inside
 * the extent, and never beside a pending search; formatting it and
 * parsing the result gives the same record back.
 */
#include <stdlib.h>
#include <string.h>
#include "cdtail.h"
#include "fuzz.h"
#include "book/identity.h"
#include "book/records.h"

static void check(const struct disc_id *id)
{
	unsigned int i;
	uint64_t most;

	if (!id->present) {
		if (id->n || id->window || id->pending)
			__builtin_trap();
		return;
	}
	if (id->block_size != 512 && id->block_size != 1024 && id->block_size != 2048 &&
	    id->block_size != 4096 && id->block_size != 2352)
		__builtin_trap();
	most = (uint64_t)INT64_MAX / id->block_size;
	if (!id->extent || id->extent > most || id->true_blocks > most ||
	    id->max_extra > most || id->n > ID_MAX_BLOCKS ||
	    (id->window && (!id->max_extra || id->pending || id->true_blocks > id->extent)))
		__builtin_trap();
	for (i = 0; i < id->n; i++)
		if (id->lba[i] >= id->extent)
			__builtin_trap();
}

/* id_format's lines as a map holds them: "# " before each. */
static char *as_map(const struct disc_id *id)
{
	char line[ID_TEXT_MAX];
	char *text = malloc(2 * ID_TEXT_MAX + 4), *out;
	const char *p;

	if (!text)
		return NULL;
	id_format(id, line, sizeof(line));
	out = text;
	for (p = line; ; p++) {
		if (p == line || p[-1] == '\n') {
			*out++ = '#';
			*out++ = ' ';
		}
		*out++ = *p ? *p : '\n';
		if (!*p)
			break;
	}
	*out = '\0';
	return text;
}

static void round_trip(const struct disc_id *id)
{
	struct disc_id again;
	char *text = as_map(id);

	if (!text)
		return;
	if (id_parse(text, &again) || !again.present || again.block_size != id->block_size ||
	    again.extent != id->extent || again.true_blocks != id->true_blocks ||
	    again.pending != id->pending || again.window != id->window ||
	    again.max_extra != id->max_extra || again.n != id->n ||
	    memcmp(again.lba, id->lba, sizeof(id->lba[0]) * id->n) ||
	    memcmp(again.sha256, id->sha256, sizeof(id->sha256[0]) * id->n))
		__builtin_trap();
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct disc_id id;
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	rc = id_parse(text, &id);
	free(text);
	if (rc) {
		if (rc != CDT_EFORMAT)
			__builtin_trap();
		return 0;
	}
	check(&id);
	if (id.present)
		round_trip(&id);
	return 0;
}
