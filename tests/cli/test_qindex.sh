#!/bin/sh
# Pregaps and index marks from subchannel Q (issue 33; probe/qindex.c):
# on the emulated drive's default (trackinfo=index1, READ TRACK
# INFORMATION starts a track at index 01) as on trackinfo=pregap, a
# Mode 2 Form 1 then Form 2 disc with INDEX 00 in track 2's own file
# (vcd), two audio tracks with a 2-second INDEX 00 (audio), a PREGAP before
# a second audio track (mixed), a later session's first track with its
# pregap, stored (cdextra) or made by the drive (multi): probe shows the pregaps and indexes, image --raw writes
# each track's file from its pregap (tests/raw/bincheck.py builds them
# apart) with INDEX 00/01 in the sheet.  INDEX 02.. from a sheet's INDEX
# lines come back as INDEX lines and JSON indexes; formatted Q and raw P-W
# give the same; a drive without Q says so in the sheet and the JSON.
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
CHECK="$ROOT/tests/raw/bincheck.py"
for k in vcd audio mixed cdextra multi; do
	python3 "$MODEL" disc "$k" "$T" || { not_ok "model.py disc $k"; finish; exit 1; }
done
mkdir "$T/o"

bins() {
	got=$(python3 "$CHECK" "$T/$2.json" "$3" --split 2>&1)
	if [ "$got" = same ]; then ok "$1"; else not_ok "$1" "$got"; fi
}

# the pregaps of KIND.json as "number:pregap" for tracks after the first
want_pregaps() {
	jq -r '[.tracks[1:][] | "\(.number):\(.pregap)"] | join(",")' "$T/$1.json"
}

for style in index1 pregap; do
	for k in vcd audio mixed cdextra multi; do
		DEV="sim:$T/$k.cue,trackinfo=$style"
		run probe --json "$DEV"
		expect_json "$k, trackinfo=$style: probe's pregaps from Q" \
			'[.tracks[1:][] | "\(.number):\(.pregap)"] | join(",")' "$(want_pregaps "$k")"
		expect_json "$k, trackinfo=$style: probe's track starts" \
			'[.tracks[] | .start] | join(",")' \
			"$(jq -r '[.tracks[] | .start] | join(",")' "$T/$k.json")"
		expect_json "$k, trackinfo=$style: Q gave them" .qmarks found
		expect_json "$k, trackinfo=$style: index 00 where the pregap begins" \
			'[.tracks[] | .indexes | map("\(.number)@\(.lba)") | join(" ")] | join(",")' \
			"$(jq -r '[.tracks[] | if .pregap > 0 and .number > 1 then
				"0@\(.start - .pregap) 1@\(.start)" else "1@\(.start)" end] | join(",")' \
				"$T/$k.json")"
		rm -f "$T/o/$k"*
		run image --raw --json "$DEV" "$T/o/$k.cue"
		expect_rc "$k, trackinfo=$style: image --raw -> 0" 0
		bins "$k, trackinfo=$style: each track's file from its pregap" "$k" "$T/o/$k.cue"
		expect_json "$k, trackinfo=$style: JSON pregaps" \
			'[.tracks[1:][] | "\(.number):\(.pregap)"] | join(",")' "$(want_pregaps "$k")"
		n=$(jq '.tracks | length' "$T/$k.json")
		expect_json "$k, trackinfo=$style: Q reads counted, a few a track" \
			"(.q_reads > 0 and .q_reads <= 5 * $n)" true
	done
done
expect_grep "vcd: track 2's INDEX 00 in its own file" "$T/o/vcd.cue" '^    INDEX 00 00:00:00$'
expect_grep "vcd: and its INDEX 01 2 s in" "$T/o/vcd.cue" '^    INDEX 01 00:02:00$'
expect_grep "mixed: the PREGAP stored at track 3's file's start" "$T/o/mixed.cue" \
	'TRACK 03 AUDIO'
if [ "$(grep -c '^    INDEX 00 00:00:00$' "$T/o/mixed.cue")" = 2 ]; then
	ok "mixed: INDEX 00 for tracks 2 and 3"
