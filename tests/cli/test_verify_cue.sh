#!/bin/sh
# verify --cue FILE.cue DEV: the disc read raw (READ CD) against the .bin
# files a CUE sheet names, track by track.  The discs are tests/raw/model.py's
# (an independent model of raw sectors and CUE layouts) on the emulated drive
# (sim:FILE.cue); the sheets compared are copies of them, changed where a
# case says, so where the first difference must be is known from the change.
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
KINDS="mixed cdextra vcd audio iso multi"
mkdir "$T/disc"
for k in $KINDS bad; do
	python3 "$MODEL" disc "$k" "$T/disc" || { not_ok "model.py disc $k"; finish; exit 1; }
done

# copy KIND: $T/c/KIND.cue and its files, a sheet to change
copy() {
	rm -rf "$T/c"
	mkdir "$T/c"
	cp "$T/disc/$1.cue" "$T/disc/$1 (Track "* "$T/c/"
}

# flip FILE SECTOR SIZE: one byte in the middle of sector SECTOR changes
flip() {
	off=$(($2 * $3 + $3 / 2))
	old=$(od -An -tu1 -j "$off" -N1 "$1" | tr -d ' ')
	printf "\\$(printf '%03o' $(((old + 1) % 256)))" |
		dd of="$1" bs=1 seek="$off" conv=notrunc 2>/dev/null
}

# --- identical: every kind, both ways the drive can give track starts --------
for k in $KINDS; do
	for ti in index1 pregap; do
		run verify --json --cue "$T/disc/$k.cue" "sim:$T/disc/$k.cue,cost=0/0,trackinfo=$ti"
		expect_rc "$k ($ti): identical -> 0" 0
		expect_json "$k ($ti): verdict identical" .verdict identical
		expect_json "$k ($ti): every sector of every track compared, none differ" \
			'[.tracks[] | (.compared == .sectors and .diff_sectors == 0 and
			  (.length_differs | not))] | all' true
	done
	want=$(grep -c TRACK "$T/disc/$k.cue")
	expect_json "$k: a JSON entry per track of the sheet" '.tracks | length' "$want"
done
run verify --cue "$T/disc/mixed.cue" "sim:$T/disc/mixed.cue"
expect_grep "text: a line per track" "$T/out" \
	'^track  2:  mixed \(Track 2\)\.bin, 450 sectors from LBA 120: identical$'
expect_grep "text: the verdict" "$T/out" '^verdict: +identical$'

# --- one differing sector in track 2 (audio, with a 150-sector pregap) --------
# sector 200 of the file is 50 into the track after its pregap: LBA 270 + 50
copy mixed
flip "$T/c/mixed (Track 2).bin" 200 2352
run verify --json --cue "$T/c/mixed.cue" "sim:$T/disc/mixed.cue,cost=0/0"
expect_rc "one sector of track 2 differs -> 1" 1
expect_json "verdict different" .verdict different
expect_json "track 2: first differing sector 200 of its file, LBA 320" \
	'.tracks[1] | "\(.first_diff_sector) \(.first_diff_lba) \(.diff_sectors)"' "200 320 1"
expect_json "tracks 1 and 3 identical" '[.tracks[0,2].diff_sectors] | add' 0
expect_json "first_diff_lba of the disc" .first_diff_lba 320
run verify --cue "$T/c/mixed.cue" "sim:$T/disc/mixed.cue"
expect_grep "text: where track 2 differs" "$T/out" \
	'^track  2:  .*: differs, first at sector 200 \(LBA 320\)$'
run verify -v --cue "$T/c/mixed.cue" "sim:$T/disc/mixed.cue"
expect_grep "-v: the hex diff of the first differing sector" "$T/err" \
	'^cdtail: first difference at LBA 320 \(offset: disc \| image\)$'
# --all: every differing sector counted, not only the first
flip "$T/c/mixed (Track 2).bin" 201 2352
flip "$T/c/mixed (Track 3).bin" 7 2352
run verify --json --all --cue "$T/c/mixed.cue" "sim:$T/disc/mixed.cue,cost=0/0"
expect_json "--all: 2 in track 2, 1 in track 3" '[.tracks[].diff_sectors] | map(tostring) | join(",")' "0,2,1"
expect_json "--all: track 3's first at LBA 727" '.tracks[2].first_diff_lba' 727

