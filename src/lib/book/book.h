/* SPDX-License-Identifier: MIT */
/*
 * The map book, as GNU ddrescue's Mapbook is to its rescuebook: what
 * image and image --raw keep about a run apart from how the disc is read.
 * It owns the map (mapfile.h) and its whole-run lock (lock.h), the
 * comment records read by one strict parser and written back with every
 * save (records.h: the drive, the identity, the skip list, the raw line),
 * the outputs the map speaks for, and four rules both jobs obey:
 *  - the save order: every output is synced (fdatasync), then the map is
 *    replaced (written beside, synced, renamed over), so a saved map never
 *    claims more than the outputs durably hold, whenever the process dies;
 *  - the identity check: a resumed map's recorded blocks read the same;
 *  - the medium-change rule: after a 06/28/00 the identity is read again,
 *    the same disc goes on, another one (or one whose identity cannot be
 *    read) ends the run before any of its blocks reaches an output;
 *  - a run that read nothing removes what it made (outputs, the map).
 * The resume decision is one state (enum book_state), decided when the
 * map is read; the jobs keep only the extent decision and their files.
 */
#ifndef CDT_BOOK_H
#define CDT_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cdtail.h"
#include "book/mapfile.h"
#include "book/records.h"

/* What the map file said when it was read: decided once (book_load). */
enum book_state {
	BOOK_NONE,	/* no map file: the run keeps its map in memory */
	BOOK_NEW,	/* a map file to make: there is none, --force replaces
			 * it, or it is empty (a run killed before its first
			 * save, where the lock made it: book_lock's create) */
	BOOK_FOREIGN,	/* a map without cdtail's identity (GNU ddrescue's, an
			 * older cdtail's): what shows it is this disc is the
			 * output it was read into */
	BOOK_PENDING,	/* an identity whose end search is still to come, or
			 * that left blocks past its true end neither read nor
			 * skipped: the recorded extent stands, the search runs
			 * after the copy */
	BOOK_WINDOW,	/* an identity whose search stopped at the --max-extra
			 * window: the disc may go on past its extent */
	BOOK_KNOWN,	/* an identity whose search found its end: only the
			 * recorded extent is read */
};

/* An output the map speaks for: synced before each save, removed with a
 * run that read nothing when this run made it.  fd -1: not open (a sheet
 * written whole, synced by its writer). */
struct book_file {
	const char *path;
	int fd;
	bool created;
};

struct map_book {
	struct cdt_dev *dev;		/* for its messages */
	const char *path;		/* the map file, or NULL */
	const char *caller_line;	/* one more comment line, or NULL */
	const char *unit;		/* "block", "stream sector": messages */
	enum book_state state;
	struct cdt_map map;
	int lock;			/* the map file, locked; or -1 */
	bool create;			/* book_lock made a missing map */
	bool created;			/* this run made the map file */
	bool holds;			/* the map file holds this disc's map to
					 * resume from: the last save succeeded,
					 * or the map read was found this disc's */
	struct book_records rec;	/* as read, then this run's (rec.drive
					 * stays the read map's) */
	char drive[DRIVE_MAX];		/* this run's, written; "" none */
	char *base;			/* the comment lines but the identity */
	char *comment;			/* with it, for a save */
	size_t comment_cap;
	struct book_file *files;
	size_t n_files;
	/* the identity read again (0 equal, 1 differs at *at, 2 none read,
	 * <0 error, as id_check): a scripted check for the unit tests
	 * (tests/unit/test_book.c); NULL in the jobs: id_check through read */
	int (*check)(void *ctx, unsigned int *matched, uint64_t *at);
	void *check_ctx;
	/* how the identity's blocks are read without check: the job's disc
	 * reader (engine/reader.h, a floor above this one, hands itself in) */
	id_read_fn *read;
	void *read_ctx;
};

/* An empty book of the map at path (NULL: none), nothing open yet. */
void book_init(struct map_book *b, struct cdt_dev *dev, const char *path,
	       const char *caller_line, const char *unit);

/*
 * Lock the map file for the whole run, so a second run fails at once:
 * where it exists, or made empty when create (image --raw, whose lock
 * stands for many files before any of them exists).  Temporaries of a
 * killed save are removed.  0; CDT_EBUSY, CDT_EUSAGE (a directory),
 * CDT_EIO with the message set.
 */
int book_lock(struct map_book *b, bool create);

/*
 * Read the locked map and its records (not with force: state BOOK_NEW)
 * and decide the state.  0, CDT_EFORMAT (damaged: the message says
 * which record and why), CDT_ENOMEM.
 */
int book_load(struct map_book *b, bool force);

/* A map was read: the run resumes it. */
static inline bool book_resumed(const struct map_book *b)
{
	return b->state >= BOOK_FOREIGN;
}

/* An output, its fd owned by the book from now on (book_close). */
int book_add_file(struct map_book *b, const char *path, int fd, bool created);

/* The comment lines made again from the records (after they change). */
int book_make_comment(struct map_book *b);

/*
 * The first save of a fresh map, before any output exists (so no output
 * ever exists without its map): an existing map file is replaced only
 * with replace.  Marks the map as this run's.
 */
int book_create(struct map_book *b, bool replace);

/* The save order: every output synced, then the map replaced.  No map
 * file: nothing (nor synced). */
int book_save(struct map_book *b, const struct cdt_map *map);

/*
 * The save after a run, whatever ended it (rc: the run's outcome).  After
 * an error the first error stays the one reported: a save that fails too
 * (a full disk fails both) adds its words to the first message, never
 * replaces it.  Returns the save's outcome.
 */
int book_save_after(struct map_book *b, const struct cdt_map *map, int rc);

/* The identity read again: as struct map_book's check. */
int book_check(struct map_book *b, uint8_t *buf, size_t cap,
	       unsigned int *matched, uint64_t *at);

/*
 * The identity check of a resume: the recorded blocks read again.  0 with
 * *verified when every one that read is equal (*matched of them, at
 * least one), 0 without it when none read (worn since, or no record: the
 * job finds other proof); CDT_EOTHERDISC when one differs, CDT_ECHANGED
 * when the medium changed meanwhile, or a device error, message set.
 */
int book_verify(struct map_book *b, uint8_t *buf, size_t cap,
		unsigned int *matched, bool *verified);

/* The medium-change rule (engine.h, rescue_sink's changed): 0 the same
 * disc, CDT_ECHANGED with the message, or a device error. */
int book_changed(struct map_book *b, uint8_t *buf, size_t cap);

/* "map M belongs to another disc: ...", CDT_EOTHERDISC. */
int book_other_disc(struct map_book *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The map read was found to be this disc's (the job's checks passed):
 * as it stands it is one to resume from. */
void book_accept(struct map_book *b);

/* The map file holds this disc's map to resume from (map_saved). */
static inline bool book_map_saved(const struct map_book *b)
{
	return b->path && b->holds;
}

/*
 * The run cannot go on from the map it loaded (its outputs no longer fit
 * it): the map stays as it was, and is not offered to resume from.
 */
static inline void book_decline(struct map_book *b)
{
	b->holds = false;
}

/* A run that read nothing: what it made goes.  true when any went. */
bool book_remove_created(struct map_book *b);

/* Close every output (the first failure is rc's when rc is 0) and the
 * lock, free the rest.  Returns rc or the close's CDT_EIO. */
int book_close(struct map_book *b, int rc);

#endif
