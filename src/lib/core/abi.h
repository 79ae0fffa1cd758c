/* SPDX-License-Identifier: MIT */
/*
 * The size convention of the public structs (libcdtail(3), "Structs
 * that grow"): every entry point copies the caller's options into a
 * full-size local copy and builds its result in a full-size local, then
 * hands back only what fits in the caller's size.
 */
#ifndef CDT_ABI_H
#define CDT_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include "cdtail.h"

struct cdt_dev;

/* opts (not NULL) as its caller built it holds field */
#define CDT_OPT_HAS(opts, field) ((opts) && CDT_HAS(opts, field))

/*
 * Copy the caller's options (NULL: none, all defaults) into full, which
 * is full_size bytes: fields past the caller's size read as 0.  Returns
 * CDT_EUSAGE, with dev's message set when dev is given, when the caller's
 * size is 0.
 */
int cdt_abi_opts(struct cdt_dev *dev, void *full, size_t full_size,
		 const void *opts, const char *what);

/*
 * Check a caller's result (not NULL, size set) and start the full-size
 * local one: zeroed, its size full_size.
 */
int cdt_abi_res(struct cdt_dev *dev, const void *res, void *full,
		size_t full_size, const char *what);

/* Copy full into res, only within res's size; res's size stays. */
void cdt_abi_out(void *res, const void *full, size_t full_size);

/* The offset just past field of type */
#define CDT_END(type, field) \
	(offsetof(type, field) + sizeof(((type *)0)->field))

/*
 * An entry point's start: cdt_abi_opts() of opts (defaults when NULL, or
 * all zero when defaults is NULL too) into o, and cdt_abi_res() of res
 * into full.  fn names the entry point in the message.
 */
int cdt_abi_enter(struct cdt_dev *dev, const void *opts, const void *defaults,
		  void *o, size_t o_size, const void *res, void *full,
		  size_t full_size, const char *fn);

/*
 * Its end: cdt_abi_out(), and true when res does not reach owned (the end
 * of the fields that own memory): the caller then frees full's.
 */
bool cdt_abi_leave(void *res, const void *full, size_t full_size, size_t owned);

#endif
