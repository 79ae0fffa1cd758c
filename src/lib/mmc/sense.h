/* SPDX-License-Identifier: MIT */
/* Sense data: pure decoding and classification over a byte buffer. */
#ifndef CDT_SENSE_H
#define CDT_SENSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cdt_sense {
	bool valid;		/* a response code 0x70-0x73 was found */
	bool descriptor;	/* descriptor format (0x72/0x73) */
	/*
	 * A deferred error (0x71/0x73, SPC-4 4.5.5): it belongs to an earlier
	 * command, and the command that got it was not carried out.
	 */
	bool deferred;
	uint8_t key, asc, ascq;
	bool info_valid;
	uint64_t info;
};

/* Decode fixed or descriptor sense; never reads past len. */
void cdt_sense_decode(const uint8_t *buf, size_t len, struct cdt_sense *out);

/* "ILLEGAL REQUEST: Logical block address out of range" from sg_lib. */
void cdt_sense_describe(const struct cdt_sense *s, char *buf, size_t len);

/* The key's and the ASC/ASCQ's words from sg_lib, apart (lengths >= 1). */
void cdt_sense_words(const struct cdt_sense *s, char *key, size_t key_len, char *asc,
		     size_t asc_len);

#endif
