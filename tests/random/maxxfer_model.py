#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeded random runs of every command that reads a disc (image, image
--raw, verify, verify --cue, tail) on random small discs, each run twice on
the emulated drive: without a transfer limit and with a random small
maxxfer= (issue 31).  The model is "the same answer as without the limit,
and no command over it": the exit status, the JSON result (less what
counts commands or time, and the address itself), the files written and,
in the limited run's trace, no command the queue refused (sense=einval)
and no READ moving more than the limit (READ(10/12/16): blocks x 2048;
READ CD: its bytes=).

The limit is drawn from 5292 bytes up: the probe's raw capability check
asks for two sectors with C2 pointers in one READ CD (core/rawcaps.c: the
second header's place tells whether the drive gave the pointers), which a
queue under 2 x (2352 + 294) bytes refuses, so a drive behind such a
queue reads without them; that is the drive's answer changing, not the
reader.

Plain discs: 40 to 400 blocks of random data, a bad= range sometimes
(not for tail: its compare window names a failed read by its first block,
so that answer is as coarse as the reads), hide= for tail (the image given stops at the reported end); verify against
the same image or one with a byte changed.  CUE/BIN discs: raw_model.py's
random sessions and tracks (audio, Mode 2, MODE1/2048, pregaps, bad=, a
wrong EDC, hide=), with no flaky= (its first read fails: how many reads a
run makes is what the limit changes); verify --cue against the sheet or
one with a byte of a track file changed.

Usage: maxxfer_model.py CDTAIL WORKDIR [--seed S] [--cases N] [--only I]
Prints "ok N cases" or one "FAIL ..." line per failing case.
"""
import filecmp
import json
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "raw"))
import common  # noqa: E402
import raw_model  # noqa: E402

BS = 2048
MIN_XFER = 2 * (2352 + 294)
# what counts commands or time, or names the address: not the answer
VOLATILE = {"device", "total", "search_ms", "search_reads", "search_failed_reads",
            "elapsed_ms", "stats"}


def draw_case(rng, idx):
    case = {"idx": idx, "maxxfer": rng.randint(MIN_XFER, 40000)}
    if rng.random() < 0.5:
        case["kind"] = "cue"
        case["cmd"] = rng.choice(["image-raw", "verify-cue"])
        case["raw"] = raw_model.draw_case(rng, idx)
        case["raw"]["flaky"] = None
        case["raw"]["offset"] = 0
        case["flip"] = case["cmd"] == "verify-cue" and rng.random() < 0.4
        return case
    case["kind"] = "plain"
    case["cmd"] = rng.choice(["image", "verify", "tail"])
    n = rng.randint(40, 400)
    case["blocks"] = n
    case["bad"] = None
    # tail's compare window reports a failed read at its first block, so
    # where a bad block is seen depends on the read size: none for tail
    if case["cmd"] != "tail" and rng.random() < 0.4:
        a = rng.randint(20, n - 20)
        case["bad"] = (a, a + rng.randint(0, 6))
    case["hide"] = rng.randint(1, n // 4) if case["cmd"] == "tail" else 0
    case["flip"] = rng.randint(0, n * BS - 1) if case["cmd"] == "verify" and \
        rng.random() < 0.4 else None
    return case


def write_plain(case, folder, rng):
    disc = rng.randbytes(case["blocks"] * BS)
    path = os.path.join(folder, "disc.img")
    with open(path, "wb") as f:
        f.write(disc)
    keys = ["cost=0/0"]
    if case["bad"]:
        keys.append("bad=%d-%d" % case["bad"])
    if case["hide"]:
        keys.append("hide=%d" % case["hide"])
    return "sim:" + path + "," + ",".join(keys), disc


def prepare(case, folder, seed):
    """The disc, the address and what each run starts from: a function
    that readies the run's inputs and returns its argv tail."""
    rng = random.Random(seed * 1000003 + case["idx"])
    os.makedirs(folder)
    if case["kind"] == "cue":
        raw = case["raw"]
        raw["readsub_refuse"] = raw.get("readsub_refuse", False)
        raw_model.write_disc(rng, folder, raw["spec"], raw)
        addr = raw_model.sim_addr(folder, raw)
        sheet = os.path.join(folder, "src.cue")
        if case["cmd"] == "image-raw":
            out = os.path.join(folder, "out")
            return addr, lambda: (shutil.rmtree(out, ignore_errors=True), os.makedirs(out),
                                  ["image", "--raw", "--json"])[2], \
                [os.path.join(out, "o.cue")], out
        files = sorted(x for x in os.listdir(folder) if x.startswith("src (Track"))
        if case["flip"] and files:
            name = files[rng.randrange(len(files))]
            p = os.path.join(folder, name)
            size = os.path.getsize(p)
            if size:
                with open(p, "r+b") as f:
                    at = rng.randrange(size)
                    f.seek(at)
                    b = f.read(1)
                    f.seek(at)
                    f.write(bytes([b[0] ^ 0x5A]))
        return addr, lambda: ["verify", "--json", "--cue", sheet], [], None
    addr, disc = write_plain(case, folder, rng)
    if case["cmd"] == "image":
        out = os.path.join(folder, "out.img")
        return addr, lambda: (os.path.exists(out) and os.unlink(out),
                              ["image", "--json"])[1], [out], out
    if case["cmd"] == "verify":
        img = os.path.join(folder, "copy.img")
        data = bytearray(disc)
        if case["flip"] is not None:
            data[case["flip"]] ^= 0x5A
        with open(img, "wb") as f:
            f.write(data)
        return addr, lambda: ["verify", "--json", "--image", img], [], None
    img = os.path.join(folder, "tail.img")
    head = disc[:(case["blocks"] - case["hide"]) * BS]

    def start():
        with open(img, "wb") as f:
            f.write(head)
        return ["tail", "--json"]
    return addr, start, [img], img


def answer(out):
    try:
        j = json.loads(out)
    except ValueError:
        return out
    strip(j)
    return j


def strip(j):
    if isinstance(j, dict):
        for k in list(j):
            if k in VOLATILE:
                del j[k]
            else:
                strip(j[k])
    elif isinstance(j, list):
        for x in j:
            strip(x)


def over_limit(trace, limit):
    """The first line of the trace that the queue refused or that moved
    more than limit bytes, or None."""
    for ln in open(trace).read().splitlines():
        w = ln.split()
        if "sense=einval" in w:
            return ln
        if w[0] in ("28", "a8", "88") and int(w[2].split("=")[1]) * BS > limit:
            return ln
        if w[0] in ("be", "b9"):
            m = re.search(r" bytes=(\d+)", ln)
            if not m or int(m.group(1)) > limit:
                return ln
    return None


def snapshot(path, dest):
    """What the run wrote at path (a file or a folder), copied to dest."""
    if os.path.isdir(path):
        shutil.copytree(path, dest)
    elif os.path.exists(path):
        shutil.copyfile(path, dest)


def same_output(a, b):
    if os.path.isdir(a) != os.path.isdir(b):
        return False
    if not os.path.isdir(a):
        return os.path.exists(a) == os.path.exists(b) and \
            (not os.path.exists(a) or filecmp.cmp(a, b, shallow=False))
    # the record (*.log) holds the run's times and command line, not the disc's
    cmp = filecmp.dircmp(a, b, ignore=[f for f in os.listdir(a) + os.listdir(b)
                                       if f.endswith(".log")])
    if cmp.left_only or cmp.right_only:
        return False
    return all(filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False)
               for f in cmp.common_files)


