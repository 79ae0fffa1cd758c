#!/bin/sh
# Fault matrix on the emulated drive (issue 6, item 3).  Ten factors:
#   hide (0 1 150)  extra (0 2)  runout (0 2)  bad (none, middle, last 8)
#   flaky (no, yes)  ua (off, 5)  block (2048 512)  info (0 1)
#   toc (reported true none)  hang (none, middle, in the end search's path)
# The full product is 5184 runs; this file runs a covering set:
#   P  all pairs of all ten factors (a greedy table built deterministically
#      by tests/faults/pairwise.awk; the file checks that it covers them);
#   E  every combination of the factors that decide the end and the extent
#      (hide x extra x runout x bad x toc x info x block = 432), with flaky,
#      ua and a hang in the middle rotated through them;
#   H  the hang at the last readable block, which every end search must
#      read, for every hide x extra x runout x bad x toc (108): a failed
#      block like any other (issue 22), so the end lies below it and the
#      extent and the bad blocks take it in.
#   L  the layout factor (issue 12): two data sessions (data:5000/data:1000)
#      and a CD-Extra (audio:3000+audio:2000/data:600), each with the 11400
#      blocks of gap, for every hide x extra x runout x bad x toc = 216,
#      flaky, ua, info and the hangs rotated; the middle bad range, the
#      flaky range and the middle hang fall in session 1's data, in audio
#      or in the gap, which are never read: neither bad nor hung.  With
#      toc=none the drive's disc and track information give the layout.
#   F  the ways real drives fail a read (issue 22): the bad range (middle,
#      last 8) answered as each fault= kind (hwerr, nosense, aborted, host,
#      short, timeout, deferred; a timeout over its first 2 blocks only,
#      ready=0), with hide, toc, info and block size rotated (14): every
#      kind but deferred is a bad block as bad= is, deferred none.
# In a small run (valgrind, ASan: lib.sh) only P, F and every 16th row of E,
# H and L run, unless FM_FULL=1.
#
# The expected answer of each combination is computed from the keys alone
# (tests/faults/model.awk, from cdtail(1): DEVICE ADDRESSES, PROBE, IMAGE), never from
# cdtail.  For each: probe --json's exit status, true_blocks and
# extent_blocks; image --map's exit status, extent and bad ranges; OUT's
# size, every readable block equal to the image's and every bad one zero;
# the map's "-" runs exactly the bad blocks, every run finished, and
# ddrescuelog -t accepting it.  Every command runs under timeout 60 with
# --timeout 1: a hang must end it, never hang the test.
. "$(dirname "$0")/lib.sh"

FAULTS="$ROOT/tests/faults"
TO=60

# Two discs: 600 blocks of 2048 bytes, and 1001 blocks of 512 bytes plus a
# trailing partial block that the drive must ignore.
IMG2048="$T/d2048.img"
mkimage "$IMG2048" 600
IMG512="$T/d512.img"
mkimage "$IMG512" 1001 512
head -c 300 "$IMG2048" >>"$IMG512"
# the layouts' discs: LBAs from 0, 11400 blocks of gap after session 1
IMGMS="$T/ms.img"
mkimage "$IMGMS" $((5000 + 11400 + 1000))
IMGCX="$T/cx.img"
mkimage "$IMGCX" $((3000 + 2000 + 11400 + 600))

# The factors' values, by index; the order of LEVELS is the order of a row.
LEVELS="3 2 2 3 2 2 2 2 3 3"

# --- the pairwise table ------------------------------------------------------
awk -v levels="$LEVELS" -f "$FAULTS/pairwise.awk" >"$T/pairs"
# an independent check that every pair of values of every two factors is in
# some row
want_pairs=$(echo "$LEVELS" | awk '{ for (i = 1; i <= NF; i++) for (j = i + 1; j <= NF; j++) s += $i * $j; print s }')
got_pairs=$(awk '{ for (i = 1; i <= NF; i++) for (j = i + 1; j <= NF; j++) print i, j, $i, $j }' \
	"$T/pairs" | sort -u | wc -l)
if [ "$got_pairs" -eq "$want_pairs" ]; then
	ok "pairwise table: $(wc -l <"$T/pairs") rows cover all $want_pairs value pairs"
