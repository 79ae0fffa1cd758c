#!/bin/sh
# The emulated drive holding CUE/BIN discs of every kind (sim:FILE.cue),
# under the real CLI.  tests/raw/model.py, an independent Python model,
# writes each disc (mixed mode with audio pregaps, CD-Extra, a Video CD of
# Form 1 and Form 2, audio, an ISO as MODE1/2048, three sessions, a sector
# with a wrong EDC) and KIND.json, the layout the CUE describes; probe
# --json must give that layout, each track's sector mode and the drive's
# raw capability, and image must give the data tracks' user data.
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
KINDS="mixed cdextra vcd audio iso multi bad"
for k in $KINDS; do
	python3 "$MODEL" disc "$k" "$T" || { not_ok "model.py disc $k"; finish; exit 1; }
done

# compare_layout NAME: probe's JSON in $T/out against $T/NAME.json
compare_layout() {
	got=$(python3 - "$T/out" "$T/$1.json" <<'PY'
import json, sys
got = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
bad = []
if got["true_blocks"] != want["blocks"]:
    bad.append("true_blocks %s, want %s" % (got["true_blocks"], want["blocks"]))
if got["sessions"] != want["sessions"]:
    bad.append("sessions %s, want %s" % (got["sessions"], want["sessions"]))
if len(got["tracks"]) != len(want["tracks"]):
    bad.append("%d tracks, want %d" % (len(got["tracks"]), len(want["tracks"])))
for g, w in zip(got["tracks"], want["tracks"]):
    for key in ("number", "session", "mode", "start", "blocks", "sector_mode"):
        if g.get(key) != w[key]:
            bad.append("track %d %s %s, want %s" % (w["number"], key, g.get(key), w[key]))
# a gap ends where the next session's first track (its pregap, if the
# probe reports one) starts: the inter-session area the sheet leaves out
for gap, w in zip(got["gaps"], want["gaps"]):
    nxt = [t for t in got["tracks"] if t["start"] > gap["start"]][0]
    end = gap["start"] + gap["blocks"] + nxt.get("pregap", 0)
    want_end = w["start"] + w["blocks"] + [t for t in want["tracks"]
                                           if t["start"] > w["start"]][0]["pregap"]
    if gap["start"] != w["start"] or end != want_end:
        bad.append("gap %s, want %s" % (gap, w))
if len(got["gaps"]) != len(want["gaps"]):
    bad.append("%d gaps, want %d" % (len(got["gaps"]), len(want["gaps"])))
raw = got["raw"]
if not (raw and raw["sectors"] and raw["c2"] and raw["subchannel_q"] and raw["subchannel_pw"]):
    bad.append("raw %s" % raw)
print("; ".join(bad))
PY
)
	if [ -z "$got" ]; then ok "$1: probe gives the layout the CUE describes"; else
		not_ok "$1: probe's layout" "$got"; fi
}

# The layout the CUE describes, pregaps included, is what a drive tells
# when READ TRACK INFORMATION starts each track at its pregap (trackinfo=
# pregap, as CDEmu's libMirage answers).  A drive that gives index 01 only
# cannot show an audio pregap after an audio track: the images below check
# that view.
for k in $KINDS; do
	run probe --json "sim:$T/$k.cue,trackinfo=pregap"
	expect_rc "$k: probe -> 0" 0
	expect_json "$k: verdict ok" .verdict ok
	compare_layout "$k"
done

# --- the text: the sector column and the raw line ---------------------------
run probe "sim:$T/mixed.cue,trackinfo=pregap"
expect_grep "text: sector modes in the track table" "$T/out" '^ +2 +1 audio +270 +300 +150  audio$'
expect_grep "text: what the drive reads raw" "$T/out" \
	'^raw: +sectors, C2, subchannel Q, subchannel P-W \(READ CD at LBA 0, EDC/ECC right\)$'
run probe "sim:$T/vcd.cue,trackinfo=pregap"
expect_grep "text: a Video CD's Form 2 track" "$T/out" '^ +2 +1 data +250 +300 +150  mode2-form2$'
# a plain image: READ CD refused, no raw line, raw says so in JSON
run probe --json "sim:$T/iso (Track 1).iso"
expect_json "plain image: raw tried, no sectors" '.raw.sectors' false
expect_json "plain image: no sector_mode" '.tracks[0] | has("sector_mode")' false
run probe "sim:$T/iso (Track 1).iso"
expect_no_grep "plain image: no raw line" "$T/out" '^raw:'

# --- the header witnesses the end search ---------------------------------------
run probe --json "sim:$T/iso.cue,hide=10,past=repeat"
expect_rc "past=repeat on a CUE disc: hidden tail -> 10" 10
expect_json "past=repeat: the header stops the search at 300" .true_blocks 300
# a drive that reads the lead-out: READ(10) zeros past 300, READ CD Mode 0 sectors
run probe --json "sim:$T/iso.cue,hide=10,past=zero"
expect_rc "past=zero on a CUE disc: hidden tail -> 10" 10
expect_json "past=zero: a lead-out sector is not data, the search stops at 300" .true_blocks 300
# no header on the plain ISO: the repeated block is filler, never hidden data (issue 32)
run probe --json "sim:$T/iso (Track 1).iso,hide=10,past=repeat"
expect_json "past=repeat on the plain ISO: the search stops at 300" .true_blocks 300
expect_json "past=repeat on the plain ISO: the repeats unconfirmed" \
	'.notes | index("unconfirmed-tail") != null' true

