#!/bin/sh
# Seeded random CD-TEXT sheets (issue 33) for probe and image --raw,
# checked against tests/random/cdtext_model.py, which knows only the
# contract: the emulated drive's packs of the sheet's lines (ISO 8859-1,
# the TAB rule, the 253-pack bound, cdtext=refuse), the text read back
# with its escapes, and image --raw's sheet lines in redumper's order.
# RANDOM_SEED and RANDOM_CASES override the defaults; a small run has 40.
. "$(dirname "$0")/lib.sh"

random_model "random CD-TEXT sheets" cdtext_model.py cdtail-cdtext-random 20261207 \
	1000 "" 40 "--small 1"
finish
