#!/bin/sh
# verify --sha256-file / --md5-file read every form sha256sum and md5sum
# write (issue 35, 5): GNU "HEX  NAME", -b "HEX *NAME", --tag "ALGO (NAME)
# = HEX", OpenSSL's "ALGO(NAME)= HEX", escaped names (a backslash line),
# comments, blank lines and a signed CHECKSUM file's armour; and a padded
# burn says which digest it compared, of which length, and the disc's
# whole digests apart and labelled.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
mkimage burned.iso 300
# an ISO 9660 volume of 300 blocks: the filesystem's size is a length tried
pvd burned.iso 16 300
{ cat burned.iso; head -c $((150 * 2048)) /dev/zero; } >padded.img
mkimage other.iso 20
S=$(sha256sum <burned.iso | cut -c1-64)
M=$(md5sum <burned.iso | cut -c1-32)
DEV="sim:$T/padded.img,cost=0/0"

# sums NAME OPT FILE WANT_RC: verify -q OPT FILE exits WANT_RC
sums() {
	run verify -q "$2" "$3" --name burned.iso "$DEV"
	expect_rc "$1 -> $4" "$4"
}

sha256sum burned.iso other.iso >gnu
sums "GNU sha256sum" --sha256-file gnu 0
sha256sum -b burned.iso other.iso >bin
sums "sha256sum -b (HEX *NAME)" --sha256-file bin 0
sha256sum --tag burned.iso other.iso >tag
sums "sha256sum --tag" --sha256-file tag 0
md5sum --tag burned.iso other.iso >md5tag
sums "md5sum --tag" --md5-file md5tag 0
md5sum -b burned.iso other.iso >md5bin
sums "md5sum -b" --md5-file md5bin 0
printf 'SHA2-256(burned.iso)= %s\n' "$S" >openssl
run verify -q --sha256-file openssl "$DEV"
expect_rc "OpenSSL dgst (ALGO(NAME)= HEX), the only entry -> 0" 0
# a Fedora CHECKSUM file: PGP armour, a size comment, --tag lines
{
	printf -- '-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n'
	printf '# burned.iso: %s bytes\n' $((300 * 2048))
	sha256sum --tag burned.iso other.iso
	printf -- '-----BEGIN PGP SIGNATURE-----\n\niQIzBAEBCAAdFiEE\n-----END PGP SIGNATURE-----\n'
} >CHECKSUM
sums "Fedora CHECKSUM (signed, --tag)" --sha256-file CHECKSUM 0
run verify -q --sha256-file CHECKSUM --name other.iso "$DEV"
expect_rc "CHECKSUM: another entry's digest -> 1" 1
# comments, blank lines, CRLF line ends, upper-case hex
{ printf '# made by hand\n\n'; printf '%s  burned.iso\r\n' "$(echo "$S" | tr a-f A-F)"; } >crlf
sums "comments, blank lines, CRLF, upper-case hex" --sha256-file crlf 0
# an escaped name: a backslash in it makes sha256sum start the line with one
cp burned.iso 'back\slash.iso'
sha256sum 'back\slash.iso' >esc
expect_grep "sha256sum escapes the name" esc '^\\[0-9a-f]{64}  back\\\\slash\.iso$'
run verify -q --sha256-file esc --name 'back\slash.iso' "$DEV"
expect_rc "an escaped name: its entry -> 0" 0
sha256sum --tag 'back\slash.iso' >esctag
run verify -q --sha256-file esctag --name 'back\slash.iso' "$DEV"
expect_rc "an escaped --tag name: its entry -> 0" 0
# a --tag line of another algorithm is not an entry
{ md5sum --tag burned.iso; sha256sum --tag other.iso; } >mixed
run verify -q --sha256-file mixed --name burned.iso "$DEV"
expect_rc "MD5 tag line in a --sha256-file: not an entry -> 2" 2
expect_grep "MD5 tag line: no entry" "$T/err" "no entry for 'burned.iso' in mixed"
printf 'not a checksum file\n' >junk
run verify -q --sha256-file junk "$DEV"
expect_rc "no digest at all -> 2" 2
expect_grep "no digest: says so" "$T/err" 'no 64-digit digest in junk \(not a checksum file\?\)'
# --sha256 takes a --tag line too
run verify -q --sha256 "SHA256 (burned.iso) = $S" "$DEV"
expect_rc "--sha256 'SHA256 (NAME) = HEX' -> 0" 0
run verify -q --md5 "MD5 (burned.iso) = $S" "$DEV"
expect_rc "--md5 given a SHA-256 tag line -> 2" 2

# --- a padded burn: the digest compared, its length, the disc's apart --------
run verify --sha256-file tag --name burned.iso "$DEV"
expect_rc "padded burn by digest -> 0" 0
expect_grep "expected: matches a shorter length" "$T/out" '^expected: +sha256 \(matches a shorter length\)$'
expect_grep "expected: the digest on its own line" "$T/out" "^ +$S\$"
expect_grep "from: the file and its entry" "$T/out" '^from: +the entry for burned.iso in tag$'
expect_grep "compared: the length compared, in blocks and bytes" "$T/out" \
	"^compared: +the disc's first 300 blocks \\($((300 * 2048)) bytes\\): their sha256 is the\$"
expect_grep "disc: the whole disc, apart" "$T/out" "^disc: +all 450 blocks \\($((450 * 2048)) bytes\\), longer than compared:\$"
expect_grep "disc sha256: labelled, the whole disc's" "$T/out" "^disc sha256: +$(sha256sum <padded.img | cut -c1-64)\$"
expect_grep "disc md5: labelled" "$T/out" "^disc md5: +$(md5sum <padded.img | cut -c1-32)\$"
expect_no_grep "no unlabelled whole-disc digest" "$T/out" '^(sha256|md5): '
expect_no_grep "every line within 80 columns" "$T/out" '^.{81}'
run verify --json --sha256-file tag --name burned.iso "$DEV"
expect_json "JSON: compared_digest, matched_blocks, sha256 the whole disc's" \
	'[.compared_digest == "'"$S"'", .matched_blocks, .sha256 == "'"$(sha256sum <padded.img | cut -c1-64)"'"] | map(tostring) | join(" ")' \
	"true 300 true"
# the whole disc matched: the summary's digests are the ones compared
run verify --md5 "$(md5sum <padded.img | cut -c1-32)" "$DEV"
expect_grep "whole disc matched: md5 line as ever" "$T/out" "^md5: +$(md5sum <padded.img | cut -c1-32)\$"
expect_grep "whole disc matched: expected ... (matches)" "$T/out" '^expected: +md5 [0-9a-f]{32} \(matches\)$'
expect_no_grep "whole disc matched: no disc: lines" "$T/out" '^disc'
run verify --json --md5 "$(md5sum <padded.img | cut -c1-32)" "$DEV"
expect_json "whole disc matched: compared_digest is it" .compared_digest "$(md5sum <padded.img | cut -c1-32)"
run verify --json --md5 "$(md5sum <other.iso | cut -c1-32)" "$DEV"
expect_json "no length matched: compared_digest null" .compared_digest null

finish
