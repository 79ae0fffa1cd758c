#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeded random discs for `cdtail image`, checked against a model that
knows only the contract (cdtail(1)), not the engine.

The model, for a sim: disc of N whole blocks with runout R, READ
CAPACITY (and the TOC, the track information) saying P = N - hide + extra:
  - a block at or past N - R answers 05/64/00, then 05/21/00 past N;
  - 05/64/00 is the end only where the structure puts a TAO run-out, the
    last 2 blocks of the track it ends at P (cdtail-image(1), issue 23):
    when P - 3 .. P - 1 all answer it (R > 2, N - R + 3 <= P <= N), the
    extent E is P - 2 and N - R .. P - 3 are Mode 2 Form 2
    blocks of the track, skipped "form2", zeros in OUT, '+' in the map,
    exit 4; else E is N - R, whatever READ CAPACITY says;
  - a block below E inside a bad= range answers MEDIUM ERROR every time:
    it is unreadable, zeros in OUT and '-' in the map;
  - a block of a flaky= range fails a few times, then reads: either state
    is allowed, but OUT must agree with what the map says of it;
  - every other block below E reads: OUT holds the disc's bytes, '+'.
A third of the plain discs meet fault= (issue 22): a permanent fault of
any kind but deferred leaves its blocks bad as bad= does; a transient one
(xT) may leave them either way; a deferred one never.
Exit 0 when the map has no '-' and no block is Form 2, else 4; the map
covers exactly E blocks,
`ddrescuelog -t` accepts it, JSON's extent_blocks and bad_count agree.

A third of the discs have a layout (cdtail(1): layout=, gap=, tao=,
open=, profile=, formatted=; doc/disc-kinds.md), for which the model knows:
  - LBAs are given out from 0, track after track; a gap of 11400 blocks
    after session 1 and 6900 after each later one; all the same when the
    drive refuses READ TOC (toc=none: disc and track information say it);
  - audio tracks, the gaps and, with tao=1, the last 2 blocks of every data
    track but the last are not data: skipped ("audio", "gap", "runout"),
    never read, zeros in OUT, '+' in the map, never bad;
  - hide=, extra= and runout= act on the last track; when it is data its
    last max(runout, 2 with tao=1) blocks answer 05/64/00 and the extent
    and the Form 2 blocks are as above (the drive tells the structure with
    and without READ TOC, on open discs too); when
    it is audio nothing there can be read and the extent is the TOC's end,
    N - hide + extra (its audio entry reaching that far);
  - a formatted medium (formatted=M, a filesystem declaring F blocks):
    skip (the default) images M blocks with F..M-1 skipped "unwritten",
    cut images F, read images M with F..M-1 read as the zeros the drive
    answers; hide= and extra= are refused by the drive.
