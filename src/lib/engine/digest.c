// SPDX-License-Identifier: MIT
/*
 * MD5 and SHA-256 of an image, computed while reading or from a file.
 *
 * Hashing on the reading thread made imaging cost the sum of the read,
 * MD5 and SHA-256 times.  Here the caller only copies each chunk into a
 * fixed ring of slots; one worker thread per digest takes every slot in
 * order, so reading, MD5 and SHA-256 overlap and the run costs about the
 * slowest of the three (MD5).  The ring bounds the memory whatever the
 * input size, and a full ring makes the caller wait (back-pressure).
 *
 * The caller picks the digests: only their workers run (one digest, one
 * thread), and with none there is no ring and no thread at all.
 *
 * One mutex guards the ring's counters; the hashing itself runs outside
 * it.  Slots are large, so the lock is taken a few thousand times for a
 * whole disc and never shows in a profile.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <openssl/evp.h>
#include "engine/digest.h"
#include "engine/engine.h"

/*
 * 8 x 256 KiB = 2 MiB: enough slack that neither worker starves while the
 * other one or the reader is descheduled, small enough to stay in cache.
 */
#define DG_SLOTS 8
#define DG_SLOT_BYTES (256u << 10)

enum { W_MD5, W_SHA, W_SHA1, W_N };

/* The CDT_HASH_* bit of each worker. */
static const unsigned int w_bit[W_N] = { CDT_HASH_MD5, CDT_HASH_SHA256, CDT_HASH_SHA1 };

static const EVP_MD *w_md(int i)
{
	return i == W_MD5 ? EVP_md5() : i == W_SHA ? EVP_sha256() : EVP_sha1();
}

/* One range's digest in one worker (dg_ranges). */
struct dg_rstate {
	EVP_MD_CTX *ctx;	/* a range from 0 has none: the stream's copied */
	uint8_t bin[EVP_MAX_MD_SIZE];
	unsigned int n;		/* bytes in bin; 0: not finished */
};

struct dg_worker {
	struct dg_pipe *p;
	EVP_MD_CTX *ctx;
	uint64_t tail;		/* slots hashed; under p->lock */
	uint64_t pos;		/* bytes hashed; the worker's own */
	struct dg_rstate *r;	/* p->n_ranges of them, or NULL */
	pthread_t tid;
	bool started;		/* the caller's thread only */
};

struct dg_pipe {
	pthread_mutex_t lock;
	pthread_cond_t data;	/* a slot was published, or closing/abort set */
	pthread_cond_t space;	/* a worker is done with a slot, or failed */
	/* under lock */
	uint64_t head;		/* slots published */
	size_t len[DG_SLOTS];	/* bytes in each published slot */
	bool closing;		/* no more slots: drain, then exit */
	bool abort;		/* exit at once, queued slots unhashed */
	bool failed;		/* a digest update failed */
	/* the caller's thread only */
	uint8_t *ring;		/* DG_SLOTS slots of DG_SLOT_BYTES */
	uint8_t *cur;		/* the slot being filled, or NULL */
	size_t fill;		/* bytes in cur */
	bool finished;		/* dg_final() ran: workers joined */
	unsigned int which;	/* CDT_HASH_MD5 | SHA256 | SHA1 bits, or 0 */
	uint64_t fed;		/* bytes given to dg_update() */
	struct dg_range *ranges;	/* n_ranges, fixed before the first byte */
	size_t n_ranges;
	struct dg_worker w[W_N];
};

/* Finish range i in w: a range from 0 from a copy of the stream's state. */
static int finish_range(struct dg_worker *w, size_t i)
{
	struct dg_range *g = &w->p->ranges[i];
	struct dg_rstate *st = &w->r[i];
	EVP_MD_CTX *c = st->ctx;
	int ok;

	if (!g->start) {
		c = EVP_MD_CTX_new();
		if (!c || !EVP_MD_CTX_copy_ex(c, w->ctx)) {
			EVP_MD_CTX_free(c);
			return 0;
		}
	}
	ok = EVP_DigestFinal_ex(c, st->bin, &st->n);
	if (!g->start)
		EVP_MD_CTX_free(c);
	return ok;
}

/*
 * len bytes of the stream at w->pos: into the stream's digest and every
 * range they fall in, cut where a range starts or ends so that a range
 * ends exactly on its last byte.
 */
