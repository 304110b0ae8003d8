#!/usr/bin/env python3
"""`benchrack measure ELF --sizes` on the fixture sized.elf, against GNU nm and
size run on the same file (findings of issue 12):

- aliases at one address (a strong and a weak alias of sized_add) are one
  line naming all of them, not three lines counting the bytes three times;
- data objects (a 1 KiB const table, initialised .data, zeroed .bss: issue
  30) are listed with their section and memory, largest first;
- what the lines add up to is no more than text + data + bss;
- a symbol name holding an ESC byte is printed escaped (table and JSON);
- an ELF whose section headers were cut off is refused (exit 2) naming the
  file and what to do, not reported as 0 bytes (nor, by measure, as
  "stripped?").

usage: test_sizes.py BENCHRACK SIZED_ELF NM SIZE
"""
import json
import os
import subprocess
import sys
import tempfile

BENCHRACK, ELF, NM, SIZE = sys.argv[1:5]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def sizes(path, *extra):
    p = subprocess.run([BENCHRACK, "measure", path, "--sizes", *extra], capture_output=True,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


def nm_symbols(path):
    """name -> (address, size, type letter) of every sized symbol, as nm says."""
    out = subprocess.run([NM, "-S", path], capture_output=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            syms[parts[3].decode("latin-1")] = (int(parts[0], 16), int(parts[1], 16),
                                                parts[2].decode())
    return syms


def berkeley(path):
    out = subprocess.run([SIZE, path], capture_output=True, check=True).stdout
    text, data, bss = (int(v) for v in out.splitlines()[1].split()[:3])
    return text, data, bss


with tempfile.TemporaryDirectory() as d:
    # the fixture with sized_escXname renamed to hold an ESC byte (same length)
    raw = open(ELF, "rb").read()
    check(raw.count(b"sized_escXname\0") >= 1, "the fixture names sized_escXname")
    hostile = os.path.join(d, "hostile.elf")
    with open(hostile, "wb") as f:
        f.write(raw.replace(b"sized_escXname\0", b"sized_esc\x1bname\0"))

    nm = nm_symbols(hostile)
    text, data, bss = berkeley(hostile)
    add = nm["sized_add"]
    check(nm.get("sized_add_alias", (None,))[0] == add[0] and
          nm.get("sized_add_weak", (None,))[0] == add[0],
          "nm: the two aliases sit at sized_add's address")

    rc, out, err = sizes(hostile)
    check(rc == 0, f"--sizes: exit {rc} ({err!r})")
    check(b"\x1b" not in out + err, "--sizes: no raw ESC byte in the table")
    check(b"sized_esc\\x1bname" in out, f"--sizes: the name shown escaped ({out!r})")
    lines = out.decode().splitlines()
    alias_lines = [l for l in lines if "sized_add" in l]
    check(len(alias_lines) == 1, f"aliases: one line ({alias_lines})")
    if alias_lines:
        line = alias_lines[0]
        check(all(n in line for n in ["sized_add", "sized_add_alias", "sized_add_weak"]),
              f"aliases: the line names all three ({line})")
        check(line.split()[-1] == str(add[1]), f"aliases: {add[1]} bytes once ({line})")

    json_path = os.path.join(d, "sizes.json")
    rc, out, err = sizes(hostile, "--json", json_path)
    check(rc == 0, f"--sizes --json: exit {rc} ({err!r})")
    doc = json.load(open(json_path, encoding="utf-8"))
    syms = doc["symbols"]
    by_first = {s["name"].split(", ")[0]: s for s in syms}
    table = by_first.get("sized_table")
    check(table is not None and table["kind"] == "object" and table["bytes"] == 1024 and
          table["section"] == ".text" and table["bytes"] == nm["sized_table"][1],
          f"the 1 KiB const table is listed as an object in .text ({table})")
    dat = by_first.get("sized_data")
    check(dat is not None and dat["kind"] == "object" and dat["section"] == ".data" and
          dat["bytes"] == 16, f"initialised data is listed with its section ({dat})")
    zeroed = by_first.get("sized_bss")
    check(zeroed is not None and zeroed["section"] == ".bss" and zeroed["memory"] == "ram" and
          zeroed["bytes"] == nm["sized_bss"][1] == 32,
          f"zeroed data is listed, in RAM ({zeroed})")
    check(dat is not None and dat["memory"] == "flash+ram" and table["memory"] == "flash",
          "initialised data is in flash and RAM, the const table in flash")
    check(syms == sorted(syms, key=lambda s: -s["bytes"]), "largest first")
    check(by_first.get("sized_esc\x1bname", {}).get("kind") == "function",
          "JSON keeps the name exactly (escaped by the JSON writer)")
    total = sum(s["bytes"] for s in syms)
    check(0 < total <= text + data + bss,
          f"the lines add up to {total} <= text + data + bss {text + data + bss}")
    for name, (addr, size, kind) in nm.items():
        if size > 0 and kind in "TtRrDdBb":
            check(any(name in s["name"].split(", ") for s in syms),
                  f"nm's {name} ({kind}, {size} bytes) is in the list")

    # section headers cut off: a clear refusal, not 0 bytes
    shoff = int.from_bytes(raw[0x20:0x24], "little")
    cut = os.path.join(d, "cut.elf")
    with open(cut, "wb") as f:
        f.write(raw[:shoff + 40])
    rc, out, err = sizes(cut)
    check(rc == 2, f"truncated ELF: exit {rc}, want 2")
    check(cut.encode() in err and b"truncated ELF" in err and b"rebuild or copy it again" in err,
          f"truncated ELF: names the file, what is wrong and what to do ({err!r})")
    check(b"text 0" not in out, f"truncated ELF: no size printed ({out!r})")
    p = subprocess.run([BENCHRACK, "measure", cut, "--function", "sized_main", "-n", "2"],
                       capture_output=True, timeout=60)
    check(p.returncode == 2 and b"truncated ELF" in p.stderr and b"stripped?" not in p.stderr,
          f"truncated ELF: measure says so too, not 'stripped?' ({p.stderr!r})")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
