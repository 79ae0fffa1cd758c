#!/bin/sh
# image --raw (issue 26): every disc kind tests/raw/model.py makes, imaged
# raw on the emulated drive (sim:FILE.cue) and compared sector by sector
# with what tests/raw/bincheck.py builds from the source files apart from
# the C code (MODE1/2048 sources expanded to raw Mode 1 by model.py);
# combined with hide=, bad=, flaky=, fault=, tao=, a SIGKILL resume and
# --offset; the sheet read back by cdtail's own sim:, and by bchunk and
# cueprint where they are installed.
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
CHECK="$ROOT/tests/raw/bincheck.py"
KINDS="mixed cdextra vcd audio iso multi bad"
for k in $KINDS; do
	python3 "$MODEL" disc "$k" "$T" || { not_ok "model.py disc $k"; finish; exit 1; }
done
mkdir "$T/o"

# bins NAME KIND CUE [bincheck args]: the BIN files the sheet names are the model's
bins() {
	b_name=$1 b_kind=$2 b_cue=$3
	shift 3
	got=$(python3 "$CHECK" "$T/$b_kind.json" "$b_cue" "$@" 2>&1)
	if [ "$got" = same ]; then ok "$b_name"; else not_ok "$b_name" "$got"; fi
}

# --- round trips: every kind, a drive that tells the pregaps -----------------
for k in mixed cdextra vcd audio iso multi; do
	run image --raw --json "sim:$T/$k.cue,trackinfo=pregap" "$T/o/$k.cue"
	expect_rc "$k: image --raw -> 0" 0
	expect_json "$k: complete" .verdict complete
	expect_json "$k: a file per track" '.tracks | length' \
		"$(jq '.tracks | length' "$T/$k.json")"
	bins "$k: every track's file holds its sectors, pregap first" "$k" "$T/o/$k.cue" --split
done
expect_grep "multi: REM SESSION before session 3's file" "$T/o/multi.cue" '^REM SESSION 03$'
expect_no_grep "mixed: one session, no REM SESSION" "$T/o/mixed.cue" '^REM SESSION'
expect_grep "mixed: track 2's pregap as INDEX 00 in its file" "$T/o/mixed.cue" '^    INDEX 01 00:02:00$'
expect_grep "mixed: the sheet says audio is not offset-corrected" "$T/o/mixed.cue" \
	'^REM .*audio not offset-corrected'
expect_grep "vcd: a Mode 2 sheet" "$T/o/vcd.cue" '^  TRACK 02 MODE2/2352$'
expect_no_grep "iso: data only: no audio note" "$T/o/iso.cue" 'audio'
expect_grep "iso: one track, OUT.bin" "$T/o/iso.cue" '^FILE "iso.bin" BINARY$'
run image --raw --json "sim:$T/cdextra.cue,trackinfo=pregap" "$T/o/cdx2.cue"
expect_json "cdextra: no inter-session gap stored" \
	'[.tracks[] | .sectors] | add' "$(($(jq '[.tracks[] | .blocks + .pregap] | add' "$T/cdextra.json")))"

# --- per track checksums (cd/trackhash.c): JSON and OUT.hash against Python's
run image --raw --json "sim:$T/mixed.cue,trackinfo=pregap" "$T/o/sum.cue"
python3 - "$T/out" "$T/o/sum.hash" <<'PY' >"$T/sums"
import hashlib, json, os, sys, zlib
o = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
bad = []
for t, line in zip(o["tracks"], lines):
    d = open(t["file"], "rb").read()
    want = ("%08x" % zlib.crc32(d), hashlib.md5(d).hexdigest(), hashlib.sha1(d).hexdigest())
    if (t.get("crc32"), t.get("md5"), t.get("sha1")) != want:
        bad.append("track %d JSON %s, want %s" % (t["number"], (t.get("crc32"), t.get("md5")), want[:2]))
    rom = '<rom name="%s" size="%d" crc="%s" md5="%s" sha1="%s"/>' % (
        os.path.basename(t["file"]), len(d), *want)
    if line != rom:
        bad.append("OUT.hash %r, want %r" % (line, rom))
roms = [l for l in lines if l.startswith("<rom ")]
if len(roms) != len(o["tracks"]) or lines[:len(roms)] != roms:
    bad.append("%d OUT.hash ROM lines, not first" % len(roms))
print("; ".join(bad) or "same")
PY
expect_grep "checksums: crc32, md5, sha1 per track in JSON and OUT.hash as Python's" "$T/sums" '^same$'

