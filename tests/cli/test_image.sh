#!/bin/sh
# cdtail image on the emulated drive: every check compares OUT's bytes with
# the image backing the drive.
. "$(dirname "$0")/lib.sh"

N=600
IMG="$T/disc.img"
mkimage "$IMG" $N

# same_blocks NAME OUT FIRST COUNT [BS]: OUT's blocks FIRST.. equal the image's
same_blocks() {
	bs=${5:-2048}
	dd if="$IMG" bs=$bs skip=$3 count=$4 of="$T/want.part" 2>/dev/null
	dd if="$2" bs=$bs skip=$3 count=$4 of="$T/got.part" 2>/dev/null
	if cmp -s "$T/want.part" "$T/got.part"; then
		ok "$1"
	else
		not_ok "$1" "blocks $3..+$4 of $2 differ from the image"
	fi
}
# zero_blocks NAME OUT FIRST COUNT: those blocks are zeros
zero_blocks() {
	if [ "$(dd if="$2" bs=2048 skip=$3 count=$4 2>/dev/null | tr -d '\0' | wc -c)" -eq 0 ]; then
		ok "$1"
	else
		not_ok "$1" "blocks $3..+$4 of $2 are not zero"
	fi
}
# same_file NAME A B
same_file() {
	if cmp -s "$2" "$3"; then ok "$1"; else not_ok "$1" "$2 and $3 differ" "$(cmp "$2" "$3" 2>&1)"; fi
}
size_is() {
	got=$(stat -c %s "$2")
	if [ "$got" -eq "$3" ]; then ok "$1"; else not_ok "$1" "$2 is $got bytes, wanted $3"; fi
}

# --- hidden tails: the whole image, byte for byte ---------------------------
for k in 0 1 7 300; do
	rm -f "$T/o"
	run image --json "sim:$IMG,cost=0/0,hide=$k" "$T/o"
	expect_rc "hide=$k -> 0" 0
	same_file "hide=$k: OUT is the image" "$T/o" "$IMG"
	expect_json "hide=$k: true_blocks" .true_blocks $N
	expect_json "hide=$k: reported_blocks" .reported_blocks $((N - k))
	expect_json "hide=$k: no bad blocks" '.bad_blocks | length' 0
	expect_json "hide=$k: sha256" .sha256 "$(sha256sum <"$IMG" | cut -c1-64)"
	expect_json "hide=$k: md5" .md5 "$(md5sum <"$IMG" | cut -c1-32)"
	expect_json "hide=$k: digest computed while reading" .digest_source stream
done
expect_json "total.virtual_ms is a number" '.total.virtual_ms | type' number
expect_json "map is null without --map" .map null

# --- --digest: the digests chosen, the others null (JSON) or absent (text) ---
IMG_MD5=$(md5sum <"$IMG" | cut -c1-32)
IMG_SHA=$(sha256sum <"$IMG" | cut -c1-64)
for d in md5,sha256 sha256,md5 sha256 md5 none; do
	rm -f "$T/o"
	run image --json --digest $d "sim:$IMG,cost=0/0,hide=5" "$T/o"
	expect_rc "--digest $d -> 0" 0
	same_file "--digest $d: OUT is the image" "$T/o" "$IMG"
	want_md5=null
	want_sha=null
	want_src=stream
	case ,$d, in *,md5,*) want_md5=$(md5sum <"$T/o" | cut -c1-32) ;; esac
	case ,$d, in *,sha256,*) want_sha=$(sha256sum <"$T/o" | cut -c1-64) ;; esac
	[ $d = none ] && want_src=null
	expect_json "--digest $d: md5" .md5 "$want_md5"
	expect_json "--digest $d: sha256" .sha256 "$want_sha"
	expect_json "--digest $d: digest_source" .digest_source "$want_src"
	rm -f "$T/o"
	run image --digest $d "sim:$IMG,cost=0/0" "$T/o"
	expect_rc "--digest $d, text -> 0" 0
	if [ "$want_md5" = null ]; then
		if grep -q '^md5:' "$T/out"; then not_ok "--digest $d, text: no md5 line"; else
			ok "--digest $d, text: no md5 line"; fi
	else
		expect_grep "--digest $d, text: md5 line" "$T/out" "^md5: +$IMG_MD5\$"
	fi
	if [ "$want_sha" = null ]; then
		if grep -q '^sha256:' "$T/out"; then not_ok "--digest $d, text: no sha256 line"; else
			ok "--digest $d, text: no sha256 line"; fi
	else
		expect_grep "--digest $d, text: sha256 line" "$T/out" "^sha256: +$IMG_SHA\$"
	fi
