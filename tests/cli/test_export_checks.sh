#!/bin/sh
# cdtail export checks what it seals (issue 34): each refusal with its
# reproducer (an interrupted run, a size changed, one byte of an identity
# block changed, a digest that differs, no record, a record that is not
# one), --unchecked, and the record's acquisition in the E01 as
# Debian's ewf-tools read it (ewfinfo: acquiry date, model, serial number,
# notes, sessions; ewfverify -d sha1,sha256; ewfexport back byte for byte).
. "$(dirname "$0")/lib.sh"
for t in ewfverify ewfinfo ewfexport; do
	command -v $t >/dev/null 2>&1 || { not_ok "$t is installed (make test-deps)"; finish; exit; }
done
export TZ=UTC
D="$T/disc.img"
mkimage "$D" 300
cd "$T" || exit 1

# no_ewf NAME FILE: no segment of FILE's base is left
no_ewf() {
	if ls "${2%.E01}".E0* >/dev/null 2>&1; then not_ok "$1: no EWF file left" "$(ls "${2%.E01}".E0*)"; else
		ok "$1: no EWF file left"; fi
}
# refused NAME PATTERN ARGS...: exit 2, stderr says PATTERN and the remedy, no r.E01
refused() {
	name=$1 pattern=$2
	shift 2
	rm -f r.E0*
	run export --ewf r.E01 "$@"
	expect_rc "$name: exit 2" 2
	expect_grep "$name: says why" "$T/err" "$pattern"
	expect_grep "$name: names --unchecked as the way to export anyway" "$T/err" "add --unchecked"
	no_ewf "$name" r.E01
}
# ewf_field NAME FILE LABEL WANT: ewfinfo's "LABEL:<tabs>WANT" line
ewf_field() {
	got=$(sed -n "s/^[[:space:]]*$3:[[:space:]]*//p" "$2" | head -1)
	if [ "$got" = "$4" ]; then ok "$1"; else not_ok "$1" "ewfinfo's $3 is '$got', wanted '$4'"; fi
}
# ewfinfo's acquiry date of the record's "started" (UTC: TZ above)
ewf_date() { date -u -d "$(echo "$1" | sed 's/\.[0-9]*Z$/Z/')" '+%a %b %e %H:%M:%S %Y'; }

