#!/usr/bin/env python3
"""Benchmark: the stub's batch mode against breakpoint mode on the same bench
and the same region (nop1000's body, the window between the stub's two
counter reads found in the disassembly), N samples each, in the same run on
the same QEMU build. Prints the host time each took to take its samples
(start-up excluded: benchrack reports it as wall_seconds) and the ratio
(goal: batch at least 50x faster), then the stub's per-iteration overhead,
the empty bench's count (goal: at most 4 instructions). Fails when a goal
is missed or the two modes disagree on the count.

usage: bench_measure_modes.py BENCHRACK OBJDUMP SUITE_ELF [N]
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import bench_mode  # noqa: E402  (takes --smoke out of argv)
import disasm  # noqa: E402
from measure_cli import measure  # noqa: E402

BENCHRACK, OBJDUMP, SUITE = sys.argv[1:4]
N = sys.argv[4] if len(sys.argv) > 4 else "1000"
RATIO_GOAL = 50.0
OVERHEAD_GOAL = 4
BENCH = "nop1000"
failures = []
errors = []


def run(label, *args):
    start = time.monotonic()
    rc, out, err, res = measure(BENCHRACK, SUITE, "--bench", BENCH, "-n", N, *args)
    process = time.monotonic() - start
    if rc != 0 or res is None:
        print(out, err)
        raise SystemExit(f"{label}: benchrack exited {rc}")
    return res, process


_, after, second = disasm.bench_timed_window(OBJDUMP, SUITE, "bench_" + BENCH)
batch, batch_process = run("batch")
bp, bp_process = run("breakpoints", "--from", hex(after), "--to", hex(second))
ratio = bp["wall_seconds"] / batch["wall_seconds"]
per_halt_ms = 1e3 * bp["wall_seconds"] / bp["halts"]
print(f"{BENCH}, N = {N} samples each, QEMU netduinoplus2 (-icount shift=0):")
print(f"  batch mode (one halt):        {batch['wall_seconds'] * 1e3:9.2f} ms taking samples "
      f"({batch_process:.2f} s with QEMU start-up)")
print(f"  breakpoint mode ({bp['halts']} halts): {bp['wall_seconds'] * 1e3:9.2f} ms taking samples "
      f"({bp_process:.2f} s with QEMU start-up; {per_halt_ms:.3f} ms per halt)")
print(f"  ratio: batch is {ratio:.1f}x faster (goal >= {RATIO_GOAL:.0f}x)")
if ratio < RATIO_GOAL:
    failures.append(f"ratio {ratio:.1f} < {RATIO_GOAL}")
if batch["net"]["median"] != bp["net"]["median"]:
    errors.append(f"the modes disagree: batch net {batch['net']['median']}, "
                    f"breakpoints net {bp['net']['median']}")
else:
    print(f"  both count {bp['net']['median']:.0f} instructions net (the same region)")

rc, out, err, empty = measure(BENCHRACK, SUITE, "--bench", "empty", "-n", N)
overhead = empty["raw"]["median"] if empty else None
print(f"stub per-iteration overhead (bench empty): {overhead} instructions "
      f"(goal <= {OVERHEAD_GOAL})")
if overhead is None:
    errors.append(f"bench empty not measured: benchrack exited {rc}")
elif overhead > OVERHEAD_GOAL:
    failures.append(f"overhead {overhead} > {OVERHEAD_GOAL}")
bench_mode.finish(failures, errors)