done
rm -f "$T/o"
run image --json "sim:$IMG,cost=0/0" "$T/o"
expect_json "no --digest: md5" .md5 "$IMG_MD5"
expect_json "no --digest: sha256" .sha256 "$IMG_SHA"
# sha1 may be asked (issue 34), beside the others
rm -f "$T/o"
run image --json --digest sha1,md5 "sim:$IMG,cost=0/0" "$T/o"
expect_rc "--digest sha1,md5 -> 0" 0
expect_json "--digest sha1,md5: sha1" .sha1 "$(sha1sum <"$IMG" | cut -c1-40)"
expect_json "--digest sha1,md5: md5" .md5 "$IMG_MD5"
expect_json "--digest sha1,md5: no sha256" .sha256 null
expect_json "--digest sha1,md5: nothing read back" .digest_read_back 0
for d in "" sha MD5 md5, ,sha256 md5,,sha256 md5,md5 none,md5 sha256,none "md5 sha256"; do
	rm -f "$T/o"
	run image --digest "$d" "sim:$IMG,cost=0/0" "$T/o"
	expect_rc "--digest '$d' -> 2" 2
	if grep -qF -- "--digest" "$T/err" && grep -qF -- "'$d'" "$T/err"; then
		ok "--digest '$d': the message names it"
	else
		not_ok "--digest '$d': the message names it" "$(cat "$T/err")"
	fi
	if [ -e "$T/o" ]; then not_ok "--digest '$d': OUT not created"; else
		ok "--digest '$d': OUT not created"; fi
done

# a resumed run hashes OUT again, with the digest asked for only
rm -f "$T/o" "$T/dmap"
run image --json --digest sha256 --map "$T/dmap" "sim:$IMG,cost=0/0,bad=100-130" "$T/o"
expect_rc "--digest sha256 with bad blocks -> 4" 4
expect_json "--digest sha256, bad blocks: sha256 of OUT" .sha256 "$(sha256sum <"$T/o" | cut -c1-64)"
expect_json "--digest sha256, bad blocks: md5 null" .md5 null
expect_json "--digest sha256, bad blocks: re-read from OUT" .digest_source file
run image --json --digest none --map "$T/dmap" "sim:$IMG,cost=0/0,bad=100-130" "$T/o"
expect_rc "--digest none, resumed -> 4" 4
expect_json "--digest none, resumed: resumed" .resumed true
expect_json "--digest none, resumed: no digest" '[.md5, .sha256, .digest_source] | tostring' '[null,null,null]'
run image --json --digest sha256 --map "$T/dmap" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "--digest sha256, resumed on a healed disc -> 0" 0
expect_json "--digest sha256, resumed: resumed" .resumed true
expect_json "--digest sha256, resumed: only the bad blocks read" .blocks_read 31
same_file "--digest sha256, resumed: OUT is the image" "$T/o" "$IMG"
expect_json "--digest sha256, resumed: sha256 of OUT" .sha256 "$(sha256sum <"$T/o" | cut -c1-64)"
expect_json "--digest sha256, resumed: md5 null" .md5 null
expect_json "--digest sha256, resumed: from OUT" .digest_source file

# --- bad ranges ---------------------------------------------------------------
rm -f "$T/o"
run image --json "sim:$IMG,cost=0/0,bad=100-130" "$T/o"
expect_rc "bad in the middle -> 4" 4
expect_json "bad in the middle: ranges" '.bad_blocks | tostring' '[[100,130]]'
expect_json "bad in the middle: count" .bad_count 31
same_blocks "bad in the middle: blocks before" "$T/o" 0 100
zero_blocks "bad in the middle: bad blocks zero-filled" "$T/o" 100 31
same_blocks "bad in the middle: blocks after" "$T/o" 131 $((N - 131))
size_is "bad in the middle: OUT's size" "$T/o" $((N * 2048))
expect_json "bad in the middle: digest of OUT" .sha256 "$(sha256sum <"$T/o" | cut -c1-64)"
expect_json "bad in the middle: digest re-read from OUT" .digest_source file