else
	not_ok "pairwise table covers every pair" "$got_pairs of $want_pairs pairs covered"
fi

# --- the covering set: rows of "set hide extra runout bad flaky ua block info toc hang"
{
	sed 's/^/P /' "$T/pairs"
	i=0
	for h in 0 1 2; do for x in 0 1; do for r in 0 1; do for b in 0 1 2; do
		for c in 0 1 2; do for f in 0 1; do for k in 0 1; do
			# flaky, ua and a middle hang rotate through the rows
			echo "E $h $x $r $b $((i % 2)) $((i / 2 % 2)) $k $f $c $((i % 3 == 0))"
			i=$((i + 1))
		done; done; done
	done; done; done; done
	i=0
	for h in 0 1 2; do for x in 0 1; do for r in 0 1; do for b in 0 1 2; do
		for c in 0 1 2; do
			echo "H $h $x $r $b $((i % 2)) $((i / 2 % 2)) $((i % 2)) $((i / 3 % 2)) $c 2"
			i=$((i + 1))
		done
	done; done; done; done
	i=0
	for l in 1 2; do for h in 0 1 2; do for x in 0 1; do for r in 0 1; do for b in 0 1 2; do
		for c in 0 1 2; do
			echo "L $h $x $r $b $((i % 2)) $((i / 2 % 2)) 0 $((i / 3 % 2)) $c $((i % 3)) $l"
			i=$((i + 1))
		done
	done; done; done; done; done
	i=0
	for fk in 1 2 3 4 5 6 7; do for b in 1 2; do
		echo "F $((i % 3)) 0 0 $b 0 0 $((i / 3 % 2)) $((i % 2)) $((i % 3)) 0 0 $fk"
		i=$((i + 1))
	done; done
} | awk -v thin="${SMALL:+${FM_FULL:-thin}}" '
	{ key = $0; sub(/^[A-Z] /, "", key) }
	seen[key]++ { next }
	thin == "thin" && $1 != "P" && $1 != "F" && n[$1]++ % 16 { next }
	{ print }' >"$T/rows"

# --- one combination ---------------------------------------------------------
# what_is NAME GOT WANT
what_is() {
	if [ "$2" = "$3" ]; then return 0; fi
	why="$why; $1 $2, wanted $3"
	return 1
}

# check NAME [LINES...]: ok when $why is empty, else not ok with LINES and why
check() {
	if [ -z "$why" ]; then
		ok "$1"
	else
		c_name=$1
		shift
		not_ok "$c_name" "$@" "${why#; }"
	fi
}

