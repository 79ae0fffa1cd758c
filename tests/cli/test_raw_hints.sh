#!/bin/sh
# A disc with audio or Mode 2 Form 2 sectors imaged as 2048-byte data (issue
# 35, 7): a note names what OUT lacks and next: gives image --raw; probe's
# next: on such a disc (CD-Extra, audio CD, Video CD) is image --raw, and
# where the drive reads no raw sectors, another drive's (NEWDEV) beside the
# 2048-byte image of the data only.  A data disc gets neither.
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
for k in cdextra audio vcd iso; do
	python3 "$MODEL" disc "$k" "$T" >/dev/null || { not_ok "model.py disc $k"; finish; exit 1; }
done
mkdir "$T/o"

for k in cdextra audio vcd; do
	run probe "sim:$T/$k.cue"
	expect_grep "probe $k: next: says why" "$T/out" \
		'^next: +the disc holds audio or Mode 2 sectors, which a 2048-byte image lacks$'
	expect_grep "probe $k: next: image --raw on this drive" "$T/out" \
		"^ +cdtail image --raw --map disc.map sim:$T/$k.cue disc.cue\$"
	expect_no_grep "probe $k: no 2048-byte image suggested" "$T/out" 'disc\.iso'
done
run image "sim:$T/cdextra.cue" "$T/o/cdextra.iso"
expect_rc "image of a CD-Extra: complete -> 0 (as before)" 0
expect_grep "image CD-Extra: the note names OUT and the audio blocks it lacks" "$T/out" \
	"^note: +$T/o/cdextra.iso lacks the audio tracks' [0-9]+ blocks"
expect_grep "image CD-Extra: next: image --raw, OUT's name as .cue" "$T/out" \
	"^ +cdtail image --raw --map $T/o/cdextra.raw.map sim:$T/cdextra.cue $T/o/cdextra.cue\$"
audio=$(jq '[.tracks[] | select(.mode == "audio") | .blocks] | add' "$T/cdextra.json")
expect_grep "image CD-Extra: the count is the audio tracks' blocks ($audio)" "$T/out" "lacks the audio tracks' $audio blocks"
run image "sim:$T/audio.cue" "$T/o/audio.img"
expect_grep "image of an audio CD: the note" "$T/out" "^note: +$T/o/audio.img lacks the audio tracks'"
run image "sim:$T/vcd.cue" "$T/o/vcd"
expect_rc "image of a Video CD: incomplete -> 4 (as before)" 4
expect_grep "image VCD: the note names the Form 2 blocks" "$T/out" \
	"^note: +$T/o/vcd lacks its Mode 2 Form 2 sectors, [0-9]+ blocks"
expect_grep "image VCD: OUT without an extension: .cue added" "$T/out" \
	"^ +cdtail image --raw --map $T/o/vcd.raw.map sim:$T/vcd.cue $T/o/vcd.cue\$"
expect_no_grep "image VCD: every line within 80 columns but the command's" "$T/out" '^[^ ].{80}'
# the raw image it names makes the disc whole: exit 0
run image --raw "sim:$T/cdextra.cue" "$T/o/cdextra.cue"
expect_rc "the suggested image --raw -> 0" 0

# a drive without READ CD (layout= on a plain image): the raw image is for another drive
mkimage "$T/x.img" $((3000 + 11400 + 600))
run probe "sim:$T/x.img,layout=audio:3000/data:600"
expect_grep "no READ CD: says so" "$T/out" 'this drive reads no raw sectors \(READ CD\)'
expect_grep "no READ CD: the raw image in NEWDEV" "$T/out" '^ +cdtail image --raw --map disc.map NEWDEV disc.cue$'
expect_grep "no READ CD: and the data here" "$T/out" "^ +cdtail image sim:$T/x.img,layout=audio:3000/data:600 disc.iso\$"
run image "sim:$T/x.img,layout=audio:3000/data:600,cost=0/0" "$T/o/x.iso"
expect_grep "image, no READ CD: next: another drive" "$T/out" '^next: +this drive reads no raw sectors \(READ CD\): image every$'
expect_grep "image, no READ CD: NEWDEV" "$T/out" "^ +cdtail image --raw --map $T/o/x.raw.map NEWDEV $T/o/x.cue\$"

# a data disc: no such note, no raw hint
run probe "sim:$T/iso.cue"
expect_no_grep "data disc: probe suggests no raw image" "$T/out" 'image --raw'
run image "sim:$T/iso.cue" "$T/o/iso.iso"
expect_no_grep "data disc: image has no raw note" "$T/out" '^note:|image --raw'

finish
