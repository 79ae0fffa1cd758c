#!/bin/sh
# One JSON vocabulary (issue 14, point 3): the same name for the same thing
# in every command, a verdict everywhere, times to 0.01 ms, every key
# documented in the command's page, cdtail-COMMAND(1).
. "$(dirname "$0")/lib.sh"

ISO="$FIX/iso9660.iso"
N=$(($(wc -c <"$ISO") / 2048))
DEV="sim:$ISO,hide=3,cost=50/2000"
"$CDTAIL" probe --json "$DEV" >"$T/probe.json"
cp "$ISO" "$T/dd.iso"
truncate -s $(((N - 3) * 2048)) "$T/dd.iso"
"$CDTAIL" tail --json "$DEV" "$T/dd.iso" >"$T/tail.json"
"$CDTAIL" image --json "$DEV" "$T/out.iso" >"$T/image.json"
"$CDTAIL" verify --json "$DEV" --image "$ISO" >"$T/verify.json"
"$CDTAIL" hazards --json "$DEV" >"$T/hazards.json"

for c in probe image tail verify hazards; do
	if jq -e '.verdict | type == "string"' "$T/$c.json" >/dev/null; then ok "$c: a verdict string"; else
		not_ok "$c: a verdict string" "$(head -c 300 "$T/$c.json")"; fi
	# every number that is a time has at most two decimals, as printed
	bad=$(grep -oE '"[a-z_]*_ms":-?[0-9.eE+-]+' "$T/$c.json" | grep -vE ':-?[0-9]+(\.[0-9]{1,2})?$')
	if [ -z "$bad" ]; then ok "$c: times rounded to 0.01 ms"; else not_ok "$c: times rounded to 0.01 ms" "$bad"; fi
	# every key is in the command's page
	MAN="$ROOT/man/cdtail-$c.1"
	missing=$(jq -r '[paths | .[] | strings] | unique | .[]' "$T/$c.json" | while read -r k; do
		grep -q -- "$(echo "$k" | sed 's/-/\\\\-/g')" "$MAN" || echo "$k"; done)
	if [ -f "$MAN" ] && [ -z "$missing" ]; then ok "$c: every key documented in cdtail-$c(1)"; else
		not_ok "$c: every key documented in cdtail-$c(1)" "$missing"; fi
done

# every note probe can emit (the table in src/cli/probe_render.c) is in the
# JSON OUTPUT list of notes of cdtail-probe(1) and has its own entry there
MAN="$ROOT/man/cdtail-probe.1"
notes=$(sed -n 's/^[[:space:]]*{ CDT_NOTE_[A-Z_]*, "\([a-z-]*\)",.*/\1/p' "$ROOT/src/cli/probe_render.c")
list=$(sed -n '/^notes  *ids:/,/^verdict/p' "$MAN" | sed 's/\\-/-/g')
missing=""
for n in $notes; do
	printf '%s\n' "$list" | grep -q "\"$n\"" || missing="$missing $n (JSON OUTPUT)"
	sed 's/\\-/-/g' "$MAN" | grep -qx "\.B $n" || missing="$missing $n (DESCRIPTION)"
done
if [ "$(echo $notes | wc -w)" -ge 8 ] && [ -z "$missing" ]; then
	ok "probe: every note id ($(echo $notes)) documented in cdtail-probe(1)"
else not_ok "probe: every note id documented in cdtail-probe(1)" "notes: $notes" "missing:$missing"; fi

