#!/usr/bin/env python3
"""The self-check of the host's execution of the instruction under a
breakpoint (issue 27, controller/measure/host_step.h), made to disagree:
tests/machines/fw_hostcheck.S runs with SP in flash, so check_from's
`push {r4, lr}` stores nothing when the core runs it, while the host's
execution would store r4 and lr there. benchrack must see that at the
first halt, turn host execution off for the session, say so in its output
and in the JSON, and still count every sample exactly: the region is the
instructions from check_from up to check_to in the disassembly (objdump),
a straight line with no branch.

usage: test_host_check.py BENCHRACK OBJDUMP ELF BOARD_FILE
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import Checks, measure  # noqa: E402

BENCHRACK, OBJDUMP, ELF, BOARD = sys.argv[1:5]
c = Checks()

lines = subprocess.run([OBJDUMP, "-d", ELF], check=True, capture_output=True,
                       text=True).stdout.splitlines()
body, inside = [], False
for line in lines:
    if line.endswith("<check_from>:"):
        inside = True
    elif line.endswith("<check_to>:"):
        inside = False
    elif inside and ":\t" in line:
        body.append(line)
print("the region in the disassembly:\n" + "\n".join(body))
c.check(len(body) == 3 and "push" in body[0], f"the region is push, pop, nop: {len(body)}")

rc, out, err, res = measure(BENCHRACK, ELF, "--board", BOARD, "--from", "check_from",
                            "--to", "check_to", "-n", "20", "-w", "1", timeout=100)
c.show(out, err)
c.check(rc == 0, f"exit {rc} == 0")
samples = res["samples"] if res else []
c.check(len(samples) == 20 and all(s == len(body) for s in samples),
        f"every sample is the disassembly's {len(body)}: {samples}")
c.check(res is not None and not res["host_stepping"] and res["host_steps"] == 0,
        "host execution is off: it executed nothing")
why = (res or {}).get("host_stepping_off") or ""
c.check("push {r4, lr}" in why and "real step" in why,
        f"the JSON says which instruction disagreed with a real step: {why!r}")
c.check("breakpoints swapped at each halt" in out and "disagreed with a real step" in out,
        "the output says the breakpoints are swapped and why")
sys.exit(c.finish())
