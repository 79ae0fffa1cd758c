#!/bin/sh
# Mode 2 Form 2 blocks (issue 23; cdtail-image(1) Only data, cdtail-probe(1)
# Mode 2 Form 2): 05/64/00 ILLEGAL MODE FOR THIS TRACK inside a data track,
# where the structure puts no run-out, is never the end, never damage and
# never "complete": skipped with why form2, zeros in OUT, exit 4.
. "$(dirname "$0")/lib.sh"

D="$T/d.img"
mkimage "$D" 5000

# fault=form2 (issue 22's key) inside the only track
rm -f "$T/o.iso" "$T/o.map"
run image --json --map "$T/o.map" "sim:$D,fault=form2@1000-1999" "$T/o.iso"
expect_rc "fault=form2@1000-1999: image exit 4" 4
expect_json "fault=form2: listed as form2" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "1000+1000 form2"
expect_json "fault=form2: not bad" .bad_count 0
expect_json "fault=form2: form2_blocks" .form2_blocks 1000
expect_json "fault=form2: verdict" .verdict incomplete
if cmp -s -n $((1000 * 2048)) "$T/o.iso" "$D" &&
   cmp -s -n $((1000 * 2048)) -i $((1000 * 2048)):0 "$T/o.iso" /dev/zero &&
   cmp -s -i $((2000 * 2048)):$((2000 * 2048)) "$T/o.iso" "$D"; then
	ok "fault=form2: OUT is the disc with zeros for the form2 blocks"
else not_ok "fault=form2: OUT is the disc with zeros for the form2 blocks" "differs"; fi
expect_grep "fault=form2: the map lists them" "$T/o.map" '^# cdtail skipped.*1000\+1000 form2'
# a resume reads nothing again and says the same
rm -f "$T/tr"
run image --json --map "$T/o.map" "sim:$D,fault=form2@1000-1999,trace=$T/tr" "$T/o.iso"
expect_rc "fault=form2, resumed: exit 4" 4
expect_json "fault=form2, resumed: nothing read" .blocks_read 0
expect_json "fault=form2, resumed: still listed" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "1000+1000 form2"
run image "sim:$D,fault=form2@1000-1999" "$T/o2.iso"
expect_grep "fault=form2, text: a form2 line" "$T/out" '^form2: +1000 blocks from LBA 1000'
expect_grep "fault=form2, text: verdict incomplete" "$T/out" '^verdict: +incomplete'

# Form 2 and bad blocks: both listed, each as what it is
run image --json "sim:$D,fault=form2@100-109,bad=200-204" "$T/o3.iso"
expect_rc "form2 and bad: exit 4" 4
expect_json "form2 and bad: form2 listed" '.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "100+10 form2"
expect_json "form2 and bad: bad ones bad" '.bad_blocks | tojson' '[[200,204]]'
expect_json "form2 and bad: verdict" .verdict unreadable

# runout=2000: the last 2000 blocks answer 05/64/00; READ CAPACITY, the TOC
# and the track information say 5000; only the last 2 are the run-out
run probe --json "sim:$D,runout=2000"
expect_json "runout=2000: probe's true end below the run-out" .true_blocks 4998
expect_json "runout=2000: notes" '.notes | join(",")' "tao-runout,form2"
run image --json "sim:$D,runout=2000" "$T/r.iso"
expect_rc "runout=2000: image exit 4, never complete" 4
expect_json "runout=2000: the 1998 blocks below the run-out are form2" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "3000+1998 form2"
expect_json "runout=2000: extent" .extent_blocks 4998

# runout=2 stays a run-out: no form2, exit 0 (its probe verdict is issue 24's)
run image --json "sim:$D,runout=2" "$T/r2.iso"
expect_rc "runout=2: image exit 0" 0
expect_json "runout=2: nothing form2" .form2_blocks 0

