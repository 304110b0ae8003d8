#!/usr/bin/env python3
"""Sizes of a plain firmware (own vector table and linker script, no stub;
issue 30), against GNU nm and size run on the same files:

- `benchrack measure OLD.elf --sizes` lists every allocated symbol, the
  256-byte .bss buffer included, with its section and memory (flash, RAM, or
  both for .data), and no stub-relative ("empty", "growth") columns;
- `benchrack diff OLD.elf NEW.elf` names every symbol whose size changed,
  with the byte counts arm-none-eabi-nm -S gives (flash for code and
  read-only data, RAM for .bss, both for .data), and no other; by section as
  arm-none-eabi-size -A gives; by compile unit as the sum of its symbols;
  in JSON (kind size_diff), the table and Markdown;
- an ELF against a record, or a format a size diff has not, is refused
  (exit 2).

usage: test_sizes_diff.py BENCHRACK OLD_ELF NEW_ELF NM SIZE
"""
import json
import os
import subprocess
import sys
import tempfile

BENCHRACK, OLD, NEW, NM, SIZE = sys.argv[1:6]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*args):
    p = subprocess.run([BENCHRACK, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def nm_sizes(path):
    """name -> (size, type letter) of every sized symbol, as nm -S says."""
    out = subprocess.run([NM, "-S", path], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            syms[parts[3]] = (int(parts[1], 16), parts[2])
    return syms


def section_sizes(path):
    """name -> size of every section of non-zero size, as size -A says."""
    out = subprocess.run([SIZE, "-A", path], capture_output=True, text=True, check=True).stdout
    secs = {}
    for line in out.splitlines():
        parts = line.split()
        # allocated sections only: the others (debug info) have address 0
        if len(parts) == 3 and parts[0].startswith(".") and parts[1].isdigit() and \
                int(parts[2]) != 0:
            secs[parts[0]] = int(parts[1])
    return secs


def memory(letter):
    """(flash, ram) weights of an nm type letter."""
    kind = letter.lower()
    if kind == "b":
        return 0, 1
    if kind == "d":
        return 1, 1
    return 1, 0


old_nm, new_nm = nm_sizes(OLD), nm_sizes(NEW)
check(old_nm.get("plain_buffer") == (256, "B"), f"nm: the old buffer is 256 bytes of .bss "
      f"({old_nm.get('plain_buffer')})")

with tempfile.TemporaryDirectory() as d:
    # --sizes on the plain firmware
    rc, out, err = run("measure", OLD, "--sizes")
    check(rc == 0, f"--sizes: exit {rc} ({err!r})")
    header = out.splitlines()[1] if len(out.splitlines()) > 1 else ""
    check("memory" in header and "empty" not in header and "growth" not in header,
          f"--sizes: a memory column, no stub-relative columns without the stub ({header!r})")
    check("footprint" not in out, "--sizes: no stub footprint for a firmware without the stub")
    buf = [l for l in out.splitlines() if l.startswith("plain_buffer ")]
    check(len(buf) == 1 and buf[0].split()[1:5] == ["object", ".bss", "ram", "256"],
          f"--sizes: the .bss buffer is listed, 256 bytes of RAM ({buf})")
    sizes_json = os.path.join(d, "sizes.json")
    rc, out, err = run("measure", OLD, "--sizes", "--json", sizes_json)
    check(rc == 0, f"--sizes --json: exit {rc} ({err!r})")
    syms = {s["name"].split(", ")[0]: s for s in json.load(open(sizes_json))["symbols"]}
    for name, (size, letter) in old_nm.items():
        if size == 0:
            continue
        s = syms.get(name)
        want = {(1, 0): "flash", (0, 1): "ram", (1, 1): "flash+ram"}[memory(letter)]
        check(s is not None and s["bytes"] == size and s["memory"] == want and
              s["empty_bytes"] is None,
              f"--sizes --json: nm's {name} ({letter}, {size} bytes) is listed in {want} ({s})")

    # the diff, in JSON
    diff_json = os.path.join(d, "diff.json")
    rc, out, err = run("diff", OLD, NEW, "-f", "json", "-o", diff_json)
    check(rc == 0 and out == "", f"diff -f json -o: exit {rc}, nothing on stdout ({err!r})")
    doc = json.load(open(diff_json))
    check(doc.get("kind") == "size_diff" and doc.get("schema_version") == 1,
          f"diff JSON: kind size_diff, schema_version 1 ({doc.get('kind')}, "
          f"{doc.get('schema_version')})")
    want = {}
    for name in set(old_nm) | set(new_nm):
        o, n = old_nm.get(name, (0, "T")), new_nm.get(name, (0, "T"))
        if o[0] != n[0]:
            f, r = memory(n[1] if name in new_nm else o[1])
            want[name] = (f * (n[0] - o[0]), r * (n[0] - o[0]))
    got = {row["name"].split(", ")[0]: (row["flash"]["change"], row["ram"]["change"])
           for row in doc["symbols"]["changed"]}
    check(want == got, f"diff: the symbols that changed and by how much, as nm -S says "
          f"(want {sorted(want.items())}, got {sorted(got.items())})")
    check(got.get("plain_buffer") == (0, 256) and got.get("plain_work", (0, 0))[0] > 0,
          f"diff: the buffer grew by 256 bytes of RAM and plain_work by some flash ({got})")
    states = {row["name"]: row["state"] for row in doc["symbols"]["changed"]}
    check(states.get("plain_added") == "added" and states.get("plain_removed") == "removed",
          f"diff: the added and removed functions are marked so ({states})")
    changes = [abs(r["flash"]["change"]) + abs(r["ram"]["change"])
               for r in doc["symbols"]["changed"]]
    check(changes == sorted(changes, reverse=True), f"diff: sorted by change ({changes})")
    unchanged = sum(1 for n in set(old_nm) & set(new_nm)
                    if old_nm[n][0] == new_nm[n][0] and old_nm[n][0] > 0)
    check(doc["symbols"]["unchanged"] == unchanged,
          f"diff: {unchanged} symbols unchanged ({doc['symbols']['unchanged']})")

    old_sec, new_sec = section_sizes(OLD), section_sizes(NEW)
    want_sec = {}
    for name in set(old_sec) | set(new_sec):
        delta = new_sec.get(name, 0) - old_sec.get(name, 0)
        if delta != 0:
            ram = name in (".bss", ".data")
            flash = name != ".bss"
            want_sec[name] = (delta if flash else 0, delta if ram else 0)
    got_sec = {r["name"]: (r["flash"]["change"], r["ram"]["change"])
               for r in doc["sections"]["changed"]}
    check(want_sec == got_sec, f"diff: by section as size -A says ({want_sec}, {got_sec})")

    units = {os.path.basename(r["name"]): (r["flash"]["change"], r["ram"]["change"])
             for r in doc["compile_units"]["changed"]}
    main_change = (sum(v[0] for v in want.values()), sum(v[1] for v in want.values()))
    check(units == {"plain_main.c": main_change},
          f"diff: by compile unit, plain_main.c holds every change {main_change} ({units})")
    sym_units = {os.path.basename(r["compile_unit"]) for r in doc["symbols"]["changed"]}
    check(sym_units == {"plain_main.c"}, f"diff: each symbol names its unit ({sym_units})")
    t = doc["total"]
    osz = subprocess.run([SIZE, OLD], capture_output=True, text=True).stdout.split("\n")[1]
    nsz = subprocess.run([SIZE, NEW], capture_output=True, text=True).stdout.split("\n")[1]
    (ot, od, ob), (nt, nd, nb) = [[int(v) for v in s.split()[:3]] for s in (osz, nsz)]
    check((t["flash"]["old"], t["flash"]["new"], t["ram"]["old"], t["ram"]["new"]) ==
          (ot + od, nt + nd, od + ob, nd + nb), f"diff: totals as size says ({t})")

    # the table and Markdown name the same
    rc, out, err = run("diff", OLD, NEW)
    check(rc == 0, f"diff table: exit {rc} ({err!r})")
    buf_line = [l for l in out.splitlines() if "plain_buffer" in l]
    check(len(buf_line) == 1 and buf_line[0].split()[3:6] == ["256", "512", "+256"],
          f"diff table: plain_buffer 256 -> 512 bytes of RAM ({buf_line})")
    rc, out, err = run("diff", OLD, NEW, "--format", "markdown")
    check(rc == 0 and "| plain_buffer | .bss |" in out and "| +256 |" in out,
          f"diff markdown: a row for plain_buffer ({out[:300]!r})")

    # refusals
    rec = os.path.join(d, "record.json")
    open(rec, "w").write("{}")
    rc, out, err = run("diff", OLD, rec)
    check(rc == 2 and OLD in err and "two ELFs" in err, f"ELF against a record: exit 2 ({err!r})")
    rc, out, err = run("diff", OLD, NEW, "-f", "csv")
    check(rc == 2 and "written as one of table, json, markdown" in err, f"-f csv: exit 2 ({err!r})")
    rc, out, err = run("diff", OLD, os.path.join(d, "missing.elf"))
    check(rc == 2 and "missing.elf" in err and "is not" not in err,
          f"a missing NEW: exit 2, naming the file ({err!r})")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
