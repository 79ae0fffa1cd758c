#!/bin/sh
# check-readmes.sh [LIBDIR]: every folder X of src/lib (or LIBDIR) says in
# X/README.md what it holds and what it may call, and stays true to it
# (issue 31), so a newcomer can trust the folder's README:
#  - every .c and .h file of X is named in it (a new file needs its line),
#    and every `name.c` or `name.h` it names is there: a file of X (or a
#    public header of include/), or with its folder, `F/name.h`, under
#    src/lib or the tree's root (a file gone or renamed needs its line too);
#  - it says what X owns (a paragraph with "Owns:");
#  - its "May call:" names, as `F/`, only floors below X by floors.sh's
#    ranks, never the emulated drive (sim/: a wing behind the transport
#    seam that no floor includes); none at all is "May call: nothing";
#  - no file of X includes a header of a folder its "May call:" does not
#    name, so the README never says less than the code does.
. "$(dirname "$0")/floors.sh"
lib=${1:-src/lib}
bad=0 nfiles=0 ndirs=0
fail() { echo "not ok - readmes: $*"; bad=$((bad + 1)); }

# the floors X may name: those ranked below it, sim never
may_call() {
	for f in $FLOORS; do
		[ "$f" != sim ] && [ "$(rank "$f")" -lt "$(rank "$1")" ] && echo "$f"
	done | sort
}

# the `F/` names of README's "May call:" (to the end of its paragraph)
said_call() {
	awk 'BEGIN { RS = "" } /May call:/ { gsub(/\n/, " "); sub(/.*May call:/, ""); print; exit }' "$1" |
		grep -o '`[a-z]*/`' | tr -d '`/' | sort -u
}

for d in "$lib"/*/; do
	x=$(basename "$d") r="$d/README.md"
	ndirs=$((ndirs + 1))
	case " $FLOORS " in *" $x "*) ;; *) fail "$x/ is no floor of tests/abi/floors.sh"; continue ;; esac
	if [ ! -f "$r" ]; then fail "$x/ has no README.md"; continue; fi
	for f in "$d"*.c "$d"*.h; do
		[ -f "$f" ] || continue
		n=$(basename "$f")
		nfiles=$((nfiles + 1))
		pat=$(printf '%s' "$n" | sed 's/\./\\./g')
		grep -Eq "(^|[^A-Za-z0-9_])$pat([^A-Za-z0-9_]|$)" "$r" ||
			fail "$x/README.md does not name $n"
	done
	for n in $(grep -o '`[A-Za-z0-9_./-]*\.[ch]`' "$r" | tr -d '`' | sort -u); do
		case "$n" in
		*/*) [ -e "$lib/$n" ] || [ -e "$lib/../../$n" ] || fail "$x/README.md names $n, which is not there" ;;
		*) [ -e "$d$n" ] || [ -e "$lib/../../include/$n" ] || fail "$x/README.md names $n, not a file of $x/" ;;
		esac
	done
	grep -q 'Owns:' "$r" || fail "$x/README.md does not say what it owns (Owns:)"
	if ! grep -q 'May call:' "$r"; then
		fail "$x/README.md does not say what it may call (May call:)"
		continue
	fi
	allowed=" $(may_call "$x" | tr '\n' ' ')" said=" $(said_call "$r" | tr '\n' ' ')"
	for f in $said; do
		case "$allowed" in *" $f "*) ;; *) fail "$x/README.md: May call names $f/, not a floor below $x/ (or sim/)" ;; esac
	done
	for inc in $(cat "$d"*.[ch] 2>/dev/null | sed -n 's/^#include "\([a-z]*\)\/.*".*/\1/p' | sort -u); do
		[ "$inc" = "$x" ] && continue
		case " $said " in *" $inc "*) ;; *) fail "$x/ includes a $inc/ header its README does not let it call" ;; esac
	done
done
echo "readmes: $ndirs folders, $nfiles files, $bad wrong"
[ "$bad" -eq 0 ] && [ "$nfiles" -gt 0 ]
