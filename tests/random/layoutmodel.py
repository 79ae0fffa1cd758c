#!/usr/bin/env python3
"""What `cdtail probe --json` must say of a disc on the emulated drive.

An independent model: it knows only the contract (cdtail(1): the sim keys
layout=, gap=, tao=, open=, profile=, formatted=, hide=, extra=, runout=;
the probe's exit statuses and JSON keys) and cdtail(1)'s notes, never
cdtail's code.

  layoutmodel.py gen SEED COUNT      one scenario a line (see gen())
  layoutmodel.py setup IMG SCENARIO  writes IMG (sparse: zeros, and the
                                     ISO descriptors), prints the sim keys
  layoutmodel.py check < RESULTS     RESULTS: each scenario line, a tab,
                                     probe's exit status, a tab, its JSON,
                                     a tab, its reads as LBA:BLOCKS ...;
                                     prints "ok ..." or "WRONG ..." a case

A scenario line is space-separated key=value: layout (a track may carry
a pregap, "audio:750~150"), gap, tao, open, profile (or -), formatted,
hide, extra, runout, fs (the ISO 9660 volume size written in the last data
session's first track, 0 for none), toc (reported, or none: the drive
refuses READ TOC, and the structure is the same from disc and track
information; cdtail(1)), trackinfo (index1 or pregap: where READ TRACK
INFORMATION starts a track), others (1: every earlier data session holds
an ISO 9660 volume too, declaring its own end) and hbad (a bad block among
the first 32 of some data session's first data track, its descriptors
among them; -1 for none).  The filesystem source is the last data
session's volume, read past a bad block around it, or none when its
descriptor itself is bad or it has none: never another session's
(issue 28, E).
"""
import json
import random
import sys

GAP_FIRST = 11400   # lead-out 6750 + lead-in 4500 + pregap 150
GAP_LATER = 6900    # lead-out 2250 + lead-in 4500 + pregap 150
CD = ("cd-rom", "cd-r", "cd-rw")
RECORDABLE = ("cd-r", "cd-rw", "dvd-r")
FORMATTABLE = ("dvd+rw", "dvd-ram", "bd-re")
ALL = CD + ("dvd-rom", "dvd-r", "dvd+rw", "dvd-ram", "bd-rom", "bd-re")


def parse_layout(spec):
    """[(number, session, mode, start, blocks, pregap)], gaps [(start,
    blocks)], N.  start is index 01 (the TOC's); the pregap's blocks lie
    before it and count in N (cdtail(1), layout= ~P)."""
    tracks, gaps, lba = [], [], 0
    for si, sess in enumerate(spec.split("/"), 1):
        if si > 1:
            g = GAP_FIRST if si == 2 else GAP_LATER
            gaps.append((lba, g))
            lba += g
        for t in sess.split("+"):
            mode, rest = t.split(":")
            blocks, _, pregap = rest.partition("~")
            pregap = int(pregap or 0)
            tracks.append((len(tracks) + 1, si, mode, lba + pregap, int(blocks), pregap))
            lba += pregap + int(blocks)
    return tracks, gaps, lba


