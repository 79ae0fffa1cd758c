/* SPDX-License-Identifier: MIT */
/* A man page as plain text without man(1) (cdtail help: help.c). */
#ifndef CDT_MANVIEW_H
#define CDT_MANVIEW_H

#include <stdio.h>

/*
 * The man(7) source in as text on out, filled to width columns (40 at
 * least): cdtail's own pages' requests and escapes, the rest left out.
 * 0, or -1 when in could not be read to its end.
 */
int manview_render(FILE *in, FILE *out, unsigned int width);

#endif
