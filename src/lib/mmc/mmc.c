// SPDX-License-Identifier: MIT
/* MMC/SPC CDB builders and response parsers (see mmc.h). */
#include <string.h>
#include "mmc/bytes.h"
#include "cdtail.h"
#include "mmc/mmc.h"

/*
 * The usable part of an answer: the length field says how much the target
 * meant to send (hdr_len plus the bytes before it), len what arrived.
 */
static size_t answer_len(size_t len, uint64_t claimed)
{
	return claimed < len ? (size_t)claimed : len;
}

/* ---- builders ------------------------------------------------------------ */

static unsigned int cdb_start(uint8_t *cdb, uint8_t op, unsigned int len)
{
	memset(cdb, 0, len);
	cdb[0] = op;
	return len;
}

unsigned int mmc_cdb_test_unit_ready(uint8_t *cdb)
{
	return cdb_start(cdb, MMC_TEST_UNIT_READY, 6);
}

unsigned int mmc_cdb_inquiry(uint8_t *cdb, uint16_t alloc)
{
	cdb_start(cdb, MMC_INQUIRY, 6);
	sg_put_unaligned_be16(alloc, cdb + 3);
	return 6;
}

unsigned int mmc_cdb_inquiry_vpd(uint8_t *cdb, uint8_t page, uint16_t alloc)
{
	mmc_cdb_inquiry(cdb, alloc);
	cdb[1] = 0x01;	/* EVPD */
	cdb[2] = page;
	return 6;
}

unsigned int mmc_cdb_read_capacity10(uint8_t *cdb)
{
	return cdb_start(cdb, MMC_READ_CAPACITY10, 10);
}

unsigned int mmc_cdb_read_capacity16(uint8_t *cdb, uint32_t alloc)
{
	cdb_start(cdb, MMC_SERVICE_ACTION_IN16, 16);
	cdb[1] = MMC_SAI_READ_CAPACITY16;
	sg_put_unaligned_be32(alloc, cdb + 10);
	return 16;
}

unsigned int mmc_cdb_read10(uint8_t *cdb, uint32_t lba, uint16_t nblocks)
{
	cdb_start(cdb, MMC_READ10, 10);
	sg_put_unaligned_be32(lba, cdb + 2);
	sg_put_unaligned_be16(nblocks, cdb + 7);
	return 10;
}

unsigned int mmc_cdb_read12(uint8_t *cdb, uint32_t lba, uint32_t nblocks)
{
	cdb_start(cdb, MMC_READ12, 12);
	sg_put_unaligned_be32(lba, cdb + 2);
	sg_put_unaligned_be32(nblocks, cdb + 6);
	return 12;
}

unsigned int mmc_cdb_read16(uint8_t *cdb, uint64_t lba, uint32_t nblocks)
{
	cdb_start(cdb, MMC_READ16, 16);
	sg_put_unaligned_be64(lba, cdb + 2);
	sg_put_unaligned_be32(nblocks, cdb + 10);
	return 16;
}

unsigned int mmc_cdb_read_toc(uint8_t *cdb, uint8_t format, bool msf,
			      uint8_t track, uint16_t alloc)
{
	cdb_start(cdb, MMC_READ_TOC, 10);
	cdb[1] = msf ? 0x02 : 0;
	cdb[2] = format & 0x0f;
	cdb[6] = track;
	sg_put_unaligned_be16(alloc, cdb + 7);
	return 10;
}

unsigned int mmc_cdb_get_configuration(uint8_t *cdb, uint8_t rt,
				       uint16_t start, uint16_t alloc)
{
	cdb_start(cdb, MMC_GET_CONFIGURATION, 10);
	cdb[1] = rt & 0x03;
	sg_put_unaligned_be16(start, cdb + 2);
	sg_put_unaligned_be16(alloc, cdb + 7);
	return 10;
}

unsigned int mmc_cdb_read_disc_info(uint8_t *cdb, uint16_t alloc)
{
	/* data type 0: standard disc information */
	cdb_start(cdb, MMC_READ_DISC_INFO, 10);
	sg_put_unaligned_be16(alloc, cdb + 7);
	return 10;
}

