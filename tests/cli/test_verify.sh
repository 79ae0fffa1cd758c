#!/bin/sh
# cdtail verify: the disc against an image or a digest.
. "$(dirname "$0")/lib.sh"

N=400
IMG="$T/disc.img"
mkimage "$IMG" $N
SHA=$(sha256sum <"$IMG" | cut -c1-64)
MD5=$(md5sum <"$IMG" | cut -c1-32)

run verify --json --image "$IMG" "sim:$IMG,cost=0/0,hide=7"
expect_rc "identical (hidden tail included) -> 0" 0
expect_json "identical: verdict" .verdict identical
expect_json "identical: blocks read" .blocks_read $N
expect_json "identical: sha256" .sha256 "$SHA"
expect_json "identical: no first diff" .first_diff_lba null

head -c $(((N - 7) * 2048)) "$IMG" >"$T/short"
run verify --json --image "$T/short" "sim:$IMG,cost=0/0,hide=7"
expect_rc "a dd copy misses the tail -> 1" 1
expect_json "dd copy: first diff at the reported end" .first_diff_lba $((N - 7))
expect_json "dd copy: length differs" .length_differs true

cp "$IMG" "$T/diff"
printf 'XY' | dd of="$T/diff" bs=1 seek=$((123 * 2048 + 100)) conv=notrunc 2>/dev/null
printf 'XY' | dd of="$T/diff" bs=1 seek=$((300 * 2048)) conv=notrunc 2>/dev/null
run verify --json --image "$T/diff" "sim:$IMG,cost=0/0"
expect_rc "different -> 1" 1
expect_json "different: first LBA" .first_diff_lba 123
expect_json "different: stops at the first" .complete false
run verify --json --all --image "$T/diff" "sim:$IMG,cost=0/0"
expect_rc "different --all -> 1" 1
expect_json "--all: every range" '.diff_blocks | tostring' '[[123,123],[300,300]]'
expect_json "--all: read to the end" .complete true
run verify -v --image "$T/diff" "sim:$IMG,cost=0/0"
expect_grep "-v: hex diff of the block" "$T/err" '^0060: .*\|'

run verify --json --sha256 "$SHA" "sim:$IMG,cost=0/0,hide=3"
expect_rc "sha256 matches -> 0" 0
run verify --json --md5 "$(echo "$MD5" | tr a-f A-F)" "sim:$IMG,cost=0/0"
expect_rc "md5 in upper case matches -> 0" 0
run verify --json --md5 "$(md5sum <"$T/diff" | cut -c1-32)" "sim:$IMG,cost=0/0"
expect_rc "md5 differs -> 1" 1
expect_json "md5 differs: verdict" .verdict different

run verify --json --sha256 "$SHA" "sim:$IMG,cost=0/0,bad=10-11"
expect_rc "unreadable blocks -> 4" 4
expect_json "unreadable: ranges" '.bad_blocks | tostring' '[[10,11]]'
run verify --json --image "$IMG" "sim:$IMG,cost=0/0,flaky=20-22:1"
expect_rc "flaky blocks recovered by retries -> 0" 0

mkimage "$T/d512" 1500 512
run verify --json --image "$T/d512" "sim:$T/d512,cost=0/0,block=512,hide=5"
expect_rc "block=512 -> 0" 0

ISO="$FIX/iso9660.iso"
if [ -f "$ISO" ]; then
	run verify --json --image "$ISO" "sim:$ISO,cost=0/0,hide=2"
	expect_rc "ISO -> 0" 0
	expect_json "ISO: filesystem fits" .filesystem.fits true
	expect_json "ISO: filesystem type" .filesystem.type iso9660
fi
run verify --json --image "$IMG" "sim:$IMG,cost=0/0"
expect_json "no filesystem: fits is null" .filesystem.fits null

run verify "sim:$IMG,cost=0/0" --image "$IMG"
expect_rc "options after DEV, as the contract writes them -> 0" 0
run verify "sim:$IMG"
expect_rc "no mode -> 2" 2
run verify --md5 "$MD5" --sha256 "$SHA" "sim:$IMG"
expect_rc "two modes -> 2" 2
run verify --sha256 abc "sim:$IMG"
expect_rc "short sha256 -> 2" 2
expect_grep "short sha256: says why" "$T/err" "wants 64 hex digits"
run verify --image "$T/none" "sim:$IMG,cost=0/0"
expect_rc "missing image file -> 2" 2

