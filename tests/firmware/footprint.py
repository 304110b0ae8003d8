#!/usr/bin/env python3
"""The stub's footprint: what the empty image costs in flash and in RAM.

For each empty image given (bench-empty-O<level>.elf: the stub and an empty
bench, built at every optimisation level, and for every core that is built),
reads the section headers (`objdump -h`) and checks:
  - flash, everything the image stores in flash — every section with file
    contents that is loaded (CONTENTS, ALLOC, LOAD: the vector table, code,
    read-only data, the build-id note and .data's load image) — fits
    FLASH_BUDGET bytes, at the levels of FLASH_LEVELS (-O2 and -Os; the others
    are printed);
  - RAM of the stub, every writable allocated section (.data, .bss) except
    the sample buffer (.br_samples), fits RAM_BUDGET bytes, at every level;
  - the sample buffer is exactly br_ld_sample_count samples of 4 bytes;
  - .data is empty: nothing is copied from flash to RAM at reset;
  - the host's marker (br_host_sync, section .br_host_sync) is the only code
    on its 1 KiB page (QEMU re-translates a page's code at every breakpoint
    change on it: see stub/link.ld.in); the flash gap its alignment leaves
    is printed, since no section holds it.
The stack is not counted: its region belongs to the firmware's linker script.

With --benchrack and --suite SUITE_ELF (repeatable): `benchrack measure
SUITE_ELF --sizes --json` reports, under "footprint", the same figures as
objdump gives here for the whole image, for the stub (the empty bench's image
beside the suite) and, for each bench, its image beside the suite less the
empty one.

Usage: footprint.py --objdump OBJDUMP [--benchrack B --suite SUITE_ELF...]
                    EMPTY_ELF...
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from objdump_symbols import finish, symbol_value  # noqa: E402

FLASH_BUDGET = 640       # bytes, vectors included
FLASH_LEVELS = ("2", "s")
RAM_BUDGET = 128         # bytes, the sample buffer excluded
SAMPLE_BYTES = 4
SAMPLE_SECTION = ".br_samples"

# objdump -h: "  1 .text  000001a0  08000040  08000040  00001040  2**2", then the flags.
SECTION = re.compile(r"^\s*\d+\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s")
LEVEL = re.compile(r"-O([0-3sgz]|fast)(?:-[\w.+-]+)?\.elf$")  # -O<level>[-<board>].elf


def sections(objdump, elf):
    """[(name, size, flags)] of elf's section headers."""
    lines = subprocess.run([objdump, "-h", elf], check=True, capture_output=True,
                           text=True).stdout.splitlines()
    found = []
    for i, line in enumerate(lines):
        match = SECTION.match(line)
        if match and i + 1 < len(lines):
            flags = {f.strip() for f in lines[i + 1].split(",")}
            found.append((match.group(1), int(match.group(2), 16), flags))
    return found


MARKER_SECTION = ".br_host_sync"
MARKER_PAGE = 1024


def marker_page(objdump, elf):
    """(problems, gap bytes): the code sections other than the marker's that
    share its page, and the gap between the section before it and it."""
    lines = subprocess.run([objdump, "-h", elf], check=True, capture_output=True,
                           text=True).stdout.splitlines()
    code, marker, ends = [], None, []
    for i, line in enumerate(lines):
        match = SECTION.match(line)
        if not match or i + 1 >= len(lines):
            continue
        name, size, vma = match.group(1), int(match.group(2), 16), int(match.group(3), 16)
        flags = {f.strip() for f in lines[i + 1].split(",")}
        if "CODE" in flags:
            code.append((name, vma, size))
        if name == MARKER_SECTION:
            marker = vma
        elif "LOAD" in flags and "READONLY" in flags:
            ends.append(vma + size)
    if marker is None:
        return [f"{elf}: no {MARKER_SECTION} section"], 0
    page = marker - marker % MARKER_PAGE
    problems = [f"{elf}: {name} (0x{vma:x}, {size} bytes) shares the marker's page 0x{page:x}"
                for name, vma, size in code
                if name != MARKER_SECTION and size and vma < page + MARKER_PAGE
                and vma + size > page]
    before = [e for e in ends if e <= marker]
    return problems, (marker - max(before)) if before else 0


