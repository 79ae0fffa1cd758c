#!/bin/sh
# cdtail probe against the emulated drive: exit statuses, JSON, errors.
. "$(dirname "$0")/lib.sh"

ISO="$FIX/iso9660.iso"
ISO_BLOCKS=$(($(stat -c %s "$ISO") / 2048))
RND="$T/rnd.img"
mkimage "$RND" 3000

# --- an honest drive ------------------------------------------------------
run probe --json "sim:$ISO"
expect_rc "iso: reported length is true -> 0" 0
expect_json "iso: verdict ok" .verdict ok
expect_json "iso: true_blocks" .true_blocks "$ISO_BLOCKS"
expect_json "iso: filesystem source" .sources.filesystem "$ISO_BLOCKS"
expect_json "iso: read_capacity source" .sources.read_capacity "$ISO_BLOCKS"
expect_json "iso: toc source" .sources.toc_leadout "$ISO_BLOCKS"
expect_json "iso: kernel source is null on sim" .sources.kernel null
expect_json "iso: one failing read" .failed_reads 1
expect_json "iso: block size" .block_size 2048
expect_json "iso: device echoed" .device "sim:$ISO"
expect_json "iso: profile" .profile CD-ROM
expect_json "iso: fs type" .filesystem.type iso9660
expect_json "iso: drive vendor" .drive.vendor CDTAIL
expect_json "iso: virtual_ms is a number" '.virtual_ms | type' number

# --- hidden tails ---------------------------------------------------------
run probe --json "sim:$ISO,hide=3"
expect_rc "iso hide=3 -> 10" 10
expect_json "iso hide=3: hidden_blocks" .hidden_blocks 3
expect_json "iso hide=3: hidden_512" .hidden_512 12
expect_json "iso hide=3: verdict" .verdict hidden-tail
expect_json "iso hide=3: the ISO size predicts it: one failure" .failed_reads 1
expect_json "iso hide=3: read_capacity is wrong" '.wrong_sources | index("read_capacity") != null' true
expect_json "iso hide=3: dd would lose 12 sectors" .dd_loses_512 12

for k in 1 2 7 150 2000; do
	run probe --json "sim:$RND,hide=$k"
	expect_rc "rnd hide=$k -> 10" 10
	expect_json "rnd hide=$k: hidden_blocks" .hidden_blocks "$k"
	expect_json "rnd hide=$k: true_blocks" .true_blocks 3000
	fr=$(jq .failed_reads "$T/out")
	vm=$(jq .virtual_ms "$T/out")
	if [ "$fr" -le 2 ] && awk -v v="$vm" -v k="$k" 'BEGIN { exit !(v <= 2*8000 + 1.5*k*1.05 + 50) }'; then
		ok "rnd hide=$k: <= 2 failing reads, virtual_ms $vm within the bound"
	else
		not_ok "rnd hide=$k: cost" "failed_reads=$fr virtual_ms=$vm"
	fi
	if [ "$k" -le 512 ]; then
		expect_json "rnd hide=$k: one failing read (tail <= 512)" .failed_reads 1
	fi
	# a fast drive: a single-block scan of the first 512 blocks, a read per
	# 512 beyond, a bisection; under 1 s (issue 13: the bound used to be
	# 2*ceil(log2(k+1))+6 reads, which that scan cannot keep)
	run probe --json "sim:$RND,hide=$k,cost=50/1"
	rd=$(jq .reads "$T/out")
	vm=$(jq .virtual_ms "$T/out")
	bound=$(awk -v k="$k" 'BEGIN { l = log(k + 1) / log(2); c = int(l); if (c < l) c++;
		print (k < 512 ? k : 512) + int(k / 512) + c + 8 }')
	if [ "$RC" -eq 10 ] && [ "$rd" -le "$bound" ] &&
		awk -v v="$vm" 'BEGIN { exit !(v <= 1000) }'; then
		ok "rnd hide=$k cost=50/1: $rd reads <= $bound, $vm ms <= 1000"
	else
		not_ok "rnd hide=$k cost=50/1" "rc=$RC reads=$rd bound=$bound virtual_ms=$vm"
	fi
done

run probe --json "sim:$RND,hide=150,info=1"
expect_rc "info=1 hide=150 -> 10" 10
expect_json "info=1: the INFORMATION field gives the end: one failure" .failed_reads 1