# hide=1,extra=2,runout=2: past the end is 05/21/00, not a run-out: no form2
run probe --json "sim:$D,hide=1,extra=2,runout=2"
expect_json "extra=2 over a run-out: no form2 note" '.notes | index("form2")' null
expect_json "extra=2 over a run-out: true end" .true_blocks 4998

# a Video-CD-shaped disc: track 2 all Form 2 (MPEG), its last 2 the run-out
run image --json "sim:$D,layout=data:1000+data:4000,runout=4000" "$T/v.iso"
expect_rc "VCD-shaped: image exit 4" 4
expect_json "VCD-shaped: track 2 is form2" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "1000+3998 form2"
# the last 2 answer 05/64/00 as well: nothing tells a run-out from Form 2
# there, and the structure puts a run-out at a data track's last 2 blocks
run image --json "sim:$D,layout=data:1000+data:4000,fault=form2@1000-4999" "$T/v2.iso"
expect_rc "VCD-shaped with fault=form2: image exit 4" 4
expect_json "VCD-shaped with fault=form2: track 2 is form2" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "1000+3998 form2"
# issue 23, item 1: a trailing bad run below the Form 2 blocks is damage
# inside the disc, not its end: the run-out still ends it at 4998
run probe --json "sim:$D,runout=2000,bad=2900-2999"
expect_json "bad run below form2: true end below the run-out" .true_blocks 4998
expect_json "bad run below form2: notes" '.notes | join(",")' "tao-runout,form2"
run image --json "sim:$D,runout=2000,bad=2900-2999" "$T/rb.iso"
expect_rc "bad run below form2: image exit 4" 4
expect_json "bad run below form2: form2 listed" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "3000+1998 form2"
expect_json "bad run below form2: the bad run bad" '.bad_blocks | tojson' '[[2900,2999]]'
# an open disc whose drive refuses READ TOC: the last written track's
# information (the one before the invisible blank track) ends the disc
run probe --json "sim:$D,layout=data:1000+data:4000,runout=6,open=1,profile=cd-r,toc=none"
expect_json "open, no TOC: the track information's end" .sources.track_end 5000
expect_json "open, no TOC: true end below the run-out" .true_blocks 4998
expect_json "open, no TOC: notes" '.notes | join(",")' "tao-runout,appendable,form2"

# issue 23, item 2: verify and tail list Form 2 blocks as image does
rm -f "$T/f.iso"
run image "sim:$D,fault=form2@1000-1999" "$T/f.iso"
run verify --json --image "$T/f.iso" "sim:$D,fault=form2@1000-1999"
expect_rc "verify, form2: exit 4, never identical" 4
expect_json "verify, form2: listed" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "1000+1000 form2"
expect_json "verify, form2: form2_blocks" .form2_blocks 1000
expect_json "verify, form2: not bad" .bad_count 0
expect_json "verify, form2: not a difference" .first_diff_lba null
expect_json "verify, form2: verdict" .verdict incomplete
run verify --json --sha256 "$(sha256sum <"$T/f.iso" | cut -c1-64)" "sim:$D,fault=form2@1000-1999"
expect_rc "verify --sha256, form2: exit 4" 4
expect_json "verify --sha256, form2: verdict" .verdict incomplete
run verify --json --sha256 "$(sha256sum <"$D" | cut -c1-64)" "sim:$D,fault=form2@1000-1999"
expect_rc "verify --sha256 of the disc's bytes, form2: exit 4 (the zeros may be all it differs by)" 4
expect_json "verify --sha256 of the disc's bytes, form2: verdict" .verdict incomplete
run verify --json --image "$T/f.iso" "sim:$D,fault=form2@1000-1999,bad=3000-3001"
expect_rc "verify, form2 and bad: exit 4" 4
expect_json "verify, form2 and bad: verdict" .verdict unreadable
expect_json "verify, form2 and bad: bad ones bad" '.bad_blocks | tojson' '[[3000,3001]]'
head -c $((4000 * 2048)) "$D" >"$T/p.iso"
run verify --json --image "$T/p.iso" "sim:$D,fault=form2@4500-4599"
expect_rc "verify, form2 past a shorter FILE: data follows, exit 1" 1
expect_json "verify, form2 past a shorter FILE: verdict" .verdict prefix
run verify "sim:$D,fault=form2@1000-1999" --image "$T/f.iso"
expect_grep "verify, text: a form2 line" "$T/out" '^form2: +1000 blocks from LBA 1000'
expect_grep "verify, text: verdict incomplete" "$T/out" '^verdict: +incomplete'
run verify --json --image "$T/f.iso" "sim:$D"
expect_rc "verify, no form2 on the drive: FILE's zeros differ, exit 1" 1
expect_json "verify, no form2 on the drive: first difference" .first_diff_lba 1000

