/* SPDX-License-Identifier: MIT */
/*
 * The end search's second half (probe.c runs it): the rounds of
 * es_find_end() and, past the end each round found, the boundary where
 * blocks the drive holds but cannot read (MEDIUM ERROR, timeouts) give
 * way to blocks it says do not exist (END-class).  Like endsearch.h it
 * sees the drive only through es_read_fn, so unit tests drive it with
 * scripted outcomes (tests/unit/test_endboundary.c); before, it read the
 * drive itself and was tested only through the emulated drive.
 */
#ifndef CDT_ENDBOUNDARY_H
#define CDT_ENDBOUNDARY_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "probe/endsearch.h"

#define EB_FAILS_KEPT 64

/* A failed read the search saw, kept to bound the boundary. */
struct eb_failure {
	uint64_t lba;
	uint32_t n;
	enum cdt_read_class cls;
	bool medium_error;	/* es_outcome's */
	bool wrong_mode;
	bool user_area_end;
};

struct eb_search {
	/* the search's reads: each counts (progress, the result's reads) */
	es_read_fn read;
	/* one block's answer on its own, not counted as the search's reads */
	es_read_fn probe;
	void *ctx;
	volatile sig_atomic_t *stop;	/* set: a clean stop; may be NULL */
	/* kept from every outcome either gave */
	struct eb_failure fails[EB_FAILS_KEPT];
	unsigned int nfails;
	uint64_t good_end;	/* past the highest block read good, 0: none */
};

/*
 * The search and the boundary past it, again from above any block a read
 * of this run found good past the end the search gave (p->floor moves
 * there): the true end is never below a block the run read.  Sets *er,
 * *extent (the boundary, at least er->end) and *window_limit (the
 * boundary search reached the window).  0, or the first read's error.
 */
int eb_rounds(struct eb_search *s, struct es_params *p, struct es_result *er,
	      uint64_t *extent, bool *window_limit);

/* One block on its own (s->probe): 1 END-class, 0 readable, MEDIUM or
 * timed out, <0 an error or an answer that fits neither. */
int eb_class_at(struct eb_search *s, uint64_t lba);

/* The narrowest kept failed read that covered lba, or NULL. */
const struct eb_failure *eb_failure_at(const struct eb_search *s, uint64_t lba);

#endif
