# What cdtail should answer for an emulated disc, computed from the sim:
# keys alone, per cdtail(1) (DEVICE ADDRESSES, IMAGE): -v n=N (whole blocks in the
# image) hide= extra= runout= bad="A-B[:A-B...]" (or "") hang=LBA (a hang
# inside the image, or -1).  flaky= blocks are readable (retries outlast
# them) and ua= is invisible, so neither is an input.
#
# -v skips="A-B[:A-B...]" (or ""): the blocks of a layout= that are not
# data (audio, gaps: cdtail(1)), never read, so neither bad nor hung; the
# layout's last track is data, so the end is searched there as above.
#
# Each block is OK, MED (bad=: 03/11/00), END (run-out 05/64/00, or past
# the image 05/21/00) or SKIP (not data).  Prints one line:
#   T R E BAD P
# T  the true end: one past the last readable block; the hung block is not
#    readable (issue 22: a timeout is a failed block, in the end search too);
#    R when unreadable blocks reach exactly R (damaged-tail, issue 23), or
#    the run-out's start when they reach a run-out that ends at R (issue 32)
# R  what READ CAPACITY reports: n - hide + extra
# E  the image's extent: T, extended over the MED (and hung) blocks that
#    follow T up to the first END block (the sim always answers END past
#    the image), whatever R says; END blocks are never part of the image
# BAD the unreadable blocks below E as JSON ranges, [[A,B],...]: MED blocks
#    and the hung block (a timeout counts as a failure of that block)
# P  probe's exit status (cdtail-probe(1), issue 32): 4 when nothing reads;
#    0 when T is R, or a run-out's start: 1 or 2 blocks of 05/64/00 (the
#    run-out's blocks inside R) end the reported length (3 or more are
#    Form 2, MEDIUM ERROR never a run-out); else 10 above R, 11 below
function cls(b,   i, p) {
	if (b >= n || b >= n - runout)
		return "END"
	for (i = 1; i <= ns; i++)
		if (b >= slo[i] && b <= shi[i])
			return "SKIP"
	if (b == hang)
		return "MED"
	for (i = 1; i <= nb; i++)
		if (b >= lo[i] && b <= hi[i])
			return "MED"
	return "OK"
}
# The ranges of s, "A-B[:A-B...]" (or ""), into from[1..] and to[1..];
# how many.
function ranges(s, from, to,   k, i, parts, ab) {
	if (s == "")
		return 0
	k = split(s, parts, ":")
	for (i = 1; i <= k; i++) {
		split(parts[i], ab, "-")
		from[i] = ab[1] + 0
		to[i] = ab[2] + 0
	}
	return k
}
BEGIN {
	nb = ranges(bad, lo, hi)
	ns = ranges(skips, slo, shi)
	T = 0
	for (b = n - 1; b >= 0; b--)
		if (cls(b) == "OK") {
			T = b + 1
			break
		}
	R = n - hide + extra
	E = T
	while (cls(E) == "MED")
		E++
	# the run-out's blocks inside the reported length, when they end it
	c = runout && R <= n && R > n - runout ? R - (n - runout) : 0
	if (c > 2)
		c = 0
	# issue 23 (cdtail-probe(1), damaged-tail): the sim's track information
	# always ends the last track at R, and its discs hold no filesystem, so
	# the sources agree on R; MED blocks from T up to exactly R, END from R
	# on, are damage inside the disc: the true end is R.  Issue 32: also
	# up to a run-out that ends R (then the run-out's start) where T
	# answers MEDIUM ERROR (a hung block there may be the run-out's own),
	# and on the last 2 blocks alone (MEDIUM ERROR is never a run-out).
	# Not when nothing reads (T 0)
	if (T > 0 && cls(T) == "MED" && E == R - c && R - c > T && (!c || T != hang))
		T = R - c
	P = T == 0 ? 4 : T == R || (c && T == R - c) ? 0 : T > R ? 10 : 11
	out = ""
	start = -1
	for (b = 0; b <= E; b++) {
		u = b < E && cls(b) != "SKIP" && cls(b) != "OK"
		if (u && start < 0)
			start = b
		if (!u && start >= 0) {
			out = out (out == "" ? "" : ",") "[" start "," (b - 1) "]"
			start = -1
		}
	}
	print T, R, E, "[" out "]", P
}