combos=0
failed_combos=0
while read -r set h x r b f u k i c g l fk; do
	combos=$((combos + 1))
	hide=$(echo 0 1 150 | cut -d' ' -f$((h + 1)))
	extra=$((x * 2))
	runout=$((r * 2))
	if [ "$k" -eq 1 ]; then bs=512; img=$IMG512; n=1001; else bs=2048; img=$IMG2048; n=600; fi
	# the layout: its key and the blocks that are not data
	lay= skips=
	case ${l:-0} in
	1) img=$IMGMS n=17400 lay="layout=data:5000/data:1000" skips="5000-16399" ;;
	2) img=$IMGCX n=17000 lay="layout=audio:3000+audio:2000/data:600" skips="0-2999:3000-4999:5000-16399" ;;
	esac
	q=$((n / 4))
	case $b in
	0) bad= ;;
	1) bad="$q-$((q + 9))" ;;
	2) bad="$((n - 8))-$((n - 1))" ;;
	esac
	# F: the bad range answered as a fault= kind instead of bad=
	fault=
	if [ -n "${fk:-}" ] && [ -n "$bad" ]; then
		kind=$(echo hwerr nosense aborted host short timeout deferred | cut -d' ' -f"$fk")
		case $kind in
		timeout) bad="${bad%-*}-$((${bad%-*} + 1))" fault="timeout@$bad" ;;
		*) fault="$kind@$bad" ;;
		esac
		[ "$kind" = deferred ] && bad=
	fi
	hang=-1
	[ "$g" -eq 1 ] && hang=$((n / 2 + 3))
	# H: the hang at the last readable block of the disc without it
	[ "$g" -eq 2 ] && hang=$(($(awk -v n=$n -v hide=$hide -v extra=$extra -v runout=$runout \
		-v bad="$bad" -v hang=-1 -v skips="$skips" -f "$FAULTS/model.awk" | cut -d' ' -f1) - 1))
	set -- $(awk -v n=$n -v hide=$hide -v extra=$extra -v runout=$runout \
		-v bad="$bad" -v hang=$hang -v skips="$skips" -f "$FAULTS/model.awk")
	tb=$1 rb=$2 eb=$3 badjson=$4 prc=$5
	keys="cost=50/1"
	[ -n "$lay" ] && keys="$keys,$lay"
	[ "$hide" -ne 0 ] && keys="$keys,hide=$hide"
	[ "$extra" -ne 0 ] && keys="$keys,extra=$extra"
	[ "$runout" -ne 0 ] && keys="$keys,runout=$runout"
	if [ -n "$fault" ]; then
		keys="$keys,fault=$fault"
		case $fault in timeout*) keys="$keys,ready=0" ;; esac
	elif [ -n "$bad" ]; then
		keys="$keys,bad=$bad"
	fi
	[ "$f" -eq 1 ] && keys="$keys,flaky=$((3 * n / 8))-$((3 * n / 8 + 4)):2"
	[ "$u" -eq 1 ] && keys="$keys,ua=5"
	[ "$k" -eq 1 ] && keys="$keys,block=512"
	[ "$i" -eq 1 ] && keys="$keys,info=1"
	keys="$keys,toc=$(echo reported true none | cut -d' ' -f$((c + 1)))"
	[ "$g" -ne 0 ] && keys="$keys,hang=$hang"
	dev="sim:$img,$keys"
	name="fm $set$combos [${keys#cost=50/1,}]"
	# expected exit statuses: a hang is a bad block, never the end of a run;
	# probe's (prc) from the model: a TAO run-out the structure explains is
	# verdict ok (cdtail-probe(1), issues 24 and 32), 1 or 2 blocks of it
	# inside READ CAPACITY, after MEDIUM ERROR blocks too
	if [ "$badjson" = "[]" ]; then irc=0; else irc=4; fi
	bad_before=$FAIL

	# probe
	why=
	RC=0
	timeout $TO $TEST_WRAPPER "$CDTAIL" probe --json --timeout 1 "$dev" >"$T/out" 2>"$T/err" </dev/null || RC=$?
	what_is "exit" $RC $prc
	if [ $RC -ne 124 ]; then
		got=$(jq -r '"\(.true_blocks) \(.extent_blocks) \(.reported_blocks)"' <"$T/out" 2>&1)
		what_is "true/extent/reported" "$got" "$tb $eb $rb"
	fi
	check "$name: probe" "cdtail probe --json --timeout 1 $dev"

	# image
	why=
	RC=0
	rm -f "$T/o" "$T/m"
	timeout $TO $TEST_WRAPPER "$CDTAIL" image --json --timeout 1 --map "$T/m" "$dev" "$T/o" \
		>"$T/out" 2>"$T/err" </dev/null || RC=$?
	what_is "exit" $RC $irc
	got=$(jq -r '"\(.extent_blocks) \(.bad_blocks | tostring) \(.true_blocks)"' <"$T/out" 2>&1)
	what_is "extent/bad/true" "$got" "$eb $badjson $tb"
	# the blocks of the extent that are not data are skipped
	wsk=$(echo "$skips" | tr ':-' '\n ' | awk -v e=$eb 'NF == 2 && $1 < e { t += ($2 < e ? $2 : e - 1) - $1 + 1 } END { print t + 0 }')
	what_is "skipped_blocks" "$(jq -r .skipped_blocks <"$T/out" 2>&1)" "$wsk"
	check "$name: image" "cdtail image --timeout 1 --map M $dev O" "stderr: $(head -c 200 "$T/err")"

	# OUT: the image's blocks below the extent, bad ones zero-filled
	why=
	head -c $((eb * bs)) "$img" >"$T/want"
	truncate -s $((eb * bs)) "$T/want"
	{ echo "$badjson" | tr -d '[]' | tr ',' ' ' | xargs -n 2 2>/dev/null
	  echo "$skips" | tr ':-' '\n ' | awk -v e=$eb 'NF == 2 && $1 < e { print $1, ($2 < e ? $2 : e - 1) }'; } |
		while read -r a z; do
			dd if=/dev/zero of="$T/want" bs=$bs seek=$a count=$((z - a + 1)) \
				conv=notrunc 2>/dev/null
		done
	if [ ! -f "$T/o" ]; then
		why="; OUT missing"
	elif ! cmp -s "$T/want" "$T/o"; then
		why="; OUT ($(stat -c %s "$T/o") bytes) differs from the expected $((eb * bs)) bytes: $(cmp "$T/want" "$T/o" 2>&1 | head -1)"
	fi
	check "$name: OUT"

	# the map: exactly the bad blocks are "-", everything else "+"
	why=
	got=$(awk -v bs=$bs -v final=1 -f "$FAULTS/mapcheck.awk" "$T/m" 2>&1)
	what_is "map" "$got" "OK $((eb * bs)) $badjson"
	ddrescuelog -t "$T/m" >/dev/null 2>&1 || why="$why; ddrescuelog -t refuses it"
	check "$name: map"
	[ $FAIL -gt "$bad_before" ] && failed_combos=$((failed_combos + 1))
