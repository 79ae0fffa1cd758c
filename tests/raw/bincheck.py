#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What image --raw must write for a disc tests/raw/model.py made, built
apart from the C code from the disc's KIND.json and its source files, and
compared with the BIN files an image --raw sheet names.

Usage: bincheck.py KIND.json OUT.cue [--offset S] [--zero LBA,...] [--split]
  Each track's file must hold, from its pregap (index 00) for tracks after
  the first, every sector to its end (the next track's pregap; the last
  track to the disc's end); inter-session gaps in no file.  MODE1/2048
  sources are expanded to raw Mode 1 sectors by model.py; a pregap the
  sheet did not store (PREGAP, a later session's first track's 2 s)
  reads as silence or as made sectors of the track's mode.  --zero: sectors that must
  be zeros (bad); --offset: audio runs shifted by S samples of 4 bytes
  (zeros where they would come from outside the run); --split: the files
  must split where the tracks do (else only their concatenation counts).
Prints "same", or what differs.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402

RAW = 2352


def source_sectors(jpath):
    d = json.load(open(jpath))
    kind = os.path.basename(jpath)[:-5]
    folder = os.path.dirname(jpath)
    sec = {}
    for t in d["tracks"]:
        ext = "iso" if t["cue_mode"] == "MODE1/2048" else "bin"
        data = open(os.path.join(folder, "%s (Track %d).%s" % (kind, t["number"], ext)), "rb").read()
        size = 2048 if ext == "iso" else RAW
        first = t["start"] - t["stored_pregap"]
        for i in range(len(data) // size):
            s = data[i * size:(i + 1) * size]
            sec[first + i] = model.mode1(first + i, s) if size == 2048 else s
        for lba in range(t["start"] - t["pregap"], first):
            sec[lba] = made_sector(t["cue_mode"], lba)
    return d, sec


def made_sector(mode, lba):
    """A pregap block the sheet does not store (PREGAP, a later session's
    first track's 2 s): silence, or a sector of the track's mode with zero
    data (a Mode 2 one Form 1 with a zero subheader), as a drive reads it."""
    if mode == "AUDIO":
        return bytes(RAW)
    if mode == "MODE2/2352":
        return model.mode2(lba, bytes(4), bytes(2048))
    return model.mode1(lba, bytes(2048))


def expected_files(d, sec):
    """[(number, audio, [lba...])] per track: its file's sectors."""
    out = []
    tracks = d["tracks"]
    for i, t in enumerate(tracks):
        first = t["start"] - (t["pregap"] if i else 0)
        end = t["start"] + t["blocks"] if i + 1 < len(tracks) else d["blocks"]
        out.append((t["number"], t["mode"] == "audio", t["session"], list(range(first, end))))
    return out


def shift_audio(files, blobs, samples):
    """Audio runs (consecutive audio files of a session, back to back) shifted."""
    n = 4 * samples
    i = 0
    while i < len(files):
        if not files[i][1]:
            i += 1
            continue
        j = i
        while (j + 1 < len(files) and files[j + 1][1] and files[j + 1][2] == files[i][2]
               and files[j + 1][3][:1] == [files[j][3][-1] + 1]):
            j += 1
        run = b"".join(blobs[i:j + 1])
        run = run[n:] + bytes(n) if n >= 0 else bytes(-n) + run[:len(run) + n]
        pos = 0
        for k in range(i, j + 1):
            blobs[k] = run[pos:pos + len(blobs[k])]
            pos += len(blobs[k])
        i = j + 1


def sheet_files(cue):
    folder = os.path.dirname(cue)
    return [os.path.join(folder, m) for m in re.findall(r'^FILE "(.*)" BINARY$',
                                                         open(cue).read(), re.M)]


def main(argv):
    jpath, cue = argv[1], argv[2]
    samples, zero, split = 0, set(), False
    args = argv[3:]
    while args:
        a = args.pop(0)
        if a == "--offset":
            samples = int(args.pop(0))
        elif a == "--zero":
            zero = {int(x) for x in args.pop(0).split(",") if x}
        elif a == "--split":
            split = True
    d, sec = source_sectors(jpath)
    files = expected_files(d, sec)
    blobs = [b"".join(bytes(RAW) if lba in zero else sec[lba] for lba in f[3]) for f in files]
    if samples:
        shift_audio(files, blobs, samples)
    got = [open(p, "rb").read() for p in sheet_files(cue)]
    bad = []
    if split and [len(b) for b in got] != [len(b) for b in blobs]:
        bad.append("file sizes %s, want %s" % ([len(b) // RAW for b in got],
                                               [len(b) // RAW for b in blobs]))
    want, have = b"".join(blobs), b"".join(got)
    if want != have:
        if len(want) != len(have):
            bad.append("%d sectors, want %d" % (len(have) // RAW, len(want) // RAW))
        diff = [i for i in range(min(len(want), len(have)) // RAW)
                if want[i * RAW:(i + 1) * RAW] != have[i * RAW:(i + 1) * RAW]]
        if diff:
            bad.append("%d sectors differ, the first at stream sector %d" % (len(diff), diff[0]))
    print("; ".join(bad) if bad else "same")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
