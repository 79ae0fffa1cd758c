# Helpers for CLI tests; source it.  Every check prints "ok - NAME" or
# "not ok - NAME" with what was expected; finish() prints the RESULT line.
: "${CDTAIL:?}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIX="$ROOT/fixtures"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PASS=0
FAIL=0
# A small run: under a TEST_WRAPPER (check-valgrind) or with CDT_SMALL=1
# (check-asan) the random and matrix tests run their small sets; make test's
# plain run has the full ones.
SMALL=
[ -n "${TEST_WRAPPER:-}${CDT_SMALL:-}" ] && SMALL=1
# every command's exit status is one its --help lists, or the run fails
# with 70 (src/cli/main.c; tests/cli/check_pages.py compares --help's
# list with the page's)
CDTAIL_CHECK_EXITS=1
export CDTAIL_CHECK_EXITS

ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
not_ok() { FAIL=$((FAIL + 1)); echo "not ok - $1"; shift; for l in "$@"; do echo "    $l"; done; }

# run CMD...: runs cdtail (under $TEST_WRAPPER) with stdout/stderr in $T/out, $T/err; sets RC
run() {
	$TEST_WRAPPER "$CDTAIL" "$@" >"$T/out" 2>"$T/err"
	RC=$?
}

# expect_rc NAME WANT: the last run's exit status
expect_rc() {
	if [ "$RC" -eq "$2" ]; then ok "$1"; else
		not_ok "$1" "exit $RC, wanted $2" "stderr: $(head -c 400 "$T/err")"; fi
}

# expect_json NAME JQ-EXPR WANT: jq -r EXPR on the last stdout equals WANT
expect_json() {
	got=$(jq -r "$2" <"$T/out" 2>&1)
	if [ "$got" = "$3" ]; then ok "$1"; else
		not_ok "$1" "jq '$2' gave '$got', wanted '$3'" "stdout: $(head -c 400 "$T/out")"; fi
}

# expect_err_line NAME PATTERN: stderr is one line matching the grep -E PATTERN
expect_err_line() {
	n=$(wc -l <"$T/err")
	if [ "$n" -eq 1 ] && grep -Eq "$2" "$T/err"; then ok "$1"; else
		not_ok "$1" "stderr ($n lines) did not match '$2'" "$(head -c 400 "$T/err")"; fi
}

# expect_grep NAME FILE PATTERN
expect_grep() {
	if grep -Eq "$3" "$2"; then ok "$1"; else
		not_ok "$1" "'$3' not in $2" "$(head -c 400 "$2")"; fi
}

# expect_no_grep NAME FILE PATTERN: no line of FILE matches (the first 3 that do are shown)
expect_no_grep() {
	if grep -Eq "$3" "$2"; then not_ok "$1" "$(grep -E "$3" "$2" | head -3)"; else
		ok "$1"; fi
}

# mkimage FILE BLOCKS [BS]: a file of BLOCKS pseudo-random blocks (fixed seed)
mkimage() {
	bs=${3:-2048}
	openssl enc -aes-128-ctr -nosalt -pass pass:cdtail-"$2" -pbkdf2 \
		</dev/zero 2>/dev/null | head -c $(($2 * bs)) >"$1"
}

# reads_in TRACE FIRST END: the READ(10)/(12)/(16) lines of a sim trace=
# file that touch the LBAs [FIRST, END)
reads_in() {
	awk -v lo="$2" -v hi="$3" '$1 == "28" || $1 == "a8" || $1 == "88" {
		split($2, a, "="); split($3, b, "=")
		if (a[2] + 0 < hi + 0 && a[2] + b[2] > lo + 0) print }' "$1"
}

# no_read NAME DEV TRACE FIRST END: the run that wrote TRACE (image, tail,
# verify: a probe, then its own reads) read nothing of [FIRST, END) after
# the commands `cdtail probe DEV` sends, and read something
no_read() {
	rm -f "$T/probe.tr"
	"$CDTAIL" probe "$2,trace=$T/probe.tr" >/dev/null 2>&1
	p=$(wc -l <"$T/probe.tr")
	if ! head -n "$p" "$3" | cmp -s - "$T/probe.tr"; then
		not_ok "$1" "the trace does not start with probe's"
		return
	fi
	tail -n +"$((p + 1))" "$3" >"$T/own.tr"
	got=$(reads_in "$T/own.tr" "$4" "$5")
	if [ -s "$T/own.tr" ] && [ -z "$got" ]; then ok "$1"; else
		not_ok "$1" "$(echo "$got" | head -3)"; fi
}

