#!/bin/sh
# Safe imaging (issue 11): the map's disc identity, --force with --map,
# locks, OUT as the source, no leftovers, medium changes.  Every check
# that a run was refused also checks that OUT and the map are untouched.
. "$(dirname "$0")/lib.sh"

N=3000
A="$T/a.img"
B="$T/b.img"
mkimage "$A" $N
mkimage "$B" $N 2048
# B: the same size, another disc (one byte differs in every 100th block)
python3 -c "
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
for b in range(0, len(d), 2048 * 100):
    d[b] ^= 0x5a
open(sys.argv[2], 'wb').write(d)" "$A" "$B"
O="$T/o.iso"
M="$T/o.map"

# unchanged NAME: OUT and the map are what they were before the last run
keep() { cp "$O" "$T/o.keep" 2>/dev/null; cp "$M" "$T/m.keep" 2>/dev/null; }
unchanged() {
	why=
	cmp -s "$O" "$T/o.keep" || why="OUT changed"
	cmp -s "$M" "$T/m.keep" || why="$why; the map changed"
	ls "$T" | grep -q 'cdtail-' && why="$why; a temporary file was left"
	if [ -z "$why" ]; then ok "$1: OUT and map untouched"; else not_ok "$1: OUT and map untouched" "$why"; fi
}
same_as() {
	if cmp -s "$2" "$3"; then ok "$1"; else not_ok "$1" "$(cmp "$2" "$3" 2>&1)"; fi
}
# other_disc RC-NAME NAME PATTERN: resuming the map on disc B is refused
# (exit 2) with one line matching PATTERN, OUT and the map untouched
other_disc() {
	keep
	run image --map "$M" "sim:$B,cost=0/0" "$O"
	expect_rc "$1" 2
	expect_err_line "$2: one line" "$3"
	unchanged "$2"
}

# --- defect 1 on the command line ---------------------------------------------
rm -f "$O" "$M"
run image --json --map "$M" "sim:$A,cost=0/0,bad=100-400" "$O"
expect_rc "bad=100-400 on $N blocks -> 4" 4
expect_json "bad=100-400: the bad range" '.bad_blocks | tostring' '[[100,400]]'
python3 -c "
import sys
a = open(sys.argv[1], 'rb').read(); o = open(sys.argv[2], 'rb').read()
z = bytearray(a); z[100 * 2048:401 * 2048] = bytes(301 * 2048)
sys.exit(0 if o == bytes(z) else 1)" "$A" "$O" && ok "bad=100-400: OUT is the disc, zeros in the bad blocks" ||
	not_ok "bad=100-400: OUT is the disc, zeros in the bad blocks"
rm -f "$O" "$M"
run image --json --map "$M" "sim:$A,cost=0/0,bad=2500-2999" "$O"
expect_rc "trailing MEDIUM ERROR run -> 4" 4
expect_json "trailing run: OUT covers the disc" .extent_blocks $N
expect_json "trailing run: marked bad" '.bad_blocks | tostring' '[[2500,2999]]'

# --- identity: a map of disc A is not resumed on disc B ------------------------
rm -f "$O" "$M"
run image --map "$M" "sim:$A,cost=0/0,bad=1000-1099" "$O"
expect_rc "disc A with a scratch -> 4" 4
expect_grep "the map records the disc's identity" "$M" '^# cdtail identity: block_size=2048 extent=3000'
n=$(grep -c '^# cdtail identity block [0-9]* sha256=[0-9a-f]\{64\}$' "$M")
[ "$n" -ge 8 ] && ok "identity: $n block digests" || not_ok "identity: block digests" "only $n"
ddrescuelog -t "$M" >/dev/null 2>&1 && ok "ddrescuelog accepts the map with its identity" ||
	not_ok "ddrescuelog accepts the map with its identity"
other_disc "resume on another disc -> 2" "another disc" 'belongs to another disc'

# the same disc: resumes, with no failing read (the extent is in the map)
run image --json --map "$M" "sim:$A,cost=0/0" "$O"
expect_rc "resume on the same disc -> 0" 0
expect_json "resume: resumed" .resumed true
expect_json "resume of the healed disc: no failing read" '.total.failed_reads' 0
same_as "resume: OUT is disc A" "$O" "$A"

