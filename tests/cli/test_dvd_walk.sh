#!/bin/sh
# verify and tail's compare window on DVD and BD (issue 36): the in-order
# pass has no later pass, so a failed chunk is read again at once; on DVD
# and BD unit by unit (sim ecc=16|32: a defect fails its whole ECC block or
# cluster, as the medium does), each unit tried 1 + retries times, not
# each sector; a CD profile over the same damage still pays per block.
. "$(dirname "$0")/lib.sh"

N=6000
D="$T/disc.img"
mkimage "$D" $N
BADS="bad=1000-1000:3003-3003:4000-4040"

# the disc with the blocks the medium fails as zeros: what verify hashes
zeroed() {
	cp "$D" "$T/want.img"
	for r in "$@"; do
		a=${r%-*} b=${r#*-}
		dd if=/dev/zero of="$T/want.img" bs=2048 seek="$a" count=$((b - a + 1)) \
			conv=notrunc 2>/dev/null
	done
	sha256sum <"$T/want.img" | cut -c1-64
}

# failing READs after the probe's that are no whole unit on its grid, and
# single-block failing reads (the block after good data where a unit failed)
unaligned_fails() {
	awk -v u="$2" '($1 == "28" || $1 == "a8" || $1 == "88") && $4 != "sense=00/00/00" {
		split($2, a, "="); split($3, b, "=")
		if ((a[2] % u || b[2] % u) && b[2] != 1) n++ } END { print n + 0 }' "$1"
}
single_fails() {
	awk '($1 == "28" || $1 == "a8" || $1 == "88") && $4 != "sense=00/00/00" &&
		$3 == "blocks=1" { n++ } END { print n + 0 }' "$1"
}

# own_reads DEV TRACE: TRACE less the commands `cdtail probe DEV` sends
# first (the end search's single blocks), in $T/own.tr
own_reads() {
	rm -f "$T/p.tr"
	"$CDTAIL" probe "$1,trace=$T/p.tr" >/dev/null 2>&1
	tail -n +"$(($(wc -l <"$T/p.tr") + 1))" "$2" >"$T/own.tr"
}

# --- verify, DVD: whole ECC blocks ------------------------------------------------
rm -f "$T/v.tr"
run verify --json --image "$D" "sim:$D,cost=0/0,profile=dvd-rom,ecc=16,$BADS,trace=$T/v.tr"
expect_rc "verify, ecc=16, DVD: unreadable -> 4" 4
expect_json "verify, DVD: whole ECC blocks unreadable" '.bad_blocks | tostring' \
	'[[992,1007],[2992,3007],[4000,4047]]'
expect_json "verify, DVD: nothing differs" .diff_count 0
expect_json "verify, DVD: sha256 with zeros for the unreadable units" .sha256 \
	"$(zeroed 992-1007 2992-3007 4000-4047)"
dvd_failed=$(jq -r '.total.failed_reads - .search_failed_reads' <"$T/out")
# 5 units: at most the chunk's read, 3 tries and the block after good data each
if [ "$dvd_failed" -le 25 ]; then ok "verify, DVD: a few failing reads a unit ($dvd_failed for 5)"
else not_ok "verify, DVD: failing reads" "$dvd_failed for 5 units"; fi
own_reads "sim:$D,cost=0/0,profile=dvd-rom,ecc=16,$BADS" "$T/v.tr"
u=$(unaligned_fails "$T/own.tr" 16)
s=$(single_fails "$T/own.tr")
[ "$u" -eq 0 ] && [ "$s" -le 3 ] &&
	ok "verify, DVD: failing reads are whole ECC blocks on their grid (and one block after good data an area)" ||
	not_ok "verify, DVD: failing reads on the unit grid" "$u unaligned, $s single"

run verify --json --image "$D" "sim:$D,cost=0/0,profile=cd-rom,ecc=16,$BADS"
expect_rc "verify, CD profile: unreadable -> 4" 4
expect_json "verify, CD profile: the same unreadable blocks" '.bad_blocks | tostring' \
	'[[992,1007],[2992,3007],[4000,4047]]'
cd_failed=$(jq -r '.total.failed_reads - .search_failed_reads' <"$T/out")
[ "$cd_failed" -ge $((80 * 3)) ] && [ "$cd_failed" -ge $((dvd_failed * 8)) ] &&
	ok "verify, CD profile: block by block, 3 tries each ($cd_failed against DVD's $dvd_failed)" ||
	not_ok "verify, CD profile: failing reads" "CD $cd_failed, DVD $dvd_failed"

run verify --json --image "$D" "sim:$D,cost=0/0,profile=dvd-rom,ecc=16,info=1,$BADS"
expect_json "verify, DVD, INFORMATION: the same unreadable blocks" '.bad_blocks | tostring' \
	'[[992,1007],[2992,3007],[4000,4047]]'