# --- a finished image with its record and map: exported, every field -----
run image -q --map d.map "sim:$D,bad=20-24:100-100" d.iso
expect_rc "the damaged image finishes with bad blocks" 4
# the image's record alone: the records below are made from it (export
# appends its own entries to d.iso.log)
cp d.iso.log acq.log
started=$(sed -n 's/^started: //p' d.iso.log | tail -1)
run export --json --ewf d.E01 --case-number C-1 d.iso
expect_rc "an image with its record and map exports" 0
expect_json "json: the record found beside IMAGE" .log d.iso.log
expect_json "json: the map the record names" .map d.map
expect_json "json: checked" .unchecked false
expect_json "json: no finding" '.findings | length' 0
expect_json "json: identity blocks compared" '.identity_blocks > 0' true
expect_json "json: the record's verdict" .verdict unreadable
expect_json "json: the record's start" .acquired "$started"
expect_json "json: the image's sha256" .sha256 "$(sha256sum <d.iso | cut -c1-64)"
ewfinfo d.E01 >i 2>&1
ewf_field "ewfinfo: the acquisition date is the run's start" i "Acquisition date" "$(ewf_date "$started")"
ewf_field "ewfinfo: the drive's vendor, product and revision as Model" i Model "CDTAIL EMULATED DRIVE 1.0"
expect_no_grep "ewfinfo: no serial number where the drive gave none" i "Serial number"
expect_grep "ewfinfo: the notes say what was checked" i "Notes:.*cdtail .*: checked against d\.iso\.log and d\.map"
expect_grep "ewfinfo: the notes hold the record's SHA-256" i "Notes:.* sha256 $(sha256sum <d.iso | cut -c1-64)"
expect_grep "ewfinfo: the notes hold the verdict" i "Notes:.* verdict unreadable, 6 bad blocks"
expect_grep "ewfinfo: the notes hold the medium" i "Notes:.* medium CD-ROM, 300 blocks \(reported 300, true 300, end ok\)"
expect_grep "ewfinfo: the notes hold the size sources" i "Notes:.* sizes read_capacity=300 toc_leadout=300 track_end=300"
expect_grep "ewfinfo: one session" i "^[[:space:]]*total number: 1$"
expect_grep "ewfinfo: the session is the data track" i "at sector\(s\): 0 - 299 number: 300$"
expect_grep "ewfinfo: the bad areas stay acquiry errors" i "at sector\(s\): 20 - 24 number: 5$"
ewf_field "ewfinfo: the case number given" i "Case number" C-1
run export --ewf tab.E01 --description "$(printf 'two\nlines\tand a tab')" d.iso
ewfinfo tab.E01 >i2 2>&1
ewf_field "a description with a line break and a tab: blanks in their place" i2 Description "two lines and a tab"
ewf_field "and the fields after it keep their place" i2 Model "CDTAIL EMULATED DRIVE 1.0"
ewfverify -q -d sha1,sha256 d.E01 >v 2>&1
expect_grep "ewfverify -d sha1,sha256: SUCCESS" v "ewfverify: SUCCESS"
expect_grep "ewfverify: MD5 stored is the image's" v "MD5 hash stored in file:[[:space:]]+$(md5sum <d.iso | cut -c1-32)$"
expect_grep "ewfverify: SHA-1 stored is the image's" v "SHA1 hash stored in file:[[:space:]]+$(sha1sum <d.iso | cut -c1-40)$"
expect_grep "ewfverify: no SHA-256 stored without --xhash" v "SHA256 hash stored in file:[[:space:]]+N/A$"
sha=$(sed -n 's/^SHA256 hash calculated over data:[[:space:]]*//p' v)
if [ "$sha" = "$(sha256sum <d.iso | cut -c1-64)" ] && grep -q "Notes:.* sha256 $sha" i; then
	ok "ewfverify: the SHA-256 it computes is the one in the notes"
else
	not_ok "ewfverify: the SHA-256 it computes is the one in the notes" "computed '$sha'"
fi
ewfexport -q -t back -f raw -u d.E01 >/dev/null 2>&1
cmp -s back.raw d.iso && ok "ewfexport gives IMAGE back byte for byte" ||
	not_ok "ewfexport gives IMAGE back byte for byte" "$(ls -l back.raw d.iso 2>&1)"
# --xhash: the SHA-256 stored where libewf's readers take it from
run export --ewf x.E01 --xhash d.iso
expect_rc "--xhash exports" 0
ewfverify -q -d sha1,sha256 x.E01 >v 2>&1
expect_grep "--xhash: ewfverify -d sha1,sha256: SUCCESS" v "ewfverify: SUCCESS"
expect_grep "--xhash: ewfverify: SHA-256 stored is the image's" v "SHA256 hash stored in file:[[:space:]]+$(sha256sum <d.iso | cut -c1-64)$"
expect_grep "--xhash: ewfverify: SHA-1 stored is the image's" v "SHA1 hash stored in file:[[:space:]]+$(sha1sum <d.iso | cut -c1-40)$"
ewfinfo x.E01 >i2 2>&1
expect_grep "--xhash: ewfinfo: the SHA-256 among the digests" i2 "SHA256:[[:space:]]+$(sha256sum <d.iso | cut -c1-64)$"
rm -f back.raw
ewfexport -q -t back -f raw -u x.E01 >/dev/null 2>&1
cmp -s back.raw d.iso && ok "--xhash: ewfexport gives IMAGE back byte for byte" ||
	not_ok "--xhash: ewfexport gives IMAGE back byte for byte"
