#!/usr/bin/env python3
"""Check that a firmware ELF is freestanding.

Two independent checks, both must hold:
  1. `nm -u` lists nothing: no symbol is left undefined.
  2. Every function, object and other named symbol in the ELF's symbol table
     is an identifier of this repository's own sources (the stub, the benches,
     the generated linker script): nothing came from libc, libgcc or a
     compiler helper (memcpy, memset, __aeabi_uldivmod, ...).

Comments and string literals are stripped from the sources before collecting
identifiers, so a comment that says "never memcpy" does not excuse a memcpy.
Skipped symbols: the null symbol, section and file symbols, and ARM mapping
symbols ($a, $t, $d, optionally followed by ".suffix"). GCC's clone suffixes
(name.constprop.N, name.isra.N, name.part.N, name.cold, static locals name.N)
map back to the base name.

Usage: freestanding.py --nm NM --source DIR_OR_FILE [--source ...] ELF
Exit status 0 when freestanding, 1 otherwise (with the offending symbols).
"""

import argparse
import pathlib
import re
import struct
import subprocess
import sys

SOURCE_SUFFIXES = {".c", ".h", ".S", ".s", ".ld", ".in"}

# ELF constants (System V ABI, "Object Files").
ELF_MAGIC = b"\x7fELF"
ELFCLASS32 = 1
ELFDATA2LSB = 1
SHT_SYMTAB = 2
STT_SECTION = 3
STT_FILE = 4
SYMBOL_TYPE_MASK = 0xF
ELF32_HEADER = struct.Struct("<16sHHIIIIIHHHHHH")
ELF32_SECTION = struct.Struct("<IIIIIIIIII")
ELF32_SYMBOL = struct.Struct("<IIIBBH")

MAPPING_SYMBOL = re.compile(r"^\$[atd](\..*)?$")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Comments and literals, in one pass so that "/*" inside a string is a string.
COMMENT_OR_LITERAL = re.compile(
    r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S
)


def source_files(paths):
    """Every source file under the given files or directories."""
    for path in map(pathlib.Path, paths):
        if path.is_dir():
            yield from (p for p in sorted(path.rglob("*")) if p.suffix in SOURCE_SUFFIXES)
        else:
            yield path


def source_identifiers(paths):
    """Identifiers of the sources, comments and string literals removed."""
    names = set()
    count = 0
    for path in source_files(paths):
        text = COMMENT_OR_LITERAL.sub(" ", path.read_text(encoding="utf-8"))
        names.update(IDENTIFIER.findall(text))
        count += 1
    return names, count


def elf_symbols(path):
    """(name, type, section index) of every entry of the ELF32 LE symbol table."""
    data = pathlib.Path(path).read_bytes()
    header = ELF32_HEADER.unpack_from(data, 0)
    ident = header[0]
    if ident[:4] != ELF_MAGIC or ident[4] != ELFCLASS32 or ident[5] != ELFDATA2LSB:
        raise ValueError(f"{path}: not a 32-bit little-endian ELF file")
    shoff, shentsize, shnum = header[6], header[11], header[12]
    sections = [ELF32_SECTION.unpack_from(data, shoff + i * shentsize) for i in range(shnum)]
    symtabs = [s for s in sections if s[1] == SHT_SYMTAB]
    if len(symtabs) != 1:
        raise ValueError(f"{path}: expected one symbol table, found {len(symtabs)}")
    symtab = symtabs[0]
    offset, size, link, entsize = symtab[4], symtab[5], symtab[6], symtab[9]
    strtab_offset = sections[link][4]
    symbols = []
    for entry in range(offset, offset + size, entsize):
        name_offset, _value, _size, info, _other, shndx = ELF32_SYMBOL.unpack_from(data, entry)
        end = data.index(b"\0", strtab_offset + name_offset)
        name = data[strtab_offset + name_offset:end].decode("ascii")
        symbols.append((name, info & SYMBOL_TYPE_MASK, shndx))
    return symbols


def base_name(name):
    """The source-level name of a symbol: GCC's suffixes after the first dot removed."""
    return name.split(".", 1)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--nm", required=True, help="the cross nm")
    parser.add_argument("--source", action="append", required=True,
                        help="a source directory or file whose identifiers may be symbols "
                             "(repeatable)")
    parser.add_argument("elf")
    args = parser.parse_args()

    failures = []

    undefined = subprocess.run([args.nm, "-u", args.elf], check=True,
                               capture_output=True, text=True).stdout.split()
    print(f"{args.elf}: nm -u lists {len(undefined)} symbol(s)")
    if undefined:
        failures.append("undefined symbols (nm -u): " + " ".join(undefined))

    identifiers, file_count = source_identifiers(args.source)
    print(f"identifiers collected from {file_count} source file(s): {len(identifiers)}")

    checked = []
    foreign = []
    for name, symbol_type, _shndx in elf_symbols(args.elf):
        if not name or symbol_type in (STT_SECTION, STT_FILE) or MAPPING_SYMBOL.match(name):
            continue
        checked.append(name)
        if base_name(name) not in identifiers:
            foreign.append(name)
    print(f"symbols checked: {len(checked)}: {' '.join(sorted(checked))}")
    if not checked:
        failures.append("no symbol checked: stripped ELF or unreadable symbol table")
    if foreign:
        failures.append("symbols not defined by this repository's sources: " + " ".join(foreign))

    for failure in failures:
        print("FAIL: " + failure)
    if not failures:
        print("OK: freestanding")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
