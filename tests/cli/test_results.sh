#!/bin/sh
# Results a person can act on (issue 14, point 5): what was lost and
# where, what the digests cover, what to do next, durations in human
# units beside the exact figure, and the wording of the text reports.
. "$(dirname "$0")/lib.sh"

IMG=$T/d.img
N=1000
mkimage "$IMG" $N
BAD="sim:$IMG,cost=50/8000,bad=100-103:500-500"

# image with bad blocks, with a map
run image --map "$T/m" "$BAD" "$T/o"
expect_rc "image with bad blocks -> 4" 4
expect_grep "lost: blocks, bytes, percent, areas" "$T/out" \
	'^lost: +5 blocks \(10240 bytes, 10\.2 kB; 0\.500 % of the disc\) in 2 areas:$'
expect_grep "lost: the first area in blocks and bytes" "$T/out" '^ +LBAs 100-103 \(bytes 204800-212991\)$'
expect_grep "lost: a one-block area" "$T/out" '^ +LBA 500 \(bytes 1024000-1026047\)$'
# issue 35, 12: OUT by its name, never the placeholder
expect_grep "lost: the digests cover the zeros" "$T/out" "^ +$T/o holds zeros there, and the digests above cover those zeros\$"
# issue 24: next: says what a plain resume does on this drive (the
# learning plan's sample per size of area) and in another (every bad
# block once more), where it said "retries only the bad areas"
expect_grep "next: run again" "$T/out" '^next: +run the same command again: on this drive it retries the$'
expect_grep "next: the same drive's plan" "$T/out" '^ +first block of one bad area of each size, and the other areas$'
expect_grep "next: --retries N" "$T/out" '\(--retries N: every bad block N$'
expect_grep "next: another drive tries every bad block" "$T/out" 'in another drive every bad block is tried once more:$'
expect_grep "next: another drive, the same map" "$T/out" "^ +cdtail image --map $T/m NEWDEV $T/o\$"
# in human units beside the exact figure: 6 failing reads of 8 s and more
expect_grep "drive time in minutes beside the ms" "$T/out" \
	'^elapsed: .*; drive time \(virtual\) [0-9]+ min \([0-9]+ ms\)$'
run image --map "$T/m" "$BAD" "$T/o"
expect_rc "the same command again -> 4 (still bad)" 4
expect_grep "the same command again: the same loss" "$T/out" '^lost: +5 blocks'

# without a map: how to keep progress next time
run image "$BAD" "$T/o2"
expect_grep "no --map: says a new run reads everything" "$T/out" 'without --map a new run reads the whole disc again'
expect_grep "no --map: the command to use" "$T/out" "cdtail image --force --map $T/o2.map $BAD $T/o2\$"
run image --digest none "$BAD" "$T/o3"
expect_grep "--digest none: no word about digests" "$T/out" '^lost: '
if grep -q 'digests above' "$T/out"; then not_ok "--digest none: no digests to speak of"; else ok "--digest none: no digests to speak of"; fi
run image "sim:$IMG,cost=0/0" "$T/o4"
if grep -qE '^(lost|next):' "$T/out"; then not_ok "every block read: no lost or next lines"; else ok "every block read: no lost or next lines"; fi

# verify: unreadable blocks are not compared, and counted as zeros
run verify "$BAD" --image "$IMG"
expect_rc "verify with bad blocks -> 4" 4
expect_grep "verify: unread blocks" "$T/out" '^unread: +5 blocks .* in 2 areas:$'
expect_grep "verify: counted as zeros" "$T/out" 'the digests count them as zeros'
head -c $((900 * 2048)) "$IMG" >"$T/short"
run verify "sim:$IMG,cost=0/0" --image "$T/short"
# issue 24: a FILE shorter than the disc with data after it is a prefix
expect_grep "verify: a short FILE is a prefix, where it ends" "$T/out" "^prefix: +$T/short is the disc's first 900 blocks; the disc"
if grep -qE ' 0 differing|blocks seen' "$T/out"; then not_ok "verify: no '0 differing blocks seen'"; else ok "verify: no '0 differing blocks seen'"; fi
run verify --all "sim:$IMG,cost=0/0" --image "$T/short"
expect_grep "verify --all: a prefix still" "$T/out" '^verdict: +prefix$'
run verify "sim:$IMG,cost=0/0" --md5 00000000000000000000000000000000
expect_grep "verify: a digest that does not match says so" "$T/out" '^expected: +md5 0+ \(the disc.s does not match\)$'

