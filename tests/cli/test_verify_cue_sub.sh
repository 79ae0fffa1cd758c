#!/bin/sh
# verify --cue of an image --raw --subchannel (issue 33): OUT.sub beside the
# sheet is compared with the P-W the disc gives, record for record, its
# differences reported as the main channel's are (per track, the verdict,
# exit 1); a Q that fails its CRC is read noise, not a difference; an
# OUT.sub of the wrong length differs; a drive without raw P-W leaves it
# uncompared and says so; a sheet without OUT.sub is verified as before.
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
SUB="$ROOT/tests/raw/submodel.py"
for k in mixed cdextra; do
	python3 "$MODEL" disc "$k" "$T" || { not_ok "model.py disc $k"; finish; exit 1; }
done
mkdir "$T/o"

# put SUBFILE OFFSET BYTE(octal): one byte of OUT.sub changed
put() {
	printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

for k in mixed cdextra; do
	dev="sim:$T/$k.cue,trackinfo=pregap"
	run image --raw --subchannel --json "$dev" "$T/o/$k.cue"
	expect_rc "$k: image --raw --subchannel -> 0" 0
	run verify --cue "$T/o/$k.cue" --json "$dev"
	expect_rc "$k: verify --cue with OUT.sub -> 0" 0
	expect_json "$k: identical" .verdict identical
	expect_json "$k: OUT.sub compared" '.subchannel | [.file, .checked, .length_differs] | tostring' \
		"[\"$T/o/$k.sub\",true,false]"
	expect_json "$k: no P-W difference in any track" '[.tracks[] | .sub_diff_sectors] | add' 0
done

# a --single-file image: the same records, one FILE
mkdir "$T/sf"
run image --raw --single-file --subchannel --json "sim:$T/cdextra.cue,trackinfo=pregap" "$T/sf/x.cue"
run verify --cue "$T/sf/x.cue" --json "sim:$T/cdextra.cue,trackinfo=pregap"
expect_rc "single-file sheet with OUT.sub: identical -> 0" 0
put "$T/sf/x.sub" $((400 * 96 + 1)) 001
run verify --cue "$T/sf/x.cue" --json "sim:$T/cdextra.cue,trackinfo=pregap"
expect_json "single-file: a changed P byte in track 2 at its LBA" \
	'[.verdict, (.tracks[] | [.sub_diff_sectors, .sub_first_diff_lba])] | tostring' \
	'["different",[0,null],[1,400],[0,null]]'

# the same OUT.sub built by the model: the disc's P-W is what the model says
python3 "$SUB" write "$T/mixed.json" "$T/o/mixed.sub"
run verify --cue "$T/o/mixed.cue" --json "sim:$T/mixed.cue,trackinfo=pregap"
expect_rc "the model's OUT.sub: identical -> 0" 0

# --- a changed P bit in track 2 (stream sector 300 = LBA 300): a difference --------------
cp "$T/o/mixed.sub" "$T/keep.sub"
put "$T/o/mixed.sub" $((300 * 96 + 3)) 001
run verify --cue "$T/o/mixed.cue" --json "sim:$T/mixed.cue,trackinfo=pregap"
expect_rc "a changed P byte: different -> 1" 1
expect_json "reported in track 2, its LBA" \
	'[.tracks[] | [.sub_diff_sectors, .sub_first_diff_lba, .diff_sectors]] | tostring' \
	'[[0,null,0],[1,300,1],[0,null,0]]'
expect_json "the verdict's first difference" '[.verdict, .first_diff_lba] | tostring' '["different",300]'
run verify --cue "$T/o/mixed.cue" "sim:$T/mixed.cue,trackinfo=pregap"
expect_grep "text: the track differs at its sector" "$T/out" '^track  2: .*differs, first at sector 180 \(LBA 300\)'
expect_grep "text: the subchannel line counts it" "$T/out" '^subchannel: .*mixed.sub, 1 sector whose P-W differs$'
# R-W: a bit of W in a data sector of track 1
cp "$T/keep.sub" "$T/o/mixed.sub"
put "$T/o/mixed.sub" $((10 * 96 + 95)) 200
run verify --cue "$T/o/mixed.cue" --all --json "sim:$T/mixed.cue,trackinfo=pregap"
expect_rc "a changed W byte: different -> 1" 1
expect_json "in track 1, LBA 10" '.tracks[0] | [.sub_diff_sectors, .sub_first_diff_lba] | tostring' '[1,10]'

# --- a Q byte changed: its CRC fails, read noise, not compared -------------------------
cp "$T/keep.sub" "$T/o/mixed.sub"
put "$T/o/mixed.sub" $((500 * 96 + 12 + 5)) 125
run verify --cue "$T/o/mixed.cue" --json "sim:$T/mixed.cue,trackinfo=pregap"
expect_rc "a Q whose CRC fails in OUT.sub: not a difference -> 0" 0
# a whole Q replaced by another right one (its CRC holds): a difference
ROOT_RAW="$ROOT/tests/raw" python3 - "$T/o/mixed.sub" <<'PY'
import os, sys
sys.path.insert(0, os.environ["ROOT_RAW"])
import model
f = sys.argv[1]
d = bytearray(open(f, "rb").read())
k = 500
d[k * 96 + 12:k * 96 + 24] = model.subq(0, 3, 1, 7, 600)  # right CRC, wrong place
open(f, "wb").write(d)
PY
run verify --cue "$T/o/mixed.cue" --json "sim:$T/mixed.cue,trackinfo=pregap"
expect_rc "a right Q of another sector: different -> 1" 1
expect_json "in track 2 (stream sector 500 = LBA 500)" '.tracks[1] | [.sub_diff_sectors, .sub_first_diff_lba] | tostring' '[1,500]'

# --- OUT.sub of another length; a drive without raw P-W; no OUT.sub -------------------
cp "$T/keep.sub" "$T/o/mixed.sub"
head -c $((944 * 96)) "$T/keep.sub" >"$T/o/mixed.sub"
run verify --cue "$T/o/mixed.cue" --json "sim:$T/mixed.cue,trackinfo=pregap"
expect_rc "OUT.sub a record short: different -> 1" 1
expect_json "length_differs" '.subchannel.length_differs' true
cp "$T/keep.sub" "$T/o/mixed.sub"
put "$T/o/mixed.sub" $((300 * 96 + 3)) 001
run verify --cue "$T/o/mixed.cue" --json "sim:$T/mixed.cue,trackinfo=pregap,subchannel=q"
expect_rc "a drive without raw P-W: OUT.sub not compared -> 0" 0
expect_json "checked false" '.subchannel.checked' false
run verify --cue "$T/o/mixed.cue" "sim:$T/mixed.cue,trackinfo=pregap,subchannel=q"
expect_grep "text says it was not compared" "$T/out" '^subchannel: .*mixed.sub not compared: the drive gives no raw P-W$'
rm "$T/o/mixed.sub"
run verify --cue "$T/o/mixed.cue" --json "sim:$T/mixed.cue,trackinfo=pregap"
expect_rc "no OUT.sub: verified as before -> 0" 0
expect_json "subchannel null, no per-track keys" '[.subchannel, (.tracks[0] | has("sub_diff_sectors"))] | tostring' '[null,false]'

finish
