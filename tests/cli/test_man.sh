#!/bin/sh
# The manual as pages (issue 21): cdtail(1) names every page and stays a
# short overview, each page renders without a groff warning, the sessions
# of every EXAMPLES section run as shown, every option a command's --help
# lists and every sim: key the parser takes is in its page.
. "$(dirname "$0")/lib.sh"

MAN="$ROOT/man"
# the commands as the binary lists them, so a new one needs its page
CMDS=$("$CDTAIL" help | sed -n 's/^  \([a-z]*\)  .*/\1/p')
[ "$(echo $CMDS | wc -w)" -ge 6 ] && ok "help lists the commands ($(echo $CMDS))" ||
	not_ok "help lists the commands" "$CMDS"
PAGES="cdtail.1 cdtail-sim.7 libcdtail.3"
for c in $CMDS; do PAGES="$PAGES cdtail-$c.1"; done

for p in $PAGES; do
	if [ -f "$MAN/$p" ] && w=$(groff -man -ww -z "$MAN/$p" 2>&1) && [ -z "$w" ]; then
		ok "$p: renders without a warning"; else not_ok "$p: renders without a warning" "$w"; fi
done

# every page renders within 80 columns at MANWIDTH=80 (issue 35): as
# characters on a UTF-8 terminal and as bytes in the C locale's ASCII
for f in "$MAN"/*.[0-9]; do
	p=${f##*/}
	wide=$(MANWIDTH=80 LC_ALL=C.UTF-8 man -l "$f" 2>/dev/null | python3 -c '
import sys
for l in sys.stdin.buffer.read().decode("utf-8", "replace").splitlines():
    if len(l) > 80: print(len(l), l)' | head -5)
	wide_c=$(MANWIDTH=80 LC_ALL=C man -l "$f" 2>/dev/null | awk 'length > 80' | head -5)
	n=$(MANWIDTH=80 LC_ALL=C man -l "$f" 2>/dev/null | wc -l)
	if [ "$n" -gt 20 ] && [ -z "$wide$wide_c" ]; then ok "$p: within 80 columns at MANWIDTH=80 ($n lines)"
	else not_ok "$p: within 80 columns at MANWIDTH=80" "$wide" "$wide_c"; fi
done

# issue 35: an installed page cites only installed files: no source path
# (tests/, src/, scripts/, doc/) outside a roff comment; the files it
# names under /usr/share/cdtail and /usr/share/doc/cdtail are ones make
# install puts there (fixtures/ with iso9660.iso and the SAMPLE_SYSFS
# trees; doc/disc-kinds.md),
# and the examples' fixtures/ paths are among those
sample=$(sed -n 's/^SAMPLE_SYSFS = //p' "$ROOT/Makefile")
for f in "$MAN"/*.[0-9]; do
	p=${f##*/}
	bad=$(grep -v '^\.\\"' "$f" | sed 's/\\-/-/g' | grep -nE '(^|[^a-z/])(tests|src|scripts|doc)/' | head -3)
	for c in $(grep -v '^\.\\"' "$f" | sed 's/\\-/-/g' |
		grep -oE '(/usr/share/(doc/)?cdtail/|[^a-zA-Z0-9/._-]|^)(fixtures/[a-zA-Z0-9._/-]*|disc-kinds\.md)' |
		sed 's|^[^a-z/]*||; s|^/usr/share/cdtail/||; s|[.,;)]*$||' | sort -u); do
		case $c in
		/usr/share/doc/cdtail/disc-kinds.md) [ -f "$ROOT/doc/disc-kinds.md" ] && continue ;;
		fixtures/iso9660.iso) continue ;;
		fixtures/sysfs/*)
			tree=${c#fixtures/sysfs/}
			tree=${tree%%/*}
			case " $sample " in *" $tree "*) [ -d "$ROOT/fixtures/sysfs/$tree" ] && continue ;; esac ;;
		esac
		bad="$bad not installed: $c"
	done
	if [ -z "$bad" ]; then ok "$p: cites only installed files"; else
		not_ok "$p: cites only installed files" "$bad"; fi
done

# cdtail(1) is the overview: under 300 lines at 80 columns, SEE ALSO names
# every other page, and every page but libcdtail(3) names cdtail(1) back
n=$(MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$MAN/cdtail.1" 2>/dev/null | wc -l)
if [ "$n" -gt 0 ] && [ "$n" -lt 300 ]; then ok "cdtail(1): $n lines at 80 columns (under 300)"; else
	not_ok "cdtail(1): under 300 lines at 80 columns" "$n lines"; fi
see_also() { sed -n '/^\.SH SEE ALSO/,/^\.SH /p' "$MAN/$1" | sed 's/\\-/-/g'; }
for p in $PAGES; do
	[ "$p" = cdtail.1 ] && continue
	name=${p%.*} sec=${p##*.}
	if see_also cdtail.1 | grep -q "^\.BR $name ($sec)"; then ok "cdtail(1) SEE ALSO: $name($sec)"; else
		not_ok "cdtail(1) SEE ALSO: $name($sec)" "$(see_also cdtail.1)"; fi
	if see_also "$p" | grep -q '^\.BR cdtail (1)'; then ok "$name($sec) SEE ALSO: cdtail(1)"; else
		not_ok "$name($sec) SEE ALSO: cdtail(1)" "$(see_also "$p")"; fi
done

# every long option of COMMAND --help is an entry (.TP or .TQ) of cdtail-COMMAND(1)
for c in $CMDS; do
	"$CDTAIL" "$c" --help | sed -n 's/^  \(-., \)\{0,1\} *\(--[a-z0-9-]*\).*/\2/p' >"$T/opts.$c"
	missing=$(while read -r o; do
		[ "$o" = --help ] && continue
		sed 's/\\-/-/g' "$MAN/cdtail-$c.1" | awk -v o="$o" '
			prev ~ /^\.T[PQ]/ && /^\.B[IR]? / && index($0 " ", " " o " ") { found = 1 }
			{ prev = $0 } END { exit !found }' || echo "$o"
	done <"$T/opts.$c")
	if [ "$(wc -l <"$T/opts.$c")" -ge 3 ] && [ -z "$missing" ]; then
		ok "cdtail-$c(1): an entry for each of $(wc -l <"$T/opts.$c") options of --help"
	else not_ok "cdtail-$c(1): an entry for each option of --help" "missing: $missing"; fi