# --- the burn question: is my ISO on the disc? (issue 24) ----------------------
# a burn pads (wodim -pad, mkisofs padding, a DVD's ECC block): zeros past FILE
mkimage "$T/burn.iso" 800
{ cat "$T/burn.iso"; head -c $((150 * 2048)) /dev/zero; } >"$T/padded.img"
run verify --image "$T/burn.iso" "sim:$T/padded.img"
expect_rc "burn: ISO + 150 zero blocks -> 0" 0
expect_grep "burn: identical" "$T/out" '^verdict: +identical$'
expect_grep "burn: a note names the padding and its count" "$T/out" "^note: +padding: the 150 blocks past $T/burn.iso are"
run verify --json --image "$T/burn.iso" "sim:$T/padded.img"
expect_json "burn: JSON verdict, notes, padding_blocks" '[.verdict, (.notes | join(",")), .padding_blocks, .length_differs] | map(tostring) | join(" ")' "identical padding 150 true"
# ... and a TAO run-out after the padding: never read, padding too
run verify --json --image "$T/burn.iso" "sim:$T/padded.img,runout=2"
expect_json "burn + run-out: identical, padding" '[.verdict, (.notes | join(","))] | join(" ")' "identical padding"
# a FILE of the disc's exact length: no padding note
run verify --json --image "$T/padded.img" "sim:$T/padded.img"
expect_json "burn: FILE as long as the disc, no note" '[.verdict, (.notes | length), .padding_blocks] | map(tostring) | join(" ")' "identical 0 0"
# data past FILE: FILE is the disc's prefix, not the disc
{ cat "$T/burn.iso"; head -c $((10 * 2048)) /dev/zero; mkimage "$T/more" 5; cat "$T/more"; } >"$T/longer.img"
run verify --image "$T/burn.iso" "sim:$T/longer.img"
expect_rc "prefix: data past FILE -> 1" 1
expect_grep "prefix: verdict" "$T/out" '^verdict: +prefix$'
expect_grep "prefix: where the data starts" "$T/out" 'past it \(from LBA 810\)$'
expect_no_grep "prefix: no tail hint when FILE is not at the reported length" "$T/out" 'cdtail tail'
# a dd copy that stopped at the reported length: cdtail tail completes it
run verify --json --image "$T/burn.iso" "sim:$T/padded.img,hide=150"
expect_json "dd copy at the reported length, zeros hidden: identical" .verdict identical
run verify --image "$T/burn.iso" "sim:$T/longer.img,hide=15"
expect_rc "prefix at the reported length -> 1" 1
expect_grep "prefix at the reported length: next names cdtail tail" "$T/out" "cdtail tail sim:$T/longer.img,hide=15 $T/burn.iso"
# a difference inside FILE stays a difference, padding or not
cp "$T/burn.iso" "$T/burn2.iso"
put_byte "$T/burn2.iso" 400 7
run verify --json --image "$T/burn2.iso" "sim:$T/padded.img"
expect_rc "burn: a byte changed inside FILE -> 1" 1
expect_json "burn: different at the changed block" '[.verdict, .first_diff_lba] | map(tostring) | join(" ")' "different 400"
# --- digests as people have them: a sha256sum line, a checksum file ----------
(cd "$T" && sha256sum padded.img >SHA256SUMS && sha256sum burn.iso >>SHA256SUMS && md5sum padded.img >MD5SUMS)
line=$(cd "$T" && sha256sum padded.img)
run verify -q --sha256 "$line" "sim:$T/padded.img"
expect_rc "--sha256 'HEX  NAME' (a sha256sum line) -> 0" 0
run verify -q --sha256 $(cd "$T" && sha256sum padded.img) "sim:$T/padded.img"
expect_rc "--sha256 \$(sha256sum FILE) word-split: the first word is the digest -> 2 (NAME is an operand)" 2
run verify -q --md5 "$(cd "$T" && md5sum -b padded.img)" "sim:$T/padded.img"
expect_rc "--md5 'HEX *NAME' (md5sum -b) -> 0" 0
run verify -q --sha256 "abc  padded.img" "sim:$T/padded.img"
expect_rc "--sha256 with a short first word -> 2" 2
expect_grep "--sha256: the message says what it wants" "$T/err" 'wants 64 hex digits \(or a sha256sum line\)'
run verify -q --sha256-file "$T/SHA256SUMS" --name padded.img "sim:$T/padded.img"
expect_rc "--sha256-file F --name NAME -> 0" 0
run verify -q --sha256-file "$T/SHA256SUMS" --name "$T/padded.img" "sim:$T/padded.img"
expect_rc "--name with a path: matched by its last component -> 0" 0
run verify -q --sha256-file "$T/SHA256SUMS" --name burn.iso "sim:$T/padded.img"
expect_rc "--sha256-file: another entry's digest -> 1" 1
run verify -q --sha256-file "$T/SHA256SUMS" "sim:$T/padded.img"
expect_rc "--sha256-file of two entries without --name -> 2" 2
expect_grep "--sha256-file: two entries, say which" "$T/err" "has 2 entries: say which with --name"
run verify -q --md5-file "$T/MD5SUMS" "sim:$T/padded.img"
expect_rc "--md5-file of one entry -> 0" 0
run verify -q --sha256-file "$T/SHA256SUMS" --name nothere.iso "sim:$T/padded.img"
expect_rc "--name not in the file -> 2" 2
run verify -q --sha256-file "$T/missing" "sim:$T/padded.img"
expect_rc "--sha256-file missing -> 2" 2
run verify -q --name x --sha256 "$line" "sim:$T/padded.img"
expect_rc "--name without a checksum file -> 2" 2
run verify --json --sha256-file "$T/SHA256SUMS" --name padded.img "sim:$T/padded.img"
expect_json "--sha256-file: expected is the digest read" .expected "$(sha256sum <"$T/padded.img" | cut -c1-64)"
# --- a digest checked at every length the image can have ------------------------
ISO9660="$FIX/iso9660.iso"
{ cat "$ISO9660"; head -c $((150 * 2048)) /dev/zero; } >"$T/fspad.img"
isosum=$(sha256sum <"$ISO9660" | cut -c1-64)
run verify --json --sha256 "$isosum" "sim:$T/fspad.img"
expect_rc "digest of the ISO, disc padded past its filesystem -> 0" 0
expect_json "the filesystem's size matched" '[.verdict, .matched_blocks, (.lengths_tried | map(tostring) | join(","))] | map(tostring) | join(" ")' "identical 112 262,112"
run verify --sha256 "$isosum" "sim:$T/fspad.img"
expect_grep "text: the lengths tried and the one matched" "$T/out" "^lengths: +tried 262, 112 blocks; the digest is the first 112 blocks'$"
run verify --json --sha256 "$(sha256sum <"$T/burn.iso" | cut -c1-64)" "sim:$T/padded.img,hide=150"
expect_json "a dd copy's digest: READ CAPACITY's length matched" '[.verdict, .matched_blocks] | map(tostring) | join(" ")' "identical 800"
run verify --json --sha256 "$(sha256sum <"$T/burn.iso" | cut -c1-64)" "sim:$T/padded.img"
expect_json "no length matches (no filesystem, READ CAPACITY true): different" '[.verdict, .matched_blocks, (.lengths_tried | length)] | map(tostring) | join(" ")' "different null 1"
run verify --json --length 800 --md5 "$(md5sum <"$T/burn.iso" | cut -c1-32)" "sim:$T/padded.img"
expect_json "--length BLOCKS: one more length, matched" '[.verdict, .matched_blocks] | map(tostring) | join(" ")' "identical 800"
# --length BYTES (issue 24): an ISO's size as stat gives it, with a B
run verify --json --length "$(stat -c%s "$T/burn.iso")B" --md5 "$(md5sum <"$T/burn.iso" | cut -c1-32)" "sim:$T/padded.img"
expect_json "--length BYTES: the ISO's size in bytes, matched at its blocks" '[.verdict, .matched_blocks] | map(tostring) | join(" ")' "identical 800"
run verify --json --length $((800 * 2048 + 1000))B --md5 "$(md5sum <"$T/burn.iso" | cut -c1-32)" "sim:$T/padded.img"
expect_rc "--length BYTES not whole blocks -> 2" 2
expect_json "--length BYTES not whole blocks: says so" .error.message \
	"verify: length $((800 * 2048 + 1000)) bytes is not a whole number of 2048-byte blocks ($((800 * 2048)) and $((801 * 2048)) bytes are)"
