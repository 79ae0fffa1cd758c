# (a) QEMU's scsi-cd / ide-cd / AHCI CD-ROM holding an ISO: /dev/sr0, /dev/sg0.
# case.env: ISO_BLOCKS, ISO_SHA
drive_appears
KSIZE=$(cat /sys/block/sr0/size)
note "/sys/block/sr0/size = $KSIZE"
expect_eq "kernel size is 4 x the ISO blocks" "$KSIZE" $((ISO_BLOCKS * 4))
# what the drive answers to a read at the reported end (the sense data)
lba=$(printf '%08x' "$ISO_BLOCKS")
sg_raw -o "$T/blk" -r 2048 /dev/sg0 28 00 $(echo "$lba" | sed 's/../& /g') 00 00 01 00 >"$T/raw" 2>&1
note "READ(10) at LBA $ISO_BLOCKS: $(tr '\n' ' ' <"$T/raw" | tr -s ' ')"
# dd stops silently at the kernel's size
n=$(dd if=/dev/sr0 bs=2048 2>/dev/null | wc -c)
expect_eq "dd of sr0 reads the whole ISO" "$n" $((ISO_BLOCKS * 2048))

for d in /dev/sr0 /dev/sg0; do
	run probe --json $d
	expect_rc "probe $d -> 0" 0
	expect_json "probe $d: true_blocks" .true_blocks "$ISO_BLOCKS"
	expect_json "probe $d: hidden_blocks" .hidden_blocks 0
	expect_json "probe $d: read_capacity" .sources.read_capacity "$ISO_BLOCKS"
	expect_json "probe $d: filesystem" .sources.filesystem "$ISO_BLOCKS"
	# the disc's structure through the kernel's SG_IO: one session, one
	# data track over the whole ISO, no gap (issue 12: nothing regressed)
	expect_json "probe $d: sessions" .sessions 1
	expect_json "probe $d: one data track from 0 over the ISO" \
		'[.tracks[] | "\(.number) \(.session) \(.mode) \(.start) \(.blocks)"] | join(",")' \
		"1 1 data 0 $ISO_BLOCKS"
	expect_json "probe $d: no gaps" '.gaps | tostring' '[]'
	note "probe $d: $(jq -c '{sources,reads,failed_reads,notes,verdict}' <"$T/out" 2>&1)"
	# READ CD (issue 25): scsi-cd refuses it (invalid opcode); ide-cd, on
	# PIIX or AHCI, answers byte 9 = 0xF8 with a Mode 1 sector it makes up
	# with zero EDC/ECC, ignores the C2 and subchannel fields and, through
	# libata, reports residual 0 (REAL-DISCS.md; README.md here).  probe
	# must say which drive reads raw and never trust the made-up sectors.
	note "probe $d raw: $(jq -c '{raw, sector_mode: [.tracks[].sector_mode]}' <"$T/out" 2>&1)"
	if [ "$CASE" = virtio-cd ]; then
		expect_json "probe $d: scsi-cd reads no raw sector" \
			'[.raw.sectors, .raw.c2, .raw.subchannel_q, .raw.subchannel_pw, .raw.edc_ok] | map(tostring) | join(",")' \
			"false,false,false,false,false"
		expect_json "probe $d: no sector mode without READ CD" '.tracks[0].sector_mode // "none"' none
	else
		expect_json "probe $d: ide-cd reads raw sectors, no C2, no subchannel, EDC/ECC not right" \
			'[.raw.sectors, .raw.c2, .raw.subchannel_q, .raw.subchannel_pw, .raw.edc_ok] | map(tostring) | join(",")' \
			"true,false,false,false,false"
		expect_json "probe $d: the made-up header says mode 1" '.tracks[0].sector_mode' mode1
	fi
	expect_json "probe $d: READ CD tried at the data track's start" .raw.tried_lba 0
done
run probe /dev/sr0
if [ "$CASE" = virtio-cd ]; then
	if grep -q '^raw:' "$T/out"; then not_ok "probe text: no raw line for scsi-cd" "$(grep '^raw:' "$T/out")"
	else ok "probe text: no raw line for scsi-cd"; fi
elif grep -q '^raw: *sectors (READ CD at LBA 0, EDC/ECC not right: not trusted)$' "$T/out"; then
	ok "probe text: ide-cd's raw sectors not trusted"
else not_ok "probe text: ide-cd's raw sectors not trusted" "$(grep '^raw:' "$T/out")"; fi
run probe --json /dev/sr0
expect_json "probe sr0: kernel source == /sys/block/sr0/size/4" .sources.kernel $((KSIZE / 4))

if have verify; then
	run verify --sha256 "$ISO_SHA" /dev/sr0
	expect_rc "verify --sha256 of the ISO -> 0" 0
	run verify --sha256 0000000000000000000000000000000000000000000000000000000000000000 /dev/sr0
	expect_rc "verify --sha256 of a wrong digest -> 1" 1
else
	skip "verify --sha256 (cdtail verify not implemented yet)"
fi
if have image; then
	run image --json /dev/sr0 "$T/out.iso"
	expect_rc "image /dev/sr0 -> 0" 0
	expect_json "image /dev/sr0: nothing skipped" \
		'"\(.skipped_blocks) \(.skipped | tostring)"' "0 []"
	expect_eq "image equals the ISO (sha256)" "$(sha256sum <"$T/out.iso" | cut -d' ' -f1)" "$ISO_SHA"
	rm -f "$T/out.iso"
else
	skip "image /dev/sr0 (cdtail image not implemented yet)"
fi