done

# every key of the sim: parser's table is an entry of cdtail-sim(7)
keys=$(sed -n 's/^[[:space:]]*SIM_[A-Z]*("\([a-z0-9]*\)".*/\1/p' "$ROOT/src/lib/sim/spec.c")
missing=$(for k in $keys; do grep -q "^\.B[IR]* $k=" "$MAN/cdtail-sim.7" || echo "$k"; done)
if [ "$(echo $keys | wc -w)" -ge 20 ] && [ -z "$missing" ]; then
	ok "cdtail-sim(7): an entry for each of $(echo $keys | wc -w) keys"
else not_ok "cdtail-sim(7): an entry for each key" "keys: $keys" "missing: $missing"; fi

# cdtail help COMMAND shows the page: here the source tree's, found from
# the binary's place (src/cli/help.c); the installed one: check-install
for c in $CMDS; do
	run help "$c"
	expect_rc "help $c -> 0" 0
	expect_grep "help $c: the NAME of cdtail-$c(1)" "$T/out" "^ +cdtail-$c +- "
	expect_grep "help $c: its EXAMPLES" "$T/out" "^EXAMPLES"
	if [ -s "$T/err" ]; then not_ok "help $c: nothing on stderr" "$(head -3 "$T/err")"; else
		ok "help $c: nothing on stderr"; fi
done
run help
expect_rc "help -> 0" 0
expect_grep "help: says what help COMMAND shows" "$T/out" "'cdtail help COMMAND' shows its manual page"
run help bogus
expect_rc "help bogus -> 2" 2
expect_grep "help bogus: names it" "$T/err" "unknown command 'bogus'"
# one line, as a mistyped command gets (issue 24): not the whole usage
expect_grep "help bogus: where the commands are listed" "$T/err" "'cdtail --help' lists the commands"
run help probe image
expect_rc "help probe image -> 2" 2

# no man(1) to run: the --help text, and why on stderr
mkdir "$T/noman"
# Debian's valgrind is a script that runs "$0.bin": that one too
for w in ${TEST_WRAPPER%% *}; do
	p=$(command -v "$w")
	ln -s "$p" "$T/noman/"
	[ -x "$p.bin" ] && ln -s "$p.bin" "$T/noman/"
done
# issue 35: without man the page itself, as cdtail formats it (manview.c),
# every command's, within 80 columns
for c in $CMDS; do
	PATH="$T/noman" $TEST_WRAPPER "$CDTAIL" help "$c" >"$T/out" 2>"$T/err"
	RC=$?
	expect_rc "help $c, no man -> 0" 0
	expect_grep "help $c, no man: the page's NAME" "$T/out" "^       cdtail-$c - "
	expect_grep "help $c, no man: its OPTIONS" "$T/out" "^OPTIONS$"
	expect_grep "help $c, no man: its EXAMPLES" "$T/out" "^EXAMPLES$"
	expect_grep "help $c, no man: why, on stderr" "$T/err" "cannot run man .* to show .*/man/cdtail-$c\.1; its text as cdtail formats it"
	expect_no_grep "help $c, no man: no roff left" "$T/out" '^\.[a-zA-Z]{1,2}( |$)|\\f[BIRP]|\\\((aq|dq|lq|rq|em)|\\-\\-'
	wide=$(awk 'length > 80' "$T/out" | head -3)
	if [ -z "$wide" ]; then ok "help $c, no man: within 80 columns"; else
		not_ok "help $c, no man: within 80 columns" "$wide"; fi
