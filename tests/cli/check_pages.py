#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One truth for every command's options and exit statuses (issue 35).

    check_pages.py CDTAIL MANDIR COMMAND...

For each COMMAND, `CDTAIL COMMAND --help` (printed from the command's
option table, src/cli/cmd_*.c, the one getopt_long parses) is compared
with the OPTIONS and EXIT STATUS sections of MANDIR/cdtail-COMMAND.1:

  - every option of --help has an entry in the page, and every entry of
    the page is an option of --help (one the command refuses fails);
  - the short letter and the value's name are the same in both;
  - where either gives a default ("default 30", "default: plan"), the
    other gives the same first word;
  - the numbers of --help's "Exit:" lines are the page's EXIT STATUS
    entries, no more, no fewer;
  - each option of cdtail(1)'s OPTIONS names the commands that take it,
    which are those whose --help lists it.

The code's side of the exit statuses is checked at run time: with
CDTAIL_CHECK_EXITS set (tests/cli/lib.sh sets it for every CLI test) a
command that ends with a status its --help does not list fails loudly
(src/cli/main.c).  Prints TAP-like "ok - " / "not ok - " lines; exits 1
when a check failed.
"""
import re
import subprocess
import sys

FAILED = 0


def report(good, name, detail=""):
    global FAILED
    if good:
        print(f"ok - {name}")
    else:
        FAILED += 1
        print(f"not ok - {name}")
        for line in detail.splitlines():
            print(f"    {line}")


def default_word(text):
    """An option's default as its text says it: "WORD (the default" or
    "WORD (default)", else the first word of "(default WORD" or "(default:
    WORD"; None when the text names none."""
    m = re.search(r"(\S+)\s+\((?:the default\b|default[;)])", text)
    if m:
        return m.group(1).strip(",;:")
    m = re.search(r"\(default:?\s+([^\s,;)]+)", text)
    return m.group(1).rstrip(".:") if m else None


def help_options(text):
    """{long: (short, arg, text)} from --help's option lines."""
    opts = {}
    last = None
    for line in text.splitlines():
        m = re.match(r"^  (?:-(\w), | {4})--([a-z0-9-]+)(?: (\S+))?(?:\s+(.*))?$", line)
        if m:
            last = m.group(2)
            opts[last] = [m.group(1), m.group(3), m.group(4) or ""]
        elif last and re.match(r"^ {29}\S", line):
            opts[last][2] += " " + line.strip()
        else:
            last = None
    return opts


def help_exits(text):
    """The numbers of the Exit: paragraph (the last one of --help)."""
    m = re.search(r"^Exit:(.*)\Z", text, re.S | re.M)
    return set(int(n) for n in re.findall(r"\b(\d+)\b", m.group(1))) if m else set()


def roff_plain(line):
    """A roff source line as words: macros, quotes and escapes undone
    (the alternating fonts' arguments joined as roff joins them)."""
    m = re.match(r"^\.(BI|BR|IR|RB|RI|IB)\s+(.*)$", line)
    if m:
        line = "".join(a.strip('"') for a in re.findall(r'"[^"]*"|\S+', m.group(2)))
    line = re.sub(r"^\.(B|I)\s+", "", line)
    line = line.replace("\\-", "-").replace('"', "").replace("\\(aq", "'")
    line = re.sub(r"\\f[BIRP]", "", line)
    line = re.sub(r"\\[&|^]", "", line)
    return line


def section(page, name):
    out, inside = [], False
    for line in page.splitlines():
        if line.startswith(".SH "):
            inside = line[4:].strip().strip('"') == name
            continue
        if inside:
            out.append(line)
    return out


def man_options(page):
    """{long: (short, arg, text)} from the .TP/.TQ entries of OPTIONS."""
    opts = {}
    lines = section(page, "OPTIONS")
    current = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith((".TP", ".TQ")) and i + 1 < len(lines) and \
                re.match(r"^\.B[IR]? +\\-", lines[i + 1]):
            if line.startswith(".TP"):
                current = []
            words = roff_plain(lines[i + 1]).replace(",", " ").split()
            short = long = arg = None
            for w in words:
                if w.startswith("--"):
                    long = w[2:].split("=")[0]
                elif re.match(r"^-\w$", w):
                    short = w[1]
                elif long and arg is None and re.match(r"^[A-Z][A-Z0-9.\[\]]*$", w):
                    arg = w
            if long:
                opts[long] = [short, arg, ""]
                current.append(long)
            elif short:
                # a short letter's own entry (-vv): part of its long option
                pass
            i += 2
            continue
        if line.startswith((".TP", ".PP", ".SS", ".RS", ".IP")):
            current = []
        elif current and not line.startswith(".\\\""):
            for name in current:
                opts[name][2] += " " + roff_plain(line)
        i += 1
    return opts


