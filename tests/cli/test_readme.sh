#!/bin/sh
# Every command README.md shows runs as written and prints what it shows
# (issue 14, point 7): readme_examples.py runs the sessions in a scratch
# directory where ./cdtail is the binary under test.
. "$(dirname "$0")/lib.sh"

W=$T/work
mkdir "$W"
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${TEST_WRAPPER:-}" "$CDTAIL" >"$W/cdtail"
chmod +x "$W/cdtail"
ln -s "$FIX" "$W/fixtures"
python3 "$ROOT/tests/cli/readme_examples.py" "$ROOT/README.md" "$W" >"$T/res"
rc=$?
cat "$T/res"
PASS=$(grep -c '^ok - ' "$T/res")
FAIL=$(grep -c '^not ok - ' "$T/res")
if [ $rc -ne 0 ] && [ "$FAIL" -eq 0 ]; then not_ok "README examples: the runner failed (exit $rc)"; fi

# the runner itself: a wrong output, a "..." and a continued command
printf '    $ echo a; echo b\n    a\n    c\n\n    $ for i in 1 2 3; do\n    > echo $i; done\n    1\n    ...\n' >"$T/bad.md"
if python3 "$ROOT/tests/cli/readme_examples.py" "$T/bad.md" "$W" >"$T/bad.res"; then
	not_ok "runner: a wrong output fails" "$(cat "$T/bad.res")"; else ok "runner: a wrong output fails"; fi
if grep -q '^not ok - bad.md:1\|^not ok - README.md:1: echo a' "$T/bad.res" && grep -q '^ok - .*for i in 1 2 3' "$T/bad.res"; then
	ok "runner: '...' and '> ' continuations"; else not_ok "runner: '...' and '> ' continuations" "$(cat "$T/bad.res")"; fi
finish
