#!/bin/sh
# check.sh ROOT PREFIX ISO: what `make install DESTDIR=ROOT PREFIX=PREFIX`
# left is complete, and a program builds against it (pkg-config) and runs.
root=$1 prefix=$2 iso=$3
pass=0 fail=0
t() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "not ok - install: $1"; fi; }
p="$root$prefix"
t "binary" "[ -x '$p/bin/cdtail' ]"
t "static library" "[ -f '$p/lib/libcdtail.a' ]"
version=$(sed -n 's/^Version: //p' "$p/lib/pkgconfig/cdtail.pc")
t "shared library with soname" "readelf -d '$p/lib/libcdtail.so.$version' | grep -q 'SONAME.*\[libcdtail.so.1\]'"
t "soname link" "[ -L '$p/lib/libcdtail.so.1' ] && [ -L '$p/lib/libcdtail.so' ]"
# every public header: the disc library, the hazards scan, the CLI's helpers
for h in "$(dirname "$0")"/../../include/*.h; do
	t "header ${h##*/}" "cmp -s '$h' '$p/include/${h##*/}'"
done
t "three headers" "[ \$(ls '$p/include' | wc -l) -eq 3 ]"
t "man pages" "[ -f '$p/share/man/man1/cdtail.1' ] && [ -f '$p/share/man/man3/libcdtail.3' ]"
# every page of the tree, each in the section its suffix names
for page in "$(dirname "$0")"/../../man/*.[0-9]; do
	name=${page##*/}
	# the sample images' place as installed (issue 35: pages cite only
	# installed files)
	t "man page $name in man${name##*.}" \
		"sed -e 's|/usr/share/cdtail/|$prefix/share/cdtail/|g' \
		-e 's|/usr/share/doc/cdtail/|$prefix/share/doc/cdtail/|g' '$page' |
		cmp -s - '$p/share/man/man${name##*.}/$name'"
done
t "the pages cite the installed samples" \
	"grep -q '$prefix/share/cdtail/fixtures' '$p/share/man/man1/cdtail-probe.1'"
t "the sample disc image" "cmp -s '$iso' '$p/share/cdtail/fixtures/iso9660.iso'"
t "the sample sysfs rack" "[ -f '$p/share/cdtail/fixtures/sysfs/rack-sim/cdtail-sim/sr0' ]"
t "disc-kinds.md, which the pages cite" "[ -s '$p/share/doc/cdtail/disc-kinds.md' ]"
t "bash completion" "bash -c \". '$p/share/bash-completion/completions/cdtail' && complete -p cdtail\" >/dev/null"
t "pkg-config prefix" "grep -qx 'prefix=$prefix' '$p/lib/pkgconfig/cdtail.pc'"
out=$(mktemp -d)
# an example of the pages run as they say: from a copy of the samples
mkdir "$out/ex"
cp -R "$p/share/cdtail/fixtures" "$out/ex/"
(cd "$out/ex" && LD_LIBRARY_PATH="$p/lib" "$p/bin/cdtail" probe -q sim:fixtures/iso9660.iso,hide=3 >out 2>&1)
t "cdtail(1)'s example runs from a copy of the installed samples" "[ $? -eq 10 ]"
(cd "$out/ex" && LD_LIBRARY_PATH="$p/lib" "$p/bin/cdtail" probe --all --sysfs fixtures/sysfs/rack-sim -q >rack 2>&1)
t "the installed rack rehearses probe --all" "[ $? -eq 10 ] && [ \$(wc -l <'$out/ex/rack') -eq 3 ]"
t "builds with pkg-config" "cc -o '$out/use' '$(dirname "$0")/use.c' \$(pkg-config --cflags --libs --static cdtail) 2>'$out/err'"
t "runs against the emulated drive" "[ \"\$(LD_LIBRARY_PATH='$p/lib' '$out/use' 'sim:$iso,hide=2')\" = \"\$((\$(stat -c %s '$iso') / 2048)) 2\" ]"
t "installed binary runs" "'$p/bin/cdtail' probe 'sim:$iso' >/dev/null"
# cdtail help COMMAND finds the page installed beside the binary (share/man
# under the same prefix), wherever the install root is
t "installed help shows the installed page" "'$p/bin/cdtail' help verify 2>'$out/help.err' | grep -Eq '^ +cdtail-verify +- ' && [ ! -s '$out/help.err' ]"

# libcdtail(3)'s EXAMPLE is tests/install/example.c, and it works
here=$(dirname "$0")
man3="$p/share/man/man3/libcdtail.3"
sed -n '/^\.SH EXAMPLE/,/^\.SH /p' "$man3" | sed -n '/^\.in +4n$/,/^\.in$/p' |
	sed '1d;$d' | sed 's/\\e/\\/g' >"$out/example.from-man"
t "the man page's example is example.c" "cmp -s '$out/example.from-man' '$here/example.c'"
t "the example builds against the installed copy" \
	"cc -Wall -Wextra -Werror -o '$out/example' '$here/example.c' \$(pkg-config --cflags --libs cdtail) 2>>'$out/err'"
LD_LIBRARY_PATH="$p/lib" "$out/example" "sim:$iso,hide=2" "$out/ex.iso" "$out/ex.map" \
	>"$out/ex.out" 2>"$out/ex.err"
t "the example exits 0" "[ $? -eq 0 ]"
blocks=$(($(stat -c %s "$iso") / 2048))
t "the example runs the installed library" "grep -qx 'libcdtail $(sed -n 's/^Version: //p' "$p/lib/pkgconfig/cdtail.pc")' '$out/ex.out'"
t "the example finds the hidden tail" "grep -q 'reported $((blocks - 2)), true $blocks blocks of 2048 bytes (hidden-tail)' '$out/ex.out'"
t "the example images every block" "grep -q '^imaged $blocks blocks, 0 unreadable, sha256 '\$(sha256sum <'$iso' | cut -c1-64)'\$' '$out/ex.out' && cmp -s '$iso' '$out/ex.iso'"
t "the example reads the image's own probe" "grep -qx 'its end search: hidden-tail, $blocks blocks' '$out/ex.out'"
t "the example's map is GNU ddrescue's" "grep -q '^0x00000000  0x[0-9A-F]*  +' '$out/ex.map'"
t "the example verifies" "grep -qx 'verify: identical' '$out/ex.out'"
[ -s "$out/err" ] && cat "$out/err"
rm -rf "$out"
echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