run verify --length $((801 * 512))B --md5 "$(md5sum <"$T/burn.iso" | cut -c1-32)" "sim:$T/padded.img"
expect_rc "--length BYTES, a multiple of 512 only -> 2" 2
expect_err_line "--length BYTES not whole blocks: one line" 'not a whole number of 2048-byte blocks'
for bad in 12x 0 0B B -5; do
	run verify --length "$bad" --md5 "$(md5sum <"$T/burn.iso" | cut -c1-32)" "sim:$T/padded.img"
	expect_rc "--length '$bad' -> 2" 2
	expect_grep "--length '$bad': the message names both forms" "$T/err" "^cdtail: verify: --length wants BLOCKS, or BYTES followed by B .*not '$bad'\$"
done
run verify --json --sha256 "$(sha256sum <"$T/fspad.img" | cut -c1-64)" "sim:$T/fspad.img"
expect_json "the whole disc's digest: the true end matched" .matched_blocks 262

# --- issue 28 H: a FILE longer or shorter than the disc, counted alike ---------
# with --all every block one holds past the disc, or lacks, is one
# difference; without it the first
for k in 1 3; do
	head -c $(((N - k) * 2048)) "$IMG" >"$T/short$k"
	cat "$IMG" "$IMG" | head -c $(((N + k) * 2048)) >"$T/long$k"
	run verify --json --all --image "$T/short$k" "sim:$IMG,cost=0/0"
	expect_json "FILE $k shorter, --all: first diff, count, blocks" \
		'[.first_diff_lba, .diff_count, .diff_blocks]|tostring' "[$((N - k)),$k,[[$((N - k)),$((N - 1))]]]"
	run verify --json --all --image "$T/long$k" "sim:$IMG,cost=0/0"
	expect_rc "FILE $k longer, --all -> 1" 1
	expect_json "FILE $k longer, --all: first diff, count, blocks" \
		'[.first_diff_lba, .diff_count, .diff_blocks]|tostring' "[$N,$k,[[$N,$((N + k - 1))]]]"
	run verify --json --image "$T/long$k" "sim:$IMG,cost=0/0"
	expect_json "FILE $k longer: the first, counted" \
		'[.first_diff_lba, .diff_count, .diff_blocks]|tostring' "[$N,1,[[$N,$N]]]"
