#!/bin/sh
# The command line every subcommand shares (issue 14, point 1): options
# anywhere, --opt=value, abbreviations, --, --help, --version, help
# COMMAND, an option a command does not take, and stdout write failures.
. "$(dirname "$0")/lib.sh"

IMG=$T/d.img
mkimage "$IMG" 200
DEV="sim:$IMG,cost=0/0"
HDEV="sim:$IMG,cost=0/0,hide=5"

# options before and after operands, in every command
run probe "$HDEV" --json
expect_rc "probe DEV --json: 10" 10
expect_json "probe DEV --json: JSON" .true_blocks 200
run hazards "$DEV" --json
expect_json "hazards DEV --json: JSON" .device "$DEV"
run image "$DEV" "$T/o1" --json -q
expect_rc "image DEV OUT --json -q: 0" 0
expect_json "image DEV OUT --json: JSON" .bad_count 0
cp "$IMG" "$T/t1"
run tail "$DEV" "$T/t1" --json
expect_json "tail DEV IMAGE --json: JSON" .verdict nothing-to-add
run verify "$DEV" --json --image "$IMG"
expect_json "verify DEV --json --image: JSON" .verdict identical

# --opt=value and abbreviations
run probe --max-extra=5000 --json "$HDEV"
expect_json "--max-extra=5000" .true_blocks 200
run probe --max-e 5000 --js "$HDEV"
expect_json "--max-e 5000 --js: abbreviations" .true_blocks 200
run image --map "$T/m2" --map-i=100 -q "$DEV" "$T/o2"
expect_rc "--map-i=100: an unambiguous abbreviation" 0
run image --ma 3 "$DEV" "$T/o3"
expect_rc "ambiguous --ma -> 2" 2
expect_grep "ambiguous --ma: names every candidate" "$T/err" \
	"'--ma' is ambiguous: it could be --map, --map-interval, --max-extra"
if [ -e "$T/o3" ]; then not_ok "ambiguous option: nothing written"; else ok "ambiguous option: nothing written"; fi
run image "$DEV" "$T/o4" --map "$T/m4"
expect_rc "--map: exact name beats the longer ones" 0
run probe --json=yes "$DEV"
expect_rc "--json=yes -> 2" 2
expect_grep "--json=yes: takes no value" "$T/err" "'--json' takes no value"
run probe "$DEV" --timeout
expect_rc "--timeout without value -> 2" 2
expect_grep "--timeout without value: says so" "$T/err" "'--timeout' needs a value"

# -- ends the options
run probe -q -- "$DEV"
expect_rc "-q -- DEV" 0
run probe -- "$DEV" -q
expect_rc "-- DEV -q: -q is an operand -> 2" 2
expect_grep "-- DEV -q: too many arguments" "$T/err" "too many arguments: '-q'"
cp "$IMG" "$T/-t"
cd "$T" || exit 1
run tail "$DEV" -- -t
cd "$OLDPWD" || exit 1
expect_rc "tail DEV -- -t: an operand starting with -" 0

# an option a command does not take is an error
for cmd in "probe --chunk 4 $DEV" "probe --retries 1 $DEV" "hazards --max-extra 3 $DEV" \
	"tail --map m $DEV x" "verify --force $DEV --image x" "probe -x $DEV" \
	"map --timeout 5 $T/m2" "map -v $T/m2"; do
	run $cmd
	expect_rc "'$cmd' -> 2" 2
	expect_grep "'$cmd': unknown option" "$T/err" "unknown option"
done

# -q and -v everywhere
for cmd in probe image tail verify hazards; do
	run $cmd --help
	expect_rc "$cmd --help -> 0" 0
	expect_grep "$cmd --help: usage" "$T/out" "^usage: cdtail $cmd "
	expect_grep "$cmd --help: -q" "$T/out" "^  -q, --quiet +no progress screen"
	expect_grep "$cmd --help: -v" "$T/out" "^  -v, --verbose +every SCSI command"
	expect_grep "$cmd --help: exit statuses" "$T/out" "^Exit: 0 "
	# every option in the help has a line of its own explaining it
	if awk '/^  (-., )?    --/ || /^  -., --/ { if (NF < 3) bad = 1; n++ } END { exit bad || n < 5 }' "$T/out"; then
		ok "$cmd --help: one line per option"; else not_ok "$cmd --help: one line per option" "$(cat "$T/out")"; fi
	# help COMMAND shows the command's page (issue 21; tests/cli/test_man.sh)
	run help $cmd
	expect_rc "help $cmd -> 0" 0
	expect_grep "help $cmd: the page cdtail-$cmd(1)" "$T/out" "^ +cdtail-$cmd +- "
done
run probe -q "$HDEV"
expect_rc "probe -q: 10" 10
if [ "$(cat "$T/out")" = "verdict:   hidden-tail" ]; then ok "probe -q: the verdict line only"; else
	not_ok "probe -q: the verdict line only" "$(cat "$T/out")"; fi
for cmd in "probe $DEV" "image --force $DEV $T/o5" "tail $DEV $T/t1" "verify $DEV --image $IMG"; do
	run $cmd -v
	expect_grep "'$cmd -v': the command log" "$T/err" '^cdtail: Read\(10\) lba=[0-9]+ len=[0-9]+: Good '
done
run image -q "$DEV" "$T/o6"
expect_rc "image -q: 0" 0
expect_grep "image -q: the verdict line" "$T/out" '^verdict: +complete$'

# --version, -V, help
for v in --version -V; do
	run $v
	expect_rc "$v -> 0" 0
	expect_grep "$v: name and version" "$T/out" '^cdtail [0-9]+\.[0-9]+\.[0-9]+'
done
run help
expect_rc "help -> 0" 0
expect_grep "help: lists the commands" "$T/out" '^  verify '
run help frobnicate
expect_rc "help frobnicate -> 2" 2

# --json: a failure still prints one object on stdout, the text on stderr
run probe --json "$DEV" extra
expect_rc "usage error with --json -> 2" 2
expect_json "usage error with --json: error.status" .error.status 2
expect_json "usage error with --json: device" .device "$DEV"
expect_grep "usage error with --json: text on stderr" "$T/err" 'too many arguments'
run probe --bogus --json "$DEV"
expect_json "--json after the bad option: still JSON" .error.status 2
run verify --json "$DEV"
expect_json "verify without a mode, --json" .error.message 'give exactly one of --image, --cue, --sha256, --md5, --sha256-file, --md5-file'
run probe --json /dev/null
expect_rc "device error with --json -> 3" 3
expect_json "device error with --json: error.status" .error.status 3
expect_json "device error with --json: message" '.error.message | test("SCSI")' true
run probe "$DEV" extra
if [ -s "$T/out" ]; then not_ok "usage error without --json: stdout empty"; else ok "usage error without --json: stdout empty"; fi

# a failure to write stdout is one line and status 3
if [ -w /dev/full ]; then
	for cmd in "probe --json $DEV" "probe $DEV" "verify $DEV --image $IMG" "probe --help" "--version"; do
		$TEST_WRAPPER "$CDTAIL" $cmd >/dev/full 2>"$T/err"
		RC=$?
		expect_rc "'$cmd' >/dev/full -> 3" 3
		expect_err_line "'$cmd' >/dev/full: one line" '^cdtail: cannot write standard output: '
	done
fi
finish
