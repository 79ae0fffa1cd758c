#!/bin/sh
# export's own entry in the image's record (issue 34): appended to IMAGE.log
# (or --log FILE; --no-log: none) with the keys every run has and export's
# own (the EWF files, segments, format, compression, its digests and whether
# they equal the record's, the checks that held, --unchecked and its
# findings); the record's reader passes over it, so an image exports twice;
# a refusal after the E01 was written is recorded, one before is not.
. "$(dirname "$0")/lib.sh"
D="$T/disc.img"
mkimage "$D" 1200
cd "$T" || exit 1

# last FILE: the last text entry of FILE
last() { sed -n '/^==== cdtail acquisition log/h; /^==== cdtail acquisition log/!H; ${x;p}' "$1"; }
entries() { grep -c '^==== cdtail acquisition log' "$1"; }

run image -q --map d.map "sim:$D,bad=20-24:100-100" d.iso
expect_rc "the damaged image finishes with bad blocks" 4
md5=$(md5sum <d.iso | cut -c1-32) sha1=$(sha1sum <d.iso | cut -c1-40) sha256=$(sha256sum <d.iso | cut -c1-64)
acquired=$(sed -n 's/^started: //p' d.iso.log)

# --- the entry, every key against what the run and independent tools say ---
run export --ewf a.E01 --examiner "E. Xam" d.iso
expect_rc "export: exit 0" 0
if [ "$(entries d.iso.log)" -eq 2 ]; then ok "the export's entry appended to IMAGE.log"; else
	not_ok "the export's entry appended to IMAGE.log" "$(entries d.iso.log) entries"; fi
last d.iso.log >e
expect_grep "run: export" e "^run: export$"
expect_grep "the tool's version" e "^tool: $("$CDTAIL" --version)$"
expect_grep "the command line" e "^command: cdtail export --ewf a\.E01 --examiner 'E\. Xam' d\.iso$"
expect_grep "the host name" e "^  name: $(uname -n)$"
expect_grep "the kernel" e "^  kernel: $(uname -r)$"
expect_grep "the user" e "^  uid: $(id -u)$"
expect_grep "start, to the millisecond" e "^started: 20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}Z$"
expect_grep "end, to the millisecond" e "^ended: 20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}Z$"
expect_grep "the examiner given" e "^examiner: E\. Xam$"
expect_grep "the case number: none given, none recorded" e "^case_number: none$"
expect_grep "the bytes read: the whole image" e "^bytes_read: $((1200 * 2048))$"
expect_grep "out: the E01" e "^out: a\.E01$"
expect_grep "the image" e "^image: d\.iso$"
expect_grep "the record it was checked against" e "^record: d\.iso\.log$"
expect_grep "the map" e "^map: d\.map$"
expect_grep "the acquisition's start" e "^acquired: $acquired$"
expect_grep "the format" e "^format: EnCase 6 \(E01\)$"
expect_grep "the EWF files" e "^  - a\.E01$"
expect_grep "the segment count" e "^segments: 1$"
expect_grep "libewf's segment size" e "^segment_size: none$"
expect_grep "the default compression" e "^compression: fast$"
expect_grep "the acquiry errors: the map's bad areas" e "^acquiry_errors: 2$"
expect_grep "their blocks" e "^acquiry_error_blocks: 6$"
expect_grep "export's md5" e "^  md5: $md5$"
expect_grep "export's sha1" e "^  sha1: $sha1$"
expect_grep "export's sha256" e "^  sha256: $sha256$"
expect_grep "md5 equal to the record's" e "^  md5: equal$"
expect_grep "the record has no sha1" e "^  sha1: not recorded$"
expect_grep "sha256 equal to the record's" e "^  sha256: equal$"
expect_grep "check: the verdict" e "^  - verdict unreadable of the run that made the image$"
expect_grep "check: the extent" e "^  - extent: 1200 blocks as recorded$"
expect_grep "check: the map" e "^  - map d\.map: covers the image, finished$"
nid=$(grep -c '^# cdtail identity block ' d.map)
expect_grep "check: the identity blocks, as many as the map holds" e "^  - identity: $nid blocks equal to the map's SHA-256$"
expect_grep "check: the digests" e "^  - digests: equal to the record's$"
expect_grep "checked" e "^unchecked: false$"
expect_grep "no findings" e "^findings: none$"
expect_grep "the verdict" e "^verdict: exported$"
expect_grep "the status" e "^status: 0$"
expect_grep "no error" e "^error: none$"

