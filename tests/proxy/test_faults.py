#!/usr/bin/env python3
"""Fault injection: `benchrack run` through faultproxy.py to a real QEMU.

For each kind of fault, QEMU is started halted with the suite firmware, the
proxy sits between it and benchrack (a board file whose server is the
proxy's port: `server: {kind: remote, ..., flavour: qemu}`, `load: never`),
and the run must give the table of the clean run (the same QEMU reached
directly)
exactly, or fail with exit code 3 and a message within its time bound —
never another table (a wrong number), never a hang. Prints how many faults
of each kind were injected and survived.

usage: test_faults.py BENCHRACK QEMU SUITE_ELF
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from faultproxy import Proxy  # noqa: E402
from qemu_gdbstub import remote_board_yaml, start_qemu  # noqa: E402

BENCHRACK, QEMU, ELF = sys.argv[1:4]
ITERATIONS = "20"
# (mode, proxy options, what must happen, time bound in seconds)
CASES = [
    ("delay", {}, "same", 60),
    ("split", {}, "same", 60),
    ("corrupt", {"every": 4}, "same", 60),
    ("dropack", {}, "same", 60),
    ("garbage", {}, "same", 60),
    ("stall", {"stall_s": 2.5}, "same", 60),   # shorter than the 5 s reply timeout
    ("stall", {"stall_s": 30.0}, "error", 15),  # longer: the session ends, exit 3
    ("close", {}, "error", 15),
]


WORK = tempfile.mkdtemp(prefix="benchrack-faults-")


def run(port, timeout=120):
    board = os.path.join(WORK, "faulty.yaml")
    with open(board, "w") as f:
        f.write(remote_board_yaml("faulty", port, "never"))
    t0 = time.monotonic()
    p = subprocess.run([BENCHRACK, "run", "-n", ITERATIONS, "--timeout", "3", "--board", board,
                        "--results-dir", WORK, ELF],
                       capture_output=True, text=True, timeout=timeout)
    return p, time.monotonic() - t0


def main():
    qemu, qport = start_qemu(QEMU, ELF)
    try:
        clean, _ = run(qport)
    finally:
        qemu.kill()
        qemu.wait()
    if clean.returncode != 0 or not clean.stdout.strip():
        print(clean.stdout, clean.stderr)
        sys.exit("the clean run failed")
    failures = 0
    rows = []
    for mode, opts, want, bound in CASES:
        qemu, qport = start_qemu(QEMU, ELF)
        proxy = Proxy(qport, mode, **opts)
        try:
            p, elapsed = run(proxy.port, timeout=bound + 30)
        finally:
            proxy.close()
            qemu.kill()
            qemu.wait()
        same = p.returncode == 0 and p.stdout == clean.stdout
        clean_error = (p.returncode == 3 and "benchrack:" in p.stderr and elapsed <= bound)
        if want == "same":
            ok = same
        else:
            ok = clean_error and p.stdout.strip() == "" or clean_error and \
                all(line in clean.stdout.splitlines() for line in p.stdout.splitlines())
        # Whatever happened, a table that differs from the clean one is a wrong number.
        wrong_number = p.returncode == 0 and not same
        label = f"{mode}{'' if 'stall_s' not in opts else ' %.1fs' % opts['stall_s']}"
        outcome = "same table" if same else f"exit {p.returncode} in {elapsed:.1f}s"
        rows.append((label, proxy.injected, "yes" if ok and not wrong_number else "NO", outcome))
        if not ok or wrong_number or proxy.injected == 0:
            failures += 1
            print(f"--- {label}: stdout\n{p.stdout}--- stderr\n{p.stderr}")
        elif want == "error":
            print(f"{label}: {p.stderr.strip().splitlines()[-1]}")
    print(f"{'fault':<12} {'injected':>8}  survived  outcome")
    for label, n, ok, outcome in rows:
        print(f"{label:<12} {n:>8}  {ok:<8}  {outcome}")
    print(f"{len(CASES) - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


try:
    main()
finally:
    shutil.rmtree(WORK, ignore_errors=True)
