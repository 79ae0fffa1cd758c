// SPDX-License-Identifier: MIT
/*
 * The true-end search.
 *
 * What a user waits for is failing reads: a good read costs a drive about a
 * millisecond, a read past the end can cost seconds of retries, or almost
 * nothing on a drive that fails fast.  Nothing tells which kind of drive
 * this is until the first read fails, so this is ski rental: keep paying
 * cheap good reads that guarantee a single failure while their sum stays
 * small beside what one failure may cost, and only then risk a second one.
 *
 *  1. Candidates.  Each distinct size source c, smallest first, is checked
 *     with a good read of c-1 and a failing read at c.  Going upwards means
 *     a wrong candidate that is too small costs only good reads.
 *  2. Climb, until the first failure (climb_read says which read comes next
 *     from where the search stands, so it resumes after a reopened search):
 *     a. scan: single blocks from the reported end up to ES_SCAN_BLOCKS
 *        above it.  The first failure is then the end itself: one failing
 *        read for every hidden tail up to that size, for ~0.5 s of good reads
 *        on any drive.
 *     b. runs: contiguous reads of ES_GAP blocks (up to ES_RUN_BLOCKS above
 *        the reported end), started on the last block known readable, so
 *        that a drive naming the failing LBA in the sense INFORMATION field
 *        still gives the end with that one failure.
 *     c. sparse: single blocks ES_GAP apart; data moved costs time on a
 *        fast drive, and the gap bounds the window left for step 3.
 *     Once a failure has shown that failures are cheap, a plain gallop
 *     replaces all three.
 *  3. Narrow.  The end now lies in a known window and the failing read told
 *     us what a failure costs.  Each step compares the expected cost of a
 *     forward scan (one more failure, many cheap reads) with a bisection
 *     (few reads, about half of them failing) and takes the cheaper: on a
 *     slow drive that is the scan, so two failures in all.
 *
 * A MEDIUM ERROR may be a bad block rather than the end, so an end found at
 * one is confirmed by reads beyond it before it is accepted; a read there
 * that succeeds reopens the search above it, which checks the candidates
 * above it again (step 1) before it climbs.  Every block-level failure is
 * such a failure: a timeout, a hardware error (the device layer's table
 * makes it MEDIUM), and a GOOD read whose residual says blocks did not
 * arrive (drives and USB bridges answer so at the end of a disc; sg_dd
 * counts only what arrived): only the blocks that arrived count, the first
 * one missing failed.  Only CDT_TIMEOUTS_IN_ROW timeouts in a row end
 * the search: the drive stopped answering.
 *
 * 05/64/00 ILLEGAL MODE FOR THIS TRACK (es_outcome.wrong_mode) below the
 * reported end is a block that is there but holds no 2048-byte user data
 * (a Mode 2 Form 2 sector, a run-out): like a MEDIUM ERROR it may have
 * readable blocks above it, so an end found at one is checked the same
 * way, below the reported end only (above it the structure says nothing),
 * and it bounds nothing as an END answer does.  Unlike a MEDIUM ERROR it is
 * no damage: an end that stands there is not a trailing medium error.
 * (Issue 32 item 2: the forward scan met one Form 2 sector in the middle of
 * a data track and took it for the disc's end.)
 *
 * No read touches an LBA at or past the window, reported + max_extra: that
 * is what --max-extra promises, whatever failures cost.  An end exactly at
 * the window's edge is therefore a window limit: confirming it would take
 * a read of the first LBA past it.
 *
 * DVD and BD (es_params.unit, issue 36).  These media are recorded in
 * whole units: ECC blocks of 16 sectors on a DVD (ECMA-267, the ECC block
 * of 16 data frames; redumper dvd/dvd_dump.ixx reads 32 sectors at a time
 * from sector 0, dvdisaster src/read-linear.c skips by an ECC block) and
 * clusters of 32 on a BD, so a real disc's last readable block is the last
 * of a unit (end % unit == 0; doc/disc-kinds.md).  A tgt LUN or a QEMU
 * image presented as a DVD can end anywhere, so the unit only orders the
 * reads and never decides the end: every end is still found exactly, by
 * reads of e-1 and e.  It is used only where it saves failing reads on an
 * aligned end, and with INFORMATION an unaligned one beyond 512 blocks
 * costs one more (a single read past the end cannot name it):
 *  - in the climb, past the single-block scan, single reads of the first
 *    block of each unit replace the runs (up to ES_RUN_BLOCKS): the
 *    first failure there is an aligned end itself, which the unit's good
 *    blocks below it then confirm (1 failure where runs need 2; an
 *    unaligned end costs the 2 of a run without INFORMATION);
 *  - in the narrow step, where it bisects (cheap failures, wide windows),
 *    over the units' first blocks, then one good read of the last block
 *    below the failing boundary settles an aligned end; only when that
 *    read fails is the unit searched block by block;
 *  - past a MEDIUM ERROR on a unit boundary (a failed unit, or past the
 *    end of a medium recorded in units), the confirming reads beyond it
 *    start a unit away: the blocks of its own unit fail with it (3 failing
 *    reads in all on a DVD, 2 on a BD, where a CD's 1, 2, 4 ... 32 pay 7).
 * Where the narrow step scans forward (a dear failure) it stays block by
 * block: a scan already pays one failure for any end, and a unit-first
 * scan would pay a second one for an unaligned end.
 */