def footprint(objdump, elf):
    """(flash sections, RAM sections, sample buffer bytes, .data bytes) of elf:
    the sections as [(name, size)]."""
    found = sections(objdump, elf)
    flash = [(n, s) for n, s, f in found if {"CONTENTS", "ALLOC", "LOAD"} <= f]
    ram = [(n, s) for n, s, f in found
           if "ALLOC" in f and "READONLY" not in f and n != SAMPLE_SECTION]
    buffer = sum(s for n, s, _ in found if n == SAMPLE_SECTION)
    data = sum(s for n, s, _ in found if n == ".data")
    return flash, ram, buffer, data


def totals(objdump, elf):
    """{"flash", "ram", "samples"} of elf, as objdump's section headers give them."""
    flash, ram, buffer, _ = footprint(objdump, elf)
    return {"flash": sum(s for _, s in flash), "ram": sum(s for _, s in ram), "samples": buffer}


def check_cli(benchrack, objdump, suite, failures):
    """Compare `benchrack measure SUITE --sizes --json` with objdump's figures."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sizes.json")
        run = subprocess.run([benchrack, "measure", suite, "--sizes", "--json", out],
                             capture_output=True, text=True, timeout=60)
        print(run.stdout + run.stderr)
        if run.returncode != 0:
            failures.append(f"benchrack measure {suite} --sizes exited {run.returncode}")
            return
        with open(out, encoding="utf-8") as f:
            got = json.load(f).get("footprint")
    if not got or not got.get("stub"):
        failures.append(f"{suite}: no footprint with the stub's figures in --json: {got}")
        return
    folder, base = os.path.split(suite)
    rest = base[len("suite-"):]
    empty = os.path.join(folder, "bench-empty-" + rest)
    stub = totals(objdump, empty)
    expected = [("image", totals(objdump, suite), got["image"]),
                ("stub", stub, {k: got["stub"][k] for k in stub})]
    for bench in got["benches"]:
        own = totals(objdump, os.path.join(folder, f"bench-{bench['name']}-{rest}"))
        expected.append((bench["name"], {k: own[k] - stub[k] for k in ("flash", "ram")},
                         {k: bench[k] for k in ("flash", "ram")}))
    for label, want, have in expected:
        if want != have:
            failures.append(f"{suite}: {label}: benchrack says {have}, objdump {want}")
    print(f"{suite}: benchrack's footprint agrees with objdump on {len(expected)} lines")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--objdump", required=True)
    parser.add_argument("--benchrack")
    parser.add_argument("--suite", action="append", default=[])
    parser.add_argument("elfs", nargs="+")
    args = parser.parse_args()

    failures = []
    for suite in args.suite:
        check_cli(args.benchrack, args.objdump, suite, failures)
    for elf in args.elfs:
        flash, ram, buffer, data = footprint(args.objdump, elf)
        flash_bytes = sum(s for _, s in flash)
        ram_bytes = sum(s for _, s in ram)
        level = LEVEL.search(elf)
        level = level.group(1) if level else "?"
        checked = level in FLASH_LEVELS
        print(f"{elf}: flash {flash_bytes} bytes ("
              + ", ".join(f"{n} {s}" for n, s in flash) + ")"
              + (f", budget {FLASH_BUDGET}" if checked else ", printed only")
              + f"; RAM {ram_bytes} bytes (" + ", ".join(f"{n} {s}" for n, s in ram)
              + f"), budget {RAM_BUDGET}; sample buffer {buffer} bytes")
        if checked and flash_bytes > FLASH_BUDGET:
            failures.append(f"{elf}: flash {flash_bytes} > {FLASH_BUDGET} bytes")
        if ram_bytes > RAM_BUDGET:
            failures.append(f"{elf}: RAM {ram_bytes} > {RAM_BUDGET} bytes")
        if data != 0:
            failures.append(f"{elf}: .data holds {data} bytes, copied from flash at reset")
        problems, gap = marker_page(args.objdump, elf)
        failures += problems
        print(f"{elf}: the marker's page holds no other code; its alignment leaves a gap of "
              f"{gap} bytes of flash before it" if not problems else "; ".join(problems))
        count = symbol_value(args.objdump, elf, "br_ld_sample_count")
        if count is None or buffer != count * SAMPLE_BYTES:
            failures.append(f"{elf}: sample buffer {buffer} bytes, br_ld_sample_count {count}")
    return finish(failures, f"{len(args.elfs)} images within the footprint")


if __name__ == "__main__":
    sys.exit(main())