rm -f "$T/o"
run image --json "sim:$IMG,cost=0/0,bad=590-599" "$T/o"
expect_rc "bad at the end -> 4" 4
expect_json "bad at the end: extent covers them" .extent_blocks $N
expect_json "bad at the end: ranges" '.bad_blocks | tostring' '[[590,599]]'
same_blocks "bad at the end: good part" "$T/o" 0 590
zero_blocks "bad at the end: zero-filled" "$T/o" 590 10
size_is "bad at the end: OUT's size" "$T/o" $((N * 2048))

rm -f "$T/o"
run image --json "sim:$IMG,cost=0/0,bad=0-3:250-250:400-420" "$T/o"
expect_rc "three bad ranges -> 4" 4
expect_json "three bad ranges" '.bad_blocks | tostring' '[[0,3],[250,250],[400,420]]'
same_blocks "three bad ranges: 4..249" "$T/o" 4 246
same_blocks "three bad ranges: 251..399" "$T/o" 251 149
same_blocks "three bad ranges: 421.." "$T/o" 421 $((N - 421))

# --- runout, flaky, ua, hang, 512-byte blocks -------------------------------
rm -f "$T/o"
run image --json "sim:$IMG,cost=0/0,runout=2" "$T/o"
expect_rc "runout=2 -> 0" 0
size_is "runout=2: OUT stops at the true end" "$T/o" $(((N - 2) * 2048))
same_blocks "runout=2: bytes" "$T/o" 0 $((N - 2))

rm -f "$T/o"
run image --json --retries 3 "sim:$IMG,cost=0/0,flaky=200-209:2" "$T/o"
expect_rc "flaky recovered by retries -> 0" 0
same_file "flaky: OUT is the image" "$T/o" "$IMG"
expect_json "flaky: failed reads happened" '.total.failed_reads > 0' true

rm -f "$T/o"
run image --json --retries 0 "sim:$IMG,cost=0/0,flaky=200-209:2" "$T/o"
expect_rc "flaky without retries -> 4" 4

rm -f "$T/o"
run image --json "sim:$IMG,cost=0/0,ua=5" "$T/o"
expect_rc "ua=5 -> 0" 0
same_file "ua=5: OUT is the image" "$T/o" "$IMG"

rm -f "$T/o"
run image --json "sim:$IMG,cost=0/0,hang=333" "$T/o"
expect_rc "hang=333: the timed-out block is bad -> 4" 4
expect_json "hang=333: bad range" '.bad_blocks | tostring' '[[333,333]]'
same_blocks "hang=333: before" "$T/o" 0 333
same_blocks "hang=333: after" "$T/o" 334 $((N - 334))

IMG512="$T/disc512.img"
mkimage "$IMG512" 3000 512
rm -f "$T/o"
run image --json "sim:$IMG512,cost=0/0,block=512,hide=7" "$T/o"
expect_rc "block=512 hide=7 -> 0" 0
expect_json "block=512: block size" .block_size 512
same_file "block=512: OUT is the image" "$T/o" "$IMG512"

rm -f "$T/o"
run image --json --chunk 7 "sim:$IMG,cost=0/0,hide=3,bad=50-52" "$T/o"
expect_rc "--chunk 7 with bad blocks -> 4" 4
same_blocks "--chunk 7: before" "$T/o" 0 50
same_blocks "--chunk 7: after" "$T/o" 53 $((N - 53))

# --- OUT exists -------------------------------------------------------------
echo keep >"$T/exists"
run image "sim:$IMG,cost=0/0" "$T/exists"
expect_rc "OUT exists without --force -> 2" 2
expect_err_line "OUT exists: one line" 'exists.*--force'
expect_grep "OUT exists: untouched" "$T/exists" '^keep$'
head -c $(((N + 50) * 2048)) /dev/zero | tr '\0' 'x' >"$T/exists"
run image --force "sim:$IMG,cost=0/0" "$T/exists"
expect_rc "--force -> 0" 0
same_file "--force: OUT truncated to the true size" "$T/exists" "$IMG"

# --- the map ----------------------------------------------------------------
rm -f "$T/o" "$T/map"
run image --json --map "$T/map" "sim:$IMG,cost=0/0,bad=100-130" "$T/o"
expect_rc "with --map -> 4" 4
expect_json "map path in JSON" .map "$T/map"
if ddrescuelog -t "$T/map" >"$T/dl" 2>&1; then ok "ddrescuelog -t accepts the map"; else
	not_ok "ddrescuelog -t accepts the map" "$(cat "$T/dl")"; fi
