#!/bin/sh
# cdtail export --ewf: a finished image as EWF, checked with Debian's
# ewf-tools (libewf's own ewfverify, ewfinfo, ewfexport), never by cdtail.
. "$(dirname "$0")/lib.sh"
for t in ewfverify ewfinfo ewfexport; do
	command -v $t >/dev/null 2>&1 || { not_ok "$t is installed (make test-deps)"; finish; exit; }
done
D="$T/disc.img"
mkimage "$D" 300
cd "$T" || exit 1

# a damaged disc imaged with its map: two bad areas
run image -q --map d.map "sim:$D,bad=20-24:100-100" d.iso
expect_rc "the damaged image finishes with bad blocks" 4
sum0=$(sha256sum <d.iso)
run export --ewf d.E01 --map d.map --case-number "C 42" --evidence-number E-7 \
	--examiner "Ann Ex" --description "a CD-R" --notes "seized 2026" d.iso
expect_rc "export exits 0" 0
expect_grep "the report names both digests" "$T/out" "^  md5  [0-9a-f]{32}$"
expect_grep "the report counts the bad areas" "$T/out" "2 bad areas \(6 blocks\) recorded as acquiry errors"
ewfverify -q d.E01 >"$T/v" 2>&1
vrc=$?
if [ $vrc -eq 0 ] && grep -q "ewfverify: SUCCESS" "$T/v"; then ok "ewfverify: SUCCESS"; else
	not_ok "ewfverify: SUCCESS" "exit $vrc" "$(tail -5 "$T/v")"; fi
expect_grep "the MD5 stored is IMAGE's" "$T/v" "MD5 hash stored in file:[[:space:]]+$(md5sum <d.iso | cut -c1-32)"
expect_grep "the SHA-1 stored is IMAGE's" "$T/v" "SHA1:[[:space:]]+$(sha1sum <d.iso | cut -c1-40)"
ewfinfo d.E01 >"$T/i" 2>&1
expect_grep "ewfinfo: the case number" "$T/i" "Case number:[[:space:]]+C 42$"
expect_grep "ewfinfo: the evidence number" "$T/i" "Evidence number:[[:space:]]+E-7$"
expect_grep "ewfinfo: the examiner" "$T/i" "Examiner name:[[:space:]]+Ann Ex$"
expect_grep "ewfinfo: the description" "$T/i" "Description:[[:space:]]+a CD-R$"
# the notes given come first, then what export adds (issue 34: the checks, the medium)
expect_grep "ewfinfo: the notes" "$T/i" "Notes:[[:space:]]+seized 2026; cdtail "
expect_grep "ewfinfo: an optical disc" "$T/i" "Media type:[[:space:]]+optical disk"
expect_grep "ewfinfo: 2048-byte sectors" "$T/i" "Bytes per sector:[[:space:]]+2048$"
expect_grep "ewfinfo: the media size" "$T/i" "Number of sectors:[[:space:]]+300$"
expect_grep "ewfinfo: two acquiry errors" "$T/i" "total number: 2$"
expect_grep "ewfinfo: the first bad area" "$T/i" "at sector\(s\): 20 - 24 number: 5$"
expect_grep "ewfinfo: the second bad area" "$T/i" "at sector\(s\): 100 - 100 number: 1$"
ewfexport -q -t back -f raw -u d.E01 >/dev/null 2>&1
if cmp -s back.raw d.iso; then ok "ewfexport gives IMAGE back byte for byte"; else
	not_ok "ewfexport gives IMAGE back byte for byte" "$(ls -l back.raw d.iso 2>&1)"; fi
if [ "$(sha256sum <d.iso)" = "$sum0" ]; then ok "IMAGE is untouched"; else not_ok "IMAGE is untouched"; fi