# --- a MODE1/2048 file: its user data against bytes 16-2063 of the raw sector
copy iso
flip "$T/c/iso (Track 1).iso" 123 2048
run verify --json --cue "$T/c/iso.cue" "sim:$T/disc/iso.cue,cost=0/0"
expect_rc "MODE1/2048: one block differs -> 1" 1
expect_json "MODE1/2048: at sector 123" '.tracks[0].first_diff_lba' 123

# --- lengths: a track shorter than the disc's, a sheet without a disc track ----
copy audio
truncate -s -2352 "$T/c/audio (Track 2).bin"
run verify --json --cue "$T/c/audio.cue" "sim:$T/disc/audio.cue,cost=0/0"
expect_rc "last track one sector short -> 1" 1
expect_json "its length differs, its sectors match" \
	'.tracks[1] | "\(.length_differs) \(.diff_sectors)"' "true 0"
copy multi
sed -i '/Track 3/,$d' "$T/c/multi.cue"
run verify --json --cue "$T/c/multi.cue" "sim:$T/disc/multi.cue,cost=0/0"
expect_rc "the disc has a track the sheet has not -> 1" 1
expect_json "length_differs" .length_differs true

# --- unreadable sectors: bad= -> 4, and a difference still wins -> 1 ---------
run verify --json --cue "$T/disc/cdextra.cue" "sim:$T/disc/cdextra.cue,cost=0/0,bad=310-310"
expect_rc "bad=310-310 (track 2) -> 4" 4
expect_json "verdict unreadable" .verdict unreadable
expect_json "track 2: one bad sector, not compared" \
	'.tracks[1] | "\(.bad_sectors) \(.compared) \(.sectors)"' "1 149 150"
expect_json "bad_blocks and the range" '"\(.bad_count) \(.bad_blocks | tojson)"' '1 [[310,310]]'
copy cdextra
flip "$T/c/cdextra (Track 1).bin" 3 2352
run verify --json --cue "$T/c/cdextra.cue" "sim:$T/disc/cdextra.cue,cost=0/0,bad=310-310"
expect_rc "a difference and a bad sector -> 1" 1

# --- track 1's pregap before LBA 0: read (CDEmu), or refused with 05/21/00 (pregap1=refuse)
mkdir "$T/p1"
mkimage "$T/p1/a.bin" 400 2352
printf 'FILE "a.bin" BINARY\n  TRACK 01 AUDIO\n    INDEX 00 00:00:00\n    INDEX 01 00:02:00\n' \
	>"$T/p1/a.cue"
run verify --json --cue "$T/p1/a.cue" "sim:$T/p1/a.cue,cost=0/0"
expect_rc "a pregap before LBA 0 the drive reads -> 0" 0
run verify --json --cue "$T/p1/a.cue" "sim:$T/p1/a.cue,cost=0/0,pregap1=refuse"
expect_rc "a pregap before LBA 0 the drive does not read -> 4" 4
expect_json "its 150 sectors the track's bad, the rest compared" \
	'.tracks[0] | "\(.first_lba) \(.bad_sectors) \(.compared) \(.diff_sectors)"' "-150 150 250 0"
expect_json "not in bad_count (LBAs from 0)" .bad_count 0

# a sector stored with a wrong EDC: the drive returns its bytes with C2
# pointers set (cdtail-sim(7)); verify asks for C2 where the drive gives
# them, so the sector is unreadable, not a match it cannot vouch for
run verify --json --cue "$T/disc/bad.cue" "sim:$T/disc/bad.cue,cost=0/0"
expect_rc "C2 pointers set on sector 40 -> 4" 4
expect_json "sector 40 the bad one" '"\(.tracks[0].bad_sectors) \(.bad_blocks | tojson)"' '1 [[40,40]]'

