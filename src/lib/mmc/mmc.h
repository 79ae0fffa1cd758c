/* SPDX-License-Identifier: MIT */
/*
 * MMC/SPC CDB builders and response parsers: pure functions over byte
 * buffers.  A parser takes the number of bytes actually received and never
 * trusts a length field inside the buffer beyond that.  Parsers return 0,
 * or -1 when the response is too short or malformed to use.
 */
#ifndef CDT_MMC_H
#define CDT_MMC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* Opcodes cdtail uses. */
#define MMC_TEST_UNIT_READY 0x00
#define MMC_REQUEST_SENSE 0x03
#define MMC_INQUIRY 0x12
#define MMC_MODE_SENSE6 0x1A
#define MMC_READ_FORMAT_CAPACITIES 0x23
#define MMC_READ_CAPACITY10 0x25
#define MMC_READ10 0x28
#define MMC_READ_TOC 0x43
#define MMC_GET_CONFIGURATION 0x46
#define MMC_GET_EVENT_STATUS 0x4A
#define MMC_READ_DISC_INFO 0x51
#define MMC_READ_TRACK_INFO 0x52
#define MMC_MODE_SENSE10 0x5A
#define MMC_READ16 0x88
#define MMC_SERVICE_ACTION_IN16 0x9E
#define MMC_SAI_READ_CAPACITY16 0x10
#define MMC_REPORT_LUNS 0xA0
#define MMC_READ12 0xA8
#define MMC_READ_DVD_STRUCTURE 0xAD
#define MMC_MECHANISM_STATUS 0xBD
#define MMC_READ_CD 0xBE

/* Builders: fill cdb, return its length. */
unsigned int mmc_cdb_test_unit_ready(uint8_t *cdb);
unsigned int mmc_cdb_inquiry(uint8_t *cdb, uint16_t alloc);
/* INQUIRY with EVPD for one vital product data page (SPC-4 6.6) */
unsigned int mmc_cdb_inquiry_vpd(uint8_t *cdb, uint8_t page, uint16_t alloc);
unsigned int mmc_cdb_read_capacity10(uint8_t *cdb);
unsigned int mmc_cdb_read_capacity16(uint8_t *cdb, uint32_t alloc);
unsigned int mmc_cdb_read10(uint8_t *cdb, uint32_t lba, uint16_t nblocks);
unsigned int mmc_cdb_read12(uint8_t *cdb, uint32_t lba, uint32_t nblocks);
unsigned int mmc_cdb_read16(uint8_t *cdb, uint64_t lba, uint32_t nblocks);
/*
 * format 0 (TOC), 1 (session info), 2 (full TOC) or 5 (CD-TEXT, whose
 * packs cd/cdtext.h reads); msf selects M:S:F addresses
 */
unsigned int mmc_cdb_read_toc(uint8_t *cdb, uint8_t format, bool msf,
			      uint8_t track, uint16_t alloc);
unsigned int mmc_cdb_get_configuration(uint8_t *cdb, uint8_t rt,
				       uint16_t start, uint16_t alloc);
unsigned int mmc_cdb_read_disc_info(uint8_t *cdb, uint16_t alloc);
/* address type 1: track number */
unsigned int mmc_cdb_read_track_info(uint8_t *cdb, uint32_t track,
				     uint16_t alloc);
unsigned int mmc_cdb_mode_sense10(uint8_t *cdb, uint8_t page, uint16_t alloc);

struct mmc_inquiry {
	uint8_t peripheral_type;
	bool removable;
	char vendor[9], product[17], revision[5];	/* trimmed */
};
int mmc_parse_inquiry(const uint8_t *buf, size_t len, struct mmc_inquiry *out);
/*
 * The Unit Serial Number VPD page (80h, SPC-4 7.8.16): its ASCII serial,
 * blanks around it trimmed, into out (always terminated).  0, or -1 when
 * buf is not that page.
 */
int mmc_parse_unit_serial(const uint8_t *buf, size_t len, char *out, size_t outlen);

/* last_lba + 1 = blocks */
int mmc_parse_read_capacity10(const uint8_t *buf, size_t len,
			      uint32_t *last_lba, uint32_t *block_len);
int mmc_parse_read_capacity16(const uint8_t *buf, size_t len,
			      uint64_t *last_lba, uint32_t *block_len);

struct mmc_toc_entry {
	uint8_t track;		/* 0xAA = lead-out */
	uint8_t adr_control;
	int64_t lba;		/* converted from MSF when msf was set */
};

#define MMC_TOC_MAX 100
struct mmc_toc {
	uint8_t first_track, last_track;
	unsigned int n;
	struct mmc_toc_entry e[MMC_TOC_MAX];
};
/* format 0; msf: the addresses are M:S:F (LBA = (M*60+S)*75+F-150) */
int mmc_parse_toc(const uint8_t *buf, size_t len, bool msf, struct mmc_toc *out);
/* lead-out LBA from a parsed TOC, or -1 when it has none */
int64_t mmc_toc_leadout(const struct mmc_toc *toc);

