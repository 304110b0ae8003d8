#!/usr/bin/env python3
"""`benchrack selftest` on QEMU boards, against QEMU's own execution trace.

The selftest writes its calibration image into RAM through the gdbstub and
runs its windows between breakpoints. QEMU is launched through a wrapper
(`--qemu`) that adds `-singlestep -d exec,nochain -D LOG`: one trace line per
instruction the core ran (a breakpoint's stop is not a line), so the trace,
not benchrack, says how many instructions each part of the image ran:
  - the nops (from "nops at" to "loop at"): 1 + 1000 in all, the first window
    one instruction alone (the same PC twice in a row), then 1000 in one run;
  - the loop (subs at "loop at", bne after it): the subs ran 1000 + LOOPS
    times (LOOPS given by --loops), each iteration two instructions.
On a board whose counter counts instructions (tim2 on the netduinos, icount
elsewhere) every window's ticks must equal those counts, exit 0, every check
pass except the host rate (n/a on QEMU). On a dual-core machine: exit 3
saying why (record mode refused). On a SysTick board (no trace: the long
window is 40,000,000 instructions): exit 0, the long window from 2 % below
to 2 % + 10 ms of ticks above the board's clock_hz times its instructions
(one per virtual ns; a resume arms QEMU's SysTick late by the host's delay,
which only adds ticks: 1.8 ms seen on a loaded CI host).

usage: test_selftest.py BENCHRACK QEMU BOARD_FILE
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import Checks  # noqa: E402
from qemu_trace import core_pcs  # noqa: E402

BENCHRACK, QEMU, BOARD = sys.argv[1:4]
LOOPS = 3000
WINDOW = re.compile(r"^  (1 nop|1000 nops|loop x1000|long loop)\s+(\d+) instructions\s+"
                    r"(\d+) ticks", re.M)
c = Checks()
board_text = open(BOARD, encoding="utf-8").read()
counter = re.search(r"^counter:\n\s+kind: (\w+)", board_text, re.M).group(1)
clock = re.search(r"^clock_hz: (\d+)", board_text, re.M)
dual = re.search(r"machine: (mps2-an521|mps3-an524|musca-a|musca-b1)\b", board_text)


def selftest(*args):
    p = subprocess.run([BENCHRACK, "selftest", "--board", BOARD, *args],
                       capture_output=True, text=True, timeout=120)
    c.show(p.stdout, p.stderr)
    return p.returncode, p.stdout, p.stderr


def checks_of(out):
    return dict(re.findall(r"^(counts|still when halted|rises|no wrap|per instruction|"
                           r"resume cost|rate vs host)\s+(pass|FAIL|n/a)\b", out, re.M))


if counter == "systick":
    rc, out, err = selftest()
    c.check(rc == 0, f"exit {rc} == 0")
    windows = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in WINDOW.finditer(out)}
    n, ticks = windows.get("long loop", (0, 0))
    want = n * int(clock.group(1)) / 1e9
    late = 0.010 * int(clock.group(1))  # 10 ms of the clock's ticks
    c.check(n == 40_000_000 and 0.98 * want <= ticks <= 1.02 * want + late,
            f"the long window: {ticks} ticks for {n} instructions, {want:.0f} due at "
            f"{clock.group(1)} Hz (one instruction per virtual ns)")
    c.check(checks_of(out).get("per instruction") == "pass", "per instruction: pass")
    sys.exit(c.finish())

with tempfile.TemporaryDirectory(prefix="benchrack-selftest-") as tmp:
    log = os.path.join(tmp, "exec.log")
    wrapper = os.path.join(tmp, "qemu-traced")
    with open(wrapper, "w") as f:
        f.write(f'#!/bin/sh\nexec "{QEMU}" "$@" -singlestep -d exec,nochain -D "{log}"\n')
    os.chmod(wrapper, 0o755)
    rc, out, err = selftest("--qemu", wrapper, "--loops", str(LOOPS))
    if dual:
        c.check(rc == 3, f"exit {rc} == 3 on a dual-core machine")
        c.check("two cores" in err and "record mode" in err,
                "the message says its two cores refuse record mode")
        c.check(WINDOW.search(out) is None, "no figure printed")
        sys.exit(c.finish())
    pcs = core_pcs(log)

c.check(rc == 0, f"exit {rc} == 0")
lay = re.search(r"nops at (0x[0-9a-f]+), loop at (0x[0-9a-f]+), halt at (0x[0-9a-f]+)", out)
c.check(lay is not None, "the image's layout is printed")
if lay is None:
    sys.exit(c.finish())
nops, loop, end = (int(x, 16) for x in lay.groups())
runs = collections.Counter(pcs)
nop_total = sum(1 for p in pcs if nops <= p < loop)
first = pcs.index(nops) if nops in pcs else -1
one_alone = first >= 0 and pcs[first + 1] == nops
run = 0
while (first >= 0 and first + 1 + run < len(pcs) and nops + 2 * run < loop and
       pcs[first + 1 + run] == nops + 2 * run):
    run += 1
subs = runs[loop]
print(f"trace: {len(pcs)} instructions; nops {nop_total} (first window alone: {one_alone}, "
      f"then a run of {run}); subs {subs}, bne {runs[loop + 2]}, b . {runs[end]}")
c.check(nop_total == 1001 and one_alone and run == 1000,
        f"the trace ran the nops as 1 + 1000: {nop_total}, {one_alone}, {run}")
c.check(subs == 1000 + LOOPS and runs[loop + 2] == subs and runs[end] == 0,
        f"the trace ran the loop 1000 + {LOOPS} times, never the final b .: {subs}")
windows = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in WINDOW.finditer(out)}
for name, due in (("1 nop", 1), ("1000 nops", run), ("loop x1000", 2 * 1000),
                  ("long loop", 2 * (subs - 1000))):
    got = windows.get(name, (None, None))[1]
    c.check(got == due, f"window {name}: {got} ticks == the trace's {due} instructions")
verdicts = checks_of(out)
c.check(all(verdicts.get(k) == "pass" for k in ("counts", "still when halted", "rises",
                                                  "no wrap", "per instruction",
                                                  "resume cost")) and
        verdicts.get("rate vs host") == "n/a" and re.search(r"^selftest: pass$", out, re.M),
        f"every check passes, the host rate n/a: {verdicts}")
sys.exit(c.finish())
