#!/usr/bin/env python3
"""`check` holds the suite firmware to size budgets per symbol and per
section (issue 30), on QEMU with the gate-test firmware, the figures taken
from arm-none-eabi-nm -S and size -A on the same ELF:

- a symbol at its exact size and a section at its exact RAM pass (exit 0);
- one byte less fails (exit 1), naming the symbol or section, the figure and
  the key;
- a symbol the firmware lacks fails as "not in the firmware" (exit 1), never
  passes;
- a size budget that names both or neither, sets no limit, or has a typo is
  a configuration error (exit 2) at its file:line:col.

usage: test_size_budgets.py BENCHRACK GATE_ELF NM SIZE
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from gate_lib import Checker, run, write_suite  # noqa: E402

BENCHRACK, GATE, NM, SIZE = sys.argv[1:5]
c = Checker()


def nm_size(path, name):
    out = subprocess.run([NM, "-S", path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3] == name:
            return int(parts[1], 16)
    return None


def section_size(path, name):
    out = subprocess.run([SIZE, "-A", path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == name:
            return int(parts[1])
    return None


work = nm_size(GATE, "bench_work")
bss = section_size(GATE, ".bss")
c.check(work and bss, f"oracles: bench_work {work} bytes, .bss {bss} bytes")

with tempfile.TemporaryDirectory() as tmp:
    base = ["--results-dir", os.path.join(tmp, "results")]

    def suite(name, budgets):
        return write_suite(os.path.join(tmp, name + ".yaml"), GATE, ["empty"],
                           size_budgets=budgets)

    exact = suite("exact", f"[{{symbol: bench_work, max_flash_bytes: {work}}}, "
                           f"{{section: .bss, max_ram_bytes: {bss}, max_flash_bytes: 0}}]")
    rc, out, err = run(BENCHRACK, ["check", exact] + base)
    c.check(rc == 0, f"exact sizes pass: exit {rc} ({out[-300:]!r} {err[-300:]!r})")

    less = suite("less", f"[{{symbol: bench_work, max_flash_bytes: {work - 1}}}]")
    rc, out, err = run(BENCHRACK, ["check", less] + base)
    text = out + err
    c.check(rc == 1 and f"symbol bench_work flash bytes {work} exceeds budget "
            f"max_flash_bytes {work - 1}" in text,
            f"a symbol one byte over fails: exit {rc} ({text[-400:]!r})")

    tight = suite("tight", f"[{{section: .bss, max_ram_bytes: {bss - 1}}}]")
    rc, out, err = run(BENCHRACK, ["check", tight] + base)
    text = out + err
    c.check(rc == 1 and f"section .bss RAM bytes {bss} exceeds budget max_ram_bytes {bss - 1}"
            in text, f"a section one byte over fails: exit {rc} ({text[-400:]!r})")

    missing = suite("missing", "[{symbol: no_such_symbol, max_flash_bytes: 100}]")
    rc, out, err = run(BENCHRACK, ["check", missing] + base)
    text = out + err
    c.check(rc == 1 and "no_such_symbol" in text and "not in the firmware" in text,
            f"a symbol the firmware lacks fails: exit {rc} ({text[-400:]!r})")

    rc, out, err = run(BENCHRACK, ["run", tight] + base)
    c.check(rc == 0, f"run (not check) does not gate: exit {rc}")

    bad = {
        "both": ("[{symbol: a, section: .bss, max_ram_bytes: 1}]",
                 ":6:37: a size budget names both a symbol and a section"),
        "neither": ("[{max_ram_bytes: 1}]", ":6:16: a size budget names neither"),
        "nolimit": ("[{symbol: a}]", ":6:25: size budget of 'a' sets no limit"),
        "typo": ("[{symbol: a, max_ram: 1}]", ":6:28: unknown key 'max_ram'"),
    }
    for name, (budgets, want) in bad.items():
        path = suite("bad-" + name, budgets)
        rc, out, err = run(BENCHRACK, ["check", path] + base)
        c.check(rc == 2 and (path + want) in err,
                f"{name}: exit 2 at {want} ({err.strip()!r})")

sys.exit(c.finish())
