#!/bin/sh
# Debian packages the build and the tests need.  Run as root (or via sudo).
set -e
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
	build-essential pkg-config \
	libsgutils2-dev libblkid-dev libcmocka-dev libssl-dev libjson-c-dev \
	libiscsi-dev libiscsi-bin tgt \
	xorriso udftools gddrescue python3 valgrind time jq openssl sg3-utils \
	qemu-system-x86 busybox-static cpio kmod xz-utils open-iscsi dmsetup \
	clang libclang-rt-14-dev \
	librsvg2-bin tmux python3