done <"$T/rows"

# --- the same hangs in real time -------------------------------------------------
# sleep=1 makes a timed-out command really last --timeout: the end search
# goes past its one hung block, never waiting for it twice (issue 22);
# imaging tries a hung block a bounded number of times (the chunk,
# trimming, scraping, --retries: at most 3 + retries), so the run lasts
# about that many timeouts.
now_ms() { echo $(($(date +%s%N) / 1000000)); }
rm -f "$T/rt.trace"
t0=$(now_ms)
timeout $TO $TEST_WRAPPER "$CDTAIL" probe --json --timeout 1 \
	"sim:$IMG2048,cost=0/0,sleep=1,hide=150,hang=599,trace=$T/rt.trace" >"$T/out" 2>"$T/err" </dev/null
RC=$?
ms=$(($(now_ms) - t0))
expect_rc "real time: probe, hang at the last block: a bad block -> 10" 10
expect_json "real time: probe: the end below the hung block" .true_blocks 599
expect_json "real time: probe: the extent takes it in" .extent_blocks 600
n=$(grep -c 'sense=timeout' "$T/rt.trace")
if [ "$n" -eq 1 ] && [ "$ms" -lt 10000 ]; then ok "real time: probe waits for the hung block once ($ms ms)"; else
	not_ok "real time: probe waits for the hung block once" "$n timeouts, $ms ms"; fi
for retries in 0 2; do
	rm -f "$T/rt.trace" "$T/o" "$T/m"
	t0=$(now_ms)
	timeout $TO $TEST_WRAPPER "$CDTAIL" image --json --timeout 1 --retries $retries --map "$T/m" \
		"sim:$IMG2048,cost=0/0,sleep=1,hide=150,bad=150-159,hang=303,trace=$T/rt.trace" "$T/o" \
		>"$T/out" 2>"$T/err" </dev/null
	RC=$?
	ms=$(($(now_ms) - t0))
	expect_rc "real time: image --retries $retries, hang in the middle -> 4" 4
	expect_json "real time: image --retries $retries: the hung block is bad" '.bad_blocks | tostring' \
		'[[150,159],[303,303]]'
	n=$(grep -c 'sense=timeout' "$T/rt.trace")
	if [ "$n" -le $((3 + retries)) ] && [ "$ms" -lt $(((n + 10) * 1000)) ]; then
		ok "real time: image --retries $retries: $n timeouts (at most $((3 + retries))), $ms ms"
	else
		not_ok "real time: image --retries $retries: bounded" "$n timeouts (at most $((3 + retries))), $ms ms"
	fi
done

echo "# fault matrix: $combos combinations" \
	"($(grep -c '^P' "$T/rows") pairwise, $(grep -c '^E' "$T/rows") end x extent," \
	"$(grep -c '^H' "$T/rows") hang in the end search, $(grep -c '^L' "$T/rows") layouts," \
	"$(grep -c '^F' "$T/rows") fault kinds): $failed_combos failed"
finish
