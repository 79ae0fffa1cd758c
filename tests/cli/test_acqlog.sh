#!/bin/sh
# The acquisition log of cdtail image (OUT.log, --log FILE, --no-log): one
# entry a run, appended; its fields checked against what the same run and
# independent tools (probe --json, md5sum, sha256sum, dd) say.
. "$(dirname "$0")/lib.sh"
D="$T/disc.img"
mkimage "$D" 400
cd "$T" || exit 1
DEV="sim:$D,hide=5,bad=20-24:300-301,layout=data:350+audio:50"

# field NAME FILE KEY: the text log's "KEY: value" line at the top level of the entry N
tfield() { sed -n "/^==== cdtail acquisition log/,\$p" "$1" | grep -m1 "^$2:" | sed "s/^$2: //"; }

run image -q --map d.map "$DEV" d.iso
expect_rc "a damaged disc images with bad blocks" 4
"$CDTAIL" probe --json "$DEV" >probe.json
if [ -s d.iso.log ]; then ok "OUT.log is written beside OUT"; else not_ok "OUT.log is written beside OUT"; fi
L=d.iso.log
expect_grep "the tool's version" $L "^tool: $("$CDTAIL" --version)$"
expect_grep "the command line" $L "^command: cdtail image -q --map d.map sim:.*disc.img,hide=5,bad=20-24:300-301,layout=data:350\+audio:50 d.iso$"
expect_grep "start and end times" $L "^started: 20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$"
expect_grep "the drive's vendor" $L "^  vendor: $(jq -r .drive.vendor probe.json)$"
expect_grep "the drive's product" $L "^  product: $(jq -r .drive.product probe.json)$"
expect_grep "the drive's revision" $L "^  revision: $(jq -r .drive.revision probe.json)$"
expect_grep "no serial from the emulated drive (it refuses VPD pages)" $L "^  serial: none$"
for k in read_capacity toc_leadout track_end filesystem; do
	want=$(jq -r ".sources.$k // \"none\"" probe.json)
	expect_grep "size source $k as probe says" $L "^    $k: $want$"
done
expect_grep "reported blocks" $L "^  reported_blocks: $(jq -r .reported_blocks probe.json)$"
expect_grep "true blocks" $L "^  true_blocks: $(jq -r .true_blocks probe.json)$"
expect_grep "the bad areas" $L "^  - start=20 blocks=5$"
expect_grep "the second bad area" $L "^  - start=300 blocks=2$"
expect_grep "the skipped audio (hide= shortens the last track)" $L "^  - start=350 blocks=45 why=audio$"
expect_grep "the image's md5" $L "^  md5: $(md5sum <d.iso | cut -c1-32)$"
expect_grep "the image's sha256" $L "^  sha256: $(sha256sum <d.iso | cut -c1-64)$"
trk=$(dd if=d.iso bs=2048 count=350 2>/dev/null | sha256sum | cut -c1-64)
expect_grep "track 1's sha256 over its blocks" $L "^  - number=1 session=1 start=0 blocks=350 md5=[0-9a-f]{32} sha256=$trk$"
expect_grep "the verdict" $L "^verdict: unreadable$"
expect_grep "the status" $L "^status: 4$"
expect_grep "the retry policy" $L "^  retries: plan$"

# a second run on the same map appends
run image -q --map d.map --retries 1 "$DEV" d.iso
n=$(grep -c '^==== cdtail acquisition log' $L)
if [ "$n" -eq 2 ]; then ok "a resume appends a second entry"; else not_ok "a resume appends a second entry" "$n entries"; fi
sed -n '/^==== cdtail acquisition log/h; /^==== cdtail acquisition log/!H; ${x;p}' $L >second
expect_grep "the second entry says it resumed" second "^  resumed: true$"
expect_grep "the second entry's retries" second "^  retries: 1$"

# --json: the entries are JSON lines with the same keys as the text
run image -q --json --log j.log "$DEV" j.iso
expect_rc "image --json with --log" 4
if jq -e . j.log >/dev/null 2>&1 && [ "$(wc -l <j.log)" -eq 1 ]; then ok "--json: one JSON line"; else
	not_ok "--json: one JSON line" "$(head -c 300 j.log)"; fi
expect_json "--json: stdout is the run's own JSON" .verdict unreadable
jk=$(jq -r 'keys_unsorted | join(" ")' j.log)
tk=$(grep -E '^[a-z_]+:' $L | head -$(echo $jk | wc -w) | cut -d: -f1 | tr '\n' ' ' | sed 's/ $//')
if [ "$jk" = "$tk" ]; then ok "the JSON and text entries have the same keys: $jk"; else
	not_ok "the JSON and text entries have the same keys" "json: $jk" "text: $tk"; fi
if [ "$(jq -r '.digests.sha256' j.log)" = "$(sha256sum <j.iso | cut -c1-64)" ]; then
	ok "--json: the image's sha256"; else not_ok "--json: the image's sha256"; fi
if [ "$(jq -r '.tracks[0].digests.sha256' j.log)" = "$(dd if=j.iso bs=2048 count=350 2>/dev/null | sha256sum | cut -c1-64)" ]; then
	ok "--json: track 1's sha256"; else not_ok "--json: track 1's sha256"; fi
expect_json "--json: bad areas" '.bad_count' 7
run image -q --force --log j.log "$DEV" j.iso
if [ "$(wc -l <j.log)" -eq 2 ] && jq -e . j.log >/dev/null 2>&1; then
	ok "a JSON log stays JSON on a run without --json"; else not_ok "a JSON log stays JSON on a run without --json"; fi

# --no-log, and bad uses
run image -q --no-log "sim:$D" n.iso
if [ -e n.iso ] && [ ! -e n.iso.log ]; then ok "--no-log writes none"; else not_ok "--no-log writes none"; fi
run image -q --log d.map --map d.map "sim:$D" x.iso
expect_rc "a log that is the map is a usage error" 2
expect_grep "it says so" "$T/err" "the log d.map is also d.map"
run image -q --log l --no-log "sim:$D" x.iso
expect_rc "--log with --no-log is a usage error" 2
[ -e x.iso.log ] || [ -e l ] && not_ok "usage errors leave no log" || ok "usage errors leave no log"
run image -q "sim:$D,fault=timeout@0-399" none.iso
[ -e none.iso.log ] && not_ok "a run that removed OUT leaves no log" "exit $RC" || ok "a run that removed OUT leaves no log (exit $RC)"
if [ -w /dev/full ]; then
	run image -q --log /dev/full "sim:$D" full.iso
	expect_rc "a log that cannot be written: exit 3" 3
	expect_grep "it names the log" "$T/err" "cannot write the acquisition log /dev/full"
fi
finish
