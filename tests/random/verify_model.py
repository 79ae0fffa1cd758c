#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeded random disc layouts for `cdtail verify`, checked against a model
that knows only the contract (cdtail(1)'s layout=, gap=, tao=, bad=,
hide= keys; cdtail-verify(1)), not the library.

The model, for a sim: disc laid out as sessions of data and audio tracks:
  - LBAs are given out in order from 0, with a gap of 11400 blocks after
    the first session and 6900 after each later one, whether the drive
    answers READ TOC or refuses it (toc=none: disc and track information);
  - not data, so never read and zeros in the digests: every audio track,
    every gap, and with tao=1 the last 2 blocks (run-out) of every data
    track but the disc's last one, whose run-out is past the true end;
  - the extent is N, less the last track's 2 run-out blocks with tao=1
    when it is data (hide= changes only what READ CAPACITY says);
  - a data block inside a bad= range never reads: zeros in the digests,
    counted in bad_count, exit 4 (when nothing differs);
  - a data block inside a fault=form2 range answers 05/64/00 inside a
    data track: Mode 2 Form 2 (issue 23, cdtail-verify(1)), skipped with
    why "form2", zeros in the digests, never compared, never bad, and the
    verdict "incomplete", exit 4, when nothing differs and nothing is bad.
verify --sha256/--md5 of the model's digest exits 0 (4 with bad blocks) and
reports that digest; verify --image of the model's image exits 0 whatever
the image holds in the skipped areas, 1 at the first data block that
differs.  JSON skipped is the model's list, and no READ after the probe's
touches a skipped LBA but Form 2 ones, found by reading them.  A quarter of the --image cases have a FILE longer
than the disc (by whole blocks or a part of one) or shorter (where the
blocks it lacks hold data): each block past the disc or lacking is one
difference, counted alike with --all (issue 28, H).

