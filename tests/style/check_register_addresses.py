#!/usr/bin/env python3
"""Each ARMv7-M / ARMv8-M debug register's address is written once (issue 25),
run as a test: the addresses #defined in stub/include/benchrack/debug_regs.h
(the header the stub and the host share) are read from it, then every C file
of controller/, stub/ and benches/ is scanned, outside comments, for a number
equal to one of them; each is named (file:line) with the register's name.
Tests are not held to it: a fake server's registers are the test's own
knowledge of the manual, an oracle independent of the code under test.

usage: check_register_addresses.py SOURCE_ROOT
"""
import os
import re
import sys

from style_report import c_files, finish

ROOT = sys.argv[1]
HEADER = "stub/include/benchrack/debug_regs.h"
FOLDERS = ("controller", "stub", "benches")
# Addresses only: the system region 0xE000E000-0xE00FFFFF, not field values.
DEFINE = re.compile(r'^#define\s+(BR_\w+)\s+(0x[eE]00[0-9A-Fa-f]{5})U?\b', re.M)
COMMENT = re.compile(r'//[^\n]*|/\*.*?\*/', re.S)
NUMBER = re.compile(r'\b0x[0-9A-Fa-f]+[uUlL]*\b')


def main():
    text = open(os.path.join(ROOT, HEADER), encoding="utf-8").read()
    addresses = {int(v, 16): name for name, v in DEFINE.findall(text)}
    if not addresses:
        sys.exit(f"check_register_addresses: no register address found in {HEADER}")
    failures, checked = [], 0
    for path, rel in c_files(ROOT, FOLDERS):
        if rel == HEADER:
            continue
        checked += 1
        src = open(path, encoding="utf-8").read()
        code = COMMENT.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), src)
        for m in NUMBER.finditer(code):
            value = int(m.group(0).rstrip("uUlL"), 16)
            if value in addresses:
                line = code.count("\n", 0, m.start()) + 1
                failures.append(f"{rel}:{line}: {m.group(0)} is {addresses[value]}: "
                                f"use it from {HEADER}")
    return finish(failures, f"{checked} files checked against {len(addresses)} register "
                            f"addresses, {len(failures)} written again")


sys.exit(main())
