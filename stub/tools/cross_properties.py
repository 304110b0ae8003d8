#!/usr/bin/env python3
"""Print what stub/meson.build needs from a Meson cross file of configs/cross/.

A build is configured with one cross file, but builds the images of every
board of configs/cross/ (the per-core matrix): Meson reads only its own cross
file, so this reads the others. Output, one `key<TAB>value` per line:
  arch<TAB>-mcpu=... -mthumb ...   the [constants] `arch` list, space-separated
  cpu<TAB>cortex-m0                [host_machine] cpu
  KEY<TAB>VALUE                    every string of [properties]
A key missing from the file is an error of stub/meson.build (it asks for it).

With a board file of configs/boards/ as well (the per-board images: the
core's cross file gives the code generation, the board file the memory map,
so that the map has one source), the board's lines follow and win:
  flash_origin, flash_length   its first region of kind flash (the code)
  ram_origin, ram_length       its first region of kind ram (data, stack)
  stack_size                   stack.length
  counter                      counter.kind
  board, qemu_machine          name, server.machine
Lengths are passed as the board file writes them (e.g. 256K): the linker
reads the same suffixes.

Usage: cross_properties.py CROSS_FILE [BOARD_FILE]
Exit status 0, or 2 with "file: what is wrong" on stderr.
"""

import ast
import configparser
import sys


def cross_lines(path):
    """The cross file's lines, or None after saying what is wrong."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive in Meson
    try:
        with open(path, encoding="utf-8") as f:
            parser.read_file(f)
        arch = ast.literal_eval(parser["constants"]["arch"])
        cpu = ast.literal_eval(parser["host_machine"]["cpu"])
        properties = {k: ast.literal_eval(v) for k, v in parser["properties"].items()}
    except (OSError, KeyError, ValueError, SyntaxError, configparser.Error) as e:
        print(f"{path}: cannot read [constants] arch, [host_machine] cpu and [properties]: {e}", file=sys.stderr)
        return None
    if not isinstance(arch, list) or not all(isinstance(a, str) for a in arch):
        print(f"{path}: [constants] arch is not a list of strings", file=sys.stderr)
        return None
    lines = {"arch": " ".join(arch), "cpu": cpu}
    lines.update({k: v for k, v in properties.items() if isinstance(v, str)})
    return lines


def board_lines(path):
    """The board file's memory map, stack and counter, or None after saying
    what is wrong."""
    import yaml  # only here: the matrix of cross files needs no YAML

    try:
        with open(path, encoding="utf-8") as f:
            board = yaml.safe_load(f)
        regions = board["memory"]
        flash = next(r for r in regions if r["kind"] == "flash")
        ram = next(r for r in regions if r["kind"] == "ram")
        lines = {
            "flash_origin": flash["origin"], "flash_length": flash["length"],
            "ram_origin": ram["origin"], "ram_length": ram["length"],
            "stack_size": board["stack"]["length"], "counter": board["counter"]["kind"],
            "board": board["name"], "qemu_machine": board["server"]["machine"],
        }
    except (OSError, KeyError, TypeError, StopIteration, yaml.YAMLError) as e:
        print(f"{path}: cannot read name, server.machine, a flash and a ram region, "
              f"stack.length and counter.kind: {e!r}", file=sys.stderr)
        return None
    # YAML reads 0x00000000 as an integer: the linker takes hex.
    return {k: hex(v) if isinstance(v, int) else v for k, v in lines.items()}


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: cross_properties.py CROSS_FILE [BOARD_FILE]", file=sys.stderr)
        return 2
    lines = cross_lines(argv[1])
    if lines is not None and len(argv) == 3:
        board = board_lines(argv[2])
        lines = None if board is None else {**lines, **board}
    if lines is None:
        return 2
    for key, value in lines.items():
        print(f"{key}\t{value}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
