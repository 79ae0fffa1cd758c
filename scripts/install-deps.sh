#!/bin/sh
# Debian packages cdtail needs.  Run as root (or via sudo).
#   install-deps.sh [build] [test]
# build (the default, make deps): what building cdtail and running its
#   quick start need: the compiler, the libraries, xorriso and udftools for
#   the fixture images, jq and gddrescue (ddrescuelog) for README.md's
#   example session (tests/cli/test_readme.sh holds the two lists together).
# test (make test-deps): the test tools on top: cmocka, GNU ddrescue,
#   valgrind, clang's sanitizer runtime, QEMU and a busybox for the
#   real-kernel harness, tgt and open-iscsi for the iSCSI tests, tmux and
#   rsvg for the terminal and map tests, man-db (man and groff) for the
#   manual's tests and cdtail help, debhelper, lintian and fakeroot
#   for the Debian package (make check-deb), ewf-tools to check export's
#   EWF files, bchunk and cuetools (cueprint) to read image --raw's sheets.
# The tgt and open-iscsi packages ship services that Debian enables and
# starts on installation; the tests start their own tgtd on 127.0.0.1 when
# they need one, so this script keeps apt from starting any service and
# leaves tgt, iscsid and open-iscsi disabled: nothing listens on the host
# afterwards (a forensic workstation does not want an iSCSI target).
set -e
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

BUILD_PKGS="build-essential pkg-config libsgutils2-dev libblkid-dev libssl-dev
	libjson-c-dev libiscsi-dev libewf-dev xorriso udftools jq gddrescue"
TEST_PKGS="libcmocka-dev libiscsi-bin tgt open-iscsi gddrescue python3 valgrind
	time jq openssl sg3-utils qemu-system-x86 busybox-static cpio kmod xz-utils
	dmsetup clang libclang-rt-14-dev librsvg2-bin tmux man-db debhelper lintian
	fakeroot ewf-tools bchunk cuetools"
SERVICES="tgt iscsid iscsid.socket open-iscsi"

pkgs=
want_test=
[ $# -gt 0 ] || set -- build
for set in "$@"; do
	case $set in
	build) pkgs="$pkgs $BUILD_PKGS" ;;
	test) pkgs="$pkgs $TEST_PKGS"; want_test=1 ;;
	*) echo "install-deps.sh: unknown set '$set' (build, test)" >&2; exit 2 ;;
	esac
done

# policy-rc.d exit 101: invoke-rc.d starts no service during this install
# (Debian Policy 9.3.3.1); one that exists already is left as it is.
own_policy=
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
	$SUDO chmod 755 /usr/sbin/policy-rc.d
	own_policy=1
fi
cleanup() { [ -z "$own_policy" ] || $SUDO rm -f /usr/sbin/policy-rc.d; }
trap cleanup EXIT

$SUDO apt-get update
# shellcheck disable=SC2086
$SUDO apt-get install -y --no-install-recommends $pkgs

if [ -n "$want_test" ] && command -v systemctl >/dev/null 2>&1; then
	for s in $SERVICES; do
		# disable works without a running systemd (it edits the unit links);
		# stop only where systemd runs and a service is up
		$SUDO systemctl disable "$s" >/dev/null 2>&1 || true
		if [ -d /run/systemd/system ]; then
			$SUDO systemctl stop "$s" >/dev/null 2>&1 || true
		fi
	done
fi
