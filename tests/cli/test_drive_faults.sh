#!/bin/sh
# Real drives fail in many ways (issue 22): every kind of the emulated
# drive's fault= key, its ready= and past= values, a drive that stops
# answering, a disk too small or filling up.  For each run: the exit
# status, OUT's bytes against the disc with zeros exactly where blocks
# never read, and the map's '-' runs exactly those blocks (mapcheck.awk).
. "$(dirname "$0")/lib.sh"

FAULTS="$ROOT/tests/faults"
N=2000
IMG=$T/disc.img
mkimage "$IMG" $N

# want_out RANGES: $T/want is the disc with the blocks of RANGES ("A-B ...") zero
want_out() {
	cp "$IMG" "$T/want"
	for r in "$@"; do
		dd if=/dev/zero of="$T/want" bs=2048 seek=${r%-*} count=$((${r#*-} - ${r%-*} + 1)) \
			conv=notrunc 2>/dev/null
	done
}

# image_case NAME KEYS RC BADJSON [RANGES...]: a fresh image of sim:IMG,KEYS
image_case() {
	name=$1 keys=$2 want_rc=$3 badjson=$4
	shift 4
	rm -f "$T/o" "$T/m" "$T/o.log"
	run image --json --timeout 2 --map "$T/m" "sim:$IMG,cost=0/0,$keys" "$T/o"
	expect_rc "$name: exit" "$want_rc"
	expect_json "$name: bad blocks" '.bad_blocks | tostring' "$badjson"
	want_out "$@"
	if cmp -s "$T/want" "$T/o"; then ok "$name: OUT is the disc, zeros where blocks never read"; else
		not_ok "$name: OUT" "$(cmp "$T/want" "$T/o" 2>&1)"; fi
	got=$(awk -v bs=2048 -v final=1 -f "$FAULTS/mapcheck.awk" "$T/m" 2>&1)
	if [ "$got" = "OK $((N * 2048)) $badjson" ]; then ok "$name: the map marks exactly those blocks"; else
		not_ok "$name: the map" "$got, wanted OK $((N * 2048)) $badjson"; fi
}

# --- each kind, permanent: the blocks are bad, nothing else is ------------------
image_case "hwerr" "fault=hwerr@300-309" 4 '[[300,309]]' 300-309
image_case "nosense" "fault=nosense@300-309" 4 '[[300,309]]' 300-309
image_case "aborted" "fault=aborted@300-309" 4 '[[300,309]]' 300-309
image_case "host" "fault=host@300-309" 4 '[[300,309]]' 300-309
image_case "short" "fault=short@300-309" 4 '[[300,309]]' 300-309
image_case "timeout" "fault=timeout@300-303,ready=0" 4 '[[300,303]]' 300-303
image_case "timeout, reset and becoming ready" "fault=timeout@300-300" 4 '[[300,300]]' 300-300
image_case "mixed" "fault=hwerr@100-100:nosense@200-201:host@900-900:short@1500-1503,bad=50-52" 4 \
	'[[50,52],[100,100],[200,201],[900,900],[1500,1503]]' 50-52 100-100 200-201 900-900 1500-1503
# a timeout area in the hidden tail, on a drive whose INFORMATION the end
# search trusts (two bad blocks below it): the chunk that timed out named
# no block and was read again until 4 timeouts in a row ended the run
# (exit 3; image_model.py seed 20261203 case 951); the search goes on
# block by block past it
image_case "timeout in the hidden tail" \
	"hide=300,info=1,bad=1720-1720:1800-1800,fault=timeout@1950-1951" 4 \
	'[[1720,1720],[1800,1800],[1950,1951]]' 1720-1720 1800-1800 1950-1951
# --- transient (xT): read on a later try; deferred errors are never the read's -----
image_case "hwerr x1" "fault=hwerr@300-309x1" 0 '[]'
image_case "nosense x2" "fault=nosense@300-309x2" 0 '[]'
image_case "aborted x2" "fault=aborted@300-309x2" 0 '[]'
image_case "host x2" "fault=host@300-309x2" 0 '[]'
image_case "short x1" "fault=short@300-309x1" 0 '[]'
image_case "timeout x1" "fault=timeout@300-300x1" 0 '[]'
image_case "deferred" "fault=deferred@300-309" 0 '[]'
image_case "deferred everywhere" "fault=deferred@0-1999" 0 '[]'

# --- a drive becoming ready after insertion: waited for, as sr_ioctl.c ---------
run probe --json "sim:$IMG,cost=0/0,ready=15000@0"
expect_rc "ready=15000@0: probe right after insertion -> 0" 0
expect_json "ready=15000@0: the true end" .true_blocks $N
image_case "ready=15000@0" "ready=15000@0" 0 '[]'
# a drive that answers its own commands while the medium spins up (MMC-5
# 4.1.8, cdtail-sim(7) notready=mmc): the same waits, the same result
run probe --json "sim:$IMG,cost=0/0,ready=15000@0,notready=mmc"
expect_rc "ready=15000@0,notready=mmc: probe right after insertion -> 0" 0
expect_json "ready=15000@0,notready=mmc: the true end" .true_blocks $N
image_case "ready=15000@0,notready=mmc" "ready=15000@0,notready=mmc" 0 '[]'

# --- the end: only blocks that arrived count ------------------------------------
for h in 1 7 150; do
	run probe --json "sim:$IMG,cost=0/0,hide=$h,past=short"
	expect_rc "past=short, hide=$h: probe -> 10" 10
	expect_json "past=short, hide=$h: the true end" .true_blocks $N
done
image_case "past=short, hide=150" "hide=150,past=short" 0 '[]'
# blocks that never arrive are failed blocks: the end below them, the
# extent up to where the drive says out of range
run probe --json "sim:$IMG,cost=0/0,hide=40,fault=short@1990-1999"
expect_json "short reads at the end: the true end below them" .true_blocks 1990
expect_json "short reads at the end: the extent holds them" .extent_blocks $N
run probe --json "sim:$IMG,cost=0/0,hide=40,fault=short@1970-1979"
expect_json "short reads in the hidden tail are not its end" .true_blocks $N

# --- a drive that stops answering: stop, save, resume past it -------------------
rm -f "$T/o" "$T/m" "$T/o.log"
run image --map "$T/m" "sim:$IMG,cost=0/0,fault=timeout@500-1999,ready=0" "$T/o"
expect_rc "stops answering: exit 3" 3
expect_grep "stops answering: says so" "$T/err" 'the drive stopped answering'
expect_grep "stops answering: says what to do" "$T/err" 'run the same command again'
left1=$(grep -c '  ?$' "$T/m")
untried1=$(awk '/^0x/ && NF == 3 && $3 == "?" { print }' "$T/m" | wc -l)
ddrescuelog -t "$T/m" >/dev/null 2>&1 && ok "stops answering: the map is saved" ||
	not_ok "stops answering: the map is saved"
first_bad=$(grep -v '^#' "$T/m" | awk 'NF == 3 && $3 == "*" { print $1; exit }')
run image --map "$T/m" "sim:$IMG,cost=0/0,fault=timeout@500-1999,ready=0" "$T/o"
expect_rc "stops answering again: exit 3" 3
last1=$(sed -n 's/.*(the last at LBA \([0-9]*\)).*/\1/p' "$T/err")
[ -n "$first_bad" ] && [ -n "$last1" ] && [ $((first_bad / 2048)) -lt "$last1" ] &&
	ok "the resume went past where the first run stopped (LBA $((first_bad / 2048)) -> $last1)" ||
	not_ok "the resume went past where the first run stopped" "first '*' at $first_bad, last timeout at $last1"
run image --json --map "$T/m" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "the drive answers again: the resume -> 0" 0
if cmp -s "$IMG" "$T/o"; then ok "the chain of resumes ends with the whole disc"; else
	not_ok "the chain of resumes ends with the whole disc" "$(cmp "$IMG" "$T/o" 2>&1)"; fi
: "$left1" "$untried1"

# --- a run-out that timed out, then answers: the resume ends at the true end -----
# The first run's search meets a block that never answers (hang=) where a
# run-out lies: a failed block, not the end, so the extent takes it in.
# A resume where the run-out answers at once searches again and ends where
# a fresh run of that drive ends: the same exit, extent, bad blocks,
# skipped areas and OUT.
# runout_case NAME FIRST-KEYS THEN-KEYS FIRST-EXTENT FIRST-BAD
runout_case() {
	name=$1 first=$2 then=$3
	rm -f "$T/o" "$T/m" "$T/o.log" "$T/f" "$T/fm" "$T/f.log"
	run image --json --timeout 1 --map "$T/m" "sim:$IMG,cost=0/0,$first" "$T/o"
	expect_json "$name, first run: the extent takes the hung block in" .extent_blocks "$4"
	expect_json "$name, first run: the hung block is bad" '.bad_blocks | tostring' "$5"
	run image --json --timeout 1 --map "$T/fm" "sim:$IMG,cost=0/0,$then" "$T/f"
	frc=$RC
	jq -c '[.extent_blocks, .bad_blocks, .skipped, .verdict]' "$T/out" >"$T/fresh"
	run image --json --timeout 1 --map "$T/m" "sim:$IMG,cost=0/0,$then" "$T/o"
	expect_rc "$name, the resume: exit as a fresh run's" "$frc"
	jq -c '[.extent_blocks, .bad_blocks, .skipped, .verdict]' "$T/out" >"$T/resumed"
	if cmp -s "$T/fresh" "$T/resumed"; then ok "$name, the resume: extent, bad, skipped, verdict as a fresh run's"; else
		not_ok "$name, the resume: as a fresh run" "resumed $(cat "$T/resumed"), fresh $(cat "$T/fresh")"; fi
	if cmp -s "$T/f" "$T/o"; then ok "$name, the resume: OUT as a fresh run's"; else
		not_ok "$name, the resume: OUT as a fresh run's" "$(ls -l "$T/f" "$T/o")"; fi
	got=$(awk -v bs=2048 -v final=1 -f "$FAULTS/mapcheck.awk" "$T/m" 2>&1)
	want=$(awk -v bs=2048 -v final=1 -f "$FAULTS/mapcheck.awk" "$T/fm" 2>&1)
	[ "$got" = "$want" ] && ok "$name, the resume: the map as a fresh run's ($got)" ||
		not_ok "$name, the resume: the map as a fresh run's" "$got, wanted $want"
}
runout_case "TAO run-out hung" "runout=2,hang=$((N - 2))" "runout=2" $((N - 1)) "[[$((N - 2)),$((N - 2))]]"
expect_json "TAO run-out hung, the resume: the true end" .extent_blocks $((N - 2))
runout_case "TAO run-out hung, hidden tail" "hide=40,runout=2,hang=$((N - 2))" "hide=40,runout=2" \
	$((N - 1)) "[[$((N - 2)),$((N - 2))]]"
expect_json "TAO run-out hung, hidden tail, the resume: the true end" .extent_blocks $((N - 2))
runout_case "Form 2 before a run-out, one hung" "runout=20,hang=$((N - 15))" "runout=20" \
	$((N - 2)) "[[$((N - 15)),$((N - 15))]]"
expect_json "Form 2 before a run-out, one hung, the resume: no bad block" '.bad_blocks | length' 0
# still no answer: the resume keeps the extent and the bad block
runout_case "TAO run-out still hung" "runout=2,hang=$((N - 2))" "runout=2,hang=$((N - 2))" \
	$((N - 1)) "[[$((N - 2)),$((N - 2))]]"
expect_json "TAO run-out still hung, the resume: the extent stays" .extent_blocks $((N - 1))

# --- the device or the medium gone: stop, save, say so; a resume finishes -------
# gone_case KIND PATTERN MESSAGE: fault=KIND at LBA 500 (gone: DID_NO_CONNECT to every
# command from then on; eject: 02/3A/00), then the drive back
gone_case() {
	rm -f "$T/o" "$T/m" "$T/o.log"
	run image --map "$T/m" "sim:$IMG,cost=0/0,fault=$1@500-500" "$T/o"
	expect_rc "$1: image -> 3" 3
	expect_grep "$1: image says so" "$T/err" "^cdtail: image: $2"
	expect_grep "$1: image says the map is saved and what to do" "$T/err" \
		"the map .*/m is saved: run the same command again to resume"
	ddrescuelog -t "$T/m" >/dev/null 2>&1 && ok "$1: the map is a valid map" ||
		not_ok "$1: the map is a valid map"
	got=$(grep -v '^#' "$T/m" | awk 'NF == 3 && $3 == "+" { print $1, $2; exit }')
	[ "$got" = "0x00000000 0x000F0000" ] && ok "$1: the map holds blocks 0-499 read" ||
		not_ok "$1: the map holds blocks 0-499 read" "first + run: $got"
	run image --json --map "$T/m" "sim:$IMG,cost=0/0" "$T/o"
	expect_rc "$1: the drive back, the resume -> 0" 0
	cmp -s "$IMG" "$T/o" && ok "$1: the resume ends with the whole disc" ||
		not_ok "$1: the resume ends with the whole disc" "$(cmp "$IMG" "$T/o" 2>&1)"
	run verify --json --image "$IMG" "sim:$IMG,cost=0/0,fault=$1@500-500"
	expect_rc "$1: verify -> 3" 3
	expect_json "$1: verify's JSON error" .error.message "verify: $3"
	run probe "sim:$IMG,cost=0/0,hide=40,fault=$1@1959-1959"
	expect_rc "$1 in the end search: probe -> 3" 3
	expect_grep "$1 in the end search: probe says so" "$T/err" ": $2"
}
gone_case gone 'command 0x28: the device is gone \(host status 0x01 \(DID_NO_CONNECT, the device was unplugged\)\)' \
	'command 0x28: the device is gone (host status 0x01 (DID_NO_CONNECT, the device was unplugged))'
gone_case eject 'no medium in the drive' 'no medium in the drive'

# --- a drive that never answers the end search: probe stops, says what to do ---
run probe --json --timeout 1 "sim:$IMG,cost=0/0,fault=timeout@1500-1999,ready=0"
expect_rc "the end search meets a dead drive: probe -> 3" 3
expect_json "the end search meets a dead drive: the JSON error" .error.message \
	"sim:$IMG,cost=0/0,fault=timeout@1500-1999,ready=0: the drive stopped answering: 4 reads in a row did not complete within the timeout in the end search; run the same command again when it answers"

# --- verify: the same rule, without a later pass (engine.h timeout_row) --------
# verify reads in order, a failed chunk again block by block: a block's
# own retries count once, so CDT_TIMEOUTS_IN_ROW (4) blocks in a row that
# never answer end it, at the 4th; fewer are bad blocks like any other.
verify_case() {
	name=$1 keys=$2 want_rc=$3 badjson=$4
	run verify --json --timeout 2 --retries 5 --image "$IMG" "sim:$IMG,cost=0/0,ready=0,$keys"
	expect_rc "verify, $name: exit" "$want_rc"
	[ "$want_rc" -eq 4 ] && expect_json "verify, $name: bad blocks" '.bad_blocks | tostring' "$badjson"
}
verify_case "one block times out 6 times in a row" "fault=timeout@300-300" 4 '[[300,300]]'
verify_case "3 blocks time out" "fault=timeout@300-302" 4 '[[300,302]]'
verify_case "3 blocks time out twice each" "fault=timeout@300-302x2" 0 '[]'
verify_case "4 blocks time out" "fault=timeout@300-303" 3
expect_json "verify, 4 blocks time out: the JSON error says so" .error.message \
	"verify: the drive stopped answering: 4 reads of different blocks in a row did not complete within the timeout (the last at LBA 303); run the same command again when it answers"
verify_case "the drive stops answering" "fault=timeout@500-1500" 3
expect_grep "verify, the drive stops answering: at the 4th block" "$T/err" \
	'the drive stopped answering: .*\(the last at LBA 503\); run the same command again when it answers$'
run verify --json --timeout 2 --image "$IMG" "sim:$IMG,cost=0/0"
expect_rc "verify, the drive answers again: identical" 0

# --- free space: checked up front; a disk that fills: the first error told -------
cc -shared -fPIC -o "$T/full.so" "$ROOT/tests/shim/full_disk.c" -ldl 2>"$T/cc.err" ||
	not_ok "build the full-disk shim" "$(head -c 300 "$T/cc.err")"
shim() { CDT_SHIM_FREE=${FREE:-} CDT_SHIM_FULL_AFTER=${AFTER:-} LD_PRELOAD=$T/full.so \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 "$@"; }
rm -f "$T/o" "$T/m" "$T/o.log"
FREE=102400 AFTER= shim run image --map "$T/m" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "too little free space: exit 3" 3
expect_grep "too little free space: the bytes needed" "$T/err" \
	"not enough free space for .*: $((N * 2048)) more bytes are needed, 102400 are free"
[ -e "$T/o" ] || [ -e "$T/m" ] && not_ok "too little free space: nothing created" "$(ls "$T")" ||
	ok "too little free space: nothing created"
rm -f "$T/o" "$T/m" "$T/o.log"
FREE= AFTER=1048576 shim run image --map "$T/m" --map-interval 1 "sim:$IMG,cost=0/0" "$T/o"
expect_rc "the disk fills: exit 3" 3
expect_grep "the disk fills: the write error is the one told" "$T/err" \
	'image: cannot write the output at byte [0-9]*: No space left on device: free space and run the same command again'
expect_grep "the disk fills: the failed save is told after it" "$T/err" \
	'and the map could not be saved: cannot write map .*/m: No space left on device'
ddrescuelog -t "$T/m" >/dev/null 2>&1 && ok "the disk fills: the last saved map stands" ||
	not_ok "the disk fills: the last saved map stands"
run image --json --map "$T/m" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "space freed: the same command again -> 0" 0
if cmp -s "$IMG" "$T/o"; then ok "space freed: OUT is the whole disc"; else
	not_ok "space freed: OUT is the whole disc" "$(cmp "$IMG" "$T/o" 2>&1)"; fi
# --- a filesystem without holes: warned once, by the CLI ------------------------
cc -shared -fPIC -o "$T/noholes.so" "$ROOT/tests/shim/no_holes.c" -ldl 2>"$T/cc.err" ||
	not_ok "build the no-holes shim" "$(head -c 300 "$T/cc.err")"
noholes() { LD_PRELOAD=$T/noholes.so \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 "$@"; }
hole_warning='image: warning: .*/o is on a filesystem without sparse files'
rm -f "$T/o" "$T/m" "$T/o.log"
noholes run image --map "$T/m" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "no holes: the image is made -> 0" 0
expect_grep "no holes: warned" "$T/err" "$hole_warning"
[ "$(grep -c 'warning' "$T/err")" -eq 1 ] && ok "no holes: warned once" ||
	not_ok "no holes: warned once" "$(cat "$T/err")"
cmp -s "$IMG" "$T/o" && ok "no holes: OUT is the disc" || not_ok "no holes: OUT is the disc"
noholes run image --map "$T/m" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "no holes, a resume that does not grow OUT -> 0" 0
expect_no_grep "no holes, a resume that does not grow OUT: no warning" "$T/err" 'warning'
rm -f "$T/o" "$T/m" "$T/o.log"
run image --map "$T/m" "sim:$IMG,cost=0/0" "$T/o"
expect_no_grep "holes kept (the test's filesystem): no warning" "$T/err" 'warning'
rm -f "$T/o" "$T/m" "$T/o.log"
noholes run image --json --map "$T/m" "sim:$IMG,cost=0/0,hide=40" "$T/o"
expect_json "no holes, --json: stdout is the JSON" .verdict complete
expect_grep "no holes, --json: warned on stderr" "$T/err" "$hole_warning"
[ -z "$(ls -A "$T" | grep '^\.cdtail-holes')" ] && ok "no holes: no scratch file left" ||
	not_ok "no holes: no scratch file left" "$(ls -A "$T")"
finish