run export --ewf t.E01 d.iso
expect_grep "text: the checks" "$T/out" "^  checked against d\.iso\.log: verdict unreadable, extent, digests; d\.map: [0-9]+ identity blocks equal$"
expect_grep "text: the sha256" "$T/out" "^  sha256 $(sha256sum <d.iso | cut -c1-64)$"

# --- the drive's serial number and case fields from the record (both forms) -
# the record holds every case field ("none" where not given): set two
sed -e 's/^  serial: none$/  serial: SN-4711/' -e 's/^case_number: none$/case_number: K-9/' \
	-e 's/^examiner: none$/examiner: Rec Orded/' acq.log >serial.log
run export --ewf s.E01 --log serial.log --examiner "Given Here" d.iso
expect_rc "--log names the record" 0
ewfinfo s.E01 >i 2>&1
ewf_field "ewfinfo: the record's serial number" i "Serial number" SN-4711
ewf_field "ewfinfo: a case field the record holds" i "Case number" K-9
ewf_field "ewfinfo: a case field given wins over the record's" i "Examiner name" "Given Here"
run image -q --json --log j.log --map j.map "sim:$D,bad=20-24:100-100" j.iso
jq -c '.drive.serial = "SN-JSON"' j.log >j2.log
if head -c1 j.log | grep -q '{'; then ok "image --json writes a JSON log"; else not_ok "image --json writes a JSON log"; fi
run export --json --ewf j.E01 --log j2.log --map j.map j.iso
expect_rc "a JSON record exports" 0
expect_json "json record: its verdict" .verdict unreadable
ewfinfo j.E01 >i 2>&1
ewf_field "ewfinfo: the JSON record's serial number" i "Serial number" SN-JSON

# --- the record as later runs write it: milliseconds, notes on several lines,
# a verify run after the image's, a tail run's entry, "interrupted": true ----
sed -e 's/^\(started: [^.]*\)\(\.[0-9]*\)\{0,1\}Z$/\1.250Z/' \
	-e 's/^notes: none$/notes: first line\nsecond line/' acq.log >ms.log
run export --ewf ms.E01 --log ms.log d.iso
expect_rc "a start with milliseconds and notes on two lines" 0
ewfinfo ms.E01 >i 2>&1
ewf_field "ewfinfo: the start, its milliseconds aside" i "Acquisition date" "$(ewf_date "$started")"
expect_grep "ewfinfo: the record's notes, on one line" i "Notes:[[:space:]]+first line second line; cdtail "
{ cat acq.log; printf '==== cdtail acquisition log: one run ====\nrun: verify\nverdict: identical\n\n'; } >vfy.log
run export --ewf vfy.E01 --log vfy.log d.iso
expect_rc "a verify run's entry after the image's is passed over" 0
{ cat acq.log; printf '==== cdtail acquisition log: one run ====\nrun: verify\nverdict: identical\n'; } |
	sed 's/^verdict: unreadable$/verdict: interrupted/' >vfy2.log
refused "the entry before a verify run is the image's" "says its run was interrupted" --log vfy2.log d.iso
tailrec() {
	printf '==== cdtail acquisition log: one run ====\nrun: tail\nimage_bytes_before: 409600\n'
	printf 'image_bytes_after: %s\ndigests:\n  md5: %s\n  sha256: %s\nverdict: %s\n' "$1" \
		"$(md5sum <d.iso | cut -c1-32)" "$(sha256sum <d.iso | cut -c1-64)" "$2"
}
tailrec 614400 appended >tail.log
run export --ewf tl.E01 --log tail.log d.iso
expect_rc "a tail run that appended: exported" 0
tailrec 614400 data-mismatch >tail.log
refused "a tail run that did not finish" "says cdtail tail's verdict data-mismatch" --log tail.log d.iso
tailrec 409600 appended >tail.log
refused "a tail run of another size" "d\.iso is 300 blocks but its record tail\.log says 200" --log tail.log d.iso
# a run asked for no digests: nothing to compare, and the output says so
run image -q --digest none --log nd.log --map nd.map "sim:$D,bad=20-24:100-100" nd.iso
run export --ewf nd.E01 --log nd.log --map nd.map nd.iso
expect_rc "a record without digests: exported" 0
expect_grep "the output says the record has no digests" "$T/out" "extent, no digests recorded"
ewfinfo nd.E01 >i 2>&1
expect_grep "without a recorded SHA-256 the notes hold the image's" i "Notes:.* sha256 $(sha256sum <nd.iso | cut -c1-64); the run recorded no digests"
# a record that says interrupted whatever its verdict (the record writes the key on every run)
sed 's/^interrupted: false$/interrupted: true/' acq.log >intr.log
refused "interrupted: true" "says its run was interrupted" --log intr.log d.iso

