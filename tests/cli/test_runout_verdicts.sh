#!/bin/sh
# The blocks around the reported end and what they mean (issue 32, item 1
# and 6, and the decisions on the manual's open questions): 05/64/00 at
# the very end of the last track is a run-out when 1 or 2 blocks answer it
# (tao-runout, verdict ok, exit 0), Form 2 when 3 or more do; MEDIUM ERROR
# is damage, never a run-out: trailing MEDIUM ERROR blocks inside the
# agreed extent are damaged-tail (exit 0), also just before a run-out (both
# notes) and on formatted media; a disc none of whose blocks reads is
# verdict unreadable, exit 4.  A note, its verdict and the exit status
# always go together as cdtail-probe(1)'s table says.
. "$(dirname "$0")/lib.sh"

D="$T/t.img"
mkimage "$D" 300

# --- MEDIUM ERROR on the last 2 blocks: damage, never a run-out ----------------
for keys in bad=298-299 "profile=bd-re,formatted=300,bad=298-299"; do
	run probe --json "sim:$D,$keys"
	expect_rc "$keys: exit 0" 0
	expect_json "$keys: verdict ok" .verdict ok
	expect_json "$keys: true_blocks the agreed end" .true_blocks 300
	expect_json "$keys: extent" .extent_blocks 300
	expect_json "$keys: damaged-tail, 2 blocks" .damaged_tail_blocks 2
	expect_json "$keys: notes" '.notes | map(select(. != "formatted")) | join(",")' damaged-tail
done
# the sources agree on 301 but the drive holds 300: no agreement, the old
# answer, never a run-out
run probe --json "sim:$D,extra=1,bad=299-299"
expect_rc "extra=1,bad=299-299: short, exit 11" 11
expect_json "extra=1,bad=299-299: verdict" .verdict short
expect_json "extra=1,bad=299-299: true_blocks" .true_blocks 299
expect_json "extra=1,bad=299-299: notes" '.notes | join(",")' trailing-medium-error

# a CD-Extra whose data session's last 2 blocks are damaged
X="$T/x.img"
mkimage "$X" $((564 + 832 + 11400 + 4723))
run probe --json "sim:$X,layout=audio:564+audio:832/data:4723,bad=17517-17518"
expect_rc "CD-Extra, last 2 blocks bad: exit 0" 0
expect_json "CD-Extra, last 2 blocks bad: verdict ok" .verdict ok
expect_json "CD-Extra, last 2 blocks bad: true_blocks" .true_blocks 17519
expect_json "CD-Extra, last 2 blocks bad: notes" '.notes | join(",")' damaged-tail
expect_json "CD-Extra, last 2 blocks bad: damaged_tail_blocks" .damaged_tail_blocks 2

# --- MEDIUM ERROR just before a run-out: both notes, exit 0 -------------------------
run probe --json "sim:$D,runout=2,bad=297-297"
expect_rc "bad before a run-out: exit 0" 0
expect_json "bad before a run-out: verdict ok" .verdict ok
expect_json "bad before a run-out: true_blocks and extent at the run-out" \
	'"\(.true_blocks) \(.extent_blocks) \(.hidden_blocks)"' "298 298 -2"
expect_json "bad before a run-out: notes" '.notes | join(",")' tao-runout,damaged-tail
expect_json "bad before a run-out: damaged_tail_blocks" .damaged_tail_blocks 1
run image --json --map "$T/r.map" "sim:$D,runout=2,bad=297-297" "$T/r.iso"
expect_rc "bad before a run-out: image exit 4 (a bad block)" 4
expect_json "bad before a run-out: image's extent, bad block, count" \
	'"\(.extent_blocks) \(.bad_blocks | tojson) \(.damaged_tail_blocks) \(.form2_blocks)"' "298 [[297,297]] 1 0"

# a block that never answers just before a run-out may be the run-out's
# own: no damage there, the old answer (a resume searches again)
run probe --json --timeout 1 "sim:$D,cost=0/0,runout=2,hang=297"
expect_rc "timeout before a run-out: short, exit 11" 11
expect_json "timeout before a run-out: notes" '.notes | join(",")' trailing-medium-error

