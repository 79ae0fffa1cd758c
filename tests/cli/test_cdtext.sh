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

# --- CD-TEXT: the sheet's lines, the drive's packs, probe's report -----------
# audio.cue with CD-TEXT lines: the disc's before TRACK 01, each track's after
# its TRACK (a UTF-8 character of ISO 8859-1 in the disc's title)
python3 - "$T/audio.cue" "$T/text.cue" <<'PY'
import sys
s = open(sys.argv[1]).read()
s = ('CATALOG 0123456789012\nTITLE "Caf\u00e9 Songs"\nPERFORMER "The Band"\n'
     'SONGWRITER "Some One"\n') + s
s = s.replace('  TRACK 01 AUDIO\n', '  TRACK 01 AUDIO\n    TITLE "First"\n'
              '    PERFORMER "The Band"\n    COMPOSER "A Composer"\n')
s = s.replace('  TRACK 02 AUDIO\n', '  TRACK 02 AUDIO\n    TITLE "Second"\n'
              '    PERFORMER "The Band"\n    ARRANGER "An Arranger"\n    MESSAGE "A message"\n')
open(sys.argv[2], 'w').write(s)
PY
# what a CD-TEXT JSON object must hold: the sheet's text (jq)
TEXT_WANT='[(.blocks | length), .bad_crc, .blocks[0].language_name, .blocks[0].charset,
  .blocks[0].disc.title, .blocks[0].disc.performer, .blocks[0].disc.songwriter,
  (.blocks[0].tracks | map("\(.number):\(.title)/\(.performer)/\(.composer)/\(.arranger)/\(.message)"))[]]
  | map(tostring) | join("|")'
TEXT_GOT="1|0|English|ISO-8859-1|Café Songs|The Band|Some One|1:First/The Band/A Composer/null/null|2:Second/The Band/null/An Arranger/A message"

run probe --json "sim:$T/text.cue"
expect_rc "text: probe -> 0" 0
expect_json "text: probe's cd_text is the sheet's" ".cd_text | $TEXT_WANT" "$TEXT_GOT"
expect_json "text: packs counted" '.cd_text.packs > 3' true
run probe "sim:$T/text.cue"
expect_grep "text: probe's text names the block" "$T/out" '^cd-text: +1 block, [0-9]+ packs$'
expect_grep "text: probe's text has the disc's title" "$T/out" '^ +disc +TITLE +"Café Songs"$'
expect_grep "text: probe's text has track 2's message" "$T/out" '^ +track 2 +MESSAGE +"A message"$'
# cdtext=refuse: none, and no error
run probe --json "sim:$T/text.cue,cdtext=refuse"
expect_rc "cdtext=refuse: probe -> 0" 0
expect_json "cdtext=refuse: cd_text null" '.cd_text' null
run probe --json "sim:$T/audio.cue"
expect_json "a sheet without CD-TEXT: cd_text null" '.cd_text' null
run probe "sim:$T/audio.cue"
expect_no_grep "a sheet without CD-TEXT: no cd-text line" "$T/out" '^cd-text:'

# --- image --raw: the sheet's lines, the JSON --------------------------------
mkdir -p "$T/o"
run image --raw --json "sim:$T/text.cue" "$T/o/text.cue"
expect_rc "text: image --raw -> 0" 0
expect_json "text: image --raw's cd_text is the sheet's" ".cd_text | $TEXT_WANT" "$TEXT_GOT"
# the sheet: disc lines after CATALOG, a track's after its TRACK, in redumper's order
got=$(sed -n '1,4p' "$T/o/text.cue" | tr '\n' '|')
want='CATALOG 0123456789012|TITLE "Café Songs"|PERFORMER "The Band"|SONGWRITER "Some One"|'
if [ "$got" = "$want" ]; then ok "text: the sheet's disc lines after CATALOG"; else
	not_ok "text: the sheet's disc lines" "got $got" "want $want"; fi
got=$(sed -n '/TRACK 02/,/INDEX 01/p' "$T/o/text.cue" | tr '\n' '|')
want='  TRACK 02 AUDIO|    TITLE "Second"|    PERFORMER "The Band"|    ARRANGER "An Arranger"|    MESSAGE "A message"|'
case "$got" in "$want"*) ok "text: track 2's lines after its TRACK";;
	*) not_ok "text: track 2's lines" "got $got" "want $want...";; esac
run image --raw --json "sim:$T/text.cue,cdtext=refuse" "$T/o/none.cue"
expect_json "cdtext=refuse: image --raw's cd_text null" '.cd_text' null
expect_no_grep "cdtext=refuse: no TITLE line in the sheet" "$T/o/none.cue" 'TITLE'
# the sheet read back: by cdtail's drive (the same text), by verify --cue
run probe --json "sim:$T/o/text.cue"
expect_json "text: the written sheet serves the same CD-TEXT" ".cd_text | $TEXT_WANT" "$TEXT_GOT"
run verify --cue "$T/o/text.cue" "sim:$T/text.cue"
expect_rc "text: verify --cue of the sheet with CD-TEXT -> 0" 0
if command -v cueprint >/dev/null 2>&1; then
	cueprint "$T/o/text.cue" >"$T/cp" 2>&1
	if grep -q '^title:.*Café Songs$' "$T/cp" && grep -q '^arranger:.*An Arranger$' "$T/cp" &&
	   grep -q '^no. of tracks:.*2$' "$T/cp"; then
		ok "text: cueprint reads the sheet's CD-TEXT"; else
		not_ok "text: cueprint reads the sheet" "$(head -12 "$T/cp")"; fi
else
	echo "# cueprint not installed (Debian cuetools): skipped"
fi
# bchunk takes one BIN: a one-track disc with CD-TEXT
if command -v bchunk >/dev/null 2>&1; then
	sed -n '1,/INDEX 01/p' "$T/text.cue" | sed '/^FILE "audio (Track 2)/,$d' >"$T/one.cue"
	run image --raw "sim:$T/one.cue" "$T/o/one.cue"
	expect_grep "one track: TITLE in the sheet" "$T/o/one.cue" '^    TITLE "First"$'
	(cd "$T/o" && bchunk one.bin one.cue bc >"$T/bc" 2>&1)
	if cmp -s "$T/o/bc01.cdr" "$T/audio (Track 1).bin"; then
		ok "bchunk reads the sheet with CD-TEXT: track 1 is the audio"; else
		not_ok "bchunk reads the sheet with CD-TEXT" "$(tail -5 "$T/bc")"; fi
else
	echo "# bchunk not installed (Debian bchunk): skipped"
fi

finish