# --- AccurateRip v1/v2 of the audio tracks against tests/raw/hashmodel.py: each
# track from its TOC start (model.py's "start") to the next track's in its
# session, the disc's sectors put together from the written files by LBA
for k in audio mixed cdextra; do
	run image --raw --json "sim:$T/$k.cue,trackinfo=pregap" "$T/o/ar-$k.cue"
	expect_rc "$k: image --raw for AccurateRip -> 0" 0
	python3 - "$ROOT/tests/raw" "$T/$k.json" "$T/out" "$T/o/ar-$k.hash" <<'PY' >"$T/ar"
import json, sys
sys.path.insert(0, sys.argv[1])
from hashmodel import accuraterip
disc, o = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
hashed = open(sys.argv[4]).read().splitlines()
sector = {}
for t in o["tracks"]:
    d = open(t["file"], "rb").read()
    for s in range(t["sectors"]):
        sector[t["first_lba"] + s] = d[s * 2352:(s + 1) * 2352]
toc = disc["tracks"]
audio = [t["number"] for t in toc if t["mode"] == "audio"]
want, lines = {}, []
for i, t in enumerate(toc):
    if t["mode"] != "audio":
        want[t["number"]] = (None, None)
        continue
    nxt = toc[i + 1] if i + 1 < len(toc) else None
    end = nxt["start"] if nxt and nxt["session"] == t["session"] else t["start"] + t["blocks"]
    data = b"".join(sector[l] for l in range(t["start"], end))
    v = accuraterip(data, t["number"] == audio[0], t["number"] == audio[-1])
    want[t["number"]] = tuple("%08x" % x for x in v)
    lines.append('<!-- accuraterip track="%d" v1="%s" v2="%s" -->' % ((t["number"],) + want[t["number"]]))
got = {t["number"]: (t["accuraterip_v1"], t["accuraterip_v2"]) for t in o["tracks"]}
bad = []
if got != want:
    bad.append("JSON %s, want %s" % (got, want))
if [l for l in hashed if "accuraterip" in l] != lines or hashed[-len(lines):] != lines:
    bad.append("OUT.hash %s, want %s last" % (hashed, lines))
print("; ".join(bad) or "same %d" % len(lines))
PY
	expect_grep "$k: AccurateRip v1/v2 per audio track (JSON, OUT.hash) as hashmodel.py's, data null" \
		"$T/ar" "^same $(jq '[.tracks[] | select(.mode == "audio")] | length' "$T/$k.json")\$"
done

# --- FLAGS: the sheet's control bits -> the sim's TOC -> the probe's layout ->
# the written sheet, and once more through the written sheet
sed -e '/^  TRACK 02 AUDIO$/a\    FLAGS DCP PRE' -e '/^  TRACK 03 AUDIO$/a\    FLAGS 4CH' \
	"$T/mixed.cue" >"$T/flags.cue"
for pass in flags back-flags; do
	src="$T/flags.cue"
	[ $pass = back-flags ] && src="$T/o/flags.cue"
	run image --raw --json "sim:$src,trackinfo=pregap" "$T/o/$pass.cue"
	expect_rc "$pass: image --raw of a sheet with FLAGS -> 0" 0
	grep -E '^ *(TRACK|FLAGS)' "$T/o/$pass.cue" | tr -s ' ' | tr '\n' '|' >"$T/fl"
	expect_grep "$pass: FLAGS DCP PRE on track 2, 4CH on track 3, none on the data track" "$T/fl" \
		'^ TRACK 01 MODE1/2352| TRACK 02 AUDIO| FLAGS DCP PRE| TRACK 03 AUDIO| FLAGS 4CH|$'
done
bins "flags: the files are the disc's" mixed "$T/o/back-flags.cue" --split
run probe --json "sim:$T/flags.cue,trackinfo=pregap"
expect_json "probe: flags in JSON where the TOC sets them, none on the data track" \
	'[.tracks[] | .flags] | tostring' '[null,["DCP","PRE"],["4CH"]]'
run probe "sim:$T/flags.cue,trackinfo=pregap"
grep -E '^ +[0-9]+ +1 ' "$T/out" | sed 's/.*  //' | tr '\n' '|' >"$T/pf"
expect_grep "probe: flags at the end of each track's row" "$T/pf" '^mode1|flags DCP PRE|flags 4CH|$'

