/* SPDX-License-Identifier: MIT */
/*
 * READ SUB-CHANNEL (0x42) for the two identifiers a CD may carry in its
 * Q sub-channel (ADR 2 and ADR 3 frames): the disc's Media Catalog
 * Number (sub-channel data format 02h) and a track's ISRC (format 03h).
 * Pure: a CDB builder and bounded parsers (fuzzed by
 * tests/fuzz/fuzz_subchannel.c).
 *
 * The layouts (MMC-5 6.29 READ SUB-CHANNEL, its tables of the MCN and
 * ISRC data formats; the same as Linux's drivers/scsi/sr_ioctl.c
 * sr_get_mcn, which sends 42 00 40 02 .. 00 18 and copies 13 bytes from
 * answer byte 9, and MusicBrainz libdiscid's disc_linux.c, which asks
 * format 3 with the track in byte 6 and takes 12 bytes from byte 9 when
 * byte 8 bit 7 is set):
 *   CDB   0: 42h; 1 bit 1: MSF; 2 bit 6: SubQ (return Q data); 3: data
 *         format; 6: track number (format 03h); 7-8: allocation length
 *   answer 0-3: header (reserved, audio status, sub-channel data length:
 *         20 for these formats); 4: the data format again;
 *   02h:  8 bit 7 MCVAL; 9-21 the MCN, 13 ASCII digits; 22 AFRAME
 *   03h:  5 ADR/control, 6 track number; 8 bit 7 TCVAL; 9-20 the ISRC,
 *         12 ASCII characters (ISO 3901: country and owner codes
 *         [0-9A-Z], year and serial digits); 22 AFRAME
 * The kernel lets anyone who may open /dev/srN for reading send it: it is
 * on the read-safe list (drivers/scsi/scsi_ioctl.c scsi_cmd_allowed;
 * block/scsi_ioctl.c blk_set_cmd_filter_defaults before Linux 5.15).
 */
#ifndef CDT_SUBCHAN_H
#define CDT_SUBCHAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define MMC_READ_SUBCHANNEL 0x42
#define MMC_SUBCH_MCN 0x02
#define MMC_SUBCH_ISRC 0x03
#define MMC_SUBCH_ANSWER_LEN 24	/* header and either format's data */
#define MMC_MCN_LEN 13
#define MMC_ISRC_LEN 12

/* format MMC_SUBCH_MCN or MMC_SUBCH_ISRC (track: 1..99, for ISRC) */
unsigned int mmc_cdb_read_subchannel(uint8_t *cdb, uint8_t format,
				     uint8_t track, uint16_t alloc);

/*
 * The MCN of an answer of len bytes into out (13 digits and a NUL): 0
 * when MCVAL is set and the digits are digits, 1 when the drive says the
 * disc has none (MCVAL clear; out ""), -1 when the answer is short, of
 * another format, or holds something else than 13 digits (out "").
 */
int mmc_parse_mcn(const uint8_t *buf, size_t len, char out[MMC_MCN_LEN + 1]);
/* The ISRC likewise (TCVAL; 12 characters as mmc_isrc_valid() takes). */
int mmc_parse_isrc(const uint8_t *buf, size_t len, char out[MMC_ISRC_LEN + 1]);

/* n bytes of s are an MCN: 13 digits (also a CUE sheet's CATALOG) */
bool mmc_mcn_valid(const char *s, size_t n);
/* n bytes of s are an ISRC: 5 of [0-9A-Z], 7 digits (a CUE's ISRC) */
bool mmc_isrc_valid(const char *s, size_t n);

#endif