info_failed=$(jq -r '.total.failed_reads - .search_failed_reads' <"$T/out")
[ "$info_failed" -le 20 ] && [ "$info_failed" -le "$dvd_failed" ] &&
	ok "verify, DVD, INFORMATION: no block read alone ($info_failed)" ||
	not_ok "verify, DVD, INFORMATION: failing reads" "$info_failed (without: $dvd_failed)"

run verify --json --retries 0 --image "$D" "sim:$D,cost=0/0,profile=dvd-rom,ecc=16,$BADS"
r0=$(jq -r '.total.failed_reads - .search_failed_reads' <"$T/out")
[ "$r0" -le 15 ] && [ "$r0" -lt "$dvd_failed" ] &&
	ok "verify, DVD, --retries 0: each unit tried once ($r0)" ||
	not_ok "verify, DVD, --retries 0" "$r0 failing reads (default: $dvd_failed)"

# --- verify, BD: clusters; the image of the same disc compares equal -------------
run verify --json --image "$D" "sim:$D,cost=0/0,profile=bd-rom,ecc=32,$BADS"
expect_rc "verify, ecc=32, BD: unreadable -> 4" 4
expect_json "verify, BD: whole clusters unreadable" '.bad_blocks | tostring' \
	'[[992,1023],[2976,3007],[4000,4063]]'
bd_failed=$(jq -r '.total.failed_reads - .search_failed_reads' <"$T/out")
[ "$bd_failed" -le 20 ] && ok "verify, BD: a few failing reads a cluster ($bd_failed for 4)" ||
	not_ok "verify, BD: failing reads" "$bd_failed for 4 clusters"

# a flaky block (it fails twice, the chunk's read and the unit's) reads on a
# later try: nothing unreadable, nothing differs
run verify --json --image "$D" "sim:$D,cost=0/0,profile=dvd-rom,flaky=2000-2000:2"
expect_rc "verify, DVD, a flaky block read on its third try -> 0" 0
expect_json "verify, DVD, flaky: nothing unreadable" .bad_count 0
expect_json "verify, DVD, flaky: the disc's sha256" .sha256 "$(sha256sum <"$D" | cut -c1-64)"

# a unit partly bad (no ecc=: a LUN or an image, not the medium): the good
# blocks before the defect are read and compared, the rest of the unit not
run verify --json --image "$D" "sim:$D,cost=0/0,profile=dvd-rom,bad=1004-1005"
expect_rc "verify, DVD, a partial unit: unreadable -> 4" 4
expect_json "verify, DVD, a partial unit: its blocks from the defect on" '.bad_blocks | tostring' \
	'[[1004,1007]]'

# CSS inside a unit: each scrambled sector listed protected, never unreadable
run verify --json --image "$D" "sim:$D,cost=0/0,profile=dvd-rom,css=2005-2020"
expect_rc "verify, DVD, CSS: incomplete -> 4" 4
expect_json "verify, DVD, CSS: protected, not unreadable" \
	'[.protected_blocks, .bad_count, .diff_count] | tostring' '[16,0,0]'

# --- tail, DVD: a defect in the compared window -----------------------------------
head -c $(((N - 7) * 2048)) "$D" >"$T/dd"
rm -f "$T/t.tr"
run tail --json "sim:$D,cost=0/0,profile=dvd-rom,ecc=16,hide=7,bad=5950-5950,trace=$T/t.tr" "$T/dd"
expect_rc "tail, DVD: a unit of the window unreadable -> 4" 4
expect_json "tail, DVD: verdict" .verdict unreadable
expect_json "tail, DVD: the first unreadable block is the ECC block's first" \
	.first_unreadable_lba 5936
[ "$(stat -c %s "$T/dd")" -eq $(((N - 7) * 2048)) ] && ok "tail, DVD: IMAGE untouched" ||
	not_ok "tail, DVD: IMAGE untouched" "$(stat -c %s "$T/dd") bytes"
own_reads "sim:$D,cost=0/0,profile=dvd-rom,ecc=16,hide=7,bad=5950-5950" "$T/t.tr"
# the window starts at 5929, off the grid: the chunk that holds the defect
# is cut at the unit line, so no failing read spans two units
u=$(unaligned_fails "$T/own.tr" 16)
s=$(single_fails "$T/own.tr")
[ "$u" -le 1 ] && [ "$s" -le 1 ] &&
	ok "tail, DVD: the window's failing reads are whole units (and the window's first, cut)" ||
	not_ok "tail, DVD: failing reads" "$u unaligned, $s single"
finish
