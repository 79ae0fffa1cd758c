#!/bin/sh
# DVD and BD (issue 36): what DVD drives answer and what cdtail makes of it.
# Copy protection: 05/6F/xx (mmc/answer.c, sim css=) is "protected",
# skipped with zeros in OUT, never bad blocks, never the end, exit 4.
. "$(dirname "$0")/lib.sh"

D="$T/d.img"
mkimage "$D" 3000

# css= inside the disc: image lists the blocks protected, not bad
rm -f "$T/o.iso" "$T/o.map"
run image --json --map "$T/o.map" "sim:$D,profile=dvd-rom,css=1000-1999" "$T/o.iso"
expect_rc "css=1000-1999: image exit 4" 4
expect_json "css: listed as protected" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "1000+1000 protected"
expect_json "css: not bad" .bad_count 0
expect_json "css: protected_blocks" .protected_blocks 1000
expect_json "css: form2_blocks 0" .form2_blocks 0
expect_json "css: verdict" .verdict incomplete
expect_json "css: the true end" .true_blocks 3000
if cmp -s -n $((1000 * 2048)) "$T/o.iso" "$D" &&
   cmp -s -n $((1000 * 2048)) -i $((1000 * 2048)):0 "$T/o.iso" /dev/zero &&
   cmp -s -i $((2000 * 2048)):$((2000 * 2048)) "$T/o.iso" "$D"; then
	ok "css: OUT is the disc with zeros for the protected blocks"
else not_ok "css: OUT is the disc with zeros for the protected blocks" "differs"; fi
expect_grep "css: the map lists them" "$T/o.map" '^# cdtail skipped.*1000\+1000 protected'
rm -f "$T/tr"
run image --json --map "$T/o.map" "sim:$D,profile=dvd-rom,css=1000-1999,trace=$T/tr" "$T/o.iso"
expect_rc "css, resumed: exit 4" 4
expect_json "css, resumed: nothing read" .blocks_read 0
run image "sim:$D,profile=dvd-rom,css=1000-1999" "$T/o2.iso"
expect_grep "css, text: a protected line" "$T/out" '^protected: +1000 blocks from LBA 1000 answer 05/6F/xx'
expect_grep "css, text: names CSS" "$T/out" 'CSS-scrambled'
# the note is wrapped at 80 columns where the path falls: read as one text
tr '\n' ' ' <"$T/out" | tr -s ' ' >"$T/out1"
expect_grep "css, text: cdtail does not authenticate" "$T/out1" 'cdtail does not authenticate'
expect_grep "css, text: names the image that lacks them" "$T/out1" "$T/o2.iso lacks them \(zeros\)\."
expect_grep "css, text: verdict incomplete" "$T/out" '^verdict: +incomplete'

# protected blocks at the disc's end are not the end, nor damage there
run probe --json "sim:$D,profile=dvd-rom,css=2500-2999"
expect_rc "css at the end: probe exit 0" 0
expect_json "css at the end: true end" .true_blocks 3000
expect_json "css at the end: not trailing damage" '.notes | index("trailing-medium-error") == null' true
run image --json "sim:$D,profile=dvd-rom,css=2500-2999" "$T/o3.iso"
expect_json "css at the end: OUT holds all 3000" .extent_blocks 3000
expect_json "css at the end: listed" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "2500+500 protected"
# the whole disc scrambled: still 3000 blocks, none bad
run image --json "sim:$D,profile=dvd-rom,css=0-2999" "$T/o4.iso"
expect_json "css everywhere: the true end" .true_blocks 3000
expect_json "css everywhere: none bad" .bad_count 0

# protected and bad blocks: each what it is
run image --json "sim:$D,profile=dvd-rom,css=100-109,bad=200-204" "$T/o5.iso"
expect_json "css and bad: protected listed" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "100+10 protected"
# a DVD's bad block costs its ECC block (192-207) from its first failing
# block on, read from the side that read (192-199 read: this damage,
# without ecc=, is no whole ECC block)
expect_json "css and bad: bad counted by ECC block from the good side" '.bad_blocks | tostring' '[[200,207]]'
# a drive that names the first bad LBA (INFORMATION, sim info=1): what it
# names decides, block by block, no unit taken bad for it (192-199 and
# 205-207 read)
run image --json "sim:$D,profile=dvd-rom,bad=200-204,info=1" "$T/o6.iso"
expect_json "info=1: the blocks the drive names, no more" '.bad_blocks | tostring' '[[200,204]]'

