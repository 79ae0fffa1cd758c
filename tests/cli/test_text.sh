#!/bin/sh
# What cdtail writes for people (issue 24): every help text, table, report
# and note fits 80 columns; errors carry one prefix, "cdtail: "; a mistyped
# command or sim: key gets one line with "did you mean"; -q keeps the
# digests (results, not progress).
. "$(dirname "$0")/lib.sh"
C=build
IMG="$T/d.img"
mkimage "$IMG" 3000

# wide NAME FILE: no line of FILE is longer than 80 columns
wide() {
	if awk 'length > 80 { print FILENAME ": " length ": " $0; bad = 1 } END { exit bad }' "$2" >"$T/wide"; then
		ok "$1: fits 80 columns"; else not_ok "$1: fits 80 columns" "$(head -3 "$T/wide")"; fi
}

# --- help texts --------------------------------------------------------------
run --help
wide "cdtail --help" "$T/out"
for cmd in probe image tail verify hazards map; do
	run "$cmd" --help
	wide "$cmd --help" "$T/out"
	# a wrapped help line goes on under its own column, never at the margin
	if awk '/^Options/ { o = 1; next } /^$/ { o = 0 } o && /^ / && !/^  (-., |    )--/ && !(substr($0, 1, 29) ~ /^ *$/ && substr($0, 30, 1) != " ") { bad = 1 } END { exit bad }' "$T/out"; then
		ok "$cmd --help: continuation lines under the help column"; else
		not_ok "$cmd --help: continuation lines under the help column" "$(cat "$T/out")"; fi
done

# --- probe's notes and every report, on discs that make them long -----------
: >"$T/all"
for keys in runout=2 past=medium "extra=40,hide=40" "layout=data:2000+audio:1000" \
	"profile=dvd+rw,formatted=4000" "profile=cd-r,open=1" bad=0-2999 "hide=50,reveal=1"; do
	# in $T: the next: line repeats DEV, as short as a user's
	(cd "$T" && "$CDTAIL" probe --max-extra 20 "sim:d.img,$keys" && "$CDTAIL" probe "sim:d.img,$keys") >>"$T/all" 2>&1
done
grep -c '^note:' "$T/all" >"$T/notes"
if [ "$(cat "$T/notes")" -ge 6 ]; then ok "probe: the notes were printed ($(cat "$T/notes"))"; else
	not_ok "probe: the notes were printed" "$(cat "$T/notes")"; fi
wide "probe reports and notes" "$T/all"
# in $T, so that file names are short as a user's are
(
	cd "$T" || exit 1
	"$CDTAIL" image --map o.map --max-extra 20 "sim:d.img,bad=1-1:3-3:5-5:7-7:9-9:11-11:13-13:15-15:17-17,hide=40" o
	"$CDTAIL" image "sim:d.img,bad=10-20" o2
	"$CDTAIL" image "sim:d.img,layout=data:2000+audio:1000" o3
	head -c $((2000 * 2048)) d.img >short
	"$CDTAIL" tail "sim:d.img,hide=1000,bad=2950-2950" short
	"$CDTAIL" verify --all "sim:d.img,bad=10-20" --image o2
	"$CDTAIL" map o.map --width 60
) >"$T/rep" 2>&1
grep -q '^next:' "$T/rep" && grep -q '^lost:' "$T/rep" && ok "reports: lost: and next: printed" ||
	not_ok "reports: lost: and next: printed" "$(head -20 "$T/rep")"
# map's command: line is the map's record of a command line, verbatim
grep -v '^command: ' "$T/rep" >"$T/rep2"
wide "image, tail, verify and map reports" "$T/rep2"

