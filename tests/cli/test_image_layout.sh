#!/bin/sh
# cdtail image on every disc kind of doc/disc-kinds.md, each with hide=,
# extra=, bad= and runout= (issue 12, item 3).  What each case must give is
# written beside it, from the contract alone (cdtail(1): layout=, gap=,
# tao=, open=, formatted=; cdtail-image(1)):
#   - LBAs are given out from 0; a gap of 11400 blocks after session 1,
#     6900 after later ones; audio tracks, gaps, the run-outs of TAO data
#     tracks but the last, and a formatted medium's space past its
#     filesystem are skipped: never read, zeros in OUT, '+' in the map and
#     listed in its '# cdtail skipped' comment, never counted bad; the
#     same when the drive refuses READ TOC (toc=none: disc and track
#     information say it);
#   - the extent ends at the last data track's end less its run-out
#     (runout=R, tao=1's 2 blocks), extended over the MEDIUM ERROR blocks
#     before it, whatever READ CAPACITY says (hide=, extra=); when the last
#     track is audio there is no end search: the extent is what the TOC says;
#   - a bad= block of a data track below the extent is bad ('-', zeros,
#     exit 4); bad= blocks in audio or a gap are never read, so not bad.
# For each case: exit status, extent, the skipped list, the bad ranges and
# counts (JSON), OUT block by block against the disc the drive serves (the
# data at its absolute LBAs), the map (mapcheck.awk, its skipped comment,
# ddrescuelog -t when installed), no READ(10/12/16) touching a skipped LBA
# (the drive's trace; a formatted medium's end search may read its last
# block, the copy never), and a run stopped mid-way by a medium change
# (change=K:OTHER: exit 3, the map saved) then resumed: the same OUT and
# map as the uninterrupted run, nothing finished read again.
# In a small run (valgrind, ASan: lib.sh) every third case, unless FULL=1.
. "$(dirname "$0")/lib.sh"