# verify and tail: protected blocks not compared, never identical
cp "$D" "$T/same.iso"
run verify --json "sim:$D,profile=dvd-rom,css=100-109" --image "$T/same.iso"
expect_rc "css: verify exit 4" 4
expect_json "css: verify verdict" .verdict incomplete
expect_json "css: verify protected_blocks" .protected_blocks 10
head -c $((2000 * 2048)) "$D" >"$T/half.iso"
run tail --json "sim:$D,profile=dvd-rom,hide=1000,css=2100-2109" "$T/half.iso"
expect_rc "css: tail exit 4" 4
expect_json "css: tail protected_blocks" .protected_blocks 10

# READ DISC STRUCTURE (structure=): a size source on DVD and BD, never guessed
run probe --json "sim:$D,profile=dvd-rom,structure=3000"
expect_rc "structure=3000: probe exit 0" 0
expect_json "structure=3000: sources.disc_structure" .sources.disc_structure 3000
expect_json "structure=3000: not wrong" '.wrong_sources | index("disc_structure") == null' true
expect_json "structure=3000: DVD-ROM, one layer" '"\(.structure.type) \(.structure.layers) \(.structure.track_path) \(.structure.layer0_blocks)"' "DVD-ROM 1 parallel null"
run probe "sim:$D,profile=dvd-rom,structure=3000"
expect_grep "structure, text: the source row" "$T/out" '^  disc structure +3000  right'
expect_grep "structure, text: the structure line" "$T/out" '^structure: DVD-ROM version 1, 1 layer, parallel track path$'
# a structure that lies: shown wrong, the true end found by reading
run probe --json "sim:$D,profile=dvd-rom,structure=3500"
expect_json "structure=3500: wrong" '.wrong_sources | index("disc_structure") != null' true
expect_json "structure=3500: true end 3000" .true_blocks 3000
run probe "sim:$D,profile=dvd-rom,structure=3500"
expect_grep "structure=3500, text: 500 too many" "$T/out" '^  disc structure +3500  wrong \(500 too many\)'
# the drive hides the tail; the structure knows it
run probe --json "sim:$D,profile=dvd-rom,hide=1000,structure=3000"
expect_json "hide=1000, structure=3000: right" .sources.disc_structure 3000
expect_json "hide=1000, structure=3000: true end 3000" .true_blocks 3000
expect_json "hide=1000, structure=3000: hidden-tail" .verdict hidden-tail
# dual layer, opposite track path: layer 0's end shown
run probe --json "sim:$D,profile=dvd-rom,structure=3000:1600"
expect_json "structure=3000:1600: two layers" '"\(.structure.layers) \(.structure.track_path) \(.structure.layer0_blocks)"' "2 opposite 1600"
expect_json "structure=3000:1600: the data area adds both layers" .sources.disc_structure 3000
run probe "sim:$D,profile=dvd-rom,structure=3000:1600"
expect_grep "structure, DL text: layer 0's end" "$T/out" 'layer 0: 1600 blocks \(layer 1 from LBA 1600\)'
# refused (no structure=): absent, never guessed
run probe --json "sim:$D,profile=dvd-rom"
expect_json "no structure=: absent" .sources.disc_structure null
expect_json "no structure=: no structure" .structure null
run probe "sim:$D,profile=dvd-rom"
expect_grep "no structure=, text: a dash" "$T/out" '^  disc structure +-$'
# a CD is never asked
rm -f "$T/cd.tr"
run probe --json "sim:$D,profile=cd-rom,structure=3000,trace=$T/cd.tr"
expect_json "CD: absent" .sources.disc_structure null
expect_no_grep "CD: READ DISC STRUCTURE never sent" "$T/cd.tr" '^ad '
run probe "sim:$D,profile=cd-rom"
expect_no_grep "CD, text: no disc structure row" "$T/out" 'disc structure'
# BD: type and layers, no size
run probe --json "sim:$D,profile=bd-rom,structure=3000:1000"
expect_json "BD: type and layers" '"\(.structure.type) \(.structure.layers) \(.structure.track_path)"' "BDO 2 null"
expect_json "BD: no size" .sources.disc_structure null
run probe --json "sim:$D,profile=bd-re,structure=3000"
expect_json "BD-RE: BDW" .structure.type BDW
run probe --json "sim:$D,profile=bd-r,structure=3000"
expect_json "BD-R: BDR" .structure.type BDR
run probe "sim:$D,structure=3000:3000"
expect_rc "structure=3000:3000: usage" 2
run probe "sim:$D,structure=0"
expect_rc "structure=0: usage" 2
run probe "sim:$D,structure=x"
expect_rc "structure=x: usage" 2

