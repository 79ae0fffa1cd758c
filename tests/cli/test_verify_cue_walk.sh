#!/bin/sh
# verify --cue walks the disc as verify does (issue 31, one walker): the
# engine's in-order pass over the raw reader.  A medium change ends the run
# (exit 3, "the medium changed", the JSON error object), never a verdict on
# blocks of two discs; a sector that times out is an unreadable one, four
# different ones in a row mean the drive stopped answering.
. "$(dirname "$0")/lib.sh"

mkdir "$T/cue"
python3 "$ROOT/tests/raw/model.py" disc mixed "$T/cue" >/dev/null ||
	not_ok "model.py disc mixed"
CUE="$T/cue/mixed.cue"

# --- a medium change -----------------------------------------------------------
# The emulated CUE disc serves change=N alone (the same disc again): with no
# identity that too ends the run.  The trace of a run without a change gives
# the command count; the change meets one of verify's last READ CDs.
run verify --json --cue "$CUE" "sim:$CUE,cost=0/0,trace=$T/cue.tr"
expect_rc "no change: identical -> 0" 0
n=$(wc -l <"$T/cue.tr")
if tail -n 4 "$T/cue.tr" | grep -qv '^be '; then
	not_ok "its last commands are READ CD" "$(tail -n 4 "$T/cue.tr")"
else
	ok "its last commands are READ CD"
fi
for at in $((n - 3)) $((n - 10)); do
	run verify --json --cue "$CUE" "sim:$CUE,cost=0/0,change=$at"
	expect_rc "change at command $at: exit 3" 3
	expect_json "change at command $at: the JSON error object" \
		'[.error.status, (.error.message | test("^verify: the medium changed"))] | map(tostring) | join(" ")' \
		"3 true"
	expect_no_grep "change at command $at: no verdict" "$T/out" '"verdict"'
done

# --- timeouts: the engine's rule, as verify's ----------------------------------
run verify --json --timeout 1 --cue "$CUE" "sim:$CUE,cost=0/0,ready=0,fault=timeout@300-300"
expect_rc "one sector times out: unreadable -> 4" 4
expect_json "one sector times out: it is the bad one" '.bad_blocks | tostring' '[[300,300]]'
run verify --json --timeout 1 --cue "$CUE" "sim:$CUE,cost=0/0,ready=0,fault=timeout@300-303"
expect_rc "four sectors time out: the drive stopped answering -> 3" 3
expect_json "four sectors time out: says so" .error.message \
	"verify: the drive stopped answering: 4 reads of different blocks in a row did not complete within the timeout (the last at LBA 303); run the same command again when it answers"
finish