# --- exported twice: the reader passes over the export's entry --------------
run export --ewf b.E01 --segment-size 1M --compression none d.iso
expect_rc "exported a second time: exit 0" 0
expect_grep "the second export checked against the image's entry" "$T/out" "checked against d\.iso\.log: verdict unreadable"
last d.iso.log >e
n=$(ls b.E0* | wc -l)
expect_grep "the segments, as many as were made" e "^segments: $n$"
if [ "$n" -gt 1 ] && [ "$(grep -c '^  - b\.E0[0-9]$' e)" -eq "$n" ]; then ok "every EWF file listed"; else
	not_ok "every EWF file listed" "$n files: $(ls b.E0*)" "$(cat e)"; fi
expect_grep "--segment-size" e "^segment_size: 1048576$"
expect_grep "--compression" e "^compression: none$"
run export --ewf c.E01 --no-log d.iso
expect_rc "--no-log: exit 0" 0
if [ "$(entries d.iso.log)" -eq 3 ]; then ok "--no-log: no entry"; else
	not_ok "--no-log: no entry" "$(entries d.iso.log) entries"; fi
run export --ewf c2.E01 --log d.iso.log --no-log d.iso
expect_rc "--log FILE --no-log: read FILE, append nothing" 0

# --- a refusal after the E01 was written is recorded; before, it is not ------
cp d.iso u.iso && cp d.iso.log u.iso.log
printf 'X' | dd of=u.iso bs=1 seek=$((5 * 2048 + 7)) conv=notrunc 2>/dev/null
run export --ewf u.E01 u.iso
expect_rc "a digest that differs: refused" 2
last u.iso.log >e
expect_grep "refused: recorded" e "^verdict: refused$"
expect_grep "refused: status 2" e "^status: 2$"
expect_grep "refused: the reason" e "^error: the MD5 of u\.iso as export read it, [0-9a-f]{32}, differs from its record's"
expect_grep "refused: no EWF file left" e "^segments: 0$"
expect_grep "refused: the digest that differs" e "^  md5: differs$"
run export --ewf u.E01 --unchecked u.iso
expect_rc "--unchecked: exported" 0
last u.iso.log >e
expect_grep "--unchecked: says so" e "^unchecked: true$"
expect_grep "--unchecked: the finding" e "^  - the MD5 of u\.iso as export read it, $(md5sum <u.iso | cut -c1-32), differs from its record's $md5 \(u\.iso\.log\)$"
expect_grep "--unchecked: the checks that held" e "^  - verdict unreadable of the run that made the image$"
expect_no_grep "--unchecked: the digests did not hold" e "^  - digests"
expect_grep "--unchecked: exported" e "^verdict: exported$"
n=$(entries u.iso.log)
refused_before() {
	run export --ewf u2.E01 --map nosuch.map u.iso
	expect_rc "a refusal before writing: exit 2" 2
	if [ "$(entries u.iso.log)" -eq "$n" ]; then ok "a refusal before writing: no entry"; else
		not_ok "a refusal before writing: no entry"; fi
}
refused_before

# --- no record: --unchecked makes one, and the next export still needs it ----
cp d.iso n.iso
run export --ewf n.E01 --unchecked n.iso
expect_rc "no record, --unchecked: exported" 0
last n.iso.log >e
expect_grep "no record: the entry is in a new IMAGE.log" e "^run: export$"
expect_grep "no record: says so" e "^record: none$"
expect_grep "no record: the finding" e "^  - n\.iso has no acquisition record \(no n\.iso\.log beside it\)$"
expect_grep "no record: its digests, none to compare" e "^digests_against_record: none$"
run export --ewf n2.E01 n.iso
expect_rc "a record of exports only: refused" 2
expect_grep "a record of exports only: says so" "$T/err" "holds verify and export runs only"
run export --ewf n2.E01 --unchecked n.iso
expect_rc "again with --unchecked" 0
if [ "$(entries n.iso.log)" -eq 2 ]; then ok "both unchecked exports recorded"; else
	not_ok "both unchecked exports recorded" "$(entries n.iso.log)"; fi

