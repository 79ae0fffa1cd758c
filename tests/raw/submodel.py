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
  0 audio, with the sheet's FLAGS bits (DCP 2, 4CH 8, PRE 1), the track, index 00 in the pregap with its time counting down
  to index 01, else 01 or a later INDEX nn from its time on, counting up
  from index 01, the absolute time); R-W zeros;
- with the drive's qadr=N: the frame at absolute time A (LBA + 150) with
  A % N == N - 1 is the k-th (k = A // N): mode 2 (model.mcnq) with the
  sheet's CATALOG, mode 3 (model.isrcq) with an audio track's ISRC, the
  one there is, both: mode 2 for an even k, mode 3 for an odd; neither,
  or the first block of a pregap, of index 01 or of a later INDEX: mode 1
  as above;
- a sector left unreadable: a record of zeros (no Q is made up).

Usage: submodel.py KIND.json OUT.sub [--zero LBA,...] [--flip K] [IDS]
  Prints "same", or what differs (the first records that do).
       submodel.py write KIND.json FILE [--zero LBA,...]
  Writes the expected records to FILE.
  IDS: --qadr N --catalog MCN --isrc TRACK=ISRC --flags TRACK=BITS (hex),
  the last two repeated for each track; --mark TRACK=NUMBER@BLOCKS (an
  INDEX NUMBER that many blocks after the track's index 01), repeated.
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


def q_mode(ids, audio, number, lba, firsts):
    """2, 3 or 1: what the frame at lba carries under ids' qadr (firsts:
    the track's blocks where Q's index changes)."""
    n = ids.get("qadr") or 0
    a = lba + 150
    mcn = bool(ids.get("catalog"))
    isrc = audio and bool(ids.get("isrc", {}).get(number))
    if not n or a % n != n - 1 or not (mcn or isrc) or lba in firsts:
        return 1
    if mcn and isrc:
        return 3 if a // n % 2 else 2
    return 2 if mcn else 3


def expected(jpath, zero=(), marks=None, ids=None):
    """marks: {track: [(number, blocks after index 01)]}, the INDEX 02..
    lines of the sheet the disc was made from (raw_model.py's); ids:
    {"qadr": N, "catalog": MCN, "isrc": {track: ISRC}, "flags": {track:
    bits}}, the sheet's CATALOG, ISRC and FLAGS and the drive's qadr=."""
    d, sec = bincheck.source_sectors(jpath)
    ids = ids or {}
    out = []
    for (number, audio, _session, lbas) in bincheck.expected_files(d, sec):
        t = next(x for x in d["tracks"] if x["number"] == number)
        control = (0 if audio else 4) | ids.get("flags", {}).get(number, 0) & 0xB
        tmarks = (marks or {}).get(number, [])
        firsts = {t["start"], t["start"] - t["pregap"]} | {t["start"] + a for _, a in tmarks}
        for lba in lbas:
            if lba in zero:
                out.append(bytes(REC))
                continue
            pause = lba < t["start"]
            mode = q_mode(ids, audio, number, lba, firsts)
            if mode == 2:
                q = model.mcnq(control, ids["catalog"], lba)
            elif mode == 3:
                q = model.isrcq(control, ids["isrc"][number], lba)
            else:
                rel = t["start"] - lba if pause else lba - t["start"]
                index = index_at(t, lba, tmarks)
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
    ids = {"isrc": {}, "flags": {}}
    marks = {}
    rest = args[2:]
    while rest:
        a = rest.pop(0)
        if a == "--zero":
            zero = {int(x) for x in rest.pop(0).split(",") if x}
        elif a == "--qadr":
            ids["qadr"] = int(rest.pop(0))
        elif a == "--catalog":
            ids["catalog"] = rest.pop(0)
        elif a in ("--isrc", "--flags"):
            k, v = rest.pop(0).split("=")
            ids[a[2:]][int(k)] = v if a == "--isrc" else int(v, 16)
        elif a == "--mark":
            k, v = rest.pop(0).split("=")
            number, after = v.split("@")
            marks.setdefault(int(k), []).append((int(number), int(after)))
    want = expected(jpath, zero, marks, ids)
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
