#!/bin/sh
# check-layers.sh: no file of src/lib includes a header of a layer above
# its own (doc/DESIGN.md, the floors): mmc, then cd, then transport, then
# the emulated drive (sim), then core, then probe and hazards (side by side,
# neither includes the other), then book, then engine, then jobs.
# Then check-circles.py: no circle of modules (a .c with the .h of its
# name) anywhere in src/, by includes and calls (issues 21 and 31), and its
# own test, so make unit and check-abi keep both.
rank() {
	case $1 in
	mmc) echo 0 ;; cd) echo 1 ;; transport) echo 2 ;; sim) echo 3 ;;
	core) echo 4 ;; probe) echo 5 ;; hazards) echo 5 ;; book) echo 6 ;;
	engine) echo 7 ;; jobs) echo 8 ;; *) echo 9 ;;
	esac
}
bad=0 n=0
for f in $(find src/lib -name '*.[ch]' | sort); do
	own=$(echo "$f" | cut -d/ -f3)
	for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*".*/\1/p' "$f" | sort -u); do
		n=$((n + 1))
		if [ "$inc" != "$own" ] && [ "$(rank "$inc")" -ge "$(rank "$own")" ]; then
			echo "not ok - layers: $f ($own) includes a $inc header"
			bad=$((bad + 1))
		fi
	done
done
echo "layers: $n layer includes, $bad upward"
python3 "$(dirname "$0")/check-circles.py" || bad=$((bad + 1))
sh "$(dirname "$0")/test-check-circles.sh" || bad=$((bad + 1))
# issue 21: no file in src/ over 1,000 lines (a generated table included)
long=$(find src -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 1000 { print $2 " (" $1 ")" }')
if [ -n "$long" ]; then
	echo "not ok - files over 1,000 lines: $long"
	bad=$((bad + 1))
else
	echo "file length: every file in src/ under 1,000 lines"
fi
[ "$bad" -eq 0 ] && [ "$n" -gt 0 ]
