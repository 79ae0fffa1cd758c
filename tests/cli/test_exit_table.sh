#!/bin/sh
# The exit table (issue 14, point 2), one row at a time, in every command
# it applies to: 2 for whatever the user can fix on the command line
# (options, operands, addresses, sim: keys, every file argument, the
# sim: IMAGE included, a plain file given as DEV), 3 for the device and
# I/O (a node that is missing or not SCSI, timeouts, writing stdout).
. "$(dirname "$0")/lib.sh"

IMG=$T/d.img
mkimage "$IMG" 100
: >"$T/empty.img"
mkdir "$T/dir"
cp "$IMG" "$T/tailimg"

# each command with @ where DEV goes; image writes a new OUT every time
n=0
FORMS='probe @|image @ OUT|tail @ TAILIMG|verify @ --image IMG|hazards @'
for_each() { # WANT LABEL DEV
	IFS='|'
	set -- "$1" "$2" "$3" $FORMS
	unset IFS
	want=$1 label=$2 dev=$3
	shift 3
	for form in "$@"; do
		n=$((n + 1))
		cmd=$(echo "$form" | sed "s|@|$dev|; s|OUT|$T/out.$n|; s|TAILIMG|$T/tailimg|; s|IMG|$IMG|")
		run $cmd
		expect_rc "${form%% *}, $label -> $want" "$want"
		case $form in image*)
			if [ "$want" = 2 ] && [ -e "$T/out.$n" ]; then not_ok "image, $label: no OUT written"; fi ;;
		esac
	done
}

# hazards also takes bare names (sdb, mpatha): it looks them up in sysfs
FORMS='probe @|image @ OUT|tail @ TAILIMG|verify @ --image IMG'
for_each 2 "DEV not an address (sr0)" sr0
FORMS="$FORMS|hazards @"
for_each 2 "DEV a regular file, path" "$IMG"
for_each 2 "DEV a directory" "$T/dir"
for_each 2 "sim: unknown key" "sim:$IMG,colour=blue"
for_each 2 "sim: bad value" "sim:$IMG,hide=x"
for_each 2 "sim: hide past the image" "sim:$IMG,hide=101"
for_each 2 "sim: missing IMAGE" "sim:$T/missing.img"
for_each 2 "sim: IMAGE a directory" "sim:$T/dir"
for_each 2 "sim: IMAGE not a regular file" "sim:/dev/null"
for_each 2 "sim: empty IMAGE" "sim:$T/empty.img"
for_each 2 "sim: trace file cannot be created" "sim:$IMG,trace=$T/nodir/t"
for_each 2 "sim: bad= past the image" "sim:$IMG,bad=100-110"
for_each 2 "sim: flaky= past the image" "sim:$IMG,flaky=150-150:1"
for_each 2 "sim: a comma in the name, unescaped" "sim:$T/a,b.img"
for_each 3 "DEV node missing" /dev/nonexistent-sr9
for_each 3 "DEV not a SCSI device" /dev/null

cd "$T" || exit 1
for_each 2 "DEV a regular file, bare name" d.img
cd "$OLDPWD" || exit 1

# sim: names any file: "\," is a comma, "\\" a backslash
cp "$IMG" "$T/a,b.img"
run probe --json "sim:$T/a\,b.img,cost=0/0,hide=2"
expect_rc "sim: an escaped comma in the name -> 10" 10
expect_json "sim: an escaped comma in the name: the whole image" .true_blocks 100
run probe "sim:$T/a,b.img"
expect_grep "sim: an unescaped comma: the message says how to write one" "$T/err" 'a comma in a file name is written \\,'
run probe "sim:$IMG,bad=100-110"
expect_grep "sim: bad= past the image: says where the image ends" "$T/err" 'bad=100-110 lies past the image, whose 100 blocks are LBAs 0-99'

DEV="sim:$IMG,cost=0/0"
row() { # WANT LABEL ARGS...
	want=$1 label=$2
	shift 2
	run "$@"
	expect_rc "$label -> $want" "$want"
}
for cmd in probe image tail verify hazards; do
	row 2 "$cmd: unknown option" $cmd --frobnicate "$DEV"
	row 2 "$cmd: missing DEV" $cmd
	row 2 "$cmd: bad --timeout" $cmd --timeout 0 "$DEV"
done
row 2 "image: missing OUT" image "$DEV"
row 2 "image: OUT in a missing directory" image "$DEV" "$T/nodir/out"
row 2 "image: OUT a directory" image "$DEV" "$T/dir"
row 2 "image: MAPFILE in a missing directory" image --map "$T/nodir/m" "$DEV" "$T/o.m"
row 2 "image: OUT exists without --force" image "$DEV" "$T/tailimg"
row 2 "image: bad --digest" image --digest sha512 "$DEV" "$T/o.d"
row 2 "tail: IMAGE missing" tail "$DEV" "$T/nodir/x"
row 2 "tail: IMAGE a directory" tail "$DEV" "$T/dir"
row 2 "verify: --image missing" verify "$DEV" --image "$T/nodir"
row 2 "verify: --image a directory" verify "$DEV" --image "$T/dir"
row 2 "verify: no mode" verify "$DEV"
row 2 "verify: short digest" verify "$DEV" --md5 abc
row 2 "hazards: --sysfs missing" hazards --sysfs "$T/nodir" /dev/sr0
row 2 "hazards: empty DEV" hazards ""
row 2 "unknown command" frobnicate
# one read that never completes is a bad block (issue 22); a drive that
# stops answering (reads that time out, 4 in a row) is a device error
row 3 "probe: a drive that stops answering" probe --timeout 1 "sim:$IMG,cost=0/0,fault=timeout@0-99,ready=0"
row 3 "image: a drive that stops answering in the end search" image --timeout 1 "sim:$IMG,cost=0/0,fault=timeout@0-99,ready=0,hide=1" "$T/o.h"
finish