# tail: Form 2 blocks in the compared window are passed over and listed.
# (Past the reported end no structure says where a run-out is, so a
# 05/64/00 there still ends the disc for probe, and tail appends up to it.)
head -c $((4900 * 2048)) "$D" >"$T/t2.iso"
run tail --json "sim:$D,hide=100,fault=form2@4870-4879" "$T/t2.iso"
expect_rc "tail, form2 in the compared window: passed over, exit 4" 4
expect_json "tail, form2 in the compared window: appended" .verdict appended
expect_json "tail, form2 in the compared window: listed" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "4870+10 form2"
expect_json "tail, form2 in the compared window: the rest compared" .compared_blocks 54
head -c $((4900 * 2048)) "$D" >"$T/t3.iso"
run tail "sim:$D,hide=100,fault=form2@4870-4879" "$T/t3.iso"
expect_grep "tail, text: a form2 line" "$T/out" '^form2: +10 blocks from LBA 4870'
expect_grep "tail, text: appended" "$T/out" '^verdict: +appended'
# issue 32 item 2: one Form 2 sector inside the extent READ CAPACITY
# reports, a drive that over-reports by 50 and a filesystem declaring 300:
# the end search's forward scan met 05/64/00 at 1000 and took it for the
# end (OUT held 1000 of 2000 blocks, "complete").  It is a block that is
# there: the end is 2000, the sector skipped as form2, never complete.
H="$T/h.img"
mkimage "$H" 2000
pvd "$H" 16 300
for c in "" ",cost=50/1" ",info=1"; do
	run probe --json "sim:$H,fault=form2@1000-1000,extra=50$c"
	expect_json "h.img$c: probe's true end" .true_blocks 2000
	expect_json "h.img$c: the extent" .extent_blocks 2000
	rm -f "$T/h.out"
	run image --json "sim:$H,fault=form2@1000-1000,extra=50$c" "$T/h.out"
	expect_rc "h.img$c: image exit 4" 4
	expect_json "h.img$c: image's extent" .extent_blocks 2000
	expect_json "h.img$c: the sector skipped as form2" \
		'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' "1000+1 form2"
	expect_json "h.img$c: never complete" .verdict incomplete
	if [ "$(stat -c %s "$T/h.out")" -eq $((2000 * 2048)) ] &&
	   cmp -s -n $((1000 * 2048)) "$T/h.out" "$H" &&
	   cmp -s -i $((1001 * 2048)) "$T/h.out" "$H"; then
		ok "h.img$c: OUT holds all 2000 blocks"
	else not_ok "h.img$c: OUT holds all 2000 blocks" "$(stat -c %s "$T/h.out") bytes"; fi
done
# a short run of them, and a sector at the filesystem's size
run probe --json "sim:$H,fault=form2@1000-1009,extra=50"
expect_json "h.img, 10 Form 2 sectors: true end" .true_blocks 2000
run probe --json "sim:$H,fault=form2@300-300"
expect_json "h.img, Form 2 at the filesystem's size: true end" .true_blocks 2000
finish
