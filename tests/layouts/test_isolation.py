#!/usr/bin/env python3
"""Failure isolation (issue 23, issue 31 ND2), on the plain firmware of
tests/layouts:
- a suite of three `elf:` entries whose middle one never reaches its `to:`
  (layout_never is never called): `run` measures the first and the third
  exactly (costs from the disassembly), lists all three in suite order, says
  the middle one "did not finish within 2 s" with the PC's symbol, closes the
  record `failed` with that reason and exits 3 (README's table: a breakpoint
  that never hit); `check` the same;
- a firmware stuck in HardFault_Handler (layout-stm32cube-fault.elf: an
  undefined instruction after four rounds, UsageFault not enabled, so it
  escalates): `measure --function layout_fixed -n 10` exits 3, naming the
  handler, IPSR 3 (HardFault) and the decoded fault status: HFSR FORCED
  (ARMv7-M ARM B3.2.16: a fault escalated to HardFault) and CFSR UNDEFINSTR
  (B3.2.15: UDF); HFSR and CFSR are also read by gdb-multiarch from the
  halted QEMU, the values benchrack decodes;
- an entry whose samples are all "not measured" (a counter too narrow for
  any guard halt): `run` exits 3, its record `failed` naming it (issue 31
  ND2; it was exit 0 and `complete`).

usage: test_isolation.py BENCHRACK OBJDUMP GDB QEMU STM32CUBE_ELF MCUXPRESSO_ELF FAULT_ELF
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import disasm  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402

BENCHRACK, OBJDUMP, GDB, QEMU, STM, MCUX, FAULT = sys.argv[1:8]
WORK = tempfile.mkdtemp(prefix="benchrack-isolation-")
c = Checks()
N = 5
PC_SYMBOL = re.compile(r"the core was at PC 0x[0-9a-f]{8} \((main|layout_fixed|layout_other)"
                       r"(\+0x[0-9a-f]+)?\)")


def range_cost(elf):
    """layout_fixed's instructions, then main's up to its call of layout_other."""
    return disasm.range_through_call(OBJDUMP, elf, "main", "layout_fixed", "layout_other")


def benchrack(*args):
    p = subprocess.run([BENCHRACK, *args], capture_output=True, text=True, timeout=180)
    return p.returncode, p.stdout, p.stderr


suite = os.path.join(WORK, "three.yaml")
with open(suite, "w") as f:
    f.write("name: three\nboards: [qemu-netduinoplus2]\n"
            f"default_iterations: {N}\nwarmup_runs: 0\ntimeout_seconds: 2\nbenches:\n"
            f"  - {{name: first, elf: {STM}, function: layout_fixed}}\n"
            f"  - {{name: stuck, elf: {STM}, from: layout_fixed, to: layout_never}}\n"
            f"  - {{name: third, elf: {MCUX}, from: layout_fixed, to: layout_other}}\n")
fixed = disasm.straight_line_cost(OBJDUMP, STM, "layout_fixed")
third = range_cost(MCUX)
for command in ("run", "check"):
    results = os.path.join(WORK, command)
    rc, out, err = benchrack(command, suite, "--results-dir", results)
    c.show(out, err)
    c.check(rc == 3, f"{command}: exit {rc} == 3 (README: a breakpoint that never hit)")
    c.check("stuck" in err and "did not finish within 2 s" in err and PC_SYMBOL.search(err),
            f"{command}: stderr says the middle entry did not finish, with the PC's symbol")
    runs = sorted(os.listdir(os.path.join(results, "runs")))
    with open(os.path.join(results, "runs", runs[-1])) as f:
        rec = json.load(f)
    benches = {b["name"]: b for b in rec["benches"]}
    c.check([b["name"] for b in rec["benches"]] == ["first", "stuck", "third"],
            f"{command}: the record lists all three in suite order")
    c.check(benches["first"].get("samples") == [fixed] * N,
            f"{command}: first measured exactly ({fixed} x{N}): {benches['first'].get('samples')}")
    c.check(benches["third"].get("samples") == [third] * N,
            f"{command}: third measured exactly ({third} x{N}): {benches['third'].get('samples')}")
    stuck = benches["stuck"]
    c.check(stuck["status"] == "not_run" and "did not finish within 2 s" in stuck["reason"]
            and PC_SYMBOL.search(stuck["reason"]) is not None,
            f"{command}: the middle one is not run, saying why: {stuck['reason'][:200]}")
    c.check(rec["status"] == "failed" and "stuck" in (rec["error"] or ""),
            f"{command}: the record is failed, naming the entry ({rec['status']})")
    c.check(re.search(rf"^first\s+{N}\s+{fixed}\s", out, re.M) and
            re.search(rf"^third\s+{N}\s+{third}\s", out, re.M),
            f"{command}: the table shows the first and the third")

# Issue 31 ND2: an entry whose samples are "not measured" (an 8-bit view of
# TIM2 declared at 100 MHz: no guard halt comes often enough, every sample
# could hide a wrap): `run` exits 3 and closes its record failed, naming it.
narrow = os.path.join(WORK, "narrow.yaml")
with open(narrow, "w") as f:
    f.write("name: narrow\ncore: cortex-m4\nclock_hz: 100000000\n"
            "server: {kind: qemu, machine: netduinoplus2}\n"
            "counter: {kind: mmio, name: tim2-low8, address: 0x40000024, width: 8}\n"
            "memory:\n  - {name: flash, kind: flash, origin: 0x08000000, length: 1M}\n"
            "  - {name: sram, kind: ram, origin: 0x20000000, length: 128K}\n")
nm_suite = os.path.join(WORK, "nm.yaml")
with open(nm_suite, "w") as f:
    f.write(f"name: nm\nboards: [{narrow}]\ndefault_iterations: 3\nwarmup_runs: 0\n"
            f"benches:\n  - {{name: wide, elf: {STM}, function: layout_fixed}}\n")
results = os.path.join(WORK, "nm-results")
rc, out, err = benchrack("run", nm_suite, "--results-dir", results)
c.show(out, err)
runs = sorted(os.listdir(os.path.join(results, "runs"))) if os.path.isdir(
    os.path.join(results, "runs")) else []
rec = json.load(open(os.path.join(results, "runs", runs[-1]))) if runs else {}
c.check(rc == 3 and "bench wide not measured" in err,
        f"a not-measured entry: run exits {rc} == 3, naming it")
c.check(rec.get("status") == "failed" and "wide" in (rec.get("error") or ""),
        f"... and its record is failed with the reason ({rec.get('status')})")

# Stuck in HardFault_Handler.
rc, out, err, res = measure(BENCHRACK, FAULT, "--board", "qemu-netduinoplus2", "--function",
                            "layout_fixed", "-n", "10", "--timeout", "2")
c.show(out, err)
c.check(rc == 3, f"HardFault: exit {rc} == 3")
c.check("(HardFault_Handler" in err and "IPSR 3 (HardFault)" in err,
        "HardFault: the message names the handler and IPSR 3 (HardFault)")
c.check("HFSR 0x40000000: FORCED" in err and "CFSR 0x00010000: UNDEFINSTR" in err,
        "HardFault: HFSR FORCED, CFSR UNDEFINSTR")

# The oracle: gdb-multiarch on a QEMU running the same image to the handler.
q, port = start_qemu(QEMU, FAULT)
try:
    g = subprocess.run([GDB, "-nx", "-batch", "-ex", "set confirm off",
                        "-ex", f"target remote 127.0.0.1:{port}",
                        "-ex", "break HardFault_Handler", "-ex", "continue",
                        "-ex", "printf \"hfsr %08x\\n\", *(unsigned *)0xE000ED2C",
                        "-ex", "printf \"cfsr %08x\\n\", *(unsigned *)0xE000ED28",
                        "-ex", "printf \"ipsr %d\\n\", $xpsr & 0x1ff",
                        "-ex", "info symbol $pc", FAULT],
                       capture_output=True, text=True, timeout=120)
    c.show(g.stdout)
    c.check("hfsr 40000000" in g.stdout and "cfsr 00010000" in g.stdout and
            "ipsr 3" in g.stdout and "HardFault_Handler in section" in g.stdout,
            "gdb-multiarch reads the same: PC in HardFault_Handler, IPSR 3, HFSR 0x40000000, "
            "CFSR 0x00010000")
finally:
    q.kill()
    q.wait()
sys.exit(c.finish())
