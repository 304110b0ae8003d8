#!/usr/bin/env python3
"""OpenOCD launched from a board description with no probe attached: every
command that reaches a board — probe, run, check, measure, selftest, each through
`--board nucleo-f446re` (and probe through its own options too) — reaches
OpenOCD, reports its own reason ("Error: open failed") and exits 3, quickly.

usage: test_openocd_noprobe.py BENCHRACK OPENOCD SUITE_ELF PLAIN_ELF
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

BENCHRACK, OPENOCD, SUITE_ELF, PLAIN_ELF = sys.argv[1:5]
WORK = tempfile.mkdtemp(prefix="benchrack-noprobe-")
suite = os.path.join(WORK, "nucleo.yaml")
with open(suite, "w") as f:
    f.write(f"name: nucleo\nboards: [nucleo-f446re]\nfirmware: {SUITE_ELF}\n"
            "benches: [empty, nop1000]\n")
results = ["--results-dir", os.path.join(WORK, "results")]
COMMANDS = [
    ("probe (options)", ["probe", "--openocd", OPENOCD, "--openocd-interface",
                         "interface/stlink.cfg", "--openocd-target", "target/stm32f4x.cfg"]),
    ("probe --board", ["probe", "--board", "nucleo-f446re"]),
    ("run --board", ["run", SUITE_ELF, "--board", "nucleo-f446re"] + results),
    ("run SUITE", ["run", suite] + results),
    ("check SUITE", ["check", suite] + results),
    ("measure --board", ["measure", PLAIN_ELF, "--function", "plain_fixed", "--board",
                         "nucleo-f446re"]),
    ("selftest --board", ["selftest", "--board", "nucleo-f446re"]),
]
failures = 0
checks = 0
try:
    for label, args in COMMANDS:
        t0 = time.monotonic()
        p = subprocess.run([BENCHRACK, *args], capture_output=True, text=True, timeout=60)
        elapsed = time.monotonic() - t0
        print(f"--- {label}: exit {p.returncode} after {elapsed:.1f}s\n{p.stderr.strip()}")
        for ok, what in [
            (p.returncode == 3, "exit code 3 (infrastructure)"),
            ("Error: open failed" in p.stderr, "OpenOCD's own reason quoted"),
            ("openocd" in p.stderr.lower(), "the server named"),
            ("not supported" not in p.stderr, "no board kind refused"),
            (elapsed < 20, "within 20 s"),
        ]:
            print(("ok   " if ok else "FAIL ") + f"{label}: {what}")
            failures += not ok
            checks += 1
finally:
    shutil.rmtree(WORK, ignore_errors=True)
print(f"{checks - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
