// SPDX-License-Identifier: MIT
/*
 * A device handle's public life: cdt_open (which transport an address
 * names, the options by the size convention), cdt_close, the statistics.
 * Apart from device.c because these are entry points that go through
 * abi.c, and abi.c reports through device.c's cdt_dev_seterr: with them
 * in device.c the two files called each other.  The command path itself
 * stays in device.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/abi.h"
#include "core/device.h"

#define DEV_DEFAULT_TIMEOUT_MS 30000

static int open_transport(const char *addr, unsigned int timeout_ms,
			  struct cdt_transport **tp, char *err, size_t errlen)
{
	if (!strncmp(addr, "sim:", 4))
		return cdt_sim_open(addr + 4, tp, err, errlen);
	if (!strncmp(addr, "iscsi://", 8))
		return cdt_iscsi_open(addr, timeout_ms, tp, err, errlen);
	if (strchr(addr, '/'))
		return cdt_sgio_open(addr, tp, err, errlen);
	snprintf(err, errlen,
		 "unknown device address '%s' (want /dev/srN, /dev/sgN, sim:IMAGE[,key=value...] or iscsi://HOST[:PORT]/IQN/LUN)",
		 addr);
	return CDT_EUSAGE;
}

int cdt_open(const char *addr, const struct cdt_open_opts *opts,
	     struct cdt_dev **devp, char *errbuf, size_t errlen)
{
	struct cdt_transport *t = NULL;
	struct cdt_open_opts o;
	struct cdt_dev *dev;
	char dummy[8];
	int rc;

	*devp = NULL;
	if (!errbuf || !errlen) {
		errbuf = dummy;
		errlen = sizeof(dummy);
	}
	errbuf[0] = '\0';
	if (!addr || !*addr) {
		snprintf(errbuf, errlen, "no device address given");
		return CDT_EUSAGE;
	}
	if (cdt_abi_opts(NULL, &o, sizeof(o), opts, "")) {
		snprintf(errbuf, errlen, "struct cdt_open_opts: size is 0: initialise it with CDT_INIT()");
		return CDT_EUSAGE;
	}
	rc = open_transport(addr, o.timeout_ms, &t, errbuf, errlen);
	if (rc)
		return rc;
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		t->ops->close(t);
		snprintf(errbuf, errlen, "out of memory");
		return CDT_ENOMEM;
	}
	dev->t = t;
	dev->peripheral_type = -1;
	snprintf(dev->addr, sizeof(dev->addr), "%s", addr);
	dev->timeout_ms = o.timeout_ms ? o.timeout_ms : DEV_DEFAULT_TIMEOUT_MS;
	dev->log = o.log;
	dev->log_ctx = o.log_ctx;
	*devp = dev;
	return 0;
}

void cdt_close(struct cdt_dev *dev)
{
	if (!dev)
		return;
	dev->t->ops->close(dev->t);
	cdt_layout_free(dev->probed_layout);
	cdt_dev_keep_cd_text(dev, NULL);
	free(dev);
}

void cdt_get_stats(const struct cdt_dev *dev, struct cdt_stats *st)
{
	struct cdt_stats full = dev->stats;

	full.size = sizeof(full);
	cdt_abi_out(st, &full, sizeof(full));
}

void cdt_reset_stats(struct cdt_dev *dev)
{
	memset(&dev->stats, 0, sizeof(dev->stats));
}
