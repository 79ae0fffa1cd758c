// SPDX-License-Identifier: MIT
/*
 * A layout's memory: the public cdt_dev_layout(), which hands out an
 * owned copy of what the last probe of a handle found, and
 * cdt_layout_free().  A copy, because the next probe of the handle (every
 * cdt_image, cdt_tail and cdt_verify runs one) replaces what the handle
 * keeps: a pointer into it was freed under its holder (issue 31).
 */
#include <stdlib.h>
#include <string.h>
#include "core/device.h"

void cdt_layout_free(struct cdt_layout *l)
{
	if (!l)
		return;
	free(l->tracks);
	free(l->gaps);
	free(l->skip);
	free(l->indexes);
	free(l);
}

/* n elements of size sz from src, or NULL (none to copy, or no memory: *bad) */
static void *dup_array(const void *src, size_t n, size_t sz, bool *bad)
{
	void *p;

	if (!src || !n)
		return NULL;
	p = malloc(n * sz);
	if (!p) {
		*bad = true;
		return NULL;
	}
	memcpy(p, src, n * sz);
	return p;
}

struct cdt_layout *cdt_layout_copy(const struct cdt_layout *l)
{
	struct cdt_layout *c;
	bool bad = false;

	if (!l)
		return NULL;
	c = malloc(sizeof(*c));
	if (!c)
		return NULL;
	*c = *l;
	c->tracks = dup_array(l->tracks, l->n_tracks, sizeof(*l->tracks), &bad);
	c->gaps = dup_array(l->gaps, l->n_gaps, sizeof(*l->gaps), &bad);
	c->skip = dup_array(l->skip, l->n_skip, sizeof(*l->skip), &bad);
	c->indexes = dup_array(l->indexes, l->n_indexes, sizeof(*l->indexes), &bad);
	if (bad) {
		cdt_layout_free(c);
		return NULL;
	}
	return c;
}

void cdt_dev_keep_layout(struct cdt_dev *dev, struct cdt_layout *l)
{
	if (dev->probed_layout != l)
		cdt_layout_free(dev->probed_layout);
	dev->probed_layout = l;
}

struct cdt_layout *cdt_dev_layout(const struct cdt_dev *dev)
{
	return dev ? cdt_layout_copy(dev->probed_layout) : NULL;
}
