#!/usr/bin/env python3
"""Every output format, read by a real consumer:
- JSON (--format json, and every run record and baseline on disk) validated
  against results/schema/benchrack.schema.json with python3-jsonschema;
- JUnit XML parsed by xml.etree with the elements and attributes CI systems
  read (testsuites/testsuite/testcase, name, classname, time, tests,
  failures, errors, skipped; failure message and type; skipped);
- CSV read by the csv module (RFC 4180);
- Bencher Metric Format checked against Bencher's published JSON Schema;
- Markdown parsed as a GitHub table (header, delimiter row, equal cells);
- the terminal table in colour only on a TTY, never with NO_COLOR.

usage: test_formats.py BENCHRACK GATE_ELF SLOWER_ELF PLAIN_ELF SCHEMA
"""
import csv
import io
import json
import os
import pty
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import jsonschema

sys.path.insert(0, os.path.dirname(__file__))
from gate_lib import (BOARD, ITERATIONS, Checker, load, run, runs_in,  # noqa: E402
                      test_board, write_suite, write_unreachable_board)

BENCHRACK, GATE, SLOWER, PLAIN, SCHEMA = sys.argv[1:6]
c = Checker()

# Bencher's JSON Schema for BMF (https://bencher.dev/bmf.json), draft-07.
BMF_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema",
    "type": "object",
    "patternProperties": {".+": {
        "type": "object",
        "patternProperties": {".+": {
            "type": "object",
            "properties": {"value": {"type": "number"}, "lower_value": {"type": "number"},
                           "upper_value": {"type": "number"}},
            "required": ["value"],
        }},
    }},
}

with open(SCHEMA, encoding="utf-8") as f:
    schema = json.load(f)
validator = jsonschema.Draft202012Validator(schema)


def valid(doc, what):
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    detail = "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    return c.check(not errors, f"{what} is valid against the JSON Schema", detail)


