// SPDX-License-Identifier: MIT
/* Whole-run locks on the map and OUT (see lock.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cdtail.h"
#include "book/lock.h"

int lock_fd(int fd)
{
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	/* whole file, never blocking: a second run fails at once */
	if (!fcntl(fd, F_OFD_SETLK, &fl))
		return 0;
	return errno == EAGAIN || errno == EACCES ? CDT_EBUSY : CDT_EIO;
}

/* Does path still name the file open on fd? */
static bool still_named(const char *path, int fd)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int lock_open(const char *path, bool create, int *fd)
{
	int tries, rc, err;

	for (tries = 0; tries < 100; tries++) {
		*fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0644);
		if (*fd < 0)
			return errno == ENOENT && !create ? CDT_EOPEN : CDT_EIO;
		rc = lock_fd(*fd);
		if (!rc && still_named(path, *fd))
			return 0;
		err = errno;
		close(*fd);
		*fd = -1;
		if (rc) {
			errno = err;
			return rc;
		}
		/* replaced between our open and our lock: open the new one */
	}
	errno = EAGAIN;
	return CDT_EBUSY;
}
