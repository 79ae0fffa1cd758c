#!/bin/sh
# cdtail probe on emulated drives with the quirks measured on real targets
# (tgt, QEMU's IDE/AHCI CD-ROM): each must still get the right answer.
. "$(dirname "$0")/lib.sh"

RND="$T/rnd.img"
mkimage "$RND" 3000

# --- past=medium: tgt fails reads past the end with 03/11/00 ------------------
run probe --json "sim:$RND,past=medium,hide=3"
expect_rc "past=medium hide=3 -> 10" 10
expect_json "past=medium hide=3: hidden_blocks" .hidden_blocks 3
expect_json "past=medium hide=3: true_blocks" .true_blocks 3000
expect_json "past=medium hide=3: reported_blocks" .reported_blocks 2997
run probe --json "sim:$RND,past=medium"
expect_rc "past=medium -> 0" 0
expect_json "past=medium: verdict ok" .verdict ok
expect_json "past=medium: true_blocks" .true_blocks 3000
# -v words each command as sg3_utils does (issue 24): the LBA in decimal
run probe -v "sim:$RND,past=medium,hide=3"
expect_grep "past=medium -v: reads past the end are medium errors" "$T/err" \
	"Read\\(10\\) lba=300[0-9] len=[0-9]+: Check Condition, Medium Error"
expect_no_grep "past=medium -v: never LBA out of range" "$T/err" "out of range"

# --- reveal=1: READ CAPACITY grows after a read past the end (tgt) ------------
run probe --json "sim:$RND,reveal=1,hide=5"
expect_rc "reveal=1 hide=5 -> 10" 10
expect_json "reveal=1: reported_blocks is the answer before probing" .reported_blocks 2995
expect_json "reveal=1: read_capacity source before probing" .sources.read_capacity 2995
expect_json "reveal=1: true_blocks" .true_blocks 3000
expect_json "reveal=1: hidden_blocks" .hidden_blocks 5
expect_json "reveal=1: capacity_after grew" '.capacity_after > .reported_blocks' true
expect_json "reveal=1: capacity-changed noted" '.notes | index("capacity-changed") != null' true
run probe "sim:$RND,reveal=1,hide=5"
expect_grep "reveal=1: text names both answers" "$T/out" "after probing; 2995 before"
run probe --json "sim:$RND,hide=5"
expect_json "without reveal: no capacity-changed" '.notes | index("capacity-changed") != null' false
run probe --json "sim:$RND,reveal=1"
expect_rc "reveal=1 honest -> 0" 0
expect_json "reveal=1 honest: reported_blocks" .reported_blocks 3000

# --- toc=cut: the TOC lead-out entry arrives 2 bytes short (tgt) ---------------
run probe --json "sim:$RND,toc=cut"
expect_rc "toc=cut -> 0" 0
expect_json "toc=cut: lead-out null" .sources.toc_leadout null
expect_json "toc=cut: true_blocks" .true_blocks 3000
run probe --json "sim:$RND,toc=cut,hide=4"
expect_rc "toc=cut hide=4 -> 10" 10
expect_json "toc=cut hide=4: lead-out null" .sources.toc_leadout null
expect_json "toc=cut hide=4: hidden_blocks" .hidden_blocks 4

# --- getconf=full: GET CONFIGURATION padded to the allocation (tgt) -----------
run probe --json "sim:$RND,getconf=full"
expect_rc "getconf=full -> 0" 0
expect_json "getconf=full: profile from the header" .profile CD-ROM
expect_json "getconf=full: true_blocks" .true_blocks 3000
truncate -s 1000000000 "$T/dvd.img"
run probe --json "sim:$T/dvd.img,getconf=full,hide=2"
expect_rc "getconf=full dvd hide=2 -> 10" 10
expect_json "getconf=full dvd: profile" .profile DVD-ROM
expect_json "getconf=full dvd: hidden_blocks" .hidden_blocks 2

# --- stale=1: failing reads still move a buffer of old data (tgt) ------------
run probe --json "sim:$RND,stale=1,hide=7"
expect_rc "stale=1 hide=7 -> 10" 10
expect_json "stale=1 hide=7: hidden_blocks" .hidden_blocks 7
run probe --json "sim:$RND,stale=1"
expect_rc "stale=1 -> 0" 0
# the sources agree on 3000: the 8 failing blocks are a damaged tail (issue
# 23), counted as failed, the stale data they moved no success
run probe --json "sim:$RND,stale=1,bad=2992-2999"
expect_rc "stale=1 bad last 8: damage -> 0" 0
expect_json "stale=1 bad last 8: data is no success" .damaged_tail_blocks 8

# --- info=zero (QEMU IDE/AHCI) and info=start: INFORMATION to distrust --------
for k in 1 5 150; do
	run probe --json "sim:$RND,info=zero,hide=$k"
	expect_rc "info=zero hide=$k -> 10" 10
	expect_json "info=zero hide=$k: true_blocks" .true_blocks 3000
