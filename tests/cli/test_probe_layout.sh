#!/bin/sh
# probe on discs of several tracks and on formatted media, what the
# contract and cdtail(1) promise:
# - the head read for the filesystem (LBA 0 up) stays inside track 1 and
#   inside its data: never into audio after a short data track, never into
#   a short first session's gap (gap=hang would hang the probe), never into
#   a TAO run-out; and it is not sent at all when the last data session's
#   volume descriptor gave the size;
# - the "formatted" note never changes the verdict (exit 11 for a DVD-RAM
#   that over-reports a block, 10 for a BD-RE that hides blocks);
# - a drive that refuses READ TOC (toc=none) gives the same sessions,
#   tracks and gaps, from disc and track information (two data sessions,
#   a CD-Extra).
. "$(dirname "$0")/lib.sh"

ISO="$FIX/iso9660.iso"
ISO_BLOCKS=$(($(stat -c %s "$ISO") / 2048))

# reads LO HI TRACE: the READ(10)/(12) lines touching any LBA in [LO, HI)
reads() {
	awk -v lo="$1" -v hi="$2" '$1 == "28" || $1 == "a8" {
		split($2, a, "="); split($3, b, "=")
		if (a[2] + 0 < hi + 0 && a[2] + b[2] > lo + 0) print }' "$3" | head -3
}

# no_reads NAME LO HI: the last run's trace has no read in [LO, HI)
no_reads() {
	got=$(reads "$2" "$3" "$T/trace")
	if [ -z "$got" ]; then ok "$1"; else not_ok "$1" "$got"; fi
}

# only_runout_test NAME LO HI: [LO, HI) is a track's 2-block end, read only
# once, one block at LO, by layout.c's run-out test (a TAO run-out fails
# there), never by the head read
only_runout_test() {
	got=$(reads "$2" "$3" "$T/trace")
	if [ -z "$got" ] || { [ "$(printf '%s\n' "$got" | wc -l)" -eq 1 ] &&
		printf '%s\n' "$got" | grep -q "^28 lba=$2 blocks=1 "; }; then ok "$1"
	else not_ok "$1" "$got"; fi
}

# --- mixed mode with a short data track: the ISO, then 2000 audio blocks ----------
MIXED="$T/mixed.img"
cp "$ISO" "$MIXED"
truncate -s $(((ISO_BLOCKS + 2000) * 2048)) "$MIXED"
rm -f "$T/trace"
run probe --json "sim:$MIXED,layout=data:$ISO_BLOCKS+audio:2000,trace=$T/trace"
expect_rc "mixed, short data track: ok" 0
expect_json "mixed: filesystem from the head of track 1" .sources.filesystem "$ISO_BLOCKS"
expect_json "mixed: no failing read" .failed_reads 0
no_reads "mixed: the head read stays inside the data track" "$ISO_BLOCKS" $((ISO_BLOCKS + 2000))
if grep -q 'sense=05/64/00' "$T/trace"; then
	not_ok "mixed: no read answered 05/64/00" "$(grep -m3 'sense=05/64/00' "$T/trace")"
else ok "mixed: no read answered 05/64/00"; fi

# --- a short first session (100 blocks), gap=hang ------------------------------
SHORT="$T/short.img"
mkimage "$SHORT" $((100 + 11400 + 500))
rm -f "$T/trace"
run probe --json "sim:$SHORT,layout=data:100/data:500,gap=hang,trace=$T/trace"
expect_rc "short first session, gap=hang: probe ends, ok" 0
expect_json "short first session: true_blocks" .true_blocks 12000
no_reads "short first session: nothing read in the gap" 100 11500
# the head read came, inside session 1 (nothing else gave a filesystem)
got=$(reads 0 100 "$T/trace")
if [ -n "$got" ]; then ok "short first session: the head of track 1 was read"
else not_ok "short first session: the head of track 1 was read" "no read below 100"; fi

