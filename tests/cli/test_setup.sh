#!/bin/sh
# The set-up promise (README, Set up): `make deps` installs what building and
# the quick start need (jq and ddrescuelog for its session) and no other
# test tool; `make test-deps` adds the test tools
# and leaves no service enabled or running on the host (the iSCSI tests start
# their own tgtd on 127.0.0.1).  Run after .ci/run's install, this checks the
# machine the tests run on.
. "$(dirname "$0")/lib.sh"
DEPS="$ROOT/scripts/install-deps.sh"

# pkgs_of SET: the Debian packages install-deps.sh installs for SET
pkgs_of() {
	sed -n "/^$1=\"/,/\"/p" "$DEPS" | tr -d '"\t' | sed "s/^$1=//" | tr ' ' '\n' | sed '/^$/d'
}

build=$(pkgs_of BUILD_PKGS)
tests=$(pkgs_of TEST_PKGS)
if [ -n "$build" ] && [ -n "$tests" ]; then ok "install-deps.sh names both sets"; else
	not_ok "install-deps.sh names both sets" "build: $build" "test: $tests"; fi
for p in libcmocka-dev tgt open-iscsi qemu-system-x86 valgrind clang tmux; do
	if echo "$build" | grep -qx "$p"; then not_ok "make deps does not install $p (a test tool)"
	else ok "make deps does not install $p (a test tool)"; fi
	if echo "$tests" | grep -qx "$p"; then ok "make test-deps installs $p"
	else not_ok "make test-deps installs $p"; fi
done

# issue 35: the quick start's example session runs jq and GNU ddrescue's
# ddrescuelog, so make deps installs them (gddrescue stays a test tool too)
for p in jq gddrescue; do
	if echo "$build" | grep -qx "$p"; then ok "make deps installs $p (README's session runs it)"
	else not_ok "make deps installs $p (README's session runs it)"; fi
done
if echo "$tests" | grep -qx gddrescue; then ok "make test-deps installs gddrescue"
else not_ok "make test-deps installs gddrescue"; fi

sh "$DEPS" bogus >"$T/out" 2>"$T/err"
RC=$?
expect_rc "install-deps.sh refuses an unknown set" 2
expect_err_line "install-deps.sh names the sets" "unknown set 'bogus' \(build, test\)"

# Only on a machine whose packages came from install-deps.sh with systemd's
# tools: the services it must leave off.
if command -v systemctl >/dev/null 2>&1 && command -v tgtd >/dev/null 2>&1; then
	for s in tgt iscsid open-iscsi; do
		st=$(systemctl is-enabled "$s" 2>/dev/null)
		case $st in
		enabled | enabled-runtime) not_ok "service $s is not enabled after test-deps" "is-enabled: $st" ;;
		*) ok "service $s is not enabled after test-deps ($st)" ;;
		esac
	done
	# the host's services, where systemd runs them (the tests' own tgtd is not one)
	if [ -d /run/systemd/system ]; then
		for s in tgt iscsid; do
			if systemctl is-active -q "$s" 2>/dev/null; then
				not_ok "service $s is not running after test-deps"
			else ok "service $s is not running after test-deps"; fi
		done
	fi
fi
finish
