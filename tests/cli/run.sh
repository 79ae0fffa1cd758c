#!/bin/sh
# Run every tests/cli/test_*.sh against $CDTAIL; print one closing line
# "N passed, N failed" and exit non-zero when any check failed.
#
# CLI_JOBS files run at once (default 2, the machine's cores: most files run
# one cdtail at a time, so two at once halve the wall time).  The files in
# SERIAL check timing or terminal behaviour that a busy machine disturbs;
# they run afterwards, alone.  Each file's output is printed whole, in the
# order of the file names, with the seconds it took.
here=$(cd "$(dirname "$0")" && pwd)
: "${CDTAIL:?set CDTAIL to the binary under test}"
export CDTAIL
JOBS=${CLI_JOBS:-2}
SERIAL="test_screen test_image_safe"
# the longest files first, so that the pool does not end on one of them
LONG="test_fault_matrix test_image_raw_random test_dvd_random test_probe_layout_random
	test_endsearch_random test_image_random test_image_layout test_image_raw
	test_verify_random test_crash_safety test_map"

# run_one NAME: runs test NAME, leaving its output, status and seconds in
# $OUTDIR
run_one() {
	t0=$(date +%s)
	sh "$here/$1.sh" >"$OUTDIR/$1.out" 2>&1
	echo $? >"$OUTDIR/$1.rc"
	echo $(($(date +%s) - t0)) >"$OUTDIR/$1.s"
}

# the pool's workers call this script again for one file
if [ "${1:-}" = --one ]; then
	run_one "$2"
	exit 0
fi

OUTDIR=$(mktemp -d)
trap 'rm -rf "$OUTDIR"' EXIT
export OUTDIR

is_in() { case " $(echo $2) " in *" $1 "*) return 0 ;; esac; return 1; }

all=""
for t in "$here"/test_*.sh; do
	[ -e "$t" ] && all="$all $(basename "$t" .sh)"
done
pool=""
for n in $LONG; do is_in "$n" "$all" && pool="$pool $n"; done
for n in $all; do
	is_in "$n" "$SERIAL" || is_in "$n" "$LONG" || pool="$pool $n"
done

printf '%s\n' $pool | xargs -P "$JOBS" -n 1 sh "$0" --one
for n in $SERIAL; do is_in "$n" "$all" && run_one "$n"; done

total_pass=0
total_fail=0
for name in $all; do
	echo "[$name] took $(cat "$OUTDIR/$name.s" 2>/dev/null || echo '?') s"
	grep -v '^RESULT ' "$OUTDIR/$name.out" | sed "s/^/[$name] /"
	res=$(grep '^RESULT ' "$OUTDIR/$name.out" | tail -1)
	if [ -z "$res" ]; then
		echo "[$name] did not finish (exit $(cat "$OUTDIR/$name.rc" 2>/dev/null))"
		total_fail=$((total_fail + 1))
		continue
	fi
	set -- $res
	total_pass=$((total_pass + $2))
	total_fail=$((total_fail + $3))
done
echo "cli: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