done
run probe --json "sim:$RND,info=zero"
expect_rc "info=zero -> 0" 0
run probe --json "sim:$RND,info=zero,bad=2992-2999"
expect_json "info=zero bad last 8: the last readable block" .damaged_tail_blocks 8
for k in 1 5 150; do
	run probe --json "sim:$RND,info=start,hide=$k"
	expect_rc "info=start hide=$k -> 10" 10
	expect_json "info=start hide=$k: true_blocks" .true_blocks 3000
done
run probe --json "sim:$RND,info=start"
expect_rc "info=start -> 0" 0
expect_json "info=start: true_blocks" .true_blocks 3000

# --- cdb16=0: no READ(16), no READ CAPACITY(16) (tgt) -------------------------
run probe --json "sim:$RND,cdb16=0,hide=9,trace=$T/trace16"
expect_rc "cdb16=0 hide=9 -> 10" 10
expect_json "cdb16=0 hide=9: hidden_blocks" .hidden_blocks 9
expect_no_grep "cdb16=0: probe needs no 16-byte CDB" "$T/trace16" '^(88|9e) '
run probe --json "sim:$RND,cdb16=0"
expect_rc "cdb16=0 -> 0" 0

# --- all of tgt at once --------------------------------------------------------
TGT="past=medium,reveal=1,toc=cut,getconf=full,stale=1,cdb16=0"
for k in 1 2 150; do
	run probe --json "sim:$RND,$TGT,hide=$k"
	expect_rc "tgt-like hide=$k -> 10" 10
	expect_json "tgt-like hide=$k: hidden_blocks" .hidden_blocks "$k"
	expect_json "tgt-like hide=$k: reported_blocks" .reported_blocks $((3000 - k))
	expect_json "tgt-like hide=$k: capacity-changed" '.notes | index("capacity-changed") != null' true
done

# --- bad values: usage error naming the key ----------------------------------
for kv in past=beyond reveal=yes toc=short getconf=pad stale=2 info=first cdb16=off; do
	run probe "sim:$RND,$kv"
	expect_rc "$kv -> 2" 2
	expect_err_line "$kv: names the key" "'${kv%%=*}'"
done

# --- info=fixed:N (scsi_debug): INFORMATION a constant, here inside the disc ---
mkimage "$T/sd.img" 4096
# The sim answers READ TOC and READ TRACK INFORMATION, which agree with
# READ CAPACITY on 4096: the 96 blocks are a damaged tail (issue 23).  The
# real scsi_debug answers neither (tests/vm/README.md: both null), so READ
# CAPACITY stands alone there and tests/vm/cases/scsi_debug.sh keeps 11.
run probe --json "sim:$T/sd.img,bad=4000-4095,info=fixed:4660,cost=50/1"
expect_rc "scsi_debug-like drive, sources agreeing -> 0" 0
expect_json "scsi_debug-like: true_blocks" .true_blocks 4096
expect_json "scsi_debug-like: the constant INFORMATION does not move the damage" \
	.damaged_tail_blocks 96
expect_json "scsi_debug-like: the 96 medium-error blocks stay in the image" .extent_blocks 4096
run probe --json "sim:$RND,info=fixed:100,hide=5"
expect_json "info=fixed far from the end: distrusted, true_blocks" .true_blocks 3000

# --- change= with formatted= (issue 32): the new disc is formatted as the first -
# A 400-block image swapped in during the probe reports the format's 2000
# blocks, not its own 400 (which the probe took for a hidden tail)
mkimage "$T/f1.img" 400
mkimage "$T/f2.img" 401
truncate -s $((400 * 2048)) "$T/f2.img"
pvd "$T/f1.img" 16 100
pvd "$T/f2.img" 16 400
wrong=""
for c in 3 12; do
	run probe --json "sim:$T/f1.img,profile=dvd+rw,formatted=2000,change=$c:$T/f2.img"
	got="$RC $(jq -c '[.reported_blocks, .true_blocks, .sources.filesystem, .verdict]' <"$T/out")"
	[ "$got" = '0 [2000,2000,400,"ok"]' ] || wrong="$wrong change=$c: $got;"
done
if [ -z "$wrong" ]; then ok "change= with formatted=: the new disc reports the format's size"
else not_ok "change= with formatted=: the new disc reports the format's size" "$wrong"; fi
mkimage "$T/f3.img" 2001
run probe "sim:$T/f1.img,profile=dvd+rw,formatted=2000,change=3:$T/f3.img"
expect_rc "change= to an image larger than formatted= -> 2" 2
expect_err_line "change= to an image larger than formatted=: says so" \
	"formatted=2000 is less than the 2001 blocks in .*f3.img \\(change=\\)"

finish