done
# the same lines man(1) gives, words and order (man fills and justifies,
# cdtail only fills): the OPTIONS of probe
sect() { sed -n '/^OPTIONS/,/^JSON OUTPUT/p' | tr -s ' \n' '  '; }
PATH="$T/noman" $TEST_WRAPPER "$CDTAIL" help probe 2>/dev/null | sect >"$T/ours"
MANWIDTH=80 man -l "$MAN/cdtail-probe.1" 2>/dev/null | sed 's/\xe2\x80\x90 *//' | col -bx |
	sed "s/[‘’]/'/g; s/[“”]/\"/g" | sect >"$T/man"
if cmp -s "$T/ours" "$T/man"; then ok "help probe, no man: the words man gives"; else
	not_ok "help probe, no man: the words man gives" "$(diff "$T/man" "$T/ours" | head -c 600)"; fi
# an installed page gzipped, as Debian ships it: gzip -dc, no man
mkdir -p "$T/gz/bin" "$T/gz/share/man/man1"
cp "$CDTAIL" "$T/gz/bin/cdtail"
cp -L "$(dirname "$CDTAIL")"/shlib/* "$T/gz/bin/" 2>/dev/null
mkdir -p "$T/gz/bin/shlib" && cp -L "$(dirname "$CDTAIL")"/shlib/* "$T/gz/bin/shlib/" 2>/dev/null
gzip -9c "$MAN/cdtail-verify.1" >"$T/gz/share/man/man1/cdtail-verify.1.gz"
ln -s "$(command -v gzip)" "$T/noman/gzip"
PATH="$T/noman" $TEST_WRAPPER "$T/gz/bin/cdtail" help verify >"$T/out" 2>"$T/err"
RC=$?
expect_rc "help verify, page.1.gz, no man -> 0" 0
expect_grep "help verify, page.1.gz, no man: the page" "$T/out" "^       cdtail-verify - "
expect_grep "help verify, page.1.gz: the installed one" "$T/err" "to show .*/share/man/man1/cdtail-verify\.1\.gz"
rm "$T/noman/gzip"

# a binary with no page beside it or in a tree, and none man knows: the
# --help text (cdtail-shared copied with its library, MANPATH empty)
mkdir -p "$T/alone/shlib" "$T/nomanpath"
cp "$CDTAIL" "$T/alone/cdtail"
cp -L "$(dirname "$CDTAIL")"/shlib/* "$T/alone/shlib/" 2>/dev/null
MANPATH="$T/nomanpath" $TEST_WRAPPER "$T/alone/cdtail" help image >"$T/out" 2>"$T/err"
RC=$?
expect_rc "help image, no page anywhere -> 0" 0
expect_grep "help image, no page anywhere: the --help text" "$T/out" "^usage: cdtail image "
expect_grep "help image, no page anywhere: why" "$T/err" "no manual page cdtail-image\(1\) found"

# the sessions of every EXAMPLES section run as shown: each page's in a
# fresh directory where cdtail is the binary under test
examples() { # PAGE: the .EX blocks of EXAMPLES as indented text, roff escapes undone
	sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$1" | awk '
		/^\.EX/ { ex = 1; next } /^\.EE/ { ex = 0; print ""; next }
		ex { gsub(/\\-/, "-"); gsub(/\\\(aq/, "\047"); gsub(/\\\(dq/, "\""); gsub(/\\&/, "");
		     gsub(/\\e/, "\\"); print "    " $0 }'
}
for p in $PAGES; do
	[ "$p" = libcdtail.3 ] && continue
	W="$T/ex.$p"
	mkdir -p "$W/bin"
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${TEST_WRAPPER:-}" "$CDTAIL" >"$W/bin/cdtail"
	chmod +x "$W/bin/cdtail"
	ln -s "$FIX" "$W/fixtures"
	examples "$MAN/$p" >"$T/$p.md"
	if ! grep -q '^    \$ ' "$T/$p.md"; then not_ok "$p: EXAMPLES has sessions"; continue; fi
	PATH="$W/bin:$PATH" python3 "$ROOT/tests/cli/readme_examples.py" "$T/$p.md" "$W" >"$T/res"
	rc=$?
	cat "$T/res"
	PASS=$((PASS + $(grep -c '^ok - ' "$T/res")))
	FAIL=$((FAIL + $(grep -c '^not ok - ' "$T/res")))
	[ $rc -ne 0 ] && ! grep -q '^not ok - ' "$T/res" && not_ok "$p: the example runner failed (exit $rc)"
done
finish
