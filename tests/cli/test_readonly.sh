#!/bin/sh
# The read-only guarantee, end to end: every command runs against the
# emulated drive with trace=FILE, and every opcode it sent must be on the
# read-only allow-list of cdtail.h.  A command that is still a placeholder
# (exits 2 saying "not implemented") is reported as such; the trace check
# applies to whatever it sent.
. "$(dirname "$0")/lib.sh"

ALLOW="00 03 12 1a 23 25 28 43 46 4a 51 52 5a 88 9e a0 a8 ad bd be"
ISO="$FIX/iso9660.iso"
ISO_BLOCKS=$(($(stat -c %s "$ISO") / 2048))
RND="$T/rnd.img"
mkimage "$RND" 400
N=0

# check_trace NAME TRACE: each line starts with an allowed opcode
check_trace() {
	if [ ! -s "$2" ]; then
		ok "$1: sent nothing"
		return
	fi
	bad=$(awk -v allow="$ALLOW" 'BEGIN { n = split(allow, a, " ");
		for (i = 1; i <= n; i++) ok[a[i]] = 1 }
		!($1 in ok) { print NR ": " $0 }' "$2" | head -5)
	if [ -z "$bad" ]; then
		ok "$1: $(wc -l <"$2") commands, all allow-listed ($(cut -c1-2 "$2" | sort -u | tr '\n' ' '))"
	else
		not_ok "$1: opcode outside the allow-list" "$bad"
	fi
}

# the check itself must see a write: a trace with WRITE(10) and MODE SELECT
printf '28 lba=0 blocks=1 sense=00/00/00\n2a lba=0 blocks=1 sense=00/00/00\n55 lba=0 blocks=0 sense=00/00/00\n' >"$T/fake"
if awk -v allow="$ALLOW" 'BEGIN { n = split(allow, a, " ");
	for (i = 1; i <= n; i++) ok[a[i]] = 1 } !($1 in ok)' "$T/fake" |
	cut -c1-2 | tr '\n' ' ' | grep -qx '2a 55 '; then
	ok "the trace check flags 2a and 55"
else
	not_ok "the trace check does not flag WRITE(10) / MODE SELECT(10)"
fi

# ro NAME KEYS CMD ARGS...: runs cdtail CMD ARGS... with @DEV@ replaced by
# sim:$IMG,KEYS,trace=FILE, then checks the trace
ro() {
	name=$1 keys=$2
	shift 2
	N=$((N + 1))
	tr="$T/trace.$N"
	: >"$tr"
	dev="sim:$IMG${keys:+,$keys},trace=$tr"
	cmd=$1
	shift
	set -- "$cmd" $(for a in "$@"; do [ "$a" = @DEV@ ] && echo "$dev" || echo "$a"; done)
	run "$@"
	if [ "$RC" -eq 2 ] && grep -q "not implemented" "$T/err"; then
		ok "$name: placeholder (exit 2, not implemented yet)"
	elif [ "$RC" -ge 64 ] || [ "$RC" -eq 1 ]; then
		not_ok "$name: exit $RC" "$(head -c 400 "$T/err")"
	fi
	check_trace "$name" "$tr"
}

IMG=$ISO
ro "probe" "" probe @DEV@
ro "probe --json -v" "" probe --json -v @DEV@
ro "probe hidden tail" "hide=3,info=1" probe --json @DEV@
ro "probe run-out, true toc" "runout=2,toc=true" probe @DEV@
ro "probe extra block" "extra=1" probe @DEV@
ro "probe no toc, unit attentions" "toc=none,ua=3" probe @DEV@
ro "probe bad tail, flaky" "bad=100-111,flaky=90-95:2" probe @DEV@
ro "probe hang" "hang=111,hide=2" probe --timeout 1 @DEV@
IMG=$RND
ro "probe 512-byte blocks" "block=512,hide=7" probe @DEV@
ro "probe random image, max-extra" "hide=150" probe --max-extra 100 @DEV@
IMG=$ISO
ro "image" "hide=3" image @DEV@ "$T/out.img"
ro "image --map --json" "bad=50-60" image --map "$T/out.map" --json @DEV@ "$T/out2.img"
# what dd of the node gives: the reported length (112 - 3 blocks)
head -c $(((ISO_BLOCKS - 3) * 2048)) "$ISO" >"$T/dd.img"
ro "tail" "hide=3" tail @DEV@ "$T/dd.img"
ro "verify --image" "" verify @DEV@ --image "$ISO"
ro "verify --sha256" "hide=3" verify --json @DEV@ --sha256 \
	"$(sha256sum "$ISO" | cut -d' ' -f1)"
ro "hazards" "" hazards @DEV@
ro "hazards --json" "" hazards --json @DEV@

finish
