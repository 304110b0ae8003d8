#!/usr/bin/env python3
"""An image linked for another board is refused before it runs (issue 29):
`benchrack measure --board BOARD` of an ELF whose loadable bytes lie
outside BOARD's memory regions exits 2, naming the image, its addresses and
that it was linked for another board, with no figure — where before the
machine locked up at reset and QEMU's register dump was the message.

usage: test_wrong_board.py BENCHRACK ELF BOARD
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import Checks, measure  # noqa: E402

BENCHRACK, ELF, BOARD = sys.argv[1:4]
c = Checks()
rc, out, err, res = measure(BENCHRACK, ELF, "--board", BOARD, "--function", "work", "-n", "1",
                            timeout=50)
c.show(out, err)
c.check(rc == 2, f"exit {rc} == 2")
c.check(re.search(r"load address 0x08000000, \d+ bytes.* is outside the board's memory "
                  r"\(flash 0x00000000\.\.0x0003ffff", err)
        is not None and "linked for another board" in err and ELF in err,
        "the message names the image, its addresses and that it is for another board")
c.check("Lockup" not in err, "the machine never ran")
c.check(re.search(r"^(raw|net)\s", out, re.M) is None, "no figure printed")
sys.exit(c.finish())
