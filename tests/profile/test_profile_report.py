#!/usr/bin/env python3
"""The profiler's outputs render as flame graphs in benchrack's own report
(flamegraph.pl and inferno are not packaged by Debian 12; the npm `inferno`
is an unrelated UI library): `benchrack report --profile` reads the folded
and the speedscope output of one profile, says it wrote both, and the page
carries every function of the chains in each.

usage: test_profile_report.py BENCHRACK PROFILE_ELF
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import Checks  # noqa: E402

BENCHRACK, ELF = sys.argv[1:3]
NAMES = ["br_reset_handler", "br_main", "profile_caller", "profile_leaf_short",
         "profile_leaf_long"]
c = Checks()
with tempfile.TemporaryDirectory() as tmp:
    files = []
    for fmt, name in (("folded", "p.folded"), ("speedscope", "p.speedscope.json")):
        path = os.path.join(tmp, name)
        # one sample per 100 instructions, not the default 1000: a loaded host
        # logs few instructions in 1 s, and each name must be sampled
        p = subprocess.run([BENCHRACK, "profile", ELF, "--duration", "1", "--interval", "100",
                            "--format", fmt, "--output", path],
                           capture_output=True, text=True, timeout=60)
        c.check(p.returncode == 0 and os.path.exists(path), f"profile --format {fmt} written")
        files += ["--profile", path]
    os.mkdir(os.path.join(tmp, "results"))
    page = os.path.join(tmp, "page.html")
    p = subprocess.run([BENCHRACK, "report", "-o", page, "--results-dir",
                        os.path.join(tmp, "results"), *files],
                       capture_output=True, text=True, timeout=60)
    c.show(p.stdout, p.stderr)
    c.check(p.returncode == 0, f"report exits 0 (got {p.returncode})")
    c.check("2 profiles" in p.stdout + p.stderr, "it wrote both profiles")
    html = open(page, encoding="utf-8").read() if os.path.exists(page) else ""
    for n in NAMES:
        c.check(html.count(n) >= 2, f"{n} in the page for each profile ({html.count(n)})")
sys.exit(c.finish())
