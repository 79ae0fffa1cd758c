# (h) QEMU's ide-cd holding a DVD-sized sparse image (issue 36): the ISO at
# its start, zeros after it.  case.env: ISO_BLOCKS, DVD_BLOCKS
drive_appears
KSIZE=$(cat /sys/block/sr0/size)
note "/sys/block/sr0/size = $KSIZE"
expect_eq "kernel size is 4 x the image's blocks" "$KSIZE" $((DVD_BLOCKS * 4))
# READ DVD STRUCTURE format 0, raw, through the sg node: what QEMU answers
sg_raw -r 2052 /dev/sg0 ad 00 00 00 00 00 00 00 08 04 00 00 >"$T/raw" 2>&1
note "READ DVD STRUCTURE: $(head -c 300 "$T/raw" | tr '\n' ' ' | tr -s ' ')"
for d in /dev/sr0 /dev/sg0; do
	run probe --json $d
	expect_rc "probe $d -> 0" 0
	expect_json "probe $d: DVD-ROM profile" .profile DVD-ROM
	expect_json "probe $d: true_blocks" .true_blocks "$DVD_BLOCKS"
	expect_json "probe $d: the disc structure's size" .sources.disc_structure "$DVD_BLOCKS"
	expect_json "probe $d: the structure: DVD-ROM, one layer" \
		'"\(.structure.type) \(.structure.layers) \(.structure.track_path)"' "DVD-ROM 1 parallel"
	expect_json "probe $d: no source wrong but the filesystem that fits" \
		'[.wrong_sources[] | select(. != "filesystem")] | length' 0
	expect_json "probe $d: the ISO's size" .sources.filesystem "$ISO_BLOCKS"
	note "probe $d: $(jq -c '{sources,structure,reads,failed_reads,notes,verdict}' <"$T/out" 2>&1)"
done
run probe $d
expect_rc "probe text -> 0" 0
if grep -Eq "^  disc structure +$DVD_BLOCKS  right" "$T/out" &&
   grep -q '^structure: DVD-ROM version 1, 1 layer' "$T/out"; then
	ok "probe text: the disc structure row and line"
else
	not_ok "probe text: the disc structure row and line" "$(cat "$T/out")"
fi
finish
