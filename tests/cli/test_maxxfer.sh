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
finish