#include <math.h>
#include <string.h>
#include "probe/endsearch.h"

/*
 * How far beyond a medium error we look for readable blocks: far on a
 * drive whose failures are cheap, less far where each probe costs seconds.
 */
#define ES_CONFIRM_SPAN 256
#define ES_CONFIRM_SPAN_DEAR 32
#define ES_DEAR_FAIL_MS 100.0
/* Failing reads cost at least this until one has been measured. */
#define ES_DEFAULT_FAIL_MS 5000.0
#define ES_DEFAULT_GOOD_MS 1.0
/*
 * The climb's phases, in blocks above the reported end.  512 single reads
 * cost a drive like the emulated one's default (1 ms + 50 us a block) about
 * 0.54 s, a fraction of one slow failure; runs up to 8192 add 0.39 s of data
 * moved, and a fast drive (1 ms failures) still has the end in under 1 s for
 * any tail up to 16384 blocks (issue 13).  A drive with a small transfer
 * limit stops running sooner: ES_RUN_READS reads of its limit at most.
 */
#define ES_SCAN_BLOCKS 512
#define ES_RUN_BLOCKS 8192
#define ES_RUN_READS 16
/*
 * Runs and sparse reads at most this far apart: the window a slow drive
 * then scans block by block costs at most ~0.5 s, so even a drive whose
 * failures take 1 s stays within 2x of a search that knew the cost.  Far
 * out (beyond 512^2 blocks) the gap grows as the square root of the
 * distance, which balances the reads across and within the gaps.
 */
#define ES_GAP 512
#define ES_FAILED_KEPT 32

struct es_state {
	const struct es_params *p;
	uint64_t unit;		/* the medium's unit, 1 on a CD */
	es_read_fn read;
	void *ctx;
	struct es_result *res;

	uint64_t lo;		/* e >= lo: LBA lo-1 read fine */
	uint64_t hi;		/* e <= hi */
	bool hi_known;
	bool hi_medium;		/* hi came from a MEDIUM failure, not END */
	bool hi_exact;		/* the block at hi itself was seen to fail */
	bool hi_wm;		/* hi answered 05/64/00 below the reported end */
	uint64_t end_bound;	/* lowest LBA that failed END-class, or ~0 */
	uint64_t window;	/* never read at or above this while galloping */

	double fail_ms;		/* measured cost of a failing read, or < 0 */
	double good_ms;		/* measured cost of a one-block good read */
	int info_trust;		/* 1 consistent INFORMATION seen, -1 bogus seen */
	bool lo_from_info;	/* lo was raised on the drive's word alone */
	unsigned int timeouts_in_row;
	/* single blocks seen failing, so a check above an end never reads one again */
	uint64_t failed[ES_FAILED_KEPT];
	unsigned int nfailed;
};

/*
 * A failure that answered 05/64/00 below the reported end: a block that is
 * there (Form 2, a run-out), never an END bound.
 */
static bool wrong_mode_inside(const struct es_state *s, uint64_t lba,
			      const struct es_outcome *o)
{
	return o->cls == CDT_READ_END && o->wrong_mode && lba < s->p->reported;
}

