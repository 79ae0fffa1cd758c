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
	uint8_t key, asc, ascq;
	bool info_valid;
	uint64_t info;
};

enum cdt_sense_class {
	CDT_SENSE_NONE = 0,	/* no error (key 0, or recovered 1) */
	CDT_SENSE_END,		/* 05/21/xx, 05/63/xx, 05/64/xx */
	CDT_SENSE_MEDIUM,	/* 03/xx/xx */
	CDT_SENSE_RETRY,	/* 06/xx/xx, 02/04/xx (not 02/04/03), 0B */
	CDT_SENSE_NO_MEDIUM,	/* 02/3A/xx */
	CDT_SENSE_FATAL,	/* everything else */
};

/* Decode fixed or descriptor sense; never reads past len. */
void cdt_sense_decode(const uint8_t *buf, size_t len, struct cdt_sense *out);
enum cdt_sense_class cdt_sense_classify(const struct cdt_sense *s);

/* "ILLEGAL REQUEST: Logical block address out of range" from sg_lib. */
void cdt_sense_describe(const struct cdt_sense *s, char *buf, size_t len);

/* The key's and the ASC/ASCQ's words from sg_lib, apart (lengths >= 1). */
void cdt_sense_words(const struct cdt_sense *s, char *key, size_t key_len, char *asc,
		     size_t asc_len);

#endif
