# Guest-side helpers for the case scripts (sourced by /case.sh).  Every
# check prints "ok - CASE: NAME" or "not ok - CASE: NAME" (plus indented
# detail lines) on the console and on the result port $R; "skip - ..." when
# the cdtail command a check needs is not implemented yet.
: "${R:=/dev/null}" "${CASE:=case}"
T=/tmp/t
mkdir -p "$T"
FAILS=0
say() { echo "$*"; echo "$*" >"$R"; }
ok() { say "ok - $CASE: $1"; }
not_ok() {
	FAILS=$((FAILS + 1))
	say "not ok - $CASE: $1"
	shift
	for l in "$@"; do say "    $l"; done
}
skip() { say "skip - $CASE: $1"; }
note() { say "# $CASE: $*"; }

# wait_for PATH [SECONDS]: wait until PATH exists
wait_for() {
	i=0
	while [ ! -e "$1" ]; do
		i=$((i + 1))
		[ $i -gt $((${2:-15} * 10)) ] && return 1
		usleep 100000
	done
	return 0
}

# drive_appears: /dev/sr0 and /dev/sg0 show up (else the case ends here);
# what the drive says it is and its READ CAPACITY as notes
drive_appears() {
	if ! wait_for /dev/sr0 20 || ! wait_for /dev/sg0 5; then
		not_ok "sr0 and sg0 appear" "$(ls /dev | tr '\n' ' ')"
		finish
	fi
	ok "sr0 and sg0 appear"
	note "$(sg_inq /dev/sg0 2>&1 | grep -E 'Vendor|Product|Revision|type' | tr -s ' ' | tr '\n' ';')"
	note "sg_readcap: $(sg_readcap /dev/sg0 2>&1 | grep -E 'Last LBA|blocks' | tr -s ' ' | tr '\n' ';')"
}

# have CMD: the cdtail command is implemented (the placeholder says "not implemented")
have() {
	cdtail "$1" --help >/dev/null 2>"$T/have.err"
	! grep -q "not implemented" "$T/have.err"
}

now_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }

# run ARGS...: cdtail ARGS with stdout/stderr in $T/out, $T/err; sets RC, MS
run() {
	s=$(now_ms)
	cdtail "$@" >"$T/out" 2>"$T/err"
	RC=$?
	MS=$(($(now_ms) - s))
	note "cdtail $* -> exit $RC in ${MS} ms"
}

expect_rc() {
	if [ "$RC" -eq "$2" ]; then ok "$1"; else
		not_ok "$1" "exit $RC, wanted $2" "stderr: $(head -c 400 "$T/err")" \
			"stdout: $(head -c 600 "$T/out")"; fi
}

# expect_json NAME JQ-EXPR WANT: on the last stdout
expect_json() {
	got=$(jq -r "$2" <"$T/out" 2>&1)
	if [ "$got" = "$3" ]; then ok "$1"; else
		not_ok "$1" "jq '$2' gave '$got', wanted '$3'" "stdout: $(head -c 600 "$T/out")"; fi
}

# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got '$2', wanted '$3'"; fi
}

# show FILE: copy a file to the console and the result port, indented
show() { sed 's/^/    /' "$1" | while IFS= read -r l; do say "$l"; done; }

finish() { exit $((FAILS > 0)); }
