# (dvd) QEMU's ide-cd holding a DVD-sized medium (issue 36): a sparse image
# of DVD_BLOCKS (a DVD-5, the ISO at its start, its PVD spanning the
# medium) on ide.0 and one of CD_BLOCKS (360,000, the largest medium QEMU
# still calls a CD) on ide.1.  QEMU decides the profile by the size alone
# (hw/ide/atapi.c media_is_dvd: more than CD_MAX_SECTORS, 80 minutes) and
# answers READ DVD STRUCTURE format 00h for a DVD with a descriptor it makes
# up (ide_dvd_read_structure): DVD-ROM version 1, one layer, data area
# from PSN 0 (not 030000h: "FIXME: 0x30000 per spec?") to blocks - 1,
# layer 0's end the same.  For a CD it refuses with 05/30/00.
# case.env: DVD_BLOCKS, CD_BLOCKS
drive_appears
if ! wait_for /dev/sr1 10 || ! wait_for /dev/sg1 5; then
	not_ok "sr1 and sg1 appear" "$(ls /dev | tr '\n' ' ')"
	finish
fi
# which drive holds which medium: by the kernel's size, not the bus order
DVD= CD=
for s in sr0 sr1; do
	case $(($(cat /sys/block/$s/size) / 4)) in
	"$DVD_BLOCKS") DVD=$s ;;
	"$CD_BLOCKS") CD=$s ;;
	esac
done
if [ -z "$DVD" ] || [ -z "$CD" ]; then
	not_ok "the kernel sizes the DVD and the CD" \
		"sr0 $(cat /sys/block/sr0/size), sr1 $(cat /sys/block/sr1/size) (512-byte sectors)"
	finish
fi
ok "the kernel sizes the DVD ($DVD) and the CD ($CD)"
sg_of() { ls "/sys/block/$1/device/scsi_generic"; }
DVD_SG=$(sg_of "$DVD") CD_SG=$(sg_of "$CD")
note "DVD /dev/$DVD /dev/$DVD_SG, CD /dev/$CD /dev/$CD_SG"

be32() { printf '%02x %02x %02x %02x' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)); }
# READ DVD STRUCTURE, media type 0, layer 0, format 00h, 2052 bytes
structure() {
	rm -f "$T/pfi"
	sg_raw -o "$T/pfi" -r 2052 "/dev/$1" ad 00 00 00 00 00 00 00 08 04 00 00 >"$T/raw" 2>&1
}

# ---- QEMU's own answer, byte for byte --------------------------------------
structure "$DVD_SG"
got=$(od -An -tx1 -N20 "$T/pfi" 2>/dev/null | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
note "READ DVD STRUCTURE 00h on the DVD: $got ($(grep -c . "$T/raw") lines from sg_raw)"
end=$(be32 $((DVD_BLOCKS - 1)))
expect_eq "QEMU's physical format: 2050 bytes follow, DVD-ROM v1, 120 mm, one embossed layer, PSN 0 to blocks - 1, layer 0 ends there too" \
	"$got" "08 02 00 00 01 0f 01 00 00 00 00 00 $end $end"
expect_eq "QEMU sends the whole 2052 bytes" "$(wc -c <"$T/pfi" 2>/dev/null | tr -d ' ')" 2052
structure "$CD_SG"
note "READ DVD STRUCTURE 00h on the CD: $(tr '\n' ' ' <"$T/raw" | tr -s ' ')"
if grep -qi 'Illegal Request' "$T/raw" && grep -qi 'incompatible medium' "$T/raw"; then
	ok "QEMU refuses the structure of a CD: 05/30/00"
else
	not_ok "QEMU refuses the structure of a CD: 05/30/00" "$(tr '\n' ' ' <"$T/raw")"
fi

# ---- what cdtail makes of it ----------------------------------------------
for d in "/dev/$DVD" "/dev/$DVD_SG"; do
	run probe --json "$d"
	expect_rc "probe $d (DVD) -> 0" 0
	note "probe $d: $(jq -c '{profile,structure,sources,wrong_sources,reads,failed_reads,notes,verdict}' <"$T/out" 2>&1)"
	expect_json "probe $d: profile DVD-ROM" .profile DVD-ROM
	expect_json "probe $d: structure DVD-ROM v1, one layer, parallel, no layer 0 size" \
		'"\(.structure.type) \(.structure.version) \(.structure.layers) \(.structure.track_path) \(.structure.layer0_blocks)"' \
		"DVD-ROM 1 1 parallel null"
	expect_json "probe $d: sources.disc_structure, QEMU's end - start + 1" \
		.sources.disc_structure "$DVD_BLOCKS"
	expect_json "probe $d: read_capacity, filesystem" \
		'"\(.sources.read_capacity) \(.sources.filesystem)"' "$DVD_BLOCKS $DVD_BLOCKS"
	expect_json "probe $d: true_blocks, nothing hidden, no source wrong" \
		'"\(.true_blocks) \(.hidden_blocks) \(.wrong_sources | tostring)"' "$DVD_BLOCKS 0 []"
	expect_json "probe $d: verdict ok" .verdict ok
done
run probe --json "/dev/$DVD"
expect_json "probe sr (DVD): kernel source == size/4" .sources.kernel "$DVD_BLOCKS"
run probe "/dev/$DVD"
if grep -q '^structure: DVD-ROM version 1, 1 layer, parallel track path$' "$T/out"; then
	ok "probe text: the structure line"
else not_ok "probe text: the structure line" "$(grep -i structure "$T/out")"; fi
if grep -Eq "^  disc structure +$DVD_BLOCKS  right" "$T/out"; then
	ok "probe text: the disc structure row, right"
else not_ok "probe text: the disc structure row, right" "$(grep -i 'disc structure' "$T/out")"; fi

# the largest CD: no DVD profile, so no structure asked and none shown
run probe --json "/dev/$CD"
expect_rc "probe /dev/$CD (CD) -> 0" 0
note "probe /dev/$CD: $(jq -c '{profile,structure,sources,verdict}' <"$T/out" 2>&1)"
expect_json "probe /dev/$CD: profile CD-ROM" .profile CD-ROM
expect_json "probe /dev/$CD: no structure, no disc_structure source" \
	'"\(.structure) \(.sources.disc_structure)"' "null null"
expect_json "probe /dev/$CD: true_blocks, verdict" '"\(.true_blocks) \(.verdict)"' "$CD_BLOCKS ok"