# --- CATALOG and ISRC: the sheet's lines -> the sim's READ SUB-CHANNEL -> the
# written sheet (CATALOG first, ISRC after FLAGS) and JSON, and through the
# written sheet once more; a malformed ISRC is no ISRC; a drive refusing 0x42
# images all the same, without them
sed -e '1i\CATALOG 0724384260927' -e '/^  TRACK 02 AUDIO$/a\    FLAGS DCP' \
	-e '/^  TRACK 02 AUDIO$/a\    ISRC USRC17607839' -e '/^  TRACK 03 AUDIO$/a\    ISRC GB-AAA-99-1' \
	"$T/mixed.cue" >"$T/ids.cue"
for pass in ids back-ids; do
	src="$T/ids.cue"
	[ $pass = back-ids ] && src="$T/o/ids.cue"
	run image --raw --json "sim:$src,trackinfo=pregap" "$T/o/$pass.cue"
	expect_rc "$pass: image --raw of a sheet with CATALOG and ISRC -> 0" 0
	expect_json "$pass: catalog in JSON" .catalog 0724384260927
	expect_json "$pass: ISRC of track 2 in JSON, null on the others" '[.tracks[] | .isrc] | tostring' \
		'[null,"USRC17607839",null]'
	head -n 1 "$T/o/$pass.cue" >"$T/first"
	expect_grep "$pass: CATALOG is the sheet's first line" "$T/first" '^CATALOG 0724384260927$'
	grep -E '^ *(TRACK|FLAGS|ISRC|INDEX)' "$T/o/$pass.cue" | tr -s ' ' | tr '\n' '|' >"$T/is"
	expect_grep "$pass: ISRC inside track 2 after FLAGS, before INDEX; none on track 3" "$T/is" \
		'^ TRACK 01 MODE1/2352| INDEX 01 00:00:00| TRACK 02 AUDIO| FLAGS DCP| ISRC USRC17607839| INDEX 00 00:00:00| INDEX 01 00:02:00| TRACK 03 AUDIO| INDEX'
done
bins "ids: the files are the disc's" mixed "$T/o/back-ids.cue" --split
run verify --cue "$T/o/ids.cue" "sim:$T/ids.cue,trackinfo=pregap"
expect_rc "ids: verify --cue of the sheet with CATALOG and ISRC -> 0" 0
run image --raw --json "sim:$T/ids.cue,trackinfo=pregap,readsub=refuse" "$T/o/noids.cue"
expect_rc "readsub=refuse: the drive refuses READ SUB-CHANNEL, the disc images -> 0" 0
expect_json "readsub=refuse: complete" .verdict complete
expect_json "readsub=refuse: catalog null" .catalog null
expect_json "readsub=refuse: no ISRC" '[.tracks[] | .isrc] | tostring' '[null,null,null]'
expect_no_grep "readsub=refuse: no CATALOG nor ISRC line" "$T/o/noids.cue" '^ *(CATALOG|ISRC)'
bins "readsub=refuse: the files are the disc's" mixed "$T/o/noids.cue" --split
run image --raw --json "sim:$T/mixed.cue,trackinfo=pregap" "$T/o/nocat.cue"
expect_json "a sheet without CATALOG: catalog null (MCVAL clear)" .catalog null
expect_no_grep "a sheet without CATALOG nor ISRC: no such line" "$T/o/nocat.cue" '^ *(CATALOG|ISRC)'

# --- the sheet reads back: cdtail's own drive images it the same --------------
for k in mixed vcd cdextra; do
	run image --raw --json "sim:$T/o/$k.cue,trackinfo=pregap" "$T/o/back-$k.cue"
	expect_rc "$k: the written sheet is a disc again (sim:) -> 0" 0
	bins "$k: imaging the written sheet gives the same files" "$k" "$T/o/back-$k.cue" --split
done

# --- a drive that gives index 01 only: the same stream -------------------------
run image --raw --json "sim:$T/mixed.cue" "$T/o/m1.cue"
expect_rc "mixed, index-01 drive: -> 0" 0
bins "mixed, index-01 drive: the stream is the disc's" mixed "$T/o/m1.cue"

# --- EDC/ECC: a sector stored wrong is bad, counted, in the map ----------------
run image --raw --json --map "$T/o/bad.map" "sim:$T/bad.cue" "$T/o/bad.cue"
expect_rc "bad EDC: -> 4" 4
expect_json "bad EDC: counted per track" '.tracks[0] | "\(.edc_errors) \(.bad_sectors)"' "1 1"
expect_json "bad EDC: LBA 40 bad" '.bad_blocks | tostring' '[[40,40]]'
bins "bad EDC: zeros at 40, the rest read" bad "$T/o/bad.cue" --zero 40
expect_grep "bad EDC: the map marks stream bytes 40 x 2352 bad" "$T/o/bad.map" \
	"^0x00016F80 +0x00000930 +-"
