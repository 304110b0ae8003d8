#!/usr/bin/env python3
"""One Cortex-M machine of QEMU, measured exactly (issue 29).

The firmware (fw_machine.S) is plain: its own vector table and linker
script, no stub. The oracle is QEMU's own execution trace of the same image
(-icount shift=0 -singlestep -d exec,nochain: one line per instruction run
on each core; a "Stopped execution of TB chain" line takes back the line
before it, a block entered but not run), never benchrack:
  - work's count: the instructions from its entry to its return;
  - the region's: from region_from to region_to.
Then `benchrack measure --board configs/boards/qemu-MACHINE.yaml` (with
--counter icount when the board names another counter):
  - --function work: exit 0, every sample exactly the trace's count, no net
    below zero, the unit QEMU's instruction count;
  - --from region_from --to region_to: every sample exactly the trace's.
On the dual-core machines QEMU refuses record mode: exit 3, the message
says why, and no figure is printed.

usage: test_machine.py BENCHRACK QEMU NM ELF MACHINE BOARD_FILE
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import Checks, measure  # noqa: E402
from qemu_trace import region_count, run_trace  # noqa: E402

BENCHRACK, QEMU, NM, ELF, MACHINE, BOARD = sys.argv[1:7]
DUAL_CORE = {"mps2-an521", "mps3-an524", "musca-a", "musca-b1"}
TRACE_BYTES = 2_000_000  # some dozen rounds of the region
TRACE_WAIT_S = 30
c = Checks()


def symbols():
    out = subprocess.run([NM, ELF], check=True, capture_output=True, text=True).stdout
    return {f[2]: int(f[0], 16) & ~1 for f in (l.split() for l in out.splitlines())
            if len(f) == 3}


def board_flash_origin():
    with open(BOARD, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"kind: flash, origin: (0x[0-9a-fA-F]+)", text)
    counter = re.search(r"^counter:\n\s+kind: (\w+)", text, re.M)
    return int(m.group(1), 16), counter.group(1)


sym = symbols()
origin, board_counter = board_flash_origin()
c.check(sym["vectors"] == origin,
        f"the image's vector table 0x{sym['vectors']:08x} is at the board file's flash origin "
        f"0x{origin:08x}")

pcs = run_trace(QEMU, MACHINE, ELF, TRACE_BYTES, TRACE_WAIT_S)
work, work_end = sym["work"], sym["fault"]
start = pcs.index(work) if work in pcs else -1
n = 0
while start >= 0 and start + n < len(pcs) and work <= pcs[start + n] < work_end:
    n += 1
work_count = n
region = region_count(pcs, sym["region_from"], sym["region_to"])
print(f"{MACHINE}: the trace ran {len(pcs)} instructions on core 0; work {work_count}, "
      f"region_from..region_to {region}")
c.check(work_count == 1001, f"the trace's work is 1000 nops and a return: {work_count}")
c.check(region == 2 * work_count + 2, f"the trace's region is two calls: {region}")

counter = [] if board_counter == "icount" else ["--counter", "icount"]
for what, args, expected in (
        ("--function work", ["--function", "work"], work_count),
        ("--from/--to", ["--from", "region_from", "--to", "region_to"], region)):
    # --from/--to: 20 samples, so most halts run the instruction under the
    # breakpoint in the host (after the 5 calibration steps; issue 27).
    n = "20" if what == "--from/--to" else "5"
    rc, out, err, res = measure(BENCHRACK, ELF, "--board", BOARD, *counter, *args, "-n", n,
                                "-w", "1", timeout=100)
    c.show(out, err)
    if MACHINE in DUAL_CORE:
        c.check(rc == 3, f"{what}: exit {rc} == 3 (record mode refused)")
        c.check("two cores" in err and "record mode" in err,
                f"{what}: the message says the machine's two cores refuse record mode")
        c.check(re.search(r"^(raw|net)\s", out, re.M) is None, f"{what}: no figure printed")
        continue
    c.check(rc == 0, f"{what}: exit {rc} == 0")
    samples = res["samples"] if res else []
    c.check(len(samples) == int(n) and all(s == expected for s in samples),
            f"{what}: every sample is the trace's {expected}: {samples}")
    c.check(res is not None and res["net"]["min"] >= 0, f"{what}: no net figure below zero")
    c.check(res is not None and res["counter"]["name"] == "icount" and
            res["counter"]["unit"] == "instructions (QEMU icount)",
            f"{what}: counted by QEMU's icount, labelled as instructions")
    c.check(res is not None and res["guard_halts"] == 0, f"{what}: no guard halt")
    if what == "--from/--to":
        # region_from is a bl, region_to a b: both executed by the host once
        # checked against a real step, each one inside a sample counted.
        c.check(res is not None and res["host_stepping"] and res["host_checks"] == 2 and
                res["host_steps"] >= 2 * (int(n) + 1 - 5) - 1,
                f"{what}: the host executed the instructions under the breakpoints "
                f"(self-checks {res and res['host_checks']}, steps {res and res['host_steps']}, "
                f"off: {res and res['host_stepping_off']})")
sys.exit(c.finish())
