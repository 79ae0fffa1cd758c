/* SPDX-License-Identifier: MIT */
/*
 * Per-track checksums of a raw CD image, the ones people compare against
 * databases, fed sector by sector (or any byte run) in order:
 *
 * - CRC-32, MD5 and SHA-1 of a track's file: what redump.org's DATs list
 *   per track (`<rom name=".." size=".." crc=".." md5=".." sha1=".."/>`).
 *   CRC-32 is zlib's / IEEE 802.3's: polynomial 0x04C11DB7 reflected
 *   (0xEDB88320), register ~0 at the start, inverted at the end; check
 *   value 0xCBF43926 for "123456789".  MD5 and SHA-1 through libcrypto.
 *
 * - AccurateRip v1 and v2 CRCs of an audio track, the published algorithm
 *   (dBpoweramp forum, "AccurateRip CRC Calculation", Spoon 2010; whipper
 *   src/accuraterip-checksum.c is the same rule): the track is a run of
 *   32-bit little-endian stereo samples numbered from 1; sample i counts
 *   when from <= i <= to, where from = 2940 (5 sectors of 588 samples) on
 *   the disc's first audio track and 1 otherwise, and to = count - 2940 on
 *   the last audio track and count otherwise.  v1 = sum of sample * i
 *   modulo 2^32; v2 = sum of (high + low 32 bits of the 64-bit product).
 *   AccurateRip's tracks run from one TOC track start (index 01) to the
 *   next: a following track's pregap counts in the track before it, unlike
 *   the Redump file, which starts at the pregap.  The sums match the
 *   database only for audio read at the drive's corrected offset.
 *
 * No global state: a context per track; the library never prints, so the
 * OUT.hash line is formatted into the caller's buffer.
 */
#ifndef CDT_TRACKHASH_H
#define CDT_TRACKHASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* zlib's crc32(): start with crc = 0; feed the previous result back. */
uint32_t th_crc32(uint32_t crc, const void *buf, size_t len);

struct th_sums {
	uint64_t size;		/* bytes fed */
	uint32_t crc32;
	char md5[33];		/* lowercase hex, NUL-terminated */
	char sha1[41];
};

struct trackhash {
	uint64_t size;
	uint32_t crc32;
	void *md5, *sha1;	/* EVP_MD_CTX *; NULL when not started or freed */
};

/* 0, or CDT_ENOMEM with h left freed (trackhash_free() is then a no-op). */
int trackhash_init(struct trackhash *h);
/* 0, or CDT_ENOMEM when a digest fails (h must still be freed). */
int trackhash_update(struct trackhash *h, const void *buf, size_t len);
/* Finish into out; h is then spent: only trackhash_free() is allowed. */
int trackhash_final(struct trackhash *h, struct th_sums *out);
/* Safe on a zeroed, failed, finished or freed context, and twice. */
void trackhash_free(struct trackhash *h);

/*
 * One OUT.hash line, as redump.org's DATs write a ROM (name escaped for
 * XML), without a newline:
 *   <rom name="NAME" size="N" crc="8 hex" md5="32 hex" sha1="40 hex"/>
 * Returns what snprintf returns: the length the line needs; it is cut
 * (NUL-terminated) when len is smaller.
 */
int trackhash_rom_line(char *buf, size_t len, const char *name,
		       const struct th_sums *s);

#define AR_SAMPLES_PER_SECTOR 588	/* 2352 / 4 */
#define AR_SKIP_SAMPLES (5 * AR_SAMPLES_PER_SECTOR)

struct arip {
	uint32_t pos;		/* samples taken in so far */
	uint32_t from, to;	/* the counted sample numbers, 1-based */
	uint32_t v1, v2;
	uint8_t carry[4];	/* a sample split across two updates */
	unsigned int ncarry;
};

/*
 * A track of samples (2352-byte sectors times 588) whose position on the
 * disc is first and/or last among its audio tracks.  A track shorter than
 * the skips counts no sample (no real track is: 4 seconds at least).
 */
void arip_init(struct arip *a, uint64_t samples, bool first, bool last);
/* The track's audio bytes in order, in runs of any length. */
void arip_update(struct arip *a, const void *buf, size_t len);
static inline uint32_t arip_v1(const struct arip *a) { return a->v1; }
static inline uint32_t arip_v2(const struct arip *a) { return a->v2; }

#endif
