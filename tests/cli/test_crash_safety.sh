#!/bin/sh
# Crash safety of cdtail image --map (issue 6, item 4), beyond the kill -9
# loop of test_image.sh: 20 trials, each killed with SIGKILL twice at
# pseudo-random points (fixed seed) -- once on the first run, once on the
# resume -- and then resumed to the end.  The disc has bad blocks in the
# reported part and in the hidden tail, and 150 hidden blocks.  After every
# kill: the map left behind passes ddrescuelog -t, its runs are whole
# blocks covering the extent, and every block it marks read (+) is in OUT
# with the uninterrupted run's bytes.  After every resume: its trace shows
# no READ of a block the map marked read when it started (the size
# sources' reads, which every run does again first, are checked to be the
# same commands as probe's and left out).  At the end: OUT equals the
# uninterrupted run's byte for byte and the map marks the same bad blocks.
#
# Data first (issue 13): image copies the reported extent but its last 2
# blocks (448 here) before the end search, its map saying search=pending
# (and covering the 450 reported blocks) until the search settled the
# extent.  Besides the random points, trials kill at each phase boundary:
# the last copying read before the search, the search's first read, its
# first failing read, and the first read after it.
#
# Kill points are trace lines (the emulated drive's trace= file gets one
# line per CDB): a point K in 1..L, L the length of an uninterrupted run's
# trace, kills the run once its trace has K lines, so points fall in the size
# reads (no OUT, no map yet), in the copy before the search, in the search
# (a pending map), in the passes and in the trimming, scraping and retries
# of the bad blocks.  sleep=1 with cost=2000/0 makes a whole run
# last about 2 s, long enough for the polling to land near K.
#
# Then damaged maps: each is refused with one line and exit 2, and OUT and
# the map are left byte-identical (never a silent restart).
. "$(dirname "$0")/lib.sh"

FAULTS="$ROOT/tests/faults"
N=600
BS=2048
IMG="$T/disc.img"
mkimage "$IMG" $N
DISC="hide=150,bad=100-107:400-403:520-523"
BAD='[[100,107],[400,403],[520,523]]'
SLOW="sim:$IMG,cost=2000/0,sleep=1,$DISC"
FAST="sim:$IMG,cost=0/0,$DISC"

