#!/usr/bin/env python3
"""OpenOCD launched from a board description with no probe attached: the
controller reports OpenOCD's own reason ("Error: open failed") and exits 3,
quickly, leaving no openocd process behind.

usage: test_openocd_noprobe.py BENCHRACK OPENOCD
"""
import subprocess
import sys
import time

BENCHRACK, OPENOCD = sys.argv[1:3]
t0 = time.monotonic()
p = subprocess.run([BENCHRACK, "probe", "--openocd", OPENOCD,
                    "--openocd-interface", "interface/stlink.cfg",
                    "--openocd-target", "target/stm32f4x.cfg"],
                   capture_output=True, text=True, timeout=60)
elapsed = time.monotonic() - t0
print(p.stdout, p.stderr, f"exit {p.returncode} after {elapsed:.1f}s", sep="\n")
failures = 0
for ok, what in [
    (p.returncode == 3, "exit code 3 (infrastructure)"),
    ("open failed" in p.stderr, "OpenOCD's own reason quoted"),
    ("openocd" in p.stderr.lower(), "the server named"),
    (elapsed < 20, "within 20 s"),
]:
    print(("ok   " if ok else "FAIL ") + what)
    failures += not ok
print(f"{4 - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
