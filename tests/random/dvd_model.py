# SPDX-License-Identifier: MIT
"""Seeded random DVD and BD discs for cdtail probe and image (issue 36),
checked against what the contract says, not against the code:

    dvd_model.py CDTAIL WORKDIR [--seed N] [--cases N]

Each case draws a profile (dvd-rom, dvd-r, dvd+r, bd-rom, bd-r; the
recordable ones sometimes open, with READ CAPACITY saying 1 block or the
last recorded address: sim opencap=), a size, a head (nothing, an ISO 9660
volume, or the UDF fixture whose partition is set to end at a drawn size),
a disc structure (absent = refused, right, wrong, on DVD sometimes two
layers on an opposite or a parallel track path, a parallel one's layer 1
sometimes wrong or refused: sim structure=END:L0:ptp|ptp-l0only), damage in whole ECC blocks (16) or clusters (32) (sim ecc=) and,
on DVD, CSS-scrambled sectors (css=).  What must hold (cdtail-probe(1),
cdtail-image(1), cdtail-sim(7)):
  - probe: the true end is the image's size; sources.disc_structure is the
    structure's data area on DVD (two layers added up: on a parallel path
    layer 0's and layer 1's own areas), null on BD and when refused (a
    parallel disc's layer 1 too), and wrong exactly when it is not the true
    end; structure.layers, track_path and layer0_blocks as drawn; the filesystem source is the head's size
    and type; an open disc's recorded track ends at the true end, and READ
    CAPACITY short of it is the note open-capacity and exit 10;
  - image: bad_blocks are the drawn damage widened to whole units, merged;
    the CSS range is skipped "protected"; OUT is the disc with zeros there;
    exit 4 when either exists, else 0 (10 never: image says nothing of it);
  - verify --image of the disc: the same blocks unreadable and protected,
    nothing different, and a defect costs its unit a few failing reads,
    not each of its sectors (check_verify).
"""
import json
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

BS = 2048
HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "..", "fixtures")
PROFILES = ("dvd-rom", "dvd-r", "dvd+r", "bd-rom", "bd-r")
SEQUENTIAL = ("dvd-r", "dvd+r", "bd-r")
LO = 512  # damage and scrambled sectors stay above the filesystem's head


def log_uniform(rng, lo, hi):
    import math
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi + 0.999)))))


