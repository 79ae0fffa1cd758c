#!/bin/sh
# With --json every command prints one object on every exit, interrupted
# ones included (issue 35, 2): verify, tail and probe stopped by SIGINT or
# SIGTERM print one object that says so, and exit 130 or 143.
. "$(dirname "$0")/lib.sh"

IMG="$T/disc.img"
mkimage "$IMG" 400
# 1 ms plus 5 ms a block, slept: a 400-block read in 64-block chunks takes
# about two seconds, time enough to stop it after its first reads
SLOW="cost=5000/20,sleep=1"

# stop_after NAME SIG READS CMD...: runs cdtail CMD in the background, sends
# SIG once the trace $T/s.tr holds READS READ(10) lines; RC, $T/out, $T/err
stop_after() {
	sig=$1 reads=$2
	shift 2
	rm -f "$T/s.tr"
	"$CDTAIL" "$@" >"$T/out" 2>"$T/err" &
	pid=$!
	i=0
	while [ $i -lt 1000 ]; do
		[ -f "$T/s.tr" ] && [ "$(grep -c '^28' "$T/s.tr")" -ge "$reads" ] && break
		sleep 0.01
		i=$((i + 1))
	done
	kill -"$sig" $pid
	wait $pid
	RC=$?
}

# interrupt_held CMD...: cdtail CMD held in open(2) of a FIFO; SIGINT is sent
# again until the run ends (the first may come before the open); RC
interrupt_held() {
	"$CDTAIL" "$@" >"$T/out" 2>"$T/err" &
pid=$!
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	kill -INT $pid 2>/dev/null
	i=$((i + 1))
done
wait $pid
RC=$?
}

for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	stop_after $sig 3 verify --json --chunk 8 --image "$IMG" "sim:$IMG,$SLOW,trace=$T/s.tr"
	expect_rc "verify SIG$sig -> $want" $want
	expect_json "verify SIG$sig: one object, interrupted" \
		'[.interrupted, .verdict, .mode, .image == "'"$IMG"'", .blocks_read < 400] | @tsv' \
		"$(printf 'true\tinterrupted\timage\ttrue\ttrue')"
	[ "$(wc -l <"$T/out")" -eq 1 ] && ok "verify SIG$sig: one line" ||
		not_ok "verify SIG$sig: one line" "$(head -c 400 "$T/out")"

	head -c $((300 * 2048)) "$IMG" >"$T/dd"
	stop_after $sig 3 tail --json --chunk 8 "sim:$IMG,$SLOW,hide=100,trace=$T/s.tr" "$T/dd"
	expect_rc "tail SIG$sig -> $want" $want
	expect_json "tail SIG$sig: one object, interrupted, IMAGE at its old length" \
		'[.interrupted, .verdict, .out_bytes, .out_bytes_before, .appended_blocks] | @tsv' \
		"$(printf 'true\tinterrupted\t%s\t%s\t0' $((300 * 2048)) $((300 * 2048)))"
	[ "$(stat -c %s "$T/dd")" -eq $((300 * 2048)) ] && ok "tail SIG$sig: IMAGE cut back" ||
		not_ok "tail SIG$sig: IMAGE cut back" "$(stat -c %s "$T/dd") bytes"

	# probe: its end search reads one block at a time past the reported end
	stop_after $sig 2 probe --json "sim:$IMG,cost=0/2000,sleep=1,hide=200,trace=$T/s.tr"
	expect_rc "probe SIG$sig -> $want" $want
	expect_json "probe SIG$sig: the error object, interrupted" \
		'[.interrupted, .error.status, .device != null] | @tsv' \
		"$(printf 'true\t%s\ttrue' $want)"
	expect_grep "probe SIG$sig: stderr says interrupted" "$T/err" 'probe: interrupted'
done

# hazards: a sysfs attribute that is a FIFO holds the scan in open(2) until
# a signal ends the wait; the run then ends 130 with the error object.  The
# signal is sent again until the run ends (the first may come before open)
H="$T/hz"
cp -r "$ROOT/fixtures/sysfs/disk-no-fua" "$H"
wc=$(find "$H" -path '*block/sda/queue/write_cache')
rm "$wc"
mkfifo "$wc"
interrupt_held hazards --json --sysfs "$H" /dev/sda
expect_rc "hazards SIGINT -> 130" 130
expect_json "hazards SIGINT: the error object, interrupted" \
	'[.interrupted, .error.status, .device] | map(tostring) | join(" ")' "true 130 /dev/sda"

# export: stopped while it writes, its error object, no EWF file left, and
# the record's entry says interrupted
mkimage "$T/big.img" 60000
"$CDTAIL" image -q "sim:$T/big.img,cost=0/0" "$T/big.iso" >/dev/null 2>&1
"$CDTAIL" export --json --ewf "$T/e.E01" "$T/big.iso" >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ ! -e "$T/e.E01" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
kill -INT $pid
wait $pid
RC=$?
expect_rc "export SIGINT -> 130" 130
expect_json "export SIGINT: the error object, interrupted" \
	'[.interrupted, .error.status] | map(tostring) | join(" ")' "true 130"
if ls "$T"/e.E0* >/dev/null 2>&1; then not_ok "export SIGINT: no EWF file left" "$(ls "$T"/e.E0*)"
else ok "export SIGINT: no EWF file left"; fi
expect_grep "export SIGINT: the record's entry says interrupted" "$T/big.iso.log" '^verdict: interrupted$'

# map: a MAPFILE that holds the read (a FIFO) ends 130 with the error object
mkfifo "$T/m.fifo"
interrupt_held map --json "$T/m.fifo"
expect_rc "map SIGINT -> 130" 130
expect_json "map SIGINT: the error object, interrupted" \
	'[.interrupted, .error.status] | map(tostring) | join(" ")' "true 130"

# without --json: the same exits, nothing on stdout but what the run printed
stop_after INT 3 verify -q --chunk 8 --image "$IMG" "sim:$IMG,$SLOW,trace=$T/s.tr"
expect_rc "verify -q SIGINT -> 130" 130
[ -s "$T/out" ] && not_ok "verify -q SIGINT: no JSON on stdout" "$(head -c 200 "$T/out")" ||
	ok "verify -q SIGINT: no JSON on stdout"

finish
