#!/bin/sh
# test-check-readmes.sh: check-readmes.sh and check-design.sh on small
# trees, so that a change to a checker cannot quietly stop it seeing a
# README that has gone stale (a file it does not name or names though
# gone, a floor it may not call, an include it does not admit, no Owns:,
# no README) or a DESIGN.md that names what is not there.
here=$(dirname "$0")
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0 n=0
mk() { # a true tree: mmc/ (a.c, a.h) and cd/ (b.c, b.h), cd calling mmc
	rm -rf "$t/lib" && mkdir -p "$t/lib/mmc" "$t/lib/cd"
	printf '#include "mmc/a.h"\n' >"$t/lib/mmc/a.c"
	: >"$t/lib/mmc/a.h"
	printf '#include "cd/b.h"\n#include "mmc/a.h"\n' >"$t/lib/cd/b.c"
	: >"$t/lib/cd/b.h"
	printf '# mmc\n\n`a.c` (`a.h`): answers.\n\nOwns: answers.\nMay call: nothing.\n' >"$t/lib/mmc/README.md"
	printf '# cd\n\n`b.c`, `b.h`: sectors.\n\nOwns: sectors.\nMay call: `mmc/` and nothing\nelse.\n' >"$t/lib/cd/README.md"
}
expect() { # want-exit name [grep pattern the output must hold]
	n=$((n + 1))
	out=$(sh "$here/check-readmes.sh" "$t/lib")
	rc=$?
	if [ "$rc" -ne "$1" ] || { [ -n "$3" ] && ! echo "$out" | grep -q "$3"; }; then
		echo "not ok - check-readmes: $2 (exit $rc, want $1)"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
}
mk
expect 0 "a true tree passes"
mk; printf '`b.c`: sectors.\n\nOwns: sectors.\nMay call: `mmc/`.\n' >"$t/lib/cd/README.md"
expect 1 "a header the README does not name" "cd/README.md does not name b.h"
mk; : >"$t/lib/cd/c.c"
expect 1 "a new file the README does not name" "does not name c.c"
mk; printf '`sub.c`, `b.cc`, `b.h`\n\nOwns: sectors.\nMay call: `mmc/`.\n' >"$t/lib/cd/README.md"
expect 1 "a name inside a longer one is no name (b.c in b.cc)" "does not name b.c"
mk; : >"$t/lib/cd/ub.c"
expect 1 "ub.c is not named by sub.c" "does not name ub.c"
mk; printf 'Also `gone.c` here.\n' >>"$t/lib/cd/README.md"
expect 1 "a file the README names that is gone" "names gone.c, not a file of cd/"
mk; printf 'Beside `mmc/a.h`, not `mmc/z.h`.\n' >>"$t/lib/cd/README.md"
expect 1 "a file of another folder that is not there" "names mmc/z.h, which is not there"
mk; sed -i 's/^Owns:.*//' "$t/lib/cd/README.md"
expect 1 "a README that does not say what it owns" "Owns:"
mk; sed -i 's/^May call: `mmc\/` and nothing/May call: nothing/' "$t/lib/cd/README.md"
expect 1 "an include of a floor May call does not name" "cd/ includes a mmc/ header"
mk; sed -i 's/^May call: nothing\./May call: `cd\/`./' "$t/lib/mmc/README.md"
expect 1 "May call naming a floor above" "names cd/, not a floor below mmc/"
mk; mkdir "$t/lib/sim" "$t/lib/core"; : >"$t/lib/sim/s.c"; : >"$t/lib/core/k.c"
printf '`s.c`\n\nOwns: it.\nMay call: `cd/`.\n' >"$t/lib/sim/README.md"
printf '`k.c`\n\nOwns: it.\nMay call: `sim/`, `cd/`.\n' >"$t/lib/core/README.md"
expect 1 "the emulated drive is no floor to call" "names sim/"
mk; rm "$t/lib/cd/README.md"
expect 1 "a folder without a README" "cd/ has no README.md"
mk; mkdir "$t/lib/extra"; : >"$t/lib/extra/x.c"
expect 1 "a folder floors.sh does not rank" "extra/ is no floor"

# check-design.sh: doc/DESIGN.md's files and functions are there, and it
# stays under 150 lines
design() { # want-exit name [grep pattern]
	n=$((n + 1))
	out=$(sh "$here/check-design.sh" "$t/root")
	rc=$?
	if [ "$rc" -ne "$1" ] || { [ -n "$3" ] && ! echo "$out" | grep -q "$3"; }; then
		echo "not ok - check-design: $2 (exit $rc, want $1)"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
}
mkd() {
	rm -rf "$t/root" && mkdir -p "$t/root/doc" "$t/root/src/lib/book" "$t/root/include" "$t/root/tests/unit"
	printf 'int book_save(void);\n' >"$t/root/src/lib/book/book.c"
	: >"$t/root/include/cdtail.h"
	: >"$t/root/tests/unit/test_book.c"
	printf '# Design\n\n`book/book.c` (`book_save`), `cdtail.h`, `test_book.c`; a `.c` with its `.h`.\n' >"$t/root/doc/DESIGN.md"
}
mkd
design 0 "a true DESIGN.md passes"
mkd; printf '`book/gone.c`\n' >>"$t/root/doc/DESIGN.md"
design 1 "a file moved away" "names book/gone.c"
mkd; printf '`gone.c`\n' >>"$t/root/doc/DESIGN.md"
design 1 "a bare file name found nowhere" "names gone.c"
mkd; printf 'saved by `book_save_all`\n' >>"$t/root/doc/DESIGN.md"
design 1 "a function gone" "names book_save_all"
mkd; seq 150 >>"$t/root/doc/DESIGN.md"
design 1 "150 lines or more" "the issue allows under 150"
if [ "$fail" -eq 0 ]; then
	echo "check-readmes, check-design: their own test passes ($n trees)"
fi
exit "$fail"