# --- the sheet: usage errors, exit 2 ------------------------------------------
copy mixed
rm "$T/c/mixed (Track 3).bin"
run verify --cue "$T/c/mixed.cue" "sim:$T/disc/mixed.cue"
expect_rc "a missing .bin -> 2" 2
expect_err_line "the missing FILE is named" 'FILE "mixed \(Track 3\)\.bin" cannot be opened'
printf 'FILE "x.bin" BINARY\n  TRACK 01 MODE9/2352\n    INDEX 01 00:00:00\n' >"$T/c/bad.cue"
run verify --json --cue "$T/c/bad.cue" "sim:$T/disc/mixed.cue"
expect_rc "a malformed sheet -> 2" 2
expect_json "malformed: the JSON error object" .error.status 2
expect_grep "malformed: the message names the sheet and line" "$T/err" 'bad\.cue: .*line 2'
run verify --cue "$T/c/none.cue" "sim:$T/disc/mixed.cue"
expect_rc "no sheet -> 2" 2
run verify --cue "$T/disc/mixed.cue" --image "$T/disc/mixed (Track 1).bin" "sim:$T/disc/mixed.cue"
expect_rc "--cue with --image -> 2" 2

# --- FILE outside the sheet's folder, long lines (issue 32) --------------------
# a sheet from elsewhere must not make verify read any file: an absolute
# FILE or one with .. is refused, naming the line, unless --cue-paths any
mkdir "$T/p1/sub"
printf 'REM up\nFILE "../a.bin" BINARY\n  TRACK 01 AUDIO\n    INDEX 00 00:00:00\n    INDEX 01 00:02:00\n' \
	>"$T/p1/sub/up.cue"
printf 'FILE "%s" BINARY\n  TRACK 01 AUDIO\n    INDEX 00 00:00:00\n    INDEX 01 00:02:00\n' \
	"$T/p1/a.bin" >"$T/p1/abs.cue"
for k in sub/up abs; do
	line=1
	[ $k = sub/up ] && line=2
	run verify --json --cue "$T/p1/$k.cue" "sim:$T/p1/a.cue,cost=0/0"
	expect_rc "$k: a FILE outside the sheet's folder -> 2" 2
	expect_json "$k: the JSON error names the line and the way out" \
		'.error.message | test("cue line '$line': FILE outside the sheet.s folder .*--cue-paths any")' true
	run verify --json --cue-paths inside --cue "$T/p1/$k.cue" "sim:$T/p1/a.cue,cost=0/0"
	expect_rc "$k: --cue-paths inside, the default, -> 2" 2
	run verify --json --cue-paths any --cue "$T/p1/$k.cue" "sim:$T/p1/a.cue,cost=0/0"
	expect_rc "$k: --cue-paths any follows it -> 0" 0
	expect_json "$k: --cue-paths any: the track compared whole" \
		'.tracks[0] | "\(.file | test("a.bin$")) \(.compared) \(.diff_sectors)"' "true 400 0"
done
run verify --cue-paths any --image "$T/p1/a.bin" "sim:$T/p1/a.cue,cost=0/0"
expect_rc "--cue-paths without --cue -> 2" 2
expect_grep "--cue-paths without --cue: says so" "$T/err" "verify: --cue-paths goes with --cue"
run verify --cue-paths all --cue "$T/p1/a.cue" "sim:$T/p1/a.cue,cost=0/0"
expect_rc "--cue-paths all -> 2" 2
expect_grep "--cue-paths all: names the words" "$T/err" "verify: --cue-paths wants any or inside, not 'all'"
# a line longer than the reader takes is an error naming it, never cut: a
# cut FILE line once read as a shorter name
long=$(printf '%01100d' 0)
printf 'FILE "a.bin" BINARY\n  TRACK 01 AUDIO\n    TITLE "%s"\n    INDEX 00 00:00:00\n    INDEX 01 00:02:00\n' \
	"$long" >"$T/p1/long.cue"
run verify --cue "$T/p1/long.cue" "sim:$T/p1/a.cue,cost=0/0"
expect_rc "a line of 1110 characters -> 2" 2
expect_err_line "a long line: named" "long\.cue: cue line 3: longer than 1023 characters"

finish
