/* SPDX-License-Identifier: MIT */
/*
 * GNU ddrescue mapfiles: the single record of what an imaging run has
 * read.  Positions and sizes are in bytes, as ddrescue writes them, so
 * ddrescuelog(1) and ddrescue itself can read what cdtail writes.
 *
 * In memory a map is a sorted array of contiguous runs covering [0, size);
 * adjacent runs never share a status.  Its length grows with the number of
 * error areas on the disc, not with the disc's size.
 */
#ifndef CDT_MAPFILE_H
#define CDT_MAPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Block statuses, ddrescue's characters. */
#define MAP_NONTRIED '?'
#define MAP_NONTRIMMED '*'
#define MAP_NONSCRAPED '/'
#define MAP_BAD '-'
#define MAP_FINISHED '+'

struct map_run {
	uint64_t pos, size;
	char status;
};

struct cdt_map {
	struct map_run *runs;
	size_t n, cap;
	uint64_t size;		/* bytes covered: [0, size) */
	/* the "current_pos current_status current_pass" line */
	uint64_t cur_pos;
	char cur_status;
	unsigned int cur_pass;
};

/* A map of size bytes, all of one status.  0 or CDT_ENOMEM. */
int map_init(struct cdt_map *m, uint64_t size, char status);
void map_free(struct cdt_map *m);

/* Give [pos, pos + len) the status; len 0 is a no-op.  0 or CDT_ENOMEM. */
int map_set(struct cdt_map *m, uint64_t pos, uint64_t len, char status);

/*
 * Make the map cover [0, size): what it gains gets the status, what lies
 * past size is dropped.  0 or CDT_ENOMEM.
 */
int map_resize(struct cdt_map *m, uint64_t size, char status);

/* Status of the byte at pos (pos < size). */
char map_status_at(const struct cdt_map *m, uint64_t pos);

/*
 * The first run of the status that ends after pos: its part at or after
 * pos goes to *start, *len.  false when there is none.
 */
bool map_find(const struct cdt_map *m, char status, uint64_t pos,
	      uint64_t *start, uint64_t *len);

/* The last run of the status that starts before end, clipped to end. */
bool map_find_back(const struct cdt_map *m, char status, uint64_t end,
		   uint64_t *start, uint64_t *len);

/* Bytes with the status. */
uint64_t map_count(const struct cdt_map *m, char status);
/* Maximal runs of blocks whose status is one of statuses (e.g. bad, non-trimmed, non-scraped). */
uint64_t map_areas(const struct cdt_map *m, const char *statuses);

/*
 * Parse a mapfile held in buf.  Comment lines (#) and blank lines are
 * skipped; the status line comes first, then runs that must be contiguous
 * from 0.  On failure returns CDT_EFORMAT (or CDT_ENOMEM) and err says
 * which line and why.
 */
int map_parse(const char *buf, size_t len, struct cdt_map *m,
	      char *err, size_t errlen);

/* Write the map in ddrescue's layout; comment is one more "# " line. */
int map_write(FILE *f, const struct cdt_map *m, const char *comment);

/* What current_status means, in ddrescue's words. */
const char *map_phase_text(char cur_status);

/*
 * The text of the mapfile at path in a malloc'd *bufp (free it), *lenp
 * bytes.  CDT_EOPEN when it does not exist, CDT_EFORMAT when it is not a
 * regular file or too large to be a map.
 */
int map_read_file(const char *path, char **bufp, size_t *lenp,
		  char *err, size_t errlen);

/* Read and parse path.  CDT_EOPEN when it does not exist. */
int map_load(const char *path, struct cdt_map *m, char *err, size_t errlen);

/*
 * Read and parse the map open on fd (path names it in messages); with
 * text, the file's bytes too, NUL-terminated (free them), for the
 * comment lines a caller reads itself.
 */
int map_load_fd(int fd, const char *path, struct cdt_map *m, char **text,
		char *err, size_t errlen);

/*
 * Replace path atomically: write a new file of a unique name beside it
 * (path.cdtail-XXXXXX), fsync it, rename it over path, fsync the
 * directory.  comment may hold several lines.  The temporary file is
 * removed on every failure.
 */
int map_save(const char *path, const struct cdt_map *m, const char *comment,
	     char *err, size_t errlen);

/*
 * Remove the temporaries of path's saves (path.cdtail-XXXXXX) that no
 * process holds locked: a run killed between creating one and renaming it
 * over path leaves it (issue 28, I).  Call it holding path's lock, so that
 * no run of this map is saving meanwhile (image's saves lock theirs).
 */
void map_remove_stale(const char *path);

/*
 * map_save for a run that holds the map locked (lock.h): the new file is
 * locked before it takes the name, then *lock (the old file's fd, or -1)
 * is closed and becomes the new file's.  Without replace an existing
 * path is not replaced: CDT_EBUSY (another run created it meanwhile).
 */
int map_save_locked(const char *path, const struct cdt_map *m, const char *comment,
		    int *lock, bool replace, char *err, size_t errlen);

#endif