def make_case(rng, idx):
    prof = rng.choice(PROFILES)
    bd = prof.startswith("bd")
    unit = 32 if bd else 16
    n = log_uniform(rng, 1200, 8000)
    keys = ["cost=0/0", "profile=" + prof, "ecc=%d" % unit]
    open_ = prof in SEQUENTIAL and rng.random() < 0.5
    opencap = None
    if open_:
        keys.append("open=1")
        if rng.random() < 0.6:
            opencap = rng.choice(["one", "lra"])
            keys.append("opencap=" + opencap)
    head = rng.choice(["none", "iso", "udf"])
    fs = None
    if head != "none":
        fs = n if rng.random() < 0.6 else rng.randint(300, n)
    structure = None
    l0 = None
    path = None
    r = rng.random()
    if r < 0.35:
        structure = n
    elif r < 0.55:
        structure = max(1, n + rng.choice([-1, 1]) * log_uniform(rng, 1, 3000))
    elif r < 0.7 and not bd:
        structure = n
        l0 = rng.randint(1, n - 1)
    elif r < 0.85 and not bd:
        # parallel track path: each layer its own data area, drawn apart;
        # layer 1 sometimes says more or fewer blocks than the disc holds
        path = rng.choice(["ptp", "ptp", "ptp-l0only"])
        l0 = rng.randint(1, n - 1)
        l1 = n - l0
        if rng.random() < 0.3:
            l1 = max(1, l1 + rng.choice([-1, 1]) * log_uniform(rng, 1, 2000))
        structure = l0 + l1
    if structure is not None:
        keys.append("structure=%d" % structure + (":%d" % l0 if l0 else "") +
                    (":" + path if path else ""))
    # damage: whole units, apart, below the last unit (the end stays readable)
    bad = []
    top = (n // unit - 1) * unit
    for _ in range(rng.choice([0, 0, 1, 2, 4])):
        if top - LO < unit * 4:
            break
        a = rng.randrange(LO, top - unit)
        b = min(top - 1, a + log_uniform(rng, 1, 200) - 1)
        bad.append((a, b))
    if bad:
        keys.append("bad=" + ":".join("%d-%d" % x for x in bad))
    css = None
    if not bd and rng.random() < 0.3 and top - LO > 64:
        a = rng.randrange(LO, top - 32)
        css = (a, min(top - 1, a + log_uniform(rng, 1, 300) - 1))
        if any(not (css[1] < x - x % unit or css[0] > y - y % unit + unit - 1) for x, y in bad):
            css = None
    if css:
        keys.append("css=%d-%d" % css)
    return {"idx": idx, "prof": prof, "bd": bd, "unit": unit, "n": n, "keys": keys,
            "open": open_, "opencap": opencap, "head": head, "fs": fs,
            "structure": structure, "l0": l0, "path": path, "bad": bad, "css": css}


def widened(case):
    """The blocks the medium fails: each drawn range to whole units."""
    u, out = case["unit"], set()
    for a, b in case["bad"]:
        out.update(range(a - a % u, b - b % u + u))
    return {x for x in out if x < case["n"]}


def ranges(blocks):
    out = []
    for x in sorted(blocks):
        if out and out[-1][1] == x - 1:
            out[-1][1] = x
        else:
            out.append([x, x])
    return out


def crc_itu(data):
    """ECMA-167 7.2.6: the descriptor CRC, CRC-ITU (x^16 + x^12 + x^5 + 1)."""
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xffff
    return crc


def udf_head(fs):
    """Sectors 0-256 of the UDF fixture, its partition descriptor ending at
    fs (start + length, ECMA-167 3/10.5), its tag's CRC and checksum set."""
    d = bytearray(open(os.path.join(FIX, "udf.img"), "rb").read()[:257 * BS])
    a = 256 * BS
    loc = struct.unpack("<I", d[a + 20:a + 24])[0]
    for s in range(loc, loc + 16):
        t = s * BS
        if struct.unpack("<H", d[t:t + 2])[0] != 5:
            continue
        start = struct.unpack("<I", d[t + 188:t + 192])[0]
        d[t + 192:t + 196] = struct.pack("<I", fs - start)
        crcl = struct.unpack("<H", d[t + 10:t + 12])[0]
        d[t + 8:t + 10] = struct.pack("<H", crc_itu(d[t + 16:t + 16 + crcl]))
        d[t + 4] = sum(d[t + i] for i in range(16) if i != 4) & 0xff
    return bytes(d)


def iso_head(fs):
    """Blocks 16 and 17: the ISO fixture's PVD declaring fs, its terminator."""
    pvd = bytearray(open(os.path.join(FIX, "iso9660.iso"), "rb").read()[16 * BS:18 * BS])
    pvd[80:84] = fs.to_bytes(4, "little")
    pvd[84:88] = fs.to_bytes(4, "big")
    return bytes(pvd)


def run(cdtail, args):
    p = subprocess.run([cdtail] + args, capture_output=True, text=True)
    try:
        js = json.loads(p.stdout) if p.stdout.strip() else {}
    except ValueError:
        js = {}
    return p.returncode, js, p.stderr


def check(case, work, cdtail):
    n, u = case["n"], case["unit"]
    disc = bytearray(random.Random("dvd-%d" % case["idx"]).randbytes(n * BS))
    if case["head"] == "udf":
        h = udf_head(case["fs"])
        disc[0:len(h)] = h
    elif case["head"] == "iso":
        disc[16 * BS:18 * BS] = iso_head(case["fs"])
    path = os.path.join(work, "disc.img")
    with open(path, "wb") as f:
        f.write(disc)
    dev = "sim:%s,%s" % (path, ",".join(case["keys"]))
    name = "case %d: cdtail probe --json %s" % (case["idx"], dev)
    rc, js, err = run(cdtail, ["probe", "--json", dev])
    want_rc = 10 if case["opencap"] else 0
    if rc != want_rc:
        return "%s: exit %d, wanted %d (%s)" % (name, rc, want_rc, err.strip()[:200])
    src = js.get("sources") or {}
    if js.get("true_blocks") != n:
        return "%s: true_blocks %s, wanted %d" % (name, js.get("true_blocks"), n)
    want_ds = None if case["bd"] or case["structure"] is None else case["structure"]
    if case["path"] == "ptp-l0only":
        want_ds = None  # layer 1's descriptor refused: absent, never guessed
    if src.get("disc_structure") != want_ds:
        return "%s: disc_structure %s, wanted %s" % (name, src.get("disc_structure"), want_ds)
    wrong = "disc_structure" in (js.get("wrong_sources") or [])
    if wrong != (want_ds is not None and want_ds != n):
        return "%s: disc_structure wrong is %s" % (name, wrong)
    st = js.get("structure")
    if (st is None) != (case["structure"] is None):
        return "%s: structure %s" % (name, st)
    if st:
        layers = 2 if case["l0"] else 1
        if st.get("layers") != layers or st.get("layer0_blocks") != case["l0"]:
            return "%s: layers %s/%s, wanted %d/%s" % (name, st.get("layers"),
                                                      st.get("layer0_blocks"), layers, case["l0"])
        want_tp = None if case["bd"] else "parallel" if case["path"] or not case["l0"] else "opposite"
        if st.get("track_path") != want_tp:
            return "%s: track_path %s, wanted %s" % (name, st.get("track_path"), want_tp)
    want_fs = case["fs"]
    if src.get("filesystem") != want_fs:
        return "%s: filesystem %s, wanted %s" % (name, src.get("filesystem"), want_fs)
    fstype = {"udf": "udf", "iso": "iso9660", "none": None}[case["head"]]
    if (js.get("filesystem") or {}).get("type") != fstype:
        return "%s: filesystem type %s, wanted %s" % (name, js.get("filesystem"), fstype)
    rt = js.get("recorded_track")
    if case["prof"] in SEQUENTIAL:
        if not rt or rt.get("recorded_end") != n:
            return "%s: recorded_track %s, wanted its end at %d" % (name, rt, n)
        if case["open"] and rt.get("next_writable") is None:
            return "%s: an open disc without a next writable address" % name
    elif rt is not None:
        return "%s: recorded_track %s on a pressed disc" % (name, rt)
    if ("open-capacity" in (js.get("notes") or [])) != bool(case["opencap"]):
        return "%s: notes %s" % (name, js.get("notes"))
    # image
    out = os.path.join(work, "out.iso")
    if os.path.exists(out):
        os.unlink(out)
    rc, js, err = run(cdtail, ["image", "--json", "--digest", "none", dev, out])
    name = "case %d: cdtail image --json %s OUT" % (case["idx"], dev)
    bad = widened(case)
    prot = set(range(case["css"][0], case["css"][1] + 1)) if case["css"] else set()
    want_rc = 4 if bad or prot else 0
    if rc != want_rc:
        return "%s: exit %d, wanted %d (%s)" % (name, rc, want_rc, err.strip()[:200])
    if js.get("extent_blocks") != n:
        return "%s: extent %s, wanted %d" % (name, js.get("extent_blocks"), n)
    if js.get("bad_blocks") != ranges(bad):
        return "%s: bad_blocks %s, wanted %s" % (name, js.get("bad_blocks"), ranges(bad))
    skipped = [(k["start"], k["blocks"], k["why"]) for k in js.get("skipped") or []]
    want_sk = [(case["css"][0], case["css"][1] - case["css"][0] + 1, "protected")] if prot else []
    if skipped != want_sk:
        return "%s: skipped %s, wanted %s" % (name, skipped, want_sk)
    got = open(out, "rb").read()
    if len(got) != n * BS:
        return "%s: OUT holds %d bytes, wanted %d" % (name, len(got), n * BS)
    zero = bytes(BS)
    for b in range(n):
        want = zero if b in bad or b in prot else disc[b * BS:(b + 1) * BS]
        if got[b * BS:(b + 1) * BS] != want:
            return "%s: OUT's block %d is not %s" % (name, b, "zeros" if want == zero else "the disc's")
    return check_verify(case, dev, path, bad, prot)


def units_of(blocks, u):
    return {x // u for x in blocks}


def check_verify(case, dev, path, bad, prot):
    """verify --image of the disc's own file: the drawn damage widened to
    units is unreadable, the CSS range protected, nothing differs; a failed
    chunk is read again unit by unit (cdtail-verify(1)), so the failing
    reads past the end search are at most 5 per failed unit (the chunk's,
    three tries with -r2, the block after the good ones) and, for CSS, one
    per scrambled sector and two per unit it touches."""
    u = case["unit"]
    rc, js, err = run(case["cdtail"], ["verify", "--json", "--image", path, dev])
    name = "case %d: cdtail verify --json --image DISC %s" % (case["idx"], dev)
    want_rc = 4 if bad or prot else 0
    if rc != want_rc:
        return "%s: exit %d, wanted %d (%s)" % (name, rc, want_rc, err.strip()[:200])
    if js.get("bad_count") != len(bad) or js.get("bad_blocks") != ranges(bad):
        return "%s: bad_blocks %s, wanted %s" % (name, js.get("bad_blocks"), ranges(bad))
    if js.get("protected_blocks") != len(prot) or js.get("diff_count"):
        return "%s: protected %s, diff %s, wanted %d, 0" % (
            name, js.get("protected_blocks"), js.get("diff_count"), len(prot))
    failed = (js.get("total") or {}).get("failed_reads", 0) - js.get("search_failed_reads", 0)
    most = 5 * len(units_of(bad, u)) + len(prot) + 2 * len(units_of(prot, u))
    if failed > most:
        return "%s: %d failing reads past the end search, at most %d" % (name, failed, most)
    return None


def run_cases(job):
    cases, seed, work, cdtail, wrapper = job
    os.makedirs(work, exist_ok=True)
    for c in cases:
        c["cdtail"] = cdtail
    return common.first_fails(cases, lambda c: check(c, work, cdtail))


def main():
    cdtail, work, opts = common.parse_args(__doc__, {"seed": 1, "cases": 300})
    rng = random.Random(opts["seed"])
    cases = [make_case(rng, i) for i in range(opts["cases"])]
    common.run_pool(cases, opts["seed"], work, cdtail, run_cases)


if __name__ == "__main__":
    main()
