// SPDX-License-Identifier: MIT
/*
 * Filesystem-declared sizes (see fsize.h): ISO 9660 volume space size and
 * the end of the UDF partition, read from the head of a disc.  Every
 * location and length found on the disc is checked against len before
 * use, and every product against overflow.
 */
#include <string.h>
#include "mmc/bytes.h"
#include "probe/fsize.h"

#define ISO_VD_START 32768u
#define ISO_VD_SIZE 2048u
#define ISO_VD_PRIMARY 1
#define ISO_VD_TERMINATOR 255

#define UDF_SECTOR 2048u
#define UDF_SECTOR_MAX 65536u
#define UDF_AVDP_SECTOR 256u
#define UDF_TAG_AVDP 2
#define UDF_TAG_PD 5
#define UDF_TAG_TD 8

/* Is [off, off + n) inside a buffer of len bytes, without wrapping? */
static int in_buf(uint64_t off, uint64_t n, size_t len)
{
	return off <= len && n <= len - off;
}

/* bytes -> dev_block units, rounded up; -1 on overflow or zero. */
static int bytes_to_blocks(uint64_t bytes, uint32_t dev_block, uint64_t *blocks)
{
	if (!dev_block || !bytes)
		return -1;
	*blocks = bytes / dev_block + (bytes % dev_block != 0);
	return 0;
}

/* ---- ISO 9660 -------------------------------------------------------------- */

static int iso_pvd_size(const uint8_t *vd, uint32_t dev_block, uint64_t *blocks)
{
	uint32_t size = sg_get_unaligned_le32(vd + 80);
	uint16_t lbs = sg_get_unaligned_le16(vd + 128);

	/* both-endian fields: a disagreement means a damaged descriptor */
	if (vd[6] != 1 || size != sg_get_unaligned_be32(vd + 84) || lbs != sg_get_unaligned_be16(vd + 130))
		return -1;
	if (lbs != 512 && lbs != 1024 && lbs != 2048)
		return -1;
	/* size < 2^32 and lbs <= 2^11: the product fits in 64 bits */
	return bytes_to_blocks((uint64_t)size * lbs, dev_block, blocks);
}

int cdt_iso9660_size(const uint8_t *buf, size_t len, uint32_t dev_block,
		     uint64_t *blocks)
{
	uint64_t off;

	if (!buf || !dev_block)
		return -1;
	for (off = ISO_VD_START; in_buf(off, ISO_VD_SIZE, len);
	     off += ISO_VD_SIZE) {
		const uint8_t *vd = buf + off;

		if (memcmp(vd + 1, "CD001", 5))
			return -1;
		if (vd[0] == ISO_VD_PRIMARY)
			return iso_pvd_size(vd, dev_block, blocks);
		if (vd[0] == ISO_VD_TERMINATOR)
			return -1;
	}
	return -1;
}

/* ---- UDF --------------------------------------------------------------------- */

/*
 * ECMA-167 3/7.2 descriptor tag: the checksum byte covers the other 15
 * bytes of the tag, and the tag records its own sector, which catches a
 * descriptor read from the wrong place.
 */
static int udf_tag_ok(const uint8_t *tag, uint16_t id, uint64_t sector)
{
	unsigned int sum = 0;
	int i;

	for (i = 0; i < 16; i++)
		if (i != 4)
			sum += tag[i];
	if ((sum & 0xff) != tag[4])
		return 0;
	return sg_get_unaligned_le16(tag) == id && sg_get_unaligned_le32(tag + 12) == sector;
}

static uint16_t udf_tag_id(const uint8_t *tag)
{
	return sg_get_unaligned_le16(tag);
}

/* Largest partition end (start + length, in sectors) in the main VDS. */
static int udf_vds_end(const uint8_t *buf, size_t len, uint32_t sector_size,
		       uint32_t loc, uint32_t ext_len, uint64_t *end)
{
	uint64_t n = ext_len / sector_size, i;

	*end = 0;
	for (i = 0; i < n; i++) {
		uint64_t sector = (uint64_t)loc + i;
		const uint8_t *d;
		uint16_t id;

		if (!in_buf(sector * sector_size, sector_size, len))
			break;
		d = buf + sector * sector_size;
		id = udf_tag_id(d);
		if (!udf_tag_ok(d, id, sector))
			return -1;
		if (id == UDF_TAG_TD)
			break;
		if (id == UDF_TAG_PD) {
			uint64_t e = (uint64_t)sg_get_unaligned_le32(d + 188) +
				     sg_get_unaligned_le32(d + 192);

			if (!sg_get_unaligned_le32(d + 192))
				return -1;
			if (e > *end)
				*end = e;
		}
	}
	return *end ? 0 : -1;
}

int cdt_udf_size(const uint8_t *buf, size_t len, uint32_t dev_block,
		 uint64_t *blocks)
{
	uint32_t sector_size, ext_len, loc;
	uint64_t avdp, end;
	const uint8_t *a;

	if (!buf || !dev_block)
		return -1;
	/* optical UDF sectors are 2048 bytes even when the drive says 512 */
	sector_size = dev_block < UDF_SECTOR ? UDF_SECTOR : dev_block;
	/* the cap keeps sector * sector_size far from 2^64: sectors are < 2^33 */
	if (sector_size % dev_block || sector_size > UDF_SECTOR_MAX)
		return -1;
	avdp = (uint64_t)UDF_AVDP_SECTOR * sector_size;
	/* only the tag and the main VDS extent are read */
	if (!in_buf(avdp, 24, len))
		return -1;
	a = buf + avdp;
	if (!udf_tag_ok(a, UDF_TAG_AVDP, UDF_AVDP_SECTOR))
		return -1;
	ext_len = sg_get_unaligned_le32(a + 16);
	loc = sg_get_unaligned_le32(a + 20);
	if (udf_vds_end(buf, len, sector_size, loc, ext_len, &end))
		return -1;
	/* end < 2^33, sector_size / dev_block <= 2048: no overflow */
	*blocks = end * (sector_size / dev_block);
	return 0;
}