# --- a run without a map: the record's bad areas are the acquiry errors ------
run image -q "sim:$D,bad=20-24:100-100" nm.iso
run export --json --ewf nm.E01 nm.iso
expect_rc "an image made without a map exports" 0
expect_json "json: no map" .map null
expect_json "json: the record's bad areas as acquiry errors" \
	'[.acquiry_errors[] | "\(.start)+\(.blocks)"] | join(" ")' "20+5 100+1"
ewfinfo nm.E01 >i 2>&1
expect_grep "ewfinfo: the record's bad area" i "at sector\(s\): 20 - 24 number: 5$"
# the record's map found from elsewhere: the run was in the directory before OUT
mkdir -p far/case case
(cd far && "$CDTAIL" image -q --map case/k.map "sim:$D,bad=20-24:100-100" case/k.iso >/dev/null 2>&1)
# a decoy where the record's relative path leads from here
printf 'not a map\n' >case/k.map
run export --json --ewf far.E01 far/case/k.iso
expect_rc "a run made elsewhere: exported from here" 0
expect_json "its map found from the run's directory" .map far/case/k.map
# a record whose map is gone: its identity and bad areas are what export seals
mkdir gone && cp d.iso d.iso.log gone/
(cd gone && "$CDTAIL" export --ewf g.E01 d.iso >../out 2>../err)
RC=$?
expect_rc "the record's map is gone: exit 2" 2
expect_grep "it says which map and how to give it" err "names the map d\.map, which is not there \(nor beside d\.iso\): give it with --map MAPFILE"
[ -e gone/g.E01 ] && not_ok "the record's map is gone: no EWF file" || ok "the record's map is gone: no EWF file"

# --- no record ---------------------------------------------------------------
cp d.iso norec.iso
refused "no record" "norec\.iso has no acquisition record \(no norec\.iso\.log beside it\)" norec.iso
run export --ewf r.E01 --log nosuch.log d.iso
expect_rc "--log of a file that is not there: exit 2" 2
expect_grep "--log of a file that is not there: says so" "$T/err" "[-]-log nosuch\.log: no such file"
printf 'hello\n' >junk.log
refused "a record that is not a log" "junk\.log is not an acquisition log cdtail wrote" --log junk.log d.iso
{ cat acq.log; echo "verdict: complete"; } >twice.log
refused "a record that says its verdict twice" "says a key twice" --log twice.log d.iso
run export --json --ewf r.E01 norec.iso
expect_json "json: a refusal is the error object, status 2" .error.status 2
expect_json "json: its message names the reason" '.error.message | test("no acquisition record")' true
run export --unchecked --ewf n.E01 norec.iso
expect_rc "--unchecked exports an image without a record" 0
expect_grep "--unchecked: the output says so" "$T/out" "^  UNCHECKED \(--unchecked\)"
expect_grep "--unchecked: and why" "$T/out" "^  unchecked: norec\.iso has no acquisition record"
ewfinfo n.E01 >i 2>&1
expect_grep "--unchecked: the notes say so" i "Notes:.*--unchecked: NOT checked against its record; sha256 $(sha256sum <norec.iso | cut -c1-64); unchecked: norec\.iso has no acquisition record"

# --- verdicts that are not a finished run --------------------------------------
for v in incomplete window-limited failed; do
	sed "s/^verdict: unreadable$/verdict: $v/" acq.log >v.log
	refused "verdict $v" "says verdict $v" --log v.log d.iso
