// SPDX-License-Identifier: MIT
/* The buffers and file of a disc-against-file comparison (compare.h). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "engine/compare.h"
#include "engine/engine.h"

int compare_buffers(struct cdt_dev *dev, uint32_t bs, uint32_t want,
		    uint32_t *chunk, uint8_t **disc, uint8_t **file)
{
	*chunk = rescue_chunk_blocks(dev, bs, want);
	*disc = malloc((size_t)*chunk * bs);
	*file = malloc((size_t)*chunk * bs);
	return *disc && *file ? 0 : CDT_ENOMEM;
}

int compare_pread(int fd, uint8_t *buf, size_t len, uint64_t off, size_t *got)
{
	*got = 0;
	while (*got < len) {
		ssize_t r = pread(fd, buf + *got, len - *got, (off_t)(off + *got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return CDT_EIO;
		if (!r)
			break;
		*got += (size_t)r;
	}
	return 0;
}

void compare_release(int fd, uint8_t *disc, uint8_t *file)
{
	if (fd >= 0)
		close(fd);
	free(disc);
	free(file);
}

int cmp_range_add_span(struct cmp_ranges *r, uint64_t first, uint64_t last)
{
	if (r->n && r->v[r->n - 1].last + 1 == first) {
		r->v[r->n - 1].last = last;
		return 0;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		struct cdt_range *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return CDT_ENOMEM;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = (struct cdt_range){ first, last };
	return 0;
}
