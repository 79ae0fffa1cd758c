// SPDX-License-Identifier: MIT
/*
 * What export reads back (src/cli/acqread.h): the last entry of an
 * acquisition log in either form, and a map's identity lines.  Both
 * parsers see every input.  An accepted log has a verdict, strings that
 * end inside their fields, at most ACQ_MAX_TRACKS tracks and digests that
 * are empty or hex of their length; an accepted identity has at most
 * ACQ_ID_MAX blocks, all inside an extent of at least one block of a
 * size no drive exceeds.  A refusal always says why.
 */
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "../../src/cli/acqread.h"

static void check_str(const char *s, size_t size)
{
	if (strnlen(s, size) >= size)
		__builtin_trap();
}

static void check_hex(const char *s, size_t size, size_t want)
{
	size_t n = strnlen(s, size), i;

	if (n && n != want)
		__builtin_trap();
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			__builtin_trap();
}

static void check_record(const struct acq_record *r)
{
	size_t i;

	if (!r->verdict[0] || r->n_tracks > ACQ_MAX_TRACKS)
		__builtin_trap();
	check_str(r->verdict, sizeof(r->verdict));
	check_str(r->started, sizeof(r->started));
	check_str(r->map, sizeof(r->map));
	check_str(r->sizes, sizeof(r->sizes));
	check_str(r->serial, sizeof(r->serial));
	check_str(r->notes, sizeof(r->notes));
	check_hex(r->md5, sizeof(r->md5), 32);
	check_hex(r->sha1, sizeof(r->sha1), 40);
	check_hex(r->sha256, sizeof(r->sha256), 64);
	if (r->block_size > 65536 || (r->n_bad && !r->bad))
		__builtin_trap();
	for (i = 0; i < r->n_bad; i++)
		if (!r->bad[i].blocks || r->bad[i].start > UINT64_MAX - r->bad[i].blocks)
			__builtin_trap();
}

static void check_identity(const struct acq_identity *id)
{
	unsigned int i;

	if (!id->present) {
		if (id->n)
			__builtin_trap();
		return;
	}
	if (!id->block_size || id->block_size > 65536 || !id->extent || id->n > ACQ_ID_MAX)
		__builtin_trap();
	for (i = 0; i < id->n; i++)
		if (id->lba[i] >= id->extent)
			__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acq_record *r = malloc(sizeof(*r));
	struct acq_identity id;
	char err[512];

	if (!r)
		return 0;
	err[0] = '\0';
	if (acq_parse((const char *)data, size, r, err, sizeof(err))) {
		if (!err[0])
			__builtin_trap();
	} else {
		check_record(r);
		acq_free(r);
	}
	free(r);
	err[0] = '\0';
	if (acq_identity_parse((const char *)data, size, &id, err, sizeof(err))) {
		if (!err[0])
			__builtin_trap();
	} else {
		check_identity(&id);
	}
	return 0;
}
