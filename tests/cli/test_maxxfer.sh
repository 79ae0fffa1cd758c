#!/bin/sh
# The emulated drive's maxxfer=BYTES (issue 31): a queue's largest transfer.
# A command over it fails as SG_IO does (EINVAL, no SCSI status); every read
# of every job is split to it, and answers as the run without the limit.
. "$(dirname "$0")/lib.sh"

mkimage "$T/a.img" 300

# --- the key --------------------------------------------------------------------
run probe "sim:$T/a.img,maxxfer=4095"
expect_rc "maxxfer below a page: usage error" 2
expect_err_line "maxxfer=4095: the message names the key and the range" \
	"^cdtail: sim: bad value '4095' for key 'maxxfer' \(want a byte count from 4096 to 8388608\)$"
run probe "sim:$T/a.img,maxxfer=64k"
expect_rc "maxxfer=64k: usage error" 2

# --- the trace: READ CD decoded, a command over the limit marked ----------------
python3 "$ROOT/tests/raw/model.py" disc mixed "$T" || { not_ok "model.py disc mixed"; finish; exit 1; }
run probe "sim:$T/mixed.cue,trace=$T/p.tr"
expect_rc "probe of a CUE disc" 0
expect_grep "trace: READ CD with LBA, count, sector type and bytes" "$T/p.tr" \
	'^be lba=-?[0-9]+ blocks=[0-9]+ type=(any|cdda|mode1|mode2|form1|form2) bytes=[0-9]+ sense=..'
# --- every job: the same answer as without the limit, no command over it ------
# answer FILE: the JSON result less what counts commands or time, and the address
answer() {
	jq -S 'walk(if type == "object" then del(.device, .total, .search_ms,
		.search_reads, .search_failed_reads, .elapsed_ms, .stats) else . end)' "$1"
}

# over TRACE LIMIT: the commands of a trace the queue refused, or that moved
# more than LIMIT bytes (READ(10/12/16): blocks of 2048; READ CD: bytes=)
over() {
	awk -v m="$2" '/sense=einval/ { print; next }
		($1 == "28" || $1 == "a8" || $1 == "88") { split($3, b, "="); if (b[2] * 2048 > m) print }
		($1 == "be" || $1 == "b9") { for (i = 2; i <= NF; i++) if ($i ~ /^bytes=/) {
			split($i, b, "="); if (b[2] + 0 > m) print } }' "$1"
}

# twice NAME LIMIT OUTPUT RESET DEVKEYS ARGS...: the command (@DEV@ in ARGS
# stands for the address, sim:DEVKEYS) run without a limit and with
# maxxfer=LIMIT, RESET (a shell command) before each; OUTPUT, a file or
# folder the command writes ("" none), kept aside after the first.  The
# exit status, the JSON answer and OUTPUT must be the same; the limited
# run's trace must hold no command over the limit, and the unlimited one
# must have had one (else the case shows nothing).
twice() {
	name=$1 lim=$2 output=$3 reset=$4 dev=$5
	shift 5
	for k in 0 1; do
		keys=",trace=$T/tw$k.tr"
		[ "$k" = 1 ] && keys="$keys,maxxfer=$lim"
		rm -f "$T/tw$k.tr"
		eval "$reset"
		set -- "$@" END
		while [ "$1" != END ]; do
			a=$1
			shift
			[ "$a" = @DEV@ ] && a="sim:$dev$keys"
			set -- "$@" "$a"
		done
		shift
		run "$@"
		if [ "$k" = 0 ]; then rc0=$RC; else rc1=$RC; fi
		answer "$T/out" >"$T/tw$k.json" 2>&1
		rm -rf "$T/tw$k.out"
		[ -n "$output" ] && cp -r "$output" "$T/tw$k.out"
		# the args again, with @DEV@ back, for the second run
		set -- "$@" END
		while [ "$1" != END ]; do
			a=$1
			shift
			case $a in sim:$dev*) a=@DEV@ ;; esac
			set -- "$@" "$a"
		done
		shift
	done
	if [ "$rc0" = "$rc1" ] && grep -q '"verdict"' "$T/tw0.json" &&
	   cmp -s "$T/tw0.json" "$T/tw1.json"; then
		ok "$name, maxxfer=$lim: exit $rc1, the same answer"
	else
		not_ok "$name, maxxfer=$lim: exit $rc0 / $rc1, the same answer" \
			"$(diff "$T/tw0.json" "$T/tw1.json" | head -8)"
	fi
	if [ -n "$output" ]; then
		# the record (*.log) holds the run's times and command line: not the disc's
		if [ -e "$T/tw0.out" ] && diff -r -x '*.log' "$T/tw0.out" "$T/tw1.out" >/dev/null; then
			ok "$name, maxxfer=$lim: the same files"
		else
			not_ok "$name, maxxfer=$lim: the same files" \
				"$(diff -r -x '*.log' "$T/tw0.out" "$T/tw1.out" 2>&1 | head -3)"
		fi
	fi
	if [ -s "$T/tw1.tr" ] && [ -z "$(over "$T/tw1.tr" "$lim")" ] &&
	   [ -n "$(over "$T/tw0.tr" "$lim")" ]; then
		ok "$name, maxxfer=$lim: no command over the limit (without it, some were)"
	else
		not_ok "$name, maxxfer=$lim: no command over the limit (without it, some were)" \
			"limited: $(over "$T/tw1.tr" "$lim" | head -3)" \
			"unlimited over it: $(over "$T/tw0.tr" "$lim" | wc -l)"
	fi
}

# RESET is run by twice() with eval, $T expanding then
# shellcheck disable=SC2016
for m in 16384 10000; do
	twice "image" "$m" "$T/i.img" 'rm -f "$T/i.img"' "$T/a.img,cost=0/0,bad=100-103" \
		image --json @DEV@ "$T/i.img"
	twice "image, map" "$m" "$T/i.img" 'rm -f "$T/i.img" "$T/i.map"' "$T/a.img,cost=0/0" \
		image --json --map "$T/i.map" @DEV@ "$T/i.img"
	twice "verify" "$m" "" : "$T/a.img,cost=0/0,bad=200-201" \
		verify --json @DEV@ --image "$T/a.img"
	twice "tail" "$m" "$T/tl.img" 'head -c $((250 * 2048)) "$T/a.img" >"$T/tl.img"' \
		"$T/a.img,cost=0/0,hide=50" tail --json @DEV@ "$T/tl.img"
	twice "image --raw" "$m" "$T/raw" 'rm -rf "$T/raw"; mkdir "$T/raw"' \
		"$T/mixed.cue,cost=0/0,trackinfo=pregap" image --raw --json @DEV@ "$T/raw/o.cue"
	twice "verify --cue" "$m" "" : "$T/mixed.cue,cost=0/0" \
		verify --json --cue "$T/mixed.cue" @DEV@
done

# --- verify --cue's 26 sectors with C2 (68,796 bytes) were over a 64 KiB queue -
run verify --json --cue "$T/mixed.cue" "sim:$T/mixed.cue,cost=0/0,maxxfer=65536,trace=$T/v64.tr"
expect_rc "verify --cue, maxxfer=65536: identical -> 0" 0
expect_json "verify --cue, maxxfer=65536: verdict identical" .verdict identical
expect_no_grep "verify --cue, maxxfer=65536: no command refused" "$T/v64.tr" 'sense=einval'
expect_grep "verify --cue, maxxfer=65536: 24 sectors with C2 a READ CD (2646 bytes each)" \
	"$T/v64.tr" '^be lba=[0-9]+ blocks=24 type=any bytes=63504 '
finish
