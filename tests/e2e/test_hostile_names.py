#!/usr/bin/env python3
"""Hostile names and figures, end to end, with no board: each case is a
finding of issue 12 that must stay fixed.

- A suite or bench named with control characters (YAML escapes "\\x1b[31m",
  "\\r", "\\a") is a configuration error (exit 2) whose message shows them as
  escapes: no raw ESC, CR or BEL byte on stdout or stderr.
- Run records whose names hold control bytes (planted in the JSON), compared
  by `benchrack diff` as a table and in every --format: no raw control byte
  in any output.
- Huge figures in a baseline (1e40, 1e308) are printed as what they are
  (1e+40, 1e+308), never cut to 31 characters, and their change in percent
  is a number, never "-inf%".
- Issue 31: the same for a right-to-left override, an isolate and the line
  and paragraph separators (U+202E, U+2066, U+2028, U+2029): \\uNNNN in
  every output, refused in a bench name.
- A suite file starting with a UTF-8 byte order mark reads as without it.
- `benchrack report` of such records: no raw control byte in the HTML page
  nor in what it prints (a firmware path with a BEL once reached stderr).

usage: test_hostile_names.py BENCHRACK
"""
import json
import os
import subprocess
import sys
import tempfile

BENCHRACK = sys.argv[1]
failures = []
RAW = [b"\x1b", b"\r", b"\x07",
       # issue 31: a right-to-left override, an isolate, the line and paragraph separators
       "\u202e".encode(), "\u2066".encode(), "\u2028".encode(), "\u2029".encode()]


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*args, cwd):
    p = subprocess.run([BENCHRACK, *args], cwd=cwd, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def no_raw(out, what):
    bad = [r for r in RAW if r in out]
    check(not bad, f"{what}: no raw control byte (found {bad})")


def record(board, bench, figure, kind="run"):
    return {
        "schema_version": 2, "kind": kind, "status": "complete", "error": None,
        "timestamp": "2026-01-02T03:04:05Z", "benchrack_version": "0.1.0", "host": "h",
        "suite": "s\x1b[31m", "suite_path": "x.yaml", "board": board,
        "server": "qemu\r", "counter": {"name": "tim2", "unit": "instructions", "clock_hz": None},
        "firmware": {"path": "/f\x07.elf", "build_id": None, "git_commit": None,
                     "toolchain": None, "text_bytes": 1, "data_bytes": 0, "bss_bytes": 0},
        "fail_on_regression_percent": 5, "budgets": {},
        "benches": [{"name": bench, "status": "measured", "reason": None, "mode": "stub",
                     "elf": None, "warmup": 0, "n": 1, "median": figure, "p10": figure,
                     "p90": figure, "p95": figure, "p99": figure, "min": figure,
                     "max": figure, "mean": figure, "mad": 0, "cv_median": 0,
                     "outliers": 0, "stack_bytes": None, "heap": None,
                     "calibration": None, "budgets": {}}],
    }


with tempfile.TemporaryDirectory() as d:
    # 1. control characters in a suite's names: refused, shown escaped
    for name, text in [
        ("suite name", 'name: "s\\x1b[31m"\nboards: [qemu-netduinoplus2]\nbenches: [empty]\n'),
        ("bench name", 'name: s\nboards: [qemu-netduinoplus2]\nbenches: ["e\\r\\a"]\n'),
        ("bench name with a right-to-left override",
         'name: s\nboards: [qemu-netduinoplus2]\nbenches: ["e\\u202eevil"]\n'),
    ]:
        path = os.path.join(d, "s.yaml")
        with open(path, "w") as f:
            f.write(text)
        rc, out, err = run("run", path, cwd=d)
        check(rc == 2, f"{name} with control characters: exit {rc}, want 2")
        check(b"holds a control character" in err, f"{name}: says why ({err!r})")
        no_raw(out + err, name)

    # 1b. issue 31 (ND3): a suite name longer than a record keeps is refused
    # with file:line, never cut (a character cut in half became U+FFFD)
    long_name = "s" * 62 + "\u00e9"  # 64 bytes, the last character two of them
    path = os.path.join(d, "long.yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'name: "{long_name}"\nboards: [host]\nbenches: [empty]\n')
    rc, out, err = run("run", path, "--board", "host", "-n", "2", "--results-dir",
                       os.path.join(d, "long-results"), cwd=d)
    check(rc == 2 and b"long.yaml:1:7: suite name" in err and b"64 bytes long" in err,
          f"a 64-byte suite name: refused with file:line, exit {rc} ({err!r})")

    # 2. a byte order mark is no content
    path = os.path.join(d, "bom.yaml")
    with open(path, "wb") as f:
        f.write(b"\xef\xbb\xbfname: s\nboards: [qemu-netduinoplus2]\nbenchs: [empty]\n")
    rc, out, err = run("run", path, cwd=d)
    check(rc == 2 and b"bom.yaml:3:1: unknown key 'benchs'" in err,
          f"BOM: the file reads as without it ({err!r})")

    # 3. planted names in records, and huge figures
    for figure, shown in [(1e40, b"1e+40"), (1e308, b"1e+308")]:
        old = os.path.join(d, "old.json")
        new = os.path.join(d, "new.json")
        with open(old, "w") as f:
            json.dump(record("b\x1b]0;x\x07\u202elive\u2028", "n\x1b[2J\u2066\u2029", figure, "baseline"), f)
        with open(new, "w") as f:
            json.dump(record("b\x1b]0;x\x07\u202elive\u2028", "n\x1b[2J\u2066\u2029", figure / 2), f)
        rc, out, err = run("diff", old, new, cwd=d)
        check(rc == 0, f"diff {figure:g}: exit {rc} ({err!r})")
        no_raw(out + err, f"diff table {figure:g}")
        check(shown in out, f"diff table shows {shown!r} ({out!r})")
        check(b"-50.0%" in out and b"inf" not in out,
              f"diff table: change -50.0 %, not inf ({out!r})")
        for fmt in ["json", "csv", "junit", "markdown", "bmf"]:
            rc, out, err = run("diff", old, new, "--format", fmt, cwd=d)
            check(rc == 0, f"diff --format {fmt}: exit {rc} ({err!r})")
            if fmt == "csv":  # RFC 4180 ends rows with CR LF: only those CRs are allowed
                out = out.replace(b"\r\n", b"\n")
            no_raw(out + err, f"diff --format {fmt} {figure:g}")
            if fmt == "json":
                json.loads(out)

    # 4. the HTML report of such records, and what it says on the terminal
    runs = os.path.join(d, "hostile", "runs")
    os.makedirs(runs)
    with open(os.path.join(runs, "20260102T030405.000Z-b.json"), "w") as f:
        json.dump(record("b\x1b]0;x\x07\u202elive\u2028", "n\x1b[2J\u2066\u2029", 5e39), f)
    page = os.path.join(d, "report.html")
    rc, out, err = run("report", "-o", page, "--results-dir", os.path.join(d, "hostile"), cwd=d)
    check(rc == 0, f"report: exit {rc} ({err!r})")
    no_raw(out + err, "report on the terminal")
    with open(page, "rb") as f:
        no_raw(f.read(), "report HTML")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