unsigned int mmc_cdb_read_track_info(uint8_t *cdb, uint32_t track,
				     uint16_t alloc)
{
	cdb_start(cdb, MMC_READ_TRACK_INFO, 10);
	cdb[1] = 0x01;
	sg_put_unaligned_be32(track, cdb + 2);
	sg_put_unaligned_be16(alloc, cdb + 7);
	return 10;
}

unsigned int mmc_cdb_mode_sense10(uint8_t *cdb, uint8_t page, uint16_t alloc)
{
	/* DBD: the block descriptors are of no use here; PC 0: current */
	cdb_start(cdb, MMC_MODE_SENSE10, 10);
	cdb[1] = 0x08;
	cdb[2] = page & 0x3f;
	sg_put_unaligned_be16(alloc, cdb + 7);
	return 10;
}

/* ---- INQUIRY, READ CAPACITY ------------------------------------------------ */

/* Fixed-width ASCII field -> C string, unprintable bytes blanked, trimmed. */
static void ascii_field(char *dst, const uint8_t *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : ' ';
	dst[n] = '\0';
	while (n && dst[n - 1] == ' ')
		dst[--n] = '\0';
}

int mmc_parse_inquiry(const uint8_t *buf, size_t len, struct mmc_inquiry *out)
{
	memset(out, 0, sizeof(*out));
	if (len < 5)
		return -1;
	len = answer_len(len, (size_t)buf[4] + 5);
	if (len < 36)
		return -1;
	out->peripheral_type = buf[0] & 0x1f;
	out->removable = buf[1] & 0x80;
	ascii_field(out->vendor, buf + 8, 8);
	ascii_field(out->product, buf + 16, 16);
	ascii_field(out->revision, buf + 32, 4);
	return 0;
}

int mmc_parse_unit_serial(const uint8_t *buf, size_t len, char *out, size_t outlen)
{
	size_t n, skip = 0;

	if (!outlen)
		return -1;
	out[0] = '\0';
	if (len < 4 || buf[1] != 0x80)
		return -1;
	n = answer_len(len, (size_t)sg_get_unaligned_be16(buf + 2) + 4) - 4;
	/* SPC-4 lets the serial be right-aligned: leading blanks are padding */
	while (skip < n && buf[4 + skip] == ' ')
		skip++;
	n -= skip;
	if (n > outlen - 1)
		n = outlen - 1;
	ascii_field(out, buf + 4 + skip, n);
	return 0;
}

int mmc_parse_read_capacity10(const uint8_t *buf, size_t len,
			      uint32_t *last_lba, uint32_t *block_len)
{
	if (len < 8)
		return -1;
	*last_lba = sg_get_unaligned_be32(buf);
	*block_len = sg_get_unaligned_be32(buf + 4);
	return 0;
}

int mmc_parse_read_capacity16(const uint8_t *buf, size_t len,
			      uint64_t *last_lba, uint32_t *block_len)
{
	if (len < 12)
		return -1;
	*last_lba = sg_get_unaligned_be64(buf);
	*block_len = sg_get_unaligned_be32(buf + 8);
	return 0;
}

/* ---- READ TOC -------------------------------------------------------------- */

/*
 * A 4-byte LBA as MMC gives it: signed, so that the pregap before LBA 0
 * is a negative LBA (-150 is 00:00:00, MMC LBA-to-MSF; CDEmu's libMirage
 * answers READ TRACK INFORMATION's track 1 start as -150).
 */
static int64_t signed_lba(const uint8_t *p)
{
	return (int32_t)sg_get_unaligned_be32(p);
}

static int64_t toc_address(const uint8_t *p, bool msf)
{
	if (msf)
		return mmc_msf_to_lba(p[1], p[2], p[3]);
	return signed_lba(p);
}

/*
 * Drives often send less than the header's data length (the lead-out
 * descriptor cut off, or an allocation length too small): keep every
 * whole descriptor that arrived and nothing else.
 */
int mmc_parse_toc(const uint8_t *buf, size_t len, bool msf, struct mmc_toc *out)
{
	size_t end, off;

	memset(out, 0, sizeof(*out));
	if (len < 4 || sg_get_unaligned_be16(buf) < 2)
		return -1;
	end = answer_len(len, (size_t)sg_get_unaligned_be16(buf) + 2);
	out->first_track = buf[2];
	out->last_track = buf[3];
	for (off = 4; off + 8 <= end && out->n < MMC_TOC_MAX; off += 8) {
		struct mmc_toc_entry *e = &out->e[out->n++];

		e->adr_control = buf[off + 1];
		e->track = buf[off + 2];
		e->lba = toc_address(buf + off + 4, msf);
	}
	return 0;
}