def gen_one(r):
    nsess = r.choice((1, 1, 1, 2, 2, 3))
    profile = r.choice(("-",) * 4 + ALL)
    cd = profile == "-" or profile in CD
    sessions = []
    # pregaps from their own generator: the other draws stay the seed's
    rp = random.Random("pregap-%f" % r.random())
    for s in range(nsess):
        ts = []
        for _ in range(r.choice((1, 1, 2, 3))):
            mode = "audio" if cd and r.random() < 0.35 else "data"
            # short tracks often: a head read of 260 blocks must stay inside
            blocks = r.choice((r.randint(40, 259), r.randint(40, 3000)))
            # an audio track's pregap: 2 seconds mostly (Yellow Book);
            # 3 blocks at least, as fewer look like a TAO run-out where the
            # drive gives index 01 starts (cdtail(1))
            pregap = ""
            if mode == "audio" and rp.random() < 0.4:
                pregap = "~%d" % rp.choice((150, 150, rp.randint(3, 300)))
            ts.append("%s:%d%s" % (mode, blocks, pregap))
        sessions.append("+".join(ts))
    # at least one data track somewhere
    if "data" not in "".join(sessions):
        sessions[-1] += "+data:%d" % r.randint(40, 2000)
    # a rewritable DVD or BD is often one data track: formatted= needs it
    if profile in FORMATTABLE and r.random() < 0.6:
        sessions = ["data:%d" % r.randint(40, 3000)]
    layout = "/".join(sessions)
    tracks, gaps, n = parse_layout(layout)
    last = tracks[-1]
    k = dict(layout=layout, gap=r.choice(("05/21/00", "03/11/05", "zero", "hang")),
             tao=0, open=0, profile=profile, formatted=0, hide=0, extra=0,
             runout=0, fs=0, fs_at=0)
    one_data = len(tracks) == 1 and last[2] == "data"
    if one_data and profile in FORMATTABLE and r.random() < 0.5:
        k["formatted"] = n + r.randint(0, 5000)
    else:
        k["tao"] = int(r.random() < 0.3)
        if (profile == "-" or profile in RECORDABLE) and r.random() < 0.25:
            k["open"] = 1
        if last[2] == "data":
            x = r.random()
            if x < 0.35:
                k["hide"] = r.randint(1, min(last[4] - 1, 600))
            elif x < 0.5:
                k["extra"] = r.randint(1, 8)
            if r.random() < 0.15 and last[4] > 8:
                k["runout"] = r.randint(1, 4)
    # an ISO 9660 volume in the last data session's first data track
    data = [t for t in tracks if t[2] == "data"]
    if data and r.random() < 0.6:
        sess = data[-1][1]
        first = [t for t in data if t[1] == sess][0]
        # the descriptors where a drive's answers let probe read them:
        # the session's first data track is 40 blocks or more as the drive
        # reports it, and nothing unreadable but a 2-block run-out ends a
        # track 1 that the head read covers (cdtail(1): the head read stays
        # inside track 1's data)
        shown = first[4] - (k["hide"] if first is last else 0)
        reach = not (first[3] == 0 and first is last and
                     first[4] < 300 and k["runout"] > 2)
        if shown >= 40 and reach:
            end = truth(k, tracks, n)
            k["fs"] = r.choice((end, max(first[3] + 34, end - r.randint(1, 30))))
            k["fs_at"] = first[3]
    return k


def gen(seed, count):
    r = random.Random(seed)
    for i in range(count):
        k = gen_one(r)
        # its own generator: the other draws stay those of the seed
        k["toc"] = "none" if random.Random("toc-%d-%d" % (seed, i)).random() < 0.3 \
            else "reported"
        heads(random.Random("head-%d-%d" % (seed, i)), k)
        k["trackinfo"] = random.Random("ti-%d-%d" % (seed, i)).choice(("index1", "pregap"))
        k["tail"] = random.Random("tail-%d-%d" % (seed, i)).choice(("data", "zero"))
        print(" ".join("%s=%s" % kv for kv in k.items()))


def session_heads(k):
    """The first data track of each session that has one."""
    tracks = parse_layout(k["layout"])[0]
    firsts = {}
    for t in tracks:
        if t[2] == "data" and t[1] not in firsts:
            firsts[t[1]] = t
    return [firsts[s] for s in sorted(firsts)]


def heads(r, k):
    """others and hbad: volumes in the earlier sessions, a bad block
    around some session's descriptors (not on a formatted medium, whose
    filesystem size decides what is unwritten)."""
    firsts = session_heads(k)
    k["others"] = int(len(firsts) > 1 and r.random() < 0.5)
    k["hbad"] = -1
    if k["formatted"] or r.random() >= 0.4:
        return
    t = r.choice(firsts)
    # the last track's end stays readable: its 2 run-out or hidden
    # blocks are the end search's
    room = min(32, t[4] - 4 - (k["hide"] + k["runout"] if t is
                               parse_layout(k["layout"])[0][-1] else 0))
    if room > 0:
        k["hbad"] = t[3] + (16 if room > 17 and r.random() < 0.3 else r.randrange(room))


