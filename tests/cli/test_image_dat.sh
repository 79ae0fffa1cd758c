#!/bin/sh
# OUT.dat (issue 33): image --raw writes a Logiqx datafile beside OUT.hash,
# as redump.org publishes them: read back by Python's XML parser, its game
# named after OUT, one rom for the sheet and one for each BIN, each rom's
# size, CRC-32, MD5 and SHA-1 those of the file on disk as Python computes
# them (zlib, hashlib), names with XML's special characters escaped.
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
for k in mixed iso; do
	python3 "$MODEL" disc "$k" "$T" || { not_ok "model.py disc $k"; finish; exit 1; }
done
mkdir -p "$T/o"

# check_dat DAT CUE: the datafile against the files the sheet names
check_dat() {
	python3 - "$1" "$2" <<'PY'
import hashlib, os, re, sys, zlib
import xml.etree.ElementTree as ET
dat, cue = sys.argv[1], sys.argv[2]
text = open(dat, encoding="utf-8").read()
bad = []
if not text.startswith('<?xml version="1.0"?>\n<!DOCTYPE datafile PUBLIC "-//Logiqx//DTD ROM Management Datafile//EN"'):
    bad.append("no XML declaration and Logiqx DOCTYPE")
root = ET.fromstring(text.encode("utf-8"))
game_name = os.path.basename(cue)[:-4]
if root.tag != "datafile":
    bad.append("root %s" % root.tag)
if root.findtext("header/name") != game_name or root.findtext("header/author") != "cdtail":
    bad.append("header %r" % [(e.tag, e.text) for e in root.find("header")])
games = root.findall("game")
if len(games) != 1 or games[0].get("name") != game_name:
    bad.append("games %r" % [g.get("name") for g in games])
if games and games[0].findtext("description") != game_name:
    bad.append("description")
names = [os.path.basename(cue)] + re.findall(r'^FILE "(.*)" BINARY', open(cue).read(), re.M)
roms = games[0].findall("rom") if games else []
if [r.get("name") for r in roms] != names:
    bad.append("roms %r, want %r" % ([r.get("name") for r in roms], names))
for r in roms:
    data = open(os.path.join(os.path.dirname(cue), r.get("name")), "rb").read()
    want = {"size": str(len(data)), "crc": "%08x" % zlib.crc32(data),
            "md5": hashlib.md5(data).hexdigest(), "sha1": hashlib.sha1(data).hexdigest()}
    got = {k: r.get(k) for k in want}
    if got != want:
        bad.append("%s: %r, want %r" % (r.get("name"), got, want))
print("; ".join(bad) if bad else "same")
PY
}

name="A & B's <disc>"
run image --raw "sim:$T/mixed.cue" "$T/o/$name.cue"
expect_rc "mixed: image --raw -> 0" 0
if [ -f "$T/o/$name.dat" ]; then ok "mixed: OUT.dat beside OUT.hash"; else
	not_ok "mixed: no OUT.dat" "$(ls "$T/o")"; fi
got=$(check_dat "$T/o/$name.dat" "$T/o/$name.cue" 2>&1)
if [ "$got" = same ]; then ok "mixed: OUT.dat parses, its roms are the files' (names escaped)"; else
	not_ok "mixed: OUT.dat" "$got"; fi
expect_grep "mixed: the name escaped for XML" "$T/o/$name.dat" \
	'<game name="A &amp; B&apos;s &lt;disc&gt;">'
# one track: "OUT.bin"
run image --raw "sim:$T/iso.cue" "$T/o/iso.cue"
got=$(check_dat "$T/o/iso.dat" "$T/o/iso.cue" 2>&1)
if [ "$got" = same ]; then ok "iso: OUT.dat of a one-track disc"; else
	not_ok "iso: OUT.dat" "$got"; fi
# --force over a finished run: the datafile is written again, still right
run image --raw --force "sim:$T/iso.cue" "$T/o/iso.cue"
expect_rc "iso: again with --force -> 0" 0
got=$(check_dat "$T/o/iso.dat" "$T/o/iso.cue" 2>&1)
if [ "$got" = same ]; then ok "iso: OUT.dat written again"; else
	not_ok "iso: OUT.dat again" "$got"; fi

finish
