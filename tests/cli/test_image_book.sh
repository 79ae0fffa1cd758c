#!/bin/sh
# image and its map book (issue 32, items 3 to 5; cdtail-image(1)):
#  - the temporaries a run killed in its first save leaves beside a map
#    that does not exist yet (MAP.cdtail-XXXXXX) go at the next run, as
#    they do beside an existing map; one a live process holds stays;
#  - a medium change to the same disc, in the end search or in the passes
#    before the identity holds a block, is not the end: image goes on
#    with it (exit 0, OUT the disc); another disc still ends with exit 3,
#    removing only what this run created;
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

# --- 4: a medium change to the same disc ------------------------------------
mkimage "$T/c.img" 300
# change=56: the end search's read of the last block; change=47: the
# first copying read, before the identity holds a block
for ch in 56 47; do
	rm -f "$T/c.map" "$T/c.out"
	run image -q --map "$T/c.map" "sim:$T/c.img,cost=50/1,bad=5-5,change=$ch" "$T/c.out"
	expect_rc "change=$ch to the same disc -> 4 (block 5 bad)" 4
	python3 -c "
import sys
a = open(sys.argv[1], 'rb').read(); o = open(sys.argv[2], 'rb').read()
bs = 2048
if len(o) != len(a):
    sys.exit('OUT is %d bytes' % len(o))
for b in range(len(a) // bs):
    want = bytes(bs) if b == 5 else a[b * bs:(b + 1) * bs]
    if o[b * bs:(b + 1) * bs] != want:
        sys.exit('block %d differs' % b)
" "$T/c.img" "$T/c.out" && ok "change=$ch: OUT is the disc, block 5 zeros" ||
		not_ok "change=$ch: OUT is the disc, block 5 zeros"
	expect_grep "change=$ch: the map's identity is the final one" "$T/c.map" \
		'^# cdtail identity: block_size=2048 extent=300 true_blocks=300$'
	expect_grep "change=$ch: the map marks block 5 alone bad" "$T/c.map" \
		'^0x00002800  0x00000800  -$'
done
# a disc that tells itself apart by its sizes: exit 3, what this run made
# removed when it had read nothing, never a block of it in OUT
mkimage "$T/d.img" 280
rm -f "$T/c.map" "$T/c.out"
run image -q --map "$T/c.map" "sim:$T/c.img,cost=50/1,bad=5-5,change=47:$T/d.img" "$T/c.out"
expect_rc "change=47 to a disc of other sizes -> 3" 3
expect_grep "change=47 to another disc: says the medium changed" "$T/err" 'the medium changed'
[ ! -e "$T/c.out" ] && [ ! -e "$T/c.map" ] && ok "change=47 to another disc: nothing read, OUT and map removed" ||
	not_ok "change=47 to another disc: nothing read, OUT and map removed"
rm -f "$T/c.map" "$T/c.out"
run image -q --map "$T/c.map" "sim:$T/c.img,cost=50/1,bad=5-5,change=56:$T/d.img" "$T/c.out"
expect_rc "change=56 (the end search) to another disc -> 3" 3
[ -e "$T/c.map" ] && ok "change=56 to another disc: the map of what was read is kept" ||
	not_ok "change=56 to another disc: the map of what was read is kept"
python3 -c "
import sys
a = open(sys.argv[1], 'rb').read(); o = open(sys.argv[2], 'rb').read()
z = bytes(2048)
for b in range(len(o) // 2048):
    blk = o[b * 2048:(b + 1) * 2048]
    if blk != z and blk != a[b * 2048:(b + 1) * 2048]:
        sys.exit('block %d is neither disc c nor zeros' % b)
" "$T/c.img" "$T/c.out" && ok "change=56 to another disc: no block of it in OUT" ||
	not_ok "change=56 to another disc: no block of it in OUT"
# audio first: the first save marks the skipped audio read with the data
# after it, and the blocks OUT holds are what tells another disc of the
# same sizes (every block's first byte changed) before the identity can
mkimage "$T/q.img" 11471 512
python3 -c "
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
for b in range(0, len(d), 512):
    d[b] ^= 0xa5
open(sys.argv[2], 'wb').write(d)
" "$T/q.img" "$T/qo.img"
Q='cost=0/0,block=512,layout=audio:37+data:4/data:22+data:8,tao=1,open=1,profile=cd-r,extra=66,runout=2,bad=2091-2375:3111-4404'
# the change comes with the command after the first read of blocks 37-38,
# found in a trace (the end search's read count before it is its own)
rm -f "$T/q.map" "$T/q.out"
run image -q --map "$T/q.map" --chunk 3 --retries 0 "sim:$T/q.img,$Q,trace=$T/q.tr" "$T/q.out"
at=$(($(grep -n '^28 lba=37 ' "$T/q.tr" | head -n 1 | cut -d: -f1) + 1))
rm -f "$T/q.map" "$T/q.out"
run image -q --map "$T/q.map" --chunk 3 --retries 0 "sim:$T/q.img,$Q,change=$at:$T/qo.img" "$T/q.out"
expect_rc "audio first, change=$at (after blocks 37-38 were read) to a disc of the same sizes -> 3" 3
expect_grep "audio first, another disc: the block that differs is named" "$T/err" \
	'block 37 is not the one of the disc this run began with'
rm -f "$T/q.map" "$T/q.out"
run image -q --map "$T/q.map" --chunk 3 --retries 0 "sim:$T/q.img,$Q,change=$at" "$T/q.out"
expect_rc "audio first, change=$at to the same disc -> 0" 0
# a resume whose disc changes to another before it reads: exit 3, the map
# and OUT it found stay
cp "$T/c.map" "$T/c.map.keep"
cp "$T/c.out" "$T/c.out.keep"
run image -q --map "$T/c.map" "sim:$T/c.img,cost=50/1,bad=5-5,change=40:$T/d.img" "$T/c.out"
[ "$RC" -eq 3 ] || [ "$RC" -eq 2 ] && ok "resume, then another disc -> 3 or 2 ($RC)" ||
	not_ok "resume, then another disc -> 3 or 2" "exit $RC: $(head -c 300 "$T/err")"
[ -e "$T/c.map" ] && [ -e "$T/c.out" ] && ok "resume, then another disc: the map and OUT it found stay" ||
	not_ok "resume, then another disc: the map and OUT it found stay"

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
