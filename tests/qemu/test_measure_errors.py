#!/usr/bin/env python3
"""`benchrack measure` when it cannot stand behind a number, on the build's
QEMU board (--board NAME, tests/lib/test_board.py: its machine, its default
counter, TIM2 on the netduinos or QEMU's icount elsewhere):
- the DWT cycle counter (QEMU implements none): "not counting", naming icount (QEMU's own instruction count),
  exit 3, no figure;
- a wrapped interval: plain_long runs more than 2^24 instructions (exactly
  N x its loop's instructions plus a few, from its disassembly, on the
  board's counter: TIM2's 32 bits or icount's 64); on TIM2 boards only (the
  views below are of TIM2_CNT's register, which the other machines lack:
  icount has no register to view), seen through a 24-bit view of the same
  counter declared at 100 MHz,
  guard halts (more often than half its period) make the same figure, exactly
  (or, when a loaded host delays one past the period, "not measured");
  through an 8-bit view no guard halt can come often enough: its sample is
  "not measured" (host time could hide a wrap), exit 3; the 24-bit view
  measures a short function fine;
- a breakpoint that never hits: a clear message naming it, within the
  timeout, exit 3 (as --function and as --to), on every board; on icount
  (QEMU in record mode answers no interrupt while the guest runs, so
  benchrack cannot stop the core to see where it is) the message also says
  record mode left where the core is unknown, and it comes as soon (one
  timeout: no interrupt waited for, the QEMU killed, not asked to stop);
- usage and input errors: one line naming what is wrong, nothing on stdout,
  exit 2.

usage: test_measure_errors.py BENCHRACK OBJDUMP PLAIN_ELF SUITE_ELF PLAIN_H
"""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, OBJDUMP, PLAIN, SUITE, PLAIN_H = sys.argv[1:6]
VIEW_BITS = 24
VIEW = f"mmio:0x40000024:{VIEW_BITS}"  # TIM2_CNT, as if only 24 bits wide
NARROW = "mmio:0x40000024:8"
VIEW_HZ = "100000000"                  # wraps every 0.168 s of host time
SHORT_VIEW_HZ = "10000000"             # wraps every 1.68 s
TIMEOUT_S = 2
# QEMU start-up and shutdown around the wait (seconds on a loaded ASan host);
# TIMEOUT_S + slack stays below the default 10 s, so an ignored --timeout
# fails. The same on icount, where one wait is all there is now (measured
# 2.1-2.3 s for --timeout 2 on both counters, on a loaded host; 8.2 s on
# icount when a second wait followed for the interrupt's answer).
TIMEOUT_SLACK_S = 7
RECORD_MODE = test_board.counter() == "icount"
GIVE_UP_S = TIMEOUT_S + TIMEOUT_SLACK_S
BOARD = ["--board", test_board.NAME]
c = Checks()
print(f"board {test_board.NAME}, counter {test_board.counter()}")


def one_line_error(name, err, code, want_code, *phrases):
    lines = [line for line in err.splitlines() if line.strip()]
    c.check(code == want_code, f"{name}: exit {code} == {want_code}")
    c.check(len(lines) == 1, f"{name}: one line on stderr ({len(lines)})")
    for p in phrases:
        c.check(p in err, f"{name}: says {p!r}")
    print("    " + err.strip())


# DWT on QEMU.
rc, out, err, res = measure(BENCHRACK, PLAIN, *BOARD, "--function", "plain_fixed",
                            "--counter", "dwt", "--clock-hz", "168000000", "-n", "3")
one_line_error("dwt on QEMU", err, rc, 3, "not counting", "icount")
c.check((res is None or (res["status"] == "failed" and "raw" not in res
                         and not any(x is not None for x in res.get("samples", []))))
        and "median" not in out, "dwt on QEMU: no figure at all (--json: failed, no figure)")
c.check(res is not None and res.get("asked") == 3,
        f"dwt on QEMU: --json still says what was asked ({res and res.get('asked')} == 3)")

# A wrapped interval.
with open(PLAIN_H, encoding="utf-8") as f:
    iterations = int(re.search(r"#define\s+PLAIN_LONG_ITERATIONS\s+(0x[0-9A-Fa-f]+|\d+)U",
                               f.read()).group(1), 0)
per_iteration = disasm.loop_iteration_cost(OBJDUMP, PLAIN, "plain_long")
rc, out, err, res = measure(BENCHRACK, PLAIN, *BOARD, "--function", "plain_long", "-n", "1",
                            "-w", "0")
c.show(out, err)
count = res["samples"][0] if res else None
c.check(rc == 0 and count is not None and 0 < count - iterations * per_iteration < 16,
        f"plain_long on {test_board.counter()}: {count} == {iterations} x {per_iteration} "
        f"+ a few")
