#!/bin/sh
# What cdtail-verify(1) says verify does with blocks that are not data:
# never read (READ 10/12/16 in the drive's trace after the probe's), zeros
# in the digests (so image's digest verifies), never compared with
# --image FILE whatever FILE holds there, listed as skipped, not bad.
. "$(dirname "$0")/lib.sh"

skip_list='.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")'

# image_then_verify NAME DEV OUT: image DEV to OUT (one check), then verify
# --sha256 of image's digest (in $sum) with the drive's trace in $T/tr
image_then_verify() {
	run image --json "$2" "$3"
	expect_rc "$1: image -> 0" 0
	sum=$(jq -r .sha256 "$T/out")
	rm -f "$T/tr"
	run verify --json --sha256 "$sum" "$2,trace=$T/tr"
}

# --- CD-Extra: audio 300 + 200, the gap of 11400, data 100 -------------------
# every block of the file numbered, so any block read from the wrong place shows
X="$T/extra.img"
python3 -c "
import sys
with open(sys.argv[1], 'wb') as f:
    for b in range(12000):
        f.write(b.to_bytes(4, 'big') * 512)" "$X"
# under TEST_WRAPPER (valgrind hashes 24 MB a run slowly) the gap that
# would hang a read only
gaps="05/21/00 zero hang"
[ -n "$TEST_WRAPPER" ] && gaps=hang
for gap in $gaps; do
	DEV="sim:$X,layout=audio:300+audio:200/data:100,gap=$gap"
	tag=$(echo "$gap" | tr / -)
	image_then_verify "gap=$gap" "$DEV" "$T/x-$tag.iso"
	expect_rc "gap=$gap: verify --sha256 of image's digest -> 0" 0
	expect_json "gap=$gap: identical" .verdict identical
	expect_json "gap=$gap: audio and gap skipped" "$skip_list" \
		"0+300 audio,300+200 audio,500+11400 gap"
	expect_json "gap=$gap: skipped_blocks" .skipped_blocks 11900
	expect_json "gap=$gap: not bad" .bad_count 0
	expect_json "gap=$gap: only the data read" .blocks_read 100
	expect_json "gap=$gap: the digest is image's" .sha256 "$sum"
	no_read "gap=$gap: verify reads no audio and no gap" "$DEV" "$T/tr" 0 11900
done
DEV="sim:$X,layout=audio:300+audio:200/data:100"
sha=$(sha256sum "$T/x-$tag.iso" | cut -d' ' -f1)
run verify --sha256 "$sha" "$DEV"
expect_rc "the sha256 of image's OUT verifies -> 0" 0
expect_grep "text: the skipped areas" "$T/out" "^skipped: +11900 blocks not data, never read \(zeros in the digests\)"
expect_grep "text: the gap" "$T/out" "^ +500-11899 gap"
md5=$(md5sum "$T/x-$tag.iso" | cut -d' ' -f1)
run verify --md5 "$md5" "$DEV"
expect_rc "the md5 of image's OUT verifies -> 0" 0
# the file the drive serves holds numbered blocks in audio and gap: another
# tool's image may hold anything there, and it is not compared
run verify --json --image "$X" "$DEV"
expect_rc "--image with other bytes where not data -> 0" 0
expect_json "--image: identical" .verdict identical
expect_json "--image: no difference counted" .diff_count 0
expect_json "--image: skipped_blocks" .skipped_blocks 11900
run verify --image "$T/x-$tag.iso" "$DEV"
expect_rc "--image image's OUT -> 0" 0
expect_grep "text --image: not compared" "$T/out" "never read \(not compared, zeros in the digests\)"
cp "$T/x-$tag.iso" "$T/gapbyte.iso"
put_byte "$T/gapbyte.iso" 6000 17
run verify --json --image "$T/gapbyte.iso" "$DEV"
expect_rc "--image with a changed gap byte -> 0" 0
cp "$T/x-$tag.iso" "$T/databyte.iso"
put_byte "$T/databyte.iso" 11950 5
run verify --json --all --image "$T/databyte.iso" "$DEV"
expect_rc "--image with a changed data byte -> 1" 1
expect_json "a changed data byte: its LBA" .first_diff_lba 11950
expect_json "a changed data byte: one block differs" .diff_count 1
run verify --json --sha256 "$(sha256sum "$T/databyte.iso" | cut -d' ' -f1)" "$DEV"
expect_rc "--sha256 of another image -> 1" 1
# a file that lacks the data session: it differs where it ends
head -c $((11900 * 2048)) "$T/x-$tag.iso" >"$T/short.iso"
run verify --json --image "$T/short.iso" "$DEV"
expect_rc "--image lacking the data session -> 1" 1
expect_json "short: differs where FILE ends" .first_diff_lba 11900
expect_json "short: length_differs" .length_differs true

# --- a bad block in a data session: bad, the gap is not ----------------------
M="$T/multi.img"
mkimage "$M" $((1000 + 11400 + 600))
DEV="sim:$M,layout=data:1000/data:600,bad=200-203:12600-12601"
rm -f "$T/tr"
run verify --json --image "$M" "$DEV,trace=$T/tr"
expect_rc "multi-session, bad data blocks -> 4" 4
expect_json "multi-session: bad_count is the data's" .bad_count 6
expect_json "multi-session: bad ranges" '.bad_blocks | map("\(.[0])-\(.[1])") | join(",")' \
	"200-203,12600-12601"
expect_json "multi-session: the gap skipped" "$skip_list" "1000+11400 gap"
expect_json "multi-session: blocks_read" .blocks_read 1594
no_read "multi-session: no read of the gap" "$DEV" "$T/tr" 1000 12400