static int hash_span(struct dg_worker *w, const uint8_t *buf, size_t len)
{
	struct dg_range *g = w->p->ranges;
	size_t n = w->p->n_ranges, i;
	uint64_t a = w->pos, b = a + len;

	if (!n)
		return EVP_DigestUpdate(w->ctx, buf, len) ? (w->pos = b, 1) : 0;
	while (a < b) {
		uint64_t cut = b;

		for (i = 0; i < n; i++) {
			if (g[i].start > a && g[i].start < cut)
				cut = g[i].start;
			if (g[i].end > a && g[i].end < cut)
				cut = g[i].end;
		}
		if (!EVP_DigestUpdate(w->ctx, buf + (a - w->pos), (size_t)(cut - a)))
			return 0;
		for (i = 0; i < n; i++)
			if (g[i].start && g[i].start <= a && a < g[i].end &&
			    !EVP_DigestUpdate(w->r[i].ctx, buf + (a - w->pos), (size_t)(cut - a)))
				return 0;
		for (i = 0; i < n; i++)
			if (g[i].end == cut && !finish_range(w, i))
				return 0;
		a = cut;
	}
	w->pos = b;
	return 1;
}

static void *worker(void *arg)
{
	struct dg_worker *w = arg;
	struct dg_pipe *p = w->p;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		unsigned int slot;
		size_t len;
		int ok;

		while (w->tail == p->head && !p->closing && !p->abort)
			pthread_cond_wait(&p->data, &p->lock);
		/* closing: leave only once every published slot is in */
		if (p->abort || w->tail == p->head)
			break;
		slot = (unsigned int)(w->tail % DG_SLOTS);
		len = p->len[slot];
		pthread_mutex_unlock(&p->lock);
		ok = hash_span(w, p->ring + (size_t)slot * DG_SLOT_BYTES, len);
		pthread_mutex_lock(&p->lock);
		if (!ok) {
			/* wake the caller if it waits on our slot, then go */
			p->failed = true;
			pthread_cond_signal(&p->space);
			break;
		}
		w->tail++;
		pthread_cond_signal(&p->space);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Tell the workers to drain (or abort) and join them. */
static void stop_workers(struct dg_pipe *p, bool abort)
{
	int i;

	pthread_mutex_lock(&p->lock);
	if (abort)
		p->abort = true;
	else
		p->closing = true;
	pthread_cond_broadcast(&p->data);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < W_N; i++) {
		if (p->w[i].started)
			pthread_join(p->w[i].tid, NULL);
		p->w[i].started = false;
	}
}

/*
 * Start the chosen workers with every signal blocked: a library must not change
 * which thread a process-directed signal (SIGINT for --stop) lands on, nor
 * let it interrupt a worker instead of the caller's blocking read.
 */
