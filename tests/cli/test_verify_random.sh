#!/bin/sh
# Seeded random disc layouts for cdtail verify (sessions of data and audio
# tracks, gap=, tao=, hide=, bad=; --sha256, --md5, --image with garbage
# where the disc holds no data, or a data block changed), checked against
# the model in tests/random/verify_model.py, which knows only the contract:
# which LBAs are data, the digest of the image, the skipped list, and that
# nothing skipped is ever read.  RANDOM_SEED and RANDOM_CASES override the
# defaults; under TEST_WRAPPER (valgrind) 20 small discs.
. "$(dirname "$0")/lib.sh"

random_model "random layouts" verify_model.py cdtail-vrandom 20261204 \
	200 "--small 0" 20 "--small 1"
finish
