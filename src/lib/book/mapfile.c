// SPDX-License-Identifier: MIT
/*
 * GNU ddrescue mapfiles: parse, edit in memory, write, replace atomically.
 * The layout follows ddrescue's manual ("Mapfile structure"): comment
 * lines, the "current_pos current_status current_pass" line, then one
 * "pos size status" line per run, numbers as 0x-prefixed hex.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cdtail.h"
#include "book/lock.h"
#include "book/mapfile.h"

/* Nobody needs a map this large; a bigger file is not a map. */
#define MAP_FILE_MAX (64u * 1024 * 1024)

int map_init(struct cdt_map *m, uint64_t size, char status)
{
	memset(m, 0, sizeof(*m));
	m->size = size;
	m->cur_status = MAP_NONTRIED;
	m->cur_pass = 1;
	if (!size)
		return 0;
	m->runs = malloc(4 * sizeof(*m->runs));
	if (!m->runs)
		return CDT_ENOMEM;
	m->cap = 4;
	m->runs[0] = (struct map_run){ 0, size, status };
	m->n = 1;
	return 0;
}

void map_free(struct cdt_map *m)
{
	free(m->runs);
	memset(m, 0, sizeof(*m));
}

static int reserve(struct cdt_map *m, size_t want)
{
	struct map_run *r;
	size_t cap;

	if (want <= m->cap)
		return 0;
	cap = m->cap ? m->cap * 2 : 8;
	while (cap < want)
		cap *= 2;
	r = realloc(m->runs, cap * sizeof(*r));
	if (!r)
		return CDT_ENOMEM;
	m->runs = r;
	m->cap = cap;
	return 0;
}

/* Index of the run holding byte pos (pos < size). */
static size_t run_index(const struct cdt_map *m, uint64_t pos)
{
	size_t lo = 0, hi = m->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->runs[mid].pos <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Join runs of one status in [from, to] (indices, clipped). */
static void merge_around(struct cdt_map *m, size_t from, size_t to)
{
	size_t i;

	if (to >= m->n)
		to = m->n - 1;
	for (i = from; i < to && i + 1 < m->n;) {
		if (m->runs[i].status != m->runs[i + 1].status) {
			i++;
			continue;
		}
		m->runs[i].size += m->runs[i + 1].size;
		memmove(&m->runs[i + 1], &m->runs[i + 2],
			(m->n - i - 2) * sizeof(*m->runs));
		m->n--;
		to--;
	}
}

int map_set(struct cdt_map *m, uint64_t pos, uint64_t len, char status)
{
	struct map_run piece[3];
	size_t i, j, k = 0;
	uint64_t end;

	if (!len || pos >= m->size)
		return 0;
	if (len > m->size - pos)
		len = m->size - pos;
	end = pos + len;
	i = run_index(m, pos);
	j = run_index(m, end - 1);
	if (m->runs[i].pos < pos)
		piece[k++] = (struct map_run){ m->runs[i].pos,
					       pos - m->runs[i].pos,
					       m->runs[i].status };
	piece[k++] = (struct map_run){ pos, len, status };
	if (m->runs[j].pos + m->runs[j].size > end)
		piece[k++] = (struct map_run){ end,
					       m->runs[j].pos + m->runs[j].size - end,
					       m->runs[j].status };
	/* runs i..j (j - i + 1 of them) become the k pieces */
	if (k > j - i + 1 && reserve(m, m->n + k - (j - i + 1)))
		return CDT_ENOMEM;
	memmove(&m->runs[i + k], &m->runs[j + 1],
		(m->n - j - 1) * sizeof(*m->runs));
	memcpy(&m->runs[i], piece, k * sizeof(*piece));
	m->n = m->n - (j - i + 1) + k;
	merge_around(m, i ? i - 1 : 0, i + k);
	return 0;
}

int map_resize(struct cdt_map *m, uint64_t size, char status)
{
	size_t i;

	if (!m->n || !size) {
		map_free(m);
		return map_init(m, size, status);
	}
	if (size > m->size) {
		if (m->runs[m->n - 1].status == status) {
			m->runs[m->n - 1].size += size - m->size;
		} else {
			if (reserve(m, m->n + 1))
				return CDT_ENOMEM;
			m->runs[m->n++] = (struct map_run){ m->size, size - m->size, status };
		}
	} else if (size < m->size) {
		for (i = 0; i < m->n && m->runs[i].pos < size; i++)
			;
		m->n = i;
		m->runs[i - 1].size = size - m->runs[i - 1].pos;
	}
	m->size = size;
	if (m->cur_pos > size)
		m->cur_pos = size;
	return 0;
}

char map_status_at(const struct cdt_map *m, uint64_t pos)
{
	if (pos >= m->size)
		return 0;
	return m->runs[run_index(m, pos)].status;
}

bool map_find(const struct cdt_map *m, char status, uint64_t pos,
	      uint64_t *start, uint64_t *len)
{
	size_t i;

	if (pos >= m->size)
		return false;
	for (i = run_index(m, pos); i < m->n; i++) {
		const struct map_run *r = &m->runs[i];

		if (r->status != status)
			continue;
		*start = r->pos > pos ? r->pos : pos;
		*len = r->pos + r->size - *start;
		return true;
	}
	return false;
}

bool map_find_back(const struct cdt_map *m, char status, uint64_t end,
		   uint64_t *start, uint64_t *len)
{
	size_t i;

	if (!end || !m->n)
		return false;
	if (end > m->size)
		end = m->size;
	for (i = run_index(m, end - 1) + 1; i-- > 0;) {
		const struct map_run *r = &m->runs[i];
		uint64_t stop;

		if (r->status != status)
			continue;
		stop = r->pos + r->size < end ? r->pos + r->size : end;
		*start = r->pos;
		*len = stop - r->pos;
		return true;
	}
	return false;
}

uint64_t map_count(const struct cdt_map *m, char status)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->runs[i].status == status)
			total += m->runs[i].size;
	return total;
}