# --force with --map starts over: both files replaced
run image --json --force --map "$M" "sim:$B,cost=0/0" "$O"
expect_rc "--force --map on disc B -> 0" 0
expect_json "--force --map: not resumed" .resumed false
same_as "--force --map: OUT is disc B" "$O" "$B"

# --- a GNU ddrescue map (no identity) -----------------------------------------
rm -f "$O" "$M" "$T/dd.map"
ddrescue -q -b 2048 "$A" "$O" "$T/dd.map" >/dev/null 2>&1
cp "$T/dd.map" "$M"
other_disc "ddrescue's map of disc A on disc B -> 2" "ddrescue's map, other disc" "differs from $O's"
run image --json --map "$M" "sim:$A,cost=0/0" "$O"
expect_rc "ddrescue's map of disc A on disc A -> 0" 0
expect_json "ddrescue's map: finished blocks checked" '.identity_blocks > 0' true
expect_grep "ddrescue's map gets the identity" "$M" '^# cdtail identity:'
same_as "ddrescue's map: OUT is disc A" "$O" "$A"

# --- a GNU ddrescue map of /dev/sr0: it stops at READ CAPACITY (issue 24, 2) ---
# ddrescue of the kernel's node reads what READ CAPACITY reports: here a
# file of the reported 2400 blocks of disc A stands for /dev/sr0, and the
# drive hides the last 600.  With GNU ddrescue installed it makes the map
# (and a second one over a part of it, -s: a run stopped early); without
# it the test writes the map ddrescue writes, by its format.
R=2400
head -c $((R * 2048)) "$A" >"$T/sr0.img"
# dd_map MAP OUT [BLOCKS]: MAP and OUT as ddrescue -b 2048 leaves them
# after reading the first BLOCKS (default R) of $T/sr0.img whole
dd_map() {
	rm -f "$1" "$2"
	head -c $((${3:-$R} * 2048)) "$T/sr0.img" >"$T/src.part"
	if command -v ddrescue >/dev/null 2>&1; then
		ddrescue -q -b 2048 "$T/src.part" "$2" "$1" >/dev/null 2>&1
	else
		cp "$T/src.part" "$2"
		printf '# Mapfile. Created by GNU ddrescue version 1.27\n# current_pos  current_status  current_pass\n0x%08X     +               1\n#      pos        size  status\n0x00000000  0x%08X  +\n' \
			$((${3:-$R} * 2048 - 2048)) $((${3:-$R} * 2048)) >"$1"
	fi
}
HID="sim:$A,hide=$((N - R)),cost=0/0"
dd_map "$M" "$O"
grep -q '^# cdtail' "$M" && not_ok "ddrescue's map has no cdtail identity" || ok "ddrescue's map has no cdtail identity"
run image --json --map "$M" "$HID,trace=$T/grow.trace" "$O"
expect_rc "ddrescue's map of the reported length: image grows it -> 0" 0
expect_json "grown: map_grown_from is READ CAPACITY" .map_grown_from $R
expect_json "grown: the extent is the true end" .extent_blocks $N
expect_json "grown: only the hidden tail is read" .blocks_read $((N - R))
expect_json "grown: finished blocks checked against OUT" '.identity_blocks > 0' true
same_as "grown: OUT is byte-identical to the whole disc" "$O" "$A"
expect_grep "grown: the map now covers the true end" "$M" \
	'^# cdtail identity: block_size=2048 extent=3000 true_blocks=3000$'
if ddrescuelog -t "$M" >/dev/null 2>&1 || ! command -v ddrescuelog >/dev/null 2>&1; then
	ok "grown: ddrescuelog accepts the grown map"; else not_ok "grown: ddrescuelog accepts the grown map"; fi
# after the commands a probe sends, the reads below the reported end are
# the check's single blocks, never the copying passes' chunks
rm -f "$T/probe.tr"
"$CDTAIL" probe "$HID,trace=$T/probe.tr" >/dev/null 2>&1
tail -n +"$(($(wc -l <"$T/probe.tr") + 1))" "$T/grow.trace" >"$T/own.tr"
n=$(reads_in "$T/own.tr" 0 $R | awk '{ split($3, b, "="); if (b[2] + 0 > 1) n++ } END { print n + 0 }')
c=$(reads_in "$T/own.tr" 0 $R | wc -l)
if head -n "$(wc -l <"$T/probe.tr")" "$T/grow.trace" | cmp -s - "$T/probe.tr" &&
		[ "$n" -eq 0 ] && [ "$c" -le 16 ]; then
	ok "grown: below the reported end only up to 16 single blocks are read"; else
	not_ok "grown: below the reported end only up to 16 single blocks are read" "$n chunks, $c reads"; fi
