#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeded random CUE/BIN discs for `cdtail image --raw`, checked against a
model that knows only the contract (cdtail-image(1), Raw: BIN/CUE) and the
sheet's layout, built with tests/raw/model.py's placement and compared by
tests/raw/bincheck.py's expectations, apart from the C code.

Each disc: 1 to 3 sessions of 1 to 3 tracks, AUDIO (random samples),
MODE2/2352 (formless Mode 2 and Form 2 sectors with a zero EDC, which need
no EDC/ECC to be right) or MODE1/2048 (a few sectors: the drive makes their
EDC/ECC, model.py the expected ones); later tracks of a session with
stored pregaps (INDEX 00), audio ones with unstored PREGAPs too.  Damage:
bad= ranges (zeros in the files, bad in the JSON, exit 4), a flaky= range
(either read or bad, the files agreeing with the JSON), a Form 2 sector
whose EDC is wrong (an EDC error of its track: bad, zeros, counted);
hide= on a MODE1/2048 last track, or an undamaged MODE2/2352 one (the tail
in its file, Form 2 and formless sectors witnessed by their headers: seed
20261206 case 50 found such a tail missed after an audio track); --offset on
undamaged discs (audio runs shifted); a drive that gives index 01 only
(the stream the same, the files split elsewhere); --chunk drawn.
Identifiers: a CATALOG and per track an ISRC drawn sometimes (a malformed
ISRC now and then, which is none), a drive refusing READ SUB-CHANNEL
sometimes (readsub=refuse): the written sheet has CATALOG first and each
ISRC inside its track before the INDEX lines, JSON catalog/isrc the same,
exactly where the drive gives them.
Pregaps and index marks from Q (issue 33): a later session's first track
with its 2-second pregap (the sheet's blocks, the rest the drive's), INDEX 02.. marks on undamaged discs, a drive giving
formatted Q, raw P-W, both or no subchannel (subchannel=): with Q every
file splits where the source's tracks do on either drive, the sheet's
INDEX lines and the JSON indexes are the source's, the Q reads few; with
none the sheet's REM line and the JSON note say so.

