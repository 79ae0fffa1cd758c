#!/bin/sh
# The acquisition record (OUT.log, --log FILE, --no-log, --dfxml): one
# entry a run, appended; its fields checked against what the same run and
# independent tools (probe --json, md5sum, sha256sum, dd, uname, id) say;
# the record of an interrupted, a resumed, a raw, a tail and a verify run,
# --digest none, --verify-after, the case fields, and the DFXML parsed back.
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
expect_grep "start and end times, to the millisecond" $L "^started: 20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}Z$"
expect_grep "the end time" $L "^ended: 20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}Z$"
expect_grep "the host name" $L "^  name: $(uname -n)$"
expect_grep "the OS" $L "^  os: $(uname -s)$"
expect_grep "the kernel" $L "^  kernel: $(uname -r)$"
expect_grep "the user" $L "^  name: $(id -un)$"
expect_grep "the uid" $L "^  uid: $(id -u)$"
nread=$(sed -n 's/^  blocks_read: //p' $L | head -1)
expect_grep "the bytes read: the blocks read" $L "^bytes_read: $((nread * 2048))$"
expect_grep "the throughput" $L "^throughput_mb_s: [0-9]+\.[0-9]{2}$"
expect_grep "the elapsed time" $L "^elapsed_s: [0-9]+\.[0-9]{3}$"
expect_grep "the copy pass" $L "^  - phase=copying passes=[0-9]+$"
expect_grep "the retry passes" $L "^  - phase=retrying passes=[0-9]+$"
expect_grep "the size in bytes" $L "^  size_bytes: $(( $(jq -r .true_blocks probe.json) * 2048 ))$"
expect_grep "no case number given: none" $L "^case_number: none$"
expect_grep "the digests asked for" $L "^digests_asked: md5,sha256$"
expect_grep "not interrupted" $L "^interrupted: false$"
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
expect_grep "the retry policy, in words" $L "^  retries: learning plan: after the copy, the first block of one bad area of each size is read again, the other areas only where that block reads$"
expect_grep "no retry limit with the plan" $L "^  retry_limit: none$"

# a second run on the same map appends
run image -q --map d.map --retries 1 "$DEV" d.iso
n=$(grep -c '^==== cdtail acquisition log' $L)
if [ "$n" -eq 2 ]; then ok "a resume appends a second entry"; else not_ok "a resume appends a second entry" "$n entries"; fi
sed -n '/^==== cdtail acquisition log/h; /^==== cdtail acquisition log/!H; ${x;p}' $L >second
expect_grep "the second entry says it resumed" second "^  resumed: true$"
expect_grep "the second entry's retries" second "^  retries: every block still bad read 1 more time$"
expect_grep "the second entry's retry limit" second "^  retry_limit: 1$"

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
# --- case fields, sha1, --dfxml ---------------------------------------------
run image -q --case-number "C-17" --evidence-number "E 4" --examiner "A. Examiner" \
	--description "a CD-R in a sleeve" --notes "seal #88 <intact> & signed" \
	--digest md5,sha256,sha1 --dfxml c.xml --log c.log --json "$DEV" c.iso