# the shared keys: the same names, the same values for the same disc
for c in image tail verify; do
	for k in device block_size reported_blocks true_blocks hidden_blocks hidden_512 extent_blocks \
		filesystem.type filesystem.blocks search_reads search_failed_reads search_ms; do
		want=$(jq -c ".$k" "$T/probe.json")
		got=$(jq -c ".$k" "$T/$c.json")
		if [ "$got" = "$want" ] && [ "$want" != null ] || [ "$k" = filesystem.type ] && [ "$got" = "$want" ]; then
			ok "$c: .$k as in probe"; else not_ok "$c: .$k as in probe" "probe $want, $c $got"; fi
	done
	if jq -e '.total | keys == ["commands","device_ms","elapsed_ms","failed_reads","reads","virtual_ms"]' \
		"$T/$c.json" >/dev/null; then ok "$c: total has the whole run's counts"; else
		not_ok "$c: total has the whole run's counts" "$(jq -c .total "$T/$c.json")"; fi
	if jq -e 'has("reads") or has("failed_reads") or has("virtual_ms") or has("elapsed_ms")' "$T/$c.json" >/dev/null; then
		not_ok "$c: no top-level whole-run counts named like probe's search counts"; else
		ok "$c: no top-level whole-run counts named like probe's search counts"; fi
done
if jq -e '.reads == .search_reads and .failed_reads == .search_failed_reads and .virtual_ms == .search_ms
	and (.total | keys | length) == 6 and .total.reads >= .reads' "$T/probe.json" >/dev/null; then
	ok "probe: the contract's reads/failed_reads/virtual_ms are the end search's"; else
	not_ok "probe: the contract's reads/failed_reads/virtual_ms are the end search's" "$(cat "$T/probe.json")"; fi
expect_json_file() { # NAME FILE EXPR WANT
	got=$(jq -r "$3" "$2")
	if [ "$got" = "$4" ]; then ok "$1"; else not_ok "$1" "jq '$3' gave '$got', wanted '$4'"; fi
}
expect_json_file "probe: filesystem object" "$T/probe.json" '.filesystem | [.type, .blocks] | join(",")' "iso9660,$N"
expect_json_file "verify: the same filesystem object, with fits" "$T/verify.json" \
	'.filesystem | [.type, .blocks, .fits] | map(tostring) | join(",")' "iso9660,$N,true"
expect_json_file "image: out" "$T/image.json" .out "$T/out.iso"
expect_json_file "image: out_bytes" "$T/image.json" .out_bytes $((N * 2048))
expect_json_file "image: verdict complete" "$T/image.json" .verdict complete
expect_json_file "tail: out is IMAGE" "$T/tail.json" .out "$T/dd.iso"
expect_json_file "tail: out_bytes" "$T/tail.json" '[.out_bytes_before, .out_bytes] | join(",")' "$(((N - 3) * 2048)),$((N * 2048))"
expect_json_file "hazards: verdict" "$T/hazards.json" .verdict no-hazard
for c in tail verify; do
	expect_json_file "$c: first_diff_lba null when nothing differs" "$T/$c.json" .first_diff_lba null
	if jq -e 'has("mismatch_lba") or has("first_diff")' "$T/$c.json" >/dev/null; then
		not_ok "$c: one name for the first differing LBA"; else ok "$c: one name for the first differing LBA"; fi
done

# a differing block has the same name in tail and verify
cp "$T/dd.iso" "$T/diff.iso"
printf 'X' | dd of="$T/diff.iso" bs=1 seek=$(((N - 5) * 2048 + 7)) conv=notrunc 2>/dev/null
truncate -s $(((N - 3) * 2048)) "$T/diff.iso"
run tail --json "$DEV" "$T/diff.iso"
expect_rc "tail, a differing block -> 1" 1
expect_json "tail: first_diff_lba" .first_diff_lba $((N - 5))
run verify --json "$DEV" --image "$T/diff.iso"
expect_rc "verify, a differing block -> 1" 1
expect_json "verify: first_diff_lba" .first_diff_lba $((N - 5))

# image with bad blocks: bad bytes and its verdict
run image --json "sim:$ISO,cost=0/0,bad=20-21" "$T/bad.iso"
expect_rc "image with bad blocks -> 4" 4
expect_json "image: verdict unreadable" .verdict unreadable
expect_json "image: bad_bytes" .bad_bytes 4096
finish
