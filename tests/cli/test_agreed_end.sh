#!/bin/sh
# The end the size sources agree on (issue 23 items 4 and 5): MEDIUM ERROR
# blocks up to it are damage (damaged-tail), and zeros or repeated blocks
# read past it on a CD are no hidden tail without a sector header to
# confirm them (unconfirmed-tail).  Each case against what the sim's keys
# make of the disc; the old answer where the sources do not agree.
. "$(dirname "$0")/lib.sh"

ISO="$FIX/iso9660.iso"
N=$(($(stat -c %s "$ISO") / 2048))	# 112: READ CAPACITY, TOC, track info, ISO 9660
RND="$T/rnd.img"
mkimage "$RND" 3000

# --- item 5: a damaged end -----------------------------------------------------
run probe --json "sim:$ISO,bad=105-$((N - 1))"
expect_rc "damaged end of an agreeing ISO -> 0" 0
expect_json "damaged: verdict ok" .verdict ok
expect_json "damaged: true_blocks is the agreed end" .true_blocks "$N"
expect_json "damaged: the extent too" .extent_blocks "$N"
expect_json "damaged: hidden 0" .hidden_blocks 0
expect_json "damaged: 7 blocks failed" .damaged_tail_blocks 7
expect_json "damaged: note" '.notes | index("damaged-tail") != null' true
expect_json "damaged: no trailing-medium-error" '.notes | index("trailing-medium-error")' null
expect_json "damaged: the filesystem fits, no filesystem-past-end" \
	'.notes | index("filesystem-past-end")' null
expect_json "damaged: no unconfirmed count" .unconfirmed_blocks 0
run probe "sim:$ISO,bad=105-$((N - 1))"
expect_grep "damaged text: the last readable LBA" "$T/out" "^true end:  $N blocks \\(last readable LBA 104\\)$"
expect_grep "damaged text: the note and its count" "$T/out" "^note:      damaged-tail: the last 7 blocks"
expect_grep "damaged text: image with a map" "$T/out" "^next: .*MEDIUM ERROR"
expect_grep "damaged text: verdict ok" "$T/out" "^verdict:   ok$"

# image takes the extent from probe: all of it, the damage bad, exit 4
run image --json --map "$T/d.map" "sim:$ISO,bad=105-$((N - 1))" "$T/d.iso"
expect_rc "damaged: image -> 4" 4
expect_json "damaged: image's true_blocks" .true_blocks "$N"
expect_json "damaged: image marks 105..111 bad" '.bad_blocks | tostring' "[[105,$((N - 1))]]"
expect_json "damaged: image's notes say so" '.notes | index("damaged-tail") != null' true
expect_json "damaged: image's count" .damaged_tail_blocks 7
if [ "$(stat -c %s "$T/d.iso")" -eq $((N * 2048)) ] &&
   cmp -s -n $((105 * 2048)) "$T/d.iso" "$ISO"; then
	ok "damaged: OUT holds the agreed length, the readable blocks as on the disc"
else not_ok "damaged: OUT" "$(stat -c %s "$T/d.iso")"; fi
run verify --json "sim:$ISO,bad=105-$((N - 1))" --image "$ISO"
expect_rc "damaged: verify -> 4 (unreadable)" 4
expect_json "damaged: verify reads to the agreed end" .true_blocks "$N"

# the same with no filesystem: the structure alone agrees
run probe --json "sim:$RND,bad=2992-2999"
expect_rc "rnd, damaged end -> 0" 0
expect_json "rnd, damaged: true_blocks" .true_blocks 3000
expect_json "rnd, damaged: 8 blocks" .damaged_tail_blocks 8

# without agreement, the old answer: the filesystem says 112, READ CAPACITY and the TOC 115
run probe --json "sim:$ISO,extra=3,bad=105-$((N - 1))"
expect_rc "filesystem disagrees -> 11" 11
expect_json "filesystem disagrees: true_blocks" .true_blocks 105
expect_json "filesystem disagrees: trailing-medium-error" \
	'.notes | index("trailing-medium-error") != null' true