FAULTS="$ROOT/tests/faults"
# the discs, OUTs and maps (fsynced at every save) on a tmpfs when there is one
W=$(mktemp -d /dev/shm/cdtail-layout.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$T" "$W"' EXIT
ISO="$FIX/iso9660.iso"
ISO_N=$(($(wc -c <"$ISO") / 2048))
if command -v ddrescuelog >/dev/null 2>&1; then HAVE_DDRL=1; else
	HAVE_DDRL=0
	echo "# ddrescuelog is not installed (apt-get install gddrescue): maps are not checked with it"
fi

# --- the discs -----------------------------------------------------------------
# Every block holds its LBA (4 bytes, repeated) so a block at the wrong LBA
# shows; OTHER is another disc of the same sizes (the LBA inverted).  An
# ISO 9660 volume (the fixture) is put at a session's start with its volume
# space size set to the absolute end, as mkisofs -C writes a later session.
# mkdisc FILE BLOCKS [ISO_AT:ISO_END ...]
mkdisc() {
	python3 - "$ISO" "$@" <<'EOF'
import sys
iso, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(path, "wb") as f:
    for b in range(n):
        f.write(b.to_bytes(4, "big") * 512)
    fs = open(iso, "rb").read()
    for spec in sys.argv[4:]:
        at, end = (int(v) for v in spec.split(":"))
        vol = bytearray(fs)
        pvd = 16 * 2048
        vol[pvd + 80:pvd + 84] = end.to_bytes(4, "little")
        vol[pvd + 84:pvd + 88] = end.to_bytes(4, "big")
        f.seek(at * 2048)
        f.write(vol[:(n - at) * 2048])
EOF
}
python3 -c "
import sys
with open(sys.argv[1], 'wb') as f:
    for b in range(19000):
        f.write((b ^ 0xffffffff).to_bytes(4, 'big') * 512)" "$W/other.big"

# multi-session CD-R: ISO in session 1 (its own size) and in session 2
MS_N=$((1000 + 11400 + 500))
mkdisc "$W/ms.img" $MS_N 0:1000 12400:$MS_N
# three sessions: 300, gap 11400, 200, gap 6900, 100
M3_N=$((300 + 11400 + 200 + 6900 + 100))
mkdisc "$W/m3.img" $M3_N 0:300 11700:11900 18800:$M3_N
# CD-Extra: audio 300 + 200, gap 11400, the data session with its ISO
CX_N=$((300 + 200 + 11400 + 100))
mkdisc "$W/cx.img" $CX_N 11900:$CX_N
# mixed-mode: data 1000 (ISO), audio 500
mkdisc "$W/mm.img" 1500 0:1000
# TAO: three tracks in one session; two sessions
mkdisc "$W/tao.img" 1000 0:400
T2_N=$((400 + 11400 + 300))
mkdisc "$W/t2.img" $T2_N 0:400
# appendable DVD-R: one session with an ISO of the data's size
mkdisc "$W/dvdr.img" 3000 0:3000
# formatted rewritable media: the fixture ISO, formatted to 500 blocks more
cp "$ISO" "$W/fmt.img"
FMT_M=$((ISO_N + 500))

# --- checks ----------------------------------------------------------------------
# what_is NAME GOT WANT: appends to $why when they differ
what_is() {
	[ "$2" = "$3" ] && return 0
	why="$why; $1 '$2', wanted '$3'"
	return 1
}

check() {
	if [ -z "$why" ]; then ok "$1"; else not_ok "$1" "${why#; }" "$2"; fi
}

# reads_in_skips TRACE SKIPPED WHY-REGEX: the reads of TRACE that touch an
# entry of SKIPPED whose why matches
reads_in_skips() {
	awk -v skips="$2" -v whys="$3" '
	BEGIN { n = split(skips, e, ","); for (i = 1; i <= n; i++) {
		split(e[i], w, " "); split(w[1], sb, "+")
		if (w[2] ~ whys) { k++; lo[k] = sb[1] + 0; hi[k] = sb[1] + sb[2] } } }
	$1 == "28" || $1 == "a8" || $1 == "88" {
		split($2, a, "="); split($3, b, "=")
		for (i = 1; i <= k; i++)
			if (a[2] + 0 < hi[i] && a[2] + b[2] > lo[i]) { print; break } }' "$1"
}

# the map's run lines (after the "pos size status" header)
map_runs() { awk 'seen && /^0x/ { print } /^#  *pos/ { seen = 1 }' "$1"; }
map_skips() { sed -n 's/^# cdtail skipped[^:]*: *//p' "$1" | sed 's/, */,/g'; }

# sum_skips "S+B why,...": the blocks; sum_bad [[A,B],...]: the blocks
sum_skips() { echo "$1" | tr ',' '\n' | awk '{ split($1, s, "+"); t += s[2] } END { print t + 0 }'; }
sum_bad() { echo "$1" | tr -d '[]' | tr ',' ' ' | awk '{ for (i = 1; i < NF; i += 2) t += $(i + 1) - $i + 1 } END { print t + 0 }'; }

cases=0
# img_case NAME DISC KEYS RC EXTENT SKIPPED BAD [OPTION...]
img_case() {
	name=$1 disc=$2 keys=$3 wrc=$4 we=$5 wskip=$6 wbad=$7
	shift 7
	cases=$((cases + 1))
	if [ -n "$SMALL" ] && [ -z "$FULL" ] && [ $((cases % 3)) -ne 1 ]; then return; fi
	dev="sim:$disc,cost=0/0,$keys"
	sk=$(sum_skips "$wskip")
	nb=$(sum_bad "$wbad")
	rm -f "$W/o" "$W/m" "$T/i.tr" "$T/p.tr" "$W/ro" "$W/rm" "$T/r1.tr" "$T/r2.tr"
	"$CDTAIL" probe "$dev,trace=$T/p.tr" >/dev/null 2>&1
	run image --json --chunk 16 --map "$W/m" "$@" "$dev,trace=$T/i.tr" "$W/o"

	why=
	what_is "exit, extent, skipped, skipped_blocks, bad_blocks, bad_count" \
		"$RC|$(jq -r '"\(.extent_blocks)|\(.skipped | map("\(.start)+\(.blocks) \(.why)") | join(","))|\(.skipped_blocks)|\(.bad_blocks | tostring)|\(.bad_count)"' <"$T/out" 2>&1)" \
		"$wrc|$we|$wskip|$sk|$wbad|$nb"
	check "$name: exit $wrc, extent $we, skipped $sk, bad $nb" \
		"cdtail image --json --chunk 16 --map M $* $dev O; stderr: $(head -c 300 "$T/err")"

	why=
	got=$(python3 "$ROOT/tests/cli/blockcheck.py" "$disc" "$W/o" "$we" "$wskip" "$wbad" 2>&1) ||
		why="; $got"
	check "$name: OUT is the disc's data at its LBAs, zeros elsewhere"

	why=
	what_is map "$(awk -v bs=2048 -v final=1 -f "$FAULTS/mapcheck.awk" "$W/m" 2>&1)" \
		"OK $((we * 2048)) $wbad"
	what_is "map's skipped list" "$(map_skips "$W/m")" "$wskip"
	if [ $HAVE_DDRL -eq 1 ] && ! ddrescuelog -t "$W/m" >/dev/null 2>&1; then
		why="$why; ddrescuelog -t refuses the map"
	fi
	check "$name: the map"

	# the probe's reads come first in image's trace.  The copy reads no
	# skipped block; the probe reads no audio or gap block, and of each
	# run-out inside the disc at most one block: the layout's one read that
	# tells a TAO track's run-out from data (probe/layout.c; cdtail(1)
	# says never, reported in issue 12), and a formatted medium's end
	# search its last block (cdtail-image(1))
	why=
	pl=$(wc -l <"$T/p.tr")
	head -n "$pl" "$T/i.tr" >"$T/head.tr"
	got=$(reads_in_skips "$T/head.tr" "$wskip" '^(audio|gap)$')
	[ -n "$got" ] && why="; the probe read a non-data block: $(echo "$got" | head -2 | tr '\n' ' ')"
	nro=$(echo "$wskip" | tr ',' '\n' | grep -c ' runout$')
	got=$(reads_in_skips "$T/head.tr" "$wskip" '^runout$' | awk '$3 != "blocks=1" { print "long" } END { print NR }')
	[ "$got" -le "$nro" ] 2>/dev/null ||
		why="$why; the probe read run-out blocks: $got (at most one single block for each of $nro)"
	tail -n +$((pl + 1)) "$T/i.tr" >"$T/copy.tr"
	# form2 blocks are found by reading them: only the structure's are never read
	got=$(reads_in_skips "$T/copy.tr" "$wskip" '^(audio|gap|runout|pregap|unwritten)$')
	[ -n "$got" ] && why="$why; the copy read a skipped block: $(echo "$got" | head -2 | tr '\n' ' ')"
	check "$name: no read of a skipped block"

	# stopped by a medium change at the copy's middle READ, then resumed
	why=
	kc=$(awk -v pl="$pl" 'NR > pl && ($1 == "28" || $1 == "a8" || $1 == "88") { r[++n] = NR }
		END { print n ? r[int((n + 1) / 2)] : pl + 1 }' "$T/i.tr")
	head -c "$(wc -c <"$disc")" "$W/other.big" >"$W/other.img"
	run image --json --chunk 16 --map "$W/rm" "$@" "$dev,change=$kc:$W/other.img,trace=$T/r1.tr" "$W/ro"
	what_is "stopped run's exit" $RC 3
	grep -q '^0x[0-9A-Fa-f]* *0x[0-9A-Fa-f]* *[?*/]' "$W/rm" 2>/dev/null ||
		why="$why; the stopped run's map has no work left (change=$kc came too late)"
	if [ $HAVE_DDRL -eq 1 ] && ! ddrescuelog -t "$W/rm" >/dev/null 2>&1; then
		why="$why; ddrescuelog -t refuses the stopped run's map"
	fi
	run image --json --chunk 16 --map "$W/rm" "$@" "$dev,trace=$T/r2.tr" "$W/ro"
	what_is "resumed: exit, resumed, blocks_read + finished_before" \
		"$RC $(jq -r '"\(.resumed) \(.blocks_read + .finished_before)"' <"$T/out" 2>&1)" \
		"$wrc true $((we - sk - nb))"
	cmp -s "$W/o" "$W/ro" || why="$why; OUT differs from the uninterrupted run's: $(cmp "$W/o" "$W/ro" 2>&1 | head -1)"
	[ "$(map_runs "$W/m")" = "$(map_runs "$W/rm")" ] || why="$why; the map's runs differ from the uninterrupted run's"
	what_is "resumed map's skipped list" "$(map_skips "$W/rm")" "$wskip"
	got=$(cat "$T/r1.tr" "$T/r2.tr" | reads_in_skips /dev/stdin "$wskip" '^(audio|gap)$')
	[ -n "$got" ] && why="$why; read a non-data block: $(echo "$got" | head -2 | tr '\n' ' ')"
	check "$name: stopped at command $kc and resumed: the same result"
}

# The cases of disc $D with keys $L and skipped list $SKIP.
# sizes_cases NAME H EXTENT: as it is, with hide=H and with extra=H, no
# bad block (what READ CAPACITY says never moves the extent)
sizes_cases() {
	img_case "$1" "$D" "$L" 0 "$3" "$SKIP" "[]"
	img_case "$1, hide=$2" "$D" "$L,hide=$2" 0 "$3" "$SKIP" "[]"
	img_case "$1, extra=$2" "$D" "$L,extra=$2" 0 "$3" "$SKIP" "[]"
}
# bad_last_case NAME K N: the last K of its N blocks bad (in the extent)
bad_last_case() {
	img_case "$1, bad last blocks" "$D" "$L,bad=$(($3 - $2))-$(($3 - 1))" \
		4 "$3" "$SKIP" "[[$(($3 - $2)),$(($3 - 1))]]"
}
# gap_cases NAME EXTENT: with each gap= answer (never read, so no matter)
gap_cases() {
	for g in hang zero 03/11/05; do
		img_case "$1, gap=$g" "$D" "$L,gap=$g" 0 "$2" "$SKIP" "[]"
	done
}

# --- multi-session CD-R (closed), ISO in session 1 and in session 2 ------------
G1=11400
S2=$((1000 + G1))
SKIP="1000+$G1 gap"
D="$W/ms.img"
L="layout=data:1000/data:500,profile=cd-r"
sizes_cases "multi-session" 100 $MS_N
img_case "multi-session, runout=2" "$D" "$L,runout=2" 0 $((MS_N - 2)) "$SKIP" "[]"
img_case "multi-session, bad in session 1 and in the gap" "$D" "$L,bad=500-509:995-1010:5000-5099" \
	4 $MS_N "$SKIP" "[[500,509],[995,999]]"
bad_last_case "multi-session" 10 $MS_N
img_case "multi-session, bad before a run-out" "$D" "$L,runout=2,bad=$((MS_N - 10))-$((MS_N - 3))" \
	4 $((MS_N - 2)) "$SKIP" "[[$((MS_N - 10)),$((MS_N - 3))]]"
img_case "multi-session, hide=100 and bad across session 2's start" "$D" "$L,hide=100,bad=$((S2 - 5))-$((S2 + 4))" \
	4 $MS_N "$SKIP" "[[$S2,$((S2 + 4))]]"
gap_cases "multi-session" $MS_N

# --- three sessions ---------------------------------------------------------------
D="$W/m3.img"
L="layout=data:300/data:200/data:100,profile=cd-r"
SKIP="300+11400 gap,11900+6900 gap"
img_case "3 sessions" "$D" "$L" 0 $M3_N "$SKIP" "[]"
img_case "3 sessions, hide=50, bad in session 2" "$D" "$L,hide=50,bad=11750-11759" 4 $M3_N "$SKIP" "[[11750,11759]]"
img_case "3 sessions, extra=50, runout=2" "$D" "$L,extra=50,runout=2" 0 $((M3_N - 2)) "$SKIP" "[]"

# --- CD-Extra: audio session, data session -------------------------------------------
D="$W/cx.img"
L="layout=audio:300+audio:200/data:100"
SKIP="0+300 audio,300+200 audio,500+11400 gap"
sizes_cases "CD-Extra" 50 $CX_N
img_case "CD-Extra, runout=2" "$D" "$L,runout=2" 0 $((CX_N - 2)) "$SKIP" "[]"
img_case "CD-Extra, tao=1" "$D" "$L,tao=1" 0 $((CX_N - 2)) "$SKIP" "[]"
img_case "CD-Extra, bad in audio and the last blocks" "$D" "$L,bad=0-10:$((CX_N - 50))-$((CX_N - 1))" \
	4 $CX_N "$SKIP" "[[$((CX_N - 50)),$((CX_N - 1))]]"
img_case "CD-Extra, bad across audio and across the gap's end" "$D" "$L,bad=290-310:11895-11905" \
	4 $CX_N "$SKIP" "[[11900,11905]]"
gap_cases "CD-Extra" $CX_N

# --- a drive that refuses READ TOC (toc=none): the layout from disc and track
# information, so the gap and the audio are skipped as with the TOC ----------------------
# one case a line: NAME|DISC|KEYS (toc=none added)|RC|EXTENT|SKIPPED|BAD
MS_L="layout=data:1000/data:500,profile=cd-r"
CX_L="layout=audio:300+audio:200/data:100"
CX_SKIP="0+300 audio,300+200 audio,500+11400 gap"
while IFS='|' read -r name disc keys rc ext skip bad <&3; do
	img_case "$name" "$W/$disc" "$keys,toc=none" "$rc" "$ext" "$skip" "$bad"
done 3<<EOF
multi-session, toc=none|ms.img|$MS_L|0|$MS_N|1000+$G1 gap|[]
multi-session, toc=none, hide=100|ms.img|$MS_L,hide=100|0|$MS_N|1000+$G1 gap|[]
multi-session, toc=none, gap=hang, bad in session 1 and in the gap|ms.img|$MS_L,gap=hang,bad=500-509:5000-5099|4|$MS_N|1000+$G1 gap|[[500,509]]
multi-session, toc=none, tao=1|ms.img|$MS_L,tao=1|0|$((MS_N - 2))|998+2 runout,1000+$G1 gap|[]
CD-Extra, toc=none|cx.img|$CX_L|0|$CX_N|$CX_SKIP|[]
CD-Extra, toc=none, hide=50|cx.img|$CX_L,hide=50|0|$CX_N|$CX_SKIP|[]
CD-Extra, toc=none, extra=50, gap=hang|cx.img|$CX_L,extra=50,gap=hang|0|$CX_N|$CX_SKIP|[]
CD-Extra, toc=none, bad in audio and the last blocks|cx.img|$CX_L,bad=0-10:$((CX_N - 50))-$((CX_N - 1))|4|$CX_N|$CX_SKIP|[[$((CX_N - 50)),$((CX_N - 1))]]
EOF

# --- mixed-mode: data, then audio (no end search: the TOC's end) ----------------------
D="$W/mm.img"
L="layout=data:1000+audio:500"
img_case "mixed-mode" "$D" "$L" 0 1500 "1000+500 audio" "[]"
img_case "mixed-mode, hide=100" "$D" "$L,hide=100" 0 1400 "1000+400 audio" "[]"
img_case "mixed-mode, extra=100" "$D" "$L,extra=100" 0 1600 "1000+600 audio" "[]"
img_case "mixed-mode, runout=2 (on the audio track)" "$D" "$L,runout=2" 0 1500 "1000+500 audio" "[]"
img_case "mixed-mode, tao=1" "$D" "$L,tao=1" 0 1500 "998+2 runout,1000+500 audio" "[]"
img_case "mixed-mode, bad across data and audio" "$D" "$L,bad=990-1009" 4 1500 "1000+500 audio" "[[990,999]]"
img_case "mixed-mode, tao=1, bad into the run-out" "$D" "$L,tao=1,bad=990-999" 4 1500 \
	"998+2 runout,1000+500 audio" "[[990,997]]"

# --- TAO: run-outs inside the disc are skipped, the last one ends the extent ----------
D="$W/tao.img"
L="layout=data:400+data:300+data:300,tao=1,profile=cd-r"
SKIP="398+2 runout,698+2 runout"
sizes_cases "TAO 3 tracks" 50 998
# runout=5: the last 5 blocks answer 05/64/00, but the structure puts the
# run-out at the last 2 (998, 999); the 3 below are Mode 2 Form 2 blocks of
# the track, part of the disc: listed as form2, exit 4 (issue 23: 05/64/00
# ends a track only where the structure says a run-out is; it said 0 and
# 995 before)
img_case "TAO 3 tracks, runout=5" "$D" "$L,runout=5" 4 998 "$SKIP,995+3 form2" "[]"
img_case "TAO 3 tracks, bad around a run-out" "$D" "$L,bad=395-405" 4 998 "$SKIP" "[[395,397],[400,405]]"
img_case "TAO 3 tracks, bad last blocks" "$D" "$L,bad=990-999" 4 998 "$SKIP" "[[990,997]]"
D="$W/t2.img"
L="layout=data:400/data:300,tao=1,profile=cd-r"
img_case "TAO 2 sessions" "$D" "$L" 0 $((T2_N - 2)) "398+2 runout,400+11400 gap" "[]"
img_case "TAO 2 sessions, hide=20, bad" "$D" "$L,hide=20,bad=100-109" 4 $((T2_N - 2)) \
	"398+2 runout,400+11400 gap" "[[100,109]]"

# --- appendable CD-R and DVD-R (open=1) -----------------------------------------------
D="$W/ms.img"
L="layout=data:1000/data:500,open=1,profile=cd-r"
SKIP="1000+$G1 gap"
sizes_cases "appendable CD-R" 100 $MS_N
img_case "appendable CD-R, tao=1" "$D" "$L,tao=1" 0 $((MS_N - 2)) "998+2 runout,$SKIP" "[]"
bad_last_case "appendable CD-R" 50 $MS_N
D="$W/dvdr.img"
L="open=1,profile=dvd-r"
SKIP=
sizes_cases "appendable DVD-R" 100 3000
img_case "appendable DVD-R, runout=2" "$D" "$L,runout=2" 0 2998 "" "[]"
# a DVD is read in its ECC blocks (issue 36): a failing read of one marks
# all its 16 blocks bad, as the medium fails them (sim ecc=16), but the
# unit just after blocks that read is read one block at a time from that
# side up to its first failing block (992-999, 2976-2989 read: this
# damage, without ecc=, is no whole ECC block); 1008-1023 and 2992-2999
# stay whole units
img_case "appendable DVD-R, bad" "$D" "$L,bad=1000-1009:2990-2999" 4 3000 "" "[[1000,1023],[2990,2999]]"

# --- formatted DVD+RW, DVD-RAM, BD-RE --------------------------------------------------
D="$W/fmt.img"
SKIP="$ISO_N+500 unwritten"
for p in dvd+rw dvd-ram bd-re; do
	L="profile=$p,formatted=$FMT_M"
	img_case "$p formatted" "$D" "$L" 0 $FMT_M "$SKIP" "[]"
	img_case "$p formatted, bad in the filesystem" "$D" "$L,bad=70-79" 4 $FMT_M "$SKIP" "[[70,79]]"
	img_case "$p formatted, bad across the filesystem's end" "$D" "$L,bad=$((ISO_N - 5))-$((ISO_N + 9))" \
		4 $FMT_M "$SKIP" "[[$((ISO_N - 5)),$((ISO_N - 1))]]"
	img_case "$p formatted, --formatted cut, bad" "$D" "$L,bad=70-79" 4 $ISO_N "" "[[70,79]]" --formatted cut
	img_case "$p formatted, --formatted read" "$D" "$L" 0 $FMT_M "" "[]" --formatted read
done
# one data track: the drive refuses hide= and extra= on a formatted medium
for k in hide=10 extra=10; do
	rm -f "$W/o"
	run image "sim:$W/fmt.img,profile=dvd+rw,formatted=$FMT_M,$k" "$W/o"
	expect_rc "formatted, $k: a usage error of the drive" 2
	[ -e "$W/o" ] && not_ok "formatted, $k: no OUT" "$T/o exists" || ok "formatted, $k: no OUT"
done

echo "# $cases cases"
finish
