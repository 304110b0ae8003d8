#!/usr/bin/env python3
"""Print what stub/meson.build needs from a board file of configs/boards/.

The suite images of boards without a cross file of their own (the per-board
images: a core's cross file gives the code generation, the board file the
memory map) are linked from the board file's memory and stack, so that the
map has one source. Output, one `key<TAB>value` per line:
  flash_origin, flash_length   the first region of kind flash (the image's code)
  ram_origin, ram_length       the first region of kind ram (data and stack)
  stack_size                   stack.length
  counter                      counter.kind
Lengths are passed as the board file writes them (e.g. 256K): the linker
reads the same suffixes.

Usage: board_memory.py BOARD_FILE
Exit status 0, or 2 with "file: what is wrong" on stderr.
"""

import sys

import yaml


def main(argv):
    if len(argv) != 2:
        print("usage: board_memory.py BOARD_FILE", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        with open(path, encoding="utf-8") as f:
            board = yaml.safe_load(f)
        regions = board["memory"]
        flash = next(r for r in regions if r["kind"] == "flash")
        ram = next(r for r in regions if r["kind"] == "ram")
        out = {
            "flash_origin": flash["origin"], "flash_length": flash["length"],
            "ram_origin": ram["origin"], "ram_length": ram["length"],
            "stack_size": board["stack"]["length"], "counter": board["counter"]["kind"],
        }
    except (OSError, KeyError, TypeError, StopIteration, yaml.YAMLError) as e:
        print(f"{path}: cannot read a flash and a ram region, stack.length and counter.kind: "
              f"{e!r}", file=sys.stderr)
        return 2
    for key, value in out.items():
        # YAML reads 0x00000000 as an integer: the linker takes hex.
        print(f"{key}\t{hex(value) if isinstance(value, int) else value}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
