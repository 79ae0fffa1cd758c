#!/bin/sh
# probe on formatted media, what the contract and cdtail(1) promise: the
# "formatted" note never changes the verdict (exit 11 for a DVD-RAM that
# over-reports a block, 10 for a BD-RE that hides blocks).
. "$(dirname "$0")/lib.sh"

ISO="$FIX/iso9660.iso"

# --- the formatted note never changes the verdict -------------------------------
PAD="$T/pad.iso"
cp "$ISO" "$PAD"
truncate -s $((3000 * 2048)) "$PAD"
run probe --json "sim:$PAD,profile=dvd-ram,extra=1"
expect_rc "dvd-ram over-reporting one block: short, exit 11" 11
expect_json "dvd-ram extra=1: verdict" .verdict short
expect_json "dvd-ram extra=1: hidden_blocks" .hidden_blocks -1
expect_json "dvd-ram extra=1: still noted formatted" '.notes | index("formatted") != null' true
run probe --json "sim:$PAD,profile=bd-re,hide=124"
expect_rc "bd-re hide=124: hidden tail, exit 10" 10
expect_json "bd-re hide=124: verdict" .verdict hidden-tail
expect_json "bd-re hide=124: hidden_blocks" .hidden_blocks 124
expect_json "bd-re hide=124: still noted formatted" '.notes | index("formatted") != null' true
run probe --json "sim:$PAD,profile=dvd+rw,formatted=5000"
expect_rc "dvd+rw formatted=5000: ok" 0
expect_json "dvd+rw formatted=5000: true is the formatted size" \
	'[.verdict, .true_blocks, .hidden_blocks] | map(tostring) | join(" ")' "ok 5000 0"
expect_json "dvd+rw formatted=5000: noted formatted" '.notes | index("formatted") != null' true
# the text output says the same as the JSON
run probe "sim:$PAD,profile=bd-re,hide=124"
expect_rc "bd-re hide=124, text: exit 10" 10
expect_grep "bd-re hide=124, text: the verdict" "$T/out" 'hidden-tail'

finish
