# (d) hazards on real sysfs: two QEMU scsi-hd paths to one image (one
# serial, one WWN), a dm-multipath map over both made with dmsetup.
export DM_DISABLE_UDEV=1
if ! wait_for /dev/sda 20 || ! wait_for /dev/sdb 10; then
	not_ok "sda and sdb appear" "$(ls /dev | tr '\n' ' ')"
	finish
fi
ok "sda and sdb appear"
SECTORS=$(cat /sys/block/sda/size)
MM_A=$(cat /sys/block/sda/dev) MM_B=$(cat /sys/block/sdb/dev)
if ! dmsetup create mp -u mpath-test --table \
	"0 $SECTORS multipath 0 0 1 1 round-robin 0 2 1 $MM_A 1000 $MM_B 1000" >"$T/dm" 2>&1; then
	not_ok "dmsetup create" "$(cat "$T/dm")"
	finish
fi
wait_for /dev/dm-0 10 || mknod /dev/dm-0 b $(tr ':' ' ' </sys/block/dm-0/dev)
ok "dmsetup create: a multipath map over sda and sdb"
sysfs_state() {
	for d in dm-0 sda sdb; do
		ct=$(cat /sys/block/$d/device/scsi_disk/*/cache_type 2>/dev/null || echo -)
		printf '%s: state=%s write_cache=%s fua=%s cache_type=%s; ' $d \
			"$(cat /sys/block/$d/device/state 2>/dev/null || echo -)" \
			"$(cat /sys/block/$d/queue/write_cache)" "$(cat /sys/block/$d/queue/fua)" "$ct"
	done
}
note "sysfs: dm uuid $(cat /sys/block/dm-0/dm/uuid), slaves $(ls /sys/block/dm-0/slaves | tr '\n' ' ')"
note "sysfs: $(sysfs_state)"

# has_hazard NAME DEV ID [absent]: hazards --json DEV lists (or does not list) ID
has_hazard() {
	run hazards --json "$2"
	ids=$(jq -r '[.hazards[].id] | join(",")' <"$T/out" 2>/dev/null)
	note "hazards $2 -> exit $RC: $ids"
	case ",$ids," in *",$3,"*) found=1 ;; *) found=0 ;; esac
	if [ "${4:-}" = absent ]; then
		if [ $found = 0 ]; then ok "$1"; else not_ok "$1" "$3 listed" "$(head -c 600 "$T/out")"; fi
	elif [ $found = 1 ] && [ "$RC" = 10 ]; then
		ok "$1"
	else
		not_ok "$1" "exit $RC, hazards '$ids', wanted $3 and exit 10" \
			"stdout: $(head -c 600 "$T/out")" "stderr: $(head -c 300 "$T/err")"
	fi
}

has_hazard "two running paths: multipath-active-paths" /dev/dm-0 multipath-active-paths
has_hazard "two running paths: no path-failed" /dev/dm-0 path-failed absent
has_hazard "paths agree: no cache-mode-mismatch" /dev/dm-0 cache-mode-mismatch absent
has_hazard "write-back path: no flush-disabled" /dev/sda flush-disabled absent

# the kernel stops sending flushes to a disk whose cache is still volatile
echo "write through" >/sys/block/sda/queue/write_cache
note "after write_cache 'write through' on sda: $(sysfs_state)"
has_hazard "sda write_cache 'write through' on a write-back disk: flush-disabled" \
	/dev/sda flush-disabled
echo "write back" >/sys/block/sda/queue/write_cache

# a MODE SELECT on one path: the map keeps its settings from creation
for f in /sys/block/sdb/device/scsi_disk/*/cache_type; do
	echo "write through" >"$f"
done
note "after cache_type 'write through' on sdb: $(sysfs_state)"
has_hazard "sdb cache_type 'write through', map 'write back': cache-mode-mismatch" \
	/dev/dm-0 cache-mode-mismatch

# a path goes offline
echo offline >/sys/block/sdb/device/state
dd if=/dev/dm-0 of=/dev/null bs=4096 count=64 2>/dev/null
note "after offline on sdb: $(sysfs_state); dmsetup status: $(dmsetup status mp 2>&1)"
has_hazard "sdb offline: path-failed" /dev/dm-0 path-failed
has_hazard "one running path: no multipath-active-paths" /dev/dm-0 multipath-active-paths absent
