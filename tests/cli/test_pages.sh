#!/bin/sh
# One truth for options and exit statuses (issue 35, items 1 and 4): each
# command's --help (its option table) and its page agree on every option,
# letter, value name, default and exit status (tests/cli/check_pages.py);
# the checker itself fails on a page that disagrees; the common options
# are the same words in every command that talks to a device; map and
# export refuse -v and --timeout saying why; did-you-mean for options,
# the habits of other tools answered with the option meant, options
# before the command, --version in every command.
. "$(dirname "$0")/lib.sh"

CMDS=$("$CDTAIL" help | sed -n 's/^  \([a-z]*\)  .*/\1/p')
[ "$(echo $CMDS | wc -w)" -ge 7 ] && ok "help lists the commands ($(echo $CMDS))" ||
	not_ok "help lists the commands" "$CMDS"

# the comparison, every command
python3 "$ROOT/tests/cli/check_pages.py" "$CDTAIL" "$ROOT/man" $CMDS >"$T/res"
rc=$?
cat "$T/res"
PASS=$((PASS + $(grep -c '^ok - ' "$T/res")))
FAIL=$((FAIL + $(grep -c '^not ok - ' "$T/res")))
[ $rc -ne 0 ] && ! grep -q '^not ok - ' "$T/res" && not_ok "check_pages.py failed (exit $rc)"

# the checker catches each kind of disagreement: a page with an option
# the command refuses, one without an option, another default, another
# exit status
mkdir "$T/man"
doctor() { # NAME SED-SCRIPT: cdtail-probe.1 changed, the checker must fail
	sed "$2" "$ROOT/man/cdtail-probe.1" >"$T/man/cdtail-probe.1"
	if python3 "$ROOT/tests/cli/check_pages.py" "$CDTAIL" "$T/man" probe >"$T/doc" 2>&1; then
		not_ok "check_pages.py fails on a page with $1" "$(cat "$T/doc")"
	else ok "check_pages.py fails on a page with $1"; fi
}
doctor "an option probe refuses" '/^\.SH JSON OUTPUT/i\
.TP\
.BI \\-\\-status\\-every " SECONDS"\
A status line.'
doctor "an option missing" '/^\.BI \\-\\-max\\-extra/s/max\\-extra/max\\-extras/'
doctor "another default" 's/(default 16384)/(default 100)/'
doctor "another exit status" '/^\.SH EXIT STATUS/a\
.TP\
.B 7\
Seven.'
sed 's/^\.BI \\-\\-timeout " SECONDS"/.BI \\-\\-timeout " SECS"/' "$ROOT/man/cdtail-probe.1" >"$T/man/cdtail-probe.1"
python3 "$ROOT/tests/cli/check_pages.py" "$CDTAIL" "$T/man" probe >"$T/doc" 2>&1
if grep -q 'value SECONDS in --help, SECS in the page' "$T/doc"; then
	ok "check_pages.py names a value name that differs"; else not_ok "check_pages.py names a value name that differs"; fi

# the common options read the same in every command that talks to a device
for o in '-q, --quiet' '-v, --verbose' '--timeout SECONDS' '--json' '-V, --version'; do
	first=
	for c in probe image tail verify hazards; do
		"$CDTAIL" "$c" --help | awk -v o="$o" 'index($0, o " ") { p = 1; print; next }
			p && /^ {29}/ { print; next } { p = 0 }' >"$T/h.$c"
		[ -n "$first" ] || first=$c
	done
	diff=$(for c in image tail verify hazards; do cmp -s "$T/h.probe" "$T/h.$c" || echo "$c"; done)
	if [ -s "$T/h.probe" ] && [ -z "$diff" ]; then ok "'$o': the same words in every command with a device"
	else not_ok "'$o': the same words in every command with a device" "differs in: $diff"; fi
done

# map and export talk to no device: -v and --timeout refused with the reason, -q taken
IMG=$T/d.img
mkimage "$IMG" 200
DEV="sim:$IMG,cost=0/0"
run image -q --map "$T/d.map" "$DEV" "$T/d.iso"
expect_rc "image for the map" 0
for cmd in "map -v $T/d.map" "map --timeout 5 $T/d.map" "export --ewf $T/e.E01 -v $T/d.iso" \
	"export --verbose --ewf $T/e.E01 $T/d.iso"; do
	run $cmd
	expect_rc "'${cmd%% /*}...' -> 2" 2
	expect_grep "'${cmd%% /*}...': says why" "$T/err" \
		"talks to no device; -v and --timeout are for the commands that do: probe image tail verify hazards"
