#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeded random discs for `cdtail image`, checked against a model that
knows only the contract (CONTRACT.md, cdtail(1)), not the engine.

The model, for a sim: disc of N whole blocks with runout R:
  - a block at or past N - R answers END-class (05/64/00 run-out, then
    05/21/00 past N), so the image's extent E is N - R, whatever READ
    CAPACITY says (hide=, extra=);
  - a block below E inside a bad= range answers MEDIUM ERROR every time:
    it is unreadable, zeros in OUT and '-' in the map;
  - a block of a flaky= range fails a few times, then reads: either state
    is allowed, but OUT must agree with what the map says of it;
  - every other block below E reads: OUT holds the disc's bytes, '+'.
Exit 0 when the map has no '-', else 4; the map covers exactly E blocks,
`ddrescuelog -t` accepts it, JSON's extent_blocks and bad_count agree.

Some cases are first stopped in the end search (issue 13, data first): a
hang= at the last reported block, which the copy before the search leaves
to the search, ends that run with exit 3 and a map whose identity says
search=pending (or, when nothing could be read first, neither OUT nor a
map); the same command without the hang then resumes it to the answer
above.

Usage: image_model.py CDTAIL WORKDIR [--seed S] [--cases N] [--max-blocks B]
Prints "ok N cases" or one "FAIL case ..." line per failing case (and the
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

MAX_BLOCKS = 50000


def log_uniform(rng, lo, hi):
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi + 0.999)))))


def make_case(rng, idx, max_blocks):
    """One disc: its sim keys and what the model needs to judge the run."""
    bs = 512 if rng.random() < 0.2 else 2048
    # most discs small (the cases are many), some up to the largest
    top = max_blocks if rng.random() < 0.2 else min(max_blocks, 5000)
    n = max(1, min(max_blocks, log_uniform(rng, 1, top)))
    partial = rng.randrange(bs) if rng.random() < 0.1 else 0
    runout = 0
    if n > 1 and rng.random() < 0.25:
        runout = min(2, n - 1) if rng.random() < 0.5 else rng.randint(1, min(300, n - 1))
    hide = extra = 0
    if n > 1 and rng.random() < 0.3:
        hide = rng.randint(1, min(n - 1, 16000))
    if rng.random() < 0.25:
        extra = log_uniform(rng, 1, 5000)
    bad = []
    nbad = rng.choice([0, 0, 1, 2, 3, rng.randint(0, 50)])
    for _ in range(nbad):
        length = log_uniform(rng, 1, 5000)
        # bad ranges start inside the image: the drive calls others a
        # usage error (cdtail(1), DEVICE ADDRESSES)
        first = rng.randrange(n)
        bad.append((first, first + length - 1))
    if rng.random() < 0.25:
        # a trailing bad run: the last blocks before the run-out
        length = min(log_uniform(rng, 1, 5000), n)
        last = n - 1 - runout if rng.random() < 0.7 else n - 1
        bad.append((max(0, last - length + 1), max(0, last)))
    flaky = None
    if rng.random() < 0.2:
        first = rng.randrange(n)
        flaky = (first, first + log_uniform(rng, 1, 200) - 1, rng.randint(1, 3))
    keys = ["cost=0/0"]
    if bs == 512:
        keys.append("block=512")
    for k, v in (("hide", hide), ("extra", extra), ("runout", runout)):
        if v:
            keys.append("%s=%d" % (k, v))
    if bad:
        keys.append("bad=" + ":".join("%d-%d" % r for r in bad))
    if flaky:
        keys.append("flaky=%d-%d:%d" % flaky)
    if rng.random() < 0.3:
        keys.append("info=1")
    opts = []
    if rng.random() < 0.5:
        opts += ["--chunk", str(rng.choice([1, 3, 16, 32, 64, 200]))]
    opts += ["--retries", str(rng.choice([0, 1, 2]))]
    digest = rng.random() < 0.15
    opts += ["--digest", "sha256" if digest else "none"]
    # READ CAPACITY's count: its last block is the end search's to read
    reported = n - hide + extra
    # (its own generator: the other draws stay those of the seed)
    hang = reported - 1 if reported > 0 and random.Random(idx).random() < 0.2 else None
    return {
        "idx": idx, "bs": bs, "n": n, "bytes": n * bs + partial,
        "runout": runout, "bad": bad, "flaky": flaky, "keys": keys,
        "opts": opts, "digest": digest, "hang": hang,
    }


def model(case):
    """Extent, the blocks that must be bad, the blocks that may be."""
    e = case["n"] - case["runout"]
    must = set()
    for a, b in case["bad"]:
        must.update(range(a, min(b, e - 1) + 1))
    may = set()
    if case["flaky"]:
        a, b, _ = case["flaky"]
        may.update(x for x in range(a, min(b, e - 1) + 1) if x not in must)
    return e, must, may