# --- the uninterrupted run ------------------------------------------------
REF="$T/ref"
run image --json --map "$T/ref.map" "sim:$IMG,cost=2000/0,$DISC,trace=$T/ref.trace" "$REF"
expect_rc "uninterrupted run -> 4" 4
expect_json "uninterrupted run: bad blocks" '.bad_blocks | tostring' "$BAD"
cp "$IMG" "$T/want"
for r in 100:8 400:4 520:4; do
	dd if=/dev/zero of="$T/want" bs=$BS seek=${r%:*} count=${r#*:} conv=notrunc 2>/dev/null
done
if cmp -s "$T/want" "$REF"; then ok "uninterrupted run: OUT is the image, bad blocks zero"; else
	not_ok "uninterrupted run: OUT is the image, bad blocks zero" "$(cmp "$T/want" "$REF" 2>&1)"; fi
L=$(wc -l <"$T/ref.trace")
FIRST=448	# what is copied before the end search: 450 reported, less 2

# The size sources' reads each run does first, as probe does them (the same
# commands): the prefix that the no-reread check leaves out.  sizes_len
# TRACE: its lines before the end search's first read (at FIRST or above).
sizes_len() {
	awk -v first=$FIRST '$1 == "28" || $1 == "a8" { split($2, a, "="); if (a[2] + 0 >= first) { print NR - 1; exit } }' "$1"
}
"$CDTAIL" probe "sim:$IMG,cost=2000/0,$DISC,trace=$T/probe.slow" >/dev/null 2>&1 </dev/null
"$CDTAIL" probe "$FAST,trace=$T/probe.fast" >/dev/null 2>&1 </dev/null
S=$(sizes_len "$T/probe.slow")
head -n "${S:-0}" "$T/probe.slow" >"$T/probe.sizes"
if [ "${S:-0}" -gt 0 ] && head -n "$S" "$T/ref.trace" | cmp -s - "$T/probe.sizes"; then
	ok "image's trace starts with probe's size reads ($S of $L lines)"
else
	not_ok "image's trace starts with probe's size reads" "$(head -n 20 "$T/ref.trace" | diff - "$T/probe.sizes" | head)"
fi
# the phases of the uninterrupted run, by trace line: the last chunk read of
# the copy before the search, the search's first read (the first READ at
# FIRST or above), its first failing read (out of range), and the first
# read after the search (the first good chunk read past the reported 450)
set -- $(awk -v first=$FIRST -v s="$S" '
	NR <= s || ($1 != "28" && $1 != "a8") { next }
	{ split($2, a, "="); split($3, b, "="); lo = a[2] + 0; n = b[2] + 0 }
	!sr && lo >= first { sr = NR }
	!sr && n > 1 { lc = NR }
	!sf && /sense=05\/21/ { sf = NR }
	sf && !ar && n > 1 && lo + n > 450 && lo < 600 && /sense=00/ { ar = NR }
	END { print lc + 0, sr + 0, sf + 0, ar + 0 }' "$T/ref.trace")
LASTCOPY=$1 SEARCH=$2 SFAIL=$3 AFTER=$4
if [ "$LASTCOPY" -gt 0 ] && [ "$LASTCOPY" -lt "$SEARCH" ] && [ "$SEARCH" -le "$SFAIL" ] &&
	[ "$SFAIL" -lt "$AFTER" ]; then
	ok "data first: the copy (to line $LASTCOPY) before the search (lines $SEARCH.., first failure $SFAIL), the rest from line $AFTER"
else
	not_ok "data first: the copy before the search" "lines $LASTCOPY $SEARCH $SFAIL $AFTER"
fi
# every chunk read of [0, FIRST) comes before the search's first read
late=$(awk -v s="$S" -v sr="$SEARCH" -v first=$FIRST '
	NR <= s || ($1 != "28" && $1 != "a8") { next }
	{ split($2, a, "="); split($3, b, "=") }
	NR > sr && b[2] + 0 > 1 && a[2] + b[2] <= first { print NR ": " $0; exit }' "$T/ref.trace")
if [ -z "$late" ]; then ok "data first: no chunk of the reported extent is read after the search began"; else
	not_ok "data first: no chunk of the reported extent is read after the search began" "$late"; fi

# --- helpers ----------------------------------------------------------------
# rand MAX: R = a pseudo-random number in 0..MAX-1 (LCG, fixed seed)
seed=20261203
rand() {
	seed=$(((seed * 1103515245 + 12345) % 2147483648))
	R=$((seed / 65536 % $1))
}

# finished MAP OUTFILE: the blocks MAP marks read (+), "first count" a line
finished() {
	: >"$2"
	: >"$2.ids"
	: >"$2.pending"
	[ -f "$1" ] || return 0
	grep '^# cdtail identity: .* search=pending$' "$1" >"$2.pending"
	# the identity record's blocks, which a resume reads again to check the disc
	# (-1 for the record's first line: a record, maybe of no block yet)
	sed -n -e 's/^# cdtail identity: .*/-1/p' \
		-e 's/^# cdtail identity block \([0-9]*\) .*/\1/p' "$1" >"$2.ids"
	awk -v bs=$BS '
		function hex(s,   i, v) {
			s = tolower(s); v = 0
			for (i = 3; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		/^#/ || NF != 3 { next }
		$3 == "+" { print hex($1) / bs, hex($2) / bs }' "$1" >"$2"
}

# map_state NAME MAP OUT: what a kill left behind is consistent
map_state() {
	why=
	if [ ! -f "$2" ]; then
		# the size reads come before OUT is created; the instant between
		# creating OUT and the first save is documented (run with --force)
		if [ ! -e "$3" ]; then
			state=none
			ok "$1: killed before the first map: no OUT, no map"
			return
		fi
		# documented: OUT without a map is refused; --force starts over
		state=window
		cp "$3" "$T/o.keep"
		run image --map "$2" "$FAST" "$3"
		if [ $RC -eq 2 ] && cmp -s "$3" "$T/o.keep" && [ ! -e "$2" ]; then
			ok "$1: killed before the first map: OUT without a map is refused"
		else
			not_ok "$1: killed before the first map: OUT without a map is refused" \
				"exit $RC, wanted 2" "$(cat "$T/err")"
		fi
		return
	fi
	state=map
	size=$((N * BS))
	# before the search settles it the map covers the 450 reported blocks
	if grep -q '^# cdtail identity: .* search=pending$' "$2"; then
		state=pending
		size=$((450 * BS))
		grep -q '^# cdtail identity: block_size=2048 extent=450 ' "$2" ||
			why="$why; a pending map whose identity is not of the 450 reported blocks"
	fi
	if ! ddrescuelog -t "$2" >"$T/dl" 2>&1; then
		why="$why; ddrescuelog -t: $(head -3 "$T/dl")"
	fi
	got=$(awk -v bs=$BS -f "$FAULTS/mapcheck.awk" "$2")
	case $got in
	"OK $size "*) ;;
	*) why="$why; map: $got (wanted $size bytes)" ;;
	esac
	finished "$2" "$T/fin.chk"
	while read -r a c; do
		if ! cmp -s -i $((a * BS)):$((a * BS)) -n $((c * BS)) "$3" "$REF"; then
			why="$why; blocks $a..+$c are marked read but OUT differs from the uninterrupted run"
		fi
	done <"$T/fin.chk"
	if [ -z "$why" ]; then ok "$1: the map left behind is valid and true"; else
		not_ok "$1: the map left behind is valid and true" "${why#; }" "$(grep -v '^#' "$2" | head -20)"; fi
}

# no_reread NAME TRACE PROBETRACE FINISHED: after the size reads, the run
# read no block of FINISHED
no_reread() {
	p=$(sizes_len "$3")
	t=$(wc -l <"$2")
	[ "$t" -lt "$p" ] && p=$t
	# a map with cdtail's identity record: the resume re-reads those
	# blocks (one each) to check the disc, and no end search runs
	ids=$(tr '\n' ' ' <"$4.ids")
	if [ -n "$ids" ]; then
		# the size sources' reads, then the identity's; no end search.
		# The identity's are the first single blocks after probe's size
		# reads (whose head read goes block by block over a bad block)
		s=$(sizes_len "$3")
		p=$(awk -v s="${s:-0}" 'NR > s && $1 == "28" && $3 == "blocks=1" { print NR - 1; exit }' "$2")
		# a run killed before them: the size reads at most
		if [ -z "$p" ]; then
			p=$(sizes_len "$3")
			[ "$t" -lt "$p" ] && p=$t
		fi
	fi
	got=$(awk -v p="$p" -v ids="$ids" '
		BEGIN { k = split(ids, idl, " "); for (i = 1; i <= k; i++) isid[idl[i]] = 1 }
		FILENAME == ARGV[1] { first[++n] = $1; cnt[n] = $2; next }
		FNR <= p { next }
		$1 != "28" && $1 != "a8" && $1 != "88" { next }
		{
			split($2, a, "="); split($3, b, "=")
			lo = a[2] + 0; hi = lo + b[2]
			if (b[2] == 1 && (lo in isid)) next
			for (i = 1; i <= n; i++)
				if (lo < first[i] + cnt[i] && first[i] < hi) {
					print "line " FNR ": " $0 " reads finished blocks " first[i] "..+" cnt[i]
					exit
				}
		}' "$4" "$2")
	head -n "$p" "$3" >"$T/pfx"
	if [ -z "$ids" ] && ! head -n "$p" "$2" | cmp -s - "$T/pfx"; then
		got="${got:+$got; }its first $p commands are not probe's: $(head -n "$p" "$2" | diff - "$T/pfx" | head -4)"
	fi
	# a pending map's resume runs the search; a settled one's never
	if [ -n "$ids" ] && [ ! -s "$4.pending" ] && grep -q "^28 .*sense=05/21" "$2"; then
		got="${got:+$got; }a resume with the identity record repeated the end search's failing reads"
	fi
	if [ -z "$got" ]; then ok "$1: no block the map marked read was read again"; else
		not_ok "$1: no block the map marked read was read again" "$got"; fi
}

# slow_run K TRACE ARGS...: cdtail image ARGS on the slow drive, SIGKILLed
# once TRACE has K lines; sets KILLED (1 or 0) and RC
slow_run() {
	k=$1 tr=$2
	shift 2
	rm -f "$tr"
	"$CDTAIL" image -q "$@" >/dev/null 2>"$T/slow.err" </dev/null &
	pid=$!
	i=0
	while [ $i -lt 3000 ] && kill -0 $pid 2>/dev/null; do
		[ -f "$tr" ] && [ "$(wc -l <"$tr")" -ge "$k" ] && break
		sleep 0.005
		i=$((i + 1))
	done
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	RC=$?
	if [ $RC -eq 137 ]; then KILLED=1; else KILLED=0; fi
}

# --- 20 trials, two kills each ---------------------------------------------
kills=0
phase_none=0
phase_window=0
phase_pending=0
phase_map=0
completed=0
O="$T/k.out"
M="$T/k.map"
TRIALS=${CS_TRIALS:-20}	# fewer only to debug this file
j=1
while [ $j -le $TRIALS ]; do
	rm -f "$O" "$M" "$M.cdtail-tmp"
	iv=1
	[ $((j % 3)) -eq 0 ] && iv=300
	rand "$L"
	k1=$((R + 1))
	rand "$L"
	k2=$((R + 1))
	# the first trials kill at the phase boundaries of data first
	case $j in
	1) k1=$LASTCOPY ;;
	2) k1=$SEARCH ;;
	3) k1=$SFAIL ;;
	4) k1=$AFTER ;;
	5) k1=$((SEARCH + 1)) k2=$SEARCH ;;
	esac
	name="trial $j (--map-interval $iv, kills at trace lines $k1, $k2)"

	slow_run $k1 "$T/t1" --map "$M" --map-interval $iv "$SLOW,trace=$T/t1" "$O"
	[ $KILLED -eq 1 ] && kills=$((kills + 1)) || completed=$((completed + 1))
	map_state "$name: first kill" "$M" "$O"
	eval "phase_$state=\$((phase_$state + 1))"
	finished "$M" "$T/fin1"
	force=
	[ $state = window ] && force=--force

	slow_run $k2 "$T/t2" $force --map "$M" --map-interval $iv "$SLOW,trace=$T/t2" "$O"
	[ $KILLED -eq 1 ] && kills=$((kills + 1)) || completed=$((completed + 1))
	if [ $KILLED -eq 0 ] && [ $RC -ne 4 ]; then
		not_ok "$name: resume ran to its end with exit $RC, wanted 4" "$(head -3 "$T/slow.err")"
	fi
	no_reread "$name: resume" "$T/t2" "$T/probe.slow" "$T/fin1"
	map_state "$name: second kill" "$M" "$O"
	eval "phase_$state=\$((phase_$state + 1))"
	finished "$M" "$T/fin2"

	force=
	[ $state = window ] && force=--force
	rm -f "$T/t3"
	run image --json $force --map "$M" "$FAST,trace=$T/t3" "$O"
	expect_rc "$name: last resume -> 4" 4
	no_reread "$name: last resume" "$T/t3" "$T/probe.fast" "$T/fin2"
	if cmp -s "$O" "$REF"; then ok "$name: OUT identical to the uninterrupted run"; else
		not_ok "$name: OUT identical to the uninterrupted run" "$(cmp "$O" "$REF" 2>&1)"; fi
	got=$(awk -v bs=$BS -v final=1 -f "$FAULTS/mapcheck.awk" "$M")
	why=
	[ "$got" = "OK $((N * BS)) $BAD" ] || why="map: $got"
	ddrescuelog -t "$M" >/dev/null 2>&1 || why="$why; ddrescuelog -t refuses it"
	[ -e "$M.cdtail-tmp" ] && why="$why; $M.cdtail-tmp left behind"
	if [ -z "$why" ]; then ok "$name: final map finished, the same bad blocks"; else
		not_ok "$name: final map finished, the same bad blocks" "$why"; fi
	j=$((j + 1))
