#!/bin/sh
# The records of an interrupted and a resumed run end to end (issue 34),
# in the forms test_acqlog.sh does not take: an interrupted image run's
# JSON record (interrupted, end "not searched", no true size, no digests,
# the error filled), an interrupted image --raw run's, the resumed run's
# record (resumed, what was finished before, the whole image's digests,
# only the first run's bytes read back), and export refusing the
# interrupted image (no entry) and exporting the resumed one.
. "$(dirname "$0")/lib.sh"
D="$T/disc.img"
mkimage "$D" 400
cd "$T" || exit 1

# stopped NAME RE N ARGS...: cdtail ARGS stopped by SIGINT once the trace
# t.trace holds N command lines matching RE (the emulated drive is slowed:
# the signal comes during the next)
stopped() {
	name=$1 re=$2 n=$3
	shift 3
	rm -f t.trace
	"$CDTAIL" "$@" >/dev/null 2>"$name.err" &
	pid=$!
	i=0
	while [ $i -lt 400 ]; do
		[ -f t.trace ] && [ "$(grep -c "$re" t.trace)" -ge "$n" ] && break
		sleep 0.01
		i=$((i + 1))
	done
	kill -INT $pid
	wait $pid
	RC=$?
}
SLOW="cost=2000/20,sleep=1,trace=$T/t.trace"

# --- an interrupted image run, its record as JSON -----------------------------
# the probe reads with 5 READ(10) before the copy: the 8th is the copy's third
stopped j '^28 ' 8 image -q --json --map j.map "sim:$D,$SLOW" j.iso
expect_rc "interrupted: exit 130" 130
got=$(jq -r '[.run, .verdict, .interrupted, .status, .medium.end, .medium.true_blocks, .medium.size_bytes, .digests.md5, .digests.sha256, (.error != null and (.error | length) > 0)] | map(tostring) | join(" ")' j.iso.log)
want="image interrupted true 130 not searched null null null null true"
if [ "$got" = "$want" ]; then ok "interrupted, JSON: says so, end not searched, no true size, no digests, the error"; else
	not_ok "interrupted, JSON: says so, end not searched, no true size, no digests, the error" "got:  $got" "want: $want"; fi
first=$(jq -r .reads.blocks_read j.iso.log)
if [ "$first" -gt 0 ] && [ "$first" -lt 400 ]; then ok "interrupted: part of the disc read ($first blocks)"; else
	not_ok "interrupted: part of the disc read" "$first"; fi

# export refuses it, and writes no entry
run export --ewf j.E01 j.iso
expect_rc "export of the interrupted image: refused" 2
expect_grep "export: says it was interrupted" "$T/err" "says its run was interrupted"
if [ "$(wc -l <j.iso.log)" -eq 1 ]; then ok "a refused export leaves no entry"; else
	not_ok "a refused export leaves no entry" "$(wc -l <j.iso.log) lines"; fi

# --- resumed: the second line tells the resume ------------------------------
run image -q --json --map j.map "sim:$D" j.iso
expect_rc "resumed: exit 0" 0
got=$(tail -1 j.iso.log | jq -r '[.verdict, .interrupted, .reads.resumed, .reads.finished_before, .reads.blocks_read, .digest_read_back, .medium.end, .medium.true_blocks, .digests.md5, .digests.sha256, .error] | map(tostring) | join(" ")')
want="complete false true $first $((400 - first)) $((first * 2048)) ok 400 $(md5sum <j.iso | cut -c1-32) $(sha256sum <j.iso | cut -c1-64) null"
if [ "$got" = "$want" ]; then ok "resumed, JSON: what was finished before, the rest read, the whole image's digests"; else
	not_ok "resumed, JSON: what was finished before, the rest read, the whole image's digests" "got:  $got" "want: $want"; fi
cmp -s j.iso "$D" && ok "resumed: the image is the disc" || not_ok "resumed: the image is the disc"

# export takes the resumed run's entry, and appends its own
run export --json --ewf j.E01 j.iso
expect_rc "export of the resumed image: exit 0" 0
expect_json "export: checked against the resumed run's verdict" .verdict complete
if [ "$(jq -sr '[.[] | .run + ":" + .verdict] | join(" ")' j.iso.log)" = "image:interrupted image:complete export:exported" ]; then
	ok "the record tells the three runs"; else not_ok "the record tells the three runs" "$(jq -sc '[.[] | .run + ":" + .verdict]' j.iso.log)"; fi

# --- an interrupted image --raw run -------------------------------------------
# raw searches the end before it copies: stopped before the search (during
# its READ CD probes of block 0), the end is not searched; stopped in the
# copy (READ CDs of 27 sectors), the end it found is said, the copy's
# digests are not
printf 'FILE "disc.img" BINARY\n  TRACK 01 MODE1/2048\n    INDEX 01 00:00:00\n' >raw.cue
stopped r '^be lba=0 blocks=[12] ' 2 image --raw -q "sim:$T/raw.cue,$SLOW" r.cue
expect_rc "raw interrupted before the search: exit 130" 130
expect_grep "raw interrupted: the run" r.cue.log "^run: image --raw$"
expect_grep "raw interrupted: the verdict" r.cue.log "^verdict: interrupted$"
expect_grep "raw interrupted: says so" r.cue.log "^interrupted: true$"
expect_grep "raw interrupted before the search: end not searched" r.cue.log "^  end: not searched$"
expect_grep "raw interrupted before the search: no true end" r.cue.log "^  true_blocks: none$"
expect_grep "raw interrupted: the error" r.cue.log "^error: .+"
expect_grep "raw interrupted: the status" r.cue.log "^status: 130$"
rm -f r.cue r.cue.log r*.bin
stopped r '^be lba=[0-9]* blocks=27 ' 2 image --raw -q "sim:$T/raw.cue,$SLOW" r.cue
expect_rc "raw interrupted in the copy: exit 130" 130
expect_grep "raw interrupted in the copy: the verdict" r.cue.log "^verdict: interrupted$"
expect_grep "raw interrupted in the copy: the end searched before it" r.cue.log "^  end: ok$"
expect_grep "raw interrupted in the copy: the true end it found" r.cue.log "^  true_blocks: 400$"
expect_no_grep "raw interrupted in the copy: no digest of a track file it did not finish" r.cue.log "md5=[0-9a-f]{32}"
finish