expect_json "filesystem disagrees: no damaged-tail" .damaged_tail_blocks 0
# out of range (05/21/00) below the end READ CAPACITY and track information agree on
run probe --json "sim:$RND,extra=3,toc=true,bad=2992-2999"
expect_rc "05/21/00 below the agreed end -> 11" 11
expect_json "05/21/00 below the agreed end: true_blocks" .true_blocks 2992
# MEDIUM ERROR on past the agreed end (hidden blocks, bad): never silenced
run probe --json --max-extra 100 "sim:$RND,hide=1000,bad=1900-2999"
expect_json "medium on past the end: no damaged-tail" '.notes | index("damaged-tail")' null
expect_json "medium on past the end: window-limit" '.notes | index("window-limit") != null' true
# a TAO run-out stays one
run probe --json "sim:$ISO,runout=2"
expect_json "runout=2: tao-runout" '.notes | index("tao-runout") != null' true
expect_json "runout=2: no damaged-tail" .damaged_tail_blocks 0

# --- item 4: reads past the agreed end that succeed ---------------------------------
for p in zero repeat; do
	run probe --json "sim:$ISO,past=$p"
	expect_rc "past=$p -> 0" 0
	expect_json "past=$p: verdict ok" .verdict ok
	expect_json "past=$p: true_blocks stays" .true_blocks "$N"
	expect_json "past=$p: extent stays" .extent_blocks "$N"
	expect_json "past=$p: unconfirmed-tail" '.notes | index("unconfirmed-tail") != null' true
	expect_json "past=$p: no window-limit" '.notes | index("window-limit")' null
	expect_json "past=$p: the window's blocks read as filler" .unconfirmed_blocks 16384
	run probe --max-extra 40 "sim:$ISO,past=$p"
	expect_grep "past=$p text: the note and its count" "$T/out" "^note:      unconfirmed-tail: 40 blocks past"
	run image --json --map "$T/p$p.map" "sim:$ISO,past=$p" "$T/p$p.iso"
	expect_rc "past=$p: image -> 0" 0
	expect_json "past=$p: image's notes say so" '.notes | index("unconfirmed-tail") != null' true
	if cmp -s "$T/p$p.iso" "$ISO"; then
		ok "past=$p: OUT is the agreed $N blocks, as on the disc"
	else not_ok "past=$p: OUT" "$(stat -c %s "$T/p$p.iso") bytes"; fi
	run verify "sim:$ISO,past=$p" --image "$ISO"
	expect_rc "past=$p: verify -> 0" 0
	# made-up raw sectors (QEMU's ide-cd) witness nothing: the same answer
	run probe --json "sim:$ISO,readcd=ide,past=$p"
	expect_json "past=$p, readcd=ide: unconfirmed-tail" '.notes | index("unconfirmed-tail") != null' true
	expect_json "past=$p, readcd=ide: true_blocks" .true_blocks "$N"
	# sources that disagree (hide=: the ISO says 112, READ CAPACITY 102):
	# the blocks up to the filesystem's size are the hidden tail, the
	# filler past them unconfirmed (issue 32: filler is never hidden data)
	run probe --json "sim:$ISO,hide=10,past=$p"
	expect_rc "past=$p, hide=10 -> 10" 10
	expect_json "past=$p, hide=10: the filesystem's size" .true_blocks "$N"
	expect_json "past=$p, hide=10: the filler past it unconfirmed" .unconfirmed_blocks \
		$((N - 10 + 16384 - N))
	# data past the agreed end: a hidden tail
	run probe --json "sim:$RND,hide=20,past=$p"
	expect_rc "past=$p, data past the end -> 10" 10
	# not a CD: filler is no hidden data either (issue 32)
	run probe --json "sim:$RND,profile=dvd-rom,past=$p"
	expect_rc "past=$p on a DVD -> 0" 0
	expect_json "past=$p on a DVD: true_blocks" .true_blocks 3000
	expect_json "past=$p on a DVD: unconfirmed-tail" .unconfirmed_blocks 16384
done

# a CUE disc: READ CD's headers decide, no note is needed
python3 "$ROOT/tests/raw/model.py" disc iso "$T" || not_ok "model.py disc iso"
for p in zero repeat; do
	run probe --json "sim:$T/iso.cue,past=$p"
	expect_rc "CUE, past=$p -> 0" 0
	expect_json "CUE, past=$p: the header says lead-out or a cached block" .true_blocks 300
	expect_json "CUE, past=$p: no unconfirmed-tail" .unconfirmed_blocks 0
done

