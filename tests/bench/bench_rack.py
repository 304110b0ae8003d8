#!/usr/bin/env python3
"""Benchmark (issue 7): the wall time of `benchrack rack` over four emulated
boards (two netduinoplus2, two netduino2) against the sum of the same
boards run one at a time (`--only NAME`, the same code path), with the
goal: rack <= 1.2 x (sum / cores). Prints the figures; fails only when a
run fails (timing on a shared machine is reported, not enforced).

usage: bench_rack.py BENCHRACK SUITE_ELF [REPEATS]
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import bench_mode  # noqa: E402  (takes --smoke out of argv)

BENCHRACK, ELF = sys.argv[1:3]
REPEATS = bench_mode.rounds(int(sys.argv[3]) if len(sys.argv) > 3 else 3)
WORK = tempfile.mkdtemp(prefix="bench-rack-")
BOARDS = [("np2-a", "qemu-netduinoplus2"), ("np2-b", "qemu-netduinoplus2"),
          ("nd2-a", "qemu-netduino2"), ("nd2-b", "qemu-netduino2")]
SUITES = 8
BENCHES = ["empty", "nop1000", "crc32_64", "crc32_256", "malloc_free", "memcpy_1k"]


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


# SUITES suites per board, so that measuring (not start-up) dominates
suites = [write(os.path.join(WORK, f"suite{k}.yaml"),
                f"name: heavy{k}\nfirmware: {ELF}\nboards: [qemu-netduinoplus2]\n"
                "default_iterations: 1024\nwarmup_runs: 2\ntimeout_seconds: 60\nbenches:\n" +
                "".join(f"  - {b}\n" for b in BENCHES)) for k in range(SUITES)]
rack = write(os.path.join(WORK, "rack.yaml"),
             "name: bench\nretries: 0\nboards:\n" +
             "".join(f"  - {{name: {n}, board: {b}, suites: [{', '.join(suites)}]}}\n"
                     for n, b in BOARDS))


def run(*extra):
    t0 = time.monotonic()
    p = subprocess.run([BENCHRACK, "rack", rack, "--results-dir", os.path.join(WORK, "res"),
                        "--lock-dir", os.path.join(WORK, "locks"), *extra],
                       capture_output=True, text=True, timeout=300)
    secs = time.monotonic() - t0
    if p.returncode != 0:
        print(p.stdout[-2000:], p.stderr[-2000:])
        sys.exit(1)
    return secs


cores = os.cpu_count() or 1
best_rack, best_sum = None, None
for _ in range(REPEATS):
    one_by_one = sum(run("--only", n) for n, _ in BOARDS)
    together = run()
    best_rack = together if best_rack is None else min(best_rack, together)
    best_sum = one_by_one if best_sum is None else min(best_sum, one_by_one)
ideal = best_sum / cores
ratio = best_rack / ideal
load = os.getloadavg()[0]
print(f"machine: {cores} cores, load average {load:.2f} before the last runs "
      "(other work on the machine takes cores from the rack, not from one board)")
print(f"boards one at a time: {best_sum:.3f} s in total (best of {REPEATS})")
print(f"rack of {len(BOARDS)} boards, {cores} at once: {best_rack:.3f} s (best of {REPEATS})")
print(f"sum / cores: {ideal:.3f} s; rack / (sum / cores) = {ratio:.2f} "
      f"(goal <= 1.2: {'met' if ratio <= 1.2 else 'NOT met'})")
shutil.rmtree(WORK, ignore_errors=True)
