#!/usr/bin/env python3
"""`benchrack run --board NAME` on each QEMU board of the per-core matrix.

For every board named on the command line, with no firmware given (so
benchrack picks the board's own suite image of this build):
  - exit 0, and the record names the image built for that board
    (suite-O2-<board>.elf; suite-O2.elf for the build's own board);
  - every bench of the suite measured, nop1000 among them;
  - on an instruction-exact counter (tim2, QEMU's icount): min == max for
    every bench and nop1000 exactly empty + 1000;
  - on a clock counter (SysTick): the table names the clock, and nop1000's
    ticks beyond empty's are what that clock implies for 1000 instructions
    under QEMU's -icount shift=0 (one instruction per virtual nanosecond:
    1000 * clock_hz / 1e9), within one tick either way.

Usage: test_boards.py BENCHRACK PRIMARY_BOARD BOARD [BOARD ...]
Exit status 0 when every check holds, 1 otherwise.
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from measure_cli import Checks  # noqa: E402

NOP1000_INSTRUCTIONS = 1000
NS_PER_INSTRUCTION = 1e-9  # QEMU -icount shift=0
ITERATIONS = "20"


def main(argv):
    benchrack, primary, boards = argv[1], argv[2], argv[3:]
    checks = Checks()
    check = checks.check

    with tempfile.TemporaryDirectory() as tmp:
        for board in boards:
            out = os.path.join(tmp, board + ".json")
            proc = subprocess.run(
                [benchrack, "run", "--board", board, "-n", ITERATIONS,
                 "--results-dir", os.path.join(tmp, "results"), "--json", out],
                capture_output=True, text=True, timeout=90)
            if not check(proc.returncode == 0,
                         f"{board}: exit {proc.returncode} (want 0) {proc.stderr.strip()}"):
                continue
            print(proc.stdout)
            record = json.load(open(out))
            image = "suite-O2.elf" if board == primary else f"suite-O2-{board}.elf"
            check(os.path.basename(record["firmware"]["path"]) == image,
                  f"{board}: measured {record['firmware']['path']} (want {image})")
            benches = {b["name"]: b for b in record["benches"]}
            check(all(b["status"] == "measured" for b in benches.values()),
                  f"{board}: every bench measured")
            if not check("nop1000" in benches and "empty" in benches,
                         f"{board}: nop1000 and empty present"):
                continue
            counter = record["counter"]
            net = benches["nop1000"]["median"] - benches["empty"]["median"]
            if counter["name"] in ("tim2", "icount"):
                check(all(b["min"] == b["max"] for b in benches.values()),
                      f"{board}: exact (min == max for every bench)")
                check(net == NOP1000_INSTRUCTIONS,
                      f"{board}: nop1000 - empty = {net} instructions (want exactly 1000)")
            else:
                hz = counter["clock_hz"]
                expected = NOP1000_INSTRUCTIONS * NS_PER_INSTRUCTION * hz
                mhz = f"{hz / 1e6:g} MHz"
                check(f"counter {counter['name']} at {mhz}, unit: {counter['unit']}"
                      in proc.stdout, f"{board}: the table names the counter's clock, {mhz}")
                check(abs(net - expected) <= 1,
                      f"{board}: nop1000 - empty = {net} ticks at {mhz} "
                      f"(1000 instructions imply {expected:g})")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