done
echo "# crash safety: $kills SIGKILLs, $completed runs ended before their kill point; left behind:" \
	"$phase_none times nothing, $phase_window times OUT without a map," \
	"$phase_pending times a map whose search was pending, $phase_map times a settled map"
if [ $kills -ge $TRIALS ]; then ok "at least $TRIALS runs were killed ($kills)"; else
	not_ok "at least $TRIALS runs were killed" "only $kills"; fi

# --- damaged maps -------------------------------------------------------------
# A partial state: a run stopped by SIGTERM with work left in the map.
rm -f "$O" "$M" "$T/ts"
"$CDTAIL" image -q --map "$M" --map-interval 1 "$SLOW,trace=$T/ts" "$O" >/dev/null 2>&1 </dev/null &
pid=$!
i=0
while [ $i -lt 3000 ] && kill -0 $pid 2>/dev/null; do
	[ -f "$T/ts" ] && [ "$(wc -l <"$T/ts")" -ge 120 ] && break
	sleep 0.005
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
RC=$?
expect_rc "partial state: SIGTERM -> 143" 143
if grep -q '^0x[0-9A-F]* *[?*/] *$' "$M" 2>/dev/null || grep -Eq '^0x[0-9A-F]+ +0x[0-9A-F]+ +[?*/]$' "$M"; then
	ok "partial state: the map has work left"