def man_exits(page):
    found = set()
    lines = section(page, "EXIT STATUS")
    for i, line in enumerate(lines):
        if line.startswith(".TP") and i + 1 < len(lines):
            found.update(int(n) for n in re.findall(r"\b(\d+)\b", roff_plain(lines[i + 1])))
    return found


def check(cdtail, mandir, cmd):
    res = subprocess.run([cdtail, cmd, "--help"], capture_output=True, text=True)
    page_name = f"cdtail-{cmd}(1)"
    if res.returncode != 0:
        report(False, f"{cmd} --help exits 0", res.stderr)
        return
    try:
        with open(f"{mandir}/cdtail-{cmd}.1", encoding="utf-8") as f:
            page = f.read()
    except OSError as e:
        report(False, f"{page_name} exists", str(e))
        return
    hopts, mopts = help_options(res.stdout), man_options(page)
    hopts.pop("help", None)
    mopts.pop("help", None)
    report(len(hopts) >= 3, f"{cmd} --help: its options read ({len(hopts)})", res.stdout)
    only_help = sorted(set(hopts) - set(mopts))
    only_man = sorted(set(mopts) - set(hopts))
    report(not only_help, f"{page_name}: an entry for every option of {cmd} --help",
           "missing from the page: " + " ".join("--" + o for o in only_help))
    report(not only_man, f"{page_name}: no entry for an option {cmd} refuses",
           "not in --help (the command refuses them): " + " ".join("--" + o for o in only_man))
    bad = []
    for name in sorted(set(hopts) & set(mopts)):
        hs, ha, ht = hopts[name]
        ms, ma, mt = mopts[name]
        if hs != ms:
            bad.append(f"--{name}: short -{hs} in --help, -{ms} in the page")
        if ha != ma:
            bad.append(f"--{name}: value {ha} in --help, {ma} in the page")
        hd, md = default_word(ht), default_word(mt)
        if hd != md:
            bad.append(f"--{name}: default {hd!r} in --help, {md!r} in the page")
    report(not bad, f"{cmd}: --help and {page_name} agree on letters, values and defaults",
           "\n".join(bad))
    he, me = help_exits(res.stdout), man_exits(page)
    report(len(he) >= 2 and he == me,
           f"{cmd}: the exit statuses of --help are those of {page_name}",
           f"--help: {sorted(he)}\npage:   {sorted(me)}")


def check_overview(cdtail, mandir, cmds):
    """cdtail(1)'s OPTIONS name, at the start of each entry, the commands
    that take it ("(image, tail, verify)", "(every command)"): they are
    exactly the commands whose --help lists it."""
    try:
        with open(f"{mandir}/cdtail.1", encoding="utf-8") as f:
            page = f.read()
    except OSError:
        return
    taking = {}
    for cmd in cmds:
        res = subprocess.run([cdtail, cmd, "--help"], capture_output=True, text=True)
        for name in help_options(res.stdout):
            taking.setdefault(name, set()).add(cmd)
    entries = man_options(page)
    report(len(entries) >= 5, f"cdtail(1): its common options read ({len(entries)})")
    for name, (_, _, text) in sorted(entries.items()):
        m = re.match(r"\s*\(([a-z, ]+)\)", text)
        said = set(cmds) if m and m.group(1) == "every command" else \
            set(w.strip() for w in m.group(1).split(",")) if m else None
        have = taking.get(name, set())
        report(said == have, f"cdtail(1): --{name} says which commands take it",
               f"the page: {sorted(said) if said is not None else 'no (command, ...) list'}\n"
               f"--help:   {sorted(have)}")


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for cmd in sys.argv[3:]:
        check(sys.argv[1], sys.argv[2], cmd)
    check_overview(sys.argv[1], sys.argv[2], sys.argv[3:])
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