# no C2 pointers: a drive that fails the bad sector, then the EDC alone is the check
run image --raw --json "sim:$T/mixed.cue,trackinfo=pregap,bad=300-302:30-30" "$T/o/mb.cue"
expect_rc "audio bad=: -> 4" 4
expect_json "audio bad=: 3 + 1 sectors bad in track 2, none an EDC error" \
	'[.tracks[] | "\(.bad_sectors)/\(.edc_errors)"] | join(" ")' "1/0 3/0 0/0"
bins "audio bad=: zeros there, the rest the disc's" mixed "$T/o/mb.cue" --split --zero 30,300,301,302

# --- flaky and fault: read again until good --------------------------------------
run image --raw --json "sim:$T/mixed.cue,trackinfo=pregap,flaky=100-130:1" "$T/o/mf.cue"
expect_rc "flaky=: retried to complete -> 0" 0
bins "flaky=: the files are the disc's" mixed "$T/o/mf.cue" --split
run image --raw --json "sim:$T/vcd.cue,trackinfo=pregap,fault=hwerr@200-203x1:aborted@400-400x2:short@500-510x1" "$T/o/vf.cue"
expect_rc "fault=hwerr/aborted/short once: -> 0" 0
bins "fault=: the files are the disc's" vcd "$T/o/vf.cue" --split
run image --raw --json "sim:$T/vcd.cue,trackinfo=pregap,fault=hwerr@200-200" "$T/o/vh.cue"
expect_rc "fault=hwerr for good: -> 4" 4
expect_json "fault=hwerr for good: one bad, no EDC error" '[.tracks[] | .bad_sectors, .edc_errors] | join(",")' \
	"0,0,1,0"

