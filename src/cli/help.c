// SPDX-License-Identifier: MIT
/*
 * cdtail help COMMAND: the command's manual page, cdtail-COMMAND(1).
 *
 * The page shown is the one that belongs to this binary, found from where
 * the binary is (/proc/self/exe), never from a path fixed at build time, so
 * a moved tree or a relocated install still finds its own pages:
 *   1. installed beside it: BIN/../share/man/man1 (make install puts the
 *      binary in PREFIX/bin and the pages in PREFIX/share/man, whatever
 *      PREFIX and DESTDIR are);
 *   2. the source tree it was built in: the first of its directory and
 *      three parents that holds man/ and include/cdtail.h (the binaries
 *      make builds are ./cdtail, build/cdtail-shared and, with O=build/asan,
 *      build/asan/cdtail and build/asan/build/cdtail-shared);
 *   3. any page man(1) finds by name (man -w: an install elsewhere).
 * A file is shown with man -l, which formats it and pages it on a terminal
 * as man NAME does; installed pages may be gzipped (PAGE.1.gz, as Debian
 * ships them).  Where man cannot run (a minimal system without man-db),
 * cdtail formats the file itself (manview.c, gzip -dc for a .gz), after a
 * line on stderr that says why.  With no page at all, the command's --help
 * text, after a line that says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <unistd.h>
#include "cli.h"
#include "manview.h"

extern char **environ;

/* Parents of the binary's directory searched for the source tree. */
#define TREE_DEPTH 3

static bool readable(const char *path)
{
	return !access(path, R_OK);
}

/* The directory of the running binary, symbolic links resolved. */
static bool binary_dir(char *dir, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	return (size_t)snprintf(dir, len, "%s", dirname(exe)) < len;
}

/* 1: BIN/../share/man/man1/PAGE.1, or PAGE.1.gz */
static bool page_installed(const char *bin, const char *page, char *path, size_t len)
{
	return ((size_t)snprintf(path, len, "%s/../share/man/man1/%s.1", bin, page) < len &&
		readable(path)) ||
	       ((size_t)snprintf(path, len, "%s/../share/man/man1/%s.1.gz", bin, page) < len &&
		readable(path));
}

/* 2: TREE/man/PAGE.1, TREE being BIN or one of its parents */
static bool page_in_tree(const char *bin, const char *page, char *path, size_t len)
{
	char up[PATH_MAX] = "", marker[PATH_MAX];
	int depth;

	for (depth = 0; depth <= TREE_DEPTH; depth++) {
		if ((size_t)snprintf(marker, sizeof(marker), "%s/%sinclude/cdtail.h", bin, up) <
			    sizeof(marker) &&
		    readable(marker) &&
		    (size_t)snprintf(path, len, "%s/%sman/%s.1", bin, up, page) < len &&
		    readable(path))
			return true;
		strcat(up, "../");
	}
	return false;
}

/* Runs ARGV with stdout and stderr on /dev/null: did it exit 0? */
static bool quietly_succeeds(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;

	if (posix_spawn_file_actions_init(&fa))
		return false;
	rc = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
	     posix_spawn_file_actions_adddup2(&fa, 1, 2) ||
	     posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return false;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* 3: man -w PAGE */
static bool page_known_to_man(const char *page)
{
	char *argv[] = { "man", "-w", (char *)page, NULL };

	return quietly_succeeds(argv);
}

/* Replaces this process with man(1); returns only if it could not run. */
static void exec_man(char *const argv[])
{
	fflush(stdout);
	execvp(argv[0], argv);
}

static bool gzipped(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && !strcmp(path + n - 3, ".gz");
}

/* path's text, through gzip -dc for a .gz; *pid the child's, or -1. */
static FILE *open_page(const char *path, pid_t *pid)
{
	char *argv[] = { "gzip", "-dc", "--", (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	int fd[2], rc;
	FILE *f;

	*pid = -1;
	if (!gzipped(path))
		return fopen(path, "re");
	if (pipe(fd))
		return NULL;
	if (posix_spawn_file_actions_init(&fa)) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	rc = posix_spawn_file_actions_adddup2(&fa, fd[1], 1) ||
	     posix_spawn_file_actions_addclose(&fa, fd[0]) ||
	     posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (rc) {
		*pid = -1;
		close(fd[0]);
		return NULL;
	}
	f = fdopen(fd[0], "r");
	if (!f)
		close(fd[0]);
	return f;
}

/* MANWIDTH as man takes it, else 80 */
static unsigned int page_width(void)
{
	const char *w = getenv("MANWIDTH");
	long v = w ? strtol(w, NULL, 10) : 0;

	return v >= 40 && v <= 1000 ? (unsigned int)v : CLI_COLUMNS;
}

/* The page formatted here (manview.c); false when it could not be read. */
static bool show_page(const char *path)
{
	pid_t pid;
	FILE *f = open_page(path, &pid);
	bool ok;
	int st = 0;

	if (!f)
		return false;
	ok = !manview_render(f, stdout, page_width());
	fclose(f);
	if (pid > 0) {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		ok = ok && WIFEXITED(st) && !WEXITSTATUS(st);
	}
	return ok;
}

int cli_help_page(const struct cli_cmd *cmd)
{
	char page[64], bin[PATH_MAX], path[PATH_MAX];
	bool have_bin = binary_dir(bin, sizeof(bin));

	snprintf(page, sizeof(page), "cdtail-%s", cmd->name);
	if (have_bin && (page_installed(bin, page, path, sizeof(path)) ||
			 page_in_tree(bin, page, path, sizeof(path)))) {
		exec_man((char *[]){ "man", "-l", path, NULL });
		cli_err("help: cannot run man (%s) to show %s; its text as cdtail formats it:",
			strerror(errno), path);
		fflush(stderr);
		if (show_page(path))
			return 0;
		cli_err("help: cannot read %s; the options of %s:", path, cmd->name);
	} else if (page_known_to_man(page)) {
		exec_man((char *[]){ "man", page, NULL });
		cli_err("help: cannot run man (%s); the options of %s:", strerror(errno),
			cmd->name);
	} else {
		cli_err("help: no manual page %s(1) found beside this binary or by man; "
			"the options of %s:", page, cmd->name);
	}
	cli_help(cmd, stdout);
	return 0;
}