# kill_at TRACE LINES ARGS...: cdtail ARGS in the background (stdout
# dropped, stderr in $T/kill.err), killed with SIGKILL once its sim
# trace= file TRACE holds LINES lines (or when it ended first); KILLED=1
# when the signal ended it
kill_at() {
	k_tr=$1 k_lines=$2
	shift 2
	"$CDTAIL" "$@" >/dev/null 2>"$T/kill.err" </dev/null &
	k_pid=$!
	k_i=0
	while [ $k_i -lt 3000 ] && kill -0 $k_pid 2>/dev/null; do
		[ -f "$k_tr" ] && [ "$(wc -l <"$k_tr")" -ge "$k_lines" ] && break
		sleep 0.01
		k_i=$((k_i + 1))
	done
	kill -9 $k_pid 2>/dev/null
	wait $k_pid 2>/dev/null
	if [ $? -eq 137 ]; then KILLED=1; else KILLED=0; fi
}

# put_byte FILE LBA OFFSET: byte OFFSET of 2048-byte block LBA becomes 0xff
put_byte() {
	printf '\377' | dd of="$1" bs=1 seek=$(($2 * 2048 + $3)) conv=notrunc 2>/dev/null
}

# random_model LABEL MODEL WORKNAME SEED CASES ARGS SMALL_CASES SMALL_ARGS:
# one check, that the model tests/random/MODEL (it knows only the contract)
# agrees with $CDTAIL on CASES seeded cases given ARGS, or under
# a small run (valgrind, ASan) SMALL_CASES given SMALL_ARGS; RANDOM_SEED and
# RANDOM_CASES override SEED and the count.  Its work folder is on a tmpfs
# where there is one (the map is fsynced at every save: a tmpfs keeps that
# cheap).
random_model() {
	label=$1 model=$2 seed=${RANDOM_SEED:-$4} cases=$5 args=$6
	[ -n "$SMALL" ] && cases=$7 args=$8
	cases=${RANDOM_CASES:-$cases}
	work=$(mktemp -d "/dev/shm/$3.XXXXXX" 2>/dev/null || mktemp -d)
	trap 'rm -rf "$T" "$work"' EXIT
	# shellcheck disable=SC2086 # args is a list of words
	if python3 "$ROOT/tests/random/$model" "$CDTAIL" "$work" \
		--seed "$seed" --cases "$cases" $args >"$T/model.out" 2>&1; then
		ok "$label: $(tail -1 "$T/model.out")"
	else
		not_ok "$label (seed $seed, $cases cases)" "$(head -c 3000 "$T/model.out")"
	fi
}

# formatted_policy HOW N M: on a formatted medium, a filesystem of N blocks
# formatted to M, what --formatted HOW (image and verify alike) covers:
# sets ext (the extent) and skipped (the skipped list as "START+BLOCKS why")
formatted_policy() {
	case $1 in
	skip) ext=$3 skipped="$2+$(($3 - $2)) unwritten" ;;
	cut) ext=$2 skipped="" ;;
	read) ext=$3 skipped="" ;;
	esac
}

# pvd FILE LBA SIZE: an ISO 9660 primary volume descriptor at LBA (volume
# space SIZE blocks of 2048) and a terminator after it
pvd() {
	python3 - "$1" "$2" "$3" <<'EOF'
import struct, sys
f, lba, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = bytearray(2048)
d[0:7] = b"\x01CD001\x01"
d[80:88] = struct.pack("<I", size) + struct.pack(">I", size)
d[128:132] = struct.pack("<H", 2048) + struct.pack(">H", 2048)
t = bytearray(2048)
t[0:7] = b"\xffCD001\x01"
with open(f, "r+b") as fh:
    fh.seek(lba * 2048)
    fh.write(d + t)
EOF
}

finish() { echo "RESULT $PASS $FAIL"; }
