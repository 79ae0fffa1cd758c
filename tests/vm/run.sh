#!/bin/sh
# The real-kernel tests (issue 5, part 3): boot a Debian kernel in QEMU (TCG)
# with a busybox initramfs and run cdtail inside against real sr, sg and
# dm devices.  Usage: run.sh [CASE...]   (default: every case)
# Environment: CDTAIL (the binary, default ./cdtail of the repository),
# VM_CACHE (kernel cache), VM_KEEP=1 (keep the work directory),
# VM_BOOT_TIMEOUT (seconds per boot, default 90), VM_JOBS (parallel boots,
# default 2).  Prints "ok"/"not ok"/"skip" lines and a closing line
# "vm: N passed, N failed"; exits non-zero when any check failed.
set -u
VM=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$VM/../.." && pwd)
CACHE=${VM_CACHE:-$VM/cache}
CDTAIL=${CDTAIL:-$ROOT/cdtail}
TO=${VM_BOOT_TIMEOUT:-90}
JOBS=${VM_JOBS:-2}
. "$VM/lib.sh"

ALL="virtio-cd ide-cd ahci-cd scsi-debug iscsi multipath rack ide-dvd"
SELFTEST=0
if [ "${1:-}" = --selftest ]; then
	# the harness itself: a guest that panics and one that hangs must each
	# fail with its serial log, within the boot time limit
	SELFTEST=1
	TO=${VM_BOOT_TIMEOUT:-20}
	shift
	set -- selftest-panic selftest-hang
fi
CASES=${*:-$ALL}

for t in "$VM_QEMU" busybox cpio xorriso jq; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "vm: $t is missing (make test-deps installs it)"
		echo "vm: 0 passed, 1 failed"
		exit 1
	fi
done
if [ ! -x "$CDTAIL" ]; then
	echo "vm: no cdtail binary at $CDTAIL (run make)"
	echo "vm: 0 passed, 1 failed"
	exit 1
fi

start=$(date +%s.%N)
W=$(mktemp -d "${TMPDIR:-/tmp}/cdtail-vm.XXXXXX")
cleanup() { [ "${VM_KEEP:-0}" = 1 ] && echo "vm: work directory kept: $W" || rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! sh "$VM/kernel.sh"; then
	echo "vm: could not get the kernel (tests/vm/kernel.sh)"
	echo "vm: 0 passed, 1 failed"
	exit 1
fi
echo "# vm: kernel $(cut -d' ' -f1 "$CACHE/kernel.version"), cdtail $CDTAIL"
build_base "$W/base.cpio" || { echo "vm: initramfs build failed"; echo "vm: 0 passed, 1 failed"; exit 1; }

# ---- the media ----------------------------------------------------------
# A few MB of ISO 9660 with fixed contents and dates, cut to the PVD size.
make_iso() {
	tree="$W/isotree"
	mkdir -p "$tree/data"
	cp -r "$ROOT/fixtures/tree/." "$tree/" 2>/dev/null || true
	openssl enc -aes-128-ctr -nosalt -pass pass:cdtail-vm -pbkdf2 </dev/zero 2>/dev/null |
		head -c 3500000 >"$tree/data/random.bin"
	seq 1 60000 >"$tree/data/numbers.txt"
	find "$tree" -exec touch -h -d @1700000000 {} +
	SOURCE_DATE_EPOCH=1700000000 xorriso -no_rc -abort_on FAILURE \
		-outdev "stdio:$1.tmp" -volid CDTAIL_VM \
		-volume_date all_file_dates set_to_mtime \
		-volume_date uuid 2023111422132000 \
		-map "$tree" / -padding 0 -commit >/dev/null 2>&1 || return 1
	blocks=$(od -An -tu4 -j 32848 -N4 "$1.tmp" | tr -d ' ')
	truncate -s $((blocks * 2048)) "$1.tmp"
	mv "$1.tmp" "$1"
}

# ---- the cases: CASE -> script, modules, environment, QEMU devices -------
BASE_MODS="scsi_common scsi_mod cdrom sr_mod sg"
VIRTIO_MODS="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci virtio_scsi"

case_setup() {
	SCRIPT= MODS= ENV= QARGS=
	case $1 in
	virtio-cd | ide-cd | ahci-cd)
		[ -f "$W/test.iso" ] || return 1
		SCRIPT=cd.sh
		ENV="ISO_BLOCKS=$(($(stat -c %s "$W/test.iso") / 2048))
ISO_SHA=$(sha256sum "$W/test.iso" | cut -d' ' -f1)"
		QARGS="-drive if=none,id=cd,file=$W/test.iso,media=cdrom,format=raw,readonly=on"
		case $1 in
		virtio-cd)
			MODS="$BASE_MODS $VIRTIO_MODS"
			QARGS="$QARGS -device virtio-scsi-pci,id=hba -device scsi-cd,drive=cd,bus=hba.0" ;;
		ide-cd)
			MODS="$BASE_MODS libata ata_piix"
			QARGS="$QARGS -device ide-cd,drive=cd,bus=ide.0" ;;
		ahci-cd)
			MODS="$BASE_MODS libata libahci ahci"
			QARGS="$QARGS -device ahci,id=ahci -device ide-cd,drive=cd,bus=ahci.0" ;;
		esac
		;;
	ide-dvd)
		# issue 36: the ISO at the start of a sparse DVD-sized image:
		# QEMU's ide-cd takes more than CD_MAX_SECTORS (737 MB) for a
		# DVD (media_is_dvd) and answers READ DVD STRUCTURE format 0
		[ -f "$W/test.iso" ] || return 1
		cp "$W/test.iso" "$W/dvd.img" && truncate -s $((DVD_BLOCKS * 2048)) "$W/dvd.img" || return 1
		SCRIPT=dvd.sh
		MODS="$BASE_MODS libata ata_piix"
		ENV="ISO_BLOCKS=$(($(stat -c %s "$W/test.iso") / 2048))
