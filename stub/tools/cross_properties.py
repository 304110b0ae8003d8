#!/usr/bin/env python3
"""Print what stub/meson.build needs from a Meson cross file of configs/cross/.

A build is configured with one cross file, but builds the images of every
board of configs/cross/ (the per-core matrix): Meson reads only its own cross
file, so this reads the others. Output, one `key<TAB>value` per line:
  arch<TAB>-mcpu=... -mthumb ...   the [constants] `arch` list, space-separated
  cpu<TAB>cortex-m0                [host_machine] cpu
  KEY<TAB>VALUE                    every string of [properties]
A key missing from the file is an error of stub/meson.build (it asks for it).

Usage: cross_properties.py CROSS_FILE
Exit status 0, or 2 with "file: what is wrong" on stderr.
"""

import ast
import configparser
import sys


def main(argv):
    if len(argv) != 2:
        print("usage: cross_properties.py CROSS_FILE", file=sys.stderr)
        return 2
    path = argv[1]
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
        return 2
    if not isinstance(arch, list) or not all(isinstance(a, str) for a in arch):
        print(f"{path}: [constants] arch is not a list of strings", file=sys.stderr)
        return 2
    print("arch\t" + " ".join(arch))
    print(f"cpu\t{cpu}")
    for key, value in properties.items():
        if isinstance(value, str):
            print(f"{key}\t{value}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
