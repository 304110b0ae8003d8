#!/usr/bin/env python3
"""Stack high-water marks, both ways DESIGN.md describes, on the build's QEMU
board (`--board NAME`, tests/lib/test_board.py):
- unmodified firmware (the host paints): --function recursion_descend on the
  plain image, whose loop calls it at depths 1, 2, ... 8 from reset; the
  watermark of depth d+1 exceeds depth d's by exactly the function's frame,
  read from its disassembly (push and sub sp in its prologue), and its count
  grows by a constant too;
- stub benches (the stub paints): bench recursion at depths 3..8 grows by
  the same frame per level (the stub's figure covers the whole bench call:
  at -O0 its set-up calls are deeper than one or two levels);
- overflow: a region too small for the deeper calls (--stack-region) and a
  bench recursing past the stub's region both report "not measured", never
  a number, and still exit 0 (the counts are measured).

usage: test_measure_stack.py BENCHRACK OBJDUMP PLAIN_ELF SUITE_ELF
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from elfpatch import Elf32  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, OBJDUMP, PLAIN, SUITE = sys.argv[1:5]
DEPTHS = 8                 # PLAIN_DEPTH_MAX in benches/plain/plain.h
# From depth 3 on the recursion is the deepest thing the bench does (at -O0
# its set-up calls reach deeper than one or two levels of it).
STUB_DEPTHS = range(3, 9)
OVERFLOW_CAP = 2000        # within RECURSION_MAX_DEPTH (benches/recursion.c)
SMALL_REGION = 160         # bytes: room for a shallow call and the 64-byte overflow band, not for depth 8
BOARD = ("--board", test_board.NAME)
c = Checks()


def differences(values):
    return [b - a for a, b in zip(values, values[1:])]


# Host paint, the whole region from the ELF's linker symbols.
frame = disasm.frame_bytes(OBJDUMP, PLAIN, "recursion_descend")
rc, out, err, res = measure(BENCHRACK, PLAIN, *BOARD, "--function", "recursion_descend", "-n",
                            str(DEPTHS), "-w", "0", "--stack")
c.show(out, err)
c.check(rc == 0, f"--function recursion_descend --stack exits 0 (got {rc})")
stack = res["stack"]["per_sample"] if res else []
counts = res["samples"] if res else []
c.check(len(stack) == DEPTHS and None not in stack, f"a stack figure for each depth: {stack}")
if len(stack) == DEPTHS and None not in stack:
    c.check(differences(stack) == [frame] * (DEPTHS - 1),
            f"host paint: each level adds exactly the {frame}-byte frame of the disassembly "
            f"({differences(stack)})")
    c.check(stack[0] <= frame, f"depth 1 uses at most one frame ({stack[0]} <= {frame})")
steps = differences(counts) if None not in counts else []
c.check(len(counts) == DEPTHS and len(set(steps)) == 1 and steps[0] > 0,
        f"the count grows by the same number of instructions per level: {counts}")
c.check(res is not None and res["stack"]["region_source"] == "br_ld_stack_limit..br_ld_stack_top",
        "the region comes from the ELF's linker symbols")

# Stub paint, bench recursion at several depths.
frame_suite = disasm.frame_bytes(OBJDUMP, SUITE, "recursion_descend")
stub = []
for depth in STUB_DEPTHS:
    rc, out, err, res = measure(BENCHRACK, SUITE, *BOARD, "--bench", "recursion", "--arg", str(depth),
                                "-n", "5")
    if not c.check(rc == 0, f"bench recursion --arg {depth} exits 0 (got {rc})"):
        c.show(out, err)
    stub.append(res["stack"]["bytes"] if res and res["stack"]["measured"] else None)
c.check(None not in stub and differences(stub) == [frame_suite] * (len(stub) - 1),
        f"stub paint: each level adds exactly the {frame_suite}-byte frame ({stub})")

# Overflow, stub: the bench recursed below the painted region, by half the
# free RAM under it at most (the board's RAM may be small: 16 KiB on the
# micro:bit, whose frames past the region must stay clear of .bss).
image = Elf32(SUITE)
stack_limit, _ = image.symbol("br_ld_stack_limit")
stack_top, _ = image.symbol("br_ld_stack_top")
bss_end, _ = image.symbol("br_ld_bss_end")
OVERFLOW_DEPTH = min(OVERFLOW_CAP,
                     (stack_top - stack_limit + (stack_limit - bss_end) // 2) // frame_suite)
print(f"overflow depth {OVERFLOW_DEPTH}: {frame_suite}-byte frames, region "
      f"{stack_top - stack_limit} bytes, {stack_limit - bss_end} free under it")
rc, out, err, res = measure(BENCHRACK, SUITE, *BOARD, "--bench", "recursion", "--arg",
                            str(OVERFLOW_DEPTH), "-n", "2")
c.show(out, err)
c.check(rc == 0, f"an overflowing bench still exits 0: its count is measured (got {rc})")
c.check(res is not None and not res["stack"]["measured"] and res["stack"]["bytes"] is None,
        "stub overflow: stack not measured, no number")
c.check("stack: not measured" in out, "the report says the stack was not measured")

# Overflow, host paint: a region too small for the deeper calls.
top, _ = Elf32(PLAIN).symbol("br_ld_stack_top")
region = f"{top - SMALL_REGION:#x}:{SMALL_REGION}"
rc, out, err, res = measure(BENCHRACK, PLAIN, *BOARD, "--function", "recursion_descend", "-n",
                            str(DEPTHS), "-w", "0", "--stack-region", region)
c.show(out, err)
c.check(rc == 0, f"--stack-region {region} exits 0 (got {rc})")
small = res["stack"]["per_sample"] if res else []
c.check(len(small) == DEPTHS and small[0] is not None and small[0] == stack[0],
        f"depth 1 fits the small region and measures the same ({small[:1]})")
c.check(len(small) == DEPTHS and small[-1] is None,
        f"depth {DEPTHS} overflows it: not measured, no number ({small})")
c.check("overflowed the painted region" in out, "the report says why")

sys.exit(c.finish())