done
run map -q --svg "$T/d.svg" "$T/d.map"
expect_rc "map -q --svg -> 0" 0
if [ -s "$T/out" ]; then not_ok "map -q --svg: nothing on stdout" "$(cat "$T/out")"; else ok "map -q --svg: nothing on stdout"; fi
run export -q --ewf "$T/e.E01" "$T/d.iso"
expect_rc "export -q -> 0" 0
if [ "$(grep -c . "$T/out")" = 3 ] && grep -q '^  md5 ' "$T/out" && grep -q '^  sha1 ' "$T/out" &&
	grep -q '^  sha256 ' "$T/out"; then
	ok "export -q: the digest lines alone"; else not_ok "export -q: the digest lines alone" "$(cat "$T/out")"; fi

# did you mean: an option within a typo of one the command takes
for t in "probe --jsno $DEV|--json" "image --formated skip $DEV $T/x|--formatted" \
	"verify --sha265 00 $DEV|--sha256" "verify $DEV --imgae $IMG|--image" \
	"tail --retires 1 $DEV $T/x|--retries"; do
	cmd=${t%|*} want=${t#*|}
	run $cmd
	expect_rc "'${cmd%% *} ${cmd#* }' -> 2" 2
	expect_grep "'${cmd%% sim*}': did you mean $want" "$T/err" "unknown option '[^']*' \(did you mean '$want'\?\)"
done
run probe --frobnicate "$DEV"
expect_grep "--frobnicate: no guess" "$T/err" "unknown option '--frobnicate'$"
if [ -e "$T/x" ]; then not_ok "a mistyped option writes nothing"; else ok "a mistyped option writes nothing"; fi

# GNU ddrescue's order: IN OUT MAPFILE; verify DEV FILE: the option meant, one line
run image "$DEV" "$T/o.iso" "$T/o.map"
expect_rc "image DEV OUT MAP -> 2" 2
expect_err_line "image DEV OUT MAP: the --map it meant, one line" \
	"too many arguments: '$T/o.map' \(GNU ddrescue's order\? the map is an option here: cdtail image --map $T/o.map $DEV $T/o.iso\)"
if [ -e "$T/o.iso" ] || [ -e "$T/o.map" ]; then not_ok "image DEV OUT MAP: nothing written"; else
	ok "image DEV OUT MAP: nothing written"; fi
run verify "$DEV" "$IMG"
expect_rc "verify DEV FILE -> 2" 2
expect_err_line "verify DEV FILE: the --image it meant, one line" \
	"too many arguments: '$IMG' \(an image to compare with\? cdtail verify --image $IMG $DEV\)"
run verify --json "$DEV" "$IMG"
expect_json "verify --json DEV FILE: the error object says it" .error.message \
	"too many arguments: '$IMG' (an image to compare with? cdtail verify --image $IMG $DEV)"

# options before the command, as git takes them
HDEV="sim:$IMG,cost=0/0,hide=5"
run --json probe "$HDEV"
expect_rc "cdtail --json probe DEV -> 10" 10
expect_json "cdtail --json probe DEV: JSON" .hidden_blocks 5
run -q --max-extra 100 probe "$HDEV"
expect_rc "cdtail -q --max-extra 100 probe DEV: the value stays the option's" 10
run --timeout 5 -v probe "$DEV"
expect_rc "cdtail --timeout 5 -v probe DEV -> 0" 0
expect_grep "cdtail -v probe DEV: -v reaches probe" "$T/err" "Read\(10\)|Inquiry|INQUIRY"
run --jsno probe "$DEV"
expect_rc "cdtail --jsno probe -> 2" 2
expect_grep "cdtail --jsno probe: the command's did you mean" "$T/err" "probe: unknown option '--jsno' \(did you mean '--json'\?\)"
run -v
expect_rc "cdtail -v (no command) -> 2" 2
expect_err_line "cdtail -v: one line" "option '-v' before no command; 'cdtail --help' lists the commands"

# --version in every command, and in help's list of each
V=$("$CDTAIL" --version)
for c in $CMDS; do
	run "$c" --version
	expect_rc "$c --version -> 0" 0
	if [ "$(cat "$T/out")" = "$V" ]; then ok "$c --version: '$V'"; else
		not_ok "$c --version: '$V'" "$(cat "$T/out")"; fi
	run "$c" -V
	expect_rc "$c -V -> 0" 0
done

finish