def parse_map(text, bs):
    """(size, [(pos, size, status)]) or raise ValueError."""
    lines = [ln.split() for ln in text.splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise ValueError("no status line")
    runs, pos = [], 0
    for w in lines[1:]:
        if len(w) != 3:
            raise ValueError("bad run line %r" % w)
        p, s, st = int(w[0], 0), int(w[1], 0), w[2]
        if p != pos or s <= 0 or p % bs or s % bs:
            raise ValueError("run %r not contiguous whole blocks" % w)
        runs.append((p, s, st))
        pos += s
    return pos, runs


def compare_out(out, disc, runs, size, bufs):
    """OUT against the disc run by run: '+' the disc's bytes, '-' zeros.
    The buffers are reused: fresh large allocations cost more than the
    comparisons."""
    if os.path.getsize(out) != size:
        return "OUT is %d bytes, wanted %d" % (os.path.getsize(out), size)
    got = bufs["out"]
    with open(out, "rb", buffering=0) as f:
        done = 0
        while done < size:
            k = f.readinto(got[done:size])
            if not k:
                return "OUT is short to read"
            done += k
    zero, dmv = bufs["zero"], memoryview(disc)
    for pos, sz, st in runs:
        want = dmv[pos:pos + sz] if st == "+" else zero[:sz]
        if got[pos:pos + sz] != want:
            return "OUT differs from the %s run at byte %d" % (st, pos)
    return None


def stopped_in_search(case, argv, dev, out, mp):
    """The run stopped by a hang in the end search; None when as above."""
    hung = argv[:-2] + ["--timeout", "1", "%s,hang=%d" % (dev, case["hang"]), out]
    p = subprocess.run(hung, capture_output=True, text=True)
    replay = " ".join(shlex.quote(a) for a in hung)
    if p.returncode != 3:
        return "stopped in the search: exit %d, wanted 3\n    %s" % (p.returncode, replay)
    if not os.path.exists(mp):
        return None if not os.path.exists(out) else \
            "stopped in the search: OUT without a map\n    %s" % replay
    text = open(mp).read()
    if not any(ln.startswith("# cdtail identity: ") and ln.endswith(" search=pending")
               for ln in text.splitlines()):
        return "stopped in the search: the map's search is not pending\n    %s" % replay
    if subprocess.run(["ddrescuelog", "-t", mp], capture_output=True).returncode:
        return "stopped in the search: ddrescuelog -t refuses the map\n    %s" % replay
    return None


def check(case, disc, work, cdtail, wrapper, bufs):
    bs = case["bs"]
    out = os.path.join(work, "out.iso")
    mp = os.path.join(work, "out.map")
    for f in (out, mp):
        if os.path.exists(f):
            os.unlink(f)
    dev = "sim:%s,%s" % (os.path.join(work, "disc.img"), ",".join(case["keys"]))
    argv = wrapper + [cdtail, "image", "--json", "-q", "--map", mp] + \
        case["opts"] + [dev, out]
    if case["hang"] is not None:
        why = stopped_in_search(case, argv, dev, out, mp)
        if why:
            return "case %d: %s" % (case["idx"], why)
    p = subprocess.run(argv, capture_output=True, text=True)
    replay = " ".join(shlex.quote(a) for a in argv)
    e, must, may = model(case)

    def fail(why):
        return "case %d: %s\n    %s\n    stderr: %s" % (
            case["idx"], why, replay, p.stderr.strip()[:300])

    if p.returncode not in (0, 4):
        return fail("exit %d, wanted 0 or 4" % p.returncode)
    try:
        size, runs = parse_map(open(mp).read(), bs)
    except (OSError, ValueError) as ex:
        return fail("map: %s" % ex)
    if size != e * bs:
        return fail("map covers %d blocks, the extent is %d" % (size // bs, e))
    bad = set()
    for pos, sz, st in runs:
        if st == "-":
            bad.update(range(pos // bs, (pos + sz) // bs))
        elif st != "+":
            return fail("map run at %d has status %s" % (pos // bs, st))
    if not must <= bad:
        return fail("blocks %s are bad on the disc but not '-'" %
                    sorted(must - bad)[:5])
    if not bad <= must | may:
        return fail("blocks %s are '-' but readable" % sorted(bad - must - may)[:5])
    want_rc = 4 if bad else 0
    if p.returncode != want_rc:
        return fail("exit %d with %d bad blocks" % (p.returncode, len(bad)))
    why = compare_out(out, disc, runs, e * bs, bufs)
    if why:
        return fail(why)
    try:
        js = json.loads(p.stdout)
    except ValueError:
        return fail("stdout is not JSON")
    if js.get("extent_blocks") != e or js.get("bad_count") != len(bad):
        return fail("JSON extent %s bad_count %s, wanted %d, %d" % (
            js.get("extent_blocks"), js.get("bad_count"), e, len(bad)))
    if case["digest"] and js.get("sha256") != hashlib.sha256(bufs["out"][:e * bs]).hexdigest():
        return fail("sha256 %s is not OUT's" % js.get("sha256"))
    t = subprocess.run(["ddrescuelog", "-t", mp], capture_output=True)
    if t.returncode:
        return fail("ddrescuelog -t refuses the map")
    return None


def main():
    cdtail, work, opts = common.parse_args(
        __doc__, {"seed": 1, "cases": 2000, "max_blocks": MAX_BLOCKS})
    seed = opts["seed"]
    rng = random.Random(seed)
    cases = [make_case(rng, i, opts["max_blocks"]) for i in range(opts["cases"])]
    # largest first: each disc is the one before it cut shorter
    cases.sort(key=lambda c: -c["bytes"])
    common.run_pool(cases, seed, work, cdtail, run_cases)


def run_cases(job):
    cases, seed, work, cdtail, wrapper = job
    if not cases:
        return []
    os.makedirs(work, exist_ok=True)
    biggest = cases[0]["bytes"]
    disc = random.Random(seed ^ 0x5eed).randbytes(biggest)
    bufs = {"out": memoryview(bytearray(biggest)), "zero": memoryview(bytes(biggest))}
    path = os.path.join(work, "disc.img")
    with open(path, "wb") as f:
        f.write(disc)

    def one(case):
        os.truncate(path, case["bytes"])
        return check(case, disc, work, cdtail, wrapper, bufs)
    return common.first_fails(cases, one)


if __name__ == "__main__":
    main()
