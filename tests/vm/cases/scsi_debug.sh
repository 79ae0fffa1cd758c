# (b) scsi_debug as a CD-ROM that over-reports: 4096 blocks of 2048, the last
# 96 fail with MEDIUM ERROR.  No QEMU device: it is sr0/sg0.
insmod /lib/modules/scsi_debug.ko ptype=5 dev_size_mb=8 sector_size=2048 opts=2 \
	medium_error_start=4000 medium_error_count=96 2>"$T/insmod" ||
	not_ok "insmod scsi_debug" "$(cat "$T/insmod")"
drive_appears
note "/sys/block/sr0/size = $(cat /sys/block/sr0/size)"
for lba in 3999 4000 4095 4096; do
	h=$(printf '%08x' $lba | sed 's/../& /g')
	sg_raw -o "$T/blk" -r 2048 /dev/sg0 28 00 $h 00 00 01 00 >"$T/raw" 2>&1
	note "READ(10) at LBA $lba: $(tr '\n' ' ' <"$T/raw" | tr -s ' ')"
done

# scsi_debug answers no TOC lead-out and no track end (tests/vm/README.md):
# READ CAPACITY stands alone, so the medium errors at its end are not a
# damaged tail the sources agree on (issue 23, cdtail-probe(1)): still 11
run probe --json /dev/sr0
expect_rc "probe -> 11 (the disc holds less than reported)" 11
expect_json "probe: READ CAPACITY alone, no damaged-tail" .damaged_tail_blocks 0
expect_json "probe: true_blocks" .true_blocks 4000
expect_json "probe: reported_blocks" .reported_blocks 4096
expect_json "probe: hidden_blocks" .hidden_blocks -96
expect_json "probe: verdict" .verdict short
note "probe: $(jq -c '{sources,reads,failed_reads,notes,search_ms}' <"$T/out" 2>&1)"
run probe --json /dev/sg0
expect_rc "probe /dev/sg0 -> 11" 11
expect_json "probe /dev/sg0: true_blocks" .true_blocks 4000

if have image; then
	run image --map "$T/map" /dev/sr0 "$T/out.img"
	expect_rc "image -> 4 (unreadable blocks)" 4
	# the bad ('-') ranges of the ddrescue map, in 2048-byte blocks
	bad=$(awk '!/^#/ && NF >= 3 && $3 == "-" {
			s = ($1 + 0) / 2048; n = ($2 + 0) / 2048
			printf "%d-%d\n", s, s + n - 1 }' "$T/map" |
		awk -F- 'NR > 1 && $1 == e + 1 { e = $2; next }
			NR > 1 { printf "%s%d-%d", sep, s, e; sep = " " }
			{ s = $1; e = $2 } END { if (NR) printf "%s%d-%d", sep, s, e }')
	expect_eq "image: exactly blocks 4000..4095 are bad in the map" "$bad" "4000-4095"
	good=$(awk '!/^#/ && NF >= 3 && $3 == "+" { n += ($2 + 0) } END { print n / 2048 }' "$T/map")
	expect_eq "image: blocks 0..3999 are finished in the map" "$good" 4000
	[ "$RC" = 4 ] || show "$T/map"
	want=$(dd if=/dev/sr0 bs=2048 count=4000 2>/dev/null | sha256sum | cut -d' ' -f1)
	got=$(head -c 8192000 "$T/out.img" | sha256sum | cut -d' ' -f1)
	expect_eq "image: the readable blocks equal what dd reads" "$got" "$want"
else
	skip "image (cdtail image not implemented yet)"
fi