# --- the fault matrix in raw mode: every way a drive fails a read (fault=) ----------
# on an audio track (mixed, LBAs 300-303) and on Form 2 video (vcd, 400-403),
# for good (each kind but deferred leaves the 4 sectors bad, zeros in their
# file; deferred reads) and once (x1: every kind reads again); the expected
# bad sectors come from the keys alone.  A timeout's reset costs ready=0.
for disc in mixed:300 vcd:400; do
	k=${disc%%:*} a=${disc#*:}
	b=$((a + 3))
	for kind in hwerr nosense aborted host short timeout deferred; do
		for times in "" x1; do
			want_bad=$a,$((a + 1)),$((a + 2)),$b
			if [ -n "$times" ] || [ $kind = deferred ]; then want_bad=; fi
			# short answers GOOD with the sectors before A: the read goes
			# on from A, which then fails or reads as the kind says
			run image --raw --json --timeout 1 \
				"sim:$T/$k.cue,trackinfo=pregap,ready=0,fault=$kind@$a-$b$times" "$T/o/fm.cue"
			expect_rc "fault matrix $k $kind@$a-$b$times: exit" "$([ -n "$want_bad" ] && echo 4 || echo 0)"
			expect_json "fault matrix $k $kind@$a-$b$times: bad sectors" \
				'[.bad_blocks[] | range(.[0]; .[1] + 1)] | map(tostring) | join(",")' "$want_bad"
			bins "fault matrix $k $kind@$a-$b$times: the files" "$k" "$T/o/fm.cue" --split --zero "$want_bad"
			rm -f "$T/o/fm"*
		done
	done
done

# --- the hidden tail: in the last track's file, said in the sheet -----------------
run image --raw --json "sim:$T/iso.cue,hide=10" "$T/o/hid.cue"
expect_rc "hide=10: -> 0" 0
expect_json "hide=10: the tail found" .hidden_blocks 10
bins "hide=10: the last track's file holds the tail" iso "$T/o/hid.cue" --split
expect_grep "hide=10: the sheet says so" "$T/o/hid.cue" '^REM cdtail: hidden tail of 10 sectors'

# --- a hidden tail of Form 2 after audio: the only data sectors have no EDC/ECC
# to hold (Form 2 with a zero EDC), READ(10) answers them 05/64/00, and the
# last 2 reported blocks look like a TAO run-out; their headers still witness
# the end search (raw_model.py seed 20261206 case 50 found a tail missed)
python3 - "$ROOT/tests/raw" "$T" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import model
d = sys.argv[2]
sub = bytes([1, 1, 0x20, 0])
open(d + "/f2a.bin", "wb").write(bytes(2352 * 20))
open(d + "/f2b.bin", "wb").write(b"".join(
    model.mode2(20 + i, sub, bytes([i]) * 2324, form2_edc=False) for i in range(14)))
open(d + "/f2.cue", "w").write('FILE "f2a.bin" BINARY\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n'
                               'FILE "f2b.bin" BINARY\n  TRACK 02 MODE2/2352\n    INDEX 01 00:00:00\n')
PY
for h in 1 2 5; do
	run image --raw --json "sim:$T/f2.cue,hide=$h" "$T/o/f2-$h.cue"
	expect_rc "Form 2 last track after audio, hide=$h: -> 0" 0
	expect_json "Form 2 last track after audio, hide=$h: the tail found" .hidden_blocks $h
	expect_json "Form 2 last track after audio, hide=$h: no run-out taken" '.tracks[1].sectors' 14
	if cmp -s "$T/o/f2-$h (Track 2).bin" "$T/f2b.bin"; then ok "hide=$h: track 2's file is the disc's, tail included"
	else not_ok "hide=$h: track 2's file is the disc's, tail included"; fi
done

# --- TAO: the run-out is not stored, the sheet says so ------------------------------
# (a later session's first track's file starts with its 2 s pregap, issue 33)
run image --raw --json "sim:$T/multi.cue,tao=1" "$T/o/tao.cue"
expect_rc "tao=1: -> 0" 0
expect_json "tao=1: every data track's file ends before its run-out" \
	'[.tracks[] | "\(.sectors)+\(.runout)"] | join(" ")' "98+2 248+2 248+2"
expect_grep "tao=1: a REM line per run-out" "$T/o/tao.cue" '^REM cdtail: 2 TAO run-out blocks after track 3, not stored$'

# --- --offset: audio shifted by whole samples across the tracks of a run ------------
for s in 7 -5 600; do
	run image --raw --json --offset $s "sim:$T/audio.cue,trackinfo=pregap" "$T/o/off$s.cue"
	expect_rc "offset $s: -> 0" 0
	bins "offset $s: the audio run shifted by $s samples" audio "$T/o/off$s.cue" --split --offset $s
	expect_grep "offset $s: the sheet says so" "$T/o/off$s.cue" "^REM cdtail: audio offset-corrected by [+]?$s samples"
done
run image --raw --json --offset 7 "sim:$T/mixed.cue,trackinfo=pregap" "$T/o/offm.cue"
bins "offset on mixed mode: data untouched, audio shifted" mixed "$T/o/offm.cue" --split --offset 7

# --- resumable: SIGKILL on a slow drive, then the same command --------------------
slow="sim:$T/mixed.cue,trackinfo=pregap,sleep=1,cost=3000/1,trace=$T/tr"
M="$T/o/k.map"
kill_at "$T/tr" 60 image --raw -q --chunk 8 --map "$M" --map-interval 1 "$slow" "$T/o/k.cue"
if [ $KILLED = 1 ] && grep -q '^0x' "$M"; then ok "SIGKILL mid-run leaves a map"; else
	not_ok "SIGKILL mid-run leaves a map" "$(cat "$T/kill.err")"; fi
run image --raw --json --map "$M" "sim:$T/mixed.cue,trackinfo=pregap" "$T/o/k.cue"
expect_rc "resume after SIGKILL: -> 0" 0
expect_json "resume: resumed with sectors finished before" '.resumed and .finished_before > 0' true
expect_json "resume: the identity compared" '.identity_blocks > 0' true
bins "resume: the files are byte for byte the disc's" mixed "$T/o/k.cue" --split
run image --raw --json --map "$M" "sim:$T/mixed.cue,trackinfo=pregap" "$T/o/k.cue"
expect_json "a finished map: nothing read again" .blocks_read 0
run image --raw --map "$M" "sim:$T/vcd.cue,trackinfo=pregap" "$T/o/k.cue"
expect_rc "the map of another disc: refused (as image: 2)" 2
expect_no_grep "another disc: nothing said removed" "$T/err" "removed"
expect_grep "another disc: says so" "$T/err" 'belongs to another disc'

# --- a resume whose pregaps differ from the first run's -----------------------------
# The files are cut at the pregaps, read from subchannel Q: a resume that
# reads them otherwise (here a drive giving no Q, whose track information
# names no pregap) would put the sectors read before in the wrong file.
# Refused before any file is touched; the first run's options then resume.
slow="sim:$T/mixed.cue,sleep=1,cost=3000/1,trace=$T/tq"
M="$T/o/q.map"
kill_at "$T/tq" 120 image --raw -q --chunk 8 --map "$M" --map-interval 1 "$slow" "$T/o/q.cue"
[ $KILLED = 1 ] && ok "another cut: the first run killed mid-run" ||
	not_ok "another cut: the first run killed mid-run" "$(cat "$T/kill.err")"
before=$(cd "$T/o" && md5sum q*)
run image --raw --json --map "$M" "sim:$T/mixed.cue,subchannel=none" "$T/o/q.cue"
expect_rc "a resume cutting the files elsewhere: refused -> 2" 2
expect_grep "another cut: names the file and the remedy" "$T/err" \
	"q \\(Track 2\\)\\.bin holds 1058400 bytes where this run's track split puts 600 sectors: .*resume with the drive and options of the first run, or start over with --force"
expect_no_grep "another cut: no resume offered with the same command" "$T/err" "run the same command again"
[ "$(cd "$T/o" && md5sum q*)" = "$before" ] && ok "another cut: the files and the map untouched" ||
	not_ok "another cut: the files and the map untouched" "$(cd "$T/o" && ls -l q*)"
run image --raw --json --map "$M" "sim:$T/mixed.cue" "$T/o/q.cue"
expect_rc "the first run's options: resumed -> 0" 0
expect_json "the first run's options: resumed" .resumed true
bins "the first run's options: the files are the disc's" mixed "$T/o/q.cue" --split
rm "$T/o/q (Track 3).bin"
run image --raw --json --map "$M" "sim:$T/mixed.cue" "$T/o/q.cue"
expect_rc "a track file of the map's run missing: refused -> 2" 2
expect_grep "missing: says which" "$T/err" 'q \(Track 3\)\.bin is missing: the map says part of it was read'
expect_no_grep "missing: no resume offered with the same command" "$T/err" "run the same command again"

# --- no leftovers, usage ------------------------------------------------------------
run image --raw "sim:$T/iso (Track 1).iso" "$T/o/plain.cue"
expect_rc "a drive without READ CD: refused -> 2" 2
if ls "$T/o" | grep -q '^plain'; then not_ok "refused: nothing left behind"; else
	ok "refused: nothing left behind"; fi
run image --raw "sim:$T/iso (Track 1).iso,readcd=ide" "$T/o/plain.cue"
expect_rc "made-up EDC/ECC (QEMU ide-cd): refused -> 2" 2
run image --raw "sim:$T/iso.cue" "$T/o/iso.cue"
expect_rc "existing files without --force: -> 2" 2
run image --raw --force --json "sim:$T/iso.cue" "$T/o/iso.cue"
expect_rc "existing files with --force: -> 0" 0
run image --raw "sim:$T/iso.cue" "$T/o/x.bin"
expect_rc "--raw wants OUT.cue: -> 2" 2
run image --raw --digest md5 "sim:$T/iso.cue" "$T/o/y.cue"
expect_rc "--raw --digest: -> 2" 2
run image --offset 6 "sim:$T/iso.cue" "$T/o/y.iso"
expect_rc "--offset without --raw: -> 2" 2
run image --raw --offset 6x "sim:$T/iso.cue" "$T/o/y.cue"
expect_rc "--offset not a number: -> 2" 2

# --- other readers: bchunk and cueprint, single-session sheets -----------------------
if command -v cueprint >/dev/null 2>&1; then
	for k in mixed vcd audio iso; do
		cueprint "$T/o/$k.cue" >"$T/cp" 2>&1
		want=$(jq '.tracks | length' "$T/$k.json")
		if grep -q "^no. of tracks:.*$want\$" "$T/cp"; then
			ok "$k: cueprint reads the sheet: $want tracks"; else
			not_ok "$k: cueprint reads the sheet" "$(head -8 "$T/cp")"; fi
	done
else
	echo "# cueprint not installed (Debian cuetools): skipped"
fi
# bchunk takes one BIN: the single-track sheet, whose user data is the ISO
if command -v bchunk >/dev/null 2>&1; then
	(cd "$T/o" && bchunk iso.bin iso.cue bc >"$T/bc" 2>&1)
	if cmp -s "$T/o/bc01.iso" "$T/iso (Track 1).iso"; then
		ok "bchunk reads the sheet: track 1's user data is the ISO"; else
		not_ok "bchunk reads the sheet" "$(tail -5 "$T/bc")"; fi
else
	echo "# bchunk not installed (Debian bchunk): skipped"
fi

finish
