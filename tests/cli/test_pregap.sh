#!/bin/sh
# Pregaps and READ TRACK INFORMATION's two styles (issue 23; cdtail(1),
# layout= ~P and trackinfo=; doc/disc-kinds.md): the mixed-mode disc that
# CDEmu serves (track 1 data 402 blocks, track 2 audio with a 2-second
# pregap at 402..551 and index 01 at 552) as a drive that starts tracks at
# index 01 and as one that starts them at the pregap (track 1 from -150).
# probe knows the pregap as such, the data track ends where its data does,
# and image, verify and tail skip the pregap as "pregap": never read, never
# bad, never a run-out; the perfect disc images and verifies with exit 0.
. "$(dirname "$0")/lib.sh"

MM="$T/mixed.img"
mkimage "$MM" $((402 + 150 + 750))
head -c $((402 * 2048)) "$MM" >"$T/data.iso"
WANT_TRACKS='[{"number":1,"session":1,"mode":"data","start":0,"blocks":402,"pregap":0},{"number":2,"session":1,"mode":"audio","start":552,"blocks":750,"pregap":150}]'

for style in index1 pregap; do
	DEV="sim:$MM,layout=data:402+audio:750~150,trackinfo=$style"
	run probe --json "$DEV"
	expect_rc "mixed mode, trackinfo=$style: probe exit 0" 0
	expect_json "mixed mode, trackinfo=$style: tracks with their pregaps" \
		'.tracks | tojson' "$WANT_TRACKS"
	# a signed start (-150) read unsigned once gave 4294969289 here
	expect_json "mixed mode, trackinfo=$style: track information's end" \
		.sources.track_end 1302
	expect_json "mixed mode, trackinfo=$style: verdict" .verdict ok

	run probe "$DEV"
	expect_grep "mixed mode, trackinfo=$style: the table shows the pregap" "$T/out" \
		'^ +2 +1 audio +552 +750 +150$'

	rm -f "$T/out.iso" "$T/tr"
	run image --json "$DEV,trace=$T/tr" "$T/out.iso"
	expect_rc "mixed mode, trackinfo=$style: image exit 0" 0
	expect_json "mixed mode, trackinfo=$style: image skips pregap and audio" \
		'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' \
		"402+150 pregap,552+750 audio"
	expect_json "mixed mode, trackinfo=$style: no bad block" .bad_count 0
	expect_json "mixed mode, trackinfo=$style: complete" .verdict complete
	no_read "mixed mode, trackinfo=$style: image reads nothing of the pregap or audio" \
		"$DEV" "$T/tr" 402 1302
	if cmp -s -n $((402 * 2048)) "$T/out.iso" "$T/data.iso"; then
		ok "mixed mode, trackinfo=$style: the data track's blocks"
	else not_ok "mixed mode, trackinfo=$style: the data track's blocks" "differ"; fi

	run verify --json "$DEV" --image "$T/out.iso"
	expect_rc "mixed mode, trackinfo=$style: verify exit 0" 0

done

# tail: a CD-Extra whose first session is the mixed-mode disc; dd stopped at
# the reported end, 20 blocks into the data session
CX="$T/cx.img"
mkimage "$CX" $((402 + 150 + 750 + 11400 + 600))
head -c $(((13302 - 580) * 2048)) "$CX" >"$T/cx-dd.iso"
for style in index1 pregap; do
	cp "$T/cx-dd.iso" "$T/dd.iso"
	run tail --json "sim:$CX,layout=data:402+audio:750~150/data:600,hide=580,trackinfo=$style" "$T/dd.iso"
	expect_rc "CD-Extra with a pregap, trackinfo=$style: tail exit 0" 0
	expect_json "CD-Extra with a pregap, trackinfo=$style: tail skips it" \
		'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' \
		"402+150 pregap,552+750 audio,1302+11400 gap"
	expect_json "CD-Extra with a pregap, trackinfo=$style: appended" .appended_blocks 580
	if cmp -s "$T/dd.iso" "$CX"; then ok "CD-Extra with a pregap, trackinfo=$style: IMAGE is the disc"
	else not_ok "CD-Extra with a pregap, trackinfo=$style: IMAGE is the disc" "differs"; fi
