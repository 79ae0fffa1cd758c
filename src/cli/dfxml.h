/* SPDX-License-Identifier: MIT */
/* --dfxml FILE: an acquisition record as Digital Forensics XML (dfxml.c). */
#ifndef CDT_CLI_DFXML_H
#define CDT_CLI_DFXML_H

#include "cli.h"

/* The record's entry o (acqlog.c) as DFXML into path; 0, or -1 after saying why. */
int dfxml_write(const char *path, json_object *o);

#endif