Usage: verify_model.py CDTAIL WORKDIR [--seed S] [--cases N] [--small 1]
(--small: one session but for every 8th case, the cheap discs valgrind can
afford: a gap alone is 11400 blocks to hash)
Prints "ok N cases" or one "FAIL case ..." line per failing case (with the
command to replay it); exits 1 when any case failed.
"""
import hashlib
import json
import math
import os
import random
import shlex
import subprocess

import common

BS = 2048
FIRST_GAP, LATER_GAP = 11400, 6900


def log_uniform(rng, lo, hi):
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi + 0.999)))))


def make_layout(rng, small):
    """[(session, mode, start, blocks)], gaps [(start, blocks)], N."""
    sessions = 1 if small else rng.choice([1, 1, 2, 2, 3])
    tracks, gaps, lba = [], [], 0
    for s in range(sessions):
        for _ in range(rng.choice([1, 1, 2, 3])):
            mode = "audio" if rng.random() < 0.35 else "data"
            blocks = log_uniform(rng, 10, 2500)
            tracks.append((s, mode, lba, blocks))
            lba += blocks
        if s + 1 < sessions:
            g = FIRST_GAP if s == 0 else LATER_GAP
            gaps.append((lba, g))
            lba += g
    return tracks, gaps, lba


def model(case):
    """extent, skipped [(start, blocks, why)], bad set."""
    tracks, gaps, n, tao = case["tracks"], case["gaps"], case["n"], case["tao"]
    last = tracks[-1]
    extent = n - 2 if tao and last[1] == "data" else n
    skipped = []
    for i, (_, mode, start, blocks) in enumerate(tracks):
        if mode == "audio":
            skipped.append((start, blocks, "audio"))
        elif tao and i + 1 < len(tracks):
            skipped.append((start + blocks - 2, 2, "runout"))
    skipped += [(a, b, "gap") for a, b in gaps]
    if case.get("form2"):
        a, b = case["form2"]
        skipped.append((a, b - a + 1, "form2"))
    skipped.sort()
    bad = set()
    for a, b in case["bad"]:
        bad.update(range(a, b + 1))
    return extent, skipped, bad


def data_ranges(case):
    """(start, blocks) of the blocks of data tracks that read (no run-out)."""
    out = []
    for _, mode, start, blocks in case["tracks"]:
        if mode == "data":
            out.append((start, blocks - 2 if case["tao"] else blocks))
    return out


def make_case(rng, idx, small):
    while True:
        tracks, gaps, n = make_layout(rng, small)
        if any(t[1] == "data" for t in tracks) or rng.random() < 0.1:
            break
    tao = rng.random() < 0.3
    case = {"idx": idx, "tracks": tracks, "gaps": gaps, "n": n, "tao": tao}
    keys = ["cost=0/0",
            "layout=" + "/".join("+".join("%s:%d" % (t[1], t[3]) for t in tracks if t[0] == s)
                                 for s in range(tracks[-1][0] + 1)),
            "gap=" + rng.choice(["05/21/00", "zero", "hang", "03/02/00"])]
    if tao:
        keys.append("tao=1")
    # the drive refuses READ TOC: the same layout from disc and track
    # information (its own generator: the other draws stay the seed's)
    if random.Random("toc-%d" % idx).random() < 0.3:
        keys.append("toc=none")
    last = tracks[-1]
    if not tao and last[1] == "data" and last[3] > 20 and rng.random() < 0.2:
        keys.append("hide=%d" % rng.randint(1, last[3] // 2))
    # bad blocks inside data, away from the last track's end (where they
    # would be an end the search finds: not what this test is about)
    bad = []
    data = [r for r in data_ranges(case) if r[1] > 4 and r[0] != last[2]]
    if last[1] == "data" and last[3] > 40:
        data.append((last[2], last[3] // 2))
    if data and rng.random() < 0.3:
        for _ in range(rng.choice([1, 1, 2])):
            start, blocks = rng.choice(data)
            a = start + rng.randrange(blocks)
            b = min(start + blocks - 1, a + log_uniform(rng, 1, 40) - 1)
            bad.append((a, b))
        bad.sort()
        merged = []
        for a, b in bad:
            if merged and a <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
            else:
                merged.append((a, b))
        bad = merged
        keys.append("bad=" + ":".join("%d-%d" % r for r in bad))
    case["bad"] = bad
    # Form 2 blocks inside a data track, on discs without bad blocks (its
    # own generator: the other draws stay the seed's)
    r2 = random.Random("form2-%d" % idx)
    case["form2"] = None
    if data and not bad and r2.random() < 0.25:
        # off a track's last 2 data blocks: 05/64/00 there, before an
        # audio track, is that track's pregap as a drive of index 01
        # starts tells it (cdtail-probe(1), Pregaps)
        start, blocks = r2.choice(data)
        a = start + r2.randrange(blocks - 2)
        case["form2"] = (a, min(start + blocks - 3, a + log_uniform(r2, 1, 30) - 1))
        keys.append("fault=form2@%d-%d" % case["form2"])
    case["keys"] = keys
    case["mode"] = rng.choice(["sha256", "md5", "image", "image"])
    case["flip"] = None
    if case["mode"] == "image":
        case["garbage"] = rng.random() < 0.7
        reads = [x for x in data_ranges(case) if x[1] > 0]
        if reads and rng.random() < 0.3:
            start, blocks = rng.choice(reads)
            case["flip"] = start + rng.randrange(blocks)
    opts = []
    if rng.random() < 0.5:
        opts += ["--chunk", str(rng.choice([1, 7, 16, 32, 64]))]
    opts += ["--retries", str(rng.choice([0, 1]))]
    if case["mode"] == "image" and rng.random() < 0.5:
        opts.append("--all")
    case["opts"] = opts
    return case


def disc_bytes(case, seed):
    """The image file the drive serves: random data and audio, zeros in gaps."""
    rng = random.Random(seed * 1000003 + case["idx"])
    buf = bytearray(case["n"] * BS)
    for _, mode, start, blocks in case["tracks"]:
        buf[start * BS:(start + blocks) * BS] = rng.randbytes(blocks * BS)
    return buf


def expected(case, disc, extent, skipped, bad):
    """What the digests cover: the disc's data, zeros where skipped or bad."""
    want = bytearray(disc[:extent * BS])
    for a, b, _ in skipped:
        want[a * BS:min(a + b, extent) * BS] = bytes(max(0, min(a + b, extent) - a) * BS)
    for x in bad:
        want[x * BS:(x + 1) * BS] = bytes(BS)
    return want


