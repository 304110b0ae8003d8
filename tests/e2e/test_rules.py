#!/usr/bin/env python3
"""Exact figures judged exactly, on QEMU (results/metric_rule.h), end to end:
gate-plus-O2 is gate-O2 with nop1000 one instruction longer and stack_probe's
deepest stack byte 4 bytes lower, nothing else — both checked here against
the disassembly (arm-none-eabi-objdump), the independent oracle:
- the 1-instruction change is reported (not hidden) under the default 5 %
  limit, and fails `regression: {instructions: 0%}`;
- the 4-byte stack growth passes `stack_bytes: 64B` and fails `stack_bytes: 2B`,
  named with its bytes ("+4 B stack").

usage: test_rules.py BENCHRACK GATE_ELF PLUS_ELF OBJDUMP
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from gate_lib import Checker, run, write_suite  # noqa: E402

BENCHRACK, GATE, PLUS, OBJDUMP = sys.argv[1:5]
BENCHES = ["empty", "nop1000", "stack_probe"]
c = Checker()


def function_lines(elf, name):
    """The disassembly lines of function name in elf."""
    out = subprocess.run([OBJDUMP, "-d", elf], capture_output=True, text=True,
                         check=True).stdout
    m = re.search(r"^[0-9a-f]+ <" + re.escape(name) + r">:\n(.*?)(?:\n\n|\Z)", out, re.S | re.M)
    return m.group(1).splitlines() if m else []


def loop_body(elf, name):
    """The instructions of function name's loop: from the target of its last
    backward branch to that branch, inclusive."""
    lines = function_lines(elf, name)
    addr = [int(line.split(":")[0], 16) for line in lines]
    back = [(i, int(m.group(1), 16)) for i, line in enumerate(lines)
            for m in [re.search(r"\tb\w*(?:\.w)?\s+([0-9a-f]+) <" + re.escape(name), line)]
            if m and int(m.group(1), 16) < addr[i]]
    if not back:
        return []
    end, target = back[-1]
    return [line for a, line in zip(addr[:end + 1], lines[:end + 1]) if a >= target]


# the oracle: what the two builds differ by
body = [loop_body(e, "bench_nop1000") for e in (GATE, PLUS)]
nops = [sum(1 for line in b if re.search(r"\tnop\b", line)) for b in body]
c.check(len(body[1]) - len(body[0]) == 1 and nops[1] - nops[0] == 1 and nops[0] == 1000,
        f"objdump: nop1000's loop has one instruction more in the changed build, a nop "
        f"({[len(b) for b in body]} instructions, {nops} nops)")
stores = [[int(x) for x in re.findall(r"strb(?:\.w)?\s+r\d+, \[sp, #(\d+)\]", "\n".join(
           function_lines(e, "stack_probe_touch")))] for e in (GATE, PLUS)]
c.check(len(stores[0]) == 2 and len(stores[1]) == 2 and max(stores[0]) == max(stores[1]),
        f"objdump: stack_probe stores twice in the same frame ({stores})")
lowest = [min(s) if s else 0 for s in stores]
c.check(lowest[0] - lowest[1] == 4,
        f"objdump: its deepest store is 4 bytes lower in the changed build ({lowest})")
c.check(len(function_lines(GATE, "stack_probe_touch")) ==
        len(function_lines(PLUS, "stack_probe_touch")),
        "objdump: with as many instructions")

with tempfile.TemporaryDirectory() as tmp:
    results = os.path.join(tmp, "results")
    base = ["--results-dir", results]
    suite = write_suite(os.path.join(tmp, "rules.yaml"), GATE, BENCHES)
    rc, out, err = run(BENCHRACK, ["run", suite, "--write-baseline"] + base)
    c.check(rc == 0, f"baseline recorded (exit {rc})", err)

    # the default limit (5 %): the instruction is reported and passes; the
    # stack (4 B of 56, +7.1 %) is beyond it
    rc, out, err = run(BENCHRACK, ["check", suite, "--firmware", PLUS] + base)
    print(out)
    fails = [line for line in out.splitlines() if line.startswith("FAIL")]
    c.check(rc == 1 and len(fails) == 1 and "stack_probe: stack_bytes" in fails[0],
            f"under the default 5 %, only the stack's +7 % fails (exit {rc})", out + err)
    m = re.search(r"nop1000\s+instructions\s+(\d+)\s+(\d+)\s+\+0\.1%\s+\+1 instructions "
                  r"\(\+0\.\d+ %\)", out)
    c.check(m is not None and int(m.group(2)) - int(m.group(1)) == 1,
            "the one instruction is reported: '+1 instructions (+0.1 %)'", out)
    m = re.search(r"stack_probe\s+stack_bytes\s+(\d+)\s+(\d+)\s+\S+\s+\+4 B stack", out)
    c.check(m is not None and int(m.group(2)) - int(m.group(1)) == 4,
            "the stack growth is reported: '+4 B stack'", out)
    c.check(re.search(r"empty\s+instructions\s+(\d+)\s+\1\s+\+0\.0%\s+equal", out) is not None,
            "an unchanged bench is equal", out)

    for limits, code, failed, passed in [
            ("{instructions: 0%, stack_bytes: 64B}", 1, "nop1000: instructions", "stack_bytes"),
            ("{instructions: 1%, stack_bytes: 2B}", 1, "stack_probe: stack_bytes", "instructions"),
            ("{instructions: 1%, stack_bytes: 64B}", 0, None, None)]:
        s = write_suite(os.path.join(tmp, "limits.yaml"), GATE, BENCHES, regression=limits)
        rc, out, err = run(BENCHRACK, ["check", s, "--firmware", PLUS] + base)
        fails = [line for line in out.splitlines() if line.startswith("FAIL")]
        if failed is None:
            c.check(rc == 0 and not fails, f"regression: {limits}: passes (exit {rc})", out)
            continue
        c.check(rc == code and len(fails) == 1 and failed in fails[0],
                f"regression: {limits}: exit {code}, one failure, {failed} (exit {rc})",
                out + err)
        c.check(not any(passed in line for line in fails),
                f"regression: {limits}: {passed} passes its limit", "\n".join(fails))
        if "stack" in failed:
            c.check(fails and "+4 B stack" in fails[0] and "beyond the 2 B regression limit"
                    in fails[0], "the stack failure says its bytes and the limit", fails[0])
        else:
            c.check(fails and "+1 instructions" in fails[0] and
                    "beyond the 0% regression limit" in fails[0],
                    "the instruction failure says its amount and the limit", fails[0])

sys.exit(c.finish())
