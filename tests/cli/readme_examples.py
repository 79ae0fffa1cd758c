#!/usr/bin/env python3
"""Run every shell session README.md shows and compare what it prints
(test_man.sh feeds it the man pages' EXAMPLES in the same form).

A session is an indented code block (4 spaces) whose lines start with "$ "
(a command; "> " or ">" and a tab continues it) followed by the output the README shows.
The commands of a file run in order, in one sh, in WORKDIR (where ./cdtail
is the binary under test and fixtures/ the fixtures), so a later command
sees the files and the $? of an earlier one.  A shown line "..." stands
for any number of lines.  Prints one "ok"/"not ok" line per command.

Read counts and times are compared as numbers only (issue 31): how many
reads a search or a run makes and the drive time they cost depend on the
order the search tries and on the drive's largest transfer, which the
outside contract does not fix.  Every other value, the failed reads
included, must be as shown: true_blocks, hidden_blocks, failed_reads,
verdict, notes, exit statuses, extents, digests.
"""
import json
import os
import re
import subprocess
import sys


def sessions(text):
    """[(line number, command, [expected lines])] in README order."""
    out, cur, block = [], None, False
    for n, line in enumerate(text.splitlines(), 1):
        if not line.startswith("    "):
            cur = None
            continue
        body = line[4:]
        if body.startswith("$ "):
            cur = (n, [body[2:]], [])
            out.append(cur)
        elif body[:2] in ("> ", ">\t") and cur and not cur[2]:
            cur[1].append(body[2:] if body[1] == " " else body[1:])
        elif cur:
            cur[2].append(body)
    return [(n, "\n".join(c), e) for n, c, e in out]


# JSON keys whose values count reads or commands or measure time: the
# contract names them but fixes no value (failed_reads is not among them)
FREE_KEYS = ("reads", "search_reads", "commands", "virtual_ms", "search_ms",
             "device_ms", "elapsed_ms")
FREE_JSON = re.compile(r'"(%s)":(\s*)\d+(?:\.\d+)?(?=\s*(?:[,}\]]|$))' % "|".join(FREE_KEYS))
# cli_duration's forms: 431 ms, 8.0 s (8003 ms), 1 min (67542 ms), 1.2 h (...)
DURATION = r"(?:\d+ ms|\d+\.\d s \(\d+ ms\)|\d+ min \(\d+ ms\)|\d+\.\d h \(\d+ ms\))"
SEARCH = re.compile(r"^(search: +)(\d+) reads, (\d+) failed, %s of drive time" % DURATION)
ELAPSED = re.compile(r"^(elapsed: +)%s(?:(; drive time \(virtual\) )%s)?$" % (DURATION, DURATION))


def search_line(m):
    # a search that failed more reads than it made is wrong whatever it shows
    if int(m.group(2)) < int(m.group(3)):
        return m.group(0)
    return "%sN reads, %s failed, T of drive time" % (m.group(1), m.group(3))


def fewer_reads_than_failed(line):
    """A JSON line whose reads (search_reads) are fewer than its
    failed_reads (search_failed_reads), at any depth: wrong whatever the
    README shows, so its counts are not freed."""
    try:
        obj = json.loads(line)
    except ValueError:
        return False
    todo = [obj]
    while todo:
        o = todo.pop()
        if isinstance(o, list):
            todo.extend(o)
        elif isinstance(o, dict):
            todo.extend(o.values())
            for n, f in (("reads", "failed_reads"), ("search_reads", "search_failed_reads")):
                if isinstance(o.get(n), int) and isinstance(o.get(f), int) and o[n] < o[f]:
                    return True
    return False


def free(line):
    """line with its read counts and times replaced by N and T."""
    if fewer_reads_than_failed(line):
        return line
    line = FREE_JSON.sub(lambda m: '"%s":%sN' % (m.group(1), m.group(2)), line)
    line = SEARCH.sub(search_line, line)
    return ELAPSED.sub(lambda m: m.group(1) + "T" + (m.group(2) + "T" if m.group(2) else ""), line)


def matches(want, got):
    """want may hold "..." lines that stand for any lines; read counts and
    times compare as numbers only (free)."""
    pat = "".join("(?:.*\n)*?" if w == "..." else re.escape(free(w)) + "\n" for w in want)
    return re.fullmatch(pat, "".join(free(g) + "\n" for g in got)) is not None


def main():
    readme, workdir = sys.argv[1], sys.argv[2]
    with open(readme) as f:
        cmds = sessions(f.read())
    script = ["__rc=0"]
    for i, (_, cmd, _) in enumerate(cmds):
        script.append("printf '\\n@@cdtail-readme %d@@\\n'; (exit $__rc); %s\n__rc=$?" % (i, cmd))
    run = subprocess.run(["sh", "-c", "\n".join(script)], cwd=workdir, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=600)
    parts = re.split(r"\n?@@cdtail-readme (\d+)@@\n", run.stdout)
    got = {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}
    fails = 0
    for i, (n, cmd, want) in enumerate(cmds):
        lines = got.get(i, "").splitlines()
        name = "%s:%d: %s" % (os.path.basename(readme), n, cmd.splitlines()[0])
        if i in got and matches(want, lines):
            print("ok - " + name)
            continue
        fails += 1
        print("not ok - " + name)
        print("    shown:\n" + "".join("      %s\n" % w for w in want), end="")
        print("    printed:\n" + "".join("      %s\n" % g for g in lines), end="")
    print("# %d commands from %s" % (len(cmds), os.path.basename(readme)))
    return 1 if fails or not cmds else 0


if __name__ == "__main__":
    sys.exit(main())
