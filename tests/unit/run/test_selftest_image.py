#!/usr/bin/env python3
"""The self-test's calibration image, disassembled by arm-none-eabi-objdump
(the oracle: GNU binutils' Thumb decoder, not benchrack's encoder), for
ARMv6-M (-marm -Mforce-thumb, the binary as written by test_run_selftest
with a SysTick set-up):
  - it starts with cpsid i; the set-up is ldr/ldr/ldr/bics/ldr/orrs/str per
    enable write, then b.n to the nops;
  - exactly 1000 nops from "nops" to "loop", nothing else between;
  - subs r0, #1 at loop, bne.n back to loop, b.n to itself at end;
  - each ldr's literal is a SysTick register (0xE000E010..0xE000E018).

usage: test_selftest_image.py TEST_RUN_SELFTEST OBJDUMP
"""
import os
import re
import subprocess
import sys
import tempfile

TEST, OBJDUMP = sys.argv[1:3]
failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    failures += not ok


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "image.bin")
    out = subprocess.run([TEST, path], capture_output=True, text=True).stdout
    m = re.search(r"image (0x\w+) nops (0x\w+) loop (0x\w+) end (0x\w+) enables (\d+)", out)
    check(m is not None, "the image was written")
    if m is None:
        sys.exit(1)
    base, nops, loop, end = (int(x, 16) for x in m.groups()[:4])
    enables = int(m.group(5))
    data = open(path, "rb").read()
    dis = subprocess.run([OBJDUMP, "-D", "-b", "binary", "-marm", "-Mforce-thumb",
                          f"--adjust-vma=0x{base:x}", path],
                         capture_output=True, text=True, check=True).stdout
insns = {}
for line in dis.splitlines():
    mm = re.match(r"^\s*([0-9a-f]+):\s+[0-9a-f ]+\t(\S+)\s*(.*)$", line)
    if mm:
        insns[int(mm.group(1), 16)] = (mm.group(2), mm.group(3))


def word(addr):
    return int.from_bytes(data[addr - base:addr - base + 4], "little")


check(insns.get(base, ("",))[0] == "cpsid" and insns[base][1] == "i", "cpsid i first")
setup = []
a = base + 2
for _ in range(enables * 7):
    setup.append(insns.get(a, ("?", ""))[0])
    a += 2
# seven instructions a write: ldr r0, =address; ldr r1, [r0]; ldr r2, =mask;
# bics r1, r2; ldr r2, =value; orrs r1, r2; str r1, [r0]
pattern = ["ldr", "ldr", "ldr", "bics", "ldr", "orrs", "str"] * enables
check(setup == pattern and enables > 0,
      f"the set-up is {enables} read-modify-writes: {setup}")
branch = insns.get(a, ("", ""))
check(branch[0] == "b.n" and int(branch[1].split()[0], 16) == nops,
      f"then b.n to the nops at 0x{nops:08x}: {branch}")
literals = [int(x, 16) for x in re.findall(r"@ \((0x[0-9a-f]+)\)", dis)
            if base <= int(x, 16) < nops]
regs = sorted({word(x) for i, x in enumerate(literals) if i % 3 == 0})
check(len(literals) == 3 * enables and all(0xE000E010 <= r <= 0xE000E018 for r in regs),
      f"each write's address literal is a SysTick register: {[hex(r) for r in regs]}")
between = [insns[x][0] for x in sorted(insns) if nops <= x < loop]
check(between == ["nop"] * 1000, f"1000 nops and nothing else: {len(between)}")
check(insns.get(loop) == ("subs", "r0, #1"), f"subs r0, #1 at loop: {insns.get(loop)}")
bne = insns.get(loop + 2, ("", ""))
check(bne[0] == "bne.n" and int(bne[1].split()[0], 16) == loop, f"bne.n back to loop: {bne}")
bself = insns.get(end, ("", ""))
check(end == loop + 4 and bself[0] == "b.n" and int(bself[1].split()[0], 16) == end,
      f"b.n to itself at end: {bself}")
print(f"{failures} failed")
sys.exit(1 if failures else 0)
