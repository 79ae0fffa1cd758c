#!/bin/sh
# What cdtail-tail(1) says tail does with blocks that are not data: the
# comparison takes the last 64 data blocks of IMAGE, passing over audio,
# gaps and run-outs (never read: READ 10/12/16 in the drive's trace after
# the probe's; never compared: another tool may hold anything there), and
# lists what it passed over as skipped.  Growing IMAGE across a skipped
# area (zeros) needs a kernel size the emulated drive does not give: the
# unit test test_skip covers it.
. "$(dirname "$0")/lib.sh"

skip_list='.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")'

# disc IMG BLOCKS SPEC DD KEEP: an emulated disc DEV=sim:IMG,SPEC of BLOCKS
# blocks, and DD what dd read of it: its first KEEP blocks
disc() {
	mkimage "$1" "$2"
	DEV="sim:$1,$3"
	head -c $(($5 * 2048)) "$1" >"$4"
}

# tail_traced IMAGE: tail --json DEV IMAGE, the drive's trace in $T/tr
tail_traced() {
	rm -f "$T/tr"
	run tail --json "$DEV,trace=$T/tr" "$1"
}

# --- CD-Extra, audio 1000, the gap, data 1600 of which 1580 hidden ------------
# dd stopped at the reported 12420 blocks: 20 of them data
X="$T/extra.img"
disc "$X" 14000 layout=audio:1000/data:1600,hide=1580 "$T/dd.iso" 12420
tail_traced "$T/dd.iso"
expect_rc "CD-Extra, 20 data blocks in IMAGE -> 0" 0
expect_json "CD-Extra: appended" .verdict appended
expect_json "CD-Extra: the 20 data blocks compared" .compared_blocks 20
expect_json "CD-Extra: gap and audio passed over, skipped" "$skip_list" \
	"0+1000 audio,1000+11400 gap"
expect_json "CD-Extra: skipped_blocks" .skipped_blocks 12400
expect_json "CD-Extra: appended the hidden tail" .appended_blocks 1580
expect_json "CD-Extra: not bad" .bad_count 0
if cmp -s "$T/dd.iso" "$X"; then ok "CD-Extra: IMAGE is the disc"; else
	not_ok "CD-Extra: IMAGE is the disc" "differs from $X"; fi
no_read "CD-Extra: no read of audio or gap" "$DEV" "$T/tr" 0 12400
run tail "$DEV" "$T/dd.iso"
expect_rc "CD-Extra, again -> 0" 0
expect_grep "again: nothing to add" "$T/out" "^verdict: +nothing-to-add"
expect_grep "again: the last 64 data blocks" "$T/out" "^compared:  the last 64 blocks of $T/dd.iso with the disc$"

# another tool's image: anything where the disc holds no data
head -c $((12420 * 2048)) "$X" >"$T/other.iso"
put_byte "$T/other.iso" 10 0
put_byte "$T/other.iso" 12399 100
run tail --json "$DEV" "$T/other.iso"
expect_rc "other bytes in audio and gap -> 0" 0
expect_json "other bytes: appended" .verdict appended
head -c $((12420 * 2048)) "$X" >"$T/bad.iso"
put_byte "$T/bad.iso" 12405 3
run tail --json "$DEV" "$T/bad.iso"
expect_rc "a changed data block -> 1" 1
expect_json "a changed data block: its LBA" .first_diff_lba 12405
if [ "$(wc -c <"$T/bad.iso")" -eq $((12420 * 2048)) ]; then ok "a changed data block: nothing written"; else
	not_ok "a changed data block: nothing written" "$(wc -c <"$T/bad.iso") bytes"; fi

# --- mixed mode ending in audio, reported 100 short ----------------------------
MM="$T/mixed.img"
disc "$MM" 2600 layout=data:1000+audio:1600,hide=100 "$T/mm.iso" 2500
tail_traced "$T/mm.iso"
expect_rc "mixed mode: IMAGE is the extent -> 0" 0
expect_json "mixed mode: nothing to add" .verdict nothing-to-add
expect_json "mixed mode: the data track's last 64 compared" .compared_blocks 64
expect_json "mixed mode: the audio passed over" "$skip_list" "1000+1500 audio"
no_read "mixed mode: no read of audio" "$DEV" "$T/tr" 1000 2500

# --- TAO: the run-out between two tracks in the window -------------------------
TAO="$T/tao.img"
disc "$TAO" 1500 layout=data:1000+data:500,tao=1,hide=470 "$T/tao.iso" 1030
tail_traced "$T/tao.iso"
expect_rc "TAO: the window over a run-out -> 0" 0
expect_json "TAO: 64 data blocks compared" .compared_blocks 64
expect_json "TAO: the run-out passed over" "$skip_list" "998+2 runout"
expect_json "TAO: appended up to the last run-out" .out_bytes $((1498 * 2048))
no_read "TAO: no read of the run-out" "$DEV" "$T/tr" 998 1000

# --- formatted DVD+RW: dd gives the formatted size -----------------------------
ISO="$FIX/iso9660.iso"
N=$(($(wc -c <"$ISO") / 2048))
DEV="sim:$ISO,profile=dvd+rw,formatted=$((N + 500))"
cp "$ISO" "$T/fmt.iso"
head -c $((500 * 2048)) /dev/zero >>"$T/fmt.iso"
tail_traced "$T/fmt.iso"
expect_rc "formatted: IMAGE of the formatted size -> 0" 0
expect_json "formatted: nothing to add" .verdict nothing-to-add
expect_json "formatted: the filesystem's last 64 compared" .compared_blocks 64
expect_json "formatted: the unwritten rest passed over" "$skip_list" "$N+500 unwritten"
no_read "formatted: no read past the filesystem" "$DEV" "$T/tr" "$N" $((N + 500))

finish
