// SPDX-License-Identifier: MIT
/* The buffers and file of a disc-against-file comparison (compare.h). */
#include <stdlib.h>
#include <unistd.h>
#include "rescue/compare.h"
#include "rescue/engine.h"

int compare_buffers(struct cdt_dev *dev, uint32_t bs, uint32_t want,
		    uint32_t *chunk, uint8_t **disc, uint8_t **file)
{
	*chunk = rescue_chunk_blocks(dev, bs, want);
	*disc = malloc((size_t)*chunk * bs);
	*file = malloc((size_t)*chunk * bs);
	return *disc && *file ? 0 : CDT_ENOMEM;
}

void compare_release(int fd, uint8_t *disc, uint8_t *file)
{
	if (fd >= 0)
		close(fd);
	free(disc);
	free(file);
}