# JSON
run export --json --ewf j.E01 --map d.map --examiner X d.iso
expect_rc "export --json exits 0" 0
expect_json "json: blocks" .blocks 300
expect_json "json: block_size" .block_size 2048
expect_json "json: md5" .md5 "$(md5sum <d.iso | cut -c1-32)"
expect_json "json: sha1" .sha1 "$(sha1sum <d.iso | cut -c1-40)"
expect_json "json: acquiry errors" '[.acquiry_errors[] | "\(.start)+\(.blocks)"] | join(" ")' "20+5 100+1"
expect_json "json: one segment" .segments 1
expect_json "json: the metadata given" '.metadata.examiner' X
expect_json "json: the metadata not given is null" '.metadata.case_number' null
# every key is in cdtail-export(1)
MAN="$ROOT/man/cdtail-export.1"
missing=$(jq -r '[paths | .[] | strings] | unique | .[]' "$T/out" | while read -r k; do
	grep -q -- "$k" "$MAN" || echo "$k"; done)
if [ -z "$missing" ]; then ok "json: every key documented in cdtail-export(1)"; else
	not_ok "json: every key documented in cdtail-export(1)" "$missing"; fi

# a whole image without a map: no acquiry error (without a record: --unchecked, issue 34)
cp "$D" whole.iso
run export --unchecked --ewf w.E01 whole.iso
expect_rc "export without a map exits 0" 0
ewfinfo w.E01 >"$T/i" 2>&1
expect_no_grep "no acquiry error without a map" "$T/i" "Read errors during acquiry"
ewfverify -q w.E01 >/dev/null 2>&1 && ok "ewfverify of the whole image" || not_ok "ewfverify of the whole image"

# never overwritten without --force; --force replaces
sumw=$(sha256sum <w.E01)
run export --ewf w.E01 d.iso
expect_rc "an existing OUT.E01 is a usage error" 2
expect_grep "it says to add --force" "$T/err" "w\.E01 exists: add --force"
if [ "$(sha256sum <w.E01)" = "$sumw" ]; then ok "the existing OUT.E01 is untouched"; else
	not_ok "the existing OUT.E01 is untouched"; fi
run export --force --ewf w.E01 --map d.map d.iso
expect_rc "--force replaces it" 0
ewfverify -q w.E01 >/dev/null 2>&1 && ok "ewfverify of the replaced file" || not_ok "ewfverify of the replaced file"

# bad input: each a usage error with one clear line, no EWF file left
bad() {
	name=$1 pattern=$2
	shift 2
	rm -f bad.E01
	run export "$@"
	expect_rc "$name: exit 2" 2
	expect_grep "$name: says why" "$T/err" "$pattern"
	[ -e bad.E01 ] && not_ok "$name: no bad.E01 left" || ok "$name: no bad.E01 left"
}
bad "no --ewf" "[-]-ewf OUT.E01 is required" d.iso
bad "OUT not .E01" "must end in .E01" --ewf bad.img d.iso
bad "IMAGE missing" "cannot open nosuch.iso" --ewf bad.E01 nosuch.iso
mkdir adir
bad "IMAGE a directory" "not a regular file" --ewf bad.E01 adir
printf 'FILE "x.bin" BINARY\n  TRACK 01 MODE1/2352\n    INDEX 01 00:00:00\n' >x.cue
bad "a CUE sheet" "CUE sheet: EWF holds 2048-byte data" --ewf bad.E01 x.cue
{ printf '\000\377\377\377\377\377\377\377\377\377\377\000'; head -c 2340 /dev/zero; } >x.bin
bad "a raw BIN" "raw 2352-byte sectors" --ewf bad.E01 x.bin
head -c 3000 "$D" >odd.iso
bad "a partial block" "not a whole number of 2048-byte blocks" --ewf bad.E01 odd.iso
head -c $((200 * 2048)) "$D" >short.iso
# (with a record of its size: a record is checked before the map, issue 34)
sed 's/^extent_blocks: 300$/extent_blocks: 200/' d.iso.log >short.log
bad "the map of another image" "not its map" --ewf bad.E01 --log short.log --map d.map short.iso
printf '# Mapfile. Created by GNU ddrescue version 1.27\n0x0 ?\n0x0 0x40000 +\n0x40000 0x56000 ?\n' >u.map
bad "an unfinished map" "never read: finish the image first" --ewf bad.E01 --map u.map d.iso
bad "a missing map" "nosuch.map" --ewf bad.E01 --map nosuch.map d.iso
run export --json --ewf bad.img d.iso
expect_json "a usage error with --json prints the error object" .error.status 2
run export --ewf d2.E01 --bogus d.iso
expect_rc "an unknown option is a usage error" 2
finish
