#!/bin/sh
# Every command README.md shows runs as written and prints what it shows
# (issue 14, point 7): readme_examples.py runs the sessions in a scratch
# directory where ./cdtail is the binary under test.
. "$(dirname "$0")/lib.sh"

W=$T/work
mkdir "$W"
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${TEST_WRAPPER:-}" "$CDTAIL" >"$W/cdtail"
chmod +x "$W/cdtail"
ln -s "$FIX" "$W/fixtures"
python3 "$ROOT/tests/cli/readme_examples.py" "$ROOT/README.md" "$W" >"$T/res"
rc=$?
cat "$T/res"
PASS=$(grep -c '^ok - ' "$T/res")
FAIL=$(grep -c '^not ok - ' "$T/res")
if [ $rc -ne 0 ] && [ "$FAIL" -eq 0 ]; then not_ok "README examples: the runner failed (exit $rc)"; fi

# issue 35: every page in man/ is named in README.md
missing=$(for f in "$ROOT"/man/*.[0-9]; do
	p=${f##*/}
	grep -qF "${p%.*}(${p##*.})" "$ROOT/README.md" || echo "${p%.*}(${p##*.})"
done)
if [ -z "$missing" ]; then ok "README names every page of man/"; else
	not_ok "README names every page of man/" "missing: $missing"; fi

# the set-up line's exit status is the one README says it ends with
setup=$(sed -n 's/^    make deps && make && make fixtures && \(\.\/cdtail .*\)$/\1/p' "$ROOT/README.md")
said=$(sed -n 's/^The line ends with exit status \([0-9]*\),.*/\1/p' "$ROOT/README.md")
(cd "$W" && sh -c "$setup") >/dev/null 2>&1
rc=$?
if [ -n "$setup" ] && [ -n "$said" ] && [ "$rc" = "$said" ]; then
	ok "the set-up line ends with the exit status README gives ($said)"
else not_ok "the set-up line ends with the exit status README gives" "'$setup': exit $rc, README says '$said'"; fi

# the tools README's sessions run come with make deps (scripts/install-deps.sh
# build), or are the base system's; a new one needs its package in both lists
deps=$(sed -n '/^BUILD_PKGS=/,/"$/p' "$ROOT/scripts/install-deps.sh")
tools=$(grep -E '^    (\$|>) ' "$ROOT/README.md" | sed 's/^    [$>] //' | tr '|;&()`' '\n\n\n\n\n\n' |
	awk '{ sub(/^[ \t]+/, ""); if ($1 ~ /^[a-z][a-z0-9_.-]*$/) print $1 }' | sort -u)
unknown=
for t in $tools; do
	case $t in
	jq) pkg=jq ;; ddrescuelog | ddrescue) pkg=gddrescue ;; xorriso) pkg=xorriso ;;
	# POSIX sh and coreutils, in every Debian
	echo | printf | head | tail | yes | cmp | sort | sha256sum | md5sum | grep | dd | cut | cp | \
		cat | for | do | done | if | then | fi | case | esac | while | test | true | false | \
		mkdir | rm | mv | ls | wc | tr | sed | truncate | stat | sleep) continue ;;
	*) unknown="$unknown $t"; continue ;;
	esac
	echo "$deps" | grep -qw "$pkg" || unknown="$unknown $t($pkg not in make deps)"
done
if [ -n "$tools" ] && [ -z "$unknown" ]; then ok "make deps covers the tools README's sessions run"; else
	not_ok "make deps covers the tools README's sessions run" "unknown or missing:$unknown"; fi

# the runner itself: a wrong output, a "..." and a continued command
printf '    $ echo a; echo b\n    a\n    c\n\n    $ for i in 1 2 3; do\n    > echo $i; done\n    1\n    ...\n' >"$T/bad.md"
if python3 "$ROOT/tests/cli/readme_examples.py" "$T/bad.md" "$W" >"$T/bad.res"; then
	not_ok "runner: a wrong output fails" "$(cat "$T/bad.res")"; else ok "runner: a wrong output fails"; fi
if grep -q '^not ok - bad.md:1\|^not ok - README.md:1: echo a' "$T/bad.res" && grep -q '^ok - .*for i in 1 2 3' "$T/bad.res"; then
	ok "runner: '...' and '> ' continuations"; else not_ok "runner: '...' and '> ' continuations" "$(cat "$T/bad.res")"; fi

# the runner compares read counts and times as numbers only, every other
# value exactly (issue 31): the failed reads, the blocks, the verdict
S='search:    4 reads, 1 failed, 8.0 s (8003 ms) of drive time (virtual)'
J='{"true_blocks":112,"reads":4,"failed_reads":1,"virtual_ms":8003.15,"verdict":"hidden-tail"}'
{
	printf '    $ echo "search:    97 reads, 1 failed, 1 min (61234 ms) of drive time (virtual)" # reads\n    %s\n\n' "$S"
	printf '    $ echo "search:    4 reads, 2 failed, 8.0 s (8003 ms) of drive time (virtual)" # failed\n    %s\n\n' "$S"
	printf '    $ echo "search:    0 reads, 1 failed, 8.0 s (8003 ms) of drive time (virtual)" # fewer\n    %s\n\n' "$S"
	printf '    $ echo "elapsed:   1.2 s (1234 ms)" # elapsed\n    elapsed:   431 ms\n\n'
	printf "    \$ echo '%s' # json-reads\n    %s\n\n" \
		'{"true_blocks":112,"reads":152,"failed_reads":1,"virtual_ms":8158.55,"verdict":"hidden-tail"}' "$J"
	printf "    \$ echo '%s' # json-failed\n    %s\n\n" \
		'{"true_blocks":112,"reads":4,"failed_reads":2,"virtual_ms":8003.15,"verdict":"hidden-tail"}' "$J"
	printf "    \$ echo '%s' # json-true\n    %s\n\n" \
		'{"true_blocks":113,"reads":4,"failed_reads":1,"virtual_ms":8003.15,"verdict":"hidden-tail"}' "$J"
	printf "    \$ echo '%s' # json-verdict\n    %s\n\n" \
		'{"true_blocks":112,"reads":4,"failed_reads":1,"virtual_ms":8003.15,"verdict":"ok"}' "$J"
	printf "    \$ echo '%s' # json-null\n    %s\n\n" \
		'{"true_blocks":112,"reads":4,"failed_reads":1,"virtual_ms":null,"verdict":"hidden-tail"}' "$J"
	printf "    \$ echo '%s' # json-fewer\n    %s\n\n" \
		'{"true_blocks":112,"reads":0,"failed_reads":1,"virtual_ms":8003.15,"verdict":"hidden-tail"}' "$J"
	printf "    \$ echo '%s' # json-missing\n    %s\n\n" \
		'{"true_blocks":112,"failed_reads":1,"virtual_ms":8003.15,"verdict":"hidden-tail"}' "$J"
} >"$T/free.md"
python3 "$ROOT/tests/cli/readme_examples.py" "$T/free.md" "$W" >"$T/free.res"
for c in reads elapsed json-reads; do
	if grep -q "^ok - .*# $c\$" "$T/free.res"; then ok "runner: $c compare as numbers only"; else
		not_ok "runner: $c compare as numbers only" "$(cat "$T/free.res")"; fi
done
for c in failed fewer json-failed json-true json-verdict json-null json-fewer json-missing; do
	if grep -q "^not ok - .*# $c\$" "$T/free.res"; then ok "runner: $c must be as shown"; else
		not_ok "runner: $c must be as shown" "$(cat "$T/free.res")"; fi
done
finish