run image --map "$M" "$HID" "$O"
expect_rc "grown map: a second run -> 0" 0
expect_grep "grown map: a second run reads nothing" "$T/out" '^read: +0 blocks'

# a map of any length short of the true end: 1000 blocks
dd_map "$M" "$O" 1000
run image --json --map "$M" "$HID" "$O"
expect_rc "ddrescue's map of 1000 blocks: grown -> 0" 0
expect_json "1000 blocks: map_grown_from" .map_grown_from 1000
expect_json "1000 blocks: the other 2000 read" .blocks_read 2000
same_as "1000 blocks: OUT is the whole disc" "$O" "$A"
# a ddrescue run stopped early (-s): the map covers READ CAPACITY, the
# rest non-tried; and one with a bad area, its blocks zeros in OUT (the
# test writes that map: ddrescue reads a file without errors)
if command -v ddrescue >/dev/null 2>&1; then
	rm -f "$M" "$O"
	ddrescue -q -b 2048 -s $((700 * 2048)) "$T/sr0.img" "$O" "$M" >/dev/null 2>&1
	run image --json --map "$M" "$HID" "$O"
	expect_rc "ddrescue -s 700 blocks: grown -> 0" 0
	expect_json "ddrescue -s: grown from READ CAPACITY" .map_grown_from $R
	expect_json "ddrescue -s: the rest read" .blocks_read $((N - 700))
	same_as "ddrescue -s: OUT is the whole disc" "$O" "$A"
fi
dd_map "$M" "$O"
dd if=/dev/zero of="$O" bs=2048 seek=500 count=20 conv=notrunc 2>/dev/null
printf '# Mapfile. Created by GNU ddrescue version 1.27\n# current_pos  current_status  current_pass\n0x%08X     -               4\n#      pos        size  status\n0x00000000  0x%08X  +\n0x%08X  0x%08X  -\n0x%08X  0x%08X  +\n' \
	$((500 * 2048)) $((500 * 2048)) $((500 * 2048)) $((20 * 2048)) $((520 * 2048)) $(((R - 520) * 2048)) >"$M"
run image --json --map "$M" "$HID" "$O"
expect_rc "ddrescue's map with a bad area, the disc healed: grown -> 0" 0
expect_json "bad area: its blocks and the tail read" .blocks_read $((N - R + 20))
same_as "bad area: OUT is the whole disc" "$O" "$A"

# the text says what happened
dd_map "$M" "$O"
run image --map "$M" "$HID" "$O"
expect_grep "grown: the text says the map was grown" "$T/out" \
	"^grown: +the map covered $R blocks \\(READ CAPACITY's length\\); grown to $N"

# refused, nothing touched: the same map on disc B (OUT is A's), an OUT
# longer than the map, a map with a cdtail identity that is short
dd_map "$M" "$O"
other_disc "ddrescue's short map on disc B -> 2" "short map, other disc" "differs from $O's"
head -c $(((R + 1) * 2048)) "$A" >"$O"
keep
run image --map "$M" "$HID" "$O"
expect_rc "OUT longer than the short map -> 2" 2
expect_err_line "OUT longer than the short map: one line" 'not the output of this map'
unchanged "OUT longer than the short map"

# --- OUT is never the source --------------------------------------------------
cp "$A" "$T/src.img"
cp "$A" "$T/src.keep"
ln "$T/src.img" "$T/src.link"
for out in src.img src.link; do
	run image --force "sim:$T/src.img,cost=0/0" "$T/$out"
	expect_rc "OUT $out is the emulated drive's image -> 2" 2
	expect_err_line "OUT $out is the source: one line" 'is the disc being read'
	same_as "OUT $out is the source: untouched" "$T/src.img" "$T/src.keep"
done