static bool known_failed(const struct es_state *s, uint64_t lba)
{
	unsigned int i, n = s->nfailed < ES_FAILED_KEPT ? s->nfailed : ES_FAILED_KEPT;

	for (i = 0; i < n; i++)
		if (s->failed[i] == lba)
			return true;
	return false;
}

/* A block failed: END-class, or a block-level failure (MEDIUM, timeout). */
static bool is_failure(enum cdt_read_class cls)
{
	return cls == CDT_READ_END || cls == CDT_READ_MEDIUM ||
	       cls == CDT_READ_TIMEOUT;
}

/*
 * A GOOD read of n blocks at lba with some missing: the first block that
 * did not arrive failed, and the ones before it read, as a MEDIUM ERROR
 * whose INFORMATION is certain.
 */
static void short_as_failure(struct es_state *s, uint64_t lba, uint32_t n,
			     struct es_outcome *out)
{
	uint32_t got = out->missing >= n ? 0 : n - out->missing;

	s->res->short_reads++;
	out->cls = CDT_READ_MEDIUM;
	out->info_valid = true;
	out->info_exact = true;
	out->info = lba + got;
}

/*
 * One read, with the bookkeeping every step needs.  Returns 0 with *out
 * filled, or a negative error for an outcome the search cannot interpret
 * (fatal sense, transport failure, a drive that stopped answering).
 */
static int es_read(struct es_state *s, uint64_t lba, uint32_t n,
		   struct es_outcome *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = s->read(s->ctx, lba, n, out);
	if (rc)
		return rc;
	s->res->reads++;
	s->res->ms += out->ms;
	s->timeouts_in_row = out->cls == CDT_READ_TIMEOUT ? s->timeouts_in_row + 1 : 0;
	if (out->cls == CDT_READ_OK && out->missing) {
		s->res->failed_reads++;
		short_as_failure(s, lba, n, out);
		return 0;
	}
	if (out->cls == CDT_READ_OK) {
		if (n == 1)
			s->good_ms = s->good_ms < 0 ? out->ms : (s->good_ms + out->ms) / 2;
		return 0;
	}
	s->res->failed_reads++;
	if (out->cls == CDT_READ_TIMEOUT) {
		s->res->timeouts++;
		if (s->timeouts_in_row >= CDT_TIMEOUTS_IN_ROW)
			return CDT_ETIMEOUT;
	}
	if (!is_failure(out->cls))
		return CDT_ECHECK;
	s->fail_ms = s->fail_ms < 0 ? out->ms : (s->fail_ms + out->ms) / 2;
	if (n == 1)
		s->failed[s->nfailed++ % ES_FAILED_KEPT] = lba;
	if (out->cls == CDT_READ_END && lba < s->end_bound && !wrong_mode_inside(s, lba, out))
		s->end_bound = lba + n - 1 < s->end_bound ? lba + n - 1 : s->end_bound;
	return 0;
}

/*
 * The INFORMATION field of a failed read of [lba, lba+n), if this drive's
 * are to be believed.  Some drives set VALID with a field that is not the
 * failing LBA (0, or the command's start); one such answer and we stop
 * believing the drive.
 */
static bool usable_info(struct es_state *s, uint64_t lba, uint32_t n,
			const struct es_outcome *o, uint64_t *info)
{
	/* what arrived is no drive's word: it needs no trust, earns none */
	if (o->info_exact) {
		*info = o->info;
		return true;
	}
	if (!o->info_valid || s->info_trust < 0)
		return false;
	if (o->info < lba || o->info >= lba + n) {
		s->info_trust = -1;
		return false;
	}
	/*
	 * Some drives put the command's first LBA there whatever failed.
	 * Reads start on a block known to be readable where they can, so
	 * such an answer gives the drive away; otherwise it is ambiguous.
	 */
	if (o->info == lba && n > 1) {
		if (lba < s->lo)
			s->info_trust = -1;
		return false;
	}
	/* a single block naming itself shows nothing about the drive */
	if (n > 1)
		s->info_trust = 1;
	*info = o->info;
	return true;
}

static void set_hi(struct es_state *s, uint64_t hi, enum cdt_read_class cls,
		   bool exact, bool wm)
{
	if (s->hi_known && hi > s->hi)
		return;
	if (s->hi_known && hi == s->hi && !s->hi_medium && !s->hi_wm &&
	    (s->hi_exact || !exact))
		return;
	s->hi = hi;
	s->hi_known = true;
	/* a block-level failure (MEDIUM, timeout) may be damage, not the end */
	s->hi_medium = cls != CDT_READ_END;
	s->hi_exact = exact;
	s->hi_wm = wm;
}