done

# --- an interrupted run: SIGINT mid-copy ---------------------------------------
mkimage big.img 3000
"$CDTAIL" image -q --map b.map "sim:$T/big.img,cost=2000/8000,sleep=1,trace=$T/b.trace" b.iso >/dev/null 2>&1 &
pid=$!
i=0
# 30 READ(10)s: the copy is under way (the probe reads a few before it)
reads() { n=$(grep -c '^28 ' b.trace 2>/dev/null); echo "${n:-0}"; }
while [ $i -lt 1000 ] && [ "$(reads)" -lt 30 ]; do sleep 0.02; i=$((i + 1)); done
kill -INT $pid
wait $pid
brc=$?
[ $brc -eq 130 ] && ok "the run stopped by SIGINT -> 130" || not_ok "the run stopped by SIGINT -> 130" "exit $brc"
expect_grep "its record says interrupted" b.iso.log "^verdict: interrupted$"
refused "an interrupted run" "b\.iso\.log says its run was interrupted .*resume it" b.iso
run export --json --unchecked --ewf u.E01 b.iso
expect_rc "--unchecked exports the interrupted run" 0
expect_json "--unchecked: json says so" .unchecked true
expect_json "--unchecked: json names the interrupted run" '.findings[0] | test("interrupted")' true
never=$(grep -E '^0x[0-9A-Fa-f]+ +0x[0-9A-Fa-f]+ +\?' b.map | head -1 | awk '{ printf "%d+%d", $1 / 2048, $2 / 2048 }')
expect_json "--unchecked: the never-read area is an acquiry error" \
	"[.acquiry_errors[] | \"\(.start)+\(.blocks)\"] | index(\"$never\") != null" true
ewfinfo u.E01 >i 2>&1
expect_grep "--unchecked: the notes name the interrupted run" i "Notes:.*unchecked: b\.iso\.log says its run was interrupted"
# the remedy the refusal names: resume the run, then export
run image -q --map b.map "sim:$T/big.img" b.iso
expect_rc "the resumed run finishes" 0
run export --ewf rs.E01 b.iso
expect_rc "the resumed image exports" 0
expect_grep "checked against the resumed run's entry" "$T/out" "checked against b\.iso\.log: verdict complete"

# --- the image changed since: size, an identity block, a digest -----------------
mkdir c && cp d.iso d.iso.log d.map c/ && cd c || exit 1
head -c 2048 /dev/zero >>d.iso
refused "a size that differs" "d\.iso is 301 blocks but its record d\.iso\.log says 300" d.iso
run export --unchecked --ewf u.E01 d.iso
expect_rc "--unchecked exports the grown image" 0
expect_grep "--unchecked: the output names the size" "$T/out" "unchecked: d\.iso is 301 blocks"
cd .. && rm -rf c && mkdir c && cp d.iso d.iso.log d.map c/ && cd c || exit 1
printf 'X' | dd of=d.iso bs=1 seek=$((16 * 2048 + 100)) conv=notrunc 2>/dev/null
refused "one byte of identity block 16 changed" "block 16 of d\.iso differs from the SHA-256 its map d\.map holds" d.iso
cd .. && rm -rf c && mkdir c && cp d.iso d.iso.log d.map c/ && cd c || exit 1
# block 5 is none of the identity's (0, 16, 17, 256, the last, tenths)
grep -q "identity block 5 " d.map && not_ok "block 5 is no identity block"
printf 'X' | dd of=d.iso bs=1 seek=$((5 * 2048 + 7)) conv=notrunc 2>/dev/null
refused "a digest that differs" "the MD5 of d\.iso as export read it, [0-9a-f]{32}, differs from its record's" d.iso
run export --unchecked --ewf u.E01 d.iso
expect_rc "--unchecked exports the changed image" 0
ewfinfo u.E01 >i 2>&1
expect_grep "--unchecked: the notes name the digest that differs" i "Notes:.*unchecked: the MD5 of d\.iso as export read it, [0-9a-f]{32}, differs from its record's"
ewfverify -q u.E01 >v 2>&1
expect_grep "--unchecked: the MD5 stored is the image's as it is" v "MD5 hash stored in file:[[:space:]]+$(md5sum <d.iso | cut -c1-32)$"
cd ..