else
	not_ok "partial state: the map has work left" "$(grep -v '^#' "$M")"
fi
cp "$O" "$T/o.keep"
cp "$M" "$T/m.keep"

# refused NAME PATTERN: image with the damaged map $T/bad.map exits 2 with
# one line matching PATTERN, and leaves OUT and the map as they were
refused() {
	cp "$T/bad.map" "$T/bad.keep"
	[ -n "$CS_KEEP" ] && cp "$T/bad.map" "$CS_KEEP/$(echo "$1" | tr -c 'a-z0-9\n' _).map"
	run image --map "$T/bad.map" "$FAST" "$O"
	expect_rc "$1 -> 2" 2
	expect_err_line "$1: one line" "$2"
	why=
	cmp -s "$O" "$T/o.keep" || why="OUT changed"
	cmp -s "$T/bad.map" "$T/bad.keep" || why="$why; the map changed"
	[ -e "$T/bad.map.cdtail-tmp" ] && why="$why; a temporary map was written"
	if [ -z "$why" ]; then ok "$1: OUT and map untouched"; else not_ok "$1: OUT and map untouched" "$why"; fi
}

: >"$T/bad.map"
refused "empty map" 'map .*not a valid ddrescue mapfile'
# cut inside the fifth run's line: in its position, in its size, before
# its status
for cut in 5 17 22; do
	awk -v cut=$cut '!/^#/ && $2 ~ /^0x/ && ++n == 5 { printf "%s", substr($0, 1, cut); exit } { print }' \
		"$M" >"$T/bad.map"
	refused "map cut after $cut characters of a run" 'map .*(not a valid|another disc|covers|whole)'