# --- a --log FILE that is not a record cdtail writes is left as it is --------
printf 'my own notes\n' >mine.txt
run export --ewf m.E01 --unchecked --log mine.txt d.iso
expect_rc "--log of an examiner's own file, --unchecked: exported" 0
if [ "$(cat mine.txt)" = "my own notes" ]; then ok "their file is left as it is"; else
	not_ok "their file is left as it is" "$(cat mine.txt)"; fi
expect_grep "and stderr says so" "$T/err" "mine\.txt is not a record cdtail writes"
run export --ewf m2.E01 --log d.iso d.iso
expect_rc "--log IMAGE: usage error" 2

# --- a run asked for no digests: exported, nothing to compare, as the page says
run image -q --digest none --map nd.map "sim:$D,bad=20-24:100-100" nd.iso
run export --ewf nd.E01 nd.iso
expect_rc "--digest none's record: exported without --unchecked" 0
expect_grep "--digest none: the output says so" "$T/out" "extent, no digests recorded"
last nd.iso.log >e
expect_grep "--digest none: export's own sha256" e "^  sha256: $(sha256sum <nd.iso | cut -c1-64)$"
expect_grep "--digest none: md5 not recorded" e "^  md5: not recorded$"
expect_grep "--digest none: sha256 not recorded" e "^  sha256: not recorded$"
expect_no_grep "--digest none: no digests check claimed" e "^  - digests"
expect_grep "--digest none: checked otherwise" e "^unchecked: false$"

# --- a record on a read-only place: refused with both ways out -------------
# (as another user where the test runs as root: root writes anywhere)
as=""
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null 2>&1 && as="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" = 0 ] && [ -z "$as" ]; then
	not_ok "a read-only record: setpriv (util-linux) runs the test as another user"
else
	mkdir ro wr && cp d.iso d.iso.log d.map ro/ && chmod 755 ro && chmod 644 ro/* &&
		chmod 777 wr && chmod 755 "$T"
	[ -n "$as" ] && chmod 555 ro
	ro_run() { $as "$CDTAIL" "$@" >"$T/out" 2>"$T/err"; RC=$?; }
	ro_run export --ewf wr/a.E01 ro/d.iso
	expect_rc "a record that cannot take the entry: usage error" 2
	expect_grep "a read-only record: says why and both ways out" "$T/err" \
		"cannot append the export's entry to the record ro/d\.iso\.log: .*; give a writable copy of it with --log FILE, or add --no-log"
	if ls wr/a.E0* >/dev/null 2>&1; then not_ok "a read-only record: no EWF file written"; else
		ok "a read-only record: no EWF file written"; fi
	ro_run export -q --no-log --ewf wr/a.E01 ro/d.iso
	expect_rc "a read-only record, --no-log: exported" 0
	cp ro/d.iso.log wr/rec.log && chmod 666 wr/rec.log
	ro_run export -q --force --log wr/rec.log --map ro/d.map --ewf wr/a.E01 ro/d.iso
	expect_rc "a writable copy as --log: exported" 0
	if [ "$(entries wr/rec.log)" -eq "$(($(entries ro/d.iso.log) + 1))" ]; then
		ok "a writable copy as --log: the entry in it"; else not_ok "a writable copy as --log: the entry in it"; fi
fi

# --- a JSON record takes a JSON line ------------------------------------------
run image -q --json --log j.log --map j.map "sim:$D,bad=20-24:100-100" j.iso
for e in j1 j2; do
	run export --json --ewf $e.E01 --log j.log --case-number K-7 j.iso
	expect_rc "JSON record, export $e: exit 0" 0
done
if [ "$(jq -sr '[.[] | .run] | join(",")' j.log)" = "image,export,export" ]; then
	ok "JSON: one line an export, the reader passing over them"; else
	not_ok "JSON: one line an export" "$(jq -sc '[.[] | .run]' j.log)"; fi
if [ "$(tail -1 j.log | jq -r '[.digests.sha256, .digests_against_record.sha256, (.checks | length), .case_number, .ewf_files[0], .unchecked, .verdict] | map(tostring) | join(" ")')" = "$(sha256sum <j.iso | cut -c1-64) equal 5 K-7 j2.E01 false exported" ]; then
	ok "JSON: the entry's keys"; else not_ok "JSON: the entry's keys" "$(tail -1 j.log)"; fi
finish