Q's other frames, drawn from their own generator too: the drive's qadr=N
now and then (every Nth frame mode 2 with the CATALOG, mode 3 with an
audio track's ISRC, as cdtail-sim(7) says) and FLAGS (DCP, 4CH, PRE) on
some tracks: the marks and pregaps the same, the Q reads at most twice
as many, OUT.sub submodel.py's with them.

Outputs (issue 33), drawn from their own generator so a seed's discs stay
as they were: --subchannel (OUT.sub record for record the disc's P-W as
tests/raw/submodel.py builds it from the layout, zeros where a sector is
left unreadable, not shifted by --offset; the JSON's zeroed records the
unreadable sectors, no Q CRC error) and --single-file (one OUT.bin, the
stream; a one-FILE sheet whose INDEX 01 times are each track's place in
the stream; every track's JSON file OUT.bin and its CRC-32 its range's).

Usage: raw_model.py CDTAIL WORKDIR [--seed S] [--cases N] [--only I]
  (--only I: case I alone, its disc left in WORKDIR/w0/c to replay)
Prints "ok N cases" or one "FAIL ..." line per failing case.
"""
import hashlib
import json
import zlib
import os
import random
import shlex
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "raw"))
import bincheck  # noqa: E402
import common  # noqa: E402
import model  # noqa: E402
import submodel  # noqa: E402

RAW = 2352
SYNC = bytes([0] + [0xFF] * 10 + [0])


def formless(rng, lba):
    body = bytearray(rng.randbytes(RAW - 16))
    body[4] = body[0] ^ 1  # the subheader copies differ: formless Mode 2
    return model.header(lba, 2) + bytes(body)


def form2(rng, lba, edc=b"\0\0\0\0"):
    sub = bytes([1, 1, 0x20, 0])
    return model.header(lba, 2) + sub + sub + rng.randbytes(2324) + edc


def draw_spec(rng):
    spec = []
    for s in range(1, rng.choice([1, 1, 1, 2, 3]) + 1):
        for t in range(rng.randint(1, 3)):
            mode = rng.choice(["AUDIO", "AUDIO", "MODE2/2352", "MODE2/2352", "MODE1/2048"])
            # track 1's pregap lies before LBA 0; a later session's first
            # track has one in its gap (issue 33), as every later track may
            first = s == 1 and t == 0
            stored = 0 if first or mode == "MODE1/2048" else rng.choice([0, 0, rng.randint(1, 8)])
            unstored = rng.choice([0, 0, rng.randint(1, 4)]) if mode == "AUDIO" and not first else 0
            body = rng.randint(3, 6) if mode == "MODE1/2048" else rng.randint(3, 40)
            spec.append((mode, s, stored, unstored, stored + body))
    return spec


def write_disc(rng, folder, spec, case):
    layout, end = model.place([(m, s, st, un, [None] * n) for (m, s, st, un, n) in spec])
    cue, session = [], 0
    multi = spec[-1][1] > 1
    for t, (mode, sess, stored, unstored, count) in zip(layout, spec):
        first = t["start"] - stored
        if mode == "AUDIO":
            sectors = [rng.randbytes(RAW) for _ in range(count)]
        elif mode == "MODE1/2048":
            sectors = [rng.randbytes(2048) for _ in range(count)]
        else:
            sectors = [form2(rng, first + i) if rng.random() < 0.5 else formless(rng, first + i)
                       for i in range(count)]
        edc = case.get("edc")
        if edc is not None and first <= edc < first + count:
            sectors[edc - first] = form2(rng, edc, edc=b"\x12\x34\x56\x78")
        ext = "iso" if mode == "MODE1/2048" else "bin"
        name = "src (Track %d).%s" % (t["number"], ext)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(b"".join(sectors))
        if sess != session and multi:
            cue.append("REM SESSION %02d" % sess)
        session = sess
        cue.append('FILE "%s" BINARY' % name)
        cue.append("  TRACK %02d %s" % (t["number"], mode))
        if case.get("isrc", {}).get(t["number"]):
            cue.append("    ISRC " + case["isrc"][t["number"]])
        if case.get("flags", {}).get(t["number"]):
            bits = case["flags"][t["number"]]
            cue.append("    FLAGS " + " ".join(w for b, w in FLAG_WORDS if bits & b))
        if unstored:
            cue.append("    PREGAP %s" % model.cue_time(unstored))
        if stored:
            cue.append("    INDEX 00 00:00:00")
        cue.append("    INDEX 01 %s" % model.cue_time(stored))
        for k, x in case.get("marks", {}).get(t["number"], []):
            cue.append("    INDEX %02d %s" % (k, model.cue_time(stored + x)))
    if case.get("catalog"):
        cue.insert(0, "CATALOG " + case["catalog"])
    with open(os.path.join(folder, "src.cue"), "w") as f:
        f.write("\n".join(cue) + "\n")
    with open(os.path.join(folder, "src.json"), "w") as f:
        json.dump({"blocks": end, "sessions": spec[-1][1], "tracks": layout}, f)
    return layout, end


def stored_lbas(layout, spec):
    """LBAs damage may fall on: inside a track after the first, 3 sectors
    from either end of its index-01 part.  The probe reads around track
    boundaries (each track's first sector raw, READ(10) at a data track's
    end to tell a run-out or a pregap: issue 23) and the first track (READ
    CD's capabilities), and damage there changes the layout it reports,
    which this model does not follow."""
    out = []
    for t in layout[1:]:
        out += list(range(t["start"] + 3, t["start"] + t["blocks"] - 3))
    return out


def run_end(lbas, a, n):
    """The last of up to n more LBAs after a that stay in a's window."""
    ok = set(lbas)
    b = a
    while b < a + n and b + 1 in ok:
        b += 1
    return b


def draw_case(rng, idx):
    spec = draw_spec(rng)
    layout, end = model.place([(m, s, st, un, [None] * n) for (m, s, st, un, n) in spec])
    lbas = stored_lbas(layout, spec)
    case = {"idx": idx, "spec": spec, "bad": [], "flaky": None, "edc": None,
            "hide": 0, "offset": 0, "pregap_drive": rng.random() < 0.85,
            "chunk": rng.choice([None, 1, 3, 8, 27])}
    damaged = rng.random() < 0.5 and lbas
    if damaged:
        for _ in range(rng.choice([0, 1, 2])):
            a = rng.choice(lbas)
            case["bad"].append((a, run_end(lbas, a, rng.randint(0, 4))))
        if rng.random() < 0.4:
            a = rng.choice(lbas)
            case["flaky"] = (a, run_end(lbas, a, rng.randint(0, 3)))
        form2_lbas = [x for t, s in zip(layout, spec) if s[0] == "MODE2/2352"
                      for x in lbas if t["start"] <= x < t["start"] + t["blocks"]]
        if form2_lbas and rng.random() < 0.5:
            case["edc"] = rng.choice(form2_lbas)
    elif rng.random() < 0.3 and any(s[0] == "AUDIO" for s in spec):
        case["offset"] = rng.choice([-1, 1]) * rng.randint(1, 700)
    last = spec[-1]
    # a Mode 2 tail only undamaged: a bad Form 2 block past the reported end
    # (05/64/00 to READ(10), unreadable by READ CD) cannot be told from the end
    tail_modes = ("MODE1/2048",) if damaged else ("MODE1/2048", "MODE2/2352")
    # the reported end past the last track's index 01: a TOC giving the last
    # track no blocks at all describes no disc (the pregap is then lost)
    index1_blocks = last[4] - last[2]
    if last[0] in tail_modes and index1_blocks >= 5 and rng.random() < 0.4:
        case["hide"] = rng.randint(1, index1_blocks - 3)
    draw_ids(rng, case, len(layout))
    draw_q(rng, case, spec, damaged)
    return case


def draw_q(rng, case, spec, damaged):
    """The drive's subchannel (subchannel=: both, formatted Q or raw P-W
    alone, none now and then) and index marks 02.. on undamaged discs:
    {track: [(number, blocks after index 01)]}, numbers rising (one
    skipped now and then), never on index 01 itself."""
    case["sub"] = rng.choice(["all", "all", "q", "pw", "none"])
    case["marks"] = {}
    for number, (mode, sess, stored, unstored, count) in enumerate(spec, 1):
        body = count - stored
        if damaged or body < 4 or rng.random() < 0.6:
            continue
        at = sorted(rng.sample(range(1, body), min(body - 1, rng.randint(1, 3))))
        k, marks = 1, []
        for x in at:
            k += 2 if rng.random() < 0.2 else 1
            marks.append((k, x))
        case["marks"][number] = marks


ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def draw_ids(rng, case, n_tracks):
    """CATALOG and ISRCs (some malformed: lower case or a letter in the
    digits, which the drive must not give), and readsub=refuse."""
    digits = lambda n: "".join(rng.choice("0123456789") for _ in range(n))
    case["catalog"] = digits(13) if rng.random() < 0.3 else None
    case["isrc"] = {}
    for number in range(1, n_tracks + 1):
        if rng.random() < 0.3:
            isrc = "".join(rng.choice(ALNUM) for _ in range(5)) + digits(7)
            if rng.random() < 0.15:
                isrc = rng.choice([isrc.lower() + "x", isrc[:11] + "Z"])
            case["isrc"][number] = isrc
    case["readsub_refuse"] = rng.random() < 0.15


def given_ids(case):
    """The MCN and ISRCs the drive gives: the well-formed ones, unless it
    refuses READ SUB-CHANNEL."""
    if case["readsub_refuse"]:
        return None, {}
    good = lambda s: len(s) == 12 and all(c in ALNUM for c in s[:5]) and s[5:].isdigit()
    return case["catalog"], {n: s for n, s in case["isrc"].items() if good(s)}


def check_ids(case, out, cue_text):
    """JSON catalog/isrc and the sheet's CATALOG/ISRC lines as given_ids()."""
    why = []
    catalog, isrcs = given_ids(case)
    if out and out.get("catalog") != catalog:
        why.append("JSON catalog %r, want %r" % (out.get("catalog"), catalog))
    got = {t["number"]: t.get("isrc") for t in out.get("tracks", [])}
    if out and {n: s for n, s in got.items() if s is not None} != isrcs:
        why.append("JSON isrc %s, want %s" % (got, isrcs))
    lines = [l.strip() for l in cue_text.splitlines()]
    cat_lines = [i for i, l in enumerate(lines) if l.startswith("CATALOG")]
    if cat_lines != ([0] if catalog else []) or (catalog and lines[0] != "CATALOG " + catalog):
        why.append("CATALOG lines %s, want %r first" % ([lines[i] for i in cat_lines], catalog))
    track, seen, sheet = None, [], {}
    for l in lines:
        w = l.split()
        if w and w[0] == "TRACK":
            track, seen = int(w[1]), []
        elif w and w[0] == "ISRC":
            if track is None or "INDEX" in seen:
                why.append("ISRC %s outside its track's head" % l)
            sheet[track] = w[1]
        if w:
            seen.append(w[0])
    if sheet != isrcs:
        why.append("sheet ISRCs %s, want %s" % (sheet, isrcs))
    return why


def session_pregaps_lost(files, layout):
    """A drive that gives neither Q nor pregap starts: a later session's
    first track's pregap lies in the gap, where nothing else says it is,
    so no file holds it."""
    out = []
    for f, t, prev in zip(files, layout, [None] + layout[:-1]):
        if prev and prev["session"] != t["session"] and t["pregap"]:
            f = (f[0], f[1], f[2], f[3][t["pregap"]:])
        out.append(f)
    return out


def want_indexes(case, layout):
    """{track: [(index, LBA)]}: 00 where a pregap is (not track 1's,
    before LBA 0), 01, and the marks, where the drive gives Q."""
    out = {}
    for t in layout:
        idx = [(0, t["start"] - t["pregap"])] if t["pregap"] and t["number"] > 1 else []
        idx.append((1, t["start"]))
        idx += [(k, t["start"] + x) for k, x in case["marks"].get(t["number"], [])]
        out[t["number"]] = idx
    return out


def sheet_indexes(cue_text):
    """{track: [(index, frames into its file)]} of a written sheet."""
    out, track = {}, None
    for l in cue_text.splitlines():
        w = l.split()
        if w and w[0] == "TRACK":
            track = int(w[1])
            out[track] = []
        elif w and w[0] == "INDEX" and track is not None:
            m, sec, f = (int(v) for v in w[2].split(":"))
            out[track].append((int(w[1]), (m * 60 + sec) * 75 + f))
    return out


def check_q(case, out, cue_text, layout):
    """Where the drive gives Q: the sheet's INDEX lines and the JSON
    indexes are the source's (pregap, marks), the reads few; where it gives
    none: said in the sheet and the JSON, and no INDEX 02.. made up."""
    why = []
    sheet = sheet_indexes(cue_text)
    if case["sub"] == "none":
        if "REM cdtail: the drive gives no subchannel Q" not in cue_text:
            why.append("no Q, and no REM line says so")
        if out.get("notes") != ["no-subchannel-q"]:
            why.append("notes %s, want no-subchannel-q" % out.get("notes"))
        if any(k > 1 for idx in sheet.values() for k, _ in idx):
            why.append("no Q, but INDEX 02.. in the sheet")
        return why
    want = want_indexes(case, layout)
    got = {t["number"]: [(i["number"], i["lba"]) for i in t.get("indexes", [])]
           for t in out.get("tracks", [])}
    if got != want:
        why.append("JSON indexes %s, want %s" % (got, want))
    for n, idx in want.items():
        first = idx[0][1]
        got_n = sheet.get(n) or [(None, 0)]
        if case.get("single"):
            # one FILE: times on the whole stream (check_single places
            # INDEX 01); within a track they keep the disc's distances
            got_n = [(k, x - got_n[0][1]) for k, x in got_n]
        if got_n != [(k, lba - first) for k, lba in idx]:
            why.append("track %d INDEX lines %s, want %s" % (n, sheet.get(n), idx))
    n_marks = sum(len(m) for m in case["marks"].values())
    if out.get("qmarks") != "found" or out.get("notes"):
        why.append("qmarks %s notes %s" % (out.get("qmarks"), out.get("notes")))
    # 4 a track, about 18 a mark, a few more where damage makes Q be read
    # aside; ADR 2/3 frames (qadr=) read aside at most once each
    bound = 8 * len(layout) + 30 * n_marks + 10
    if not 0 < out.get("q_reads", 0) <= bound * (2 if case.get("qadr") else 1):
        why.append("%s Q reads for %d tracks, %d marks" % (out.get("q_reads"), len(layout), n_marks))
    return why


FLAG_WORDS = ((2, "DCP"), (8, "4CH"), (1, "PRE"))


def draw_qframes(seed, case):
    """qadr= and each track's FLAGS bits, from a generator of their own."""
    rng = random.Random("%d:%d:qframes" % (seed, case["idx"]))
    case["qadr"] = rng.choice([2, 3, 5, 10, 37, 100]) if rng.random() < 0.35 else None
    case["flags"] = {}
    for number, spec in enumerate(case["spec"], 1):
        if rng.random() < 0.3:
            bits = rng.choice([1, 2, 3, 8, 9, 10, 11]) if spec[0] == "AUDIO" else 2
            case["flags"][number] = bits


def q_ids(case):
    """What the drive's Q carries of the sheet (cd/cue.c keeps the
    well-formed identifiers; READ SUB-CHANNEL's refusal is no matter)."""
    good = lambda s: len(s) == 12 and all(c in ALNUM for c in s[:5]) and s[5:].isdigit()
    return {"qadr": case.get("qadr"), "catalog": case["catalog"],
            "isrc": {n: s for n, s in case["isrc"].items() if good(s)},
            "flags": case.get("flags", {})}


def draw_outputs(seed, case):
    """--subchannel and --single-file, from a generator of their own."""
    rng = random.Random("%d:%d:outputs" % (seed, case["idx"]))
    case["subchannel"] = rng.random() < 0.5
    case["single"] = rng.random() < 0.35
    # --subchannel wants raw P-W: a drive giving Q alone or none refuses it
    case["subchannel"] = case["subchannel"] and case["sub"] in ("all", "pw")


def check_sub(case, folder, out, zero):
    """OUT.sub as submodel.py's, the JSON's counts."""
    why = []
    path = os.path.join(folder, "out.sub")
    if not case["subchannel"]:
        if os.path.exists(path) or out.get("subchannel") is not None:
            why.append("OUT.sub without --subchannel")
        return why
    want = submodel.expected(os.path.join(folder, "src.json"), zero, case["marks"],
                             q_ids(case))
    got = open(path, "rb").read() if os.path.exists(path) else b""
    if got != b"".join(want):
        diff = [k for k in range(len(want)) if got[k * 96:(k + 1) * 96] != want[k]]
        why.append("OUT.sub: %d bytes, want %d; records differing %s" % (
            len(got), 96 * len(want), diff[:5]))
    tracks = out.get("tracks", [])
    if sum(t.get("sub_zeroed", -1) for t in tracks) != len(zero):
        why.append("sub_zeroed %s, want %d" % ([t.get("sub_zeroed") for t in tracks], len(zero)))
    if any(t.get("q_crc_errors") != 0 for t in tracks):
        why.append("q_crc_errors %s" % [t.get("q_crc_errors") for t in tracks])
    return why


def check_single(case, cue, out, files, blobs):
    """One FILE, INDEX 01 at each track's place in the stream, CRC-32s."""
    why = []
    text = open(cue).read()
    names = bincheck.sheet_files(cue)
    if [os.path.basename(n) for n in names] != ["out.bin"]:
        why.append("FILE lines %s" % names)
    if any(t["file"] != os.path.join(os.path.dirname(cue), "out.bin") for t in out.get("tracks", [])):
        why.append("JSON files %s" % [t["file"] for t in out.get("tracks", [])])
    if not case["pregap_drive"] and case["sub"] == "none":
        return why  # where the files split is the drive's (no Q, index 01 starts)
    at, want = 0, []
    for i, f in enumerate(files):
        want.append(at + (case["layout"][i]["pregap"] if i else 0))
        at += len(f[3])
    got = []
    for line in text.splitlines():
        w = line.split()
        if w[:2] == ["INDEX", "01"]:
            m, sec, fr = (int(x) for x in w[2].split(":"))
            got.append((m * 60 + sec) * 75 + fr)
    if got != want:
        why.append("INDEX 01 at %s, want %s" % (got, want))
    crcs = ["%08x" % zlib.crc32(b) for b in blobs]
    if [t.get("crc32") for t in out.get("tracks", [])] != crcs:
        why.append("crc32 %s, want %s" % ([t.get("crc32") for t in out.get("tracks", [])], crcs))
    return why


def sim_addr(folder, case):
    keys = ["cost=0/0"]
    if case["pregap_drive"]:
        keys.append("trackinfo=pregap")
    if case["bad"]:
        keys.append("bad=" + ":".join("%d-%d" % r for r in case["bad"]))
    if case["flaky"]:
        keys.append("flaky=%d-%d:1" % case["flaky"])
    if case["hide"]:
        keys.append("hide=%d" % case["hide"])
    if case["readsub_refuse"]:
        keys.append("readsub=refuse")
    if case["sub"] != "all":
        keys.append("subchannel=" + case["sub"])
    if case.get("qadr"):
        keys.append("qadr=%d" % case["qadr"])
    return "sim:" + os.path.join(folder, "src.cue") + "," + ",".join(keys)


def expected_zero(case, got_bad):
    zero = {x for a, b in case["bad"] for x in range(a, b + 1)}
    if case["edc"] is not None:
        zero.add(case["edc"])
    if case["flaky"]:
        a, b = case["flaky"]
        zero |= {x for x in range(a, b + 1) if x in got_bad}
    return zero


def check_json(case, out, zero, layout):
    why = []
    got_bad = {x for a, b in out.get("bad_blocks", []) for x in range(a, b + 1)}
    if got_bad != zero:
        why.append("bad LBAs %s, want %s" % (sorted(got_bad), sorted(zero)))
    if len(out.get("tracks", [])) != len(layout):
        why.append("%d tracks, want %d" % (len(out.get("tracks", [])), len(layout)))
    edc = sum(t["edc_errors"] for t in out.get("tracks", []))
    if edc != (case["edc"] is not None):
        why.append("edc_errors %d, want %d" % (edc, case["edc"] is not None))
    if sum(t["bad_sectors"] for t in out.get("tracks", [])) != len(zero):
        why.append("bad_sectors %s" % [t["bad_sectors"] for t in out.get("tracks", [])])
    return why


def check_sums(out):
    """Each track's CRC-32, MD5 and SHA-1 are its file's, or with
    --single-file its range's (issue 34: they come from the bytes as
    written, not from the file read back)."""
    why = []
    tracks = out.get("tracks", [])
    one_file = len(tracks) > 1 and len({t["file"] for t in tracks}) == 1
    at = 0
    for t in tracks:
        data = open(t["file"], "rb").read()
        if one_file:
            # --single-file: each track's range of OUT.bin, back to back
            data, at = data[at:at + t["sectors"] * RAW], at + t["sectors"] * RAW
        want = ("%08x" % (zlib.crc32(data) & 0xffffffff), hashlib.md5(data).hexdigest(),
                hashlib.sha1(data).hexdigest())
        if (t.get("crc32"), t.get("md5"), t.get("sha1")) != want:
            why.append("track %d's sums %s, want %s" % (t["number"], (t.get("crc32"),
                       t.get("md5"), t.get("sha1")), want))
    return why


def check(case, work, cdtail, wrapper, seed):
    rng = random.Random(seed * 1000003 + case["idx"])
    draw_case(rng, case["idx"])  # the same draws as when the case was made
    folder = os.path.join(work, "c")
    os.makedirs(folder, exist_ok=True)
    for f in os.listdir(folder):
        os.unlink(os.path.join(folder, f))
    draw_qframes(seed, case)
    layout, end = write_disc(rng, folder, case["spec"], case)
    cue = os.path.join(folder, "out.cue")
    cmd = wrapper + [cdtail, "image", "--raw", "--json", "--map", os.path.join(folder, "out.map")]
    draw_outputs(seed, case)
    case["layout"] = layout
    if case["subchannel"]:
        cmd.append("--subchannel")
    if case["single"]:
        cmd.append("--single-file")
    if case["chunk"]:
        cmd += ["--chunk", str(case["chunk"])]
    if case["offset"]:
        cmd += ["--offset", str(case["offset"])]
    cmd += [sim_addr(folder, case), cue]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        out = json.loads(p.stdout)
    except ValueError:
        out = {}
    got_bad = {x for a, b in out.get("bad_blocks", []) for x in range(a, b + 1)}
    zero = expected_zero(case, got_bad)
    why = check_json(case, out, zero, layout)
    if p.returncode != (4 if zero else 0):
        why.append("exit %d, want %d: %s" % (p.returncode, 4 if zero else 0, p.stderr.strip()[:300]))
    if not why:
        d, sec = bincheck.source_sectors(os.path.join(folder, "src.json"))
        files = bincheck.expected_files(d, sec)
        if case["sub"] == "none" and not case["pregap_drive"]:
            files = session_pregaps_lost(files, layout)
        blobs = [b"".join(bytes(RAW) if x in zero else sec[x] for x in f[3]) for f in files]
        if case["offset"]:
            bincheck.shift_audio(files, blobs, case["offset"])
        got = [open(x, "rb").read() for x in bincheck.sheet_files(cue)]
        # Q gives every pregap whichever start the drive gives (issue 33)
        split = case["pregap_drive"] or case["sub"] != "none"
        if case["single"]:
            why += check_single(case, cue, out, files, blobs)
        elif split and [len(g) for g in got] != [len(b) for b in blobs]:
            why.append("file sizes %s, want %s" % ([len(g) // RAW for g in got],
                                                   [len(b) // RAW for b in blobs]))
        if b"".join(got) != b"".join(blobs):
            why.append("the files' bytes differ from the disc's")
        why += check_sums(out)
        why += check_ids(case, out, open(cue).read())
        why += check_q(case, out, open(cue).read(), layout)
        why += check_sub(case, folder, out, zero)
        sessions = open(cue).read().count("REM SESSION")
        if sessions != (d["sessions"] if d["sessions"] > 1 else 0):
            why.append("%d REM SESSION lines for %d sessions" % (sessions, d["sessions"]))
    if why:
        return "case %d: %s\n    replay: %s" % (case["idx"], "; ".join(why), shlex.join(cmd))
    return None


def run_cases(job):
    cases, seed, work, cdtail, wrapper = job
    os.makedirs(work, exist_ok=True)
    return common.first_fails(cases, lambda c: check(c, work, cdtail, wrapper, seed))


def main():
    cdtail, work, opts = common.parse_args(__doc__, {"seed": 20261206, "cases": 2000, "only": -1})
    cases = [draw_case(random.Random(opts["seed"] * 1000003 + i), i) for i in range(opts["cases"])
             if opts["only"] < 0 or i == opts["only"]]
    common.run_pool(cases, opts["seed"], work, cdtail, run_cases)


if __name__ == "__main__":
    main()
