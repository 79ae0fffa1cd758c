#!/bin/sh
# What cdtail-image(1) says image does with blocks that are not data: never
# read (READ 10/12/16 in the drive's trace), zeros in OUT, listed as skipped
# in JSON, not bad; data at its absolute LBAs; --formatted skip|cut|read on
# a formatted DVD+RW, and any other HOW a usage error.
. "$(dirname "$0")/lib.sh"

# same_blocks NAME A B FIRST COUNT: COUNT 2048-byte blocks from FIRST equal
same_blocks() {
	if cmp -s -n $(($5 * 2048)) -i $(($4 * 2048)):$(($4 * 2048)) "$2" "$3"; then
		ok "$1"; else not_ok "$1" "blocks $4+$5 of $2 and $3 differ"; fi
}

zeros_at() {
	if cmp -s -n $(($4 * 2048)) -i $(($3 * 2048)):0 "$2" /dev/zero; then ok "$1"; else
		not_ok "$1" "blocks $3+$4 of $2 are not zeros"; fi
}

digest_is_out() {
	want=$(sha256sum "$2" | cut -d' ' -f1)
	expect_json "$1" .sha256 "$want"
}

# --- formatted DVD+RW: the ISO, then 500 formatted blocks never written -----
ISO="$FIX/iso9660.iso"
N=$(($(wc -c <"$ISO") / 2048))
M=$((N + 500))
FMT="sim:$ISO,profile=dvd+rw,formatted=$M"

# the end search (probe's reads, which image's trace starts with) checks the
# formatted medium's last block; the copy after it must not read past N
rm -f "$T/tr" "$T/probe.tr"
"$CDTAIL" probe "$FMT,trace=$T/probe.tr" >/dev/null 2>&1
P=$(wc -l <"$T/probe.tr")
run image --json "$FMT,trace=$T/tr" "$T/skip.iso"
expect_rc "formatted, default skip -> 0" 0
expect_json "skip: OUT is the formatted size" .out_bytes $((M * 2048))
expect_json "skip: the unwritten rest is skipped" '.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' \
	"$N+500 unwritten"
expect_json "skip: skipped_blocks" .skipped_blocks 500
expect_json "skip: not bad" .bad_count 0
same_blocks "skip: the filesystem's blocks are the disc's" "$T/skip.iso" "$ISO" 0 "$N"
zeros_at "skip: zeros past the filesystem" "$T/skip.iso" "$N" 500
digest_is_out "skip: sha256 is OUT's" "$T/skip.iso"
if head -n "$P" "$T/tr" | cmp -s - "$T/probe.tr"; then ok "skip: the trace starts with probe's"; else
	not_ok "skip: the trace starts with probe's" "first $P lines differ"; fi
tail -n +"$((P + 1))" "$T/tr" >"$T/copy.tr"
got=$(reads_in "$T/copy.tr" "$N" "$M")
if [ -s "$T/copy.tr" ] && [ -z "$got" ]; then ok "skip: the copy reads nothing past the filesystem"; else
	not_ok "skip: the copy reads nothing past the filesystem" "$(echo "$got" | head -3)"; fi

run image --json --formatted cut "$FMT" "$T/cut.iso"
expect_rc "--formatted cut -> 0" 0
expect_json "cut: OUT ends at the filesystem" .out_bytes $((N * 2048))
expect_json "cut: nothing skipped" .skipped_blocks 0
if cmp -s "$T/cut.iso" "$ISO"; then ok "cut: OUT is the filesystem"; else
	not_ok "cut: OUT is the filesystem" "differs from $ISO"; fi

rm -f "$T/tr"
run image --json --formatted read "$FMT,trace=$T/tr" "$T/read.iso"
expect_rc "--formatted read -> 0" 0
expect_json "read: OUT is the formatted size" .out_bytes $((M * 2048))
expect_json "read: nothing skipped" .skipped_blocks 0
if [ -n "$(reads_in "$T/tr" "$N" "$M")" ]; then ok "read: the unwritten rest is read"; else
	not_ok "read: the unwritten rest is read" "no read at $N..$((M - 1)) in the trace"; fi
if cmp -s "$T/read.iso" "$T/skip.iso"; then ok "read: the same bytes as skip"; else
	not_ok "read: the same bytes as skip" "OUTs differ"; fi

run image --formatted bogus "$FMT" "$T/bogus.iso"
expect_rc "--formatted bogus -> 2" 2
if grep -q "formatted wants skip, cut or read, not 'bogus'" "$T/err"; then
	ok "--formatted bogus: says what it wants"; else
	not_ok "--formatted bogus: says what it wants" "$(head -c 300 "$T/err")"; fi
if [ ! -e "$T/bogus.iso" ]; then ok "--formatted bogus: no OUT"; else
	not_ok "--formatted bogus: no OUT" "$T/bogus.iso exists"; fi

# --- the same DVD+RW, its filesystem ending in 40 bad blocks -------------------
# the medium is formatted (READ CAPACITY far past the filesystem) whatever the
# end search meets: the bad blocks are damage (exit 4), not the end, and each
# policy does with the unwritten rest what it does on an undamaged medium
FMTBAD="$FMT,bad=$((N - 40))-$((N - 1))"
for how in skip cut read; do
	formatted_policy $how "$N" "$M"
	run image --json --formatted $how "$FMTBAD" "$T/bad-$how.iso"
	expect_rc "bad filesystem end, --formatted $how -> 4" 4
	expect_json "bad filesystem end, $how: OUT's size" .out_bytes $((ext * 2048))
	expect_json "bad filesystem end, $how: 40 bad" .bad_count 40
	expect_json "bad filesystem end, $how: skipped" \
		'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "$skipped"
	same_blocks "bad filesystem end, $how: the readable blocks" "$T/bad-$how.iso" "$ISO" 0 $((N - 40))
done
run probe --json "$FMTBAD"
expect_rc "bad filesystem end: probe ok" 0
expect_json "bad filesystem end: probe notes formatted" '.notes | index("formatted") != null' true
expect_json "bad filesystem end: true end is the formatted size" .true_blocks "$M"

# --- CD-Extra: audio 300 + 200, the gap of 11400, data 100 -------------------
X="$T/extra.img"
python3 -c "
import sys
with open(sys.argv[1], 'wb') as f:
    for b in range(12000):
        f.write(b.to_bytes(4, 'big') * 512)" "$X"
rm -f "$T/tr"
run image --json "sim:$X,layout=audio:300+audio:200/data:100,gap=05/21/00,trace=$T/tr" "$T/x.iso"
expect_rc "CD-Extra, undamaged -> 0" 0
expect_json "CD-Extra: audio and gap skipped" '.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' \
	"0+300 audio,300+200 audio,500+11400 gap"
expect_json "CD-Extra: skipped_blocks" .skipped_blocks 11900
expect_json "CD-Extra: not bad" .bad_count 0
expect_json "CD-Extra: OUT covers the disc" .out_bytes $((12000 * 2048))
same_blocks "CD-Extra: the data session at its absolute LBAs" "$T/x.iso" "$X" 11900 100
zeros_at "CD-Extra: zeros in audio and gap" "$T/x.iso" 0 11900
digest_is_out "CD-Extra: sha256 is OUT's" "$T/x.iso"
got=$(reads_in "$T/tr" 0 11900)
if [ -z "$got" ]; then ok "CD-Extra: no read of audio or gap"; else
	not_ok "CD-Extra: no read of audio or gap" "$(echo "$got" | head -3)"; fi

finish
