#!/bin/sh
# The progress screen (issue 14, point 4), looked at in a real terminal:
# tmux runs cdtail in a pane of known size and capture-pane shows what a
# person sees.  The emulated drive really sleeps its virtual cost
# (sleep=1), so the end search and the copy last a few seconds.
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null; then
	echo "# tmux missing (scripts/install-deps.sh installs it): skipped"
	finish
	exit 0
fi
IMG=$T/d.img
mkimage "$IMG" 3000
SLOW="sim:$IMG,sleep=1,cost=1000/600,hide=200,bad=500-520"
SOCK=$T/tmux.sock
COLS=80
tm() { tmux -S "$SOCK" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$T"' EXIT

# watch NAME CMD: run CMD in a COLS x 24 pane; every capture goes to $T/NAME.caps,
# separated by "----", until the pane says DONE
watch() {
	tm kill-session -t w 2>/dev/null
	tm new-session -d -s w -x ${3:-$COLS} -y 24 "cd '$T' && $2; echo DONE \$?; sleep 60"
	: >"$T/$1.caps"
	i=0
	while [ $i -lt 600 ]; do
		tm capture-pane -p -t w >"$T/cap" 2>/dev/null
		{ cat "$T/cap"; echo ----; } >>"$T/$1.caps"
		grep -q '^DONE ' "$T/cap" && break
		sleep 0.1
		i=$((i + 1))
	done
	cp "$T/cap" "$T/$1.final"
}

watch image "'$CDTAIL' image --map m '$SLOW' out"
expect_grep "image: exit 4 in the terminal" "$T/image.final" '^DONE 4$'
expect_grep "image: the end search shows what it does" "$T/image.caps" \
	'^cdtail image: reading past the reported end: LBA [0-9]+, [0-9]+ failing reads? so far'
expect_grep "image: phase and pass, and what Ctrl-C does" "$T/image.caps" \
	'^cdtail image: copying, pass 1; Ctrl-C stops; the map is saved'
expect_grep "image: rescued bytes of the total, percent" "$T/image.caps" \
	'^  rescued [0-9.]+ [kM]?B of 6\.1 MB \([0-9]+\.[0-9]{2} %\), at LBA [0-9]+'
# ddrescue's counts: a failed chunk of pass 1 is non-trimmed, not bad yet
expect_grep "image: non-tried, non-trimmed, non-scraped" "$T/image.caps" \
	'^  non-tried [0-9.]+ [kM]?B, non-trimmed [0-9.]+ [kM]?B, non-scraped [0-9.]+ [kM]?B$'
if awk '/^cdtail image: copying, pass 1/ { c = 1; next } /^----$/ { c = 0 }
	c && /^  non-tried [1-9][0-9.]* [kM]?B, non-trimmed [1-9]/ { t = 1 }
	c && t && /^  bad-sector 0 B \(0 blocks\), bad areas 1;/ { ok = 1 }
	/^----$/ { t = 0 } END { exit !ok }' "$T/image.caps"; then
	ok "image: pass 1 counts a failed chunk non-trimmed, bad-sector 0"; else
	not_ok "image: pass 1 counts a failed chunk non-trimmed, bad-sector 0" \
		"$(grep -A4 '^cdtail image: copying' "$T/image.caps" | head -12)"; fi
expect_grep "image: bad-sector bytes and blocks, bad areas, the last good read" "$T/image.caps" \
	'^  bad-sector [0-9.]+ kB \([0-9]+ blocks\), bad areas 1; last good read [0-9]+ s ago'
expect_grep "image: current and average rate, elapsed, ETA" "$T/image.caps" \
	'^  rate [0-9.]+ [kM]?B/s now, [0-9.]+ [kM]?B/s average; elapsed 0:[0-9]{2}; ETA [0-9:]+'
expect_grep "image: later phases" "$T/image.caps" '^cdtail image: (trimming|scraping|retrying), pass'
# redrawn in place: one screen at a time, never a scrolling log
if awk '/^----$/ { if (n > 1) bad = 1; n = 0; next } /^cdtail image: / { n++ } END { exit bad }' "$T/image.caps"; then
	ok "image: redrawn in place (one screen per capture)"; else not_ok "image: redrawn in place"; fi
if grep -qE '^(cdtail image: |  rescued |  rate )' "$T/image.final"; then
	not_ok "image: the screen is gone once the report is printed" "$(cat "$T/image.final")"; else
	ok "image: the screen is gone once the report is printed"; fi
expect_grep "image: the report follows" "$T/image.final" '^verdict: +unreadable'

watch probe "'$CDTAIL' probe '$SLOW'"
expect_grep "probe: exit 10 in the terminal" "$T/probe.final" '^DONE 10$'
expect_grep "probe: the end search shows what it does" "$T/probe.caps" \
	'^cdtail probe: reading past the reported end: LBA [0-9]+, [0-9]+ failing reads? so far'
expect_grep "probe: the reads so far and the reported size" "$T/probe.caps" \
	'^  [0-9]+ reads, 0:[0-9]{2} of drive time; 2800 blocks reported'

# never wider than the pane, so it never wraps: a narrow one cuts the lines
rm -f "$T/m" "$T/out"
watch narrow "'$CDTAIL' image --map m '$SLOW' out" 40
SCREEN_RE='^(cdtail image: |  [0-9]+ reads|  rescued |  non-tried |  bad-sector |  rate )'
if [ "$(grep -cE "$SCREEN_RE" "$T/narrow.caps")" -gt 0 ] &&
	grep -E "$SCREEN_RE" "$T/narrow.caps" | awk 'length($0) >= 40 { bad = 1 } END { exit bad }'; then
	ok "narrow terminal: every screen line shorter than its 40 columns"; else
	not_ok "narrow terminal: every screen line shorter than its 40 columns" \
		"$(grep -E "$SCREEN_RE" "$T/narrow.caps" | awk 'length($0) >= 40' | head -3)"; fi
if grep -E "$SCREEN_RE" "$T/narrow.caps" | grep -q '^cdtail image: copying, pass 1; Ctrl-C s$'; then
	ok "narrow terminal: the phase line is cut, not wrapped"; else
	not_ok "narrow terminal: the phase line is cut, not wrapped" "$(grep '^cdtail image: cop' "$T/narrow.caps" | head -2)"; fi

watch quiet "'$CDTAIL' image -q --force '$SLOW,hide=0' out2"
if grep -qE '^(cdtail image: |  rescued )' "$T/quiet.caps"; then not_ok "-q: no screen in a terminal"; else
	ok "-q: no screen in a terminal"; fi

# Ctrl-C: the last full status stays, then "interrupted"
rm -f "$T/m" "$T/out"
tm kill-session -t w 2>/dev/null
tm new-session -d -s w -x $COLS -y 24 "cd '$T' && '$CDTAIL' image --map m '$SLOW' out; echo DONE \$?; sleep 60"
i=0
until tm capture-pane -p -t w 2>/dev/null | grep -q '^  rate '; do
	sleep 0.1; i=$((i + 1)); [ $i -lt 600 ] || break
done
tm send-keys -t w C-c
i=0
until tm capture-pane -p -t w 2>/dev/null | grep -q '^DONE '; do
	sleep 0.1; i=$((i + 1)); [ $i -lt 600 ] || break
done
tm capture-pane -p -t w >"$T/stop.final"
expect_grep "Ctrl-C: exit 130" "$T/stop.final" '^DONE 130$'
# the status, whole and once, right above the message
if awk '/^cdtail image: / { n++; s = NR } /^  rescued / { r = NR } /^  non-tried / { t = NR }
	/^  bad-sector / { b = NR } /^  rate / { a = NR } /^cdtail: image: interrupted$/ { i = NR }
	END { exit !(n == 1 && r == s + 1 && t == r + 1 && b == t + 1 && a == b + 1 && i == a + 1) }' \
	"$T/stop.final"; then ok "Ctrl-C: the last full status, then 'interrupted'"; else
	not_ok "Ctrl-C: the last full status, then 'interrupted'" "$(cat "$T/stop.final")"; fi
expect_grep "Ctrl-C: the status line says what ran, without the hint" "$T/stop.final" '^cdtail image: copying, pass 1$'
expect_no_grep "Ctrl-C: no stale stop line" "$T/stop.final" 'stopping after the current read'
expect_grep "Ctrl-C: the map is saved" "$T/stop.final" '^cdtail: the map m is saved'

# silent in files and pipes
"$CDTAIL" image --force "sim:$IMG,sleep=1,cost=200/300,bad=500-501" "$T/out3" >"$T/o3" 2>"$T/e3"
if [ -s "$T/e3" ]; then not_ok "stderr a file: nothing on it" "$(head -c 200 "$T/e3" | od -c | head -3)"; else
	ok "stderr a file: nothing on it"; fi
"$CDTAIL" probe "sim:$IMG,sleep=1,cost=200/300,hide=9" 2>&1 | cat >"$T/o4"
if grep -q "$(printf '\033')" "$T/o4"; then not_ok "a pipe: no escape sequences"; else ok "a pipe: no escape sequences"; fi

# stderr a file (nohup ... 2>log): a status line every --status-every
# seconds; this run sleeps its drive time, several seconds of it
"$CDTAIL" image --force --status-every 1 "sim:$IMG,sleep=1,cost=300/300,bad=500-510" "$T/out5" \
	>"$T/o5" 2>"$T/e5"
expect_grep "--status-every 1: status lines in the file" "$T/e5" \
	'^\[0:[0-9]{2}\] cdtail image: copying, pass 1; rescued [0-9.]+ [kM]?B of 6\.1 MB \([0-9.]+ %\), at LBA [0-9]+; non-tried [0-9.]+ [kM]?B, non-trimmed .*; bad-sector .*; rate .*; elapsed 0:[0-9]{2}; ETA '
expect_no_grep "--status-every: no escape sequence, no Ctrl-C hint" "$T/e5" "$(printf '\033')|Ctrl-C"
expect_grep "--status-every: the report on stdout as ever" "$T/o5" '^verdict: +unreadable$'
"$CDTAIL" image --force --status-every 0 "sim:$IMG,sleep=1,cost=300/300,bad=500-510" "$T/out6" \
	>"$T/o6" 2>"$T/e6"
if [ -s "$T/e6" ]; then not_ok "--status-every 0: nothing on stderr" "$(head -3 "$T/e6")"; else
	ok "--status-every 0: nothing on stderr"; fi
finish
