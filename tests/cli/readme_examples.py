#!/usr/bin/env python3
"""Run every shell session README.md shows and compare what it prints
(test_man.sh feeds it the man pages' EXAMPLES in the same form).

A session is an indented code block (4 spaces) whose lines start with "$ "
(a command; "> " or ">" and a tab continues it) followed by the output the README shows.
The commands of a file run in order, in one sh, in WORKDIR (where ./cdtail
is the binary under test and fixtures/ the fixtures), so a later command
sees the files and the $? of an earlier one.  A shown line "..." stands
for any number of lines.  Prints one "ok"/"not ok" line per command.
"""
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


def matches(want, got):
    """want may hold "..." lines that stand for any lines."""
    pat = "".join("(?:.*\n)*?" if w == "..." else re.escape(w) + "\n" for w in want)
    return re.fullmatch(pat, "".join(g + "\n" for g in got)) is not None


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