with tempfile.TemporaryDirectory() as tmp:
    results = os.path.join(tmp, "results")
    base = ["--results-dir", results, "--commit", "0123abc"]
    suite = write_suite(os.path.join(tmp, "s.yaml"), GATE,
                        ["empty", "nop1000", "work",
                         f"{{name: app_calls, elf: {PLAIN}, function: plain_fixed}}"],
                        budgets="{max_text_bytes: 64K}")
    write_unreachable_board(os.path.join(tmp, "boards"))
    nucleo = os.path.join(tmp, "n.yaml")
    with open(nucleo, "w", encoding="utf-8") as f:
        f.write(f"name: n\nboards: [openocd-unreachable]\nbenches:\n"
                f"  - {{name: app_calls, elf: {PLAIN}, function: plain_fixed}}\n")
    plain = write_suite(os.path.join(tmp, "p.yaml"), GATE, ["empty", "nop1000", "work"])
    rc, _, err = run(BENCHRACK, ["run", plain, "--write-baseline"] + base)
    c.check(rc == 0, "baseline recorded", err)
    baseline = os.path.join(results, "baselines", "gate", BOARD + ".json")
    valid(load(baseline), "the baseline")
    valid(load(runs_in(results)[0]), "the run record")

    outputs = {}
    for fmt in ["json", "junit", "csv", "markdown", "bmf"]:
        path = os.path.join(tmp, "out." + fmt)
        rc, out, err = run(BENCHRACK, ["check", plain, "--firmware", SLOWER, "--format", fmt,
                                       "--output", path] + base)
        c.check(rc == 1 and os.path.isfile(path),
                f"check --format {fmt} --output: exit 1 (slower), file written (got {rc})", err)
        c.check(f"board {BOARD}" in out, f"--output {fmt}: the table still on stdout")
        with open(path, encoding="utf-8") as f:
            outputs[fmt] = f.read()
    for path in runs_in(results):
        valid(load(path), os.path.basename(path))

    # JSON report
    report = json.loads(outputs["json"])
    valid(report, "the --format json report")
    c.check(report["verdict"] == "fail", "report verdict fail")
    gate = report["runs"][0]["gate"]
    reg = [f for f in gate["findings"] if f["kind"] == "regression"]
    c.check(len(reg) == 1 and reg[0]["bench"] == "work" and reg[0]["metric"] == "instructions"
            and reg[0]["percent"] > 5, "one regression: work, instructions, over 5%", str(reg))
    rows = report["runs"][0]["comparison"]["rows"]
    work = next(r for r in rows if r["bench"] == "work" and r["metric"] == "instructions")
    c.check(work["verdict"] == "worse" and work["new"] > work["old"] and
            abs(work["change_percent"] - 100 * (work["new"] - work["old"]) / work["old"]) < 1e-9,
            "comparison row: old, new, change percent, verdict")

    # JUnit
    root = ET.fromstring(outputs["junit"])
    c.check(root.tag == "testsuites", "JUnit root is <testsuites>")
    suites = root.findall("testsuite")
    c.check(len(suites) == 1, "one <testsuite> per board")
    ts = suites[0]
    for attr in ["name", "tests", "failures", "errors", "skipped", "time"]:
        c.check(attr in ts.attrib, f"<testsuite {attr}=...>")
    cases = ts.findall("testcase")
    c.check(int(ts.get("tests")) == len(cases), f"tests={ts.get('tests')} counts the testcases")
    for case in cases:
        ok = all(a in case.attrib for a in ["name", "classname", "time"])
        float(case.get("time", "0"))
        c.check(ok, f"<testcase {case.get('name')}> has name, classname, time")
    failed = [tc for tc in cases if tc.find("failure") is not None]
    c.check(int(ts.get("failures")) == len(failed) and
            [tc.get("name") for tc in failed] == ["work"], "failures: the work testcase only")
    failure = failed[0].find("failure") if failed else None
    c.check(failure is not None and failure.get("type") == "regression" and
            "work: instructions" in failure.get("message", ""), "<failure message type>")
    c.check(int(root.get("failures")) == int(ts.get("failures")), "totals on <testsuites>")
    c.check(ts.find("properties/property[@name='board']").get("value") == BOARD,
            "board in <properties>")

    # A suite with an entry measured at breakpoints: every format still valid.
    path = os.path.join(tmp, "mixed.json")
    rc, _, err = run(BENCHRACK, ["run", suite, "-o", path] + base)
    if c.check(rc == 0, "run with a breakpoint entry -o FILE.json", err):
        mixed = load(path)
        valid(mixed, "a report with a breakpoint entry")
        entry = mixed["runs"][0]["benches"][3]
        c.check(entry["mode"] == "function" and entry["heap"] is None and
                entry["calibration"] is not None, "the entry's mode, heap and calibration")
    for fmt in ["csv", "junit", "markdown", "bmf"]:
        rc, out, err = run(BENCHRACK, ["run", suite, "--format", fmt] + base)
        c.check(rc == 0 and out.strip() != "", f"--format {fmt} with a breakpoint entry", err)

    # JUnit with an entry that cannot run: <skipped>.
    path = os.path.join(tmp, "skipped.xml")
    rc, _, err = run(BENCHRACK, ["run", nucleo, "-o", path] + base)
    c.check(rc == 3, "run -o FILE.xml: junit inferred from the extension (the board is not "
            "there: exit 3)", err)
    ts = ET.parse(path).getroot().find("testsuite")
    skipped = [tc for tc in ts.findall("testcase") if tc.find("skipped") is not None]
    c.check([tc.get("name") for tc in skipped] == ["app_calls"] and ts.get("skipped") == "1",
            "a bench that could not run is <skipped>", open(path).read())
    c.check("Error: open failed" in skipped[0].find("skipped").get("message", "")
            if skipped else False, "skipped says why")

    # CSV
    table = list(csv.DictReader(io.StringIO(outputs["csv"], newline="")))
    header = outputs["csv"].splitlines()[0].split(",")
    c.check(header == ["board", "bench", "status", "metric", "unit", "n", "median", "p10", "p90",
                       "min", "max", "baseline", "change_percent", "verdict", "budget", "gate"],
            "CSV header", str(header))
    by = {(r["bench"], r["metric"]): r for r in table}
    w = by.get(("work", "instructions"))
    c.check(w is not None and w["verdict"] == "worse" and w["gate"] == "fail" and
            float(w["change_percent"]) > 5 and int(w["n"]) == ITERATIONS,
            "CSV: work's instructions row, worse, failing the gate", str(w))
    c.check(by.get(("nop1000", "stack_bytes"), {}).get("unit") == "bytes", "CSV: stack rows")
    c.check(("(firmware)", "text_bytes") in by, "CSV: the firmware's text")
    c.check(all(r["board"] == BOARD for r in table), "CSV: every row names the board")

    # BMF
    bmf = json.loads(outputs["bmf"])
    errors = list(jsonschema.Draft7Validator(BMF_SCHEMA).iter_errors(bmf))
    c.check(not errors, "BMF valid against Bencher's schema", str(errors[:3]))
    c.check(sorted(bmf) == ["empty", "firmware", "nop1000", "work"], "BMF benchmarks", str(bmf))
    c.check(bmf["work"]["instructions"]["value"] == work["new"] and
            bmf["work"]["instructions"]["lower_value"] <= bmf["work"]["instructions"]["value"]
            <= bmf["work"]["instructions"]["upper_value"], "BMF: median with its p10-p90 band")
    c.check("stack-bytes" in bmf["work"] and "text-bytes" in bmf["firmware"], "BMF: sizes")

    # Markdown
    lines = [line for line in outputs["markdown"].splitlines() if line.startswith("|")]
    c.check(len(lines) >= 5, "Markdown has a table", outputs["markdown"])

    def cells(line):
        return [x.strip() for x in re.split(r"(?<!\\)\|", line.strip())[1:-1]]

    if len(lines) >= 2:
        c.check(all(re.fullmatch(r":?-{3,}:?", cell) for cell in cells(lines[1])),
                "Markdown delimiter row", lines[1])
        width = len(cells(lines[0]))
        c.check(all(len(cells(line)) == width for line in lines),
                f"Markdown: every row has {width} cells")
        names = [cells(line)[0] for line in lines[2:]]
        c.check(names == ["empty", "nop1000", "work"], "Markdown: a row per bench", str(names))
    c.check("**Gate: fail**" in outputs["markdown"] and "**regression**" in outputs["markdown"],
            "Markdown: the gate and its findings")

    # The format on stdout replaces the table.
    rc, out, err = run(BENCHRACK, ["run", plain, "--format", "json"] + base)
    c.check(rc == 0 and json.loads(out)["kind"] == "report", "--format json alone: JSON on stdout")
    rc, out, err = run(BENCHRACK, ["run", plain, "--format", "yaml"] + base)
    c.check(rc == 2 and "--format yaml: unknown format; expected one of json, csv, junit, "
            "markdown, bmf" in err, "an unknown format is a usage error", err)

    # Colour: only on a TTY, never with NO_COLOR.
    def on_tty(env):
        leader, follower = pty.openpty()
        p = subprocess.run([BENCHRACK, "check", plain] + base, stdout=follower,
                           stderr=subprocess.PIPE, env=env, timeout=120)
        os.close(follower)
        data = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
        os.close(leader)
        return p.returncode, data.decode(errors="replace")

    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    rc, text = on_tty(env)
    c.check(rc == 0 and "\x1b[32mPASS\x1b[0m" in text, "colour on a TTY", repr(text[-300:]))
    rc, text = on_tty(dict(env, NO_COLOR="1"))
    c.check(rc == 0 and "\x1b[" not in text and "PASS" in text, "no colour with NO_COLOR")
    rc, out, err = run(BENCHRACK, ["check", plain] + base, env=env)
    c.check(rc == 0 and "\x1b[" not in out + err, "no colour when not a TTY")
    c.check(re.search(r"^bench\s+n\s+median\s+p10\s+p90\s+min\s+max\s+net\s+stack\s+heap\s+unit$",
                      out, re.M)
            is not None, "the table's header", out)
    unit = "  " + test_board.unit()
    rows = [line for line in out.splitlines() if line.endswith(unit)]
    c.check(len(rows) == 3 and len({len(line) for line in rows}) == 1 and
            len({line.index(unit) for line in rows}) == 1, "the table's columns are aligned", out)

sys.exit(c.finish())
