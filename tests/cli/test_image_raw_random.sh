#!/bin/sh
# Seeded random CUE/BIN discs for cdtail image --raw (issue 26), checked
# against tests/random/raw_model.py, which knows only the contract and the
# sheet's layout and builds what the BIN files must hold apart from the C
# code (tests/raw/bincheck.py, model.py): sessions, audio, Mode 2 Form 2 and
# formless, MODE1/2048 tracks, stored and unstored pregaps, bad=, flaky=, a
# wrong EDC, hide=, --offset, drives that give index 01 only; --subchannel
# (OUT.sub record for record) and --single-file (issue 33).
# RANDOM_SEED and RANDOM_CASES override the defaults; a small run has 30.
. "$(dirname "$0")/lib.sh"

random_model "random raw discs" raw_model.py cdtail-raw-random 20261206 \
	1000 "" 30 ""
finish
