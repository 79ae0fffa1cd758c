#!/bin/sh
# check-symbols.sh LIBSO MAP [SHARED_CLI] -- HEADER...: libcdtail.so exports
# exactly the functions the public HEADERs declare, every one named cdt_;
# MAP (libcdtail.map) names each of them, no glob, in version nodes named
# CDTAIL_<release>, and every exported symbol carries one of them;
# SHARED_CLI (the CLI linked against the .so) loads the library's soname
# and needs no symbol of the library the headers lack.
so=$1 map=$2 cli=
shift 2
[ "$1" != "--" ] && { cli=$1; shift; }
[ "$1" = "--" ] && shift
pass=0 fail=0
t() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "not ok - abi: $1"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# functions declared in the headers: "type name(" at the start of a line
cat "$@" | sed -n 's/^[a-z][a-z0-9_ *]*[ *]\(cdt_[a-z0-9_]*\)(.*/\1/p' | sort -u >"$tmp/declared"
nm -D --defined-only "$so" | awk '$2 ~ /^[TDRBVW]$/ { print $3 }' |
	sed 's/@.*//' | grep -v '^CDTAIL_' | sort -u >"$tmp/exported"
# the map without its comments: node names, and the names under global:
sed -e 's|/\*.*\*/||' -e '/\/\*/,/\*\//d' "$map" >"$tmp/map"
sed -n 's/^\(CDTAIL_[A-Za-z0-9_.]*\) *{.*/\1/p' "$tmp/map" >"$tmp/nodes"
# a node ends at local: or at its closing brace (a later node inherits)
awk '/global:/ { g = 1; next } /local:/ || /}/ { g = 0 } g' "$tmp/map" |
	tr -d ' \t;' | grep . | sort >"$tmp/listed"
# the library's own cdt_ functions that no header declares
nm "$so" | awk '$2 ~ /^[tT]$/ && $3 ~ /^cdt_/ { print $3 }' | sort -u |
	comm -23 - "$tmp/declared" >"$tmp/internal"

t "the headers declare functions" "[ \$(wc -l <'$tmp/declared') -ge 20 ]"
t "every exported symbol is named cdt_" "! grep -v '^cdt_' '$tmp/exported'"
t "exported = declared (no internal symbol leaks, none missing)" \
	"diff '$tmp/declared' '$tmp/exported' >'$tmp/diff' || { cat '$tmp/diff'; false; }"
t "the map lists each function by name, no glob" "! grep '[*?]' '$tmp/listed'"
t "the map lists no name twice" "[ -z \"\$(uniq -d '$tmp/listed')\" ]"
t "the map's list = the headers' functions" \
	"diff '$tmp/declared' '$tmp/listed' >'$tmp/diff' || { cat '$tmp/diff'; false; }"
t "the map's version nodes are named CDTAIL_<release>" \
	"[ -s '$tmp/nodes' ] && ! grep -vx 'CDTAIL_[0-9][0-9]*\.[0-9][0-9]*' '$tmp/nodes'"
t "the map makes everything else local" "grep -q 'local:' '$tmp/map' && grep -qx '[[:space:]]*\*;' '$tmp/map'"
t "the library has internal cdt_ functions (the check sees them)" "[ -s '$tmp/internal' ]"
t "no internal cdt_ function is in the map" "! grep -xFf '$tmp/internal' '$tmp/listed'"
nm -D --defined-only "$so" | awk '$3 ~ /^cdt_/ { print $3 }' | sed 's/^[^@]*@@*//' |
	sort -u >"$tmp/versions"
t "every exported function carries a version node of the map" \
	"[ -s '$tmp/versions' ] && [ -z \"\$(comm -23 '$tmp/versions' '$tmp/nodes')\" ]"
t "cdt_open carries the map's first node" \
	"nm -D --defined-only '$so' | grep -q \" cdt_open@@\$(head -1 '$tmp/nodes')\\\$\""
t "an internal symbol is not exported" "! nm -D '$so' | grep -qw cdt_dev_exec"
t "json-c is not a dependency of the library" "! readelf -d '$so' | grep -q 'NEEDED.*json'"
t "the pkg-config file does not require json-c" "! grep -q json cdtail.pc.in"
soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
t "the library's soname is libcdtail.so.N" "echo '$soname' | grep -qx 'libcdtail\.so\.[0-9][0-9]*'"
if [ -n "$cli" ]; then
	t "the shared CLI loads $soname" "readelf -d '$cli' | grep -q 'NEEDED.*\[$soname\]'"
	t "the shared CLI does not link sg_lib" "! readelf -d '$cli' | grep -q 'NEEDED.*sgutils'"
	nm -D --undefined-only "$cli" | awk '{ print $2 }' | sed 's/@.*//' |
		grep '^cdt_' | sort -u >"$tmp/used"
	t "the shared CLI uses only declared functions" "comm -23 '$tmp/used' '$tmp/declared' | { ! grep .; }"
	t "the shared CLI runs" "'$cli' --version >/dev/null"
fi
echo "abi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
