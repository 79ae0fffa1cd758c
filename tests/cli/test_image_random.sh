#!/bin/sh
# Seeded random discs for cdtail image, checked against the model in
# tests/random/image_model.py (which knows only the contract): exit 0 or 4,
# OUT's bytes, the map's '-' blocks, ddrescuelog -t, the extent.
# RANDOM_SEED and RANDOM_CASES override the defaults; under TEST_WRAPPER
# (valgrind) a few small discs only.
. "$(dirname "$0")/lib.sh"

seed=${RANDOM_SEED:-20261203}
if [ -n "$TEST_WRAPPER" ]; then
	cases=${RANDOM_CASES:-24}
	max=2000
else
	cases=${RANDOM_CASES:-2000}
	max=50000
fi
# the map is fsynced at every save: a tmpfs keeps that cheap
work=$(mktemp -d /dev/shm/cdtail-random.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$T" "$work"' EXIT
if python3 "$ROOT/tests/random/image_model.py" "$CDTAIL" "$work" \
	--seed "$seed" --cases "$cases" --max-blocks "$max" >"$T/model.out" 2>&1; then
	ok "random discs: $(tail -1 "$T/model.out")"
else
	not_ok "random discs (seed $seed, $cases cases)" "$(head -c 3000 "$T/model.out")"
fi
finish