def image_file(case, want, skipped, bad, rng):
    """The --image FILE: the disc's data; garbage where verify must not look."""
    img = bytearray(want)
    if case["garbage"]:
        for a, b, _ in skipped:
            for x in range(a, min(a + b, len(img) // BS)):
                img[x * BS] = 0xA5
        for x in bad:
            img[x * BS + 7] = 0x5A
    if case["flip"] is not None and case["flip"] not in bad:
        img[case["flip"] * BS + rng.randrange(BS)] ^= 0x01
    return img


def file_length(case, seed, want, skipped, bad, extent):
    """The --image FILE's length: the disc's, or (its own generator, so
    the other draws stay those of the seed) longer or shorter where the
    blocks it lacks hold data, never zeros (cdtail(1): zeros past a
    shorter FILE are padding)."""
    r = random.Random("len-%d-%d" % (seed, case["idx"]))
    full = extent * BS
    if r.random() >= 0.25:
        return full
    if r.random() < 0.5:
        return full + (r.randint(1, 3) * BS if r.random() < 0.7 else r.randint(1, BS - 1))
    k = r.randint(1, 3)
    nodata = set(bad)
    for a, b, _ in skipped:
        nodata.update(range(a, a + b))
    if k >= extent or any(x in nodata or not any(want[x * BS:(x + 1) * BS])
                          for x in range(extent - k, extent)):
        return full
    return full - k * BS


def reads(trace_lines):
    for ln in trace_lines:
        w = ln.split()
        if w and w[0] in ("28", "a8", "88"):
            lba = int(w[1].split("=")[1])
            yield lba, int(w[2].split("=")[1])


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True)


def check(case, seed, work, cdtail, wrapper):
    disc_path = os.path.join(work, "disc.img")
    disc = disc_bytes(case, seed)
    with open(disc_path, "wb") as f:
        f.write(disc)
    extent, skipped, bad = model(case)
    want = expected(case, disc, extent, skipped, bad)
    rng = random.Random(seed + case["idx"])
    tr_probe, tr = os.path.join(work, "probe.tr"), os.path.join(work, "verify.tr")
    for f in (tr_probe, tr):
        if os.path.exists(f):
            os.unlink(f)
    dev = "sim:%s,%s" % (disc_path, ",".join(case["keys"]))
    run([cdtail, "probe", "%s,trace=%s" % (dev, tr_probe)])
    if case["mode"] == "image":
        img = os.path.join(work, "image.iso")
        length = file_length(case, seed, want, skipped, bad, extent)
        with open(img, "wb") as f:
            f.write(image_file(case, want, skipped, bad, rng))
            if length > extent * BS:
                f.write(random.Random(seed - case["idx"]).randbytes(length - extent * BS))
            else:
                f.truncate(length)
        what = ["--image", img]
    elif case["mode"] == "sha256":
        what = ["--sha256", hashlib.sha256(want).hexdigest()]
    else:
        what = ["--md5", hashlib.md5(want).hexdigest()]
    argv = wrapper + [cdtail, "verify", "--json", "-q"] + case["opts"] + what + \
        ["%s,trace=%s" % (dev, tr)]
    p = run(argv)
    replay = " ".join(shlex.quote(a) for a in argv)

    def fail(why):
        return "case %d: %s\n    %s\n    stderr: %s" % (
            case["idx"], why, replay, p.stderr.strip()[:300])

    form2 = set(range(case["form2"][0], case["form2"][1] + 1)) if case["form2"] else set()
    flip = case["flip"] if case["flip"] is not None and case["flip"] not in bad | form2 else None
    # the blocks FILE holds past the disc or lacks: (first, count)
    span = None
    if case["mode"] == "image" and length != extent * BS:
        if length > extent * BS:
            span = (extent, -(-(length - extent * BS) // BS))
        else:
            span = (length // BS, extent - length // BS)
    if flip is not None and span and span[0] <= flip:
        flip = None     # FILE lacks it: the lacking blocks count it
    want_rc = 1 if flip is not None or span else 4 if bad or form2 else 0
    if p.returncode != want_rc:
        return fail("exit %d, wanted %d" % (p.returncode, want_rc))
    try:
        js = json.loads(p.stdout)
    except ValueError:
        return fail("stdout is not JSON")
    verdict = "different" if want_rc == 1 else "unreadable" if bad else \
        "incomplete" if form2 else "identical"
    # a run that stops at a difference may not reach the Form 2 blocks
    complete = (flip is None and span is None) or "--all" in case["opts"]
    if js.get("verdict") not in (verdict, "prefix" if want_rc == 1 else verdict) or \
            (complete and js.get("form2_blocks") != len(form2)):
        return fail("verdict %s form2_blocks %s, wanted %s %d" % (
            js.get("verdict"), js.get("form2_blocks"), verdict, len(form2)))
    got_skip = [(k["start"], k["blocks"], k["why"]) for k in js.get("skipped") or []]
    want_skip = [(a, min(b, extent - a), w) for a, b, w in skipped if a < extent]
    # a run that stops at a difference lists the Form 2 blocks it met
    if [k for k in got_skip if complete or k[2] != "form2"] != \
            [k for k in want_skip if complete or k[2] != "form2"]:
        return fail("skipped %s, wanted %s" % (got_skip, want_skip))
    if js.get("skipped_blocks") != sum(b for _, b, _ in got_skip):
        return fail("skipped_blocks %s" % js.get("skipped_blocks"))
    if js.get("extent_blocks") != extent:
        return fail("extent_blocks %s, wanted %d" % (js.get("extent_blocks"), extent))
    if complete:
        if js.get("bad_count") != len(bad):
            return fail("bad_count %s, wanted %d" % (js.get("bad_count"), len(bad)))
        data = extent - sum(b for _, b, _ in want_skip)
        if js.get("blocks_read") != data - len(bad):
            return fail("blocks_read %s, wanted %d" % (js.get("blocks_read"), data - len(bad)))
        if js.get("sha256") != hashlib.sha256(want).hexdigest():
            return fail("sha256 %s is not the model's" % js.get("sha256"))
    if flip is not None and js.get("first_diff_lba") != flip:
        return fail("first_diff_lba %s, wanted %d" % (js.get("first_diff_lba"), flip))
    if span:
        # with --all every difference counts; without, the run stops in
        # the chunk of the first (its count is that chunk's)
        first = flip if flip is not None else span[0]
        count = (flip is not None) + span[1] if "--all" in case["opts"] else None
        if js.get("first_diff_lba") != first or \
                (count is not None and js.get("diff_count") != count):
            return fail("FILE of %d bytes: first_diff_lba %s diff_count %s, wanted %d %s" % (
                length, js.get("first_diff_lba"), js.get("diff_count"), first, count))
    with open(tr_probe) as f:
        head = f.readlines()
    with open(tr) as f:
        lines = f.readlines()
    if lines[:len(head)] != head:
        return fail("the run's trace does not start with probe's")
    for lba, n in reads(lines[len(head):]):
        # Form 2 blocks are found by reading them
        for a, b, w in (k for k in want_skip if k[2] != "form2"):
            if lba < a + b and lba + n > a:
                return fail("read %d+%d touches the %s at %d+%d" % (lba, n, w, a, b))
    return None


def run_cases(job):
    cases, seed, work, cdtail, wrapper = job
    os.makedirs(work, exist_ok=True)
    return common.first_fails(cases, lambda case: check(case, seed, work, cdtail, wrapper))


def main():
    cdtail, work, opts = common.parse_args(__doc__, {"seed": 1, "cases": 200, "small": 0})
    seed, small = opts["seed"], opts["small"]
    rng = random.Random(seed)
    cases = [make_case(rng, i, small and i % 8 != 7) for i in range(opts["cases"])]
    common.run_pool(cases, seed, work, cdtail, run_cases)


if __name__ == "__main__":
    main()
