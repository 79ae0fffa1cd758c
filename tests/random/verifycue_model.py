#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeded random CUE/BIN discs for cdtail verify --cue, checked against a
model that knows only the contract (cdtail-verify(1), Raw images): a
track's part of its FILE is compared sector by sector with the disc at
the TOC start + x - INDEX 01, a track's comparison stops at its first
difference unless --all, an unreadable sector is not compared, a track
whose FILE is shorter than the disc's track differs, and the exit status
is 1 for any difference, else 4 for any unreadable sector, else 0.

Each case: 1 to 4 tracks (AUDIO, MODE1/2048, and small MODE1/2352 tracks
with EDC/ECC from tests/raw/model.py), stored (INDEX 00) and unstored
(PREGAP) pregaps, sometimes a second session; the disc is the sheet as
written, the sheet compared a copy with up to 3 sectors changed, bad=
sectors on the disc and sometimes a track's last sector cut off.  The copy's
sheet names its FILEs beside it, or (issue 32) from a subfolder as
"../tN.bin" or by absolute path, with --cue-paths inside, any or neither:
a FILE outside the sheet's folder without "any" is a usage error (2) that
names the first FILE line, and with it the files compare as beside it.

Usage: verifycue_model.py CDTAIL WORKDIR [--seed N] [--cases N] [--small 0|1]
"""
import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "raw"))
import common  # noqa: E402
import model  # noqa: E402

SECTOR = {"AUDIO": 2352, "MODE1/2352": 2352, "MODE1/2048": 2048}


def make_case(rng, i, small):
    n_tracks = rng.randint(1, 2 if small else 4)
    two_sessions = n_tracks > 1 and rng.random() < 0.2
    tracks = []
    for k in range(n_tracks):
        mode = rng.choice(["AUDIO", "AUDIO", "MODE1/2048", "MODE1/2048", "MODE1/2352"])
        count = rng.randint(4, 10) if mode == "MODE1/2352" else rng.randint(20, 80)
        session = 2 if two_sessions and k == n_tracks - 1 else 1
        stored = unstored = 0
        if k > 0:
            if rng.random() < 0.4:
                stored = rng.randint(1, min(150, count - 2))
            if rng.random() < 0.3:
                unstored = rng.randint(1, 150 - stored)
        tracks.append((mode, session, stored, unstored, count))
    return {"i": i, "tracks": tracks, "seed": rng.getrandbits(32),
            "all": rng.random() < 0.5, "n_flips": rng.randint(0, 3),
            "n_bad": rng.choice([0, 0, 1, 2]), "cut": rng.random() < 0.1}


def write_disc(case, folder):
    """The sheet, its files and the layout (model.place) in folder."""
    rnd = random.Random(case["seed"])
    layout, end = model.place([(m, s, st, un, [None] * n)
                               for (m, s, st, un, n) in case["tracks"]])
    cue, session = [], 1
    for t, (mode, sess, stored, unstored, count) in zip(layout, case["tracks"]):
        first = t["start"] - stored
        if mode == "AUDIO":
            data = rnd.randbytes(2352 * count)
        elif mode == "MODE1/2048":
            data = rnd.randbytes(2048 * count)
        else:
            data = b"".join(model.data_sector(rnd, first + x) for x in range(count))
        name = "t%d.bin" % t["number"]
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        if sess != session or (sess == 1 and t["number"] == 1 and
                               any(x[1] > 1 for x in case["tracks"])):
            cue.append("REM SESSION %02d" % sess)
            session = sess
        cue.append('FILE "%s" BINARY' % name)
        cue.append("  TRACK %02d %s" % (t["number"], mode))
        if unstored:
            cue.append("    PREGAP %s" % model.cue_time(unstored))
        if stored:
            cue.append("    INDEX 00 00:00:00")
        cue.append("    INDEX 01 %s" % model.cue_time(stored))
        t["first"], t["count"], t["mode"] = first, count, mode
    with open(os.path.join(folder, "disc.cue"), "w") as f:
        f.write("\n".join(cue) + "\n")
    return layout, end


def mutate(case, layout, end, copy, rnd):
    """Flip sectors of the copy's files, choose bad= LBAs, cut a track.
    Returns ({track: set of flipped file sectors}, set of bad LBAs, cut track or None)."""
    flips = {}
    for _ in range(case["n_flips"]):
        t = rnd.choice(layout)
        x = rnd.randrange(t["count"])
        ss = SECTOR[t["mode"]]
        path = os.path.join(copy, "t%d.bin" % t["number"])
        with open(path, "r+b") as f:
            f.seek(x * ss + rnd.randrange(ss))
            b = f.read(1)
            f.seek(-1, 1)
            f.write(bytes([b[0] ^ (1 << rnd.randrange(8))]))
        flips.setdefault(t["number"], set()).add(x)
    # bad sectors away from the disc's first and last 30 (the probe reads
    # there: a filesystem, the end search) and from every track's start
    lbas = [t["first"] + x for t in layout for x in range(t["count"])
            if 30 <= t["first"] + x < end - 30 and x > 0 and t["first"] + x > t["start"]]
    bad = set(rnd.sample(lbas, min(case["n_bad"], len(lbas))))
    cut = None
    if case["cut"]:
        t = rnd.choice(layout)
        if t["count"] - (t["start"] - t["first"]) > 2:
            cut = t["number"]
            path = os.path.join(copy, "t%d.bin" % cut)
            os.truncate(path, os.path.getsize(path) - SECTOR[t["mode"]])
            t["count"] -= 1
            flips[cut] = {x for x in flips.get(cut, ()) if x < t["count"]}
    return flips, bad, cut


def expect(case, layout, flips, bad, cut):
    """Per track (diff_sectors, first_diff_sector, first_diff_lba,
    bad_sectors, compared, length_differs) and the exit status."""
    want, any_diff, any_bad = [], False, False
    for t in layout:
        diffs, first, nbad, compared = 0, None, 0, 0
        for x in range(t["count"]):
            lba = t["first"] + x
            if lba in bad:
                nbad += 1
                continue
            compared += 1
            if x in flips.get(t["number"], ()):
                diffs += 1
                if first is None:
                    first = x
                if not case["all"]:
                    break
        short = t["number"] == cut
        want.append((diffs, first, None if first is None else t["first"] + first,
                     nbad, compared, short))
        any_diff = any_diff or diffs > 0 or short
        any_bad = any_bad or nbad > 0
    return want, 1 if any_diff else 4 if any_bad else 0


def place_sheet(copy, where):
    """The copy's sheet naming its FILEs beside it (as written), from
    copy/sub as ../tN.bin (up), or by absolute path (abs).  Returns the
    sheet's path and the number of its first FILE line."""
    path = os.path.join(copy, "disc.cue")
    with open(path) as f:
        lines = f.read().split("\n")
    first = 1 + [k for k, line in enumerate(lines) if line.startswith("FILE ")][0]
    if where == "beside":
        return path, first
    pre = "../" if where == "up" else copy + "/"
    lines = [line.replace('FILE "', 'FILE "' + pre, 1) if line.startswith("FILE ") else line
             for line in lines]
    if where == "up":
        os.makedirs(os.path.join(copy, "sub"))
        path = os.path.join(copy, "sub", "disc.cue")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return path, first


