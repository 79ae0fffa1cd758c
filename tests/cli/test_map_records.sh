#!/bin/sh
# The map's comment records are read by one strict parser (issue 31): a
# map edited to carry a negative or out-of-range number is refused as
# damaged (status 2, the JSON error object, one line that names the
# value), OUT and the map untouched; never "true_blocks": -1 on a
# "complete" image, as sscanf's reading of "true_blocks=-1" gave.
. "$(dirname "$0")/lib.sh"

N=3000
A="$T/a.img"
mkimage "$A" $N
O="$T/o.iso"
M="$T/o.map"

keep() { cp "$O" "$T/o.keep"; cp "$M" "$T/m.keep"; }
unchanged() {
	if cmp -s "$O" "$T/o.keep" && cmp -s "$M" "$T/m.keep"; then ok "$1: OUT and map untouched"
	else not_ok "$1: OUT and map untouched"; fi
}

run image -q --map "$M" "sim:$A" "$O"
expect_rc "a first run -> 0" 0
cp "$M" "$T/m.good"
expect_grep "the first run records its identity" "$M" \
	"^# cdtail identity: block_size=2048 extent=$N true_blocks=$N\$"

# damaged NAME SED-EXPR WORDS: the map edited so is refused, naming WORDS
damaged() {
	cp "$T/m.good" "$M"
	sed -i "$2" "$M"
	if cmp -s "$M" "$T/m.good"; then not_ok "$1: the edit took"; return; fi
	keep
	run image --json --map "$M" "sim:$A" "$O"
	expect_rc "$1: refused -> 2" 2
	expect_json "$1: the JSON error object" .error.status 2
	expect_json "$1: no true_blocks reported" .true_blocks null
	if grep -q '"true_blocks": *-1' "$T/out"; then not_ok "$1: never true_blocks -1"
	else ok "$1: never true_blocks -1"; fi
	expect_err_line "$1: one line naming it" "damaged cdtail .*$3"
	unchanged "$1"
}

damaged "true_blocks=-1 (the issue's)" "s/true_blocks=$N/true_blocks=-1/" 'true_blocks=-1 is not a count of blocks'
damaged "true_blocks=2^64-1" "s/true_blocks=$N/true_blocks=18446744073709551615/" 'true_blocks=18446744073709551615'
damaged "true_blocks=+3000" "s/true_blocks=$N/true_blocks=+$N/" "true_blocks=\\+$N"
damaged "extent=-3000" "s/extent=$N/extent=-$N/" "extent=-$N"
damaged "extent=0" "s/extent=$N/extent=0/" 'extent=0'
damaged "block_size=2047" "s/block_size=2048/block_size=2047/" 'block_size=2047 is not a block size'
damaged "max_extra=-8" "s/true_blocks=$N\$/true_blocks=$N max_extra=-8 search=window/" 'max_extra=-8'
damaged "a window's true end past its edge" \
	"s/true_blocks=$N\$/true_blocks=$((N + 1)) max_extra=8 search=window/" "past the window's edge"
damaged "an identity block at -1" "s/identity block 16 /identity block -1 /" 'identity block'

# the good map still resumes, and says what it is
cp "$T/m.good" "$M"
run image --json --map "$M" "sim:$A" "$O"
expect_rc "the good map resumes -> 0" 0
expect_json "resumed: complete" .verdict complete
expect_json "resumed: true_blocks from the record" .true_blocks $N

# image --raw's map: its raw line is read by the same parser
python3 "$ROOT/tests/raw/model.py" disc mixed "$T" || { not_ok "model.py disc mixed"; finish; exit 1; }
mkdir "$T/r"
run image --raw -q --map "$T/r.map" "sim:$T/mixed.cue" "$T/r/mixed.cue"
expect_rc "raw: a first run -> 0" 0
expect_grep "raw: the map names its stream" "$T/r.map" '^# cdtail raw: sector=2352 .* sectors=[0-9]+ files=[0-9]+$'
cp "$T/r.map" "$T/r.good"
sed -i 's/ sectors=[0-9]*/ sectors=-1/' "$T/r.map"
run image --raw --json --map "$T/r.map" "sim:$T/mixed.cue" "$T/r/mixed.cue"
expect_rc "raw: sectors=-1 refused -> 2" 2
expect_err_line "raw: one line naming it" "damaged cdtail raw line: the raw line's sectors="
cp "$T/r.good" "$T/r.map"
sed -i 's/ files=\([0-9]*\)$/ files=9\1/' "$T/r.map"
run image --raw --json --map "$T/r.map" "sim:$T/mixed.cue" "$T/r/mixed.cue"
expect_rc "raw: a raw line of another stream -> 2" 2
expect_err_line "raw: another disc" "belongs to another disc"
cp "$T/r.good" "$T/r.map"
run image --raw --json --map "$T/r.map" "sim:$T/mixed.cue" "$T/r/mixed.cue"
expect_rc "raw: the good map resumes -> 0" 0
expect_json "raw: resumed" .resumed true

finish