# --- locks ----------------------------------------------------------------------
rm -f "$O" "$M"
"$CDTAIL" image -q --map "$M" "sim:$A,cost=1000/0,sleep=1" "$O" >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 500 ] && ! grep -q '^0x' "$M" 2>/dev/null; do sleep 0.01; i=$((i + 1)); done
keep
run image --map "$M" "sim:$A,cost=0/0" "$T/other.iso"
expect_rc "a second run on the same map -> 2" 2
expect_err_line "second run: the map is in use" 'map .* is in use'
[ -e "$T/other.iso" ] && not_ok "second run: no OUT created" || ok "second run: no OUT created"
run image --force "sim:$A,cost=0/0" "$O"
expect_rc "a second run on the same OUT -> 2" 2
expect_err_line "second run: OUT is in use" 'OUT .* is in use'
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && ok "first run interrupted -> 130" || not_ok "first run interrupted -> 130" "exit $rc"
ls "$T" | grep -q 'cdtail-' && not_ok "no temporary map left" || ok "no temporary map left"

# --- an interrupted run with --json: one object that says so (issue 22) -----------
rm -f "$O" "$M"
"$CDTAIL" image --json --map-interval 50 --map "$M" "sim:$A,cost=1000/0,sleep=1" "$O" \
	>"$T/j.out" 2>"$T/j.err" &
pid=$!
i=0
# some blocks read (a run that read nothing removes OUT and its map)
while [ $i -lt 500 ] && ! grep -q '^0x[0-9A-F]*  0x[0-9A-F]*  +' "$M" 2>/dev/null; do
	sleep 0.01; i=$((i + 1)); done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && ok "--json interrupted -> 130" || not_ok "--json interrupted -> 130" "exit $rc"
if [ "$(wc -l <"$T/j.out")" -eq 1 ] &&
	[ "$(jq -r '"\(.interrupted) \(.verdict) \(.map) \(.out) \(.blocks_read > 0)"' <"$T/j.out" 2>&1)" = \
		"true interrupted $M $O true" ]; then
	ok "--json interrupted: one object, interrupted, the map and OUT named"
else
	not_ok "--json interrupted: one object, interrupted, the map and OUT named" "$(head -c 400 "$T/j.out")"
fi
ddrescuelog -t "$M" >"$T/dl.out" 2>&1 && ok "--json interrupted: the map is saved" ||
	not_ok "--json interrupted: the map is saved" "$(cat "$T/dl.out")" "$(cat "$T/j.err")"

# --- no leftovers -------------------------------------------------------------------
rm -f "$O" "$M"
run image --map "$T/nodir/x.map" "sim:$A,cost=0/0" "$O"
expect_rc "map in a missing folder -> 2" 2
[ -e "$O" ] && not_ok "map in a missing folder: no OUT" || ok "map in a missing folder: no OUT"
# a drive that answers nothing (every read times out: the search stops
# after 4 in a row); a disc of 05/64/00 blocks is Form 2 now (issue 23)
run image --map "$M" "sim:$A,cost=0/0,fault=timeout@0-$((N - 1))" "$O"
[ -e "$O" ] || [ -e "$M" ] && not_ok "probe failed: no OUT, no map" "exit $RC" || ok "probe failed: no OUT, no map"
run image "sim:$A,cost=0/0" "$T/$(printf 'x%.0s' $(seq 300))"
expect_rc "OUT name too long -> 2" 2

