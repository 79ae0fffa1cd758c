/* SPDX-License-Identifier: MIT */
/*
 * Byte order: sg3_utils' sg_unaligned.h, with its byteswap.h getters.  Its
 * generic getters shift a byte promoted to int left by 24, undefined for
 * bytes >= 0x80 (UBSan, found by tests/fuzz); glibc has byteswap.h.
 * Include this, never sg_unaligned.h directly.
 */
#ifndef CDT_BYTES_H
#define CDT_BYTES_H

#ifndef HAVE_BYTESWAP_H
#define HAVE_BYTESWAP_H 1
#endif
#include <scsi/sg_unaligned.h>

#endif