done

# index 01 starts only: the pregap is the run of 05/64/00 at the data
# track's end, found with the standard 2 seconds tried first: 4 reads of
# single blocks (550, 549, 402 failing; 401 reading)
rm -f "$T/tr"
"$CDTAIL" probe "sim:$MM,layout=data:402+audio:750~150,trace=$T/tr" >/dev/null 2>&1
got=$(awk '$1 == "28" && $3 == "blocks=1" { split($2, a, "="); printf "%s ", a[2] }' "$T/tr")
if [ "$got" = "550 549 402 401 " ]; then ok "index1: the pregap found in 4 reads"
else not_ok "index1: the pregap found in 4 reads" "single-block reads: $got"; fi

# a pregap of another length is found as well (halving)
P37="$T/p37.img"
mkimage "$P37" $((402 + 37 + 750))
run probe --json "sim:$P37,layout=data:402+audio:750~37"
expect_json "index1, a 37-block pregap: tracks" '.tracks | map("\(.start)+\(.blocks)~\(.pregap)") | join(",")' \
	"0+402~0,439+750~37"

# a TAO data track before the pregap: with index 01 starts its run-out and
# the pregap are one run of 05/64/00, taken as the pregap; with the pregap
# style the track information tells them apart
for style in index1 pregap; do
	run image --json "sim:$MM,layout=data:402+audio:750~150,tao=1,trackinfo=$style" "$T/tao-$style.iso"
	expect_rc "TAO + pregap, trackinfo=$style: image exit 0" 0
	expect_json "TAO + pregap, trackinfo=$style: nothing bad" .bad_count 0
done
expect_json "TAO + pregap, trackinfo=pregap: run-out and pregap apart" \
	'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' \
	"400+2 runout,402+150 pregap,552+750 audio"

# a data track's pregap is data: read and imaged like the rest
DD="$T/dd2.img"
mkimage "$DD" $((300 + 100 + 400))
for style in index1 pregap; do
	rm -f "$T/dd2.iso"
	run image --json "sim:$DD,layout=data:300+data:400~100,trackinfo=$style" "$T/dd2.iso"
	expect_rc "data pregap, trackinfo=$style: image exit 0" 0
	expect_json "data pregap, trackinfo=$style: nothing skipped" '.skipped | length' 0
	if cmp -s "$T/dd2.iso" "$DD"; then ok "data pregap, trackinfo=$style: OUT is the disc"
	else not_ok "data pregap, trackinfo=$style: OUT is the disc" "differs"; fi
done

# an audio pregap before track 1 (LBA 0 up to index 01, a hidden track's
# place) and before a later session's first track
HT="$T/ht.img"
mkimage "$HT" $((100 + 500 + 11400 + 300))
for style in index1 pregap; do
	run probe --json "sim:$HT,layout=audio:500~100/data:300,trackinfo=$style"
	expect_json "pregap before track 1, trackinfo=$style: tracks" \
		'.tracks | map("\(.start)+\(.blocks)~\(.pregap)") | join(",")' \
		"100+500~100,12000+300~0"
	run image --json "sim:$HT,layout=audio:500~100/data:300,trackinfo=$style" "$T/ht-$style.iso"
	expect_rc "pregap before track 1, trackinfo=$style: image exit 0" 0
	expect_json "pregap before track 1, trackinfo=$style: skipped" \
		'.skipped | map("\(.start)+\(.blocks) \(.why)") | join(",")' \
		"0+100 pregap,100+500 audio,600+11400 gap"
done

# layout= syntax: a pregap is ~P with P >= 1 after the track's blocks
run probe "sim:$MM,layout=data:402+audio:750~0"
expect_rc "layout= ~0: usage" 2
run probe "sim:$MM,layout=data:402+audio~150:750"
expect_rc "layout= ~ before the blocks: usage" 2
run probe "sim:$MM,layout=data:402+audio:750"
expect_rc "layout= without the pregap's 150 blocks: usage" 2
expect_err_line "layout= without the pregap: both counts named" "1152 blocks.*1302"
run probe "sim:$MM,trackinfo=both"
expect_rc "trackinfo=both: usage" 2
finish
