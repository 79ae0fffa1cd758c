#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What image --raw --subchannel must write into OUT.sub for a disc
tests/raw/model.py made (its KIND.json), built apart from the C code
(src/lib/cd/subpw.c, src/lib/jobs/rawsub.c, the emulated drive's
src/lib/sim/cuedisc.c) from the contract alone:

- one 96-byte record per stored sector, in the order of the stream (each
  track's file's sectors, as tests/raw/bincheck.py lists them);
- CloneCD's layout: P in bytes 0-11, Q in 12-23, R..W in 24-95, each
  channel's 96 bits most significant bit first;
- the emulated drive's P-W: P all ones in a pause (a track's index 00,
  before its INDEX 01), else zeros; Q mode 1 (model.subq: control 4 data,
  0 audio, the track, index 00 in the pregap with its time counting down
  to index 01, else 01 or a later INDEX nn from its time on, counting up
  from index 01, the absolute time); R-W zeros;
- a sector left unreadable: a record of zeros (no Q is made up).

Usage: submodel.py KIND.json OUT.sub [--zero LBA,...] [--flip K]
  Prints "same", or what differs (the first records that do).
       submodel.py write KIND.json FILE [--zero LBA,...]
  Writes the expected records to FILE.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bincheck  # noqa: E402
import model  # noqa: E402

REC = 96


def channels(p, q):
    """The record of a sector: P all ones or zeros, Q's 12 bytes, R-W zeros."""
    return (b"\xff" * 12 if p else bytes(12)) + q + bytes(72)


def index_at(t, lba, marks):
    """Q's index at lba: 00 before INDEX 01, else the last mark reached
    (marks: [(number, blocks after index 01)] of the track, rising)."""
    if lba < t["start"]:
        return 0
    index = 1
    for number, after in marks:
        if lba >= t["start"] + after:
            index = number
    return index


def expected(jpath, zero=(), marks=None):
    """marks: {track: [(number, blocks after index 01)]}, the INDEX 02..
    lines of the sheet the disc was made from (raw_model.py's)."""
    d, sec = bincheck.source_sectors(jpath)
    out = []
    for (number, audio, _session, lbas) in bincheck.expected_files(d, sec):
        t = next(x for x in d["tracks"] if x["number"] == number)
        control = 0 if audio else 4
        for lba in lbas:
            if lba in zero:
                out.append(bytes(REC))
                continue
            pause = lba < t["start"]
            rel = t["start"] - lba if pause else lba - t["start"]
            index = index_at(t, lba, (marks or {}).get(number, []))
            q = model.subq(control, number, index, rel, lba)
            out.append(channels(pause, q))
    return out


def main(argv):
    args = argv[1:]
    write = args and args[0] == "write"
    if write:
        args = args[1:]
    if len(args) < 2:
        sys.stderr.write(__doc__)
        return 2
    jpath, path = args[0], args[1]
    zero = set()
    rest = args[2:]
    while rest:
        a = rest.pop(0)
        if a == "--zero":
            zero = {int(x) for x in rest.pop(0).split(",") if x}
    want = expected(jpath, zero)
    if write:
        with open(path, "wb") as f:
            f.write(b"".join(want))
        return 0
    got = open(path, "rb").read()
    bad = []
    if len(got) != REC * len(want):
        bad.append("%d bytes, want %d records of 96" % (len(got), len(want)))
    diff = [k for k in range(min(len(want), len(got) // REC))
            if got[k * REC:(k + 1) * REC] != want[k]]
    if diff:
        k = diff[0]
        bad.append("%d records differ, the first %d: %s, want %s" % (
            len(diff), k, got[k * REC:k * REC + 24].hex(), want[k][:24].hex()))
    print("; ".join(bad) if bad else "same")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
