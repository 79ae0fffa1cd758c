/* SPDX-License-Identifier: MIT */
/* The one command path above the transports. */
#ifndef CDT_DEVICE_H
#define CDT_DEVICE_H

#include <stdarg.h>
#include "cdtail.h"
#include "transport/transport.h"
#include "mmc/answer.h"
#include "mmc/sense.h"

struct cdt_dev {
	struct cdt_transport *t;
	char addr[512];
	unsigned int timeout_ms;
	cdt_log_fn log;
	void *log_ctx;
	uint32_t block_size;	/* 0 until the probe (cdt_read_sizes) sets it */
	int peripheral_type;	/* from INQUIRY, -1 until asked */
	struct cdt_stats stats;
	char errmsg[512];
	/* 06/28/00 answers seen: the medium may have changed */
	unsigned int medium_changes;
	/* the largest read the device took after refusing one as too long; 0: none */
	uint32_t max_blocks;
	/* what the table made of the last command's answer (mmc/answer.h) */
	enum cdt_action last_action;
	/*
	 * A copy of the disc's structure the last probe of this handle found,
	 * kept for cdt_dev_layout() alone, which hands out copies of it: the
	 * public API asks for it by handle.  Nothing in the library reads it
	 * back: the probe returns what it found to its caller (probe/probe.h,
	 * struct probe_findings), and the jobs use that.
	 */
	struct cdt_layout *probed_layout;
	/* the CD-TEXT the last probe read, kept the same way (cdt_dev_cd_text) */
	struct cdt_cd_text *probed_cd_text;
};

/*
 * Keep l (owned from now on; NULL: none) as the layout cdt_dev_layout()
 * copies, freeing the one kept before.
 */
void cdt_dev_keep_layout(struct cdt_dev *dev, struct cdt_layout *l);
/* A copy of l and its arrays (NULL for NULL or out of memory). */
struct cdt_layout *cdt_layout_copy(const struct cdt_layout *l);
/* Keep t (owned, from cdt_cd_text_copy; NULL: none) as cdt_dev_cd_text's. */
void cdt_dev_keep_cd_text(struct cdt_dev *dev, struct cdt_cd_text *t);
/* A copy of t on the heap, its strings too (NULL for NULL or out of memory). */
struct cdt_cd_text *cdt_cd_text_copy(const struct cdt_cd_text *t);

/*
 * Send cmd through the allow-list, the transport, the table's retries
 * (mmc/answer.c), the statistics and the log callback.  Returns 0 when
 * the data arrived (GOOD; cmd->resid says how much), CDT_ECHECK with
 * *sense decoded when the drive answered with an error, CDT_ETIMEOUT,
 * CDT_ENOMEDIUM, CDT_EINTR (a signal: never sent again), or a negative
 * transport error.  dev->last_action says what the answer means.
 */
int cdt_dev_exec(struct cdt_dev *dev, struct cdt_cmd *cmd,
		 struct cdt_sense *sense);

/* Build a data-in command around cdb and buf, run it. */
int cdt_dev_simple(struct cdt_dev *dev, const uint8_t *cdb, unsigned int len,
		   void *buf, uint32_t buf_len, uint32_t *got,
		   struct cdt_sense *sense);

/*
 * INQUIRY, and remember the peripheral type: the allow-list lets MMC-only
 * opcodes through only for type 5.
 */
struct mmc_inquiry;
int cdt_dev_inquiry(struct cdt_dev *dev, struct mmc_inquiry *mi);

void cdt_dev_seterr(struct cdt_dev *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The largest transfer in bytes one command may move: the transport's
 * (the queue's max_hw_sectors, 64 KiB when it cannot say), lowered by a
 * read refused as too long mid-run.  Every reader sizes its commands by it
 * (engine/reader.h); cdt_max_read_blocks() is the same in whole blocks.
 */
uint32_t cdt_dev_max_bytes(const struct cdt_dev *dev);


#endif