else not_ok "mixed: INDEX 00 for tracks 2 and 3" "$(cat "$T/o/mixed.cue")"; fi
# a later session's first track: its 2 s pregap at the end of the gap,
# made by the drive where the sheet stores none, in the track's file
if [ "$(grep -c '^    INDEX 00 00:00:00$' "$T/o/multi.cue")" = 2 ] &&
	[ "$(grep -c '^    INDEX 01 00:02:00$' "$T/o/multi.cue")" = 2 ]; then
	ok "multi: sessions 2 and 3 start with their pregaps"
else not_ok "multi: sessions 2 and 3 start with their pregaps" "$(cat "$T/o/multi.cue")"; fi
expect_no_grep "a drive with Q: no REM about it" "$T/o/vcd.cue" 'subchannel Q'

# --- index marks 02.. from the sheet, back in the sheet and the JSON --------
cat >"$T/idx.cue" <<EOF
FILE "audio (Track 1).bin" BINARY
  TRACK 01 AUDIO
    INDEX 01 00:00:00
    INDEX 02 00:01:00
FILE "audio (Track 2).bin" BINARY
  TRACK 02 AUDIO
    INDEX 00 00:00:00
    INDEX 01 00:02:00
    INDEX 02 00:03:10
    INDEX 04 00:05:00
EOF
for sub in all q pw; do
	DEV="sim:$T/idx.cue,subchannel=$sub"
	run probe --json "$DEV"
	expect_json "marks, subchannel=$sub: probe's indexes" \
		'[.tracks[] | .indexes | map("\(.number)@\(.lba)") | join(" ")] | join(",")' \
		"1@0 2@75,0@300 1@450 2@535 4@675"
	run probe "$DEV"
	expect_grep "marks, subchannel=$sub: the table shows them" "$T/out" \
		'^ +2 +1 audio +450 +300 +150  audio  index 02 at 535, 04 at 675$'
	rm -f "$T/o/i"*
	run image --raw --json "$DEV" "$T/o/i.cue"
	expect_rc "marks, subchannel=$sub: image --raw -> 0" 0
	expect_json "marks, subchannel=$sub: JSON indexes" \
		'[.tracks[] | .indexes | map("\(.number)@\(.lba)") | join(" ")] | join(",")' \
		"1@0 2@75,0@300 1@450 2@535 4@675"
	sed 's/"audio (/"i (/' "$T/idx.cue" >"$T/want.cue"
	if grep -v '^REM' "$T/o/i.cue" | diff - "$T/want.cue" >"$T/diff"; then
		ok "marks, subchannel=$sub: the sheet's INDEX lines are the source's"
	else not_ok "marks, subchannel=$sub: the sheet's INDEX lines are the source's" \
		"$(cat "$T/diff")"; fi
	expect_json "marks, subchannel=$sub: no note" '.notes | length' 0
done
# marks cost about 18 reads each, never a scan (the disc is 750 blocks)
expect_json "marks: the reads are a search's" '.q_reads < 60' true
# the written sheet served again gives the same sheet and files
mkdir "$T/o2"
run image --raw --json "sim:$T/o/i.cue" "$T/o2/i.cue"
if cmp -s "$T/o/i.cue" "$T/o2/i.cue" && cmp -s "$T/o/i (Track 2).bin" "$T/o2/i (Track 2).bin"
then ok "marks: the written sheet round-trips"
else not_ok "marks: the written sheet round-trips" "$(diff "$T/o/i.cue" "$T/o2/i.cue")"; fi

# --- a drive without Q: said, never silently ---------------------------------
DEV="sim:$T/idx.cue,trackinfo=pregap,subchannel=none"
run probe --json "$DEV"
expect_json "no Q: probe says so" '.qmarks + " " + (.notes | join(" "))' \
	"no-q last-track-audio no-subchannel-q"