done
head -c 100 /dev/zero | cat "$IMG" - >"$T/long-part"
run verify --json --all --image "$T/long-part" "sim:$IMG,cost=0/0"
expect_json "FILE 100 bytes longer: one block past the disc" \
	'[.first_diff_lba, .diff_count]|tostring' "[$N,1]"

# --- --retries' default (issue 32): --help and cdtail-verify(1) state one
# value, and it is the code's: without --retries every block fails or reads
# as with --retries N, over flaky blocks that need 1 to 8 tries
help_n=$("$CDTAIL" verify --help | tr -s ' \n' ' ' |
	sed -n 's/.*--retries N try blocks still bad N more times, 0 to 1000 (default \([0-9]*\)).*/\1/p')
man_n=$(sed -n '/^\.BI \\-\\-retries " N"/,/^\.TP/p' "$ROOT/man/cdtail-verify.1" | tr '\n' ' ' |
	sed -n 's/.*before it counts as unreadable (default \([0-9]*\))\..*/\1/p')
if [ -n "$help_n" ] && [ "$help_n" = "$man_n" ]; then
	ok "--retries: --help and the page state the same default ($help_n)"
else
	not_ok "--retries: --help and the page state the same default" "help '$help_n', page '$man_n'"
fi
wrong=""
for t in 1 2 3 4 5 6 7 8; do
	run verify --json --image "$IMG" "sim:$IMG,cost=0/0,flaky=20-20:$t"
	a=$RC
	run verify --json --retries "${help_n:-0}" --image "$IMG" "sim:$IMG,cost=0/0,flaky=20-20:$t"
	[ "$a" = "$RC" ] || wrong="$wrong flaky $t: exit $a without, $RC with --retries $help_n;"
done
if [ -z "$wrong" ]; then ok "--retries: the stated default is what verify does without it"
else not_ok "--retries: the stated default is what verify does without it" "$wrong"; fi

finish
