#!/usr/bin/env python3
"""`benchrack selftest` fails clearly where the counter cannot be trusted:

  - a board file with a wrong clock: qemu-microbit's with its counter SysTick
    (the shipped file names icount), said to run at 32 MHz where QEMU clocks
    it at 16 MHz: exit 1, "per instruction" FAIL
    naming clock_hz, the long window's ticks half of what 32 MHz would give;
  - a counter that does not count: qemu-netduinoplus2's with the counter an
    mmio "register" in RAM that nothing writes: exit 1, "counts" FAIL saying
    it did not advance;
  - --counter dwt on a Cortex-M0 board: exit 2 (no cycle counter there);
    --counter systick on an icount board (mps2-an500): SysTick's ticks at
    the board file's clock_hz, every check passing, exit 0;
  - a board file with no RAM region (its SRAM said to be flash): exit 2 naming
    the file and line, before anything is launched.

usage: test_selftest_fails.py BENCHRACK CONFIGS_BOARDS_DIR
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import Checks  # noqa: E402

BENCHRACK, BOARDS = sys.argv[1:3]
c = Checks()


def selftest(path):
    p = subprocess.run([BENCHRACK, "selftest", "--board", path], capture_output=True,
                       text=True, timeout=120)
    c.show(p.stdout, p.stderr)
    return p.returncode, p.stdout, p.stderr


def verdict(out, name):
    m = re.search(rf"^{name}\s+(pass|FAIL|n/a)\s+(.*)$", out, re.M)
    return (m.group(1), m.group(2)) if m else (None, "")


with tempfile.TemporaryDirectory(prefix="benchrack-selftest-fails-") as tmp:
    text = open(os.path.join(BOARDS, "qemu-microbit.yaml"), encoding="utf-8").read()
    wrong = os.path.join(tmp, "qemu-microbit-32mhz.yaml")
    with open(wrong, "w", encoding="utf-8") as f:
        f.write(re.sub(r"^counter:\n\s+kind: icount.*$", "counter:\n  kind: systick",
                       text, flags=re.M)
                .replace("clock_hz: 16000000", "clock_hz: 32000000")
                .replace("name: qemu-microbit", "name: qemu-microbit-32mhz"))
    rc, out, err = selftest(wrong)
    v, evidence = verdict(out, "per instruction")
    long = re.search(r"^  long loop\s+(\d+) instructions\s+(\d+) ticks", out, re.M)
    c.check(rc == 1, f"wrong clock: exit {rc} == 1")
    c.check(v == "FAIL" and "clock_hz" in evidence,
            f"wrong clock: per instruction {v}, naming clock_hz: {evidence}")
    # the true 16 MHz: from 2 % below to 2 % + 10 ms above (a resume arms
    # QEMU's SysTick late by the host's delay, which only adds ticks), far
    # from what 32 MHz would give
    due = int(long.group(1)) * 0.016 if long is not None else 0
    c.check(long is not None and 0.98 * due <= int(long.group(2)) <= 1.02 * due + 0.010 * 16e6,
            "wrong clock: the long window read the ticks of the true 16 MHz, half what 32 MHz "
            "would give")
    c.check(re.search(r"^selftest: FAIL", out, re.M) is not None, "wrong clock: 'selftest: FAIL'")

    text = open(os.path.join(BOARDS, "qemu-netduinoplus2.yaml"), encoding="utf-8").read()
    stuck = os.path.join(tmp, "qemu-stuck.yaml")
    with open(stuck, "w", encoding="utf-8") as f:
        f.write(re.sub(r"^counter:\n\s+kind: tim2.*$",
                       "counter:\n  kind: mmio\n  name: ramword\n  address: 0x20010000",
                       text, flags=re.M).replace("name: qemu-netduinoplus2", "name: qemu-stuck"))
    rc, out, err = selftest(stuck)
    v, evidence = verdict(out, "counts")
    c.check(rc == 1, f"not counting: exit {rc} == 1")
    c.check(v == "FAIL" and "did not advance" in evidence,
            f"not counting: counts {v}: {evidence}")
    c.check(verdict(out, "rises")[0] == "FAIL", "not counting: rises FAIL")

    noram = os.path.join(tmp, "qemu-noram.yaml")
    with open(noram, "w", encoding="utf-8") as f:
        f.write(text.replace("kind: ram", "kind: flash")
                .replace("name: qemu-netduinoplus2", "name: qemu-noram"))
    rc, out, err = selftest(noram)
    c.check(rc == 2 and "qemu-noram.yaml:" in err and "ram region" in err,
            f"no RAM region: exit {rc} == 2, naming the board: {err.strip()}")

# --counter: another counter proved on the same board. DWT on the micro:bit's
# Cortex-M0 (ARMv6-M: no cycle counter) is refused before QEMU starts;
# SysTick on mps2-an500 (whose board file names icount) counts its 25 MHz
# clock: 25 ticks per 1000 instructions under -icount shift=0.
p = subprocess.run([BENCHRACK, "selftest", "--board", os.path.join(BOARDS, "qemu-microbit.yaml"),
                    "--counter", "dwt"], capture_output=True, text=True, timeout=60)
c.check(p.returncode == 2 and "Cortex-M0 has no DWT cycle counter" in p.stderr,
        f"--counter dwt on a Cortex-M0: exit {p.returncode} == 2: {p.stderr.strip()}")
p = subprocess.run([BENCHRACK, "selftest", "--board", os.path.join(BOARDS, "qemu-mps2-an500.yaml"),
                    "--counter", "systick"], capture_output=True, text=True, timeout=120)
c.show(p.stdout, p.stderr)
long = re.search(r"^  long loop\s+(\d+) instructions\s+(\d+) ticks", p.stdout, re.M)
c.check(p.returncode == 0 and "counter systick, unit ticks" in p.stdout and
        verdict(p.stdout, "per instruction")[0] == "pass",
        f"--counter systick on an icount board: exit {p.returncode} == 0, per instruction pass")
due = int(long.group(1)) * 0.025 if long is not None else 0
c.check(long is not None and 0.98 * due <= int(long.group(2)) <= 1.02 * due + 0.010 * 25e6,
        "--counter systick: the long window's ticks are what 25 MHz gives (2 % below, 2 % + "
        "10 ms above: a resume arms the timer late)")
sys.exit(c.finish())