uint64_t map_areas(const struct cdt_map *m, const char *statuses)
{
	uint64_t areas = 0;
	bool inside = false;
	size_t i;

	for (i = 0; i < m->n; i++) {
		bool in = strchr(statuses, m->runs[i].status) != NULL;

		areas += in && !inside;
		inside = in;
	}
	return areas;
}

/* ---- parsing ----------------------------------------------------------- */

struct map_line {
	const char *word[4];
	size_t wlen[4];
	unsigned int nwords;	/* up to 4; a 5th word makes it 5 */
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static void split_line(const char *s, size_t len, struct map_line *ln)
{
	size_t i = 0;

	ln->nwords = 0;
	while (i < len) {
		size_t start;

		while (i < len && is_blank(s[i]))
			i++;
		if (i >= len)
			break;
		start = i;
		while (i < len && !is_blank(s[i]))
			i++;
		if (ln->nwords == 4) {
			ln->nwords = 5;
			return;
		}
		ln->word[ln->nwords] = s + start;
		ln->wlen[ln->nwords++] = i - start;
	}
}

/* Hex with 0x, or decimal, as ddrescue reads them; no sign, no overflow. */
static int parse_num(const char *s, size_t len, uint64_t *out)
{
	unsigned int base = 10;
	uint64_t v = 0;
	size_t i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= len)
		return -1;
	for (; i < len; i++) {
		unsigned int d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

static bool one_char_of(const char *w, size_t len, const char *set)
{
	return len == 1 && strchr(set, w[0]) != NULL;
}

static int parse_status_line(const struct map_line *ln, struct cdt_map *m)
{
	uint64_t pass = 1;

	if (ln->nwords < 2 || ln->nwords > 3)
		return -1;
	if (parse_num(ln->word[0], ln->wlen[0], &m->cur_pos))
		return -1;
	if (!one_char_of(ln->word[1], ln->wlen[1], "?*/-FG+"))
		return -1;
	m->cur_status = ln->word[1][0];
	if (ln->nwords == 3 &&
	    (parse_num(ln->word[2], ln->wlen[2], &pass) || !pass || pass > 1000000))
		return -1;
	m->cur_pass = (unsigned int)pass;
	return 0;
}

static int parse_run_line(const struct map_line *ln, struct cdt_map *m,
			  const char **why)
{
	uint64_t pos, size;
	char st;

	if (ln->nwords != 3 || parse_num(ln->word[0], ln->wlen[0], &pos) ||
	    parse_num(ln->word[1], ln->wlen[1], &size) ||
	    !one_char_of(ln->word[2], ln->wlen[2], "?*/-+")) {
		*why = "not 'pos size status'";
		return CDT_EFORMAT;
	}
	st = ln->word[2][0];
	if (pos != m->size) {
		*why = "runs are not contiguous from 0";
		return CDT_EFORMAT;
	}
	if (!size || size > UINT64_MAX - pos) {
		*why = "bad run size";
		return CDT_EFORMAT;
	}
	if (m->n && m->runs[m->n - 1].status == st) {
		m->runs[m->n - 1].size += size;
	} else {
		if (reserve(m, m->n + 1))
			return CDT_ENOMEM;
		m->runs[m->n++] = (struct map_run){ pos, size, st };
	}
	m->size = pos + size;
	return 0;
}

int map_parse(const char *buf, size_t len, struct cdt_map *m,
	      char *err, size_t errlen)
{
	bool have_status = false;
	unsigned int lineno = 0;
	const char *why = NULL;
	size_t off = 0;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->cur_status = MAP_NONTRIED;
	m->cur_pass = 1;
	while (off < len && !rc) {
		const char *line = buf + off;
		const char *nl = memchr(line, '\n', len - off);
		size_t llen = nl ? (size_t)(nl - line) : len - off;
		struct map_line ln;

		lineno++;
		split_line(line, llen, &ln);
		off += llen + (nl ? 1 : 0);
		if (!ln.nwords || ln.word[0][0] == '#')
			continue;
		if (memchr(line, '\0', llen)) {
			why = "NUL byte";
			rc = CDT_EFORMAT;
		} else if (!have_status) {
			have_status = true;
			if (parse_status_line(&ln, m)) {
				why = "not 'current_pos current_status [current_pass]'";
				rc = CDT_EFORMAT;
			}
		} else {
			rc = parse_run_line(&ln, m, &why);
		}
	}
	if (!rc && !have_status) {
		why = "no status line: empty or not a mapfile";
		rc = CDT_EFORMAT;
		lineno = 0;
	}
	if (!rc)
		return 0;
	if (err && errlen) {
		if (rc == CDT_ENOMEM)
			snprintf(err, errlen, "out of memory");
		else if (lineno)
			snprintf(err, errlen, "line %u: %s", lineno, why);
		else
			snprintf(err, errlen, "%s", why);
	}
	map_free(m);
	return rc;
}

/* ---- writing ----------------------------------------------------------- */

const char *map_phase_text(char cur_status)
{
	switch (cur_status) {
	case MAP_NONTRIED:
		return "Copying non-tried blocks...";
	case MAP_NONTRIMMED:
		return "Trimming non-trimmed blocks...";
	case MAP_NONSCRAPED:
		return "Scraping non-scraped blocks...";
	case MAP_BAD:
		return "Retrying bad sectors...";
	case MAP_FINISHED:
		return "Finished";
	}
	return "Unknown";
}

/* Each line of comment as a "# " line: ddrescue skips them all. */
static void write_comment(FILE *f, const char *comment)
{
	while (comment && *comment) {
		size_t n = strcspn(comment, "\n");

		fprintf(f, "# %.*s\n", (int)n, comment);
		comment += n;
		if (*comment)
			comment++;
	}
}

int map_write(FILE *f, const struct cdt_map *m, const char *comment)
{
	char when[64] = "";
	struct tm tm;
	time_t now = time(NULL);
	size_t i;

	if (localtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "# Mapfile. Created by cdtail version %s\n", CDT_VERSION);
	write_comment(f, comment);
	fprintf(f, "# Current time: %s\n", when);
	fprintf(f, "# %s", map_phase_text(m->cur_status));
	if (m->cur_status != MAP_FINISHED)
		fprintf(f, " Pass %u", m->cur_pass);
	fprintf(f, "\n# current_pos  current_status  current_pass\n");
	fprintf(f, "0x%08" PRIX64 "     %c               %u\n",
		m->cur_pos, m->cur_status, m->cur_pass);
	fprintf(f, "#      pos        size  status\n");
	for (i = 0; i < m->n; i++)
		fprintf(f, "0x%08" PRIX64 "  0x%08" PRIX64 "  %c\n",
			m->runs[i].pos, m->runs[i].size, m->runs[i].status);
	return ferror(f) ? CDT_EIO : 0;
}

/* The whole of a map file open on fd, NUL-terminated. */
static int slurp_fd(int fd, const char *path, char **bufp, size_t *lenp,
		    char *err, size_t errlen)
{
	struct stat st;
	size_t got = 0;
	char *buf;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > MAP_FILE_MAX) {
		snprintf(err, errlen, "%s: not a regular file of at most %u bytes",
			 path, MAP_FILE_MAX);
		return CDT_EFORMAT;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		return CDT_ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = pread(fd, buf + got, (size_t)st.st_size - got, (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	*bufp = buf;
	*lenp = got;
	return 0;
}

int map_read_file(const char *path, char **bufp, size_t *lenp,
		  char *err, size_t errlen)
{
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return errno == ENOENT ? CDT_EOPEN : CDT_EIO;
	}
	rc = slurp_fd(fd, path, bufp, lenp, err, errlen);
	close(fd);
	return rc;
}

/* The map PATH's text buf parsed into m; buf kept in *text (if asked
 * and parsed), else freed. */
static int load_text(const char *path, char *buf, size_t len,
		     struct cdt_map *m, char **text, char *err, size_t errlen)
{
	char why[160];
	int rc = map_parse(buf, len, m, why, sizeof(why));

	if (rc == CDT_ENOMEM)
		snprintf(err, errlen, "map %s: out of memory", path);
	else if (rc)
		snprintf(err, errlen, "map %s is not a valid ddrescue mapfile: %s",
			 path, why);
	if (rc || !text)
		free(buf);
	else
		*text = buf;
	return rc;
}

int map_load_fd(int fd, const char *path, struct cdt_map *m, char **text,
		char *err, size_t errlen)
{
	size_t len;
	char *buf;
	int rc = slurp_fd(fd, path, &buf, &len, err, errlen);

	return rc ? rc : load_text(path, buf, len, m, text, err, errlen);
}

int map_load(const char *path, struct cdt_map *m, char *err, size_t errlen)
{
	size_t len;
	char *buf;
	int rc = map_read_file(path, &buf, &len, err, errlen);

	return rc ? rc : load_text(path, buf, len, m, NULL, err, errlen);
}

/* fsync the directory holding path, so the rename itself is durable. */
static int sync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd, rc = 0;

	if (!copy)
		return CDT_ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return CDT_EIO;
	if (fsync(fd) && errno != EINVAL)
		rc = CDT_EIO;
	close(fd);
	return rc;
}

/*
 * A new file beside path, unique (mkstemp), readable as a map should be.
 * Returns its fd, or -1; *tmp is the name (free it).
 */
static int make_temp(const char *path, char **tmp)
{
	static const char suffix[] = ".cdtail-XXXXXX";
	size_t plen = strlen(path);
	int fd;

	*tmp = malloc(plen + sizeof(suffix));
	if (!*tmp)
		return -1;
	memcpy(*tmp, path, plen);
	memcpy(*tmp + plen, suffix, sizeof(suffix));
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd >= 0 && fchmod(fd, 0644)) {
		close(fd);
		unlink(*tmp);
		fd = -1;
	}
	return fd;
}

/* Is name the temporary of a save of the map named base (make_temp)? */
static bool temp_of(const char *name, const char *base)
{
	static const char infix[] = ".cdtail-";
	size_t blen = strlen(base), i;

	if (strlen(name) != blen + sizeof(infix) - 1 + 6 ||
	    strncmp(name, base, blen) || strncmp(name + blen, infix, sizeof(infix) - 1))
		return false;
	for (i = blen + sizeof(infix) - 1; name[i]; i++)
		if (!isalnum((unsigned char)name[i]))
			return false;
	return true;
}

void map_remove_stale(const char *path)
{
	char *dcopy = strdup(path), *bcopy = strdup(path);
	const char *base;
	struct dirent *e;
	struct stat st;
	DIR *d = NULL;
	int fd;

	if (!dcopy || !bcopy)
		goto out;
	base = basename(bcopy);
	d = opendir(dirname(dcopy));
	if (!d)
		goto out;
	while ((e = readdir(d))) {
		if (!temp_of(e->d_name, base))
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			continue;
		/* a temporary some live run still holds is its own */
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && !lock_fd(fd))
			unlinkat(dirfd(d), e->d_name, 0);
		close(fd);
	}
out:
	if (d)
		closedir(d);
	free(dcopy);
	free(bcopy);
}