# tail: an IMAGE of no length of the disc compares nothing, and says so
head -c $((123 * 2048)) "$IMG" >"$T/t"
run tail "sim:$IMG,cost=0/0,hide=5" "$T/t"
expect_rc "tail, IMAGE of another length -> 1" 1
expect_grep "tail: compared nothing, and why" "$T/out" "^compared: +nothing: its length is no size of this disc"
expect_grep "tail: IMAGE by its name and length" "$T/out" "^image: +$T/t, $((123 * 2048)) bytes: neither"
if grep -q 'the last 0 blocks' "$T/out"; then not_ok "tail: no 'the last 0 blocks'"; else ok "tail: no 'the last 0 blocks'"; fi
head -c $(((N - 5) * 2048)) "$IMG" >"$T/t2"
run tail "sim:$IMG,cost=0/0,hide=5" "$T/t2"
expect_grep "tail: compared blocks" "$T/out" "^compared: +the last 64 blocks of $T/t2 with the disc\$"
expect_grep "tail: IMAGE's new length, by its name" "$T/out" "^appended: +5 blocks \($T/t2 is now $((N * 2048)) bytes\)\$"
expect_grep "tail: appended, plural" "$T/out" '^appended: +5 blocks '

# probe: the search time in seconds beside the ms; the TAO run-out says why 11
run probe "sim:$IMG,hide=5"
expect_grep "probe: search time in s beside the ms" "$T/out" '^search: +[0-9]+ reads, [0-9]+ failed, [0-9.]+ s \([0-9]+ ms\) of drive time \(virtual\)$'
run probe "sim:$IMG,runout=2"
expect_rc "TAO run-out -> 0 (issue 24: ok, no longer short)" 0
expect_grep "TAO run-out: harmless" "$T/out" "^note: +a TAO-written CD's run-out, harmless"
# issue 35, 12: never a negative count in words
expect_grep "TAO run-out: says the verdict is ok, 2 blocks more reported" "$T/out" 'the verdict is ok \(the drive reports 2$'
expect_grep "TAO run-out: hidden says none, never -2" "$T/out" '^hidden: +none; the drive reports 2 blocks more than the disc holds$'
expect_no_grep "TAO run-out: no negative count" "$T/out" '(hidden|blocks|sectors)[: ]+-[0-9]|\(-[0-9]'
run verify "sim:$IMG,runout=2" --image "$IMG"
expect_grep "verify of a TAO run-out: 2 more than the disc holds, not hidden -2" "$T/out" \
	"^true end: +$((N - 2)) blocks of 2048 bytes \(reported $N: 2 more than the disc holds\)\$"
# no placeholder left where a name is known
for c in "image --map $T/m $BAD $T/o" "verify $BAD --image $IMG" "tail sim:$IMG,cost=0/0,hide=5 $T/t"; do
	run $c
	expect_no_grep "no placeholder (FILE, OUT, IMAGE) in: ${c%% *}" "$T/out" '\b(FILE|OUT|IMAGE)\b'
done


# hazards: one path is, two paths are
run hazards --sysfs "$FIX/sysfs/mpath-path-offline" /dev/mapper/mpatha
expect_grep "hazards: '1 of its 2 paths is'" "$T/out" '1 of its 2 paths is not'

# a map whose OUT has another size: the one size it wants
run image --map "$T/m" "$BAD" "$T/o"
truncate -s 1000 "$T/o"
run image --map "$T/m" "$BAD" "$T/o"
expect_rc "OUT of another size -> 2" 2
expect_grep "the map wants one size: says exactly" "$T/err" "its map wants exactly $((N * 2048)):"
finish
