#!/bin/sh
# cdtail hazards over the sysfs fixture trees (fixtures/sysfs/*): for each
# situation the exact set of finding ids and the exit status; DEV
# resolution through every address form; usage and device errors.
. "$(dirname "$0")/lib.sh"
S="$FIX/sysfs"

# ids TREE DEV WANT_IDS WANT_RC: sorted, comma-joined ids of --json output
ids() {
	run hazards --json --sysfs "$S/$1" "$2"
	expect_rc "$1 $2: exit $4" "$4"
	expect_json "$1 $2: ids" '[.hazards[].id] | sort | join(",")' "$3"
}

ids sr0-plain /dev/sr0 "" 0
ids sr0-plain /dev/sg0 "" 0
ids mpath-running /dev/mapper/mpatha multipath-active-paths 10
ids mpath-running /dev/dm-0 multipath-active-paths 10
ids mpath-path-offline /dev/mapper/mpatha path-failed 10
ids mpath-all-offline /dev/mapper/mpatha no-active-path,path-failed 10
ids mpath-cache-mismatch /dev/mapper/mpatha \
	cache-mode-mismatch,multipath-active-paths 10
ids disk-flush-disabled /dev/sda flush-disabled 10
ids disk-flush-disabled /dev/sda1 flush-disabled 10
ids disk-flush-disabled /dev/sg0 flush-disabled 10
# issue 35, 8: an info finding ("correct, but slow") fails only with
# --fail-on info; the default is warning (was exit 10 for any finding)
ids disk-no-fua /dev/sda write-cache-no-fua 0
ids mpath-single-path /dev/mapper/mpatha "" 0
ids mpath-wwid-mismatch /dev/mapper/mpatha \
	multipath-active-paths,path-wwid-mismatch 10
ids mpath-queue-mismatch /dev/mapper/mpatha \
	multipath-active-paths,queue-depth-mismatch,rotational-mismatch 10
ids lvm-on-mpath /dev/mapper/vg0-data \
	cache-mode-mismatch,flush-disabled,multipath-active-paths 10
ids mpath-map-write-through /dev/mapper/mpatha \
	cache-mode-mismatch,flush-disabled,multipath-active-paths 10
# a single path of a map, looked at on its own
ids mpath-path-offline /dev/sdb "" 0

# JSON shape: the contract's keys, severities, where, the facts
run hazards --json --sysfs "$S/mpath-path-offline" /dev/mapper/mpatha
expect_json "json device" .device /dev/mapper/mpatha
expect_json "json node" .node dm-0
expect_json "json hazard keys" '.hazards[0] | [has("id"), has("severity"), has("detail")] | all' true
expect_json "json severity" '.hazards[0].severity' warning
expect_json "json where" '.hazards[0].where' dm-0
expect_json "json detail names the file" '.hazards[0].detail | test("device/state")' true
expect_json "json path roles" '[.nodes[] | .name + ":" + .role] | join(",")' \
	"dm-0:device,sda:path,sdb:path"
expect_json "json path state" '.nodes[2].state' offline
expect_json "json unread caching page is null" '.nodes[1].mode_sense' null
expect_json "json map has no device/state" '.nodes[0].state' null

run hazards --json --sysfs "$S/mpath-all-offline" /dev/mapper/mpatha
expect_json "danger sorts first" '.hazards[0] | .id + ":" + .severity' \
	"no-active-path:danger"
run hazards --json --sysfs "$S/disk-no-fua" /dev/sda
expect_json "no-fua is info" '.hazards[0].severity' info

# human output: table, then details
run hazards --sysfs "$S/mpath-cache-mismatch" /dev/mapper/mpatha
expect_rc "text exit" 10
expect_grep "text table row" "$T/out" '^cache-mode-mismatch +warning +dm-0$'
expect_grep "text detail" "$T/out" "sdb 'write through'; queue/fua: dm-0 1"
expect_grep "text facts row: the queue" "$T/out" '^sdb +path +running +1 +128$'
expect_grep "text facts row: the cache" "$T/out" '^sdb +write through +0 +write through '
run hazards --sysfs "$S/sr0-plain" /dev/sr0
expect_rc "text no hazard exit" 0
expect_grep "text no hazard" "$T/out" 'no ordering hazard found'
run hazards -q --sysfs "$S/sr0-plain" /dev/sr0
expect_rc "quiet no hazard exit" 0
if [ -s "$T/out" ]; then not_ok "quiet prints nothing without hazards"; else ok "quiet prints nothing without hazards"; fi

# errors
run hazards --sysfs "$S/sr0-plain" /dev/sdz
expect_rc "unknown device: exit 3" 3
expect_err_line "unknown device: one line" \
	"^cdtail: hazards: no block device 'sdz' under .*sr0-plain \(looked for "
run hazards --sysfs "$S/mpath-running" /dev/mapper/nosuchmap
expect_rc "unknown map: exit 3" 3
run hazards --sysfs "$S/sr0-plain" "$S/make-trees.sh"
expect_rc "regular file: exit 2 (the exit table: a file argument the user can fix)" 2
expect_err_line "regular file: one line" "is not a block device"
run hazards --sysfs "$T/nonexistent" /dev/sr0
expect_rc "missing --sysfs root: exit 2" 2
run hazards --sysfs "$S/make-trees.sh" /dev/sr0
expect_rc "--sysfs is a file: exit 2" 2
run hazards --sysfs "$S/sr0-plain"
expect_rc "missing DEV: exit 2" 2
run hazards --bogus /dev/sr0
expect_rc "bad option: exit 2" 2
expect_grep "bad option: named" "$T/err" "unknown option '--bogus'"
run hazards --sysfs
expect_rc "--sysfs without value: exit 2" 2
expect_grep "--sysfs without value: named" "$T/err" "option '--sysfs' needs a value"
run hazards --sysfs "$S/sr0-plain" /dev/sr0 /dev/sr1
expect_rc "two devices: exit 2" 2
run hazards ""
expect_rc "empty DEV: exit 2" 2
run hazards -h
expect_rc "help: exit 0" 0
expect_grep "help text" "$T/out" '^usage: cdtail hazards'