static int start_workers(struct dg_pipe *p)
{
	static const char *const name[W_N] = { "cdt-md5", "cdt-sha256", "cdt-sha1" };
	sigset_t all, old;
	int i, rc = 0;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < W_N && !rc; i++) {
		if (!(p->which & w_bit[i]))
			continue;
		rc = pthread_create(&p->w[i].tid, NULL, worker, &p->w[i]);
		if (!rc) {
			p->w[i].started = true;
			/* only a name in top/gdb: its failure does not matter */
			pthread_setname_np(p->w[i].tid, name[i]);
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc ? CDT_ENOMEM : 0;
}

int dg_init(struct dg *d, unsigned int which)
{
	struct dg_pipe *p = calloc(1, sizeof(*p));
	int i;

	d->p = p;
	if (!p)
		return CDT_ENOMEM;
	/* the static initialisers cannot fail, unlike the _init calls' API */
	p->lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	p->data = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	p->space = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	p->which = which & DG_HASH_ANY;
	if (!p->which)
		return 0;	/* nothing to hash: no ring, no thread */
	p->ring = malloc((size_t)DG_SLOTS * DG_SLOT_BYTES);
	if (!p->ring)
		goto fail;
	for (i = 0; i < W_N; i++) {
		if (!(p->which & w_bit[i]))
			continue;
		p->w[i].p = p;
		p->w[i].ctx = EVP_MD_CTX_new();
		if (!p->w[i].ctx || !EVP_DigestInit_ex(p->w[i].ctx, w_md(i), NULL))
			goto fail;
	}
	if (start_workers(p))
		goto fail;
	return 0;
fail:
	dg_free(d);
	return CDT_ENOMEM;
}

/*
 * The workers already wait: they look at the ranges only for a slot
 * published after this (publish() takes the lock they take).
 */
int dg_ranges(struct dg *d, const struct dg_range *r, size_t n)
{
	struct dg_pipe *p = d->p;
	size_t i;
	int w;

	if (!p || p->finished || p->fed || p->n_ranges)
		return CDT_ENOMEM;
	if (!p->which || !n)
		return 0;
	p->ranges = calloc(n, sizeof(*r));
	if (!p->ranges)
		return CDT_ENOMEM;
	memcpy(p->ranges, r, n * sizeof(*r));
	p->n_ranges = n;
	for (w = 0; w < W_N; w++) {
		if (!(p->which & w_bit[w]))
			continue;
		p->w[w].r = calloc(n, sizeof(*p->w[w].r));
		if (!p->w[w].r)
			return CDT_ENOMEM;
		for (i = 0; i < n; i++) {
			if (!r[i].start)
				continue;
			p->w[w].r[i].ctx = EVP_MD_CTX_new();
			if (!p->w[w].r[i].ctx ||
			    !EVP_DigestInit_ex(p->w[w].r[i].ctx, w_md(w), NULL))
				return CDT_ENOMEM;
		}
	}
	return 0;
}

/* Take the next slot once every running worker is done with it. */
static int acquire(struct dg_pipe *p)
{
	uint64_t slot;
	int rc = 0, i;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		uint64_t oldest = p->head;

		for (i = 0; i < W_N; i++)
			if ((p->which & w_bit[i]) && p->w[i].tail < oldest)
				oldest = p->w[i].tail;
		if (p->failed) {
			rc = CDT_ENOMEM;
			break;
		}
		if (p->head - oldest < DG_SLOTS)
			break;
		pthread_cond_wait(&p->space, &p->lock);
	}
	slot = p->head % DG_SLOTS;
	pthread_mutex_unlock(&p->lock);
	if (rc)
		return rc;
	p->cur = p->ring + slot * DG_SLOT_BYTES;
	p->fill = 0;
	return 0;
}

/* Hand the slot being filled to the workers. */
static void publish(struct dg_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	p->len[p->head % DG_SLOTS] = p->fill;
	p->head++;
	pthread_cond_broadcast(&p->data);
	pthread_mutex_unlock(&p->lock);
	p->cur = NULL;
	p->fill = 0;
}

int dg_update(struct dg *d, const void *buf, size_t len)
{
	struct dg_pipe *p = d->p;
	const uint8_t *src = buf;
	int rc;

	if (!p || p->finished)
		return CDT_ENOMEM;
	if (!p->which)
		return 0;
	p->fed += len;
	while (len) {
		size_t n;

		if (!p->cur) {
			rc = acquire(p);
			if (rc)
				return rc;
		}
		/* small updates share a slot: the lock is per slot, not per call */
		n = DG_SLOT_BYTES - p->fill;
		if (n > len)
			n = len;
		memcpy(p->cur + p->fill, src, n);
		p->fill += n;
		src += n;
		len -= n;
		if (p->fill == DG_SLOT_BYTES)
			publish(p);
	}
	return 0;
}

int dg_zeros(struct dg *d, uint64_t len)
{
	static const uint8_t zeros[65536];
	int rc = 0;

	while (len && !rc) {
		size_t n = len < sizeof(zeros) ? (size_t)len : sizeof(zeros);

		rc = dg_update(d, zeros, n);
		len -= n;
	}
	return rc;
}

void dg_hex(const uint8_t *bin, size_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hex[bin[i] >> 4];
		out[2 * i + 1] = hex[bin[i] & 15];
	}
	out[2 * n] = '\0';
}

/* The worker's digest into hex (n bytes of binary, 2n + 1 of text). */
static int final_hex(EVP_MD_CTX *c, size_t want, char *out)
{
	uint8_t md[EVP_MAX_MD_SIZE];
	unsigned int n;

	if (!EVP_DigestFinal_ex(c, md, &n) || n != want)
		return CDT_ENOMEM;
	dg_hex(md, n, out);
	return 0;
}

