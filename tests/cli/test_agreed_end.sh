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
	# sources that disagree (hide=: the ISO says 112, READ CAPACITY 102): the old answer
	run probe --json "sim:$ISO,hide=10,past=$p"
	expect_rc "past=$p, hide=10 -> 10" 10
	expect_json "past=$p, hide=10: no unconfirmed-tail" .unconfirmed_blocks 0
	# data past the agreed end: a hidden tail
	run probe --json "sim:$RND,hide=20,past=$p"
	expect_rc "past=$p, data past the end -> 10" 10
	# not a CD: the old answer
	run probe --json "sim:$RND,profile=dvd-rom,past=$p"
	expect_json "past=$p on a DVD: no unconfirmed-tail" .unconfirmed_blocks 0
done

# a CUE disc: READ CD's headers decide, no note is needed
python3 "$ROOT/tests/raw/model.py" disc iso "$T" || not_ok "model.py disc iso"
for p in zero repeat; do
	run probe --json "sim:$T/iso.cue,past=$p"
	expect_rc "CUE, past=$p -> 0" 0
	expect_json "CUE, past=$p: the header says lead-out or a cached block" .true_blocks 300
	expect_json "CUE, past=$p: no unconfirmed-tail" .unconfirmed_blocks 0
done

finish