run probe --json "sim:$RND,hide=5,toc=true"
expect_json "toc=true: TOC is right" .sources.toc_leadout 3000
expect_json "toc=true: one failure" .failed_reads 1
run probe --json "sim:$RND,toc=none"
expect_rc "toc=none -> 0" 0
expect_json "toc=none: lead-out null" .sources.toc_leadout null

# --- over-reporting and run-out --------------------------------------------
run probe --json "sim:$RND,extra=2"
expect_rc "extra=2 -> 11" 11
expect_json "extra=2: hidden_blocks -2" .hidden_blocks -2
expect_json "extra=2: verdict short" .verdict short
run probe --json "sim:$RND,extra=1"
expect_json "extra=1: one failure" .failed_reads 1
run probe --json "sim:$RND,runout=2"
# issue 24: a TAO run-out the structure explains is how a TAO CD-R ends,
# not a short disc: verdict ok, exit 0 (it was short, 11, on every such
# disc); hidden_blocks stays -2 for scripts that look
expect_rc "runout=2 -> 0 (a TAO run-out is ok)" 0
expect_json "runout=2: verdict ok, hidden_blocks -2" '[.verdict, .hidden_blocks] | map(tostring) | join(" ")' "ok -2"
expect_json "runout=2: true end" .true_blocks 2998
expect_json "runout=2: named TAO run-out" '.notes | index("tao-runout") != null' true
run probe "sim:$RND,runout=2"
expect_grep "runout=2: text says harmless" "$T/out" "TAO.*harmless"

# --- damaged and difficult media -----------------------------------------
run probe --json "sim:$RND,hide=150,bad=2900-2910"
expect_json "bad range before the end does not shorten it" .true_blocks 3000
# READ CAPACITY, the TOC and track information agree on 3000 and the drive
# says out of range from there: the 8 blocks are damage (issue 23), no
# longer a disc 8 blocks short (test_agreed_end.sh has the cases around it)
run probe --json "sim:$RND,bad=2992-2999"
expect_rc "bad last 8: damage -> 0" 0
expect_json "bad last 8: the agreed end" .true_blocks 3000
expect_json "bad last 8: damaged-tail counts them" .damaged_tail_blocks 8
expect_json "bad last 8: image extent keeps them" .extent_blocks 3000
run probe --json "sim:$RND,hide=10,flaky=2995-2996:2"
expect_json "flaky near the end" .true_blocks 3000
run probe --json "sim:$RND,hide=10,ua=3"
expect_rc "ua=3 -> 10" 10
expect_json "ua=3: true end" .true_blocks 3000
run probe --json "sim:$RND,hide=10,ua=1"
expect_json "ua=1: true end" .true_blocks 3000
# issue 22: a read that never completes is a failed block, not the end
run probe --json --timeout 2 "sim:$RND,hang=2995,hide=10"
expect_rc "hang near the end: a bad block -> 10" 10
expect_json "hang near the end: true end past it" .true_blocks 3000
run probe --timeout 2 "sim:$RND,fault=timeout@2980-2999,ready=0,hide=10"
expect_rc "a drive that stops answering -> 3" 3
expect_err_line "stops answering: one-line error" "stopped answering"

mkimage "$T/r512.img" 4000 512
run probe --json "sim:$T/r512.img,block=512,hide=4"
expect_rc "block=512 hide=4 -> 10" 10
expect_json "block=512: block size" .block_size 512
expect_json "block=512: hidden 4" .hidden_blocks 4
expect_json "block=512: hidden_512 4" .hidden_512 4

# an ISO 9660 volume on 512-byte blocks (issue 32): its 2048-byte blocks count
# 4 blocks each, as the disc's do
run probe --json "sim:$FIX/iso9660.iso,block=512"
expect_json "block=512, ISO 9660: the filesystem source is 4 x its 112 sectors" \
	'[.sources.filesystem, .filesystem.blocks, .sources.read_capacity, .verdict] | map(tostring) | join(" ")' "448 448 448 ok"
mkimage "$T/fs512.img" 800 2048
pvd "$T/fs512.img" 16 1000
run probe --json "sim:$T/fs512.img,block=512"
expect_json "block=512, a volume of 1000 sectors on 800: 4000 blocks, past the end" \
	'[.sources.filesystem, .filesystem_past_end_blocks, .true_blocks] | map(tostring) | join(" ")' "4000 800 3200"

run probe --json "sim:$RND,hide=20000"
expect_rc "hide larger than the image -> 2" 2
run probe --json --max-extra 100 "sim:$RND,hide=2500"
# issue 35, 6: the window decided the end: exit 5 (was 10), as image's
expect_rc "window limit -> 5" 5
expect_json "window limit noted" '.notes | index("window-limit") != null' true
expect_json "window limit: stops at reported+100" .true_blocks 600