def check(case, seed, work, cdtail, wrapper):
    folder = os.path.join(work, "c%d" % case["idx"])
    shutil.rmtree(folder, ignore_errors=True)
    addr, start, tail_args, output = prepare(case, folder, seed)
    runs = []
    for limit in (None, case["maxxfer"]):
        trace = os.path.join(folder, "t%s.tr" % (limit or 0))
        a = addr + ",trace=" + trace + (",maxxfer=%d" % limit if limit else "")
        argv = start()
        argv = argv + [a] + tail_args
        p = subprocess.run(wrapper + [cdtail] + argv, capture_output=True, text=True)
        kept = os.path.join(folder, "kept%d" % len(runs))
        if output:
            snapshot(output, kept)
        runs.append((p, trace, kept))
    (p0, _, k0), (p1, t1, k1) = runs
    what = "case %d (%s, maxxfer=%d)" % (case["idx"], case["cmd"], case["maxxfer"])
    if p0.returncode != p1.returncode:
        return "%s: exit %d without the limit, %d with it: %s" % (
            what, p0.returncode, p1.returncode, p1.stderr.strip()[:300])
    a0, a1 = answer(p0.stdout), answer(p1.stdout)
    if case["cmd"] == "verify" and isinstance(a0, dict) and isinstance(a1, dict):
        # verify stops at the first difference, after what its reads
        # brought in: how much it read, and so whether it read (and
        # digested) the whole disc and met the bad blocks past the
        # difference, is as coarse as its reads
        for k in ("blocks_read", "complete", "md5", "sha256", "bad_count", "bad_blocks",
                  "bad_bytes") if case["flip"] is not None else ():
            a0.pop(k, None)
            a1.pop(k, None)
    if a0 != a1:
        keys = sorted(k for k in set(a0) | set(a1) if a0.get(k) != a1.get(k)) \
            if isinstance(a0, dict) and isinstance(a1, dict) else []
        return "%s: the JSON differs in %s:\n  %s\n  %s" % (
            what, keys, json.dumps(a0)[:1500], json.dumps(a1)[:1500])
    if output and not same_output(k0, k1):
        return "%s: the files written differ" % what
    bad = over_limit(t1, case["maxxfer"])
    if bad:
        return "%s: a command over the limit: %s" % (what, bad)
    shutil.rmtree(folder, ignore_errors=True)
    return None


def run_cases(job):
    cases, seed, work, cdtail, wrapper = job
    os.makedirs(work, exist_ok=True)
    return common.first_fails(cases, lambda c: check(c, seed, work, cdtail, wrapper))


def main():
    cdtail, work, opts = common.parse_args(__doc__, {"seed": 20261207, "cases": 300, "only": -1})
    cases = [draw_case(random.Random(opts["seed"] * 1000003 + i), i) for i in range(opts["cases"])
             if opts["only"] < 0 or i == opts["only"]]
    common.run_pool(cases, opts["seed"], work, cdtail, run_cases)


if __name__ == "__main__":
    main()
