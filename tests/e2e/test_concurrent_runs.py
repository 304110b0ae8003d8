#!/usr/bin/env python3
"""Twelve `benchrack run` processes started at once into one results folder
(issue 12: 12 concurrent runs once left 7 records, two runs started in the
same millisecond writing the same RESULTS/runs/<time>-<board>.json).

All twelve wait at one gate (a FIFO) and are let go together, each a real run on its own launched QEMU; every one must exit 0 and
leave its own complete record: twelve files, twelve distinct run ids, none
"running". Three rounds, each into its own folder.

usage: test_concurrent_runs.py BENCHRACK SUITE_ELF
"""
import glob
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import test_board  # noqa: E402
from measure_cli import Checks  # noqa: E402

BENCHRACK, ELF = sys.argv[1:3]
RUNS = 12
# Iterations per bench: what is asserted is the records, not the figures.
# Fewer on an icount board (two watchpoint stops per iteration, twelve QEMUs
# at once on a 2-vCPU host).
ITERATIONS = test_board.samples(50, 10)
c = Checks()
work = tempfile.mkdtemp(prefix="benchrack-concurrent-")
ROUNDS = 3  # a collision needs the same millisecond: three chances to show one


def round_of_runs(k):
    """Runs RUNS at once into a fresh results folder; checks what they left."""
    folder = os.path.join(work, f"round{k}")
    os.makedirs(folder)
    results = os.path.join(folder, "results")
    one = " ".join(shlex.quote(a) for a in [BENCHRACK, "run", "--board", test_board.NAME,
                                            "-n", str(ITERATIONS), "--results-dir",
                                            results, os.path.abspath(ELF)])
    gate = os.path.join(folder, "gate")
    os.mkfifo(gate)
    # Each run waits at the gate (a FIFO's read end); one close of its write
    # end lets them all go in the same instant.
    script = (f"for i in $(seq {RUNS}); do ( read -r _ <{gate}; {one} >{folder}/out.$i 2>&1; "
              f"echo $? >{folder}/rc.$i ) & done; wait")
    sh = subprocess.Popen(["sh", "-c", script])
    time.sleep(1.0)  # the forks are waiting at the gate by now
    opened = os.open(gate, os.O_WRONLY)
    time.sleep(0.2)
    os.close(opened)
    while sh.poll() is None:  # a straggler that reached the gate late is let through too
        try:
            os.close(os.open(gate, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
        time.sleep(0.1)
    codes = []
    for i in range(1, RUNS + 1):
        with open(os.path.join(folder, f"rc.{i}"), encoding="ascii") as f:
            codes.append(int(f.read()))
    c.check(codes == [0] * RUNS, f"round {k}: all {RUNS} runs exit 0 ({codes})")
    for i, code in enumerate(codes, 1):
        if code != 0:
            c.show(open(os.path.join(folder, f"out.{i}"), encoding="utf-8").read())
    records = sorted(glob.glob(os.path.join(results, "runs", "**", "*.json"), recursive=True))
    c.check(len(records) == RUNS, f"round {k}: {RUNS} records in one results folder "
            f"({len(records)})")
    docs = [json.load(open(r, encoding="utf-8")) for r in records]
    statuses = sorted({d.get("status") for d in docs})
    c.check(statuses == ["complete"], f"round {k}: every record complete ({statuses})")
    ids = {d.get("run_id") or r for d, r in zip(docs, records)}
    c.check(len(ids) == len(records), f"round {k}: every record its own run")


for k in range(1, ROUNDS + 1):
    round_of_runs(k)
sys.exit(c.finish())
