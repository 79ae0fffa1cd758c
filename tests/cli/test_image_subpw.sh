#!/bin/sh
# image --raw --subchannel (issue 33): OUT.sub in CloneCD's layout, every
# disc kind tests/raw/model.py makes imaged on the emulated drive and its
# OUT.sub compared byte for byte with what tests/raw/submodel.py builds from
# the disc's layout apart from the C code (P in pauses, Q from the layout,
# R-W zeros; zeros for a sector left unreadable); the JSON's Q CRC and
# zeroed counts; resumes (a bad area read later, SIGKILL) and OUT.sub kept
# consistent with the map; a drive without raw P-W (subchannel=q).
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
SUB="$ROOT/tests/raw/submodel.py"
for k in mixed cdextra vcd audio iso multi bad; do
	python3 "$MODEL" disc "$k" "$T" || { not_ok "model.py disc $k"; finish; exit 1; }
done
mkdir "$T/o"

# subs NAME KIND OUT.sub [--zero LBA,...]: OUT.sub is the model's
subs() {
	s_name=$1 s_kind=$2 s_sub=$3
	shift 3
	got=$(python3 "$SUB" "$T/$s_kind.json" "$s_sub" "$@" 2>&1)
	if [ "$got" = same ]; then ok "$s_name"; else not_ok "$s_name" "$got"; fi
}

# --- every kind: data, audio, mixed, Mode 2, multi-session ---------------------------
for k in mixed cdextra vcd audio iso multi; do
	run image --raw --subchannel --json "sim:$T/$k.cue,trackinfo=pregap" "$T/o/$k.cue"
	expect_rc "$k: image --raw --subchannel -> 0" 0
	expect_json "$k: JSON names OUT.sub" .subchannel "$T/o/$k.sub"
	expect_json "$k: no Q CRC error, no zeroed record" \
		'[.tracks[] | .q_crc_errors + .sub_zeroed] | add' 0
	subs "$k: OUT.sub is the model's, record for record" "$k" "$T/o/$k.sub"
done
expect_json "multi: a sector of OUT.sub for each stored sector" \
	"$(stat -c %s "$T/o/multi.sub") / 96" "$(jq .stream_sectors "$T/out")"
run image --raw --subchannel "sim:$T/audio.cue,trackinfo=pregap" "$T/o/text.cue"
expect_grep "text: the subchannel line" "$T/out" \
	"^subchannel: $T/o/text.sub, Q CRC errors 0, 0 records zeros \\(not read\\)\$"
run image --raw --json "sim:$T/iso.cue,trackinfo=pregap" "$T/o/nosub.cue"
expect_json "without --subchannel: no OUT.sub, null" .subchannel null
expect_json "without --subchannel: no per-track counts" '.tracks[0] | has("q_crc_errors")' false
if [ -e "$T/o/nosub.sub" ]; then not_ok "without --subchannel: no OUT.sub file"; else
	ok "without --subchannel: no OUT.sub file"; fi

# --- the drive's largest transfer: 2352 + 294 + 96 bytes a sector, 23 in 64 KiB ----------
run image --raw --subchannel --chunk 27 --json \
	"sim:$T/mixed.cue,trackinfo=pregap,maxxfer=65536,trace=$T/mx.tr" "$T/o/mx.cue"
expect_rc "maxxfer=65536, --chunk 27: -> 0" 0
subs "maxxfer: OUT.sub the model's" mixed "$T/o/mx.sub"
big=$(awk '$1 == "be" { split($3, b, "="); if (b[2] + 0 > 23) n++ } END { print n + 0 }' "$T/mx.tr")
most=$(awk '$1 == "be" { split($3, b, "="); if (b[2] + 0 > m) m = b[2] + 0 } END { print m + 0 }' "$T/mx.tr")
if [ "$big" = 0 ] && [ "$most" = 23 ]; then ok "no READ CD over 23 sectors, some of 23"; else
	not_ok "no READ CD over 23 sectors, some of 23" "$big over, the most $most"; fi

# --- unreadable sectors: zeros, counted, no Q made up ---------------------------------
run image --raw --subchannel --json "sim:$T/bad.cue,trackinfo=pregap" "$T/o/bad.cue"
expect_rc "bad: a sector failing its EDC -> 4" 4
expect_json "bad: its record counted as zeroed" '.tracks[0].sub_zeroed' 1
subs "bad: its record is zeros, the others the model's" bad "$T/o/bad.sub" --zero 40
bad="sim:$T/mixed.cue,trackinfo=pregap,bad=300-309"
run image --raw --subchannel --json --map "$T/o/r.map" "$bad" "$T/o/r.cue"
expect_rc "bad= in track 2: -> 4" 4
expect_json "bad=: 10 zeroed records in track 2" '[.tracks[] | .sub_zeroed] | tostring' '[0,10,0]'
subs "bad=: zeros there, the model's elsewhere" mixed "$T/o/r.sub" \
	--zero 300,301,302,303,304,305,306,307,308,309
