/* SPDX-License-Identifier: MIT */
/*
 * What each kind of run adds to its acquisition record (acqlog.h): the
 * drive, the medium and its size sources, and the reads, bad areas and
 * digests of an image, a raw image, a tail or a verify run.
 */
#ifndef CDT_CLI_ACQRUN_H
#define CDT_CLI_ACQRUN_H

#include "acqrecord.h"

/* The run's own keys into the entry o (run->sum is set). */
void acqrun_add(json_object *o, struct cdt_dev *dev, const struct acqlog_run *run);

/* The --verify-after pass: what was done and what it found. */
json_object *acqrun_verification(const struct acqlog_verify *v);
/* Its result in a word: a verify verdict, "failed" or "not run". */
const char *acqrun_verify_result(const struct acqlog_verify *v);

#endif
