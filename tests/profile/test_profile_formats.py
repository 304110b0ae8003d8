#!/usr/bin/env python3
"""The outputs of `benchrack profile`, on one short sampled profile of
profile-O2.elf and the usage errors:
- speedscope validates against speedscope's published file-format schema
  (speedscope/file-format-schema.json, from the speedscope npm package,
  MIT: speedscope/LICENSE) and says its $schema; its weights add up to the
  samples in the region;
- folded is one `frame;frame;... COUNT` line per chain, counts adding up
  likewise, every line starting at the reset handler or [unknown];
- the table names the functions and prints the standard errors;
- --board reaches the board through its board file (the runner);
- bad options exit 2 before anything runs.

usage: test_profile_formats.py BENCHRACK PROFILE_ELF SCHEMA
"""
import json
import os
import re
import subprocess
import sys

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from measure_cli import Checks  # noqa: E402
from profile_cli import profile  # noqa: E402

BENCHRACK, ELF, SCHEMA = sys.argv[1:4]
c = Checks()
ARGS = ["--function", "profile_caller", "--duration", "1"]

rc, out, err, doc = profile(BENCHRACK, ELF, *ARGS, fmt="speedscope")
c.show(err)
c.check(rc == 0 and doc is not None, f"speedscope written (exit {rc})")
with open(SCHEMA, encoding="utf-8") as f:
    schema = json.load(f)
try:
    jsonschema.validate(doc, schema)
    c.check(True, "speedscope output validates against speedscope's schema")
except jsonschema.ValidationError as e:
    c.check(False, f"speedscope output validates against speedscope's schema: {e.message}")
c.check(doc and doc.get("$schema") == "https://www.speedscope.app/file-format-schema.json",
        "it names the schema")
m = re.search(r"(\d+) in the region", out)
in_region = int(m.group(1)) if m else -1
prof = doc["profiles"][0] if doc else {}
c.check(sum(prof.get("weights", [])) == in_region,
        f"weights add up to the samples in the region ({in_region})")
c.check(all(0 <= i < len(doc["shared"]["frames"]) for s in prof.get("samples", []) for i in s),
        "every sample names frames that exist")

rc, out, err, text = profile(BENCHRACK, ELF, *ARGS, fmt="folded")
c.check(rc == 0 and text is not None, f"folded written (exit {rc})")
lines = (text or "").splitlines()
shape = all(re.fullmatch(r"[^; ]+(;[^; ]+)* \d+", ln) for ln in lines)
c.check(lines and shape, f"{len(lines)} lines of `a;b;c COUNT`")
m = re.search(r"(\d+) in the region", out)
total = sum(int(ln.rsplit(" ", 1)[1]) for ln in lines) if shape else -1
c.check(m is not None and total == int(m.group(1)), f"counts add up ({total})")
c.check(all(ln.startswith(("br_reset_handler;", "[unknown];")) for ln in lines),
        "every chain starts at the reset handler or [unknown]")

c.check("profile_leaf_long" in out and "±" in out, "the table names functions, with ±")

rc, out, err, rec = profile(BENCHRACK, ELF, "--board", "qemu-netduinoplus2", *ARGS)
c.check(rc == 0 and rec is not None and rec["board"] == "netduinoplus2" and rec["counted"] > 0,
        f"--board qemu-netduinoplus2: reached through its board file (exit {rc})")

for bad, why in [(["--board", "qemu-netduinoplus2", "--remote", "127.0.0.1:1"],
                  "--board with --remote"),
                 (["--load", "sometimes"], "an unknown load policy"),
                 (["--format", "svg"], "an unknown format"),
                 (["--exact"], "--exact without a region"),
                 (["--from", "profile_caller"], "--from without --to"),
                 (["--function", "no_such_function"], "an unknown function"),
                 (["--unwind", "guess"], "an unknown unwinder")]:
    p = subprocess.run([BENCHRACK, "profile", ELF, *bad], capture_output=True, text=True,
                       timeout=30)
    c.check(p.returncode == 2 and p.stderr.strip() != "", f"{why}: exit 2 ({p.returncode}: "
                                                           f"{p.stderr.strip()[:100]})")
sys.exit(c.finish())
