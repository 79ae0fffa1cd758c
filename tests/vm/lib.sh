# Host-side helpers for the VM tests: build the initramfs, boot a case under
# a time limit, collect its result lines.  Sourced by run.sh, which sets
# VM (this directory), W (a work directory) and CACHE.

VM_QEMU=${VM_QEMU:-qemu-system-x86_64}

# closure of the given module names, dependencies first, in the given order
mod_order() {
	awk -v want="$*" '
		{ sub(":", "", $1); n = $1; $1 = ""; deps[n] = $0 }
		function visit(m,   d, k, i) {
			if (m in done) return
			done[m] = 1
			k = split(deps[m], d, " ")
			for (i = 1; i <= k; i++) visit(d[i])
			out = out " " m
		}
		END {
			k = split(want, w, " ")
			for (i = 1; i <= k; i++) {
				if (!(w[i] in deps)) { print "unknown module " w[i] > "/dev/stderr"; exit 1 }
				visit(w[i])
			}
			print substr(out, 2)
		}' "$CACHE/ko/deps"
}

# copy_bin ROOT FILE [NAME]: FILE into ROOT/usr/bin (as NAME), with the
# libraries ldd names at their own paths
copy_bin() {
	root=$1 f=$2 name=${3:-$(basename "$2")}
	mkdir -p "$root/usr/bin"
	cp -L "$f" "$root/usr/bin/$name"
	ldd "$f" 2>/dev/null | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }' |
		while read -r lib; do
			[ -e "$root$lib" ] && continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
}

# build_base OUT: the initramfs every case shares (busybox, modules, binaries)
build_base() {
	out=$1
	r="$W/base"
	rm -rf "$r"
	mkdir -p "$r/bin" "$r/sbin" "$r/usr/bin" "$r/usr/sbin" "$r/lib/modules" \
		"$r/proc" "$r/sys" "$r/dev" "$r/tmp" "$r/run" "$r/var/run" "$r/var/lock" \
		"$r/etc" "$r/root"
	cp "$(command -v busybox)" "$r/bin/busybox"
	for a in $(busybox --list); do
		[ "$a" = busybox ] || ln -sf busybox "$r/bin/$a"
	done
	cp "$CACHE"/ko/*.ko "$r/lib/modules/"
	cp "$VM/guest/init" "$r/init"
	chmod 755 "$r/init"
	cp "$VM/guest/lib.sh" "$r/lib/vmtest.sh"
	copy_bin "$r" "$CDTAIL" cdtail
	for b in jq tgtd tgtadm iscsistart dmsetup sg_inq sg_readcap sg_raw sg_turs sg_sense; do
		p=$(command -v "$b" 2>/dev/null || true)
		[ -n "$p" ] || p=$(ls /usr/sbin/"$b" /sbin/"$b" 2>/dev/null | head -1)
		[ -n "$p" ] && copy_bin "$r" "$p"
	done
	# VM_EXTRA_BINS: more host binaries for the guest (for debugging a case)
	for p in ${VM_EXTRA_BINS:-}; do
		copy_bin "$r" "$p"
	done
	echo "root:x:0:0:root:/root:/bin/sh" >"$r/etc/passwd"
	echo "root:x:0:" >"$r/etc/group"
	(cd "$r" && find . | cpio -o -H newc -R 0:0 --quiet) >"$out"
}

# build_initrd OUT CASE-NAME CASE-SCRIPT MODULES [ENV-LINES]: the base plus
# the case (the kernel unpacks concatenated cpio archives in order)
build_initrd() {
	out=$1 name=$2 script=$3 mods=$4 env=$5
	c="$W/case.$name"
	rm -rf "$c"
	mkdir -p "$c"
	order=$(mod_order $mods) || return 1
	{
		echo "CASE='$name'"
		echo "MODULES='$order'"
		printf '%s\n' "$env"
		# a sanitizer build's settings reach cdtail in the guest too
		for v in ASAN_OPTIONS UBSAN_OPTIONS; do
			eval "val=\${$v:-}"
			[ -n "$val" ] && echo "$v='$val'"
		done
	} >"$c/case.env"
	{
		echo ". /lib/vmtest.sh"
		cat "$script"
		echo "finish"
	} >"$c/case.sh"
	(cd "$c" && find . | cpio -o -H newc -R 0:0 --quiet) >"$c.cpio"
	cat "$W/base.cpio" "$c.cpio" >"$out"
}

# boot NAME INITRD SECONDS QEMU-ARGS...: boot under timeout; the console in
# $W/NAME.console, the result port in $W/NAME.result.  Returns qemu's status.
boot() {
	name=$1 initrd=$2 secs=$3
	shift 3
	: >"$W/$name.console"
	: >"$W/$name.result"
	timeout -k 5 "$secs" "$VM_QEMU" -accel tcg -M pc -m 512 -smp 1 \
		-nodefaults -no-user-config -display none -monitor none -no-reboot \
		-serial "file:$W/$name.console" -serial "file:$W/$name.result" \
		-kernel "$CACHE/vmlinux" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic quiet loglevel=4 rdinit=/init" \
		"$@" >"$W/$name.qemu" 2>&1
}
