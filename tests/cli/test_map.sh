#!/bin/sh
# cdtail map: the grid against an awk model (mapmodel.awk) for cdtail's
# own maps and GNU ddrescue's; the totals; skipped areas; the SVG rendered
# by librsvg (rsvg-convert) with its pixels read back (pngpix.py) at the
# cells of known areas; the coloured grid on a real terminal (tmux);
# usage errors.
. "$(dirname "$0")/lib.sh"
H=$(dirname "$0")

# grid NAME MAP COLS: the text grid equals the model's
grid() {
	awk -v cols="$3" -v rows=16 -f "$H/mapmodel.awk" "$2" >"$T/want"
	run map --width "$3" --color never "$2"
	grep '^  [-+?*/.]*$' "$T/out" >"$T/got"
	if [ "$RC" = 0 ] && [ -s "$T/want" ] && cmp -s "$T/got" "$T/want"; then ok "$1"; else
		not_ok "$1" "exit $RC" "$(diff "$T/want" "$T/got" | head -8)"; fi
}

# ---- a map cdtail wrote: two bad areas ------------------------------------
mkimage "$T/disc.img" 2000
run image -q --map "$T/disc.map" "sim:$T/disc.img,bad=300-340:1200-1203,cost=0/0" "$T/out.iso"
expect_rc "image with bad areas -> 4" 4
for w in 78 50 8 333; do grid "cdtail map, --width $w" "$T/disc.map" $w; done
run map --json --width 200 "$T/disc.map"
expect_json "json: blocks" .blocks 2000
expect_json "json: bad bytes" .area_bytes.bad $((45 * 2048))
expect_json "json: finished bytes" .area_bytes.finished $((1955 * 2048))
expect_json "json: the image's name from the command line" .image "$T/out.iso"
# the map names the tool that wrote it: this build's version
expect_json "json: the tool" .tool "cdtail version $("$CDTAIL" --version | sed -n '1s/^cdtail //p')"
expect_json "json: verdict unreadable" .verdict unreadable
expect_json "json: cells cover every block once" \
	'[.runs[].blocks] | add' 2000
expect_json "json: bad runs name their LBAs" \
	'[.runs[] | select(.area == "bad") | "\(.lba)+\(.blocks)"] | join(" ")' "300+41 1200+4"
run map --color never --width 78 "$T/disc.map"
expect_grep "text: legend with the bad total" "$T/out" '^  -  +bad +45 +92160 +2\.25%$'
expect_grep "text: 1 cell = 2 blocks" "$T/out" '1 cell = 2 blocks'

# ---- GNU ddrescue's own maps ----------------------------------------------
if command -v ddrescue >/dev/null && command -v ddrescuelog >/dev/null; then
	(cd "$T" && ddrescue -q -b 2048 -s 1MiB disc.img dd.img dd.map)
	grid "ddrescue map (stopped early: non-tried)" "$T/dd.map" 64
	run map --json "$T/dd.map"
	expect_json "ddrescue map: finished bytes" .area_bytes.finished 1048576
	expect_json "ddrescue map: non-tried bytes" '.area_bytes["non-tried"]' $((2000 * 2048 - 1048576))
	expect_json "ddrescue map: image name" .image dd.img
	expect_json "ddrescue map: verdict incomplete" .verdict incomplete
	expect_grep "ddrescue map: tool" "$T/out" '"tool":"GNU ddrescue version'
	(seq 0 99; seq 150 1999) | ddrescuelog -b 2048 -s 4096000 -c "$T/dl.map" 2>"$T/err"
	grid "ddrescuelog --create-mapfile map (bad 100-149)" "$T/dl.map" 40
	run map --json "$T/dl.map"
	expect_json "ddrescuelog map: bad" .area_bytes.bad $((50 * 2048))
else
	not_ok "GNU ddrescue is installed (make test-deps)"
fi

# ---- every status, and skipped areas from cdtail's comments ---------------
cat >"$T/all.map" <<'MAP'
# Mapfile. Created by cdtail version 0.1.0
# Command line: cdtail image --map all.map /dev/sr0 all.iso
# Current time: 2026-12-03 12:00:00
# cdtail skipped (not data, never read, zeros in OUT; LBA+blocks): 100+50 audio, 400+20 gap
# current_pos  current_status  current_pass
0x00000000     ?               1
#      pos        size  status
0x00000000  0x00064000  +
0x00064000  0x00032000  *
0x00096000  0x00032000  /
0x000C8000  0x00032000  -
0x000FA000  0x00064000  ?
MAP
grid "every status and skipped areas" "$T/all.map" 30
grid "every status, one cell per block" "$T/all.map" 500
run map --json "$T/all.map"
expect_json "skipped bytes (audio + gap)" .area_bytes.skipped $((0x19000 + 0xA000))
expect_json "finished less the skipped audio" .area_bytes.finished $((0x64000 - 0x19000))
expect_json "bad less the skipped gap" .area_bytes.bad $((0x32000 - 0xA000))

