#!/usr/bin/env python3
"""Exact instruction counts on QEMU, through the CLI, for one suite firmware
on the build's board (tests/lib/test_board.py: TIM2 on the netduinos,
QEMU's icount elsewhere):
- every bench's samples are identical (min == max): QEMU is deterministic;
- the empty bench (the loop's own overhead) counts more than 0 instructions;
- nop1000 counts exactly the empty bench + 1000 (its body is 1000 nops);
- crc32_256 - crc32_64 = 192 bytes x the instructions one byte costs in the
  CRC loop, as read from the disassembly of crc32_ieee_update, plus what
  setting up the longer length costs more (Thumb-1 has no 8-bit immediate
  256: `movs #128; lsls #1`), as read from the two benches' disassembly.

usage: test_exact_counts.py BENCHRACK OBJDUMP SUITE_ELF
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, OBJDUMP, ELF = sys.argv[1:4]
# Identical samples need a few; under icount each costs two halts.
N = test_board.samples(50, 8)
NOPS = 1000
CRC_SHORT, CRC_LONG = 64, 256
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures += 1


def window_instructions(bench):
    """Instructions of bench's timed window (from the stub's first counter
    read up to its second, calls not followed) in an optimised build; None
    at -O0, where the loop is no single window."""
    try:
        first, _, second = disasm.bench_timed_window(OBJDUMP, ELF, bench)
    except AssertionError:
        return None
    return sum(1 for a, _, _ in disasm.function(OBJDUMP, ELF, bench) if first <= a < second)


def timed_instructions(bench):
    """Instructions of bench's own code in one timed iteration, calls not
    followed: its timed window, else (-O0: the loop's body is all of it)
    the whole function, alignment padding after its last return left out."""
    window = window_instructions(bench)
    if window is not None:
        return window
    insns = disasm.function(OBJDUMP, ELF, bench)
    return 1 + max(i for i, (_, m, o) in enumerate(insns) if disasm.RETURN.match(f"{m} {o}"))


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "run.json")
    p = subprocess.run([BENCHRACK, "run", "--board", test_board.NAME, "-n", str(N),
                        "--json", out, ELF],
                       capture_output=True, text=True, timeout=120)
    print(p.stdout, p.stderr)
    check(p.returncode == 0, f"benchrack run exits 0 (got {p.returncode})")
    with open(out, encoding="utf-8") as f:
        run = json.load(f)

check(run["counter"]["unit"] == test_board.unit(),
      f"unit labelled as QEMU instructions ({run['counter']['unit']}, on {test_board.NAME})")
benches = {b["name"]: b for b in run["benches"]}
check([b["name"] for b in run["benches"]][:4] == ["empty", "nop1000", "crc32_64", "crc32_256"],
      "benches reported in suite order (the suite starts with these four)")
for name, b in benches.items():
    check(b["n"] == N and len(b["samples"]) == N, f"{name}: {N} samples")
    check(b["min"] == b["max"] == b["median"], f"{name}: min == max == median ({b['min']}..{b['max']})")

empty = benches["empty"]["median"]
check(empty > 0, f"empty bench counts {empty} > 0 instructions")
window = window_instructions("bench_empty")
if window is not None:
    check(empty == window, f"stub overhead {empty} == the {window} instructions of bench_empty's "
          "timed window in its disassembly")
else:
    check(empty <= 8, f"stub overhead {empty} <= 8 instructions per iteration (-O0)")
check(benches["nop1000"]["median"] == empty + NOPS,
      f"nop1000 = empty + {NOPS}: {benches['nop1000']['median']} == {empty} + {NOPS}")

per_byte = disasm.loop_iteration_cost(OBJDUMP, ELF, "crc32_ieee_update")
setup = timed_instructions("bench_crc32_256") - timed_instructions("bench_crc32_64")
delta = benches["crc32_256"]["median"] - benches["crc32_64"]["median"]
# Both benches run the same code around crc32_ieee_update; only its loop runs
# 192 more times, each iteration costing per_byte instructions, and the
# length's set-up may differ by an instruction.
check(delta == (CRC_LONG - CRC_SHORT) * per_byte + setup,
      f"crc32_256 - crc32_64 = {delta} == {CRC_LONG - CRC_SHORT} bytes x {per_byte} "
      f"instructions/byte + {setup} of the length's set-up")

# The table shows every figure raw and net of the calibration (the empty
# bench), says what the calibration is, and flags a bench that leaks.
rows = {line.split()[0]: line.split() for line in p.stdout.splitlines() if line.strip()}
header = rows.get("bench", [])
check("net" in header and "heap" in header, "table has net and heap columns")
if "net" in header:
    net = header.index("net")
    check(rows["nop1000"][net] == str(NOPS), f"nop1000 net of calibration is {NOPS}")
    check(rows["empty"][net] == "0", "empty net of calibration is 0")
check(f"calibration: {empty} per sample" in p.stdout, "the calibration is printed")
if "malloc_leak" in rows:
    check("LEAK" in rows["malloc_leak"], "malloc_leak is reported as a leak")
    check("LEAK" not in rows["malloc_free"], "malloc_free is not a leak")

print(f"{failures} failed")
sys.exit(1 if failures else 0)
