#!/bin/sh
# cdtail probe --all: drives found in a fixture sysfs tree
# (fixtures/sysfs/rack-three-drives: sr0, sr1, sr2 and a disk), each opened
# at a sim: address through the test-only CDTAIL_TEST_DRIVES mapping; the
# exit rule, no-medium drives, error objects, JSON Lines, and the report
# order: a slow drive (sleep=1) never delays a fast one.  Real drives in
# parallel: tests/vm case rack.
. "$(dirname "$0")/lib.sh"
R="$FIX/sysfs/rack-three-drives"
ISO="$FIX/iso9660.iso"
mkdir -p "$T/map"
export CDTAIL_TEST_DRIVES="$T/map"
drives() { echo "$1" >"$T/map/sr0"; echo "$2" >"$T/map/sr1"; echo "$3" >"$T/map/sr2"; }
N=$(($(stat -c %s "$ISO") / 2048))

# rule NAME WANT SR0 SR1 SR2
rule() {
	drives "$3" "$4" "$5"
	run probe --all --json --sysfs "$R"
	expect_rc "exit rule: $1 -> $2" "$2"
	n=$(jq -c . "$T/out" 2>/dev/null | wc -l)
	if [ "$n" = 3 ]; then ok "$1: three JSON lines"; else not_ok "$1: three JSON lines" "$(cat "$T/out")"; fi
}
OK="sim:$ISO,cost=0/0"
HID="sim:$ISO,hide=3,cost=0/0"
SHORT="sim:$ISO,extra=5,cost=0/0"
GONE="/nonexistent/sr9"
rule "all true" 0 "$OK" "$OK" "$OK"
rule "one hid a tail" 10 "$OK" "$HID" "$SHORT"
rule "one short, none hid" 11 "$OK" "$SHORT" "$GONE"
rule "one failed, others true" 3 "$OK" "$GONE" "$OK"
rule "hid a tail beats a failure" 10 "$GONE" "$HID" "$OK"

# each line is what probe --json prints for that drive
drives "$HID" "$OK" "$GONE"
run probe --all --json --sysfs "$R"
jq -c 'select(.device == "/dev/sr0") | del(.total, .search_ms, .virtual_ms)' "$T/out" >"$T/all0"
"$CDTAIL" probe --json "$HID" | jq -c '.device = "/dev/sr0" | del(.total, .search_ms, .virtual_ms)' >"$T/one0"
if cmp -s "$T/all0" "$T/one0"; then ok "a drive's line is its probe --json object"; else
	not_ok "a drive's line is its probe --json object" "$(diff "$T/one0" "$T/all0" | head -4)"; fi
expect_json "the failed drive: the error object" \
	'select(.device == "/dev/sr2") | "\(.error.status) \(.error.message | test("nonexistent"))"' "3 true"

# a slow drive does not delay the fast ones: they are reported first
drives "sim:$ISO,hide=3,sleep=1,cost=50/1500" "$OK" "$OK"
run probe --all --json --sysfs "$R"
expect_rc "slow sr0 hides a tail -> 10" 10
got=$(jq -r .device "$T/out" | tr '\n' ' ')
if [ "$got" = "/dev/sr1 /dev/sr2 /dev/sr0 " ] || [ "$got" = "/dev/sr2 /dev/sr1 /dev/sr0 " ]; then
	ok "the fast drives first, the slow one last ($got)"; else not_ok "the fast drives first, the slow one last" "$got"; fi

# the threads share nothing unlocked: helgrind finds no data race
# (not under a wrapper, nor on check-asan's binary: valgrind cannot run ASan code)
if command -v valgrind >/dev/null && [ -z "$TEST_WRAPPER" ] && [ -z "${ASAN_OPTIONS:-}" ]; then
	drives "$HID" "$SHORT" "$OK"
	valgrind --tool=helgrind -q --error-exitcode=99 "$CDTAIL" probe --all --json --sysfs "$R" \
		>/dev/null 2>"$T/hg"
	rc=$?
	if [ $rc = 10 ] && ! grep -q "Possible data race" "$T/hg"; then ok "helgrind: no data race"; else
		not_ok "helgrind: no data race" "exit $rc" "$(grep -A6 'Possible data race' "$T/hg" | head -14)"; fi
fi

# the table
drives "$HID" "$SHORT" "$GONE"
run probe --all --sysfs "$R"
expect_rc "table: exit 10" 10
expect_grep "table: the header" "$T/out" '^drive +medium +reported +true +hidden +verdict +time'
expect_grep "table: the hidden tail" "$T/out" "^/dev/sr0 +CD-ROM +$((N - 3)) +$N +3 +hidden-tail "
expect_grep "table: the short drive" "$T/out" "^/dev/sr1 +CD-ROM +$((N + 5)) +$N +-5 +short "
expect_grep "table: the failure" "$T/out" '^/dev/sr2 .* error .*nonexistent'
run probe --all -q --sysfs "$R"
if grep -q '^drive' "$T/out"; then not_ok "-q: no header"; else ok "-q: no header"; fi

# usage and discovery errors
unset CDTAIL_TEST_DRIVES
run probe --all --json --sysfs "$FIX/sysfs/mpath-running"
expect_rc "no optical drive -> 3" 3
expect_json "no optical drive: the error object" .error.status 3
run probe --all --sysfs "$T/none"
expect_rc "--sysfs missing -> 2" 2
run probe --all "$OK"
expect_rc "--all with DEV -> 2" 2
run probe --sysfs "$R" "$OK"
expect_rc "--sysfs without --all -> 2" 2
finish
