#!/bin/sh
# deb-symbols.sh [--check]: debian/libcdtail1.symbols from libcdtail.map
# (deb-symbols(5)): every function of every version node CDTAIL_X.Y, with
# the version node itself, at the upstream version X.Y.0 that brought it
# (a node newer than debian/changelog's version, a branch before its
# release, takes that version, so the package stays installable).
# Without --check it writes the file; with it, it compares and says how to
# fix a difference (make check-abi runs it).  The package build checks
# the file against the library itself (DPKG_GENSYMBOLS_CHECK_LEVEL=4 in
# debian/rules).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
map=$here/libcdtail.map
out=$here/debian/libcdtail1.symbols
release=$(sed -n '1s/^[^(]*(\([0-9][0-9.]*\).*/\1/p' "$here/debian/changelog")
soname=$(sed -n 's/^SONAME = //p' "$here/Makefile")

symbols() {
	echo "$soname libcdtail1 #MINVER#"
	echo "* Build-Depends-Package: libcdtail-dev"
	# the map without comments; a node's lines up to its closing brace
	sed -e 's|/\*.*\*/||' -e '/\/\*/,/\*\//d' "$map" | awk -v rel="$release" '
	function vcmp(a, b,   x, y, i, n) {
		n = split(a, x, "."); split(b, y, ".")
		for (i = 1; i <= 3; i++)
			if (x[i] + 0 != y[i] + 0)
				return x[i] + 0 < y[i] + 0 ? -1 : 1
		return 0
	}
	/^CDTAIL_[0-9.]+ *\{/ {
		node = $1; sub(/ *\{.*/, "", node)
		ver = substr(node, 8) ".0"
		if (vcmp(ver, rel) > 0)
			ver = rel
		print " " node "@" node " " ver
		global = 0; next
	}
	/global:/ { global = 1; next }
	/local:/ || /^\}/ { global = 0; next }
	global && node {
		gsub(/[ \t;]/, "")
		if ($0 != "")
			print " " $0 "@" node " " ver
	}' | LC_ALL=C sort -k1,1
}

if [ "${1:-}" = --check ]; then
	if symbols | cmp -s - "$out"; then
		echo "ok - debian/libcdtail1.symbols is libcdtail.map's"
	else
		echo "not ok - debian/libcdtail1.symbols differs from libcdtail.map:"
		symbols | diff "$out" - | sed 's/^/    /'
		echo "    (sh scripts/deb-symbols.sh writes it anew)"
		exit 1
	fi
else
	symbols >"$out"
fi