def wrong_mode_tail(k):
    """Blocks at the end of the last (data) track that answer 05/64/00."""
    return max(k["runout"], 2 if k["tao"] else 0)


def wrong_mode_inside(k):
    """How many of the 05/64/00 blocks lie inside READ CAPACITY's count
    when they end it (0 when they do not: past the disc's blocks the next
    are out of range)."""
    short, tail = k["hide"] - k["extra"], wrong_mode_tail(k)
    return tail - short if 0 <= short < tail else 0


def runout_at_end(k):
    """The structure (the TOC, the track information: with or without READ
    TOC, open discs too) ends the last track at READ CAPACITY's count, and
    its last 1 or 2 blocks answer 05/64/00: a TAO run-out there (issue 32:
    1 or 2 blocks are a run-out, 3 or more a run-out of 2 with Form 2
    below it)."""
    return wrong_mode_inside(k) >= 1


def runout_len(k):
    """The run-out's blocks at the end of READ CAPACITY's count: 0, 1, 2."""
    return min(wrong_mode_inside(k), 2)


def form2_blocks(k, n):
    """Issue 23: 05/64/00 is an end only where a TAO run-out is; with one
    at the reported end the 05/64/00 blocks below it are Mode 2 Form 2,
    part of the disc (probe reads the 3 reported blocks at the end to know,
    cdtail-probe(1))."""
    inside = wrong_mode_inside(k)
    return inside - 2 if inside > 2 else 0


def truth(k, tracks, n):
    """1 + the last block READ(10) can read at the disc's end."""
    if k["formatted"]:
        return k["formatted"]
    if tracks[-1][2] == "audio":
        return n        # not read: where the structure puts the end
    if form2_blocks(k, n):
        return reported(k, n) - 2
    return n - wrong_mode_tail(k)


def shown_tracks(k, tracks):
    """The tracks as the drive's answers show them (cdtail(1), pregaps).
    trackinfo=pregap: READ TRACK INFORMATION starts each track at its
    pregap, so with the TOC every pregap is known, and without it no index
    01 is: a track from its pregap on.  trackinfo=index1: only the TOC's
    starts; an audio track's pregap after a data track in its session is
    the run of 05/64/00 blocks that ends the data track (a TAO run-out
    before it joins the run); any other pregap is the end of the track
    before it (or of the gap, for a session's first track).  LBA 0 up to
    track 1's index 01 is track 1's pregap."""
    out = [list(t) for t in tracks]
    for i, t in enumerate(out):
        prev = out[i - 1] if i and out[i - 1][1] == t[1] else None
        if k["trackinfo"] == "pregap" and k["toc"] == "none":
            t[3] -= t[5]
            t[4] += t[5]
            t[5] = 0
        elif k["trackinfo"] == "index1" and i and t[5]:
            if prev and prev[2] == "data" and t[2] == "audio":
                if k["tao"]:
                    prev[4] -= 2
                    t[5] += 2
            else:
                if prev:
                    prev[4] += t[5]
                t[5] = 0
    if out[0][3]:
        out[0][5] = out[0][3]
    return [tuple(t) for t in out]


def shown_gaps(tracks):
    """Between one session's last track and the next one's pregap."""
    gaps = []
    for a, b in zip(tracks, tracks[1:]):
        if a["session"] != b["session"]:
            end = a["start"] + a["blocks"]
            gaps.append({"start": end, "blocks": b["start"] - b["pregap"] - end})
    return gaps


def reported(k, n):
    return k["formatted"] if k["formatted"] else n - k["hide"] + k["extra"]


def unconfirmed(k, tracks, n, fs):
    """Issue 23 (cdtail-probe(1), unconfirmed-tail): on a CD, blocks past
    an end READ CAPACITY and the TOC or track information agree on (the
    sim's track information always gives the last track's reported end)
    that read only as zeros are no hidden tail, unless the filesystem
    declares more.  tail=zero leaves the hidden blocks zeros."""
    rep = reported(k, n)
    cd = k["profile"] == "-" or k["profile"] in CD
    return (cd and k["hide"] > 0 and k["tail"] == "zero" and
            tracks[-1][2] == "data" and truth(k, tracks, n) > rep and
            not (fs and fs > rep))