Every READ in the drive's trace keeps off audio and gaps; a run-out inside
the disc gets at most the probe's one single-block read (probe/layout.c,
against cdtail(1)'s "never": see issue 12), the unwritten space only a
few single-block reads of the end search (and, below LBA 260, the
probe's head read for the filesystem).

Some cases first meet a hang= at the last reported block, which the copy
before the search leaves to the search: a read that times out is a failed
block like any other (issue 22), so that run ends with exit 0 or 4 and,
when the block lies in the extent, the map marks it '-'; the same command
without the hang then resumes it, retries the block (unless --retries 0,
which leaves it bad), and reaches the answer above.  The hang is drawn
only on a block of data.

A sixth of the plain discs (without the hang) are imaged again with
their tail hidden and windows (issue 28, B; cdtail-image(1), The window):
READ CAPACITY C below the true end E, bad blocks only below C - 2; with
--max-extra M and C + M <= E the run is exit 5, verdict window-limited,
extent C + M, the map's identity ending in "max_extra=M search=window";
resumed with the same M or a smaller one the same again; with a larger M
the extent grows to E (exit 0 or 4) or to C + M (5 again), OUT holding
the disc's blocks up to it and the map's '-' blocks the bad ones.

The true end is never below a block the run read (issue 32): JSON's
true_blocks and the map's record are at least 1 + the last block the map
marks '+' outside the skipped list.

A fifth of the cases without flaky or transient blocks or a hang (their
own generator) are imaged again with a medium change (issue 32; cdtail-
image(1), Medium changes) at a command K of the run drawn from the first
run's count, a temporary of a killed first save beside the map that does
not exist yet: with the same disc (change=K) the run ends as the first
did (its exit, OUT, the map's runs) and the temporary is gone; with
another disc of the same size (change=K:OTHER, every block of it
different) OUT is never of two discs: exit 3 with only the first disc's
blocks in it (or nothing, OUT removed), or exit 0 or 4 with every block
the map marks read of one disc.

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


GAP_FIRST, GAP_LATER = 11400, 6900
PROFILES_FMT = ("dvd+rw", "dvd-ram", "bd-re")


def make_layout(rng, max_blocks):
    """Sessions of tracks [(mode, blocks)], tao, or None when too big."""
    kind = rng.choice(["multi", "cdextra", "mixed", "tao", "free"])
    tao = kind == "tao" or rng.random() < 0.25
    short = lambda: log_uniform(rng, 3, 2000)
    if kind == "multi":
        sessions = [[("data", short()) for _ in range(rng.choice([1, 1, 2]))]
                    for _ in range(rng.randint(2, 3))]
    elif kind == "cdextra":
        sessions = [[("audio", short()) for _ in range(rng.randint(1, 3))],
                    [("data", short())]]
    elif kind == "mixed":
        sessions = [[("data", short())] + [("audio", short()) for _ in range(rng.randint(1, 3))]]
    elif kind == "tao":
        sessions = [[("data", short()) for _ in range(rng.randint(2, 4))]]
    else:
        sessions = [[(rng.choice(["data", "audio"]), short()) for _ in range(rng.randint(1, 3))]
                    for _ in range(rng.randint(1, 3))]
    if not any(m == "data" for s in sessions for m, _ in s):
        sessions[-1][-1] = ("data", sessions[-1][-1][1])
    n = sum(b for s in sessions for _, b in s) + \
        (GAP_FIRST if len(sessions) > 1 else 0) + GAP_LATER * max(0, len(sessions) - 2)
    if n > max_blocks:
        # one session small enough: a mixed-mode or TAO disc
        sessions = [[("data", log_uniform(rng, 3, max(3, max_blocks // 4))),
                     (rng.choice(["data", "audio"]), log_uniform(rng, 3, max(3, max_blocks // 4)))]]
    return sessions, tao


def layout_tracks(sessions):
    """[(start, blocks, mode)] and the gaps [(start, blocks)]: LBAs from 0."""
    tracks, gaps, lba = [], [], 0
    for i, s in enumerate(sessions):
        if i:
            g = GAP_FIRST if i == 1 else GAP_LATER
            gaps.append((lba, g))
            lba += g
        for mode, b in s:
            tracks.append((lba, b, mode))
            lba += b
    return tracks, gaps, lba


def keys_and_opts(rng, bs, disc_keys, sizes, bad, flaky, how=None):
    """The sim keys (DISC_KEYS, what describes the disc, after the block
    size; SIZES the hide=, extra= and runout= counts), the image options
    (--formatted HOW when HOW) and whether a digest is asked for: (keys,
    opts, digest).  Its draws, in this order, are part of every seed's
    cases."""
    keys = ["cost=0/0"] + (["block=512"] if bs == 512 else []) + disc_keys
    for k, v in zip(("hide", "extra", "runout"), sizes):
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
    if how:
        opts += ["--formatted", how]
    digest = rng.random() < 0.15
    opts += ["--digest", "sha256" if digest else "none"]
    return keys, opts, digest


def make_layout_case(rng, idx, max_blocks):
    """A disc with a layout, or a formatted medium."""
    bs = 512 if rng.random() < 0.2 else 2048
    fmt = None
    if bs == 2048 and max_blocks >= 200 and rng.random() < 0.2:
        n = log_uniform(rng, 100, max(100, min(max_blocks, 5000) // 2))
        m = min(max_blocks, n + log_uniform(rng, 1, 20000))
        fmt = {"m": m, "fs": n, "profile": rng.choice(PROFILES_FMT),
               "how": rng.choice([None, "skip", "cut", "read"])}
        tracks, gaps, tao, sessions = [(0, n, "data")], [], False, None
    else:
        sessions, tao = make_layout(rng, max_blocks)
        tracks, gaps, n = layout_tracks(sessions)
    last = tracks[-1]
    partial = rng.randrange(bs) if rng.random() < 0.1 else 0
    hide = extra = runout = 0
    tail = 2 if tao and last[2] == "data" else 0
    if not fmt:
        if rng.random() < 0.25 and last[1] > 1:
            runout = min(2, last[1] - 1) if rng.random() < 0.5 else rng.randint(1, min(300, last[1] - 1))
        if last[2] == "data":
            tail = max(tail, runout)
        room = last[1] - tail - 1
        if room >= 1 and rng.random() < 0.3:
            hide = rng.randint(1, min(room, 16000))
        if rng.random() < 0.25:
            extra = log_uniform(rng, 1, 5000)
    # bad ranges start inside the image; on a formatted medium past its
    # ISO 9660 descriptors (LBAs 16, 17), which the probe's head read
    # keeps whatever bad blocks follow them (cdtail-probe(1)), and inside
    # the filesystem
    lo_bad = 18 if fmt else 0
    bad = []
    if n > lo_bad:
        for _ in range(rng.choice([0, 0, 1, 2, 3, rng.randint(0, 20)])):
            first = rng.randrange(lo_bad, n)
            bad.append((first, min(n - 1, first + log_uniform(rng, 1, 3000) - 1)))
        if rng.random() < 0.25 and last[2] == "data":
            # a trailing bad run: the last blocks before the run-out
            end = n - 1 - tail
            first = max(lo_bad, last[0], end - log_uniform(rng, 1, 300) + 1)
            if first <= end:
                bad.append((first, end))
    if last[2] == "data":
        # the last data track keeps a readable block for the end search
        bad = [(a, b) for a, b in bad if not a <= last[0] <= b]
    # cdtail-probe(1), note formatted: READ CAPACITY more than 64 KiB past
    # the filesystem makes the medium formatted whatever bad blocks end
    # the filesystem; nearer, a bad filesystem end may be the end itself
    near = fmt and fmt["m"] - n <= 65536 // bs
    if near:
        bad = [(a, min(b, n - 2)) for a, b in bad if a <= n - 2]
    flaky = None
    data = [t for t in tracks if t[2] == "data"]
    if rng.random() < 0.2:
        t = rng.choice(data)
        first = rng.randrange(max(t[0], lo_bad), t[0] + t[1]) if t[0] + t[1] > lo_bad else t[0]
        flaky = (first, min(t[0] + t[1] - 1, first + log_uniform(rng, 1, 200) - 1), rng.randint(1, 3))
        if near and flaky[0] > n - 2:
            flaky = None
        elif near:
            flaky = (flaky[0], min(flaky[1], n - 2), flaky[2])
    ecc = 0
    if fmt:
        # DVD and BD media fail whole ECC blocks (16) and clusters (32),
        # and cdtail reads them so (issue 36): the damage is drawn as
        # before, then widened to the units it touches (sim ecc=), never
        # into the ISO 9660 descriptors at 16 and 17, and on a medium near
        # its filesystem never onto the filesystem's last block
        ecc = 32 if fmt["profile"].startswith("bd") else 16
        # a unit reaching past the filesystem fails into the formatted
        # area too (the sim's ecc= does so up to M)
        top = ((n - 1) // ecc) * ecc - 1 if near else fmt["m"] - 1
        bad = [(max(32, a - a % ecc), min(top, b - b % ecc + ecc - 1)) for a, b in bad]
        bad = [(a, b) for a, b in bad if a <= b]
        disc_keys = ["profile=" + fmt["profile"], "formatted=%d" % fmt["m"], "ecc=%d" % ecc]
    else:
        disc_keys = ["layout=" + "/".join("+".join("%s:%d" % t for t in s) for s in sessions)]
        if tao:
            disc_keys.append("tao=1")
        if gaps and rng.random() < 0.5:
            disc_keys.append("gap=" + rng.choice(["hang", "zero", "03/11/05", "05/21/00"]))
        if rng.random() < 0.3:
            disc_keys += ["open=1", "profile=cd-r"]
        # the drive refuses READ TOC: the same layout from disc and track
        # information (its own generator: the other draws stay the seed's)
        if random.Random("toc-%d" % idx).random() < 0.3:
            disc_keys.append("toc=none")
    keys, opts, digest = keys_and_opts(
        rng, bs, disc_keys, (hide, extra, runout), bad, flaky,
        fmt["how"] if fmt else None)
    return {
        "idx": idx, "bs": bs, "n": n, "bytes": n * bs + partial,
        "runout": runout, "bad": bad, "flaky": flaky, "keys": keys,
        "opts": opts, "digest": digest, "ecc": ecc,
        # no stop in the end search (issue 13): its hang= is the one-track
        # cases' factor
        "hang": None,
        "layout": {"tracks": tracks, "gaps": gaps, "tao": tao, "tail": tail,
                   "hide": hide, "extra": extra, "fmt": fmt},
    }


FAULT_KINDS = ("hwerr", "nosense", "aborted", "host", "short", "timeout", "deferred")


def draw_faults(rng, e):
    """fault= items inside the data [0, e) and the blocks they leave bad
    for sure and perhaps: (items, must, may).  A permanent fault of any
    kind but deferred is a bad block like bad= (cdtail-errors(7));
    a transient one (xT) reads on a later try, or stays bad with too few
    tries; a deferred one is never the read's.  One timeout area of at most
    2 blocks: the drive resets after each, and 4 in a row would mean it
    stopped answering."""
    items, must, may = [], set(), set()
    if e < 1 or rng.random() >= 0.3:
        return items, must, may
    timed = False
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(FAULT_KINDS)
        # one timeout area at most: several side by side are a drive that
        # stopped answering, which ends a run (status 3)
        if kind == "timeout" and timed:
            kind = "hwerr"
        timed = timed or kind == "timeout"
        length = rng.randint(1, 2) if kind == "timeout" else log_uniform(rng, 1, 50)
        first = rng.randrange(e)
        last = min(e - 1, first + length - 1)
        times = rng.randint(1, 2) if rng.random() < 0.3 else 0
        items.append("%s@%d-%d%s" % (kind, first, last, "x%d" % times if times else ""))
        blocks = set(range(first, last + 1))
        if kind == "deferred":
            continue
        if times:
            may |= blocks
        else:
            must |= blocks
    return items, must, may - must


def make_case(rng, idx, max_blocks):
    """One disc: its sim keys and what the model needs to judge the run."""
    if rng.random() < 0.33:
        return make_layout_case(rng, idx, max_blocks)
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
    keys, opts, digest = keys_and_opts(rng, bs, [], (hide, extra, runout), bad, flaky)
    e, form2 = runout_end(n, runout, hide, extra)
    # READ CAPACITY's count: its last block is the end search's to read
    reported = n - hide + extra
    # (its own generator: the other draws stay those of the seed)
    hang = reported - 1 if reported > 0 and random.Random(idx).random() < 0.2 else None
    # a hang on a block past the data (a run-out, past the image) leaves
    # the extent resting on a block that never answered: not drawn
    if hang is not None and hang >= n - runout:
        hang = None
    # the ways real drives fail a read (issue 22), from their own generator
    faults, fault_must, fault_may = draw_faults(random.Random("fault-%d" % idx), n - runout)
    if faults:
        keys.append("fault=" + ":".join(faults))
    return {
        "idx": idx, "bs": bs, "n": n, "bytes": n * bs + partial,
        "runout": runout, "bad": bad, "flaky": flaky, "keys": keys,
        "opts": opts, "digest": digest, "hang": hang,
        "fault_must": fault_must, "fault_may": fault_may,
        "extent": e, "form2": form2,
    }


def runout_end(n, tail, hide, extra):
    """The extent of a disc of N blocks whose last TAIL answer 05/64/00,
    and its Form 2 blocks [(start, blocks, "form2")].  The structure says
    the last track ends at READ CAPACITY's N - hide + extra: a run-out is
    its last 2 blocks when they and the one below answer 05/64/00 (probe
    reads those 3, cdtail-probe(1)); the 05/64/00 blocks below the run-out
    are Form 2.  Elsewhere (READ CAPACITY past N: its last blocks are out
    of range; below N - tail + 3) the 05/64/00 run is the end."""
    rep = n - hide + extra
    if tail > 2 and 0 <= n - rep <= tail - 3:
        return rep - 2, [(n - tail, rep - 2 - (n - tail), "form2")]
    return n - tail, []


def layout_model(case):
    """The extent and the skipped list [(start, blocks, why)] of a layout."""
    lay, n = case["layout"], case["n"]
    fmt = lay["fmt"]
    if fmt:
        fs, m = fmt["fs"], fmt["m"]
        if fmt["how"] == "cut":
            return fs, []
        if fmt["how"] == "read" or m == fs:
            return m, []
        return m, [(fs, m - fs, "unwritten")]
    tracks = lay["tracks"]
    skips = [(g[0], g[1], "gap") for g in lay["gaps"]]
    for i, (start, blocks, mode) in enumerate(tracks):
        if mode == "audio":
            skips.append((start, blocks, "audio"))
        elif lay["tao"] and i < len(tracks) - 1:
            skips.append((start + blocks - 2, 2, "runout"))
    skips.sort()
    start, blocks, mode = tracks[-1]
    if mode == "data":
        e, form2 = runout_end(n, lay["tail"], lay["hide"], lay["extra"])
        return e, skips + form2
    # the last track is audio: no end search, the TOC's end
    e = n - lay["hide"] + lay["extra"]
    skips[-1] = (start, e - start, "audio")
    return e, skips


def model(case):
    """Extent, the blocks that must be bad, the blocks that may be, and the
    skipped list."""
    if case.get("layout"):
        e, skips = layout_model(case)
    else:
        e, skips = case["extent"], case["form2"]
    nondata = set()
    for a, k, _ in skips:
        nondata.update(range(a, a + k))
    must = set()
    for a, b in case["bad"]:
        must.update(x for x in range(a, min(b, e - 1) + 1) if x not in nondata)
    may = set()
    if case["flaky"]:
        a, b, _ = case["flaky"]
        # on DVD and BD a unit read fails as a whole: a flaky block's
        # unit may be bad as it is
        u = case.get("ecc") or 1
        a, b = a - a % u, b - b % u + u - 1
        may.update(x for x in range(a, min(b, e - 1) + 1) if x not in must and x not in nondata)
    must |= {x for x in case.get("fault_must", ()) if x < e}
    may |= {x for x in case.get("fault_may", ()) if x < e and x not in must}
    return e, must, may, skips


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


def compare_out(out, disc, runs, size, bufs, zeros):
    """OUT against the disc run by run: '+' the disc's bytes but where
    ZEROS [(first_byte, end_byte)] says the block is not data (skipped) or
    lies past the image (a formatted medium's zeros), '-' zeros.  The
    buffers are reused: fresh large allocations cost more than the
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
        end = pos + sz
        if st != "+":
            pieces = [(pos, end, True)]
        else:
            pieces, at = [], pos
            for a, b in zeros:
                a, b = max(a, at), min(b, end)
                if a >= b:
                    continue
                pieces += [(at, a, False), (a, b, True)]
                at = b
            pieces.append((at, end, False))
        for a, b, z in pieces:
            if a < b and got[a:b] != (zero[:b - a] if z else dmv[a:b]):
                return "OUT differs from the %s run at byte %d (from byte %d%s)" % (
                    st, pos, a, ", not data: zeros" if z else "")
    return None


def trace_reads(path):
    """[(lba, blocks)] of every READ(10/12/16) in the drive's trace."""
    reads = []
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return reads
    for ln in lines:
        w = ln.split()
        if len(w) >= 3 and w[0] in ("28", "a8", "88"):
            reads.append((int(w[1].split("=")[1]), int(w[2].split("=")[1])))
    return reads


def trace_why(reads, skips, e):
    """Why the trace breaks the rules for skipped areas, or None."""
    for start, blocks, why in skips:
        hits = [(a, k) for a, k in reads if a < start + blocks and a + k > start]
        if why in ("audio", "gap") and hits:
            return "read %d+%d touches %s %d+%d" % (hits[0] + (why, start, blocks))
        if why == "runout" and (len(hits) > 1 or any(k != 1 for _, k in hits)):
            return "reads %s of run-out %d+%d" % (hits[:3], start, blocks)
        # the probe's head reads for the filesystem (UDF's anchor is at
        # 256, cdtail-probe(1)) and the end search's single blocks (the
        # filesystem's end, the medium's last block); the copy reads none
        hits = [(a, k) for a, k in hits if a + k > 260]
        if why == "unwritten" and (len(hits) > 4 or any(k != 1 for _, k in hits)):
            return "reads %s of the unwritten %d+%d" % (hits[:5], start, blocks)
    return None


def hung_first(case, argv, dev, out, mp):
    """A first run meeting the hang; None when it behaved as a bad block."""
    hung = argv[:-2] + ["--timeout", "1", "%s,hang=%d" % (dev, case["hang"]), out]
    p = subprocess.run(hung, capture_output=True, text=True)
    replay = " ".join(shlex.quote(a) for a in hung)
    if p.returncode not in (0, 4):
        return "a hang is a bad block: exit %d, wanted 0 or 4\n    %s\n    stderr: %s" % (
            p.returncode, replay, p.stderr.strip()[:300])
    e = model(case)[0]
    if case["hang"] >= e:
        return None
    try:
        bad = {b for pos, sz, st in parse_map(open(mp).read(), case["bs"])[1]
               if st == "-" for b in range(pos // case["bs"], (pos + sz) // case["bs"])}
    except (OSError, ValueError) as ex:
        return "a hang: map: %s\n    %s" % (ex, replay)
    if case["hang"] not in bad:
        return "the hung block %d is not '-' in the map\n    %s" % (case["hang"], replay)
    if p.returncode != 4:
        return "a hang: exit %d with the hung block bad\n    %s" % (p.returncode, replay)
    return None


def check(case, disc, work, cdtail, wrapper, bufs):
    bs = case["bs"]
    out = os.path.join(work, "out.iso")
    mp = os.path.join(work, "out.map")
    for f in (out, mp):
        if os.path.exists(f):
            os.unlink(f)
    tr = os.path.join(work, "trace")
    if os.path.exists(tr):
        os.unlink(tr)
    keys = case["keys"] + (["trace=" + tr] if case.get("layout") else [])
    dev = "sim:%s,%s" % (os.path.join(work, "disc.img"), ",".join(keys))
    argv = wrapper + [cdtail, "image", "--json", "-q", "--map", mp] + \
        case["opts"] + [dev, out]
    if case["hang"] is not None:
        why = hung_first(case, argv, dev, out, mp)
        if why:
            return "case %d: %s" % (case["idx"], why)
    p = subprocess.run(argv, capture_output=True, text=True)
    replay = " ".join(shlex.quote(a) for a in argv)
    e, must, may, skips = model(case)
    # after a run that met the hang, --retries 0 leaves its block bad
    if case["hang"] is not None and "--retries" in argv and \
            argv[argv.index("--retries") + 1] == "0":
        may.add(case["hang"])

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
    form2 = sum(k for _, k, why in skips if why == "form2")
    want_rc = 4 if bad or form2 else 0
    if p.returncode != want_rc:
        return fail("exit %d with %d bad blocks, %d Form 2" % (p.returncode, len(bad), form2))
    zeros = [(a * bs, (a + k) * bs) for a, k, _ in skips]
    if e > case["n"]:
        zeros.append((case["n"] * bs, e * bs))
    why = compare_out(out, disc, runs, e * bs, bufs, sorted(zeros))
    if why:
        return fail(why)
    if case.get("layout"):
        why = trace_why(trace_reads(tr), skips, e)
        if why:
            return fail("trace: " + why)
    if skips:
        want = ", ".join("%d+%d %s" % k for k in skips)
        got = [ln.split(":", 1)[1].strip() for ln in open(mp).read().splitlines()
               if ln.startswith("# cdtail skipped")]
        if (got[0] if got else "") != want:
            return fail("the map's skipped list %r, wanted %r" % (got, want))
    try:
        js = json.loads(p.stdout)
    except ValueError:
        return fail("stdout is not JSON")
    if js.get("extent_blocks") != e or js.get("bad_count") != len(bad):
        return fail("JSON extent %s bad_count %s, wanted %d, %d" % (
            js.get("extent_blocks"), js.get("bad_count"), e, len(bad)))
    got = [(k.get("start"), k.get("blocks"), k.get("why")) for k in js.get("skipped") or []]
    if got != skips or js.get("skipped_blocks") != sum(k for _, k, _ in skips):
        return fail("JSON skipped %s (%s blocks), wanted %s" % (
            got, js.get("skipped_blocks"), skips))
    if js.get("form2_blocks") != form2 or (js.get("verdict") == "complete") != (want_rc == 0):
        return fail("JSON form2_blocks %s verdict %s, wanted %d Form 2 blocks" % (
            js.get("form2_blocks"), js.get("verdict"), form2))
    if case["digest"] and js.get("sha256") != hashlib.sha256(bufs["out"][:e * bs]).hexdigest():
        return fail("sha256 %s is not OUT's" % js.get("sha256"))
    t = subprocess.run(["ddrescuelog", "-t", mp], capture_output=True)
    if t.returncode:
        return fail("ddrescuelog -t refuses the map")
    why = true_end_why(js, mp, runs, skips, bs)
    if why:
        return fail(why)
    return changed_runs(case, argv, dev, out, mp, runs, p.returncode, js, work) or \
        killed_early(case, argv, out, mp, skips, e, p.returncode) or \
        window_resumes(case, disc, work, wrapper + [cdtail], bufs)


def read_end(runs, skips, bs):
    """1 + the last block the map marks '+' outside the skipped list; 0: none."""
    end = 0
    for pos, sz, st in runs:
        if st != "+":
            continue
        b = (pos + sz) // bs
        while b > pos // bs:
            k = [a for a, n, _ in skips if a <= b - 1 < a + n]
            if not k:
                end = max(end, b)
                break
            b = k[0]
    return end


def true_end_why(js, mp, runs, skips, bs):
    """The true end below a block the run read (issue 32), or None."""
    end = read_end(runs, skips, bs)
    if js.get("true_blocks", 0) < end:
        return "JSON true_blocks %s below 1 + the last block read, %d" % (
            js.get("true_blocks"), end)
    ident = [ln for ln in open(mp).read().splitlines() if ln.startswith("# cdtail identity:")]
    words = dict(w.split("=", 1) for w in ident[0].split(":", 1)[1].split() if "=" in w) \
        if ident else {}
    if "search" not in words and int(words.get("true_blocks", -1)) < end:
        return "the record's true_blocks %s below 1 + the last block read, %d" % (
            words.get("true_blocks"), end)
    return None


def changed_runs(case, argv, dev, out, mp, runs, rc, js, work):
    """The same command again with a medium change at command K (issue
    32, item 4), to the same disc, then to another of the same size, each
    beside a temporary a killed first save left (item 3).  None, or why
    it breaks the model."""
    r = random.Random("change-%d" % case["idx"])
    if case["flaky"] or case.get("fault_may") or case["hang"] is not None or \
            r.random() >= 0.2:
        return None
    # Not yet with Form 2 blocks: settle_extent records the identity of
    # skipped blocks from OUT's zeros (issue 32's identity decision, another
    # helper's item), so where those are all its blocks the changed run
    # cannot read it back and rightly stops
    if any(why == "form2" for _, _, why in model(case)[3]):
        return None
    total = (js.get("total") or {}).get("commands") or 0
    if total < 1:
        return None
    want = open(out, "rb").read()
    bs = case["bs"]
    k = r.randint(1, total)
    cout, cmp_ = out + ".c", mp + ".c"
    for f in (cout, cmp_):
        if os.path.exists(f):
            os.unlink(f)
    stale = cmp_ + ".cdtail-Zz9Qx1"
    open(stale, "w").close()
    argv2 = argv[:-2] + ["%s,change=%d" % (dev, k), cout]
    argv2[argv2.index("--map") + 1] = cmp_
    p = subprocess.run(argv2, capture_output=True, text=True)
    replay = " ".join(shlex.quote(a) for a in argv2)

    def fail(why):
        return "case %d: %s\n    %s\n    stderr: %s" % (
            case["idx"], why, replay, p.stderr.strip()[:300])

    if os.path.exists(stale):
        return fail("the temporary a killed first save left is still there")
    if p.returncode != rc:
        return fail("change=%d to the same disc: exit %d, the run without it %d" % (
            k, p.returncode, rc))
    if open(cout, "rb").read() != want:
        return fail("change=%d to the same disc: OUT differs from the run without it" % k)
    try:
        got = parse_map(open(cmp_).read(), bs)[1]
    except (OSError, ValueError) as ex:
        return fail("map: %s" % ex)
    if got != runs:
        return fail("change=%d to the same disc: the map's runs differ" % k)
    if case["bytes"] > 8 << 20:
        return None
    return other_disc_run(case, argv, dev, cout, cmp_, k, work, want)


def other_disc_run(case, argv, dev, cout, cmp_, k, work, first):
    """change=K:OTHER, OTHER the disc with every block's first byte
    changed: OUT never of two discs."""
    bs = case["bs"]
    img = dev.split(",", 1)[0][4:]
    disc = open(img, "rb").read()
    other = bytearray(disc)
    for b in range(0, len(other), bs):
        other[b] ^= 0xA5
    oimg = os.path.join(work, "other.img")
    with open(oimg, "wb") as f:
        f.write(other)
    for f in (cout, cmp_):
        if os.path.exists(f):
            os.unlink(f)
    argv2 = argv[:-2] + ["%s,change=%d:%s" % (dev, k, oimg), cout]
    argv2[argv2.index("--map") + 1] = cmp_
    p = subprocess.run(argv2, capture_output=True, text=True)
    replay = " ".join(shlex.quote(a) for a in argv2)

    def fail(why):
        return "case %d: %s\n    %s\n    stderr: %s" % (
            case["idx"], why, replay, p.stderr.strip()[:300])

    if p.returncode not in (0, 3, 4):
        return fail("change=%d to another disc: exit %d" % (k, p.returncode))
    if not os.path.exists(cout):
        return None if p.returncode == 3 else fail("exit %d without OUT" % p.returncode)
    try:
        runs = parse_map(open(cmp_).read(), bs)[1]
    except (OSError, ValueError) as ex:
        return fail("map: %s" % ex)
    o = open(cout, "rb").read()
    whose = set()
    for pos, sz, st in runs:
        if st != "+":
            continue
        for at in range(pos, min(pos + sz, len(o), len(disc)), bs):
            blk = o[at:at + bs]
            if blk == disc[at:at + bs] and blk != other[at:at + bs]:
                whose.add("first")
            elif blk == other[at:at + bs] and blk != disc[at:at + bs]:
                whose.add("other")
    if len(whose) > 1:
        return fail("change=%d to another disc: OUT holds blocks of both" % k)
    if p.returncode == 3 and "other" in whose:
        return fail("change=%d to another disc: exit 3 with its blocks in OUT" % k)
    return None


def killed_early(case, argv, out, mp, skips, e, rc):
    """A run killed right after its first map save, before OUT existed or
    had its size (issue 28, A): the map as that save wrote it (the skipped
    areas finished, nothing else), OUT absent or empty; the same command
    then resumes to an OUT identical to the uninterrupted run's.  For a
    fifth of the cases with a skipped area and no flaky blocks (its own
    generator).  Form 2 blocks are found by reading them: the first save
    knows none, neither in its runs nor in its skip list."""
    r = random.Random("kill-%d" % case["idx"])
    # a flaky block fails again on the new drive: either state is right
    if not skips or case["flaky"] or r.random() >= 0.2:
        return None
    bs = case["bs"]
    want = open(out, "rb").read()
    lines = open(mp).read().splitlines()
    head = [ln for ln in lines if ln.startswith("#")]
    skips = [k for k in skips if k[2] != "form2"]
    runs, pos = [], 0
    for a, k, _ in skips:
        if a > pos:
            runs.append((pos, a - pos, "?"))
        runs.append((a, k, "+"))
        pos = a + k
    if pos < e:
        runs.append((pos, e - pos, "?"))
    body = ["0x%08X     ?               1" % 0] + \
        ["0x%08X  0x%08X  %s" % (a * bs, k * bs, st) for a, k, st in runs]
    # the comment lines stay (the identity, the skip list); the status
    # line and the runs become the first save's
    keep = [ln for ln in head if not ln.startswith("# current_pos") and
            not ln.startswith("#      pos")]
    listed = ", ".join("%d+%d %s" % k for k in skips)
    keep = [ln.split(": ", 1)[0] + ": " + listed if ln.startswith("# cdtail skipped") else ln
            for ln in keep if listed or not ln.startswith("# cdtail skipped")]
    with open(mp, "w") as f:
        f.write("\n".join(keep + ["# current_pos  current_status  current_pass", body[0],
                                  "#      pos        size  status"] + body[1:]) + "\n")
    if r.random() < 0.5:
        os.unlink(out)
    else:
        open(out, "w").close()
    p = subprocess.run(argv, capture_output=True, text=True)
    replay = " ".join(shlex.quote(a) for a in argv)
    if p.returncode != rc:
        return "case %d: killed after the first save: resume exit %d, wanted %d\n    %s\n    stderr: %s" % (
            case["idx"], p.returncode, rc, replay, p.stderr.strip()[:300])
    if open(out, "rb").read() != want:
        return "case %d: killed after the first save: the resumed OUT differs\n    %s" % (
            case["idx"], replay)
    return None


def window_case(case):
    """The disc of the window resumes (issue 28, B), or None: a plain disc
    (a sixth of them, from its own generator) made to hide a tail, its
    READ CAPACITY C drawn below its true end E = N - R (hide=N-C, no
    extra=), keeping only the bad, flaky and faulty blocks below C - 2 (the
    end search's reads are the plain runs' to judge); with the windows: a
    first one reaching at most E, perhaps a smaller one, and a larger one
    (C + M past E or not)."""
    r = random.Random("window-%d" % case["idx"])
    e = case["n"] - case["runout"]
    if case.get("layout") or case["hang"] is not None or e < 8 or r.random() >= 0.17:
        return None
    c = r.randint(3, e - 1)
    low = lambda b: b < c - 2
    bad = [(a, b) for a, b in case["bad"] if low(b)]
    flaky = case["flaky"] if case["flaky"] and low(case["flaky"][1]) else None
    faults = [k for k in case["keys"] if k.startswith("fault=")]
    faults = faults[0][6:].split(":") if faults else []
    # (kind, first, last, times) of each fault= item, as draw_faults wrote it
    items = [(f.split("@")[0],) + tuple(int(x) for x in f.split("@")[1].replace(
        "x", "-").split("-")) + (0,) for f in faults]
    faults = [f for f, it in zip(faults, items) if low(it[2])]
    items = [it for it in items if low(it[2]) and it[0] != "deferred"]
    fault_must = {b for it in items if not it[3] for b in range(it[1], it[2] + 1)}
    fault_may = {b for it in items if it[3] for b in range(it[1], it[2] + 1)} - fault_must
    keys = [k for k in case["keys"] if k.split("=")[0] not in
            ("hide", "extra", "bad", "flaky", "fault")] + ["hide=%d" % (case["n"] - c)]
    if bad:
        keys.append("bad=" + ":".join("%d-%d" % k for k in bad))
    if flaky:
        keys.append("flaky=%d-%d:%d" % flaky)
    if faults:
        keys.append("fault=" + ":".join(faults))
    first = r.randint(1, e - c)
    return dict(case, keys=keys, bad=bad, flaky=flaky, reported=c,
                # C below N - R: no run-out at READ CAPACITY's end
                extent=case["n"] - case["runout"], form2=[],
                fault_must=fault_must, fault_may=fault_may,
                windows=[first, first] + ([r.randint(1, first)] if r.random() < 0.5 else []) +
                [first + log_uniform(r, 1, 2 * (e - c))])


def window_resumes(case, disc, work, argv0, bufs):
    """cdtail-image(1), The window: with --max-extra M the search stops at
    C + M when the disc goes on to there (an end exactly at the edge
    included): exit 5, verdict window-limited, window_limit true, the
    extent C + M, its blocks in OUT and the map, and the map's identity
    ending in "max_extra=M search=window".  The same command again, or one
    with a smaller window, gives the same again (never 0); a larger one
    grows the extent to the true end E (exit 0 or 4, complete or
    unreadable, the window words gone) or to its own window's edge (exit 5
    again, its M recorded), OUT then holding every block up to it."""
    case = window_case(case)
    if not case:
        return None
    bs, c = case["bs"], case["reported"]
    e0, must0, may0, _ = model(case)
    out = os.path.join(work, "w.out")
    mp = os.path.join(work, "w.map")
    for f in (out, mp):
        if os.path.exists(f):
            os.unlink(f)
    dev = "sim:%s,%s" % (os.path.join(work, "disc.img"), ",".join(case["keys"]))
    recorded = case["windows"][0]
    for m in case["windows"]:
        argv = argv0 + ["image", "--json", "-q", "--map", mp, "--max-extra", str(m)] + \
            case["opts"] + [dev, out]
        p = subprocess.run(argv, capture_output=True, text=True)
        replay = " ".join(shlex.quote(a) for a in argv)
        # a window at or short of the recorded one keeps it
        limited = c + max(m, recorded) <= e0
        e = c + max(m, recorded) if limited else e0
        if limited:
            recorded = max(m, recorded)
        why = window_run(p, mp, out, e, bs, {x for x in must0 if x < e},
                         {x for x in may0 if x < e}, disc, bufs, limited, recorded)
        if why:
            return "case %d: window runs %s, --max-extra %d: %s\n    %s\n    stderr: %s" % (
                case["idx"], case["windows"], m, why, replay, p.stderr.strip()[:300])
    return None


def window_run(p, mp, out, e, bs, must, may, disc, bufs, limited, recorded):
    """Why one run of window_resumes breaks the model, or None."""
    try:
        size, runs = parse_map(open(mp).read(), bs)
        js = json.loads(p.stdout)
    except (OSError, ValueError) as ex:
        return "map or JSON: %s" % ex
    if size != e * bs or js.get("extent_blocks") != e:
        return "extent %s, map %d blocks, wanted %d" % (js.get("extent_blocks"), size // bs, e)
    bad = {b for pos, sz, st in runs if st == "-" for b in range(pos // bs, (pos + sz) // bs)}
    if any(st not in "+-" for _, _, st in runs):
        return "the map is not finished"
    if not must <= bad or not bad <= must | may:
        return "bad blocks %s, wanted %s (or also %s)" % (
            sorted(bad)[:5], sorted(must)[:5], sorted(may)[:5])
    want_rc = 5 if limited else 4 if bad else 0
    want_verdict = "window-limited" if limited else "unreadable" if bad else "complete"
    if p.returncode != want_rc or js.get("verdict") != want_verdict or \
            js.get("window_limit") is not limited:
        return "exit %d verdict %s window_limit %s, wanted %d %s %s" % (
            p.returncode, js.get("verdict"), js.get("window_limit"), want_rc,
            want_verdict, limited)
    ident = [ln for ln in open(mp).read().splitlines() if ln.startswith("# cdtail identity:")]
    tail = " max_extra=%d search=window" % recorded
    if not ident or ident[0].endswith(tail) is not limited or \
            (not limited and "search=" in ident[0]):
        return "identity %r, wanted %s" % (ident[:1], tail if limited else "no window words")
    return compare_out(out, disc, runs, e * bs, bufs, [])


def main():
    cdtail, work, opts = common.parse_args(
        __doc__, {"seed": 1, "cases": 2000, "max_blocks": MAX_BLOCKS, "only": -1})
    seed = opts["seed"]
    rng = random.Random(seed)
    cases = [make_case(rng, i, opts["max_blocks"]) for i in range(opts["cases"])]
    if opts["only"] >= 0:
        # replay one case of the seed (its draws need the cases before it)
        cases = [c for c in cases if c["idx"] == opts["only"]]
    # largest first: each disc is the one before it cut shorter
    cases.sort(key=lambda c: -c["bytes"])
    common.run_pool(cases, seed, work, cdtail, run_cases)


FIXTURE_ISO = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "..", "..", "fixtures", "iso9660.iso")


def fs_head(blocks):
    """Blocks 16 and 17 of an ISO 9660 volume declaring BLOCKS: the
    fixture's primary volume descriptor (its size set) and terminator."""
    pvd = bytearray(open(FIXTURE_ISO, "rb").read()[16 * 2048:18 * 2048])
    pvd[80:84] = blocks.to_bytes(4, "little")
    pvd[84:88] = blocks.to_bytes(4, "big")
    return bytes(pvd)


def run_cases(job):
    cases, seed, work, cdtail, wrapper = job
    if not cases:
        return []
    os.makedirs(work, exist_ok=True)
    biggest = cases[0]["bytes"]
    disc = bytearray(random.Random(seed ^ 0x5eed).randbytes(biggest))
    # OUT may be longer than the image (a formatted medium, an audio last
    # track with extra=)
    out_max = max([biggest] + [model(c)[0] * c["bs"] for c in cases])
    bufs = {"out": memoryview(bytearray(out_max)), "zero": memoryview(bytes(out_max))}
    path = os.path.join(work, "disc.img")
    with open(path, "wb") as f:
        f.write(disc)

    def one(case):
        os.truncate(path, case["bytes"])
        fmt = case.get("layout") and case["layout"]["fmt"]
        keep = bytes(disc[16 * 2048:18 * 2048]) if fmt else None
        if fmt:
            disc[16 * 2048:18 * 2048] = fs_head(fmt["fs"])
            with open(path, "r+b") as f:
                f.seek(16 * 2048)
                f.write(disc[16 * 2048:18 * 2048])
        why = check(case, disc, work, cdtail, wrapper, bufs)
        if fmt:
            disc[16 * 2048:18 * 2048] = keep
            with open(path, "r+b") as f:
                f.seek(16 * 2048)
                f.write(keep)
        return why
    return common.first_fails(cases, one)

if __name__ == "__main__":
    main()
