#!/bin/sh
# The DFXML of image --raw runs (issue 34), parsed back: every byte run
# names the track file it lies in and lies at its place in it, checked
# against the files' own bytes (a track file run's MD5 and SHA-1 over its
# bytes, a bad area's bytes all zero), one file a track and --single-file,
# a bad area inside a track and one over two tracks.
. "$(dirname "$0")/lib.sh"
python3 "$ROOT/tests/raw/model.py" disc mixed "$T" || { not_ok "model.py disc mixed"; finish; exit 1; }
cd "$T" || exit 1
DEV="sim:$T/mixed.cue,trackinfo=pregap,bad=400-404:560-579"

# check XML: the byte runs against the files, the track runs against the record
check() {
	python3 - "$1" "$2" <<'PY'
import hashlib, json, os, sys, xml.etree.ElementTree as ET
NS = "{http://www.forensicswiki.org/wiki/Category:Digital_Forensics_XML}"
CT = "{urn:cdtail:acquisition}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == NS + "dfxml", root.tag
assert root.find(NS + "creator/" + NS + "program").text == "cdtail"
assert root.find(NS + "source/" + NS + "image_filename").text.startswith("sim:")
assert root.find(NS + "diskimageobject/" + NS + "sector_size").text == "2352"
rec = json.loads(open(sys.argv[2]).readlines()[-1])
runs = root.findall(NS + "diskimageobject/" + NS + "byte_runs/" + NS + "byte_run")
tracks = [r for r in runs if r.get(CT + "object") == "track-file"]
bad = [r for r in runs if r.get(CT + "object") == "bad-area"]
assert len(tracks) == len(rec["tracks"]) == 3, (len(tracks), rec["tracks"])
for r, t in zip(tracks, rec["tracks"]):
    assert r.get(CT + "file") == t["file"] and r.get(CT + "track") == str(t["number"]), r.attrib
    off, n = int(r.get("file_offset")), int(r.get("len"))
    assert n == t["sectors"] * 2352, (n, t)
    with open(r.get(CT + "file"), "rb") as f:
        f.seek(off)
        b = f.read(n)
    assert len(b) == n, (r.attrib, len(b))
    d = {h.get("type"): h.text for h in r.findall(NS + "hashdigest")}
    assert d == {"md5": hashlib.md5(b).hexdigest(), "sha1": hashlib.sha1(b).hexdigest()}, (r.attrib, d)
    assert d["md5"] == t["digests"]["md5"], (d, t)
# 400-404 inside track 2; 560-579 over tracks 2 and 3 (570): three runs, 25 sectors
assert [r.get(CT + "track") for r in bad] == ["2", "2", "3"], [r.attrib for r in bad]
assert sum(int(r.get("len")) for r in bad) == 25 * 2352, [r.attrib for r in bad]
for r in bad:
    assert r.get("fill") == "0", r.attrib
    with open(r.get(CT + "file"), "rb") as f:
        f.seek(int(r.get("file_offset")))
        b = f.read(int(r.get("len")))
    assert len(b) == int(r.get("len")) and b == bytes(len(b)), (r.attrib, "not zeros where the run says")
# the runs of one track file tile it, in order
names = sorted({r.get(CT + "file") for r in tracks})
for name in names:
    mine = [r for r in tracks if r.get(CT + "file") == name]
    at = 0
    for r in mine:
        assert int(r.get("file_offset")) == at, (name, r.attrib)
        at += int(r.get("len"))
    assert at == os.path.getsize(name), (name, at)
PY
}

run image --raw -q --json --log a.log --dfxml a.xml "$DEV" a.cue
expect_rc "raw, a file a track, bad areas: exit 4" 4
if check a.xml a.log >a.out 2>&1; then ok "a file a track: every byte run at its place in its file"; else
	not_ok "a file a track: every byte run at its place in its file" "$(cat a.out)"; fi
expect_grep "a file a track: the bad area in track 2 at its offset in track 2's file" a.xml \
	"<byte_run file_offset=\"$(((400 - 120) * 2352))\" len=\"$((5 * 2352))\" cdtail:object=\"bad-area\" cdtail:track=\"2\" cdtail:file=\"a \(Track 2\)\.bin\" fill=\"0\"/>"

run image --raw --single-file -q --json --log s.log --dfxml s.xml "$DEV" s.cue
expect_rc "raw --single-file, bad areas: exit 4" 4
if check s.xml s.log >s.out 2>&1; then ok "--single-file: every byte run at its place in OUT.bin"; else
	not_ok "--single-file: every byte run at its place in OUT.bin" "$(cat s.out)"; fi
expect_grep "--single-file: track 2 after track 1 in OUT.bin" s.xml \
	"<byte_run file_offset=\"$((120 * 2352))\" len=\"$((450 * 2352))\" cdtail:object=\"track-file\" cdtail:track=\"2\" cdtail:file=\"s\.bin\">"
finish
