#!/bin/sh
# Fetch the Debian kernel and the modules the VM tests need, once, into the
# cache directory (default tests/vm/cache, gitignored):
#   CACHE/vmlinux           the uncompressed kernel (QEMU boots it through PVH)
#   CACHE/ko/NAME.ko        each needed module, flat, by its name (- as _)
#   CACHE/ko/deps           one line per module: NAME: DEP DEP ...
#   CACHE/kernel.version    the package name, for the log
# A second run reuses all of it.  Only `apt-get download` touches the network
# (the Debian archive).
set -e
here=$(cd "$(dirname "$0")" && pwd)
CACHE=${VM_CACHE:-$here/cache}
mkdir -p "$CACHE"

# Every module any case loads; their dependencies are added below.
WANT="scsi_common scsi_mod cdrom sr_mod sg
virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci virtio_scsi
libata ata_piix libahci ahci
crct10dif_common crct10dif_generic crc_t10dif scsi_debug
crc32c_generic scsi_transport_iscsi libiscsi libiscsi_tcp iscsi_tcp
crc64 crc64_rocksoft_generic crc64_rocksoft t10_pi sd_mod
dm_mod dm_multipath dm_round_robin"

if [ -s "$CACHE/vmlinux" ] && [ -s "$CACHE/ko/deps" ] && [ -s "$CACHE/kernel.version" ]; then
	have=1
	for m in $WANT; do [ -f "$CACHE/ko/$m.ko" ] || have=0; done
	[ $have = 1 ] && exit 0
fi

pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/^ *Depends: *\(linux-image-[0-9][^ ]*\).*/\1/p' | head -1)
if [ -z "$pkg" ]; then
	echo "kernel.sh: apt-cache depends linux-image-amd64 names no kernel package" >&2
	exit 1
fi
deb=$(ls "$CACHE/${pkg}"_*.deb 2>/dev/null | head -1 || true)
if [ -z "$deb" ]; then
	echo "kernel.sh: downloading $pkg" >&2
	(cd "$CACHE" && apt-get download "$pkg" >/dev/null 2>&1) || {
		echo "kernel.sh: apt-get download $pkg failed" >&2
		exit 1
	}
	deb=$(ls "$CACHE/${pkg}"_*.deb | head -1)
fi

tmp="$CACHE/root.$$"
trap 'rm -rf "$tmp"' EXIT
rm -rf "$tmp"
dpkg -x "$deb" "$tmp"

# vmlinux: the xz stream inside the bzImage (magic FD 37 7A 58 5A 00).
vmlinuz=$(ls "$tmp"/boot/vmlinuz-* | head -1)
off=$(LC_ALL=C grep -obUaP '\xfd\x37\x7a\x58\x5a\x00' "$vmlinuz" | head -1 | cut -d: -f1)
if [ -z "$off" ]; then
	echo "kernel.sh: no xz stream in $vmlinuz" >&2
	exit 1
fi
tail -c +$((off + 1)) "$vmlinuz" | xz -dc --single-stream >"$CACHE/vmlinux.tmp" 2>/dev/null || true
if ! head -c 4 "$CACHE/vmlinux.tmp" | od -An -c | grep -q 'E   L   F'; then
	echo "kernel.sh: the xz stream in $vmlinuz is not an ELF kernel" >&2
	exit 1
fi
mv "$CACHE/vmlinux.tmp" "$CACHE/vmlinux"

# Modules: index every .ko by its name, then copy the closure of WANT.
moddir=$(ls -d "$tmp"/lib/modules/* | head -1)
find "$moddir" -name '*.ko' -o -name '*.ko.xz' >"$tmp/all"
rm -rf "$CACHE/ko"
mkdir -p "$CACHE/ko"
: >"$CACHE/ko/deps"
todo=$WANT
while [ -n "$todo" ]; do
	next=
	for m in $todo; do
		[ -f "$CACHE/ko/$m.ko" ] && continue
		f=$(grep -E "/$(echo "$m" | sed 's/[-_]/[-_]/g')\.ko(\.xz)?\$" "$tmp/all" | head -1)
		if [ -z "$f" ]; then
			echo "kernel.sh: module $m not in $pkg" >&2
			exit 1
		fi
		case $f in
		*.xz) xz -dc "$f" >"$CACHE/ko/$m.ko" ;;
		*) cp "$f" "$CACHE/ko/$m.ko" ;;
		esac
		d=$(/sbin/modinfo -F depends "$CACHE/ko/$m.ko" | tr ',-' ' _')
		echo "$m: $d" >>"$CACHE/ko/deps"
		next="$next $d"
	done
	todo=$next
done
echo "$pkg $(basename "$deb")" >"$CACHE/kernel.version"
echo "kernel.sh: $pkg ready in $CACHE" >&2