# --- issue 32 item 7: filler past a hidden tail -------------------------------------
# Filler (zeros, the last block again) is never hidden data: where reads past
# the reported end succeed up to the window's edge or past every size
# source, the true end is 1 + the last block that is not filler (or the
# filesystem's size where it covers the filler), the filler beyond is
# unconfirmed-tail with its count, the extent stops at the true end.
P="$T/p.img"
mkimage "$P" 5000
for p in zero repeat; do
	run probe --json "sim:$P,hide=5,past=$p"
	expect_rc "p.img, hide=5, past=$p -> 10" 10
	expect_json "p.img, past=$p: true end" .true_blocks 5000
	expect_json "p.img, past=$p: hidden 5" .hidden_blocks 5
	expect_json "p.img, past=$p: extent" .extent_blocks 5000
	expect_json "p.img, past=$p: the filler counted" .unconfirmed_blocks $((4995 + 16384 - 5000))
	expect_json "p.img, past=$p: unconfirmed-tail, no window-limit" '.notes | join(",")' unconfirmed-tail
	run probe "sim:$P,hide=5,past=$p"
	expect_no_grep "p.img, past=$p text: no window message" "$T/out" "edge of the search window"
	rm -f "$T/p.out" "$T/p.map"
	run image --json --map "$T/p.map" "sim:$P,hide=5,past=$p" "$T/p.out"
	expect_rc "p.img, past=$p: image -> 0" 0
	expect_json "p.img, past=$p: image's extent" .extent_blocks 5000
	expect_json "p.img, past=$p: complete" .verdict complete
	if cmp -s "$T/p.out" "$P"; then ok "p.img, past=$p: OUT is the disc, no filler"
	else not_ok "p.img, past=$p: OUT is the disc" "$(stat -c %s "$T/p.out") bytes"; fi
	# identity blocks are data blocks the run read, never filler
	if awk '/^# cdtail identity block/ { n++; if ($5 + 0 >= 5000) bad = 1 }
		END { exit !(n > 0 && !bad) }' "$T/p.map"; then
		ok "p.img, past=$p: identity blocks below the true end"
	else not_ok "p.img, past=$p: identity blocks" "$(grep identity "$T/p.map")"; fi
	# far past the reported end, where the search reads blocks 512 apart
	run probe --json --max-extra 20000 "sim:$P,hide=4000,past=$p"
	expect_json "p.img, hide=4000, past=$p: true end" .true_blocks 5000
	expect_json "p.img, hide=4000, past=$p: extent" .extent_blocks 5000
	# a last block that does not read: it is there, the filler is not
	run probe --json "sim:$P,hide=5,past=$p,bad=4999-4999"
	expect_json "p.img, bad last block, past=$p: true end" .true_blocks 4999
	expect_json "p.img, bad last block, past=$p: extent" .extent_blocks 5000
	expect_json "p.img, bad last block, past=$p: notes" '.notes | join(",")' \
		trailing-medium-error,unconfirmed-tail
	rm -f "$T/pb.out" "$T/s77.out"
	run image --json "sim:$P,hide=5,past=$p,bad=4999-4999" "$T/pb.out"
	expect_rc "p.img, bad last block, past=$p: image -> 4" 4
	expect_json "p.img, bad last block, past=$p: image marks it bad" '.bad_blocks | tojson' '[[4999,4999]]'
	expect_json "p.img, bad last block, past=$p: image's extent" .extent_blocks 5000
	# a filesystem that declares more: its size covers the filler
	head -c $((77 * 2048)) "$ISO" >"$T/s77.img"
	pvd "$T/s77.img" 16 132
	rm -f "$T/s77.map"
	run image --json --map "$T/s77.map" "sim:$T/s77.img,past=$p" "$T/s77.out"
	expect_rc "77 blocks, ISO says 132, past=$p: image -> 0, not window-limited" 0
	if awk '/^# cdtail identity block/ { n++; if ($5 + 0 >= 77) bad = 1 }
		END { exit !(n > 0 && !bad) }' "$T/s77.map"; then
		ok "77/132, past=$p: identity blocks are data, none of the filler up to 132"
	else not_ok "77/132, past=$p: identity blocks" "$(grep identity "$T/s77.map")"; fi
	expect_json "77/132, past=$p: extent is the filesystem's" .extent_blocks 132
	expect_json "77/132, past=$p: the filler past it counted" .unconfirmed_blocks $((77 + 16384 - 132))
	run probe --json "sim:$T/s77.img,past=$p"
	expect_rc "77/132, past=$p: probe -> 10" 10
	expect_json "77/132, past=$p: probe's true end" .true_blocks 132
	# a run-out followed by filler ends at the run-out
	run probe --json "sim:$P,runout=2,past=$p"
	expect_json "run-out then filler, past=$p: true end" .true_blocks 4998
	expect_json "run-out then filler, past=$p: notes" '.notes | join(",")' tao-runout
done

finish
