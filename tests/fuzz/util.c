// SPDX-License-Identifier: MIT
/* Helpers shared by the fuzz targets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "transport/transport.h"
#include "fuzz.h"

char *fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

int fuzz_exec(struct cdt_transport *t, struct cdt_cmd *cmd, const uint8_t *cdb,
	      unsigned int len, void *buf, uint32_t buf_len, unsigned int timeout_ms)
{
	memset(cmd, 0, sizeof(*cmd));
	memcpy(cmd->cdb, cdb, len);
	cmd->cdb_len = len;
	cmd->data = buf;
	cmd->data_len = buf_len;
	cmd->timeout_ms = timeout_ms;
	return t->ops->exec(t, cmd);
}

void fuzz_put_file(const char *dir, const char *sub, const char *name,
		   const void *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	f = fopen(path, "wb");
	if (!f || (len && fwrite(buf, len, 1, f) != 1) || fclose(f)) {
		perror(path);
		exit(1);
	}
}