DVD_BLOCKS=$DVD_BLOCKS"
		QARGS="-drive if=none,id=cd,file=$W/dvd.img,media=cdrom,format=raw,readonly=on
-device ide-cd,drive=cd,bus=ide.0"
		;;
	scsi-debug)
		SCRIPT=scsi_debug.sh
		MODS="$BASE_MODS crct10dif_common crct10dif_generic crc_t10dif"
		;;
	iscsi)
		SCRIPT=iscsi.sh
		MODS="$BASE_MODS crc32c_generic scsi_transport_iscsi libiscsi libiscsi_tcp iscsi_tcp"
		ENV="CASE_TIMEOUT=75"
		;;
	multipath)
		SCRIPT=multipath.sh
		MODS="scsi_common scsi_mod crct10dif_common crct10dif_generic crc_t10dif crc64
crc64_rocksoft_generic crc64_rocksoft t10_pi sd_mod sg $VIRTIO_MODS dm_mod dm_multipath dm_round_robin"
		truncate -s 16M "$W/mp.img"
		d="file=$W/mp.img,format=raw,file.locking=off"
		h="bus=hba.0,serial=MP1,share-rw=on,dpofua=on,wwn=0x5000c50015ea71ac"
		QARGS="-device virtio-scsi-pci,id=hba
-drive if=none,id=d1,$d -device scsi-hd,drive=d1,$h,scsi-id=0,lun=0
-drive if=none,id=d2,$d -device scsi-hd,drive=d2,$h,scsi-id=1,lun=0"
		;;
	rack)
		# probe --all: a scsi-cd on virtio-scsi holding the ISO, an empty
		# ide-cd, and two slow scsi_debug CD-ROMs (loaded by the case)
		[ -f "$W/test.iso" ] || return 1
		SCRIPT=rack.sh
		MODS="$BASE_MODS $VIRTIO_MODS libata ata_piix crct10dif_common crct10dif_generic crc_t10dif"
		ENV="ISO_BLOCKS=$(($(stat -c %s "$W/test.iso") / 2048))
CASE_TIMEOUT=75"
		QARGS="-drive if=none,id=cd,file=$W/test.iso,media=cdrom,format=raw,readonly=on
-device virtio-scsi-pci,id=hba -device scsi-cd,drive=cd,bus=hba.0
-drive if=none,id=cd2,media=cdrom -device ide-cd,drive=cd2,bus=ide.0"
		;;
	selftest-panic | selftest-hang)
		SCRIPT=$(echo "$1" | tr - _).sh
		MODS=scsi_common
		ENV="CASE_TIMEOUT=600"
		;;
	*)
		echo "vm: unknown case $1 (cases: $ALL)" >&2
		return 1
		;;
	esac
}