def check(case, seed, work, cdtail, wrapper):
    folder = os.path.join(work, "c%d" % case["i"])
    disc, copy = os.path.join(folder, "disc"), os.path.join(folder, "copy")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(disc)
    layout, end = write_disc(case, disc)
    shutil.copytree(disc, copy)
    rnd = random.Random(case["seed"] ^ 0x5A5A)
    flips, bad, cut = mutate(case, layout, end, copy, rnd)
    dev = "sim:%s,cost=0/0" % os.path.join(disc, "disc.cue")
    if bad:
        dev += ",bad=" + ":".join("%d-%d" % (b, b) for b in sorted(bad))
    # drawn apart from make_case's stream, so the cases before stay the same
    prnd = random.Random(case["seed"] ^ 0xC0E5)
    where = prnd.choice(["beside"] * 6 + ["up", "abs"])
    paths = prnd.choice([None, "inside", "any"])
    sheet, file_line = place_sheet(copy, where)
    cmd = wrapper + [cdtail, "verify", "--json", "--cue", sheet, dev]
    if case["all"]:
        cmd.insert(len(wrapper) + 2, "--all")
    if paths:
        cmd[len(wrapper) + 2:len(wrapper) + 2] = ["--cue-paths", paths]
    p = subprocess.run(cmd, capture_output=True, text=True)
    what = "case %d (%s, flips %s, bad %s, cut %s, all %s, FILE %s, --cue-paths %s)" % (
        case["i"], case["tracks"], {k: sorted(v) for k, v in flips.items()},
        sorted(bad), cut, case["all"], where, paths)
    if where != "beside" and paths != "any":
        msg = "cue line %d: FILE outside the sheet's folder" % file_line
        if p.returncode != 2 or msg not in p.stdout:
            return "%s: exit %d, wanted 2 and '%s': %s" % (what, p.returncode, msg,
                                                            p.stdout[:300])
        shutil.rmtree(folder)
        return None
    want, status = expect(case, layout, flips, bad, cut)
    if p.returncode != status:
        return "%s: exit %d, wanted %d: %s" % (what, p.returncode, status, p.stderr[:300])
    js = json.loads(p.stdout)
    got = [(t["diff_sectors"], t["first_diff_sector"], t["first_diff_lba"], t["bad_sectors"],
            t["compared"], t["length_differs"]) for t in js["tracks"]]
    if got != want:
        return "%s: tracks %s, wanted %s" % (what, got, want)
    shutil.rmtree(folder)
    return None


def run_cases(job):
    cases, seed, work, cdtail, wrapper = job
    os.makedirs(work, exist_ok=True)
    return common.first_fails(cases, lambda case: check(case, seed, work, cdtail, wrapper))


def main():
    cdtail, work, opts = common.parse_args(__doc__, {"seed": 1, "cases": 200, "small": 0})
    rng = random.Random(opts["seed"])
    cases = [make_case(rng, i, opts["small"]) for i in range(opts["cases"])]
    common.run_pool(cases, opts["seed"], work, cdtail, run_cases)


if __name__ == "__main__":
    main()