done
head -n $(($(wc -l <"$M") - 2)) "$M" >"$T/bad.map"
refused "map missing its last runs" 'map .*(not a valid|another disc|covers)'
awk '!/^#/ && $2 ~ /^0x/ && ++n == 3 { print "garbage here" } { print }' "$M" >"$T/bad.map"
refused "garbage line in the map" 'map .*not a valid.*line [0-9]+'
# the first run grows by one block: it overlaps the second
awk 'function hex(s,  i, v) { s = tolower(s); v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	!/^#/ && $2 ~ /^0x/ && !done { $2 = sprintf("0x%08X", hex($2) + 2048); done = 1 } { print }' "$M" >"$T/bad.map"
refused "overlapping runs" 'map .*not a valid.*(contiguous|overlap)'
# the first run ends half-way into a block, the second starts there
awk 'function hex(s,  i, v) { s = tolower(s); v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	!/^#/ && $2 ~ /^0x/ { n++ }
	n == 1 && $2 ~ /^0x/ && !/^#/ { $2 = sprintf("0x%08X", hex($2) - 1024) }
	n == 2 && $2 ~ /^0x/ && !/^#/ && !d { $1 = sprintf("0x%08X", hex($1) - 1024); $2 = sprintf("0x%08X", hex($2) + 1024); d = 1 }
	{ print }' "$M" >"$T/bad.map"
