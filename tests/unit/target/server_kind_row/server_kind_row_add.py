#!/usr/bin/env python3
"""Writes debug/server_kind_table.h with one kind more: what a person adds.

usage: server_kind_row_add.py TABLE_H OUT_H

The output is the committed table with the new kind's builder declared
after the last declaration and its row after the last row, nothing else
changed; test_server_kind_row.c is built against it (its folder first on the
include path), with the builder's own file, server_fakesrv.c, to show that a
row and a builder are all a new launched kind needs to be named by a board
file, launched, waited for, attached through and stopped.
"""
import sys

DECLARATION = "br_server_cmdline_fn br_server_cmdline_fakesrv;\n"
ROW = ('\tX(FAKESRV, "fakesrv", .reach = BR_SERVER_REACH_LAUNCH, '
       '.flavour = BR_FLAVOUR_GENERIC_NAME, .title = "fake server", '
       '.program = "benchrack-fake-server", .install = "build tests/unit/target", '
       '.cmdline = br_server_cmdline_fakesrv, '
       '.keys = {{.name = "log", .required = true, .flag = "--log", '
       '.form = "a file the server writes every packet it gets to"}})\n')
START = "/* clang-format off */"
END = "/* clang-format on */"

text = open(sys.argv[1], encoding="utf-8").read()
head, sep, rows = text.partition(START)
if not sep:
    sys.exit(f"server_kind_row_add: no '{START}' before the rows in {sys.argv[1]}")
rows_head, sep, tail = rows.partition("\n" + END)
if not sep or not rows_head.rstrip().endswith(")"):
    sys.exit(f"server_kind_row_add: no '{END}' after the last row in {sys.argv[1]}")
out = head + DECLARATION + "\n" + START + rows_head.rstrip() + " \\\n" + ROW + END + tail
open(sys.argv[2], "w", encoding="utf-8").write(out)
