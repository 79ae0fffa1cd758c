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
expect_grep "image: bad areas and bytes, time since the last good read" "$T/image.caps" \
	'^  bad 1 area, [0-9.]+ kB \([0-9]+ blocks\); last good read [0-9]+ s ago'
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
SCREEN_RE='^(cdtail image: |  [0-9]+ reads|  rescued |  bad |  rate )'
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

# silent in files and pipes
"$CDTAIL" image --force "sim:$IMG,sleep=1,cost=200/300,bad=500-501" "$T/out3" >"$T/o3" 2>"$T/e3"
if [ -s "$T/e3" ]; then not_ok "stderr a file: nothing on it" "$(head -c 200 "$T/e3" | od -c | head -3)"; else
	ok "stderr a file: nothing on it"; fi
"$CDTAIL" probe "sim:$IMG,sleep=1,cost=200/300,hide=9" 2>&1 | cat >"$T/o4"
if grep -q "$(printf '\033')" "$T/o4"; then not_ok "a pipe: no escape sequences"; else ok "a pipe: no escape sequences"; fi
finish
