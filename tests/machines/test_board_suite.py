#!/usr/bin/env python3
"""The default suite on one QEMU board, exact (issue 29).

`benchrack run --board qemu-MACHINE` with no firmware takes the suite image
built for that board (suite-O2-qemu-MACHINE.elf: its core's code, its
memory map; suite-O2.elf in the build whose cross file is that board's: the
ELF meson passes). On a board whose counter is QEMU's instruction count (no
register: the samples are taken at a read watchpoint on the stub's counter
word) or TIM2:
  - exit 0, every bench measured, the unit QEMU's instruction count, no net
    below zero (JSON and the table);
  - nop1000's net exactly 1000 (1000 nops, by construction);
  - nop1000's and empty's samples equal the oracle's: gdb-multiarch driving
    the same image on QEMU in record mode by itself (a read watchpoint on the
    same word, QEMU's own `monitor info replay` at each stop), not benchrack.
On the dual-core machines (record mode refused): exit 3, the message says
why, no figure printed.

usage: test_board_suite.py BENCHRACK GDB QEMU ELF MACHINE
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import Checks  # noqa: E402
from ports import free_port, wait_listening  # noqa: E402

BENCHRACK, GDB, QEMU, ELF, MACHINE = sys.argv[1:6]
BOARD = "qemu-" + MACHINE
DUAL_CORE = {"mps2-an521", "mps3-an524", "musca-a", "musca-b1"}
N = 5
ORACLE_ITERATIONS = 3
TIMEOUT_S = 100
c = Checks()

GDB_SCRIPT = """set pagination off
target remote 127.0.0.1:{port}
break br_host_sync
continue
delete
set var br_control_state.request.bench_index = {index}
set var br_control_state.request.iterations = {n}
set var br_control_state.request.warmup = 0
set var br_control_state.request.counter_address = (unsigned)&br_control_state.result.count
set var br_control_state.request.counter_mask = 0xffffffff
set var br_control_state.request.seq = br_control_state.result.seq + 1
rwatch *(unsigned *)&br_control_state.result.count
monitor info replay
{stops}kill
"""


def oracle(index):
    """The bench's samples by gdb-multiarch and QEMU alone: gdb steps each
    watched load and reports after it, and the count between the reports
    after an iteration's two loads is that iteration's."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        q = subprocess.Popen([QEMU, "-M", MACHINE, "-display", "none", "-monitor", "none",
                              "-serial", "null", "-icount",
                              f"shift=0,rr=record,rrfile={tmp}/rr.bin", "-kernel", ELF, "-S",
                              "-gdb", f"tcp:127.0.0.1:{port}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_listening(port, process=q)
            script = os.path.join(tmp, "oracle.gdb")
            with open(script, "w", encoding="utf-8") as f:
                f.write(GDB_SCRIPT.format(port=port, index=index, n=ORACLE_ITERATIONS,
                                          stops="continue\nmonitor info replay\n" *
                                          (2 * ORACLE_ITERATIONS)))
            # gdb prints the monitor's answers on stderr in batch mode
            out = subprocess.run([GDB, "-batch", "-nx", "-x", script, ELF],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 timeout=TIMEOUT_S).stdout
        finally:
            q.kill()
            q.wait()
    counts = [int(x) for x in re.findall(r"instruction count = (\d+)", out)][1:]
    if len(counts) != 2 * ORACLE_ITERATIONS:
        c.show(out[-1500:])
        return []
    return [counts[2 * i + 1] - counts[2 * i] for i in range(ORACLE_ITERATIONS)]


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "run.json")
    p = subprocess.run([BENCHRACK, "run", "--board", BOARD, "-n", str(N), "--results-dir",
                        os.path.join(tmp, "results"), "--json", out],
                       capture_output=True, text=True, timeout=TIMEOUT_S)
    record = json.load(open(out, encoding="utf-8")) if os.path.exists(out) else None

if MACHINE in DUAL_CORE:
    c.check(p.returncode == 3, f"{BOARD}: run exits 3 (exit {p.returncode})")
    c.check("two cores" in p.stderr and "record" in p.stderr,
            f"the message says why (two cores, record mode): {p.stderr.strip()[:300]}")
    c.check(not re.search(r"^nop1000\s+\d", p.stdout, re.M), "no figure is printed")
    c.show(p.stdout, p.stderr)
    sys.exit(c.finish())

c.check(p.returncode == 0, f"{BOARD}: run --board exits 0 (exit {p.returncode})")
c.show(p.stdout, p.stderr)
if record is None:
    c.check(False, "a JSON record was written")
    sys.exit(c.finish())
# The image this build made for the board (meson passes it: suite-O2.elf for
# the build's own board, suite-O2-qemu-MACHINE.elf for the others).
c.check(os.path.basename(record["firmware"]["path"]) == os.path.basename(ELF),
        f"it measured the board's own image ({record['firmware']['path']}, "
        f"want {os.path.basename(ELF)})")
benches = {b["name"]: b for b in record["benches"]}
c.check(all(b["status"] == "measured" for b in benches.values()),
        "every bench measured: " + ", ".join(f"{k} {b['status']}" for k, b in benches.items()))
calibration = benches["empty"]["median"]
for name, b in benches.items():
    c.check(b["median"] - calibration >= 0 and min(b["samples"]) >= calibration,
            f"{name}: no net below zero (median {b['median']}, calibration {calibration})")
unit_line = re.search(r"unit: (.*)$", p.stdout, re.M)
c.check(unit_line is not None and "instructions" in unit_line.group(1),
        f"the unit is instructions ({unit_line.group(1) if unit_line else None})")
nets = re.findall(r"^(\w+)\s+\d+(?:\s+\S+){5}\s+(-?\d+)\s", p.stdout, re.M)
c.check(len(nets) == len(benches) and all(int(v) >= 0 for _, v in nets),
        f"the table's net column has no negative figure ({nets})")
c.check(dict(nets).get("nop1000") == "1000" and
        benches["nop1000"]["median"] - calibration == 1000,
        f"nop1000's net is exactly 1000 (table {dict(nets).get('nop1000')}, median "
        f"{benches['nop1000']['median']} less {calibration})")
names = [b["name"] for b in record["benches"]]
for name in ("empty", "nop1000"):
    truth = oracle(names.index(name))
    c.check(truth != [] and benches[name]["samples"] == [truth[0]] * N and
            len(set(truth)) == 1,
            f"{name}: every sample {sorted(set(benches[name]['samples']))} is the oracle's "
            f"(gdb-multiarch and QEMU's count: {truth})")
sys.exit(c.finish())
