#!/usr/bin/env python3
"""A region longer than QEMU's 32-bit counter (tests/qemu/fw_once.c: from
long_from to long_to, two calls of a 2-instruction loop of 1.1e9
iterations, 4,400,000,007 instructions), measured exactly by guard halts:
the expected count is derived from the disassembly (the instructions between
the labels, the loop's cost per iteration and its iteration count, the
literal the code loads), never copied from a run. Exit 0, the JSON's one
sample exactly that, guard halts taken (a region over 2^32 cannot be
measured without), and the wrap line saying so.

It runs over 4.4e9 instructions with a breakpoint inserted: tens of seconds
of QEMU, minutes on a loaded host.

With icount (issue 29: QEMU's own 64-bit instruction count, here on a
machine that is not an STM32: tests/machines/fw_machine.S -DLONG_REGION on
qemu-lm3s6965evb), the same exact figure with no guard halt at all, and
the wrap line saying there is none.

usage: test_measure_long.py BENCHRACK OBJDUMP ELF [icount BOARD]
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402

BENCHRACK, OBJDUMP, ELF = sys.argv[1:4]
ICOUNT = len(sys.argv) > 5 and sys.argv[4] == "icount"
BOARD = ["--board", sys.argv[5]] if ICOUNT else []
COUNTER_PERIOD = 2 ** 32
TIMEOUT_S = 1200
c = Checks()

between = disasm.function(OBJDUMP, ELF, "long_from")
calls = [o for _, m, o in between if m == "bl"]
assert calls and all("<long_loop>" in o for o in calls), between
per_iteration = disasm.loop_iteration_cost(OBJDUMP, ELF, "long_loop")
exit_cost = 1  # long_loop's return (bx lr) after its last iteration
# Each call's iteration count: the literal its `ldr r0, [pc, #N]` loads
# (objdump names the literal's address in a comment).
dump = subprocess.run([OBJDUMP, "-d", ELF], check=True, capture_output=True, text=True).stdout
region = dump.split("<long_from>:\n", 1)[1].split("\n\n", 1)[0]
iterations = []
for where in re.findall(r"\bldr\s+r0, \[pc, #\d+\]\s+@ \(([0-9a-f]+) <", region):
    word = re.search(rf"^\s*{where}:\s+\S+\s+\.word\s+0x([0-9a-f]+)", dump, re.M).group(1)
    iterations.append(int(word, 16))
assert len(iterations) == len(calls), region
expected = len(between) + sum(per_iteration * n + exit_cost for n in iterations)
print(f"long_from..long_to: {len(between)} instructions, {len(calls)} calls of long_loop "
      f"({per_iteration} per iteration, iterations {iterations}): {expected}")
c.check(expected > COUNTER_PERIOD, f"{expected} is more than one counter period (2^32)")

rc, out, err, res = measure(BENCHRACK, ELF, *BOARD, "--from", "long_from", "--to", "long_to",
                            "-n", "1", "--timeout", str(TIMEOUT_S), timeout=TIMEOUT_S + 60)
c.show(out, err)
c.check(rc == 0, f"exit {rc} == 0")
c.check(res is not None and res["samples"] == [expected], f"the sample is exactly {expected}")
if ICOUNT:
    c.check(res is not None and res["counter"]["name"] == "icount", "counted by icount")
    c.check(res is not None and res["guard_halts"] == 0, "no guard halt (64 bits)")
    c.check(re.search(r"wrap: none \(64 bits\); no guard halts", out) is not None,
            "the wrap line says there is none")
    c.check(re.search(r"^raw\s+1\s+%d\s" % expected, out, re.M) is not None,
            "the table's raw row is that figure")
    sys.exit(c.finish())
c.check(res is not None and res["guard_halts"] >= expected // COUNTER_PERIOD,
        "guard halts were taken (at least one per counter period)")
c.check(re.search(r"^raw\s+1\s+%d\s" % expected, out, re.M) is not None,
        "the table's raw row is that figure")
c.check(re.search(r"wrap: .*guard halt.* [1-9][0-9]* taken", out) is not None,
        "the wrap line says guard halts were taken")
c.check("could not be told" not in out, "the wrap line does not say a wrap could not be told")
sys.exit(c.finish())
