#!/bin/sh
# -v as sg3_utils words it (issue 35, 3): -v the command decoded, its CDB
# in hex and the sense decoded as sg_get_sense_str does with its triple;
# -vv the sense bytes and the transfer (asked, residual); -vvv the data-in
# bytes, the first and last 64; virtual times say so.  JSON error objects
# carry the drive's answer: category and sense {key, asc, ascq, text}.
. "$(dirname "$0")/lib.sh"

IMG="$T/disc.img"
mkimage "$IMG" 300
DEV="sim:$IMG,bad=100-101,info=1"

run probe -v "$DEV"
expect_grep "-v: the command decoded, its virtual time said" "$T/err" \
	'^cdtail: Read\(10\) lba=100 len=1: Check Condition, Medium Error, Unrecovered read error, Info fld=0x64 \([0-9.]+ ms, virtual\)$'
expect_grep "-v: the CDB in hex" "$T/err" '^cdtail:   cdb: 28 00 00 00 00 64 00 00 01 00$'
expect_grep "-v: the sense as sg_get_sense_str words it, with the triple" "$T/err" \
	'^cdtail:   sense 03/11/00: Fixed format, current; Sense key: Medium Error; Additional sense: Unrecovered read error; Info fld=0x64 \[100\]$'
expect_grep "-v: a good command" "$T/err" '^cdtail: Read capacity\(10\): Good \([0-9.]+ ms, virtual\)$'
expect_no_grep "-v: no sense bytes" "$T/err" '^cdtail:   sense:'
expect_no_grep "-v: no transfer" "$T/err" '^cdtail:   transfer:'
expect_no_grep "-v: no data" "$T/err" '^cdtail:   data'
# every command has its CDB line
n_cmd=$(grep -c '^cdtail: [A-Z]' "$T/err")
n_cdb=$(grep -c '^cdtail:   cdb:' "$T/err")
[ "$n_cmd" -gt 5 ] && [ "$n_cmd" -eq "$n_cdb" ] && ok "-v: a CDB line for each of $n_cmd commands" ||
	not_ok "-v: a CDB line for each command" "$n_cmd commands, $n_cdb cdb lines"

run probe -vv "$DEV"
expect_grep "-vv: the sense bytes" "$T/err" '^cdtail:   sense: f0 00 03 00 00 00 64 '
expect_grep "-vv: the failed read's transfer: nothing arrived" "$T/err" \
	'^cdtail:   transfer: 2048 bytes asked, residual 2048$'
expect_grep "-vv: a good read's transfer" "$T/err" '^cdtail:   transfer: 2048 bytes asked, residual 0$'
expect_no_grep "-vv: no data bytes" "$T/err" '^cdtail:   data'

run probe -vvv "$DEV"
expect_grep "-vvv: a long read: its first and last 64 bytes" "$T/err" \
	'^cdtail:   data-in: [0-9]+ bytes, the first and last 64$'
# the block before the bad ones, read alone by the probe: its bytes as stored
want=$(od -An -tx1 -v -j $((99 * 2048)) -N 16 "$IMG" | tr -s ' ' | sed 's/^ //;s/ $//')
if grep -A3 '^cdtail: Read(10) lba=99 len=1: Good' "$T/err" | grep -q '^cdtail:   data-in: 2048 bytes, the first and last 64$' &&
	grep -A4 '^cdtail: Read(10) lba=99 len=1: Good' "$T/err" | grep -qx "cdtail:   data 0000: $want"; then
	ok "-vvv: LBA 99's first 16 bytes as the image holds them"
else
	not_ok "-vvv: LBA 99's first 16 bytes as the image holds them" "want $want" \
		"$(grep -A4 '^cdtail: Read(10) lba=99 len=1' "$T/err" | head -6)"
fi
last=$(od -An -tx1 -v -j $((100 * 2048 - 16)) -N 16 "$IMG" | tr -s ' ' | sed 's/^ //;s/ $//')
expect_grep "-vvv: and its last 16" "$T/err" "^cdtail:   data 07f0: $last\$"
expect_grep "-vvv: the gap between them" "$T/err" '^cdtail:   \.\.\.$'

# a real drive's times are measured: no "virtual" (the iSCSI test has one);
# here verify and image word -v the same
run verify -v --image "$IMG" "sim:$IMG,cost=0/0"
expect_grep "verify -v: the CDB line" "$T/err" '^cdtail:   cdb: 28 '

# --- JSON error objects: what the drive said ---------------------------------
run verify --json --timeout 1 --image "$IMG" "sim:$IMG,cost=0/0,ready=0,fault=timeout@50-60"
expect_rc "four timeouts in a row -> 3" 3
expect_json "timeouts: category timeout, no sense" \
	'[.error.status, .error.category, .error.sense] | map(tostring) | join(" ")' "3 timeout null"
run probe --json "sim:$IMG,ready=600000@0"
expect_rc "a drive that stays NOT READY -> 3" 3
expect_json "NOT READY: category not-ready, the triple and its words" \
	'[.error.category, .error.sense.key, .error.sense.asc, .error.sense.ascq, .error.sense.text] | map(tostring) | join("|")' \
	"not-ready|2|4|1|Not Ready: Logical unit is in process of becoming ready"
# a medium change near the end of verify's reads
run verify --json --image "$IMG" "sim:$IMG,cost=0/0,trace=$T/v.tr"
n=$(wc -l <"$T/v.tr")
run verify --json --image "$IMG" "sim:$IMG,cost=0/0,change=$((n - 1))"
expect_rc "a medium change -> 3" 3
expect_json "medium change: category unit-attention, 06/28/00" \
	'[.error.category, .error.sense.key, .error.sense.asc, .error.sense.ascq] | map(tostring) | join(" ")' \
	"unit-attention 6 40 0"
# not the drive's: no category, no sense, though reads failed before
run image --json "sim:$IMG,bad=10-11" "$T/nodir/out.iso"
expect_rc "usage error -> 2" 2
expect_json "usage error: category and sense null" \
	'[.error.category, .error.sense] | map(tostring) | join(" ")' "null null"
run verify --json --image "$T/missing.iso" "$DEV"
expect_json "missing FILE after failed reads: not the drive's" \
	'[.error.status, .error.category, .error.sense] | map(tostring) | join(" ")' "2 null null"

finish
