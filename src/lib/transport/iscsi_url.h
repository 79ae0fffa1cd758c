/* SPDX-License-Identifier: MIT */
/*
 * The iscsi:// transport's address parser and its connect call with an
 * explicit login timeout.  Internal: exposed for the unit tests.
 */
#ifndef CDT_ISCSI_URL_H
#define CDT_ISCSI_URL_H

#include <stddef.h>
#include "transport/transport.h"

#define CDT_ISCSI_DEFAULT_PORT 3260
#define CDT_ISCSI_MAX_LUN 16383		/* SAM flat space addressing */
#define CDT_ISCSI_NAME_MAX 223		/* RFC 3720: at most 223 bytes */
#define CDT_ISCSI_LOGIN_TIMEOUT_MS 15000

struct cdt_iscsi_url {
	char host[256];		/* name or address, IPv6 without brackets */
	unsigned int port;
	char portal[272];	/* "host:port" or "[v6]:port", for libiscsi */
	char iqn[CDT_ISCSI_NAME_MAX + 1];
	unsigned int lun;
};

/*
 * Parse "iscsi://HOST[:PORT]/IQN/LUN" strictly.  Returns 0, or CDT_EUSAGE
 * with a one-line message in err naming what is wrong.
 */
int cdt_iscsi_parse_url(const char *url, struct cdt_iscsi_url *u,
			char *err, size_t errlen);

/* cdt_iscsi_open() with the time allowed for connect + login. */
int cdt_iscsi_connect(const char *url, unsigned int login_timeout_ms,
		      struct cdt_transport **tp, char *err, size_t errlen);

#endif
