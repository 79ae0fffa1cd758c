# (e) probe --all on a rack of four CD-ROM drives of three kinds: a QEMU
# scsi-cd on virtio-scsi holding the ISO, an empty QEMU ide-cd, and two
# scsi_debug CD-ROMs (num_tgts=2) made slow with delay= (jiffies per
# command).  Every drive is probed in its own thread: the fast ones are
# reported first, and the wall time is about the slowest drive's, not the
# sum.  case.env: ISO_BLOCKS
insmod /lib/modules/scsi_debug.ko ptype=5 dev_size_mb=8 sector_size=2048 opts=2 \
	medium_error_start=4000 medium_error_count=96 num_tgts=2 delay=25 2>"$T/insmod" ||
	not_ok "insmod scsi_debug" "$(cat "$T/insmod")"
for d in /dev/sr0 /dev/sr1 /dev/sr2 /dev/sr3; do
	if ! wait_for $d 20; then
		not_ok "four sr devices appear" "$(ls /dev | tr '\n' ' ')"
		finish
	fi
done
ok "four sr devices appear"
for s in /sys/block/sr*; do
	note "$(basename "$s"): $(cat "$s/device/vendor" "$s/device/model" | tr -s ' \n' ' ')type $(cat "$s/device/type")"
done
# which node is which kind, from sysfs
kind() {
	case "$(readlink -f /sys/block/"$1")" in
	*/virtio*) echo iso ;;
	*/ata*) echo empty ;;
	*) echo slow ;;
	esac
}

s=$(now_ms)
timeout 50 cdtail probe --all --json >"$T/out" 2>"$T/err"
RC=$?
WALL=$(($(now_ms) - s))
note "probe --all --json -> exit $RC in $WALL ms"
show "$T/out"
expect_rc "probe --all -> 11 (short drives, none hid a tail)" 11
expect_eq "probe --all: one JSON line per drive" "$(jq -c . "$T/out" 2>/dev/null | wc -l)" 4
expect_eq "probe --all: the four drives" \
	"$(jq -r .device "$T/out" | sort | tr '\n' ' ')" "/dev/sr0 /dev/sr1 /dev/sr2 /dev/sr3 "
slow_ms=
for n in sr0 sr1 sr2 sr3; do
	line=$(jq -c "select(.device == \"/dev/$n\")" "$T/out")
	v=$(echo "$line" | jq -r .verdict)
	case $(kind $n) in
	iso)
		expect_eq "$n (QEMU scsi-cd, ISO): verdict ok" "$v" ok
		expect_eq "$n: true_blocks" "$(echo "$line" | jq -r .true_blocks)" "$ISO_BLOCKS" ;;
	empty)
		expect_eq "$n (QEMU ide-cd, no medium): listed as no-medium" "$v" no-medium ;;
	slow)
		expect_eq "$n (scsi_debug): verdict short" "$v" short
		expect_eq "$n: true_blocks" "$(echo "$line" | jq -r .true_blocks)" 4000
		slow_ms="$slow_ms $(echo "$line" | jq -r .total.elapsed_ms)" ;;
	esac
done
# the fast drives are reported before the slow ones
first2=$(head -2 "$T/out" | jq -r .device | sed 's|/dev/||' | while read -r n; do kind "$n"; done | sort | tr '\n' ' ')
expect_eq "probe --all: the fast drives are reported first" "$first2" "empty iso "
# parallel: the wall time is about the slowest drive's, not the sum
set -- $slow_ms
note "slow drives: $1 ms and $2 ms; wall $WALL ms"
if awk -v a="$1" -v b="$2" -v w="$WALL" 'BEGIN {
	max = a > b ? a : b
	exit !(a > 500 && b > 500 && w < a + b && w < 1.5 * max + 1500) }'; then
	ok "probe --all: wall time about the slowest drive's, less than the sum"
else
	not_ok "probe --all: wall time about the slowest drive's, less than the sum" \
		"slow drives $1 ms, $2 ms; wall $WALL ms"
fi

run probe --all
expect_rc "probe --all (table) -> 11" 11
show "$T/out"
expect_eq "probe --all table: a header and four rows" "$(wc -l <"$T/out")" 5
if grep -q '^/dev/sr[0-3] .*no-medium' "$T/out" && [ "$(grep -c ' short ' "$T/out")" = 2 ]; then
	ok "probe --all table: no-medium and the short drives"
else
	not_ok "probe --all table: no-medium and the short drives"
fi
finish