# ---- the SVG, rendered by librsvg -----------------------------------------
# pixel MAP COLS LBA: the colour librsvg paints at the middle of LBA's cell
pixel() {
	cells=$(jq -r .cells "$T/pj")
	bpc=$(jq -r .blocks_per_cell "$T/pj")
	c=$(($3 / bpc))
	# the grid's corner: 16 px margin and 88 px of row labels; 96 px of title and ruler
	python3 "$H/pngpix.py" "$T/p.png" "$((104 + (c % $2) * 8 + 4)),$((96 + (c / $2) * 8 + 4))" |
		cut -d' ' -f2
}
# svg NAME MAP COLS LBA:COLOUR...: render and check the colours
svg() {
	name=$1 map=$2 cols=$3
	shift 3
	rm -f "$T/p.svg" "$T/p2.svg"
	run map --svg "$T/p.svg" --width "$cols" "$map"
	expect_rc "$name: map --svg -> 0" 0
	"$CDTAIL" map --json --svg "$T/p2.svg" --width "$cols" "$map" >"$T/pj"
	if ! rsvg-convert -o "$T/p.png" "$T/p.svg" 2>"$T/rsvg"; then
		not_ok "$name: rsvg-convert renders it" "$(head -c 300 "$T/rsvg")"
		return
	fi
	ok "$name: rsvg-convert renders it"
	for spec; do
		lba=${spec%%:*} want=${spec#*:}
		got=$(pixel "$map" "$cols" "$lba")
		if [ "$got" = "$want" ]; then ok "$name: LBA $lba is $want"; else
			not_ok "$name: LBA $lba is $want" "got '$got'"; fi
	done
}
if command -v rsvg-convert >/dev/null && command -v python3 >/dev/null; then
	G=2e9e3e R=d42020 GREY=b4b4b4 Y=f0c020 B=2f6fd6 P=8e5bd0
	svg "cdtail map" "$T/disc.map" 100 0:$G 299:$G 300:$R 340:$R 341:$G 1201:$R 1999:$G
	svg "ddrescue map" "$T/dd.map" 64 0:$G 511:$G 512:$GREY 1999:$GREY
	svg "every status" "$T/all.map" 40 0:$G 99:$G 100:$P 149:$P 150:$G 200:$Y 300:$B 400:$P 420:$R 500:$GREY
	expect_grep "svg: tooltips with LBA ranges" "$T/p.svg" '<title>LBA 420-499: bad \(80 blocks\)</title>'
	expect_grep "svg: the disc's name" "$T/p.svg" '>all.iso</text>'
	expect_grep "svg: its date" "$T/p.svg" '2026-12-03 12:00:00'
	expect_grep "svg: its size" "$T/p.svg" '700 blocks of 2048 bytes'
	expect_grep "svg: the legend" "$T/p.svg" 'id="legend-non-scraped"'
	# rendered to PNG a picture has no tooltips: rows say their LBA, a ruler the offsets
	# (all.map: 700 blocks in 40 columns, 1 block a cell; a label every 4th row)
	expect_grep "svg: the first row's LBA label" "$T/p.svg" '<text class="row-lba" x="98" y="104">LBA 0</text>'
	expect_grep "svg: the fifth row's LBA label" "$T/p.svg" '<text class="row-lba" x="98" y="136">LBA 160</text>'
	if [ "$(grep -o 'class="row-lba"' "$T/p.svg" | wc -l)" = 5 ]; then ok "svg: a label every 4th of 18 rows"; else
		not_ok "svg: a label every 4th of 18 rows" "$(grep -o '>LBA [0-9]*<' "$T/p.svg")"; fi
	expect_grep "svg: the ruler's last tick" "$T/p.svg" '<text class="ruler" x="424" y="88">\+40</text>'
	n=$(grep -c '<title>LBA' "$T/p.svg")
	want=$(jq '.runs | length' "$T/pj")
	if [ "$n" = "$want" ]; then ok "svg: one group per run of cells ($n)"; else
		not_ok "svg: one group per run of cells" "$n groups, $want runs"; fi
else
	not_ok "rsvg-convert and python3 are installed (make test-deps)"
fi

# ---- on a terminal: colours, and the width of the terminal ----------------
if command -v tmux >/dev/null; then
	S="cdtail-test-$$"
	tmux -L "$S" -f /dev/null new-session -d -x 60 -y 40 \
		"TERM=xterm '$CDTAIL' map '$T/disc.map' >/dev/tty 2>&1; touch '$T/tmux.done'; sleep 30"
	i=0
	while [ ! -e "$T/tmux.done" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	tmux -L "$S" capture-pane -e -p >"$T/pane.e"
	tmux -L "$S" capture-pane -p >"$T/pane"
	tmux -L "$S" kill-server 2>/dev/null
	# the grid fills the 60-column pane less its 2-space indent
	awk -v cols=58 -v rows=16 -f "$H/mapmodel.awk" "$T/disc.map" >"$T/want"
	grep '^  [-+?*/.]*$' "$T/pane" >"$T/got"
	if cmp -s "$T/got" "$T/want"; then ok "tmux: the grid fits the 60-column terminal"; else
		not_ok "tmux: the grid fits the 60-column terminal" "$(diff "$T/want" "$T/got" | head -6)"; fi
	expect_grep "tmux: bad cells on red" "$T/pane.e" "$(printf '\033')\\[[0-9;]*41m-"
	expect_grep "tmux: finished cells on green" "$T/pane.e" "$(printf '\033')\\[[0-9;]*42m\\+"
	expect_grep "tmux: the legend's swatches are coloured" "$T/pane.e" "41m-.* bad "
	# a 24-line terminal: the grid's rows shrink (and its cells grow) so that
	# header, grid and legend stay on one screen above the next prompt
	# (5000 blocks in 58 columns: 15 rows of 6 blocks a cell would not fit)
	mkimage "$T/big.img" 5000
	"$CDTAIL" image -q --map "$T/big.map" "sim:$T/big.img,bad=3000-3100,cost=0/0" "$T/big.iso" >/dev/null 2>&1
	rm -f "$T/tmux.done"
	tmux -L "$S" -f /dev/null new-session -d -x 60 -y 24 \
		"TERM=xterm '$CDTAIL' map --color never '$T/big.map' >/dev/tty 2>&1; touch '$T/tmux.done'; sleep 30"
	i=0
	while [ ! -e "$T/tmux.done" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	tmux -L "$S" capture-pane -p >"$T/pane24"
	tmux -L "$S" kill-server 2>/dev/null
	awk -v cols=58 -v rows=12 -f "$H/mapmodel.awk" "$T/big.map" >"$T/want"
	grep '^  [-+?*/.]*$' "$T/pane24" >"$T/got"
	if cmp -s "$T/got" "$T/want"; then ok "tmux 60x24: 12 rows at most, the model's grid"; else
		not_ok "tmux 60x24: 12 rows at most, the model's grid" "$(diff "$T/want" "$T/got" | head -6)"; fi
	if head -1 "$T/pane24" | grep -q '^map: ' && grep -q '^  - .* bad ' "$T/pane24"; then
		ok "tmux 60x24: header to legend on one screen, long header lines cut"; else
		not_ok "tmux 60x24: header to legend on one screen, long header lines cut" "$(cat "$T/pane24")"; fi
else
	not_ok "tmux is installed (make test-deps)"
fi
# a pipe has no height: LINES gives it (a pager's screen)
LINES=20 "$CDTAIL" map --color never --width 38 "$T/disc.map" >"$T/l20"
awk -v cols=38 -v rows=8 -f "$H/mapmodel.awk" "$T/disc.map" >"$T/want"
grep '^  [-+?*/.]*$' "$T/l20" >"$T/got"
if cmp -s "$T/got" "$T/want" && [ "$(wc -l <"$T/l20")" -le 19 ]; then ok "LINES=20: 8 rows, 19 lines at most"; else
	not_ok "LINES=20: 8 rows, 19 lines at most" "$(cat "$T/l20")"; fi
run map --color always --width 20 "$T/disc.map"
expect_grep "--color always colours a pipe" "$T/out" "$(printf '\033')\\[30;41m"
run map --width 20 "$T/disc.map"
if grep -q "$(printf '\033')" "$T/out"; then not_ok "no colour on a pipe by default"; else ok "no colour on a pipe by default"; fi

mkimage "$T/ok.img" 300
run image -q --map "$T/ok.map" "sim:$T/ok.img,cost=0/0" "$T/ok.iso"
run map --json "$T/ok.map"
expect_json "an undamaged disc: verdict complete" .verdict complete
# every key of the JSON is in cdtail-map(1)
MAN="$ROOT/man/cdtail-map.1"
missing=$(jq -r '[paths | .[] | strings] | unique | .[]' "$T/out" | while read -r k; do
	grep -q -- "$(echo "$k" | sed 's/-/\\\\-/g')" "$MAN" || echo "$k"; done)
if [ -z "$missing" ]; then ok "json: every key documented in cdtail-map(1)"; else
	not_ok "json: every key documented in cdtail-map(1)" "$missing"; fi
run map --json "$T/none.map"
expect_rc "--json, a missing map -> 2" 2
expect_json "--json: the error object" '.error.status' 2

# ---- image --svg: the picture at the end, and at each map save ----------
W="sim:$T/disc.img,bad=300-340,sleep=1,cost=1000/300"
rm -f "$T/w.svg"
( $TEST_WRAPPER "$CDTAIL" image -q --map "$T/w.map" --map-interval 200 --svg "$T/w.svg" --svg-every \
	"$W" "$T/w.iso" >"$T/w.out" 2>&1; echo $? >"$T/w.rc" ) &
# the first picture a browser would see, taken while the run goes on
i=0
while [ ! -s "$T/w.svg" ] && [ ! -e "$T/w.rc" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
cp "$T/w.svg" "$T/w.first.svg" 2>/dev/null
running=no
[ -e "$T/w.rc" ] || running=yes
wait
expect_eq() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got '$2', wanted '$3'"; fi; }
expect_eq "image --svg --svg-every: exit 4 (bad blocks)" "$(cat "$T/w.rc")" 4
expect_eq "image --svg-every: a picture exists while the run goes on" "$running" yes
expect_grep "image --svg-every: the early picture shows non-tried blocks" "$T/w.first.svg" \
	'<g fill="#b4b4b4"><title>LBA [0-9]+-1999: non-tried'
expect_grep "image --svg: the last picture shows the bad area" "$T/w.svg" \
	'<title>LBA 300-340: bad \(41 blocks\)</title>'
if grep -q '<g fill="#b4b4b4">' "$T/w.svg"; then not_ok "image --svg: nothing non-tried at the end"; else
	ok "image --svg: nothing non-tried at the end"; fi
"$CDTAIL" map --svg "$T/w2.svg" "$T/w.map" >/dev/null
if cmp -s "$T/w.svg" "$T/w2.svg"; then ok "image --svg draws what cdtail map --svg draws"; else
	not_ok "image --svg draws what cdtail map --svg draws" "$(diff "$T/w.svg" "$T/w2.svg" | head -4)"; fi
# resuming with the same map replaces the picture; a new run does not
run image -q --map "$T/w.map" --svg "$T/w.svg" "sim:$T/disc.img,bad=300-340,cost=0/0" "$T/w.iso"
expect_rc "image --svg, resumed: the old picture is replaced -> 4" 4
run image -q --map "$T/w3.map" --svg "$T/w.svg" "sim:$T/disc.img,cost=0/0" "$T/w3.iso"
expect_rc "image --svg over an existing FILE, new map -> 2" 2
run image -q --svg "$T/w4.svg" "sim:$T/disc.img,cost=0/0" "$T/w4.iso"
expect_rc "image --svg without --map -> 2" 2
run image -q --map "$T/w5.map" --svg-every "sim:$T/disc.img,cost=0/0" "$T/w5.iso"
expect_rc "image --svg-every without --svg -> 2" 2
run image -q --map "$T/w6.map" --svg "$T/nodir/w.svg" "sim:$T/disc.img,cost=0/0" "$T/w6.iso"
expect_rc "image --svg in a missing directory -> 2" 2

# ---- errors ---------------------------------------------------------------
run map "$T/none.map"
expect_rc "a missing map -> 2" 2
printf 'not a map\n' >"$T/bad.map"
run map "$T/bad.map"
expect_rc "not a mapfile -> 2" 2
expect_err_line "not a mapfile: one line" 'not a valid ddrescue mapfile'
run map --svg "$T/p.svg" "$T/disc.map"
expect_rc "--svg over an existing file -> 2" 2
run map --svg "$T/p.svg" --force "$T/disc.map"
expect_rc "--svg --force replaces it -> 0" 0
run map --width 3 "$T/disc.map"
expect_rc "--width 3 -> 2" 2
run map --color sometimes "$T/disc.map"
expect_rc "--color sometimes -> 2" 2
run map
expect_rc "no MAPFILE -> 2" 2
finish
