#!/bin/sh
# Seeded random disc layouts for cdtail verify (sessions of data and audio
# tracks, gap=, tao=, hide=, bad=; --sha256, --md5, --image with garbage
# where the disc holds no data, or a data block changed), checked against
# the model in tests/random/verify_model.py, which knows only the contract:
# which LBAs are data, the digest of the image, the skipped list, and that
# nothing skipped is ever read.  RANDOM_SEED and RANDOM_CASES override the
# defaults; under TEST_WRAPPER (valgrind) 20 small discs.
. "$(dirname "$0")/lib.sh"

seed=${RANDOM_SEED:-20261204}
if [ -n "$TEST_WRAPPER" ]; then
	cases=${RANDOM_CASES:-20}
	small=1
else
	cases=${RANDOM_CASES:-200}
	small=0
fi
work=$(mktemp -d /dev/shm/cdtail-vrandom.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$T" "$work"' EXIT
if python3 "$ROOT/tests/random/verify_model.py" "$CDTAIL" "$work" \
	--seed "$seed" --cases "$cases" --small "$small" >"$T/model.out" 2>&1; then
	ok "random layouts: $(tail -1 "$T/model.out")"
else
	not_ok "random layouts (seed $seed, $cases cases)" "$(head -c 3000 "$T/model.out")"
fi
finish