expect_rc "case fields and --dfxml: exit 4" 4
for kv in "case_number C-17" "evidence_number E 4" "examiner A. Examiner" \
	"description a CD-R in a sleeve" "notes seal #88 <intact> & signed"; do
	k=${kv%% *}
	v=${kv#* }
	if [ "$(jq -r ".$k" c.log)" = "$v" ]; then ok "the record's $k"; else
		not_ok "the record's $k" "$(jq -r ".$k" c.log)"; fi
done
if [ "$(jq -r .digests.sha1 c.log)" = "$(sha1sum <c.iso | cut -c1-40)" ]; then
	ok "--digest sha1: the image's sha1"; else not_ok "--digest sha1: the image's sha1"; fi
if [ "$(jq -r '.tracks[0].digests.sha1' c.log)" = "$(dd if=c.iso bs=2048 count=350 2>/dev/null | sha1sum | cut -c1-40)" ]; then
	ok "--digest sha1: track 1's sha1"; else not_ok "--digest sha1: track 1's sha1"; fi
# the DFXML, parsed back by python's XML parser, against the schema's names
# (dfxml_schema dfxml.xsd: dfxml, metadata, creator, source, diskimageobject,
# byte_runs, byte_run, hashdigest, execution_environment's children)
if python3 - c.xml c.iso c.log <<'PY' >dfxml.out 2>&1; then ok "the DFXML parses and holds the acquisition"; else not_ok "the DFXML parses and holds the acquisition" "$(cat dfxml.out)"; fi
import hashlib, json, sys, xml.etree.ElementTree as ET
NS = "{http://www.forensicswiki.org/wiki/Category:Digital_Forensics_XML}"
CT = "{urn:cdtail:acquisition}"
root = ET.parse(sys.argv[1]).getroot()
rec = json.loads(open(sys.argv[3]).read().splitlines()[-1])
img = open(sys.argv[2], "rb").read()
assert root.tag == NS + "dfxml" and root.get("version"), root.tag
kids = [c.tag for c in root]
order = [NS + n for n in ("metadata", "creator", "source", "diskimageobject")]
assert kids == order, kids
cr = root.find(NS + "creator")
assert [c.tag for c in cr][:4] == [NS + n for n in ("program", "version", "build_environment", "execution_environment")]
assert cr.find(NS + "program").text == "cdtail"
ee = cr.find(NS + "execution_environment")
allowed = {"os_sysname", "os_release", "os_version", "host", "arch", "command_line", "uid", "username", "start_time"}
names = {c.tag[len(NS):] for c in ee}
assert names <= allowed and {"host", "command_line", "start_time", "os_sysname"} <= names, names
assert ee.find(NS + "command_line").text == rec["command"]
assert ee.find(NS + "host").text == rec["host"]["name"]
assert root.find(NS + "source/" + NS + "image_filename").text == rec["device"]
dio = root.find(NS + "diskimageobject")
assert [c.tag for c in dio][1:] == [NS + "byte_runs", NS + "sector_size"], [c.tag for c in dio]
assert dio.find(NS + "sector_size").text == "2048"
runs = dio.findall(NS + "byte_runs/" + NS + "byte_run")
def digests(r):
    return {h.get("type"): h.text for h in r.findall(NS + "hashdigest")}
image = [r for r in runs if r.get(CT + "object") == "image"]
assert len(image) == 1 and image[0].get("file_offset") == "0" and int(image[0].get("len")) == len(img)
assert digests(image[0]) == {"md5": hashlib.md5(img).hexdigest(), "sha1": hashlib.sha1(img).hexdigest(),
                             "sha256": hashlib.sha256(img).hexdigest()}, digests(image[0])
tr = [r for r in runs if r.get(CT + "object") == "track"]
assert len(tr) == 1 and tr[0].get(CT + "track") == "1"
off, ln = int(tr[0].get("file_offset")), int(tr[0].get("len"))
assert (off, ln) == (0, 350 * 2048)
assert digests(tr[0])["sha256"] == hashlib.sha256(img[off:off + ln]).hexdigest()
bad = [(int(r.get("file_offset")) // 2048, int(r.get("len")) // 2048, r.get("fill")) for r in runs
       if r.get(CT + "object") == "bad-area"]
assert bad == [(20, 5, "0"), (300, 2, "0")], bad
for o, l, f in bad:
    assert img[o * 2048:(o + l) * 2048] == bytes(l * 2048)
meta = root.find(NS + "metadata")
DC = "{http://purl.org/dc/elements/1.1/}"
assert meta.find(DC + "identifier").text == "E 4" and meta.find(DC + "creator").text == "A. Examiner"
r = dio.find(CT + "record")
assert r.find(CT + "notes").text == "seal #88 <intact> & signed"
assert r.find(CT + "drive/" + CT + "vendor").text == rec["drive"]["vendor"]
assert r.find(CT + "verdict").text == "unreadable"
PY

# two data tracks: the second's digests (a range not from byte 0) are its blocks'
run image -q --log m.log --json "sim:$D,layout=data:200+data:200" m.iso
expect_rc "two data tracks: exit 0" 0
for k in 0 1; do
	want=$(dd if=m.iso bs=2048 skip=$((k * 200)) count=200 2>/dev/null | sha256sum | cut -c1-64)
	wmd5=$(dd if=m.iso bs=2048 skip=$((k * 200)) count=200 2>/dev/null | md5sum | cut -c1-32)
	if [ "$(jq -r ".tracks[$k] | [.start, .blocks, .digests.sha256, .digests.md5] | map(tostring) | join(\" \")" m.log)" = "$((k * 200)) 200 $want $wmd5" ]; then
		ok "two data tracks: track $((k + 1))'s digests"; else
		not_ok "two data tracks: track $((k + 1))'s digests" "$(jq -c ".tracks[$k]" m.log)"; fi
done

# --- --digest none: the record says none, and nothing is hashed ------------
run image -q --digest none --log n.log --json "sim:$D" nd.iso
expect_rc "--digest none: exit 0" 0
if [ "$(jq -r '[.digests_asked, .digests.md5, .digests.sha256, .digest_source, .digest_read_back, (.tracks[0].digests.sha256)] | map(tostring) | join(" ")' n.log)" = "none null null null 0 null" ]; then
	ok "--digest none: the record says none, no digest of the image or a track"; else
	not_ok "--digest none: the record says none" "$(jq -c . n.log)"; fi
# --- an interrupted run: says so and nothing it did not establish ----------
rm -f i.iso i.map i.iso.log i.trace
"$CDTAIL" image -q --map i.map "sim:$D,cost=2000/20,sleep=1,trace=$T/i.trace" i.iso >/dev/null 2>i.err &
pid=$!
i=0
while [ $i -lt 400 ]; do
	[ -f "$T/i.trace" ] && [ "$(grep -c '^28' "$T/i.trace")" -ge 6 ] && break
	sleep 0.01
	i=$((i + 1))
done
kill -INT $pid
wait $pid
RC=$?
expect_rc "interrupted: exit 130" 130
expect_grep "interrupted: the verdict" i.iso.log "^verdict: interrupted$"
expect_grep "interrupted: it says so" i.iso.log "^interrupted: true$"
expect_grep "interrupted: the error is filled" i.iso.log "^error: .+"
expect_grep "interrupted: the status" i.iso.log "^status: 130$"
expect_no_grep "interrupted: no made-up true end of 0" i.iso.log "^  true_blocks: 0$"
expect_no_grep "interrupted: no digests it did not compute" i.iso.log "^  (md5|sha256): [0-9a-f]"
# sizes that agree: the data comes first, the end search after; stopped
# during the copy, the run never searched and says so
expect_grep "interrupted before the search: end not searched" i.iso.log "^  end: not searched$"
expect_grep "interrupted before the search: no true end" i.iso.log "^  true_blocks: none$"
expect_grep "interrupted before the search: no size" i.iso.log "^  size_bytes: none$"
# resumed: the second entry tells the resume and the whole image's digests
run image -q --map i.map "sim:$D" i.iso
expect_rc "resumed after the interruption: exit 0" 0
sed -n '/^==== cdtail acquisition log/h; /^==== cdtail acquisition log/!H; ${x;p}' i.iso.log >second
expect_grep "resumed: the second entry says so" second "^  resumed: true$"
expect_grep "resumed: the image's sha256" second "^  sha256: $(sha256sum <i.iso | cut -c1-64)$"
expect_grep "resumed: read back only what the first run wrote" second "^digest_read_back: [1-9][0-9]*$"
expect_grep "resumed: verdict" second "^verdict: complete$"

# --- --verify-after --------------------------------------------------------
run image -q --json --verify-after --log v.log "sim:$D" v.iso
expect_rc "--verify-after, same disc: exit 0" 0
expect_json "--verify-after: in the JSON output" .verification.result identical
if [ "$(jq -r '[.verification.result, .verification.digests.sha256] | join(" ")' v.log)" = "identical $(sha256sum <v.iso | cut -c1-64)" ]; then
	ok "--verify-after: the record has the second read's result and digests"; else
	not_ok "--verify-after: the record" "$(jq -c .verification v.log)"; fi
run image -q --verify-after --no-log "sim:$D" vt.iso
expect_grep "--verify-after: the text line" "$T/out" "^verified:  identical: the disc read again and compared with OUT$"
run image -q --raw --verify-after "sim:$D" r.cue
expect_rc "--verify-after with --raw: usage error" 2

# --- image --raw: OUT.cue.log, the track files' digests ---------------------
printf 'FILE "disc.img" BINARY\n  TRACK 01 MODE1/2048\n    INDEX 01 00:00:00\n' >raw.cue
run image --raw -q --examiner R --dfxml r.xml "sim:$T/raw.cue" r.cue
expect_rc "image --raw: exit 0" 0
if [ -s r.cue.log ]; then ok "image --raw writes OUT.cue.log"; else not_ok "image --raw writes OUT.cue.log"; fi
expect_grep "raw: the run" r.cue.log "^run: image --raw$"
expect_grep "raw: the examiner" r.cue.log "^examiner: R$"
expect_grep "raw: the track file's digests" r.cue.log "^  - number=1 session=1 mode=mode1 file=r.bin start=0 sectors=400 bad_sectors=0 edc_errors=0 crc32=[0-9a-f]{8} md5=$(md5sum <r.bin | cut -c1-32) sha1=$(sha1sum <r.bin | cut -c1-40)$"
if python3 - r.xml r.bin <<'PY' >rx.out 2>&1; then ok "raw: the DFXML's track file run"; else not_ok "raw: the DFXML's track file run" "$(cat rx.out)"; fi
import hashlib, sys, xml.etree.ElementTree as ET
NS = "{http://www.forensicswiki.org/wiki/Category:Digital_Forensics_XML}"
b = open(sys.argv[2], "rb").read()
runs = ET.parse(sys.argv[1]).getroot().findall(NS + "diskimageobject/" + NS + "byte_runs/" + NS + "byte_run")
assert len(runs) == 1 and int(runs[0].get("len")) == len(b), runs
d = {h.get("type"): h.text for h in runs[0].findall(NS + "hashdigest")}
assert d == {"md5": hashlib.md5(b).hexdigest(), "sha1": hashlib.sha1(b).hexdigest()}, d
PY
run image --raw -q --no-log "sim:$T/raw.cue" r2.cue
if [ -e r2.cue.log ]; then not_ok "image --raw --no-log: no record"; else ok "image --raw --no-log: no record"; fi

# --- tail: the copy's digests before and after ------------------------------
head -c $((395 * 2048)) "$D" >t.img
truncate -s $((395 * 2048)) t.img
dd if="$D" of=t.img bs=2048 count=390 conv=notrunc 2>/dev/null
truncate -s $((390 * 2048)) t.img
before_sha=$(sha256sum <t.img | cut -c1-64)
run tail -q --case-number T-1 "sim:$D,hide=10" t.img
expect_rc "tail: appended, exit 0" 0
if [ -s t.img.log ]; then ok "tail writes IMAGE.log"; else not_ok "tail writes IMAGE.log"; fi
expect_grep "tail: the run" t.img.log "^run: tail$"
expect_grep "tail: the case number" t.img.log "^case_number: T-1$"
expect_grep "tail: the digest before" t.img.log "^  sha256: $before_sha$"
expect_grep "tail: the digest after" t.img.log "^  sha256: $(sha256sum <t.img | cut -c1-64)$"
expect_grep "tail: the bytes before" t.img.log "^image_bytes_before: $((390 * 2048))$"
expect_grep "tail: the bytes after" t.img.log "^image_bytes_after: $(stat -c %s t.img)$"
# the same record as DFXML: the copy before and after as byte runs
cp t.img t2.img
truncate -s $((390 * 2048)) t2.img
run tail -q --no-log --dfxml t2.xml "sim:$D,hide=10" t2.img
if python3 - t2.xml t2.img "$before_sha" <<'PY' >tx.out 2>&1; then ok "tail --dfxml: the copy before and after"; else not_ok "tail --dfxml: the copy before and after" "$(cat tx.out)"; fi
import hashlib, sys, xml.etree.ElementTree as ET
NS = "{http://www.forensicswiki.org/wiki/Category:Digital_Forensics_XML}"
CT = "{urn:cdtail:acquisition}"
runs = ET.parse(sys.argv[1]).getroot().findall(NS + "diskimageobject/" + NS + "byte_runs/" + NS + "byte_run")
d = {r.get(CT + "object"): (int(r.get("len")), {h.get("type"): h.text for h in r}) for r in runs}
img = open(sys.argv[2], "rb").read()
assert d["image-before"] == (390 * 2048, d["image-before"][1]) and d["image-before"][1]["sha256"] == sys.argv[3], d
assert d["image"][0] == len(img) and d["image"][1]["sha256"] == hashlib.sha256(img).hexdigest(), d
PY
if [ -e t2.img.log ]; then not_ok "tail --no-log --dfxml: no log"; else ok "tail --no-log --dfxml: no log"; fi
run tail -q --no-log "sim:$D" t.img
n=$(grep -c '^==== cdtail acquisition log' t.img.log)
if [ "$n" -eq 1 ]; then ok "tail --no-log appends nothing"; else not_ok "tail --no-log appends nothing" "$n entries"; fi

# --- verify: a record only with --log --------------------------------------
run verify -q --image v.iso "sim:$D"
expect_rc "verify: identical" 0
if ls ./*.log 2>/dev/null | grep -q 'verify'; then not_ok "verify writes no record without --log"; else ok "verify writes no record without --log"; fi
run verify -q --image v.iso --log ver.log --examiner X "sim:$D"
expect_grep "verify --log: the run" ver.log "^run: verify$"
expect_grep "verify --log: the examiner" ver.log "^examiner: X$"
expect_grep "verify --log: the verdict" ver.log "^verdict: identical$"
expect_grep "verify --log: the disc's sha256" ver.log "^  sha256: $(sha256sum <v.iso | cut -c1-64)$"

finish
