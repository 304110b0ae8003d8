#!/usr/bin/env python3
"""Never a negative or impossible figure (issue 29).

fw_machine.S built with -DSTART_SYSTICK on QEMU's microbit: the firmware
starts SysTick, measured with --counter systick --clock-hz 16000000 (the
board's own counter is QEMU's icount), which arms a QEMU timer,
so every resume adds host time to the count and the calibration steps (the
first five starts) differ from the other samples. Before this issue the
median calibration was subtracted from every sample and `net` went below
zero. Now: exit 0, the raw figures are there, and either the net's least
sample is not below zero, or there is no net at all and the report says
why ("net: not measured: ...", JSON net null with net_why). The unit is
ticks of the clock, never instructions or cycles.

usage: test_no_negative.py BENCHRACK ELF
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import Checks, measure  # noqa: E402

BENCHRACK, ELF = sys.argv[1:3]
c = Checks()
rc, out, err, res = measure(BENCHRACK, ELF, "--board", "qemu-microbit", "--counter", "systick",
                            "--clock-hz", "16000000", "--function", "work",
                            "-n", "40", timeout=100)
c.show(out, err)
c.check(rc == 0, f"exit {rc} == 0")
c.check(res is not None and res["raw"]["n"] > 0, "raw figures are there")
net = res.get("net") if res else None
if net is None:
    c.check(res is not None and res.get("net_why"), "no net: the JSON says why")
    c.check(re.search(r"^net: not measured: \S", out, re.M) is not None,
            "no net: the report says why")
else:
    c.check(net["min"] >= 0, f"the net's least sample {net['min']} is not below zero")
for row in re.findall(r"^net(?: time)?\s+\d+\s+(.*)$", out, re.M):
    c.check(not re.search(r"(^|\s)-\d", row), f"no negative figure in a net row: {row}")
c.check(res is not None and res["counter"]["unit"] == "ticks",
        "the unit is ticks of the clock, not instructions nor cycles")
sys.exit(c.finish())