def expect(k):
    tracks, gaps, n = parse_layout(k["layout"])
    true, rep = truth(k, tracks, n), reported(k, n)
    fs = k["fs"] or None
    if fs and k.get("hbad", -1) == k["fs_at"] + 16:
        fs = None   # its descriptor is unreadable: no size, not another's
    held = unconfirmed(k, tracks, n, fs)
    if held:
        true = rep
    hidden = true - rep
    last = tracks[-1]
    # cdtail(1): tao-runout when the last 1 or 2 reported blocks do not
    # read and are a run-out (05/64/00; issue 32)
    runout_note = (last[2] == "data" and runout_at_end(k) and
                   true + runout_len(k) == rep and not k["formatted"])
    # cdtail-probe(1): a run-out the structure explains is verdict ok
    verdict = "ok" if hidden == 0 or runout_note else \
        "hidden-tail" if hidden > 0 else "short"
    status = {"ok": 0, "hidden-tail": 10, "short": 11}[verdict]
    want_tracks = []
    for t in shown_tracks(k, tracks):
        blocks = t[4]
        if t[0] == last[0]:
            # a TAO run-out of 2 blocks stays in its track as the
            # drive counts it; a lone 05/64/00 block ends the track
            if t[2] == "audio" or (runout_note and runout_len(k) == 2):
                blocks = rep - t[3]   # what the drive says
            else:
                blocks = true - t[3]
        want_tracks.append({"number": t[0], "session": t[1], "mode": t[2],
                            "start": t[3], "blocks": blocks, "pregap": t[5]})
    gaps = shown_gaps(want_tracks)
    notes = set()
    if last[2] == "audio":
        notes.add("last-track-audio")
    if k["open"]:
        notes.add("appendable")
    if runout_note:
        notes.add("tao-runout")
    if last[2] == "data" and not k["formatted"] and form2_blocks(k, n):
        notes.add("form2")
    if held:
        notes.add("unconfirmed-tail")
    prof = k["profile"]
    if prof in FORMATTABLE and fs and fs < true:
        notes.add("formatted")
    return dict(status=status, verdict=verdict, true_blocks=true,
                reported_blocks=rep, hidden_blocks=hidden,
                sessions=len({t[1] for t in tracks}), tracks=want_tracks,
                gaps=gaps,
                notes=notes, filesystem=fs)


def parse_scenario(scen):
    k = {}
    for kv in scen.split():
        a, b = kv.split("=", 1)
        k[a] = b if a in ("layout", "gap", "profile", "toc", "trackinfo", "tail") else int(b)
    k.setdefault("others", 0)
    k.setdefault("hbad", -1)
    k.setdefault("tail", "zero")
    return k


def others_size(k, t):
    """What an earlier session's volume declares: its session's end."""
    tracks = parse_layout(k["layout"])[0]
    return max(u[3] + u[4] for u in tracks if u[1] == t[1])


def iso_head(size):
    """ISO 9660's primary volume descriptor (its volume space size, both
    endian) and the terminator after it."""
    d = bytearray(2048)
    d[0:7] = b"\x01CD001\x01"
    d[80:88] = size.to_bytes(4, "little") + size.to_bytes(4, "big")
    d[128:132] = (2048).to_bytes(2, "little") + (2048).to_bytes(2, "big")
    t = bytearray(2048)
    t[0:7] = b"\xffCD001\x01"
    return d + t