# --- trace and -v ----------------------------------------------------------
run probe "sim:$RND,hide=1,trace=$T/trace"
expect_grep "trace: READ(10) lines" "$T/trace" "^28 lba=2999 blocks=1 sense=00/00/00"
expect_grep "trace: READ CAPACITY line" "$T/trace" "^25 "
if grep -vqE '^[0-9a-f]{2} ' "$T/trace"; then not_ok "trace: every line starts with an opcode"; else ok "trace: every line starts with an opcode"; fi
run probe -v "sim:$RND,hide=1"
# -v words every command as sg3_utils' -v does, its CDB in hex (issue 35,
# 3: virtual times say so); -vv adds the sense bytes
expect_grep "-v: a good read decoded" "$T/err" "^cdtail: Read\(10\) lba=2999 len=1: Good \([0-9.]+ ms, virtual\)$"
expect_grep "-v: the read past the end decoded" "$T/err" \
	"^cdtail: Read\(10\) lba=3000 len=1: Check Condition, Illegal Request, Logical block address out of range \("
expect_grep "-v: READ CAPACITY named" "$T/err" "^cdtail: Read capacity\(10\): Good"
expect_no_grep "-v: no sense bytes" "$T/err" "^cdtail: +sense:"
run probe -v "sim:$RND,bad=100-101,info=1"
expect_grep "-v: a medium error with its INFORMATION" "$T/err" \
	"^cdtail: Read\(10\) lba=100 len=1: Check Condition, Medium Error, Unrecovered read error, Info fld=0x64 \("
run probe -vv "sim:$RND,bad=100-101,info=1"
expect_grep "-vv: the CDB's bytes under the line" "$T/err" "^cdtail:   cdb: 28 00 00 00 00 64 00 00 01 00$"
expect_grep "-vv: the sense bytes (valid INFORMATION: 0xf0)" "$T/err" "^cdtail:   sense: f0 00 03 00 00 00 64 "

# --- errors: one line, the contract's status ---------------------------------
run probe "sim:$T/missing.iso"
expect_rc "missing image -> 2 (the exit table)" 2
expect_err_line "missing image: one line" "missing.iso"
run probe "sim:$RND,hide=x"
expect_rc "bad sim value -> 2" 2
expect_err_line "bad sim value names the key" "hide"
run probe "sim:$RND,colour=blue"
expect_rc "unknown sim key -> 2" 2
expect_err_line "unknown sim key named" "colour"
run probe /dev/null
expect_rc "/dev/null -> 3" 3
expect_err_line "/dev/null: not a SCSI device" "not a SCSI device"
run probe "$RND"
expect_rc "regular file -> 2 (the exit table)" 2
expect_err_line "regular file: hint at sim:" "sim:"
run probe /dev/nonexistent-sr9
expect_rc "missing node -> 3" 3
expect_err_line "missing node: one line" "nonexistent-sr9"
run probe sr0
expect_rc "bare name -> 2" 2
run probe
expect_rc "missing DEV -> 2" 2
run probe --frobnicate "sim:$RND"
expect_rc "unknown option -> 2" 2
run probe --timeout abc "sim:$RND"
expect_rc "bad timeout -> 2" 2
run probe --timeout
expect_rc "timeout without value -> 2" 2
run probe "sim:$RND" extra-arg
expect_rc "too many arguments -> 2" 2
run frobnicate
expect_rc "unknown command -> 2" 2
run probe --help
expect_rc "--help -> 0" 0

if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	cp "$RND" "$T/private.img"
	chmod 600 "$T/private.img"
	chmod 755 "$T"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CDTAIL" probe "sim:$T/private.img" \
		>"$T/out" 2>"$T/err"
	RC=$?
	expect_rc "no permission on the sim: IMAGE -> 2 (the exit table)" 2
	expect_err_line "no permission: says so" "Permission denied"
fi

# the image file is never modified
sum1=$(sha256sum "$RND" | cut -d' ' -f1)
run probe "sim:$RND,hide=100,bad=2950-2960"
sum2=$(sha256sum "$RND" | cut -d' ' -f1)
[ "$sum1" = "$sum2" ] && ok "image untouched" || not_ok "image untouched"