# --- segments and compression ----------------------------------------------------
mkimage m.img 2048
run image -q --map m.map "sim:$T/m.img" m.iso
run export --json --ewf m.E01 --segment-size 1M --compression none --xhash m.iso
expect_rc "--segment-size 1M --compression none" 0
n=$(ls m.E0* | wc -l)
[ "$n" -ge 4 ] && ok "4 MiB in segments of 1 MiB: $n segment files" || not_ok "several segment files" "$n: $(ls m.E0*)"
expect_json "json: the segments counted" .segments "$n"
ewfverify -q -d sha1,sha256 m.E01 >v 2>&1
expect_grep "ewfverify of the segments: SUCCESS" v "ewfverify: SUCCESS"
expect_grep "ewfverify of the segments: the SHA-256 stored" v "SHA256 hash stored in file:[[:space:]]+$(sha256sum <m.iso | cut -c1-64)$"
ewfinfo m.E01 >i 2>&1
expect_grep "ewfinfo: no compression" i "Compression level:[[:space:]]+no compression"
rm -f back.raw
ewfexport -q -t back -f raw -u m.E01 >/dev/null 2>&1
cmp -s back.raw m.iso && ok "ewfexport of the segments gives IMAGE back byte for byte" ||
	not_ok "ewfexport of the segments gives IMAGE back byte for byte"
run export --ewf b1.E01 --compression deflate:best m.iso
expect_rc "--compression deflate:best" 0
ewfinfo b1.E01 >i 2>&1
expect_grep "ewfinfo: best compression" i "Compression level:[[:space:]]+best compression"
run export --ewf e1.E01 --compression empty-block m.iso
ewfinfo e1.E01 >i 2>&1
expect_grep "ewfinfo: empty-block compression" i "Compression level:[[:space:]]+no compression"
[ "$(stat -c %s e1.E01)" -gt $((4 * 1024 * 1024)) ] && ok "empty-block: random data stays uncompressed" ||
	not_ok "empty-block: random data stays uncompressed"
for bad in "--segment-size 1000" "--segment-size 1X" "--segment-size -1" "--compression bzip2:fast" "--compression fastest"; do
	rm -f r.E0*
	# shellcheck disable=SC2086
	run export --ewf r.E01 $bad m.iso
	expect_rc "$bad: a usage error" 2
	no_ewf "$bad" r.E01
done
run export --ewf r.E01 --segment-size 1M d.iso
expect_rc "--segment-size for a small image: one segment" 0
truncate -s $((34000 * 2048)) z.iso
run export --ewf r2.E01 --segment-size 1M z.iso
expect_rc "more than 64 segments: a usage error" 2
expect_grep "it says the least size" "$T/err" "more than 64 segment files: give at least"

# --- sessions: a two-session disc --------------------------------------------------
mkimage two.img $((300 + 11400 + 200))
run image -q "sim:$T/two.img,layout=data:300/data:200" two.iso
run export --ewf two.E01 two.iso
expect_rc "a two-session disc exports" 0
ewfinfo two.E01 >i 2>&1
expect_grep "ewfinfo: two sessions" i "^[[:space:]]*total number: 2$"
# libewf keeps where sessions start: session 1 runs to session 2's track
expect_grep "ewfinfo: session 1 up to session 2" i "at sector\(s\): 0 - 11699 number: 11700$"
expect_grep "ewfinfo: session 2 starts at its track" i "at sector\(s\): 11700 - 11899 number: 200$"
ewfverify -q two.E01 >v 2>&1
expect_grep "ewfverify of the two-session disc: SUCCESS" v "ewfverify: SUCCESS"
finish