# --- two sessions, the last one's PVD gives the size: no head read at all ------
TWO="$T/two.img"
mkimage "$TWO" $((1000 + 11400 + 3000))
pvd "$TWO" $((12400 + 16)) 15400
cp "$TWO" "$T/two-iso1.img"
rm -f "$T/trace"
run probe --json "sim:$TWO,layout=data:1000/data:3000,trace=$T/trace"
expect_rc "two sessions, PVD in session 2: ok" 0
expect_json "two sessions: filesystem from session 2's PVD" .sources.filesystem 15400
# below the last session only layout's one-block run-out test of track 1
no_reads "two sessions: no head read below the last session" 0 998
only_runout_test "two sessions: session 1 read only at its run-out" 998 1000
# session 1 holds an ISO too: its size is not the disc's, and is not read
pvd "$T/two-iso1.img" 16 1000
rm -f "$T/trace"
run probe --json "sim:$T/two-iso1.img,layout=data:1000/data:3000,hide=7,trace=$T/trace"
expect_rc "two sessions, ISOs in both, hide=7: hidden tail" 10
expect_json "two sessions, ISOs in both: session 2's size" .sources.filesystem 15400
no_reads "two sessions, ISOs in both: no head read of session 1" 0 998
only_runout_test "two sessions, ISOs in both: one read of session 1's run-out" 998 1000
# no PVD in session 2: session 1's volume is not the disc's size (issue 28,
# E: never another session's descriptor), and nothing is read in the gap
pvd "$SHORT" 16 100
rm -f "$T/trace"
run probe --json "sim:$SHORT,layout=data:100/data:500,gap=hang,trace=$T/trace"
expect_rc "session 1's ISO, gap=hang: ok" 0
expect_json "session 1's ISO only: no filesystem source" .sources.filesystem null
no_reads "session 1's ISO: nothing read in the gap" 100 11500

# --- block=512 (issue 32): the volume's 2048-byte sectors count 4 blocks each --
# session 2 at 4000 + 11400 = 15400 blocks of 512 (byte 3850 * 2048); its PVD
# 16 sectors in (64 blocks) declares 6850 sectors = 27400 blocks, absolute;
# a session-relative size (3000 sectors = 12000 blocks) counts from 15400
TWO512="$T/two512.img"
mkimage "$TWO512" $((4000 + 11400 + 12000)) 512
pvd "$TWO512" $((3850 + 16)) 6850
run probe --json "sim:$TWO512,block=512,layout=data:4000/data:12000,hide=7"
expect_rc "block=512, two sessions, PVD in session 2, hide=7: hidden tail" 10
expect_json "block=512, two sessions: the filesystem in 512-byte blocks" \
	'[.sources.filesystem, .filesystem.type, .true_blocks] | map(tostring) | join(" ")' "27400 iso9660 27400"
pvd "$TWO512" $((3850 + 16)) 3000
run probe --json "sim:$TWO512,block=512,layout=data:4000/data:12000"
expect_json "block=512, two sessions, a size from the session start" .sources.filesystem 27400

# --- TAO: track 1's run-out is not read by the head read --------------------------
TAO="$T/tao.img"
mkimage "$TAO" $((200 + 300))
pvd "$TAO" 16 198
rm -f "$T/trace"
run probe --json "sim:$TAO,layout=data:200+data:300,tao=1,trace=$T/trace"
case "$RC" in 0|11) ok "tao, two tracks: a verdict (exit $RC)" ;;
*) not_ok "tao, two tracks: a verdict" "exit $RC" ;; esac
expect_json "tao: track 1's ISO read" .sources.filesystem 198
only_runout_test "tao: the head read stops before track 1's run-out" 198 200

