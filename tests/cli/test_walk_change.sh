#!/bin/sh
# A medium change while verify or tail walks the disc (issue 31, one
# walker): the engine's in-order pass decides it as image's passes do.
# verify and tail keep no identity record, so any change ends the run like
# image's: exit 3, "the medium changed", the JSON error object; verify never
# answers "different" from a compare that mixed two discs, tail never
# appends another disc's blocks (nor says its window "unreadable").
. "$(dirname "$0")/lib.sh"

N=3000
A="$T/a.img"
B="$T/b.img"
mkimage "$A" $N
openssl enc -aes-128-ctr -nosalt -pass pass:cdtail-other -pbkdf2 </dev/zero 2>/dev/null |
	head -c $((N * 2048)) >"$B"
SHA=$(sha256sum <"$A" | cut -c1-64)
MD5=$(md5sum <"$A" | cut -c1-32)

# changed NAME: the last run stopped on the change, as image does
changed() {
	expect_rc "$1: exit 3" 3
	expect_grep "$1: says the medium changed" "$T/err" 'the medium changed'
	expect_json "$1: the JSON error object's status" .error.status 3
	expect_json "$1: the JSON error object's message" \
		'.error.message | test("^[a-z]+: the medium changed")' true
	expect_no_grep "$1: no verdict" "$T/out" '"verdict"'
}

# --- image on the same address: the reference -------------------------------
run image --json "sim:$A,cost=0/0,change=60:$B" "$T/o.img"
changed "image, change to another disc"

# --- verify: the compare with FILE and the digests ---------------------------
run verify --json --image "$A" "sim:$A,cost=0/0,change=60:$B"
changed "verify --image, change to another disc"
run verify --json --sha256 "$SHA" "sim:$A,cost=0/0,change=60:$B"
changed "verify --sha256, change to another disc"
run verify --json --md5 "$MD5" "sim:$A,cost=0/0,change=60:$B"
changed "verify --md5, change to another disc"
echo "$SHA  a.img" >"$T/a.sha256"
run verify --json --sha256-file "$T/a.sha256" "sim:$A,cost=0/0,change=60:$B"
changed "verify --sha256-file, change to another disc"
# without an identity a change to the same disc cannot be told from another
run verify --json --image "$A" "sim:$A,cost=0/0,change=60"
changed "verify --image, change to the same disc"
# in text mode too, one line
run verify --image "$A" "sim:$A,cost=0/0,change=60:$B"
expect_rc "verify text, change: exit 3" 3
expect_err_line "verify text, change: one line" '^cdtail: verify: the medium changed'
# no change: the same disc is identical (the walk itself is unchanged)
run verify --json --image "$A" "sim:$A,cost=0/0"
expect_rc "verify, no change: identical -> 0" 0
expect_json "verify, no change: verdict" .verdict identical

# --- tail: the compare window, then the append -------------------------------
# The disc hides 500 blocks; IMAGE stops at the reported 2500.  The trace
# of a run without a change says which commands read the window.
head -c $((2500 * 2048)) "$A" >"$T/t.img"
run tail --json "sim:$A,cost=0/0,hide=500,trace=$T/tr" "$T/t.img"
expect_rc "tail, no change: appended -> 0" 0
# the window: the last 64 blocks below 2500, two reads of 32 after the search
win=$(awk '$1 == "28" { split($2, a, "="); split($3, b, "=")
	if (a[2] == 2436 && b[2] == 32) n = NR } END { print n }' "$T/tr")
app=$(grep -n '^28 lba=2[5-9][0-9][0-9] blocks=32 ' "$T/tr" | tail -1 | cut -d: -f1)
if [ -n "$win" ] && [ -n "$app" ] && sed -n "$((win + 1))p" "$T/tr" | grep -q '^28 lba=2468 blocks=32 '; then
	ok "tail's window and append are in the trace"
else
	not_ok "tail's window and append are in the trace" "$(tail -5 "$T/tr")"
fi
for at in "$win" "$((win + 1))" "$app"; do
	head -c $((2500 * 2048)) "$A" >"$T/t.img"
	run tail --json "sim:$A,cost=0/0,hide=500,change=$at:$B" "$T/t.img"
	changed "tail, change at command $at"
	if [ "$(stat -c %s "$T/t.img")" -eq $((2500 * 2048)) ] &&
	   head -c $((2500 * 2048)) "$A" | cmp -s - "$T/t.img"; then
		ok "tail, change at command $at: IMAGE as it was"
	else
		not_ok "tail, change at command $at: IMAGE as it was" "$(stat -c %s "$T/t.img")"
	fi
	[ -e "$T/t.img.cdtail-tail" ] && not_ok "tail, change at command $at: no note left" ||
		ok "tail, change at command $at: no note left"
done
# --- image --raw: a change met by a READ CD ---------------------------------------
# The command path asked a READ CD that met 06/28/00 again as if nothing
# had happened (it took only READ 10/12/16 as reads of sectors), so image
# --raw never read the identity again: what came back might have been
# another disc's.  Now the READ CD answers CDT_READ_CHANGED and the book's
# rule runs: the identity's sectors are read again (single-sector READ CDs
# right after the 06/28/00), the same disc goes on, the image is the same.
mkdir "$T/rcue" "$T/r1" "$T/r2"
python3 "$ROOT/tests/raw/model.py" disc mixed "$T/rcue" >/dev/null ||
	not_ok "model.py disc mixed (raw)"
RCUE="$T/rcue/mixed.cue"
run image --raw --json "sim:$RCUE,cost=0/0,trace=$T/r1.tr" "$T/r1/x.cue"
expect_rc "image --raw, no change -> 0" 0
at=$(($(wc -l <"$T/r1.tr") - 20))
run image --raw --json "sim:$RCUE,cost=0/0,change=$at,trace=$T/r2.tr" "$T/r2/x.cue"
expect_rc "image --raw, the same disc after a change at command $at -> 0" 0
expect_json "image --raw, the same disc after the change: complete" '.verdict' complete
hit=$(grep -n '^be .*sense=06/28/00' "$T/r2.tr" | cut -d: -f1)
if [ -n "$hit" ] && sed -n "$((hit + 1))p" "$T/r2.tr" | grep -q '^be .*blocks=1 '; then
	ok "image --raw: the change met a READ CD, and the identity is read again"
else
	not_ok "image --raw: the change met a READ CD, and the identity is read again" \
		"$(sed -n "${hit:-1},$((${hit:-1} + 2))p" "$T/r2.tr")"
fi
same=1
for f in "$T"/r1/*.bin; do
	cmp -s "$f" "$T/r2/$(basename "$f")" || same=0
done
[ "$same" = 1 ] && ok "image --raw, the same disc after the change: the same track files" ||
	not_ok "image --raw, the same disc after the change: the same track files"
finish