struct mmc_session_info {
	uint8_t first_session, last_session;
	uint8_t first_track_last_session;
	int64_t first_track_lba;
};
int mmc_parse_session_info(const uint8_t *buf, size_t len, bool msf,
			   struct mmc_session_info *out);

/* Control nibble of a TOC entry or a track's mode: bit 2 set = data. */
static inline bool mmc_control_is_data(uint8_t control)
{
	return control & 0x04;
}

/*
 * The other bits of the Q sub-channel's control field, as the TOC's
 * CONTROL column gives them (MMC-5 6.26.3 READ TOC/PMA/ATIP and its
 * table of the Q control field; ECMA-130 22.3.1; redumper's
 * ChannelQ::Control names the same bits): four-channel audio, digital
 * copy permitted, pre-emphasis.  A CUE sheet's FLAGS 4CH, DCP, PRE.
 */
#define MMC_CONTROL_4CH 0x08
#define MMC_CONTROL_DCP 0x02
#define MMC_CONTROL_PRE 0x01

/* Data track recorded incrementally (TAO, packets): control 0101. */
static inline bool mmc_control_incremental(uint8_t control)
{
	return (control & 0x05) == 0x05;
}

/*
 * READ TOC format 2 (full TOC, always read with MSF): a 4-byte header
 * (length, first and last complete session) and 11-byte descriptors
 * (session, ADR/control, TNO, POINT, M:S:F, zero, PM:PS:PF).  Per session
 * the points A0 (first track: PMIN), A1 (last track: PMIN), A2 (lead-out
 * start: PM:PS:PF) and 1..99 (track start); B0 (ADR 5) says the disc
 * allows another session after this one.  PM:PS:PF carry the 150-frame
 * offset (00:02:00 = LBA 0).
 */
#define MMC_FULLTOC_MAX_SESSIONS 99
struct mmc_fulltoc_session {
	uint8_t number;			/* 1..99 */
	uint8_t first_track, last_track; /* 0 when A0/A1 missing */
	int64_t leadout;		/* A2, or -1 */
	bool next_allowed;		/* a B0 point for this session */
};

struct mmc_fulltoc_track {
	uint8_t number, session, control;
	int64_t lba;
};

struct mmc_full_toc {
	uint8_t first_session, last_session;
	unsigned int n_sessions, n_tracks;
	struct mmc_fulltoc_session s[MMC_FULLTOC_MAX_SESSIONS];
	struct mmc_fulltoc_track t[MMC_TOC_MAX];	/* ascending by number */
};
int mmc_parse_full_toc(const uint8_t *buf, size_t len, struct mmc_full_toc *out);
/* The session numbered n in a parsed full TOC, or NULL. */
const struct mmc_fulltoc_session *mmc_full_toc_session(const struct mmc_full_toc *t,
						       unsigned int n);

struct mmc_disc_info {
	uint8_t disc_status;		/* 0 empty, 1 incomplete, 2 complete */
	uint8_t last_session_state;
	bool erasable;
	uint16_t first_track, n_sessions, first_track_last_session,
		last_track_last_session;
	uint8_t disc_type;
	int64_t last_session_leadin;	/* -1 when not given (FF:FF:FF) */
	int64_t last_leadout;		/* last possible lead-out start, or -1 */
};
int mmc_parse_disc_info(const uint8_t *buf, size_t len, struct mmc_disc_info *out);
/* Another session can be written: disc status or last session incomplete. */
bool mmc_disc_appendable(const struct mmc_disc_info *di);

/*
 * The addresses are LBAs, signed as MMC defines them (-150 is 00:00:00:
 * CDEmu's libMirage answers track 1's start so, counting the pregap);
 * the counts are unsigned.
 */
struct mmc_track_info {
	uint16_t track, session;
	uint8_t track_mode, data_mode;
	bool blank, packet, fixed, nwa_valid, lra_valid;
	int64_t start, next_writable;
	uint32_t free_blocks, fixed_packet_size;
	uint32_t size;
	int64_t last_recorded;
};
int mmc_parse_track_info(const uint8_t *buf, size_t len, struct mmc_track_info *out);

/* GET CONFIGURATION header: current profile. */
int mmc_parse_config_header(const uint8_t *buf, size_t len, uint16_t *profile);
const char *mmc_profile_name(uint16_t profile);

/* MODE SENSE(10) header and the caching page (0x08) when present. */
struct mmc_mode_caching {
	bool dpofua;		/* device-specific parameter bit 4 */
	bool have_caching;	/* page 0x08 was in the answer */
	bool wce, rcd;
};
int mmc_parse_mode_sense10_caching(const uint8_t *buf, size_t len,
				   struct mmc_mode_caching *out);

/* Helpers shared by the parsers and the emulated drive. */
int64_t mmc_msf_to_lba(uint8_t m, uint8_t s, uint8_t f);
void mmc_lba_to_msf(int64_t lba, uint8_t *m, uint8_t *s, uint8_t *f);

#endif