# three TAO data tracks: nothing in the track information tells TAO from
# SAO (it counts the run-out in the track either way), so probe tests each
# inner data track's end with one read of one block, its first run-out
# block, which fails 05/64/00 there: exactly one failing read per inner
# track (cdtail-probe(1), Track-at-once); the last track's run-out is the
# end search's
TAO3="$T/tao3.img"
mkimage "$TAO3" $((3 * 400))
pvd "$TAO3" 16 398
rm -f "$T/trace"
run probe --json "sim:$TAO3,layout=data:400+data:400+data:400,tao=1,trace=$T/trace"
expect_rc "tao, three tracks: the last run-out is ok (issue 24)" 0
expect_json "tao, three tracks: noted tao-runout" '.notes | index("tao-runout") != null' true
only_runout_test "tao, three tracks: track 1's run-out, one read" 398 400
only_runout_test "tao, three tracks: track 2's run-out, one read" 798 800
got=$(awk '($1 == "28" || $1 == "a8") && $4 != "sense=00/00/00" {
	split($2, a, "="); if (a[2] + 0 < 800) print }' "$T/trace")
if [ "$(printf '%s\n' "$got" | grep -c .)" -eq 2 ] &&
	[ "$(printf '%s\n' "$got" | grep -c 'blocks=1 sense=05/64/00')" -eq 2 ]; then
	ok "tao, three tracks: 2 failing reads before track 3, one per inner track"
else not_ok "tao, three tracks: 2 failing reads before track 3, one per inner track" "$got"; fi
# in all: those 2 and the end search's 2 on track 3's run-out
expect_json "tao, three tracks: 4 failing reads in all" .total.failed_reads 4

# the same where the last session's first track is shorter than the
# 32-block read of its volume descriptors: that read stops before the
# run-out too, so still one failing read for the track
TAO2S="$T/tao2s.img"
truncate -s $(((100 + 11400 + 33 + 100) * 2048)) "$TAO2S"
rm -f "$T/trace"
run probe --json "sim:$TAO2S,layout=data:100/data:33+data:100,tao=1,trace=$T/trace"
expect_rc "tao, a 33-block track opening session 2: its last run-out is ok (issue 24)" 0
only_runout_test "tao, a 33-block track opening session 2: its run-out, one read" 11531 11533

# a one-track TAO disc shorter than the head read: its run-out (the last 2
# blocks) is left to the end search, the descriptors before it are read
SMALL="$T/small.img"
truncate -s $((57 * 2048)) "$SMALL"
pvd "$SMALL" 16 55
run probe --json "sim:$SMALL,tao=1"
expect_rc "one TAO track of 57 blocks: its run-out is ok (issue 24)" 0
expect_json "one TAO track of 57 blocks: filesystem" .sources.filesystem 55
expect_json "one TAO track of 57 blocks: true_blocks" .true_blocks 55
# a drive that over-reports such a disc: the head read's first part, with
# the descriptors, is read on its own, so the failure past it keeps them
run probe --json "sim:$SMALL,tao=1,extra=6"
expect_rc "one TAO track of 57 blocks, extra=6: short" 11
expect_json "one TAO track of 57 blocks, extra=6: filesystem" .sources.filesystem 55

# --- the end search of an over-reported last track (commit d25a7d6) --------------
# searched downwards from the reported end, as a one-track disc is: no
# dearer than that, and never a read below the last track
MULTI="$T/multi.img"
truncate -s $((4000 * 2048)) "$MULTI"
run probe --json "sim:$MULTI,extra=5"
one=$(jq .reads "$T/out")
rm -f "$T/trace"
run probe --json "sim:$MULTI,layout=data:1000+data:3000,extra=5,trace=$T/trace"
expect_rc "data:1000+data:3000 extra=5: short" 11
expect_json "data:1000+data:3000 extra=5: true_blocks" .true_blocks 4000
got=$(jq .reads "$T/out")
if [ "$got" -le "$one" ]; then ok "extra=5 on two tracks: $got reads, one track $one"
else not_ok "extra=5 on two tracks no dearer than one" "$got reads, one track $one"; fi
# (the head read of track 1 below 260 is the filesystem probe)
no_reads "extra=5 on two tracks: the search stays on the last track" 260 998

