#!/usr/bin/env python3
"""A function's return breakpoint guessed at its entry (issue 11): once two
entries in a row returned to the same place, the entry's write also swaps to
that return address and resumes, and the LR it reads (twice) says whether
the guess held. On the build's QEMU board (tests/qemu/fw_loop.c; tests/lib/test_board.py:
its machine and default counter, TIM2 or QEMU's icount, both exact), launched:
- br_loop_marker_a, called from one place: every sample exact (its
  instructions, from the disassembly), none dropped;
- br_loop_sites, called three times from one place and then once from
  another, over and over: every sample exact, exactly one dropped (the call
  from the other place, whose return was guessed wrong: the core is stopped,
  the session goes on from the entry and guesses no more), no recovery.

usage: test_measure_return_guess.py BENCHRACK OBJDUMP FW_LOOP_ELF
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, OBJDUMP, ELF = sys.argv[1:4]
N = 40
c = Checks()
for function, dropped in (("br_loop_marker_a", 0), ("br_loop_sites", 1)):
    expected = disasm.straight_line_cost(OBJDUMP, ELF, function)
    rc, out, err, res = measure(BENCHRACK, ELF, "--board", test_board.NAME, "--function", function,
                                "-n", str(N), "-w", "0", timeout=120)
    c.show(out, err)
    c.check(rc == 0 and res is not None, f"{function}: exit {rc} == 0")
    if res is None:
        continue
    c.check(res["samples"] == [expected] * N,
            f"{function}: {N} samples, each its {expected} instructions "
            f"({sorted(set(res['samples']))}, {len(res['samples'])})")
    c.check(res["dropped"] == dropped and res["recoveries"] == 0,
            f"{function}: {dropped} dropped, no recovery (dropped {res['dropped']}, "
            f"recoveries {res['recoveries']})")
sys.exit(1 if c.failures else 0)