refused "runs not in whole blocks" 'map .*(block|not a valid)'
sed 's/^\(0x[0-9A-F]*  *0x[0-9A-F]*  *\)+$/\1x/' "$M" >"$T/bad.map"
refused "unknown status" 'map .*not a valid'
grep -Ev '^0x[0-9A-F]+ +[?*/+-] +[0-9]+$' "$M" >"$T/bad.map"
refused "no status line" 'map .*not a valid'
# the last run one block short: the map covers less than the disc
awk 'function hex(s,  i, v) { s = tolower(s); v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	{ l[NR] = $0 } !/^#/ && $2 ~ /^0x/ { last = NR }
	END { for (i = 1; i <= NR; i++) { if (i == last) { split(l[i], f, " "); l[i] = f[1] "  " sprintf("0x%08X", hex(f[2]) - 2048) "  " f[3] } print l[i] } }' \
	"$M" >"$T/bad.map"
refused "wrong size (one block short)" 'map .*(another disc|covers)'
# maps of other discs: a smaller and a larger one, finished
for other in 500 700; do
	mkimage "$T/other.img" $other
	rm -f "$T/other.out" "$T/bad.map"
	"$CDTAIL" image -q --map "$T/bad.map" "sim:$T/other.img,cost=0/0" "$T/other.out" >/dev/null 2>&1 </dev/null
	refused "map of a $other-block disc" 'map .*(another disc|covers)'
done
# OUT shorter than what the map says was read
cp "$T/m.keep" "$T/bad.map"
cp "$O" "$T/o.full"
truncate -s $((50 * BS)) "$O"
cp "$O" "$T/o.keep"
refused "OUT shorter than the map's data" '(map|short|wants)'
cp "$T/o.full" "$O"
cp "$T/o.full" "$T/o.keep"
# OUT without a map: the documented instant between creating OUT and the
# first save; refused without --force
rm -f "$T/nomap"
run image --map "$T/nomap" "$FAST" "$O"
expect_rc "OUT without its map -> 2" 2
expect_err_line "OUT without its map: one line" 'exists.*--force'
if cmp -s "$O" "$T/o.keep" && [ ! -e "$T/nomap" ]; then ok "OUT without its map: untouched, no map made"; else
	not_ok "OUT without its map: untouched, no map made"; fi

# after all that, the real map still resumes to the uninterrupted result
cmp -s "$M" "$T/m.keep" && ok "the partial map is unchanged" || not_ok "the partial map is unchanged"
rm -f "$T/t4"
run image --json --map "$M" "$FAST,trace=$T/t4" "$O"
expect_rc "partial state: resume -> 4" 4
finished "$T/m.keep" "$T/fin4"
no_reread "partial state: resume" "$T/t4" "$T/probe.fast" "$T/fin4"
if cmp -s "$O" "$REF"; then ok "partial state: OUT identical to the uninterrupted run"; else
	not_ok "partial state: OUT identical to the uninterrupted run" "$(cmp "$O" "$REF" 2>&1)"; fi

finish