expect_grep "ddrescuelog sees the bad area" "$T/dl" 'bad-sector: +63488 B'
expect_grep "map: a finished run says so" "$T/map" '^0x[0-9A-F]+ +\+ +[0-9]+$'
run image --json --map "$T/map" "sim:$IMG,cost=0/0,bad=100-130" "$T/o"
expect_rc "resume a finished map -> 4 again" 4
expect_json "resume: nothing good read again" .blocks_read 0
expect_json "resume: resumed" .resumed true
expect_json "resume: digest from OUT" .sha256 "$(sha256sum <"$T/o" | cut -c1-64)"
run image --json --map "$T/map" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "resume on a healed disc -> 0" 0
expect_json "resume: only the bad blocks read" .blocks_read 31
same_file "resume: OUT is now the image" "$T/o" "$IMG"

cp "$T/o" "$T/o.keep"
head -c 100 "$T/map" >"$T/map.cut"
run image --map "$T/map.cut" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "truncated map -> 2" 2
expect_err_line "truncated map: one line" 'map'
same_file "truncated map: OUT untouched" "$T/o" "$T/o.keep"
printf '# x\n0x0 ?\n0x0 0x1000 +\n0x2000 0x1000 +\n' >"$T/map.bad"
run image --map "$T/map.bad" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "non-contiguous map -> 2" 2
expect_err_line "non-contiguous map: one line" 'contiguous'
printf '0x0 +\n0x0 0x1000 +\n' >"$T/map.small"
run image --map "$T/map.small" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "map of another disc -> 2" 2
# a map without identity shorter than the disc is grown (issue 24), but
# only over an OUT no longer than it: this OUT is the whole disc
expect_err_line "map of another disc: one line" 'another disc|not the output of this map'
same_file "map of another disc: OUT untouched" "$T/o" "$T/o.keep"
rm -f "$T/o.gone"
run image --map "$T/map" "sim:$IMG,cost=0/0" "$T/o.gone"
expect_rc "map says finished but OUT is missing -> 2" 2

# --- usage ------------------------------------------------------------------
run image "sim:$IMG"
expect_rc "missing OUT -> 2" 2
run image --chunk 0 "sim:$IMG" "$T/x"
expect_rc "--chunk 0 -> 2" 2
run image --retries -1 "sim:$IMG" "$T/x"
expect_rc "--retries -1 -> 2" 2
run image --map "$T/same" "sim:$IMG" "$T/same"
expect_rc "map and OUT the same file -> 2" 2
run image --bogus "sim:$IMG" "$T/x"
expect_rc "unknown option -> 2" 2
run image "sim:$T/missing.img" "$T/x"
expect_rc "missing image -> 2 (the exit table)" 2

# --- kill -9 at several points, then resume: identical OUT -------------------
REF="$T/ref"
rm -f "$REF"
SLOW="cost=2000/20,sleep=1,bad=300-305"
"$CDTAIL" image -q "sim:$IMG,cost=0/0,bad=300-305" "$REF" >/dev/null 2>&1
GOOD=$((N - 6))
for k in 4 9 15 22 30 45; do
	rm -f "$T/k.out" "$T/k.map" "$T/k.trace"
	"$CDTAIL" image -q --map "$T/k.map" --map-interval 1 \
		"sim:$IMG,$SLOW,trace=$T/k.trace" "$T/k.out" >/dev/null 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 400 ] && kill -0 $pid 2>/dev/null; do
		[ -f "$T/k.trace" ] && [ "$(grep -c '^28' "$T/k.trace")" -ge $k ] && break
		sleep 0.01
		i=$((i + 1))
	done
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	if [ -f "$T/k.map" ] && ! ddrescuelog -t "$T/k.map" >/dev/null 2>&1; then
		not_ok "kill after $k reads: the map left behind is valid"
	else
		ok "kill after $k reads: the map left behind is valid"
	fi
	run image --json --map "$T/k.map" "sim:$IMG,cost=0/0,bad=300-305" "$T/k.out"
	expect_rc "kill after $k reads: resume -> 4" 4
	same_file "kill after $k reads: OUT identical to an uninterrupted run" "$T/k.out" "$REF"
	got=$(jq '.blocks_read + .finished_before' <"$T/out")
	if [ "$got" = "$GOOD" ]; then ok "kill after $k reads: nothing finished read again"; else
		not_ok "kill after $k reads: nothing finished read again" \
			"blocks_read + finished_before = $got, wanted $GOOD"; fi
done

