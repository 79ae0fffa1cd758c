#!/bin/sh
# cdtail tail: complete a dd-style copy that stopped at the reported length.
. "$(dirname "$0")/lib.sh"

N=500
IMG="$T/disc.img"
mkimage "$IMG" $N

same_file() {
	if cmp -s "$2" "$3"; then ok "$1"; else not_ok "$1" "$2 and $3 differ" "$(cmp "$2" "$3" 2>&1)"; fi
}

# --- a dd copy of a disc hiding 7 blocks ---------------------------------------
head -c $(((N - 7) * 2048)) "$IMG" >"$T/dd"
run tail --json "sim:$IMG,cost=0/0,hide=7" "$T/dd"
expect_rc "hide=7: appended -> 0" 0
same_file "hide=7: the copy is now the whole disc" "$T/dd" "$IMG"
expect_json "hide=7: verdict" .verdict appended
expect_json "hide=7: matched the reported length" .matched reported
expect_json "hide=7: appended 7" .appended_blocks 7
expect_json "hide=7: compared 64" .compared_blocks 64
expect_json "hide=7: sha256 of the result" .sha256 "$(sha256sum <"$IMG" | cut -c1-64)"
run tail --json "sim:$IMG,cost=0/0,hide=7" "$T/dd"
expect_rc "second run -> 0" 0
expect_json "second run: nothing to add" .verdict nothing-to-add
expect_json "second run: nothing appended" .appended_blocks 0
same_file "second run: unchanged" "$T/dd" "$IMG"

# the progress note cannot be written (issue 22): nothing appended, said so
head -c $(((N - 7) * 2048)) "$IMG" >"$T/nn"
mkdir "$T/nn.cdtail-tail"
run tail "sim:$IMG,cost=0/0,hide=7" "$T/nn"
expect_rc "the note cannot be written -> 3" 3
expect_grep "the note cannot be written: says which and why" "$T/err" \
	"^cdtail: tail: cannot write .*/nn.cdtail-tail: Is a directory$"
[ "$(stat -c %s "$T/nn")" -eq $(((N - 7) * 2048)) ] && ok "the note cannot be written: IMAGE untouched" ||
	not_ok "the note cannot be written: IMAGE untouched" "$(stat -c %s "$T/nn") bytes"
rmdir "$T/nn.cdtail-tail"
run tail "sim:$IMG,cost=0/0,hide=7" "$T/nn"
expect_rc "the note can be written again -> 0" 0
same_file "the note can be written again: the whole disc" "$T/nn" "$IMG"

for k in 1 300; do
	head -c $(((N - k) * 2048)) "$IMG" >"$T/dd"
	run tail --json "sim:$IMG,cost=0/0,hide=$k" "$T/dd"
	expect_rc "hide=$k -> 0" 0
	same_file "hide=$k: whole disc" "$T/dd" "$IMG"
done

cp "$IMG" "$T/dd"
run tail --json "sim:$IMG,cost=0/0" "$T/dd"
expect_rc "no hidden tail -> 0" 0
expect_json "no hidden tail: nothing to add" .verdict nothing-to-add

# --- copies that do not match -----------------------------------------------
head -c $(((N - 7) * 2048)) "$IMG" >"$T/dd"
printf 'X' | dd of="$T/dd" bs=1 seek=$(((N - 20) * 2048 + 7)) conv=notrunc 2>/dev/null
cp "$T/dd" "$T/dd.keep"
run tail --json "sim:$IMG,cost=0/0,hide=7" "$T/dd"
expect_rc "a differing copy -> 1" 1
expect_json "differing copy: verdict" .verdict data-mismatch
expect_json "differing copy: the LBA" .first_diff_lba $((N - 20))
same_file "differing copy: nothing written" "$T/dd" "$T/dd.keep"

head -c $(((N - 9) * 2048)) "$IMG" >"$T/dd"
cp "$T/dd" "$T/dd.keep"
run tail --json "sim:$IMG,cost=0/0,hide=7" "$T/dd"
expect_rc "a copy of the wrong length -> 1" 1
expect_json "wrong length: verdict" .verdict length-mismatch
same_file "wrong length: nothing written" "$T/dd" "$T/dd.keep"
# the text names the route for a GNU ddrescue copy (issue 24): its map
run tail "sim:$IMG,cost=0/0,hide=7" "$T/dd"
expect_grep "wrong length: next: names image --map for a ddrescue copy" "$T/out" \
	"^ +cdtail image --map MAP sim:$IMG,cost=0/0,hide=7 $T/dd\$"
