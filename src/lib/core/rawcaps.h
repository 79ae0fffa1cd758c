/* SPDX-License-Identifier: MIT */
/*
 * cdt_raw_caps() in its two steps, for probe (core/rawcaps.c): what GET
 * CONFIGURATION declares, and what READ CD at one LBA does.  caps must be
 * zeroed with its size set; tried_lba is set by the second.
 */
#ifndef CDT_CORE_RAW_H
#define CDT_CORE_RAW_H

#include "cdtail.h"

void raw_caps_declared(struct cdt_dev *dev, struct cdt_raw_caps *caps);
void raw_caps_try(struct cdt_dev *dev, int64_t lba, struct cdt_raw_caps *caps);

#endif