c.check(count is not None and count >= 1 << VIEW_BITS, f"{count} >= 2^{VIEW_BITS}: a 24-bit view wraps")
if test_board.counter() == "tim2":
    rc, out, err, res = measure(BENCHRACK, PLAIN, *BOARD, "--function", "plain_long", "-n", "1",
                                "-w", "0", "--counter", VIEW, "--clock-hz", VIEW_HZ)
    c.show(out, err)
    # Exact, or (a loaded host let a guard halt come later than the period
    # allows) not measured: never another number.
    exact = rc == 0 and res is not None and count is not None and res["samples"] == [count]
    refused = rc == 3 and res is not None and res["samples"] == [None] and res["not_measured"] == 1
    c.check(exact or refused,
            f"through the 24-bit view with guard halts: {res and res['samples']} is [{count}] or "
            f"not measured ({'exact' if exact else 'not measured' if refused else 'neither'})")
    c.check(res is not None and res.get("guard_halts", 0) > 0,
            f"guard halts came ({res and res.get('guard_halts')})")
    c.check(res is not None and res["counter"]["period"] == 1 << VIEW_BITS
            and abs(res["counter"]["wrap_seconds"] - (1 << VIEW_BITS) / int(VIEW_HZ)) < 1e-9,
            "the wrap period is known from width and clock, and reported")
    c.check(f"{1 << VIEW_BITS} ticks" in out, "the wrap period is printed with the results")
    rc, out, err, res = measure(BENCHRACK, PLAIN, *BOARD, "--function", "plain_long", "-n", "1",
                                "-w", "0", "--counter", NARROW, "--clock-hz", VIEW_HZ)
    c.show(out, err)
    c.check(rc == 3, f"the wrapped sample: exit {rc} == 3")
    c.check(res is not None and res["samples"] == [None] and res["not_measured"] == 1,
            "the wrapped sample is not measured: no number in JSON")
    c.check("not measured" in out and "not measured" in err, "the report says not measured")
    # A short function through a 24-bit view: its figures are given. At 10 MHz
    # the view wraps every 1.7 s, so even a loaded host (a sample's host time
    # then reaches tenths of a second) cannot make a sample "not measured".
    rc, out, err, res = measure(BENCHRACK, PLAIN, *BOARD, "--function", "plain_fixed", "-n", "5",
                                "--counter", VIEW, "--clock-hz", SHORT_VIEW_HZ)
    c.check(rc == 0 and res is not None and res["not_measured"] == 0,
            f"a 24-bit view measures a short function (exit {rc})")
    if rc != 0:
        c.show(out, err)
    c.check(res is not None and "raw time" in out and f"us (ticks at {SHORT_VIEW_HZ} Hz)" in out,
            "with a clock, times are shown, labelled with the clock")
else:
    print(f"not asserted on {test_board.NAME}: the narrow views and guard halts are views of "
          f"TIM2_CNT (0x40000024), a register this machine has not; its counter is "
          f"{test_board.counter()} (QEMU's instruction count, 64 bits, no register to view), "
          f"and the plain firmware starts no SysTick")

# Breakpoints that never hit.
for name, args, phrase in [
        ("--function never called", ["--function", "plain_never"], "--function plain_never"),
        ("--to never reached", ["--from", "plain_fixed", "--to", "plain_never"], "--to plain_never")]:
    start = time.monotonic()
    rc, out, err, res = measure(BENCHRACK, PLAIN, *BOARD, *args, "--timeout", str(TIMEOUT_S))
    took = time.monotonic() - start
    one_line_error(name, err, rc, 3, phrase, "never hit", f"within {TIMEOUT_S} s")
    if RECORD_MODE:
        c.check("record mode" in err and "unknown" in err,
                f"{name}: on icount, says record mode left where the core is unknown")
    c.check(res is None or not any(x is not None for x in res.get("samples", [])),
            f"{name}: no figure")
    c.check(took < GIVE_UP_S, f"{name}: gave up after {took:.1f} s (< {GIVE_UP_S} s)")

# Usage and input errors, before anything starts (or, for a bench name the
# image's table lacks, once the image on the build's board has started).
markers = os.path.join(os.path.dirname(PLAIN_H), "plain_markers.c")
usage = [
    ("--from without --to", PLAIN, ["--from", "plain_fixed"], ["--from and --to"]),
    ("--function with --from", PLAIN, ["--function", "plain_fixed", "--from", "a", "--to", "b"],
     ["give one"]),
    ("nothing to measure", PLAIN, [], ["nothing to measure"]),
    ("unknown symbol", PLAIN, ["--function", "no_such_function"], ["no_such_function"]),
    ("data, not code", PLAIN, ["--from", "plain_sink", "--to", "plain_fixed"],
     ["plain_sink", "data, not code"]),
    ("a line without code", PLAIN, ["--from", "plain_markers.c:1", "--to", "plain_fixed"],
     ["plain_markers.c"]),
    ("an address in no function", PLAIN, ["--function", "0x20000000"], ["0x20000000"]),
    ("mid-function address", PLAIN, ["--function", "plain_markers.c:14"], ["not the entry"]),
    ("stub firmware without --bench", SUITE, ["--function", "crc32_ieee_update"], ["--bench"]),
    ("--bench on firmware without the stub", PLAIN, ["--bench", "empty"],
     ["no benchrack stub", "--function"]),
    ("unknown bench", SUITE, ["--bench", "no_such_bench"], ["no_such_bench"]),
    ("too many samples for the stub", SUITE, ["--bench", "empty", "-n", "2000"], ["1024"]),
    ("unknown counter", PLAIN, ["--function", "plain_fixed", "--counter", "tim9"],
     ["tim9", "mmio:"]),
    ("dwt without a clock", PLAIN, ["--function", "plain_fixed", "--counter", "dwt"],
     ["--clock-hz"]),
    ("narrow counter without a clock", PLAIN,
     ["--function", "plain_fixed", "--counter", "mmio:0x40000024:16"], ["--clock-hz"]),
    ("no DWT on a Cortex-M0", PLAIN, ["--function", "plain_fixed", "--counter", "dwt",
                                      "--clock-hz", "48000000", "--core", "m0"], ["no DWT"]),
    ("bad stack region", PLAIN, ["--function", "plain_fixed", "--stack-region", "0x2001e001:8K"],
     ["word-aligned"]),
]
assert os.path.exists(markers)
for name, elf, args, phrases in usage:
    p = subprocess.run([BENCHRACK, "measure", elf, *BOARD, *args], capture_output=True,
                       text=True, timeout=60)
    one_line_error(name, p.stderr, p.returncode, 2, *phrases)
    c.check(not p.stdout.strip(), f"{name}: nothing on stdout")

sys.exit(c.finish())
