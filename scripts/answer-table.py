#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Print cdtail-errors(7)'s table from src/lib/mmc/answer.c.

The table of answers lives once, in answer.c; the manual carries a copy
between the lines '.\\" BEGIN answer table' and '.\\" END answer table'.
    scripts/answer-table.py                 print the roff text
    scripts/answer-table.py --check MANPAGE exit 1 when MANPAGE's copy differs
    scripts/answer-table.py --write MANPAGE replace MANPAGE's copy
"""
import re
import sys

SRC = "src/lib/mmc/answer.c"
BEGIN = '.\\" BEGIN answer table (scripts/answer-table.py --write)\n'
END = '.\\" END answer table\n'

ACTIONS = {
    "CDT_ACT_OK": "the data arrived",
    "CDT_ACT_SHORT": "only the whole blocks that arrived count; the rest is read again",
    "CDT_ACT_BAD_BLOCK": "the block is bad: marked, the run goes on",
    "CDT_ACT_WRONG_MODE": "not a data block: the disc's structure says what it is",
    "CDT_ACT_END": "past the end of the disc",
    "CDT_ACT_TIMEOUT": "the block is bad (marked timed out); many in a row stop the run",
    "CDT_ACT_RETRY": "asked again",
    "CDT_ACT_RESEND": "sent again: the error was an earlier command's",
    "CDT_ACT_BECOMING_READY": "waited for, a poll every 2 s",
    "CDT_ACT_TOO_LONG": "read again in smaller transfers",
    "CDT_ACT_NO_MEDIUM": "the medium is gone: the run stops, the map saved",
    "CDT_ACT_CHANGED": "the medium changed: the run stops, the map saved",
    "CDT_ACT_DEVICE_GONE": "the device is gone: the run stops, the map saved",
    "CDT_ACT_REFUSED": "the drive refuses the command: the run stops",
    "CDT_ACT_INTERRUPTED": "the run stops; the command is never sent again",
    "CDT_ACT_PROTECTED": "copy protection (CSS): the block is there, listed as skipped \"protected\", not bad; cdtail does not authenticate",
}

GROUPS = {
    "CDT_ROW_OTHER": "No answer, or an answer without sense",
    "CDT_ROW_SENSE": "Sense key/ASC/ASCQ (xx: any)",
    "CDT_ROW_STATUS": "SCSI status",
    "CDT_ROW_HOST": "Linux host byte",
    "CDT_ROW_DRIVER": "Linux driver byte",
    "CDT_ROW_ERRNO": "errno of the SG_IO ioctl",
}


def split_args(text):
    """Split a macro's arguments at top-level commas; strings kept whole."""
    args, cur, depth, i = [], "", 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            cur += text[i:j + 1]
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if c == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        args.append(cur.strip())
    return args


def c_string(tokens):
    """Adjacent C string literals into one Python string."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', tokens)
    return "".join(p.replace('\\"', '"') for p in parts)


def rows():
    src = open(SRC).read()
    body = src[src.index("rows[] = {"):]
    body = body[:body.index("\n};")]
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    out = []
    for m in re.finditer(r"\b(SENSE_R|SENSE|ROW)\(", body):
        depth, i = 1, m.end()
        while depth:
            if body[i] == '"':
                i += 1
                while body[i] != '"':
                    i += 2 if body[i] == "\\" else 1
            elif body[i] == "(":
                depth += 1
            elif body[i] == ")":
                depth -= 1
            i += 1
        a = split_args(body[m.end():i - 1])
        if m.group(1) == "SENSE":
            k, x, y, act, what, src_ = a
            out.append(("CDT_ROW_SENSE", (k, x, y), act, "0", act, what, src_))
        elif m.group(1) == "SENSE_R":
            k, x, y, act, n, then, what, src_ = a
            out.append(("CDT_ROW_SENSE", (k, x, y), act, n, then, what, src_))
        else:
            kind, x, y, act, n, then, what, src_ = a
            out.append((kind, (x, y), act, n, then, what, src_))
    return out


def hexpart(v):
    return "xx" if v == "ANY" else "%02X" % int(v, 16)


def label(kind, match, what):
    if kind == "CDT_ROW_SENSE":
        k, x, y = match
        if k == "ANY":
            return "any other key"
        return "%s/%s/%s" % (hexpart(k).lstrip("0").rjust(2, "0"),
                             hexpart(x), hexpart(y))
    if kind in ("CDT_ROW_STATUS", "CDT_ROW_HOST", "CDT_ROW_DRIVER"):
        return "any other" if match[0] == "ANY" else "%s" % match[0]
    return None


def roff(text):
    return text.replace("\\", "\\e").replace("-", "\\-").replace("'", "\\(aq")


def table():
    lines = [BEGIN]
    group = None
    for kind, match, act, n, then, what, src_ in rows():
        if kind != group:
            group = kind
            lines.append(".PP\n.I %s\n" % roff(GROUPS[kind]))
        lab = label(kind, match, c_string(what))
        head = c_string(what)
        if lab and kind == "CDT_ROW_SENSE":
            head = "%s %s" % (lab, head)
        elif lab and lab != "any other":
            head = "%s %s" % (lab, head)
        if act not in ACTIONS or then not in ACTIONS:
            sys.exit("answer-table: unknown action %s or %s" % (act, then))
        does = ACTIONS[act]
        if n != "0":
            count = {"SR_RETRIES": 3, "UA_RETRIES": 5, "READY_POLLS": 10}.get(n, n)
            does += " (up to %s times), then: %s" % (count, ACTIONS[then])
        lines.append(".TP\n.B \"%s\"\n%s.\nSource: %s.\n"
                     % (roff(head), roff(does[0].upper() + does[1:]),
                        roff(c_string(src_))))
    lines.append(END)
    return "".join(lines)


def main():
    text = table()
    if len(sys.argv) == 1:
        sys.stdout.write(text)
        return 0
    mode, path = sys.argv[1], sys.argv[2]
    page = open(path).read()
    if BEGIN not in page or END not in page:
        sys.exit("answer-table: %s has no answer table markers" % path)
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + text + tail
    if mode == "--write":
        open(path, "w").write(new)
        return 0
    if new != page:
        print("answer-table: %s's answer table is not %s's: run "
              "scripts/answer-table.py --write %s" % (path, SRC, path))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
