#!/usr/bin/env python3
"""SIGINT and SIGTERM during a run (issue 31, NU): the record is closed as
"interrupted" naming the signal, the QEMU benchrack launched is stopped, and
the exit code is 130 / 143 — within seconds. The same for `measure`, whose
--json says it failed, naming the signal. Before, the signal killed
benchrack at once: the record stayed "running" and the exit was -2 / -15.

A suite with one breakpoint entry that runs for minutes (1024 calls of
plain_long of the plain firmware, over 2^24 instructions each) on the
launched QEMU board; the signal comes once the run is under way (QEMU is
benchrack's child, found by its name).

usage: test_signals.py BENCHRACK PLAIN_ELF
"""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from gate_lib import BOARD, Checker  # noqa: E402

BENCHRACK, PLAIN = (os.path.abspath(a) for a in sys.argv[1:3])
SUITE = """name: long
boards: [{board}]
default_iterations: 1024
warmup_runs: 0
benches:
  - name: long
    elf: {elf}
    function: plain_long
"""
c = Checker()


def children(pid):
    """The PIDs of the QEMUs whose parent is pid."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", encoding="utf-8") as f:
                st = f.read()
        except OSError:
            continue
        if int(st.rsplit(")", 1)[1].split()[1]) == pid and "(qemu-system-arm)" in st:
            out.append(int(d))
    return out


def one(sig, code, tmp, command="run"):
    results = os.path.join(tmp, sig.name + "-" + command)
    suite = os.path.join(tmp, "long.yaml")
    with open(suite, "w", encoding="utf-8") as f:
        f.write(SUITE.format(elf=PLAIN, board=BOARD))
    json_path = os.path.join(tmp, f"{sig.name}-measure.json")
    args = (["run", suite, "--results-dir", results] if command == "run" else
            ["measure", PLAIN, "--board", BOARD, "--function", "plain_long", "-n", "1024",
             "--json", json_path])
    p = subprocess.Popen([BENCHRACK, *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kids = []
    deadline = time.time() + 30
    while not kids and time.time() < deadline and p.poll() is None:
        time.sleep(0.1)
        kids = children(p.pid)
    time.sleep(1.0)  # the session under way
    c.check(p.poll() is None and kids, f"{sig.name}: the run is under way with QEMU ({kids})")
    p.send_signal(sig)
    t0 = time.time()
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    took = time.time() - t0
    c.check(p.returncode == code, f"{sig.name}: exit {code} ({p.returncode}, {took:.1f} s)", err)
    c.check(sig.name in err, f"{sig.name}: stderr names the signal", err)
    if command == "run":
        recs = glob.glob(os.path.join(results, "runs", "*.json"))
        rec = json.load(open(recs[0], encoding="utf-8")) if len(recs) == 1 else {}
        c.check(rec.get("status") == "interrupted" and sig.name in (rec.get("error") or ""),
                f"{sig.name}: the record is closed as interrupted ({rec.get('status')}: "
                f"{rec.get('error')})")
    else:
        rec = json.load(open(json_path, encoding="utf-8")) if os.path.exists(json_path) else {}
        c.check(rec.get("status") == "failed" and sig.name in (rec.get("error") or ""),
                f"{sig.name}: measure --json says failed, naming the signal "
                f"({rec.get('status')}: {rec.get('error')})")
    time.sleep(0.5)
    alive = [k for k in kids if os.path.exists(f"/proc/{k}")]
    c.check(not alive, f"{sig.name}: the QEMU it launched is stopped ({alive})")
    for k in alive:
        os.kill(k, signal.SIGKILL)


def main():
    tmp = tempfile.mkdtemp(prefix="benchrack-signals-")
    try:
        one(signal.SIGINT, 130, tmp)
        one(signal.SIGTERM, 143, tmp)
        one(signal.SIGINT, 130, tmp, "measure")
        one(signal.SIGTERM, 143, tmp, "measure")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