# --- medium change ----------------------------------------------------------------
rm -f "$O" "$M"
run image --json --map "$M" "sim:$A,cost=0/0,change=60" "$O"
expect_rc "change to the same disc -> 0" 0
same_as "change to the same disc: OUT is the disc" "$O" "$A"
rm -f "$O" "$M"
run image --map "$M" --chunk 16 "sim:$A,cost=0/0,change=60:$B" "$O"
expect_rc "change to another disc -> 3" 3
expect_grep "change to another disc: says so" "$T/err" 'the medium changed'
expect_grep "change to another disc: the map is saved" "$T/err" 'map .* is saved'
python3 -c "
import sys
a = open(sys.argv[1], 'rb').read(); o = open(sys.argv[2], 'rb').read()
z = bytes(2048)
for b in range(len(o) // 2048):
    blk = o[b * 2048:(b + 1) * 2048]
    if blk != z and blk != a[b * 2048:(b + 1) * 2048]:
        sys.exit('block %d is neither disc A nor zeros' % b)
" "$A" "$O" && ok "change to another disc: no block of it in OUT" ||
	not_ok "change to another disc: no block of it in OUT"
ddrescuelog -t "$M" >/dev/null 2>&1 && ok "change: the saved map is valid" || not_ok "change: the saved map is valid"
keep
run image --map "$M" "sim:$B,cost=0/0" "$O"
expect_rc "resume on the new disc -> 2" 2
unchanged "resume on the new disc"
# --- SIGINT in the end search: honoured there, nothing left -----------------------
for c in image tail verify; do
	rm -f "$O" "$M" "$T/i.trace"
	case $c in
	image) set -- --map "$M" "sim:$A,hide=2000,cost=1/200,sleep=1,trace=$T/i.trace" "$O" ;;
	tail) set -- "sim:$A,hide=2000,cost=1/200,sleep=1,trace=$T/i.trace" "$T/short.iso" ;;
	verify) set -- "sim:$A,hide=2000,cost=1/200,sleep=1,trace=$T/i.trace" --image "$A" ;;
	esac
	head -c $((1000 * 2048)) "$A" >"$T/short.iso"
	"$CDTAIL" $c "$@" >/dev/null 2>"$T/i.err" &
	pid=$!
	i=0
	# the search's first failing read: the end search is under way
	while [ $i -lt 500 ] && ! grep -q 'sense=05/21' "$T/i.trace" 2>/dev/null; do
		sleep 0.01; i=$((i + 1)); done
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc -eq 130 ] && ok "$c: SIGINT in the end search -> 130" || not_ok "$c: SIGINT in the end search -> 130" "exit $rc"
	expect_grep "$c: SIGINT says it stops after the current read" "$T/i.err" 'stopping after the current read \(up to 30 s\)'
	# a full end search here takes many more failing reads than the one seen
	n=$(grep -c 'sense=05/21' "$T/i.trace")
	[ "$n" -le 3 ] && ok "$c: stopped within a read of the signal ($n failing reads)" ||
		not_ok "$c: stopped within a read of the signal" "$n failing reads"
	[ $c = image ] || continue
	# Issue 13: "reading the reported extent first and searching past the
	# end afterwards puts the good data first": the reported 1000 blocks
	# (but the 2 the search reads) were copied before the search, so OUT
	# and a map whose search is pending stay, and resume to the whole disc
	if [ -e "$O" ] && grep -q '^# cdtail identity: block_size=2048 extent=1000 .* search=pending$' "$M" &&
		ddrescuelog -t "$M" >/dev/null 2>&1; then
		ok "image stopped in the end search: OUT and a map whose search is pending"
	else
		not_ok "image stopped in the end search: OUT and a map whose search is pending" \
			"$(grep '^# cdtail identity:' "$M" 2>&1)"
	fi
	run image --json --map "$M" "sim:$A,hide=2000,cost=0/0" "$O"
	expect_rc "image stopped in the end search: the resume -> 0" 0
	expect_json "image stopped in the end search: resumed" .resumed true
	same_as "image stopped in the end search: the resume's OUT is the disc" "$O" "$A"
	expect_grep "image stopped in the end search: the resumed map is settled" "$M" \
		'^# cdtail identity: block_size=2048 extent=3000 true_blocks=3000$'
done

# --- the --max-extra window: never silent, status 5 ---------------------------------
head -c $((1000 * 2048)) "$A" >"$T/short.iso"
for cmd in "image --json sim:$A,cost=0/0,hide=2000 $T/w.iso" \
	"tail --json sim:$A,cost=0/0,hide=2000 $T/short.iso" \
	"verify --json sim:$A,cost=0/0,hide=2000 --image $A"; do
	rm -f "$T/w.iso"
	run $cmd --max-extra 100
	name=${cmd%% *}
	expect_rc "$name: a hidden tail past --max-extra -> 5" 5
	expect_json "$name: window_limit in JSON" .window_limit true
	expect_grep "$name: a note on stderr" "$T/err" 'max-extra window'
done
run image --json "sim:$A,cost=0/0,hide=2000" "$T/w2.iso"
expect_rc "image within the default window -> 0" 0
expect_json "image within the window: window_limit false" .window_limit false

