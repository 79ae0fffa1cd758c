#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""OUT of `cdtail image` against the disc the emulated drive serves.

Usage: blockcheck.py DISC OUT EXTENT SKIPPED BAD [BS]
  DISC     the sim: image file (what READ(10) of a data block returns)
  EXTENT   the blocks OUT must hold
  SKIPPED  "START+BLOCKS why,..." (or ""): never read, zeros in OUT
  BAD      JSON ranges [[A,B],...] (inclusive): unreadable, zeros in OUT
Every other block below EXTENT must be the disc's block at the same LBA
(the absolute LBA: data is never moved); past the file's end, zeros (what
a formatted medium's unwritten space answers).  Prints nothing and exits 0 when
OUT is right, else one line naming the first wrong block.
"""
import json
import sys


def main():
    disc_path, out_path, extent, skipped, bad = sys.argv[1:6]
    bs = int(sys.argv[6]) if len(sys.argv) > 6 else 2048
    extent = int(extent)
    zeros = []
    for ent in filter(None, (e.strip() for e in skipped.split(","))):
        start, blocks = (int(v) for v in ent.split()[0].split("+"))
        zeros.append((start, start + blocks))
    zeros += [(a, b + 1) for a, b in json.loads(bad or "[]")]
    # past the image file the drive serves zeros (formatted=) or nothing
    # that OUT may hold but zeros
    disc = open(disc_path, "rb").read().ljust(extent * bs, b"\0")
    out = open(out_path, "rb").read()
    if len(out) != extent * bs:
        sys.exit("OUT is %d bytes, wanted %d (%d blocks)" % (len(out), extent * bs, extent))
    # alternate runs: the disc's blocks up to the next zero range, then it
    pos = 0
    for a, b in sorted(zeros) + [(extent, extent)]:
        a, b = max(a, pos), min(b, extent)
        if a > pos and out[pos * bs:a * bs] != disc[pos * bs:a * bs]:
            first = next(x for x in range(pos, a)
                         if out[x * bs:(x + 1) * bs] != disc[x * bs:(x + 1) * bs])
            sys.exit("block %d: not the disc's block %d" % (first, first))
        if b > a and out[a * bs:b * bs].count(0) != (b - a) * bs:
            first = next(x for x in range(a, b) if out[x * bs:(x + 1) * bs].count(0) != bs)
            sys.exit("block %d: not zeros (skipped or bad)" % first)
        pos = max(pos, b)

if __name__ == "__main__":
    main()
