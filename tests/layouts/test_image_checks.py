#!/usr/bin/env python3
"""Checks before the board starts (issue 23, issue 31 NX1), on copies of the
MCUXpresso-like plain firmware with one field changed (an image the code
before these checks measured):
- a segment moved to 0xE000ED00 (the System Control Block): `benchrack
  measure --board FILE` on a QEMU reached as a remote gdbserver with `load:
  always` exits 2 naming the segment and the board's regions, and the fault
  proxy in front of the server counts no write packet (M, X, vFlashWrite);
  the unchanged image through the same proxy is written (the count works)
  and measured; the launched board (--board qemu-netduinoplus2) refuses the
  same image with the same words;
- a vector table whose initial SP is outside RAM (the words of a build-id
  note that ld put before the vector table): exit 2 naming the
  SP and the regions, with the board's map; without a map (QEMU's default machine)
  QEMU runs it, locks up and dies: the message quotes its own "qemu: fatal:"
  line, not the register dump after it.

usage: test_image_checks.py BENCHRACK QEMU MCUXPRESSO_LIKE_ELF
"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "proxy"))
from faultproxy import Proxy  # noqa: E402
from measure_cli import Checks  # noqa: E402
from qemu_gdbstub import remote_board_yaml, start_qemu  # noqa: E402

BENCHRACK, QEMU, ELF = sys.argv[1:4]
WORK = tempfile.mkdtemp(prefix="benchrack-image-checks-")
REGIONS = "flash 0x08000000..0x080fffff, ram 0x20000000..0x2001ffff"
SCB = 0xE000ED00
c = Checks()


def program_headers(data):
    phoff, = struct.unpack_from("<I", data, 0x1C)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x2A)
    return [phoff + i * phentsize for i in range(phnum)]


def patched(name, edit):
    data = bytearray(open(ELF, "rb").read())
    edit(data)
    path = os.path.join(WORK, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def move_data_to_scb(data):
    """The first RAM segment with bytes (.data) loaded and run at the SCB."""
    for off in program_headers(data):
        ptype, _, vaddr, paddr, filesz = struct.unpack_from("<IIIII", data, off)
        if ptype == 1 and filesz > 0 and vaddr >= 0x20000000:
            struct.pack_into("<II", data, off + 8, SCB, SCB)
            return
    raise AssertionError("no RAM segment with bytes")


def vector_table(*words):
    """An edit setting the first words of the vector table (the first flash
    segment's first bytes)."""
    def edit(data):
        for off in program_headers(data):
            ptype, offset, vaddr = struct.unpack_from("<III", data, off)
            if ptype == 1 and vaddr == 0x08000000:
                struct.pack_into(f"<{len(words)}I", data, offset, *words)
                return
        raise AssertionError("no segment at the flash origin")
    return edit


def benchrack(*args):
    p = subprocess.run([BENCHRACK, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def remote_measure(elf, name):
    """(exit code, stderr, write packets) of measure through a counting proxy."""
    q, port = start_qemu(QEMU, ELF)
    try:
        proxy = Proxy(port, "pass")
        board = os.path.join(WORK, name + ".yaml")
        with open(board, "w") as f:
            f.write(remote_board_yaml(name, proxy.port, "always"))
        rc, out, err = benchrack("measure", elf, "--board", board, "--function",
                                 "layout_fixed", "-n", "3")
        proxy.close()
        return rc, out + err, proxy.writes
    finally:
        q.kill()
        q.wait()


scb = patched("scb.elf", move_data_to_scb)
rc, text, writes = remote_measure(scb, "remote-scb")
c.show(text)
c.check(rc == 2, f"segment at the SCB: exit {rc} == 2")
c.check("loadable segment 1" in text and "0xe000ed00" in text and REGIONS in text,
        "the message names the segment, its address and the board's regions")
c.check(writes == 0, f"no write packet was sent ({writes})")
rc, text, writes = remote_measure(ELF, "remote-ok")
c.check(rc == 0 and writes > 0,
        f"the unchanged image through the same proxy: exit {rc} == 0, {writes} write packets")
rc, out, err = benchrack("measure", scb, "--board", "qemu-netduinoplus2", "--function",
                         "layout_fixed")
c.check(rc == 2 and "loadable segment 1" in err and REGIONS in err,
        f"the launched board refuses it too: exit {rc} == 2", )

# The words of a build-id note put first in flash (namesz 4, descsz 20, type
# 3, "GNU"): what the vendor scripts of tests/layouts/ give without their
# note placement. SP 4, reset 0x14, HardFault 0x554e47: QEMU locks up.
sp = patched("sp.elf", vector_table(0x4, 0x14, 0x3, 0x00554E47))
rc, out, err = benchrack("measure", sp, "--board", "qemu-netduinoplus2", "--function",
                         "layout_fixed")
c.show(err)
c.check(rc == 2 and "initial SP of 0x00000004" in err and REGIONS in err,
        f"an initial SP outside RAM: exit {rc} == 2, naming the SP and the regions")
rc, out, err = benchrack("measure", sp, "--function", "layout_fixed", "--timeout", "5")
c.show(err)
c.check(rc == 3 and "qemu: fatal: Lockup" in err and "R00=" not in err,
        f"without a map QEMU locks up: exit {rc} == 3 quoting its fatal line, no register dump")
sys.exit(c.finish())