# the same map, the area readable now: its records are filled in, the rest kept
run image --raw --subchannel --json --map "$T/o/r.map" "sim:$T/mixed.cue,trackinfo=pregap" "$T/o/r.cue"
expect_rc "resume, the bad area reads now: -> 0" 0
expect_json "resume: resumed, nothing zeroed" '[.resumed, ([.tracks[] | .sub_zeroed] | add)] | tostring' '[true,0]'
subs "resume: OUT.sub whole and the model's" mixed "$T/o/r.sub"

# --- Q CRC errors are counted from OUT.sub (a resumed run counts what it holds) -------
printf '\125' | dd of="$T/o/r.sub" bs=1 seek=$((200 * 96 + 15)) conv=notrunc 2>/dev/null
run image --raw --subchannel --json --map "$T/o/r.map" "sim:$T/mixed.cue,trackinfo=pregap" "$T/o/r.cue"
expect_json "a finished map: nothing read again" .blocks_read 0
expect_json "a record whose Q CRC fails: counted in its track" \
	'[.tracks[] | .q_crc_errors] | tostring' '[0,1,0]'

# --- OUT.sub and the map agree, or the run is refused -------------------------------
run image --raw --json --map "$T/o/r.map" "sim:$T/mixed.cue,trackinfo=pregap" "$T/o/r.cue"
expect_rc "resume without --subchannel of a run that stored it: -> 2" 2
expect_grep "says to add --subchannel" "$T/err" 'r\.sub exists: .*add --subchannel'
expect_no_grep "no resume offered with the same command" "$T/err" "run the same command again"
run image --raw --json --map "$T/o/n.map" "sim:$T/iso.cue,trackinfo=pregap,bad=100-109" "$T/o/n.cue"
run image --raw --subchannel --json --map "$T/o/n.map" "sim:$T/iso.cue,trackinfo=pregap" "$T/o/n.cue"
expect_rc "resume with --subchannel of a run without: -> 2" 2
expect_grep "says it is missing" "$T/err" 'n\.sub is missing: the map.s run stored no subchannel'
expect_no_grep "missing: no resume offered with the same command" "$T/err" "run the same command again"
run image --raw --json "sim:$T/iso.cue,trackinfo=pregap" "$T/o/iso.cue"
expect_rc "a new image beside an OUT.sub, no --force: -> 2" 2
run image --raw --force --json "sim:$T/iso.cue,trackinfo=pregap" "$T/o/iso.cue"
expect_rc "with --force: -> 0" 0
if [ -e "$T/o/iso.sub" ]; then not_ok "--force without --subchannel: the old OUT.sub is gone"; else
	ok "--force without --subchannel: the old OUT.sub is gone"; fi
run image --raw --subchannel --json "sim:$T/iso.cue,trackinfo=pregap" "$T/o/iso.cue"
expect_rc "--subchannel over existing files, no --force: -> 2" 2

# --- resumable: SIGKILL on a slow drive, then the same command -----------------------
slow="sim:$T/audio.cue,trackinfo=pregap,sleep=1,cost=3000/1,trace=$T/tr"
M="$T/o/k.map"
kill_at "$T/tr" 60 image --raw --subchannel -q --chunk 8 --map "$M" --map-interval 1 "$slow" "$T/o/k.cue"
if [ $KILLED = 1 ] && grep -q '^0x' "$M"; then ok "SIGKILL mid-run leaves a map"; else
	not_ok "SIGKILL mid-run leaves a map" "$(cat "$T/kill.err")"; fi
run image --raw --subchannel --json --map "$M" "sim:$T/audio.cue,trackinfo=pregap" "$T/o/k.cue"
expect_rc "resume after SIGKILL: -> 0" 0
expect_json "resume: sectors were finished before" '.resumed and .finished_before > 0' true
subs "resume after SIGKILL: OUT.sub is the model's" audio "$T/o/k.sub"

# --- a drive without raw P-W; usage ----------------------------------------------------
run image --raw --subchannel "sim:$T/mixed.cue,subchannel=q" "$T/o/np.cue"
expect_rc "subchannel=q: --subchannel refused -> 2" 2
expect_grep "says the drive gives no raw P-W" "$T/err" 'does not return the raw P-W subchannel'
if ls "$T/o" | grep -q '^np'; then not_ok "refused: nothing left behind"; else
	ok "refused: nothing left behind"; fi
run probe --json "sim:$T/mixed.cue,subchannel=q"
expect_json "subchannel=q: probe says no raw P-W, formatted Q kept" \
	'[.raw.subchannel_pw, .raw.subchannel_q] | tostring' '[false,true]'
run image --raw --json "sim:$T/mixed.cue,subchannel=q,trackinfo=pregap" "$T/o/np.cue"
expect_rc "subchannel=q without --subchannel: images -> 0" 0
run image --subchannel "sim:$T/iso.cue" "$T/o/x.iso"
expect_rc "--subchannel without --raw: -> 2" 2
expect_grep "says it needs --raw" "$T/err" 'subchannel is part of a raw image: it needs --raw'

finish
