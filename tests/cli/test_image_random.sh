#!/bin/sh
# Seeded random discs for cdtail image, checked against the model in
# tests/random/image_model.py (which knows only the contract): exit 0 or 4,
# OUT's bytes, the map's '-' blocks, ddrescuelog -t, the extent; a third of
# the discs have a layout (sessions, audio, gaps, TAO run-outs, open=,
# formatted=): the skipped list in JSON and the map, zeros there, no read
# of it in the drive's trace; a sixth of the plain discs are imaged again
# window-limited and resumed with the same, a smaller and a larger
# --max-extra (issue 28, B); true_blocks never below a block read, and a
# fifth of the steady discs imaged again with a medium change to the same
# disc (the same result) and to another (never two discs in OUT), beside a
# killed first save's temporary that must go (issue 32).
# RANDOM_SEED and RANDOM_CASES override the defaults; under TEST_WRAPPER
# (valgrind) a few small discs only.
. "$(dirname "$0")/lib.sh"

random_model "random discs" image_model.py cdtail-random 20261203 \
	2000 "--max-blocks 50000" 24 "--max-blocks 2000"
finish