# --- mixed mode: data 1500, then audio 300 + 200 -----------------------------
MM="$T/mixed.img"
mkimage "$MM" 2000
DEV="sim:$MM,layout=data:1500+audio:300+audio:200"
head -c $((1500 * 2048)) "$MM" >"$T/mm.iso"
head -c $((500 * 2048)) /dev/zero >>"$T/mm.iso"
rm -f "$T/tr"
run verify --json --sha256 "$(sha256sum "$T/mm.iso" | cut -d' ' -f1)" "$DEV,trace=$T/tr"
expect_rc "mixed mode: the data and zeros for audio -> 0" 0
expect_json "mixed mode: the audio tracks skipped" "$skip_list" "1500+300 audio,1800+200 audio"
no_read "mixed mode: no read of audio" "$DEV" "$T/tr" 1500 2000

# --- TAO: the run-out between two tracks -------------------------------------
TAO="$T/tao.img"
mkimage "$TAO" 1500
DEV="sim:$TAO,layout=data:1000+data:500,tao=1"
rm -f "$T/tr"
run verify --json --image "$TAO" "$DEV,trace=$T/tr"
expect_rc "TAO: the run-out between tracks not compared -> 1 (FILE is longer)" 1
expect_json "TAO: the run-out skipped" "$skip_list" "998+2 runout"
expect_json "TAO: extent excludes the last run-out" .extent_blocks 1498
expect_json "TAO: FILE differs where the disc ends" .first_diff_lba 1498
no_read "TAO: no read of the run-out" "$DEV" "$T/tr" 998 1000
head -c $((1498 * 2048)) "$TAO" >"$T/tao.iso"
run verify --json --image "$T/tao.iso" "$DEV"
expect_rc "TAO: FILE of the extent -> 0" 0

# --- formatted DVD+RW: the unwritten rest -------------------------------------
ISO="$FIX/iso9660.iso"
N=$(($(wc -c <"$ISO") / 2048))
FMT="sim:$ISO,profile=dvd+rw,formatted=$((N + 500))"
image_then_verify formatted "$FMT" "$T/fmt.iso"
expect_rc "formatted: verify of image's digest -> 0" 0
expect_json "formatted: the unwritten rest skipped" "$skip_list" "$N+500 unwritten"
no_read "formatted: verify reads nothing past the filesystem" "$FMT" "$T/tr" "$N" $((N + 500))
run verify --json --image "$T/fmt.iso" "$FMT"
expect_rc "formatted: --image image's OUT -> 0" 0
# the ISO burned to a formatted disc: the unwritten rest is padding, FILE is
# on the disc intact (issue 24: it was "different" at LBA N)
run verify --json --image "$ISO" "$FMT"
expect_rc "formatted: --image the filesystem alone -> 0 (padding)" 0
expect_json "formatted: the unwritten rest is padding" '[.verdict, .padding_blocks, (.notes | join(","))] | join(" ")' "identical 500 padding"

# --- verify --formatted skip|cut|read: what image --formatted made -----------
# each policy's image digest verifies with the same policy (cdtail-verify(1))
M=$((N + 500))
for how in skip cut read; do
	formatted_policy $how "$N" "$M"
	run image --json --formatted $how "$FMT" "$T/fmt-$how.iso"
	expect_rc "--formatted $how: image -> 0" 0
	eval "sum_$how=\$(jq -r .sha256 \"\$T/out\")"
	eval "sum=\$sum_$how"
	rm -f "$T/tr"
	run verify --json --formatted $how --sha256 "$sum" "$FMT,trace=$T/tr"
	expect_rc "--formatted $how: verify of image's digest -> 0" 0
	expect_json "--formatted $how: identical" .verdict identical
	expect_json "--formatted $how: the digest is image's" .sha256 "$sum"
	expect_json "--formatted $how: the extent" .extent_blocks "$ext"
	expect_json "--formatted $how: skipped" "$skip_list" "$skipped"
	got=$(reads_in "$T/tr" "$N" "$M" | grep -v "lba=$((M - 1)) blocks=1 " | head -1)
	if [ $how = read ]; then
		[ -n "$got" ] && ok "--formatted read: the unwritten rest is read" ||
			not_ok "--formatted read: the unwritten rest is read" "no read at $N..$((M - 1))"
	else
		no_read "--formatted $how: nothing read past the filesystem" "$FMT" "$T/tr" "$N" "$M"
	fi
	run verify --json --formatted $how --image "$T/fmt-$how.iso" "$FMT"
	expect_rc "--formatted $how: --image image's OUT -> 0" 0
done
# the default is skip: the digest of image's default verifies without the option
run verify --json --sha256 "$sum_skip" "$FMT"
expect_rc "verify's default is skip: skip's digest -> 0" 0
# a policy other than image's: another extent, another digest
run verify --json --formatted cut --sha256 "$sum_skip" "$FMT"
expect_rc "cut against skip's digest -> 1" 1
# skip against cut's digest: a digest is checked at every length the image
# can have (issue 24), and cut's ends at the filesystem, one of them
run verify --json --sha256 "$sum_cut" "$FMT"
expect_rc "skip against cut's digest: it matches at the filesystem's length -> 0" 0
expect_json "skip against cut's digest: matched_blocks is the filesystem's" .matched_blocks "$N"
run verify --formatted bogus --sha256 "$sum_skip" "$FMT"
expect_rc "verify --formatted bogus -> 2" 2
expect_grep "verify --formatted bogus: says what it wants" "$T/err" \
	"verify: --formatted wants skip, cut or read, not 'bogus'"

finish