# --- hazards: both node tables ------------------------------------------------
: >"$T/hz"
for t in "$FIX"/sysfs/*/; do
	for dev in /dev/mapper/mpatha /dev/sda /dev/mapper/vg0-data /dev/sr0; do
		# a device the tree has not: an error naming the paths looked at
		"$CDTAIL" hazards -v --sysfs "$t" "$dev" >"$T/hz1" 2>&1
		[ $? -ne 3 ] && cat "$T/hz1" >>"$T/hz"
	done
done
expect_grep "hazards: the queue table" "$T/hz" '^NODE +ROLE +STATE +ROT +QDEPTH$'
expect_grep "hazards: the cache table" "$T/hz" '^NODE +WRITE_CACHE +FUA +CACHE_TYPE +WCE +DPOFUA$'
wide "hazards tables and details" "$T/hz"

# --- one error prefix -----------------------------------------------------------
: >"$T/errs"
for args in "image --retries x sim:$IMG $T/e1" "image sim:$IMG" "probe --bogus sim:$IMG" \
	"verify sim:$IMG" "probe sim:$T/missing.iso" "map $T/missing.map" "tail sim:$IMG $T/missing" \
	"probe sim:$IMG,hide=x" "image --map $T/e.map sim:$IMG $T/e.map"; do
	# shellcheck disable=SC2086 # args is a list of words
	"$CDTAIL" $args >/dev/null 2>>"$T/errs"
done
grep -v "^Try 'cdtail [a-z]* --help'\.$" "$T/errs" >"$T/errs.msg"
if [ -s "$T/errs.msg" ] && ! grep -qv '^cdtail: ' "$T/errs.msg"; then
	ok "errors: every message starts 'cdtail: '"; else
	not_ok "errors: every message starts 'cdtail: '" "$(grep -v '^cdtail: ' "$T/errs.msg" | head -3)"; fi
expect_no_grep "errors: no 'cdtail COMMAND:' prefix" "$T/errs" '^cdtail [a-z]+: '
expect_grep "a usage error names its command" "$T/errs" "^cdtail: image: --retries wants a number"

# --- did you mean -----------------------------------------------------------------
run prob "sim:$IMG"
expect_rc "cdtail prob: usage error" 2
expect_err_line "cdtail prob: one line, did you mean probe" "^cdtail: unknown command 'prob' \(did you mean 'probe'\?\)"
run imgae "sim:$IMG" "$T/x"
expect_err_line "cdtail imgae: a swap is one edit" "did you mean 'image'\?"
run hlep
expect_err_line "cdtail hlep: help" "did you mean 'help'\?"
run frobnicate
expect_err_line "cdtail frobnicate: no guess, one line" "^cdtail: unknown command 'frobnicate'; 'cdtail --help' lists the commands$"
run help verfy
expect_rc "cdtail help verfy: usage error" 2
expect_err_line "cdtail help verfy: did you mean verify" "did you mean 'verify'\?"
run probe "sim:$IMG,hdie=5"
expect_rc "sim key hdie: usage error" 2
expect_err_line "sim key hdie: did you mean hide" "^cdtail: sim: unknown key 'hdie' \(did you mean 'hide'\?\)$"
run probe "sim:$IMG,trce=$T/t"
expect_err_line "sim key trce: did you mean trace" "did you mean 'trace'\?"
run probe "sim:$IMG,colour=blue"
expect_err_line "sim key colour: no guess" "^cdtail: sim: unknown key 'colour'$"

# --- -q keeps the digests ----------------------------------------------------------
run image -q --force "sim:$IMG" "$T/q"
expect_rc "image -q: 0" 0
want_md5=$(md5sum <"$IMG" | cut -d' ' -f1)
want_sha=$(sha256sum <"$IMG" | cut -d' ' -f1)
if [ "$(cat "$T/out")" = "$(printf 'md5:       %s\nsha256:    %s\nverdict:   complete' "$want_md5" "$want_sha")" ]; then
	ok "image -q: the digests and the verdict, nothing else"; else
	not_ok "image -q: the digests and the verdict, nothing else" "$(cat "$T/out")"; fi
run image -q --force --digest none "sim:$IMG" "$T/q"
if [ "$(cat "$T/out")" = "verdict:   complete" ]; then ok "image -q --digest none: the verdict only"; else
	not_ok "image -q --digest none: the verdict only" "$(cat "$T/out")"; fi
head -c $((2000 * 2048)) "$IMG" >"$T/q2"
run tail -q "sim:$IMG,hide=1000" "$T/q2"
expect_grep "tail -q: the sha256 of the whole image" "$T/out" "^sha256: +$want_sha$"
finish