static void set_lo(struct es_state *s, uint64_t lo)
{
	if (lo > s->lo)
		s->lo = lo;
}

/* Note what a failed read of [lba, lba+n) says about the end. */
static void learn_failure(struct es_state *s, uint64_t lba, uint32_t n,
			  const struct es_outcome *o)
{
	uint64_t info;

	if (usable_info(s, lba, n, o, &info)) {
		/*
		 * lba..info-1 were read before the drive hit info; a failing
		 * single block naming itself says nothing about the blocks
		 * below it.
		 */
		if (info > lba) {
			if (info > s->lo && !o->info_exact)
				s->lo_from_info = true;
			set_lo(s, info);
		}
		/* a block missing from a longer GOOD read: read it alone */
		set_hi(s, info, o->cls, !o->info_exact || n == 1,
		       wrong_mode_inside(s, info, o));
		return;
	}
	set_hi(s, lba + n - 1, o->cls, n == 1, wrong_mode_inside(s, lba, o));
}

/* Read n blocks at lba and note what they say about the end. */
static int probe_run(struct es_state *s, uint64_t lba, uint32_t n)
{
	struct es_outcome o;
	int rc;

	rc = es_read(s, lba, n, &o);
	if (rc)
		return rc;
	if (o.cls == CDT_READ_OK)
		set_lo(s, lba + n);
	else
		learn_failure(s, lba, n, &o);
	return 0;
}

