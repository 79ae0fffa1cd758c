#!/bin/sh
# image --raw --single-file (issue 33): one BIN and a one-FILE sheet.  For
# every disc kind tests/raw/model.py makes, a multi-file run and a
# single-file run of the same disc (the same base name, two folders): the
# one BIN is the track files one after another, OUT.hash and the JSON's
# per-track checksums are the multi-file run's (each over its track's
# range), the sheet's INDEX times count on the whole stream (checked
# against the model's layout), and Debian's cuetools (cueprint,
# cuebreakpoints) and bchunk read it: bchunk's tracks are the BIN's ranges.
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
CHECK="$ROOT/tests/raw/bincheck.py"
for k in mixed cdextra vcd audio iso multi; do
	python3 "$MODEL" disc "$k" "$T" || { not_ok "model.py disc $k"; finish; exit 1; }
done
mkdir "$T/m" "$T/s"

# sheet_check KIND SHEET: INDEX 00/01 of each track at its place in the
# stream, as the model's layout puts the files one after another
sheet_check() {
	python3 - "$T/$1.json" "$2" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
tracks, at, want = d["tracks"], 0, []
for i, t in enumerate(tracks):
    pregap = t["pregap"] if i else 0
    if pregap:
        want.append((t["number"], 0, at))
    want.append((t["number"], 1, at + pregap))
    end = t["start"] + t["blocks"] if i + 1 < len(tracks) else d["blocks"]
    at += end - (t["start"] - pregap)
got, track = [], None
for line in text.splitlines():
    m = re.match(r"^  TRACK (\d\d) ", line)
    if m:
        track = int(m.group(1))
    m = re.match(r"^    INDEX (\d\d) (\d\d):(\d\d):(\d\d)$", line)
    if m:
        n, mm, ss, ff = map(int, m.groups())
        got.append((track, n, (mm * 60 + ss) * 75 + ff))
files = re.findall(r'^FILE "(.*)" BINARY$', text, re.M)
bad = []
if got != want:
    bad.append("INDEX %s, want %s" % (got, want))
if len(files) != 1 or text.index("FILE") > text.index("TRACK"):
    bad.append("FILE lines %s" % files)
print("; ".join(bad) or "same")
PY
}

for k in mixed cdextra vcd audio iso multi; do
	run image --raw --json "sim:$T/$k.cue,trackinfo=pregap" "$T/m/d.cue"
	cp "$T/out" "$T/m.json"
	run image --raw --single-file --json "sim:$T/$k.cue,trackinfo=pregap" "$T/s/d.cue"
	expect_rc "$k: image --raw --single-file -> 0" 0
	expect_json "$k: every track's file is OUT.bin" '[.tracks[] | .file] | unique | tostring' \
		"[\"$T/s/d.bin\"]"
	expect_json "$k: single_file true" .single_file true
	# shellcheck disable=SC2046 # the multi-file run's files, in sheet order
	if jq -r '.tracks[] | .file' "$T/m.json" | tr '\n' '\0' | xargs -0 cat | cmp -s - "$T/s/d.bin"; then
		ok "$k: OUT.bin is the track files one after another"; else
		not_ok "$k: OUT.bin is the track files one after another"; fi
	if cmp -s "$T/m/d.hash" "$T/s/d.hash"; then ok "$k: OUT.hash as the multi-file run's"; else
		not_ok "$k: OUT.hash as the multi-file run's" "$(diff "$T/m/d.hash" "$T/s/d.hash" | head -4)"; fi
	want=$(jq -c '[.tracks[] | [.number, .sectors, .crc32, .md5, .sha1]]' "$T/m.json")
	expect_json "$k: JSON per-track checksums as the multi-file run's" \
		'[.tracks[] | [.number, .sectors, .crc32, .md5, .sha1]] | tostring' "$want"
	got=$(sheet_check "$k" "$T/s/d.cue")
	if [ "$got" = same ]; then ok "$k: one FILE, INDEX times on the whole stream"; else
		not_ok "$k: one FILE, INDEX times on the whole stream" "$got"; fi
	got=$(python3 "$CHECK" "$T/$k.json" "$T/s/d.cue")
	if [ "$got" = same ]; then ok "$k: the BIN holds the disc's sectors"; else
		not_ok "$k: the BIN holds the disc's sectors" "$got"; fi
	if [ "$(grep -c '^REM SESSION' "$T/s/d.cue")" = "$(grep -c '^REM SESSION' "$T/m/d.cue")" ]; then
		ok "$k: REM SESSION lines kept"; else not_ok "$k: REM SESSION lines kept"; fi
	# cuetools: cueprint's track count, cuebreakpoints' INDEX 01 of tracks 2..
	cueprint "$T/s/d.cue" >"$T/cp" 2>&1
	n=$(jq '.tracks | length' "$T/$k.json")
	expect_grep "$k: cueprint reads $n tracks" "$T/cp" "^no. of tracks:.*$n\$"
	cuebreakpoints "$T/s/d.cue" >"$T/bp" 2>&1
	want=$(awk '/^  TRACK/ { t++ } /^    INDEX 01/ && t > 1 { split($3, a, ":");
		printf "%d:%s.%s\n", a[1], a[2], a[3] }' "$T/s/d.cue")
	if [ "$(cat "$T/bp")" = "$want" ]; then ok "$k: cuebreakpoints at the INDEX 01 times"; else
		not_ok "$k: cuebreakpoints at the INDEX 01 times" "$(head -3 "$T/bp")" "want $want"; fi
	rm -f "$T/s/d.cue" "$T/s/d.bin" "$T/s/d.hash" "$T/m/d.cue" "$T/m/d"*.bin "$T/m/d.hash"