int dg_final_sums(struct dg *d, struct dg_sums *out)
{
	struct dg_pipe *p = d->p;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!p || p->finished)
		return CDT_ENOMEM;
	if (p->cur && p->fill)
		publish(p);
	stop_workers(p, false);
	/* the joins order the workers' last updates before these finals */
	p->finished = true;
	if (p->failed)
		return CDT_ENOMEM;
	if (p->which & CDT_HASH_MD5)
		rc = final_hex(p->w[W_MD5].ctx, 16, out->md5);
	if (!rc && (p->which & CDT_HASH_SHA256))
		rc = final_hex(p->w[W_SHA].ctx, 32, out->sha256);
	if (!rc && (p->which & CDT_HASH_SHA1))
		rc = final_hex(p->w[W_SHA1].ctx, 20, out->sha1);
	return rc;
}

int dg_final(struct dg *d, struct cdt_digests *out)
{
	struct dg_sums s;
	int rc = dg_final_sums(d, &s);

	memcpy(out->md5, s.md5, sizeof(out->md5));
	memcpy(out->sha256, s.sha256, sizeof(out->sha256));
	return rc;
}

bool dg_range_sums(const struct dg *d, size_t i, struct dg_sums *out)
{
	const struct dg_pipe *p = d->p;
	const struct dg_rstate *st;
	bool all = true;
	int w;

	memset(out, 0, sizeof(*out));
	if (!p || !p->finished || i >= p->n_ranges)
		return false;
	for (w = 0; w < W_N; w++) {
		char *hex = w == W_MD5 ? out->md5 : w == W_SHA ? out->sha256 : out->sha1;

		if (!(p->which & w_bit[w]))
			continue;
		st = &p->w[w].r[i];
		if (st->n)
			dg_hex(st->bin, st->n, hex);
		else
			all = false;
	}
	return all;
}

void dg_free(struct dg *d)
{
	struct dg_pipe *p = d->p;
	int i;

	if (!p)
		return;
	stop_workers(p, true);
	for (i = 0; i < W_N; i++) {
		size_t k;

		for (k = 0; p->w[i].r && k < p->n_ranges; k++)
			EVP_MD_CTX_free(p->w[i].r[k].ctx);
		free(p->w[i].r);
		EVP_MD_CTX_free(p->w[i].ctx);
	}
	free(p->ranges);
	pthread_cond_destroy(&p->space);
	pthread_cond_destroy(&p->data);
	pthread_mutex_destroy(&p->lock);
	free(p->ring);
	free(p);
	d->p = NULL;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void report(const struct cdt_read_opts *rd, uint64_t done,
		   uint64_t len, double t0)
{
	struct cdt_progress p = {
		.size = sizeof(p),
		.phase = CDT_PHASE_DIGEST,
		.pass = 1,
		.pos = done,
		.total = len,
		.done = done,
		.elapsed_ms = now_ms() - t0,
	};

	rd->progress(rd->progress_ctx, &p);
}

/*
 * The same pipeline: while the workers hash one chunk the next one is
 * being read, so a cold file costs about max(read, MD5), not their sum.
 */
int dg_file(int fd, uint64_t len, uint8_t *buf, size_t buf_len,
	    const struct cdt_read_opts *rd, unsigned int which,
	    struct cdt_digests *out)
{
	double t0 = now_ms(), last = t0;
	uint64_t done = 0;
	struct dg d;
	int rc;

	if (!(which & DG_HASH_ANY)) {
		/* nothing to compute: not worth reading the file for */
		out->md5[0] = '\0';
		out->sha256[0] = '\0';
		return 0;
	}
	rc = dg_init(&d, which);
	if (rc)
		return rc;
	while (done < len && !rc) {
		size_t want = len - done < buf_len ? (size_t)(len - done) : buf_len;
		ssize_t got = pread(fd, buf, want, (off_t)done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rc = CDT_EIO;
			break;
		}
		rc = dg_update(&d, buf, (size_t)got);
		done += (uint64_t)got;
		if (rd && rd->stop && *rd->stop)
			rc = CDT_EINTR;
		if (rd && rd->progress && now_ms() - last >= RESCUE_PROGRESS_MS) {
			last = now_ms();
			report(rd, done, len, t0);
		}
	}
	if (!rc)
		rc = dg_final(&d, out);
	dg_free(&d);
	return rc;
}
