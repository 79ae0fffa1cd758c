#!/bin/sh
# Run every tests/cli/test_*.sh against $CDTAIL; print one closing line
# "N passed, N failed" and exit non-zero when any check failed.
here=$(cd "$(dirname "$0")" && pwd)
: "${CDTAIL:?set CDTAIL to the binary under test}"
export CDTAIL
total_pass=0
total_fail=0
for t in "$here"/test_*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	out=$(sh "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -v '^RESULT ' | sed "s/^/[$name] /"
	res=$(printf '%s\n' "$out" | grep '^RESULT ' | tail -1)
	if [ -z "$res" ]; then
		echo "[$name] did not finish (exit $rc)"
		total_fail=$((total_fail + 1))
		continue
	fi
	set -- $res
	total_pass=$((total_pass + $2))
	total_fail=$((total_fail + $3))
done
echo "cli: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