# a drive whose INFORMATION names a block past the end (info=fixed:): once
# the search finds it wrong it starts again from the last track, never from
# LBA 0 below the gap (gap=hang: it hung there)
MS="$T/ms.img"
# data in the last session: zeros past ends that READ CAPACITY and the TOC
# agree on (hide= moves both) are filler, not a hidden tail (issue 23)
mkimage "$MS" $((100 + 11400 + 3000))
rm -f "$T/trace"
run probe --json "sim:$MS,layout=data:100/data:3000,gap=hang,info=fixed:14510,hide=1200,trace=$T/trace"
expect_rc "two sessions, a lying INFORMATION field, gap=hang: hidden tail" 10
expect_json "two sessions, a lying INFORMATION field: true_blocks" .true_blocks 14500
no_reads "two sessions, a lying INFORMATION field: nothing read in the gap" 100 11500

# --- a drive that refuses READ TOC (toc=none): the layout from disc and track
# information, the same sessions, tracks and gaps as with the TOC -----------------
# layout_json: what probe --json says of the disc's structure, on one line
layout_json() { jq -c '{sessions, tracks, gaps}' <"$T/out" 2>&1; }
# no_toc NAME DISC LAYOUT RC SESSIONS TRACKS GAPS: exit RC and the structure
# with toc=none as wanted, and as with the TOC
no_toc() {
	run probe --json "sim:$2,$3"
	with=$(layout_json)
	rm -f "$T/trace"
	run probe --json "sim:$2,$3,toc=none,trace=$T/trace"
	expect_rc "$1, toc=none: exit $4" "$4"
	expect_json "$1, toc=none: no TOC lead-out" .sources.toc_leadout null
	want="{\"sessions\":$5,\"tracks\":$6,\"gaps\":$7}"
	got=$(layout_json)
	if [ "$got" = "$want" ] && [ "$got" = "$with" ]; then ok "$1, toc=none: sessions, tracks, gaps as with the TOC"
	else not_ok "$1, toc=none: sessions, tracks, gaps as with the TOC" "got  $got" "want $want" "TOC  $with"; fi
}
NT="$T/notoc2.img"
mkimage "$NT" $((300 + 11400 + 300))
no_toc "two data sessions" "$NT" "layout=data:300/data:300" 0 2 \
	'[{"number":1,"session":1,"mode":"data","start":0,"blocks":300,"pregap":0},{"number":2,"session":2,"mode":"data","start":11700,"blocks":300,"pregap":0}]' \
	'[{"start":300,"blocks":11400}]'
expect_json "two data sessions, toc=none: true_blocks" .true_blocks 12000
no_reads "two data sessions, toc=none: nothing read in the gap" 300 11700
no_toc "two data sessions, gap=hang, hide=20" "$NT" "layout=data:300/data:300,gap=hang,hide=20" 10 2 \
	'[{"number":1,"session":1,"mode":"data","start":0,"blocks":300,"pregap":0},{"number":2,"session":2,"mode":"data","start":11700,"blocks":300,"pregap":0}]' \
	'[{"start":300,"blocks":11400}]'
expect_json "two data sessions, gap=hang, hide=20, toc=none: hidden tail" .verdict hidden-tail
no_reads "two data sessions, gap=hang, toc=none: nothing read in the gap" 300 11700
# a CD-Extra whose data session holds the ISO: its size from the PVD
NX="$T/notocx.img"
mkimage "$NX" $((3000 + 2000 + 11400 + 600))
pvd "$NX" $((16400 + 16)) 17000
no_toc "CD-Extra" "$NX" "layout=audio:3000+audio:2000/data:600" 0 2 \
	'[{"number":1,"session":1,"mode":"audio","start":0,"blocks":3000,"pregap":0},{"number":2,"session":1,"mode":"audio","start":3000,"blocks":2000,"pregap":0},{"number":3,"session":2,"mode":"data","start":16400,"blocks":600,"pregap":0}]' \
	'[{"start":5000,"blocks":11400}]'
expect_json "CD-Extra, toc=none: true_blocks" .true_blocks 17000
expect_json "CD-Extra, toc=none: filesystem from the data session's PVD" .sources.filesystem 17000
no_reads "CD-Extra, toc=none: nothing read in audio or the gap" 0 16400

