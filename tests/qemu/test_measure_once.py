#!/usr/bin/env python3
"""A region reached fewer times than asked (tests/qemu/fw_once.c: once_fixed
runs once after reset), on the build's QEMU board (tests/lib/test_board.py:
its machine and default counter, TIM2 or QEMU's icount, both exact):
- default flags (no -n, no -w): measured exactly (its instructions, from the
  disassembly), exit 0; the output says it ran 1 of 100 times, the JSON holds
  the one sample and what was asked;
- an explicit -n 3 not reached: the sample taken is printed and saved, exit 3
  saying "ran 1 of 3 times in T s";
- an explicit warm-up that eats the only run: exit 3 saying so, no figure
  (the JSON, if any, a failed record with none).
The same outcome on every board. On icount (QEMU in record mode, which
answers no interrupt while the guest runs) benchrack cannot stop the core
to see where it went after the wait, so it waits out the timeout (no
idle check), keeps the samples taken as on TIM2, and says where the core
is is unknown because of record mode: asserted there too.

usage: test_measure_once.py BENCHRACK OBJDUMP FW_ONCE_ELF
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, OBJDUMP, ELF = sys.argv[1:4]
DEFAULT_ITERATIONS = 100  # `benchrack measure --help`: -n's default
TIMEOUT_S = 2
RECORD_MODE = test_board.counter() == "icount"
c = Checks()


def says_unknown(text):
    """On icount only: the message says record mode left the core's place
    unknown (benchrack could not interrupt it); elsewhere nothing to say."""
    return not RECORD_MODE or ("record mode" in text and "unknown" in text)


expected = disasm.straight_line_cost(OBJDUMP, ELF, "once_fixed")
print(f"once_fixed: {expected} instructions from its disassembly; board {test_board.NAME}")
BOARD = ["--board", test_board.NAME]

# Default flags: the wait for a second call is the default timeout (10 s).
rc, out, err, res = measure(BENCHRACK, ELF, *BOARD, "--function", "once_fixed", timeout=60)
c.show(out, err)
c.check(rc == 0, f"default flags: exit {rc} == 0")
c.check(res is not None and res["samples"] == [expected],
        f"default flags: the JSON's samples are [{expected}]")
c.check(res is not None and res["n"] == 1 and res["asked"] == DEFAULT_ITERATIONS,
        f"default flags: n 1, asked {DEFAULT_ITERATIONS}")
c.check(f"ran 1 of {DEFAULT_ITERATIONS} times in" in out,
        f"default flags: says it ran 1 of {DEFAULT_ITERATIONS}")
c.check(says_unknown(out), "default flags: on icount, says record mode left the core unknown")
c.check(re.search(rf"^raw\s+1\s+{expected}\s", out, re.M) is not None,
        "default flags: the table's raw row is the one exact sample")

# An explicit -n not reached.
rc, out, err, res = measure(BENCHRACK, ELF, *BOARD, "--function", "once_fixed", "-n", "3",
                            "--timeout", str(TIMEOUT_S), timeout=60)
c.show(out, err)
c.check(rc == 3, f"-n 3: exit {rc} == 3")
c.check(re.search(r"ran 1 of 3 times in [0-9.]+ s", err) is not None,
        "-n 3: stderr says 'ran 1 of 3 times in T s'")
c.check(says_unknown(err), "-n 3: on icount, says record mode left the core unknown")
c.check(res is not None and res["samples"] == [expected] and res["asked"] == 3,
        f"-n 3: the sample taken is saved ([{expected}], asked 3)")
c.check(re.search(rf"^raw\s+1\s+{expected}\s", out, re.M) is not None,
        "-n 3: the sample taken is printed")

# A warm-up that takes the only run.
rc, out, err, res = measure(BENCHRACK, ELF, *BOARD, "--function", "once_fixed", "-n", "3", "-w", "2",
                            "--timeout", str(TIMEOUT_S), timeout=60)
c.show(out, err)
c.check(rc == 3, f"-w 2: exit {rc} == 3")
c.check("ran 1 time in" in err and "all of them warm-up" in err,
        "-w 2: says the one run was warm-up")
c.check(says_unknown(err), "-w 2: on icount, says record mode left the core unknown")
c.check("median" not in out and (res is None or (res.get("n") == 0 and not res.get("samples"))),
        "-w 2: no figure (a failed record at most)")
sys.exit(c.finish())