# --- issue 28: --max-extra bounds the reads; the end around a scratch ---------
# C: a filesystem declaring 290 blocks, 300 on the disc, 200 reported, a
# window of 8: no read at or past 208, and the end is the window's
mkimage "$T/c.img" 300
pvd "$T/c.img" 16 290
rm -f "$T/c.tr"
run probe --json --max-extra 8 "sim:$T/c.img,hide=100,trace=$T/c.tr"
expect_rc "window of 8 inside a hidden tail of 100 -> 5 (issue 35, 6)" 5
expect_json "window of 8: true_blocks is the window's edge" .true_blocks 208
expect_json "window of 8: extent_blocks" .extent_blocks 208
expect_json "window of 8: window_limit" .window_limit true
# issue 35, 6: the one read past the window is the filesystem's last block,
# which settles it: the files are on the disc, no filesystem-past-end
if [ "$(reads_in "$T/c.tr" 208 4294967296)" = "28 lba=289 blocks=1 sense=00/00/00" ]; then
	ok "window of 8: no read at or past LBA 208 but the filesystem's last block"
else not_ok "window of 8: no read at or past LBA 208 but the filesystem's last block" \
	"$(reads_in "$T/c.tr" 208 4294967296 | head -3)"; fi
expect_json "window of 8: the filesystem's end read, not past the end" \
	'[.filesystem.end_read, (.notes | index("filesystem-past-end")), .filesystem_past_end_blocks, (.wrong_sources | index("filesystem"))] | map(tostring) | join(" ")' \
	"true null 0 null"
run probe --max-extra 8 "sim:$T/c.img,hide=100"
expect_rc "window of 8, text: exit 5" 5
expect_grep "window of 8, text: the filesystem row" "$T/out" '^  filesystem +290  its last block reads \(past the window\)$'
expect_grep "window of 8, text: the note" "$T/out" '^note: +the iso9660 declares 290 blocks and its last block reads: its files$'
expect_no_grep "window of 8, text: no filesystem-past-end" "$T/out" 'filesystem-past-end'
# a filesystem that does declare more than the disc: its last block fails
mkimage "$T/s.img" 250
pvd "$T/s.img" 16 290
run probe --json --max-extra 8 "sim:$T/s.img,hide=50"
expect_rc "window of 8, filesystem past the disc's end: exit 5" 5
expect_json "window of 8, filesystem past the end: its end read fails, noted" \
	'[.filesystem.end_read, (.notes | index("filesystem-past-end") != null)] | map(tostring) | join(" ")' "false true"
# no window: the end found, the filesystem judged against it, no extra read
run probe --json "sim:$T/s.img,hide=50"
expect_json "no window: end_read null" .filesystem.end_read null
# image of the window-limited disc: exit 5, and its filesystem end read too
run image --json --max-extra 8 "sim:$T/c.img,hide=100" "$T/c.iso"
expect_rc "image, window of 8: exit 5" 5
expect_json "image, window of 8: no filesystem-past-end" '.notes | index("filesystem-past-end")' null
run verify --json --max-extra 8 --image "$T/c.iso" "sim:$T/c.img,hide=100"
expect_rc "verify, window of 8: exit 5" 5
expect_json "verify, window of 8: the filesystem fits (its end read)" \
	'[.filesystem.fits, .filesystem.end_read] | map(tostring) | join(" ")' "true true"
run verify --max-extra 8 --image "$T/c.iso" "sim:$T/c.img,hide=100"
expect_grep "verify text, window of 8: the filesystem's end read" "$T/out" \
	'^filesystem: iso9660 declares 290 blocks: its last block reads, past the window$'
run verify --json --max-extra 8 --image "$T/c.iso" "sim:$T/s.img,hide=50"
expect_json "verify, filesystem past the disc: does not fit" .filesystem.fits false
# a MEDIUM run from inside the reported length across the window: the same
# answer whatever failures cost (exit 5 once imaged)
for cost in 50/1 50/8000; do
	run probe --json --max-extra 8 "sim:$T/c.img,hide=100,bad=190-299,cost=$cost"
	expect_json "bad across the window, cost $cost: true_blocks" .true_blocks 190
	expect_json "bad across the window, cost $cost: extent is the window" .extent_blocks 208
	expect_json "bad across the window, cost $cost: window_limit" .window_limit true
