/* SPDX-License-Identifier: MIT */
/*
 * Exclusive locks on the files of an imaging run (the map, OUT), held for
 * the whole run: open file description locks (F_OFD_SETLK), so they
 * belong to the open file, not the process, and two runs in one process
 * exclude each other too.  A map is replaced by rename at each save: the
 * saver locks the new file before the rename and lets go of the old one
 * after, so whoever opens the name finds a locked file; an opener that
 * got the old file checks that the name still leads to what it locked.
 */
#ifndef CDT_LOCK_H
#define CDT_LOCK_H

#include <stdbool.h>

/*
 * Open path read-write (created with create) and lock it.  0 with *fd,
 * CDT_EOPEN when it does not exist (without create), CDT_EBUSY when
 * another run holds it, CDT_EIO (errno set) otherwise.
 */
int lock_open(const char *path, bool create, int *fd);

/* Lock an open file; 0, CDT_EBUSY or CDT_EIO. */
int lock_fd(int fd);

#endif