/* The file system refuses the call itself, not this rename. */
static bool refused_here(int e)
{
	return e == EINVAL || e == ENOSYS || e == EOPNOTSUPP || e == EPERM;
}

/*
 * Without renameat2's flags (NFS answers EINVAL, fs/nfs/dir.c nfs_rename;
 * some FUSE file systems too): give the name once, as only one creator
 * can.  link() fails with EEXIST when the name is taken, as
 * RENAME_NOREPLACE does; where links are refused too (EPERM: vfat, many
 * FUSE), an O_EXCL placeholder takes the name first and a rename puts the
 * map over it.  The placeholder is locked while it stands, so a second
 * run that opens it meanwhile finds it in use.
 */
static int give_name_once(const char *tmp, const char *path)
{
	int fd, rc;

	if (!link(tmp, path)) {
		/* the map has its name; a temp name left over is only litter */
		unlink(tmp);
		return 0;
	}
	if (errno == EEXIST || !refused_here(errno))
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	lock_fd(fd);
	rc = rename(tmp, path);
	if (rc) {
		int e = errno;

		unlink(path);
		errno = e;
	}
	close(fd);
	return rc;
}

/* rename, or (without replace) only when nothing has that name yet */
static int put_in_place(const char *tmp, const char *path, bool replace)
{
	if (replace)
		return rename(tmp, path);
	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE))
		return 0;
	return refused_here(errno) ? give_name_once(tmp, path) : -1;
}

