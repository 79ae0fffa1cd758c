#!/bin/sh
# probe on random discs of every kind the emulated drive knows (layout=,
# gap=, tao=, open=, profile=, formatted=, with hide=, extra=, runout= and
# an ISO 9660 volume in the last data session), checked against the
# independent model tests/random/layoutmodel.py, which knows only the
# contract and cdtail(1): the exit status, verdict, true, reported and
# hidden blocks, sessions, tracks, gaps, the filesystem source and the
# notes last-track-audio, appendable, tao-runout, formatted, form2,
# unconfirmed-tail (issue 23: a hidden tail of zeros, tail=zero); and, from
# the drive's trace, that no READ(10)/(12) touched an audio track or a
# gap between sessions (gap=hang cases would hang there).  Issue 28:
# volumes in the earlier sessions too and a bad block around some session's
# descriptors: the filesystem is the last session's, or none, never
# another's.
# PROBE_SEED picks the discs (default 12), PROBE_CASES how many (500; 40
# in a small run: valgrind, ASan).
. "$(dirname "$0")/lib.sh"

SEED=${PROBE_SEED:-12}
if [ -n "$SMALL" ]; then CASES=${PROBE_CASES:-40}; else CASES=${PROBE_CASES:-500}; fi
MODEL="$ROOT/tests/random/layoutmodel.py"

python3 "$MODEL" gen "$SEED" "$CASES" >"$T/cases"
IMG="$T/disc.img"
while read -r line; do
	keys=$(python3 "$MODEL" setup "$IMG" "$line")
	addr="sim:$IMG,$keys"
	rm -f "$T/trace"
	$TEST_WRAPPER "$CDTAIL" probe --json "$addr,trace=$T/trace" >"$T/out" 2>"$T/err"
	rc=$?
	reads=$(awk '$1 == "28" || $1 == "a8" { split($2, a, "="); split($3, b, "=")
		printf "%s:%s ", a[2], b[2] }' "$T/trace")
	printf '%s\t%s\t%s\t%s\n' "$line" "$rc" "$(tr -d '\n' <"$T/out")" "$reads"
done <"$T/cases" >"$T/results"

python3 "$MODEL" check <"$T/results" >"$T/verdicts"
bad=$(grep -c '^WRONG' "$T/verdicts")
total=$(grep -c . "$T/verdicts")
if [ "$total" -eq "$CASES" ] && [ "$bad" -eq 0 ]; then
	ok "probe: $total random discs (seed $SEED) as the model expects"
else
	not_ok "probe on random discs (seed $SEED)" "$bad of $total wrong ($CASES cases)" \
		"$(grep '^WRONG' "$T/verdicts" | head -n 8)"
fi
# the cases cover what they are for: several sessions, audio last, gap=hang
# reached with several sessions, hidden tails and short discs
for what in 'layout=[^ ]*/' 'audio:[0-9]* gap' 'layout=[^ ]*/[^ ]* gap=hang' ' hide=[1-9]' ' extra=[1-9]' ' tao=1' ' open=1' ' formatted=[1-9]' ' fs=[1-9]' ' toc=none' ' others=1' ' hbad=[0-9]' ' hide=[1-9].* tail=zero' ' hide=[1-9].* tail=data'; do
	n=$(grep -c -- "$what" "$T/cases")
	if [ "$n" -ge $((CASES / 40 + 1)) ]; then ok "cases with '$what': $n"
	else not_ok "enough cases with '$what'" "only $n of $CASES"; fi
done
finish
