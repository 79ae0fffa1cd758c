#!/bin/sh
# The emulated drive's ADR 2/3 Q frames (qadr=N) and its Q control nibble
# from the sheet's FLAGS: on sheets with a CATALOG, ISRCs, FLAGS, pregaps
# (stored, PREGAP, a later session's, one the drive makes) and INDEX 02..,
# for several N, on formatted Q and raw P-W, probe
# and image --raw find the same pregaps and index marks as without the key
# (the frames without a position go with the one before: probe/qindex.c),
# in a bounded number of Q reads; OUT.sub is what tests/raw/submodel.py
# builds with the mode 2/3 frames and FLAGS, and verify --cue of it passes.
. "$(dirname "$0")/lib.sh"

MODEL="$ROOT/tests/raw/model.py"
CHECK="$ROOT/tests/raw/bincheck.py"
SUB="$ROOT/tests/raw/submodel.py"
for k in mixed cdextra audio multi; do
	python3 "$MODEL" disc "$k" "$T" || { not_ok "model.py disc $k"; finish; exit 1; }
done

# ids SHEET CATALOG TRACK=ISRC[:FLAG[,FLAG]]...: the sheet with a CATALOG
# line (none when "-") and each named track's ISRC and FLAGS lines
ids() {
	sheet=$1 cat=$2
	shift 2
	awk -v cat="$cat" -v spec="$*" '
		BEGIN { if (cat != "-") print "CATALOG " cat
			n = split(spec, s, " ")
			for (i = 1; i <= n; i++) {
				split(s[i], kv, "="); split(kv[2], f, ":")
				gsub(",", " ", f[2])
				isrc[kv[1] + 0] = f[1]; flags[kv[1] + 0] = f[2] } }
		{ print }
		/^  TRACK / { t = $2 + 0
			if (isrc[t] != "") print "    ISRC " isrc[t]
			if (flags[t] != "") print "    FLAGS " flags[t] }' "$sheet" >"$sheet.new" &&
		mv "$sheet.new" "$sheet"
}

# the disc audio.json describes (its files) with INDEX 02.. marks
cat >"$T/idx.cue" <<EOF2
FILE "audio (Track 1).bin" BINARY
  TRACK 01 AUDIO
    INDEX 01 00:00:00
    INDEX 02 00:01:00
FILE "audio (Track 2).bin" BINARY
  TRACK 02 AUDIO
    INDEX 00 00:00:00
    INDEX 01 00:02:00
    INDEX 02 00:03:10
    INDEX 04 00:05:00
EOF2
ids "$T/mixed.cue" 0123456789012 "2=USRC17607839:DCP,PRE" "3=GBAYE0000351:4CH"
ids "$T/cdextra.cue" - "1=FRZ039800212:DCP" "2=DEA123456789"
ids "$T/idx.cue" 7777777777777 "1=JPXX01234567:PRE" "2=USABC9912345"
ids "$T/multi.cue" 4006381333931 "2=:DCP"

# the submodel.py arguments of each sheet
args_mixed="--catalog 0123456789012 --isrc 2=USRC17607839 --flags 2=3 --isrc 3=GBAYE0000351 --flags 3=8"
args_cdextra="--isrc 1=FRZ039800212 --flags 1=2 --isrc 2=DEA123456789"
args_multi="--catalog 4006381333931 --flags 2=2"
args_idx="--catalog 7777777777777 --isrc 1=JPXX01234567 --flags 1=1 --isrc 2=USABC9912345 --mark 1=2@75 --mark 2=2@85 --mark 2=4@225"

# the disc's marks as probe and image --raw give them
MARKS='[.tracks[] | "\(.pregap):" + (.indexes | map("\(.number)@\(.lba)") | join(" "))] | join(",")'

