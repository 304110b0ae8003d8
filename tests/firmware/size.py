#!/usr/bin/env python3
"""Code size of the stub and of one instruction-exact bench.

Reads the per-section sizes (`size -A`) of two single-bench images built the
same way (the firmware's -O2 images): the empty bench and nop1000. Checks that
  - the empty image's .text (the stub plus an empty bench loop; the vector
    table is its own section) fits EMPTY_TEXT_BUDGET bytes, and
  - nop1000's .text exceeds empty's by NOP_COUNT 16-bit Thumb `nop`s, give or
    take SLACK bytes of alignment and register allocation.

Usage: size.py --size SIZE EMPTY_ELF NOP1000_ELF
"""

import argparse
import subprocess
import sys

EMPTY_TEXT_BUDGET = 512  # bytes: the stub must stay small
NOP_COUNT = 1000         # nops in bench_nop1000's body
THUMB_NOP_BYTES = 2      # `nop` is a 16-bit Thumb instruction (0xbf00)
SLACK = 16               # bytes nop1000's loop may differ from empty's, beyond the nops
NOT_LOADED = (".debug", ".comment", ".ARM.attributes")  # sections not in the image


def section_sizes(size_tool, elf):
    """{section name: size in bytes} from `size -A` (System V format)."""
    output = subprocess.run([size_tool, "-A", elf], check=True,
                            capture_output=True, text=True).stdout
    sizes = {}
    for line in output.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[0].startswith(".") and fields[1].isdigit():
            sizes[fields[0]] = int(fields[1])
    return sizes


def text_size(size_tool, elf):
    """Print elf's sections and return the size of its .text."""
    sizes = section_sizes(size_tool, elf)
    loaded = {name: size for name, size in sizes.items() if not name.startswith(NOT_LOADED)}
    print(f"{elf}: " + ", ".join(f"{name} {size}" for name, size in loaded.items()))
    if ".text" not in sizes:
        raise SystemExit(f"FAIL: {elf} has no .text section")
    return sizes[".text"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--size", required=True, help="the cross size tool")
    parser.add_argument("empty_elf")
    parser.add_argument("nop1000_elf")
    args = parser.parse_args()

    empty = text_size(args.size, args.empty_elf)
    nop1000 = text_size(args.size, args.nop1000_elf)
    delta = nop1000 - empty
    low = NOP_COUNT * THUMB_NOP_BYTES
    high = low + SLACK
    print(f"empty .text: {empty} bytes (budget {EMPTY_TEXT_BUDGET})")
    print(f"nop1000 .text - empty .text: {delta} bytes (expected {low}..{high})")

    failures = []
    if empty > EMPTY_TEXT_BUDGET:
        failures.append(f"empty .text {empty} exceeds the budget of {EMPTY_TEXT_BUDGET} bytes")
    if not low <= delta <= high:
        failures.append(f"nop1000 adds {delta} bytes, not {low}..{high}")
    for failure in failures:
        print("FAIL: " + failure)
    if not failures:
        print("OK: sizes")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
