/* SPDX-License-Identifier: MIT */
/*
 * Internals of the hazards scan, between its three files and for the unit
 * tests: values.c (parsers of sysfs attribute values, pure), sysfs.c
 * (reading: nodes from a sysfs root and the caching page), rules.c
 * (findings from the nodes alone).
 */
#ifndef CDT_HAZARDS_H
#define CDT_HAZARDS_H

#include <stddef.h>
#include "cdtail-hazards.h"
#include "mmc/mmc.h"

/* the most nodes a scan collects */
#define HZ_MAX_NODES 256

/*
 * Value parsers.  Each takes an attribute as sysfs prints it, with or
 * without the trailing newline, and returns 1, 0, or -1 when the value is
 * not one the kernel prints (never a guess).
 */
int hz_parse_write_cache(const char *s);	/* "write back" / "write through" */
int hz_parse_bool01(const char *s);		/* "1" / "0" */
int hz_parse_cache_type(const char *s);	/* sd: "write back[, no read (daft)]" */
long hz_parse_ulong(const char *s);		/* decimal, -1 when not */
int hz_parse_devt(const char *s, unsigned int *maj, unsigned int *min);

/*
 * Read ROOT-relative or absolute attribute DIR/REL into buf without the
 * trailing newline.  Returns 0, or -1 when missing, unreadable or empty.
 */
int hz_read_attr(const char *dir, const char *rel, char *buf, size_t len);

/* The array v of n elements with a zeroed one more (realloc'd), or NULL. */
void *hz_grow(void *v, size_t n, size_t elem);

/* Append a zeroed element to arr, of n elements (n grows): it, or NULL. */
#define HZ_APPEND(arr, n) __extension__ ({				\
	__typeof__(arr) v_ = hz_grow((arr), (n), sizeof(*(arr)));	\
	v_ ? ((arr) = v_, &v_[(n)++]) : NULL;				\
})

/* Fold a parsed caching page into a node. */
void hz_apply_caching(struct cdt_hazard_node *n,
		      const struct mmc_mode_caching *mc);

/*
 * An info finding the reading makes itself (what it could not follow):
 * 0, or CDT_ENOMEM.
 */
int hz_note(struct cdt_hazard_list *l, const char *id, const char *where,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Derive every finding from list->nodes; appends to list->hazards. */
int hz_evaluate(struct cdt_hazard_list *list);

#endif
