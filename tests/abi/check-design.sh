#!/bin/sh
# check-design.sh [ROOT]: doc/DESIGN.md stays the short, true map of the
# tree issue 31 asked for: under 150 lines, and every file and function it
# names in backquotes is there (a file moved or renamed, a function gone,
# needs its line changed too).  A name.c or name.h is looked for as a
# path under src/lib, src, include or ROOT, else as a file name anywhere in src/
# or tests/; a name with an underscore (book_save, es_read_fn) as a word
# in src/ or include/.
root=${1:-.}
d="$root/doc/DESIGN.md"
bad=0
fail() { echo "not ok - design: $*"; bad=$((bad + 1)); }
[ -f "$d" ] || { fail "no $d"; exit 1; }
n=$(wc -l <"$d")
[ "$n" -lt 150 ] || fail "doc/DESIGN.md has $n lines, the issue allows under 150"
files=0 names=0
for f in $(grep -o '`[A-Za-z0-9_/-][A-Za-z0-9_./-]*\.[ch]`' "$d" | tr -d '`' | sort -u); do
	files=$((files + 1))
	for p in "$root/src/lib/$f" "$root/src/$f" "$root/include/$f" "$root/$f"; do [ -e "$p" ] && continue 2; done
	case "$f" in
	*/*) fail "doc/DESIGN.md names $f, which is not there" ;;
	*) [ -n "$(find "$root/src" "$root/tests" -name "$f" -print -quit)" ] ||
		fail "doc/DESIGN.md names $f, no file of src/ or tests/" ;;
	esac
done
for w in $(grep -o '`[^`]*`' "$d" | tr -d '`' | grep -v '[./]' | grep -o '\b[a-z][a-z0-9]*_[a-z0-9_]*\b' | sort -u); do
	names=$((names + 1))
	grep -rqw -- "$w" "$root/src" "$root/include" || fail "doc/DESIGN.md names $w, found nowhere in src/ or include/"
done
echo "design: doc/DESIGN.md $n lines, $files files and $names names it cites, $bad wrong"
[ "$bad" -eq 0 ] && [ "$files" -gt 0 ]