done
# F: a scratch below the true end, readable blocks after it: the end is the
# disc's, never below a block the run read
mkimage "$T/f.img" 1000
run probe --json "sim:$T/f.img,hide=20,bad=950-990"
expect_rc "scratch 950-990 under a hidden tail of 20 -> 10" 10
expect_json "scratch 950-990: true_blocks" .true_blocks 1000
mkimage "$T/g.img" 100
for past in end medium; do
	run probe --json "sim:$T/g.img,bad=0-40,hide=80,past=$past"
	expect_rc "scratch from LBA 0 across the reported end, past=$past -> 10" 10
	expect_json "scratch from LBA 0, past=$past: true_blocks" .true_blocks 100
	expect_json "scratch from LBA 0, past=$past: not nothing-readable" \
		'.notes | index("nothing-readable") != null' false
done


# D: a medium change at any command of the probe starts it again on the new
# disc: the filesystem of disc 2 (400) beside its end, never disc 1's (100)
mkimage "$T/d1.img" 400
mkimage "$T/d2.img" 401
truncate -s $((400 * 2048)) "$T/d2.img"
pvd "$T/d1.img" 16 100
pvd "$T/d2.img" 16 400
wrong=""
for c in $(seq 1 16); do
	run probe --json "sim:$T/d1.img,change=$c:$T/d2.img"
	got="$RC $(jq -c '[.sources.filesystem, .true_blocks]' <"$T/out")"
	[ "$got" = "0 [400,400]" ] || wrong="$wrong change=$c: $got;"
done
if [ -z "$wrong" ]; then ok "a change during the probe: disc 2's sizes and end, 16 places"
else not_ok "a change during the probe: disc 2's sizes and end" "$wrong"; fi

# --- next: what to run after a probe that found more than dd copies --------
run probe "sim:$RND,hide=5"
expect_grep "next: hidden tail, the image command with DEV" "$T/out" "^           cdtail image --map disc.map sim:$RND,hide=5 disc.iso$"
expect_grep "next: hidden tail names cdtail tail for a dd copy" "$T/out" "cdtail tail DEV COPY"
if tail -1 "$T/out" | grep -q '^verdict: '; then ok "next: the verdict stays the last line"; else
	not_ok "next: the verdict stays the last line" "$(tail -3 "$T/out")"; fi
run probe "sim:$RND,extra=5"
expect_grep "next: short, image to the true end" "$T/out" '^next: +dd of the kernel node would fail'
run probe "sim:$RND,runout=2"
expect_no_grep "next: none for a TAO run-out (verdict ok)" "$T/out" '^next:'
run probe "sim:$RND,past=medium"
expect_grep "next: a medium error at the end, image with a map" "$T/out" '^next: +the last blocks fail with MEDIUM ERROR'
expect_grep "next: a medium error at the end, another drive tries every bad block" "$T/out" 'drive it tries every bad block once more:$'
run probe "sim:$RND,bad=0-2999"
expect_grep "next: nothing reads" "$T/out" '^next: +nothing reads: clean the disc or try another drive'
run probe "sim:$RND"
expect_no_grep "next: none for a disc dd copies whole" "$T/out" '^next:'
run probe -q "sim:$RND,hide=5"
expect_no_grep "next: none with -q" "$T/out" '^next:'
# --- the filesystem against the disc (issue 24, item 4) ----------------------
# a burn that stopped early: the ISO declares 112 blocks, the disc holds 80
head -c $((80 * 2048)) "$FIX/iso9660.iso" >"$T/cut.img"
run probe --json "sim:$T/cut.img"
expect_rc "filesystem past the end: the length is true, exit 0" 0
expect_json "filesystem past the end: note and count" '[(.notes | join(",")), .filesystem_past_end_blocks, (.wrong_sources | join(","))] | map(tostring) | join(" ")' "filesystem-past-end 32 filesystem"
run probe "sim:$T/cut.img"
expect_grep "filesystem past the end: the text note with the count" "$T/out" '^note: +filesystem-past-end: the iso9660 declares 32 blocks more than the$'
expect_grep "filesystem past the end: the files are not on the disc" "$T/out" 'the files stored there are$'
# padding past the filesystem: not wrong, and no note
{ cat "$FIX/iso9660.iso"; head -c $((150 * 2048)) /dev/zero; } >"$T/fspad.img"
run probe --json "sim:$T/fspad.img"
expect_json "padding past the filesystem: not a wrong source, no note" '[(.wrong_sources | length), (.notes | length), .filesystem_past_end_blocks] | map(tostring) | join(" ")' "0 0 0"
run probe "sim:$T/fspad.img"
expect_grep "padding past the filesystem: the row says it fits" "$T/out" '^  filesystem +112  fits \(150 blocks after it\)$'
finish
