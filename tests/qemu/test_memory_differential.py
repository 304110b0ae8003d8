#!/usr/bin/env python3
"""Differential memory read: gdb-multiarch and benchrack read the same QEMU.

QEMU (the build's board's machine, tests/lib/test_board.py: its flash and
RAM) runs tests/qemu/fw_loop.c, halted by gdb at br_loop_marker_b (so RAM is
initialised); gdb dumps a table of regions and disconnects (the core stays
halted), then `benchrack probe --remote ... --dump` reads the same regions
from the same QEMU. Lengths cross QEMU's m cap (0x800 bytes) and its
PacketSize (4096 characters), start unaligned, and include bytes that must be
escaped in binary packets ('}', '#', '$'). On the STM32 machines (the
netduinos) a peripheral's registers too (USART1, whose status register
QEMU's STM32 model resets to 0xC0 on the F205 and the F405 alike); the
other machines have no peripheral this test knows, and it says so.

usage: test_memory_differential.py BENCHRACK GDB QEMU FW_LOOP_ELF
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from elfpatch import Elf32  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, GDB, QEMU, ELF = sys.argv[1:5]
pattern, _ = Elf32(ELF).symbol("br_loop_pattern")
count, _ = Elf32(ELF).symbol("br_loop_count")
FLASH, _ = test_board.flash()
RAM, RAM_BYTES = test_board.memory()
MACHINE = test_board.qemu_machine()
STM32_USART1 = 0x40011000  # RM0033 / RM0090 memory maps: the netduinos' STM32F2/F4
TABLE = [
    (pattern, 6000), (pattern + 1, 2047), (pattern, 0x800), (pattern, 0x801),
    (pattern + 3, 4093), (pattern + 4090, 12), (FLASH, 1), (FLASH, 4096 + 5),
    (count, 11), (RAM, 64), (RAM + RAM_BYTES - 8192, 8192),
    (0xE000ED00, 4),  # the SCB's CPUID: every Cortex-M
]
if MACHINE.startswith("netduino"):
    TABLE.append((STM32_USART1, 0x1C))
else:
    print(f"{MACHINE}: no peripheral read (STM32's USART1 is the one this test knows; "
          f"{MACHINE} is no STM32)")


qemu, port = start_qemu(QEMU, ELF, machine=MACHINE)
failures = 0
try:
    with tempfile.TemporaryDirectory() as tmp:
        lines = ["set pagination off", "set confirm off",
                 f"target remote 127.0.0.1:{port}", "break br_loop_marker_b", "continue",
                 "delete"]
        for i, (addr, n) in enumerate(TABLE):
            lines.append(f"dump binary memory {tmp}/r{i} {addr:#x} {addr + n:#x}")
        lines.append("disconnect")
        script = os.path.join(tmp, "dump.gdb")
        with open(script, "w") as f:
            f.write("\n".join(lines) + "\n")
        g = subprocess.run([GDB, "-nx", "-batch", "-x", script, ELF], capture_output=True,
                           text=True, timeout=60)
        oracle = []
        for i in range(len(TABLE)):
            path = os.path.join(tmp, f"r{i}")
            if not os.path.exists(path):
                print(g.stdout, g.stderr)
                sys.exit(f"gdb did not dump region {i}")
            with open(path, "rb") as f:
                oracle.append(f.read())

        args = [BENCHRACK, "probe", "--remote", f"127.0.0.1:{port}", "--flavour", "qemu",
                "--quiet"]
        for addr, n in TABLE:
            args += ["--dump", f"{addr:#x}:{n}"]
        p = subprocess.run(args, capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            print(p.stdout, p.stderr)
            sys.exit(f"benchrack probe exited {p.returncode}")
        got = {}
        for line in p.stdout.splitlines():
            m = re.match(r"([0-9a-f]{8}):((?: [0-9a-f]{2})+)$", line)
            if m:
                base = int(m.group(1), 16)
                for k, byte in enumerate(m.group(2).split()):
                    got[base + k] = int(byte, 16)
        for (addr, n), want in zip(TABLE, oracle):
            complete = all(addr + k in got for k in range(n))
            mine = bytes(got[addr + k] for k in range(n)) if complete else b""
            ok = complete and mine == want and len(want) == n
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {addr:#010x} +{n:<5} "
                  f"{'equal' if ok else 'differs'} (gdb {len(want)} bytes)")
finally:
    qemu.kill()
    qemu.wait()
print(f"{len(TABLE) - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
