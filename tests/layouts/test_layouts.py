#!/usr/bin/env python3
"""The corpus of vendor-style linker scripts (tests/layouts/README.md), each
linking the same plain firmware (its own vector table and start-up, no stub),
measured on QEMU netduinoplus2 exactly, as `benchrack measure` with the
board's memory map (--board) and without it (QEMU's default machine):
- --function layout_fixed: every sample is the function's instruction count
  from its disassembly (arm-none-eabi-objdump), return included;
- --from layout_fixed --to layout_other: that count plus main's instructions
  from the call's return up to and including the call of layout_other;
- the segment facts each script is here for, read with readelf: the
  STM32Cube image's flash segment is writable and no flash segment is
  read-only (the image issue 23 found refused: "no read-only loadable
  segment"), the MCUXpresso-like one has a RAM segment with p_filesz <
  p_memsz, the nRF-like one's application vector table is not at the start
  of flash (a boot region is);
- a region run once, then the core parked in an endless loop: default flags
  give the one exact sample and end when the core is found idle, well within
  the 10 s timeout, saying so.

usage: test_layouts.py BENCHRACK OBJDUMP READELF NAME=ELF...
"""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402

BENCHRACK, OBJDUMP, READELF = sys.argv[1:4]
IMAGES = dict(arg.split("=", 1) for arg in sys.argv[4:])
FLASH = (0x08000000, 0x08100000)
N = "5"
c = Checks()


def load_segments(elf):
    """[(vaddr, paddr, filesz, memsz, flags)] of the PT_LOAD segments."""
    out = subprocess.run([READELF, "-lW", elf], check=True, capture_output=True,
                         text=True).stdout
    segs = []
    for m in re.finditer(r"^\s+LOAD\s+0x[0-9a-f]+ 0x([0-9a-f]+) 0x([0-9a-f]+) 0x([0-9a-f]+) "
                         r"0x([0-9a-f]+) ([RWE ]+?)\s+0x", out, re.M):
        segs.append((int(m.group(1), 16), int(m.group(2), 16), int(m.group(3), 16),
                     int(m.group(4), 16), m.group(5).replace(" ", "")))
    return segs


def in_flash(seg):
    return FLASH[0] <= seg[0] < FLASH[1]


def range_cost(elf):
    """layout_fixed's instructions, then main's up to its call of layout_other."""
    return disasm.range_through_call(OBJDUMP, elf, "main", "layout_fixed", "layout_other")


def samples_of(res):
    return res.get("samples") if res else None


for name, elf in sorted(IMAGES.items()):
    if name.endswith(("-fault", "-once")):
        continue
    segs = load_segments(elf)
    print(f"{name}: {[(hex(s[0]), hex(s[2]), hex(s[3]), s[4]) for s in segs]}")
    if name == "stm32cube":
        flash = [s for s in segs if in_flash(s)]
        c.check(any("W" in s[4] for s in flash) and all("W" in s[4] for s in flash),
                "stm32cube: its flash segment is writable, none is read-only")
    if name == "mcuxpresso_like":
        c.check(any(s[2] < s[3] and not in_flash(s) for s in segs),
                "mcuxpresso_like: a RAM segment with p_filesz < p_memsz")
    if name == "nrf_like":
        vectors = int(subprocess.run([OBJDUMP, "-t", elf], check=True, capture_output=True,
                                     text=True).stdout.split("layout_vectors")[0]
                      .splitlines()[-1].split()[0], 16)
        c.check(vectors != FLASH[0] and any(s[0] == FLASH[0] for s in segs),
                f"nrf_like: the application's vector table is at {vectors:#x}, "
                "a boot region at the start of flash")
    fixed = disasm.straight_line_cost(OBJDUMP, elf, "layout_fixed")
    between = range_cost(elf)
    for board in (["--board", "qemu-netduinoplus2"], []):
        how = "board map" if board else "no map"
        rc, out, err, res = measure(BENCHRACK, elf, *board, "--function", "layout_fixed",
                                    "-n", N)
        if not c.check(rc == 0 and samples_of(res) == [fixed] * int(N),
                       f"{name} ({how}): --function layout_fixed = {fixed} x{N} "
                       f"(got {rc}, {samples_of(res)})"):
            c.show(out, err)
        rc, out, err, res = measure(BENCHRACK, elf, *board, "--from", "layout_fixed",
                                    "--to", "layout_other", "-n", N)
        if not c.check(rc == 0 and samples_of(res) == [between] * int(N),
                       f"{name} ({how}): --from layout_fixed --to layout_other = {between} "
                       f"x{N} (got {rc}, {samples_of(res)})"):
            c.show(out, err)
# A region run once, then the core idles (`for (;;) {}`): default flags end
# when the core is found parked, without waiting out the 10 s timeout.
once = IMAGES.get("mcuxpresso_like-once")
if once:
    fixed = disasm.straight_line_cost(OBJDUMP, once, "layout_fixed")
    start = time.monotonic()
    rc, out, err, res = measure(BENCHRACK, once, "--function", "layout_fixed")
    took = time.monotonic() - start
    c.check(rc == 0 and samples_of(res) == [fixed],
            f"once: default flags measure the one call exactly ({fixed}): {rc}, "
            f"{samples_of(res)}")
    c.check(re.search(r"ran 1 of 100 times in [0-9.]+ s: the start was not reached again, "
                      r"and the core idles in an endless loop at 0x[0-9a-f]{8} \(main\+0x",
                      out) is not None,
            "once: says it stopped waiting because the core idles in main's endless loop")
    # waiting the timeout out takes at least its 10 s: anything less shows
    # it was not waited for, on a host however loaded (5 s did not say more)
    c.check(took < 10.0, f"once: over in {took:.2f} s, not the 10 s timeout")
    if rc != 0 or took >= 10.0:
        c.show(out, err)
sys.exit(c.finish())