# --- 1 or 2 blocks of 05/64/00 are a run-out, 3 or more Form 2 ------------------------
run probe --json "sim:$D,runout=1"
expect_rc "runout=1: exit 0" 0
expect_json "runout=1: verdict, true, hidden" '"\(.verdict) \(.true_blocks) \(.hidden_blocks)"' "ok 299 -1"
expect_json "runout=1: notes" '.notes | join(",")' tao-runout
run probe --json "sim:$D,runout=1,bad=297-298"
expect_rc "runout=1 after 2 bad blocks: exit 0" 0
expect_json "runout=1 after 2 bad blocks: true, damaged" '"\(.true_blocks) \(.damaged_tail_blocks)"' "299 2"
expect_json "runout=1 after 2 bad blocks: notes" '.notes | join(",")' tao-runout,damaged-tail
run image --json "sim:$D,runout=1" "$T/r1.iso"
expect_rc "runout=1: image exit 0, complete" 0
expect_json "runout=1: image's extent" .extent_blocks 299
# the last reported block answers out of range: no run-out there
run probe --json "sim:$D,extra=1,runout=1"
expect_rc "extra=1,runout=1: short, exit 11" 11
expect_json "extra=1,runout=1: no tao-runout" '.notes | index("tao-runout")' null
run probe --json "sim:$D,runout=3"
expect_json "runout=3: a run-out and a Form 2 block" '.notes | join(",")' tao-runout,form2
run image --json "sim:$D,runout=3" "$T/r3.iso"
expect_rc "runout=3: image exit 4, never complete" 4
expect_json "runout=3: image's Form 2 block" '"\(.form2_blocks) \(.verdict)"' "1 incomplete"

# --- nothing reads ----------------------------------------------------------------
run probe --json "sim:$D,bad=0-299"
expect_rc "nothing reads: exit 4" 4
expect_json "nothing reads: verdict unreadable" .verdict unreadable
expect_json "nothing reads: note" '.notes | index("nothing-readable") != null' true
run probe "sim:$D,bad=0-299"
expect_grep "nothing reads, text: verdict unreadable" "$T/out" '^verdict: +unreadable$'
run image --json "sim:$D,bad=0-299" "$T/u.iso"
expect_rc "nothing reads: image exit 4 as probe" 4
expect_json "nothing reads: image's verdict" .verdict unreadable

# --- item 6: a MEDIUM ERROR just before a TAO run-out and an audio pregap ------------
M="$T/m.img"
mkimage "$M" 5371
L="tao=1,layout=data:3035+audio:2186~150"
run probe --json "sim:$M,$L,bad=3032-3032"
expect_json "bad before run-out and pregap: pregap 152, data 3033" \
	'"\(.tracks[1].pregap) \(.tracks[0].blocks)"' "152 3033"
run image --json "sim:$M,$L,bad=3032-3032" "$T/m.iso"
expect_rc "bad before run-out and pregap: image exit 4" 4
expect_json "bad before run-out and pregap: no Form 2, the run-out in the pregap" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "3033+152 pregap,3185+2186 audio"
expect_json "bad before run-out and pregap: the bad block" '.bad_blocks | tojson' '[[3032,3032]]'

# --- a note, its verdict and the exit status go together --------------------------
for keys in runout=1 runout=2 runout=3 bad=298-299 bad=297-299 bad=299-299 \
	runout=2,bad=290-297 runout=1,bad=298-298 extra=1,bad=299-299 extra=1,bad=298-299 \
	hide=1,runout=2 hide=1,runout=3 extra=2,runout=2 bad=0-299 bad=0-297,runout=2 \
	profile=bd-re,formatted=300,bad=298-299 profile=bd-re,formatted=400,bad=298-299; do
	run probe --json "sim:$D,$keys"
	want=$(jq -r 'if (.notes | index("nothing-readable")) then "unreadable 4"
		elif (.notes | index("tao-runout")) or (.notes | index("damaged-tail")) then "ok 0"
		elif (.notes | index("trailing-medium-error")) then "short 11"
		else "\(.verdict) \(.verdict | if . == "ok" then 0 elif . == "short" then 11
			elif . == "hidden-tail" then 10 else 4 end)" end' <"$T/out")
	if [ "$(jq -r .verdict <"$T/out") $RC" = "$want" ]; then ok "$keys: notes, verdict, exit agree"
	else not_ok "$keys: notes, verdict, exit agree" "$(jq -c '[.notes, .verdict]' <"$T/out") exit $RC, wanted $want"; fi
done
finish
