#!/bin/sh
# check-symbols.sh LIBSO HEADER [SHARED_CLI]: libcdtail.so exports exactly
# the functions HEADER declares, every one named cdt_*, in the version node
# of libcdtail.map; SHARED_CLI (the CLI linked against the .so) loads
# libcdtail.so.0 and needs no symbol of the library the header lacks.
so=$1 hdr=$2 cli=$3
pass=0 fail=0
t() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "not ok - abi: $1"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# functions declared in the header: "type name(" at the start of a line
sed -n 's/^[a-z][a-z0-9_ *]*[ *]\(cdt_[a-z0-9_]*\)(.*/\1/p' "$hdr" | sort -u >"$tmp/declared"
nm -D --defined-only "$so" | awk '$2 ~ /^[TDRBVW]$/ { print $3 }' |
	sed 's/@.*//' | grep -v '^CDTAIL_' | sort -u >"$tmp/exported"

t "the header declares functions" "[ \$(wc -l <'$tmp/declared') -ge 20 ]"
t "every exported symbol is named cdt_" "! grep -v '^cdt_' '$tmp/exported'"
t "exported = declared (no internal symbol leaks, none missing)" \
	"diff '$tmp/declared' '$tmp/exported' >'$tmp/diff' || { cat '$tmp/diff'; false; }"
t "symbols carry the CDTAIL_0 version" \
	"nm -D --defined-only '$so' | grep -q ' cdt_open@@CDTAIL_0\$'"
t "an internal symbol is not exported" "! nm -D '$so' | grep -qw cdt_dev_exec"
t "json-c is not a dependency of the library" "! readelf -d '$so' | grep -q 'NEEDED.*json'"
t "the pkg-config file does not require json-c" "! grep -q json cdtail.pc.in"
if [ -n "$cli" ]; then
	t "the shared CLI loads libcdtail.so.0" "readelf -d '$cli' | grep -q 'NEEDED.*libcdtail.so.0'"
	t "the shared CLI does not link sg_lib" "! readelf -d '$cli' | grep -q 'NEEDED.*sgutils'"
	nm -D --undefined-only "$cli" | awk '{ print $2 }' | sed 's/@.*//' |
		grep '^cdt_' | sort -u >"$tmp/used"
	t "the shared CLI uses only declared functions" "comm -23 '$tmp/used' '$tmp/declared' | { ! grep .; }"
	t "the shared CLI runs" "'$cli' --version >/dev/null"
fi
echo "abi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
