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

#endif