static int probe_one(struct es_state *s, uint64_t lba)
{
	return probe_run(s, lba, 1);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* ---- step 1: candidates ------------------------------------------------ */

static void sort_unique(uint64_t *v, unsigned int *n)
{
	unsigned int i, j, out = 0;

	for (i = 1; i < *n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	for (i = 0; i < *n; i++)
		if (v[i] && (out == 0 || v[out - 1] != v[i]))
			v[out++] = v[i];
	*n = out;
}

/*
 * Check candidate c.  Returns 1 when c is confirmed as the end, 0 when it
 * is not (and the state says why), <0 on error.
 */
static int try_candidate(struct es_state *s, uint64_t c)
{
	int rc;

	/*
	 * --max-extra bounds the reads: confirming c needs a read of LBA c,
	 * so a source at or past the window's edge is never tried (a
	 * filesystem declaring 290 blocks must not take the search to 291
	 * when the window ends at 208).
	 */
	if (c < s->lo || c >= s->window || (s->hi_known && c > s->hi))
		return 0;
	if (s->lo < c) {
		rc = probe_one(s, c - 1);
		if (rc)
			return rc;
		if (s->lo < c)
			return 0;
	}
	if (!(s->hi_known && s->hi == c)) {
		rc = probe_one(s, c);
		if (rc)
			return rc;
	}
	return s->hi_known && s->hi == c && !s->hi_medium && !s->hi_wm;
}

static int check_candidates(struct es_state *s)
{
	uint64_t cand[ES_MAX_CANDIDATES + 1];
	unsigned int n = 0, i;
	int rc;

	cand[n++] = s->p->reported;
	for (i = 0; i < s->p->ncandidates && i < ES_MAX_CANDIDATES; i++)
		cand[n++] = s->p->candidates[i];
	sort_unique(cand, &n);
	for (i = 0; i < n; i++) {
		rc = try_candidate(s, cand[i]);
		if (rc)
			return rc;
		/* a failure below the next candidates rules them all out */
		if (s->hi_known)
			break;
	}
	return 0;
}

/* ---- step 2: climb ----------------------------------------------------- */

/*
 * Start a read one block early, on the last block known to be readable:
 * then an INFORMATION field naming the read's first LBA can only be a
 * drive that names the command rather than the failure.
 */
static uint64_t lead_in(const struct es_state *s, uint64_t start, uint32_t *n,
			uint32_t cap)
{
	if (start != s->lo || start == 0 || *n >= cap || s->info_trust < 0)
		return start;
	(*n)++;
	return start - 1;
}

/*
 * The old gallop, for a drive whose failures have been seen to be cheap:
 * runs of 1, 2, 4, ... blocks from lo.  Returns 0 or <0 on error.
 */
static int gallop_cheap(struct es_state *s)
{
	uint32_t cap = s->p->max_read_blocks ? s->p->max_read_blocks : 1;
	uint64_t step = 1, start, top;
	struct es_outcome o;
	uint32_t n;
	int rc;

	while (!s->hi_known) {
		if (s->lo >= s->window) {
			s->res->window_limit = true;
			return 0;
		}
		top = s->lo + step;
		if (top > s->window)
			top = s->window;
		/* past the transfer limit, read only the top of the step */
		start = top - s->lo > cap ? top - cap : s->lo;
		n = (uint32_t)(top - start);
		start = lead_in(s, start, &n, cap);
		rc = es_read(s, start, n, &o);
		if (rc)
			return rc;
		if (o.cls == CDT_READ_OK) {
			set_lo(s, top);
			step *= 2;
			continue;
		}
		learn_failure(s, start, n, &o);
	}
	return 0;
}

/* Where the runs of step 2b end, in blocks above the reported end. */
static uint64_t run_limit(uint32_t cap)
{
	return min_u64(ES_RUN_BLOCKS, ES_SCAN_BLOCKS + (uint64_t)ES_RUN_READS * cap);
}

/* The gap between sparse reads at `above` blocks above the reported end. */
static uint64_t sparse_gap(uint64_t above)
{
	uint64_t g = (uint64_t)sqrt((double)above);

	return g > ES_GAP ? g : ES_GAP;
}

/*
 * Where the unit-first reads of step 2 end, in blocks above the reported
 * end: where the runs would.  480 single reads on a DVD cost ~0.5 s on the
 * emulated drive's default, ~0.1 s more than 15 runs of 512 blocks; 240 on
 * a BD, less than the runs.
 */
static uint64_t unit_limit(const struct es_state *s)
{
	return s->unit > 1 ? ES_RUN_BLOCKS : 0;
}

/* The first block of the unit at or above lba. */
static uint64_t unit_ceil(const struct es_state *s, uint64_t lba)
{
	uint64_t r = lba % s->unit;

	return r ? lba + (s->unit - r) : lba;
}

/* The climb's next read from lo (lo < window): *lba and *n. */
static void climb_read(const struct es_state *s, uint64_t *lba, uint32_t *n)
{
	uint32_t cap = s->p->max_read_blocks ? s->p->max_read_blocks : 1;
	uint64_t base = s->p->reported, above, len;

	above = s->lo > base ? s->lo - base : 0;
	if (above <= ES_SCAN_BLOCKS) {
		*lba = s->lo;
		*n = 1;
		return;
	}
	/*
	 * A DVD or BD: the first block of the next unit.  Where it fails on
	 * an aligned end, the end is that block, and the unit below it, read
	 * fine at its first block, holds no failure (narrow's scan).  The
	 * last read is the runs' last block, so the sparse reads beyond
	 * start where the CD's do.
	 */
	if (above < unit_limit(s)) {
		*lba = min_u64(unit_ceil(s, s->lo), base + unit_limit(s) - 1);
		*lba = min_u64(*lba, s->window - 1);
		*n = 1;
		return;
	}
	if (above < run_limit(cap)) {
		len = min_u64(ES_GAP, run_limit(cap) - above);
		len = min_u64(min_u64(len, cap), s->window - s->lo);
		*n = (uint32_t)len;
		*lba = lead_in(s, s->lo, n, cap);
		return;
	}
	*lba = min_u64(s->lo + sparse_gap(above), s->window) - 1;
	*n = 1;
}

/*
 * Step 2: read upwards from lo until a read fails (hi known) or the window
 * is reached.  Returns 0 or <0 on error.
 */
static int climb(struct es_state *s)
{
	uint64_t lba;
	uint32_t n;
	int rc;

	if (s->fail_ms >= 0 && s->fail_ms < ES_DEAR_FAIL_MS)
		return gallop_cheap(s);
	while (!s->hi_known) {
		if (s->lo >= s->window) {
			s->res->window_limit = true;
			return 0;
		}
		climb_read(s, &lba, &n);
		rc = probe_run(s, lba, n);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The end is below the reported one and nothing near it is known readable:
 * probe downwards at growing distances until a block reads.
 */
static int gallop_down(struct es_state *s)
{
	uint64_t top = s->hi, dist = 1, lba;
	int rc;

	while (s->lo < s->hi) {
		if (dist > top) {
			lba = s->lo;
		} else {
			lba = top - dist;
			if (lba < s->lo)
				lba = s->lo;
		}
		rc = probe_one(s, lba);
		if (rc)
			return rc;
		/* it read, or it was the lowest block left to try */
		if (s->lo >= lba)
			return 0;
		dist *= 2;
	}
	return 0;
}

/* ---- step 3: narrow ---------------------------------------------------- */

static double fail_cost(const struct es_state *s)
{
	return s->fail_ms >= 0 ? s->fail_ms : ES_DEFAULT_FAIL_MS;
}

static double good_cost(const struct es_state *s)
{
	return s->good_ms >= 0 ? s->good_ms : ES_DEFAULT_GOOD_MS;
}

/*
 * Forward scan: (w+1)/2 good reads and exactly one failure.
 * Bisection: log2(w+1) reads, half of them failures on average; the extra
 * half failure is its spread, so that a near tie goes to the scan, whose
 * worst case is one failure.
 */
static bool prefer_bisect(const struct es_state *s, uint64_t w)
{
	double g = good_cost(s), f = fail_cost(s);
	double scan = (double)(w + 1) / 2 * g + f;
	double bisect = ceil(log2((double)w + 1)) * (f + g) / 2 + f / 2;

	return bisect < scan;
}

/* A drive whose INFORMATION field we trust: scan in whole chunks. */
static int scan_chunk(struct es_state *s)
{
	uint32_t cap = s->p->max_read_blocks ? s->p->max_read_blocks : 1;
	uint64_t n = s->hi - s->lo + 1;
	uint64_t start;
	uint32_t len;

	/* leave room for the lead-in block: it tells a lying drive */
	if (n >= cap)
		n = cap > 1 ? cap - 1 : 1;
	len = (uint32_t)n;
	start = lead_in(s, s->lo, &len, cap);
	return probe_run(s, start, len);
}

/*
 * A bisection's next read on a DVD or BD (unit > 1), when the window holds
 * a unit boundary: the aligned ends in it are the boundaries b in [lo, hi)
 * and hi when it is one.  With some below hi, the middle one's first block
 * (a failure there makes it hi); with hi the only one, the block below it,
 * the last of the unit before (a good read settles the end at hi).  False
 * when no aligned end is left: the window lies inside one unit, searched
 * block by block.
 */
static bool unit_bisect_read(const struct es_state *s, uint64_t *lba)
{
	uint64_t first = unit_ceil(s, s->lo), k;

	if (first > s->hi)
		return false;
	if (first < s->hi) {
		/* the boundaries below hi: first, first + unit, ... */
		k = (s->hi - 1 - first) / s->unit + 1;
		*lba = first + (k - 1) / 2 * s->unit;
		return true;
	}
	/* first == hi: one aligned end left, at hi */
	*lba = s->hi - 1;
	return true;
}

/* One bisection read: over units where the window holds a boundary. */
static int bisect_one(struct es_state *s, uint64_t w)
{
	uint64_t lba;

	if (s->unit > 1 && unit_bisect_read(s, &lba))
		return probe_one(s, lba);
	return probe_one(s, s->lo + w / 2);
}

/*
 * Each step moves lo up or hi down, except a chunk that failed without
 * naming a block (a timeout, a MEDIUM ERROR without INFORMATION): read
 * again it would fail the same way until CDT_TIMEOUTS_IN_ROW ended the
 * search (image_model.py seed 20261203 case 951), so from then on the
 * window is narrowed block by block, each read of which moves an edge.
 */
static int narrow(struct es_state *s)
{
	bool chunks = true;
	uint64_t w, lo, hi;
	int rc;

	while (s->lo < s->hi) {
		w = s->hi - s->lo;
		lo = s->lo;
		hi = s->hi;
		if (chunks && s->info_trust > 0 && !prefer_bisect(s, w))
			rc = scan_chunk(s);
		else if (prefer_bisect(s, w))
			rc = bisect_one(s, w);
		else
			rc = probe_one(s, s->lo);
		if (rc)
			return rc;
		if (s->lo == lo && s->hi == hi)
			chunks = false;
	}
	return 0;
}

/* A block above the end read: the search goes on above it, up to an END seen. */
static void reopen_above(struct es_state *s, uint64_t lba)
{
	s->lo = lba + 1;
	s->hi_known = s->end_bound != UINT64_MAX && s->end_bound > lba;
	s->hi = s->end_bound;
	s->hi_medium = false;
	s->hi_wm = false;
	s->hi_exact = true;
}

/*
 * One read d blocks beyond e, the end that failed as a block that is there:
 * 1 when it read (the search reopened above it), 2 when it failed
 * END-class or lies where no read may go (the probes stop), 0 when it failed
 * otherwise or was passed over, <0 on error.
 */
static int probe_beyond(struct es_state *s, uint64_t e, uint64_t d, uint64_t top,
			bool skip_failed)
{
	uint64_t lba = e + d;
	struct es_outcome o;
	int rc;

	/* never past the window: --max-extra bounds every read */
	if (lba >= top || lba >= s->end_bound || lba >= s->window)
		return 2;
	if (skip_failed && known_failed(s, lba))
		return 0;
	rc = es_read(s, lba, 1, &o);
	if (rc)
		return rc;
	if (o.cls == CDT_READ_OK) {
		reopen_above(s, lba);
		return 1;
	}
	return o.cls == CDT_READ_END && !wrong_mode_inside(s, lba, &o) ? 2 : 0;
}

/*
 * Readable blocks above the end e, which failed as a block that is there
 * (MEDIUM, a timeout, 05/64/00): probe at growing distances below top
 * (with skip_failed, passing over blocks already seen failing: a run-out
 * costs no read again; a MEDIUM ERROR may be flaky, so read again); a
 * good read reopens the search above it.  Then the block below an END seen further up, which may read.
 * Returns 1 when the search must go on, 0 when the end stands.
 *
 * On a DVD or BD with e on a unit boundary the failure is a whole unit's
 * (a failed ECC block, or past the end of a medium recorded in units), so
 * the blocks of e's own unit fail with it: the probes start a unit beyond.
 * Where one meets an END-class answer the disc ends in between, a LUN or
 * an image that is no whole number of units, and the distances below it
 * are probed as on a CD, so such an end is no less exact.
 */
static int readable_beyond(struct es_state *s, uint64_t top, bool skip_failed)
{
	uint64_t e = s->hi, d, d2, span = ES_CONFIRM_SPAN;
	uint64_t first = s->unit > 1 && e % s->unit == 0 ? s->unit : 1;
	struct es_outcome o;
	uint64_t lba;
	int rc;

	if (fail_cost(s) >= ES_DEAR_FAIL_MS)
		span = ES_CONFIRM_SPAN_DEAR;
	if (span < first)
		span = first;
	for (d = first; d <= span; d *= 2) {
		rc = probe_beyond(s, e, d, top, skip_failed);
		if (rc < 0 || rc == 1)
			return rc;
		if (rc != 2)
			continue;
		for (d2 = 1; d2 < first && d2 < d; d2 *= 2) {
			rc = probe_beyond(s, e, d2, top, skip_failed);
			if (rc < 0 || rc == 1)
				return rc;
			/* the END nearer: the last probe below it was d2 / 2 */
			if (rc == 2) {
				d = d2;
				break;
			}
		}
		break;
	}
	/* nothing readable beyond; blocks between e and an END may be */
	if (s->end_bound != UINT64_MAX && s->end_bound <= top && s->end_bound > e + 1 &&
	    s->end_bound - 1 > e + d / 2 &&
	    !(skip_failed && known_failed(s, s->end_bound - 1))) {
		lba = s->end_bound - 1;
		rc = es_read(s, lba, 1, &o);
		if (rc)
			return rc;
		if (o.cls == CDT_READ_OK) {
			reopen_above(s, lba);
			return 0;
		}
	}
	return 0;
}

/*
 * The end landed on a MEDIUM ERROR: it may be a bad block with readable
 * ones after it.  Returns 1 when the search must go on, 0 when the end
 * stands.
 */
static int confirm_beyond(struct es_state *s)
{
	uint64_t e = s->hi;
	int rc = readable_beyond(s, UINT64_MAX, false);

	if (rc || s->hi != e || !s->hi_known)
		return rc;
	s->res->medium_end = true;
	return 0;
}

/*
 * The end landed on 05/64/00 below the reported end: a Form 2 sector (or
 * a run of them) with readable blocks after it, or the disc's last blocks
 * (a run-out, a Form 2 track's end), which only reads up to the reported
 * end can tell apart; the structure (probe.c) judges an end that stands.
 */
static int confirm_form2(struct es_state *s)
{
	return readable_beyond(s, s->p->reported, true);
}

/* After an end found from INFORMATION, the block before it must read. */
static int confirm_below(struct es_state *s)
{
	struct es_outcome o;
	uint64_t e = s->hi;
	int rc;

	if (e == 0)
		return 0;
	rc = es_read(s, e - 1, 1, &o);
	if (rc)
		return rc;
	if (o.cls == CDT_READ_OK)
		return 0;
	/*
	 * The drive's INFORMATION was wrong after all: start again from the
	 * floor, never below it (LBA 0 on a disc of several sessions is
	 * below a gap, whose reads can hang a drive).
	 */
	s->info_trust = -1;
	s->lo = s->p->floor;
	learn_failure(s, e - 1, 1, &o);
	return 1;
}

/*
 * Read the block at hi on its own.  Returns 1 when it read (the search
 * must go on above it), 0 when it failed and hi now says how, <0 on error.
 */
static int exact_hi(struct es_state *s)
{
	struct es_outcome o;
	uint64_t e = s->hi;
	int rc;

	rc = es_read(s, e, 1, &o);
	if (rc)
		return rc;
	if (o.cls != CDT_READ_OK) {
		s->hi_known = false;
		learn_failure(s, e, 1, &o);
		return 0;
	}
	reopen_above(s, e);
	return 1;
}

/*
 * The end lies in [lo, hi]: pin it down and check it.  Returns 1 when a
 * check reopened the search above, 0 when the end stands, <0 on error.
 */
static int settle_window(struct es_state *s)
{
	int rc;

	/*
	 * Nothing read yet above the floor (LBA 0, or the last track's
	 * start on a disc of several tracks): the end is below the reported
	 * one, so go down from it, not up from the floor.
	 */
	if (s->lo == s->p->floor && s->hi > s->lo) {
		rc = gallop_down(s);
		if (rc)
			return rc;
	}
	rc = narrow(s);
	if (rc)
		return rc;
	if (s->lo_from_info) {
		s->lo_from_info = false;
		rc = confirm_below(s);
		if (rc)
			return rc;
	}
	/*
	 * A read of several blocks failed with MEDIUM ERROR and the blocks
	 * below its last one read fine: the bad one may lie below, so the
	 * last one is still unknown.
	 */
	if ((s->hi_medium || s->hi_wm) && !s->hi_exact) {
		rc = exact_hi(s);
		if (rc)
			return rc;
	}
	if (s->hi_medium)
		return confirm_beyond(s);
	return s->hi_wm ? confirm_form2(s) : 0;
}

int es_find_end(const struct es_params *p, es_read_fn read, void *ctx,
		struct es_result *res)
{
	struct es_state s = {
		.p = p,
		.unit = p->unit > 1 ? p->unit : 1,
		.read = read,
		.ctx = ctx,
		.res = res,
		.lo = p->floor,
		.end_bound = UINT64_MAX,
		.fail_ms = -1,
		.good_ms = -1,
	};
	uint64_t extra = p->max_extra ? p->max_extra : CDT_DEFAULT_MAX_EXTRA;
	int rc, rounds;

	memset(res, 0, sizeof(*res));
	s.window = p->reported + extra;
	rc = check_candidates(&s);
	if (rc == 1)
		goto done;
	if (rc < 0)
		return rc;
	/* every confirm-beyond that reopens the search moves lo up */
	for (rounds = 0; rounds < 64; rounds++) {
		if (!s.hi_known) {
			rc = climb(&s);
			if (rc)
				return rc;
			if (!s.hi_known)
				goto done;
		}
		rc = settle_window(&s);
		if (rc < 0)
			return rc;
		if (!rc)
			break;
		/*
		 * Reopened above a bad run: the size sources above it come
		 * first again, as at the start; the climb alone would read
		 * block by block up to the reported end.
		 */
		rc = check_candidates(&s);
		if (rc == 1)
			goto done;
		if (rc < 0)
			return rc;
	}
done:
	res->end_seen = s.end_bound != UINT64_MAX;
	res->end = s.hi_known ? s.hi : s.lo;
	res->nothing_readable = res->end == 0;
	return 0;
}