# UDF (DVD-Video and BD carry it): a UDF-only disc and a UDF bridge disc
# (fixtures/udfbridge.py: ISO 9660 descriptors first) have a filesystem size
run probe --json "sim:$FIX/udf.img,profile=dvd-rom"
expect_json "UDF only on a DVD: udf and its size" '"\(.filesystem.type) \(.sources.filesystem)"' "udf 1024"
run probe --json "sim:$FIX/udfbridge.img,profile=dvd-rom,structure=1024"
expect_json "UDF bridge: udf and its size" '"\(.filesystem.type) \(.sources.filesystem)"' "udf 1024"
expect_json "UDF bridge: structure agrees" .sources.disc_structure 1024
expect_json "UDF bridge: nothing wrong" '.wrong_sources | length' 0
# the bridge whose UDF partition descriptor is damaged: ISO 9660 gives the size
cp "$FIX/udfbridge.img" "$T/pd.img"
python3 - "$T/pd.img" <<'PY'
import struct, sys
p = sys.argv[1]
img = bytearray(open(p, "rb").read())
a = 256 * 2048
loc, ln = struct.unpack("<I", img[a + 20:a + 24])[0], struct.unpack("<I", img[a + 16:a + 20])[0]
for s in range(loc, loc + ln // 2048):
    if struct.unpack("<H", img[s * 2048:s * 2048 + 2])[0] == 5:
        img[s * 2048 + 4] ^= 0xff
open(p, "wb").write(img)
PY
run probe --json "sim:$T/pd.img,profile=dvd-rom"
expect_json "UDF bridge, partition damaged: ISO 9660's size" '"\(.filesystem.type) \(.sources.filesystem)"' "iso9660 1024"
# and past the filesystem a DVD's hidden tail is still found
run probe --json "sim:$FIX/udf.img,profile=dvd-rom,hide=24"
expect_json "UDF, hide=24: filesystem right" .sources.filesystem 1024
expect_json "UDF, hide=24: true end" .true_blocks 1024

# DVD±R, BD-R: the last recorded track's information shown; an open disc
# whose READ CAPACITY says 1 or its last recorded address (opencap=)
run probe --json "sim:$D,profile=dvd+r,open=1"
expect_json "open DVD+R: the recorded track" \
	'.recorded_track | "\(.track) \(.start) \(.size) \(.last_recorded) \(.next_writable) \(.recorded_end)"' \
	"1 0 3000 2999 14400 3000"
expect_json "open DVD+R: no open-capacity" '.notes | index("open-capacity") == null' true
run probe "sim:$D,profile=dvd+r,open=1"
expect_grep "open DVD+R, text: recorded line" "$T/out" \
	'^recorded:  track 1 from LBA 0, 3000 blocks, last recorded LBA 2999; next writable LBA 14400$'
for oc in one lra; do
	run probe --json "sim:$D,profile=dvd+r,open=1,opencap=$oc"
	expect_rc "opencap=$oc: hidden-tail exit" 10
	expect_json "opencap=$oc: true end from the recorded extent" .true_blocks 3000
	expect_json "opencap=$oc: noted" '.notes | index("open-capacity") != null' true
	expect_json "opencap=$oc: READ CAPACITY wrong" '.wrong_sources | index("read_capacity") != null' true
	run image --json "sim:$D,profile=dvd-r,open=1,opencap=$oc" "$T/oc-$oc.iso"
	expect_json "opencap=$oc: image of all 3000" .extent_blocks 3000
	if cmp -s "$T/oc-$oc.iso" "$D"; then ok "opencap=$oc: OUT is the disc"
	else not_ok "opencap=$oc: OUT is the disc" "differs"; fi
done
run probe "sim:$D,profile=dvd+r,open=1,opencap=one"
expect_grep "opencap=one, text: the note" "$T/out" '^note: +open-capacity: READ CAPACITY of this appendable disc says 1 block'
# a closed DVD-R: the track, no next writable address
run probe --json "sim:$D,profile=dvd-r"
expect_json "closed DVD-R: the track, no NWA" '.recorded_track | "\(.size) \(.next_writable)"' "3000 null"
# BD-R open; a pressed DVD has no recorded track
run probe --json "sim:$D,profile=bd-r,open=1"
expect_json "open BD-R: recorded_end" .recorded_track.recorded_end 3000
run probe --json "sim:$D,profile=dvd-rom"
expect_json "DVD-ROM: no recorded track" .recorded_track null
run probe "sim:$D,profile=dvd-rom,opencap=one"
expect_rc "opencap without open=1: usage" 2
run probe "sim:$D,profile=dvd+r,open=1,opencap=two"
expect_rc "opencap=two: usage" 2

# ECC blocks (sim ecc=16|32: bad= fails whole ECC blocks, as the medium
# does): on DVD and BD the rescue reads whole units aligned to them, one
# failing read per unit; a CD profile over the same damage pays per block
mkimage "$T/big.img" 6000
BADS="bad=1000-1000:3003-3003:4000-4040"
rm -f "$T/e.tr"
run image --json "sim:$T/big.img,profile=dvd-rom,ecc=16,$BADS,trace=$T/e.tr" "$T/e1.iso"
expect_rc "ecc=16, DVD: exit 4" 4
expect_json "ecc=16, DVD: whole ECC blocks bad" '.bad_blocks | tostring' '[[992,1007],[2992,3007],[4000,4047]]'
dvd_failed=$(jq -r .total.failed_reads <"$T/out")
dvd_ms=$(jq -r .total.virtual_ms <"$T/out")
# every failing read of the rescue after the probe is a whole ECC block, on
# its grid, but the one block read alone after good data where a unit
# failed (at most one a bad area a pass: 3 areas, trim and retry)
bad_reads=$(awk '($1 == "28" || $1 == "a8" || $1 == "88") && $4 != "sense=00/00/00" {
	split($2, a, "="); split($3, b, "=")
	if ((a[2] % 16 || b[2] % 16) && b[2] != 1) print }' "$T/e.tr" | grep -c . || true)
single=$(awk '($1 == "28" || $1 == "a8" || $1 == "88") && $4 != "sense=00/00/00" && $3 == "blocks=1"' \
	"$T/e.tr" | grep -c . || true)
[ "$bad_reads" -le 2 ] && [ "$single" -le $((2 + 3 * 2)) ] &&
	ok "ecc=16, DVD: failing reads are ECC-aligned units (but the probe's and one block after good data)" ||
	not_ok "ecc=16, DVD: failing reads are ECC-aligned units" "$bad_reads unaligned, $single single"
run image --json "sim:$T/big.img,profile=cd-rom,ecc=16,$BADS" "$T/e2.iso"
expect_json "ecc=16, CD profile: the same bad blocks" '.bad_blocks | tostring' '[[992,1007],[2992,3007],[4000,4047]]'
cd_failed=$(jq -r .total.failed_reads <"$T/out")
if [ "$dvd_failed" -le 18 ] && [ "$cd_failed" -ge $((dvd_failed * 4)) ]; then
	ok "ecc=16: DVD pays about one failing read per ECC block ($dvd_failed), a CD's rescue per block ($cd_failed)"
else not_ok "ecc=16: failing reads" "DVD $dvd_failed, CD $cd_failed"; fi
cmp -s "$T/e1.iso" "$T/e2.iso" && ok "ecc=16: the same image either way" || not_ok "ecc=16: the same image either way" differs
run image --json "sim:$T/big.img,profile=bd-rom,ecc=32,$BADS" "$T/e3.iso"
expect_json "ecc=32, BD: whole clusters bad" '.bad_blocks | tostring' '[[992,1023],[2976,3007],[4000,4063]]'
# a resume reads nothing that is bad again but by units, and keeps the result
rm -f "$T/e.map" "$T/e4.iso"
run image --json --map "$T/e.map" "sim:$T/big.img,profile=dvd-rom,ecc=16,$BADS" "$T/e4.iso"
run image --json --map "$T/e.map" "sim:$T/big.img,profile=dvd-rom,ecc=16,$BADS" "$T/e4.iso"
expect_json "ecc=16, resumed: the same bad blocks" '.bad_blocks | tostring' '[[992,1007],[2992,3007],[4000,4047]]'
run probe "sim:$D,ecc=8"
expect_rc "ecc=8: usage" 2

# an open DVD+R whose READ CAPACITY says 1: its filesystem is still read
# (the recorded track, not READ CAPACITY, bounds the head)
run probe --json "sim:$FIX/udf.img,profile=dvd+r,open=1,opencap=one"
expect_json "opencap=one, UDF: the filesystem's size" '"\(.filesystem.type) \(.sources.filesystem)"' "udf 1024"
expect_json "opencap=one, UDF: the true end" .true_blocks 1024

# bad values
run probe "sim:$D,css=5-1"
expect_rc "css=5-1: usage" 2
run probe "sim:$D,css=4000-4001"
expect_rc "css past the image: usage" 2
expect_err_line "css past the image: says so" "css=4000-4001 lies past the image"

finish