expect_json "no Q: the drive's own pregaps kept" '[.tracks[] | .pregap] | join(",")' "0,150"
expect_json "no Q: no marks" '[.tracks[] | .indexes | length] | join(",")' "1,2"
run probe "$DEV"
expect_grep "no Q: the text note" "$T/out" '^note: +no-subchannel-q'
rm -f "$T/o/i"*
run image --raw --json "$DEV" "$T/o/i.cue"
expect_rc "no Q: image --raw -> 0" 0
expect_json "no Q: JSON note" '.notes | join(",")' no-subchannel-q
expect_json "no Q: no reads spent on it" .q_reads 0
expect_grep "no Q: the sheet's REM line" "$T/o/i.cue" '^REM cdtail: the drive gives no subchannel Q'
expect_no_grep "no Q: no INDEX 02" "$T/o/i.cue" 'INDEX 0[2-9]'
rm -f "$T/o/i"*
run image --raw "$DEV" "$T/o/i.cue"
expect_grep "no Q: image --raw's text says so" "$T/out" '^note: +no-subchannel-q'
rm -f "$T/o/i"*
run image --raw "sim:$T/idx.cue" "$T/o/i.cue"
expect_grep "with Q: image --raw's text says how pregaps were found" "$T/out" \
	'^q: +pregaps and index marks from subchannel Q, [0-9]+ reads$'
# no Q on a drive that starts tracks at index 01: the audio pregap is not known
run probe --json "sim:$T/audio.cue,subchannel=none"
expect_json "no Q, index1: the pregap unknown, and said" \
	'"\(.tracks[1].pregap) \(.notes | index("no-subchannel-q") != null)"' "0 true"

# --- Q against the other answers: Q's pregap stands, the difference a note ----
# a Mode 2 track ending in 10 Form 2 sectors, then audio without a pregap:
# READ(10)'s 05/64/00 run at the data track's end looks like the audio's pregap
python3 - "$ROOT/tests/raw" "$T/f2end.bin" <<'PY'
import random, sys
sys.path.insert(0, sys.argv[1])
import model
rnd = random.Random(1)
out = []
for lba in range(60):
    if lba < 50:
        out.append(model.mode2(lba, bytes([1, 0, 0x08, 0]), bytes(rnd.randrange(256) for _ in range(2048))))
    else:
        out.append(model.mode2(lba, bytes([1, 1, 0x24, 0x0f]),
                               bytes(rnd.randrange(256) for _ in range(2324)), form2_edc=True))
open(sys.argv[2], "wb").write(b"".join(out))
PY
printf 'FILE "f2end.bin" BINARY\n  TRACK 01 MODE2/2352\n    INDEX 01 00:00:00\nFILE "audio (Track 1).bin" BINARY\n  TRACK 02 AUDIO\n    INDEX 01 00:00:00\n' >"$T/differ.cue"
run probe --json "sim:$T/differ.cue,subchannel=none"
expect_json "Form 2 then audio, no Q: READ(10) takes 10 blocks for a pregap" \
	'[.tracks[] | "\(.blocks)/\(.pregap)"] | join(",")' "50/0,300/10"
run probe --json "sim:$T/differ.cue"
expect_json "Form 2 then audio: Q says no pregap, the data track whole" \
	'[.tracks[] | "\(.blocks)/\(.pregap)"] | join(",")' "60/0,300/0"
expect_json "Form 2 then audio: the difference counted and noted" \
	'"\(.q_differs) \(.notes | index("pregap-differs") != null)"' "1 true"
run probe "sim:$T/differ.cue"
expect_grep "Form 2 then audio: the text note" "$T/out" '^note: +pregap-differs: 1 track'

# --- bad sheets of index marks -----------------------------------------------
printf 'FILE "audio (Track 1).bin" BINARY\nTRACK 01 AUDIO\nINDEX 01 00:00:00\nINDEX 03 00:01:00\nINDEX 02 00:02:00\n' >"$T/bad.cue"
run probe "sim:$T/bad.cue"
expect_rc "INDEX numbers falling: usage error" 2
expect_grep "INDEX numbers falling: named" "$T/err" 'line 5: index numbers must rise'
run probe "sim:$T/audio.cue,subchannel=some"
expect_rc "subchannel=some: usage error" 2

finish
