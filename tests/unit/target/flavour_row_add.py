#!/usr/bin/env python3
"""Writes debug/flavour_table.h with one row more: the row a person adds.

usage: flavour_row_add.py TABLE_H OUT_H

The output is the committed table, its last row followed by the row below,
nothing else changed; tests/unit/target/test_flavour_row.c is built against
it (its folder first on the include path) to show that one row is all a new
gdbserver flavour needs to be named by a board file and attached through.
"""
import sys

ROW = ('\tX(FAKESRV, "fakesrv", "a server added by one row", .reset_command = "fake-reset", '
       '.reset_halt_command = "fake-reset", .scan_command = "fake-scan", .max_read_bytes = 0x10U, '
       '.writes_peripherals = true, .xpsr_regnum = 16U)\n')
END = "/* clang-format on */"

text = open(sys.argv[1], encoding="utf-8").read()
head, sep, tail = text.partition("\n" + END)
if not sep or not head.rstrip().endswith(")"):
    sys.exit(f"flavour_row_add: no '{END}' after the last row in {sys.argv[1]}")
open(sys.argv[2], "w", encoding="utf-8").write(head.rstrip() + " \\\n" + ROW + END + tail)
