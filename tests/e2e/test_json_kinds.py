#!/usr/bin/env python3
"""Every JSON document benchrack writes carries `kind` and `schema_version`
and validates against its JSON Schema in results/schema/ (issue 30), with
python3-jsonschema, on documents the CLI writes for real (QEMU):

- measurement: `measure --json` at breakpoints (function; range with
  --stack), in batch mode with --sizes, sizes only, and a failed one;
- profile: `profile --format json`, sampled and --exact;
- rack: the rack document of a one-board rack;
- size_diff: `diff OLD.elf NEW.elf -f json`;
- run, baseline and report: `run --json`, `--write-baseline`, `--format json`
  (benchrack.schema.json);
and every .json file the runs left anywhere under the test's folder names
its kind and version. Each schema refuses its document without
schema_version, with another version, and with an unknown key, so the
check can fail.

usage: test_json_kinds.py BENCHRACK SUITE_ELF PLAIN_ELF OLD_ELF NEW_ELF SCHEMA_DIR
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

BENCHRACK, SUITE, PLAIN, OLD, NEW, SCHEMAS = sys.argv[1:7]
failures = []
TIMEOUT_S = 120


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*args, cwd=None):
    p = subprocess.run([BENCHRACK, *args], capture_output=True, text=True, timeout=TIMEOUT_S,
                       cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def validator(name):
    with open(os.path.join(SCHEMAS, name), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


VALIDATORS = {kind: validator(kind + ".schema.json")
              for kind in ["measurement", "profile", "rack", "size_diff"]}
RESULTS = validator("benchrack.schema.json")
for kind in ["run", "baseline", "report"]:
    VALIDATORS[kind] = RESULTS


def validate(path, kind, what):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{what}: {path} is JSON ({e})")
        return None
    v = VALIDATORS[kind]
    errors = [f"{'/'.join(str(p) for p in e.path)}: {e.message[:160]}"
              for e in v.iter_errors(doc)]
    check(doc.get("kind") == kind and isinstance(doc.get("schema_version"), int),
          f"{what}: kind {doc.get('kind')!r}, schema_version {doc.get('schema_version')!r}")
    check(not errors, f"{what}: valid against its schema {errors[:3]}")
    # the schema bites: no version, another version, an unknown key
    for label, mutate in [("without schema_version", lambda d: d.pop("schema_version")),
                          ("of another version",
                           lambda d: d.__setitem__("schema_version", 999)),
                          ("with an unknown key", lambda d: d.__setitem__("no_such_key", 1))]:
        bad = copy.deepcopy(doc)
        mutate(bad)
        check(not v.is_valid(bad), f"{what}: refused {label}")
    return doc


with tempfile.TemporaryDirectory() as tmp:
    res = os.path.join(tmp, "results")

    # measurement
    cases = [
        ("function", ["measure", PLAIN, "--function", "plain_fixed", "-n", "3"]),
        ("range, stack", ["measure", PLAIN, "--from", "plain_fixed", "--to", "plain_long",
                          "--stack", "-n", "2"]),
        ("stub, sizes", ["measure", SUITE, "--bench", "nop1000", "-n", "3", "--sizes"]),
        ("sizes only", ["measure", PLAIN, "--sizes"]),
        ("failed", ["measure", PLAIN, "--from", "plain_fixed", "--to", "0x08000000", "-n", "2",
                    "--timeout", "1"]),
    ]
    for name, args in cases:
        path = os.path.join(tmp, f"measure-{name.replace(', ', '-').replace(' ', '-')}.json")
        rc, out, err = run(*args, "--json", path)
        check(os.path.exists(path), f"measurement ({name}): written (exit {rc}, {err[-200:]!r})")
        if os.path.exists(path):
            doc = validate(path, "measurement", f"measurement ({name})")
            if name == "failed" and doc is not None:
                check(doc.get("status") == "failed", f"measurement (failed): status {doc.get('status')}")

    # profile
    for name, args in [("sampled", ["--duration", "0.3"]),
                       ("exact", ["--function", "plain_fixed", "--exact"])]:
        path = os.path.join(tmp, f"profile-{name}.json")
        rc, out, err = run("profile", PLAIN, *args, "--format", "json", "-o", path)
        check(rc == 0, f"profile ({name}): exit {rc} ({err[-200:]!r})")
        if os.path.exists(path):
            validate(path, "profile", f"profile ({name})")

    # size diff
    path = os.path.join(tmp, "size-diff.json")
    rc, out, err = run("diff", OLD, NEW, "-f", "json", "-o", path)
    check(rc == 0, f"size diff: exit {rc} ({err!r})")
    if os.path.exists(path):
        validate(path, "size_diff", "size diff")

    # run, baseline, report
    suite = os.path.join(tmp, "tiny.yaml")
    with open(suite, "w", encoding="utf-8") as f:
        f.write(f"name: tiny\nfirmware: {SUITE}\nboards: [qemu-netduinoplus2]\n"
                "default_iterations: 3\nbenches: [empty, nop1000]\n")
    record = os.path.join(tmp, "run.json")
    report = os.path.join(tmp, "report.json")
    rc, out, err = run("run", suite, "--results-dir", res, "--json", record, "--write-baseline")
    check(rc == 0, f"run: exit {rc} ({err[-200:]!r})")
    validate(record, "run", "run record")
    validate(os.path.join(res, "baselines", "tiny", "qemu-netduinoplus2.json"), "baseline",
             "baseline")
    rc, out, err = run("check", suite, "--results-dir", res, "--format", "json", "--output",
                       report)
    check(rc == 0, f"check --format json: exit {rc} ({err[-200:]!r})")
    validate(report, "report", "report")

    # rack
    rack = os.path.join(tmp, "tiny-rack.yaml")
    with open(rack, "w", encoding="utf-8") as f:
        f.write("name: tinyrack\nsuites: [tiny.yaml]\n"
                "boards:\n  - {name: a, board: qemu-netduinoplus2}\n")
    rc, out, err = run("rack", rack, "--results-dir", res, "--lock-dir",
                       os.path.join(tmp, "locks"))
    check(rc == 0, f"rack: exit {rc} ({err[-200:]!r})")
    rack_doc = os.path.join(res, "racks", "tinyrack.json")
    check(os.path.exists(rack_doc), f"rack document at {rack_doc}")
    if os.path.exists(rack_doc):
        validate(rack_doc, "rack", "rack document")

    # every JSON file written here names its kind and version
    seen = 0
    for root, _, files in os.walk(tmp):
        for name in files:
            if not name.endswith(".json"):
                continue
            seen += 1
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            kind = doc.get("kind")
            check(kind in VALIDATORS and isinstance(doc.get("schema_version"), int),
                  f"{os.path.relpath(path, tmp)}: kind {kind!r} and a schema_version")
            if kind in VALIDATORS:
                errors = list(VALIDATORS[kind].iter_errors(doc))
                check(not errors, f"{os.path.relpath(path, tmp)}: valid as {kind} "
                      f"{[e.message[:120] for e in errors[:2]]}")
    check(seen >= 12, f"{seen} JSON files written and checked")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
