#!/usr/bin/env python3
"""Benchmark (`meson test --benchmark`): samples per second of `benchrack
profile` sampling as fast as the server allows, against the continue -> stop
floor measured on the same machine in the same run (tests/bench/bench_halt,
before and after). Goal: a sample costs at most two round trips (the
interrupt's stop reply, then one pipelined write carrying every read and the
continue), i.e. samples/s >= 1 / (2 x floor), with the unwinder's reads
(registers and the stack window) included. Prints the figures and the ratio;
exits 1 when the goal is not met.

usage: bench_profile.py BENCHRACK PROFILE_ELF BENCH_HALT QEMU FW_LOOP_ELF
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BENCHRACK, ELF, BENCH_HALT, QEMU, FW_LOOP = sys.argv[1:6]
DURATION = "5"


def floor_us():
    p = subprocess.run([BENCH_HALT, QEMU, FW_LOOP], capture_output=True, text=True,
                       timeout=300, check=True)
    return float(re.search(r"FLOOR_US (\S+) (\S+)", p.stdout).group(2))


def sample_rate(window):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "p.json")
        subprocess.run([BENCHRACK, "profile", ELF, "--function", "profile_caller",
                        "--duration", DURATION, "--stack-window", str(window),
                        "--format", "json", "--output", path],
                       capture_output=True, text=True, timeout=120, check=True)
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
    return r["samples_taken"] / r["seconds"], r


before = floor_us()
rates = {w: sample_rate(w) for w in (512, 64)}
after = floor_us()
floor = (before + after) / 2
goal = 1e6 / (2 * floor)
print(f"continue->stop floor: median {before:.1f} us before, {after:.1f} us after "
      f"(mean {floor:.1f} us): goal {goal:.0f} samples/s")
for w, (rate, r) in rates.items():
    print(f"sampling, stack window {w} B: {rate:.0f} samples/s "
          f"({r['samples_taken']} in {r['seconds']:.2f} s; {1e6 / rate:.1f} us per sample = "
          f"{1e6 / rate / floor:.2f} floors): {100 * rate / goal:.0f} % of the goal")
ok = rates[512][0] >= goal
print("goal " + ("MET" if ok else "NOT MET") + " with the default window (512 B)")
sys.exit(0 if ok else 1)