# --- readcd=ide: a drive that makes raw sectors up (QEMU's ide-cd) -------------
run probe --json "sim:$T/iso (Track 1).iso,readcd=ide"
expect_json "readcd=ide: raw sectors, no C2, no Q, EDC/ECC not right" \
	'[.raw.sectors, .raw.c2, .raw.subchannel_q, .raw.edc_ok] | map(tostring) | join(",")' \
	"true,false,false,false"
expect_json "readcd=ide: the header's mode still says mode1" '.tracks[0].sector_mode' mode1
run probe "sim:$T/iso (Track 1).iso,readcd=ide"
expect_grep "readcd=ide: text says not trusted" "$T/out" \
	'^raw: +sectors \(READ CD at LBA 0, EDC/ECC not right: not trusted\)$'

# --- image: the ISO's bytes back; the mixed disc's data track ----------------
run image --json "sim:$T/iso.cue" "$T/iso.out"
expect_rc "iso: image -> 0" 0
if cmp -s "$T/iso.out" "$T/iso (Track 1).iso"; then ok "iso: the image is the ISO"; else
	not_ok "iso: the image differs from the ISO"; fi
# The audio pregaps (index 00 before each INDEX 01) answer READ(10) with
# 05/64/00 and are skipped, never bad.  A drive that gives index 01 only:
# the pregap after the data track is found by reads (issue 23), the one
# between the audio tracks is audio inside track 2.
run image --json "sim:$T/mixed.cue,trackinfo=pregap" "$T/mixed-p.out"
expect_json "mixed, pregap-style drive: both pregaps and both audio tracks skipped" \
	'[.skipped[] | "\(.start)+\(.blocks) \(.why)"] | join(", ")' \
	'120+150 pregap, 270+300 audio, 570+150 pregap, 720+225 audio'
expect_json "mixed, pregap-style drive: complete" .verdict complete
run image --json "sim:$T/mixed.cue" "$T/mixed.out"
expect_json "mixed, index-01 drive: the data track's pregap and both audio tracks skipped" \
	'[.skipped[] | "\(.start)+\(.blocks) \(.why)"] | join(", ")' \
	'120+150 pregap, 270+450 audio, 720+225 audio'
expect_json "mixed, index-01 drive: complete" .verdict complete
run image --json "sim:$T/cdextra.cue" "$T/cdextra.out"
expect_rc "cdextra: image -> 0" 0
expect_json "cdextra: the audio session and the gap skipped" \
	'[.skipped[] | .why] | join(",")' "audio,audio,gap"
python3 - "$T/cdextra (Track 3).bin" "$T/cdextra.out" <<'PY' >"$T/cmp"
import sys
raw = open(sys.argv[1], "rb").read()[150 * 2352:]	# after the stored pregap
out = open(sys.argv[2], "rb").read()[11850 * 2048:]
user = b"".join(raw[i * 2352 + 16:i * 2352 + 2064] for i in range(len(raw) // 2352))
print("same" if out == user else "differs")
PY
expect_grep "cdextra: the data session's user data imaged at 11850" "$T/cmp" '^same$'
python3 - "$T/mixed (Track 1).bin" "$T/mixed.out" <<'PY' >"$T/cmp"
import sys
raw = open(sys.argv[1], "rb").read()
out = open(sys.argv[2], "rb").read()
user = b"".join(raw[i * 2352 + 16:i * 2352 + 2064] for i in range(len(raw) // 2352))
print("same" if out[:len(user)] == user else "differs")
PY
expect_grep "mixed: track 1's user data imaged" "$T/cmp" '^same$'
# the sector with a wrong EDC: READ(10) fails, so it is a bad block of the image
run image --json "sim:$T/bad.cue" "$T/bad.out"
expect_rc "bad EDC: image -> 4" 4
expect_json "bad EDC: one bad block" .bad_count 1

# --- the sheet's FILE paths and line lengths (issue 32) ------------------------
mkdir "$T/up" "$T/up/sub"
mkimage "$T/up/a.bin" 300 2352
printf 'FILE "../a.bin" BINARY\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n' >"$T/up/sub/rel.cue"
printf 'FILE "%s" BINARY\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n' "$T/up/a.bin" >"$T/up/abs.cue"
for k in sub/rel abs; do
	run probe --json "sim:$T/up/$k.cue"
	expect_rc "sim:$k.cue: a FILE outside the sheet's folder -> 2" 2
	expect_json "sim:$k.cue: the message names the line and the key" \
		'.error.message | test("cue line 1: FILE outside the sheet.s folder .*cuepaths=any")' true
	run probe --json "sim:$T/up/$k.cue,cuepaths=inside"
	expect_rc "sim:$k.cue,cuepaths=inside (the default) -> 2" 2
	run probe --json "sim:$T/up/$k.cue,cuepaths=any"
	expect_rc "sim:$k.cue,cuepaths=any: the disc -> 0" 0
	expect_json "sim:$k.cue,cuepaths=any: its 300 sectors" .true_blocks 300
done
run probe "sim:$T/up/abs.cue,cuepaths=some"
expect_rc "cuepaths=some -> 2" 2
expect_err_line "cuepaths=some: names the key" "'cuepaths'"
printf 'FILE "a.bin" BINARY\n  TRACK 01 AUDIO\n    REM %s\n    INDEX 01 00:00:00\n' \
	"$(printf '%01100d' 0)" >"$T/up/long.cue"
run probe "sim:$T/up/long.cue"
expect_rc "a sheet line of 1106 characters -> 2" 2
expect_err_line "a long line: named, never cut" "long\.cue: cue line 3: longer than 1023 characters"

finish