expect_grep "wrong length: next: says what image does with the map" "$T/out" \
	"^next: +if GNU ddrescue made $T/dd, give"
cp "$IMG" "$T/whole"
run tail "sim:$IMG,cost=0/0" "$T/whole"
expect_no_grep "nothing to add: no next: line" "$T/out" '^next:'

mkimage "$T/other" $((N - 7))
run tail --json "sim:$IMG,cost=0/0,hide=7" "$T/other"
expect_rc "a copy of another disc -> 1" 1

# --- 512-byte blocks, bad blocks in the tail ------------------------------------
mkimage "$T/d512" 2000 512
head -c $((1990 * 512)) "$T/d512" >"$T/dd"
run tail --json "sim:$T/d512,cost=0/0,block=512,hide=10" "$T/dd"
expect_rc "block=512 hide=10 -> 0" 0
same_file "block=512: whole disc" "$T/dd" "$T/d512"

head -c $(((N - 7) * 2048)) "$IMG" >"$T/dd"
run tail --json "sim:$IMG,cost=0/0,hide=7,bad=$((N - 3))-$((N - 3))" "$T/dd"
expect_rc "a bad block in the tail -> 4" 4
expect_json "bad block in the tail: range" '.bad_blocks | tostring' "[[$((N - 3)),$((N - 3))]]"
dd if="$IMG" bs=2048 count=$((N - 3)) of="$T/want" 2>/dev/null
dd if="$T/dd" bs=2048 count=$((N - 3)) of="$T/got" 2>/dev/null
same_file "bad block in the tail: blocks before it" "$T/got" "$T/want"

# --- usage ------------------------------------------------------------------
run tail "sim:$IMG"
expect_rc "missing IMAGE -> 2" 2
run tail "sim:$IMG,cost=0/0" "$T/nonexistent"
expect_rc "IMAGE does not exist -> 2" 2
expect_err_line "IMAGE does not exist: one line" 'nonexistent'

# --- killed while appending (issue 22): the same command again finishes ------
mkimage "$T/k.img" 3000
for at in 100 1000; do
	head -c $((1000 * 2048)) "$T/k.img" >"$T/k.iso"
	"$CDTAIL" tail "sim:$T/k.img,hide=2000,cost=1000/0,sleep=1" "$T/k.iso" >/dev/null 2>&1 &
	pid=$!
	i=0
	# some of the tail appended: IMAGE has grown
	while [ $i -lt 1000 ] && [ "$(stat -c %s "$T/k.iso")" -lt $(((1000 + at) * 2048)) ]; do
		sleep 0.01; i=$((i + 1)); done
	kill -KILL $pid
	wait $pid 2>/dev/null
	size=$(stat -c %s "$T/k.iso")
	if [ "$size" -gt $((1000 * 2048)) ] && [ "$size" -lt $((3000 * 2048)) ] && [ -e "$T/k.iso.cdtail-tail" ]; then
		ok "killed after $at blocks: IMAGE partly appended ($size bytes), the note kept"
	else
		not_ok "killed after $at blocks: IMAGE partly appended, the note kept" "$size bytes; $(ls "$T")"
	fi
	run tail --json "sim:$T/k.img,hide=2000,cost=0/0" "$T/k.iso"
	expect_rc "killed after $at blocks: the same command again -> 0" 0
	expect_json "killed after $at blocks: it appends from where the image ended" .appended_blocks 2000
	if cmp -s "$T/k.img" "$T/k.iso"; then ok "killed after $at blocks: IMAGE is the whole disc"; else
		not_ok "killed after $at blocks: IMAGE is the whole disc" "$(cmp "$T/k.img" "$T/k.iso" 2>&1)"; fi
	[ -e "$T/k.iso.cdtail-tail" ] && not_ok "killed after $at blocks: the note is gone" ||
		ok "killed after $at blocks: the note is gone"
done
finish
