#!/bin/sh
# CD-TEXT and the all-audio disc (issue 33): probe's raw check on a disc
# without data sectors reports what READ CD, C2 and Q do and never calls
# the drive untrusted for an EDC that audio does not have; the sheet's
# CD-TEXT lines, served by the emulated drive as READ TOC format 5, come
# back in probe's text and JSON and in image --raw's sheet and JSON.
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
for k in audio mixed; do
	python3 "$MODEL" disc "$k" "$T" || { not_ok "model.py disc $k"; finish; exit 1; }
done

# --- an all-audio CD: no EDC to check, not "not trusted" ---------------------
run probe "sim:$T/audio.cue"
expect_rc "audio: probe -> 0" 0
expect_grep "audio: raw line gives READ CD, C2, Q and says no EDC to check" "$T/out" \
	'^raw: +sectors, C2, subchannel Q, subchannel P-W \(READ CD at LBA 0, an audio sector: no EDC/ECC to check\)$'
expect_no_grep "audio: never 'not trusted'" "$T/out" 'not trusted'
run probe --json "sim:$T/audio.cue"
expect_json "audio: edc_ok null" '.raw.edc_ok' null
expect_json "audio: edc_note says why" '.raw.edc_note | test("audio sector")' true
expect_json "audio: C2 and Q reported" \
	'[.raw.sectors, .raw.c2, .raw.subchannel_q] | map(tostring) | join(",")' "true,true,true"
# a disc with a data track: the data sector is tried, its EDC right
run probe --json "sim:$T/mixed.cue"
expect_json "mixed: edc_ok true on its data track" '.raw.edc_ok' true
expect_json "mixed: no edc_note" '.raw | has("edc_note")' false

finish
