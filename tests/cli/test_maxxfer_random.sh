#!/bin/sh
# Seeded random runs of image, image --raw, verify, verify --cue and tail on
# random small discs with a random small maxxfer= (issue 31), each against
# the same run without the limit (tests/random/maxxfer_model.py): the same
# answer and files, and no command over the limit in the drive's trace.
# RANDOM_SEED and RANDOM_CASES override the defaults; a small run has 30.
. "$(dirname "$0")/lib.sh"

random_model "random runs with a small maxxfer" maxxfer_model.py cdtail-maxxfer-random \
	20261207 400 "" 30 ""
finish
