#!/bin/sh
# The emulated drive's disc kinds (layout=, gap=, tao=, open=, profile=,
# formatted=) under the real CLI: probe must end with a verdict (0, 10 or
# 11), and every read in the drive's trace must have met what the layout
# says that LBA answers (audio: 05/64/00, gap: gap=, data: success).
. "$(dirname "$0")/lib.sh"

# check_trace NAME TRACE LAYOUT_AWK: LAYOUT_AWK prints the sense a block
# should get ("ok", "64", "gap"); each read is checked at each of its blocks
# up to its first failing one, as the drive stops there
check_trace() {
	bad=$(awk -v GAP="$4" "$3"'
	$1 == "28" || $1 == "a8" || $1 == "88" {
		split($2, a, "="); lba = a[2] + 0
		split($3, b, "="); n = b[2] + 0
		split($4, c, "="); sense = c[2]
		want = "00/00/00"
		for (i = 0; i < n; i++) {
			k = kind(lba + i)
			if (k == "64") { want = "05/64/00"; break }
			if (k == "gap") { want = GAP; break }
			if (k == "end") { want = "05/21/00"; break }
		}
		if (sense != want) print $0 " (wanted " want ")"
	}' "$2" | head -5)
	if [ -z "$bad" ]; then ok "$1"; else not_ok "$1" "$bad"; fi
}

probe_ok() {
	case "$RC" in
	0|10|11) ok "$1: probe ends with a verdict (exit $RC)" ;;
	*) not_ok "$1: probe ends with a verdict" "exit $RC" "$(head -c 400 "$T/err")" ;;
	esac
	if jq -e . <"$T/out" >/dev/null 2>&1; then ok "$1: JSON"; else
		not_ok "$1: JSON" "$(head -c 400 "$T/out")"; fi
}

# --- CD-Extra: audio 300 + audio 200, gap 11400, data 100 ---------------------
EXTRA="$T/extra.img"
mkimage "$EXTRA" $((300 + 200 + 11400 + 100))
EXTRA_KIND='function kind(b) { if (b < 500) return "64"; if (b < 11900) return "gap";
	if (b < 12000) return "ok"; return "end" }'
for gap in 05/21/00 03/11/05; do
	rm -f "$T/trace"
	run probe --json "sim:$EXTRA,layout=audio:300+audio:200/data:100,gap=$gap,trace=$T/trace"
	probe_ok "cd-extra gap=$gap"
	check_trace "cd-extra gap=$gap: each read got what its LBAs answer" "$T/trace" \
		"$EXTRA_KIND" "$gap"
done
rm -f "$T/trace"
run probe --json "sim:$EXTRA,layout=audio:300+audio:200/data:100,gap=zero,trace=$T/trace"
probe_ok "cd-extra gap=zero"
check_trace "cd-extra gap=zero: gap reads succeed" "$T/trace" "$EXTRA_KIND" "00/00/00"

# --- mixed mode: data 1000 + audio 500 ------------------------------------------
MIXED="$T/mixed.img"
mkimage "$MIXED" 1500
rm -f "$T/trace"
run probe --json "sim:$MIXED,layout=data:1000+audio:500,trace=$T/trace"
probe_ok "mixed"
check_trace "mixed: audio reads fail 05/64/00" "$T/trace" \
	'function kind(b) { if (b < 1000) return "ok"; if (b < 1500) return "64"; return "end" }' x
# the last track is audio: no end search, so no READ(10) touches it, and
# the 05/64/00 there is neither the end nor "short"
expect_json "mixed: verdict ok over every block" '.verdict + " " + (.true_blocks|tostring)' "ok 1500"
into_audio=$(awk '($1 == "28" || $1 == "a8" || $1 == "88") {
	split($2, a, "="); split($3, b, "=")
	if (a[2] + b[2] > 1000) print }' "$T/trace" | head -3)
if [ -z "$into_audio" ]; then ok "mixed: probe never reads the audio track"
else not_ok "mixed: probe never reads the audio track" "$into_audio"; fi

# --- 3 sessions, TAO: each track's last 2 blocks are run-out -------------------
THREE="$T/three.img"
mkimage "$THREE" $((100 + 11400 + 50 + 6900 + 30))
rm -f "$T/trace"
run probe --json "sim:$THREE,layout=data:100/data:50/data:30,tao=1,trace=$T/trace"
probe_ok "3 sessions tao"
check_trace "3 sessions tao: run-outs 05/64/00, gaps 05/21/00" "$T/trace" \
	'function kind(b) { if (b < 98) return "ok"; if (b < 100) return "64";
	 if (b < 11500) return "gap"; if (b < 11548) return "ok"; if (b < 11550) return "64";
	 if (b < 18450) return "gap"; if (b < 18478) return "ok"; if (b < 18480) return "64";
	 return "end" }' 05/21/00

# --- appendable CD-R, formatted DVD+RW -------------------------------------------
SMALL="$T/small.img"
mkimage "$SMALL" 1000
run probe --json "sim:$SMALL,open=1,profile=cd-r"
probe_ok "open cd-r"
# open=1 without profile=: an appendable disc is a recordable one (issue 28, G)
run probe --json "sim:$SMALL,open=1"
probe_ok "open, no profile"
expect_json "open=1 alone: the profile is CD-R" .profile CD-R
expect_json "open=1 alone: appendable" '.notes | index("appendable") != null' true
truncate -s 1000000000 "$T/dvd.img"
run probe --json "sim:$T/dvd.img,open=1"
expect_json "open=1 alone above a CD's size: DVD-R" .profile DVD-R
for p in cd-rom dvd-rom bd-rom dvd+rw dvd-ram bd-re; do
	run probe "sim:$SMALL,open=1,profile=$p"
	expect_rc "open=1,profile=$p -> 2" 2
done
rm -f "$T/trace"
run probe --json "sim:$SMALL,profile=dvd+rw,formatted=3000,trace=$T/trace"
probe_ok "formatted dvd+rw"
check_trace "formatted: reads below 3000 succeed" "$T/trace" \
	'function kind(b) { if (b < 3000) return "ok"; return "end" }' x

# --- usage errors ---------------------------------------------------------------
run probe --json "sim:$SMALL,layout=data:999"
expect_rc "layout short of N: usage" 2
expect_grep "layout short of N: both counts named" "$T/err" "999 blocks.*holds 1000"
run probe "sim:$SMALL,formatted=2000"
expect_rc "formatted= without a rewritable profile: usage" 2
run probe "sim:$SMALL,gap=lead-out"
expect_rc "gap=lead-out: usage" 2
finish
