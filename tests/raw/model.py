#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An independent model of raw CD sectors and the Q subchannel, written
from ECMA-130 (14.3 EDC, 14.5 and annex A ECC, 22.3 Q subchannel) apart
from the C code (src/lib/cd/edc.c, ecc.c, sector.c, subq.c), with other
methods, so that both agreeing means something:

- EDC: a bit-at-a-time reflected CRC-32 register (the C code uses a
  nibble table); the check value 0x6EC2EDC4 is asserted at import.
- ECC: systematic Reed-Solomon encoding by polynomial division by the
  generator g(x) = (x + 1)(x + alpha) over GF(2^8) with log/antilog
  tables (the C code solves the two parity equations by Horner's rule),
  and a syndrome check of every P column and Q diagonal.
- Q CRC: the 80 message bits times x^16 divided by x^16 + x^12 + x^5 + 1
  as one big integer (the C code shifts a 16-bit register).

Usage: model.py vectors COUNT SEED   print test vectors, one a line:
  sector KIND LBA SUBHEADER DATA SECTOR    (hex; KIND mode1|form1|form2|form2z)
  q CONTROL TRACK INDEX RELATIVE LBA Q PW  (hex Q and its 96 P-W bytes)
       model.py check FILE.bin           per 2352-byte sector: LBA KIND ok|bad
       model.py mode1 FILE.iso OUT.bin START   raw Mode 1 sectors of an ISO
       model.py disc KIND DIR             DIR/KIND.cue, its .bin files and
                                          DIR/KIND.json and KIND.layout: the
                                          layout the drive must show (kinds:
                                          disc_tracks()), KIND.edges: READ CD
                                          of track 1's pregap and the
                                          lead-out (edges())
"""
import json
import os
import random
import sys

GF_POLY = 0x11D
EXP = [0] * 512
LOG = [0] * 256
x = 1
for i in range(255):
    EXP[i] = x
    LOG[x] = i
    x <<= 1
    if x & 0x100:
        x ^= GF_POLY
for i in range(255, 512):
    EXP[i] = EXP[i - 255]


def gmul(a, b):
    if a == 0 or b == 0:
        return 0
    return EXP[LOG[a] + LOG[b]]


def edc(data):
    reg = 0
    for byte in data:
        for bit in range(8):
            inbit = (byte >> bit) & 1
            out = (reg ^ inbit) & 1
            reg >>= 1
            if out:
                reg ^= 0xD8018001
    return reg


assert edc(b"123456789") == 0x6EC2EDC4

# g(x) = (x + 1)(x + a) = x^2 + (1 + a) x + a, coefficients high first
G = [1, 1 ^ 2, 2]


def rs_parity(msg):
    """Remainder of msg(x) * x^2 mod g(x): the two parity symbols."""
    rem = list(msg) + [0, 0]
    for i in range(len(msg)):
        coef = rem[i]
        if coef:
            for j in range(1, 3):
                rem[i + j] ^= gmul(G[j], coef)
    return rem[-2:]


def syndromes_zero(word):
    s0 = 0
    s1 = 0
    for v in word:  # evaluate at x = 1 and x = alpha, Horner
        s0 ^= v
        s1 = gmul(s1, 2) ^ v
    return s0 == 0 and s1 == 0


def p_words(c):
    return [43 * r + c for r in range(26)]


def q_words(d):
    return [(44 * m + 43 * d) % 1118 for m in range(43)] + [1118 + d, 1144 + d]


def ecc(sector):
    s = bytearray(sector)
    for plane in range(2):
        for c in range(43):
            w = p_words(c)
            par = rs_parity([s[12 + 2 * k + plane] for k in w[:24]])
            s[12 + 2 * w[24] + plane], s[12 + 2 * w[25] + plane] = par
    for plane in range(2):
        for d in range(26):
            w = q_words(d)
            par = rs_parity([s[12 + 2 * k + plane] for k in w[:43]])
            s[12 + 2 * w[43] + plane], s[12 + 2 * w[44] + plane] = par
    return bytes(s)


def ecc_ok(s):
    for plane in range(2):
        for c in range(43):
            if not syndromes_zero([s[12 + 2 * k + plane] for k in p_words(c)]):
                return False
        for d in range(26):
            if not syndromes_zero([s[12 + 2 * k + plane] for k in q_words(d)]):
                return False
    return True


SYNC = bytes([0] + [0xFF] * 10 + [0])


def bcd(v):
    return (v // 10) << 4 | (v % 10)


def header(lba, mode):
    a = lba + 150
    return SYNC + bytes([bcd(a // 4500), bcd(a // 75 % 60), bcd(a % 75), mode])


def mode1(lba, data):
    s = header(lba, 1) + data
    s += edc(s).to_bytes(4, "little") + bytes(8) + bytes(276)
    return ecc(s)


def mode2(lba, sub, data, form2_edc=True):
    body = sub + sub + data
    if sub[2] & 0x20:
        e = edc(body) if form2_edc else 0
        return header(lba, 2) + body + e.to_bytes(4, "little")
    body += edc(body).to_bytes(4, "little")
    s = ecc(bytes(16) + body + bytes(276))  # header taken as zero
    return header(lba, 2) + s[16:]


def q_crc(msg):
    nbits = 8 * len(msg)
    val = int.from_bytes(msg, "big") << 16
    poly = 0x11021
    for bit in range(nbits + 15, 15, -1):
        if val >> bit & 1:
            val ^= poly << (bit - 16)
    return val ^ 0xFFFF


# CRC-16/GSM, as the Q CRC is catalogued: check value 0xCE3C
assert q_crc(b"123456789") == 0xCE3C


def msf(frames):
    return bytes([bcd(frames // 4500), bcd(frames // 75 % 60), bcd(frames % 75)])


def subq(control, track, index, relative, lba):
    t = 0xAA if track == 0xAA else bcd(track)
    q = bytes([control << 4 | 1, t, bcd(index)]) + msf(relative) + b"\0" + msf(lba + 150)
    return q + q_crc(q).to_bytes(2, "big")


def _packq(fields):
    """Q's 80 bits from (value, width) fields in order, then the CRC."""
    v, n = 0, 0
    for val, width in fields:
        v, n = v << width | val, n + width
    assert n == 80
    q = v.to_bytes(10, "big")
    return q + q_crc(q).to_bytes(2, "big")


def mcnq(control, mcn, lba):
    """Mode 2 Q (ECMA-130 22.3.3): 13 BCD digits, 12 zero bits, AFRAME."""
    return _packq([(control, 4), (2, 4)] + [(int(c), 4) for c in mcn] +
                  [(0, 12), (bcd((lba + 150) % 75), 8)])


def isrcq(control, isrc, lba):
    """Mode 3 Q (IEC 60908): 5 characters in the 6-bit code ('0'-'9' 0-9,
    'A'-'Z' 17-42), 2 zero bits, 7 BCD digits, 4 zero bits, AFRAME."""
    def six(c):
        return int(c) if c.isdigit() else ord(c) - ord("A") + 17
    return _packq([(control, 4), (3, 4)] + [(six(c), 6) for c in isrc[:5]] +
                  [(0, 2)] + [(int(c), 4) for c in isrc[5:]] +
                  [(0, 4), (bcd((lba + 150) % 75), 8)])


def pw(q, p):
    bits = []
    for byte in q:
        bits += [(byte >> (7 - i)) & 1 for i in range(8)]
    return bytes((0x80 if p else 0) | (b << 6) for b in bits)


def vectors(count, seed):
    rnd = random.Random(seed)
    kinds = ["mode1", "form1", "form2", "form2z"]
    for n in range(count):
        kind = kinds[n % 4]
        lba = rnd.choice([0, 16, 150, 4499, 44999, 333000]) + rnd.randrange(75)
        if n % 9 == 8:
            lba = -150 + rnd.randrange(150)  # a pregap before LBA 0
        sub = bytes([rnd.randrange(256), rnd.randrange(32), 0x08, 0])
        if kind.startswith("form2"):
            sub = bytes([sub[0], sub[1], 0x20 | 0x04, 0x01])
            data = bytes(rnd.randrange(256) for _ in range(2324))
            s = mode2(lba, sub, data, kind == "form2")
        else:
            data = bytes(rnd.randrange(256) for _ in range(2048))
            if n % 7 == 3:
                data = bytes(2048)  # all zeros: the parity is all zeros too
            s = mode1(lba, data) if kind == "mode1" else mode2(lba, sub, data)
        assert kind == "form2z" or kind == "form2" or ecc_ok(s if kind == "mode1"
                                                             else bytes(16) + s[16:])
        print("sector", kind, lba, sub.hex(), data.hex(), s.hex())
    for n in range(count):
        track = rnd.choice([1, 2, 9, 10, 42, 99, 0xAA])
        index = rnd.choice([0, 1, 2])
        rel = rnd.randrange(450000)
        lba = rnd.randrange(-150, 449850)
        control = rnd.choice([0, 4, 6, 1])
        q = subq(control, track, index, rel, lba)
        print("q", control, track, index, rel, lba, q.hex(), pw(q, index == 0).hex())


# ---- CUE/BIN discs --------------------------------------------------------
# A track: (mode, session, stored pregap, PREGAP frames, sectors), each
# sector the bytes the .bin holds.  LBAs as a drive gives them out: track
# 1's INDEX 01 is LBA 0; a later track of a session follows the last, its
# pregap first; a later session's first track starts 11400 blocks after
# the first session's end (6900 after a later one), its pregap inside.


def data_sector(rnd, lba):
    return mode1(lba, bytes(rnd.randrange(256) for _ in range(2048)))


def audio_sector(rnd):
    return bytes(rnd.randrange(256) for _ in range(2352))


def place(tracks):
    out = []
    cursor = 0
    prev_session = None
    for n, (mode, session, stored, unstored, sectors) in enumerate(tracks, 1):
        pregap = stored + unstored
        if n == 1:
            index1 = 0
        elif session != prev_session:
            index1 = cursor + (11400 if prev_session == 1 else 6900)
            # a later session's first track has 2 s of pregap at the end of
            # the gap, the sheet's own and made blocks (issue 33)
            pregap = 150
        else:
            index1 = cursor + pregap
        blocks = len(sectors) - stored
        out.append({"number": n, "session": session,
                    "mode": "audio" if mode == "AUDIO" else "data",
                    "cue_mode": mode, "start": index1, "blocks": blocks,
                    "pregap": pregap if n > 1 else 0, "stored_pregap": stored})
        cursor = index1 + blocks
        prev_session = session
    return out, cursor


def disc_tracks(kind, rnd):
    """Tracks of a disc kind; sectors made once their LBAs are known."""
    if kind == "mixed":  # a game CD: data, then audio with a 2 s pregap
        spec = [("MODE1/2352", 1, 0, 0, 120), ("AUDIO", 1, 150, 0, 450),
                ("AUDIO", 1, 0, 150, 225)]
    elif kind == "cdextra":  # audio session, then a data session
        spec = [("AUDIO", 1, 0, 0, 300), ("AUDIO", 1, 0, 0, 150),
                ("MODE1/2352", 2, 150, 0, 250)]
    elif kind == "vcd":  # Mode 2: Form 1 track, then Form 2 video with Form 1 among it
        spec = [("MODE2/2352", 1, 0, 0, 100), ("MODE2/2352", 1, 150, 0, 450)]
    elif kind == "audio":
        spec = [("AUDIO", 1, 0, 0, 300), ("AUDIO", 1, 150, 0, 450)]
    elif kind == "iso":
        spec = [("MODE1/2048", 1, 0, 0, 300)]
    elif kind == "multi":
        spec = [("MODE1/2048", 1, 0, 0, 100), ("MODE1/2048", 2, 0, 0, 100),
                ("MODE1/2048", 3, 0, 0, 100)]
    elif kind == "bad":
        spec = [("MODE1/2352", 1, 0, 0, 60)]
    else:
        raise SystemExit("unknown disc kind " + kind)
    return [(m, s, st, un, n) for (m, s, st, un, n) in spec]


def vcd_sector(rnd, lba, n, track):
    if track == 1 or n % 10 == 5:
        sub = bytes([1, 0, 0x08, 0])
        return mode2(lba, sub, bytes(rnd.randrange(256) for _ in range(2048)))
    sub = bytes([1, 1, 0x20 | 0x04, 0x0f])
    data = bytes(rnd.randrange(256) for _ in range(2324))
    return mode2(lba, sub, data, form2_edc=n % 3 != 0)


def disc(kind, folder):
    rnd = random.Random(kind)
    spec = disc_tracks(kind, rnd)
    layout, end = place([(m, s, st, un, [None] * n) for (m, s, st, un, n) in spec])
    cue = []
    session = 0
    for t, (mode, sess, stored, unstored, count) in zip(layout, spec):
        first_lba = t["start"] - stored
        sectors = []
        for i in range(count):
            lba = first_lba + i
            if mode == "AUDIO":
                sectors.append(audio_sector(rnd))
            elif mode == "MODE1/2048":
                sectors.append(bytes(rnd.randrange(256) for _ in range(2048)))
            elif mode == "MODE1/2352":
                sectors.append(data_sector(rnd, lba))
            else:
                sectors.append(vcd_sector(rnd, lba, i - stored, t["number"]))
        if kind == "bad":
            s = bytearray(sectors[40])
            s[500] ^= 0x10
            sectors[40] = bytes(s)
            t["bad_edc"] = [t["start"] + 40]
        if kind == "vcd" and t["number"] == 2:
            t["form2"] = [t["start"] + i for i in range(count - stored) if i % 10 != 5]
        ext = "iso" if mode == "MODE1/2048" else "bin"
        name = "%s (Track %d).%s" % (kind, t["number"], ext)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(b"".join(sectors))
        if sess != session:
            if sess > 1 or any(x[1] > 1 for x in spec):
                cue.append("REM SESSION %02d" % sess)
            session = sess
        cue.append('FILE "%s" BINARY' % name)
        cue.append("  TRACK %02d %s" % (t["number"], mode))
        if unstored:
            cue.append("    PREGAP %s" % cue_time(unstored))
        if stored:
            cue.append("    INDEX 00 00:00:00")
        cue.append("    INDEX 01 %s" % cue_time(stored))
        t["sector_mode"] = ("audio" if mode == "AUDIO" else "mode1" if mode.startswith("MODE1")
                            else "mode2-form1" if t["number"] == 1 else "mode2-form2")
    with open(os.path.join(folder, kind + ".cue"), "w") as f:
        f.write("\n".join(cue) + "\n")
    gaps = []
    for a, b in zip(layout, layout[1:]):
        if a["session"] != b["session"]:
            gap_end = b["start"] - b["pregap"]
            gaps.append({"start": a["start"] + a["blocks"],
                         "blocks": gap_end - a["start"] - a["blocks"]})
    with open(os.path.join(folder, kind + ".layout"), "w") as f:
        for t in layout:
            f.write("track %d %d %s %d %d %d %d\n" % (
                t["number"], t["session"], t["cue_mode"], t["start"], t["blocks"],
                t["pregap"], t["stored_pregap"]))
        f.write("end %d\n" % end)
    with open(os.path.join(folder, kind + ".json"), "w") as f:
        json.dump({"blocks": end, "sessions": layout[-1]["session"],
                   "tracks": layout, "gaps": gaps}, f, indent=1)
    edges(kind, folder, spec[0][0], spec[-1][0], end)


def edges(kind, folder, first_mode, last_mode, end):
    """KIND.edges: what READ CD with formatted Q reads around the disc:
    track 1's pregap, LBA -150..-1 (00:00:00-00:01:74, index 00, its
    relative time counting down to index 01), in track 1's mode with zero
    user data; then the lead-out's first 2 blocks (track AA), Mode 0
    sectors after a data track, silence after audio.  2352 + 16 bytes a
    block."""
    out = []
    for lba in range(-150, 0):
        if first_mode == "AUDIO":
            main, control = bytes(2352), 0
        elif first_mode.startswith("MODE1"):
            main, control = mode1(lba, bytes(2048)), 4
        else:
            main, control = mode2(lba, bytes(4), bytes(2048)), 4
        out.append(main + subq(control, 1, 0, -lba, lba) + bytes(4))
    for lba in (end, end + 1):
        if last_mode == "AUDIO":
            main, control = bytes(2352), 0
        else:
            main, control = header(lba, 0) + bytes(2336), 4
        out.append(main + subq(control, 0xAA, 1, lba - end, lba) + bytes(4))
    with open(os.path.join(folder, kind + ".edges"), "wb") as f:
        f.write(b"".join(out))


def cue_time(frames):
    return "%02d:%02d:%02d" % (frames // 4500, frames // 75 % 60, frames % 75)


def kind_of(s):
    if s[:12] != SYNC:
        return "none"
    if s[15] == 1:
        return "mode1"
    if s[15] == 2 and s[16:20] == s[20:24]:
        return "form2" if s[18] & 0x20 else "form1"
    return "mode2" if s[15] == 2 else "mode%d" % s[15]


def check(s):
    k = kind_of(s)
    if k == "mode1":
        return edc(s[:2064]) == int.from_bytes(s[2064:2068], "little") and ecc_ok(s)
    if k == "form1":
        return (edc(s[16:2072]) == int.from_bytes(s[2072:2076], "little")
                and ecc_ok(bytes(16) + s[16:]))
    if k == "form2":
        e = int.from_bytes(s[2348:2352], "little")
        return e == 0 or e == edc(s[16:2348])
    return True


def main(argv):
    if len(argv) == 4 and argv[1] == "vectors":
        vectors(int(argv[2]), int(argv[3]))
    elif len(argv) == 3 and argv[1] == "check":
        data = open(argv[2], "rb").read()
        for i in range(len(data) // 2352):
            s = data[2352 * i:2352 * (i + 1)]
            lba = -1
            if s[:12] == SYNC:
                m, sec, f = (((b >> 4) * 10 + (b & 15)) for b in s[12:15])
                lba = (m * 60 + sec) * 75 + f - 150
            print(i, lba, kind_of(s), "ok" if check(s) else "bad")
    elif len(argv) == 5 and argv[1] == "mode1":
        data = open(argv[2], "rb").read()
        start = int(argv[4])
        with open(argv[3], "wb") as out:
            for i in range(len(data) // 2048):
                out.write(mode1(start + i, data[2048 * i:2048 * (i + 1)]))
    elif len(argv) == 4 and argv[1] == "disc":
        disc(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