int64_t mmc_toc_leadout(const struct mmc_toc *toc)
{
	unsigned int i;

	for (i = 0; i < toc->n && i < MMC_TOC_MAX; i++)
		if (toc->e[i].track == 0xaa)
			return toc->e[i].lba;
	return -1;
}

int mmc_parse_session_info(const uint8_t *buf, size_t len, bool msf,
			   struct mmc_session_info *out)
{
	memset(out, 0, sizeof(*out));
	if (len < 2)
		return -1;
	len = answer_len(len, (size_t)sg_get_unaligned_be16(buf) + 2);
	if (len < 12)
		return -1;
	out->first_session = buf[2];
	out->last_session = buf[3];
	out->first_track_last_session = buf[6];
	out->first_track_lba = toc_address(buf + 8, msf);
	return 0;
}

/* ---- READ TOC format 2: the full TOC --------------------------------------- */

#define FULLTOC_DESC 11
#define FULLTOC_ADR_Q 1
#define FULLTOC_ADR_B0 5

/* The slot for session n, added in the order the sessions appear. */
static struct mmc_fulltoc_session *fulltoc_session(struct mmc_full_toc *t,
						   uint8_t n)
{
	struct mmc_fulltoc_session *s;
	unsigned int i;

	for (i = 0; i < t->n_sessions; i++)
		if (t->s[i].number == n)
			return &t->s[i];
	if (t->n_sessions >= MMC_FULLTOC_MAX_SESSIONS)
		return NULL;
	s = &t->s[t->n_sessions++];
	s->number = n;
	s->leadout = -1;
	return s;
}

/* A track point: kept once (the first wins), in ascending order. */
static void fulltoc_track(struct mmc_full_toc *t, const uint8_t *d)
{
	unsigned int i, j;

	for (i = 0; i < t->n_tracks; i++) {
		if (t->t[i].number == d[3])
			return;
		if (t->t[i].number > d[3])
			break;
	}
	if (t->n_tracks >= MMC_TOC_MAX)
		return;
	for (j = t->n_tracks; j > i; j--)
		t->t[j] = t->t[j - 1];
	t->t[i] = (struct mmc_fulltoc_track){
		.number = d[3], .session = d[0], .control = d[1] & 0x0f,
		.lba = mmc_msf_to_lba(d[8], d[9], d[10]),
	};
	t->n_tracks++;
}

static void fulltoc_desc(struct mmc_full_toc *t, const uint8_t *d)
{
	uint8_t adr = d[1] >> 4, point = d[3];
	struct mmc_fulltoc_session *s;

	/* session numbers are 1..99; anything else is not a session's entry */
	if (d[0] < 1 || d[0] > 99)
		return;
	if (adr == FULLTOC_ADR_B0 && point == 0xb0) {
		s = fulltoc_session(t, d[0]);
		if (s)
			s->next_allowed = true;
		return;
	}
	if (adr != FULLTOC_ADR_Q)
		return;
	if (point >= 1 && point <= 99) {
		if (fulltoc_session(t, d[0]))
			fulltoc_track(t, d);
		return;
	}
	s = (point >= 0xa0 && point <= 0xa2) ? fulltoc_session(t, d[0]) : NULL;
	if (!s)
		return;
	if (point == 0xa0)
		s->first_track = d[8];
	else if (point == 0xa1)
		s->last_track = d[8];
	else
		s->leadout = mmc_msf_to_lba(d[8], d[9], d[10]);
}

/* Whole descriptors that arrived and the header claims; no more. */
int mmc_parse_full_toc(const uint8_t *buf, size_t len, struct mmc_full_toc *out)
{
	size_t end, off;

	memset(out, 0, sizeof(*out));
	if (len < 4 || sg_get_unaligned_be16(buf) < 2)
		return -1;
	end = answer_len(len, (size_t)sg_get_unaligned_be16(buf) + 2);
	out->first_session = buf[2];
	out->last_session = buf[3];
	for (off = 4; off + FULLTOC_DESC <= end; off += FULLTOC_DESC)
		fulltoc_desc(out, buf + off);
	return 0;
}

