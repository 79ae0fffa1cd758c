/* SPDX-License-Identifier: MIT */
/*
 * Shared by the fuzz targets: the libFuzzer entry points, so that the
 * same target builds with libFuzzer (clang) and with the replay driver
 * (driver.c, gcc).
 */
#ifndef CDT_FUZZ_H
#define CDT_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A NUL-terminated copy of data (the caller frees it), or NULL. */
char *fuzz_strdup(const uint8_t *data, size_t size);

struct cdt_cmd;
struct cdt_transport;

/* One CDB through the transport into cmd (zeroed first); exec's return. */
int fuzz_exec(struct cdt_transport *t, struct cdt_cmd *cmd, const uint8_t *cdb,
	      unsigned int len, void *buf, uint32_t buf_len, unsigned int timeout_ms);
/* DIR/SUB/NAME holds buf (SUB made if missing); exits on a failure. */
void fuzz_put_file(const char *dir, const char *sub, const char *name,
		   const void *buf, size_t len);

#endif
