#!/usr/bin/env python3
"""Semihosting: tests/qemu/fw_semihost.c prints through Arm semihosting under
QEMU's -semihosting-config enable=on,target=gdb, on the build's board's
machine (tests/lib/test_board.py); every call reaches benchrack as a
File-I/O request, and `benchrack probe --run` shows the text (fd 1 on
stdout, fd 2 on stderr) and reports the firmware's exit.

usage: test_semihosting.py BENCHRACK QEMU FW_SEMIHOST_ELF
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import test_board  # noqa: E402

BENCHRACK, QEMU, ELF = sys.argv[1:4]
p = subprocess.run([BENCHRACK, "probe", "--qemu", QEMU, "--qemu-machine",
                    test_board.qemu_machine(), "--kernel", ELF, "--semihosting",
                    "--run", "10000", "--quiet"], capture_output=True, text=True, timeout=60)
print(f"on {test_board.qemu_machine()}:", "stdout:", p.stdout, "stderr:", p.stderr, sep="\n")
failures = 0
for ok, what in [
    (p.returncode == 0, f"exit 0 (got {p.returncode})"),
    ("semihosting: hello on stdout\n" in p.stdout, "SYS_WRITE to :tt (fd 1) shown on stdout"),
    ("semihosting: hello on stderr\n" in p.stderr, "SYS_WRITE0 (fd 2) shown on stderr"),
    ("exited with code 0" in p.stderr, "SYS_EXIT reported"),
]:
    print(("ok   " if ok else "FAIL ") + what)
    failures += not ok
print(f"{4 - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