json_mixed=mixed json_cdextra=cdextra json_idx=audio json_multi=multi
for k in mixed cdextra idx multi; do
	eval "args=\$args_$k json=\$T/\$json_$k.json"
	# without the key: the marks and reads to compare with
	run probe --json "sim:$T/$k.cue"
	base_marks=$(jq -r "$MARKS" "$T/out")
	base_reads=$(jq -r .q_reads "$T/out")
	expect_json "$k: probe finds the marks from Q" .qmarks found
	for n in 2 3 10 100; do
		for sub in all q pw; do
			dev="sim:$T/$k.cue,qadr=$n,subchannel=$sub"
			run probe --json "$dev"
			expect_json "$k, qadr=$n, subchannel=$sub: probe's marks as without the key" \
				"$MARKS" "$base_marks"
			expect_json "$k, qadr=$n, subchannel=$sub: Q reads at most twice as many" \
				"(.q_reads > 0 and .q_reads <= 2 * $base_reads)" true
		done
		dev="sim:$T/$k.cue,qadr=$n"
		rm -rf "$T/o"; mkdir "$T/o"
		run image --raw --subchannel --json "$dev" "$T/o/$k.cue"
		expect_rc "$k, qadr=$n: image --raw --subchannel -> 0" 0
		expect_json "$k, qadr=$n: image --raw's marks as without the key" "$MARKS" "$base_marks"
		expect_json "$k, qadr=$n: image --raw's Q reads at most twice as many" \
			"(.q_reads > 0 and .q_reads <= 2 * $base_reads)" true
		got=$(python3 "$CHECK" "$json" "$T/o/$k.cue" --split 2>&1)
		if [ "$got" = same ]; then ok "$k, qadr=$n: each track's file from its pregap"
		else not_ok "$k, qadr=$n: each track's file from its pregap" "$got"; fi
		# shellcheck disable=SC2086
		got=$(python3 "$SUB" "$json" "$T/o/$k.sub" --qadr $n $args 2>&1)
		if [ "$got" = same ]; then ok "$k, qadr=$n: OUT.sub is the model's"
		else not_ok "$k, qadr=$n: OUT.sub is the model's" "$got"; fi
		run verify --cue "$T/o/$k.cue" --json "$dev"
		expect_rc "$k, qadr=$n: verify --cue with OUT.sub -> 0" 0
		expect_json "$k, qadr=$n: no P-W difference" \
			'[.verdict, ([.tracks[] | .sub_diff_sectors] | add)] | tostring' '["identical",0]'
	done
done

# the model itself sees the frames: OUT.sub of qadr=100 is not the model without the key
# shellcheck disable=SC2086
got=$(python3 "$SUB" "$T/multi.json" "$T/o/multi.sub" $args_multi 2>&1)
case $got in
*"records differ"*) ok "multi, qadr=100: OUT.sub has frames the model without the key lacks" ;;
*) not_ok "multi, qadr=100: OUT.sub has frames the model without the key lacks" "$got" ;;
esac
# and FLAGS: the control nibble of track 2 of mixed without the key is 3
rm -rf "$T/o"; mkdir "$T/o"
run image --raw --subchannel --json "sim:$T/mixed.cue" "$T/o/mixed.cue"
# shellcheck disable=SC2086
got=$(python3 "$SUB" "$T/mixed.json" "$T/o/mixed.sub" $args_mixed 2>&1)
if [ "$got" = same ]; then ok "mixed without qadr: OUT.sub with FLAGS in Q"
else not_ok "mixed without qadr: OUT.sub with FLAGS in Q" "$got"; fi
q=$(od -An -tx1 -j $((120 * 96 + 12)) -N1 "$T/o/mixed.sub" | tr -d ' ')
if [ "$q" = 31 ]; then ok "mixed: track 2's first Q control 3 (DCP PRE), ADR 1"
else not_ok "mixed: track 2's first Q control 3 (DCP PRE), ADR 1" "byte $q"; fi

# --- the key's values ---------------------------------------------------------
for v in 0 1 x 1000001; do
	run probe "sim:$T/mixed.cue,qadr=$v"
	expect_rc "qadr=$v: a usage error" 2
	expect_grep "qadr=$v: says what it wants" "$T/err" 'qadr.*from 2 to 1000000'
done
finish
