#!/bin/sh
# check.sh ROOT PREFIX ISO: what `make install DESTDIR=ROOT PREFIX=PREFIX`
# left is complete, and a program builds against it (pkg-config) and runs.
root=$1 prefix=$2 iso=$3
pass=0 fail=0
t() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "not ok - install: $1"; fi; }
p="$root$prefix"
t "binary" "[ -x '$p/bin/cdtail' ]"
t "static library" "[ -f '$p/lib/libcdtail.a' ]"
t "shared library with soname" "readelf -d '$p/lib/libcdtail.so.0.1.0' | grep -q 'SONAME.*libcdtail.so.0'"
t "soname link" "[ -L '$p/lib/libcdtail.so.0' ] && [ -L '$p/lib/libcdtail.so' ]"
t "header" "[ -f '$p/include/cdtail.h' ]"
t "man pages" "[ -f '$p/share/man/man1/cdtail.1' ] && [ -f '$p/share/man/man3/libcdtail.3' ]"
t "pkg-config prefix" "grep -qx 'prefix=$prefix' '$p/lib/pkgconfig/cdtail.pc'"
out=$(mktemp -d)
t "builds with pkg-config" "cc -o '$out/use' '$(dirname "$0")/use.c' \$(pkg-config --cflags --libs --static cdtail) 2>'$out/err'"
t "runs against the emulated drive" "[ \"\$(LD_LIBRARY_PATH='$p/lib' '$out/use' 'sim:$iso,hide=2')\" = \"\$((\$(stat -c %s '$iso') / 2048)) 2\" ]"
t "installed binary runs" "'$p/bin/cdtail' probe 'sim:$iso' >/dev/null"
[ -s "$out/err" ] && cat "$out/err"
rm -rf "$out"
echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