const struct mmc_fulltoc_session *mmc_full_toc_session(const struct mmc_full_toc *t,
						       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < t->n_sessions && i < MMC_FULLTOC_MAX_SESSIONS; i++)
		if (t->s[i].number == n)
			return &t->s[i];
	return NULL;
}

/* ---- READ DISC INFORMATION, READ TRACK INFORMATION ------------------------- */

/*
 * M:S:F in bytes 1-3 of a 4-byte field; FF:FF:FF means "not given".  A
 * lead-in lies before LBA 0, and the Red Book writes those addresses as
 * 90:00:00 and up (LBA = MSF - 450150).
 */
static int64_t disc_info_msf(const uint8_t *p)
{
	if (p[1] == 0xff && p[2] == 0xff && p[3] == 0xff)
		return -1;
	if (p[1] >= 90)
		return ((int64_t)p[1] * 60 + p[2]) * 75 + p[3] - 450150;
	return mmc_msf_to_lba(p[1], p[2], p[3]);
}

int mmc_parse_disc_info(const uint8_t *buf, size_t len, struct mmc_disc_info *out)
{
	memset(out, 0, sizeof(*out));
	if (len < 2)
		return -1;
	len = answer_len(len, (size_t)sg_get_unaligned_be16(buf) + 2);
	/* through the last possible lead-out; type 0 = standard layout */
	if (len < 24 || (buf[2] >> 5) != 0)
		return -1;
	out->erasable = buf[2] & 0x10;
	out->last_session_state = (buf[2] >> 2) & 0x03;
	out->disc_status = buf[2] & 0x03;
	out->first_track = buf[3];
	out->n_sessions = (uint16_t)(buf[9] << 8 | buf[4]);
	out->first_track_last_session = (uint16_t)(buf[10] << 8 | buf[5]);
	out->last_track_last_session = (uint16_t)(buf[11] << 8 | buf[6]);
	out->disc_type = buf[8];
	out->last_session_leadin = disc_info_msf(buf + 16);
	out->last_leadout = disc_info_msf(buf + 20);
	return 0;
}

bool mmc_disc_appendable(const struct mmc_disc_info *di)
{
	/* disc status 01b, or the last session's state 01b: incomplete */
	return di->disc_status == 1 || di->last_session_state == 1;
}

/*
 * MMC-2 answers end after the track size (28 bytes); the last recorded
 * address and the MSB bytes came with MMC-3, so they are optional.
 */
int mmc_parse_track_info(const uint8_t *buf, size_t len, struct mmc_track_info *out)
{
	memset(out, 0, sizeof(*out));
	if (len < 2)
		return -1;
	len = answer_len(len, (size_t)sg_get_unaligned_be16(buf) + 2);
	if (len < 28)
		return -1;
	out->track = buf[2];
	out->session = buf[3];
	out->track_mode = buf[5] & 0x0f;
	out->data_mode = buf[6] & 0x0f;
	out->blank = buf[6] & 0x40;
	out->packet = buf[6] & 0x20;
	out->fixed = buf[6] & 0x10;
	out->nwa_valid = buf[7] & 0x01;
	out->start = signed_lba(buf + 8);
	out->next_writable = signed_lba(buf + 12);
	out->free_blocks = sg_get_unaligned_be32(buf + 16);
	out->fixed_packet_size = sg_get_unaligned_be32(buf + 20);
	out->size = sg_get_unaligned_be32(buf + 24);
	if (len >= 32) {
		out->lra_valid = buf[7] & 0x02;
		out->last_recorded = signed_lba(buf + 28);
	}
	if (len >= 34) {
		out->track |= (uint16_t)(buf[32] << 8);
		out->session |= (uint16_t)(buf[33] << 8);
	}
	return 0;
}

/* ---- GET CONFIGURATION ----------------------------------------------------- */

int mmc_parse_config_header(const uint8_t *buf, size_t len, uint16_t *profile)
{
	if (len < 4)
		return -1;
	len = answer_len(len, (uint64_t)sg_get_unaligned_be32(buf) + 4);
	if (len < 8)
		return -1;
	*profile = sg_get_unaligned_be16(buf + 6);
	return 0;
}

struct profile_name {
	uint16_t profile;
	const char *name;
};

