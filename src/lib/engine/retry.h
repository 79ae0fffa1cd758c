/* SPDX-License-Identifier: MIT */
/* The rescue engine's learning retry plan (engine.h, retry.c). */
#ifndef CDT_RETRY_H
#define CDT_RETRY_H

#include "engine/engine.h"

/*
 * The retrying pass when the user gave no --retries: reads only bad
 * ('-') blocks, one at a time, where retries have been seen to pay (the
 * policy in retry.c); leaves '+' what read.  Returns 0 or <0 on error.
 */
int rescue_retry_learning(struct rescue *r);

/*
 * The retrying pass of a resume in another drive (r->once_more): every
 * bad ('-') block that no failing read of this run started on (the
 * probe's included) is read once, ascending.  Returns 0 or <0 on error.
 */
int rescue_retry_once(struct rescue *r);

#endif
