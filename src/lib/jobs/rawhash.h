/* SPDX-License-Identifier: MIT */
/*
 * image --raw's per-file checksums (cd/trackhash.h: CRC-32, MD5, SHA-1 of
 * each track file, the AccurateRip CRCs of each audio track) computed from
 * the bytes as the sink writes them into the track files, once.
 *
 * The files are taken end to end, in the plan's order, as one run of
 * bytes; a frontier follows it from 0.  A write at the frontier is hashed
 * at once; one past it waits, and the finished bytes before it (an
 * earlier run's, or this run's behind a failed read since retried) are
 * read back from the files then, when the map says they are final; at
 * the end whatever is still behind (a bad sector's zeros, the ends of an
 * offset-corrected run of audio never written) is read back once.
 */
#ifndef CDT_RAWHASH_H
#define CDT_RAWHASH_H

#include <stdbool.h>
#include <stdint.h>
#include "cdtail.h"
#include "book/mapfile.h"
#include "cd/trackhash.h"
#include "jobs/rawplan.h"

struct rawhash {
	const struct raw_plan *plan;
	const int *fds;			/* plan->n track files */
	bool one_file;			/* --single-file: fds[i] hold the stream */
	uint64_t *start;		/* each file's first byte in the run */
	uint64_t total;			/* the run's bytes */
	uint64_t frontier;		/* bytes hashed */
	uint64_t read_back;		/* of them, read back from the files */
	bool stream_is_map;		/* the run's bytes are the map's (no
					 * offset shift): a wait may end early */
	bool broken;			/* hashed bytes written again */
	struct trackhash *th;		/* per file */
	struct arip *ar;		/* per file (audio only) */
	uint64_t *ar_from, *ar_to;	/* the AccurateRip run of each audio file */
	bool *audio;
	/* a failed read back: the file, and the byte where a short read ended */
	size_t err_file;
	uint64_t err_at;
	bool err_short;
};

/*
 * 0 or CDT_ENOMEM (then rawhash_free()).  shift: the sink's audio shift;
 * one_file: every fds[i] is one file holding the stream (--single-file),
 * file i's bytes at its first stream sector's place.
 */
int rawhash_init(struct rawhash *h, const struct raw_plan *plan, const int *fds,
		 int64_t shift, bool one_file);
/* len bytes written at byte at of file fi; map: the run's map, or NULL. */
int rawhash_put(struct rawhash *h, size_t fi, uint64_t at, const uint8_t *p, uint64_t len,
		const struct cdt_map *map);
/*
 * The run is over: the rest read back, each file's sums into t[fi] (and
 * the audio tracks' AccurateRip CRCs).  0, CDT_ENOMEM, or CDT_EIO with
 * err_file and, for a read that came back short (the file ends early),
 * err_short and err_at set, else errno.
 */
int rawhash_finish(struct rawhash *h, struct cdt_raw_track *t);
void rawhash_free(struct rawhash *h);

#endif
