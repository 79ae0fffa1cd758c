// SPDX-License-Identifier: MIT
/*
 * The image file's bytes, for read.c's user data and cuedisc.c's stored
 * sectors alike: a leaf, so that neither reaches back into sim.c.
 */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>
#include "sim/drive.h"

bool sim_pread_all(int fd, void *buf, size_t len, off_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = pread(fd, (uint8_t *)buf + got, len - got,
				  off + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}
