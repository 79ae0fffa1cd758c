#!/bin/sh
# Seeded random DVD and BD discs for cdtail probe and image (issue 36),
# checked against tests/random/dvd_model.py (which knows only the
# contract): ECC-block and cluster damage (sim ecc=), CSS-scrambled
# sectors, the disc structure (right, wrong, refused, two layers on an
# opposite or a parallel track path, a parallel one's layer 1 refused), an ISO
# 9660 or UDF head, open DVD±R and BD-R whose READ CAPACITY says 1 or the
# last recorded address.  RANDOM_SEED and RANDOM_CASES override the
# defaults; under TEST_WRAPPER or CDT_SMALL a few cases only.
. "$(dirname "$0")/lib.sh"

random_model "random DVD and BD discs" dvd_model.py cdtail-dvd 20261236 \
	2000 "" 20 ""
finish
