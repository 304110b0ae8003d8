#!/usr/bin/env python3
"""Issue 23: a suite of entries on a firmware of the user's own making (own
vector table and linker script, no stub, no `firmware:` key) measures that
firmware and says so.
- `check` with `max_text_bytes: 1K` passes; the record's firmware path,
  build-id and text/data/bss are that ELF's (against `arm-none-eabi-readelf -n`
  and `arm-none-eabi-size`), and so are each entry's;
- a budget below its text fails naming its text (not the stub image's);
- an ELF linked without a build-id is named by the SHA-256 of its bytes
  (against hashlib);
- a suite whose entries name two ELFs has no run-level firmware and shows
  each entry's own.

Every record is valid against the JSON Schema (python3-jsonschema).

usage: test_own_firmware.py BENCHRACK SCHEMA
"""
import hashlib
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import own_firmware  # noqa: E402
from gate_lib import Checker, left_out, load, run  # noqa: E402

import jsonschema  # noqa: E402

BENCHRACK, SCHEMA = sys.argv[1:3]
c = Checker()
with open(SCHEMA, encoding="utf-8") as f:
    validator = jsonschema.Draft202012Validator(json.load(f))


def valid(path):
    errors = [e.message for e in validator.iter_errors(load(path))]
    c.check(errors == [], f"{os.path.basename(path)} is valid against the JSON Schema",
            "\n".join(errors[:5]))


def suite(path, benches, budgets="{max_text_bytes: 1K}"):
    lines = ["name: own", "boards: [qemu-netduinoplus2]", "default_iterations: 10",
             "warmup_runs: 1", "stack_watermark: false", f"budgets: {budgets}", "benches:"]
    lines += [f"  - {b}" for b in benches]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path


def same_firmware(fw, elf, what):
    text, data, bss = own_firmware.size_text(elf)
    bid = own_firmware.readelf_build_id(elf)
    c.check(fw is not None and os.path.realpath(fw["path"]) == os.path.realpath(elf),
            f"{what}: path is the ELF's", str(fw))
    c.check(fw is not None and bid is not None and fw["build_id"] == bid,
            f"{what}: build-id {bid} as readelf -n prints it", str(fw))
    c.check(fw is not None and (fw["text_bytes"], fw["data_bytes"], fw["bss_bytes"]) ==
            (text, data, bss), f"{what}: text/data/bss {text}/{data}/{bss} as size prints them",
            str(fw))


with tempfile.TemporaryDirectory() as tmp:
    app = os.path.join(tmp, "app")
    own_firmware.write(app)
    elf = own_firmware.build(app)
    results = os.path.join(tmp, "results")
    entries = ["{name: work, elf: build/app.elf, function: work}",
               "{name: tick, elf: build/app.elf, function: tick}"]
    s = suite(os.path.join(app, "suite.yaml"), entries)
    rec_path = os.path.join(tmp, "a.json")
    code, out, err = run(BENCHRACK, ["check", s, "--results-dir", results, "--json", rec_path])
    print(out, err)
    c.check(code == 0, "check of the own firmware with max_text_bytes: 1K passes", f"exit {code}")
    rec = load(rec_path)
    valid(rec_path)
    c.check(rec["schema_version"] == 3, "the record is schema 3")
    same_firmware(rec["firmware"], elf, "the record's firmware")
    for b in rec["benches"]:
        same_firmware(b.get("firmware"), elf, f"entry {b['name']}'s firmware")
    c.check("suite-O2" not in open(rec_path, encoding="utf-8").read(),
            "benchrack's stub image is nowhere in the record")
    med = {b["name"]: b.get("median") for b in rec["benches"]}
    c.check(med == {"work": 3002, "tick": 5},
            "work 1 + 3 x 1000 + 1 and tick 5 instructions (the disassembly's count)", str(med))

    text = own_firmware.size_text(elf)[0]
    s_small = suite(os.path.join(app, "small.yaml"), entries, "{max_text_bytes: 100}")
    code, out, err = run(BENCHRACK, ["check", s_small, "--results-dir", results])
    c.check(code == 1 and re.search(rf"text_bytes {text} exceeds budget max_text_bytes 100",
                                    err) is not None,
            f"max_text_bytes 100 fails on this ELF's text ({text})", f"exit {code}\n{err}")

    # no build-id: the content hash names it
    bare = os.path.join(tmp, "bare")
    own_firmware.write(bare, loops=10, build_id=False)
    bare_elf = own_firmware.build(bare)
    c.check(own_firmware.readelf_build_id(bare_elf) is None, "the bare ELF has no build-id note")
    s_bare = suite(os.path.join(bare, "suite.yaml"),
                   ["{name: work, elf: build/app.elf, function: work}"])
    bare_rec = os.path.join(tmp, "bare.json")
    code, out, err = run(BENCHRACK, ["check", s_bare, "--results-dir", results, "--json",
                                     bare_rec])
    valid(bare_rec)
    with open(bare_elf, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    fw = load(bare_rec)["firmware"] if code == 0 else {}
    c.check(code == 0 and fw.get("build_id") is None and fw.get("sha256") == digest,
            f"an ELF without build-id is named by its SHA-256 {digest[:16]}...", f"{code} {fw}")

    # two ELFs in one suite: each entry shows its own, the run names none
    mixed = suite(os.path.join(tmp, "mixed.yaml"),
                  ["{name: work, elf: app/build/app.elf, function: work}",
                   "{name: bare_work, elf: bare/build/app.elf, function: work}"])
    mixed_rec = os.path.join(tmp, "mixed.json")
    code, out, err = run(BENCHRACK, ["check", mixed, "--results-dir", results, "--json",
                                     mixed_rec])
    rec = load(mixed_rec)
    valid(mixed_rec)
    c.check(code == 0 and rec["firmware"] is None, "a suite of two ELFs: no run-level firmware",
            f"{code} {rec.get('firmware')}\n{err}")
    bid = own_firmware.readelf_build_id(elf)
    c.check(re.search(rf"^firmware \S*/app/build/app\.elf: build-id {bid[:16]}, text {text}, "
                      r"data 0, bss 4 bytes \(work\)$", out, re.M) is not None and
            re.search(rf"^firmware \S*/bare/build/app\.elf: sha256 {digest[:16]}, .*"
                      r"\(bare_work\)$", out, re.M) is not None,
            "the table shows each firmware with what names it, its sizes and its benches", out)
    by = {b["name"]: b for b in rec["benches"]}
    same_firmware(by["work"].get("firmware"), elf, "entry work")
    c.check(by["bare_work"].get("firmware", {}).get("sha256") == digest and
            by["bare_work"]["median"] == 32, "entry bare_work: its own ELF (10 loops: 32)",
            str(by["bare_work"]))
    page = os.path.join(tmp, "r.html")
    bad = left_out(BENCHRACK, results, page)
    c.check(bad == [], "report reads every record", "\n".join(bad))
    html = open(page, encoding="utf-8").read()
    c.check('"name":"reset_handler"' in html and '"name":"work"' in html and
            "br_host_sync" not in html and "suite-O2" not in html,
            "the report's biggest functions are the own firmware's, not the stub image's")

sys.exit(c.finish())
