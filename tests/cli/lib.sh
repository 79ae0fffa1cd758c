# Helpers for CLI tests; source it.  Every check prints "ok - NAME" or
# "not ok - NAME" with what was expected; finish() prints the RESULT line.
: "${CDTAIL:?}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIX="$ROOT/fixtures"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PASS=0
FAIL=0

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

# mkimage FILE BLOCKS [BS]: a file of BLOCKS pseudo-random blocks (fixed seed)
mkimage() {
	bs=${3:-2048}
	openssl enc -aes-128-ctr -nosalt -pass pass:cdtail-"$2" -pbkdf2 \
		</dev/zero 2>/dev/null | head -c $(($2 * bs)) >"$1"
}

finish() { echo "RESULT $PASS $FAIL"; }
