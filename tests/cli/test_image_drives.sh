#!/bin/sh
# A resume in another drive (issue 24, item 3): the map names the drive
# that read last; a resume in another one (drive= gives the emulated drive
# another INQUIRY product) tries every bad block once more, where the same
# drive gets the learning plan; blocks the probe found bad are in the map
# before pass 1, so no block is read twice without a reason.  Failing reads
# are counted in the sim's trace (03/11/00 answers).
. "$(dirname "$0")/lib.sh"

N=2000
IMG="$T/disc.img"
mkimage "$IMG" $N
O="$T/o.iso"
M="$T/o.map"
FIRST="sim:$IMG,cost=0/0,bad=100-114"
# the disc in a better drive: 13 of the 15 blocks read there
BETTER="bad=100-101"
failing() { grep -c ' sense=03/11/00$' "$1"; }
# out_is NAME: OUT is the disc with zeros at LBAs 100-101
out_is() {
	python3 -c "
import sys
d = bytearray(open(sys.argv[1], 'rb').read()); o = open(sys.argv[2], 'rb').read()
d[100 * 2048:102 * 2048] = bytes(2 * 2048)
sys.exit(0 if o == bytes(d) else 1)" "$IMG" "$O" && ok "$1" || not_ok "$1"
}

run image --map "$M" "$FIRST" "$O"
expect_rc "first drive: 15 bad blocks -> 4" 4
expect_grep "the map names the drive" "$M" '^# cdtail drive: CDTAIL EMULATED DRIVE 1\.0$'
cp "$M" "$T/m.first"
cp "$O" "$T/o.first"

# --- another drive: every bad block once more ---------------------------------
rm -f "$T/t1"
run image --json --map "$M" "sim:$IMG,cost=0/0,$BETTER,drive=PX-760A,trace=$T/t1" "$O"
expect_rc "another drive: 2 still bad -> 4" 4
expect_json "another drive: other_drive" .other_drive true
expect_json "another drive: 13 of 15 back" .bad_count 2
out_is "another drive: OUT is the disc but the 2 blocks"
# the probe's head read fails on 96-159 and reads 100 and 101 alone: those
# two failures are this drive's try of them, so the retry reads neither again
n=$(failing "$T/t1")
[ "$n" -eq 3 ] && ok "another drive: 3 failing reads (the probe's), none repeated" ||
	not_ok "another drive: 3 failing reads (the probe's), none repeated" "$n"
expect_grep "another drive: the map now names it" "$M" '^# cdtail drive: CDTAIL PX-760A 1\.0$'
cp "$T/m.first" "$T/m.text"
cp "$T/o.first" "$T/o.text"
run image --map "$T/m.text" "sim:$IMG,cost=0/0,$BETTER,drive=PX-760A" "$T/o.text"
expect_grep "another drive: the text says so" "$T/out" \
	"^ +in another drive than the map's: its bad blocks were$"

# --- the same drive, healed as much: the learning plan's sample ---------------
cp "$T/m.first" "$M"
cp "$T/o.first" "$O"
rm -f "$T/t2"
run image --json --map "$M" "sim:$IMG,cost=0/0,$BETTER,trace=$T/t2" "$O"
expect_rc "the same drive: still bad -> 4" 4
expect_json "the same drive: other_drive false" .other_drive false
# the sample is the area's first block (100): it stays bad, so the other
# 14 are not tried, as next: says
expect_json "the same drive: the sample stays bad, the area is left" .bad_count 15
# --retries 1 on the same drive: every block, as in another drive
cp "$T/m.first" "$M"
cp "$T/o.first" "$O"
run image --json --retries 1 --map "$M" "sim:$IMG,cost=0/0,$BETTER" "$O"
expect_json "the same drive, --retries 1: 13 back" .bad_count 2

# --- a GNU ddrescue map names no drive: its bad blocks get one more try -------
grep -v '^# cdtail' "$T/m.first" >"$M"
cp "$T/o.first" "$O"
run image --json --map "$M" "sim:$IMG,cost=0/0,$BETTER" "$O"
expect_json "a map without a drive line: other_drive" .other_drive true
expect_json "a map without a drive line: 13 back" .bad_count 2

# --- the probe's failures are in the map before pass 1 --------------------------
# two bad blocks at 16-17: the probe's head read fails on 0-31, then reads
# 16 and 17 alone; image does not fail on them again in pass 1 or in the
# trimming and scraping, only in the learning plan's sample (block 16,
# tried by the probe's chunk and its own read, gets the third try GNU
# ddrescue -r2 would give it)
rm -f "$O" "$M" "$T/t3"
run image --json --map "$M" "sim:$IMG,cost=0/0,bad=16-17,trace=$T/t3" "$O"
expect_rc "bad 16-17 -> 4" 4
expect_json "bad 16-17: both bad" '.bad_blocks | tostring' '[[16,17]]'
n=$(failing "$T/t3")
[ "$n" -eq 4 ] && ok "bad 16-17: 4 failing reads (3 the probe's, 1 the sample's)" ||
	not_ok "bad 16-17: 4 failing reads (3 the probe's, 1 the sample's)" "$n: $(grep ' sense=03/11/00$' "$T/t3" | tr '\n' ' ')"
n=$(grep -c '^28 lba=0 blocks=[0-9]* sense=03/11/00$' "$T/t3")
[ "$n" -eq 1 ] && ok "bad 16-17: the failed chunk at 0 is not read again" ||
	not_ok "bad 16-17: the failed chunk at 0 is not read again" "$n reads"
python3 -c "
import sys
d = bytearray(open(sys.argv[1], 'rb').read()); o = open(sys.argv[2], 'rb').read()
d[16 * 2048:18 * 2048] = bytes(2 * 2048)
sys.exit(0 if o == bytes(d) else 1)" "$IMG" "$O" && ok "bad 16-17: OUT is the disc but the 2 blocks" ||
	not_ok "bad 16-17: OUT is the disc but the 2 blocks"
finish