done

# --- bchunk: its tracks are the BIN's ranges: a data track's user data,
# audio from its INDEX 01 to the next track's first INDEX (the end) ---------
for k in mixed audio iso cdextra; do
	run image --raw --single-file --json "sim:$T/$k.cue,trackinfo=pregap" "$T/s/$k.cue"
	rm -rf "$T/bc" && mkdir "$T/bc"
	(cd "$T/bc" && bchunk "$T/s/$k.bin" "$T/s/$k.cue" t >"$T/bc.out" 2>&1)
	got=$(python3 - "$T/s/$k.cue" "$T/s/$k.bin" "$T/bc" <<'PY'
import os, re, sys
text, data, folder = open(sys.argv[1]).read(), open(sys.argv[2], "rb").read(), sys.argv[3]
tracks = []
for block in re.split(r"^  TRACK ", text, flags=re.M)[1:]:
    mode = block.split()[1]
    idx = [((int(m) * 60 + int(s)) * 75 + int(f)) for m, s, f in
           re.findall(r"INDEX \d\d (\d\d):(\d\d):(\d\d)", block)]
    tracks.append((mode, idx))
bad = []
for i, (mode, idx) in enumerate(tracks):
    end = tracks[i + 1][1][0] if i + 1 < len(tracks) else len(data) // 2352
    first = idx[-1]
    raw = data[first * 2352:end * 2352]
    if mode == "AUDIO":
        want, name = raw, "t%02d.cdr" % (i + 1)
    else:
        want = b"".join(raw[j + 16:j + 2064] for j in range(0, len(raw), 2352))
        name = "t%02d.iso" % (i + 1)
    path = os.path.join(folder, name)
    if not os.path.exists(path) or open(path, "rb").read() != want:
        bad.append("%s differs (%s)" % (name, os.path.exists(path)))
print("; ".join(bad) or "same %d" % len(tracks))
PY
)
	n=$(jq '.tracks | length' "$T/$k.json")
	if [ "$got" = "same $n" ]; then ok "$k: bchunk splits the one-FILE sheet into the BIN's ranges"; else
		not_ok "$k: bchunk splits the one-FILE sheet into the BIN's ranges" "$got" "$(tail -3 "$T/bc.out")"; fi
done

# --- with --subchannel: OUT.sub as the multi-file run's; resume; usage --------------
run image --raw --subchannel --json "sim:$T/cdextra.cue,trackinfo=pregap" "$T/m/x.cue"
run image --raw --single-file --subchannel --json "sim:$T/cdextra.cue,trackinfo=pregap" "$T/s/x.cue"
expect_rc "--single-file --subchannel -> 0" 0
if cmp -s "$T/m/x.sub" "$T/s/x.sub"; then ok "OUT.sub as the multi-file run's"; else
	not_ok "OUT.sub as the multi-file run's"; fi
bad="sim:$T/mixed.cue,trackinfo=pregap,bad=300-309"
run image --raw --single-file --json --map "$T/s/r.map" "$bad" "$T/s/r.cue"
expect_rc "bad= area: -> 4" 4
got=$(python3 "$CHECK" "$T/mixed.json" "$T/s/r.cue" --zero 300,301,302,303,304,305,306,307,308,309)
if [ "$got" = same ]; then ok "bad= area: zeros in OUT.bin there"; else not_ok "bad= area: zeros in OUT.bin there" "$got"; fi
run image --raw --single-file --json --map "$T/s/r.map" "sim:$T/mixed.cue,trackinfo=pregap" "$T/s/r.cue"
expect_rc "resume, the area reads now: -> 0" 0
got=$(python3 "$CHECK" "$T/mixed.json" "$T/s/r.cue")
if [ "$got" = same ]; then ok "resume: OUT.bin whole"; else not_ok "resume: OUT.bin whole" "$got"; fi
run image --raw --json --map "$T/s/r.map" "sim:$T/mixed.cue,trackinfo=pregap" "$T/s/r.cue"
expect_rc "a single-file map resumed without --single-file: refused -> 2" 2
expect_grep "says the track file is missing" "$T/err" 'Track 1\)\.bin is missing'
run image --single-file "sim:$T/iso.cue" "$T/s/x.iso"
expect_rc "--single-file without --raw: -> 2" 2
expect_grep "says it needs --raw" "$T/err" 'single-file is part of a raw image: it needs --raw'

finish