# --- SIGINT / SIGTERM: map saved, exit 130 / 143, resumable -------------------
for sig in INT TERM; do
	rm -f "$T/s.out" "$T/s.map" "$T/s.trace"
	"$CDTAIL" image -q --map "$T/s.map" "sim:$IMG,$SLOW,trace=$T/s.trace" "$T/s.out" \
		>/dev/null 2>"$T/s.err" &
	pid=$!
	i=0
	while [ $i -lt 400 ]; do
		[ -f "$T/s.trace" ] && [ "$(grep -c '^28' "$T/s.trace")" -ge 12 ] && break
		sleep 0.01
		i=$((i + 1))
	done
	kill -$sig $pid
	wait $pid
	RC=$?
	want=130
	[ $sig = TERM ] && want=143
	expect_rc "SIG$sig -> $want" $want
	if ddrescuelog -t "$T/s.map" >/dev/null 2>&1 && grep -q '^0x[0-9A-F]* *? ' "$T/s.map"; then
		ok "SIG$sig: a valid map with work left was saved"
	else
		not_ok "SIG$sig: a valid map with work left was saved" "$(cat "$T/s.map" 2>&1 | head -20)"
	fi
	run image --map "$T/s.map" "sim:$IMG,cost=0/0,bad=300-305" "$T/s.out"
	expect_rc "SIG$sig: resume -> 4" 4
	same_file "SIG$sig: resumed OUT identical" "$T/s.out" "$REF"
done


# --- issue 28 D: the medium changes during the probe ---------------------------
# Two 400-block discs on a formatted DVD+RW of 2000, filesystems of 100 and
# 400 blocks: a change at any of the first commands either restarts the
# probe (exit 0, OUT, the filesystem and the unwritten area all disc 2's),
# stops the run (exit 3, no block of disc 2 in OUT) or comes after the run
# (exit 0, all disc 1's); never a mix.
mkimage "$T/d1.img" 400
mkimage "$T/d2.img" 401
truncate -s $((400 * 2048)) "$T/d2.img"
pvd "$T/d1.img" 16 100
pvd "$T/d2.img" 16 400
# whose NAME OUT: which disc OUT's first 400 blocks are: d1, d2, or mixed
whose() {
	python3 - "$T/d1.img" "$T/d2.img" "$1" <<'PY'
import sys
d1, d2, out = (open(f, "rb").read() for f in sys.argv[1:4])
bs, kinds = 2048, set()
for b in range(min(400, len(out) // bs)):
    blk = out[b * bs:(b + 1) * bs]
    if d1[b * bs:(b + 1) * bs] == d2[b * bs:(b + 1) * bs]:
        continue  # the volume descriptor terminator: the same on both
    if blk == d2[b * bs:(b + 1) * bs]:
        kinds.add("d2")
    elif blk == d1[b * bs:(b + 1) * bs]:
        kinds.add("d1")
    elif blk.strip(b"\0"):
        kinds.add("other")
print(" ".join(sorted(kinds)) or "none")
PY
}
restarted=0 stopped=0 wrong=""
for c in $(seq 1 20); do
	rm -f "$T/d.out" "$T/d.map"
	run image --json --map "$T/d.map" \
		"sim:$T/d1.img,profile=dvd+rw,formatted=2000,change=$c:$T/d2.img" "$T/d.out"
	case $RC in
	0)
		restarted=$((restarted + 1))
		got="$(whose "$T/d.out") $(jq -c '[.filesystem.blocks, .skipped]' <"$T/out")"
		case $got in
		'd2 [400,[{"start":400,"blocks":1600,"why":"unwritten"}]]') ;;
		'd1 [100,[{"start":100,"blocks":1900,"why":"unwritten"}]]') restarted=$((restarted - 1)) ;;
		*) wrong="$wrong change=$c: exit 0 with $got;" ;;
		esac ;;
	3)
		stopped=$((stopped + 1))
		if [ -e "$T/d.out" ]; then
			got=$(whose "$T/d.out")
			case $got in *d2*) wrong="$wrong change=$c: exit 3 with $got;" ;; esac
		fi ;;
	*) wrong="$wrong change=$c: exit $RC;" ;;
	esac
done
if [ -z "$wrong" ] && [ "$restarted" -ge 10 ]; then
	ok "change during the probe: $restarted restarted on disc 2, $stopped stopped, none mixed"
else
	not_ok "change during the probe: never two discs in one run" "$wrong" \
		"$restarted restarted, $stopped stopped"
