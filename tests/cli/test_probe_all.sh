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
run probe --sysfs "$R" "$OK"
expect_rc "--sysfs without --all -> 2" 2
run probe --all --sysfs "$R" "$OK"
expect_rc "--all --sysfs with DEV -> 2" 2
expect_grep "--all --sysfs with DEV: says why" "$T/err" "probe: --sysfs finds the drives: no DEV with it"
run probe "$OK" "$HID"
expect_rc "two DEVs without --all -> 2" 2
expect_grep "two DEVs without --all: names --all" "$T/err" "too many arguments: '$HID' \(it takes one DEV; several: --all DEV\.\.\.\)"

# issue 35: a rack rehearsed without drives.  probe --all DEV...: the
# addresses given, sim: ones included, in parallel
run probe --all --json "$OK" "$HID" "$SHORT"
expect_rc "--all DEV DEV DEV: one hid a tail -> 10" 10
n=$(jq -c . "$T/out" 2>/dev/null | wc -l)
if [ "$n" = 3 ]; then ok "--all DEV...: three JSON lines"; else not_ok "--all DEV...: three JSON lines" "$(cat "$T/out")"; fi
expect_json "--all DEV...: each line names its DEV" "select(.device == \"$HID\") | .hidden_blocks" 3
run probe --all "$OK" "$SHORT"
expect_rc "--all DEV DEV: one short -> 11" 11
expect_grep "--all DEV...: the table names the DEV" "$T/out" "^sim:.*extra=5,cost=0/0 +CD-ROM +$((N + 5)) +$N +-5 +short "
run probe --all "$OK" "$GONE"
expect_rc "--all DEV DEV: one failed -> 3" 3
# a drive counts as its own probe exits: 5 where the window decided its end
# data past the filesystem (not zeros: a zero tail is no confirmed data)
{ cat "$ISO"; head -c $(((1000 - N) * 2048)) /dev/urandom; } >"$T/big.iso"
WIN="sim:$T/big.iso,hide=100,cost=0/0"
run probe --max-extra 8 "$WIN"
expect_rc "--max-extra 8 DEV hiding 100: its own probe -> 5" 5
run probe --all --max-extra 8 "$OK" "$WIN"
expect_rc "--all: one stopped at the window, none hid -> 5" 5
run probe --all --max-extra 8 "$WIN" "$HID"
expect_rc "--all: a tail found beats one stopped at the window -> 10" 10
run probe --all --max-extra 8 "$WIN" "$GONE"
expect_rc "--all: one stopped at the window beats a failure -> 5" 5
expect_grep "--all DEV...: the failure's message" "$T/out" "^/nonexistent/sr9 .* error .*nonexistent"

# a fixture tree whose drives name emulated ones (fixtures/sysfs/rack-sim:
# cdtail-sim/NAME, a sim: image relative to the tree), from any directory
unset CDTAIL_TEST_DRIVES
RS="$FIX/sysfs/rack-sim"
(cd "$T" && $TEST_WRAPPER "$CDTAIL" probe --all --sysfs "$RS") >"$T/out" 2>"$T/err"
RC=$?
expect_rc "--sysfs rack-sim: sr0 hides a tail -> 10" 10
expect_grep "rack-sim: the header" "$T/out" '^drive +medium +reported +true +hidden +verdict +time \(ms\) +error$'
expect_grep "rack-sim: sr0 hides 3" "$T/out" "^/dev/sr0 +CD-ROM +$((N - 3)) +$N +3 +hidden-tail +[0-9.]+$"
expect_grep "rack-sim: sr1 is true" "$T/out" "^/dev/sr1 +CD-ROM +$N +$N +0 +ok +[0-9.]+$"
expect_grep "rack-sim: sr2 reports 5 too many" "$T/out" "^/dev/sr2 +CD-ROM +$((N + 5)) +$N +-5 +short +[0-9.]+$"
if [ -s "$T/err" ]; then not_ok "rack-sim: nothing on stderr" "$(cat "$T/err")"; else ok "rack-sim: nothing on stderr"; fi
if grep -q ' $' "$T/out"; then not_ok "rack-sim: no blank at a line's end"; else ok "rack-sim: no blank at a line's end"; fi

# util-linux's table options: -o LIST, -o +LIST, -n, -r, -b
run probe --all --sysfs "$RS" -o drive,verdict,hidden
expect_grep "-o: the columns chosen, in that order" "$T/out" '^drive +verdict +hidden$'
expect_grep "-o: a row" "$T/out" '^/dev/sr0 +hidden-tail +3$'
run probe --all --sysfs "$RS" -o DRIVE,True -n
if [ "$(sort "$T/out" | tr -s ' ' | tr '\n' '|')" = "/dev/sr0 $N|/dev/sr1 $N|/dev/sr2 $N|" ]; then
	ok "-n: no header; -o is case-insensitive"; else not_ok "-n: no header; -o is case-insensitive" "$(cat "$T/out")"; fi
run probe --all --sysfs "$RS" -r -b -o drive,reported,true,hidden,error
expect_grep "-r: the header is the column names" "$T/out" '^drive reported true hidden error$'
expect_grep "-r -b: bytes, one space apart" "$T/out" "^/dev/sr0 $(((N - 3) * 2048)) $((N * 2048)) 6144 \$"
expect_grep "-r -b: a negative count in bytes" "$T/out" "^/dev/sr2 $(((N + 5) * 2048)) $((N * 2048)) -10240 \$"
run probe --all -r -o drive,verdict,error "$OK" "$GONE"
expect_grep "-r: a blank inside a field is \\x20" "$T/out" '^/nonexistent/sr9 error cannot\\x20open\\x20/nonexistent/sr9'
run probe --all --sysfs "$RS" -o +size,address -n
if [ "$(wc -l <"$T/out")" = 3 ] && grep -Eq "^/dev/sr1 +CD-ROM +$N +$N +0 +ok +[0-9.]+ +$((N * 2048)) +sim:$RS/\.\./\.\./iso9660\.iso$" "$T/out"; then
	ok "-o +LIST: size and the sim: address after the default"; else
	not_ok "-o +LIST: size and the sim: address after the default" "$(cat "$T/out")"; fi
run probe --all --sysfs "$RS" -o drive,verdikt
expect_rc "-o with an unknown column -> 2" 2
expect_grep "-o: did you mean" "$T/err" "no column 'verdikt' \(did you mean 'verdict'\?\)"
for o in "-n" "-r" "-b" "-o drive"; do
	run probe $o "$OK"
	expect_rc "probe $o DEV (no --all) -> 2" 2
	expect_grep "probe $o DEV: goes with --all" "$T/err" "probe: ${o% *} goes with --all"
done

# --json --pretty: the same objects, indented
run probe --all --json --pretty --sysfs "$RS"
expect_rc "--json --pretty -> 10" 10
if [ "$(wc -l <"$T/out")" -gt 30 ] && [ "$(jq -s length "$T/out")" = 3 ] &&
	[ "$(jq -s -c 'map(.true_blocks) | unique' "$T/out")" = "[$N]" ]; then
	ok "--pretty: three indented objects"; else not_ok "--pretty: three indented objects" "$(head -5 "$T/out")"; fi
run probe --json --pretty "$HID"
expect_json "probe --json --pretty DEV: the object" .hidden_blocks 3
if [ "$(wc -l <"$T/out")" -gt 10 ]; then ok "probe --pretty DEV: indented"; else not_ok "probe --pretty DEV: indented"; fi
run probe --pretty "$HID"
expect_rc "--pretty without --json -> 2" 2
finish