static const struct profile_name profile_names[] = {
	{ 0x0000, "none" },
	{ 0x0001, "non-removable disk" },
	{ 0x0002, "removable disk" },
	{ 0x0003, "MO erasable" },
	{ 0x0004, "MO write once" },
	{ 0x0005, "AS-MO" },
	{ 0x0008, "CD-ROM" },
	{ 0x0009, "CD-R" },
	{ 0x000a, "CD-RW" },
	{ 0x0010, "DVD-ROM" },
	{ 0x0011, "DVD-R" },
	{ 0x0012, "DVD-RAM" },
	{ 0x0013, "DVD-RW" },
	{ 0x0014, "DVD-RW" },
	{ 0x0015, "DVD-R DL" },
	{ 0x0016, "DVD-R DL" },
	{ 0x0017, "DVD-RW DL" },
	{ 0x0018, "DVD-Download" },
	{ 0x001a, "DVD+RW" },
	{ 0x001b, "DVD+R" },
	{ 0x0020, "DDCD-ROM" },
	{ 0x0021, "DDCD-R" },
	{ 0x0022, "DDCD-RW" },
	{ 0x002a, "DVD+RW DL" },
	{ 0x002b, "DVD+R DL" },
	{ 0x0040, "BD-ROM" },
	{ 0x0041, "BD-R" },
	{ 0x0042, "BD-R" },
	{ 0x0043, "BD-RE" },
	{ 0x0050, "HD DVD-ROM" },
	{ 0x0051, "HD DVD-R" },
	{ 0x0052, "HD DVD-RAM" },
	{ 0x0053, "HD DVD-RW" },
	{ 0x0058, "HD DVD-R DL" },
	{ 0x005a, "HD DVD-RW DL" },
	{ 0xffff, "non-conforming" },
};

const char *mmc_profile_name(uint16_t profile)
{
	size_t i;

	for (i = 0; i < sizeof(profile_names) / sizeof(profile_names[0]); i++)
		if (profile_names[i].profile == profile)
			return profile_names[i].name;
	return "unknown";
}

const char *cdt_profile_name(uint16_t profile)
{
	return mmc_profile_name(profile);
}

/* ---- MODE SENSE(10) --------------------------------------------------------- */

static void caching_page(const uint8_t *pg, size_t avail,
			 struct mmc_mode_caching *out)
{
	/* WCE and RCD live in byte 2; a page cut before it says nothing */
	if (avail < 3)
		return;
	out->have_caching = true;
	out->wce = pg[2] & 0x04;
	out->rcd = pg[2] & 0x01;
}

int mmc_parse_mode_sense10_caching(const uint8_t *buf, size_t len,
				   struct mmc_mode_caching *out)
{
	size_t end, off;

	memset(out, 0, sizeof(*out));
	if (len < 2)
		return -1;
	end = answer_len(len, (size_t)sg_get_unaligned_be16(buf) + 2);
	if (end < 8)
		return -1;
	out->dpofua = buf[3] & 0x10;
	off = 8 + (size_t)sg_get_unaligned_be16(buf + 6);
	while (off + 2 <= end) {
		const uint8_t *pg = buf + off;
		bool spf = pg[0] & 0x40;
		size_t plen;

		if (spf) {
			/* sub-page format: 4-byte page header, 16-bit length */
			if (off + 4 > end)
				break;
			plen = 4 + (size_t)sg_get_unaligned_be16(pg + 2);
		} else {
			plen = 2 + (size_t)pg[1];
		}
		if (!spf && (pg[0] & 0x3f) == 0x08) {
			caching_page(pg, answer_len(end - off, plen), out);
			break;
		}
		off += plen;
	}
	return 0;
}

int64_t mmc_msf_to_lba(uint8_t m, uint8_t s, uint8_t f)
{
	return ((int64_t)m * 60 + s) * 75 + f - 150;
}

void mmc_lba_to_msf(int64_t lba, uint8_t *m, uint8_t *s, uint8_t *f)
{
	int64_t v = lba + 150;

	if (v < 0)
		v = 0;
	*f = (uint8_t)(v % 75);
	v /= 75;
	*s = (uint8_t)(v % 60);
	v /= 60;
	*m = v > 255 ? 255 : (uint8_t)v;
}