# run_case NAME: build, boot, and leave the verdict in $W/NAME.verdict
run_case() {
	name=$1
	t0=$(date +%s.%N)
	if ! case_setup "$name"; then
		echo "not ok - $name: set-up failed" >"$W/$name.verdict"
		return
	fi
	if ! build_initrd "$W/$name.initrd" "$name" "$VM/cases/$SCRIPT" "$MODS" "$ENV"; then
		echo "not ok - $name: initramfs build failed" >"$W/$name.verdict"
		return
	fi
	# shellcheck disable=SC2086
	boot "$name" "$W/$name.initrd" "$TO" $QARGS
	qrc=$?
	secs=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	{
		grep -E '^(ok|not ok|skip) - |^    |^# ' "$W/$name.result" | tr -d '\r'
		marker=$(tr -d '\r' <"$W/$name.result" | grep "^CDT-VM-RESULT $name " | tail -1)
		if [ -z "$marker" ]; then
			if [ $qrc = 124 ] || [ $qrc = 137 ]; then
				why="the guest did not finish within ${TO}s"
			else
				why="the guest stopped without a result (qemu exit $qrc)"
			fi
			echo "not ok - $name: $why; serial log:"
			tr -d '\r' <"$W/$name.console" | tail -n 80 | sed 's/^/    | /'
			sed 's/^/    qemu: /' "$W/$name.qemu"
		elif [ "${marker##* }" != 0 ] && ! grep -q '^not ok - ' "$W/$name.result"; then
			echo "not ok - $name: the case script exited ${marker##* }; serial log:"
			tr -d '\r' <"$W/$name.console" | tail -n 80 | sed 's/^/    | /'
		elif grep -q '^not ok - ' "$W/$name.result"; then
			echo "# $name: serial log (last lines):"
			tr -d '\r' <"$W/$name.console" | grep -vE '^(ok|not ok|skip) - |^    |^# ' |
				tail -n 30 | sed 's/^/    | /'
		fi
		echo "# $name: ${secs}s wall (build + boot + test)"
	} >"$W/$name.verdict"
	rm -f "$W/$name.initrd"
}

# a sparse DVD-sized image: 400000 blocks (819 MB), above QEMU's CD limit
DVD_BLOCKS=400000
case " $CASES " in
*-cd\ * | *\ rack\ * | *\ ide-dvd\ *) make_iso "$W/test.iso" || echo "vm: could not make the ISO" ;;
esac

# Up to $JOBS boots at once (TCG uses one host core per guest CPU).
running=0
for c in $CASES; do
	run_case "$c" &
	running=$((running + 1))
	if [ $running -ge "$JOBS" ]; then
		wait
		running=0
	fi
done
wait

pass=0 fail=0 skipped=0
for c in $CASES; do
	[ -f "$W/$c.verdict" ] || echo "not ok - $c: no verdict" >"$W/$c.verdict"
	if [ $SELFTEST = 1 ]; then
		if grep -q "^not ok - $c: the guest" "$W/$c.verdict" &&
			grep -q '^    | ' "$W/$c.verdict"; then
			echo "ok - selftest: $c fails with its serial log" >>"$W/$c.verdict"
		else
			echo "not ok - selftest: $c did not fail as it should" >>"$W/$c.verdict"
		fi
		sed -i 's/^not ok - selftest-/# (expected) not ok - selftest-/' "$W/$c.verdict"
	fi
	cat "$W/$c.verdict"
	pass=$((pass + $(grep -c '^ok - ' "$W/$c.verdict")))
	fail=$((fail + $(grep -c '^not ok - ' "$W/$c.verdict")))
	skipped=$((skipped + $(grep -c '^skip - ' "$W/$c.verdict")))
done
total=$(echo "$(date +%s.%N) $start" | awk '{ printf "%.1f", $1 - $2 }')
[ $skipped -gt 0 ] && echo "# vm: $skipped checks skipped (a cdtail command is not implemented yet)"
echo "# vm: ${total}s in all"
echo "vm: $pass passed, $fail failed"
[ $fail -eq 0 ]
