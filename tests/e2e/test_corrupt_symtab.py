#!/usr/bin/env python3
"""A corrupt symbol table is reported as such (issue 31, NU): the plain
firmware with its .symtab's sh_link pointed at a section that is not a
string table (before, every lookup said "symbol 'plain_fixed' not found:
check the spelling"), and with the table's size cut to a part of an entry
(libelf refuses that one itself: pinned here).

usage: test_corrupt_symtab.py BENCHRACK PLAIN_ELF
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from gate_lib import Checker  # noqa: E402

BENCHRACK, PLAIN = (os.path.abspath(a) for a in sys.argv[1:3])
SHT_SYMTAB = 2
c = Checker()


def patched(path, field_offset, value):
    """A copy of PLAIN with the 32-bit field at field_offset of its .symtab's
    section header set to value (ELF32 little-endian)."""
    b = bytearray(open(PLAIN, "rb").read())
    shoff, = struct.unpack_from("<I", b, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", b, 0x2e)
    for i in range(shnum):
        off = shoff + i * shentsize
        if struct.unpack_from("<I", b, off + 4)[0] == SHT_SYMTAB:
            struct.pack_into("<I", b, off + field_offset, value)
    with open(path, "wb") as f:
        f.write(bytes(b))
    return path


def main():
    tmp = tempfile.mkdtemp(prefix="benchrack-symtab-")
    try:
        cases = [
            ("sh_link to a section that is not a string table",
             patched(os.path.join(tmp, "link.elf"), 24, 1), "is not a string table"),
            ("a size that is not whole entries",
             patched(os.path.join(tmp, "size.elf"), 20, 17), "symbol table"),
        ]
        for label, elf, words in cases:
            p = subprocess.run([BENCHRACK, "measure", elf, "--function", "plain_fixed", "-n", "2"],
                               capture_output=True, text=True, timeout=60)
            c.check(p.returncode == 2, f"{label}: exit 2 ({p.returncode})", p.stderr)
            c.check("corrupt ELF" in p.stderr and words in p.stderr and elf in p.stderr,
                    f"{label}: says the symbol table is corrupt", p.stderr)
            c.check("not found" not in p.stderr, f"{label}: never 'not found'", p.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
