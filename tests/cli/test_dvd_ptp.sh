#!/bin/sh
# A parallel-track-path dual-layer DVD (issue 36): layer 1 has its own
# physical format descriptor, asked with LAYER NUMBER 1; the disc's size is
# both layers' data areas added (sim structure=END:L0:ptp), and absent where
# the drive refuses layer 1's (structure=END:L0:ptp-l0only), never guessed.
. "$(dirname "$0")/lib.sh"

D="$T/d.img"
mkimage "$D" 3000

# both descriptors: layer 0 of 1600 blocks, layer 1 of 1400
rm -f "$T/p.tr"
run probe --json "sim:$D,profile=dvd-rom,structure=3000:1600:ptp,trace=$T/p.tr"
expect_rc "ptp: probe exit 0" 0
expect_json "ptp: the two layers added" .sources.disc_structure 3000
expect_json "ptp: two layers, parallel, layer 0's blocks" \
	'"\(.structure.type) \(.structure.layers) \(.structure.track_path) \(.structure.layer0_blocks)"' \
	"DVD-ROM 2 parallel 1600"
expect_json "ptp: not wrong" '.wrong_sources | index("disc_structure") == null' true
expect_json "ptp: verdict ok" .verdict ok
if [ "$(grep -c '^ad .*sense=00/00/00' "$T/p.tr")" = 2 ]; then
	ok "ptp: READ DISC STRUCTURE asked twice (layer 0, layer 1), both answered"
else
	not_ok "ptp: READ DISC STRUCTURE asked twice" "$(grep '^ad ' "$T/p.tr")"
fi
run probe "sim:$D,profile=dvd-rom,structure=3000:1600:ptp"
expect_grep "ptp, text: the source row" "$T/out" '^  disc structure +3000  right'
expect_grep "ptp, text: the structure line and layer 0's end" "$T/out" \
	'^structure: DVD-ROM version 1, 2 layers, parallel track path; layer 0: 1600 blocks \(layer 1 from LBA 1600\)$'

# READ CAPACITY hides the tail: the structure knows it, READ CAPACITY lied
run probe --json "sim:$D,profile=dvd-rom,hide=1000,structure=3000:1600:ptp"
expect_json "ptp, hide=1000: structure right" .sources.disc_structure 3000
expect_json "ptp, hide=1000: READ CAPACITY wrong" '.wrong_sources | index("read_capacity") != null' true
expect_json "ptp, hide=1000: structure not wrong" '.wrong_sources | index("disc_structure") == null' true
expect_json "ptp, hide=1000: true end 3000" .true_blocks 3000
expect_json "ptp, hide=1000: hidden-tail" .verdict hidden-tail

# a structure that lies (layer 1 says 500 blocks more than the disc holds)
run probe --json "sim:$D,profile=dvd-rom,structure=3500:1600:ptp"
expect_json "ptp 3500: the sum as the source" .sources.disc_structure 3500
expect_json "ptp 3500: wrong" '.wrong_sources | index("disc_structure") != null' true
expect_json "ptp 3500: READ CAPACITY right" '.wrong_sources | index("read_capacity") == null' true
expect_json "ptp 3500: true end 3000" .true_blocks 3000
run probe "sim:$D,profile=dvd-rom,structure=3500:1600:ptp"
expect_grep "ptp 3500, text: 500 too many" "$T/out" '^  disc structure +3500  wrong \(500 too many\)'

# layer 1's descriptor refused: the size absent, layers and layer 0 shown
rm -f "$T/r.tr"
run probe --json "sim:$D,profile=dvd-rom,structure=3000:1600:ptp-l0only,trace=$T/r.tr"
expect_rc "ptp-l0only: probe exit 0" 0
expect_json "ptp-l0only: absent, never guessed" .sources.disc_structure null
expect_json "ptp-l0only: layers still shown" \
	'"\(.structure.layers) \(.structure.track_path) \(.structure.layer0_blocks)"' "2 parallel 1600"
expect_json "ptp-l0only: true end 3000" .true_blocks 3000
expect_grep "ptp-l0only: layer 1's request refused 05/24/00" "$T/r.tr" '^ad .*sense=05/24/00'
run probe "sim:$D,profile=dvd-rom,structure=3000:1600:ptp-l0only"
expect_grep "ptp-l0only, text: a dash" "$T/out" '^  disc structure +-$'
expect_grep "ptp-l0only, text: the structure line" "$T/out" \
	'^structure: DVD-ROM version 1, 2 layers, parallel track path; layer 0: 1600 blocks'
# refused with READ CAPACITY hiding the tail: nothing made up from layer 0
run probe --json "sim:$D,profile=dvd-rom,hide=1000,structure=3000:1600:ptp-l0only"
expect_json "ptp-l0only, hide=1000: absent" .sources.disc_structure null
expect_json "ptp-l0only, hide=1000: READ CAPACITY 2000" .sources.read_capacity 2000

# an opposite-path disc asks one descriptor only, as before
rm -f "$T/o.tr"
run probe --json "sim:$D,profile=dvd-rom,structure=3000:1600:otp,trace=$T/o.tr"
expect_json "otp spelled out: opposite" .structure.track_path opposite
expect_json "otp spelled out: both layers" .sources.disc_structure 3000
if [ "$(grep -c '^ad ' "$T/o.tr")" = 1 ]; then
	ok "otp: READ DISC STRUCTURE asked once"
else
	not_ok "otp: READ DISC STRUCTURE asked once" "$(grep '^ad ' "$T/o.tr")"
fi

# the key's third field
run probe "sim:$D,structure=3000:1600:xyz"
expect_rc "structure=3000:1600:xyz: usage" 2
expect_err_line "structure=...:xyz: names the spellings" \
	"bad value '3000:1600:xyz' for key 'structure' \\(want END\\[:L0\\[:otp\\|ptp\\|ptp-l0only\\]\\]"
run probe "sim:$D,structure=3000:1600:"
expect_rc "structure=3000:1600: (empty path): usage" 2
run probe "sim:$D,structure=3000::ptp"
expect_rc "structure=3000::ptp: usage" 2
run probe "sim:$D,structure=3000:3000:ptp"
expect_rc "structure=3000:3000:ptp: usage" 2

finish
