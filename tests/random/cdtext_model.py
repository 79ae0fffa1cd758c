#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeded random CD-TEXT for cdtail probe and image --raw, checked against
a model that knows only the contract (cdtail-sim(7) cdtext=, cdtail-probe(1)
CD-Text, cdtail-image(1) Raw: BIN/CUE):

- the emulated drive serves the sheet's TITLE .. MESSAGE lines as one
  block, English, ISO 8859-1: a character up to U+00FF as its one byte,
  any other as its UTF-8 bytes; a track's text equal to the track before
  it stands as a TAB (from track 2 on); a field with no text on the whole
  disc has no packs; all the text in more than 253 packs of 12 bytes (each
  string with its NUL, a field's strings the disc's then every track's)
  is no CD-TEXT at all; cdtext=refuse none either;
- probe (and image --raw) give each text as ISO 8859-1 read back: printable
  ASCII as it is, a backslash doubled, 0xA0 and above as its character,
  every other byte \\xNN (upper-case hex); cd_text null where there is none;
- image --raw's sheet has the disc's lines after CATALOG, a track's after
  its TRACK line, in the order TITLE PERFORMER SONGWRITER COMPOSER ARRANGER
  MESSAGE, each text in double quotes.

Each case: 1 to 40 audio tracks in one FILE, random texts (ASCII, Latin-1,
now and then characters beyond U+00FF and backslashes, lengths up to 150),
repeated from the track before now and then; image --raw for one case in 8.

Usage: cdtext_model.py CDTAIL WORKDIR [--seed N] [--cases N] [--small 0|1]
"""
import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import common  # noqa: E402

FIELDS = ["TITLE", "PERFORMER", "SONGWRITER", "COMPOSER", "ARRANGER", "MESSAGE"]
ALPHABET = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-'&()!?"
            "\u00e9\u00fc\u00df\u00f1\u00bd\u00c5\u00a9")
RARE = "\\\u20ac\u65e5\u0153"
SECTORS = 4  # per track


def rand_text(rng, small):
    n = rng.randint(1, 20 if small or rng.random() < 0.8 else 150)
    s = "".join(rng.choice(RARE) if rng.random() < 0.03 else rng.choice(ALPHABET)
                for _ in range(n))
    return s.strip() or "x"


def make_case(rng, i, small):
    n = rng.randint(1, 8 if small or rng.random() < 0.7 else 40)
    used = [f for f in FIELDS if rng.random() < 0.5] or ["TITLE"]
    text = {}
    for t in range(n + 1):
        for f in used:
            r = rng.random()
            if t >= 2 and (t - 1, f) in text and r < 0.25:
                text[(t, f)] = text[(t - 1, f)]
            elif r < 0.8:
                text[(t, f)] = rand_text(rng, small)
    return {"i": i, "n": n, "text": text, "refuse": rng.random() < 0.05,
            "image": rng.random() < 0.125}


def disc_bytes(s):
    """What the drive writes for a sheet's text."""
    return b"".join(bytes([ord(c)]) if ord(c) <= 0xFF else c.encode("utf-8") for c in s)


def read_back(b):
    """The text probe gives for those bytes."""
    out = []
    for c in b:
        if c == 0x5C:
            out.append("\\\\")
        elif 0x20 <= c < 0x7F:
            out.append(chr(c))
        elif c >= 0xA0:
            out.append(chr(c))
        else:
            out.append("\\x%02X" % c)
    return "".join(out)


def packs_needed(case):
    total = 0
    for f in FIELDS:
        if not any((t, f) in case["text"] for t in range(case["n"] + 1)):
            continue
        size = 0
        for t in range(case["n"] + 1):
            s = case["text"].get((t, f), "")
            if t >= 2 and s and s == case["text"].get((t - 1, f)):
                s = "\t"
            size += len(disc_bytes(s)) + 1
        total += (size + 11) // 12
    return total


def expect(case):
    """probe's cd_text, or None."""
    if case["refuse"] or not case["text"] or packs_needed(case) > 253:
        return None
    disc = {f.lower(): read_back(disc_bytes(case["text"][(0, f)]))
            for f in FIELDS if (0, f) in case["text"]}
    tracks = []
    for t in range(1, case["n"] + 1):
        fs = {f.lower(): read_back(disc_bytes(case["text"][(t, f)]))
              for f in FIELDS if (t, f) in case["text"]}
        if fs:
            fs["number"] = t
            tracks.append(fs)
    return {"blocks": [{"block": 0, "language": 9, "language_name": "English",
                        "charset": "ISO-8859-1", "charset_code": 0,
                        "disc": disc, "tracks": tracks}]}


def write_sheet(case, folder):
    with open(os.path.join(folder, "a.bin"), "wb") as f:
        f.write(bytes(2352 * SECTORS * case["n"]))
    lines = ['%s "%s"' % (f, case["text"][(0, f)]) for f in FIELDS if (0, f) in case["text"]]
    lines.append('FILE "a.bin" BINARY')
    for t in range(1, case["n"] + 1):
        lines.append("  TRACK %02d AUDIO" % t)
        lines += ['    %s "%s"' % (f, case["text"][(t, f)]) for f in FIELDS
                  if (t, f) in case["text"]]
        f = (t - 1) * SECTORS
        lines.append("    INDEX 01 %02d:%02d:%02d" % (f // 4500, f // 75 % 60, f % 75))
    with open(os.path.join(folder, "d.cue"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def sheet_lines(want, n):
    """image --raw's CD-TEXT lines: (where, line) in the sheet's order."""
    if not want:
        return []
    b = want["blocks"][0]
    out = [(0, '%s "%s"' % (f, b["disc"][f.lower()])) for f in FIELDS if f.lower() in b["disc"]]
    by = {t["number"]: t for t in b["tracks"]}
    for t in range(1, n + 1):
        out += [(t, '    %s "%s"' % (f, by[t][f.lower()])) for f in FIELDS
                if t in by and f.lower() in by[t]]
    return out


def got_sheet_lines(path):
    out, track = [], 0
    for line in open(path, encoding="utf-8").read().splitlines():
        if line.startswith("  TRACK "):
            track = int(line.split()[1])
        elif line.strip().split(" ")[0] in FIELDS:
            out.append((track, line))
    return out


def check(case, seed, work, cdtail, wrapper):
    folder = os.path.join(work, "c%d" % case["i"])
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    write_sheet(case, folder)
    dev = "sim:%s,cost=0/0%s" % (os.path.join(folder, "d.cue"),
                                 ",cdtext=refuse" if case["refuse"] else "")
    want = expect(case)
    what = "case %d (%d tracks, %d packs, refuse %s)" % (case["i"], case["n"],
                                                        packs_needed(case), case["refuse"])
    p = subprocess.run(wrapper + [cdtail, "probe", "--json", dev], capture_output=True)
    if p.returncode != 0:
        return "%s: probe exit %d: %s" % (what, p.returncode, p.stderr[:300])
    got = json.loads(p.stdout)["cd_text"]
    if got is not None:
        if got.get("bad_crc") != 0 or got.get("packs", 0) < 4:
            return "%s: packs %s, bad_crc %s" % (what, got.get("packs"), got.get("bad_crc"))
        got = {"blocks": got["blocks"]}
    if got != want:
        return "%s: cd_text %s, wanted %s" % (what, json.dumps(got)[:600], json.dumps(want)[:600])
    if case["image"]:
        out = os.path.join(folder, "o.cue")
        p = subprocess.run(wrapper + [cdtail, "image", "--raw", "--json", dev, out],
                           capture_output=True)
        if p.returncode != 0:
            return "%s: image --raw exit %d: %s" % (what, p.returncode, p.stderr[:300])
        js = json.loads(p.stdout)["cd_text"]
        if (js and {"blocks": js["blocks"]}) != want:
            return "%s: image --raw's cd_text %s" % (what, json.dumps(js)[:600])
        if got_sheet_lines(out) != sheet_lines(want, case["n"]):
            return "%s: sheet lines %s, wanted %s" % (what, got_sheet_lines(out)[:8],
                                                      sheet_lines(want, case["n"])[:8])
    shutil.rmtree(folder)
    return None


def run_cases(job):
    cases, seed, work, cdtail, wrapper = job
    os.makedirs(work, exist_ok=True)
    return common.first_fails(cases, lambda case: check(case, seed, work, cdtail, wrapper))


def main():
    cdtail, work, opts = common.parse_args(__doc__, {"seed": 1, "cases": 300, "small": 0})
    rng = random.Random(opts["seed"])
    cases = [make_case(rng, i, opts["small"]) for i in range(opts["cases"])]
    common.run_pool(cases, opts["seed"], work, cdtail, run_cases)


if __name__ == "__main__":
    main()
