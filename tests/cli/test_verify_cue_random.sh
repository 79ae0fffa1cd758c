#!/bin/sh
# Seeded random CUE/BIN discs for cdtail verify --cue (audio, MODE1/2048
# and MODE1/2352 tracks, stored and unstored pregaps, two sessions; sectors
# changed in the sheet's copy, bad= sectors, a track cut short, --all or
# not, FILEs named beside the sheet, from a subfolder as ../ or absolute
# with --cue-paths inside, any or neither), checked against tests/random/verifycue_model.py, which knows only
# the contract: per track the first differing sector, the differences and
# unreadable sectors counted, the exit status.  RANDOM_SEED and
# RANDOM_CASES override the defaults; a small run has 20 small discs.
. "$(dirname "$0")/lib.sh"

random_model "random CUE discs" verifycue_model.py cdtail-cuerandom 20261206 \
	200 "--small 0" 20 "--small 1"
finish
