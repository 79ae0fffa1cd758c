#!/bin/sh
# image and its map book (issue 32, items 3 to 5; cdtail-image(1)):
#  - the temporaries a run killed in its first save leaves beside a map
#    that does not exist yet (MAP.cdtail-XXXXXX) go at the next run, as
#    they do beside an existing map; one a live process holds stays;
#  - the true end is never below a block the run read.
. "$(dirname "$0")/lib.sh"

same_as() {
	if cmp -s "$2" "$3"; then ok "$1"; else not_ok "$1" "$(cmp "$2" "$3" 2>&1 | head -1)"; fi
}

# --- 3: a killed first save's temporary, no MAP yet ---------------------------
mkimage "$T/s.img" 40
rm -f "$T/s.map" "$T/s.out"
: >"$T/s.map.cdtail-AbC123"
: >"$T/s.map.cdtail-HELD01"
mkfifo "$T/fifo-hold"
python3 -c '
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
os.write(1, b"locked\n")
sys.stdin.read()
' "$T/s.map.cdtail-HELD01" <"$T/fifo-hold" >"$T/held" 2>&1 &
exec 7>"$T/fifo-hold"
while ! grep -q locked "$T/held" 2>/dev/null; do sleep 0.05; done
run image -q --map "$T/s.map" "sim:$T/s.img,cost=0/0" "$T/s.out"
exec 7>&-
wait
expect_rc "no map yet, a stale temporary beside it: the run -> 0" 0
got=$(cd "$T" && ls s.map.cdtail-* 2>/dev/null | tr '\n' ' ')
if [ "$got" = "s.map.cdtail-HELD01 " ]; then
	ok "no map yet: the killed first save's temporary removed, the held one kept"
else
	not_ok "no map yet: the killed first save's temporary removed, the held one kept" "left: $got"
fi
same_as "no map yet: OUT is the disc" "$T/s.out" "$T/s.img"

# --- 5: the true end is never below a block the run read ----------------------
mkimage "$T/z.img" 24
rm -f "$T/z.map" "$T/z.out"
run image --json --map "$T/z.map" "sim:$T/z.img,bad=0-14:16-16:23-23,hide=18" "$T/z.out"
expect_rc "hide=18, blocks 15 and 17..22 read: exit 4" 4
expect_json "hide=18: true_blocks is 1 + the last block read (22)" .true_blocks 23
expect_json "hide=18: hidden_blocks follows it (reported 6)" .hidden_blocks 17
expect_grep "hide=18: the map's record keeps it" "$T/z.map" \
	'^# cdtail identity: block_size=2048 extent=24 true_blocks=23$'
run image --json --map "$T/z.map" "sim:$T/z.img,bad=0-14:16-16:23-23,hide=18" "$T/z.out"
expect_json "hide=18 resumed: true_blocks stays 23" .true_blocks 23

finish
