# SPDX-License-Identifier: MIT
"""What the random models (image_model.py, verify_model.py) share: their
command line, the pool of workers that share the cases out, and a
worker's loop over its cases.  The models themselves stay apart: each
knows only its command's contract."""
import concurrent.futures
import os
import shlex
import sys

WORKERS = 2
MAX_FAILS = 10  # a worker stops at this many failing cases


def parse_args(doc, defaults):
    """CDTAIL WORKDIR [--KEY N]... from sys.argv: (cdtail, work, options),
    options being defaults (keys spelt with _ for the options' -) with the
    whole numbers given; an option not in defaults is passed over."""
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(doc)
    opts = dict(defaults)
    rest = args[2:]
    while rest:
        k, v = rest[0], int(rest[1])
        rest = rest[2:]
        key = k[2:].replace("-", "_")
        if k.startswith("--") and key in opts:
            opts[key] = v
    return args[0], args[1], opts


def run_pool(cases, seed, work, cdtail, run_cases):
    """Deals the cases out to WORKERS processes, each running
    run_cases((its cases, seed, its folder, cdtail, TEST_WRAPPER's words)),
    which returns the failures' reasons; prints them, or "ok N cases", and
    exits 1 when any case failed."""
    wrapper = shlex.split(os.environ.get("TEST_WRAPPER", ""))
    jobs = [(cases[w::WORKERS], seed, os.path.join(work, "w%d" % w), cdtail, wrapper)
            for w in range(WORKERS)]
    with concurrent.futures.ProcessPoolExecutor(WORKERS) as ex:
        fails = [f for got in ex.map(run_cases, jobs) for f in got]
    for why in fails:
        print("FAIL seed %d %s" % (seed, why))
    if not fails:
        print("ok %d cases (seed %d)" % (len(cases), seed))
    sys.exit(1 if fails else 0)


def first_fails(cases, check):
    """check(case) for each case in order: the reasons it gave (None is a
    pass), stopping at the MAX_FAILS-th."""
    fails = []
    for case in cases:
        why = check(case)
        if why:
            fails.append(why)
            if len(fails) >= MAX_FAILS:
                break
    return fails
