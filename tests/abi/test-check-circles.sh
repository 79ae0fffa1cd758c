#!/bin/sh
# test-check-circles.sh: check-circles.py on small trees, so that a change
# to the checker cannot quietly stop it seeing a circle.  A .c and the .h
# of its name are one module (issue 31: sim.c called the handlers, the
# handlers included sim.h, and the file-by-file check saw no circle).
here=$(dirname "$0")
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
mk() { # tree: d.c calls h_work(); h.c defines it and includes $1
	rm -rf "$t/lib" && mkdir -p "$t/lib/m"
	printf 'int d_run(void);\n' >"$t/lib/m/d.h"
	printf '#include "m/d.h"\nint h_work(void);\nint d_run(void)\n{\n\treturn h_work();\n}\n' >"$t/lib/m/d.c"
	printf '#pragma once\n' >"$t/lib/m/types.h"
	printf '#include "m/%s"\nint h_work(void)\n{\n\treturn 0;\n}\n' "$1" >"$t/lib/m/h.c"
}
expect() { # want-exit name
	out=$(python3 "$here/check-circles.py" "$t")
	rc=$?
	if [ "$rc" -ne "$1" ]; then
		echo "not ok - check-circles: $2 (exit $rc, want $1)"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
}
mk d.h
expect 1 "a handler including its dispatcher's header is a circle"
python3 "$here/check-circles.py" "$t" | grep 'lib/m/d\.\[ch\] <-> lib/m/h\.c' >/dev/null ||
	{ echo "not ok - check-circles: the circle names the module d.[ch]"; fail=1; }
mk types.h
expect 0 "a handler including a header of types only is no circle"
[ "$fail" -eq 0 ] && echo "check-circles: its own test passes (modules of .c and .h)"
exit $fail