# the emulated drive: only the caching page, which says WCE 0, DPOFUA 0
mkimage "$T/disc.iso" 64
run hazards --json "sim:$T/disc.iso"
expect_rc "sim: exit 0" 0
expect_json "sim: no hazard" '.hazards | length' 0
expect_json "sim: caching page read" '.nodes[0].mode_sense | [.wce, .dpofua] | map(tostring) | join(",")' \
	"false,false"
run hazards "sim:$T/nonexistent.iso"
expect_rc "sim: missing image: exit 2 (the exit table)" 2

# --- issue 35, 8: --fail-on, the least severity that exits 10 ---------------
# fail_on TREE DEV LEVEL WANT_RC
fail_on() {
	run hazards --json --fail-on "$3" --sysfs "$S/$1" "$2"
	expect_rc "--fail-on $3, $1: exit $4" "$4"
	expect_json "--fail-on $3, $1: fail_on" .fail_on "$(echo "$3" | sed 's/^error$/danger/')"
}
fail_on disk-no-fua /dev/sda info 10
fail_on disk-no-fua /dev/sda warning 0
fail_on disk-no-fua /dev/sda error 0
fail_on mpath-path-offline /dev/mapper/mpatha warning 10
fail_on mpath-path-offline /dev/mapper/mpatha error 0
fail_on mpath-all-offline /dev/mapper/mpatha error 10
fail_on disk-flush-disabled /dev/sda error 10
fail_on sr0-plain /dev/sr0 info 0
run hazards --json --sysfs "$S/disk-no-fua" /dev/sda
expect_json "default --fail-on: warning, 0 failing, the finding still listed" \
	'[.fail_on, .failing, .verdict, (.hazards | length)] | map(tostring) | join(" ")' "warning 0 hazards 1"
run hazards --sysfs "$S/disk-no-fua" /dev/sda
expect_rc "text, an info finding: exit 0" 0
expect_grep "text: says why exit 0" "$T/out" '^exit 0: no finding is a warning or worse \(--fail-on\)$'
run hazards --fail-on bogus --sysfs "$S/disk-no-fua" /dev/sda
expect_rc "--fail-on bogus: exit 2" 2
expect_grep "--fail-on bogus: the values named" "$T/err" "fail-on wants info, warning or error, not 'bogus'"

# --- issue 35, 8: a loop device is followed to its backing file's disk -------
# A tree made here: disk-flush-disabled's sda (flush-disabled, danger) plus
# loop0 whose backing file is a file of this machine; dev/block/MAJ:MIN of
# that file's filesystem points at sda, as /sys would for a file on sda.
L="$T/looptree"
cp -r "$S/disk-flush-disabled" "$L"
printf 'x' >"$T/backing.img"
LOOP=devices/virtual/block/loop0
mkdir -p "$L/$LOOP/queue" "$L/$LOOP/loop"
echo 7:0 >"$L/$LOOP/dev"
echo "write back" >"$L/$LOOP/queue/write_cache"
echo 1 >"$L/$LOOP/queue/fua"
echo 0 >"$L/$LOOP/queue/rotational"
echo "$T/backing.img" >"$L/$LOOP/loop/backing_file"
ln -s "../$LOOP" "$L/block/loop0"
ln -s "../../$LOOP" "$L/class/block/loop0"
ln -s "../../$LOOP" "$L/dev/block/7:0"
FSDEV=$(stat -c '%Hd:%Ld' "$T/backing.img")
SDA=$(readlink "$L/dev/block/8:1")
rm -f "$L/dev/block/$FSDEV"
ln -s "$SDA" "$L/dev/block/$FSDEV"
run hazards --json --sysfs "$L" /dev/loop0
expect_rc "loop0 over a file on sda1: sda's danger -> exit 10" 10
expect_json "loop0: the backing disk is a node, role backing, under loop0" \
	'[.nodes[] | "\(.name):\(.role):\(.parent)"] | join(",")' "loop0:device:null,sda:backing:loop0"
expect_json "loop0: sda's finding" '[.hazards[].id] | join(",")' flush-disabled
run hazards --sysfs "$L" /dev/loop0
expect_grep "loop0 text: the backing row" "$T/out" '^sda +backing +running'
# a backing file whose filesystem has no device under the root: an info note
echo "$T/nonexistent.img" >"$L/$LOOP/loop/backing_file"
run hazards --json --sysfs "$L" /dev/loop0
expect_rc "loop0 over a missing file: info only -> exit 0" 0
expect_json "loop0 over a missing file: loop-backing-unknown, info, names the file" \
	'.hazards[0] | "\(.id) \(.severity) \(.detail | test("nonexistent.img"))"' "loop-backing-unknown info true"
expect_json "loop0 over a missing file: loop0 alone" '.nodes | length' 1

finish
