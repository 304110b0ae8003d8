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
- report_page: the data `report` embeds in its HTML page;
- upload_item: the spool files `upload` leaves for a webhook that is not
  there (results/spool/) and one a server refused with 400 (results/rejected/,
  with its `rejected` object), and a version 1 spool file (spooled before
  versioning) still delivered;
and every .json file the runs left anywhere under the test's folder names
its kind and version. Each schema refuses its document without
schema_version, with another version, and with an unknown key, so the
check can fail.

usage: test_json_kinds.py BENCHRACK SUITE_ELF PLAIN_ELF OLD_ELF NEW_ELF SCHEMA_DIR
"""
import copy
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import test_board  # noqa: E402

BENCHRACK, SUITE, PLAIN, OLD, NEW, SCHEMAS = sys.argv[1:7]
# The build's board (its images are linked for it); an address no code
# reaches after reset: the first word of its flash (the vector table's).
BOARD = test_board.NAME
ON_BOARD = ["--board", BOARD]
NEVER = hex(test_board.flash()[0])
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
              for kind in ["measurement", "profile", "rack", "size_diff", "upload_item",
                           "report_page"]}
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
        ("function", ["measure", PLAIN, *ON_BOARD, "--function", "plain_fixed", "-n", "3"]),
        ("range, stack", ["measure", PLAIN, *ON_BOARD, "--from", "plain_fixed", "--to",
                          "plain_long", "--stack", "-n", "2"]),
        ("stub, sizes", ["measure", SUITE, *ON_BOARD, "--bench", "nop1000", "-n", "3",
                         "--sizes"]),
        ("sizes only", ["measure", PLAIN, *ON_BOARD, "--sizes"]),
        ("failed", ["measure", PLAIN, *ON_BOARD, "--from", "plain_fixed", "--to", NEVER,
                    "-n", "2", "--timeout", "1"]),
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
        rc, out, err = run("profile", PLAIN, *ON_BOARD, *args, "--format", "json", "-o", path)
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
        f.write(f"name: tiny\nfirmware: {SUITE}\nboards: [{BOARD}]\n"
                "default_iterations: 3\nbenches: [empty, nop1000]\n")
    record = os.path.join(tmp, "run.json")
    report = os.path.join(tmp, "report.json")
    rc, out, err = run("run", suite, "--results-dir", res, "--json", record, "--write-baseline")
    check(rc == 0, f"run: exit {rc} ({err[-200:]!r})")
    validate(record, "run", "run record")
    validate(os.path.join(res, "baselines", "tiny", BOARD + ".json"), "baseline",
             "baseline")
    rc, out, err = run("check", suite, "--results-dir", res, "--format", "json", "--output",
                       report)
    check(rc == 0, f"check --format json: exit {rc} ({err[-200:]!r})")
    validate(report, "report", "report")

    # report_page: the data `report` embeds in its page, over those records
    page = os.path.join(tmp, "page.html")
    rc, out, err = run("report", "--results-dir", res, "-o", page)
    check(rc == 0, f"report page: exit {rc} ({err[-200:]!r})")
    data = None
    if os.path.exists(page):
        with open(page, encoding="utf-8") as f:
            m = re.search(r'<script[^>]*id="benchrack-data"[^>]*>(.*?)</script>', f.read(), re.S)
        check(m is not None, "report page: script#benchrack-data is there")
        data = m.group(1) if m else None
    if data is not None:
        path = os.path.join(tmp, "page-data.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(data)
        doc = validate(path, "report_page", "report page data")
        if doc is not None:
            check(len(doc.get("runs", [])) == 2 and len(doc.get("baselines", [])) == 1,
                  f"report page data: the run, the check and the baseline "
                  f"({len(doc.get('runs', []))} runs, {len(doc.get('baselines', []))} baselines)")

    # upload_item: a webhook nobody listens on (spooled), one answering 400
    # (rejected/), one answering 204 that a version 1 spool file goes to
    class Hook(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            status = 400 if self.path == "/refuse" else 204
            self.send_response(status)
            self.send_header("Content-Length", "2" if status == 400 else "0")
            self.end_headers()
            if status == 400:
                self.wfile.write(b"no")
            posted.append(self.path)

        def log_message(self, *args):
            pass

    posted = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    uploads = os.path.join(tmp, "uploads.yaml")
    with open(uploads, "w", encoding="utf-8") as f:
        f.write("max_attempts: 1\nmax_total_seconds: 10\nsinks:\n"
                "  - {name: dead, kind: webhook, url: 'http://127.0.0.1:1/h'}\n"
                f"  - {{name: refuse, kind: webhook, url: 'http://127.0.0.1:{port}/refuse'}}\n"
                f"  - {{name: old, kind: webhook, url: 'http://127.0.0.1:{port}/old'}}\n")
    old_item = os.path.join(res, "spool", "v1-item--old.json")
    os.makedirs(os.path.dirname(old_item), exist_ok=True)
    with open(old_item, "w", encoding="utf-8") as f:
        json.dump({"spool_version": 1, "id": "v1-item--old", "sink": "old", "kind": "webhook",
                   "run_file": record, "spooled": "2026-11-29T12:00:00.000Z", "method": "POST",
                   "url": f"http://127.0.0.1:{port}/old", "content_type": "application/json",
                   "idempotency_key": "v1-item", "auth": None, "ca_file": None,
                   "connect_timeout_ms": 2000, "timeout_ms": 5000, "attempts": 0,
                   "last_error": None, "not_before": None, "rejected": None, "body": "{}"}, f)
    runs = sorted(os.listdir(os.path.join(res, "runs")))
    rc, out, err = run("upload", "--upload-config", uploads, "--results-dir", res,
                       os.path.join(res, "runs", runs[-1]))
    server.shutdown()
    check(rc in (2, 3), f"upload: exit {rc} (one refused, one left spooled) ({err[-300:]!r})")
    check(posted.count("/old") == 2 and not os.path.exists(old_item),
          f"upload: the version 1 spool file was read and delivered ({posted})")
    run_stem = runs[-1][:-5]
    for where, sink in [("spool", "dead"), ("rejected", "refuse")]:
        path = os.path.join(res, where, f"{run_stem}--{sink}.json")
        check(os.path.exists(path), f"upload_item ({where}): {path} written")
        if os.path.exists(path):
            doc = validate(path, "upload_item", f"upload_item ({where})")
            if doc is not None:
                check(doc.get("sink_kind") == "webhook" and
                      (where != "rejected" or (doc.get("rejected") or {}).get("status") == 400),
                      f"upload_item ({where}): sink_kind {doc.get('sink_kind')!r}, "
                      f"rejected {doc.get('rejected')!r}")

    # rack
    rack = os.path.join(tmp, "tiny-rack.yaml")
    with open(rack, "w", encoding="utf-8") as f:
        f.write("name: tinyrack\nsuites: [tiny.yaml]\n"
                f"boards:\n  - {{name: a, board: {BOARD}}}\n")
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
    check(seen >= 14, f"{seen} JSON files written and checked")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
