#!/usr/bin/env python3
"""`benchrack measure` counts exactly on the build's QEMU board (`--board NAME`,
tests/lib/test_board.py: TIM2 on the netduinos, QEMU's icount elsewhere),
every expected figure derived from the image itself, not copied from a run:
- --function plain_fixed counts exactly the instructions of plain_fixed, read
  from its disassembly, and calibration (resuming from a breakpoint) is 0;
- --from/--to given as file:line counts exactly the instructions between the
  two lines' addresses, read from the DWARF line table with objdump;
- the same region measured at breakpoints and by the stub's batch mode agree
  exactly: the stub's window [first counter read, second counter read) at
  breakpoints equals the batch sample, raw; the body alone
  [after the first read, second read) at breakpoints equals the batch sample
  net of the stub's calibration (the empty bench), plus what the empty
  bench's window holds beyond its counter read (nothing on the M3/M4/M7/M33
  builds; on a Cortex-M0 a register move that keeps the first read, which a
  bench with a low register to spare does without). Optimised builds only:
  at -O0 the loop is not laid out as one window.

usage: test_measure_counts.py BENCHRACK OBJDUMP PLAIN_ELF SUITE_ELF LEVEL MARKERS_SOURCE
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, OBJDUMP, PLAIN, SUITE, LEVEL, MARKERS = sys.argv[1:7]
N = "20"
# Stub batches: min == max needs a few samples; under icount each costs two halts.
N_BATCH = str(test_board.samples(20, 5))
BOARD = ("--board", test_board.NAME)
WARMUP = "2"
# Benches whose timed body is a window of straight code and calls; empty's
# body is empty (its window is the one counter read: raw only).
AGREEMENT_BENCHES = ["nop1000", "crc32_64", "crc32_256", "memcpy_1k", "malloc_free"]
c = Checks()


def constant(result, key="raw"):
    """The one value of a summary whose min equals its max, else None."""
    s = result.get(key) if result else None
    if not s or s["min"] != s["max"]:
        return None
    return s["median"]


# --function on a straight-line function: exactly its instructions, return included.
expected = disasm.straight_line_cost(OBJDUMP, PLAIN, "plain_fixed")
rc, out, err, res = measure(BENCHRACK, PLAIN, *BOARD, "--function", "plain_fixed", "-n", N)
c.show(out, err)
c.check(rc == 0, f"--function plain_fixed exits 0 (got {rc})")
c.check(res is not None and res["counter"]["unit"] == test_board.unit(),
        f"figures labelled as QEMU instructions on {test_board.NAME}")
c.check(constant(res) == expected,
        f"--function plain_fixed = {constant(res)} == {expected} instructions in its disassembly")
c.check(res is not None and res["calibration"]["median"] == 0,
        "calibration on QEMU: resuming from a breakpoint costs 0 instructions")
c.check(constant(res, "net") == expected, "net = raw - 0")

# file:line to file:line: the instructions between the two lines' first statements.
line_from = disasm.marker_line(MARKERS, "marker: from")
line_to = disasm.marker_line(MARKERS, "marker: to")
a_from = disasm.line_address(OBJDUMP, PLAIN, "plain_markers.c", line_from)
a_to = disasm.line_address(OBJDUMP, PLAIN, "plain_markers.c", line_to)
expected = disasm.instructions_between(OBJDUMP, PLAIN, "plain_markers", a_from, a_to)
rc, out, err, res = measure(BENCHRACK, PLAIN, *BOARD, "--from", f"plain_markers.c:{line_from}",
                            "--to", f"plain_markers.c:{line_to}", "-n", N)
c.show(out, err)
c.check(rc == 0, f"--from/--to file:line exits 0 (got {rc})")
c.check(res is not None and res["from"]["address"] == a_from and res["to"]["address"] == a_to,
        f"lines {line_from} and {line_to} resolve to {a_from:#x} and {a_to:#x}, as objdump reads them")
c.check(constant(res) == expected,
        f"plain_markers.c:{line_from} to :{line_to} = {constant(res)} == {expected} instructions")

if LEVEL == "O0":
    print("agreement of the two modes: skipped at -O0 (the loop is no single window)")
    sys.exit(c.finish())


def batch(bench):
    rc, out, err, res = measure(BENCHRACK, SUITE, *BOARD, "--bench", bench, "-n", N_BATCH, "-w",
                                WARMUP)
    c.check(rc == 0, f"batch {bench} exits 0 (got {rc})")
    if rc != 0:
        c.show(out, err)
    return constant(res), constant(res, "net")


def breakpoints(bench, start, end):
    # The batch's warm-up (2, its default) at breakpoints too: the same
    # iterations compared (on a Cortex-M0 the first malloc after the pool's
    # reset takes one instruction more).
    rc, out, err, res = measure(BENCHRACK, SUITE, *BOARD, "--bench", bench, "--from", hex(start),
                                "--to", hex(end), "-n", N, "-w", WARMUP)
    c.check(rc == 0, f"breakpoints in {bench} [{start:#x}, {end:#x}) exit 0 (got {rc})")
    if rc != 0:
        c.show(out, err)
    return constant(res), constant(res, "net")


first, after, second = disasm.bench_timed_window(OBJDUMP, SUITE, "bench_empty")
raw, _ = batch("empty")
bp_raw, _ = breakpoints("empty", first, second)
c.check(raw is not None and bp_raw == raw,
        f"empty: breakpoints over the stub's window = {bp_raw} == batch {raw}")
# What the calibration holds beyond the counter read itself.
beyond = raw - 1 if raw is not None else 0
for bench in AGREEMENT_BENCHES:
    first, after, second = disasm.bench_timed_window(OBJDUMP, SUITE, "bench_" + bench)
    raw, net = batch(bench)
    bp_raw, _ = breakpoints(bench, first, second)
    _, bp_net = breakpoints(bench, after, second)
    c.check(raw is not None and bp_raw == raw,
            f"{bench}: breakpoints over the stub's window, raw {bp_raw} == batch raw {raw}")
    c.check(net is not None and bp_net == net + beyond,
            f"{bench}: breakpoints over the body, net {bp_net} == batch net {net} "
            f"(raw less the empty bench) + {beyond} (the empty bench's window beyond its read)")

sys.exit(c.finish())