# --- UDF on a formatted medium: the anchor at 256 is in reach ----------------------
run probe --json "sim:$FIX/udf.img,profile=dvd+rw,formatted=4000"
expect_rc "udf on a formatted dvd+rw: ok" 0
expect_json "udf on a formatted dvd+rw: type" .filesystem.type udf
expect_json "udf on a formatted dvd+rw: its size" .sources.filesystem 1024
expect_json "udf on a formatted dvd+rw: noted formatted" '.notes | index("formatted") != null' true

# a bad block in the head read's range, not on a descriptor: its piece is
# read again block by block, so the anchor at 256 and the descriptors stay
# (before, one failing piece ended the head read: "not recognised")
for b in 5-5 40-40 200-200 2-2:300-300; do
	run probe --json "sim:$FIX/udf.img,profile=dvd+rw,formatted=4000,bad=$b"
	expect_json "udf on a formatted dvd+rw, bad=$b: udf and its size" \
		'"\(.filesystem.type) \(.sources.filesystem)"' "udf 1024"
	expect_json "udf on a formatted dvd+rw, bad=$b: noted formatted" '.notes | index("formatted") != null' true
done
run probe --json "sim:$ISO,bad=20-20"
expect_json "iso, a bad block beside the PVD: iso9660 and its size" \
	'"\(.filesystem.type) \(.sources.filesystem)"' "iso9660 $ISO_BLOCKS"

# --- the formatted note never changes the verdict -------------------------------
PAD="$T/pad.iso"
cp "$ISO" "$PAD"
truncate -s $((3000 * 2048)) "$PAD"
run probe --json "sim:$PAD,profile=dvd-ram,extra=1"
expect_rc "dvd-ram over-reporting one block: short, exit 11" 11
expect_json "dvd-ram extra=1: verdict" .verdict short
expect_json "dvd-ram extra=1: hidden_blocks" .hidden_blocks -1
expect_json "dvd-ram extra=1: still noted formatted" '.notes | index("formatted") != null' true
run probe --json "sim:$PAD,profile=bd-re,hide=124"
expect_rc "bd-re hide=124: hidden tail, exit 10" 10
expect_json "bd-re hide=124: verdict" .verdict hidden-tail
expect_json "bd-re hide=124: hidden_blocks" .hidden_blocks 124
expect_json "bd-re hide=124: still noted formatted" '.notes | index("formatted") != null' true
run probe --json "sim:$PAD,profile=dvd+rw,formatted=5000"
expect_rc "dvd+rw formatted=5000: ok" 0
expect_json "dvd+rw formatted=5000: true is the formatted size" \
	'[.verdict, .true_blocks, .hidden_blocks] | map(tostring) | join(" ")' "ok 5000 0"
expect_json "dvd+rw formatted=5000: noted formatted" '.notes | index("formatted") != null' true
# the text output says the same as the JSON
run probe "sim:$PAD,profile=bd-re,hide=124"
expect_rc "bd-re hide=124, text: exit 10" 10
expect_grep "bd-re hide=124, text: the verdict" "$T/out" 'hidden-tail'


# --- issue 28 E: a bad block around the last session's descriptors ------------
# data:100/data:200: session 2 from LBA 11500, its PVD at 11516 (11700
# blocks); session 1's at 16 says 90.  The head of session 2 is read block
# by block past a bad block; its own descriptor unreadable gives no size,
# never session 1's.
E="$T/e.img"
mkimage "$E" 11700
pvd "$E" 16 90
pvd "$E" 11516 11700
for b in 11500 11510 11531; do
	run probe --json "sim:$E,layout=data:100/data:200,bad=$b-$b"
	expect_json "bad $b in session 2's head: its filesystem" .sources.filesystem 11700
done
run probe --json "sim:$E,layout=data:100/data:200,bad=11516-11516"
expect_json "session 2's PVD unreadable: no filesystem, never session 1's" .sources.filesystem null
dd if=/dev/zero of="$E" bs=2048 seek=16 count=2 conv=notrunc 2>/dev/null
run probe --json "sim:$E,layout=data:100/data:200,bad=11531-11531"
expect_json "no session-1 volume, bad 11531: session 2's filesystem" .sources.filesystem 11700

finish
