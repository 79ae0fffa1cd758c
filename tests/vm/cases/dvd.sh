# (dvd) QEMU's drives holding a DVD-sized medium (issue 36): a sparse image
# of DVD_BLOCKS (a DVD-5, the ISO at its start, its PVD spanning the
# medium) on ide-cd and on scsi-cd (virtio-scsi), and one of CD_BLOCKS
# (360,000, the largest medium QEMU still calls a CD) on a second ide-cd.
# QEMU decides the profile by the size alone (media_is_dvd: more than
# CD_MAX_SECTORS, 80 minutes) and answers READ DVD STRUCTURE format 00h for
# a DVD with a descriptor it makes up (hw/ide/atapi.c
# ide_dvd_read_structure, hw/scsi/scsi-disk.c scsi_read_dvd_structure):
# DVD-ROM version 1, one layer, data area from PSN 0 (not 030000h: "FIXME:
# 0x30000 per spec?") to blocks - 1, layer 0's end the same.  For a CD it
# refuses with 05/30/00.
# case.env: DVD_BLOCKS, CD_BLOCKS
drive_appears
for n in 1 2; do
	if ! wait_for /dev/sr$n 10 || ! wait_for /dev/sg$n 5; then
		not_ok "sr$n and sg$n appear" "$(ls /dev | tr '\n' ' ')"
		finish
	fi
done
# which drive is which: by the kernel's size and the model (ide-cd says
# "QEMU DVD-ROM", scsi-cd "QEMU CD-ROM"), not by the probing order
IDE='' SCSI='' CD=''
for s in sr0 sr1 sr2; do
	model=$(cat /sys/block/$s/device/model)
	case "$(($(cat /sys/block/$s/size) / 4)) $model" in
	"$DVD_BLOCKS QEMU DVD-ROM"*) IDE=$s ;;
	"$DVD_BLOCKS QEMU CD-ROM"*) SCSI=$s ;;
	"$CD_BLOCKS "*) CD=$s ;;
	esac
done
if [ -z "$IDE" ] || [ -z "$SCSI" ] || [ -z "$CD" ]; then
	not_ok "the kernel sizes the two DVDs and the CD" \
		"$(for s in sr0 sr1 sr2; do echo "$s $(cat /sys/block/$s/size) $(cat /sys/block/$s/device/model);"; done)"
	finish
fi
ok "the kernel sizes the DVD on ide-cd ($IDE), on scsi-cd ($SCSI) and the CD ($CD)"
note "three drives ready at guest uptime $(cut -d' ' -f1 /proc/uptime)s"
sg_of() { ls "/sys/block/$1/device/scsi_generic"; }

be32() { printf '%02x %02x %02x %02x' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)); }
# READ DVD STRUCTURE, media type 0, layer 0, format 00h, 2052 bytes
structure() {
	rm -f "$T/pfi"
	sg_raw -o "$T/pfi" -r 2052 "/dev/$1" ad 00 00 00 00 00 00 00 08 04 00 00 >"$T/raw" 2>&1
}

for sr in "$IDE" "$SCSI"; do
	sg=$(sg_of "$sr")
	[ "$sr" = "$IDE" ] && kind=ide-cd || kind=scsi-cd
	# ---- QEMU's own answer, byte for byte ------------------------------
	structure "$sg"
	got=$(od -An -tx1 -N20 "$T/pfi" 2>/dev/null | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
	note "$kind: READ DVD STRUCTURE 00h on the DVD: $got"
	end=$(be32 $((DVD_BLOCKS - 1)))
	expect_eq "$kind: QEMU's physical format: 2050 bytes follow, DVD-ROM v1, 120 mm, one embossed layer, PSN 0 to blocks - 1, layer 0 ends there too" \
		"$got" "08 02 00 00 01 0f 01 00 00 00 00 00 $end $end"
	expect_eq "$kind: QEMU sends the whole 2052 bytes" "$(wc -c <"$T/pfi" 2>/dev/null | tr -d ' ')" 2052

	# ---- what cdtail makes of it ---------------------------------------
	for d in "/dev/$sr" "/dev/$sg"; do
		run probe --json "$d"
		expect_rc "$kind: probe $d (DVD) -> 0" 0
		note "probe $d: $(jq -c '{profile,structure,sources,wrong_sources,reads,failed_reads,notes,verdict}' <"$T/out" 2>&1)"
		expect_json "$kind: probe $d: profile DVD-ROM" .profile DVD-ROM
		expect_json "$kind: probe $d: structure DVD-ROM v1, one layer, parallel, no layer 0 size" \
			'"\(.structure.type) \(.structure.version) \(.structure.layers) \(.structure.track_path) \(.structure.layer0_blocks)"' \
			"DVD-ROM 1 1 parallel null"
		expect_json "$kind: probe $d: sources.disc_structure, QEMU's end - start + 1" \
			.sources.disc_structure "$DVD_BLOCKS"
		expect_json "$kind: probe $d: read_capacity, filesystem" \
			'"\(.sources.read_capacity) \(.sources.filesystem)"' "$DVD_BLOCKS $DVD_BLOCKS"
		expect_json "$kind: probe $d: true_blocks, nothing hidden, no source wrong" \
			'"\(.true_blocks) \(.hidden_blocks) \(.wrong_sources | tostring)"' "$DVD_BLOCKS 0 []"
		expect_json "$kind: probe $d: verdict ok" .verdict ok
	done
	run probe "/dev/$sr"
	if grep -q '^structure: DVD-ROM version 1, 1 layer, parallel track path$' "$T/out"; then
		ok "$kind: probe text: the structure line"
	else not_ok "$kind: probe text: the structure line" "$(grep -i structure "$T/out")"; fi
	if grep -Eq "^  disc structure +$DVD_BLOCKS  right" "$T/out"; then
		ok "$kind: probe text: the disc structure row, right"
	else not_ok "$kind: probe text: the disc structure row, right" "$(grep -i 'disc structure' "$T/out")"; fi
done
run probe --json "/dev/$IDE"
expect_json "probe /dev/$IDE: kernel source == size/4" .sources.kernel "$DVD_BLOCKS"

# ---- the largest CD: QEMU refuses the structure; cdtail does not ask ------
structure "$(sg_of "$CD")"
note "READ DVD STRUCTURE 00h on the CD: $(tr '\n' ' ' <"$T/raw" | tr -s ' ')"
if grep -qi 'Illegal Request' "$T/raw" && grep -qi 'incompatible medium' "$T/raw"; then
	ok "QEMU refuses the structure of a CD: 05/30/00"
else
	not_ok "QEMU refuses the structure of a CD: 05/30/00" "$(tr '\n' ' ' <"$T/raw")"
fi
run probe --json "/dev/$CD"
expect_rc "probe /dev/$CD (CD) -> 0" 0
note "probe /dev/$CD: $(jq -c '{profile,structure,sources,verdict}' <"$T/out" 2>&1)"
expect_json "probe /dev/$CD: profile CD-ROM" .profile CD-ROM
expect_json "probe /dev/$CD: no structure, no disc_structure source" \
	'"\(.structure) \(.sources.disc_structure)"' "null null"
expect_json "probe /dev/$CD: true_blocks, verdict" '"\(.true_blocks) \(.verdict)"' "$CD_BLOCKS ok"