fi
run image --json --map "$T/d3.map" \
	"sim:$T/d1.img,profile=dvd+rw,formatted=2000,change=12:$T/d2.img" "$T/d3.out"
expect_rc "the issue's change=12 (in the head read) -> 0" 0
expect_json "change=12: the filesystem is disc 2's" .filesystem.blocks 400

# --- a filesystem that declares more than the disc holds (issue 24, item 4) ----
head -c $((80 * 2048)) "$FIX/iso9660.iso" >"$T/cut.img"
run image --json "sim:$T/cut.img" "$T/cut.out"
expect_rc "filesystem past the end: image complete, exit 0" 0
expect_json "filesystem past the end: image's note and count" '[(.notes | join(",")), .filesystem_past_end_blocks, .verdict] | map(tostring) | join(" ")' "filesystem-past-end 32 complete"
run image --force "sim:$T/cut.img" "$T/cut.out"
expect_grep "filesystem past the end: the report says the files past the end are lost" "$T/out" 'the files stored past the$'
expect_grep "filesystem past the end: ... lost" "$T/out" "disc's end are lost"
run image --force --json "sim:$FIX/iso9660.iso" "$T/whole.out"
expect_json "a filesystem that fits: no note" '[(.notes | length), .filesystem_past_end_blocks] | map(tostring) | join(" ")' "0 0"

# --- issue 28 I: stale map temporaries, signal handlers first -------------------
# what a killed run leaves beside its map (MAP.cdtail-XXXXXX) goes at the
# next run of that map; one a live process holds locked, and the
# temporaries of other maps, stay
rm -f "$T/i.map" "$T/i.out"
run image -q --map "$T/i.map" "sim:$IMG,cost=0/0" "$T/i.out"
expect_rc "stale temporaries: first run" 0
for x in AbC123 zz9ZZ9; do : >"$T/i.map.cdtail-$x"; done
: >"$T/i.map.cdtail-HELD01"
: >"$T/other.map.cdtail-AbC123"
: >"$T/i.map.cdtail-toolong"
mkfifo "$T/fifo-hold"
python3 -c '
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
os.write(1, b"locked\n")
sys.stdin.read()
' "$T/i.map.cdtail-HELD01" <"$T/fifo-hold" >"$T/held" 2>&1 &
exec 7>"$T/fifo-hold"
while ! grep -q locked "$T/held" 2>/dev/null; do sleep 0.05; done
run image -q --map "$T/i.map" "sim:$IMG,cost=0/0" "$T/i.out"
exec 7>&-
wait
expect_rc "stale temporaries: the resume -> 0" 0
got=$(cd "$T" && ls i.map.cdtail-* other.map.cdtail-* 2>/dev/null | tr '\n' ' ')
if [ "$got" = "i.map.cdtail-HELD01 i.map.cdtail-toolong other.map.cdtail-AbC123 " ]; then
	ok "stale temporaries of the map removed; held, other and misnamed ones kept"
else
	not_ok "stale temporaries of the map removed; held, other and misnamed ones kept" "left: $got"
fi
# a SIGTERM while the device is still being opened (the sim's image a FIFO
# nothing writes yet): caught, never the default death
mkfifo "$T/slow.img"
got=$(python3 - "$CDTAIL" "$T/slow.img" "$T/sig.out" <<'PY'
import os, signal, subprocess, sys
cdtail, fifo, out = sys.argv[1:4]
p = subprocess.Popen([cdtail, "image", "-q", "sim:" + fifo, out],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
# wait until it blocks opening the FIFO: the handlers were set before
while True:
    try:
        if "fifo" in open("/proc/%d/wchan" % p.pid).read() or \
                open("/proc/%d/syscall" % p.pid).read().split()[0] in ("2", "257"):
            break
    except (OSError, IndexError):
        pass
p.send_signal(signal.SIGTERM)
# let a reader still blocked in open(2) go on; non-blocking, since cdtail
# usually ended at the signal, and a blocking open would wait for a reader
# for ever (ENXIO: no reader)
try:
    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
except OSError:
    fd = -1
print(p.wait())
if fd >= 0:
    os.close(fd)
PY
)
if [ "$got" -ge 0 ] 2>/dev/null; then ok "SIGTERM before the device is open: caught (exit $got)"
else not_ok "SIGTERM before the device is open: caught" "returncode $got (killed by the signal)"; fi
[ -e "$T/sig.out" ] && not_ok "SIGTERM before the device is open: no OUT" ||
	ok "SIGTERM before the device is open: no OUT"

finish
