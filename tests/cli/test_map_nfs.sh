#!/bin/sh
# The map on a file system that refuses renameat2's flags (NFS: EINVAL,
# fs/nfs/dir.c nfs_rename) and maybe link() too (vfat, many FUSE file
# systems): an LD_PRELOAD shim (tests/shim/refuse_rename.c) refuses them,
# and image --map must still start, resume and end with a true map: the
# fallbacks give the map its name once (link, or an O_EXCL placeholder)
# and leave no temporary file behind (issue 22).
. "$(dirname "$0")/lib.sh"

SHIM=$T/refuse_rename.so
if ! cc -shared -fPIC -o "$SHIM" "$ROOT/tests/shim/refuse_rename.c" -ldl 2>"$T/cc.err"; then
	not_ok "build the shim" "$(head -c 400 "$T/cc.err")"
	finish
fi
IMG=$T/disc.img
mkimage "$IMG" 1000
# what OUT must hold: the disc with its bad blocks zero
cp "$IMG" "$T/want"
dd if=/dev/zero of="$T/want" bs=2048 seek=100 count=11 conv=notrunc 2>/dev/null

for refuse in renameat2 renameat2,link; do
	rm -f "$T/o" "$T/m" "$T/log"
	# ASan wants its runtime first; the shim only wraps two libc calls
	CDT_SHIM_REFUSE=$refuse CDT_SHIM_LOG=$T/log LD_PRELOAD=$SHIM \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		run image --json --map "$T/m" "sim:$IMG,cost=0/0,bad=100-110" "$T/o"
	expect_rc "refusing $refuse: image --map -> 4" 4
	if grep -q '^renameat2 refused' "$T/log" 2>/dev/null; then ok "refusing $refuse: the shim refused renameat2"; else
		not_ok "refusing $refuse: the shim refused renameat2" "log: $(cat "$T/log" 2>&1)"; fi
	case $refuse in *link*)
		if grep -q '^link refused' "$T/log"; then ok "refusing $refuse: the shim refused link"; else
			not_ok "refusing $refuse: the shim refused link" "log: $(cat "$T/log")"; fi ;;
	esac
	expect_json "refusing $refuse: bad blocks" '.bad_blocks | tostring' '[[100,110]]'
	if cmp -s "$T/want" "$T/o"; then ok "refusing $refuse: OUT is the disc outside its bad blocks"; else
		not_ok "refusing $refuse: OUT" "$(cmp "$T/want" "$T/o" 2>&1)"; fi
	if ddrescuelog -t "$T/m" >/dev/null 2>&1 && grep -q '^0x00032000  0x00005800  -' "$T/m"; then
		ok "refusing $refuse: the map marks exactly the bad blocks"
	else
		not_ok "refusing $refuse: the map" "$(grep -v '^#' "$T/m" 2>&1 | head -8)"
	fi
	left=$(ls "$T" | grep -c 'cdtail-' || true)
	if [ "$left" -eq 0 ]; then ok "refusing $refuse: no temporary map left"; else
		not_ok "refusing $refuse: no temporary map left" "$(ls "$T")"; fi
	# the resume replaces the map (plain rename): it works as anywhere
	CDT_SHIM_REFUSE=$refuse LD_PRELOAD=$SHIM \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		run image --json --map "$T/m" "sim:$IMG,cost=0/0,bad=100-110" "$T/o"
	expect_rc "refusing $refuse: the resume -> 4" 4
	expect_json "refusing $refuse: the resume read nothing new" .blocks_read 0
done

# a map that appears under the name first: the name is never taken over
rm -f "$T/o" "$T/m"
echo "not a map" >"$T/m"
CDT_SHIM_REFUSE=renameat2,link LD_PRELOAD=$SHIM \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	run image --map "$T/m" "sim:$IMG,cost=0/0" "$T/o"
expect_rc "a file already at the map's name -> 2" 2
if [ "$(cat "$T/m")" = "not a map" ]; then ok "that file is left as it was"; else
	not_ok "that file is left as it was" "$(head -c 200 "$T/m")"; fi
finish