# --- issue 28 B: a window-limited image resumed: its map records the window -------
# 1000 blocks, READ CAPACITY 900: --max-extra 8 stops at 908.  The map's
# identity keeps "max_extra=8 search=window"; the same command again stays
# exit 5 (never 0, never "complete"), a larger window searches on from 908
# and grows OUT, to the true end once the window reaches it.
W="$T/wb.img"
WO="$T/wb.out"
WM="$T/wb.map"
mkimage "$W" 1000
head -c $((908 * 2048)) "$W" >"$T/wb.908"
head -c $((950 * 2048)) "$W" >"$T/wb.950"
WDEV="sim:$W,hide=100,cost=0/0"
rm -f "$WO" "$WM"
run image -q --max-extra 8 --map "$WM" "$WDEV" "$WO"
expect_rc "window: the first run stops at the window -> 5" 5
expect_grep "window: its verdict is window-limited, not complete" "$T/out" '^verdict: +window-limited$'
expect_grep "window: the map records the window" "$WM" \
	'^# cdtail identity: block_size=2048 extent=908 true_blocks=908 max_extra=8 search=window$'
same_as "window: OUT is the window's blocks" "$WO" "$T/wb.908"
expect_grep "window: the acquisition log says window-limited" "$WO.log" '^verdict: window-limited$'
for again in 8 4; do
	run image --json --max-extra $again --map "$WM" "$WDEV" "$WO"
	expect_rc "window: again with --max-extra $again -> 5, not 0" 5
	expect_json "window: again with $again: window_limit" .window_limit true
	expect_json "window: again with $again: verdict" .verdict window-limited
	expect_json "window: again with $again: the extent stays" .extent_blocks 908
	expect_json "window: again with $again: nothing read" .blocks_read 0
	expect_grep "window: again with $again: the note names the window it stopped at" "$T/err" \
		'max-extra window \(8 blocks past'
	expect_grep "window: again with $again: the record keeps --max-extra 8" "$WM" \
		'^# cdtail identity: .* extent=908 .* max_extra=8 search=window$'
done
run image --json --max-extra 50 --map "$WM" "$WDEV,trace=$T/wb.tr" "$WO"
expect_rc "window: --max-extra 50 grows to the new window, still 5" 5
expect_json "window: --max-extra 50: extent 950" .extent_blocks 950
expect_json "window: --max-extra 50: the 42 blocks past the old extent read" .blocks_read 42
same_as "window: --max-extra 50: OUT grew by the disc's blocks" "$WO" "$T/wb.950"
expect_grep "window: --max-extra 50: the record says so" "$WM" \
	'^# cdtail identity: .* extent=950 true_blocks=950 max_extra=50 search=window$'
# the search went on from the old window: past the probe's head read
# (LBAs below 260) only the identity's single blocks lie below 907
got=$(reads_in "$T/wb.tr" 260 907 | awk '$3 != "blocks=1" { print; exit }')
if [ -z "$got" ] && [ "$(reads_in "$T/wb.tr" 260 907 | wc -l)" -le 16 ]; then
	ok "window: --max-extra 50 searched on from 908, nothing below read again"
else not_ok "window: --max-extra 50 searched on from 908, nothing below read again" "$got"; fi
run image --json --max-extra 200 --map "$WM" "$WDEV" "$WO"
expect_rc "window: --max-extra 200 reaches the true end -> 0" 0
expect_json "window: --max-extra 200: extent 1000" .extent_blocks 1000
expect_json "window: --max-extra 200: window_limit false" .window_limit false
expect_json "window: --max-extra 200: verdict complete" .verdict complete
same_as "window: --max-extra 200: OUT is the whole disc" "$WO" "$W"
expect_grep "window: --max-extra 200: the record has no window any more" "$WM" \
	'^# cdtail identity: block_size=2048 extent=1000 true_blocks=1000$'
run image --json --max-extra 8 --map "$WM" "$WDEV" "$WO"
expect_rc "window: the found end stands, even with --max-extra 8 -> 0" 0

# an older cdtail's map (no window words) and GNU ddrescue's (no record)
for kind in older ddrescue; do
	rm -f "$WO" "$WM"
	run image -q --max-extra 8 --map "$WM" "$WDEV" "$WO"
	case $kind in
	older) sed -i 's/ max_extra=8 search=window$//' "$WM" ;;
	ddrescue) sed -i '/^# cdtail /d' "$WM" ;;
	esac
	run image --json --max-extra 8 --map "$WM" "$WDEV" "$WO"
	if [ $kind = older ]; then
		expect_rc "window: an older cdtail's map resumes (no window recorded) -> 0" 0
		expect_json "window: an older cdtail's map keeps its extent" .extent_blocks 908
	else
		expect_rc "window: a ddrescue map of the window resumes, searched again -> 5" 5
		expect_json "window: a ddrescue map: window_limit" .window_limit true
	fi
	run image --json --max-extra 200 --map "$WM" "$WDEV" "$WO"
	if [ $kind = ddrescue ]; then
		expect_rc "window: a ddrescue map grows to the true end -> 0" 0
		same_as "window: a ddrescue map: OUT is the whole disc" "$WO" "$W"
	else
		expect_rc "window: an older cdtail's map still resumes -> 0" 0
	fi