def setup(img, scen):
    """The image of the scenario, and its sim keys (after sim:IMG)."""
    k = parse_scenario(scen)
    n = parse_layout(k["layout"])[2]
    with open(img, "wb") as f:
        f.truncate(n * 2048)
        if k["others"]:
            for t in session_heads(k)[:-1]:
                if t[4] >= 18:
                    f.seek((t[3] + 16) * 2048)
                    f.write(iso_head(others_size(k, t)))
        if k["fs"]:
            # ISO 9660: the primary volume descriptor 16 blocks into the
            # session, its volume space size (both-endian) the absolute end
            f.seek((k["fs_at"] + 16) * 2048)
            f.write(iso_head(k["fs"]))
        if k["tail"] == "data" and k["hide"]:
            # the hidden blocks hold data (no block all zeros, none alike)
            f.seek((n - k["hide"]) * 2048)
            f.write(random.Random(scen).randbytes(k["hide"] * 2048))
    keys = ["layout=" + k["layout"], "gap=" + k["gap"]]
    if k["hbad"] >= 0:
        keys.append("bad=%d-%d" % (k["hbad"], k["hbad"]))
    if k["profile"] != "-":
        keys.append("profile=" + k["profile"])
    for key in ("tao", "open", "formatted", "hide", "extra", "runout"):
        if k[key]:
            keys.append("%s=%d" % (key, k[key]))
    if k.get("toc", "reported") != "reported":
        keys.append("toc=" + k["toc"])
    if k.get("trackinfo", "index1") != "index1":
        keys.append("trackinfo=" + k["trackinfo"])
    print(",".join(keys))


def not_data(k, lba, n, probe=False):
    """'audio' or 'gap' when [lba, lba + n) touches such a block.  probe
    may read an audio pregap that only the wrong-mode blocks at the end
    of the data track before it tell (trackinfo=index1)."""
    tracks, gaps, _ = parse_layout(k["layout"])
    for i, t in enumerate(tracks):
        begin = t[3] - t[5]
        if probe and k.get("trackinfo") == "index1" and i and \
           tracks[i - 1][1] == t[1] and tracks[i - 1][2] == "data":
            begin = t[3]
        if t[2] == "audio" and lba < t[3] + t[4] and lba + n > begin:
            return "audio track %d" % t[0]
    for g in gaps:
        if lba < g[0] + g[1] and lba + n > g[0]:
            return "the gap at %d" % g[0]
    return None


def check(lines):
    bad = 0
    for line in lines:
        line = line.rstrip("\n")
        if not line:
            continue
        scen, status, out, reads = (line.split("\t", 3) + [""])[:4]
        e = expect(parse_scenario(scen))
        why = []
        try:
            j = json.loads(out)
        except ValueError:
            j = {}
            why.append("no JSON")
        if int(status) != e["status"]:
            why.append("exit %s, want %d" % (status, e["status"]))
        for key in ("verdict", "true_blocks", "reported_blocks", "hidden_blocks",
                    "sessions", "tracks", "gaps"):
            if j.get(key) != e[key]:
                why.append("%s %s, want %s" % (key, json.dumps(j.get(key)),
                                               json.dumps(e[key])))
        # notes the model knows: each must be there exactly when expected
        for note in ("last-track-audio", "appendable", "tao-runout", "formatted", "form2",
                     "unconfirmed-tail"):
            got = note in (j.get("notes") or [])
            if got != (note in e["notes"]):
                why.append("note %s %s" % (note, "given" if got else "missing"))
        fsz = (j.get("sources") or {}).get("filesystem")
        k = parse_scenario(scen)
        # exact where the model fixes it: a volume in the last session, or
        # volumes only in the others (never theirs)
        if (e["filesystem"] or k["others"] or k["hbad"] >= 0) and fsz != e["filesystem"]:
            why.append("filesystem %s, want %s" % (fsz, e["filesystem"]))
        # issue 12: probe never calls audio or a gap the end, and never
        # reads them with READ(10)/(12) (image and verify promise the same)
        for r in reads.split():
            lba, n = (int(x) for x in r.split(":"))
            hit = not_data(parse_scenario(scen), lba, n, probe=True)
            if hit:
                why.append("READ %d+%d touches %s" % (lba, n, hit))
                break
        if why:
            bad += 1
            print("WRONG %s: %s" % (scen, "; ".join(why)))
        else:
            print("ok %s" % scen)
    return bad


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(int(sys.argv[2]), int(sys.argv[3]))
    elif sys.argv[1] == "setup":
        setup(sys.argv[2], sys.argv[3])
    else:
        sys.exit(1 if check(sys.stdin) else 0)