/* Does name still lead to the file open on fd? */
static bool names_fd(const char *name, int fd)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(name, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * A temporary beside path, locked and still named: a run that removes
 * the temporaries of killed saves (map_remove_stale, where no map exists
 * yet and nothing else excludes it) may take one between its creation
 * and its lock, and holds it locked while it removes it; then another.
 */
static int make_locked_temp(const char *path, char **tmp, char *err, size_t errlen)
{
	int fd, tries, rc;

	for (tries = 0; tries < 100; tries++) {
		fd = make_temp(path, tmp);
		if (fd < 0) {
			snprintf(err, errlen, "cannot write map %s: %s", *tmp ? *tmp : path,
				 strerror(errno));
			return -1;
		}
		rc = lock_fd(fd);
		if (!rc && names_fd(*tmp, fd))
			return fd;
		if (rc == CDT_EIO) {
			snprintf(err, errlen, "cannot lock map %s: %s", *tmp, strerror(errno));
			close(fd);
			unlink(*tmp);
			return -1;
		}
		close(fd);
		free(*tmp);
		*tmp = NULL;
	}
	snprintf(err, errlen, "cannot write map %s: its temporaries keep being removed", path);
	errno = EAGAIN;
	return -1;
}

int map_save_locked(const char *path, const struct cdt_map *m, const char *comment,
		    int *lock, bool replace, char *err, size_t errlen)
{
	char *tmp = NULL;
	FILE *f = NULL;
	int fd, dupfd, rc = CDT_EIO;

	/* locked before it gets the name: a second run never sees it free */
	fd = lock ? make_locked_temp(path, &tmp, err, errlen) : make_temp(path, &tmp);
	if (fd < 0) {
		if (!lock)
			snprintf(err, errlen, "cannot write map %s: %s", tmp ? tmp : path,
				 strerror(errno));
		rc = tmp || lock ? CDT_EIO : CDT_ENOMEM;
		free(tmp);
		return rc;
	}
	dupfd = dup(fd);
	if (dupfd < 0 || !(f = fdopen(dupfd, "w"))) {
		snprintf(err, errlen, "cannot write map %s: %s", tmp, strerror(errno));
		if (dupfd >= 0)
			close(dupfd);
		goto fail;
	}
	if (map_write(f, m, comment) || fflush(f) || fsync(fd)) {
		snprintf(err, errlen, "cannot write map %s: %s", path, strerror(errno));
		fclose(f);
		goto fail;
	}
	if (fclose(f)) {
		snprintf(err, errlen, "cannot write map %s: %s", path, strerror(errno));
		goto fail;
	}
	if (put_in_place(tmp, path, replace)) {
		if (errno == EEXIST) {
			snprintf(err, errlen, "map %s was created by another run meanwhile: it is in use",
				 path);
			rc = CDT_EBUSY;
		} else {
			snprintf(err, errlen, "cannot replace map %s: %s", path, strerror(errno));
		}
		goto fail;
	}
	rc = sync_dir_of(path);
	if (rc)
		snprintf(err, errlen, "cannot sync the directory of map %s", path);
	if (lock) {
		/* the new file is locked and named: the old one may go */
		if (*lock >= 0)
			close(*lock);
		*lock = fd;
	} else {
		close(fd);
	}
	free(tmp);
	return rc;
fail:
	close(fd);
	unlink(tmp);
	free(tmp);
	return rc;
}

int map_save(const char *path, const struct cdt_map *m, const char *comment,
	     char *err, size_t errlen)
{
	return map_save_locked(path, m, comment, NULL, true, err, errlen);
}
