#!/usr/bin/env python3
"""Issue 23: baselines belong to a suite on a board.

Two suites on one board (QEMU netduinoplus2), each on a firmware of its own
(own vector table and linker script, no stub), each with its own baseline:
- each --write-baseline writes RESULTS/baselines/<suite>/<board>.json and
  leaves the other suite's file as it was (bytes and mtime), also when A's is
  recorded again (it says it replaced A's);
- a commit-sized change (+5 % instructions in suite A's work()) fails
  `check A` naming the bench at +5.0 %; `check B` passes against B's own;
- A's baseline given to `check B` is refused (exit 2, naming both suites);
- writing A's baseline over a file that holds B's is refused, the file kept;
- an old single-board baseline (RESULTS/baselines/<board>.json) is refused
  with the exact command that moves it.

usage: test_suite_baselines.py BENCHRACK
"""
import hashlib
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import own_firmware  # noqa: E402
from gate_lib import Checker, run  # noqa: E402

BENCHRACK = sys.argv[1]
BOARD = "qemu-netduinoplus2"
c = Checker()


def suite(d, name):
    path = os.path.join(d, "suite.yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"name: {name}\nboards: [{BOARD}]\ndefault_iterations: 10\nwarmup_runs: 1\n"
                "stack_watermark: false\nfail_on_regression_percent: 2\nbenches:\n"
                "  - {name: work, elf: build/app.elf, function: work}\n"
                "  - {name: tick, elf: build/app.elf, function: tick}\n")
    return path


def state(path):
    """A file's bytes' hash and mtime: what a write would change."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest(), os.stat(path).st_mtime_ns


with tempfile.TemporaryDirectory() as tmp:
    results = os.path.join(tmp, "results")
    common = ["--results-dir", results]
    dirs = {n: os.path.join(tmp, n) for n in ("suite-a", "suite-b")}
    suites = {}
    for name, d in dirs.items():
        own_firmware.write(d, loops=1000 if name == "suite-a" else 400)
        own_firmware.build(d)
        suites[name] = suite(d, name)
    base = {n: os.path.join(results, "baselines", n, BOARD + ".json") for n in dirs}

    code, _, err = run(BENCHRACK, ["run", suites["suite-a"], "--write-baseline"] + common)
    c.check(code == 0 and os.path.isfile(base["suite-a"]),
            "run A --write-baseline writes baselines/suite-a/<board>.json", err)
    a_before = state(base["suite-a"])
    code, _, err = run(BENCHRACK, ["run", suites["suite-b"], "--write-baseline"] + common)
    c.check(code == 0 and os.path.isfile(base["suite-b"]),
            "run B --write-baseline writes baselines/suite-b/<board>.json", err)
    b_before = state(base["suite-b"])
    c.check(state(base["suite-a"]) == a_before, "B's write left A's baseline untouched")

    # A's firmware changes: 1050 loops instead of 1000 (+150 of 3002 instructions)
    own_firmware.write_work(dirs["suite-a"], 1050)
    own_firmware.build(dirs["suite-a"])
    code, out, err = run(BENCHRACK, ["check", suites["suite-a"]] + common)
    print(out, err)
    c.check(code == 1, "check A exits 1 after +5 % in A's firmware", f"exit {code}")
    c.check(re.search(r"check failed on \S+: work: instructions 3152 vs baseline 3002: "
                      r"\+150 instructions \(\+5\.0 %\), beyond", err) is not None,
            "it names the bench work at +5.0 % (3002 -> 3152)", err)
    code, out, err = run(BENCHRACK, ["check", suites["suite-b"]] + common)
    c.check(code == 0 and "compared with " + base["suite-b"] in out,
            "check B passes against B's own baseline", f"exit {code}\n{out}\n{err}")
    c.check(state(base["suite-a"]) == a_before and state(base["suite-b"]) == b_before,
            "neither baseline was touched by the checks")

    # A recorded again: its own file replaced (and said so), B's untouched
    code, _, err = run(BENCHRACK, ["run", suites["suite-a"], "--write-baseline"] + common)
    c.check(code == 0 and "(replacing the one recorded" in err and
            state(base["suite-a"]) != a_before and state(base["suite-b"]) == b_before,
            "A's baseline recorded again replaces A's only, and says so", err)
    code, _, err = run(BENCHRACK, ["check", suites["suite-a"]] + common)
    c.check(code == 0, "check A passes against A's new baseline", err)

    # another suite's baseline is refused
    code, out, err = run(BENCHRACK, ["check", suites["suite-b"], "--baseline", base["suite-a"]]
                         + common)
    c.check(code == 2 and f"{base['suite-a']} was recorded for suite 'suite-a', not 'suite-b'"
            in err, "A's baseline given to check B: exit 2 naming both suites",
            f"exit {code}\n{err}")

    # never overwritten silently: a file holding B's baseline where A's goes
    shutil.copy(base["suite-b"], base["suite-a"])
    held = state(base["suite-a"])
    code, out, err = run(BENCHRACK, ["run", suites["suite-a"], "--write-baseline"] + common)
    c.check(code == 2 and "not replacing it" in err and "suite 'suite-b', not 'suite-a'" in err,
            "writing A's baseline over B's is refused (exit 2)", f"exit {code}\n{err}")
    c.check(state(base["suite-a"]) == held, "and the file is left as it was")

    # the old layout: one baseline per board
    old = os.path.join(results, "baselines", BOARD + ".json")
    shutil.move(base["suite-b"], old)
    code, out, err = run(BENCHRACK, ["check", suites["suite-b"]] + common)
    move = (f"mkdir -p {os.path.dirname(base['suite-b'])} && git mv {old} {base['suite-b']}")
    c.check(code == 2 and "old layout" in err and move in err,
            "an old single-board baseline is refused with the command that moves it",
            f"exit {code}\n{err}")
    os.makedirs(os.path.dirname(base["suite-b"]), exist_ok=True)
    shutil.move(old, base["suite-b"])
    code, out, err = run(BENCHRACK, ["check", suites["suite-b"]] + common)
    c.check(code == 0, "moved as it says, it is B's baseline again", f"exit {code}\n{err}")

sys.exit(c.finish())