done
# a damaged window: words a cdtail never writes
rm -f "$WO" "$WM"
run image -q --max-extra 8 --map "$WM" "$WDEV" "$WO"
sed -i 's/ max_extra=8 search=window$/ search=window/' "$WM"
O=$WO M=$WM keep
run image --max-extra 8 --map "$WM" "$WDEV" "$WO"
expect_rc "window: search=window without its --max-extra is a damaged record -> 2" 2
expect_err_line "window: damaged: one line" 'damaged cdtail identity record'
O=$WO M=$WM unchanged "window: damaged"

# a drive answering MEDIUM ERROR from its last 5 reported blocks to past
# the window: the resumed growth gives what a fresh run with that window does
mkimage "$T/wm.img" 300
rm -f "$WO" "$WM" "$T/wm2.out"
run image --json --max-extra 20 --map "$WM" "sim:$T/wm.img,extra=5,past=medium,cost=0/0" "$WO"
expect_rc "window, medium errors to it: -> 5" 5
expect_json "window, medium errors to it: extent 325" .extent_blocks 325
run image --json --max-extra 60 --map "$WM" "sim:$T/wm.img,extra=5,past=medium,cost=0/0" "$WO"
expect_rc "window, medium errors to it: --max-extra 60 -> 5" 5
run image --json --max-extra 60 "sim:$T/wm.img,extra=5,past=medium,cost=0/0" "$T/wm2.out"
got=$(jq -c '[.extent_blocks, .bad_count, .true_blocks]' "$T/out")
run image --json --max-extra 60 --map "$WM" "sim:$T/wm.img,extra=5,past=medium,cost=0/0" "$WO"
expect_json "window, medium errors to it: the grown map is a fresh run's" \
	'[.extent_blocks, .bad_count, .true_blocks] | tostring' "$got"
same_as "window, medium errors to it: the grown OUT is a fresh run's" "$WO" "$T/wm2.out"

# kill -9 during a window-limited run (200 blocks, READ CAPACITY 180,
# --max-extra 8: window 188), at trace lines through its copy (14-19), its
# search (20-28) and after it settled (29, 30); then the same command (5,
# the window's blocks) and a larger window (0, the whole disc)
mkimage "$T/wk.img" 200
head -c $((188 * 2048)) "$T/wk.img" >"$T/wk.188"
for k in 14 16 19 21 24 27 29 30; do
	rm -f "$WO" "$WM" "$T/wk.tr"
	"$CDTAIL" image -q --max-extra 8 --map "$WM" --map-interval 1 \
		"sim:$T/wk.img,hide=20,cost=5000/300,sleep=1,trace=$T/wk.tr" "$WO" >/dev/null 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 2000 ] && kill -0 $pid 2>/dev/null &&
		[ "$(cat "$T/wk.tr" 2>/dev/null | wc -l)" -lt $k ]; do
		sleep 0.005; i=$((i + 1)); done
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	run image -q --max-extra 8 --map "$WM" "sim:$T/wk.img,hide=20,cost=0/0" "$WO"
	expect_rc "window: killed at trace line $k, resumed with the same window -> 5" 5
	same_as "window: killed at $k: OUT is the window's blocks" "$WO" "$T/wk.188"
	expect_grep "window: killed at $k: the map records the window" "$WM" \
		'^# cdtail identity: .* extent=188 true_blocks=188 max_extra=8 search=window$'
	run image -q --max-extra 200 --map "$WM" "sim:$T/wk.img,hide=20,cost=0/0" "$WO"
	expect_rc "window: killed at $k, then --max-extra 200 -> 0" 0
	same_as "window: killed at $k: OUT is the whole disc" "$WO" "$T/wk.img"
done
finish
